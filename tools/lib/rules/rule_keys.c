/* Answer-key rules: key-missing, key-multiple, key-select-mismatch,
 * key-rationale-conflict, key-all-correct, and target-moodle-fraction (whose
 * question is whether the key can be scored on the target). */
#include <stdlib.h>
#include <string.h>

#include "../text.h"
#include "rules_impl.h"

static size_t count_correct(const struct qb_question *q)
{
	size_t i, n = 0;

	for (i = 0; i < q->noptions; i++)
		n += q->options[i].correct != 0;
	return n;
}

int qb_rule_key_missing(struct qb_rule_ctx *cx, const struct qb_question *q)
{
	if (!qb_qtype_is_choice(q->type) || q->noptions == 0 || count_correct(q) > 0)
		return 0;
	return qb_rule_report(cx, QB_RULE_KEY_MISSING, q->line,
			      "question '%s' has no correct option; mark the key with "
			      "correct=\"true\"", qb_rule_qid(q));
}

int qb_rule_key_multiple(struct qb_rule_ctx *cx, const struct qb_question *q)
{
	struct qb_buf *ids = &cx->scratch2;
	unsigned long line = 0;
	size_t i, n = 0;
	int err = 0;

	if (q->type != QB_Q_SINGLE || count_correct(q) < 2)
		return 0;
	qb_buf_clear(ids);
	for (i = 0; i < q->noptions && !err; i++) {
		if (!q->options[i].correct)
			continue;
		if (++n == 2)
			line = q->options[i].line;
		err = qb_rule_list_add(ids, q->options[i].id);
	}
	if (err)
		return err;
	return qb_rule_report(cx, QB_RULE_KEY_MULTIPLE, line,
			      "single question '%s' has %zu correct options (%s); keep one, or make "
			      "it type=\"multiple\"", qb_rule_qid(q), n, ids->ptr);
}

int qb_rule_key_all_correct(struct qb_rule_ctx *cx, const struct qb_question *q)
{
	if (q->type != QB_Q_MULTIPLE || q->noptions < 2 || count_correct(q) != q->noptions)
		return 0;
	return qb_rule_report(cx, QB_RULE_KEY_ALL_CORRECT, q->line,
			      "every option of multiple question '%s' is correct; selecting everything "
			      "scores full marks, so add a wrong option", qb_rule_qid(q));
}

/* ---- key-select-mismatch ---------------------------------------------- */

static const char *const number_words[] = {
	"one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
};

/* The number of a "Select N" match: digits or a number word. */
static long select_number(const char *s, size_t n)
{
	char tmp[8];
	size_t i;

	if (n == 0 || n >= sizeof(tmp))
		return -1;
	memcpy(tmp, s, n);
	tmp[n] = '\0';
	if (tmp[0] >= '0' && tmp[0] <= '9')
		return strtol(tmp, NULL, 10);
	for (i = 0; i < n; i++)
		if (tmp[i] >= 'A' && tmp[i] <= 'Z')
			tmp[i] = (char)(tmp[i] - 'A' + 'a');
	for (i = 0; i < sizeof(number_words) / sizeof(number_words[0]); i++)
		if (strcmp(tmp, number_words[i]) == 0)
			return (long)i + 1;
	return -1;
}

/* The ids of Q's correct options, "A, C", into B (as key-multiple names
 * them): the author sees which side of the disagreement to fix. */
static int correct_ids(struct qb_buf *b, const struct qb_question *q)
{
	size_t i;
	int err = 0;

	qb_buf_clear(b);
	for (i = 0; i < q->noptions && !err; i++)
		if (q->options[i].correct)
			err = qb_rule_list_add(b, q->options[i].id);
	return err;
}

int qb_rule_key_select_mismatch(struct qb_rule_ctx *cx, const struct qb_question *q)
{
	const struct qb_qcache *c;
	const char *stem;
	size_t n, start = 0, m[4];
	int err, rc;

	if (!qb_qtype_is_choice(q->type))
		return 0;
	err = qb_rule_qcache(cx, q, &c);
	if (err)
		return err;
	n = c->ncorrect;
	if (n == 0)
		return 0;  /* key-missing */
	if (q->type == QB_Q_MULTIPLE && q->has_select && q->select != (long)n) {
		err = correct_ids(&cx->scratch2, q);
		if (!err)
			err = qb_rule_report(cx, QB_RULE_KEY_SELECT_MISMATCH, q->line,
					     "question '%s' has %zu correct option%s (%s) but "
					     "select=\"%ld\"", qb_rule_qid(q), n, n == 1 ? "" : "s",
					     cx->scratch2.ptr, q->select);
		if (err)
			return err;
	}
	/* The stem's wording: the first "Select N" that disagrees is reported. */
	if (!qb_rule_may_match(QB_PAT_SELECT_N, c->stem_words))
		return 0;
	start = c->stem_words_at;
	stem = QB_QC_STR(c, c->stem_plain);
	while ((rc = qb_rule_match(cx, QB_PAT_SELECT_N, stem, c->stem_plain_len, start, m)) == 1) {
		long k = select_number(stem + m[2], m[3] - m[2]);

		start = m[1] > start ? m[1] : start + 1;
		if (k < 0 || k == (long)n)
			continue;
		err = correct_ids(&cx->scratch, q);
		qb_buf_clear(&cx->scratch2);
		if (!err)
			err = qb_rule_quote(&cx->scratch2, stem + m[0], m[1] - m[0]);
		if (!err)
			err = qb_rule_report(cx, QB_RULE_KEY_SELECT_MISMATCH, q->stem_line,
					     "question '%s' has %zu correct option%s (%s) but its stem "
					     "says \"%s\"", qb_rule_qid(q), n, n == 1 ? "" : "s",
					     cx->scratch.ptr, cx->scratch2.ptr);
		return err;
	}
	return rc < 0 ? rc : 0;
}

/* ---- key-rationale-conflict ------------------------------------------- */

/* The common openings "Correct." and "Incorrect: ...", read from the
 * rationale's first text node without building its plain text or running
 * the patterns. Decides only when the word follows nothing but ASCII white
 * space and is followed, in the same text node, by an ASCII byte that is
 * not a letter, digit, '_' or '-': then QB_PAT_RAT_NEG and QB_PAT_RAT_POS
 * give the same verdict and word (neither alternative list has another
 * word that starts with "c" or "i"). Returns 1 when it decided. */
static int verdict_fast(const xmlNode *n, int *out, const char **word, size_t *len)
{
	static const struct {
		const char *w;
		size_t n;
		int v;
	} words[] = { { "correct", 7, 1 }, { "incorrect", 9, -1 } };
	const xmlNode *c = n->children;
	const unsigned char *s;
	size_t i, j, k;

	if (!c || (c->type != XML_TEXT_NODE && c->type != XML_CDATA_SECTION_NODE) || !c->content)
		return 0;
	s = c->content;
	for (i = 0; s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'; i++)
		;
	for (k = 0; k < sizeof(words) / sizeof(words[0]); k++) {
		unsigned char after;

		for (j = 0; j < words[k].n && (s[i + j] | 0x20) == (unsigned char)words[k].w[j]; j++)
			;
		if (j < words[k].n)
			continue;
		after = s[i + j];
		if (after == '\0' || after >= 0x80 || (after >= 'a' && after <= 'z') ||
		    (after >= 'A' && after <= 'Z') || (after >= '0' && after <= '9') ||
		    after == '_' || after == '-')
			return 0;
		*out = words[k].v;
		*word = (const char *)s + i;
		*len = j;
		return 1;
	}
	return 0;
}

/* Whether the rationale N opens with a verdict: 1 "correct", -1 "wrong",
 * 0 neither. *WORD and *LEN give the verdict's words (in N's text or in
 * cx->scratch) for the message. */
static int verdict(struct qb_rule_ctx *cx, const xmlNode *n, int *out, const char **word, size_t *len)
{
	size_t m[4];
	int rc;

	*out = 0;
	if (verdict_fast(n, out, word, len))
		return 0;
	qb_buf_clear(&cx->scratch);
	rc = qb_text_plain(&cx->scratch, n);
	if (!rc)
		rc = qb_buf_grow(&cx->scratch, 0);
	if (rc)
		return rc;
	qb_rule_scratch_ready(cx);
	rc = qb_rule_match(cx, QB_PAT_RAT_NEG, cx->scratch.ptr, cx->scratch.len, 0, m);
	if (rc == 1)
		*out = -1;
	else if (rc == 0 &&
		 (rc = qb_rule_match(cx, QB_PAT_RAT_POS, cx->scratch.ptr, cx->scratch.len, 0, m)) == 1)
		*out = 1;
	if (rc < 0)
		return rc;
	if (*out) {   /* M is set only by a match */
		*word = cx->scratch.ptr + m[2];
		*len = m[3] - m[2];
	}
	return 0;
}

/* The verdict's words, quoted into cx->scratch2. */
static int quote_verdict(struct qb_rule_ctx *cx, const char *word, size_t len)
{
	qb_buf_clear(&cx->scratch2);
	return qb_rule_quote(&cx->scratch2, word, len);
}

int qb_rule_key_rationale_conflict(struct qb_rule_ctx *cx, const struct qb_question *q)
{
	const char *word = NULL;
	size_t i, len = 0;
	int err = 0, v;

	if (qb_qtype_is_choice(q->type)) {
		for (i = 0; i < q->noptions && !err; i++) {
			const struct qb_option *o = &q->options[i];

			if (!o->rationale)
				continue;
			err = verdict(cx, o->rationale, &v, &word, &len);
			if (err || !v || (v > 0) == (o->correct != 0))
				continue;
			err = quote_verdict(cx, word, len);
			if (!err)
				err = qb_rule_report(cx, QB_RULE_KEY_RATIONALE_CONFLICT, o->rationale_line,
						     "question '%s': the rationale of option %s opens with "
						     "\"%s\" but the option is %s; fix the key or the rationale",
						     qb_rule_qid(q), o->id, cx->scratch2.ptr,
						     o->correct ? "marked correct" : "not marked correct");
		}
	} else if (q->type == QB_Q_TRUEFALSE && q->nanswers == 1 &&
		   (strcmp(q->answers[0].value, "true") == 0 ||
		    strcmp(q->answers[0].value, "false") == 0)) {
		int truth = strcmp(q->answers[0].value, "true") == 0;

		for (i = 0; i < q->nside_rationales && !err; i++) {
			const struct qb_side_rationale *s = &q->side_rationales[i];

			err = verdict(cx, s->node, &v, &word, &len);
			if (err || !v || (v > 0) == (s->for_true == truth))
				continue;
			err = quote_verdict(cx, word, len);
			if (!err)
				err = qb_rule_report(cx, QB_RULE_KEY_RATIONALE_CONFLICT, s->line,
						     "truefalse question '%s': the rationale for \"%s\" opens "
						     "with \"%s\" but the answer is %s; fix the answer or the "
						     "rationale", qb_rule_qid(q), s->for_true ? "true" : "false",
						     cx->scratch2.ptr, truth ? "true" : "false");
		}
	}
	return err;
}

/* ---- numeric-tolerance-missing ---------------------------------------- */

/* 1 when the answer VALUE is a number written with a fractional part or
 * an exponent: one a candidate may round. Whole numbers are counts and
 * exact by nature; a value that is no number is type-shape's finding. */
static int has_fraction(const char *value)
{
	char *end;

	if (!*value)
		return 0;
	(void)strtod(value, &end);
	return *end == '\0' && strpbrk(value, ".eE") != NULL;
}

int qb_rule_numeric_tolerance_missing(struct qb_rule_ctx *cx, const struct qb_question *q)
{
	size_t i;
	int err = 0;

	if (q->type != QB_Q_NUMERIC)
		return 0;
	for (i = 0; i < q->nanswers && !err; i++) {
		const struct qb_answer *a = &q->answers[i];

		if (a->tolerance || !a->value || !has_fraction(a->value))
			continue;
		err = qb_rule_report(cx, QB_RULE_NUMERIC_TOLERANCE_MISSING, a->line,
				     "numeric question '%s': answer %s has no tolerance, so only exactly "
				     "%s scores and a rounded answer is marked wrong; add tolerance=\"...\" "
				     "(e.g. tolerance=\"0.001\"), or tolerance=\"0\" if exact is meant",
				     qb_rule_qid(q), a->value, a->value);
	}
	return err;
}
