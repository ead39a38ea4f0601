/* The XML writer of the exporters: libxml2 does the escaping (text with
 * xmlEncodeSpecialChars, attribute values with xmlAttrSerializeTxtContent,
 * the same functions its xmlTextWriter uses) and the output; these helpers
 * add indentation, a sticky error, and the tags themselves.
 *
 * Every call is a no-op once one has failed, so that a document can be
 * written as a straight sequence of calls and checked once at the end;
 * each call also returns the error so far (0 or a QB_E* code) for callers
 * that check as they go.
 *
 * Element-only content is indented two spaces a level, each line break
 * with its indentation in one write. (libxml2's own indentation makes one
 * output call per level on every tag, which cost more than the rest of an
 * export, and it would also indent inside rich text, changing what a
 * reader sees.) Mixed content (text and markup) is never touched.
 *
 * Tags, attributes and text are gathered into a small buffer and handed
 * to the writer as one raw write: every call into xmlTextWriter costs
 * several hundred instructions whatever it writes, and its start, attribute
 * and end calls were most of an export's own work. Elements opened with
 * qb_xw_start_mixed are libxml2's writer's own, so that code given the
 * writer (qb_xw_writer: rich text, base64) writes into an element the
 * writer knows; elements opened with qb_xw_start_inline take their mixed
 * content only as qb_xw_text and qb_xw_raw (rich text rendered apart by
 * qb_rich_html, CDATA sections) and are written here. Code that flushes,
 * reads or frees the writer itself calls qb_xw_sync first. The bytes are
 * those xmlTextWriter would write. */
#ifndef QB_XMLW_H
#define QB_XMLW_H

#include <stddef.h>

#include <libxml/xmlwriter.h>

/* deep enough for rich text, which libxml2's parser lets nest 256 deep */
#define QB_XW_DEPTH 272
#define QB_XW_NAME 40      /* longer element names go through the writer */
#define QB_XW_PEND 4096

struct qb_xw {
	xmlTextWriterPtr w;
	int rc;                 /* 0, or the first error */
	int depth;
	int mixed;              /* > 0: inside mixed content, no indentation */
	unsigned char kids[QB_XW_DEPTH];  /* the open element at each level has child elements */
	/* NULL, or maps every element (ATTR 0) and attribute (ATTR 1) name
	 * given to qb_xw_start*, qb_xw_elem, qb_xw_leaf and qb_xw_attr to the
	 * name written, so that one writer of a document can emit a dialect
	 * of it (QTI 3.0's names for QTI 2.1's); set it after qb_xw_begin. */
	const char *(*rename)(int attr, const char *name);

	/* the element at each level: its tag written here (name kept for its
	 * end tag), or opened on libxml2's writer (name ""); qb_xw_init or a
	 * zeroed struct is a writer with nothing of its own open */
	char names[QB_XW_DEPTH][QB_XW_NAME];
	int open_tag;           /* the innermost element's start tag lacks its '>' */
	int utf8;               /* qb_xw_begin declared the document UTF-8: attribute
				 * values keep their non-ASCII characters (as libxml2's
				 * writer keeps them then), else character references */
	char pend[QB_XW_PEND];  /* bytes not yet given to the writer */
	size_t npend;
	int synced;             /* qb_xw_sync has run since qb_xw_init: every call
				 * into the writer follows one, so while it is 0 the
				 * writer holds nothing of X's and pend is all that
				 * X has written (qb_xw_pending) */
};

/* A writer onto W with nothing open, for a fragment at depth 0 (set
 * depth and kids after it for a fragment placed deeper). It sets only the
 * fields a write reads (the struct is some 15 KB, mostly the names of
 * open elements), so that it is cheap for each of many fragments. */
void qb_xw_init(struct qb_xw *x, xmlTextWriterPtr w);
/* Starts the document on W (XML declaration, version 1.0, UTF-8). */
int qb_xw_begin(struct qb_xw *x, xmlTextWriterPtr w);
/* Writes into the element W has open, as mixed content, with nothing of
 * X's own open (what is written through X is pending until qb_xw_sync).
 * UTF8: W's document is declared UTF-8 (see utf8 above). */
void qb_xw_attach(struct qb_xw *x, xmlTextWriterPtr w, int utf8);
/* Closes every open element and the document, flushes; returns x->rc. */
int qb_xw_finish(struct qb_xw *x);
int qb_xw_start(struct qb_xw *x, const char *name);
int qb_xw_attr(struct qb_xw *x, const char *name, const char *value);
/* Ends an element: </name> on a line of its own after child elements,
 * <name/> when it has no content. */
int qb_xw_end(struct qb_xw *x);
/* <name>text</name>, or <name/> for "". */
int qb_xw_elem(struct qb_xw *x, const char *name, const char *text);
/* <name>text</name>, also for "" (<name></name>). */
int qb_xw_leaf(struct qb_xw *x, const char *name, const char *text);
/* Starts an element whose content is mixed (text and markup). */
int qb_xw_start_mixed(struct qb_xw *x, const char *name);
/* The same for content given only as qb_xw_text and qb_xw_raw (never
 * libxml2's writer): its tags are written here. */
int qb_xw_start_inline(struct qb_xw *x, const char *name);
/* Ends the element opened by qb_xw_start_mixed or qb_xw_start_inline:
 * <name/> when empty. */
int qb_xw_end_mixed(struct qb_xw *x);
/* The same with an end tag even when empty: <name></name>. */
int qb_xw_end_full(struct qb_xw *x);
int qb_xw_text(struct qb_xw *x, const char *text);
/* LEN bytes of markup as they are, as content of the open element. */
int qb_xw_raw(struct qb_xw *x, const char *s, size_t len);
/* The libxml2 writer, for writing into the open element directly (rich
 * text, CDATA, base64): what is pending is written first. */
xmlTextWriterPtr qb_xw_writer(struct qb_xw *x);
/* Hands what is pending to the writer: before the caller flushes, reads
 * or frees it. Returns x->rc. */
int qb_xw_sync(struct qb_xw *x);

/* What X has written since qb_xw_init, when all of it is still pending
 * (nothing handed to the writer): the caller may take these bytes instead
 * of syncing and reading the writer's output. NULL otherwise. */
const char *qb_xw_pending(const struct qb_xw *x, size_t *len);

/* 1 when TEXT holds a character libxml2's writer escapes in character
 * data (& < > " or CR); text without one is written as it is. */
int qb_xw_needs_escape(const char *text);

/* Writes TEXT as character data into W's open element, as
 * xmlTextWriterWriteString does; text with nothing to escape (no & < > "
 * or CR, the characters libxml2 escapes there) goes out as it is, without
 * the escaped copy libxml2 would allocate. Returns 0 or QB_EIO. */
int qb_xw_write_text(xmlTextWriterPtr w, const char *text);

#endif
