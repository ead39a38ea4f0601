#include "lint.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "lint_internal.h"
#include "rules/rules_impl.h"
#include "text.h"

int qb_lint_new(struct qb_lint **out, const struct qb_config *cfg, struct qb_error *err)
{
	struct qb_lint *l;
	size_t i;
	int rc;

	(void)err;
	*out = NULL;
	l = calloc(1, sizeof(*l));
	if (!l)
		return QB_ENOMEM;
	l->cfg = cfg;
	l->sev = calloc(qb_nrules, sizeof(*l->sev));
	if (!l->sev) {
		free(l);
		return QB_ENOMEM;
	}
	for (i = 0; i < qb_nrules; i++)
		l->sev[i] = qb_config_severity(cfg, qb_rules[i].id, qb_rules[i].severity);
	rc = qb_rules_state_new(&l->rules);
	if (rc) {
		qb_lint_free(l);
		return rc;
	}
	*out = l;
	return 0;
}

static void clear_supp(struct qb_lint *l)
{
	size_t i;

	for (i = 0; i < l->nsupp; i++)
		free(l->supp[i].rule);
	l->nsupp = 0;
}

void qb_lint_free(struct qb_lint *l)
{
	size_t i;

	if (!l)
		return;
	qb_diags_dispose(&l->diags);
	for (i = 0; i < l->nfiles; i++)
		free(l->files[i]);
	free(l->files);
	clear_supp(l);
	free(l->supp);
	free(l->sev);
	qb_buf_dispose(&l->scratch);
	qb_buf_dispose(&l->scratch2);
	qb_lint_digests_free(l->digests);
	qb_rules_state_free(l->rules);
	free(l);
}

enum qb_severity qb_lint_rule_severity(const struct qb_lint *l, const struct qb_rule *r)
{
	return l->sev[r - qb_rules];
}

struct qb_diags *qb_lint_diags(struct qb_lint *l)
{
	return &l->diags;
}

const struct qb_lint_stats *qb_lint_stats(const struct qb_lint *l)
{
	return &l->stats;
}

const struct qb_config *qb_lint_config(const struct qb_lint *l)
{
	return l->cfg;
}

const char *qb_lint_file_name(const struct qb_lint *l, size_t index)
{
	return index < l->nfiles ? l->files[index] : "";
}

int qb_lint_failed(const struct qb_lint *l)
{
	if (l->diags.count[QB_SEV_ERROR] > 0)
		return 1;
	if (l->cfg && l->cfg->max_warnings >= 0 &&
	    l->diags.count[QB_SEV_WARNING] > (size_t)l->cfg->max_warnings)
		return 1;
	return 0;
}

/* ---- suppression ---------------------------------------------------- */

/* Parses "qbank-disable[-file] RULE[,RULE...] [-- reason]" into entries. */
static int parse_pragma(struct qb_lint *l, const char *text, unsigned long line,
			struct suppression **v, size_t *n, size_t *cap)
{
	const char *p = text, *end;

	while (*p && *p != ' ' && *p != '\t' && *p != '\n')
		p++;
	/* The reason follows a lone "-" (or ":" or an em dash): XML forbids "--"
	 * inside comments, so the DESIGN's "-- reason" cannot be written. */
	end = p + strlen(p);
	{
		const char *sep[] = { " - ", " :", ": ", " \xe2\x80\x94 ", NULL };
		int i;

		for (i = 0; sep[i]; i++) {
			const char *x = strstr(p, sep[i]);

			if (x && x < end)
				end = x;
		}
	}
	while (p < end) {
		const char *s;

		while (p < end && (*p == ' ' || *p == ',' || *p == '\t' || *p == '\n' || *p == '\r'))
			p++;
		s = p;
		while (p < end && !(*p == ' ' || *p == ',' || *p == '\t' || *p == '\n' || *p == '\r'))
			p++;
		if (p == s)
			break;
		if (*n == *cap) {
			size_t c = *cap ? *cap * 2 : 4;
			struct suppression *nv = realloc(*v, c * sizeof(*nv));

			if (!nv)
				return QB_ENOMEM;
			*v = nv;
			*cap = c;
		}
		(*v)[*n].rule = strndup(s, (size_t)(p - s));
		if (!(*v)[*n].rule)
			return QB_ENOMEM;
		(*v)[*n].line = line;
		(*v)[*n].used = 0;
		(*n)++;
	}
	(void)l;
	return 0;
}

static int pragma_is_disable(const char *text)
{
	return strncmp(text, "qbank-disable", 13) == 0 &&
	       (text[13] == ' ' || text[13] == '\t' || text[13] == '\n' || text[13] == '\0');
}

static int suppressed(struct qb_lint *l, const char *rule_id)
{
	size_t i;
	int hit = 0;

	for (i = 0; i < l->nsupp; i++) {
		if (fnmatch(l->supp[i].rule, rule_id, 0) == 0) {
			l->supp[i].used = 1;
			hit = 1;
		}
	}
	return hit;
}

/* Reports the suppressions of V that suppressed nothing. */
static int report_unused(struct qb_lint *l, const struct suppression *v, size_t n,
			 const char *question)
{
	size_t i;
	int err = 0;

	for (i = 0; i < n && !err; i++) {
		if (v[i].used)
			continue;
		if (!qb_rule_find(v[i].rule) && !strpbrk(v[i].rule, "*?[") &&
		    strncmp(v[i].rule, "custom/", 7) != 0)
			err = qb_lint_report_at(l, "suppression-unused", l->file, v[i].line, question,
						"suppression names '%s', which is not a rule; "
						"see 'qbank rules' for the ids", v[i].rule);
		else
			err = qb_lint_report_at(l, "suppression-unused", l->file, v[i].line, question,
						"suppression of '%s' suppresses nothing here; remove it",
						v[i].rule);
	}
	return err;
}

/* ---- reporting ------------------------------------------------------ */

int qb_lint_vreport(struct qb_lint *l, const char *rule_id, enum qb_severity min_sev,
		    const char *file, unsigned long line, const char *question,
		    const char *fmt, va_list ap)
{
	const struct qb_rule *r = qb_rule_find(rule_id);
	enum qb_severity sev;
	struct qb_buf msg = QB_BUF_INIT;
	int err;

	if (r)
		sev = qb_lint_rule_severity(l, r);
	else
		sev = qb_config_severity(l->cfg, rule_id, QB_SEV_WARNING);
	if (sev == QB_SEV_OFF)
		return 0;
	if (sev < min_sev)
		sev = min_sev;
	if (l->q && question && l->q->id && strcmp(question, l->q->id) == 0 &&
	    strcmp(rule_id, "suppression-unused") != 0 && suppressed(l, rule_id))
		return 0;
	err = qb_buf_vprintf(&msg, fmt, ap);
	if (!err)
		err = qb_diags_add(&l->diags, file, line, sev, r ? r->id : rule_id, question,
				   "%s", msg.ptr);
	qb_buf_dispose(&msg);
	return err;
}

int qb_lint_report(struct qb_lint *l, const char *rule_id, unsigned long line,
		   const char *fmt, ...)
{
	va_list ap;
	int err;

	va_start(ap, fmt);
	err = qb_lint_vreport(l, rule_id, QB_SEV_OFF, l->file, line,
			      l->q ? l->q->id : NULL, fmt, ap);
	va_end(ap);
	return err;
}

int qb_lint_report_min(struct qb_lint *l, const char *rule_id, enum qb_severity min_sev,
		       unsigned long line, const char *fmt, ...)
{
	va_list ap;
	int err;

	va_start(ap, fmt);
	err = qb_lint_vreport(l, rule_id, min_sev, l->file, line,
			      l->q ? l->q->id : NULL, fmt, ap);
	va_end(ap);
	return err;
}

int qb_lint_report_at(struct qb_lint *l, const char *rule_id, const char *file,
		      unsigned long line, const char *question, const char *fmt, ...)
{
	va_list ap;
	int err;

	va_start(ap, fmt);
	err = qb_lint_vreport(l, rule_id, QB_SEV_OFF, file, line, question, fmt, ap);
	va_end(ap);
	return err;
}

void qb_lint_reader_diag(void *ctx, const char *file, unsigned long line,
			 const char *rule, const char *question, const char *message)
{
	struct qb_lint *l = ctx;

	if (question)
		(void)qb_lint_report_at(l, rule, file, line, question, "question '%s': %s",
					question, message);
	else
		(void)qb_lint_report_at(l, rule, file, line, question, "%s", message);
}

/* ---- the run -------------------------------------------------------- */

int qb_lint_file_begin(struct qb_lint *l, const char *file, size_t index)
{
	if (index >= l->capfiles) {
		size_t cap = l->capfiles ? l->capfiles * 2 : 8;
		char **v;

		while (cap <= index)
			cap *= 2;
		v = realloc(l->files, cap * sizeof(*v));
		if (!v)
			return QB_ENOMEM;
		memset(v + l->capfiles, 0, (cap - l->capfiles) * sizeof(*v));
		l->files = v;
		l->capfiles = cap;
	}
	if (!l->files[index]) {
		l->files[index] = strdup(file);
		if (!l->files[index])
			return QB_ENOMEM;
	}
	if (index >= l->nfiles)
		l->nfiles = index + 1;
	l->file = l->files[index];
	l->file_index = index;
	l->file_diag_start = l->diags.n;
	l->stats.files++;
	return 0;
}

static void count_coverage(struct qb_lint *l, const struct qb_question *q)
{
	size_t i;

	if (q->type != QB_Q_UNKNOWN) {
		l->stats.explainable++;
		if (q->explanation && !qb_text_is_blank(q->explanation))
			l->stats.explained++;
	}
	if (qb_qtype_is_choice(q->type)) {
		for (i = 0; i < q->noptions; i++) {
			l->stats.rationalizable++;
			if (q->options[i].rationale && !qb_text_is_blank(q->options[i].rationale))
				l->stats.rationales++;
		}
	} else if (q->type == QB_Q_TRUEFALSE) {
		l->stats.rationalizable += 2;
		for (i = 0; i < q->nside_rationales && i < 2; i++)
			if (!qb_text_is_blank(q->side_rationales[i].node))
				l->stats.rationales++;
	}
}

int qb_lint_question(struct qb_lint *l, const struct qb_question *q)
{
	size_t i;
	int err = 0;

	l->q = q;
	l->stats.questions++;
	clear_supp(l);
	for (i = 0; i < q->npragmas && !err; i++)
		if (pragma_is_disable(q->pragmas[i].text))
			err = parse_pragma(l, q->pragmas[i].text, q->pragmas[i].line,
					   &l->supp, &l->nsupp, &l->capsupp);
	if (!err && !q->schema_invalid)
		count_coverage(l, q);
	for (i = 0; i < qb_nrules && !err; i++) {
		if (!qb_rules[i].check || l->sev[i] == QB_SEV_OFF)
			continue;
		if (q->schema_invalid && strcmp(qb_rules[i].id, "id-duplicate") != 0)
			continue;
		err = qb_rules[i].check(l, q);
	}
	if (!err)
		err = qb_lint_user_rules(l, q);
	if (!err)
		err = report_unused(l, l->supp, l->nsupp, q->id);
	clear_supp(l);
	l->q = NULL;
	return err;
}

int qb_lint_file_end(struct qb_lint *l, const struct qb_bank_info *b)
{
	struct suppression *v = NULL;
	size_t n = 0, cap = 0, i, j, k;
	int err = 0;

	for (i = 0; b && i < b->nfile_pragmas && !err; i++)
		err = parse_pragma(l, b->file_pragmas[i].text, b->file_pragmas[i].line, &v, &n, &cap);
	if (!err && n) {
		/* Drop this file's findings that a file-wide pragma disables. */
		for (j = k = l->file_diag_start; j < l->diags.n; j++) {
			struct qb_diag *d = &l->diags.v[j];
			int drop = 0;

			for (i = 0; i < n; i++) {
				if (strcmp(d->rule, "suppression-unused") != 0 &&
				    fnmatch(v[i].rule, d->rule, 0) == 0) {
					v[i].used = 1;
					drop = 1;
				}
			}
			if (drop) {
				l->diags.count[d->severity]--;
				free(d->file);
				free(d->question);
				free(d->message);
			} else {
				l->diags.v[k++] = *d;
			}
		}
		l->diags.n = k;
		err = report_unused(l, v, n, NULL);
	}
	for (i = 0; i < n; i++)
		free(v[i].rule);
	free(v);
	return err;
}

static double pct(size_t a, size_t b)
{
	return b ? 100.0 * (double)a / (double)b : 100.0;
}

int qb_lint_finish(struct qb_lint *l)
{
	const struct qb_config *c = l->cfg;
	size_t i;
	int err = 0;

	l->file = NULL;
	for (i = 0; i < qb_nrules && !err; i++)
		if (qb_rules[i].finish && l->sev[i] != QB_SEV_OFF)
			err = qb_rules[i].finish(l);
	if (!err && c && c->min_explanation_coverage >= 0 &&
	    pct(l->stats.explained, l->stats.explainable) < c->min_explanation_coverage)
		err = qb_lint_report_at(l, "explanation-coverage", "", 0, NULL,
					"explanation coverage %zu/%zu (%.0f%%) is below the required %g%%; "
					"add explanations to the questions flagged explanation-missing",
					l->stats.explained, l->stats.explainable,
					pct(l->stats.explained, l->stats.explainable),
					c->min_explanation_coverage);
	if (!err && c && c->min_rationale_coverage >= 0 &&
	    pct(l->stats.rationales, l->stats.rationalizable) < c->min_rationale_coverage)
		err = qb_lint_report_at(l, "explanation-coverage", "", 0, NULL,
					"rationale coverage %zu/%zu (%.0f%%) is below the required %g%%; "
					"add rationales to the options flagged rationale-missing",
					l->stats.rationales, l->stats.rationalizable,
					pct(l->stats.rationales, l->stats.rationalizable),
					c->min_rationale_coverage);
	qb_diags_sort(&l->diags);
	return err;
}
