/* The Moodle XML importer's rules, checked on an exported file: what Moodle
 * 4.5's question/format/xml import and the question types' save code
 * reject, stop on, or import wrongly (DESIGN.md, "What the targets'
 * importers do with bad input"). Independent of the exporter's own code:
 * it has its own copy of Moodle's grade list and reads the file back with
 * libxml2, so that an exporter bug cannot hide itself.
 * Ownership: findings are appended to the caller's buffer. */
#ifndef QB_TEST_MOODLE_RULES_H
#define QB_TEST_MOODLE_RULES_H

#include "../../tools/lib/core/buf.h"

/* Checks the Moodle XML file PATH. Appends one line per violation to OUT,
 * "RULE: question 'NAME': what", with RULE one of
 *   not-xml, root, category-first, category-path, name, questiontext,
 *   idnumber-length, defaultgrade, penalty, fraction-listed, single-100,
 *   multiple-sum, multichoice-answers, truefalse-answers, shortanswer-100,
 *   numerical-number, matching-answer, matching-count, file-path,
 *   pluginfile, type
 * and returns how many there are (-1 when the file is not XML at all). */
int moodle_rules_check(const char *path, struct qb_buf *out);

#endif
