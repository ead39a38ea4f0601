#define _GNU_SOURCE
#include "cores.h"

#include "behind.h"

#include <pthread.h>
#include <sched.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#define ROUNDS 1000
#define DEADLINE_NS 5000000ULL   /* for the whole measure, start-up included */

/* The ball and the flag on lines of their own, so that a round trip moves
 * one line each way and nothing else. */
struct court {
	alignas(64) atomic_int ball;   /* 1: the partner's to return, 0: ours */
	alignas(64) atomic_int quit;
};

static unsigned long long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (unsigned long long)t.tv_sec * 1000000000ULL + (unsigned long long)t.tv_nsec;
}

static void *partner(void *arg)
{
	struct court *c = arg;

	while (!atomic_load_explicit(&c->quit, memory_order_relaxed))
		if (atomic_load_explicit(&c->ball, memory_order_acquire) == 1)
			atomic_store_explicit(&c->ball, 0, memory_order_release);
	return NULL;
}

/* Serves the ball and waits for it to come back, until the deadline;
 * 0 on time, -1 past it. */
static int serve(struct court *c, unsigned long long deadline)
{
	unsigned spins = 0;

	atomic_store_explicit(&c->ball, 1, memory_order_release);
	while (atomic_load_explicit(&c->ball, memory_order_acquire) != 0)
		if ((++spins & 255) == 0 && now_ns() > deadline)
			return -1;
	return 0;
}

/* Sets CPUS to one processor this process may run on other than the one
 * this thread is on; 0, or -1 when there is none. */
static int other_cpu(cpu_set_t *cpus)
{
	cpu_set_t mine;
	int here = sched_getcpu(), i;

	if (sched_getaffinity(0, sizeof(mine), &mine) != 0)
		return -1;
	for (i = 0; i < CPU_SETSIZE; i++)
		if (i != here && CPU_ISSET(i, &mine)) {
			CPU_ZERO(cpus);
			CPU_SET(i, cpus);
			return 0;
		}
	return -1;
}

static unsigned long measure(void)
{
	struct court *c;
	cpu_set_t cpus;
	pthread_attr_t attr;
	pthread_t t;
	unsigned long long start, deadline;
	unsigned long ns = 0;
	int i, rc = 0;

	if (other_cpu(&cpus) != 0)
		return 0;
	c = aligned_alloc(64, sizeof(*c));
	if (!c)
		return 0;
	atomic_init(&c->ball, 0);
	atomic_init(&c->quit, 0);
	/* the partner on another processor from the start: left to the
	 * scheduler it may begin on this one and wait there for milliseconds */
	if (pthread_attr_init(&attr) != 0) {
		free(c);
		return 0;
	}
	rc = pthread_attr_setaffinity_np(&attr, sizeof(cpus), &cpus) != 0 ||
	     pthread_create(&t, &attr, partner, c) != 0;
	pthread_attr_destroy(&attr);
	if (rc) {
		free(c);
		return 0;
	}
	deadline = now_ns() + DEADLINE_NS;
	rc = serve(c, deadline);           /* the partner is running */
	start = now_ns();
	for (i = 0; i < ROUNDS && !rc; i++)
		rc = serve(c, deadline);
	if (!rc)
		ns = (unsigned long)((now_ns() - start) / ROUNDS) + 1;  /* never 0 */
	atomic_store_explicit(&c->quit, 1, memory_order_relaxed);
	pthread_join(t, NULL);
	free(c);
	return ns;
}

static unsigned long measured;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void measure_once(void)
{
	measured = measure();
}

unsigned long qb_cores_round_trip_ns(void)
{
	pthread_once(&once, measure_once);
	return measured;
}

int qb_cores_near(void)
{
	int setting = qb_threads_setting();
	unsigned long ns;

	if (setting)
		return setting == 2;
	ns = qb_cores_round_trip_ns();
	return ns != 0 && ns < QB_CORES_NEAR_NS;
}
