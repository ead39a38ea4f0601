#!/bin/sh
# Golden tests: every folder below tests/golden/ that holds an `args` file is
# one case. The runner runs `$QBANK <args>` from the repository root and
# compares its standard output, followed by a last line `exit N` with the
# exit status, byte for byte with the case's `expected` file.
#
#   args      the command line after `qbank`, words separated by white space
#             (no quoting, no globbing); paths are relative to the repository
#             root, e.g. `lint --no-config tests/golden/lint/key-missing/bad/bank.xml`
#   expected  standard output, then `exit N`
#
# Adding a case means adding a folder with these files, never code; see
# tests/golden/README.md for the layout.
#
# Usage: tests/golden/run.sh [--update] [SUBSTRING...]
#   --update    rewrite the expected files from the actual output (review the diff)
#   SUBSTRING   run only the cases whose folder contains one of these strings
# Environment: QBANK, the qbank binary (default build/qbank).
set -u
cd "$(dirname "$0")/../.." || exit 2
export LC_ALL=C
unset NO_COLOR
QBANK=${QBANK:-build/qbank}

update=0
if [ "${1:-}" = "--update" ]; then
	update=1
	shift
fi

if [ ! -x "$QBANK" ]; then
	echo "golden: $QBANK is not an executable; build first or set QBANK" >&2
	exit 2
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/qbank-golden.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM

filters="$*"
# Whether case folder $1 contains one of the SUBSTRING arguments.
selected() {
	for f in $filters; do
		case $1 in *"$f"*) return 0 ;; esac
	done
	return 1
}

# Runs the case in folder $1; writes its actual output to $2.
run_case() {
	(
		set -f
		# shellcheck disable=SC2046 # word splitting of args is the format
		set -- $(cat "$1/args")
		"$QBANK" "$@" 2>/dev/null
		echo "exit $?"
	) >"$2"
}

passed=0
failed=0
for args in $(find tests/golden -name args -type f | sort); do
	dir=${args%/args}
	if [ -n "$filters" ] && ! selected "$dir"; then
		continue
	fi
	run_case "$dir" "$tmp/actual"
	if [ $update -eq 1 ]; then
		if ! cmp -s "$tmp/actual" "$dir/expected" 2>/dev/null; then
			cp "$tmp/actual" "$dir/expected"
			echo "golden: updated $dir/expected"
		fi
		passed=$((passed + 1))
	elif [ -f "$dir/expected" ] && cmp -s "$tmp/actual" "$dir/expected"; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		echo "golden: FAIL $dir"
		if [ -f "$dir/expected" ]; then
			diff -u "$dir/expected" "$tmp/actual" | sed 's/^/    /'
		else
			echo "    no expected file; run tests/golden/run.sh --update $dir"
		fi
	fi
done

echo "golden: $passed passed, $failed failed"
[ $failed -eq 0 ]
