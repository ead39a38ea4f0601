/* The check and finish functions of the rule table (rules.c), one file per
 * family of rules, and what the families share only among themselves. Every
 * rule sees the narrow context of rule.h, nothing of the linter.
 * Ownership: as in rule.h; the digests belong to the context
 * (qb_rule_digests_free from qb_rule_ctx_dispose). */
#ifndef QB_RULES_IMPL_H
#define QB_RULES_IMPL_H

#include <stdint.h>

#include "../rule.h"

/* rule_common.c: the lint's own PCRE2 match data (of at least one pair),
 * for the configuration's patterns, which are shared read-only by the
 * lints that run at once (qbank diff reads its two sides together). */
struct pcre2_real_match_data_8;
struct pcre2_real_match_data_8 *qb_rule_match_data(struct qb_rule_ctx *cx);

/* rule_digest.c: frees the bank-wide rules' digests; accepts NULL. */
void qb_rule_digests_free(struct qb_rule_digests *d);

/* ---- check and finish functions of the rule table ----------------------- */

/* rule_shape.c */
int qb_rule_type_shape(struct qb_rule_ctx *cx, const struct qb_question *q);
int qb_rule_text_empty(struct qb_rule_ctx *cx, const struct qb_question *q);
int qb_rule_option_count(struct qb_rule_ctx *cx, const struct qb_question *q);

/* rule_keys.c */
int qb_rule_key_missing(struct qb_rule_ctx *cx, const struct qb_question *q);
int qb_rule_key_multiple(struct qb_rule_ctx *cx, const struct qb_question *q);
int qb_rule_key_select_mismatch(struct qb_rule_ctx *cx, const struct qb_question *q);
int qb_rule_key_rationale_conflict(struct qb_rule_ctx *cx, const struct qb_question *q);
int qb_rule_key_all_correct(struct qb_rule_ctx *cx, const struct qb_question *q);
int qb_rule_numeric_tolerance_missing(struct qb_rule_ctx *cx, const struct qb_question *q);

/* rule_options.c */
int qb_rule_option_duplicate(struct qb_rule_ctx *cx, const struct qb_question *q);
int qb_rule_option_near_duplicate(struct qb_rule_ctx *cx, const struct qb_question *q);
int qb_rule_option_all_of_the_above(struct qb_rule_ctx *cx, const struct qb_question *q);
int qb_rule_option_none_of_the_above(struct qb_rule_ctx *cx, const struct qb_question *q);
int qb_rule_option_letter_reference(struct qb_rule_ctx *cx, const struct qb_question *q);
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
int qb_rule_stem_negative_unemphasized(struct qb_rule_ctx *cx, const struct qb_question *q);

/* rule_cues.c */
int qb_rule_cue_longest_option(struct qb_rule_ctx *cx, const struct qb_question *q);
int qb_rule_cue_absolute_terms(struct qb_rule_ctx *cx, const struct qb_question *q);
int qb_rule_cue_stem_echo(struct qb_rule_ctx *cx, const struct qb_question *q);

/* rule_coverage.c */
int qb_rule_explanation_missing(struct qb_rule_ctx *cx, const struct qb_question *q);
int qb_rule_rationale_missing(struct qb_rule_ctx *cx, const struct qb_question *q);

/* rule_digest.c: bank-wide rules over small per-question digests */
int qb_rule_id_duplicate(struct qb_rule_ctx *cx, const struct qb_question *q);
int qb_rule_question_duplicate(struct qb_rule_ctx *cx, const struct qb_question *q);
int qb_rule_stem_duplicate(struct qb_rule_ctx *cx, const struct qb_question *q);
int qb_rule_option_set_reused(struct qb_rule_ctx *cx, const struct qb_question *q);
int qb_rule_key_position_count(struct qb_rule_ctx *cx, const struct qb_question *q);
int qb_rule_key_position_finish(struct qb_rule_ctx *cx);
/* The bank-key-position-balance decision, exposed for the unit tests: 1 when
 * OBSERVED keys of N questions at one position, where EXPECTED were due by
 * chance and POSITIONS positions were tested, is clearly too many. */
int qb_rule_key_position_unbalanced(double observed, double expected, double n,
				    size_t positions);

/* rule_img.c: img src safety and existence (imgpath.h) */
int qb_rule_img_missing(struct qb_rule_ctx *cx, const struct qb_question *q);
int qb_rule_img_unsafe_path(struct qb_rule_ctx *cx, const struct qb_question *q);

#endif
