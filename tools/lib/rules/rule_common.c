/* The rule context (rule.h): reporting through the host, and the shared
 * state of the built-in rules: the PCRE2 patterns, compiled once per lint
 * run, and the per-question text cache.
 * Ownership: the state belongs to the context (cx->state);
 * qb_rule_ctx_dispose releases it with the scratch buffers and digests. */
#define PCRE2_CODE_UNIT_WIDTH 8

#include <stdlib.h>
#include <string.h>

#include <pcre2.h>

#include "../core/array.h"
#include "../text.h"
#include "rules_impl.h"

/* Pre-checks that rule a subject out before PCRE2 runs (most subjects
 * hold no candidate at all, and a JIT match still costs thousands of
 * instructions on a long stem). Each is a necessary condition of its
 * pattern, so a subject that passes still goes to PCRE2 and the findings
 * do not change.
 * - Key words (qb_rule_may_match): every match of the pattern contains one
 *   of its key words as a whole ASCII word (a maximal run of
 *   [A-Za-z0-9_-]), in any case. Holds because each such pattern puts
 *   (?<![\w-]), ^, or [\s(\[] before the word and (?![\w-]) or \s after
 *   it, and under UCP no other ASCII character is \w. Caseless matching
 *   lets two non-ASCII characters stand for ASCII letters (U+017F for s,
 *   U+212A for k): a text holding either one has every key word.
 *   QB_PAT_SELECT_N needs a number as well (pat_table's "all"): a number
 *   word, or a word that starts with an ASCII digit. Its \d also takes
 *   other digits ("Select \u0663"), which key-select-mismatch reads as no
 *   number (select_number) and never reports, so a stem without either
 *   has no finding to miss.
 * - LETTER (QB_PAT_LETTER_REF, in qb_rule_match): every match ends in a
 *   capital A-H with no ASCII letter, digit or underscore on either side
 *   (the pattern puts \s, & or ( before the last letter and ) or
 *   (?![\w'-]) after it). */
enum key_word {
	W_SELECT, W_CHOOSE, W_PICK, W_MARK, W_TICK, W_IDENTIFY, W_WHICH, W_CHECK, W_NOT, W_EXCEPT, W_LEAST, W_ALL,
	W_NONE, W_NEITHER, W_ALWAYS, W_NEVER, W_ONLY, W_EVERY, W_EVERYTHING, W_NOTHING,
	W_COMPLETELY, W_ENTIRELY, W_ABSOLUTELY, W_NUMBER, W_COUNT
};

/* Each key word, lower case, and its bit; the number words of
 * QB_PAT_SELECT_N share W_NUMBER, which a word that starts with an ASCII
 * digit sets as well (key_words_of). */
static const struct {
	const char *word;
	enum key_word bit;
} key_words[] = {
	{ "select", W_SELECT }, { "choose", W_CHOOSE }, { "pick", W_PICK }, { "mark", W_MARK },
	{ "tick", W_TICK }, { "identify", W_IDENTIFY }, { "which", W_WHICH }, { "check", W_CHECK },
	{ "not", W_NOT }, { "except", W_EXCEPT }, { "least", W_LEAST }, { "all", W_ALL },
	{ "none", W_NONE }, { "neither", W_NEITHER }, { "always", W_ALWAYS }, { "never", W_NEVER },
	{ "only", W_ONLY }, { "every", W_EVERY }, { "everything", W_EVERYTHING },
	{ "nothing", W_NOTHING }, { "completely", W_COMPLETELY }, { "entirely", W_ENTIRELY },
	{ "absolutely", W_ABSOLUTELY },
	{ "one", W_NUMBER }, { "two", W_NUMBER }, { "three", W_NUMBER }, { "four", W_NUMBER },
	{ "five", W_NUMBER }, { "six", W_NUMBER }, { "seven", W_NUMBER }, { "eight", W_NUMBER },
	{ "nine", W_NUMBER }, { "ten", W_NUMBER },
};
#define NKEY_WORDS (sizeof(key_words) / sizeof(key_words[0]))

_Static_assert(W_COUNT <= 32, "key words are bits of a uint32_t");

#define WB(w) (1u << W_##w)
#define W_PICK_VERBS (WB(SELECT) | WB(CHOOSE) | WB(PICK) | WB(MARK) | WB(TICK))
#define W_SELECT_N (W_PICK_VERBS | WB(IDENTIFY) | WB(WHICH))

/* Patterns read by several rules. They run with UTF and UCP, so \w, \b and
 * \s know Unicode letters and spaces; (?<![\w-]) and (?![\w-]) serve as word
 * boundaries that also keep hyphenated words ("all-reduce") whole. Keep the
 * order of enum qb_rule_pat. */
static const struct {
	const char *pattern;
	uint32_t flags;
	uint32_t words;             /* key words (bits of enum key_word); 0: no pre-check */
	uint32_t all;               /* key words that must be there as well */
} pat_table[QB_PAT_COUNT] = {
	/* QB_PAT_SELECT_N: the number must end the instruction or be followed by
	 * what is picked ("options", "two reasons why", "three causes that"),
	 * so "Pick 2 nodes at random" is not an instruction; "Which two of the
	 * following", "Which two statements are true" count as well. The
	 * branch reset (?|...) makes the number group 1 in every branch. */
	{ "(?|(?<![\\w-])(?:select|choose|pick|mark|tick|identify)\\s+"
	  "(?:(?:exactly|any|only|the)\\s+)?"
	  "(\\d{1,3}|one|two|three|four|five|six|seven|eight|nine|ten)(?![\\w-])"
	  "(?=\\s*(?:$|[.:;!?)\\]]|(?:(?:correct|best|true|right|valid|false|incorrect|wrong)\\s+)?"
	  "(?:options?|answers?|statements?|responses?|choices?|items?|alternatives?)(?![\\w-])|"
	  "(?:of|from)\\s+(?:the\\s+)?(?:following|options|answers|choices|list|below)(?![\\w-])|"
	  "[\\w-]+\\s+(?:why|that|which|whose)(?![\\w-])))|"
	  "(?<![\\w-])which\\s+(\\d{1,3}|one|two|three|four|five|six|seven|eight|nine|ten)(?![\\w-])"
	  "(?=\\s+(?:of(?![\\w-])|(?:options?|answers?|statements?|responses?|choices?|items?|"
	  "alternatives?)(?![\\w-])|[\\w-]+\\s+(?:are|is)\\s+(?:true|correct|false|incorrect|valid|"
	  "right|wrong)(?![\\w-]))))",
	  PCRE2_CASELESS, W_SELECT_N, WB(NUMBER) },
	/* QB_PAT_INSTRUCTION: anchored at the start of a sentence */
	{ "^[\\s(\\[]*(?:select|choose|pick|mark|tick|check)(?![\\w-])", PCRE2_CASELESS,
	  W_PICK_VERBS | WB(CHECK), 0 },
	/* QB_PAT_NEGATIVE */
	{ "(?<![\\w-])(?:not|except|least)(?![\\w-])", PCRE2_CASELESS,
	  WB(NOT) | WB(EXCEPT) | WB(LEAST), 0 },
	/* QB_PAT_RAT_POS: "Right" and "Yes" count only with punctuation after
	 * them ("Right after the backward pass" is not a verdict). */
	{ "^[\\s\\p{P}]*(correct(?![\\w-])|right(?=\\s*[.,!:;\\x{2013}\\x{2014}])|yes(?![\\w-]))",
	  PCRE2_CASELESS, 0, 0 },
	/* QB_PAT_RAT_NEG: "No" only with punctuation ("No single device can ..."
	 * on a correct option is not a verdict). */
	{ "^[\\s\\p{P}]*(incorrect(?![\\w-])|wrong(?![\\w-])|no(?=\\s*[.,!:;\\x{2013}\\x{2014}])|"
	  "not\\s+(?:quite|correct|right|true|so)(?![\\w-]))",
	  PCRE2_CASELESS, 0, 0 },
	/* QB_PAT_ALL_ABOVE */
	{ "(?<![\\w-])all\\s+(?:of\\s+)?(?:the\\s+)?(?:above|previous|preceding)(?![\\w-])|"
	  "^(?:all\\s+of\\s+(?:these|them|the\\s+(?:options|answers|choices))|"
	  "all\\s+(?:the\\s+)?(?:options|answers|choices)\\s+(?:are\\s+)?(?:correct|true))$",
	  PCRE2_CASELESS, WB(ALL), 0 },
	/* QB_PAT_NONE_ABOVE */
	{ "(?<![\\w-])(?:none|neither)\\s+of\\s+(?:the\\s+)?(?:above|previous|preceding)(?![\\w-])|"
	  "(?<![\\w-])neither\\s+(?:the\\s+)?above(?![\\w-])|"
	  "^none\\s+of\\s+(?:these|them|the\\s+(?:options|answers|choices))$",
	  PCRE2_CASELESS, WB(NONE) | WB(NEITHER), 0 },
	/* QB_PAT_LETTER_REF: letters are upper case (plain text, not case
	 * folded), so the article "a" does not count. */
	{ "(?<![\\w'-])\\(?[A-H]\\)?(?:\\s*,\\s*\\(?[A-H]\\)?)*\\s*,?\\s*(?:(?i:and|or|nor)\\s+|&\\s*)"
	  "\\(?[A-H]\\)?(?![\\w'-])|"
	  "(?<![\\w-])(?i:options?|answers?|choices?)\\s+\\(?[A-H]\\)?(?![\\w'-])",
	  0, 0, 0 },
	/* QB_PAT_ABSOLUTE */
	{ "(?<![\\w-])(?:always|never|all|none|only|every|everything|nothing|completely|"
	  "entirely|absolutely)(?![\\w-])",
	  PCRE2_CASELESS,
	  WB(ALWAYS) | WB(NEVER) | WB(ALL) | WB(NONE) | WB(ONLY) | WB(EVERY) | WB(EVERYTHING) |
	  WB(NOTHING) | WB(COMPLETELY) | WB(ENTIRELY) | WB(ABSOLUTELY), 0 },
};

struct qb_rules_state {
	pcre2_code *re[QB_PAT_COUNT];
	pcre2_match_data *md;
	struct qb_qcache qc;
	size_t text_cap, scratch_cap;   /* capacities already defined (define_tail) */
	size_t shared[QB_SHARED_COUNT];  /* question number each was last done for */
	unsigned char word_byte[256];   /* 1: [A-Za-z0-9_-], 2: non-ASCII, 0: other */
	signed char by_first[26][NKEY_WORDS + 1];  /* key_words by first letter, ended by -1 */
	uint16_t lengths[26];           /* bit N: a key word of N letters has this first letter */
};

/* PCRE2's JIT code may read a few bytes past the end of the subject (never
 * beyond what is mapped, and the result does not depend on them), which
 * memory checkers report as uninitialised reads. Defining the spare
 * capacity of the buffers that hold subjects, each time it grows, keeps
 * valgrind runs clean at no measurable cost. */
static void define_tail(struct qb_buf *b, size_t *seen_cap)
{
	if (b->ptr && b->cap > *seen_cap) {
		memset(b->ptr + b->len + 1, 0, b->cap - b->len - 1);
		*seen_cap = b->cap;
	}
}

void qb_rule_scratch_ready(struct qb_rule_ctx *cx)
{
	define_tail(&cx->scratch, &cx->state->scratch_cap);
}

static void state_free(struct qb_rules_state *s);

static int state_new(struct qb_rules_state **out)
{
	struct qb_rules_state *s;
	int i, errcode;
	PCRE2_SIZE erroff;

	*out = NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return QB_ENOMEM;
	for (i = 0; i < QB_PAT_COUNT; i++) {
		s->re[i] = pcre2_compile((PCRE2_SPTR)pat_table[i].pattern, PCRE2_ZERO_TERMINATED,
					 pat_table[i].flags | PCRE2_UTF | PCRE2_UCP, &errcode,
					 &erroff, NULL);
		if (!s->re[i]) {
			/* a built-in pattern: only a broken build gets here */
			state_free(s);
			return QB_EINVAL;
		}
		/* JIT is an optimisation: without it (no JIT support on this CPU)
		 * the interpreter runs the same pattern. */
		(void)pcre2_jit_compile(s->re[i], PCRE2_JIT_COMPLETE);
	}
	/* enough pairs for every pattern's groups */
	s->md = pcre2_match_data_create(4, NULL);
	if (!s->md) {
		state_free(s);
		return QB_ENOMEM;
	}
	s->qc.serial = (size_t)-1;
	for (i = 0; i < QB_SHARED_COUNT; i++)
		s->shared[i] = (size_t)-1;
	for (i = 0; i < 256; i++)
		s->word_byte[i] = i >= 0x80 ? 2
				  : (i >= 'a' && i <= 'z') || (i >= 'A' && i <= 'Z') ||
					    (i >= '0' && i <= '9') || i == '_' || i == '-';
	memset(s->by_first, -1, sizeof(s->by_first));
	for (i = 0; i < (int)NKEY_WORDS; i++) {
		const char *w = key_words[i].word;
		signed char *v = s->by_first[w[0] - 'a'];
		size_t n = strlen(w), k = 0;

		while (v[k] >= 0)
			k++;
		v[k] = (signed char)i;
		s->lengths[w[0] - 'a'] |= (uint16_t)(1u << n);  /* n < 16 */
	}
	*out = s;
	return 0;
}

static void state_free(struct qb_rules_state *s)
{
	int i;

	if (!s)
		return;
	for (i = 0; i < QB_PAT_COUNT; i++)
		pcre2_code_free(s->re[i]);
	pcre2_match_data_free(s->md);
	qb_buf_dispose(&s->qc.text);
	free(s->qc.opt);
	free(s);
}

int qb_rule_ctx_init(struct qb_rule_ctx *cx, const struct qb_rule_host *host, void *host_ctx,
		     const struct qb_config *cfg)
{
	memset(cx, 0, sizeof(*cx));
	cx->host = host;
	cx->host_ctx = host_ctx;
	cx->cfg = cfg;
	return state_new(&cx->state);
}

void qb_rule_ctx_dispose(struct qb_rule_ctx *cx)
{
	if (!cx)
		return;
	state_free(cx->state);
	qb_rule_digests_free(cx->digests);
	qb_buf_dispose(&cx->scratch);
	qb_buf_dispose(&cx->scratch2);
	memset(cx, 0, sizeof(*cx));
}

/* The body of each report function: F and the message to the host. */
#define REPORT_TO_HOST(cx, f, fmt)                                                 \
	do {                                                                       \
		va_list ap_;                                                       \
		int err_;                                                          \
		va_start(ap_, fmt);                                                \
		err_ = (cx)->host->report((cx)->host_ctx, &(f), (fmt), ap_);       \
		va_end(ap_);                                                       \
		return err_;                                                       \
	} while (0)

int qb_rule_report(struct qb_rule_ctx *cx, enum qb_rule_key rule, unsigned long line,
		   const char *fmt, ...)
{
	struct qb_rule_finding f = { rule, NULL, QB_SEV_OFF, line, 0 };

	REPORT_TO_HOST(cx, f, fmt);
}

int qb_rule_report_min(struct qb_rule_ctx *cx, enum qb_rule_key rule, enum qb_severity min_sev,
		       unsigned long line, const char *fmt, ...)
{
	struct qb_rule_finding f = { rule, NULL, min_sev, line, 0 };

	REPORT_TO_HOST(cx, f, fmt);
}

int qb_rule_report_run(struct qb_rule_ctx *cx, enum qb_rule_key rule, const char *fmt, ...)
{
	struct qb_rule_finding f = { rule, NULL, QB_SEV_OFF, 0, 1 };

	REPORT_TO_HOST(cx, f, fmt);
}

int qb_rule_report_user(struct qb_rule_ctx *cx, const char *id, unsigned long line,
			const char *fmt, ...)
{
	struct qb_rule_finding f = { QB_RULE_COUNT, id, QB_SEV_OFF, line, 0 };

	REPORT_TO_HOST(cx, f, fmt);
}

enum qb_severity qb_rule_severity(const struct qb_rule_ctx *cx, enum qb_rule_key rule)
{
	return cx->host->severity(cx->host_ctx, rule);
}

const char *qb_rule_file_name(const struct qb_rule_ctx *cx, size_t index)
{
	return cx->host->file_name(cx->host_ctx, index);
}

int qb_rule_shared_first(struct qb_rule_ctx *cx, enum qb_rule_shared key)
{
	if (cx->state->shared[key] == cx->serial)
		return 0;
	cx->state->shared[key] = cx->serial;
	return 1;
}

/* The characters that caseless matching takes for an ASCII letter
 * (U+017F and U+212A) start at S[0..n). */
static int ascii_fold_char(const unsigned char *s, size_t n)
{
	return (n >= 2 && s[0] == 0xC5 && s[1] == 0xBF) ||
	       (n >= 3 && s[0] == 0xE2 && s[1] == 0x84 && s[2] == 0xAA);
}

/* The key words that S[0..len) holds as whole words (all of them when it
 * holds a character that folds to an ASCII letter), and in *FIRST where the
 * first of them starts (0 in that case or when there is none). S[len] must
 * not be a word byte (the cached texts end in NUL). One pass per text, so
 * that each rule's pattern is asked only when its words are there.
 * Lower-casing with "| 0x20" leaves digits and '-' as they are and turns
 * '_' into DEL: none of them starts or is inside a key word. */
static uint32_t key_words_of(const struct qb_rules_state *st, const unsigned char *s, size_t len,
			     size_t *first)
{
	const unsigned char *wb = st->word_byte;
	uint32_t found = 0;
	size_t i = 0;

	*first = 0;
	while (i < len) {
		size_t b, n;
		unsigned char f;
		const signed char *w;

		if (wb[s[i]] != 1) {
			if (wb[s[i]] == 2 && ascii_fold_char(s + i, len - i)) {
				*first = 0;
				return UINT32_MAX;
			}
			i++;
			continue;
		}
		for (b = i++; wb[s[i]] == 1; i++)  /* s[len] ends the word */
			;
		n = i - b;
		if (s[b] >= '0' && s[b] <= '9') {
			if (!found)
				*first = b;
			found |= 1u << W_NUMBER;
			continue;
		}
		f = s[b] | 0x20;
		if (f < 'a' || f > 'z' || n >= 16 || !(st->lengths[f - 'a'] >> n & 1))
			continue;
		for (w = st->by_first[f - 'a']; *w >= 0; w++) {
			const char *x = key_words[*w].word;
			size_t k;

			for (k = 1; k < n && (s[b + k] | 0x20) == (unsigned char)x[k]; k++)
				;
			if (k == n && x[k] == '\0') {
				if (!found)
					*first = b;
				found |= 1u << key_words[*w].bit;
				break;
			}
		}
	}
	return found;
}

int qb_rule_may_match(enum qb_rule_pat p, uint32_t words)
{
	return (!pat_table[p].words || (pat_table[p].words & words)) &&
	       (words & pat_table[p].all) == pat_table[p].all;
}

static int alnum_byte(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

/* 0 when no match of QB_PAT_LETTER_REF can exist in S[i..len) (see the
 * pre-checks above). Eight bytes at a time, looking only closer at those
 * that hold a byte 'A'..'H'. */
static int may_match_letter(const unsigned char *s, size_t i, size_t len)
{
	const uint64_t ones = 0x0101010101010101ULL, high = 0x8080808080808080ULL;

	while (i < len) {
		size_t end = len - i >= 8 ? i + 8 : len;

		if (end - i == 8) {
			uint64_t x, y;

			memcpy(&x, s + i, sizeof(x));
			y = x & ~high;  /* no carry crosses a byte below */
			if (!((y + 0x3F * ones) & ~(y + 0x37 * ones) & ~x & high)) {
				i = end;  /* no byte 'A'..'H' */
				continue;
			}
		}
		for (; i < end; i++)
			if (s[i] >= 'A' && s[i] <= 'H' && (i == 0 || !alnum_byte(s[i - 1])) &&
			    (i + 1 == len || !alnum_byte(s[i + 1])))
				return 1;
	}
	return 0;
}

int qb_rule_match(struct qb_rule_ctx *cx, enum qb_rule_pat p, const char *s, size_t len,
		  size_t start, size_t m[4])
{
	struct qb_rules_state *st = cx->state;
	PCRE2_SIZE *ov;
	int rc;

	if (p == QB_PAT_LETTER_REF && s && !may_match_letter((const unsigned char *)s, start, len))
		return 0;
	/* libxml2 and utf8proc hand out valid UTF-8 only: skip PCRE2's check */
	rc = pcre2_match(st->re[p], (PCRE2_SPTR)(s ? s : ""), len, start, PCRE2_NO_UTF_CHECK,
			 st->md, NULL);
	if (rc == PCRE2_ERROR_NOMATCH)
		return 0;
	if (rc < 0)
		return QB_EINVAL;
	ov = pcre2_get_ovector_pointer(st->md);
	m[0] = ov[0];
	m[1] = ov[1];
	if (rc > 1 && ov[2] != PCRE2_UNSET) {
		m[2] = ov[2];
		m[3] = ov[3];
	} else {
		m[2] = ov[0];
		m[3] = ov[1];
	}
	return 1;
}

/* Appends the plain text of N (from SCRATCH) and its normalised form to the
 * cache text; sets the offsets. */
static int cache_text(struct qb_qcache *c, struct qb_buf *scratch, const xmlNode *n,
		      size_t *plain, size_t *plain_len, size_t *norm, size_t *norm_len)
{
	int err;

	qb_buf_clear(scratch);
	err = qb_text_plain(scratch, n);
	if (!err)
		err = qb_buf_grow(scratch, 0);
	if (err)
		return err;
	*plain = c->text.len;
	*plain_len = scratch->len;
	err = qb_buf_add(&c->text, scratch->ptr, scratch->len);
	if (!err)
		err = qb_buf_addc(&c->text, '\0');
	if (err)
		return err;
	*norm = c->text.len;
	err = qb_text_normalize(&c->text, scratch->ptr, scratch->len);
	if (err)
		return err;
	*norm_len = c->text.len - *norm;
	return qb_buf_addc(&c->text, '\0');
}

/* Code points of UTF-8 S[0..n): the bytes that are not continuation bytes
 * (10xxxxxx), counted eight at a time. */
static size_t count_chars(const char *s, size_t n)
{
	const uint64_t ones = 0x0101010101010101ULL, high = 0x8080808080808080ULL;
	size_t i, cont = 0;

	for (i = 0; i + 8 <= n; i += 8) {
		uint64_t x;

		memcpy(&x, s + i, sizeof(x));
		cont += (size_t)((((x & ~(x << 1) & high) >> 7) * ones) >> 56);
	}
	for (; i < n; i++)
		cont += ((unsigned char)s[i] & 0xC0) == 0x80;
	return n - cont;
}

pcre2_match_data *qb_rule_match_data(struct qb_rule_ctx *cx)
{
	return cx->state->md;
}

int qb_rule_qcache(struct qb_rule_ctx *cx, const struct qb_question *q, const struct qb_qcache **out)
{
	struct qb_qcache *c = &cx->state->qc;
	size_t i, at;
	int err = 0;

	*out = c;
	if (c->serial == cx->serial)
		return 0;
	c->serial = (size_t)-1;
	qb_buf_clear(&c->text);
	c->ncorrect = 0;
	if (QB_ARRAY_RESERVE(c->opt, c->capopt, q->noptions))
		return QB_ENOMEM;
	err = cache_text(c, &cx->scratch, q->stem, &c->stem_plain, &c->stem_plain_len,
			 &c->stem_norm, &c->stem_norm_len);
	if (!err)
		c->stem_words = key_words_of(cx->state, (const unsigned char *)QB_QC_STR(c, c->stem_plain),
					     c->stem_plain_len, &c->stem_words_at);
	for (i = 0; i < q->noptions && !err; i++) {
		struct qb_qcache_opt *o = &c->opt[i];

		err = cache_text(c, &cx->scratch, q->options[i].text, &o->plain, &o->plain_len,
				 &o->norm, &o->norm_len);
		if (err)
			break;
		o->nchars = count_chars(QB_QC_STR(c, o->norm), o->norm_len);
		o->hash = qb_hash(QB_QC_STR(c, o->norm), o->norm_len);
		o->norm_words = key_words_of(cx->state, (const unsigned char *)QB_QC_STR(c, o->norm),
					     o->norm_len, &at);
		c->ncorrect += q->options[i].correct != 0;
	}
	if (!err) {
		define_tail(&c->text, &cx->state->text_cap);
		c->serial = cx->serial;
	}
	return err;
}

unsigned long qb_rule_node_line(const xmlNode *n)
{
	long g;

	if (!n)
		return 0;
	if (n->line > 0 && n->line < 65535)
		return n->line;
	g = xmlGetLineNo((xmlNodePtr)n);
	return g > 0 ? (unsigned long)g : 0;
}

const char *qb_rule_qid(const struct qb_question *q)
{
	return q->id ? q->id : "(no id)";
}

int qb_rule_list_add(struct qb_buf *b, const char *item)
{
	int err = 0;

	if (b->len)
		err = qb_buf_adds(b, ", ");
	return err ? err : qb_buf_adds(b, item);
}

int qb_rule_quote(struct qb_buf *b, const char *s, size_t n)
{
	size_t i, start = b->len;
	int space = 0, err = qb_buf_grow(b, n);

	for (i = 0; i < n && !err; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
			space = 1;
			continue;
		}
		if (space && b->len > start)
			err = qb_buf_addc(b, ' ');
		space = 0;
		if (!err)
			err = qb_buf_addc(b, (char)c);
	}
	return err;
}
