#include "html_rich.h"

#include <string.h>

#include <libxml/HTMLparser.h>
#include <libxml/tree.h>
#include <libxml/xmlwriter.h>

#include "../xmlw.h"

/* Where the walk is: what the bank allows there. */
enum where {
	W_BLOCK,        /* stem, explanation ...: p, pre, lists and inline markup */
	W_LI,           /* inside li: inline markup and lists */
	W_INLINE,       /* inline markup only */
};

enum action {
	A_INLINE,       /* the same element, inline content */
	A_CODE,         /* <code>: text only */
	A_BR,
	A_P,
	A_PRE,
	A_LIST,
	A_LI,
	A_IMG,
	A_HEADING,      /* a paragraph in bold: reported */
	A_PASS,         /* its content, nothing of its own (div, span, body) */
	A_TEXT,         /* its text: reported */
	A_SKIP,         /* nothing at all (script, style): reported */
};

struct row {
	const char *html;
	enum action act;
	const char *bank;       /* A_INLINE: the bank's element */
};

/* Sorted by name (looked up with bsearch). An element not in the table is
 * reduced to its text and reported. */
static const struct row rows[] = {
	{ "b", A_INLINE, "strong" },
	{ "body", A_PASS, NULL },
	{ "br", A_BR, NULL },
	{ "code", A_CODE, NULL },
	{ "div", A_PASS, NULL },
	{ "em", A_INLINE, "em" },
	{ "h1", A_HEADING, NULL },
	{ "h2", A_HEADING, NULL },
	{ "h3", A_HEADING, NULL },
	{ "h4", A_HEADING, NULL },
	{ "h5", A_HEADING, NULL },
	{ "h6", A_HEADING, NULL },
	{ "head", A_SKIP, NULL },
	{ "html", A_PASS, NULL },
	{ "i", A_INLINE, "em" },
	{ "img", A_IMG, NULL },
	{ "kbd", A_CODE, NULL },
	{ "li", A_LI, NULL },
	{ "ol", A_LIST, "ol" },
	{ "p", A_P, NULL },
	{ "pre", A_PRE, NULL },
	{ "samp", A_CODE, NULL },
	{ "script", A_SKIP, NULL },
	{ "span", A_PASS, NULL },
	{ "strong", A_INLINE, "strong" },
	{ "style", A_SKIP, NULL },
	{ "sub", A_INLINE, "sub" },
	{ "sup", A_INLINE, "sup" },
	{ "tt", A_CODE, NULL },
	{ "ul", A_LIST, "ul" },
};

static int row_cmp(const void *key, const void *elem)
{
	return strcmp(key, ((const struct row *)elem)->html);
}

struct conv {
	struct qb_imp_html *h;
	xmlTextWriterPtr w;
	int bad;        /* a write failed */
};

void qb_imp_html_drop(struct qb_imp_html *h, const char *what)
{
	const char *p = h->dropped.ptr;
	size_t n = strlen(what);

	/* once: a name already in the list ("a, b, c") is not added again */
	while (p && (p = strstr(p, what)) != NULL) {
		if ((p == h->dropped.ptr || p[-1] == ' ') && (p[n] == ',' || p[n] == '\0'))
			return;
		p += n;
	}
	if ((h->dropped.len && qb_buf_adds(&h->dropped, ", ")) || qb_buf_adds(&h->dropped, what))
		h->oom = 1;
}

void qb_imp_html_reset(struct qb_imp_html *h)
{
	qb_buf_clear(&h->dropped);
	if (h->dropped.ptr)
		h->dropped.ptr[0] = '\0';
}

static void drop_writer(struct qb_imp_html *h)
{
	if (h->writer)
		xmlFreeTextWriter(h->writer);
	xmlBufferFree(h->wbuf);   /* accepts NULL */
	h->writer = NULL;
	h->wbuf = NULL;
}

void qb_imp_html_dispose(struct qb_imp_html *h)
{
	if (!h)
		return;
	qb_buf_dispose(&h->dropped);
	qb_buf_dispose(&h->out);
	if (h->parser)
		htmlFreeParserCtxt(h->parser);
	h->parser = NULL;
	drop_writer(h);
}

static void wstart(struct conv *c, const char *name)
{
	if (xmlTextWriterStartElement(c->w, BAD_CAST name) < 0)
		c->bad = 1;
}

static void wend(struct conv *c)
{
	if (xmlTextWriterEndElement(c->w) < 0)
		c->bad = 1;
}

static void wattr(struct conv *c, const char *name, const char *value)
{
	if (xmlTextWriterWriteAttribute(c->w, BAD_CAST name, BAD_CAST value) < 0)
		c->bad = 1;
}

/* The N bytes of S as text (escaped as xmlTextWriterWriteString does). */
static void wtext(struct conv *c, const char *s, size_t n)
{
	struct qb_buf *b = &c->h->out;

	if (!n)
		return;
	if (s[n] != '\0') {
		qb_buf_clear(b);
		if (qb_buf_add(b, s, n) || qb_buf_grow(b, 0)) {
			c->bad = 1;
			return;
		}
		s = b->ptr;
	}
	if (qb_xw_write_text(c->w, s) != 0)
		c->bad = 1;
}

static int blank(const char *s)
{
	for (; *s; s++)
		if (!strchr(" \t\n\r", *s))
			return 0;
	return 1;
}

/* Text with TeX: \( \) inline, \[ \] and $$ $$ display math become <math>;
 * an opener without its closer stays text. Each delimiter's next opener
 * and closer are searched for again only once the text has passed them,
 * so a long text costs one pass per delimiter. */
static void tex_text(struct conv *c, const char *s)
{
	static const struct { const char *open, *close; int display; } delim[] = {
		{ "\\(", "\\)", 0 }, { "\\[", "\\]", 1 }, { "$$", "$$", 1 },
	};
	enum { N = sizeof(delim) / sizeof(delim[0]) };
	const char *o[N], *e[N];
	int dead[N];
	size_t i, k;

	for (i = 0; i < N; i++) {
		o[i] = e[i] = NULL;
		dead[i] = 0;
	}
	while (*s) {
		k = N;
		for (i = 0; i < N; i++) {
			if (dead[i])
				continue;
			if (!o[i] || o[i] < s) {
				o[i] = strstr(s, delim[i].open);
				e[i] = o[i] ? strstr(o[i] + 2, delim[i].close) : NULL;
				if (!e[i]) {
					/* no closer after this opener: none after a later one */
					dead[i] = 1;
					continue;
				}
			}
			if (k == N || o[i] < o[k])
				k = i;
		}
		if (k == N) {
			wtext(c, s, strlen(s));
			return;
		}
		wtext(c, s, (size_t)(o[k] - s));
		wstart(c, "math");
		if (delim[k].display)
			wattr(c, "display", "block");
		wtext(c, o[k] + 2, (size_t)(e[k] - o[k] - 2));
		wend(c);
		s = e[k] + 2;
	}
}

static void content_text(struct conv *c, const xmlNode *n)
{
	xmlChar *t = xmlNodeGetContent((xmlNodePtr)n);

	if (t)
		wtext(c, (const char *)t, strlen((const char *)t));
	else
		c->h->oom = 1;
	xmlFree(t);
}

/* Attributes that carry nothing the bank would show differently: the
 * editor's text direction and left alignment, a language, a class. */
static int attrs_matter(const xmlNode *n)
{
	const xmlAttr *a;

	for (a = n->properties; a; a = a->next) {
		const char *name = (const char *)a->name;
		xmlChar *v;
		int ok;

		if (!strcmp(name, "dir") || !strcmp(name, "lang") || !strcmp(name, "class") ||
		    !strcmp(name, "id"))
			continue;
		if (strcmp(name, "style") != 0)
			return 1;
		v = xmlNodeGetContent((xmlNodePtr)a);
		ok = v && (blank((const char *)v) ||
			   strcmp((const char *)v, "text-align: left;") == 0 ||
			   strcmp((const char *)v, "text-align: left") == 0);
		xmlFree(v);
		if (!ok)
			return 1;
	}
	return 0;
}

static void walk(struct conv *c, const xmlNode *first, enum where at, int depth);

static void drop_attrs(struct conv *c, const xmlNode *n)
{
	char what[64];

	if (attrs_matter(n)) {
		snprintf(what, sizeof(what), "%.20s attributes", (const char *)n->name);
		qb_imp_html_drop(c->h, what);
	}
}

static void image(struct conv *c, const xmlNode *n)
{
	xmlChar *src = xmlGetProp(n, BAD_CAST "src"), *alt = xmlGetProp(n, BAD_CAST "alt");
	xmlChar *width = xmlGetProp(n, BAD_CAST "width");
	const char *why = "it has no src";
	const char *to = src && c->h->img ? c->h->img(c->h->img_ctx, (const char *)src, &why) : NULL;
	char what[160];

	if (to) {
		wstart(c, "img");
		wattr(c, "src", to);
		wattr(c, "alt", alt ? (const char *)alt : "");
		if (width && width[0] && strspn((const char *)width, "0123456789") ==
		    strlen((const char *)width) && strspn((const char *)width, "0") < strlen((const char *)width))
			wattr(c, "width", (const char *)width);
		wend(c);
	} else {
		snprintf(what, sizeof(what), "img (%s)", why ? why : "not kept");
		qb_imp_html_drop(c->h, what);
		if (alt)
			wtext(c, (const char *)alt, strlen((const char *)alt));
	}
	xmlFree(src);
	xmlFree(alt);
	xmlFree(width);
}

/* A list: each li as the bank's li; anything else between them goes into
 * an li of its own (white space is dropped). */
static void list(struct conv *c, const xmlNode *n, const char *name, int depth)
{
	const xmlNode *k;

	wstart(c, name);
	for (k = n->children; k; k = k->next) {
		if (k->type == XML_TEXT_NODE && blank((const char *)k->content)) {
			wtext(c, (const char *)k->content, strlen((const char *)k->content));
			continue;
		}
		wstart(c, "li");
		if (k->type == XML_ELEMENT_NODE && !strcmp((const char *)k->name, "li")) {
			drop_attrs(c, k);
			walk(c, k->children, W_LI, depth + 1);
		} else {
			const xmlNode *next = k->next;

			/* walk this one node alone */
			((xmlNode *)k)->next = NULL;
			walk(c, k, W_LI, depth + 1);
			((xmlNode *)k)->next = (xmlNode *)next;
		}
		wend(c);
	}
	wend(c);
}

static void element(struct conv *c, const xmlNode *n, enum where at, int depth, int *para)
{
	const struct row *r = bsearch(n->name, rows, sizeof(rows) / sizeof(rows[0]), sizeof(rows[0]),
				      row_cmp);
	enum action act = r ? r->act : A_TEXT;
	char what[64];

	if (depth >= QB_IMP_HTML_DEPTH) {
		qb_imp_html_drop(c->h, "markup nested deeper than 48 levels");
		content_text(c, n);
		return;
	}
	if (act != A_IMG && act != A_SKIP && act != A_TEXT)
		drop_attrs(c, n);
	/* a paragraph break where paragraphs cannot be: a line break */
	if ((act == A_P || act == A_HEADING || act == A_LIST || act == A_PRE) && at != W_BLOCK &&
	    *para && !(act == A_LIST && at == W_LI)) {
		wstart(c, "br");
		wend(c);
	}
	switch (act) {
	case A_INLINE:
		wstart(c, r->bank);
		walk(c, n->children, W_INLINE, depth + 1);
		wend(c);
		break;
	case A_CODE:
		wstart(c, "code");
		content_text(c, n);
		wend(c);
		break;
	case A_BR:
		wstart(c, "br");
		wend(c);
		break;
	case A_P:
	case A_HEADING:
		if (act == A_HEADING) {
			qb_imp_html_drop(c->h, (const char *)n->name);
		}
		if (at == W_BLOCK)
			wstart(c, "p");
		if (act == A_HEADING)
			wstart(c, "strong");
		walk(c, n->children, W_INLINE, depth + 1);
		if (act == A_HEADING)
			wend(c);
		if (at == W_BLOCK)
			wend(c);
		*para = 1;
		break;
	case A_PRE:
		if (at == W_BLOCK) {
			xmlChar *cls = xmlGetProp(n, BAD_CAST "class");

			wstart(c, "pre");
			if (cls && strncmp((const char *)cls, "language-", 9) == 0 && cls[9] &&
			    !strpbrk((const char *)cls + 9, " \t\n"))
				wattr(c, "lang", (const char *)cls + 9);
			xmlFree(cls);
			content_text(c, n);
			wend(c);
		} else {
			wstart(c, "code");
			content_text(c, n);
			wend(c);
		}
		*para = 1;
		break;
	case A_LIST:
		if (at == W_INLINE) {
			snprintf(what, sizeof(what), "%s (a list where only inline text can be)",
				 (const char *)n->name);
			qb_imp_html_drop(c->h, what);
			walk(c, n->children, W_INLINE, depth + 1);
		} else {
			list(c, n, r->bank, depth);
		}
		*para = 1;
		break;
	case A_LI:
		/* an li outside a list: its text, on a line of its own */
		if (*para) {
			wstart(c, "br");
			wend(c);
		}
		walk(c, n->children, at == W_BLOCK ? W_INLINE : at, depth + 1);
		*para = 1;
		break;
	case A_IMG:
		image(c, n);
		break;
	case A_PASS:
		walk(c, n->children, at, depth + 1);
		break;
	case A_TEXT:
		qb_imp_html_drop(c->h, (const char *)n->name);
		walk(c, n->children, at == W_BLOCK ? W_INLINE : at, depth + 1);
		break;
	case A_SKIP:
		qb_imp_html_drop(c->h, (const char *)n->name);
		break;
	}
}

static void walk(struct conv *c, const xmlNode *first, enum where at, int depth)
{
	const xmlNode *n;
	int para = 0;

	for (n = first; n && !c->bad; n = n->next) {
		if (n->type == XML_TEXT_NODE || n->type == XML_CDATA_SECTION_NODE) {
			if (at == W_BLOCK && blank((const char *)n->content)) {
				/* kept between blocks (the field is trimmed at its ends) */
				wtext(c, (const char *)n->content, strlen((const char *)n->content));
				continue;
			}
			if (para && at != W_BLOCK && !blank((const char *)n->content)) {
				wstart(c, "br");
				wend(c);
				para = 0;
			}
			tex_text(c, (const char *)n->content);
		} else if (n->type == XML_ELEMENT_NODE) {
			element(c, n, at, depth, &para);
		}
	}
}

/* The one <p> a whole text may be (the editor's and qbank's own Moodle
 * export's wrapper), or NULL. */
static const xmlNode *lone_paragraph(const xmlNode *first)
{
	const xmlNode *n, *p = NULL;

	for (n = first; n; n = n->next) {
		if ((n->type == XML_TEXT_NODE && blank((const char *)n->content)) ||
		    (n->type != XML_TEXT_NODE && n->type != XML_ELEMENT_NODE &&
		     n->type != XML_CDATA_SECTION_NODE))
			continue;
		if (p || n->type != XML_ELEMENT_NODE || strcmp((const char *)n->name, "p") != 0 ||
		    attrs_matter(n))
			return NULL;
		p = n;
	}
	return p;
}

/* Runs FN between <x> and </x> on a fresh writer and copies what is
 * between them into ARENA. */
static const char *convert(struct qb_imp_html *h, struct qb_arena *arena, const xmlNode *first,
			   const char *plain, int block)
{
	struct conv c = { h, NULL, 0 };
	xmlBufferPtr buf;
	const char *s, *out = NULL;
	size_t len;

	if (!h->writer) {
		h->wbuf = xmlBufferCreate();
		h->writer = h->wbuf ? xmlNewTextWriterMemory(h->wbuf, 0) : NULL;
		if (!h->writer) {
			drop_writer(h);
			h->oom = 1;
			return NULL;
		}
	}
	buf = h->wbuf;
	c.w = h->writer;
	xmlBufferEmpty(buf);
	wstart(&c, "x");
	if (plain) {
		wtext(&c, plain, strlen(plain));
	} else {
		const xmlNode *p = block ? lone_paragraph(first) : NULL;

		if (p) {
			drop_attrs(&c, p);
			walk(&c, p->children, W_INLINE, 1);
		} else {
			walk(&c, first, block ? W_BLOCK : W_INLINE, 0);
		}
	}
	if (xmlTextWriterEndElement(c.w) < 0 || xmlTextWriterFlush(c.w) < 0)
		c.bad = 1;
	s = (const char *)xmlBufferContent(buf);
	len = s ? strlen(s) : 0;
	if (c.bad || len < 4) {
		h->oom = 1;
	} else if (strcmp(s, "<x/>") == 0) {
		out = qb_arena_strndup(arena, "", 0);
	} else {
		out = qb_arena_strndup(arena, s + 3, len - 7);   /* <x> ... </x> */
	}
	if (!out)
		h->oom = 1;
	if (c.bad)
		drop_writer(h);   /* elements may be left open in it */
	return out;
}

static int has_tex(const char *s)
{
	return strstr(s, "\\(") || strstr(s, "\\[") || strstr(s, "$$");
}

static int has_markup_chars(const char *s)
{
	return strpbrk(s, "<&") || has_tex(s);
}

/* The first node of the text: the children of the implied body. */
static const xmlNode *body_of(htmlDocPtr doc)
{
	const xmlNode *n = xmlDocGetRootElement(doc), *c;

	if (!n || strcmp((const char *)n->name, "html") != 0)
		return doc->children;
	for (c = n->children; c; c = c->next)
		if (c->type == XML_ELEMENT_NODE && strcmp((const char *)c->name, "body") == 0)
			return c->children;
	return n->children;
}

/* HTML the parser gave up on (libxml2 stops at 256 levels of nesting and
 * drops the rest): its text, every tag left out, so that nothing of the
 * text is lost; entities stay as written. */
static const char *tags_out(struct qb_imp_html *h, struct qb_arena *arena, const char *html)
{
	struct qb_buf b = QB_BUF_INIT;
	const char *p, *out;

	for (p = html; *p && !h->oom; p++) {
		if (*p == '<') {
			const char *e = strchr(p, '>');

			if (!e)
				break;
			p = e;
			continue;
		}
		h->oom |= qb_buf_addc(&b, *p) != 0;
	}
	out = h->oom ? NULL : qb_imp_plain_rich(h, arena, b.ptr ? b.ptr : "");
	qb_buf_dispose(&b);
	return out;
}

/* The text of HTML when HTML is "<p>TEXT</p>", TEXT is not blank and
 * holds nothing the parser or the writer would change ('<', '&', '>',
 * '"', CR; the caller has seen no TeX delimiter): in a block context its
 * conversion is TEXT itself (a lone paragraph is written without its
 * <p>, and the text needs no escape), so it is taken without a parse.
 * The editor and qbank's own Moodle export write most stems and feedback
 * so. Sets *N; NULL for any other HTML. A unit test (check_import.c)
 * holds it to the parse's result. */
static const char *plain_paragraph(const char *html, size_t len, size_t *n)
{
	const char *t = html + 3;

	if (len < 8 || memcmp(html, "<p>", 3) != 0 || memcmp(html + len - 4, "</p>", 4) != 0)
		return NULL;
	*n = len - 7;
	/* both scans stop at the '<' of "</p>" at the latest */
	return strcspn(t, "<&>\"\r") == *n && strspn(t, " \t\n") < *n ? t : NULL;
}

const char *qb_imp_html_rich(struct qb_imp_html *h, struct qb_arena *arena, const char *html,
			     int block)
{
	htmlParserCtxtPtr ctxt;
	htmlDocPtr doc;
	const char *out, *text;
	size_t len = strlen(html), n;
	int gave_up;

	if (!has_markup_chars(html))
		return qb_imp_plain_rich(h, arena, html);
	if (block && !has_tex(html) && (text = plain_paragraph(html, len, &n)) != NULL) {
		if (!(out = qb_arena_strndup(arena, text, n)))
			h->oom = 1;
		return out;
	}
	if (len > (size_t)INT32_MAX)
		len = (size_t)INT32_MAX;
	if (!h->parser && !(h->parser = htmlNewParserCtxt())) {
		h->oom = 1;
		return NULL;
	}
	ctxt = h->parser;
	/* with the implied html and body: without them libxml2 2.9 nests what
	 * follows a paragraph inside it */
	doc = htmlCtxtReadMemory(ctxt, html, (int)len, NULL, "UTF-8",
				 HTML_PARSE_NONET | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING);
	gave_up = ctxt->disableSAX || ctxt->errNo == XML_ERR_INTERNAL_ERROR;
	if (!doc || gave_up) {
		xmlFreeDoc(doc);
		qb_imp_html_drop(h, "markup the HTML parser could not read (nested too deep)");
		return tags_out(h, arena, html);
	}
	out = convert(h, arena, body_of(doc), NULL, block);
	xmlFreeDoc(doc);
	return out;
}

const char *qb_imp_plain_rich(struct qb_imp_html *h, struct qb_arena *arena, const char *text)
{
	if (!strpbrk(text, "<&>\r")) {
		const char *d = qb_arena_strndup(arena, text, strlen(text));

		if (!d)
			h->oom = 1;
		return d;
	}
	return convert(h, arena, NULL, text, 0);
}
