#include "diff_question.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "core/buf.h"
#include "error.h"
#include "text.h"

static const char *const block_names[] = { "li", "ol", "p", "pre", "ul" };

static int is_block(const xmlNode *n)
{
	size_t i;

	for (i = 0; i < sizeof(block_names) / sizeof(block_names[0]); i++)
		if (strcmp((const char *)n->name, block_names[i]) == 0)
			return 1;
	return 0;
}

static int is_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* The state of one rendering: white space waits in PENDING and is written
 * only before more text, and not at all next to a block tag. */
struct render {
	struct qb_buf *b;
	struct qb_arena *a;
	struct qb_dq *d;           /* images go here */
	qb_dq_image_fn image;
	void *image_ctx;
	const struct qb_question *q;
	int pending;
	int at_block;              /* the last thing written was a block tag (or nothing) */
	int rc;
};

static void put(struct render *r, const char *s, size_t n)
{
	if (r->pending && !r->at_block && r->b->len)
		r->rc |= qb_buf_addc(r->b, ' ');
	r->pending = 0;
	r->at_block = 0;
	r->rc |= qb_buf_add(r->b, s, n);
}

static void put_text(struct render *r, const char *s, int pre)
{
	const char *p = s;

	if (pre) {
		put(r, s, strlen(s));
		return;
	}
	while (*p) {
		const char *q = p;

		if (is_ws(*p)) {
			while (is_ws(*p))
				p++;
			r->pending = 1;
			continue;
		}
		while (*p && !is_ws(*p))
			p++;
		put(r, q, (size_t)(p - q));
	}
}

static int cmp_attr(const void *x, const void *y)
{
	return strcmp((const char *)(*(const xmlAttr *const *)x)->name,
		      (const char *)(*(const xmlAttr *const *)y)->name);
}

/* " name="value"" for each attribute of N (no namespace), by name. */
static void put_attrs(struct render *r, const xmlNode *n)
{
	const xmlAttr *v[16] = { NULL }, *at;
	size_t k = 0, i;

	for (at = n->properties; at && k < 16; at = at->next)
		if (!at->ns)
			v[k++] = at;
	qsort(v, k, sizeof(v[0]), cmp_attr);  /* NOLINT(bugprone-sizeof-expression) */
	for (i = 0; i < k; i++) {
		const char *val = qb_text_attr(n, (const char *)v[i]->name);

		r->rc |= qb_buf_printf(r->b, " %s=\"%s\"", (const char *)v[i]->name, val ? val : "");
	}
}

static int add_img(struct render *r, const char *src);

static void walk(struct render *r, const xmlNode *n, int pre)
{
	const xmlNode *c;

	for (c = n->children; c && !r->rc; c = c->next) {
		int block;

		if (c->type == XML_TEXT_NODE || c->type == XML_CDATA_SECTION_NODE) {
			if (c->content)
				put_text(r, (const char *)c->content, pre);
			continue;
		}
		if (c->type != XML_ELEMENT_NODE)
			continue;
		block = is_block(c);
		if (block) {
			r->pending = 0;
			r->at_block = 1;
		}
		put(r, "<", 1);
		r->rc |= qb_buf_adds(r->b, (const char *)c->name);
		put_attrs(r, c);
		r->rc |= qb_buf_addc(r->b, '>');
		if (strcmp((const char *)c->name, "img") == 0) {
			const char *src = qb_text_attr(c, "src");

			r->rc |= add_img(r, src ? src : "");
		}
		if (block)
			r->at_block = 1;
		if (c->children) {
			walk(r, c, pre || strcmp((const char *)c->name, "pre") == 0);
			if (block) {
				r->pending = 0;
				r->at_block = 1;
			}
			put(r, "</", 2);
			r->rc |= qb_buf_adds(r->b, (const char *)c->name);
			r->rc |= qb_buf_addc(r->b, '>');
		}
		if (block) {
			r->pending = 0;
			r->at_block = 1;
		}
	}
}

static const char *dup(struct render *r, const char *s, size_t n)
{
	const char *x = qb_arena_strndup(r->a, s, n);

	if (!x)
		r->rc = QB_ENOMEM;
	return x;
}

/* The display text of rich-text element N, or NULL when N is NULL. */
static const char *rich(struct render *r, const xmlNode *n)
{
	if (!n || r->rc)
		return NULL;
	qb_buf_clear(r->b);
	r->pending = 0;
	r->at_block = 1;
	walk(r, n, strcmp((const char *)n->name, "pre") == 0);
	return r->rc ? NULL : dup(r, r->b->ptr ? r->b->ptr : "", r->b->len);
}

static int cmp_str(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

static int cmp_img(const void *x, const void *y)
{
	return strcmp(((const struct qb_dq_img *)x)->src, ((const struct qb_dq_img *)y)->src);
}

/* Images are gathered in a growing array of the arena's: the old copy is
 * left behind, which costs little next to the texts. */
static int add_img(struct render *r, const char *src)
{
	struct qb_dq *d = r->d;
	struct qb_dq_img *v;
	char hex[QB_GIT_HEX];
	size_t i;
	int rc;

	for (i = 0; i < d->nimgs; i++)
		if (strcmp(d->imgs[i].src, src) == 0)
			return 0;
	v = qb_arena_alloc(r->a, (d->nimgs + 1) * sizeof(*v));
	if (!v)
		return QB_ENOMEM;
	if (d->nimgs)
		memcpy(v, d->imgs, d->nimgs * sizeof(*v));
	v[d->nimgs].src = qb_arena_strndup(r->a, src, strlen(src));
	rc = r->image ? r->image(r->image_ctx, r->q, src, hex) : 1;
	if (rc < 0)
		return rc;
	v[d->nimgs].hash = rc == 0 ? qb_arena_strndup(r->a, hex, strlen(hex)) : NULL;
	if (!v[d->nimgs].src || (rc == 0 && !v[d->nimgs].hash))
		return QB_ENOMEM;
	d->imgs = v;
	d->nimgs++;
	return 0;
}

static const char **str_array(struct render *r, size_t n)
{
	const char **v = n ? qb_arena_alloc(r->a, n * sizeof(*v)) : NULL;

	if (n && !v)
		r->rc = QB_ENOMEM;
	return v;
}

static const char *printf_dup(struct render *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static const char *printf_dup(struct render *r, const char *fmt, ...)
{
	va_list ap;
	int rc;

	if (r->rc)
		return NULL;
	qb_buf_clear(r->b);
	va_start(ap, fmt);
	rc = qb_buf_vprintf(r->b, fmt, ap);
	va_end(ap);
	if (rc) {
		r->rc = rc;
		return NULL;
	}
	return dup(r, r->b->ptr, r->b->len);
}

static const char *plain_dup(struct render *r, const char *s)
{
	return s && !r->rc ? dup(r, s, strlen(s)) : NULL;
}

/* The essay's <response> settings: its attributes, by name. */
static const char *response(struct render *r, const xmlNode *n)
{
	if (!n || r->rc)
		return NULL;
	qb_buf_clear(r->b);
	put_attrs(r, n);
	return r->rc ? NULL : dup(r, r->b->len ? r->b->ptr + 1 : "", r->b->len ? r->b->len - 1 : 0);
}

int qb_dq_build(struct qb_dq *d, struct qb_arena *a, const struct qb_question *q,
		qb_dq_image_fn image, void *image_ctx)
{
	struct qb_buf b = QB_BUF_INIT;
	struct render r = { &b, a, d, image, image_ctx, q, 0, 1, 0 };
	size_t i;

	memset(d, 0, sizeof(*d));
	d->id = plain_dup(&r, q->id ? q->id : "");
	d->type = plain_dup(&r, q->type_name ? q->type_name : "");
	d->points = printf_dup(&r, "%g", q->points ? q->points_value : 1.0);
	d->select = q->has_select ? printf_dup(&r, "%ld", q->select) : NULL;
	d->shuffle = q->shuffle;
	d->case_sensitive = q->case_sensitive;
	d->source = plain_dup(&r, q->source);
	d->stem = rich(&r, q->stem);
	d->explanation = rich(&r, q->explanation);
	d->rubric = rich(&r, q->rubric);
	d->response = response(&r, q->response);
	for (i = 0; i < q->nside_rationales; i++) {
		const char *t = rich(&r, q->side_rationales[i].node);

		if (q->side_rationales[i].for_true)
			d->rationale_true = t;
		else
			d->rationale_false = t;
	}
	if (!r.rc) {
		qb_buf_clear(&b);
		for (i = 0; i < q->ncategories && !r.rc; i++)
			r.rc = qb_buf_printf(&b, "%s%s", i ? " / " : "", q->categories[i]);
		d->category = r.rc ? NULL : dup(&r, b.ptr ? b.ptr : "", b.len);
	}
	d->tags = str_array(&r, q->ntags);
	for (i = 0; i < q->ntags && !r.rc; i++)
		d->tags[i] = plain_dup(&r, q->tags[i]);
	d->ntags = r.rc ? 0 : q->ntags;
	if (d->ntags)
		qsort(d->tags, d->ntags, sizeof(*d->tags), cmp_str);

	if (q->noptions && !r.rc) {
		d->opts = qb_arena_alloc(a, q->noptions * sizeof(*d->opts));
		if (!d->opts)
			r.rc = QB_ENOMEM;
	}
	for (i = 0; i < q->noptions && !r.rc; i++) {
		const struct qb_option *o = &q->options[i];
		struct qb_dq_opt *x = &d->opts[i];

		x->id = plain_dup(&r, o->id ? o->id : "");
		x->explicit_id = o->explicit_id;
		x->correct = o->correct;
		x->text = rich(&r, o->text);
		if (!x->text && !r.rc)
			x->text = "";
		x->rationale = rich(&r, o->rationale);
		d->nopts = i + 1;
	}
	d->answers = str_array(&r, q->nanswers);
	for (i = 0; i < q->nanswers && !r.rc; i++) {
		const struct qb_answer *x = &q->answers[i];

		d->answers[i] = printf_dup(&r, "%s%s%s%s%s", x->value ? x->value : "",
					   x->tolerance ? " \xc2\xb1 " : "", x->tolerance ? x->tolerance : "",
					   x->unit ? " " : "", x->unit ? x->unit : "");
		d->nanswers = i + 1;
	}
	if (d->nanswers)
		qsort(d->answers, d->nanswers, sizeof(*d->answers), cmp_str);
	d->pairs = str_array(&r, q->npairs);
	for (i = 0; i < q->npairs && !r.rc; i++) {
		const char *p = rich(&r, q->pairs[i].premise), *s = rich(&r, q->pairs[i].response);

		d->pairs[i] = printf_dup(&r, "%s \xe2\x86\x92 %s", p ? p : "", s ? s : "");
		d->npairs = i + 1;
	}
	if (d->npairs && d->shuffle)
		qsort(d->pairs, d->npairs, sizeof(*d->pairs), cmp_str);
	d->distractors = str_array(&r, q->ndistractors);
	for (i = 0; i < q->ndistractors && !r.rc; i++) {
		const char *t = rich(&r, q->distractors[i].node);

		d->distractors[i] = t ? t : "";
		d->ndistractors = i + 1;
	}
	if (d->ndistractors)
		qsort(d->distractors, d->ndistractors, sizeof(*d->distractors), cmp_str);
	if (d->nimgs)
		qsort(d->imgs, d->nimgs, sizeof(*d->imgs), cmp_img);
	qb_buf_dispose(&b);
	return r.rc ? QB_ENOMEM : 0;
}

/* ---- digests ------------------------------------------------------------ */


static int field(struct qb_buf *b, char tag, const char *s)
{
	if (qb_buf_addc(b, tag))
		return QB_ENOMEM;
	if (s && qb_buf_adds(b, s))
		return QB_ENOMEM;
	return qb_buf_addc(b, s ? '\x1e' : '\x1d');
}

static uint32_t part_hash(char tag, const char *s)
{
	uint64_t h = qb_hash(s, strlen(s)) ^ ((uint64_t)(unsigned char)tag * 0x9e3779b97f4a7c15ULL);

	return (uint32_t)(h ^ (h >> 32));
}

static int cmp_u32(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;

	return a < b ? -1 : a > b;
}

/* One option as it counts for the content digest: its letter is not part
 * of it, since it follows from the position. */
static int option_key(struct qb_buf *b, const struct qb_dq_opt *o)
{
	qb_buf_clear(b);
	if (field(b, 'i', o->explicit_id ? o->id : NULL) || field(b, 'c', o->correct ? "1" : "0") ||
	    field(b, 't', o->text) || field(b, 'r', o->rationale))
		return QB_ENOMEM;
	return 0;
}

int qb_dq_digest(const struct qb_dq *d, struct qb_buf *scratch, uint64_t *content,
		 uint32_t *parts, size_t *nparts)
{
	struct qb_buf all = QB_BUF_INIT;
	uint64_t *oh = NULL;
	size_t i, np = 0;
	int rc = 0;

#define PART(tag, s) do { if ((s) && np < QB_DQ_MAX_PARTS) parts[np++] = part_hash((tag), (s)); } while (0)
	rc |= field(&all, 'T', d->type);
	rc |= field(&all, 'P', d->points);
	rc |= field(&all, 'S', d->select);
	rc |= field(&all, 'h', d->shuffle ? "1" : "0");
	rc |= field(&all, 'c', d->case_sensitive ? "1" : "0");
	rc |= field(&all, 'o', d->source);
	rc |= field(&all, 's', d->stem);
	rc |= field(&all, 'e', d->explanation);
	rc |= field(&all, 'u', d->rubric);
	rc |= field(&all, 'R', d->response);
	rc |= field(&all, '1', d->rationale_true);
	rc |= field(&all, '0', d->rationale_false);
	PART('s', d->stem);
	PART('e', d->explanation);
	PART('u', d->rubric);
	PART('1', d->rationale_true);
	PART('0', d->rationale_false);
	for (i = 0; i < d->ntags; i++)
		rc |= field(&all, 'g', d->tags[i]);
	/* options: in order when the order is fixed, as a sorted set of
	 * option hashes when they are shuffled anyway */
	if (d->nopts) {
		oh = malloc(d->nopts * sizeof(*oh));
		if (!oh)
			rc = QB_ENOMEM;
	}
	for (i = 0; i < d->nopts && !rc; i++) {
		rc = option_key(scratch, &d->opts[i]);
		if (!rc)
			oh[i] = qb_hash(scratch->ptr, scratch->len);
		PART('t', d->opts[i].text);
		PART('r', d->opts[i].rationale);
	}
	if (!rc && d->shuffle && d->nopts > 1) {
		size_t a, b;

		for (a = 1; a < d->nopts; a++)   /* insertion sort: a handful */
			for (b = a; b > 0 && oh[b - 1] > oh[b]; b--) {
				uint64_t t = oh[b];

				oh[b] = oh[b - 1];
				oh[b - 1] = t;
			}
	}
	if (!rc && d->nopts)
		rc = qb_buf_addc(&all, 'O') || qb_buf_add(&all, oh, d->nopts * sizeof(*oh));
	for (i = 0; i < d->nanswers; i++) {
		rc |= field(&all, 'a', d->answers[i]);
		PART('a', d->answers[i]);
	}
	for (i = 0; i < d->npairs; i++) {
		rc |= field(&all, 'p', d->pairs[i]);
		PART('p', d->pairs[i]);
	}
	for (i = 0; i < d->ndistractors; i++) {
		rc |= field(&all, 'd', d->distractors[i]);
		PART('d', d->distractors[i]);
	}
	for (i = 0; i < d->nimgs; i++) {
		rc |= field(&all, 'm', d->imgs[i].src);
		rc |= field(&all, 'M', d->imgs[i].hash);
	}
#undef PART
	free(oh);
	if (!rc)
		*content = qb_hash(all.ptr ? all.ptr : "", all.len);
	qb_buf_dispose(&all);
	qsort(parts, np, sizeof(*parts), cmp_u32);
	*nparts = np;
	return rc ? QB_ENOMEM : 0;
}
