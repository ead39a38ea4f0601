/* Rendering the bank's rich-text markup as (X)HTML through a libxml2
 * xmlTextWriter, for every exporter that emits HTML (Moodle's question
 * text, QTI's itemBody). Escaping is the writer's: nothing is pasted.
 * Ownership: nothing is kept, except by a qb_rich_html renderer (below),
 * which owns its writer and buffer; other writers and buffers are the
 * caller's. */
#ifndef QB_RICHTEXT_H
#define QB_RICHTEXT_H

#include <libxml/tree.h>
#include <libxml/xmlwriter.h>

#include "core/buf.h"

enum qb_math_mode {
	QB_MATH_TEX,       /* \( ... \) and \[ ... \] for MathJax (Moodle's filter) */
	QB_MATH_TEX_SPAN   /* the same inside <span class="math"> / <div class="math"> */
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
};

/* Writes the children of rich-text element N (stem, text, rationale, ...).
 * W must have an element open: libxml2's writer escapes text only there. */
int qb_rich_write(xmlTextWriterPtr w, const xmlNode *n, const struct qb_rich_opts *o);

/* The same, as an HTML string appended to OUT. */
int qb_rich_to_html(struct qb_buf *out, const xmlNode *n, const struct qb_rich_opts *o);

/* A renderer for many fields: qb_rich_to_html's writer and buffer, made
 * once and reset per field, so that a field costs no writer, buffer or
 * document of its own (an exporter renders several fields per question).
 * Owned by its creator: qb_rich_html_free releases it (NULL is fine). */
struct qb_rich_html;

int qb_rich_html_new(struct qb_rich_html **out);
void qb_rich_html_free(struct qb_rich_html *r);

/* qb_rich_to_html through R: the same bytes appended to OUT. */
int qb_rich_html_render(struct qb_rich_html *r, struct qb_buf *out, const xmlNode *n,
			const struct qb_rich_opts *o);

/* 1 when N holds block markup (p, pre, ul, ol) and so must not be wrapped
 * in an inline-only container such as <p>. */
int qb_rich_has_blocks(const xmlNode *n);

#endif
