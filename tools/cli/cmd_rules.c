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

int cmd_rules(int argc, char **argv)
{
	const char *fmt = "text";
	size_t i;

	if (argc == 2 && strcmp(argv[1], "--help") == 0)
		return cmd_help(2, (char *[]){ "help", "rules", NULL });
	if (argc == 3 && strcmp(argv[1], "--format") == 0)
		fmt = argv[2];
	else if (argc == 2 && strncmp(argv[1], "--format=", 9) == 0)
		fmt = argv[1] + 9;
	else if (argc > 1)
		return cli_usage_error("rules", "'qbank rules' takes only --format text|markdown|json");
	for (i = 0; i < sizeof(rule_formats) / sizeof(rule_formats[0]); i++) {
		if (strcmp(fmt, rule_formats[i].name) == 0) {
			rule_formats[i].write();
			return fflush(stdout) ? QB_EXIT_USAGE : QB_EXIT_OK;
		}
	}
	return cli_usage_error("rules", "unknown format '%s' (text, markdown, json)", fmt);
}

int cmd_explain(int argc, char **argv)
{
	const struct qb_rule *r;

	if (argc == 2 && strcmp(argv[1], "--help") == 0)
		return cmd_help(2, (char *[]){ "help", "explain", NULL });
	if (argc != 2)
		return cli_usage_error("explain", "'qbank explain' takes one rule id");
	r = qb_rule_find(argv[1]);
	if (!r)
		return cli_usage_error("explain", "unknown rule '%s'; 'qbank rules' lists them", argv[1]);
	printf("%s (%s by default)\n%s.\n\n%s\n", r->id, qb_severity_name(r->severity), r->summary,
	       r->explanation);
	return QB_EXIT_OK;
}
