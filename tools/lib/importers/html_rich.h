/* HTML (Moodle's question texts) to the bank's rich text: libxml2's HTML
 * parser reads the HTML, and what has an equivalent in schema/qbank.xsd's
 * markup is written as that markup (em/i, strong/b, code, sub, sup, br, p,
 * pre, ul, ol, li, img; TeX between \( \), \[ \] or $$ $$ as <math>);
 * everything else is reduced to its text, and its name is recorded so
 * that the importer can report it (import-markup-dropped).
 * Ownership: a converter owns its parser context, its writer and the
 * writer's buffer, and the list of dropped names; the fragments it returns
 * are copied into the caller's arena. */
#ifndef QB_IMP_HTML_RICH_H
#define QB_IMP_HTML_RICH_H

#include <stddef.h>

#include "../core/arena.h"
#include "../core/buf.h"

/* Markup nested deeper than this is reduced to its text (a diagnostic):
 * the walk is recursive, and no question text needs more. */
#define QB_IMP_HTML_DEPTH 48

struct qb_imp_html {
	/* Maps an <img src> (as written in the HTML) to the bank's src, or
	 * returns NULL when the image cannot be kept (its alt text stays and
	 * the image is recorded as dropped, with WHY). */
	const char *(*img)(void *ctx, const char *src, const char **why);
	void *img_ctx;
	struct qb_buf dropped;  /* "table, span style, ..." since the last reset */
	struct qb_buf out;      /* scratch: a piece of text, NUL-terminated */
	/* libxml2's HTML parser context and the writer of the converted text
	 * (into its buffer), made on first use and reused for every later
	 * text (htmlCtxtReadMemory resets the context; the writer is back at
	 * its start after each text): making them per text, 6-11 texts a
	 * question, was about a sixth of the conversion's time */
	struct _xmlParserCtxt *parser;
	struct _xmlBuffer *wbuf;
	struct _xmlTextWriter *writer;
	int oom;
};

/* Converts HTML (NUL-terminated) to rich text: BLOCK 1 for a block context
 * (stem, explanation, rationale, rubric), 0 for an inline one (option
 * text, premise, response). A text that is one <p> is written without it.
 * Returns the fragment in ARENA ("" for nothing), or NULL when out of
 * memory. */
const char *qb_imp_html_rich(struct qb_imp_html *h, struct qb_arena *arena, const char *html,
			     int block);
/* Plain text as rich text (escaped): the same kind of fragment. */
const char *qb_imp_plain_rich(struct qb_imp_html *h, struct qb_arena *arena, const char *text);
/* Records WHAT (e.g. "table") as dropped, once. */
void qb_imp_html_drop(struct qb_imp_html *h, const char *what);
void qb_imp_html_reset(struct qb_imp_html *h);
void qb_imp_html_dispose(struct qb_imp_html *h);

#endif
