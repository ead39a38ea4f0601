/* One question of a printable exam: a snapshot of everything it prints,
 * already in Markdown (so that forms can keep a category's questions after
 * the reader has moved on), and its layout for students and teachers.
 * See md.h. */
#include "md.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../error.h"
#include "../text.h"

/* U+2610 BALLOT BOX and U+2611 BALLOT BOX WITH CHECK, in a span: a bare box
 * that opens a list item would make Pandoc read a task list and replace
 * the item's letter with the box */
#define BOX_EMPTY "[\xe2\x98\x90]{.box}"
#define BOX_TICKED "[\xe2\x98\x91]{.box}"
#define EN_DASH "\xe2\x80\x93"
#define ANSWER_LINE "\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_"
#define MATCH_BLANK "\\_\\_\\_\\_\\_"
#define DEFAULT_LINES 10              /* schema/README.md: response/@lines */
#define MAX_LINES 200
#define NUMERIC_WORK_LINES 4          /* blank lines of working space */

/* ---- snapshot ----------------------------------------------------------- */

/* Sets *OUT to a copy of S[0..N) in the item's arena ("" when empty). */
static int put(struct md_item *it, const char **out, const char *s, size_t n)
{
	char *copy;

	*out = "";
	if (n == 0)
		return 0;
	copy = qb_arena_strndup(&it->arena, s, n);
	if (!copy)
		return QB_ENOMEM;
	*out = copy;
	return 0;
}

static int put_buf(struct md_item *it, const char **out, struct qb_buf *b)
{
	int rc = put(it, out, b->ptr ? b->ptr : "", b->len);

	qb_buf_clear(b);
	return rc;
}

static int put_plain(struct md_item *it, const char **out, struct qb_buf *t, const char *s)
{
	int rc = s ? md_plain(t, s, strlen(s)) : 0;

	return rc ? rc : put_buf(it, out, t);
}

/* An item string, "" for one never set. */
static const char *str(const char *s)
{
	return s ? s : "";
}

static long attr_long(const xmlNode *n, const char *name, long dflt)
{
	xmlChar *v = n ? xmlGetProp((xmlNodePtr)n, BAD_CAST name) : NULL;
	char *end;
	long x = dflt;

	if (v) {
		errno = 0;
		x = strtol((const char *)v, &end, 10);
		if (errno || end == (char *)v || *end || x < 0)
			x = dflt;
		xmlFree(v);
	}
	return x;
}

static int snap_choices(struct md_item *it, const struct qb_question *q,
			const struct md_paths *p, struct qb_buf *t)
{
	size_t i;
	int rc = 0;

	it->choices = calloc(q->noptions ? q->noptions : 1, sizeof(*it->choices));
	if (!it->choices)
		return QB_ENOMEM;
	it->nchoices = q->noptions;
	for (i = 0; i < q->noptions && !rc; i++) {
		const struct qb_option *o = &q->options[i];
		struct md_choice *c = &it->choices[i];

		c->correct = o->correct;
		rc = md_inline(t, o->text, p);
		if (!rc)
			rc = put_buf(it, &c->text, t);
		if (!rc)
			rc = md_blocks(t, o->rationale, p, NULL);
		if (!rc)
			rc = put_buf(it, &c->rationale, t);
		if (!rc)
			rc = put_plain(it, &c->id, t, o->id);
	}
	return rc;
}

static int snap_truefalse(struct md_item *it, const struct qb_question *q,
			  const struct md_paths *p, struct qb_buf *t)
{
	const char *v = q->nanswers ? q->answers[0].value : "";
	int is_true = strcmp(v, "true") == 0 || strcmp(v, "1") == 0;
	size_t i, k;
	int rc = 0;

	it->choices = calloc(2, sizeof(*it->choices));
	if (!it->choices)
		return QB_ENOMEM;
	it->nchoices = 2;
	for (k = 0; k < 2 && !rc; k++) {
		struct md_choice *c = &it->choices[k];

		c->correct = (k == 0) == is_true;
		rc = put_plain(it, &c->text, t, k == 0 ? "True" : "False");
		if (!rc)
			rc = put_plain(it, &c->id, t, k == 0 ? "true" : "false");
		for (i = 0; i < q->nside_rationales && !rc; i++) {
			if (q->side_rationales[i].for_true != (k == 0))
				continue;
			rc = md_blocks(t, q->side_rationales[i].node, p, NULL);
			if (!rc)
				rc = put_buf(it, &c->rationale, t);
			break;
		}
	}
	return rc;
}

static int snap_answers(struct md_item *it, const struct qb_question *q, struct qb_buf *t)
{
	size_t i;
	int rc = 0;

	it->answers = calloc(q->nanswers ? q->nanswers : 1, sizeof(*it->answers));
	if (!it->answers)
		return QB_ENOMEM;
	it->nanswers = q->nanswers;
	for (i = 0; i < q->nanswers && !rc; i++)
		rc = put_plain(it, &it->answers[i], t, q->answers[i].value);
	if (!rc && q->type == QB_Q_NUMERIC && q->nanswers) {
		rc = put_plain(it, &it->tolerance, t, q->answers[0].tolerance);
		if (!rc)
			rc = put_plain(it, &it->unit, t, q->answers[0].unit);
	}
	return rc;
}

static int snap_matching(struct md_item *it, const struct qb_question *q,
			 const struct md_paths *p, struct qb_buf *t)
{
	size_t i;
	int rc = 0;

	it->pairs = calloc(q->npairs ? q->npairs : 1, sizeof(*it->pairs));
	it->distractors = calloc(q->ndistractors ? q->ndistractors : 1, sizeof(*it->distractors));
	if (!it->pairs || !it->distractors)
		return QB_ENOMEM;
	it->npairs = q->npairs;
	it->ndistractors = q->ndistractors;
	for (i = 0; i < q->npairs && !rc; i++) {
		rc = md_inline(t, q->pairs[i].premise, p);
		if (!rc)
			rc = put_buf(it, &it->pairs[i].premise, t);
		if (!rc)
			rc = md_inline(t, q->pairs[i].response, p);
		if (!rc)
			rc = put_buf(it, &it->pairs[i].response, t);
	}
	for (i = 0; i < q->ndistractors && !rc; i++) {
		rc = md_inline(t, q->distractors[i].node, p);
		if (!rc)
			rc = put_buf(it, &it->distractors[i], t);
	}
	return rc;
}

int md_item_new(struct md_item **out, const struct qb_question *q, const struct md_paths *p)
{
	struct qb_buf t = QB_BUF_INIT;
	struct md_item *it;
	const char *id = q->id ? q->id : "";
	int rc = 0;

	*out = NULL;
	it = calloc(1, sizeof(*it));
	if (!it)
		return QB_ENOMEM;
	it->type = q->type;
	it->points_value = q->points ? q->points_value : 1.0;
	it->id_hash = qb_hash64(id, strlen(id));
	it->shuffle = q->shuffle;
	it->has_select = q->has_select;
	it->select = q->select;
	it->case_sensitive = q->case_sensitive;
	if (!rc)
		rc = put_plain(it, &it->id, &t, id);
	if (!rc)
		rc = put_plain(it, &it->points, &t, q->points ? q->points : "1");
	if (!rc)
		rc = md_blocks(&t, q->stem, p, &it->stem_para);
	if (!rc)
		rc = put_buf(it, &it->stem, &t);
	if (!rc)
		rc = md_blocks(&t, q->explanation, p, &it->explanation_para);
	if (!rc)
		rc = put_buf(it, &it->explanation, &t);
	if (!rc)
		rc = md_blocks(&t, q->rubric, p, &it->rubric_para);
	if (!rc)
		rc = put_buf(it, &it->rubric, &t);
	if (!rc) {
		switch (q->type) {
		case QB_Q_SINGLE:
		case QB_Q_MULTIPLE:
			rc = snap_choices(it, q, p, &t);
			break;
		case QB_Q_TRUEFALSE:
			rc = snap_truefalse(it, q, p, &t);
			break;
		case QB_Q_SHORT:
		case QB_Q_NUMERIC:
			rc = snap_answers(it, q, &t);
			break;
		case QB_Q_MATCHING:
			rc = snap_matching(it, q, p, &t);
			break;
		default:
			break;
		}
	}
	it->lines = attr_long(q->response, "lines", DEFAULT_LINES);
	if (it->lines < 1 || it->lines > MAX_LINES)
		it->lines = it->lines < 1 ? DEFAULT_LINES : MAX_LINES;
	it->min_words = attr_long(q->response, "min-words", 0);
	it->max_words = attr_long(q->response, "max-words", 0);
	qb_buf_dispose(&t);
	if (rc) {
		md_item_free(it);
		return rc;
	}
	*out = it;
	return 0;
}

void md_item_free(struct md_item *it)
{
	if (!it)
		return;
	qb_arena_dispose(&it->arena);
	free(it->choices);
	free(it->answers);
	free(it->pairs);
	free(it->distractors);
	free(it);
}

/* ---- order -------------------------------------------------------------- */

int md_order_draw(struct md_order *o, const struct md_item *it, struct md_rand *r,
		  int shuffle_choices)
{
	size_t n = it->type == QB_Q_MATCHING ? it->npairs : it->nchoices;
	size_t nr = it->npairs + it->ndistractors, i;
	int shuffle = it->shuffle && it->type != QB_Q_TRUEFALSE;

	o->choice = calloc(n ? n : 1, sizeof(size_t));
	o->response = calloc(nr ? nr : 1, sizeof(size_t));
	if (!o->choice || !o->response) {
		md_order_dispose(o);
		return QB_ENOMEM;
	}
	if (shuffle && shuffle_choices)
		md_rand_perm(r, o->choice, n);
	else
		for (i = 0; i < n; i++)
			o->choice[i] = i;
	if (it->type != QB_Q_MATCHING || !shuffle || nr < 2) {
		for (i = 0; i < nr; i++)
			o->response[i] = i;
		return 0;
	}
	md_rand_perm(r, o->response, nr);
	/* responses printed in the premises' order would give the key away */
	for (i = 0; i < it->npairs && o->response[i] == o->choice[i]; i++)
		;
	if (i == it->npairs) {
		size_t first = o->response[0];

		memmove(o->response, o->response + 1, (nr - 1) * sizeof(size_t));
		o->response[nr - 1] = first;
	}
	return 0;
}

void md_order_dispose(struct md_order *o)
{
	free(o->choice);
	free(o->response);
	o->choice = o->response = NULL;
}

/* ---- layout ------------------------------------------------------------- */

/* A, B, ... Z, then AA, AB, ... (only 26 make a Pandoc list). */
static void letter(char *out, size_t n)
{
	if (n < 26) {
		out[0] = (char)('A' + n);
		out[1] = '\0';
	} else {
		out[0] = (char)('A' + (n / 26 - 1) % 26);
		out[1] = (char)('A' + n % 26);
		out[2] = '\0';
	}
}

static int raw_latex(struct qb_buf *b, const char *cmd)
{
	return qb_buf_printf(b, "```{=latex}\n%s\n```\n\n", cmd);
}

/* Block Markdown MD after LEAD (e.g. "**Explanation.**"): in front of the
 * first paragraph, or as a paragraph of its own. */
static int lead_blocks(struct qb_buf *b, const char *lead, const char *md, int lead_para)
{
	/* appended, not formatted: MD can be long, and printf copies it slowly */
	if (qb_buf_adds(b, lead) || (md[0] && (qb_buf_adds(b, lead_para ? " " : "\n\n") ||
					       qb_buf_adds(b, md))))
		return QB_ENOMEM;
	return qb_buf_adds(b, "\n\n");
}

/* The lettered list of a choice question (also truefalse). A list item
 * marker of a capital letter needs two spaces after its period. */
static int write_choices(struct qb_buf *b, struct qb_buf *key, const struct md_item *it,
			 const struct md_order *o, int answers, const struct md_labels *lb)
{
	size_t k, nk = 0;
	int rc = 0, loose = 0, as_list = it->nchoices <= 26;

	for (k = 0; k < it->nchoices && answers; k++)
		if (str(it->choices[k].rationale)[0])
			loose = 1;
	for (k = 0; k < it->nchoices && !rc; k++) {
		const struct md_choice *c = &it->choices[o->choice[k]];
		char l[4];

		letter(l, k);
		/* the teacher's mark goes first, where it catches the eye */
		const char *text = it->type != QB_Q_TRUEFALSE ? str(c->text)
				   : md_label(lb, o->choice[k] == 0 ? MD_L_TRUE : MD_L_FALSE);

		if (answers && c->correct)
			rc = qb_buf_cat(b, as_list ? "" : "**", l, as_list ? ".  " : ".** ",
					BOX_TICKED " **(", md_label(lb, MD_L_CORRECT), ")** ", text,
					as_list ? "\n" : "\n\n");
		else
			rc = qb_buf_cat(b, as_list ? "" : "**", l, as_list ? ".  " : ".** ",
					BOX_EMPTY " ", text, as_list ? "\n" : "\n\n");
		if (!rc && answers && str(c->rationale)[0]) {
			rc = qb_buf_addc(b, '\n');
			if (!rc)
				rc = md_indent(b, str(c->rationale), as_list ? "    " : "");
			if (!rc)
				rc = qb_buf_addc(b, '\n');
		}
		if (!rc && loose && k + 1 < it->nchoices)
			rc = qb_buf_addc(b, '\n');
		if (!rc && c->correct) {
			if (it->type == QB_Q_TRUEFALSE)
				rc = qb_buf_cat(key, l, " (", text, ")");
			else
				rc = qb_buf_cat(key, nk ? ", " : "", l);
			nk++;
		}
	}
	return rc ? rc : qb_buf_addc(b, '\n');
}

static int write_matching(struct qb_buf *b, struct qb_buf *key, const struct md_item *it,
			  const struct md_order *o, int answers, const struct md_labels *lb)
{
	size_t k, j, nr = it->npairs + it->ndistractors;
	int rc;

	rc = qb_buf_printf(b, "*%s*\n\n", md_label(lb, MD_L_MATCH_HINT));
	if (!rc)
		rc = raw_latex(b, "\\qbcolumns");
	for (k = 0; k < it->npairs && !rc; k++) {
		size_t pair = o->choice[k];
		char l[4] = "?";

		for (j = 0; j < nr; j++)
			if (o->response[j] == pair)
				letter(l, j);
		if (answers)
			rc = qb_buf_printf(b, "%zu.  \\_\\_**%s**\\_\\_ %s\n", k + 1, l,
					   str(it->pairs[pair].premise));
		else
			rc = qb_buf_printf(b, "%zu.  " MATCH_BLANK " %s\n", k + 1,
					   str(it->pairs[pair].premise));
		if (!rc)
			rc = qb_buf_printf(key, "%s%zu" EN_DASH "%s", k ? ", " : "", k + 1, l);
	}
	if (!rc)
		rc = qb_buf_addc(b, '\n');
	if (!rc)
		rc = raw_latex(b, "\\qbnextcolumn");
	for (j = 0; j < nr && !rc; j++) {
		size_t r = o->response[j];
		char l[4];

		letter(l, j);
		rc = qb_buf_printf(b, nr <= 26 ? "%s.  %s\n" : "**%s.** %s\n\n", l,
				   r < it->npairs ? str(it->pairs[r].response)
						  : str(it->distractors[r - it->npairs]));
	}
	if (!rc)
		rc = qb_buf_addc(b, '\n');
	if (!rc)
		rc = raw_latex(b, "\\qbendcolumns");
	return rc;
}

static int write_answer_line(struct qb_buf *b, struct qb_buf *key, const struct md_item *it,
			     int answers, const struct md_labels *lb)
{
	const char *ans = md_label(lb, MD_L_ANSWER);
	const char *unit = str(it->unit), *tol = str(it->tolerance);
	size_t i;
	int rc = 0;

	if (it->type == QB_Q_NUMERIC) {
		const char *v = it->nanswers ? str(it->answers[0]) : "";
		int has_tol = tol[0] && strspn(tol, "0.\\") != strlen(tol);   /* not 0, 0.0, .00 */

		rc = qb_buf_printf(key, "%s%s%s%s%s", v, has_tol ? " \xc2\xb1 " : "",
				   has_tol ? tol : "", unit[0] ? " " : "", unit);
		if (!rc && answers)
			rc = qb_buf_printf(b, "%s: **%s**%s%s%s%s\n\n", ans, v,
					   has_tol ? " \xc2\xb1 " : "", has_tol ? tol : "",
					   unit[0] ? " " : "", unit);
		else if (!rc)
			/* room to work the number out, then the line for it */
			rc = qb_buf_printf(b, "*%s:*\n\n```{=latex}\n\\qbspace{%d}\n```\n\n"
					   "%s: " ANSWER_LINE "%s%s\n\n", md_label(lb, MD_L_WORKING),
					   NUMERIC_WORK_LINES, ans, unit[0] ? " " : "", unit);
		return rc;
	}
	for (i = 0; i < it->nanswers && !rc; i++)
		rc = qb_buf_printf(key, "%s%s", i ? " / " : "", str(it->answers[i]));
	if (!rc && it->case_sensitive)
		rc = qb_buf_printf(key, " (%s)", md_label(lb, MD_L_CASE));
	if (rc || !answers)
		return rc ? rc : qb_buf_printf(b, "%s: " ANSWER_LINE "\n\n", ans);
	rc = qb_buf_printf(b, "%s: ", ans);
	for (i = 0; i < it->nanswers && !rc; i++)
		rc = qb_buf_printf(b, "%s**%s**", i ? " / " : "", str(it->answers[i]));
	if (!rc && it->case_sensitive)
		rc = qb_buf_printf(b, " (%s)", md_label(lb, MD_L_CASE));
	if (!rc)
		rc = qb_buf_adds(b, "\n\n");
	return rc;
}

static int write_essay(struct qb_buf *b, struct qb_buf *key, const struct md_item *it, int answers,
		       const struct md_labels *lb)
{
	const char *words = md_label(lb, MD_L_WORDS);
	struct qb_buf lead = QB_BUF_INIT;
	char cmd[32];
	int rc = 0;

	if (it->min_words && it->max_words)
		rc = qb_buf_printf(b, "*(%ld" EN_DASH "%ld %s)*\n\n", it->min_words, it->max_words, words);
	else if (it->min_words)
		rc = qb_buf_printf(b, "*(%s %ld %s)*\n\n", md_label(lb, MD_L_AT_LEAST), it->min_words, words);
	else if (it->max_words)
		rc = qb_buf_printf(b, "*(%s %ld %s)*\n\n", md_label(lb, MD_L_AT_MOST), it->max_words, words);
	/* the teacher's version has the rubric where the student writes */
	snprintf(cmd, sizeof(cmd), "\\qblines{%ld}", it->lines);
	if (!rc && !answers)
		rc = raw_latex(b, cmd);
	if (!rc)
		rc = qb_buf_adds(key, md_label(lb, str(it->rubric)[0] ? MD_L_GRADED_RUBRIC : MD_L_GRADED_HAND));
	if (!rc && answers && str(it->rubric)[0])
		rc = qb_buf_printf(&lead, "**%s.**", md_label(lb, MD_L_RUBRIC));
	if (!rc && answers && str(it->rubric)[0])
		rc = lead_blocks(b, lead.ptr, str(it->rubric), it->rubric_para);
	qb_buf_dispose(&lead);
	return rc;
}

/* The fourth column of a form's key: each printed letter (or premise
 * number) with the bank's option id (or pair number) it stands for. */
static int write_mapping(struct qb_buf *key, const struct md_item *it, const struct md_order *o)
{
	size_t k;
	int rc = 0;

	if (it->type == QB_Q_SINGLE || it->type == QB_Q_MULTIPLE) {
		for (k = 0; k < it->nchoices && !rc; k++) {
			char l[4];

			letter(l, k);
			rc = qb_buf_printf(key, "%s%s=%s", k ? ", " : "", l,
					   str(it->choices[o->choice[k]].id));
		}
	} else if (it->type == QB_Q_MATCHING) {
		for (k = 0; k < it->npairs && !rc; k++)
			rc = qb_buf_printf(key, "%s%zu=%zu", k ? ", " : "", k + 1, o->choice[k] + 1);
	}
	return rc;
}

int md_item_write(FILE *f, struct qb_buf *key, const struct md_item *it,
		  const struct md_order *o, unsigned long number, int answers, int forms,
		  const struct md_labels *lb)
{
	struct qb_buf b = QB_BUF_INIT, lead = QB_BUF_INIT;
	const char *stem = str(it->stem);
	char num[QB_DECIMAL_SIZE];
	int rc;

	rc = raw_latex(&b, "\\qbbegin");
	if (!rc)
		rc = qb_buf_cat(&lead, "**", qb_decimal(num, number), ".** *(", str(it->points), " ",
				md_label(lb, it->points_value == 1.0 ? MD_L_POINT : MD_L_POINTS), ")*");
	/* a stem that opens with an image: the number above it, not at the
	 * image's baseline */
	if (!rc)
		rc = lead_blocks(&b, lead.ptr, stem, it->stem_para && strncmp(stem, "![", 2) != 0);
	if (!rc && it->type == QB_Q_MULTIPLE && !md_stem_says_select(stem, md_label(lb, MD_L_SELECT))) {
		if (it->has_select)
			rc = qb_buf_printf(&b, "*(%s %ld)*\n\n", md_label(lb, MD_L_SELECT), it->select);
		else
			rc = qb_buf_cat(&b, "*(", md_label(lb, MD_L_SELECT_ALL), ")*\n\n");
	}
	if (!rc)
		rc = qb_buf_cat(key, "| ", qb_decimal(num, number), " | ", str(it->id), " | ");
	if (!rc) {
		switch (it->type) {
		case QB_Q_SINGLE:
		case QB_Q_MULTIPLE:
		case QB_Q_TRUEFALSE:
			rc = write_choices(&b, key, it, o, answers, lb);
			break;
		case QB_Q_SHORT:
		case QB_Q_NUMERIC:
			rc = write_answer_line(&b, key, it, answers, lb);
			break;
		case QB_Q_ESSAY:
			rc = write_essay(&b, key, it, answers, lb);
			break;
		case QB_Q_MATCHING:
			rc = write_matching(&b, key, it, o, answers, lb);
			break;
		default:
			break;
		}
	}
	if (!rc && forms) {
		rc = qb_buf_adds(key, " | ");
		if (!rc)
			rc = write_mapping(key, it, o);
	}
	if (!rc)
		rc = qb_buf_adds(key, " |\n");
	if (!rc && answers && str(it->explanation)[0]) {
		qb_buf_clear(&lead);
		rc = qb_buf_cat(&lead, "**", md_label(lb, MD_L_EXPLANATION), ".**");
		if (!rc)
			rc = lead_blocks(&b, lead.ptr, str(it->explanation), it->explanation_para);
	}
	if (!rc)
		rc = raw_latex(&b, "\\qbend");
	if (!rc && fwrite(b.ptr, 1, b.len, f) != b.len)
		rc = QB_EIO;
	qb_buf_dispose(&b);
	qb_buf_dispose(&lead);
	return rc;
}

/* ---- the stem's own "Select N" ------------------------------------------ */

static const char *const count_words[] = {
	"all", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "one",
};

/* Whether S starts (case-insensitively) with WORD followed by a non-letter. */
static int word_at(const char *s, const char *word)
{
	size_t n = strlen(word);

	return strncasecmp(s, word, n) == 0 && !((s[n] | 0x20) >= 'a' && (s[n] | 0x20) <= 'z');
}

int md_stem_says_select(const char *md, const char *label)
{
	static const char *const verbs[] = { "select", "choose", "pick", NULL };
	const char *p;
	size_t k, n;

	for (p = md; *p; p++) {
		const char *v = NULL, *q;
		char f = (char)(*p | 0x20);

		/* the first bytes compared before the whole word: strncasecmp
		 * folds A-Z only, so equal folds are a superset of its matches */
		for (k = 0; verbs[k] && !v; k++)
			if (f == verbs[k][0] && word_at(p, verbs[k]))
				v = verbs[k];
		n = v ? strlen(v) : label && label[0] && f == (char)(label[0] | 0x20) &&
				    strncasecmp(p, label, strlen(label)) == 0 ? strlen(label) : 0;
		if (!n)
			continue;
		for (q = p + n; *q == ' ' || *q == '\t' || *q == '\n'; q++)
			;
		if (*q >= '0' && *q <= '9')
			return 1;
		for (k = 0; k < sizeof(count_words) / sizeof(count_words[0]); k++)
			if (word_at(q, count_words[k]))
				return 1;
	}
	return 0;
}
