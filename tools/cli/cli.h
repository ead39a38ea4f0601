/* The command line: a table of commands over the library core. Only this
 * layer prints and decides exit status. */
#ifndef QB_CLI_H
#define QB_CLI_H

#include <stdio.h>

#include "../lib/diag.h"
#include "../lib/lint.h"

/* Exit statuses (DESIGN.md): 0 clean, 1 findings fail the run, 2 usage,
 * configuration or I/O error. */
enum { QB_EXIT_OK = 0, QB_EXIT_FINDINGS = 1, QB_EXIT_USAGE = 2 };

struct qb_command {
	const char *name;
	const char *summary;
	const char *usage;         /* the synopsis and options, for help CMD */
	int (*run)(int argc, char **argv);
};

extern const struct qb_command qb_commands[];
extern const size_t qb_ncommands;
const struct qb_command *qb_command_find(const char *name);

int cmd_diff(int argc, char **argv);
int cmd_explain(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_help(int argc, char **argv);
int cmd_lint(int argc, char **argv);
int cmd_new(int argc, char **argv);
int cmd_rules(int argc, char **argv);
int cmd_stats(int argc, char **argv);

/* Prints "qbank: MESSAGE" on stderr. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints the one-line usage hint for CMD and returns QB_EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* 1 when colour may be used on F (a terminal, NO_COLOR unset). */
int cli_use_color(FILE *f);

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

#endif
