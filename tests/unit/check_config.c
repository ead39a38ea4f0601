/* The configuration file parser (tools/lib/config.c): settings, severities,
 * user rules, the order in which the file and the command line apply, and
 * errors that name their line. The command-line cases in tests/cli/ cover
 * the same through the binary. */
#include <stdlib.h>
#include <string.h>

#include "../../tools/lib/config.h"
#include "../../tools/lib/rules.h"
#include "check_suites.h"

static int parse(struct qb_config *c, const char *text, struct qb_error *err)
{
	memset(err, 0, sizeof(*err));
	return qb_config_parse(c, "t.toml", text, strlen(text), qb_rule_known, err);
}

START_TEST(settings_and_rules)
{
	struct qb_config *c;
	struct qb_error err;
	const struct qb_user_rule *u;

	ck_assert_int_eq(qb_config_new(&c), 0);
	ck_assert_int_eq(parse(c,
			       "\xef\xbb\xbf# comment\r\n"
			       "max-warnings = 3   # trailing comment\n"
			       "min-explanation-coverage = 90.5\n"
			       "[rules]\n"
			       "\"cue-*\" = \"off\"\n"
			       "key-missing = 'warning'\n"
			       "[[custom-rule]]\n"
			       "id = \"custom/no-todo\"\n"
			       "pattern = '\\bTODO\\b'\n"
			       "parts = [\"stem\", \"key\",]\n"
			       "message = \"caf\\u00e9 {match}\"\n"
			       "severity = \"error\"\n",
			       &err), 0);
	ck_assert_int_eq(c->max_warnings, 3);
	ck_assert(c->min_explanation_coverage == 90.5);
	ck_assert(c->min_rationale_coverage < 0);
	ck_assert_int_eq(qb_config_severity(c, "cue-longest-option", QB_SEV_WARNING), QB_SEV_OFF);
	ck_assert_int_eq(qb_config_severity(c, "key-missing", QB_SEV_ERROR), QB_SEV_WARNING);
	ck_assert_int_eq(qb_config_severity(c, "text-empty", QB_SEV_ERROR), QB_SEV_ERROR);
	u = qb_config_user_rule(c, "custom/no-todo");
	ck_assert_ptr_nonnull(u);
	ck_assert_str_eq(u->pattern, "\\bTODO\\b");
	ck_assert_str_eq(u->message, "caf\xc3\xa9 {match}");
	ck_assert_uint_eq(u->parts, QB_PART_STEM | QB_PART_KEY);
	ck_assert_ptr_nonnull(u->code);
	ck_assert_ptr_nonnull(c->mctx);
	ck_assert_uint_eq(u->pattern_line, 9);
	/* a user rule's own severity is its default, whatever the caller passes */
	ck_assert_int_eq(qb_config_severity(c, "custom/no-todo", QB_SEV_WARNING), QB_SEV_ERROR);
	ck_assert_ptr_null(qb_config_user_rule(c, "custom/other"));
	qb_config_free(c);
}
END_TEST

/* The command line fills the config first; the file goes under it. */
START_TEST(command_line_wins)
{
	struct qb_config *c;
	struct qb_error err;

	ck_assert_int_eq(qb_config_new(&c), 0);
	c->max_warnings = 7;
	ck_assert_int_eq(qb_config_set_severity(c, "option-count", QB_SEV_OFF, 1), 0);
	ck_assert_int_eq(qb_config_set_severity(c, "cue-longest-option", QB_SEV_OFF, 0), 0);
	ck_assert_int_eq(parse(c,
			       "max-warnings = 0\nmin-rationale-coverage = 80\n[rules]\n"
			       "\"option-*\" = \"off\"\ncue-longest-option = \"error\"\n",
			       &err), 0);
	ck_assert_int_eq(c->max_warnings, 7);
	ck_assert(c->min_rationale_coverage == 80);
	/* --enable option-count after the file's "option-*" = "off" */
	ck_assert_int_eq(qb_config_severity(c, "option-count", QB_SEV_WARNING), QB_SEV_WARNING);
	ck_assert_int_eq(qb_config_severity(c, "option-duplicate", QB_SEV_ERROR), QB_SEV_OFF);
	/* --disable cue-longest-option after the file's "error" */
	ck_assert_int_eq(qb_config_severity(c, "cue-longest-option", QB_SEV_WARNING), QB_SEV_OFF);
	qb_config_free(c);
}
END_TEST

static const struct {
	const char *text;
	const char *msg;   /* the start of the error message */
} bad[] = {
	{ "\n\nmax-warning = 1\n", "t.toml:3: unknown setting 'max-warning'" },
	{ "[rules]\nkey-missing = \"fatal\"\n", "t.toml:2: severity of 'key-missing'" },
	{ "[rules]\nno-such = \"off\"\n", "t.toml:2: unknown rule 'no-such'" },
	{ "[nope]\n", "t.toml:1: unknown table [nope]" },
	{ "max-warnings 1\n", "t.toml:1: expected '='" },
	{ "max-warnings = -1\n", "t.toml:1: 'max-warnings' takes a whole number" },
	{ "max-warnings = 1\nmax-warnings = 2\n", "t.toml:2: 'max-warnings' is set twice (first on line 1)" },
	{ "[[custom-rule]]\nid = \"custom/x\"\nmessage = \"m\"\n\npattern = '(a'\n",
	  "t.toml:5: bad pattern for custom/x: missing closing parenthesis" },
	{ "x = 1\n", "t.toml:1: unknown setting 'x'" },
	{ "\n[[custom-rule]]\nid = \"custom/x\"\n", "t.toml:2: [[custom-rule]] without a pattern or a message" },
	{ "[[custom-rule]]\nid = \"x\"\n", "t.toml:2: user rule ids live in their own namespace" },
	{ "[[custom-rule]]\nparts = [\"stem\", \"answer\"]\n", "t.toml:2: unknown part 'answer'" },
	{ "[[custom-rule]]\nparts = [\"stem\"\n", "t.toml:2: unterminated array" },
	{ "a = \"\\q\"\n", "t.toml:1: unknown escape '\\q'" },
	{ "a = \"\\u12\"\n", "t.toml:1: bad \\u escape" },
	{ "a = 'x\n", "t.toml:1: unterminated string" },
	{ "min-rationale-coverage = 1e400\n", "t.toml:1: bad number '1e400'" },
};

START_TEST(errors_name_their_line)
{
	struct qb_config *c;
	struct qb_error err;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_int_eq(qb_config_new(&c), 0);
		c->max_warnings = 5;
		ck_assert_int_eq(parse(c, bad[i].text, &err), QB_EINVAL);
		ck_assert_msg(strncmp(err.msg, bad[i].msg, strlen(bad[i].msg)) == 0,
			      "case %zu: got \"%s\", expected \"%s...\"", i, err.msg, bad[i].msg);
		/* a failed parse leaves the configuration as it was */
		ck_assert_int_eq(c->max_warnings, 5);
		ck_assert_uint_eq(c->nsev, 0);
		ck_assert_uint_eq(c->nuser_rules, 0);
		qb_config_free(c);
	}
}
END_TEST

/* The parser knows no rule table: the caller's check decides which keys of
 * [rules] are rules, and without one every key is taken. */
START_TEST(rule_check_is_the_callers)
{
	static const char text[] = "[rules]\nno-such = \"off\"\n";
	struct qb_config *c;
	struct qb_error err;

	ck_assert_int_eq(qb_config_new(&c), 0);
	memset(&err, 0, sizeof(err));
	ck_assert_int_eq(qb_config_parse(c, "t.toml", text, strlen(text), NULL, &err), 0);
	ck_assert_int_eq(qb_config_severity(c, "no-such", QB_SEV_WARNING), QB_SEV_OFF);
	qb_config_free(c);
	ck_assert_int_eq(qb_config_new(&c), 0);
	ck_assert_int_eq(parse(c, text, &err), QB_EINVAL);
	ck_assert_str_eq(err.msg, "t.toml:2: unknown rule 'no-such'; 'qbank rules' lists them");
	ck_assert_uint_eq(c->nsev, 0);
	qb_config_free(c);
}
END_TEST

START_TEST(read_errors_are_fixed)
{
	struct qb_config *c;
	struct qb_error err;

	ck_assert_int_eq(qb_rule_known("xml-schema"), QB_CONFIG_RULE_FIXED);
	ck_assert_int_eq(qb_rule_known("limit-exceeded"), QB_CONFIG_RULE_FIXED);
	ck_assert_int_eq(qb_rule_known("key-missing"), QB_CONFIG_RULE_OK);
	ck_assert_int_eq(qb_rule_known("xml-*"), QB_CONFIG_RULE_OK);
	ck_assert_int_eq(qb_rule_known("no-such-rule"), QB_CONFIG_RULE_UNKNOWN);
	ck_assert_int_eq(qb_config_new(&c), 0);
	/* "error" is what it is anyway; anything else is refused at its line */
	ck_assert_int_eq(parse(c, "[rules]\nxml-syntax = \"error\"\n", &err), 0);
	ck_assert_int_eq(parse(c, "[rules]\nxml-schema = \"off\"\n", &err), QB_EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "t.toml:2: 'xml-schema' is a read error"));
	ck_assert_int_eq(parse(c, "[rules]\n\"xml-*\" = \"off\"\n", &err), 0);
	qb_config_free(c);
}
END_TEST

START_TEST(load_missing_file)
{
	struct qb_config *c;
	struct qb_error err = { 0, "" };

	ck_assert_int_eq(qb_config_new(&c), 0);
	ck_assert_int_eq(qb_config_load(c, "/nonexistent/.qbank.toml", qb_rule_known, &err), QB_EIO);
	ck_assert_ptr_nonnull(strstr(err.msg, "/nonexistent/.qbank.toml"));
	ck_assert_ptr_null(c->path);
	qb_config_free(c);
}
END_TEST

Suite *suite_config(void)
{
	Suite *s = suite_create("config");
	TCase *tc = tcase_create("parse");

	tcase_add_test(tc, settings_and_rules);
	tcase_add_test(tc, command_line_wins);
	tcase_add_test(tc, errors_name_their_line);
	tcase_add_test(tc, rule_check_is_the_callers);
	tcase_add_test(tc, read_errors_are_fixed);
	tcase_add_test(tc, load_missing_file);
	suite_add_tcase(s, tc);
	return s;
}
