/* Rich text in QTI's content model.
 *
 * Math stays TeX (QB_MATH_TEX_SPAN): \( ... \) in <span class="math">,
 * \[ ... \] in <div class="math">, for the delivery system's MathJax or
 * KaTeX. No TeX-to-MathML converter is among the project's dependencies
 * and a half-right MathML would be worse than TeX that every QTI player
 * can show as text and most typeset.
 *
 * QTI 2.1 gives p, span, em, strong, sub, sup, code and pre inline content
 * only (HTMLText.Type), while the bank allows display math anywhere inline
 * text goes, including inside a paragraph. qb_rich_write would put a div
 * there and the item would fail the schema, so such rich text is rendered
 * into a scratch tree first and copied out with those divs turned into
 * spans (still with \[ \], so the player still typesets it as display
 * math). Rich text without that case, nearly all of it, is written
 * directly. */
#include "qti_internal.h"

#include <string.h>

/* The bank's inline elements that can hold display math. */
static int bank_inline(const char *name)
{
	static const char *const names[] = { "em", "p", "strong", "sub", "sup", NULL };
	int i;

	for (i = 0; names[i]; i++)
		if (strcmp(name, names[i]) == 0)
			return 1;
	return 0;
}

/* The XHTML elements whose QTI content is inline only (HTMLText.Type). */
static int qti_inline(const char *name)
{
	static const char *const names[] = {
		"code", "em", "p", "pre", "span", "strong", "sub", "sup", NULL
	};
	int i;

	for (i = 0; names[i]; i++)
		if (strcmp(name, names[i]) == 0)
			return 1;
	return 0;
}

static int is_block_math(const xmlNode *n)
{
	xmlChar *d;
	int r;

	if (strcmp((const char *)n->name, "math") != 0)
		return 0;
	d = xmlGetNoNsProp(n, BAD_CAST "display");
	r = d && strcmp((const char *)d, "block") == 0;
	xmlFree(d);
	return r;
}

/* 1 when N holds display math nested inside bank inline markup. */
static int needs_fixup(const xmlNode *n, int in_inline, int depth)
{
	const xmlNode *c;

	if (depth > 256)
		return 0;
	for (c = n->children; c; c = c->next) {
		if (c->type != XML_ELEMENT_NODE)
			continue;
		if (in_inline && is_block_math(c))
			return 1;
		if (needs_fixup(c, in_inline || bank_inline((const char *)c->name), depth + 1))
			return 1;
	}
	return 0;
}

static int copy_children(xmlTextWriterPtr w, const xmlNode *n, int in_inline, int depth)
{
	const xmlNode *c;
	const xmlAttr *a;
	int rc = 0;

	if (depth > 256)
		return 0;
	for (c = n->children; c && !rc; c = c->next) {
		if (c->type == XML_TEXT_NODE || c->type == XML_CDATA_SECTION_NODE) {
			if (c->content && qb_xw_write_text(w, (const char *)c->content))
				rc = QB_EIO;
			continue;
		}
		if (c->type != XML_ELEMENT_NODE)
			continue;
		const char *name = (const char *)c->name;

		if (in_inline && strcmp(name, "div") == 0)
			name = "span";
		if (xmlTextWriterStartElement(w, BAD_CAST name) < 0)
			return QB_EIO;
		for (a = c->properties; a && !rc; a = a->next) {
			xmlChar *v = xmlNodeListGetString(c->doc, a->children, 1);

			if (xmlTextWriterWriteAttribute(w, a->name, v ? v : BAD_CAST "") < 0)
				rc = QB_EIO;
			xmlFree(v);
		}
		if (!rc)
			rc = copy_children(w, c, in_inline || qti_inline(name), depth + 1);
		if (!rc && xmlTextWriterEndElement(w) < 0)
			rc = QB_EIO;
	}
	return rc;
}

static int write_via_tree(xmlTextWriterPtr w, const xmlNode *n, const struct qb_rich_opts *o,
			  int in_inline)
{
	xmlDocPtr doc = NULL;
	xmlTextWriterPtr tw = xmlNewTextWriterDoc(&doc, 0);
	int rc = 0;

	if (!tw)
		return QB_ENOMEM;
	if (xmlTextWriterStartDocument(tw, NULL, "UTF-8", NULL) < 0 ||
	    xmlTextWriterStartElement(tw, BAD_CAST "r") < 0)
		rc = QB_EIO;
	if (!rc)
		rc = qb_rich_write(tw, n, o);
	if (!rc && (xmlTextWriterEndElement(tw) < 0 || xmlTextWriterEndDocument(tw) < 0))
		rc = QB_EIO;
	xmlFreeTextWriter(tw);
	if (!rc && (!doc || !xmlDocGetRootElement(doc)))
		rc = QB_EIO;
	if (!rc)
		rc = copy_children(w, xmlDocGetRootElement(doc), in_inline, 0);
	xmlFreeDoc(doc);
	return rc;
}

int qti_rich_write(xmlTextWriterPtr w, const xmlNode *n, const struct qb_rich_opts *o)
{
	if (!n)
		return 0;
	if (needs_fixup(n, 0, 0))
		return write_via_tree(w, n, o, 0);
	return qb_rich_write(w, n, o);
}
