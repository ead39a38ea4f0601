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
	{ "diff", "what changed between two versions of a bank, question by question",
	  "qbank diff [--format text|markdown|json] [--config FILE | --no-config | --no-lint]\n"
	  "           [--disable ID,...] [--enable ID,...] OLD NEW\n"
	  "  --format F        text (default; colour on a terminal unless NO_COLOR),\n"
	  "                    markdown (a pull-request comment) or json\n"
	  "  --config FILE, --no-config, --disable, --enable   the lint run on both sides\n"
	  "  --no-lint         compare the questions only\n"
	  "OLD and NEW are each a bank file, a folder or REV:PATH read from git\n"
	  "(e.g. origin/main:bank). Exit 0: no difference; 1: different; 2: trouble.",
	  cmd_diff },
	{ "explain", "print the long explanation of a rule, with examples",
	  "qbank explain RULE", cmd_explain },
	{ "export", "write Moodle XML, a QTI 2.1 package or Pandoc Markdown",
	  "qbank export --to moodle|qti21|markdown [-o OUT] [--answers] [--forms N --seed S]\n"
	  "             [--title T] PATH...\n"
	  "  --to FORMAT        moodle, qti21 or markdown\n"
	  "  -o, --output OUT   output file (standard output when absent; required for qti21)\n"
	  "  --answers          markdown: the teacher's version (keys, rationales, explanations)\n"
	  "  --forms N          markdown: N shuffled forms A, B, ... with answer keys\n"
	  "  --seed S           markdown: the shuffling seed (same seed, same forms)\n"
	  "  --title T          markdown: the exam's title (default: the bank's title)\n"
	  "  -q, --quiet        no progress display on a terminal\n"
	  "  --config FILE, --no-config   the lint configuration, as for 'qbank lint'\n"
	  "Refuses (exit 1) a bank with error-level findings; never leaves a partial file.",
	  cmd_export },
	{ "help", "show help for a command", "qbank help [COMMAND]", cmd_help },
	{ "lint", "check banks: schema, answer keys, duplicates, coverage, item-writing flaws",
	  "qbank lint [--format gcc|json|sarif|github|junit] [--config FILE | --no-config]\n"
	  "           [--max-warnings N] [--min-explanation-coverage PCT]\n"
	  "           [--min-rationale-coverage PCT] [--disable ID,...] [--enable ID,...] PATH...\n"
	  "  --format F                    output format (default gcc)\n"
	  "  --config FILE                 read this configuration file (default: the\n"
	  "                                nearest .qbank.toml here or in a parent folder)\n"
	  "  --no-config                   read no configuration file\n"
	  "  --max-warnings N              fail when there are more than N warnings\n"
	  "  --min-explanation-coverage P  fail below P% of questions with an explanation\n"
	  "  --min-rationale-coverage P    fail below P% of options with a rationale\n"
	  "  --disable ID,...              turn rules off (ids or globs such as cue-*)\n"
	  "  --enable ID,...               turn rules on at their default severity\n"
	  "  -q, --quiet                   no progress display on a terminal\n"
	  "PATH is a bank file or a folder (every *.xml below it). Exit 0: no errors;\n"
	  "1: findings fail the run; 2: usage, configuration or I/O error.",
	  cmd_lint },
	{ "new", "write a commented starter bank with one question of each type",
	  "qbank new [--schema-location URI] FILE\n"
	  "  --schema-location URI  the xsi:noNamespaceSchemaLocation editors follow (default:\n"
	  "                         schema/qbank.xsd found upward, else the installed schema)\n"
	  "Never overwrites FILE (exit 2 when it exists); FILE - writes to standard output.",
	  cmd_new },
	{ "rules", "list every rule: id, default severity, summary",
	  "qbank rules [--format text|markdown|json]\n"
	  "  --format F   text (default), markdown (the README's table) or json (with explanations)",
	  cmd_rules },
	{ "stats", "count questions by type, category and tag; points, coverage, key positions",
	  "qbank stats [--format table|json] [-q] PATH...\n"
	  "  --format F   table (default) or json\n"
	  "  -q, --quiet  no progress display on a terminal\n"
	  "Exit 1 when part of the bank could not be read (the figures leave it out).",
	  cmd_stats },
};

const size_t qb_ncommands = sizeof(qb_commands) / sizeof(qb_commands[0]);

static int cmp_command(const void *key, const void *elem)
{
	return strcmp(key, ((const struct qb_command *)elem)->name);
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

static void print_help(FILE *out)
{
	size_t i;

	fputs("qbank " QB_VERSION " - exam question bank linter and exporter\n\n"
	      "Usage: qbank COMMAND [OPTIONS] PATH...\n\nCommands:\n", out);
	for (i = 0; i < qb_ncommands; i++)
		fprintf(out, "  %-9s %s\n", qb_commands[i].name, qb_commands[i].summary);
	fputs("\nOptions:\n  -h, --help     show this help\n  -V, --version  show the version\n"
	      "\nRun 'qbank help COMMAND' for a command's options.\n", out);
}

int cmd_help(int argc, char **argv)
{
	const struct qb_command *c;

	if (argc < 2) {
		print_help(stdout);
		return QB_EXIT_OK;
	}
	c = qb_command_find(argv[1]);
	if (!c)
		return cli_usage_error(NULL, "unknown command '%s'", argv[1]);
	printf("%s - %s\n\nUsage: %s\n", c->name, c->summary, c->usage);
	return QB_EXIT_OK;
}
