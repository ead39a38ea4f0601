/* The linter's state, shared by lint.c and the rule files (rules/). Not part
 * of the public interface. */
#ifndef QB_LINT_INTERNAL_H
#define QB_LINT_INTERNAL_H

#include <stddef.h>

#include "core/buf.h"
#include "lint.h"

struct suppression {
	char *rule;                /* id or glob */
	unsigned long line;
	int used;
};

struct qb_lint {
	const struct qb_config *cfg;
	enum qb_severity *sev;     /* effective severity, by rule table index */
	struct qb_diags diags;
	struct qb_lint_stats stats;

	char **files;              /* names of the run's files, by index */
	size_t nfiles, capfiles;
	const char *file;          /* current file */
	size_t file_index;
	size_t file_diag_start;    /* first diagnostic of the current file */

	const struct qb_question *q;  /* current question, or NULL */
	struct suppression *supp;  /* inline suppressions of the current question */
	size_t nsupp, capsupp;

	struct qb_buf scratch;     /* for rules: reusable text buffers */
	struct qb_buf scratch2;

	struct qb_lint_digests *digests;  /* bank-wide rules' state (rules/digest.c) */
	struct qb_rules_state *rules;     /* built-in rules' patterns and text cache (rules/rule_common.c) */
};

/* Severity in force for a rule of the table. */
enum qb_severity qb_lint_rule_severity(const struct qb_lint *l, const struct qb_rule *r);

#endif
