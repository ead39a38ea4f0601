/* The linter: runs the rule table over questions as the reader yields them
 * and collects diagnostics. Bank-wide rules keep only small digests per
 * question, never the questions themselves. Rules see the linter only
 * through their context (rule.h); nothing here is for them.
 * Ownership: a qb_lint owns its diagnostics and the rules' state; the
 * configuration passed to qb_lint_new must outlive it. */
#ifndef QB_LINT_H
#define QB_LINT_H

#include <stddef.h>

#include "config.h"
#include "diag.h"
#include "error.h"
#include "model.h"
#include "rule_ids.h"

struct qb_lint;
struct qb_exporter;

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

/* The targets whose checks (exporter.h) run as target-* findings on every
 * schema-valid question, after the rule table; none until this is called.
 * The array and its exporters must outlive L. At most 64: QB_EINVAL
 * beyond, with the targets as they were. */
int qb_lint_set_targets(struct qb_lint *l, const struct qb_exporter *const *targets, size_t n);

/* Makes id-duplicate keep its index of ids even when the rule is off, for
 * qb_lint_id_repeated (an export to a target that needs unique ids). */
void qb_lint_keep_ids(struct qb_lint *l);

int qb_lint_file_begin(struct qb_lint *l, const char *file, size_t index);
int qb_lint_question(struct qb_lint *l, const struct qb_question *q);
/* After qb_lint_question: 1 when that question's id is an earlier
 * question's of the run (what id-duplicate finds, on or off, suppressed or
 * not; the earlier question's file and line in *FILE and *LINE), else 0.
 * Needs id-duplicate on or qb_lint_keep_ids. */
int qb_lint_id_repeated(const struct qb_lint *l, const char **file, unsigned long *line);
/* At the end of a file; B carries the file-wide pragmas. */
int qb_lint_file_end(struct qb_lint *l, const struct qb_bank_info *b);
/* After the last file: bank-wide rules, coverage thresholds, sorting. */
int qb_lint_finish(struct qb_lint *l);

/* The reader's finding callback (qb_reader_diag_fn); ctx is the qb_lint. */
void qb_lint_reader_diag(void *ctx, const char *file, unsigned long line, enum qb_rule_key rule,
			 const char *question, const char *message);

struct qb_diags *qb_lint_diags(struct qb_lint *l);
const struct qb_lint_stats *qb_lint_stats(const struct qb_lint *l);
const struct qb_config *qb_lint_config(const struct qb_lint *l);
/* File name of the run's file number INDEX (for naming other places). */
const char *qb_lint_file_name(const struct qb_lint *l, size_t index);

/* 1 when the run has findings that fail it (errors, or warnings above
 * max_warnings). */
int qb_lint_failed(const struct qb_lint *l);

#endif
