/* Error codes of the library core. Functions return 0 or one of these
 * (negative); the message, when there is one, is recorded by the caller's
 * context (see qb_error_*). Findings about a bank are not errors: they are
 * diagnostics (diag.h). */
#ifndef QB_ERROR_H
#define QB_ERROR_H

#include <stddef.h>

enum {
	QB_OK = 0,
	QB_ENOMEM = -1,  /* out of memory */
	QB_EIO = -2,     /* a file could not be read or written */
	QB_EINVAL = -3,  /* bad argument, option or configuration */
	QB_ENOTFOUND = -4, /* a named file, rule or exporter does not exist */
	QB_EREFUSED = -5 /* the operation was refused (e.g. lint errors before export) */
};

/* A human-readable message for the last error of an operation, with the
 * file (and line when there is one). Owned by whoever embeds it. */
struct qb_error {
	int code;
	char msg[1024];
};

void qb_error_set(struct qb_error *e, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
const char *qb_error_str(int code);

#endif
