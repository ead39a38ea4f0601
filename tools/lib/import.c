#include "import.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/xmlwriter.h>

#include <libxml/tree.h>
#include <libxml/xmlstring.h>

#include "atomic.h"
#include "core/arena.h"
#include "core/array.h"
#include "core/buf.h"
#include "core/map.h"
#include "importers/importers.h"
#include "limits.h"
#include "rules.h"
#include "text.h"
#include "xmlw.h"

/* A source file is read whole; larger ones are refused (an import of
 * 100,000 questions is far below this). */
#define IMPORT_MAX_FILE_BYTES (1024L * 1024 * 1024)
/* Ids made from names are cut to this many characters (before a "-N"
 * that keeps them unique). */
#define IMPORT_ID_CHARS 48

/* A category of the bank being built: nodes in order of first use. */
struct cat {
	const char *name;
	size_t parent;          /* SIZE_MAX for the bank itself */
};

/* A question kept for writing: the importer's record, copied. */
struct kept {
	struct qb_imp_question q;
	const char *id;
	size_t cat;             /* SIZE_MAX: at the top of the bank */
};

struct import {
	struct qb_arena arena;
	struct kept *v;
	size_t n, cap;
	struct cat *cats;
	size_t ncats, capcats;
	struct qb_map ids;      /* over v[].id */
	struct qb_diags *diags;
	const char *path;       /* the file being read */
	char bank_id[IMPORT_ID_CHARS + 1];
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

static uint64_t id_hash(void *ctx, size_t rec)
{
	const struct import *im = ctx;

	return qb_hash64(im->v[rec].id, strlen(im->v[rec].id));
}

static int id_same(void *ctx, size_t rec, const void *key)
{
	const struct import *im = ctx;

	return strcmp(im->v[rec].id, key) == 0;
}

static const struct qb_map_ops id_ops = { id_hash, id_same };

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

/* The id of record REC (already in im->v): its idnumber as it is when that
 * is already an id (an NCName of at most 100 characters, as qbank's own
 * exports write them), else its idnumber or name as a slug; with "-2",
 * "-3" ... after it while an earlier question has it. */
static int assign_id(struct import *im, size_t rec)
{
	const struct qb_imp_question *q = &im->v[rec].q;
	char base[QB_LIMIT_ID_CHARS * 4 + 1], id[QB_LIMIT_ID_CHARS * 4 + 24];
	unsigned long k;
	int rc;

	if (q->idnumber && *q->idnumber && strlen(q->idnumber) < sizeof(base) &&
	    xmlUTF8Strlen(BAD_CAST q->idnumber) <= QB_LIMIT_ID_CHARS &&
	    xmlValidateNCName(BAD_CAST q->idnumber, 0) == 0)
		snprintf(base, sizeof(base), "%s", q->idnumber);
	else
		slug(base, IMPORT_ID_CHARS + 1, q->idnumber && *q->idnumber ? q->idnumber : q->name);
	snprintf(id, sizeof(id), "%s", base);
	for (k = 2; qb_map_find(&im->ids, qb_hash64(id, strlen(id)), &id_ops, im, id) != QB_MAP_NONE;
	     k++)
		snprintf(id, sizeof(id), "%s-%lu", base, k);
	im->v[rec].id = qb_arena_strndup(&im->arena, id, strlen(id));
	if (!im->v[rec].id)
		return QB_ENOMEM;
	rc = qb_map_insert(&im->ids, qb_hash64(id, strlen(id)), rec, &id_ops, im);
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
static const char *dup(struct import *im, const char *s, int *oom, int *changed)
{
	struct qb_buf b = QB_BUF_INIT;
	const unsigned char *p;
	char *d;

	if (!s)
		return NULL;
	for (p = (const unsigned char *)s; *p;) {
		size_t n = utf8_len(p);
		int rc;

		if (n) {
			if (n == 1 && *p < 0x20 && *p != '\t' && *p != '\n' && *p != '\r') {
				*changed = 1;
				p++;
				continue;
			}
			rc = qb_buf_add(&b, p, n);
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
	d = qb_arena_strndup(&im->arena, b.ptr ? b.ptr : "", b.len);
	qb_buf_dispose(&b);
	if (!d)
		*oom = 1;
	return d;
}

/* The node of category PATH ("a/b/c"), created in order of first use. */
/* Moodle's category paths ("a/b/c"): '//' is a '/' inside a name, as
 * Moodle's split_category_path() reads it. */
static int find_cat(struct import *im, const char *path, size_t *out)
{
	size_t parent = SIZE_MAX, i;
	const char *p = path;
	struct qb_buf name = QB_BUF_INIT;
	int rc = 0;

	while (!rc && p && *p) {
		qb_buf_clear(&name);
		rc = qb_buf_grow(&name, 0);
		for (; !rc && *p && !(p[0] == '/' && p[1] != '/'); p++) {
			rc = qb_buf_addc(&name, *p);
			if (p[0] == '/')
				p++;   /* the second '/' of "//" */
		}
		if (*p == '/')
			p++;
		if (rc)
			break;
		if (name.len) {
			const char *t;
			size_t len;

			t = qb_text_trim(name.ptr, &len);
			for (i = 0; i < im->ncats; i++)
				if (im->cats[i].parent == parent && strlen(im->cats[i].name) == len &&
				    memcmp(im->cats[i].name, t, len) == 0)
					break;
			if (len && i == im->ncats) {
				struct cat c = { qb_arena_strndup(&im->arena, t, len), parent };

				if (!c.name || QB_ARRAY_PUSH(im->cats, im->ncats, im->capcats, c))
					rc = QB_ENOMEM;
			}
			if (len)
				parent = i;
		}
	}
	qb_buf_dispose(&name);
	*out = parent;
	return rc;
}

static int sink_question(void *ctx, const struct qb_imp_question *q)
{
	struct import *im = ctx;
	struct kept k;
	struct qb_imp_choice *ch = NULL;
	const char **ds = NULL;
	size_t i;
	int oom = 0, enc = 0, rc;

	memset(&k, 0, sizeof(k));
	k.q = *q;
	k.q.name = dup(im, q->name, &oom, &enc);
	k.q.idnumber = dup(im, q->idnumber, &oom, &enc);
	k.q.category = NULL;
	k.q.stem = dup(im, q->stem ? q->stem : "", &oom, &enc);
	k.q.explanation = dup(im, q->explanation, &oom, &enc);
	k.q.true_feedback = dup(im, q->true_feedback, &oom, &enc);
	k.q.false_feedback = dup(im, q->false_feedback, &oom, &enc);
	if (q->nchoices) {
		ch = qb_arena_alloc(&im->arena, q->nchoices * sizeof(*ch));
		if (!ch)
			return QB_ENOMEM;
		for (i = 0; i < q->nchoices; i++) {
			ch[i] = q->choices[i];
			ch[i].text = dup(im, q->choices[i].text ? q->choices[i].text : "", &oom, &enc);
			ch[i].match = dup(im, q->choices[i].match, &oom, &enc);
			ch[i].feedback = dup(im, q->choices[i].feedback, &oom, &enc);
		}
	}
	k.q.choices = ch;
	if (q->ndistractors) {
		ds = qb_arena_alloc(&im->arena, q->ndistractors * sizeof(*ds));
		if (!ds)
			return QB_ENOMEM;
		for (i = 0; i < q->ndistractors; i++)
			ds[i] = dup(im, q->distractors[i], &oom, &enc);
	}
	k.q.distractors = ds;
	k.q.source = dup(im, q->source, &oom, &enc);
	k.q.tags = NULL;
	if (q->ntags) {
		const char **tg = qb_arena_alloc(&im->arena, q->ntags * sizeof(*tg));

		if (!tg)
			return QB_ENOMEM;
		for (i = 0; i < q->ntags; i++)
			tg[i] = dup(im, q->tags[i], &oom, &enc);
		k.q.tags = tg;
	}
	if (oom)
		return QB_ENOMEM;
	k.cat = SIZE_MAX;
	if (q->category) {
		const char *cat = dup(im, q->category, &oom, &enc);

		if (oom)
			return QB_ENOMEM;
		if ((rc = find_cat(im, cat, &k.cat)) != 0)
			return rc;
	}
	if (QB_ARRAY_PUSH(im->v, im->n, im->cap, k))
		return QB_ENOMEM;
	rc = assign_id(im, im->n - 1);
	if (!rc && enc)
		rc = qb_diags_add(im->diags, im->path, q->line, QB_SEV_WARNING,
				  qb_rules[QB_RULE_IMPORT_ENCODING].id, NULL,
				  "question '%s': bytes that are not UTF-8 read as Windows-1252, "
				  "control characters dropped", im->v[im->n - 1].id);
	return rc;
}

static int sink_report(void *ctx, unsigned long line, enum qb_severity sev, enum qb_rule_key rule,
		       const char *question, const char *msg)
{
	struct import *im = ctx;

	return qb_diags_add(im->diags, im->path, line, sev, qb_rules[rule].id, question, "%s", msg);
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

static int import_file(struct import *im, const char *from, const char *path, struct qb_error *err)
{
	struct qb_buf b = QB_BUF_INIT;
	const struct qb_importer *imp = from ? qb_importer_find(from) : NULL;
	struct qb_imp_sink sink = { im, path, sink_question, sink_report };
	size_t i, len;
	int rc;

	if (from && !imp) {
		qb_error_set(err, QB_EINVAL, "unknown source format '%s' (%s)", from, qb_import_names());
		return QB_EINVAL;
	}
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
	if (rc && !err->msg[0])
		qb_error_set(err, rc, "%s: %s", path, qb_error_str(rc));
done:
	qb_buf_dispose(&b);
	return rc;
}

/* ---- writing the bank ---------------------------------------------------- */

static char *num(char *out, size_t cap, double v)
{
	snprintf(out, cap, "%.7g", v);
	return out;
}

/* The children of N (a parsed rich-text fragment) into the open element. */
static void write_nodes(struct qb_xw *x, const xmlNode *n)
{
	for (; n; n = n->next) {
		if (n->type == XML_TEXT_NODE) {
			qb_xw_text(x, (const char *)n->content);
		} else if (n->type == XML_ELEMENT_NODE) {
			const xmlAttr *a;

			qb_xw_start_mixed(x, (const char *)n->name);
			for (a = n->properties; a; a = a->next)
				if (a->children && a->children->type == XML_TEXT_NODE)
					qb_xw_attr(x, (const char *)a->name,
						   (const char *)a->children->content);
			write_nodes(x, n->children);
			qb_xw_end_mixed(x);
		}
	}
}

/* <NAME>TEXT</NAME> for a text of Q: rich markup (Q's importer says so)
 * parsed with libxml2 (no DTD, no entities, no network) and written element
 * by element through the writer, else plain text. FOR_ATTR adds for="...". */
static void write_text(struct qb_xw *x, const struct qb_imp_question *q, const char *name,
		       const char *text, const char *for_attr)
{
	struct qb_buf b = QB_BUF_INIT;
	xmlDocPtr doc = NULL;

	if (q->rich && strchr(text, '<') == NULL && strchr(text, '&') == NULL) {
		;   /* no markup: written as text below */
	} else if (q->rich && !qb_buf_adds(&b, "<r>") && !qb_buf_adds(&b, text) &&
		   !qb_buf_adds(&b, "</r>")) {
		doc = xmlReadMemory(b.ptr, (int)b.len, NULL, "UTF-8",
				    XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
	}
	qb_xw_start_mixed(x, name);
	if (for_attr)
		qb_xw_attr(x, "for", for_attr);
	if (doc && xmlDocGetRootElement(doc))
		write_nodes(x, xmlDocGetRootElement(doc)->children);
	else
		qb_xw_text(x, text);
	qb_xw_end_mixed(x);
	xmlFreeDoc(doc);
	qb_buf_dispose(&b);
}

static void write_rationale(struct qb_xw *x, const struct qb_imp_question *q, const char *name,
			    const char *text)
{
	if (text && *text)
		write_text(x, q, name, text, NULL);
}

static void write_question(struct qb_xw *x, const struct kept *k)
{
	const struct qb_imp_question *q = &k->q;
	char nb[32];
	size_t i;

	qb_xw_start(x, "question");
	qb_xw_attr(x, "id", k->id);
	qb_xw_attr(x, "type", kind_names[q->kind]);
	if (q->points > 0 && q->points != 1)
		qb_xw_attr(x, "points", num(nb, sizeof(nb), q->points));
	if (q->kind == QB_IMP_SHORT && q->case_sensitive)
		qb_xw_attr(x, "case-sensitive", "true");
	if (q->kind == QB_IMP_MULTIPLE && q->select > 0)
		qb_xw_attr(x, "select", num(nb, sizeof(nb), (double)q->select));
	if (q->source && *q->source)
		qb_xw_elem(x, "source", q->source);
	for (i = 0; i < q->ntags; i++)
		qb_xw_elem(x, "tag", q->tags[i]);
	write_text(x, q, "stem", q->stem, NULL);
	switch (q->kind) {
	case QB_IMP_SINGLE:
	case QB_IMP_MULTIPLE:
		for (i = 0; i < q->nchoices; i++) {
			qb_xw_start(x, "option");
			if (q->choices[i].fraction > 0)
				qb_xw_attr(x, "correct", "true");
			write_text(x, q, "text", q->choices[i].text, NULL);
			write_rationale(x, q, "rationale", q->choices[i].feedback);
			qb_xw_end(x);
		}
		break;
	case QB_IMP_TRUEFALSE:
		qb_xw_elem(x, "answer", q->truth ? "true" : "false");
		if (q->true_feedback && *q->true_feedback)
			write_text(x, q, "rationale", q->true_feedback, "true");
		if (q->false_feedback && *q->false_feedback)
			write_text(x, q, "rationale", q->false_feedback, "false");
		break;
	case QB_IMP_SHORT:
		for (i = 0; i < q->nchoices; i++)
			qb_xw_elem(x, "answer", q->choices[i].text);
		break;
	case QB_IMP_NUMERIC:
		for (i = 0; i < q->nchoices; i++) {
			qb_xw_start_mixed(x, "answer");
			if (q->choices[i].tolerance > 0)
				qb_xw_attr(x, "tolerance", num(nb, sizeof(nb), q->choices[i].tolerance));
			qb_xw_text(x, q->choices[i].text);
			qb_xw_end_mixed(x);
		}
		break;
	case QB_IMP_MATCHING:
		for (i = 0; i < q->nchoices; i++) {
			qb_xw_start(x, "pair");
			write_text(x, q, "premise", q->choices[i].text, NULL);
			qb_xw_leaf(x, "response", q->choices[i].match);
			qb_xw_end(x);
		}
		for (i = 0; i < q->ndistractors; i++)
			qb_xw_leaf(x, "distractor", q->distractors[i]);
		break;
	case QB_IMP_ESSAY:
		break;
	}
	if (q->explanation && *q->explanation)
		write_text(x, q, "explanation", q->explanation, NULL);
	qb_xw_end(x);
}

/* The questions of category CAT, then its subcategories, in order. */
static void write_items(struct qb_xw *x, const struct import *im, size_t cat)
{
	size_t i;

	for (i = 0; i < im->n; i++)
		if (im->v[i].cat == cat)
			write_question(x, &im->v[i]);
	for (i = 0; i < im->ncats; i++)
		if (im->cats[i].parent == cat) {
			qb_xw_start(x, "category");
			qb_xw_attr(x, "name", im->cats[i].name);
			write_items(x, im, i);
			qb_xw_end(x);
		}
}

/* The one top-level category that holds every question, or SIZE_MAX.
 * Moodle's exports (and qbank's, in Moodle XML and GIFT) put a bank's
 * questions below one category named for the course or the bank: that
 * name becomes the bank's title instead of a category around everything. */
static size_t only_top(const struct import *im)
{
	size_t i, top = SIZE_MAX;

	for (i = 0; i < im->ncats; i++)
		if (im->cats[i].parent == SIZE_MAX) {
			if (top != SIZE_MAX)
				return SIZE_MAX;
			top = i;
		}
	for (i = 0; top != SIZE_MAX && i < im->n; i++)
		if (im->v[i].cat == SIZE_MAX)
			return SIZE_MAX;
	return top;
}

static int write_bank(const struct import *im, const char *out, struct qb_error *err)
{
	struct qb_atomic *a = NULL;
	xmlOutputBufferPtr ob;
	xmlTextWriterPtr w;
	struct qb_xw x;
	size_t top;
	int rc;

	rc = qb_atomic_open(&a, out, err);
	if (rc)
		return rc;
	ob = xmlOutputBufferCreateFile(qb_atomic_file(a), NULL);
	w = ob ? xmlNewTextWriter(ob) : NULL;
	if (!w) {
		if (ob)
			xmlOutputBufferClose(ob);
		qb_atomic_abort(a);
		qb_error_set(err, QB_ENOMEM, "out of memory");
		return QB_ENOMEM;
	}
	top = only_top(im);
	qb_xw_begin(&x, w);
	qb_xw_start(&x, "bank");
	qb_xw_attr(&x, "id", im->bank_id);
	qb_xw_attr(&x, "version", "1");
	qb_xw_elem(&x, "title", top == SIZE_MAX ? "Imported questions" : im->cats[top].name);
	write_items(&x, im, top);
	rc = qb_xw_finish(&x);
	xmlFreeTextWriter(w);
	if (rc || qb_atomic_write_error(a)) {
		qb_error_set(err, QB_EIO, "%s: %s", qb_atomic_path(a),
			     qb_atomic_write_error(a) ? strerror(qb_atomic_write_error(a)) :
			     "cannot write the bank");
		qb_atomic_abort(a);
		return QB_EIO;
	}
	return qb_atomic_commit(a, err);
}

int qb_import_run(const struct qb_import_opts *opts, const char *const *paths, size_t n,
		  struct qb_diags *diags, struct qb_import_stats *st, struct qb_error *err)
{
	struct import im;
	const char *base;
	size_t i;
	int rc = 0;

	memset(&im, 0, sizeof(im));
	im.diags = diags;
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
	for (i = 0; !rc && i < n; i++)
		rc = import_file(&im, opts->from, paths[i], err);
	if (!rc)
		rc = write_bank(&im, opts->out, err);
	if (!rc) {
		st->files = n;
		st->questions = im.n;
	}
	qb_map_dispose(&im.ids);
	qb_array_free(im.v, im.cap, sizeof(*im.v), 0);
	qb_array_free(im.cats, im.capcats, sizeof(*im.cats), 0);
	qb_arena_dispose(&im.arena);
	return rc;
}
