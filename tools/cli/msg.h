/* What every part of the command line prints with: the exit statuses and
 * the error messages on stderr (defined in commands.c). Its own header so
 * that the option parser (opts.c) and the commands (cli.h) both include it
 * without including each other.
 * Ownership: nothing is allocated. */
#ifndef QB_CLI_MSG_H
#define QB_CLI_MSG_H

#include <stdio.h>

/* Exit statuses (DESIGN.md): 0 clean, 1 findings fail the run, 2 usage,
 * configuration or I/O error. */
enum { QB_EXIT_OK = 0, QB_EXIT_FINDINGS = 1, QB_EXIT_USAGE = 2 };

/* Prints "qbank: MESSAGE" on stderr. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints "qbank: MESSAGE" and the hint to CMD's help ('qbank --help' for
 * NULL) on stderr, and returns QB_EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* 1 when colour may be used on F (a terminal, NO_COLOR unset). */
int cli_use_color(FILE *f);

#endif
