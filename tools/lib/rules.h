/* The rule table: every lint rule is one row. `qbank rules`, `qbank explain`,
 * the README's rule list and the SARIF rule metadata all come from it.
 * The table is sorted by id (a unit test checks it) and ids are never reused. */
#ifndef QB_RULES_H
#define QB_RULES_H

#include <stddef.h>

#include "diag.h"
#include "model.h"

struct qb_lint;

struct qb_rule {
	const char *id;
	enum qb_severity severity;   /* default */
	const char *summary;         /* one line */
	const char *explanation;     /* a paragraph, then "Bad:" and "Good:" examples */
	/* Called for each schema-valid question; reports with qb_lint_report(). NULL
	 * for rules reported elsewhere (by the reader, the driver or a finish step). */
	int (*check)(struct qb_lint *l, const struct qb_question *q);
	/* Called once after the last file (bank-wide rules), or NULL. */
	int (*finish)(struct qb_lint *l);
};

extern const struct qb_rule qb_rules[];
extern const size_t qb_nrules;

/* Binary search by id; NULL when unknown. */
const struct qb_rule *qb_rule_find(const char *id);

#endif
