/* The one option parser of the command line. A command describes each of
 * its options once, as a row of a struct qb_opt table: long and short
 * name, argument, help text and the function that stores it. The same
 * table drives getopt_long and prints the options part of the command's
 * help, so the two cannot drift apart (tests/ecosystem checks the help
 * against the man page). Values go into the command's own argument struct
 * (ARGS, on its stack): there are no option globals.
 * Ownership: the tables are static; a stored string points into argv. */
#ifndef QB_CLI_OPTS_H
#define QB_CLI_OPTS_H

#include <stddef.h>
#include <stdio.h>

struct qb_opts;

/* Stores ARG (NULL for an option without one) into FIELD, the row's field
 * of the command's argument struct (NULL when the command has none).
 * Returns 0 to go on, QB_OPTS_DONE when the command has nothing left to
 * do (it printed its help), or an exit status after printing what was
 * wrong (cli_usage_error). */
typedef int (*qb_opt_set)(void *field, const char *arg, const struct qb_opts *o);

#define QB_OPTS_DONE (-1)

/* Row flags. QB_OPT_JOIN: the help lists the row on the line of the row
 * before it ("--config FILE, --no-config"). */
#define QB_OPT_JOIN 1u

struct qb_opt {
	const char *name;        /* the long name, without "--" */
	char short_name;         /* -q; 0 for none */
	const char *arg;         /* the argument's name in the help (FILE); NULL: the option takes none */
	/* The help, lines separated by '\n'; NULL: no line of its own
	 * (--help, or a QB_OPT_JOIN row). */
	const char *help;
	size_t offset;           /* of the field in the command's argument struct */
	qb_opt_set set;
	unsigned flags;
};

/* Table flags. */
#define QB_OPTS_IN_ORDER 1u   /* options end at the first operand (qbank OPTIONS COMMAND ...) */
#define QB_OPTS_HINT_TOP 2u   /* usage errors say "try 'qbank --help'" (the help command) */

/* A command's options and the rest of its help. */
struct qb_opts {
	const char *name;        /* the command; NULL for qbank itself */
	const char *summary;     /* one line, also in qbank --help */
	const char *synopsis;    /* what follows "Usage: ", lines separated by '\n' */
	const struct qb_opt *v;
	size_t n;
	int col;                 /* the column where the options' help texts start */
	const char *footer;      /* lines after the options, or NULL */
	/* The usage error for an unknown option, or one without its argument:
	 * a format whose %s (if any) is the word on the command line. */
	const char *unknown;
	unsigned flags;
};

/* Most options a table may have (a unit test checks every table). */
#define QB_OPTS_MAX 32

/* Parses the options of ARGV[1..ARGC) into ARGS. Returns the index of the
 * first operand, or -1 when the command must end now, with its exit
 * status in *STATUS: QB_EXIT_OK after --help, QB_EXIT_USAGE after a usage
 * error (already printed). getopt_long's rules apply: options and
 * operands mix (unless QB_OPTS_IN_ORDER), -- ends the options, a long
 * name may be abbreviated while it stays unambiguous. */
int qb_opts_parse(const struct qb_opts *o, void *args, int argc, char **argv, int *status);

/* The command's help: "NAME - SUMMARY", the usage, the options, the footer. */
void qb_opts_help(FILE *out, const struct qb_opts *o);
/* Only the lines of the options: "  -q, --quiet  no progress ...". */
void qb_opts_print(FILE *out, const struct qb_opts *o);

/* Ready-made set functions: the int FIELD becomes 1; the const char *
 * FIELD becomes ARG; O's help is printed (qb_opts_help), and done. */
int qb_opt_flag(void *field, const char *arg, const struct qb_opts *o);
int qb_opt_string(void *field, const char *arg, const struct qb_opts *o);
int qb_opt_help(void *field, const char *arg, const struct qb_opts *o);

/* The command a usage error of O points to ('qbank help NAME'), or NULL
 * for 'qbank --help'. */
const char *qb_opts_hint(const struct qb_opts *o);

#endif
