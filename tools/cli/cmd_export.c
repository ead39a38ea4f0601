#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/export.h"
#include "../lib/lint.h"
#include "../lib/paths.h"
#include "cli.h"
#include "cli_common.h"
#include "progress.h"

enum { OPT_TO = 256, OPT_ANSWERS, OPT_FORMS, OPT_SEED, OPT_TITLE, OPT_CONFIG, OPT_NO_CONFIG };

static const struct option export_options[] = {
	{ "to", required_argument, NULL, OPT_TO },
	{ "output", required_argument, NULL, 'o' },
	{ "answers", no_argument, NULL, OPT_ANSWERS },
	{ "forms", required_argument, NULL, OPT_FORMS },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "title", required_argument, NULL, OPT_TITLE },
	{ "config", required_argument, NULL, OPT_CONFIG },
	{ "no-config", no_argument, NULL, OPT_NO_CONFIG },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static int parse_ulong(unsigned long *out, const char *arg, unsigned long max)
{
	char *end;
	unsigned long v;

	if (!arg[0] || arg[0] == '-')
		return -1;
	errno = 0;
	v = strtoul(arg, &end, 10);
	if (errno || *end || v > max)
		return -1;
	*out = v;
	return 0;
}

/* Prints the error-level findings that refused the export, gcc style. */
static void print_errors(const struct qb_diags *d)
{
	size_t i;

	for (i = 0; i < d->n; i++) {
		const struct qb_diag *x = &d->v[i];

		if (x->severity != QB_SEV_ERROR)
			continue;
		if (x->line)
			fprintf(stderr, "%s:%lu: error: %s [%s]\n", x->file, x->line, x->message, x->rule);
		else
			fprintf(stderr, "%s: error: %s [%s]\n", x->file[0] ? x->file : "qbank",
				x->message, x->rule);
	}
}

int cmd_export(int argc, char **argv)
{
	const struct qb_exporter *x = NULL;
	struct qb_export_opts o;
	struct cli_lint_setup setup;
	struct qb_paths paths = { NULL, 0 };
	struct qb_error err = { 0, "" };
	struct qb_lint *l = NULL;
	struct cli_progress prog;
	unsigned long v;
	int c, quiet = 0, rc = QB_EXIT_USAGE;

	memset(&o, 0, sizeof(o));
	if (cli_lint_setup_init(&setup))
		return QB_EXIT_USAGE;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "hqo:", export_options, NULL)) != -1) {
		switch (c) {
		case OPT_TO:
			x = qb_exporter_find(optarg);
			if (!x) {
				rc = cli_usage_error("export", "unknown target '%s' (moodle, qti21, markdown)", optarg);
				goto done;
			}
			break;
		case 'o':
			o.output = optarg;
			break;
		case OPT_ANSWERS:
			o.answers = 1;
			break;
		case OPT_FORMS:
			if (parse_ulong(&v, optarg, 26) || v < 1) {
				rc = cli_usage_error("export", "--forms takes a number from 1 to 26, not '%s'", optarg);
				goto done;
			}
			o.forms = (int)v;
			break;
		case OPT_SEED:
			if (parse_ulong(&v, optarg, 0xffffffffUL)) {
				rc = cli_usage_error("export", "--seed takes a whole number from 0 to 4294967295, not '%s'", optarg);
				goto done;
			}
			o.seed = v;
			o.has_seed = 1;
			break;
		case OPT_TITLE:
			o.title = optarg;
			break;
		case OPT_CONFIG:
			if (cli_lint_setup_option(&setup, "config", optarg, "export"))
				goto done;
			break;
		case OPT_NO_CONFIG:
			cli_lint_setup_option(&setup, "no-config", NULL, "export");
			break;
		case 'q':
			quiet = 1;
			break;
		case 'h':
			rc = cmd_help(2, (char *[]){ "help", "export", NULL });
			goto done;
		default:
			rc = cli_usage_error("export", "unknown or incomplete option '%s'", argv[optind - 1]);
			goto done;
		}
	}
	if (!x) {
		rc = cli_usage_error("export", "--to is required (moodle, qti21 or markdown)");
		goto done;
	}
	if (optind >= argc) {
		rc = cli_usage_error("export", "no PATH given: name bank files or folders");
		goto done;
	}
	if (strcmp(x->name, "markdown") != 0 && (o.answers || o.forms || o.has_seed || o.title)) {
		rc = cli_usage_error("export", "--answers, --forms, --seed and --title apply to --to markdown only");
		goto done;
	}
	if (o.forms && !o.has_seed) {
		rc = cli_usage_error("export", "--forms needs --seed S so that the forms can be made again");
		goto done;
	}
	if (cli_lint_setup_open(&setup, "export", argv + optind, (size_t)(argc - optind), &paths, &l))
		goto done;
	cli_progress_init(&prog, quiet);
	o.progress = cli_progress_update;
	o.progress_ctx = &prog;
	rc = qb_export_run(x, &o, l, (const char *const *)paths.v, paths.n, &err);
	cli_progress_done(&prog);
	if (rc == QB_EREFUSED) {
		print_errors(qb_lint_diags(l));
		cli_error("%s", err.msg);
		rc = QB_EXIT_FINDINGS;
	} else if (rc) {
		cli_error("%s", err.msg[0] ? err.msg : qb_error_str(rc));
		rc = QB_EXIT_USAGE;
	}
done:
	qb_lint_free(l);
	qb_paths_dispose(&paths);
	cli_lint_setup_dispose(&setup);
	return rc;
}
