/* Bank-wide rules: id-duplicate, question-duplicate, stem-duplicate,
 * option-set-reused, bank-key-position-balance.
 *
 * They see every question of the run once, in order, and keep only small
 * digests: 64-bit hashes of the normalised stem, of the option set and of
 * its correct options, the file number, the line and the question id (to
 * name the other place). A finding is reported when the later question is
 * seen, so an inline suppression before that question silences it.
 *
 * Layout (memory must stay a few dozen bytes per question: benchmarks go
 * to a million questions and lint must stay under 64 MB there, issue 8):
 *   recs   one 24-byte record per question that is the first with its id,
 *          its stem, its stem and body, or its option set and key: the
 *          hashes, and the offset of its line and id in TEXT. The id rule and
 *          the three digest rules share the record of a question.
 *   text   one growing big buffer: per record the line (4 bytes), the id
 *          and a NUL; no allocation per id.
 *   runs   the record numbers where the file changes; records come in run
 *          order, so a record's file is found by binary search there instead
 *          of being stored in every record.
 *   tab[]  hash indexes (core/map.h) by id, by stem, by stem and body, by
 *          option set and key: 4-byte slots holding the record number and
 *          a few bits of the key's hash. Keys are read from the records,
 *          not stored again. They grow by 1.5x at 3/4 full.
 * A question of a bank without duplicates thus costs 24 + 5 + id length
 * bytes, plus 4 bytes / load (1/2 to 3/4) in each of three indexes: about
 * 55 bytes with 8-character ids.
 *
 * The first question with a stem is only in the stem index; the stem-and-
 * body index holds only later versions of a stem with another body. The
 * first question with a stem and body is therefore the stem's first
 * question (if its body matches) or in the second index, which in a bank
 * without duplicates stays empty. A question makes at most four lookups,
 * so a run takes time linear in the number of questions.
 *
 * Two different texts with the same 64-bit hash would be taken for equal;
 * with a million questions the chance is about 3e-8. The key (correct
 * options) keeps 32 bits: it is only compared once the 64-bit option-set
 * hashes are equal, i.e. between keys of one option set. Ids are compared
 * as strings.
 *
 * Ownership: the digests belong to the rule context (cx->digests), created
 * on first use and freed by qb_rule_digests_free. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../core/array.h"
#include "../core/map.h"
#include "../text.h"
#include "rules_impl.h"

/* A question that was first with its id, stem, stem and body, or option
 * set and key. Hashes not computed for it (e.g. only its id was new) stay 0
 * and are never read: a record is only compared in the indexes it is in. */
struct rec {
	uint64_t stem;     /* 0 = empty stem (never compared) */
	uint64_t set;      /* option set (choice) or body (other types) */
	uint32_t key;      /* the correct options, as a set (choice), folded */
	uint32_t text;     /* offset of the line and id in digests.text */
};
_Static_assert(sizeof(struct rec) == 24, "a record is the bulk of the per-question memory");

/* What an index compares: a question being looked up, or a record. */
struct probe {
	uint64_t stem, set;
	uint32_t key;
	const char *id;
};

enum table_kind { BY_ID, BY_STEM, BY_QUESTION, BY_SET, NTABLES };

/* Records from FIRST on come from file FILE. */
struct file_run {
	size_t first;
	size_t file;
};

#define MAX_POSITIONS 26

/* recs, text and the indexes' slots are big (core/array.h, core/buf.h,
 * core/map.h): they are most of lint's memory at a million questions, and
 * they grow without holding two copies. Record numbers here count from 1
 * (0: none); the indexes number them from 0. */
struct qb_rule_digests {
	struct rec *recs;
	size_t nrecs, caprecs;
	struct qb_buf text;
	struct file_run *runs;
	size_t nruns, capruns;
	struct qb_map tab[NTABLES];

	uint64_t *hv;           /* per-question scratch: hashes of a body's parts */
	size_t caphv;

	/* the record of the question being linted, once one is needed */
	size_t rec_serial;
	size_t cur_rec;

	/* this question's findings, computed once for the three rules */
	size_t serial;
	size_t qdup, sdup, oset;  /* record number + 1, or 0 */
	uint64_t stem;            /* this question's stem digest */

	/* bank-key-position-balance */
	double observed[MAX_POSITIONS], expected[MAX_POSITIONS];
	size_t nkeyed, maxpos;
};

void qb_rule_digests_free(struct qb_rule_digests *d)
{
	int i;

	if (!d)
		return;
	qb_array_free(d->recs, d->caprecs, sizeof(*d->recs), QB_ARRAY_BIG);
	qb_buf_dispose(&d->text);
	free(d->runs);
	for (i = 0; i < NTABLES; i++)
		qb_map_dispose(&d->tab[i]);
	free(d->hv);
	free(d);
}

static struct qb_rule_digests *digests(struct qb_rule_ctx *cx)
{
	if (!cx->digests) {
		cx->digests = calloc(1, sizeof(*cx->digests));
		if (cx->digests) {
			struct qb_buf big = QB_BUF_INIT_BIG;

			cx->digests->serial = cx->digests->rec_serial = (size_t)-1;
			cx->digests->text = big;
		}
	}
	return cx->digests;
}

static uint64_t mix(uint64_t a, uint64_t b)
{
	uint64_t h = a ^ (b * 0x9e3779b97f4a7c15ULL + 0x632be59bd9b4e019ULL);

	h ^= h >> 31;
	h *= 0xbf58476d1ce4e5b9ULL;
	h ^= h >> 29;
	return h;
}

/* ---- records ------------------------------------------------------------ */

static const struct rec *rec_at(const struct qb_rule_digests *d, size_t rec1)
{
	return &d->recs[rec1 - 1];
}

static unsigned long rec_line(const struct qb_rule_digests *d, size_t rec1)
{
	uint32_t line;

	memcpy(&line, d->text.ptr + rec_at(d, rec1)->text, sizeof(line));
	return line;
}

static const char *rec_id(const struct qb_rule_digests *d, size_t rec1)
{
	return d->text.ptr + rec_at(d, rec1)->text + sizeof(uint32_t);
}

/* The file of a record: the last run that starts at or before it. */
static size_t rec_file(const struct qb_rule_digests *d, size_t rec1)
{
	size_t lo = 0, hi = d->nruns;   /* runs[lo].first <= rec1 - 1 < runs[hi].first */

	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (d->runs[mid].first <= rec1 - 1)
			lo = mid;
		else
			hi = mid;
	}
	return d->runs[lo].file;
}

static int add_run(struct qb_rule_digests *d, size_t file)
{
	struct file_run r = { d->nrecs, file };

	if (d->nruns && d->runs[d->nruns - 1].file == file)
		return 0;
	return QB_ARRAY_PUSH(d->runs, d->nruns, d->capruns, r);
}

/* ---- indexes ------------------------------------------------------------ */

static uint64_t hash_id(const struct probe *p)
{
	return qb_hash64(p->id, strlen(p->id));
}

static uint64_t hash_stem(const struct probe *p)
{
	return p->stem;
}

static uint64_t hash_question(const struct probe *p)
{
	return mix(p->stem, p->set);
}

static uint64_t hash_set(const struct probe *p)
{
	return mix(p->set, p->key);
}

static int same_id(const struct probe *a, const struct probe *b)
{
	return strcmp(a->id, b->id) == 0;
}

static int same_stem(const struct probe *a, const struct probe *b)
{
	return a->stem == b->stem;
}

static int same_question(const struct probe *a, const struct probe *b)
{
	return a->stem == b->stem && a->set == b->set;
}

static int same_set(const struct probe *a, const struct probe *b)
{
	return a->set == b->set && a->key == b->key;
}

static struct probe probe_of(const struct qb_rule_digests *d, size_t rec1)
{
	const struct rec *r = rec_at(d, rec1);
	struct probe p = { r->stem, r->set, r->key, rec_id(d, rec1) };

	return p;
}

/* The index's view of a kind: a record's hash, and whether a record
 * (numbered from 0) matches a probe. */
#define KIND_OPS(kind)                                                              \
	static uint64_t rec_hash_##kind(void *ctx, size_t rec)                      \
	{                                                                           \
		struct probe r = probe_of(ctx, rec + 1);                            \
		return hash_##kind(&r);                                             \
	}                                                                           \
	static int rec_same_##kind(void *ctx, size_t rec, const void *key)          \
	{                                                                           \
		struct probe r = probe_of(ctx, rec + 1);                            \
		return same_##kind(&r, key);                                        \
	}
KIND_OPS(id)
KIND_OPS(stem)
KIND_OPS(question)
KIND_OPS(set)

/* by enum table_kind */
static const struct {
	uint64_t (*hash)(const struct probe *);
	struct qb_map_ops ops;
} kinds[NTABLES] = {
	{ hash_id, { rec_hash_id, rec_same_id } },
	{ hash_stem, { rec_hash_stem, rec_same_stem } },
	{ hash_question, { rec_hash_question, rec_same_question } },
	{ hash_set, { rec_hash_set, rec_same_set } },
};

/* The record (number + 1) matching P in index K, or 0. */
static size_t table_find(struct qb_rule_digests *d, enum table_kind k, const struct probe *p)
{
	size_t rec = qb_map_find(&d->tab[k], kinds[k].hash(p), &kinds[k].ops, d, p);

	return rec == QB_MAP_NONE ? 0 : rec + 1;
}

static int table_insert(struct qb_rule_digests *d, enum table_kind k, size_t rec1)
{
	struct probe p = probe_of(d, rec1);

	return qb_map_insert(&d->tab[k], kinds[k].hash(&p), rec1 - 1, &kinds[k].ops, d);
}

/* The record of the question being linted (number + 1 in *OUT), appended
 * the first time one of the rules needs it. Its hashes start at 0. */
static int this_rec(struct qb_rule_ctx *cx, struct qb_rule_digests *d, const struct qb_question *q,
		    size_t *out)
{
	uint32_t line = q->line > UINT32_MAX ? UINT32_MAX : (uint32_t)q->line;
	struct rec *r;
	int err;

	if (d->rec_serial == cx->serial) {
		*out = d->cur_rec;
		return 0;
	}
	/* record numbers + 1 and text offsets must fit the 32-bit fields */
	if (d->nrecs >= UINT32_MAX - 1 || d->text.len > UINT32_MAX)
		return QB_ENOMEM;
	err = QB_ARRAY_RESERVE_BIG(d->recs, d->caprecs, d->nrecs + 1);
	if (!err)
		err = add_run(d, q->file_index);
	if (err)
		return err;
	r = &d->recs[d->nrecs];
	memset(r, 0, sizeof(*r));
	r->text = (uint32_t)d->text.len;
	err = qb_buf_add(&d->text, &line, sizeof(line));
	if (!err)
		err = qb_buf_add(&d->text, q->id ? q->id : "", q->id ? strlen(q->id) + 1 : 1);
	if (err)
		return err;
	d->nrecs++;
	d->rec_serial = cx->serial;
	*out = d->cur_rec = d->nrecs;
	return 0;
}

/* Records this question's hashes P and files it in index K. */
static int add_to(struct qb_rule_ctx *cx, struct qb_rule_digests *d, const struct qb_question *q,
		  const struct probe *p, enum table_kind k)
{
	struct rec *r;
	size_t rec1;
	int err = this_rec(cx, d, q, &rec1);

	if (err)
		return err;
	r = &d->recs[rec1 - 1];
	r->stem = p->stem;
	r->set = p->set;
	r->key = p->key;
	return table_insert(d, k, rec1);
}

/* ---- digests of one question ------------------------------------------ */

static int push_hash(struct qb_rule_digests *d, size_t *n, uint64_t h)
{
	return QB_ARRAY_PUSH(d->hv, *n, d->caphv, h);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Hash of a set: order-independent because the parts' hashes are sorted
 * before they are hashed together; TAG keeps different kinds of body apart. */
static uint64_t set_hash(struct qb_rule_digests *d, size_t n, const char *tag)
{
	if (n > 1)
		qsort(d->hv, n, sizeof(*d->hv), cmp_u64);
	return mix(qb_hash64(tag, strlen(tag)), n ? qb_hash64(d->hv, n * sizeof(*d->hv)) : 0);
}

/* Normalised text of node N (or of S when N is NULL), hashed; TAG apart. */
static int part_hash(struct qb_rule_ctx *cx, const xmlNode *n, const char *s, uint64_t salt,
		     uint64_t *out)
{
	int err = 0;

	qb_buf_clear(&cx->scratch);
	qb_buf_clear(&cx->scratch2);
	if (n)
		err = qb_text_plain(&cx->scratch, n);
	else if (s)
		err = qb_buf_adds(&cx->scratch, s);
	if (!err)
		err = qb_buf_grow(&cx->scratch, 0);
	if (!err)
		err = qb_text_normalize(&cx->scratch2, cx->scratch.ptr, cx->scratch.len);
	if (!err)
		*out = mix(salt, qb_hash64(cx->scratch2.ptr, cx->scratch2.len));
	return err;
}

/* The body of a non-choice question as a set: answers, pairs (premise and
 * response together), extra responses. */
static int body_hash(struct qb_rule_ctx *cx, struct qb_rule_digests *d, const struct qb_question *q,
		     uint64_t *out)
{
	size_t i, n = 0;
	uint64_t h, h2;
	int err = 0;

	for (i = 0; i < q->nanswers && !err; i++) {
		err = part_hash(cx, NULL, q->answers[i].value, 1, &h);
		if (!err)
			err = push_hash(d, &n, h);
	}
	for (i = 0; i < q->npairs && !err; i++) {
		err = part_hash(cx, q->pairs[i].premise, NULL, 2, &h);
		if (!err)
			err = part_hash(cx, q->pairs[i].response, NULL, 3, &h2);
		if (!err)
			err = push_hash(d, &n, mix(h, h2));
	}
	for (i = 0; i < q->ndistractors && !err; i++) {
		err = part_hash(cx, q->distractors[i].node, NULL, 4, &h);
		if (!err)
			err = push_hash(d, &n, h);
	}
	if (!err)
		*out = set_hash(d, n, q->type_name ? q->type_name : "");
	return err;
}

/* The hashes of this question: stem, option set (or body) and key. */
static int question_hashes(struct qb_rule_ctx *cx, struct qb_rule_digests *d,
			   const struct qb_question *q, struct probe *p)
{
	const struct qb_qcache *c;
	uint64_t key;
	size_t i, n = 0;
	int err = qb_rule_qcache(cx, q, &c);

	if (err)
		return err;
	memset(p, 0, sizeof(*p));
	if (c->stem_norm_len) {
		p->stem = qb_hash64(QB_QC_STR(c, c->stem_norm), c->stem_norm_len);
		p->stem += p->stem == 0;
	}
	if (!qb_qtype_is_choice(q->type))
		return body_hash(cx, d, q, &p->set);
	for (i = 0; i < q->noptions && !err; i++)
		err = push_hash(d, &n, c->opt[i].hash);
	if (!err)
		p->set = set_hash(d, n, "options");
	for (i = n = 0; i < q->noptions && !err; i++)
		if (q->options[i].correct)
			err = push_hash(d, &n, c->opt[i].hash);
	if (!err) {
		key = set_hash(d, n, "key");
		p->key = (uint32_t)(key ^ (key >> 32));
	}
	return err;
}

/* question-duplicate and stem-duplicate (see the layout at the top). */
static int find_stem(struct qb_rule_ctx *cx, struct qb_rule_digests *d, const struct qb_question *q,
		     const struct probe *p)
{
	size_t first = table_find(d, BY_STEM, p);

	if (!first)
		return add_to(cx, d, q, p, BY_STEM);
	if (rec_at(d, first)->set == p->set) {
		d->qdup = first;
		return 0;
	}
	d->qdup = table_find(d, BY_QUESTION, p);
	if (d->qdup)
		return 0;
	d->sdup = first;
	return add_to(cx, d, q, p, BY_QUESTION);
}

/* option-set-reused: not for a question that repeats another one whole. */
static int find_set(struct qb_rule_ctx *cx, struct qb_rule_digests *d, const struct qb_question *q,
		    const struct probe *p)
{
	size_t o = table_find(d, BY_SET, p);

	if (!o)
		return add_to(cx, d, q, p, BY_SET);
	if (!d->qdup)
		d->oset = o;
	return 0;
}

/* Computes this question's digests, looks them up, then records them: once
 * per question, whichever of the three rules runs first. */
static int prepare(struct qb_rule_ctx *cx, const struct qb_question *q, struct qb_rule_digests **out)
{
	struct qb_rule_digests *d = digests(cx);
	struct probe p;
	int err;

	*out = d;
	if (!d)
		return QB_ENOMEM;
	if (d->serial == cx->serial)
		return 0;
	d->qdup = d->sdup = d->oset = 0;
	err = question_hashes(cx, d, q, &p);
	if (err)
		return err;
	d->stem = p.stem;
	if (p.stem)
		err = find_stem(cx, d, q, &p);
	if (!err && qb_qtype_is_choice(q->type) && q->noptions >= 2)
		err = find_set(cx, d, q, &p);
	if (err)
		return err;
	d->serial = cx->serial;
	return 0;
}

int qb_rule_question_duplicate(struct qb_rule_ctx *cx, const struct qb_question *q)
{
	struct qb_rule_digests *d;
	int err = prepare(cx, q, &d);

	if (err || !d->qdup)
		return err;
	return qb_rule_report(cx, QB_RULE_QUESTION_DUPLICATE, q->line,
			      "question '%s' repeats question '%s' (%s:%lu): same stem, same options; "
			      "keep one copy", qb_rule_qid(q), rec_id(d, d->qdup),
			      qb_rule_file_name(cx, rec_file(d, d->qdup)), rec_line(d, d->qdup));
}

int qb_rule_stem_duplicate(struct qb_rule_ctx *cx, const struct qb_question *q)
{
	struct qb_rule_digests *d;
	int err = prepare(cx, q, &d);

	if (err || !d->sdup)
		return err;
	return qb_rule_report(cx, QB_RULE_STEM_DUPLICATE, q->line,
			      "question '%s' has the same stem as question '%s' (%s:%lu) but other "
			      "options; merge the two versions or reword one stem", qb_rule_qid(q),
			      rec_id(d, d->sdup), qb_rule_file_name(cx, rec_file(d, d->sdup)),
			      rec_line(d, d->sdup));
}

int qb_rule_option_set_reused(struct qb_rule_ctx *cx, const struct qb_question *q)
{
	struct qb_rule_digests *d;
	int err = prepare(cx, q, &d);

	if (err || !d->oset)
		return err;
	return qb_rule_report(cx, QB_RULE_OPTION_SET_REUSED, q->line,
			      "question '%s' reuses the option set and key of question '%s' (%s:%lu)%s",
			      qb_rule_qid(q), rec_id(d, d->oset),
			      qb_rule_file_name(cx, rec_file(d, d->oset)), rec_line(d, d->oset),
			      d->stem && rec_at(d, d->oset)->stem
				      ? " under another stem; check that the two ask different things"
				      : "; a stem is empty, so the two cannot be told apart");
}

/* ---- id-duplicate ----------------------------------------------------- */

int qb_rule_id_duplicate(struct qb_rule_ctx *cx, const struct qb_question *q)
{
	struct qb_rule_digests *d = digests(cx);
	struct probe p = { 0, 0, 0, q->id };
	size_t first, rec1;
	int err;

	if (!d)
		return QB_ENOMEM;
	if (!q->id || !q->id[0])
		return 0;
	first = table_find(d, BY_ID, &p);
	if (first)
		return qb_rule_report(cx, QB_RULE_ID_DUPLICATE, q->line,
				      "question id '%s' is already used at %s:%lu; ids must be "
				      "unique across all files linted together", q->id,
				      qb_rule_file_name(cx, rec_file(d, first)), rec_line(d, first));
	err = this_rec(cx, d, q, &rec1);
	if (!err)
		err = table_insert(d, BY_ID, rec1);
	return err;
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

int qb_rule_key_position_count(struct qb_rule_ctx *cx, const struct qb_question *q)
{
	struct qb_rule_digests *d;
	size_t i, key = 0, n = 0;

	if (q->type != QB_Q_SINGLE || q->noptions < 2 || q->noptions > MAX_POSITIONS)
		return 0;
	for (i = 0; i < q->noptions; i++)
		if (q->options[i].correct)
			key = i, n++;
	if (n != 1)
		return 0;
	d = digests(cx);
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

int qb_rule_key_position_finish(struct qb_rule_ctx *cx)
{
	struct qb_rule_digests *d = cx->digests;
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
	return qb_rule_report_run(cx, QB_RULE_BANK_KEY_POSITION_BALANCE,
				 "the key of %.0f of %zu single questions (%.0f%%) is option %c, where "
				 "about %.1f (%.0f%%) are expected by chance; move some keys to other "
				 "positions (printed exams keep the order)",
				 d->observed[worst], d->nkeyed, 100.0 * d->observed[worst] / n,
				 (char)('A' + worst), d->expected[worst],
				 100.0 * d->expected[worst] / n);
}
