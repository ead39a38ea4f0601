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
 * to a million questions and every command must stay under 64 MB there,
 * issues 8 and 23):
 *   recs   one 16-byte record per question that is the first with its id,
 *          its stem, its stem and body, or its option set and key: the two
 *          64-bit hashes. The id rule and the three digest rules share the
 *          record of a question.
 *   keys   beside recs, 4 bytes per record: the key's hash.
 *   names  one growing big buffer holding every record's line and id,
 *          front-coded in record order: the line as a signed difference
 *          from the previous record's (a varint, one byte within a file),
 *          how many leading bytes the id shares with the previous record's
 *          id (a varint), the rest of the id and a NUL. Every RESTART-th
 *          record starts afresh (line from 0, nothing shared) and its
 *          offset is in restart[], so that one record's line and id are
 *          decoded from at most RESTART entries. Ids of a bank mostly
 *          differ from the one before in their last characters ("q0000041",
 *          "q0000042"), so an entry takes 4 bytes where the id itself and
 *          a line took 13.
 *   runs   the record numbers where the file changes; records come in run
 *          order, so a record's file is found by binary search there instead
 *          of being stored in every record.
 *   tab[]  hash indexes (core/map.h) by id, by stem, by stem and body, by
 *          option set and key: 4-byte slots holding the record number and
 *          a few bits of the key's hash. Keys are read from the records,
 *          not stored again. They grow by 1.5x at 3/4 full.
 * A question of a bank without duplicates thus costs 16 + 4 bytes of
 * record, its names entry (4 bytes with the generator's 8-character ids,
 * plus 1/16 of a restart entry: its offset and a whole id), and 4 bytes /
 * load (1/2 to 3/4) in each of three indexes: about 43 bytes (it was 55,
 * with the id and line stored whole and a text offset per record).
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
 * as strings (decoded from names when the index's hash bits match).
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
};
_Static_assert(sizeof(struct rec) == 16, "a record is the bulk of the per-question memory");

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

/* Every RESTART-th record's names entry stands alone (see the layout). */
#define RESTART 16

/* recs, keys, names, restart and the indexes' slots are big (core/array.h, core/buf.h,
 * core/map.h): they are most of lint's memory at a million questions, and
 * they grow without holding two copies. Record numbers here count from 1
 * (0: none); the indexes number them from 0. */
struct qb_rule_digests {
	struct rec *recs;
	size_t nrecs, caprecs;
	uint32_t *keys;         /* the correct options, as a set (choice), folded */
	size_t capkeys;
	struct qb_buf names;
	uint32_t *restart;      /* names offset of records 0, RESTART, 2 RESTART, ... */
	size_t caprestart;
	uint32_t last_line;     /* the line and id of the last record added */
	struct qb_buf last_id;
	struct qb_buf name_id;  /* a decoded id (rec_name); room for the longest */
	size_t name_rec1;       /* the record name_id holds (0: none), */
	uint32_t name_next;     /* the names offset of the entry after it */
	uint32_t name_line;     /* and its line */
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
	qb_array_free(d->keys, d->capkeys, sizeof(*d->keys), QB_ARRAY_BIG);
	qb_array_free(d->restart, d->caprestart, sizeof(*d->restart), QB_ARRAY_BIG);
	qb_buf_dispose(&d->names);
	qb_buf_dispose(&d->last_id);
	qb_buf_dispose(&d->name_id);
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
			cx->digests->names = big;
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

/* ---- names: the line and id of each record, front-coded -------------- */

static int put_varint(struct qb_buf *b, uint64_t v)
{
	unsigned char out[10];
	size_t n = 0;

	do {
		out[n] = (unsigned char)(v & 0x7f);
		v >>= 7;
		out[n++] |= v ? 0x80 : 0;
	} while (v);
	return qb_buf_add(b, out, n);
}

/* Reads what put_varint wrote; the names are the rules' own bytes. */
static uint64_t get_varint(const unsigned char **p)
{
	uint64_t v = 0;
	unsigned shift = 0;
	unsigned char c;

	do {
		c = *(*p)++;
		v |= (uint64_t)(c & 0x7f) << shift;
		shift += 7;
	} while (c & 0x80);
	return v;
}

/* A line's difference from the previous one, small either way: zigzag. */
static uint64_t line_delta(uint32_t line, uint32_t prev)
{
	int64_t d = (int64_t)line - (int64_t)prev;

	return d < 0 ? ((uint64_t)(-d) << 1) - 1 : (uint64_t)d << 1;
}

static uint32_t line_undelta(uint32_t prev, uint64_t z)
{
	int64_t d = (z & 1) ? -(int64_t)((z + 1) >> 1) : (int64_t)(z >> 1);

	return (uint32_t)((int64_t)prev + d);
}

/* Appends the names entry of record d->nrecs (not yet counted); room is
 * made first, so that on an error the names are as they were. */
static int add_name(struct qb_rule_digests *d, uint32_t line, const char *id)
{
	size_t len = strlen(id), shared = 0, at = d->names.len;
	int err;

	if (at > UINT32_MAX)
		return QB_ENOMEM;
	if (d->nrecs % RESTART == 0) {
		err = QB_ARRAY_RESERVE_BIG(d->restart, d->caprestart, d->nrecs / RESTART + 1);
		if (err)
			return err;
		d->restart[d->nrecs / RESTART] = (uint32_t)at;
		d->last_line = 0;
		qb_buf_clear(&d->last_id);
	}
	/* rec_name decodes into name_id without allocating */
	if (len >= d->name_id.cap) {
		d->name_rec1 = 0;
		qb_buf_clear(&d->name_id);
		err = qb_buf_grow(&d->name_id, len);
		if (err)
			return err;
	}
	err = qb_buf_grow(&d->last_id, len);
	if (err)
		return err;
	while (shared < len && shared < d->last_id.len && id[shared] == d->last_id.ptr[shared])
		shared++;
	err = put_varint(&d->names, line_delta(line, d->last_line));
	if (!err)
		err = put_varint(&d->names, shared);
	if (!err)
		err = qb_buf_add(&d->names, id + shared, len - shared + 1);   /* and its NUL */
	if (err) {
		d->names.len = at;
		if (d->names.ptr)
			d->names.ptr[at] = '\0';
		return err;
	}
	memcpy(d->last_id.ptr + shared, id + shared, len - shared + 1);
	d->last_id.len = len;
	d->last_line = line;
	return 0;
}

/* The line and id of record REC1, decoded forward from the restart entry
 * at or before it; *ID stays valid until the next record is added or
 * decoded. */
/* Decodes from the record's restart entry, or on from the record decoded
 * last when it is an earlier one of the same run of RESTART: an index
 * that grows asks for its records in order (core/map.h), and each is then
 * one entry's work. */
static void rec_name(struct qb_rule_digests *d, size_t rec1, unsigned long *line, const char **id)
{
	size_t r = rec1 - 1, i = r - r % RESTART;
	const unsigned char *base = (const unsigned char *)d->names.ptr, *p = base + d->restart[r / RESTART];
	uint32_t l = 0;
	char *out = d->name_id.ptr;

	if (d->name_rec1 && d->name_rec1 <= r && d->name_rec1 > i) {
		i = d->name_rec1;
		p = base + d->name_next;
		l = d->name_line;
	}
	for (; i <= r; i++) {
		size_t shared, n;

		l = line_undelta(l, get_varint(&p));
		shared = (size_t)get_varint(&p);
		n = strlen((const char *)p);
		memcpy(out + shared, p, n + 1);
		p += n + 1;
	}
	d->name_rec1 = rec1;
	d->name_next = (uint32_t)(p - base);
	d->name_line = l;
	*line = l;
	*id = out;
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
	return qb_hash(p->id, strlen(p->id));
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

/* A record as a probe; its id is decoded only for the id index. */
static struct probe probe_of(struct qb_rule_digests *d, size_t rec1, int with_id)
{
	const struct rec *r = rec_at(d, rec1);
	struct probe p = { r->stem, r->set, d->keys[rec1 - 1], NULL };
	unsigned long line;

	if (with_id)
		rec_name(d, rec1, &line, &p.id);
	return p;
}

/* The index's view of a kind: a record's hash, and whether a record
 * (numbered from 0) matches a probe. */
#define KIND_OPS(kind, with_id)                                                     \
	static uint64_t rec_hash_##kind(void *ctx, size_t rec)                      \
	{                                                                           \
		struct probe r = probe_of(ctx, rec + 1, with_id);                   \
		return hash_##kind(&r);                                             \
	}                                                                           \
	static int rec_same_##kind(void *ctx, size_t rec, const void *key)          \
	{                                                                           \
		struct probe r = probe_of(ctx, rec + 1, with_id);                   \
		return same_##kind(&r, key);                                        \
	}
KIND_OPS(id, 1)
KIND_OPS(stem, 0)
KIND_OPS(question, 0)
KIND_OPS(set, 0)

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
	struct probe p = probe_of(d, rec1, k == BY_ID);

	return qb_map_insert(&d->tab[k], kinds[k].hash(&p), rec1 - 1, &kinds[k].ops, d);
}

/* The record of the question being linted (number + 1 in *OUT), appended
 * the first time one of the rules needs it. Its hashes start at 0. */
static int this_rec(struct qb_rule_ctx *cx, struct qb_rule_digests *d, const struct qb_question *q,
		    size_t *out)
{
	uint32_t line = q->line > UINT32_MAX ? UINT32_MAX : (uint32_t)q->line;
	int err;

	if (d->rec_serial == cx->serial) {
		*out = d->cur_rec;
		return 0;
	}
	/* record numbers + 1 must fit the indexes' 32-bit slots */
	if (d->nrecs >= UINT32_MAX - 1)
		return QB_ENOMEM;
	err = QB_ARRAY_RESERVE_BIG(d->recs, d->caprecs, d->nrecs + 1);
	if (!err)
		err = QB_ARRAY_RESERVE_BIG(d->keys, d->capkeys, d->nrecs + 1);
	if (!err)
		err = add_run(d, q->file_index);
	if (!err)
		err = add_name(d, line, q->id ? q->id : "");
	if (err)
		return err;
	memset(&d->recs[d->nrecs], 0, sizeof(d->recs[d->nrecs]));
	d->keys[d->nrecs] = 0;
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
	d->keys[rec1 - 1] = p->key;
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
	return mix(qb_hash(tag, strlen(tag)), n ? qb_hash(d->hv, n * sizeof(*d->hv)) : 0);
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
		*out = mix(salt, qb_hash(cx->scratch2.ptr, cx->scratch2.len));
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
		p->stem = qb_hash(QB_QC_STR(c, c->stem_norm), c->stem_norm_len);
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
	unsigned long line;
	const char *id;
	int err = prepare(cx, q, &d);

	if (err || !d->qdup)
		return err;
	rec_name(d, d->qdup, &line, &id);
	return qb_rule_report(cx, QB_RULE_QUESTION_DUPLICATE, q->line,
			      "question '%s' repeats question '%s' (%s:%lu): same stem, same options; "
			      "keep one copy", qb_rule_qid(q), id,
			      qb_rule_file_name(cx, rec_file(d, d->qdup)), line);
}

int qb_rule_stem_duplicate(struct qb_rule_ctx *cx, const struct qb_question *q)
{
	struct qb_rule_digests *d;
	unsigned long line;
	const char *id;
	int err = prepare(cx, q, &d);

	if (err || !d->sdup)
		return err;
	rec_name(d, d->sdup, &line, &id);
	return qb_rule_report(cx, QB_RULE_STEM_DUPLICATE, q->line,
			      "question '%s' has the same stem as question '%s' (%s:%lu) but other "
			      "options; merge the two versions or reword one stem", qb_rule_qid(q),
			      id, qb_rule_file_name(cx, rec_file(d, d->sdup)),
			      line);
}

int qb_rule_option_set_reused(struct qb_rule_ctx *cx, const struct qb_question *q)
{
	struct qb_rule_digests *d;
	unsigned long line;
	const char *id;
	int err = prepare(cx, q, &d);

	if (err || !d->oset)
		return err;
	rec_name(d, d->oset, &line, &id);
	return qb_rule_report(cx, QB_RULE_OPTION_SET_REUSED, q->line,
			      "question '%s' reuses the option set and key of question '%s' (%s:%lu)%s",
			      qb_rule_qid(q), id,
			      qb_rule_file_name(cx, rec_file(d, d->oset)), line,
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
	if (first) {
		const char *id;
		unsigned long line;

		rec_name(d, first, &line, &id);
		cx->id_seen_serial = cx->serial;
		cx->id_seen_file = qb_rule_file_name(cx, rec_file(d, first));
		cx->id_seen_line = line;
		return qb_rule_report(cx, QB_RULE_ID_DUPLICATE, q->line,
				      "question id '%s' is already used at %s:%lu; ids must be "
				      "unique across all files linted together", q->id,
				      cx->id_seen_file, line);
	}
	err = this_rec(cx, d, q, &rec1);
	if (!err)   /* hashed from q->id: the record's own would be decoded */
		err = qb_map_insert(&d->tab[BY_ID], hash_id(&p), rec1 - 1, &kinds[BY_ID].ops, d);
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
