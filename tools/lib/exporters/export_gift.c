/* GIFT exporter: the whole run becomes one text file in Moodle's GIFT
 * format (question/format/gift/format.php, qformat_gift), for Moodle's
 * question bank import ("GIFT format", "get category from file").
 *
 * The mapping (tools/lib/exporters/README.md has the table): a comment line
 * with Moodle's [id:...] and [tag:...] tokens, the id again as the
 * ::title::, every text as HTML under one [html] marker on the question
 * text (qformat_gift gives answers and feedback the question text's
 * format), rationales as '#' feedback, the explanation as '####' general
 * feedback, and a $CATEGORY: line whenever the category changes. Every
 * character GIFT reserves is escaped as Moodle's own exporter does
 * (repchar: \\ \# \= \~ \{ \} \: and \n).
 *
 * What GIFT cannot hold is decided by gift_check(), one pure function of
 * the question reporting target-gift-* rules; the export refuses such a
 * question (commit fails and writes nothing) and goes on checking the
 * others.
 *
 * Ownership: the state (struct gift) owns the atomic output, the HTML
 * renderer, its buffers and a copy of the current bank's title; commit and
 * abort free it. */
#include "exporters.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../atomic.h"
#include "../moodle_grades.h"
#include "../richtext.h"
#include "../text.h"
#include "moodle_write.h"

struct gift {
	struct qb_atomic *out;
	struct qb_rich_html *render;
	struct qb_buf line;        /* the question being written */
	struct qb_buf html, tmp;
	char *title;               /* category name of the bank */
	int have_cat;
	size_t cat_file, cat_serial;
	char problem[900];         /* the first refusal, reported at commit */
	size_t nproblems;
};

/* ---- what GIFT cannot hold ----------------------------------------------- */

/* A reason of RULE for the target-check sink (exporter.h), with BASE the
 * bank rule that says the same (COUNT: none); the first error of the sink
 * is kept in rc. */
#define REASON(rule, base, line, ...) \
	do { \
		if (!rc) \
			rc = qb_target_report(s, q, QB_RULE_TARGET_GIFT_##rule, QB_RULE_##base, line, \
					      __VA_ARGS__); \
	} while (0)

static int has_img(void *ctx, const xmlNode *img)
{
	(void)img;
	*(int *)ctx = 1;
	return 1;
}

static size_t count_correct(const struct qb_question *q)
{
	size_t i, n = 0;

	for (i = 0; i < q->noptions; i++)
		n += q->options[i].correct != 0;
	return n;
}

/* A tag Moodle's [tag:...] token reads back as written: PARAM_TAG refuses
 * < > ` and control characters, and a final backslash would escape the ']'. */
static int tag_ok(const char *t)
{
	size_t n = strlen(t);

	if (!n || t[n - 1] == '\\')
		return 0;
	for (; *t; t++)
		if (*t == '<' || *t == '>' || *t == '`' || (unsigned char)*t < 0x20 || *t == 0x7f)
			return 0;
	return 1;
}

/* Moodle saves a GIFT question through the same question types as one of
 * its XML import, so what they need of the key and the body
 * (qb_moodle_check_body) holds for GIFT as well; those reasons are this
 * target's rules. Moodle's fraction and matching reasons are left out:
 * the checks below say them for GIFT. */
static const struct {
	enum qb_rule_key moodle, gift;
} as_gift[] = {
	{ QB_RULE_TARGET_MOODLE_EMPTY, QB_RULE_TARGET_GIFT_EMPTY },
	{ QB_RULE_TARGET_MOODLE_KEY, QB_RULE_TARGET_GIFT_KEY },
	{ QB_RULE_TARGET_MOODLE_NUMBER, QB_RULE_TARGET_GIFT_NUMBER },
	{ QB_RULE_TARGET_MOODLE_SHAPE, QB_RULE_TARGET_GIFT_SHAPE },
};

/* A sink (exporter.h) that hands Moodle's reasons on to the sink CTX as
 * the GIFT rules of as_gift, and drops the others. */
static int moodle_as_gift(void *ctx, const struct qb_question *q, enum qb_rule_key rule,
			  enum qb_rule_key base, unsigned long line, const char *msg)
{
	const struct qb_target_sink *s = ctx;
	size_t i;

	for (i = 0; i < sizeof(as_gift) / sizeof(as_gift[0]); i++)
		if (as_gift[i].moodle == rule)
			return s->report(s->ctx, q, as_gift[i].gift, base, line, msg);
	return 0;
}

/* What Moodle's GIFT import cannot read back as the bank says, as reasons
 * of rules target-gift-*: the exporter's target check (exporter.h), a pure
 * function of one schema-valid question (no state, no file system). The
 * lint runs it as findings (--target gift); the export driver refuses the
 * question on any reason. Returns 0 or the first error of the sink. */
int qb_gift_check(const struct qb_question *q, const struct qb_target_sink *s)
{
	const struct qb_target_sink moodle = { moodle_as_gift, (void *)s };
	int img = 0, rc;
	size_t i;

	if (q->type >= QB_Q_UNKNOWN || q->schema_invalid)
		return 0;
	rc = qb_moodle_check_body(q, &moodle);
	if (q->points && q->points_value != 1.0)
		REASON(POINTS, COUNT, 0, "it is worth %s points; GIFT has no "
		       "mark, and Moodle imports every GIFT question worth 1", q->points);
	if (!q->shuffle && (qb_qtype_is_choice(q->type) || q->type == QB_Q_MATCHING))
		REASON(SHUFFLE, COUNT, 0, "it keeps its options in order "
		       "(shuffle=\"false\"); GIFT cannot say so, and Moodle shuffles them");
	if (q->type == QB_Q_SHORT && q->case_sensitive)
		REASON(CASE, COUNT, 0, "it is case-sensitive; GIFT cannot say "
		       "so, and Moodle marks it ignoring case");
	for (i = 0; q->type == QB_Q_NUMERIC && i < q->nanswers; i++)
		if (q->answers[i].unit && q->answers[i].unit[0])
			REASON(UNIT, COUNT, q->answers[i].line, "the answer's unit "
			       "'%s' has no place in GIFT, and Moodle imports the number alone",
			       q->answers[i].unit);
	if (q->type == QB_Q_ESSAY) {
		const char *fmt = q->response ? qb_text_attr(q->response, "format") : NULL;
		int words = q->response && (qb_text_attr(q->response, "min-words") ||
					    qb_text_attr(q->response, "max-words"));

		if (q->rubric)
			REASON(ESSAY, COUNT, 0, "it has a grader rubric; a GIFT "
			       "essay has no grader information, and Moodle imports it without");
		if ((fmt && strcmp(fmt, "plain") == 0) || words)
			REASON(ESSAY, COUNT, 0, "it asks for %s; GIFT cannot say "
			       "so, and Moodle imports a formatted answer box without word limits",
			       words ? "a number of words" : "plain text");
	}
	if (q->type == QB_Q_MULTIPLE) {
		size_t right = count_correct(q), wrong = q->noptions - right;

		if (right && (!qb_moodle_share(right) || (wrong && !qb_moodle_share(wrong))))
			REASON(FRACTION, COUNT, 0, "%zu correct and %zu wrong "
			       "options have no weights in Moodle's fixed list of grade fractions "
			       "(1 to 10, or 20, of each can be expressed)", right, wrong);
	}
	if (q->type == QB_Q_MATCHING && q->npairs < 2)
		REASON(MATCHING, TYPE_SHAPE, 0, "it has %zu pair%s; Moodle's matching needs 2 pairs "
		       "and 3 answers in all", q->npairs, q->npairs == 1 ? "" : "s");
	else if (q->type == QB_Q_MATCHING && q->npairs + q->ndistractors < 3)
		REASON(MATCHING, COUNT, 0, "it has %zu pairs and %zu "
		       "distractors; Moodle's matching needs 2 pairs and 3 answers in all",
		       q->npairs, q->ndistractors);
	for (i = 0; i < q->ntags; i++)
		if (!tag_ok(q->tags[i]))
			REASON(TAG, COUNT, 0, "Moodle's GIFT [tag:] cannot hold "
			       "the tag '%s' (< > ` or control characters, or a final backslash)",
			       q->tags[i]);
	if (!q->no_img)
		qb_rich_each_img(q->node, has_img, &img);
	if (img)
		REASON(IMAGE, COUNT, 0, "it shows an image; a GIFT file "
		       "cannot carry image files, and Moodle would show a broken link");
	return rc;
}

#undef REASON

/* Keeps the first refusal as "FILE:LINE: question 'ID' cannot be exported
 * to gift: MESSAGE". The export driver runs the check before the question
 * hook and refuses with the rule's id; this is the hook's own guard. */
static int refuse(void *ctx, const struct qb_question *q, enum qb_rule_key rule,
		  enum qb_rule_key base, unsigned long line, const char *msg)
{
	struct gift *st = ctx;

	(void)rule;
	(void)base;
	if (st->nproblems++ == 0)
		snprintf(st->problem, sizeof(st->problem), "%s:%lu: question '%s' cannot be "
			 "exported to gift: %s", q->file, line, q->id, msg);
	return 0;
}

/* ---- escaping ------------------------------------------------------------ */

/* Appends S with GIFT's reserved characters escaped as Moodle's repchar()
 * does: \ # = ~ { } : with a backslash, a line end as \n, CR dropped.
 * The bytes between two of them go in one copy (a test per byte made this
 * a tenth of the export's time). */
static int gift_escape(struct qb_buf *out, const char *s, size_t len)
{
	static const char special[] = "\\#=~{}:\n\r";
	size_t i = 0, j;
	int rc = qb_buf_grow(out, len);

	while (!rc && i < len) {
		/* the run to the next special byte; S is NUL-terminated, so
		 * strcspn may stop at a NUL inside it (stepped over) or past
		 * LEN (cut) */
		for (j = i + strcspn(s + i, special); j < len && s[j] == '\0';)
			j += 1 + strcspn(s + j + 1, special);
		if (j > len)
			j = len;
		rc = qb_buf_add(out, s + i, j - i);
		if (rc || j == len)
			break;
		if (s[j] == '\n')
			rc = qb_buf_adds(out, "\\n");
		else if (s[j] != '\r')
			rc = qb_buf_addc(out, '\\') || qb_buf_addc(out, s[j]) ? QB_ENOMEM : 0;
		i = j + 1;
	}
	return rc;
}

/* Rich-text element N as HTML, GIFT-escaped, appended to the line. A text
 * that starts with '[' gets an [html] marker of its own: qformat_gift takes
 * the first "[...]" of a text for a format marker when it names one, and
 * removes only that one. */
static int html_text(struct gift *st, const xmlNode *n)
{
	struct qb_rich_opts o = { QB_MATH_TEX, NULL, NULL, NULL, 1, NULL, NULL };  /* Moodle shows it as HTML */
	size_t len;
	const char *s;
	int rc;

	qb_buf_clear(&st->html);
	rc = qb_buf_grow(&st->html, 0);
	if (!rc && n)
		rc = qb_rich_html_render(st->render, &st->html, n, &o);
	if (rc)
		return rc;
	s = qb_text_trim(st->html.ptr, &len);
	if (len && s[0] == '[')
		rc = qb_buf_adds(&st->line, "[html]");
	return rc ? rc : gift_escape(&st->line, s, len);
}

/* Plain text of N with white space collapsed (matching answers are plain
 * text in Moodle), HTML-escaped as Moodle shows them through
 * format_string(), then GIFT-escaped. */
static int plain_text(struct gift *st, const xmlNode *n)
{
	struct qb_buf raw = QB_BUF_INIT;
	const char *s;
	int rc, space = 0;

	qb_buf_clear(&st->tmp);
	rc = qb_buf_grow(&st->tmp, 0);
	if (!rc)
		rc = qb_text_plain(&raw, n);
	for (s = raw.ptr; !rc && s && *s; s++) {
		if (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') {
			space = 1;
			continue;
		}
		if (space && st->tmp.len)
			rc = qb_buf_addc(&st->tmp, ' ');
		space = 0;
		if (!rc)
			rc = qb_buf_addc(&st->tmp, *s);
	}
	qb_buf_clear(&raw);
	if (!rc)
		rc = qb_moodle_html_escape(&raw, st->tmp.ptr);
	if (!rc)
		rc = gift_escape(&st->line, raw.ptr, raw.len);
	qb_buf_dispose(&raw);
	return rc;
}

/* "#feedback" when N holds any. */
static int feedback(struct gift *st, const xmlNode *n)
{
	if (!n || qb_text_is_blank(n))
		return 0;
	return qb_buf_addc(&st->line, '#') ? QB_ENOMEM : html_text(st, n);
}

/* ---- bodies per type ----------------------------------------------------- */

static int general_feedback(struct gift *st, const struct qb_question *q, const char *indent)
{
	int rc = 0;

	if (!q->explanation || qb_text_is_blank(q->explanation))
		return 0;
	rc = qb_buf_adds(&st->line, indent);
	if (!rc)
		rc = qb_buf_adds(&st->line, "####");
	if (!rc)
		rc = html_text(st, q->explanation);
	if (!rc && indent[0])
		rc = qb_buf_addc(&st->line, '\n');
	return rc;
}

static int write_choice(struct gift *st, const struct qb_question *q)
{
	size_t right = count_correct(q), wrong = q->noptions - right, i;
	char pos[40], neg[40];
	int rc = qb_buf_adds(&st->line, "{\n");

	/* multiple: 100/N per correct option, -100/W per wrong one, as the
	 * Moodle XML export marks it. qformat_gift reads a weight of at most
	 * two integer digits (/^%\-*([0-9]{1,2})\.?([0-9]*)%/), so 100 % is
	 * written 99.99999, which Moodle's grade check snaps to 100 (it is
	 * within its 0.00001 of the listed value). A multiple question
	 * without a correct option (key-missing, which refuses the export)
	 * is still written here, with its wrong options only. */
	if (q->type == QB_Q_MULTIPLE) {
		const struct qb_moodle_grade *g = right ? qb_moodle_share(right) : NULL;

		snprintf(pos, sizeof(pos), "~%%%s%%", right == 1 ? "99.99999" : g ? g->spelling : "0");
		g = wrong ? qb_moodle_share(wrong) : NULL;
		snprintf(neg, sizeof(neg), "~%%-%s%%", wrong == 1 ? "99.99999" : g ? g->spelling : "0");
	}
	for (i = 0; !rc && i < q->noptions; i++) {
		const struct qb_option *o = &q->options[i];

		rc = qb_buf_addc(&st->line, '\t');
		if (!rc)
			rc = qb_buf_adds(&st->line, q->type == QB_Q_SINGLE ? (o->correct ? "=" : "~")
							      : (o->correct ? pos : neg));
		if (!rc)
			rc = html_text(st, o->text);
		if (!rc)
			rc = feedback(st, o->rationale);
		if (!rc)
			rc = qb_buf_addc(&st->line, '\n');
	}
	if (!rc)
		rc = general_feedback(st, q, "\t");
	return rc ? rc : qb_buf_adds(&st->line, "}\n");
}

static const xmlNode *side(const struct qb_question *q, int for_true)
{
	size_t i;

	for (i = 0; i < q->nside_rationales; i++)
		if (q->side_rationales[i].for_true == for_true)
			return q->side_rationales[i].node;
	return NULL;
}

/* {TRUE#wrong#right}: the feedback for the wrong answer first. */
static int write_truefalse(struct gift *st, const struct qb_question *q)
{
	int key = q->nanswers && strcmp(q->answers[0].value, "true") == 0;
	const xmlNode *right = side(q, key), *wrong = side(q, !key);
	int has_right = right && !qb_text_is_blank(right);
	int has_wrong = wrong && !qb_text_is_blank(wrong);
	int rc = qb_buf_adds(&st->line, key ? "{TRUE" : "{FALSE");

	if (!rc && has_wrong)
		rc = feedback(st, wrong);
	else if (!rc && has_right)
		rc = qb_buf_addc(&st->line, '#');
	if (!rc && has_right)
		rc = feedback(st, right);
	if (!rc)
		rc = general_feedback(st, q, "");
	return rc ? rc : qb_buf_adds(&st->line, "}\n");
}

/* Every accepted answer at full marks. The answer is Moodle's pattern, in
 * which '*' is the wildcard: a literal '*' is "\*" (GIFT-escaped "\\*"). A
 * format marker at its start would be taken away: an answer that starts
 * with '[' gets a [moodle] marker in front, which is taken instead. */
static int write_short(struct gift *st, const struct qb_question *q)
{
	size_t i;
	int rc = qb_buf_adds(&st->line, "{\n");

	for (i = 0; !rc && i < q->nanswers; i++) {
		const char *a = q->answers[i].value;

		qb_buf_clear(&st->tmp);
		rc = qb_buf_grow(&st->tmp, 0);
		for (; !rc && *a; a++)
			rc = *a == '*' ? qb_buf_adds(&st->tmp, "\\*") : qb_buf_addc(&st->tmp, *a);
		if (!rc)
			rc = qb_buf_adds(&st->line, "\t=");
		if (!rc && st->tmp.ptr[0] == '[')
			rc = qb_buf_adds(&st->line, "[moodle]");
		if (!rc)
			rc = gift_escape(&st->line, st->tmp.ptr, st->tmp.len);
		if (!rc)
			rc = qb_buf_addc(&st->line, '\n');
	}
	if (!rc)
		rc = general_feedback(st, q, "\t");
	return rc ? rc : qb_buf_adds(&st->line, "}\n");
}

/* {#VALUE:TOLERANCE}, numbers as Moodle's database takes them. A numeric
 * question without an answer (key-missing, which refuses the export) is
 * written {#}. */
static int write_numeric(struct gift *st, const struct qb_question *q)
{
	const struct qb_answer *a;
	int rc;

	if (q->nanswers == 0)
		return qb_buf_adds(&st->line, "{#}\n");
	a = &q->answers[0];
	qb_buf_clear(&st->tmp);
	rc = qb_moodle_decimal(&st->tmp, a->value, 1);
	if (!rc)
		rc = qb_buf_adds(&st->line, "{#");
	if (!rc)
		rc = qb_buf_add(&st->line, st->tmp.ptr, st->tmp.len);
	if (!rc && a->tolerance) {
		qb_buf_clear(&st->tmp);
		rc = qb_moodle_decimal(&st->tmp, a->tolerance, 0);
		/* ':' separates the tolerance here: written plain, not escaped */
		if (!rc && strcmp(st->tmp.ptr, "0") != 0)
			rc = qb_buf_addc(&st->line, ':') || qb_buf_add(&st->line, st->tmp.ptr, st->tmp.len)
			     ? QB_ENOMEM : 0;
	}
	if (!rc)
		rc = general_feedback(st, q, "");
	return rc ? rc : qb_buf_adds(&st->line, "}\n");
}

static int write_essay(struct gift *st, const struct qb_question *q)
{
	int rc = qb_buf_addc(&st->line, '{');

	if (!rc)
		rc = general_feedback(st, q, "");
	return rc ? rc : qb_buf_adds(&st->line, "}\n");
}

/* =premise -> response; a distractor is "= -> response". The premise is
 * HTML ('>' is "&gt;" there, so it never holds the "->" separator). */
static int write_matching(struct gift *st, const struct qb_question *q)
{
	size_t i;
	int rc = qb_buf_adds(&st->line, "{\n");

	for (i = 0; !rc && i < q->npairs + q->ndistractors; i++) {
		int pair = i < q->npairs;

		rc = qb_buf_adds(&st->line, "\t=");
		if (!rc && pair)
			rc = html_text(st, q->pairs[i].premise);
		if (!rc)
			rc = qb_buf_adds(&st->line, " -> ");
		if (!rc)
			rc = plain_text(st, pair ? q->pairs[i].response
					       : q->distractors[i - q->npairs].node);
		if (!rc)
			rc = qb_buf_addc(&st->line, '\n');
	}
	if (!rc)
		rc = general_feedback(st, q, "\t");
	return rc ? rc : qb_buf_adds(&st->line, "}\n");
}

/* Indexed by enum qb_qtype. */
static int (*const bodies[QB_Q_UNKNOWN])(struct gift *, const struct qb_question *) = {
	[QB_Q_SINGLE] = write_choice,
	[QB_Q_MULTIPLE] = write_choice,
	[QB_Q_TRUEFALSE] = write_truefalse,
	[QB_Q_SHORT] = write_short,
	[QB_Q_NUMERIC] = write_numeric,
	[QB_Q_ESSAY] = write_essay,
	[QB_Q_MATCHING] = write_matching,
};

/* ---- categories ---------------------------------------------------------- */

/* One name of a $CATEGORY: path as Moodle reads it: qformat_gift does not
 * undo its escapes on that line (a "\:" would stay a placeholder), so the
 * name is written as it is, with '\' doubled (read back as one), '/'
 * doubled (Moodle's path separator) and & < > " as HTML references (the
 * name is shown as HTML), as the Moodle XML export writes it. */
static int path_component(struct gift *st, const char *name)
{
	const char *s;
	size_t len;
	int rc;

	s = qb_text_trim(name, &len);
	qb_buf_clear(&st->tmp);
	rc = qb_buf_grow(&st->tmp, 0);
	for (; !rc && len--; s++)
		rc = *s == '\n' || *s == '\r' || *s == '\t' ? qb_buf_addc(&st->tmp, ' ')
							    : qb_buf_addc(&st->tmp, *s);
	qb_buf_clear(&st->html);
	if (!rc)
		rc = qb_moodle_html_escape(&st->html, st->tmp.ptr);
	if (!rc)
		rc = qb_buf_addc(&st->line, '/');
	for (s = st->html.ptr; !rc && s && *s; s++)
		rc = *s == '/' ? qb_buf_adds(&st->line, "//")
		   : *s == '\\' ? qb_buf_adds(&st->line, "\\\\") : qb_buf_addc(&st->line, *s);
	return rc;
}

static int switch_category(struct gift *st, const struct qb_question *q)
{
	size_t i;
	int rc;

	if (st->have_cat && st->cat_file == q->file_index && st->cat_serial == q->category_serial)
		return 0;
	st->have_cat = 1;
	st->cat_file = q->file_index;
	st->cat_serial = q->category_serial;
	rc = qb_buf_adds(&st->line, "$CATEGORY: $course$/top");
	if (!rc)
		rc = path_component(st, st->title);
	for (i = 0; !rc && i < q->ncategories; i++)
		rc = path_component(st, q->categories[i]);
	return rc ? rc : qb_buf_adds(&st->line, "\n\n");
}

/* ---- the exporter's entry points ----------------------------------------- */

static void state_free(struct gift *st)
{
	if (!st)
		return;
	qb_rich_html_free(st->render);
	qb_buf_dispose(&st->line);
	qb_buf_dispose(&st->html);
	qb_buf_dispose(&st->tmp);
	free(st->title);
	free(st);
}

int qb_gift_open(void **state, const struct qb_export_opts *o, struct qb_error *err)
{
	struct gift *st = calloc(1, sizeof(*st));
	int rc;

	*state = NULL;
	if (!st || qb_rich_html_new(&st->render, 0)) {
		state_free(st);
		return QB_ENOMEM;
	}
	rc = qb_atomic_open(&st->out, o->output, err);
	if (rc) {
		state_free(st);
		return rc;
	}
	*state = st;
	return 0;
}

int qb_gift_bank(void *state, const struct qb_bank_info *b, struct qb_error *err)
{
	struct gift *st = state;
	size_t len;
	const char *t = b->title ? qb_text_trim(b->title, &len) : NULL;

	(void)err;
	/* An untitled bank is named by its id, as in the Moodle XML export. */
	if (!t || !len) {
		t = b->id && b->id[0] ? b->id : "bank";
		len = strlen(t);
	}
	free(st->title);
	st->title = strndup(t, len);
	st->have_cat = 0;
	return st->title ? 0 : QB_ENOMEM;
}

/* "// source: TEXT" on one line (line ends as spaces). */
static int source_line(struct gift *st, const char *src)
{
	size_t len;
	const char *s = qb_text_trim(src, &len);
	int rc = qb_buf_adds(&st->line, "// source: ");

	for (; !rc && len--; s++)
		rc = qb_buf_addc(&st->line, *s == '\n' || *s == '\r' ? ' ' : *s);
	return rc ? rc : qb_buf_addc(&st->line, '\n');
}

static int write_question(struct gift *st, const struct qb_question *q)
{
	size_t i;
	int rc;

	qb_buf_clear(&st->line);
	rc = switch_category(st, q);
	/* Moodle's own exporter writes idnumber and tags in a comment line */
	if (!rc)
		rc = qb_buf_adds(&st->line, "// [id:");
	if (!rc)
		rc = qb_buf_adds(&st->line, q->id);
	if (!rc)
		rc = qb_buf_addc(&st->line, ']');
	for (i = 0; !rc && i < q->ntags; i++) {
		const char *t;

		rc = qb_buf_adds(&st->line, " [tag:");
		for (t = q->tags[i]; !rc && *t; t++)
			rc = *t == ']' ? qb_buf_adds(&st->line, "\\]") : qb_buf_addc(&st->line, *t);
		if (!rc)
			rc = qb_buf_addc(&st->line, ']');
	}
	if (!rc)
		rc = qb_buf_addc(&st->line, '\n');
	/* provenance and the number of options to pick in comments of their
	 * own: Moodle has no field for them, qbank import reads them back */
	if (!rc && q->source && q->source[0])
		rc = source_line(st, q->source);
	if (!rc && q->type == QB_Q_MULTIPLE && q->has_select)
		rc = qb_buf_printf(&st->line, "// select: %ld\n", q->select);
	if (!rc)
		rc = qb_buf_adds(&st->line, "::");
	if (!rc)
		rc = gift_escape(&st->line, q->id, strlen(q->id));
	if (!rc)
		rc = qb_buf_adds(&st->line, "::[html]");
	if (!rc)
		rc = html_text(st, q->stem);
	if (!rc)
		rc = qb_buf_adds(&st->line, q->type == QB_Q_ESSAY || q->type == QB_Q_TRUEFALSE ||
					    q->type == QB_Q_NUMERIC ? " " : "\n");
	if (!rc)
		rc = bodies[q->type](st, q);
	if (!rc)
		rc = qb_buf_addc(&st->line, '\n');
	return rc;
}

int qb_gift_question(void *state, const struct qb_question *q, struct qb_error *err)
{
	struct gift *st = state;
	struct qb_target_sink s = { refuse, st };
	FILE *f;
	int rc;

	if (q->type >= QB_Q_UNKNOWN || !q->id || q->schema_invalid)
		return 0;   /* the schema has reported it; the lint refuses the export */
	/* the driver has run the check; run again, the hook stands on its own */
	if (qb_gift_check(q, &s) < 0)
		return QB_ENOMEM;
	if (st->nproblems)
		return 0;   /* keep checking; commit fails and writes nothing */
	rc = write_question(st, q);
	if (rc == QB_EINVAL) {
		snprintf(st->problem, sizeof(st->problem), "%s:%lu: question '%s': a number "
			 "Moodle's database would refuse", q->file, q->line, q->id);
		st->nproblems++;
		return 0;
	}
	if (rc)
		return rc;
	f = qb_atomic_file(st->out);
	errno = 0;
	if (fwrite(st->line.ptr, 1, st->line.len, f) != st->line.len) {
		int e = qb_atomic_write_error(st->out);

		qb_error_set(err, QB_EIO, "%s: write failed: %s", qb_atomic_path(st->out),
			     strerror(e ? e : errno ? errno : EIO));
		return QB_EIO;
	}
	return 0;
}

int qb_gift_commit(void *state, struct qb_error *err)
{
	struct gift *st = state;
	struct qb_atomic *out = st->out;

	if (st->nproblems) {
		if (st->nproblems > 1)
			qb_error_set(err, QB_EREFUSED, "%s (and %zu more problem%s for GIFT)",
				     st->problem, st->nproblems - 1, st->nproblems == 2 ? "" : "s");
		else
			qb_error_set(err, QB_EREFUSED, "%s", st->problem);
		qb_gift_abort(st);
		return QB_EREFUSED;
	}
	state_free(st);
	return qb_atomic_commit(out, err);
}

void qb_gift_abort(void *state)
{
	struct gift *st = state;
	struct qb_atomic *out;

	if (!st)
		return;
	out = st->out;
	state_free(st);
	qb_atomic_abort(out);
}
