/* Rules about the options of one question: option-duplicate,
 * option-near-duplicate, option-all-of-the-above, option-none-of-the-above,
 * option-letter-reference. Each compares the cached normalised texts (see
 * qb_rule_qcache); pairwise work is O(k^2) in the option count k. */
#include <string.h>

#include <utf8proc.h>

#include "rules_impl.h"

/* Near-duplicates: this similarity or more (1 - edit distance / length).
 * Questions with more options than NEAR_MAX_OPTIONS (option-count warns far
 * earlier) are not compared pairwise, which bounds the work per question. */
#define NEAR_DUPLICATE 0.9
#define NEAR_MAX_OPTIONS 26

static int blank(const struct qb_qcache_opt *o)
{
	return o->norm_len == 0;
}

static int same_text(const struct qb_qcache *c, const struct qb_qcache_opt *a,
		     const struct qb_qcache_opt *b)
{
	return a->hash == b->hash && a->norm_len == b->norm_len &&
	       memcmp(QB_QC_STR(c, a->norm), QB_QC_STR(c, b->norm), a->norm_len) == 0;
}

/* "TEXT" of option O, quoted into B. */
static int quote_option(struct qb_buf *b, const struct qb_qcache *c, const struct qb_qcache_opt *o)
{
	int err = qb_buf_addc(b, '"');

	if (!err)
		err = qb_rule_quote(b, QB_QC_STR(c, o->plain), o->plain_len);
	return err ? err : qb_buf_addc(b, '"');
}

int qb_rule_option_duplicate(struct qb_rule_ctx *cx, const struct qb_question *q)
{
	const struct qb_qcache *c;
	size_t i, j;
	int err;

	if (!qb_qtype_is_choice(q->type))
		return 0;
	err = qb_rule_qcache(cx, q, &c);
	for (i = 1; i < q->noptions && !err; i++) {
		if (blank(&c->opt[i]))
			continue;  /* text-empty */
		for (j = 0; j < i; j++) {
			if (!same_text(c, &c->opt[i], &c->opt[j]))
				continue;
			qb_buf_clear(&cx->scratch2);
			err = quote_option(&cx->scratch2, c, &c->opt[j]);
			if (!err)
				err = qb_rule_report(cx, QB_RULE_OPTION_DUPLICATE, q->options[i].line,
						     "question '%s': option %s repeats option %s (%s) once "
						     "case, spacing, markup and final punctuation are ignored; "
						     "make every option distinct",
						     qb_rule_qid(q), q->options[i].id, q->options[j].id,
						     cx->scratch2.ptr);
			break;
		}
	}
	return err;
}

/* ---- near-duplicates -------------------------------------------------- */

static size_t decode(const char *s, size_t n, int32_t *out, size_t max)
{
	size_t k = 0;
	utf8proc_ssize_t used;
	utf8proc_int32_t cp;

	while (n > 0) {
		if (k == max)
			return max + 1;
		used = utf8proc_iterate((const utf8proc_uint8_t *)s, (utf8proc_ssize_t)n, &cp);
		if (used <= 0) {  /* not UTF-8: compare bytes */
			cp = (unsigned char)*s;
			used = 1;
		}
		out[k++] = cp;
		s += used;
		n -= (size_t)used;
	}
	return k;
}

#define FAR 0xFFFFu

/* Levenshtein distance of A and B, computed only within K of the diagonal
 * (Ukkonen's band): O(len * K). Returns K + 1 when the distance exceeds K,
 * so that a question of many long, similar options stays cheap. */
static size_t distance(const int32_t *a, size_t na, const int32_t *b, size_t nb, size_t k)
{
	unsigned short row0[QB_SIMILARITY_MAX + 2], row1[QB_SIMILARITY_MAX + 2];
	unsigned short *prev = row0, *cur = row1, *t;
	size_t i, j;

	if ((na > nb ? na - nb : nb - na) > k)
		return k + 1;
	for (j = 0; j <= nb; j++) {
		prev[j] = j <= k ? (unsigned short)j : FAR;
		cur[j] = FAR;  /* outside the band nothing is read, but keep it defined */
	}
	for (i = 1; i <= na; i++) {
		size_t lo = i > k ? i - k : 1, hi = i + k < nb ? i + k : nb;
		unsigned best;

		cur[lo - 1] = lo == 1 ? (unsigned short)(i <= k ? i : FAR) : FAR;
		best = cur[lo - 1];
		for (j = lo; j <= hi; j++) {
			unsigned del = prev[j] + 1u, ins = cur[j - 1] + 1u;
			unsigned sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
			unsigned m = del < ins ? del : ins;

			m = m < sub ? m : sub;
			cur[j] = (unsigned short)(m > FAR ? FAR : m);
			if (m < best)
				best = m;
		}
		if (hi + 1 <= nb)
			cur[hi + 1] = FAR;
		if (best > k)
			return k + 1;
		t = prev;
		prev = cur;
		cur = t;
	}
	return prev[nb] > k ? k + 1 : prev[nb];
}

/* Similarity when it is at least MIN (else a value below MIN). */
static double similarity_at_least(const char *a, size_t alen, const char *b, size_t blen,
				  double min)
{
	int32_t ca[QB_SIMILARITY_MAX], cb[QB_SIMILARITY_MAX];
	size_t na, nb, longer, k, d, p;

	na = decode(a, alen, ca, QB_SIMILARITY_MAX);
	nb = decode(b, blen, cb, QB_SIMILARITY_MAX);
	if (na > QB_SIMILARITY_MAX || nb > QB_SIMILARITY_MAX)
		return -1;
	longer = na > nb ? na : nb;
	if (longer == 0)
		return 1;
	/* the epsilon keeps a similarity of exactly MIN in */
	k = min > 0 ? (size_t)((1.0 - min) * (double)longer + 1e-9) : longer;
	/* a common beginning and end do not change the distance: near
	 * duplicates, the costly case for the band, shrink to their difference */
	for (p = 0; p < na && p < nb && ca[p] == cb[p]; p++)
		;
	while (na > p && nb > p && ca[na - 1] == cb[nb - 1])
		na--, nb--;
	d = distance(ca + p, na - p, cb + p, nb - p, k);
	return d > k ? -1 : 1.0 - (double)d / (double)longer;
}

double qb_rule_similarity(const char *a, size_t alen, const char *b, size_t blen)
{
	return similarity_at_least(a, alen, b, blen, 0);
}

/* Code-point histogram of a text, folded into 64 buckets: the lower bound
 * of the edit distance below compares two of them. */
struct hist {
	int h[64];
};

static void histogram(struct hist *out, const char *s, size_t n)
{
	utf8proc_int32_t cp;
	utf8proc_ssize_t used;

	memset(out, 0, sizeof(*out));
	while (n > 0) {
		if ((unsigned char)*s < 0x80) {  /* ASCII: no decoding */
			out->h[*s & 63]++;
			s++;
			n--;
			continue;
		}
		used = utf8proc_iterate((const utf8proc_uint8_t *)s, (utf8proc_ssize_t)n, &cp);
		if (used <= 0)
			cp = (unsigned char)*s, used = 1;
		out->h[cp & 63]++;
		s += used;
		n -= (size_t)used;
	}
}

/* A lower bound of the edit distance: each edit changes the code-point
 * histogram (folded into 64 buckets, which only weakens the bound) by at
 * most 2 in L1 norm. Rules out most pairs before the quadratic measure
 * runs; each option's histogram is built once per question. */
static size_t distance_bound(const struct hist *a, const struct hist *b)
{
	size_t i, sum = 0;

	for (i = 0; i < 64; i++)
		sum += (size_t)(a->h[i] > b->h[i] ? a->h[i] - b->h[i] : b->h[i] - a->h[i]);
	return (sum + 1) / 2;
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* The next number in S[*pos..n): digits with inner '.' or ',' ("2.5",
 * "1,000"). Returns 0 when there is none. */
static int next_number(const char *s, size_t n, size_t *pos, size_t *start, size_t *len)
{
	size_t i = *pos, j;

	while (i < n && !is_digit(s[i]))
		i++;
	if (i == n) {
		*pos = n;
		return 0;
	}
	j = i;
	while (j < n && (is_digit(s[j]) || ((s[j] == '.' || s[j] == ',') && j + 1 < n &&
					     is_digit(s[j + 1]))))
		j++;
	*start = i;
	*len = j - i;
	*pos = j;
	return 1;
}

static int numbers_differ(const char *a, size_t alen, const char *b, size_t blen)
{
	size_t pa = 0, pb = 0, sa, la, sb, lb;
	int ha, hb;

	for (;;) {
		ha = next_number(a, alen, &pa, &sa, &la);
		hb = next_number(b, blen, &pb, &sb, &lb);
		if (ha != hb)
			return 1;
		if (!ha)
			return 0;
		if (la != lb || memcmp(a + sa, b + sb, la) != 0)
			return 1;
	}
}

/* Prefixes that turn a word into its opposite, as whole-word insertions
 * ("not ") or at a word's start ("asynchronous", "invalid", "non-blocking"). */
static const char *const negations[] = {
	"a", "an", "anti", "de", "dis", "il", "im", "in", "ir", "non", "non-", "not ", "no ", "un",
};

static int is_word_start(const char *s, size_t p)
{
	return p == 0 || s[p - 1] == ' ' || s[p - 1] == '-' || s[p - 1] == '/' || s[p - 1] == '(';
}

static int negated(const char *lo, size_t llen, const char *sh, size_t slen)
{
	size_t p, i;

	for (p = 0; p <= slen; p++) {
		if (p > 0 && lo[p - 1] != sh[p - 1])
			break;  /* past the common beginning */
		if (!is_word_start(lo, p))
			continue;
		for (i = 0; i < sizeof(negations) / sizeof(negations[0]); i++) {
			size_t k = strlen(negations[i]);

			if (llen == slen + k && memcmp(lo + p, negations[i], k) == 0 &&
			    memcmp(lo + p + k, sh + p, slen - p) == 0)
				return 1;
		}
	}
	return 0;
}

int qb_rule_near_duplicate_guard(const char *a, size_t alen, const char *b, size_t blen)
{
	if (numbers_differ(a, alen, b, blen))
		return 1;
	return alen > blen ? negated(a, alen, b, blen) : negated(b, blen, a, alen);
}

int qb_rule_option_near_duplicate(struct qb_rule_ctx *cx, const struct qb_question *q)
{
	const struct qb_qcache *c;
	struct hist h[NEAR_MAX_OPTIONS];
	unsigned char have[NEAR_MAX_OPTIONS] = { 0 };
	size_t i, j;
	int err;

	if (!qb_qtype_is_choice(q->type) || q->noptions > NEAR_MAX_OPTIONS)
		return 0;
	err = qb_rule_qcache(cx, q, &c);
	for (i = 1; i < q->noptions && !err; i++) {
		const struct qb_qcache_opt *b = &c->opt[i];

		if (blank(b))
			continue;
		for (j = 0; j < i && !err; j++) {
			const struct qb_qcache_opt *a = &c->opt[j];
			size_t longer = a->nchars > b->nchars ? a->nchars : b->nchars;
			size_t diff = a->nchars > b->nchars ? a->nchars - b->nchars : b->nchars - a->nchars;
			double sim;

			if (blank(a) || same_text(c, a, b))
				continue;  /* option-duplicate */
			/* the length difference alone bounds the similarity, and so
			 * does the histogram bound */
			if ((double)diff > (1.0 - NEAR_DUPLICATE) * (double)longer)
				continue;
			if (!have[i]) {
				histogram(&h[i], QB_QC_STR(c, b->norm), b->norm_len);
				have[i] = 1;
			}
			if (!have[j]) {
				histogram(&h[j], QB_QC_STR(c, a->norm), a->norm_len);
				have[j] = 1;
			}
			if ((double)distance_bound(&h[j], &h[i]) > (1.0 - NEAR_DUPLICATE) * (double)longer)
				continue;
			sim = similarity_at_least(QB_QC_STR(c, a->norm), a->norm_len,
						  QB_QC_STR(c, b->norm), b->norm_len, NEAR_DUPLICATE);
			if (sim < NEAR_DUPLICATE ||
			    qb_rule_near_duplicate_guard(QB_QC_STR(c, a->norm), a->norm_len,
							 QB_QC_STR(c, b->norm), b->norm_len))
				continue;
			qb_buf_clear(&cx->scratch2);
			err = quote_option(&cx->scratch2, c, a);
			if (!err)
				err = qb_buf_adds(&cx->scratch2, " and ");
			if (!err)
				err = quote_option(&cx->scratch2, c, b);
			if (!err)
				err = qb_rule_report(cx, QB_RULE_OPTION_NEAR_DUPLICATE, q->options[i].line,
						     "question '%s': options %s and %s are nearly the same "
						     "(%s, %.0f%% similar); make the difference clear or "
						     "drop one", qb_rule_qid(q), q->options[j].id,
						     q->options[i].id, cx->scratch2.ptr, sim * 100.0);
			break;
		}
	}
	return err;
}

/* ---- classic flawed options ------------------------------------------- */

/* Reports each option whose text (normalised, or plain when PLAIN) matches P. */
static int flag_options(struct qb_rule_ctx *cx, const struct qb_question *q, enum qb_rule_pat p,
			int plain, enum qb_rule_key rule, const char *advice)
{
	const struct qb_qcache *c;
	size_t i, m[4];
	int err, rc;

	if (!qb_qtype_is_choice(q->type))
		return 0;
	err = qb_rule_qcache(cx, q, &c);
	for (i = 0; i < q->noptions && !err; i++) {
		const struct qb_qcache_opt *o = &c->opt[i];

		if (plain)
			rc = qb_rule_match(cx, p, QB_QC_STR(c, o->plain), o->plain_len, 0, m);
		else if (qb_rule_may_match(p, o->norm_words))
			rc = qb_rule_match(cx, p, QB_QC_STR(c, o->norm), o->norm_len, 0, m);
		else
			rc = 0;
		if (rc <= 0) {
			err = rc;
			continue;
		}
		qb_buf_clear(&cx->scratch2);
		err = quote_option(&cx->scratch2, c, o);
		if (!err)
			err = qb_rule_report(cx, rule, q->options[i].line, "question '%s': option %s %s; %s",
					     qb_rule_qid(q), q->options[i].id, cx->scratch2.ptr, advice);
	}
	return err;
}

int qb_rule_option_all_of_the_above(struct qb_rule_ctx *cx, const struct qb_question *q)
{
	return flag_options(cx, q, QB_PAT_ALL_ABOVE, 0, QB_RULE_OPTION_ALL_OF_THE_ABOVE,
			    "'all of the above' is answered from partial knowledge and breaks when "
			    "options are shuffled; use a multiple question or another distractor");
}

int qb_rule_option_none_of_the_above(struct qb_rule_ctx *cx, const struct qb_question *q)
{
	return flag_options(cx, q, QB_PAT_NONE_ABOVE, 0, QB_RULE_OPTION_NONE_OF_THE_ABOVE,
			    "'none of the above' only tests recognising wrong answers and breaks "
			    "when options are shuffled; write another plausible distractor");
}

int qb_rule_option_letter_reference(struct qb_rule_ctx *cx, const struct qb_question *q)
{
	if (!q->shuffle)
		return 0;
	return flag_options(cx, q, QB_PAT_LETTER_REF, 1, QB_RULE_OPTION_LETTER_REFERENCE,
			    "it refers to other options by letter, but the options are shuffled; "
			    "name their content, or set shuffle=\"false\"");
}
