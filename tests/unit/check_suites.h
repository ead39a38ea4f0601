/* Every Check suite of the unit tests; check_main.c runs them all. */
#ifndef QB_CHECK_SUITES_H
#define QB_CHECK_SUITES_H

#include <check.h>

Suite *suite_reader(void);
Suite *suite_tables(void);
Suite *suite_text(void);

#endif
