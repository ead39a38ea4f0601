/* The Markdown exporter's pieces: escaping of plain text, rich text to
 * Markdown, and the forms' generator. Cases are rows of tables. */
#include <string.h>

#include <libxml/parser.h>

#include "../../tools/lib/exporters/md.h"
#include "check_suites.h"

/* plain text in, Markdown out */
static const struct { const char *in, *out; } plain_cases[] = {
	{ "plain words", "plain words" },
	{ "  white \n\t space  ", "white space" },
	{ "* _ # [ ] ( ) < > | $ \\ { } ~ ^ % & @",
	  "\\* \\_ \\# \\[ \\] \\( \\) \\< \\> \\| \\$ \\\\ \\{ \\} \\~ \\^ \\% \\& \\@" },
	{ "`tick` \"q\" 'a'", "\\`tick\\` \\\"q\\\" \\'a\\'" },
	{ "a--b a---b a-b", "a\\-\\-b a\\-\\-\\-b a-b" },
	{ "wait... 1.5", "wait\\.\\.\\. 1.5" },
	{ "1. item", "1\\. item" },
	{ "12. item", "12\\. item" },
	{ "a. item", "a\\. item" },
	{ "iv. item", "iv\\. item" },
	{ "Discuss.", "Discuss." },
	{ "1.5 is a number", "1.5 is a number" },
	{ "- bullet", "\\- bullet" },
	{ "+ plus", "\\+ plus" },
	{ ": definition", "\\: definition" },
	{ "= setext", "\\= setext" },
	{ "> quote", "\\> quote" },
	{ "# heading", "\\# heading" },
	{ "x\x01y\xc2\x85z", "xyz" },            /* C0 and C1 controls dropped */
	{ "\xce\xb1\xce\xb2 \xe4\xb8\xad", "\xce\xb1\xce\xb2 \xe4\xb8\xad" },
	/* plain stretches are copied in one go: their ends must not change */
	{ "e.g. a-b c.d", "e.g. a-b c.d" },
	{ "x--y--z a.-.b", "x\\-\\-y\\-\\-z a.-.b" },
	{ "1.5.2 and 1..2", "1.5.2 and 1\\.\\.2" },
	{ "a  b\tc\nd e", "a b c d e" },
	{ "x \xc2\x85y \xc2\xa0z", "x y \xc2\xa0z" },
};

START_TEST(plain_escapes)
{
	struct qb_buf b = QB_BUF_INIT;
	const char *in = plain_cases[_i].in;

	ck_assert_int_eq(md_plain(&b, in, strlen(in)), 0);
	ck_assert_str_eq(b.ptr ? b.ptr : "", plain_cases[_i].out);
	qb_buf_dispose(&b);
}
END_TEST

/* rich text (the children of <x>) in, Markdown out; inline or block */
static const struct { int block; const char *in, *out; } rich_cases[] = {
	{ 0, "<em>a</em> and <strong>b</strong>", "*a* and **b**" },
	{ 0, "<em> spaced </em>x", "*spaced* x" },
	{ 0, "<em></em>gone", "gone" },
	{ 0, "<em>a <em>b</em></em>", "*a b*" },
	{ 0, "<strong>a</strong><em>b</em>", "**a**[]{}*b*" },
	{ 0, "H<sub>2</sub>O x<sup>a b</sup>", "H~2~O x^a\\ b^" },
	{ 0, "<sub>a b c</sub> d e", "~a\\ b\\ c~ d e" },
	{ 0, "<code>a`b</code> <code>`x</code>", "``a`b`` `` `x ``" },
	{ 0, "<code>a\nb</code>", "`a b`" },
	{ 0, "<math>x^2 % c\n+ 1</math>", "$x^2 + 1$" },
	{ 0, "<math>a &amp; b # $</math>", "$a \\& b \\# \\$$" },
	{ 0, "<math>\\begin{matrix}a &amp; b\\end{matrix}</math>", "$\\begin{matrix}a & b\\end{matrix}$" },
	{ 0, "<math>x</math>5", "[$x$]{}5" },
	{ 0, "<math>x</math>5 6", "[$x$]{}5 6" },
	{ 0, "<math display=\"block\">y</math>", "$$y$$" },
	{ 0, "a<br/>- b", "a\\\n\\- b" },
	{ 0, "<br/>a<br/>", "a" },
	{ 0, "<img src=\"a b.png\" alt=\"[x]\" width=\"20\"/>", "![\\[x\\]](<a b.png>){width=20px}\\ " },
	{ 0, "see <img src=\"x.png\" alt=\"x\"/>", "see ![x](<x.png>)" },
	{ 1, "<p>one</p><p>two</p>", "one\n\ntwo" },
	{ 1, "text <pre lang=\"python\">\nx = 1\n</pre>", "text\n\n```python\nx = 1\n```" },
	{ 1, "<pre>a\n```\nb</pre>", "````\na\n```\nb\n````" },
	{ 1, "<ul><li>a</li><li>b<ol><li>c</li></ol></li></ul>", "-   a\n-   b\n    1.  c" },
	{ 1, "<ul><li>a</li></ul><ul><li>b</li></ul>", "-   a\n\n<!-- -->\n\n-   b" },
	{ 1, "<p>1. not a list</p>", "1\\. not a list" },
};

START_TEST(rich_renders)
{
	struct qb_buf b = QB_BUF_INIT, x = QB_BUF_INIT;
	struct md_paths p = { NULL, NULL, NULL };
	xmlDocPtr doc;

	ck_assert_int_eq(qb_buf_printf(&x, "<x>%s</x>", rich_cases[_i].in), 0);
	doc = xmlReadMemory(x.ptr, (int)x.len, "case.xml", NULL, XML_PARSE_NONET);
	ck_assert_ptr_nonnull(doc);
	if (rich_cases[_i].block)
		ck_assert_int_eq(md_blocks(&b, xmlDocGetRootElement(doc), &p, NULL), 0);
	else
		ck_assert_int_eq(md_inline(&b, xmlDocGetRootElement(doc), &p), 0);
	ck_assert_str_eq(b.ptr ? b.ptr : "", rich_cases[_i].out);
	xmlFreeDoc(doc);
	qb_buf_dispose(&b);
	qb_buf_dispose(&x);
}
END_TEST

START_TEST(splitmix64_reference)
{
	/* the published sequence from a zero state */
	struct md_rand r = { 0 };

	ck_assert(md_rand_next(&r) == UINT64_C(0xe220a8397b1dcdaf));
	ck_assert(md_rand_next(&r) == UINT64_C(0x6e789e6aa1b965f4));
	ck_assert(md_rand_next(&r) == UINT64_C(0x06c45d188009454f));
}
END_TEST

START_TEST(perm_is_a_permutation)
{
	struct md_rand r, s;
	size_t v[40], w[40], seen[40], i;
	int differs = 0;

	md_rand_init(&r, 42, 'A', 7);
	md_rand_init(&s, 42, 'B', 7);
	md_rand_perm(&r, v, 40);
	md_rand_perm(&s, w, 40);
	memset(seen, 0, sizeof(seen));
	for (i = 0; i < 40; i++) {
		ck_assert_uint_lt(v[i], 40);
		ck_assert_uint_eq(seen[v[i]]++, 0);
		differs |= v[i] != w[i];
	}
	ck_assert(differs);
	md_rand_init(&s, 42, 'A', 7);
	md_rand_perm(&s, w, 40);
	ck_assert_int_eq(memcmp(v, w, sizeof(v)), 0);
}
END_TEST

/* The labels file's keys: sorted (bsearch), one per label, every label
 * English at least, every built-in language found by its subtag. */
START_TEST(labels_table)
{
	struct qb_error err = { 0, "" };
	struct md_labels l;
	int seen[MD_NLABELS] = { 0 }, i;

	for (i = 0; i < MD_NLABELS; i++) {
		if (i > 0)
			ck_assert_int_lt(strcmp(md_label_keys[i - 1].name, md_label_keys[i].name), 0);
		ck_assert_int_eq(seen[md_label_keys[i].label]++, 0);
	}
	memset(&l, 0, sizeof(l));
	ck_assert_int_eq(md_labels_resolve(&l, "de-CH", NULL, &err), 0);
	ck_assert_str_eq(md_label(&l, MD_L_STUDENT_NUMBER), "Matrikelnummer");
	ck_assert_int_eq(md_labels_resolve(&l, "xx", NULL, &err), 0);
	for (i = 0; i < MD_NLABELS; i++)
		ck_assert_str_ne(md_label(&l, (enum md_label_id)i), "");
	ck_assert_str_eq(md_label(&l, MD_L_TEACHER), "Teacher\\'s version");
	ck_assert_str_eq(md_label_plain(&l, MD_L_TEACHER), "Teacher's version");
	md_labels_dispose(&l);
	ck_assert(md_labels_known("fr") && md_labels_known("NL") && md_labels_known("es-419"));
	ck_assert(!md_labels_known("it"));
}
END_TEST

/* The stem's own "Select N" keeps the printed note from repeating it. */
START_TEST(stem_says_select)
{
	ck_assert(md_stem_says_select("Select two collectives.", "Select"));
	ck_assert(md_stem_says_select("Which are true? (choose 3)", "Select"));
	ck_assert(md_stem_says_select("Pick all that apply", "Select"));
	ck_assert(md_stem_says_select("Welche? Wählen Sie 2.", "Wählen Sie"));
	ck_assert(!md_stem_says_select("Which selection sort is stable?", "Select"));
	ck_assert(!md_stem_says_select("Select the best answer.", "Select"));
	ck_assert(!md_stem_says_select("Choose wisely.", "Select"));
	ck_assert(md_stem_says_select("Lesquelles ? \xc3\x89lisez 2 r\xc3\xa9ponses.", "\xc3\x89lisez"));
	ck_assert(md_stem_says_select("Which? PICK\nthree.", "Select"));
}
END_TEST

Suite *suite_markdown(void)
{
	Suite *s = suite_create("markdown");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, plain_escapes, 0, (int)(sizeof(plain_cases) / sizeof(plain_cases[0])));
	tcase_add_loop_test(tc, rich_renders, 0, (int)(sizeof(rich_cases) / sizeof(rich_cases[0])));
	tcase_add_test(tc, splitmix64_reference);
	tcase_add_test(tc, perm_is_a_permutation);
	tcase_add_test(tc, labels_table);
	tcase_add_test(tc, stem_says_select);
	suite_add_tcase(s, tc);
	return s;
}
