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
int qb_imp_moodle_read_fd(int fd, const struct qb_imp_sink *sink, struct qb_error *err);

/* GIFT's [markdown] texts: the small Markdown subset of README.md
 * (paragraphs, `code`, **strong**, *em* and _em_, "- " and "1. " lists,
 * ``` fences, backslash escapes, HTML passed through) as HTML, appended to
 * OUT for the HTML converter (html_rich.h). 0 or QB_ENOMEM. */
int qb_imp_markdown_html(struct qb_buf *out, const char *md, size_t len);

/* How a choice question's fractions, as the source gives them, differ from
 * the bank's marking: a single question's keys are its options at 100%; a
 * multiple question shares 100% equally among its keys and takes 100%/W
 * off for each of its W wrong options picked. Sets a single question's
 * partial keys to 0 (the bank keeps its 100% ones) and returns the
 * QB_IMP_MARK_* bits of what changed, for the importer to report
 * (import-grade-changed). */
enum {
	QB_IMP_MARK_KEYS = 1,    /* keys not at 100% (single) or unequal shares (multiple) */
	QB_IMP_MARK_WRONG = 2    /* multiple: a wrong option's cost not -100%/W */
};
unsigned qb_imp_choice_marking(enum qb_imp_kind kind, struct qb_imp_choice *ch, size_t n);

/* Shared by the importers: DATA without a UTF-8 byte-order mark. */
const char *qb_imp_skip_bom(const char *data, size_t *len);

#endif
