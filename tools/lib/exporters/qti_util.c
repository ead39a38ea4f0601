#include "qti_internal.h"

#include <errno.h>
#include <stdarg.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/uri.h>
#include <utf8proc.h>

#include "../core/array.h"
#include "../imgpath.h"
#include "../mathml.h"
#include "../text.h"

/* ---- writer ------------------------------------------------------------ */

/* The text is rendered by a writer of its own, whose one open element
 * makes libxml2 escape it as it would inside the item's element, and its
 * bytes are copied in: the element around it is then written by X itself
 * (qb_xw_start_inline). */
void qti_put_rich(struct qb_xw *x, const xmlNode *n, const struct qti_item_opts *o)
{
	if (x->rc || !n)
		return;
	qb_buf_clear(o->html);
	x->rc = qb_rich_html_render(o->render, o->html, n, &o->rich);
	if (!x->rc && o->html->len)
		qb_xw_raw(x, o->html->ptr, o->html->len);
}

int qti_math_write(void *ctx, xmlTextWriterPtr w, const xmlNode *n)
{
	return qb_mathml_write(ctx, w, n);
}

/* ---- numbers ------------------------------------------------------------ */

/* snprintf's %g follows LC_NUMERIC: turn a decimal comma back into a dot. */
static void c_locale_point(char *s)
{
	for (; *s; s++)
		if (*s == ',')
			*s = '.';
}

void qti_fmt_double(char out[40], double v)
{
	int prec;

	if (v == 0 || !isfinite(v)) {
		snprintf(out, 40, "0");
		return;
	}
	/* the shortest precision that reads back exactly (strtod and %g use
	 * the same locale, so compare before fixing the decimal point) */
	for (prec = 15; prec <= 17; prec++) {
		snprintf(out, 40, "%.*g", prec, v);
		if (strtod(out, NULL) == v)
			break;
	}
	c_locale_point(out);
}

int qti_parse_double(const char *s, double *out)
{
	const char *p = s;
	char *end;
	int digits = 0;

	/* Check the shape first: strtod would also take "inf", "0x1p3" and a
	 * locale's decimal comma, none of which is a bank number. */
	if (*p == '+' || *p == '-')
		p++;
	for (; *p >= '0' && *p <= '9'; p++)
		digits++;
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9'; p++)
			digits++;
	if (!digits)
		return -1;
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (!(*p >= '0' && *p <= '9'))
			return -1;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	if (*p)
		return -1;
	errno = 0;
	*out = strtod(s, &end);
	if (errno || *end || !isfinite(*out))
		return -1;
	return 0;
}

/* ---- names -------------------------------------------------------------- */

int qti_is_ncname(const char *s)
{
	return s && s[0] && xmlValidateNCName(BAD_CAST s, 0) == 0;
}

static int is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

int qti_is_language(const char *s)
{
	size_t n;
	int first = 1;

	if (!s)
		return 0;
	for (;;) {
		for (n = 0; s[n] && s[n] != '-'; n++)
			if (!is_alpha(s[n]) && (first || !is_digit(s[n])))
				return 0;
		if (n < 1 || n > 8)
			return 0;
		s += n;
		if (!*s)
			return 1;
		s++;
		first = 0;
	}
}

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

int qti_buf_add_collapsed(struct qb_buf *b, const char *s)
{
	int pending = 0, any = 0, rc = 0;
	size_t n;

	while (*s && !rc) {
		if (is_space(*s)) {
			pending = any;
			s++;
			continue;
		}
		/* a word at a time */
		for (n = 1; s[n] && !is_space(s[n]); n++)
			;
		if (pending)
			rc = qb_buf_addc(b, ' ');
		if (!rc)
			rc = qb_buf_add(b, s, n);
		s += n;
		pending = 0;
		any = 1;
	}
	return rc;
}

int qti_buf_add_uri(struct qb_buf *b, const char *path)
{
	xmlChar *e = xmlURIEscapeStr(BAD_CAST path, BAD_CAST "/");
	int rc;

	if (!e)
		return QB_ENOMEM;
	rc = qb_buf_adds(b, (const char *)e);
	xmlFree(e);
	return rc;
}

/* ---- media paths -------------------------------------------------------- */

int qti_media_src_norm(const char *src, struct qb_buf *norm)
{
	const char *p = src, *seg;
	size_t n, start = norm->len;

	for (; *p; p += n) {
		while (*p == '/')
			p++;
		seg = p;
		n = strcspn(seg, "/");
		if (n == 0 || (n == 1 && seg[0] == '.'))
			continue;
		if (n == 2 && seg[0] == '.' && seg[1] == '.')
			break;
		if ((norm->len > start && qb_buf_addc(norm, '/')) || qb_buf_add(norm, seg, n))
			return QB_ENOMEM;
	}
	if (*p || norm->len == start) {
		norm->len = start;
		if (norm->ptr)
			norm->ptr[start] = '\0';
		return QB_EREFUSED;
	}
	return 0;
}

/* ---- entry names ---------------------------------------------------------- */

/* 1 when byte C may stand in an entry name as it is: ASCII letters,
 * digits, '.', '-', '_' (and '/' between folders when SLASH). */
int qti_name_byte(unsigned char c, int slash)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '.' || c == '-' || c == '_' || (slash && c == '/');
}

/* Appends the first N bytes of S with every run of bytes that may not
 * stand in an entry name (a space, the bytes of a non-ASCII letter) made
 * one '_'. */
int qti_name_add_safe(struct qb_buf *b, const char *s, size_t n, int slash)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (qti_name_byte((unsigned char)s[i], slash)) {
			if (qb_buf_addc(b, s[i]))
				return QB_ENOMEM;
		} else if (i == 0 || qti_name_byte((unsigned char)s[i - 1], slash)) {
			if (qb_buf_addc(b, '_'))
				return QB_ENOMEM;
		}
	}
	return 0;
}

int qti_name_is_safe(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!qti_name_byte((unsigned char)s[i], 0))
			return 0;
	return 1;
}

/* ---- arena strings, keyed records, entry names, status ---------------------- */

int qti_arena_add(struct qb_buf *arena, const char *s, size_t len, size_t *off)
{
	*off = arena->len;
	if (qb_buf_add(arena, s, len) || qb_buf_addc(arena, '\0'))
		return QB_ENOMEM;
	return 0;
}

uint64_t qti_hash_str(const char *s)
{
	return qb_hash64(s, strlen(s));
}

static const char *keyed_str(const struct qti_keyed *k, size_t rec)
{
	size_t off;

	memcpy(&off, (const char *)k->base + rec * k->size + k->field, sizeof(off));
	return k->arena->ptr + off;
}

static uint64_t keyed_hash(void *ctx, size_t rec)
{
	return qti_hash_str(keyed_str(ctx, rec));
}

static int keyed_same(void *ctx, size_t rec, const void *key)
{
	return strcmp(keyed_str(ctx, rec), key) == 0;
}

const struct qb_map_ops qti_keyed_ops = { keyed_hash, keyed_same };

static uint64_t hashes_hash(void *ctx, size_t rec)
{
	return ((const struct qti_hashes *)ctx)->v[rec];
}

static int hashes_same(void *ctx, size_t rec, const void *key)
{
	return ((const struct qti_hashes *)ctx)->v[rec] == *(const uint64_t *)key;
}

static const struct qb_map_ops hashes_ops = { hashes_hash, hashes_same };

int qti_hashes_has(const struct qti_hashes *t, uint64_t key)
{
	return qb_map_find(&t->map, key, &hashes_ops, (void *)t, &key) != QB_MAP_NONE;
}

int qti_hashes_take(struct qti_hashes *t, uint64_t key)
{
	if (qti_hashes_has(t, key))
		return 1;
	if (QB_ARRAY_RESERVE_BIG(t->v, t->cap, t->n + 1))
		return QB_ENOMEM;
	t->v[t->n] = key;
	if (qb_map_insert(&t->map, key, t->n, &hashes_ops, t))
		return QB_ENOMEM;
	t->n++;
	return 0;
}

void qti_hashes_dispose(struct qti_hashes *t)
{
	qb_map_dispose(&t->map);
	qb_array_free(t->v, t->cap, sizeof(*t->v), QB_ARRAY_BIG);
	memset(t, 0, sizeof(*t));
}

int qti_names_take(struct qti_hashes *t, const char *name)
{
	utf8proc_uint8_t *f = NULL;
	utf8proc_ssize_t n = utf8proc_map((const utf8proc_uint8_t *)name, 0, &f,
					  UTF8PROC_NULLTERM | UTF8PROC_STABLE | UTF8PROC_COMPOSE |
					  UTF8PROC_CASEFOLD);
	uint64_t key = n < 0 ? qti_hash_str(name) : qb_hash64(f, (size_t)n);   /* not UTF-8: as it is */

	free(f);
	return qti_hashes_take(t, key);
}

void qti_fail(struct qti_status *s, int rc, const struct qb_error *e)
{
	if (s->failed)
		return;
	s->failed = rc;
	if (e && e->msg[0])
		s->failure = *e;
	else
		qb_error_set(&s->failure, rc, "%s: %s", s->target, qb_error_str(rc));
}

int qti_failed(const struct qti_status *s, struct qb_error *err)
{
	if (s->failed)
		*err = s->failure;
	return s->failed;
}

void qti_problem(struct qti_status *s, const struct qb_question *q, const char *fmt, ...)
{
	char what[768];
	va_list ap;

	if (s->nproblems++)
		return;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (q)
		qb_error_set(&s->problem, QB_EREFUSED, "%s:%lu: question '%s': %s", q->file, q->line,
			     q->id ? q->id : "?", what);
	else
		qb_error_set(&s->problem, QB_EREFUSED, "%s", what);
}

int qti_media_resolve(struct qti_status *s, const struct qb_question *q, const char *src,
		      char **real, struct qb_buf *norm)
{
	const char *why = NULL;
	char *resolved = NULL;
	int v = qb_img_path_check(q->file, src, &resolved, &why);

	*real = NULL;
	if (v < 0) {
		qti_fail(s, v, NULL);
		return v;
	}
	if (v != QB_IMG_OK || qti_media_src_norm(src, norm)) {
		qti_problem(s, q, "img src '%s' %s", src, v != QB_IMG_OK && why ? why : "names no file");
		free(resolved);
		return QB_EREFUSED;
	}
	*real = realpath(resolved, NULL);
	free(resolved);
	if (!*real) {
		qti_problem(s, q, "img src '%s': %s", src, strerror(errno));
		return QB_EREFUSED;
	}
	return 0;
}
