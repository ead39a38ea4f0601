/* One pass over the run's files: read each question once, lint it, hand it
 * to the caller's hooks (an exporter, statistics). Used by lint, export and
 * stats alike so that every command sees the bank the same way.
 * Ownership: hooks and the lint instance belong to the caller. */
#ifndef QB_RUN_H
#define QB_RUN_H

#include <stddef.h>

#include "error.h"
#include "lint.h"
#include "model.h"

struct qb_run_hooks {
	void *ctx;
	/* Once per file, before its first question (or at its end when it has
	 * none): the bank's title and description are known by then. */
	int (*bank)(void *ctx, const struct qb_bank_info *b);
	/* Each schema-valid question, after it was linted. */
	int (*question)(void *ctx, const struct qb_question *q);
	/* Progress: bytes consumed of all files, and their total size. */
	void (*progress)(void *ctx, unsigned long long done, unsigned long long total);
	/* 1: the question hook costs less than reading does, so the rules run
	 * beside it; 0: it costs more, and the rules run on the reader's
	 * thread (run.c). */
	int light;
};

/* Reads FILES in order, linting every question with L and calling HOOKS
 * (which may be NULL). Finishes the lint (bank-wide rules, sorting).
 * Returns 0, or a negative error (I/O error on a file, a hook's error). */
int qb_run(struct qb_lint *l, const char *const *files, size_t nfiles,
	   const struct qb_run_hooks *hooks, struct qb_error *err);

#endif
