#include "error.h"

#include <stdarg.h>
#include <stdio.h>

void qb_error_set(struct qb_error *e, int code, const char *fmt, ...)
{
	va_list ap;

	if (!e)
		return;
	/* Keep the first, most specific message: never overwrite it with a vaguer one. */
	if (e->code != 0 && e->msg[0])
		return;
	e->code = code;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
}

const char *qb_error_str(int code)
{
	static const char *const names[] = {
		"success", "out of memory", "I/O error", "invalid argument",
		"not found", "refused",
	};
	int i = -code;

	if (i < 0 || i >= (int)(sizeof(names) / sizeof(names[0])))
		return "unknown error";
	return names[i];
}
