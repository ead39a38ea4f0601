/* The pipeline: carries each question of a bank file from the reader to
 * the rules and on to the run's hooks (struct qb_run_hooks, below; qb_run
 * in run.h drives a whole run), in file order, and decides
 * where each of the three runs. By default the reader has a thread of its
 * own, and the rules run beside the hooks, on the calling thread. With
 * QBANK_THREADS=1 in the environment everything runs on
 * the calling thread, the reference that the threaded run must match byte
 * for byte: the linter sees the reader's findings and the questions in the
 * same order either way.
 * Ownership: the pipeline owns its reader thread, the compiled schema and
 * the questions and findings in flight; the lint and the hooks stay the
 * caller's. */
#ifndef QB_PIPELINE_H
#define QB_PIPELINE_H

#include "error.h"
#include "lint.h"
#include "model.h"

struct qb_run_hooks {
	void *ctx;
	/* Once per file, before its first question (or at its end when it has
	 * none): the bank's title and description are known by then. */
	int (*bank)(void *ctx, const struct qb_bank_info *b, struct qb_error *err);
	/* Each schema-valid question, in file order, after it was linted. */
	int (*question)(void *ctx, const struct qb_question *q, struct qb_error *err);
	/* Progress: bytes consumed of all files, and their total size. */
	void (*progress)(void *ctx, unsigned long long done, unsigned long long total);
};

struct qb_pipeline;

/* A pipeline into L and HOOKS (NULL: lint only), which must outlive it. */
int qb_pipeline_new(struct qb_pipeline **out, struct qb_lint *l,
		    const struct qb_run_hooks *hooks, struct qb_error *err);

/* Reads FILE, the run's file number INDEX, to its end: the reader's
 * findings and every question go to the lint, then the hooks. BASE is
 * the size of the files before it and TOTAL that of all, for progress.
 * Returns 0 or the first error (the reader's, the lint's, a hook's). */
int qb_pipeline_file(struct qb_pipeline *p, const char *file, size_t index,
		     unsigned long long base, unsigned long long total, struct qb_error *err);

void qb_pipeline_free(struct qb_pipeline *p);

/* Runs JOB(A) and JOB(B), two jobs that share nothing they write, at the
 * same time: B on a thread of its own, A on the calling thread (one after
 * the other with QBANK_THREADS=1, or when no thread can be started).
 * Returns A's result when it failed, else B's. qbank diff reads its two
 * sides this way. */
int qb_pipeline_pair(int (*job)(void *arg), void *a, void *b);

#endif
