#include <stdio.h>
#include <string.h>

#include "../lib/rules.h"
#include "cli.h"

int cmd_rules(int argc, char **argv)
{
	size_t i;

	(void)argv;
	if (argc > 1)
		return cli_usage_error("rules", "'qbank rules' takes no arguments");
	for (i = 0; i < qb_nrules; i++)
		printf("%-28s %-8s %s\n", qb_rules[i].id, qb_severity_name(qb_rules[i].severity),
		       qb_rules[i].summary);
	return QB_EXIT_OK;
}

int cmd_explain(int argc, char **argv)
{
	const struct qb_rule *r;

	if (argc != 2)
		return cli_usage_error("explain", "'qbank explain' takes one rule id");
	r = qb_rule_find(argv[1]);
	if (!r)
		return cli_usage_error("explain", "unknown rule '%s'; 'qbank rules' lists them", argv[1]);
	printf("%s (%s by default)\n%s.\n\n%s\n", r->id, qb_severity_name(r->severity), r->summary,
	       r->explanation);
	return QB_EXIT_OK;
}
