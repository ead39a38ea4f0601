/* Check functions of the rule table, one file per family of rules.
 * Ownership: the rules' state belongs to the qb_lint (l->rules, l->digests)
 * and is freed with it; a question's text cache (qb_rule_qcache) is valid
 * until the next question. */
#ifndef QB_RULES_IMPL_H
#define QB_RULES_IMPL_H

#include <stdint.h>

#include "../lint_internal.h"
#include "../rules.h"

struct qb_lint_digests;
void qb_lint_digests_free(struct qb_lint_digests *d);

/* ---- shared state of the built-in rules (rule_common.c) ----------------
 * Compiled once per lint run (qb_rules_state_new from qb_lint_new) and kept
 * in l->rules: the PCRE2 patterns (UTF, UCP, JIT) with one reusable match
 * data, and a per-question cache of the plain and normalised texts that
 * every rule family reads, so each text is normalised once per question. */
enum qb_rule_pat {
	QB_PAT_SELECT_N,       /* "Select 3", "choose two options": group 1 = the number */
	QB_PAT_INSTRUCTION,    /* a sentence that only tells how many to pick */
	QB_PAT_NEGATIVE,       /* not / except / least as whole words */
	QB_PAT_RAT_POS,        /* a rationale opening with Correct / Right / Yes */
	QB_PAT_RAT_NEG,        /* ... with Incorrect / Wrong / No / Not quite */
	QB_PAT_ALL_ABOVE,      /* "all of the above" (normalised text) */
	QB_PAT_NONE_ABOVE,     /* "none of the above" (normalised text) */
	QB_PAT_LETTER_REF,     /* "Both A and C", "option B" (plain text, letters upper case) */
	QB_PAT_ABSOLUTE,       /* always, never, all, none, only ... (normalised text) */
	QB_PAT_COUNT
};

/* One option's texts, as offsets into qb_qcache.text (NUL-terminated). */
struct qb_qcache_opt {
	size_t plain, plain_len;   /* plain text (markup dropped), as written */
	size_t norm, norm_len;     /* qb_text_normalize() of the plain text */
	size_t nchars;             /* code points of the normalised text */
	uint64_t hash;             /* qb_hash64 of the normalised text */
	uint32_t norm_words;       /* key words of the normalised text (qb_rule_may_match) */
};

struct qb_qcache {
	unsigned long serial;      /* question number in the run it was built for */
	struct qb_buf text;
	size_t stem_plain, stem_plain_len, stem_norm, stem_norm_len;
	uint32_t stem_words;       /* key words of the plain stem (qb_rule_may_match) */
	size_t stem_words_at;      /* where the first of them starts: no match of
				    * QB_PAT_SELECT_N or QB_PAT_NEGATIVE (which begin
				    * with their key word) starts before it */
	struct qb_qcache_opt *opt; /* noptions entries */
	size_t capopt;
	size_t ncorrect;           /* options with correct="true" */
};

struct qb_rules_state;

int qb_rules_state_new(struct qb_rules_state **out);
void qb_rules_state_free(struct qb_rules_state *s);

/* The cache for Q, built on the first call for each question. */
int qb_rule_qcache(struct qb_lint *l, const struct qb_question *q, const struct qb_qcache **out);
#define QB_QC_STR(c, off) ((c)->text.ptr + (off))

/* Searches pattern P in S[start..len): 1 with M[0..1] the match and M[2..3]
 * group 1 (the whole match again when the pattern has no group 1 or it did
 * not take part), 0 when no match, or a negative error code. */
int qb_rule_match(struct qb_lint *l, enum qb_rule_pat p, const char *s, size_t len,
		  size_t start, size_t m[4]);

/* Work that two checks of the table share, done once per question by
 * whichever of them runs first (the other may be switched off). */
enum qb_rule_shared {
	QB_SHARED_IMG,         /* img-missing and img-unsafe-path: one walk */
	QB_SHARED_COUNT
};

/* 1 on the first call for KEY in the current question, 0 after. */
int qb_rule_shared_first(struct qb_lint *l, enum qb_rule_shared key);

/* 0 when pattern P cannot match a cached text whose key words are WORDS
 * (stem_words, norm_words): ask before qb_rule_match, which costs far
 * more. 1 when it may match, and for patterns without key words. */
int qb_rule_may_match(enum qb_rule_pat p, uint32_t words);

/* Call after filling l->scratch with a subject for qb_rule_match. */
void qb_rule_scratch_ready(struct qb_lint *l);

/* Line of any element of a question (libxml2 keeps exact lines to 65535). */
unsigned long qb_rule_node_line(const xmlNode *n);
/* The question's id for messages. */
const char *qb_rule_qid(const struct qb_question *q);
/* Appends ITEM to a list in B, separated by ", " (naming options in messages). */
int qb_rule_list_add(struct qb_buf *b, const char *item);
/* Appends S[0..n) to B with every run of white space turned into one space
 * (quoting text in messages). */
int qb_rule_quote(struct qb_buf *b, const char *s, size_t n);

/* ---- check and finish functions of the rule table ----------------------- */

/* rule_shape.c */
int qb_rule_type_shape(struct qb_lint *l, const struct qb_question *q);
int qb_rule_text_empty(struct qb_lint *l, const struct qb_question *q);
int qb_rule_option_count(struct qb_lint *l, const struct qb_question *q);

/* rule_keys.c */
int qb_rule_key_missing(struct qb_lint *l, const struct qb_question *q);
int qb_rule_key_multiple(struct qb_lint *l, const struct qb_question *q);
int qb_rule_key_select_mismatch(struct qb_lint *l, const struct qb_question *q);
int qb_rule_key_rationale_conflict(struct qb_lint *l, const struct qb_question *q);
int qb_rule_key_all_correct(struct qb_lint *l, const struct qb_question *q);
int qb_rule_target_moodle_fraction(struct qb_lint *l, const struct qb_question *q);

/* rule_options.c */
int qb_rule_option_duplicate(struct qb_lint *l, const struct qb_question *q);
int qb_rule_option_near_duplicate(struct qb_lint *l, const struct qb_question *q);
int qb_rule_option_all_of_the_above(struct qb_lint *l, const struct qb_question *q);
int qb_rule_option_none_of_the_above(struct qb_lint *l, const struct qb_question *q);
int qb_rule_option_letter_reference(struct qb_lint *l, const struct qb_question *q);
/* Edit similarity of two UTF-8 strings, 0..1 (1 - Levenshtein distance over
 * code points / the longer length); -1 when either is longer than the bound
 * the measure is computed for (QB_SIMILARITY_MAX code points). */
#define QB_SIMILARITY_MAX 256
double qb_rule_similarity(const char *a, size_t alen, const char *b, size_t blen);
/* 1 when two option texts nearly equal by similarity still say different
 * things: their numbers differ ("2 bytes" / "4 bytes"), or one is the other
 * with a negating prefix on a word ("synchronous" / "asynchronous"). */
int qb_rule_near_duplicate_guard(const char *a, size_t alen, const char *b, size_t blen);

/* rule_stem.c */
int qb_rule_stem_negative_unemphasized(struct qb_lint *l, const struct qb_question *q);

/* rule_cues.c */
int qb_rule_cue_longest_option(struct qb_lint *l, const struct qb_question *q);
int qb_rule_cue_absolute_terms(struct qb_lint *l, const struct qb_question *q);

/* rule_coverage.c */
int qb_rule_explanation_missing(struct qb_lint *l, const struct qb_question *q);
int qb_rule_rationale_missing(struct qb_lint *l, const struct qb_question *q);

/* rule_digest.c: bank-wide rules over small per-question digests */
int qb_rule_id_duplicate(struct qb_lint *l, const struct qb_question *q);
int qb_rule_question_duplicate(struct qb_lint *l, const struct qb_question *q);
int qb_rule_stem_duplicate(struct qb_lint *l, const struct qb_question *q);
int qb_rule_option_set_reused(struct qb_lint *l, const struct qb_question *q);
int qb_rule_key_position_count(struct qb_lint *l, const struct qb_question *q);
int qb_rule_key_position_finish(struct qb_lint *l);
/* The bank-key-position-balance decision, exposed for the unit tests: 1 when
 * OBSERVED keys of N questions at one position, where EXPECTED were due by
 * chance and POSITIONS positions were tested, is clearly too many. */
int qb_rule_key_position_unbalanced(double observed, double expected, double n,
				    size_t positions);

/* rule_img.c: img src safety and existence (imgpath.h) */
int qb_rule_img_missing(struct qb_lint *l, const struct qb_question *q);
int qb_rule_img_unsafe_path(struct qb_lint *l, const struct qb_question *q);

/* User (configuration) rules, run after the table for each question. */
int qb_lint_user_rules(struct qb_lint *l, const struct qb_question *q);

#endif
