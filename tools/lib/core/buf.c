#include "buf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../error.h"
#include "bigmem.h"

/* Bytes past the terminating NUL that are kept initialised: PCRE2's JIT
 * scans subjects with wide loads that may look past the NUL (harmless, but
 * memcheck rightly calls uninitialised bytes an error). The space past the
 * end is zeroed as the end moves on, a page at a time, not all at once when
 * the buffer grows: that would make every page of a big buffer resident
 * (the lint digests' arena at a million questions). Bytes below b->init
 * are initialised, and the shortcuts that write without qb_buf_grow stay
 * TAIL bytes below it. */
#define TAIL 64
#define ZERO_STEP 4096

int qb_buf_grow(struct qb_buf *b, size_t extra)
{
	size_t need = b->len + extra + 1;
	size_t cap;
	char *p;

	if (need < b->len || need > ((size_t)-1) - TAIL - ZERO_STEP)
		return QB_ENOMEM;
	if (need > b->cap || !b->ptr) {
		cap = b->cap ? b->cap : 64;
		while (cap < need) {
			if (cap > ((size_t)-1) / 2)
				return QB_ENOMEM;
			cap *= 2;
		}
		p = b->big ? qb_big_resize(b->ptr, b->cap, cap) : realloc(b->ptr, cap);
		if (!p)
			return QB_ENOMEM;
		b->ptr = p;
		b->cap = cap;
	}
	/* b->init > b->len always holds here, so no content is zeroed; this
	 * also keeps the promise of buf.h (always NUL-terminated) for a buffer
	 * grown but not yet written to */
	if (b->init < need + TAIL && b->init < b->cap) {
		size_t upto = (need + TAIL + ZERO_STEP - 1) / ZERO_STEP * ZERO_STEP;

		if (upto > b->cap)
			upto = b->cap;
		memset(b->ptr + b->init, 0, upto - b->init);
		b->init = upto;
	}
	return 0;
}

int qb_buf_add(struct qb_buf *b, const void *data, size_t len)
{
	int err = qb_buf_grow(b, len);

	if (err)
		return err;
	if (len)
		memcpy(b->ptr + b->len, data, len);
	b->len += len;
	b->ptr[b->len] = '\0';
	return 0;
}

int qb_buf_adds(struct qb_buf *b, const char *s)
{
	return qb_buf_add(b, s, strlen(s));
}

/* Called once per character by the text walkers and the Markdown writer:
 * when there is room, store the byte without the general path's calls. */
int qb_buf_addc(struct qb_buf *b, char c)
{
	if (b->len + 2 + TAIL <= b->init) {
		b->ptr[b->len++] = c;
		b->ptr[b->len] = '\0';
		return 0;
	}
	return qb_buf_add(b, &c, 1);
}

int qb_buf_catv(struct qb_buf *b, const char *const *s, size_t n)
{
	size_t i;
	int err = 0;

	for (i = 0; i < n && !err; i++)
		err = qb_buf_adds(b, s[i]);
	return err;
}

int qb_buf_vprintf(struct qb_buf *b, const char *fmt, va_list ap)
{
	size_t room = b->ptr && b->init > b->len + TAIL ? b->init - b->len - TAIL : 0;
	va_list copy;
	int n;
	int err;

	/* Formatting costs more than the copy: format once, straight into the
	 * room left, and again only when the text did not fit. */
	va_copy(copy, ap);
	n = vsnprintf(room ? b->ptr + b->len : NULL, room, fmt, copy);
	va_end(copy);
	if (n >= 0 && (size_t)n < room) {
		b->len += (size_t)n;
		return 0;
	}
	if (room)
		b->ptr[b->len] = '\0';     /* what did not fit is not kept */
	if (n < 0)
		return QB_EINVAL;
	err = qb_buf_grow(b, (size_t)n);
	if (err)
		return err;
	vsnprintf(b->ptr + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
	return 0;
}

int qb_buf_printf(struct qb_buf *b, const char *fmt, ...)
{
	va_list ap;
	int err;

	va_start(ap, fmt);
	err = qb_buf_vprintf(b, fmt, ap);
	va_end(ap);
	return err;
}

void qb_buf_clear(struct qb_buf *b)
{
	b->len = 0;
	if (b->ptr)
		b->ptr[0] = '\0';
}

char *qb_buf_detach(struct qb_buf *b)
{
	char *p = b->ptr;

	if (b->big)
		return NULL;
	if (!p)
		p = calloc(1, 1);
	b->ptr = NULL;
	b->len = b->cap = b->init = 0;
	return p;
}

void qb_buf_dispose(struct qb_buf *b)
{
	if (!b)
		return;
	if (b->big)
		qb_big_free(b->ptr, b->cap);
	else
		free(b->ptr);
	b->ptr = NULL;
	b->len = b->cap = b->init = 0;
}
