/* qbank diff OLD NEW: what changed between two versions of a bank. Exit
 * status as diff(1)'s: 0 no difference, 1 different, 2 trouble. */
#include <errno.h>
#include <getopt.h>
#include <string.h>

#include "../lib/diff.h"
#include "cli.h"
#include "cli_common.h"
#include "fmt_diff.h"

enum { OPT_FORMAT = 256, OPT_CONFIG, OPT_NO_CONFIG, OPT_NO_LINT, OPT_DISABLE, OPT_ENABLE };

static const struct option diff_options[] = {
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "config", required_argument, NULL, OPT_CONFIG },
	{ "no-config", no_argument, NULL, OPT_NO_CONFIG },
	{ "no-lint", no_argument, NULL, OPT_NO_LINT },
	{ "disable", required_argument, NULL, OPT_DISABLE },
	{ "enable", required_argument, NULL, OPT_ENABLE },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

int cmd_diff(int argc, char **argv)
{
	const struct qb_diff_format *fmt = qb_diff_format_find("text");
	struct cli_lint_setup setup;
	struct qb_diff_opts opts;
	struct qb_diff_report *rep = NULL;
	struct qb_error err = { 0, "" };
	int c, lint = 1, rc = QB_EXIT_USAGE;

	if (cli_lint_setup_init(&setup))
		return QB_EXIT_USAGE;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", diff_options, NULL)) != -1) {
		if (c == OPT_FORMAT) {
			fmt = qb_diff_format_find(optarg);
			if (!fmt) {
				rc = cli_usage_error("diff", "unknown format '%s' (text, markdown, json)",
						     optarg);
				goto done;
			}
		} else if (c == OPT_NO_LINT) {
			lint = 0;
		} else if (c == 'h') {
			rc = cmd_help(2, (char *[]){ "help", "diff", NULL });
			goto done;
		} else if (c == '?' || c == ':') {
			rc = cli_usage_error("diff", "unknown or incomplete option '%s'", argv[optind - 1]);
			goto done;
		} else if (cli_lint_setup_option(&setup, c == OPT_CONFIG ? "config"
						 : c == OPT_NO_CONFIG ? "no-config"
						 : c == OPT_DISABLE ? "disable" : "enable", optarg, "diff")) {
			goto done;
		}
	}
	if (argc - optind != 2) {
		rc = cli_usage_error("diff", "give two banks, OLD and NEW (a file, a folder or REV:PATH)");
		goto done;
	}
	if (lint && cli_lint_setup_finish(&setup, "diff"))
		goto done;
	opts.cfg = lint ? setup.cfg : NULL;
	if (qb_diff_run(&rep, argv[optind], argv[optind + 1], &opts, &err)) {
		cli_error("%s", err.msg[0] ? err.msg : qb_error_str(err.code));
		goto done;
	}
	if (fmt->write(stdout, rep, cli_use_color(stdout)) != 0 || fflush(stdout) != 0) {
		cli_error("cannot write the report to standard output: %s", strerror(errno));
		goto done;
	}
	rc = qb_diff_differs(rep) ? QB_EXIT_FINDINGS : QB_EXIT_OK;
done:
	qb_diff_report_free(rep);
	cli_lint_setup_dispose(&setup);
	return rc;
}
