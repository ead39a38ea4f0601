/* Lint configuration: rule severities, coverage thresholds, user rules.
 * Ownership: a qb_config owns all its strings and compiled patterns;
 * qb_config_free releases them. The command line fills one from
 * --enable/--disable/--min-*-coverage and an optional configuration file. */
#ifndef QB_CONFIG_H
#define QB_CONFIG_H

#include <stddef.h>

#include "diag.h"
#include "error.h"

/* One severity override: a rule id or a glob ("cue-*"), in the order given;
 * later entries win. */
struct qb_severity_rule {
	char *pattern;
	enum qb_severity severity;   /* QB_SEV_OFF disables */
	int enable_default;          /* 1 for --enable: the rule's default severity */
};

struct qb_config {
	struct qb_severity_rule *sev;
	size_t nsev;
	double min_explanation_coverage;   /* percent, -1 = no threshold */
	double min_rationale_coverage;     /* percent, -1 = no threshold */
	long max_warnings;                 /* -1 = unlimited */
	struct qb_user_rule *user_rules;   /* see config.c */
	size_t nuser_rules;
	char *path;                        /* configuration file read, or NULL */
};

int qb_config_new(struct qb_config **out);
void qb_config_free(struct qb_config *c);

/* Adds an override; PATTERN is an id or a glob. */
int qb_config_set_severity(struct qb_config *c, const char *pattern,
			   enum qb_severity sev, int enable_default);

/* The severity in force for RULE_ID whose default is DFLT. */
enum qb_severity qb_config_severity(const struct qb_config *c,
				    const char *rule_id, enum qb_severity dflt);

#endif
