/* Building blocks of the Moodle XML exporter (export_moodle.c): text in
 * CDATA sections, rich-text fields with their embedded image files, and the
 * number spellings Moodle's importer and database accept. Kept apart so
 * that the unit tests can reach them.
 * Ownership: a qb_moodle_field owns its buffers, image list and HTML
 * renderer; qb_moodle_field_dispose frees them. Everything else writes into the
 * caller's buffers or writer and keeps nothing. */
#ifndef QB_MOODLE_WRITE_H
#define QB_MOODLE_WRITE_H

#include <stddef.h>

#include <libxml/tree.h>

#include "../core/buf.h"
#include "../richtext.h"
#include "../xmlw.h"

/* Writes <text>S</text> with S in CDATA sections, as Moodle's own exporter
 * does for HTML. A "]]>" inside S cannot appear in one CDATA section, so
 * it is split across two: "]]" ends one section and ">" opens the next.
 * An empty S gives <text></text>. */
int qb_moodle_write_cdata_text(struct qb_xw *x, const char *s, size_t len);

/* Writes <text>S</text> with S escaped as XML character data (plain text
 * fields: names, tags, category paths, short answers). */
int qb_moodle_write_plain_text(struct qb_xw *x, const char *s);

/* Appends S with & < > " written as HTML character references (libxml2's
 * xmlEncodeSpecialChars): for the "plain" texts that Moodle nevertheless
 * shows through format_string(), which reads them as HTML (category
 * names, matching answers). */
int qb_moodle_html_escape(struct qb_buf *out, const char *s);

/* Appends the canonical spelling of the decimal number S: optional '-',
 * digits with a '.' (never a comma, whatever the locale), no '+', no
 * superfluous zeros ("+01.50" -> "1.5", ".5" -> "0.5", "-0" -> "0").
 * ALLOW_EXP accepts an exponent ("1.5E3" -> "1.5e3"). White space around
 * S is ignored, as XML Schema's decimal type does. Returns QB_EINVAL when S
 * is not such a number (a decimal comma, "*", text, empty). */
int qb_moodle_decimal(struct qb_buf *out, const char *s, int allow_exp);

/* Appends S percent-encoded as RFC 3986 (and PHP's rawurlencode) does:
 * everything but A-Z a-z 0-9 - . _ ~ becomes %XX. */
int qb_moodle_urlencode(struct qb_buf *out, const char *s);

/* Number of characters (Unicode code points) in the UTF-8 string S. */
size_t qb_moodle_utf8_len(const char *s);

/* One rich-text field (questiontext, feedback, answer, ...) being written:
 * its HTML and the image files it references. */
struct qb_moodle_image {
	char *src;     /* as written in the bank */
	char *name;    /* file name in the field's file area, unique in it */
};

struct qb_moodle_field {
	const char *bank_file;         /* the bank file, whose folder holds the images */
	struct qb_buf html;
	struct qb_buf url;             /* the last @@PLUGINFILE@@ URL handed out */
	struct qb_buf data;            /* the image being embedded */
	struct qb_moodle_image *img;
	size_t nimg, capimg;
	int rc;                        /* first problem with an image, 0 if none */
	char why[512];                 /* its description, naming the src */
	struct qb_rich_html *render;   /* made at the first field, kept for the next ones */
};

#define QB_MOODLE_FIELD_INIT { "", QB_BUF_INIT, QB_BUF_INIT, QB_BUF_INIT, NULL, 0, 0, 0, "", NULL }

/* Renders rich-text element N (NULL = empty) as HTML into F->html, images
 * mapped to @@PLUGINFILE@@/name. WRAP_P puts inline-only text in a <p>.
 * Returns 0, QB_ENOMEM, or F->rc (QB_EINVAL) with F->why when an image
 * cannot be embedded (imgpath.h: unsafe, missing, too big). */
int qb_moodle_field_render(struct qb_moodle_field *f, const xmlNode *n, int wrap_p);

/* Writes <ELEMENT format="FORMAT"><text>HTML</text><file .../>...</ELEMENT>
 * for the field last rendered: the HTML in CDATA and every referenced
 * image read with qb_img_read() and embedded in base64 with path="/".
 * Returns 0, QB_EIO (a write failed, or an image could not be read: then
 * F->rc is set and F->why says which) or QB_ENOMEM. */
int qb_moodle_field_write(struct qb_xw *x, struct qb_moodle_field *f, const char *element,
			  const char *format);

/* The same without the enclosing element: <text> and the <file>s only, for
 * elements that carry more (an answer's fraction, a subquestion's answer). */
int qb_moodle_field_write_content(struct qb_xw *x, struct qb_moodle_field *f);

/* Checks, without writing, that every img below N can be embedded (the
 * verdicts of imgpath.h, which the lint reports too). Returns 0 or
 * QB_EINVAL with F->why. */
int qb_moodle_field_check_images(struct qb_moodle_field *f, const xmlNode *n);

/* 1 when an img element occurs below N. */
int qb_moodle_has_image(const xmlNode *n);

void qb_moodle_field_dispose(struct qb_moodle_field *f);

#endif
