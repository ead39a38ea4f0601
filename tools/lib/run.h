/* One pass over the run's files: read each question once, lint it, hand it
 * to the caller's hooks (an exporter, statistics). Used by lint, export and
 * stats alike so that every command sees the bank the same way.
 * Ownership: hooks and the lint instance belong to the caller; a question
 * or bank passed to a hook is valid during the call only. */
#ifndef QB_RUN_H
#define QB_RUN_H

#include <stddef.h>

#include "error.h"
#include "lint.h"
#include "model.h"

/* What the question hook costs, against reading a question. */
enum qb_run_cost {
	QB_RUN_LIGHT,   /* less (statistics, most exporters) */
	QB_RUN_HEAVY    /* more (an exporter that renders and compresses) */
};

struct qb_run_hooks {
	void *ctx;
	/* Once per file, before its first question (or at its end when it has
	 * none): the bank's title and description are known by then. */
	int (*bank)(void *ctx, const struct qb_bank_info *b, struct qb_error *err);
	/* Each schema-valid question, in file order, after it was linted. */
	int (*question)(void *ctx, const struct qb_question *q, struct qb_error *err);
	/* Progress: bytes consumed of all files, and their total size. */
	void (*progress)(void *ctx, unsigned long long done, unsigned long long total);
	/* A cost hint for the pipeline (pipeline.h), which decides from it
	 * where the rules run. */
	enum qb_run_cost question_cost;
};

/* Reads FILES in order, linting every question with L and calling HOOKS
 * (which may be NULL). Finishes the lint (bank-wide rules, sorting).
 * Returns 0, or a negative error (I/O error on a file, a hook's error,
 * which comes back in ERR as the hook set it). */
int qb_run(struct qb_lint *l, const char *const *files, size_t nfiles,
	   const struct qb_run_hooks *hooks, struct qb_error *err);

#endif
