/* The rule table: every lint rule is one row (struct qb_rule, rule.h), at
 * the index of its name in rule_ids.h. `qbank rules`, `qbank explain`, the
 * README's rule list and the SARIF rule metadata all come from it.
 * The table is sorted by id (a unit test checks it) and ids are never
 * reused. Everything here is static: nothing to free. */
#ifndef QB_RULES_H
#define QB_RULES_H

#include <stddef.h>

#include "rule.h"
#include "rule_ids.h"

extern const struct qb_rule qb_rules[QB_RULE_COUNT];
extern const size_t qb_nrules;

/* Binary search by id; NULL when unknown. */
const struct qb_rule *qb_rule_find(const char *id);

/* Nonzero when NAME may stand for rules in a configuration, a --disable
 * list or a suppression: an id of the table, a glob ("cue-*"), or a user
 * rule's id (custom/...); 0 otherwise. The id of a fixed rule (a read
 * error, struct qb_rule) gives QB_CONFIG_RULE_FIXED, anything else known
 * QB_CONFIG_RULE_OK (config.h): the configuration's parser takes it as its
 * rule check (qb_config_load). A glob never touches a fixed rule. */
int qb_rule_known(const char *name);

/* The id of the table nearest to NAME, for "did you mean" (a misspelt id:
 * key-mising), or NULL when none is near. */
const char *qb_rule_suggest(const char *name);

#endif
