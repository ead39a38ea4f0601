/* Moodle's fixed list of grade fractions (question/format/xml import and
 * question_bank::fraction_options_full()): an answer's fraction must be
 * within 0.00001 of one of them, or the importer drops the question.
 * Shared by the linter (target-moodle-fraction) and the Moodle exporter. */
#ifndef QB_MOODLE_GRADES_H
#define QB_MOODLE_GRADES_H

#include <stddef.h>

struct qb_moodle_grade {
	double percent;        /* e.g. 33.33333 */
	const char *spelling;  /* as Moodle writes it, e.g. "33.33333" */
};

/* The positive list, descending (the negatives are the same with a minus). */
extern const struct qb_moodle_grade qb_moodle_grades[];
extern const size_t qb_moodle_ngrades;

/* The listed grade within 0.00001 of PERCENT (positive or negative), or NULL. */
const struct qb_moodle_grade *qb_moodle_grade_find(double percent);

/* The listed share 100/N for N options (N >= 1), or NULL when Moodle's list
 * has no such value (N = 11..19, 21, ...). */
const struct qb_moodle_grade *qb_moodle_share(size_t n);

#endif
