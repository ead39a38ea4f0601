/* Canvas QTI 1.2 package: the flavour Canvas's own quiz export and
 * text2qti write, which Canvas's "QTI .zip file" import reads with its
 * question types, points and feedback intact.
 *
 * Package layout (QUIZ: the bank id made an ASCII file name):
 *   imsmanifest.xml               IMS CP: the quiz resource (its QTI file and
 *                                 every image as a <file>, never as a
 *                                 resource of its own) and the
 *                                 assessment_meta.xml resource
 *   QUIZ/QUIZ.xml                 questestinterop: one assessment, its
 *                                 root_section, one item per question
 *   QUIZ/assessment_meta.xml      Canvas's quiz settings (title,
 *                                 description, points, shuffling)
 *   QUIZ/media/NAME               the images, with ASCII names
 *
 * Each item carries Canvas's itemmetadata (question_type, points_possible,
 * original_answer_ids), Canvas's feedback names (general_fb for the
 * explanation, ANSWER_fb for a rationale) and Canvas's scoring (SCORE 0 to
 * 100, which Canvas scales to points_possible). What each field does in
 * Canvas's importer is in README.md. qb_canvas_check (the target checks,
 * target-canvas-*) refuses what Canvas would hold otherwise than the bank
 * says; the driver runs it before the question hook.
 *
 * Categories become question groups (a section per category path whose
 * questions all count; Canvas's own export writes a quiz's groups this
 * way) when every question of the path is worth the same, since a group
 * gives each of its questions the same points; otherwise the category's
 * questions stay in the root section and the path is kept as the name
 * of Canvas's question bank (bank_title) of each of them.
 *
 * Math is MathML with its TeX as annotation (mathml.h: one pandoc run per
 * bank file), as in the QTI packages, in every HTML field; matching text
 * is plain text in Canvas and keeps the TeX as written (README.md).
 *
 * Memory: the items are written at once to a temporary file, in bank
 * order; the commit copies them into the zip grouped by category, a run
 * (consecutive items of one group: one stretch of the file, one per
 * category element in a usual bank) at a time. Nothing stays in memory
 * per question: a repeated id, which Canvas would take for one question,
 * never reaches this exporter (the export driver refuses it from the
 * lint's index of ids: exporter.h, unique_ids). The package has a handful
 * of entries, so libarchive's central directory stays small. */
#include "exporters.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../atomic.h"
#include "../core/array.h"
#include "../core/map.h"
#include "../imgpath.h"
#include "../mathml.h"
#include "../tempfile.h"
#include "../text.h"
#include "qti_internal.h"

#define CANVAS_NS "http://www.imsglobal.org/xsd/ims_qtiasiv1p2"
#define CANVAS_LOC CANVAS_NS " http://www.imsglobal.org/xsd/ims_qtiasiv1p2p1.xsd"
#define META_NS "http://canvas.instructure.com/xsd/cccv1p0"
#define META_LOC META_NS " https://canvas.instructure.com/xsd/cccv1p0.xsd"
#define MANIFEST_FILE "imsmanifest.xml"
#define META_FILE "assessment_meta.xml"
#define MAX_NAME 120

/* Consecutive items of one group: one stretch of the temporary file. */
struct run {
	size_t group;          /* index into groups, or SIZE_MAX: the root section */
	uint64_t off, len;     /* its items' bytes in the temporary file */
	size_t next;           /* the group's next run, or SIZE_MAX */
};

struct group {
	size_t key;            /* arena offsets */
	size_t title;
	size_t nitems;
	double points;         /* of the first question */
	int mixed;             /* questions with different points */
	size_t first_run, last_run;   /* SIZE_MAX while it has none */
};

struct media {
	size_t real;           /* resolved path */
	size_t entry;          /* entry name in the zip */
};

struct canvas {
	struct qb_atomic *out;
	struct qti_zip *zip;
	struct qb_spool items; /* the rendered items, in bank order */
	uint64_t written;      /* its length */
	xmlBufferPtr xbuf;
	struct qb_rich_html *html;

	struct qb_buf arena;
	struct run *runs;
	size_t nruns, capruns;
	struct group *groups;
	size_t ngroups, capgroups;
	struct media *media;
	size_t nmedia, capmedia;
	struct qb_map groupmap;
	struct qb_map medmap;
	struct qti_hashes names;   /* entry names in use */
	struct qb_mathml *math;    /* the current bank file's formulas as MathML */

	size_t quiz;           /* arena: the quiz identifier and directory */
	size_t title;
	struct qb_buf description;   /* HTML of the first bank's description */
	int have_quiz;
	int noshuffle;         /* a question keeps its order: shuffle_answers false */
	double total;

	const struct qb_question *q;
	struct qb_buf src;
	struct qti_status s;       /* the first refusal and the first error */
};

/* ---- the target checks -------------------------------------------------- */

static int has_img(void *ctx, const xmlNode *img)
{
	(void)ctx;
	(void)img;
	return 1;
}

static int node_has_img(const xmlNode *n)
{
	return n && qb_rich_each_img(n, has_img, NULL);
}

static size_t count_correct(const struct qb_question *q)
{
	size_t i, k = 0;

	for (i = 0; i < q->noptions; i++)
		k += q->options[i].correct != 0;
	return k;
}

#define REPORT(rule, base, line, ...) \
	qb_target_report(s, q, QB_RULE_TARGET_CANVAS_##rule, QB_RULE_##base, (line), __VA_ARGS__)

/* What Canvas cannot hold as the bank says: a pure function of the
 * question (exporter.h). Canvas compares short answers without regard to
 * case; it shows matching premises and responses as plain text; its
 * scoring condition must be one the key satisfies (one correct option for
 * a single question, at least one for a multiple, a number for a numeric
 * answer). */
int qb_canvas_check(const struct qb_question *q, const struct qb_target_sink *s)
{
	size_t i, k;
	double v;

	if (q->type >= QB_Q_UNKNOWN || !q->id)
		return 0;   /* the schema's finding */
	switch (q->type) {
	case QB_Q_SINGLE:
		k = count_correct(q);
		if (k != 1)
			return qb_target_report(s, q, QB_RULE_TARGET_CANVAS_KEY,
						k ? QB_RULE_KEY_MULTIPLE : QB_RULE_KEY_MISSING, 0,
						"a Canvas multiple_choice_question has exactly one "
						"correct answer, this question has %zu", k);
		break;
	case QB_Q_MULTIPLE:
		if (count_correct(q) == 0)
			return REPORT(KEY, KEY_MISSING, 0, "no correct option: Canvas would score "
				      "an empty answer as right");
		break;
	case QB_Q_TRUEFALSE:
		if (q->nanswers != 1)
			return REPORT(KEY, TYPE_SHAPE, 0, "a Canvas true_false_question needs exactly "
				      "one answer, this question has %zu", q->nanswers);
		break;
	case QB_Q_SHORT:
		if (q->nanswers == 0)
			return REPORT(KEY, TYPE_SHAPE, 0, "no accepted answer: Canvas would accept none");
		if (q->case_sensitive)
			return REPORT(SHORT_CASE, COUNT, 0, "Canvas compares short answers without "
				      "regard to case, so it would accept answers that this "
				      "case-sensitive question rejects");
		break;
	case QB_Q_NUMERIC:
		for (i = 0; i < q->nanswers; i++) {
			const struct qb_answer *a = &q->answers[i];

			if (!a->value || qti_parse_double(a->value, &v))
				return REPORT(NUMBER, TYPE_SHAPE, a->line, "the numeric answer '%s' is "
					      "not a number", a->value ? a->value : "");
			if (a->tolerance && (qti_parse_double(a->tolerance, &v) || v < 0))
				return REPORT(NUMBER, TYPE_SHAPE, a->line, "the tolerance '%s' is not a "
					      "number of 0 or more", a->tolerance);
		}
		if (q->nanswers == 0)
			return REPORT(NUMBER, TYPE_SHAPE, 0, "no numeric answer");
		break;
	case QB_Q_MATCHING:
		if (q->npairs == 0)
			return REPORT(KEY, TYPE_SHAPE, 0, "no pair: Canvas would have nothing to match");
		for (i = 0; i < q->npairs; i++)
			if (node_has_img(q->pairs[i].premise) || node_has_img(q->pairs[i].response))
				return REPORT(MATCHING_IMAGE, COUNT, q->pairs[i].line, "Canvas shows "
					      "matching premises and responses as plain text, so this "
					      "image would be lost");
		for (i = 0; i < q->ndistractors; i++)
			if (node_has_img(q->distractors[i].node))
				return REPORT(MATCHING_IMAGE, COUNT, q->distractors[i].line, "Canvas "
					      "shows matching responses as plain text, so this image "
					      "would be lost");
		break;
	default:
		break;
	}
	return 0;
}

#undef REPORT

/* ---- small helpers ------------------------------------------------------ */

static const char *str(const struct canvas *st, size_t off)
{
	return st->arena.ptr + off;
}

static int arena_add(struct canvas *st, const char *s, size_t len, size_t *off)
{
	return qti_arena_add(&st->arena, s, len, off);
}

/* The first N bytes of S, at most MAX, as a portable file name
 * (qti_name_add_safe): Canvas opens manifest hrefs without percent-decoding
 * them, so only such names reach it intact. */
static int add_safe_name(struct qb_buf *b, const char *s, size_t n, size_t max, int slash)
{
	return qti_name_add_safe(b, s, n < max ? n : max, slash);
}

/* ---- images ------------------------------------------------------------- */

static size_t find_media(const struct canvas *st, const char *real)
{
	struct qti_keyed k = QTI_KEYED(&st->arena, st->media, struct media, real);

	return qb_map_find(&st->medmap, qti_hash_str(real), &qti_keyed_ops, &k, real);
}

/* Packs image SRC (file REAL, normalised src NORM) as QUIZ/media/NAME,
 * NAME an ASCII form of NORM made unique. */
static int add_media(struct canvas *st, const char *src, const char *real, const char *norm,
		     size_t *idx)
{
	struct qb_buf name = QB_BUF_INIT, bytes = QB_BUF_INIT;
	const char *dot = strrchr(norm, '.'), *slash = strrchr(norm, '/');
	size_t base_len = strlen(norm), start;
	struct qb_error e = { 0, "" };
	unsigned long k;
	int rc;

	if (dot && dot > (slash ? slash + 1 : norm) && strlen(dot) <= 8)
		base_len = (size_t)(dot - norm);
	else
		dot = "";
	rc = qb_img_read(&bytes, st->q->file, src, &e);
	if (rc == QB_EREFUSED) {
		qti_problem(&st->s, st->q, "img src '%s': %s", src, e.msg);
		qb_buf_dispose(&bytes);
		return rc;
	}
	if (!rc)
		rc = qb_buf_printf(&name, "%s/media/", str(st, st->quiz)) ? QB_ENOMEM : 0;
	start = name.len;
	for (k = 1; !rc; k++) {
		name.len = start;
		rc = add_safe_name(&name, norm, base_len, MAX_NAME, 1);
		if (!rc && k > 1)
			rc = qb_buf_printf(&name, "-%lu", k) ? QB_ENOMEM : 0;
		if (!rc)
			rc = add_safe_name(&name, dot, strlen(dot), 8, 0);
		if (!rc)
			rc = qti_names_take(&st->names, name.ptr);
		if (rc == 1)
			rc = 0;
		else
			break;
	}
	if (!rc)
		rc = QB_ARRAY_RESERVE(st->media, st->capmedia, st->nmedia + 1);
	if (!rc)
		rc = arena_add(st, real, strlen(real), &st->media[st->nmedia].real) ||
		     arena_add(st, name.ptr, name.len, &st->media[st->nmedia].entry) ? QB_ENOMEM : 0;
	if (!rc)
		rc = qti_zip_add(st->zip, name.ptr, bytes.ptr ? bytes.ptr : "", bytes.len, &e);
	if (!rc) {
		struct qti_keyed kk = QTI_KEYED(&st->arena, st->media, struct media, real);

		rc = qb_map_insert(&st->medmap, qti_hash_str(real), st->nmedia, &qti_keyed_ops, &kk);
	}
	qb_buf_dispose(&name);
	qb_buf_dispose(&bytes);
	if (rc) {
		qti_fail(&st->s, rc, &e);
		return rc;
	}
	*idx = st->nmedia++;
	return 0;
}

/* qb_rich_opts.img_src: packs the image once and answers its path
 * relative to the QTI file (media/NAME), which Canvas's importer matches
 * against the package's files and turns into a link to the course file. */
static const char *img_src(void *ctx, const char *src)
{
	struct canvas *st = ctx;
	struct qb_buf norm = QB_BUF_INIT;
	const char *result = "";
	char *real = NULL;
	size_t idx;

	qb_buf_clear(&st->src);
	if (st->s.failed || !st->q)
		goto done;
	if (qti_media_resolve(&st->s, st->q, src, &real, &norm))
		goto done;
	idx = find_media(st, real);
	if (idx == QB_MAP_NONE && add_media(st, src, real, norm.ptr, &idx))
		goto done;
	if (qb_buf_adds(&st->src, str(st, st->media[idx].entry) + strlen(str(st, st->quiz)) + 1)) {
		qti_fail(&st->s, QB_ENOMEM, NULL);
		goto done;
	}
	result = st->src.ptr;
done:
	free(real);
	qb_buf_dispose(&norm);
	return result;
}

/* ---- one item ----------------------------------------------------------- */

struct item {
	struct canvas *st;
	struct qb_xw x;
	const struct qb_question *q;
	struct qb_buf h;       /* HTML of the field being written */
	char points[40];
};

/* The writer escapes '"' in text as &quot;, which HTML text does not
 * need and Canvas's importer drops from an answer's plain text (it strips
 * every entity there): put it back outside tags (attribute values keep
 * theirs; '>' inside them is escaped, so a '>' always ends a tag). */
static void unquote_text(struct qb_buf *b)
{
	size_t i, o = 0;
	int in_tag = 0;

	for (i = 0; i < b->len; i++) {
		char c = b->ptr[i];

		if (c == '<')
			in_tag = 1;
		else if (c == '>')
			in_tag = 0;
		if (!in_tag && c == '&' && b->len - i >= 6 && memcmp(b->ptr + i, "&quot;", 6) == 0) {
			b->ptr[o++] = '"';
			i += 5;
			continue;
		}
		b->ptr[o++] = c;
	}
	b->len = o;
	if (b->ptr)
		b->ptr[o] = '\0';
}

/* Math goes as MathML (mathml.h), TeX kept as its annotation: Canvas's
 * sanitiser keeps MathML in question, answer and feedback HTML, and its
 * pages load MathJax for a visible <math> whatever the account's settings,
 * where \( \) is typeset only with its "updated equation handling"
 * (README.md, "Math as MathML"). */
static int render(struct item *it, const xmlNode *n, const char *wrap)
{
	struct qb_rich_opts o = { QB_MATH_MATHML, img_src, it->st, NULL, 0, qti_math_write,
				  it->st->math };
	int rc;

	qb_buf_clear(&it->h);
	if (!n)
		return qb_buf_adds(&it->h, "") ? QB_ENOMEM : 0;
	o.wrap = wrap && !qb_rich_has_blocks(n) ? wrap : NULL;
	rc = qb_rich_html_render(it->st->html, &it->h, n, &o);
	if (!rc)
		unquote_text(&it->h);
	return rc;
}

static void field(struct item *it, const char *label, const char *entry)
{
	qb_xw_start(&it->x, "qtimetadatafield");
	qb_xw_leaf(&it->x, "fieldlabel", label);
	qb_xw_leaf(&it->x, "fieldentry", entry);
	qb_xw_end(&it->x);
}

/* <material><mattext texttype="text/html">HTML</mattext></material> */
static void html_material(struct item *it, const char *html)
{
	qb_xw_start(&it->x, "material");
	qb_xw_start_inline(&it->x, "mattext");
	qb_xw_attr(&it->x, "texttype", "text/html");
	qb_xw_text(&it->x, html);
	qb_xw_end_full(&it->x);
	qb_xw_end(&it->x);
}

static void plain_material(struct item *it, const char *text)
{
	qb_xw_start(&it->x, "material");
	qb_xw_start_inline(&it->x, "mattext");
	qb_xw_attr(&it->x, "texttype", "text/plain");
	qb_xw_text(&it->x, text);
	qb_xw_end_full(&it->x);
	qb_xw_end(&it->x);
}

/* Rich text N as the HTML content of a mattext, wrapped the way Canvas
 * writes it (a div for question text, a p for feedback). */
static void rich_material(struct item *it, const xmlNode *n, const char *wrap)
{
	int rc = render(it, n, wrap);

	if (rc) {
		it->x.rc = rc;
		return;
	}
	html_material(it, it->h.ptr ? it->h.ptr : "");
}

static void feedback_item(struct item *it, const char *ident, const xmlNode *n)
{
	qb_xw_start(&it->x, "itemfeedback");
	qb_xw_attr(&it->x, "ident", ident);
	qb_xw_start(&it->x, "flow_mat");
	rich_material(it, n, "p");
	qb_xw_end(&it->x);
	qb_xw_end(&it->x);
}

static void display(struct item *it, const char *ident)
{
	qb_xw_start(&it->x, "displayfeedback");
	qb_xw_attr(&it->x, "feedbacktype", "Response");
	qb_xw_attr(&it->x, "linkrefid", ident);
	qb_xw_end(&it->x);
}

static void varequal(struct item *it, const char *resp, const char *value)
{
	qb_xw_start_inline(&it->x, "varequal");
	qb_xw_attr(&it->x, "respident", resp);
	qb_xw_text(&it->x, value);
	qb_xw_end_full(&it->x);
}

static void setvar(struct item *it, const char *action, const char *value)
{
	qb_xw_start_inline(&it->x, "setvar");
	qb_xw_attr(&it->x, "action", action);
	qb_xw_attr(&it->x, "varname", "SCORE");
	qb_xw_text(&it->x, value);
	qb_xw_end_full(&it->x);
}

static void start_cond(struct item *it, const char *cont)
{
	qb_xw_start(&it->x, "respcondition");
	if (cont)
		qb_xw_attr(&it->x, "continue", cont);
	qb_xw_start(&it->x, "conditionvar");
}

/* The explanation: Canvas's general_fb, shown whatever the answer
 * (Canvas's neutral comments). */
static void general_cond(struct item *it)
{
	if (!it->q->explanation)
		return;
	start_cond(it, "Yes");
	qb_xw_start(&it->x, "other");
	qb_xw_end(&it->x);
	qb_xw_end(&it->x);
	display(it, "general_fb");
	qb_xw_end(&it->x);
}

static void outcomes(struct item *it)
{
	qb_xw_start(&it->x, "outcomes");
	qb_xw_start(&it->x, "decvar");
	qb_xw_attr(&it->x, "maxvalue", "100");
	qb_xw_attr(&it->x, "minvalue", "0");
	qb_xw_attr(&it->x, "varname", "SCORE");
	qb_xw_attr(&it->x, "vartype", "Decimal");
	qb_xw_end(&it->x);
	qb_xw_end(&it->x);
}

/* Choice questions: answer k (0-based) is ident k+1; truefalse's two are
 * True (1) and False (2). */
static void choice_ident(char out[24], size_t k)
{
	snprintf(out, 24, "%zu", k + 1);
}

static void choice_label(struct item *it, size_t k, const xmlNode *text, const char *plain)
{
	char id[24];

	choice_ident(id, k);
	qb_xw_start(&it->x, "response_label");
	qb_xw_attr(&it->x, "ident", id);
	if (text)
		rich_material(it, text, NULL);
	else
		plain_material(it, plain);
	qb_xw_end(&it->x);
}

/* The per-answer feedback conditions: ANSWER_fb when that answer is
 * chosen (Canvas's answer comments). */
static void answer_fb_cond(struct item *it, size_t k)
{
	char id[24], fb[40];

	choice_ident(id, k);
	snprintf(fb, sizeof(fb), "%s_fb", id);
	start_cond(it, "Yes");
	varequal(it, "response1", id);
	qb_xw_end(&it->x);
	display(it, fb);
	qb_xw_end(&it->x);
}

static void answer_fb_item(struct item *it, size_t k, const xmlNode *n)
{
	char id[24], fb[40];

	choice_ident(id, k);
	snprintf(fb, sizeof(fb), "%s_fb", id);
	feedback_item(it, fb, n);
}

static const xmlNode *side_rationale(const struct qb_question *q, int for_true)
{
	size_t i;

	for (i = 0; i < q->nside_rationales; i++)
		if (q->side_rationales[i].for_true == for_true)
			return q->side_rationales[i].node;
	return NULL;
}

static int tf_true(const struct qb_question *q)
{
	return q->nanswers && strcmp(q->answers[0].value, "true") == 0;
}

static void write_choice(struct item *it)
{
	const struct qb_question *q = it->q;
	int tf = q->type == QB_Q_TRUEFALSE;
	size_t n = tf ? 2 : q->noptions, k;
	char id[24];

	qb_xw_start(&it->x, "response_lid");
	qb_xw_attr(&it->x, "ident", "response1");
	qb_xw_attr(&it->x, "rcardinality", q->type == QB_Q_MULTIPLE ? "Multiple" : "Single");
	qb_xw_start(&it->x, "render_choice");
	qb_xw_attr(&it->x, "shuffle", q->shuffle && !tf ? "Yes" : "No");
	for (k = 0; k < n; k++)
		if (tf)
			choice_label(it, k, NULL, k == 0 ? "True" : "False");
		else
			choice_label(it, k, q->options[k].text, NULL);
	qb_xw_end(&it->x);
	qb_xw_end(&it->x);
	qb_xw_end(&it->x);   /* presentation */

	qb_xw_start(&it->x, "resprocessing");
	outcomes(it);
	general_cond(it);
	for (k = 0; k < n; k++)
		if (tf ? side_rationale(q, k == 0) != NULL : q->options[k].rationale != NULL)
			answer_fb_cond(it, k);
	start_cond(it, "No");
	if (q->type == QB_Q_MULTIPLE) {
		qb_xw_start(&it->x, "and");
		for (k = 0; k < n; k++) {
			choice_ident(id, k);
			if (!q->options[k].correct)
				qb_xw_start(&it->x, "not");
			varequal(it, "response1", id);
			if (!q->options[k].correct)
				qb_xw_end(&it->x);
		}
		qb_xw_end(&it->x);
	} else {
		for (k = 0; k < n; k++)
			if (tf ? (k == 0) == tf_true(q) : q->options[k].correct) {
				choice_ident(id, k);
				varequal(it, "response1", id);
			}
	}
	qb_xw_end(&it->x);
	setvar(it, "Set", "100");
	qb_xw_end(&it->x);
	qb_xw_end(&it->x);   /* resprocessing */

	if (q->explanation)
		feedback_item(it, "general_fb", q->explanation);
	for (k = 0; k < n; k++) {
		const xmlNode *r = tf ? side_rationale(q, k == 0) : q->options[k].rationale;

		if (r)
			answer_fb_item(it, k, r);
	}
}

static void fib_presentation(struct item *it, const char *fibtype)
{
	qb_xw_start(&it->x, "response_str");
	qb_xw_attr(&it->x, "ident", "response1");
	qb_xw_attr(&it->x, "rcardinality", "Single");
	qb_xw_start(&it->x, "render_fib");
	if (fibtype)
		qb_xw_attr(&it->x, "fibtype", fibtype);
	qb_xw_start(&it->x, "response_label");
	qb_xw_attr(&it->x, "ident", "answer1");
	qb_xw_attr(&it->x, "rshuffle", "No");
	qb_xw_end(&it->x);
	qb_xw_end(&it->x);
	qb_xw_end(&it->x);
	qb_xw_end(&it->x);   /* presentation */
}

/* Every accepted answer, once: Canvas's short_answer_question keeps each
 * varequal of the scoring condition as an answer. */
static void write_short(struct item *it)
{
	const struct qb_question *q = it->q;
	size_t i, j;

	fib_presentation(it, NULL);
	qb_xw_start(&it->x, "resprocessing");
	outcomes(it);
	general_cond(it);
	start_cond(it, "No");
	for (i = 0; i < q->nanswers; i++) {
		for (j = 0; j < i; j++)
			if (strcmp(q->answers[j].value, q->answers[i].value) == 0)
				break;
		if (j == i)
			varequal(it, "response1", q->answers[i].value);
	}
	qb_xw_end(&it->x);
	setvar(it, "Set", "100");
	qb_xw_end(&it->x);
	qb_xw_end(&it->x);
	if (q->explanation)
		feedback_item(it, "general_fb", q->explanation);
}

static void bound(struct item *it, const char *name, double v)
{
	char s[40];

	qti_fmt_double(s, v);
	qb_xw_start_inline(&it->x, name);
	qb_xw_attr(&it->x, "respident", "response1");
	qb_xw_text(&it->x, s);
	qb_xw_end_full(&it->x);
}

/* Each answer as a Canvas range answer, [value - tolerance, value +
 * tolerance], or, with no tolerance, an exact answer as Canvas's export
 * writes one (the value, or within [value, value]; a lone varequal is
 * dropped by the import). Canvas's exact answer with a margin, the same
 * form with a wider interval, loses its margin on import. */
static void write_numeric(struct item *it)
{
	const struct qb_question *q = it->q;
	size_t i;

	fib_presentation(it, "Decimal");
	qb_xw_start(&it->x, "resprocessing");
	outcomes(it);
	general_cond(it);
	for (i = 0; i < q->nanswers; i++) {
		double v = 0, t = 0;
		char s[40];

		if (qti_parse_double(q->answers[i].value, &v) ||
		    (q->answers[i].tolerance && (qti_parse_double(q->answers[i].tolerance, &t) || t < 0))) {
			qti_problem(&it->st->s, it->st->q, "the numeric answer '%s' or its tolerance is not a number",
				q->answers[i].value);
			continue;
		}
		qti_fmt_double(s, v);
		start_cond(it, "No");
		if (t > 0) {
			bound(it, "vargte", v - t);
			bound(it, "varlte", v + t);
		} else {
			qb_xw_start(&it->x, "or");
			varequal(it, "response1", s);
			qb_xw_start(&it->x, "and");
			bound(it, "vargte", v);
			bound(it, "varlte", v);
			qb_xw_end(&it->x);
			qb_xw_end(&it->x);
		}
		qb_xw_end(&it->x);
		setvar(it, "Set", "100");
		qb_xw_end(&it->x);
	}
	qb_xw_end(&it->x);
	if (q->explanation)
		feedback_item(it, "general_fb", q->explanation);
}

static void write_essay(struct item *it)
{
	fib_presentation(it, NULL);
	qb_xw_start(&it->x, "resprocessing");
	outcomes(it);
	general_cond(it);
	start_cond(it, "No");
	qb_xw_start(&it->x, "other");
	qb_xw_end(&it->x);
	qb_xw_end(&it->x);
	qb_xw_end(&it->x);
	qb_xw_end(&it->x);
	if (it->q->explanation)
		feedback_item(it, "general_fb", it->q->explanation);
}

/* Matching: premise i is response_lid response_<i+1>; every response and
 * distractor, once per normalised text, is a label (ident 100+k) in each
 * premise's list; each right pair adds its share of 100. */
static void write_matching(struct item *it)
{
	const struct qb_question *q = it->q;
	struct qb_buf t = QB_BUF_INIT, norm = QB_BUF_INIT, seen = QB_BUF_INIT;
	size_t nresp = q->npairs + q->ndistractors, i, k, *map = NULL, nuniq = 0;
	size_t *first = NULL;
	char id[40], lid[40], share[40];
	int rc = 0;

	map = calloc(nresp ? nresp : 1, sizeof(*map));
	first = calloc(nresp ? nresp : 1, sizeof(*first));
	if (!map || !first) {
		it->x.rc = QB_ENOMEM;
		goto done;
	}
	/* distinct responses by normalised text, in order of appearance */
	{
		size_t *starts = calloc(nresp ? nresp : 1, sizeof(*starts));

		if (!starts) {
			it->x.rc = QB_ENOMEM;
			goto done;
		}
		for (k = 0; k < nresp && !rc; k++) {
			const xmlNode *n = k < q->npairs ? q->pairs[k].response
							 : q->distractors[k - q->npairs].node;
			size_t j, len;

			qb_buf_clear(&norm);
			rc = n ? qb_text_norm_node(&norm, n) : 0;
			len = norm.len;
			for (j = 0; j < nuniq && !rc; j++) {
				size_t end = j + 1 < nuniq ? starts[j + 1] : seen.len;

				if (end - starts[j] == len && memcmp(seen.ptr + starts[j], norm.ptr ? norm.ptr : "", len) == 0)
					break;
			}
			if (rc)
				break;
			if (j == nuniq) {
				starts[nuniq] = seen.len;
				first[nuniq] = k;
				rc = qb_buf_add(&seen, norm.ptr ? norm.ptr : "", len);
				nuniq++;
			}
			map[k] = j;
		}
		free(starts);
		if (rc) {
			it->x.rc = QB_ENOMEM;
			goto done;
		}
	}
	for (i = 0; i < q->npairs; i++) {
		snprintf(lid, sizeof(lid), "response_%zu", i + 1);
		qb_xw_start(&it->x, "response_lid");
		qb_xw_attr(&it->x, "ident", lid);
		qb_buf_clear(&t);
		if (q->pairs[i].premise && qb_text_plain(&t, q->pairs[i].premise))
			it->x.rc = QB_ENOMEM;
		plain_material(it, t.ptr ? t.ptr : "");
		qb_xw_start(&it->x, "render_choice");
		for (k = 0; k < nuniq; k++) {
			const xmlNode *n = first[k] < q->npairs ? q->pairs[first[k]].response
								: q->distractors[first[k] - q->npairs].node;

			snprintf(id, sizeof(id), "%zu", 100 + k + 1);
			qb_xw_start(&it->x, "response_label");
			qb_xw_attr(&it->x, "ident", id);
			qb_buf_clear(&t);
			if (n && qb_text_plain(&t, n))
				it->x.rc = QB_ENOMEM;
			qb_xw_start(&it->x, "material");
			qb_xw_leaf(&it->x, "mattext", t.ptr ? t.ptr : "");
			qb_xw_end(&it->x);
			qb_xw_end(&it->x);
		}
		qb_xw_end(&it->x);
		qb_xw_end(&it->x);
	}
	qb_xw_end(&it->x);   /* presentation */
	qb_xw_start(&it->x, "resprocessing");
	outcomes(it);
	general_cond(it);
	qti_fmt_double(share, q->npairs ? 100.0 / (double)q->npairs : 100.0);
	for (i = 0; i < q->npairs; i++) {
		snprintf(lid, sizeof(lid), "response_%zu", i + 1);
		snprintf(id, sizeof(id), "%zu", 100 + map[i] + 1);
		start_cond(it, NULL);
		varequal(it, lid, id);
		qb_xw_end(&it->x);
		setvar(it, "Add", share);
		qb_xw_end(&it->x);
	}
	qb_xw_end(&it->x);
	if (q->explanation)
		feedback_item(it, "general_fb", q->explanation);
done:
	free(map);
	free(first);
	qb_buf_dispose(&t);
	qb_buf_dispose(&norm);
	qb_buf_dispose(&seen);
}

/* Canvas's question types, by bank type. */
static const char *const canvas_types[QB_Q_UNKNOWN] = {
	[QB_Q_SINGLE] = "multiple_choice_question",
	[QB_Q_MULTIPLE] = "multiple_answers_question",
	[QB_Q_TRUEFALSE] = "true_false_question",
	[QB_Q_SHORT] = "short_answer_question",
	[QB_Q_NUMERIC] = "numerical_question",
	[QB_Q_ESSAY] = "essay_question",
	[QB_Q_MATCHING] = "matching_question",
};

static void (*const writers[QB_Q_UNKNOWN])(struct item *) = {
	[QB_Q_SINGLE] = write_choice,
	[QB_Q_MULTIPLE] = write_choice,
	[QB_Q_TRUEFALSE] = write_choice,
	[QB_Q_SHORT] = write_short,
	[QB_Q_NUMERIC] = write_numeric,
	[QB_Q_ESSAY] = write_essay,
	[QB_Q_MATCHING] = write_matching,
};

/* The answer idents Canvas may keep as its answer ids. */
static int answer_ids(const struct qb_question *q, struct qb_buf *b)
{
	size_t n = q->type == QB_Q_TRUEFALSE ? 2 : qb_qtype_is_choice(q->type) ? q->noptions : 0, k;

	for (k = 0; k < n; k++)
		if (qb_buf_printf(b, k ? ",%zu" : "%zu", k + 1))
			return QB_ENOMEM;
	return 0;
}

static int write_item(struct canvas *st, const struct qb_question *q, const char *bank_title,
		      int depth, xmlBufferPtr out)
{
	struct item it;
	struct qb_buf ids = QB_BUF_INIT;
	xmlTextWriterPtr w = xmlNewTextWriterMemory(out, 0);
	int rc;

	if (!w)
		return QB_ENOMEM;
	it.st = st;
	it.q = q;
	it.h = (struct qb_buf)QB_BUF_INIT;
	it.points[0] = '\0';
	qb_xw_init(&it.x, w);
	it.x.depth = depth;
	for (rc = 0; rc <= depth; rc++)
		it.x.kids[rc] = 1;
	qti_fmt_double(it.points, q->points_value > 0 ? q->points_value : 1);

	qb_xw_start(&it.x, "item");
	qb_xw_attr(&it.x, "ident", q->id);
	qb_xw_attr(&it.x, "title", q->id);
	qb_xw_start(&it.x, "itemmetadata");
	qb_xw_start(&it.x, "qtimetadata");
	field(&it, "question_type", canvas_types[q->type]);
	field(&it, "points_possible", it.points);
	if (answer_ids(q, &ids))
		it.x.rc = QB_ENOMEM;
	if (ids.len)
		field(&it, "original_answer_ids", ids.ptr);
	if (bank_title)
		field(&it, "bank_title", bank_title);
	qb_xw_end(&it.x);
	qb_xw_end(&it.x);
	qb_xw_start(&it.x, "presentation");
	if (!it.x.rc) {
		int r = render(&it, q->stem, "p");

		if (!r && q->type == QB_Q_NUMERIC && q->nanswers && q->answers[0].unit &&
		    q->answers[0].unit[0])
			r = qb_buf_adds(&it.h, "<p>(") || qb_buf_adds(&it.h, q->answers[0].unit) ||
			    qb_buf_adds(&it.h, ")</p>") ? QB_ENOMEM : 0;
		if (!r && (qb_buf_adds(&it.h, "</div>")))
			r = QB_ENOMEM;
		if (r) {
			it.x.rc = r;
		} else {
			struct qb_buf d = QB_BUF_INIT;

			if (qb_buf_adds(&d, "<div>") || qb_buf_add(&d, it.h.ptr, it.h.len))
				it.x.rc = QB_ENOMEM;
			else
				html_material(&it, d.ptr);
			qb_buf_dispose(&d);
		}
	}
	writers[q->type](&it);
	qb_xw_end(&it.x);   /* item */
	if (!qb_xw_sync(&it.x) && xmlTextWriterFlush(w) < 0)
		it.x.rc = QB_EIO;
	rc = it.x.rc;
	xmlFreeTextWriter(w);
	qb_buf_dispose(&it.h);
	qb_buf_dispose(&ids);
	return rc;
}

/* ---- categories --------------------------------------------------------- */

static size_t find_group(const struct canvas *st, const char *key)
{
	struct qti_keyed k = QTI_KEYED(&st->arena, st->groups, struct group, key);

	return qb_map_find(&st->groupmap, qti_hash_str(key), &qti_keyed_ops, &k, key);
}

/* The group of Q's category path (names joined by U+001F), made the first
 * time; SIZE_MAX for a question outside every category. */
static int group_for(struct canvas *st, const struct qb_question *q, size_t *idx)
{
	struct qb_buf key = QB_BUF_INIT, title = QB_BUF_INIT;
	size_t i, found;
	int rc = 0;

	*idx = SIZE_MAX;
	if (q->ncategories == 0)
		return 0;
	for (i = 0; i < q->ncategories && !rc; i++) {
		if (i)
			rc = qb_buf_addc(&key, '\x1f') || qb_buf_adds(&title, " / ");
		if (!rc)
			rc = qb_buf_adds(&key, q->categories[i]) ||
			     qti_buf_add_collapsed(&title, q->categories[i]);
	}
	if (rc)
		goto done;
	found = find_group(st, key.ptr);
	if (found == QB_MAP_NONE) {
		struct group *g;
		struct qti_keyed k;

		rc = QB_ARRAY_RESERVE(st->groups, st->capgroups, st->ngroups + 1);
		if (rc)
			goto done;
		g = &st->groups[st->ngroups];
		memset(g, 0, sizeof(*g));
		g->points = q->points_value;
		g->first_run = g->last_run = SIZE_MAX;
		k = (struct qti_keyed)QTI_KEYED(&st->arena, st->groups, struct group, key);
		rc = arena_add(st, key.ptr, key.len, &g->key) ||
		     arena_add(st, title.ptr ? title.ptr : "", title.len, &g->title) ||
		     qb_map_insert(&st->groupmap, qti_hash_str(str(st, g->key)), st->ngroups, &qti_keyed_ops, &k);
		if (rc)
			goto done;
		found = st->ngroups++;
	}
	if (st->groups[found].points != q->points_value)
		st->groups[found].mixed = 1;
	st->groups[found].nitems++;
	*idx = found;
done:
	qb_buf_dispose(&key);
	qb_buf_dispose(&title);
	return rc ? QB_ENOMEM : 0;
}

/* ---- the exporter's entry points ---------------------------------------- */

static void state_free(struct canvas *st)
{
	if (!st)
		return;
	qti_zip_free(st->zip);
	qb_atomic_abort(st->out);
	qb_spool_close(&st->items);
	if (st->xbuf)
		xmlBufferFree(st->xbuf);
	qb_rich_html_free(st->html);
	qb_mathml_free(st->math);
	qb_buf_dispose(&st->arena);
	qb_buf_dispose(&st->src);
	qb_buf_dispose(&st->description);
	free(st->runs);
	free(st->groups);
	free(st->media);
	qti_hashes_dispose(&st->names);
	qb_map_dispose(&st->groupmap);
	qb_map_dispose(&st->medmap);
	free(st);
}

int qb_canvas_open(void **state, const struct qb_export_opts *o, struct qb_error *err)
{
	struct canvas *st = calloc(1, sizeof(*st));
	int rc;

	*state = NULL;
	if (!st)
		return QB_ENOMEM;
	st->s.target = "canvas";
	rc = qb_atomic_open(&st->out, o->output, err);
	if (!rc)
		rc = qti_zip_open(&st->zip, qb_atomic_file(st->out), qb_atomic_path(st->out),
				  o->one_thread, err);
	if (!rc && !(st->xbuf = xmlBufferCreate()))
		rc = QB_ENOMEM;
	if (!rc)
		rc = qb_rich_html_new(&st->html, 0);
	if (!rc)
		rc = qb_mathml_new(&st->math, getenv("QBANK_PANDOC"));
	if (!rc && (rc = qb_spool_open(&st->items)) == QB_EIO)
		qb_error_set(err, QB_EIO, "canvas: cannot create a temporary file: %s", strerror(errno));
	if (rc) {
		state_free(st);
		return rc;
	}
	*state = st;
	return 0;
}

/* Converts the math of bank file FILE to MathML before its questions come
 * (mathml.h: one pandoc run for the file), as the QTI exporters do: a
 * formula pandoc cannot convert refuses the export at commit; pandoc
 * missing fails it at once, since math never goes out as raw TeX. */
static void math_load(struct canvas *st, const char *file)
{
	struct qb_error e = { 0, "" };
	int rc;

	if (!file || !file[0])
		return;
	rc = qb_mathml_load_file(st->math, file, &e);
	if (rc == QB_EREFUSED)
		qti_problem(&st->s, NULL, "%s", e.msg);
	else if (rc)
		qti_fail(&st->s, rc, &e);
}

/* The first bank file names the quiz: its id (as an ASCII file name) is
 * the quiz's identifier and directory, its title and description Canvas's
 * quiz title and description. Every file's math is converted here. */
int qb_canvas_bank(void *state, const struct qb_bank_info *b, struct qb_error *err)
{
	struct canvas *st = state;
	struct qb_buf t = QB_BUF_INIT;
	int rc = 0;

	if (st->s.failed)
		return qti_failed(&st->s, err);
	math_load(st, b->file);
	if (st->s.failed || st->have_quiz)
		return qti_failed(&st->s, err);
	st->have_quiz = 1;
	if (b->id && b->id[0])
		rc = add_safe_name(&t, b->id, strlen(b->id), MAX_NAME, 0);
	if (!rc && t.len == 0)
		rc = qb_buf_adds(&t, "quiz");
	if (!rc)
		rc = arena_add(st, t.ptr, t.len, &st->quiz);
	if (!rc)
		rc = qti_names_take(&st->names, MANIFEST_FILE) < 0 ? QB_ENOMEM : 0;
	qb_buf_clear(&t);
	if (!rc && b->title)
		rc = qti_buf_add_collapsed(&t, b->title);
	if (!rc && t.len == 0)
		rc = qb_buf_adds(&t, b->id ? b->id : "Questions");
	if (!rc)
		rc = arena_add(st, t.ptr, t.len, &st->title);
	if (!rc && b->description) {
		struct qb_rich_opts ro = { QB_MATH_MATHML, NULL, NULL, "p", 0, qti_math_write, st->math };

		ro.wrap = qb_rich_has_blocks(b->description) ? NULL : "p";
		rc = qb_rich_html_render(st->html, &st->description, b->description, &ro);
	}
	qb_buf_dispose(&t);
	/* QB_EREFUSED: a formula math_load has refused (and said why) */
	if (rc && !(rc == QB_EREFUSED && st->s.nproblems))
		qti_fail(&st->s, rc, NULL);
	return qti_failed(&st->s, err);
}

/* Adds item bytes of LEN at the end of the temporary file to the runs of
 * group G. */
static int add_to_run(struct canvas *st, size_t g, size_t len)
{
	struct run *r;

	if (st->nruns && st->runs[st->nruns - 1].group == g) {
		st->runs[st->nruns - 1].len += len;
		return 0;
	}
	if (QB_ARRAY_RESERVE(st->runs, st->capruns, st->nruns + 1))
		return QB_ENOMEM;
	r = &st->runs[st->nruns];
	r->group = g;
	r->off = st->written;
	r->len = len;
	r->next = SIZE_MAX;
	if (g != SIZE_MAX) {
		struct group *grp = &st->groups[g];

		if (grp->first_run == SIZE_MAX)
			grp->first_run = st->nruns;
		else
			st->runs[grp->last_run].next = st->nruns;
		grp->last_run = st->nruns;
	}
	st->nruns++;
	return 0;
}

int qb_canvas_question(void *state, const struct qb_question *q, struct qb_error *err)
{
	struct canvas *st = state;
	struct qb_error e = { 0, "" };
	size_t nproblems = st->s.nproblems, g, len;
	struct group *grp;
	int rc;

	if (st->s.failed || !q->id || q->type >= QB_Q_UNKNOWN)
		return qti_failed(&st->s, err);
	if (!st->have_quiz) {
		struct qb_bank_info b = { q->file, NULL, NULL, NULL, NULL, 0, NULL, 0 };

		if (qb_canvas_bank(st, &b, err))
			return qti_failed(&st->s, err);
	}
	st->q = q;
	rc = group_for(st, q, &g);
	if (rc) {
		qti_fail(&st->s, rc, NULL);
		goto done;
	}
	grp = g == SIZE_MAX ? NULL : &st->groups[g];
	xmlBufferEmpty(st->xbuf);
	/* a group whose points turn out mixed is undone at commit: its items
	 * are then written into the root section, at the same depth */
	rc = write_item(st, q, grp ? str(st, grp->title) : NULL, grp ? 4 : 3, st->xbuf);
	/* QB_EREFUSED: a formula math_load has refused (and said why) */
	if (rc == QB_EREFUSED && st->s.nproblems)
		goto done;
	if (rc) {
		qti_fail(&st->s, rc, &e);
		goto done;
	}
	if (st->s.failed || st->s.nproblems > nproblems)
		goto done;
	len = (size_t)xmlBufferLength(st->xbuf);
	if (fwrite(xmlBufferContent(st->xbuf), 1, len, st->items.f) != len) {
		qb_error_set(&e, QB_EIO, "canvas: cannot write a temporary file: %s", strerror(errno));
		rc = QB_EIO;
	} else {
		rc = add_to_run(st, g, len);
	}
	if (!rc)
		st->written += len;
	if (rc) {
		qti_fail(&st->s, rc, &e);
		goto done;
	}
	if (!q->shuffle && qb_qtype_is_choice(q->type))
		st->noshuffle = 1;
	st->total += q->points_value > 0 ? q->points_value : 1;
done:
	st->q = NULL;
	return qti_failed(&st->s, err);
}

/* ---- the assessment, its metadata and the manifest ---------------------- */

struct doc_ctx {
	struct canvas *st;
};

/* Copies the items of run R from the temporary file F. */
static int copy_run(xmlTextWriterPtr w, FILE *f, const struct run *r)
{
	char chunk[16384];
	uint64_t left = r->len;

	if (fseeko(f, (off_t)r->off, SEEK_SET))
		return QB_EIO;
	while (left) {
		size_t n = left < sizeof(chunk) ? (size_t)left : sizeof(chunk);

		if (fread(chunk, 1, n, f) != n ||
		    xmlTextWriterWriteRawLen(w, BAD_CAST chunk, (int)n) < 0)
			return QB_EIO;
		left -= n;
	}
	return 0;
}

static int use_group(const struct canvas *st, size_t g)
{
	return g != SIZE_MAX && !st->groups[g].mixed;
}

static int gen_assessment(xmlTextWriterPtr w, void *ctx)
{
	const struct doc_ctx *d = ctx;
	struct canvas *st = d->st;
	struct qb_xw x;
	char gid[48], n[40], pts[40];
	size_t k, g;

	qb_xw_begin(&x, w);
	qb_xw_start(&x, "questestinterop");
	qb_xw_attr(&x, "xmlns", CANVAS_NS);
	qb_xw_attr(&x, "xmlns:xsi", QTI_XSI_NS);
	qb_xw_attr(&x, "xsi:schemaLocation", CANVAS_LOC);
	qb_xw_start(&x, "assessment");
	qb_xw_attr(&x, "ident", str(st, st->quiz));
	qb_xw_attr(&x, "title", str(st, st->title));
	qb_xw_start(&x, "qtimetadata");
	qb_xw_start(&x, "qtimetadatafield");
	qb_xw_leaf(&x, "fieldlabel", "cc_maxattempts");
	qb_xw_leaf(&x, "fieldentry", "1");
	qb_xw_end(&x);
	qb_xw_end(&x);
	qb_xw_start(&x, "section");
	qb_xw_attr(&x, "ident", "root_section");
	/* items outside groups, bank order: their bytes were written at depth 3 */
	for (k = 0; k < st->nruns && !x.rc; k++) {
		if (use_group(st, st->runs[k].group))
			continue;
		x.kids[x.depth] = 1;
		x.rc = copy_run(qb_xw_writer(&x), st->items.f, &st->runs[k]);
	}
	/* the groups in order of first appearance, each its runs */
	for (g = 0; g < st->ngroups && !x.rc; g++) {
		if (!use_group(st, g) || st->groups[g].first_run == SIZE_MAX)
			continue;
		snprintf(gid, sizeof(gid), "group-%zu", g + 1);
		qb_xw_start(&x, "section");
		qb_xw_attr(&x, "ident", gid);
		qb_xw_attr(&x, "title", str(st, st->groups[g].title));
		qb_xw_start(&x, "selection_ordering");
		qb_xw_start(&x, "selection");
		snprintf(n, sizeof(n), "%zu", st->groups[g].nitems);
		qb_xw_leaf(&x, "selection_number", n);
		qb_xw_start(&x, "selection_extension");
		qti_fmt_double(pts, st->groups[g].points);
		qb_xw_leaf(&x, "points_per_item", pts);
		qb_xw_end(&x);
		qb_xw_end(&x);
		qb_xw_end(&x);
		for (k = st->groups[g].first_run; k != SIZE_MAX && !x.rc; k = st->runs[k].next)
			x.rc = copy_run(qb_xw_writer(&x), st->items.f, &st->runs[k]);
		qb_xw_end(&x);
	}
	return qb_xw_finish(&x);
}

static int gen_meta(xmlTextWriterPtr w, void *ctx)
{
	const struct doc_ctx *d = ctx;
	const struct canvas *st = d->st;
	struct qb_xw x;
	char pts[40];

	qti_fmt_double(pts, st->total);
	qb_xw_begin(&x, w);
	qb_xw_start(&x, "quiz");
	qb_xw_attr(&x, "identifier", str(st, st->quiz));
	qb_xw_attr(&x, "xmlns", META_NS);
	qb_xw_attr(&x, "xmlns:xsi", QTI_XSI_NS);
	qb_xw_attr(&x, "xsi:schemaLocation", META_LOC);
	qb_xw_leaf(&x, "title", str(st, st->title));
	qb_xw_leaf(&x, "description", st->description.ptr ? st->description.ptr : "");
	qb_xw_leaf(&x, "shuffle_answers", st->noshuffle ? "false" : "true");
	qb_xw_leaf(&x, "scoring_policy", "keep_highest");
	qb_xw_leaf(&x, "quiz_type", "assignment");
	qb_xw_leaf(&x, "points_possible", pts);
	qb_xw_leaf(&x, "show_correct_answers", "true");
	qb_xw_leaf(&x, "allowed_attempts", "1");
	qb_xw_leaf(&x, "one_question_at_a_time", "false");
	qb_xw_leaf(&x, "cant_go_back", "false");
	qb_xw_leaf(&x, "available", "false");
	return qb_xw_finish(&x);
}

static int gen_manifest(xmlTextWriterPtr w, void *ctx)
{
	const struct doc_ctx *d = ctx;
	const struct canvas *st = d->st;
	struct qb_buf b = QB_BUF_INIT, m = QB_BUF_INIT;
	const char *quiz = str(st, st->quiz);
	struct qb_xw x;
	size_t i;

	if (qb_buf_printf(&b, "%s/%s.xml", quiz, quiz) || qb_buf_printf(&m, "m%s", quiz)) {
		qb_buf_dispose(&b);
		qb_buf_dispose(&m);
		return QB_ENOMEM;
	}
	qb_xw_begin(&x, w);
	qb_xw_start(&x, "manifest");
	qb_xw_attr(&x, "xmlns", QTI_CP_NS);
	qb_xw_attr(&x, "xmlns:xsi", QTI_XSI_NS);
	qb_xw_attr(&x, "xsi:schemaLocation", QTI_CP_SCHEMA_LOCATION);
	qb_xw_attr(&x, "identifier", "manifest");
	qb_xw_start(&x, "metadata");
	qb_xw_leaf(&x, "schema", "IMS Content");
	qb_xw_leaf(&x, "schemaversion", "1.1.3");
	qb_xw_end(&x);
	qb_xw_start(&x, "organizations");
	qb_xw_end(&x);
	qb_xw_start(&x, "resources");
	qb_xw_start(&x, "resource");
	qb_xw_attr(&x, "identifier", quiz);
	qb_xw_attr(&x, "type", "imsqti_xmlv1p2");
	qb_xw_start(&x, "file");
	qb_xw_attr(&x, "href", b.ptr);
	qb_xw_end(&x);
	/* images are files of the quiz, never resources of their own: Canvas
	 * skips every file whose href is also a resource's */
	for (i = 0; i < st->nmedia; i++) {
		qb_xw_start(&x, "file");
		qb_xw_attr(&x, "href", str(st, st->media[i].entry));
		qb_xw_end(&x);
	}
	qb_xw_start(&x, "dependency");
	qb_xw_attr(&x, "identifierref", m.ptr);
	qb_xw_end(&x);
	qb_xw_end(&x);
	qb_buf_clear(&b);
	if (qb_buf_printf(&b, "%s/%s", quiz, META_FILE))
		x.rc = QB_ENOMEM;
	qb_xw_start(&x, "resource");
	qb_xw_attr(&x, "identifier", m.ptr);
	qb_xw_attr(&x, "type", "associatedcontent/imscc_xmlv1p1/learning-application-resource");
	qb_xw_attr(&x, "href", b.ptr);
	qb_xw_start(&x, "file");
	qb_xw_attr(&x, "href", b.ptr);
	qb_xw_end(&x);
	qb_xw_end(&x);
	qb_buf_dispose(&b);
	qb_buf_dispose(&m);
	return qb_xw_finish(&x);
}

int qb_canvas_commit(void *state, struct qb_error *err)
{
	struct canvas *st = state;
	struct doc_ctx d = { st };
	struct qb_buf name = QB_BUF_INIT;
	int rc = 0;

	if (st->s.failed) {
		*err = st->s.failure;
		rc = st->s.failed;
		goto done;
	}
	if (st->s.nproblems) {
		*err = st->s.problem;
		if (st->s.nproblems > 1) {
			size_t n = strlen(err->msg);

			snprintf(err->msg + n, sizeof(err->msg) - n, " (and %zu more problem%s)",
				 st->s.nproblems - 1, st->s.nproblems == 2 ? "" : "s");
		}
		rc = QB_EREFUSED;
		goto done;
	}
	if (!st->have_quiz) {
		struct qb_bank_info b = { "", NULL, NULL, NULL, NULL, 0, NULL, 0 };

		rc = qb_canvas_bank(st, &b, err);
		if (rc)
			goto done;
	}
	if (fflush(st->items.f)) {
		rc = QB_EIO;
		qb_error_set(err, rc, "canvas: %s", qb_error_str(rc));
		goto done;
	}
	if (qb_buf_printf(&name, "%s/%s.xml", str(st, st->quiz), str(st, st->quiz))) {
		rc = QB_ENOMEM;
		goto done;
	}
	rc = qti_zip_add_xml(st->zip, name.ptr, gen_assessment, &d, err);
	qb_buf_clear(&name);
	if (!rc && qb_buf_printf(&name, "%s/%s", str(st, st->quiz), META_FILE))
		rc = QB_ENOMEM;
	if (!rc)
		rc = qti_zip_add_xml(st->zip, name.ptr, gen_meta, &d, err);
	if (!rc)
		rc = qti_zip_add_xml(st->zip, MANIFEST_FILE, gen_manifest, &d, err);
	if (!rc)
		rc = qti_zip_close(st->zip, err);
	if (!rc) {
		qti_zip_free(st->zip);
		st->zip = NULL;
		rc = qb_atomic_commit(st->out, err);
		st->out = NULL;
	}
done:
	qb_buf_dispose(&name);
	state_free(st);
	return rc;
}

void qb_canvas_abort(void *state)
{
	state_free(state);
}
