/* Feedback coverage rules: explanation-missing, rationale-missing. They
 * count the same parts as the run's coverage figures (lint.c). */
#include "../text.h"
#include "rules_impl.h"

int qb_rule_explanation_missing(struct qb_rule_ctx *cx, const struct qb_question *q)
{
	if (q->type == QB_Q_UNKNOWN)
		return 0;
	if (!q->explanation)
		return qb_rule_report(cx, QB_RULE_EXPLANATION_MISSING, q->line,
				      "question '%s' has no explanation; add an <explanation> that "
				      "says why the key is right", qb_rule_qid(q));
	if (qb_text_is_blank(q->explanation))
		return qb_rule_report(cx, QB_RULE_EXPLANATION_MISSING, q->explanation_line,
				      "question '%s' has an empty explanation; say why the key is right",
				      qb_rule_qid(q));
	return 0;
}

int qb_rule_rationale_missing(struct qb_rule_ctx *cx, const struct qb_question *q)
{
	struct qb_buf *ids = &cx->scratch2;
	unsigned long line = 0;
	size_t i, n = 0;
	int err = 0;

	qb_buf_clear(ids);
	if (qb_qtype_is_choice(q->type)) {
		for (i = 0; i < q->noptions && !err; i++) {
			const struct qb_option *o = &q->options[i];

			if (o->rationale && !qb_text_is_blank(o->rationale))
				continue;
			if (!line)
				line = o->line;
			n++;
			err = qb_rule_list_add(ids, o->id);
		}
		if (err || !n)
			return err;
		return qb_rule_report(cx, QB_RULE_RATIONALE_MISSING, line,
				      "question '%s': option%s %s ha%s no rationale; say in a <rationale> "
				      "why each option is right or wrong", qb_rule_qid(q),
				      n == 1 ? "" : "s", ids->ptr, n == 1 ? "s" : "ve");
	}
	if (q->type == QB_Q_TRUEFALSE) {
		int has[2] = { 0, 0 };

		for (i = 0; i < q->nside_rationales; i++)
			if (!qb_text_is_blank(q->side_rationales[i].node))
				has[q->side_rationales[i].for_true] = 1;
		if (has[0] && has[1])
			return 0;
		return qb_rule_report(cx, QB_RULE_RATIONALE_MISSING, q->line,
				      "truefalse question '%s' has no rationale for %s; add "
				      "<rationale for=\"true\"> and <rationale for=\"false\">",
				      qb_rule_qid(q),
				      !has[0] && !has[1] ? "either side"
				      : !has[1] ? "the true side" : "the false side");
	}
	return 0;
}
