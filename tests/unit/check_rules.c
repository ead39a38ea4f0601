/* The rule table against its golden cases, rules run on a context of
 * their own (no linter), and the measures behind a few rules (similarity,
 * its guard, the key-position test). The table's order and uniqueness are
 * checked in check_tables.c.
 * Paths are relative to the repository root (tests/run.sh runs from there;
 * QB_SRCDIR names another root). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../tools/lib/rules.h"
#include "../../tools/lib/rules/rules_impl.h"
#include "check_suites.h"

static const char *srcdir(void)
{
	const char *d = getenv("QB_SRCDIR");

	return d && *d ? d : ".";
}

/* The contents of FILE (at most a few hundred KB), or NULL. */
static char *slurp(const char *file)
{
	FILE *f = fopen(file, "rb");
	char *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
		buf = malloc((size_t)n + 1);
		if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
			free(buf);
			buf = NULL;
		}
		if (buf)
			buf[n] = '\0';
	}
	(void)fclose(f);
	return buf;
}

/* tests/golden/lint/RULE/KIND/{args,stdout} exist, and stdout names the rule
 * (bad) or does not (good). */
static void check_case(const char *rule, const char *kind, int must_fire)
{
	char path[1024], tag[256];
	char *args, *expected;

	snprintf(path, sizeof(path), "%s/tests/golden/lint/%s/%s/args", srcdir(), rule, kind);
	args = slurp(path);
	ck_assert_msg(args != NULL, "rule %s has no golden case %s (missing %s)", rule, kind, path);
	free(args);
	snprintf(path, sizeof(path), "%s/tests/golden/lint/%s/%s/stdout", srcdir(), rule, kind);
	expected = slurp(path);
	ck_assert_msg(expected != NULL, "golden case %s/%s has no stdout file (%s)", rule, kind,
		      path);
	snprintf(tag, sizeof(tag), "[%s]", rule);
	if (must_fire)
		ck_assert_msg(strstr(expected, tag) != NULL,
			      "golden case %s/bad does not trigger %s (%s)", rule, rule, path);
	else
		ck_assert_msg(strstr(expected, tag) == NULL,
			      "golden case %s/good triggers %s (%s)", rule, rule, path);
	free(expected);
}

START_TEST(every_rule_has_golden_cases)
{
	check_case(qb_rules[_i].id, "bad", 1);
	check_case(qb_rules[_i].id, "good", 0);
}
END_TEST

static double sim(const char *a, const char *b)
{
	return qb_rule_similarity(a, strlen(a), b, strlen(b));
}

static int guard(const char *a, const char *b)
{
	return qb_rule_near_duplicate_guard(a, strlen(a), b, strlen(b));
}

START_TEST(similarity_measure)
{
	char longer[QB_SIMILARITY_MAX + 2];

	ck_assert(sim("synchronous update", "synchronous updates") >= 0.9);
	ck_assert(sim("data parallelism", "model parallelism") < 0.9);
	ck_assert(sim("abc", "abc") == 1.0);
	ck_assert(sim("", "") == 1.0);
	ck_assert(sim("abcd", "") == 0.0);
	ck_assert(sim("", "abcd") == 0.0);
	/* kitten -> sitting: 3 edits over 7 */
	ck_assert(sim("kitten", "sitting") > 0.571 && sim("kitten", "sitting") < 0.572);
	/* code points, not bytes: one accented letter is one edit */
	ck_assert(sim("caf\xc3\xa9 au lait", "cafe au lait") > 0.9);
	memset(longer, 'x', sizeof(longer) - 1);
	longer[sizeof(longer) - 1] = '\0';
	ck_assert(sim(longer, "x") < 0);
}
END_TEST

START_TEST(near_duplicate_guard)
{
	ck_assert_int_eq(guard("it takes 2 bytes", "it takes 4 bytes"), 1);
	ck_assert_int_eq(guard("a dose of 10 mg", "a dose of 100 mg"), 1);
	ck_assert_int_eq(guard("version 2.5", "version 2.6"), 1);
	ck_assert_int_eq(guard("synchronous updates", "asynchronous updates"), 1);
	ck_assert_int_eq(guard("the input is valid", "the input is invalid"), 1);
	ck_assert_int_eq(guard("unusual traffic", "usual traffic"), 1);
	ck_assert_int_eq(guard("it is thread-safe", "it is not thread-safe"), 1);
	ck_assert_int_eq(guard("non-blocking send", "blocking send"), 1);
	ck_assert_int_eq(guard("synchronous update", "synchronous updates"), 0);
	ck_assert_int_eq(guard("gradient descent", "gradient decent"), 0);
	/* a prefix only counts at the start of a word */
	ck_assert_int_eq(guard("the bundle", "the bdle"), 0);
}
END_TEST

/* A host that keeps the last finding, for running rules without the
 * linter: what rule.h promises a rule needs. */
struct sink {
	int n;
	struct qb_rule_finding last;
	char msg[512];
	enum qb_severity sev;   /* what the host says of every rule */
};

static int sink_report(void *ctx, const struct qb_rule_finding *f, const char *fmt, va_list ap)
{
	struct sink *s = ctx;

	s->n++;
	s->last = *f;
	vsnprintf(s->msg, sizeof(s->msg), fmt, ap);
	return 0;
}

static enum qb_severity sink_severity(void *ctx, enum qb_rule_key rule)
{
	(void)rule;
	return ((struct sink *)ctx)->sev;
}

static const char *sink_file_name(void *ctx, size_t index)
{
	(void)ctx;
	return index == 0 ? "a.xml" : "";
}

static const struct qb_rule_host sink_host = { sink_report, sink_severity, sink_file_name };

START_TEST(rule_runs_on_its_context)
{
	struct qb_option opts[3] = {
		{ .id = "A", .line = 8 }, { .id = "B", .line = 9 }, { .id = "C", .line = 10 },
	};
	struct qb_question q = { .id = "q1", .type = QB_Q_SINGLE, .line = 7 };
	struct sink s = { 0 };
	struct qb_rule_ctx cx;

	q.options = opts;
	q.noptions = 3;
	s.sev = QB_SEV_ERROR;
	ck_assert_int_eq(qb_rule_ctx_init(&cx, &sink_host, &s, NULL), 0);
	cx.serial = 1;
	/* no key: key-missing, by its key, at the question's line */
	ck_assert_int_eq(qb_rules[QB_RULE_KEY_MISSING].check(&cx, &q), 0);
	ck_assert_int_eq(s.n, 1);
	ck_assert_int_eq(s.last.rule, QB_RULE_KEY_MISSING);
	ck_assert_ptr_null(s.last.user_id);
	ck_assert_uint_eq(s.last.line, 7);
	ck_assert_int_eq(s.last.whole_run, 0);
	ck_assert_ptr_nonnull(strstr(s.msg, "question 'q1' has no correct option"));
	/* two keys: key-multiple at the second, naming both */
	opts[0].correct = opts[2].correct = 1;
	ck_assert_int_eq(qb_rules[QB_RULE_KEY_MISSING].check(&cx, &q), 0);
	ck_assert_int_eq(qb_rules[QB_RULE_KEY_MULTIPLE].check(&cx, &q), 0);
	ck_assert_int_eq(s.n, 2);
	ck_assert_int_eq(s.last.rule, QB_RULE_KEY_MULTIPLE);
	ck_assert_uint_eq(s.last.line, 10);
	ck_assert_ptr_nonnull(strstr(s.msg, "(A, C)"));
	/* what the host says of severities and files reaches the rules */
	ck_assert_int_eq(qb_rule_severity(&cx, QB_RULE_IMG_MISSING), QB_SEV_ERROR);
	ck_assert_str_eq(qb_rule_file_name(&cx, 0), "a.xml");
	qb_rule_ctx_dispose(&cx);
}
END_TEST

START_TEST(key_position_threshold)
{
	/* 30 four-option questions: 17 keys at one position are flagged, 16 not */
	ck_assert_int_eq(qb_rule_key_position_unbalanced(17, 7.5, 30, 4), 1);
	ck_assert_int_eq(qb_rule_key_position_unbalanced(16, 7.5, 30, 4), 0);
	/* too few questions to tell */
	ck_assert_int_eq(qb_rule_key_position_unbalanced(7, 1.75, 7, 4), 0);
	ck_assert_int_eq(qb_rule_key_position_unbalanced(8, 2, 8, 4), 1);
	/* a large bank: significant, but not 1.5 times the chance share */
	ck_assert_int_eq(qb_rule_key_position_unbalanced(30000, 25000, 100000, 4), 0);
	ck_assert_int_eq(qb_rule_key_position_unbalanced(40000, 25000, 100000, 4), 1);
}
END_TEST

Suite *suite_rules(void)
{
	Suite *s = suite_create("rules");
	TCase *tc = tcase_create("golden");
	TCase *tx = tcase_create("context");
	TCase *tm = tcase_create("measures");

	tcase_add_loop_test(tc, every_rule_has_golden_cases, 0, (int)qb_nrules);
	tcase_add_test(tm, similarity_measure);
	tcase_add_test(tm, near_duplicate_guard);
	tcase_add_test(tm, key_position_threshold);
	tcase_add_test(tx, rule_runs_on_its_context);
	suite_add_tcase(s, tc);
	suite_add_tcase(s, tx);
	suite_add_tcase(s, tm);
	return s;
}
