/* The command line: the table of commands over the library core, and what
 * the commands share (exit statuses and messages: msg.h). Only this layer prints and
 * decides exit status; the output formats of lint are format.h's, below
 * the commands. Each command's options, and so its help, are a struct
 * qb_opts (opts.h) in the command's own file.
 * Ownership: the tables are static. */
#ifndef QB_CLI_H
#define QB_CLI_H

#include "msg.h"
#include "opts.h"

struct qb_command {
	const struct qb_opts *opts;   /* its name, summary, options and help */
	int (*run)(int argc, char **argv);
};

/* Sorted by name (qb_command_find searches it); the rows also produce
 * `qbank --help`. */
extern const struct qb_command qb_commands[];
extern const size_t qb_ncommands;
const struct qb_command *qb_command_find(const char *name);

/* qbank's own options (--help, --version), parsed before the command. */
extern const struct qb_opts qb_top_opts;

extern const struct qb_opts cmd_diff_opts;
extern const struct qb_opts cmd_explain_opts;
extern const struct qb_opts cmd_export_opts;
extern const struct qb_opts cmd_help_opts;
extern const struct qb_opts cmd_import_opts;
extern const struct qb_opts cmd_lint_opts;
extern const struct qb_opts cmd_new_opts;
extern const struct qb_opts cmd_rules_opts;
extern const struct qb_opts cmd_stats_opts;

int cmd_diff(int argc, char **argv);
int cmd_explain(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_help(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_lint(int argc, char **argv);
int cmd_new(int argc, char **argv);
int cmd_rules(int argc, char **argv);
int cmd_stats(int argc, char **argv);

#endif
