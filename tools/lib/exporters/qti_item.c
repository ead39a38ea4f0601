/* One question as one QTI 2.1 assessmentItem.
 *
 * Every item has the response RESPONSE and the outcomes SCORE (float,
 * normalMaximum = points), MAXSCORE (= points) and, when the question has
 * them, FEEDBACK and EXPLANATION:
 *
 * - Option rationales (and truefalse's per-side rationales): one
 *   modalFeedback per choice on the outcome FEEDBACK, showHide = show,
 *   identifier feedback_N (N: the option's position, 1-based) or
 *   feedback_true / feedback_false, named so that importers that go by
 *   feedback names (Canvas, Inspera) take them for answer feedback and
 *   never for correct/incorrect feedback, and no option id can clash with
 *   them. FEEDBACK has single cardinality in single-answer questions
 *   (Inspera's form) and multiple in multiple-response ones (every ticked
 *   option shows its rationale). responseProcessing sets it in one
 *   responseCondition per option with a rationale, inside the responseIf
 *   that tests that option, from an expression that names FEEDBACK:
 *   Canvas links answer feedback only in that shape (see
 *   tools/lib/exporters/README.md).
 * - The explanation is a modalFeedback general_fb (Canvas's name for
 *   feedback shown whatever the answer) on its own outcome, EXPLANATION,
 *   which responseProcessing sets unconditionally: it is shown after every
 *   attempt.
 * - Every modalFeedback wraps its text in a div: Canvas keeps feedback
 *   only from a p or div inside it.
 *
 * Scoring is written out as responseProcessing rules. The match_correct
 * template is used only where it is exactly the processing wanted (a
 * single-answer or true/false question worth 1 point with no feedback):
 * the template sets SCORE to 1, and some importers (Inspera) accept no
 * other template, so everything else is explicit:
 *   single, truefalse   SCORE = points when RESPONSE matches, else 0
 *   multiple, matching  0 when unanswered; points for exactly the key;
 *                       else the mapping, bounded to [0, points]
 *   short               0 when unanswered, else the mapping (each accepted
 *                       answer maps to points); correctResponse lists every
 *                       accepted answer
 *   numeric             points when equal within the absolute tolerance
 *   essay               no scoring rule (graded by hand)
 * multiple's mapping gives each correct option points/k (k correct) and
 * each wrong option -points/(n-k), so that ticking every option scores 0.
 *
 * QTI 3.0 (o->v3): the same calls, written through the writer's rename
 * hook (qti_v3.c), and the two places where 3.0 differs in shape: the
 * content of modal feedback and of a rubric block sits in a
 * qti-content-body (content_body below), and a rubric block says its use.
 */
#include "qti_internal.h"
#include "exporters.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../text.h"

#define MATCH_CORRECT "http://www.imsglobal.org/question/qti_v2p1/rptemplates/match_correct"
#define MATCH_CORRECT_V3 "https://purl.imsglobal.org/spec/qti/v3p0/rptemplates/match_correct.xml"

/* Matching: premises are P1..Pn in pair order; responses R1..Rm in order of
 * first appearance (pair responses, then distractors). Responses whose
 * normalised text is equal share one choice, so that a candidate never
 * sees the same response twice with only one of them counted right. */
struct match_ids {
	size_t *resp;          /* pair i -> response number (1-based) */
	size_t *dist;          /* distractor j -> response number, 0 = same as an earlier one */
	size_t nresp;
	const xmlNode **resp_node;
};

struct item {
	const struct qb_question *q;
	const struct qti_item_opts *o;
	struct qb_error *err;
	char points[40];
	double points_value;   /* > 0 */
	struct match_ids m;    /* matching only */
	int has_choice_fb;     /* FEEDBACK is declared and set */
	int refused;
	struct qb_xw x;        /* last: set up by qb_xw_begin, not zeroed */
};

/* Labels of truefalse's two choices, by primary language subtag (sorted);
 * anything else gets English. */
static const struct tf_label {
	const char *lang;
	const char *t, *f;
} tf_labels[] = {
	{ "de", "Wahr", "Falsch" },
	{ "en", "True", "False" },
	{ "es", "Verdadero", "Falso" },
	{ "fr", "Vrai", "Faux" },
	{ "it", "Vero", "Falso" },
	{ "nl", "Waar", "Onwaar" },
	{ "pt", "Verdadeiro", "Falso" },
};

static const struct tf_label *tf_label(const char *lang)
{
	size_t i, n;

	for (i = 0; lang && i < sizeof(tf_labels) / sizeof(tf_labels[0]); i++) {
		n = strlen(tf_labels[i].lang);
		if (strncasecmp(lang, tf_labels[i].lang, n) == 0 && (lang[n] == '\0' || lang[n] == '-'))
			return &tf_labels[i];
	}
	return &tf_labels[1];
}

static int refuse(struct item *it, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int refuse(struct item *it, const char *fmt, ...)
{
	char what[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	qb_error_set(it->err, QB_EREFUSED, "%s:%lu: question '%s': %s", it->q->file, it->q->line,
		     it->q->id ? it->q->id : "?", what);
	it->refused = 1;
	return QB_EREFUSED;
}

static const char *xml_prop(const xmlNode *n, const char *name, char *buf, size_t size)
{
	xmlChar *v = n ? xmlGetNoNsProp(n, BAD_CAST name) : NULL;

	if (!v)
		return NULL;
	snprintf(buf, size, "%s", (const char *)v);
	xmlFree(v);
	return buf;
}

/* ---- small writers ------------------------------------------------------ */

/* QTI 3.0 wraps feedback and rubric content in qti-content-body; 2.1 has
 * the content directly in the element (opened mixed by the caller). */
static void content_body_start(struct item *it)
{
	if (it->o->v3)
		qb_xw_start_inline(&it->x, "qti-content-body");
}

static void content_body_end(struct item *it)
{
	if (it->o->v3)
		qb_xw_end_mixed(&it->x);
}

/* The element around feedback or rubric content: mixed in 2.1, element
 * content (the qti-content-body) in 3.0. */
static void start_wrapper(struct item *it, const char *name)
{
	if (it->o->v3)
		qb_xw_start(&it->x, name);
	else
		qb_xw_start_inline(&it->x, name);
}

static void end_wrapper(struct item *it)
{
	if (it->o->v3)
		qb_xw_end(&it->x);
	else
		qb_xw_end_mixed(&it->x);
}

static void value_elem(struct item *it, const char *v)
{
	qb_xw_elem(&it->x, "value", v);
}

static void base_value(struct item *it, const char *type, const char *v)
{
	qb_xw_start_inline(&it->x, "baseValue");
	qb_xw_attr(&it->x, "baseType", type);
	qb_xw_text(&it->x, v);
	qb_xw_end_mixed(&it->x);
}

static void variable(struct item *it, const char *id)
{
	qb_xw_start(&it->x, "variable");
	qb_xw_attr(&it->x, "identifier", id);
	qb_xw_end(&it->x);
}

static void set_score(struct item *it, const char *v)
{
	qb_xw_start(&it->x, "setOutcomeValue");
	qb_xw_attr(&it->x, "identifier", "SCORE");
	base_value(it, "float", v);
	qb_xw_end(&it->x);
}

static void set_score_mapped(struct item *it)
{
	qb_xw_start(&it->x, "setOutcomeValue");
	qb_xw_attr(&it->x, "identifier", "SCORE");
	qb_xw_start(&it->x, "mapResponse");
	qb_xw_attr(&it->x, "identifier", "RESPONSE");
	qb_xw_end(&it->x);
	qb_xw_end(&it->x);
}

static void match_correct(struct item *it)
{
	qb_xw_start(&it->x, "match");
	variable(it, "RESPONSE");
	qb_xw_start(&it->x, "correct");
	qb_xw_attr(&it->x, "identifier", "RESPONSE");
	qb_xw_end(&it->x);
	qb_xw_end(&it->x);
}

static void map_entry(struct item *it, const char *key, double value, const char *case_sensitive)
{
	char v[40];

	qti_fmt_double(v, value);
	qb_xw_start(&it->x, "mapEntry");
	qb_xw_attr(&it->x, "mapKey", key);
	qb_xw_attr(&it->x, "mappedValue", v);
	if (case_sensitive)
		qb_xw_attr(&it->x, "caseSensitive", case_sensitive);
	qb_xw_end(&it->x);
}

static void start_mapping(struct item *it)
{
	qb_xw_start(&it->x, "mapping");
	qb_xw_attr(&it->x, "lowerBound", "0");
	qb_xw_attr(&it->x, "upperBound", it->points);
	qb_xw_attr(&it->x, "defaultValue", "0");
}

static void start_response(struct item *it, const char *cardinality, const char *base_type)
{
	qb_xw_start(&it->x, "responseDeclaration");
	qb_xw_attr(&it->x, "identifier", "RESPONSE");
	qb_xw_attr(&it->x, "cardinality", cardinality);
	qb_xw_attr(&it->x, "baseType", base_type);
}

/* ---- per-type parts ----------------------------------------------------- */

static size_t count_correct(const struct qb_question *q)
{
	size_t i, k = 0;

	for (i = 0; i < q->noptions; i++)
		k += q->options[i].correct != 0;
	return k;
}

static int tf_answer(const struct qb_question *q)
{
	const char *v = q->nanswers ? q->answers[0].value : NULL;

	return v && (strcmp(v, "true") == 0 || strcmp(v, "1") == 0);
}

static int check_option_ids(struct item *it)
{
	const struct qb_question *q = it->q;
	size_t i, j;

	for (i = 0; i < q->noptions; i++) {
		if (!qti_is_ncname(q->options[i].id))
			return refuse(it, "option id '%s' is not a valid QTI identifier (an XML NCName)",
				      q->options[i].id ? q->options[i].id : "");
		for (j = 0; j < i; j++)
			if (strcmp(q->options[i].id, q->options[j].id) == 0)
				return refuse(it, "two options have the id '%s'; QTI choice identifiers must differ",
					      q->options[i].id);
	}
	return 0;
}

static int decl_choice(struct item *it)
{
	const struct qb_question *q = it->q;
	int multiple = q->type == QB_Q_MULTIPLE;
	size_t i, k = count_correct(q), n = q->noptions;

	if (check_option_ids(it))
		return QB_EREFUSED;
	start_response(it, multiple ? "multiple" : "single", "identifier");
	if (k) {
		qb_xw_start(&it->x, "correctResponse");
		for (i = 0; i < n; i++) {
			if (!q->options[i].correct)
				continue;
			value_elem(it, q->options[i].id);
			if (!multiple)
				break;     /* cardinality single: one value */
		}
		qb_xw_end(&it->x);
	}
	if (multiple && n) {
		start_mapping(it);
		for (i = 0; i < n; i++) {
			double v = q->options[i].correct ? it->points_value / (double)(k ? k : 1)
							 : -it->points_value / (double)(n - k ? n - k : 1);

			map_entry(it, q->options[i].id, v, NULL);
		}
		qb_xw_end(&it->x);
	}
	qb_xw_end(&it->x);
	return 0;
}

static int decl_truefalse(struct item *it)
{
	start_response(it, "single", "identifier");
	if (it->q->nanswers) {
		qb_xw_start(&it->x, "correctResponse");
		value_elem(it, tf_answer(it->q) ? "true" : "false");
		qb_xw_end(&it->x);
	}
	qb_xw_end(&it->x);
	return 0;
}

/* The accepted answers, first occurrence of each. */
static int answer_seen(const struct qb_question *q, size_t i)
{
	size_t j;

	for (j = 0; j < i; j++)
		if (q->answers[j].value && strcmp(q->answers[j].value, q->answers[i].value) == 0)
			return 1;
	return 0;
}

static int decl_short(struct item *it)
{
	const struct qb_question *q = it->q;
	size_t i;

	start_response(it, "single", "string");
	if (q->nanswers && q->answers[0].value) {
		/* every accepted answer, not only the first: Canvas reads a text
		 * entry's answers from correctResponse alone; the score comes
		 * from the mapping below */
		qb_xw_start(&it->x, "correctResponse");
		for (i = 0; i < q->nanswers; i++)
			if (q->answers[i].value && !answer_seen(q, i))
				value_elem(it, q->answers[i].value);
		qb_xw_end(&it->x);
		start_mapping(it);
		for (i = 0; i < q->nanswers; i++)
			if (q->answers[i].value && !answer_seen(q, i))
				map_entry(it, q->answers[i].value, it->points_value,
					  q->case_sensitive ? "true" : "false");
		qb_xw_end(&it->x);
	}
	qb_xw_end(&it->x);
	return 0;
}

static int numeric_answer(struct item *it, char value[40], char tolerance[40])
{
	const struct qb_answer *a = it->q->nanswers ? &it->q->answers[0] : NULL;
	double v, t = 0;

	if (!a || !a->value || qti_parse_double(a->value, &v))
		return refuse(it, "the numeric answer '%s' is not a number",
			      a && a->value ? a->value : "");
	if (a->tolerance && (qti_parse_double(a->tolerance, &t) || t < 0))
		return refuse(it, "the tolerance '%s' is not a number of 0 or more", a->tolerance);
	qti_fmt_double(value, v);
	qti_fmt_double(tolerance, t);
	return 0;
}

static int decl_numeric(struct item *it)
{
	char v[40], t[40];

	if (numeric_answer(it, v, t))
		return QB_EREFUSED;
	start_response(it, "single", "float");
	qb_xw_start(&it->x, "correctResponse");
	value_elem(it, v);
	qb_xw_end(&it->x);
	qb_xw_end(&it->x);
	return 0;
}

static int decl_essay(struct item *it)
{
	start_response(it, "single", "string");
	qb_xw_end(&it->x);
	return 0;
}

static void match_ids_dispose(struct match_ids *m)
{
	free(m->resp);
	free(m->dist);
	free(m->resp_node);
}

static int match_ids_build(struct match_ids *m, const struct qb_question *q)
{
	size_t n = q->npairs + q->ndistractors, i, j;
	char **norm = calloc(n ? n : 1, sizeof(*norm));
	struct qb_buf b = QB_BUF_INIT;
	int rc = 0;

	memset(m, 0, sizeof(*m));
	m->resp = calloc(q->npairs ? q->npairs : 1, sizeof(*m->resp));
	m->dist = calloc(q->ndistractors ? q->ndistractors : 1, sizeof(*m->dist));
	/* an array of node pointers: sizeof(*m->resp_node) is meant */
	m->resp_node = calloc(n ? n : 1, sizeof(*m->resp_node));  /* NOLINT(bugprone-sizeof-expression) */
	if (!norm || !m->resp || !m->dist || !m->resp_node) {
		rc = QB_ENOMEM;
		goto done;
	}
	for (i = 0; i < n && !rc; i++) {
		const xmlNode *node = i < q->npairs ? q->pairs[i].response
						    : q->distractors[i - q->npairs].node;
		size_t found = 0;

		qb_buf_clear(&b);
		rc = node ? qb_text_norm_node(&b, node) : 0;
		if (rc)
			break;
		/* norm[j] is set before nresp counts it; the analyzer loses nresp across the call above */
		for (j = 0; j < m->nresp; j++)
			/* NOLINTNEXTLINE(clang-analyzer-core.NonNullParamChecker) */
			if (strcmp(norm[j], b.ptr ? b.ptr : "") == 0)
				found = j + 1;
		if (!found) {
			norm[m->nresp] = strdup(b.ptr ? b.ptr : "");
			if (!norm[m->nresp]) {
				rc = QB_ENOMEM;
				break;
			}
			m->resp_node[m->nresp] = node;
			found = ++m->nresp;
		} else if (i >= q->npairs) {
			found = 0;      /* a distractor equal to a listed response adds nothing */
		}
		if (i < q->npairs)
			m->resp[i] = found;
		else
			m->dist[i - q->npairs] = found;
	}
done:
	for (i = 0; norm && i < n; i++)
		free(norm[i]);
	free(norm);
	qb_buf_dispose(&b);
	return rc;
}

static void pair_value(char out[48], size_t premise, size_t response)
{
	snprintf(out, 48, "P%zu R%zu", premise, response);
}

static int decl_matching(struct item *it)
{
	const struct qb_question *q = it->q;
	const struct match_ids *m = &it->m;
	char v[48];
	size_t i;

	start_response(it, "multiple", "directedPair");
	if (q->npairs) {
		qb_xw_start(&it->x, "correctResponse");
		for (i = 0; i < q->npairs; i++) {
			pair_value(v, i + 1, m->resp[i]);
			value_elem(it, v);
		}
		qb_xw_end(&it->x);
		start_mapping(it);
		for (i = 0; i < q->npairs; i++) {
			pair_value(v, i + 1, m->resp[i]);
			map_entry(it, v, it->points_value / (double)q->npairs, NULL);
		}
		qb_xw_end(&it->x);
	}
	qb_xw_end(&it->x);
	return 0;
}

/* ---- item body ---------------------------------------------------------- */

static void simple_choice(struct item *it, const char *id, const xmlNode *text, const char *label)
{
	qb_xw_start_inline(&it->x, "simpleChoice");
	qb_xw_attr(&it->x, "identifier", id);
	if (text)
		qti_put_rich(&it->x, text, it->o);
	else if (label)
		qb_xw_text(&it->x, label);
	qb_xw_end_mixed(&it->x);
}

static void body_choice(struct item *it)
{
	const struct qb_question *q = it->q;
	char max[32];
	size_t i;

	if (q->type == QB_Q_MULTIPLE)
		snprintf(max, sizeof(max), "%ld", q->has_select && q->select > 0 ? q->select : 0L);
	else
		snprintf(max, sizeof(max), "1");
	qb_xw_start(&it->x, "choiceInteraction");
	qb_xw_attr(&it->x, "responseIdentifier", "RESPONSE");
	qb_xw_attr(&it->x, "shuffle", q->shuffle ? "true" : "false");
	qb_xw_attr(&it->x, "maxChoices", max);
	for (i = 0; i < q->noptions; i++)
		simple_choice(it, q->options[i].id, q->options[i].text, "");
	qb_xw_end(&it->x);
}

static void body_truefalse(struct item *it)
{
	const struct tf_label *l = tf_label(it->o->lang);

	qb_xw_start(&it->x, "choiceInteraction");
	qb_xw_attr(&it->x, "responseIdentifier", "RESPONSE");
	qb_xw_attr(&it->x, "shuffle", "false");
	qb_xw_attr(&it->x, "maxChoices", "1");
	simple_choice(it, "true", NULL, l->t);
	simple_choice(it, "false", NULL, l->f);
	qb_xw_end(&it->x);
}

static void body_text_entry(struct item *it)
{
	const char *unit = it->q->type == QB_Q_NUMERIC && it->q->nanswers ? it->q->answers[0].unit : NULL;

	qb_xw_start_inline(&it->x, "p");
	qb_xw_start(&it->x, "textEntryInteraction");
	qb_xw_attr(&it->x, "responseIdentifier", "RESPONSE");
	qb_xw_end(&it->x);
	if (unit && unit[0]) {
		qb_xw_text(&it->x, " ");
		qb_xw_text(&it->x, unit);
	}
	qb_xw_end_mixed(&it->x);
}

static void body_essay(struct item *it)
{
	const xmlNode *r = it->q->response;
	char lines[32], fmt[32];
	const char *l = xml_prop(r, "lines", lines, sizeof(lines));
	const char *f = xml_prop(r, "format", fmt, sizeof(fmt));
	char *end;
	long n = l ? strtol(l, &end, 10) : 10;

	if (!l || *end || n < 1 || n > 100000)
		n = 10;
	snprintf(lines, sizeof(lines), "%ld", n);
	qb_xw_start(&it->x, "extendedTextInteraction");
	qb_xw_attr(&it->x, "responseIdentifier", "RESPONSE");
	qb_xw_attr(&it->x, "expectedLines", lines);
	qb_xw_attr(&it->x, "format", f && strcmp(f, "plain") == 0 ? "plain" : "xhtml");
	qb_xw_end(&it->x);
	if (it->q->rubric) {
		start_wrapper(it, "rubricBlock");
		if (it->o->v3)
			qb_xw_attr(&it->x, "use", "scoring");
		qb_xw_attr(&it->x, "view", "scorer");
		content_body_start(it);
		qti_put_rich(&it->x, it->q->rubric, it->o);
		content_body_end(it);
		end_wrapper(it);
	}
}

static void associable(struct item *it, const char *prefix, size_t n, const xmlNode *text,
		       const char *match_max)
{
	char id[32];

	snprintf(id, sizeof(id), "%s%zu", prefix, n);
	qb_xw_start_inline(&it->x, "simpleAssociableChoice");
	qb_xw_attr(&it->x, "identifier", id);
	qb_xw_attr(&it->x, "matchMax", match_max);
	if (text)
		qti_put_rich(&it->x, text, it->o);
	qb_xw_end_mixed(&it->x);
}

static void body_matching(struct item *it)
{
	const struct qb_question *q = it->q;
	const struct match_ids *m = &it->m;
	char max[32];
	size_t i;

	snprintf(max, sizeof(max), "%zu", q->npairs);
	qb_xw_start(&it->x, "matchInteraction");
	qb_xw_attr(&it->x, "responseIdentifier", "RESPONSE");
	qb_xw_attr(&it->x, "shuffle", q->shuffle ? "true" : "false");
	qb_xw_attr(&it->x, "maxAssociations", max);
	/* each premise takes one response; a response may serve several
	 * premises (matchMax 0), so elimination gives nothing away */
	qb_xw_start(&it->x, "simpleMatchSet");
	for (i = 0; i < q->npairs; i++)
		associable(it, "P", i + 1, q->pairs[i].premise, "1");
	qb_xw_end(&it->x);
	qb_xw_start(&it->x, "simpleMatchSet");
	for (i = 0; i < m->nresp; i++)
		associable(it, "R", i + 1, m->resp_node[i], "0");
	qb_xw_end(&it->x);
	qb_xw_end(&it->x);
}

/* ---- processing --------------------------------------------------------- */

static int has_explanation(const struct qb_question *q)
{
	return q->explanation && !qb_text_is_blank(q->explanation);
}

static int uses_template(const struct item *it)
{
	const struct qb_question *q = it->q;

	return (q->type == QB_Q_SINGLE || q->type == QB_Q_TRUEFALSE) && it->points_value == 1.0 &&
	       !it->has_choice_fb && !has_explanation(q);
}

/* responseIf isNull -> 0; responseElseIf match -> points; responseElse mapped */
static void score_mapped(struct item *it)
{
	qb_xw_start(&it->x, "responseCondition");
	qb_xw_start(&it->x, "responseIf");
	qb_xw_start(&it->x, "isNull");
	variable(it, "RESPONSE");
	qb_xw_end(&it->x);
	set_score(it, "0");
	qb_xw_end(&it->x);
	if (it->q->type != QB_Q_SHORT) {
		qb_xw_start(&it->x, "responseElseIf");
		match_correct(it);
		set_score(it, it->points);
		qb_xw_end(&it->x);
	}
	qb_xw_start(&it->x, "responseElse");
	set_score_mapped(it);
	qb_xw_end(&it->x);
	qb_xw_end(&it->x);
}

static void score_exact(struct item *it)
{
	qb_xw_start(&it->x, "responseCondition");
	qb_xw_start(&it->x, "responseIf");
	match_correct(it);
	set_score(it, it->points);
	qb_xw_end(&it->x);
	qb_xw_start(&it->x, "responseElse");
	set_score(it, "0");
	qb_xw_end(&it->x);
	qb_xw_end(&it->x);
}

static void score_numeric(struct item *it)
{
	char v[40], t[40], tt[84];

	if (numeric_answer(it, v, t))
		return;
	qb_xw_start(&it->x, "responseCondition");
	qb_xw_start(&it->x, "responseIf");
	qb_xw_start(&it->x, "equal");
	if (strcmp(t, "0") != 0) {
		snprintf(tt, sizeof(tt), "%s %s", t, t);
		qb_xw_attr(&it->x, "toleranceMode", "absolute");
		qb_xw_attr(&it->x, "tolerance", tt);
	} else {
		qb_xw_attr(&it->x, "toleranceMode", "exact");
	}
	variable(it, "RESPONSE");
	base_value(it, "float", v);
	qb_xw_end(&it->x);
	set_score(it, it->points);
	qb_xw_end(&it->x);
	qb_xw_start(&it->x, "responseElse");
	set_score(it, "0");
	qb_xw_end(&it->x);
	qb_xw_end(&it->x);
}

/* How each question type becomes QTI: response declaration, what follows
 * the stem in itemBody, and the scoring rule (NULL: none). Indexed by
 * enum qb_qtype. */
static const struct qtype_form {
	int (*decl)(struct item *it);
	void (*body)(struct item *it);
	void (*score)(struct item *it);
} forms[QB_Q_UNKNOWN] = {
	[QB_Q_SINGLE] = { decl_choice, body_choice, score_exact },
	[QB_Q_MULTIPLE] = { decl_choice, body_choice, score_mapped },
	[QB_Q_TRUEFALSE] = { decl_truefalse, body_truefalse, score_exact },
	[QB_Q_SHORT] = { decl_short, body_text_entry, score_mapped },
	[QB_Q_NUMERIC] = { decl_numeric, body_text_entry, score_numeric },
	[QB_Q_ESSAY] = { decl_essay, body_essay, NULL },
	[QB_Q_MATCHING] = { decl_matching, body_matching, score_mapped },
};

/* The rationale of choice CHOICE (its identifier) is feedback FB: when
 * the response holds CHOICE, FEEDBACK gets FB. In a multiple-response
 * question FB is added to FEEDBACK (multiple); otherwise FEEDBACK is set
 * to it through index(ordered(FB, FEEDBACK), 1), which is FB whatever
 * FEEDBACK held, and names FEEDBACK as Canvas requires of answer
 * feedback. */
static void feedback_condition(struct item *it, const char *choice, const char *fb)
{
	int multi = it->q->type == QB_Q_MULTIPLE;

	qb_xw_start(&it->x, "responseCondition");
	qb_xw_start(&it->x, "responseIf");
	if (multi) {
		qb_xw_start(&it->x, "member");
		base_value(it, "identifier", choice);
		variable(it, "RESPONSE");
	} else {
		qb_xw_start(&it->x, "match");
		variable(it, "RESPONSE");
		base_value(it, "identifier", choice);
	}
	qb_xw_end(&it->x);
	qb_xw_start(&it->x, "setOutcomeValue");
	qb_xw_attr(&it->x, "identifier", "FEEDBACK");
	if (multi) {
		qb_xw_start(&it->x, "multiple");
		variable(it, "FEEDBACK");
		base_value(it, "identifier", fb);
		qb_xw_end(&it->x);
	} else {
		qb_xw_start(&it->x, "index");
		qb_xw_attr(&it->x, "n", "1");
		qb_xw_start(&it->x, "ordered");
		base_value(it, "identifier", fb);
		variable(it, "FEEDBACK");
		qb_xw_end(&it->x);
		qb_xw_end(&it->x);
	}
	qb_xw_end(&it->x);
	qb_xw_end(&it->x);
	qb_xw_end(&it->x);
}

static void option_fb_id(char out[40], size_t k)
{
	snprintf(out, 40, "feedback_%zu", k + 1);
}

static int side_has_rationale(const struct qb_question *q, int side)
{
	size_t i;

	for (i = 0; i < q->nside_rationales; i++)
		if (q->side_rationales[i].for_true == side && !qb_text_is_blank(q->side_rationales[i].node))
			return 1;
	return 0;
}

static void feedback_conditions(struct item *it)
{
	const struct qb_question *q = it->q;
	char fb[40];
	size_t i;

	if (qb_qtype_is_choice(q->type)) {
		for (i = 0; i < q->noptions; i++) {
			if (!q->options[i].rationale || qb_text_is_blank(q->options[i].rationale))
				continue;
			option_fb_id(fb, i);
			feedback_condition(it, q->options[i].id, fb);
		}
	} else if (q->type == QB_Q_TRUEFALSE) {
		if (side_has_rationale(q, 1))
			feedback_condition(it, "true", "feedback_true");
		if (side_has_rationale(q, 0))
			feedback_condition(it, "false", "feedback_false");
	}
}

static void processing(struct item *it, const struct qtype_form *f)
{
	const struct qb_question *q = it->q;
	int expl = has_explanation(q);

	if (uses_template(it)) {
		qb_xw_start(&it->x, "responseProcessing");
		qb_xw_attr(&it->x, "template", it->o->v3 ? MATCH_CORRECT_V3 : MATCH_CORRECT);
		qb_xw_end(&it->x);
		return;
	}
	if (!f->score && !it->has_choice_fb && !expl)
		return;
	qb_xw_start(&it->x, "responseProcessing");
	if (f->score)
		f->score(it);
	if (it->has_choice_fb)
		feedback_conditions(it);
	if (expl) {
		qb_xw_start(&it->x, "setOutcomeValue");
		qb_xw_attr(&it->x, "identifier", "EXPLANATION");
		base_value(it, "identifier", "general_fb");
		qb_xw_end(&it->x);
	}
	qb_xw_end(&it->x);
}

/* ---- feedback ----------------------------------------------------------- */

static void modal(struct item *it, const char *outcome, const char *id, const char *title,
		  const xmlNode *content)
{
	start_wrapper(it, "modalFeedback");
	qb_xw_attr(&it->x, "outcomeIdentifier", outcome);
	qb_xw_attr(&it->x, "identifier", id);
	qb_xw_attr(&it->x, "showHide", "show");
	if (title && title[0])
		qb_xw_attr(&it->x, "title", title);
	/* 3.0: the content body; 2.1: a div, the wrapper Canvas reads
	 * feedback text from (a p or a div) */
	if (it->o->v3)
		content_body_start(it);
	else
		qb_xw_start_inline(&it->x, "div");
	qti_put_rich(&it->x, content, it->o);
	if (it->o->v3)
		content_body_end(it);
	else
		qb_xw_end_mixed(&it->x);
	end_wrapper(it);
}

static int feedback(struct item *it)
{
	const struct qb_question *q = it->q;
	struct qb_buf plain = QB_BUF_INIT, title = QB_BUF_INIT;
	char fb[40];
	size_t i;
	int rc = 0;

	if (qb_qtype_is_choice(q->type)) {
		for (i = 0; i < q->noptions && !rc; i++) {
			const struct qb_option *op = &q->options[i];

			if (!op->rationale || qb_text_is_blank(op->rationale))
				continue;
			qb_buf_clear(&plain);
			qb_buf_clear(&title);
			rc = op->text ? qb_text_plain(&plain, op->text) : 0;
			if (!rc)
				rc = qti_buf_add_collapsed(&title, plain.ptr ? plain.ptr : "");
			option_fb_id(fb, i);
			if (!rc)
				modal(it, "FEEDBACK", fb, title.ptr, op->rationale);
		}
	} else if (q->type == QB_Q_TRUEFALSE) {
		const struct tf_label *l = tf_label(it->o->lang);
		int side;

		/* in the order of the choices: true, then false */
		for (side = 1; side >= 0; side--)
			for (i = 0; i < q->nside_rationales; i++)
				if (q->side_rationales[i].for_true == side &&
				    !qb_text_is_blank(q->side_rationales[i].node))
					modal(it, "FEEDBACK", side ? "feedback_true" : "feedback_false", side ? l->t : l->f,
					      q->side_rationales[i].node);
	}
	if (!rc && has_explanation(q))
		modal(it, "EXPLANATION", "general_fb", NULL, q->explanation);
	qb_buf_dispose(&plain);
	qb_buf_dispose(&title);
	return rc;
}

static int has_choice_feedback(const struct qb_question *q)
{
	size_t i;

	if (qb_qtype_is_choice(q->type)) {
		for (i = 0; i < q->noptions; i++)
			if (q->options[i].rationale && !qb_text_is_blank(q->options[i].rationale))
				return 1;
	} else if (q->type == QB_Q_TRUEFALSE) {
		for (i = 0; i < q->nside_rationales; i++)
			if (!qb_text_is_blank(q->side_rationales[i].node))
				return 1;
	}
	return 0;
}

/* ---- the item ----------------------------------------------------------- */

static void outcome(struct item *it, const char *id, const char *cardinality, const char *type,
		    const char *dflt, int normal)
{
	qb_xw_start(&it->x, "outcomeDeclaration");
	qb_xw_attr(&it->x, "identifier", id);
	qb_xw_attr(&it->x, "cardinality", cardinality);
	qb_xw_attr(&it->x, "baseType", type);
	if (normal) {
		qb_xw_attr(&it->x, "normalMaximum", it->points);
		qb_xw_attr(&it->x, "normalMinimum", "0");
	}
	if (dflt) {
		qb_xw_start(&it->x, "defaultValue");
		value_elem(it, dflt);
		qb_xw_end(&it->x);
	}
	qb_xw_end(&it->x);
}

static int write_item(struct item *it)
{
	const struct qb_question *q = it->q;
	const struct qtype_form *f;
	int rc;

	if (q->type < 0 || q->type >= QB_Q_UNKNOWN)
		return refuse(it, "the type '%s' has no QTI form", q->type_name ? q->type_name : "");
	f = &forms[q->type];
	if (q->type == QB_Q_MATCHING && (rc = match_ids_build(&it->m, q)))
		return rc;
	qb_xw_start(&it->x, "assessmentItem");
	qb_xw_attr(&it->x, "xmlns", it->o->v3 ? QTI3_NS : QTI_NS);
	qb_xw_attr(&it->x, "xmlns:xsi", QTI_XSI_NS);
	qb_xw_attr(&it->x, "xsi:schemaLocation", it->o->v3 ? QTI3_SCHEMA_LOCATION : QTI_SCHEMA_LOCATION);
	qb_xw_attr(&it->x, "identifier", q->id);
	qb_xw_attr(&it->x, "title", q->id);
	qb_xw_attr(&it->x, "adaptive", "false");
	qb_xw_attr(&it->x, "timeDependent", "false");
	if (it->o->lang)
		qb_xw_attr(&it->x, "xml:lang", it->o->lang);

	rc = f->decl(it);
	if (rc)
		return rc;
	outcome(it, "SCORE", "single", "float", "0", 1);
	outcome(it, "MAXSCORE", "single", "float", it->points, 0);
	if (it->has_choice_fb)
		outcome(it, "FEEDBACK", q->type == QB_Q_MULTIPLE ? "multiple" : "single", "identifier",
			NULL, 0);
	if (has_explanation(q))
		outcome(it, "EXPLANATION", "single", "identifier", NULL, 0);

	/* the stem is block rich text: a div keeps it apart from the interaction */
	qb_xw_start(&it->x, "itemBody");
	qb_xw_start_inline(&it->x, "div");
	qti_put_rich(&it->x, q->stem, it->o);
	qb_xw_end_mixed(&it->x);
	f->body(it);
	qb_xw_end(&it->x);

	processing(it, f);
	rc = feedback(it);
	if (rc)
		return rc;
	rc = qb_xw_finish(&it->x);
	return it->refused ? QB_EREFUSED : rc;
}

int qti_item_write(xmlBufferPtr out, const struct qb_question *q,
		   const struct qti_item_opts *o, struct qb_error *err)
{
	xmlTextWriterPtr w;
	struct item it;
	int rc;

	memset(&it, 0, offsetof(struct item, x));
	it.q = q;
	it.o = o;
	it.err = err;
	if (!qti_is_ncname(q->id)) {
		qb_error_set(err, QB_EREFUSED, "%s:%lu: question id '%s' is not a valid QTI identifier "
			     "(an XML NCName)", q->file, q->line, q->id ? q->id : "");
		return QB_EREFUSED;
	}
	it.points_value = q->points_value > 0 ? q->points_value : 1.0;
	qti_fmt_double(it.points, it.points_value);
	it.has_choice_fb = has_choice_feedback(q);
	w = xmlNewTextWriterMemory(out, 0);
	if (!w)
		return QB_ENOMEM;
	qb_xw_begin(&it.x, w);
	if (o->v3)
		it.x.rename = qti_v3_rename;
	rc = write_item(&it);
	if (it.refused)
		rc = QB_EREFUSED;
	xmlFreeTextWriter(w);
	match_ids_dispose(&it.m);
	if (rc && rc != QB_EREFUSED && !err->msg[0])
		qb_error_set(err, rc, "%s:%lu: question '%s': cannot write the item: %s", q->file,
			     q->line, q->id, qb_error_str(rc));
	return rc;
}

/* ---- the target checks (exporter.h) ---------------------------------------
 * What a QTI item cannot hold as the bank means it: identifiers that are
 * not NCNames, a number that is none, and a key that a response
 * declaration of the question's cardinality cannot state (no correct
 * option, or several in a single whose cardinality is single: a candidate
 * who picks the second would score 0 and be shown its "Correct." rationale). */

#define REPORT(rule, base, line, ...) \
	qb_target_report(s, q, QB_RULE_TARGET_QTI_##rule, QB_RULE_##base, (line), __VA_ARGS__)

static int check_key(const struct qb_question *q, const struct qb_target_sink *s)
{
	size_t k = count_correct(q);

	switch (q->type) {
	case QB_Q_SINGLE:
		if (k != 1)
			return qb_target_report(s, q, QB_RULE_TARGET_QTI_KEY,
						k ? QB_RULE_KEY_MULTIPLE : QB_RULE_KEY_MISSING, 0,
						"a single question's response has cardinality single: "
						"it needs exactly one correct option, it has %zu", k);
		return 0;
	case QB_Q_MULTIPLE:
		if (k == 0)
			return REPORT(KEY, KEY_MISSING, 0, "no correct option: the item's "
				      "correctResponse would be empty and every answer score 0");
		return 0;
	case QB_Q_TRUEFALSE:
		if (q->nanswers != 1)
			return REPORT(KEY, TYPE_SHAPE, 0, "a truefalse question needs exactly one "
				      "answer for its correctResponse, it has %zu", q->nanswers);
		return 0;
	case QB_Q_SHORT:
		if (q->nanswers == 0)
			return REPORT(KEY, TYPE_SHAPE, 0, "no accepted answer: the item's "
				      "correctResponse would be empty");
		return 0;
	case QB_Q_MATCHING:
		if (q->npairs == 0)
			return REPORT(KEY, TYPE_SHAPE, 0, "no pair: the item's correctResponse "
				      "would be empty");
		return 0;
	default:
		return 0;
	}
}

int qb_qti_check(const struct qb_question *q, const struct qb_target_sink *s)
{
	size_t i, j;
	double v;

	if (q->type >= QB_Q_UNKNOWN || !q->id)
		return 0;   /* the schema's finding */
	if (!qti_is_ncname(q->id))
		return REPORT(IDENTIFIER, COUNT, 0, "question id '%s' is not a valid QTI identifier "
			      "(an XML NCName)", q->id);
	for (i = 0; qb_qtype_is_choice(q->type) && i < q->noptions; i++) {
		if (!qti_is_ncname(q->options[i].id))
			return REPORT(IDENTIFIER, COUNT, q->options[i].line, "option id '%s' is not a "
				      "valid QTI identifier (an XML NCName)",
				      q->options[i].id ? q->options[i].id : "");
		for (j = 0; j < i; j++)
			if (strcmp(q->options[i].id, q->options[j].id) == 0)
				return REPORT(IDENTIFIER, TYPE_SHAPE, q->options[i].line, "two options "
					      "have the id '%s'; QTI choice identifiers must differ",
					      q->options[i].id);
	}
	if (q->type == QB_Q_NUMERIC) {
		const struct qb_answer *a = q->nanswers ? &q->answers[0] : NULL;

		if (!a || !a->value || qti_parse_double(a->value, &v))
			return REPORT(NUMBER, TYPE_SHAPE, a ? a->line : 0, "the numeric answer '%s' "
				      "is not a number", a && a->value ? a->value : "");
		if (a->tolerance && (qti_parse_double(a->tolerance, &v) || v < 0))
			return REPORT(NUMBER, TYPE_SHAPE, a->line, "the tolerance '%s' is not a "
				      "number of 0 or more", a->tolerance);
	}
	return check_key(q, s);
}

#undef REPORT
