#include "importers.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Tried in this order by content: a <quiz> root is Moodle XML; Aiken's ANSWER: lines are the most
 * specific test; GIFT's ::titles::, $CATEGORY: lines and answer blocks
 * come next. */
const struct qb_importer qb_importers[] = {
	{ "moodle", qb_imp_moodle_detect, qb_imp_moodle_read, qb_imp_moodle_read_fd },
	{ "aiken", qb_imp_aiken_detect, qb_imp_aiken_read, NULL },
	{ "gift", qb_imp_gift_detect, qb_imp_gift_read, NULL },
};

const size_t qb_nimporters = sizeof(qb_importers) / sizeof(qb_importers[0]);

const struct qb_importer *qb_importer_find(const char *name)
{
	size_t i;

	for (i = 0; i < qb_nimporters; i++)
		if (strcmp(qb_importers[i].name, name) == 0)
			return &qb_importers[i];
	return NULL;
}

int qb_imp_report(const struct qb_imp_sink *sink, unsigned long line, enum qb_severity sev,
		  enum qb_rule_key rule, const char *question, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return sink->report(sink->ctx, line, sev, rule, question, msg);
}

const char *qb_imp_skip_bom(const char *data, size_t *len)
{
	if (*len >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0) {
		*len -= 3;
		return data + 3;
	}
	return data;
}
