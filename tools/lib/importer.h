/* The importer interface: all an importer (tools/lib/importers/) sees. An
 * importer reads one source file's bytes and hands each question it
 * understood to the driver (import.c) as a struct qb_imp_question, and
 * each problem (a question left out or changed) as a diagnostic with its
 * line. It never writes files and never sees the bank writer.
 * Ownership: the bytes and every string of a question stay the
 * importer's; the driver copies what it keeps before the hook returns. */
#ifndef QB_IMPORTER_H
#define QB_IMPORTER_H

#include <stddef.h>

#include "diag.h"
#include "error.h"
#include "rule_ids.h"

/* The bank's question types an import can produce (schema/qbank.xsd). */
enum qb_imp_kind {
	QB_IMP_SINGLE,
	QB_IMP_MULTIPLE,
	QB_IMP_TRUEFALSE,
	QB_IMP_SHORT,
	QB_IMP_NUMERIC,
	QB_IMP_ESSAY,
	QB_IMP_MATCHING
};

/* An option (single, multiple), an accepted answer (short, numeric) or a
 * pair (matching: TEXT is the premise, MATCH the response). Texts are
 * plain text (the writer escapes them), or the bank's rich text when the
 * question says so (struct qb_imp_question.rich). */
struct qb_imp_choice {
	const char *text;
	const char *match;      /* matching only, else NULL */
	const char *feedback;   /* rationale, or NULL */
	double fraction;        /* of the question's mark: 1 correct, 0 wrong */
	double tolerance;       /* numeric only */
	const char *unit;       /* numeric only: the answer's unit, or NULL */
};

struct qb_imp_question {
	enum qb_imp_kind kind;
	unsigned long line;     /* where the question starts in its file */
	const char *name;       /* the source's name or title, or NULL */
	const char *idnumber;   /* Moodle's idnumber, or NULL; wins over NAME for the id */
	const char *category;   /* "a/b/c" (already without $course$/top), or NULL */
	const char *stem;
	const char *explanation;          /* general feedback, or NULL */
	double points;                    /* 0: the default (1) */
	int case_sensitive;               /* short */
	int truth;                        /* truefalse: 1 when the statement is true */
	const char *true_feedback;        /* truefalse: shown for the answer "true", or NULL */
	const char *false_feedback;
	const struct qb_imp_choice *choices;
	size_t nchoices;
	const char *const *distractors;   /* matching: responses that match no premise */
	size_t ndistractors;
	/* 1: stem, explanation, rubric, feedbacks, option texts, premises,
	 * responses and distractors are the bank's rich text, well-formed XML
	 * content in schema/qbank.xsd's markup (inline markup only in option
	 * texts, premises, responses and distractors), written as they are;
	 * 0: plain text. Answers (short, numeric, truefalse) are always plain. */
	int rich;
	int no_shuffle;                   /* the source keeps the order of options or pairs */
	const char *const *tags;          /* <tag> values, plain text */
	size_t ntags;
	const char *rubric;               /* essay: the grader's information, or NULL */
	const char *response_format;      /* essay: "editor", "plain" or NULL (the default) */
	unsigned long lines, min_words, max_words;   /* essay: 0 when not given */
};

/* Where an importer sends its results; PATH is the file as named on the
 * command line (for messages). Both hooks return 0 or a negative error,
 * which the importer passes up unchanged. */
struct qb_imp_sink {
	void *ctx;
	const char *path;
	int (*question)(void *ctx, const struct qb_imp_question *q);
	int (*report)(void *ctx, unsigned long line, enum qb_severity sev, enum qb_rule_key rule,
		      const char *question, const char *msg);
	/* An embedded file (a Moodle <file>) of LEN bytes at LINE, named NAME
	 * by its source (any bytes: the driver makes a safe, unique file name
	 * of it). Writes it into the media folder and sets SRC (CAP bytes) to
	 * the path an <img src> in the bank gives it. Returns 0, 1 when there
	 * is no media folder (SRC untouched, nothing written: the importer
	 * reports the image as dropped), or a negative error. */
	int (*media)(void *ctx, unsigned long line, const char *name, const void *data, size_t len,
		     char *src, size_t cap);
	/* A category named by the source before its questions ("a/b/c"), with
	 * its description (the bank's rich text, block) or NULL: it takes its
	 * place in the order there. May be NULL (not called). */
	int (*category)(void *ctx, const char *path, const char *description);
};

/* Formats the message and calls SINK->report (importers.c). */
int qb_imp_report(const struct qb_imp_sink *sink, unsigned long line, enum qb_severity sev,
		  enum qb_rule_key rule, const char *question, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/* One source format: a row of the importer table (importers/importers.c). */
struct qb_importer {
	const char *name;       /* as --from names it: moodle, gift, aiken */
	/* 1 when DATA (the whole file, LEN bytes) looks like this source. */
	int (*detect)(const char *data, size_t len);
	/* Reads DATA; 0, or a negative error (with ERR set) for what ends the
	 * whole file (out of memory). Bad questions are diagnostics, not errors. */
	int (*read)(const char *data, size_t len, const struct qb_imp_sink *sink,
		    struct qb_error *err);
	/* Optional: reads the open file FD as a stream (bounded memory, for
	 * sources that can be read so), used instead of READ when present. */
	int (*read_fd)(int fd, const struct qb_imp_sink *sink, struct qb_error *err);
};

#endif
