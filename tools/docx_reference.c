/* Build tool: makes qbank's DOCX reference document from pandoc's own
 * (`pandoc --print-default-data-file reference.docx`), so that the Word
 * exam looks like the PDF: A4 with 2.2 cm margins, DejaVu Sans 11 pt
 * throughout, black headings. The zip is rewritten entry by entry with
 * libarchive (a dependency already), every entry undated, so the same
 * input gives the same bytes.
 *
 * Usage: docx_reference IN.docx OUT.docx; exits 1 when an expected piece of
 * pandoc's document is not found (a newer pandoc changed it: adjust the
 * table below). */
#include <archive.h>
#include <archive_entry.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FONT "w:ascii=\"DejaVu Sans\" w:hAnsi=\"DejaVu Sans\" w:eastAsia=\"DejaVu Sans\" w:cs=\"DejaVu Sans\""

/* Replacements per entry: every occurrence of FROM becomes TO; REQUIRED
 * ones must occur at least once. */
static const struct edit {
	const char *entry, *from, *to;
	int required;
} edits[] = {
	{ "word/document.xml", "<w:sectPr />",
	  "<w:sectPr><w:pgSz w:w=\"11906\" w:h=\"16838\" />"
	  "<w:pgMar w:top=\"1247\" w:right=\"1247\" w:bottom=\"1247\" w:left=\"1247\" "
	  "w:header=\"709\" w:footer=\"709\" w:gutter=\"0\" /></w:sectPr>", 1 },
	{ "word/styles.xml",
	  "w:asciiTheme=\"minorHAnsi\" w:eastAsiaTheme=\"minorHAnsi\" w:hAnsiTheme=\"minorHAnsi\" w:cstheme=\"minorBidi\"",
	  FONT, 1 },
	{ "word/styles.xml",
	  "w:asciiTheme=\"majorHAnsi\" w:eastAsiaTheme=\"majorEastAsia\" w:hAnsiTheme=\"majorHAnsi\" w:cstheme=\"majorBidi\"",
	  FONT, 1 },
	{ "word/styles.xml", "w:ascii=\"Consolas\" w:hAnsi=\"Consolas\"",
	  "w:ascii=\"DejaVu Sans Mono\" w:hAnsi=\"DejaVu Sans Mono\"", 0 },
	{ "word/styles.xml", "<w:sz w:val=\"24\" />\n        <w:szCs w:val=\"24\" />",
	  "<w:sz w:val=\"22\" />\n        <w:szCs w:val=\"22\" />", 1 },
	{ "word/styles.xml", "w:color w:val=\"345A8A\" w:themeColor=\"accent1\" w:themeShade=\"B5\"",
	  "w:color w:val=\"000000\"", 0 },
	{ "word/styles.xml", "w:color w:val=\"365F91\" w:themeColor=\"accent1\" w:themeShade=\"BF\"",
	  "w:color w:val=\"000000\"", 0 },
	{ "word/styles.xml", "w:color w:val=\"4F81BD\" w:themeColor=\"accent1\"",
	  "w:color w:val=\"000000\"", 0 },
};

/* Applies E to the N bytes at *DATA (reallocated); returns the count. */
static int apply(char **data, size_t *n, const struct edit *e)
{
	size_t lf = strlen(e->from), lt = strlen(e->to), cap = *n * 2 + 4096, o = 0, i = 0;
	char *out = malloc(cap);
	int count = 0;

	if (!out)
		return -1;
	while (i < *n) {
		if (o + lt + 1 > cap) {
			char *p = realloc(out, cap *= 2);

			if (!p) {
				free(out);
				return -1;
			}
			out = p;
		}
		if (i + lf <= *n && memcmp(*data + i, e->from, lf) == 0) {
			memcpy(out + o, e->to, lt);
			o += lt;
			i += lf;
			count++;
		} else {
			out[o++] = (*data)[i++];
		}
	}
	free(*data);
	*data = out;
	*n = o;
	return count;
}

int main(int argc, char **argv)
{
	struct archive *in, *out;
	struct archive_entry *e;
	int rc = 0;

	if (argc != 3) {
		fprintf(stderr, "usage: docx_reference IN.docx OUT.docx\n");
		return 2;
	}
	in = archive_read_new();
	out = archive_write_new();
	archive_read_support_format_zip(in);
	if (archive_read_open_filename(in, argv[1], 65536) != ARCHIVE_OK ||
	    archive_write_set_format_zip(out) != ARCHIVE_OK ||
	    archive_write_open_filename(out, argv[2]) != ARCHIVE_OK) {
		fprintf(stderr, "docx_reference: %s\n", archive_error_string(in) ? archive_error_string(in)
			: archive_error_string(out));
		return 1;
	}
	while (!rc && archive_read_next_header(in, &e) == ARCHIVE_OK) {
		const char *name = archive_entry_pathname(e);
		size_t n = 0, cap = 65536, k;
		char *data = malloc(cap);
		struct archive_entry *w;
		la_ssize_t got;

		while (data && (got = archive_read_data(in, data + n, cap - n)) > 0) {
			n += (size_t)got;
			if (n == cap) {
				char *p = realloc(data, cap *= 2);

				if (!p) {
					free(data);
					data = NULL;
				}
				data = p;
			}
		}
		if (!data) {
			fprintf(stderr, "docx_reference: out of memory\n");
			return 1;
		}
		for (k = 0; k < sizeof(edits) / sizeof(edits[0]) && !rc; k++) {
			int c;

			if (strcmp(edits[k].entry, name) != 0)
				continue;
			c = apply(&data, &n, &edits[k]);
			if (c < 0 || (c == 0 && edits[k].required)) {
				fprintf(stderr, "docx_reference: %s: not found in %s: \"%s\"\n", argv[1], name,
					edits[k].from);
				rc = 1;
			}
		}
		/* undated, 0644: the same bytes on every build */
		w = archive_entry_new();
		archive_entry_set_pathname(w, name);
		archive_entry_set_filetype(w, AE_IFREG);
		archive_entry_set_perm(w, 0644);
		archive_entry_set_size(w, (la_int64_t)n);
		if (!rc && (archive_write_header(out, w) != ARCHIVE_OK ||
			    archive_write_data(out, data, n) != (la_ssize_t)n)) {
			fprintf(stderr, "docx_reference: %s\n", archive_error_string(out));
			rc = 1;
		}
		archive_entry_free(w);
		free(data);
	}
	if (archive_write_close(out) != ARCHIVE_OK)
		rc = 1;
	archive_write_free(out);
	archive_read_free(in);
	return rc;
}
