#include "diff_words.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "error.h"

struct word {
	const char *s;
	size_t len;
	int space;          /* white space before it */
};

struct words {
	struct word *v;
	size_t n, cap;
};

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static int cut(struct words *w, const char *s)
{
	const char *p = s;

	while (*p) {
		struct word x;

		x.space = 0;
		while (is_space(*p)) {
			p++;
			x.space = 1;
		}
		if (!*p)
			break;
		x.s = p;
		if (*p == '<') {
			while (*p && *p != '>')
				p++;
			if (*p)
				p++;
		} else {
			while (*p && !is_space(*p) && *p != '<')
				p++;
		}
		x.len = (size_t)(p - x.s);
		if (QB_ARRAY_PUSH(w->v, w->n, w->cap, x))
			return QB_ENOMEM;
	}
	return 0;
}

static int same_word(const struct word *a, const struct word *b)
{
	return a->len == b->len && memcmp(a->s, b->s, a->len) == 0;
}

struct out {
	struct qb_word_seg *v;
	size_t n, cap;
};

/* Adds word W with OP, joining it to the last segment when that has the
 * same op. */
static int emit(struct out *o, enum qb_word_op op, const struct word *w)
{
	struct qb_word_seg *last = o->n ? &o->v[o->n - 1] : NULL;
	struct qb_word_seg s;

	if (last && last->op == op) {
		last->len = (size_t)(w->s + w->len - last->s);
		return 0;
	}
	s.op = op;
	s.space = w->space;
	s.s = w->s;
	s.len = w->len;
	/* the first segment of the text has nothing to be spaced from */
	if (!last)
		s.space = 0;
	return QB_ARRAY_PUSH(o->v, o->n, o->cap, s);
}

/* The middle A[0..na), B[0..nb) by dynamic programming over a table of
 * suffix LCS lengths, or as one deletion and one insertion when the table
 * would be too large. */
static int middle(struct out *o, const struct word *a, size_t na, const struct word *b,
		  size_t nb, size_t *kept)
{
	uint32_t *t;
	size_t i, j, w = nb + 1;
	int rc = 0;

	if (na == 0 || nb == 0 || (na + 1) > QB_WORDS_MAX_CELLS / (nb + 1)) {
		for (i = 0; i < na && !rc; i++)
			rc = emit(o, QB_WORD_DEL, &a[i]);
		for (j = 0; j < nb && !rc; j++)
			rc = emit(o, QB_WORD_INS, &b[j]);
		return rc;
	}
	t = calloc((na + 1) * w, sizeof(*t));
	if (!t)
		return QB_ENOMEM;
	for (i = na; i-- > 0;)
		for (j = nb; j-- > 0;)
			t[i * w + j] = same_word(&a[i], &b[j])
				       ? t[(i + 1) * w + j + 1] + 1
				       : (t[(i + 1) * w + j] >= t[i * w + j + 1] ? t[(i + 1) * w + j]
										: t[i * w + j + 1]);
	i = j = 0;
	while ((i < na || j < nb) && !rc) {
		if (i < na && j < nb && same_word(&a[i], &b[j])) {
			rc = emit(o, QB_WORD_SAME, &b[j]);
			(*kept)++;
			i++;
			j++;
		} else if (j >= nb || (i < na && t[(i + 1) * w + j] >= t[i * w + j + 1])) {
			rc = emit(o, QB_WORD_DEL, &a[i++]);
		} else {
			rc = emit(o, QB_WORD_INS, &b[j++]);
		}
	}
	free(t);
	return rc;
}

static int diff(struct out *o, size_t *kept, size_t *total, const char *old_text,
		const char *new_text)
{
	struct words a = { NULL, 0, 0 }, b = { NULL, 0, 0 };
	size_t pre = 0, suf = 0, i;
	int rc;

	*kept = 0;
	rc = cut(&a, old_text);
	if (!rc)
		rc = cut(&b, new_text);
	if (rc)
		goto done;
	*total = a.n + b.n;
	while (pre < a.n && pre < b.n && same_word(&a.v[pre], &b.v[pre]))
		pre++;
	while (suf < a.n - pre && suf < b.n - pre &&
	       same_word(&a.v[a.n - 1 - suf], &b.v[b.n - 1 - suf]))
		suf++;
	for (i = 0; i < pre && !rc; i++)
		rc = emit(o, QB_WORD_SAME, &b.v[i]);
	*kept += pre + suf;
	if (!rc)
		rc = middle(o, a.v + pre, a.n - pre - suf, b.v + pre, b.n - pre - suf, kept);
	for (i = b.n - suf; i < b.n && !rc; i++)
		rc = emit(o, QB_WORD_SAME, &b.v[i]);
done:
	free(a.v);
	free(b.v);
	return rc;
}

int qb_words_diff(struct qb_word_seg **out, size_t *n, size_t *same, const char *old_text,
		  const char *new_text)
{
	struct out o = { NULL, 0, 0 };
	size_t kept = 0, total = 0;
	int rc = diff(&o, &kept, &total, old_text, new_text);

	if (rc) {
		free(o.v);
		*out = NULL;
		*n = 0;
		return rc;
	}
	*out = o.v;
	*n = o.n;
	if (same)
		*same = kept;
	return 0;
}

double qb_words_similarity(const char *old_text, const char *new_text)
{
	struct out o = { NULL, 0, 0 };
	size_t kept = 0, total = 0;
	int rc = diff(&o, &kept, &total, old_text, new_text);

	free(o.v);
	if (rc)
		return -1;
	return total ? 2.0 * (double)kept / (double)total : 1.0;
}
