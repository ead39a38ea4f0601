/* Moodle XML exporter: the whole run becomes one <quiz> file for Moodle's
 * question bank import (Moodle XML format, "get category from file").
 *
 * Moodle's importer is strict and often fails silently (see DESIGN.md,
 * "What the targets' importers do with bad input"), so every question is
 * checked against its rules before anything of it is written: grade
 * fractions only from Moodle's fixed list, idnumbers of at most 100
 * characters, numbers with a '.' decimal point, safe image paths, enough
 * answers. A question that breaks one of them is an export error naming
 * the question; the export goes on checking the rest (the lint may still
 * refuse the bank with its own diagnostics) and fails at commit, so no
 * output file is left behind.
 *
 * Ownership: the state (struct moodle) owns the XML writer, the atomic
 * output file and copies of the current bank's title and description;
 * commit and abort free it. */
#include "exporters.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>

#include <libxml/xmlwriter.h>

#include "../atomic.h"
#include "../limits.h"
#include "../moodle_grades.h"
#include "../text.h"
#include "../xmlw.h"
#include "moodle_write.h"

/* Moodle's own default texts for the combined feedback of new questions. */
static const char correct_feedback[] = "Your answer is correct.";
static const char partial_feedback[] = "Your answer is partially correct.";
static const char incorrect_feedback[] = "Your answer is incorrect.";

struct moodle {
	struct qb_atomic *out;
	xmlOutputBufferPtr ob;
	struct qb_xw x;            /* the writer (x.w NULL until opened) */
	struct qb_moodle_field field;
	struct qb_buf tmp, tmp2;
	struct qb_buf feedback;    /* the combined feedback fields, written once */
	unsigned feedback_depth;   /* the depth they were written for */

	/* the bank of the current file */
	char *title;               /* category name of the bank (plain text) */
	char *info;                /* its description, HTML or plain text */
	int info_plain;
	/* the category of the last question written */
	int have_cat;
	size_t cat_file, cat_serial;
	/* the enclosing categories last found good, checked again only when
	 * they change (a failing one is checked for each of its questions) */
	int cats_ok;
	size_t ok_file, ok_serial;

	/* the first problem found (reported at commit) and how many there were */
	char problem[900];
	size_t nproblems;
	int broken;                /* the writer is in an unknown state: write no more */
};

struct qtype_row {
	const char *moodle;        /* question type attribute in Moodle XML */
	const char *penalty;       /* Moodle's default penalty for the type */
	int (*body)(struct moodle *st, const struct qb_question *q);
};

/* ---- problems ------------------------------------------------------------ */

/* Records a problem with question Q at LINE (0 = the question's line):
 * "FILE:LINE: question 'ID': ...". Only the first message is kept. Always
 * returns 1, so that checks can `return problem(...)`. */
static int problem(struct moodle *st, const struct qb_question *q, unsigned long line,
		   const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static int problem(struct moodle *st, const struct qb_question *q, unsigned long line,
		   const char *fmt, ...)
{
	va_list ap;
	int n;

	if (st->nproblems++ > 0)
		return 1;
	n = snprintf(st->problem, sizeof(st->problem), "%s:%lu: question '%s': ", q->file,
		     line ? line : q->line, q->id ? q->id : "?");
	if (n < 0 || (size_t)n >= sizeof(st->problem))
		return 1;
	va_start(ap, fmt);
	vsnprintf(st->problem + n, sizeof(st->problem) - (size_t)n, fmt, ap);
	va_end(ap);
	return 1;
}

/* ---- small writers ------------------------------------------------------- */

/* <NAME><text>TEXT</text></NAME> with TEXT as escaped plain text. */
static int plain_field(struct qb_xw *w, const char *name, const char *text)
{
	int rc = qb_xw_start(w, name);

	if (!rc)
		rc = qb_moodle_write_plain_text(w, text);
	return rc ? rc : qb_xw_end(w);
}

/* A rich-text field: <NAME format="html"><text>HTML</text><file/>...</NAME>. */
static int rich_field(struct moodle *st, const char *name, const xmlNode *n, int wrap_p)
{
	int rc = qb_moodle_field_render(&st->field, n, wrap_p);

	return rc ? rc : qb_moodle_field_write(&st->x, &st->field, name, "html");
}

/* <NAME format="html"><text>TEXT</text></NAME> for a fixed text. */
static int fixed_html_field(struct qb_xw *w, const char *name, const char *text)
{
	int rc = qb_xw_start(w, name);

	if (!rc)
		rc = qb_xw_attr(w, "format", "html");
	if (!rc)
		rc = qb_moodle_write_cdata_text(w, text, strlen(text));
	return rc ? rc : qb_xw_end(w);
}

/* Renders the three combined-feedback fields, the same for every
 * question, once for elements at DEPTH. */
static int render_feedback(struct moodle *st, unsigned depth)
{
	xmlBufferPtr b = xmlBufferCreate();
	struct qb_xw x;
	int rc;

	qb_xw_init(&x, b ? xmlNewTextWriterMemory(b, 0) : NULL);
	x.depth = (int)depth;
	rc = x.w ? 0 : QB_ENOMEM;

	if (!rc)
		rc = fixed_html_field(&x, "correctfeedback", correct_feedback);
	if (!rc)
		rc = fixed_html_field(&x, "partiallycorrectfeedback", partial_feedback);
	if (!rc)
		rc = fixed_html_field(&x, "incorrectfeedback", incorrect_feedback);
	if (x.w) {
		if (!rc)
			rc = qb_xw_sync(&x);
		xmlFreeTextWriter(x.w);   /* flushes into b */
	}
	qb_buf_clear(&st->feedback);
	if (!rc)
		rc = qb_buf_add(&st->feedback, (const char *)xmlBufferContent(b),
				(size_t)xmlBufferLength(b));
	st->feedback_depth = depth;
	xmlBufferFree(b);
	return rc;
}

static int combined_feedback(struct moodle *st, int shownumcorrect)
{
	int rc = 0;

	if (!st->feedback.len || st->feedback_depth != (unsigned)st->x.depth)
		rc = render_feedback(st, (unsigned)st->x.depth);
	if (!rc)
		qb_xw_raw(&st->x, st->feedback.ptr, st->feedback.len);
	if (!rc)
		rc = st->x.rc;
	st->x.kids[st->x.depth] = 1;
	if (!rc && shownumcorrect)
		rc = qb_xw_start(&st->x, "shownumcorrect") || qb_xw_end(&st->x) ? QB_EIO : 0;
	return rc;
}

/* Plain text of rich-text element N with white space collapsed and trimmed
 * (matching answers are plain text in Moodle). */
static int plain_collapsed(struct qb_buf *out, const xmlNode *n)
{
	struct qb_buf raw = QB_BUF_INIT;
	const char *s;
	int rc, space = 0;

	qb_buf_clear(out);
	rc = qb_buf_grow(out, 0);
	if (!rc)
		rc = qb_text_plain(&raw, n);
	for (s = raw.ptr; !rc && s && *s; s++) {
		if (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') {
			space = 1;
			continue;
		}
		if (space && out->len)
			rc = qb_buf_addc(out, ' ');
		space = 0;
		if (!rc)
			rc = qb_buf_addc(out, *s);
	}
	qb_buf_dispose(&raw);
	return rc;
}

/* ---- checks: what Moodle's importer would reject or mis-mark ------------- */

/* The target checks (exporter.h): pure functions of the question, which
 * `qbank lint` runs as target-moodle-* findings and the export driver runs
 * before qb_moodle_question. Each reports the first reason of its kind. */
typedef const struct qb_target_sink sink_t;

#define REPORT(rule, base, line, ...) \
	qb_target_report(s, q, QB_RULE_TARGET_MOODLE_##rule, QB_RULE_##base, (line), __VA_ARGS__)

static int count_correct(const struct qb_question *q)
{
	size_t i;
	int n = 0;

	for (i = 0; i < q->noptions; i++)
		n += q->options[i].correct != 0;
	return n;
}

static int check_choice(const struct qb_question *q, sink_t *s)
{
	size_t i, n = (size_t)count_correct(q), wrong = q->noptions - n;

	if (q->noptions < 2)
		return REPORT(SHAPE, OPTION_COUNT, 0, "Moodle's multichoice needs at least 2 options, "
			      "it has %zu", q->noptions);
	for (i = 0; i < q->noptions; i++)
		if (qb_text_is_blank(q->options[i].text))
			return REPORT(EMPTY, TEXT_EMPTY, q->options[i].text_line,
				      "option %s is empty; Moodle would drop it", q->options[i].id);
	if (q->type == QB_Q_SINGLE) {
		if (n != 1)
			return qb_target_report(s, q, QB_RULE_TARGET_MOODLE_KEY,
						n ? QB_RULE_KEY_MULTIPLE : QB_RULE_KEY_MISSING, 0,
						"a single-answer question needs exactly one correct "
						"option for a 100%% answer in Moodle, it has %zu", n);
		return 0;
	}
	if (n == 0)
		return REPORT(KEY, KEY_MISSING, 0, "no correct option: Moodle's positive fractions "
			      "would not add up to 100%%");
	if (!qb_moodle_share(n))
		return REPORT(FRACTION, COUNT, 0, "%zu correct options would each be worth 100/%zu "
			      "= %.5f%%, which is not in Moodle's fixed list of grade fractions "
			      "(1 to 10, or 20, correct options can be expressed)", n, n,
			      100.0 / (double)n);
	if (wrong > 0 && !qb_moodle_share(wrong))
		return REPORT(FRACTION, COUNT, 0, "%zu wrong options would each cost -100/%zu "
			      "= -%.5f%%, which is not in Moodle's fixed list of grade fractions "
			      "(1 to 10, or 20, wrong options can be expressed)", wrong, wrong,
			      100.0 / (double)wrong);
	return 0;
}

static int check_truefalse(const struct qb_question *q, sink_t *s)
{
	if (q->nanswers != 1)
		return REPORT(SHAPE, TYPE_SHAPE, 0, "a truefalse question needs exactly one answer, "
			      "it has %zu", q->nanswers);
	if (strcmp(q->answers[0].value, "true") != 0 && strcmp(q->answers[0].value, "false") != 0)
		return REPORT(SHAPE, TYPE_SHAPE, q->answers[0].line, "the answer of a truefalse "
			      "question must be 'true' or 'false', not '%s'", q->answers[0].value);
	return 0;
}

static int check_short(const struct qb_question *q, sink_t *s)
{
	size_t i;

	if (q->nanswers == 0)
		return REPORT(KEY, TYPE_SHAPE, 0, "a short-answer question without an accepted "
			      "answer aborts Moodle's import (it needs a 100%% answer)");
	for (i = 0; i < q->nanswers; i++)
		if (!q->answers[i].value[0])
			return REPORT(EMPTY, TEXT_EMPTY, q->answers[i].line,
				      "accepted answer %zu is empty", i + 1);
	return 0;
}

static int check_numeric(const struct qb_question *q, sink_t *s)
{
	struct qb_buf tmp = QB_BUF_INIT;
	const struct qb_answer *a;
	int rc;

	if (q->nanswers != 1)
		return REPORT(SHAPE, TYPE_SHAPE, 0, "a numeric question needs exactly one answer, "
			      "it has %zu", q->nanswers);
	a = &q->answers[0];
	rc = qb_moodle_decimal(&tmp, a->value, 1);
	if (rc == QB_EINVAL)
		rc = REPORT(NUMBER, TYPE_SHAPE, a->line, "the answer '%s' is not a number written "
			    "with a '.' (Moodle's database refuses it)", a->value);
	else if (!rc && a->tolerance) {
		qb_buf_clear(&tmp);
		rc = qb_moodle_decimal(&tmp, a->tolerance, 0);
		if (rc == QB_EINVAL)
			rc = REPORT(NUMBER, TYPE_SHAPE, a->line, "the tolerance '%s' is not a decimal "
				    "number", a->tolerance);
	}
	qb_buf_dispose(&tmp);
	return rc;
}

static const char *const essay_counts[] = { "lines", "min-words", "max-words" };

static int check_essay(const struct qb_question *q, sink_t *s)
{
	struct qb_buf tmp = QB_BUF_INIT;
	size_t i;
	int rc = 0;

	for (i = 0; !rc && q->response && i < sizeof(essay_counts) / sizeof(essay_counts[0]); i++) {
		xmlChar *v = xmlGetNoNsProp((xmlNodePtr)q->response, BAD_CAST essay_counts[i]);
		int bad;

		qb_buf_clear(&tmp);
		bad = v && (qb_moodle_decimal(&tmp, (const char *)v, 0) || !tmp.ptr ||
			    strchr(tmp.ptr, '.') || tmp.ptr[0] == '-');
		xmlFree(v);
		if (bad)
			rc = REPORT(NUMBER, XML_SCHEMA, 0, "the response's %s is not a whole number",
				    essay_counts[i]);
	}
	qb_buf_dispose(&tmp);
	return rc;
}

static int check_matching(const struct qb_question *q, sink_t *s)
{
	struct qb_buf tmp = QB_BUF_INIT;
	size_t i;
	int rc = 0;

	if (q->npairs < 2)
		return REPORT(MATCHING, TYPE_SHAPE, 0, "Moodle's matching needs at least 2 pairs, "
			      "it has %zu", q->npairs);
	if (q->npairs + q->ndistractors < 3)
		return REPORT(MATCHING, COUNT, 0, "Moodle's matching needs at least 3 answers "
			      "(pairs plus distractors), it has %zu; add a distractor",
			      q->npairs + q->ndistractors);
	for (i = 0; !rc && i < q->npairs; i++) {
		if (qb_text_is_blank(q->pairs[i].premise)) {
			rc = REPORT(EMPTY, TEXT_EMPTY, q->pairs[i].line, "pair %zu has an empty "
				    "premise", i + 1);
			break;
		}
		rc = plain_collapsed(&tmp, q->pairs[i].response);
		if (!rc && !tmp.len) {
			rc = REPORT(EMPTY, TEXT_EMPTY, q->pairs[i].line, "pair %zu has an empty "
				    "response; a subquestion without an answer stops Moodle's import",
				    i + 1);
			break;
		}
	}
	for (i = 0; !rc && i < q->ndistractors; i++) {
		rc = plain_collapsed(&tmp, q->distractors[i].node);
		if (!rc && !tmp.len) {
			rc = REPORT(EMPTY, TEXT_EMPTY, q->distractors[i].line,
				    "distractor %zu is empty; Moodle would drop it", i + 1);
			break;
		}
	}
	qb_buf_dispose(&tmp);
	return rc;
}

static int (*const type_checks[QB_Q_UNKNOWN])(const struct qb_question *, sink_t *) = {
	[QB_Q_SINGLE] = check_choice,
	[QB_Q_MULTIPLE] = check_choice,
	[QB_Q_TRUEFALSE] = check_truefalse,
	[QB_Q_SHORT] = check_short,
	[QB_Q_NUMERIC] = check_numeric,
	[QB_Q_ESSAY] = check_essay,
	[QB_Q_MATCHING] = check_matching,
};

int qb_moodle_check_body(const struct qb_question *q, const struct qb_target_sink *s)
{
	return q->type >= QB_Q_UNKNOWN || !q->id ? 0 : type_checks[q->type](q, s);
}

int qb_moodle_check(const struct qb_question *q, const struct qb_target_sink *s)
{
	struct qb_buf tmp = QB_BUF_INIT;
	int rc;

	if (q->type >= QB_Q_UNKNOWN || !q->id)
		return 0;   /* the schema's finding */
	rc = qb_moodle_decimal(&tmp, q->points ? q->points : "1", 0);
	if (rc == QB_EINVAL)
		rc = REPORT(POINTS, XML_SCHEMA, 0, "points '%s' is not a decimal number", q->points);
	else if (!rc && strcspn(tmp.ptr, ".") > 5)
		rc = REPORT(POINTS, COUNT, 0, "points '%s' is too large for Moodle (at most "
			    "99999.9999999)", q->points);
	qb_buf_dispose(&tmp);
	return rc ? rc : qb_moodle_check_body(q, s);
}

#undef REPORT

/* ---- bodies per type ----------------------------------------------------- */

static int write_choice(struct moodle *st, const struct qb_question *q)
{
	struct qb_xw *w = &st->x;
	size_t n = (size_t)count_correct(q), wrong = q->noptions - n, i;
	int single = q->type == QB_Q_SINGLE;
	const char *right_frac, *wrong_frac = "0";
	char neg[32];
	int rc;

	/* single: 100 / 0; multiple: 100/N per correct option and -100/W per wrong
	 * one, so that ticking every option scores nothing (checked beforehand). */
	right_frac = single ? "100" : qb_moodle_share(n)->spelling;
	if (!single && wrong > 0) {
		snprintf(neg, sizeof(neg), "-%s", qb_moodle_share(wrong)->spelling);
		wrong_frac = neg;
	}
	rc = qb_xw_leaf(w, "single", single ? "true" : "false");
	if (!rc)
		rc = qb_xw_leaf(w, "shuffleanswers", q->shuffle ? "true" : "false");
	if (!rc)
		rc = qb_xw_leaf(w, "answernumbering", "abc");
	if (!rc)
		rc = qb_xw_leaf(w, "showstandardinstruction", "0");
	if (!rc)
		rc = combined_feedback(st, !single);
	for (i = 0; !rc && i < q->noptions; i++) {
		const struct qb_option *o = &q->options[i];

		rc = qb_xw_start(w, "answer");
		if (!rc)
			rc = qb_xw_attr(w, "fraction", o->correct ? right_frac : wrong_frac);
		if (!rc)
			rc = qb_xw_attr(w, "format", "html");
		if (!rc)
			rc = qb_moodle_field_render(&st->field, o->text, 0);
		if (!rc)
			rc = qb_moodle_field_write_content(w, &st->field);
		if (!rc)
			rc = rich_field(st, "feedback", o->rationale, 1);
		if (!rc)
			rc = qb_xw_end(w);
	}
	return rc;
}

static const struct qb_side_rationale *side(const struct qb_question *q, int for_true)
{
	size_t i;

	for (i = 0; i < q->nside_rationales; i++)
		if (q->side_rationales[i].for_true == for_true)
			return &q->side_rationales[i];
	return NULL;
}

static int write_truefalse(struct moodle *st, const struct qb_question *q)
{
	int key = strcmp(q->answers[0].value, "true") == 0;
	int rc = 0, t;

	/* Moodle's own order: the answer "true" first, then "false". */
	for (t = 1; t >= 0 && !rc; t--) {
		const struct qb_side_rationale *r = side(q, t);

		rc = qb_xw_start(&st->x, "answer");
		if (!rc)
			rc = qb_xw_attr(&st->x, "fraction", key == t ? "100" : "0");
		if (!rc)
			rc = qb_xw_attr(&st->x, "format", "moodle_auto_format");
		if (!rc)
			rc = qb_moodle_write_plain_text(&st->x, t ? "true" : "false");
		if (!rc)
			rc = rich_field(st, "feedback", r ? r->node : NULL, 1);
		if (!rc)
			rc = qb_xw_end(&st->x);
	}
	return rc;
}

/* An accepted answer as Moodle's shortanswer pattern: '*' is its wildcard,
 * so a literal '*' is written "\*". */
static int short_pattern(struct qb_buf *out, const char *s)
{
	int rc = 0;

	qb_buf_clear(out);
	rc = qb_buf_grow(out, 0);
	for (; *s && !rc; s++)
		rc = *s == '*' ? qb_buf_adds(out, "\\*") : qb_buf_addc(out, *s);
	return rc;
}

static int write_short(struct moodle *st, const struct qb_question *q)
{
	size_t i;
	int rc = qb_xw_leaf(&st->x, "usecase", q->case_sensitive ? "1" : "0");

	for (i = 0; !rc && i < q->nanswers; i++) {
		rc = qb_xw_start(&st->x, "answer");
		if (!rc)
			rc = qb_xw_attr(&st->x, "fraction", "100");
		if (!rc)
			rc = qb_xw_attr(&st->x, "format", "moodle_auto_format");
		if (!rc)
			rc = short_pattern(&st->tmp, q->answers[i].value);
		if (!rc)
			rc = qb_moodle_write_plain_text(&st->x, st->tmp.ptr);
		if (!rc)
			rc = rich_field(st, "feedback", NULL, 0);
		if (!rc)
			rc = qb_xw_end(&st->x);
	}
	return rc;
}

static int write_numeric(struct moodle *st, const struct qb_question *q)
{
	const struct qb_answer *a = &q->answers[0];
	struct qb_xw *w = &st->x;
	int rc;

	rc = qb_xw_start(w, "answer");
	if (!rc)
		rc = qb_xw_attr(w, "fraction", "100");
	if (!rc)
		rc = qb_xw_attr(w, "format", "moodle_auto_format");
	qb_buf_clear(&st->tmp);
	if (!rc)
		rc = qb_moodle_decimal(&st->tmp, a->value, 1);
	if (!rc)
		rc = qb_moodle_write_plain_text(w, st->tmp.ptr);
	if (!rc)
		rc = rich_field(st, "feedback", NULL, 0);
	qb_buf_clear(&st->tmp);
	if (!rc)
		rc = qb_moodle_decimal(&st->tmp, a->tolerance ? a->tolerance : "0", 0);
	if (!rc)
		rc = qb_xw_leaf(w, "tolerance", st->tmp.ptr);
	if (!rc)
		rc = qb_xw_end(w);
	/* A unit is accepted but not graded (unitgradingtype 0) and typed into
	 * the answer box (showunits 0); without one, units are off (3). */
	if (!rc && a->unit && a->unit[0]) {
		rc = qb_xw_start(w, "units");
		if (!rc)
			rc = qb_xw_start(w, "unit");
		if (!rc)
			rc = qb_xw_leaf(w, "multiplier", "1");
		if (!rc)
			rc = qb_xw_leaf(w, "unit_name", a->unit);
		if (!rc)
			rc = qb_xw_end(w);
		if (!rc)
			rc = qb_xw_end(w);
	}
	if (!rc)
		rc = qb_xw_leaf(w, "unitgradingtype", "0");
	if (!rc)
		rc = qb_xw_leaf(w, "unitpenalty", "0.1000000");
	if (!rc)
		rc = qb_xw_leaf(w, "showunits", a->unit && a->unit[0] ? "0" : "3");
	if (!rc)
		rc = qb_xw_leaf(w, "unitsleft", "0");
	return rc;
}

/* <ELEMENT> with the response's whole-number attribute NAME as Moodle's
 * database takes it ("+08" is 8), DFLT when it is absent (NULL: no element). */
static int response_count(struct moodle *st, const struct qb_question *q, const char *element,
			  const char *name, const char *dflt)
{
	xmlChar *v = q->response ? xmlGetNoNsProp((xmlNodePtr)q->response, BAD_CAST name) : NULL;
	int rc = 0;

	qb_buf_clear(&st->tmp);
	if (v)
		rc = qb_moodle_decimal(&st->tmp, (const char *)v, 0);
	xmlFree(v);
	if (!rc && (v || dflt))
		rc = qb_xw_leaf(&st->x, element, v ? st->tmp.ptr : dflt);
	return rc;
}

static int write_essay(struct moodle *st, const struct qb_question *q)
{
	struct qb_xw *w = &st->x;
	xmlChar *fmt = q->response ? xmlGetNoNsProp((xmlNodePtr)q->response, BAD_CAST "format")
				   : NULL;
	int plain = fmt && strcmp((const char *)fmt, "plain") == 0;
	int rc;

	xmlFree(fmt);
	rc = qb_xw_leaf(w, "responseformat", plain ? "plain" : "editor");
	if (!rc)
		rc = qb_xw_leaf(w, "responserequired", "1");
	if (!rc)
		rc = response_count(st, q, "responsefieldlines", "lines", "10");
	if (!rc)
		rc = response_count(st, q, "minwordlimit", "min-words", NULL);
	if (!rc)
		rc = response_count(st, q, "maxwordlimit", "max-words", NULL);
	if (!rc)
		rc = qb_xw_leaf(w, "attachments", "0");
	if (!rc)
		rc = qb_xw_leaf(w, "attachmentsrequired", "0");
	if (!rc)
		rc = qb_xw_leaf(w, "maxbytes", "0");
	if (!rc)
		rc = qb_xw_leaf(w, "filetypeslist", "");
	if (!rc)
		rc = rich_field(st, "graderinfo", q->rubric, 1);
	if (!rc)
		rc = rich_field(st, "responsetemplate", NULL, 0);
	return rc;
}

/* One subquestion: premise as HTML (empty for a distractor), the response
 * as Moodle's plain answer text. */
static int subquestion(struct moodle *st, const xmlNode *premise, const xmlNode *response)
{
	struct qb_xw *w = &st->x;
	int rc = qb_xw_start(w, "subquestion");

	if (!rc)
		rc = qb_xw_attr(w, "format", "html");
	if (!rc)
		rc = qb_moodle_field_render(&st->field, premise, 0);
	if (!rc)
		rc = qb_moodle_field_write_content(w, &st->field);
	if (!rc)
		rc = plain_collapsed(&st->tmp, response);
	/* Moodle shows matching answers through format_string(), as HTML */
	qb_buf_clear(&st->tmp2);
	if (!rc)
		rc = qb_moodle_html_escape(&st->tmp2, st->tmp.ptr);
	if (!rc)
		rc = plain_field(w, "answer", st->tmp2.ptr ? st->tmp2.ptr : "");
	return rc ? rc : qb_xw_end(w);
}

static int write_matching(struct moodle *st, const struct qb_question *q)
{
	size_t i;
	int rc = qb_xw_leaf(&st->x, "shuffleanswers", q->shuffle ? "true" : "false");

	if (!rc)
		rc = combined_feedback(st, 1);
	for (i = 0; !rc && i < q->npairs; i++)
		rc = subquestion(st, q->pairs[i].premise, q->pairs[i].response);
	for (i = 0; !rc && i < q->ndistractors; i++)
		rc = subquestion(st, NULL, q->distractors[i].node);
	return rc;
}

/* Indexed by enum qb_qtype. Penalties are Moodle's defaults for new
 * questions: a third of the mark per wrong try, all of it for true/false
 * (a second try could not be wrong), none for hand-graded essays. */
static const struct qtype_row qtypes[QB_Q_UNKNOWN] = {
	[QB_Q_SINGLE] = { "multichoice", "0.3333333", write_choice },
	[QB_Q_MULTIPLE] = { "multichoice", "0.3333333", write_choice },
	[QB_Q_TRUEFALSE] = { "truefalse", "1.0000000", write_truefalse },
	[QB_Q_SHORT] = { "shortanswer", "0.3333333", write_short },
	[QB_Q_NUMERIC] = { "numerical", "0.3333333", write_numeric },
	[QB_Q_ESSAY] = { "essay", "0.0000000", write_essay },
	[QB_Q_MATCHING] = { "matching", "0.3333333", write_matching },
};

/* ---- categories ---------------------------------------------------------- */

/* One category name in a Moodle category path: '/' is doubled, and a name
 * that starts or ends with '/' gets a space there (Moodle's
 * assemble_category_path; its importer trims names). */
static int path_component(struct qb_buf *out, const char *name)
{
	struct qb_buf esc = QB_BUF_INIT;
	const char *s;
	int rc;

	/* Moodle cleans category names as PARAM_TEXT (tags are stripped) and
	 * shows them through format_string() (HTML): write & < > " as
	 * character references so that the name survives and reads as written. */
	rc = qb_moodle_html_escape(&esc, name);
	if (!rc)
		rc = qb_buf_addc(out, '/');
	if (!rc && esc.len && esc.ptr[0] == '/')
		rc = qb_buf_addc(out, ' ');
	for (s = esc.ptr; !rc && s && *s; s++)
		rc = *s == '/' ? qb_buf_adds(out, "//") : qb_buf_addc(out, *s);
	if (!rc && esc.len && esc.ptr[esc.len - 1] == '/')
		rc = qb_buf_addc(out, ' ');
	qb_buf_dispose(&esc);
	return rc;
}

static int write_category(struct moodle *st, const struct qb_question *q, size_t depth)
{
	struct qb_xw *w = &st->x;
	size_t i;
	int rc;

	qb_buf_clear(&st->tmp);
	rc = qb_buf_adds(&st->tmp, "$course$/top");
	if (!rc)
		rc = path_component(&st->tmp, st->title);
	for (i = 0; !rc && i < depth; i++)
		rc = path_component(&st->tmp, q->categories[i]);
	if (!rc)
		rc = qb_xw_start(w, "question");
	if (!rc)
		rc = qb_xw_attr(w, "type", "category");
	if (!rc)
		rc = plain_field(w, "category", st->tmp.ptr);
	/* The bank's description describes the bank's own category; Moodle uses
	 * info only when it creates a category, so deeper levels get none. */
	if (!rc)
		rc = qb_xw_start(w, "info");
	if (!rc)
		rc = qb_xw_attr(w, "format", depth == 0 && st->info_plain ? "plain_text" : "html");
	if (!rc && depth == 0 && st->info_plain)
		rc = qb_moodle_write_plain_text(w, st->info ? st->info : "");
	else if (!rc)
		rc = qb_moodle_write_cdata_text(w, depth == 0 && st->info ? st->info : "",
						depth == 0 && st->info ? strlen(st->info) : 0);
	if (!rc)
		rc = qb_xw_end(w);
	return rc ? rc : qb_xw_end(w);
}

/* Moodle's question_categories.name holds 255 characters: the name as
 * written into the path (character references included) must fit. */
static int check_category_name(struct moodle *st, const struct qb_question *q, const char *name)
{
	size_t len;

	qb_text_trim(name, &len);
	if (len == 0)
		return problem(st, q, 0, "an enclosing category has an empty name, which "
			       "Moodle cannot create");
	if (qb_text_stored_chars(name, strlen(name), QB_LIMIT_NAME_CHARS, NULL) > QB_LIMIT_NAME_CHARS)
		return problem(st, q, 0, "the name of category '%s' is longer than the 255 "
			       "characters Moodle stores (& < > \" count as 4 to 6)", name);
	return 0;
}

static int check_categories(struct moodle *st, const struct qb_question *q)
{
	size_t i;

	if (st->cats_ok && st->ok_file == q->file_index && st->ok_serial == q->category_serial)
		return 0;
	st->cats_ok = 0;
	if (check_category_name(st, q, st->title ? st->title : ""))
		return 1;
	for (i = 0; i < q->ncategories; i++)
		if (check_category_name(st, q, q->categories[i]))
			return 1;
	st->cats_ok = 1;
	st->ok_file = q->file_index;
	st->ok_serial = q->category_serial;
	return 0;
}

/* A category pseudo-question whenever the question's category differs from
 * the previous one: the bank's category first (with its description) the
 * first time a file is entered, then the question's own. */
static int switch_category(struct moodle *st, const struct qb_question *q)
{
	int new_file = !st->have_cat || st->cat_file != q->file_index;
	int rc = 0;

	if (!new_file && st->cat_serial == q->category_serial)
		return 0;
	if (new_file || q->ncategories == 0)
		rc = write_category(st, q, 0);
	if (!rc && q->ncategories > 0)
		rc = write_category(st, q, q->ncategories);
	st->have_cat = 1;
	st->cat_file = q->file_index;
	st->cat_serial = q->category_serial;
	return rc;
}

/* ---- the exporter's entry points ----------------------------------------- */

static void state_free(struct moodle *st)
{
	if (!st)
		return;
	if (st->x.w)
		xmlFreeTextWriter(st->x.w);   /* also closes st->ob (not the FILE) */
	else if (st->ob)
		xmlOutputBufferClose(st->ob);
	qb_moodle_field_dispose(&st->field);
	qb_buf_dispose(&st->tmp);
	qb_buf_dispose(&st->tmp2);
	qb_buf_dispose(&st->feedback);
	free(st->title);
	free(st->info);
	free(st);
}

int qb_moodle_open(void **state, const struct qb_export_opts *o, struct qb_error *err)
{
	struct moodle *st = calloc(1, sizeof(*st));
	struct qb_moodle_field f0 = QB_MOODLE_FIELD_INIT;
	int rc;

	*state = NULL;
	if (!st)
		return QB_ENOMEM;
	st->field = f0;
	rc = qb_atomic_open(&st->out, o->output, err);
	if (rc) {
		free(st);
		return rc;
	}
	st->ob = xmlOutputBufferCreateFile(qb_atomic_file(st->out), NULL);
	st->x.w = st->ob ? xmlNewTextWriter(st->ob) : NULL;
	if (!st->x.w) {
		qb_moodle_abort(st);
		return QB_ENOMEM;
	}
	if (qb_xw_begin(&st->x, st->x.w) || qb_xw_start(&st->x, "quiz")) {
		qb_error_set(err, QB_EIO, "%s: cannot write: %s", qb_atomic_path(st->out),
			     strerror(errno ? errno : EIO));
		qb_moodle_abort(st);
		return QB_EIO;
	}
	*state = st;
	return 0;
}

int qb_moodle_bank(void *state, const struct qb_bank_info *b, struct qb_error *err)
{
	struct moodle *st = state;
	size_t len;
	const char *t = b->title ? qb_text_trim(b->title, &len) : NULL;
	int rc;

	(void)err;   /* nothing is written here: only memory can run out */

	free(st->title);
	free(st->info);
	st->info = NULL;
	st->info_plain = 0;
	st->cats_ok = 0;      /* the title is one of the names checked */
	/* An untitled bank is named by its id, so that its category has a name. */
	if (!t || !len) {
		t = b->id && b->id[0] ? b->id : "bank";
		len = strlen(t);
	}
	st->title = strndup(t, len);
	if (!st->title)
		return QB_ENOMEM;
	if (b->description) {
		/* Category descriptions cannot carry files: a description with an
		 * image goes as plain text (the image as its alt text). */
		st->info_plain = qb_moodle_has_image(b->description);
		qb_buf_clear(&st->tmp);
		if (st->info_plain)
			rc = plain_collapsed(&st->tmp, b->description);
		else
			rc = qb_moodle_field_render(&st->field, b->description, 1) ||
			     qb_buf_add(&st->tmp, st->field.html.ptr, st->field.html.len) ? QB_ENOMEM : 0;
		if (rc)
			return QB_ENOMEM;
		st->info = strdup(st->tmp.ptr ? st->tmp.ptr : "");
		if (!st->info)
			return QB_ENOMEM;
	}
	st->have_cat = 0;
	return 0;
}

static int problem_report(void *ctx, const struct qb_question *q, enum qb_rule_key rule,
			  enum qb_rule_key base, unsigned long line, const char *msg)
{
	(void)rule;
	(void)base;
	problem(ctx, q, line, "%s", msg);
	return 0;
}

/* Everything Moodle's importer needs: the target checks, then what is not
 * a property of the question alone (the bank's title as a category, image
 * files on disk). Returns 1 when a problem was recorded. */
static int check_question(struct moodle *st, const struct qb_question *q)
{
	struct qb_target_sink s = { problem_report, st };
	size_t had = st->nproblems;
	int rc;

	/* Moodle's question.idnumber column is 100 characters wide. The
	 * reader's limit-exceeded (the same 100) keeps such a question from
	 * every exporter whatever the configuration, so this is no target
	 * check; it guards a caller that feeds the hooks directly. */
	if (qb_moodle_utf8_len(q->id) > QB_LIMIT_ID_CHARS)
		return problem(st, q, 0, "the id is %zu characters long; Moodle's idnumber "
			       "takes at most %d", qb_moodle_utf8_len(q->id), QB_LIMIT_ID_CHARS);
	if (qb_moodle_check(q, &s) < 0)
		return problem(st, q, 0, "out of memory");
	if (st->nproblems > had)
		return 1;
	if (check_categories(st, q))
		return 1;
	rc = q->no_img ? 0 : qb_moodle_field_check_images(&st->field, q->node);
	if (rc)
		return problem(st, q, 0, "%s", st->field.why);
	return 0;
}

static int write_question(struct moodle *st, const struct qb_question *q)
{
	const struct qtype_row *t = &qtypes[q->type];
	struct qb_xw *w = &st->x;
	size_t i;
	int rc;

	rc = switch_category(st, q);
	if (!rc)
		rc = qb_xw_start(w, "question");
	if (!rc)
		rc = qb_xw_attr(w, "type", t->moodle);
	if (!rc)
		rc = plain_field(w, "name", q->id);
	if (!rc)
		rc = rich_field(st, "questiontext", q->stem, 1);
	if (!rc)
		rc = rich_field(st, "generalfeedback", q->explanation, 1);
	qb_buf_clear(&st->tmp);
	if (!rc)
		rc = qb_moodle_decimal(&st->tmp, q->points ? q->points : "1", 0);
	if (!rc)
		rc = qb_xw_leaf(w, "defaultgrade", st->tmp.ptr);
	if (!rc)
		rc = qb_xw_leaf(w, "penalty", t->penalty);
	if (!rc)
		rc = qb_xw_leaf(w, "hidden", "0");
	if (!rc)
		rc = qb_xw_leaf(w, "idnumber", q->id);
	if (!rc)
		rc = t->body(st, q);
	if (!rc && q->ntags > 0) {
		rc = qb_xw_start(w, "tags");
		for (i = 0; !rc && i < q->ntags; i++)
			rc = plain_field(w, "tag", q->tags[i]);
		if (!rc)
			rc = qb_xw_end(w);
	}
	return rc ? rc : qb_xw_end(w);
}

/* Names the output and the cause of a failed write, taken from the
 * failed write itself (a full disk, say) when the output recorded it, else
 * from ERRNO_NOW, read right after the failure. Returns QB_EIO. */
static int write_failed(const struct moodle *st, int errno_now, struct qb_error *err)
{
	int e = qb_atomic_write_error(st->out);

	qb_error_set(err, QB_EIO, "%s: write failed: %s", qb_atomic_path(st->out),
		     strerror(e ? e : errno_now ? errno_now : EIO));
	return QB_EIO;
}

int qb_moodle_question(void *state, const struct qb_question *q, struct qb_error *err)
{
	struct moodle *st = state;
	int rc;

	if (q->type >= QB_Q_UNKNOWN || !q->id)
		return 0;   /* the schema has reported it; the lint refuses the export */
	st->field.bank_file = q->file;
	if (check_question(st, q) || st->nproblems || st->broken)
		return 0;   /* keep checking; commit fails and writes nothing */
	errno = 0;
	rc = write_question(st, q);
	if (rc == QB_ENOMEM)
		return rc;
	if (rc) {
		st->broken = 1;
		if (st->field.rc) {
			problem(st, q, 0, "%s", st->field.why);
			return 0;
		}
		return write_failed(st, errno, err);
	}
	return 0;
}

int qb_moodle_commit(void *state, struct qb_error *err)
{
	struct moodle *st = state;
	struct qb_atomic *out = st->out;
	int rc = 0;

	if (st->nproblems) {
		/* a bank Moodle cannot take is a finding about the bank: exit 1 */
		if (st->nproblems > 1)
			qb_error_set(err, QB_EREFUSED, "%s (and %zu more problem%s for Moodle)",
				     st->problem, st->nproblems - 1, st->nproblems == 2 ? "" : "s");
		else
			qb_error_set(err, QB_EREFUSED, "%s", st->problem);
		qb_moodle_abort(st);
		return QB_EREFUSED;
	}
	errno = 0;
	if (qb_xw_finish(&st->x)) {
		write_failed(st, errno, err);
		qb_moodle_abort(st);
		return QB_EIO;
	}
	state_free(st);
	rc = qb_atomic_commit(out, err);
	return rc;
}

void qb_moodle_abort(void *state)
{
	struct moodle *st = state;
	struct qb_atomic *out;

	if (!st)
		return;
	/* the writer flushes into the file when freed: free it first */
	out = st->out;
	state_free(st);
	qb_atomic_abort(out);
}
