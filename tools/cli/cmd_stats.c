/* qbank stats: what a bank holds, as a table or as JSON. The figures come
 * from tools/lib/stats.c; this file only prints them. */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/config.h"
#include "../lib/lint.h"
#include "../lib/paths.h"
#include "../lib/rules.h"
#include "../lib/run.h"
#include "../lib/stats.h"
#include "cli.h"
#include "format.h"
#include "json_writer.h"
#include "progress.h"

/* ---- table ---------------------------------------------------------- */

static void table_names(FILE *out, const char *what, const struct qb_stats_names *t,
			size_t none, const char *none_label)
{
	size_t i;

	fprintf(out, "\n%9s %9s  %s\n", "questions", "points", what);
	for (i = 0; i < t->n; i++)
		fprintf(out, "%9zu %9.15g  %s\n", t->v[i].questions, t->v[i].points, t->v[i].name);
	if (none)
		fprintf(out, "%9zu %9s  %s\n", none, "", none_label);
}

static void write_table(FILE *out, const struct qb_stats *s)
{
	char label[16];
	size_t i;

	fprintf(out, "%zu %s, %zu %s, %.15g %s\n", s->files, fmt_plural(s->files, "file", "files"),
		s->questions, fmt_plural(s->questions, "question", "questions"), s->points,
		s->points == 1 ? "point" : "points");
	fmt_coverage(out, s->explained, s->explainable, s->rationales, s->rationalizable);
	fputc('\n', out);

	fprintf(out, "\n%9s %9s  %s\n", "questions", "points", "type");
	for (i = 0; i < QB_Q_UNKNOWN; i++)
		fprintf(out, "%9zu %9.15g  %s\n", s->type_questions[i], s->type_points[i],
			qb_qtype_names[i]);
	table_names(out, "category", &s->categories, s->uncategorized, "(no category)");
	table_names(out, "tag", &s->tags, s->untagged, "(no tag)");

	fprintf(out, "\n%9s %9s  %s\n", "keys", "share", "key position (single and multiple)");
	for (i = 0; i < s->nkey_positions; i++)
		fprintf(out, "%9zu %8.0f%%  %s\n", s->key_positions[i],
			fmt_pct(s->key_positions[i], s->keys), qb_stats_position_label(label, i));
}

/* ---- JSON ----------------------------------------------------------- */

static void json_count(struct cli_json *j, const char *key, size_t questions, double points)
{
	cli_json_key(j, key);
	cli_json_begin_object(j);
	cli_json_key(j, "questions");
	cli_json_uint(j, questions);
	cli_json_key(j, "points");
	cli_json_number2(j, points);
	cli_json_end_object(j);
}

static void json_names(struct cli_json *j, const char *key, const struct qb_stats_names *t)
{
	size_t i;

	cli_json_key(j, key);
	cli_json_begin_object(j);
	for (i = 0; i < t->n; i++)
		json_count(j, t->v[i].name, t->v[i].questions, t->v[i].points);
	cli_json_end_object(j);
}

static void write_json(FILE *out, const struct qb_stats *s)
{
	struct cli_json j;
	char label[16];
	size_t i;

	cli_json_init(&j, out);
	cli_json_begin_object(&j);
	cli_json_key(&j, "version");
	cli_json_uint(&j, 1);
	cli_json_key(&j, "files");
	cli_json_uint(&j, s->files);
	cli_json_key(&j, "questions");
	cli_json_uint(&j, s->questions);
	cli_json_key(&j, "points");
	cli_json_number2(&j, s->points);
	cli_json_key(&j, "types");
	cli_json_begin_object(&j);
	for (i = 0; i < QB_Q_UNKNOWN; i++)
		json_count(&j, qb_qtype_names[i], s->type_questions[i], s->type_points[i]);
	cli_json_end_object(&j);
	json_names(&j, "categories", &s->categories);
	cli_json_key(&j, "uncategorized");
	cli_json_uint(&j, s->uncategorized);
	json_names(&j, "tags", &s->tags);
	cli_json_key(&j, "untagged");
	cli_json_uint(&j, s->untagged);
	fmt_json_coverage(&j, "explanations", "present", s->explained, s->explainable);
	fmt_json_coverage(&j, "rationales", "present", s->rationales, s->rationalizable);
	cli_json_key(&j, "keys");
	cli_json_uint(&j, s->keys);
	cli_json_key(&j, "key_positions");
	cli_json_begin_object(&j);
	for (i = 0; i < s->nkey_positions; i++) {
		cli_json_key(&j, qb_stats_position_label(label, i));
		cli_json_uint(&j, s->key_positions[i]);
	}
	cli_json_end_object(&j);
	cli_json_end_object(&j);
	cli_json_finish(&j);
}

/* ---- the command ------------------------------------------------------ */

/* The context of qb_run()'s hooks: the figures and the progress line. */
struct stats_run {
	struct qb_stats *s;
	struct cli_progress prog;
};

static int hook_bank(void *ctx, const struct qb_bank_info *b, struct qb_error *err)
{
	(void)err;
	return qb_stats_bank(((struct stats_run *)ctx)->s, b);
}

static int hook_question(void *ctx, const struct qb_question *q, struct qb_error *err)
{
	(void)err;
	return qb_stats_question(((struct stats_run *)ctx)->s, q);
}

static void hook_progress(void *ctx, unsigned long long done, unsigned long long total)
{
	cli_progress_update(&((struct stats_run *)ctx)->prog, done, total);
}

/* Findings that mean some questions could not be read, so the figures are
 * short of the truth: printed on standard error, and the run exits 1. */
static size_t report_unread(const struct qb_diags *d)
{
	size_t i, n = 0;

	for (i = 0; i < d->n; i++) {
		const struct qb_diag *x = &d->v[i];

		if (strcmp(x->rule, qb_rules[QB_RULE_XML_SYNTAX].id) != 0 &&
		    strcmp(x->rule, qb_rules[QB_RULE_XML_SCHEMA].id) != 0)
			continue;
		n++;
		if (x->line)
			fprintf(stderr, "%s:%lu: error: %s [%s]\n", x->file, x->line, x->message, x->rule);
		else
			fprintf(stderr, "%s: error: %s [%s]\n", x->file, x->message, x->rule);
	}
	return n;
}

/* What the options of qbank stats set. */
struct stats_args {
	int json;
	int quiet;
};

static int set_format(void *field, const char *arg, const struct qb_opts *o)
{
	int *json = field;

	if (strcmp(arg, "json") == 0)
		*json = 1;
	else if (strcmp(arg, "table") == 0)
		*json = 0;
	else
		return cli_usage_error(o->name, "unknown format '%s' (table or json)", arg);
	return 0;
}

static const struct qb_opt stats_opts[] = {
	/* name, short, argument, help, field, set, flags */
	{ "format", 0, "F", "table (default) or json", offsetof(struct stats_args, json), set_format, 0 },
	{ "quiet", 'q', NULL, "no progress display on a terminal", offsetof(struct stats_args, quiet),
	  qb_opt_flag, 0 },
	{ "help", 'h', NULL, NULL, 0, qb_opt_help, 0 },
};

const struct qb_opts cmd_stats_opts = {
	"stats", "count questions by type, category and tag; points, coverage, key positions",
	"qbank stats [--format table|json] [-q] PATH...",
	stats_opts, sizeof(stats_opts) / sizeof(stats_opts[0]), 15,
	"Exit 1 when part of the bank could not be read (the figures leave it out).",
	"unknown or incomplete option '%s'", 0
};

int cmd_stats(int argc, char **argv)
{
	struct stats_args a = { 0, 0 };
	struct qb_paths paths = { NULL, 0 };
	struct qb_error err = { 0, "" };
	struct qb_config *cfg = NULL;
	struct qb_lint *l = NULL;
	struct qb_stats *s = NULL;
	struct stats_run run;
	struct qb_run_hooks hooks = { &run, hook_bank, hook_question, hook_progress };
	int first, rc = QB_EXIT_USAGE;
	size_t unread;

	first = qb_opts_parse(&cmd_stats_opts, &a, argc, argv, &rc);
	if (first < 0)
		goto done;
	if (first >= argc) {
		rc = cli_usage_error("stats", "no PATH given: name bank files or folders");
		goto done;
	}
	if (qb_paths_expand(&paths, (const char *const *)argv + first, (size_t)(argc - first), &err)) {
		cli_error("%s", err.msg);
		goto done;
	}
	/* Only the reader's findings matter here: every other rule is off, and
	 * no configuration file is read. */
	if (qb_config_new(&cfg) || qb_config_set_severity(cfg, "*", QB_SEV_OFF, 0) ||
	    qb_config_set_severity(cfg, "xml-*", QB_SEV_OFF, 1) || qb_lint_new(&l, cfg, &err) ||
	    qb_stats_new(&s)) {
		cli_error("out of memory");
		goto done;
	}
	run.s = s;
	cli_progress_init(&run.prog, a.quiet);
	rc = qb_run(l, (const char *const *)paths.v, paths.n, &hooks, &err);
	cli_progress_done(&run.prog);
	if (rc) {
		cli_error("%s", err.msg[0] ? err.msg : qb_error_str(rc));
		rc = QB_EXIT_USAGE;
		goto done;
	}
	qb_stats_finish(s);
	if (a.json)
		write_json(stdout, s);
	else
		write_table(stdout, s);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		cli_error("cannot write the statistics: %s", strerror(errno));
		rc = QB_EXIT_USAGE;
		goto done;
	}
	rc = QB_EXIT_OK;
	unread = report_unread(qb_lint_diags(l));
	if (unread) {
		cli_error("the figures leave out what could not be read (%zu finding%s above); "
			  "fix %s and run 'qbank stats' again", unread, fmt_plural(unread, "", "s"),
			  fmt_plural(unread, "it", "them"));
		rc = QB_EXIT_FINDINGS;
	}
done:
	qb_lint_free(l);
	qb_stats_free(s);
	qb_config_free(cfg);
	qb_paths_dispose(&paths);
	return rc;
}
