#!/bin/sh
# Runs the whole test suite: command-line cases, golden cases, schema
# examples, then the Check unit tests (their summary line closes the run).
# Environment: QBANK (the binary), UNIT (the Check runner), BUILD, GEN
# (the bank generator, for tests/hostile/signals.sh).
set -u
cd "$(dirname "$0")/.." || exit 2
export LC_ALL=C
failed=0

for t in tests/schema/check-readme-examples.sh tests/golden/run.sh tests/cli/run.sh \
	tests/hostile/run.sh tests/hostile/signals.sh tests/ecosystem/run.sh \
	tests/export/qti21/run.sh tests/export/markdown/run.sh; do
	[ -x "$t" ] || continue
	"$t" || failed=1
done

"$UNIT" || failed=1
exit $failed
