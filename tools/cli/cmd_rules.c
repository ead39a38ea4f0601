#include <stdio.h>
#include <string.h>

#include "../lib/rules.h"
#include "cli.h"
#include "json_writer.h"

static void rules_text(void)
{
	size_t i;

	for (i = 0; i < qb_nrules; i++)
		printf("%-28s %-8s %s\n", qb_rules[i].id, qb_severity_name(qb_rules[i].severity),
		       qb_rules[i].summary);
}

/* The README's rule list (make readme-rules puts it between the markers). */
static void rules_markdown(void)
{
	size_t i;
	const char *s;

	puts("| rule | default | what it catches |\n|---|---|---|");
	for (i = 0; i < qb_nrules; i++) {
		printf("| `%s` | %s | ", qb_rules[i].id, qb_severity_name(qb_rules[i].severity));
		for (s = qb_rules[i].summary; *s; s++) {
			if (*s == '|')
				fputs("\\|", stdout);
			else
				putchar(*s);
		}
		puts(" |");
	}
}

static void rules_json(void)
{
	struct cli_json j;
	size_t i;

	cli_json_init(&j, stdout);
	cli_json_begin_array(&j);
	for (i = 0; i < qb_nrules; i++) {
		cli_json_begin_object(&j);
		cli_json_key(&j, "id");
		cli_json_string(&j, qb_rules[i].id);
		cli_json_key(&j, "severity");
		cli_json_string(&j, qb_severity_name(qb_rules[i].severity));
		cli_json_key(&j, "summary");
		cli_json_string(&j, qb_rules[i].summary);
		cli_json_key(&j, "explanation");
		cli_json_string(&j, qb_rules[i].explanation);
		cli_json_end_object(&j);
	}
	cli_json_end_array(&j);
	cli_json_finish(&j);
}

static const struct {
	const char *name;
	void (*write)(void);
} rule_formats[] = {
	{ "json", rules_json },
	{ "markdown", rules_markdown },
	{ "text", rules_text },
};

/* Without -h, as always: qbank rules and qbank explain take --help only. */
static const struct qb_opt rules_opts[] = {
	/* name, short, argument, help, field, set, flags */
	{ "format", 0, "F", "text (default), markdown (the README's table) or json (with explanations)",
	  0, qb_opt_string, 0 },
	{ "help", 0, NULL, NULL, 0, qb_opt_help, 0 },
};

const struct qb_opts cmd_rules_opts = {
	"rules", "list every rule: id, default severity, summary",
	"qbank rules [--format text|markdown|json]", rules_opts,
	sizeof(rules_opts) / sizeof(rules_opts[0]), 15, NULL,
	"'qbank rules' takes only --format text|markdown|json", 0
};

int cmd_rules(int argc, char **argv)
{
	const char *fmt = "text";   /* the only option: the argument struct */
	size_t i;
	int first, rc;

	first = qb_opts_parse(&cmd_rules_opts, &fmt, argc, argv, &rc);
	if (first < 0)
		return rc;
	if (first < argc)
		return cli_usage_error("rules", "'qbank rules' takes only --format text|markdown|json");
	for (i = 0; i < sizeof(rule_formats) / sizeof(rule_formats[0]); i++) {
		if (strcmp(fmt, rule_formats[i].name) == 0) {
			rule_formats[i].write();
			return fflush(stdout) ? QB_EXIT_USAGE : QB_EXIT_OK;
		}
	}
	return cli_usage_error("rules", "unknown format '%s' (text, markdown, json)", fmt);
}

static const struct qb_opt explain_opts[] = {
	/* name, short, argument, help, field, set, flags */
	{ "help", 0, NULL, NULL, 0, qb_opt_help, 0 },
};

/* A word that is no option is taken for a rule id, as it always was. */
const struct qb_opts cmd_explain_opts = {
	"explain", "print the long explanation of a rule, with examples", "qbank explain RULE",
	explain_opts, sizeof(explain_opts) / sizeof(explain_opts[0]), 0, NULL,
	"unknown rule '%s'; 'qbank rules' lists them", 0
};

int cmd_explain(int argc, char **argv)
{
	const struct qb_rule *r;
	int first, rc;

	first = qb_opts_parse(&cmd_explain_opts, NULL, argc, argv, &rc);
	if (first < 0)
		return rc;
	if (argc - first != 1)
		return cli_usage_error("explain", "'qbank explain' takes one rule id");
	r = qb_rule_find(argv[first]);
	if (!r)
		return cli_usage_error("explain", "unknown rule '%s'; 'qbank rules' lists them", argv[first]);
	printf("%s (%s%s)\n%s.\n\n%s\n", r->id, qb_severity_name(r->severity),
	       r->fixed ? ", always: a read error, which no configuration or suppression changes"
			: " by default", r->summary, r->explanation);
	return QB_EXIT_OK;
}
