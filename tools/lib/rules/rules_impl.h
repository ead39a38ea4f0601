/* Check functions of the rule table, one file per family of rules. */
#ifndef QB_RULES_IMPL_H
#define QB_RULES_IMPL_H

#include "../lint_internal.h"
#include "../rules.h"

struct qb_lint_digests;
void qb_lint_digests_free(struct qb_lint_digests *d);

/* User (configuration) rules, run after the table for each question. */
int qb_lint_user_rules(struct qb_lint *l, const struct qb_question *q);

#endif
