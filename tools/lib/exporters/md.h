/* Internals of the Pandoc Markdown exporter (printable exams), shared by
 * export_markdown.c (outputs, YAML header, forms, answer keys), md_text.c
 * (rich text to Markdown, escaping, image paths), md_item.c (one question's
 * snapshot and its layout) and md_rand.c (the forms' shuffling).
 * Ownership: md_text functions append to the caller's buffers and keep
 * nothing; an md_item owns copies of everything it prints (the reader's
 * nodes are gone by the time a buffered form question is written) and is
 * released with md_item_free; md_paths owns its two folder strings. */
#ifndef QB_MD_H
#define QB_MD_H

#include <stdint.h>
#include <stdio.h>

#include <libxml/tree.h>

#include "../core/arena.h"
#include "../core/buf.h"
#include "../error.h"
#include "../model.h"

/* ---- rich text (md_text.c) ---------------------------------------------- */

/* Where images are looked up from: img/@src is relative to the bank file,
 * the Markdown needs it relative to the output's folder. */
struct md_paths {
	char *out_dir;           /* absolute output folder, or NULL: keep src as given */
	char *bank_dir;          /* absolute folder of the current bank file, or NULL */
	char *bank_file;         /* the current bank file, as given */
};

/* Sets the output file (NULL or "-": standard output, paths relative to
 * the working folder). The folder must exist. */
int md_paths_output(struct md_paths *p, const char *output);
/* Sets the current bank file (its folder is resolved once per file). */
int md_paths_bank(struct md_paths *p, const char *file);
void md_paths_dispose(struct md_paths *p);

/* Appends plain text S (N bytes) as Markdown that prints literally: white
 * space collapsed to single spaces and trimmed, every character Pandoc or
 * LaTeX would read as markup backslash-escaped, a leading list, quote or
 * heading marker defused. One line. */
int md_plain(struct qb_buf *out, const char *s, size_t n);

/* Appends inline rich text N (option text, premise, ...) as one Markdown
 * line (hard line breaks from br continue it on the next line). */
int md_inline(struct qb_buf *out, const xmlNode *n, const struct md_paths *p);

/* Appends block rich text N (stem, rationale, explanation, ...) as Markdown
 * blocks separated by blank lines, without a final newline. *LEAD_PARA is
 * set to 1 when the first block is a paragraph (a question number can go
 * in front of it). */
int md_blocks(struct qb_buf *out, const xmlNode *n, const struct md_paths *p, int *lead_para);

/* Appends S with INDENT in front of every line that is not empty. */
int md_indent(struct qb_buf *out, const char *s, const char *indent);

/* ---- labels (md_labels.c) ---------------------------------------------- */

/* The printed words, in the order of md_labels.c's built-in rows. */
enum md_label_id {
	MD_L_NAME, MD_L_STUDENT_NUMBER, MD_L_POINT, MD_L_POINTS, MD_L_SELECT, MD_L_SELECT_ALL,
	MD_L_EXPLANATION, MD_L_RUBRIC, MD_L_FORM, MD_L_ANSWER_KEY, MD_L_TEACHER,
	MD_L_INSTRUCTIONS, MD_L_ANSWER, MD_L_TRUE, MD_L_FALSE, MD_L_TOTAL, MD_L_COURSE,
	MD_L_DURATION, MD_L_ANSWER_SHEET, MD_L_CORRECT, MD_L_MATCH_HINT, MD_L_WORDS,
	MD_L_AT_LEAST, MD_L_AT_MOST, MD_L_NO, MD_L_QUESTION, MD_L_KEY, MD_L_PRINTED,
	MD_L_GRADED_RUBRIC, MD_L_GRADED_HAND, MD_L_CASE, MD_L_WORKING,
	MD_NLABELS
};

/* A labels file's key and the label it sets; md_label_keys is sorted by
 * name. */
struct md_label_key {
	const char *name;
	enum md_label_id label;
};

extern const struct md_label_key md_label_keys[MD_NLABELS];

/* Every label as Markdown (escaped like bank text) and as written, owned. */
struct md_labels {
	char *v[MD_NLABELS];
	char *plain[MD_NLABELS];
};

/* Fills L for language LANG (xml:lang; its primary subtag picks a built-in
 * row, English otherwise), each label FILE sets (or NULL) taking
 * precedence. */
int md_labels_resolve(struct md_labels *l, const char *lang, const char *file, struct qb_error *err);
void md_labels_dispose(struct md_labels *l);
/* 1 when LANG has built-in labels. */
int md_labels_known(const char *lang);
/* Label ID of L as Markdown ("" when L is NULL); md_label_plain: as
 * written, for LaTeX (escape it). */
const char *md_label_plain(const struct md_labels *l, enum md_label_id id);
/* Label ID of L ("" when L is NULL). */
const char *md_label(const struct md_labels *l, enum md_label_id id);

/* ---- shuffling (md_rand.c) ---------------------------------------------- */

/* splitmix64 (Steele, Lea, Flood 2014): a 64-bit state advanced by the
 * golden gamma and mixed; small, fast, and the same on every platform. */
struct md_rand {
	uint64_t s;
};

/* Starts a generator from the export seed, the form letter ('A', 'B', ...,
 * or 0 without forms) and a salt (the hash of a question id or of a
 * category). */
void md_rand_init(struct md_rand *r, uint64_t seed, int form, uint64_t salt);
uint64_t md_rand_next(struct md_rand *r);
/* Fills V with 0..N-1 in an order drawn by Fisher-Yates, each choice
 * unbiased (rejection sampling). */
void md_rand_perm(struct md_rand *r, size_t *v, size_t n);

/* ---- one question (md_item.c) ------------------------------------------- */

/* Strings of an item are copies in its arena; NULL reads as "". */
struct md_choice {
	const char *text, *rationale, *id;
	int correct;
};

struct md_pair {
	const char *premise, *response;
};

struct md_item {
	struct qb_arena arena;
	enum qb_qtype type;
	const char *id, *points;
	double points_value;
	uint64_t id_hash;
	int shuffle, has_select, case_sensitive;
	long select;
	const char *stem, *explanation, *rubric;
	int stem_para, explanation_para, rubric_para;   /* opens with a paragraph */
	struct md_choice *choices;   /* single, multiple; truefalse: True, False */
	size_t nchoices;
	const char **answers;        /* short: accepted answers; numeric: the value */
	size_t nanswers;
	const char *tolerance, *unit;   /* numeric */
	long lines, min_words, max_words;   /* essay (0: not given) */
	struct md_pair *pairs;
	size_t npairs;
	const char **distractors;
	size_t ndistractors;
};

int md_item_new(struct md_item **out, const struct qb_question *q, const struct md_paths *p);
void md_item_free(struct md_item *it);

/* The order an item is printed in: choices (or premises) and, for matching,
 * the response column (indices below npairs are the pairs' responses, the
 * others distractors). */
struct md_order {
	size_t *choice;              /* nchoices, or npairs for matching premises */
	size_t *response;            /* npairs + ndistractors */
};

/* Draws the order of IT's choices (or premises) and responses: bank order
 * when the question says shuffle="false" (and for truefalse); otherwise
 * choices and premises are shuffled with R when SHUFFLE_CHOICES (forms).
 * Matching responses are always shuffled (unless shuffle="false") and
 * never left in the premises' order, which would give the key away. */
int md_order_draw(struct md_order *o, const struct md_item *it, struct md_rand *r,
		  int shuffle_choices);
void md_order_dispose(struct md_order *o);

/* Writes question IT as number NUMBER to F (student or, with ANSWERS, the
 * teacher's version) and appends its answer-key row to KEY: a Markdown
 * table row; with FORMS, a fourth column maps the printed letters back to
 * the bank's options. */
int md_item_write(FILE *f, struct qb_buf *key, const struct md_item *it,
		  const struct md_order *o, unsigned long number, int answers, int forms,
		  const struct md_labels *l);

/* 1 when the Markdown stem MD already tells how many to pick ("Select
 * two", "Choose 3", "select all", or LABEL and a number), so that the
 * printed note would repeat it. */
int md_stem_says_select(const char *md, const char *label);

#endif
