/* Shared set-up of the libFuzzer harnesses: a private temporary folder
 * that holds the input as a bank file (the reader reads files, not memory)
 * and a small image that banks may refer to (img src="img/a.png").
 * Ownership: the folder lives as long as the fuzzing process; each input
 * overwrites bank.xml. */
#ifndef QB_FUZZ_COMMON_H
#define QB_FUZZ_COMMON_H

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libxml/parser.h>

static char fuzz_dir[256];
static char fuzz_bank[300];

/* Keeps libxml2 from printing anything the harness did not ask for. */
static void fuzz_quiet(void *ctx, const char *msg, ...)
{
	(void)ctx;
	(void)msg;
}

/* Removes the folder at exit: bank.xml, img/a.png and the outputs. */
static void fuzz_cleanup(void)
{
	char p[400];
	struct dirent *e;
	DIR *d = opendir(fuzz_dir);

	if (!d)
		return;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.' && (!e->d_name[1] || (e->d_name[1] == '.' && !e->d_name[2])))
			continue;
		snprintf(p, sizeof(p), "%s/%s", fuzz_dir, e->d_name);
		(void)unlink(p);
	}
	closedir(d);
	snprintf(p, sizeof(p), "%s/img/a.png", fuzz_dir);
	(void)unlink(p);
	snprintf(p, sizeof(p), "%s/img", fuzz_dir);
	(void)rmdir(p);
	(void)rmdir(fuzz_dir);
}

static int fuzz_setup(void)
{
	const char *base = getenv("QB_FUZZ_TMP");
	char img[300];
	FILE *f;

	if (!base || !*base)
		base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
	snprintf(fuzz_dir, sizeof(fuzz_dir), "%s/qbank-fuzz-XXXXXX", base);
	if (!mkdtemp(fuzz_dir))
		abort();
	snprintf(fuzz_bank, sizeof(fuzz_bank), "%s/bank.xml", fuzz_dir);
	snprintf(img, sizeof(img), "%s/img", fuzz_dir);
	if (mkdir(img, 0700) != 0)
		abort();
	snprintf(img, sizeof(img), "%s/img/a.png", fuzz_dir);
	f = fopen(img, "wb");
	if (!f)
		abort();
	/* the 8-byte PNG signature and an empty IHDR-less body: a file, not an image */
	fputs("\x89PNG\r\n\x1a\n", f);
	if (fclose(f) != 0)
		abort();
	atexit(fuzz_cleanup);
	xmlInitParser();
	xmlSetGenericErrorFunc(NULL, fuzz_quiet);
	return 0;
}

static void fuzz_write_bank(const uint8_t *data, size_t size)
{
	FILE *f = fopen(fuzz_bank, "wb");

	if (!f)
		abort();
	if (size && fwrite(data, 1, size, f) != size)
		abort();
	if (fclose(f) != 0)
		abort();
}

#endif
