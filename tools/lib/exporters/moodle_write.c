#include "moodle_write.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/entities.h>

#include "../core/array.h"
#include "../error.h"
#include "../imgpath.h"
#include "../richtext.h"
#include "../text.h"

/* ---- text elements ------------------------------------------------------ */

int qb_moodle_write_cdata_text(struct qb_xw *x, const char *s, size_t len)
{
	static const char open[] = "<![CDATA[", close[] = "]]>";
	size_t start = 0, i;
	const char *hit;

	/* CDATA sections are raw bytes between constant delimiters, as
	 * libxml2's writer writes them (xmlTextWriterStartCDATA): the tags
	 * and delimiters are written here, with no call per piece */
	if (qb_xw_start_inline(x, "text"))
		return x->rc;
	/* Each section ends just after a "]]" that is followed by '>', so the
	 * '>' opens the next section and no section holds "]]>". */
	for (i = 0; i + 2 < len; i++) {
		if (!(hit = memchr(s + i, ']', len - 2 - i)))
			break;
		i = (size_t)(hit - s);
		if (s[i + 1] == ']' && s[i + 2] == '>') {
			qb_xw_raw(x, open, sizeof(open) - 1);
			qb_xw_raw(x, s + start, i + 2 - start);
			qb_xw_raw(x, close, sizeof(close) - 1);
			start = i + 2;
		}
	}
	if (start < len) {
		qb_xw_raw(x, open, sizeof(open) - 1);
		qb_xw_raw(x, s + start, len - start);
		qb_xw_raw(x, close, sizeof(close) - 1);
	}
	return qb_xw_end_full(x);
}

int qb_moodle_html_escape(struct qb_buf *out, const char *s)
{
	xmlChar *e = xmlEncodeSpecialChars(NULL, BAD_CAST s);
	int rc;

	if (!e)
		return QB_ENOMEM;
	rc = qb_buf_adds(out, (const char *)e);
	xmlFree(e);
	return rc;
}

int qb_moodle_write_plain_text(struct qb_xw *x, const char *s)
{
	return qb_xw_leaf(x, "text", s);
}

/* ---- numbers ------------------------------------------------------------ */

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

int qb_moodle_decimal(struct qb_buf *out, const char *s, int allow_exp)
{
	const char *ip, *fp = NULL, *ep = NULL;
	size_t ilen = 0, flen = 0, elen = 0;
	int neg = 0, eneg = 0, zero = 1, err = 0;
	size_t i;

	while (is_space(*s))
		s++;
	if (*s == '+' || *s == '-')
		neg = *s++ == '-';
	ip = s;
	while (is_digit(*s))
		s++;
	ilen = (size_t)(s - ip);
	if (*s == '.') {
		fp = ++s;
		while (is_digit(*s))
			s++;
		flen = (size_t)(s - fp);
	}
	if (ilen == 0 && flen == 0)
		return QB_EINVAL;
	if (allow_exp && (*s == 'e' || *s == 'E')) {
		s++;
		if (*s == '+' || *s == '-')
			eneg = *s++ == '-';
		ep = s;
		while (is_digit(*s))
			s++;
		elen = (size_t)(s - ep);
		if (elen == 0)
			return QB_EINVAL;
	}
	while (is_space(*s))
		s++;
	if (*s)
		return QB_EINVAL;
	/* leading zeros of the integer part, trailing zeros of the fraction */
	while (ilen > 1 && *ip == '0') {
		ip++;
		ilen--;
	}
	while (flen > 0 && fp[flen - 1] == '0')
		flen--;
	for (i = 0; i < ilen; i++)
		if (ip[i] != '0')
			zero = 0;
	if (flen > 0)
		zero = 0;
	if (neg && !zero)
		err = qb_buf_addc(out, '-');
	if (!err)
		err = ilen ? qb_buf_add(out, ip, ilen) : qb_buf_addc(out, '0');
	if (!err && flen) {
		err = qb_buf_addc(out, '.');
		if (!err)
			err = qb_buf_add(out, fp, flen);
	}
	if (!err && ep) {
		while (elen > 1 && *ep == '0') {
			ep++;
			elen--;
		}
		err = qb_buf_adds(out, eneg && !(elen == 1 && *ep == '0') ? "e-" : "e");
		if (!err)
			err = qb_buf_add(out, ep, elen);
	}
	return err;
}

size_t qb_moodle_utf8_len(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		if (((unsigned char)*s & 0xC0) != 0x80)
			n++;
	return n;
}

/* ---- image names -------------------------------------------------------- */

int qb_moodle_urlencode(struct qb_buf *out, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";
	int err = 0;

	for (; *s && !err; s++) {
		unsigned char c = (unsigned char)*s;

		if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || is_digit((char)c) ||
		    c == '-' || c == '.' || c == '_' || c == '~') {
			err = qb_buf_addc(out, (char)c);
		} else {
			char e[3] = { '%', hex[c >> 4], hex[c & 15] };

			err = qb_buf_add(out, e, 3);
		}
	}
	return err;
}

/* ---- rich-text fields --------------------------------------------------- */

static void field_reset(struct qb_moodle_field *f)
{
	size_t i;

	for (i = 0; i < f->nimg; i++) {
		free(f->img[i].src);
		free(f->img[i].name);
	}
	f->nimg = 0;
	f->rc = 0;
	f->why[0] = '\0';
	qb_buf_clear(&f->html);
}

void qb_moodle_field_dispose(struct qb_moodle_field *f)
{
	if (!f)
		return;
	field_reset(f);
	free(f->img);
	f->img = NULL;
	f->capimg = 0;
	qb_buf_dispose(&f->html);
	qb_buf_dispose(&f->url);
	qb_buf_dispose(&f->data);
	qb_rich_html_free(f->render);
	f->render = NULL;
}

static int name_taken(const struct qb_moodle_field *f, const char *name)
{
	size_t i;

	for (i = 0; i < f->nimg; i++)
		if (strcmp(f->img[i].name, name) == 0)
			return 1;
	return 0;
}

/* The file name for SRC in this field: its last path segment, made unique
 * when another src of the same field has the same last segment
 * (img/a/x.png and img/b/x.png become x.png and x-2.png). */
static char *unique_name(const struct qb_moodle_field *f, const char *src)
{
	const char *base = strrchr(src, '/') ? strrchr(src, '/') + 1 : src;
	const char *dot = strrchr(base, '.');
	size_t stem = dot && dot != base ? (size_t)(dot - base) : strlen(base);
	struct qb_buf b = QB_BUF_INIT;
	unsigned k;

	if (qb_buf_adds(&b, base))
		return NULL;
	for (k = 2; name_taken(f, b.ptr); k++) {
		qb_buf_clear(&b);
		if (qb_buf_printf(&b, "%.*s-%u%s", (int)stem, base, k, base + stem)) {
			qb_buf_dispose(&b);
			return NULL;
		}
	}
	return qb_buf_detach(&b);
}

static void set_why(struct qb_moodle_field *f, int rc, const char *src, const char *what)
{
	if (f->rc)
		return;
	f->rc = rc;
	snprintf(f->why, sizeof(f->why), "image '%s' %s", src, what);
}

static const char *map_src(void *ctx, const char *src)
{
	struct qb_moodle_field *f = ctx;
	const char *why = NULL;
	size_t i;
	int v;

	if (f->rc)
		return "";
	/* Judged as the lint judges it (imgpath.h); the file is read later. */
	v = qb_img_path_check(f->bank_file, src, NULL, &why);
	if (v != QB_IMG_OK) {
		set_why(f, v < 0 ? v : QB_EINVAL, src, why ? why : "cannot be checked");
		return "";
	}
	for (i = 0; i < f->nimg && strcmp(f->img[i].src, src) != 0; i++)
		;
	if (i == f->nimg) {
		if (QB_ARRAY_RESERVE(f->img, f->capimg, f->nimg + 1)) {
			set_why(f, QB_ENOMEM, src, "could not be recorded: out of memory");
			return "";
		}
		f->img[i].src = strdup(src);
		f->img[i].name = unique_name(f, src);
		if (!f->img[i].src || !f->img[i].name) {
			free(f->img[i].src);
			free(f->img[i].name);
			set_why(f, QB_ENOMEM, src, "could not be recorded: out of memory");
			return "";
		}
		f->nimg++;
	}
	qb_buf_clear(&f->url);
	if (qb_buf_adds(&f->url, "@@PLUGINFILE@@/") || qb_moodle_urlencode(&f->url, f->img[i].name)) {
		set_why(f, QB_ENOMEM, src, "could not be recorded: out of memory");
		return "";
	}
	return f->url.ptr;
}

int qb_moodle_field_render(struct qb_moodle_field *f, const xmlNode *n, int wrap_p)
{
	struct qb_rich_opts o = { QB_MATH_TEX, map_src, f, NULL, 0, NULL, NULL };
	size_t start, len;
	int rc;

	field_reset(f);
	if (qb_buf_grow(&f->html, 0))
		return QB_ENOMEM;
	if (!n)
		return 0;
	if (wrap_p && !qb_rich_has_blocks(n) && !qb_text_is_blank(n))
		o.wrap = "p";
	rc = f->render ? 0 : qb_rich_html_new(&f->render, 0);
	if (!rc)
		rc = qb_rich_html_render(f->render, &f->html, n, &o);
	if (!rc && f->rc)
		rc = f->rc;
	if (rc)
		return rc;
	/* Moodle trims every text on import: do it here, outside any tag */
	for (start = 0; start < f->html.len && strchr(" \t\n\r", f->html.ptr[start]); start++)
		;
	for (len = f->html.len; len > start && strchr(" \t\n\r", f->html.ptr[len - 1]); len--)
		;
	memmove(f->html.ptr, f->html.ptr + start, len - start);
	f->html.len = len - start;
	f->html.ptr[f->html.len] = '\0';
	return 0;
}

int qb_moodle_field_write_content(struct qb_xw *x, struct qb_moodle_field *f)
{
	size_t i;
	int rc;

	rc = qb_moodle_write_cdata_text(x, f->html.ptr ? f->html.ptr : "", f->html.len);
	for (i = 0; !rc && i < f->nimg; i++) {
		struct qb_error e = { 0, "" };

		qb_buf_clear(&f->data);
		rc = qb_img_read(&f->data, f->bank_file, f->img[i].src, &e);
		if (rc) {
			/* the file changed since it was checked, or cannot be read */
			snprintf(f->why, sizeof(f->why), "%s", e.msg[0] ? e.msg : qb_error_str(rc));
			f->rc = rc;
			return rc == QB_ENOMEM ? rc : QB_EIO;
		}
		if (qb_xw_start_mixed(x, "file") || qb_xw_attr(x, "name", f->img[i].name) ||
		    qb_xw_attr(x, "path", "/") || qb_xw_attr(x, "encoding", "base64") ||
		    (f->data.len && xmlTextWriterWriteBase64(qb_xw_writer(x), f->data.ptr, 0, (int)f->data.len) < 0) ||
		    qb_xw_end_full(x))
			rc = QB_EIO;
	}
	return rc;
}

int qb_moodle_field_write(struct qb_xw *x, struct qb_moodle_field *f, const char *element,
			  const char *format)
{
	int rc;

	if (qb_xw_start(x, element) || (format && qb_xw_attr(x, "format", format)))
		return QB_EIO;
	rc = qb_moodle_field_write_content(x, f);
	return rc ? rc : qb_xw_end(x);
}

static int check_image(void *ctx, const xmlNode *img)
{
	struct qb_moodle_field *f = ctx;
	xmlChar *src = xmlGetNoNsProp((xmlNodePtr)img, BAD_CAST "src");
	const char *s = src ? (const char *)src : "";
	const char *why = NULL;
	int v = qb_img_path_check(f->bank_file, s, NULL, &why);

	if (v != QB_IMG_OK)
		set_why(f, v < 0 ? v : QB_EINVAL, s, why ? why : "cannot be checked");
	xmlFree(src);
	return f->rc;
}

int qb_moodle_field_check_images(struct qb_moodle_field *f, const xmlNode *n)
{
	field_reset(f);
	if (!n)
		return 0;
	qb_rich_each_img(n, check_image, f);
	return f->rc;
}

static int found(void *ctx, const xmlNode *img)
{
	(void)ctx;
	(void)img;
	return 1;
}

int qb_moodle_has_image(const xmlNode *n)
{
	return qb_rich_each_img(n, found, NULL);
}
