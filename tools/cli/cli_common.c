#include "cli_common.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/rules.h"
#include "cli.h"

int cli_lint_setup_init(struct cli_lint_setup *s)
{
	memset(s, 0, sizeof(*s));
	if (qb_config_new(&s->cfg)) {
		cli_error("out of memory");
		return QB_EXIT_USAGE;
	}
	return 0;
}

static int parse_pct(double *out, const char *arg, const char *opt, const char *cmd)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (errno || end == arg || *end || v < 0 || v > 100)
		return cli_usage_error(cmd, "--%s takes a percentage from 0 to 100, not '%s'", opt, arg);
	*out = v;
	return 0;
}

/* --disable a,b / --enable a,b: ids or globs; an id that matches no rule is a usage error. */
static int set_list(struct qb_config *c, const char *list, int enable, const char *cmd)
{
	char *copy = strdup(list), *tok, *save = NULL;
	int rc = 0;

	if (!copy)
		return QB_EXIT_USAGE;
	for (tok = strtok_r(copy, ",", &save); tok && !rc; tok = strtok_r(NULL, ",", &save)) {
		if (!strpbrk(tok, "*?[") && !qb_rule_find(tok) && strncmp(tok, "custom/", 7) != 0) {
			const char *hint = qb_rule_suggest(tok);

			if (hint)
				rc = cli_usage_error(cmd, "unknown rule '%s'; did you mean '%s'?", tok, hint);
			else
				rc = cli_usage_error(cmd, "unknown rule '%s'; 'qbank rules' lists them", tok);
			break;
		}
		if (!enable && qb_rule_known(tok) == QB_CONFIG_RULE_FIXED) {
			rc = cli_usage_error(cmd, "'%s' is a read error and always an error: what qbank "
					     "cannot read is neither checked nor exported; fix the bank "
					     "instead", tok);
			break;
		}
		if (qb_config_set_severity(c, tok, QB_SEV_OFF, enable))
			rc = QB_EXIT_USAGE;
	}
	free(copy);
	return rc;
}

int cli_opt_max_warnings(void *field, const char *arg, const struct qb_opts *o)
{
	struct cli_lint_setup *s = field;
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v < 0)
		return cli_usage_error(qb_opts_hint(o), "--max-warnings takes a whole number >= 0, not '%s'",
				       arg);
	s->cfg->max_warnings = v;
	s->cfg->max_warnings_opt = 1;
	return 0;
}

int cli_opt_min_explanation(void *field, const char *arg, const struct qb_opts *o)
{
	struct cli_lint_setup *s = field;

	return parse_pct(&s->cfg->min_explanation_coverage, arg, "min-explanation-coverage",
			 qb_opts_hint(o));
}

int cli_opt_min_rationale(void *field, const char *arg, const struct qb_opts *o)
{
	struct cli_lint_setup *s = field;

	return parse_pct(&s->cfg->min_rationale_coverage, arg, "min-rationale-coverage",
			 qb_opts_hint(o));
}

int cli_opt_disable(void *field, const char *arg, const struct qb_opts *o)
{
	return set_list(((struct cli_lint_setup *)field)->cfg, arg, 0, qb_opts_hint(o));
}

int cli_opt_enable(void *field, const char *arg, const struct qb_opts *o)
{
	return set_list(((struct cli_lint_setup *)field)->cfg, arg, 1, qb_opts_hint(o));
}

/* Prints a configuration error, FILE:LINE: message, as compilers print.
 * The parser knows no rule table (tools/README.md "Floors"): a rule it
 * does not know gets its "did you mean" here, where the table is. */
static void config_error(const struct qb_error *err)
{
	static const char marker[] = "unknown rule '";
	const char *a = strstr(err->msg, marker), *b = a ? strchr(a + sizeof(marker) - 1, '\'') : NULL;
	char name[128];
	const char *hint = NULL;

	if (b && (size_t)(b - a) < sizeof(name) + sizeof(marker) - 1) {
		a += sizeof(marker) - 1;
		memcpy(name, a, (size_t)(b - a));
		name[b - a] = '\0';
		hint = qb_rule_suggest(name);
	}
	if (hint)
		fprintf(stderr, "%.*s; did you mean '%s'?\n", (int)(b + 1 - err->msg), err->msg, hint);
	else
		fprintf(stderr, "%s\n", err->msg);
}

/* The file is read after the options were parsed; qb_config_load puts its
 * settings under those of the command line, so that options win. */
int cli_lint_setup_finish(struct cli_lint_setup *s, const char *cmd)
{
	struct qb_error err = { 0, "" };
	char *found = NULL;
	const char *path = s->config_path;
	int rc;

	if (s->no_config && s->config_path)
		return cli_usage_error(cmd, "--config and --no-config exclude each other");
	if (s->no_config)
		return 0;
	if (!path) {
		if (qb_config_find(&found, &err)) {
			cli_error("%s", err.msg);
			return QB_EXIT_USAGE;
		}
		if (!found)
			return 0;
		path = found;
	}
	rc = qb_config_load(s->cfg, path, qb_rule_known, &err);
	if (rc == QB_EINVAL)
		config_error(&err);
	else if (rc)
		cli_error("%s", err.msg[0] ? err.msg : qb_error_str(rc));
	free(found);
	return rc ? QB_EXIT_USAGE : 0;
}

void cli_lint_setup_dispose(struct cli_lint_setup *s)
{
	qb_config_free(s->cfg);
	s->cfg = NULL;
}

int cli_lint_setup_open(struct cli_lint_setup *s, const char *cmd, char *const *args,
			size_t nargs, struct qb_paths *paths, struct qb_lint **l)
{
	struct qb_error err = { 0, "" };

	if (cli_lint_setup_finish(s, cmd))
		return QB_EXIT_USAGE;
	if (qb_paths_expand(paths, (const char *const *)args, nargs, &err)) {
		cli_error("%s", err.msg);
		return QB_EXIT_USAGE;
	}
	if (qb_lint_new(l, s->cfg, &err)) {
		cli_error("out of memory");
		return QB_EXIT_USAGE;
	}
	return 0;
}
