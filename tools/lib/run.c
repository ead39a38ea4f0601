#include "run.h"

#include <sys/stat.h>

#include "pipeline.h"

static unsigned long long file_size(const char *file)
{
	struct stat st;

	return stat(file, &st) == 0 && S_ISREG(st.st_mode) ? (unsigned long long)st.st_size : 0;
}

int qb_run(struct qb_lint *l, const char *const *files, size_t nfiles,
	   const struct qb_run_hooks *hooks, struct qb_error *err)
{
	struct qb_pipeline *p = NULL;
	unsigned long long total = 0, base = 0;
	size_t i;
	int rc;

	rc = qb_pipeline_new(&p, l, hooks, err);
	if (rc)
		return rc;
	for (i = 0; i < nfiles; i++)
		total += file_size(files[i]);
	for (i = 0; i < nfiles && !rc; i++) {
		rc = qb_pipeline_file(p, files[i], i, base, total, err);
		base += file_size(files[i]);
		if (!rc && hooks && hooks->progress)
			hooks->progress(hooks->ctx, base, total);
	}
	qb_pipeline_free(p);
	if (!rc)
		rc = qb_lint_finish(l);
	return rc;
}
