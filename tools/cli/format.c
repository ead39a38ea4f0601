#include <stdlib.h>
#include <string.h>

#include "format.h"

/* Keep this table sorted by name (qb_format_find() searches it). */
const struct qb_format qb_formats[] = {
	{ "gcc", "FILE:LINE: SEVERITY: MESSAGE [RULE] and a summary line (default)", fmt_gcc },
	{ "github", "GitHub Actions workflow commands (annotations)", fmt_github },
	{ "json", "one JSON document with every finding and the coverage", fmt_json },
	{ "junit", "JUnit XML (GitLab, Jenkins): a failing test case per finding", fmt_junit },
	{ "sarif", "SARIF 2.1.0 for GitHub code scanning", fmt_sarif },
};

const size_t qb_nformats = sizeof(qb_formats) / sizeof(qb_formats[0]);

static int cmp_format(const void *key, const void *elem)
{
	return strcmp(key, ((const struct qb_format *)elem)->name);
}

const struct qb_format *qb_format_find(const char *name)
{
	return bsearch(name, qb_formats, qb_nformats, sizeof(qb_formats[0]), cmp_format);
}
