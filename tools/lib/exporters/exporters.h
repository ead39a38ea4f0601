/* The exporters' entry points, one family per target (rows of the
 * exporter table in export.c; the hooks are described in exporter.h). */
#ifndef QB_EXPORTERS_H
#define QB_EXPORTERS_H

#include "../exporter.h"

int qb_canvas_open(void **state, const struct qb_export_opts *o, struct qb_error *err);
int qb_canvas_bank(void *state, const struct qb_bank_info *b, struct qb_error *err);
int qb_canvas_question(void *state, const struct qb_question *q, struct qb_error *err);
int qb_canvas_commit(void *state, struct qb_error *err);
void qb_canvas_abort(void *state);
int qb_canvas_check(const struct qb_question *q, const struct qb_target_sink *s);
int qb_gift_open(void **state, const struct qb_export_opts *o, struct qb_error *err);
int qb_gift_bank(void *state, const struct qb_bank_info *b, struct qb_error *err);
int qb_gift_question(void *state, const struct qb_question *q, struct qb_error *err);
int qb_gift_commit(void *state, struct qb_error *err);
void qb_gift_abort(void *state);
int qb_gift_check(const struct qb_question *q, const struct qb_target_sink *s);
int qb_html_open(void **state, const struct qb_export_opts *o, struct qb_error *err);
int qb_html_bank(void *state, const struct qb_bank_info *b, struct qb_error *err);
int qb_html_question(void *state, const struct qb_question *q, struct qb_error *err);
int qb_html_findings(void *state, const struct qb_export_finding *v, size_t n,
		     struct qb_error *err);
int qb_html_commit(void *state, struct qb_error *err);
void qb_html_abort(void *state);

int qb_md_open(void **state, const struct qb_export_opts *o, struct qb_error *err);
int qb_md_bank(void *state, const struct qb_bank_info *b, struct qb_error *err);
int qb_md_question(void *state, const struct qb_question *q, struct qb_error *err);
int qb_md_commit(void *state, struct qb_error *err);
void qb_md_abort(void *state);
int qb_md_check(const struct qb_question *q, const struct qb_target_sink *s);

/* pdf and docx: the Markdown exporter's files through pandoc
 * (export_pandoc.c); bank, question, commit and abort are shared. */
int qb_pdf_open(void **state, const struct qb_export_opts *o, struct qb_error *err);
int qb_docx_open(void **state, const struct qb_export_opts *o, struct qb_error *err);
int qb_pandoc_bank(void *state, const struct qb_bank_info *b, struct qb_error *err);
int qb_pandoc_question(void *state, const struct qb_question *q, struct qb_error *err);
int qb_pandoc_commit(void *state, struct qb_error *err);
void qb_pandoc_abort(void *state);

int qb_moodle_open(void **state, const struct qb_export_opts *o, struct qb_error *err);
int qb_moodle_bank(void *state, const struct qb_bank_info *b, struct qb_error *err);
int qb_moodle_question(void *state, const struct qb_question *q, struct qb_error *err);
int qb_moodle_commit(void *state, struct qb_error *err);
void qb_moodle_abort(void *state);
int qb_moodle_check(const struct qb_question *q, const struct qb_target_sink *s);
/* The part of qb_moodle_check that Moodle's question types need of any
 * import (the key and the body of each type, not the points): the GIFT
 * exporter's check runs it too, since Moodle saves a GIFT question
 * through the same question types. */
int qb_moodle_check_body(const struct qb_question *q, const struct qb_target_sink *s);

int qb_qti_open(void **state, const struct qb_export_opts *o, struct qb_error *err);
int qb_qti_bank(void *state, const struct qb_bank_info *b, struct qb_error *err);
int qb_qti_question(void *state, const struct qb_question *q, struct qb_error *err);
int qb_qti_commit(void *state, struct qb_error *err);
void qb_qti_abort(void *state);
int qb_qti_check(const struct qb_question *q, const struct qb_target_sink *s);
/* QTI 3.0: the same package in QTI 3.0's form; the other hooks are qb_qti_*'s */
int qb_qti30_open(void **state, const struct qb_export_opts *o, struct qb_error *err);

#endif
