#include "behind.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct block {
	void *data;
	size_t len;
};

struct qb_behind {
	qb_behind_fn fn;
	qb_behind_release_fn release;   /* NULL: free() on the queue's thread */
	void *ctx;
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t more;   /* to the thread: a block, or quit */
	pthread_cond_t room;   /* to the caller: the queue half or wholly empty */
	/* under mu: the ring (a block leaves it once run, or with a release
	 * function once released: the first NDONE have run), the bytes of the
	 * blocks not yet run, the function's first error, and quit */
	struct block *ring;
	size_t cap, head, n, ndone;
	size_t bytes, max_bytes;
	int rc;
	struct qb_error err;
	int quit;
};

int qb_threads_setting(void)
{
	const char *v = getenv("QBANK_THREADS");

	if (v && strcmp(v, "1") == 0)
		return 1;
	return v && strcmp(v, "2") == 0 ? 2 : 0;
}

int qb_threads_one(void)
{
	return qb_threads_setting() == 1;
}

/* The ring's slot K places after the head. */
static size_t slot(const struct qb_behind *b, size_t k)
{
	size_t at = b->head + k;

	return at >= b->cap ? at - b->cap : at;
}

static void *run(void *arg)
{
	struct qb_behind *b = arg;
	struct qb_error err = { 0, "" };

	pthread_mutex_lock(&b->mu);
	for (;;) {
		struct block k;
		int rc = 0, skip;

		while (b->n == b->ndone && !b->quit)
			pthread_cond_wait(&b->more, &b->mu);
		if (b->n == b->ndone)
			break;
		k = b->ring[slot(b, b->ndone)];
		skip = b->rc || b->quit;      /* after an error, or abandoned */
		pthread_mutex_unlock(&b->mu);

		if (!skip)
			rc = b->fn(b->ctx, k.data, k.len, &err);
		if (!b->release)
			free(k.data);

		pthread_mutex_lock(&b->mu);
		if (b->release) {
			b->ndone++;               /* the caller releases it */
		} else {
			b->head = slot(b, 1);
			b->n--;
		}
		b->bytes -= k.len;
		if (rc) {                     /* the first: later ones are skipped */
			b->rc = rc;
			b->err = err;
		}
		if (b->n - b->ndone == b->cap / 2 || b->n == b->ndone || rc)
			pthread_cond_signal(&b->room);
	}
	pthread_mutex_unlock(&b->mu);
	return NULL;
}

int qb_behind_open(struct qb_behind **out, qb_behind_fn fn, void *ctx, size_t max_blocks,
		   size_t max_bytes)
{
	struct qb_behind *b = calloc(1, sizeof(*b));

	*out = NULL;
	if (!b)
		return QB_ENOMEM;
	b->fn = fn;
	b->ctx = ctx;
	b->cap = max_blocks < 2 ? 2 : max_blocks;
	b->max_bytes = max_bytes;
	b->ring = calloc(b->cap, sizeof(*b->ring));
	if (!b->ring || pthread_mutex_init(&b->mu, NULL) != 0) {
		free(b->ring);
		free(b);
		return QB_ENOMEM;
	}
	if (pthread_cond_init(&b->more, NULL) != 0)
		goto no_more;
	if (pthread_cond_init(&b->room, NULL) != 0)
		goto no_room;
	if (pthread_create(&b->thread, NULL, run, b) != 0)
		goto no_thread;
	*out = b;
	return 0;
no_thread:
	pthread_cond_destroy(&b->room);
no_room:
	pthread_cond_destroy(&b->more);
no_more:
	pthread_mutex_destroy(&b->mu);
	free(b->ring);
	free(b);
	return QB_ENOMEM;
}

void qb_behind_on_release(struct qb_behind *b, qb_behind_release_fn release)
{
	pthread_mutex_lock(&b->mu);
	b->release = release;
	pthread_mutex_unlock(&b->mu);
}

/* A block the queue is done with: on the caller's thread. */
static void let_go(struct qb_behind *b, void *block)
{
	if (b->release)
		b->release(b->ctx, block);
	else
		free(block);
}

/* Under mu, on the caller's thread: releases the blocks that have run
 * (none without a release function); mu is let go around each release. */
static void take_done(struct qb_behind *b)
{
	while (b->ndone > 0) {
		void *data = b->ring[b->head].data;

		b->head = slot(b, 1);
		b->n--;
		b->ndone--;
		pthread_mutex_unlock(&b->mu);
		b->release(b->ctx, data);
		pthread_mutex_lock(&b->mu);
	}
}

/* The function's first error, under mu. */
static int error_of(struct qb_behind *b, struct qb_error *err)
{
	if (b->rc && err)
		*err = b->err;
	return b->rc;
}

int qb_behind_push(struct qb_behind *b, void *block, size_t len, struct qb_error *err)
{
	int rc;

	pthread_mutex_lock(&b->mu);
	if (b->n - b->ndone == b->cap)
		while (b->n - b->ndone > b->cap / 2 && !b->rc)
			pthread_cond_wait(&b->room, &b->mu);
	if (b->bytes + len > b->max_bytes)
		while (b->n > b->ndone && !b->rc)
			pthread_cond_wait(&b->room, &b->mu);
	take_done(b);
	rc = error_of(b, err);
	if (!rc) {
		b->ring[slot(b, b->n)] = (struct block){ block, len };
		b->bytes += len;
		if (++b->n == 1)
			pthread_cond_signal(&b->more);
	}
	pthread_mutex_unlock(&b->mu);
	if (rc)
		let_go(b, block);
	return rc;
}

int qb_behind_drain(struct qb_behind *b, struct qb_error *err)
{
	int rc;

	pthread_mutex_lock(&b->mu);
	while (b->n > b->ndone)
		pthread_cond_wait(&b->room, &b->mu);
	take_done(b);
	rc = error_of(b, err);
	pthread_mutex_unlock(&b->mu);
	return rc;
}

int qb_behind_error(struct qb_behind *b, struct qb_error *err)
{
	int rc;

	pthread_mutex_lock(&b->mu);
	rc = error_of(b, err);
	pthread_mutex_unlock(&b->mu);
	return rc;
}

void qb_behind_close(struct qb_behind *b)
{
	size_t i;

	if (!b)
		return;
	pthread_mutex_lock(&b->mu);
	b->quit = 1;
	pthread_cond_signal(&b->more);
	pthread_mutex_unlock(&b->mu);
	pthread_join(b->thread, NULL);
	for (i = 0; i < b->n; i++)
		let_go(b, b->ring[slot(b, i)].data);
	pthread_cond_destroy(&b->room);
	pthread_cond_destroy(&b->more);
	pthread_mutex_destroy(&b->mu);
	free(b->ring);
	free(b);
}
