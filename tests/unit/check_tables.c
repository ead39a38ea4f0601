/* The static tables (rules, commands, exporters, formats) must stay sorted
 * and free of duplicates: their lookups are binary searches. */
#include <string.h>

#include "../../tools/cli/cli.h"
#include "../../tools/lib/export.h"
#include "../../tools/lib/rules.h"
#include "check_suites.h"

#define CHECK_SORTED(arr, n, field)                                              \
	do {                                                                     \
		size_t i_;                                                       \
		for (i_ = 1; i_ < (n); i_++)                                     \
			ck_assert_msg(strcmp((arr)[i_ - 1].field, (arr)[i_].field) < 0, \
				      "%s must sort before %s",                  \
				      (arr)[i_ - 1].field, (arr)[i_].field);     \
	} while (0)

START_TEST(rules_sorted_unique)
{
	size_t i;

	CHECK_SORTED(qb_rules, qb_nrules, id);
	for (i = 0; i < qb_nrules; i++) {
		ck_assert_ptr_eq(qb_rule_find(qb_rules[i].id), &qb_rules[i]);
		ck_assert_msg(qb_rules[i].summary && qb_rules[i].summary[0], "%s has no summary",
			      qb_rules[i].id);
		ck_assert_msg(strstr(qb_rules[i].explanation, "Bad:") &&
				      strstr(qb_rules[i].explanation, "Good:"),
			      "%s: the explanation needs a Bad: and a Good: example", qb_rules[i].id);
	}
	ck_assert_ptr_null(qb_rule_find("no-such-rule"));
}
END_TEST

START_TEST(commands_sorted)
{
	CHECK_SORTED(qb_commands, qb_ncommands, name);
	ck_assert_ptr_nonnull(qb_command_find("lint"));
	ck_assert_ptr_null(qb_command_find("lin"));
}
END_TEST

START_TEST(exporters_sorted)
{
	CHECK_SORTED(qb_exporters, qb_nexporters, name);
	ck_assert_ptr_nonnull(qb_exporter_find("moodle"));
	ck_assert_ptr_nonnull(qb_exporter_find("qti21"));
	ck_assert_ptr_nonnull(qb_exporter_find("markdown"));
}
END_TEST

START_TEST(formats_sorted)
{
	CHECK_SORTED(qb_formats, qb_nformats, name);
	ck_assert_ptr_nonnull(qb_format_find("sarif"));
}
END_TEST

Suite *suite_tables(void)
{
	Suite *s = suite_create("tables");
	TCase *tc = tcase_create("sorted");

	tcase_add_test(tc, rules_sorted_unique);
	tcase_add_test(tc, commands_sorted);
	tcase_add_test(tc, exporters_sorted);
	tcase_add_test(tc, formats_sorted);
	suite_add_tcase(s, tc);
	return s;
}
