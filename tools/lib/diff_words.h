/* Word diff of two texts, for `qbank diff`: the texts are cut into words
 * (runs of non-space characters, each markup tag such as <em> a word of
 * its own) and the longest common subsequence of words is kept.
 * Ownership: the segments point into the two texts, which the caller
 * keeps; the segment array is the caller's (free()). */
#ifndef QB_DIFF_WORDS_H
#define QB_DIFF_WORDS_H

#include <stddef.h>

enum qb_word_op { QB_WORD_SAME, QB_WORD_DEL, QB_WORD_INS };

/* A run of words with one op: S[0..len) in the old text (DEL) or the new
 * one (SAME, INS), spaces between its words included. SPACE is 1 when a
 * space goes before it in its text (never before the first segment), so
 * that the SAME and INS segments with their spaces make the new text, and
 * the SAME and DEL ones the old. */
struct qb_word_seg {
	enum qb_word_op op;
	int space;
	const char *s;
	size_t len;
};

/* The segments that turn OLD into NEW (NUL-terminated texts). Above
 * QB_WORDS_MAX_CELLS words times words, after the common beginning and
 * end are set aside, the middle is one deletion and one insertion. Returns
 * 0 or QB_ENOMEM; *SAME (may be NULL) is the number of words kept. */
#define QB_WORDS_MAX_CELLS (1u << 20)
int qb_words_diff(struct qb_word_seg **out, size_t *n, size_t *same, const char *old_text,
		  const char *new_text);

/* 2 * kept words / (words of OLD + words of NEW): 1 for equal texts, 0 for
 * texts without a word in common; -1 when out of memory. */
double qb_words_similarity(const char *old_text, const char *new_text);

#endif
