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

/* The names of rule_ids.h, in their order. */
static const char *const rule_names[] = {
#define NAME_(name) #name,
	QB_RULE_LIST(NAME_)
#undef NAME_
};

/* Every QB_RULE_* indexes the row whose id it spells ("key-missing" is
 * QB_RULE_KEY_MISSING), and every row is there: a report that names a rule
 * by its key reports that rule. */
START_TEST(rule_keys_match_ids)
{
	size_t i, j;

	ck_assert_uint_eq(sizeof(rule_names) / sizeof(rule_names[0]), QB_RULE_COUNT);
	ck_assert_uint_eq(qb_nrules, QB_RULE_COUNT);
	for (i = 0; i < QB_RULE_COUNT; i++) {
		const char *id = qb_rules[i].id, *name = rule_names[i];

		ck_assert_msg(id != NULL, "QB_RULE_%s has no row in the table", name);
		for (j = 0; id[j] && name[j]; j++) {
			char want = id[j] == '-' ? '_' : id[j] >= 'a' && id[j] <= 'z' ? id[j] - 'a' + 'A'
										 : id[j];

			if (want != name[j])
				break;
		}
		ck_assert_msg(!id[j] && !name[j], "row %zu is '%s' but its key is QB_RULE_%s", i, id,
			      name);
	}
	ck_assert_str_eq(qb_rules[QB_RULE_KEY_MISSING].id, "key-missing");
	ck_assert_str_eq(qb_rules[QB_RULE_XML_SYNTAX].id, "xml-syntax");
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
	tcase_add_test(tc, rule_keys_match_ids);
	tcase_add_test(tc, commands_sorted);
	tcase_add_test(tc, exporters_sorted);
	tcase_add_test(tc, formats_sorted);
	suite_add_tcase(s, tc);
	return s;
}
