/* Bank-wide rules: id-duplicate, question-duplicate, stem-duplicate,
 * option-set-reused, bank-key-position-balance.
 *
 * They see every question of the run once, in order, and keep only small
 * digests: 64-bit hashes of the normalised stem, of the option set and of
 * its correct options, the file number, the line and the question id (to
 * name the other place).
 * Lookups go through open-addressing hash tables that double when half
 * full, so a run takes time linear in the number of questions. A finding is
 * reported when the later question is seen, so an inline suppression before
 * that question silences it.
 *
 * Two different texts with the same 64-bit hash would be taken for equal;
 * with a million questions the chance is about 3e-8.
 *
 * Ownership: the digests belong to the qb_lint (l->digests), created on
 * first use and freed by qb_lint_digests_free. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../text.h"
#include "rules_impl.h"

/* A question that was first with its stem, its option set, or both. */
struct rec {
	uint64_t stem;     /* 0 = empty stem (never compared) */
	uint64_t set;      /* option set (choice) or body (other types) */
	uint64_t key;      /* the correct options, as a set (choice) */
	uint32_t file;
	uint32_t line;
	size_t id;         /* offset of the id in digests.ids */
	int choice;        /* set is a choice question's option set */
};

/* Index of recs by one key: slot = record number + 1, 0 = empty. */
struct table {
	uint32_t *slot;
	size_t cap;        /* power of two */
	size_t n;
};

enum key_kind { BY_QUESTION, BY_STEM, BY_SET };

struct id_entry {
	uint64_t h;        /* 0 = empty */
	uint32_t file;
	uint32_t line;
};

#define MAX_POSITIONS 26

struct qb_lint_digests {
	struct id_entry *idtab;
	size_t idcap, nids;

	struct rec *recs;
	size_t nrecs, caprecs;
	struct qb_buf ids;
	struct table tab[3];    /* by enum key_kind */

	uint64_t *hv;           /* per-question scratch: hashes of a body's parts */
	size_t caphv;

	/* this question's findings, computed once for the three rules */
	unsigned long serial;
	size_t qdup, sdup, oset;  /* record number + 1, or 0 */
	uint64_t stem;            /* this question's stem digest */

	/* bank-key-position-balance */
	double observed[MAX_POSITIONS], expected[MAX_POSITIONS];
	size_t nkeyed, maxpos;
};

void qb_lint_digests_free(struct qb_lint_digests *d)
{
	int i;

	if (!d)
		return;
	free(d->idtab);
	free(d->recs);
	qb_buf_dispose(&d->ids);
	for (i = 0; i < 3; i++)
		free(d->tab[i].slot);
	free(d->hv);
	free(d);
}

static struct qb_lint_digests *digests(struct qb_lint *l)
{
	if (!l->digests) {
		l->digests = calloc(1, sizeof(*l->digests));
		if (l->digests)
			l->digests->serial = (unsigned long)-1;
	}
	return l->digests;
}

static uint64_t mix(uint64_t a, uint64_t b)
{
	uint64_t h = a ^ (b * 0x9e3779b97f4a7c15ULL + 0x632be59bd9b4e019ULL);

	h ^= h >> 31;
	h *= 0xbf58476d1ce4e5b9ULL;
	h ^= h >> 29;
	return h;
}

static uint64_t key_of(const struct rec *r, enum key_kind k)
{
	return k == BY_QUESTION ? mix(r->stem, r->set) : k == BY_STEM ? r->stem
								       : mix(r->set, r->key);
}

static int rec_matches(const struct rec *r, enum key_kind k, const struct rec *p)
{
	if (k == BY_QUESTION)
		return r->stem == p->stem && r->set == p->set;
	if (k == BY_STEM)
		return r->stem == p->stem;
	return r->choice && r->set == p->set && r->key == p->key;
}

/* The record matching PROBE in table K, or 0. */
static size_t table_find(const struct qb_lint_digests *d, enum key_kind k, const struct rec *probe)
{
	const struct table *t = &d->tab[k];
	size_t i;

	if (!t->cap)
		return 0;
	for (i = key_of(probe, k) & (t->cap - 1); t->slot[i]; i = (i + 1) & (t->cap - 1))
		if (rec_matches(&d->recs[t->slot[i] - 1], k, probe))
			return t->slot[i];
	return 0;
}

static void table_put(struct table *t, uint64_t key, uint32_t rec1)
{
	size_t i;

	for (i = key & (t->cap - 1); t->slot[i]; i = (i + 1) & (t->cap - 1))
		;
	t->slot[i] = rec1;
	t->n++;
}

static int table_insert(struct qb_lint_digests *d, enum key_kind k, size_t rec1)
{
	struct table *t = &d->tab[k];

	if (rec1 > UINT32_MAX)
		return QB_ENOMEM;
	if (2 * (t->n + 1) > t->cap) {
		struct table nt = { NULL, t->cap ? 2 * t->cap : 1024, 0 };
		size_t i;

		nt.slot = calloc(nt.cap, sizeof(*nt.slot));
		if (!nt.slot)
			return QB_ENOMEM;
		for (i = 0; i < t->cap; i++)
			if (t->slot[i])
				table_put(&nt, key_of(&d->recs[t->slot[i] - 1], k), t->slot[i]);
		free(t->slot);
		*t = nt;
	}
	table_put(t, key_of(&d->recs[rec1 - 1], k), (uint32_t)rec1);
	return 0;
}

static uint32_t clamp32(unsigned long v)
{
	return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

/* ---- digests of one question ------------------------------------------ */

static int push_hash(struct qb_lint_digests *d, size_t *n, uint64_t h)
{
	if (*n == d->caphv) {
		size_t cap = d->caphv ? 2 * d->caphv : 32;
		uint64_t *v = realloc(d->hv, cap * sizeof(*v));

		if (!v)
			return QB_ENOMEM;
		d->hv = v;
		d->caphv = cap;
	}
	d->hv[(*n)++] = h;
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Hash of a set: order-independent because the parts' hashes are sorted
 * before they are hashed together; TAG keeps different kinds of body apart. */
static uint64_t set_hash(struct qb_lint_digests *d, size_t n, const char *tag)
{
	if (n > 1)
		qsort(d->hv, n, sizeof(*d->hv), cmp_u64);
	return mix(qb_hash64(tag, strlen(tag)), n ? qb_hash64(d->hv, n * sizeof(*d->hv)) : 0);
}

/* Normalised text of node N (or of S when N is NULL), hashed; TAG apart. */
static int part_hash(struct qb_lint *l, const xmlNode *n, const char *s, uint64_t salt,
		     uint64_t *out)
{
	int err = 0;

	qb_buf_clear(&l->scratch);
	qb_buf_clear(&l->scratch2);
	if (n)
		err = qb_text_plain(&l->scratch, n);
	else if (s)
		err = qb_buf_adds(&l->scratch, s);
	if (!err)
		err = qb_buf_grow(&l->scratch, 0);
	if (!err)
		err = qb_text_normalize(&l->scratch2, l->scratch.ptr, l->scratch.len);
	if (!err)
		*out = mix(salt, qb_hash64(l->scratch2.ptr, l->scratch2.len));
	return err;
}

/* The body of a non-choice question as a set: answers, pairs (premise and
 * response together), extra responses. */
static int body_hash(struct qb_lint *l, struct qb_lint_digests *d, const struct qb_question *q,
		     uint64_t *out)
{
	size_t i, n = 0;
	uint64_t h, h2;
	int err = 0;

	for (i = 0; i < q->nanswers && !err; i++) {
		err = part_hash(l, NULL, q->answers[i].value, 1, &h);
		if (!err)
			err = push_hash(d, &n, h);
	}
	for (i = 0; i < q->npairs && !err; i++) {
		err = part_hash(l, q->pairs[i].premise, NULL, 2, &h);
		if (!err)
			err = part_hash(l, q->pairs[i].response, NULL, 3, &h2);
		if (!err)
			err = push_hash(d, &n, mix(h, h2));
	}
	for (i = 0; i < q->ndistractors && !err; i++) {
		err = part_hash(l, q->distractors[i].node, NULL, 4, &h);
		if (!err)
			err = push_hash(d, &n, h);
	}
	if (!err)
		*out = set_hash(d, n, q->type_name ? q->type_name : "");
	return err;
}

/* Computes this question's digests, looks them up, then records them: once
 * per question, whichever of the three rules runs first. */
static int prepare(struct qb_lint *l, const struct qb_question *q, struct qb_lint_digests **out)
{
	struct qb_lint_digests *d = digests(l);
	const struct qb_qcache *c;
	struct rec p;
	size_t i, n = 0, found_s = 0;
	int err, index_set;

	*out = d;
	if (!d)
		return QB_ENOMEM;
	if (d->serial == l->stats.questions)
		return 0;
	d->qdup = d->sdup = d->oset = 0;
	err = qb_rule_qcache(l, q, &c);
	if (err)
		return err;
	memset(&p, 0, sizeof(p));
	if (c->stem_norm_len) {
		p.stem = qb_hash64(QB_QC_STR(c, c->stem_norm), c->stem_norm_len);
		p.stem += p.stem == 0;
	}
	p.choice = qb_qtype_is_choice(q->type) && q->noptions >= 2;
	if (qb_qtype_is_choice(q->type)) {
		for (i = 0; i < q->noptions && !err; i++)
			err = push_hash(d, &n, c->opt[i].hash);
		if (!err)
			p.set = set_hash(d, n, "options");
		for (i = n = 0; i < q->noptions && !err; i++)
			if (q->options[i].correct)
				err = push_hash(d, &n, c->opt[i].hash);
		if (!err)
			p.key = set_hash(d, n, "key");
	} else {
		err = body_hash(l, d, q, &p.set);
	}
	if (err)
		return err;

	d->stem = p.stem;
	if (p.stem) {
		d->qdup = table_find(d, BY_QUESTION, &p);
		found_s = table_find(d, BY_STEM, &p);
		if (found_s && !d->qdup)
			d->sdup = found_s;
	}
	index_set = 0;
	if (p.choice) {
		size_t o = table_find(d, BY_SET, &p);

		if (o && !d->qdup)
			d->oset = o;
		index_set = !o;
	}
	if ((p.stem && (!d->qdup || !found_s)) || index_set) {
		if (d->nrecs == d->caprecs) {
			size_t cap = d->caprecs ? 2 * d->caprecs : 1024;
			struct rec *v = realloc(d->recs, cap * sizeof(*v));

			if (!v)
				return QB_ENOMEM;
			d->recs = v;
			d->caprecs = cap;
		}
		p.file = clamp32(q->file_index);
		p.line = clamp32(q->line);
		p.id = d->ids.len;
		err = qb_buf_adds(&d->ids, q->id ? q->id : "");
		if (!err)
			err = qb_buf_addc(&d->ids, '\0');
		if (err)
			return err;
		d->recs[d->nrecs++] = p;
		if (p.stem && !d->qdup)
			err = table_insert(d, BY_QUESTION, d->nrecs);
		if (!err && p.stem && !found_s)
			err = table_insert(d, BY_STEM, d->nrecs);
		if (!err && index_set)
			err = table_insert(d, BY_SET, d->nrecs);
		if (err)
			return err;
	}
	d->serial = l->stats.questions;
	return 0;
}

static const struct rec *rec_at(const struct qb_lint_digests *d, size_t rec1)
{
	return &d->recs[rec1 - 1];
}

int qb_rule_question_duplicate(struct qb_lint *l, const struct qb_question *q)
{
	struct qb_lint_digests *d;
	const struct rec *r;
	int err = prepare(l, q, &d);

	if (err || !d->qdup)
		return err;
	r = rec_at(d, d->qdup);
	return qb_lint_report(l, "question-duplicate", q->line,
			      "question '%s' repeats question '%s' (%s:%lu): same stem, same options; "
			      "keep one copy", qb_rule_qid(q), d->ids.ptr + r->id,
			      qb_lint_file_name(l, r->file), (unsigned long)r->line);
}

int qb_rule_stem_duplicate(struct qb_lint *l, const struct qb_question *q)
{
	struct qb_lint_digests *d;
	const struct rec *r;
	int err = prepare(l, q, &d);

	if (err || !d->sdup)
		return err;
	r = rec_at(d, d->sdup);
	return qb_lint_report(l, "stem-duplicate", q->line,
			      "question '%s' has the same stem as question '%s' (%s:%lu) but other "
			      "options; merge the two versions or reword one stem", qb_rule_qid(q),
			      d->ids.ptr + r->id, qb_lint_file_name(l, r->file), (unsigned long)r->line);
}

int qb_rule_option_set_reused(struct qb_lint *l, const struct qb_question *q)
{
	struct qb_lint_digests *d;
	const struct rec *r;
	int err = prepare(l, q, &d);

	if (err || !d->oset)
		return err;
	r = rec_at(d, d->oset);
	return qb_lint_report(l, "option-set-reused", q->line,
			      "question '%s' reuses the option set and key of question '%s' (%s:%lu)%s",
			      qb_rule_qid(q), d->ids.ptr + r->id, qb_lint_file_name(l, r->file),
			      (unsigned long)r->line,
			      d->stem && r->stem
				      ? " under another stem; check that the two ask different things"
				      : "; a stem is empty, so the two cannot be told apart");
}

/* ---- id-duplicate ----------------------------------------------------- */

int qb_rule_id_duplicate(struct qb_lint *l, const struct qb_question *q)
{
	struct qb_lint_digests *d = digests(l);
	uint64_t h;
	size_t i;

	if (!d)
		return QB_ENOMEM;
	if (!q->id || !q->id[0])
		return 0;
	h = qb_hash64(q->id, strlen(q->id));
	h += h == 0;
	if (2 * (d->nids + 1) > d->idcap) {
		size_t cap = d->idcap ? 2 * d->idcap : 1024;
		struct id_entry *v = calloc(cap, sizeof(*v));

		if (!v)
			return QB_ENOMEM;
		for (i = 0; i < d->idcap; i++) {
			size_t j;

			if (!d->idtab[i].h)
				continue;
			for (j = d->idtab[i].h & (cap - 1); v[j].h; j = (j + 1) & (cap - 1))
				;
			v[j] = d->idtab[i];
		}
		free(d->idtab);
		d->idtab = v;
		d->idcap = cap;
	}
	for (i = h & (d->idcap - 1); d->idtab[i].h; i = (i + 1) & (d->idcap - 1)) {
		if (d->idtab[i].h == h)
			return qb_lint_report(l, "id-duplicate", q->line,
					      "question id '%s' is already used at %s:%lu; ids must be "
					      "unique across all files linted together", q->id,
					      qb_lint_file_name(l, d->idtab[i].file),
					      (unsigned long)d->idtab[i].line);
	}
	d->idtab[i].h = h;
	d->idtab[i].file = clamp32(q->file_index);
	d->idtab[i].line = clamp32(q->line);
	d->nids++;
	return 0;
}

/* ---- bank-key-position-balance ---------------------------------------- */

/* Under "keys are placed at random", the number of keys at one position is
 * a sum of independent 0/1 variables, and Hoeffding's inequality bounds
 * P(observed - expected >= t) by exp(-2 t^2 / n) for any n, with no normal
 * approximation. The position is flagged when that bound, Bonferroni-
 * corrected over the positions tested, is below 1% AND the share is at
 * least 1.5 times the chance share (so that huge banks are not flagged for
 * a trivial excess) AND there are at least 8 questions. For 30 four-option
 * questions that means 17 or more keys at one position. */
#define KEY_ALPHA 0.01
#define KEY_MIN_RATIO 1.5
#define KEY_MIN_QUESTIONS 8

int qb_rule_key_position_unbalanced(double observed, double expected, double n,
				    size_t positions)
{
	double t;

	if (n < KEY_MIN_QUESTIONS || positions == 0 || observed < KEY_MIN_RATIO * expected)
		return 0;
	t = sqrt(n * log((double)positions / KEY_ALPHA) / 2.0);
	return observed - expected >= t;
}

int qb_rule_key_position_count(struct qb_lint *l, const struct qb_question *q)
{
	struct qb_lint_digests *d;
	size_t i, key = 0, n = 0;

	if (q->type != QB_Q_SINGLE || q->noptions < 2 || q->noptions > MAX_POSITIONS)
		return 0;
	for (i = 0; i < q->noptions; i++)
		if (q->options[i].correct)
			key = i, n++;
	if (n != 1)
		return 0;
	d = digests(l);
	if (!d)
		return QB_ENOMEM;
	d->observed[key] += 1;
	for (i = 0; i < q->noptions; i++)
		d->expected[i] += 1.0 / (double)q->noptions;
	if (q->noptions > d->maxpos)
		d->maxpos = q->noptions;
	d->nkeyed++;
	return 0;
}

int qb_rule_key_position_finish(struct qb_lint *l)
{
	struct qb_lint_digests *d = l->digests;
	size_t i, worst = MAX_POSITIONS;
	double n;

	if (!d || !d->nkeyed)
		return 0;
	n = (double)d->nkeyed;
	for (i = 0; i < d->maxpos; i++) {
		if (!qb_rule_key_position_unbalanced(d->observed[i], d->expected[i], n, d->maxpos))
			continue;
		if (worst == MAX_POSITIONS ||
		    d->observed[i] - d->expected[i] > d->observed[worst] - d->expected[worst])
			worst = i;
	}
	if (worst == MAX_POSITIONS)
		return 0;
	return qb_lint_report_at(l, "bank-key-position-balance", "", 0, NULL,
				 "the key of %.0f of %zu single questions (%.0f%%) is option %c, where "
				 "about %.1f (%.0f%%) are expected by chance; move some keys to other "
				 "positions (printed exams keep the order)",
				 d->observed[worst], d->nkeyed, 100.0 * d->observed[worst] / n,
				 (char)('A' + worst), d->expected[worst],
				 100.0 * d->expected[worst] / n);
}
