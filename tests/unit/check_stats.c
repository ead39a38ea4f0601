#include <stdio.h>
#include <string.h>

#include "../../tools/lib/stats.h"
#include "check_suites.h"

/* A schema-valid question as the reader would hand it out, built by hand. */
static struct qb_question question(enum qb_qtype type, double points)
{
	struct qb_question q;

	memset(&q, 0, sizeof(q));
	q.type = type;
	q.type_name = qb_qtype_names[type];
	q.points_value = points;
	q.shuffle = 1;
	return q;
}

static const struct qb_stats_name *find(const struct qb_stats_names *t, const char *name)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (strcmp(t->v[i].name, name) == 0)
			return &t->v[i];
	return NULL;
}

START_TEST(types_points_and_keys)
{
	struct qb_stats *s = NULL;
	struct qb_option opts[4];
	struct qb_question q;

	ck_assert_int_eq(qb_stats_new(&s), 0);
	memset(opts, 0, sizeof(opts));
	opts[2].correct = 1;
	q = question(QB_Q_SINGLE, 1);
	q.options = opts;
	q.noptions = 4;
	ck_assert_int_eq(qb_stats_question(s, &q), 0);
	opts[0].correct = 1;
	q = question(QB_Q_MULTIPLE, 2.5);
	q.options = opts;
	q.noptions = 3;
	ck_assert_int_eq(qb_stats_question(s, &q), 0);
	q = question(QB_Q_ESSAY, 4);
	ck_assert_int_eq(qb_stats_question(s, &q), 0);
	qb_stats_finish(s);

	ck_assert_uint_eq(s->questions, 3);
	ck_assert(s->points == 7.5);
	ck_assert_uint_eq(s->type_questions[QB_Q_SINGLE], 1);
	ck_assert(s->type_points[QB_Q_MULTIPLE] == 2.5);
	/* keys: C of the single, A and C of the multiple; the essay has none */
	ck_assert_uint_eq(s->nkey_positions, 4);
	ck_assert_uint_eq(s->key_positions[0], 1);
	ck_assert_uint_eq(s->key_positions[1], 0);
	ck_assert_uint_eq(s->key_positions[2], 2);
	ck_assert_uint_eq(s->key_positions[3], 0);
	ck_assert_uint_eq(s->keys, 3);
	/* coverage: no explanations, 7 options without rationale */
	ck_assert_uint_eq(s->explainable, 3);
	ck_assert_uint_eq(s->explained, 0);
	ck_assert_uint_eq(s->rationalizable, 7);
	ck_assert_uint_eq(s->uncategorized, 3);
	ck_assert_uint_eq(s->untagged, 3);
	qb_stats_free(s);
}
END_TEST

/* Many distinct names go through several rehashes and come out sorted,
 * each with its own count; a tag repeated on one question counts once. */
START_TEST(tags_hash_table)
{
	struct qb_stats *s = NULL;
	char names[3000][16];
	const char *tags[3];
	struct qb_question q;
	size_t i;

	ck_assert_int_eq(qb_stats_new(&s), 0);
	for (i = 0; i < 3000; i++)
		snprintf(names[i], sizeof(names[i]), "tag%04zu", 2999 - i);
	for (i = 0; i < 3000; i++) {
		q = question(QB_Q_SHORT, 1);
		tags[0] = names[i];
		tags[1] = names[i % 10];
		tags[2] = names[i];
		q.tags = tags;
		q.ntags = 3;
		ck_assert_int_eq(qb_stats_question(s, &q), 0);
	}
	qb_stats_finish(s);
	ck_assert_uint_eq(s->tags.n, 3000);
	for (i = 1; i < s->tags.n; i++)
		ck_assert(strcmp(s->tags.v[i - 1].name, s->tags.v[i].name) < 0);
	/* names[0] ("tag2999") is on question 0 and on every tenth question after it */
	ck_assert_uint_eq(find(&s->tags, "tag2999")->questions, 300);
	ck_assert_uint_eq(find(&s->tags, "tag0000")->questions, 1);
	qb_stats_free(s);
}
END_TEST

START_TEST(category_paths)
{
	struct qb_stats *s = NULL;
	const char *outer[] = { "Networks" };
	const char *inner[] = { "Networks", "Routing" };
	struct qb_question q;

	ck_assert_int_eq(qb_stats_new(&s), 0);
	q = question(QB_Q_TRUEFALSE, 1);
	q.categories = inner;
	q.ncategories = 2;
	q.category_serial = 2;
	ck_assert_int_eq(qb_stats_question(s, &q), 0);
	ck_assert_int_eq(qb_stats_question(s, &q), 0);
	q.categories = outer;
	q.ncategories = 1;
	q.category_serial = 3;
	ck_assert_int_eq(qb_stats_question(s, &q), 0);
	/* the same serial in another file is another category */
	q.file_index = 1;
	q.categories = inner;
	q.ncategories = 2;
	q.category_serial = 3;
	ck_assert_int_eq(qb_stats_question(s, &q), 0);
	qb_stats_finish(s);
	ck_assert_uint_eq(s->categories.n, 2);
	ck_assert_str_eq(s->categories.v[0].name, "Networks");
	ck_assert_uint_eq(s->categories.v[0].questions, 1);
	ck_assert_str_eq(s->categories.v[1].name, "Networks / Routing");
	ck_assert_uint_eq(s->categories.v[1].questions, 3);
	/* truefalse: two sides to give a rationale each */
	ck_assert_uint_eq(s->rationalizable, 8);
	qb_stats_free(s);
}
END_TEST

START_TEST(position_labels)
{
	char b[16];

	ck_assert_str_eq(qb_stats_position_label(b, 0), "A");
	ck_assert_str_eq(qb_stats_position_label(b, 25), "Z");
	ck_assert_str_eq(qb_stats_position_label(b, 26), "AA");
	ck_assert_str_eq(qb_stats_position_label(b, 701), "ZZ");
	ck_assert_str_eq(qb_stats_position_label(b, 702), "AAA");
}
END_TEST

Suite *suite_stats(void)
{
	Suite *s = suite_create("stats");
	TCase *tc = tcase_create("stats");

	tcase_add_test(tc, types_points_and_keys);
	tcase_add_test(tc, tags_hash_table);
	tcase_add_test(tc, category_paths);
	tcase_add_test(tc, position_labels);
	suite_add_tcase(s, tc);
	return s;
}
