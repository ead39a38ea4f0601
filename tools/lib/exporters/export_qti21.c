/* IMS QTI 2.1 content package: a zip with one assessmentItem per question,
 * one assessmentTest, the images the questions show, and imsmanifest.xml
 * (IMS Content Packaging 1.1) listing them all.
 *
 * Package layout:
 *   items/<id>.xml           one assessmentItem per question (qti_item.c)
 *   items/media/<src>        images, at their path relative to the bank file
 *   assessment.xml           the assessmentTest: one testPart, one
 *                            assessmentSection per category path, plus one
 *                            per bank file for questions outside categories;
 *                            each item's points as the weight of its
 *                            assessmentItemRef
 *   imsmanifest.xml          resources: the test (depending on every item),
 *                            each item (its file and its images as files)
 * Images sit below items/ so that an item refers to them as media/<src>,
 * with no ".." in any href.
 *
 * What real importers need (tools/lib/exporters/README.md has the rules):
 * an image is a file of each item that shows it and never a resource of
 * its own (Canvas skips as an attachment every file whose href is also a
 * resource's); the points are a <weight> (Canvas reads no other); the
 * sections are invisible, so that their titles are not shown as extra
 * text-only questions (Canvas); and every entry name is ASCII without
 * spaces (Canvas does not percent-decode manifest hrefs): other bytes
 * become '_', and an item whose id is not such a name gets a hash of the
 * id after it.
 *
 * Streaming and entry order: memory must not grow with the bank beyond a
 * small record per question, so each item is rendered into a memory
 * buffer, written to the zip at once and freed; an image is written the
 * first time a question shows it. The zip entries therefore come in bank
 * order (each question's new images just before its item), then
 * assessment.xml and imsmanifest.xml last, because only the end of the
 * bank completes them. A zip is read through its central directory, so
 * importers do not depend on the order, and bank order is as deterministic
 * as a sorted one.
 *
 * Memory at a million questions: what the test and the manifest need of
 * each item (its id, its entry name when that differs from
 * items/<id>.xml, its points and its images) goes to an unlinked
 * temporary file, the spool, in bank order, and is read back in order
 * when they are written; the test reads it section by section through
 * the runs (stretches of consecutive items of one section, one per
 * category element in a usual bank). What stays in memory per item is a
 * 64-bit hash of its id (to keep the generated identifiers clear of the
 * ids) and one of its case-folded entry name (qti_internal.h: about 14
 * bytes each, 28 a question), instead of the 40-byte record, the id and
 * its map that were held before. A repeated id never reaches the
 * exporter: the export driver refuses it from the lint's index of ids
 * (exporter.h, unique_ids), so the hashes are not checked for repeats. Two hashes that collide (about 3e-8 at a
 * million ids) would give a generated identifier or an entry name the
 * suffix "-2", and the package stays valid. The rest of the
 * export's peak is libarchive's: the zip writer keeps each entry's
 * central-directory record until the archive is closed, 46 bytes + the
 * name + 20 bytes of extra fields, which no writer option spills
 * (tools/bench/README.md has the figures).
 *
 * Refusals: problems that would make the package wrong (an image that
 * imgpath.h refuses to read, normally reported by lint already; an
 * identifier QTI cannot take) are collected while the bank is read and
 * refuse the export at commit (QB_EREFUSED), so that lint's own findings
 * still come out first. A question id used twice (with id-duplicate off
 * or suppressed) is refused by the driver, as target-qti-identifier.
 *
 * QTI 3.0 (--to qti30) is the same package in QTI 3.0's form, written by
 * the same code from a row of the flavour table below: the item writer's
 * v3 switch (QTI 3.0 names through qti_v3.c, qti-content-body in feedback
 * and rubric blocks), the 3.0 namespaces and the QTI 3.0 profile of IMS
 * Content Packaging (<schema>QTI Package</schema>, schemaversion 3.0.0,
 * resource types imsqti_item_xmlv3p0 and imsqti_test_xmlv3p0). The Canvas
 * shaping above (weights, invisible sections, images only as files of
 * their items) is the QTI 2.1 row's; the QTI 3.0 row keeps the plain CP
 * form: visible sections, each image a webcontent resource its items
 * depend on. */
#include "exporters.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../atomic.h"
#include "../core/array.h"
#include "../core/map.h"
#include "../imgpath.h"
#include "../mathml.h"
#include "../tempfile.h"
#include "../text.h"
#include "qti_internal.h"

#define TEST_FILE "assessment.xml"
#define MANIFEST_FILE "imsmanifest.xml"
#define ITEM_DIR "items/"
#define MEDIA_DIR "items/media/"
/* longest id used as a file name as it is; longer ones are shortened and
 * given a hash (file systems take 255 bytes per name) */
#define MAX_NAME_ID 200

/* What tells the two QTI versions' packages apart. */
struct flavour {
	const char *name;          /* the target, in messages */
	int v3;                    /* QTI 3.0 names and content bodies */
	const char *ns, *schema_location, *cp_ns, *cp_schema_location;
	const char *schema, *schemaversion, *test_type, *item_type;
	/* 1: shaped for Canvas's importer (weights, invisible sections, images
	 * only as files of their items); 0: images as webcontent resources */
	int for_canvas;
};

static const struct flavour qti21 = {
	"qti21", 0, QTI_NS, QTI_SCHEMA_LOCATION, QTI_CP_NS, QTI_CP_SCHEMA_LOCATION,
	"QTIv2.1 Package", "2.1", "imsqti_test_xmlv2p1", "imsqti_item_xmlv2p1", 1,
};
static const struct flavour qti30 = {
	"qti30", 1, QTI3_NS, QTI3_SCHEMA_LOCATION, QTI3_CP_NS, QTI3_CP_SCHEMA_LOCATION,
	"QTI Package", "3.0.0", "imsqti_test_xmlv3p0", "imsqti_item_xmlv3p0", 0,
};

/* What the spool holds for each item, in bank order: this header, then
 * the indices of its images (nmedia uint32_t), its id (idlen bytes) and
 * its entry name (filelen bytes; none when it is items/<id>.xml). */
struct spooled {
	double points;
	uint32_t idlen, filelen, nmedia, pad;
};

/* Consecutive items of one section: one stretch of the spool. */
struct run {
	uint64_t off;          /* spool offset of its first record */
	uint32_t n;            /* items */
	uint32_t next;         /* the section's next run, or NO_RUN */
};
#define NO_RUN UINT32_MAX

/* An item read back from the spool (spool_read). */
struct rec_in {
	struct spooled h;
	const uint32_t *media;
	const char *id;
	const char *file;      /* NULL for items/<id>.xml */
	char *buf;             /* what they point into */
	size_t cap;
};

struct section {
	size_t key;            /* arena offsets */
	size_t title;
	size_t gen_id;         /* assigned at commit */
	size_t nitems;
	uint32_t first_run, last_run;   /* its runs, NO_RUN while it has none */
};

struct media {
	size_t real;           /* resolved path: the key that merges references */
	size_t entry;          /* entry name in the zip */
	size_t gen_id;         /* QTI 3.0: its resource identifier, assigned at commit */
};

struct qti {
	const struct flavour *fl;
	struct qb_atomic *out;
	struct qti_zip *zip;
	xmlBufferPtr xbuf;
	struct qb_rich_html *render;    /* the items' rich text, into html */
	struct qb_buf html;

	struct qb_buf arena;   /* NUL-terminated strings, addressed by offset */
	struct qb_spool spool; /* the items' records (struct spooled) */
	uint64_t spooled;      /* its length */
	size_t nitems;
	struct run *runs;
	size_t nruns, capruns;
	struct section *sections;
	size_t nsections, capsections;
	struct media *media;
	size_t nmedia, capmedia;
	uint32_t *refs;        /* images of the current item */
	size_t nrefs, caprefs;

	struct qti_hashes names;   /* entry names in use */
	struct qti_hashes ids;     /* question ids in use */

	struct qb_map secmap;  /* section key -> section */
	struct qb_map medmap;  /* resolved image path -> media */

	/* the current bank file */
	char *bank_title;
	char *lang;            /* checked xml:lang, or NULL */
	/* the first bank file names the test */
	size_t test_id, test_title;
	int have_test;

	/* the current question */
	const struct qb_question *q;
	struct qb_buf src;     /* img_src's result */

	/* the section of the previous question */
	size_t last_serial, last_file;
	uint32_t last_section;
	int have_last;

	/* generated identifiers, assigned at commit */
	size_t part_id, test_res_id, manifest_id;

	struct qb_mathml *math;    /* the current bank file's formulas as MathML */

	struct qti_status s;       /* the first refusal and the first error */
};

/* ---- small helpers ------------------------------------------------------ */

static const char *str(const struct qti *st, size_t off)
{
	return st->arena.ptr + off;
}

static int arena_add(struct qti *st, const char *s, size_t len, size_t *off)
{
	return qti_arena_add(&st->arena, s, len, off);
}

static int id_in_use(const struct qti *st, const char *id)
{
	return qti_hashes_has(&st->ids, qti_hash_str(id));
}

/* ---- entry names -------------------------------------------------------- */

/* Appends to OUT the first of DIR BASE EXT, DIR BASE-2 EXT, ... not in use
 * yet, and marks it used. */
static int unique_name(struct qti *st, struct qb_buf *out, const char *dir, const char *base,
		       size_t base_len, const char *ext)
{
	size_t start = out->len;
	unsigned long k;
	int rc;

	for (k = 1;; k++) {
		out->len = start;
		if (qb_buf_adds(out, dir) || qb_buf_add(out, base, base_len))
			return QB_ENOMEM;
		if (k > 1 && qb_buf_printf(out, "-%lu", k))
			return QB_ENOMEM;
		if (qb_buf_adds(out, ext))
			return QB_ENOMEM;
		rc = qti_names_take(&st->names, out->ptr + start);
		if (rc <= 0)
			return rc;
	}
}

/* The longest prefix of S of at most MAX bytes that ends on a character
 * boundary. */
static size_t utf8_prefix(const char *s, size_t max)
{
	size_t n = strlen(s);

	if (n <= max)
		return n;
	while (max > 0 && ((unsigned char)s[max] & 0xC0) == 0x80)
		max--;
	return max;
}

static int item_name(struct qti *st, struct qb_buf *out, const char *id)
{
	size_t n = utf8_prefix(id, MAX_NAME_ID);
	struct qb_buf base = QB_BUF_INIT;
	int rc;

	if (n == strlen(id) && qti_name_is_safe(id, n))
		return unique_name(st, out, ITEM_DIR, id, n, ".xml");
	rc = qti_name_add_safe(&base, id, n, 0) ||
	     qb_buf_printf(&base, "-%016llx", (unsigned long long)qti_hash_str(id)) ? QB_ENOMEM : 0;
	if (!rc)
		rc = unique_name(st, out, ITEM_DIR, base.ptr, base.len, ".xml");
	qb_buf_dispose(&base);
	return rc;
}

/* Identifiers the package makes up (sections, test part, resources) must
 * not be one of the question ids, which share their scope. */
static int gen_id(struct qti *st, const char *base, size_t *off)
{
	struct qb_buf b = QB_BUF_INIT;
	unsigned long k;
	int rc = 0;

	for (k = 1; !rc; k++) {
		qb_buf_clear(&b);
		rc = k > 1 ? qb_buf_printf(&b, "%s-%lu", base, k) : qb_buf_adds(&b, base);
		if (!rc && !id_in_use(st, b.ptr))
			break;
	}
	if (!rc)
		rc = arena_add(st, b.ptr, b.len, off);
	qb_buf_dispose(&b);
	return rc;
}

/* ---- images ------------------------------------------------------------- */

static size_t find_media(const struct qti *st, const char *real)
{
	struct qti_keyed k = QTI_KEYED(&st->arena, st->media, struct media, real);

	return qb_map_find(&st->medmap, qti_hash_str(real), &qti_keyed_ops, &k, real);
}

/* Packs image SRC of the current question, whose file resolves to REAL,
 * under items/media/NORM (made unique). */
static int add_media(struct qti *st, const char *src, const char *real, const char *norm,
		     uint32_t *idx)
{
	struct qb_buf name = QB_BUF_INIT, bytes = QB_BUF_INIT, safe = QB_BUF_INIT;
	const char *slash = strrchr(norm, '/'), *dot = strrchr(norm, '.');
	size_t base_len = strlen(norm);
	struct qb_error e = { 0, "" };
	struct media *m;
	int rc;

	if (dot && dot > (slash ? slash + 1 : norm))
		base_len = (size_t)(dot - norm);
	else
		dot = "";
	rc = qb_img_read(&bytes, st->q->file, src, &e);
	if (rc == QB_EREFUSED) {
		qti_problem(&st->s, st->q, "img src '%s': %s", src, e.msg);
		qb_buf_dispose(&bytes);
		return rc;
	}
	if (!rc)
		rc = QB_ARRAY_RESERVE(st->media, st->capmedia, st->nmedia + 1);
	if (!rc)
		rc = qti_name_add_safe(&safe, norm, base_len, 1) ? QB_ENOMEM : 0;
	base_len = safe.len;
	if (!rc)
		rc = qti_name_add_safe(&safe, dot, strlen(dot), 0) ? QB_ENOMEM : 0;
	if (!rc)
		rc = unique_name(st, &name, MEDIA_DIR, safe.ptr, base_len, safe.ptr + base_len);
	if (!rc) {
		m = &st->media[st->nmedia];
		memset(m, 0, sizeof(*m));
		rc = arena_add(st, real, strlen(real), &m->real);
		if (!rc)
			rc = arena_add(st, name.ptr, name.len, &m->entry);
	}
	if (!rc)
		rc = qti_zip_add(st->zip, name.ptr, bytes.ptr ? bytes.ptr : "", bytes.len, &e);
	if (!rc) {
		struct qti_keyed k = QTI_KEYED(&st->arena, st->media, struct media, real);

		rc = qb_map_insert(&st->medmap, qti_hash_str(real), st->nmedia, &qti_keyed_ops, &k);
	}
	qb_buf_dispose(&name);
	qb_buf_dispose(&bytes);
	qb_buf_dispose(&safe);
	if (rc) {
		qti_fail(&st->s, rc, &e);
		return rc;
	}
	*idx = (uint32_t)st->nmedia++;
	return 0;
}

static int add_ref(struct qti *st, uint32_t idx)
{
	size_t i;

	for (i = 0; i < st->nrefs; i++)
		if (st->refs[i] == idx)
			return 0;
	if (QB_ARRAY_RESERVE(st->refs, st->caprefs, st->nrefs + 1))
		return QB_ENOMEM;
	st->refs[st->nrefs++] = idx;
	return 0;
}

/* qb_rich_opts.img_src: judges SRC as the lint does (imgpath.h), packs
 * the image the first time any question shows it, and returns its URL
 * relative to the item file. Two srcs that resolve to the same file share
 * one entry. */
static const char *img_src(void *ctx, const char *src)
{
	struct qti *st = ctx;
	struct qb_buf norm = QB_BUF_INIT;
	const char *result = "";
	char *real = NULL;
	uint32_t idx;
	size_t found;

	qb_buf_clear(&st->src);
	if (st->s.failed || !st->q)
		goto done;
	if (qti_media_resolve(&st->s, st->q, src, &real, &norm))
		goto done;
	found = find_media(st, real);
	if (found != QB_MAP_NONE)
		idx = (uint32_t)found;
	else if (add_media(st, src, real, norm.ptr, &idx))
		goto done;
	if (add_ref(st, idx) || qb_buf_adds(&st->src, "media/") ||
	    qti_buf_add_uri(&st->src, str(st, st->media[idx].entry) + strlen(MEDIA_DIR))) {
		qti_fail(&st->s, QB_ENOMEM, NULL);
		goto done;
	}
	result = st->src.ptr;
done:
	free(real);
	qb_buf_dispose(&norm);
	return result;
}

/* ---- math ---------------------------------------------------------------- */

/* Converts the math of bank file FILE to MathML before its questions come
 * (mathml.h: one pandoc run for the file). A formula pandoc cannot convert
 * refuses the export at commit, as other refusals do; pandoc missing fails
 * it at once: math never reaches the package as raw TeX. */
static void math_load(struct qti *st, const char *file)
{
	struct qb_error e = { 0, "" };
	int rc = qb_mathml_load_file(st->math, file, &e);

	if (rc == QB_EREFUSED)
		qti_problem(&st->s, st->q, "%s", e.msg);
	else if (rc)
		qti_fail(&st->s, rc, &e);
}

/* ---- sections ----------------------------------------------------------- */

static size_t find_section(const struct qti *st, const char *key)
{
	struct qti_keyed k = QTI_KEYED(&st->arena, st->sections, struct section, key);

	return qb_map_find(&st->secmap, qti_hash_str(key), &qti_keyed_ops, &k, key);
}

static int add_section(struct qti *st, const char *key, size_t key_len, const char *title,
		       uint32_t *idx)
{
	struct section *s;
	struct qti_keyed k;

	if (QB_ARRAY_RESERVE(st->sections, st->capsections, st->nsections + 1))
		return QB_ENOMEM;
	s = &st->sections[st->nsections];
	memset(s, 0, sizeof(*s));
	s->first_run = s->last_run = NO_RUN;
	k = (struct qti_keyed)QTI_KEYED(&st->arena, st->sections, struct section, key);
	if (arena_add(st, key, key_len, &s->key) || arena_add(st, title, strlen(title), &s->title) ||
	    qb_map_insert(&st->secmap, qti_hash_str(str(st, s->key)), st->nsections, &qti_keyed_ops, &k))
		return QB_ENOMEM;
	*idx = (uint32_t)st->nsections++;
	return 0;
}

/* One section per category path (the names joined by U+001F, which XML
 * text cannot hold, so paths never clash); questions outside every
 * category go to a section of their bank file, titled with the bank. */
static int section_for(struct qti *st, const struct qb_question *q, uint32_t *idx)
{
	struct qb_buf key = QB_BUF_INIT, title = QB_BUF_INIT;
	size_t i;
	int rc = 0;

	if (st->have_last && st->last_serial == q->category_serial && st->last_file == q->file_index) {
		*idx = st->last_section;
		return 0;
	}
	if (q->ncategories == 0) {
		rc = qb_buf_printf(&key, "\x1e%zu", q->file_index);
		if (!rc)
			rc = qb_buf_adds(&title, st->bank_title ? st->bank_title : "Questions");
	}
	for (i = 0; i < q->ncategories && !rc; i++) {
		if (i)
			rc = qb_buf_addc(&key, '\x1f') || qb_buf_adds(&title, " / ");
		if (!rc)
			rc = qb_buf_adds(&key, q->categories[i]) ||
			     qti_buf_add_collapsed(&title, q->categories[i]);
	}
	if (!rc) {
		size_t found = find_section(st, key.ptr);

		if (found != QB_MAP_NONE)
			*idx = (uint32_t)found;
		else
			rc = add_section(st, key.ptr, key.len, title.ptr ? title.ptr : "", idx);
	}
	if (!rc) {
		st->have_last = 1;
		st->last_serial = q->category_serial;
		st->last_file = q->file_index;
		st->last_section = *idx;
	}
	qb_buf_dispose(&key);
	qb_buf_dispose(&title);
	return rc ? QB_ENOMEM : 0;
}

/* ---- the spool ----------------------------------------------------------- */

/* Appends the record of Q's item, entry NAME, to the spool and to the runs
 * of its section SEC. */
static int spool_item(struct qti *st, const struct qb_question *q, const struct qb_buf *name,
		      uint32_t sec, struct qb_error *e)
{
	struct section *s = &st->sections[sec];
	struct spooled h;
	size_t idlen = strlen(q->id);
	int own = name->len != strlen(ITEM_DIR) + idlen + 4 ||
		  strncmp(name->ptr + strlen(ITEM_DIR), q->id, idlen) != 0;

	if (idlen > UINT32_MAX || name->len > UINT32_MAX)
		return QB_ENOMEM;
	memset(&h, 0, sizeof(h));
	h.points = q->points_value > 0 ? q->points_value : 1.0;
	h.idlen = (uint32_t)idlen;
	h.filelen = own ? (uint32_t)name->len : 0;
	h.nmedia = (uint32_t)st->nrefs;
	/* the previous record is the last run's: go on with it when it is this
	 * section's */
	if (s->last_run == NO_RUN || s->last_run != st->nruns - 1 || st->runs[s->last_run].n == UINT32_MAX) {
		struct run *r;

		if (st->nruns >= NO_RUN || QB_ARRAY_RESERVE(st->runs, st->capruns, st->nruns + 1))
			return QB_ENOMEM;
		r = &st->runs[st->nruns];
		r->off = st->spooled;
		r->n = 0;
		r->next = NO_RUN;
		if (s->first_run == NO_RUN)
			s->first_run = (uint32_t)st->nruns;
		else
			st->runs[s->last_run].next = (uint32_t)st->nruns;
		s->last_run = (uint32_t)st->nruns++;
	}
	if (fwrite(&h, sizeof(h), 1, st->spool.f) != 1 ||
	    (h.nmedia && fwrite(st->refs, sizeof(*st->refs), h.nmedia, st->spool.f) != h.nmedia) ||
	    fwrite(q->id, 1, idlen, st->spool.f) != idlen ||
	    (h.filelen && fwrite(name->ptr, 1, h.filelen, st->spool.f) != h.filelen)) {
		qb_error_set(e, QB_EIO, "%s: cannot write a temporary file: %s", st->fl->name,
			     strerror(errno));
		return QB_EIO;
	}
	st->runs[s->last_run].n++;
	st->spooled += sizeof(h) + (uint64_t)h.nmedia * sizeof(*st->refs) + h.idlen + h.filelen;
	return 0;
}

static int spool_seek(const struct qti *st, uint64_t off)
{
	return fseeko(st->spool.f, (off_t)off, SEEK_SET) ? QB_EIO : 0;
}

/* Reads the next record of the spool into R. */
static int spool_read(const struct qti *st, struct rec_in *r)
{
	size_t m, n;

	if (fread(&r->h, sizeof(r->h), 1, st->spool.f) != 1)
		return QB_EIO;
	m = (size_t)r->h.nmedia * sizeof(uint32_t);
	n = m + r->h.idlen + 1 + (size_t)r->h.filelen + 1;
	if (QB_ARRAY_RESERVE(r->buf, r->cap, n))
		return QB_ENOMEM;
	if (fread(r->buf, 1, m + r->h.idlen, st->spool.f) != m + r->h.idlen ||
	    fread(r->buf + m + r->h.idlen + 1, 1, r->h.filelen, st->spool.f) != r->h.filelen)
		return QB_EIO;
	r->buf[m + r->h.idlen] = '\0';
	r->buf[n - 1] = '\0';
	r->media = (const uint32_t *)(void *)r->buf;
	r->id = r->buf + m;
	r->file = r->h.filelen ? r->buf + m + r->h.idlen + 1 : NULL;
	return 0;
}

/* ---- the exporter's entry points ---------------------------------------- */

static void state_free(struct qti *st)
{
	if (!st)
		return;
	qti_zip_free(st->zip);          /* before the file it writes to goes */
	qb_atomic_abort(st->out);
	if (st->xbuf)
		xmlBufferFree(st->xbuf);
	qb_rich_html_free(st->render);
	qb_buf_dispose(&st->html);
	qb_spool_close(&st->spool);
	qb_buf_dispose(&st->arena);
	qb_buf_dispose(&st->src);
	free(st->runs);
	free(st->sections);
	free(st->media);
	free(st->refs);
	qti_hashes_dispose(&st->names);
	qti_hashes_dispose(&st->ids);
	qb_map_dispose(&st->secmap);
	qb_map_dispose(&st->medmap);
	free(st->bank_title);
	free(st->lang);
	qb_mathml_free(st->math);
	free(st);
}

static int open_package(void **state, const struct flavour *fl, const struct qb_export_opts *o,
			struct qb_error *err)
{
	struct qti *st = calloc(1, sizeof(*st));
	int rc;

	*state = NULL;
	if (!st)
		return QB_ENOMEM;
	st->fl = fl;
	st->s.target = fl->name;
	rc = qb_atomic_open(&st->out, o->output, err);
	if (!rc)
		rc = qti_zip_open(&st->zip, qb_atomic_file(st->out), qb_atomic_path(st->out),
				  o->one_thread, err);
	if (!rc && !(st->xbuf = xmlBufferCreate()))
		rc = QB_ENOMEM;
	if (!rc)
		rc = qb_rich_html_new(&st->render, 1);
	if (!rc && (rc = qb_spool_open(&st->spool)) == QB_EIO)
		qb_error_set(err, QB_EIO, "%s: cannot create a temporary file: %s", fl->name,
			     strerror(errno));
	if (!rc)
		rc = qb_mathml_new(&st->math, getenv("QBANK_PANDOC"));
	/* the fixed names are taken before any item can want them */
	if (!rc)
		rc = qti_names_take(&st->names, TEST_FILE);
	if (!rc)
		rc = qti_names_take(&st->names, MANIFEST_FILE);
	if (rc) {
		state_free(st);
		return rc;
	}
	*state = st;
	return 0;
}

int qb_qti_open(void **state, const struct qb_export_opts *o, struct qb_error *err)
{
	return open_package(state, &qti21, o, err);
}

int qb_qti30_open(void **state, const struct qb_export_opts *o, struct qb_error *err)
{
	return open_package(state, &qti30, o, err);
}

int qb_qti_bank(void *state, const struct qb_bank_info *b, struct qb_error *err)
{
	struct qti *st = state;
	struct qb_buf title = QB_BUF_INIT;
	int rc = 0;

	if (st->s.failed)
		return qti_failed(&st->s, err);
	free(st->bank_title);
	free(st->lang);
	st->bank_title = st->lang = NULL;
	if (b->title)
		rc = qti_buf_add_collapsed(&title, b->title);
	if (!rc && title.len == 0)
		rc = qb_buf_adds(&title, b->id ? b->id : "Questions");
	if (!rc)
		st->bank_title = qb_buf_detach(&title);
	if (!rc && qti_is_language(b->lang) && !(st->lang = strdup(b->lang)))
		rc = QB_ENOMEM;
	if (!rc && !st->have_test) {
		const char *id = qti_is_ncname(b->id) ? b->id : "test";

		st->have_test = 1;
		/* qti_is_ncname(NULL) is 0, so id is never NULL (the analyzer cannot see qti_util.c) */
		/* NOLINTNEXTLINE(clang-analyzer-core.NonNullParamChecker) */
		rc = arena_add(st, id, strlen(id), &st->test_id) ||
		     arena_add(st, st->bank_title, strlen(st->bank_title), &st->test_title) ? QB_ENOMEM : 0;
	}
	qb_buf_dispose(&title);
	if (rc)
		qti_fail(&st->s, rc, NULL);
	else
		math_load(st, b->file);
	return qti_failed(&st->s, err);
}

int qb_qti_question(void *state, const struct qb_question *q, struct qb_error *err)
{
	struct qti *st = state;
	struct qti_item_opts io = { st->lang, { QB_MATH_MATHML, img_src, st, NULL, 0, qti_math_write, st->math },
				    st->fl->v3, st->render, &st->html };
	struct qb_buf name = QB_BUF_INIT;
	struct qb_error e = { 0, "" };
	size_t nproblems = st->s.nproblems;
	uint32_t sec;
	int rc;

	if (st->s.failed || !q->id)
		return qti_failed(&st->s, err);
	st->q = q;
	rc = section_for(st, q, &sec);
	if (rc) {
		qti_fail(&st->s, rc, NULL);
		goto done;
	}
	st->nrefs = 0;
	xmlBufferEmpty(st->xbuf);
	rc = qti_item_write(st->xbuf, q, &io, &e);
	if (rc == QB_EREFUSED) {
		st->q = NULL;  /* the message already names the question */
		/* no message: a formula whose refusal math_load recorded */
		if (e.msg[0] || !st->s.nproblems)
			qti_problem(&st->s, st->q, "%s", e.msg[0] ? e.msg : "refused");
		goto done;
	}
	if (rc) {
		qti_fail(&st->s, rc, &e);
		goto done;
	}
	if (st->s.failed || st->s.nproblems > nproblems)
		goto done;
	rc = item_name(st, &name, q->id);
	if (!rc)
		rc = qti_hashes_take(&st->ids, qti_hash_str(q->id)) < 0 ? QB_ENOMEM : 0;
	if (!rc)
		rc = spool_item(st, q, &name, sec, &e);
	if (!rc)
		rc = qti_zip_add(st->zip, name.ptr, xmlBufferContent(st->xbuf),
				 (size_t)xmlBufferLength(st->xbuf), &e);
	if (rc)
		qti_fail(&st->s, rc, e.msg[0] ? &e : NULL);
	if (!rc) {
		st->sections[sec].nitems++;
		st->nitems++;
	}
done:
	st->q = NULL;
	qb_buf_dispose(&name);
	return qti_failed(&st->s, err);
}

/* ---- the test and the manifest ------------------------------------------ */

/* The href of R's item file, or NULL when out of memory. */
static const char *item_file(const struct rec_in *r, struct qb_buf *b)
{
	int rc;

	qb_buf_clear(b);
	if (r->file) {
		rc = qti_buf_add_uri(b, r->file);
	} else {
		rc = qb_buf_adds(b, ITEM_DIR);
		if (!rc)
			rc = qti_buf_add_uri(b, r->id);
		if (!rc)
			rc = qb_buf_adds(b, ".xml");
	}
	return rc ? NULL : b->ptr;
}

struct doc_ctx {
	struct qti *st;
};

static void declare_outcome(struct qb_xw *x, const char *id)
{
	qb_xw_start(x, "outcomeDeclaration");
	qb_xw_attr(x, "identifier", id);
	qb_xw_attr(x, "cardinality", "single");
	qb_xw_attr(x, "baseType", "float");
	qb_xw_end(x);
}

static void sum_outcome(struct qb_xw *x, const char *id)
{
	qb_xw_start(x, "setOutcomeValue");
	qb_xw_attr(x, "identifier", id);
	qb_xw_start(x, "sum");
	qb_xw_start(x, "testVariables");
	qb_xw_attr(x, "variableIdentifier", id);
	qb_xw_end(x);
	qb_xw_end(x);
	qb_xw_end(x);
}

static void start_doc(struct qb_xw *x, xmlTextWriterPtr w, const struct flavour *fl,
		      const char *name, const char *ns, const char *loc)
{
	qb_xw_begin(x, w);
	if (fl->v3)
		x->rename = qti_v3_rename;
	qb_xw_start(x, name);
	qb_xw_attr(x, "xmlns", ns);
	qb_xw_attr(x, "xmlns:xsi", QTI_XSI_NS);
	qb_xw_attr(x, "xsi:schemaLocation", loc);
}

static int end_doc(struct qb_xw *x, struct qb_buf *b, struct rec_in *r)
{
	qb_buf_dispose(b);
	free(r->buf);
	return qb_xw_finish(x);
}

/* The test's reference to the spool's next item (R, B: scratch). */
static void item_ref(struct qb_xw *x, const struct qti *st, struct rec_in *r, struct qb_buf *b)
{
	const char *href = NULL;
	char pts[40];

	x->rc = spool_read(st, r);
	if (!x->rc && !(href = item_file(r, b)))
		x->rc = QB_ENOMEM;
	if (x->rc)
		return;
	qti_fmt_double(pts, r->h.points);
	qb_xw_start(x, "assessmentItemRef");
	qb_xw_attr(x, "identifier", r->id);
	qb_xw_attr(x, "href", href);
	if (st->fl->for_canvas) {  /* Canvas's only source of points */
		qb_xw_start(x, "weight");
		qb_xw_attr(x, "identifier", "W");
		qb_xw_attr(x, "value", pts);
		qb_xw_end(x);
	}
	qb_xw_end(x);
}

static int gen_test(xmlTextWriterPtr w, void *ctx)
{
	const struct doc_ctx *d = ctx;
	const struct qti *st = d->st;
	struct qb_buf b = QB_BUF_INIT;
	struct rec_in r = { .buf = NULL };
	struct qb_xw x;
	size_t s, i;
	uint32_t run;

	start_doc(&x, w, st->fl, "assessmentTest", st->fl->ns, st->fl->schema_location);
	qb_xw_attr(&x, "identifier", str(st, st->test_id));
	qb_xw_attr(&x, "title", str(st, st->test_title));
	declare_outcome(&x, "SCORE");
	declare_outcome(&x, "MAXSCORE");
	qb_xw_start(&x, "testPart");
	qb_xw_attr(&x, "identifier", str(st, st->part_id));
	qb_xw_attr(&x, "navigationMode", "nonlinear");
	qb_xw_attr(&x, "submissionMode", "individual");
	for (s = 0; s < st->nsections && !x.rc; s++) {
		qb_xw_start(&x, "assessmentSection");
		qb_xw_attr(&x, "identifier", str(st, st->sections[s].gen_id));
		qb_xw_attr(&x, "title", str(st, st->sections[s].title));
		/* Canvas makes a visible, titled section an extra text-only question */
		qb_xw_attr(&x, "visible", st->fl->for_canvas ? "false" : "true");
		/* the section's items, bank order: its runs of the spool */
		for (run = st->sections[s].first_run; run != NO_RUN && !x.rc; run = st->runs[run].next) {
			x.rc = spool_seek(st, st->runs[run].off);
			for (i = 0; i < st->runs[run].n && !x.rc; i++)
				item_ref(&x, st, &r, &b);
		}
		qb_xw_end(&x);
	}
	qb_xw_end(&x);
	qb_xw_start(&x, "outcomeProcessing");
	sum_outcome(&x, "SCORE");
	sum_outcome(&x, "MAXSCORE");
	qb_xw_end(&x);
	return end_doc(&x, &b, &r);
}

static void resource(struct qb_xw *x, const char *id, const char *type, const char *href)
{
	qb_xw_start(x, "resource");
	qb_xw_attr(x, "identifier", id);
	qb_xw_attr(x, "type", type);
	qb_xw_attr(x, "href", href);
	qb_xw_start(x, "file");
	qb_xw_attr(x, "href", href);
	qb_xw_end(x);
}

static void dependency(struct qb_xw *x, const char *id)
{
	qb_xw_start(x, "dependency");
	qb_xw_attr(x, "identifierref", id);
	qb_xw_end(x);
}

static int gen_manifest(xmlTextWriterPtr w, void *ctx)
{
	const struct doc_ctx *d = ctx;
	const struct qti *st = d->st;
	struct qb_buf b = QB_BUF_INIT, m = QB_BUF_INIT;
	struct rec_in r = { .buf = NULL };
	struct qb_xw x;
	size_t i, j;

	start_doc(&x, w, st->fl, "manifest", st->fl->cp_ns, st->fl->cp_schema_location);
	qb_xw_attr(&x, "identifier", str(st, st->manifest_id));
	qb_xw_start(&x, "metadata");
	qb_xw_elem(&x, "schema", st->fl->schema);
	qb_xw_elem(&x, "schemaversion", st->fl->schemaversion);
	qb_xw_end(&x);
	qb_xw_start(&x, "organizations");
	qb_xw_end(&x);
	qb_xw_start(&x, "resources");

	/* the spool, read twice in bank order: the test's dependencies, then
	 * the items' resources */
	resource(&x, str(st, st->test_res_id), st->fl->test_type, TEST_FILE);
	if (!x.rc)
		x.rc = spool_seek(st, 0);
	for (i = 0; i < st->nitems && !x.rc; i++) {
		x.rc = spool_read(st, &r);
		if (!x.rc)
			dependency(&x, r.id);
	}
	qb_xw_end(&x);

	if (!x.rc)
		x.rc = spool_seek(st, 0);
	for (i = 0; i < st->nitems && !x.rc; i++) {
		const char *href = NULL;

		x.rc = spool_read(st, &r);
		if (!x.rc && !(href = item_file(&r, &b)))
			x.rc = QB_ENOMEM;
		if (x.rc)
			break;
		resource(&x, r.id, st->fl->item_type, href);
		for (j = 0; j < r.h.nmedia; j++) {
			qb_buf_clear(&m);
			if (qti_buf_add_uri(&m, str(st, st->media[r.media[j]].entry)))
				x.rc = QB_ENOMEM;
			qb_xw_start(&x, "file");
			qb_xw_attr(&x, "href", m.ptr);
			qb_xw_end(&x);
		}
		for (j = 0; j < r.h.nmedia && !st->fl->for_canvas; j++)
			dependency(&x, str(st, st->media[r.media[j]].gen_id));
		qb_xw_end(&x);
	}
	/* Canvas skips as an attachment every file that is also a resource */
	for (i = 0; i < st->nmedia && !x.rc && !st->fl->for_canvas; i++) {
		qb_buf_clear(&m);
		if (qti_buf_add_uri(&m, str(st, st->media[i].entry)))
			x.rc = QB_ENOMEM;
		resource(&x, str(st, st->media[i].gen_id), "webcontent", m.ptr);
		qb_xw_end(&x);
	}
	qb_xw_end(&x);
	qb_buf_dispose(&m);
	return end_doc(&x, &b, &r);
}

static int assign_ids(struct qti *st)
{
	char base[48];
	size_t i;
	int rc;

	rc = gen_id(st, "part-1", &st->part_id);
	if (!rc)
		rc = gen_id(st, "test", &st->test_res_id);
	if (!rc)
		rc = gen_id(st, "manifest", &st->manifest_id);
	for (i = 0; i < st->nsections && !rc; i++) {
		snprintf(base, sizeof(base), "section-%zu", i + 1);
		rc = gen_id(st, base, &st->sections[i].gen_id);
	}
	for (i = 0; i < st->nmedia && !rc && !st->fl->for_canvas; i++) {
		snprintf(base, sizeof(base), "media-%zu", i + 1);
		rc = gen_id(st, base, &st->media[i].gen_id);
	}
	return rc;
}

int qb_qti_commit(void *state, struct qb_error *err)
{
	struct qti *st = state;
	struct doc_ctx d = { st };
	uint32_t sec;
	int rc = 0;

	if (st->s.failed) {
		*err = st->s.failure;
		rc = st->s.failed;
		goto done;
	}
	if (st->s.nproblems) {
		*err = st->s.problem;
		if (st->s.nproblems > 1) {
			size_t n = strlen(err->msg);

			snprintf(err->msg + n, sizeof(err->msg) - n, " (and %zu more problem%s)",
				 st->s.nproblems - 1, st->s.nproblems == 2 ? "" : "s");
		}
		rc = QB_EREFUSED;
		goto done;
	}
	/* a testPart needs a section even when the bank has no question */
	if (st->nsections == 0)
		rc = add_section(st, "", 0, st->have_test ? str(st, st->test_title) : "Questions", &sec);
	if (!st->have_test && !rc) {
		st->have_test = 1;
		rc = arena_add(st, "test", 4, &st->test_id) || arena_add(st, "Questions", 9, &st->test_title)
			     ? QB_ENOMEM : 0;
	}
	if (!rc)
		rc = assign_ids(st);
	if (!rc && fflush(st->spool.f))
		rc = QB_EIO;
	if (rc) {
		qb_error_set(err, rc, "%s: %s", st->fl->name, qb_error_str(rc));
		goto done;
	}
	rc = qti_zip_add_xml(st->zip, TEST_FILE, gen_test, &d, err);
	if (!rc)
		rc = qti_zip_add_xml(st->zip, MANIFEST_FILE, gen_manifest, &d, err);
	if (!rc)
		rc = qti_zip_close(st->zip, err);
	if (!rc) {
		qti_zip_free(st->zip);
		st->zip = NULL;
		rc = qb_atomic_commit(st->out, err);
		st->out = NULL;
	}
done:
	state_free(st);
	return rc;
}

void qb_qti_abort(void *state)
{
	state_free(state);
}
