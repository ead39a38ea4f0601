#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/config.h"
#include "../lib/core/buf.h"
#include "../lib/export.h"
#include "../lib/lint.h"
#include "../lib/paths.h"
#include "../lib/run.h"
#include "cli.h"
#include "cli_common.h"
#include "format.h"
#include "progress.h"

/* What the options of qbank lint set. */
struct lint_args {
	struct cli_lint_setup setup;
	const struct qb_format *fmt;
	int quiet;
	/* --target: the exporters whose checks run (default: every one) */
	const struct qb_exporter *targets[16];
	size_t ntargets;
	int targets_set;
};

/* --target NAME,...|none: the exporter table's names (export.h); the
 * linter sees only the exporters' check functions (exporter.h). */
static int set_targets(void *field, const char *arg, const struct qb_opts *o)
{
	struct lint_args *a = field;
	const char *p = arg;

	a->targets_set = 1;
	a->ntargets = 0;
	if (strcmp(arg, "none") == 0)
		return 0;
	while (*p) {
		size_t n = strcspn(p, ",");
		char name[32];
		const struct qb_exporter *x = NULL;
		size_t i;

		if (n > 0 && n < sizeof(name)) {
			memcpy(name, p, n);
			name[n] = '\0';
			x = qb_exporter_find(name);
		}
		if (!x) {
			struct qb_buf names = QB_BUF_INIT;
			int rc;

			for (i = 0; i < qb_nexporters; i++)
				(void)qb_buf_printf(&names, "%s%s", i ? ", " : "", qb_exporters[i].name);
			rc = cli_usage_error(o->name, "unknown target '%.*s' (%s, or none)", (int)n, p,
					     names.ptr ? names.ptr : "");
			qb_buf_dispose(&names);
			return rc;
		}
		for (i = 0; i < a->ntargets && a->targets[i] != x; i++)
			;
		if (i == a->ntargets && a->ntargets < sizeof(a->targets) / sizeof(a->targets[0]))
			a->targets[a->ntargets++] = x;
		p += n;
		if (*p == ',')
			p++;
	}
	return 0;
}

static int set_format(void *field, const char *arg, const struct qb_opts *o)
{
	const struct qb_format **fmt = field;

	*fmt = qb_format_find(arg);
	if (!*fmt)
		return cli_usage_error(o->name, "unknown format '%s' (gcc, json, sarif, github, junit)", arg);
	return 0;
}

#define F(field) offsetof(struct lint_args, field)

static const struct qb_opt lint_opts[] = {
	/* name, short, argument, help, field, set, flags */
	{ "format", 0, "F", "output format (default gcc)", F(fmt), set_format, 0 },
	{ "config", 0, "FILE", "read this configuration file (default: the\n"
	  "nearest .qbank.toml here or in a parent folder)", F(setup.config_path), qb_opt_string, 0 },
	{ "no-config", 0, NULL, "read no configuration file", F(setup.no_config), qb_opt_flag, 0 },
	{ "max-warnings", 0, "N", "fail when there are more than N warnings", F(setup),
	  cli_opt_max_warnings, 0 },
	{ "min-explanation-coverage", 0, "P", "fail below P% of questions with an explanation",
	  F(setup), cli_opt_min_explanation, 0 },
	{ "min-rationale-coverage", 0, "P", "fail below P% of options with a rationale", F(setup),
	  cli_opt_min_rationale, 0 },
	{ "disable", 0, "ID,...", "turn rules off (ids or globs such as cue-*)", F(setup),
	  cli_opt_disable, 0 },
	{ "enable", 0, "ID,...", "turn rules on at their default severity", F(setup),
	  cli_opt_enable, 0 },
	{ "target", 0, "NAME,...", "run these exporters' checks (default: every target;\n"
	  "none: no target checks)", 0, set_targets, 0 },
	{ "quiet", 'q', NULL, "no progress display on a terminal", F(quiet), qb_opt_flag, 0 },
	{ "help", 'h', NULL, NULL, 0, qb_opt_help, 0 },
};

const struct qb_opts cmd_lint_opts = {
	"lint", "check banks: schema, answer keys, duplicates, coverage, item-writing flaws",
	"qbank lint [--format gcc|json|sarif|github|junit] [--config FILE | --no-config]\n"
	"           [--max-warnings N] [--min-explanation-coverage PCT]\n"
	"           [--min-rationale-coverage PCT] [--disable ID,...] [--enable ID,...]\n"
	"           [--target NAME,...|none] PATH...",
	lint_opts, sizeof(lint_opts) / sizeof(lint_opts[0]), 32,
	"PATH is a bank file or a folder (every *.xml below it). Exit 0: no errors;\n"
	"1: findings fail the run; 2: usage, configuration or I/O error.",
	"unknown or incomplete option '%s'", 0
};

/* Says why a run failed on warnings alone would otherwise be a mystery:
 * the limit and where it was set (the option, or which .qbank.toml). */
static void warn_limit(const struct qb_lint *l, const struct qb_diags *d)
{
	const struct qb_config *cfg = qb_lint_config(l);
	size_t n = d->count[QB_SEV_WARNING];

	if (!cfg || cfg->max_warnings < 0 || n <= (size_t)cfg->max_warnings)
		return;
	if (cfg->max_warnings_opt || !cfg->path)
		cli_error("lint failed: %zu warning%s, more than the %ld that --max-warnings allows",
			  n, n == 1 ? "" : "s", cfg->max_warnings);
	else
		cli_error("lint failed: %zu warning%s, more than the %ld that max-warnings in %s "
			  "allows", n, n == 1 ? "" : "s", cfg->max_warnings, cfg->path);
}

int cmd_lint(int argc, char **argv)
{
	struct lint_args a;
	struct qb_paths paths = { NULL, 0 };
	struct qb_error err = { 0, "" };
	struct qb_lint *l = NULL;
	struct qb_report rep;
	struct cli_progress prog;
	struct qb_run_hooks hooks = { &prog, NULL, NULL, cli_progress_update };
	int c, first, rc = QB_EXIT_USAGE;

	memset(&a, 0, sizeof(a));
	a.fmt = qb_format_find("gcc");
	if (cli_lint_setup_init(&a.setup))
		return QB_EXIT_USAGE;
	first = qb_opts_parse(&cmd_lint_opts, &a, argc, argv, &rc);
	if (first < 0)
		goto done;
	if (first >= argc) {
		rc = cli_usage_error("lint", "no PATH given: name bank files or folders");
		goto done;
	}
	if (cli_lint_setup_open(&a.setup, "lint", argv + first, (size_t)(argc - first), &paths, &l))
		goto done;
	if (!a.targets_set)
		for (a.ntargets = 0; a.ntargets < qb_nexporters &&
		     a.ntargets < sizeof(a.targets) / sizeof(a.targets[0]); a.ntargets++)
			a.targets[a.ntargets] = &qb_exporters[a.ntargets];
	if (qb_lint_set_targets(l, a.targets, a.ntargets)) {
		cli_error("too many --target options");
		goto done;
	}
	cli_progress_init(&prog, a.quiet);
	c = qb_run(l, (const char *const *)paths.v, paths.n, &hooks, &err);
	cli_progress_done(&prog);
	if (c) {
		cli_error("%s", err.msg[0] ? err.msg : qb_error_str(err.code));
		goto done;
	}
	rep.diags = qb_lint_diags(l);
	rep.stats = qb_lint_stats(l);
	rep.lint = l;
	rep.color = cli_use_color(stdout);
	if (a.fmt->write(stdout, &rep) != 0 || fflush(stdout) != 0) {
		cli_error("cannot write the report to standard output: %s", strerror(errno));
		goto done;
	}
	rc = qb_lint_failed(l) ? QB_EXIT_FINDINGS : QB_EXIT_OK;
	warn_limit(l, rep.diags);
done:
	qb_lint_free(l);
	qb_paths_dispose(&paths);
	cli_lint_setup_dispose(&a.setup);
	return rc;
}
