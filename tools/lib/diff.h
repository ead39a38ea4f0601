/* `qbank diff`: what changed between two versions of a bank, question by
 * question. Each side (a bank file, a folder, or REV:PATH read from git) is
 * read once keeping a small digest per question, and linted on the way;
 * questions are matched by id, then the rest by content (renamed); only
 * the questions whose digests differ are read a second time in full, to
 * say what changed (word diffs). The core never prints: the command line's
 * formats render the report.
 * Ownership: a qb_diff_report owns every entry, string and finding it
 * points to; qb_diff_report_free releases it. The configuration passed in
 * the options must outlive the report. */
#ifndef QB_DIFF_H
#define QB_DIFF_H

#include <stddef.h>

#include "config.h"
#include "diag.h"
#include "diff_words.h"
#include "error.h"
#include "lint.h"

/* What a change is about; the names (qb_diff_part_names) are the JSON
 * schema's and stay stable. In this order within a question: the key
 * first. */
enum qb_diff_part {
	QB_DIFF_KEY,              /* the correct options (or answers, or pairs) */
	QB_DIFF_TYPE,
	QB_DIFF_POINTS,
	QB_DIFF_SELECT,
	QB_DIFF_SHUFFLE,
	QB_DIFF_CASE,             /* short: case-sensitive */
	QB_DIFF_STEM,
	QB_DIFF_OPTION_ADDED,
	QB_DIFF_OPTION_REMOVED,
	QB_DIFF_OPTION_TEXT,      /* an option reworded */
	QB_DIFF_OPTION_RATIONALE,
	QB_DIFF_OPTION_ORDER,     /* options reordered where the order is fixed (shuffle="false") */
	QB_DIFF_RATIONALE,        /* truefalse: the rationale of one side (label "true" or "false") */
	QB_DIFF_DISTRACTORS,
	QB_DIFF_RESPONSE,
	QB_DIFF_RUBRIC,
	QB_DIFF_EXPLANATION,
	QB_DIFF_TAGS,
	QB_DIFF_SOURCE,
	QB_DIFF_IMAGE,            /* an img's file content, by blob id (label: its src) */
	QB_DIFF_NPARTS
};

extern const char *const qb_diff_part_names[QB_DIFF_NPARTS];

struct qb_diff_change {
	enum qb_diff_part part;
	const char *label;        /* option id (the new one), img src, "true"/"false"; or NULL */
	const char *old_label;    /* the option's old id when it changed, else NULL */
	const char *old_text;     /* NULL when the part is absent on that side */
	const char *new_text;
	const struct qb_word_seg *words;  /* word diff when both texts are there */
	size_t nwords;
};

/* One correct option (id and text), or one accepted answer or pair (id NULL). */
struct qb_diff_key {
	const char *id;
	const char *text;
};

enum qb_diff_kind { QB_DIFF_ADDED, QB_DIFF_REMOVED, QB_DIFF_MATCHED };

/* Flags of a matched question (several at once). */
#define QB_DIFF_RENAMED     1u   /* matched by content: its id changed */
#define QB_DIFF_MOVED       2u   /* its category changed (or its file, when both sides are folders) */
#define QB_DIFF_CHANGED     4u   /* its content changed */
#define QB_DIFF_KEY_CHANGED 8u

struct qb_diff_place {
	const char *file;         /* as findings name it; NULL when the side lacks the question */
	const char *relative;     /* below the side's folder ("" when the side is one file) */
	unsigned long line;
	const char *category;     /* " / " between names; "" outside any category */
};

struct qb_diff_entry {
	enum qb_diff_kind kind;
	unsigned flags;
	const char *id;           /* the new id (the old one for a removed question) */
	const char *old_id;       /* matched: the old id (differs when renamed) */
	const char *type;
	struct qb_diff_place old_place, new_place;
	const char *stem;         /* added, removed: the stem's text */
	const struct qb_diff_key *old_key, *new_key;  /* key changed, added, removed */
	size_t nold_key, nnew_key;
	const struct qb_diff_change *changes;
	size_t nchanges;
	unsigned similarity;      /* renamed: percent of parts in common (100: the same content) */
};

/* Counts of the summary, by kind; a question may be renamed, moved and
 * changed at once and counts under each. */
enum qb_diff_count {
	QB_DIFF_N_ADDED, QB_DIFF_N_REMOVED, QB_DIFF_N_RENAMED, QB_DIFF_N_MOVED,
	QB_DIFF_N_CHANGED, QB_DIFF_N_KEY, QB_DIFF_NCOUNTS
};

struct qb_diff_side_info {
	const char *name;         /* as given: a path or REV:PATH */
	int revision;             /* 1 when read from git */
	size_t files;
	struct qb_lint_stats stats;    /* questions, coverage */
};

struct qb_diff_priv;

struct qb_diff_report {
	struct qb_diff_side_info old_side, new_side;
	const struct qb_diff_entry *entries;   /* in the new bank's order, then the removed ones in the old's */
	size_t nentries;
	size_t count[QB_DIFF_NCOUNTS];
	size_t unchanged;                      /* matched questions with no difference */
	/* Lint findings of the new side that the old one did not have, and of
	 * the old side that the new one no longer has (each sorted as lint
	 * sorts). A finding is the same on both sides when it has the same
	 * rule, names the same question (through a rename) and quotes the same
	 * things; its line and wording may differ. */
	const struct qb_diag *const *introduced;
	size_t nintroduced;
	const struct qb_diag *const *fixed;
	size_t nfixed;
	int linted;
	struct qb_diff_priv *priv;
};

struct qb_diff_opts {
	/* The lint configuration of both sides; NULL: do not lint. When a side
	 * is read from git, img-missing and img-unsafe-path are turned off in
	 * it (they look at files on disk, which a revision does not have; the
	 * images' contents are compared all the same). */
	struct qb_config *cfg;
};

/* 1 when ARG names a git revision (REV:PATH) rather than a path: it has a
 * ':' and no file or folder of that name exists. */
int qb_diff_is_revision(const char *arg);

/* Compares OLD with NEW. Returns 0 (whether or not they differ) or a
 * negative error with a message in ERR (a missing path, an unknown
 * revision, I/O); findings about either bank are data in the report. */
int qb_diff_run(struct qb_diff_report **out, const char *old_spec, const char *new_spec,
		const struct qb_diff_opts *opts, struct qb_error *err);
void qb_diff_report_free(struct qb_diff_report *r);

/* 1 when the report holds a difference (a question entry or a lint
 * finding introduced or fixed). */
int qb_diff_differs(const struct qb_diff_report *r);

#endif
