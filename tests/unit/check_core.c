/* The core containers: growable arrays, the hash index, the string arena
 * and big buffers (tools/lib/core/). */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../tools/lib/core/arena.h"
#include "../../tools/lib/core/array.h"
#include "../../tools/lib/core/behind.h"
#include "../../tools/lib/core/buf.h"
#include "../../tools/lib/core/cores.h"
#include "../../tools/lib/core/map.h"
#include "check_suites.h"

START_TEST(array_push_keeps_every_element)
{
	int *v = NULL;
	size_t n = 0, cap = 0, i;

	for (i = 0; i < 10000; i++)
		ck_assert_int_eq(QB_ARRAY_PUSH(v, n, cap, (int)i * 3), 0);
	ck_assert_uint_eq(n, 10000);
	ck_assert_uint_ge(cap, n);
	for (i = 0; i < n; i++)
		ck_assert_int_eq(v[i], (int)i * 3);
	free(v);
}
END_TEST

/* A reserve that fits changes nothing; an impossible one fails and keeps
 * the array as it was. */
START_TEST(array_reserve_fits_or_fails_cleanly)
{
	long *v = NULL;
	size_t cap = 0;
	long *before;

	ck_assert_int_eq(QB_ARRAY_RESERVE(v, cap, 5), 0);
	ck_assert_uint_eq(cap, 8);
	before = v;
	ck_assert_int_eq(QB_ARRAY_RESERVE(v, cap, 8), 0);
	ck_assert_ptr_eq(v, before);
	ck_assert_uint_eq(cap, 8);
	ck_assert_int_eq(QB_ARRAY_RESERVE(v, cap, SIZE_MAX / 2), QB_ENOMEM);
	ck_assert_ptr_eq(v, before);
	ck_assert_uint_eq(cap, 8);
	free(v);
}
END_TEST

/* A big array grows by half from 4,096, keeps its content and reads as
 * zeros where it was never written. */
START_TEST(array_big_grows_by_half_with_zeros)
{
	uint32_t *v = NULL;
	size_t cap = 0, i;

	ck_assert_int_eq(QB_ARRAY_RESERVE_BIG(v, cap, 1), 0);
	ck_assert_uint_eq(cap, 4096);
	for (i = 0; i < cap; i++)
		v[i] = (uint32_t)i;
	ck_assert_int_eq(QB_ARRAY_RESERVE_BIG(v, cap, 4097), 0);
	ck_assert_uint_eq(cap, 6144);
	for (i = 0; i < 4096; i++)
		ck_assert_uint_eq(v[i], i);
	for (; i < cap; i++)
		ck_assert_uint_eq(v[i], 0);
	qb_array_free(v, cap, sizeof(*v), QB_ARRAY_BIG);
	qb_array_free(NULL, 0, sizeof(*v), QB_ARRAY_BIG);
}
END_TEST

/* Records for the map tests: key = a string, so equal hashes with
 * different keys can be forced. */
struct recs {
	char key[70000][12];
	int bad_hash;       /* 1: every key hashes alike (collisions) */
	size_t last;        /* the record rec_hash was last asked for, + 1 */
	size_t descents;    /* how often it was asked for an earlier one */
};

static uint64_t key_hash(const struct recs *r, const char *k)
{
	uint64_t h = 1469598103934665603ULL;

	if (r->bad_hash)
		return 42;
	for (; *k; k++)
		h = (h ^ (unsigned char)*k) * 1099511628211ULL;
	return h;
}

static uint64_t rec_hash(void *ctx, size_t rec)
{
	struct recs *r = ctx;

	r->descents += rec + 1 < r->last;
	r->last = rec + 1;
	return key_hash(r, r->key[rec]);
}

static int rec_same(void *ctx, size_t rec, const void *key)
{
	struct recs *r = ctx;

	return strcmp(r->key[rec], key) == 0;
}

static const struct qb_map_ops ops = { rec_hash, rec_same };

static void map_roundtrip(int bad_hash, size_t n)
{
	struct recs *r = calloc(1, sizeof(*r));
	struct qb_map m = QB_MAP_INIT;
	size_t i, growths = 0, cap = 0;

	ck_assert_ptr_nonnull(r);
	r->bad_hash = bad_hash;
	for (i = 0; i < n; i++) {
		snprintf(r->key[i], sizeof(r->key[i]), "k%zu", i);
		ck_assert_uint_eq(qb_map_find(&m, key_hash(r, r->key[i]), &ops, r, r->key[i]),
				  QB_MAP_NONE);
		ck_assert_int_eq(qb_map_insert(&m, key_hash(r, r->key[i]), i, &ops, r), 0);
		growths += m.cap != cap;
		cap = m.cap;
	}
	ck_assert_uint_eq(m.n, n);
	/* each growth asks for the records' hashes in their order: one run
	 * of ascending records per growth */
	ck_assert_uint_gt(growths, 1);
	ck_assert_uint_lt(r->descents, growths);
	ck_assert_uint_le(4 * m.n, 3 * m.cap);
	for (i = 0; i < n; i++)
		ck_assert_uint_eq(qb_map_find(&m, key_hash(r, r->key[i]), &ops, r, r->key[i]), i);
	ck_assert_uint_eq(qb_map_find(&m, key_hash(r, "absent"), &ops, r, "absent"), QB_MAP_NONE);
	qb_map_dispose(&m);
	qb_map_dispose(&m);
	qb_map_dispose(NULL);
	free(r);
}

/* 70,000 records: past the first record-number width (2^16), so the
 * slots are widened while the index grows. */
START_TEST(map_finds_every_record_across_growth_and_widening)
{
	map_roundtrip(0, 70000);
}
END_TEST

START_TEST(map_tells_colliding_keys_apart)
{
	map_roundtrip(1, 2000);
}
END_TEST

/* With a key indexed twice, find returns the record inserted first, also
 * after the index has grown (rebuilt in the records' order). */
START_TEST(map_duplicate_key_finds_first)
{
	struct recs *r = calloc(1, sizeof(*r));
	struct qb_map m = QB_MAP_INIT;
	size_t i;

	ck_assert_ptr_nonnull(r);
	strcpy(r->key[0], "same");
	strcpy(r->key[1], "same");
	ck_assert_int_eq(qb_map_insert(&m, key_hash(r, "same"), 0, &ops, r), 0);
	ck_assert_int_eq(qb_map_insert(&m, key_hash(r, "same"), 1, &ops, r), 0);
	ck_assert_uint_eq(qb_map_find(&m, key_hash(r, "same"), &ops, r, "same"), 0);
	for (i = 2; i < 5000; i++) {
		snprintf(r->key[i], sizeof(r->key[i]), "k%zu", i);
		ck_assert_int_eq(qb_map_insert(&m, key_hash(r, r->key[i]), i, &ops, r), 0);
	}
	ck_assert_uint_gt(m.cap, 1024);
	ck_assert_uint_eq(qb_map_find(&m, key_hash(r, "same"), &ops, r, "same"), 0);
	qb_map_dispose(&m);
	free(r);
}
END_TEST

START_TEST(arena_pointers_stay_valid_and_reset_reuses)
{
	struct qb_arena a = QB_ARENA_INIT;
	char *p[3000];
	char want[32];
	void *big;
	size_t i;

	for (i = 0; i < 3000; i++) {
		snprintf(want, sizeof(want), "string %zu", i);
		p[i] = qb_arena_strndup(&a, want, strlen(want));
		ck_assert_ptr_nonnull(p[i]);
		ck_assert_uint_eq((uintptr_t)p[i] % 8, 0);
	}
	for (i = 0; i < 3000; i++) {
		snprintf(want, sizeof(want), "string %zu", i);
		ck_assert_str_eq(p[i], want);
	}
	big = qb_arena_alloc(&a, 100000);     /* larger than a chunk */
	ck_assert_ptr_nonnull(big);
	memset(big, 'x', 100000);
	qb_arena_reset(&a);
	ck_assert_ptr_nonnull(qb_arena_strndup(&a, "again", 5));
	ck_assert_str_eq(qb_arena_strndup(&a, "abcdef", 3), "abc");
	qb_arena_dispose(&a);
	qb_arena_dispose(&a);
}
END_TEST

START_TEST(buf_big_grows_in_its_own_mapping)
{
	struct qb_buf b = QB_BUF_INIT_BIG;
	size_t i;

	for (i = 0; i < 100000; i++)
		ck_assert_int_eq(qb_buf_add(&b, "0123456789", 10), 0);
	ck_assert_uint_eq(b.len, 1000000);
	ck_assert_int_eq(b.ptr[b.len], '\0');
	ck_assert_int_eq(memcmp(b.ptr + 999990, "0123456789", 10), 0);
	ck_assert_ptr_null(qb_buf_detach(&b));
	qb_buf_dispose(&b);
	ck_assert_ptr_null(b.ptr);
}
END_TEST

/* The queue's function: appends each block to a buffer, and fails on the
 * block that reads "fail". */
struct sink {
	struct qb_buf out;
	size_t blocks;
};

static int to_sink(void *ctx, const void *block, size_t len, struct qb_error *err)
{
	struct sink *k = ctx;

	if (len == 4 && memcmp(block, "fail", 4) == 0) {
		qb_error_set(err, QB_EIO, "block %zu failed", k->blocks);
		return QB_EIO;
	}
	k->blocks++;
	return qb_buf_add(&k->out, block, len);
}

static void *block_of(const char *s)
{
	char *p = malloc(strlen(s) + 1);

	ck_assert_ptr_nonnull(p);
	memcpy(p, s, strlen(s) + 1);
	return p;
}

START_TEST(behind_runs_blocks_in_order_and_keeps_the_first_error)
{
	struct sink k = { QB_BUF_INIT, 0 };
	struct qb_error err = { 0, "" };
	struct qb_behind *b;
	char want[8 * 1000 + 1];
	size_t i;

	/* 1000 blocks through a queue of 4 blocks and 10 bytes: every limit hit */
	ck_assert_int_eq(qb_behind_open(&b, to_sink, &k, 4, 10), 0);
	for (i = 0; i < 1000; i++) {
		char s[16];

		snprintf(s, sizeof(s), "%07zu,", i);
		memcpy(want + 8 * i, s, 8);
		ck_assert_int_eq(qb_behind_push(b, block_of(s), 8, &err), 0);
	}
	want[8 * 1000] = '\0';
	/* a block bigger than the bytes limit waits for an empty queue, then goes */
	ck_assert_int_eq(qb_behind_push(b, block_of("0123456789abcdef"), 16, &err), 0);
	ck_assert_int_eq(qb_behind_drain(b, &err), 0);
	ck_assert_uint_eq(k.out.len, 8000 + 16);
	ck_assert_int_eq(memcmp(k.out.ptr, want, 8000), 0);
	ck_assert_int_eq(qb_behind_error(b, &err), 0);

	/* the first error is kept: later blocks are dropped, and it comes back */
	ck_assert_int_eq(qb_behind_push(b, block_of("fail"), 4, &err), 0);
	ck_assert_int_eq(qb_behind_drain(b, &err), QB_EIO);
	ck_assert_str_eq(err.msg, "block 1001 failed");
	err.msg[0] = '\0';
	ck_assert_int_eq(qb_behind_push(b, block_of("late"), 4, &err), QB_EIO);
	ck_assert_str_eq(err.msg, "block 1001 failed");
	ck_assert_int_eq(qb_behind_error(b, NULL), QB_EIO);
	ck_assert_uint_eq(k.blocks, 1001);
	qb_behind_close(b);
	qb_behind_close(NULL);
	qb_buf_dispose(&k.out);
}
END_TEST

START_TEST(behind_close_frees_what_is_queued)
{
	struct sink k = { QB_BUF_INIT, 0 };
	struct qb_behind *b;
	size_t i;

	/* closed at once: queued blocks are run or freed, never leaked (valgrind) */
	ck_assert_int_eq(qb_behind_open(&b, to_sink, &k, 64, 1 << 20), 0);
	for (i = 0; i < 50; i++)
		ck_assert_int_eq(qb_behind_push(b, block_of("x"), 1, NULL), 0);
	qb_behind_close(b);
	ck_assert_uint_le(k.blocks, 50);
	qb_buf_dispose(&k.out);
}
END_TEST

/* A release function's record: the blocks given back, in order, and
 * whether each came back on the thread that pushed it. */
struct released {
	struct sink k;           /* what the queue's function ran */
	struct qb_buf back;
	size_t n;
	pthread_t caller;
	int elsewhere;
};

static int to_released(void *ctx, const void *block, size_t len, struct qb_error *err)
{
	return to_sink(&((struct released *)ctx)->k, block, len, err);
}

static void give_back(void *ctx, void *block)
{
	struct released *r = ctx;

	if (!pthread_equal(pthread_self(), r->caller))
		r->elsewhere = 1;
	ck_assert_int_eq(qb_buf_add(&r->back, block, strlen(block)), 0);
	r->n++;
	free(block);
}

START_TEST(behind_gives_blocks_back_on_the_callers_thread_in_order)
{
	struct released r;
	struct qb_behind *b;
	struct qb_error err = { 0, "" };
	char want[160] = "";
	size_t i;

	memset(&r, 0, sizeof(r));
	r.caller = pthread_self();
	ck_assert_int_eq(qb_behind_open(&b, to_released, &r, 4, 64), 0);
	qb_behind_on_release(b, give_back);
	for (i = 0; i < 20; i++) {     /* past the block limit, and past the bytes */
		char s[80];

		if (i == 7)   /* one block over the queue's 64 bytes */
			memset(s, 'h', 70), s[70] = '\0';
		else
			snprintf(s, sizeof(s), "%c%c", 'a' + (int)i, i % 5 == 0 ? '!' : '.');
		strcat(want, s);
		ck_assert_int_eq(qb_behind_push(b, block_of(s), strlen(s), &err), 0);
	}
	ck_assert_int_eq(qb_behind_drain(b, &err), 0);
	ck_assert_uint_eq(r.n, 20);                 /* every run block is back after a drain */
	ck_assert_uint_eq(r.back.len, strlen(want));
	ck_assert_int_eq(memcmp(r.back.ptr, want, strlen(want)), 0);
	ck_assert_int_eq(memcmp(r.k.out.ptr, want, strlen(want)), 0);
	/* after an error the rest is given back unrun, also what close finds */
	ck_assert_int_eq(qb_behind_push(b, block_of("fail"), 4, &err), 0);
	for (i = 0; i < 10; i++)
		if (qb_behind_push(b, block_of("zz"), 2, &err) != 0)
			break;
	qb_behind_close(b);
	ck_assert_uint_eq(r.n, 21 + (i < 10 ? i + 1 : 10));
	ck_assert_uint_eq(r.k.blocks, 20);
	ck_assert_int_eq(r.elsewhere, 0);
	qb_buf_dispose(&r.back);
	qb_buf_dispose(&r.k.out);
}
END_TEST

/* The cores' round trip is measured once (the same figure every call) and
 * is a plausible time or 0 (not measurable here); QBANK_THREADS=2 counts
 * the cores as near whatever it says, and the figure decides otherwise. */
START_TEST(cores_round_trip_is_measured_once)
{
	unsigned long ns = qb_cores_round_trip_ns();

	ck_assert_uint_lt(ns, 5000000);   /* under the measure's deadline */
	ck_assert_uint_eq(qb_cores_round_trip_ns(), ns);
	ck_assert_int_eq(setenv("QBANK_THREADS", "2", 1), 0);
	ck_assert_int_eq(qb_cores_near(), 1);
	ck_assert_int_eq(setenv("QBANK_THREADS", "1", 1), 0);
	ck_assert_int_eq(qb_cores_near(), 0);
	ck_assert_int_eq(unsetenv("QBANK_THREADS"), 0);
	ck_assert_int_eq(qb_cores_near(), ns != 0 && ns < QB_CORES_NEAR_NS);
}
END_TEST

Suite *suite_core(void)
{
	Suite *s = suite_create("core");
	TCase *tc = tcase_create("containers");

	tcase_add_test(tc, array_push_keeps_every_element);
	tcase_add_test(tc, cores_round_trip_is_measured_once);
	tcase_add_test(tc, array_reserve_fits_or_fails_cleanly);
	tcase_add_test(tc, array_big_grows_by_half_with_zeros);
	tcase_add_test(tc, map_finds_every_record_across_growth_and_widening);
	tcase_add_test(tc, map_tells_colliding_keys_apart);
	tcase_add_test(tc, map_duplicate_key_finds_first);
	tcase_add_test(tc, arena_pointers_stay_valid_and_reset_reuses);
	tcase_add_test(tc, buf_big_grows_in_its_own_mapping);
	tcase_add_test(tc, behind_runs_blocks_in_order_and_keeps_the_first_error);
	tcase_add_test(tc, behind_close_frees_what_is_queued);
	tcase_add_test(tc, behind_gives_blocks_back_on_the_callers_thread_in_order);
	suite_add_tcase(s, tc);
	return s;
}
