#include "text.h"

#include <stdlib.h>
#include <ctype.h>
#include <string.h>

#include <utf8proc.h>
#define XXH_INLINE_ALL
#include <xxhash.h>

#include "error.h"

static int is_xml_space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

const char *qb_decimal(char out[QB_DECIMAL_SIZE], unsigned long n)
{
	char *p = out + QB_DECIMAL_SIZE - 1;

	*p = '\0';
	do
		*--p = (char)('0' + n % 10);
	while (n /= 10);
	return p;
}

const char *qb_text_trim(const char *s, size_t *len)
{
	size_t n;

	while (is_xml_space((unsigned char)*s))
		s++;
	n = strlen(s);
	while (n > 0 && is_xml_space((unsigned char)s[n - 1]))
		n--;
	*len = n;
	return s;
}

size_t qb_text_stored_chars(const char *s, size_t len, size_t max, size_t *fit)
{
	/* the extra characters of each byte's entity; UTF-8 continuation bytes -1 */
	static const signed char extra[256] = {
		['&'] = 4, ['<'] = 3, ['>'] = 3, ['"'] = 5, ['\r'] = 4,
		[0x80] = -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
		-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
		-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
		-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	};
	size_t i, n = 0, at = len;

	for (i = 0; i < len; i++) {
		n += (size_t)(1 + extra[(unsigned char)s[i]]);
		if (n > max && at == len)
			at = i;   /* a continuation byte adds nothing: byte I starts a character */
	}
	if (fit)
		*fit = at;
	return n;
}

static int is_block(const xmlNode *n)
{
	static const char *const blocks[] = { "p", "pre", "ul", "ol", "li", "br", NULL };
	int i;

	for (i = 0; blocks[i]; i++)
		if (strcmp((const char *)n->name, blocks[i]) == 0)
			return 1;
	return 0;
}

static int plain_children(struct qb_buf *out, const xmlNode *n, int depth)
{
	const xmlNode *c;
	int err = 0;

	if (depth > 256)  /* the schema nests far less; guard hostile trees */
		return 0;
	for (c = n->children; c && !err; c = c->next) {
		switch (c->type) {
		case XML_TEXT_NODE:
		case XML_CDATA_SECTION_NODE:
			if (c->content)
				err = qb_buf_adds(out, (const char *)c->content);
			break;
		case XML_ELEMENT_NODE:
			if (strcmp((const char *)c->name, "img") == 0) {
				xmlChar *alt = xmlGetProp((xmlNodePtr)c, BAD_CAST "alt");

				if (alt)
					err = qb_buf_adds(out, (const char *)alt);
				xmlFree(alt);
				break;
			}
			if (is_block(c))
				err = qb_buf_addc(out, ' ');
			if (!err)
				err = plain_children(out, c, depth + 1);
			if (!err && is_block(c))
				err = qb_buf_addc(out, ' ');
			break;
		default:
			break;
		}
	}
	return err;
}

int qb_text_plain(struct qb_buf *out, const xmlNode *n)
{
	int err;

	if (!n)
		return 0;
	err = qb_buf_grow(out, 0);
	if (err)
		return err;
	return plain_children(out, n, 0);
}

static int blank_children(const xmlNode *n, int depth)
{
	const xmlNode *c;
	const char *s;

	if (depth > 256)
		return 0;
	for (c = n->children; c; c = c->next) {
		if (c->type == XML_TEXT_NODE || c->type == XML_CDATA_SECTION_NODE) {
			for (s = (const char *)c->content; s && *s; s++)
				if (!is_xml_space((unsigned char)*s))
					return 0;
		} else if (c->type == XML_ELEMENT_NODE) {
			if (strcmp((const char *)c->name, "img") == 0)
				return 0;
			if (!blank_children(c, depth + 1))
				return 0;
		}
	}
	return 1;
}

int qb_text_is_blank(const xmlNode *n)
{
	return !n || blank_children(n, 0);
}

static int is_trailing_punct(unsigned char c)
{
	return c == '.' || c == ',' || c == ';' || c == ':' || c == '!' || c == '?';
}

#define ONES 0x0101010101010101ULL
#define HIGH 0x8080808080808080ULL

/* The word-at-a-time path of collapse() needs byte J of a loaded word in
 * bits 8J..8J+7: on other machines the byte loop does all the work. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define WORD_AT_A_TIME 1
#else
#define WORD_AT_A_TIME 0
#endif

static uint64_t load8(const unsigned char *p)
{
	uint64_t x;

	memcpy(&x, p, sizeof(x));
	return x;
}

static int is_ascii(const char *s, size_t len)
{
	uint64_t acc = 0;
	size_t i;

	/* no early exit, eight bytes at a time: most text is ASCII */
	for (i = 0; i + 8 <= len; i += 8)
		acc |= load8((const unsigned char *)s + i);
	for (; i < len; i++)
		acc |= (unsigned char)s[i];
	return !(acc & HIGH);
}

static void store8(char *d, uint64_t x)
{
	memcpy(d, &x, sizeof(x));
}

/* The ASCII part of collapse() with FOLD, eight bytes at a time: the bytes
 * up to the next one <= 0x20 are lower-cased by arithmetic and stored in
 * one go; white space is collapsed here too, a control byte is left to the
 * byte loop.
 * Stores up to 8 bytes at D[*N..], never past P's length from where the
 * output started, so P must not share OUT's bytes. Returns how far it
 * read; *N and *SPACE carry on as in collapse(). */
static size_t collapse_ascii8(char *d, size_t start, size_t *n, int *space,
			      const unsigned char *p, size_t m)
{
	size_t i = 0;

	while (i + 8 <= m) {
		uint64_t x = load8(p + i), ctl, up, t;
		size_t k;

		/* bytes < 0x80 only: no carry crosses a byte */
		ctl = ~(x + 0x5F * ONES) & HIGH;                   /* byte <= 0x20 */
		up = (x + 0x3F * ONES) & ~(x + 0x25 * ONES) & HIGH;  /* 'A'..'Z' */
		t = ctl & (~ctl + 1);                               /* lowest of them */
		k = ctl ? (size_t)(((((t - 1) & HIGH) >> 7) * ONES) >> 56) : 8;
		if (k > 0) {
			if (*space && *n > start)
				d[(*n)++] = ' ';
			*space = 0;
			store8(d + *n, x | up >> 2);
			*n += k;
			i += k;
			if (k == 8)
				continue;
		}
		if (!is_xml_space(p[i]))
			return i;  /* a control byte: the byte loop copies it */
		*space = 1;
		i++;
	}
	return i;
}

/* Appends P[0..M) to OUT with white space collapsed, trailing punctuation
 * and spaces dropped; FOLD lower-cases ASCII letters on the way. OUT has
 * room for M more bytes and a NUL. P may be OUT's own bytes from OUT->len
 * on (the result is never longer). Locals instead of OUT's fields keep the
 * compiler from reloading them after every byte stored. */
static void collapse(struct qb_buf *out, const unsigned char *p, size_t m, int fold)
{
	char *d = out->ptr;
	size_t i, start = out->len, n = out->len;
	int space = 0;

	for (i = 0; i < m; i++) {
		unsigned char c;

		/* the word-at-a-time path, except in place (it stores ahead) */
		if (WORD_AT_A_TIME && fold && p != (const unsigned char *)d + start && i + 8 <= m) {
			i += collapse_ascii8(d, start, &n, &space, p + i, m - i);
			if (i == m)
				break;
		}
		c = p[i];
		if (is_xml_space(c)) {
			space = 1;
			continue;
		}
		if (space && n > start)
			d[n++] = ' ';
		space = 0;
		if (fold && c >= 'A' && c <= 'Z')
			c = (unsigned char)(c - 'A' + 'a');
		d[n++] = (char)c;
	}
	while (n > start && is_trailing_punct((unsigned char)d[n - 1]))
		n--;
	while (n > start && d[n - 1] == ' ')
		n--;
	d[n] = '\0';
	out->len = n;
}

/* ASCII text (nearly every stem and option) is already in NFC and case
 * folds to its lower case, so it skips utf8proc and its allocation: this
 * runs for every stem and option of every question. */
int qb_text_normalize(struct qb_buf *out, const char *s, size_t len)
{
	utf8proc_uint8_t *mapped = NULL;
	utf8proc_ssize_t n;
	int err;

	if (is_ascii(s, len)) {
		err = qb_buf_grow(out, len);
		if (!err)
			collapse(out, (const unsigned char *)s, len, 1);
		return err;
	}
	n = utf8proc_map((const utf8proc_uint8_t *)s, (utf8proc_ssize_t)len, &mapped,
			 UTF8PROC_STABLE | UTF8PROC_COMPOSE | UTF8PROC_CASEFOLD);
	if (n < 0) {
		/* Not valid UTF-8 (cannot come from libxml2): compare the bytes as they are. */
		mapped = NULL;
	}
	err = qb_buf_grow(out, n >= 0 ? (size_t)n : len);
	if (!err)
		collapse(out, n >= 0 ? mapped : (const unsigned char *)s,
			 n >= 0 ? (size_t)n : len, 0);
	free(mapped);
	return err;
}

/* The plain text goes into OUT first; ASCII text is then normalised in
 * place (the result is never longer), other text through a copy. */
int qb_text_norm_node(struct qb_buf *out, const xmlNode *n)
{
	struct qb_buf tmp = QB_BUF_INIT;
	int err;

	qb_buf_clear(out);
	err = qb_text_plain(out, n);
	if (!err)
		err = qb_buf_grow(out, 0);
	if (err)
		return err;
	if (is_ascii(out->ptr, out->len)) {
		size_t len = out->len;

		out->len = 0;
		collapse(out, (const unsigned char *)out->ptr, len, 1);
		return 0;
	}
	err = qb_buf_add(&tmp, out->ptr, out->len);
	qb_buf_clear(out);
	if (!err)
		err = qb_text_normalize(out, tmp.ptr, tmp.len);
	qb_buf_dispose(&tmp);
	return err;
}

uint64_t qb_hash64(const void *p, size_t n)
{
	const unsigned char *s = p;
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= s[i];
		h *= 0x100000001b3ULL;
	}
	/* splitmix64 finaliser: spreads FNV's weak low bits */
	h ^= h >> 30;
	h *= 0xbf58476d1ce4e5b9ULL;
	h ^= h >> 27;
	h *= 0x94d049bb133111ebULL;
	h ^= h >> 31;
	return h;
}

uint64_t qb_hash(const void *p, size_t n)
{
	return XXH3_64bits(p, n);
}

const char *qb_text_attr(const xmlNode *n, const char *name)
{
	const xmlAttr *a;

	for (a = n->properties; a; a = a->next) {
		/* the first byte first: most of an element's names differ there */
		if (a->ns == NULL && a->name[0] == (unsigned char)name[0] &&
		    strcmp((const char *)a->name, name) == 0) {
			if (a->children && a->children->type == XML_TEXT_NODE &&
			    a->children->next == NULL)
				return (const char *)a->children->content;
			return "";
		}
	}
	return NULL;
}

static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j, row[64];

	if (la >= sizeof(row) / sizeof(row[0]) || lb >= sizeof(row) / sizeof(row[0]))
		return (size_t)-1;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t cost = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
			size_t best = diag + cost;

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

const char *qb_text_closest(const char *word, const char *const *cands, size_t n)
{
	size_t i, d, best = (size_t)-1, len = strlen(word);
	const char *pick = NULL;

	for (i = 0; i < n; i++) {
		d = edit_distance(word, cands[i]);
		if (d < best) {
			best = d;
			pick = cands[i];
		}
	}
	return pick && best <= 2 && best * 2 <= len ? pick : NULL;
}
