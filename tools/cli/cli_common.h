/* What lint, export and stats share: the lint configuration that their
 * options and the configuration file build, and the set functions of the
 * options that change it (opts.h).
 * Ownership: a cli_lint_setup owns its configuration
 * (cli_lint_setup_dispose); the config path points into argv. */
#ifndef QB_CLI_COMMON_H
#define QB_CLI_COMMON_H

#include "../lib/config.h"
#include "../lib/lint.h"
#include "../lib/paths.h"
#include "opts.h"

struct cli_lint_setup {
	struct qb_config *cfg;
	const char *config_path;   /* --config */
	int no_config;             /* --no-config */
};

int cli_lint_setup_init(struct cli_lint_setup *s);
/* Reads the configuration file (named, or found upward), unless --no-config.
 * Command-line options win over the file. */
int cli_lint_setup_finish(struct cli_lint_setup *s, const char *cmd);
void cli_lint_setup_dispose(struct cli_lint_setup *s);

/* After the options: reads the configuration, expands the PATH arguments
 * ARGS into PATHS and creates the linter *L. Prints what went wrong and
 * returns QB_EXIT_USAGE; 0 on success. */
int cli_lint_setup_open(struct cli_lint_setup *s, const char *cmd, char *const *args,
			size_t nargs, struct qb_paths *paths, struct qb_lint **l);

/* Set functions of the options that change the configuration; FIELD is
 * the command's struct cli_lint_setup. --config and --no-config store with
 * qb_opt_string and qb_opt_flag into its config_path and no_config. */
int cli_opt_max_warnings(void *field, const char *arg, const struct qb_opts *o);
int cli_opt_min_explanation(void *field, const char *arg, const struct qb_opts *o);
int cli_opt_min_rationale(void *field, const char *arg, const struct qb_opts *o);
int cli_opt_disable(void *field, const char *arg, const struct qb_opts *o);
int cli_opt_enable(void *field, const char *arg, const struct qb_opts *o);

#endif
