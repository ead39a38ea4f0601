#include "richtext.h"

#include <string.h>

#include "error.h"
#include "text.h"

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
			if (xmlTextWriterWriteString(w, c->content) < 0)
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
			if (c->content && xmlTextWriterWriteString(w, c->content) < 0)
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

int qb_rich_to_html(struct qb_buf *out, const xmlNode *n, const struct qb_rich_opts *o)
{
	xmlBufferPtr buf = xmlBufferCreate();
	xmlTextWriterPtr w;
	int rc;

	if (!buf)
		return QB_ENOMEM;
	w = xmlNewTextWriterMemory(buf, 0);
	if (!w) {
		xmlBufferFree(buf);
		return QB_ENOMEM;
	}
	/* xmlTextWriter escapes text only inside an open element: wrap, then strip. */
	rc = xmlTextWriterStartElement(w, BAD_CAST "r") < 0 ? QB_EIO : 0;
	if (!rc && o && o->wrap && xmlTextWriterStartElement(w, BAD_CAST o->wrap) < 0)
		rc = QB_EIO;
	if (!rc)
		rc = qb_rich_write(w, n, o);
	if (!rc && o && o->wrap && xmlTextWriterEndElement(w) < 0)
		rc = QB_EIO;
	if (!rc && (xmlTextWriterEndElement(w) < 0 || xmlTextWriterFlush(w) < 0))
		rc = QB_EIO;
	xmlFreeTextWriter(w);
	if (!rc) {
		const char *s = (const char *)xmlBufferContent(buf);
		size_t len = (size_t)xmlBufferLength(buf);

		if (len >= 7 && strncmp(s, "<r>", 3) == 0)
			rc = qb_buf_add(out, s + 3, len - 7);
	}
	xmlBufferFree(buf);
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
