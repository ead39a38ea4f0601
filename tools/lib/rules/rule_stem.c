/* Rules about the stem: stem-negative-unemphasized. */
#include <string.h>

#include "rules_impl.h"

enum { EMPH = 1, LITERAL = 2 };

/* Plain text of a stem into T with one flag byte per text byte in F:
 * EMPH inside em/strong, LITERAL inside code/math/pre (never prose).
 * Block boundaries become '\n' (sentence breaks); the text's own line
 * breaks become spaces. */
static int walk(struct qb_buf *t, struct qb_buf *f, const xmlNode *n, char flags, int depth)
{
	const xmlNode *c;
	int err = 0;

	if (depth > 256)
		return 0;
	for (c = n->children; c && !err; c = c->next) {
		if (c->type == XML_TEXT_NODE || c->type == XML_CDATA_SECTION_NODE) {
			size_t n = c->content ? strlen((const char *)c->content) : 0, i, at = t->len;

			err = qb_buf_add(t, c->content, n);
			if (!err)
				err = qb_buf_grow(f, n);
			if (err)
				break;
			for (i = at; i < t->len; i++)
				if (t->ptr[i] == '\n' || t->ptr[i] == '\r' || t->ptr[i] == '\t')
					t->ptr[i] = ' ';
			memset(f->ptr + f->len, flags, n);
			f->len += n;
			f->ptr[f->len] = '\0';
		} else if (c->type == XML_ELEMENT_NODE) {
			const char *name = (const char *)c->name;
			int block = strcmp(name, "p") == 0 || strcmp(name, "li") == 0 ||
				    strcmp(name, "ul") == 0 || strcmp(name, "ol") == 0 ||
				    strcmp(name, "pre") == 0;
			char fl = flags;

			if (strcmp(name, "em") == 0 || strcmp(name, "strong") == 0)
				fl |= EMPH;
			else if (strcmp(name, "code") == 0 || strcmp(name, "math") == 0 ||
				 strcmp(name, "pre") == 0)
				fl |= LITERAL;
			if (block || strcmp(name, "br") == 0 || strcmp(name, "img") == 0) {
				err = qb_buf_addc(t, block ? '\n' : ' ');
				if (!err)
					err = qb_buf_addc(f, flags);
			}
			if (!err)
				err = walk(t, f, c, fl, depth + 1);
			if (!err && block) {
				err = qb_buf_addc(t, '\n');
				if (!err)
					err = qb_buf_addc(f, flags);
			}
		}
	}
	return err;
}

static int blank_range(const char *s, size_t a, size_t b)
{
	for (; a < b; a++)
		if (s[a] != ' ' && s[a] != '\n')
			return 0;
	return 1;
}

/* The word before position P in S[0..p) equals W (ASCII, any case). */
static int word_before(const char *s, size_t p, const char *w)
{
	size_t n = strlen(w), e = p, b, i;

	while (e > 0 && s[e - 1] == ' ')
		e--;
	b = e;
	while (b > 0 && s[b - 1] != ' ' && s[b - 1] != '\n')
		b--;
	if (e - b != n)
		return 0;
	for (i = 0; i < n; i++)
		if ((s[b + i] | 0x20) != w[i])
			return 0;
	return 1;
}

static int word_after(const char *s, size_t len, size_t p, const char *w)
{
	size_t n = strlen(w), i;

	while (p < len && s[p] == ' ')
		p++;
	if (len - p < n)
		return 0;
	for (i = 0; i < n; i++)
		if ((s[p + i] | 0x20) != w[i])
			return 0;
	return p + n == len || !((s[p + n] | 0x20) >= 'a' && (s[p + n] | 0x20) <= 'z');
}

/* Whether the negative word at S[a..b) needs emphasis. */
static int needs_emphasis(const char *s, const char *f, size_t len, size_t a, size_t b)
{
	size_t i;
	int upper = 1;

	for (i = a; i < b; i++) {
		if (f[i] & (EMPH | LITERAL))
			return 0;
		if (!(s[i] >= 'A' && s[i] <= 'Z'))
			upper = 0;
	}
	if (upper)
		return 0;
	/* not a negative question: "at least two", "whether or not", "not only" */
	if (word_before(s, a, "at") || word_before(s, a, "or") || word_after(s, len, b, "only"))
		return 0;
	return 1;
}

int qb_rule_stem_negative_unemphasized(struct qb_rule_ctx *cx, const struct qb_question *q)
{
	struct qb_buf *t = &cx->scratch, *f = &cx->scratch2;
	const struct qb_qcache *c;
	size_t i, s = 0, lead_s = 0, lead_e = 0, m[4], start;
	int err, rc, asks = 0;
	char word[16];

	if (!q->stem)
		return 0;
	/* most stems hold no negative at all: look before walking the markup */
	err = qb_rule_qcache(cx, q, &c);
	if (err || !qb_rule_may_match(QB_PAT_NEGATIVE, c->stem_words))
		return err;
	rc = qb_rule_match(cx, QB_PAT_NEGATIVE, QB_QC_STR(c, c->stem_plain), c->stem_plain_len,
			   c->stem_words_at, m);
	if (rc <= 0)
		return rc;
	qb_buf_clear(t);
	qb_buf_clear(f);
	err = walk(t, f, q->stem, 0, 0);
	if (!err)
		err = qb_buf_grow(t, 0);
	if (!err)
		err = qb_buf_grow(f, 0);
	if (err)
		return err;
	qb_rule_scratch_ready(cx);
	/* The lead-in is the question the stem asks: its last sentence that ends
	 * with a question mark, or else its last sentence, never counting an
	 * instruction such as "Select two." (so a trailing hint or note is not
	 * the lead-in). Sentences end at a block boundary or at . ? ! followed
	 * by a space. */
	for (i = 0; i <= t->len; i++) {
		int end = i == t->len || t->ptr[i] == '\n' ||
			  ((t->ptr[i] == '.' || t->ptr[i] == '?' || t->ptr[i] == '!') &&
			   (i + 1 == t->len || t->ptr[i + 1] == ' ' || t->ptr[i + 1] == '\n'));
		size_t e = i < t->len && t->ptr[i] != '\n' ? i + 1 : i;

		if (!end)
			continue;
		if (!blank_range(t->ptr, s, e)) {
			rc = qb_rule_match(cx, QB_PAT_INSTRUCTION, t->ptr + s, e - s, 0, m);
			if (rc < 0)
				return rc;
			if (rc == 0 && !asks) {
				lead_s = s;
				lead_e = e;
			}
			if (rc == 0 && t->ptr[e - 1] == '?') {
				lead_s = s;
				lead_e = e;
				asks = 1;
			}
		}
		s = e;
		if (i < t->len && t->ptr[i] == '\n')
			s = i + 1;
	}
	for (start = lead_s; start < lead_e; start = m[1] > start ? m[1] : start + 1) {
		rc = qb_rule_match(cx, QB_PAT_NEGATIVE, t->ptr, lead_e, start, m);
		if (rc <= 0)
			return rc;
		if (!needs_emphasis(t->ptr, f->ptr, lead_e, m[0], m[1]))
			continue;
		if (m[1] - m[0] >= sizeof(word))
			continue;
		for (i = m[0]; i < m[1]; i++)
			word[i - m[0]] = t->ptr[i] >= 'a' && t->ptr[i] <= 'z'
					 ? (char)(t->ptr[i] - 'a' + 'A') : t->ptr[i];
		word[m[1] - m[0]] = '\0';
		return qb_rule_report(cx, QB_RULE_STEM_NEGATIVE_UNEMPHASIZED, q->stem_line,
				      "question '%s': \"%.*s\" in the stem's lead-in is neither upper case "
				      "nor emphasised; write %s or <em>%.*s</em> so that candidates do not "
				      "miss it", qb_rule_qid(q), (int)(m[1] - m[0]), t->ptr + m[0], word,
				      (int)(m[1] - m[0]), t->ptr + m[0]);
	}
	return 0;
}
