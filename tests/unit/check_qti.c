/* The QTI exporter's helpers (tools/lib/exporters/qti_util.c, qti_zip.c)
 * and its rich text (tools/lib/richtext.c); the packages themselves are
 * checked by tests/export/qti21/suite. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <archive.h>
#include <archive_entry.h>
#include <libxml/parser.h>

#include "../../tools/lib/exporters/qti_internal.h"
#include "../../tools/lib/mathml.h"
#include "check_suites.h"

START_TEST(numbers)
{
	char b[40];
	double v;

	qti_fmt_double(b, 1.0);
	ck_assert_str_eq(b, "1");
	qti_fmt_double(b, 2.5);
	ck_assert_str_eq(b, "2.5");
	qti_fmt_double(b, 1.0 / 3.0);
	ck_assert_str_eq(b, "0.3333333333333333");
	qti_fmt_double(b, -0.125);
	ck_assert_str_eq(b, "-0.125");
	qti_fmt_double(b, -0.0);
	ck_assert_str_eq(b, "0");
	ck_assert_int_eq(qti_parse_double("+01.50", &v), 0);
	ck_assert(v == 1.5);
	ck_assert_int_eq(qti_parse_double("1e3", &v), 0);
	ck_assert(v == 1000);
	ck_assert_int_ne(qti_parse_double("1,5", &v), 0);
	ck_assert_int_ne(qti_parse_double("inf", &v), 0);
	ck_assert_int_ne(qti_parse_double("0x10", &v), 0);
	ck_assert_int_ne(qti_parse_double("", &v), 0);
	ck_assert_int_ne(qti_parse_double(".", &v), 0);
	ck_assert_int_ne(qti_parse_double("1e", &v), 0);
}
END_TEST

/* qti_v3_rename searches its tables: they must be sorted, without doubles,
 * and every QTI 3.0 element name must start with "qti-". */
START_TEST(v3_tables_sorted)
{
	size_t t, i;

	for (t = 0; t < 2; t++)
		for (i = 0; i < qti_v3_sizes[t]; i++) {
			if (i)
				ck_assert_msg(strcmp(qti_v3_tables[t][i - 1].v2, qti_v3_tables[t][i].v2) < 0,
					      "%s before %s", qti_v3_tables[t][i - 1].v2, qti_v3_tables[t][i].v2);
			ck_assert_str_eq(qti_v3_rename((int)t, qti_v3_tables[t][i].v2), qti_v3_tables[t][i].v3);
			if (t == 0)
				ck_assert(strncmp(qti_v3_tables[t][i].v3, "qti-", 4) == 0);
		}
	ck_assert_str_eq(qti_v3_rename(0, "p"), "p");
	ck_assert_str_eq(qti_v3_rename(1, "identifier"), "identifier");
}
END_TEST

START_TEST(names)
{
	ck_assert(qti_is_ncname("pt-dist-01"));
	ck_assert(qti_is_ncname("_x.y"));
	ck_assert(!qti_is_ncname("1abc"));
	ck_assert(!qti_is_ncname("a:b"));
	ck_assert(!qti_is_ncname(""));
	ck_assert(!qti_is_ncname(NULL));
	ck_assert(qti_is_language("en"));
	ck_assert(qti_is_language("de-CH"));
	ck_assert(qti_is_language("zh-Hant-TW"));
	ck_assert(!qti_is_language("en_US"));
	ck_assert(!qti_is_language("toolonglang"));
	ck_assert(!qti_is_language("1en"));
	ck_assert(!qti_is_language("en-"));
	ck_assert(!qti_is_language(""));
}
END_TEST

/* The fixed-width key set the package writers keep instead of their
 * records: new and repeated keys through several growths, and entry names
 * that differ only in case taken as one. */
START_TEST(hashes)
{
	struct qti_hashes h = { NULL, 0, 0, QB_MAP_INIT };
	uint64_t k;

	for (k = 1; k <= 100000; k++)
		ck_assert_int_eq(qti_hashes_take(&h, k * 0x9e3779b97f4a7c15ull), 0);
	for (k = 1; k <= 100000; k += 997) {
		ck_assert_int_eq(qti_hashes_take(&h, k * 0x9e3779b97f4a7c15ull), 1);
		ck_assert(qti_hashes_has(&h, k * 0x9e3779b97f4a7c15ull));
	}
	ck_assert(!qti_hashes_has(&h, 0));
	ck_assert_uint_eq(h.n, 100000);
	qti_hashes_dispose(&h);
	ck_assert_int_eq(qti_names_take(&h, "items/Q1.xml"), 0);
	ck_assert_int_eq(qti_names_take(&h, "items/q1.xml"), 1);
	ck_assert_int_eq(qti_names_take(&h, "items/q1-2.xml"), 0);
	qti_hashes_dispose(&h);
}
END_TEST

static const char *norm(struct qb_buf *b, const char *src)
{
	qb_buf_clear(b);
	return qti_media_src_norm(src, b) ? NULL : b->ptr;
}

START_TEST(media_paths)
{
	struct qb_buf b = QB_BUF_INIT;
	struct qb_buf u = QB_BUF_INIT;

	ck_assert_str_eq(norm(&b, "img/a.png"), "img/a.png");
	ck_assert_str_eq(norm(&b, "./img//a.png"), "img/a.png");
	ck_assert_ptr_null(norm(&b, "img/../a.png"));
	ck_assert_ptr_null(norm(&b, "./"));
	ck_assert_int_eq(qti_buf_add_uri(&u, "items/media/two words \xc3\xa4%.png"), 0);
	ck_assert_str_eq(u.ptr, "items/media/two%20words%20%C3%A4%25.png");
	qb_buf_dispose(&b);
	qb_buf_dispose(&u);
}
END_TEST

/* Renders the children of the root of XML as QTI rich text. */
static char *rich(const char *xml)
{
	xmlDocPtr d = xmlReadMemory(xml, (int)strlen(xml), "t.xml", NULL, XML_PARSE_NONET);
	xmlBufferPtr buf = xmlBufferCreate();
	xmlTextWriterPtr w = xmlNewTextWriterMemory(buf, 0);
	struct qb_rich_opts o = { QB_MATH_TEX_SPAN, NULL, NULL, NULL, 0, NULL, NULL };
	char *s;

	ck_assert_ptr_nonnull(d);
	ck_assert_int_ge(xmlTextWriterStartElement(w, BAD_CAST "div"), 0);
	ck_assert_int_eq(qb_rich_write(w, xmlDocGetRootElement(d), &o), 0);
	ck_assert_int_ge(xmlTextWriterEndElement(w), 0);
	xmlFreeTextWriter(w);
	s = strdup((const char *)xmlBufferContent(buf));
	xmlBufferFree(buf);
	xmlFreeDoc(d);
	return s;
}

/* The math path end to end, with pandoc: a bank file's formulas (a
 * backslash, a tab, a non-ASCII letter, markup characters, one formula
 * twice) come back as MathML with the exact TeX as annotation; a formula
 * pandoc cannot convert is refused with file, line and question; a file
 * without math needs no pandoc. Skipped without pandoc in PATH. */
START_TEST(mathml_one_run_per_file)
{
	static const char bank[] =
		"<bank id=\"b\" version=\"1\">\n"
		"<question id=\"q1\" type=\"essay\"><stem><math>\\alpha\t&lt; \\beta \\&amp; \u00e9</math>"
		" <math display=\"block\">\\frac{1}{2}</math> <math>\\alpha\t&lt; \\beta \\&amp; \u00e9</math></stem></question>\n"
		"<question id=\"q2\" type=\"essay\"><stem>\n<math>\\frac{a}</math></stem></question>\n"
		"</bank>\n";
	char path[] = "/tmp/qbank-mathml-XXXXXX";
	struct qb_error err = { 0, "" };
	struct qb_mathml *m = NULL;
	xmlDocPtr d;
	xmlBufferPtr buf;
	xmlTextWriterPtr w;
	xmlNode *stem, *c;
	int fd, rc, nmath = 0;

	if (system("command -v pandoc >/dev/null 2>&1") != 0)
		return;    /* no pandoc: nothing to convert with */
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, bank, sizeof(bank) - 1), (ssize_t)(sizeof(bank) - 1));
	close(fd);
	ck_assert_int_eq(qb_mathml_new(&m, NULL), 0);
	rc = qb_mathml_load_file(m, path, &err);
	ck_assert_int_eq(rc, QB_EREFUSED);
	ck_assert_msg(strstr(err.msg, ":4: question 'q2': pandoc cannot convert the TeX '\\frac{a}' to MathML") != NULL,
		      "%s", err.msg);

	/* the same file without the bad question converts */
	d = xmlReadMemory(bank, (int)sizeof(bank) - 1, path, NULL, XML_PARSE_NONET);
	ck_assert_ptr_nonnull(d);
	fd = open(path, O_WRONLY | O_TRUNC);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_gt(write(fd, bank, (size_t)(strstr(bank, "<question id=\"q2\"") - bank)), 0);
	ck_assert_int_gt(write(fd, "</bank>\n", 8), 0);
	close(fd);
	ck_assert_int_eq(qb_mathml_load_file(m, path, &err), 0);
	stem = xmlDocGetRootElement(d)->children->next->children;
	buf = xmlBufferCreate();
	w = xmlNewTextWriterMemory(buf, 0);
	ck_assert_int_ge(xmlTextWriterStartElement(w, BAD_CAST "div"), 0);
	for (c = stem->children; c; c = c->next)
		if (c->type == XML_ELEMENT_NODE) {
			ck_assert_int_eq(qb_mathml_write(m, w, c), 0);
			nmath++;
		}
	ck_assert_int_ge(xmlTextWriterEndElement(w), 0);
	xmlFreeTextWriter(w);
	ck_assert_int_eq(nmath, 3);
	ck_assert_ptr_nonnull(strstr((const char *)xmlBufferContent(buf),
		"<annotation encoding=\"application/x-tex\">\\alpha\t&lt; \\beta \\&amp; \u00e9</annotation>"));
	ck_assert_ptr_nonnull(strstr((const char *)xmlBufferContent(buf),
		"<math xmlns=\"http://www.w3.org/1998/Math/MathML\" display=\"block\">"));
	xmlFreeDoc(d);
	/* a formula the file does not hold is not there */
	d = xmlReadMemory("<math>zzz</math>", 16, "o.xml", NULL, XML_PARSE_NONET);
	w = xmlNewTextWriterMemory(buf, 0);
	ck_assert_int_ge(xmlTextWriterStartElement(w, BAD_CAST "div"), 0);
	ck_assert_int_eq(qb_mathml_write(m, w, xmlDocGetRootElement(d)), QB_ENOTFOUND);
	xmlFreeTextWriter(w);
	xmlBufferFree(buf);
	xmlFreeDoc(d);

	/* no math, no pandoc */
	qb_mathml_free(m);
	ck_assert_int_eq(qb_mathml_new(&m, "/nonexistent/pandoc"), 0);
	fd = open(path, O_WRONLY | O_TRUNC);
	ck_assert_int_gt(write(fd, "<bank/>\n", 8), 0);
	close(fd);
	ck_assert_int_eq(qb_mathml_load_file(m, path, &err), 0);
	fd = open(path, O_WRONLY | O_TRUNC);
	ck_assert_int_gt(write(fd, "<bank><math>x</math></bank>\n", 28), 0);
	close(fd);
	ck_assert_int_eq(qb_mathml_load_file(m, path, &err), QB_ENOTFOUND);
	qb_mathml_free(m);
	unlink(path);
}
END_TEST

START_TEST(display_math_in_paragraph)
{
	char *s;

	/* at block level display math is a div ... */
	s = rich("<stem>a <math display=\"block\">x &lt; y</math></stem>");
	ck_assert_str_eq(s, "<div>a <div class=\"math\">\\[x &lt; y\\]</div></div>");
	free(s);
	/* ... inside p or em a span, which QTI allows there */
	s = rich("<stem><p>a <em>b <math display=\"block\">x</math></em></p>"
		 "<ul><li><math display=\"block\">y</math></li></ul></stem>");
	ck_assert_str_eq(s, "<div><p>a <em>b <span class=\"math\">\\[x\\]</span></em></p>"
			    "<ul><li><div class=\"math\">\\[y\\]</div></li></ul></div>");
	free(s);
}
END_TEST

/* ---- the zip thread ----------------------------------------------------- */

#define ZIP_ENTRIES 300   /* several times the zip thread's queue */

static int gen_list(xmlTextWriterPtr w, void *ctx)
{
	(void)ctx;
	return xmlTextWriterWriteElement(w, BAD_CAST "list", BAD_CAST "done") < 0 ? -1 : 0;
}

static void entry_text(char *buf, size_t cap, int i)
{
	snprintf(buf, cap, "<item n=\"%d\">%0*d</item>\n", i, 1 + i % 2000, i);
}

/* Closes Z, written on F, and opens F for reading. */
static struct archive *reopen(struct qti_zip *z, FILE *f)
{
	struct qb_error e = { 0, "" };
	struct archive *a;

	ck_assert_int_eq(qti_zip_close(z, &e), 0);
	qti_zip_free(z);
	fflush(f);
	rewind(f);
	a = archive_read_new();
	archive_read_support_format_zip(a);
	ck_assert_int_eq(archive_read_open_FILE(a, f), ARCHIVE_OK);
	return a;
}

/* The next entry of A is NAME and holds the LEN bytes of WANT; BUF has
 * room for LEN bytes. */
static void expect_entry(struct archive *a, const char *name, const void *want, size_t len,
			 unsigned char *buf)
{
	struct archive_entry *ae;
	size_t got = 0;
	la_ssize_t n;

	ck_assert_int_eq(archive_read_next_header(a, &ae), ARCHIVE_OK);
	ck_assert_str_eq(archive_entry_pathname(ae), name);
	while (got < len && (n = archive_read_data(a, buf + got, len - got)) > 0)
		got += (size_t)n;
	ck_assert_uint_eq(got, len);
	ck_assert_int_eq(archive_read_data(a, buf, 1), 0);   /* and no more */
	ck_assert_int_eq(memcmp(buf, want, len), 0);
}

/* ZIP_ENTRIES items, and a two-pass entry halfway (the queue drains for
 * it, then fills again). */
static void write_items(struct qti_zip *z)
{
	struct qb_error e = { 0, "" };
	static char want[4096];
	char name[64];
	int i;

	for (i = 0; i < ZIP_ENTRIES; i++) {
		snprintf(name, sizeof(name), "items/q%04d.xml", i);
		entry_text(want, sizeof(want), i);
		ck_assert_int_eq(qti_zip_add(z, name, want, strlen(want), &e), 0);
		if (i == ZIP_ENTRIES / 2)
			ck_assert_int_eq(qti_zip_add_xml(z, "list.xml", gen_list, NULL, &e), 0);
	}
}

START_TEST(zip_keeps_order)
{
	FILE *f = tmpfile();
	struct qti_zip *z;
	struct qb_error e = { 0, "" };
	struct archive *a;
	struct archive_entry *ae;
	static char want[4096];
	static unsigned char got[4096];
	char name[64];
	int i;

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(qti_zip_open(&z, f, "t.zip", _i, &e), 0);
	write_items(z);

	a = reopen(z, f);
	for (i = 0; i < ZIP_ENTRIES; i++) {
		snprintf(name, sizeof(name), "items/q%04d.xml", i);
		entry_text(want, sizeof(want), i);
		expect_entry(a, name, want, strlen(want), got);
		if (i == ZIP_ENTRIES / 2) {
			ck_assert_int_eq(archive_read_next_header(a, &ae), ARCHIVE_OK);
			ck_assert_str_eq(archive_entry_pathname(ae), "list.xml");
		}
	}
	ck_assert_int_eq(archive_read_next_header(a, &ae), ARCHIVE_EOF);
	archive_read_free(a);
	fclose(f);
}
END_TEST

static void big_pattern(unsigned char *buf, size_t len, int i)
{
	size_t j;

	for (j = 0; j < len; j++)
		buf[j] = (unsigned char)(j * 7 + (size_t)i);
}

/* Entries of 3 MB pass the queue's byte bound one at a time, whole. */
START_TEST(zip_big_entries)
{
	enum { BIG = 3 << 20, NBIG = 5 };
	FILE *f = tmpfile();
	struct qti_zip *z;
	struct qb_error e = { 0, "" };
	struct archive *a;
	struct archive_entry *ae;
	unsigned char *buf = malloc(BIG), *back = malloc(BIG);
	char name[32];
	int i;

	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(buf);
	ck_assert_ptr_nonnull(back);
	ck_assert_int_eq(qti_zip_open(&z, f, "t.zip", _i, &e), 0);
	for (i = 0; i < NBIG; i++) {
		big_pattern(buf, BIG, i);
		snprintf(name, sizeof(name), "media/m%d.bin", i);
		ck_assert_int_eq(qti_zip_add(z, name, buf, BIG, &e), 0);
		ck_assert_int_eq(qti_zip_add(z, "small.txt", "x", 1, &e), 0);
	}

	a = reopen(z, f);
	for (i = 0; i < NBIG; i++) {
		snprintf(name, sizeof(name), "media/m%d.bin", i);
		big_pattern(buf, BIG, i);
		expect_entry(a, name, buf, BIG, back);
		expect_entry(a, "small.txt", "x", 1, back);
	}
	ck_assert_int_eq(archive_read_next_header(a, &ae), ARCHIVE_EOF);
	archive_read_free(a);
	fclose(f);
	free(buf);
	free(back);
}
END_TEST

/* A write that fails on the zip thread comes back from a later call with
 * the file and the cause, and nothing waits forever or leaks. */
START_TEST(zip_error_comes_back)
{
	FILE *f = fopen("/dev/full", "w");
	struct qti_zip *z;
	struct qb_error e = { 0, "" };
	static char big[65536];
	int i, rc = 0;

	if (!f)
		return;   /* no /dev/full here */
	setvbuf(f, NULL, _IONBF, 0);
	memset(big, 'x', sizeof(big));
	ck_assert_int_eq(qti_zip_open(&z, f, "out.zip", _i, &e), 0);
	for (i = 0; i < ZIP_ENTRIES && !rc; i++)
		rc = qti_zip_add(z, "big.txt", big, sizeof(big), &e);
	if (!rc)
		rc = qti_zip_close(z, &e);
	ck_assert_int_eq(rc, QB_EIO);
	ck_assert_ptr_nonnull(strstr(e.msg, "out.zip: write failed: "));
	qti_zip_free(z);
	fclose(f);
}
END_TEST

/* The zip of write_items, written with or without the zip thread, in a
 * buffer of the caller's (free() it). */
static char *zip_bytes(int one_thread, size_t *len)
{
	char *p = NULL;
	FILE *f = open_memstream(&p, len);
	struct qti_zip *z;
	struct qb_error e = { 0, "" };

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(qti_zip_open(&z, f, "t.zip", one_thread, &e), 0);
	write_items(z);
	ck_assert_int_eq(qti_zip_close(z, &e), 0);
	qti_zip_free(z);
	ck_assert_int_eq(fclose(f), 0);
	return p;
}

/* QBANK_THREADS=1 gives the package the zip thread writes, byte for byte. */
START_TEST(zip_same_bytes_on_one_thread)
{
	size_t n0, n1;
	char *threaded = zip_bytes(0, &n0), *one = zip_bytes(1, &n1);

	ck_assert_uint_eq(n0, n1);
	ck_assert_int_eq(memcmp(threaded, one, n0), 0);
	free(threaded);
	free(one);
}
END_TEST

Suite *suite_qti(void)
{
	Suite *s = suite_create("qti");
	TCase *tc = tcase_create("qti");

	/* mathml_one_run_per_file runs pandoc (a 172 MB binary) twice: read
	 * cold from disk it took 5.6 s to start here, and a CI run on a fresh
	 * machine timed out on its first run under Check's default of 4 s */
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, numbers);
	tcase_add_test(tc, names);
	tcase_add_test(tc, hashes);
	tcase_add_test(tc, media_paths);
	tcase_add_test(tc, v3_tables_sorted);
	tcase_add_test(tc, mathml_one_run_per_file);
	tcase_add_test(tc, display_math_in_paragraph);
	/* each zip test twice: with the zip thread (0) and on one thread (1) */
	tcase_add_loop_test(tc, zip_keeps_order, 0, 2);
	tcase_add_loop_test(tc, zip_big_entries, 0, 2);
	tcase_add_loop_test(tc, zip_error_comes_back, 0, 2);
	tcase_add_test(tc, zip_same_bytes_on_one_thread);
	suite_add_tcase(s, tc);
	return s;
}
