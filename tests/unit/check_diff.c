/* The diff core's pieces: word diffs, and the reader over a buffer giving
 * the same questions and findings as over the file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "../../tools/lib/core/buf.h"
#include "../../tools/lib/diff_words.h"
#include "../../tools/lib/reader.h"
#include "../../tools/lib/rules.h"

/* The word diff in git's plain notation. */
static void render(struct qb_buf *b, const char *old_text, const char *new_text)
{
	struct qb_word_seg *w = NULL;
	size_t n = 0, i, same = 0;

	ck_assert_int_eq(qb_words_diff(&w, &n, &same, old_text, new_text), 0);
	qb_buf_clear(b);
	for (i = 0; i < n; i++) {
		if (w[i].space)
			qb_buf_addc(b, ' ');
		qb_buf_adds(b, w[i].op == QB_WORD_DEL ? "[-" : w[i].op == QB_WORD_INS ? "{+" : "");
		qb_buf_add(b, w[i].s, w[i].len);
		qb_buf_adds(b, w[i].op == QB_WORD_DEL ? "-]" : w[i].op == QB_WORD_INS ? "+}" : "");
	}
	free(w);
}

START_TEST(words_diff)
{
	struct qb_buf b = QB_BUF_INIT;

	render(&b, "Which technique reduces traffic?", "Which method reduces traffic?");
	ck_assert_str_eq(b.ptr, "Which [-technique-] {+method+} reduces traffic?");
	render(&b, "a b c", "a b c");
	ck_assert_str_eq(b.ptr, "a b c");
	render(&b, "", "new words");
	ck_assert_str_eq(b.ptr, "{+new words+}");
	/* a tag is a word of its own */
	render(&b, "the <em>only</em> key", "the <strong>only</strong> key");
	ck_assert_str_eq(b.ptr, "the [-<em>-] {+<strong>+}only[-</em>-]{+</strong>+} key");
	ck_assert(qb_words_similarity("a b c d", "a b c d") == 1.0);
	ck_assert(qb_words_similarity("a b", "c d") == 0.0);
	ck_assert(qb_words_similarity("a b c d", "a b c e") == 0.75);
	qb_buf_dispose(&b);
}
END_TEST

/* Too many words on both sides for the table: one deletion, one insertion. */
START_TEST(words_diff_bounded)
{
	struct qb_buf a = QB_BUF_INIT, c = QB_BUF_INIT;
	struct qb_word_seg *w = NULL;
	size_t n = 0, i;

	for (i = 0; i < 2000; i++) {
		qb_buf_printf(&a, "a%zu ", i);
		qb_buf_printf(&c, "c%zu ", i);
	}
	ck_assert_int_eq(qb_words_diff(&w, &n, NULL, a.ptr, c.ptr), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_int_eq(w[0].op, QB_WORD_DEL);
	ck_assert_int_eq(w[1].op, QB_WORD_INS);
	free(w);
	qb_buf_dispose(&a);
	qb_buf_dispose(&c);
}
END_TEST

static void count_diag(void *ctx, const char *file, unsigned long line, enum qb_rule_key rule,
		       const char *question, const char *message)
{
	(void)file; (void)line; (void)question; (void)message;
	qb_buf_printf(ctx, "%s;", qb_rules[rule].id);
}

/* Reads FILE from disk or from memory: ids, lines and findings. */
static void read_all(struct qb_buf *out, const char *file, int memory)
{
	struct qb_buf diags = QB_BUF_INIT, data = QB_BUF_INIT;
	struct qb_reader_opts ro;
	struct qb_reader *r = NULL;
	struct qb_error err = { 0, "" };
	const struct qb_question *q;
	xmlSchemaPtr schema = NULL;
	char chunk[4096];
	size_t n;

	memset(&ro, 0, sizeof(ro));
	ck_assert_int_eq(qb_schema_load(&schema, &err), 0);
	ro.schema = schema;
	ro.on_diag = count_diag;
	ro.diag_ctx = &diags;
	if (memory) {
		FILE *f = fopen(file, "rb");

		ck_assert_ptr_nonnull(f);
		while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
			qb_buf_add(&data, chunk, n);
		fclose(f);
		ck_assert_int_eq(qb_reader_open_memory(&r, file, data.ptr ? data.ptr : "", data.len,
						       &ro, &err), 0);
	} else {
		ck_assert_int_eq(qb_reader_open(&r, file, &ro, &err), 0);
	}
	qb_buf_clear(out);
	while (qb_reader_next(r, &q) == 1)
		qb_buf_printf(out, "%s:%lu:%s ", q->id ? q->id : "", q->line, q->file);
	qb_buf_printf(out, "| %s", diags.ptr ? diags.ptr : "");
	qb_reader_free(r);
	qb_schema_free(schema);
	qb_buf_dispose(&diags);
	qb_buf_dispose(&data);
}

START_TEST(reader_memory_as_file)
{
	static const char *const files[] = {
		"tests/fixtures/diff/base.xml", "tests/fixtures/reader/malformed.xml",
		"tests/fixtures/scraped-quiz.xml", "tests/fixtures/hostile.xml",
	};
	struct qb_buf a = QB_BUF_INIT, b = QB_BUF_INIT;
	size_t i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		read_all(&a, files[i], 0);
		read_all(&b, files[i], 1);
		ck_assert_str_eq(a.ptr, b.ptr);
	}
	qb_buf_dispose(&a);
	qb_buf_dispose(&b);
}
END_TEST

START_TEST(reader_memory_empty)
{
	struct qb_reader_opts ro;
	struct qb_reader *r = NULL;
	struct qb_error err = { 0, "" };
	struct qb_buf diags = QB_BUF_INIT;
	const struct qb_question *q;

	memset(&ro, 0, sizeof(ro));
	ro.on_diag = count_diag;
	ro.diag_ctx = &diags;
	ck_assert_int_eq(qb_reader_open_memory(&r, "HEAD:empty.xml", NULL, 0, &ro, &err), 0);
	ck_assert_int_eq(qb_reader_next(r, &q), 0);
	ck_assert_str_eq(diags.ptr, "xml-syntax;");
	qb_reader_free(r);
	qb_buf_dispose(&diags);
}
END_TEST

Suite *suite_diff(void)
{
	Suite *s = suite_create("diff");
	TCase *tc = tcase_create("diff");

	tcase_add_test(tc, words_diff);
	tcase_add_test(tc, words_diff_bounded);
	tcase_add_test(tc, reader_memory_as_file);
	tcase_add_test(tc, reader_memory_empty);
	suite_add_tcase(s, tc);
	return s;
}
