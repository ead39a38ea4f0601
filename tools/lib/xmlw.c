#include "xmlw.h"

#include <string.h>

#include "error.h"

int qb_xw_begin(struct qb_xw *x, xmlTextWriterPtr w)
{
	memset(x, 0, sizeof(*x));
	x->w = w;
	if (xmlTextWriterStartDocument(w, NULL, "UTF-8", NULL) < 0)
		x->rc = QB_EIO;
	return x->rc;
}

int qb_xw_finish(struct qb_xw *x)
{
	while (!x->rc && x->depth > 0)
		qb_xw_end(x);
	if (!x->rc && (xmlTextWriterEndDocument(x->w) < 0 || xmlTextWriterFlush(x->w) < 0))
		x->rc = QB_EIO;
	return x->rc;
}

/* A line break and two spaces per level, outside mixed content: one write,
 * since every call into the writer has a cost of its own. */
static void newline(struct qb_xw *x)
{
	static const char line[] = "\n                                                                ";
	int n = x->depth * 2 < (int)sizeof(line) - 2 ? x->depth * 2 : (int)sizeof(line) - 2;

	if (!x->rc && xmlTextWriterWriteRawLen(x->w, BAD_CAST line, 1 + n) < 0)
		x->rc = QB_EIO;
}

int qb_xw_start(struct qb_xw *x, const char *name)
{
	if (x->rc)
		return x->rc;
	if (x->depth >= QB_XW_DEPTH - 1)
		return x->rc = QB_EINVAL;
	if (!x->mixed && x->depth > 0)
		newline(x);
	x->kids[x->depth] = 1;
	if (x->rename)
		name = x->rename(0, name);
	if (!x->rc && xmlTextWriterStartElement(x->w, BAD_CAST name) < 0)
		x->rc = QB_EIO;
	x->depth++;
	x->kids[x->depth] = 0;
	return x->rc;
}

int qb_xw_attr(struct qb_xw *x, const char *name, const char *value)
{
	if (x->rename)
		name = x->rename(1, name);
	if (!x->rc && xmlTextWriterWriteAttribute(x->w, BAD_CAST name, BAD_CAST value) < 0)
		x->rc = QB_EIO;
	return x->rc;
}

int qb_xw_end(struct qb_xw *x)
{
	if (x->rc || x->depth == 0)
		return x->rc;
	x->depth--;
	if (!x->mixed && x->kids[x->depth + 1])
		newline(x);
	if (!x->rc && xmlTextWriterEndElement(x->w) < 0)
		x->rc = QB_EIO;
	return x->rc;
}

int qb_xw_needs_escape(const char *text)
{
	return text[strcspn(text, "&<>\"\r")] != '\0';
}

int qb_xw_write_text(xmlTextWriterPtr w, const char *text)
{
	int r;

	if (!qb_xw_needs_escape(text))
		r = xmlTextWriterWriteRawLen(w, BAD_CAST text, (int)strlen(text));
	else
		r = xmlTextWriterWriteString(w, BAD_CAST text);
	return r < 0 ? QB_EIO : 0;
}

int qb_xw_text(struct qb_xw *x, const char *text)
{
	if (!x->rc)
		x->rc = qb_xw_write_text(x->w, text);
	return x->rc;
}

int qb_xw_elem(struct qb_xw *x, const char *name, const char *text)
{
	qb_xw_start_mixed(x, name);
	qb_xw_text(x, text);
	return qb_xw_end_mixed(x);
}

int qb_xw_leaf(struct qb_xw *x, const char *name, const char *text)
{
	qb_xw_start_mixed(x, name);
	if (text[0])
		qb_xw_text(x, text);
	return qb_xw_end_full(x);
}

int qb_xw_start_mixed(struct qb_xw *x, const char *name)
{
	qb_xw_start(x, name);
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
	if (xmlTextWriterFullEndElement(x->w) < 0)
		x->rc = QB_EIO;
	return x->rc;
}
