/* --format json: one document with the run's figures and every finding, in
 * the order of the gcc format. Fields without a value (a run-wide finding
 * has no file, a file-wide one no line, most findings of a file no
 * question) are null. */
#include "format.h"
#include "json_writer.h"

void fmt_json_coverage(struct cli_json *j, const char *key, const char *part_key, size_t part,
		       size_t whole)
{
	cli_json_key(j, key);
	cli_json_begin_object(j);
	cli_json_key(j, part_key);
	cli_json_uint(j, part);
	cli_json_key(j, "total");
	cli_json_uint(j, whole);
	cli_json_key(j, "percent");
	cli_json_number2(j, fmt_pct(part, whole));
	cli_json_end_object(j);
}

int fmt_json(FILE *out, const struct qb_report *r)
{
	const struct qb_lint_stats *s = r->stats;
	struct cli_json j;
	size_t i;

	cli_json_init(&j, out);
	cli_json_begin_object(&j);
	cli_json_key(&j, "version");
	cli_json_uint(&j, 1);
	cli_json_key(&j, "files");
	cli_json_uint(&j, s->files);
	cli_json_key(&j, "questions");
	cli_json_uint(&j, s->questions);
	if (r->lint) {
		cli_json_key(&j, "failed");
		cli_json_bool(&j, qb_lint_failed(r->lint));
	}
	cli_json_key(&j, "counts");
	cli_json_begin_object(&j);
	for (i = QB_SEV_ERROR; i >= QB_SEV_INFO; i--) {
		cli_json_key(&j, qb_severity_name((enum qb_severity)i));
		cli_json_uint(&j, r->diags->count[i]);
	}
	cli_json_end_object(&j);
	cli_json_key(&j, "coverage");
	cli_json_begin_object(&j);
	fmt_json_coverage(&j, "explanations", "covered", s->explained, s->explainable);
	fmt_json_coverage(&j, "rationales", "covered", s->rationales, s->rationalizable);
	cli_json_end_object(&j);
	cli_json_key(&j, "diagnostics");
	cli_json_begin_array(&j);
	for (i = 0; i < r->diags->n; i++) {
		const struct qb_diag *d = &r->diags->v[i];

		cli_json_begin_object(&j);
		cli_json_key(&j, "file");
		cli_json_string(&j, d->file[0] ? d->file : NULL);
		cli_json_key(&j, "line");
		if (d->line)
			cli_json_uint(&j, d->line);
		else
			cli_json_null(&j);
		cli_json_key(&j, "severity");
		cli_json_string(&j, qb_severity_name(d->severity));
		cli_json_key(&j, "rule");
		cli_json_string(&j, d->rule);
		cli_json_key(&j, "message");
		cli_json_string(&j, d->message);
		cli_json_key(&j, "question");
		cli_json_string(&j, d->question);
		cli_json_end_object(&j);
	}
	cli_json_end_array(&j);
	cli_json_end_object(&j);
	cli_json_finish(&j);
	return ferror(out) ? -1 : 0;
}
