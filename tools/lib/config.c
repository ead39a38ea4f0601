#include "config.h"

#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <utf8proc.h>

#include "core/array.h"
#include "core/buf.h"
#include "text.h"

int qb_config_new(struct qb_config **out)
{
	struct qb_config *c = calloc(1, sizeof(*c));

	*out = NULL;
	if (!c)
		return QB_ENOMEM;
	c->min_explanation_coverage = -1;
	c->min_rationale_coverage = -1;
	c->max_warnings = -1;
	*out = c;
	return 0;
}

static void user_rule_dispose(struct qb_user_rule *r)
{
	free(r->id);
	free(r->pattern);
	free(r->message);
	pcre2_code_free(r->code);
}

void qb_config_free(struct qb_config *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->nsev; i++)
		free(c->sev[i].pattern);
	free(c->sev);
	for (i = 0; i < c->nuser_rules; i++)
		user_rule_dispose(&c->user_rules[i]);
	free(c->user_rules);
	pcre2_match_context_free(c->mctx);
	free(c->path);
	free(c);
}

int qb_config_set_severity(struct qb_config *c, const char *pattern,
			   enum qb_severity sev, int enable_default)
{
	struct qb_severity_rule *v;

	if (QB_ARRAY_RESERVE(c->sev, c->capsev, c->nsev + 1))
		return QB_ENOMEM;
	v = c->sev;
	v[c->nsev].pattern = strdup(pattern);
	if (!v[c->nsev].pattern)
		return QB_ENOMEM;
	v[c->nsev].severity = sev;
	v[c->nsev].enable_default = enable_default;
	c->nsev++;
	return 0;
}

const struct qb_user_rule *qb_config_user_rule(const struct qb_config *c, const char *id)
{
	size_t i;

	if (!c || strncmp(id, "custom/", 7) != 0)
		return NULL;
	for (i = 0; i < c->nuser_rules; i++)
		if (strcmp(c->user_rules[i].id, id) == 0)
			return &c->user_rules[i];
	return NULL;
}

enum qb_severity qb_config_severity(const struct qb_config *c,
				    const char *rule_id, enum qb_severity dflt)
{
	const struct qb_user_rule *u = qb_config_user_rule(c, rule_id);
	enum qb_severity s;
	size_t i;

	if (u)
		dflt = u->severity;
	s = dflt;
	if (!c)
		return s;
	for (i = 0; i < c->nsev; i++) {
		if (fnmatch(c->sev[i].pattern, rule_id, 0) == 0)
			s = c->sev[i].enable_default ? (dflt ? dflt : QB_SEV_WARNING)
						     : c->sev[i].severity;
	}
	return s;
}

/* ---- finding the file ------------------------------------------------ */

int qb_config_find(char **out, struct qb_error *err)
{
	struct qb_buf dir = QB_BUF_INIT, file = QB_BUF_INIT;
	struct stat here, up, st;
	int depth, rc = 0;

	*out = NULL;
	/* Walk "./", "../", "../../" ... until a directory is its own parent
	 * (the root). Relative paths keep messages short and deterministic. */
	for (depth = 0; depth < 4096; depth++) {
		qb_buf_clear(&file);
		if (qb_buf_add(&file, dir.ptr ? dir.ptr : "", dir.len) ||
		    qb_buf_adds(&file, QB_CONFIG_NAME)) {
			rc = QB_ENOMEM;
			break;
		}
		if (stat(file.ptr, &st) == 0 && S_ISREG(st.st_mode)) {
			*out = qb_buf_detach(&file);
			break;
		}
		if (stat(dir.len ? dir.ptr : ".", &here) != 0)
			break;
		if (qb_buf_adds(&dir, "../")) {
			rc = QB_ENOMEM;
			break;
		}
		if (stat(dir.ptr, &up) != 0 || (up.st_dev == here.st_dev && up.st_ino == here.st_ino))
			break;
	}
	if (rc)
		qb_error_set(err, rc, "out of memory");
	qb_buf_dispose(&dir);
	qb_buf_dispose(&file);
	return rc;
}

/* ---- the parser: a small subset of TOML --------------------------------
 *
 * One setting per line: `key = value`, `# comments`, `[rules]` and
 * `[[custom-rule]]` headers. Keys are bare (A-Z a-z 0-9 _ -) or quoted;
 * values are "basic strings" (with \ escapes), 'literal strings' (no
 * escapes: the natural form for patterns), numbers, true/false, and
 * one-line arrays of strings. Everything else is an error with its line. */

enum table { T_TOP, T_RULES, T_CUSTOM };
enum vtype { V_STRING, V_NUMBER, V_BOOL, V_ARRAY };

struct value {
	enum vtype type;
	char *s;
	double num;
	int is_int;
	int b;
	char **items;
	size_t nitems, capitems;
};

struct seen_key {
	char *key;
	unsigned long line;
};

struct parser {
	const char *name;
	unsigned long line;
	struct qb_error *err;
	struct qb_config *c;          /* the file's own settings, merged at the end */
	enum table table;
	int seen_rules;
	struct qb_user_rule *cur;     /* the [[custom-rule]] being read */
	struct seen_key *keys;        /* keys of the current table, for duplicates */
	size_t nkeys, capkeys;
	qb_config_rule_check_fn known;  /* the rule table's check of [rules] keys, or NULL */
};

static void fail_at(struct parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Records the message and yields QB_EINVAL. A macro, so that the result is a
 * constant at each call: the static analyzer does not follow variadic calls
 * and would otherwise take a failed parse (a zeroed value, type V_STRING
 * with no string) for a successful one. */
#define fail(...) (fail_at(__VA_ARGS__), QB_EINVAL)

static void fail_at(struct parser *p, const char *fmt, ...)
{
	char msg[800];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	qb_error_set(p->err, QB_EINVAL, "%s:%lu: %s", p->name, p->line, msg);
}

static void value_dispose(struct value *v)
{
	size_t i;

	free(v->s);
	for (i = 0; i < v->nitems; i++)
		free(v->items[i]);
	free(v->items);
	memset(v, 0, sizeof(*v));
}

static const char *skip_ws(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

static int is_bare(char ch)
{
	return (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') ||
	       ch == '_' || ch == '-';
}

static int hex_value(const char *s, int n, long *out)
{
	long v = 0;
	int i;

	for (i = 0; i < n; i++) {
		char ch = s[i];

		v <<= 4;
		if (ch >= '0' && ch <= '9')
			v |= ch - '0';
		else if (ch >= 'a' && ch <= 'f')
			v |= ch - 'a' + 10;
		else if (ch >= 'A' && ch <= 'F')
			v |= ch - 'A' + 10;
		else
			return -1;
	}
	*out = v;
	return 0;
}

/* "basic string" with TOML's escapes; *S is at the opening quote. */
static int parse_basic(struct parser *p, const char **s, char **out)
{
	static const char esc_in[] = "btnfr\"\\", esc_out[] = "\b\t\n\f\r\"\\";
	struct qb_buf b = QB_BUF_INIT;
	const char *q = *s + 1;
	int rc = 0;

	if (q[0] == '"' && q[1] == '"')
		return fail(p, "multi-line strings (\"\"\") are not supported; write the value on one line");
	if (qb_buf_adds(&b, ""))
		return QB_ENOMEM;
	while (!rc && *q != '"') {
		if (*q == '\0') {
			rc = fail(p, "unterminated string: a closing \" is missing on this line");
		} else if (*q == '\\') {
			const char *e = strchr(esc_in, q[1]);
			long cp;

			if (q[1] && e) {
				rc = qb_buf_addc(&b, esc_out[e - esc_in]);
				q += 2;
			} else if (q[1] == 'u' || q[1] == 'U') {
				int n = q[1] == 'u' ? 4 : 8;
				utf8proc_uint8_t enc[4];

				if ((int)strnlen(q + 2, (size_t)n) < n || hex_value(q + 2, n, &cp) ||
				    !utf8proc_codepoint_valid((utf8proc_int32_t)cp)) {
					rc = fail(p, "bad \\%c escape: %d hex digits of a Unicode scalar value expected",
						  q[1], n);
				} else {
					rc = qb_buf_add(&b, enc,
							(size_t)utf8proc_encode_char((utf8proc_int32_t)cp, enc));
					q += 2 + n;
				}
			} else {
				rc = fail(p, "unknown escape '\\%c' in a \"string\"; use a 'literal string' for "
					  "patterns with backslashes", q[1] ? q[1] : ' ');
			}
		} else if ((unsigned char)*q < 0x20 && *q != '\t') {
			rc = fail(p, "control character in a string");
		} else {
			rc = qb_buf_addc(&b, *q++);
		}
	}
	if (rc) {
		qb_buf_dispose(&b);
		return rc;
	}
	*s = q + 1;
	*out = qb_buf_detach(&b);
	return 0;
}

/* 'literal string': no escapes; *S is at the opening quote. */
static int parse_literal(struct parser *p, const char **s, char **out)
{
	const char *q = *s + 1, *end;

	if (q[0] == '\'' && q[1] == '\'')
		return fail(p, "multi-line strings (''') are not supported; write the value on one line");
	end = strchr(q, '\'');
	if (!end)
		return fail(p, "unterminated string: a closing ' is missing on this line");
	*out = strndup(q, (size_t)(end - q));
	if (!*out)
		return QB_ENOMEM;
	*s = end + 1;
	return 0;
}

static int parse_string(struct parser *p, const char **s, char **out)
{
	return **s == '"' ? parse_basic(p, s, out) : parse_literal(p, s, out);
}

static int parse_key(struct parser *p, const char **s, char **out)
{
	const char *q = *s;
	int rc;

	if (*q == '"' || *q == '\'') {
		rc = parse_string(p, &q, out);
		if (rc)
			return rc;
	} else {
		while (is_bare(*q))
			q++;
		if (q == *s)
			return fail(p, "expected a setting (key = value), a [table] or a # comment");
		*out = strndup(*s, (size_t)(q - *s));
		if (!*out)
			return QB_ENOMEM;
	}
	q = skip_ws(q);
	if (*q == '.') {
		free(*out);
		*out = NULL;
		return fail(p, "dotted keys are not supported; quote a key that holds a dot");
	}
	*s = q;
	return 0;
}

static int parse_number(struct parser *p, const char **s, struct value *v)
{
	char tok[64];
	const char *q = *s;
	size_t n = 0;
	char *end;

	while ((is_bare(*q) || *q == '+' || *q == '.') && n < sizeof(tok) - 1) {
		if (*q != '_')
			tok[n++] = *q;
		q++;
	}
	tok[n] = '\0';
	if (n == 0 || strpbrk(tok, "xXoObBiInN"))
		return fail(p, "bad number '%s'", tok);
	errno = 0;
	v->num = strtod(tok, &end);
	if (errno || *end || !isfinite(v->num))
		return fail(p, "bad number '%s'", tok);
	v->type = V_NUMBER;
	v->is_int = !strpbrk(tok, ".eE");
	*s = q;
	return 0;
}

static int parse_array(struct parser *p, const char **s, struct value *v)
{
	const char *q = skip_ws(*s + 1);
	int rc;

	v->type = V_ARRAY;
	while (*q != ']') {
		char *item = NULL;

		if (*q != '"' && *q != '\'')
			return fail(p, *q ? "arrays hold \"strings\" here" :
				    "unterminated array: a closing ] is missing (arrays stay on one line)");
		rc = parse_string(p, &q, &item);
		if (rc)
			return rc;
		if (QB_ARRAY_PUSH(v->items, v->nitems, v->capitems, item)) {
			free(item);
			return QB_ENOMEM;
		}
		q = skip_ws(q);
		if (*q == ',')
			q = skip_ws(q + 1);
		else if (*q != ']')
			return fail(p, *q ? "expected , or ] in the array" :
				    "unterminated array: a closing ] is missing (arrays stay on one line)");
	}
	*s = q + 1;
	return 0;
}

static int parse_value(struct parser *p, const char **s, struct value *v)
{
	const char *q = *s;

	if (*q == '"' || *q == '\'') {
		v->type = V_STRING;
		return parse_string(p, s, &v->s);
	}
	if (*q == '[')
		return parse_array(p, s, v);
	if (strncmp(q, "true", 4) == 0 && !is_bare(q[4])) {
		v->type = V_BOOL;
		v->b = 1;
		*s = q + 4;
		return 0;
	}
	if (strncmp(q, "false", 5) == 0 && !is_bare(q[5])) {
		v->type = V_BOOL;
		*s = q + 5;
		return 0;
	}
	if ((*q >= '0' && *q <= '9') || *q == '+' || *q == '-' || *q == '.')
		return parse_number(p, s, v);
	return fail(p, "expected a value: a \"string\", a 'string', a number, true, false or [\"list\"]");
}

/* ---- meaning of the settings ----------------------------------------- */

static const char *const vtype_names[] = { "a string", "a number", "true or false", "a list" };

static int want(struct parser *p, const struct value *v, enum vtype t, const char *key)
{
	if (v->type != t)
		return fail(p, "'%s' takes %s, not %s", key, vtype_names[t], vtype_names[v->type]);
	return 0;
}

static int set_pct(struct parser *p, double *out, const struct value *v, const char *key)
{
	int rc = want(p, v, V_NUMBER, key);

	if (rc)
		return rc;
	if (v->num < 0 || v->num > 100)
		return fail(p, "'%s' is a percentage from 0 to 100, not %g", key, v->num);
	*out = v->num;
	return 0;
}

static int top_setting(struct parser *p, const char *key, const struct value *v)
{
	int rc;

	if (strcmp(key, "max-warnings") == 0) {
		rc = want(p, v, V_NUMBER, key);
		if (rc)
			return rc;
		if (!v->is_int || v->num < 0 || v->num > 1e15)
			return fail(p, "'max-warnings' takes a whole number >= 0, not %g", v->num);
		p->c->max_warnings = (long)v->num;
		return 0;
	}
	if (strcmp(key, "min-explanation-coverage") == 0)
		return set_pct(p, &p->c->min_explanation_coverage, v, key);
	if (strcmp(key, "min-rationale-coverage") == 0)
		return set_pct(p, &p->c->min_rationale_coverage, v, key);
	{
		static const char *const settings[] = { "max-warnings", "min-explanation-coverage",
							"min-rationale-coverage" };
		const char *hint = qb_text_closest(key, settings, sizeof(settings) / sizeof(settings[0]));

		if (hint)
			return fail(p, "unknown setting '%s'; did you mean '%s'?", key, hint);
	}
	return fail(p, "unknown setting '%s'; expected max-warnings, min-explanation-coverage, "
		    "min-rationale-coverage, [rules] or [[custom-rule]]", key);
}

static int rules_setting(struct parser *p, const char *key, const struct value *v)
{
	enum qb_severity sev;
	int rc, kind;

	if (strcmp(key, "max-warnings") == 0 || strncmp(key, "min-", 4) == 0)
		return fail(p, "'%s' is not a rule: put it above the first [table]", key);
	kind = p->known ? p->known(key) : QB_CONFIG_RULE_OK;
	if (kind == QB_CONFIG_RULE_UNKNOWN)
		return fail(p, "unknown rule '%s'; 'qbank rules' lists them", key);
	rc = want(p, v, V_STRING, key);
	if (rc)
		return rc;
	if (qb_severity_parse(&sev, v->s))
		return fail(p, "severity of '%s' must be \"error\", \"warning\", \"info\" or \"off\", not \"%s\"",
			    key, v->s);
	if (kind == QB_CONFIG_RULE_FIXED && sev != QB_SEV_ERROR)
		return fail(p, "'%s' is a read error and always an error: what qbank cannot read is "
			    "neither checked nor exported; fix the bank and remove this line", key);
	return qb_config_set_severity(p->c, key, sev, 0);
}

static const struct {
	const char *name;
	unsigned bits;
} part_names[] = {
	{ "distractor", QB_PART_DISTRACTOR },
	{ "explanation", QB_PART_EXPLANATION },
	{ "key", QB_PART_KEY },
	{ "option", QB_PART_OPTION },
	{ "rationale", QB_PART_RATIONALE },
	{ "stem", QB_PART_STEM },
};

static int set_parts(struct parser *p, const struct value *v)
{
	size_t i, j, n = v->type == V_STRING ? 1 : v->nitems;
	unsigned bits = 0;

	if (v->type != V_STRING && v->type != V_ARRAY)
		return fail(p, "'parts' takes a list such as [\"stem\", \"option\"]");
	if (n == 0)
		return fail(p, "'parts' is empty; leave it out to read every part");
	for (i = 0; i < n; i++) {
		const char *name = v->type == V_STRING ? v->s : v->items[i];

		for (j = 0; j < sizeof(part_names) / sizeof(part_names[0]); j++)
			if (strcmp(name, part_names[j].name) == 0)
				break;
		if (j == sizeof(part_names) / sizeof(part_names[0]))
			return fail(p, "unknown part '%s'; expected stem, option, key, distractor, "
				    "rationale or explanation", name);
		bits |= part_names[j].bits;
	}
	p->cur->parts = bits;
	return 0;
}

static int valid_custom_id(const char *id)
{
	const char *s = id + 7;

	if (strncmp(id, "custom/", 7) != 0 || !*s)
		return 0;
	for (; *s; s++)
		if (!is_bare(*s) && *s != '.' && *s != '/')
			return 0;
	return 1;
}

static int custom_setting(struct parser *p, const char *key, const struct value *v)
{
	struct qb_user_rule *r = p->cur;
	char **dst = NULL;
	size_t i;
	int rc;

	if (strcmp(key, "parts") == 0)
		return set_parts(p, v);
	if (strcmp(key, "id") == 0)
		dst = &r->id;
	else if (strcmp(key, "pattern") == 0)
		dst = &r->pattern;
	else if (strcmp(key, "message") == 0)
		dst = &r->message;
	else if (strcmp(key, "severity") != 0) {
		static const char *const keys[] = { "id", "pattern", "message", "parts", "severity" };
		const char *hint = qb_text_closest(key, keys, sizeof(keys) / sizeof(keys[0]));

		if (hint)
			return fail(p, "unknown key '%s' in [[custom-rule]]; did you mean '%s'?", key, hint);
		return fail(p, "unknown key '%s' in [[custom-rule]]; expected id, pattern, message, "
			    "parts or severity", key);
	}
	rc = want(p, v, V_STRING, key);
	if (rc)
		return rc;
	if (!dst) {
		if (qb_severity_parse(&r->severity, v->s))
			return fail(p, "severity must be \"error\", \"warning\", \"info\" or \"off\", not \"%s\"",
				    v->s);
		return 0;
	}
	if (dst == &r->id) {
		if (!valid_custom_id(v->s))
			return fail(p, "user rule ids live in their own namespace: write 'custom/NAME' "
				    "(letters, digits, - _ . /), not '%s'", v->s);
		for (i = 0; i + 1 < p->c->nuser_rules; i++)
			if (strcmp(p->c->user_rules[i].id, v->s) == 0)
				return fail(p, "user rule '%s' is defined twice (first on line %lu)", v->s,
					    p->c->user_rules[i].line);
	} else if (dst == &r->pattern) {
		r->pattern_line = p->line;
	} else if (!v->s[0]) {
		return fail(p, "'message' is empty; say what is wrong and how to fix it");
	}
	*dst = strdup(v->s);
	return *dst ? 0 : QB_ENOMEM;
}

/* Checks the [[custom-rule]] just ended and compiles its pattern. */
static int finish_custom(struct parser *p)
{
	struct qb_user_rule *r = p->cur;
	PCRE2_UCHAR msg[256];
	PCRE2_SIZE off;
	int code;

	if (!r)
		return 0;
	p->cur = NULL;
	p->line = r->line;
	if (!r->id || !r->pattern || !r->message) {
		const char *miss[3];
		int n = 0;

		if (!r->id)
			miss[n++] = "an id ('custom/NAME')";
		if (!r->pattern)
			miss[n++] = "a pattern";
		if (!r->message)
			miss[n++] = "a message";
		return fail(p, "[[custom-rule]] without %s%s%s%s%s", miss[0], n == 3 ? ", " : n == 2 ? " or " : "",
			    n > 1 ? miss[1] : "", n == 3 ? " or " : "", n == 3 ? miss[2] : "");
	}
	p->line = r->pattern_line;
	r->code = pcre2_compile((PCRE2_SPTR)r->pattern, PCRE2_ZERO_TERMINATED, PCRE2_UTF | PCRE2_UCP,
				&code, &off, NULL);
	if (!r->code) {
		pcre2_get_error_message(code, msg, sizeof(msg));
		return fail(p, "bad pattern for %s: %s (at offset %zu of the pattern)", r->id,
			    (const char *)msg, (size_t)off);
	}
	/* JIT makes matching several times faster; without it (not built in,
	 * no executable memory) the interpreter does the same work. */
	(void)pcre2_jit_compile(r->code, PCRE2_JIT_COMPLETE);
	return 0;
}

static int start_custom(struct parser *p)
{
	struct qb_config *c = p->c;

	if (QB_ARRAY_RESERVE(c->user_rules, c->capuser_rules, c->nuser_rules + 1))
		return QB_ENOMEM;
	p->cur = &c->user_rules[c->nuser_rules++];
	memset(p->cur, 0, sizeof(*p->cur));
	p->cur->parts = QB_PART_ALL;
	p->cur->severity = QB_SEV_WARNING;
	p->cur->line = p->line;
	return 0;
}

static void forget_keys(struct parser *p)
{
	size_t i;

	for (i = 0; i < p->nkeys; i++)
		free(p->keys[i].key);
	p->nkeys = 0;
}

static int remember_key(struct parser *p, const char *key)
{
	struct seen_key *v;
	size_t i;

	for (i = 0; i < p->nkeys; i++)
		if (strcmp(p->keys[i].key, key) == 0)
			return fail(p, "'%s' is set twice (first on line %lu)", key, p->keys[i].line);
	if (QB_ARRAY_RESERVE(p->keys, p->capkeys, p->nkeys + 1))
		return QB_ENOMEM;
	v = p->keys;
	v[p->nkeys].key = strdup(key);
	if (!v[p->nkeys].key)
		return QB_ENOMEM;
	v[p->nkeys++].line = p->line;
	return 0;
}

static int header(struct parser *p, const char *s)
{
	int array = s[1] == '[';
	const char *q = skip_ws(s + 1 + array), *name = q;
	size_t n;
	int rc;

	while (is_bare(*q))
		q++;
	n = (size_t)(q - name);
	q = skip_ws(q);
	if (*q != ']' || (array && q[1] != ']'))
		return fail(p, "bad table header: expected [rules] or [[custom-rule]]");
	q = skip_ws(q + 1 + array);
	if (*q && *q != '#')
		return fail(p, "unexpected text after the table header");
	rc = finish_custom(p);
	if (rc)
		return rc;
	forget_keys(p);
	if (array && n == 11 && strncmp(name, "custom-rule", n) == 0) {
		p->table = T_CUSTOM;
		return start_custom(p);
	}
	if (!array && n == 5 && strncmp(name, "rules", n) == 0) {
		if (p->seen_rules)
			return fail(p, "table [rules] appears twice; keep one");
		p->seen_rules = 1;
		p->table = T_RULES;
		return 0;
	}
	{
		static const char *const tables[] = { "rules", "custom-rule" };
		char t[64];
		const char *hint = NULL;

		if (n < sizeof(t)) {
			memcpy(t, name, n);
			t[n] = '\0';
			hint = qb_text_closest(t, tables, 2);
		}
		if (hint)
			return fail(p, "unknown table %s%.*s%s; did you mean %s?", array ? "[[" : "[",
				    (int)n, name, array ? "]]" : "]",
				    hint[0] == 'r' ? "[rules]" : "[[custom-rule]]");
	}
	return fail(p, "unknown table %s%.*s%s; expected [rules] or [[custom-rule]]", array ? "[[" : "[",
		    (int)n, name, array ? "]]" : "]");
}

static int parse_line(struct parser *p, const char *s)
{
	struct value v;
	char *key = NULL;
	int rc;

	memset(&v, 0, sizeof(v));
	s = skip_ws(s);
	if (*s == '\0' || *s == '#')
		return 0;
	if (*s == '[')
		return header(p, s);
	rc = parse_key(p, &s, &key);
	if (rc)
		return rc;
	if (*s != '=') {
		rc = fail(p, "expected '=' after '%s'", key);
		goto done;
	}
	s = skip_ws(s + 1);
	rc = parse_value(p, &s, &v);
	if (rc)
		goto done;
	s = skip_ws(s);
	if (*s && *s != '#') {
		rc = fail(p, "unexpected text after the value of '%s'", key);
		goto done;
	}
	rc = remember_key(p, key);
	if (rc)
		goto done;
	if (p->table == T_TOP)
		rc = top_setting(p, key, &v);
	else if (p->table == T_RULES)
		rc = rules_setting(p, key, &v);
	else
		rc = custom_setting(p, key, &v);
done:
	free(key);
	value_dispose(&v);
	return rc;
}

/* Moves the file's settings F under those of C (C wins). */
static int merge_under(struct qb_config *c, struct qb_config *f)
{
	if (QB_ARRAY_RESERVE(f->sev, f->capsev, f->nsev + c->nsev) ||
	    QB_ARRAY_RESERVE(c->user_rules, c->capuser_rules, c->nuser_rules + f->nuser_rules))
		return QB_ENOMEM;
	if (c->nsev)
		memcpy(f->sev + f->nsev, c->sev, c->nsev * sizeof(*f->sev));
	free(c->sev);
	c->sev = f->sev;
	c->capsev = f->capsev;
	c->nsev += f->nsev;
	f->sev = NULL;
	f->nsev = f->capsev = 0;
	if (f->nuser_rules)
		memcpy(c->user_rules + c->nuser_rules, f->user_rules,
		       f->nuser_rules * sizeof(*c->user_rules));
	c->nuser_rules += f->nuser_rules;
	f->nuser_rules = 0;
	if (c->min_explanation_coverage < 0)
		c->min_explanation_coverage = f->min_explanation_coverage;
	if (c->min_rationale_coverage < 0)
		c->min_rationale_coverage = f->min_rationale_coverage;
	if (c->max_warnings < 0)
		c->max_warnings = f->max_warnings;
	if (!c->mctx) {
		c->mctx = f->mctx;
		f->mctx = NULL;
	}
	return 0;
}

int qb_config_parse(struct qb_config *c, const char *name, const char *text, size_t len,
		    qb_config_rule_check_fn known, struct qb_error *err)
{
	struct parser p;
	struct qb_buf line = QB_BUF_INIT;
	const char *s = text, *end = text + len;
	int rc;

	memset(&p, 0, sizeof(p));
	p.name = name;
	p.err = err;
	p.known = known;
	rc = qb_config_new(&p.c);
	if (rc)
		return rc;
	if (len >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0)
		s += 3;   /* a UTF-8 byte-order mark, as some editors write */
	while (!rc && s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t n = (size_t)((nl ? nl : end) - s);

		p.line++;
		if (n && s[n - 1] == '\r')
			n--;
		qb_buf_clear(&line);
		if (memchr(s, '\0', n))
			rc = fail(&p, "NUL byte in the configuration file");
		else
			rc = qb_buf_add(&line, s, n);
		if (!rc)
			rc = parse_line(&p, line.ptr ? line.ptr : "");
		s = nl ? nl + 1 : end;
	}
	if (!rc)
		rc = finish_custom(&p);
	if (!rc && p.c->nuser_rules && !c->mctx) {
		p.c->mctx = pcre2_match_context_create(NULL);
		if (!p.c->mctx ||
		    pcre2_set_match_limit(p.c->mctx, QB_USER_MATCH_LIMIT) ||
		    pcre2_set_depth_limit(p.c->mctx, QB_USER_DEPTH_LIMIT))
			rc = QB_ENOMEM;
	}
	if (!rc)
		rc = merge_under(c, p.c);
	if (rc == QB_ENOMEM)
		qb_error_set(err, rc, "out of memory");
	forget_keys(&p);
	free(p.keys);
	qb_buf_dispose(&line);
	qb_config_free(p.c);
	return rc;
}

int qb_config_load(struct qb_config *c, const char *path, qb_config_rule_check_fn known,
		   struct qb_error *err)
{
	struct qb_buf text = QB_BUF_INIT;
	char chunk[4096];
	FILE *f = fopen(path, "rb");
	size_t n;
	int rc = 0;

	if (!f) {
		qb_error_set(err, QB_EIO, "cannot read %s: %s", path, strerror(errno));
		return QB_EIO;
	}
	while (!rc && (n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		if (text.len + n > (1u << 20)) {
			qb_error_set(err, QB_EINVAL, "%s: larger than 1 MiB; is this a configuration file?",
				     path);
			rc = QB_EINVAL;
		} else {
			rc = qb_buf_add(&text, chunk, n);
		}
	}
	if (!rc && ferror(f)) {
		qb_error_set(err, QB_EIO, "cannot read %s: %s", path, strerror(errno));
		rc = QB_EIO;
	}
	(void)fclose(f);  /* read-only: ferror() above already caught read errors */
	if (!rc)
		rc = qb_config_parse(c, path, text.ptr ? text.ptr : "", text.len, known, err);
	if (!rc && !c->path) {
		c->path = strdup(path);
		if (!c->path)
			rc = QB_ENOMEM;
	}
	qb_buf_dispose(&text);
	return rc;
}
