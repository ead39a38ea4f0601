/* User rules of the configuration file ([[custom-rule]]): each PCRE2
 * pattern runs over the plain text of the parts it names, once per part;
 * the first match in a part is one finding, at the line of that part. */
#include <string.h>

#include "../config.h"
#include "../text.h"
#include "rules_impl.h"

/* One text-bearing part of a question: a rich-text node or a plain value. */
struct slot {
	unsigned part;
	const xmlNode *node;
	const char *value;
	unsigned long line;
};

/* Longest matched text quoted in a message, in bytes. */
#define MATCH_QUOTE_MAX 60

/* Appends MSG with each "{match}" replaced by the matched text (cut at a
 * character boundary when long). */
static int expand_message(struct qb_buf *out, const char *msg, const char *m, size_t mlen)
{
	const char *s = msg, *hit;
	int rc = 0, cut = mlen > MATCH_QUOTE_MAX;

	if (cut) {
		mlen = MATCH_QUOTE_MAX;
		while (mlen > 0 && ((unsigned char)m[mlen] & 0xc0) == 0x80)
			mlen--;
	}
	while (!rc && (hit = strstr(s, "{match}")) != NULL) {
		rc = qb_buf_add(out, s, (size_t)(hit - s));
		if (!rc)
			rc = qb_buf_add(out, m, mlen);
		if (!rc && cut)
			rc = qb_buf_adds(out, "...");
		s = hit + 7;
	}
	return rc ? rc : qb_buf_adds(out, s);
}

static int run_rule(struct qb_rule_ctx *cx, const struct qb_user_rule *r, const char *text, size_t len,
		    unsigned long line)
{
	const struct qb_config *c = cx->cfg;
	PCRE2_UCHAR err[160];
	PCRE2_SIZE *ov;
	/* the lint's own match data: the configuration is shared, read only,
	 * by the lints that run at once (qbank diff's two sides) */
	pcre2_match_data *md = qb_rule_match_data(cx);
	int rc = pcre2_match(r->code, (PCRE2_SPTR)text, len, 0, 0, md, c->mctx);

	if (rc == PCRE2_ERROR_NOMATCH)
		return 0;
	if (rc < 0) {
		/* The match limit, depth limit or JIT stack stopped a runaway
		 * pattern: say so instead of passing the text silently. */
		pcre2_get_error_message(rc, err, sizeof(err));
		return qb_rule_report_user(cx, r->id, line,
				      "pattern of %s gave up on this text (%s); simplify the pattern",
				      r->id, (const char *)err);
	}
	ov = pcre2_get_ovector_pointer(md);
	qb_buf_clear(&cx->scratch2);
	rc = expand_message(&cx->scratch2, r->message, text + ov[0],
			    ov[1] > ov[0] ? (size_t)(ov[1] - ov[0]) : 0);
	if (rc)
		return rc;
	return qb_rule_report_user(cx, r->id, line, "%s", cx->scratch2.ptr);
}

/* Severities in force are looked up once per question for the first
 * SEV_CACHE rules (glob matching per part would cost more than the match). */
#define SEV_CACHE 64

static enum qb_severity rule_sev(const struct qb_config *c, const enum qb_severity *sev, size_t i)
{
	/* qb_rule_user_check fills sev[i] for every i < nuser_rules below SEV_CACHE; the
	 * configuration does not change while linting (the analyzer thinks it may) */
	/* NOLINTNEXTLINE(clang-analyzer-core.uninitialized.UndefReturn) */
	return i < SEV_CACHE ? sev[i]
			     : qb_config_severity(c, c->user_rules[i].id, c->user_rules[i].severity);
}

static int run_slot(struct qb_rule_ctx *cx, const struct slot *s, const enum qb_severity *sev)
{
	const struct qb_config *c = cx->cfg;
	const char *text = s->value;
	size_t i, len = 0;
	int rc = 0, ready = 0;

	for (i = 0; i < c->nuser_rules && !rc; i++) {
		const struct qb_user_rule *r = &c->user_rules[i];

		if (!(r->parts & s->part) || rule_sev(c, sev, i) == QB_SEV_OFF)
			continue;
		if (!ready) {
			/* The plain text once per part, whatever the number of rules. */
			if (s->node) {
				qb_buf_clear(&cx->scratch);
				rc = qb_text_plain(&cx->scratch, s->node);
				if (rc)
					break;
				text = cx->scratch.ptr ? cx->scratch.ptr : "";
			}
			/* a slot has a node or a value: the reader sets every distractor's and
			 * rationale's node (model.h), answers pass "" for a missing value */
			/* NOLINTNEXTLINE(clang-analyzer-core.NonNullParamChecker) */
			len = strlen(text);
			ready = 1;
		}
		rc = run_rule(cx, r, text, len, s->line);
	}
	return rc;
}

int qb_rule_user_check(struct qb_rule_ctx *cx, const struct qb_question *q)
{
	enum qb_severity sev[SEV_CACHE];
	struct slot s;
	size_t i;
	int rc = 0;

	if (!cx->cfg || !cx->cfg->nuser_rules || q->schema_invalid)
		return 0;
	for (i = 0; i < cx->cfg->nuser_rules && i < SEV_CACHE; i++)
		sev[i] = qb_config_severity(cx->cfg, cx->cfg->user_rules[i].id, cx->cfg->user_rules[i].severity);
	if (q->stem) {
		s = (struct slot){ QB_PART_STEM, q->stem, NULL, q->stem_line ? q->stem_line : q->line };
		rc = run_slot(cx, &s, sev);
	}
	for (i = 0; i < q->noptions && !rc; i++) {
		const struct qb_option *o = &q->options[i];

		if (o->text) {
			s = (struct slot){ o->correct ? QB_PART_KEY : QB_PART_DISTRACTOR, o->text, NULL,
					   o->text_line ? o->text_line : o->line };
			rc = run_slot(cx, &s, sev);
		}
		if (!rc && o->rationale) {
			s = (struct slot){ QB_PART_RATIONALE, o->rationale, NULL,
					   o->rationale_line ? o->rationale_line : o->line };
			rc = run_slot(cx, &s, sev);
		}
	}
	for (i = 0; q->type == QB_Q_SHORT && i < q->nanswers && !rc; i++) {
		s = (struct slot){ QB_PART_KEY, NULL, q->answers[i].value ? q->answers[i].value : "",
				   q->answers[i].line };
		rc = run_slot(cx, &s, sev);
	}
	for (i = 0; i < q->ndistractors && !rc; i++) {
		s = (struct slot){ QB_PART_DISTRACTOR, q->distractors[i].node, NULL,
				   q->distractors[i].line };
		rc = run_slot(cx, &s, sev);
	}
	for (i = 0; i < q->nside_rationales && !rc; i++) {
		s = (struct slot){ QB_PART_RATIONALE, q->side_rationales[i].node, NULL,
				   q->side_rationales[i].line };
		rc = run_slot(cx, &s, sev);
	}
	if (q->explanation && !rc) {
		s = (struct slot){ QB_PART_EXPLANATION, q->explanation, NULL,
				   q->explanation_line ? q->explanation_line : q->line };
		rc = run_slot(cx, &s, sev);
	}
	return rc;
}
