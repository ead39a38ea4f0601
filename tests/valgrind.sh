#!/bin/sh
# Runs the cases of tests/cli and tests/golden and the hostile suite
# (tests/run.sh) with every qbank process under valgrind memcheck, then the
# Check unit tests (CK_FORK=no, one process), and fails on any memory error
# or leak (definite or indirect).
# still-reachable blocks (libxml2's and PCRE2's process-wide caches) are
# not leaks. The big generated hostile inputs are skipped (HOSTILE_QUICK):
# under valgrind they take minutes and add nothing the small ones miss.
# Each case runs once (QBANK_TEST_NO_SERIAL=1 unless set otherwise): the
# second, single-threaded run doubles the time under memcheck; set
# QBANK_TEST_NO_SERIAL=0 to check that path too. A command may take up to
# 10 minutes under memcheck (QBANK_TEST_TIMEOUT).
# Usage: tests/valgrind.sh [SELECTOR...]   (default tests/cli tests/golden
# tests/hostile; the unit tests run only then)
# Environment: QBANK, UNIT (binaries), BUILD (where logs go).
# Prints "valgrind: N processes, M with errors".
set -u
cd "$(dirname "$0")/.." || exit 2
: "${QBANK:?}" "${UNIT:?}" "${BUILD:?}"
ROOT=$(pwd)
dir=$ROOT/$BUILD/valgrind
rm -rf "$dir"
mkdir -p "$dir/logs"
real=$(cd "$(dirname "$QBANK")" && pwd)/$(basename "$QBANK")
# qbank links jemalloc (Makefile ALLOC_LIBS): memcheck must replace its
# malloc too, or it would see neither the allocations nor the leaks
VG="valgrind -q --error-exitcode=99 --leak-check=full --show-leak-kinds=definite,indirect \
--errors-for-leak-kinds=definite,indirect --track-origins=yes --num-callers=30 \
--soname-synonyms=somalloc=*jemalloc* --suppressions=$ROOT/tests/valgrind.supp"

cat >"$dir/qbank" <<WRAP
#!/bin/sh
exec $VG --log-file="$dir/logs/qbank.%p" "$real" "\$@"
WRAP
chmod +x "$dir/qbank"

failed=0
unit=0
[ $# -eq 0 ] && unit=1 && set -- tests/cli tests/golden tests/hostile
QBANK="$dir/qbank" HOSTILE_QUICK=1 HOSTILE_NO_LIMITS=1 QBANK_TEST_NO_SERIAL=${QBANK_TEST_NO_SERIAL:-1} \
	QBANK_TEST_TIMEOUT=${QBANK_TEST_TIMEOUT:-600} tests/run.sh "$@" || failed=1
if [ $unit -eq 1 ]; then
	CK_FORK=no $VG --log-file="$dir/logs/check_unit.%p" "$UNIT" || failed=1
fi

n=$(find "$dir/logs" -type f | wc -l)
bad=$(find "$dir/logs" -type f -size +0 | sort)
m=$(printf '%s' "$bad" | grep -c . || true)
for f in $bad; do
	echo "valgrind: $f:" >&2
	head -40 "$f" >&2
done
echo "valgrind: $n processes, $m with errors"
# the closing line in the suite's usual form: processes clean / with errors
echo "valgrind: $((n - m)) passed, $m failed"
[ "$m" -eq 0 ] && [ $failed -eq 0 ]
