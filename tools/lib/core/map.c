#include "map.h"

#include "../error.h"
#include "bigmem.h"

#define FIRST_CAP 1024
#define FIRST_RBITS 16

/* Multiply-shift: the high 32 bits of H scaled to [0, cap); cap < 2^32. */
static size_t slot_of(uint64_t h, size_t cap)
{
	return (size_t)(((h >> 32) * (uint64_t)cap) >> 32);
}

static uint32_t pack(const struct qb_map *m, uint64_t h, size_t rec1)
{
	return (uint32_t)((h << m->rbits | rec1) & UINT32_MAX);
}

static size_t rec1_of(const struct qb_map *m, uint32_t s)
{
	return s & (uint32_t)(((uint64_t)1 << m->rbits) - 1);
}

size_t qb_map_find(const struct qb_map *m, uint64_t hash, const struct qb_map_ops *ops,
		   void *ctx, const void *key)
{
	uint32_t bits, s;
	size_t i;

	if (!m->n)
		return QB_MAP_NONE;
	bits = pack(m, hash, 0);
	for (i = slot_of(hash, m->cap); (s = m->slot[i]) != 0; i = i + 1 == m->cap ? 0 : i + 1) {
		size_t rec1 = rec1_of(m, s);

		if (s - rec1 == bits && ops->same(ctx, rec1 - 1, key))
			return rec1 - 1;
	}
	return QB_MAP_NONE;
}

static void put(uint32_t *slot, size_t cap, uint64_t h, uint32_t s)
{
	size_t i;

	for (i = slot_of(h, cap); slot[i]; i = i + 1 == cap ? 0 : i + 1)
		;
	slot[i] = s;
}

/* Puts every record of M into SLOT (CAP slots, zeros), hashing each again
 * in the records' order (a bit per possible record number says which are
 * indexed): a caller that keeps its keys in sequence, as the lint's
 * front-coded ids, then reads each once instead of seeking it. */
static int rehash(const struct qb_map *m, uint32_t *slot, size_t cap, const struct qb_map_ops *ops,
		  void *ctx)
{
	size_t words = (((size_t)1 << m->rbits) + 63) / 64, i;
	uint64_t *seen = qb_big_resize(NULL, 0, words * sizeof(*seen));   /* zeros */

	if (!seen)
		return QB_ENOMEM;
	for (i = 0; i < m->cap; i++)
		if (m->slot[i]) {
			size_t r1 = rec1_of(m, m->slot[i]);

			seen[r1 / 64] |= (uint64_t)1 << (r1 % 64);
		}
	for (i = 0; i < words; i++) {
		uint64_t w = seen[i];

		while (w) {
			size_t r1 = i * 64 + (size_t)__builtin_ctzll(w);
			uint64_t h = ops->hash(ctx, r1 - 1);

			put(slot, cap, h, pack(m, h, r1));
			w &= w - 1;
		}
	}
	qb_big_free(seen, words * sizeof(*seen));
	return 0;
}

/* Rebuilds the index 1.5 times larger. */
static int grow(struct qb_map *m, const struct qb_map_ops *ops, void *ctx)
{
	size_t cap = m->cap ? m->cap + m->cap / 2 : FIRST_CAP;
	uint32_t *slot;

	if (cap > UINT32_MAX)
		return QB_ENOMEM;
	slot = qb_big_resize(NULL, 0, cap * sizeof(*slot));   /* zeros */
	if (!slot)
		return QB_ENOMEM;
	if (m->cap && rehash(m, slot, cap, ops, ctx)) {
		qb_big_free(slot, cap * sizeof(*slot));
		return QB_ENOMEM;
	}
	qb_big_free(m->slot, m->cap * sizeof(*m->slot));
	m->slot = slot;
	m->cap = cap;
	return 0;
}

/* Makes room for one more bit of record number in every slot: the hash
 * bits move up by one and lose their top bit, which is what pack gives
 * with the wider field, so no record is read. */
static void widen(struct qb_map *m)
{
	uint32_t mask = (uint32_t)(((uint64_t)1 << m->rbits) - 1);
	size_t i;

	for (i = 0; i < m->cap; i++)
		if (m->slot[i])
			m->slot[i] = (m->slot[i] & ~mask) << 1 | (m->slot[i] & mask);
	m->rbits++;
}

int qb_map_insert(struct qb_map *m, uint64_t hash, size_t rec, const struct qb_map_ops *ops,
		  void *ctx)
{
	if (rec >= UINT32_MAX - 1)
		return QB_ENOMEM;
	if (!m->rbits)
		m->rbits = FIRST_RBITS;
	if (4 * (m->n + 1) > 3 * m->cap) {
		int err = grow(m, ops, ctx);

		if (err)
			return err;
	}
	while (m->rbits < 32 && rec + 1 >= (size_t)1 << m->rbits)
		widen(m);
	put(m->slot, m->cap, hash, pack(m, hash, rec + 1));
	m->n++;
	return 0;
}

void qb_map_dispose(struct qb_map *m)
{
	if (!m)
		return;
	qb_big_free(m->slot, m->cap * sizeof(*m->slot));
	m->slot = NULL;
	m->cap = m->n = 0;
	m->rbits = 0;
}
