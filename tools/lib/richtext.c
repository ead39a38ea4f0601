#include "richtext.h"

#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "text.h"
#include "xmlw.h"

/* Elements that map to an HTML element of the same name. */
static const char *const same_name[] = {
	"em", "li", "ol", "p", "strong", "sub", "sup", "ul", NULL
};

static int is_same_name(const char *name)
{
	int i;

	for (i = 0; same_name[i]; i++)
		if (strcmp(name, same_name[i]) == 0)
			return 1;
	return 0;
}

static int text_of(xmlTextWriterPtr w, const xmlNode *n)
{
	const xmlNode *c;

	for (c = n->children; c; c = c->next)
		if ((c->type == XML_TEXT_NODE || c->type == XML_CDATA_SECTION_NODE) && c->content)
			if (qb_xw_write_text(w, (const char *)c->content))
				return QB_EIO;
	return 0;
}

static int write_math(xmlTextWriterPtr w, const xmlNode *n, const struct qb_rich_opts *o)
{
	const char *display = qb_text_attr(n, "display");
	int block = display && strcmp(display, "block") == 0;
	int rc = 0;

	if (o->math == QB_MATH_TEX_SPAN) {
		if (xmlTextWriterStartElement(w, BAD_CAST(block ? "div" : "span")) < 0 ||
		    xmlTextWriterWriteAttribute(w, BAD_CAST "class", BAD_CAST "math") < 0)
			return QB_EIO;
	}
	if (xmlTextWriterWriteString(w, BAD_CAST(block ? "\\[" : "\\(")) < 0)
		return QB_EIO;
	rc = text_of(w, n);
	if (!rc && xmlTextWriterWriteString(w, BAD_CAST(block ? "\\]" : "\\)")) < 0)
		rc = QB_EIO;
	if (!rc && o->math == QB_MATH_TEX_SPAN && xmlTextWriterEndElement(w) < 0)
		rc = QB_EIO;
	return rc;
}

static int write_children(xmlTextWriterPtr w, const xmlNode *n, const struct qb_rich_opts *o,
			  int depth);

static int write_element(xmlTextWriterPtr w, const xmlNode *c, const struct qb_rich_opts *o,
			 int depth)
{
	const char *name = (const char *)c->name;
	const char *v;
	int rc = 0;

	if (strcmp(name, "math") == 0)
		return write_math(w, c, o);
	if (strcmp(name, "br") == 0)
		return xmlTextWriterStartElement(w, BAD_CAST "br") < 0 ||
		       xmlTextWriterEndElement(w) < 0 ? QB_EIO : 0;
	if (strcmp(name, "img") == 0) {
		const char *src = qb_text_attr(c, "src");

		if (src && o->img_src)
			src = o->img_src(o->img_ctx, src);
		if (xmlTextWriterStartElement(w, BAD_CAST "img") < 0 ||
		    xmlTextWriterWriteAttribute(w, BAD_CAST "src", BAD_CAST(src ? src : "")) < 0 ||
		    xmlTextWriterWriteAttribute(w, BAD_CAST "alt", BAD_CAST(qb_text_attr(c, "alt") ? qb_text_attr(c, "alt") : "")) < 0)
			return QB_EIO;
		if ((v = qb_text_attr(c, "width")) && xmlTextWriterWriteAttribute(w, BAD_CAST "width", BAD_CAST v) < 0)
			return QB_EIO;
		return xmlTextWriterEndElement(w) < 0 ? QB_EIO : 0;
	}
	if (strcmp(name, "code") == 0) {
		if (xmlTextWriterStartElement(w, BAD_CAST "code") < 0)
			return QB_EIO;
		rc = text_of(w, c);
		return rc ? rc : (xmlTextWriterEndElement(w) < 0 ? QB_EIO : 0);
	}
	if (strcmp(name, "pre") == 0) {
		if (xmlTextWriterStartElement(w, BAD_CAST "pre") < 0)
			return QB_EIO;
		if ((v = qb_text_attr(c, "lang")) && v[0]) {
			char cls[160];

			snprintf(cls, sizeof(cls), "language-%s", v);
			if (xmlTextWriterWriteAttribute(w, BAD_CAST "class", BAD_CAST cls) < 0)
				return QB_EIO;
		}
		rc = text_of(w, c);
		return rc ? rc : (xmlTextWriterEndElement(w) < 0 ? QB_EIO : 0);
	}
	if (is_same_name(name)) {
		if (xmlTextWriterStartElement(w, BAD_CAST name) < 0)
			return QB_EIO;
		rc = write_children(w, c, o, depth + 1);
		return rc ? rc : (xmlTextWriterEndElement(w) < 0 ? QB_EIO : 0);
	}
	/* Unknown markup cannot pass the schema; keep its text, drop the tag. */
	return write_children(w, c, o, depth + 1);
}

static int write_children(xmlTextWriterPtr w, const xmlNode *n, const struct qb_rich_opts *o,
			  int depth)
{
	const xmlNode *c;
	int rc = 0;

	if (depth > 256)
		return 0;
	for (c = n->children; c && !rc; c = c->next) {
		if (c->type == XML_TEXT_NODE || c->type == XML_CDATA_SECTION_NODE) {
			if (c->content && qb_xw_write_text(w, (const char *)c->content))
				rc = QB_EIO;
		} else if (c->type == XML_ELEMENT_NODE) {
			rc = write_element(w, c, o, depth);
		}
	}
	return rc;
}

int qb_rich_write(xmlTextWriterPtr w, const xmlNode *n, const struct qb_rich_opts *o)
{
	static const struct qb_rich_opts dflt = { QB_MATH_TEX, NULL, NULL, NULL };

	if (!n)
		return 0;
	return write_children(w, n, o ? o : &dflt, 0);
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

int qb_rich_html_new(struct qb_rich_html **out)
{
	struct qb_rich_html *r = calloc(1, sizeof(*r));
	int rc;

	*out = NULL;
	if (!r)
		return QB_ENOMEM;
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
	if (o && o->wrap && xmlTextWriterStartElement(r->w, BAD_CAST o->wrap) < 0)
		rc = QB_EIO;
	if (!rc)
		rc = qb_rich_write(r->w, n, o);
	if (!rc && o && o->wrap && xmlTextWriterEndElement(r->w) < 0)
		rc = QB_EIO;
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
	struct qb_rich_html r = { NULL, NULL };
	int rc = html_open(&r);

	if (!rc)
		rc = qb_rich_html_render(&r, out, n, o);
	html_close(&r);
	return rc;
}

int qb_rich_has_blocks(const xmlNode *n)
{
	const xmlNode *c;

	for (c = n ? n->children : NULL; c; c = c->next) {
		if (c->type != XML_ELEMENT_NODE)
			continue;
		if (!strcmp((const char *)c->name, "p") || !strcmp((const char *)c->name, "pre") ||
		    !strcmp((const char *)c->name, "ul") || !strcmp((const char *)c->name, "ol"))
			return 1;
		if (!strcmp((const char *)c->name, "math")) {
			const char *d = qb_text_attr(c, "display");

			if (d && !strcmp(d, "block"))
				return 1;
		}
	}
	return 0;
}
