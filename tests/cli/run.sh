#!/bin/sh
# Command-line cases: each folder tests/cli/<case>/ with a file `cmd` is one
# case. `cmd` is a shell command line run from the repository root with
#   $QBANK     the qbank binary (absolute path)
#   $ROOT      the repository root (absolute)
#   $CASE      the case folder, relative to the root (tests/cli/<case>)
#   $CASE_TMP  an empty scratch folder, removed afterwards
# and LC_ALL=C, NO_COLOR=1. What the case expects, each file optional:
#   expected_stdout   standard output, byte for byte
#   expected_stderr   standard error, byte for byte
#   expected_status   the exit status (0 when the file is absent)
#   check             a shell script for structural checks (jq, xmllint, ...),
#                     run with $OUT, $ERR (files) and $STATUS; non-zero fails
# A case whose output starts with "SKIP: reason" and exits 0 is counted as
# skipped (e.g. no pseudo-terminal can be made here), and says why.
#
# Usage: tests/cli/run.sh [--update] [CASE...]
#   --update  rewrites expected_stdout / expected_stderr where they exist, and
#             expected_status; review the diff like code (make cli-update)
# Prints "cli: N passed, M failed"; exits 1 when a case failed.
set -u
cd "$(dirname "$0")/../.." || exit 2
ROOT=$(pwd)
export ROOT LC_ALL=C NO_COLOR=1
QBANK=${QBANK:-build/qbank}
case "$QBANK" in
/*) ;;
*) QBANK="$ROOT/$QBANK" ;;
esac
export QBANK
if [ ! -x "$QBANK" ]; then
	echo "cli: $QBANK is not built (make build)" >&2
	exit 2
fi

update=0
if [ "${1:-}" = --update ]; then
	update=1
	shift
fi

if [ $# -gt 0 ]; then
	cases=$(for c in "$@"; do echo "tests/cli/${c#tests/cli/}"; done)
else
	cases=$(find tests/cli -mindepth 2 -maxdepth 2 -name cmd | sed 's,/cmd$,,' | sort)
fi

passed=0
failed=0
skipped=0
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT INT TERM

for dir in $cases; do
	name=${dir#tests/cli/}
	if [ ! -f "$dir/cmd" ]; then
		echo "cli: $name: no such case" >&2
		failed=$((failed + 1))
		continue
	fi
	out="$scratch/$name.stdout"
	err="$scratch/$name.stderr"
	tmp="$scratch/$name.tmp"
	mkdir -p "$tmp"
	CASE="$dir" CASE_TMP="$tmp" sh -c "$(cat "$dir/cmd")" >"$out" 2>"$err" </dev/null
	status=$?

	if [ $update -eq 1 ]; then
		[ -f "$dir/expected_stdout" ] && cp "$out" "$dir/expected_stdout"
		[ -f "$dir/expected_stderr" ] && cp "$err" "$dir/expected_stderr"
		echo "$status" >"$dir/expected_status"
	fi

	if [ $status -eq 0 ] && head -n 1 "$out" | grep -q '^SKIP: '; then
		skipped=$((skipped + 1))
		echo "SKIP cli/$name: $(head -n 1 "$out" | sed 's/^SKIP: //')"
		rm -rf "$tmp"
		continue
	fi
	why=""
	want=0
	[ -f "$dir/expected_status" ] && want=$(cat "$dir/expected_status")
	if [ "$status" != "$want" ]; then
		why="exit status $status, expected $want"
	elif [ -f "$dir/expected_stdout" ] && ! cmp -s "$dir/expected_stdout" "$out"; then
		why="standard output differs:
$(diff -u "$dir/expected_stdout" "$out" | head -40)"
	elif [ -f "$dir/expected_stderr" ] && ! cmp -s "$dir/expected_stderr" "$err"; then
		why="standard error differs:
$(diff -u "$dir/expected_stderr" "$err" | head -40)"
	elif [ -f "$dir/check" ]; then
		if ! msg=$(CASE="$dir" CASE_TMP="$tmp" OUT="$out" ERR="$err" STATUS="$status" \
			sh "$dir/check" 2>&1); then
			why="check failed:
$msg"
		fi
	fi
	rm -rf "$tmp"

	if [ -z "$why" ]; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		echo "FAIL cli/$name: $why"
		if [ -s "$err" ] && [ ! -f "$dir/expected_stderr" ]; then
			echo "  stderr:"
			sed 's/^/    /' "$err" | head -10
		fi
	fi
done

echo "cli: $passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
