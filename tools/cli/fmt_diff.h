/* The output formats of `qbank diff` (text, markdown, json), a table like
 * lint's, and what they share: the words for each part and status.
 * Ownership: the report is the caller's; nothing is kept. */
#ifndef QB_CLI_FMT_DIFF_H
#define QB_CLI_FMT_DIFF_H

#include <stdio.h>

#include "../lib/diff.h"

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
/* A blob id cut to 12 digits for people ("missing" stays). */
void fmt_diff_short_hash(char *buf, size_t cap, const char *hash);

#endif
