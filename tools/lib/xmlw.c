#include "xmlw.h"

#include <stdint.h>
#include <string.h>

#include <libxml/tree.h>

#include "error.h"

/* ---- the pending bytes ---------------------------------------------------- */

int qb_xw_sync(struct qb_xw *x)
{
	x->synced = 1;
	if (x->npend && !x->rc && xmlTextWriterWriteRawLen(x->w, BAD_CAST x->pend, (int)x->npend) < 0)
		x->rc = QB_EIO;
	x->npend = 0;
	return x->rc;
}

static void put(struct qb_xw *x, const char *s, size_t n)
{
	if (x->rc)
		return;
	if (n > sizeof(x->pend) - x->npend) {
		qb_xw_sync(x);
		if (n > sizeof(x->pend)) {
			if (!x->rc && xmlTextWriterWriteRawLen(x->w, BAD_CAST s, (int)n) < 0)
				x->rc = QB_EIO;
			return;
		}
	}
	memcpy(x->pend + x->npend, s, n);
	x->npend += n;
}

static void puts_(struct qb_xw *x, const char *s)
{
	put(x, s, strlen(s));
}

/* Room for N more pending bytes (N < QB_XW_PEND), handing what is pending
 * to the writer first when it is short; NULL after an error. A tag is
 * assembled in it with one check instead of one put() per piece. */
static char *room(struct qb_xw *x, size_t n)
{
	char *p;

	if (x->rc)
		return NULL;
	if (n > sizeof(x->pend) - x->npend && qb_xw_sync(x))
		return NULL;
	p = x->pend + x->npend;
	x->npend += n;
	return p;
}

/* Content follows in the innermost element: its start tag gets its '>'. */
static void close_tag(struct qb_xw *x)
{
	char *p;

	if (x->open_tag) {
		x->open_tag = 0;
		if ((p = room(x, 1)))
			*p = '>';
	}
}

/* The innermost element's tag was written here (not by libxml2's writer). */
static int own(const struct qb_xw *x)
{
	return x->depth > 0 && x->names[x->depth][0];
}

/* ---- the document ---------------------------------------------------------- */

void qb_xw_init(struct qb_xw *x, xmlTextWriterPtr w)
{
	x->w = w;
	x->rc = 0;
	x->depth = 0;
	x->mixed = 0;
	x->kids[0] = 0;
	x->rename = NULL;
	x->names[0][0] = '\0';
	x->open_tag = 0;
	x->utf8 = 0;
	x->npend = 0;
	x->synced = 0;
}

const char *qb_xw_pending(const struct qb_xw *x, size_t *len)
{
	if (x->synced || x->rc)
		return NULL;
	*len = x->npend;
	return x->pend;
}

int qb_xw_begin(struct qb_xw *x, xmlTextWriterPtr w)
{
	qb_xw_init(x, w);
	x->utf8 = 1;
	x->synced = 1;
	if (xmlTextWriterStartDocument(w, NULL, "UTF-8", NULL) < 0)
		x->rc = QB_EIO;
	return x->rc;
}

void qb_xw_attach(struct qb_xw *x, xmlTextWriterPtr w, int utf8)
{
	qb_xw_init(x, w);
	x->mixed = 1;
	x->utf8 = utf8;
}

int qb_xw_finish(struct qb_xw *x)
{
	while (!x->rc && x->depth > 0)
		qb_xw_end(x);
	if (!qb_xw_sync(x) && (xmlTextWriterEndDocument(x->w) < 0 || xmlTextWriterFlush(x->w) < 0))
		x->rc = QB_EIO;
	return x->rc;
}

xmlTextWriterPtr qb_xw_writer(struct qb_xw *x)
{
	close_tag(x);
	qb_xw_sync(x);
	return x->w;
}

/* A line break and two spaces per level, outside mixed content. */
static void newline(struct qb_xw *x)
{
	static const char line[] = "\n                                                                ";
	size_t n = (size_t)x->depth * 2;

	if (n > sizeof(line) - 2)
		n = sizeof(line) - 2;
	close_tag(x);
	put(x, line, n + 1);
}

/* ---- elements -------------------------------------------------------------- */

/* Opens NAME: its tag written here, or on libxml2's writer (WRITER, or a
 * name too long to keep). */
static int start(struct qb_xw *x, const char *name, int writer)
{
	size_t n;

	if (x->rc)
		return x->rc;
	if (x->depth >= QB_XW_DEPTH - 1)
		return x->rc = QB_EINVAL;
	if (!x->mixed && x->depth > 0)
		newline(x);
	x->kids[x->depth] = 1;
	if (x->rename)
		name = x->rename(0, name);
	close_tag(x);
	n = strlen(name);
	x->depth++;
	x->kids[x->depth] = 0;
	if (!writer && n > 0 && n < QB_XW_NAME) {
		char *p = room(x, n + 1);

		memcpy(x->names[x->depth], name, n + 1);
		if (p) {
			p[0] = '<';
			memcpy(p + 1, name, n);
		}
		x->open_tag = 1;
	} else {
		x->names[x->depth][0] = '\0';
		if (!qb_xw_sync(x) && xmlTextWriterStartElement(x->w, BAD_CAST name) < 0)
			x->rc = QB_EIO;
	}
	return x->rc;
}

int qb_xw_start(struct qb_xw *x, const char *name)
{
	return start(x, name, 0);
}

/* The length of V when xmlAttrSerializeTxtContent leaves it as it is:
 * no control characters (it writes tabs and line breaks as character
 * references), none of " & < >, and outside a UTF-8 document no non-ASCII
 * character (written as character references there); else SIZE_MAX. */
static size_t plain_attr(const char *v, int utf8)
{
	const unsigned char *p;
	unsigned char top = utf8 ? 0xff : 0x7e;

	for (p = (const unsigned char *)v; *p; p++)
		if (*p < 0x20 || *p > top || *p == '"' || *p == '&' || *p == '<' || *p == '>')
			return SIZE_MAX;
	return (size_t)(p - (const unsigned char *)v);
}

int qb_xw_attr(struct qb_xw *x, const char *name, const char *value)
{
	xmlBufferPtr b;
	size_t n, v;
	char *p;

	if (x->rename)
		name = x->rename(1, name);
	if (x->rc)
		return x->rc;
	if (!own(x)) {
		if (!qb_xw_sync(x) && xmlTextWriterWriteAttribute(x->w, BAD_CAST name, BAD_CAST value) < 0)
			x->rc = QB_EIO;
		return x->rc;
	}
	if (!x->open_tag)
		return x->rc = QB_EIO;   /* after content: libxml2's writer refuses it too */
	n = strlen(name);
	v = plain_attr(value, x->utf8);
	if (v != SIZE_MAX && n + v + 4 < sizeof(x->pend)) {
		/* the whole attribute in one piece */
		if ((p = room(x, n + v + 4))) {
			p[0] = ' ';
			memcpy(p + 1, name, n);
			p[1 + n] = '=';
			p[2 + n] = '"';
			memcpy(p + 3 + n, value, v);
			p[3 + n + v] = '"';
		}
		return x->rc;
	}
	put(x, " ", 1);
	put(x, name, n);
	put(x, "=\"", 2);
	if (v != SIZE_MAX) {
		put(x, value, v);
	} else if (!(b = xmlBufferCreate())) {
		x->rc = QB_ENOMEM;
	} else {
		/* the document only says whether the output is UTF-8, as
		 * libxml2's writer says it after xmlTextWriterStartDocument */
		xmlDoc doc;

		memset(&doc, 0, sizeof doc);
		doc.encoding = x->utf8 ? BAD_CAST "UTF-8" : NULL;
		xmlAttrSerializeTxtContent(b, &doc, NULL, BAD_CAST value);
		put(x, (const char *)xmlBufferContent(b), (size_t)xmlBufferLength(b));
		xmlBufferFree(b);
	}
	put(x, "\"", 1);
	return x->rc;
}

/* The end tag of the element just left (x->depth is already its
 * parent's); without content it gets "/>", or "></name>" when FULL. */
static void end_tag(struct qb_xw *x, int full)
{
	const char *name = x->names[x->depth + 1];
	size_t n;
	char *p;

	if (!name[0]) {
		if (!qb_xw_sync(x) &&
		    (full ? xmlTextWriterFullEndElement(x->w) : xmlTextWriterEndElement(x->w)) < 0)
			x->rc = QB_EIO;
		return;
	}
	if (x->open_tag && !full) {
		x->open_tag = 0;
		put(x, "/>", 2);
		return;
	}
	close_tag(x);
	n = strlen(name);             /* < QB_XW_NAME: start() kept it */
	if ((p = room(x, n + 3))) {
		p[0] = '<';
		p[1] = '/';
		memcpy(p + 2, name, n);
		p[n + 2] = '>';
	}
}

int qb_xw_end(struct qb_xw *x)
{
	if (x->rc || x->depth == 0)
		return x->rc;
	x->depth--;
	if (!x->mixed && x->kids[x->depth + 1])
		newline(x);
	end_tag(x, 0);
	return x->rc;
}

int qb_xw_needs_escape(const char *text)
{
	return text[strcspn(text, "&<>\"\r")] != '\0';
}

int qb_xw_write_text(xmlTextWriterPtr w, const char *text)
{
	xmlChar *e;
	int r;

	if (!qb_xw_needs_escape(text))
		return xmlTextWriterWriteRawLen(w, BAD_CAST text, (int)strlen(text)) < 0 ? QB_EIO : 0;
	/* escaped as xmlTextWriterWriteString escapes character data, and
	 * also where the writer has no element open */
	e = xmlEncodeSpecialChars(NULL, BAD_CAST text);
	if (!e)
		return QB_ENOMEM;
	r = xmlTextWriterWriteRaw(w, e);
	xmlFree(e);
	return r < 0 ? QB_EIO : 0;
}

int qb_xw_text(struct qb_xw *x, const char *text)
{
	xmlChar *e;

	if (x->rc)
		return x->rc;
	if (!text[0] && !own(x) && x->depth > 0) {
		/* the writer's element gets its '>' as it would from an empty write */
		if (!qb_xw_sync(x) && xmlTextWriterWriteRawLen(x->w, BAD_CAST "", 0) < 0)
			x->rc = QB_EIO;
		return x->rc;
	}
	close_tag(x);
	if (!qb_xw_needs_escape(text)) {
		puts_(x, text);
	} else if (!(e = xmlEncodeSpecialChars(NULL, BAD_CAST text))) {
		x->rc = QB_ENOMEM;
	} else {
		puts_(x, (const char *)e);
		xmlFree(e);
	}
	return x->rc;
}

int qb_xw_raw(struct qb_xw *x, const char *s, size_t len)
{
	close_tag(x);
	put(x, s, len);
	return x->rc;
}

/* An element holding only text: its tags written here. */
static void start_text(struct qb_xw *x, const char *name)
{
	start(x, name, 0);
	x->mixed++;
}

int qb_xw_elem(struct qb_xw *x, const char *name, const char *text)
{
	start_text(x, name);
	qb_xw_text(x, text);
	return qb_xw_end_mixed(x);
}

int qb_xw_leaf(struct qb_xw *x, const char *name, const char *text)
{
	start_text(x, name);
	if (text[0])
		qb_xw_text(x, text);
	return qb_xw_end_full(x);
}

int qb_xw_start_mixed(struct qb_xw *x, const char *name)
{
	start(x, name, 1);
	x->mixed++;
	return x->rc;
}

int qb_xw_start_inline(struct qb_xw *x, const char *name)
{
	start(x, name, 0);
	x->mixed++;
	return x->rc;
}

/* Leaves the mixed content of the innermost element. */
static void leave_mixed(struct qb_xw *x)
{
	if (x->mixed > 0)
		x->mixed--;
	if (!x->mixed && !x->rc && x->depth > 0)
		x->kids[x->depth] = 0;   /* what is inside was written without indentation */
}

int qb_xw_end_mixed(struct qb_xw *x)
{
	leave_mixed(x);
	return qb_xw_end(x);
}

int qb_xw_end_full(struct qb_xw *x)
{
	leave_mixed(x);
	if (x->rc || x->depth == 0)
		return x->rc;
	x->depth--;
	end_tag(x, 1);
	return x->rc;
}
