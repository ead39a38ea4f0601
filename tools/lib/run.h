/* One pass over the run's files: read each question once, lint it, hand it
 * to the caller's hooks (an exporter, statistics). Used by lint, export and
 * stats alike so that every command sees the bank the same way.
 * The hooks' type is the pipeline's (pipeline.h), which does the reading.
 * Ownership: hooks and the lint instance belong to the caller; a question
 * or bank passed to a hook is valid during the call only. */
#ifndef QB_RUN_H
#define QB_RUN_H

#include <stddef.h>

#include "error.h"
#include "lint.h"
#include "pipeline.h"

/* Reads FILES in order, linting every question with L and calling HOOKS
 * (which may be NULL). Finishes the lint (bank-wide rules, sorting).
 * Returns 0, or a negative error (I/O error on a file, a hook's error,
 * which comes back in ERR as the hook set it). */
int qb_run(struct qb_lint *l, const char *const *files, size_t nfiles,
	   const struct qb_run_hooks *hooks, struct qb_error *err);

#endif
