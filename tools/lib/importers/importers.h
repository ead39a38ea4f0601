/* The importer table: one row per source format, in the order the
 * formats are tried when a file's format is recognised from its content
 * (the most specific first). Everything here is static. */
#ifndef QB_IMPORTERS_H
#define QB_IMPORTERS_H

#include "../importer.h"

extern const struct qb_importer qb_importers[];
extern const size_t qb_nimporters;

/* The row named NAME, or NULL. */
const struct qb_importer *qb_importer_find(const char *name);

/* The sources' read functions (one file each). */
int qb_imp_aiken_detect(const char *data, size_t len);
int qb_imp_aiken_read(const char *data, size_t len, const struct qb_imp_sink *sink,
		      struct qb_error *err);

int qb_imp_gift_detect(const char *data, size_t len);
int qb_imp_gift_read(const char *data, size_t len, const struct qb_imp_sink *sink,
		     struct qb_error *err);

int qb_imp_moodle_detect(const char *data, size_t len);
int qb_imp_moodle_read(const char *data, size_t len, const struct qb_imp_sink *sink,
		       struct qb_error *err);
int qb_imp_moodle_read_fd(int fd, const struct qb_imp_sink *sink, struct qb_error *err);

/* Shared by the importers: DATA without a UTF-8 byte-order mark. */
const char *qb_imp_skip_bom(const char *data, size_t *len);

#endif
