#include <stdlib.h>

#include "rules_impl.h"

void qb_lint_digests_free(struct qb_lint_digests *d)
{
	free(d);
}
