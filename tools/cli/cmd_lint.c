#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/config.h"
#include "../lib/lint.h"
#include "../lib/paths.h"
#include "../lib/run.h"
#include "cli.h"
#include "cli_common.h"
#include "progress.h"

enum {
	OPT_FORMAT = 256, OPT_CONFIG, OPT_NO_CONFIG, OPT_MAX_WARNINGS, OPT_MIN_EXPL,
	OPT_MIN_RAT, OPT_DISABLE, OPT_ENABLE
};

static const struct option lint_options[] = {
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "config", required_argument, NULL, OPT_CONFIG },
	{ "no-config", no_argument, NULL, OPT_NO_CONFIG },
	{ "max-warnings", required_argument, NULL, OPT_MAX_WARNINGS },
	{ "min-explanation-coverage", required_argument, NULL, OPT_MIN_EXPL },
	{ "min-rationale-coverage", required_argument, NULL, OPT_MIN_RAT },
	{ "disable", required_argument, NULL, OPT_DISABLE },
	{ "enable", required_argument, NULL, OPT_ENABLE },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

int cmd_lint(int argc, char **argv)
{
	const struct qb_format *fmt = qb_format_find("gcc");
	struct cli_lint_setup setup;
	struct qb_paths paths = { NULL, 0 };
	struct qb_error err = { 0, "" };
	struct qb_lint *l = NULL;
	struct qb_report rep;
	struct cli_progress prog;
	struct qb_run_hooks hooks = { &prog, NULL, NULL, cli_progress_update, QB_RUN_LIGHT };
	int c, quiet = 0, rc = QB_EXIT_USAGE;

	if (cli_lint_setup_init(&setup))
		return QB_EXIT_USAGE;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "hq", lint_options, NULL)) != -1) {
		if (c == OPT_FORMAT) {
			fmt = qb_format_find(optarg);
			if (!fmt) {
				rc = cli_usage_error("lint", "unknown format '%s' (gcc, json, sarif, github, junit)", optarg);
				goto done;
			}
		} else if (c == 'q') {
			quiet = 1;
		} else if (c == 'h') {
			rc = cmd_help(2, (char *[]){ "help", "lint", NULL });
			goto done;
		} else if (c == '?' || c == ':') {
			rc = cli_usage_error("lint", "unknown or incomplete option '%s'", argv[optind - 1]);
			goto done;
		} else if (cli_lint_setup_option(&setup, c == OPT_CONFIG ? "config"
						 : c == OPT_NO_CONFIG ? "no-config"
						 : c == OPT_MAX_WARNINGS ? "max-warnings"
						 : c == OPT_MIN_EXPL ? "min-explanation-coverage"
						 : c == OPT_MIN_RAT ? "min-rationale-coverage"
						 : c == OPT_DISABLE ? "disable" : "enable", optarg, "lint")) {
			goto done;
		}
	}
	if (optind >= argc) {
		rc = cli_usage_error("lint", "no PATH given: name bank files or folders");
		goto done;
	}
	if (cli_lint_setup_open(&setup, "lint", argv + optind, (size_t)(argc - optind), &paths, &l))
		goto done;
	cli_progress_init(&prog, quiet);
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
	if (fmt->write(stdout, &rep) != 0 || fflush(stdout) != 0) {
		cli_error("cannot write the report to standard output: %s", strerror(errno));
		goto done;
	}
	rc = qb_lint_failed(l) ? QB_EXIT_FINDINGS : QB_EXIT_OK;
done:
	qb_lint_free(l);
	qb_paths_dispose(&paths);
	cli_lint_setup_dispose(&setup);
	return rc;
}
