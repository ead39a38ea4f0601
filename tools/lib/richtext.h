/* The one walker over the bank's rich-text markup (em, strong, code, sub,
 * sup, br, math, img; p, pre, ul, ol, li in blocks). It renders the markup
 * as (X)HTML through a libxml2 xmlTextWriter for every exporter that emits
 * HTML (Moodle's question text, QTI's itemBody), with options for the math
 * and the image URLs; escaping is the writer's, nothing is pasted. For the
 * exporters with a markup of their own (Markdown) it answers what an
 * element is and holds, and it finds the images of a text.
 * Ownership: nothing is kept, except by a qb_rich_html renderer (below),
 * which owns its writer and buffer; other writers and buffers are the
 * caller's. */
#ifndef QB_RICHTEXT_H
#define QB_RICHTEXT_H

#include <libxml/tree.h>
#include <libxml/xmlwriter.h>

#include "core/buf.h"

struct qb_xw;   /* xmlw.h */

enum qb_math_mode {
	QB_MATH_TEX,       /* \( ... \) and \[ ... \] for MathJax (Moodle's filter) */
	/* The same inside <span class="math">, or <div class="math"> for
	 * display math. Inside p, em, strong, sub or sup display math is a span
	 * too (still \[ \], so it is still typeset as display math): XHTML
	 * gives those elements inline content only, and so does QTI 2.1
	 * (HTMLText.Type), whose items would otherwise fail the schema. */
	QB_MATH_TEX_SPAN,
	/* MathML written by the options' math_ml (the QTI and Canvas
	 * exporters, through mathml.h): what QTI players and Canvas render. */
	QB_MATH_MATHML
};

struct qb_rich_opts {
	enum qb_math_mode math;
	/* Maps an img src from the bank to the URL to write (e.g. Moodle's
	 * @@PLUGINFILE@@/name); NULL keeps it. The result is used at once. */
	const char *(*img_src)(void *ctx, const char *src);
	void *img_ctx;
	/* qb_rich_to_html only: an element (e.g. "p") to wrap the whole text in,
	 * or NULL. */
	const char *wrap;
	/* 1: HTML syntax for a page parsed as text/html, where <p/> opens a p
	 * that never closes: every empty element but br and img gets an end
	 * tag (<p></p>). 0: XML syntax (<p/>), what XHTML in XML wants. */
	int html_syntax;
	/* QB_MATH_MATHML: writes math element N into W's open element */
	int (*math_ml)(void *ctx, xmlTextWriterPtr w, const xmlNode *n);
	void *math_ctx;
};

/* Writes the children of rich-text element N (stem, text, rationale, ...).
 * W must have an element open: libxml2's writer escapes text only there. */
int qb_rich_write(xmlTextWriterPtr w, const xmlNode *n, const struct qb_rich_opts *o);

/* The same into X's innermost element, one X opened itself
 * (qb_xw_start_inline) inside mixed content: the children go into X's
 * pending bytes like the rest of the page, not through the writer. X's
 * utf8 says, as for qb_rich_write, how attribute values are written.
 * Returns X's error. */
int qb_rich_write_into(struct qb_xw *x, const xmlNode *n, const struct qb_rich_opts *o);

/* The same, as an HTML string appended to OUT. */
int qb_rich_to_html(struct qb_buf *out, const xmlNode *n, const struct qb_rich_opts *o);

/* A renderer for many fields: qb_rich_to_html's writer and buffer, made
 * once and reset per field, so that a field costs no writer, buffer or
 * document of its own (an exporter renders several fields per question).
 * Owned by its creator: qb_rich_html_free releases it (NULL is fine). */
struct qb_rich_html;

/* UTF8: the HTML is written as in a document declared UTF-8, whose
 * attribute values keep their non-ASCII characters (as in an exporter's
 * own document); 0: they become character references. */
int qb_rich_html_new(struct qb_rich_html **out, int utf8);
void qb_rich_html_free(struct qb_rich_html *r);

/* qb_rich_to_html through R: the same bytes appended to OUT. */
int qb_rich_html_render(struct qb_rich_html *r, struct qb_buf *out, const xmlNode *n,
			const struct qb_rich_opts *o);

/* 1 when N holds block markup (p, pre, ul, ol, display math) and so must
 * not be wrapped in an inline-only container such as <p>. */
int qb_rich_has_blocks(const xmlNode *n);

/* 1 when N is <math display="block">. */
int qb_rich_is_display_math(const xmlNode *n);

/* Appends the text content of N (its text and CDATA children: what code,
 * math and pre hold) to OUT. */
int qb_rich_text(struct qb_buf *out, const xmlNode *n);

/* Calls FN for every img element below N, in document order, until FN
 * returns non-zero; returns that value, or 0. */
int qb_rich_each_img(const xmlNode *n, int (*fn)(void *ctx, const xmlNode *img), void *ctx);

#endif
