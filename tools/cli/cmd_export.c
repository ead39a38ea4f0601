#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/export.h"
#include "../lib/lint.h"
#include "../lib/paths.h"
#include "cli.h"
#include "cli_common.h"
#include "progress.h"

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

/* What the options of qbank export set. */
struct export_args {
	struct cli_lint_setup setup;
	const struct qb_exporter *x;
	struct qb_export_opts o;
	int quiet;
};

static int set_target(void *field, const char *arg, const struct qb_opts *o)
{
	const struct qb_exporter **x = field;

	*x = qb_exporter_find(arg);
	if (!*x)
		return cli_usage_error(o->name, "unknown target '%s' (canvas, docx, gift, html, markdown, moodle, pdf, qti21, qti30)", arg);
	return 0;
}

static int set_forms(void *field, const char *arg, const struct qb_opts *o)
{
	struct qb_export_opts *eo = field;
	unsigned long v;

	if (parse_ulong(&v, arg, 26) || v < 1)
		return cli_usage_error(o->name, "--forms takes a number from 1 to 26, not '%s'", arg);
	eo->forms = (int)v;
	return 0;
}

static int set_seed(void *field, const char *arg, const struct qb_opts *o)
{
	struct qb_export_opts *eo = field;
	unsigned long v;

	if (parse_ulong(&v, arg, 0xffffffffUL))
		return cli_usage_error(o->name, "--seed takes a whole number from 0 to 4294967295, not '%s'",
				       arg);
	eo->seed = v;
	eo->has_seed = 1;
	return 0;
}

/* The targets that print an exam (the Markdown exporter's options). */
static int printable(const char *name)
{
	return strcmp(name, "markdown") == 0 || strcmp(name, "pdf") == 0 || strcmp(name, "docx") == 0;
}

#define F(field) offsetof(struct export_args, field)

static const struct qb_opt export_opts[] = {
	/* name, short, argument, help, field, set, flags */
	{ "to", 0, "FORMAT", "canvas, docx, gift, html, markdown, moodle, pdf, qti21 or qti30", F(x), set_target, 0 },
	{ "output", 'o', "OUT", "output file (standard output when absent; required for canvas, qti21, qti30, pdf, docx)",
	  F(o.output), qb_opt_string, 0 },
	{ "answers", 0, NULL, "print: the teacher's version; html: open in teacher view",
	  F(o.answers), qb_opt_flag, 0 },
	{ "no-findings", 0, NULL, "html: leave the lint's findings out of the page", F(o.no_findings),
	  qb_opt_flag, 0 },
	{ "forms", 0, "N", "print: N shuffled forms A, B, ... with answer keys", F(o), set_forms, 0 },
	{ "seed", 0, "S", "print: the shuffling seed (same seed, same forms)", F(o), set_seed, 0 },
	{ "title", 0, "T", "print: the exam's title (default: the bank's title)", F(o.title),
	  qb_opt_string, 0 },
	{ "course", 0, "TEXT", "print: the course, under the title", F(o.course), qb_opt_string, 0 },
	{ "date", 0, "TEXT", "print: the exam's date, under the title", F(o.date), qb_opt_string, 0 },
	{ "duration", 0, "TEXT", "print: the time allowed, e.g. \"90 minutes\"", F(o.duration),
	  qb_opt_string, 0 },
	{ "instructions", 0, "FILE", "print: the instructions (Markdown) instead of the bank's description",
	  F(o.instructions), qb_opt_string, 0 },
	{ "labels", 0, "FILE", "print: the printed words (\"key: text\" lines; default: the bank's xml:lang)",
	  F(o.labels), qb_opt_string, 0 },
	{ "quiet", 'q', NULL, "no progress display on a terminal", F(quiet), qb_opt_flag, 0 },
	{ "config", 0, "FILE", "the lint configuration, as for 'qbank lint'", F(setup.config_path),
	  qb_opt_string, 0 },
	{ "no-config", 0, NULL, NULL, F(setup.no_config), qb_opt_flag, QB_OPT_JOIN },
	{ "help", 'h', NULL, NULL, 0, qb_opt_help, 0 },
};

const struct qb_opts cmd_export_opts = {
	"export", "write Moodle XML, GIFT, a QTI 2.1, QTI 3.0 or Canvas package, Pandoc Markdown, an HTML page, or a printed exam as PDF or DOCX",
	"qbank export --to moodle|gift|qti21|qti30|canvas|markdown|html|pdf|docx [-o OUT] [--answers]\n"
	"             [--no-findings] [--forms N --seed S] [--title T] [--course C] [--date D]\n"
	"             [--duration T] [--instructions FILE] [--labels FILE] PATH...",
	export_opts, sizeof(export_opts) / sizeof(export_opts[0]), 23,
	"Refuses (exit 1) a bank with error-level findings; never leaves a partial file.",
	"unknown or incomplete option '%s'", 0
};

int cmd_export(int argc, char **argv)
{
	struct export_args a;
	struct qb_paths paths = { NULL, 0 };
	struct qb_error err = { 0, "" };
	struct qb_lint *l = NULL;
	struct cli_progress prog;
	int first, rc = QB_EXIT_USAGE;

	memset(&a, 0, sizeof(a));
	if (cli_lint_setup_init(&a.setup))
		return QB_EXIT_USAGE;
	first = qb_opts_parse(&cmd_export_opts, &a, argc, argv, &rc);
	if (first < 0)
		goto done;
	if (!a.x) {
		rc = cli_usage_error("export", "--to is required (canvas, docx, gift, html, markdown, moodle, pdf, qti21 or qti30)");
		goto done;
	}
	if (first >= argc) {
		rc = cli_usage_error("export", "no PATH given: name bank files or folders");
		goto done;
	}
	if (!printable(a.x->name) && (a.o.forms || a.o.has_seed || a.o.title || a.o.course ||
				      a.o.date || a.o.duration || a.o.instructions || a.o.labels ||
				      (a.o.answers && strcmp(a.x->name, "html") != 0))) {
		rc = cli_usage_error("export", "--forms, --seed, --title and the header options apply to "
				     "--to markdown, pdf and docx only, --answers to those and html");
		goto done;
	}
	if (a.o.no_findings && strcmp(a.x->name, "html") != 0) {
		rc = cli_usage_error("export", "--no-findings applies to --to html only");
		goto done;
	}
	if (a.o.forms && !a.o.has_seed) {
		rc = cli_usage_error("export", "--forms needs --seed S so that the forms can be made again");
		goto done;
	}
	if (cli_lint_setup_open(&a.setup, "export", argv + first, (size_t)(argc - first), &paths, &l))
		goto done;
	cli_progress_init(&prog, a.quiet);
	a.o.progress = cli_progress_update;
	a.o.progress_ctx = &prog;
	rc = qb_export_run(a.x, &a.o, l, (const char *const *)paths.v, paths.n, &err);
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
	cli_lint_setup_dispose(&a.setup);
	return rc;
}
