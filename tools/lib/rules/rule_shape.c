/* Rules about the shape of a question: type-shape (the body fits the type),
 * text-empty (no blank parts), option-count. */
#include <string.h>

#include "../text.h"
#include "rules_impl.h"

#define T(x) (1u << (x))
#define CHOICE (T(QB_Q_SINGLE) | T(QB_Q_MULTIPLE))

/* ---- type-shape ------------------------------------------------------- */

/* How many of a body part (or attribute) a question has, and the line of
 * the first one. */
typedef size_t (*part_count_fn)(const struct qb_question *q, unsigned long *line);

static size_t n_options(const struct qb_question *q, unsigned long *line)
{
	*line = q->noptions ? q->options[0].line : 0;
	return q->noptions;
}

static size_t n_answers(const struct qb_question *q, unsigned long *line)
{
	*line = q->nanswers ? q->answers[0].line : 0;
	return q->nanswers;
}

static size_t n_side_rationales(const struct qb_question *q, unsigned long *line)
{
	*line = q->nside_rationales ? q->side_rationales[0].line : 0;
	return q->nside_rationales;
}

static size_t n_pairs(const struct qb_question *q, unsigned long *line)
{
	*line = q->npairs ? q->pairs[0].line : 0;
	return q->npairs;
}

static size_t n_distractors(const struct qb_question *q, unsigned long *line)
{
	*line = q->ndistractors ? q->distractors[0].line : 0;
	return q->ndistractors;
}

static size_t n_response(const struct qb_question *q, unsigned long *line)
{
	*line = qb_rule_node_line(q->response);
	return q->response != NULL;
}

static size_t n_rubric(const struct qb_question *q, unsigned long *line)
{
	*line = qb_rule_node_line(q->rubric);
	return q->rubric != NULL;
}

static size_t attr_present(const struct qb_question *q, const char *name, unsigned long *line)
{
	*line = q->line;
	return xmlHasProp((xmlNodePtr)q->node, BAD_CAST name) != NULL;
}

static size_t n_select(const struct qb_question *q, unsigned long *line)
{
	return attr_present(q, "select", line);
}

static size_t n_case_sensitive(const struct qb_question *q, unsigned long *line)
{
	return attr_present(q, "case-sensitive", line);
}

static size_t n_shuffle(const struct qb_question *q, unsigned long *line)
{
	return attr_present(q, "shuffle", line);
}

/* Which types each body part and attribute belongs to (schema/README.md,
 * "Questions"). */
static const struct {
	const char *what;       /* as named in messages */
	int attribute;
	unsigned types;         /* bit per enum qb_qtype */
	const char *belongs;
	part_count_fn count;
} parts[] = {
	{ "<option>", 0, CHOICE, "single and multiple questions only", n_options },
	{ "<answer>", 0, T(QB_Q_TRUEFALSE) | T(QB_Q_SHORT) | T(QB_Q_NUMERIC),
	  "truefalse, short and numeric questions only", n_answers },
	{ "question-level <rationale for>", 0, T(QB_Q_TRUEFALSE),
	  "truefalse questions only (a choice question gives each option its own rationale)",
	  n_side_rationales },
	{ "<pair>", 0, T(QB_Q_MATCHING), "matching questions only", n_pairs },
	{ "<distractor>", 0, T(QB_Q_MATCHING), "matching questions only", n_distractors },
	{ "<response>", 0, T(QB_Q_ESSAY), "essay questions only", n_response },
	{ "<rubric>", 0, T(QB_Q_ESSAY), "essay questions only", n_rubric },
	{ "select", 1, T(QB_Q_MULTIPLE), "multiple questions only", n_select },
	{ "case-sensitive", 1, T(QB_Q_SHORT), "short questions only", n_case_sensitive },
	{ "shuffle", 1, CHOICE | T(QB_Q_MATCHING), "single, multiple and matching questions only",
	  n_shuffle },
};

/* A decimal number as Moodle and QTI read it: optional sign, digits with
 * an optional dot, optional exponent. No hex, inf or nan (strtod takes them). */
static int is_decimal(const char *s)
{
	int digits = 0;

	if (*s == '+' || *s == '-')
		s++;
	while (*s >= '0' && *s <= '9')
		s++, digits++;
	if (*s == '.') {
		s++;
		while (*s >= '0' && *s <= '9')
			s++, digits++;
	}
	if (!digits)
		return 0;
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		if (!(*s >= '0' && *s <= '9'))
			return 0;
		while (*s >= '0' && *s <= '9')
			s++;
	}
	return *s == '\0';
}

static int has_decimal_comma(const char *s)
{
	const char *c = strchr(s, ',');
	char tmp[64];
	size_t n = strlen(s);

	if (!c || strchr(c + 1, ',') || n >= sizeof(tmp))
		return 0;
	memcpy(tmp, s, n + 1);
	tmp[c - s] = '.';
	return is_decimal(tmp);
}

static int shape_truefalse(struct qb_rule_ctx *cx, const struct qb_question *q)
{
	const char *id = qb_rule_qid(q);
	int err = 0, seen[2] = { 0, 0 };
	size_t i;

	if (q->nanswers == 0)
		err = qb_rule_report(cx, QB_RULE_TYPE_SHAPE, q->line,
				     "truefalse question '%s' has no <answer>; add <answer>true</answer> "
				     "or <answer>false</answer>", id);
	else if (q->nanswers > 1)
		err = qb_rule_report(cx, QB_RULE_TYPE_SHAPE, q->answers[1].line,
				     "truefalse question '%s' has %zu answers; it takes exactly one, "
				     "true or false", id, q->nanswers);
	if (!err && q->nanswers >= 1 && q->answers[0].value[0] &&
	    strcmp(q->answers[0].value, "true") != 0 && strcmp(q->answers[0].value, "false") != 0)
		err = qb_rule_report(cx, QB_RULE_TYPE_SHAPE, q->answers[0].line,
				     "truefalse question '%s' has the answer \"%s\"; write true or false "
				     "(lower case)", id, q->answers[0].value);
	for (i = 0; i < q->nside_rationales && !err; i++) {
		int side = q->side_rationales[i].for_true;

		if (seen[side]++)
			err = qb_rule_report(cx, QB_RULE_TYPE_SHAPE, q->side_rationales[i].line,
					     "truefalse question '%s' has a second <rationale for=\"%s\">; "
					     "merge them, one rationale per side", id,
					     side ? "true" : "false");
	}
	return err;
}

static int shape_answers(struct qb_rule_ctx *cx, const struct qb_question *q)
{
	const char *id = qb_rule_qid(q);
	size_t i;
	int err = 0;

	for (i = 0; i < q->nanswers && !err; i++) {
		const struct qb_answer *a = &q->answers[i];

		if (q->type != QB_Q_NUMERIC && (a->tolerance || a->unit)) {
			err = qb_rule_report(cx, QB_RULE_TYPE_SHAPE, a->line,
					     "%s question '%s' has an answer with %s; tolerance and unit "
					     "belong to numeric questions", q->type_name, id,
					     a->tolerance ? "a tolerance" : "a unit");
			continue;
		}
		if (q->type != QB_Q_NUMERIC)
			continue;
		if (a->value[0] && !is_decimal(a->value))
			err = qb_rule_report(cx, QB_RULE_TYPE_SHAPE, a->line,
					     has_decimal_comma(a->value)
						     ? "numeric question '%s' has the answer \"%s\" with a decimal "
						       "comma; write the number with a dot"
						     : "numeric question '%s' has the answer \"%s\", which is not "
						       "a number; write a decimal number such as 2.5",
					     id, a->value);
		if (!err && a->tolerance) {
			size_t n;
			const char *t = qb_text_trim(a->tolerance, &n);
			char tmp[64];

			if (n >= sizeof(tmp) || (memcpy(tmp, t, n), tmp[n] = '\0', !is_decimal(tmp)) ||
			    tmp[0] == '-')
				err = qb_rule_report(cx, QB_RULE_TYPE_SHAPE, a->line,
						     "numeric question '%s' has the tolerance \"%s\", which is "
						     "not a number >= 0", id, a->tolerance);
		}
	}
	if (!err && q->type == QB_Q_NUMERIC && q->nanswers == 0)
		err = qb_rule_report(cx, QB_RULE_TYPE_SHAPE, q->line,
				     "numeric question '%s' has no <answer>; add the number, e.g. "
				     "<answer tolerance=\"0.5\">12.5</answer>", id);
	if (!err && q->type == QB_Q_NUMERIC && q->nanswers > 1)
		err = qb_rule_report(cx, QB_RULE_TYPE_SHAPE, q->answers[1].line,
				     "numeric question '%s' has %zu answers; it takes exactly one "
				     "(widen its tolerance instead)", id, q->nanswers);
	if (!err && q->type == QB_Q_SHORT && q->nanswers == 0)
		err = qb_rule_report(cx, QB_RULE_TYPE_SHAPE, q->line,
				     "short question '%s' has no <answer>; add at least one accepted "
				     "answer", id);
	return err;
}

static int shape_matching(struct qb_rule_ctx *cx, const struct qb_question *q)
{
	const char *id = qb_rule_qid(q);
	size_t i;
	int err = 0;

	if (q->npairs < 2)
		err = qb_rule_report(cx, QB_RULE_TYPE_SHAPE, q->npairs ? q->pairs[0].line : q->line,
				     "matching question '%s' has %zu <pair>; it needs at least 2",
				     id, q->npairs);
	for (i = 0; i < q->npairs && !err; i++) {
		const struct qb_pair *p = &q->pairs[i];

		if (!p->premise || !p->response)
			err = qb_rule_report(cx, QB_RULE_TYPE_SHAPE, p->line,
					     "matching question '%s': pair %zu has no <%s>; a pair holds "
					     "a premise and its response", id, i + 1,
					     p->premise ? "response" : "premise");
	}
	return err;
}

/* Option ids must be unique in the question: an explicit id may collide
 * with another explicit id or with the letter another option gets by
 * default. Two default letters never collide. */
static int shape_option_ids(struct qb_rule_ctx *cx, const struct qb_question *q)
{
	size_t i, j;
	int err = 0;

	for (i = 1; i < q->noptions && !err; i++) {
		for (j = 0; j < i; j++) {
			const struct qb_option *a = &q->options[j], *b = &q->options[i];

			if (!(a->explicit_id || b->explicit_id) || strcmp(a->id, b->id) != 0)
				continue;
			err = qb_rule_report(cx, QB_RULE_TYPE_SHAPE, b->line,
					     "question '%s': option %zu has the id '%s', which option "
					     "%zu already has%s; option ids must be unique in the question",
					     qb_rule_qid(q), i + 1, b->id, j + 1,
					     a->explicit_id ? "" : " as its default letter");
			break;
		}
	}
	return err;
}

int qb_rule_type_shape(struct qb_rule_ctx *cx, const struct qb_question *q)
{
	size_t i;
	int err = 0;

	if (q->type == QB_Q_UNKNOWN)
		return 0;  /* the schema reports unknown types */
	for (i = 0; i < sizeof(parts) / sizeof(parts[0]) && !err; i++) {
		unsigned long line;
		size_t n = parts[i].count(q, &line);

		if (n == 0 || (parts[i].types & T(q->type)))
			continue;
		if (parts[i].attribute)
			err = qb_rule_report(cx, QB_RULE_TYPE_SHAPE, line,
					     "%s question '%s' has the %s attribute, which applies to %s",
					     q->type_name, qb_rule_qid(q), parts[i].what, parts[i].belongs);
		else
			err = qb_rule_report(cx, QB_RULE_TYPE_SHAPE, line,
					     "%s question '%s' has %zu %s element%s, which belong%s to %s",
					     q->type_name, qb_rule_qid(q), n, parts[i].what,
					     n == 1 ? "" : "s", n == 1 ? "s" : "", parts[i].belongs);
	}
	if (!err && q->type == QB_Q_TRUEFALSE)
		err = shape_truefalse(cx, q);
	if (!err && (q->type == QB_Q_SHORT || q->type == QB_Q_NUMERIC || q->type == QB_Q_TRUEFALSE))
		err = shape_answers(cx, q);
	if (!err && q->type == QB_Q_MATCHING)
		err = shape_matching(cx, q);
	if (!err && qb_qtype_is_choice(q->type))
		err = shape_option_ids(cx, q);
	return err;
}

/* ---- text-empty ------------------------------------------------------- */

int qb_rule_text_empty(struct qb_rule_ctx *cx, const struct qb_question *q)
{
	const char *id = qb_rule_qid(q);
	size_t i;
	int err = 0;

	if (q->stem && qb_text_is_blank(q->stem))
		err = qb_rule_report(cx, QB_RULE_TEXT_EMPTY, q->stem_line,
				     "question '%s' has an empty stem; write the question the candidate "
				     "answers", id);
	for (i = 0; i < q->noptions && !err; i++)
		if (q->options[i].text && qb_text_is_blank(q->options[i].text))
			err = qb_rule_report(cx, QB_RULE_TEXT_EMPTY, q->options[i].text_line,
					     "question '%s': option %s has an empty text", id,
					     q->options[i].id);
	for (i = 0; i < q->nanswers && !err; i++)
		if (q->answers[i].value[0] == '\0')
			err = qb_rule_report(cx, QB_RULE_TEXT_EMPTY, q->answers[i].line,
					     "question '%s': answer %zu is empty", id, i + 1);
	for (i = 0; i < q->npairs && !err; i++) {
		const struct qb_pair *p = &q->pairs[i];

		if (p->premise && qb_text_is_blank(p->premise))
			err = qb_rule_report(cx, QB_RULE_TEXT_EMPTY, qb_rule_node_line(p->premise),
					     "question '%s': the premise of pair %zu is empty", id, i + 1);
		if (!err && p->response && qb_text_is_blank(p->response))
			err = qb_rule_report(cx, QB_RULE_TEXT_EMPTY, qb_rule_node_line(p->response),
					     "question '%s': the response of pair %zu is empty", id, i + 1);
	}
	for (i = 0; i < q->ndistractors && !err; i++)
		if (qb_text_is_blank(q->distractors[i].node))
			err = qb_rule_report(cx, QB_RULE_TEXT_EMPTY, q->distractors[i].line,
					     "question '%s': distractor %zu is empty", id, i + 1);
	return err;
}

/* ---- option-count ----------------------------------------------------- */

int qb_rule_option_count(struct qb_rule_ctx *cx, const struct qb_question *q)
{
	if (!qb_qtype_is_choice(q->type))
		return 0;
	if (q->noptions < 2)
		return qb_rule_report_min(cx, QB_RULE_OPTION_COUNT, QB_SEV_ERROR, q->line,
					  "question '%s' has %zu option%s; a choice question needs at "
					  "least 2 (3 to 6 are recommended)", qb_rule_qid(q),
					  q->noptions, q->noptions == 1 ? "" : "s");
	if (q->noptions < 3)
		return qb_rule_report(cx, QB_RULE_OPTION_COUNT, q->line,
				      "question '%s' has only 2 options; add a plausible distractor "
				      "(3 to 6 options), or make it a truefalse question", qb_rule_qid(q));
	if (q->noptions > 6)
		return qb_rule_report(cx, QB_RULE_OPTION_COUNT, q->line,
				      "question '%s' has %zu options; more than 6 add reading time "
				      "without improving the item (3 to 6 are recommended)",
				      qb_rule_qid(q), q->noptions);
	return 0;
}
