/* The in-memory form of one question, as the reader hands it out.
 * Ownership: everything a qb_question points to (strings, arrays, libxml2
 * nodes) belongs to the reader and stays valid until the next call to
 * qb_reader_next() or qb_reader_free(). Rich-text parts are libxml2 element
 * nodes (stem, text, rationale, ...) whose children hold the markup; walk
 * them with text.h or an exporter's own renderer. */
#ifndef QB_MODEL_H
#define QB_MODEL_H

#include <stddef.h>

#include <libxml/tree.h>

enum qb_qtype {
	QB_Q_SINGLE,
	QB_Q_MULTIPLE,
	QB_Q_TRUEFALSE,
	QB_Q_SHORT,
	QB_Q_NUMERIC,
	QB_Q_ESSAY,
	QB_Q_MATCHING,
	QB_Q_UNKNOWN
};

struct qb_option {
	const xmlNode *node;       /* <option> */
	const xmlNode *text;       /* <text>, or NULL when missing (schema error) */
	const xmlNode *rationale;  /* <rationale>, or NULL */
	const char *id;            /* the option's id: @id, else its letter (A, B, ... Z, AA, AB, ...) */
	int explicit_id;           /* 1 when @id was given */
	int correct;
	unsigned long line;
	unsigned long text_line;
	unsigned long rationale_line;  /* 0 when there is no rationale */
};

/* <answer> of truefalse, short and numeric questions. */
struct qb_answer {
	const xmlNode *node;
	const char *value;         /* text content, white space trimmed */
	const char *tolerance;     /* @tolerance as written, or NULL */
	const char *unit;          /* @unit, or NULL */
	unsigned long line;
};

/* <rationale for="true|false"> of truefalse questions. */
struct qb_side_rationale {
	const xmlNode *node;
	int for_true;
	unsigned long line;
};

struct qb_pair {
	const xmlNode *node;
	const xmlNode *premise;
	const xmlNode *response;
	unsigned long line;
};

struct qb_distractor {
	const xmlNode *node;
	unsigned long line;
};

/* An XML comment that starts with "qbank-" (inline suppression), as written. */
struct qb_pragma {
	const char *text;          /* comment text, white space trimmed */
	unsigned long line;
};

struct qb_question {
	const char *file;          /* path as given */
	size_t file_index;         /* position of the file in the run (0-based) */
	unsigned long line;        /* line of <question> */
	const xmlNode *node;       /* <question> */

	const char *id;            /* NULL when missing */
	const char *type_name;     /* @type as written, NULL when missing */
	enum qb_qtype type;
	const char *points;        /* @points as written, NULL = default 1 */
	double points_value;
	int shuffle;               /* default 1 */
	int has_select;            /* @select present */
	long select;
	int case_sensitive;        /* @case-sensitive, default 0 */

	const char *source;        /* NULL when absent */
	const char *const *tags;
	size_t ntags;

	const xmlNode *stem;       /* NULL when missing (schema error) */
	unsigned long stem_line;
	const xmlNode *explanation;
	unsigned long explanation_line;

	const struct qb_option *options;
	size_t noptions;
	const struct qb_answer *answers;
	size_t nanswers;
	const struct qb_side_rationale *side_rationales;
	size_t nside_rationales;
	const struct qb_pair *pairs;
	size_t npairs;
	const struct qb_distractor *distractors;
	size_t ndistractors;

	const xmlNode *response;   /* essay <response>, or NULL */
	const xmlNode *rubric;     /* essay <rubric>, or NULL */

	/* Category path from the outermost category; may be empty. */
	const char *const *categories;
	size_t ncategories;
	size_t category_serial;    /* changes whenever the enclosing category changes */

	/* qbank-* comments since the previous question (inline suppression). */
	const struct qb_pragma *pragmas;
	size_t npragmas;

	/* 1 when the schema reported an error inside this question: its parts
	 * may be missing or malformed, so content rules skip it. */
	int schema_invalid;

	/* 1 when the question has no <img>, known without walking it (the
	 * reader's document has no element of that name yet); 0: not known,
	 * walk it. */
	int no_img;
};

/* The bank element of one file: title, description, language. */
struct qb_bank_info {
	const char *file;
	const char *id;            /* @id, or NULL */
	const char *lang;          /* @xml:lang, or NULL */
	const char *title;         /* plain text, or NULL */
	const xmlNode *description;/* block rich text, or NULL */
	unsigned long line;
	/* qbank-disable-file comments anywhere in the file up to now */
	const struct qb_pragma *file_pragmas;
	size_t nfile_pragmas;
};

extern const char *const qb_qtype_names[QB_Q_UNKNOWN];
enum qb_qtype qb_qtype_parse(const char *s);
int qb_qtype_is_choice(enum qb_qtype t);

#endif
