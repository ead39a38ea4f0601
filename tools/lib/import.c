#include "import.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libxml/tree.h>
#include <libxml/xmlstring.h>
#include <libxml/xmlwriter.h>

#include "atomic.h"
#include "core/arena.h"
#include "core/array.h"
#include "core/buf.h"
#include "core/map.h"
#include "importers/importers.h"
#include "limits.h"
#include "rules.h"
#include "tempfile.h"
#include "text.h"
#include "xmlw.h"

/* A source file is read whole; larger ones are refused (an import of
 * 100,000 questions is far below this). */
#define IMPORT_MAX_FILE_BYTES (1024L * 1024 * 1024)
/* Ids made from names are cut to this many characters (before a "-N"
 * that keeps them unique). */
#define IMPORT_ID_CHARS 48
/* Media file names are cut to this many bytes (before a "-N" and the
 * extension). */
#define IMPORT_MEDIA_NAME 64

/* A file written to the media folder: what makes a second copy of the same
 * image (same name, same bytes) the same file. */
struct mfile {
	uint64_t name_hash, data_hash;
	size_t len;
	const char *src;
};

/* A category of the bank being built: nodes in order of first use. */
struct cat {
	const char *name;
	size_t parent;          /* SIZE_MAX for the bank itself */
	size_t first, last;     /* its questions (chain), SIZE_MAX: none */
	size_t born;            /* how many questions came before it: its place among them */
	const char *description;   /* rich text, or NULL */
	size_t child, last_child;  /* its first and last subcategory, SIZE_MAX: none */
	size_t sibling;            /* the next subcategory of its parent, SIZE_MAX: none */
};

/* A category's key in the index: its parent and its name. */
struct cat_key {
	size_t parent;
	const char *name;
	size_t len;
};

/* A question written to the spool: where its XML is, and its digest.
 * 24 bytes (fixed-width fields, the id kept apart) and its id in
 * import.idtext: with the ids index, about 40 bytes a question, so that a
 * million questions import in bounded memory (issue 23). */
struct kept {
	uint64_t off;           /* its XML in the spool */
	uint32_t id;            /* offset of its id in import.idtext */
	uint32_t cat;           /* KEPT_NONE: at the top of the bank */
	uint32_t len;
	uint32_t next;          /* the next question of its category, KEPT_NONE: none */
};
_Static_assert(sizeof(struct kept) == 24, "a kept question is most of an import's memory");

#define KEPT_NONE UINT32_MAX

/* Newlines inside texts are this byte in the spool, so that every newline
 * there is one of the writer's own, which the bank's writer indents (no
 * text holds it: control characters are dropped on the way in). */
#define SPOOL_NL '\x02'


struct import {
	struct qb_arena arena;  /* what lives until the end: ids, categories, media */
	struct qb_arena qarena; /* the question being written, reset per question */
	/* The spool: each question's XML as it comes, copied into the bank in
	 * category order at the end, so that memory holds a digest per
	 * question (struct kept), never the questions. */
	struct qb_tempfile *spool_t;
	struct qb_spool spool;
	uint64_t spool_len;
	uint64_t spool_at;      /* where the spool's next read starts, UINT64_MAX: unknown */
	xmlBufferPtr qbuf;
	xmlTextWriterPtr qw;
	struct qb_buf copy;     /* a question read back from the spool */
	size_t top_first, top_last;   /* the questions outside any category */
	const char *out;        /* the bank file, or NULL */
	struct kept *v;         /* big (core/array.h), like idtext and ids */
	size_t n, cap;
	struct qb_buf idtext;   /* the questions' ids, each with its NUL */
	struct cat *cats;
	size_t ncats, capcats;
	struct qb_map catmap;   /* over cats[], by parent and name */
	size_t top_child, top_last_child;   /* the top categories, in order of first use */
	struct qb_map ids;      /* over v[].id */
	struct qb_diags *diags;
	const char *path;       /* the file being read */
	char bank_id[IMPORT_ID_CHARS + 1];
	/* the media folder: made on the first file, renamed into place at the end */
	char *media_dir;        /* where it goes, or NULL: images are not kept */
	char *media_src;        /* the folder as an img src in the bank ("bank-media") */
	char *media_tmp;        /* the temporary folder written into */
	struct qb_tempfile *media_t;
	int media_fd;
	struct mfile *mf;
	size_t nmf, capmf;
	char media_err[256];
};

static const char *const kind_names[] = {
	[QB_IMP_SINGLE] = "single", [QB_IMP_MULTIPLE] = "multiple",
	[QB_IMP_TRUEFALSE] = "truefalse", [QB_IMP_SHORT] = "short",
	[QB_IMP_NUMERIC] = "numeric", [QB_IMP_ESSAY] = "essay",
	[QB_IMP_MATCHING] = "matching",
};

int qb_import_known(const char *name)
{
	return qb_importer_find(name) != NULL;
}

const char *qb_import_names(void)
{
	static char names[128];
	size_t i, at = 0;

	if (names[0])
		return names;
	for (i = 0; i < qb_nimporters && at < sizeof(names); i++)
		at += (size_t)snprintf(names + at, sizeof(names) - at, "%s%s", i ? ", " : "",
				       qb_importers[i].name);
	return names;
}

/* ---- ids: valid NCNames, unique, stable from run to run ------------------ */

/* The id of question K; valid until the next id is added (idtext may move). */
static const char *kept_id(const struct import *im, const struct kept *k)
{
	return im->idtext.ptr + k->id;
}

/* A chain link or category of the fixed-width fields, as an index. */
static size_t kept_index(uint32_t v)
{
	return v == KEPT_NONE ? SIZE_MAX : v;
}

static uint64_t id_hash(void *ctx, size_t rec)
{
	const struct import *im = ctx;
	const char *id = kept_id(im, &im->v[rec]);

	return qb_hash(id, strlen(id));
}

static int id_same(void *ctx, size_t rec, const void *key)
{
	const struct import *im = ctx;

	return strcmp(kept_id(im, &im->v[rec]), key) == 0;
}

static const struct qb_map_ops id_ops = { id_hash, id_same };

static uint64_t cat_key_hash(size_t parent, const char *name, size_t len)
{
	return qb_hash(name, len) ^ ((uint64_t)parent * 0x9e3779b97f4a7c15u);
}

static uint64_t cat_hash(void *ctx, size_t rec)
{
	const struct cat *c = &((const struct import *)ctx)->cats[rec];

	return cat_key_hash(c->parent, c->name, strlen(c->name));
}

static int cat_same(void *ctx, size_t rec, const void *key)
{
	const struct cat *c = &((const struct import *)ctx)->cats[rec];
	const struct cat_key *k = key;

	return c->parent == k->parent && strlen(c->name) == k->len &&
	       memcmp(c->name, k->name, k->len) == 0;
}

static const struct qb_map_ops cat_ops = { cat_hash, cat_same };

static int id_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
}

/* NAME as an id: ASCII letters lowered, digits and - _ . kept, every other
 * run of characters one '-'; a letter or '_' first ("q-" is put before
 * anything else); "q" for nothing. */
static void slug(char *out, size_t cap, const char *name)
{
	size_t n = 0;
	const unsigned char *s = (const unsigned char *)(name ? name : "");

	for (; *s && n + 1 < cap; s++) {
		unsigned char c = *s;

		if (c >= 'A' && c <= 'Z')
			c = (unsigned char)(c - 'A' + 'a');
		if (id_char(c))
			out[n++] = (char)c;
		else if (n && out[n - 1] != '-')
			out[n++] = '-';
	}
	while (n && (out[n - 1] == '-' || out[n - 1] == '.'))
		n--;
	out[n] = '\0';
	if (!n) {
		snprintf(out, cap, "q");
	} else if (!((out[0] >= 'a' && out[0] <= 'z') || out[0] == '_')) {
		/* room was kept: n < cap - 1, and the cut keeps it a valid id */
		if (n + 3 > cap)
			n = cap - 3;
		memmove(out + 2, out, n);
		out[0] = 'q';
		out[1] = '-';
		out[n + 2] = '\0';
	}
}

/* The id of record REC (already in im->v): its idnumber or name as a slug,
 * with "-2", "-3" ... after it while an earlier question has it. */
static int assign_id(struct import *im, size_t rec, const struct qb_imp_question *q)
{
	char base[QB_LIMIT_ID_CHARS * 4 + 1], id[QB_LIMIT_ID_CHARS * 4 + 24];
	unsigned long k;
	int rc;

	/* an idnumber that is already an id (qbank's own exports write the
	 * question's id there) is kept as it is */
	if (q->idnumber && *q->idnumber && strlen(q->idnumber) < sizeof(base) &&
	    xmlUTF8Strlen(BAD_CAST q->idnumber) <= QB_LIMIT_ID_CHARS &&
	    xmlValidateNCName(BAD_CAST q->idnumber, 0) == 0)
		snprintf(base, sizeof(base), "%s", q->idnumber);
	else
		slug(base, IMPORT_ID_CHARS + 1, q->idnumber && *q->idnumber ? q->idnumber : q->name);
	snprintf(id, sizeof(id), "%s", base);
	for (k = 2; qb_map_find(&im->ids, qb_hash(id, strlen(id)), &id_ops, im, id) != QB_MAP_NONE;
	     k++)
		snprintf(id, sizeof(id), "%s-%lu", base, k);
	if (im->idtext.len > UINT32_MAX)
		return QB_ENOMEM;
	im->v[rec].id = (uint32_t)im->idtext.len;
	rc = qb_buf_add(&im->idtext, id, strlen(id) + 1);
	if (rc)
		return rc;
	rc = qb_map_insert(&im->ids, qb_hash(id, strlen(id)), rec, &id_ops, im);
	return rc;
}

/* ---- the sink: questions and diagnostics from the importers -------------- */

/* Windows-1252's 0x80-0x9F (0 where it has no character: read as Latin-1). */
static const unsigned short cp1252[32] = {
	0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160,
	0x2039, 0x0152, 0, 0x017D, 0, 0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013,
	0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
};

/* The length of the valid UTF-8 sequence at S (1 to 4), 0 when invalid. */
static size_t utf8_len(const unsigned char *s)
{
	size_t n, i;
	unsigned long cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xC2 && s[0] <= 0xDF)
		n = 2, cp = s[0] & 0x1Fu;
	else if (s[0] >= 0xE0 && s[0] <= 0xEF)
		n = 3, cp = s[0] & 0x0Fu;
	else if (s[0] >= 0xF0 && s[0] <= 0xF4)
		n = 4, cp = s[0] & 0x07u;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3Fu);
	}
	if ((n == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) ||
	    (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) || cp == 0xFFFE || cp == 0xFFFF)
		return 0;
	return n;
}

/* S as a bank can hold it: bytes that are not UTF-8 read as Windows-1252
 * (as a non-UTF-8 file is most often), control characters XML does not
 * allow dropped; *CHANGED set when either happened. */
static const char *keep_text(struct qb_arena *arena, const char *s, int nl, int *oom,
			     int *changed)
{
	struct qb_buf b = QB_BUF_INIT;
	const unsigned char *p;
	char *d;

	if (!s)
		return NULL;
	for (p = (const unsigned char *)s; *p;) {
		size_t n = 0;
		int rc;

		/* a run of printable ASCII at once */
		while ((p[n] >= 0x20 && p[n] < 0x7F) || p[n] == '\t')
			n++;
		if (n) {
			rc = qb_buf_add(&b, p, n);
			p += n;
		} else if ((n = utf8_len(p)) != 0) {
			if (n == 1 && *p < 0x20 && *p != '\n' && *p != '\r') {
				*changed = 1;
				p++;
				continue;
			}
			rc = n == 1 && *p == '\n' && nl ? qb_buf_addc(&b, SPOOL_NL) : qb_buf_add(&b, p, n);
			p += n;
		} else {
			unsigned cp = *p >= 0x80 && *p <= 0x9F && cp1252[*p - 0x80] ? cp1252[*p - 0x80] : *p;

			*changed = 1;
			rc = cp < 0x800 ? qb_buf_printf(&b, "%c%c", (char)(0xC0 | cp >> 6),
							(char)(0x80 | (cp & 0x3F)))
					: qb_buf_printf(&b, "%c%c%c", (char)(0xE0 | cp >> 12),
							(char)(0x80 | ((cp >> 6) & 0x3F)),
							(char)(0x80 | (cp & 0x3F)));
			p++;
		}
		if (rc) {
			qb_buf_dispose(&b);
			*oom = 1;
			return NULL;
		}
	}
	d = qb_arena_strndup(arena, b.ptr ? b.ptr : "", b.len);
	qb_buf_dispose(&b);
	if (!d)
		*oom = 1;
	return d;
}

/* The node of category PATH ("a/b/c"), created in order of first use. */
static int find_cat(struct import *im, const char *path, size_t *out)
{
	size_t parent = SIZE_MAX, i;
	const char *p = path;

	struct qb_buf name = QB_BUF_INIT;
	int rc = 0;

	/* '//' is a '/' inside a name, as Moodle writes category paths */
	while (!rc && p && *p) {
		const char *name_at = NULL;
		size_t len = 0;

		qb_buf_clear(&name);
		rc = qb_buf_grow(&name, 0);
		for (; !rc && *p && !(p[0] == '/' && p[1] != '/'); p++) {
			rc = qb_buf_addc(&name, *p);
			if (p[0] == '/')
				p++;
		}
		if (*p == '/')
			p++;
		/* Moodle trims each name (split_category_path); an empty one names nothing */
		if (!rc)
			name_at = qb_text_trim(name.ptr, &len);
		if (!rc && len) {
			struct cat_key key = { parent, name_at, len };
			uint64_t h = cat_key_hash(parent, name_at, len);

			i = qb_map_find(&im->catmap, h, &cat_ops, im, &key);
			if (i == QB_MAP_NONE) {
				struct cat c = { qb_arena_strndup(&im->arena, name_at, len), parent,
						 SIZE_MAX, SIZE_MAX, im->n, NULL,
						 SIZE_MAX, SIZE_MAX, SIZE_MAX };

				i = im->ncats;
				if (!c.name || QB_ARRAY_PUSH(im->cats, im->ncats, im->capcats, c) ||
				    qb_map_insert(&im->catmap, h, i, &cat_ops, im)) {
					rc = QB_ENOMEM;
					break;
				}
				/* appended to its parent's subcategories, in order of first use */
				{
					size_t *first = parent == SIZE_MAX ? &im->top_child : &im->cats[parent].child;
					size_t *last = parent == SIZE_MAX ? &im->top_last_child
									  : &im->cats[parent].last_child;

					if (*first == SIZE_MAX)
						*first = i;
					else
						im->cats[*last].sibling = i;
					*last = i;
				}
			}
			parent = i;
		}
	}
	qb_buf_dispose(&name);
	*out = parent;
	return rc;
}

static void write_question(struct qb_xw *x, const struct qb_imp_question *q, const char *id);

/* The spool, made on the first question: a registered temporary file in
 * $TMPDIR (or /tmp), removed at the end or by a signal. */
static int spool_open(struct import *im)
{
	const char *dir = getenv("TMPDIR");
	char tmpl[4096];
	FILE *f;
	int fd;

	snprintf(tmpl, sizeof(tmpl), "%s/qbank-import-XXXXXX", dir && *dir ? dir : "/tmp");
	if (qb_tempfile_create(&im->spool_t, &fd, tmpl)) {
		snprintf(im->media_err, sizeof(im->media_err), "%.200s: %s", tmpl, strerror(errno));
		return QB_EIO;
	}
	f = fdopen(fd, "w+b");
	if (!f) {
		(void)close(fd);
		return QB_ENOMEM;
	}
	/* questions are a few KB each, written and read back in order */
	if (qb_spool_attach(&im->spool, f))
		return QB_ENOMEM;
	im->spool_at = UINT64_MAX;
	im->qbuf = xmlBufferCreate();
	im->qw = im->qbuf ? xmlNewTextWriterMemory(im->qbuf, 0) : NULL;
	return im->qw ? 0 : QB_ENOMEM;
}

/* Writes question Q (id ID) to the spool: its XML at depth 0. */
static int spool_question(struct import *im, const struct qb_imp_question *q, struct kept *k)
{
	struct qb_xw x;
	const char *s;
	size_t len;
	int rc;

	if (!im->spool.f && (rc = spool_open(im)) != 0)
		return rc;
	qb_xw_init(&x, im->qw);
	x.utf8 = 1;   /* copied into the bank, a UTF-8 document: "°C", not "&#xB0;C" */
	write_question(&x, q, kept_id(im, k));
	if (qb_xw_sync(&x) || xmlTextWriterFlush(im->qw) < 0)
		return QB_ENOMEM;
	s = (const char *)xmlBufferContent(im->qbuf);
	len = (size_t)xmlBufferLength(im->qbuf);
	if (len > UINT32_MAX)
		return QB_ENOMEM;
	k->off = im->spool_len;
	k->len = (uint32_t)len;
	if (fwrite(s, 1, len, im->spool.f) != len) {
		snprintf(im->media_err, sizeof(im->media_err), "the import's temporary file: %s",
			 strerror(errno));
		return QB_EIO;
	}
	im->spool_len += len;
	xmlBufferEmpty(im->qbuf);
	return 0;
}

static int sink_question(void *ctx, const struct qb_imp_question *q)
{
	struct import *im = ctx;
	struct qb_arena *qa = &im->qarena;
	struct qb_imp_question c;
	struct kept k;
	struct qb_imp_choice *ch = NULL;
	const char **ds = NULL;
	size_t i;
	int oom = 0, enc = 0, rc;

	qb_arena_reset(qa);
	memset(&k, 0, sizeof(k));
	c = *q;
	c.name = keep_text(qa, q->name, 0, &oom, &enc);
	c.idnumber = keep_text(qa, q->idnumber, 0, &oom, &enc);
	c.category = NULL;
	c.stem = keep_text(qa, q->stem ? q->stem : "", 1, &oom, &enc);
	c.explanation = keep_text(qa, q->explanation, 1, &oom, &enc);
	c.true_feedback = keep_text(qa, q->true_feedback, 1, &oom, &enc);
	c.false_feedback = keep_text(qa, q->false_feedback, 1, &oom, &enc);
	c.rubric = keep_text(qa, q->rubric, 1, &oom, &enc);
	c.response_format = keep_text(qa, q->response_format, 0, &oom, &enc);
	if (q->ntags) {
		const char **tags = qb_arena_alloc(qa, q->ntags * sizeof(*tags));

		if (!tags)
			return QB_ENOMEM;
		for (i = 0; i < q->ntags; i++)
			tags[i] = keep_text(qa, q->tags[i], 1, &oom, &enc);
		c.tags = tags;
	}
	c.source = keep_text(qa, q->source, 1, &oom, &enc);
	if (q->nchoices) {
		ch = qb_arena_alloc(qa, q->nchoices * sizeof(*ch));
		if (!ch)
			return QB_ENOMEM;
		for (i = 0; i < q->nchoices; i++) {
			ch[i] = q->choices[i];
			ch[i].text = keep_text(qa, q->choices[i].text ? q->choices[i].text : "", 1, &oom,
					       &enc);
			ch[i].match = keep_text(qa, q->choices[i].match, 1, &oom, &enc);
			ch[i].feedback = keep_text(qa, q->choices[i].feedback, 1, &oom, &enc);
			ch[i].unit = keep_text(qa, q->choices[i].unit, 0, &oom, &enc);
		}
	}
	c.choices = ch;
	if (q->ndistractors) {
		ds = qb_arena_alloc(qa, q->ndistractors * sizeof(*ds));
		if (!ds)
			return QB_ENOMEM;
		for (i = 0; i < q->ndistractors; i++)
			ds[i] = keep_text(qa, q->distractors[i], 1, &oom, &enc);
	}
	c.distractors = ds;
	if (oom)
		return QB_ENOMEM;
	k.cat = KEPT_NONE;
	k.next = KEPT_NONE;
	if (q->category) {
		const char *cat = keep_text(qa, q->category, 0, &oom, &enc);
		size_t ci;

		if (oom)
			return QB_ENOMEM;
		if ((rc = find_cat(im, cat, &ci)) != 0)
			return rc;
		if (ci != SIZE_MAX) {
			if (ci >= KEPT_NONE)
				return QB_ENOMEM;
			k.cat = (uint32_t)ci;
		}
	}
	/* question numbers must fit the 32-bit links */
	if (im->n >= KEPT_NONE - 1 || QB_ARRAY_RESERVE_BIG(im->v, im->cap, im->n + 1))
		return QB_ENOMEM;
	im->v[im->n++] = k;
	rc = assign_id(im, im->n - 1, &c);
	if (!rc)
		rc = spool_question(im, &c, &im->v[im->n - 1]);
	if (!rc && enc)
		rc = qb_diags_add(im->diags, im->path, q->line, QB_SEV_WARNING,
				  qb_rules[QB_RULE_IMPORT_ENCODING].id, NULL,
				  "question '%s': bytes that are not UTF-8 read as Windows-1252, "
				  "control characters dropped", kept_id(im, &im->v[im->n - 1]));
	return rc;
}

static int sink_category(void *ctx, const char *path, const char *description)
{
	struct import *im = ctx;
	int oom = 0, enc = 0, rc;
	const char *p = keep_text(&im->arena, path, 0, &oom, &enc);
	const char *d = keep_text(&im->arena, description, 0, &oom, &enc);
	size_t cat;

	if (oom)
		return QB_ENOMEM;
	if (!p || !*p)
		return 0;
	if ((rc = find_cat(im, p, &cat)) != 0)
		return rc;
	if (cat != SIZE_MAX && d && *d)
		im->cats[cat].description = d;
	return 0;
}

static int sink_report(void *ctx, unsigned long line, enum qb_severity sev, enum qb_rule_key rule,
		       const char *question, const char *msg)
{
	struct import *im = ctx;

	return qb_diags_add(im->diags, im->path, line, sev, qb_rules[rule].id, question, "%s", msg);
}

/* ---- the media folder ---------------------------------------------------- */

/* NAME (any bytes, from the source) as a file name that stays in the media
 * folder: its last segment after '/' or '\\', letters, digits, ". _ -" and
 * inner spaces kept and every other byte '_', no leading '.', at most
 * IMPORT_MEDIA_NAME bytes before the extension; "file" for nothing. */
static void media_name(char *out, size_t cap, const char *name)
{
	const char *base = name, *p, *dot;
	size_t n = 0, stem, ext;

	for (p = name; *p; p++)
		if (*p == '/' || *p == '\\')
			base = p + 1;
	dot = strrchr(base, '.');
	ext = dot && dot != base && strlen(dot) <= 10 ? strlen(dot) : 0;
	stem = strlen(base) - ext;
	if (stem > IMPORT_MEDIA_NAME)
		stem = IMPORT_MEDIA_NAME;
	for (p = base; (size_t)(p - base) < stem && n + 1 < cap; p++) {
		unsigned char c = (unsigned char)*p;

		int keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
			   c == '.' || c == '_' || c == '-' || (c == ' ' && n > 0);

		out[n++] = (char)(keep ? c : '_');
	}
	for (p = base + strlen(base) - ext; *p && n + 1 < cap; p++) {
		unsigned char c = (unsigned char)*p;

		out[n++] = (char)((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
				  (c >= '0' && c <= '9') || c == '.' ? c : '_');
	}
	out[n] = '\0';
	for (n = 0; out[n] == '.'; n++)
		out[n] = '_';
	if (!out[0] || strspn(out, "_") == strlen(out))
		snprintf(out, cap, "file");
}

static int media_open(struct import *im)
{
	size_t n = strlen(im->media_dir);

	im->media_tmp = malloc(n + 8);
	if (!im->media_tmp)
		return QB_ENOMEM;
	snprintf(im->media_tmp, n + 8, "%s-XXXXXX", im->media_dir);
	if (qb_tempfile_mkdtemp(&im->media_t, im->media_tmp)) {
		snprintf(im->media_err, sizeof(im->media_err), "%s: %s", im->media_dir, strerror(errno));
		return QB_EIO;
	}
	im->media_fd = open(im->media_tmp, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (im->media_fd < 0) {
		snprintf(im->media_err, sizeof(im->media_err), "%s: %s", im->media_tmp, strerror(errno));
		return QB_EIO;
	}
	return 0;
}

/* Writes DATA as a new file of the media folder: NAME made safe
 * (media_name), "-2", "-3" ... before the extension while the name is
 * taken; never over another file, never outside the folder (openat on the
 * folder, O_EXCL, O_NOFOLLOW, a name without '/'). The same name with the
 * same bytes is the file already written. */
static int sink_media(void *ctx, unsigned long line, const char *name, const void *data,
		      size_t len, char *src, size_t cap)
{
	struct import *im = ctx;
	char safe[IMPORT_MEDIA_NAME + 16], file[IMPORT_MEDIA_NAME + 48];
	uint64_t nh, dh;
	const char *dot;
	size_t i, stem;
	unsigned long k;
	int fd = -1, rc;

	(void)line;
	if (!im->media_dir)
		return 1;
	media_name(safe, sizeof(safe), name);
	nh = qb_hash(safe, strlen(safe));
	dh = qb_hash(data, len);
	for (i = 0; i < im->nmf; i++)
		if (im->mf[i].name_hash == nh && im->mf[i].data_hash == dh && im->mf[i].len == len) {
			snprintf(src, cap, "%s", im->mf[i].src);
			return 0;
		}
	if (!im->media_t && (rc = media_open(im)) != 0)
		return rc;
	dot = strrchr(safe, '.');
	stem = dot && dot != safe ? (size_t)(dot - safe) : strlen(safe);
	snprintf(file, sizeof(file), "%s", safe);
	for (k = 2; (fd = openat(im->media_fd, file, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
				 O_CLOEXEC, 0644)) < 0 && errno == EEXIST; k++)
		snprintf(file, sizeof(file), "%.*s-%lu%s", (int)stem, safe, k, safe + stem);
	if (fd < 0) {
		snprintf(im->media_err, sizeof(im->media_err), "%.100s/%s: %s", im->media_dir, file,
			 strerror(errno));
		return QB_EIO;
	}
	for (i = 0; i < len;) {
		ssize_t w = write(fd, (const char *)data + i, len - i);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			snprintf(im->media_err, sizeof(im->media_err), "%.100s/%s: %s", im->media_dir, file,
				 strerror(w < 0 ? errno : EIO));
			(void)close(fd);
			return QB_EIO;
		}
		i += (size_t)w;
	}
	if (close(fd) != 0) {
		snprintf(im->media_err, sizeof(im->media_err), "%.100s/%s: %s", im->media_dir, file,
			 strerror(errno));
		return QB_EIO;
	}
	snprintf(src, cap, "%s/%s", im->media_src, file);
	{
		struct mfile m = { nh, dh, len, qb_arena_strndup(&im->arena, src, strlen(src)) };

		if (!m.src || QB_ARRAY_PUSH(im->mf, im->nmf, im->capmf, m))
			return QB_ENOMEM;
	}
	return 0;
}

/* Puts the media folder in place of MEDIA_DIR (an older one there is
 * removed once the new one is in). */
static int media_commit(struct import *im, struct qb_error *err)
{
	struct qb_tempfile *old = NULL;
	char *tmpl;
	size_t n;
	int rc = 0;

	if (!im->media_t)
		return 0;
	n = strlen(im->media_dir) + 12;
	tmpl = malloc(n);
	if (!tmpl)
		return QB_ENOMEM;
	snprintf(tmpl, n, "%s-old-XXXXXX", im->media_dir);
	if (qb_tempfile_mkdtemp(&old, tmpl) ||
	    (rename(im->media_dir, tmpl) != 0 && errno != ENOENT) ||
	    qb_tempfile_rename(im->media_t, im->media_dir)) {
		qb_error_set(err, QB_EIO, "%s: %s", im->media_dir, strerror(errno));
		rc = QB_EIO;
	} else {
		im->media_t = NULL;
	}
	qb_tempfile_delete(old);
	free(tmpl);
	return rc;
}

/* ---- reading the sources ------------------------------------------------- */

static int read_all(const char *path, struct qb_buf *b, struct qb_error *err)
{
	FILE *f = fopen(path, "rb");
	char chunk[65536];
	size_t got;

	if (!f) {
		qb_error_set(err, QB_EIO, "%s: %s", path, strerror(errno));
		return QB_EIO;
	}
	while ((got = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		if (b->len + got > (size_t)IMPORT_MAX_FILE_BYTES) {
			(void)fclose(f);   /* read only: nothing to lose */
			qb_error_set(err, QB_EINVAL, "%s: larger than %ld MiB, the most an import reads",
				     path, IMPORT_MAX_FILE_BYTES >> 20);
			return QB_EINVAL;
		}
		if (qb_buf_add(b, chunk, got)) {
			(void)fclose(f);   /* read only: nothing to lose */
			qb_error_set(err, QB_ENOMEM, "%s: out of memory", path);
			return QB_ENOMEM;
		}
	}
	if (ferror(f)) {
		qb_error_set(err, QB_EIO, "%s: %s", path, strerror(errno));
		(void)fclose(f);
		return QB_EIO;
	}
	(void)fclose(f);
	return qb_buf_addc(b, '\0') ? QB_ENOMEM : 0;
}

/* Streams FILE through IMP->read_fd when the importer has one and its
 * format is known (named, or recognised from the first bytes); else reads
 * it whole. 1 when it was not streamed. */
static int import_stream(struct import *im, const struct qb_importer **imp, const char *path,
			 const struct qb_imp_sink *sink, struct qb_error *err, int *rc)
{
	char head[4096];
	ssize_t got;
	size_t i;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 1;   /* read_all words the error */
	got = read(fd, head, sizeof(head));
	if (got < 0 || lseek(fd, 0, SEEK_SET) != 0) {
		(void)close(fd);   /* read only: nothing to lose */
		return 1;
	}
	for (i = 0; !*imp && i < qb_nimporters; i++)
		if (qb_importers[i].read_fd && qb_importers[i].detect(head, (size_t)got))
			*imp = &qb_importers[i];
	if (!*imp || !(*imp)->read_fd) {
		(void)close(fd);
		return 1;
	}
	im->path = path;
	*rc = (*imp)->read_fd(fd, sink, err);
	(void)close(fd);   /* read only: nothing to lose */
	return 0;
}

static int import_file(struct import *im, const char *from, const char *path, struct qb_error *err)
{
	struct qb_buf b = QB_BUF_INIT;
	const struct qb_importer *imp = from ? qb_importer_find(from) : NULL;
	struct qb_imp_sink sink = { im, path, sink_question, sink_report, sink_media, sink_category };
	size_t i, len;
	int rc = 0;

	if (from && !imp) {
		qb_error_set(err, QB_EINVAL, "unknown source format '%s' (%s)", from, qb_import_names());
		return QB_EINVAL;
	}
	if (import_stream(im, &imp, path, &sink, err, &rc) == 0)
		goto done;
	rc = read_all(path, &b, err);
	if (rc)
		goto done;
	len = b.len - 1;
	for (i = 0; !imp && i < qb_nimporters; i++)
		if (qb_importers[i].detect(b.ptr, len))
			imp = &qb_importers[i];
	if (!imp) {
		qb_error_set(err, QB_EINVAL, "%s: not a Moodle XML, GIFT or Aiken file (name the "
			     "format with --from)", path);
		rc = QB_EINVAL;
		goto done;
	}
	im->path = path;
	rc = imp->read(b.ptr, len, &sink, err);
done:
	if (rc && im->media_err[0] && !err->msg[0])
		qb_error_set(err, rc, "%s", im->media_err);
	if (rc && !err->msg[0])
		qb_error_set(err, rc, "%s: %s", path, qb_error_str(rc));
	qb_buf_dispose(&b);
	return rc;
}

/* ---- writing the bank ---------------------------------------------------- */

static char *num(char *out, size_t cap, double v)
{
	snprintf(out, cap, "%.7g", v);
	return out;
}

/* <NAME> holding TEXT: the bank's rich text as it is (RICH), or plain
 * text escaped; FULL writes <name></name> for nothing. */
static void write_text(struct qb_xw *x, const char *name, const char *text, int rich, int full)
{
	qb_xw_start_inline(x, name);
	if (text && *text) {
		if (!rich)
			qb_xw_text(x, text);
		else
			qb_xw_raw(x, text, strlen(text));
	}
	if (full)
		qb_xw_end_full(x);
	else
		qb_xw_end_mixed(x);
}

static void write_rationale(struct qb_xw *x, const char *name, const char *text, int rich)
{
	if (text && *text)
		write_text(x, name, text, rich, 0);
}

static void write_side(struct qb_xw *x, const char *side, const char *text, int rich)
{
	if (!text || !*text)
		return;
	qb_xw_start_inline(x, "rationale");
	qb_xw_attr(x, "for", side);
	if (!rich)
		qb_xw_text(x, text);
	else
		qb_xw_raw(x, text, strlen(text));
	qb_xw_end_mixed(x);
}

static void write_question(struct qb_xw *x, const struct qb_imp_question *q, const char *id)
{
	char nb[32];
	size_t i;
	int r = q->rich;

	/* a record has its arrays whenever it counts items (the analyzer
	 * cannot follow one read back from the spool) */
	if ((q->nchoices && !q->choices) || (q->ndistractors && !q->distractors)) {
		x->rc = QB_EINVAL;
		return;
	}
	qb_xw_start(x, "question");
	qb_xw_attr(x, "id", id);
	qb_xw_attr(x, "type", kind_names[q->kind]);
	if (q->points > 0 && q->points != 1)
		qb_xw_attr(x, "points", num(nb, sizeof(nb), q->points));
	if (q->no_shuffle && (q->kind == QB_IMP_SINGLE || q->kind == QB_IMP_MULTIPLE ||
			      q->kind == QB_IMP_MATCHING))
		qb_xw_attr(x, "shuffle", "false");
	if (q->kind == QB_IMP_SHORT && q->case_sensitive)
		qb_xw_attr(x, "case-sensitive", "true");
	if (q->kind == QB_IMP_MULTIPLE && q->select > 0)
		qb_xw_attr(x, "select", num(nb, sizeof(nb), (double)q->select));
	if (q->source && *q->source)
		qb_xw_elem(x, "source", q->source);
	for (i = 0; i < q->ntags; i++)
		qb_xw_elem(x, "tag", q->tags[i]);
	write_text(x, "stem", q->stem, r, 0);
	switch (q->kind) {
	case QB_IMP_SINGLE:
	case QB_IMP_MULTIPLE:
		for (i = 0; i < q->nchoices; i++) {
			qb_xw_start(x, "option");
			if (q->choices[i].fraction > 0)
				qb_xw_attr(x, "correct", "true");
			write_text(x, "text", q->choices[i].text, r, 1);
			write_rationale(x, "rationale", q->choices[i].feedback, r);
			qb_xw_end(x);
		}
		break;
	case QB_IMP_TRUEFALSE:
		qb_xw_elem(x, "answer", q->truth ? "true" : "false");
		write_side(x, "true", q->true_feedback, r);
		write_side(x, "false", q->false_feedback, r);
		break;
	case QB_IMP_SHORT:
		for (i = 0; i < q->nchoices; i++)
			qb_xw_elem(x, "answer", q->choices[i].text);
		break;
	case QB_IMP_NUMERIC:
		for (i = 0; i < q->nchoices; i++) {
			qb_xw_start_inline(x, "answer");
			if (q->choices[i].tolerance > 0)
				qb_xw_attr(x, "tolerance", num(nb, sizeof(nb), q->choices[i].tolerance));
			if (q->choices[i].unit && *q->choices[i].unit)
				qb_xw_attr(x, "unit", q->choices[i].unit);
			qb_xw_text(x, q->choices[i].text);
			qb_xw_end_mixed(x);
		}
		break;
	case QB_IMP_MATCHING:
		for (i = 0; i < q->nchoices; i++) {
			qb_xw_start(x, "pair");
			write_text(x, "premise", q->choices[i].text, r, 1);
			write_text(x, "response", q->choices[i].match, r, 1);
			qb_xw_end(x);
		}
		for (i = 0; i < q->ndistractors; i++)
			write_text(x, "distractor", q->distractors[i], r, 1);
		break;
	case QB_IMP_ESSAY:
		if ((q->response_format && strcmp(q->response_format, "editor") != 0) ||
		    (q->lines && q->lines != 10) || q->min_words || q->max_words) {
			qb_xw_start(x, "response");
			if (q->response_format && strcmp(q->response_format, "editor") != 0)
				qb_xw_attr(x, "format", q->response_format);
			if (q->lines && q->lines != 10)
				qb_xw_attr(x, "lines", (snprintf(nb, sizeof(nb), "%lu", q->lines), nb));
			if (q->min_words)
				qb_xw_attr(x, "min-words", (snprintf(nb, sizeof(nb), "%lu", q->min_words), nb));
			if (q->max_words)
				qb_xw_attr(x, "max-words", (snprintf(nb, sizeof(nb), "%lu", q->max_words), nb));
			qb_xw_end(x);
		}
		write_rationale(x, "rubric", q->rubric, r);
		break;
	}
	if (q->explanation && *q->explanation)
		write_text(x, "explanation", q->explanation, r, 0);
	qb_xw_end(x);
}

/* Copies question K from the spool into the bank at depth DEPTH: each of
 * the spool's newlines (the writer's own) gets the indentation of DEPTH
 * before its own, and each SPOOL_NL is a newline again. */
static void copy_question(struct qb_xw *x, struct import *im, const struct kept *k)
{
	static const char spaces[] = "                                                                ";
	size_t ind = (size_t)x->depth * 2 < sizeof(spaces) - 1 ? (size_t)x->depth * 2 : sizeof(spaces) - 1;
	struct qb_buf *b = &im->copy;
	const char *p, *end, *nl, *snl;

	if (x->rc)
		return;
	qb_buf_clear(b);
	/* the questions of a category mostly follow each other in the spool:
	 * a seek (which drops the stream's buffer) only where they do not */
	if (qb_buf_grow(b, k->len + 1) ||
	    (im->spool_at != k->off && fseeko(im->spool.f, (off_t)k->off, SEEK_SET) != 0) ||
	    fread(b->ptr, 1, k->len, im->spool.f) != k->len) {
		x->rc = QB_EIO;
		return;
	}
	im->spool_at = k->off + k->len;
	b->len = k->len;
	b->ptr[b->len] = '\0';
	qb_xw_raw(x, "\n", 1);
	qb_xw_raw(x, spaces, ind);
	/* the next line break and the next SPOOL_NL, each found again only
	 * once passed */
	p = b->ptr;
	end = p + b->len;
	nl = memchr(p, '\n', b->len);
	snl = memchr(p, SPOOL_NL, b->len);
	while (!x->rc) {
		const char *q = !nl ? snl : !snl || nl < snl ? nl : snl;

		if (!q) {
			qb_xw_raw(x, p, (size_t)(end - p));
			break;
		}
		qb_xw_raw(x, p, (size_t)(q - p));
		qb_xw_raw(x, "\n", 1);
		p = q + 1;
		if (q == nl) {
			qb_xw_raw(x, spaces, ind);
			nl = memchr(p, '\n', (size_t)(end - p));
		} else {
			snl = memchr(p, SPOOL_NL, (size_t)(end - p));
		}
	}
	x->kids[x->depth] = 1;
}

static void write_description(struct qb_xw *x, const char *d)
{
	if (d && *d) {
		qb_xw_start_mixed(x, "description");
		if (!x->rc && xmlTextWriterWriteRaw(qb_xw_writer(x), BAD_CAST d) < 0)
			x->rc = QB_EIO;
		qb_xw_end_mixed(x);
	}
}

/* The questions and subcategories of category CAT, in the order the
 * source gave them (a subcategory where its first question came). */
static void write_items(struct qb_xw *x, struct import *im, size_t cat)
{
	size_t q = cat == SIZE_MAX ? im->top_first : im->cats[cat].first, i;

	for (i = cat == SIZE_MAX ? im->top_child : im->cats[cat].child; i != SIZE_MAX;
	     i = im->cats[i].sibling) {
		for (; q != SIZE_MAX && q < im->cats[i].born; q = kept_index(im->v[q].next))
			copy_question(x, im, &im->v[q]);
		qb_xw_start(x, "category");
		qb_xw_attr(x, "name", im->cats[i].name);
		write_description(x, im->cats[i].description);
		write_items(x, im, i);
		qb_xw_end(x);
	}
	for (; q != SIZE_MAX; q = kept_index(im->v[q].next))
		copy_question(x, im, &im->v[q]);
}

/* Chains the questions of each category, in input order. */
static void chain(struct import *im)
{
	size_t i;

	im->top_first = im->top_last = SIZE_MAX;
	for (i = 0; i < im->ncats; i++)
		im->cats[i].first = im->cats[i].last = SIZE_MAX;
	for (i = 0; i < im->n; i++) {
		struct kept *k = &im->v[i];
		size_t *first = k->cat == KEPT_NONE ? &im->top_first : &im->cats[k->cat].first;
		size_t *last = k->cat == KEPT_NONE ? &im->top_last : &im->cats[k->cat].last;

		k->next = KEPT_NONE;
		if (*first == SIZE_MAX)
			*first = i;
		else
			im->v[*last].next = (uint32_t)i;
		*last = i;
	}
}

/* The category that holds the whole bank, or SIZE_MAX: one top category
 * and no question outside it (a Moodle export's "Default for ..." or the
 * bank title qbank's own exports put first) becomes the bank's title. */
static size_t title_cat(const struct import *im)
{
	size_t i, top = SIZE_MAX;

	for (i = 0; i < im->n; i++)
		if (im->v[i].cat == KEPT_NONE)
			return SIZE_MAX;
	for (i = 0; i < im->ncats; i++)
		if (im->cats[i].parent == SIZE_MAX) {
			if (top != SIZE_MAX)
				return SIZE_MAX;
			top = i;
		}
	return top;
}

/* Writes the bank to a new atomic output *A (not yet committed). */
static int write_bank(struct import *im, const char *out, struct qb_atomic **a,
		      struct qb_error *err)
{
	xmlOutputBufferPtr ob;
	xmlTextWriterPtr w;
	struct qb_xw x;
	size_t top = title_cat(im);
	int rc;

	chain(im);
	if (im->spool.f && fflush(im->spool.f) != 0) {
		qb_error_set(err, QB_EIO, "the import's temporary file: %s", strerror(errno));
		return QB_EIO;
	}
	rc = qb_atomic_open(a, out, err);
	if (rc)
		return rc;
	ob = xmlOutputBufferCreateFile(qb_atomic_file(*a), NULL);
	w = ob ? xmlNewTextWriter(ob) : NULL;
	if (!w) {
		if (ob)
			xmlOutputBufferClose(ob);
		qb_atomic_abort(*a);
		*a = NULL;
		qb_error_set(err, QB_ENOMEM, "out of memory");
		return QB_ENOMEM;
	}
	qb_xw_begin(&x, w);
	qb_xw_start(&x, "bank");
	qb_xw_attr(&x, "id", im->bank_id);
	qb_xw_attr(&x, "version", "1");
	qb_xw_elem(&x, "title", top != SIZE_MAX ? im->cats[top].name : "Imported questions");
	if (top != SIZE_MAX)
		write_description(&x, im->cats[top].description);
	write_items(&x, im, top);
	rc = qb_xw_finish(&x);
	xmlFreeTextWriter(w);
	if (rc || qb_atomic_write_error(*a)) {
		qb_error_set(err, QB_EIO, "%s: %s", qb_atomic_path(*a),
			     qb_atomic_write_error(*a) ? strerror(qb_atomic_write_error(*a)) :
			     "cannot write the bank");
		qb_atomic_abort(*a);
		*a = NULL;
		return QB_EIO;
	}
	return 0;
}

/* The media folder of OPTS: --media, else OUT without .xml, "-media"
 * after it; and how an img src in the bank names it (relative to the
 * bank's folder when the media folder is below it). */
static int media_setup(struct import *im, const struct qb_import_opts *opts)
{
	const char *out = opts->out, *slash;
	size_t n;

	if (opts->media) {
		im->media_dir = strdup(opts->media);
	} else if (out) {
		n = strlen(out);
		if (n > 4 && strcmp(out + n - 4, ".xml") == 0)
			n -= 4;
		im->media_dir = malloc(n + 7);
		if (im->media_dir)
			snprintf(im->media_dir, n + 7, "%.*s-media", (int)n, out);
	} else {
		return 0;
	}
	if (!im->media_dir)
		return QB_ENOMEM;
	n = strlen(im->media_dir);
	while (n > 1 && im->media_dir[n - 1] == '/')
		im->media_dir[--n] = '\0';
	slash = out ? strrchr(out, '/') : NULL;
	if (slash && strncmp(im->media_dir, out, (size_t)(slash - out + 1)) == 0)
		im->media_src = strdup(im->media_dir + (slash - out + 1));
	else
		im->media_src = strdup(im->media_dir);
	return im->media_src ? 0 : QB_ENOMEM;
}

int qb_import_run(const struct qb_import_opts *opts, const char *const *paths, size_t n,
		  struct qb_diags *diags, struct qb_import_stats *st, struct qb_error *err)
{
	struct import im;
	struct qb_atomic *a = NULL;
	const char *base;
	sigset_t held;
	size_t i;
	int rc = 0;

	memset(&im, 0, sizeof(im));
	im.idtext = (struct qb_buf)QB_BUF_INIT_BIG;
	im.diags = diags;
	im.media_fd = -1;
	im.top_child = im.top_last_child = SIZE_MAX;
	im.out = opts->out;
	memset(st, 0, sizeof(*st));
	/* The bank's id: the first file's name without folder and extension. */
	base = n ? strrchr(paths[0], '/') : NULL;
	base = base ? base + 1 : n ? paths[0] : "imported";
	slug(im.bank_id, sizeof(im.bank_id), base);
	{
		char *dot = strchr(im.bank_id, '.');

		if (dot && dot != im.bank_id)
			*dot = '\0';
	}
	rc = media_setup(&im, opts);
	if (rc)
		qb_error_set(err, rc, "out of memory");
	for (i = 0; !rc && i < n; i++)
		rc = import_file(&im, opts->from, paths[i], err);
	if (im.media_fd >= 0)
		(void)close(im.media_fd);   /* a folder: nothing buffered */
	if (!rc)
		rc = write_bank(&im, opts->out, &a, err);
	if (!rc) {
		/* both or neither: an interrupt finds the old bank and media or the new */
		qb_tempfile_hold(&held);
		rc = media_commit(&im, err);
		if (!rc)
			rc = qb_atomic_commit(a, err);
		else
			qb_atomic_abort(a);
		qb_tempfile_release(&held);
	}
	if (!rc) {
		st->files = n;
		st->questions = im.n;
	}
	qb_tempfile_delete(im.media_t);
	qb_spool_close(&im.spool);   /* a temporary, removed next */
	qb_tempfile_delete(im.spool_t);
	xmlFreeTextWriter(im.qw);
	xmlBufferFree(im.qbuf);
	qb_buf_dispose(&im.copy);
	qb_arena_dispose(&im.qarena);
	free(im.media_dir);
	free(im.media_src);
	free(im.media_tmp);
	qb_array_free(im.mf, im.capmf, sizeof(*im.mf), 0);
	qb_map_dispose(&im.ids);
	qb_array_free(im.v, im.cap, sizeof(*im.v), QB_ARRAY_BIG);
	qb_buf_dispose(&im.idtext);
	qb_array_free(im.cats, im.capcats, sizeof(*im.cats), 0);
	qb_map_dispose(&im.catmap);
	qb_arena_dispose(&im.arena);
	return rc;
}
