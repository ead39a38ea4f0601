/* The streaming reader: each type into the struct, line numbers (also past
 * line 65535), malformed and schema-invalid files as findings, I/O errors;
 * and the pipeline over it: the same calls on one thread and on two. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../tools/lib/core/buf.h"
#include "../../tools/lib/lint.h"
#include "../../tools/lib/reader.h"
#include "../../tools/lib/reader_hold.h"
#include "../../tools/lib/rules.h"
#include "../../tools/lib/run.h"
#include "../../tools/lib/text.h"
#include "check_suites.h"

#define FIX "tests/fixtures/reader/"

struct found {
	char rule[32];
	char question[64];
	unsigned long line;
	char msg[512];
};

struct sink {
	struct found v[16];
	int n;
};

static void on_diag(void *ctx, const char *file, unsigned long line, enum qb_rule_key rule,
		    const char *question, const char *message)
{
	struct sink *s = ctx;

	(void)file;
	if (s->n >= 16)
		return;
	snprintf(s->v[s->n].rule, sizeof(s->v[s->n].rule), "%s", qb_rules[rule].id);
	snprintf(s->v[s->n].question, sizeof(s->v[s->n].question), "%s", question ? question : "");
	snprintf(s->v[s->n].msg, sizeof(s->v[s->n].msg), "%s", message);
	s->v[s->n].line = line;
	s->n++;
}

static xmlSchemaPtr schema;

static void load_schema(void)
{
	struct qb_error err = { 0, "" };

	ck_assert_int_eq(qb_schema_load(&schema, &err), 0);
}

static void free_schema(void)
{
	qb_schema_free(schema);
	schema = NULL;
}

static struct qb_reader *open_fixture(const char *path, struct sink *s)
{
	struct qb_reader_opts o = { schema, 0, on_diag, s };
	struct qb_error err = { 0, "" };
	struct qb_reader *r = NULL;

	ck_assert_msg(qb_reader_open(&r, path, &o, &err) == 0, "%s", err.msg);
	return r;
}

static const char *plain(const xmlNode *n)
{
	static struct qb_buf b;

	qb_buf_clear(&b);
	qb_text_plain(&b, n);
	return b.ptr ? b.ptr : "";
}

START_TEST(reads_every_type)
{
	struct sink s = { .n = 0 };
	struct qb_reader *r = open_fixture(FIX "all-types.xml", &s);
	const struct qb_question *q;
	const struct qb_bank_info *b;

	ck_assert_int_eq(qb_reader_next(r, &q), 1);
	ck_assert_str_eq(q->id, "q-single");
	ck_assert_int_eq(q->type, QB_Q_SINGLE);
	ck_assert_uint_eq(q->line, 9);
	ck_assert_uint_eq(q->stem_line, 13);
	ck_assert_str_eq(plain(q->stem), "Which one?");
	ck_assert_double_eq(q->points_value, 2.0);
	ck_assert_str_eq(q->source, "fixture");
	ck_assert_uint_eq(q->ntags, 2);
	ck_assert_str_eq(q->tags[1], "b");
	ck_assert_uint_eq(q->noptions, 2);
	ck_assert_str_eq(q->options[0].id, "A");
	ck_assert_int_eq(q->options[0].correct, 0);
	ck_assert_uint_eq(q->options[0].line, 14);
	ck_assert_uint_eq(q->options[0].rationale_line, 15);
	ck_assert_str_eq(q->options[1].id, "right");
	ck_assert_int_eq(q->options[1].correct, 1);
	ck_assert_str_eq(plain(q->options[1].text), "Second");
	ck_assert_uint_eq(q->explanation_line, 18);
	ck_assert_uint_eq(q->ncategories, 1);
	ck_assert_str_eq(q->categories[0], "Choice");
	ck_assert_uint_eq(q->npragmas, 1);
	ck_assert_uint_eq(q->pragmas[0].line, 8);
	ck_assert_int_eq(q->schema_invalid, 0);
	b = qb_reader_bank(r);
	ck_assert_str_eq(b->title, "Reader fixture");
	ck_assert_str_eq(b->id, "reader-all-types");
	ck_assert_str_eq(b->lang, "en");
	ck_assert_ptr_nonnull(b->description);

	ck_assert_int_eq(qb_reader_next(r, &q), 1);
	ck_assert_str_eq(q->id, "q-multiple");
	ck_assert_int_eq(q->type, QB_Q_MULTIPLE);
	ck_assert_int_eq(q->has_select, 1);
	ck_assert_int_eq(q->select, 2);
	ck_assert_int_eq(q->shuffle, 0);
	ck_assert_int_eq(q->options[1].correct, 1);
	ck_assert_str_eq(q->options[2].id, "C");
	ck_assert_uint_eq(q->ncategories, 2);
	ck_assert_str_eq(q->categories[1], "Nested");
	ck_assert_uint_eq(q->npragmas, 0);

	ck_assert_int_eq(qb_reader_next(r, &q), 1);
	ck_assert_str_eq(q->id, "q-tf");
	ck_assert_uint_eq(q->ncategories, 0);
	ck_assert_uint_eq(q->nanswers, 1);
	ck_assert_str_eq(q->answers[0].value, "false");
	ck_assert_uint_eq(q->nside_rationales, 2);
	ck_assert_int_eq(q->side_rationales[0].for_true, 1);
	ck_assert_int_eq(q->side_rationales[1].for_true, 0);

	ck_assert_int_eq(qb_reader_next(r, &q), 1);
	ck_assert_str_eq(q->id, "q-short");
	ck_assert_int_eq(q->case_sensitive, 1);
	ck_assert_uint_eq(q->nanswers, 2);
	ck_assert_str_eq(q->answers[1].value, "DistributedDataParallel");

	ck_assert_int_eq(qb_reader_next(r, &q), 1);
	ck_assert_str_eq(q->id, "q-num");
	ck_assert_str_eq(q->answers[0].tolerance, "0.5");
	ck_assert_str_eq(q->answers[0].unit, "GB");

	ck_assert_int_eq(qb_reader_next(r, &q), 1);
	ck_assert_str_eq(q->id, "q-essay");
	ck_assert_ptr_nonnull(q->response);
	ck_assert_ptr_nonnull(q->rubric);

	ck_assert_int_eq(qb_reader_next(r, &q), 1);
	ck_assert_str_eq(q->id, "q-match");
	ck_assert_uint_eq(q->npairs, 2);
	ck_assert_str_eq(plain(q->pairs[1].premise), "Pipeline");
	ck_assert_str_eq(plain(q->pairs[1].response), "Layers");
	ck_assert_uint_eq(q->ndistractors, 1);

	ck_assert_int_eq(qb_reader_next(r, &q), 0);
	ck_assert_int_eq(s.n, 0);
	qb_reader_free(r);
}
END_TEST

/* The parser reads ahead, so a fatal error may stop the file before the
 * questions in front of it are handed out; what matters is the finding. */
START_TEST(malformed_is_a_finding)
{
	struct sink s = { .n = 0 };
	struct qb_reader *r = open_fixture(FIX "malformed.xml", &s);
	const struct qb_question *q;
	int n = 0;

	while (qb_reader_next(r, &q) == 1)
		n++;
	ck_assert_int_le(n, 1);
	ck_assert_int_ge(s.n, 1);
	ck_assert_str_eq(s.v[0].rule, "xml-syntax");
	ck_assert_uint_eq(s.v[0].line, 10);
	ck_assert_ptr_nonnull(strstr(s.v[0].msg, "StartTag"));
	qb_reader_free(r);
}
END_TEST

START_TEST(schema_error_names_line_and_question)
{
	struct sink s = { .n = 0 };
	struct qb_reader *r = open_fixture(FIX "invalid.xml", &s);
	const struct qb_question *q;

	ck_assert_int_eq(qb_reader_next(r, &q), 1);
	ck_assert_int_eq(q->schema_invalid, 0);
	ck_assert_int_eq(qb_reader_next(r, &q), 1);
	ck_assert_str_eq(q->id, "bad-1");
	ck_assert_int_eq(q->schema_invalid, 1);
	ck_assert_int_eq(qb_reader_next(r, &q), 1);
	ck_assert_str_eq(q->id, "ok-2");
	ck_assert_int_eq(q->schema_invalid, 0);
	ck_assert_int_eq(qb_reader_next(r, &q), 0);
	ck_assert_int_ge(s.n, 1);
	ck_assert_str_eq(s.v[0].rule, "xml-schema");
	ck_assert_uint_eq(s.v[0].line, 11);
	ck_assert_str_eq(s.v[0].question, "bad-1");
	ck_assert_ptr_nonnull(strstr(s.v[0].msg, "hint"));
	qb_reader_free(r);
}
END_TEST

START_TEST(empty_file_is_a_finding)
{
	struct sink s = { .n = 0 };
	struct qb_reader *r = open_fixture(FIX "empty.xml", &s);
	const struct qb_question *q;

	ck_assert_int_eq(qb_reader_next(r, &q), 0);
	ck_assert_int_eq(s.n, 1);
	ck_assert_str_eq(s.v[0].rule, "xml-syntax");
	ck_assert_uint_eq(s.v[0].line, 1);
	qb_reader_free(r);
}
END_TEST

START_TEST(missing_file_is_an_io_error)
{
	struct qb_reader_opts o = { schema, 0, on_diag, NULL };
	struct qb_error err = { 0, "" };
	struct qb_reader *r = NULL;

	ck_assert_int_eq(qb_reader_open(&r, FIX "no-such-file.xml", &o, &err), QB_EIO);
	ck_assert_ptr_null(r);
	ck_assert_ptr_nonnull(strstr(err.msg, "no-such-file.xml"));
	ck_assert_int_eq(qb_reader_open(&r, FIX, &o, &err), QB_EIO);
}
END_TEST

/* A question after line 65535 keeps its real line (XML_PARSE_BIG_LINES),
 * and so does a schema error there. */
START_TEST(lines_beyond_65535)
{
	char path[] = "/tmp/qbank-biglines-XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");
	struct sink s = { .n = 0 };
	struct qb_reader *r;
	const struct qb_question *q;
	int i;

	ck_assert_ptr_nonnull(f);
	fputs("<?xml version=\"1.0\"?>\n<bank id=\"b\" version=\"1\">\n<title>t</title>\n", f);
	for (i = 0; i < 70000; i++)
		fputs("\n", f);
	/* line 70004 */
	fputs("<question id=\"far\" type=\"single\">\n<stem>s</stem>\n"
	      "<option correct=\"true\"><text>a</text></option>\n<bogus/>\n</question>\n</bank>\n", f);
	fclose(f);
	r = open_fixture(path, &s);
	ck_assert_int_eq(qb_reader_next(r, &q), 1);
	ck_assert_uint_eq(q->line, 70004);
	ck_assert_uint_eq(q->stem_line, 70005);
	ck_assert_uint_eq(q->options[0].line, 70006);
	ck_assert_int_eq(s.n, 1);
	ck_assert_uint_eq(s.v[0].line, 70007);
	qb_reader_free(r);
	unlink(path);
}
END_TEST

/* Writes TEXT (LEN bytes) to a new temporary file; PATH receives its name. */
static void write_temp(char *path, const char *text, size_t len)
{
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "wb");

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(text, 1, len, f), len);
	ck_assert_int_eq(fclose(f), 0);
}

/* Hardening: a DOCTYPE (entities, XXE) or a non-UTF-8 file is refused with
 * one finding before anything else is parsed. */
START_TEST(doctype_and_encoding_are_refused)
{
	static const struct {
		const char *text;
		size_t len;
		const char *rule;
		unsigned long line;
	} cases[] = {
		{ "<?xml version=\"1.0\"?>\n<!DOCTYPE bank [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>\n"
		  "<bank id=\"b\" version=\"1\"><title>&x;</title></bank>\n", 0, "xml-doctype", 2 },
		{ "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<bank id=\"b\" version=\"1\">"
		  "<title>t</title></bank>\n", 0, "xml-encoding", 1 },
		/* UTF-16LE with a byte-order mark: "<?" */
		{ "\xff\xfe<\0?\0x\0m\0l\0", 12, "xml-encoding", 1 },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char path[] = "/tmp/qbank-hostile-XXXXXX";
		struct sink s = { .n = 0 };
		struct qb_reader *r;
		const struct qb_question *q;

		write_temp(path, cases[i].text, cases[i].len ? cases[i].len : strlen(cases[i].text));
		r = open_fixture(path, &s);
		ck_assert_int_eq(qb_reader_next(r, &q), 0);
		ck_assert_int_eq(s.n, 1);
		ck_assert_str_eq(s.v[0].rule, cases[i].rule);
		ck_assert_uint_eq(s.v[0].line, cases[i].line);
		ck_assert_ptr_null(strstr(s.v[0].msg, "root:"));
		qb_reader_free(r);
		unlink(path);
	}
}
END_TEST

/* libxml2's two-line messages become one line (output formats are line based). */
START_TEST(messages_are_one_line)
{
	static const char text[] = "<?xml version=\"1.0\"?>\n<bank id=\"b\" version=\"1\">\n"
				   "<title>caf\xe9 \xff</title></bank>\n";
	char path[] = "/tmp/qbank-hostile-XXXXXX";
	struct sink s = { .n = 0 };
	struct qb_reader *r;
	const struct qb_question *q;
	int i;

	write_temp(path, text, sizeof(text) - 1);
	r = open_fixture(path, &s);
	while (qb_reader_next(r, &q) == 1)
		;
	ck_assert_int_ge(s.n, 1);
	for (i = 0; i < s.n; i++)
		ck_assert_ptr_null(strchr(s.v[i].msg, '\n'));
	ck_assert_ptr_nonnull(strstr(s.v[0].msg, "not valid UTF-8"));
	qb_reader_free(r);
	unlink(path);
}
END_TEST

/* An id over the limit is reported, shortened, and the question is handed
 * out invalid so that no rule or exporter works on it. */
START_TEST(limits_make_a_question_invalid)
{
	char path[] = "/tmp/qbank-hostile-XXXXXX";
	struct sink s = { .n = 0 };
	struct qb_reader *r;
	const struct qb_question *q;
	char text[1024];
	char id[202];

	memset(id, 'i', 201);
	id[201] = '\0';
	snprintf(text, sizeof(text), "<?xml version=\"1.0\"?>\n<bank id=\"b\" version=\"1\">"
		 "<title>t</title>\n<question id=\"%s\" type=\"single\"><stem>s</stem>"
		 "<option correct=\"true\"><text>a</text></option><option><text>b</text></option>"
		 "</question>\n</bank>\n", id);
	write_temp(path, text, strlen(text));
	r = open_fixture(path, &s);
	ck_assert_int_eq(qb_reader_next(r, &q), 1);
	ck_assert_int_eq(q->schema_invalid, 1);
	ck_assert_uint_eq(strlen(q->id), 100 + 3);   /* 100 characters and U+2026 */
	ck_assert_int_eq(s.n, 1);
	ck_assert_str_eq(s.v[0].rule, "limit-exceeded");
	ck_assert_uint_eq(s.v[0].line, 3);
	ck_assert_int_eq(qb_reader_next(r, &q), 0);
	qb_reader_free(r);
	unlink(path);
}
END_TEST

/* no_img says "no <img> in this question" only while the parser has met
 * no element of that name (its dictionary holds every name it has read,
 * and it reads a little ahead of the question handed out): the rules and
 * the target checks skip their walks for images on it. */
START_TEST(no_img_only_before_the_first_image)
{
	char path[] = "/tmp/qbank-img-XXXXXX";
	struct sink s = { .n = 0 };
	struct qb_reader *r;
	const struct qb_question *q;
	struct qb_buf b = QB_BUF_INIT;
	int i;

	ck_assert_int_eq(qb_buf_adds(&b, "<?xml version=\"1.0\"?>\n<bank id=\"b\" version=\"1\">"
					 "<title>t</title>\n"), 0);
	/* 200 questions (about 40 KB) without an image, one with, one without */
	for (i = 0; i < 202; i++)
		ck_assert_int_eq(qb_buf_printf(&b, "<question id=\"q%d\" type=\"single\"><stem>Stem "
					       "of question %d%s</stem><option correct=\"true\"><text>"
					       "yes</text></option><option><text>no</text></option>"
					       "</question>\n", i, i,
					       i == 200 ? " <img src=\"x.png\" alt=\"x\"/>" : ""), 0);
	ck_assert_int_eq(qb_buf_adds(&b, "</bank>\n"), 0);
	write_temp(path, b.ptr, b.len);
	r = open_fixture(path, &s);
	ck_assert_int_eq(qb_reader_next(r, &q), 1);
	ck_assert_str_eq(q->id, "q0");
	ck_assert_int_eq(q->no_img, 1);
	for (i = 1; i <= 200; i++)
		ck_assert_int_eq(qb_reader_next(r, &q), 1);
	ck_assert_str_eq(q->id, "q200");
	ck_assert_int_eq(q->no_img, 0);
	ck_assert_int_eq(qb_reader_next(r, &q), 1);
	ck_assert_str_eq(q->id, "q201");
	ck_assert_int_eq(q->no_img, 0);   /* not known without a walk */
	ck_assert_int_eq(qb_reader_next(r, &q), 0);
	qb_reader_free(r);
	qb_buf_dispose(&b);
	unlink(path);
}
END_TEST

/* Held questions stay whole while the reader reads on: their subtrees,
 * attributes, categories and pragmas outlive the end tags of their
 * categories, until they are given back. */
START_TEST(held_questions_stay_until_released)
{
	struct qb_reader_opts o = { schema, 0, on_diag, NULL };
	struct qb_error err = { 0, "" };
	const struct qb_question *q[4];
	struct qb_reader *r = NULL;
	struct sink s = { .n = 0 };
	int i;

	o.diag_ctx = &s;
	ck_assert_int_eq(qb_reader_open(&r, FIX "all-types.xml", &o, &err), 0);
	ck_assert_int_eq(qb_reader_hold(r, 3), 0);
	for (i = 0; i < 3; i++)
		ck_assert_int_eq(qb_reader_next(r, &q[i]), 1);
	ck_assert_int_eq(qb_reader_next(r, &q[3]), QB_EINVAL);
	ck_assert_str_eq(q[0]->id, "q-single");
	ck_assert_str_eq(qb_text_attr(q[0]->node, "points"), "2");
	ck_assert_uint_eq(q[0]->npragmas, 1);
	ck_assert_uint_eq(q[0]->ncategories, 1);
	ck_assert_str_eq(q[0]->categories[0], "Choice");
	ck_assert_str_eq(plain(q[0]->stem), "Which one?");
	ck_assert_str_eq(q[1]->id, "q-multiple");
	ck_assert_uint_eq(q[1]->ncategories, 2);
	ck_assert_str_eq(q[1]->categories[1], "Nested");
	ck_assert_uint_eq(q[1]->npragmas, 0);
	ck_assert_str_eq(q[2]->id, "q-tf");
	ck_assert_uint_eq(q[2]->ncategories, 0);
	ck_assert_ptr_eq(q[2]->node->children->parent, q[2]->node);
	qb_reader_release(r, q[1]);
	ck_assert_int_eq(qb_reader_next(r, &q[1]), 1);
	ck_assert_str_eq(q[1]->id, "q-short");
	ck_assert_str_eq(q[0]->categories[0], "Choice");
	qb_reader_free(r);  /* frees the questions still held */
}
END_TEST

/* ---- the pipeline -------------------------------------------------------- */

static int trace_bank(void *ctx, const struct qb_bank_info *b, struct qb_error *err)
{
	(void)err;
	return qb_buf_printf(ctx, "bank %s '%s'\n", b->file, b->title ? b->title : "");
}

static int trace_question(void *ctx, const struct qb_question *q, struct qb_error *err)
{
	size_t i;
	int rc;

	(void)err;
	rc = qb_buf_printf(ctx, "question %s:%lu '%s' options %zu pragmas %zu in", q->file,
			   q->line, q->id ? q->id : "", q->noptions, q->npragmas);
	for (i = 0; i < q->ncategories && !rc; i++)
		rc = qb_buf_printf(ctx, " '%s'", q->categories[i]);
	return rc ? rc : qb_buf_addc(ctx, '\n');
}

/* Runs FILES through qb_run with QBANK_THREADS set to THREADS (NULL:
 * unset), with a question hook or (HOOKLESS, as qbank lint) none; appends
 * every call of the hooks and then every finding to OUT. */
static void trace_run_with(struct qb_buf *out, const char *const *files, size_t n,
			   const char *threads, int hookless)
{
	struct qb_run_hooks h = { out, trace_bank, hookless ? NULL : trace_question, NULL };
	struct qb_error err = { 0, "" };
	const struct qb_diags *d;
	struct qb_lint *l = NULL;
	size_t i;

	if (threads)
		ck_assert_int_eq(setenv("QBANK_THREADS", threads, 1), 0);
	else
		ck_assert_int_eq(unsetenv("QBANK_THREADS"), 0);
	ck_assert_int_eq(qb_lint_new(&l, NULL, &err), 0);
	ck_assert_msg(qb_run(l, files, n, &h, &err) == 0, "%s", err.msg);
	d = qb_lint_diags(l);
	for (i = 0; i < d->n; i++)
		ck_assert_int_eq(qb_buf_printf(out, "%s:%lu: %s [%s] '%s'\n", d->v[i].file,
					       d->v[i].line, d->v[i].message, d->v[i].rule,
					       d->v[i].question ? d->v[i].question : ""), 0);
	qb_lint_free(l);
	ck_assert_int_eq(unsetenv("QBANK_THREADS"), 0);
}

/* On one thread (ONE) or with the reader thread wherever qbank can use one. */
static void trace_run(struct qb_buf *out, const char *const *files, size_t n, int one)
{
	trace_run_with(out, files, n, one ? "1" : "2", 0);
}

/* A bank of N questions in categories, with a pragma before every tenth
 * and a schema error in every seventh: several turns of the pipeline's
 * rings, with findings travelling beside the questions. */
static void write_long_bank(char *path, int n)
{
	struct qb_buf b = QB_BUF_INIT;
	int i;

	ck_assert_int_eq(qb_buf_adds(&b, "<?xml version=\"1.0\"?>\n<bank id=\"long\" version=\"1\">\n"
					 "<title>Long</title>\n"), 0);
	for (i = 0; i < n; i++) {
		if (i % 50 == 0)
			ck_assert_int_eq(qb_buf_printf(&b, "%s<category name=\"c%d\">\n",
						       i ? "</category>\n" : "", i / 50), 0);
		if (i % 10 == 0)
			ck_assert_int_eq(qb_buf_adds(&b, "<!-- qbank-disable option-count - few -->\n"), 0);
		ck_assert_int_eq(qb_buf_printf(&b, "<question id=\"q%d\" type=\"single\">\n"
					       "<stem>Question %d?</stem>\n%s"
					       "<option correct=\"true\"><text>yes %d</text></option>\n"
					       "<option><text>no %d</text></option>\n</question>\n",
					       i, i, i % 7 == 0 ? "<bogus/>\n" : "", i, i), 0);
	}
	ck_assert_int_eq(qb_buf_adds(&b, "</category>\n</bank>\n"), 0);
	write_temp(path, b.ptr, b.len);
	qb_buf_dispose(&b);
}

/* id-duplicate names the first question of a repeated id wherever it is:
 * its line and id are decoded from the front-coded names (16 to a run,
 * and in sequence while its index grows), so ids repeated from the first,
 * a middle and the last question before them must each name that one. */
START_TEST(id_duplicate_names_the_first_of_each_id)
{
	char path[] = "/tmp/qbank-ids-XXXXXX";
	const char *files[] = { path };
	static const int again[] = { 0, 17, 1234, 2999 };
	struct qb_buf b = QB_BUF_INIT, out = QB_BUF_INIT;
	char want[128];
	size_t i;

	ck_assert_int_eq(qb_buf_adds(&b, "<?xml version=\"1.0\"?>\n<bank id=\"ids\" version=\"1\">\n"
					 "<title>Ids</title>\n"), 0);
	for (i = 0; i < 3000 + 4; i++) {
		int id = i < 3000 ? (int)i : again[i - 3000];

		ck_assert_int_eq(qb_buf_printf(&b, "<question id=\"q%04d\" type=\"single\">\n"
					       "<stem>Question %zu?</stem>\n"
					       "<option correct=\"true\"><text>yes %zu</text></option>\n"
					       "<option><text>no %zu</text></option>\n</question>\n",
					       id, i, i, i), 0);
	}
	ck_assert_int_eq(qb_buf_adds(&b, "</bank>\n"), 0);
	write_temp(path, b.ptr, b.len);
	trace_run_with(&out, files, 1, "1", 1);
	for (i = 0; i < 4; i++) {
		/* question K starts on line 4 + 5 K */
		snprintf(want, sizeof(want), "'q%04d' is already used at %s:%d", again[i], path,
			 4 + 5 * again[i]);
		ck_assert_msg(strstr(out.ptr, want) != NULL, "missing \"%s\" in:\n%s", want, out.ptr);
	}
	qb_buf_dispose(&b);
	qb_buf_dispose(&out);
	unlink(path);
}
END_TEST

/* With a reader thread, or everything on one thread (QBANK_THREADS=1):
 * the hooks see the same banks and questions in the same order, and the
 * lint the same findings. */
START_TEST(pipeline_same_on_one_thread_and_two)
{
	char path[] = "/tmp/qbank-pipeline-XXXXXX";
	const char *files[] = { FIX "all-types.xml", FIX "invalid.xml", path, FIX "malformed.xml",
				"tests/fixtures/scraped-quiz.xml", "tests/fixtures/hostile.xml",
				FIX "empty.xml" };
	size_t n = sizeof(files) / sizeof(files[0]);
	struct qb_buf one = QB_BUF_INIT, two = QB_BUF_INIT;

	write_long_bank(path, 700);
	trace_run(&one, files, n, 1);
	trace_run(&two, files, n, 0);
	ck_assert_ptr_nonnull(strstr(one.ptr, "question /tmp/qbank-pipeline-"));
	ck_assert_ptr_nonnull(strstr(one.ptr, "[xml-schema] 'q693'"));
	ck_assert_str_eq(two.ptr, one.ptr);
	qb_buf_dispose(&one);
	qb_buf_dispose(&two);
	unlink(path);
}
END_TEST

/* Lint alone (no question hook) reads beside the rules where the cores are
 * near (always with QBANK_THREADS=2) and on one thread where they are not
 * (core/cores.h): the same findings in the same order every way. */
START_TEST(lint_alone_same_on_one_thread_and_two)
{
	char path[] = "/tmp/qbank-pipeline-XXXXXX";
	const char *files[] = { FIX "all-types.xml", FIX "invalid.xml", path, FIX "malformed.xml",
				"tests/fixtures/hostile.xml" };
	size_t n = sizeof(files) / sizeof(files[0]);
	struct qb_buf one = QB_BUF_INIT, two = QB_BUF_INIT, measured = QB_BUF_INIT;

	write_long_bank(path, 700);
	trace_run_with(&one, files, n, "1", 1);
	trace_run_with(&two, files, n, "2", 1);
	trace_run_with(&measured, files, n, NULL, 1);
	ck_assert_ptr_nonnull(strstr(one.ptr, "[xml-schema] 'q693'"));
	ck_assert_ptr_null(strstr(one.ptr, "question /tmp/qbank-pipeline-"));  /* no hook */
	ck_assert_str_eq(two.ptr, one.ptr);
	ck_assert_str_eq(measured.ptr, one.ptr);
	qb_buf_dispose(&one);
	qb_buf_dispose(&two);
	qb_buf_dispose(&measured);
	unlink(path);
}
END_TEST

Suite *suite_reader(void)
{
	Suite *s = suite_create("reader");
	TCase *tc = tcase_create("reader");

	tcase_add_checked_fixture(tc, load_schema, free_schema);
	tcase_add_test(tc, reads_every_type);
	tcase_add_test(tc, malformed_is_a_finding);
	tcase_add_test(tc, schema_error_names_line_and_question);
	tcase_add_test(tc, empty_file_is_a_finding);
	tcase_add_test(tc, no_img_only_before_the_first_image);
	tcase_add_test(tc, id_duplicate_names_the_first_of_each_id);
	tcase_add_test(tc, missing_file_is_an_io_error);
	tcase_add_test(tc, lines_beyond_65535);
	tcase_add_test(tc, doctype_and_encoding_are_refused);
	tcase_add_test(tc, messages_are_one_line);
	tcase_add_test(tc, limits_make_a_question_invalid);
	tcase_add_test(tc, held_questions_stay_until_released);
	tcase_add_test(tc, pipeline_same_on_one_thread_and_two);
	tcase_add_test(tc, lint_alone_same_on_one_thread_and_two);
	suite_add_tcase(s, tc);
	return s;
}
