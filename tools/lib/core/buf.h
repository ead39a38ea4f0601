/* Growable byte buffers, also the store for strings addressed by offset.
 * A big buffer (QB_BUF_INIT_BIG, for what grows to many megabytes: the
 * bank-wide digests' ids) lives in a mapping of its own (bigmem.h), so
 * growing never holds two copies.
 * Ownership: a qb_buf owns its bytes; qb_buf_dispose frees them, the struct
 * itself belongs to the caller. Contents are always NUL-terminated. */
#ifndef QB_BUF_H
#define QB_BUF_H

#include <stdarg.h>
#include <stddef.h>

struct qb_buf {
	char *ptr;
	size_t len;
	size_t cap;
	size_t init;   /* bytes from ptr on that were ever written or zeroed */
	int big;       /* 1: a mapping of its own; qb_buf_detach is not allowed */
};

#define QB_BUF_INIT { NULL, 0, 0, 0, 0 }
#define QB_BUF_INIT_BIG { NULL, 0, 0, 0, 1 }

int qb_buf_grow(struct qb_buf *b, size_t extra);
int qb_buf_add(struct qb_buf *b, const void *data, size_t len);
int qb_buf_adds(struct qb_buf *b, const char *s);
int qb_buf_addc(struct qb_buf *b, char c);
/* Appends the strings in order: what a printf of "%s" only would write,
 * without the formatting (a tenth of its cost). qb_buf_cat(b, "a", x, "c")
 * passes them as an array, so that each is type-checked and no sentinel
 * is needed. */
int qb_buf_catv(struct qb_buf *b, const char *const *s, size_t n);
#define QB_STRS(...) ((const char *const[]){ __VA_ARGS__ })
#define qb_buf_cat(b, ...) \
	qb_buf_catv((b), QB_STRS(__VA_ARGS__), sizeof(QB_STRS(__VA_ARGS__)) / sizeof(const char *))
int qb_buf_printf(struct qb_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int qb_buf_vprintf(struct qb_buf *b, const char *fmt, va_list ap);
void qb_buf_clear(struct qb_buf *b);
/* Hands the bytes to the caller (free() them) and resets the buffer; not
 * for a big buffer (NULL). */
char *qb_buf_detach(struct qb_buf *b);
void qb_buf_dispose(struct qb_buf *b);

#endif
