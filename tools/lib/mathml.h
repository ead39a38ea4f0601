/* TeX to MathML for the exporters whose consumers render MathML and not
 * TeX (QTI players; Canvas, which typesets \( \) only with a setting):
 * pandoc's converter (texmath), run once per bank file for every distinct
 * formula in it rather than once per formula (a pandoc start costs about
 * 50 ms). The file is read a second time, streaming and
 * hardened as the reader reads it, to collect its formulas before its
 * questions are written; memory grows with the distinct formulas of one
 * file, never with the bank. Pandoc keeps the TeX as the MathML's
 * <annotation encoding="application/x-tex">.
 * Ownership: a qb_mathml owns its formulas and pandoc's parsed output;
 * what qb_mathml_write writes is copied into the caller's writer. */
#ifndef QB_MATHML_H
#define QB_MATHML_H

#include <libxml/tree.h>
#include <libxml/xmlwriter.h>

#include "error.h"

struct qb_mathml;

/* PANDOC: the program to run (NULL: "pandoc", looked up in PATH). */
int qb_mathml_new(struct qb_mathml **out, const char *pandoc);
void qb_mathml_free(struct qb_mathml *m);

/* Forgets the formulas of the previous file, collects those of bank file
 * PATH and converts them in one pandoc run (none when the file has no
 * math). Returns 0; QB_EREFUSED with "FILE:LINE: question 'ID': ..." for
 * the first formula pandoc cannot convert; QB_ENOTFOUND when pandoc
 * cannot be started; QB_EIO or QB_ENOMEM. */
int qb_mathml_load_file(struct qb_mathml *m, const char *path, struct qb_error *err);

/* Writes the MathML of the bank's math element N (its TeX and display
 * mode), as converted by the last qb_mathml_load_file, into W's open
 * element. QB_EREFUSED for a formula that qb_mathml_load_file refused
 * (or did not reach after refusing another); QB_ENOTFOUND when N is not
 * from that file. */
int qb_mathml_write(struct qb_mathml *m, xmlTextWriterPtr w, const xmlNode *n);

#endif
