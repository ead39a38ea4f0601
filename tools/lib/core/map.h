/* A hash index over records the caller keeps, numbered from 0.
 * Open addressing in 4-byte slots: a slot holds a record number + 1 in its
 * low bits and bits of the key's hash above them, so a probe reads a
 * record only when those bits match and a lookup mostly stays within the
 * index's own cache lines. Keys are not stored: a lookup asks the caller
 * whether a candidate record has the key (ops->same), and a growth asks
 * for each record's hash again (ops->hash), in the records' order, which
 * costs less memory than storing them. At most 3/4 full; grown by half
 * into a fresh mapping (bigmem.h). Up to 2^32 - 2 records.
 * Ownership: the map owns its slots (qb_map_dispose); the records and
 * keys stay the caller's. */
#ifndef QB_MAP_H
#define QB_MAP_H

#include <stddef.h>
#include <stdint.h>

struct qb_map_ops {
	/* The hash of record REC's key (the one it was inserted under). */
	uint64_t (*hash)(void *ctx, size_t rec);
	/* 1 when record REC has the key KEY (a type of the caller's). */
	int (*same)(void *ctx, size_t rec, const void *key);
};

struct qb_map {
	uint32_t *slot;
	size_t cap;             /* slots */
	size_t n;               /* records indexed */
	unsigned rbits;         /* low bits of a slot that hold the record number + 1 */
};

#define QB_MAP_INIT { NULL, 0, 0, 0 }
#define QB_MAP_NONE SIZE_MAX

/* The first record, in probe order, whose key hashes to HASH and that
 * OPS->same accepts for KEY; QB_MAP_NONE when there is none. */
size_t qb_map_find(const struct qb_map *m, uint64_t hash, const struct qb_map_ops *ops,
		   void *ctx, const void *key);
/* Indexes record REC under HASH (records with equal keys may be indexed,
 * each record once). 0, or QB_ENOMEM with the map unchanged. */
int qb_map_insert(struct qb_map *m, uint64_t hash, size_t rec, const struct qb_map_ops *ops,
		  void *ctx);
void qb_map_dispose(struct qb_map *m);

#endif
