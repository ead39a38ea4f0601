/* `qbank diff --format text`: for a terminal. Without colour, word diffs
 * read as git's --word-diff=plain does: [-removed-]{+added+}. */
#include <string.h>

#include "fmt_diff.h"

#define RED "\033[31m"
#define GREEN "\033[32m"
#define YELLOW "\033[33m"
#define LOUD "\033[1;31m"
#define BOLD "\033[1m"
#define RESET "\033[0m"

struct out {
	FILE *f;
	int color;
};

static void paint(const struct out *o, const char *color, const char *s)
{
	if (o->color)
		fprintf(o->f, "%s%s%s", color, s, RESET);
	else
		fputs(s, o->f);
}

static void words(const struct out *o, const struct qb_diff_change *c)
{
	size_t i;

	for (i = 0; i < c->nwords; i++) {
		const struct qb_word_seg *w = &c->words[i];

		if (fmt_diff_space(c->words, i))
			fputc(' ', o->f);
		if (w->op == QB_WORD_SAME) {
			fwrite(w->s, 1, w->len, o->f);
		} else if (o->color) {
			fprintf(o->f, "%s%.*s%s", w->op == QB_WORD_DEL ? RED : GREEN, (int)w->len,
				w->s, RESET);
		} else {
			fprintf(o->f, "%s%.*s%s", w->op == QB_WORD_DEL ? "[-" : "{+", (int)w->len, w->s,
				w->op == QB_WORD_DEL ? "-]" : "+}");
		}
	}
}

static void value(const struct out *o, const struct qb_diff_change *c)
{
	char a[FMT_DIFF_VALUE_CAP], b[FMT_DIFF_VALUE_CAP];
	const char *x, *y;

	fmt_diff_values(&x, &y, a, b, c);
	if (c->nwords) {
		words(o, c);
	} else if (x && y) {
		paint(o, RED, x);
		fputs(" -> ", o->f);
		paint(o, GREEN, y);
	} else if (y) {
		if (c->part != QB_DIFF_OPTION_ADDED)
			fputs("added: ", o->f);
		paint(o, GREEN, y);
	} else if (x) {
		if (c->part != QB_DIFF_OPTION_REMOVED)
			fputs("removed: ", o->f);
		paint(o, RED, x);
	}
}

static void keys(const struct out *o, int indent, const char *what, const struct qb_diff_key *k,
		 size_t n)
{
	size_t i;

	if (!n) {
		fprintf(o->f, "%*s%s (none)\n", indent, "", what);
		return;
	}
	for (i = 0; i < n; i++)
		fprintf(o->f, "%*s%*s %s%s%s\n", indent, "", (int)strlen(what), i ? "" : what,
			k[i].id ? k[i].id : "", k[i].id ? "  " : "", k[i].text);
}

static const char *category(const char *c)
{
	return *c ? c : "(none)";
}

static const char *place_str(char *buf, size_t cap, const struct qb_diff_place *p)
{
	snprintf(buf, cap, "%s:%lu", p->file, p->line);
	return buf;
}

static void entry(const struct out *o, const struct qb_diff_entry *e)
{
	char where[1200], label[300];
	size_t i;
	int first = 1;

	if (e->kind == QB_DIFF_ADDED)
		paint(o, GREEN, "+ ");
	else if (e->kind == QB_DIFF_REMOVED)
		paint(o, RED, "- ");
	else
		paint(o, YELLOW, "~ ");
	if (o->color)
		fprintf(o->f, BOLD "%s" RESET " ", e->id);
	else
		fprintf(o->f, "%s ", e->id);
	if (e->type && *e->type)
		fprintf(o->f, "(%s) ", e->type);
#define SEP() (first ? (first = 0, "") : ", ")
	if (e->kind == QB_DIFF_ADDED)
		fprintf(o->f, "%sadded", SEP());
	if (e->kind == QB_DIFF_REMOVED)
		fprintf(o->f, "%sremoved", SEP());
	if (e->flags & QB_DIFF_KEY_CHANGED) {
		fputs(SEP(), o->f);
		paint(o, LOUD, "KEY CHANGED");
	}
	if (e->flags & QB_DIFF_CHANGED)
		fprintf(o->f, "%schanged", SEP());
	if (e->flags & QB_DIFF_RENAMED)
		fprintf(o->f, "%srenamed from %s (%u%% the same)", SEP(), e->old_id, e->similarity);
	if (e->flags & QB_DIFF_MOVED) {
		if (strcmp(e->old_place.category, e->new_place.category) != 0)
			fprintf(o->f, "%smoved from category %s to %s", SEP(),
				category(e->old_place.category), category(e->new_place.category));
		else
			fprintf(o->f, "%smoved from %s", SEP(), e->old_place.relative);
	}
#undef SEP
	fprintf(o->f, "  %s\n", place_str(where, sizeof(where),
					  e->kind == QB_DIFF_REMOVED ? &e->old_place : &e->new_place));
	if (e->kind != QB_DIFF_MATCHED) {
		if (e->stem)
			fprintf(o->f, "  stem: %s\n", e->stem);
		if (e->nnew_key || e->nold_key)
			keys(o, 2, "key:", e->kind == QB_DIFF_ADDED ? e->new_key : e->old_key,
			     e->kind == QB_DIFF_ADDED ? e->nnew_key : e->nold_key);
		return;
	}
	for (i = 0; i < e->nchanges; i++) {
		const struct qb_diff_change *c = &e->changes[i];

		if (c->part == QB_DIFF_KEY) {
			fputs("  ", o->f);
			paint(o, LOUD, "key changed");
			/* the short form only where it reads at a glance */
			if (strlen(c->old_text) + strlen(c->new_text) <= 60)
				fprintf(o->f, ": %s -> %s", c->old_text, c->new_text);
			fputc('\n', o->f);
			keys(o, 4, "before:", e->old_key, e->nold_key);
			keys(o, 4, "after: ", e->new_key, e->nnew_key);
			continue;
		}
		fmt_diff_label(label, sizeof(label), c);
		fprintf(o->f, "  %s: ", label);
		value(o, c);
		fputc('\n', o->f);
	}
}

static void finding(const struct out *o, const char *what, const struct qb_diag *d)
{
	fprintf(o->f, "  %s %s", what, d->file[0] ? d->file : "qbank");
	if (d->line)
		fprintf(o->f, ":%lu", d->line);
	fprintf(o->f, ": %s: %s [%s]\n", qb_severity_name(d->severity), d->message, d->rule);
}

int fmt_diff_text(FILE *f, const struct qb_diff_report *r, int color)
{
	const struct out o = { f, color };
	const struct qb_lint_stats *a = &r->old_side.stats, *b = &r->new_side.stats;
	const size_t *n = r->count;
	size_t i;
	int any = 0;

	fprintf(f, "old: %s (%zu %s)\nnew: %s (%zu %s)\n", r->old_side.name, a->questions,
		fmt_plural(a->questions, "question", "questions"), r->new_side.name, b->questions,
		fmt_plural(b->questions, "question", "questions"));
	if (n[QB_DIFF_N_KEY]) {
		fputc('\n', f);
		paint(&o, LOUD, "Key changed:");
		for (i = 0; i < r->nentries; i++)
			if (r->entries[i].flags & QB_DIFF_KEY_CHANGED)
				fprintf(f, "%s %s", any++ ? "," : "", r->entries[i].id);
		fputc('\n', f);
	}
	if (r->nentries)
		fputc('\n', f);
	for (i = 0; i < r->nentries; i++)
		entry(&o, &r->entries[i]);
	fprintf(f, "\nSummary: %zu added, %zu removed, %zu renamed, %zu moved, %zu changed "
		"(%zu key changed), %zu unchanged\n", n[QB_DIFF_N_ADDED], n[QB_DIFF_N_REMOVED],
		n[QB_DIFF_N_RENAMED], n[QB_DIFF_N_MOVED], n[QB_DIFF_N_CHANGED], n[QB_DIFF_N_KEY],
		r->unchanged);
	if (r->linted) {
		fprintf(f, "Coverage: explanations %zu/%zu (%.0f%%) -> %zu/%zu (%.0f%%), "
			"rationales %zu/%zu (%.0f%%) -> %zu/%zu (%.0f%%)\n",
			a->explained, a->explainable, fmt_pct(a->explained, a->explainable),
			b->explained, b->explainable, fmt_pct(b->explained, b->explainable),
			a->rationales, a->rationalizable, fmt_pct(a->rationales, a->rationalizable),
			b->rationales, b->rationalizable, fmt_pct(b->rationales, b->rationalizable));
		fprintf(f, "Lint: %zu %s introduced, %zu fixed\n", r->nintroduced,
			fmt_plural(r->nintroduced, "finding", "findings"), r->nfixed);
		for (i = 0; i < r->nintroduced; i++)
			finding(&o, "introduced:", r->introduced[i]);
		for (i = 0; i < r->nfixed; i++)
			finding(&o, "fixed:", r->fixed[i]);
	}
	return ferror(f) ? -1 : 0;
}
