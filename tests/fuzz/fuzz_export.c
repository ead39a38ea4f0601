/* libFuzzer harness for one exporter (FUZZ_EXPORTER, set by the Makefile:
 * moodle, qti21 or markdown): lint and export one bank file through
 * qb_export_run into a temporary folder, as `qbank export` does. A refused
 * export (lint errors) is fine; a crash, a leak, a sanitizer report, a hang
 * or a temporary file left behind is a bug. */
#include "fuzz_common.h"


#include "../../tools/lib/config.h"
#include "../../tools/lib/export.h"
#include "../../tools/lib/lint.h"

#ifndef FUZZ_EXPORTER
#error "FUZZ_EXPORTER must name an exporter"
#endif

static char out_path[320];

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const struct qb_exporter *x = qb_exporter_find(FUZZ_EXPORTER);

	(void)argc;
	(void)argv;
	if (!x)
		abort();
	fuzz_setup();
	snprintf(out_path, sizeof(out_path), "%s/out%s", fuzz_dir, x->extension);
	return 0;
}

/* Nothing but bank.xml, img/ and outputs (out*, e.g. out-key.md beside
 * out.md) may be in the folder after an export, successful or not: any
 * other name (a hidden .out.md.tmp-XXXXXX) is a temporary file left behind. */
static void check_no_leftover(void)
{
	DIR *d = opendir(fuzz_dir);
	struct dirent *e;

	if (!d)
		abort();
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
		    strcmp(e->d_name, "bank.xml") == 0 || strcmp(e->d_name, "img") == 0 ||
		    strncmp(e->d_name, "out", 3) == 0)
			continue;
		fprintf(stderr, "left behind in the output folder: %s\n", e->d_name);
		abort();
	}
	closedir(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct qb_exporter *x = qb_exporter_find(FUZZ_EXPORTER);
	const char *files[1] = { fuzz_bank };
	struct qb_error err = { 0, "" };
	struct qb_export_opts o;
	struct qb_config *cfg = NULL;
	struct qb_lint *l = NULL;
	unsigned flags = size ? data[size - 1] : 0;

	fuzz_write_bank(data, size);
	memset(&o, 0, sizeof(o));
	o.output = out_path;
	if (strcmp(x->name, "markdown") == 0) {
		/* the last byte picks the variant, so that each is reached */
		o.answers = flags & 1;
		o.forms = (flags & 2) ? 2 : 0;
		o.seed = flags;
		o.has_seed = 1;
		o.title = (flags & 4) ? "Fuzz \\ * _ $ title" : NULL;
	}
	if (qb_config_new(&cfg) != 0)
		abort();
	if (qb_lint_new(&l, cfg, &err) != 0)
		abort();
	(void)qb_export_run(x, &o, l, files, 1, &err);
	qb_lint_free(l);
	qb_config_free(cfg);
	check_no_leftover();
	return 0;
}
