/* Pandoc Markdown export: printable exams (student and teacher versions,
 * shuffled forms with their answer keys) that `pandoc --pdf-engine=xelatex`
 * turns into PDF without hand editing.
 *
 * Without --forms the export streams: each question is written as it is
 * read. With --forms, the questions of one category (one run of questions
 * between category boundaries) are kept until the category ends, because
 * they are shuffled among themselves; memory grows with the largest
 * category, not with the bank. Answer-key rows go to a temporary file per
 * output and are copied to the end on commit.
 *
 * Outputs: -o exam.md writes exam.md; with --forms N, exam-A.md ...
 * (one per form, with its key at the end under --answers) and exam-key.md
 * (every form's key). Each file is written atomically (atomic.h).
 * Ownership: the state owns its outputs, spools and buffered questions;
 * the options belong to the caller. */
#include "exporters.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../atomic.h"
#include "../core/array.h"
#include "../core/buf.h"
#include "../text.h"
#include "md.h"

#define MAX_FORMS 26

/* The LaTeX that pandoc's default template gets through header-includes
 * (no custom template): the question box that keeps a question on one
 * page, ruled answer lines, the two columns of matching questions, and
 * fallback fonts for the characters DejaVu Sans lacks (CJK, emoji),
 * switched per character class since XeTeX has no font fallback. */
static const char latex_header[] =
	"\\renewcommand{\\abstractname}{Instructions}\n"
	"\\makeatletter\n"
	"% A question is set in a box and placed whole: TeX moves it to the next\n"
	"% page rather than split it. One taller than a page is unboxed and breaks.\n"
	"\\newbox\\qb@box\n"
	"\\newcommand{\\qbbegin}{\\par\\addvspace{\\bigskipamount}\\setbox\\qb@box\\vbox\\bgroup}\n"
	"\\newcommand{\\qbend}{\\par\\egroup\\ifdim\\dimexpr\\ht\\qb@box+\\dp\\qb@box\\relax>\\textheight\n"
	"  \\unvbox\\qb@box\\else\\box\\qb@box\\fi\\par\\addvspace{\\bigskipamount}}\n"
	"\\newcount\\qb@n\n"
	"\\newcommand{\\qblines}[1]{\\par\\qb@n=#1\\relax\\loop\\ifnum\\qb@n>0\n"
	"  \\vbox to 8mm{\\vfil\\hrule width\\linewidth}\\advance\\qb@n by -1 \\repeat\\par}\n"
	"\\newcommand{\\qbcolumns}{\\par\\noindent\\begin{minipage}[t]{0.47\\linewidth}}\n"
	"\\newcommand{\\qbnextcolumn}{\\end{minipage}\\hfill\\begin{minipage}[t]{0.47\\linewidth}}\n"
	"\\newcommand{\\qbendcolumns}{\\end{minipage}\\par}\n"
	"\\ifdefined\\XeTeXinterchartokenstate\n"
	"  \\XeTeXinterchartokenstate=1\n"
	"  \\def\\qb@enter#1{\\edef\\qb@family{\\f@family}#1}\n"
	"  \\def\\qb@leave{\\fontfamily{\\qb@family}\\selectfont}\n"
	"  \\def\\qb@class#1#2#3{\\qb@n=#2\\relax\\loop\\ifnum\\qb@n<#3\\relax\n"
	"    \\XeTeXcharclass\\qb@n=#1\\advance\\qb@n by 1 \\repeat}\n"
	"  \\def\\qb@fallback#1#2#3{% class, font command, font name\n"
	"    \\IfFontExistsTF{#3}{\\newfontfamily#2{#3}[AutoFakeBold=2.5,AutoFakeSlant=0.2]\n"
	"      \\XeTeXinterchartoks 0 #1={\\qb@enter#2}\\XeTeXinterchartoks 4095 #1={\\qb@enter#2}\n"
	"      \\XeTeXinterchartoks #1 0={\\qb@leave}\\XeTeXinterchartoks #1 4095={\\qb@leave}}{}}\n"
	"  \\newXeTeXintercharclass\\qb@cjk\n"
	"  \\newXeTeXintercharclass\\qb@emoji\n"
	"  \\qb@class\\qb@cjk{\"1100}{\"1200}\\qb@class\\qb@cjk{\"2E80}{\"A000}\n"
	"  \\qb@class\\qb@cjk{\"AC00}{\"D7B0}\\qb@class\\qb@cjk{\"F900}{\"FB00}\n"
	"  \\qb@class\\qb@cjk{\"FE30}{\"FE50}\\qb@class\\qb@cjk{\"FF00}{\"FFF0}\n"
	"  \\qb@class\\qb@cjk{\"20000}{\"2FA20}\n"
	"  \\qb@class\\qb@emoji{\"1F000}{\"1FB00}\n"
	"  \\qb@fallback\\qb@cjk\\qb@cjkfont{WenQuanYi Micro Hei}\n"
	"  \\qb@fallback\\qb@emoji\\qb@emojifont{Symbola}\n"
	"  \\XeTeXinterchartoks\\qb@cjk\\qb@emoji={\\qb@leave\\qb@enter\\qb@emojifont}\n"
	"  \\XeTeXinterchartoks\\qb@emoji\\qb@cjk={\\qb@leave\\qb@enter\\qb@cjkfont}\n"
	"\\fi\n"
	"\\makeatother\n";

struct md_out {
	struct qb_atomic *a;
	FILE *key;                 /* answer-key rows, spooled */
	unsigned long number;      /* questions written */
	char letter;               /* form letter, or 0 */
};

struct md_state {
	int answers, nforms, has_title;
	uint64_t seed;
	struct qb_buf title;       /* Markdown */
	struct md_out out[MAX_FORMS];
	int nout;
	struct qb_atomic *keyfile; /* forms: every form's key */
	struct md_paths paths;
	int header_done;
	double total;              /* points */
	/* forms: the questions of the current category */
	struct md_item **group;
	size_t ngroup, capgroup;
	size_t gfile, gserial;
};

/* ---- file names and header ---------------------------------------------- */

static int form_name(struct qb_buf *out, const char *output, const char *suffix)
{
	size_t n = strlen(output);

	if (n > 3 && strcmp(output + n - 3, ".md") == 0)
		n -= 3;
	return qb_buf_printf(out, "%.*s-%s.md", (int)n, output, suffix);
}

/* "title: |-" and the Markdown MD, each line indented for a YAML block
 * scalar (whose content YAML takes literally and pandoc reads as
 * Markdown). */
static int yaml_block(struct qb_buf *b, const char *key, const char *md)
{
	int rc = qb_buf_printf(b, "%s: |-\n", key);

	if (!rc && md)
		rc = md_indent(b, md, "  ");
	return rc ? rc : qb_buf_addc(b, '\n');
}

static int write_header(FILE *f, const struct md_state *st, const char *subtitle,
			const char *instructions, char form, int name_line)
{
	struct qb_buf b = QB_BUF_INIT;
	int rc;

	rc = qb_buf_adds(&b, "---\n");
	if (!rc)
		rc = yaml_block(&b, "title", st->title.ptr);
	if (!rc && subtitle)
		rc = yaml_block(&b, "subtitle", subtitle);
	if (!rc)
		rc = qb_buf_adds(&b, "# date: the exam's date, e.g. \"12 June 2025\" (empty: none)\n"
				     "date: \"\"\n");
	if (!rc && instructions && instructions[0])
		rc = yaml_block(&b, "abstract", instructions);
	if (!rc)
		rc = qb_buf_adds(&b,
			"papersize: a4\n"
			"geometry: margin=2.2cm\n"
			"fontsize: 11pt\n"
			"# DejaVu covers Latin, Greek and Cyrillic; Ligatures=TeXOff keeps\n"
			"# quotes, backticks and -- as typed\n"
			"mainfont: DejaVu Sans\n"
			"mainfontoptions: [Ligatures=TeXOff]\n"
			"monofont: DejaVu Sans Mono\n"
			"mathfont: DejaVu Math TeX Gyre\n"
			"header-includes: |\n"
			"  ```{=latex}\n");
	if (!rc)
		rc = md_indent(&b, latex_header, "  ");
	if (!rc && form)
		rc = qb_buf_printf(&b, "  \\pagestyle{myheadings}\\AtBeginDocument{\\markright{Form %c}}\n",
				   form);
	if (!rc)
		rc = qb_buf_adds(&b, "  ```\n---\n\n");
	if (!rc && name_line)
		rc = qb_buf_adds(&b, "Name: \\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_"
				     "\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_ "
				     "Student number: \\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\n\n");
	if (!rc && fwrite(b.ptr, 1, b.len, f) != b.len)
		rc = QB_EIO;
	qb_buf_dispose(&b);
	return rc;
}

static int write_headers(struct md_state *st, const char *instructions)
{
	struct qb_buf sub = QB_BUF_INIT;
	int i, rc = 0;

	for (i = 0; i < st->nout && !rc; i++) {
		qb_buf_clear(&sub);
		if (st->out[i].letter && st->answers)
			rc = qb_buf_printf(&sub, "Form %c: teacher\\'s version", st->out[i].letter);
		else if (st->out[i].letter)
			rc = qb_buf_printf(&sub, "Form %c", st->out[i].letter);
		else if (st->answers)
			rc = qb_buf_adds(&sub, "Teacher\\'s version");
		if (!rc)
			rc = write_header(qb_atomic_file(st->out[i].a), st, sub.len ? sub.ptr : NULL,
					  instructions, st->out[i].letter, !st->answers);
	}
	if (!rc && st->keyfile) {
		qb_buf_clear(&sub);
		rc = qb_buf_printf(&sub, st->nforms > 1 ? "Answer keys: forms A" "\xe2\x80\x93" "%c"
				       : "Answer key: form A", 'A' + st->nforms - 1);
		if (!rc)
			rc = write_header(qb_atomic_file(st->keyfile), st, sub.ptr, NULL, 0, 0);
	}
	st->header_done = 1;
	qb_buf_dispose(&sub);
	return rc;
}

/* ---- exporter entry points ---------------------------------------------- */

static void state_free(struct md_state *st, int abort_outputs)
{
	size_t k;
	int i;

	if (!st)
		return;
	for (i = 0; i < st->nout; i++) {
		if (abort_outputs)
			qb_atomic_abort(st->out[i].a);
		if (st->out[i].key)
			(void)fclose(st->out[i].key);  /* a scratch file, discarded */
	}
	if (abort_outputs)
		qb_atomic_abort(st->keyfile);
	for (k = 0; k < st->ngroup; k++)
		md_item_free(st->group[k]);
	free(st->group);
	md_paths_dispose(&st->paths);
	qb_buf_dispose(&st->title);
	free(st);
}

int qb_md_open(void **state, const struct qb_export_opts *o, struct qb_error *err)
{
	struct md_state *st;
	struct qb_buf name = QB_BUF_INIT;
	int i, rc = 0;

	*state = NULL;
	if (o->forms && (!o->output || strcmp(o->output, "-") == 0)) {
		qb_error_set(err, QB_EINVAL, "--forms writes one file per form and a key file: "
			     "name them with -o FILE.md (FILE-A.md, FILE-B.md, ..., FILE-key.md)");
		return QB_EINVAL;
	}
	if (o->forms > MAX_FORMS) {
		qb_error_set(err, QB_EINVAL, "--forms takes at most %d forms (A to Z)", MAX_FORMS);
		return QB_EINVAL;
	}
	st = calloc(1, sizeof(*st));
	if (!st)
		return QB_ENOMEM;
	st->answers = o->answers;
	st->nforms = o->forms;
	st->seed = o->has_seed ? (uint64_t)o->seed : 0;
	if (o->title) {
		st->has_title = 1;
		rc = md_plain(&st->title, o->title, strlen(o->title));
	}
	if (!rc)
		rc = md_paths_output(&st->paths, o->output);
	for (i = 0; i < (o->forms ? o->forms : 1) && !rc; i++) {
		struct md_out *out = &st->out[i];

		qb_buf_clear(&name);
		out->letter = o->forms ? (char)('A' + i) : 0;
		if (o->forms)
			rc = form_name(&name, o->output, (char[]){ out->letter, '\0' });
		if (!rc)
			rc = qb_atomic_open(&out->a, o->forms ? name.ptr : o->output, err);
		if (rc)
			break;
		st->nout++;
		if (o->answers || o->forms) {
			out->key = tmpfile();
			if (!out->key) {
				qb_error_set(err, QB_EIO, "cannot create a temporary file for the answer key");
				rc = QB_EIO;
			}
		}
	}
	if (!rc && o->forms) {
		qb_buf_clear(&name);
		rc = form_name(&name, o->output, "key");
		if (!rc)
			rc = qb_atomic_open(&st->keyfile, name.ptr, err);
	}
	qb_buf_dispose(&name);
	if (rc) {
		if (rc == QB_ENOMEM)
			qb_error_set(err, rc, "out of memory");
		state_free(st, 1);
		return rc;
	}
	*state = st;
	return 0;
}

/* Names the output whose write failed and the cause (a full disk, say),
 * taken from the output itself rather than from errno, which may have
 * changed since. Returns QB_EIO. */
static int write_failed(struct md_state *st, struct qb_error *err)
{
	int e = errno, i, found = 0;
	const char *path = qb_atomic_path(st->out[0].a);

	for (i = 0; i < st->nout && !found; i++)
		if ((found = qb_atomic_write_error(st->out[i].a)))
			path = qb_atomic_path(st->out[i].a);
	if (!found && (found = qb_atomic_write_error(st->keyfile)))
		path = qb_atomic_path(st->keyfile);
	if (found)
		e = found;
	if (!err->msg[0])
		qb_error_set(err, QB_EIO, "%s: write failed: %s",
			     strcmp(path, "-") != 0 ? path : "standard output", strerror(e ? e : EIO));
	return QB_EIO;
}

static int bank(struct md_state *st, const struct qb_bank_info *b)
{
	struct qb_buf instr = QB_BUF_INIT;
	int rc = 0;

	/* the first file gives the title and the instructions */
	if (st->header_done)
		return 0;
	if (!st->has_title) {
		const char *t = b->title && b->title[0] ? b->title : b->id ? b->id : "Exam";

		rc = md_plain(&st->title, t, strlen(t));
	}
	if (!rc)
		rc = md_paths_bank(&st->paths, b->file);
	if (!rc)
		rc = md_blocks(&instr, b->description, &st->paths, NULL);
	if (!rc)
		rc = write_headers(st, instr.ptr);
	qb_buf_dispose(&instr);
	return rc;
}

/* Writes one question to output OUT, its key row to the spool. */
static int emit(struct md_state *st, struct md_out *out, const struct md_item *it, int forms)
{
	struct qb_buf key = QB_BUF_INIT;
	struct md_order order = { NULL, NULL };
	struct md_rand r;
	int rc;

	md_rand_init(&r, st->seed, out->letter, it->id_hash);
	rc = md_order_draw(&order, it, &r, forms);
	if (!rc)
		rc = md_item_write(qb_atomic_file(out->a), &key, it, &order, ++out->number,
				   st->answers, forms);
	if (!rc && out->key && fwrite(key.ptr, 1, key.len, out->key) != key.len)
		rc = QB_EIO;
	md_order_dispose(&order);
	qb_buf_dispose(&key);
	return rc;
}

/* Forms: prints the buffered category in every form, each in its own
 * order, then lets the questions go. */
static int flush_group(struct md_state *st)
{
	size_t *perm, k;
	char salt[64];
	int i, rc = 0;

	if (st->ngroup == 0)
		return 0;
	perm = calloc(st->ngroup, sizeof(*perm));
	if (!perm)
		return QB_ENOMEM;
	snprintf(salt, sizeof(salt), "category %zu %zu", st->gfile, st->gserial);
	for (i = 0; i < st->nout && !rc; i++) {
		struct md_rand r;

		md_rand_init(&r, st->seed, st->out[i].letter, qb_hash64(salt, strlen(salt)));
		md_rand_perm(&r, perm, st->ngroup);
		for (k = 0; k < st->ngroup && !rc; k++)
			rc = emit(st, &st->out[i], st->group[perm[k]], 1);
	}
	for (k = 0; k < st->ngroup; k++)
		md_item_free(st->group[k]);
	st->ngroup = 0;
	free(perm);
	return rc;
}

int qb_md_bank(void *state, const struct qb_bank_info *b, struct qb_error *err)
{
	struct md_state *st = state;
	int rc = bank(st, b);

	return rc == QB_EIO ? write_failed(st, err) : rc;
}

static int question(struct md_state *st, const struct qb_question *q)
{
	struct md_item *it = NULL;
	int rc;

	if (!st->header_done) {
		struct qb_bank_info none;

		memset(&none, 0, sizeof(none));
		none.file = q->file;
		rc = bank(st, &none);
		if (rc)
			return rc;
	}
	rc = md_paths_bank(&st->paths, q->file);
	if (!rc)
		rc = md_item_new(&it, q, &st->paths);
	if (rc)
		return rc;
	st->total += it->points_value;
	if (!st->nforms) {
		rc = emit(st, &st->out[0], it, 0);
		md_item_free(it);
		return rc;
	}
	if (st->ngroup > 0 && (q->file_index != st->gfile || q->category_serial != st->gserial))
		rc = flush_group(st);
	/* an array of pointers: sizeof(*st->group) is meant */
	if (!rc)
		rc = QB_ARRAY_PUSH(st->group, st->ngroup, st->capgroup, it);  /* NOLINT(bugprone-sizeof-expression) */
	if (rc) {
		md_item_free(it);
		return rc;
	}
	st->gfile = q->file_index;
	st->gserial = q->category_serial;
	return 0;
}

int qb_md_question(void *state, const struct qb_question *q, struct qb_error *err)
{
	struct md_state *st = state;
	int rc = question(st, q);

	return rc == QB_EIO ? write_failed(st, err) : rc;
}

/* "Total: 31 points", the sum printed without a locale's decimal comma. */
static int total_line(struct qb_buf *b, double total)
{
	long long whole = (long long)floor(total + 1e-9);
	long long frac = llround((total - (double)whole) * 100.0);

	if (frac >= 100) {
		whole++;
		frac -= 100;
	}
	if (frac == 0)
		return qb_buf_printf(b, "\nTotal: %lld point%s\n", whole, whole == 1 ? "" : "s");
	return qb_buf_printf(b, "\nTotal: %lld.%02lld points\n", whole, frac);
}

/* A key table: its head, the spooled rows. The long rule makes pandoc
 * wrap cells and size the columns by their dashes. */
static int copy_key(FILE *to, FILE *rows, int forms, double total)
{
	struct qb_buf b = QB_BUF_INIT;
	char buf[65536];
	size_t n;
	int rc = 0;

	if (forms)
		rc = qb_buf_adds(&b, "| No. | Question | Key | Printed = bank |\n"
				     "|---:|:----------------------|:------------------------------|"
				     ":---------------------------|\n");
	else
		rc = qb_buf_adds(&b, "| No. | Question | Key |\n"
				     "|---:|:------------------------------------|"
				     ":----------------------------------------|\n");
	if (!rc && fwrite(b.ptr, 1, b.len, to) != b.len)
		rc = QB_EIO;
	if (!rc && (fflush(rows) != 0 || fseek(rows, 0, SEEK_SET) != 0))
		rc = QB_EIO;
	while (!rc && (n = fread(buf, 1, sizeof(buf), rows)) > 0)
		if (fwrite(buf, 1, n, to) != n)
			rc = QB_EIO;
	if (!rc && ferror(rows))
		rc = QB_EIO;
	qb_buf_clear(&b);
	if (!rc)
		rc = total_line(&b, total);
	if (!rc && fwrite(b.ptr, 1, b.len, to) != b.len)
		rc = QB_EIO;
	qb_buf_dispose(&b);
	return rc;
}

int qb_md_commit(void *state, struct qb_error *err)
{
	struct md_state *st = state;
	int i, rc = 0;

	if (!st->header_done) {
		struct qb_bank_info none;

		memset(&none, 0, sizeof(none));
		none.file = ".";
		rc = bank(st, &none);
	}
	if (!rc)
		rc = flush_group(st);
	for (i = 0; i < st->nout && !rc; i++) {
		FILE *f = qb_atomic_file(st->out[i].a);

		if (!st->answers)
			continue;
		if (fputs("```{=latex}\n\\newpage\n```\n\n# Answer key\n\n", f) == EOF)
			rc = QB_EIO;
		if (!rc)
			rc = copy_key(f, st->out[i].key, st->nforms > 0, st->total);
	}
	for (i = 0; i < st->nout && st->keyfile && !rc; i++) {
		FILE *f = qb_atomic_file(st->keyfile);

		/* one page per form: a teacher grades one form at a time */
		if (fprintf(f, "%s# Form %c\n\n", i ? "\n```{=latex}\n\\newpage\n```\n\n" : "",
			    st->out[i].letter) < 0)
			rc = QB_EIO;
		if (!rc)
			rc = copy_key(f, st->out[i].key, 1, st->total);
	}
	if (rc == QB_EIO)
		write_failed(st, err);
	else if (rc)
		qb_error_set(err, rc, rc == QB_ENOMEM ? "out of memory"
			     : "%s: cannot write the exam", qb_atomic_path(st->out[0].a));
	if (rc) {
		state_free(st, 1);
		return rc;
	}
	/* every file is written: move them into place as one, so that the
	 * forms and their key are all new or all old (atomic.h) */
	{
		struct qb_atomic *all[MAX_FORMS + 1];
		int n = 0;

		for (i = 0; i < st->nout; i++) {
			all[n++] = st->out[i].a;
			st->out[i].a = NULL;
		}
		all[n++] = st->keyfile;
		st->keyfile = NULL;
		rc = qb_atomic_commit_all(all, (size_t)n, err);
	}
	state_free(st, 1);
	return rc;
}

void qb_md_abort(void *state)
{
	state_free(state, 1);
}

/* The target check (exporter.h): a printed exam and its answer key state
 * the key the bank gives. A single question with no correct option, or
 * with several, would print a key that contradicts its own instruction
 * ("choose one"), and a multiple question with none a key with no box. */
int qb_md_check(const struct qb_question *q, const struct qb_target_sink *s)
{
	size_t i, k = 0;

	if (!qb_qtype_is_choice(q->type) || !q->id)
		return 0;
	for (i = 0; i < q->noptions; i++)
		k += q->options[i].correct != 0;
	if (q->type == QB_Q_SINGLE && k != 1)
		return qb_target_report(s, q, QB_RULE_TARGET_MARKDOWN_KEY,
					k ? QB_RULE_KEY_MULTIPLE : QB_RULE_KEY_MISSING, 0,
					"a single question asks for one answer; its answer key "
					"would tick %zu options", k);
	if (k == 0)
		return qb_target_report(s, q, QB_RULE_TARGET_MARKDOWN_KEY, QB_RULE_KEY_MISSING, 0,
					"no correct option: the answer key would tick none");
	return 0;
}
