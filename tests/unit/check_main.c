#include <stdlib.h>

#include "check_suites.h"

/* Keep in step with check_suites.h. */
static Suite *(*const suites[])(void) = {
	suite_config,
	suite_core,
	suite_diff,
	suite_imgpath,
	suite_import,
	suite_markdown,
	suite_moodle,
	suite_qti,
	suite_reader,
	suite_rules,
	suite_stats,
	suite_tables,
	suite_tempfile,
	suite_text,
};

int main(void)
{
	SRunner *sr = srunner_create(NULL);
	size_t i;
	int failed;

	for (i = 0; i < sizeof(suites) / sizeof(suites[0]); i++)
		srunner_add_suite(sr, suites[i]());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
