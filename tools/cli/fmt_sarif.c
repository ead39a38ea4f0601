/* placeholder until this format lands */
#include "cli.h"

int fmt_sarif(FILE *out, const struct qb_report *r)
{
	(void)r;
	fputs("format not available yet\n", out);
	return -1;
}
