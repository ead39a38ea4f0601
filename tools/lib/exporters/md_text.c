/* Rich text to Pandoc Markdown. Bank text is literal: every character that
 * Pandoc's Markdown reader, its smart typography or LaTeX would turn into
 * something else is backslash-escaped (Pandoc's Markdown takes a backslash
 * before any ASCII punctuation as that character); only the markup
 * elements become Markdown. See md.h. */
#include "md.h"

#include <stdlib.h>
#include <string.h>

#include "../error.h"
#include "../imgpath.h"
#include "../richtext.h"
#include "../text.h"

#define MAX_DEPTH 64       /* rich text nests far less; guards hostile trees */
#define MAX_LIST_DEPTH 3   /* LaTeX allows four enumerate levels; options use one */

static int is(const xmlNode *n, const char *name)
{
	return n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name) == 0;
}

static int is_space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static int is_alnum(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

/* Length of a C0 or C1 control character (or DEL) at S, 0 when S is none:
 * XML allows some of them, YAML and LaTeX choke on them, nobody sees them. */
static size_t control_len(const unsigned char *s, size_t n)
{
	if ((s[0] < 0x20 && !is_space(s[0])) || s[0] == 0x7f)
		return 1;
	if (n >= 2 && s[0] == 0xc2 && s[1] >= 0x80 && s[1] <= 0x9f)
		return 2;
	return 0;
}

static int buf_insert(struct qb_buf *b, size_t at, const char *s)
{
	size_t n = strlen(s);
	int rc = qb_buf_grow(b, n);

	if (rc)
		return rc;
	memmove(b->ptr + at + n, b->ptr + at, b->len - at + 1);
	memcpy(b->ptr + at, s, n);
	b->len += n;
	return 0;
}

/* ---- paths -------------------------------------------------------------- */

static char *dir_real(const char *file)
{
	const char *slash = strrchr(file, '/');
	char *dir, *real;

	if (!slash)
		dir = strdup(".");
	else if (slash == file)
		dir = strdup("/");
	else
		dir = strndup(file, (size_t)(slash - file));
	if (!dir)
		return NULL;
	real = realpath(dir, NULL);
	free(dir);
	return real;
}

int md_paths_output(struct md_paths *p, const char *output)
{
	free(p->out_dir);
	p->out_dir = dir_real(!output || strcmp(output, "-") == 0 ? "./-" : output);
	return 0;   /* unresolved: image paths are kept as written */
}

int md_paths_bank(struct md_paths *p, const char *file)
{
	if (p->bank_file && strcmp(p->bank_file, file) == 0)
		return 0;
	free(p->bank_file);
	free(p->bank_dir);
	p->bank_dir = dir_real(file);
	p->bank_file = strdup(file);
	return p->bank_file ? 0 : QB_ENOMEM;
}

void md_paths_dispose(struct md_paths *p)
{
	free(p->out_dir);
	free(p->bank_dir);
	free(p->bank_file);
	p->out_dir = p->bank_dir = p->bank_file = NULL;
}

/* Appends the segments of absolute path S to the normalised path in OUT
 * ("." dropped, ".." removes the previous segment). */
static int push_segments(struct qb_buf *out, const char *s)
{
	int rc = 0;

	while (*s && !rc) {
		const char *e;
		size_t n;

		while (*s == '/')
			s++;
		e = strchr(s, '/');
		n = e ? (size_t)(e - s) : strlen(s);
		if (n == 0)
			break;
		if (n == 1 && s[0] == '.') {
			/* nothing */
		} else if (n == 2 && s[0] == '.' && s[1] == '.') {
			char *slash = out->ptr ? strrchr(out->ptr, '/') : NULL;

			if (slash) {
				out->len = (size_t)(slash - out->ptr);
				out->ptr[out->len] = '\0';
			}
		} else {
			rc = qb_buf_addc(out, '/');
			if (!rc)
				rc = qb_buf_add(out, s, n);
		}
		s += n;
	}
	return rc;
}

/* SRC of an img, relative to the bank file's folder, as a path relative to
 * the output's folder. Absolute paths and URLs stay as they are. */
static int img_path(struct qb_buf *out, const struct md_paths *p, const char *src)
{
	struct qb_buf target = QB_BUF_INIT;
	const char *a, *b;
	size_t common = 0, i;
	int rc = 0;

	for (i = 0; is_alnum((unsigned char)src[i]) || src[i] == '+' || src[i] == '.' || src[i] == '-'; i++)
		;
	if (!p->out_dir || !p->bank_dir || src[0] == '/' || (i > 0 && src[i] == ':' &&
	    !(src[0] >= '0' && src[0] <= '9')))
		return qb_buf_adds(out, src);
	rc = push_segments(&target, p->bank_dir);
	if (!rc)
		rc = push_segments(&target, src);
	if (rc || !target.ptr)
		goto done;
	/* the longest common prefix of whole segments */
	a = strcmp(p->out_dir, "/") == 0 ? "" : p->out_dir;
	b = target.ptr;
	for (i = 0; a[i] && a[i] == b[i]; i++)
		if (a[i] == '/')
			common = i;
	if (!a[i] && (b[i] == '/' || !b[i]))
		common = i;
	for (a += common; *a && !rc; a++)
		if (*a == '/')
			rc = qb_buf_adds(out, "../");
	if (!rc)
		rc = qb_buf_adds(out, target.ptr + common + (target.ptr[common] == '/'));
done:
	qb_buf_dispose(&target);
	return rc;
}

/* ---- inline ------------------------------------------------------------- */

/* One run of inline Markdown being built: a paragraph, an option's text. */
struct inl {
	struct qb_buf *out;
	const struct md_paths *paths;
	size_t line;          /* where the current output line starts */
	size_t opened;        /* just after the last opening marker, or SIZE_MAX */
	size_t math_at, math_end;   /* the last inline math, to guard a digit after it */
	int space, brk;       /* a space / a hard line break is pending */
	int em, strong, sub, sup;
	int nimg, nother;     /* what the run holds: a lone image would become a figure */
	int depth;
};

/* Whether the N characters at S could number an ordered list: digits, one
 * letter, or a Roman numeral (fancy_lists). */
static int list_number(const char *s, size_t n)
{
	size_t d = strspn(s, "0123456789"), lo = strspn(s, "ivxlcdm"), up = strspn(s, "IVXLCDM");

	return n == 1 || d >= n || lo >= n || up >= n;
}

/* A line that starts with text Pandoc would read as a block marker (a
 * list, a definition, a setext underline, an ordered list's "1." or "a.")
 * gets that marker escaped. Everything else that could start a block (*,
 * #, >, |, %, ~, `) is escaped wherever it occurs. */
static int fix_line_start(struct qb_buf *out, size_t line)
{
	const char *s;
	size_t i;

	if (line >= out->len)
		return 0;
	s = out->ptr + line;  /* only now: out->ptr is NULL while nothing was written */
	if (s[0] == '-' || s[0] == '+' || s[0] == '=' || s[0] == ':')
		return buf_insert(out, line, "\\");
	for (i = 0; is_alnum((unsigned char)s[i]); i++)
		;
	if (i > 0 && s[i] == '.' && (s[i + 1] == ' ' || s[i + 1] == '\n' || !s[i + 1]) &&
	    list_number(s, i))
		return buf_insert(out, line + i, "\\");
	return 0;
}

/* Emits what is pending before the next piece of content. */
static int flush(struct inl *s)
{
	int rc = 0;

	if (s->brk && s->out->len > s->line) {
		rc = fix_line_start(s->out, s->line);
		if (!rc)
			rc = qb_buf_adds(s->out, "\\\n");
		s->line = s->out->len;
		s->space = 0;
	}
	s->brk = 0;
	if (!rc && s->space && s->out->len > s->line && s->out->len != s->opened)
		rc = qb_buf_adds(s->out, s->sub || s->sup ? "\\ " : " ");
	s->space = 0;
	return rc;
}

/* ASCII punctuation that means something to Pandoc's Markdown (with its
 * default extensions: smart quotes, math, sub/superscript, citations,
 * raw HTML and TeX, spans...) or that TeX would print differently. */
static int always_escaped(unsigned char c)
{
	return c && strchr("\\*_#[]()<>|${}~^%&@`'\"", c) != NULL;
}

/* Bytes that need no decision of their own once the byte before them was
 * written: not white space or a control character, not escaped, not the
 * '-' or '.' of a dash or an ellipsis, not the 0xc2 that may start a C1
 * control. A digit qualifies too: it needs a guard only right after math,
 * and the byte before it was written after the math. */
static inline int plain_run_byte(unsigned char c)
{
	if (is_alnum(c) || (c >= 0x80 && c != 0xc2))
		return 1;   /* the usual case, decided without a call */
	return c > ' ' && c < 0x7f && c != '-' && c != '.' && !always_escaped(c);
}

/* The end of the stretch from T[I] on that add_text would write unchanged,
 * T[I - 1] being written already: plain bytes, a '-' or '.' that is no
 * part of "--" or "..", and single spaces between them (outside sub and
 * sup, where a space is escaped). *NSPACE counts the spaces. */
static size_t plain_run_end(const struct inl *s, const unsigned char *t, size_t i, size_t n,
			    size_t *nspace)
{
	int spaces = !s->sub && !s->sup;

	*nspace = 0;
	for (; i < n; i++) {
		unsigned char c = t[i];

		if (plain_run_byte(c))
			continue;
		if ((c == '-' || c == '.') && t[i - 1] != c && (i + 1 >= n || t[i + 1] != c))
			continue;
		if (c == ' ' && spaces && i + 1 < n && plain_run_byte(t[i + 1])) {
			(*nspace)++;
			continue;
		}
		break;
	}
	return i;
}

static int add_text(struct inl *s, const char *text, size_t n)
{
	const unsigned char *t = (const unsigned char *)text;
	size_t i, k, nspace;
	int rc = 0;

	for (i = 0; i < n && !rc; i++) {
		unsigned char c = t[i];

		if ((k = control_len(t + i, n - i)) > 0) {
			i += k - 1;
			continue;
		}
		if (is_space(c)) {
			s->space = 1;
			continue;
		}
		rc = flush(s);
		if (rc)
			break;
		/* "$x$5" is no math to Pandoc: a digit must not follow the closing $ */
		if (c >= '0' && c <= '9' && s->math_end == s->out->len && s->math_end > 0) {
			rc = buf_insert(s->out, s->math_at, "[");
			if (!rc)
				rc = qb_buf_adds(s->out, "]{}");
			if (rc)
				break;
		}
		s->nother++;
		if (always_escaped(c) ||
		    /* -- and ... would become dashes and an ellipsis */
		    (c == '-' && ((i + 1 < n && t[i + 1] == '-') || (i > 0 && t[i - 1] == '-'))) ||
		    (c == '.' && ((i + 1 < n && t[i + 1] == '.') || (i > 0 && t[i - 1] == '.'))))
			rc = qb_buf_addc(s->out, '\\');
		if (!rc)
			rc = qb_buf_addc(s->out, (char)c);
		/* what follows it unchanged, appended in one go */
		if (!rc && (k = plain_run_end(s, t, i + 1, n, &nspace)) > i + 1) {
			s->nother += (int)(k - i - 1 - nspace);
			rc = qb_buf_add(s->out, t + i + 1, k - i - 1);
			i = k - 1;
		}
	}
	return rc;
}

/* TeX source as Pandoc's $...$ needs it: comments removed (they end at the
 * line break that is about to become a space), white space collapsed, a
 * bare $ escaped (and # and &, below). */
static int tex_source(struct qb_buf *out, const char *s)
{
	int rc = 0, space = 0, env = 0;
	size_t i, start = out->len, n = strlen(s);

	for (i = 0; s[i] && !rc; i++) {
		unsigned char c = (unsigned char)s[i];
		size_t k;

		if ((k = control_len((const unsigned char *)s + i, n - i)) > 0) {
			i += k - 1;
			continue;
		}
		if (c == '%') {
			while (s[i + 1] && s[i + 1] != '\n')
				i++;
			space = 1;
			continue;
		}
		if (is_space(c)) {
			space = 1;
			continue;
		}
		if (space && out->len > start)
			rc = qb_buf_addc(out, ' ');
		space = 0;
		if (!rc && c == '\\' && s[i + 1]) {
			if (strncmp(s + i, "\\begin{", 7) == 0)
				env++;
			else if (strncmp(s + i, "\\end{", 5) == 0 && env > 0)
				env--;
			rc = qb_buf_add(out, s + i, 2);   /* \% \$ \\ stay as they are */
			i++;
			continue;
		}
		/* TeX stops with an error at a bare # in math, and at a bare &
		 * outside an alignment (matrix, cases, aligned): those two print
		 * as the characters; everything else is the author's TeX */
		if (!rc && (c == '$' || c == '#' || (c == '&' && env == 0)))
			rc = qb_buf_addc(out, '\\');
		if (!rc)
			rc = qb_buf_addc(out, (char)c);
	}
	return rc;
}

static int inl_children(struct inl *s, const xmlNode *n);

static int add_math(struct inl *s, const xmlNode *n)
{
	struct qb_buf src = QB_BUF_INIT, tex = QB_BUF_INIT;
	const char *delim = qb_rich_is_display_math(n) ? "$$" : "$";
	int rc;

	rc = qb_rich_text(&src, n);
	if (!rc && src.ptr)
		rc = tex_source(&tex, src.ptr);
	if (rc || tex.len == 0)
		goto done;
	rc = flush(s);
	if (rc)
		goto done;
	s->math_at = s->out->len;
	rc = qb_buf_adds(s->out, delim);
	if (!rc)
		rc = qb_buf_add(s->out, tex.ptr, tex.len);
	if (!rc)
		rc = qb_buf_adds(s->out, delim);
	s->math_end = delim[1] ? 0 : s->out->len;
	s->nother++;
done:
	qb_buf_dispose(&src);
	qb_buf_dispose(&tex);
	return rc;
}

static int add_code(struct inl *s, const xmlNode *n)
{
	struct qb_buf t = QB_BUF_INIT;
	size_t i, run = 0, longest = 0, start, end;
	int rc, pad;

	rc = qb_rich_text(&t, n);
	if (rc || !t.ptr)
		goto done;
	/* a code span is one line: line breaks and tabs become spaces */
	for (i = 0; i < t.len; i++) {
		if (t.ptr[i] == '\n' || t.ptr[i] == '\t' || t.ptr[i] == '\r' ||
		    control_len((const unsigned char *)t.ptr + i, 1))
			t.ptr[i] = ' ';
		run = t.ptr[i] == '`' ? run + 1 : 0;
		if (run > longest)
			longest = run;
	}
	for (start = 0; start < t.len && t.ptr[start] == ' '; start++)
		;
	for (end = t.len; end > start && t.ptr[end - 1] == ' '; end--)
		;
	if (start == end)
		goto done;
	rc = flush(s);
	if (rc)
		goto done;
	/* a fence longer than any backtick run inside; a space keeps a fence
	 * apart from a backtick at either end (Pandoc strips it again) */
	pad = t.ptr[start] == '`' || t.ptr[end - 1] == '`';
	for (i = 0; i <= longest && !rc; i++)
		rc = qb_buf_addc(s->out, '`');
	if (!rc && pad)
		rc = qb_buf_addc(s->out, ' ');
	if (!rc)
		rc = qb_buf_add(s->out, t.ptr + start, end - start);
	if (!rc && pad)
		rc = qb_buf_addc(s->out, ' ');
	for (i = 0; i <= longest && !rc; i++)
		rc = qb_buf_addc(s->out, '`');
	s->nother++;
done:
	qb_buf_dispose(&t);
	return rc;
}

static int add_img(struct inl *s, const xmlNode *n)
{
	const char *src = qb_text_attr(n, "src"), *alt = qb_text_attr(n, "alt"), *width = qb_text_attr(n, "width");
	struct qb_buf path = QB_BUF_INIT;
	struct inl a;
	size_t i;
	int rc;

	if (!src)
		return 0;
	rc = flush(s);
	if (rc)
		return rc;
	if (s->paths && s->paths->bank_file) {
		/* Never hand pandoc a path outside the bank's folder or a URL, even
		 * with the img rules turned off: print the alt text instead. */
		char *resolved = NULL;
		const char *why = NULL;
		int v = qb_img_path_check(s->paths->bank_file, src, &resolved, &why);

		free(resolved);
		if (v < 0)
			return v;
		if (v == QB_IMG_UNSAFE)
			return alt ? add_text(s, alt, strlen(alt)) : 0;
	}
	rc = img_path(&path, s->paths, src);
	if (!rc)
		rc = qb_buf_adds(s->out, "![");
	if (!rc && alt) {
		memset(&a, 0, sizeof(a));
		a.out = s->out;
		a.line = 0;          /* inside brackets: no line start to defuse */
		a.opened = s->out->len;
		a.math_end = 0;
		rc = add_text(&a, alt, strlen(alt));
	}
	if (!rc)
		rc = qb_buf_adds(s->out, "](<");
	for (i = 0; !rc && path.ptr && path.ptr[i]; i++) {
		if (strchr("<>\\", path.ptr[i]))
			rc = qb_buf_addc(s->out, '\\');
		if (!rc)
			rc = qb_buf_addc(s->out, path.ptr[i]);
	}
	if (!rc)
		rc = qb_buf_adds(s->out, ">)");
	if (!rc && width && width[0] && strspn(width, "0123456789") == strlen(width))
		rc = qb_buf_printf(s->out, "{width=%spx}", width);
	s->nimg++;
	qb_buf_dispose(&path);
	return rc;
}

/* em, strong, sub, sup: MARK around the children. The same mark cannot nest
 * in Pandoc's Markdown (and would mean nothing), so an inner one is
 * dropped; white space at either end moves outside the marks. */
static int add_marked(struct inl *s, const xmlNode *n, int *level, const char *mark)
{
	size_t at, saved = s->opened;
	int rc;

	if (*level)
		return inl_children(s, n);
	rc = flush(s);
	if (rc)
		return rc;
	at = s->out->len;
	/* "**a**" then "*b*" would read as "**a***b*": keep them apart */
	if (at > s->line && s->out->ptr[at - 1] == mark[0] &&
	    (at < 2 || s->out->ptr[at - 2] != '\\')) {
		rc = qb_buf_adds(s->out, "[]{}");
		at = s->out->len;
	}
	if (!rc)
		rc = qb_buf_adds(s->out, mark);
	if (rc)
		return rc;
	s->opened = s->out->len;
	(*level)++;
	rc = inl_children(s, n);
	(*level)--;
	if (!rc) {
		if (s->out->len == s->opened) {
			s->out->len = at;            /* nothing inside: no marks */
			s->out->ptr[at] = '\0';
		} else {
			rc = qb_buf_adds(s->out, mark);
		}
	}
	s->opened = saved;
	return rc;
}

static int inl_node(struct inl *s, const xmlNode *c)
{
	const char *name;

	if (c->type == XML_TEXT_NODE || c->type == XML_CDATA_SECTION_NODE)
		return c->content ? add_text(s, (const char *)c->content,
					     strlen((const char *)c->content)) : 0;
	if (c->type != XML_ELEMENT_NODE)
		return 0;
	name = (const char *)c->name;
	if (strcmp(name, "em") == 0)
		return add_marked(s, c, &s->em, "*");
	if (strcmp(name, "strong") == 0)
		return add_marked(s, c, &s->strong, "**");
	if (strcmp(name, "sub") == 0)
		return add_marked(s, c, &s->sub, "~");
	if (strcmp(name, "sup") == 0)
		return add_marked(s, c, &s->sup, "^");
	if (strcmp(name, "code") == 0)
		return add_code(s, c);
	if (strcmp(name, "math") == 0)
		return add_math(s, c);
	if (strcmp(name, "img") == 0)
		return add_img(s, c);
	if (strcmp(name, "br") == 0) {
		s->brk = 1;
		s->space = 0;
		return 0;
	}
	return inl_children(s, c);   /* anything else cannot pass the schema: keep its text */
}

static int inl_children(struct inl *s, const xmlNode *n)
{
	const xmlNode *c;
	int rc = 0;

	if (++s->depth > MAX_DEPTH) {
		s->depth--;
		return 0;
	}
	for (c = n->children; c && !rc; c = c->next)
		rc = inl_node(s, c);
	s->depth--;
	return rc;
}

static void inl_init(struct inl *s, struct qb_buf *out, const struct md_paths *p)
{
	memset(s, 0, sizeof(*s));
	s->out = out;
	s->paths = p;
	s->line = out->len;
	s->opened = (size_t)-1;
}

/* Closes the run: the last line's start defused, and a lone image kept
 * inline (Pandoc would make it a floating figure, which cannot go into a
 * question's box). */
static int inl_finish(struct inl *s)
{
	int rc = fix_line_start(s->out, s->line);

	if (!rc && s->nimg == 1 && s->nother == 0)
		rc = qb_buf_adds(s->out, "\\ ");
	return rc;
}

int md_plain(struct qb_buf *out, const char *text, size_t n)
{
	struct inl s;
	int rc;

	inl_init(&s, out, NULL);
	rc = add_text(&s, text, n);
	return rc ? rc : inl_finish(&s);
}

int md_inline(struct qb_buf *out, const xmlNode *n, const struct md_paths *p)
{
	struct inl s;
	int rc;

	if (!n)
		return 0;
	inl_init(&s, out, p);
	rc = inl_children(&s, n);
	return rc ? rc : inl_finish(&s);
}

/* ---- blocks ------------------------------------------------------------- */

struct blk {
	struct qb_buf *out;
	const struct md_paths *paths;
	struct qb_buf para;       /* the paragraph being built */
	struct inl s;
	int in_para;
	int nblocks;
	int last_list;            /* 'u' or 'o' when the last block was that list */
	int lead_para;            /* the first block is a paragraph */
	int list_depth;
};

static int blk_add(struct blk *b, const char *s, size_t n, int list)
{
	int rc = 0;

	if (b->nblocks > 0)
		rc = qb_buf_adds(b->out, "\n\n");
	/* two lists of one kind in a row would merge into one */
	if (!rc && list && list == b->last_list)
		rc = qb_buf_adds(b->out, "<!-- -->\n\n");
	if (!rc)
		rc = qb_buf_add(b->out, s, n);
	b->nblocks++;
	b->last_list = list;
	return rc;
}

static int para_end(struct blk *b)
{
	int rc = 0;

	if (!b->in_para)
		return 0;
	b->in_para = 0;
	rc = inl_finish(&b->s);
	if (!rc && b->para.len > 0) {
		if (b->nblocks == 0)
			b->lead_para = 1;
		rc = blk_add(b, b->para.ptr, b->para.len, 0);
	}
	qb_buf_clear(&b->para);
	return rc;
}

static int para_node(struct blk *b, const xmlNode *c)
{
	if (!b->in_para) {
		qb_buf_clear(&b->para);
		inl_init(&b->s, &b->para, b->paths);
		b->in_para = 1;
	}
	return inl_node(&b->s, c);
}

static int pre_block(struct blk *b, const xmlNode *n)
{
	struct qb_buf t = QB_BUF_INIT, out = QB_BUF_INIT;
	const char *lang = qb_text_attr(n, "lang");
	size_t i, run = 0, longest = 0, start = 0, end;
	int rc;

	rc = qb_rich_text(&t, n);
	if (rc)
		goto done;
	if (t.ptr && t.ptr[0] == '\r')
		start++;
	if (t.ptr && t.ptr[start] == '\n')
		start++;     /* the line break after <pre> belongs to the markup */
	/* a qb_buf with len > 0 has ptr (buf.h): an empty <pre> has len 0, no loop runs */
	/* NOLINTNEXTLINE(clang-analyzer-core.NullDereference) */
	for (end = t.len; end > start && is_space((unsigned char)t.ptr[end - 1]); end--)
		;
	for (i = start; i < end; i++) {
		run = t.ptr[i] == '`' ? run + 1 : 0;
		if (run > longest)
			longest = run;
	}
	if (longest < 2)
		longest = 2;
	for (i = 0; i <= longest && !rc; i++)
		rc = qb_buf_addc(&out, '`');
	/* the language becomes a class: only a plain word */
	if (!rc && lang && is_alnum((unsigned char)lang[0]) &&
	    strspn(lang, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_+#.-") == strlen(lang))
		rc = qb_buf_adds(&out, lang);
	if (!rc)
		rc = qb_buf_addc(&out, '\n');
	for (i = start; i < end && !rc; i++) {
		size_t k = control_len((const unsigned char *)t.ptr + i, end - i);

		if (k > 0 && t.ptr[i] != '\t') {
			i += k - 1;
			continue;
		}
		if (t.ptr[i] == '\r')
			continue;
		rc = qb_buf_addc(&out, t.ptr[i]);
	}
	if (!rc && end > start)
		rc = qb_buf_addc(&out, '\n');
	for (i = 0; i <= longest && !rc; i++)
		rc = qb_buf_addc(&out, '`');
	if (!rc)
		rc = blk_add(b, out.ptr, out.len, 0);
done:
	qb_buf_dispose(&t);
	qb_buf_dispose(&out);
	return rc;
}

static int list_block(struct qb_buf *out, const xmlNode *l, int depth, const struct md_paths *p);

/* A list item: its inline text as the first line, nested lists right
 * under it (a tight list), later text as further paragraphs. Lists nested
 * deeper than LaTeX can take become paragraphs that start with a dash. */
static int li_body(struct qb_buf *out, const xmlNode *li, int depth, const struct md_paths *p)
{
	struct qb_buf part = QB_BUF_INIT;
	const xmlNode *c;
	struct inl s;
	int rc = 0, in_text = 0, last = 0;   /* last: 1 text, 2 list */

	for (c = li->children; c && !rc; c = c->next) {
		int list = is(c, "ul") || is(c, "ol");

		if (!list) {
			if (!in_text) {
				qb_buf_clear(&part);
				inl_init(&s, &part, p);
				in_text = 1;
			}
			rc = inl_node(&s, c);
			continue;
		}
		if (in_text) {
			in_text = 0;
			rc = inl_finish(&s);
			if (!rc && part.len) {
				rc = qb_buf_adds(out, last ? "\n\n" : "");
				if (!rc)
					rc = qb_buf_add(out, part.ptr, part.len);
				last = 1;
			}
		}
		qb_buf_clear(&part);
		if (!rc && depth + 1 < MAX_LIST_DEPTH) {
			rc = list_block(&part, c, depth + 1, p);
		} else if (!rc) {
			const xmlNode *d;

			for (d = c->children; d && !rc; d = d->next) {
				if (!is(d, "li"))
					continue;
				if (part.len)
					rc = qb_buf_adds(&part, "\n\n");
				if (!rc)
					rc = qb_buf_adds(&part, "\xe2\x80\x93 ");   /* en dash */
				if (!rc)
					rc = md_inline(&part, d, p);
			}
		}
		if (!rc && part.len) {
			rc = qb_buf_adds(out, last == 1 ? "\n" : last ? "\n\n" : "");
			if (!rc)
				rc = qb_buf_add(out, part.ptr, part.len);
			last = 2;
		}
	}
	if (!rc && in_text) {
		rc = inl_finish(&s);
		if (!rc && part.len) {
			rc = qb_buf_adds(out, last ? "\n\n" : "");
			if (!rc)
				rc = qb_buf_add(out, part.ptr, part.len);
		}
	}
	if (!rc && out->len == 0)
		rc = qb_buf_adds(out, "\\ ");   /* an empty item still holds its place */
	qb_buf_dispose(&part);
	return rc;
}

/* Markers are padded to four columns so that continuation lines indented
 * by four spaces belong to the item, whatever the marker's width. */
static int list_block(struct qb_buf *out, const xmlNode *l, int depth, const struct md_paths *p)
{
	struct qb_buf body = QB_BUF_INIT, ind = QB_BUF_INIT;
	const xmlNode *li;
	int ordered = is(l, "ol"), k = 0, rc = 0;

	for (li = l->children; li && !rc; li = li->next) {
		char marker[32];
		const char *nl;

		if (!is(li, "li"))
			continue;
		k++;
		qb_buf_clear(&body);
		qb_buf_clear(&ind);
		rc = li_body(&body, li, depth, p);
		if (rc)
			break;
		if (ordered)
			snprintf(marker, sizeof(marker), "%d.", k);
		else
			snprintf(marker, sizeof(marker), "-");
		rc = qb_buf_printf(out, "%s%-*s", k > 1 ? "\n" : "", strlen(marker) < 4 ? 4 : (int)strlen(marker) + 1, marker);
		nl = strchr(body.ptr, '\n');
		if (!rc)
			rc = qb_buf_add(out, body.ptr, nl ? (size_t)(nl - body.ptr) : body.len);
		if (!rc && nl) {
			rc = qb_buf_addc(out, '\n');
			if (!rc)
				rc = md_indent(out, nl + 1, "    ");
		}
	}
	qb_buf_dispose(&body);
	qb_buf_dispose(&ind);
	return rc;
}

static int blk_children(struct blk *b, const xmlNode *n, int depth)
{
	const xmlNode *c;
	int rc = 0;

	if (depth > MAX_DEPTH)
		return 0;
	for (c = n->children; c && !rc; c = c->next) {
		if (is(c, "p") || is(c, "li")) {
			rc = para_end(b);
			if (!rc)
				rc = blk_children(b, c, depth + 1);   /* p holds inline text only */
			if (!rc)
				rc = para_end(b);
		} else if (is(c, "pre")) {
			rc = para_end(b);
			if (!rc)
				rc = pre_block(b, c);
		} else if (is(c, "ul") || is(c, "ol")) {
			struct qb_buf l = QB_BUF_INIT;

			rc = para_end(b);
			if (!rc)
				rc = list_block(&l, c, 0, b->paths);
			if (!rc && l.len)
				rc = blk_add(b, l.ptr, l.len, is(c, "ul") ? 'u' : 'o');
			qb_buf_dispose(&l);
		} else if (c->type == XML_ELEMENT_NODE || c->type == XML_TEXT_NODE ||
			   c->type == XML_CDATA_SECTION_NODE) {
			rc = para_node(b, c);
		}
	}
	return rc;
}

int md_blocks(struct qb_buf *out, const xmlNode *n, const struct md_paths *p, int *lead_para)
{
	struct blk b;
	int rc;

	memset(&b, 0, sizeof(b));
	b.out = out;
	b.paths = p;
	if (lead_para)
		*lead_para = 0;
	if (!n)
		return 0;
	rc = blk_children(&b, n, 0);
	if (!rc)
		rc = para_end(&b);
	if (lead_para)
		*lead_para = b.lead_para;
	qb_buf_dispose(&b.para);
	return rc;
}

int md_indent(struct qb_buf *out, const char *s, const char *indent)
{
	int rc = 0;

	while (*s && !rc) {
		const char *nl = strchr(s, '\n');
		size_t n = nl ? (size_t)(nl - s) : strlen(s);

		if (n > 0)
			rc = qb_buf_adds(out, indent);
		if (!rc)
			rc = qb_buf_add(out, s, n);
		if (!rc && nl)
			rc = qb_buf_addc(out, '\n');
		s += n + (nl != NULL);
	}
	return rc;
}
