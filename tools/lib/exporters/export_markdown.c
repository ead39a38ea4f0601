/* placeholder until the exporter lands: refuses to run */
#include "exporters.h"

int qb_md_open(void **state, const struct qb_export_opts *o, struct qb_error *err)
{
	(void)o;
	*state = NULL;
	qb_error_set(err, QB_EINVAL, "this exporter is not available yet");
	return QB_EINVAL;
}
int qb_md_bank(void *state, const struct qb_bank_info *b) { (void)state; (void)b; return 0; }
int qb_md_question(void *state, const struct qb_question *q) { (void)state; (void)q; return 0; }
int qb_md_commit(void *state, struct qb_error *err) { (void)state; (void)err; return 0; }
void qb_md_abort(void *state) { (void)state; }
