/* The output formats of qbank lint (fmt_*.c): one table of formats, each
 * a function that writes a whole report to a FILE. They sit below the
 * commands: a format knows the report it is given, never a command.
 * Ownership: a format keeps nothing; the report and the FILE are the
 * caller's. */
#ifndef QB_CLI_FORMAT_H
#define QB_CLI_FORMAT_H

#include <stdio.h>

#include "../lib/diag.h"
#include "../lib/lint.h"

/* What every lint output format gets. */
struct qb_report {
	const struct qb_diags *diags;
	const struct qb_lint_stats *stats;
	const struct qb_lint *lint;   /* the run (its files, configuration), or NULL */
	int color;
};

struct qb_format {
	const char *name;
	const char *summary;
	int (*write)(FILE *out, const struct qb_report *r);
};

extern const struct qb_format qb_formats[];
extern const size_t qb_nformats;
const struct qb_format *qb_format_find(const char *name);

int fmt_gcc(FILE *out, const struct qb_report *r);
int fmt_github(FILE *out, const struct qb_report *r);
int fmt_json(FILE *out, const struct qb_report *r);
int fmt_junit(FILE *out, const struct qb_report *r);
int fmt_sarif(FILE *out, const struct qb_report *r);

/* The run's file names (those without findings too) and every file named
 * by a finding, sorted and unique; "" stands for run-wide findings. The
 * array is malloc'ed (free() it), the names belong to the report. */
int fmt_files(const char ***out, size_t *n, const struct qb_report *r);
/* A rule's level word for SARIF: error, warning, note (info) or none (off). */
const char *fmt_sarif_level(enum qb_severity s);

/* "2 files, 31 questions: 0 errors, 1 warning; explanations 31/31 (100%), ..." */
void fmt_summary(FILE *out, const struct qb_report *r);

/* The pieces the summary shares with qbank stats. PART of WHOLE in
 * percent (100 when WHOLE is 0: nothing to cover); ONE when N is 1, else
 * MANY; "explanations 31/31 (100%), rationales 124/124 (100%)"; and in
 * JSON, KEY: { PART_KEY: PART, "total": WHOLE, "percent": ... }. */
double fmt_pct(size_t part, size_t whole);
const char *fmt_plural(size_t n, const char *one, const char *many);
void fmt_coverage(FILE *out, size_t explained, size_t explainable, size_t rationales,
		  size_t rationalizable);
struct cli_json;
void fmt_json_coverage(struct cli_json *j, const char *key, const char *part_key, size_t part,
		       size_t whole);

#endif
