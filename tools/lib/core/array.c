#include "array.h"

#include <stdint.h>
#include <stdlib.h>

#include "bigmem.h"

/* Ordinary arrays start at 8 elements and double; big arrays start at
 * 4,096 and grow by half, since each step of theirs is megabytes. */
static size_t next_cap(size_t cap, size_t need, unsigned flags)
{
	size_t n = cap;

	if (flags & QB_ARRAY_BIG) {
		if (n < 4096)
			n = 4096;
		while (n < need) {
			if (n > SIZE_MAX / 3 * 2)
				return 0;
			n += n / 2;
		}
	} else {
		if (n < 8)
			n = 8;
		while (n < need) {
			if (n > SIZE_MAX / 2)
				return 0;
			n *= 2;
		}
	}
	return n;
}

int qb_array_grow(void **ptr, size_t *cap, size_t elem, size_t need, unsigned flags)
{
	size_t n;
	void *p;

	if (need <= *cap && (*ptr || !need))
		return 0;
	n = next_cap(*cap, need, flags);
	if (!n || n > SIZE_MAX / elem)
		return QB_ENOMEM;
	if (flags & QB_ARRAY_BIG)
		p = qb_big_resize(*ptr, *cap * elem, n * elem);
	else
		p = realloc(*ptr, n * elem);
	if (!p)
		return QB_ENOMEM;
	*ptr = p;
	*cap = n;
	return 0;
}

void qb_array_free(void *ptr, size_t cap, size_t elem, unsigned flags)
{
	if (flags & QB_ARRAY_BIG)
		qb_big_free(ptr, cap * elem);
	else
		free(ptr);
}
