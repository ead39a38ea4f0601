/* gate_check: the property behind `qbank lint` (issue 17): when a bank
 * lints clean with a target's checks (no failing finding; `qbank lint
 * --target T`, and so also with every target's), the exporter T writes it
 * (exit 0), and the key of every question in its export equals the bank's
 * key.
 *
 *   gate_check [--banks N] [--seed S] [--dir DIR] [BANK.xml...]
 *
 * Generates N small random banks (1 to 3 questions of every type, with the
 * mistakes authors make: no key, two keys in a single, one option, empty
 * texts, two pairs and no distractor, decimal commas, huge points, equal
 * option ids, a question id used twice, inline suppressions) each under a
 * random configuration
 * (rules switched off or lowered, never the target-* rules, which are the
 * gate), and checks each, then each BANK.xml given (default
 * configuration). Everything runs in this process through the library,
 * as `qbank lint` and `qbank export` do: no process per bank.
 * Keys compared: Moodle XML (the options with a positive fraction, the
 * truefalse answer worth 100, the numerical answer, the number of
 * subquestions), the QTI 2.1 package (each item's correctResponse values),
 * the Markdown answer key table (letters, True/False, the number, the
 * pairs), the GIFT file read back by the GIFT importer (type and key). Prints one line per violation and a summary; exit 0 when there
 * is none. */
#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../tools/lib/config.h"
#include "../../tools/lib/core/buf.h"
#include "../../tools/lib/export.h"
#include "../../tools/lib/import.h"
#include "../../tools/lib/lint.h"
#include "../../tools/lib/reader.h"
#include "../../tools/lib/rules.h"
#include "../../tools/lib/run.h"
#include "../../tools/lib/text.h"

static int violations;
static const char *current;

#define VIOLATION(...) do { printf("FAIL %s: ", current); printf(__VA_ARGS__); putchar('\n'); \
			    violations++; } while (0)

/* Appends " S" to DST (size CAP), keeping it a NUL-terminated string. */
static void append(char *dst, size_t cap, const char *s)
{
	size_t n = strlen(dst);

	snprintf(dst + n, cap - n, "%s ", s);
}

/* ---- random numbers (splitmix64) -------------------------------------- */

static uint64_t rng;

static uint64_t rnd(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static unsigned pick(unsigned n)
{
	return (unsigned)(rnd() % n);
}

static int chance(unsigned percent)
{
	return pick(100) < percent;
}

/* ---- the generator -------------------------------------------------------- */

static const char *const words[] = {
	"gradient", "tensor", "worker", "shard", "bucket", "stage", "replica", "optimizer",
	"kernel", "stream", "buffer", "checkpoint", "epoch", "batch", "device", "rank",
};

/* Rules a random configuration may lower or switch off (not target-*). */
static const char *const cfg_rules[] = {
	"key-missing", "key-multiple", "text-empty", "type-shape", "option-count",
	"option-duplicate", "key-select-mismatch", "key-rationale-conflict", "question-duplicate",
	"explanation-missing", "rationale-missing", "option-near-duplicate", "cue-*", "key-*",
	"id-duplicate",
};

static void text(struct qb_buf *b, unsigned n, unsigned long salt)
{
	unsigned i;

	for (i = 0; i < n; i++)
		qb_buf_printf(b, "%s%s", i ? " " : "", words[pick(sizeof(words) / sizeof(words[0]))]);
	qb_buf_printf(b, " %lu", salt);
}

static void gen_choice(struct qb_buf *b, int multiple, unsigned long salt)
{
	unsigned n = chance(10) ? 1 : 2 + pick(5), i, k;
	int ids = chance(15), same_ids = chance(5);

	k = chance(12) ? 0 : multiple ? 1 + pick(n) : (chance(15) ? 2 : 1);
	qb_buf_printf(b, "    <stem>Which %s applies to question %lu?</stem>\n",
		      words[pick(16)], salt);
	for (i = 0; i < n; i++) {
		int correct = (i < k) ^ (chance(20) && i + 1 == n && k < n);

		qb_buf_printf(b, "    <option%s", correct ? " correct=\"true\"" : "");
		if (ids)
			qb_buf_printf(b, " id=\"o%u\"", same_ids ? 1 : i);
		qb_buf_printf(b, "><text>");
		if (!chance(4))
			text(b, 2 + pick(3), salt * 10 + i);
		qb_buf_printf(b, "</text><rationale>%s</rationale></option>\n",
			      correct ? "Correct. So it is." : "Incorrect. It is not.");
	}
}

static void gen_body(struct qb_buf *b, enum qb_qtype t, unsigned long salt)
{
	unsigned i, n;

	switch (t) {
	case QB_Q_SINGLE:
	case QB_Q_MULTIPLE:
		gen_choice(b, t == QB_Q_MULTIPLE, salt);
		return;
	case QB_Q_TRUEFALSE:
		qb_buf_printf(b, "    <stem>Is claim %lu true?</stem>\n", salt);
		if (!chance(5))
			qb_buf_printf(b, "    <answer>%s</answer>\n", chance(50) ? "true" : "false");
		return;
	case QB_Q_SHORT:
		qb_buf_printf(b, "    <stem>Name item %lu.</stem>\n", salt);
		for (i = chance(8) ? 0 : 1 + pick(3); i > 0; i--)
			qb_buf_printf(b, "    <answer>%s%u</answer>\n", words[pick(16)], i);
		return;
	case QB_Q_NUMERIC:
		qb_buf_printf(b, "    <stem>How many units in %lu?</stem>\n", salt);
		qb_buf_printf(b, "    <answer tolerance=\"0.5\">%s</answer>\n",
			      chance(10) ? "3,5" : chance(50) ? "12.5" : "40");
		return;
	case QB_Q_ESSAY:
		qb_buf_printf(b, "    <stem>Discuss topic %lu.</stem>\n", salt);
		return;
	case QB_Q_MATCHING:
		qb_buf_printf(b, "    <stem>Match the terms of set %lu.</stem>\n", salt);
		n = chance(10) ? 1 : 2 + pick(3);
		for (i = 0; i < n; i++)
			qb_buf_printf(b, "    <pair><premise>%s %u</premise><response>%s r%u</response>"
				      "</pair>\n", words[i], i, words[15 - i], i);
		for (i = pick(3); i > 0; i--)
			qb_buf_printf(b, "    <distractor>%s d%u</distractor>\n", words[8 + i], i);
		return;
	default:
		return;
	}
}

/* Writes bank number K to PATH and fills CFG with a random configuration. */
static int gen_bank(const char *path, unsigned long k, struct qb_config *cfg)
{
	static const enum qb_severity sevs[] = { QB_SEV_OFF, QB_SEV_INFO, QB_SEV_WARNING };
	struct qb_buf b = QB_BUF_INIT;
	unsigned nq = 1 + pick(3), i;
	FILE *f;
	int rc = 0;

	for (i = pick(4); i > 0; i--)
		qb_config_set_severity(cfg, cfg_rules[pick(sizeof(cfg_rules) / sizeof(cfg_rules[0]))],
				       sevs[pick(3)], 0);
	qb_buf_printf(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		      "<bank id=\"g%lu\" version=\"1\" xml:lang=\"en\">\n  <title>Bank %lu</title>\n",
		      k, k);
	for (i = 0; i < nq; i++) {
		enum qb_qtype t = (enum qb_qtype)pick(QB_Q_UNKNOWN);

		if (chance(20))
			qb_buf_printf(&b, "  <!-- qbank-disable %s - generated -->\n",
				      cfg_rules[pick(sizeof(cfg_rules) / sizeof(cfg_rules[0]))]);
		/* now and then the previous question's id again */
		qb_buf_printf(&b, "  <question id=\"g%lu-%u\" type=\"%s\"%s>\n", k,
			      i > 0 && chance(5) ? i - 1 : i, qb_qtype_names[t],
			      chance(4) ? " points=\"1000000\"" : "");
		gen_body(&b, t, k * 10 + i);
		qb_buf_printf(&b, "    <explanation>Explained.</explanation>\n  </question>\n");
	}
	qb_buf_printf(&b, "</bank>\n");
	f = fopen(path, "w");
	if (!f || fwrite(b.ptr, 1, b.len, f) != b.len)
		rc = -1;
	if (f && fclose(f))
		rc = -1;
	qb_buf_dispose(&b);
	return rc;
}

/* ---- the bank's keys -------------------------------------------------- */

struct key {
	char *id;
	enum qb_qtype type;
	char letters[64];      /* choice: positions of the correct options, "AC" */
	char ids[512];         /* choice: their ids, " a c " */
	int truth;             /* truefalse */
	char first[256];       /* short: the first accepted answer */
	double value;          /* numeric */
	size_t npairs;         /* matching */
	int taken;             /* matched to an exported question (find_key) */
};

struct keys {
	struct key *v;
	size_t n;
};

static void keys_dispose(struct keys *k)
{
	size_t i;

	for (i = 0; i < k->n; i++)
		free(k->v[i].id);
	free(k->v);
	k->v = NULL;
	k->n = 0;
}

static int read_keys(struct keys *out, const char *path, xmlSchemaPtr schema)
{
	struct qb_reader_opts ro = { schema, 0, NULL, NULL };
	struct qb_error err = { 0, "" };
	struct qb_reader *r = NULL;
	const struct qb_question *q;
	int rc;

	rc = qb_reader_open(&r, path, &ro, &err);
	while (rc == 0 && (rc = qb_reader_next(r, &q)) == 1) {
		rc = 0;
		struct key *k;
		size_t i, nl = 0;

		if (q->schema_invalid || !q->id)
			continue;
		out->v = realloc(out->v, (out->n + 1) * sizeof(*out->v));
		k = &out->v[out->n++];
		memset(k, 0, sizeof(*k));
		k->id = strdup(q->id);
		k->type = q->type;
		k->ids[0] = ' ';
		for (i = 0; i < q->noptions; i++) {
			if (!q->options[i].correct)
				continue;
			if (nl + 1 < sizeof(k->letters))
				k->letters[nl++] = (char)('A' + i);
			append(k->ids, sizeof(k->ids), q->options[i].id);
		}
		k->truth = q->nanswers && strcmp(q->answers[0].value, "true") == 0;
		if (q->nanswers)
			snprintf(k->first, sizeof(k->first), "%s", q->answers[0].value);
		k->value = q->nanswers ? strtod(q->answers[0].value, NULL) : 0;
		k->npairs = q->npairs;
	}
	qb_reader_free(r);
	return rc < 0 ? rc : 0;
}

/* The first key of ID not yet matched to an exported question, which it
 * now is: a bank may give two questions one id (id-duplicate off), and the
 * exports keep the bank's order. NULL when there is none. */
static const struct key *find_key(struct keys *k, const char *id)
{
	size_t i;

	for (i = 0; i < k->n; i++)
		if (!k->v[i].taken && strcmp(k->v[i].id, id) == 0) {
			k->v[i].taken = 1;
			return &k->v[i];
		}
	return NULL;
}

static void keys_untake(struct keys *k)
{
	size_t i;

	for (i = 0; i < k->n; i++)
		k->v[i].taken = 0;
}

/* ---- the exports' keys --------------------------------------------------- */

static int prop_is(const xmlNode *n, const char *name, const char *want)
{
	xmlChar *v = xmlGetProp(n, BAD_CAST name);
	int same = v && strcmp((const char *)v, want) == 0;

	xmlFree(v);
	return same;
}

static xmlNode *child(const xmlNode *n, const char *name)
{
	for (n = n ? n->children : NULL; n; n = n->next)
		if (n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name) == 0)
			return (xmlNode *)n;
	return NULL;
}

static char *content(const xmlNode *n)
{
	xmlChar *c = n ? xmlNodeGetContent(n) : NULL;
	char *s = strdup(c ? (const char *)c : "");

	xmlFree(c);
	return s;
}

static double prop_num(const xmlNode *n, const char *name)
{
	xmlChar *v = xmlGetProp(n, BAD_CAST name);
	double d = v ? strtod((const char *)v, NULL) : 0;

	xmlFree(v);
	return d;
}

static void check_moodle(const char *path, struct keys *keys)
{
	xmlDoc *d = xmlReadFile(path, NULL, XML_PARSE_NONET);
	xmlNode *q;
	size_t seen = 0;

	if (!d) {
		VIOLATION("moodle: the export is not XML");
		return;
	}
	for (q = xmlDocGetRootElement(d)->children; q; q = q->next) {
		xmlChar *type;
		char *id, got[64] = "";
		const struct key *k;
		xmlNode *a;
		size_t n = 0, i = 0;

		if (q->type != XML_ELEMENT_NODE)
			continue;
		type = xmlGetProp(q, BAD_CAST "type");
		if (!type || strcmp((const char *)type, "category") == 0) {
			xmlFree(type);
			continue;
		}
		id = content(child(child(q, "name"), "text"));
		k = find_key(keys, id);
		seen++;
		if (!k) {
			VIOLATION("moodle: question '%s' is not in the bank", id);
		} else if (strcmp((const char *)type, "multichoice") == 0) {
			for (a = q->children; a; a = a->next)
				if (a->type == XML_ELEMENT_NODE && strcmp((const char *)a->name, "answer") == 0) {
					if (prop_num(a, "fraction") > 0 && n + 1 < sizeof(got))
						got[n++] = (char)('A' + i);
					i++;
				}
			if (strcmp(got, k->letters) != 0)
				VIOLATION("moodle: question '%s' scores options '%s', the bank's key is '%s'",
					  id, got, k->letters);
		} else if (strcmp((const char *)type, "truefalse") == 0) {
			int truth = -1;

			for (a = q->children; a; a = a->next)
				if (a->type == XML_ELEMENT_NODE && strcmp((const char *)a->name, "answer") == 0 &&
				    prop_num(a, "fraction") >= 100) {
					char *t = content(child(a, "text"));

					truth = strcmp(t, "true") == 0;
					free(t);
				}
			if (truth != k->truth)
				VIOLATION("moodle: question '%s' marks %d true, the bank %d", id, truth,
					  k->truth);
		} else if (strcmp((const char *)type, "numerical") == 0) {
			a = child(q, "answer");
			if (!a || prop_num(a, "fraction") < 100) {
				VIOLATION("moodle: question '%s' has no 100%% answer", id);
			} else {
				char *t = content(child(a, "text"));

				if (fabs(strtod(t, NULL) - k->value) > 1e-9)
					VIOLATION("moodle: question '%s' answer %s, the bank %g", id, t,
						  k->value);
				free(t);
			}
		} else if (strcmp((const char *)type, "matching") == 0) {
			for (a = q->children; a; a = a->next)
				if (a->type == XML_ELEMENT_NODE &&
				    strcmp((const char *)a->name, "subquestion") == 0) {
					char *t = content(child(a, "text"));

					n += t[0] != '\0';
					free(t);
				}
			if (n != k->npairs)
				VIOLATION("moodle: question '%s' has %zu subquestions, the bank %zu pairs",
					  id, n, k->npairs);
		} else if (strcmp((const char *)type, "shortanswer") == 0) {
			a = child(q, "answer");
			if (!a || prop_num(a, "fraction") < 100)
				VIOLATION("moodle: question '%s' has no 100%% answer", id);
		}
		xmlFree(type);
		free(id);
	}
	if (seen != keys->n)
		VIOLATION("moodle: %zu questions exported, the bank has %zu", seen, keys->n);
	xmlFreeDoc(d);
}

/* One QTI item: its RESPONSE's correctResponse values against the key. */
static void check_item(xmlDoc *d, struct keys *keys, size_t *seen)
{
	xmlNode *root = xmlDocGetRootElement(d), *decl, *cr, *v;
	xmlChar *idp = root ? xmlGetProp(root, BAD_CAST "identifier") : NULL;
	const char *id = idp ? (const char *)idp : "";
	const struct key *k = find_key(keys, id);
	char got[512] = " ";
	size_t n = 0;

	if (!root || strcmp((const char *)root->name, "assessmentItem") != 0)
		goto done;
	(*seen)++;
	if (!k) {
		VIOLATION("qti21: item '%s' is not in the bank", id);
		goto done;
	}
	for (decl = child(root, "responseDeclaration"); decl; decl = decl->next)
		if (decl->type == XML_ELEMENT_NODE && prop_is(decl, "identifier", "RESPONSE"))
			break;
	cr = child(decl, "correctResponse");
	for (v = cr ? cr->children : NULL; v; v = v->next) {
		char *t;

		if (v->type != XML_ELEMENT_NODE)
			continue;
		t = content(v);
		n++;
		if (qb_qtype_is_choice(k->type)) {
			append(got, sizeof(got), t);
		} else if (k->type == QB_Q_TRUEFALSE && (strcmp(t, "true") == 0) != k->truth) {
			VIOLATION("qti21: item '%s' keys %s", id, t);
		} else if (k->type == QB_Q_NUMERIC && fabs(strtod(t, NULL) - k->value) > 1e-9) {
			VIOLATION("qti21: item '%s' keys %s, the bank %g", id, t, k->value);
		} else if (k->type == QB_Q_SHORT && n == 1 && strcmp(t, k->first) != 0) {
			VIOLATION("qti21: item '%s' keys '%s', the bank '%s'", id, t, k->first);
		}
		free(t);
	}
	if (qb_qtype_is_choice(k->type) && strcmp(got, k->ids) != 0)
		VIOLATION("qti21: item '%s' keys '%s', the bank '%s'", id, got, k->ids);
	if (k->type == QB_Q_MATCHING && n != k->npairs)
		VIOLATION("qti21: item '%s' keys %zu pairs, the bank %zu", id, n, k->npairs);
	if (k->type != QB_Q_ESSAY && n == 0)
		VIOLATION("qti21: item '%s' has no correctResponse", id);
done:
	xmlFree(idp);
}

static void check_qti(const char *path, struct keys *keys)
{
	struct archive *a = archive_read_new();
	struct archive_entry *e;
	struct qb_buf b = QB_BUF_INIT;
	size_t seen = 0;
	char chunk[16384];
	int r;

	archive_read_support_format_zip(a);
	if (archive_read_open_filename(a, path, 16384) != ARCHIVE_OK) {
		VIOLATION("qti21: cannot read the package: %s", archive_error_string(a));
		archive_read_free(a);
		return;
	}
	while ((r = archive_read_next_header(a, &e)) == ARCHIVE_OK || r == ARCHIVE_WARN) {
		/* a non-ASCII name may not convert in the C locale: every entry
		 * that is not an image is parsed, and only items count */
		const char *name = archive_entry_pathname_utf8(e);
		la_ssize_t n;
		xmlDoc *d;

		if (name && !strstr(name, ".xml"))
			continue;
		qb_buf_clear(&b);
		while ((n = archive_read_data(a, chunk, sizeof(chunk))) > 0)
			qb_buf_add(&b, chunk, (size_t)n);
		d = xmlReadMemory(b.ptr ? b.ptr : "", (int)b.len, "item.xml", NULL, XML_PARSE_NONET);
		if (d)
			check_item(d, keys, &seen);
		xmlFreeDoc(d);
	}
	archive_read_free(a);
	qb_buf_dispose(&b);
	if (seen != keys->n)
		VIOLATION("qti21: %zu items, the bank has %zu questions", seen, keys->n);
}

/* The Markdown answer key: "| N | ID | KEY |" rows after "# Answer key". */
static void check_markdown(const char *path, struct keys *keys)
{
	FILE *f = fopen(path, "r");
	char line[4096];
	int in_key = 0;
	size_t seen = 0;

	if (!f) {
		VIOLATION("markdown: cannot read %s", path);
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		char id[512], cell[2048], got[64] = "";
		const struct key *k;
		size_t i, n = 0;

		/* the key table's rule row: its heading is in the bank's language */
		if (strncmp(line, "|---:|", 6) == 0) {
			in_key = 1;
			continue;
		}
		if (!in_key || sscanf(line, "| %*d | %511s | %2047[^\n]", id, cell) != 2)
			continue;
		for (i = n = 0; id[i]; i++)   /* Markdown escapes: "a\_b" */
			if (id[i] != '\\')
				id[n++] = id[i];
		id[n] = '\0';
		n = 0;
		k = find_key(keys, id);
		seen++;
		if (!k) {
			VIOLATION("markdown: question '%s' is not in the bank", id);
			continue;
		}
		if (qb_qtype_is_choice(k->type)) {
			for (i = 0; cell[i] && cell[i] != '|'; i++)
				if (cell[i] >= 'A' && cell[i] <= 'Z' && n + 1 < sizeof(got))
					got[n++] = cell[i];
			if (strcmp(got, k->letters) != 0)
				VIOLATION("markdown: question '%s' keys '%s', the bank '%s'", id, got,
					  k->letters);
		} else if (k->type == QB_Q_TRUEFALSE && (cell[0] == 'A') != k->truth) {
			VIOLATION("markdown: question '%s' keys '%.20s'", id, cell);
		} else if (k->type == QB_Q_MATCHING) {
			for (i = 0; cell[i]; i++)
				n += strncmp(cell + i, "\xe2\x80\x93", 3) == 0;
			if (n != k->npairs)
				VIOLATION("markdown: question '%s' keys %zu pairs, the bank %zu", id, n,
					  k->npairs);
		}
	}
	fclose(f);
	if (seen != keys->n)
		VIOLATION("markdown: %zu key rows, the bank has %zu questions", seen, keys->n);
}

/* The GIFT export, read back through qbank's GIFT importer, which reads a
 * GIFT file as Moodle's own importer does (tools/lib/importers/README.md):
 * every question comes back with the bank's type and key. */
static void check_gift(const char *path, const char *dir, const struct keys *keys,
		       xmlSchemaPtr schema)
{
	char bank[4096];
	struct qb_import_opts io = { "gift", bank, NULL };
	struct qb_diags diags = { NULL, 0, 0, { 0 } };
	struct qb_import_stats st = { 0, 0 };
	struct qb_error err = { 0, "" };
	struct keys back = { NULL, 0 };
	size_t i;

	snprintf(bank, sizeof(bank), "%s/gift-back.xml", dir);
	if (qb_import_run(&io, &path, 1, &diags, &st, &err) || read_keys(&back, bank, schema)) {
		VIOLATION("gift: the export does not import back: %s", err.msg);
		goto done;
	}
	/* by position: the importer keeps the order and gives a repeated id a
	 * suffix ("q-2"), as a bank needs unique ids */
	for (i = 0; i < keys->n && i < back.n; i++) {
		const struct key *k = &keys->v[i], *g = &back.v[i];

		if (strncmp(g->id, k->id, strlen(k->id)) != 0)
			VIOLATION("gift: question %zu '%s' comes back as '%s'", i + 1, k->id, g->id);
		else if (g->type != k->type)
			VIOLATION("gift: question '%s' comes back as %s, the bank has %s", k->id,
				  qb_qtype_names[g->type], qb_qtype_names[k->type]);
		else if (qb_qtype_is_choice(k->type) && strcmp(g->letters, k->letters) != 0)
			VIOLATION("gift: question '%s' keys '%s', the bank '%s'", k->id, g->letters,
				  k->letters);
		else if (k->type == QB_Q_TRUEFALSE && g->truth != k->truth)
			VIOLATION("gift: question '%s' marks %d true, the bank %d", k->id, g->truth,
				  k->truth);
		else if (k->type == QB_Q_SHORT && strcmp(g->first, k->first) != 0)
			VIOLATION("gift: question '%s' accepts '%s' first, the bank '%s'", k->id,
				  g->first, k->first);
		else if (k->type == QB_Q_NUMERIC && fabs(g->value - k->value) > 1e-9)
			VIOLATION("gift: question '%s' answer %g, the bank %g", k->id, g->value,
				  k->value);
		else if (k->type == QB_Q_MATCHING && g->npairs != k->npairs)
			VIOLATION("gift: question '%s' has %zu pairs, the bank %zu", k->id, g->npairs,
				  k->npairs);
	}
	if (back.n != keys->n)
		VIOLATION("gift: %zu questions come back, the bank has %zu", back.n, keys->n);
done:
	keys_dispose(&back);
	qb_diags_dispose(&diags);
	unlink(bank);
}

/* ---- one bank ----------------------------------------------------------- */

struct tally {
	size_t banks, clean, clean_targets, exports, targets_off;
};

/* 1 when the file's own comments switch target checks off ("qbank-disable
 * ... target-..."): the author has taken the gate away, and the export's
 * refusal is what stands (tests/fixtures/cli/findings.xml does so). */
static int turns_targets_off(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[4096];
	int off = 0;

	while (f && !off && fgets(line, sizeof(line), f)) {
		const char *p = strstr(line, "qbank-disable");

		off = p && strstr(p, "target-") != NULL;
	}
	if (f)
		fclose(f);
	return off;
}

/* 1 when PATH lints clean under CFG with the checks of the NT targets of
 * TARGETS; -1 (a violation) when the lint itself fails. */
static int lints_clean(const char *path, const struct qb_config *cfg,
		       const struct qb_exporter *const *targets, size_t nt)
{
	const char *files[1] = { path };
	struct qb_error err = { 0, "" };
	struct qb_lint *l = NULL;
	int rc, failed;

	rc = qb_lint_new(&l, cfg, &err);
	if (!rc)
		rc = qb_lint_set_targets(l, targets, nt);
	if (!rc)
		rc = qb_run(l, files, 1, NULL, &err);
	failed = rc || qb_lint_failed(l);
	qb_lint_free(l);
	if (rc) {
		VIOLATION("lint: %s", err.msg);
		return -1;
	}
	return !failed;
}

/* For each exporter: when the bank lints clean with that target's checks
 * (qbank lint --target T, as a CI job for one platform runs it), the
 * export succeeds and scores as the bank says. */
static int check_bank(const char *path, const struct qb_config *cfg, const char *dir,
		      xmlSchemaPtr schema, struct tally *t)
{
	const char *files[1] = { path };
	struct qb_error err = { 0, "" };
	struct keys keys = { NULL, 0 };
	size_t i;
	int rc, clean_any = 0;

	current = path;
	t->banks++;
	if (turns_targets_off(path)) {
		t->targets_off++;
		return 0;
	}
	rc = read_keys(&keys, path, schema);
	for (i = 0; !rc && i < qb_nexporters; i++) {
		const struct qb_exporter *x = &qb_exporters[i];
		struct qb_lint *l = NULL;
		struct qb_export_opts o;
		char out[4096];
		int clean;

		/* pdf and docx print the Markdown exporter's output through
		 * pandoc, seconds a bank: the Markdown is what is checked here,
		 * the printing is tests/export/markdown/suite's */
		if (strcmp(x->name, "pdf") == 0 || strcmp(x->name, "docx") == 0)
			continue;
		clean = lints_clean(path, cfg, &x, 1);
		if (clean < 0)
			rc = -1;
		if (clean <= 0)
			continue;
		clean_any = 1;
		t->clean_targets++;

		memset(&o, 0, sizeof(o));
		snprintf(out, sizeof(out), "%s/out%s", dir, x->extension);
		o.output = out;
		o.answers = strcmp(x->name, "markdown") == 0;
		err.msg[0] = '\0';
		rc = qb_lint_new(&l, cfg, &err);
		if (!rc)
			rc = qb_export_run(x, &o, l, files, 1, &err);
		qb_lint_free(l);
		t->exports++;
		if (rc) {
			VIOLATION("lints clean for %s, but --to %s fails: %s", x->name, x->name,
				  err.msg);
			rc = 0;
			continue;
		}
		keys_untake(&keys);
		if (strcmp(x->name, "moodle") == 0)
			check_moodle(out, &keys);
		else if (strcmp(x->name, "qti21") == 0)
			check_qti(out, &keys);
		else if (strcmp(x->name, "markdown") == 0)
			check_markdown(out, &keys);
		else if (strcmp(x->name, "gift") == 0)
			check_gift(out, dir, &keys, schema);
		unlink(out);
	}
	t->clean += clean_any;
	keys_dispose(&keys);
	return rc;
}

int main(int argc, char **argv)
{
	unsigned long nbanks = 2000, seed = 17, k;
	const char *dir = "build/gate";
	struct tally t = { 0, 0, 0, 0, 0 };
	struct qb_error err = { 0, "" };
	xmlSchemaPtr schema = NULL;
	char path[4096];
	int a;

	for (a = 1; a + 1 < argc && strncmp(argv[a], "--", 2) == 0; a += 2) {
		if (strcmp(argv[a], "--banks") == 0)
			nbanks = strtoul(argv[a + 1], NULL, 10);
		else if (strcmp(argv[a], "--seed") == 0)
			seed = strtoul(argv[a + 1], NULL, 10);
		else if (strcmp(argv[a], "--dir") == 0)
			dir = argv[a + 1];
		else
			break;
	}
	mkdir(dir, 0755);
	if (qb_schema_load(&schema, &err)) {
		fprintf(stderr, "gate_check: %s\n", err.msg);
		return 2;
	}
	rng = seed;
	for (k = 0; k < nbanks; k++) {
		struct qb_config *cfg = NULL;

		snprintf(path, sizeof(path), "%s/bank.xml", dir);
		if (qb_config_new(&cfg) || gen_bank(path, k, cfg)) {
			fprintf(stderr, "gate_check: cannot write %s\n", path);
			return 2;
		}
		if (check_bank(path, cfg, dir, schema, &t))
			violations++;
		qb_config_free(cfg);
	}
	for (; a < argc; a++) {
		struct qb_config *cfg = NULL;

		if (qb_config_new(&cfg))
			return 2;
		if (check_bank(argv[a], cfg, dir, schema, &t))
			violations++;
		qb_config_free(cfg);
	}
	qb_schema_free(schema);
	printf("%zu banks (%lu generated, seed %lu; %zu turn target checks off), %zu lint clean "
	       "for some target (%zu bank and target pairs), %zu exports checked: %d violation%s\n",
	       t.banks, nbanks, seed, t.targets_off, t.clean, t.clean_targets, t.exports,
	       violations, violations == 1 ? "" : "s");
	return violations ? 1 : 0;
}
