#include "config.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

int qb_config_new(struct qb_config **out)
{
	struct qb_config *c = calloc(1, sizeof(*c));

	*out = NULL;
	if (!c)
		return QB_ENOMEM;
	c->min_explanation_coverage = -1;
	c->min_rationale_coverage = -1;
	c->max_warnings = -1;
	*out = c;
	return 0;
}

void qb_config_free(struct qb_config *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->nsev; i++)
		free(c->sev[i].pattern);
	free(c->sev);
	free(c->path);
	free(c);
}

int qb_config_set_severity(struct qb_config *c, const char *pattern,
			   enum qb_severity sev, int enable_default)
{
	struct qb_severity_rule *v = realloc(c->sev, (c->nsev + 1) * sizeof(*v));

	if (!v)
		return QB_ENOMEM;
	c->sev = v;
	v[c->nsev].pattern = strdup(pattern);
	if (!v[c->nsev].pattern)
		return QB_ENOMEM;
	v[c->nsev].severity = sev;
	v[c->nsev].enable_default = enable_default;
	c->nsev++;
	return 0;
}

enum qb_severity qb_config_severity(const struct qb_config *c,
				    const char *rule_id, enum qb_severity dflt)
{
	enum qb_severity s = dflt;
	size_t i;

	if (!c)
		return s;
	for (i = 0; i < c->nsev; i++) {
		if (fnmatch(c->sev[i].pattern, rule_id, 0) == 0)
			s = c->sev[i].enable_default ? (dflt ? dflt : QB_SEV_WARNING)
						     : c->sev[i].severity;
	}
	return s;
}
