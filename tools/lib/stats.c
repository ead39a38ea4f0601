#include "stats.h"

#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "core/buf.h"
#include "error.h"
#include "text.h"

int qb_stats_new(struct qb_stats **out)
{
	*out = calloc(1, sizeof(**out));
	return *out ? 0 : QB_ENOMEM;
}

static void names_dispose(struct qb_stats_names *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free(t->v[i].name);
	free(t->v);
	qb_map_dispose(&t->index);
	memset(t, 0, sizeof(*t));
}

void qb_stats_free(struct qb_stats *s)
{
	if (!s)
		return;
	names_dispose(&s->categories);
	names_dispose(&s->tags);
	free(s->key_positions);
	free(s);
}

/* A name looked up: not NUL-terminated where the caller has it. */
struct name_key {
	const char *s;
	size_t len;
};

static uint64_t name_hash(void *ctx, size_t rec)
{
	const char *name = ((const struct qb_stats_names *)ctx)->v[rec].name;

	return qb_hash(name, strlen(name));
}

static int name_same(void *ctx, size_t rec, const void *key)
{
	const char *name = ((const struct qb_stats_names *)ctx)->v[rec].name;
	const struct name_key *k = key;

	return strncmp(name, k->s, k->len) == 0 && name[k->len] == '\0';
}

static const struct qb_map_ops name_ops = { name_hash, name_same };

/* Finds NAME (LEN bytes) or adds it with zero counts; *INDEX is its place in v. */
static int names_get(struct qb_stats_names *t, const char *name, size_t len, size_t *index)
{
	struct name_key k = { name, len };
	uint64_t h = qb_hash(name, len);
	size_t i = qb_map_find(&t->index, h, &name_ops, t, &k);
	int rc;

	if (i != QB_MAP_NONE) {
		*index = i;
		return 0;
	}
	if (QB_ARRAY_RESERVE(t->v, t->cap, t->n + 1))
		return QB_ENOMEM;
	t->v[t->n].name = strndup(name, len);
	if (!t->v[t->n].name)
		return QB_ENOMEM;
	t->v[t->n].questions = 0;
	t->v[t->n].points = 0;
	rc = qb_map_insert(&t->index, h, t->n, &name_ops, t);
	if (rc) {
		free(t->v[t->n].name);
		return rc;
	}
	*index = t->n++;
	return 0;
}

int qb_stats_bank(struct qb_stats *s, const struct qb_bank_info *b)
{
	(void)b;
	s->files++;
	return 0;
}

/* The question's category entry; the path is joined only when the reader
 * says the enclosing category changed. */
static int count_category(struct qb_stats *s, const struct qb_question *q)
{
	struct qb_buf path = QB_BUF_INIT;
	size_t i, index;
	int rc = 0;

	if (q->ncategories == 0) {
		s->uncategorized++;
		return 0;
	}
	if (s->have_last && s->last_file == q->file_index && s->last_serial == q->category_serial) {
		index = s->last_category;
	} else {
		for (i = 0; i < q->ncategories && !rc; i++)
			rc = qb_buf_printf(&path, "%s%s", i ? " / " : "", q->categories[i]);
		if (!rc)
			rc = names_get(&s->categories, path.ptr, path.len, &index);
		qb_buf_dispose(&path);
		if (rc)
			return rc;
		s->have_last = 1;
		s->last_file = q->file_index;
		s->last_serial = q->category_serial;
		s->last_category = index;
	}
	s->categories.v[index].questions++;
	s->categories.v[index].points += q->points_value;
	return 0;
}

static int count_keys(struct qb_stats *s, const struct qb_question *q)
{
	size_t i;

	if (q->type != QB_Q_SINGLE && q->type != QB_Q_MULTIPLE)
		return 0;
	if (q->noptions > s->nkey_positions) {
		if (QB_ARRAY_RESERVE(s->key_positions, s->capkey_positions, q->noptions))
			return QB_ENOMEM;
		memset(s->key_positions + s->nkey_positions, 0,
		       (q->noptions - s->nkey_positions) * sizeof(*s->key_positions));
		s->nkey_positions = q->noptions;
	}
	for (i = 0; i < q->noptions; i++) {
		if (q->options[i].correct) {
			s->key_positions[i]++;
			s->keys++;
		}
	}
	return 0;
}

/* The same definitions as the linter's coverage summary (lint.c). */
static void count_coverage(struct qb_stats *s, const struct qb_question *q)
{
	size_t i;

	if (q->type == QB_Q_UNKNOWN)
		return;
	s->explainable++;
	if (q->explanation && !qb_text_is_blank(q->explanation))
		s->explained++;
	if (qb_qtype_is_choice(q->type)) {
		for (i = 0; i < q->noptions; i++) {
			s->rationalizable++;
			if (q->options[i].rationale && !qb_text_is_blank(q->options[i].rationale))
				s->rationales++;
		}
	} else if (q->type == QB_Q_TRUEFALSE) {
		s->rationalizable += 2;
		for (i = 0; i < q->nside_rationales && i < 2; i++)
			if (!qb_text_is_blank(q->side_rationales[i].node))
				s->rationales++;
	}
}

int qb_stats_question(struct qb_stats *s, const struct qb_question *q)
{
	size_t i, index;
	int rc;

	s->questions++;
	s->points += q->points_value;
	if (q->type != QB_Q_UNKNOWN) {
		s->type_questions[q->type]++;
		s->type_points[q->type] += q->points_value;
	}
	rc = count_category(s, q);
	if (q->ntags == 0)
		s->untagged++;
	for (i = 0; i < q->ntags && !rc; i++) {
		size_t j;

		/* a tag written twice on one question counts once */
		for (j = 0; j < i && strcmp(q->tags[j], q->tags[i]) != 0; j++)
			;
		if (j < i)
			continue;
		rc = names_get(&s->tags, q->tags[i], strlen(q->tags[i]), &index);
		if (!rc) {
			s->tags.v[index].questions++;
			s->tags.v[index].points += q->points_value;
		}
	}
	if (!rc)
		rc = count_keys(s, q);
	count_coverage(s, q);
	return rc;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(((const struct qb_stats_name *)a)->name, ((const struct qb_stats_name *)b)->name);
}

static void names_sort(struct qb_stats_names *t)
{
	qb_map_dispose(&t->index);
	if (t->n > 1)
		qsort(t->v, t->n, sizeof(t->v[0]), cmp_name);
}

void qb_stats_finish(struct qb_stats *s)
{
	names_sort(&s->categories);
	names_sort(&s->tags);
	s->have_last = 0;
}

const char *qb_stats_position_label(char *buf, size_t pos)
{
	char tmp[16];
	size_t n = 0, k;

	/* bijective base 26: 0 -> A, 25 -> Z, 26 -> AA */
	pos++;
	while (pos > 0 && n < sizeof(tmp) - 1) {
		pos--;
		tmp[n++] = (char)('A' + pos % 26);
		pos /= 26;
	}
	for (k = 0; k < n; k++)
		buf[k] = tmp[n - 1 - k];
	buf[n] = '\0';
	return buf;
}
