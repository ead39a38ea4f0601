/* The importer table: one row per source format, in the order the
 * formats are tried when a file's format is recognised from its content
 * (the most specific first). Everything here is static. */
#ifndef QB_IMPORTERS_H
#define QB_IMPORTERS_H

#include "../core/buf.h"
#include "../importer.h"

extern const struct qb_importer qb_importers[];
extern const size_t qb_nimporters;

/* The row named NAME, or NULL. */
const struct qb_importer *qb_importer_find(const char *name);

/* The sources' read functions (one file each). */
int qb_imp_aiken_detect(const char *data, size_t len);
int qb_imp_aiken_read(const char *data, size_t len, const struct qb_imp_sink *sink,
		      struct qb_error *err);

int qb_imp_gift_detect(const char *data, size_t len);
int qb_imp_gift_read(const char *data, size_t len, const struct qb_imp_sink *sink,
		     struct qb_error *err);

int qb_imp_moodle_detect(const char *data, size_t len);
int qb_imp_moodle_read(const char *data, size_t len, const struct qb_imp_sink *sink,
		       struct qb_error *err);

/* HTML (GIFT's [html] and [moodle] texts) as the bank's rich-text markup,
 * appended to OUT: a well-formed fragment of the bank's elements for a
 * BLOCK context (stem, feedback) or an inline one (option text, premise).
 * em/i, strong/b, code/tt/kbd/samp, sub, sup, br map; p, pre (lang from
 * class="language-X"), ul, ol, li map where the context takes blocks and
 * are reduced to their content elsewhere; TeX between \( \), \[ \] or
 * $$ $$ becomes <math>. Every other element is reduced to its text (img to
 * its alt text; script and style to nothing) and its name appended, once,
 * to DROPPED (", "-separated). 0 or QB_ENOMEM. */
int qb_imp_html_rich(struct qb_buf *out, const char *html, size_t len, int block,
		     struct qb_buf *dropped);

/* The same for GIFT's [markdown] texts, a small subset of Markdown
 * (README.md): paragraphs, `code`, **strong**, *em* and _em_, "- " and
 * "1. " lists, ``` fences, backslash escapes, and HTML passed through. */
int qb_imp_markdown_rich(struct qb_buf *out, const char *md, size_t len, int block,
			 struct qb_buf *dropped);

/* Shared by the importers: DATA without a UTF-8 byte-order mark. */
const char *qb_imp_skip_bom(const char *data, size_t *len);

#endif
