/* A string arena: many small allocations (a question's ids, names and
 * texts) that are freed all at once. Pointers stay valid until the arena
 * is reset or disposed; reset keeps the chunks for reuse, so a reader that
 * resets it per question stops allocating once warmed up. Strings that
 * must be addressed by offset (records that outlive a pointer) go in a
 * qb_buf instead (buf.h).
 * Ownership: the arena owns its chunks; the struct is the caller's. */
#ifndef QB_ARENA_H
#define QB_ARENA_H

#include <stddef.h>

struct qb_arena_chunk;

struct qb_arena {
	struct qb_arena_chunk *head;
};

#define QB_ARENA_INIT { NULL }

/* N bytes aligned to 8, or NULL when out of memory. */
void *qb_arena_alloc(struct qb_arena *a, size_t n);
/* A NUL-terminated copy of S[0..n), or NULL when out of memory. */
char *qb_arena_strndup(struct qb_arena *a, const char *s, size_t n);
/* Forgets every allocation and keeps the memory for the next ones. */
void qb_arena_reset(struct qb_arena *a);
/* Frees everything; the arena can be used again afterwards. */
void qb_arena_dispose(struct qb_arena *a);

#endif
