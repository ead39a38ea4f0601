/* Options shared by lint, export and stats: the configuration they build. */
#ifndef QB_CLI_COMMON_H
#define QB_CLI_COMMON_H

#include "../lib/config.h"
#include "../lib/lint.h"
#include "../lib/paths.h"

struct cli_lint_setup {
	struct qb_config *cfg;
	const char *config_path;   /* --config */
	int no_config;             /* --no-config */
};

int cli_lint_setup_init(struct cli_lint_setup *s);
/* Applies one option by its long name; returns 0, or prints and returns QB_EXIT_USAGE. */
int cli_lint_setup_option(struct cli_lint_setup *s, const char *name, const char *arg,
			  const char *cmd);
/* Reads the configuration file (named, or found upward), unless --no-config.
 * Command-line options win over the file. */
int cli_lint_setup_finish(struct cli_lint_setup *s, const char *cmd);
void cli_lint_setup_dispose(struct cli_lint_setup *s);

/* After the options: reads the configuration, expands the PATH arguments
 * ARGS into PATHS and creates the linter *L. Prints what went wrong and
 * returns QB_EXIT_USAGE; 0 on success. */
int cli_lint_setup_open(struct cli_lint_setup *s, const char *cmd, char *const *args,
			size_t nargs, struct qb_paths *paths, struct qb_lint **l);

#endif
