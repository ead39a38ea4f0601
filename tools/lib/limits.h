/* The documented limits of a bank file (README "Limits", schema/README.md
 * "Limits"). The reader enforces them: a part over a limit is an error
 * finding (limit-exceeded) and the question is handed out marked invalid,
 * so that no content rule and no exporter ever works on oversized input.
 * libxml2's own limits (nesting depth 256, 10,000,000 bytes per text node
 * or attribute value) stop the parse earlier with an xml-syntax finding. */
#ifndef QB_LIMITS_H
#define QB_LIMITS_H

/* Question, option and bank ids, in characters: Moodle's idnumber column
 * holds 100, and the ids become Moodle idnumbers unchanged. */
#define QB_LIMIT_ID_CHARS 100

/* Category names, in characters: Moodle's category name column. */
#define QB_LIMIT_NAME_CHARS 255

/* Options of one question; also answers, pairs, distractors and tags, each
 * counted separately. */
#define QB_LIMIT_CHILDREN 100

/* One part of a question (stem, explanation, rubric, one option with its
 * rationale, one answer, pair, distractor, tag or source): bytes of text
 * (UTF-8, attribute values included) and markup elements. */
#define QB_LIMIT_PART_BYTES 65536
#define QB_LIMIT_PART_ELEMENTS 1000

/* Image files referred to by img src (imgpath.h). */
#define QB_LIMIT_IMAGE_BYTES (16L * 1024 * 1024)

#endif
