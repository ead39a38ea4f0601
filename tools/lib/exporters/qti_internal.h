/* Internals of the IMS QTI 2.1 exporter: export_qti21.c drives the package
 * (manifest, test, media, zip) and the qti_*.c helpers do one job each:
 * qti_item.c writes one assessmentItem (its rich text through
 * ../richtext.h), qti_zip.c writes the deterministic zip, qti_util.c holds
 * the small shared pieces (numbers, names, the key sets).
 * Ownership: every object here is created and freed by the exporter's
 * state; nothing keeps a pointer into a question after the call returns. */
#ifndef QB_QTI_INTERNAL_H
#define QB_QTI_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <libxml/tree.h>
#include <libxml/xmlwriter.h>

#include "../core/buf.h"
#include "../core/map.h"
#include "../error.h"
#include "../model.h"
#include "../richtext.h"
#include "../xmlw.h"

#define QTI_NS "http://www.imsglobal.org/xsd/imsqti_v2p1"
#define QTI_SCHEMA_LOCATION QTI_NS " http://www.imsglobal.org/xsd/qti/qtiv2p1/imsqti_v2p1.xsd"
#define QTI_CP_NS "http://www.imsglobal.org/xsd/imscp_v1p1"
#define QTI_CP_SCHEMA_LOCATION QTI_CP_NS " http://www.imsglobal.org/xsd/imscp_v1p1.xsd"
#define QTI_XSI_NS "http://www.w3.org/2001/XMLSchema-instance"

/* QTI 3.0 (export_qti21.c, its QTI 3.0 row): the ASI namespace and the QTI 3.0 profile of
 * IMS Content Packaging. */
#define QTI3_NS "http://www.imsglobal.org/xsd/imsqtiasi_v3p0"
#define QTI3_SCHEMA_LOCATION QTI3_NS \
	" https://purl.imsglobal.org/spec/qti/v3p0/schema/xsd/imsqti_asiv3p0_v1p0.xsd"
#define QTI3_CP_NS "http://www.imsglobal.org/xsd/qti/qtiv3p0/imscp_v1p1"
#define QTI3_CP_SCHEMA_LOCATION QTI3_CP_NS \
	" https://purl.imsglobal.org/spec/qti/v3p0/schema/xsd/imsqtiv3p0_imscpv1p2_v1p0.xsd"

/* ---- the writer: ../xmlw.h; rich text into its open element ------------ */

struct qti_item_opts;

/* Writes rich text N (qb_rich_write, through O's renderer) into the open
 * element, opened with qb_xw_start_inline. The exporters write math as
 * MathML (QB_MATH_MATHML with qti_math_write): QTI players render MathML,
 * and show TeX as raw text. */
void qti_put_rich(struct qb_xw *x, const xmlNode *n, const struct qti_item_opts *o);

/* qb_rich_opts.math_ml for a struct qb_mathml * CTX (../mathml.h). */
int qti_math_write(void *ctx, xmlTextWriterPtr w, const xmlNode *n);

/* ---- items (qti_item.c) ------------------------------------------------- */

struct qti_item_opts {
	const char *lang;            /* xml:lang for the item (already checked), or NULL */
	struct qb_rich_opts rich;    /* math mode and the img src mapping */
	int v3;                      /* 1: a QTI 3.0 qti-assessment-item (qti_v3.c) */
	/* the caller's, kept from item to item: rich text is rendered
	 * through RENDER into HTML (emptied first) and copied into the item */
	struct qb_rich_html *render;
	struct qb_buf *html;
};

/* Writes the assessmentItem of Q into OUT (appended). Returns 0,
 * QB_EREFUSED with a message naming the question when Q cannot become a
 * valid item (e.g. an identifier that is not an NCName), or QB_ENOMEM /
 * QB_EIO. */
int qti_item_write(xmlBufferPtr out, const struct qb_question *q,
		   const struct qti_item_opts *o, struct qb_error *err);

/* ---- zip (qti_zip.c) ---------------------------------------------------- */

struct qti_zip;

/* A deterministic zip on F (NAME: the output, for messages): every entry is a regular file, mode 0644,
 * owner 0:0, with no timestamp of its own (see qti_zip.c), UTF-8 names.
 * ONE_THREAD: compress on the caller's thread instead of a thread of the
 * zip's own (the same bytes). */
int qti_zip_open(struct qti_zip **out, FILE *f, const char *name, int one_thread,
		 struct qb_error *err);
/* Queues a copy of the entry for the zip thread (or, on one thread, writes
 * it); an error met on an earlier entry is returned here or by a later
 * call. */
int qti_zip_add(struct qti_zip *z, const char *name, const void *data, size_t len,
		struct qb_error *err);
/* An XML entry produced by GEN through a writer: GEN runs twice, once to
 * measure the document and once to write it, so that a large manifest is
 * never held in memory. GEN must write the same bytes both times. */
int qti_zip_add_xml(struct qti_zip *z, const char *name,
		    int (*gen)(xmlTextWriterPtr w, void *ctx), void *ctx,
		    struct qb_error *err);
/* Writes the central directory. */
int qti_zip_close(struct qti_zip *z, struct qb_error *err);
void qti_zip_free(struct qti_zip *z);

/* ---- QTI 3.0 names (qti_v3.c) ------------------------------------------ */

struct qti_v3_name {
	const char *v2, *v3;
};

/* The rename hook of struct qb_xw: QTI 3.0's name for the QTI 2.1 element
 * (ATTR 0) or attribute (ATTR 1) NAME; any other name as it is. */
const char *qti_v3_rename(int attr, const char *name);
/* The tables behind it (elements, attributes), for the unit test of their order. */
extern const struct qti_v3_name *const qti_v3_tables[2];
extern const size_t qti_v3_sizes[2];

/* ---- small shared pieces (qti_util.c) ----------------------------------- */

/* Shortest decimal text of V that reads back as V ("1", "0.25",
 * "0.3333333333333333"), in the C locale's format whatever the locale. */
void qti_fmt_double(char out[40], double v);

/* Parses a decimal number (optional sign, digits, dot, exponent) as the
 * bank writes it; 0 on success. */
int qti_parse_double(const char *s, double *out);

/* 1 when S is an XML NCName (what QTI identifiers and CP ids must be). */
int qti_is_ncname(const char *s);

/* 1 when S matches xs:language (e.g. "en", "de-CH"). */
int qti_is_language(const char *s);

/* Appends S with runs of white space collapsed to one space, trimmed. */
int qti_buf_add_collapsed(struct qb_buf *b, const char *s);

/* Appends PATH as a URI reference: bytes other than unreserved ones and
 * '/' are percent-encoded (spaces, %, non-ASCII letters). */
int qti_buf_add_uri(struct qb_buf *b, const char *path);

/* Appends the entry name form of img src SRC (already judged safe by
 * imgpath.h) to NORM: "./" segments and repeated slashes dropped. Returns
 * QB_EREFUSED when nothing is left or a ".." segment appears. */
int qti_media_src_norm(const char *src, struct qb_buf *norm);

/* Entry names that every consumer reads alike (Canvas does not
 * percent-decode manifest hrefs): 1 when byte C may stand in one as it is
 * (ASCII letters, digits, '.', '-', '_', and '/' when SLASH); the first N
 * bytes of S appended with each run of other bytes made one '_'; 1 when
 * the N bytes of S need no change. */
int qti_name_byte(unsigned char c, int slash);
int qti_name_add_safe(struct qb_buf *b, const char *s, size_t n, int slash);
int qti_name_is_safe(const char *s, size_t n);

/* ---- what the package writers (export_qti21.c, export_canvas.c) keep ---- */

/* Appends S[0..LEN) and a NUL to ARENA, a store of strings addressed by
 * offset; *OFF is where it starts. */
int qti_arena_add(struct qb_buf *arena, const char *s, size_t len, size_t *off);
uint64_t qti_hash_str(const char *s);

/* Records indexed by one of their strings: an arena offset in field FIELD
 * of records of SIZE bytes at BASE. The context of qti_keyed_ops. */
struct qti_keyed {
	const struct qb_buf *arena;
	const void *base;
	size_t size;
	size_t field;
};
#define QTI_KEYED(arena, v, type, field) { (arena), (v), sizeof(type), offsetof(type, field) }
extern const struct qb_map_ops qti_keyed_ops;

/* A set of fixed-width keys: 64-bit hashes of strings that are kept
 * nowhere else (the package writers spool their records, see
 * export_qti21.c), 8 bytes a key in a big array (../core/array.h) plus
 * the index's 4-byte slots, about 14 bytes a key. Two different strings
 * whose hashes are equal count as one: with n keys that happens with
 * probability about n^2 / 2^65 (3e-8 at a million), and the callers say
 * what it would cost them. */
struct qti_hashes {
	uint64_t *v;
	size_t n, cap;
	struct qb_map map;
};
/* Adds KEY: 0 when it was new, 1 when it is in the set already, or
 * QB_ENOMEM. */
int qti_hashes_take(struct qti_hashes *t, uint64_t key);
/* 1 when KEY is in the set. */
int qti_hashes_has(const struct qti_hashes *t, uint64_t key);
void qti_hashes_dispose(struct qti_hashes *t);

/* The entry names in use, compared without regard to case (hashes of the
 * case-folded names): importers unpack the zip, and on a case-insensitive
 * file system Q1.xml would overwrite q1.xml. Takes NAME: 0 when it was
 * free, 1 when it is in use already (or, see above, shares its hash with
 * one that is: the entry is then named NAME-2), or a negative error. */
int qti_names_take(struct qti_hashes *t, const char *name);

/* A writer's first refusal (problems are collected while the bank is
 * read and refuse the export at commit) and first I/O or memory error. */
struct qti_status {
	const char *target;    /* in messages */
	struct qb_error problem;
	size_t nproblems;
	struct qb_error failure;
	int failed;
};
/* Records error RC (E's message, or a generic one) unless one is
 * recorded already. */
void qti_fail(struct qti_status *s, int rc, const struct qb_error *e);
/* The recorded error, copied to ERR; 0 when there is none. */
int qti_failed(const struct qti_status *s, struct qb_error *err);
/* Counts a refusal and keeps the first, naming Q when it is not NULL. */
void qti_problem(struct qti_status *s, const struct qb_question *q, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Judges img SRC of question Q as the lint does (imgpath.h) and resolves
 * it: 0 with *REAL (malloc'd: the file's real path, which two srcs of one
 * file share) and the entry-name form of SRC appended to NORM; otherwise
 * the refusal or the error is recorded in S and returned. */
int qti_media_resolve(struct qti_status *s, const struct qb_question *q, const char *src,
		      char **real, struct qb_buf *norm);

#endif
