#include <stdio.h>
#include <string.h>

#include "../../tools/lib/core/bigmem.h"
#include "../../tools/lib/core/buf.h"
#include "../../tools/lib/text.h"
#include "check_suites.h"

static const char *norm(struct qb_buf *b, const char *s)
{
	qb_buf_clear(b);
	ck_assert_int_eq(qb_text_normalize(b, s, strlen(s)), 0);
	return b->ptr;
}

START_TEST(normalize_folds)
{
	struct qb_buf b = QB_BUF_INIT;

	ck_assert_str_eq(norm(&b, "  Data   Parallelism. "), "data parallelism");
	ck_assert_str_eq(norm(&b, "data\tparallelism?!"), "data parallelism");
	/* NFC: e + combining acute equals precomposed e-acute */
	ck_assert_str_eq(norm(&b, "Caf\x65\xcc\x81"), "caf\xc3\xa9");
	ck_assert_str_eq(norm(&b, "STRASSE"), "strasse");
	ck_assert_str_eq(norm(&b, "..."), "");
	qb_buf_dispose(&b);
}
END_TEST

START_TEST(trim_and_hash)
{
	/* longer than one of XXH3's steps, differing in the last byte only */
	static const char longer[] = "the same forty-three bytes of an option, .",
			  other[] = "the same forty-three bytes of an option, ,";
	size_t n;
	const char *t = qb_text_trim("\n  abc \t", &n);

	ck_assert_uint_eq(n, 3);
	ck_assert_int_eq(strncmp(t, "abc", 3), 0);
	ck_assert(qb_hash64("a", 1) != qb_hash64("b", 1));
	ck_assert(qb_hash64("abc", 3) == qb_hash64("abc", 3));
	/* the stable hash's values reach outputs (print forms' seeds, SARIF
	 * fingerprints, QTI file names): pinned */
	ck_assert_uint_eq(qb_hash64("abc", 3), 0x0dd490490804b508ULL);
	/* the in-memory hash: every byte and the length count */
	ck_assert(qb_hash("a", 1) != qb_hash("b", 1));
	ck_assert(qb_hash("abc", 3) == qb_hash("abc", 3));
	ck_assert(qb_hash("ab", 2) != qb_hash("ab\0", 3));
	ck_assert(qb_hash(longer, strlen(longer)) != qb_hash(other, strlen(other)));
}
END_TEST

/* A name counts as Moodle stores it: & < > " and CR as the entities
 * libxml2 writes, a UTF-8 character as one; FIT ends on a whole character. */
START_TEST(stored_chars_count_entities)
{
	static const char *const cases[] = { "abc", "a&b", "<>", "\"", "a\rb", "caf\xc3\xa9", "\xe2\x82\xac&" };
	static const size_t want[] = { 3, 7, 8, 6, 7, 4, 6 };
	size_t i, fit;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		ck_assert_uint_eq(qb_text_stored_chars(cases[i], strlen(cases[i]), 1000, NULL), want[i]);
	/* "a&b" in 5: "a" (1), then "&amp;" would make 6 */
	ck_assert_uint_eq(qb_text_stored_chars("a&b", 3, 5, &fit), 7);
	ck_assert_uint_eq(fit, 1);
	/* a two-byte character that goes over is left out whole */
	ck_assert_uint_eq(qb_text_stored_chars("ab\xc3\xa9", 4, 2, &fit), 3);
	ck_assert_uint_eq(fit, 2);
	/* within the limit: all of it */
	ck_assert_uint_eq(qb_text_stored_chars("a&b", 3, 7, &fit), 7);
	ck_assert_uint_eq(fit, 3);
}
END_TEST

START_TEST(plain_text_of_markup)
{
	static const char xml[] = "<stem>Use <code>all_reduce</code> and <em>not</em>"
				  "<img src=\"a.png\" alt=\"diagram\"/><math>x^2</math></stem>";
	xmlDocPtr doc = xmlReadMemory(xml, (int)strlen(xml), NULL, NULL, 0);
	struct qb_buf b = QB_BUF_INIT;

	ck_assert_ptr_nonnull(doc);
	ck_assert_int_eq(qb_text_plain(&b, xmlDocGetRootElement(doc)), 0);
	ck_assert_str_eq(b.ptr, "Use all_reduce and notdiagramx^2");
	ck_assert(!qb_text_is_blank(xmlDocGetRootElement(doc)));
	qb_buf_dispose(&b);
	xmlFreeDoc(doc);
}
END_TEST

/* Appending in every way keeps the content, and the 64 bytes past the
 * NUL are always initialised (zero or old content), which PCRE2's JIT may
 * read; the capacity beyond is not touched all at once. */
START_TEST(buffer_keeps_content_and_tail)
{
	struct qb_buf b = QB_BUF_INIT, want = QB_BUF_INIT;
	size_t i, j;

	for (i = 0; i < 20000; i++) {
		char piece[32];
		int n = snprintf(piece, sizeof(piece), "%zu,", i);

		switch (i % 4) {
		case 3:
			ck_assert_int_eq(qb_buf_cat(&b, "", piece, "|", ""), 0);
			ck_assert_int_eq(qb_buf_printf(&want, "%s|", piece), 0);
			break;
		case 0:
			ck_assert_int_eq(qb_buf_addc(&b, 'x'), 0);
			ck_assert_int_eq(qb_buf_addc(&want, 'x'), 0);
			break;
		case 1:
			ck_assert_int_eq(qb_buf_printf(&b, "%zu,", i), 0);
			ck_assert_int_eq(qb_buf_add(&want, piece, (size_t)n), 0);
			break;
		default:
			ck_assert_int_eq(qb_buf_adds(&b, piece), 0);
			ck_assert_int_eq(qb_buf_adds(&want, piece), 0);
			break;
		}
		ck_assert_uint_eq(b.len, strlen(b.ptr));
		ck_assert_uint_ge(b.init, b.len + 1 < b.cap - 64 ? b.len + 1 + 64 : b.cap);
	}
	ck_assert_str_eq(b.ptr, want.ptr);
	/* a big buffer is zeroed a page at a time, not to its capacity */
	ck_assert_uint_lt(b.init, b.len + 1 + 64 + 4096 + 1);
	for (j = b.len + 1; j < b.len + 1 + 64 && j < b.cap; j++)
		ck_assert_int_eq(b.ptr[j], 0);
	qb_buf_dispose(&b);
	qb_buf_dispose(&want);
}
END_TEST

START_TEST(decimal_writes_every_digit)
{
	char out[QB_DECIMAL_SIZE];

	ck_assert_str_eq(qb_decimal(out, 0), "0");
	ck_assert_str_eq(qb_decimal(out, 7), "7");
	ck_assert_str_eq(qb_decimal(out, 1000000), "1000000");
	ck_assert_str_eq(qb_decimal(out, 18446744073709551615UL), "18446744073709551615");
}
END_TEST

/* A big array keeps its content across growth (also past a page and
 * after the kernel moves it), and what it gains reads as zeros. */
START_TEST(big_array_grows_and_keeps)
{
	size_t n = 1000, i, bad = 0;
	unsigned *v = qb_big_resize(NULL, 0, n * sizeof(*v));

	ck_assert_ptr_nonnull(v);
	for (i = 0; i < n; i++) {
		bad += v[i] != 0;
		v[i] = (unsigned)i * 7u;
	}
	for (; n < 2000000; n = n + n / 2) {
		unsigned *w = qb_big_resize(v, n * sizeof(*v), (n + n / 2) * sizeof(*v));

		ck_assert_ptr_nonnull(w);
		v = w;
		for (i = n; i < n + n / 2; i++) {
			bad += v[i] != 0;
			v[i] = (unsigned)i * 7u;
		}
	}
	for (i = 0; i < n; i++)
		bad += v[i] != (unsigned)i * 7u;
	ck_assert_uint_eq(bad, 0);
	qb_big_free(v, n * sizeof(*v));
	qb_big_free(NULL, 0);
}
END_TEST

Suite *suite_text(void)
{
	Suite *s = suite_create("text");
	TCase *tc = tcase_create("text");

	tcase_add_test(tc, normalize_folds);
	tcase_add_test(tc, trim_and_hash);
	tcase_add_test(tc, stored_chars_count_entities);
	tcase_add_test(tc, plain_text_of_markup);
	tcase_add_test(tc, buffer_keeps_content_and_tail);
	tcase_add_test(tc, decimal_writes_every_digit);
	tcase_add_test(tc, big_array_grows_and_keeps);
	suite_add_tcase(s, tc);
	return s;
}
