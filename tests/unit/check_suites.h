/* Every Check suite of the unit tests; check_main.c runs them all. */
#ifndef QB_CHECK_SUITES_H
#define QB_CHECK_SUITES_H

#include <check.h>

Suite *suite_config(void);
Suite *suite_core(void);
Suite *suite_diff(void);
Suite *suite_imgpath(void);
Suite *suite_import(void);
Suite *suite_markdown(void);
Suite *suite_moodle(void);
Suite *suite_qti(void);
Suite *suite_reader(void);
Suite *suite_rules(void);
Suite *suite_stats(void);
Suite *suite_tables(void);
Suite *suite_tempfile(void);
Suite *suite_text(void);

#endif
