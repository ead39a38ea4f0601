/* The importers' HTML conversion (importers/html_rich.h). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../tools/lib/importers/html_rich.h"
#include "check_suites.h"

/* A lone plain paragraph, "<p>TEXT</p>", is taken without a parse: for
 * every TEXT its result is the parse's, which "<p >TEXT</p>" (the same
 * HTML to the parser) always goes through; texts the shortcut declines
 * are among them too. */
START_TEST(plain_paragraph_as_parsed)
{
	static const char *const texts[] = {
		"Which property holds?", " leading and trailing ", "\tTab\tinside\t", "\nline\nbreaks\n",
		"two  spaces", "caf\u00e9 \u00e6\u00f8\u00e5 \u2013 \u03bb \U0001F600", "quotes \" and '",
		"a single $ and a \\ backslash", "$5 and $6", "x", "   ", "", "a > b", "a < b",
		"a &amp; b", "tex \\(x\\) here", "display $$y$$", "cr\rhere", "non\u00a0breaking",
		"</p><p>two", "/p", "p>",
	};
	struct qb_imp_html h;
	struct qb_arena arena = QB_ARENA_INIT;
	char fast[256], slow[256];
	size_t i;

	memset(&h, 0, sizeof h);
	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		const char *a, *b;

		snprintf(fast, sizeof fast, "<p>%s</p>", texts[i]);
		snprintf(slow, sizeof slow, "<p >%s</p>", texts[i]);
		a = qb_imp_html_rich(&h, &arena, fast, 1);
		b = qb_imp_html_rich(&h, &arena, slow, 1);
		ck_assert_ptr_nonnull(a);
		ck_assert_ptr_nonnull(b);
		ck_assert_msg(strcmp(a, b) == 0, "text %zu '%s': '%s' without the parse, '%s' with it",
			      i, texts[i], a, b);
	}
	ck_assert_str_eq(qb_imp_html_rich(&h, &arena, "<p>Which property holds?</p>", 1),
			 "Which property holds?");
	/* inline (an option's text), paragraphs become line breaks: the
	 * shortcut is for block contexts only */
	ck_assert_str_eq(qb_imp_html_rich(&h, &arena, "<p>x</p><p>y</p>", 0), "x<br/>y");
	ck_assert_str_eq(qb_imp_html_rich(&h, &arena, "<p>x</p>", 0), "x");
	ck_assert_int_eq(h.oom, 0);
	qb_imp_html_dispose(&h);
	qb_arena_dispose(&arena);
}
END_TEST

Suite *suite_import(void)
{
	Suite *s = suite_create("import");
	TCase *t = tcase_create("html");

	tcase_add_test(t, plain_paragraph_as_parsed);
	suite_add_tcase(s, t);
	return s;
}
