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
#include "../limits.h"
#include "html_rich.h"
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
	const char **tags;
	size_t ntags, captags;
	int qfmt;                       /* the question text's format: the default of its other texts */
	int eof_escape;                 /* the file ends in a '\' that escapes nothing */
	int at_end;                     /* the block being read is the file's last */
	struct qb_buf rich;             /* scratch of text_of */
	struct qb_imp_html html;        /* the HTML converter (html_rich.h) */
	struct qb_buf names;            /* the current question's markup without an equivalent */
	int rc;
};

/* Moodle's text formats, as the markers name them. */
enum { F_MOODLE, F_HTML, F_PLAIN, F_MARKDOWN };

/* What a text becomes in the bank: rich text where blocks are allowed
 * (stem, feedback) or inline only (option text, premise); plain text as
 * Moodle keeps it (names, accepted answers); or a matching answer, which
 * Moodle keeps as text but shows as HTML. */
enum tkind { T_BLOCK, T_INLINE, T_PLAIN, T_SHOWN };

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

struct qctx {
	enum qb_imp_kind kind;
	int dropped;
	int grade_changed;
	unsigned long line;
	const char *name;
	struct qb_buf *why;
	struct qb_buf *names;           /* the markup without an equivalent */
	int wrong_feedback;             /* numeric: "~#feedback" for every other answer */
};

/* Adds the names of DROPPED to C->names, once each. */
static void note_dropped(struct gift *g, struct qctx *c, const char *dropped)
{
	const char *p = dropped ? dropped : "";

	while (*p) {
		size_t n = strcspn(p, ",");
		int seen = 0;
		const char *q = c->names->ptr ? c->names->ptr : "";

		while (*q) {
			size_t m = strcspn(q, ",");

			if (m == n && !memcmp(q, p, n))
				seen = 1;
			q += m;
			while (*q == ',' || *q == ' ')
				q++;
		}
		if (!seen && ((c->names->len && qb_buf_adds(c->names, ", ")) ||
			      qb_buf_add(c->names, p, n)))
			g->rc = QB_ENOMEM;
		p += n;
		while (*p == ',' || *p == ' ')
			p++;
	}
	c->dropped = 1;
}

/* A text with its format marker (Moodle's parse_text_with_format: a known
 * marker at its start wins, else the question text's format): the marker
 * removed, the escapes undone, and the text mapped for KIND: HTML and
 * Moodle's auto-format (line ends are breaks there) through libxml2's HTML
 * parser to the bank's markup, Markdown through the same after the
 * subset's conversion, plain text escaped; markup without an equivalent is
 * named in C->names. Returns the text, or the format in *FMT (NULL: not
 * wanted). */
static const char *text_fmt(struct gift *g, const char *s, size_t n, enum tkind kind,
			    struct qctx *c, int *fmt_out)
{
	static const char *const fmts[] = { "[moodle]", "[html]", "[plain]", "[markdown]" };
	char *t = dupn(g, s, n), *r;
	int fmt = g->qfmt, rc = 0;
	size_t i;

	if (!t)
		return "";
	t = trim(t);
	if (t[0] == '[')
		for (i = 0; i < 4; i++)
			if (strncmp(t, fmts[i], strlen(fmts[i])) == 0) {
				fmt = (int)i;
				t += strlen(fmts[i]);
				break;
			}
	if (fmt_out)
		*fmt_out = fmt;
	unescape(t);
	t = trim(t);
	if (kind == T_PLAIN)
		return t;
	qb_buf_clear(&g->rich);
	qb_imp_html_reset(&g->html);
	if (fmt == F_PLAIN && kind != T_SHOWN) {
		xmlChar *e = xmlEncodeSpecialChars(NULL, BAD_CAST t);
		const char *p;

		for (p = e ? (const char *)e : ""; !rc && *p; p++)
			rc = *p == '\n' ? qb_buf_adds(&g->rich, "<br/>") : qb_buf_addc(&g->rich, *p);
		if (!e)
			rc = QB_ENOMEM;
		xmlFree(e);
		if (!rc)
			rc = qb_buf_addc(&g->rich, '\0') ? QB_ENOMEM : 0;
		r = rc ? NULL : dupn(g, g->rich.ptr, strlen(g->rich.ptr));
	} else {
		/* HTML: Moodle's auto-format shows a line end as a break; a
		 * matching answer (T_SHOWN) is shown as HTML whatever the format */
		if (fmt == F_MARKDOWN && kind != T_SHOWN) {
			rc = qb_imp_markdown_html(&g->rich, t, strlen(t));
		} else {
			const char *p;

			for (p = t; !rc && *p; p++)
				rc = *p == '\n' && fmt == F_MOODLE ? qb_buf_adds(&g->rich, "<br>")
								   : qb_buf_addc(&g->rich, *p);
		}
		if (!rc)
			rc = qb_buf_addc(&g->rich, '\0') ? QB_ENOMEM : 0;
		r = rc ? NULL : (char *)qb_imp_html_rich(&g->html, &g->arena, g->rich.ptr,
							  kind == T_BLOCK);
	}
	if (rc || !r) {
		g->rc = QB_ENOMEM;
		return "";
	}
	if (g->html.dropped.len && c)
		note_dropped(g, c, g->html.dropped.ptr);
	return trim(r);
}

static const char *text_of(struct gift *g, const char *s, size_t n, enum tkind kind,
			   struct qctx *c)
{
	return text_fmt(g, s, n, kind, c, NULL);
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


static void add_choice(struct gift *g, struct qb_imp_choice c)
{
	if (QB_ARRAY_PUSH(g->ch, g->nch, g->capch, c))
		g->rc = QB_ENOMEM;
}

/* "answer # feedback" (commentparser); the answer as KIND. */
static void answer_feedback(struct gift *g, char *a, struct qb_imp_choice *c, enum tkind kind,
			    struct qctx *q)
{
	char *hash = strchr(a, '#');

	if (hash) {
		c->feedback = text_of(g, hash + 1, strlen(hash + 1), T_BLOCK, q);
		*hash = '\0';
	}
	c->text = text_of(g, a, strlen(a), kind, q);
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
		while (*s && is_space(*s))
			s++;
		if (!weight(&s, &c.fraction))
			c.fraction = 0;
	}
	answer_feedback(g, (char *)s, &c, T_INLINE, q);
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
	answer_feedback(g, (char *)s, &c, T_PLAIN, q);
	/* Moodle's pattern: "\*" is a literal '*', as a bank answer writes it */
	{
		char *t = (char *)c.text, *d = t;

		for (; t && *t; t++)
			if (!(t[0] == '\\' && t[1] == '*'))
				*d++ = *t;
		if (d)
			*d = '\0';
	}
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
	answer_feedback(g, (char *)s, &c, T_PLAIN, q);
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
	c.text = text_of(g, a, strlen(a), T_INLINE, q);
	resp = text_of(g, arrow + 2, strlen(arrow + 2), T_SHOWN, q);
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
	const char *p = comments, *e;

	/* the first non-empty one, as Moodle's pattern finds it */
	while ((p = strstr(p, "[id:")) != NULL) {
		struct qb_buf t = QB_BUF_INIT;
		char *d = NULL;

		p += 4;
		for (e = p; *e && *e != ']' && *e != '\n'; e++)
			if (e[0] == '\\' && e[1] == ']')
				e++;
		if (*e != ']' || e == p)
			continue;
		for (; p < e && !g->rc; p++) {
			if (p[0] == '\\' && p[1] == ']')
				p++;
			if (qb_buf_addc(&t, *p))
				g->rc = QB_ENOMEM;
		}
		if (t.len)
			d = dupn(g, t.ptr, t.len);
		qb_buf_dispose(&t);
		if (d && *(d = trim(d)))
			return d;
	}
	return NULL;
}

/* The tags of "[tag:X]" tokens in the comments (Moodle's
 * extract_idnumber_and_tags_from_comment: "\\]" is a ']' inside). */
static void tags_of(struct gift *g, const char *comments)
{
	const char *p = comments;

	g->ntags = 0;
	while ((p = strstr(p, "[tag:")) != NULL) {
		struct qb_buf t = QB_BUF_INIT;
		const char *e;
		char *d;

		p += 5;
		for (e = p; *e && *e != ']' && *e != '\n'; e++)
			if (e[0] == '\\' && e[1] == ']')
				e++;
		if (*e != ']')
			break;
		for (; p < e && !g->rc; p++) {
			if (p[0] == '\\' && p[1] == ']')
				p++;
			if (qb_buf_addc(&t, *p))
				g->rc = QB_ENOMEM;
		}
		d = t.len ? dupn(g, t.ptr, t.len) : NULL;
		qb_buf_dispose(&t);
		if (d && *(d = trim(d)) && QB_ARRAY_PUSH(g->tags, g->ntags, g->captags, d))
			g->rc = QB_ENOMEM;
		p = e + 1;
	}
}

/* The provenance of a "// source: TEXT" comment line (qbank's GIFT export
 * writes one for a question's <source>; Moodle ignores it), or NULL. */
static const char *source_of(struct gift *g, const char *comments)
{
	const char *p = strstr(comments, "// source: "), *e;

	if (!p || (p != comments && p[-1] != '\n'))
		return NULL;
	p += 11;
	e = strchr(p, '\n');
	return dupn(g, p, e ? (size_t)(e - p) : strlen(p));
}

/* The text of rich markup S (tags left out, the five references of
 * xmlEncodeSpecialChars decoded): a question's name when it has no title. */
static const char *plain_of(struct gift *g, const char *s)
{
	static const struct { const char *ref; char c; } refs[] = {
		{ "&lt;", '<' }, { "&gt;", '>' }, { "&amp;", '&' }, { "&quot;", '"' }, { "&#13;", '\r' },
	};
	char *d = dupn(g, s, strlen(s)), *o = d;
	size_t i;

	if (!d)
		return "";
	while (*s) {
		if (*s == '<') {
			const char *e = strchr(s, '>');

			s = e ? e + 1 : s + strlen(s);
			continue;
		}
		for (i = 0; *s == '&' && i < sizeof(refs) / sizeof(refs[0]); i++)
			if (!strncmp(s, refs[i].ref, strlen(refs[i].ref)))
				break;
		if (*s == '&' && i < sizeof(refs) / sizeof(refs[0])) {
			*o++ = refs[i].c;
			s += strlen(refs[i].ref);
		} else {
			*o++ = *s++;
		}
	}
	*o = '\0';
	return trim(d);
}

/* One question: BLOCK (the lines joined, comments blanked), from LINE. */
static int question(struct gift *g, char *text, const char *comments, unsigned long line)
{
	struct qb_imp_question q;
	struct qctx c;
	struct qb_buf why = QB_BUF_INIT;
	char *p, *open, *close, *ans, *gf, *stem, *name = NULL;
	const char *shown;
	size_t i;
	int rc = 0;

	text = trim(text);
	if (!*text)
		return 0;
	qb_buf_clear(&g->names);
	/* What a bank could not hold anyway is not parsed: a question has at
	 * most QB_LIMIT_CHILDREN parts of QB_LIMIT_PART_BYTES each. */
	if (strlen(text) > (size_t)QB_LIMIT_CHILDREN * QB_LIMIT_PART_BYTES)
		return refuse(g, line, "(too long)", "the question is longer than a bank's question "
			      "can be (100 parts of 64 KiB)");
	if (g->at_end && g->eof_escape)
		return refuse(g, line, "(the last question)", "the file ends in a '\\' that escapes "
			      "nothing (a file cut short?)");
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
		/* Moodle shows a category name as HTML: its references decoded */
		if (strchr(cat, '&') && !strchr(cat, '<'))
			cat = (char *)plain_of(g, cat);
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
		const char *stem_text = text_of(g, text, strlen(text), T_PLAIN, NULL);

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
	c.names = &g->names;
	g->qfmt = F_MOODLE;
	q.stem = text_fmt(g, stem, strlen(stem), T_BLOCK, &c, &g->qfmt);
	q.rich = 1;
	q.name = name ? name : plain_of(g, q.stem);
	tags_of(g, comments);
	q.source = source_of(g, comments);
	{
		const char *sel = strstr(comments, "// select: ");

		if (sel && (sel == comments || sel[-1] == '\n'))
			q.select = strtol(sel + 11, NULL, 10);
	}
	shown = q.name;
	if (gf)
		q.explanation = text_of(g, gf, strlen(gf), T_BLOCK, &c);
	g->nch = 0;
	g->nds = 0;
	if (!*ans) {
		q.kind = QB_IMP_ESSAY;
	} else if (ans[0] == '#') {
		char *tilde = strchr(ans + 1, '~');

		q.kind = QB_IMP_NUMERIC;
		if (tilde) {
			*tilde = '\0';
			/* "~#feedback" for every other answer: 0 marks either way */
			if (*trim(tilde + 1) && strcmp(trim(tilde + 1), "#") != 0)
				c.wrong_feedback = 1;
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
				right = text_of(g, f2 + 1, strlen(f2 + 1), T_BLOCK, &c);
			}
			if (f1) {
				*f1 = '\0';
				wrong = text_of(g, f1 + 1, strlen(f1 + 1), T_BLOCK, &c);
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
			if (fabs(g->ch[i].fraction) < 1e-9)
				rc = qb_imp_report(g->sink, line, QB_SEV_WARNING,
						   QB_RULE_IMPORT_FEEDBACK_DROPPED, NULL,
						   "question '%s': the answer '%s' earns 0%% in Moodle (an "
						   "answer for its feedback); a bank lists only accepted "
						   "answers: left out, which changes no mark", shown,
						   g->ch[i].text);
			else
				rc = qb_imp_report(g->sink, line, QB_SEV_WARNING, QB_RULE_IMPORT_GRADE_CHANGED,
						   NULL, "question '%s': the answer '%s' earns %.7g%% in "
						   "Moodle; a bank accepts an answer at full marks or not at "
						   "all: left out", shown, g->ch[i].text,
						   g->ch[i].fraction * 100);
			if (rc)
				return rc;
		}
		g->nch = k;
		/* an accepted answer's own feedback has no place in a bank */
		for (i = 0; i < g->nch; i++)
			if (g->ch[i].feedback && *g->ch[i].feedback &&
			    (rc = qb_imp_report(g->sink, line, QB_SEV_WARNING,
						QB_RULE_IMPORT_FEEDBACK_DROPPED, NULL,
						"question '%s': the feedback of the answer '%s' has no "
						"place in a bank's %s question: left out (put it in the "
						"explanation)", shown, g->ch[i].text,
						q.kind == QB_IMP_SHORT ? "short" : "numeric")) != 0)
				return rc;
		if (c.wrong_feedback && (rc = qb_imp_report(g->sink, line, QB_SEV_WARNING,
						QB_RULE_IMPORT_FEEDBACK_DROPPED, NULL,
						"question '%s': the feedback for every other answer ('~') "
						"has no place in a bank's numeric question: left out (put it "
						"in the explanation)", shown)) != 0)
			return rc;
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
		unsigned mark;

		if (g->nch < 2)
			return refuse(g, line, shown, "fewer than two options");
		mark = qb_imp_choice_marking(q.kind, g->ch, g->nch);
		if (mark & QB_IMP_MARK_KEYS)
			c.grade_changed = 1;
		if ((mark & QB_IMP_MARK_WRONG) && (rc = qb_imp_report(g->sink, line, QB_SEV_WARNING,
			QB_RULE_IMPORT_GRADE_CHANGED, NULL, "question '%s': a wrong option's weight is "
			"not an equal share of -100%% (what the bank's multiple-answer marking takes off "
			"for each wrong option picked)", shown)) != 0)
			return rc;
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
					     "question '%s': markup without an equivalent in a bank "
					     "reduced to its text (%s)", shown,
					     g->names.ptr ? g->names.ptr : "")) != 0)
		return rc;
	q.tags = g->tags;
	q.ntags = g->ntags;
	q.choices = g->ch;
	q.nchoices = g->nch;
	q.distractors = g->ds;
	q.ndistractors = g->nds;
	{
		size_t big = strlen(q.stem);

		if (q.explanation && strlen(q.explanation) > big)
			big = strlen(q.explanation);
		for (i = 0; i < g->nch; i++) {
			if (g->ch[i].text && strlen(g->ch[i].text) > big)
				big = strlen(g->ch[i].text);
			if (g->ch[i].feedback && strlen(g->ch[i].feedback) > big)
				big = strlen(g->ch[i].feedback);
		}
		if (big > QB_LIMIT_PART_BYTES) {
			char why[160];

			snprintf(why, sizeof(why), "a text of %zu bytes is longer than a bank's part "
				 "may be (%d bytes)", big, QB_LIMIT_PART_BYTES);
			return refuse(g, line, shown, why);
		}
	}
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
	{
		/* an odd run of backslashes at the very end escapes nothing */
		const char *t = end;
		size_t k = 0;

		while (t > p && is_space(t[-1]))
			t--;
		while (t > p && t[-1] == '\\') {
			t--;
			k++;
		}
		g.eof_escape = k % 2 == 1;
	}
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
		g.at_end = p >= end;
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
	qb_array_free(g.tags, g.captags, sizeof(*g.tags), 0);
	qb_buf_dispose(&g.rich);
	qb_imp_html_dispose(&g.html);
	qb_buf_dispose(&g.names);
	if (rc == QB_ENOMEM)
		qb_error_set(err, rc, "%s: out of memory", sink->path);
	return rc;
}
