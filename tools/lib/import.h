/* The import driver: reads source files (Moodle XML, GIFT, Aiken) through
 * the importer table (importers/) and writes what they hold as one bank
 * file, atomically, with the project's XML writer. Problems are
 * diagnostics (import-* rules), collected in the caller's list.
 * Ownership: the caller owns OPTS, the paths and the diagnostics list. */
#ifndef QB_IMPORT_H
#define QB_IMPORT_H

#include <stddef.h>

#include "diag.h"
#include "error.h"

struct qb_import_opts {
	const char *from;       /* an importer's name, or NULL: recognised per file */
	const char *out;        /* the bank file, or NULL for standard output */
	/* The folder for embedded files (images), or NULL: OUT without its
	 * .xml and "-media" after it; with neither, images are not kept. */
	const char *media;
};

struct qb_import_stats {
	size_t files;
	size_t questions;       /* written to the bank */
};

/* 1 when NAME is an importer of the table. */
int qb_import_known(const char *name);
/* The importers' names, comma-separated ("moodle, gift, aiken"), static. */
const char *qb_import_names(void);

/* Imports PATHS[0..N) into OPTS->out. Returns 0 (the bank was written; the
 * diagnostics say what was left out or changed), or a negative error with
 * ERR set (a file could not be read or its format was not recognised, the
 * output could not be written): then no output is left behind. */
int qb_import_run(const struct qb_import_opts *opts, const char *const *paths, size_t n,
		  struct qb_diags *diags, struct qb_import_stats *st, struct qb_error *err);

#endif
