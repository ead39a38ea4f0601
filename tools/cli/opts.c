/* The option parser (opts.h). It stands on getopt_long rather than on a
 * loop of its own: every command already took its GNU rules (options
 * after operands, --name=value, unambiguous abbreviations, -qo OUT,
 * "--"), and keeping the C library's parser keeps every command line that
 * worked before working the same way. The table only builds getopt's
 * arguments and maps what it returns back to a row. */
#include "opts.h"

#include <getopt.h>
#include <string.h>

#include "msg.h"

/* getopt_long's value of the long option of row I (above every char). */
#define VAL0 256

const char *qb_opts_hint(const struct qb_opts *o)
{
	return o->name && !(o->flags & QB_OPTS_HINT_TOP) ? o->name : NULL;
}

/* The row of getopt_long's result C, or NULL ('?' or ':': an unknown
 * option, or one without its argument). */
static const struct qb_opt *row_of(const struct qb_opts *o, int c)
{
	size_t i;

	if (c >= VAL0 && (size_t)(c - VAL0) < o->n)
		return &o->v[c - VAL0];
	for (i = 0; i < o->n && c != '?' && c != ':'; i++)
		if (o->v[i].short_name == c)
			return &o->v[i];
	return NULL;
}

/* The word getopt_long stopped at. It is the one before optind, except
 * inside a group of short options that it has not finished (-xq, x
 * unknown): then optind still points at the group, and the word before it
 * is the command's name, an operand, or an option without that letter. */
static const char *bad_word(int argc, char **argv)
{
	const char *w = optind > 1 && optind <= argc ? argv[optind - 1] : "";
	int group = w[0] == '-' && w[1] && w[1] != '-';

	if (optind < argc && (w[0] != '-' || !w[1] ||
			      (group && optopt > 0 && optopt < VAL0 && !strchr(w + 1, optopt))))
		return argv[optind];
	return w;
}

int qb_opts_parse(const struct qb_opts *o, void *args, int argc, char **argv, int *status)
{
	struct option lo[QB_OPTS_MAX + 1];
	char shorts[2 * QB_OPTS_MAX + 2];
	size_t i, k = 0;
	int c;

	if (o->n > QB_OPTS_MAX) {
		cli_error("internal error: more than %d options", QB_OPTS_MAX);
		*status = QB_EXIT_USAGE;
		return -1;
	}
	if (o->flags & QB_OPTS_IN_ORDER)
		shorts[k++] = '+';
	for (i = 0; i < o->n; i++) {
		const struct qb_opt *r = &o->v[i];

		lo[i].name = r->name;
		lo[i].has_arg = r->arg ? required_argument : no_argument;
		lo[i].flag = NULL;
		lo[i].val = VAL0 + (int)i;
		if (r->short_name) {
			shorts[k++] = r->short_name;
			if (r->arg)
				shorts[k++] = ':';
		}
	}
	memset(&lo[o->n], 0, sizeof(lo[0]));
	shorts[k] = '\0';
	/* 0, not 1: getopt starts afresh, with this table's ordering (the top
	 * level has already parsed, in order, before the command) */
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, shorts, lo, NULL)) != -1) {
		const struct qb_opt *r = row_of(o, c);
		int rc;

		if (!r) {
			*status = cli_usage_error(qb_opts_hint(o), o->unknown, bad_word(argc, argv));
			return -1;
		}
		rc = r->set(args ? (char *)args + r->offset : NULL, optarg, o);
		if (rc) {
			*status = rc == QB_OPTS_DONE ? QB_EXIT_OK : rc;
			return -1;
		}
	}
	return optind;
}

int qb_opt_flag(void *field, const char *arg, const struct qb_opts *o)
{
	(void)arg;
	(void)o;
	*(int *)field = 1;
	return 0;
}

int qb_opt_string(void *field, const char *arg, const struct qb_opts *o)
{
	(void)o;
	*(const char **)field = arg;
	return 0;
}

int qb_opt_help(void *field, const char *arg, const struct qb_opts *o)
{
	(void)field;
	(void)arg;
	qb_opts_help(stdout, o);
	return QB_OPTS_DONE;
}

/* "-o, --output OUT" */
static size_t print_label(FILE *out, const struct qb_opt *r)
{
	size_t n = 0;

	if (r->short_name)
		n += (size_t)fprintf(out, "-%c, ", r->short_name);
	n += (size_t)fprintf(out, "--%s", r->name);
	if (r->arg)
		n += (size_t)fprintf(out, " %s", r->arg);
	return n;
}

void qb_opts_print(FILE *out, const struct qb_opts *o)
{
	size_t i, j, len;
	const char *h, *nl;

	for (i = 0; i < o->n; i++) {
		if (!o->v[i].help || (o->v[i].flags & QB_OPT_JOIN))
			continue;
		fputs("  ", out);
		len = 2 + print_label(out, &o->v[i]);
		for (j = i + 1; j < o->n && (o->v[j].flags & QB_OPT_JOIN); j++) {
			fputs(", ", out);
			len += 2 + print_label(out, &o->v[j]);
		}
		/* a label that reaches the column is followed by three spaces */
		fprintf(out, "%*s", len + 2 <= (size_t)o->col ? o->col - (int)len : 3, "");
		for (h = o->v[i].help; (nl = strchr(h, '\n')) != NULL; h = nl + 1)
			fprintf(out, "%.*s\n%*s", (int)(nl - h), h, o->col, "");
		fprintf(out, "%s\n", h);
	}
}

void qb_opts_help(FILE *out, const struct qb_opts *o)
{
	fprintf(out, "%s - %s\n\nUsage: %s\n", o->name, o->summary, o->synopsis);
	qb_opts_print(out, o);
	if (o->footer)
		fprintf(out, "%s\n", o->footer);
}
