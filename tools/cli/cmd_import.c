#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "../lib/import.h"
#include "cli.h"
#include "format.h"
#include "json_writer.h"

/* What the options of qbank import set. */
struct import_args {
	const char *from;
	const char *out;
	const char *format;     /* gcc or json */
	const char *media;
};

static int set_from(void *field, const char *arg, const struct qb_opts *o)
{
	if (!qb_import_known(arg))
		return cli_usage_error(o->name, "unknown source format '%s' (%s)", arg,
				       qb_import_names());
	*(const char **)field = arg;
	return 0;
}

static int set_format(void *field, const char *arg, const struct qb_opts *o)
{
	if (strcmp(arg, "gcc") != 0 && strcmp(arg, "json") != 0)
		return cli_usage_error(o->name, "unknown format '%s' (gcc, json)", arg);
	*(const char **)field = arg;
	return 0;
}

#define F(field) offsetof(struct import_args, field)

static const struct qb_opt import_opts[] = {
	/* name, short, argument, help, field, set, flags */
	{ "from", 0, "SRC", "the source format: moodle, gift or aiken (default:\n"
	  "recognised from each file's content)", F(from), set_from, 0 },
	{ "output", 'o', "OUT.xml", "write the bank here (default: standard output)", F(out),
	  qb_opt_string, 0 },
	{ "format", 0, "F", "diagnostics as gcc lines (default) or json", F(format), set_format, 0 },
	{ "media", 0, "DIR", "write embedded images here (default: OUT without .xml,\n"
	  "then -media)", F(media), qb_opt_string, 0 },
	{ "help", 'h', NULL, NULL, 0, qb_opt_help, 0 },
};

const struct qb_opts cmd_import_opts = {
	"import", "bring Moodle XML, GIFT and Aiken questions into a bank",
	"qbank import [--from moodle|gift|aiken] [-o OUT.xml] [--media DIR] [--format gcc|json]\n"
	"             FILE...",
	import_opts, sizeof(import_opts) / sizeof(import_opts[0]), 24,
	"The bank is written atomically, formatted, the same bytes on every run. What\n"
	"is left out or changed is reported with its line: on standard output with\n"
	"-o, else on standard error. Exit 0: every question imported as it was;\n"
	"1: something was left out or changed; 2: usage or I/O error.",
	"unknown or incomplete option '%s'", 0
};

static void write_gcc(FILE *out, const struct qb_diags *d, const struct qb_import_stats *st)
{
	size_t i;

	for (i = 0; i < d->n; i++) {
		const struct qb_diag *x = &d->v[i];

		if (x->line)
			fprintf(out, "%s:%lu: ", x->file, x->line);
		else
			fprintf(out, "%s: ", x->file);
		fprintf(out, "%s: %s [%s]\n", qb_severity_name(x->severity), x->message, x->rule);
	}
	fprintf(out, "%zu %s, %zu %s imported: %zu %s, %zu %s\n", st->files,
		st->files == 1 ? "file" : "files", st->questions,
		st->questions == 1 ? "question" : "questions", d->count[QB_SEV_ERROR],
		d->count[QB_SEV_ERROR] == 1 ? "error" : "errors", d->count[QB_SEV_WARNING],
		d->count[QB_SEV_WARNING] == 1 ? "warning" : "warnings");
}

static void write_json(FILE *out, const struct qb_diags *d, const struct qb_import_stats *st)
{
	struct cli_json j;

	cli_json_init(&j, out);
	cli_json_begin_object(&j);
	cli_json_key(&j, "version");
	cli_json_uint(&j, 1);
	cli_json_key(&j, "files");
	cli_json_uint(&j, st->files);
	cli_json_key(&j, "questions");
	cli_json_uint(&j, st->questions);
	fmt_json_counts(&j, d);
	fmt_json_diags(&j, d);
	cli_json_end_object(&j);
	cli_json_finish(&j);
}

int cmd_import(int argc, char **argv)
{
	struct import_args a = { NULL, NULL, "gcc", NULL };
	struct qb_import_opts io;
	struct qb_import_stats st;
	struct qb_diags diags;
	struct qb_error err = { 0, "" };
	FILE *rep;
	int first, rc = QB_EXIT_USAGE;

	memset(&diags, 0, sizeof(diags));
	first = qb_opts_parse(&cmd_import_opts, &a, argc, argv, &rc);
	if (first < 0)
		return rc;
	if (first >= argc)
		return cli_usage_error("import", "no FILE given: name Moodle XML, GIFT or Aiken files");
	io.from = a.from;
	io.out = a.out && strcmp(a.out, "-") != 0 ? a.out : NULL;
	io.media = a.media;
	if (qb_import_run(&io, (const char *const *)argv + first, (size_t)(argc - first), &diags,
			  &st, &err)) {
		cli_error("%s", err.msg[0] ? err.msg : qb_error_str(err.code));
		qb_diags_dispose(&diags);
		return QB_EXIT_USAGE;
	}
	qb_diags_sort(&diags);
	rep = io.out ? stdout : stderr;
	if (strcmp(a.format, "json") == 0)
		write_json(rep, &diags, &st);
	else
		write_gcc(rep, &diags, &st);
	if (fflush(rep) != 0) {
		cli_error("cannot write the report: %s", strerror(errno));
		rc = QB_EXIT_USAGE;
	} else {
		rc = diags.n ? QB_EXIT_FINDINGS : QB_EXIT_OK;
	}
	qb_diags_dispose(&diags);
	return rc;
}
