/* The linter: runs the rule table over each question, keeps the inline
 * suppressions of the current question and file, and collects the
 * findings. Rules see it only as the host of their context (rule.h). */
#include "lint.h"

#include <fnmatch.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "exporter.h"
#include "rule.h"
#include "rules.h"
#include "text.h"

struct suppression {
	char *rule;                /* id or glob */
	unsigned long line;
	int used;
};

struct suppressions {
	struct suppression *v;
	size_t n, cap;
};

struct qb_lint {
	const struct qb_config *cfg;
	enum qb_severity sev[QB_RULE_COUNT];  /* effective severity, by rule */
	struct qb_diags diags;
	struct qb_lint_stats stats;

	char **files;              /* names of the run's files, by index */
	size_t nfiles, capfiles;
	const char *file;          /* current file */
	size_t file_diag_start;    /* first diagnostic of the current file */

	const struct qb_exporter *const *targets;  /* whose checks run (qb_lint_set_targets) */
	size_t ntargets;
	uint64_t target_runs;      /* bit I: target I runs its check (the first of those sharing it) */

	uint8_t active[QB_RULE_COUNT];  /* the rules that are checked, in table order */
	size_t nactive;

	const struct qb_question *q;  /* current question, or NULL */
	/* rules with an error-level finding about the current question: a
	 * target check that says the same (its base rule) is not repeated */
	unsigned char qerr[QB_RULE_COUNT];
	struct suppressions supp;  /* inline suppressions of the current question */

	struct qb_rule_ctx rules;  /* what the rules see */
	int keep_ids;              /* run id-duplicate even when it is off */
};

static int vreport(struct qb_lint *l, enum qb_rule_key rule, const char *user_id,
		   enum qb_severity min_sev, const char *file, unsigned long line,
		   const char *question, const char *fmt, va_list ap);

/* ---- the rules' host ------------------------------------------------ */

static int host_report(void *ctx, const struct qb_rule_finding *f, const char *fmt, va_list ap)
{
	struct qb_lint *l = ctx;

	if (f->whole_run)
		return vreport(l, f->rule, f->user_id, f->min_sev, "", f->line, NULL, fmt, ap);
	return vreport(l, f->rule, f->user_id, f->min_sev, l->file, f->line, l->q ? l->q->id : NULL,
		       fmt, ap);
}

static enum qb_severity host_severity(void *ctx, enum qb_rule_key rule)
{
	const struct qb_lint *l = ctx;

	return rule < QB_RULE_COUNT ? l->sev[rule] : QB_SEV_OFF;
}

static const char *host_file_name(void *ctx, size_t index)
{
	return qb_lint_file_name(ctx, index);
}

static const struct qb_rule_host host = { host_report, host_severity, host_file_name };

_Static_assert(QB_RULE_COUNT <= 256, "qb_lint.active holds rule numbers in bytes");

/* 1 when rule I is checked: it has a check and is on, or it is
 * id-duplicate and its index of ids is kept (qb_lint_keep_ids). */
static int rule_runs(const struct qb_lint *l, size_t i)
{
	if (!qb_rules[i].check)
		return 0;
	return l->sev[i] != QB_SEV_OFF || (l->keep_ids && i == QB_RULE_ID_DUPLICATE);
}

/* The list of rules each question goes through, made again whenever what
 * rule_runs reads changes (a question asks for the few that are on,
 * rather than every row of the table). */
static void set_active(struct qb_lint *l)
{
	size_t i;

	l->nactive = 0;
	for (i = 0; i < QB_RULE_COUNT; i++)
		if (rule_runs(l, i))
			l->active[l->nactive++] = (uint8_t)i;
}

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
	for (i = 0; i < QB_RULE_COUNT; i++)
		l->sev[i] = qb_rules[i].fixed ? qb_rules[i].severity
			  : qb_config_severity(cfg, qb_rules[i].id, qb_rules[i].severity);
	rc = qb_rule_ctx_init(&l->rules, &host, l, cfg);
	if (rc) {
		qb_lint_free(l);
		return rc;
	}
	set_active(l);
	*out = l;
	return 0;
}

static void clear_supp(struct suppressions *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->v[i].rule);
	s->n = 0;
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
	clear_supp(&l->supp);
	free(l->supp.v);
	qb_rule_ctx_dispose(&l->rules);
	free(l);
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

static int is_sep(char c)
{
	return c == ' ' || c == ',' || c == '\t' || c == '\n' || c == '\r';
}

/* The bytes that may end the keyword of a pragma: white space, and ':' or
 * '=' as other linters write it ("qbank-disable: RULE", "...=RULE"). */
static int ends_keyword(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\0' || c == ':' || c == '=';
}

/* Parses "qbank-disable[-file] RULE[,RULE...] [-- reason]" into entries;
 * the keyword may be followed by ':' or '=' too. */
static int parse_pragma(struct suppressions *out, const char *text, unsigned long line)
{
	static const char *const reason_sep[] = { " - ", " :", ": ", " \xe2\x80\x94 " };
	const char *p = text, *end;
	size_t i;

	while (!ends_keyword(*p))
		p++;
	if (*p == ':' || *p == '=')
		p++;
	/* The reason follows a lone "-" (or ":" or an em dash): XML forbids "--"
	 * inside comments, so the DESIGN's "-- reason" cannot be written. */
	end = p + strlen(p);
	for (i = 0; i < sizeof(reason_sep) / sizeof(reason_sep[0]); i++) {
		const char *x = strstr(p, reason_sep[i]);

		if (x && x < end)
			end = x;
	}
	while (p < end) {
		struct suppression *e;
		const char *s;

		while (p < end && is_sep(*p))
			p++;
		s = p;
		while (p < end && !is_sep(*p))
			p++;
		if (p == s)
			break;
		if (QB_ARRAY_RESERVE(out->v, out->cap, out->n + 1))
			return QB_ENOMEM;
		e = &out->v[out->n];
		e->rule = strndup(s, (size_t)(p - s));
		if (!e->rule)
			return QB_ENOMEM;
		e->line = line;
		e->used = 0;
		out->n++;
	}
	return 0;
}

static int pragma_is_disable(const char *text)
{
	return strncmp(text, "qbank-disable", 13) == 0 && ends_keyword(text[13]);
}

/* Length of the keyword of a comment that looks like a suppression in
 * another linter's habit ("qbank-disable-next-line", "qbank-ignore", ...)
 * but is none of qbank's, or 0. Such a comment suppresses nothing, so it
 * is reported rather than ignored. */
static size_t pragma_unknown(const char *text)
{
	static const char *const looks_like[] = {
		"qbank-disable", "qbank-enable", "qbank-ignore", "qbank-noqa", "qbank-skip",
		"qbank-suppress",
	};
	size_t i, n = 0;

	if (pragma_is_disable(text))
		return 0;
	for (i = 0; i < sizeof(looks_like) / sizeof(looks_like[0]); i++)
		if (strncmp(text, looks_like[i], strlen(looks_like[i])) == 0)
			break;
	if (i == sizeof(looks_like) / sizeof(looks_like[0]))
		return 0;
	while (!ends_keyword(text[n]))
		n++;
	return n;
}

static int suppressed(struct qb_lint *l, const char *rule_id)
{
	size_t i;
	int hit = 0;

	for (i = 0; i < l->supp.n; i++) {
		if (fnmatch(l->supp.v[i].rule, rule_id, 0) == 0) {
			l->supp.v[i].used = 1;
			hit = 1;
		}
	}
	return hit;
}

static int report_at(struct qb_lint *l, enum qb_rule_key rule, const char *file,
		     unsigned long line, const char *question, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/* Reports the suppressions of S that suppressed nothing. */
static int report_unused(struct qb_lint *l, const struct suppressions *s, const char *question)
{
	size_t i;
	int err = 0;

	for (i = 0; i < s->n && !err; i++) {
		if (s->v[i].used)
			continue;
		const struct qb_rule *r = qb_rule_find(s->v[i].rule);

		if (!qb_rule_known(s->v[i].rule))
			err = report_at(l, QB_RULE_SUPPRESSION_UNUSED, l->file, s->v[i].line, question,
					"suppression names '%s', which is not a rule; "
					"see 'qbank rules' for the ids", s->v[i].rule);
		else if (r && r->fixed)
			err = report_at(l, QB_RULE_SUPPRESSION_UNUSED, l->file, s->v[i].line, question,
					"'%s' is a read error and cannot be suppressed: what qbank "
					"cannot read is neither checked nor exported; fix the file and "
					"remove the suppression", s->v[i].rule);
		else
			err = report_at(l, QB_RULE_SUPPRESSION_UNUSED, l->file, s->v[i].line, question,
					"suppression of '%s' suppresses nothing here; remove it",
					s->v[i].rule);
	}
	return err;
}

/* ---- reporting ------------------------------------------------------ */

/* A finding of RULE (a row of the table), or of the user rule USER_ID when
 * RULE is QB_RULE_COUNT. */
static int vreport(struct qb_lint *l, enum qb_rule_key rule, const char *user_id,
		   enum qb_severity min_sev, const char *file, unsigned long line,
		   const char *question, const char *fmt, va_list ap)
{
	const char *id = rule < QB_RULE_COUNT ? qb_rules[rule].id : user_id;
	enum qb_severity sev;
	struct qb_buf msg = QB_BUF_INIT;
	int err;

	if (rule < QB_RULE_COUNT)
		sev = l->sev[rule];
	else
		sev = qb_config_severity(l->cfg, id, QB_SEV_WARNING);
	if (sev == QB_SEV_OFF)
		return 0;
	if (sev < min_sev)
		sev = min_sev;
	if (l->q && question && l->q->id && strcmp(question, l->q->id) == 0 &&
	    rule != QB_RULE_SUPPRESSION_UNUSED && !(rule < QB_RULE_COUNT && qb_rules[rule].fixed) &&
	    suppressed(l, id))
		return 0;
	err = qb_buf_vprintf(&msg, fmt, ap);
	if (!err)
		err = qb_diags_add(&l->diags, file, line, sev, id, question, "%s", msg.ptr);
	qb_buf_dispose(&msg);
	if (!err && sev == QB_SEV_ERROR && rule < QB_RULE_COUNT && l->q && question)
		l->qerr[rule] = 1;
	return err;
}

static int report_at(struct qb_lint *l, enum qb_rule_key rule, const char *file,
		     unsigned long line, const char *question, const char *fmt, ...)
{
	va_list ap;
	int err;

	va_start(ap, fmt);
	err = vreport(l, rule, NULL, QB_SEV_OFF, file, line, question, fmt, ap);
	va_end(ap);
	return err;
}

void qb_lint_reader_diag(void *ctx, const char *file, unsigned long line, enum qb_rule_key rule,
			 const char *question, const char *message)
{
	struct qb_lint *l = ctx;

	if (question)
		(void)report_at(l, rule, file, line, question, "question '%s': %s", question, message);
	else
		(void)report_at(l, rule, file, line, question, "%s", message);
}

/* ---- target checks -------------------------------------------------- */

/* pdf and docx print the Markdown exporter's output and share its check:
 * of the targets that share one, only one runs it, so that each finding
 * is reported once: the first that writes a text file (markdown), else
 * the first. */
static size_t check_owner(const struct qb_lint *l, size_t i)
{
	size_t k, first = i;

	for (k = 0; k < l->ntargets; k++) {
		if (l->targets[k]->check != l->targets[i]->check)
			continue;
		if (!l->targets[k]->needs_file)
			return k;
		if (k < first)
			first = k;
	}
	return first;
}

int qb_lint_set_targets(struct qb_lint *l, const struct qb_exporter *const *targets, size_t n)
{
	size_t i;

	if (n > 64)
		return QB_EINVAL;
	l->targets = targets;
	l->ntargets = n;
	l->target_runs = 0;
	for (i = 0; i < n; i++) {
		if (targets[i]->check && check_owner(l, i) == i)
			l->target_runs |= (uint64_t)1 << i;
		if (targets[i]->unique_ids)
			qb_lint_keep_ids(l);   /* a repeated id is their finding too */
	}
	return 0;
}

struct target_ctx {
	struct qb_lint *l;
	const struct qb_exporter *x;
};

static int target_report(void *ctx, const struct qb_question *q, enum qb_rule_key rule,
			 enum qb_rule_key base, unsigned long line, const char *msg)
{
	struct target_ctx *t = ctx;

	if (base < QB_RULE_COUNT && t->l->qerr[base])
		return 0;   /* the bank's own rule has said it */
	return report_at(t->l, rule, t->l->file, line, q->id, "question '%s' cannot be exported "
			 "to %s: %s", q->id, t->x->name, msg);
}

static int run_targets(struct qb_lint *l, const struct qb_question *q)
{
	struct target_ctx t = { l, NULL };
	struct qb_target_sink s = { target_report, &t };
	const char *file;
	unsigned long line;
	size_t i;
	int err = 0, repeated;

	if (q->schema_invalid || q->type >= QB_Q_UNKNOWN || !q->id)
		return 0;
	repeated = qb_lint_id_repeated(l, &file, &line);
	for (i = 0; i < l->ntargets && !err; i++) {
		t.x = l->targets[i];
		if (!(l->target_runs >> i & 1))
			continue;
		/* targets sharing a check (qti21, qti30) share unique_ids too */
		if (repeated && t.x->unique_ids)
			err = qb_target_repeated_id(&s, q, t.x->unique_ids, file, line);
		if (!err)
			err = t.x->check(q, &s);
	}
	return err;
}

/* ---- the run -------------------------------------------------------- */

int qb_lint_file_begin(struct qb_lint *l, const char *file, size_t index)
{
	size_t had = l->capfiles;

	if (QB_ARRAY_RESERVE(l->files, l->capfiles, index + 1))
		return QB_ENOMEM;
	if (l->capfiles > had)
		memset(l->files + had, 0, (l->capfiles - had) * sizeof(*l->files));
	if (!l->files[index]) {
		l->files[index] = strdup(file);
		if (!l->files[index])
			return QB_ENOMEM;
	}
	if (index >= l->nfiles)
		l->nfiles = index + 1;
	l->file = l->files[index];
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
	memset(l->qerr, 0, sizeof(l->qerr));
	l->stats.questions++;
	l->rules.serial = l->stats.questions;
	clear_supp(&l->supp);
	for (i = 0; i < q->npragmas && !err; i++) {
		size_t n = pragma_unknown(q->pragmas[i].text);

		if (pragma_is_disable(q->pragmas[i].text))
			err = parse_pragma(&l->supp, q->pragmas[i].text, q->pragmas[i].line);
		else if (n)
			err = report_at(l, QB_RULE_SUPPRESSION_UNUSED, l->file, q->pragmas[i].line, q->id,
					"'%.*s' is not a qbank comment and suppresses nothing; write "
					"<!-- qbank-disable RULE - reason --> before the question, or "
					"<!-- qbank-disable-file RULE --> for the whole file", (int)n,
					q->pragmas[i].text);
	}
	if (!err && !q->schema_invalid)
		count_coverage(l, q);
	for (i = 0; i < l->nactive && !err; i++) {
		size_t r = l->active[i];

		/* a question the schema rejects is only counted for its id */
		if (q->schema_invalid && r != QB_RULE_ID_DUPLICATE)
			continue;
		err = qb_rules[r].check(&l->rules, q);
	}
	if (!err)
		err = qb_rule_user_check(&l->rules, q);
	if (!err)
		err = run_targets(l, q);
	if (!err)
		err = report_unused(l, &l->supp, q->id);
	clear_supp(&l->supp);
	l->q = NULL;
	return err;
}

void qb_lint_keep_ids(struct qb_lint *l)
{
	l->keep_ids = 1;
	set_active(l);
}

int qb_lint_id_repeated(const struct qb_lint *l, const char **file, unsigned long *line)
{
	if (l->rules.id_seen_serial == 0 || l->rules.id_seen_serial != l->rules.serial)
		return 0;
	*file = l->rules.id_seen_file;
	*line = l->rules.id_seen_line;
	return 1;
}

int qb_lint_file_end(struct qb_lint *l, const struct qb_bank_info *b)
{
	const char *unused_id = qb_rules[QB_RULE_SUPPRESSION_UNUSED].id;
	struct suppressions s = { NULL, 0, 0 };
	size_t i, j, k;
	int err = 0;

	for (i = 0; b && i < b->nfile_pragmas && !err; i++)
		err = parse_pragma(&s, b->file_pragmas[i].text, b->file_pragmas[i].line);
	if (!err && s.n) {
		/* Drop this file's findings that a file-wide pragma disables. */
		for (j = k = l->file_diag_start; j < l->diags.n; j++) {
			struct qb_diag *d = &l->diags.v[j];
			int drop = 0;

			for (i = 0; i < s.n; i++) {
				if (strcmp(d->rule, unused_id) != 0 && fnmatch(s.v[i].rule, d->rule, 0) == 0) {
					s.v[i].used = 1;
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
		err = report_unused(l, &s, NULL);
	}
	clear_supp(&s);
	free(s.v);
	return err;
}

static double pct(size_t a, size_t b)
{
	return b ? 100.0 * (double)a / (double)b : 100.0;
}

/* explanation-coverage: WHAT (explanation, rationale) is in HAVE of OF
 * PARTS, below the threshold MIN (percent; -1 when there is none)? The
 * message points to the rule FLAGGED, which names the parts without. */
static int check_coverage(struct qb_lint *l, const char *what, size_t have, size_t of, double min,
			  const char *parts, enum qb_rule_key flagged)
{
	if (min < 0 || pct(have, of) >= min)
		return 0;
	return report_at(l, QB_RULE_EXPLANATION_COVERAGE, "", 0, NULL,
			 "%s coverage %zu/%zu (%.0f%%) is below the required %g%%; "
			 "add %ss to the %s flagged %s",
			 what, have, of, pct(have, of), min, what, parts, qb_rules[flagged].id);
}

int qb_lint_finish(struct qb_lint *l)
{
	const struct qb_config *c = l->cfg;
	size_t i;
	int err = 0;

	l->file = NULL;
	for (i = 0; i < QB_RULE_COUNT && !err; i++)
		if (qb_rules[i].finish && l->sev[i] != QB_SEV_OFF)
			err = qb_rules[i].finish(&l->rules);
	if (!err && c)
		err = check_coverage(l, "explanation", l->stats.explained, l->stats.explainable,
				     c->min_explanation_coverage, "questions", QB_RULE_EXPLANATION_MISSING);
	if (!err && c)
		err = check_coverage(l, "rationale", l->stats.rationales, l->stats.rationalizable,
				     c->min_rationale_coverage, "options", QB_RULE_RATIONALE_MISSING);
	qb_diags_sort(&l->diags);
	return err;
}
