/* One question as `qbank diff` compares it: every part as a display text
 * (rich text with its markup written as tags, white space collapsed
 * outside <pre>, none at block boundaries, attributes in name order), so
 * that re-indenting a file changes nothing; and the digests that stand for
 * the question while a whole bank is read (one hash of everything, small
 * hashes of each part for finding renamed questions).
 * Ownership: every string and array of a qb_dq lives in the arena given to
 * qb_dq_build; the arena is the caller's. */
#ifndef QB_DIFF_QUESTION_H
#define QB_DIFF_QUESTION_H

#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/buf.h"
#include "diff_words.h"
#include "gitrev.h"
#include "model.h"

struct qb_dq_opt {
	const char *id;            /* @id, else its letter */
	int explicit_id;
	int correct;
	const char *text;
	const char *rationale;     /* NULL when absent */
};

struct qb_dq_img {
	const char *src;
	const char *hash;          /* git blob id (hexadecimal), NULL when the file is missing */
};

struct qb_dq {
	const char *id;            /* "" when missing */
	const char *type;
	const char *points;        /* the value, "1" by default */
	const char *select;        /* NULL without @select */
	int shuffle, case_sensitive;
	const char *source, *stem, *explanation, *rubric, *response;  /* NULL when absent */
	const char *rationale_true, *rationale_false;                 /* truefalse */
	const char *category;      /* the category path, " / " between names; "" outside any */
	const char **tags;         /* sorted */
	size_t ntags;
	struct qb_dq_opt *opts;
	size_t nopts;
	const char **answers;      /* "700 ± 1 MB"; sorted */
	size_t nanswers;
	const char **pairs;        /* "premise → response"; sorted when shuffled */
	size_t npairs;
	const char **distractors;  /* sorted */
	size_t ndistractors;
	struct qb_dq_img *imgs;    /* every img of the question, by src, once each */
	size_t nimgs;
};

/* Finds the content of image SRC of question Q: 0 with the blob id in HEX,
 * 1 when there is no such file, or a negative error. */
typedef int (*qb_dq_image_fn)(void *ctx, const struct qb_question *q, const char *src,
			      char hex[QB_GIT_HEX]);

int qb_dq_build(struct qb_dq *out, struct qb_arena *a, const struct qb_question *q,
		qb_dq_image_fn image, void *image_ctx);

/* The digests of a question: CONTENT covers every part but the id and the
 * category (options, pairs, answers, tags and images in an order that does
 * not change when they may be shuffled anyway); PARTS[0..*nparts) are
 * 32-bit hashes of the stem, the explanation and each option, rationale,
 * answer, pair and distractor, at most QB_DQ_MAX_PARTS, sorted. SCRATCH is
 * a buffer of the caller's, reused. */
#define QB_DQ_MAX_PARTS 64
int qb_dq_digest(const struct qb_dq *d, struct qb_buf *scratch, uint64_t *content,
		 uint32_t *parts, size_t *nparts);

#endif
