#include "fmt_diff.h"

#include <stdlib.h>
#include <string.h>

/* Keep this table sorted by name (qb_diff_format_find() searches it). */
const struct qb_diff_format qb_diff_formats[] = {
	{ "json", "one JSON document (schema in the man page)", fmt_diff_json },
	{ "markdown", "a pull-request comment: summary table, details per question", fmt_diff_markdown },
	{ "text", "for a terminal, in colour unless NO_COLOR (default)", fmt_diff_text },
};

const size_t qb_diff_nformats = sizeof(qb_diff_formats) / sizeof(qb_diff_formats[0]);

static int cmp_format(const void *key, const void *elem)
{
	return strcmp(key, ((const struct qb_diff_format *)elem)->name);
}

const struct qb_diff_format *qb_diff_format_find(const char *name)
{
	return bsearch(name, qb_diff_formats, qb_diff_nformats, sizeof(qb_diff_formats[0]),
		       cmp_format);
}

void fmt_diff_label(char *buf, size_t cap, const struct qb_diff_change *c)
{
	const char *was = c->old_label ? " (was " : "", *end = c->old_label ? ")" : "";
	const char *old = c->old_label ? c->old_label : "";

	switch (c->part) {
	case QB_DIFF_OPTION_ADDED:
		snprintf(buf, cap, "option %s added", c->label);
		break;
	case QB_DIFF_OPTION_REMOVED:
		snprintf(buf, cap, "option %s removed", c->label);
		break;
	case QB_DIFF_OPTION_TEXT:
		snprintf(buf, cap, "option %s%s%s%s", c->label, was, old, end);
		break;
	case QB_DIFF_OPTION_RATIONALE:
		snprintf(buf, cap, "option %s%s%s%s rationale", c->label, was, old, end);
		break;
	case QB_DIFF_OPTION_ORDER:
		snprintf(buf, cap, "option order");
		break;
	case QB_DIFF_RATIONALE:
		snprintf(buf, cap, "rationale (%s)", c->label);
		break;
	case QB_DIFF_IMAGE:
		snprintf(buf, cap, "image %s", c->label);
		break;
	default:
		snprintf(buf, cap, "%s", qb_diff_part_names[c->part]);
	}
}

int fmt_diff_space(const struct qb_word_seg *w, size_t i)
{
	if (!w[i].space)
		return 0;
	return !(w[i].op == QB_WORD_INS && i > 0 && w[i - 1].op == QB_WORD_DEL && w[i - 1].space);
}

void fmt_diff_values(const char **old, const char **new, char buf_old[FMT_DIFF_VALUE_CAP],
		     char buf_new[FMT_DIFF_VALUE_CAP], const struct qb_diff_change *c)
{
	*old = c->old_text;
	*new = c->new_text;
	if (c->part != QB_DIFF_IMAGE)
		return;
	if (*old) {
		snprintf(buf_old, FMT_DIFF_VALUE_CAP, "%.12s", *old);
		*old = buf_old;
	}
	if (*new) {
		snprintf(buf_new, FMT_DIFF_VALUE_CAP, "%.12s", *new);
		*new = buf_new;
	}
}
