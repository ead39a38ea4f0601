/* Progress on standard error while a long run reads its banks:
 * "reading 123 MB of 456 MB (27%)", redrawn in place. Shown only when
 * standard error is a terminal, the environment variable CI is unset or
 * empty, the command was not given --quiet, and the run has already taken
 * more than a second: short runs and logs stay clean.
 * Ownership: the caller owns the struct (usually on its stack). */
#ifndef QB_CLI_PROGRESS_H
#define QB_CLI_PROGRESS_H

#include <time.h>

struct cli_progress {
	int enabled;
	int shown;                 /* a line is on the screen */
	int width;                 /* length of that line */
	struct timespec start;
	double last;               /* seconds after start of the last redraw */
};

void cli_progress_init(struct cli_progress *p, int quiet);
/* The progress callback of struct qb_run_hooks; CTX is a cli_progress. */
void cli_progress_update(void *ctx, unsigned long long done, unsigned long long total);
/* Erases the line, if one is shown, so that what follows starts clean. */
void cli_progress_done(struct cli_progress *p);

#endif
