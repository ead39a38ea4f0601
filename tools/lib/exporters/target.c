/* The helpers target checks share: formatting a reason for the sink, and
 * the reason of a repeated id (exporter.h). Nothing here is allocated. */
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

int qb_target_repeated_id(const struct qb_target_sink *s, const struct qb_question *q,
			  const struct qb_unique_ids *u, const char *file, unsigned long line)
{
	return qb_target_report(s, q, u->rule, QB_RULE_ID_DUPLICATE, 0,
				"its id is used by an earlier question (%s:%lu); %s", file, line,
				u->why);
}
