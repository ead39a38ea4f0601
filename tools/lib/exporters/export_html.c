/* HTML exporter: the whole run becomes one self-contained page for
 * reviewers (tools/lib/exporters/README.md, "html"). Every question as a
 * student sees it, its keys, rationales, explanation and rubric marked for
 * the teacher view (a switch, off unless --answers), the lint's findings
 * beside the question they concern with a summary at the top, a filter box
 * and a table of contents by category. The style sheet, the page's script
 * and KaTeX (Debian's libjs-katex, only when the bank has math) are compiled
 * in and written inline; images become data: URIs; nothing on the page
 * asks the network for anything.
 *
 * Everything is written through the exporters' writer (xmlw.h, qb_xw)
 * onto libxml2's xmlTextWriter, in HTML syntax: no XML declaration, every
 * non-void element closed by an end tag. Text and attribute values from
 * the bank are escaped by libxml2's own functions, as its writer escapes
 * them; the page's writers declare no encoding, so non-ASCII characters in
 * attribute values become character references. Only the
 * compiled-in assets and bytes this writer produced earlier are written
 * raw.
 *
 * The findings arrive after the last question (the bank-wide rules finish
 * last), but are shown inside each question: the questions are written to
 * an unlinked temporary file (the spool) as they stream past, each with the
 * offset of its findings' place recorded, and commit writes the page's head,
 * summary and table of contents, then copies the spool, putting each
 * question's findings into its place. Those records (file, line, offset)
 * go to a second temporary file, read once in order when the findings come
 * (which are sorted the same way for it), and the findings' HTML to a
 * third, in page order, so that nothing stays in memory per question: only
 * a place (its offset and length) per question that has findings (a
 * million questions in bounded memory). The copies into the page are made
 * inside the kernel where it can (atomic.h, qb_atomic_copy).
 *
 * Ownership: the state (struct html) owns the writers, the spool, the
 * atomic output and copies of everything it keeps; commit and abort free
 * it. */
#include "exporters.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/xmlwriter.h>

#include "../atomic.h"
#include "../core/array.h"
#include "../core/buf.h"
#include "../imgpath.h"
#include "../richtext.h"
#include "../tempfile.h"
#include "../text.h"
#include "../xmlw.h"
#include "html_assets.h"

/* One question of the page, as the findings need it: a record of the
 * places file, in page order (by file, then line). */
struct qrec {
	uint64_t slot;             /* spool offset of its findings' place */
	uint64_t file;             /* index into files */
	uint64_t line;
};

/* A question that has findings, in page order. */
struct place {
	uint64_t slot;             /* as in its qrec */
	uint64_t f_len;            /* its findings' HTML, the next run of st->finds.f */
};

/* One category section, for the table of contents. */
struct cat {
	char *path;                /* "A / B", or the bank's title for questions outside any */
	size_t count;
};

struct html {
	struct qb_atomic *out;
	int answers;

	/* the spool: the questions' HTML, through a memory writer that keeps
	 * <main> open and is drained into the file */
	struct qb_spool spool;
	uint64_t spooled;
	xmlBufferPtr sbuf;
	xmlTextWriterPtr w;
	/* writes onto w: every tag and attribute, text escaped as libxml2's
	 * writer escapes it, pending bytes handed over in one write */
	struct qb_xw x;
	int rc;                    /* sticky: the first error of the writing */

	struct qb_buf tmp, tmp2, img;
	const char *bank_file;     /* of the question being written (image paths) */

	char **files;
	size_t nfiles, capfiles;
	char *title;               /* of the first bank */
	char *lang;                /* of the first bank */

	struct qb_spool qrecs;     /* the questions' struct qrec */
	size_t nq;
	struct place *places;
	size_t nplaces, capplaces;
	struct cat *cats;
	size_t ncats, capcats;
	int in_cat;                /* a <section class="cat"> is open */
	size_t cat_file, cat_serial;
	size_t ntypes[QB_Q_UNKNOWN];
	int has_math;

	/* findings (findings hook) */
	int findings_given;
	struct qb_spool finds;     /* the questions' findings' HTML, one run each
				    * in page order (a temporary: each finding
				    * carries its rule's explanation, a few MB
				    * at a million questions) */
	struct qb_buf summary;     /* the summary at the top */

	char problem[900];         /* the first image that could not be read */
	size_t nproblems;
};

/* ---- writing ------------------------------------------------------------- */

/* The html's error, once the writer has one. */
static int xw_rc(struct html *st)
{
	if (!st->rc)
		st->rc = st->x.rc;
	return st->rc;
}

/* The writer's pending bytes, then its own buffer, into its output. */
static int flush(struct html *st)
{
	if (!st->rc && !qb_xw_sync(&st->x) && xmlTextWriterFlush(st->w) < 0)
		st->x.rc = QB_EIO;
	return xw_rc(st);
}

/* <NAME>, its attributes to follow (attr()); end() closes it. */
static int start(struct html *st, const char *name)
{
	if (!st->rc)
		qb_xw_start_inline(&st->x, name);
	return xw_rc(st);
}

static int attr(struct html *st, const char *name, const char *value)
{
	if (!st->rc)
		qb_xw_attr(&st->x, name, value);
	return xw_rc(st);
}

/* <NAME> or <NAME class="CLS">; CLS may be NULL. */
static int tag(struct html *st, const char *name, const char *cls)
{
	start(st, name);
	return cls ? attr(st, "class", cls) : st->rc;
}

/* Ends the open element with an end tag, also when it is empty: in HTML
 * syntax <div/> would open a div that never closes. */
static int end(struct html *st)
{
	if (!st->rc)
		qb_xw_end_full(&st->x);
	return xw_rc(st);
}

/* Ends a void HTML element (input, meta): <name .../>. */
static int end_void(struct html *st)
{
	if (!st->rc)
		qb_xw_end_mixed(&st->x);
	return xw_rc(st);
}

/* Character data, escaped where it has anything to escape. */
static int text(struct html *st, const char *s)
{
	if (!st->rc)
		qb_xw_text(&st->x, s);
	return xw_rc(st);
}

/* LEN bytes as they are: the compiled-in assets, HTML written earlier. */
static int raw(struct html *st, const char *s, size_t len)
{
	if (!st->rc)
		qb_xw_raw(&st->x, s, len);
	return xw_rc(st);
}

/* A line break between block elements (outside any text), so that the
 * page reads, diffs and greps a question or a section per few lines. */
static int nl(struct html *st)
{
	return raw(st, "\n", 1);
}

/* <NAME class="CLS">TEXT</NAME>; NAME and CLS (which may be NULL) are
 * constants, TEXT is escaped. */
static int elem(struct html *st, const char *name, const char *cls, const char *s)
{
	tag(st, name, cls);
	text(st, s);
	return end(st);
}

/* <NAME class="CLS"> */
static int start_cls(struct html *st, const char *name, const char *cls)
{
	return tag(st, name, cls);
}

static int img_src_fail(struct html *st, const char *src, const char *why)
{
	if (st->nproblems++ == 0)
		snprintf(st->problem, sizeof(st->problem), "%s: img src '%s': %s", st->bank_file, src, why);
	return 0;
}

/* libxml2 encodes base64 only into its writer's output, broken into lines
 * of 72 with CR LF; a data: URI is one unbroken run. */
static int base64(struct qb_buf *out, const unsigned char *p, size_t n)
{
	static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	char q[4];
	size_t i;
	int rc = qb_buf_grow(out, (n + 2) / 3 * 4);

	for (i = 0; !rc && i < n; i += 3) {
		unsigned long v = (unsigned long)p[i] << 16;

		if (i + 1 < n)
			v |= (unsigned long)p[i + 1] << 8;
		if (i + 2 < n)
			v |= p[i + 2];
		q[0] = tab[(v >> 18) & 63];
		q[1] = tab[(v >> 12) & 63];
		q[2] = i + 1 < n ? tab[(v >> 6) & 63] : '=';
		q[3] = i + 2 < n ? tab[v & 63] : '=';
		rc = qb_buf_add(out, q, 4);
	}
	return rc;
}

/* The media type of an image, from its first bytes (a file's name may lie;
 * the browser sniffs the same signatures). */
static const char *image_type(const unsigned char *p, size_t n)
{
	static const struct { const char *magic; size_t len; size_t at; const char *type; } sigs[] = {
		{ "\x89PNG\r\n\x1a\n", 8, 0, "image/png" },
		{ "\xff\xd8\xff", 3, 0, "image/jpeg" },
		{ "GIF8", 4, 0, "image/gif" },
		{ "WEBP", 4, 8, "image/webp" },
	};
	size_t i;

	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (n >= sigs[i].at + sigs[i].len && memcmp(p + sigs[i].at, sigs[i].magic, sigs[i].len) == 0)
			return sigs[i].type;
	for (i = 0; i + 4 <= n && i < 1024; i++)
		if (memcmp(p + i, "<svg", 4) == 0)
			return "image/svg+xml";
	return "application/octet-stream";
}

/* qb_rich_opts.img_src: the image as a data: URI. An image that cannot be
 * read (the lint reports it first, as img-missing or img-unsafe-path) is
 * recorded; commit then refuses the page. */
static const char *img_src(void *ctx, const char *src)
{
	struct html *st = ctx;
	struct qb_buf bytes = QB_BUF_INIT;
	struct qb_error e = { 0, "" };
	int rc = qb_img_read(&bytes, st->bank_file, src, &e);

	qb_buf_clear(&st->img);
	if (rc) {
		img_src_fail(st, src, e.msg[0] ? e.msg : qb_error_str(rc));
	} else if (qb_buf_adds(&st->img, "data:") ||
		   qb_buf_adds(&st->img, image_type((const unsigned char *)bytes.ptr, bytes.len)) ||
		   qb_buf_adds(&st->img, ";base64,") ||
		   base64(&st->img, (const unsigned char *)bytes.ptr, bytes.len)) {
		if (!st->rc)
			st->rc = QB_ENOMEM;
	}
	qb_buf_dispose(&bytes);
	return st->img.ptr ? st->img.ptr : "";
}

static int has_math(const xmlNode *n, int depth)
{
	const xmlNode *c;

	if (depth > 256)
		return 0;
	for (c = n ? n->children : NULL; c; c = c->next)
		if (c->type == XML_ELEMENT_NODE &&
		    (strcmp((const char *)c->name, "math") == 0 || has_math(c, depth + 1)))
			return 1;
	return 0;
}

/* The children of rich-text element N inside <TAG class="CLS">; nothing
 * when N is NULL. A div, since a field may hold blocks. */
static int rich(struct html *st, const char *name, const char *cls, const xmlNode *n)
{
	struct qb_rich_opts o = { QB_MATH_TEX_SPAN, img_src, st, NULL, 1, NULL, NULL };

	if (!n)
		return st->rc;
	if (tag(st, name, cls))
		return st->rc;
	if (qb_rich_write_into(&st->x, n, &o) && !st->rc)
		st->rc = QB_EIO;
	return end(st);
}

/* Writes what the memory writer holds into F, adding its length to *COUNT. */
static int drain_into(struct html *st, FILE *f, uint64_t *count)
{
	size_t n;

	if (flush(st))
		return st->rc;
	n = (size_t)xmlBufferLength(st->sbuf);
	if (n && fwrite(xmlBufferContent(st->sbuf), 1, n, f) != n)
		return st->rc = QB_EIO;
	*count += n;
	xmlBufferEmpty(st->sbuf);
	return 0;
}

/* Writes what the memory writer holds into the spool. */
static int drain(struct html *st)
{
	return drain_into(st, st->spool.f, &st->spooled);
}

/* ---- questions ----------------------------------------------------------- */

/* "A / B / C" */
static int cat_path(struct qb_buf *out, const struct qb_question *q)
{
	size_t i;
	int rc = 0;

	qb_buf_clear(out);
	rc = qb_buf_grow(out, 0);
	for (i = 0; !rc && i < q->ncategories; i++) {
		if (i)
			rc = qb_buf_adds(out, " / ");
		if (!rc)
			rc = qb_buf_adds(out, q->categories[i]);
	}
	return rc;
}

/* Opens a category section when the question's category is not the
 * previous one's. */
static int switch_category(struct html *st, const struct qb_question *q)
{
	size_t cur = st->nfiles ? st->nfiles - 1 : 0;
	char anchor[32];

	if (st->in_cat && st->cat_file == cur && st->cat_serial == q->category_serial) {
		st->cats[st->ncats - 1].count++;
		return 0;
	}
	if (st->in_cat && !end(st))
		nl(st);
	if (cat_path(&st->tmp, q) || QB_ARRAY_RESERVE(st->cats, st->capcats, st->ncats + 1))
		return st->rc = QB_ENOMEM;
	st->cats[st->ncats].path = strdup(q->ncategories ? st->tmp.ptr : "(no category)");
	if (!st->cats[st->ncats].path)
		return st->rc = QB_ENOMEM;
	st->cats[st->ncats].count = 1;
	st->ncats++;
	snprintf(anchor, sizeof(anchor), "c%zu", st->ncats);
	start_cls(st, "section", "cat");
	attr(st, "id", anchor);
	attr(st, "data-cat", st->cats[st->ncats - 1].path);
	elem(st, "h2", NULL, st->cats[st->ncats - 1].path);
	nl(st);
	st->in_cat = 1;
	st->cat_file = cur;
	st->cat_serial = q->category_serial;
	return st->rc;
}

static int teacher_label(struct html *st, const char *label)
{
	return elem(st, "h4", NULL, label);
}

/* Options of single and multiple: a list lettered by the options' ids;
 * the key and the rationale are the teacher's. */
static int body_choice(struct html *st, const struct qb_question *q)
{
	size_t i;

	if (q->type == QB_Q_MULTIPLE) {
		qb_buf_clear(&st->tmp);
		if (q->has_select)
			qb_buf_printf(&st->tmp, "Select %ld.", q->select);
		else
			qb_buf_adds(&st->tmp, "Select all that apply.");
		elem(st, "p", "hint", st->tmp.ptr ? st->tmp.ptr : "");
	}
	tag(st, "ol", q->type == QB_Q_MULTIPLE ? "options multiple" : "options single");
	for (i = 0; i < q->noptions; i++) {
		const struct qb_option *op = &q->options[i];

		tag(st, "li", op->correct ? "option correct" : "option");
		elem(st, "span", "letter", op->id);
		rich(st, "div", "text", op->text);
		if (op->correct)
			elem(st, "span", "key teacher", "key");
		rich(st, "div", "rationale teacher", op->rationale);
		end(st);
	}
	return end(st);
}

static int body_truefalse(struct html *st, const struct qb_question *q)
{
	static const char *const sides[2] = { "True", "False" };
	int key = q->nanswers && q->answers[0].value && strcmp(q->answers[0].value, "true") == 0;
	size_t i, s;

	tag(st, "ol", "options single truefalse");
	for (s = 0; s < 2; s++) {
		int is_true = s == 0;

		tag(st, "li", is_true == key ? "option correct" : "option");
		elem(st, "span", "letter", is_true ? "T" : "F");
		elem(st, "div", "text", sides[s]);
		if (is_true == key)
			elem(st, "span", "key teacher", "key");
		for (i = 0; i < q->nside_rationales; i++)
			if (q->side_rationales[i].for_true == is_true)
				rich(st, "div", "rationale teacher", q->side_rationales[i].node);
		end(st);
	}
	return end(st);
}

static int answer_box(struct html *st, const char *label)
{
	tag(st, "p", "blank");
	elem(st, "span", "visually-hidden", label);
	return end(st);
}

static int body_short(struct html *st, const struct qb_question *q)
{
	size_t i;

	answer_box(st, "Answer:");
	tag(st, "div", "answer teacher");
	teacher_label(st, q->case_sensitive ? "Accepted answers (case sensitive)"
					    : "Accepted answers (any case)");
	tag(st, "ul", NULL);
	for (i = 0; i < q->nanswers; i++)
		elem(st, "li", "key-answer", q->answers[i].value ? q->answers[i].value : "");
	end(st);
	return end(st);
}

static int body_numeric(struct html *st, const struct qb_question *q)
{
	size_t i;

	answer_box(st, "Answer:");
	if (q->nanswers && q->answers[0].unit)
		elem(st, "p", "unit", q->answers[0].unit);
	tag(st, "div", "answer teacher");
	teacher_label(st, "Answer");
	tag(st, "ul", NULL);
	for (i = 0; i < q->nanswers; i++) {
		const struct qb_answer *a = &q->answers[i];

		qb_buf_clear(&st->tmp);
		qb_buf_adds(&st->tmp, a->value ? a->value : "");
		if (a->tolerance)
			qb_buf_printf(&st->tmp, " \xc2\xb1 %s", a->tolerance);
		if (a->unit)
			qb_buf_printf(&st->tmp, " %s", a->unit);
		if (!a->tolerance)
			qb_buf_adds(&st->tmp, " (exact)");
		elem(st, "li", "key-answer", st->tmp.ptr ? st->tmp.ptr : "");
	}
	end(st);
	return end(st);
}

static int body_essay(struct html *st, const struct qb_question *q)
{
	/* attribute of <response>, and the words around its value */
	static const char *const attrs[][3] = {
		{ "lines", "", " lines" },
		{ "min-words", "at least ", " words" },
		{ "max-words", "at most ", " words" },
	};
	size_t i;

	qb_buf_clear(&st->tmp);
	for (i = 0; q->response && i < sizeof(attrs) / sizeof(attrs[0]); i++) {
		const char *v = qb_text_attr(q->response, attrs[i][0]);

		if (!v || !v[0])
			continue;
		if ((st->tmp.len && qb_buf_adds(&st->tmp, ", ")) || qb_buf_adds(&st->tmp, attrs[i][1]) ||
		    qb_buf_adds(&st->tmp, v) || qb_buf_adds(&st->tmp, attrs[i][2]))
			return st->rc = QB_ENOMEM;
	}
	tag(st, "div", "essay-box");
	elem(st, "span", "visually-hidden", "Answer space");
	if (st->tmp.len)
		elem(st, "span", "length", st->tmp.ptr);
	end(st);
	if (q->rubric) {
		tag(st, "div", "answer teacher");
		teacher_label(st, "Rubric");
		rich(st, "div", "rubric", q->rubric);
		end(st);
	}
	return st->rc;
}

/* Matching: a table of premises with the answer column the teacher's, and
 * the responses (with the distractors) listed in byte order of their plain
 * text, so that their order gives nothing away. */
struct resp {
	const xmlNode *node;
	size_t off;                /* plain text in st->tmp2 */
	const char *text;          /* the same, once st->tmp2 is complete */
};

static int cmp_resp(const void *a, const void *b)
{
	const struct resp *x = a, *y = b;
	int c = strcmp(x->text, y->text);

	return c ? c : (x->off < y->off ? -1 : x->off > y->off);
}

static int body_matching(struct html *st, const struct qb_question *q)
{
	size_t n = q->npairs + q->ndistractors, i;
	struct resp *r = n ? calloc(n, sizeof(*r)) : NULL;

	if (n && !r)
		return st->rc = QB_ENOMEM;
	qb_buf_clear(&st->tmp2);
	for (i = 0; i < n; i++) {
		r[i].node = i < q->npairs ? q->pairs[i].response : q->distractors[i - q->npairs].node;
		r[i].off = st->tmp2.len;
		if ((r[i].node && qb_text_plain(&st->tmp2, r[i].node)) || qb_buf_addc(&st->tmp2, '\0')) {
			free(r);
			return st->rc = QB_ENOMEM;
		}
	}
	for (i = 0; i < n; i++)
		r[i].text = st->tmp2.ptr + r[i].off;
	if (n)
		qsort(r, n, sizeof(*r), cmp_resp);
	tag(st, "table", "matching");
	tag(st, "thead", NULL);
	tag(st, "tr", NULL);
	elem(st, "th", NULL, "Premise");
	elem(st, "th", NULL, "Response");
	end(st);
	end(st);
	tag(st, "tbody", NULL);
	for (i = 0; i < q->npairs; i++) {
		tag(st, "tr", NULL);
		tag(st, "td", NULL);
		rich(st, "div", "premise", q->pairs[i].premise);
		end(st);
		tag(st, "td", NULL);
		rich(st, "div", "key-answer teacher", q->pairs[i].response);
		end(st);
		end(st);
	}
	end(st);
	end(st);
	elem(st, "p", "hint", "Responses to choose from:");
	tag(st, "ul", "responses");
	for (i = 0; i < n; i++) {
		tag(st, "li", NULL);
		if (r[i].node)
			rich(st, "div", "text", r[i].node);
		end(st);
	}
	free(r);
	return end(st);
}

/* Indexed by enum qb_qtype. */
static int (*const bodies[QB_Q_UNKNOWN])(struct html *st, const struct qb_question *q) = {
	body_choice, body_choice, body_truefalse, body_short, body_numeric, body_essay, body_matching,
};

static int write_meta(struct html *st, const struct qb_question *q)
{
	size_t i;

	tag(st, "p", "meta");
	elem(st, "span", "type", q->type_name ? q->type_name : qb_qtype_names[q->type]);
	qb_buf_clear(&st->tmp);
	qb_buf_cat(&st->tmp, q->points ? q->points : "1", q->points_value == 1.0 ? " point" : " points");
	elem(st, "span", "points", st->tmp.ptr ? st->tmp.ptr : "");
	if (q->ncategories) {
		if (cat_path(&st->tmp, q))
			return st->rc = QB_ENOMEM;
		elem(st, "span", "catpath", st->tmp.ptr);
	}
	if (q->ntags) {
		tag(st, "span", "tags");
		for (i = 0; i < q->ntags; i++)
			elem(st, "span", "tag", q->tags[i]);
		end(st);
	}
	return end(st);
}

static int write_question(struct html *st, const struct qb_question *q)
{
	struct qrec r;
	char num[QB_DECIMAL_SIZE];
	size_t i;

	if (switch_category(st, q))
		return st->rc;
	qb_buf_clear(&st->tmp);
	if (qb_buf_adds(&st->tmp, "q-") || qb_buf_adds(&st->tmp, q->id))
		return st->rc = QB_ENOMEM;
	start_cls(st, "article", "q");
	attr(st, "id", st->tmp.ptr);
	attr(st, "data-type", qb_qtype_names[q->type]);
	if (cat_path(&st->tmp, q))
		return st->rc = QB_ENOMEM;
	attr(st, "data-cat", st->tmp.ptr);
	qb_buf_clear(&st->tmp);
	for (i = 0; i < q->ntags; i++)
		if ((i && qb_buf_addc(&st->tmp, '\n')) || qb_buf_adds(&st->tmp, q->tags[i]))
			return st->rc = QB_ENOMEM;
	attr(st, "data-tags", st->tmp.ptr ? st->tmp.ptr : "");
	tag(st, "header", NULL);
	tag(st, "h3", NULL);
	elem(st, "span", "num", qb_decimal(num, st->nq + 1));
	text(st, " ");
	elem(st, "span", "qid", q->id);
	end(st);
	write_meta(st, q);
	end(st);
	/* the findings' place: right after the header */
	if (drain(st))
		return st->rc;
	r.file = st->nfiles ? st->nfiles - 1 : 0;
	r.line = q->line;
	r.slot = st->spooled;
	if (fwrite(&r, sizeof(r), 1, st->qrecs.f) != 1)
		return st->rc = QB_EIO;
	st->nq++;

	rich(st, "div", "stem", q->stem);
	bodies[q->type](st, q);
	if (q->explanation) {
		tag(st, "div", "explanation teacher");
		teacher_label(st, "Explanation");
		rich(st, "div", "expl", q->explanation);
		end(st);
	}
	if (q->source)
		elem(st, "p", "source teacher", q->source);
	end(st);
	nl(st);
	st->ntypes[q->type]++;
	if (!st->has_math && has_math(q->node, 0))
		st->has_math = 1;
	return drain(st);
}

/* ---- the exporter's entry points ----------------------------------------- */

static void state_free(struct html *st)
{
	size_t i;

	if (!st)
		return;
	if (st->w)
		xmlFreeTextWriter(st->w);
	if (st->sbuf)
		xmlBufferFree(st->sbuf);
	qb_spool_close(&st->spool);
	qb_spool_close(&st->qrecs);
	qb_spool_close(&st->finds);
	qb_buf_dispose(&st->tmp);
	qb_buf_dispose(&st->tmp2);
	qb_buf_dispose(&st->img);
	qb_buf_dispose(&st->summary);
	for (i = 0; i < st->nfiles; i++)
		free(st->files[i]);
	free(st->files);
	for (i = 0; i < st->ncats; i++)
		free(st->cats[i].path);
	free(st->cats);
	free(st->places);
	free(st->title);
	free(st->lang);
	free(st);
}

/* A memory writer with element NAME open and its start tag closed, so
 * that what follows is escaped as content and drained as it is (the start
 * tag itself is dropped). */
static int writer_open(struct html *st, const char *name)
{
	st->sbuf = xmlBufferCreate();
	st->w = st->sbuf ? xmlNewTextWriterMemory(st->sbuf, 0) : NULL;
	if (!st->w)
		return QB_ENOMEM;
	if (xmlTextWriterStartElement(st->w, BAD_CAST name) < 0 ||
	    xmlTextWriterWriteRawLen(st->w, BAD_CAST "", 0) < 0 || xmlTextWriterFlush(st->w) < 0)
		return QB_EIO;
	xmlBufferEmpty(st->sbuf);
	qb_xw_attach(&st->x, st->w, 0);
	return 0;
}

int qb_html_open(void **state, const struct qb_export_opts *o, struct qb_error *err)
{
	struct html *st = calloc(1, sizeof(*st));
	int rc;

	*state = NULL;
	if (!st)
		return QB_ENOMEM;
	st->answers = o->answers;
	rc = qb_atomic_open(&st->out, o->output, err);
	if (rc) {
		free(st);
		return rc;
	}
	rc = qb_spool_open(&st->spool);
	if (!rc)
		rc = qb_spool_open(&st->qrecs);
	if (!rc)
		rc = qb_spool_open(&st->finds);
	if (rc) {
		if (rc == QB_EIO)
			qb_error_set(err, QB_EIO, "cannot create a temporary file: %s", strerror(errno));
		qb_html_abort(st);
		return rc;
	}
	rc = writer_open(st, "main");
	if (rc) {
		qb_html_abort(st);
		return rc;
	}
	*state = st;
	return 0;
}

int qb_html_bank(void *state, const struct qb_bank_info *b, struct qb_error *err)
{
	struct html *st = state;
	size_t len;
	const char *t = b->title ? qb_text_trim(b->title, &len) : NULL;
	char *f = strdup(b->file ? b->file : "");

	(void)err;
	if (!f || QB_ARRAY_PUSH(st->files, st->nfiles, st->capfiles, f)) {
		free(f);
		return QB_ENOMEM;
	}
	if (!st->title) {
		if (!t || !len) {
			t = b->id && b->id[0] ? b->id : "Question bank";
			len = strlen(t);
		}
		st->title = strndup(t, len);
		st->lang = strdup(b->lang && b->lang[0] ? b->lang : "en");
		/* f is st->files' now (QB_ARRAY_PUSH), freed with the state */
		if (!st->title || !st->lang)
			return QB_ENOMEM;  // cppcheck-suppress memleak
	}
	if (st->in_cat && !end(st))
		nl(st);
	st->in_cat = 0;
	start_cls(st, "header", "bank");
	if (t && len) {
		qb_buf_clear(&st->tmp);
		if (qb_buf_add(&st->tmp, t, len))
			return QB_ENOMEM;
		elem(st, "p", "bank-title", st->tmp.ptr);
	}
	elem(st, "p", "bank-file", b->file ? b->file : "");
	st->bank_file = b->file;
	rich(st, "div", "description", b->description);
	if (!st->has_math && has_math(b->description, 0))
		st->has_math = 1;
	end(st);
	nl(st);
	return st->rc == QB_ENOMEM ? QB_ENOMEM : 0;
}

int qb_html_question(void *state, const struct qb_question *q, struct qb_error *err)
{
	struct html *st = state;

	(void)err;
	if (q->type >= QB_Q_UNKNOWN || !q->id || q->schema_invalid)
		return 0;   /* the schema has reported it; the lint refuses the export */
	if (st->rc)
		return st->rc == QB_ENOMEM ? QB_ENOMEM : 0;
	st->bank_file = q->file;
	write_question(st, q);
	return st->rc == QB_ENOMEM ? QB_ENOMEM : 0;
}

/* The file of a finding that concerns a question (an index into files);
 * SIZE_MAX for a finding about a file or the run. */
static size_t finding_file(const struct html *st, const struct qb_export_finding *f)
{
	size_t fi;

	if (!f->question || !f->line)
		return SIZE_MAX;
	for (fi = 0; fi < st->nfiles; fi++)
		if (strcmp(st->files[fi], f->file) == 0)
			break;
	return fi == st->nfiles ? SIZE_MAX : fi;
}

/* One finding: severity, rule, place, message, and the rule's explanation
 * behind a disclosure. */
static int write_finding(struct html *st, const struct qb_export_finding *f, int where)
{
	char line[32];

	qb_buf_clear(&st->tmp);
	qb_buf_adds(&st->tmp, "finding sev-");
	qb_buf_adds(&st->tmp, f->severity);
	start_cls(st, "li", st->tmp.ptr ? st->tmp.ptr : "finding");
	attr(st, "data-rule", f->rule);
	elem(st, "span", "sev", f->severity);
	text(st, " ");
	elem(st, "code", "rule", f->rule);
	text(st, " ");
	if (where) {
		qb_buf_clear(&st->tmp);
		qb_buf_adds(&st->tmp, f->file[0] ? f->file : "qbank");
		if (f->line) {
			snprintf(line, sizeof(line), ":%lu", f->line);
			qb_buf_adds(&st->tmp, line);
		}
		elem(st, "span", "where", st->tmp.ptr ? st->tmp.ptr : "");
		text(st, " ");
	}
	elem(st, "span", "msg", f->message);
	if (f->summary || f->explain) {
		start_cls(st, "details", "explain");
		qb_buf_clear(&st->tmp);
		qb_buf_adds(&st->tmp, "Explain ");
		qb_buf_adds(&st->tmp, f->rule);
		elem(st, "summary", NULL, st->tmp.ptr ? st->tmp.ptr : "Explain");
		if (f->summary)
			elem(st, "p", "rule-summary", f->summary);
		if (f->explain)
			elem(st, "pre", "rule-explain", f->explain);
		end(st);
	}
	return end(st);
}

/* Moves what the writer has produced since the last take into OUT. */
static int take(struct html *st, struct qb_buf *out)
{
	if (flush(st))
		return st->rc;
	if (qb_buf_add(out, xmlBufferContent(st->sbuf), (size_t)xmlBufferLength(st->sbuf)))
		return st->rc = QB_ENOMEM;
	xmlBufferEmpty(st->sbuf);
	return 0;
}

struct fref {
	size_t q;                  /* question, SIZE_MAX for the run's */
	size_t i;                  /* index of the finding */
	const char *rule;          /* its rule id */
	size_t file;               /* finding_file */
	unsigned long line;
	uint64_t slot;             /* its question's findings' place */
};

/* Page order: by file (the run's findings last), line, then as given. */
static int cmp_page(const void *a, const void *b)
{
	const struct fref *x = a, *y = b;

	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

static int cmp_rule(const void *a, const void *b)
{
	const struct fref *x = a, *y = b;
	int c = strcmp(x->rule, y->rule);

	if (c)
		return c;
	return x->i < y->i ? -1 : x->i > y->i;
}

static int cmp_fref(const void *a, const void *b)
{
	const struct fref *x = a, *y = b;

	if (x->q != y->q)
		return x->q < y->q ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/* The summary: counts by severity and rule (each rule a filter link),
 * then the findings that concern no single question. */
static int write_summary(struct html *st, const struct qb_export_finding *v, size_t n,
			 const struct fref *refs)
{
	static const char *const sevs[] = { "error", "warning", "info" };
	size_t counts[3] = { 0, 0, 0 }, i, j, k, loose = 0;

	for (i = 0; i < n; i++) {
		for (k = 0; k < 3; k++)
			if (strcmp(v[i].severity, sevs[k]) == 0)
				counts[k]++;
		if (refs[i].q == SIZE_MAX)
			loose++;
	}
	start_cls(st, "section", "summary");
	attr(st, "id", "findings");
	attr(st, "aria-labelledby", "findings-title");
	start(st, "h2");
	attr(st, "id", "findings-title");
	text(st, "Lint findings");
	end(st);
	qb_buf_clear(&st->tmp);
	qb_buf_printf(&st->tmp, "%zu finding%s: %zu error%s, %zu warning%s, %zu info", n,
		      n == 1 ? "" : "s", counts[0], counts[0] == 1 ? "" : "s", counts[1],
		      counts[1] == 1 ? "" : "s", counts[2]);
	elem(st, "p", "counts", st->tmp.ptr ? st->tmp.ptr : "");
	if (n) {
		/* one line per rule, in id order */
		struct fref *byrule = malloc(n * sizeof(*byrule));

		if (!byrule)
			return st->rc = QB_ENOMEM;
		for (i = 0; i < n; i++) {
			byrule[i].q = 0;
			byrule[i].i = i;
			byrule[i].rule = v[i].rule;
		}
		qsort(byrule, n, sizeof(*byrule), cmp_rule);
		start_cls(st, "ul", "rules");
		for (i = 0; i < n; i = j) {
			const struct qb_export_finding *f = &v[byrule[i].i];

			for (j = i; j < n && strcmp(v[byrule[j].i].rule, f->rule) == 0; j++)
				;
			start(st, "li");
			start_cls(st, "button", "rule-filter");
			attr(st, "type", "button");
			attr(st, "data-rule", f->rule);
			qb_buf_clear(&st->tmp);
			qb_buf_printf(&st->tmp, "%s: %zu %s", f->rule, j - i, f->severity);
			text(st, st->tmp.ptr ? st->tmp.ptr : "");
			end(st);
			if (f->summary) {
				text(st, " ");
				elem(st, "span", "rule-summary", f->summary);
			}
			end(st);
		}
		free(byrule);
		end(st);
	}
	if (loose) {
		elem(st, "h3", NULL, "About files and the whole bank");
		start_cls(st, "ul", "findings-list");
		for (i = 0; i < n; i++)
			if (refs[i].q == SIZE_MAX)
				write_finding(st, &v[refs[i].i], 1);
		end(st);
	}
	end(st);
	nl(st);
	return take(st, &st->summary);
}

/* Gives each finding of REFS (N, in page order) the question it concerns:
 * the last one of its file that starts at or before its line. The
 * questions' records are read once, in order, beside the findings. */
static int find_questions(struct html *st, struct fref *refs, size_t n)
{
	struct qrec r = { 0, 0, 0 }, last = { 0, 0, 0 };
	size_t k, nread = 0, lastq = SIZE_MAX;
	int ahead = 0;   /* r holds record nread - 1, not yet taken */

	if (fflush(st->qrecs.f) != 0 || fseek(st->qrecs.f, 0, SEEK_SET) != 0)
		return QB_EIO;
	for (k = 0; k < n && refs[k].file != SIZE_MAX; k++) {
		for (;;) {
			if (!ahead) {
				if (nread == st->nq)
					break;
				if (fread(&r, sizeof(r), 1, st->qrecs.f) != 1)
					return QB_EIO;
				nread++;
				ahead = 1;
			}
			if (r.file > refs[k].file || (r.file == refs[k].file && r.line > refs[k].line))
				break;
			last = r;
			lastq = nread - 1;
			ahead = 0;
		}
		if (lastq != SIZE_MAX && last.file == refs[k].file) {
			refs[k].q = lastq;
			refs[k].slot = last.slot;
		}
	}
	return 0;
}

int qb_html_findings(void *state, const struct qb_export_finding *v, size_t n,
		     struct qb_error *err)
{
	struct html *st = state;
	struct fref *byq = n ? calloc(n, sizeof(*byq)) : NULL;
	struct fref *byrule = n ? calloc(n, sizeof(*byrule)) : NULL;
	size_t i, j;
	int rc;

	(void)err;
	if (n && (!byq || !byrule)) {
		free(byq);
		free(byrule);
		return QB_ENOMEM;
	}
	st->findings_given = 1;
	/* the spool's writer is reused: everything of the questions goes into
	 * the spool first */
	if (st->in_cat)
		end(st);
	st->in_cat = 0;
	drain(st);
	for (i = 0; i < n; i++) {
		byq[i].q = SIZE_MAX;
		byq[i].i = i;
		byq[i].file = finding_file(st, &v[i]);
		byq[i].line = v[i].line;
	}
	if (n)
		qsort(byq, n, sizeof(*byq), cmp_page);
	rc = find_questions(st, byq, n);
	if (rc) {
		free(byq);
		free(byrule);
		return st->rc = rc;
	}
	for (i = 0; i < n; i++)
		byrule[byq[i].i] = byq[i];
	if (n)
		qsort(byq, n, sizeof(*byq), cmp_fref);
	for (i = 0; i < n && byq[i].q != SIZE_MAX; i = j) {
		struct place *pl;

		if (QB_ARRAY_RESERVE(st->places, st->capplaces, st->nplaces + 1)) {
			st->rc = QB_ENOMEM;
			break;
		}
		pl = &st->places[st->nplaces++];
		pl->slot = byq[i].slot;
		pl->f_len = 0;
		start_cls(st, "aside", "findings");
		attr(st, "aria-label", "Lint findings");
		start(st, "ul");
		for (j = i; j < n && byq[j].q == byq[i].q; j++)
			write_finding(st, &v[byq[j].i], 0);
		end(st);
		end(st);
		nl(st);
		drain_into(st, st->finds.f, &pl->f_len);
	}
	write_summary(st, v, n, byrule);
	free(byq);
	free(byrule);
	return st->rc == QB_ENOMEM ? QB_ENOMEM : 0;
}

/* ---- the page ------------------------------------------------------------ */

/* The table of contents: one link per category section, with its count. */
static int write_toc(struct html *st)
{
	char anchor[32];
	size_t i;

	start_cls(st, "nav", "toc");
	attr(st, "aria-labelledby", "toc-title");
	start(st, "h2");
	attr(st, "id", "toc-title");
	text(st, "Contents");
	end(st);
	start(st, "ol");
	for (i = 0; i < st->ncats; i++) {
		start(st, "li");
		attr(st, "data-toc", "");
		start(st, "a");
		snprintf(anchor, sizeof(anchor), "#c%zu", i + 1);
		attr(st, "href", anchor);
		text(st, st->cats[i].path);
		end(st);
		qb_buf_clear(&st->tmp);
		qb_buf_printf(&st->tmp, " (%zu)", st->cats[i].count);
		elem(st, "span", "count", st->tmp.ptr ? st->tmp.ptr : "");
		end(st);
	}
	end(st);
	return end(st);
}

static int write_head(struct html *st)
{
	size_t i, n = 0;

	if (raw(st, "<!DOCTYPE html>\n", 16))
		return st->rc;
	start(st, "html");
	attr(st, "lang", st->lang ? st->lang : "en");
	start(st, "head");
	start(st, "meta");
	attr(st, "charset", "utf-8");
	end_void(st);
	start(st, "meta");
	attr(st, "name", "viewport");
	attr(st, "content", "width=device-width, initial-scale=1");
	end_void(st);
	/* no request of any kind, even if a text slipped a URL past the lint */
	start(st, "meta");
	attr(st, "http-equiv", "Content-Security-Policy");
	attr(st, "content", "default-src 'none'; img-src data:; style-src 'unsafe-inline'; "
		"script-src 'unsafe-inline'; base-uri 'none'; form-action 'none'");
	end_void(st);
	elem(st, "title", NULL, st->title ? st->title : "Question bank");
	start(st, "style");
	raw(st, (const char *)qb_html_css, qb_html_css_len);
	end(st);
	end(st);
	nl(st);
	start(st, "body");
	start_cls(st, "a", "skip");
	attr(st, "href", "#questions");
	text(st, "Skip to the questions");
	end(st);
	/* The teacher view's switch is a sibling of the page's parts, so that
	 * the style sheet shows the keys with "#teacher:checked ~ main", no
	 * script needed; its label sits in the controls. (":root:has()" did the
	 * same and made parsing a 10,000-question page quadratic.) */
	start_cls(st, "input", "switch-input");
	attr(st, "type", "checkbox");
	attr(st, "id", "teacher");
	if (st->answers)
		attr(st, "checked", "checked");
	end_void(st);
	start_cls(st, "header", "page");
	elem(st, "h1", NULL, st->title ? st->title : "Question bank");
	for (i = 0; i < QB_Q_UNKNOWN; i++)
		n += st->ntypes[i];
	qb_buf_clear(&st->tmp);
	qb_buf_printf(&st->tmp, "%zu question%s in %zu file%s", n, n == 1 ? "" : "s", st->nfiles,
		      st->nfiles == 1 ? "" : "s");
	for (i = 0, n = 0; i < QB_Q_UNKNOWN; i++)
		if (st->ntypes[i])
			qb_buf_printf(&st->tmp, "%s %zu %s", n++ ? "," : ":", st->ntypes[i],
				      qb_qtype_names[i]);
	elem(st, "p", "stats", st->tmp.ptr ? st->tmp.ptr : "");

	start_cls(st, "div", "controls");
	attr(st, "role", "search");
	start_cls(st, "label", "switch");
	attr(st, "for", "teacher");
	text(st, "Teacher view (keys, rationales, explanations, rubrics)");
	end(st);
	start(st, "label");
	attr(st, "for", "filter");
	text(st, "Filter");
	end(st);
	start(st, "input");
	attr(st, "type", "search");
	attr(st, "id", "filter");
	attr(st, "placeholder", "text, tag:x, cat:x, rule:x, id:x");
	attr(st, "aria-describedby", "filter-help");
	attr(st, "autocomplete", "off");
	end_void(st);
	start_cls(st, "p", "help");
	attr(st, "id", "filter-help");
	text(st, "Words match the question's text; tag:, cat:, rule:, id: and type: match those "
		 "only. Every word must match. Press / to filter, Esc to clear.");
	end(st);
	start_cls(st, "p", "status");
	attr(st, "id", "status");
	attr(st, "role", "status");
	attr(st, "aria-live", "polite");
	end(st);
	end(st);
	end(st);
	nl(st);
	return st->rc;
}

/* Copies N bytes of FROM (all that is left for UINT64_MAX) into the page,
 * after what the page's writer holds. */
static int copy_bytes(struct html *st, FILE *from, uint64_t n)
{
	if (flush(st))
		return st->rc;
	if (qb_atomic_copy(st->out, from, n) != 0)
		st->rc = QB_EIO;
	return st->rc;
}

/* Copies the spool into the page, each question's findings in its place. */
static int copy_spool(struct html *st)
{
	uint64_t pos = 0;
	size_t pi;

	if (st->rc)
		return st->rc;
	if (fflush(st->spool.f) != 0 || fseek(st->spool.f, 0, SEEK_SET) != 0 ||
	    fflush(st->finds.f) != 0 || fseek(st->finds.f, 0, SEEK_SET) != 0)
		return st->rc = QB_EIO;
	for (pi = 0; pi < st->nplaces && !st->rc; pi++) {
		const struct place *pl = &st->places[pi];

		if (!pl->f_len)
			continue;
		copy_bytes(st, st->spool.f, pl->slot - pos);
		pos = pl->slot;
		copy_bytes(st, st->finds.f, pl->f_len);
	}
	return copy_bytes(st, st->spool.f, UINT64_MAX);
}

static int write_page(struct html *st)
{
	xmlOutputBufferPtr ob;

	/* the spool's writer is done: end <main> into the spool */
	if (st->in_cat)
		end(st);
	st->in_cat = 0;
	if (drain(st))
		return st->rc;
	xmlFreeTextWriter(st->w);
	xmlBufferFree(st->sbuf);
	st->w = NULL;
	st->sbuf = NULL;

	ob = xmlOutputBufferCreateFile(qb_atomic_file(st->out), NULL);
	st->w = ob ? xmlNewTextWriter(ob) : NULL;
	if (!st->w) {
		if (ob)
			xmlOutputBufferClose(ob);
		return st->rc = QB_ENOMEM;
	}
	qb_xw_attach(&st->x, st->w, 0);
	write_head(st);
	if (st->findings_given)
		raw(st, st->summary.ptr, st->summary.len);
	write_toc(st);
	nl(st);
	start(st, "main");
	attr(st, "id", "questions");
	attr(st, "tabindex", "-1");
	nl(st);
	copy_spool(st);
	end(st);
	nl(st);
	if (st->has_math) {
		start(st, "script");
		raw(st, (const char *)qb_katex_js, qb_katex_js_len);
		end(st);
	}
	start(st, "script");
	raw(st, (const char *)qb_html_js, qb_html_js_len);
	end(st);
	nl(st);
	end(st);   /* body */
	end(st);   /* html */
	raw(st, "\n", 1);
	return flush(st);
}

int qb_html_commit(void *state, struct qb_error *err)
{
	struct html *st = state;
	struct qb_atomic *out = st->out;
	int rc;

	if (st->nproblems) {
		if (st->nproblems > 1)
			qb_error_set(err, QB_EREFUSED, "%s (and %zu more image%s)", st->problem,
				     st->nproblems - 1, st->nproblems == 2 ? "" : "s");
		else
			qb_error_set(err, QB_EREFUSED, "%s", st->problem);
		qb_html_abort(st);
		return QB_EREFUSED;
	}
	errno = 0;
	rc = write_page(st);
	if (rc) {
		int e = qb_atomic_write_error(out);

		if (rc == QB_ENOMEM)
			qb_error_set(err, rc, "out of memory");
		else
			qb_error_set(err, rc, "%s: write failed: %s", qb_atomic_path(out),
				     strerror(e ? e : errno ? errno : EIO));
		qb_html_abort(st);
		return rc;
	}
	st->out = NULL;
	state_free(st);   /* the writer flushes into the file when freed */
	return qb_atomic_commit(out, err);
}

void qb_html_abort(void *state)
{
	struct html *st = state;
	struct qb_atomic *out;

	if (!st)
		return;
	out = st->out;
	state_free(st);
	qb_atomic_abort(out);
}
