#include "diff.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/arena.h"
#include "core/array.h"
#include "core/buf.h"
#include "core/map.h"
#include "diff_question.h"
#include "gitrev.h"
#include "imgpath.h"
#include "paths.h"
#include "pipeline.h"
#include "reader.h"
#include "rules.h"
#include "text.h"

const char *const qb_diff_part_names[QB_DIFF_NPARTS] = {
	"key", "type", "points", "select", "shuffle", "case-sensitive", "stem",
	"option-added", "option-removed", "option-text", "option-rationale", "option-order",
	"rationale", "distractors", "response", "rubric", "explanation", "tags", "source",
	"image",
};

/* Two options, answers or questions are "nearly the same" from this
 * share of words (options) or parts (questions) on. */
#define SIMILAR 0.5
/* A part hash shared by more questions than this (a "Correct." rationale,
 * a "True" answer) says nothing about which question was renamed. */
#define COMMON_PART 64

/* ---- one side: its files, and a digest per question ----------------------- */

/* What pass 1 keeps of a question: 48 bytes. The part hashes that find
 * renamed questions are added after pass 2, for the questions not matched
 * by id only (they are read in full there anyway): a bank diffed against
 * its next version keeps no parts for the questions that kept their id. */
struct drec {
	uint64_t content;
	size_t id;          /* offset of the id in side.ids */
	uint32_t line;      /* libxml2 counts lines in an int */
	uint32_t file;
	uint32_t cat;       /* index into side.catoff */
	uint32_t parts;     /* index into side.parts */
	uint32_t match;     /* the other side's record + 1; 0: unmatched */
	uint32_t detail;    /* side.detail index + 1; 0: none */
	uint8_t nparts;     /* at most QB_DQ_MAX_PARTS */
	uint8_t type;       /* enum qb_qtype */
	uint8_t need;       /* pass 2 reads it in full */
	uint8_t renamed;
	uint8_t similarity; /* renamed: percent, as in qb_diff_entry */
};

_Static_assert(QB_DQ_MAX_PARTS <= UINT8_MAX, "drec.nparts is a byte");

struct side {
	const char *spec;
	int revision, folder;
	struct qb_gitrev *git;
	struct qb_paths paths;
	struct qb_buf rel;           /* path sides: the files' names below the folder */
	size_t *reloff;
	size_t nfiles;
	size_t *file_first;          /* first record of each file, and the end */
	struct qb_lint *lint;

	struct drec *rec;
	size_t nrec, caprec;
	struct qb_buf ids;
	uint32_t *parts;             /* the unmatched records' part hashes */
	size_t nparts, capparts;
	struct qb_buf cats;
	size_t *catoff;
	size_t ncats, capcats;
	size_t cat_file, cat_serial;
	struct qb_map idx;           /* records by id */

	struct qb_arena scratch_arena;   /* pass 1: one question at a time */
	struct qb_buf scratch;
	struct qb_arena arena;           /* pass 2: the questions read in full */
	struct qb_dq **detail;
	size_t ndetail, capdetail;
	size_t cur_file;
};

struct qb_diff_priv {
	struct side s[2];
	struct qb_arena arena;       /* entries' changes, keys, copied strings */
	struct qb_diff_entry *entries;
	size_t nentries, capentries;
	const struct qb_diag **found;   /* introduced, then fixed */
};

static const char *file_name(const struct side *s, size_t i)
{
	return s->revision ? qb_gitrev_name(s->git, i) : s->paths.v[i];
}

static const char *file_rel(const struct side *s, size_t i)
{
	return s->revision ? qb_gitrev_relative(s->git, i) : s->rel.ptr + s->reloff[i];
}

int qb_diff_is_revision(const char *arg)
{
	struct stat st;

	return strchr(arg, ':') && stat(arg, &st) != 0;
}

static int side_open(struct side *s, const char *spec, struct qb_error *err)
{
	struct stat st;
	size_t i;
	int rc;

	s->spec = spec;
	s->revision = qb_diff_is_revision(spec);
	if (s->revision) {
		rc = qb_gitrev_open(&s->git, spec, err);
		if (rc)
			return rc;
		s->nfiles = qb_gitrev_count(s->git);
		s->folder = !(s->nfiles == 1 && !*qb_gitrev_relative(s->git, 0));
	} else {
		rc = qb_paths_expand(&s->paths, &spec, 1, err);
		if (rc)
			return rc;
		s->nfiles = s->paths.n;
		s->folder = stat(spec, &st) == 0 && S_ISDIR(st.st_mode);
		s->reloff = calloc(s->nfiles, sizeof(*s->reloff));
		if (!s->reloff)
			return QB_ENOMEM;
		for (i = 0; i < s->nfiles; i++) {
			const char *p = s->paths.v[i];
			size_t n = strlen(spec);

			if (s->folder && strncmp(p, spec, n) == 0) {
				for (p += n; *p == '/'; p++)
					;
			} else if (s->folder) {
				p = s->paths.v[i];
			} else {
				p = "";
			}
			s->reloff[i] = s->rel.len;
			if (qb_buf_adds(&s->rel, p) || qb_buf_addc(&s->rel, '\0'))
				return QB_ENOMEM;
		}
	}
	s->file_first = calloc(s->nfiles + 1, sizeof(*s->file_first));
	s->ids = (struct qb_buf)QB_BUF_INIT_BIG;
	return s->file_first ? 0 : QB_ENOMEM;
}

static void side_dispose_digests(struct side *s)
{
	qb_array_free(s->rec, s->caprec, sizeof(*s->rec), QB_ARRAY_BIG);
	qb_array_free(s->parts, s->capparts, sizeof(*s->parts), QB_ARRAY_BIG);
	s->rec = NULL;
	s->parts = NULL;
	s->nrec = s->caprec = s->nparts = s->capparts = 0;
	qb_buf_dispose(&s->ids);
	qb_buf_dispose(&s->cats);
	free(s->catoff);
	s->catoff = NULL;
	qb_map_dispose(&s->idx);
	free(s->file_first);
	s->file_first = NULL;
	qb_arena_dispose(&s->scratch_arena);
	qb_buf_dispose(&s->scratch);
}

static void side_dispose(struct side *s)
{
	side_dispose_digests(s);
	qb_lint_free(s->lint);
	qb_gitrev_free(s->git);
	qb_paths_dispose(&s->paths);
	qb_buf_dispose(&s->rel);
	free(s->reloff);
	qb_arena_dispose(&s->arena);
	free(s->detail);
}

static const char *rec_id(const struct side *s, const struct drec *r)
{
	return s->ids.ptr + r->id;
}

static const char *rec_cat(const struct side *s, const struct drec *r)
{
	return s->cats.ptr + s->catoff[r->cat];
}

static uint64_t id_hash(void *ctx, size_t rec)
{
	struct side *s = ctx;
	const char *id = rec_id(s, &s->rec[rec]);

	return qb_hash(id, strlen(id));
}

static int id_same(void *ctx, size_t rec, const void *key)
{
	struct side *s = ctx;

	return strcmp(rec_id(s, &s->rec[rec]), key) == 0;
}

static const struct qb_map_ops id_ops = { id_hash, id_same };

static size_t find_id(struct side *s, const char *id)
{
	return qb_map_find(&s->idx, qb_hash(id, strlen(id)), &id_ops, s, id);
}

/* Images are compared by content: the blob id git would give the file,
 * read from the revision's tree or from disk (only where imgpath.h lets
 * qbank read it). */
static int side_image(void *ctx, const struct qb_question *q, const char *src,
		      char hex[QB_GIT_HEX])
{
	struct side *s = ctx;
	char *path = NULL;
	int v, rc;

	if (s->revision)
		return qb_gitrev_image(s->git, s->cur_file, src, hex);
	v = qb_img_path_check(q->file, src, &path, NULL);
	if (v < 0)
		return v;
	if (v != QB_IMG_OK)
		return 1;
	rc = qb_git_hash_file(path, hex) ? 1 : 0;
	free(path);
	return rc;
}

static int open_file(struct side *s, size_t i, xmlSchemaPtr schema, struct qb_reader **r,
		     struct qb_error *err)
{
	struct qb_reader_opts ro;

	memset(&ro, 0, sizeof(ro));
	ro.schema = schema;
	ro.file_index = i;
	if (schema && s->lint) {
		ro.on_diag = qb_lint_reader_diag;
		ro.diag_ctx = s->lint;
	}
	if (s->revision) {
		const char *data;
		size_t len;
		int rc = qb_gitrev_load(s->git, i, &data, &len, err);

		if (rc)
			return rc;
		return qb_reader_open_memory(r, file_name(s, i), data, len, &ro, err);
	}
	return qb_reader_open(r, s->paths.v[i], &ro, err);
}

static int add_category(struct side *s, const struct qb_question *q, const char *cat)
{
	if (s->ncats && s->cat_file == q->file_index && s->cat_serial == q->category_serial)
		return 0;
	if (QB_ARRAY_RESERVE(s->catoff, s->capcats, s->ncats + 1))
		return QB_ENOMEM;
	s->catoff[s->ncats++] = s->cats.len;
	s->cat_file = q->file_index;
	s->cat_serial = q->category_serial;
	return qb_buf_adds(&s->cats, cat) || qb_buf_addc(&s->cats, '\0') ? QB_ENOMEM : 0;
}

static int digest(struct side *s, const struct qb_question *q)
{
	struct qb_dq d;
	uint32_t parts[QB_DQ_MAX_PARTS];
	size_t np = 0;
	struct drec *r;
	int rc;

	qb_arena_reset(&s->scratch_arena);
	s->cur_file = q->file_index;
	rc = qb_dq_build(&d, &s->scratch_arena, q, side_image, s);
	if (!rc)
		rc = QB_ARRAY_RESERVE_BIG(s->rec, s->caprec, s->nrec + 1);
	if (!rc)
		rc = add_category(s, q, d.category);
	if (rc)
		return rc;
	r = &s->rec[s->nrec];
	memset(r, 0, sizeof(*r));
	rc = qb_dq_digest(&d, &s->scratch, &r->content, parts, &np);
	if (rc)
		return rc;
	r->id = s->ids.len;
	if (qb_buf_adds(&s->ids, d.id) || qb_buf_addc(&s->ids, '\0'))
		return QB_ENOMEM;
	r->line = (uint32_t)q->line;
	r->type = (uint8_t)q->type;
	r->file = (uint32_t)q->file_index;
	r->cat = (uint32_t)(s->ncats - 1);
	s->nrec++;
	/* the first of equal ids is the one matched by id */
	if (find_id(s, d.id) == QB_MAP_NONE)
		return qb_map_insert(&s->idx, qb_hash(d.id, strlen(d.id)), s->nrec - 1, &id_ops, s);
	return 0;
}

/* Pass 1: every question of the side, linted and digested. */
static int pass1(struct side *s, xmlSchemaPtr schema, struct qb_error *err)
{
	size_t i;
	int rc = 0;

	for (i = 0; i < s->nfiles && !rc; i++) {
		struct qb_reader *r = NULL;
		const struct qb_question *q;

		s->file_first[i] = s->nrec;
		rc = open_file(s, i, schema, &r, err);
		if (!rc && s->lint)
			rc = qb_lint_file_begin(s->lint, file_name(s, i), i);
		while (!rc && (rc = qb_reader_next(r, &q)) == 1) {
			rc = s->lint ? qb_lint_question(s->lint, q) : 0;
			if (!rc)
				rc = digest(s, q);
		}
		if (!rc && s->lint)
			rc = qb_lint_file_end(s->lint, qb_reader_bank(r));
		qb_reader_free(r);
		if (rc == QB_ENOMEM)
			qb_error_set(err, rc, "%s: out of memory", file_name(s, i));
	}
	s->file_first[s->nfiles] = s->nrec;
	if (!rc && s->lint)
		rc = qb_lint_finish(s->lint);
	return rc;
}

/* Pass 1 of one side as a job of its own: the two sides share nothing they
 * write (each has its lint, reader and compiled schema; the configuration
 * is read only), so qb_pipeline_pair reads them at the same time. The
 * schemas are compiled before, on the calling thread: libxml2 2.9 sets up
 * its built-in types on the first compile, and two at once race there. */
struct pass1_job {
	struct side *s;
	xmlSchemaPtr schema;
	struct qb_error err;
	int rc;
};

static int pass1_job(void *arg)
{
	struct pass1_job *j = arg;

	j->rc = pass1(j->s, j->schema, &j->err);
	return j->rc;
}

/* Pass 2: the questions marked NEED, read again in full (without the
 * schema: pass 1 has judged them), each file only as far as its last one. */
static int pass2(struct side *s, struct qb_error *err)
{
	size_t i, k;
	int rc = 0;

	for (i = 0; i < s->nfiles && !rc; i++) {
		struct qb_reader *r = NULL;
		const struct qb_question *q;
		size_t first = s->file_first[i], end = s->file_first[i + 1], last = end;

		for (k = first; k < end; k++)
			if (s->rec[k].need)
				last = k;
		if (last == end)
			continue;
		rc = open_file(s, i, NULL, &r, err);
		for (k = first; !rc && k <= last && (rc = qb_reader_next(r, &q)) == 1; k++) {
			struct qb_dq *d;

			rc = 0;
			if (!s->rec[k].need)
				continue;
			if (strcmp(q->id ? q->id : "", rec_id(s, &s->rec[k])) != 0) {
				qb_error_set(err, QB_EIO, "%s: changed while it was being read",
					     file_name(s, i));
				rc = QB_EIO;
				break;
			}
			d = qb_arena_alloc(&s->arena, sizeof(*d));
			s->cur_file = i;
			rc = d ? qb_dq_build(d, &s->arena, q, side_image, s) : QB_ENOMEM;
			if (!rc)
				rc = QB_ARRAY_PUSH(s->detail, s->ndetail, s->capdetail, d);  /* NOLINT(bugprone-sizeof-expression) */
			if (!rc)
				s->rec[k].detail = (uint32_t)s->ndetail;
		}
		if (rc == 0 && k <= last) {
			qb_error_set(err, QB_EIO, "%s: changed while it was being read", file_name(s, i));
			rc = QB_EIO;
		}
		qb_reader_free(r);
	}
	return rc;
}

/* ---- matching --------------------------------------------------------------- */

struct posting {
	uint32_t hash;
	uint32_t rec;
};

static int cmp_posting(const void *x, const void *y)
{
	const struct posting *a = x, *b = y;

	if (a->hash != b->hash)
		return a->hash < b->hash ? -1 : 1;
	return a->rec < b->rec ? -1 : a->rec > b->rec;
}

static size_t lower_bound(const struct posting *v, size_t n, uint32_t h)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid].hash < h)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

struct cand {
	uint32_t rec;
	uint32_t shared;
};

/* The unmatched old question most like new record J: the one sharing the
 * most parts (by Jaccard index over part hashes), at least SIMILAR; the
 * same content wins outright; ties go to the earlier question. */
static int best_old(const struct side *o, const struct side *n, size_t j,
		    const struct posting *post, size_t npost, size_t *best, unsigned *pct)
{
	const struct drec *r = &n->rec[j];
	struct cand *c = NULL;
	size_t nc = 0, capc = 0, p, k;
	double top = 0;
	int rc = 0;

	*best = SIZE_MAX;
	for (p = 0; p < r->nparts && !rc; p++) {
		uint32_t h = n->parts[r->parts + p];
		size_t lo, hi;

		if (p > 0 && n->parts[r->parts + p - 1] == h)
			continue;
		lo = lower_bound(post, npost, h);
		for (hi = lo; hi < npost && post[hi].hash == h; hi++)
			;
		if (hi - lo > COMMON_PART)
			continue;
		for (; lo < hi && !rc; lo++) {
			if (o->rec[post[lo].rec].match)
				continue;
			for (k = 0; k < nc && c[k].rec != post[lo].rec; k++)
				;
			if (k == nc) {
				struct cand x = { post[lo].rec, 0 };

				rc = QB_ARRAY_PUSH(c, nc, capc, x);
			}
			if (!rc)
				c[k].shared++;
		}
	}
	for (k = 0; k < nc && !rc; k++) {
		const struct drec *x = &o->rec[c[k].rec];
		double uni = (double)x->nparts + r->nparts - c[k].shared;
		double score = x->content == r->content ? 2.0 : uni > 0 ? c[k].shared / uni : 0;

		if (score >= SIMILAR && (score > top || (score == top && c[k].rec < *best))) {
			top = score;
			*best = c[k].rec;
		}
	}
	*pct = top >= 2.0 ? 100 : (unsigned)(top * 100 + 0.5);
	free(c);
	return rc;
}

/* First by id: the first question of each id on the old side meets the
 * first of the same id on the new. */
static void match_ids(struct side *o, struct side *n)
{
	size_t j;

	for (j = 0; j < n->nrec; j++) {
		size_t i = find_id(o, rec_id(n, &n->rec[j]));

		if (i != QB_MAP_NONE && !o->rec[i].match) {
			o->rec[i].match = (uint32_t)j + 1;
			n->rec[j].match = (uint32_t)i + 1;
		}
	}
}

/* The part hashes of the questions matched by id to none, from the details
 * pass 2 has read. */
static int unmatched_parts(struct side *s)
{
	uint32_t parts[QB_DQ_MAX_PARTS];
	size_t k, np;
	uint64_t content;
	int rc = 0;

	for (k = 0; k < s->nrec && !rc; k++) {
		struct drec *r = &s->rec[k];

		if (r->match || !r->detail)
			continue;
		np = 0;
		rc = qb_dq_digest(s->detail[r->detail - 1], &s->scratch, &content, parts, &np);
		if (!rc)
			rc = QB_ARRAY_RESERVE_BIG(s->parts, s->capparts, s->nparts + np);
		if (rc)
			break;
		r->parts = (uint32_t)s->nparts;
		r->nparts = (uint8_t)np;
		memcpy(s->parts + s->nparts, parts, np * sizeof(*parts));
		s->nparts += np;
	}
	return rc;
}

/* Then by likeness: each new question left unmatched meets the unmatched
 * old question most like it (best_old), which is marked renamed. */
static int match_renames(struct side *o, struct side *n)
{
	struct posting *post = NULL;
	size_t npost = 0, cappost = 0, i, j, p;
	int rc = 0;

	for (i = 0; i < o->nrec && !rc; i++) {
		if (o->rec[i].match)
			continue;
		for (p = 0; p < o->rec[i].nparts && !rc; p++) {
			struct posting x = { o->parts[o->rec[i].parts + p], (uint32_t)i };

			rc = QB_ARRAY_PUSH(post, npost, cappost, x);
		}
	}
	if (npost)
		qsort(post, npost, sizeof(*post), cmp_posting);
	for (j = 0; j < n->nrec && !rc && npost; j++) {
		size_t b;
		unsigned pct;

		if (n->rec[j].match)
			continue;
		rc = best_old(o, n, j, post, npost, &b, &pct);
		if (rc || b == SIZE_MAX)
			continue;
		o->rec[b].match = (uint32_t)j + 1;
		n->rec[j].match = (uint32_t)b + 1;
		n->rec[j].renamed = 1;
		n->rec[j].similarity = (uint8_t)pct;
	}
	free(post);
	return rc;
}

/* Which questions pass 2 must read: those whose content differs from the
 * question of the same id, and those with no such question (added, removed
 * or renamed: their stem and key are shown, their parts find renames). */
static void mark_needed(struct side *o, struct side *n)
{
	size_t i, j;

	for (j = 0; j < n->nrec; j++) {
		struct drec *r = &n->rec[j];

		if (!r->match) {
			r->need = 1;
		} else if (o->rec[r->match - 1].content != r->content) {
			r->need = 1;
			o->rec[r->match - 1].need = 1;
		}
	}
	for (i = 0; i < o->nrec; i++)
		if (!o->rec[i].match)
			o->rec[i].need = 1;
}

/* ---- what changed in a question -------------------------------------------- */

struct build {
	struct qb_diff_priv *p;
	struct qb_diff_change *v;
	size_t n, cap;
	struct qb_diff_key *key;
	size_t nkey, capkey;
	int rc;
};

static const char *keep(struct build *b, const char *s)
{
	const char *x;

	if (!s || b->rc)
		return NULL;
	x = qb_arena_strndup(&b->p->arena, s, strlen(s));
	if (!x)
		b->rc = QB_ENOMEM;
	return x;
}

static int same_str(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	return strcmp(a, b) == 0;
}

/* Records a change; WORDS: add a word diff when both texts are there. */
static void change(struct build *b, enum qb_diff_part part, const char *label,
		   const char *old_label, const char *old_text, const char *new_text, int words)
{
	struct qb_diff_change c;

	if (b->rc)
		return;
	memset(&c, 0, sizeof(c));
	c.part = part;
	c.label = label;
	c.old_label = old_label;
	c.old_text = old_text;
	c.new_text = new_text;
	if (words && old_text && new_text) {
		struct qb_word_seg *w = NULL;
		size_t nw = 0;

		b->rc = qb_words_diff(&w, &nw, NULL, old_text, new_text);
		if (!b->rc && nw) {
			struct qb_word_seg *k = qb_arena_alloc(&b->p->arena, nw * sizeof(*k));

			if (k) {
				memcpy(k, w, nw * sizeof(*k));
				c.words = k;
				c.nwords = nw;
			} else {
				b->rc = QB_ENOMEM;
			}
		}
		free(w);
	}
	if (!b->rc)
		b->rc = QB_ARRAY_PUSH(b->v, b->n, b->cap, c);
}

static void text_part(struct build *b, enum qb_diff_part part, const char *label,
		      const char *old_text, const char *new_text, int words)
{
	if (!same_str(old_text, new_text))
		change(b, part, label, NULL, old_text, new_text, words);
}

/* LIST[0..n) joined with SEP, in the report's arena; NULL when N is 0. */
static const char *joined(struct build *b, const char *const *list, size_t n, const char *sep)
{
	struct qb_buf x = QB_BUF_INIT;
	const char *r;
	size_t i;

	if (!n || b->rc)
		return NULL;
	for (i = 0; i < n && !b->rc; i++)
		if (qb_buf_printf(&x, "%s%s", i ? sep : "", list[i]))
			b->rc = QB_ENOMEM;
	r = keep(b, x.ptr);
	qb_buf_dispose(&x);
	return r;
}

static int same_list(const char *const *a, size_t na, const char *const *b, size_t nb)
{
	size_t i;

	if (na != nb)
		return 0;
	for (i = 0; i < na; i++)
		if (strcmp(a[i], b[i]) != 0)
			return 0;
	return 1;
}

/* The key items of D (correct options, else answers, else pairs) from
 * b->key on; returns where they start. */
static size_t key_items(struct build *b, const struct qb_dq *d)
{
	size_t start = b->nkey, i;

#define KEY(i_, t_) do { struct qb_diff_key k_ = { (i_), (t_) }; \
	if (!b->rc) b->rc = QB_ARRAY_PUSH(b->key, b->nkey, b->capkey, k_); } while (0)
	for (i = 0; i < d->nopts; i++)
		if (d->opts[i].correct)
			KEY(d->opts[i].id, d->opts[i].text);
	for (i = 0; i < d->nanswers; i++)
		KEY(NULL, d->answers[i]);
	for (i = 0; i < d->npairs; i++)
		KEY(NULL, d->pairs[i]);
#undef KEY
	return start;
}

/* Options of A and B paired: the same explicit id, else the same text,
 * else the most similar text (at least SIMILAR of their words), else the
 * same position. */
static int pair_options(const struct qb_dq *a, const struct qb_dq *b, int *pa, int *pb)
{
	size_t i, j;

	for (i = 0; i < a->nopts; i++)
		pa[i] = -1;
	for (j = 0; j < b->nopts; j++)
		pb[j] = -1;
	for (i = 0; i < a->nopts; i++)
		for (j = 0; j < b->nopts && pa[i] < 0; j++)
			if (pb[j] < 0 && a->opts[i].explicit_id && b->opts[j].explicit_id &&
			    strcmp(a->opts[i].id, b->opts[j].id) == 0) {
				pa[i] = (int)j;
				pb[j] = (int)i;
			}
	for (i = 0; i < a->nopts; i++)
		for (j = 0; j < b->nopts && pa[i] < 0; j++)
			if (pb[j] < 0 && strcmp(a->opts[i].text, b->opts[j].text) == 0) {
				pa[i] = (int)j;
				pb[j] = (int)i;
			}
	for (i = 0; i < a->nopts; i++) {
		double top = SIMILAR;
		int best = -1;

		if (pa[i] >= 0)
			continue;
		for (j = 0; j < b->nopts; j++) {
			double s;

			if (pb[j] >= 0)
				continue;
			s = qb_words_similarity(a->opts[i].text, b->opts[j].text);
			if (s < 0)
				return QB_ENOMEM;
			if (s >= top && (best < 0 || s > top)) {
				top = s;
				best = (int)j;
			}
		}
		if (best >= 0) {
			pa[i] = best;
			pb[best] = (int)i;
		}
	}
	/* what is left at the same place on both sides was reworded */
	for (i = 0; i < a->nopts && i < b->nopts; i++)
		if (pa[i] < 0 && pb[i] < 0) {
			pa[i] = (int)i;
			pb[i] = (int)i;
		}
	return 0;
}

static void options(struct build *b, const struct qb_dq *a, const struct qb_dq *d,
		    const int *pa, const int *pb)
{
	size_t i, j;
	int prev = -1, order = 0;

	for (j = 0; j < d->nopts; j++) {
		const struct qb_dq_opt *y = &d->opts[j], *x;

		if (pb[j] < 0) {
			change(b, QB_DIFF_OPTION_ADDED, y->id, NULL, NULL, y->text, 0);
			continue;
		}
		x = &a->opts[pb[j]];
		if (pb[j] < prev)
			order = 1;
		prev = pb[j];
		if (!same_str(x->text, y->text))
			change(b, QB_DIFF_OPTION_TEXT, y->id,
			       strcmp(x->id, y->id) ? x->id : NULL, x->text, y->text, 1);
		if (!same_str(x->rationale, y->rationale))
			change(b, QB_DIFF_OPTION_RATIONALE, y->id,
			       strcmp(x->id, y->id) ? x->id : NULL, x->rationale, y->rationale, 1);
	}
	for (i = 0; i < a->nopts; i++)
		if (pa[i] < 0)
			change(b, QB_DIFF_OPTION_REMOVED, a->opts[i].id, NULL, a->opts[i].text, NULL, 0);
	if (order && (!a->shuffle || !d->shuffle)) {
		/* both orders in the new ids, so that they can be compared */
		struct qb_buf o = QB_BUF_INIT, n = QB_BUF_INIT;
		int rc = 0;

		for (i = 0; i < a->nopts; i++)
			if (pa[i] >= 0)
				rc |= qb_buf_printf(&o, "%s%s", o.len ? " " : "", d->opts[pa[i]].id);
		for (j = 0; j < d->nopts; j++)
			if (pb[j] >= 0)
				rc |= qb_buf_printf(&n, "%s%s", n.len ? " " : "", d->opts[j].id);
		if (rc)
			b->rc = QB_ENOMEM;
		change(b, QB_DIFF_OPTION_ORDER, NULL, NULL, keep(b, o.ptr), keep(b, n.ptr), 0);
		qb_buf_dispose(&o);
		qb_buf_dispose(&n);
	}
}

static int key_changed(const struct qb_dq *a, const struct qb_dq *d, const int *pa,
		       const int *pb)
{
	size_t i, j;

	for (i = 0; i < a->nopts; i++)
		if (pa[i] < 0 ? a->opts[i].correct : a->opts[i].correct != d->opts[pa[i]].correct)
			return 1;
	for (j = 0; j < d->nopts; j++)
		if (pb[j] < 0 && d->opts[j].correct)
			return 1;
	return !same_list(a->answers, a->nanswers, d->answers, d->nanswers) ||
	       !same_list(a->pairs, a->npairs, d->pairs, d->npairs);
}

static const char *key_text(struct build *b, size_t start, size_t end)
{
	const char *v[256];
	size_t i, n = 0;

	for (i = start; i < end && n < 256; i++)
		v[n++] = b->key[i].id ? b->key[i].id : b->key[i].text;
	return n ? joined(b, v, n, ", ") : keep(b, "(none)");
}

static void images(struct build *b, const struct qb_dq *a, const struct qb_dq *d)
{
	size_t i = 0, j = 0;

	while (i < a->nimgs || j < d->nimgs) {
		int c = i >= a->nimgs ? 1 : j >= d->nimgs ? -1 : strcmp(a->imgs[i].src, d->imgs[j].src);

		if (c < 0) {
			change(b, QB_DIFF_IMAGE, a->imgs[i].src, NULL,
			       a->imgs[i].hash ? a->imgs[i].hash : "missing", NULL, 0);
			i++;
		} else if (c > 0) {
			change(b, QB_DIFF_IMAGE, d->imgs[j].src, NULL, NULL,
			       d->imgs[j].hash ? d->imgs[j].hash : "missing", 0);
			j++;
		} else {
			if (!same_str(a->imgs[i].hash, d->imgs[j].hash))
				change(b, QB_DIFF_IMAGE, d->imgs[j].src, NULL,
				       a->imgs[i].hash ? a->imgs[i].hash : "missing",
				       d->imgs[j].hash ? d->imgs[j].hash : "missing", 0);
			i++;
			j++;
		}
	}
}

/* Every change from A (old) to D (new), the key first. */
static int compare(struct build *b, struct qb_diff_entry *e, const struct qb_dq *a,
		   const struct qb_dq *d)
{
	int *pa = calloc(a->nopts + 1, sizeof(*pa)), *pb = calloc(d->nopts + 1, sizeof(*pb));
	size_t ko, kn;

	if (!pa || !pb) {
		free(pa);
		free(pb);
		return QB_ENOMEM;
	}
	b->rc = pair_options(a, d, pa, pb);
	if (!b->rc && key_changed(a, d, pa, pb)) {
		ko = key_items(b, a);
		kn = key_items(b, d);
		e->flags |= QB_DIFF_KEY_CHANGED;
		change(b, QB_DIFF_KEY, NULL, NULL, key_text(b, ko, kn), NULL, 0);
		if (!b->rc) {
			/* the new key's text once the old one is out of the way */
			struct qb_diff_key *k = qb_arena_alloc(&b->p->arena,
							       (b->nkey + 1) * sizeof(*k));

			if (!k) {
				b->rc = QB_ENOMEM;
			} else {
				memcpy(k, b->key, b->nkey * sizeof(*k));
				e->old_key = k + ko;
				e->nold_key = kn - ko;
				e->new_key = k + kn;
				e->nnew_key = b->nkey - kn;
				b->v[b->n - 1].new_text = key_text(b, kn, b->nkey);
			}
		}
	}
	text_part(b, QB_DIFF_TYPE, NULL, a->type, d->type, 0);
	text_part(b, QB_DIFF_POINTS, NULL, a->points, d->points, 0);
	text_part(b, QB_DIFF_SELECT, NULL, a->select, d->select, 0);
	text_part(b, QB_DIFF_SHUFFLE, NULL, a->shuffle ? "true" : "false",
		  d->shuffle ? "true" : "false", 0);
	if (a->case_sensitive != d->case_sensitive && (a->nanswers || d->nanswers))
		text_part(b, QB_DIFF_CASE, NULL, a->case_sensitive ? "true" : "false",
			  d->case_sensitive ? "true" : "false", 0);
	text_part(b, QB_DIFF_STEM, NULL, a->stem, d->stem, 1);
	if (!b->rc)
		options(b, a, d, pa, pb);
	text_part(b, QB_DIFF_RATIONALE, "true", a->rationale_true, d->rationale_true, 1);
	text_part(b, QB_DIFF_RATIONALE, "false", a->rationale_false, d->rationale_false, 1);
	if (!same_list(a->distractors, a->ndistractors, d->distractors, d->ndistractors))
		change(b, QB_DIFF_DISTRACTORS, NULL, NULL,
		       joined(b, a->distractors, a->ndistractors, "; "),
		       joined(b, d->distractors, d->ndistractors, "; "), 1);
	text_part(b, QB_DIFF_RESPONSE, NULL, a->response, d->response, 1);
	text_part(b, QB_DIFF_RUBRIC, NULL, a->rubric, d->rubric, 1);
	text_part(b, QB_DIFF_EXPLANATION, NULL, a->explanation, d->explanation, 1);
	if (!same_list(a->tags, a->ntags, d->tags, d->ntags))
		change(b, QB_DIFF_TAGS, NULL, NULL, joined(b, a->tags, a->ntags, ", "),
		       joined(b, d->tags, d->ntags, ", "), 1);
	text_part(b, QB_DIFF_SOURCE, NULL, a->source, d->source, 1);
	images(b, a, d);
	free(pa);
	free(pb);
	return b->rc;
}

static void place(struct build *b, struct qb_diff_place *pl, const struct side *s,
		  const struct drec *r)
{
	pl->file = file_name(s, r->file);
	pl->relative = file_rel(s, r->file);
	pl->line = r->line;
	pl->category = keep(b, rec_cat(s, r));
}

static const struct qb_dq *detail(const struct side *s, const struct drec *r)
{
	return r->detail ? s->detail[r->detail - 1] : NULL;
}

/* An added or removed question: its stem and key. */
static void lone(struct build *b, struct qb_diff_entry *e, const struct qb_dq *d, int added)
{
	size_t k;
	struct qb_diff_key *v;

	e->stem = d->stem;
	e->type = d->type;
	b->nkey = 0;
	k = key_items(b, d);
	if (b->rc || b->nkey == k)
		return;
	v = qb_arena_alloc(&b->p->arena, (b->nkey - k) * sizeof(*v));
	if (!v) {
		b->rc = QB_ENOMEM;
		return;
	}
	memcpy(v, b->key + k, (b->nkey - k) * sizeof(*v));
	if (added) {
		e->new_key = v;
		e->nnew_key = b->nkey - k;
	} else {
		e->old_key = v;
		e->nold_key = b->nkey - k;
	}
}

static int push_entry(struct build *b, struct qb_diff_entry *e)
{
	struct qb_diff_priv *p = b->p;

	if (b->rc)
		return b->rc;
	if (b->n) {
		struct qb_diff_change *c = qb_arena_alloc(&p->arena, b->n * sizeof(*c));

		if (!c)
			return QB_ENOMEM;
		memcpy(c, b->v, b->n * sizeof(*c));
		e->changes = c;
		e->nchanges = b->n;
	}
	return QB_ARRAY_PUSH(p->entries, p->nentries, p->capentries, *e);
}

/* Another category, or another file of a folder. */
static int moved(const struct side *o, const struct drec *x, const struct side *n,
		 const struct drec *y)
{
	return strcmp(rec_cat(o, x), rec_cat(n, y)) != 0 ||
	       (o->folder && n->folder && strcmp(file_rel(o, x->file), file_rel(n, y->file)) != 0);
}

static int build_entries(struct qb_diff_report *rep, struct side *o, struct side *n)
{
	struct build b;
	size_t i, j;
	int rc = 0;

	memset(&b, 0, sizeof(b));
	b.p = rep->priv;
	for (j = 0; j < n->nrec && !rc; j++) {
		const struct drec *y = &n->rec[j], *x = y->match ? &o->rec[y->match - 1] : NULL;
		struct qb_diff_entry e;

		/* most questions are unchanged: they cost the report nothing */
		if (x && !y->renamed && x->content == y->content && !moved(o, x, n, y)) {
			rep->unchanged++;
			continue;
		}
		memset(&e, 0, sizeof(e));
		b.n = 0;
		b.nkey = 0;
		e.id = keep(&b, rec_id(n, y));
		place(&b, &e.new_place, n, y);
		if (!x) {
			e.kind = QB_DIFF_ADDED;
			lone(&b, &e, detail(n, y), 1);
			rep->count[QB_DIFF_N_ADDED]++;
			rc = push_entry(&b, &e);
			continue;
		}
		e.kind = QB_DIFF_MATCHED;
		e.old_id = keep(&b, rec_id(o, x));
		place(&b, &e.old_place, o, x);
		if (y->renamed) {
			e.flags |= QB_DIFF_RENAMED;
			e.similarity = y->similarity;
		}
		if (moved(o, x, n, y))
			e.flags |= QB_DIFF_MOVED;
		if (x->content != y->content) {
			const struct qb_dq *dx = detail(o, x), *dy = detail(n, y);

			e.type = dy->type;
			rc = compare(&b, &e, dx, dy);
			/* a 64-bit digest collision aside, something differs;
			 * a difference the parts do not show (the order of
			 * shuffled options is not one) leaves no change */
			if (b.n)
				e.flags |= QB_DIFF_CHANGED;
		}
		if (rc)
			break;
		if (!e.flags) {
			rep->unchanged++;
			continue;
		}
		if (!e.type)
			e.type = y->type < QB_Q_UNKNOWN ? qb_qtype_names[y->type] : "";
		rep->count[QB_DIFF_N_RENAMED] += !!(e.flags & QB_DIFF_RENAMED);
		rep->count[QB_DIFF_N_MOVED] += !!(e.flags & QB_DIFF_MOVED);
		rep->count[QB_DIFF_N_CHANGED] += !!(e.flags & QB_DIFF_CHANGED);
		rep->count[QB_DIFF_N_KEY] += !!(e.flags & QB_DIFF_KEY_CHANGED);
		rc = push_entry(&b, &e);
	}
	for (i = 0; i < o->nrec && !rc; i++) {
		const struct drec *x = &o->rec[i];
		struct qb_diff_entry e;

		if (x->match)
			continue;
		memset(&e, 0, sizeof(e));
		b.n = 0;
		e.kind = QB_DIFF_REMOVED;
		e.id = keep(&b, rec_id(o, x));
		place(&b, &e.old_place, o, x);
		lone(&b, &e, detail(o, x), 0);
		rep->count[QB_DIFF_N_REMOVED]++;
		rc = push_entry(&b, &e);
	}
	if (!rc)
		rc = b.rc;
	free(b.v);
	free(b.key);
	rep->entries = rep->priv->entries;
	rep->nentries = rep->priv->nentries;
	return rc;
}

/* ---- lint findings introduced and fixed ------------------------------------- */

struct rename {
	const char *old_id, *new_id;
};

static int cmp_rename(const void *x, const void *y)
{
	return strcmp(((const struct rename *)x)->old_id, ((const struct rename *)y)->old_id);
}

struct fkey {
	size_t off;               /* of the key in the keys buffer */
	const char *key;          /* the same, once every key is in */
	size_t diag;
	int side;
	int matched;
};

static int cmp_fkey(const void *x, const void *y)
{
	const struct fkey *a = x, *b = y;
	int c = strcmp(a->key, b->key);

	if (c)
		return c;
	if (a->side != b->side)
		return a->side - b->side;
	return a->diag < b->diag ? -1 : a->diag > b->diag;
}

struct span {
	const char *s;
	size_t len;
};

static int cmp_span(const void *x, const void *y)
{
	const struct span *a = x, *b = y;
	size_t n = a->len < b->len ? a->len : b->len;
	int c = memcmp(a->s, b->s, n);

	return c ? c : a->len < b->len ? -1 : a->len > b->len;
}

/* An old id as the new side knows it (through a rename). */
static struct span renamed(const struct rename *rn, size_t nrn, struct span s, int old_side)
{
	struct rename key, *hit;
	char buf[128];

	if (!old_side || !nrn || s.len >= sizeof(buf))
		return s;
	memset(&key, 0, sizeof(key));
	memcpy(buf, s.s, s.len);
	buf[s.len] = '\0';
	key.old_id = buf;
	hit = bsearch(&key, rn, nrn, sizeof(*rn), cmp_rename);
	if (hit) {
		s.s = hit->new_id;
		s.len = strlen(hit->new_id);
	}
	return s;
}

/* The finding's identity: its rule, and the set of the question it is
 * about and of everything its message quotes ('...' or "..."), ids seen
 * through renames; a finding about no question also names its file below
 * the side's folder. */
static int finding_key(struct qb_buf *b, const struct side *s, const struct qb_diag *d,
		       const struct rename *rn, size_t nrn, int old_side)
{
	struct span v[32];
	size_t n = 0, i;
	const char *p = d->message;

	if (d->question) {
		struct span q = { d->question, strlen(d->question) };

		v[n++] = renamed(rn, nrn, q, old_side);
	}
	while (*p && n < 32) {
		const char *close;

		if (*p != '\'' && *p != '"') {
			p++;
			continue;
		}
		close = strchr(p + 1, *p);
		if (!close)
			break;
		{
			struct span q = { p + 1, (size_t)(close - p - 1) };

			v[n++] = renamed(rn, nrn, q, old_side);
		}
		p = close + 1;
	}
	qsort(v, n, sizeof(v[0]), cmp_span);
	if (qb_buf_printf(b, "%s\x1f", d->rule))
		return QB_ENOMEM;
	if (!d->question) {
		const char *rel = d->file;

		for (i = 0; i < s->nfiles; i++)
			if (strcmp(file_name(s, i), d->file) == 0) {
				rel = file_rel(s, i);
				break;
			}
		if (qb_buf_printf(b, "%s\x1f", rel))
			return QB_ENOMEM;
	}
	for (i = 0; i < n; i++) {
		if (i && cmp_span(&v[i - 1], &v[i]) == 0)
			continue;
		if (qb_buf_add(b, v[i].s, v[i].len) || qb_buf_addc(b, '\x1e'))
			return QB_ENOMEM;
	}
	return qb_buf_addc(b, '\0');
}

static int compare_lint(struct qb_diff_report *rep, struct side *o, struct side *n)
{
	struct qb_diff_priv *p = rep->priv;
	struct rename *rn = NULL;
	size_t nrn = 0, caprn = 0, i, k, nk = 0, capk = 0, nd[2];
	struct fkey *keys = NULL;
	struct qb_buf kb = QB_BUF_INIT;
	struct side *sides[2] = { o, n };
	int rc = 0, sd;

	for (i = 0; i < rep->nentries && !rc; i++) {
		const struct qb_diff_entry *e = &rep->entries[i];

		if (e->flags & QB_DIFF_RENAMED) {
			struct rename r = { e->old_id, e->id };

			rc = QB_ARRAY_PUSH(rn, nrn, caprn, r);
		}
	}
	if (nrn)
		qsort(rn, nrn, sizeof(*rn), cmp_rename);
	for (sd = 0; sd < 2 && !rc; sd++) {
		const struct qb_diags *ds = qb_lint_diags(sides[sd]->lint);

		nd[sd] = ds->n;
		for (i = 0; i < ds->n && !rc; i++) {
			struct fkey f;

			memset(&f, 0, sizeof(f));
			f.off = kb.len;
			f.diag = i;
			f.side = sd;
			rc = finding_key(&kb, sides[sd], &ds->v[i], rn, nrn, sd == 0);
			if (!rc)
				rc = QB_ARRAY_PUSH(keys, nk, capk, f);
		}
	}
	if (!rc) {
		for (k = 0; k < nk; k++)
			keys[k].key = kb.ptr + keys[k].off;
		if (nk)
			qsort(keys, nk, sizeof(*keys), cmp_fkey);
		/* equal keys sort old side first: pair them off one by one */
		for (k = 0; k < nk;) {
			size_t e = k, no = 0, nn = 0, m;

			while (e < nk && strcmp(keys[e].key, keys[k].key) == 0)
				e++;
			for (m = k; m < e; m++)
				keys[m].side ? nn++ : no++;
			for (m = 0; m < no && m < nn; m++) {
				keys[k + m].matched = 1;
				keys[k + no + m].matched = 1;
			}
			k = e;
		}
		p->found = calloc(nk + 1, sizeof(*p->found));  /* NOLINT(bugprone-sizeof-expression) */
		if (!p->found)
			rc = QB_ENOMEM;
	}
	if (!rc) {
		/* back in each side's order (lint's), introduced first */
		char *un[2];

		un[0] = calloc(nd[0] + 1, 1);
		un[1] = calloc(nd[1] + 1, 1);
		if (!un[0] || !un[1]) {
			rc = QB_ENOMEM;
		} else {
			for (k = 0; k < nk; k++)
				if (!keys[k].matched)
					un[keys[k].side][keys[k].diag] = 1;
			for (i = 0; i < nd[1]; i++)
				if (un[1][i])
					p->found[rep->nintroduced++] = &qb_lint_diags(n->lint)->v[i];
			for (i = 0; i < nd[0]; i++)
				if (un[0][i])
					p->found[rep->nintroduced + rep->nfixed++] =
						&qb_lint_diags(o->lint)->v[i];
			rep->introduced = p->found;
			rep->fixed = p->found + rep->nintroduced;
		}
		free(un[0]);
		free(un[1]);
	}
	free(keys);
	free(rn);
	qb_buf_dispose(&kb);
	return rc;
}

/* ---- the run ------------------------------------------------------------------ */

static void side_info(struct qb_diff_side_info *info, const struct side *s)
{
	info->name = s->spec;
	info->revision = s->revision;
	info->files = s->nfiles;
	if (s->lint)
		info->stats = *qb_lint_stats(s->lint);
	info->stats.questions = s->nrec;
}

int qb_diff_run(struct qb_diff_report **out, const char *old_spec, const char *new_spec,
		const struct qb_diff_opts *opts, struct qb_error *err)
{
	struct qb_diff_report *rep;
	struct qb_diff_priv *p;
	struct pass1_job job[2];
	int rc, sd;

	*out = NULL;
	rep = calloc(1, sizeof(*rep));
	p = calloc(1, sizeof(*p));
	if (!rep || !p) {
		free(rep);
		free(p);
		return QB_ENOMEM;
	}
	rep->priv = p;
	rc = side_open(&p->s[0], old_spec, err);
	if (!rc)
		rc = side_open(&p->s[1], new_spec, err);
	if (!rc && opts->cfg && (p->s[0].revision || p->s[1].revision)) {
		rc = qb_config_set_severity(opts->cfg, qb_rules[QB_RULE_IMG_MISSING].id, QB_SEV_OFF, 0);
		if (!rc)
			rc = qb_config_set_severity(opts->cfg, qb_rules[QB_RULE_IMG_UNSAFE_PATH].id,
						    QB_SEV_OFF, 0);
	}
	for (sd = 0; sd < 2 && !rc && opts->cfg; sd++)
		rc = qb_lint_new(&p->s[sd].lint, opts->cfg, err);
	rep->linted = opts->cfg != NULL;
	memset(job, 0, sizeof(job));
	for (sd = 0; sd < 2; sd++) {
		job[sd].s = &p->s[sd];
		if (!rc)
			rc = qb_schema_load(&job[sd].schema, err);
	}
	if (!rc) {
		rc = qb_pipeline_pair(pass1_job, &job[0], &job[1]);
		if (rc)
			*err = job[0].rc ? job[0].err : job[1].err;
	}
	for (sd = 0; sd < 2; sd++)
		qb_schema_free(job[sd].schema);
	if (!rc) {
		match_ids(&p->s[0], &p->s[1]);
		mark_needed(&p->s[0], &p->s[1]);
		rc = pass2(&p->s[0], err);
	}
	if (!rc)
		rc = pass2(&p->s[1], err);
	for (sd = 0; sd < 2 && !rc; sd++)
		rc = unmatched_parts(&p->s[sd]);
	if (!rc)
		rc = match_renames(&p->s[0], &p->s[1]);
	if (!rc)
		rc = build_entries(rep, &p->s[0], &p->s[1]);
	if (!rc && rep->linted)
		rc = compare_lint(rep, &p->s[0], &p->s[1]);
	if (!rc) {
		side_info(&rep->old_side, &p->s[0]);
		side_info(&rep->new_side, &p->s[1]);
		/* the digests have done their work: only the details stay */
		side_dispose_digests(&p->s[0]);
		side_dispose_digests(&p->s[1]);
	}
	if (rc) {
		if (rc == QB_ENOMEM && !err->msg[0])
			qb_error_set(err, rc, "out of memory");
		qb_diff_report_free(rep);
		return rc;
	}
	*out = rep;
	return 0;
}

void qb_diff_report_free(struct qb_diff_report *r)
{
	if (!r)
		return;
	if (r->priv) {
		side_dispose(&r->priv->s[0]);
		side_dispose(&r->priv->s[1]);
		qb_arena_dispose(&r->priv->arena);
		free(r->priv->entries);
		free(r->priv->found);
		free(r->priv);
	}
	free(r);
}

int qb_diff_differs(const struct qb_diff_report *r)
{
	return r->nentries > 0 || r->nintroduced > 0 || r->nfixed > 0;
}
