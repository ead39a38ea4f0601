/* Expanding command-line PATH arguments into the run's list of bank files.
 * Ownership: qb_paths_free releases the list. */
#ifndef QB_PATHS_H
#define QB_PATHS_H

#include <stddef.h>

#include "error.h"

struct qb_paths {
	char **v;
	size_t n;
};

/* A file argument is taken as it is (whatever its extension); a directory
 * contributes every *.xml file below it, recursively, sorted by path (byte
 * order), skipping hidden entries. A missing path, or a directory without
 * bank files, is QB_EIO with a message. Duplicates are dropped. */
int qb_paths_expand(struct qb_paths *out, const char *const *args, size_t nargs,
		    struct qb_error *err);
void qb_paths_dispose(struct qb_paths *p);

#endif
