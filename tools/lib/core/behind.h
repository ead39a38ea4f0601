/* Work behind the caller: blocks of bytes handed, in the order they came,
 * to a function that runs on a thread of its own (writing them to a file,
 * compressing them into an archive), so that the caller goes on producing
 * the next while the last is written. The bytes that reach the function,
 * and their order, are those the caller gave: a caller that writes
 * without the queue (QBANK_THREADS=1, qb_threads_one) writes the same.
 *
 * The first error the function returns is kept; every later block is
 * freed unrun, and the next push or drain returns the error with its
 * message. One producer: the queue is not for several callers at once.
 * Ownership: a block belongs to the queue from the push (freed with free()
 * once run or dropped, or given to the release function); the function's
 * context stays the caller's. */
#ifndef QB_BEHIND_H
#define QB_BEHIND_H

#include <stddef.h>

#include "../error.h"

struct qb_behind;

/* Runs on the queue's thread, once a block: BLOCK of LEN bytes (the
 * caller's count; a block may hold more, e.g. a name after the data).
 * Returns 0 or an error code with ERR set. */
typedef int (*qb_behind_fn)(void *ctx, const void *block, size_t len, struct qb_error *err);

/* Gives back a block the queue is done with (run, or dropped after an
 * error or at close) on the caller's thread, in the order they came: for
 * blocks the queue's thread may not free, e.g. a libxml2 subtree whose
 * strings are in the dictionary of a parser the caller goes on using. */
typedef void (*qb_behind_release_fn)(void *ctx, void *block);

/* QBANK_THREADS in the environment: 1 asks for everything on the calling
 * thread (the reference the threaded run must match byte for byte), 2 for
 * the second thread wherever qbank can use one (core/cores.h); 0 when
 * unset or any other value. */
int qb_threads_setting(void);
/* 1 when qb_threads_setting() is 1, 0 otherwise. */
int qb_threads_one(void);

/* A queue into FN(CTX) holding at most MAX_BLOCKS blocks and MAX_BYTES
 * bytes of them (the block being run counts): a push past MAX_BLOCKS
 * waits until half of them have run, one past MAX_BYTES until all have
 * (so a single block may exceed it). Returns 0, or QB_ENOMEM when the
 * thread cannot be started. */
int qb_behind_open(struct qb_behind **out, qb_behind_fn fn, void *ctx, size_t max_blocks,
		   size_t max_bytes);
/* Blocks are given to RELEASE(CTX) instead of free() (call it before the
 * first push): those that have run at each push and drain, the rest at
 * close, and a block a push refuses at once. */
void qb_behind_on_release(struct qb_behind *b, qb_behind_release_fn release);
/* Queues BLOCK (malloc'd; the queue frees it, also on error) of LEN bytes.
 * Returns 0, or the function's first error (ERR set) once one happened. */
int qb_behind_push(struct qb_behind *b, void *block, size_t len, struct qb_error *err);
/* Waits until every queued block has run; afterwards, until the next
 * push, what the function writes to is the caller's again. Returns 0 or
 * the function's first error (ERR set). */
int qb_behind_drain(struct qb_behind *b, struct qb_error *err);
/* The function's first error code, 0 when none (ERR set when not NULL). */
int qb_behind_error(struct qb_behind *b, struct qb_error *err);
/* Ends the thread: blocks still queued are freed unrun. Accepts NULL. */
void qb_behind_close(struct qb_behind *b);

#endif
