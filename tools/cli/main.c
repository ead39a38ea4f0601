#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <libxml/parser.h>

#include "../lib/tempfile.h"
#include "../lib/version.h"
#include "cli.h"

static void quiet_libxml2(void *ctx, const char *msg, ...)
{
	(void)ctx;
	(void)msg;
}

int main(int argc, char **argv)
{
	const struct qb_command *c;
	int rc;

	if (argc < 2)
		return cli_usage_error(NULL, "no command given");
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		return cmd_help(1, argv + 1);
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
		printf("qbank %s\n", QB_VERSION);
		return QB_EXIT_OK;
	}
	if (argv[1][0] == '-')
		return cli_usage_error(NULL, "unknown option '%s'", argv[1]);
	c = qb_command_find(argv[1]);
	if (!c)
		return cli_usage_error(NULL, "unknown command '%s'", argv[1]);
	/* from here on, temporary files go with the run however it ends (an
	 * interrupt, a closed pipe, exit); before any thread starts */
	if (qb_tempfile_catch_signals()) {
		cli_error("cannot install the signal handlers: %s", strerror(errno));
		return QB_EXIT_USAGE;
	}
	LIBXML_TEST_VERSION
	/* libxml2 also prints its writers' I/O errors ("I/O error : No space
	 * left on device") on stderr; the library reports every failure as an
	 * error with the file's name, so stderr keeps to one line per error. */
	xmlSetGenericErrorFunc(NULL, quiet_libxml2);
	rc = c->run(argc - 1, argv + 1);
	xmlCleanupParser();
	return rc;
}
