/* Diagnostics: findings about a bank (not errors of the tool).
 * Ownership: a qb_diags list owns every string of every diagnostic in it;
 * qb_diags_dispose frees them. Rule ids are static strings from the rule
 * table (or from the configuration, which outlives the list). */
#ifndef QB_DIAG_H
#define QB_DIAG_H

#include <stddef.h>

enum qb_severity {
	QB_SEV_OFF = 0,
	QB_SEV_INFO = 1,
	QB_SEV_WARNING = 2,
	QB_SEV_ERROR = 3
};

struct qb_diag {
	char *file;          /* as given on the command line (relative stays relative) */
	unsigned long line;  /* 1-based; 0 when the finding concerns the whole file or run */
	enum qb_severity severity;
	const char *rule;    /* rule id, e.g. "key-missing" */
	char *question;      /* question id, or NULL */
	char *message;
};

struct qb_diags {
	struct qb_diag *v;
	size_t n;
	size_t cap;
	size_t count[4];     /* by severity */
};

int qb_diags_add(struct qb_diags *d, const char *file, unsigned long line,
		 enum qb_severity sev, const char *rule, const char *question,
		 const char *fmt, ...) __attribute__((format(printf, 7, 8)));
/* Sorts by file, line, rule, message: the order every output format uses. */
void qb_diags_sort(struct qb_diags *d);
void qb_diags_dispose(struct qb_diags *d);

const char *qb_severity_name(enum qb_severity s);
/* Parses "error", "warning", "info", "off"; returns 0 or QB_EINVAL. */
int qb_severity_parse(enum qb_severity *out, const char *s);

#endif
