/* Growable byte buffers.
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
};

#define QB_BUF_INIT { NULL, 0, 0, 0 }

int qb_buf_grow(struct qb_buf *b, size_t extra);
int qb_buf_add(struct qb_buf *b, const void *data, size_t len);
int qb_buf_adds(struct qb_buf *b, const char *s);
int qb_buf_addc(struct qb_buf *b, char c);
int qb_buf_printf(struct qb_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int qb_buf_vprintf(struct qb_buf *b, const char *fmt, va_list ap);
void qb_buf_clear(struct qb_buf *b);
/* Hands the bytes to the caller (free() them) and resets the buffer. */
char *qb_buf_detach(struct qb_buf *b);
void qb_buf_dispose(struct qb_buf *b);

#endif
