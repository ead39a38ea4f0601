/* GIFT, as Moodle's qformat_gift reads it (question/format/gift/format.php,
 * Moodle 4.5): questions are blocks of lines between blank lines; lines
 * starting with // are comments ([id:X] in them is the idnumber);
 * $CATEGORY: sets the category of the questions after it; ::title::;
 * the escapes \: \# \= \{ \} \~ \n and \\; [html] [moodle] [plain]
 * [markdown] format markers; the answer block {...} decides the type
 * exactly as Moodle's readquestion() does (see README.md for the table).
 * Everything is done on a copy of the block with the escaped characters
 * replaced by placeholder bytes, as Moodle does with its &&NNN; codes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/HTMLparser.h>

#include "../core/arena.h"
#include "../core/array.h"
#include "../core/buf.h"
#include "importers.h"

/* Placeholders of the escaped characters (bytes no GIFT text holds). */
static const char esc_from[] = ":#={}~n";
static const char esc_to[] = "\x01\x02\x03\x04\x05\x06\x07";
#define PH_BACKSLASH '\x08'

struct gift {
	const struct qb_imp_sink *sink;
	struct qb_arena arena;          /* reset per question */
	struct qb_buf block;
	char *category;                 /* malloc'ed, or NULL */
	struct qb_imp_choice *ch;
	size_t nch, capch;
	const char **ds;
	size_t nds, capds;
	int rc;
};

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\0';
}

/* S trimmed in place (PHP's trim): returns the new start. */
static char *trim(char *s)
{
	size_t n;

	while (*s && is_space(*s))
		s++;
	n = strlen(s);
	while (n && is_space(s[n - 1]))
		s[--n] = '\0';
	return s;
}

/* The placeholders back to the characters they stand for (escapedchar_post). */
static void unescape(char *s)
{
	for (; *s; s++) {
		const char *p = *s ? memchr(esc_to, *s, sizeof(esc_to) - 1) : NULL;

		if (p)
			*s = esc_from[p - esc_to] == 'n' ? '\n' : esc_from[p - esc_to];
		else if (*s == PH_BACKSLASH)
			*s = '\\';
	}
}

static char *dupn(struct gift *g, const char *s, size_t n)
{
	char *d = qb_arena_strndup(&g->arena, s, n);

	if (!d)
		g->rc = QB_ENOMEM;
	return d;
}

/* A text with its format marker: the marker is removed, escapes undone,
 * HTML (any format but plain) reduced to its text through libxml2's HTML
 * parser, with *DROPPED set when that removed markup. */
static const char *text_of(struct gift *g, const char *s, size_t n, int *dropped)
{
	char *t = dupn(g, s, n), *r;
	int plain = 0;

	if (!t)
		return "";
	t = trim(t);
	if (t[0] == '[') {
		static const char *const fmts[] = { "[html]", "[moodle]", "[plain]", "[markdown]" };
		size_t i;

		for (i = 0; i < 4; i++)
			if (strncmp(t, fmts[i], strlen(fmts[i])) == 0) {
				plain = i == 2;
				t += strlen(fmts[i]);
				break;
			}
	}
	unescape(t);
	t = trim(t);
	if (!plain && strchr(t, '<')) {
		htmlDocPtr doc = htmlReadMemory(t, (int)strlen(t), NULL, "UTF-8",
						HTML_PARSE_NONET | HTML_PARSE_NOERROR |
						HTML_PARSE_NOWARNING | HTML_PARSE_NOIMPLIED);
		xmlChar *c = doc ? xmlNodeGetContent((xmlNodePtr)doc) : NULL;

		if (c) {
			r = dupn(g, (const char *)c, strlen((const char *)c));
			if (r && strcmp(r, t) != 0) {
				*dropped = 1;
				t = trim(r);
			}
			xmlFree(c);
		}
		xmlFreeDoc(doc);
	}
	return t;
}

/* "%50%" at the start of *S: the weight as a fraction, *S moved past it;
 * 1 when there is a weight (Moodle's /^%\-*([0-9]{1,2})\.?([0-9]*)%/). */
static int weight(const char **s, double *w)
{
	const char *p = *s + 1, *end;

	if (**s != '%')
		return 0;
	while (*p == '-')
		p++;
	if (!(*p >= '0' && *p <= '9'))
		return 0;
	end = strchr(*s + 1, '%');
	if (!end)
		return 0;
	*w = strtod(*s + 1, NULL) / 100.0;
	*s = end + 1;
	return 1;
}

/* Splits the answer text [S, END) at each character C (or at each "~" and
 * "=" for choices, keeping the "="), into the answers of Moodle's explode:
 * an empty first piece is dropped. Calls FN on each piece. */
typedef void (*piece_fn)(struct gift *g, char *piece, void *ctx);

static void split(struct gift *g, char *s, const char *seps, int keep, piece_fn fn, void *ctx)
{
	char *p = s, *start = s;
	int first = 1;

	for (;; p++) {
		if (*p == '\0' || (strchr(seps, *p) && (!keep || p != start))) {
			char save = *p, *piece;

			*p = '\0';
			piece = dupn(g, start, strlen(start));
			if (piece && !(first && !*trim(piece)))
				fn(g, trim(piece), ctx);
			first = 0;
			*p = save;
			if (!save)
				break;
			start = keep ? p : p + 1;
		}
	}
}

struct qctx {
	enum qb_imp_kind kind;
	int dropped;
	int grade_changed;
	unsigned long line;
	const char *name;
	struct qb_buf *why;
};

static void add_choice(struct gift *g, struct qb_imp_choice c)
{
	if (QB_ARRAY_PUSH(g->ch, g->nch, g->capch, c))
		g->rc = QB_ENOMEM;
}

/* "answer # feedback" (commentparser). */
static void answer_feedback(struct gift *g, char *a, struct qb_imp_choice *c, int *dropped)
{
	char *hash = strchr(a, '#');

	if (hash) {
		c->feedback = text_of(g, hash + 1, strlen(hash + 1), dropped);
		*hash = '\0';
	}
	c->text = text_of(g, a, strlen(a), dropped);
}

static void mc_piece(struct gift *g, char *a, void *ctx)
{
	struct qctx *q = ctx;
	struct qb_imp_choice c;
	const char *s = a;

	memset(&c, 0, sizeof(c));
	if (*s == '=') {
		c.fraction = 1;
		s++;
	} else if (*s == '~') {
		s++;
		while (is_space(*s))
			s++;
		if (!weight(&s, &c.fraction))
			c.fraction = 0;
	}
	answer_feedback(g, (char *)s, &c, &q->dropped);
	add_choice(g, c);
}

static void sa_piece(struct gift *g, char *a, void *ctx)
{
	struct qctx *q = ctx;
	struct qb_imp_choice c;
	const char *s = a;

	memset(&c, 0, sizeof(c));
	if (!weight(&s, &c.fraction))
		c.fraction = 1;
	answer_feedback(g, (char *)s, &c, &q->dropped);
	add_choice(g, c);
}

static void num_piece(struct gift *g, char *a, void *ctx)
{
	struct qctx *q = ctx;
	struct qb_imp_choice c;
	const char *s = a;
	char *dots, *colon, *end, buf[64];
	double v, tol = 0;

	memset(&c, 0, sizeof(c));
	if (!weight(&s, &c.fraction))
		c.fraction = 1;
	answer_feedback(g, (char *)s, &c, &q->dropped);
	a = (char *)c.text;
	dots = strstr(a, "..");
	colon = strchr(a, ':');
	if (dots && dots > a) {
		double lo = strtod(a, &end), hi = strtod(dots + 2, NULL);

		v = (lo + hi) / 2;
		tol = hi - v;
	} else if (colon && colon > a) {
		v = strtod(a, &end);
		tol = strtod(colon + 1, NULL);
	} else {
		v = strtod(a, &end);
		if (*trim(end)) {
			qb_buf_printf(q->why, "'%s' is not a number", a);
			return;
		}
	}
	snprintf(buf, sizeof(buf), "%.15g", v);
	c.text = dupn(g, buf, strlen(buf));
	c.tolerance = fabs(tol);
	add_choice(g, c);
}

static void match_piece(struct gift *g, char *a, void *ctx)
{
	struct qctx *q = ctx;
	char *arrow = strstr(a, "->");
	struct qb_imp_choice c;
	const char *resp;

	if (!arrow) {
		qb_buf_printf(q->why, "a matching answer without '->'");
		return;
	}
	*arrow = '\0';
	memset(&c, 0, sizeof(c));
	c.text = text_of(g, a, strlen(a), &q->dropped);
	resp = text_of(g, arrow + 2, strlen(arrow + 2), &q->dropped);
	if (!*c.text) {
		if (QB_ARRAY_PUSH(g->ds, g->nds, g->capds, resp))
			g->rc = QB_ENOMEM;
		return;
	}
	c.match = resp;
	add_choice(g, c);
}

static int refuse(struct gift *g, unsigned long line, const char *name, const char *why)
{
	return qb_imp_report(g->sink, line, QB_SEV_ERROR, QB_RULE_IMPORT_REFUSED, NULL,
			     "question '%s': %s: left out", name, why);
}

/* The idnumber of "[id:X]" in the comments, or NULL. */
static const char *idnumber(struct gift *g, const char *comments)
{
	const char *p = strstr(comments, "[id:"), *e;

	if (!p)
		return NULL;
	p += 4;
	e = strchr(p, ']');
	return e ? dupn(g, p, (size_t)(e - p)) : NULL;
}

/* One question: BLOCK (the lines joined, comments blanked), from LINE. */
static int question(struct gift *g, char *text, const char *comments, unsigned long line)
{
	struct qb_imp_question q;
	struct qctx c;
	struct qb_buf why = QB_BUF_INIT;
	char *p, *open, *close, *ans, *gf, *stem, *name = NULL;
	const char *shown;
	size_t i, ncorrect = 0;
	int rc = 0;

	text = trim(text);
	if (!*text)
		return 0;
	/* control characters (not allowed in XML) would be taken for placeholders */
	for (p = text; *p; p++)
		if (*p > 0 && *p <= PH_BACKSLASH)
			*p = ' ';
	/* the escapes (escapedchar_pre): \\ first, so that \\: is a backslash and a colon */
	for (p = text; *p; p++)
		if (p[0] == '\\' && p[1] == '\\') {
			*p = PH_BACKSLASH;
			memmove(p + 1, p + 2, strlen(p + 2) + 1);
		} else if (p[0] == '\\' && p[1] && strchr(esc_from, p[1])) {
			*p = esc_to[strchr(esc_from, p[1]) - esc_from];
			memmove(p + 1, p + 2, strlen(p + 2) + 1);
		}
	if (strncmp(text, "$CATEGORY:", 10) == 0) {
		char *cat = trim(text + 10);

		unescape(cat);
		if (strncmp(cat, "$course$/", 9) == 0 || strncmp(cat, "$system$/", 9) == 0)
			cat += 9;
		else if (strncmp(cat, "$cat$/", 6) == 0)
			cat += 6;
		if (strncmp(cat, "top/", 4) == 0)
			cat += 4;
		else if (strcmp(cat, "top") == 0)
			cat += 3;
		free(g->category);
		g->category = strdup(cat);
		return g->category ? 0 : QB_ENOMEM;
	}
	if (strncmp(text, "::", 2) == 0) {
		char *end = strstr(text + 2, "::");

		if (end) {
			*end = '\0';
			name = dupn(g, text + 2, strlen(text + 2));
			if (name) {
				unescape(name);
				name = trim(name);
			}
			text = trim(end + 2);
		} else {
			text += 2;
		}
	}
	memset(&c, 0, sizeof(c));
	c.line = line;
	c.why = &why;
	open = strchr(text, '{');
	close = strchr(text, '}');
	shown = name;
	if (!open && !close) {
		const char *stem_text = text_of(g, text, strlen(text), &c.dropped);

		return qb_imp_report(g->sink, line, QB_SEV_WARNING, QB_RULE_IMPORT_UNSUPPORTED_TYPE,
				     NULL, "question '%s': a description (no answer block) has no "
				     "equivalent in a bank: left out", shown ? shown : stem_text);
	}
	if (!open || !close || close < open)
		return refuse(g, line, shown ? shown : text, "an answer block without its '{' or '}'");
	*close = '\0';
	ans = trim(open + 1);
	if (close[1] && *trim(close + 1)) {
		/* a missing-word question: the blank stands where the block was */
		struct qb_buf s = QB_BUF_INIT;

		*open = '\0';
		if (qb_buf_adds(&s, text) || qb_buf_adds(&s, "_____") || qb_buf_adds(&s, close + 1) ||
		    !(stem = dupn(g, s.ptr, s.len))) {
			qb_buf_dispose(&s);
			return QB_ENOMEM;
		}
		qb_buf_dispose(&s);
	} else {
		*open = '\0';
		stem = text;
	}
	gf = NULL;
	{
		char *sep = NULL, *f = ans;

		while ((f = strstr(f, "####")) != NULL)
			sep = f++;
		if (sep) {
			gf = sep + 4;
			*sep = '\0';
			ans = trim(ans);
		}
	}
	memset(&q, 0, sizeof(q));
	q.line = line;
	q.category = g->category;
	q.idnumber = idnumber(g, comments);
	q.stem = text_of(g, stem, strlen(stem), &c.dropped);
	q.name = name ? name : q.stem;
	shown = q.name;
	if (gf)
		q.explanation = text_of(g, gf, strlen(gf), &c.dropped);
	g->nch = 0;
	g->nds = 0;
	if (!*ans) {
		q.kind = QB_IMP_ESSAY;
	} else if (ans[0] == '#') {
		char *tilde = strchr(ans + 1, '~');

		q.kind = QB_IMP_NUMERIC;
		if (tilde) {
			*tilde = '\0';
			if (*trim(tilde + 1))
				c.grade_changed = 0;   /* the wrong-answer feedback: 0 marks either way */
		}
		split(g, ans + 1, "=", 0, num_piece, &c);
	} else if (strchr(ans, '~')) {
		q.kind = strchr(ans, '=') ? QB_IMP_SINGLE : QB_IMP_MULTIPLE;
		split(g, ans, "~=", 1, mc_piece, &c);
	} else if (strchr(ans, '=') && strstr(ans, "->")) {
		q.kind = QB_IMP_MATCHING;
		split(g, ans, "=", 0, match_piece, &c);
	} else {
		char *hash = strchr(ans, '#');
		char head[8] = "";

		if (hash && hash > ans) {
			size_t n = (size_t)(hash - ans);

			snprintf(head, sizeof(head), "%.*s", (int)(n < 7 ? n : 7), ans);
		} else if (!hash) {
			snprintf(head, sizeof(head), "%s", ans);
		}
		trim(head);
		if (!strcmp(head, "T") || !strcmp(head, "TRUE") || !strcmp(head, "F") ||
		    !strcmp(head, "FALSE")) {
			char *f1 = strchr(ans, '#'), *f2 = f1 ? strchr(f1 + 1, '#') : NULL;
			const char *wrong = NULL, *right = NULL;

			if (f2) {
				*f2 = '\0';
				right = text_of(g, f2 + 1, strlen(f2 + 1), &c.dropped);
			}
			if (f1) {
				*f1 = '\0';
				wrong = text_of(g, f1 + 1, strlen(f1 + 1), &c.dropped);
			}
			q.kind = QB_IMP_TRUEFALSE;
			q.truth = head[0] == 'T';
			q.true_feedback = q.truth ? right : wrong;
			q.false_feedback = q.truth ? wrong : right;
		} else {
			q.kind = QB_IMP_SHORT;
			split(g, ans, "=", 0, sa_piece, &c);
		}
	}
	if (g->rc) {
		qb_buf_dispose(&why);
		return g->rc;
	}
	if (why.len) {
		rc = refuse(g, line, shown, why.ptr);
		qb_buf_dispose(&why);
		return rc;
	}
	qb_buf_dispose(&why);
	/* What the bank cannot hold of the marks. */
	if (q.kind == QB_IMP_SHORT || q.kind == QB_IMP_NUMERIC) {
		size_t k = 0;

		for (i = 0; i < g->nch; i++) {
			if (fabs(g->ch[i].fraction - 1) < 1e-9) {
				g->ch[k++] = g->ch[i];
				continue;
			}
			if (g->ch[i].fraction > 0)
				rc = qb_imp_report(g->sink, line, QB_SEV_WARNING, QB_RULE_IMPORT_GRADE_CHANGED,
						   NULL, "question '%s': the answer '%s' earns %.7g%% in "
						   "Moodle; a bank accepts an answer at full marks or not at "
						   "all: left out", shown, g->ch[i].text,
						   g->ch[i].fraction * 100);
			if (rc)
				return rc;
		}
		g->nch = k;
		if (!k)
			return refuse(g, line, shown, "no answer earns full marks");
		/* a bank's numeric question takes one answer (a wider tolerance instead) */
		for (i = 1; q.kind == QB_IMP_NUMERIC && i < g->nch; i++)
			if ((rc = qb_imp_report(g->sink, line, QB_SEV_WARNING,
						QB_RULE_IMPORT_GRADE_CHANGED, NULL,
						"question '%s': the answer '%s' is also accepted in Moodle; "
						"a bank's numeric question takes one answer: left out",
						shown, g->ch[i].text)) != 0)
				return rc;
		if (q.kind == QB_IMP_NUMERIC)
			g->nch = 1;
	}
	if (q.kind == QB_IMP_SINGLE || q.kind == QB_IMP_MULTIPLE) {
		double share = 0;

		if (g->nch < 2)
			return refuse(g, line, shown, "fewer than two options");
		for (i = 0; i < g->nch; i++)
			if (g->ch[i].fraction > 0) {
				if (ncorrect && fabs(g->ch[i].fraction - share) > 1e-6)
					c.grade_changed = 1;
				share = g->ch[i].fraction;
				ncorrect++;
			}
		if (q.kind == QB_IMP_SINGLE) {
			for (i = 0; i < g->nch; i++)
				if (g->ch[i].fraction > 0 && fabs(g->ch[i].fraction - 1) > 1e-9) {
					g->ch[i].fraction = 0;
					c.grade_changed = 1;
				}
		} else if (ncorrect && fabs(share * (double)ncorrect - 1) > 1e-6) {
			c.grade_changed = 1;
		}
		if (c.grade_changed && (rc = qb_imp_report(g->sink, line, QB_SEV_WARNING,
			QB_RULE_IMPORT_GRADE_CHANGED, NULL, "question '%s': the options' weights "
			"are not what a bank can express (one key at 100%%, or equal shares of "
			"100%%): the bank marks it %s", shown,
			q.kind == QB_IMP_SINGLE ? "with the 100% options as its keys" :
			"with every positive option as a key")) != 0)
			return rc;
	}
	if (q.kind == QB_IMP_MATCHING && g->nch < 2)
		return refuse(g, line, shown, "fewer than two pairs");
	if (c.dropped && (rc = qb_imp_report(g->sink, line, QB_SEV_WARNING,
					     QB_RULE_IMPORT_MARKUP_DROPPED, NULL,
					     "question '%s': HTML markup reduced to its text", shown)) != 0)
		return rc;
	q.choices = g->ch;
	q.nchoices = g->nch;
	q.distractors = g->ds;
	q.ndistractors = g->nds;
	return g->sink->question(g->sink->ctx, &q);
}

int qb_imp_gift_detect(const char *data, size_t len)
{
	const char *p = data, *end = data + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);

		while (n && is_space(*p)) {
			p++;
			n--;
		}
		if ((n >= 2 && p[0] == ':' && p[1] == ':') || (n >= 10 && !memcmp(p, "$CATEGORY:", 10)) ||
		    memchr(p, '{', n))
			return 1;
		p = nl ? nl + 1 : end;
	}
	return 0;
}

int qb_imp_gift_read(const char *data, size_t len, const struct qb_imp_sink *sink,
		     struct qb_error *err)
{
	struct gift g;
	struct qb_buf comments = QB_BUF_INIT;
	const char *p, *end;
	unsigned long line = 0, start = 0;
	int rc = 0;

	memset(&g, 0, sizeof(g));
	g.sink = sink;
	p = qb_imp_skip_bom(data, &len);
	end = p + len;
	for (;;) {
		const char *nl = p < end ? memchr(p, '\n', (size_t)(end - p)) : NULL;
		size_t n = p < end ? (size_t)((nl ? nl : end) - p) : 0;
		const char *s = p;
		int blank;

		while (n && is_space(*s)) {
			s++;
			n--;
		}
		while (n && is_space(s[n - 1]))
			n--;
		blank = p >= end || n == 0 || (n == 1 && s[0] == '0');
		if (p < end)
			line++;
		if (blank && g.block.len) {
			if (qb_buf_addc(&g.block, '\0') || qb_buf_addc(&comments, '\0'))
				rc = QB_ENOMEM;
			else
				rc = question(&g, g.block.ptr, comments.ptr, start);
			qb_buf_clear(&g.block);
			qb_buf_clear(&comments);
			qb_arena_reset(&g.arena);
			g.rc = 0;
			if (rc)
				break;
		} else if (!blank) {
			if (!g.block.len)
				start = line;
			if (n >= 2 && s[0] == '/' && s[1] == '/') {
				rc = qb_buf_add(&comments, s, n) || qb_buf_addc(&comments, '\n') ||
				     qb_buf_adds(&g.block, g.block.len ? "\n " : " ") ? QB_ENOMEM : 0;
			} else {
				if (g.block.len)
					rc = qb_buf_addc(&g.block, '\n') ? QB_ENOMEM : 0;
				if (!rc)
					rc = qb_buf_add(&g.block, s, n) ? QB_ENOMEM : 0;
			}
			if (rc)
				break;
		}
		if (p >= end)
			break;
		p = nl ? nl + 1 : end;
	}
	qb_buf_dispose(&g.block);
	qb_buf_dispose(&comments);
	qb_arena_dispose(&g.arena);
	free(g.category);
	qb_array_free(g.ch, g.capch, sizeof(*g.ch), 0);
	qb_array_free(g.ds, g.capds, sizeof(*g.ds), 0);
	if (rc == QB_ENOMEM)
		qb_error_set(err, rc, "%s: out of memory", sink->path);
	return rc;
}
