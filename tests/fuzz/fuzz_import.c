/* libFuzzer harness for one importer (FUZZ_IMPORTER, set by the Makefile:
 * moodle, gift or aiken): the input is imported through qb_import_run, as
 * `qbank import --from FUZZ_IMPORTER -o out.xml` does, with the media
 * folder, the spool and the atomic writer. Findings are expected; a crash,
 * a leak, a sanitizer report, a hang, or a file outside the private folder
 * is a bug. */
#include "fuzz_common.h"

#include "../../tools/lib/diag.h"
#include "../../tools/lib/import.h"

#ifndef FUZZ_IMPORTER
#error "FUZZ_IMPORTER must name an importer"
#endif

static char out_path[320], media_path[320];

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if (!qb_import_known(FUZZ_IMPORTER))
		abort();
	fuzz_setup();
	snprintf(out_path, sizeof(out_path), "%s/out.xml", fuzz_dir);
	snprintf(media_path, sizeof(media_path), "%s/media", fuzz_dir);
	return 0;
}

/* Empties and removes the media folder an input made (flat: the importer
 * writes no subfolders, and one would fail the rmdir below). */
static void remove_media(void)
{
	char p[700];
	struct dirent *e;
	DIR *d = opendir(media_path);

	if (!d)
		return;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.' && (!e->d_name[1] || (e->d_name[1] == '.' && !e->d_name[2])))
			continue;
		snprintf(p, sizeof(p), "%s/%s", media_path, e->d_name);
		if (unlink(p) != 0)
			abort();
	}
	closedir(d);
	if (rmdir(media_path) != 0)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct qb_import_opts opts = { FUZZ_IMPORTER, out_path, media_path };
	const char *paths[1] = { fuzz_bank };
	struct qb_error err = { 0, "" };
	struct qb_import_stats st;
	struct qb_diags diags;

	fuzz_write_bank(data, size);
	memset(&diags, 0, sizeof(diags));
	(void)qb_import_run(&opts, paths, 1, &diags, &st, &err);
	qb_diags_dispose(&diags);
	(void)unlink(out_path);
	remove_media();
	return 0;
}
