/* Bank statistics for `qbank stats`: counts by type, category and tag,
 * points, explanation and rationale coverage, and where the keys of choice
 * questions sit (A, B, C, ...). Gathered through qb_run() hooks; printing
 * is the command line's business.
 * Memory grows with the number of distinct categories and tags and with the
 * largest option count, never with the number of questions.
 * Ownership: a qb_stats owns its tables and every name in them;
 * qb_stats_free releases them. */
#ifndef QB_STATS_H
#define QB_STATS_H

#include <stddef.h>

#include "core/map.h"
#include "model.h"

/* One category (its path from the outermost, joined with " / ") or tag. */
struct qb_stats_name {
	char *name;
	size_t questions;
	double points;
};

/* Names counted so far, looked up through a hash index over V. After
 * qb_stats_finish, V is sorted by name (byte order) and the index is gone. */
struct qb_stats_names {
	struct qb_stats_name *v;
	size_t n;
	size_t cap;
	struct qb_map index;       /* by name: positions in v */
};

struct qb_stats {
	size_t files;
	size_t questions;          /* schema-valid questions: the ones counted */
	double points;
	size_t type_questions[QB_Q_UNKNOWN];
	double type_points[QB_Q_UNKNOWN];

	struct qb_stats_names categories;
	size_t uncategorized;      /* questions outside every category */
	struct qb_stats_names tags;
	size_t untagged;           /* questions without a tag */

	/* Coverage, counted as the linter's summary counts it. */
	size_t explained;          /* questions with a non-empty explanation */
	size_t explainable;
	size_t rationales;         /* options (and truefalse sides) with a rationale */
	size_t rationalizable;

	/* Correct options of single and multiple questions by position in the
	 * file: key_positions[0] counts keys at A, [1] at B, and so on. */
	size_t *key_positions;
	size_t nkey_positions, capkey_positions;
	size_t keys;               /* their sum */

	/* the category of the previous question, to skip rebuilding its path */
	size_t last_file, last_serial, last_category;
	int have_last;
};

int qb_stats_new(struct qb_stats **out);
void qb_stats_free(struct qb_stats *s);

/* Call these from qb_run()'s bank and question hooks. */
int qb_stats_bank(struct qb_stats *s, const struct qb_bank_info *b);
int qb_stats_question(struct qb_stats *s, const struct qb_question *q);
/* Sorts the category and tag tables by name; call once after the run. */
void qb_stats_finish(struct qb_stats *s);

/* The letter label of a 0-based position: A ... Z, AA, AB, ... (as the
 * reader names options without @id). BUF must hold 16 bytes. */
const char *qb_stats_position_label(char *buf, size_t pos);

#endif
