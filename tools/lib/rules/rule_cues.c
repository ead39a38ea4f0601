/* Cue rules (hints that give the key away to a test-wise candidate):
 * cue-longest-option, cue-absolute-terms. */
#include "rules_impl.h"

/* The key is "clearly the longest" when it is at least LONGEST_RATIO times
 * as long as the longest distractor and at least LONGEST_MIN_EXTRA
 * characters longer (normalised text, code points). The second bound keeps
 * short options ("DDP" against "DP") from counting. Documented in the rule's
 * explanation (rules.c). */
#define LONGEST_RATIO 1.5
#define LONGEST_MIN_EXTRA 10

int qb_rule_cue_longest_option(struct qb_rule_ctx *cx, const struct qb_question *q)
{
	const struct qb_qcache *c;
	size_t i, key = 0, longest = 0;
	int err;

	if (q->type != QB_Q_SINGLE || q->noptions < 2)
		return 0;
	err = qb_rule_qcache(cx, q, &c);
	if (err || c->ncorrect != 1)
		return err;
	for (i = 0; i < q->noptions; i++) {
		if (c->opt[i].nchars == 0)
			return 0;  /* text-empty */
		if (q->options[i].correct)
			key = i;
		else if (c->opt[i].nchars > longest)
			longest = c->opt[i].nchars;
	}
	if ((double)c->opt[key].nchars < LONGEST_RATIO * (double)longest ||
	    c->opt[key].nchars < longest + LONGEST_MIN_EXTRA)
		return 0;
	return qb_rule_report(cx, QB_RULE_CUE_LONGEST_OPTION, q->options[key].line,
			      "question '%s': the only correct option, %s, is clearly the longest "
			      "(%zu characters, the longest distractor %zu); shorten it or make the "
			      "distractors as specific", qb_rule_qid(q), q->options[key].id,
			      c->opt[key].nchars, longest);
}

int qb_rule_cue_absolute_terms(struct qb_rule_ctx *cx, const struct qb_question *q)
{
	const struct qb_qcache *c;
	struct qb_buf *list = &cx->scratch2;
	unsigned long line = 0;
	size_t i, m[4], a[4];
	int err, rc;

	if (!qb_qtype_is_choice(q->type))
		return 0;
	err = qb_rule_qcache(cx, q, &c);
	if (err || c->ncorrect == 0)
		return err;
	qb_buf_clear(list);
	for (i = 0; i < q->noptions; i++) {
		const struct qb_qcache_opt *o = &c->opt[i];
		const char *s = QB_QC_STR(c, o->norm);

		if (!qb_rule_may_match(QB_PAT_ABSOLUTE, o->norm_words))
			continue;
		rc = qb_rule_match(cx, QB_PAT_ABSOLUTE, s, o->norm_len, 0, m);
		if (rc < 0)
			return rc;
		if (rc == 0)
			continue;
		/* "all/none of the above" have rules of their own; asked only once
		 * an absolute term was found, since few options have one */
		rc = qb_rule_may_match(QB_PAT_ALL_ABOVE, o->norm_words)
			     ? qb_rule_match(cx, QB_PAT_ALL_ABOVE, s, o->norm_len, 0, a) : 0;
		if (rc == 0 && qb_rule_may_match(QB_PAT_NONE_ABOVE, o->norm_words))
			rc = qb_rule_match(cx, QB_PAT_NONE_ABOVE, s, o->norm_len, 0, a);
		if (rc < 0)
			return rc;
		if (rc == 1)
			continue;
		if (q->options[i].correct)
			return 0;  /* the key uses them too: no cue */
		if (!line)
			line = q->options[i].line;
		err = qb_rule_list_add(list, q->options[i].id);
		if (!err)
			err = qb_buf_adds(list, " (\"");
		if (!err)
			err = qb_buf_add(list, s + m[0], m[1] - m[0]);
		if (!err)
			err = qb_buf_adds(list, "\")");
		if (err)
			return err;
	}
	if (!line)
		return 0;
	return qb_rule_report(cx, QB_RULE_CUE_ABSOLUTE_TERMS, line,
			      "question '%s': absolute terms appear only in distractors: %s; "
			      "test-wise candidates rule such options out, so qualify them or word "
			      "the key as firmly", qb_rule_qid(q), list->ptr);
}
