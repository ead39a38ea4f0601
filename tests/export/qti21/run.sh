#!/bin/sh
# QTI 2.1 package tests: export banks with `qbank export --to qti21`, then
# check each package with qti_check (tests/export/qti21/qti_check.c):
# every item, the test and the manifest validated against the official IMS
# schemas (libxml2, offline), entry names and metadata, the manifest's
# completeness, and every item's correctResponse against the bank's key.
# Also: byte-identical output across runs and time zones, the golden copy
# of the fixture package (golden/), and refusals that leave no file.
#
# The schemas come from QBANK_CONFORMANCE_DIR (default ../shared/conformance
# beside the repository; the Makefile exports it). Without them the schema
# checks are reported as SKIP and counted as skipped, never as passed.
#
# Environment: QBANK (the binary), BUILD (where qti_check is built).
# Usage: tests/export/qti21/run.sh [--update]   (--update rewrites golden/)
# Prints "qti21: N passed, M failed, K skipped"; exits 1 when M > 0.
set -u
cd "$(dirname "$0")/../../.." || exit 2
ROOT=$(pwd)
export LC_ALL=C
BUILD=${BUILD:-build}
QBANK=${QBANK:-$BUILD/qbank}
CHECK=${QTI_CHECK:-$BUILD/qti_check}
HERE=tests/export/qti21
CONF=${QBANK_CONFORMANCE_DIR:-../shared/conformance}
case "$CONF" in /*) ;; *) CONF="$ROOT/$CONF" ;; esac

for b in "$QBANK" "$CHECK"; do
	if [ ! -x "$b" ]; then
		echo "qti21: $b is not built (make test builds it)" >&2
		exit 2
	fi
done
update=0
[ "${1:-}" = --update ] && update=1

T=$(mktemp -d "${TMPDIR:-/tmp}/qbank-qti21.XXXXXX") || exit 2
trap 'rm -rf "$T"' EXIT INT TERM
pass=0 fail=0 skip=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL qti21/$1: $2" >&2; }
skipped() { skip=$((skip + 1)); echo "SKIP qti21/$1: $2"; }

schemas=""
if [ -f "$CONF/qti21/imsqti_v2p1.xsd" ] && [ -f "$CONF/imscp/imscp_v1p1.xsd" ]; then
	schemas="$CONF"
else
	echo "SKIP qti21: the official schemas are not at $CONF (set QBANK_CONFORMANCE_DIR);" \
		"schema validation is skipped, the other checks run"
fi

# export NAME ARGS...: qbank export --to qti21 -o $T/NAME.zip ARGS; sets $rc
export_pkg() {
	name=$1
	shift
	"$QBANK" export --to qti21 -o "$T/$name.zip" "$@" >"$T/$name.out" 2>"$T/$name.err" </dev/null
	rc=$?
}

# conform NAME BANK...: qti_check on $T/NAME.zip (with the schemas if any)
conform() {
	name=$1
	shift
	if [ -n "$schemas" ]; then
		if "$CHECK" --schemas "$schemas" "$T/$name.zip" "$@" >"$T/$name.check" 2>&1; then
			ok
			sed "s,$T/,,;s/^/  /" "$T/$name.check"
		else
			bad "conformance/$name" "$(cat "$T/$name.check")"
		fi
	else
		if "$CHECK" "$T/$name.zip" "$@" >"$T/$name.check" 2>&1; then
			ok
		else
			bad "package/$name" "$(cat "$T/$name.check")"
		fi
		skipped "schemas/$name" "no official schemas to validate against"
	fi
}

# ---- conformance: the project's bank, the hostile bank, the fixtures -------

for bank in bank/*.xml tests/fixtures/hostile.xml "$HERE/all-types.xml" "$HERE/empty.xml"; do
	[ -f "$bank" ] || continue
	name=$(basename "$bank" .xml)
	export_pkg "$name" "$bank"
	if [ "$rc" -ne 0 ]; then
		bad "export/$name" "exit status $rc: $(cat "$T/$name.err")"
		continue
	fi
	ok
	conform "$name" "$bank"
done

# two bank files in one package: ids, sections and test across files
export_pkg two-files "$HERE/all-types.xml" "$HERE/lang-de.xml"
if [ "$rc" -ne 0 ]; then
	bad export/two-files "exit status $rc: $(cat "$T/two-files.err")"
else
	ok
	conform two-files "$HERE/all-types.xml" "$HERE/lang-de.xml"
fi

# ---- the checker itself: it must see a wrong key and an invalid document ----

export_pkg control "$HERE/control/key.xml"
if [ "$rc" -ne 0 ]; then
	bad control/export "exit status $rc"
elif "$CHECK" "$T/control.zip" "$HERE/control/key-changed.xml" >"$T/control.check" 2>&1; then
	bad control/key "qti_check accepted a package whose keys differ from the bank"
elif [ "$(grep -c 'correctResponse is' "$T/control.check")" -ne 3 ]; then
	bad control/key "expected 3 key mismatches: $(cat "$T/control.check")"
else
	ok
fi
if [ -n "$schemas" ]; then
	if "$CHECK" --schemas "$schemas" --validate qti "$schemas/qti21/samples/choice.xml" >/dev/null 2>&1 &&
		! "$CHECK" --schemas "$schemas" --validate qti "$schemas/qti21/samples/invalid/xsdinvalid.xml" >/dev/null 2>&1 &&
		! "$CHECK" --schemas "$schemas" --validate cp "$schemas/imscp/samples/invalid/WebDeveloperTest1/imsmanifest.xml" >/dev/null 2>&1; then
		ok
	else
		bad control/schemas "the validator does not tell valid from invalid samples"
	fi
else
	skipped control/schemas "no official schemas"
fi

# ---- determinism: the same bytes again, in another time zone and locale -----

export_pkg again "$HERE/all-types.xml" "$HERE/lang-de.xml"
mv "$T/again.zip" "$T/again-utc.zip"
TZ=Asia/Kolkata LC_ALL=C.UTF-8 "$QBANK" export --to qti21 -o "$T/again-ist.zip" \
	"$HERE/all-types.xml" "$HERE/lang-de.xml" >/dev/null 2>&1
if cmp -s "$T/two-files.zip" "$T/again-utc.zip" && cmp -s "$T/two-files.zip" "$T/again-ist.zip"; then
	ok
else
	bad determinism "two exports of the same banks differ"
fi

# ---- golden: the fixture package, unpacked, byte for byte -------------------

rm -rf "$T/golden"
mkdir -p "$T/golden"
if ! "$CHECK" --extract "$T/golden" "$T/two-files.zip" >"$T/golden.out" 2>&1; then
	bad golden "cannot unpack the package: $(cat "$T/golden.out")"
elif [ $update -eq 1 ]; then
	rm -rf "$HERE/golden"
	cp -R "$T/golden" "$HERE/golden"
	echo "qti21: rewrote $HERE/golden"
	ok
elif diff -r "$HERE/golden" "$T/golden" >"$T/golden.diff" 2>&1; then
	ok
else
	bad golden "the package differs from $HERE/golden (tests/export/qti21/run.sh --update rewrites it):
$(head -40 "$T/golden.diff")"
fi

# ---- refusals: exit 1, no output file, no temporary file, old file kept -----

# refused NAME WHAT ARGS...: the export must fail with exit 1 and leave
# $T/refuse/ exactly as it was (holding only old.zip)
refused() {
	name=$1 what=$2
	shift 2
	rm -rf "$T/refuse"
	mkdir -p "$T/refuse"
	echo "an older package" >"$T/refuse/old.zip"
	"$QBANK" export --to qti21 "$@" >"$T/refuse.out" 2>"$T/refuse.err" </dev/null
	rc=$?
	left=$(ls -A "$T/refuse" | tr '\n' ' ')
	if [ "$rc" -ne 1 ]; then
		bad "refuse/$name" "exit status $rc, expected 1: $(cat "$T/refuse.err")"
	elif [ "$left" != "old.zip " ] || [ "$(cat "$T/refuse/old.zip")" != "an older package" ]; then
		bad "refuse/$name" "files left behind or the old package changed: $left"
	elif ! grep -q -- "$what" "$T/refuse.err"; then
		bad "refuse/$name" "the message does not say '$what': $(cat "$T/refuse.err")"
	else
		ok
	fi
}

refused lint-errors "export refused" -o "$T/refuse/new.zip" tests/fixtures/scraped-quiz.xml
refused overwrite "export refused" -o "$T/refuse/old.zip" tests/fixtures/scraped-quiz.xml
for c in img-absolute img-dotdot img-url img-missing; do
	refused "$c-lint" "img-" -o "$T/refuse/new.zip" "$HERE/refuse/$c.xml"
	refused "$c" "img src" --config "$HERE/refuse/lenient.toml" -o "$T/refuse/new.zip" \
		"$HERE/refuse/$c.xml"
done
refused dup-ids "used by an earlier question" --config "$HERE/refuse/lenient.toml" \
	-o "$T/refuse/new.zip" "$HERE/refuse/dup-ids.xml"

# a zip cannot go to standard output
"$QBANK" export --to qti21 -o - "$HERE/all-types.xml" >"$T/stdout.zip" 2>"$T/stdout.err"
rc=$?
if [ "$rc" -eq 2 ] && [ ! -s "$T/stdout.zip" ]; then
	ok
else
	bad stdout "exit status $rc and $(wc -c <"$T/stdout.zip") bytes on standard output; expected 2 and none"
fi

echo "qti21: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
