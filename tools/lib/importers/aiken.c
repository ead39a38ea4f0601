/* Aiken, as Moodle's qformat_aiken reads it: a question line, options
 * "A) text" or "A. text" (a capital letter, then ')' or '.'), and one
 * "ANSWER: X" line that ends the question. Lines are trimmed and lines
 * shorter than two characters are skipped, as Moodle does. Moodle drops an
 * unfinished question silently and marks nothing when the letter names no
 * option; here both are refused with their line (import-refused). */
#include <stdlib.h>
#include <string.h>

#include "../core/arena.h"
#include "importers.h"

#define AIKEN_MAX_OPTIONS 26

struct aiken {
	const struct qb_imp_sink *sink;
	struct qb_arena arena;
	struct qb_imp_choice opt[AIKEN_MAX_OPTIONS];
	size_t nopt;
	const char *stem;       /* NULL: no question open */
	unsigned long line;     /* of the question line */
};

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f' || c == '\0';
}

/* The line [S, S+N) without the white space PHP's trim() removes. */
static const char *trim(const char *s, size_t *n)
{
	while (*n && is_space(*s)) {
		s++;
		(*n)--;
	}
	while (*n && is_space(s[*n - 1]))
		(*n)--;
	return s;
}

static int is_option(const char *s, size_t n)
{
	return n >= 2 && s[0] >= 'A' && s[0] <= 'Z' && (s[1] == ')' || s[1] == '.');
}

static int is_answer(const char *s, size_t n)
{
	return n >= 7 && memcmp(s, "ANSWER:", 7) == 0;
}

int qb_imp_aiken_detect(const char *data, size_t len)
{
	const char *p = data, *end = data + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);
		const char *s = trim(p, &n);

		if (is_answer(s, n))
			return 1;
		p = nl ? nl + 1 : end;
	}
	return 0;
}

/* The question's name for messages: its first 40 bytes, not cut inside a
 * UTF-8 sequence. */
static const char *short_name(struct aiken *a, const char *stem)
{
	size_t n = strlen(stem);

	if (n > 40) {
		n = 40;
		while (n > 0 && ((unsigned char)stem[n] & 0xC0) == 0x80)
			n--;
	}
	return qb_arena_strndup(&a->arena, stem, n);
}

static int finish(struct aiken *a, const char *ans, size_t n, unsigned long line)
{
	struct qb_imp_question q;
	const char *name = short_name(a, a->stem);
	size_t k;

	if (!name)
		return QB_ENOMEM;
	if (a->nopt < 2)
		return qb_imp_report(a->sink, line, QB_SEV_ERROR, QB_RULE_IMPORT_REFUSED, NULL,
				     "question '%s' (line %lu) has fewer than two options: left out",
				     name, a->line);
	ans = trim(ans, &n);
	k = n ? (size_t)(ans[0] - 'A') : AIKEN_MAX_OPTIONS;
	if (!n || ans[0] < 'A' || ans[0] > 'Z' || k >= a->nopt)
		return qb_imp_report(a->sink, line, QB_SEV_ERROR, QB_RULE_IMPORT_REFUSED, NULL,
				     "the ANSWER line of question '%s' (line %lu) names no option "
				     "(options A to %c): left out", name, a->line,
				     (char)('A' + a->nopt - 1));
	a->opt[k].fraction = 1;
	memset(&q, 0, sizeof(q));
	q.kind = QB_IMP_SINGLE;
	q.line = a->line;
	q.name = a->stem;
	q.stem = a->stem;
	q.choices = a->opt;
	q.nchoices = a->nopt;
	return a->sink->question(a->sink->ctx, &q);
}

static int aiken_line(struct aiken *a, const char *s, size_t n, unsigned long line)
{
	int rc;

	if (n < 2)
		return 0;
	if (is_option(s, n) || is_answer(s, n)) {
		if (!a->stem)
			return qb_imp_report(a->sink, line, QB_SEV_ERROR, QB_RULE_IMPORT_REFUSED, NULL,
					     "%s line outside a question: left out",
					     is_answer(s, n) ? "an ANSWER" : "an option");
		if (is_answer(s, n)) {
			rc = finish(a, s + 7, n - 7, line);
			a->stem = NULL;
			a->nopt = 0;
			qb_arena_reset(&a->arena);
			return rc;
		}
		if (a->nopt == AIKEN_MAX_OPTIONS)
			return qb_imp_report(a->sink, line, QB_SEV_ERROR, QB_RULE_IMPORT_REFUSED, NULL,
					     "more than %d options: this one is left out",
					     AIKEN_MAX_OPTIONS);
		n -= 2;
		s = trim(s + 2, &n);
		memset(&a->opt[a->nopt], 0, sizeof(a->opt[0]));
		a->opt[a->nopt].text = qb_arena_strndup(&a->arena, s, n);
		if (!a->opt[a->nopt].text)
			return QB_ENOMEM;
		a->nopt++;
		return 0;
	}
	if (a->stem) {
		rc = qb_imp_report(a->sink, a->line, QB_SEV_ERROR, QB_RULE_IMPORT_REFUSED, NULL,
				   "question '%s' has no ANSWER line before the next question "
				   "(line %lu): left out", short_name(a, a->stem), line);
		if (rc)
			return rc;
		qb_arena_reset(&a->arena);
		a->nopt = 0;
	}
	a->stem = qb_arena_strndup(&a->arena, s, n);
	a->line = line;
	return a->stem ? 0 : QB_ENOMEM;
}

int qb_imp_aiken_read(const char *data, size_t len, const struct qb_imp_sink *sink,
		      struct qb_error *err)
{
	struct aiken a;
	const char *p, *end;
	unsigned long line = 0;
	int rc = 0;

	memset(&a, 0, sizeof(a));
	a.sink = sink;
	p = qb_imp_skip_bom(data, &len);
	end = p + len;
	while (!rc && p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);
		const char *s = trim(p, &n);

		line++;
		rc = aiken_line(&a, s, n, line);
		p = nl ? nl + 1 : end;
	}
	if (!rc && a.stem)
		rc = qb_imp_report(sink, a.line, QB_SEV_ERROR, QB_RULE_IMPORT_REFUSED, NULL,
				   "question '%s' has no ANSWER line before the end of the file: "
				   "left out", short_name(&a, a.stem));
	qb_arena_dispose(&a.arena);
	if (rc == QB_ENOMEM)
		qb_error_set(err, rc, "%s: out of memory", sink->path);
	return rc;
}
