#include "richtext.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "text.h"
#include "xmlw.h"

/* One walk: the writer (its tags written by xmlw.h into the element its
 * libxml2 writer has open), the options, how deep it is. */
struct walk {
	struct qb_xw *x;
	const struct qb_rich_opts *o;
	int depth;
};

struct elem;
/* Writes element N of the table row E. IN_INLINE: an element N sits in
 * (in this text, or the one the caller has open) takes inline content
 * only. */
typedef int (*write_fn)(struct walk *k, const xmlNode *n, const struct elem *e, int in_inline);

#define BLOCK 1u    /* a block: qb_rich_has_blocks */
#define INLINE 2u   /* its (X)HTML content is inline only */

static int w_same(struct walk *k, const xmlNode *n, const struct elem *e, int in_inline);
static int w_empty(struct walk *k, const xmlNode *n, const struct elem *e, int in_inline);
static int w_text(struct walk *k, const xmlNode *n, const struct elem *e, int in_inline);
static int w_pre(struct walk *k, const xmlNode *n, const struct elem *e, int in_inline);
static int w_img(struct walk *k, const xmlNode *n, const struct elem *e, int in_inline);
static int w_math(struct walk *k, const xmlNode *n, const struct elem *e, int in_inline);

/* The markup (DESIGN.md "Rich text"). Each element becomes the HTML
 * element of the same name; the write function says what goes inside. */
static const struct elem {
	const char *name;
	write_fn write;
	unsigned flags;
} elems[] = {
	{ "br", w_empty, 0 },
	{ "code", w_text, 0 },
	{ "em", w_same, INLINE },
	{ "img", w_img, 0 },
	{ "li", w_same, 0 },
	{ "math", w_math, 0 },
	{ "ol", w_same, BLOCK },
	{ "p", w_same, BLOCK | INLINE },
	{ "pre", w_pre, BLOCK },
	{ "strong", w_same, INLINE },
	{ "sub", w_same, INLINE },
	{ "sup", w_same, INLINE },
	{ "ul", w_same, BLOCK },
};

static const struct elem *elem_of(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(elems) / sizeof(elems[0]); i++)
		if (strcmp(name, elems[i].name) == 0)
			return &elems[i];
	return NULL;
}

static int is_text(const xmlNode *c)
{
	return (c->type == XML_TEXT_NODE || c->type == XML_CDATA_SECTION_NODE) && c->content;
}

/* The text children of N, the content of code, pre and math. */
static int text_of(struct qb_xw *x, const xmlNode *n)
{
	const xmlNode *c;

	for (c = n->children; c && !x->rc; c = c->next)
		if (is_text(c))
			qb_xw_text(x, (const char *)c->content);
	return x->rc;
}

static int write_children(struct walk *k, const xmlNode *n, int in_inline)
{
	const xmlNode *c;
	const struct elem *e;
	int rc = 0;

	if (k->depth > 256)
		return 0;
	for (c = n->children; c && !rc; c = c->next) {
		if (is_text(c)) {
			rc = qb_xw_text(k->x, (const char *)c->content);
		} else if (c->type == XML_ELEMENT_NODE) {
			e = elem_of((const char *)c->name);
			if (e) {
				rc = e->write(k, c, e, in_inline);
			} else {
				/* Unknown markup cannot pass the schema; keep its text, drop the tag. */
				k->depth++;
				rc = write_children(k, c, in_inline);
				k->depth--;
			}
		}
	}
	return rc;
}

/* Ends the element E opened: with an end tag even when it is empty, in
 * HTML syntax (br and img, HTML's void elements, go through w_empty and
 * w_img). */
static int end_elem(struct walk *k)
{
	return k->o->html_syntax ? qb_xw_end_full(k->x) : qb_xw_end_mixed(k->x);
}

static int w_same(struct walk *k, const xmlNode *n, const struct elem *e, int in_inline)
{
	int rc;

	if (qb_xw_start_inline(k->x, e->name))
		return k->x->rc;
	k->depth++;
	rc = write_children(k, n, in_inline || (e->flags & INLINE));
	k->depth--;
	return rc ? rc : end_elem(k);
}

static int w_empty(struct walk *k, const xmlNode *n, const struct elem *e, int in_inline)
{
	(void)n;
	(void)in_inline;
	qb_xw_start_inline(k->x, e->name);
	return qb_xw_end_mixed(k->x);
}

static int w_text(struct walk *k, const xmlNode *n, const struct elem *e, int in_inline)
{
	int rc;

	(void)in_inline;
	if (qb_xw_start_inline(k->x, e->name))
		return k->x->rc;
	rc = text_of(k->x, n);
	return rc ? rc : end_elem(k);
}

/* <pre class="language-LANG"> for a pre with a lang. */
static int w_pre(struct walk *k, const xmlNode *n, const struct elem *e, int in_inline)
{
	const char *lang = qb_text_attr(n, "lang");
	int rc;

	(void)in_inline;
	qb_xw_start_inline(k->x, e->name);
	if (lang && lang[0]) {
		char cls[160];

		snprintf(cls, sizeof(cls), "language-%s", lang);
		qb_xw_attr(k->x, "class", cls);
	}
	if (k->x->rc)
		return k->x->rc;
	rc = text_of(k->x, n);
	return rc ? rc : end_elem(k);
}

/* src (mapped by the options), alt, and width when given. */
static int w_img(struct walk *k, const xmlNode *n, const struct elem *e, int in_inline)
{
	const char *src = qb_text_attr(n, "src"), *alt = qb_text_attr(n, "alt");
	const char *width = qb_text_attr(n, "width");

	(void)in_inline;
	if (src && k->o->img_src)
		src = k->o->img_src(k->o->img_ctx, src);
	qb_xw_start_inline(k->x, e->name);
	qb_xw_attr(k->x, "src", src ? src : "");
	qb_xw_attr(k->x, "alt", alt ? alt : "");
	if (width)
		qb_xw_attr(k->x, "width", width);
	return qb_xw_end_mixed(k->x);
}

/* TeX between \( \) or \[ \], in a span or div with QB_MATH_TEX_SPAN
 * (richtext.h says when display math takes a span). */
static int w_math(struct walk *k, const xmlNode *n, const struct elem *e, int in_inline)
{
	int block = qb_rich_is_display_math(n);
	int wrap = k->o->math == QB_MATH_TEX_SPAN;
	int rc;

	(void)e;
	if (k->o->math == QB_MATH_MATHML) {
		xmlTextWriterPtr w = qb_xw_writer(k->x);

		if (k->x->rc)
			return k->x->rc;
		return k->o->math_ml ? k->o->math_ml(k->o->math_ctx, w, n) : QB_EINVAL;
	}
	if (wrap) {
		qb_xw_start_inline(k->x, block && !in_inline ? "div" : "span");
		qb_xw_attr(k->x, "class", "math");
	}
	if (qb_xw_text(k->x, block ? "\\[" : "\\("))
		return k->x->rc;
	rc = text_of(k->x, n);
	if (!rc)
		rc = qb_xw_text(k->x, block ? "\\]" : "\\)");
	if (!rc && wrap)
		rc = end_elem(k);
	return rc;
}

/* IN_INLINE: the element X's writer has open takes inline content only. */
static int write_rich(struct qb_xw *x, const xmlNode *n, const struct qb_rich_opts *o,
		      int in_inline)
{
	static const struct qb_rich_opts dflt = { QB_MATH_TEX, NULL, NULL, NULL, 0, NULL, NULL };
	struct walk k;

	if (!n)
		return 0;
	k.x = x;
	k.o = o ? o : &dflt;
	k.depth = 0;
	return write_children(&k, n, in_inline);
}

int qb_rich_write(xmlTextWriterPtr w, const xmlNode *n, const struct qb_rich_opts *o)
{
	struct qb_xw x;
	int rc;

	/* W's document declares no encoding (the HTML page's does not) */
	qb_xw_attach(&x, w, 0);
	rc = write_rich(&x, n, o, 0);
	return qb_xw_sync(&x) ? x.rc : rc;
}

int qb_rich_write_into(struct qb_xw *x, const xmlNode *n, const struct qb_rich_opts *o)
{
	int rc = write_rich(x, n, o, 0);

	return x->rc ? x->rc : rc;
}

/* ---- a renderer for many fields ------------------------------------------ */

/* The writer keeps one element, <r>, open for its whole life, with its
 * start tag already closed: libxml2 escapes text only inside an element,
 * and a field's bytes are then exactly what lies between <r> and </r> in
 * qb_rich_to_html. After a failure the writer's state is unknown: it is
 * dropped and made again for the next field. */
struct qb_rich_html {
	xmlBufferPtr buf;
	xmlTextWriterPtr w;
	int utf8;
	struct qb_xw x;    /* attached to w for each field */
};

static void html_close(struct qb_rich_html *r)
{
	if (r->w)
		xmlFreeTextWriter(r->w);
	if (r->buf)
		xmlBufferFree(r->buf);
	r->w = NULL;
	r->buf = NULL;
}

static int html_open(struct qb_rich_html *r)
{
	if (!(r->buf = xmlBufferCreate()) || !(r->w = xmlNewTextWriterMemory(r->buf, 0))) {
		html_close(r);
		return QB_ENOMEM;
	}
	/* a document declared UTF-8 (its declaration dropped): libxml2 then
	 * keeps non-ASCII characters of attribute values as they are */
	if (r->utf8 && (xmlTextWriterStartDocument(r->w, NULL, "UTF-8", NULL) < 0 ||
			xmlTextWriterFlush(r->w) < 0)) {
		html_close(r);
		return QB_EIO;
	}
	xmlBufferEmpty(r->buf);
	/* an empty raw write closes the start tag: "<r>" */
	if (xmlTextWriterStartElement(r->w, BAD_CAST "r") < 0 ||
	    xmlTextWriterWriteRawLen(r->w, BAD_CAST "", 0) < 0 || xmlTextWriterFlush(r->w) < 0 ||
	    xmlBufferLength(r->buf) != 3) {
		html_close(r);
		return QB_EIO;
	}
	xmlBufferEmpty(r->buf);
	return 0;
}

int qb_rich_html_new(struct qb_rich_html **out, int utf8)
{
	struct qb_rich_html *r = calloc(1, sizeof(*r));
	int rc;

	*out = NULL;
	if (!r)
		return QB_ENOMEM;
	r->utf8 = utf8;
	rc = html_open(r);
	if (rc) {
		free(r);
		return rc;
	}
	*out = r;
	return 0;
}

void qb_rich_html_free(struct qb_rich_html *r)
{
	if (!r)
		return;
	html_close(r);
	free(r);
}

int qb_rich_html_render(struct qb_rich_html *r, struct qb_buf *out, const xmlNode *n,
			const struct qb_rich_opts *o)
{
	int rc = r->w ? 0 : html_open(r);

	if (rc)
		return rc;
	qb_xw_attach(&r->x, r->w, r->utf8);
	if (o && o->wrap)
		rc = qb_xw_start_inline(&r->x, o->wrap);
	if (!rc) {
		const struct elem *e = o && o->wrap ? elem_of(o->wrap) : NULL;

		rc = write_rich(&r->x, n, o, e && (e->flags & INLINE));
	}
	if (!rc && o && o->wrap)
		rc = qb_xw_end_mixed(&r->x);
	if (!rc) {
		/* a field that fits the pending buffer (nearly all) never reaches
		 * the writer: its bytes are taken from there, as the writer would
		 * have passed them on (raw, as they are) */
		size_t len;
		const char *p = qb_xw_pending(&r->x, &len);

		if (p)
			return qb_buf_add(out, p, len);
		rc = qb_xw_sync(&r->x);
	}
	if (!rc && xmlTextWriterFlush(r->w) < 0)
		rc = QB_EIO;
	if (!rc)
		rc = qb_buf_add(out, xmlBufferContent(r->buf), (size_t)xmlBufferLength(r->buf));
	if (rc)
		html_close(r);
	else
		xmlBufferEmpty(r->buf);
	return rc;
}

int qb_rich_to_html(struct qb_buf *out, const xmlNode *n, const struct qb_rich_opts *o)
{
	struct qb_rich_html r;
	int rc;

	r.buf = NULL;
	r.w = NULL;
	r.utf8 = 0;
	rc = html_open(&r);
	if (!rc)
		rc = qb_rich_html_render(&r, out, n, o);
	html_close(&r);
	return rc;
}

int qb_rich_has_blocks(const xmlNode *n)
{
	const xmlNode *c;
	const struct elem *e;

	for (c = n ? n->children : NULL; c; c = c->next) {
		if (c->type != XML_ELEMENT_NODE)
			continue;
		e = elem_of((const char *)c->name);
		if ((e && (e->flags & BLOCK)) || qb_rich_is_display_math(c))
			return 1;
	}
	return 0;
}

int qb_rich_is_display_math(const xmlNode *n)
{
	const char *d;

	if (n->type != XML_ELEMENT_NODE || strcmp((const char *)n->name, "math") != 0)
		return 0;
	d = qb_text_attr(n, "display");
	return d && strcmp(d, "block") == 0;
}

int qb_rich_text(struct qb_buf *out, const xmlNode *n)
{
	const xmlNode *c;
	int rc = 0;

	for (c = n->children; c && !rc; c = c->next)
		if (is_text(c))
			rc = qb_buf_adds(out, (const char *)c->content);
	return rc;
}

static int each_img(const xmlNode *n, int (*fn)(void *ctx, const xmlNode *img), void *ctx,
		    int depth)
{
	const xmlNode *c;
	int rc = 0;

	if (depth > 256)
		return 0;
	for (c = n->children; c && !rc; c = c->next) {
		if (c->type != XML_ELEMENT_NODE)
			continue;
		if (strcmp((const char *)c->name, "img") == 0)
			rc = fn(ctx, c);
		else
			rc = each_img(c, fn, ctx, depth + 1);
	}
	return rc;
}

int qb_rich_each_img(const xmlNode *n, int (*fn)(void *ctx, const xmlNode *img), void *ctx)
{
	return n ? each_img(n, fn, ctx, 0) : 0;
}
