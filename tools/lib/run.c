#include "run.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "reader.h"

/* Each file is read on a thread of its own while the calling thread lints
 * and exports: parsing with schema validation is most of the cost, and the
 * two halves then overlap on two cores. The reader thread hands questions
 * over through a small ring, in file order; findings the reader makes are
 * carried with the question they came before, so the linter sees exactly
 * the sequence a single thread would. Questions go back to the reader
 * thread through a second ring to be freed (their nodes belong to the
 * parser's document).
 * When the caller exports to a format that costs more to write than to
 * read, the rules run on the reader thread instead, so that the exporter
 * has the other core to itself; the linter is then used
 * by one thread at a time all the same (file begin and end are called
 * before the thread starts and after it is joined).
 *
 * Each ring has one writer and one reader and needs no lock: a thread
 * takes the mutex only to sleep, and wakes the other only once BATCH
 * questions (or the end) are ready for it. (A lock taken per question made
 * the threads wait on each other tens of thousands of times a run.) */

#define QUEUE_LEN 32
#define SLOTS (2 * QUEUE_LEN + 2)
#define BATCH 16

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

struct event {
	const struct qb_question *q;  /* NULL: the end of the file */
	struct rdiags diags;          /* findings made before q */
	struct qb_bank_info bank;     /* as it was when q was read */
	unsigned long long offset;
	int rc;                       /* with q == NULL: the reader's result */
};

struct pipe {
	/* reader -> linter: events; the reader advances put, the linter got */
	struct event queue[QUEUE_LEN];
	atomic_size_t put, got;
	/* linter -> reader: the questions it is done with */
	const struct qb_question *back[SLOTS];
	atomic_size_t back_put, back_got;
	size_t held;                  /* the reader's count of questions out of its hands */
	atomic_int stop;
	/* sleeping, and waking the other thread */
	pthread_mutex_t mu;
	pthread_cond_t to_reader, to_linter;
	atomic_int reader_sleeps, linter_sleeps;

	struct qb_reader *r;
	struct rdiags pending;        /* the reader thread's, until queued */
	struct qb_lint *lint_here;    /* non-NULL: the reader thread runs the rules */
};

static unsigned long long total_size(const char *const *files, size_t n)
{
	unsigned long long t = 0;
	struct stat st;
	size_t i;

	for (i = 0; i < n; i++)
		if (stat(files[i], &st) == 0 && S_ISREG(st.st_mode))
			t += (unsigned long long)st.st_size;
	return t;
}

/* ---- findings carried across threads ------------------------------------ */

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

	if (d->n == d->cap) {
		size_t cap = d->cap ? d->cap * 2 : 4;
		struct rdiag *v = realloc(d->v, cap * sizeof(*v));

		if (!v) {
			d->nomem = 1;
			return;
		}
		d->v = v;
		d->cap = cap;
	}
	p = malloc(size);
	if (!p) {
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

/* ---- sleeping and waking ------------------------------------------------ */

/* Sleeps until READY(P) holds. SLEEPS is set before READY is looked at
 * again, and the other thread makes its progress visible before it looks
 * at SLEEPS (all sequentially consistent), so one of the two sees the
 * other: either this thread sees the progress and does not sleep, or the
 * other sees it asleep and signals, under the mutex that this thread holds
 * until it waits. */
static void sleep_until(struct pipe *p, atomic_int *sleeps, pthread_cond_t *cv,
			int (*ready)(struct pipe *))
{
	if (ready(p))
		return;
	pthread_mutex_lock(&p->mu);
	atomic_store(sleeps, 1);
	while (!ready(p))
		pthread_cond_wait(cv, &p->mu);
	atomic_store(sleeps, 0);
	pthread_mutex_unlock(&p->mu);
}

static void wake(struct pipe *p, pthread_cond_t *cv)
{
	pthread_mutex_lock(&p->mu);
	pthread_cond_signal(cv);
	pthread_mutex_unlock(&p->mu);
}

/* The reader may read on: there is room in the queue and a free slot. */
static int reader_may_go(struct pipe *p)
{
	return atomic_load(&p->stop) ||
	       (atomic_load(&p->put) - atomic_load(&p->got) < QUEUE_LEN &&
		(p->held < SLOTS || atomic_load(&p->back_put) != atomic_load(&p->back_got)));
}

static int linter_may_go(struct pipe *p)
{
	return atomic_load(&p->put) != atomic_load(&p->got);
}

/* ---- the reader thread ----------------------------------------------- */

/* Frees the questions the linter is done with. */
static void take_back(struct pipe *p)
{
	size_t i = atomic_load_explicit(&p->back_got, memory_order_relaxed);
	size_t n = atomic_load_explicit(&p->back_put, memory_order_acquire);

	for (; i != n; i++) {
		qb_reader_release(p->r, p->back[i % SLOTS]);
		p->held--;
	}
	atomic_store_explicit(&p->back_got, n, memory_order_release);
}

/* Queues EV for the linter. There is room: read_all waited for it before
 * reading, and only this thread fills the queue. */
static void queue_event(struct pipe *p, const struct event *ev)
{
	size_t put = atomic_load_explicit(&p->put, memory_order_relaxed);

	p->queue[put % QUEUE_LEN] = *ev;
	if (ev->q)
		p->held++;
	atomic_store(&p->put, put + 1);
	if (atomic_load(&p->linter_sleeps) &&
	    (put + 1 - atomic_load(&p->got) >= BATCH || !ev->q))
		wake(p, &p->to_linter);
}

static void *read_all(void *arg)
{
	struct pipe *p = arg;
	int rc;

	do {
		struct event ev;
		const struct qb_question *q = NULL;

		sleep_until(p, &p->reader_sleeps, &p->to_reader, reader_may_go);
		take_back(p);
		if (atomic_load(&p->stop))
			break;
		rc = qb_reader_next(p->r, &q);
		if (p->lint_here) {
			int lrc = replay_diags(p->lint_here, &p->pending);

			if (!lrc && rc == 1)
				lrc = qb_lint_question(p->lint_here, q);
			if (lrc)
				rc = lrc;
		}
		memset(&ev, 0, sizeof(ev));
		ev.q = rc == 1 ? q : NULL;
		ev.rc = rc < 0 ? rc : 0;
		ev.diags = p->pending;
		memset(&p->pending, 0, sizeof(p->pending));
		ev.bank = *qb_reader_bank(p->r);
		/* the file's pragmas grow while reading: the linter takes them
		 * from the reader at the end, when the thread is gone */
		ev.bank.file_pragmas = NULL;
		ev.bank.nfile_pragmas = 0;
		ev.offset = qb_reader_offset(p->r);
		queue_event(p, &ev);
	} while (rc == 1);
	return NULL;
}

/* ---- the linting thread (the caller's) -------------------------------- */

static struct event next_event(struct pipe *p)
{
	size_t got = atomic_load_explicit(&p->got, memory_order_relaxed);
	struct event ev;

	sleep_until(p, &p->linter_sleeps, &p->to_linter, linter_may_go);
	ev = p->queue[got % QUEUE_LEN];
	atomic_store(&p->got, got + 1);
	if (atomic_load(&p->reader_sleeps) &&
	    atomic_load(&p->put) - (got + 1) <= QUEUE_LEN - BATCH)
		wake(p, &p->to_reader);
	return ev;
}

static void give_back(struct pipe *p, const struct qb_question *q)
{
	size_t n = atomic_load_explicit(&p->back_put, memory_order_relaxed);

	p->back[n % SLOTS] = q;
	atomic_store(&p->back_put, n + 1);
	/* the reader waits for a slot only when every one is out */
	if (atomic_load(&p->reader_sleeps) && n + 1 - atomic_load(&p->back_got) >= BATCH)
		wake(p, &p->to_reader);
}

static void stop_reader(struct pipe *p)
{
	atomic_store(&p->stop, 1);
	wake(p, &p->to_reader);
}

struct file_run {
	struct qb_lint *l;            /* NULL when the reader thread lints */
	const struct qb_run_hooks *h;
	unsigned long long base, total;
	int bank_sent;
	unsigned long count;
};

static int one_question(struct file_run *f, const struct event *ev)
{
	const struct qb_run_hooks *h = f->h;
	int rc = 0;

	if (h && h->bank && !f->bank_sent) {
		f->bank_sent = 1;
		rc = h->bank(h->ctx, &ev->bank);
	}
	if (!rc && f->l)
		rc = qb_lint_question(f->l, ev->q);
	if (!rc && h && h->question && !ev->q->schema_invalid)
		rc = h->question(h->ctx, ev->q);
	if (!rc && h && h->progress && (++f->count & 1023) == 0)
		h->progress(h->ctx, f->base + ev->offset, f->total);
	return rc;
}

/* Runs the reader thread over an open reader to its end (or the first
 * error) and lints what it hands over. */
static int pump(struct file_run *f, struct pipe *p)
{
	pthread_t t;
	int rc = 0;

	if (pthread_create(&t, NULL, read_all, p) != 0)
		return QB_ENOMEM;
	for (;;) {
		struct event ev = next_event(p);

		if (f->l)
			rc = replay_diags(f->l, &ev.diags);   /* and frees them */
		else
			free_diags(&ev.diags);   /* none: the reader thread replayed them */
		if (!ev.q) {
			if (!rc)
				rc = ev.rc;
			break;
		}
		if (!rc)
			rc = one_question(f, &ev);
		give_back(p, ev.q);
		if (rc) {
			/* the reader thread may be waiting for room: wake it to quit */
			stop_reader(p);
			break;
		}
	}
	pthread_join(t, NULL);
	/* after the join the queue is ours alone */
	for (; atomic_load(&p->got) != atomic_load(&p->put); atomic_fetch_add(&p->got, 1))
		free_diags(&p->queue[atomic_load(&p->got) % QUEUE_LEN].diags);
	return rc;
}

static int run_file(struct qb_lint *l, xmlSchemaPtr schema, const char *file, size_t index,
		    const struct qb_run_hooks *h, unsigned long long base,
		    unsigned long long total, struct qb_error *err)
{
	struct pipe p;
	struct qb_reader_opts ro = { schema, index, collect_diag, &p.pending, SLOTS };
	struct file_run f = { l, h, base, total, 0, 0 };
	int rc;

	memset(&p, 0, sizeof(p));
	rc = qb_reader_open(&p.r, file, &ro, err);
	if (!rc)
		rc = replay_diags(l, &p.pending);  /* the prolog's, before the file begins */
	if (rc) {
		free_diags(&p.pending);
		qb_reader_free(p.r);
		return rc;
	}
	pthread_mutex_init(&p.mu, NULL);
	pthread_cond_init(&p.to_reader, NULL);
	pthread_cond_init(&p.to_linter, NULL);
	/* The rules go to the lighter half: beside a question hook that costs
	 * more than reading, the reader thread runs them too. */
	if (h && h->question && !h->light) {
		p.lint_here = l;
		f.l = NULL;
	}
	rc = qb_lint_file_begin(l, file, index);
	if (!rc)
		rc = pump(&f, &p);
	if (!rc && h && h->bank && !f.bank_sent)
		rc = h->bank(h->ctx, qb_reader_bank(p.r));
	if (!rc)
		rc = qb_lint_file_end(l, qb_reader_bank(p.r));
	if (rc == QB_ENOMEM)
		qb_error_set(err, rc, "%s: out of memory", file);
	free_diags(&p.pending);
	pthread_cond_destroy(&p.to_linter);
	pthread_cond_destroy(&p.to_reader);
	pthread_mutex_destroy(&p.mu);
	qb_reader_free(p.r);
	return rc;
}

int qb_run(struct qb_lint *l, const char *const *files, size_t nfiles,
	   const struct qb_run_hooks *hooks, struct qb_error *err)
{
	xmlSchemaPtr schema = NULL;
	unsigned long long total, base = 0;
	struct stat st;
	size_t i;
	int rc;

	rc = qb_schema_load(&schema, err);
	if (rc)
		return rc;
	total = total_size(files, nfiles);
	for (i = 0; i < nfiles && !rc; i++) {
		rc = run_file(l, schema, files[i], i, hooks, base, total, err);
		if (stat(files[i], &st) == 0)
			base += (unsigned long long)st.st_size;
		if (!rc && hooks && hooks->progress)
			hooks->progress(hooks->ctx, base, total);
	}
	qb_schema_free(schema);
	if (!rc)
		rc = qb_lint_finish(l);
	return rc;
}
