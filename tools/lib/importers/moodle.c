/* Moodle XML, as Moodle's qformat_xml reads it: <quiz> holding <question
 * type="...">; categories are pseudo-questions whose path ($course$/top/...)
 * sets the category of the questions after them. Read as a stream
 * (xmlTextReader), one <question> expanded at a time and freed before the
 * next, so memory does not grow with the file; with the reader's
 * hardening: no DTD loading, no entity expansion, no network (a DOCTYPE is
 * refused), libxml2's limits on depth and text size kept (no
 * XML_PARSE_HUGE). Texts in Moodle's HTML become the bank's rich text
 * (html_rich.h); embedded <file>s go to the driver's media folder.
 * Fractions are percentages of the mark.
 * The parse and the conversion run on two threads (core/behind.h): the
 * stream's thread expands each <question> and moves its content into a
 * node of its own, which the queue's thread converts and hands to the
 * driver, in order; the node comes back to the stream's thread to be
 * freed, since its strings may be in the parser's dictionary.
 * QBANK_THREADS=1 converts each question where it is read, and so does a
 * machine whose cores are far apart (core/cores.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlreader.h>

#include "../core/arena.h"
#include "../core/array.h"
#include "../core/behind.h"
#include "../core/cores.h"
#include "../xmlnode.h"
#include "html_rich.h"
#include "importers.h"

/* An embedded file of a field: its name in the HTML and its src in the bank. */
struct media {
	const char *name;
	const char *src;
};

struct mxml {
	const struct qb_imp_sink *sink;
	struct qb_arena arena;          /* reset per question */
	char *category;
	struct qb_imp_choice *ch;
	size_t nch, capch;
	const char **ds;
	size_t nds, capds;
	const char **tags;
	size_t ntags, captags;
	struct media *media;    /* the files of the field being read */
	size_t nmedia, capmedia;
	struct qb_imp_html html;
	struct qb_buf bin;      /* a decoded file */
	int no_media;           /* the driver keeps no files */
	int oom;
	int rc;                 /* a media hook's error */
	/* the first error libxml2 reported */
	int err_line;
	char err_msg[200];
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

/* The plain text of element N (<text> inside it, or N itself), trimmed. */
static const char *plain(struct mxml *m, const xmlNode *n)
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
	return trimmed(s);
}

static int b64_value(unsigned char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

/* Decodes base64 S into m->bin (white space skipped); -1 for a character
 * that is not base64. */
static int b64_decode(struct mxml *m, const char *s)
{
	unsigned long acc = 0;
	int bits = 0, v;

	qb_buf_clear(&m->bin);
	if (qb_buf_grow(&m->bin, strlen(s) / 4 * 3 + 3))
		return QB_ENOMEM;
	for (; *s; s++) {
		if (strchr(" \t\r\n", *s))
			continue;
		if (*s == '=')
			break;
		if ((v = b64_value((unsigned char)*s)) < 0)
			return -1;
		acc = (acc << 6 | (unsigned long)v) & 0xFFFFFF;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			m->bin.ptr[m->bin.len++] = (char)(acc >> bits & 0xFF);
		}
	}
	return 0;
}

static int report_at(struct mxml *m, unsigned long line, enum qb_severity sev,
		     enum qb_rule_key rule, const char *name, const char *what)
{
	return qb_imp_report(m->sink, line, sev, rule, NULL, "question '%s': %s", name, what);
}

/* The <file> children of field N, handed to the driver's media folder. */
static int field_files(struct mxml *m, const xmlNode *n, const char *qname)
{
	const xmlNode *f;
	char src[1024], msg[300];
	int rc;

	m->nmedia = 0;
	for (f = n ? n->children : NULL; f; f = f->next) {
		xmlChar *name, *enc, *data;
		struct media md;

		if (f->type != XML_ELEMENT_NODE || strcmp((const char *)f->name, "file") != 0)
			continue;
		name = xmlGetProp(f, BAD_CAST "name");
		enc = xmlGetProp(f, BAD_CAST "encoding");
		data = xmlNodeGetContent((xmlNodePtr)f);
		rc = 0;
		if (!data) {
			rc = QB_ENOMEM;
		} else if (!name || (enc && strcmp((const char *)enc, "base64") != 0) ||
			   (rc = b64_decode(m, (const char *)data)) != 0) {
			if (rc != QB_ENOMEM) {
				snprintf(msg, sizeof(msg), "the embedded file '%.80s' is not %s: left out",
					 name ? (const char *)name : "",
					 !name ? "named" : "base64");
				rc = report_at(m, (unsigned long)xmlGetLineNo(f), QB_SEV_WARNING,
					       QB_RULE_IMPORT_MARKUP_DROPPED, qname, msg);
			}
		} else {
			rc = m->sink->media ? m->sink->media(m->sink->ctx, (unsigned long)xmlGetLineNo(f),
							     (const char *)name, m->bin.ptr, m->bin.len,
							     src, sizeof(src)) : 1;
			if (rc == 0) {
				md.name = keep(m, (const char *)name);
				md.src = keep(m, src);
				if (QB_ARRAY_PUSH(m->media, m->nmedia, m->capmedia, md))
					rc = QB_ENOMEM;
			} else if (rc == 1) {
				m->no_media = 1;   /* the img reports it */
				rc = 0;
			}
		}
		xmlFree(name);
		xmlFree(enc);
		xmlFree(data);
		if (rc)
			return rc;
	}
	return 0;
}

static int hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 :
	       c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* An img src of the HTML: @@PLUGINFILE@@/name (percent-encoded) names a
 * <file> of the same field; nothing else can be kept. */
static const char *map_img(void *ctx, const char *src, const char **why)
{
	struct mxml *m = ctx;
	struct qb_buf name = QB_BUF_INIT;
	const char *found = NULL;
	size_t i;

	if (strncmp(src, "@@PLUGINFILE@@/", 15) != 0) {
		*why = "an address outside the file";
		return NULL;
	}
	for (src += 15; *src && !m->oom; src++) {
		if (*src == '%' && hexval(src[1]) >= 0 && hexval(src[2]) >= 0) {
			m->oom |= qb_buf_addc(&name, (char)(hexval(src[1]) * 16 + hexval(src[2]))) != 0;
			src += 2;
		} else {
			m->oom |= qb_buf_addc(&name, *src) != 0;
		}
	}
	for (i = 0; name.ptr && i < m->nmedia && !found; i++)
		if (strcmp(m->media[i].name, name.ptr) == 0)
			found = m->media[i].src;
	qb_buf_dispose(&name);
	if (!found)
		*why = m->no_media ? "no media folder: give -o or --media" :
		       "no embedded file of that name";
	return found;
}

/* The rich text of field N (<text> inside it, with its <file>s), BLOCK or
 * inline, as the field's format says: html and Moodle's auto-format are
 * HTML; plain text and Markdown are kept as text. */
static const char *field_as(struct mxml *m, const xmlNode *n, int block, const char *qname)
{
	const xmlNode *t = child(n, "text");
	xmlChar *raw, *fmt;
	const char *s;

	if (!n)
		return NULL;
	if ((m->rc = field_files(m, n, qname)) != 0)
		return NULL;
	raw = xmlNodeGetContent(t ? t : n);
	if (!raw) {
		m->oom = 1;
		return NULL;
	}
	fmt = xmlGetProp(n, BAD_CAST "format");
	if (fmt && strcmp((const char *)fmt, "markdown") == 0)
		qb_imp_html_drop(&m->html, "Markdown (kept as plain text)");
	if (fmt && (strcmp((const char *)fmt, "plain_text") == 0 ||
		    strcmp((const char *)fmt, "markdown") == 0))
		s = qb_imp_plain_rich(&m->html, &m->arena, trimmed((char *)raw));
	else
		s = qb_imp_html_rich(&m->html, &m->arena, trimmed((char *)raw), block);
	xmlFree(raw);
	xmlFree(fmt);
	m->nmedia = 0;
	if (!s) {
		m->oom = 1;
		return "";
	}
	return trimmed((char *)s);
}

static const char *field(struct mxml *m, const xmlNode *n, const char *qname)
{
	return field_as(m, n, 1, qname);
}

static const char *inline_field(struct mxml *m, const xmlNode *n, const char *qname)
{
	return field_as(m, n, 0, qname);
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
	return report_at(m, (unsigned long)xmlGetLineNo(q), sev, rule, name, what);
}

static void push(struct mxml *m, struct qb_imp_choice c)
{
	if (QB_ARRAY_PUSH(m->ch, m->nch, m->capch, c))
		m->oom = 1;
}

/* The whole number in element NAME of QN; 0 when absent, empty or not one. */
static unsigned long count_of(const xmlNode *qn, const char *name)
{
	const xmlNode *c = child(qn, name);
	xmlChar *v = c ? xmlNodeGetContent((xmlNodePtr)c) : NULL;
	char *end = NULL;
	unsigned long n = 0;

	if (v && v[0] >= '0' && v[0] <= '9') {
		n = strtoul((const char *)v, &end, 10);
		if (*end && *end != '.' && !strchr(" \t\r\n", *end))
			n = 0;
	}
	xmlFree(v);
	return n;
}

/* 1 when element NAME of QN says false as Moodle's trans_single() reads
 * it ("false", "0" or nothing, trimmed); DFLT when the element is absent. */
static int is_false(const xmlNode *qn, const char *name, int dflt)
{
	const xmlNode *c = child(qn, name);
	xmlChar *v = c ? xmlNodeGetContent((xmlNodePtr)c) : NULL;
	char *t = v ? trimmed((char *)v) : NULL;
	int r = t ? strcmp(t, "false") == 0 || strcmp(t, "0") == 0 || !*t : dflt;

	xmlFree(v);
	return r;
}

/* Tags: <tags><tag><text>x</text></tag>... */
static void read_tags(struct mxml *m, const xmlNode *qn)
{
	const xmlNode *t;

	for (t = child(qn, "tags"); t && (t = t->children) != NULL; t = NULL)
		for (; t; t = t->next)
			if (t->type == XML_ELEMENT_NODE && !strcmp((const char *)t->name, "tag")) {
				const char *v = plain(m, t);

				if (v && *v && QB_ARRAY_PUSH(m->tags, m->ntags, m->captags, v))
					m->oom = 1;
			}
}

/* Essay: the response settings the bank holds (format, lines, word
 * limits) and the grader's information as the rubric; Moodle's other
 * settings are reported. */
static int read_essay(struct mxml *m, const xmlNode *qn, struct qb_imp_question *q)
{
	const xmlNode *c = child(qn, "responseformat");
	xmlChar *f = c ? xmlNodeGetContent((xmlNodePtr)c) : NULL;
	const char *fs = f ? (const char *)f : "editor";
	const char *tmpl;
	int rc = 0;

	q->kind = QB_IMP_ESSAY;
	if (!strcmp(fs, "editor") || !strcmp(fs, "editorfilepicker")) {
		q->response_format = "editor";
	} else if (!strcmp(fs, "plain") || !strcmp(fs, "monospaced")) {
		q->response_format = "plain";
	} else {
		q->response_format = NULL;
		qb_imp_html_drop(&m->html, "the response format 'noinline' (attachments only)");
	}
	if (!strcmp(fs, "monospaced"))
		qb_imp_html_drop(&m->html, "the monospaced response box (a plain one)");
	xmlFree(f);
	q->lines = count_of(qn, "responsefieldlines");
	q->min_words = count_of(qn, "minwordlimit");
	q->max_words = count_of(qn, "maxwordlimit");
	if (q->max_words && q->min_words > q->max_words)
		q->min_words = 0;
	if (count_of(qn, "attachments"))
		qb_imp_html_drop(&m->html, "the essay's attachments");
	q->rubric = field(m, child(qn, "graderinfo"), q->name);
	tmpl = field(m, child(qn, "responsetemplate"), q->name);
	if (tmpl && *tmpl)
		qb_imp_html_drop(&m->html, "the essay's response template");
	return rc;
}

/* Numerical units: the unit of multiplier 1 becomes the answer's unit;
 * other units, and a unit that Moodle grades, change what is marked. */
static int read_units(struct mxml *m, const xmlNode *qn, const char *name, const char **unit)
{
	const xmlNode *u, *units = child(qn, "units");
	char msg[300];
	int rc = 0;

	*unit = NULL;
	for (u = units ? units->children : NULL; !rc && u; u = u->next) {
		const char *un, *mult;

		if (u->type != XML_ELEMENT_NODE || strcmp((const char *)u->name, "unit") != 0)
			continue;
		un = plain(m, child(u, "unit_name"));
		mult = plain(m, child(u, "multiplier"));
		if (!un || !*un)
			continue;
		if (!*unit && (!mult || strtod(mult, NULL) == 1.0)) {
			*unit = un;
			continue;
		}
		snprintf(msg, sizeof(msg), "the unit '%.40s' (multiplier %.20s) is not kept: an answer "
			 "given in it is marked wrong", un, mult ? mult : "?");
		rc = report(m, u, QB_SEV_WARNING, QB_RULE_IMPORT_GRADE_CHANGED, name, msg);
	}
	if (!rc && *unit && count_of(qn, "unitgradingtype") > 0) {
		const char *pen = plain(m, child(qn, "unitpenalty"));

		snprintf(msg, sizeof(msg), "Moodle grades the unit (a penalty of %.20s for a wrong one); "
			 "the bank shows it and does not grade it", pen && *pen ? pen : "?");
		rc = report(m, qn, QB_SEV_WARNING, QB_RULE_IMPORT_GRADE_CHANGED, name, msg);
	}
	return rc;
}

/* A shortanswer pattern as the bank's accepted answer: "\*" is a literal
 * '*'; a bare '*' is Moodle's wildcard, which a bank cannot hold. */
static const char *short_answer(struct mxml *m, const char *s, int *wild)
{
	char *d = keep(m, s), *o = d;

	for (; *s; s++) {
		if (*s == '\\' && s[1] == '*') {
			*o++ = '*';
			s++;
			continue;
		}
		if (*s == '*')
			*wild = 1;
		*o++ = *s;
	}
	*o = '\0';
	return d;
}

static int question(struct mxml *m, const xmlNode *qn)
{
	xmlChar *type = xmlGetProp(qn, (const xmlChar *)"type");
	struct qb_imp_question q;
	const char *t = type ? (const char *)type : "";
	const xmlNode *c;
	char msg[300];
	size_t i, k;
	unsigned mark;
	int rc = 0, changed = 0;

	memset(&q, 0, sizeof(q));
	m->nch = m->nds = m->ntags = m->nmedia = 0;
	qb_imp_html_reset(&m->html);
	q.line = (unsigned long)xmlGetLineNo(qn);
	q.rich = 1;
	if (strcmp(t, "category") == 0) {
		const char *p = plain(m, child(qn, "category"));

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
			if (!rc && m->sink->category) {
				const char *info = field(m, child(qn, "info"), p);

				rc = m->oom ? QB_ENOMEM : m->rc ? m->rc :
				     m->sink->category(m->sink->ctx, p, info);
			}
		}
		goto done;
	}
	q.name = plain(m, child(qn, "name"));
	if (!q.name || !*q.name)
		q.name = "question";
	for (i = 0; i < sizeof(unsupported) / sizeof(unsupported[0]); i++)
		if (strcmp(t, unsupported[i]) == 0)
			break;
	if (i < sizeof(unsupported) / sizeof(unsupported[0]) ||
	    !(strcmp(t, "multichoice") == 0 || strcmp(t, "truefalse") == 0 ||
	      strcmp(t, "shortanswer") == 0 || strcmp(t, "numerical") == 0 ||
	      strcmp(t, "essay") == 0 || strcmp(t, "matching") == 0)) {
		snprintf(msg, sizeof(msg), "type '%.60s' has no equivalent in a bank: left out", t);
		rc = report(m, qn, QB_SEV_WARNING, QB_RULE_IMPORT_UNSUPPORTED_TYPE, q.name, msg);
		goto done;
	}
	q.category = m->category;
	q.idnumber = plain(m, child(qn, "idnumber"));
	q.stem = field(m, child(qn, "questiontext"), q.name);
	q.explanation = field(m, child(qn, "generalfeedback"), q.name);
	if ((c = child(qn, "defaultgrade")) != NULL) {
		xmlChar *g = xmlNodeGetContent((xmlNodePtr)c);

		q.points = g ? strtod((const char *)g, NULL) : 0;
		xmlFree(g);
	}
	read_tags(m, qn);
	/* Moodle's defaults when absent: multichoice false, matching true */
	q.no_shuffle = is_false(qn, "shuffleanswers", strcmp(t, "multichoice") == 0);
	if (strcmp(t, "matching") == 0) {
		q.kind = QB_IMP_MATCHING;
		for (c = qn->children; c; c = c->next)
			if (c->type == XML_ELEMENT_NODE && !strcmp((const char *)c->name, "subquestion")) {
				struct qb_imp_choice ch;

				memset(&ch, 0, sizeof(ch));
				ch.text = inline_field(m, c, q.name);
				/* the answer is shown as HTML (format_string) */
				ch.match = inline_field(m, child(c, "answer"), q.name);
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
		int choice = strcmp(t, "multichoice") == 0;
		int wild = 0, dummy = 0;

		for (c = qn->children; c; c = c->next)
			if (c->type == XML_ELEMENT_NODE && !strcmp((const char *)c->name, "answer")) {
				struct qb_imp_choice ch;
				const xmlNode *tol = child(c, "tolerance");

				memset(&ch, 0, sizeof(ch));
				ch.text = choice ? inline_field(m, c, q.name) : plain(m, c);
				if (ch.text && strcmp(t, "shortanswer") == 0)
					ch.text = short_answer(m, ch.text, fraction(c) > 0 ? &wild : &dummy);
				ch.feedback = field(m, child(c, "feedback"), q.name);
				ch.fraction = fraction(c);
				if (tol) {
					xmlChar *v = xmlNodeGetContent((xmlNodePtr)tol);

					ch.tolerance = v ? fabs(strtod((const char *)v, NULL)) : 0;
					xmlFree(v);
				}
				if (!ch.text)
					ch.text = "";
				push(m, ch);
			}
		if (wild && (rc = report(m, qn, QB_SEV_WARNING, QB_RULE_IMPORT_GRADE_CHANGED, q.name,
					 "an answer uses Moodle's '*' wildcard: the bank accepts the "
					 "'*' literally")))
			goto done;
	}
	if (m->oom || m->rc) {
		rc = m->rc ? m->rc : QB_ENOMEM;
		goto done;
	}
	if (strcmp(t, "essay") == 0) {
		rc = read_essay(m, qn, &q);
		if (rc)
			goto done;
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
		q.kind = is_false(qn, "single", 0) ? QB_IMP_MULTIPLE : QB_IMP_SINGLE;
		mark = qb_imp_choice_marking(q.kind, m->ch, m->nch);
		changed = (mark & QB_IMP_MARK_KEYS) != 0;
		if ((mark & QB_IMP_MARK_WRONG) &&
		    (rc = report(m, qn, QB_SEV_WARNING, QB_RULE_IMPORT_GRADE_CHANGED, q.name,
				 "a wrong answer's fraction is not an equal share of -100% "
				 "(what the bank's multiple-answer marking takes off for "
				 "each wrong option picked)")))
			goto done;
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
			xmlChar *u = xmlNodeGetContent((xmlNodePtr)c);

			q.case_sensitive = u && strcmp((const char *)u, "1") == 0;
			xmlFree(u);
		}
		for (i = 0; i < m->nch; i++) {
			if (m->ch[i].fraction <= 0 && *m->ch[i].text)
				qb_imp_html_drop(&m->html, "answers that earn 0% (they change no mark)");
			if (m->ch[i].feedback && *m->ch[i].feedback)
				qb_imp_html_drop(&m->html, "the answers' feedback (a bank keeps none for "
						 "short or numeric answers)");
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
		if (q.kind == QB_IMP_NUMERIC) {
			if ((rc = read_units(m, qn, q.name, &m->ch[0].unit)) != 0)
				goto done;
		}
	}
	if (q.kind == QB_IMP_MATCHING && m->nch < 2) {
		rc = report(m, qn, QB_SEV_ERROR, QB_RULE_IMPORT_REFUSED, q.name,
			    "fewer than two pairs: left out");
		goto done;
	}
	if (m->html.oom || m->oom) {
		rc = QB_ENOMEM;
		goto done;
	}
	if (m->html.dropped.len) {
		snprintf(msg, sizeof(msg), "not kept (reduced to its text or left out): %.200s%s",
			 m->html.dropped.ptr, m->html.dropped.len > 200 ? "..." : "");
		if ((rc = report(m, qn, QB_SEV_WARNING, QB_RULE_IMPORT_MARKUP_DROPPED, q.name, msg)))
			goto done;
	}
	q.choices = m->ch;
	q.nchoices = m->nch;
	q.distractors = m->ds;
	q.ndistractors = m->nds;
	q.tags = m->tags;
	q.ntags = m->ntags;
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

/* MSG on one line (libxml2's messages may hold newlines), trimmed. */
static void one_line(char *msg)
{
	char *p;

	for (p = msg; *p; p++)
		if (*p == '\n' || *p == '\r' || *p == '\t')
			*p = ' ';
	trimmed(msg);
}

static void on_error(void *ctx, xmlErrorPtr e)
{
	struct mxml *m = ctx;

	if (m->err_msg[0] || !e || e->level < XML_ERR_ERROR)
		return;
	m->err_line = e->line;
	snprintf(m->err_msg, sizeof(m->err_msg), "%s", e->message ? e->message : "parse error");
	one_line(m->err_msg);
}

/* No XML_PARSE_NOENT (no entity expansion), no DTDLOAD, no network, no
 * HUGE (libxml2's limits: 256 levels of nesting, 10 MB in one text node,
 * which bounds an embedded file); big lines for line numbers past 65535. */
#define READ_OPTIONS (XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | \
		      XML_PARSE_BIG_LINES | XML_PARSE_NOCDATA)

/* Questions go to the conversion 16 at a time (a wake-up of its thread
 * per batch, not per question); at most 4 batches, and about 4 MB of
 * source, are read ahead of it. */
#define BATCH 16
#define AHEAD_BATCHES 4
#define AHEAD_BYTES (4u << 20)

/* Detached questions (qb_xml_detach) on their way to the conversion. */
struct batch {
	size_t n;
	xmlNodePtr q[BATCH];
};

/* The queue's function: a batch of detached questions, in order. */
static int convert(void *ctx, const void *block, size_t len, struct qb_error *err)
{
	const struct batch *b = block;
	size_t i;
	int rc = 0;

	(void)len;
	(void)err;   /* the code is enough: read_stream words the error */
	for (i = 0; i < b->n && !rc; i++)
		rc = question(ctx, b->q[i]);
	return rc;
}

static void release(void *ctx, void *block)
{
	struct batch *b = block;
	size_t i;

	(void)ctx;
	for (i = 0; i < b->n; i++)
		xmlFreeNode(b->q[i]);
	free(b);
}

/* The batch being filled, its source bytes, and the queue. */
struct ahead {
	struct qb_behind *q;
	struct batch *b;
	size_t bytes;
};

/* Sends the batch being filled, if any, to the conversion. */
static int flush(struct ahead *a)
{
	struct qb_error qerr;
	struct batch *b = a->b;

	if (!b)
		return 0;
	a->b = NULL;
	return qb_behind_push(a->q, b, a->bytes, &qerr);
}

/* Hands QN (BYTES of source) to the conversion: into the batch, or
 * converted here when there is no queue. */
static int hand_over(struct mxml *m, struct ahead *a, xmlNodePtr qn, size_t bytes)
{
	if (!a->q)
		return question(m, qn);
	if (!a->b) {
		a->b = malloc(sizeof(*a->b));
		if (!a->b)
			return QB_ENOMEM;
		a->b->n = 0;
		a->bytes = 0;
	}
	if (!(a->b->q[a->b->n] = qb_xml_detach(qn)))
		return QB_ENOMEM;
	a->b->n++;
	a->bytes += bytes;
	return a->b->n == BATCH ? flush(a) : 0;
}

/* The stream: each <question> below <quiz> is expanded and handed over,
 * then passed over (the reader frees what it passed). */
static int read_stream(xmlTextReaderPtr r, const struct qb_imp_sink *sink, struct qb_error *err)
{
	struct mxml m;
	struct ahead a = { NULL, NULL, 0 };
	struct qb_error qerr;
	long at = 0;
	int ret, rc = 0, refused = 0;

	memset(&m, 0, sizeof(m));
	m.sink = sink;
	m.html.img = map_img;
	m.html.img_ctx = &m;
	if (!r) {
		qb_error_set(err, QB_ENOMEM, "%s: out of memory", sink->path);
		return QB_ENOMEM;
	}
	/* where the cores are far, moving each question's nodes to the
	 * other one costs more than the conversion it takes over */
	if (qb_cores_near()) {
		if (qb_behind_open(&a.q, convert, &m, AHEAD_BATCHES, AHEAD_BYTES) != 0) {
			xmlFreeTextReader(r);
			qb_error_set(err, QB_ENOMEM, "%s: out of memory", sink->path);
			return QB_ENOMEM;
		}
		qb_behind_on_release(a.q, release);
	}
	xmlTextReaderSetStructuredErrorHandler(r, on_error, &m);
	ret = xmlTextReaderRead(r);
	while (ret == 1 && !rc) {
		int type = xmlTextReaderNodeType(r), depth = xmlTextReaderDepth(r);
		const char *name = (const char *)xmlTextReaderConstLocalName(r);

		if (type == XML_READER_TYPE_DOCUMENT_TYPE) {
			rc = qb_imp_report(sink, (unsigned long)xmlTextReaderGetParserLineNumber(r),
					   QB_SEV_ERROR, QB_RULE_IMPORT_REFUSED, NULL,
					   "the file has a DOCTYPE (Moodle XML takes no DTD and no "
					   "entities): nothing imported");
			refused = 1;
			break;
		}
		if (type == XML_READER_TYPE_ELEMENT && depth == 0 && strcmp(name, "quiz") != 0) {
			rc = qb_imp_report(sink, (unsigned long)xmlTextReaderGetParserLineNumber(r),
					   QB_SEV_ERROR, QB_RULE_IMPORT_REFUSED, NULL,
					   "the root element is <%.40s>, not Moodle XML's <quiz>: "
					   "nothing imported", name);
			refused = 1;
			break;
		}
		if (type == XML_READER_TYPE_ELEMENT && depth == 1 && strcmp(name, "question") == 0) {
			xmlNodePtr qn = xmlTextReaderExpand(r);
			long now = xmlTextReaderByteConsumed(r);

			if (!qn) {
				ret = -1;   /* the parser's error (a limit, a syntax error) */
				break;
			}
			rc = hand_over(&m, &a, qn, now > at ? (size_t)(now - at) : 1);
			at = now;
			ret = xmlTextReaderNext(r);
			continue;
		}
		ret = xmlTextReaderRead(r);
	}
	if (a.q) {
		/* the questions read so far reach the driver before what follows */
		int qrc = rc ? 0 : flush(&a);

		if (!qrc)
			qrc = qb_behind_drain(a.q, &qerr);
		if (!rc)
			rc = qrc;
	}
	if (!rc && !refused && ret < 0) {
		const xmlError *e = m.err_msg[0] ? NULL : xmlGetLastError();

		if (!m.err_msg[0] && e && e->message) {
			snprintf(m.err_msg, sizeof(m.err_msg), "%s", e->message);
			one_line(m.err_msg);
			m.err_line = e->line;
		}
		rc = qb_imp_report(sink, m.err_line > 0 ? (unsigned long)m.err_line : 1, QB_SEV_ERROR,
				   QB_RULE_IMPORT_REFUSED, NULL,
				   "not well-formed XML or over libxml2's limits (%s): nothing from "
				   "here on imported", m.err_msg[0] ? m.err_msg : "parse error");
	}
	if (a.b)
		release(NULL, a.b);   /* a batch never sent (an error came first) */
	qb_behind_close(a.q);   /* frees the nodes still queued: before their document */
	xmlFreeTextReader(r);
	qb_arena_dispose(&m.arena);
	free(m.category);
	qb_imp_html_dispose(&m.html);
	qb_buf_dispose(&m.bin);
	qb_array_free(m.ch, m.capch, sizeof(*m.ch), 0);
	qb_array_free(m.ds, m.capds, sizeof(*m.ds), 0);
	qb_array_free(m.tags, m.captags, sizeof(*m.tags), 0);
	qb_array_free(m.media, m.capmedia, sizeof(*m.media), 0);
	if (rc == QB_ENOMEM)
		qb_error_set(err, rc, "%s: out of memory", sink->path);
	return rc;
}

int qb_imp_moodle_read(const char *data, size_t len, const struct qb_imp_sink *sink,
		       struct qb_error *err)
{
	if (len > (size_t)INT32_MAX)
		return qb_imp_report(sink, 0, QB_SEV_ERROR, QB_RULE_IMPORT_REFUSED, NULL,
				     "the file is larger than 2 GiB: nothing imported");
	return read_stream(xmlReaderForMemory(data, (int)len, NULL, NULL, READ_OPTIONS), sink, err);
}

/* libxml2 asks an fd for 4,096 bytes at a time; through a buffer of
 * IO_BUFFER bytes the file is read(2) 256 KB a call (a 284 MB file: 1,100
 * reads instead of 69,000). The fd stays the caller's. */
#define IO_BUFFER (256u << 10)

struct io {
	int fd;
	size_t at, len;
	char buf[IO_BUFFER];
};

static int io_read(void *ctx, char *buf, int len)
{
	struct io *io = ctx;
	size_t n;

	if (io->at == io->len) {
		ssize_t got;

		do
			got = read(io->fd, io->buf, sizeof(io->buf));
		while (got < 0 && errno == EINTR);
		if (got <= 0)
			return got < 0 ? -1 : 0;
		io->at = 0;
		io->len = (size_t)got;
	}
	n = io->len - io->at < (size_t)len ? io->len - io->at : (size_t)len;
	memcpy(buf, io->buf + io->at, n);
	io->at += n;
	return (int)n;
}

static int io_close(void *ctx)
{
	free(ctx);
	return 0;
}

int qb_imp_moodle_read_fd(int fd, const struct qb_imp_sink *sink, struct qb_error *err)
{
	struct io *io = malloc(sizeof(*io));

	if (!io) {
		qb_error_set(err, QB_ENOMEM, "%s: out of memory", sink->path);
		return QB_ENOMEM;
	}
	io->fd = fd;
	io->at = io->len = 0;
	/* libxml2 calls io_close, also when it cannot make the reader */
	return read_stream(xmlReaderForIO(io_read, io_close, io, NULL, NULL, READ_OPTIONS), sink,
			   err);
}
