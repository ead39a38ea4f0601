/* qti_check: checks an IMS QTI 2.1 package written by `qbank export --to
 * qti21` against the bank it came from and, given the official schemas,
 * validates every item, the test and the manifest with libxml2, offline.
 *
 *   qti_check [--qti30] [--schemas DIR] [--extract DIR] PACKAGE.zip BANK.xml... [+ PACKAGE.zip BANK.xml...]...
 *   qti_check [--qti30] --schemas DIR --validate qti|cp FILE...
 *
 * Several packages (separated by "+") or files share one load of the
 * schemas: QTI 3.0's takes seconds to compile.
 *
 * --qti30: the package is QTI 3.0 (`--to qti30`): the same checks, with
 * QTI 3.0's namespaces, names, resource types and schemas
 * (qti30/imsqti_asiv3p0p1_v1p0.xsd, qti30/imsqtiv3p0_imscpv1p2_v1p0.xsd).
 * Its names are derived here from the QTI 2.1 ones by QTI 3.0's own rule
 * ("qti-" and kebab case), not taken from the exporter's table, so that
 * the check does not share a mistake with what it checks: the QTI 3.0
 * schema lets misspelt attributes through.
 *
 * DIR is the conformance folder (qti21/imsqti_v2p1.xsd, imscp/imscp_v1p1.xsd).
 * Checked: zip entry names (relative, no "..", unique also without regard
 * to case), entry metadata (regular file, 0644, owner 0:0, the fixed
 * 1980-01-01 date), the manifest (every entry listed, every listed file
 * present, one test depending on every item, dependencies resolve), one
 * item per question with the question's id, each item's correctResponse
 * (and mapping, tolerance, SCORE maximum) against the bank's key.
 * Prints one line per problem and a summary; exit 0 when all is well. */
#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <libxml/parser.h>
#include <libxml/uri.h>
#include <libxml/xmlIO.h>
#include <libxml/xmlschemas.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "../../../tools/lib/core/buf.h"
#include "../../../tools/lib/model.h"
#include "../../../tools/lib/reader.h"
#include "../../../tools/lib/rules.h"
#include "../../../tools/lib/text.h"

static const char *QTI_NS = "http://www.imsglobal.org/xsd/imsqti_v2p1";
static const char *CP_NS = "http://www.imsglobal.org/xsd/imscp_v1p1";
static const char *PKG_SCHEMA = "QTIv2.1 Package";
static const char *TEST_TYPE = "imsqti_test_xmlv2p1";
static const char *ITEM_TYPE = "imsqti_item_xmlv2p1";
static int v3;

/* QTI 3.0's spelling of QTI 2.1 name NAME: kebab case, and "qti-" before
 * an element's name (ELEMENT 1). The result lives until 7 more calls. */
static const char *v3_name(const char *name, int element)
{
	static char ring[8][128];
	static unsigned next;
	char *out = ring[next++ % 8];
	size_t n = 0;

	if (!v3)
		return name;
	if (element)
		n = (size_t)snprintf(out, 128, "qti-");
	for (; *name && n + 2 < 128; name++) {
		if (*name >= 'A' && *name <= 'Z') {
			out[n++] = '-';
			out[n++] = (char)(*name - 'A' + 'a');
		} else {
			out[n++] = *name;
		}
	}
	out[n] = '\0';
	return out;
}

static const char *pkg_name = "";
static int failures;

static void problem(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void problem(const char *fmt, ...)
{
	va_list ap;

	printf("  FAIL %s: ", pkg_name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	failures++;
}

/* ---- the zip ------------------------------------------------------------ */

struct entry {
	char *name;
	char *data;
	size_t len;
	int listed;            /* named by a <file href> of the manifest */
};

static struct entry *entries;
static size_t nentries;

static struct entry *find_entry(const char *name)
{
	size_t i;

	for (i = 0; i < nentries; i++)
		if (strcmp(entries[i].name, name) == 0)
			return &entries[i];
	return NULL;
}

static int name_is_safe(const char *n)
{
	const char *seg, *p;

	if (!n[0] || n[0] == '/' || strchr(n, '\\') || strchr(n, ':'))
		return 0;
	for (seg = n; *seg; seg = *p ? p + 1 : p) {
		p = strchr(seg, '/');
		if (!p)
			p = seg + strlen(seg);
		if (p == seg || (p - seg == 1 && seg[0] == '.') ||
		    (p - seg == 2 && seg[0] == '.' && seg[1] == '.'))
			return 0;
	}
	return 1;
}

static int read_zip(const char *path)
{
	struct archive *a = archive_read_new();
	struct archive_entry *e;
	struct tm t1980;
	time_t fixed;
	size_t i;
	int r;

	memset(&t1980, 0, sizeof(t1980));
	t1980.tm_year = 80;
	t1980.tm_mday = 1;
	t1980.tm_isdst = -1;
	fixed = mktime(&t1980);
	archive_read_support_format_zip(a);
	if (archive_read_open_filename(a, path, 65536) != ARCHIVE_OK) {
		problem("cannot open: %s", archive_error_string(a));
		archive_read_free(a);
		return -1;
	}
	/* ARCHIVE_WARN: a UTF-8 name that the C locale cannot show; the
	 * name itself is read with archive_entry_pathname_utf8 */
	while ((r = archive_read_next_header(a, &e)) == ARCHIVE_OK || r == ARCHIVE_WARN) {
		const char *name = archive_entry_pathname_utf8(e);
		struct entry *x;
		char buf[65536];
		la_ssize_t n;

		if (!name)
			name = archive_entry_pathname(e);
		entries = realloc(entries, (nentries + 1) * sizeof(*entries));
		x = &entries[nentries++];
		memset(x, 0, sizeof(*x));
		x->name = strdup(name ? name : "");
		if (!name_is_safe(x->name))
			problem("entry name '%s' is absolute, has '..', '.', '\\', ':' or an empty part", x->name);
		if (archive_entry_filetype(e) != AE_IFREG)
			problem("entry '%s' is not a regular file", x->name);
		if ((archive_entry_perm(e) & 07777) != 0644)
			problem("entry '%s' has mode %o, not 644", x->name, (unsigned)archive_entry_perm(e));
		if (archive_entry_uid(e) != 0 || archive_entry_gid(e) != 0)
			problem("entry '%s' has owner %ld:%ld, not 0:0", x->name,
				(long)archive_entry_uid(e), (long)archive_entry_gid(e));
		if (archive_entry_mtime(e) != fixed)
			problem("entry '%s' has a timestamp of its own (%ld)", x->name,
				(long)archive_entry_mtime(e));
		while ((n = archive_read_data(a, buf, sizeof(buf))) > 0) {
			x->data = realloc(x->data, x->len + (size_t)n + 1);
			memcpy(x->data + x->len, buf, (size_t)n);
			x->len += (size_t)n;
		}
		if (n < 0)
			problem("entry '%s' cannot be read: %s", x->name, archive_error_string(a));
		if (!x->data)
			x->data = calloc(1, 1);
		x->data[x->len] = '\0';
	}
	if (r != ARCHIVE_EOF)
		problem("the zip is damaged: %s", archive_error_string(a));
	archive_read_free(a);
	for (i = 0; i < nentries; i++) {
		size_t j;

		for (j = 0; j < i; j++)
			if (strcasecmp(entries[i].name, entries[j].name) == 0)
				problem("entries '%s' and '%s' clash (equal without regard to case)",
					entries[j].name, entries[i].name);
	}
	return 0;
}

static int extract(const char *dir)
{
	struct qb_buf p = QB_BUF_INIT;
	size_t i, k;
	FILE *f;

	for (i = 0; i < nentries; i++) {
		if (!name_is_safe(entries[i].name))
			continue;
		qb_buf_clear(&p);
		qb_buf_printf(&p, "%s/%s", dir, entries[i].name);
		for (k = strlen(dir) + 1; k < p.len; k++) {
			if (p.ptr[k] != '/')
				continue;
			p.ptr[k] = '\0';
			if (mkdir(p.ptr, 0755) != 0 && errno != EEXIST) {
				fprintf(stderr, "qti_check: %s: %s\n", p.ptr, strerror(errno));
				return -1;
			}
			p.ptr[k] = '/';
		}
		f = fopen(p.ptr, "wb");
		if (!f || fwrite(entries[i].data, 1, entries[i].len, f) != entries[i].len || fclose(f) != 0) {
			fprintf(stderr, "qti_check: %s: cannot write\n", p.ptr);
			return -1;
		}
	}
	qb_buf_dispose(&p);
	return 0;
}

/* ---- XML helpers -------------------------------------------------------- */

static xmlSchemaPtr qti_schema, cp_schema;
static int nvalidated;
static const char *validating;

static void schema_error(void *ctx, xmlErrorPtr e)
{
	size_t n = e->message ? strlen(e->message) : 0;

	(void)ctx;
	problem("%s:%d: does not validate: %.*s", validating, e->line,
		(int)(n && e->message[n - 1] == '\n' ? n - 1 : n), e->message ? e->message : "");
}

static xmlSchemaPtr load_schema(const char *dir, const char *rel)
{
	struct qb_buf p = QB_BUF_INIT;
	xmlSchemaParserCtxtPtr pc;
	xmlSchemaPtr s;

	qb_buf_printf(&p, "%s/%s", dir, rel);
	pc = xmlSchemaNewParserCtxt(p.ptr);
	s = pc ? xmlSchemaParse(pc) : NULL;
	if (!s)
		fprintf(stderr, "qti_check: cannot load the schema %s\n", p.ptr);
	xmlSchemaFreeParserCtxt(pc);
	qb_buf_dispose(&p);
	return s;
}

static void validate(xmlDocPtr doc, xmlSchemaPtr schema, const char *name)
{
	xmlSchemaValidCtxtPtr vc;
	int before = failures;

	if (!schema || !doc)
		return;
	vc = xmlSchemaNewValidCtxt(schema);
	validating = name;
	xmlSchemaSetValidStructuredErrors(vc, schema_error, NULL);
	if (xmlSchemaValidateDoc(vc, doc) != 0) {
		if (failures == before)
			problem("%s does not validate", name);
	} else {
		nvalidated++;
	}
	xmlSchemaFreeValidCtxt(vc);
}

static xmlDocPtr parse(const struct entry *e)
{
	xmlDocPtr d = xmlReadMemory(e->data, (int)e->len, e->name, NULL, XML_PARSE_NONET);

	if (!d)
		problem("%s is not well-formed XML", e->name);
	return d;
}

static int is(const xmlNode *n, const char *name, const char *ns)
{
	if (ns == QTI_NS)
		name = v3_name(name, 1);
	return n && n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name) == 0 &&
	       n->ns && strcmp((const char *)n->ns->href, ns) == 0;
}

static xmlNode *child(const xmlNode *n, const char *name, const char *ns)
{
	xmlNode *c;

	for (c = n ? n->children : NULL; c; c = c->next)
		if (is(c, name, ns))
			return c;
	return NULL;
}

static xmlNode *find_named(xmlNode *n, const char *name, const char *attr, const char *value)
{
	xmlNode *c, *r;

	for (c = n ? n->children : NULL; c; c = c->next) {
		if (c->type != XML_ELEMENT_NODE)
			continue;
		if (strcmp((const char *)c->name, name) == 0) {
			xmlChar *v = attr ? xmlGetProp(c, BAD_CAST attr) : NULL;
			int ok = !attr || (v && strcmp((const char *)v, value) == 0);

			xmlFree(v);
			if (ok)
				return c;
		}
		if ((r = find_named(c, name, attr, value)))
			return r;
	}
	return NULL;
}

/* The first element NAME (a QTI 2.1 name) below N whose ATTR is VALUE. */
static xmlNode *find(xmlNode *n, const char *name, const char *attr, const char *value)
{
	return find_named(n, v3_name(name, 1), attr, value);
}

static char *prop(const xmlNode *n, const char *name)
{
	return n ? (char *)xmlGetProp(n, BAD_CAST v3_name(name, 0)) : NULL;
}

/* ---- the manifest ------------------------------------------------------- */

struct resource {
	char *id, *type, *href;
	char **files, **deps;
	size_t nfiles, ndeps;
};

static struct resource *res;
static size_t nres;

static char *unescape(const char *href)
{
	return xmlURIUnescapeString(href, 0, NULL);
}

static const struct resource *find_resource(const char *id)
{
	size_t i;

	for (i = 0; i < nres; i++)
		if (strcmp(res[i].id, id) == 0)
			return &res[i];
	return NULL;
}

static void check_manifest(void)
{
	struct entry *m = find_entry("imsmanifest.xml");
	xmlDocPtr doc;
	xmlNode *root, *rs, *r, *c;
	size_t i, j, ntests = 0;

	if (!m) {
		problem("no imsmanifest.xml");
		return;
	}
	m->listed = 1;
	doc = parse(m);
	if (!doc)
		return;
	validate(doc, cp_schema, "imsmanifest.xml");
	root = xmlDocGetRootElement(doc);
	if (!is(root, "manifest", CP_NS))
		problem("imsmanifest.xml: the root is not an IMS CP 1.1 manifest");
	c = child(child(root, "metadata", CP_NS), "schema", CP_NS);
	{
		xmlChar *s = c ? xmlNodeGetContent(c) : NULL;

		if (!s || strcmp((const char *)s, PKG_SCHEMA) != 0)
			problem("imsmanifest.xml: metadata/schema is not '%s'", PKG_SCHEMA);
		xmlFree(s);
	}
	rs = child(root, "resources", CP_NS);
	for (r = rs ? rs->children : NULL; r; r = r->next) {
		struct resource *x;

		if (!is(r, "resource", CP_NS))
			continue;
		res = realloc(res, (nres + 1) * sizeof(*res));
		x = &res[nres++];
		memset(x, 0, sizeof(*x));
		x->id = prop(r, "identifier");
		x->type = prop(r, "type");
		x->href = prop(r, "href");
		for (c = r->children; c; c = c->next) {
			char *v;

			if (is(c, "file", CP_NS) && (v = prop(c, "href"))) {
				x->files = realloc(x->files, (x->nfiles + 1) * sizeof(char *));
				x->files[x->nfiles++] = unescape(v);
				xmlFree(v);
			} else if (is(c, "dependency", CP_NS) && (v = prop(c, "identifierref"))) {
				x->deps = realloc(x->deps, (x->ndeps + 1) * sizeof(char *));
				x->deps[x->ndeps++] = strdup(v);
				xmlFree(v);
			}
		}
		if (!x->id || !x->type || !x->href) {
			problem("imsmanifest.xml: a resource lacks identifier, type or href");
			nres--;
		}
	}
	for (i = 0; i < nres; i++) {
		char *href = unescape(res[i].href);
		int own = 0;

		for (j = 0; j < res[i].nfiles; j++) {
			struct entry *e = find_entry(res[i].files[j]);

			if (!e)
				problem("resource '%s' lists '%s', which is not in the zip", res[i].id,
					res[i].files[j]);
			else
				e->listed = 1;
			own |= strcmp(res[i].files[j], href) == 0;
		}
		if (!own)
			problem("resource '%s' does not list its own href '%s' as a file", res[i].id, href);
		for (j = 0; j < res[i].ndeps; j++)
			if (!find_resource(res[i].deps[j]))
				problem("resource '%s' depends on '%s', which does not exist", res[i].id,
					res[i].deps[j]);
		if (strcmp(res[i].type, TEST_TYPE) == 0) {
			ntests++;
			for (j = 0; j < nres; j++) {
				size_t k;
				int found = 0;

				if (strcmp(res[j].type, ITEM_TYPE) != 0)
					continue;
				for (k = 0; k < res[i].ndeps; k++)
					found |= strcmp(res[i].deps[k], res[j].id) == 0;
				if (!found)
					problem("the test does not depend on item '%s'", res[j].id);
			}
		} else if (strcmp(res[i].type, ITEM_TYPE) != 0 &&
			   strcmp(res[i].type, "webcontent") != 0) {
			problem("resource '%s' has the unexpected type '%s'", res[i].id, res[i].type);
		}
		xmlFree(href);
	}
	if (ntests != 1)
		problem("the manifest has %zu test resources, not 1", ntests);
	for (i = 0; i < nentries; i++)
		if (!entries[i].listed)
			problem("entry '%s' is not listed in the manifest", entries[i].name);
	xmlFreeDoc(doc);
}

/* Validates every item and test the manifest names. */
static void check_qti_files(void)
{
	size_t i;

	for (i = 0; i < nres; i++) {
		struct entry *e;
		xmlDocPtr d;
		char *href;

		if (strcmp(res[i].type, "webcontent") == 0)
			continue;
		href = unescape(res[i].href);
		e = find_entry(href);
		xmlFree(href);
		if (!e)
			continue;
		d = parse(e);
		if (d)
			validate(d, qti_schema, e->name);
		xmlFreeDoc(d);
	}
}

/* ---- the keys ----------------------------------------------------------- */

struct strs {
	char **v;
	size_t n;
};

static void strs_add(struct strs *s, const char *v)
{
	s->v = realloc(s->v, (s->n + 1) * sizeof(char *));
	s->v[s->n++] = strdup(v);
}

static void strs_free(struct strs *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Equal as sets (sorted, duplicates kept). */
static int strs_equal(struct strs *a, struct strs *b)
{
	size_t i;

	if (a->n != b->n)
		return 0;
	if (a->n)
		qsort(a->v, a->n, sizeof(char *), cmp_str);
	if (b->n)
		qsort(b->v, b->n, sizeof(char *), cmp_str);
	for (i = 0; i < a->n; i++)
		if (strcmp(a->v[i], b->v[i]) != 0)
			return 0;
	return 1;
}

static void strs_join(struct qb_buf *b, const struct strs *s)
{
	size_t i;

	qb_buf_clear(b);
	for (i = 0; i < s->n; i++)
		qb_buf_printf(b, "%s'%s'", i ? ", " : "", s->v[i]);
	if (!s->n)
		qb_buf_adds(b, "nothing");
}

static void values(struct strs *out, xmlNode *parent)
{
	xmlNode *c;

	for (c = parent ? parent->children : NULL; c; c = c->next) {
		if (is(c, "value", QTI_NS)) {
			xmlChar *v = xmlNodeGetContent(c);

			strs_add(out, (const char *)v);
			xmlFree(v);
		}
	}
}

/* Plain text of an item's rich content, the way qb_text_plain reads the
 * bank: math as its TeX (without the \( \) delimiters), img as its alt. */
static void item_plain(struct qb_buf *b, const xmlNode *n)
{
	const xmlNode *c;

	for (c = n->children; c; c = c->next) {
		if (c->type == XML_TEXT_NODE) {
			qb_buf_adds(b, (const char *)c->content);
		} else if (c->type == XML_ELEMENT_NODE && strcmp((const char *)c->name, "img") == 0) {
			char *alt = prop(c, "alt");

			qb_buf_printf(b, " %s ", alt ? alt : "");
			xmlFree(alt);
		} else if (c->type == XML_ELEMENT_NODE) {
			char *cls = prop(c, "class");
			size_t start = b->len;

			item_plain(b, c);
			if (cls && strcmp(cls, "math") == 0 && b->len >= start + 4) {
				memmove(b->ptr + start, b->ptr + start + 2, b->len - start - 4);
				b->len -= 4;
				b->ptr[b->len] = '\0';
			}
			xmlFree(cls);
		}
	}
}

static char *norm_item(const xmlNode *n)
{
	struct qb_buf p = QB_BUF_INIT, o = QB_BUF_INIT;

	if (n)
		item_plain(&p, n);
	qb_text_normalize(&o, p.ptr ? p.ptr : "", p.len);
	qb_buf_dispose(&p);
	return o.ptr ? qb_buf_detach(&o) : strdup("");
}

static char *norm_bank(const xmlNode *n)
{
	struct qb_buf o = QB_BUF_INIT;

	if (n)
		qb_text_norm_node(&o, n);
	return o.ptr ? qb_buf_detach(&o) : strdup("");
}

static void expect_values(const struct qb_question *q, struct strs *want, xmlNode *item)
{
	size_t i;

	switch (q->type) {
	case QB_Q_SINGLE:
	case QB_Q_MULTIPLE:
		for (i = 0; i < q->noptions; i++) {
			if (!q->options[i].correct)
				continue;
			strs_add(want, q->options[i].id);
			if (q->type == QB_Q_SINGLE)
				break;
		}
		break;
	case QB_Q_TRUEFALSE:
		if (q->nanswers)
			strs_add(want, strcmp(q->answers[0].value, "true") == 0 ||
					       strcmp(q->answers[0].value, "1") == 0 ? "true" : "false");
		break;
	case QB_Q_SHORT:
		/* every accepted answer, once, in bank order */
		for (i = 0; i < q->nanswers; i++) {
			size_t j;

			for (j = 0; j < i && strcmp(q->answers[j].value, q->answers[i].value) != 0; j++)
				;
			if (j == i)
				strs_add(want, q->answers[i].value);
		}
		break;
	case QB_Q_NUMERIC:
		if (q->nanswers)
			strs_add(want, q->answers[0].value);
		break;
	case QB_Q_MATCHING:
		/* compared by text: premise and response of every pair */
		for (i = 0; i < q->npairs; i++) {
			char *p = norm_bank(q->pairs[i].premise), *r = norm_bank(q->pairs[i].response);
			struct qb_buf b = QB_BUF_INIT;

			qb_buf_printf(&b, "%s => %s", p, r);
			strs_add(want, b.ptr);
			qb_buf_dispose(&b);
			free(p);
			free(r);
		}
		break;
	default:
		break;
	}
	(void)item;
}

/* Turns "P1 R2" values into "premise text => response text". */
static void pairs_as_text(struct strs *got, xmlNode *item)
{
	size_t i;

	for (i = 0; i < got->n; i++) {
		char a[64], b[64];
		xmlNode *p, *r;
		struct qb_buf t = QB_BUF_INIT;
		char *pt, *rt;

		if (sscanf(got->v[i], "%63s %63s", a, b) != 2)
			continue;
		p = find(item, "simpleAssociableChoice", "identifier", a);
		r = find(item, "simpleAssociableChoice", "identifier", b);
		pt = norm_item(p);
		rt = norm_item(r);
		qb_buf_printf(&t, "%s => %s", pt, rt);
		free(got->v[i]);
		got->v[i] = qb_buf_detach(&t);
		free(pt);
		free(rt);
	}
}

static int near(double a, double b)
{
	return fabs(a - b) <= 1e-9 * (fabs(a) + fabs(b) + 1);
}

static void check_details(const struct qb_question *q, xmlNode *item, struct strs *got)
{
	xmlNode *score = find(item, "outcomeDeclaration", "identifier", "SCORE");
	char *max = prop(score, "normalMaximum");
	size_t i;

	if (!max || !near(strtod(max, NULL), q->points_value))
		problem("item '%s': SCORE's normalMaximum is %s, the question is worth %g", q->id,
			max ? max : "missing", q->points_value);
	xmlFree(max);
	if (qb_qtype_is_choice(q->type)) {
		struct strs ids = { NULL, 0 };
		xmlNode *c = find(item, "choiceInteraction", NULL, NULL);

		for (c = c ? c->children : NULL; c; c = c->next) {
			char *id = is(c, "simpleChoice", QTI_NS) ? prop(c, "identifier") : NULL;

			if (id)
				strs_add(&ids, id);
			xmlFree(id);
		}
		if (ids.n != q->noptions)
			problem("item '%s' has %zu choices, the question %zu options", q->id, ids.n,
				q->noptions);
		for (i = 0; i < ids.n && i < q->noptions; i++)
			if (strcmp(ids.v[i], q->options[i].id) != 0)
				problem("item '%s': choice %zu is '%s', the option's id is '%s'", q->id,
					i + 1, ids.v[i], q->options[i].id);
		strs_free(&ids);
	}
	if (q->type == QB_Q_SHORT) {
		struct strs keys = { NULL, 0 }, want = { NULL, 0 };
		xmlNode *m = find(item, "mapping", NULL, NULL), *c;

		for (c = m ? m->children : NULL; c; c = c->next) {
			char *k = is(c, "mapEntry", QTI_NS) ? prop(c, "mapKey") : NULL;
			char *cs = k ? prop(c, "caseSensitive") : NULL;

			if (k)
				strs_add(&keys, k);
			if (k && (!cs || strcmp(cs, q->case_sensitive ? "true" : "false") != 0))
				problem("item '%s': mapEntry '%s' has caseSensitive=%s", q->id, k,
					cs ? cs : "(none)");
			xmlFree(k);
			xmlFree(cs);
		}
		for (i = 0; i < q->nanswers; i++) {
			size_t j;
			int dup = 0;

			for (j = 0; j < i; j++)
				dup |= strcmp(q->answers[i].value, q->answers[j].value) == 0;
			if (!dup)
				strs_add(&want, q->answers[i].value);
		}
		if (!strs_equal(&keys, &want))
			problem("item '%s': the mapping's keys are not the accepted answers", q->id);
		strs_free(&keys);
		strs_free(&want);
	}
	if (q->type == QB_Q_NUMERIC) {
		xmlNode *eq = find(item, "equal", NULL, NULL);
		char *mode = prop(eq, "toleranceMode"), *tol = prop(eq, "tolerance");
		double want = q->nanswers && q->answers[0].tolerance ? strtod(q->answers[0].tolerance, NULL) : 0;

		if (!eq)
			problem("item '%s' has no <equal> rule", q->id);
		else if (want > 0 && (!mode || strcmp(mode, "absolute") != 0 || !tol ||
				      !near(strtod(tol, NULL), want)))
			problem("item '%s': tolerance %s (%s), the answer allows %g", q->id,
				tol ? tol : "none", mode ? mode : "exact", want);
		else if (want == 0 && mode && strcmp(mode, "exact") != 0)
			problem("item '%s': toleranceMode %s for an exact answer", q->id, mode);
		xmlFree(mode);
		xmlFree(tol);
		if (got->n == 1 && q->nanswers && near(strtod(got->v[0], NULL), strtod(q->answers[0].value, NULL))) {
			free(got->v[0]);
			got->v[0] = strdup(q->answers[0].value);
		}
	}
}

static size_t nmatched;

static void check_question(const struct qb_question *q)
{
	const struct resource *r = find_resource(q->id);
	struct strs got = { NULL, 0 }, want = { NULL, 0 };
	struct qb_buf a = QB_BUF_INIT, b = QB_BUF_INIT;
	struct entry *e;
	xmlDocPtr doc;
	xmlNode *root, *decl;
	char *href, *id;
	int before = failures;

	if (!r || strcmp(r->type, ITEM_TYPE) != 0) {
		problem("question '%s' has no item resource", q->id);
		return;
	}
	href = unescape(r->href);
	e = find_entry(href);
	xmlFree(href);
	if (!e || !(doc = parse(e))) {
		problem("question '%s': its item file is missing", q->id);
		return;
	}
	root = xmlDocGetRootElement(doc);
	id = prop(root, "identifier");
	if (!is(root, "assessmentItem", QTI_NS) || !id || strcmp(id, q->id) != 0)
		problem("%s: not the assessmentItem '%s'", e->name, q->id);
	xmlFree(id);
	decl = find(root, "responseDeclaration", "identifier", "RESPONSE");
	values(&got, child(decl, "correctResponse", QTI_NS));
	if (q->type == QB_Q_MATCHING)
		pairs_as_text(&got, root);
	expect_values(q, &want, root);
	check_details(q, root, &got);
	if (!strs_equal(&got, &want)) {
		strs_join(&a, &got);
		strs_join(&b, &want);
		problem("item '%s': correctResponse is %s, the bank's key is %s", q->id, a.ptr, b.ptr);
	}
	if (failures == before)
		nmatched++;
	strs_free(&got);
	strs_free(&want);
	qb_buf_dispose(&a);
	qb_buf_dispose(&b);
	xmlFreeDoc(doc);
}

static void reader_diag(void *ctx, const char *file, unsigned long line, enum qb_rule_key rule,
			const char *question, const char *message)
{
	(void)ctx;
	(void)question;
	problem("%s:%lu: the bank does not read cleanly: %s [%s]", file, line, message,
		qb_rules[rule].id);
}

static size_t check_bank(const char *path, xmlSchemaPtr bank_schema)
{
	struct qb_reader_opts ro = { bank_schema, 0, reader_diag, NULL };
	struct qb_reader *r = NULL;
	struct qb_error err = { 0, "" };
	const struct qb_question *q;
	size_t n = 0;
	int rc;

	if (qb_reader_open(&r, path, &ro, &err)) {
		problem("%s", err.msg);
		return 0;
	}
	while ((rc = qb_reader_next(r, &q)) == 1) {
		if (q->schema_invalid || !q->id)
			continue;
		check_question(q);
		n++;
	}
	qb_reader_free(r);
	return n;
}

/* ---- main --------------------------------------------------------------- */

/* Forgets the package just checked, for the next one of the same run. */
static void package_reset(void)
{
	size_t i, j;

	for (i = 0; i < nentries; i++) {
		free(entries[i].name);
		free(entries[i].data);
	}
	free(entries);
	entries = NULL;
	nentries = 0;
	for (i = 0; i < nres; i++) {
		for (j = 0; j < res[i].nfiles; j++)
			xmlFree(res[i].files[j]);
		for (j = 0; j < res[i].ndeps; j++)
			free(res[i].deps[j]);
		free(res[i].files);
		free(res[i].deps);
		xmlFree(res[i].id);
		xmlFree(res[i].type);
		xmlFree(res[i].href);
	}
	free(res);
	res = NULL;
	nres = 0;
	nmatched = 0;
	nvalidated = 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: qti_check [--qti30] [--schemas DIR] [--extract DIR] PACKAGE.zip BANK.xml... [+ PACKAGE.zip BANK.xml...]...\n"
			"       qti_check [--qti30] --schemas DIR --validate qti|cp FILE...\n");
	return 2;
}

int main(int argc, char **argv)
{
	const char *schemas = NULL, *extract_dir = NULL, *kind = NULL;
	xmlSchemaPtr bank_schema = NULL;
	struct qb_error err = { 0, "" };
	int a = 1;

	LIBXML_TEST_VERSION
	/* libarchive hands out entry names through the locale's charset:
	 * take UTF-8 ones as they are */
	if (!setlocale(LC_CTYPE, "C.UTF-8"))
		setlocale(LC_CTYPE, "");
	/* offline: no schema import or document may come from the network */
	xmlSetExternalEntityLoader(xmlNoNetExternalEntityLoader);
	for (; a < argc && strncmp(argv[a], "--", 2) == 0; a++) {
		if (strcmp(argv[a], "--qti30") == 0) {
			v3 = 1;
			QTI_NS = "http://www.imsglobal.org/xsd/imsqtiasi_v3p0";
			CP_NS = "http://www.imsglobal.org/xsd/qti/qtiv3p0/imscp_v1p1";
			PKG_SCHEMA = "QTI Package";
			TEST_TYPE = "imsqti_test_xmlv3p0";
			ITEM_TYPE = "imsqti_item_xmlv3p0";
			continue;
		}
		if (strcmp(argv[a], "--schemas") == 0 && a + 1 < argc)
			schemas = argv[++a];
		else if (strcmp(argv[a], "--extract") == 0 && a + 1 < argc)
			extract_dir = argv[++a];
		else if (strcmp(argv[a], "--validate") == 0 && a + 1 < argc)
			kind = argv[++a];
		else
			return usage();
	}
	if (schemas) {
		qti_schema = load_schema(schemas, v3 ? "qti30/imsqti_asiv3p0p1_v1p0.xsd"
						       : "qti21/imsqti_v2p1.xsd");
		cp_schema = load_schema(schemas, v3 ? "qti30/imsqtiv3p0_imscpv1p2_v1p0.xsd"
						    : "imscp/imscp_v1p1.xsd");
		if (!qti_schema || !cp_schema)
			return 2;
	}
	if (kind) {
		if (!schemas || a >= argc || (strcmp(kind, "qti") && strcmp(kind, "cp")))
			return usage();
		/* several files share one load of the schemas (QTI 3.0's takes seconds) */
		for (; a < argc; a++) {
			xmlDocPtr d = xmlReadFile(argv[a], NULL, XML_PARSE_NONET);
			int before = failures;

			pkg_name = argv[a];
			if (!d) {
				problem("not well-formed");
				continue;
			}
			validate(d, strcmp(kind, "qti") == 0 ? qti_schema : cp_schema, argv[a]);
			xmlFreeDoc(d);
			if (failures == before)
				printf("%s validates\n", argv[a]);
		}
		return failures ? 1 : 0;
	}
	if (a >= argc)
		return usage();
	if (qb_schema_load(&bank_schema, &err)) {
		fprintf(stderr, "qti_check: %s\n", err.msg);
		return 2;
	}
	/* PACKAGE BANK... [+ PACKAGE BANK...]...: one load of the schemas for all */
	while (a < argc) {
		size_t nquestions = 0, nitems = 0, nbanks = 0, i;

		pkg_name = argv[a++];
		if (read_zip(pkg_name) == 0) {
			if (extract_dir && extract(extract_dir))
				return 2;
			check_manifest();
			if (schemas)
				check_qti_files();
			for (; a < argc && strcmp(argv[a], "+") != 0; a++, nbanks++)
				nquestions += check_bank(argv[a], bank_schema);
			for (i = 0; i < nres; i++)
				nitems += strcmp(res[i].type, ITEM_TYPE) == 0;
			if (nbanks && nitems != nquestions)
				problem("%zu items for %zu questions", nitems, nquestions);
			printf("%s: %zu entries, %d files validated%s, %zu of %zu items match the bank's key\n",
			       pkg_name, nentries, nvalidated, schemas ? "" : " (no schemas given)", nmatched,
			       nquestions);
		}
		for (; a < argc && strcmp(argv[a], "+") != 0; a++)
			;
		a += a < argc;
		package_reset();
	}
	qb_schema_free(bank_schema);
	return failures ? 1 : 0;
}
