/* `qbank diff --format json`: one document; the schema (version 1) is
 * documented in the man page and stays stable: members are only ever
 * added. */
#include <stdlib.h>
#include <string.h>

#include "fmt_diff.h"
#include "json_writer.h"

static void side(struct cli_json *j, const char *key, const struct qb_diff_side_info *s,
		 int linted)
{
	cli_json_key(j, key);
	cli_json_begin_object(j);
	cli_json_key(j, "name");
	cli_json_string(j, s->name);
	cli_json_key(j, "revision");
	cli_json_bool(j, s->revision);
	cli_json_key(j, "files");
	cli_json_uint(j, s->files);
	cli_json_key(j, "questions");
	cli_json_uint(j, s->stats.questions);
	if (linted) {
		cli_json_key(j, "coverage");
		cli_json_begin_object(j);
		fmt_json_coverage(j, "explanations", "covered", s->stats.explained,
				  s->stats.explainable);
		fmt_json_coverage(j, "rationales", "covered", s->stats.rationales,
				  s->stats.rationalizable);
		cli_json_end_object(j);
	}
	cli_json_end_object(j);
}

static void place(struct cli_json *j, const char *key, const struct qb_diff_place *p)
{
	cli_json_key(j, key);
	if (!p->file) {
		cli_json_null(j);
		return;
	}
	cli_json_begin_object(j);
	cli_json_key(j, "file");
	cli_json_string(j, p->file);
	cli_json_key(j, "line");
	cli_json_uint(j, p->line);
	cli_json_key(j, "category");
	cli_json_string(j, p->category);
	cli_json_end_object(j);
}

static void keys(struct cli_json *j, const char *key, const struct qb_diff_key *k, size_t n)
{
	size_t i;

	cli_json_key(j, key);
	cli_json_begin_array(j);
	for (i = 0; i < n; i++) {
		cli_json_begin_object(j);
		cli_json_key(j, "option");
		cli_json_string(j, k[i].id);
		cli_json_key(j, "text");
		cli_json_string(j, k[i].text);
		cli_json_end_object(j);
	}
	cli_json_end_array(j);
}

static void words(struct cli_json *j, const struct qb_diff_change *c)
{
	static const char *const ops[] = { "same", "del", "ins" };
	char buf[256];
	size_t i;

	cli_json_key(j, "words");
	cli_json_begin_array(j);
	for (i = 0; i < c->nwords; i++) {
		const struct qb_word_seg *w = &c->words[i];
		char *t = w->len + 2 <= sizeof(buf) ? buf : malloc(w->len + 2);

		cli_json_begin_object(j);
		cli_json_key(j, "op");
		cli_json_string(j, ops[w->op]);
		cli_json_key(j, "text");
		if (t) {
			t[0] = ' ';
			memcpy(t + 1, w->s, w->len);
			t[w->len + 1] = '\0';
			cli_json_string(j, w->space ? t : t + 1);
			if (t != buf)
				free(t);
		} else {
			cli_json_null(j);
		}
		cli_json_end_object(j);
	}
	cli_json_end_array(j);
}

static void entry(struct cli_json *j, const struct qb_diff_entry *e)
{
	static const char *const kinds[] = { "added", "removed", "matched" };
	size_t i;

	cli_json_begin_object(j);
	cli_json_key(j, "id");
	cli_json_string(j, e->id);
	cli_json_key(j, "status");
	cli_json_string(j, kinds[e->kind]);
	cli_json_key(j, "old_id");
	cli_json_string(j, e->kind == QB_DIFF_MATCHED ? e->old_id : NULL);
	cli_json_key(j, "type");
	cli_json_string(j, e->type);
	cli_json_key(j, "renamed");
	cli_json_bool(j, !!(e->flags & QB_DIFF_RENAMED));
	cli_json_key(j, "moved");
	cli_json_bool(j, !!(e->flags & QB_DIFF_MOVED));
	cli_json_key(j, "changed");
	cli_json_bool(j, !!(e->flags & QB_DIFF_CHANGED));
	cli_json_key(j, "key_changed");
	cli_json_bool(j, !!(e->flags & QB_DIFF_KEY_CHANGED));
	if (e->flags & QB_DIFF_RENAMED) {
		cli_json_key(j, "similarity");
		cli_json_uint(j, e->similarity);
	}
	place(j, "old", &e->old_place);
	place(j, "new", &e->new_place);
	if (e->kind != QB_DIFF_MATCHED) {
		cli_json_key(j, "stem");
		cli_json_string(j, e->stem);
	}
	if (e->kind != QB_DIFF_MATCHED || (e->flags & QB_DIFF_KEY_CHANGED)) {
		cli_json_key(j, "key");
		cli_json_begin_object(j);
		if (e->kind != QB_DIFF_ADDED)
			keys(j, "old", e->old_key, e->nold_key);
		if (e->kind != QB_DIFF_REMOVED)
			keys(j, "new", e->new_key, e->nnew_key);
		cli_json_end_object(j);
	}
	cli_json_key(j, "changes");
	cli_json_begin_array(j);
	for (i = 0; i < e->nchanges; i++) {
		const struct qb_diff_change *c = &e->changes[i];

		cli_json_begin_object(j);
		cli_json_key(j, "part");
		cli_json_string(j, qb_diff_part_names[c->part]);
		cli_json_key(j, "label");
		cli_json_string(j, c->label);
		cli_json_key(j, "old_label");
		cli_json_string(j, c->old_label);
		cli_json_key(j, "old");
		cli_json_string(j, c->old_text);
		cli_json_key(j, "new");
		cli_json_string(j, c->new_text);
		if (c->nwords)
			words(j, c);
		cli_json_end_object(j);
	}
	cli_json_end_array(j);
	cli_json_end_object(j);
}

static void finding(struct cli_json *j, const struct qb_diag *d)
{
	cli_json_begin_object(j);
	cli_json_key(j, "file");
	cli_json_string(j, d->file);
	cli_json_key(j, "line");
	cli_json_uint(j, d->line);
	cli_json_key(j, "severity");
	cli_json_string(j, qb_severity_name(d->severity));
	cli_json_key(j, "rule");
	cli_json_string(j, d->rule);
	cli_json_key(j, "question");
	cli_json_string(j, d->question);
	cli_json_key(j, "message");
	cli_json_string(j, d->message);
	cli_json_end_object(j);
}

int fmt_diff_json(FILE *out, const struct qb_diff_report *r, int color)
{
	static const char *const counts[QB_DIFF_NCOUNTS] = {
		"added", "removed", "renamed", "moved", "changed", "key_changed",
	};
	struct cli_json j;
	size_t i;

	(void)color;
	cli_json_init(&j, out);
	cli_json_begin_object(&j);
	cli_json_key(&j, "version");
	cli_json_uint(&j, 1);
	side(&j, "old", &r->old_side, r->linted);
	side(&j, "new", &r->new_side, r->linted);
	cli_json_key(&j, "different");
	cli_json_bool(&j, qb_diff_differs(r));
	cli_json_key(&j, "counts");
	cli_json_begin_object(&j);
	for (i = 0; i < QB_DIFF_NCOUNTS; i++) {
		cli_json_key(&j, counts[i]);
		cli_json_uint(&j, r->count[i]);
	}
	cli_json_key(&j, "unchanged");
	cli_json_uint(&j, r->unchanged);
	cli_json_end_object(&j);
	cli_json_key(&j, "key_changed");
	cli_json_begin_array(&j);
	for (i = 0; i < r->nentries; i++)
		if (r->entries[i].flags & QB_DIFF_KEY_CHANGED)
			cli_json_string(&j, r->entries[i].id);
	cli_json_end_array(&j);
	cli_json_key(&j, "questions");
	cli_json_begin_array(&j);
	for (i = 0; i < r->nentries; i++)
		entry(&j, &r->entries[i]);
	cli_json_end_array(&j);
	cli_json_key(&j, "lint");
	if (!r->linted) {
		cli_json_null(&j);
	} else {
		cli_json_begin_object(&j);
		cli_json_key(&j, "introduced");
		cli_json_begin_array(&j);
		for (i = 0; i < r->nintroduced; i++)
			finding(&j, r->introduced[i]);
		cli_json_end_array(&j);
		cli_json_key(&j, "fixed");
		cli_json_begin_array(&j);
		for (i = 0; i < r->nfixed; i++)
			finding(&j, r->fixed[i]);
		cli_json_end_array(&j);
		cli_json_end_object(&j);
	}
	cli_json_end_object(&j);
	cli_json_finish(&j);
	return ferror(out) ? -1 : 0;
}
