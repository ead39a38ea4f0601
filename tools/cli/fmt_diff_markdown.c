/* `qbank diff --format markdown`: a pull-request comment (GitHub flavour):
 * a summary table, the key changes, coverage and lint before and after,
 * then one collapsible <details> per question with its word diffs as
 * <del> and <ins>. Bank text is escaped for Markdown and HTML alike, so
 * that markup in a stem shows as written. */
#include <string.h>

#include "fmt_diff.h"

/* TEXT as inline Markdown: HTML's specials as entities, Markdown's with a
 * backslash, line breaks as <br> (a table cell or list item is one line). */
static void md(FILE *f, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		char c = s[i];

		if (c == '&')
			fputs("&amp;", f);
		else if (c == '<')
			fputs("&lt;", f);
		else if (c == '>')
			fputs("&gt;", f);
		else if (c == '\n')
			fputs("<br>", f);
		else if (c == '\r')
			continue;
		else if (strchr("\\`*_[]|#~$", c))
			fprintf(f, "\\%c", c);
		else
			fputc(c, f);
	}
}

static void mds(FILE *f, const char *s)
{
	md(f, s, strlen(s));
}

/* Inside <summary> Markdown is not read: entities only. */
static void html(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '&')
			fputs("&amp;", f);
		else if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '"')
			fputs("&quot;", f);
		else
			fputc(*s, f);
	}
}

static void words(FILE *f, const struct qb_diff_change *c)
{
	size_t i;

	for (i = 0; i < c->nwords; i++) {
		const struct qb_word_seg *w = &c->words[i];

		/* a space between a deletion and its replacement, which the
		 * strike-through and underline would otherwise run together */
		if (fmt_diff_space(c->words, i) ||
		    (w->op == QB_WORD_INS && i > 0 && c->words[i - 1].op == QB_WORD_DEL))
			fputc(' ', f);
		if (w->op != QB_WORD_SAME)
			fputs(w->op == QB_WORD_DEL ? "<del>" : "<ins>", f);
		md(f, w->s, w->len);
		if (w->op != QB_WORD_SAME)
			fputs(w->op == QB_WORD_DEL ? "</del>" : "</ins>", f);
	}
}

static void value(FILE *f, const struct qb_diff_change *c)
{
	char a[FMT_DIFF_VALUE_CAP], b[FMT_DIFF_VALUE_CAP];
	const char *x, *y;

	fmt_diff_values(&x, &y, a, b, c);
	if (c->nwords) {
		words(f, c);
	} else if (x && y) {
		fputs("<del>", f);
		mds(f, x);
		fputs("</del> → <ins>", f);
		mds(f, y);
		fputs("</ins>", f);
	} else if (y) {
		fputs(c->part == QB_DIFF_OPTION_ADDED ? "<ins>" : "added: <ins>", f);
		mds(f, y);
		fputs("</ins>", f);
	} else if (x) {
		fputs(c->part == QB_DIFF_OPTION_REMOVED ? "<del>" : "removed: <del>", f);
		mds(f, x);
		fputs("</del>", f);
	}
}

static void keys(FILE *f, const struct qb_diff_key *k, size_t n)
{
	size_t i;

	if (!n)
		fputs("(none)", f);
	for (i = 0; i < n; i++) {
		if (i)
			fputs("<br>", f);
		if (k[i].id) {
			fputs("**", f);
			mds(f, k[i].id);
			fputs("** ", f);
		}
		mds(f, k[i].text);
	}
}

static void status(FILE *f, const struct qb_diff_entry *e)
{
	int first = 1;

#define SEP() (first ? (first = 0, "") : ", ")
	if (e->kind == QB_DIFF_ADDED)
		fprintf(f, "%sadded", SEP());
	if (e->kind == QB_DIFF_REMOVED)
		fprintf(f, "%sremoved", SEP());
	if (e->flags & QB_DIFF_KEY_CHANGED)
		fprintf(f, "%s<b>key changed</b>", SEP());
	if (e->flags & QB_DIFF_CHANGED)
		fprintf(f, "%schanged", SEP());
	if (e->flags & QB_DIFF_RENAMED) {
		fprintf(f, "%srenamed from <code>", SEP());
		html(f, e->old_id);
		fprintf(f, "</code> (%u%% the same)", e->similarity);
	}
	if (e->flags & QB_DIFF_MOVED) {
		int cat = strcmp(e->old_place.category, e->new_place.category) != 0;

		const char *from = cat ? e->old_place.category : e->old_place.relative;
		const char *to = cat ? e->new_place.category : e->new_place.relative;

		fprintf(f, "%smoved from ", SEP());
		html(f, *from ? from : "(none)");
		fputs(" to ", f);
		html(f, *to ? to : "(none)");
	}
#undef SEP
}

static void entry(FILE *f, const struct qb_diff_entry *e)
{
	const struct qb_diff_place *p = e->kind == QB_DIFF_REMOVED ? &e->old_place : &e->new_place;
	char label[300];
	size_t i;

	fputs("<details><summary><code>", f);
	html(f, e->id);
	fputs("</code> ", f);
	if (e->type && *e->type)
		fprintf(f, "(%s) ", e->type);
	fputs("— ", f);
	status(f, e);
	fputs("</summary>\n\n", f);
	fputs("- at `", f);
	fprintf(f, "%s:%lu", p->file, p->line);
	fputs("`", f);
	if (*p->category) {
		fputs(", category ", f);
		mds(f, p->category);
	}
	fputc('\n', f);
	if (e->kind != QB_DIFF_MATCHED) {
		if (e->stem) {
			fputs("- **stem**: ", f);
			mds(f, e->stem);
			fputc('\n', f);
		}
		if (e->nnew_key || e->nold_key) {
			fputs("- **key**: ", f);
			if (e->kind == QB_DIFF_ADDED)
				keys(f, e->new_key, e->nnew_key);
			else
				keys(f, e->old_key, e->nold_key);
			fputc('\n', f);
		}
	}
	for (i = 0; i < e->nchanges; i++) {
		const struct qb_diff_change *c = &e->changes[i];

		if (c->part == QB_DIFF_KEY) {
			fputs("- **key changed**: before ", f);
			keys(f, e->old_key, e->nold_key);
			fputs("; after ", f);
			keys(f, e->new_key, e->nnew_key);
			fputc('\n', f);
			continue;
		}
		fmt_diff_label(label, sizeof(label), c);
		fputs("- **", f);
		mds(f, label);
		fputs("**: ", f);
		value(f, c);
		fputc('\n', f);
	}
	fputs("\n</details>\n", f);
}

static void finding(FILE *f, const char *what, const struct qb_diag *d)
{
	fprintf(f, "| %s | `%s", what, d->file[0] ? d->file : "qbank");
	if (d->line)
		fprintf(f, ":%lu", d->line);
	fprintf(f, "` | %s | ", qb_severity_name(d->severity));
	mds(f, d->message);
	fprintf(f, " | `%s` |\n", d->rule);
}

int fmt_diff_markdown(FILE *f, const struct qb_diff_report *r, int color)
{
	const struct qb_lint_stats *a = &r->old_side.stats, *b = &r->new_side.stats;
	const size_t *n = r->count;
	size_t i;

	(void)color;
	fputs("## qbank diff\n\n`", f);
	fputs(r->old_side.name, f);
	fputs("` → `", f);
	fputs(r->new_side.name, f);
	fputs("`: ", f);
	if (!qb_diff_differs(r))
		fputs("no difference.\n", f);
	else
		fprintf(f, "%zu %s differ.\n", r->nentries, fmt_plural(r->nentries, "question", "questions"));
	fprintf(f, "\n| | questions |\n|---|---:|\n| added | %zu |\n| removed | %zu |\n"
		"| renamed | %zu |\n| moved | %zu |\n| changed | %zu |\n"
		"| **key changed** | **%zu** |\n| unchanged | %zu |\n",
		n[QB_DIFF_N_ADDED], n[QB_DIFF_N_REMOVED], n[QB_DIFF_N_RENAMED], n[QB_DIFF_N_MOVED],
		n[QB_DIFF_N_CHANGED], n[QB_DIFF_N_KEY], r->unchanged);
	if (n[QB_DIFF_N_KEY]) {
		fputs("\n### Key changed\n\n| question | before | after |\n|---|---|---|\n", f);
		for (i = 0; i < r->nentries; i++) {
			const struct qb_diff_entry *e = &r->entries[i];

			if (!(e->flags & QB_DIFF_KEY_CHANGED))
				continue;
			fputs("| `", f);
			fputs(e->id, f);
			fputs("` | ", f);
			keys(f, e->old_key, e->nold_key);
			fputs(" | ", f);
			keys(f, e->new_key, e->nnew_key);
			fputs(" |\n", f);
		}
	}
	if (r->linted) {
		fprintf(f, "\n### Coverage and lint\n\n| | before | after |\n|---|---:|---:|\n"
			"| questions | %zu | %zu |\n"
			"| explanations | %zu/%zu (%.0f%%) | %zu/%zu (%.0f%%) |\n"
			"| rationales | %zu/%zu (%.0f%%) | %zu/%zu (%.0f%%) |\n",
			a->questions, b->questions,
			a->explained, a->explainable, fmt_pct(a->explained, a->explainable),
			b->explained, b->explainable, fmt_pct(b->explained, b->explainable),
			a->rationales, a->rationalizable, fmt_pct(a->rationales, a->rationalizable),
			b->rationales, b->rationalizable, fmt_pct(b->rationales, b->rationalizable));
		fprintf(f, "\nLint: %zu %s introduced, %zu fixed.\n", r->nintroduced,
			fmt_plural(r->nintroduced, "finding", "findings"), r->nfixed);
		if (r->nintroduced || r->nfixed) {
			fputs("\n| | where | severity | finding | rule |\n|---|---|---|---|---|\n", f);
			for (i = 0; i < r->nintroduced; i++)
				finding(f, "introduced", r->introduced[i]);
			for (i = 0; i < r->nfixed; i++)
				finding(f, "fixed", r->fixed[i]);
		}
	}
	if (r->nentries) {
		fputs("\n### Questions\n\n", f);
		for (i = 0; i < r->nentries; i++)
			entry(f, &r->entries[i]);
	}
	return ferror(f) ? -1 : 0;
}
