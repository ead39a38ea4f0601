#include "model.h"

#include <string.h>

const char *const qb_qtype_names[QB_Q_UNKNOWN] = {
	"single", "multiple", "truefalse", "short", "numeric", "essay", "matching",
};

enum qb_qtype qb_qtype_parse(const char *s)
{
	int i;

	if (!s)
		return QB_Q_UNKNOWN;
	for (i = 0; i < QB_Q_UNKNOWN; i++)
		if (strcmp(s, qb_qtype_names[i]) == 0)
			return (enum qb_qtype)i;
	return QB_Q_UNKNOWN;
}

int qb_qtype_is_choice(enum qb_qtype t)
{
	return t == QB_Q_SINGLE || t == QB_Q_MULTIPLE;
}
