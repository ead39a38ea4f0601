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
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../atomic.h"
#include "../core/array.h"
#include "../core/buf.h"
#include "../tempfile.h"
#include "../text.h"
#include "md.h"

#define MAX_FORMS 26

/* The LaTeX that pandoc's default template gets through header-includes
 * (no custom template): the question box that keeps a question on one
 * page, ruled answer lines, the two columns of matching questions, and
 * fallback fonts for the characters DejaVu Sans lacks (CJK, emoji),
 * switched per character class since XeTeX has no font fallback. */
static const char latex_header[] =
	"\\usepackage{multicol}\n"
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
	"\\newcommand{\\qbspace}[1]{\\par\\vspace{#1\\dimexpr8mm\\relax}}\n"
	"% matching columns ragged-right: justified, narrow columns get wide gaps\n"
	"\\newcommand{\\qbcolumns}{\\par\\noindent\\begin{minipage}[t]{0.47\\linewidth}\\raggedright}\n"
	"\\newcommand{\\qbnextcolumn}{\\end{minipage}\\hfill\\begin{minipage}[t]{0.47\\linewidth}\\raggedright}\n"
	"% answer sheet: lettered bubbles, filled on the key\n"
	"% U+25CB and U+25CF of DejaVu Sans, the letter on top (white on the\n"
	"% filled one): the text layer still reads the letter and which is filled\n"
	"\\newcommand{\\qbbubble}[1]{\\makebox[6.5mm]{\\makebox[0pt]{\\Large\\symbol{\"25CB}}"
	"\\makebox[0pt]{\\raisebox{0.35ex}{\\scriptsize #1}}}}\n"
	"\\newcommand{\\qbfilled}[1]{\\makebox[6.5mm]{\\makebox[0pt]{\\Large\\symbol{\"25CF}}"
	"\\makebox[0pt]{\\raisebox{0.35ex}{\\scriptsize\\color{white}#1}}}}\n"
	"\\newcommand{\\qbrow}[2]{\\noindent\\makebox[9mm][r]{\\textbf{#1.}}\\hspace{2mm}#2\\par\\vspace{1.2mm}}\n"
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
	struct qb_spool body;      /* the questions, spooled: the header needs the total */
	struct qb_spool key;       /* answer-key rows, spooled */
	struct qb_spool sheet;     /* forms: "number letters" of each choice question */
	unsigned long number;      /* questions written */
	char letter;               /* form letter, or 0 */
};

struct md_state {
	int answers, nforms, has_title;
	uint64_t seed;
	struct qb_buf title;       /* Markdown */
	struct qb_buf course, date, duration;   /* Markdown, empty when not given */
	char *instructions;        /* Markdown: the file's, or the first bank's description */
	int has_instructions_file;
	const char *labels_file;
	struct md_labels labels;
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

#define L(id) md_label(&st->labels, id)

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

/* Plain text S for LaTeX: its specials as commands. */
static int latex_text(struct qb_buf *b, const char *s)
{
	static const char *const special[][2] = {
		{ "\\", "\\textbackslash{}" }, { "{", "\\{" }, { "}", "\\}" }, { "$", "\\$" },
		{ "&", "\\&" }, { "#", "\\#" }, { "^", "\\^{}" }, { "_", "\\_" }, { "%", "\\%" },
		{ "~", "\\~{}" },
	};
	size_t k;
	int rc = 0;

	for (; *s && !rc; s++) {
		for (k = 0; k < sizeof(special) / sizeof(special[0]); k++)
			if (*s == special[k][0][0])
				break;
		rc = k < sizeof(special) / sizeof(special[0]) ? qb_buf_adds(b, special[k][1])
							       : qb_buf_addc(b, *s);
	}
	return rc;
}

/* "31 points", the sum printed without a locale's decimal comma. */
static int total_text(struct qb_buf *b, const struct md_state *st)
{
	long long whole = (long long)floor(st->total + 1e-9);
	long long frac = llround((st->total - (double)whole) * 100.0);

	if (frac >= 100) {
		whole++;
		frac -= 100;
	}
	if (frac == 0)
		return qb_buf_printf(b, "%lld %s", whole, L(whole == 1 ? MD_L_POINT : MD_L_POINTS));
	return qb_buf_printf(b, "%lld.%02lld %s", whole, frac, L(MD_L_POINTS));
}

static int write_header(FILE *f, const struct md_state *st, const char *subtitle,
			const char *instructions, char form, int exam, int name_line)
{
	struct qb_buf b = QB_BUF_INIT;
	int rc;

	rc = qb_buf_adds(&b, "---\n");
	if (!rc)
		rc = yaml_block(&b, "title", st->title.ptr);
	if (!rc && subtitle)
		rc = yaml_block(&b, "subtitle", subtitle);
	if (!rc && st->date.len)
		rc = yaml_block(&b, "date", st->date.ptr);
	else if (!rc)
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
			"  ```{=latex}\n"
			"  \\renewcommand{\\abstractname}{");
	if (!rc)
		rc = latex_text(&b, md_label_plain(&st->labels, MD_L_INSTRUCTIONS));
	if (!rc)
		rc = qb_buf_adds(&b, "}\n");
	if (!rc)
		rc = md_indent(&b, latex_header, "  ");
	if (!rc && form) {
		rc = qb_buf_adds(&b, "  \\pagestyle{myheadings}\\AtBeginDocument{\\markright{");
		if (!rc)
			rc = latex_text(&b, md_label_plain(&st->labels, MD_L_FORM));
		if (!rc)
			rc = qb_buf_printf(&b, " %c}}\n", form);
	}
	if (!rc)
		rc = qb_buf_adds(&b, "  ```\n---\n\n");
	/* course, duration and total under the title, one per line */
	if (!rc && exam && st->course.len)
		rc = qb_buf_printf(&b, "**%s:** %s\\\n", L(MD_L_COURSE), st->course.ptr);
	if (!rc && exam && st->duration.len)
		rc = qb_buf_printf(&b, "**%s:** %s\\\n", L(MD_L_DURATION), st->duration.ptr);
	if (!rc && exam)
		rc = qb_buf_printf(&b, "**%s:** ", L(MD_L_TOTAL));
	if (!rc && exam)
		rc = total_text(&b, st);
	if (!rc && exam)
		rc = qb_buf_adds(&b, "\n\n");
	if (!rc && name_line)
		rc = qb_buf_printf(&b, "%s: \\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_"
				     "\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_ "
				     "%s: \\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\n\n",
				   L(MD_L_NAME), L(MD_L_STUDENT_NUMBER));
	if (!rc && fwrite(b.ptr, 1, b.len, f) != b.len)
		rc = QB_EIO;
	qb_buf_dispose(&b);
	return rc;
}

static int write_exam_header(struct md_state *st, struct md_out *out)
{
	struct qb_buf sub = QB_BUF_INIT;
	int rc = 0;

	if (out->letter && st->answers)
		rc = qb_buf_printf(&sub, "%s %c: %s", L(MD_L_FORM), out->letter, L(MD_L_TEACHER));
	else if (out->letter)
		rc = qb_buf_printf(&sub, "%s %c", L(MD_L_FORM), out->letter);
	else if (st->answers)
		rc = qb_buf_adds(&sub, L(MD_L_TEACHER));
	if (!rc)
		rc = write_header(qb_atomic_file(out->a), st, sub.len ? sub.ptr : NULL,
				  st->instructions, out->letter, 1, !st->answers);
	qb_buf_dispose(&sub);
	return rc;
}

static int write_key_header(struct md_state *st)
{
	struct qb_buf sub = QB_BUF_INIT;
	int rc;

	if (st->nforms > 1)
		rc = qb_buf_printf(&sub, "%s: %s A" "\xe2\x80\x93" "%c", L(MD_L_ANSWER_KEY), L(MD_L_FORM),
				   'A' + st->nforms - 1);
	else
		rc = qb_buf_printf(&sub, "%s: %s A", L(MD_L_ANSWER_KEY), L(MD_L_FORM));
	if (!rc)
		rc = write_header(qb_atomic_file(st->keyfile), st, sub.ptr, NULL, 0, 0, 0);
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
		/* scratch files, discarded */
		qb_spool_close(&st->out[i].key);
		qb_spool_close(&st->out[i].body);
		qb_spool_close(&st->out[i].sheet);
	}
	if (abort_outputs)
		qb_atomic_abort(st->keyfile);
	for (k = 0; k < st->ngroup; k++)
		md_item_free(st->group[k]);
	free(st->group);
	md_paths_dispose(&st->paths);
	md_labels_dispose(&st->labels);
	qb_buf_dispose(&st->title);
	qb_buf_dispose(&st->course);
	qb_buf_dispose(&st->date);
	qb_buf_dispose(&st->duration);
	free(st->instructions);
	free(st);
}

/* --instructions FILE: the author's Markdown, as written (1 MB at most). */
static int read_instructions(struct md_state *st, const char *path, struct qb_error *err)
{
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f) {
		qb_error_set(err, QB_EIO, "%s: cannot read the instructions: %s", path, strerror(errno));
		return QB_EIO;
	}
	st->instructions = malloc((1 << 20) + 1);
	if (!st->instructions) {
		(void)fclose(f);   /* read only */
		return QB_ENOMEM;
	}
	n = fread(st->instructions, 1, 1 << 20, f);
	(void)fclose(f);   /* read only */
	while (n > 0 && (st->instructions[n - 1] == '\n' || st->instructions[n - 1] == '\r' ||
			 st->instructions[n - 1] == ' '))
		n--;
	st->instructions[n] = '\0';
	st->has_instructions_file = 1;
	return 0;
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
	if (!rc && o->course)
		rc = md_plain(&st->course, o->course, strlen(o->course));
	if (!rc && o->date)
		rc = md_plain(&st->date, o->date, strlen(o->date));
	if (!rc && o->duration)
		rc = md_plain(&st->duration, o->duration, strlen(o->duration));
	st->labels_file = o->labels;
	if (!rc && o->instructions)
		rc = read_instructions(st, o->instructions, err);
	/* the labels file is read now, so that a bad one fails before any work */
	if (!rc)
		rc = md_labels_resolve(&st->labels, NULL, o->labels, err);
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
		rc = qb_spool_open(&out->body);
		if (!rc && (o->answers || o->forms))
			rc = qb_spool_open(&out->key);
		if (!rc && o->forms)
			rc = qb_spool_open(&out->sheet);
		if (rc == QB_EIO)
			qb_error_set(err, QB_EIO, "cannot create a temporary file: %s", strerror(errno));
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
	struct qb_error lerr = { 0, "" };   /* the file was read once at open */
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
	if (!rc && !st->has_instructions_file)
		rc = md_blocks(&instr, b->description, &st->paths, NULL);
	if (!rc && !st->has_instructions_file && instr.len) {
		st->instructions = qb_buf_detach(&instr);
		if (!st->instructions)
			rc = QB_ENOMEM;
	}
	/* the words of the bank's language, the labels file's first */
	if (!rc && b->lang)
		rc = md_labels_resolve(&st->labels, b->lang, st->labels_file, &lerr);
	st->header_done = 1;
	qb_buf_dispose(&instr);
	return rc;
}

/* The answer sheet's row of a choice question: its number, then a letter
 * per printed option, upper case for the correct ones ("12 aBc"). */
static int sheet_row(FILE *f, const struct md_item *it, const struct md_order *o,
		     unsigned long number)
{
	size_t k;

	if (it->type != QB_Q_SINGLE && it->type != QB_Q_MULTIPLE && it->type != QB_Q_TRUEFALSE)
		return 0;
	if (it->nchoices > 26)
		return 0;   /* no bubbles beyond Z: the exam's own letters take over */
	if (fprintf(f, "%lu ", number) < 0)
		return QB_EIO;
	for (k = 0; k < it->nchoices; k++)
		if (fputc(it->choices[o->choice[k]].correct ? 'A' + (int)k : 'a' + (int)k, f) == EOF)
			return QB_EIO;
	return fputc('\n', f) == EOF ? QB_EIO : 0;
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
		rc = md_item_write(out->body.f, &key, it, &order, ++out->number, st->answers, forms,
				   &st->labels);
	if (!rc && out->key.f && fwrite(key.ptr, 1, key.len, out->key.f) != key.len)
		rc = QB_EIO;
	if (!rc && out->sheet.f)
		rc = sheet_row(out->sheet.f, it, &order, out->number);
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

/* A new page in the PDF and in the Word file (other formats drop both). */
#define PAGE_BREAK "```{=latex}\n\\newpage\n```\n\n" \
	"```{=openxml}\n<w:p><w:r><w:br w:type=\"page\"/></w:r></w:p>\n```\n\n"

/* Copies what was spooled in FROM to the end of output TO. */
static int copy_spool(struct qb_atomic *to, FILE *from)
{
	if (fflush(from) != 0 || fseek(from, 0, SEEK_SET) != 0)
		return QB_EIO;
	return qb_atomic_copy(to, from, UINT64_MAX);
}

/* A key table: its head, the spooled rows. The long rule makes pandoc
 * wrap cells and size the columns by their dashes. */
static int copy_key(struct qb_atomic *a, FILE *rows, int forms, const struct md_state *st)
{
	FILE *to = qb_atomic_file(a);
	struct qb_buf b = QB_BUF_INIT;
	int rc = 0;

	if (forms)
		rc = qb_buf_printf(&b, "| %s | %s | %s | %s |\n"
				       "|---:|:----------------------|:------------------------------|"
				       ":---------------------------|\n", L(MD_L_NO), L(MD_L_QUESTION),
				   L(MD_L_KEY), L(MD_L_PRINTED));
	else
		rc = qb_buf_printf(&b, "| %s | %s | %s |\n"
				       "|---:|:------------------------------------|"
				       ":----------------------------------------|\n", L(MD_L_NO),
				   L(MD_L_QUESTION), L(MD_L_KEY));
	if (!rc && fwrite(b.ptr, 1, b.len, to) != b.len)
		rc = QB_EIO;
	if (!rc)
		rc = copy_spool(a, rows);
	qb_buf_clear(&b);
	if (!rc)
		rc = qb_buf_printf(&b, "\n%s: ", L(MD_L_TOTAL));
	if (!rc)
		rc = total_text(&b, st);
	if (!rc)
		rc = qb_buf_addc(&b, '\n');
	if (!rc && fwrite(b.ptr, 1, b.len, to) != b.len)
		rc = QB_EIO;
	qb_buf_dispose(&b);
	return rc;
}

#define SHEET_DIGITS 8     /* the student-number grid's columns */

/* The answer sheet of form OUT, as one LaTeX block (the PDF's; other
 * formats leave it out): the form letter, name and student-number grid,
 * then a row of lettered bubbles per choice question, in two columns.
 * FILLED: the key's copy, the same page with the correct bubbles filled,
 * for an overlay. */
static int write_sheet(FILE *f, const struct md_state *st, const struct md_out *out, int filled)
{
	struct qb_buf b = QB_BUF_INIT;
	char line[128];
	int rc, d, k;

	rc = qb_buf_adds(&b, "```{=latex}\n\\begin{center}{\\Large\\textbf{");
	if (!rc)
		rc = latex_text(&b, md_label_plain(&st->labels, filled ? MD_L_ANSWER_KEY : MD_L_ANSWER_SHEET));
	if (!rc)
		rc = qb_buf_adds(&b, " \\textbullet{} ");
	if (!rc)
		rc = latex_text(&b, md_label_plain(&st->labels, MD_L_FORM));
	if (!rc)
		rc = qb_buf_printf(&b, " %c}}\\end{center}\n", out->letter);
	/* the same page on the key, so that it lies over a student's sheet */
	if (!rc) {
		rc = qb_buf_adds(&b, "\\noindent ");
		if (!rc)
			rc = latex_text(&b, md_label_plain(&st->labels, MD_L_NAME));
		if (!rc)
			rc = qb_buf_adds(&b, ": \\rule{0.55\\linewidth}{0.4pt}\\par\\bigskip\n"
					     "\\noindent\\begin{minipage}[t]{0.45\\linewidth}\\textbf{");
		if (!rc)
			rc = latex_text(&b, md_label_plain(&st->labels, MD_L_STUDENT_NUMBER));
		if (!rc)
			rc = qb_buf_printf(&b, "}\\par\\smallskip\n\\setlength{\\tabcolsep}{0.6mm}"
					       "\\setlength{\\unitlength}{1mm}\\begin{tabular}{*{%d}{c}}\n",
					   SHEET_DIGITS);
		for (k = 0; k < SHEET_DIGITS && !rc; k++)
			rc = qb_buf_adds(&b, k ? "&\\framebox(5.5,6){}" : "\\framebox(5.5,6){}");
		if (!rc)
			rc = qb_buf_adds(&b, "\\\\\n");
		for (d = 0; d < 10 && !rc; d++) {
			for (k = 0; k < SHEET_DIGITS && !rc; k++)
				rc = qb_buf_printf(&b, "%s\\qbbubble{%d}", k ? "&" : "", d);
			if (!rc)
				rc = qb_buf_adds(&b, "\\\\\n");
		}
		if (!rc)
			rc = qb_buf_adds(&b, "\\end{tabular}\\end{minipage}\\hfill\n"
					     "\\begin{minipage}[t]{0.45\\linewidth}\\centering\n"
					     "\\fbox{\\begin{minipage}{0.5\\linewidth}\\centering\\vspace{2mm}");
		if (!rc)
			rc = latex_text(&b, md_label_plain(&st->labels, MD_L_FORM));
		if (!rc)
			rc = qb_buf_printf(&b, "\\par{\\Huge\\textbf{%c}}\\vspace{2mm}\\end{minipage}}"
					       "\\end{minipage}\\par\\bigskip\n", out->letter);
	}
	if (!rc)
		rc = qb_buf_adds(&b, "\\begin{multicols}{2}\n");
	if (!rc && fwrite(b.ptr, 1, b.len, f) != b.len)
		rc = QB_EIO;
	qb_buf_clear(&b);
	if (!rc && (fflush(out->sheet.f) != 0 || fseek(out->sheet.f, 0, SEEK_SET) != 0))
		rc = QB_EIO;
	while (!rc && fgets(line, sizeof(line), out->sheet.f)) {
		char *sp = strchr(line, ' ');

		if (!sp)
			continue;
		qb_buf_clear(&b);
		rc = qb_buf_printf(&b, "\\qbrow{%.*s}{", (int)(sp - line), line);
		for (sp++; !rc && *sp >= 'A' && (*sp <= 'Z' || (*sp >= 'a' && *sp <= 'z')); sp++)
			rc = qb_buf_printf(&b, *sp <= 'Z' && filled ? "\\qbfilled{%c}" : "\\qbbubble{%c}",
					   *sp <= 'Z' ? *sp : *sp - 'a' + 'A');
		if (!rc)
			rc = qb_buf_adds(&b, "}\n");
		if (!rc && fwrite(b.ptr, 1, b.len, f) != b.len)
			rc = QB_EIO;
	}
	if (!rc && ferror(out->sheet.f))
		rc = QB_EIO;
	if (!rc && fputs("\\end{multicols}\n```\n", f) == EOF)
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
	/* the header now that the total is known, then the questions */
	for (i = 0; i < st->nout && !rc; i++) {
		FILE *f = qb_atomic_file(st->out[i].a);

		rc = write_exam_header(st, &st->out[i]);
		if (!rc)
			rc = copy_spool(st->out[i].a, st->out[i].body.f);
		if (!rc && st->answers) {
			if (fprintf(f, PAGE_BREAK "# %s\n\n", L(MD_L_ANSWER_KEY)) < 0)
				rc = QB_EIO;
			if (!rc)
				rc = copy_key(st->out[i].a, st->out[i].key.f, st->nforms > 0, st);
		}
		if (!rc && st->out[i].sheet.f && !st->answers) {
			if (fputs("\n" PAGE_BREAK, f) == EOF)
				rc = QB_EIO;
			if (!rc)
				rc = write_sheet(f, st, &st->out[i], 0);
		}
	}
	if (!rc && st->keyfile)
		rc = write_key_header(st);
	for (i = 0; i < st->nout && st->keyfile && !rc; i++) {
		FILE *f = qb_atomic_file(st->keyfile);

		/* one page per form: a teacher grades one form at a time; its
		 * filled answer sheet next, to lay over the students' */
		if (fprintf(f, "%s# %s %c\n\n", i ? "\n" PAGE_BREAK : "", L(MD_L_FORM),
			    st->out[i].letter) < 0)
			rc = QB_EIO;
		if (!rc)
			rc = copy_key(st->keyfile, st->out[i].key.f, 1, st);
		if (!rc && fputs("\n" PAGE_BREAK, f) == EOF)
			rc = QB_EIO;
		if (!rc)
			rc = write_sheet(f, st, &st->out[i], 1);
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
