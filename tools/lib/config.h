/* Lint configuration: rule severities, coverage thresholds, user rules.
 * Ownership: a qb_config owns all its strings and compiled patterns;
 * qb_config_free releases them. The command line fills one from
 * --enable/--disable/--min-*-coverage and an optional configuration file
 * (.qbank.toml, a small subset of TOML; README.md "Configuration"). */
#ifndef QB_CONFIG_H
#define QB_CONFIG_H

#include <stddef.h>

#ifndef PCRE2_CODE_UNIT_WIDTH
#define PCRE2_CODE_UNIT_WIDTH 8
#endif
#include <pcre2.h>

#include "diag.h"
#include "error.h"

/* The name searched for upward from the current directory. */
#define QB_CONFIG_NAME ".qbank.toml"

/* One severity override: a rule id or a glob ("cue-*"), in the order given;
 * later entries win. */
struct qb_severity_rule {
	char *pattern;
	enum qb_severity severity;   /* QB_SEV_OFF disables */
	int enable_default;          /* 1 for --enable: the rule's default severity */
};

/* The parts of a question a user rule reads (bit set). "option" is every
 * option text, that is key and distractor together. */
enum qb_part {
	QB_PART_STEM = 1 << 0,
	QB_PART_KEY = 1 << 1,          /* correct options' text, short answers */
	QB_PART_DISTRACTOR = 1 << 2,   /* wrong options' text, matching's extra responses */
	QB_PART_RATIONALE = 1 << 3,    /* option rationales, truefalse side rationales */
	QB_PART_EXPLANATION = 1 << 4,
	QB_PART_OPTION = QB_PART_KEY | QB_PART_DISTRACTOR,
	QB_PART_ALL = 0x1f
};

/* A user rule from the configuration file: a PCRE2 pattern matched against
 * the plain text of some parts of every question (rules/rule_user.c). */
struct qb_user_rule {
	char *id;                    /* "custom/NAME" */
	char *pattern;
	char *message;               /* "{match}" stands for the matched text */
	unsigned parts;              /* enum qb_part bits */
	enum qb_severity severity;   /* default severity (before [rules] and --disable) */
	unsigned long line;          /* of its [[custom-rule]] header */
	unsigned long pattern_line;
	pcre2_code *code;            /* compiled once, JIT when available */
};

struct qb_config {
	struct qb_severity_rule *sev;
	size_t nsev, capsev;
	double min_explanation_coverage;   /* percent, -1 = no threshold */
	double min_rationale_coverage;     /* percent, -1 = no threshold */
	long max_warnings;                 /* -1 = unlimited */
	int max_warnings_opt;              /* 1: max_warnings came from --max-warnings,
					    * else from the file at path */
	struct qb_user_rule *user_rules;
	size_t nuser_rules, capuser_rules;
	pcre2_match_context *mctx;         /* match and depth limits of user rules */
	char *path;                        /* configuration file read, or NULL */
};

/* Bounds on one match of a user rule: a runaway pattern gives up (and is
 * reported) instead of hanging the run. */
#define QB_USER_MATCH_LIMIT 1000000u
#define QB_USER_DEPTH_LIMIT 10000u

int qb_config_new(struct qb_config **out);
void qb_config_free(struct qb_config *c);

/* Adds an override; PATTERN is an id or a glob. */
int qb_config_set_severity(struct qb_config *c, const char *pattern,
			   enum qb_severity sev, int enable_default);

/* The severity in force for RULE_ID whose default is DFLT. For a user rule
 * (custom/...) of the configuration, its own severity is the default. */
enum qb_severity qb_config_severity(const struct qb_config *c,
				    const char *rule_id, enum qb_severity dflt);

/* The user rule with id ID, or NULL. */
const struct qb_user_rule *qb_config_user_rule(const struct qb_config *c, const char *id);

/* Looks for QB_CONFIG_NAME in the current directory and each parent up to
 * the file-system root. *OUT is the relative path found ("../.qbank.toml"),
 * to free(), or NULL when there is none. */
int qb_config_find(char **out, struct qb_error *err);

/* Whether NAME, a key of the [rules] table, may stand for rules:
 * QB_CONFIG_RULE_OK, QB_CONFIG_RULE_UNKNOWN (0), or QB_CONFIG_RULE_FIXED
 * for a rule whose severity no configuration changes (a read error).
 * The configuration sits below the rule table (tools/README.md "Floors")
 * and knows no rule ids; whoever joins the two passes the table's own
 * check (qb_rule_known, rules.h). */
enum { QB_CONFIG_RULE_UNKNOWN = 0, QB_CONFIG_RULE_OK = 1, QB_CONFIG_RULE_FIXED = 2 };
typedef int (*qb_config_rule_check_fn)(const char *name);

/* Reads the configuration file PATH into C. Settings already in C (the
 * command line's) win: the file's severities go before them, its
 * thresholds apply only where C has none. A key of [rules] that KNOWN
 * finds unknown, or fixed with a severity other than "error", is an error
 * at its line (NULL: every key is taken). Errors:
 * QB_EIO (unreadable) or QB_EINVAL with "PATH:LINE: message" in ERR; C is
 * unchanged then. */
int qb_config_load(struct qb_config *c, const char *path, qb_config_rule_check_fn known,
		   struct qb_error *err);

/* The same over TEXT in memory; NAME is the file name for messages. */
int qb_config_parse(struct qb_config *c, const char *name, const char *text, size_t len,
		    qb_config_rule_check_fn known, struct qb_error *err);

#endif
