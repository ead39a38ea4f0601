/* Cue rules (hints that give the key away to a test-wise candidate):
 * cue-longest-option, cue-absolute-terms, cue-stem-echo. */
/* memmem */
#define _GNU_SOURCE
#include <string.h>

#include "rules_impl.h"

/* The key is "clearly the longest" when it is at least LONGEST_RATIO times
 * as long as the longest distractor and at least LONGEST_MIN_EXTRA
 * characters longer (normalised text, code points). The second bound keeps
 * short options ("DDP" against "DP") from counting. Documented in the rule's
 * explanation (rules.c). */
#define LONGEST_RATIO 1.5
#define LONGEST_MIN_EXTRA 10

int qb_rule_cue_longest_option(struct qb_rule_ctx *cx, const struct qb_question *q)
{
	const struct qb_qcache *c;
	size_t i, key = 0, longest = 0;
	int err;

	if (q->type != QB_Q_SINGLE || q->noptions < 2)
		return 0;
	err = qb_rule_qcache(cx, q, &c);
	if (err || c->ncorrect != 1)
		return err;
	for (i = 0; i < q->noptions; i++) {
		if (c->opt[i].nchars == 0)
			return 0;  /* text-empty */
		if (q->options[i].correct)
			key = i;
		else if (c->opt[i].nchars > longest)
			longest = c->opt[i].nchars;
	}
	if ((double)c->opt[key].nchars < LONGEST_RATIO * (double)longest ||
	    c->opt[key].nchars < longest + LONGEST_MIN_EXTRA)
		return 0;
	return qb_rule_report(cx, QB_RULE_CUE_LONGEST_OPTION, q->options[key].line,
			      "question '%s': the only correct option, %s, is clearly the longest "
			      "(%zu characters, the longest distractor %zu); shorten it or make the "
			      "distractors as specific", qb_rule_qid(q), q->options[key].id,
			      c->opt[key].nchars, longest);
}

int qb_rule_cue_absolute_terms(struct qb_rule_ctx *cx, const struct qb_question *q)
{
	const struct qb_qcache *c;
	struct qb_buf *list = &cx->scratch2;
	unsigned long line = 0;
	size_t i, m[4], a[4];
	int err, rc;

	if (!qb_qtype_is_choice(q->type))
		return 0;
	err = qb_rule_qcache(cx, q, &c);
	if (err || c->ncorrect == 0)
		return err;
	qb_buf_clear(list);
	for (i = 0; i < q->noptions; i++) {
		const struct qb_qcache_opt *o = &c->opt[i];
		const char *s = QB_QC_STR(c, o->norm);

		if (!qb_rule_may_match(QB_PAT_ABSOLUTE, o->norm_words))
			continue;
		rc = qb_rule_match(cx, QB_PAT_ABSOLUTE, s, o->norm_len, 0, m);
		if (rc < 0)
			return rc;
		if (rc == 0)
			continue;
		/* "all/none of the above" have rules of their own; asked only once
		 * an absolute term was found, since few options have one */
		rc = qb_rule_may_match(QB_PAT_ALL_ABOVE, o->norm_words)
			     ? qb_rule_match(cx, QB_PAT_ALL_ABOVE, s, o->norm_len, 0, a) : 0;
		if (rc == 0 && qb_rule_may_match(QB_PAT_NONE_ABOVE, o->norm_words))
			rc = qb_rule_match(cx, QB_PAT_NONE_ABOVE, s, o->norm_len, 0, a);
		if (rc < 0)
			return rc;
		if (rc == 1)
			continue;
		if (q->options[i].correct)
			return 0;  /* the key uses them too: no cue */
		if (!line)
			line = q->options[i].line;
		err = qb_rule_list_add(list, q->options[i].id);
		if (!err)
			err = qb_buf_adds(list, " (\"");
		if (!err)
			err = qb_buf_add(list, s + m[0], m[1] - m[0]);
		if (!err)
			err = qb_buf_adds(list, "\")");
		if (err)
			return err;
	}
	if (!line)
		return 0;
	return qb_rule_report(cx, QB_RULE_CUE_ABSOLUTE_TERMS, line,
			      "question '%s': absolute terms appear only in distractors: %s; "
			      "test-wise candidates rule such options out, so qualify them or word "
			      "the key as firmly", qb_rule_qid(q), list->ptr);
}

/* ---- cue-stem-echo ------------------------------------------------------ */

/* A word for cue-stem-echo has at least ECHO_MIN_LEN bytes; the first
 * ECHO_MAX_WORDS words of the key are tried (a key is a phrase; the bound
 * keeps a hostile 64 KiB key linear); at most ECHO_MAX_NAMED are named.
 * ECHO_MIN_NAMED words must echo: one shared word is usually the subject
 * the question is about (on the project's bank, "training" and "model" in
 * 6 of 31 questions), two are the phrase a candidate can match. */
#define ECHO_MIN_LEN 5
#define ECHO_MIN_NAMED 2
#define ECHO_MAX_WORDS 32
#define ECHO_MAX_NAMED 3

/* Words of 5 letters or more that any stem may share with any key without
 * giving it away: function words and the vocabulary of instructions. In
 * strcmp order (echo_is_stop searches it). */
static const char *const echo_stop[] = {
	"about", "above", "after", "among", "answer", "answers", "because", "before", "being",
	"below", "between", "choose", "correct", "correctly", "could", "describes", "during",
	"every", "example", "false", "following", "given", "identify", "option", "options",
	"other", "question", "select", "should", "since", "statement", "statements", "their",
	"there", "these", "those", "through", "under", "until", "using", "where", "which",
	"while", "within", "without", "would",
};

static int echo_byte(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c >= 0x80 || c == '-' || c == '_';
}

/* A binary search: echo_stop is in strcmp order. */
static int echo_is_stop(const char *w, size_t n)
{
	size_t lo = 0, hi = sizeof(echo_stop) / sizeof(echo_stop[0]), i;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const char *x = echo_stop[mid];
		int c = strncmp(w, x, n);

		if (c == 0 && x[n] == '\0')
			return 1;
		if (c < 0 || (c == 0 && x[n]))   /* W before X, or a prefix of it */
			hi = mid;
		else
			lo = mid + 1;
	}
	for (i = 0; i < n; i++)
		if (!(w[i] >= '0' && w[i] <= '9'))
			return 0;
	return 1;  /* a number is no content word */
}

/* 1 when W[0..n) is a whole word of S[0..len) (normalised texts, same case).
 * memmem finds the candidates: a byte-by-byte memcmp made this rule an
 * eighth of lint's time on a text-heavy bank. */
static int echo_has_word(const char *s, size_t len, const char *w, size_t n)
{
	const char *p = s, *end = s + len;

	while ((size_t)(end - p) >= n && (p = memmem(p, (size_t)(end - p), w, n)) != NULL) {
		size_t i = (size_t)(p - s);

		if ((i == 0 || !echo_byte((unsigned char)s[i - 1])) &&
		    (i + n == len || !echo_byte((unsigned char)s[i + n])))
			return 1;
		p++;
	}
	return 0;
}

int qb_rule_cue_stem_echo(struct qb_rule_ctx *cx, const struct qb_question *q)
{
	const struct qb_qcache *c;
	struct qb_buf *list = &cx->scratch2;
	const char *key, *stem;
	size_t i, k = 0, keylen, stemlen, tried = 0, named = 0;
	int err;

	if (q->type != QB_Q_SINGLE || q->noptions < 3)
		return 0;
	err = qb_rule_qcache(cx, q, &c);
	if (err || c->ncorrect != 1)
		return err;
	while (!q->options[k].correct)
		k++;
	key = QB_QC_STR(c, c->opt[k].norm);
	keylen = c->opt[k].norm_len;
	stem = QB_QC_STR(c, c->stem_norm);
	stemlen = c->stem_norm_len;
	qb_buf_clear(list);
	for (i = 0; i < keylen && tried < ECHO_MAX_WORDS && named < ECHO_MAX_NAMED;) {
		size_t b, n, o;
		int echo;

		if (!echo_byte((unsigned char)key[i])) {
			i++;
			continue;
		}
		for (b = i; i < keylen && echo_byte((unsigned char)key[i]); i++)
			;
		n = i - b;
		if (n < ECHO_MIN_LEN || echo_is_stop(key + b, n))
			continue;
		tried++;
		/* once per word: an earlier occurrence in the key was decided (a
		 * match cannot end at b, where key[b - 1] is no word byte) */
		if (echo_has_word(key, b, key + b, n) || !echo_has_word(stem, stemlen, key + b, n))
			continue;
		echo = 1;
		for (o = 0; o < q->noptions && echo; o++)
			if (o != k && echo_has_word(QB_QC_STR(c, c->opt[o].norm), c->opt[o].norm_len,
						    key + b, n))
				echo = 0;
		if (!echo)
			continue;
		err = qb_buf_adds(list, list->len ? ", \"" : "\"");
		if (!err)
			err = qb_buf_add(list, key + b, n);
		if (!err)
			err = qb_buf_addc(list, '"');
		if (err)
			return err;
		named++;
	}
	if (named < ECHO_MIN_NAMED)
		return 0;
	return qb_rule_report(cx, QB_RULE_CUE_STEM_ECHO, q->options[k].line,
			      "question '%s': the stem's words %s appear again only in the key, "
			      "option %s; candidates can match words instead of knowing the answer, so "
			      "reword the key or use the words in a distractor too",
			      qb_rule_qid(q), list->ptr, q->options[k].id);
}
