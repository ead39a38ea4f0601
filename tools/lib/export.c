#include "export.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/array.h"
#include "core/behind.h"
#include "exporter.h"
#include "exporters/exporters.h"
#include "lint.h"
#include "pipeline.h"
#include "rules.h"
#include "run.h"

/* Keep this table sorted by name: qb_exporter_find() searches it and a
 * unit test checks the order. */
/* The targets that need unique question ids (exporter.h). */
static const struct qb_unique_ids canvas_ids = {
	QB_RULE_TARGET_CANVAS_ID, "Canvas identifies questions by their ids"
};
static const struct qb_unique_ids qti_ids = {
	QB_RULE_TARGET_QTI_IDENTIFIER, "it names the item, its file and its manifest resource"
};

const struct qb_exporter qb_exporters[] = {
	{ "canvas", "Canvas QTI 1.2 package (zip) for Canvas Classic Quizzes (Import Content > QTI .zip file)", ".zip", 1,
	  qb_canvas_open, qb_canvas_bank, qb_canvas_question, qb_canvas_commit, qb_canvas_abort,
	  qb_canvas_check, NULL, &canvas_ids },
	{ "docx", "Word document of the printable exam (pandoc, with qbank's reference document)", ".docx", 1,
	  qb_docx_open, qb_pandoc_bank, qb_pandoc_question, qb_pandoc_commit,
	  qb_pandoc_abort, qb_md_check, NULL, NULL },
	{ "gift", "Moodle's GIFT text format (Question bank > Import > GIFT format)", ".gift.txt", 0,
	  qb_gift_open, qb_gift_bank, qb_gift_question, qb_gift_commit, qb_gift_abort,
	  qb_gift_check, NULL, NULL },
	{ "html", "one self-contained HTML page for reviewing the bank (keys, findings, filter)", ".html", 0,
	  qb_html_open, qb_html_bank, qb_html_question, qb_html_commit, qb_html_abort,
	  NULL, qb_html_findings, NULL },
	{ "markdown", "Pandoc Markdown for printable exams (PDF, DOCX through pandoc)", ".md", 0,
	  qb_md_open, qb_md_bank, qb_md_question, qb_md_commit, qb_md_abort, qb_md_check, NULL, NULL },
	{ "moodle", "Moodle XML (Question bank > Import > Moodle XML format)", ".xml", 0,
	  qb_moodle_open, qb_moodle_bank, qb_moodle_question, qb_moodle_commit, qb_moodle_abort,
	  qb_moodle_check, NULL, NULL },
	{ "pdf", "PDF of the printable exam (pandoc and XeLaTeX)", ".pdf", 1,
	  qb_pdf_open, qb_pandoc_bank, qb_pandoc_question, qb_pandoc_commit, qb_pandoc_abort,
	  qb_md_check, NULL, NULL },
	{ "qti21", "IMS QTI 2.1 content package (zip)", ".zip", 1,
	  qb_qti_open, qb_qti_bank, qb_qti_question, qb_qti_commit, qb_qti_abort, qb_qti_check, NULL,
	  &qti_ids },
	{ "qti30", "IMS QTI 3.0 content package (zip)", ".zip", 1,
	  qb_qti30_open, qb_qti_bank, qb_qti_question, qb_qti_commit, qb_qti_abort, qb_qti_check, NULL,
	  &qti_ids },
};

const size_t qb_nexporters = sizeof(qb_exporters) / sizeof(qb_exporters[0]);

static int cmp_exporter(const void *key, const void *elem)
{
	return strcmp(key, ((const struct qb_exporter *)elem)->name);
}

const struct qb_exporter *qb_exporter_find(const char *name)
{
	return bsearch(name, qb_exporters, qb_nexporters, sizeof(qb_exporters[0]), cmp_exporter);
}

struct export_ctx {
	const struct qb_exporter *x;
	void *state;
	const struct qb_export_opts *o;
	/* The run's lint: it has seen each question just before the question
	 * hook (pipeline.c runs the two back to back on one thread). */
	const struct qb_lint *l;
	/* The questions the driver refused, kept apart from the lint's
	 * findings and joined after the run; base[i] is the bank rule of
	 * refusal i. */
	struct qb_diags refused;
	enum qb_rule_key *base;
	size_t capbase;
};

/* A refusal: an error whatever the configuration says of RULE. */
static int refuse_report(void *ctx, const struct qb_question *q, enum qb_rule_key rule,
			 enum qb_rule_key base, unsigned long line, const char *msg)
{
	struct export_ctx *c = ctx;
	int rc;

	if (QB_ARRAY_RESERVE(c->base, c->capbase, c->refused.n + 1))
		return QB_ENOMEM;
	rc = qb_diags_add(&c->refused, q->file, line, QB_SEV_ERROR, qb_rules[rule].id, q->id,
			  "question '%s' cannot be exported to %s: %s", q->id, c->x->name, msg);
	if (!rc)
		c->base[c->refused.n - 1] = base;
	return rc;
}

/* 1 when the lint already has an error of BASE about question QID of FILE:
 * the refusal would say the same thing again. */
static int said_by_lint(const struct qb_diags *d, enum qb_rule_key base, const char *file,
			const char *qid)
{
	size_t i;

	if (base >= QB_RULE_COUNT)
		return 0;
	for (i = 0; i < d->n; i++)
		if (d->v[i].severity == QB_SEV_ERROR && d->v[i].question &&
		    strcmp(d->v[i].rule, qb_rules[base].id) == 0 &&
		    strcmp(d->v[i].question, qid) == 0 && strcmp(d->v[i].file, file) == 0)
			return 1;
	return 0;
}

/* Moves the refusals into the lint's findings, sorted with them. */
static int join_refusals(struct export_ctx *c, struct qb_diags *d)
{
	size_t i;
	int rc = 0;

	for (i = 0; i < c->refused.n && !rc; i++) {
		const struct qb_diag *r = &c->refused.v[i];

		if (said_by_lint(d, c->base[i], r->file, r->question))
			continue;
		rc = qb_diags_add(d, r->file, r->line, r->severity, r->rule, r->question, "%s",
				  r->message);
	}
	qb_diags_sort(d);
	return rc;
}

static int hook_bank(void *ctx, const struct qb_bank_info *b, struct qb_error *err)
{
	struct export_ctx *c = ctx;

	return c->x->bank ? c->x->bank(c->state, b, err) : 0;
}

static int hook_question(void *ctx, const struct qb_question *q, struct qb_error *err)
{
	struct export_ctx *c = ctx;
	struct qb_target_sink s = { refuse_report, c };
	size_t had = c->refused.n;
	const char *file;
	unsigned long line;
	int rc = 0;

	/* the lint has just seen Q: its index of ids says whether an earlier
	 * question has Q's id */
	if (c->x->unique_ids && qb_lint_id_repeated(c->l, &file, &line))
		rc = qb_target_repeated_id(&s, q, c->x->unique_ids, file, line);
	if (!rc && c->x->check)
		rc = c->x->check(q, &s);
	if (rc) {
		qb_error_set(err, rc, "%s", qb_error_str(rc));
		return rc;
	}
	if (c->refused.n > had)
		return 0;   /* never written; the export is refused at the end */
	return c->x->question(c->state, q, err);
}

static void hook_progress(void *ctx, unsigned long long done, unsigned long long total)
{
	struct export_ctx *c = ctx;

	if (c->o->progress)
		c->o->progress(c->o->progress_ctx, done, total);
}

/* The output must not be one of the inputs: compare device and inode. */
static int output_is_input(const char *out, const char *const *files, size_t n)
{
	struct stat so, si;
	size_t i;

	if (!out || strcmp(out, "-") == 0 || stat(out, &so) != 0)
		return -1;
	for (i = 0; i < n; i++)
		if (stat(files[i], &si) == 0 && si.st_dev == so.st_dev && si.st_ino == so.st_ino)
			return (int)i;
	return -1;
}

/* Hands the run's findings to X's findings hook, each with its rule's
 * summary and explanation from the rule table (the exporter does not see
 * the table). */
static int give_findings(const struct qb_exporter *x, void *state, const struct qb_diags *d,
			 struct qb_error *err)
{
	struct qb_export_finding *v = NULL;
	const struct qb_rule *r;
	size_t i;
	int rc;

	if (d->n) {
		v = calloc(d->n, sizeof(*v));
		if (!v)
			return QB_ENOMEM;
	}
	for (i = 0; i < d->n; i++) {
		r = qb_rule_find(d->v[i].rule);
		v[i].file = d->v[i].file ? d->v[i].file : "";
		v[i].line = d->v[i].line;
		v[i].question = d->v[i].question;
		v[i].rule = d->v[i].rule;
		v[i].severity = qb_severity_name(d->v[i].severity);
		v[i].message = d->v[i].message;
		v[i].summary = r ? r->summary : NULL;
		v[i].explain = r ? r->explanation : NULL;
	}
	rc = x->findings(state, v, d->n, err);
	free(v);
	return rc;
}

int qb_export_run(const struct qb_exporter *x, const struct qb_export_opts *o,
		  struct qb_lint *l, const char *const *files, size_t nfiles,
		  struct qb_error *err)
{
	struct qb_export_opts xo = *o;
	struct export_ctx c = { x, NULL, o, l, { NULL, 0, 0, { 0, 0, 0, 0 } }, NULL, 0 };
	struct qb_run_hooks h = { &c, hook_bank, hook_question, hook_progress };
	int rc, i;

	i = output_is_input(o->output, files, nfiles);
	if (i >= 0) {
		qb_error_set(err, QB_EINVAL, "%s: the output would overwrite an input bank file; "
			     "choose another -o", o->output);
		return QB_EINVAL;
	}
	if (x->needs_file && (!o->output || strcmp(o->output, "-") == 0)) {
		qb_error_set(err, QB_EINVAL, "--to %s writes a %s file: name it with -o FILE%s",
			     x->name, x->extension, x->extension);
		return QB_EINVAL;
	}
	xo.one_thread = qb_threads_one();
	if (x->unique_ids)
		qb_lint_keep_ids(l);
	rc = x->open(&c.state, &xo, err);
	if (rc)
		return rc;
	rc = qb_run(l, files, nfiles, &h, err);
	if (!rc && c.refused.n)
		rc = join_refusals(&c, qb_lint_diags(l));
	qb_diags_dispose(&c.refused);
	free(c.base);
	if (!rc && qb_lint_diags(l)->count[QB_SEV_ERROR] > 0) {
		qb_error_set(err, QB_EREFUSED, "export refused: the bank has %zu error%s; "
			     "fix them (qbank lint) and export again",
			     qb_lint_diags(l)->count[QB_SEV_ERROR],
			     qb_lint_diags(l)->count[QB_SEV_ERROR] == 1 ? "" : "s");
		rc = QB_EREFUSED;
	}
	if (!rc && x->findings && !o->no_findings)
		rc = give_findings(x, c.state, qb_lint_diags(l), err);
	if (rc) {
		x->abort(c.state);
		return rc;
	}
	return x->commit(c.state, err);
}
