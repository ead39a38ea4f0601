#include "moodle_grades.h"

#include <math.h>

const struct qb_moodle_grade qb_moodle_grades[] = {
	{ 100.0, "100" },
	{ 90.0, "90" },
	{ 83.33333, "83.33333" },
	{ 80.0, "80" },
	{ 75.0, "75" },
	{ 70.0, "70" },
	{ 66.66667, "66.66667" },
	{ 60.0, "60" },
	{ 50.0, "50" },
	{ 40.0, "40" },
	{ 33.33333, "33.33333" },
	{ 30.0, "30" },
	{ 25.0, "25" },
	{ 20.0, "20" },
	{ 16.66667, "16.66667" },
	{ 14.28571, "14.28571" },
	{ 12.5, "12.5" },
	{ 11.11111, "11.11111" },
	{ 10.0, "10" },
	{ 5.0, "5" },
	{ 0.0, "0" },
};

const size_t qb_moodle_ngrades = sizeof(qb_moodle_grades) / sizeof(qb_moodle_grades[0]);

const struct qb_moodle_grade *qb_moodle_grade_find(double percent)
{
	double p = fabs(percent);
	size_t i;

	/* Moodle compares fractions (0..1) with a tolerance of 0.0000001 after
	 * dividing by 100; 0.00001 in percent is the same bound. */
	for (i = 0; i < qb_moodle_ngrades; i++)
		if (fabs(p - qb_moodle_grades[i].percent) < 0.00001)
			return &qb_moodle_grades[i];
	return NULL;
}

const struct qb_moodle_grade *qb_moodle_share(size_t n)
{
	if (n == 0)
		return NULL;
	return qb_moodle_grade_find(100.0 / (double)n);
}
