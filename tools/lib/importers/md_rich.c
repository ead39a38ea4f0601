/* A small Markdown subset (GIFT's [markdown] texts) as HTML, which the
 * HTML converter (html_rich.h) then maps to the bank's rich text; the
 * subset is listed in README.md. Nothing is kept between calls. */
#include <string.h>

#include "../core/buf.h"
#include "../error.h"
#include "importers.h"

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

int qb_imp_markdown_html(struct qb_buf *out, const char *md, size_t len)
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
		rc = qb_buf_add(out, h.ptr ? h.ptr : "", h.len) ? QB_ENOMEM : 0;
	else
		rc = QB_ENOMEM;
	qb_buf_dispose(&h);
	qb_buf_dispose(&para);
	return rc;
}
