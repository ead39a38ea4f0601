/* --format sarif: SARIF 2.1.0 as GitHub code scanning reads it.
 * - tool.driver.rules lists every rule of the table (then the user rules of
 *   the configuration), so that ruleIndex points into it.
 * - artifactLocation.uri is the path as given, made a relative URI (forward
 *   slashes, no leading "./", percent-encoded); run from the repository
 *   root, that is the repository-relative path GitHub expects. An absolute
 *   path becomes a file:// URI: written as "/home/...", it would be a
 *   relative reference (SARIF1004), which GitHub cannot place.
 * - GitHub needs a location on every result: a run-wide finding (coverage
 *   thresholds) is placed at line 1 of the run's first file.
 * - partialFingerprints["qbank/v1"] hashes rule, question and file, with an
 *   occurrence counter: the fingerprint survives edits that move lines. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/core/buf.h"
#include "../lib/rules.h"
#include "../lib/text.h"
#include "../lib/version.h"
#include "format.h"
#include "json_writer.h"

const char *fmt_sarif_level(enum qb_severity s)
{
	static const char *const level[] = { "none", "note", "warning", "error" };

	return (unsigned)s <= QB_SEV_ERROR ? level[s] : "warning";
}

static void text_object(struct cli_json *j, const char *key, const char *text)
{
	cli_json_key(j, key);
	cli_json_begin_object(j);
	cli_json_key(j, "text");
	cli_json_string(j, text);
	cli_json_end_object(j);
}

static void rule_object(struct cli_json *j, const char *id, const char *shortd, const char *fulld,
			const char *help, enum qb_severity level)
{
	cli_json_begin_object(j);
	cli_json_key(j, "id");
	cli_json_string(j, id);
	text_object(j, "shortDescription", shortd);
	text_object(j, "fullDescription", fulld);
	text_object(j, "help", help);
	cli_json_key(j, "defaultConfiguration");
	cli_json_begin_object(j);
	cli_json_key(j, "level");
	cli_json_string(j, fmt_sarif_level(level));
	cli_json_end_object(j);
	cli_json_end_object(j);
}

static const char *const part_words[] = { "stem", "key", "distractor", "rationale", "explanation" };

static int table_rules(struct cli_json *j, const struct qb_config *cfg)
{
	struct qb_buf a = QB_BUF_INIT, b = QB_BUF_INIT;
	size_t i, k;
	int rc = 0;

	for (i = 0; i < qb_nrules && !rc; i++) {
		const struct qb_rule *r = &qb_rules[i];
		const char *bad = strstr(r->explanation, "\nBad:");

		qb_buf_clear(&a);
		rc = qb_buf_add(&a, r->explanation,
				bad ? (size_t)(bad - r->explanation) : strlen(r->explanation));
		if (!rc)
			rule_object(j, r->id, r->summary, a.ptr, r->explanation, r->severity);
	}
	for (i = 0; cfg && i < cfg->nuser_rules && !rc; i++) {
		const struct qb_user_rule *u = &cfg->user_rules[i];

		qb_buf_clear(&a);
		qb_buf_clear(&b);
		rc = qb_buf_printf(&a, "User rule from %s (line %lu): the pattern %s on the parts:",
				   cfg->path ? cfg->path : "the configuration", u->line, u->pattern);
		for (k = 0; !rc && k < sizeof(part_words) / sizeof(part_words[0]); k++)
			if (u->parts & (1u << k))
				rc = qb_buf_printf(&a, " %s", part_words[k]);
		if (!rc)
			rc = qb_buf_printf(&b, "%s.\nMessage: %s", a.ptr, u->message);
		if (!rc)
			rule_object(j, u->id, u->message, a.ptr, b.ptr, u->severity);
	}
	qb_buf_dispose(&a);
	qb_buf_dispose(&b);
	return rc;
}

/* ruleIndex of RULE in tool.driver.rules, or -1. */
static long rule_index(const char *rule, const struct qb_config *cfg)
{
	const struct qb_rule *r = qb_rule_find(rule);
	const struct qb_user_rule *u;

	if (r)
		return (long)(r - qb_rules);
	if (!cfg)
		return -1;
	u = qb_config_user_rule(cfg, rule);
	return u ? (long)(qb_nrules + (size_t)(u - cfg->user_rules)) : -1;
}

/* A URI for PATH: a relative reference, or file:///... for an absolute
 * path. ':' is percent-encoded: in the first segment of a relative
 * reference it would read as a scheme ("a:b.xml"). */
static int path_uri(struct qb_buf *out, const char *path)
{
	static const char hex[] = "0123456789ABCDEF";
	const unsigned char *p = (const unsigned char *)path;
	int rc = 0;

	while (p[0] == '.' && (p[1] == '/' || p[1] == '\\'))
		p += 2;
	if (p[0] == '/') {
		rc = qb_buf_adds(out, "file://");
		while (p[1] == '/')
			p++;  /* "//x" is a host name after file: */
	}
	for (; *p && !rc; p++) {
		if (*p == '\\')
			rc = qb_buf_addc(out, '/');
		else if ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
			 strchr("-._~/!$&'()*+,;=@", *p))
			rc = qb_buf_addc(out, (char)*p);
		else
			rc = qb_buf_printf(out, "%%%c%c", hex[*p >> 4], hex[*p & 15]);
	}
	return rc;
}

struct occ {
	uint64_t hash;
	size_t index;
};

static int cmp_occ(const void *pa, const void *pb)
{
	const struct occ *a = pa, *b = pb;

	if (a->hash != b->hash)
		return a->hash < b->hash ? -1 : 1;
	return a->index < b->index ? -1 : a->index > b->index;
}

/* Fingerprint hash and occurrence number (1, 2, ...) of every finding. */
static int fingerprints(const struct qb_diags *d, uint64_t **hash_out, size_t **nth_out)
{
	struct qb_buf key = QB_BUF_INIT;
	struct occ *v = malloc((d->n + 1) * sizeof(*v));
	uint64_t *hash = malloc((d->n + 1) * sizeof(*hash));
	size_t *nth = malloc((d->n + 1) * sizeof(*nth));
	size_t i;
	int rc = 0;

	if (!v || !hash || !nth)
		rc = -1;
	for (i = 0; !rc && i < d->n; i++) {
		const struct qb_diag *x = &d->v[i];

		qb_buf_clear(&key);
		rc = qb_buf_add(&key, x->rule, strlen(x->rule) + 1);
		if (!rc)
			rc = qb_buf_add(&key, x->question ? x->question : "",
					(x->question ? strlen(x->question) : 0) + 1);
		if (!rc)
			rc = qb_buf_adds(&key, x->file);
		v[i].hash = hash[i] = qb_hash64(key.ptr, key.len);
		v[i].index = i;
	}
	if (!rc) {
		qsort(v, d->n, sizeof(*v), cmp_occ);
		for (i = 0; i < d->n; i++)
			nth[v[i].index] = (i > 0 && v[i - 1].hash == v[i].hash) ? nth[v[i - 1].index] + 1 : 1;
	}
	qb_buf_dispose(&key);
	free(v);
	if (rc) {
		free(hash);
		free(nth);
		return rc;
	}
	*hash_out = hash;
	*nth_out = nth;
	return 0;
}

static void result(struct cli_json *j, const struct qb_diag *d, long index, const char *uri,
		   const char *fingerprint)
{
	cli_json_begin_object(j);
	cli_json_key(j, "ruleId");
	cli_json_string(j, d->rule);
	if (index >= 0) {
		cli_json_key(j, "ruleIndex");
		cli_json_int(j, index);
	}
	cli_json_key(j, "level");
	cli_json_string(j, fmt_sarif_level(d->severity));
	text_object(j, "message", d->message);
	if (uri) {
		cli_json_key(j, "locations");
		cli_json_begin_array(j);
		cli_json_begin_object(j);
		cli_json_key(j, "physicalLocation");
		cli_json_begin_object(j);
		cli_json_key(j, "artifactLocation");
		cli_json_begin_object(j);
		cli_json_key(j, "uri");
		cli_json_string(j, uri);
		cli_json_end_object(j);
		cli_json_key(j, "region");
		cli_json_begin_object(j);
		cli_json_key(j, "startLine");
		cli_json_uint(j, d->line && d->file[0] ? d->line : 1);
		cli_json_end_object(j);
		cli_json_end_object(j);
		cli_json_end_object(j);
		cli_json_end_array(j);
	}
	cli_json_key(j, "partialFingerprints");
	cli_json_begin_object(j);
	cli_json_key(j, "qbank/v1");
	cli_json_string(j, fingerprint);
	cli_json_end_object(j);
	if (d->question) {
		cli_json_key(j, "properties");
		cli_json_begin_object(j);
		cli_json_key(j, "question");
		cli_json_string(j, d->question);
		cli_json_end_object(j);
	}
	cli_json_end_object(j);
}

int fmt_sarif(FILE *out, const struct qb_report *r)
{
	const struct qb_config *cfg = r->lint ? qb_lint_config(r->lint) : NULL;
	const char *first = r->lint && r->stats->files ? qb_lint_file_name(r->lint, 0) : "";
	struct qb_buf uri = QB_BUF_INIT;
	uint64_t *hash = NULL;
	size_t *nth = NULL, i;
	struct cli_json j;
	int rc;

	rc = fingerprints(r->diags, &hash, &nth);
	if (rc)
		return rc;
	cli_json_init(&j, out);
	cli_json_begin_object(&j);
	cli_json_key(&j, "$schema");
	cli_json_string(&j, "https://json.schemastore.org/sarif-2.1.0.json");
	cli_json_key(&j, "version");
	cli_json_string(&j, "2.1.0");
	cli_json_key(&j, "runs");
	cli_json_begin_array(&j);
	cli_json_begin_object(&j);
	cli_json_key(&j, "tool");
	cli_json_begin_object(&j);
	cli_json_key(&j, "driver");
	cli_json_begin_object(&j);
	cli_json_key(&j, "name");
	cli_json_string(&j, "qbank");
	cli_json_key(&j, "version");
	cli_json_string(&j, QB_VERSION);
	cli_json_key(&j, "semanticVersion");
	cli_json_string(&j, QB_VERSION);
	cli_json_key(&j, "informationUri");
	cli_json_string(&j, QB_HOMEPAGE);
	cli_json_key(&j, "rules");
	cli_json_begin_array(&j);
	rc = table_rules(&j, cfg);
	cli_json_end_array(&j);
	cli_json_end_object(&j);
	cli_json_end_object(&j);
	cli_json_key(&j, "results");
	cli_json_begin_array(&j);
	for (i = 0; !rc && i < r->diags->n; i++) {
		const struct qb_diag *d = &r->diags->v[i];
		const char *file = d->file[0] ? d->file : first;
		char fp[40];

		qb_buf_clear(&uri);
		rc = qb_buf_adds(&uri, "");
		if (!rc)
			rc = path_uri(&uri, file);
		snprintf(fp, sizeof(fp), "%016" PRIx64 ":%zu", hash[i], nth[i]);
		if (!rc)
			result(&j, d, rule_index(d->rule, cfg), file[0] ? uri.ptr : NULL, fp);
	}
	cli_json_end_array(&j);
	cli_json_end_object(&j);
	cli_json_end_array(&j);
	cli_json_end_object(&j);
	cli_json_finish(&j);
	qb_buf_dispose(&uri);
	free(hash);
	free(nth);
	return rc || ferror(out) ? -1 : 0;
}
