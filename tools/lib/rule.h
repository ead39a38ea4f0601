/* What a lint rule sees (tools/README.md "Floors"): the shape of its row in
 * the rule table, the question, and a context (struct qb_rule_ctx) with a
 * report function, scratch space, the configuration's user rules, and the
 * helpers every family of rules shares: the per-question text cache and
 * the pattern matcher. Never the linter: the linter is the context's host,
 * reached only through the functions of struct qb_rule_host.
 * Ownership: a context owns its scratch buffers and the rules' state (the
 * compiled patterns, the text cache, the bank-wide digests), released by
 * qb_rule_ctx_dispose; its host and configuration outlive it. */
#ifndef QB_RULE_H
#define QB_RULE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "core/buf.h"
#include "diag.h"
#include "model.h"
#include "rule_ids.h"

struct qb_config;
struct qb_rule_ctx;

/* One row of the rule table (rules.c). */
struct qb_rule {
	const char *id;
	enum qb_severity severity;   /* default */
	const char *summary;         /* one line */
	const char *explanation;     /* a paragraph, then "Bad:" and "Good:" examples */
	/* Called for each schema-valid question; reports with qb_rule_report().
	 * NULL for rules reported elsewhere (by the reader, the linter or a
	 * finish step). */
	int (*check)(struct qb_rule_ctx *cx, const struct qb_question *q);
	/* Called once after the last file (bank-wide rules), or NULL. */
	int (*finish)(struct qb_rule_ctx *cx);
	/* 1: a read error (the file, or a question of it, was not read, so
	 * nothing in it is checked or exported). Always an error: no
	 * configuration, --disable or suppression changes it, or a bank whose
	 * questions were skipped unread would lint clean and export without
	 * them. */
	int fixed;
};

/* A finding as a rule hands it to the host. */
struct qb_rule_finding {
	enum qb_rule_key rule;       /* a row of the table; QB_RULE_COUNT for a user rule */
	const char *user_id;         /* the user rule's id (custom/...), else NULL */
	enum qb_severity min_sev;    /* at least this severity when the rule is on */
	unsigned long line;
	int whole_run;               /* 1: about the run (a finish step), not the question */
};

/* What the host (the linter) does for the rules. CTX is host_ctx. */
struct qb_rule_host {
	/* Records a finding about the current question (or the run); applies
	 * the severity in force and the inline suppressions. The message is
	 * FMT with AP, formatted only when the finding is kept. */
	int (*report)(void *ctx, const struct qb_rule_finding *f, const char *fmt, va_list ap);
	/* The severity in force for RULE (QB_SEV_OFF: switched off). */
	enum qb_severity (*severity)(void *ctx, enum qb_rule_key rule);
	/* The name of the run's file number INDEX (for naming other places). */
	const char *(*file_name)(void *ctx, size_t index);
};

struct qb_rules_state;
struct qb_rule_digests;

struct qb_rule_ctx {
	const struct qb_rule_host *host;
	void *host_ctx;
	const struct qb_config *cfg;       /* the user rules; NULL: none */
	/* Number of the question being checked, from 1 in each run: what the
	 * per-question caches are keyed by. Set by the host. */
	size_t serial;
	/* Reusable text buffers for any rule; their content does not outlive
	 * the call of one check function. */
	struct qb_buf scratch;
	struct qb_buf scratch2;
	struct qb_rules_state *state;      /* patterns, text cache (rule_common.c) */
	struct qb_rule_digests *digests;   /* bank-wide rules (rule_digest.c), made on first use */
	/* Set by id-duplicate (whether or not the rule is on): the serial of
	 * the last question whose id an earlier question of the run has, and
	 * where that earlier question is (its file and line). */
	size_t id_seen_serial;
	const char *id_seen_file;
	unsigned long id_seen_line;
};

/* Compiles the patterns; 0 or a negative error (CX is then disposed). */
int qb_rule_ctx_init(struct qb_rule_ctx *cx, const struct qb_rule_host *host, void *host_ctx,
		     const struct qb_config *cfg);
void qb_rule_ctx_dispose(struct qb_rule_ctx *cx);

/* ---- reporting ---------------------------------------------------------- */

/* A finding of RULE about the current question, at LINE of its file. */
int qb_rule_report(struct qb_rule_ctx *cx, enum qb_rule_key rule, unsigned long line,
		   const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* The same, with severity at least MIN_SEV when the rule is on (e.g.
 * option-count: fewer than 2 options is always an error). */
int qb_rule_report_min(struct qb_rule_ctx *cx, enum qb_rule_key rule, enum qb_severity min_sev,
		       unsigned long line, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* A finding of RULE about the whole run, from a finish step (no file). */
int qb_rule_report_run(struct qb_rule_ctx *cx, enum qb_rule_key rule, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A finding of the user rule ID (custom/..., from the configuration). */
int qb_rule_report_user(struct qb_rule_ctx *cx, const char *id, unsigned long line,
			const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* The severity in force for RULE in this run. */
enum qb_severity qb_rule_severity(const struct qb_rule_ctx *cx, enum qb_rule_key rule);
/* The name of the run's file number INDEX (a question's file_index). */
const char *qb_rule_file_name(const struct qb_rule_ctx *cx, size_t index);

/* The configuration's user rules over Q, run by the host after the table. */
int qb_rule_user_check(struct qb_rule_ctx *cx, const struct qb_question *q);

/* ---- shared state of the built-in rules (rule_common.c) ----------------
 * Compiled once per run (qb_rule_ctx_init): the PCRE2 patterns (UTF, UCP,
 * JIT) with one reusable match data, and a per-question cache of the plain
 * and normalised texts that every family reads, so each text is
 * normalised once per question. */
enum qb_rule_pat {
	QB_PAT_SELECT_N,       /* "Select 3", "choose two options": group 1 = the number */
	QB_PAT_INSTRUCTION,    /* a sentence that only tells how many to pick */
	QB_PAT_NEGATIVE,       /* not / except / least as whole words */
	QB_PAT_RAT_POS,        /* a rationale opening with Correct / Right / Yes */
	QB_PAT_RAT_NEG,        /* ... with Incorrect / Wrong / No / Not quite */
	QB_PAT_ALL_ABOVE,      /* "all of the above" (normalised text) */
	QB_PAT_NONE_ABOVE,     /* "none of the above" (normalised text) */
	QB_PAT_LETTER_REF,     /* "Both A and C", "option B" (plain text, letters upper case) */
	QB_PAT_ABSOLUTE,       /* always, never, all, none, only ... (normalised text) */
	QB_PAT_COUNT
};

/* One option's texts, as offsets into qb_qcache.text (NUL-terminated). */
struct qb_qcache_opt {
	size_t plain, plain_len;   /* plain text (markup dropped), as written */
	size_t norm, norm_len;     /* qb_text_normalize() of the plain text */
	size_t nchars;             /* code points of the normalised text */
	uint64_t hash;             /* qb_hash of the normalised text */
	uint32_t norm_words;       /* key words of the normalised text (qb_rule_may_match) */
};

struct qb_qcache {
	size_t serial;             /* the question (cx->serial) it was built for */
	struct qb_buf text;
	size_t stem_plain, stem_plain_len, stem_norm, stem_norm_len;
	uint32_t stem_words;       /* key words of the plain stem (qb_rule_may_match) */
	size_t stem_words_at;      /* where the first of them starts: no match of
				    * QB_PAT_SELECT_N or QB_PAT_NEGATIVE (which begin
				    * with their key word) starts before it */
	struct qb_qcache_opt *opt; /* noptions entries */
	size_t capopt;
	size_t ncorrect;           /* options with correct="true" */
};

/* The cache for Q, built on the first call for each question; valid until
 * the next question. */
int qb_rule_qcache(struct qb_rule_ctx *cx, const struct qb_question *q,
		   const struct qb_qcache **out);
#define QB_QC_STR(c, off) ((c)->text.ptr + (off))

/* Searches pattern P in S[start..len): 1 with M[0..1] the match and M[2..3]
 * group 1 (the whole match again when the pattern has no group 1 or it did
 * not take part), 0 when no match, or a negative error code. */
int qb_rule_match(struct qb_rule_ctx *cx, enum qb_rule_pat p, const char *s, size_t len,
		  size_t start, size_t m[4]);

/* 0 when pattern P cannot match a cached text whose key words are WORDS
 * (stem_words, norm_words): ask before qb_rule_match, which costs far
 * more. 1 when it may match, and for patterns without key words. */
int qb_rule_may_match(enum qb_rule_pat p, uint32_t words);

/* Call after filling cx->scratch with a subject for qb_rule_match. */
void qb_rule_scratch_ready(struct qb_rule_ctx *cx);

/* Work that two checks of the table share, done once per question by
 * whichever of them runs first (the other may be switched off). */
enum qb_rule_shared {
	QB_SHARED_IMG,         /* img-missing and img-unsafe-path: one walk */
	QB_SHARED_COUNT
};

/* 1 on the first call for KEY in the current question, 0 after. */
int qb_rule_shared_first(struct qb_rule_ctx *cx, enum qb_rule_shared key);

/* ---- helpers for messages ------------------------------------------------ */

/* Line of any element of a question (libxml2 keeps exact lines to 65535). */
unsigned long qb_rule_node_line(const xmlNode *n);
/* The question's id for messages. */
const char *qb_rule_qid(const struct qb_question *q);
/* Appends ITEM to a list in B, separated by ", " (naming options in messages). */
int qb_rule_list_add(struct qb_buf *b, const char *item);
/* Appends S[0..n) to B with every run of white space turned into one space
 * (quoting text in messages). */
int qb_rule_quote(struct qb_buf *b, const char *s, size_t n);

#endif
