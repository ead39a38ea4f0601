/* Arrays that grow to many megabytes (the bank-wide digests: about 43
 * bytes a question, 43 MB at a million questions) live in mappings of
 * their own and grow with mremap: the kernel moves the pages, so growing
 * never holds the old and the new copy at once, whatever the process's
 * malloc does with realloc (some allocators copy). Fresh memory reads as
 * zeros and takes no RAM until it is written; freeing returns it to the
 * system at once. */
#ifndef QB_BIGMEM_H
#define QB_BIGMEM_H

#include <stddef.h>

/* Resizes P (NULL: a new mapping) from OLD to NEW bytes; the content up to
 * the smaller size is kept and bytes past OLD read as zeros. Returns the
 * new address, or NULL with P left as it was. */
void *qb_big_resize(void *p, size_t old, size_t new_size);
/* Frees P of SIZE bytes; accepts NULL. */
void qb_big_free(void *p, size_t size);

#endif
