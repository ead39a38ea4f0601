/* The static tables (rules, commands, exporters, formats) must stay sorted
 * and free of duplicates: their lookups are binary searches. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../tools/cli/cli.h"
#include "../../tools/cli/fmt_diff.h"
#include "../../tools/cli/format.h"
#include "../../tools/cli/opts.h"
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
	CHECK_SORTED(qb_commands, qb_ncommands, opts->name);
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
	ck_assert_ptr_nonnull(qb_exporter_find("pdf"));
	ck_assert_ptr_nonnull(qb_exporter_find("docx"));
}
END_TEST

START_TEST(formats_sorted)
{
	CHECK_SORTED(qb_formats, qb_nformats, name);
	ck_assert_ptr_nonnull(qb_format_find("sarif"));
}
END_TEST

START_TEST(diff_formats_sorted)
{
	CHECK_SORTED(qb_diff_formats, qb_diff_nformats, name);
	ck_assert_ptr_nonnull(qb_diff_format_find("text"));
	ck_assert_ptr_nonnull(qb_diff_format_find("markdown"));
	ck_assert_ptr_nonnull(qb_diff_format_find("json"));
}
END_TEST

/* ---- option tables (tools/cli/opts.h) ------------------------------------ */

static size_t label_len(const struct qb_opt *r)
{
	return (r->short_name ? 4 : 0) + 2 + strlen(r->name) + (r->arg ? 1 + strlen(r->arg) : 0);
}

/* Within QB_OPTS_MAX, no long or short name twice, a set function on every
 * row, a joined row only after a listed one, and every label that stands
 * alone short enough for the help column, so that the help lines up. */
static void check_opts(const struct qb_opts *o)
{
	const char *cmd = o->name ? o->name : "qbank";
	size_t i, j;

	ck_assert_msg(o->n <= QB_OPTS_MAX, "%s: more than QB_OPTS_MAX options", cmd);
	for (i = 0; i < o->n; i++) {
		const struct qb_opt *r = &o->v[i];
		int joined = i + 1 < o->n && (o->v[i + 1].flags & QB_OPT_JOIN);

		ck_assert_msg(r->name && r->name[0] && r->set, "%s: row %zu has no name or set function",
			      cmd, i);
		if (r->flags & QB_OPT_JOIN)
			ck_assert_msg(i > 0 && !r->help && (o->v[i - 1].help || (o->v[i - 1].flags & QB_OPT_JOIN)),
				      "%s --%s: a joined row follows a listed one", cmd, r->name);
		else if (r->help && !joined)
			ck_assert_msg(2 + label_len(r) + 2 <= (size_t)o->col,
				      "%s --%s: the label does not fit the help column %d", cmd, r->name, o->col);
		for (j = 0; j < i; j++) {
			ck_assert_msg(strcmp(r->name, o->v[j].name) != 0, "%s: --%s twice", cmd, r->name);
			ck_assert_msg(!r->short_name || r->short_name != o->v[j].short_name, "%s: -%c twice",
				      cmd, r->short_name);
		}
	}
}

START_TEST(option_tables)
{
	size_t i;

	check_opts(&qb_top_opts);
	for (i = 0; i < qb_ncommands; i++) {
		ck_assert_ptr_nonnull(qb_commands[i].opts->summary);
		ck_assert_ptr_nonnull(qb_commands[i].opts->synopsis);
		check_opts(qb_commands[i].opts);
	}
}
END_TEST

struct t_args {
	int flag;
	const char *str;
};

static const struct qb_opt t_rows[] = {
	{ "flag", 'f', NULL, "a flag", offsetof(struct t_args, flag), qb_opt_flag, 0 },
	{ "string", 's', "S", "a string\non two lines", offsetof(struct t_args, str), qb_opt_string, 0 },
	{ "also", 0, NULL, NULL, offsetof(struct t_args, flag), qb_opt_flag, QB_OPT_JOIN },
	{ "help", 'h', NULL, NULL, 0, qb_opt_help, 0 },
};

static const struct qb_opts t_opts = {
	"t", "a test", "t [-f] [-s S] ARG...", t_rows, sizeof(t_rows) / sizeof(t_rows[0]), 18,
	"The end.", "unknown option '%s'", 0
};

/* Options and operands mix; the operands come back in order after the
 * options (and after --, which ends them); --name=value works. */
START_TEST(option_parse)
{
	char *argv[] = { "t", "a", "--string=x", "-f", "b", "--", "-c", NULL };
	char *in_order[] = { "t", "-f", "a", "-s", "y", NULL };
	struct t_args a = { 0, NULL };
	struct qb_opts o = t_opts;
	int i, status = -1;

	i = qb_opts_parse(&t_opts, &a, 7, argv, &status);
	ck_assert_int_eq(i, 4);   /* t --string=x -f -- a b -c */
	ck_assert_int_eq(status, -1);
	ck_assert_int_eq(a.flag, 1);
	ck_assert_str_eq(a.str, "x");
	ck_assert_str_eq(argv[4], "a");
	ck_assert_str_eq(argv[5], "b");
	ck_assert_str_eq(argv[6], "-c");
	/* in order: the options end at the first operand */
	memset(&a, 0, sizeof(a));
	o.flags = QB_OPTS_IN_ORDER;
	i = qb_opts_parse(&o, &a, 5, in_order, &status);
	ck_assert_int_eq(i, 2);
	ck_assert_int_eq(a.flag, 1);
	ck_assert_ptr_null(a.str);
}
END_TEST

/* The help comes from the rows: labels padded to the column, a second
 * line indented to it, a joined row on its neighbour's line. */
START_TEST(option_help)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	ck_assert_ptr_nonnull(f);
	qb_opts_help(f, &t_opts);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_str_eq(text, "t - a test\n\nUsage: t [-f] [-s S] ARG...\n"
			       "  -f, --flag      a flag\n"
			       "  -s, --string S, --also   a string\n"
			       "                  on two lines\n"
			       "The end.\n");
	free(text);
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
	tcase_add_test(tc, diff_formats_sorted);
	suite_add_tcase(s, tc);
	tc = tcase_create("options");
	tcase_add_test(tc, option_tables);
	tcase_add_test(tc, option_parse);
	tcase_add_test(tc, option_help);
	suite_add_tcase(s, tc);
	return s;
}
