#include "pipeline.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "core/behind.h"
#include "core/cores.h"
#include "reader.h"
#include "reader_hold.h"

/* Two threads: parsing with schema validation is most of the cost of a
 * run, so a file is read on a thread of its own while the calling thread
 * runs the hooks, and the two halves overlap on two cores. The reader
 * thread hands questions over through a queue of QUEUE_LEN, in file
 * order; the findings the reader makes are carried with the question they
 * came before, so that the linter sees exactly the sequence one thread
 * would. Questions go back to the reader thread through a second queue to
 * be freed (their nodes may hold strings of the parser's dictionary).
 *
 * The rules run beside the question hook, on the calling thread, so that
 * the reader thread has only reading to do and the linter is used by one
 * thread (file begin and end are called before the reader thread starts
 * and after it is joined). Putting them on the reader thread beside the
 * QTI exporter's heavier hook did not pay (tools/bench/README.md).
 *
 * A run without a question hook (qbank lint) reads beside the rules the
 * same way where the machine's cores are near (core/cores.h): the rules
 * are about a quarter of its work, and with wake-ups per BATCH the
 * overlap pays more than the hand-over costs. Where a cache line takes
 * longer between the cores, handing the tree over slows the reader more
 * than the rules weigh, and lint reads and checks on one thread; the
 * exports keep the reader thread, which was as fast or faster there
 * (tools/bench/README.md).
 *
 * The queues are under one mutex, taken once per BATCH questions, not per
 * question: the reader thread gathers what it reads and queues BATCH
 * events at a time (the end of the file at once), and the hooks' side
 * takes every queued event under one lock and gives the questions of a
 * batch back under one more. Locked per question (a wake-up only per
 * BATCH, but four locks a question), the two threads met on the mutex so
 * often that a quarter of the Moodle export's samples were the kernel
 * waking the other thread (tools/bench/README.md). */

#define QUEUE_LEN 32
#define SLOTS (2 * QUEUE_LEN + 2)
#define BATCH 16

struct qb_pipeline {
	struct qb_lint *l;
	const struct qb_run_hooks *h;
	xmlSchemaPtr schema;
	int one_thread;
};

/* ---- findings carried across threads ------------------------------------ */

struct rdiag {
	unsigned long line;
	enum qb_rule_key rule;
	const char *question, *message;  /* point into the same block */
	const char *file;
};

struct rdiags {
	struct rdiag *v;
	size_t n, cap;
	int nomem;
};

static char *put(char *p, const char *s, const char **out)
{
	size_t n = s ? strlen(s) + 1 : 0;

	*out = s ? memcpy(p, s, n) : NULL;
	return p + n;
}

static void collect_diag(void *ctx, const char *file, unsigned long line, enum qb_rule_key rule,
			 const char *question, const char *message)
{
	struct rdiags *d = ctx;
	size_t size = strlen(file) + strlen(message) + 2 +
		      (question ? strlen(question) + 1 : 0);
	struct rdiag *x;
	char *p;

	if (QB_ARRAY_RESERVE(d->v, d->cap, d->n + 1) || !(p = malloc(size))) {
		d->nomem = 1;
		return;
	}
	x = &d->v[d->n++];
	x->line = line;
	p = put(p, file, &x->file);
	x->rule = rule;
	p = put(p, message, &x->message);
	(void)put(p, question, &x->question);
}

static void free_diags(struct rdiags *d)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		free((char *)d->v[i].file);
	free(d->v);
	memset(d, 0, sizeof(*d));
}

/* Replays D into the linter, in the order the reader made them. */
static int replay_diags(struct qb_lint *l, struct rdiags *d)
{
	size_t i;
	int nomem = d->nomem;

	for (i = 0; i < d->n; i++)
		qb_lint_reader_diag(l, d->v[i].file, d->v[i].line, d->v[i].rule,
				    d->v[i].question, d->v[i].message);
	free_diags(d);
	return nomem ? QB_ENOMEM : 0;
}

/* ---- one question, on the hooks' side ----------------------------------- */

/* A question read, as it is handed to the hooks' side. */
struct event {
	const struct qb_question *q;  /* NULL: the end of the file */
	struct rdiags diags;          /* findings made before q, to replay */
	struct qb_bank_info bank;     /* as it was when q was read */
	unsigned long long offset;
	int rc;                       /* with q == NULL: the reader's result */
};

struct file_run {
	const struct qb_run_hooks *h;
	struct qb_lint *l;            /* the rules, when they run on the hooks' side */
	unsigned long long base, total;
	int bank_sent;
	unsigned long count;
};

/* What the reader's thread records of a question it has just read. */
static void event_of(struct event *ev, struct qb_reader *r, const struct qb_question *q, int rc)
{
	memset(ev, 0, sizeof(*ev));
	ev->q = rc == 1 ? q : NULL;
	ev->rc = rc < 0 ? rc : 0;
	ev->bank = *qb_reader_bank(r);
	/* the file's pragmas grow while reading: the linter takes them from
	 * the reader at the end of the file */
	ev->bank.file_pragmas = NULL;
	ev->bank.nfile_pragmas = 0;
	ev->offset = qb_reader_offset(r);
}

static int one_question(struct file_run *f, const struct event *ev, struct qb_error *err)
{
	const struct qb_run_hooks *h = f->h;
	int rc = 0;

	if (h && h->bank && !f->bank_sent) {
		f->bank_sent = 1;
		rc = h->bank(h->ctx, &ev->bank, err);
	}
	if (!rc && f->l)
		rc = qb_lint_question(f->l, ev->q);
	if (!rc && h && h->question && !ev->q->schema_invalid)
		rc = h->question(h->ctx, ev->q, err);
	if (!rc && h && h->progress && (++f->count & 1023) == 0)
		h->progress(h->ctx, f->base + ev->offset, f->total);
	return rc;
}

/* ---- one thread -------------------------------------------------------- */

static int read_here(struct file_run *f, struct qb_reader *r, struct qb_error *err)
{
	const struct qb_question *q;
	struct event ev;
	int rc;

	while ((rc = qb_reader_next(r, &q)) == 1) {
		event_of(&ev, r, q, rc);
		rc = one_question(f, &ev, err);
		if (rc)
			break;
	}
	return rc;
}

/* ---- two threads ------------------------------------------------------- */

struct pipe {
	/* the two queues and the flags, under mu */
	pthread_mutex_t mu;
	pthread_cond_t to_reader, to_hooks;
	struct event queue[QUEUE_LEN];          /* reader -> hooks */
	size_t put, got;
	const struct qb_question *back[SLOTS];  /* hooks -> reader, to be freed */
	size_t back_put, back_got;
	int reader_waits, hooks_wait, stop;

	/* the reader thread's own */
	struct qb_reader *r;
	size_t held;                  /* questions out of its hands */
	struct rdiags pending;        /* findings, until queued */
	struct event mine[BATCH];     /* read, not yet queued */
	size_t nmine;
};

/* The reader thread queues the events it has read (all of them, once
 * there is room: up to BATCH at a time, under one lock), then, when every
 * slot is out (FULL), waits until the hooks' side gives some back; it
 * takes back what was given into FREED. Their number, or SIZE_MAX when
 * told to stop. */
static size_t hand_over(struct pipe *p, int full, const struct qb_question **freed)
{
	size_t i, n = 0;
	int stop;

	pthread_mutex_lock(&p->mu);
	while (!p->stop && QUEUE_LEN - (p->put - p->got) < p->nmine) {
		p->reader_waits = 1;
		pthread_cond_wait(&p->to_reader, &p->mu);
	}
	if (!p->stop && p->nmine) {
		for (i = 0; i < p->nmine; i++)
			p->queue[p->put++ % QUEUE_LEN] = p->mine[i];
		p->nmine = 0;
		if (p->hooks_wait)
			pthread_cond_signal(&p->to_hooks);
	}
	while (!p->stop && full && p->back_put == p->back_got) {
		p->reader_waits = 1;
		pthread_cond_wait(&p->to_reader, &p->mu);
	}
	p->reader_waits = 0;
	for (; p->back_got != p->back_put; p->back_got++)
		freed[n++] = p->back[p->back_got % SLOTS];
	stop = p->stop;
	pthread_mutex_unlock(&p->mu);
	return stop ? SIZE_MAX : n;
}

/* The reader thread: reads to the end, the first error, or a stop. */
static void *read_all(void *arg)
{
	struct pipe *p = arg;
	const struct qb_question *freed[SLOTS];
	int rc = 1;

	while (rc == 1) {
		const struct qb_question *q = NULL;
		struct event *ev;

		if (p->nmine == BATCH || p->held == SLOTS) {
			size_t i, n = hand_over(p, p->held == SLOTS, freed);

			if (n == SIZE_MAX)
				break;
			/* outside the lock: freeing a subtree takes a while */
			for (i = 0; i < n; i++)
				qb_reader_release(p->r, freed[i]);
			p->held -= n;
		}
		rc = qb_reader_next(p->r, &q);
		ev = &p->mine[p->nmine++];
		event_of(ev, p->r, q, rc);
		ev->diags = p->pending;
		memset(&p->pending, 0, sizeof(p->pending));
		p->held += ev->q != NULL;
	}
	/* the end of the file (or the error) goes out at once; what comes
	 * back after it is freed with the reader */
	if (rc != 1)
		(void)hand_over(p, 0, freed);
	return NULL;
}

/* The hooks' side waits for events and takes all that are queued into
 * BATCHED (at most QUEUE_LEN), under one lock; their number. */
static size_t take_events(struct pipe *p, struct event *batched)
{
	size_t n = 0;

	pthread_mutex_lock(&p->mu);
	while (p->put == p->got) {
		p->hooks_wait = 1;
		pthread_cond_wait(&p->to_hooks, &p->mu);
	}
	p->hooks_wait = 0;
	for (; p->got != p->put; p->got++)
		batched[n++] = p->queue[p->got % QUEUE_LEN];
	if (p->reader_waits)
		pthread_cond_signal(&p->to_reader);
	pthread_mutex_unlock(&p->mu);
	return n;
}

/* Gives the N questions of DONE back to the reader thread, to be freed. */
static void give_back(struct pipe *p, const struct qb_question *const *done, size_t n)
{
	size_t i;

	if (!n)
		return;
	pthread_mutex_lock(&p->mu);
	for (i = 0; i < n; i++)
		p->back[p->back_put++ % SLOTS] = done[i];
	if (p->reader_waits)
		pthread_cond_signal(&p->to_reader);
	pthread_mutex_unlock(&p->mu);
}

static void stop_reader(struct pipe *p)
{
	pthread_mutex_lock(&p->mu);
	p->stop = 1;
	pthread_cond_signal(&p->to_reader);
	pthread_mutex_unlock(&p->mu);
}

/* Runs the reader thread over P's reader to its end (or the first error)
 * and hands what it reads to the hooks. */
static int pump(struct file_run *f, struct pipe *p, struct qb_error *err)
{
	struct event batched[QUEUE_LEN];
	const struct qb_question *done[QUEUE_LEN];
	size_t i = 0, n = 0, ndone;
	pthread_t t;
	int rc = 0, end = 0;

	if (pthread_create(&t, NULL, read_all, p) != 0)
		return QB_ENOMEM;
	while (!end && !rc) {
		n = take_events(p, batched);
		ndone = 0;
		for (i = 0; i < n && !end && !rc; i++) {
			struct event *ev = &batched[i];

			rc = replay_diags(f->l, &ev->diags);   /* and frees them */
			if (!ev->q) {
				if (!rc)
					rc = ev->rc;
				end = 1;
				continue;
			}
			if (!rc)
				rc = one_question(f, ev, err);
			done[ndone++] = ev->q;
		}
		give_back(p, done, ndone);
	}
	if (rc && !end)
		stop_reader(p);   /* it may be waiting for room: wake it to quit */
	pthread_join(t, NULL);
	/* after the join the queues are ours alone */
	for (; i < n; i++)
		free_diags(&batched[i].diags);
	for (; p->got != p->put; p->got++)
		free_diags(&p->queue[p->got % QUEUE_LEN].diags);
	for (i = 0; i < p->nmine; i++)
		free_diags(&p->mine[i].diags);
	return rc;
}

static int read_beside(struct file_run *f, struct pipe *p, struct qb_error *err)
{
	int rc = qb_reader_hold(p->r, SLOTS);

	if (rc)
		return rc;
	if (pthread_mutex_init(&p->mu, NULL) != 0)
		return QB_ENOMEM;
	if (pthread_cond_init(&p->to_reader, NULL) != 0) {
		pthread_mutex_destroy(&p->mu);
		return QB_ENOMEM;
	}
	if (pthread_cond_init(&p->to_hooks, NULL) != 0) {
		pthread_cond_destroy(&p->to_reader);
		pthread_mutex_destroy(&p->mu);
		return QB_ENOMEM;
	}
	rc = pump(f, p, err);
	pthread_cond_destroy(&p->to_hooks);
	pthread_cond_destroy(&p->to_reader);
	pthread_mutex_destroy(&p->mu);
	return rc;
}

/* ---- the pipeline ------------------------------------------------------ */

int qb_pipeline_new(struct qb_pipeline **out, struct qb_lint *l,
		    const struct qb_run_hooks *hooks, struct qb_error *err)
{
	struct qb_pipeline *p = calloc(1, sizeof(*p));
	int rc;

	*out = NULL;
	if (!p)
		return QB_ENOMEM;
	rc = qb_schema_load(&p->schema, err);
	if (rc) {
		free(p);
		return rc;
	}
	p->l = l;
	p->h = hooks;
	/* lint alone (no question hook) reads beside the rules only between
	 * near cores: elsewhere the hand-over costs more than the rules */
	p->one_thread = hooks && hooks->question ? qb_threads_one() : !qb_cores_near();
	*out = p;
	return 0;
}

void qb_pipeline_free(struct qb_pipeline *p)
{
	if (!p)
		return;
	qb_schema_free(p->schema);
	free(p);
}

int qb_pipeline_file(struct qb_pipeline *pl, const char *file, size_t index,
		     unsigned long long base, unsigned long long total, struct qb_error *err)
{
	const struct qb_run_hooks *h = pl->h;
	struct file_run f = { h, pl->l, base, total, 0, 0 };
	struct qb_reader_opts ro = { pl->schema, index, qb_lint_reader_diag, pl->l };
	struct qb_reader *r = NULL;
	struct pipe *p = NULL;
	int rc;

	/* With a reader thread, its findings are collected and replayed to
	 * the linter on the hooks' side, in their place among the questions. */
	if (!pl->one_thread) {
		p = calloc(1, sizeof(*p));
		if (!p)
			return QB_ENOMEM;
		ro.on_diag = collect_diag;
		ro.diag_ctx = &p->pending;
	}
	rc = qb_reader_open(&r, file, &ro, err);
	if (!rc && p)
		rc = replay_diags(pl->l, &p->pending);  /* the prolog's, before the file begins */
	if (rc)
		goto done;
	rc = qb_lint_file_begin(pl->l, file, index);
	if (!rc && p) {
		p->r = r;
		rc = read_beside(&f, p, err);
	} else if (!rc) {
		rc = read_here(&f, r, err);
	}
	if (!rc && h && h->bank && !f.bank_sent)
		rc = h->bank(h->ctx, qb_reader_bank(r), err);
	if (!rc)
		rc = qb_lint_file_end(pl->l, qb_reader_bank(r));
	if (rc == QB_ENOMEM && !err->msg[0])
		qb_error_set(err, rc, "%s: out of memory", file);
done:
	if (p)
		free_diags(&p->pending);
	qb_reader_free(r);
	free(p);
	return rc;
}

/* ---- two independent jobs ------------------------------------------------ */

struct pair_job {
	int (*job)(void *arg);
	void *arg;
	int rc;
};

static void *pair_main(void *arg)
{
	struct pair_job *j = arg;

	j->rc = j->job(j->arg);
	return NULL;
}

int qb_pipeline_pair(int (*job)(void *arg), void *a, void *b)
{
	struct pair_job jb = { job, b, 0 };
	pthread_t t;
	int rc;

	if (qb_threads_one() || pthread_create(&t, NULL, pair_main, &jb) != 0) {
		rc = job(a);
		return rc ? rc : job(b);
	}
	rc = job(a);
	pthread_join(t, NULL);
	return rc ? rc : jb.rc;
}
