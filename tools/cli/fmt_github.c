/* --format github: GitHub Actions workflow commands, one annotation per
 * finding (error -> ::error, warning -> ::warning, info -> ::notice), with
 * the toolkit's escaping (@actions/core): in the message %, CR and LF; in
 * the properties also : and ,. The summary line closes the output as plain
 * text, which the job log shows as it is. */
#include "format.h"

static const char *const command[] = { "notice", "notice", "warning", "error" };

static void escape(FILE *out, const char *s, int property)
{
	for (; *s; s++) {
		if (*s == '%')
			fputs("%25", out);
		else if (*s == '\r')
			fputs("%0D", out);
		else if (*s == '\n')
			fputs("%0A", out);
		else if (property && *s == ':')
			fputs("%3A", out);
		else if (property && *s == ',')
			fputs("%2C", out);
		else
			fputc(*s, out);
	}
}

int fmt_github(FILE *out, const struct qb_report *r)
{
	size_t i;

	for (i = 0; i < r->diags->n; i++) {
		const struct qb_diag *d = &r->diags->v[i];
		const char *sep = " ";

		fprintf(out, "::%s", command[d->severity <= QB_SEV_ERROR ? d->severity : QB_SEV_ERROR]);
		if (d->file[0]) {
			fputs(" file=", out);
			escape(out, d->file, 1);
			sep = ",";
			if (d->line)
				fprintf(out, ",line=%lu", d->line);
		}
		fprintf(out, "%stitle=", sep);
		escape(out, d->rule, 1);
		fputs("::", out);
		escape(out, d->message, 0);
		fputc('\n', out);
	}
	fmt_summary(out, r);
	return ferror(out) ? -1 : 0;
}
