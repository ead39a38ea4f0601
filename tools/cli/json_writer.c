#include "json_writer.h"

#include <string.h>

#include <utf8proc.h>

void cli_json_init(struct cli_json *j, FILE *out)
{
	memset(j, 0, sizeof(*j));
	j->out = out;
}

/* Before any value: the comma and line break of an array element, nothing
 * after a key. */
static void before_value(struct cli_json *j)
{
	if (j->after_key) {
		j->after_key = 0;
		return;
	}
	if (j->depth > 0) {
		fputs(j->count[j->depth] ? ",\n" : "\n", j->out);
		j->count[j->depth]++;
		fprintf(j->out, "%*s", 2 * j->depth, "");
	}
}

static void begin(struct cli_json *j, char ch)
{
	before_value(j);
	fputc(ch, j->out);
	if (j->depth + 1 < CLI_JSON_MAX_DEPTH)
		j->depth++;
	j->count[j->depth] = 0;
}

static void end(struct cli_json *j, char ch)
{
	int had = j->count[j->depth];

	if (j->depth > 0)
		j->depth--;
	if (had)
		fprintf(j->out, "\n%*s", 2 * j->depth, "");
	fputc(ch, j->out);
}

void cli_json_begin_object(struct cli_json *j)
{
	begin(j, '{');
}

void cli_json_end_object(struct cli_json *j)
{
	end(j, '}');
}

void cli_json_begin_array(struct cli_json *j)
{
	begin(j, '[');
}

void cli_json_end_array(struct cli_json *j)
{
	end(j, ']');
}

void cli_json_key(struct cli_json *j, const char *key)
{
	before_value(j);
	cli_json_write_string(j->out, key);
	fputs(": ", j->out);
	j->after_key = 1;
}

void cli_json_write_string(FILE *out, const char *s)
{
	const utf8proc_uint8_t *p = (const utf8proc_uint8_t *)s;

	fputc('"', out);
	while (*p) {
		utf8proc_int32_t cp;
		utf8proc_ssize_t n;

		if (*p < 0x80) {
			if (*p == '"' || *p == '\\')
				fprintf(out, "\\%c", *p);
			else if (*p < 0x20)
				fprintf(out, "\\u%04x", *p);
			else
				fputc(*p, out);
			p++;
			continue;
		}
		n = utf8proc_iterate(p, -1, &cp);
		if (n < 1) {
			fputs("\\ufffd", out);
			p++;
		} else {
			fwrite(p, 1, (size_t)n, out);
			p += n;
		}
	}
	fputc('"', out);
}

void cli_json_string(struct cli_json *j, const char *s)
{
	if (!s) {
		cli_json_null(j);
		return;
	}
	before_value(j);
	cli_json_write_string(j->out, s);
}

void cli_json_uint(struct cli_json *j, unsigned long long v)
{
	before_value(j);
	fprintf(j->out, "%llu", v);
}

void cli_json_int(struct cli_json *j, long long v)
{
	before_value(j);
	fprintf(j->out, "%lld", v);
}

void cli_json_number2(struct cli_json *j, double v)
{
	char buf[64];
	size_t n;

	before_value(j);
	snprintf(buf, sizeof(buf), "%.2f", v);
	n = strlen(buf);
	while (n > 0 && buf[n - 1] == '0')
		buf[--n] = '\0';
	if (n > 0 && buf[n - 1] == '.')
		buf[--n] = '\0';
	fputs(strcmp(buf, "-0") == 0 ? "0" : buf, j->out);
}

void cli_json_null(struct cli_json *j)
{
	before_value(j);
	fputs("null", j->out);
}

void cli_json_bool(struct cli_json *j, int v)
{
	before_value(j);
	fputs(v ? "true" : "false", j->out);
}

void cli_json_finish(struct cli_json *j)
{
	fputc('\n', j->out);
}
