#include <stdlib.h>
#include <string.h>

#include "format.h"

static const char *const sev_color[] = { "", "\033[1;36m", "\033[1;35m", "\033[1;31m" };

double fmt_pct(size_t part, size_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 100.0;
}

const char *fmt_plural(size_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

void fmt_coverage(FILE *out, size_t explained, size_t explainable, size_t rationales,
		  size_t rationalizable)
{
	fprintf(out, "explanations %zu/%zu (%.0f%%), rationales %zu/%zu (%.0f%%)", explained,
		explainable, fmt_pct(explained, explainable), rationales, rationalizable,
		fmt_pct(rationales, rationalizable));
}

void fmt_summary(FILE *out, const struct qb_report *r)
{
	const struct qb_lint_stats *s = r->stats;
	const size_t *c = r->diags->count;

	fprintf(out, "%zu %s, %zu %s: %zu %s, %zu %s", s->files, fmt_plural(s->files, "file", "files"),
		s->questions, fmt_plural(s->questions, "question", "questions"),
		c[QB_SEV_ERROR], fmt_plural(c[QB_SEV_ERROR], "error", "errors"),
		c[QB_SEV_WARNING], fmt_plural(c[QB_SEV_WARNING], "warning", "warnings"));
	if (c[QB_SEV_INFO])
		fprintf(out, ", %zu %s", c[QB_SEV_INFO], fmt_plural(c[QB_SEV_INFO], "info", "infos"));
	/* no coverage of nothing: an unparsable or foreign file is not "100%" */
	if (s->questions == 0)
		fputs("; no question read", out);
	else {
		fputs("; ", out);
		fmt_coverage(out, s->explained, s->explainable, s->rationales, s->rationalizable);
	}
	fputc('\n', out);
}

int fmt_gcc(FILE *out, const struct qb_report *r)
{
	size_t i;

	for (i = 0; i < r->diags->n; i++) {
		const struct qb_diag *d = &r->diags->v[i];
		const char *file = d->file[0] ? d->file : "qbank";

		if (d->line)
			fprintf(out, "%s:%lu: ", file, d->line);
		else
			fprintf(out, "%s: ", file);
		if (r->color)
			fprintf(out, "%s%s:\033[0m ", sev_color[d->severity], qb_severity_name(d->severity));
		else
			fprintf(out, "%s: ", qb_severity_name(d->severity));
		fprintf(out, "%s [%s]\n", d->message, d->rule);
	}
	fmt_summary(out, r);
	return ferror(out) ? -1 : 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int fmt_files(const char ***out, size_t *n, const struct qb_report *r)
{
	size_t nrun = r->lint ? r->stats->files : 0, i, k;
	const char **v = malloc((nrun + r->diags->n + 1) * sizeof(*v));

	*out = NULL;
	*n = 0;
	if (!v)
		return -1;
	for (i = 0; i < nrun; i++)
		v[i] = qb_lint_file_name(r->lint, i);
	for (i = 0; i < r->diags->n; i++)
		v[nrun + i] = r->diags->v[i].file;
	qsort(v, nrun + r->diags->n, sizeof(*v), cmp_str);
	for (i = k = 0; i < nrun + r->diags->n; i++)
		if (k == 0 || strcmp(v[k - 1], v[i]) != 0)
			v[k++] = v[i];
	*out = v;
	*n = k;
	return 0;
}
