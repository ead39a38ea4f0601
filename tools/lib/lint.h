/* The linter: runs the rule table over questions as the reader yields them
 * and collects diagnostics. Bank-wide rules keep only small digests per
 * question, never the questions themselves.
 * Ownership: a qb_lint owns its diagnostics and digests; the configuration
 * passed to qb_lint_new must outlive it. */
#ifndef QB_LINT_H
#define QB_LINT_H

#include <stdarg.h>
#include <stddef.h>

#include "config.h"
#include "diag.h"
#include "error.h"
#include "model.h"
#include "rules.h"

struct qb_lint;

struct qb_lint_stats {
	size_t files;
	size_t questions;
	size_t explained;            /* questions with a non-empty explanation */
	size_t explainable;          /* questions counted for explanation coverage */
	size_t rationales;           /* options (and truefalse sides) with a rationale */
	size_t rationalizable;       /* options counted for rationale coverage */
};

int qb_lint_new(struct qb_lint **out, const struct qb_config *cfg, struct qb_error *err);
void qb_lint_free(struct qb_lint *l);

int qb_lint_file_begin(struct qb_lint *l, const char *file, size_t index);
int qb_lint_question(struct qb_lint *l, const struct qb_question *q);
/* At the end of a file; B carries the file-wide pragmas. */
int qb_lint_file_end(struct qb_lint *l, const struct qb_bank_info *b);
/* After the last file: bank-wide rules, coverage thresholds, sorting. */
int qb_lint_finish(struct qb_lint *l);

/* The reader's finding callback (qb_reader_diag_fn); ctx is the qb_lint. */
void qb_lint_reader_diag(void *ctx, const char *file, unsigned long line,
			 const char *rule, const char *question, const char *message);

/* Reports a finding of rule RULE_ID for the current question (or, from a
 * finish step, with an explicit file via qb_lint_report_at). Applies the
 * configured severity and inline suppressions. */
int qb_lint_report(struct qb_lint *l, const char *rule_id, unsigned long line,
		   const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Same, with severity at least MIN_SEV when the rule is enabled (e.g.
 * option-count: fewer than 2 options is always an error). */
int qb_lint_report_min(struct qb_lint *l, const char *rule_id, enum qb_severity min_sev,
		       unsigned long line, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
int qb_lint_report_at(struct qb_lint *l, const char *rule_id, const char *file,
		      unsigned long line, const char *question, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
int qb_lint_vreport(struct qb_lint *l, const char *rule_id, enum qb_severity min_sev,
		    const char *file, unsigned long line, const char *question,
		    const char *fmt, va_list ap);

struct qb_diags *qb_lint_diags(struct qb_lint *l);
const struct qb_lint_stats *qb_lint_stats(const struct qb_lint *l);
const struct qb_config *qb_lint_config(const struct qb_lint *l);
/* File name of the run's file number INDEX (for naming other places). */
const char *qb_lint_file_name(const struct qb_lint *l, size_t index);

/* 1 when the run has findings that fail it (errors, or warnings above
 * max_warnings). */
int qb_lint_failed(const struct qb_lint *l);

#endif
