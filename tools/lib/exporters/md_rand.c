/* The forms' shuffling: splitmix64 and Fisher-Yates (see md.h). Written out
 * here rather than taken from the C library so that the same seed gives
 * the same forms on every platform and libc. */
#include "md.h"

void md_rand_init(struct md_rand *r, uint64_t seed, int form, uint64_t salt)
{
	/* the seed in the high bits, the form letter in the low byte, the salt
	 * spread by one splitmix64 step: nearby seeds and forms give unrelated
	 * streams */
	struct md_rand t = { salt };

	r->s = (seed << 8 | (uint64_t)(unsigned char)form) ^ md_rand_next(&t);
}

uint64_t md_rand_next(struct md_rand *r)
{
	uint64_t z = (r->s += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* A uniform number below BOUND: values from the incomplete last block of
 * 2^64 are drawn again, so no residue is favoured. */
static uint64_t below(struct md_rand *r, uint64_t bound)
{
	uint64_t threshold = (0 - bound) % bound, x;

	do
		x = md_rand_next(r);
	while (x < threshold);
	return x % bound;
}

void md_rand_perm(struct md_rand *r, size_t *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		v[i] = i;
	for (i = n; i > 1; i--) {
		size_t j = (size_t)below(r, i), t = v[i - 1];

		v[i - 1] = v[j];
		v[j] = t;
	}
}
