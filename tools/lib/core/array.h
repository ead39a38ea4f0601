/* Growable arrays. An array is a pointer, a length and a capacity kept in
 * the caller's own struct (the fields keep their names there);
 * qb_array_grow makes room for NEED elements. Two kinds: ordinary arrays
 * live in malloc'ed memory and double; big arrays (QB_ARRAY_BIG, for what
 * grows to many megabytes: the bank-wide digests) live in a mapping of
 * their own (bigmem.h) and grow by half, without holding two copies.
 * Ownership: the caller owns the memory; free an ordinary array with
 * free(), a big one with qb_array_free. */
#ifndef QB_ARRAY_H
#define QB_ARRAY_H

#include <stddef.h>

#include "../error.h"

#define QB_ARRAY_BIG 1u

/* Makes *PTR (of *CAP elements of ELEM bytes) hold at least NEED
 * elements; 0, or QB_ENOMEM with *PTR and *CAP left as they were. New
 * elements of a big array read as zeros; an ordinary array's are
 * uninitialised. */
int qb_array_grow(void **ptr, size_t *cap, size_t elem, size_t need, unsigned flags);
/* Frees a big array of CAP elements of ELEM bytes (or an ordinary one);
 * accepts NULL. */
void qb_array_free(void *ptr, size_t cap, size_t elem, unsigned flags);

/* Room for NEED elements in array P of capacity CAP (lvalues). */
#define QB_ARRAY_RESERVE(p, cap, need) \
	qb_array_grow((void **)&(p), &(cap), sizeof(*(p)), (need), 0)
#define QB_ARRAY_RESERVE_BIG(p, cap, need) \
	qb_array_grow((void **)&(p), &(cap), sizeof(*(p)), (need), QB_ARRAY_BIG)
/* Appends the value X to array P of length N and capacity CAP; 0 or QB_ENOMEM. */
#define QB_ARRAY_PUSH(p, n, cap, x) \
	(QB_ARRAY_RESERVE(p, cap, (n) + 1) ? QB_ENOMEM : ((p)[(n)++] = (x), 0))

#endif
