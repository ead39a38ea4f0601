#!/bin/sh
# Benchmark of one bank file (make bench runs it): wall time and peak RSS of
#   1. xmllint --stream with the schema (the floor: libxml2 streaming the
#      same file through the same XSD),
#   2. xmllint with the schema on a DOM (what a tree-based tool costs),
#   3. qbank lint,
#   4. qbank export --to moodle, qti21 and markdown,
#   5. qbank diff of the file against itself (both sides read, linted and
#      digested; nothing to read a second time),
#   6. qbank import of the file's own Moodle XML export (made once, before
#      the rounds, and not timed),
# each the best of RUNS runs (in rounds that run every step once, so that
# drift in the machine's speed touches every step alike), printed as a
# Markdown table with the ratio of each time to (1). An exporter that is
# not there yet ("not available yet") shows as n/a. Exports go to OUT and are deleted after measuring.
#
# Usage: tools/bench/bench.sh FILE
# Environment: QBANK (qbank binary), RUSAGE (qbank-rusage binary), RUNS
# (default 3), OUT (folder for outputs, default build/bench), SCHEMA
# (default schema/qbank.xsd), STEPS (space-separated subset of: stream dom
# lint moodle qti21 markdown diff import; default all), DOM_RUNS (runs of the DOM step,
# default RUNS: it needs about 5 times the file size in memory, so on big
# files one run is enough; it is skipped when that exceeds half of the
# available memory).
set -u
cd "$(dirname "$0")/../.." || exit 2
export LC_ALL=C

file=${1:?usage: tools/bench/bench.sh FILE}
: "${QBANK:?QBANK is the qbank binary}" "${RUSAGE:?RUSAGE is the qbank-rusage binary}"
RUNS=${RUNS:-3}
OUT=${OUT:-build/bench}
SCHEMA=${SCHEMA:-schema/qbank.xsd}
STEPS=${STEPS:-stream dom lint moodle qti21 markdown diff import}
mkdir -p "$OUT"
tmp="$OUT/.bench.$$"
mkdir -p "$tmp" || exit 2
trap 'rm -rf "$tmp" "$OUT/bench-moodle.xml"' EXIT INT TERM

# The step table: name, label, output file (or -), command.
step_cmd() {
	case $1 in
	stream)   echo "xmllint --stream --noout --schema $SCHEMA $file" ;;
	dom)      echo "xmllint --noout --schema $SCHEMA $file" ;;
	lint)     echo "$QBANK lint $file" ;;
	moodle)   echo "$QBANK export --to moodle -o $OUT/bench-export.xml $file" ;;
	qti21)    echo "$QBANK export --to qti21 -o $OUT/bench-export.zip $file" ;;
	markdown) echo "$QBANK export --to markdown -o $OUT/bench-export.md $file" ;;
	diff)     echo "$QBANK diff $file $file" ;;
	import)   echo "$QBANK import -o $OUT/bench-import.xml $OUT/bench-moodle.xml" ;;
	esac
}
step_label() {
	case $1 in
	stream)   echo '`xmllint --stream --schema` (floor)' ;;
	dom)      echo '`xmllint --schema` (DOM)' ;;
	lint)     echo '`qbank lint`' ;;
	moodle)   echo '`qbank export --to moodle`' ;;
	qti21)    echo '`qbank export --to qti21`' ;;
	markdown) echo '`qbank export --to markdown`' ;;
	diff)     echo '`qbank diff` (the file against itself)' ;;
	import)   echo '`qbank import` (its Moodle XML export)' ;;
	esac
}
step_output() {
	case $1 in
	moodle)   echo "$OUT/bench-export.xml" ;;
	qti21)    echo "$OUT/bench-export.zip" ;;
	markdown) echo "$OUT/bench-export.md" ;;
	import)   echo "$OUT/bench-import.xml" ;;
	*)        echo - ;;
	esac
}

# Reads the file once so that every step starts with it in the page cache.
cat "$file" > /dev/null
case " $STEPS " in
*" import "*)
	mkdir -p "$OUT"
	"$QBANK" export --to moodle -o "$OUT/bench-moodle.xml" "$file" || exit 2 ;;
esac

bytes=$(wc -c < "$file")
# one <question per line in generated (and most hand-written) banks
questions=$(grep -c '<question[[:space:]>]' "$file")
floor=""
rows=""

# One run of step S: keeps the best time, the highest RSS, the output size
# and a note (n/a, failed) in best_S, rss_S, size_S and note_S.
run_step() {
	s=$1
	cmd=$(step_cmd "$s")
	out=$(step_output "$s")
	# shellcheck disable=SC2086
	"$RUSAGE" -o "$tmp/r" -O "$tmp/stdout" -- $cmd 2> "$tmp/stderr" || exit 2
	read -r t m status < "$tmp/r"
	if [ "$status" -ne 0 ]; then
		if grep -q "not available yet" "$tmp/stderr"; then
			eval "note_$s=\"n/a (not available yet)\""
		else
			eval "note_$s=\"failed (exit $status): \$(head -n 1 \"\$tmp/stderr\")\""
		fi
		if [ "$s" = lint ] && [ "$status" -eq 1 ]; then
			eval "note_$s=\"exit 1 (findings): \$(tail -n 1 \"\$tmp/stdout\")\""
		else
			eval "done_$s=1"   # a failing step is measured once
			return
		fi
	fi
	eval "best=\${best_$s:-}; rss=\${rss_$s:-0}"
	if [ -z "$best" ] || awk "BEGIN { exit !($t < $best) }"; then
		eval "best_$s=$t"
	fi
	[ "$m" -gt "$rss" ] && eval "rss_$s=$m"
	if [ "$out" != - ] && [ -f "$out" ]; then
		eval "size_$s=$(wc -c < "$out")"
		rm -f "$out"
	fi
}

# Rounds, each running every step once: the machine's speed drifts over
# minutes, and interleaving lets every step see the same conditions.
for s in $STEPS; do
	[ -n "$(step_cmd "$s")" ] || { echo "bench.sh: unknown step '$s'" >&2; exit 2; }
	eval "best_$s=; rss_$s=0; size_$s=; note_$s=; done_$s="
done
dom_skip=""
avail=$(sed -n 's/^MemAvailable: *\([0-9]*\) kB/\1/p' /proc/meminfo 2>/dev/null)
if [ -n "$avail" ] && [ $((bytes / 1024 * 5)) -gt $((avail / 2)) ]; then
	dom_skip="needs about $((bytes / 1048576 * 5)) MB, more than half the available memory"
fi
round=0
while [ "$round" -lt "$RUNS" ]; do
	round=$((round + 1))
	for s in $STEPS; do
		eval "d=\${done_$s:-}"
		[ -n "$d" ] && continue
		if [ "$s" = dom ] && { [ -n "$dom_skip" ] || [ "$round" -gt "${DOM_RUNS:-$RUNS}" ]; }; then
			continue
		fi
		run_step "$s"
	done
done

for s in $STEPS; do
	eval "best=\${best_$s:-}; rss=\${rss_$s:-0}; size=\${size_$s:-}; note=\${note_$s:-}"
	if [ "$s" = dom ] && [ -n "$dom_skip" ]; then
		rows="$rows| $(step_label "$s") | skipped | | | | $dom_skip |
"
		continue
	fi
	[ "$s" = stream ] && floor=$best
	case $note in
	n/a*|failed*)
		rows="$rows| $(step_label "$s") | n/a | | | | $note |
"
		continue ;;
	esac
	ratio=$(awk "BEGIN { if (\"$floor\" != \"\" && $floor > 0) printf \"%.2f×\", $best / $floor; else printf \"\" }")
	per=$(awk "BEGIN { if ($questions > 0) printf \"%.1f\", $best * 1e6 / $questions }")
	mb=$(awk "BEGIN { printf \"%.0f\", $rss / 1024 }")
	outsz=""
	if [ -n "$size" ]; then
		outsz=$(awk "BEGIN { printf \"%.0f MB\", ${size} / 1048576 }")
	fi
	[ -n "$note" ] && outsz="$outsz $note"
	rows="$rows| $(step_label "$s") | $best | $ratio | $per | $mb | $outsz |
"
done

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)
dom_note=""
[ "${DOM_RUNS:-$RUNS}" != "$RUNS" ] && dom_note=" (DOM: ${DOM_RUNS})"
printf '\n%s: %s questions, %s MB; best of %s runs%s; %s cores%s; libxml2 %s\n\n' \
	"$file" "$questions" "$(awk "BEGIN { printf \"%.0f\", $bytes / 1048576 }")" "$RUNS" "$dom_note" \
	"$(nproc 2>/dev/null || echo '?')" "${cpu:+ ($cpu)}" \
	"$(xmllint --version 2>&1 | sed -n 's/.*using libxml version \([0-9]*\).*/\1/p')"
echo '| step | wall time (s) | × floor | µs / question | peak RSS (MB) | output |'
echo '|---|---:|---:|---:|---:|---|'
printf '%s' "$rows"
