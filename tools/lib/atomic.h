/* Atomic output files: everything is written to a temporary file in the
 * target's folder and renamed over the target only when complete, so a
 * failed export never leaves a partial file and an older output survives.
 * With no path, the bytes are spooled and copied to standard output on
 * commit (nothing is printed when the export fails). The temporary file is
 * registered (tempfile.h), so that an interrupted run removes it too.
 * A file's bytes are written behind, by a thread of its own (atomic.c): a
 * failed write shows at a later write to the stream or at the commit.
 * Ownership: qb_atomic_commit and qb_atomic_abort both free the writer. */
#ifndef QB_ATOMIC_H
#define QB_ATOMIC_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "error.h"

struct qb_atomic;

int qb_atomic_open(struct qb_atomic **out, const char *path, struct qb_error *err);
FILE *qb_atomic_file(struct qb_atomic *a);
const char *qb_atomic_path(const struct qb_atomic *a);   /* target, or "-" */
/* The errno of the first write to the temporary file that failed (e.g.
 * ENOSPC), 0 when none has failed or the output is spooled. */
int qb_atomic_write_error(const struct qb_atomic *a);
/* Appends N bytes of FROM, from its position (UINT64_MAX: up to its end),
 * to the output after what its stream holds (fcopy.h): inside the kernel
 * into a temporary file where it can, through the stream otherwise. Returns
 * 0 or QB_EIO (qb_atomic_write_error says why when the write failed). */
int qb_atomic_copy(struct qb_atomic *a, FILE *from, uint64_t n);
/* Flushes, syncs and closes (every result checked), then renames into place. */
int qb_atomic_commit(struct qb_atomic *a, struct qb_error *err);
/* Commits the N writers of V (NULL entries are skipped) as one: every file
 * is completed first, and only when all of them are do the renames
 * follow, with the signal handler held off until the last (tempfile.h),
 * so that neither a failed write nor an interrupt leaves some outputs new
 * and others old. Frees every writer and sets V's entries to NULL. */
int qb_atomic_commit_all(struct qb_atomic **v, size_t n, struct qb_error *err);
/* Closes and removes the temporary file; accepts NULL. */
void qb_atomic_abort(struct qb_atomic *a);

#endif
