/* Whether this machine's cores share data cheaply. Handing a question's
 * tree to a thread on another core moves every cache line of it between
 * the cores, and the reader, reusing that memory for the next question,
 * moves them back; where that costs more than the work the other core
 * takes over, one thread is faster (tools/bench/README.md, "The reader
 * thread and the distance between cores"). */
#ifndef QB_CORES_H
#define QB_CORES_H

/* The round trip under which two cores count as near, in nanoseconds. */
#define QB_CORES_NEAR_NS 250

/* The time of one round trip of a cache line between this thread and a
 * second one, in nanoseconds, measured once per process (1,000 round
 * trips, at most a few milliseconds); 0 when it could not be measured:
 * one processor for this process, no second thread, or the second thread
 * not running beside this one within the time allowed (a loaded machine). */
unsigned long qb_cores_round_trip_ns(void);

/* Whether to hand questions' trees to a second thread: 1 with
 * QBANK_THREADS=2, 0 with QBANK_THREADS=1 (core/behind.h), and otherwise
 * 1 when a round trip was measured under QB_CORES_NEAR_NS. */
int qb_cores_near(void);

#endif
