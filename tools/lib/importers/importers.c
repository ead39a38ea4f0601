#include "importers.h"

#include <math.h>
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

/* Moodle compares grades to 0.00001 (its grade list's tolerance). */
#define MARK_EPS 1e-5

unsigned qb_imp_choice_marking(enum qb_imp_kind kind, struct qb_imp_choice *ch, size_t n)
{
	unsigned changed = 0;
	double share = 0, cost;
	size_t i, ncorrect = 0;

	for (i = 0; i < n; i++)
		if (ch[i].fraction > 0) {
			if (ncorrect && fabs(ch[i].fraction - share) > MARK_EPS)
				changed |= QB_IMP_MARK_KEYS;
			share = ch[i].fraction;
			ncorrect++;
		}
	if (kind == QB_IMP_SINGLE) {
		for (i = 0; i < n; i++)
			if (ch[i].fraction > 0 && fabs(ch[i].fraction - 1) > MARK_EPS) {
				ch[i].fraction = 0;
				changed |= QB_IMP_MARK_KEYS;
			}
		return changed;
	}
	if (ncorrect && fabs(share * (double)ncorrect - 1) > MARK_EPS * 10)
		changed |= QB_IMP_MARK_KEYS;
	if (n > ncorrect) {
		cost = -1.0 / (double)(n - ncorrect);
		for (i = 0; i < n; i++)
			if (ch[i].fraction <= 0 && fabs(ch[i].fraction - cost) > MARK_EPS * 10)
				changed |= QB_IMP_MARK_WRONG;
	}
	return changed;
}
