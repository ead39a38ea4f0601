/* The output formats of `qbank diff` (fmt_diff_*.c: text, markdown,
 * json): one table of formats as format.h has for lint, each a function
 * that writes a whole report to a FILE, and what they share (the label of
 * a change, the values shown). They sit below the commands, beside lint's
 * formats, whose percentages, plurals and JSON coverage they use.
 * Ownership: a format keeps nothing; the report and the FILE are the
 * caller's. */
#ifndef QB_CLI_FMT_DIFF_H
#define QB_CLI_FMT_DIFF_H

#include <stdio.h>

#include "../lib/diff.h"
#include "format.h"

struct qb_diff_format {
	const char *name;
	const char *summary;
	int (*write)(FILE *out, const struct qb_diff_report *r, int color);
};

extern const struct qb_diff_format qb_diff_formats[];
extern const size_t qb_diff_nformats;
const struct qb_diff_format *qb_diff_format_find(const char *name);

int fmt_diff_json(FILE *out, const struct qb_diff_report *r, int color);
int fmt_diff_markdown(FILE *out, const struct qb_diff_report *r, int color);
int fmt_diff_text(FILE *out, const struct qb_diff_report *r, int color);

/* "stem", "option C (was B)", "image img/a.png", ...: what change C is about. */
void fmt_diff_label(char *buf, size_t cap, const struct qb_diff_change *c);
/* 1 when a space goes before segment I of a word diff shown in one line:
 * an insertion right after a deletion takes the deletion's space. */
int fmt_diff_space(const struct qb_word_seg *w, size_t i);
/* The old and new values of C as shown, NULL where a side has none: an
 * image's blob ids cut to 12 digits for people ("missing" stays), written
 * into BUF_OLD and BUF_NEW; any other part's texts as they are. */
#define FMT_DIFF_VALUE_CAP 16
void fmt_diff_values(const char **old, const char **new, char buf_old[FMT_DIFF_VALUE_CAP],
		     char buf_new[FMT_DIFF_VALUE_CAP], const struct qb_diff_change *c);

#endif
