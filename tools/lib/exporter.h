/* The exporter interface: what an exporter (tools/lib/exporters/) sees of
 * an export, which the driver (export.h) runs: its options, the hooks it
 * implements and its row in the exporter table. Every hook that can fail
 * takes the caller's struct qb_error, fills it when it fails and returns
 * the error code, which goes up unchanged.
 * Ownership: an exporter's state is created by its open hook and freed by
 * commit or abort; the options, banks and questions belong to the caller,
 * and a bank or question is valid during the hook's call only. */
#ifndef QB_EXPORTER_H
#define QB_EXPORTER_H

#include <stddef.h>

#include "error.h"
#include "model.h"
#include "rule_ids.h"

struct qb_export_opts {
	const char *output;        /* -o, NULL or "-" for standard output */
	int answers;               /* markdown: teacher's version; html: start in teacher view */
	int forms;                 /* markdown: number of shuffled forms, 0 = none */
	unsigned long seed;        /* markdown: shuffling seed */
	int has_seed;
	const char *title;         /* markdown: title override, or NULL */
	/* markdown: the exam header's lines, each NULL when not given */
	const char *course, *date, *duration;
	const char *instructions;  /* markdown: a Markdown file instead of the bank's description */
	const char *labels;        /* markdown: a labels file ("key: text" lines), or NULL */
	/* Called now and then while the bank is read, or NULL (the driver's). */
	void (*progress)(void *ctx, unsigned long long done, unsigned long long total);
	void *progress_ctx;
	int no_findings;           /* html: show no lint findings (the findings hook is not called) */
	/* Set by the driver: 1 when the exporter must start no thread of its
	 * own (QBANK_THREADS=1, the single-threaded reference run). */
	int one_thread;
};

/* Where a target check reports: the linter (a finding, with the severity
 * and suppressions in force) or the export driver (a refusal, whatever the
 * configuration). */
struct qb_target_sink {
	/* One reason the target cannot hold Q as the bank means it. RULE is a
	 * QB_RULE_TARGET_* key; BASE the bank rule that reports the same
	 * mistake when it is on (QB_RULE_COUNT: none), so that the linter need
	 * not say it twice; LINE 0 stands for the question's line; MSG is the
	 * whole sentence. Returns 0 or a negative error. */
	int (*report)(void *ctx, const struct qb_question *q, enum qb_rule_key rule,
		      enum qb_rule_key base, unsigned long line, const char *msg);
	void *ctx;
};

/* Why a target needs unique question ids, and the target-* rule that says
 * so (its base rule is id-duplicate). */
struct qb_unique_ids {
	enum qb_rule_key rule;
	const char *why;           /* e.g. "Canvas identifies questions by their ids" */
};

/* Formats a reason and hands it to S->report (exporters/target.c). */
int qb_target_report(const struct qb_target_sink *s, const struct qb_question *q,
		     enum qb_rule_key rule, enum qb_rule_key base, unsigned long line,
		     const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* Reports through S that Q's id is the one of the earlier question at
 * FILE:LINE, as U->rule with id-duplicate as its base. */
int qb_target_repeated_id(const struct qb_target_sink *s, const struct qb_question *q,
			  const struct qb_unique_ids *u, const char *file, unsigned long line);

/* One lint finding of the run, as the driver hands it to an exporter that
 * shows findings (the html page): what `qbank lint` prints, and the rule's
 * `qbank explain` text. Strings belong to the driver. */
struct qb_export_finding {
	const char *file;          /* as given; "" for a finding about the run */
	unsigned long line;        /* 0: about the whole file or run */
	const char *question;      /* question id, or NULL */
	const char *rule;          /* rule id */
	const char *severity;      /* "error", "warning" or "info" */
	const char *message;
	const char *summary;       /* the rule's one-line summary, or NULL (a user rule) */
	const char *explain;       /* the rule's explanation, or NULL */
};

struct qb_exporter {
	const char *name;          /* --to NAME */
	const char *summary;
	const char *extension;     /* of the output file, e.g. ".xml" */
	int needs_file;            /* 1: cannot write to standard output (zip) */
	int (*open)(void **state, const struct qb_export_opts *o, struct qb_error *err);
	/* Once per bank file, before its questions. */
	int (*bank)(void *state, const struct qb_bank_info *b, struct qb_error *err);
	/* Each schema-valid question, in bank order. */
	int (*question)(void *state, const struct qb_question *q, struct qb_error *err);
	/* Completes the output and moves it into place. Frees the state. */
	int (*commit)(void *state, struct qb_error *err);
	/* Discards everything written. Frees the state; accepts NULL. */
	void (*abort)(void *state);
	/* The target checks: a pure function of one schema-valid question
	 * (no state, no file system) that reports through S each reason the
	 * target cannot hold it as the bank means it. `qbank lint` runs it as
	 * findings; the export driver runs it before the question hook and
	 * refuses the question on any report. 0 or a negative error; NULL: the
	 * target takes every schema-valid question. */
	int (*check)(const struct qb_question *q, const struct qb_target_sink *s);
	/* Once, after the last question and before commit, every finding of
	 * the run, sorted as lint prints them (file, line, rule); NULL for an
	 * exporter that shows none. Not called with --no-findings. */
	int (*findings)(void *state, const struct qb_export_finding *v, size_t n,
			struct qb_error *err);
	/* NULL, or the target needs every question's id unique: a question
	 * whose id an earlier question of the run has is a finding of
	 * unique_ids->rule in lint and refused by the export driver, both
	 * from the lint's index of ids (lint.h, qb_lint_id_repeated), so that
	 * the exporter keeps no set of ids of its own for it. */
	const struct qb_unique_ids *unique_ids;
};

#endif
