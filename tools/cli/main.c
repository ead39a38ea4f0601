#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <libxml/parser.h>

#include "../lib/tempfile.h"
#include "cli.h"

static void quiet_libxml2(void *ctx, const char *msg, ...)
{
	(void)ctx;
	(void)msg;
}

int main(int argc, char **argv)
{
	const struct qb_command *c;
	int i, rc;

	/* qbank's own options come before the command, which parses the rest */
	i = qb_opts_parse(&qb_top_opts, NULL, argc, argv, &rc);
	if (i < 0)
		return rc;
	if (i >= argc)
		return cli_usage_error(NULL, "no command given");
	c = qb_command_find(argv[i]);
	if (!c)
		return cli_usage_error(NULL, argv[i][0] == '-' ? qb_top_opts.unknown : "unknown command '%s'",
				       argv[i]);
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
	rc = c->run(argc - i, argv + i);
	xmlCleanupParser();
	return rc;
}
