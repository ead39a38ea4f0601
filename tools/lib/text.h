/* Text utilities over rich-text nodes: plain text, normalisation, hashing.
 * Ownership: results go into the caller's qb_buf; nothing is kept. */
#ifndef QB_TEXT_H
#define QB_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include <libxml/tree.h>

#include "core/buf.h"

/* N in decimal, written into OUT, for the exporters' hot paths where a
 * printf costs more than the rest of the line; returns where it starts
 * in OUT. */
#define QB_DECIMAL_SIZE 24
const char *qb_decimal(char out[QB_DECIMAL_SIZE], unsigned long n);

/* Skips XML white space at both ends; returns the start, sets *len. */
const char *qb_text_trim(const char *s, size_t *len);

/* The characters of the first LEN bytes of S (UTF-8) once & < > " and CR
 * are written as the entities Moodle stores a name with (&amp; &lt; &gt;
 * &quot; &#13;, as xmlEncodeSpecialChars writes them): what its 255-character
 * category name column holds. *FIT, when not NULL, gets how many bytes of S
 * hold at most MAX such characters. */
size_t qb_text_stored_chars(const char *s, size_t len, size_t max, size_t *fit);

/* Appends the plain text of a rich-text element: markup dropped, math kept
 * as its TeX source, img as its alt text, br and block boundaries as a
 * space. */
int qb_text_plain(struct qb_buf *out, const xmlNode *n);

/* 1 when the element holds no text at all (only white space, or nothing);
 * an img or math counts as content. */
int qb_text_is_blank(const xmlNode *n);

/* Appends the normalised form of UTF-8 text S: Unicode NFC, case folded,
 * white space collapsed to single spaces and trimmed, trailing punctuation
 * (. , ; : ! ?) dropped. The form option-duplicate and friends compare. */
int qb_text_normalize(struct qb_buf *out, const char *s, size_t len);

/* qb_text_plain followed by qb_text_normalize (OUT is cleared first). */
int qb_text_norm_node(struct qb_buf *out, const xmlNode *n);

/* The value of N's attribute NAME (no namespace) without copying, or NULL.
 * With entity substitution off an attribute is one text node; anything
 * else reads as "". */
const char *qb_text_attr(const xmlNode *n, const char *name);

/* 64-bit hash of bytes whose values reach an output, and must stay the
 * same from version to version: the seeds of the shuffled print forms
 * (exporters/md_item.c, export_markdown.c), SARIF's partialFingerprints
 * (cli/fmt_sarif.c), the QTI packages' file names for ids that cannot be
 * one (exporters/qti_util.c). FNV-1a with a final avalanche; never change
 * it. */
uint64_t qb_hash64(const void *p, size_t n);

/* 64-bit hash of bytes for what stays in the process: hash maps, the
 * bank-wide rules' digests, sets of ids. XXH3 (Debian's libxxhash, inlined
 * from its header): it reads 8 to 32 bytes a step where FNV-1a reads one,
 * and FNV-1a's multiply per byte was a chain the processor waits on
 * (tools/bench/README.md). Its values may change between versions. */
uint64_t qb_hash(const void *p, size_t n);

/* The candidate of CANDS[0..n) nearest to WORD for a "did you mean"
 * (Levenshtein distance over bytes, ASCII case folded, at most 2 and at
 * most half of WORD's length; the first of equals wins), or NULL. */
const char *qb_text_closest(const char *word, const char *const *cands, size_t n);

#endif
