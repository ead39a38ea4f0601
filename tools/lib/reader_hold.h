/* Holding questions past the next read, for the pipeline (pipeline.c),
 * which reads on one thread and lints or exports on another; everything
 * else reads one question at a time (reader.h).
 * Ownership: a held question still belongs to the reader; it is freed when
 * it is given back, or by qb_reader_free. */
#ifndef QB_READER_HOLD_H
#define QB_READER_HOLD_H

#include <stddef.h>

#include "model.h"

struct qb_reader;   /* reader.h */

/* Lets the caller hold up to N questions at once (before the first
 * qb_reader_next): each then stays valid until it is given back with
 * qb_reader_release, and qb_reader_next returns QB_EINVAL while N are
 * held. */
int qb_reader_hold(struct qb_reader *r, size_t n);

/* Gives back question Q of a reader that holds questions. Call it on the
 * thread that calls qb_reader_next: the question's nodes may hold strings
 * of the parser's dictionary, which that thread keeps adding to. */
void qb_reader_release(struct qb_reader *r, const struct qb_question *q);

#endif
