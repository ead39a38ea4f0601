/* The Moodle XML exporter: its building blocks (CDATA splitting, number
 * spellings), its refusals (questions Moodle's importer would reject, never
 * a partial file), the importer-rules check (moodle_rules.c) on the
 * exports of bank/, the hostile bank and the export fixtures, and the
 * round trip: every stem, option, rationale and explanation of a bank is
 * found again, unescaped, in its export. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libxml/HTMLparser.h>
#include <libxml/parser.h>
#include <libxml/xmlwriter.h>

#include "../../tools/lib/export.h"
#include "../../tools/lib/exporters/exporters.h"
#include "../../tools/lib/exporters/moodle_write.h"
#include "../../tools/lib/lint.h"
#include "../../tools/lib/paths.h"
#include "../../tools/lib/reader.h"
#include "../../tools/lib/text.h"
#include "check_suites.h"
#include "moodle_rules.h"

#define REFUSED "tests/fixtures/export/moodle-refused/"
#define INVALID "tests/fixtures/export/moodle-invalid/"

/* ---- helpers -------------------------------------------------------------- */

static char tmpdir[64];

static void make_tmpdir(void)
{
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/qbank-moodle-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

/* Removes the scratch folder; it must hold nothing but the files the test
 * named (a leftover temporary file would be a bug of the atomic writer). */
static void remove_tmpdir(void)
{
	DIR *d = opendir(tmpdir);
	struct dirent *e;
	char p[512];

	if (!d)
		return;
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(p, sizeof(p), "%s/%s", tmpdir, e->d_name);
		unlink(p);
	}
	closedir(d);
	rmdir(tmpdir);
}

static size_t entries_in_tmpdir(void)
{
	DIR *d = opendir(tmpdir);
	struct dirent *e;
	size_t n = 0;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)) != NULL)
		n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	closedir(d);
	return n;
}

/* The whole pipeline, as `qbank export --to moodle -o OUT PATHS` runs it:
 * lint first, refusal on lint errors. */
static int export_lint(const char *const *args, size_t nargs, const char *out,
		       struct qb_error *err)
{
	struct qb_export_opts o;
	struct qb_paths paths = { NULL, 0 };
	struct qb_lint *l = NULL;
	int rc;

	memset(&o, 0, sizeof(o));
	o.output = out;
	rc = qb_paths_expand(&paths, args, nargs, err);
	if (!rc)
		rc = qb_lint_new(&l, NULL, err);
	if (!rc)
		rc = qb_export_run(qb_exporter_find("moodle"), &o, l, (const char *const *)paths.v,
				   paths.n, err);
	qb_lint_free(l);
	qb_paths_dispose(&paths);
	return rc;
}

/* The exporter alone, without the lint: every question the reader yields
 * goes to it, so that its own checks are tested whatever the lint says. */
static int export_direct(const char *file, const char *out, struct qb_error *err)
{
	struct qb_export_opts o;
	struct qb_reader_opts ro = { NULL, 0, NULL, NULL };
	struct qb_reader *r = NULL;
	const struct qb_question *q;
	void *st = NULL;
	int rc, sent = 0;

	memset(&o, 0, sizeof(o));
	o.output = out;
	rc = qb_moodle_open(&st, &o, err);
	if (rc)
		return rc;
	rc = qb_reader_open(&r, file, &ro, err);
	while (!rc && (rc = qb_reader_next(r, &q)) == 1) {
		rc = sent++ ? 0 : qb_moodle_bank(st, qb_reader_bank(r), err);
		if (!rc)
			rc = qb_moodle_question(st, q, err);
	}
	qb_reader_free(r);
	if (rc) {
		qb_moodle_abort(st);
		return rc;
	}
	return qb_moodle_commit(st, err);
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	struct qb_buf b = QB_BUF_INIT;
	char chunk[4096];
	size_t n;

	ck_assert_msg(f != NULL, "cannot open %s", path);
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		ck_assert_int_eq(qb_buf_add(&b, chunk, n), 0);
	fclose(f);
	ck_assert_int_eq(qb_buf_grow(&b, 0), 0);
	*len = b.len;
	return qb_buf_detach(&b);
}

/* ---- building blocks ------------------------------------------------------ */

/* Writes S through qb_moodle_write_cdata_text, parses the result back and
 * returns the text libxml2 reads (the caller frees it). */
static char *cdata_round_trip(const char *s, char **xml)
{
	xmlBufferPtr buf = xmlBufferCreate();
	struct qb_xw x;
	xmlDocPtr doc;
	xmlChar *content;
	char *r;

	memset(&x, 0, sizeof(x));
	x.w = xmlNewTextWriterMemory(buf, 0);
	ck_assert_int_eq(qb_moodle_write_cdata_text(&x, s, strlen(s)), 0);
	ck_assert_int_eq(qb_xw_sync(&x), 0);   /* the pending bytes, before the writer goes */
	xmlFreeTextWriter(x.w);
	*xml = strdup((const char *)xmlBufferContent(buf));
	doc = xmlReadMemory((const char *)xmlBufferContent(buf), xmlBufferLength(buf), NULL,
			    "UTF-8", XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
	xmlBufferFree(buf);
	ck_assert_msg(doc != NULL, "not well-formed: %s", *xml);
	content = xmlNodeGetContent(xmlDocGetRootElement(doc));
	r = strdup((const char *)content);
	xmlFree(content);
	xmlFreeDoc(doc);
	return r;
}

START_TEST(cdata_splits_terminator)
{
	static const struct {
		const char *in;
		const char *xml;
	} cases[] = {
		{ "", "<text></text>" },
		{ "<p>a &amp; b</p>", "<text><![CDATA[<p>a &amp; b</p>]]></text>" },
		{ "]]>", "<text><![CDATA[]]]]><![CDATA[>]]></text>" },
		{ "a]]>b", "<text><![CDATA[a]]]]><![CDATA[>b]]></text>" },
		{ "]]>]]>", "<text><![CDATA[]]]]><![CDATA[>]]]]><![CDATA[>]]></text>" },
		{ "]]]>", "<text><![CDATA[]]]]]><![CDATA[>]]></text>" },
		{ "x]]", "<text><![CDATA[x]]]]></text>" },
		{ "]>]>", "<text><![CDATA[]>]>]]></text>" },
		{ "\xce\xa9 ]]> \xf0\x9f\x98\x80", "<text><![CDATA[\xce\xa9 ]]]]><![CDATA[> \xf0\x9f\x98\x80]]></text>" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *xml = NULL, *back = cdata_round_trip(cases[i].in, &xml);

		ck_assert_str_eq(xml, cases[i].xml);
		ck_assert_str_eq(back, cases[i].in);
		free(xml);
		free(back);
	}
}
END_TEST

/* One renderer for many fields gives each field the bytes of a renderer
 * of its own, whatever came before (nested markup, escapes, the <p> wrap,
 * empty fields). */
START_TEST(renderer_reuse_keeps_bytes)
{
	static const char *const fields[] = {
		"a &amp; b &lt;c&gt; \"q\"",
		"<em>x <strong>y</strong></em> z<br/>w",
		"",
		"<p>one</p><ul><li>two</li></ul>",
		"<math display=\"block\">x &lt; 1</math> <code>a&amp;b</code>",
		"<pre lang=\"c\">int x;</pre>",
		"]]&gt; tail",
	};
	struct qb_rich_html *r = NULL;
	size_t i, pass;

	ck_assert_int_eq(qb_rich_html_new(&r, 0), 0);
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
			struct qb_rich_opts o = { QB_MATH_TEX, NULL, NULL, pass ? "p" : NULL, 0, NULL, NULL };
			struct qb_buf x = QB_BUF_INIT, one = QB_BUF_INIT, many = QB_BUF_INIT;
			xmlDocPtr doc;

			ck_assert_int_eq(qb_buf_printf(&x, "<x>%s</x>", fields[i]), 0);
			doc = xmlReadMemory(x.ptr, (int)x.len, "field.xml", NULL, XML_PARSE_NONET);
			ck_assert_ptr_nonnull(doc);
			ck_assert_int_eq(qb_rich_to_html(&one, xmlDocGetRootElement(doc), &o), 0);
			ck_assert_int_eq(qb_rich_html_render(r, &many, xmlDocGetRootElement(doc), &o), 0);
			ck_assert_str_eq(many.ptr ? many.ptr : "", one.ptr ? one.ptr : "");
			xmlFreeDoc(doc);
			qb_buf_dispose(&x);
			qb_buf_dispose(&one);
			qb_buf_dispose(&many);
		}
	}
	qb_rich_html_free(r);
}
END_TEST

START_TEST(decimal_spelling)
{
	static const struct {
		const char *in;
		int exp;
		const char *out;   /* NULL: refused */
	} cases[] = {
		{ "1", 0, "1" }, { "2.50", 0, "2.5" }, { "+01.50", 0, "1.5" }, { ".5", 0, "0.5" },
		{ "2.", 0, "2" }, { "-0", 0, "0" }, { "-0.0", 0, "0" }, { "0.05", 0, "0.05" },
		{ "-2.50", 1, "-2.5" }, { "1.5E3", 1, "1.5e3" }, { "1e-03", 1, "1e-3" },
		{ "700", 1, "700" }, { "00", 0, "0" },
		{ "1.5E3", 0, NULL }, { "3,5", 1, NULL }, { "*", 1, NULL }, { "", 1, NULL },
		{ "1e", 1, NULL }, { ".", 0, NULL }, { "1.2.3", 0, NULL }, { " 1\n", 0, "1" }, { "1 2", 0, NULL },
		{ "NaN", 1, NULL }, { "0x10", 1, NULL },
	};
	struct qb_buf b = QB_BUF_INIT;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int rc;

		qb_buf_clear(&b);
		rc = qb_moodle_decimal(&b, cases[i].in, cases[i].exp);
		if (cases[i].out) {
			ck_assert_msg(rc == 0, "'%s' refused", cases[i].in);
			ck_assert_str_eq(b.ptr, cases[i].out);
		} else {
			ck_assert_msg(rc == QB_EINVAL, "'%s' accepted", cases[i].in);
		}
	}
	qb_buf_dispose(&b);
}
END_TEST

START_TEST(url_and_html_escaping)
{
	struct qb_buf b = QB_BUF_INIT;

	ck_assert_int_eq(qb_moodle_urlencode(&b, "ring diagram (2)~_.-\xc3\xa9.png"), 0);
	ck_assert_str_eq(b.ptr, "ring%20diagram%20%282%29~_.-%C3%A9.png");
	qb_buf_clear(&b);
	ck_assert_int_eq(qb_moodle_html_escape(&b, "a<b & \"c\" > d"), 0);
	ck_assert_str_eq(b.ptr, "a&lt;b &amp; &quot;c&quot; &gt; d");
	ck_assert_uint_eq(qb_moodle_utf8_len("\xce\xa9x\xf0\x9f\x98\x80"), 3);
	qb_buf_dispose(&b);
}
END_TEST

/* ---- refusals --------------------------------------------------------------- */

/* Each bank of moodle-refused/ has one question that Moodle's importer
 * would reject; the export names it and leaves no file at all. */
START_TEST(refusals_name_the_question)
{
	static const struct {
		const char *file;
		const char *says;
	} cases[] = {
		{ "fraction-11-correct.xml", ":7: question 'refused-11-correct': 11 correct options "
					     "would each be worth 100/11 = 9.09091%" },
		{ "fraction-11-wrong.xml", ":7: question 'refused-11-wrong': 11 wrong options would "
					   "each cost -100/11 = -9.09091%" },
		{ "idnumber-101.xml", "the id is 101 characters long; Moodle's idnumber takes at most 100" },
		{ "numeric-comma.xml", ":9: question 'refused-comma': the answer '3,5' is not a number" },
		{ "matching-two.xml", "question 'refused-matching': Moodle's matching needs at least "
				      "3 answers" },
		{ "truefalse-yes.xml", "question 'refused-yes': the answer of a truefalse question "
				       "must be 'true' or 'false', not 'yes'" },
		{ "img-absolute.xml", "question 'refused-img-absolute': image '/etc/passwd' is an "
				      "absolute path" },
		{ "img-dotdot.xml", "question 'refused-img-dotdot': image "
				    "'img/../../../../../../etc/passwd' leaves the bank's folder" },
		{ "img-url.xml", "question 'refused-img-url': image 'file:///etc/passwd' is a URL" },
		{ "img-missing.xml", "question 'refused-img-missing': image 'img/none.png' does not exist" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct qb_error err = { 0, "" };
		char in[256], out[128];
		int rc;

		snprintf(in, sizeof(in), REFUSED "%s", cases[i].file);
		snprintf(out, sizeof(out), "%s/out.xml", tmpdir);
		rc = export_direct(in, out, &err);
		ck_assert_msg(rc == QB_EREFUSED, "%s: rc %d (%s)", in, rc, err.msg);
		ck_assert_msg(strncmp(err.msg, in, strlen(in)) == 0, "%s: message '%s' does not "
			      "start with the file", in, err.msg);
		ck_assert_msg(strstr(err.msg, cases[i].says) != NULL, "%s: message '%s' lacks '%s'",
			      in, err.msg, cases[i].says);
		ck_assert_msg(entries_in_tmpdir() == 0, "%s: the failed export left a file", in);
	}
}
END_TEST

/* Through the whole pipeline a refused question fails the export too (lint
 * errors refuse it earlier); an older output file survives untouched. */
START_TEST(refusal_keeps_old_output)
{
	static const char *const files[] = {
		"fraction-11-correct.xml", "img-absolute.xml", "numeric-comma.xml",
	};
	size_t i, len;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		struct qb_error err = { 0, "" };
		char in[256], out[128];
		const char *arg = in;
		char *back;
		FILE *f;
		int rc;

		snprintf(in, sizeof(in), REFUSED "%s", files[i]);
		snprintf(out, sizeof(out), "%s/old.xml", tmpdir);
		f = fopen(out, "w");
		ck_assert_ptr_nonnull(f);
		fputs("old\n", f);
		fclose(f);
		rc = export_lint(&arg, 1, out, &err);
		ck_assert_msg(rc == QB_EINVAL || rc == QB_EREFUSED, "%s: rc %d", in, rc);
		back = slurp(out, &len);
		ck_assert_str_eq(back, "old\n");
		free(back);
		ck_assert_uint_eq(entries_in_tmpdir(), 1);
		unlink(out);
	}
}
END_TEST

/* ---- the importer's rules --------------------------------------------------- */

/* Exports ARGS through the whole pipeline and checks the file against the
 * importer's rules. */
static void export_and_check(const char *const *args, size_t n)
{
	struct qb_error err = { 0, "" };
	struct qb_buf found = QB_BUF_INIT;
	char out[128];
	int rc;

	snprintf(out, sizeof(out), "%s/export.xml", tmpdir);
	rc = export_lint(args, n, out, &err);
	ck_assert_msg(rc == 0, "%s: export failed: %s", args[0], err.msg);
	rc = moodle_rules_check(out, &found);
	ck_assert_msg(rc == 0, "%s: %d importer rule(s) broken:\n%s", args[0], rc,
		      found.ptr ? found.ptr : "");
	qb_buf_dispose(&found);
	unlink(out);
	ck_assert_uint_eq(entries_in_tmpdir(), 0);
}

START_TEST(rules_hold_for_project_bank)
{
	const char *args[] = { "bank" };

	export_and_check(args, 1);
}
END_TEST

START_TEST(rules_hold_for_hostile_bank)
{
	const char *args[] = { "tests/fixtures/hostile.xml" };

	export_and_check(args, 1);
}
END_TEST

START_TEST(rules_hold_for_fixtures)
{
	static const char *const banks[] = {
		"tests/fixtures/export/types.xml",
		"tests/fixtures/export/richtext.xml",
		"tests/fixtures/reader/all-types.xml",
	};
	size_t i;

	for (i = 0; i < sizeof(banks) / sizeof(banks[0]); i++)
		export_and_check(&banks[i], 1);
	/* several files form one export, each bank with its own category */
	export_and_check((const char *const *)banks, 3);
}
END_TEST

/* The check itself: each file of moodle-invalid/ breaks the rule its name
 * says, and the check must report that rule. */
START_TEST(rules_check_catches_each_rule)
{
	DIR *d = opendir(INVALID);
	struct dirent *e;
	int n = 0;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)) != NULL) {
		struct qb_buf found = QB_BUF_INIT;
		char path[512], rule[128];
		size_t len = strlen(e->d_name);
		int rc;

		if (len < 5 || strcmp(e->d_name + len - 4, ".xml") != 0)
			continue;
		snprintf(path, sizeof(path), INVALID "%s", e->d_name);
		/* "\nRULE: ": the rule opens a line of the findings */
		snprintf(rule, sizeof(rule), "\n%.*s: ", (int)(len - 4), e->d_name);
		rc = moodle_rules_check(path, &found);
		ck_assert_msg(rc != 0, "%s: no rule broken", path);
		ck_assert_msg(found.ptr && (strncmp(found.ptr, rule + 1, strlen(rule + 1)) == 0 ||
					    strstr(found.ptr, rule) != NULL),
			      "%s: rule '%s' not reported; found:\n%s", path, rule + 1,
			      found.ptr ? found.ptr : "");
		qb_buf_dispose(&found);
		n++;
	}
	closedir(d);
	ck_assert_int_ge(n, 17);
}
END_TEST

/* ---- round trip ------------------------------------------------------------- */

static void collapse(struct qb_buf *out, const char *s)
{
	int space = 0;

	qb_buf_clear(out);
	ck_assert_int_eq(qb_buf_grow(out, 0), 0);
	for (; *s; s++) {
		if (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') {
			space = 1;
			continue;
		}
		if (space && out->len)
			qb_buf_addc(out, ' ');
		space = 0;
		qb_buf_addc(out, *s);
	}
}

/* The visible text of the HTML fragment S (entities decoded, tags gone). */
static void html_text(struct qb_buf *out, const char *s)
{
	htmlDocPtr doc;
	xmlChar *t;

	if (!s[0])
		return;
	doc = htmlReadMemory(s, (int)strlen(s), NULL, "UTF-8",
			     HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_NONET);
	ck_assert_ptr_nonnull(doc);
	t = xmlNodeGetContent((xmlNodePtr)doc);
	qb_buf_adds(out, (const char *)t);
	qb_buf_addc(out, ' ');
	xmlFree(t);
	xmlFreeDoc(doc);
}

/* All the visible text of one exported question: every <text> below it
 * read as HTML (the plain ones hold no markup, and matching answers are
 * HTML-escaped for Moodle's format_string). */
static void question_text(struct qb_buf *out, const xmlNode *n)
{
	const xmlNode *c;

	for (c = n->children; c; c = c->next) {
		if (c->type != XML_ELEMENT_NODE)
			continue;
		if (strcmp((const char *)c->name, "text") == 0) {
			xmlChar *v = xmlNodeGetContent(c);

			html_text(out, (const char *)v);
			xmlFree(v);
		} else if (strcmp((const char *)c->name, "file") != 0) {
			question_text(out, c);
		}
	}
}

struct exported {
	char *id;
	char *text;      /* white space collapsed */
};

static size_t load_export(const char *path, struct exported **out)
{
	xmlDocPtr doc = xmlReadFile(path, NULL, XML_PARSE_NONET | XML_PARSE_HUGE);
	const xmlNode *q, *c;
	struct exported *v = NULL;
	size_t n = 0;

	ck_assert_ptr_nonnull(doc);
	for (q = xmlDocGetRootElement(doc)->children; q; q = q->next) {
		struct qb_buf all = QB_BUF_INIT, norm = QB_BUF_INIT;
		xmlChar *id = NULL;

		if (q->type != XML_ELEMENT_NODE)
			continue;
		for (c = q->children; c; c = c->next)
			if (c->type == XML_ELEMENT_NODE && strcmp((const char *)c->name, "idnumber") == 0)
				id = xmlNodeGetContent(c);
		if (!id)
			continue;   /* a category */
		question_text(&all, q);
		collapse(&norm, all.ptr ? all.ptr : "");
		v = realloc(v, (n + 1) * sizeof(*v));
		ck_assert_ptr_nonnull(v);
		v[n].id = strdup((const char *)id);
		v[n].text = qb_buf_detach(&norm);
		n++;
		xmlFree(id);
		qb_buf_dispose(&all);
	}
	xmlFreeDoc(doc);
	*out = v;
	return n;
}

/* Every text run below rich-text element N (text nodes, math's TeX) must
 * occur in HAY; returns how many runs were checked. */
static size_t find_runs(const xmlNode *n, const char *hay, const char *qid, const char *part)
{
	struct qb_buf norm = QB_BUF_INIT;
	const xmlNode *c;
	size_t runs = 0;

	for (c = n ? n->children : NULL; c; c = c->next) {
		if (c->type == XML_TEXT_NODE || c->type == XML_CDATA_SECTION_NODE) {
			collapse(&norm, (const char *)c->content);
			if (!norm.len)
				continue;
			ck_assert_msg(strstr(hay, norm.ptr) != NULL,
				      "question '%s': the %s text \"%s\" is not in the export", qid,
				      part, norm.ptr);
			runs++;
		} else if (c->type == XML_ELEMENT_NODE) {
			runs += find_runs(c, hay, qid, part);
		}
	}
	qb_buf_dispose(&norm);
	return runs;
}

static void round_trip(const char *bank)
{
	struct qb_error err = { 0, "" };
	struct qb_paths paths = { NULL, 0 };
	struct exported *ex = NULL;
	xmlSchemaPtr schema = NULL;
	char out[128];
	size_t nex, f, i, k, questions = 0, runs = 0;

	snprintf(out, sizeof(out), "%s/round-trip.xml", tmpdir);
	ck_assert_msg(export_lint(&bank, 1, out, &err) == 0, "%s: %s", bank, err.msg);
	nex = load_export(out, &ex);
	ck_assert_int_eq(qb_paths_expand(&paths, &bank, 1, &err), 0);
	ck_assert_int_eq(qb_schema_load(&schema, &err), 0);
	for (f = 0; f < paths.n; f++) {
		struct qb_reader_opts ro = { schema, f, NULL, NULL };
		struct qb_reader *r = NULL;
		const struct qb_question *q;

		ck_assert_int_eq(qb_reader_open(&r, paths.v[f], &ro, &err), 0);
		while (qb_reader_next(r, &q) == 1) {
			const char *hay = NULL;

			for (k = 0; k < nex && !hay; k++)
				if (strcmp(ex[k].id, q->id) == 0)
					hay = ex[k].text;
			ck_assert_msg(hay != NULL, "question '%s' is not in the export", q->id);
			runs += find_runs(q->stem, hay, q->id, "stem");
			for (i = 0; i < q->noptions; i++) {
				runs += find_runs(q->options[i].text, hay, q->id, "option");
				runs += find_runs(q->options[i].rationale, hay, q->id, "rationale");
			}
			for (i = 0; i < q->nside_rationales; i++)
				runs += find_runs(q->side_rationales[i].node, hay, q->id, "rationale");
			for (i = 0; i < q->npairs; i++) {
				runs += find_runs(q->pairs[i].premise, hay, q->id, "premise");
				runs += find_runs(q->pairs[i].response, hay, q->id, "response");
			}
			for (i = 0; i < q->ndistractors; i++)
				runs += find_runs(q->distractors[i].node, hay, q->id, "distractor");
			runs += find_runs(q->rubric, hay, q->id, "rubric");
			runs += find_runs(q->explanation, hay, q->id, "explanation");
			questions++;
		}
		qb_reader_free(r);
	}
	ck_assert_uint_eq(questions, nex);
	ck_assert_uint_gt(runs, questions);
	qb_schema_free(schema);
	qb_paths_dispose(&paths);
	for (k = 0; k < nex; k++) {
		free(ex[k].id);
		free(ex[k].text);
	}
	free(ex);
	unlink(out);
}

START_TEST(round_trip_project_bank)
{
	round_trip("bank");
}
END_TEST

START_TEST(round_trip_hostile_bank)
{
	round_trip("tests/fixtures/hostile.xml");
}
END_TEST

START_TEST(round_trip_fixtures)
{
	round_trip("tests/fixtures/export/types.xml");
	round_trip("tests/fixtures/export/richtext.xml");
}
END_TEST

/* Same input, same bytes: two exports of the hostile bank are identical. */
START_TEST(output_is_deterministic)
{
	const char *bank = "tests/fixtures/hostile.xml";
	struct qb_error err = { 0, "" };
	char a[128], b[128];
	char *x, *y;
	size_t lx, ly;

	snprintf(a, sizeof(a), "%s/a.xml", tmpdir);
	snprintf(b, sizeof(b), "%s/b.xml", tmpdir);
	ck_assert_int_eq(export_lint(&bank, 1, a, &err), 0);
	ck_assert_int_eq(export_lint(&bank, 1, b, &err), 0);
	x = slurp(a, &lx);
	y = slurp(b, &ly);
	ck_assert_uint_eq(lx, ly);
	ck_assert(memcmp(x, y, lx) == 0);
	free(x);
	free(y);
	unlink(a);
	unlink(b);
}
END_TEST

Suite *suite_moodle(void)
{
	Suite *s = suite_create("moodle");
	TCase *t = tcase_create("moodle");

	tcase_add_checked_fixture(t, make_tmpdir, remove_tmpdir);
	tcase_set_timeout(t, 60);
	tcase_add_test(t, cdata_splits_terminator);
	tcase_add_test(t, decimal_spelling);
	tcase_add_test(t, renderer_reuse_keeps_bytes);
	tcase_add_test(t, url_and_html_escaping);
	tcase_add_test(t, refusals_name_the_question);
	tcase_add_test(t, refusal_keeps_old_output);
	tcase_add_test(t, rules_hold_for_project_bank);
	tcase_add_test(t, rules_hold_for_hostile_bank);
	tcase_add_test(t, rules_hold_for_fixtures);
	tcase_add_test(t, rules_check_catches_each_rule);
	tcase_add_test(t, round_trip_project_bank);
	tcase_add_test(t, round_trip_hostile_bank);
	tcase_add_test(t, round_trip_fixtures);
	tcase_add_test(t, output_is_deterministic);
	suite_add_tcase(s, t);
	return s;
}
