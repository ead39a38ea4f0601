/* libFuzzer harness: the reader and the whole linter (every rule, the
 * bank-wide finish step) over one bank file. Findings are expected; a
 * crash, a leak, a sanitizer report or a hang is a bug. */
#include "fuzz_common.h"

#include "../../tools/lib/config.h"
#include "../../tools/lib/lint.h"
#include "../../tools/lib/reader.h"

/* Compiled once: qb_run would compile it for every input, which would
 * cost most of the time. The loop below is qb_run's per-file loop. */
static xmlSchemaPtr schema;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_setup();
	{
		struct qb_error err = { 0, "" };

		if (qb_schema_load(&schema, &err) != 0)
			abort();
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct qb_error err = { 0, "" };
	struct qb_config *cfg = NULL;
	struct qb_lint *l = NULL;
	struct qb_reader *r = NULL;
	const struct qb_question *q;
	int rc;

	fuzz_write_bank(data, size);
	if (qb_config_new(&cfg) != 0)
		abort();
	/* every rule at its default severity, plus the coverage thresholds */
	cfg->min_explanation_coverage = 50;
	cfg->min_rationale_coverage = 50;
	if (qb_lint_new(&l, cfg, &err) != 0)
		abort();
	{
		struct qb_reader_opts ro = { schema, 0, qb_lint_reader_diag, l };

		if (qb_reader_open(&r, fuzz_bank, &ro, &err) == 0) {
			rc = qb_lint_file_begin(l, fuzz_bank, 0);
			while (!rc && (rc = qb_reader_next(r, &q)) == 1)
				rc = qb_lint_question(l, q);
			if (!rc)
				rc = qb_lint_file_end(l, qb_reader_bank(r));
			qb_reader_free(r);
			if (!rc)
				(void)qb_lint_finish(l);
		}
	}
	(void)qb_lint_failed(l);
	qb_lint_free(l);
	qb_config_free(cfg);
	return 0;
}
