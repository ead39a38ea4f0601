/* Exporters: each target format is one row of a sorted static table.
 * An export reads the bank once, lints every question on the way and
 * streams it to the exporter; when the lint finds errors the output is
 * discarded (atomic.h) and the export is refused.
 * Ownership: an exporter's state is created by its open function and freed
 * by commit or abort; options belong to the caller. */
#ifndef QB_EXPORT_H
#define QB_EXPORT_H

#include <stddef.h>

#include "error.h"
#include "lint.h"
#include "model.h"

struct qb_export_opts {
	const char *output;        /* -o, NULL or "-" for standard output */
	int answers;               /* markdown: teacher's version */
	int forms;                 /* markdown: number of shuffled forms, 0 = none */
	unsigned long seed;        /* markdown: shuffling seed */
	int has_seed;
	const char *title;         /* markdown: title override, or NULL */
	/* Called now and then while the bank is read (run.h), or NULL. */
	void (*progress)(void *ctx, unsigned long long done, unsigned long long total);
	void *progress_ctx;
};

struct qb_exporter {
	const char *name;          /* --to NAME */
	const char *summary;
	const char *extension;     /* of the output file, e.g. ".xml" */
	int needs_file;            /* 1: cannot write to standard output (zip) */
	int light;                 /* 1: writes a question in less time than reading it takes
				    * (the lint rules then run beside it: qb_run_hooks) */
	int (*open)(void **state, const struct qb_export_opts *o, struct qb_error *err);
	int (*bank)(void *state, const struct qb_bank_info *b);
	int (*question)(void *state, const struct qb_question *q);
	/* Completes the output and moves it into place. Frees the state. */
	int (*commit)(void *state, struct qb_error *err);
	/* Discards everything written. Frees the state; accepts NULL. */
	void (*abort)(void *state);
};

extern const struct qb_exporter qb_exporters[];
extern const size_t qb_nexporters;

const struct qb_exporter *qb_exporter_find(const char *name);

/* Exports FILES with X. Refuses (QB_EREFUSED) when the lint L reports
 * error-level findings (they are in qb_lint_diags(L)), and (QB_EINVAL)
 * when the output is one of the inputs. */
int qb_export_run(const struct qb_exporter *x, const struct qb_export_opts *o,
		  struct qb_lint *l, const char *const *files, size_t nfiles,
		  struct qb_error *err);

#endif
