#include "arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK 4096

struct qb_arena_chunk {
	struct qb_arena_chunk *next;
	size_t used, cap;
	char data[];
};

void *qb_arena_alloc(struct qb_arena *a, size_t n)
{
	struct qb_arena_chunk *c = a->head;

	if (n > SIZE_MAX - 8 - sizeof(*c))
		return NULL;
	n = (n + 7) & ~(size_t)7;
	while (c && c->cap - c->used < n)
		c = c->next;
	if (!c) {
		size_t cap = n > CHUNK ? n : CHUNK;

		c = malloc(sizeof(*c) + cap);
		if (!c)
			return NULL;
		c->used = 0;
		c->cap = cap;
		c->next = a->head;
		a->head = c;
	}
	c->used += n;
	return c->data + c->used - n;
}

char *qb_arena_strndup(struct qb_arena *a, const char *s, size_t n)
{
	char *p = n < SIZE_MAX ? qb_arena_alloc(a, n + 1) : NULL;

	if (!p)
		return NULL;
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

void qb_arena_reset(struct qb_arena *a)
{
	struct qb_arena_chunk *c;

	for (c = a->head; c; c = c->next)
		c->used = 0;
}

void qb_arena_dispose(struct qb_arena *a)
{
	struct qb_arena_chunk *c = a->head, *n;

	while (c) {
		n = c->next;
		free(c);
		c = n;
	}
	a->head = NULL;
}
