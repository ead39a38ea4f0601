/* memmem */
#define _GNU_SOURCE
#include "mathml.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <libxml/parser.h>
#include <libxml/xmlreader.h>

#include "core/array.h"
#include "core/buf.h"
#include "core/map.h"
#include "richtext.h"
#include "tempfile.h"
#include "text.h"

#define MATHML_NS "http://www.w3.org/1998/Math/MathML"
/* the reader's own options (reader.c): no network, no DTD, no entity
 * expansion, CDATA as text, real line numbers */
#define SCAN_OPTIONS (XML_PARSE_NONET | XML_PARSE_NOCDATA | XML_PARSE_BIG_LINES)

struct formula {
	size_t key;            /* arena offset: 'b' or 'i' (display or inline), then the TeX */
	size_t qid;            /* arena offset of the question id, or SIZE_MAX */
	unsigned long line;
	const xmlNode *ml;     /* pandoc's <math>, in m->out */
};

struct qb_mathml {
	char *pandoc;
	const char *path;      /* the file loaded, for messages */
	struct qb_buf arena;
	struct formula *f;
	size_t n, cap;
	struct qb_map map;
	xmlDocPtr out;         /* pandoc's output, parsed */
	struct qb_buf key;     /* scratch */
};

static const char *str(const struct qb_mathml *m, size_t off)
{
	return m->arena.ptr + off;
}

static uint64_t f_hash(void *ctx, size_t rec)
{
	const struct qb_mathml *m = ctx;
	const char *k = str(m, m->f[rec].key);

	return qb_hash(k, strlen(k));
}

static int f_same(void *ctx, size_t rec, const void *key)
{
	const struct qb_mathml *m = ctx;

	return strcmp(str(m, m->f[rec].key), key) == 0;
}

static const struct qb_map_ops f_ops = { f_hash, f_same };

int qb_mathml_new(struct qb_mathml **out, const char *pandoc)
{
	struct qb_mathml *m = calloc(1, sizeof(*m));

	*out = NULL;
	if (!m || !(m->pandoc = strdup(pandoc && pandoc[0] ? pandoc : "pandoc"))) {
		free(m);
		return QB_ENOMEM;
	}
	*out = m;
	return 0;
}

static void forget(struct qb_mathml *m)
{
	qb_buf_clear(&m->arena);
	m->n = 0;
	qb_map_dispose(&m->map);
	memset(&m->map, 0, sizeof(m->map));
	if (m->out)
		xmlFreeDoc(m->out);
	m->out = NULL;
}

void qb_mathml_free(struct qb_mathml *m)
{
	if (!m)
		return;
	forget(m);
	qb_buf_dispose(&m->arena);
	qb_buf_dispose(&m->key);
	free(m->f);
	free(m->pandoc);
	free(m);
}

/* The lookup key of math element N: its mode and its TeX, as the writer
 * will see them (the same richtext.h functions on the same markup). */
static int make_key(struct qb_buf *key, const xmlNode *n)
{
	qb_buf_clear(key);
	if (qb_buf_addc(key, qb_rich_is_display_math(n) ? 'b' : 'i') || qb_rich_text(key, n) ||
	    qb_buf_addc(key, '\0'))
		return QB_ENOMEM;
	key->len--;
	return 0;
}

static int add_formula(struct qb_mathml *m, const xmlNode *n, const char *qid, unsigned long line)
{
	struct formula *f;
	size_t at;

	if (make_key(&m->key, n))
		return QB_ENOMEM;
	if (qb_map_find(&m->map, qb_hash(m->key.ptr, m->key.len), &f_ops, m, m->key.ptr) != QB_MAP_NONE)
		return 0;
	if (QB_ARRAY_RESERVE(m->f, m->cap, m->n + 1))
		return QB_ENOMEM;
	f = &m->f[m->n];
	memset(f, 0, sizeof(*f));
	f->line = line;
	f->qid = SIZE_MAX;
	at = m->arena.len;
	if (qb_buf_add(&m->arena, m->key.ptr, m->key.len + 1))
		return QB_ENOMEM;
	f->key = at;
	if (qid) {
		f->qid = m->arena.len;
		if (qb_buf_add(&m->arena, qid, strlen(qid) + 1))
			return QB_ENOMEM;
	}
	if (qb_map_insert(&m->map, qb_hash(m->key.ptr, m->key.len), m->n, &f_ops, m))
		return QB_ENOMEM;
	m->n++;
	return 0;
}

/* 1 unless the bytes of PATH certainly hold no "<math": a byte search
 * costs a fraction of the XML parse that collect() makes, which most banks
 * (no math at all) are thereby spared. */
static int may_have_math(const char *path)
{
	/* read in chunks, not mapped: a mapping of the whole bank counts in
	 * the export's peak RSS (1.7 GB for a 1,000,000-question bank) */
	char buf[65536 + 4];
	size_t keep = 0, total;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC), found = 0;

	if (fd < 0)
		return 1;
	for (;;) {
		n = read(fd, buf + keep, sizeof(buf) - keep);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			found = 1;     /* cannot tell: scan it */
		if (n <= 0)
			break;
		total = keep + (size_t)n;
		if (memmem(buf, total, "<math", 5)) {
			found = 1;
			break;
		}
		/* the last 4 bytes may begin a "<math" that the next read ends */
		keep = total < 4 ? total : 4;
		memmove(buf, buf + total - keep, keep);
	}
	close(fd);
	return found;
}

/* Every math element of PATH, first occurrence of each formula. The
 * reader has already judged the file; what it could not read is its
 * finding, so a file this scan cannot read simply yields what it got. */
static int collect(struct qb_mathml *m, const char *path)
{
	xmlTextReaderPtr r;
	xmlChar *qid = NULL;
	int rc = 0, more;

	if (!may_have_math(path))
		return 0;
	r = xmlReaderForFile(path, NULL, SCAN_OPTIONS);
	if (!r)
		return 0;
	more = xmlTextReaderRead(r);
	while (more == 1 && !rc) {
		const xmlChar *name = xmlTextReaderConstLocalName(r);

		if (xmlTextReaderNodeType(r) == XML_READER_TYPE_ELEMENT && name) {
			if (strcmp((const char *)name, "question") == 0) {
				xmlFree(qid);
				qid = xmlTextReaderGetAttribute(r, BAD_CAST "id");
			} else if (strcmp((const char *)name, "math") == 0) {
				xmlNodePtr n = xmlTextReaderExpand(r);

				if (n)
					rc = add_formula(m, n, (const char *)qid, (unsigned long)xmlGetLineNo(n));
				more = xmlTextReaderNext(r);
				continue;
			}
		}
		more = xmlTextReaderRead(r);
	}
	xmlFree(qid);
	xmlFreeTextReader(r);
	return rc;
}

/* Pandoc's native format: a list of paragraphs, each one Math element; the
 * TeX as a Haskell string literal. Native needs no API version, unlike
 * pandoc's JSON, and no TeX can break out of its string. */
static int native_doc(const struct qb_mathml *m, struct qb_buf *b)
{
	size_t i;
	const char *s;
	int rc = qb_buf_addc(b, '[');

	for (i = 0; i < m->n && !rc; i++) {
		s = str(m, m->f[i].key);
		rc = qb_buf_adds(b, i ? "\n,Para [Math " : "Para [Math ") ||
		     qb_buf_adds(b, s[0] == 'b' ? "DisplayMath \"" : "InlineMath \"");
		for (s++; *s && !rc; s++) {
			unsigned char c = (unsigned char)*s;

			if (c == '\\' || c == '"')
				rc = qb_buf_addc(b, '\\') || qb_buf_addc(b, (char)c);
			else if (c < 0x20 || c == 0x7f)
				/* \& ends the escape, so a digit after it stays a digit */
				rc = qb_buf_printf(b, "\\%u\\&", c);
			else
				rc = qb_buf_addc(b, (char)c);
		}
		if (!rc)
			rc = qb_buf_adds(b, "\"]");
	}
	if (!rc)
		rc = qb_buf_adds(b, "]\n");
	return rc ? QB_ENOMEM : 0;
}

static int read_fd(int fd, struct qb_buf *b)
{
	char buf[65536];
	ssize_t n;

	if (lseek(fd, 0, SEEK_SET) < 0)
		return QB_EIO;
	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return QB_EIO;
		}
		if (qb_buf_add(b, buf, (size_t)n))
			return QB_ENOMEM;
	}
	return 0;
}

static int temp(struct qb_tempfile **t, int *fd)
{
	const char *dir = getenv("TMPDIR");
	struct qb_buf p = QB_BUF_INIT;
	int rc;

	if (qb_buf_printf(&p, "%s/qbank-math-XXXXXX", dir && dir[0] ? dir : "/tmp"))
		return QB_ENOMEM;
	rc = qb_tempfile_create(t, fd, p.ptr);
	qb_buf_dispose(&p);
	return rc;
}

/* Runs pandoc on IN; its standard output into OUT, its messages into ERRS. */
static int run_pandoc(struct qb_mathml *m, const struct qb_buf *in, struct qb_buf *out,
		      struct qb_buf *errs, struct qb_error *err)
{
	char *argv[] = { m->pandoc, "-f", "native", "-t", "html", "--mathml", "--wrap=none", NULL };
	struct qb_tempfile *tin = NULL, *tout = NULL, *terr = NULL, *child = NULL;
	int fin = -1, fout = -1, ferr = -1, status = 0, rc;
	posix_spawn_file_actions_t fa;
	int have_fa = 0;
	pid_t pid;

	rc = temp(&tin, &fin);
	if (!rc)
		rc = temp(&tout, &fout);
	if (!rc)
		rc = temp(&terr, &ferr);
	if (!rc && (write(fin, in->ptr, in->len) != (ssize_t)in->len || lseek(fin, 0, SEEK_SET) < 0))
		rc = QB_EIO;
	if (!rc && posix_spawn_file_actions_init(&fa) != 0)
		rc = QB_ENOMEM;
	if (!rc) {
		have_fa = 1;
		if (posix_spawn_file_actions_adddup2(&fa, fin, 0) || posix_spawn_file_actions_adddup2(&fa, fout, 1) ||
		    posix_spawn_file_actions_adddup2(&fa, ferr, 2))
			rc = QB_ENOMEM;
	}
	if (rc) {
		qb_error_set(err, rc, "math: cannot prepare pandoc's input: %s", qb_error_str(rc));
		goto done;
	}
	rc = qb_tempfile_spawn(&child, &pid, m->pandoc, argv, NULL, &fa);
	if (rc == QB_EIO && errno == ENOENT) {
		rc = QB_ENOTFOUND;
	} else if (!rc) {
		rc = qb_tempfile_wait(child, &status);
		child = NULL;
		if (!rc && WIFEXITED(status) && WEXITSTATUS(status) == 127)
			rc = QB_ENOTFOUND;
	}
	if (rc == QB_ENOTFOUND) {
		qb_error_set(err, rc, "%s: the bank's math is converted to MathML by pandoc, which "
			     "cannot be run ('%s' not found; tools/setup.sh installs it, or set "
			     "QBANK_PANDOC): no package was written, rather than one with raw TeX",
			     m->path, m->pandoc);
		goto done;
	}
	if (rc) {
		qb_error_set(err, rc, "%s: cannot run pandoc for the math: %s", m->path, qb_error_str(rc));
		goto done;
	}
	rc = read_fd(fout, out);
	if (!rc)
		rc = read_fd(ferr, errs);
	if (!rc && !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
		rc = QB_EIO;
		qb_error_set(err, rc, "%s: pandoc failed on the bank's math (status %d): %.300s", m->path,
			     WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status),
			     errs->ptr ? errs->ptr : "");
	} else if (rc) {
		qb_error_set(err, rc, "%s: cannot read pandoc's output: %s", m->path, qb_error_str(rc));
	}
done:
	if (have_fa)
		posix_spawn_file_actions_destroy(&fa);
	if (fin >= 0)
		close(fin);
	if (fout >= 0)
		close(fout);
	if (ferr >= 0)
		close(ferr);
	qb_tempfile_delete(child);
	qb_tempfile_delete(tin);
	qb_tempfile_delete(tout);
	qb_tempfile_delete(terr);
	return rc;
}

/* Pandoc's reason for its K-th "Could not convert" warning (0-based): the
 * line after the caret under the TeX, e.g. "unexpected eof". */
static void reason(const struct qb_buf *errs, size_t k, char *out, size_t size)
{
	const char *p = errs->ptr ? errs->ptr : "", *caret, *end;

	out[0] = '\0';
	for (;;) {
		p = strstr(p, "Could not convert TeX math");
		if (!p)
			return;
		if (k-- == 0)
			break;
		p++;
	}
	caret = strstr(p, "^\n");
	if (!caret)
		return;
	caret += 2;
	while (*caret == ' ')
		caret++;
	end = strchr(caret, '\n');
	snprintf(out, size, "%.*s", (int)(end ? end - caret : (ptrdiff_t)strlen(caret)), caret);
}

/* Matches pandoc's paragraphs to the formulas, in order: a <math> is a
 * conversion, anything else (pandoc's TeX fallback) a formula it could
 * not convert. */
static int match_output(struct qb_mathml *m, const struct qb_buf *out, const struct qb_buf *errs,
			struct qb_error *err)
{
	struct qb_buf doc = QB_BUF_INIT;
	xmlNode *root, *p, *c;
	size_t i = 0, failed = 0;
	char why[200];
	int rc = 0;

	if (qb_buf_adds(&doc, "<r>") || qb_buf_add(&doc, out->ptr ? out->ptr : "", out->len) ||
	    qb_buf_adds(&doc, "</r>")) {
		qb_buf_dispose(&doc);
		return QB_ENOMEM;
	}
	m->out = xmlReadMemory(doc.ptr, (int)doc.len, "pandoc.html", "UTF-8",
			       XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
	qb_buf_dispose(&doc);
	root = m->out ? xmlDocGetRootElement(m->out) : NULL;
	for (p = root ? root->children : NULL; p && !rc; p = p->next) {
		if (p->type != XML_ELEMENT_NODE)
			continue;
		for (c = p->children; c && c->type != XML_ELEMENT_NODE; c = c->next)
			;
		if (i >= m->n)
			break;
		if (c && strcmp((const char *)c->name, "math") == 0) {
			m->f[i++].ml = c;
			continue;
		}
		reason(errs, failed++, why, sizeof(why));
		rc = QB_EREFUSED;
		qb_error_set(err, rc, "%s:%lu: question '%s': pandoc cannot convert the TeX '%s' to "
			     "MathML%s%s; fix the formula (the package carries MathML, not TeX)", m->path,
			     m->f[i].line, m->f[i].qid != SIZE_MAX ? str(m, m->f[i].qid) : "?",
			     str(m, m->f[i].key) + 1, why[0] ? ": " : "", why);
	}
	if (!rc && i != m->n) {
		rc = QB_EIO;
		qb_error_set(err, rc, "%s: pandoc returned %zu formulas for %zu", m->path, i, m->n);
	}
	return rc;
}

int qb_mathml_load_file(struct qb_mathml *m, const char *path, struct qb_error *err)
{
	struct qb_buf in = QB_BUF_INIT, out = QB_BUF_INIT, errs = QB_BUF_INIT;
	int rc;

	forget(m);
	m->path = path;
	rc = collect(m, path);
	if (!rc && m->n == 0)
		return 0;
	if (!rc)
		rc = native_doc(m, &in);
	if (rc) {
		qb_error_set(err, rc, "%s: math: %s", path, qb_error_str(rc));
		goto done;
	}
	rc = run_pandoc(m, &in, &out, &errs, err);
	if (!rc)
		rc = match_output(m, &out, &errs, err);
done:
	qb_buf_dispose(&in);
	qb_buf_dispose(&out);
	qb_buf_dispose(&errs);
	return rc;
}

/* Copies pandoc's MathML element N (and everything below it) into W, with
 * the MathML namespace as the default on the outermost element. */
static int copy(xmlTextWriterPtr w, const xmlNode *n, int outer)
{
	const xmlAttr *a;
	const xmlNode *c;

	if (xmlTextWriterStartElement(w, n->name) < 0)
		return QB_EIO;
	if (outer && xmlTextWriterWriteAttribute(w, BAD_CAST "xmlns", BAD_CAST MATHML_NS) < 0)
		return QB_EIO;
	for (a = n->properties; a; a = a->next) {
		xmlChar *v = xmlNodeListGetString(n->doc, a->children, 1);
		int r = xmlTextWriterWriteAttribute(w, a->name, v ? v : BAD_CAST "");

		xmlFree(v);
		if (r < 0)
			return QB_EIO;
	}
	for (c = n->children; c; c = c->next) {
		if (c->type == XML_ELEMENT_NODE) {
			if (copy(w, c, 0))
				return QB_EIO;
		} else if ((c->type == XML_TEXT_NODE || c->type == XML_CDATA_SECTION_NODE) && c->content) {
			if (xmlTextWriterWriteString(w, c->content) < 0)
				return QB_EIO;
		}
	}
	return xmlTextWriterEndElement(w) < 0 ? QB_EIO : 0;
}

int qb_mathml_write(struct qb_mathml *m, xmlTextWriterPtr w, const xmlNode *n)
{
	size_t rec;

	if (make_key(&m->key, n))
		return QB_ENOMEM;
	rec = qb_map_find(&m->map, qb_hash(m->key.ptr, m->key.len), &f_ops, m, m->key.ptr);
	if (rec == QB_MAP_NONE)
		return QB_ENOTFOUND;
	if (!m->f[rec].ml)
		return QB_EREFUSED;    /* qb_mathml_load_file said why */
	return copy(w, m->f[rec].ml, 1);
}
