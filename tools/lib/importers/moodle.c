/* Moodle XML, as Moodle's qformat_xml reads it: <quiz> holding <question
 * type="...">; categories are pseudo-questions whose path ($course$/top/...)
 * sets the category of the questions after them. Read with the reader's
 * hardening: no DTD loading, no entity expansion, no network (a DOCTYPE is
 * refused). Texts in Moodle's HTML are read with libxml2's HTML parser and
 * kept as their text; markup beyond paragraphs and line breaks is reported
 * (import-markup-dropped). Fractions are percentages of the mark. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/HTMLparser.h>
#include <libxml/parser.h>
#include <libxml/tree.h>

#include "../core/arena.h"
#include "../core/array.h"
#include "importers.h"

struct mxml {
	const struct qb_imp_sink *sink;
	struct qb_arena arena;          /* reset per question */
	char *category;
	struct qb_imp_choice *ch;
	size_t nch, capch;
	const char **ds;
	size_t nds, capds;
	int dropped;
	int oom;
};

static const char *const unsupported[] = {
	"calculated", "calculatedmulti", "calculatedsimple", "cloze", "ddimageortext",
	"ddmarker", "ddwtos", "description", "gapselect", "multianswer", "ordering",
	"random", "randomsamatch",
};

static xmlNode *child(const xmlNode *n, const char *name)
{
	xmlNode *c;

	for (c = n ? n->children : NULL; c; c = c->next)
		if (c->type == XML_ELEMENT_NODE && strcmp((const char *)c->name, name) == 0)
			return c;
	return NULL;
}

static char *keep(struct mxml *m, const char *s)
{
	char *d = qb_arena_strndup(&m->arena, s, strlen(s));

	if (!d)
		m->oom = 1;
	return d ? d : (char *)"";
}

static char *trimmed(char *s)
{
	size_t n;

	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r'))
		s[--n] = '\0';
	return s;
}

/* 1 when the HTML tree below N holds an element that is not a paragraph,
 * a line break or a plain div/span. */
static int has_markup(const xmlNode *n)
{
	static const char *const plain[] = { "p", "br", "div", "span", "html", "body" };
	const xmlNode *c;
	size_t i;

	for (c = n; c; c = c->next) {
		if (c->type == XML_ELEMENT_NODE) {
			for (i = 0; i < sizeof(plain) / sizeof(plain[0]); i++)
				if (strcmp((const char *)c->name, plain[i]) == 0)
					break;
			if (i == sizeof(plain) / sizeof(plain[0]) || c->properties)
				return 1;
		}
		if (c->children && has_markup(c->children))
			return 1;
	}
	return 0;
}

/* The text of field N (<text> inside it, or N itself), HTML reduced to text. */
static const char *field(struct mxml *m, const xmlNode *n)
{
	const xmlNode *t = child(n, "text");
	xmlChar *raw;
	char *s;

	if (!n)
		return NULL;
	raw = xmlNodeGetContent(t ? t : n);
	if (!raw)
		return NULL;
	s = keep(m, (const char *)raw);
	xmlFree(raw);
	if (strchr(s, '<') || strchr(s, '&')) {
		htmlDocPtr doc = htmlReadMemory(s, (int)strlen(s), NULL, "UTF-8",
						HTML_PARSE_NONET | HTML_PARSE_NOERROR |
						HTML_PARSE_NOWARNING | HTML_PARSE_NOIMPLIED);
		xmlChar *c = doc ? xmlNodeGetContent((xmlNodePtr)doc) : NULL;

		if (doc && has_markup(doc->children))
			m->dropped = 1;
		if (c) {
			s = keep(m, (const char *)c);
			xmlFree(c);
		}
		xmlFreeDoc(doc);
	}
	return trimmed(s);
}

static double fraction(const xmlNode *a)
{
	xmlChar *f = xmlGetProp(a, (const xmlChar *)"fraction");
	double v = f ? strtod((const char *)f, NULL) / 100.0 : 0;

	xmlFree(f);
	return v;
}

static int report(struct mxml *m, const xmlNode *q, enum qb_severity sev, enum qb_rule_key rule,
		  const char *name, const char *what)
{
	return qb_imp_report(m->sink, (unsigned long)xmlGetLineNo(q), sev, rule, NULL,
			     "question '%s': %s", name, what);
}

static void push(struct mxml *m, struct qb_imp_choice c)
{
	if (QB_ARRAY_PUSH(m->ch, m->nch, m->capch, c))
		m->oom = 1;
}

static int question(struct mxml *m, const xmlNode *qn)
{
	xmlChar *type = xmlGetProp(qn, (const xmlChar *)"type");
	struct qb_imp_question q;
	const char *t = type ? (const char *)type : "";
	const xmlNode *c;
	char msg[256];
	size_t i, k, ncorrect = 0;
	double share = 0;
	int rc = 0, changed = 0;

	memset(&q, 0, sizeof(q));
	m->nch = m->nds = 0;
	m->dropped = 0;
	q.line = (unsigned long)xmlGetLineNo(qn);
	if (strcmp(t, "category") == 0) {
		const char *p = field(m, child(qn, "category"));

		if (p) {
			if (strncmp(p, "$course$/", 9) == 0 || strncmp(p, "$system$/", 9) == 0)
				p += 9;
			else if (strncmp(p, "$cat$/", 6) == 0)
				p += 6;
			if (strncmp(p, "top/", 4) == 0)
				p += 4;
			else if (strcmp(p, "top") == 0)
				p += 3;
			free(m->category);
			m->category = strdup(p);
			rc = m->category ? 0 : QB_ENOMEM;
		}
		goto done;
	}
	q.name = field(m, child(qn, "name"));
	if (!q.name || !*q.name)
		q.name = "question";
	for (i = 0; i < sizeof(unsupported) / sizeof(unsupported[0]); i++)
		if (strcmp(t, unsupported[i]) == 0)
			break;
	if (i < sizeof(unsupported) / sizeof(unsupported[0]) ||
	    !(strcmp(t, "multichoice") == 0 || strcmp(t, "truefalse") == 0 ||
	      strcmp(t, "shortanswer") == 0 || strcmp(t, "numerical") == 0 ||
	      strcmp(t, "essay") == 0 || strcmp(t, "matching") == 0)) {
		snprintf(msg, sizeof(msg), "type '%s' has no equivalent in a bank: left out", t);
		rc = report(m, qn, QB_SEV_WARNING, QB_RULE_IMPORT_UNSUPPORTED_TYPE, q.name, msg);
		goto done;
	}
	q.category = m->category;
	q.idnumber = field(m, child(qn, "idnumber"));
	q.stem = field(m, child(qn, "questiontext"));
	q.explanation = field(m, child(qn, "generalfeedback"));
	if ((c = child(qn, "defaultgrade")) != NULL) {
		xmlChar *g = xmlNodeGetContent(c);

		q.points = g ? strtod((const char *)g, NULL) : 0;
		xmlFree(g);
	}
	if (strcmp(t, "matching") == 0) {
		q.kind = QB_IMP_MATCHING;
		for (c = qn->children; c; c = c->next)
			if (c->type == XML_ELEMENT_NODE && !strcmp((const char *)c->name, "subquestion")) {
				struct qb_imp_choice ch;

				memset(&ch, 0, sizeof(ch));
				ch.text = field(m, c);
				ch.match = field(m, child(c, "answer"));
				if (!ch.match)
					ch.match = "";
				if (!ch.text || !*ch.text) {
					if (QB_ARRAY_PUSH(m->ds, m->nds, m->capds, ch.match))
						m->oom = 1;
				} else {
					push(m, ch);
				}
			}
	} else {
		for (c = qn->children; c; c = c->next)
			if (c->type == XML_ELEMENT_NODE && !strcmp((const char *)c->name, "answer")) {
				struct qb_imp_choice ch;
				const xmlNode *tol = child(c, "tolerance");

				memset(&ch, 0, sizeof(ch));
				ch.text = field(m, c);
				ch.feedback = field(m, child(c, "feedback"));
				ch.fraction = fraction(c);
				if (tol) {
					xmlChar *v = xmlNodeGetContent(tol);

					ch.tolerance = v ? fabs(strtod((const char *)v, NULL)) : 0;
					xmlFree(v);
				}
				push(m, ch);
			}
	}
	if (m->oom) {
		rc = QB_ENOMEM;
		goto done;
	}
	if (strcmp(t, "essay") == 0) {
		q.kind = QB_IMP_ESSAY;
	} else if (strcmp(t, "truefalse") == 0) {
		q.kind = QB_IMP_TRUEFALSE;
		for (i = 0; i < m->nch; i++) {
			int is_true = strcmp(m->ch[i].text, "true") == 0;

			if (m->ch[i].fraction > 0.999)
				q.truth = is_true;
			if (is_true)
				q.true_feedback = m->ch[i].feedback;
			else
				q.false_feedback = m->ch[i].feedback;
		}
		m->nch = 0;
	} else if (strcmp(t, "multichoice") == 0) {
		const xmlNode *single = child(qn, "single");
		xmlChar *sv = single ? xmlNodeGetContent(single) : NULL;

		q.kind = sv && (strcmp((const char *)sv, "false") == 0 || strcmp((const char *)sv, "0") == 0)
			 ? QB_IMP_MULTIPLE : QB_IMP_SINGLE;
		xmlFree(sv);
		for (i = 0; i < m->nch; i++)
			if (m->ch[i].fraction > 0) {
				if (ncorrect && fabs(m->ch[i].fraction - share) > 1e-5)
					changed = 1;
				share = m->ch[i].fraction;
				ncorrect++;
			}
		if (q.kind == QB_IMP_SINGLE) {
			for (i = 0; i < m->nch; i++)
				if (m->ch[i].fraction > 0 && fabs(m->ch[i].fraction - 1) > 1e-5) {
					m->ch[i].fraction = 0;
					changed = 1;
				}
		} else if (ncorrect && fabs(share * (double)ncorrect - 1) > 1e-4) {
			changed = 1;
		}
		if (changed && (rc = report(m, qn, QB_SEV_WARNING, QB_RULE_IMPORT_GRADE_CHANGED, q.name,
			q.kind == QB_IMP_SINGLE ?
			"the answers' fractions are not what a bank can express (one key at 100%): "
			"the bank marks it with its 100% answers as keys" :
			"the answers' fractions are not what a bank can express (equal shares of "
			"100%): the bank marks it with its positive answers as keys")))
			goto done;
		if (m->nch < 2) {
			rc = report(m, qn, QB_SEV_ERROR, QB_RULE_IMPORT_REFUSED, q.name,
				    "fewer than two answers: left out");
			goto done;
		}
	} else if (q.kind == QB_IMP_MATCHING) {
		/* the pairs are read above */
	} else {
		q.kind = strcmp(t, "shortanswer") == 0 ? QB_IMP_SHORT : QB_IMP_NUMERIC;
		if (q.kind == QB_IMP_SHORT && (c = child(qn, "usecase")) != NULL) {
			xmlChar *u = xmlNodeGetContent(c);

			q.case_sensitive = u && strcmp((const char *)u, "1") == 0;
			xmlFree(u);
		}
		for (i = k = 0; i < m->nch; i++) {
			if (fabs(m->ch[i].fraction - 1) < 1e-5 && (q.kind == QB_IMP_SHORT || k == 0)) {
				m->ch[k++] = m->ch[i];
				continue;
			}
			if (m->ch[i].fraction > 0) {
				snprintf(msg, sizeof(msg), "the answer '%.60s' earns %.7g%% in Moodle; the "
					 "bank %s: left out", m->ch[i].text, m->ch[i].fraction * 100,
					 q.kind == QB_IMP_SHORT ? "accepts an answer at full marks or not at all" :
					 "takes one numeric answer");
				if ((rc = report(m, qn, QB_SEV_WARNING, QB_RULE_IMPORT_GRADE_CHANGED, q.name,
						 msg)))
					goto done;
			}
		}
		m->nch = k;
		if (!k) {
			rc = report(m, qn, QB_SEV_ERROR, QB_RULE_IMPORT_REFUSED, q.name,
				    "no answer earns full marks: left out");
			goto done;
		}
	}
	if (q.kind == QB_IMP_MATCHING && m->nch < 2) {
		rc = report(m, qn, QB_SEV_ERROR, QB_RULE_IMPORT_REFUSED, q.name,
			    "fewer than two pairs: left out");
		goto done;
	}
	if (m->dropped && (rc = report(m, qn, QB_SEV_WARNING, QB_RULE_IMPORT_MARKUP_DROPPED, q.name,
				       "HTML markup reduced to its text")))
		goto done;
	q.choices = m->ch;
	q.nchoices = m->nch;
	q.distractors = m->ds;
	q.ndistractors = m->nds;
	rc = m->sink->question(m->sink->ctx, &q);
done:
	xmlFree(type);
	qb_arena_reset(&m->arena);
	return rc;
}

int qb_imp_moodle_detect(const char *data, size_t len)
{
	size_t n = len < 4096 ? len : 4096;
	const char *p;

	for (p = data; p + 5 <= data + n; p++)
		if (memcmp(p, "<quiz", 5) == 0)
			return 1;
	return 0;
}

int qb_imp_moodle_read(const char *data, size_t len, const struct qb_imp_sink *sink,
		       struct qb_error *err)
{
	struct mxml m;
	xmlDocPtr doc;
	xmlNode *root, *c;
	int rc = 0;

	(void)err;
	if (len > (size_t)INT32_MAX)
		return qb_imp_report(sink, 0, QB_SEV_ERROR, QB_RULE_IMPORT_REFUSED, NULL,
				     "the file is larger than 2 GiB: nothing imported");
	/* no XML_PARSE_NOENT (no entity expansion), no DTDLOAD, no network */
	doc = xmlReadMemory(data, (int)len, NULL, NULL, XML_PARSE_NONET | XML_PARSE_NOERROR |
			    XML_PARSE_NOWARNING);
	if (!doc) {
		const xmlError *e = xmlGetLastError();

		return qb_imp_report(sink, e ? (unsigned long)e->line : 0, QB_SEV_ERROR,
				     QB_RULE_IMPORT_REFUSED, NULL,
				     "not well-formed XML (%s): nothing imported",
				     e && e->message ? trimmed(e->message) : "parse error");
	}
	if (doc->intSubset || doc->extSubset) {
		xmlFreeDoc(doc);
		return qb_imp_report(sink, 1, QB_SEV_ERROR, QB_RULE_IMPORT_REFUSED, NULL,
				     "the file has a DOCTYPE (Moodle XML takes no DTD and no "
				     "entities): nothing imported");
	}
	memset(&m, 0, sizeof(m));
	m.sink = sink;
	root = xmlDocGetRootElement(doc);
	for (c = root ? root->children : NULL; !rc && c; c = c->next)
		if (c->type == XML_ELEMENT_NODE && strcmp((const char *)c->name, "question") == 0)
			rc = question(&m, c);
	xmlFreeDoc(doc);
	qb_arena_dispose(&m.arena);
	free(m.category);
	qb_array_free(m.ch, m.capch, sizeof(*m.ch), 0);
	qb_array_free(m.ds, m.capds, sizeof(*m.ds), 0);
	if (rc == QB_ENOMEM)
		qb_error_set(err, rc, "%s: out of memory", sink->path);
	return rc;
}
