/* A small streaming JSON writer for the json and sarif formats: two-space
 * indentation, commas and nesting kept by the writer, strings escaped
 * (control characters as \u00XX, invalid UTF-8 as U+FFFD, other UTF-8
 * passed through). Ownership: the caller owns the FILE. */
#ifndef QB_CLI_JSON_WRITER_H
#define QB_CLI_JSON_WRITER_H

#include <stdio.h>

#define CLI_JSON_MAX_DEPTH 32

struct cli_json {
	FILE *out;
	int depth;
	int after_key;                       /* a key was written, its value is next */
	int count[CLI_JSON_MAX_DEPTH];       /* members written at each depth */
};

void cli_json_init(struct cli_json *j, FILE *out);
void cli_json_begin_object(struct cli_json *j);
void cli_json_end_object(struct cli_json *j);
void cli_json_begin_array(struct cli_json *j);
void cli_json_end_array(struct cli_json *j);
/* The member name of the next value inside an object. */
void cli_json_key(struct cli_json *j, const char *key);
/* A string value; NULL writes null. */
void cli_json_string(struct cli_json *j, const char *s);
void cli_json_uint(struct cli_json *j, unsigned long long v);
void cli_json_int(struct cli_json *j, long long v);
/* A number with at most two decimals, trailing zeros dropped (96.77, 100). */
void cli_json_number2(struct cli_json *j, double v);
void cli_json_null(struct cli_json *j);
void cli_json_bool(struct cli_json *j, int v);
/* Ends the document with a newline. */
void cli_json_finish(struct cli_json *j);

/* Writes S as a JSON string literal (quotes included) to OUT. */
void cli_json_write_string(FILE *out, const char *s);

#endif
