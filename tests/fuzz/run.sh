#!/bin/sh
# Runs the libFuzzer harnesses one after the other (the machines have two
# cores: one fuzzer at a time). Each first replays tests/fuzz/regressions/
# (every input that once crashed must stay fixed), then fuzzes for SECONDS
# from the seed corpus (the project's banks and test fixtures) plus the
# corpus it grew in earlier runs.
# Usage: tests/fuzz/run.sh FUZZ_DIR SECONDS TARGET...
# FUZZ_DIR holds the fuzz-TARGET binaries; corpus/ and artifacts/ go there.
# Prints one line per target: executions, corpus size, crashes.
set -u
cd "$(dirname "$0")/../.." || exit 2
dir=$1
secs=$2
shift 2
failed=0
seeds="bank tests/fixtures tests/schema tests/hostile/cases tests/fuzz/regressions"

for t in "$@"; do
	bin=$dir/fuzz-$t
	corpus=$dir/corpus/$t
	art=$dir/artifacts/$t
	log=$dir/fuzz-$t.log
	mkdir -p "$corpus" "$art"
	existing=""
	tseeds=$seeds
	# the importers' harnesses also start from Moodle's own files and the import cases
	case $t in import-*) tseeds="$seeds tests/cli ../shared/samples" ;; esac
	for s in $tseeds; do [ -d "$s" ] && existing="$existing $s"; done

	# replay the regression inputs once each
	regs=$(find tests/fuzz/regressions -type f ! -name '*.md' 2>/dev/null | sort)
	if [ -n "$regs" ]; then
		# shellcheck disable=SC2086
		if ! "$bin" -runs=1 $regs >"$dir/regress-$t.log" 2>&1; then
			echo "fuzz-$t: a regression input fails again; see $dir/regress-$t.log" >&2
			failed=1
			continue
		fi
	fi

	start=$(date +%s)
	touch "$dir/.start-$t"
	# shellcheck disable=SC2086
	"$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=131072 \
		-dict=tests/fuzz/qbank.dict -print_final_stats=1 \
		-artifact_prefix="$art/" "$corpus" $existing >"$log" 2>&1
	rc=$?
	took=$(($(date +%s) - start))
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	nfiles=$(find "$corpus" -type f | wc -l)
	kb=$(du -sk "$corpus" | cut -f1)
	crashes=$(find "$art" -type f -newer "$dir/.start-$t" | wc -l)
	echo "fuzz-$t: ${execs:-0} executions in ${took} s, corpus $nfiles files ($kb KB), $crashes new crash files"
	if [ $rc -ne 0 ]; then
		echo "fuzz-$t: the fuzzer stopped with status $rc; the reproducer is in $art/, the log in $log:" >&2
		grep -m1 -A12 'ERROR: \|==ERROR\|runtime error' "$log" >&2
		failed=1
	fi
done
exit $failed
