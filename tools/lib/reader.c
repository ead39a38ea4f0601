#include "reader.h"
#include "reader_hold.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include <libxml/xmlreader.h>

#include "core/arena.h"
#include "core/array.h"
#include "core/buf.h"
#include "limits.h"
#include "text.h"
#include "xmlnode.h"

/* Parser hardening: no network, no DTD loading, no entity substitution
 * (external entities are never fetched or expanded), CDATA merged into
 * text, line numbers beyond 65535 kept. */
#define READER_OPTIONS (XML_PARSE_NONET | XML_PARSE_NOCDATA | XML_PARSE_BIG_LINES)

struct pending {
	enum qb_rule_key rule;
	unsigned long line;
	char *msg;
};

struct category {
	char *name;
	unsigned long line;
};

/* The storage of one question's strings, arrays and pragmas. The reader
 * builds each question in its own set (qb_reader.w); a reader that holds
 * questions (reader_hold.h) trades it for a free slot's when it hands the
 * question out. */
struct qbufs {
	struct qb_arena arena;      /* reset, not freed, between questions */
	struct qb_option *opts_v;   size_t capopts;
	struct qb_answer *ans_v;    size_t capans;
	struct qb_side_rationale *side_v; size_t capside;
	struct qb_pair *pairs_v;    size_t cappairs;
	struct qb_distractor *dis_v; size_t capdis;
	const char **tags_v;        size_t captags;
	const char **catnames;      size_t capcatnames;  /* copies of the category names */
	struct qb_pragma *pragmas;  size_t npragmas, cappragmas;
	char **pragma_text;         size_t cappragma_text;  /* owned copies, same index as pragmas */
};

/* One question held (reader_hold.h): its storage, and its XML subtree
 * detached from the reader's document so that the parser can move on
 * while the question is still in use. */
struct slot {
	struct qb_question q;
	struct qbufs b;
	xmlNodePtr holder;         /* <question> with the question's children and attributes */
	int busy;
};

struct qb_reader {
	xmlTextReaderPtr xr;
	char *path;
	struct qb_reader_opts opts;
	unsigned long long size;

	struct qb_bank_info bank;
	char *bank_id, *bank_lang, *bank_title;
	xmlDocPtr keep;            /* owns the copied bank description */

	struct category *cats;
	size_t ncats, capcats;
	size_t category_serial;

	struct qb_question q;
	struct qbufs w;            /* the question being built */
	struct qb_pragma *fpragmas; size_t nfpragmas, capfpragmas;

	/* libxml2 reports errors as it parses, which runs ahead of the node the
	 * reader is on; errors wait here until the question whose lines they
	 * fall in has been read, so that they can name it. */
	struct pending *pend;
	size_t npend, cappend;
	int fatal;
	int done;
	int over_limit;            /* the current question broke a limit (limits.h) */
	int foreign_root;          /* the root element is not <bank> */
	int advance_with_next;     /* the current node's subtree was consumed */

	int started;               /* qb_reader_next has been called */
	struct slot *slots;        /* held questions (reader_hold.h); NULL: one at a time */
	size_t nslots;

	const char *mem;           /* qb_reader_open_memory: the bank's size bytes, or NULL */
};

/* ---- small helpers -------------------------------------------------- */

/* strcmp's "the same name", the first byte asked first: most of the
 * names a child is compared with differ there. */
static int name_is(const char *a, const char *b)
{
	return a[0] == b[0] && strcmp(a, b) == 0;
}

static int is_el(const xmlNode *n, const char *name)
{
	return n->type == XML_ELEMENT_NODE && name_is((const char *)n->name, name);
}

static int parse_bool(const char *s, int dflt)
{
	size_t n;

	if (!s)
		return dflt;
	s = qb_text_trim(s, &n);
	if ((n == 4 && memcmp(s, "true", 4) == 0) || (n == 1 && *s == '1'))
		return 1;
	if ((n == 5 && memcmp(s, "false", 5) == 0) || (n == 1 && *s == '0'))
		return 0;
	return dflt;
}

static unsigned long text_big_line(const xmlNode *t)
{
	if (t && t->type == XML_TEXT_NODE && t->line == 65535 && t->psvi)
		return (unsigned long)(ptrdiff_t)t->psvi;
	return 0;
}

static unsigned long count_newlines(const xmlChar *s)
{
	unsigned long n = 0;

	for (; s && *s; s++)
		n += *s == '\n';
	return n;
}

/* libxml2 keeps exact lines in element nodes only up to 65535; beyond, with
 * XML_PARSE_BIG_LINES, text nodes carry the line where they end (in psvi)
 * and xmlGetLineNo() guesses an element's line from its neighbours, often
 * one too far. The white space before an element ends on the element's
 * line; the text after a start tag ends its newline count after it. */
static unsigned long line_of(const xmlNode *n)
{
	unsigned long l;
	long g;

	if (n->line < 65535)
		return n->line;
	if ((l = text_big_line(n->prev)) != 0)
		return l;
	if (n->children && (l = text_big_line(n->children)) != 0) {
		unsigned long nl = count_newlines(n->children->content);

		return l > nl ? l - nl : l;
	}
	g = xmlGetLineNo((xmlNodePtr)n);
	return g > 0 ? (unsigned long)g : 0;
}

/* The line of the reader's current node, or FALLBACK. */
static unsigned long line_of_reader_node(struct qb_reader *r, unsigned long fallback)
{
	xmlNodePtr n = xmlTextReaderCurrentNode(r->xr);
	unsigned long l = n ? line_of(n) : 0;

	return l ? l : fallback;
}

/* The last line of an expanded element: its last child is normally the
 * white space before the end tag, which ends on the end tag's line. */
static unsigned long last_line(const xmlNode *n)
{
	const xmlNode *c = n->last;

	if (!c)
		return line_of(n);
	if (c->type == XML_TEXT_NODE) {
		unsigned long l = text_big_line(c);

		return l ? l : c->line;
	}
	return c->type == XML_ELEMENT_NODE ? last_line(c) + 1 : line_of(n);
}

static int advance(struct qb_reader *r)
{
	int ret;

	if (r->advance_with_next) {
		r->advance_with_next = 0;
		ret = xmlTextReaderNext(r->xr);
	} else {
		ret = xmlTextReaderRead(r->xr);
	}
	return ret;
}

/* Trimmed text content of a plain-text element, in the arena. */
static const char *plain(struct qb_reader *r, const xmlNode *n)
{
	struct qb_buf b = QB_BUF_INIT;
	const char *s;
	size_t len;
	char *out;

	if (n->children && n->children->type == XML_TEXT_NODE && !n->children->next) {
		s = qb_text_trim((const char *)n->children->content, &len);
		return qb_arena_strndup(&r->w.arena, s, len);
	}
	if (qb_text_plain(&b, n) != 0) {
		qb_buf_dispose(&b);
		return NULL;
	}
	s = qb_text_trim(b.len ? b.ptr : "", &len);
	out = qb_arena_strndup(&r->w.arena, s, len);
	qb_buf_dispose(&b);
	return out;
}

static const char *letter_id(struct qb_reader *r, size_t i)
{
	char tmp[16];
	size_t n = 0, k;
	char out[16];

	/* bijective base 26: 0 -> A, 25 -> Z, 26 -> AA */
	i++;
	while (i > 0 && n < sizeof(tmp)) {
		i--;
		tmp[n++] = (char)('A' + i % 26);
		i /= 26;
	}
	for (k = 0; k < n; k++)
		out[k] = tmp[n - 1 - k];
	return qb_arena_strndup(&r->w.arena, out, n);
}

/* ---- errors --------------------------------------------------------- */

/* libxml2 messages that name its own options or say nothing to an author,
 * by the start of the message; the rest of the message is dropped. */
static const struct {
	const char *starts;
	const char *says;
} xml_rewrites[] = {
	{ "Excessive depth in document",
	  "elements are nested more than 256 levels deep, the parser's limit (README \"Limits\")" },
	{ "Input is not proper UTF-8",
	  "the file is not valid UTF-8 (README \"Limits\": bank files are UTF-8); "
	  "the bytes in question are" },
	{ "xmlSAX2Characters: huge text node",
	  "a text is longer than 10,000,000 bytes, the parser's limit (README \"Limits\")" },
};

/* Copies a libxml2 message into MSG (size CAP) as one line: a rewrite from
 * the table when there is one, newlines folded into spaces, and cut on a
 * character boundary (an oversized value quoted by the validator must not
 * leave half a UTF-8 sequence in JSON or SARIF output). */
static void clean_message(char *msg, size_t cap, const char *m)
{
	size_t i, n;

	for (i = 0; i < sizeof(xml_rewrites) / sizeof(xml_rewrites[0]); i++) {
		size_t k = strlen(xml_rewrites[i].starts);

		if (strncmp(m, xml_rewrites[i].starts, k) == 0) {
			const char *bytes = strstr(m, "Bytes:");

			if (bytes)
				for (bytes += 6; *bytes == ' '; bytes++)
					;
			snprintf(msg, cap, "%s%s%s", xml_rewrites[i].says, bytes ? " " : "",
				 bytes ? bytes : "");
			m = NULL;
			break;
		}
	}
	if (m) {
		n = strlen(m);
		if (n >= cap) {
			/* "..." and a character boundary */
			n = cap - 4;
			while (n > 0 && ((unsigned char)m[n] & 0xC0) == 0x80)
				n--;
			memcpy(msg, m, n);
			memcpy(msg + n, "...", 4);
		} else {
			memcpy(msg, m, n + 1);
		}
	}
	for (i = 0; msg[i]; i++)
		if (msg[i] == '\n' || msg[i] == '\r' || msg[i] == '\t')
			msg[i] = ' ';
	n = strlen(msg);
	while (n > 0 && msg[n - 1] == ' ')
		msg[--n] = '\0';
}

/* The fix for the syntax errors authors make most, by the start of
 * libxml2's message: a bare '&' or '<' in text (formulas, "R&D", "a < b",
 * inside <math> as well). */
static const struct {
	const char *prefix;
	const char *hint;
} syntax_hints[] = {
	{ "xmlParseEntityRef: no name", "a bare '&' in text: write &amp;" },
	{ "EntityRef: expecting ';'", "an '&' that starts no entity (R&D): write &amp; (R&amp;D)" },
	{ "StartTag: invalid element name", "a bare '<' in text (a < b): write &lt; (a &lt; b)" },
	{ "Unescaped '<' not allowed in attributes", "write &lt; for '<' in an attribute value" },
};

/* 1 when E is the parser's "Input is not proper UTF-8": bytes of another
 * encoding in a file read as UTF-8, reported as xml-encoding. */
static int is_bad_utf8(const xmlError *e)
{
	return e->domain == XML_FROM_PARSER && e->message &&
	       strncmp(e->message, "Input is not proper UTF-8", 25) == 0;
}

/* Files that are not qbank banks, by their root element: the finding says
 * what the file is instead of what the schema expected. */
static const struct {
	const char *root;
	const char *what;
} foreign_roots[] = {
	{ "quiz", "a Moodle XML file (<quiz>)" },
	{ "questestinterop", "a QTI 1.2 file (<questestinterop>)" },
	{ "assessmentItem", "a QTI 2.x item (<assessmentItem>)" },
	{ "assessmentTest", "a QTI 2.x test (<assessmentTest>)" },
	{ "html", "an HTML page (<html>)" },
};

/* For the schema's "no matching global declaration" on the root: one
 * message that names what the file is. Replaces MSG. */
static void foreign_root(char *msg, size_t cap, const xmlError *e)
{
	static const char marker[] = "No matching global declaration available for the validation root";
	const char *m = e->message, *a, *b;
	size_t i;

	if (!m || !strstr(m, marker) || strncmp(m, "Element '", 9) != 0)
		return;
	a = m + 9;
	b = strchr(a, '\'');
	if (!b)
		return;
	for (i = 0; i < sizeof(foreign_roots) / sizeof(foreign_roots[0]); i++)
		if (strlen(foreign_roots[i].root) == (size_t)(b - a) &&
		    strncmp(a, foreign_roots[i].root, (size_t)(b - a)) == 0)
			break;
	if (i == 0)   /* the one of them qbank import reads */
		snprintf(msg, cap, "this is %s, not a qbank bank: qbank import converts it "
			 "(qbank import %s -o BANK.xml)", foreign_roots[i].what, e->file ? e->file : "FILE");
	else if (i < sizeof(foreign_roots) / sizeof(foreign_roots[0]))
		snprintf(msg, cap, "this is %s, not a qbank bank: a bank's root element is <bank> "
			 "(schema/README.md); convert the questions into one", foreign_roots[i].what);
	else
		snprintf(msg, cap, "the root element is <%.*s>, not <bank>: this is not a qbank bank "
			 "(schema/README.md)", (int)(b - a), a);
}

/* ---- schema errors in the bank's words ------------------------------
 * libxml2's validator speaks of "elements not expected" and "atomic
 * types"; an author thinks in tags, attributes and their order. The
 * messages below say what to write instead, with a "did you mean" for a
 * misspelt name or value. Names are the schema's (schema/qbank.xsd). */
static const char *const bank_elements[] = {
	"answer", "bank", "br", "category", "code", "description", "distractor", "em",
	"explanation", "img", "li", "math", "ol", "option", "p", "pair", "pre", "premise",
	"question", "rationale", "response", "rubric", "source", "stem", "strong", "sub", "sup",
	"tag", "text", "title", "ul",
};
static const char *const bank_attributes[] = {
	"alt", "case-sensitive", "correct", "display", "for", "format", "id", "lang", "lines",
	"max-words", "min-words", "name", "points", "select", "shuffle", "src", "tolerance",
	"type", "unit", "version", "width",
};

/* The order of the children of <bank>, <question>, <option> and <pair>:
 * within a group, an element of a lower rank comes before one of a higher
 * rank (elements of one rank may mix). */
struct ranked {
	const char *name;
	int rank;
};
static const struct ranked order_bank[] = {
	{ "title", 1 }, { "description", 2 }, { "category", 3 }, { "question", 3 }, { NULL, 0 },
};
static const struct ranked order_question[] = {
	{ "source", 1 }, { "tag", 2 }, { "stem", 3 }, { "option", 4 }, { "answer", 4 },
	{ "rationale", 4 }, { "pair", 4 }, { "distractor", 5 }, { "response", 4 }, { "rubric", 5 },
	{ "explanation", 6 }, { NULL, 0 },
};
static const struct ranked order_option[] = { { "text", 1 }, { "rationale", 2 }, { NULL, 0 } };
static const struct ranked order_pair[] = { { "premise", 1 }, { "response", 2 }, { NULL, 0 } };
static const struct ranked *const order_groups[] = {
	order_bank, order_question, order_option, order_pair,
};

static int rank_in(const struct ranked *g, const char *name, size_t len)
{
	for (; g->name; g++)
		if (strlen(g->name) == len && strncmp(g->name, name, len) == 0)
			return g->rank;
	return 0;
}

/* For "Element 'EL': This element is not expected. Expected is one of
 * ( a, b )": the element EL must come before, when EL belongs earlier in
 * the group that holds it and every expected name, or NULL. */
static const char *must_precede(const char *el, const char *expected)
{
	size_t gi;

	for (gi = 0; expected && gi < sizeof(order_groups) / sizeof(order_groups[0]); gi++) {
		const struct ranked *g = order_groups[gi], *x, *best = NULL;
		int r = rank_in(g, el, strlen(el)), min = 0, ok = 1;
		const char *p = strchr(expected, '(');

		if (!r || !p)
			continue;
		while (ok && *++p) {
			size_t n;
			int k;

			p += strspn(p, " ,");
			n = strcspn(p, " ,)");
			if (!n)
				break;
			k = rank_in(g, p, n);
			ok = k > 0;
			if (k && (!min || k < min))
				min = k;
			p += n - 1;
		}
		if (!ok || !min || r >= min)
			continue;
		/* the latest element of a rank between EL's and the expected ones
		 * (<stem> for a <tag> met among the options), else the first expected */
		for (x = g; x->name; x++)
			if (x->rank > r && x->rank < min && (!best || x->rank > best->rank))
				best = x;
		if (best)
			return best->name;
		for (x = g; x->name; x++)
			if (x->rank == min)
				return x->name;
	}
	return NULL;
}

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* Copies the quoted name after PREFIX in M ("Element 'x'", "attribute 'y'")
 * into OUT; 0 when there is none. */
static int quoted_after(const char *m, const char *prefix, char *out, size_t cap)
{
	const char *a = strstr(m, prefix), *b;

	if (!a)
		return 0;
	a += strlen(prefix);
	b = strchr(a, '\'');
	if (!b || (size_t)(b - a) >= cap)
		return 0;
	memcpy(out, a, (size_t)(b - a));
	out[b - a] = '\0';
	return 1;
}

/* An enumeration's set "{'single', 'multiple'}" as candidates in BUF. */
static size_t set_members(const char *m, char *buf, size_t cap, const char **cands, size_t max)
{
	const char *p = strchr(m, '{');
	size_t n = 0, used = 0;

	while (p && n < max) {
		const char *a = strchr(p, '\''), *b;

		if (!a || (b = strchr(a + 1, '\'')) == NULL || strchr(p, '}') < a)
			break;
		if (used + (size_t)(b - a) >= cap)
			break;
		memcpy(buf + used, a + 1, (size_t)(b - a - 1));
		buf[used + (size_t)(b - a - 1)] = '\0';
		cands[n++] = buf + used;
		used += (size_t)(b - a);
		p = b + 1;
	}
	return n;
}

/* Drops trailing white space and a final '.' (libxml2 ends with ".\n"). */
static void trim_dot(char *msg)
{
	size_t n = strlen(msg);

	while (n && (msg[n - 1] == '\n' || msg[n - 1] == ' ' || msg[n - 1] == '.'))
		msg[--n] = '\0';
}

/* Rewrites MSG, a schema error, in the bank's words when its pattern is
 * one of those authors meet; leaves it alone otherwise. */
static void bank_words(char *msg, size_t cap, const xmlError *e)
{
	const char *m = e->message, *hint;
	char el[128], at[128], val[256], set[512];
	const char *cands[32];
	size_t n;

	if (!m || !quoted_after(m, "Element '", el, sizeof(el)))
		return;
	if (quoted_after(m, "attribute '", at, sizeof(at))) {
		if (strstr(m, "is not allowed")) {
			hint = qb_text_closest(at, bank_attributes, NELEM(bank_attributes));
			if (hint)
				snprintf(msg, cap, "<%s> has no attribute '%s'; did you mean '%s'?", el, at,
					 hint);
			else
				snprintf(msg, cap, "<%s> has no attribute '%s' (schema/README.md lists "
					 "the attributes of each element)", el, at);
			return;
		}
		if (strstr(m, "[facet 'enumeration']") && quoted_after(m, "The value '", val, sizeof(val))) {
			n = set_members(m, set, sizeof(set), cands, NELEM(cands));
			hint = qb_text_closest(val, cands, n);
			if (hint)
				snprintf(msg, cap, "%s=\"%s\" is not a %s of <%s>; did you mean %s=\"%s\"?", at,
					 val, at, el, at, hint);
			return;
		}
		if (!quoted_after(m, ": '", val, sizeof(val)))
			return;
		if (strstr(m, "'xs:boolean'")) {
			if (strcasecmp(val, "true") == 0 || strcasecmp(val, "false") == 0)
				snprintf(msg, cap, "%s=\"%s\" on <%s>: booleans are lower case; did you "
					 "mean %s=\"%s\"?", at, val, el, at, val[0] == 't' || val[0] == 'T'
					 ? "true" : "false");
			else
				snprintf(msg, cap, "%s=\"%s\" on <%s> is not a boolean: write true or false",
					 at, val, el);
			return;
		}
		if (strstr(m, "ecimal'") && strchr(val, ',')) {
			char dot[256];
			size_t i;

			for (i = 0; val[i] && i + 1 < sizeof(dot); i++)
				dot[i] = val[i] == ',' ? '.' : val[i];
			dot[i] = '\0';
			snprintf(msg, cap, "%s=\"%s\" on <%s> has a decimal comma; write %s=\"%s\"", at,
				 val, el, at, dot);
		}
		return;
	}
	if (strstr(m, "This element is not expected")) {
		const char *exp = strstr(m, "Expected is"), *before;

		if (!qb_text_closest(el, bank_elements, NELEM(bank_elements)) ||
		    strcmp(qb_text_closest(el, bank_elements, NELEM(bank_elements)), el) != 0) {
			hint = qb_text_closest(el, bank_elements, NELEM(bank_elements));
			if (hint)
				snprintf(msg, cap, "<%s> is not a bank element; did you mean <%s>?", el,
					 hint);
			else if (exp)
				snprintf(msg, cap, "<%s> is not a bank element; %s", el, exp);
			else
				snprintf(msg, cap, "<%s> is not a bank element (schema/README.md lists "
					 "them)", el);
			trim_dot(msg);
			return;
		}
		before = must_precede(el, exp);
		if (before) {
			snprintf(msg, cap, "<%s> must come before <%s>", el, before);
			return;
		}
		if (exp)
			snprintf(msg, cap, "<%s> is not allowed here; %s", el, exp);
		else
			snprintf(msg, cap, "<%s> is not allowed here", el);
		trim_dot(msg);
		return;
	}
	if (strstr(m, "Missing child element(s)")) {
		const char *exp = strstr(m, "Expected is");

		snprintf(msg, cap, "<%s> is missing a child element%s%s", el, exp ? "; " : "",
			 exp ? exp : "");
		trim_dot(msg);
	}
}

/* Appends the fix and the column to the message MSG of a syntax error. */
static void syntax_hint(char *msg, size_t cap, const xmlError *e)
{
	size_t i, n = strlen(msg);

	if (e->domain == XML_FROM_SCHEMASV) {
		bank_words(msg, cap, e);
		foreign_root(msg, cap, e);
	}
	if (e->domain != XML_FROM_PARSER || !e->message)
		return;
	if (is_bad_utf8(e)) {
		n += (size_t)snprintf(msg + n, cap - n, "; if the file was saved as Latin-1 or "
				      "Windows-1252, convert it: iconv -f WINDOWS-1252 -t UTF-8 FILE "
				      "> NEW");
		if (n < cap && e->int2 > 0)
			snprintf(msg + n, cap - n, " (column %d)", e->int2);
		return;
	}
	if (strncmp(e->message, "Document is empty", 17) == 0 ||
	    strncmp(e->message, "Start tag expected", 18) == 0) {
		snprintf(msg, cap, "this file is not XML (no '<' starts it), so not a qbank bank: "
			 "qbank import converts a GIFT or Aiken file (qbank import %s -o BANK.xml)",
			 e->file ? e->file : "FILE");
		return;
	}
	if (e->code == XML_ERR_TAG_NAME_MISMATCH && e->str1 && e->str2) {
		/* "Opening and ending tag mismatch: em line 5 and stem" */
		snprintf(msg, cap, "<%s> opened on line %d is closed by </%s> on line %d: close "
			 "<%s> first (</%s>), or remove it", e->str1, e->int1, e->str2, e->line,
			 e->str1, e->str1);
		n = strlen(msg);
	}
	for (i = 0; i < sizeof(syntax_hints) / sizeof(syntax_hints[0]); i++)
		if (strncmp(e->message, syntax_hints[i].prefix, strlen(syntax_hints[i].prefix)) == 0)
			break;
	if (i < sizeof(syntax_hints) / sizeof(syntax_hints[0]))
		n += (size_t)snprintf(msg + n, cap - n, "; %s", syntax_hints[i].hint);
	if (n < cap && e->int2 > 0)
		snprintf(msg + n, cap - n, " (column %d)", e->int2);
}

static void on_xml_error(void *ctx, xmlErrorPtr e)
{
	struct qb_reader *r = ctx;
	char msg[1024];
	size_t n;

	if (!e || e->level == XML_ERR_WARNING)
		return;
	if (e->level == XML_ERR_FATAL)
		r->fatal = 1;
	clean_message(msg, sizeof(msg), e->message ? e->message : "unknown XML error");
	syntax_hint(msg, sizeof(msg), e);
	n = strlen(msg);
	if (e->code == XML_ERR_HYPHEN_IN_COMMENT)
		snprintf(msg + n, sizeof(msg) - n, "; XML comments cannot contain '--': write "
			 "<!-- qbank-disable RULE - reason --> with a single dash");
	if (QB_ARRAY_RESERVE(r->pend, r->cappend, r->npend + 1))
		return;
	r->pend[r->npend].rule = e->domain == XML_FROM_SCHEMASV ? QB_RULE_XML_SCHEMA
				 : is_bad_utf8(e)		 ? QB_RULE_XML_ENCODING
								 : QB_RULE_XML_SYNTAX;
	r->pend[r->npend].line = e->line > 0 ? (unsigned long)e->line : 0;
	r->pend[r->npend].msg = strdup(msg);
	if (r->pend[r->npend].msg)
		r->npend++;
}

/* Reports the pending errors up to line HI; those from line LO on name the
 * question QID. Returns how many fell in [LO, HI]. */
static unsigned long flush_errors(struct qb_reader *r, unsigned long lo, unsigned long hi,
				  const char *qid)
{
	unsigned long inside = 0;
	size_t i, k = 0;

	for (i = 0; i < r->npend; i++) {
		struct pending *p = &r->pend[i];
		int mine = qid && p->line >= lo && p->line <= hi;

		if (p->line > hi) {
			r->pend[k++] = *p;
			continue;
		}
		inside += mine;
		if (r->opts.on_diag)
			r->opts.on_diag(r->opts.diag_ctx, r->path, p->line, p->rule,
					mine ? qid : NULL, p->msg);
		free(p->msg);
	}
	r->npend = k;
	return inside;
}

/* ---- the prolog probe ----------------------------------------------- */

/* Before the real parse, a small SAX parse reads the prolog, up to the
 * root element, and stops there. Bank files take no DOCTYPE: the schema
 * needs none, and a DTD is what external entities (XXE), entity expansion
 * bombs and quadratic blow-up are made of; libxml2's streaming reader
 * copies an entity's content into every reference even without
 * substitution, so refusing the file before its internal subset is parsed
 * is the only bounded answer. Bank files are UTF-8: a UTF-16 or
 * ISO-8859-1 file is refused too (schema/README.md "Decisions"). */
struct probe {
	unsigned long doctype_line;
	int done;
};

static void probe_doctype(void *ctx, const xmlChar *name, const xmlChar *ext_id,
			  const xmlChar *sys_id)
{
	xmlParserCtxtPtr pc = ctx;
	struct probe *p = pc->_private;

	(void)name;
	(void)ext_id;
	(void)sys_id;
	p->doctype_line = pc->input && pc->input->line > 0 ? (unsigned long)pc->input->line : 1;
	p->done = 1;
	xmlStopParser(pc);
}

static void probe_start(void *ctx, const xmlChar *localname, const xmlChar *prefix,
			const xmlChar *uri, int nb_namespaces, const xmlChar **namespaces,
			int nb_attributes, int nb_defaulted, const xmlChar **attributes)
{
	xmlParserCtxtPtr pc = ctx;
	struct probe *p = pc->_private;

	(void)localname; (void)prefix; (void)uri; (void)nb_namespaces; (void)namespaces;
	(void)nb_attributes; (void)nb_defaulted; (void)attributes;
	p->done = 1;
	xmlStopParser(pc);
}

/* The real parse reports the errors; the probe only looks. */
static void probe_error(void *ctx, xmlErrorPtr e)
{
	xmlParserCtxtPtr pc = ctx;
	struct probe *p = pc ? pc->_private : NULL;

	(void)e;
	if (p)
		p->done = 1;
}

static int utf8_name(const char *enc)
{
	static const char *const ok[] = { "UTF-8", "UTF8", "US-ASCII", "ASCII" };
	size_t i;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		if (strcasecmp(enc, ok[i]) == 0)
			return 1;
	return 0;
}

/* Returns 1 when the file was refused (the finding is reported), 0 to go
 * on with the real parse, or a negative error. */
static int probe_prolog(struct qb_reader *r)
{
	xmlSAXHandler sax;
	xmlParserCtxtPtr pc;
	struct probe p = { 0, 0 };
	unsigned char buf[4096];
	const char *declared = NULL;
	xmlCharEncoding bom;
	FILE *f;
	size_t n;
	int refused = 0;

	f = r->mem ? fmemopen((void *)r->mem, (size_t)r->size, "rb") : fopen(r->path, "rb");
	if (!f)
		return QB_EIO;
	n = fread(buf, 1, sizeof(buf), f);
	bom = n >= 4 ? xmlDetectCharEncoding(buf, 4) : XML_CHAR_ENCODING_NONE;
	if (bom != XML_CHAR_ENCODING_NONE && bom != XML_CHAR_ENCODING_UTF8) {
		(void)fclose(f);   /* read only: nothing to lose */
		if (r->opts.on_diag)
			r->opts.on_diag(r->opts.diag_ctx, r->path, 1, QB_RULE_XML_ENCODING, NULL,
					"the file is not UTF-8 (its first bytes say UTF-16, UTF-32 "
					"or EBCDIC); bank files are UTF-8: convert it, e.g. "
					"iconv -f UTF-16 -t UTF-8");
		return 1;
	}
	memset(&sax, 0, sizeof(sax));
	sax.initialized = XML_SAX2_MAGIC;
	sax.internalSubset = probe_doctype;
	sax.startElementNs = probe_start;
	sax.serror = probe_error;
	pc = xmlCreatePushParserCtxt(&sax, NULL, NULL, 0, r->path);
	if (!pc) {
		(void)fclose(f);
		return QB_ENOMEM;
	}
	pc->_private = &p;
	xmlCtxtUseOptions(pc, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
	while (!p.done && n > 0) {
		if (xmlParseChunk(pc, (const char *)buf, (int)n, 0) != 0)
			break;
		n = fread(buf, 1, sizeof(buf), f);
	}
	(void)fclose(f);
	if (pc->input && pc->input->encoding)
		declared = (const char *)pc->input->encoding;
	else if (pc->encoding)
		declared = (const char *)pc->encoding;
	if (p.doctype_line && r->opts.on_diag) {
		r->opts.on_diag(r->opts.diag_ctx, r->path, p.doctype_line, QB_RULE_XML_DOCTYPE, NULL,
				"the file has a DOCTYPE declaration, so it is not read: bank files "
				"take no DTD and no entities (README \"Limits\"); remove the DOCTYPE");
		refused = 1;
	} else if (declared && !utf8_name(declared) && r->opts.on_diag) {
		char msg[300];

		snprintf(msg, sizeof(msg), "the XML declaration says encoding=\"%.60s\"; bank "
			 "files are UTF-8: convert the file and declare encoding=\"UTF-8\"", declared);
		r->opts.on_diag(r->opts.diag_ctx, r->path, 1, QB_RULE_XML_ENCODING, NULL, msg);
		refused = 1;
	}
	xmlFreeParserCtxt(pc);
	return refused;
}

/* ---- open / free ---------------------------------------------------- */

/* Reads the bank from MEM[0..size) when MEM is not NULL, else from the
 * file PATH (checked to be a readable regular file of SIZE bytes). */
static int open_source(struct qb_reader **out, const char *path, const char *mem,
		       size_t size, const struct qb_reader_opts *opts, struct qb_error *err)
{
	struct qb_reader *r;
	int rc;

	r = calloc(1, sizeof(*r));
	if (!r)
		return QB_ENOMEM;
	r->path = strdup(path);
	r->opts = *opts;
	r->size = (unsigned long long)size;
	r->mem = mem;
	r->keep = xmlNewDoc(BAD_CAST "1.0");
	if (!r->path || !r->keep)
		goto nomem;
	r->bank.file = r->path;
	r->q.file = r->path;
	r->q.file_index = opts->file_index;

	if (size == 0) {
		/* libxml2's message for this case is misleading */
		r->done = 1;
		if (opts->on_diag)
			opts->on_diag(opts->diag_ctx, r->path, 1, QB_RULE_XML_SYNTAX, NULL,
				      "the file is empty; a bank file holds an XML declaration "
				      "and a <bank> element (see schema/README.md)");
		*out = r;
		return 0;
	}
	rc = probe_prolog(r);
	if (rc != 0) {
		if (rc < 0) {
			qb_error_set(err, rc, "%s: cannot read: %s", path,
				     rc == QB_ENOMEM ? "out of memory" : strerror(errno));
			qb_reader_free(r);
			return rc;
		}
		r->done = 1;
		*out = r;
		return 0;
	}
	r->xr = mem ? xmlReaderForMemory(mem, (int)size, path, NULL, READER_OPTIONS)
		    : xmlReaderForFile(path, NULL, READER_OPTIONS);
	if (!r->xr) {
		qb_error_set(err, QB_EIO, "%s: cannot open for reading: %s", path,
			     strerror(errno ? errno : EIO));
		qb_reader_free(r);
		return QB_EIO;
	}
	xmlSetStructuredErrorFunc(r, on_xml_error);
	rc = opts->schema ? xmlTextReaderSetSchema(r->xr, opts->schema) : 0;
	xmlSetStructuredErrorFunc(NULL, NULL);
	if (rc != 0) {
		qb_error_set(err, QB_EINVAL, "%s: cannot attach the bank schema", path);
		qb_reader_free(r);
		return QB_EINVAL;
	}
	*out = r;
	return 0;
nomem:
	qb_reader_free(r);
	return QB_ENOMEM;
}

int qb_reader_open(struct qb_reader **out, const char *path,
		   const struct qb_reader_opts *opts, struct qb_error *err)
{
	struct stat st;
	FILE *probe;

	*out = NULL;
	if (stat(path, &st) != 0) {
		qb_error_set(err, QB_EIO, "%s: cannot read: %s", path, strerror(errno));
		return QB_EIO;
	}
	if (!S_ISREG(st.st_mode)) {
		qb_error_set(err, QB_EIO, "%s: not a regular file; give a bank file or a directory of them", path);
		return QB_EIO;
	}
	probe = fopen(path, "rb");
	if (!probe) {
		qb_error_set(err, QB_EIO, "%s: cannot read: %s", path, strerror(errno));
		return QB_EIO;
	}
	(void)fclose(probe);   /* opened only to test readability */
	return open_source(out, path, NULL, (size_t)st.st_size, opts, err);
}

int qb_reader_open_memory(struct qb_reader **out, const char *name, const char *data,
			  size_t len, const struct qb_reader_opts *opts, struct qb_error *err)
{
	*out = NULL;
	if (len > INT_MAX) {   /* libxml2 takes the size as an int */
		qb_error_set(err, QB_EIO, "%s: too large to read from memory (%zu bytes)", name, len);
		return QB_EIO;
	}
	return open_source(out, name, len ? data : "", len, opts, err);
}

static void clear_pragmas(struct qbufs *b)
{
	size_t i;

	for (i = 0; i < b->npragmas; i++)
		free(b->pragma_text[i]);
	b->npragmas = 0;
}

static void qbufs_dispose(struct qbufs *b)
{
	clear_pragmas(b);
	qb_arena_dispose(&b->arena);
	free(b->opts_v);
	free(b->ans_v);
	free(b->side_v);
	free(b->pairs_v);
	free(b->dis_v);
	free(b->tags_v);
	free(b->catnames);
	free(b->pragmas);
	free(b->pragma_text);
}

static void release_slot(struct slot *s)
{
	if (!s->busy)
		return;
	/* on the reader's thread: the subtree's strings may be in the
	 * document's dictionary, which the parser keeps adding to */
	xmlFreeNode(s->holder);
	s->holder = NULL;
	clear_pragmas(&s->b);
	s->busy = 0;
}

int qb_reader_hold(struct qb_reader *r, size_t n)
{
	if (r->started || r->slots || n == 0)
		return QB_EINVAL;
	r->slots = calloc(n, sizeof(*r->slots));
	if (!r->slots)
		return QB_ENOMEM;
	r->nslots = n;
	return 0;
}

void qb_reader_release(struct qb_reader *r, const struct qb_question *q)
{
	size_t i;

	for (i = 0; i < r->nslots; i++)
		if (q == &r->slots[i].q)
			release_slot(&r->slots[i]);
}

static void dispose_slots(struct qb_reader *r)
{
	size_t i;

	for (i = 0; i < r->nslots; i++) {
		struct slot *s = &r->slots[i];

		release_slot(s);
		qbufs_dispose(&s->b);
	}
	free(r->slots);
}

void qb_reader_free(struct qb_reader *r)
{
	size_t i;

	if (!r)
		return;
	if (r->slots)
		dispose_slots(r);  /* before the document their subtrees point into */
	if (r->xr)
		xmlFreeTextReader(r->xr);
	for (i = 0; i < r->ncats; i++)
		free(r->cats[i].name);
	free(r->cats);
	qbufs_dispose(&r->w);
	for (i = 0; i < r->nfpragmas; i++)
		free((char *)r->fpragmas[i].text);
	free(r->fpragmas);
	flush_errors(r, 0, 0, NULL);
	for (i = 0; i < r->npend; i++)
		free(r->pend[i].msg);
	free(r->pend);
	free(r->bank_id);
	free(r->bank_lang);
	free(r->bank_title);
	if (r->keep)
		xmlFreeDoc(r->keep);
	free(r->path);
	free(r);
}

const struct qb_bank_info *qb_reader_bank(const struct qb_reader *r)
{
	return &r->bank;
}

unsigned long long qb_reader_size(const struct qb_reader *r)
{
	return r->size;
}

unsigned long long qb_reader_offset(const struct qb_reader *r)
{
	long off = r->xr ? xmlTextReaderByteConsumed(r->xr) : 0;

	return off > 0 ? (unsigned long long)off : 0;
}

/* ---- building a question -------------------------------------------- */

static int add_option(struct qb_reader *r, const xmlNode *n)
{
	struct qb_option *o;
	const xmlNode *c;
	const char *id;

	if (QB_ARRAY_RESERVE(r->w.opts_v, r->w.capopts, r->q.noptions + 1))
		return QB_ENOMEM;
	o = &r->w.opts_v[r->q.noptions];
	memset(o, 0, sizeof(*o));
	o->node = n;
	o->line = line_of(n);
	o->correct = parse_bool(qb_text_attr(n, "correct"), 0);
	id = qb_text_attr(n, "id");
	if (id) {
		size_t len;
		const char *t = qb_text_trim(id, &len);

		o->id = qb_arena_strndup(&r->w.arena, t, len);
		o->explicit_id = 1;
	} else {
		o->id = letter_id(r, r->q.noptions);
	}
	if (!o->id)
		return QB_ENOMEM;
	for (c = n->children; c; c = c->next) {
		if (is_el(c, "text") && !o->text) {
			o->text = c;
			o->text_line = line_of(c);
		} else if (is_el(c, "rationale") && !o->rationale) {
			o->rationale = c;
			o->rationale_line = line_of(c);
		}
	}
	r->q.noptions++;
	return 0;
}

static int add_answer(struct qb_reader *r, const xmlNode *n)
{
	struct qb_answer *a;

	if (QB_ARRAY_RESERVE(r->w.ans_v, r->w.capans, r->q.nanswers + 1))
		return QB_ENOMEM;
	a = &r->w.ans_v[r->q.nanswers];
	a->node = n;
	a->line = line_of(n);
	a->value = plain(r, n);
	a->tolerance = qb_text_attr(n, "tolerance");
	a->unit = qb_text_attr(n, "unit");
	if (!a->value)
		return QB_ENOMEM;
	r->q.nanswers++;
	return 0;
}

static int add_side_rationale(struct qb_reader *r, const xmlNode *n)
{
	struct qb_side_rationale *s;
	const char *f = qb_text_attr(n, "for");

	if (QB_ARRAY_RESERVE(r->w.side_v, r->w.capside, r->q.nside_rationales + 1))
		return QB_ENOMEM;
	s = &r->w.side_v[r->q.nside_rationales];
	s->node = n;
	s->line = line_of(n);
	s->for_true = parse_bool(f, 0);
	r->q.nside_rationales++;
	return 0;
}

static int add_pair(struct qb_reader *r, const xmlNode *n)
{
	struct qb_pair *p;
	const xmlNode *c;

	if (QB_ARRAY_RESERVE(r->w.pairs_v, r->w.cappairs, r->q.npairs + 1))
		return QB_ENOMEM;
	p = &r->w.pairs_v[r->q.npairs];
	memset(p, 0, sizeof(*p));
	p->node = n;
	p->line = line_of(n);
	for (c = n->children; c; c = c->next) {
		if (is_el(c, "premise") && !p->premise)
			p->premise = c;
		else if (is_el(c, "response") && !p->response)
			p->response = c;
	}
	r->q.npairs++;
	return 0;
}

static int add_distractor(struct qb_reader *r, const xmlNode *n)
{
	struct qb_distractor *d;

	if (QB_ARRAY_RESERVE(r->w.dis_v, r->w.capdis, r->q.ndistractors + 1))
		return QB_ENOMEM;
	d = &r->w.dis_v[r->q.ndistractors];
	d->node = n;
	d->line = line_of(n);
	r->q.ndistractors++;
	return 0;
}

static int add_tag(struct qb_reader *r, const xmlNode *n)
{
	const char *t = plain(r, n);

	if (!t)
		return QB_ENOMEM;
	if (QB_ARRAY_RESERVE(r->w.tags_v, r->w.captags, r->q.ntags + 1))
		return QB_ENOMEM;
	r->w.tags_v[r->q.ntags++] = t;
	return 0;
}

/* ---- limits (limits.h) ---------------------------------------------- */

static size_t utf8_chars(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xC0) != 0x80;
	return n;
}

/* Cuts S (owned) after MAX characters. */
static void cut_chars(char *s, size_t max)
{
	size_t n = 0, chars = 0;

	for (; s[n]; n++) {
		if (((unsigned char)s[n] & 0xC0) != 0x80 && ++chars > max)
			break;
	}
	s[n] = '\0';
}

/* The first MAX characters of S and an ellipsis, in the arena: an id over
 * the limit is shown shortened in every finding (U+2026 cannot occur in a
 * valid id, so the short form never equals another question's id). */
static const char *shorten(struct qb_reader *r, const char *s, size_t max)
{
	size_t n = 0, chars = 0;
	char *out;

	while (s[n] && chars <= max) {
		chars += ((unsigned char)s[n] & 0xC0) != 0x80;
		if (chars > max)
			break;
		n++;
	}
	out = qb_arena_alloc(&r->w.arena, n + 4);
	if (!out)
		return NULL;
	memcpy(out, s, n);
	memcpy(out + n, "\xe2\x80\xa6", 4);
	return out;
}

static void limit_finding(struct qb_reader *r, unsigned long line, const char *question,
			  const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void limit_finding(struct qb_reader *r, unsigned long line, const char *question,
			  const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	r->over_limit = 1;
	if (!r->opts.on_diag)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	r->opts.on_diag(r->opts.diag_ctx, r->path, line, QB_RULE_LIMIT_EXCEEDED, question, msg);
}

/* Bytes of text (attribute values included) and elements below N; stops
 * counting once both limits are passed. Depth is bounded by the parser. */
static void measure(const xmlNode *n, size_t *bytes, size_t *elements)
{
	const xmlNode *c;
	const xmlAttr *a;

	for (c = n->children; c; c = c->next) {
		if (*bytes > QB_LIMIT_PART_BYTES && *elements > QB_LIMIT_PART_ELEMENTS)
			return;
		if ((c->type == XML_TEXT_NODE || c->type == XML_CDATA_SECTION_NODE) && c->content) {
			*bytes += strlen((const char *)c->content);
		} else if (c->type == XML_ELEMENT_NODE) {
			++*elements;
			for (a = c->properties; a; a = a->next)
				if (a->children && a->children->content)
					*bytes += strlen((const char *)a->children->content);
			measure(c, bytes, elements);
		}
	}
}

static const char *check_id(struct qb_reader *r, const char *id, const char *what,
			    unsigned long line)
{
	size_t chars = id ? utf8_chars(id) : 0;

	if (chars <= QB_LIMIT_ID_CHARS)
		return id;
	id = shorten(r, id, QB_LIMIT_ID_CHARS);
	if (!id)
		return NULL;
	/* the finding names the question by its shortened id, never 1 MB of it */
	limit_finding(r, line, strcmp(what, "question") == 0 ? id : r->q.id, "the %s id is %zu characters long; ids are at most %d "
		      "(Moodle's idnumber; README \"Limits\")", what, chars, QB_LIMIT_ID_CHARS);
	return id;
}

/* Applies limits.h to the question just built: reports each limit passed
 * and shortens over-long ids (the question is then handed out invalid). */
static int check_limits(struct qb_reader *r)
{
	struct qb_question *q = &r->q;
	const struct { const char *what; size_t n; } counts[] = {
		{ "options", q->noptions }, { "answers", q->nanswers }, { "pairs", q->npairs },
		{ "distractors", q->ndistractors }, { "tags", q->ntags },
	};
	const xmlNode *c;
	size_t i;

	if (q->id) {
		q->id = check_id(r, q->id, "question", q->line);
		if (!q->id)
			return QB_ENOMEM;
	}
	for (i = 0; i < q->noptions; i++) {
		if (!r->w.opts_v[i].explicit_id)
			continue;
		r->w.opts_v[i].id = check_id(r, r->w.opts_v[i].id, "option", r->w.opts_v[i].line);
		if (!r->w.opts_v[i].id)
			return QB_ENOMEM;
	}
	for (i = 0; i < sizeof(counts) / sizeof(counts[0]); i++)
		if (counts[i].n > QB_LIMIT_CHILDREN)
			limit_finding(r, q->line, q->id, "the question has %zu %s; a question has at "
				      "most %d (README \"Limits\")", counts[i].n, counts[i].what,
				      QB_LIMIT_CHILDREN);
	for (c = q->node->children; c; c = c->next) {
		size_t bytes = 0, elements = 0;

		if (c->type != XML_ELEMENT_NODE)
			continue;
		measure(c, &bytes, &elements);
		if (bytes > QB_LIMIT_PART_BYTES)
			limit_finding(r, line_of(c), q->id, "this %s holds more than %d bytes of text; "
				      "a part of a question holds at most that (README \"Limits\")",
				      (const char *)c->name, QB_LIMIT_PART_BYTES);
		else if (elements > QB_LIMIT_PART_ELEMENTS)
			limit_finding(r, line_of(c), q->id, "this %s holds more than %d elements; "
				      "a part of a question holds at most that (README \"Limits\")",
				      (const char *)c->name, QB_LIMIT_PART_ELEMENTS);
	}
	return 0;
}

/* 1 when no element of the document parsed so far is an img: the
 * parser interns every name in the document's dictionary, so a name it
 * does not hold was never parsed. Asked here, on the reader's thread: the
 * parser adds to the dictionary as it goes, and no other thread may look
 * into it. The rules and the target checks then skip their walks for
 * images in banks without any. */
static int no_img_yet(const xmlNode *qn)
{
	xmlDictPtr dict = qn->doc ? qn->doc->dict : NULL;

	return dict && xmlDictOwns(dict, qn->name) == 1 &&
	       !xmlDictExists(dict, (const xmlChar *)"img", 3);
}

static int build_question(struct qb_reader *r, const xmlNode *qn)
{
	struct qb_question *q = &r->q;
	const xmlNode *c;
	const char *s;
	int err = 0;
	size_t i;

	q->node = qn;
	q->line = line_of(qn);
	q->no_img = no_img_yet(qn);
	q->id = NULL;
	if ((s = qb_text_attr(qn, "id"))) {
		size_t len;
		const char *t = qb_text_trim(s, &len);

		q->id = qb_arena_strndup(&r->w.arena, t, len);
	}
	q->type_name = qb_text_attr(qn, "type");
	q->type = qb_qtype_parse(q->type_name);
	q->points = qb_text_attr(qn, "points");
	q->points_value = 1.0;
	if (q->points) {
		char *end;
		double v = strtod(q->points, &end);

		if (end != q->points)
			q->points_value = v;
	}
	q->shuffle = parse_bool(qb_text_attr(qn, "shuffle"), 1);
	s = qb_text_attr(qn, "select");
	q->has_select = s != NULL;
	q->select = s ? strtol(s, NULL, 10) : 0;
	q->case_sensitive = parse_bool(qb_text_attr(qn, "case-sensitive"), 0);

	for (c = qn->children; c && !err; c = c->next) {
		const char *name;

		if (c->type != XML_ELEMENT_NODE)
			continue;
		name = (const char *)c->name;
		if (name_is(name, "option"))
			err = add_option(r, c);
		else if (name_is(name, "stem") && !q->stem) {
			q->stem = c;
			q->stem_line = line_of(c);
		} else if (name_is(name, "explanation") && !q->explanation) {
			q->explanation = c;
			q->explanation_line = line_of(c);
		} else if (name_is(name, "answer"))
			err = add_answer(r, c);
		else if (name_is(name, "rationale"))
			err = add_side_rationale(r, c);
		else if (name_is(name, "pair"))
			err = add_pair(r, c);
		else if (name_is(name, "distractor"))
			err = add_distractor(r, c);
		else if (name_is(name, "tag"))
			err = add_tag(r, c);
		else if (name_is(name, "source") && !q->source) {
			q->source = plain(r, c);
			if (!q->source)
				err = QB_ENOMEM;
		} else if (name_is(name, "response") && !q->response)
			q->response = c;
		else if (name_is(name, "rubric") && !q->rubric)
			q->rubric = c;
	}
	if (err)
		return err;

	q->options = r->w.opts_v;
	q->answers = r->w.ans_v;
	q->side_rationales = r->w.side_v;
	q->pairs = r->w.pairs_v;
	q->distractors = r->w.dis_v;
	q->tags = r->w.tags_v;

	/* copies: a category's name is freed at its end tag, which the parser
	 * may reach while this question is still in use */
	if (QB_ARRAY_RESERVE(r->w.catnames, r->w.capcatnames, r->ncats))
		return QB_ENOMEM;
	for (i = 0; i < r->ncats; i++) {
		r->w.catnames[i] = qb_arena_strndup(&r->w.arena, r->cats[i].name, strlen(r->cats[i].name));
		if (!r->w.catnames[i])
			return QB_ENOMEM;
	}
	q->categories = r->w.catnames;
	q->ncategories = r->ncats;
	q->category_serial = r->category_serial;
	q->pragmas = r->w.pragmas;
	q->npragmas = r->w.npragmas;
	return check_limits(r);
}

static void reset_question(struct qb_reader *r)
{
	struct qb_question *q = &r->q;
	const char *file = q->file;
	size_t fi = q->file_index;

	qb_arena_reset(&r->w.arena);
	r->over_limit = 0;
	memset(q, 0, sizeof(*q));
	q->file = file;
	q->file_index = fi;
}


/* Hands the question just built out in slot S: the working set and the
 * slot trade their buffers (the slot's were released, so the reader gets
 * empty ones back), and the question's children and attributes move from
 * the reader's <question> node, which the parser frees when it moves on,
 * to a holder node of the slot's. */
static int hand_out(struct qb_reader *r, xmlNodePtr qn, struct slot *s)
{
	xmlNodePtr h = qb_xml_detach(qn);
	struct qbufs tmp;

	if (!h)
		return QB_ENOMEM;
	s->holder = h;

	tmp = r->w;
	r->w = s->b;
	s->b = tmp;
	s->q = r->q;
	s->q.node = h;
	s->busy = 1;
	return 0;
}

static struct slot *free_slot(struct qb_reader *r)
{
	size_t i;

	for (i = 0; i < r->nslots; i++)
		if (!r->slots[i].busy)
			return &r->slots[i];
	return NULL;
}

/* ---- the bank element and categories -------------------------------- */

static int push_category(struct qb_reader *r)
{
	xmlChar *name = xmlTextReaderGetAttribute(r->xr, BAD_CAST "name");
	struct category *c;
	size_t len, fit;

	if (QB_ARRAY_RESERVE(r->cats, r->capcats, r->ncats + 1) ||
	    QB_ARRAY_RESERVE(r->w.catnames, r->w.capcatnames, r->ncats + 1)) {
		xmlFree(name);
		return QB_ENOMEM;
	}
	c = &r->cats[r->ncats];
	c->name = strdup(name ? (const char *)name : "");
	c->line = line_of_reader_node(r, 0);
	xmlFree(name);
	if (!c->name)
		return QB_ENOMEM;
	qb_text_trim(c->name, &len);
	if (len == 0 && r->opts.on_diag)
		r->opts.on_diag(r->opts.diag_ctx, r->path, c->line, QB_RULE_TEXT_EMPTY, NULL,
				"the category's name is empty or only white space; give it a "
				"name (Moodle cannot create a category without one)");
	if (qb_text_stored_chars(c->name, strlen(c->name), QB_LIMIT_NAME_CHARS, &fit) >
	    QB_LIMIT_NAME_CHARS) {
		/* keep the name short in every question below it; the finding fails the run */
		c->name[fit] = '\0';
		if (r->opts.on_diag)
			r->opts.on_diag(r->opts.diag_ctx, r->path, c->line, QB_RULE_LIMIT_EXCEEDED, NULL,
					"the category name is longer than the 255 characters "
					"Moodle stores (& < > \" count as 4 to 6; README \"Limits\")");
	}
	r->ncats++;
	r->category_serial++;
	return 0;
}

static void pop_category(struct qb_reader *r)
{
	if (r->ncats == 0)
		return;
	free(r->cats[--r->ncats].name);
	r->category_serial++;
}

static int read_bank_start(struct qb_reader *r)
{
	xmlChar *v;

	v = xmlTextReaderGetAttribute(r->xr, BAD_CAST "id");
	if (v) {
		r->bank_id = strdup((const char *)v);
		xmlFree(v);
	}
	v = xmlTextReaderGetAttributeNs(r->xr, BAD_CAST "lang", XML_XML_NAMESPACE);
	if (v) {
		r->bank_lang = strdup((const char *)v);
		xmlFree(v);
	}
	if (r->bank_id && utf8_chars(r->bank_id) > QB_LIMIT_ID_CHARS && r->opts.on_diag) {
		cut_chars(r->bank_id, QB_LIMIT_ID_CHARS);
		r->opts.on_diag(r->opts.diag_ctx, r->path, line_of_reader_node(r, 0),
				QB_RULE_LIMIT_EXCEEDED, NULL, "the bank id is longer than 100 characters "
				"(README \"Limits\")");
	}
	r->bank.id = r->bank_id;
	r->bank.lang = r->bank_lang;
	r->bank.line = line_of_reader_node(r, 0);
	return 0;
}

static int add_comment(struct qb_reader *r)
{
	const char *v = (const char *)xmlTextReaderConstValue(r->xr);
	unsigned long line = line_of_reader_node(r, 0);
	const char *t;
	size_t len;
	char *copy;

	if (!v)
		return 0;
	t = qb_text_trim(v, &len);
	if (len < 6 || strncmp(t, "qbank-", 6) != 0)
		return 0;
	copy = malloc(len + 1);
	if (!copy)
		return QB_ENOMEM;
	memcpy(copy, t, len);
	copy[len] = '\0';
	if (strncmp(copy, "qbank-disable-file", 18) == 0) {
		if (QB_ARRAY_RESERVE(r->fpragmas, r->capfpragmas, r->nfpragmas + 1)) {
			free(copy);
			return QB_ENOMEM;
		}
		r->fpragmas[r->nfpragmas].text = copy;
		r->fpragmas[r->nfpragmas].line = line;
		r->nfpragmas++;
		r->bank.file_pragmas = r->fpragmas;
		r->bank.nfile_pragmas = r->nfpragmas;
		return 0;
	}
	if (QB_ARRAY_RESERVE(r->w.pragmas, r->w.cappragmas, r->w.npragmas + 1) ||
	    QB_ARRAY_RESERVE(r->w.pragma_text, r->w.cappragma_text, r->w.npragmas + 1)) {
		free(copy);
		return QB_ENOMEM;
	}
	r->w.pragma_text[r->w.npragmas] = copy;
	r->w.pragmas[r->w.npragmas].text = copy;
	r->w.pragmas[r->w.npragmas].line = line;
	r->w.npragmas++;
	return 0;
}

/* Expands a bank-level element (title, description) and keeps what is needed. */
static int read_bank_child(struct qb_reader *r, const char *name)
{
	xmlNodePtr n = xmlTextReaderExpand(r->xr);

	if (!n)
		return 0;
	if (strcmp(name, "title") == 0 && !r->bank_title) {
		struct qb_buf b = QB_BUF_INIT;
		const char *t;
		size_t len;

		if (qb_text_plain(&b, n) != 0) {
			qb_buf_dispose(&b);
			return QB_ENOMEM;
		}
		t = qb_text_trim(b.len ? b.ptr : "", &len);
		r->bank_title = strndup(t, len);
		qb_buf_dispose(&b);
		if (!r->bank_title)
			return QB_ENOMEM;
		r->bank.title = r->bank_title;
		/* Moodle files the bank under a category of this name */
		if (qb_text_stored_chars(r->bank_title, len, QB_LIMIT_NAME_CHARS, NULL) >
		    QB_LIMIT_NAME_CHARS && r->opts.on_diag)
			r->opts.on_diag(r->opts.diag_ctx, r->path, line_of(n),
					QB_RULE_LIMIT_EXCEEDED, NULL,
					"the title is longer than the 255 characters Moodle stores as "
					"the name of the bank's category (& < > \" count as 4 to 6; "
					"README \"Limits\")");
	} else if (strcmp(name, "description") == 0 && !r->bank.description) {
		xmlNodePtr copy = xmlDocCopyNode(n, r->keep, 1);

		if (!copy)
			return QB_ENOMEM;
		xmlDocSetRootElement(r->keep, copy);
		r->bank.description = copy;
	}
	r->advance_with_next = 1;
	return 0;
}

/* ---- the main loop -------------------------------------------------- */

static int next_question(struct qb_reader *r, const struct qb_question **out);

/* libxml2's reader relays parser errors wrongly once a schema is plugged
 * into its SAX handler, so errors are caught with the (thread-local)
 * structured error handler, set only while the reader works. */
int qb_reader_next(struct qb_reader *r, const struct qb_question **out)
{
	int rc;

	xmlSetStructuredErrorFunc(r, on_xml_error);
	rc = next_question(r, out);
	xmlSetStructuredErrorFunc(NULL, NULL);
	return rc;
}

static int next_question(struct qb_reader *r, const struct qb_question **out)
{
	struct slot *s = NULL;
	int ret, err;

	*out = NULL;
	r->started = 1;
	if (r->done)
		return 0;
	if (r->slots) {
		s = free_slot(r);
		if (!s)
			return QB_EINVAL;  /* the caller holds every slot: release one first */
	} else {
		clear_pragmas(&r->w);  /* the previous question's */
	}
	reset_question(r);

	while ((ret = advance(r)) == 1) {
		int type = xmlTextReaderNodeType(r->xr);
		int depth = xmlTextReaderDepth(r->xr);
		const char *name = (const char *)xmlTextReaderConstLocalName(r->xr);

		if (type == XML_READER_TYPE_COMMENT) {
			if ((err = add_comment(r)))
				return err;
			continue;
		}
		if (type == XML_READER_TYPE_END_ELEMENT) {
			if (name && strcmp(name, "category") == 0)
				pop_category(r);
			continue;
		}
		if (type != XML_READER_TYPE_ELEMENT || !name)
			continue;

		if (depth == 0) {
			if (strcmp(name, "bank") == 0)
				read_bank_start(r);
			else
				r->foreign_root = 1;
			continue;
		}
		/* not a bank (a Moodle <quiz>): one finding about the root, and
		 * no questions counted from it */
		if (r->foreign_root)
			continue;
		if (strcmp(name, "category") == 0) {
			if ((err = push_category(r)))
				return err;
			if (xmlTextReaderIsEmptyElement(r->xr))
				pop_category(r);
			continue;
		}
		if (depth == 1 && (strcmp(name, "title") == 0 || strcmp(name, "description") == 0)) {
			if ((err = read_bank_child(r, name)))
				return err;
			continue;
		}
		if (strcmp(name, "question") == 0) {
			xmlNodePtr qn = xmlTextReaderExpand(r->xr);
			unsigned long start, end;

			if (!qn) {
				/* A fatal error stopped the parse somewhere at or after this
				 * question; the parser may have run ahead past it, so the error
				 * names no question rather than maybe the wrong one. */
				break;
			}
			if ((err = build_question(r, qn)))
				return err;
			start = r->q.line;
			end = last_line(qn);
			r->q.schema_invalid = flush_errors(r, start, end, r->q.id) > 0 ||
					      r->over_limit;
			r->advance_with_next = 1;
			if (!s) {
				/* valid until the next call, which moves the parser on */
				*out = &r->q;
				return 1;
			}
			/* pragmas go with this question; the next one starts with none */
			if ((err = hand_out(r, qn, s)))
				return err;
			*out = &s->q;
			return 1;
		}
	}
	r->done = 1;
	flush_errors(r, 0, (unsigned long)-1, NULL);
	if (ret < 0 && !r->fatal && r->opts.on_diag) {
		r->opts.on_diag(r->opts.diag_ctx, r->path,
				(unsigned long)xmlTextReaderGetParserLineNumber(r->xr),
				QB_RULE_XML_SYNTAX, NULL, "the file could not be parsed");
	}
	return 0;
}
