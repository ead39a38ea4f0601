/* HTML, and a small Markdown subset, as the bank's rich-text markup (see
 * importers.h and README.md): libxml2's HTML parser reads the HTML, a walk
 * over its tree writes the bank's elements, and libxml2 escapes the text
 * (xmlEncodeSpecialChars); nothing is pasted through. */
#include <string.h>

#include <libxml/HTMLparser.h>
#include <libxml/entities.h>

#include "../core/buf.h"
#include "importers.h"

/* Where a node sits: what the bank's schema lets it hold. */
enum where {
	W_BLOCK,    /* stem, feedback: inline markup plus p, pre, ul, ol */
	W_LI,       /* li: inline markup plus nested lists */
	W_INLINE    /* option text, premise, p, em, ...: inline markup only */
};

struct walk {
	struct qb_buf *out;
	struct qb_buf *dropped;
	int rc;
};

/* HTML elements with a bank equivalent, sorted by name. BLOCK: allowed
 * only where blocks are (p, pre, ul, ol) or inside lists (li). */
static const struct {
	const char *html;
	const char *bank;
	int block;
} map[] = {
	{ "b", "strong", 0 }, { "br", "br", 0 }, { "code", "code", 0 }, { "em", "em", 0 },
	{ "i", "em", 0 }, { "kbd", "code", 0 }, { "li", "li", 1 }, { "ol", "ol", 1 },
	{ "p", "p", 1 }, { "pre", "pre", 1 }, { "samp", "code", 0 }, { "strong", "strong", 0 },
	{ "sub", "sub", 0 }, { "sup", "sup", 0 }, { "tt", "code", 0 }, { "ul", "ul", 1 },
};

/* Elements whose content is no text of the question. */
static const char *const skipped[] = { "head", "script", "style", "template", "title" };

static void add(struct walk *w, const char *s)
{
	if (!w->rc && qb_buf_adds(w->out, s))
		w->rc = QB_ENOMEM;
}

static void add_text(struct walk *w, const char *s, size_t n)
{
	xmlChar *copy = xmlStrndup(BAD_CAST s, (int)n);
	xmlChar *e = copy ? xmlEncodeSpecialChars(NULL, copy) : NULL;

	if (!e)
		w->rc = QB_ENOMEM;
	else
		add(w, (const char *)e);
	xmlFree(e);
	xmlFree(copy);
}

/* Names an element that had no equivalent, once. */
static void drop(struct walk *w, const char *name)
{
	size_t n = strlen(name);
	const char *p = w->dropped->ptr;

	while (p && (p = strstr(p, name)) != NULL) {
		if ((p == w->dropped->ptr || p[-1] == ' ') && (p[n] == ',' || !p[n]))
			return;
		p += n;
	}
	if (w->dropped->len && qb_buf_adds(w->dropped, ", "))
		w->rc = QB_ENOMEM;
	if (qb_buf_adds(w->dropped, name))
		w->rc = QB_ENOMEM;
}

/* Text with TeX delimiters \( \), \[ \] and $$ $$ as <math>. */
static void text_math(struct walk *w, const char *s)
{
	while (*s && !w->rc) {
		const char *open = NULL, *close = NULL, *end = NULL;
		const char *p;
		int display = 0;

		for (p = s; *p && !open; p++)
			if (p[0] == '\\' && (p[1] == '(' || p[1] == '['))
				open = p;
			else if (p[0] == '$' && p[1] == '$')
				open = p;
		if (open) {
			const char *want = open[0] == '$' ? "$$" : open[1] == '(' ? "\\)" : "\\]";

			display = open[0] == '$' || open[1] == '[';
			close = strstr(open + 2, want);
			end = close ? close + 2 : NULL;
		}
		if (!open || !close) {
			add_text(w, s, strlen(s));
			return;
		}
		add_text(w, s, (size_t)(open - s));
		add(w, display ? "<math display=\"block\">" : "<math>");
		add_text(w, open + 2, (size_t)(close - open - 2));
		add(w, "</math>");
		s = end;
	}
}

static void walk_children(struct walk *w, const xmlNode *n, enum where where);

static void text_only(struct walk *w, const xmlNode *n)
{
	xmlChar *c = xmlNodeGetContent((xmlNodePtr)n);

	if (c)
		add_text(w, (const char *)c, strlen((const char *)c));
	xmlFree(c);
}

static int find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (strcmp(map[i].html, name) == 0)
			return (int)i;
	return -1;
}

/* The language of <pre class="language-X">, as the exporters write it. */
static void pre_lang(struct walk *w, const xmlNode *n)
{
	xmlChar *c = xmlGetProp((xmlNodePtr)n, BAD_CAST "class");
	const char *l = c ? strstr((const char *)c, "language-") : NULL;

	if (l) {
		size_t k = strcspn(l + 9, " \t\n");
		xmlChar *v = xmlStrndup(BAD_CAST l + 9, (int)k);
		xmlChar *e = v ? xmlEncodeSpecialChars(NULL, v) : NULL;

		if (e && k) {
			add(w, " lang=\"");
			add(w, (const char *)e);
			add(w, "\"");
		}
		xmlFree(e);
		xmlFree(v);
	}
	xmlFree(c);
}

static void element(struct walk *w, const xmlNode *n, enum where where)
{
	const char *name = (const char *)n->name;
	int i = find(name);
	size_t k;

	for (k = 0; k < sizeof(skipped) / sizeof(skipped[0]); k++)
		if (strcmp(name, skipped[k]) == 0) {
			drop(w, name);
			return;
		}
	if (strcmp(name, "html") == 0 || strcmp(name, "body") == 0) {
		walk_children(w, n, where);
		return;
	}
	if (strcmp(name, "img") == 0) {
		/* an image file is not in the text: its alternative text stays */
		xmlChar *alt = xmlGetProp((xmlNodePtr)n, BAD_CAST "alt");

		if (alt)
			add_text(w, (const char *)alt, strlen((const char *)alt));
		xmlFree(alt);
		drop(w, name);
		return;
	}
	if (i < 0) {
		/* span and div without attributes are only containers */
		if (!((strcmp(name, "span") == 0 || strcmp(name, "div") == 0) && !n->properties))
			drop(w, name);
		walk_children(w, n, where);
		return;
	}
	if (map[i].block && (where == W_INLINE || (where == W_LI && (strcmp(name, "p") == 0 ||
								    strcmp(name, "pre") == 0)))) {
		/* a block where the bank takes inline markup only: its content */
		drop(w, name);
		if (strcmp(name, "pre") == 0) {
			add(w, "<code>");
			text_only(w, n);
			add(w, "</code>");
		} else {
			walk_children(w, n, where);
			if (strcmp(name, "p") == 0 || strcmp(name, "li") == 0)
				add(w, " ");
		}
		return;
	}
	if (strcmp(name, "li") == 0 && where != W_LI) {
		/* li outside a list: its content */
		walk_children(w, n, where);
		return;
	}
	add(w, "<");
	add(w, map[i].bank);
	if (strcmp(name, "pre") == 0)
		pre_lang(w, n);
	if (strcmp(name, "br") == 0) {
		add(w, "/>");
		return;
	}
	add(w, ">");
	if (strcmp(map[i].bank, "code") == 0 || strcmp(name, "pre") == 0) {
		text_only(w, n);
	} else if (strcmp(name, "ul") == 0 || strcmp(name, "ol") == 0) {
		const xmlNode *c;

		for (c = n->children; c && !w->rc; c = c->next)
			if (c->type == XML_ELEMENT_NODE && strcmp((const char *)c->name, "li") == 0) {
				add(w, "<li>");
				walk_children(w, c, W_LI);
				add(w, "</li>");
			} else if (c->type == XML_ELEMENT_NODE) {
				drop(w, (const char *)c->name);
			}
	} else {
		walk_children(w, n, strcmp(name, "li") == 0 ? W_LI : W_INLINE);
	}
	add(w, "</");
	add(w, map[i].bank);
	add(w, ">");
}

static void walk_children(struct walk *w, const xmlNode *n, enum where where)
{
	const xmlNode *c;

	for (c = n->children; c && !w->rc; c = c->next) {
		if (c->type == XML_TEXT_NODE || c->type == XML_CDATA_SECTION_NODE)
			text_math(w, (const char *)c->content);
		else if (c->type == XML_ELEMENT_NODE)
			element(w, c, where);
	}
}

int qb_imp_html_rich(struct qb_buf *out, const char *html, size_t len, int block,
		     struct qb_buf *dropped)
{
	struct walk w = { out, dropped, 0 };
	htmlDocPtr doc;

	if (qb_buf_grow(out, 0) || qb_buf_grow(dropped, 0))
		return QB_ENOMEM;
	if (!len)
		return 0;
	/* wrapped in a div, so that leading text is not put in an implied <p> */
	{
		struct qb_buf wrap = QB_BUF_INIT;

		if (qb_buf_adds(&wrap, "<div>") || qb_buf_add(&wrap, html, len) ||
		    qb_buf_adds(&wrap, "</div>")) {
			qb_buf_dispose(&wrap);
			return QB_ENOMEM;
		}
		doc = htmlReadMemory(wrap.ptr, (int)wrap.len, NULL, "UTF-8",
				     HTML_PARSE_NONET | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING |
				     HTML_PARSE_NOIMPLIED | HTML_PARSE_NODEFDTD);
		qb_buf_dispose(&wrap);
	}
	if (!doc)
		return QB_ENOMEM;
	{
		xmlNodePtr root = xmlDocGetRootElement(doc);

		if (root && strcmp((const char *)root->name, "div") == 0 && !root->properties)
			walk_children(&w, root, block ? W_BLOCK : W_INLINE);
		else if (root)
			walk_children(&w, (xmlNodePtr)doc, block ? W_BLOCK : W_INLINE);
	}
	xmlFreeDoc(doc);
	return w.rc;
}

/* ---- Markdown ------------------------------------------------------------ */

/* Inline Markdown of one line or paragraph into HTML: `code`, **strong**,
 * *em*, _em_, backslash escapes; everything else is left to the HTML
 * parser (Markdown passes HTML through). */
static int md_inline(struct qb_buf *h, const char *s, size_t n)
{
	size_t i;
	int rc = 0, em = 0, strong = 0, under = 0;

	for (i = 0; i < n && !rc; i++) {
		char c = s[i];

		if (c == '\\' && i + 1 < n && strchr("\\`*_{}[]()#+-.!", s[i + 1]) &&
		    s[i + 1] != '(' && s[i + 1] != ')' && s[i + 1] != '[' && s[i + 1] != ']') {
			rc = qb_buf_addc(h, s[++i]);
		} else if (c == '`') {
			const char *e = memchr(s + i + 1, '`', n - i - 1);

			if (!e) {
				rc = qb_buf_addc(h, c);
				continue;
			}
			rc = qb_buf_adds(h, "<code>");
			for (i++; !rc && s + i < e; i++)
				rc = s[i] == '<' ? qb_buf_adds(h, "&lt;") : s[i] == '&'
				     ? qb_buf_adds(h, "&amp;") : qb_buf_addc(h, s[i]);
			if (!rc)
				rc = qb_buf_adds(h, "</code>");
		} else if (c == '*' && i + 1 < n && s[i + 1] == '*') {
			rc = qb_buf_adds(h, strong ? "</strong>" : "<strong>");
			strong = !strong;
			i++;
		} else if (c == '*' && (em || (i + 1 < n && s[i + 1] != ' '))) {
			rc = qb_buf_adds(h, em ? "</em>" : "<em>");
			em = !em;
		} else if (c == '_' && (under ? (i + 1 == n || !((s[i + 1] | 32) >= 'a' && (s[i + 1] | 32) <= 'z'))
				       : (i == 0 || s[i - 1] == ' ') && i + 1 < n && s[i + 1] != ' ')) {
			rc = qb_buf_adds(h, under ? "</em>" : "<em>");
			under = !under;
		} else {
			rc = qb_buf_addc(h, c);
		}
	}
	if (!rc && under)
		rc = qb_buf_adds(h, "</em>");
	if (!rc && em)
		rc = qb_buf_adds(h, "</em>");
	if (!rc && strong)
		rc = qb_buf_adds(h, "</strong>");
	return rc ? QB_ENOMEM : 0;
}

static size_t list_marker(const char *s, size_t n, int *ordered)
{
	size_t i = 0;

	if (n >= 2 && (s[0] == '-' || s[0] == '*' || s[0] == '+') && s[1] == ' ') {
		*ordered = 0;
		return 2;
	}
	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++;
	if (i && i + 1 < n && s[i] == '.' && s[i + 1] == ' ') {
		*ordered = 1;
		return i + 2;
	}
	return 0;
}

int qb_imp_markdown_rich(struct qb_buf *out, const char *md, size_t len, int block,
			 struct qb_buf *dropped)
{
	struct qb_buf h = QB_BUF_INIT, para = QB_BUF_INIT;
	const char *p = md, *end = md + len;
	int rc = 0, list = -1, fence = 0, paras = 0, single;

	/* one paragraph without blocks stays inline text */
	single = !strstr(md, "\n\n") && !strstr(md, "```");
	while (p < end && !rc) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p), m;
		int ordered = 0;

		if (n >= 3 && !memcmp(p, "```", 3)) {
			if (para.len) {
				rc = qb_buf_adds(&h, "<p>") || md_inline(&h, para.ptr, para.len) ||
				     qb_buf_adds(&h, "</p>");
				qb_buf_clear(&para);
			}
			if (!rc && !fence) {
				rc = qb_buf_adds(&h, "<pre");
				if (!rc && n > 3)
					rc = qb_buf_adds(&h, " class=\"language-") ||
					     qb_buf_add(&h, p + 3, n - 3) || qb_buf_adds(&h, "\"");
				if (!rc)
					rc = qb_buf_adds(&h, ">");
			} else if (!rc) {
				rc = qb_buf_adds(&h, "</pre>");
			}
			fence = !fence;
		} else if (fence) {
			size_t i;

			for (i = 0; i < n && !rc; i++)
				rc = p[i] == '<' ? qb_buf_adds(&h, "&lt;") : p[i] == '&'
				     ? qb_buf_adds(&h, "&amp;") : qb_buf_addc(&h, p[i]);
			if (!rc)
				rc = qb_buf_addc(&h, '\n');
		} else if ((m = list_marker(p, n, &ordered)) != 0) {
			if (para.len) {
				rc = qb_buf_adds(&h, "<p>") || md_inline(&h, para.ptr, para.len) ||
				     qb_buf_adds(&h, "</p>");
				qb_buf_clear(&para);
			}
			if (!rc && list != ordered) {
				if (list >= 0)
					rc = qb_buf_adds(&h, list ? "</ol>" : "</ul>");
				if (!rc)
					rc = qb_buf_adds(&h, ordered ? "<ol>" : "<ul>");
				list = ordered;
			}
			if (!rc)
				rc = qb_buf_adds(&h, "<li>") || md_inline(&h, p + m, n - m) ||
				     qb_buf_adds(&h, "</li>");
			single = 0;
		} else if (n == 0) {
			if (list >= 0)
				rc = qb_buf_adds(&h, list ? "</ol>" : "</ul>");
			list = -1;
			if (!rc && para.len) {
				rc = single ? md_inline(&h, para.ptr, para.len)
				     : qb_buf_adds(&h, "<p>") || md_inline(&h, para.ptr, para.len) ||
				       qb_buf_adds(&h, "</p>");
				paras++;
				qb_buf_clear(&para);
			}
		} else {
			if (list >= 0) {
				rc = qb_buf_adds(&h, list ? "</ol>" : "</ul>");
				list = -1;
			}
			if (!rc && para.len)
				rc = qb_buf_addc(&para, ' ');
			if (!rc)
				rc = qb_buf_add(&para, p, n);
		}
		p = nl ? nl + 1 : end;
	}
	if (!rc && fence)
		rc = qb_buf_adds(&h, "</pre>");
	if (!rc && list >= 0)
		rc = qb_buf_adds(&h, list ? "</ol>" : "</ul>");
	if (!rc && para.len)
		rc = single ? md_inline(&h, para.ptr, para.len)
		     : qb_buf_adds(&h, "<p>") || md_inline(&h, para.ptr, para.len) ||
		       qb_buf_adds(&h, "</p>");
	(void)paras;
	if (!rc)
		rc = qb_imp_html_rich(out, h.ptr ? h.ptr : "", h.len, block, dropped);
	else
		rc = QB_ENOMEM;
	qb_buf_dispose(&h);
	qb_buf_dispose(&para);
	return rc;
}
