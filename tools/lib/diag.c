#include "diag.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "core/buf.h"
#include "error.h"

int qb_diags_add(struct qb_diags *d, const char *file, unsigned long line,
		 enum qb_severity sev, const char *rule, const char *question,
		 const char *fmt, ...)
{
	struct qb_buf msg = QB_BUF_INIT;
	struct qb_diag *x;
	va_list ap;
	int err;

	if (sev == QB_SEV_OFF)
		return 0;
	if (QB_ARRAY_RESERVE(d->v, d->cap, d->n + 1))
		return QB_ENOMEM;
	va_start(ap, fmt);
	err = qb_buf_vprintf(&msg, fmt, ap);
	va_end(ap);
	if (err) {
		qb_buf_dispose(&msg);
		return err;
	}
	x = &d->v[d->n];
	x->file = strdup(file ? file : "");
	x->question = question ? strdup(question) : NULL;
	x->message = qb_buf_detach(&msg);
	if (!x->file || !x->message || (question && !x->question)) {
		free(x->file);
		free(x->question);
		free(x->message);
		return QB_ENOMEM;
	}
	x->line = line;
	x->severity = sev;
	x->rule = rule;
	d->n++;
	d->count[sev]++;
	return 0;
}

static int cmp_diag(const void *pa, const void *pb)
{
	const struct qb_diag *a = pa, *b = pb;
	int c = strcmp(a->file, b->file);

	if (c)
		return c;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	c = strcmp(a->rule, b->rule);
	if (c)
		return c;
	return strcmp(a->message, b->message);
}

void qb_diags_sort(struct qb_diags *d)
{
	if (d->n > 1)
		qsort(d->v, d->n, sizeof(d->v[0]), cmp_diag);
}

void qb_diags_dispose(struct qb_diags *d)
{
	size_t i;

	if (!d)
		return;
	for (i = 0; i < d->n; i++) {
		free(d->v[i].file);
		free(d->v[i].question);
		free(d->v[i].message);
	}
	free(d->v);
	memset(d, 0, sizeof(*d));
}

static const char *const severity_names[] = { "off", "info", "warning", "error" };

const char *qb_severity_name(enum qb_severity s)
{
	if ((unsigned)s > QB_SEV_ERROR)
		return "?";
	return severity_names[s];
}

int qb_severity_parse(enum qb_severity *out, const char *s)
{
	int i;

	for (i = 0; i <= QB_SEV_ERROR; i++) {
		if (strcmp(s, severity_names[i]) == 0) {
			*out = (enum qb_severity)i;
			return 0;
		}
	}
	return QB_EINVAL;
}
