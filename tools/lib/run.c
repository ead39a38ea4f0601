#include "run.h"

#include <sys/stat.h>

#include "reader.h"

static unsigned long long total_size(const char *const *files, size_t n)
{
	unsigned long long t = 0;
	struct stat st;
	size_t i;

	for (i = 0; i < n; i++)
		if (stat(files[i], &st) == 0 && S_ISREG(st.st_mode))
			t += (unsigned long long)st.st_size;
	return t;
}

static int run_file(struct qb_lint *l, xmlSchemaPtr schema, const char *file, size_t index,
		    const struct qb_run_hooks *h, unsigned long long base,
		    unsigned long long total, struct qb_error *err)
{
	struct qb_reader_opts ro = { schema, index, qb_lint_reader_diag, l };
	struct qb_reader *r = NULL;
	const struct qb_question *q;
	int rc, bank_sent = 0;
	unsigned long count = 0;

	rc = qb_reader_open(&r, file, &ro, err);
	if (rc)
		return rc;
	rc = qb_lint_file_begin(l, file, index);
	while (!rc && (rc = qb_reader_next(r, &q)) == 1) {
		if (h && h->bank && !bank_sent) {
			bank_sent = 1;
			rc = h->bank(h->ctx, qb_reader_bank(r));
			if (rc)
				break;
		}
		rc = qb_lint_question(l, q);
		if (!rc && h && h->question && !q->schema_invalid)
			rc = h->question(h->ctx, q);
		if (!rc && h && h->progress && (++count & 1023) == 0)
			h->progress(h->ctx, base + qb_reader_offset(r), total);
	}
	if (!rc && h && h->bank && !bank_sent)
		rc = h->bank(h->ctx, qb_reader_bank(r));
	if (!rc)
		rc = qb_lint_file_end(l, qb_reader_bank(r));
	if (rc == QB_ENOMEM)
		qb_error_set(err, rc, "%s: out of memory", file);
	qb_reader_free(r);
	return rc;
}

int qb_run(struct qb_lint *l, const char *const *files, size_t nfiles,
	   const struct qb_run_hooks *hooks, struct qb_error *err)
{
	xmlSchemaPtr schema = NULL;
	unsigned long long total, base = 0;
	struct stat st;
	size_t i;
	int rc;

	rc = qb_schema_load(&schema, err);
	if (rc)
		return rc;
	total = total_size(files, nfiles);
	for (i = 0; i < nfiles && !rc; i++) {
		rc = run_file(l, schema, files[i], i, hooks, base, total, err);
		if (stat(files[i], &st) == 0)
			base += (unsigned long long)st.st_size;
		if (!rc && hooks && hooks->progress)
			hooks->progress(hooks->ctx, base, total);
	}
	qb_schema_free(schema);
	if (!rc)
		rc = qb_lint_finish(l);
	return rc;
}
