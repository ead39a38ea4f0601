/* img-unsafe-path and img-missing: every img of a question, judged by
 * imgpath.h (the same verdicts the exporters act on). The image files
 * themselves are never opened here. */
#include <string.h>

#include "../imgpath.h"
#include "rules_impl.h"

/* SRC for a message: at most 120 bytes, cut on a character boundary. */
static int quoted_src(struct qb_buf *b, const char *src)
{
	size_t n = strlen(src);

	qb_buf_clear(b);
	if (n <= 120)
		return qb_buf_adds(b, src);
	n = 117;
	while (n > 0 && ((unsigned char)src[n] & 0xC0) == 0x80)
		n--;
	if (qb_buf_add(b, src, n))
		return QB_ENOMEM;
	return qb_buf_adds(b, "...");
}

static const char *src_of(const xmlNode *n)
{
	const xmlAttr *a;

	for (a = n->properties; a; a = a->next)
		if (!a->ns && strcmp((const char *)a->name, "src") == 0)
			return a->children && a->children->content ? (const char *)a->children->content
								   : "";
	return "";
}

/* Which verdicts to report (bits), from the rules in force; looked up at
 * the first img, since most questions have none. The size limit is
 * reported with the path verdicts: both need the stat. */
static unsigned wanted(const struct qb_rule_ctx *cx)
{
	unsigned want = 0;

	if (qb_rule_severity(cx, QB_RULE_IMG_UNSAFE_PATH) != QB_SEV_OFF)
		want |= 1u << QB_IMG_UNSAFE | 1u << QB_IMG_TOO_BIG;
	if (qb_rule_severity(cx, QB_RULE_IMG_MISSING) != QB_SEV_OFF)
		want |= 1u << QB_IMG_MISSING;
	return want | 1u << QB_IMG_OK;  /* nonzero: looked up */
}

/* Reports each img below N whose verdict is in *WANT (0 until looked up). */
static int walk(struct qb_rule_ctx *cx, const struct qb_question *q, const xmlNode *n, unsigned *want)
{
	const xmlNode *c;
	int rc = 0;

	for (c = n->children; c && !rc; c = c->next) {
		const char *src, *why = "";
		int v;

		if (c->type != XML_ELEMENT_NODE)
			continue;
		if (strcmp((const char *)c->name, "img") != 0) {
			if (c->children)
				rc = walk(cx, q, c, want);
			continue;
		}
		src = src_of(c);
		v = qb_img_path_check(q->file, src, NULL, &why);
		if (v < 0)
			return v;
		if (v == QB_IMG_OK)
			continue;
		if (!*want)
			*want = wanted(cx);
		if (!(*want & (1u << v)))
			continue;
		if ((rc = quoted_src(&cx->scratch2, src)) != 0)
			return rc;
		if (v == QB_IMG_UNSAFE)
			rc = qb_rule_report(cx, QB_RULE_IMG_UNSAFE_PATH, qb_rule_node_line(c),
					    "img src '%s' %s; an image is a file inside the bank's "
					    "folder, named relative to the bank file (img/name.png), "
					    "and is never read otherwise", cx->scratch2.ptr, why);
		else if (v == QB_IMG_MISSING)
			rc = qb_rule_report(cx, QB_RULE_IMG_MISSING, qb_rule_node_line(c),
					    "img src '%s' %s (relative to the bank file's folder)",
					    cx->scratch2.ptr, why);
		else if (v == QB_IMG_TOO_BIG)
			rc = qb_rule_report(cx, QB_RULE_LIMIT_EXCEEDED, qb_rule_node_line(c),
					    "img src '%s' %s, the most an export embeds (README "
					    "\"Limits\")", cx->scratch2.ptr, why);
	}
	return rc;
}

/* Both rules judge every img of the question in one walk, run by whichever
 * of the two checks comes first (either may be switched off). */
static int check_imgs(struct qb_rule_ctx *cx, const struct qb_question *q)
{
	unsigned want = 0;

	if (q->no_img || !qb_rule_shared_first(cx, QB_SHARED_IMG))
		return 0;
	return walk(cx, q, q->node, &want);
}

int qb_rule_img_unsafe_path(struct qb_rule_ctx *cx, const struct qb_question *q)
{
	return check_imgs(cx, q);
}

int qb_rule_img_missing(struct qb_rule_ctx *cx, const struct qb_question *q)
{
	return check_imgs(cx, q);
}
