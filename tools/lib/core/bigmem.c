/* mremap */
#define _GNU_SOURCE
#include "bigmem.h"

#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

/* N rounded up to whole pages; 0 when that does not fit a size_t. Asked
 * of the system each time (only on growth): no shared state, so any
 * thread may call it. */
static size_t page_round(size_t n)
{
	long p = sysconf(_SC_PAGESIZE);
	size_t page = p > 0 ? (size_t)p : 4096;

	if (n > SIZE_MAX - page)
		return 0;
	return (n + page - 1) / page * page;
}

void *qb_big_resize(void *p, size_t old, size_t new_size)
{
	size_t from = page_round(old), to = page_round(new_size);
	void *q;

	if (!to)
		return NULL;
	if (!p || !from) {
		q = mmap(NULL, to, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		return q == MAP_FAILED ? NULL : q;
	}
	if (from == to)
		return p;
	q = mremap(p, from, to, MREMAP_MAYMOVE);
	return q == MAP_FAILED ? NULL : q;
}

void qb_big_free(void *p, size_t size)
{
	if (p && size)
		munmap(p, page_round(size));
}
