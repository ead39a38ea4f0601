#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/version.h"
#include "cli.h"

/* Keep this table sorted by name: qb_command_find() searches it and a unit
 * test checks the order. The rows also produce `qbank --help`. */
const struct qb_command qb_commands[] = {
	{ &cmd_diff_opts, cmd_diff },
	{ &cmd_explain_opts, cmd_explain },
	{ &cmd_export_opts, cmd_export },
	{ &cmd_help_opts, cmd_help },
	{ &cmd_import_opts, cmd_import },
	{ &cmd_lint_opts, cmd_lint },
	{ &cmd_new_opts, cmd_new },
	{ &cmd_rules_opts, cmd_rules },
	{ &cmd_stats_opts, cmd_stats },
};

const size_t qb_ncommands = sizeof(qb_commands) / sizeof(qb_commands[0]);

static int cmp_command(const void *key, const void *elem)
{
	return strcmp(key, ((const struct qb_command *)elem)->opts->name);
}

const struct qb_command *qb_command_find(const char *name)
{
	return bsearch(name, qb_commands, qb_ncommands, sizeof(qb_commands[0]), cmp_command);
}

void cli_error(const char *fmt, ...)
{
	va_list ap;

	fputs("qbank: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fputs("qbank: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (cmd)
		fprintf(stderr, " (try 'qbank help %s')\n", cmd);
	else
		fputs(" (try 'qbank --help')\n", stderr);
	return QB_EXIT_USAGE;
}

int cli_use_color(FILE *f)
{
	const char *nc = getenv("NO_COLOR");

	if (nc && *nc)
		return 0;
	return isatty(fileno(f));
}

/* ---- qbank --help, qbank --version, qbank help [COMMAND] ----------------- */

static void print_help(FILE *out)
{
	size_t i;

	fprintf(out, "qbank %s - exam question bank linter and exporter\n\nUsage: %s\n\nCommands:\n",
		QB_VERSION, qb_top_opts.synopsis);
	for (i = 0; i < qb_ncommands; i++)
		fprintf(out, "  %-9s %s\n", qb_commands[i].opts->name, qb_commands[i].opts->summary);
	fputs("\nOptions:\n", out);
	qb_opts_print(out, &qb_top_opts);
	fputs("\nRun 'qbank help COMMAND' for a command's options.\n", out);
}

static int top_help(void *field, const char *arg, const struct qb_opts *o)
{
	(void)field;
	(void)arg;
	(void)o;
	print_help(stdout);
	return QB_OPTS_DONE;
}

static int top_version(void *field, const char *arg, const struct qb_opts *o)
{
	(void)field;
	(void)arg;
	(void)o;
	printf("qbank %s\n", QB_VERSION);
	return QB_OPTS_DONE;
}

static const struct qb_opt top_opts[] = {
	/* name, short, argument, help, field, set, flags */
	{ "help", 'h', NULL, "show this help", 0, top_help, 0 },
	{ "version", 'V', NULL, "show the version", 0, top_version, 0 },
};

const struct qb_opts qb_top_opts = {
	NULL, NULL, "qbank COMMAND [OPTIONS] PATH...", top_opts,
	sizeof(top_opts) / sizeof(top_opts[0]), 17, NULL, "unknown option '%s'", QB_OPTS_IN_ORDER
};

/* qbank help [COMMAND]: no options; a word that looks like one is taken
 * for a command, as it always was. */
const struct qb_opts cmd_help_opts = {
	"help", "show help for a command", "qbank help [COMMAND]", NULL, 0, 0, NULL,
	"unknown command '%s'", QB_OPTS_IN_ORDER | QB_OPTS_HINT_TOP
};

int cmd_help(int argc, char **argv)
{
	const struct qb_command *c;
	int i, rc;

	i = qb_opts_parse(&cmd_help_opts, NULL, argc, argv, &rc);
	if (i < 0)
		return rc;
	if (i >= argc) {
		print_help(stdout);
		return QB_EXIT_OK;
	}
	c = qb_command_find(argv[i]);
	if (!c)
		return cli_usage_error(NULL, "unknown command '%s'", argv[i]);
	qb_opts_help(stdout, c->opts);
	return QB_EXIT_OK;
}
