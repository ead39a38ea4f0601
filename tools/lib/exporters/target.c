/* The one helper every target check shares: formatting a reason for the
 * sink (exporter.h). Nothing here is allocated. */
#include "../exporter.h"

#include <stdarg.h>
#include <stdio.h>

int qb_target_report(const struct qb_target_sink *s, const struct qb_question *q,
		     enum qb_rule_key rule, enum qb_rule_key base, unsigned long line,
		     const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return s->report(s->ctx, q, rule, base, line ? line : q->line, msg);
}
