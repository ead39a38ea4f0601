/* The streaming reader: one bank file, one question at a time.
 * It parses with libxml2's xmlTextReader, validates against the bank schema
 * while reading, and expands only the current <question> subtree, so memory
 * does not grow with the number of questions.
 * Ownership: the reader owns every question it returns (see model.h); the
 * schema passed to qb_reader_open must outlive the reader. */
#ifndef QB_READER_H
#define QB_READER_H

#include <stddef.h>

#include <libxml/xmlschemas.h>

#include "error.h"
#include "model.h"
#include "rule_ids.h"

struct qb_reader;

/* Called for every finding the reader makes: rule is QB_RULE_XML_SYNTAX,
 * QB_RULE_XML_SCHEMA, ... (rule_ids.h); question is the id of the
 * enclosing question or NULL. */
typedef void (*qb_reader_diag_fn)(void *ctx, const char *file,
				  unsigned long line, enum qb_rule_key rule,
				  const char *question, const char *message);

struct qb_reader_opts {
	xmlSchemaPtr schema;        /* compiled bank schema, or NULL not to validate */
	size_t file_index;
	qb_reader_diag_fn on_diag;
	void *diag_ctx;
};

/* Opens PATH. I/O problems (missing, unreadable, not a regular file) are
 * errors (QB_EIO, message in err); problems with the content are findings
 * reported through opts->on_diag later. */
int qb_reader_open(struct qb_reader **out, const char *path,
		   const struct qb_reader_opts *opts, struct qb_error *err);

/* The same over DATA[0..len) in memory (a bank read from a git
 * revision), with the same hardening; NAME is the file name findings and
 * questions carry. DATA must outlive the reader. */
int qb_reader_open_memory(struct qb_reader **out, const char *name, const char *data,
			  size_t len, const struct qb_reader_opts *opts, struct qb_error *err);

/* Moves to the next question: returns 1 and sets *out, 0 at the end of the
 * file (or after a fatal syntax error, which has been reported), or a
 * negative error code. Findings go to opts->on_diag during the call. The
 * question stays valid until the next call or qb_reader_free. */
int qb_reader_next(struct qb_reader *r, const struct qb_question **out);

/* The <bank> element's information; complete (title, description, file
 * pragmas) once qb_reader_next has returned 0. */
const struct qb_bank_info *qb_reader_bank(const struct qb_reader *r);

/* Bytes of the file consumed so far, and its size (for progress). */
unsigned long long qb_reader_offset(const struct qb_reader *r);
unsigned long long qb_reader_size(const struct qb_reader *r);

void qb_reader_free(struct qb_reader *r);

/* Compiles the bank schema built into the library (schema/qbank.xsd). */
int qb_schema_load(xmlSchemaPtr *out, struct qb_error *err);
void qb_schema_free(xmlSchemaPtr schema);

#endif
