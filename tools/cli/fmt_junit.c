/* --format junit: JUnit XML for GitLab and Jenkins, written with libxml2's
 * xmlTextWriter (escaping is libxml2's).
 * - One <testsuite> per bank file of the run, sorted by name (run-wide
 *   findings go into a suite named "qbank"); classname is the file.
 * - Each error or warning is a failing <testcase> named
 *   "RULE QUESTION line L" (made unique with " #2", " #3" ...), its
 *   <failure> carrying the gcc-format line.
 * - Each info is a passing <testcase> of the same name whose <system-out>
 *   holds the message: visible, never failing the pipeline.
 * - A file without findings has one passing testcase, "lint", so that
 *   every file linted shows up in the report. */
#include <stdlib.h>
#include <string.h>

#include <libxml/xmlwriter.h>

#include "../lib/core/buf.h"
#include "format.h"

#define X(s) BAD_CAST(s)

/* Findings of FILE: the range [*first, *end) of the sorted list. */
static void file_range(const struct qb_diags *d, const char *file, size_t *first, size_t *end)
{
	size_t lo = 0, hi = d->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(d->v[mid].file, file) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*first = lo;
	while (lo < d->n && strcmp(d->v[lo].file, file) == 0)
		lo++;
	*end = lo;
}

static int case_name(struct qb_buf *b, const struct qb_diag *d)
{
	int rc = qb_buf_adds(b, d->rule);

	if (!rc && d->question)
		rc = qb_buf_printf(b, " %s", d->question);
	if (!rc && d->line)
		rc = qb_buf_printf(b, " line %lu", d->line);
	return rc;
}

static int write_case(xmlTextWriterPtr w, const struct qb_diag *d, const char *suite,
		      const char *name, struct qb_buf *text)
{
	int rc = 0;

	rc |= xmlTextWriterStartElement(w, X("testcase")) < 0;
	rc |= xmlTextWriterWriteAttribute(w, X("name"), X(name)) < 0;
	rc |= xmlTextWriterWriteAttribute(w, X("classname"), X(suite)) < 0;
	if (d->file[0])
		rc |= xmlTextWriterWriteAttribute(w, X("file"), X(d->file)) < 0;
	if (d->line)
		rc |= xmlTextWriterWriteFormatAttribute(w, X("line"), "%lu", d->line) < 0;
	qb_buf_clear(text);
	if (d->line)
		rc |= qb_buf_printf(text, "%s:%lu: %s: %s [%s]", suite, d->line,
				    qb_severity_name(d->severity), d->message, d->rule) != 0;
	else
		rc |= qb_buf_printf(text, "%s: %s: %s [%s]", suite, qb_severity_name(d->severity),
				    d->message, d->rule) != 0;
	if (rc)
		return -1;
	if (d->severity >= QB_SEV_WARNING) {
		rc |= xmlTextWriterStartElement(w, X("failure")) < 0;
		rc |= xmlTextWriterWriteAttribute(w, X("message"), X(d->message)) < 0;
		rc |= xmlTextWriterWriteAttribute(w, X("type"), X(qb_severity_name(d->severity))) < 0;
		rc |= xmlTextWriterWriteString(w, X(text->ptr)) < 0;
		rc |= xmlTextWriterEndElement(w) < 0;
	} else {
		rc |= xmlTextWriterWriteElement(w, X("system-out"), X(text->ptr)) < 0;
	}
	rc |= xmlTextWriterEndElement(w) < 0;
	return rc ? -1 : 0;
}

static int write_suite(xmlTextWriterPtr w, const struct qb_diags *d, const char *file)
{
	const char *suite = file[0] ? file : "qbank";
	struct qb_buf name = QB_BUF_INIT, prev = QB_BUF_INIT, text = QB_BUF_INIT;
	size_t first, end, i, failures = 0, nth = 1;
	int rc = 0;

	file_range(d, file, &first, &end);
	for (i = first; i < end; i++)
		failures += d->v[i].severity >= QB_SEV_WARNING;
	rc |= xmlTextWriterStartElement(w, X("testsuite")) < 0;
	rc |= xmlTextWriterWriteAttribute(w, X("name"), X(suite)) < 0;
	rc |= xmlTextWriterWriteFormatAttribute(w, X("tests"), "%zu", end > first ? end - first : 1) < 0;
	rc |= xmlTextWriterWriteFormatAttribute(w, X("failures"), "%zu", failures) < 0;
	rc |= xmlTextWriterWriteAttribute(w, X("errors"), X("0")) < 0;
	rc |= xmlTextWriterWriteAttribute(w, X("skipped"), X("0")) < 0;
	if (end == first) {
		rc |= xmlTextWriterStartElement(w, X("testcase")) < 0;
		rc |= xmlTextWriterWriteAttribute(w, X("name"), X("lint")) < 0;
		rc |= xmlTextWriterWriteAttribute(w, X("classname"), X(suite)) < 0;
		rc |= xmlTextWriterEndElement(w) < 0;
	}
	/* Findings with the same rule, question and line are adjacent (the list
	 * is sorted by file, line, rule), so numbering repeats is local. */
	for (i = first; i < end && !rc; i++) {
		qb_buf_clear(&name);
		rc = case_name(&name, &d->v[i]);
		if (rc)
			break;
		if (prev.ptr && strcmp(prev.ptr, name.ptr) == 0) {
			nth++;
		} else {
			nth = 1;
			qb_buf_clear(&prev);
			rc = qb_buf_adds(&prev, name.ptr);
		}
		if (!rc && nth > 1)
			rc = qb_buf_printf(&name, " #%zu", nth);
		if (!rc)
			rc = write_case(w, &d->v[i], suite, name.ptr, &text);
	}
	rc |= xmlTextWriterEndElement(w) < 0;
	qb_buf_dispose(&name);
	qb_buf_dispose(&prev);
	qb_buf_dispose(&text);
	return rc ? -1 : 0;
}

int fmt_junit(FILE *out, const struct qb_report *r)
{
	const struct qb_diags *d = r->diags;
	xmlOutputBufferPtr ob;
	xmlTextWriterPtr w;
	const char **files = NULL;
	size_t nfiles = 0, i, tests = 0, failures = 0;
	int rc;

	if (fmt_files(&files, &nfiles, r))
		return -1;
	for (i = 0; i < nfiles; i++) {
		size_t first, end;

		file_range(d, files[i], &first, &end);
		tests += end > first ? end - first : 1;
	}
	for (i = 0; i < d->n; i++)
		failures += d->v[i].severity >= QB_SEV_WARNING;
	ob = xmlOutputBufferCreateFile(out, NULL);
	w = ob ? xmlNewTextWriter(ob) : NULL;
	if (!w) {
		if (ob)
			xmlOutputBufferClose(ob);
		free(files);
		return -1;
	}
	rc = xmlTextWriterSetIndent(w, 1) < 0;
	rc |= xmlTextWriterSetIndentString(w, X("  ")) < 0;
	rc |= xmlTextWriterStartDocument(w, "1.0", "UTF-8", NULL) < 0;
	rc |= xmlTextWriterStartElement(w, X("testsuites")) < 0;
	rc |= xmlTextWriterWriteAttribute(w, X("name"), X("qbank lint")) < 0;
	rc |= xmlTextWriterWriteFormatAttribute(w, X("tests"), "%zu", tests) < 0;
	rc |= xmlTextWriterWriteFormatAttribute(w, X("failures"), "%zu", failures) < 0;
	rc |= xmlTextWriterWriteAttribute(w, X("errors"), X("0")) < 0;
	for (i = 0; i < nfiles && !rc; i++)
		rc = write_suite(w, d, files[i]);
	rc |= xmlTextWriterEndDocument(w) < 0;
	rc |= xmlTextWriterFlush(w) < 0;
	xmlFreeTextWriter(w);
	free(files);
	return rc || ferror(out) ? -1 : 0;
}
