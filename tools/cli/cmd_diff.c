/* qbank diff OLD NEW: what changed between two versions of a bank. Exit
 * status as diff(1)'s: 0 no difference, 1 different, 2 trouble. */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "../lib/diff.h"
#include "cli.h"
#include "cli_common.h"
#include "fmt_diff.h"

/* What the options of qbank diff set. */
struct diff_args {
	struct cli_lint_setup setup;   /* the lint run on both sides */
	const struct qb_diff_format *fmt;
	int no_lint;
};

static int set_format(void *field, const char *arg, const struct qb_opts *o)
{
	const struct qb_diff_format **fmt = field;

	*fmt = qb_diff_format_find(arg);
	if (!*fmt)
		return cli_usage_error(o->name, "unknown format '%s' (text, markdown, json)", arg);
	return 0;
}

#define F(field) offsetof(struct diff_args, field)

static const struct qb_opt diff_opts[] = {
	/* name, short, argument, help, field, set, flags */
	{ "format", 0, "F", "text (default; colour on a terminal unless NO_COLOR),\n"
	  "markdown (a pull-request comment) or json", F(fmt), set_format, 0 },
	{ "config", 0, "FILE", "the lint run on both sides, as for 'qbank lint'",
	  F(setup.config_path), qb_opt_string, 0 },
	{ "no-config", 0, NULL, NULL, F(setup.no_config), qb_opt_flag, QB_OPT_JOIN },
	{ "disable", 0, "ID,...", "turn rules off in that lint (ids or globs such as cue-*)", F(setup),
	  cli_opt_disable, 0 },
	{ "enable", 0, "ID,...", "turn rules on at their default severity", F(setup),
	  cli_opt_enable, 0 },
	{ "no-lint", 0, NULL, "compare the questions only", F(no_lint), qb_opt_flag, 0 },
	{ "help", 'h', NULL, NULL, 0, qb_opt_help, 0 },
};

const struct qb_opts cmd_diff_opts = {
	"diff", "what changed between two versions of a bank, question by question",
	"qbank diff [--format text|markdown|json] [--config FILE | --no-config | --no-lint]\n"
	"           [--disable ID,...] [--enable ID,...] OLD NEW",
	diff_opts, sizeof(diff_opts) / sizeof(diff_opts[0]), 20,
	"OLD and NEW are each a bank file, a folder or REV:PATH read from git\n"
	"(e.g. origin/main:bank). Exit 0: no difference; 1: different; 2: trouble.",
	"unknown or incomplete option '%s'", 0
};

int cmd_diff(int argc, char **argv)
{
	struct diff_args a;
	struct qb_diff_opts opts;
	struct qb_diff_report *rep = NULL;
	struct qb_error err = { 0, "" };
	int first, rc = QB_EXIT_USAGE;

	a.fmt = qb_diff_format_find("text");
	a.no_lint = 0;
	if (cli_lint_setup_init(&a.setup))
		return QB_EXIT_USAGE;
	first = qb_opts_parse(&cmd_diff_opts, &a, argc, argv, &rc);
	if (first < 0)
		goto done;
	if (argc - first != 2) {
		rc = cli_usage_error("diff", "give two banks, OLD and NEW (a file, a folder or REV:PATH)");
		goto done;
	}
	if (!a.no_lint && cli_lint_setup_finish(&a.setup, "diff"))
		goto done;
	opts.cfg = a.no_lint ? NULL : a.setup.cfg;
	if (qb_diff_run(&rep, argv[first], argv[first + 1], &opts, &err)) {
		cli_error("%s", err.msg[0] ? err.msg : qb_error_str(err.code));
		goto done;
	}
	if (a.fmt->write(stdout, rep, cli_use_color(stdout)) != 0 || fflush(stdout) != 0) {
		cli_error("cannot write the report to standard output: %s", strerror(errno));
		goto done;
	}
	rc = qb_diff_differs(rep) ? QB_EXIT_FINDINGS : QB_EXIT_OK;
done:
	qb_diff_report_free(rep);
	cli_lint_setup_dispose(&a.setup);
	return rc;
}
