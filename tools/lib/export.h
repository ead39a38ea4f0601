/* The export driver: each target format is one row of a sorted static
 * table (the row type and the hooks are exporter.h's). An export reads the
 * bank once, lints every question on the way and streams it to the
 * exporter; when the lint finds errors the output is discarded (atomic.h)
 * and the export is refused.
 * Ownership: the options, the lint and the files belong to the caller. */
#ifndef QB_EXPORT_H
#define QB_EXPORT_H

#include <stddef.h>

#include "error.h"
#include "exporter.h"

struct qb_lint;

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
