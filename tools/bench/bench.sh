#!/bin/sh
# Benchmark of one or more bank files (make bench runs it on one file of
# each shape): wall time and peak RSS of
#   1. xmllint --stream with the schema (the floor: libxml2 streaming the
#      same file through the same XSD),
#   2. xmllint with the schema on a DOM (what a tree-based tool costs),
#   3. qbank lint,
#   4. qbank export to every target that writes a file of its own,
#   5. qbank diff of the file against itself (both sides read, linted and
#      digested; its goal is twice the floor of reading both sides: 4x),
#   6. qbank import of the Moodle XML export of the file, against the floor
#      of that file (xmllint --stream, no schema: Moodle XML has none),
# each the best of RUNS runs, in rounds that run every step of every file
# once, so that drift in the machine's speed touches every step alike. It
# prints a Markdown table per file with the ratio of each time to its
# floor and its goal (lint within 1.3x of the floor, each
# export and import within 2x, diff within 4x, every qbank step within
# 64 MB of peak RSS at any size). A target that qbank does not have shows as
# n/a. Outputs go to OUT and are deleted after measuring.
#
# Usage: tools/bench/bench.sh FILE...
# Environment: QBANK (qbank binary), RUSAGE (qbank-rusage binary), CORES
# (qbank-cores binary, optional: the cores' round trip in the heading), RUNS
# (default 3), OUT (folder for outputs, default build/bench), SCHEMA
# (default schema/qbank.xsd), STEPS (space-separated subset of: stream dom
# lint moodle qti21 qti30 canvas gift html markdown diff mstream import;
# default all), DOM_RUNS (runs of the DOM step, default RUNS: it needs about
# 5 times the file size in memory, so on big files one run is enough; it is
# skipped when that exceeds half of the available memory).
set -u
cd "$(dirname "$0")/../.." || exit 2
export LC_ALL=C

[ $# -ge 1 ] || { echo "usage: tools/bench/bench.sh FILE..." >&2; exit 2; }
: "${QBANK:?QBANK is the qbank binary}" "${RUSAGE:?RUSAGE is the qbank-rusage binary}"
RUNS=${RUNS:-3}
OUT=${OUT:-build/bench}
SCHEMA=${SCHEMA:-schema/qbank.xsd}
STEPS=${STEPS:-stream dom lint moodle qti21 qti30 canvas gift html markdown diff mstream import}
mkdir -p "$OUT"
tmp="$OUT/.bench.$$"
mkdir -p "$tmp" || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM

# The step table: label, output file (or -), command; $f is the bank file,
# $m its Moodle XML export (made once, before the rounds).
step_cmd() {
	case $1 in
	stream)   echo "xmllint --stream --noout --schema $SCHEMA $f" ;;
	dom)      echo "xmllint --noout --schema $SCHEMA $f" ;;
	lint)     echo "$QBANK lint $f" ;;
	moodle|qti21|qti30|canvas|gift|html|markdown)
		  echo "$QBANK export --to $1 -o $(step_output "$1") $f" ;;
	diff)     echo "$QBANK diff $f $f" ;;
	mstream)  echo "xmllint --stream --noout $m" ;;
	import)   echo "$QBANK import -o $(step_output import) $m" ;;
	esac
}
step_label() {
	case $1 in
	stream)   echo '`xmllint --stream --schema` (floor)' ;;
	dom)      echo '`xmllint --schema` (DOM)' ;;
	lint)     echo '`qbank lint`' ;;
	diff)     echo '`qbank diff` (the file against itself; goal 4×: twice the floor of reading both)' ;;
	mstream)  echo '`xmllint --stream` of its Moodle XML (import floor)' ;;
	import)   echo '`qbank import` of its Moodle XML' ;;
	*)        echo "\`qbank export --to $1\`" ;;
	esac
}
# The goal of step S as a ratio to its floor; empty for the floors.
step_goal() {
	case $1 in
	lint)     echo 1.3 ;;
	moodle|qti21|qti30|canvas|gift|html|markdown|import) echo 2 ;;
	diff)     echo 4 ;;
	esac
}
GOAL_MB=64
step_output() {
	case $1 in
	moodle)   echo "$OUT/bench-export.xml" ;;
	qti21|qti30|canvas) echo "$OUT/bench-export-$1.zip" ;;
	gift)     echo "$OUT/bench-export.gift.txt" ;;
	html)     echo "$OUT/bench-export.html" ;;
	markdown) echo "$OUT/bench-export.md" ;;
	import)   echo "$OUT/bench-import.xml" ;;
	*)        echo - ;;
	esac
}

avail=$(sed -n 's/^MemAvailable: *\([0-9]*\) kB/\1/p' /proc/meminfo 2>/dev/null)
nfiles=0
for f in "$@"; do
	nfiles=$((nfiles + 1))
	i=$nfiles
	# Read once so that every step starts with the file in the page cache.
	cat "$f" > /dev/null || exit 2
	eval "file_$i=\$f"
	eval "bytes_$i=$(wc -c < "$f")"
	# one <question per line in generated (and most hand-written) banks
	eval "questions_$i=$(grep -c '<question[[:space:]>]' "$f")"
	m="$tmp/moodle-$i.xml"
	eval "moodle_$i=\$m"
	case " $STEPS " in
	*" import "*|*" mstream "*) "$QBANK" export --to moodle -o "$m" "$f" || exit 2 ;;
	esac
	eval "dom_skip_$i="
	if [ -n "$avail" ] && [ $(( $(wc -c < "$f") / 1024 * 5 )) -gt $((avail / 2)) ]; then
		eval "dom_skip_$i=\"needs about $(( $(wc -c < "$f") / 1048576 * 5 )) MB, more than half the available memory\""
	fi
	for s in $STEPS; do
		[ -n "$(f=x m=x step_cmd "$s")" ] || { echo "bench.sh: unknown step '$s'" >&2; exit 2; }
		eval "best_${i}_$s=; rss_${i}_$s=0; size_${i}_$s=; note_${i}_$s=; done_${i}_$s="
	done
done

# One run of step S of file I: keeps the best time, the highest RSS, the
# output size and a note (n/a, failed) in best_I_S, rss_I_S, size_I_S and
# note_I_S.
run_step() {
	i=$1 s=$2 k=$1_$2
	eval "f=\$file_$i m=\$moodle_$i"
	cmd=$(step_cmd "$s")
	out=$(step_output "$s")
	# shellcheck disable=SC2086
	"$RUSAGE" -o "$tmp/r" -O "$tmp/stdout" -- $cmd 2> "$tmp/stderr" || exit 2
	read -r t rss_kb status < "$tmp/r"
	if [ "$status" -ne 0 ]; then
		if grep -q "not available yet\|unknown target" "$tmp/stderr"; then
			eval "note_$k=\"n/a (no such target yet)\""
		else
			eval "note_$k=\"failed (exit $status): \$(head -n 1 \"\$tmp/stderr\")\""
		fi
		if { [ "$s" = lint ] || [ "$s" = import ]; } && [ "$status" -eq 1 ]; then
			eval "note_$k=\"exit 1 (findings): \$(tail -n 1 \"\$tmp/stdout\")\""
		else
			eval "done_$k=1"   # a failing step is measured once
			return
		fi
	fi
	eval "best=\${best_$k:-}; rss=\${rss_$k:-0}"
	if [ -z "$best" ] || awk "BEGIN { exit !($t < $best) }"; then
		eval "best_$k=$t"
	fi
	[ "$rss_kb" -gt "$rss" ] && eval "rss_$k=$rss_kb"
	if [ "$out" != - ] && [ -f "$out" ]; then
		eval "size_$k=$(wc -c < "$out")"
		rm -f "$out"
	fi
}

# Rounds, each running every step of every file once: the machine's speed
# drifts over minutes, and interleaving lets every step see the same
# conditions.
round=0
while [ "$round" -lt "$RUNS" ]; do
	round=$((round + 1))
	i=0
	while [ "$i" -lt "$nfiles" ]; do
		i=$((i + 1))
		for s in $STEPS; do
			eval "d=\${done_${i}_$s:-} skip=\${dom_skip_$i}"
			[ -n "$d" ] && continue
			if [ "$s" = dom ] && { [ -n "$skip" ] || [ "$round" -gt "${DOM_RUNS:-$RUNS}" ]; }; then
				continue
			fi
			run_step "$i" "$s"
		done
	done
done

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)
# the round trip lint measures at its start (median of 5), which decides
# whether it reads on a thread of its own (tools/lib/core/cores.h)
cores_note=""
if [ -n "${CORES:-}" ]; then
	trip=$(for k in 1 2 3 4 5; do "$CORES"; done | sort -n | sed -n 3p)
	case $trip in
	"0 "*) cores_note="; cores' round trip not measurable (lint on one thread)" ;;
	*near) cores_note="; cores' round trip ${trip% *} ns (lint on two threads)" ;;
	*far) cores_note="; cores' round trip ${trip% *} ns (lint on one thread)" ;;
	esac
fi
dom_note=""
[ "${DOM_RUNS:-$RUNS}" != "$RUNS" ] && dom_note=" (DOM: ${DOM_RUNS})"
i=0
while [ "$i" -lt "$nfiles" ]; do
	i=$((i + 1))
	eval "f=\$file_$i bytes=\$bytes_$i questions=\$questions_$i skip=\$dom_skip_$i"
	floor="" rows=""
	for s in $STEPS; do
		k=${i}_$s
		eval "best=\${best_$k:-}; rss=\${rss_$k:-0}; size=\${size_$k:-}; note=\${note_$k:-}"
		if [ "$s" = dom ] && [ -n "$skip" ]; then
			rows="$rows| $(step_label "$s") | skipped | | | | | $skip |
"
			continue
		fi
		case $s in stream|mstream) floor=$best ;; esac
		case $note in
		n/a*|failed*)
			rows="$rows| $(step_label "$s") | n/a | | | | | $note |
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
		goal=$(step_goal "$s")
		verdict=""
		if [ -n "$goal" ] && [ -n "$floor" ]; then
			verdict=$(awk "BEGIN { t = ($best <= $goal * $floor); m = ($mb <= $GOAL_MB);
				printf \"≤ %s×, ≤ %d MB: %s\", \"$goal\", $GOAL_MB,
				t && m ? \"met\" : !t && !m ? \"missed (time, memory)\" : !t ? \"missed (time)\" : \"missed (memory)\" }")
		fi
		rows="$rows| $(step_label "$s") | $best | $ratio | $per | $mb | $verdict | $outsz |
"
	done
	printf '\n%s: %s questions, %s MB; best of %s interleaved rounds%s; %s cores%s%s; libxml2 %s\n\n' \
		"$f" "$questions" "$(awk "BEGIN { printf \"%.0f\", $bytes / 1048576 }")" "$RUNS" "$dom_note" \
		"$(nproc 2>/dev/null || echo '?')" "${cpu:+ ($cpu)}" "$cores_note" \
		"$(xmllint --version 2>&1 | sed -n 's/.*using libxml version \([0-9]*\).*/\1/p')"
	echo '| step | wall time (s) | × floor | µs / question | peak RSS (MB) | goal | output |'
	echo '|---|---:|---:|---:|---:|---|---|'
	printf '%s' "$rows"
done
