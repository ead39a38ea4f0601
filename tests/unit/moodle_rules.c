#include "moodle_rules.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/uri.h>

/* Moodle's grade fractions (question_bank::fraction_options_full()), in
 * percent; the importer accepts a value within 0.00001 of one of them or
 * of its negative. Copied here on purpose rather than taken from
 * moodle_grades.h: the check must not share the exporter's table. */
static const double listed[] = {
	100, 90, 83.33333, 80, 75, 70, 66.66667, 60, 50, 40, 33.33333, 30, 25, 20,
	16.66667, 14.28571, 12.5, 11.11111, 10, 5, 0,
};

struct ctx {
	struct qb_buf *out;
	int n;
	const char *name;          /* of the question being checked */
};

static void finding(struct ctx *c, const char *rule, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void finding(struct ctx *c, const char *rule, const char *fmt, ...)
{
	va_list ap;

	c->n++;
	qb_buf_printf(c->out, "%s: question '%s': ", rule, c->name ? c->name : "?");
	va_start(ap, fmt);
	qb_buf_vprintf(c->out, fmt, ap);
	va_end(ap);
	qb_buf_addc(c->out, '\n');
}

static int is(const xmlNode *n, const char *name)
{
	return n && n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name) == 0;
}

static const xmlNode *child(const xmlNode *n, const char *name)
{
	const xmlNode *c;

	for (c = n ? n->children : NULL; c; c = c->next)
		if (is(c, name))
			return c;
	return NULL;
}

/* The trimmed text of N's <text> child (or of N itself when TEXT is 0),
 * as a new string; "" when absent. */
static char *text_of(const xmlNode *n, int text)
{
	const xmlNode *t = text ? child(n, "text") : n;
	xmlChar *v = t ? xmlNodeGetContent(t) : NULL;
	const char *s = v ? (const char *)v : "";
	size_t len;
	char *r;

	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	len = strlen(s);
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t' || s[len - 1] == '\n' ||
		       s[len - 1] == '\r'))
		len--;
	r = strndup(s, len);
	xmlFree(v);
	return r;
}

static char *prop(const xmlNode *n, const char *name)
{
	xmlChar *v = xmlGetNoNsProp((xmlNodePtr)n, BAD_CAST name);
	char *r = strdup(v ? (const char *)v : "");

	xmlFree(v);
	return r;
}

static int digits(const char **s)
{
	const char *p = *s;

	while (**s >= '0' && **s <= '9')
		(*s)++;
	return *s > p;
}

/* A number as Moodle's database takes it: [-]digits[.digits][e[+-]digits],
 * with a '.' and never a comma. */
static int is_number(const char *s, int sign, int exp)
{
	if (sign && *s == '-')
		s++;
	if (!digits(&s))
		return 0;
	if (*s == '.') {
		s++;
		if (!digits(&s))
			return 0;
	}
	if (exp && (*s == 'e' || *s == 'E')) {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		if (!digits(&s))
			return 0;
	}
	return *s == '\0';
}

static int is_listed(double f)
{
	size_t i;

	for (i = 0; i < sizeof(listed) / sizeof(listed[0]); i++)
		if (fabs(fabs(f) - listed[i]) < 0.00001)
			return 1;
	return 0;
}

static size_t utf8_chars(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xC0) != 0x80;
	return n;
}

/* Every <file> below N: path "/", a name, base64. Every @@PLUGINFILE@@/X in
 * a <text> has a <file name="X"> beside it (Moodle would show a broken
 * image otherwise). */
static void check_files(struct ctx *c, const xmlNode *n)
{
	const xmlNode *k;

	for (k = n->children; k; k = k->next) {
		if (k->type != XML_ELEMENT_NODE)
			continue;
		if (is(k, "file")) {
			char *path = prop(k, "path"), *name = prop(k, "name"), *enc = prop(k, "encoding");

			if (strcmp(path, "/") != 0)
				finding(c, "file-path", "file '%s' has path '%s'; Moodle's import aborts "
					"unless it is '/'", name, path);
			if (!name[0])
				finding(c, "file-path", "a file without a name");
			if (strcmp(enc, "base64") != 0)
				finding(c, "file-path", "file '%s' is not base64", name);
			free(path);
			free(name);
			free(enc);
			continue;
		}
		if (is(k, "text")) {
			xmlChar *v = xmlNodeGetContent(k);
			const char *s = v ? (const char *)v : "";
			const char *p;

			for (p = strstr(s, "@@PLUGINFILE@@/"); p; p = strstr(p + 1, "@@PLUGINFILE@@/")) {
				const char *start = p + 15;
				size_t len = strcspn(start, "\"' >");
				char *enc = strndup(start, len);
				char *dec = (char *)xmlURIUnescapeString(enc, 0, NULL);
				const xmlNode *f;
				int found = 0;

				for (f = n->children; f && !found; f = f->next) {
					if (is(f, "file")) {
						char *name = prop(f, "name");

						found = dec && strcmp(name, dec) == 0;
						free(name);
					}
				}
				if (!found)
					finding(c, "pluginfile", "<%s> refers to @@PLUGINFILE@@/%s but holds "
						"no such <file>", (const char *)n->name, enc);
				free(enc);
				xmlFree(dec);
			}
			xmlFree(v);
			continue;
		}
		check_files(c, k);
	}
}

/* Fractions of the <answer>s of Q: each listed; returns their count and
 * sums through the pointers. */
static int fractions(struct ctx *c, const xmlNode *q, double *max, double *positive,
		     int *nonempty)
{
	const xmlNode *a;
	int n = 0;

	*max = -1e9;
	*positive = 0;
	*nonempty = 0;
	for (a = q->children; a; a = a->next) {
		char *fr, *end, *t;
		double f;

		if (!is(a, "answer"))
			continue;
		n++;
		fr = prop(a, "fraction");
		f = strtod(fr, &end);
		if (!fr[0] || *end || !is_number(fr, 1, 0))
			finding(c, "fraction-listed", "fraction '%s' is not a number", fr);
		else if (!is_listed(f))
			finding(c, "fraction-listed", "fraction %s is not within 0.00001 of a value "
				"in Moodle's list", fr);
		if (f > *max)
			*max = f;
		if (f > 0)
			*positive += f;
		t = text_of(a, 1);
		*nonempty += t[0] != '\0';
		free(t);
		free(fr);
	}
	return n;
}

static void check_multichoice(struct ctx *c, const xmlNode *q)
{
	double max, positive;
	int nonempty;
	char *single = text_of(child(q, "single"), 0);

	fractions(c, q, &max, &positive, &nonempty);
	if (nonempty < 2)
		finding(c, "multichoice-answers", "%d answers with text; Moodle needs 2", nonempty);
	if (strcmp(single, "false") != 0) {
		if (fabs(max - 100) > 0.00001)
			finding(c, "single-100", "no answer is worth 100%%; Moodle would import a "
				"question nobody can answer fully");
	} else if (fabs(positive - 100) > 0.01) {
		finding(c, "multiple-sum", "the positive fractions add up to %.5f, not 100", positive);
	}
	free(single);
}

static void check_truefalse(struct ctx *c, const xmlNode *q)
{
	const xmlNode *a;
	int n = 0, t = 0, f = 0, key = 0;

	for (a = q->children; a; a = a->next) {
		char *v, *fr;

		if (!is(a, "answer"))
			continue;
		n++;
		v = text_of(a, 1);
		fr = prop(a, "fraction");
		if (strcmp(v, "true") == 0)
			t++;
		else if (strcmp(v, "false") == 0)
			f++;
		else
			finding(c, "truefalse-answers", "answer '%s' is neither 'true' nor 'false'", v);
		if (!is_number(fr, 1, 0) || (strtod(fr, NULL) != 100 && strtod(fr, NULL) != 0))
			finding(c, "truefalse-answers", "answer '%s' has fraction '%s' (100 or 0)", v, fr);
		key += strtod(fr, NULL) == 100;
		free(v);
		free(fr);
	}
	if (n != 2 || t != 1 || f != 1 || key != 1)
		finding(c, "truefalse-answers", "needs one 'true' and one 'false' answer, one of "
			"them worth 100");
}

static void check_shortanswer(struct ctx *c, const xmlNode *q)
{
	double max, positive;
	int nonempty;

	fractions(c, q, &max, &positive, &nonempty);
	if (fabs(max - 100) > 0.00001)
		finding(c, "shortanswer-100", "no answer is worth 100%%; Moodle's import aborts");
}

static void check_numerical(struct ctx *c, const xmlNode *q)
{
	const xmlNode *a;
	double max, positive;
	int nonempty;

	fractions(c, q, &max, &positive, &nonempty);
	if (fabs(max - 100) > 0.00001)
		finding(c, "numerical-number", "no answer is worth 100%%");
	for (a = q->children; a; a = a->next) {
		char *v, *tol;

		if (!is(a, "answer"))
			continue;
		v = text_of(a, 1);
		tol = text_of(child(a, "tolerance"), 0);
		if (!is_number(v, 1, 1))
			finding(c, "numerical-number", "answer '%s' is not a number", v);
		if (!is_number(tol, 0, 1))
			finding(c, "numerical-number", "tolerance '%s' is not a number", tol);
		free(v);
		free(tol);
	}
}

static void check_matching(struct ctx *c, const xmlNode *q)
{
	const xmlNode *s;
	int with_text = 0, used = 0;

	for (s = q->children; s; s = s->next) {
		char *t, *a;

		if (!is(s, "subquestion"))
			continue;
		t = text_of(s, 1);
		a = text_of(child(s, "answer"), 1);
		if (t[0] && !a[0])
			finding(c, "matching-answer", "subquestion '%s' has no answer; Moodle's "
				"import stops", t);
		with_text += t[0] != '\0';
		used += t[0] || a[0];
		free(t);
		free(a);
	}
	if (with_text < 2 || used < 3)
		finding(c, "matching-count", "%d subquestions and %d answers; Moodle needs at "
			"least 2 and 3", with_text, used);
}

static void check_essay(struct ctx *c, const xmlNode *q)
{
	static const char *const formats[] = {
		"editor", "editorfilepicker", "plain", "monospaced", "noinline", NULL,
	};
	char *f = text_of(child(q, "responseformat"), 0);
	int i, ok = 0;

	for (i = 0; formats[i]; i++)
		ok |= strcmp(f, formats[i]) == 0;
	if (!ok)
		finding(c, "type", "essay response format '%s' is unknown to Moodle", f);
	free(f);
}

static const struct {
	const char *type;
	void (*check)(struct ctx *c, const xmlNode *q);
} types[] = {
	{ "essay", check_essay },
	{ "matching", check_matching },
	{ "multichoice", check_multichoice },
	{ "numerical", check_numerical },
	{ "shortanswer", check_shortanswer },
	{ "truefalse", check_truefalse },
};

static void check_question(struct ctx *c, const xmlNode *q, int *seen_category)
{
	char *type = prop(q, "type");
	char *name = text_of(child(q, "name"), 1);
	char *qt = text_of(child(q, "questiontext"), 1);
	char *idn = text_of(child(q, "idnumber"), 0);
	char *grade = text_of(child(q, "defaultgrade"), 0);
	char *penalty = text_of(child(q, "penalty"), 0);
	size_t i;

	c->name = name;
	if (strcmp(type, "category") == 0) {
		char *path = text_of(child(q, "category"), 1);

		c->name = path;
		if (strncmp(path, "$course$/", 9) != 0 && strncmp(path, "$system$/", 9) != 0 &&
		    strncmp(path, "$cat$/", 6) != 0 && strncmp(path, "$module$/", 9) != 0)
			finding(c, "category-path", "the path does not start with a context such as "
				"$course$/");
		*seen_category = 1;
		free(path);
		goto done;
	}
	if (!*seen_category)
		finding(c, "category-first", "comes before any category pseudo-question");
	if (!name[0])
		finding(c, "name", "has no name");
	if (!qt[0])
		finding(c, "questiontext", "has no question text");
	if (utf8_chars(idn) > 100)
		finding(c, "idnumber-length", "idnumber of %zu characters (at most 100)",
			utf8_chars(idn));
	if (!is_number(grade, 0, 0))
		finding(c, "defaultgrade", "defaultgrade '%s' is not a number with a '.'", grade);
	if (!is_number(penalty, 0, 0))
		finding(c, "penalty", "penalty '%s' is not a number with a '.'", penalty);
	check_files(c, q);
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (strcmp(type, types[i].type) == 0)
			break;
	if (i == sizeof(types) / sizeof(types[0]))
		finding(c, "type", "type '%s' is not one the exporter writes", type);
	else
		types[i].check(c, q);
done:
	c->name = NULL;
	free(type);
	free(name);
	free(qt);
	free(idn);
	free(grade);
	free(penalty);
}

int moodle_rules_check(const char *path, struct qb_buf *out)
{
	struct ctx c = { out, 0, NULL };
	xmlDocPtr doc = xmlReadFile(path, NULL, XML_PARSE_NONET | XML_PARSE_NOERROR |
				    XML_PARSE_NOWARNING);
	const xmlNode *root, *q;
	int seen_category = 0;

	if (!doc) {
		qb_buf_printf(out, "not-xml: %s is not well-formed XML\n", path);
		return -1;
	}
	root = xmlDocGetRootElement(doc);
	if (!is(root, "quiz")) {
		finding(&c, "root", "the root element is not <quiz>");
	} else {
		for (q = root->children; q; q = q->next) {
			if (is(q, "question"))
				check_question(&c, q, &seen_category);
			else if (q->type == XML_ELEMENT_NODE)
				finding(&c, "root", "unexpected <%s> in <quiz>", (const char *)q->name);
		}
	}
	xmlFreeDoc(doc);
	return c.n;
}
