#!/bin/sh
# The test runner: every case and every suite below tests/, or the ones
# named. tests/README.md describes the layout; in short, a folder is
#   a case   when it holds `args` (qbank's command line) or `script` (a
#            shell script, for what is not one qbank command), with what it
#            expects: `stdout`, `stderr`, `status` (absent: 0), `files/`
#            (what the command leaves in $TMP) and an optional `check`;
#   a suite  when it holds `suite`: a shell script of its own checks (a full
#            disk, an install, PDFs) that ends with "N passed, M failed,
#            K skipped"; its counts are added to the total.
# Every case runs with QBANK_THREADS=2 and a second time with
# QBANK_THREADS=1, in the same scratch folder, and both runs must agree byte
# for byte: stdout, stderr, status and every file left in $TMP
# (QBANK_TEST_NO_SERIAL=1 skips the second run).
#
# Usage: tests/run.sh [--update] [SELECTOR...]
#   --update   rewrite the expected files of the selected cases from their
#              output (suites do not run); review the diff like code
#   SELECTOR   a folder (tests/cli, golden/lint/key-missing) selects the cases
#              and suites below it; any other word selects those whose folder
#              contains it (key-missing, sarif)
# Environment: QBANK (default $BUILD/qbank), BUILD (default build), QTI_CHECK
# (default $BUILD/qti_check), QBANK_TEST_TIMEOUT (seconds per command,
# default 60), QBANK_TEST_JOBS (cases run side by side, default one per
# processor), QBANK_TEST_NO_SERIAL=1.
# Prints one line per failure and skip, a line per suite, and closes with
# "N passed, M failed, K skipped"; exits 1 when M > 0, 2 on a usage error.
set -u
cd "$(dirname "$0")/.." || exit 2
ROOT=$(pwd)
export ROOT LC_ALL=C NO_COLOR=1
# the first run of each case is the threaded one, with the second thread
# wherever qbank can use one (QBANK_THREADS=2), so that every threaded path
# runs whatever this machine's cores measure (core/cores.h)
export QBANK_THREADS=2
BUILD=${BUILD:-build}
QBANK=${QBANK:-$BUILD/qbank}
QTI_CHECK=${QTI_CHECK:-$BUILD/qti_check}
case $QBANK in /*) ;; *) QBANK=$ROOT/$QBANK ;; esac
case $QTI_CHECK in /*) ;; *) QTI_CHECK=$ROOT/$QTI_CHECK ;; esac
export QBANK QTI_CHECK BUILD
limit=${QBANK_TEST_TIMEOUT:-60}
serial=1
[ "${QBANK_TEST_NO_SERIAL:-}" = 1 ] && serial=0

update=0
if [ "${1:-}" = --update ]; then
	update=1
	shift
fi
if [ ! -x "$QBANK" ]; then
	echo "tests: $QBANK is not built (make build, or set QBANK)" >&2
	exit 2
fi

W=$(mktemp -d "${TMPDIR:-/tmp}/qbank-tests.XXXXXX") || exit 2
trap 'chmod -R u+rwx "$W" 2>/dev/null; rm -rf "$W"' EXIT INT TERM

# Every case and suite folder, sorted; the expected trees under files/ are
# not searched (they mirror a scratch folder, not cases).
find tests -name files -prune -o \( -type f -o -type l \) \( -name args -o -name script -o -name suite \) -print |
	sed 's,/[^/]*$,,' | sort -u >"$W/all"

# selected DIR: whether a SELECTOR picks case folder DIR (all when none).
selected() {
	[ $# -gt 1 ] || return 0
	d=$1
	shift
	for s in "$@"; do
		s=${s#./}
		s=${s%/}
		[ -d "tests/$s" ] && [ ! -d "$s" ] && s=tests/$s
		if [ -d "$s" ]; then
			case $d in "$s" | "$s"/*) return 0 ;; esac
		else
			case $d in *"$s"*) return 0 ;; esac
		fi
	done
	return 1
}

passed=0
failed=0
skipped=0
# A case's verdict goes to $verdict (the workers run side by side), its
# report to standard output; a suite's counts go straight to the totals.
verdict=/dev/null
pass() { echo pass >"$verdict"; }
fail() {
	echo fail >"$verdict"
	echo "FAIL $1: $2"
}
skip() {
	echo skip >"$verdict"
	echo "SKIP $1: $2"
}

# has_files DIR: whether DIR holds anything (without a process)
has_files() {
	for f in "$1"/* "$1"/.[!.]* "$1"/..?*; do
		[ -e "$f" ] || [ -L "$f" ] && return 0
	done
	return 1
}

# run_cmd DIR TMP PREFIX: the case's command, from the repository root, with
# a time limit; leaves PREFIX.out, PREFIX.err and PREFIX.status.
run_cmd() {
	(
		CASE=$1 TMP=$2
		export CASE TMP
		if [ -f "$1/args" ]; then
			set -f
			# the words of args, quoted as in the shell, $CASE and $TMP
			# expanded; lines that start with # are comments
			words=""
			while IFS= read -r line || [ -n "$line" ]; do
				case $line in [[:space:]]*\#* | \#*) ;; *) words="$words $line" ;; esac
			done <"$1/args"
			eval "set -- $words"
			exec timeout -k 5 "$limit" "$QBANK" "$@"
		else
			exec timeout -k 5 "$limit" sh "$1/script"
		fi
	) >"$3.out" 2>"$3.err" </dev/null
	echo $? >"$3.status"
}

# differ WHAT EXPECTED ACTUAL [LABEL LABEL]: the first lines of a unified
# diff, indented
differ() {
	printf '%s differs:\n' "$1"
	diff -u --label "${4:-$2}" --label "${5:-actual}" "$2" "$3" | head -40 | sed 's/^/    /'
}

# same EXPECTED ACTUAL: whether ACTUAL (a stream of the run) matches
# EXPECTED once the scratch folder's path in it reads $TMP; leaves the
# normalised copy in ACTUAL.n, for --update and the diff.
same() {
	if grep -qF "$tmp" "$2"; then
		sed "s|$tmp|\$TMP|g" "$2" >"$2.n"
	else
		ln -f "$2" "$2.n"
	fi
	cmp -s "$1" "$2.n"
}

# run_case DIR N: runs case DIR in $w/N, and says pass, fail or skip. Most
# steps are shell built-ins: a case costs little beyond its two runs.
run_case() {
	dir=$1
	c=$w/$2
	tmp=$c/tmp
	mkdir -p "$tmp" || return
	if [ -f "$dir/args" ] && [ -f "$dir/script" ]; then
		fail "$dir" "holds both args and script"
		return
	fi
	why=""
	# the single-threaded run first, in the scratch folder the other run
	# will have (paths in messages are the same); what it wrote is kept
	# aside for comparing
	if [ $serial -eq 1 ]; then
		QBANK_THREADS=1 run_cmd "$dir" "$tmp" "$c/serial"
		if has_files "$tmp"; then
			mv "$tmp" "$c/tmp.serial" && mkdir "$tmp"
		fi
	fi
	run_cmd "$dir" "$tmp" "$c/1"
	read -r status <"$c/1.status"
	if [ $serial -eq 1 ]; then
		read -r s1 <"$c/serial.status"
		if [ "$s1" != "$status" ]; then
			why="with QBANK_THREADS=1 the exit status is $s1, not $status"
		elif ! cmp -s "$c/serial.out" "$c/1.out"; then
			why=$(differ "with QBANK_THREADS=1 the standard output" "$c/1.out" "$c/serial.out" \
				threaded QBANK_THREADS=1)
		elif ! cmp -s "$c/serial.err" "$c/1.err"; then
			why=$(differ "with QBANK_THREADS=1 the standard error" "$c/1.err" "$c/serial.err" \
				threaded QBANK_THREADS=1)
		elif { has_files "$tmp" || [ -d "$c/tmp.serial" ]; } &&
			! d=$(mkdir -p "$c/tmp.serial" && diff -r "$tmp" "$c/tmp.serial" 2>&1); then
			why="with QBANK_THREADS=1 the files in \$TMP differ:
$(printf '%s\n' "$d" | head -40 | sed 's/^/    /')"
		fi
	fi

	# a script that cannot run here says "SKIP: reason" and exits 0
	if [ -f "$dir/script" ] && [ "$status" = 0 ]; then
		first=""
		read -r first <"$c/1.out"
		case $first in "SKIP: "*)
			skip "$dir" "${first#SKIP: }"
			return
			;;
		esac
	fi
	if [ "$status" = 124 ]; then
		fail "$dir" "timed out after $limit s (QBANK_TEST_TIMEOUT)"
		return
	fi

	if [ $update -eq 1 ] && [ -z "$why" ]; then
		update_case "$dir"
	fi
	want=0
	[ -f "$dir/status" ] && read -r want <"$dir/status"
	if [ -n "$why" ]; then
		:
	elif [ "$status" != "$want" ]; then
		why="exit status $status, expected $want"
	elif [ -f "$dir/stdout" ] && ! cmp -s "$dir/stdout" "$c/1.out" && ! same "$dir/stdout" "$c/1.out"; then
		why=$(differ "standard output" "$dir/stdout" "$c/1.out.n")
	elif [ -f "$dir/stderr" ] && ! cmp -s "$dir/stderr" "$c/1.err" && ! same "$dir/stderr" "$c/1.err"; then
		why=$(differ "standard error" "$dir/stderr" "$c/1.err.n")
	elif [ -f "$dir/check" ]; then
		if ! msg=$(CASE=$dir TMP=$tmp OUT=$c/1.out ERR=$c/1.err STATUS=$status \
			sh "$dir/check" 2>&1 </dev/null); then
			why="check failed:
$(printf '%s\n' "$msg" | head -40 | sed 's/^/    /')"
		else
			case $msg in "SKIP: "*)
				skip "$dir" "$(printf '%s\n' "${msg#SKIP: }" | head -n 1)"
				return
				;;
			esac
		fi
	fi
	if [ -z "$why" ] && [ $update -eq 1 ] && [ -d "$dir/files" ]; then
		update_files "$dir"
	fi
	if [ -z "$why" ] && [ -d "$dir/files" ] && ! d=$(diff -r "$dir/files" "$tmp" 2>&1); then
		why="the files in \$TMP differ from files/:
$(printf '%s\n' "$d" | head -40 | sed 's/^/    /')"
	fi

	if [ -z "$why" ]; then
		pass
	else
		fail "$dir" "$why"
		if [ -s "$c/1.err" ] && [ ! -f "$dir/stderr" ]; then
			echo "  stderr:"
			sed 's/^/    /' "$c/1.err" | head -10
		fi
	fi
}

# update_case DIR: rewrites the expected streams DIR has; a case that has
# none yet gets stdout, stderr when not empty, status when not 0.
update_case() {
	same /dev/null "$c/1.out"
	same /dev/null "$c/1.err"
	new=0
	[ -f "$1/stdout" ] || [ -f "$1/stderr" ] || [ -f "$1/status" ] || [ -d "$1/files" ] || new=1
	if [ -f "$1/stdout" ] || [ $new -eq 1 ]; then
		cmp -s "$c/1.out.n" "$1/stdout" || { cp "$c/1.out.n" "$1/stdout" && echo "updated $1/stdout"; }
	fi
	if [ -f "$1/stderr" ] || { [ $new -eq 1 ] && [ -s "$c/1.err.n" ]; }; then
		cmp -s "$c/1.err.n" "$1/stderr" || { cp "$c/1.err.n" "$1/stderr" && echo "updated $1/stderr"; }
	fi
	if [ -f "$1/status" ] || [ "$status" != 0 ]; then
		[ "$(cat "$1/status" 2>/dev/null)" = "$status" ] ||
			{ echo "$status" >"$1/status" && echo "updated $1/status"; }
	fi
	# a new qbank case that wrote files keeps them as files/
	if [ $new -eq 1 ] && [ -f "$1/args" ] && has_files "$tmp"; then
		mkdir "$1/files"
	fi
}

# update_files DIR: files/ becomes what the command (and check) left in $TMP
update_files() {
	if ! diff -r "$1/files" "$tmp" >/dev/null 2>&1; then
		rm -rf "$1/files"
		cp -R "$tmp" "$1/files"
		echo "updated $1/files/"
	fi
}

# run_suite DIR: the suite's own output, its counts added to the total
run_suite() {
	echo "== $1"
	start=$(date +%s)
	(
		sh "$1/suite" 2>&1 </dev/null
		echo $? >"$W/suite.status"
	) | tee "$W/suite.log" | grep --line-buffered -Ev '^[0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$'
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$' "$W/suite.log" | tail -n 1)
	rc=$(cat "$W/suite.status")
	if [ -z "$line" ]; then
		failed=$((failed + 1))
		echo "FAIL $1: exit status $rc and no closing 'N passed, M failed' line"
		return
	fi
	p=$(echo "$line" | sed 's/ passed.*//')
	f=$(echo "$line" | sed 's/.* passed, \([0-9]*\) failed.*/\1/')
	k=0
	case $line in *skipped) k=$(echo "$line" | sed 's/.* failed, \([0-9]*\) skipped/\1/') ;; esac
	passed=$((passed + p))
	failed=$((failed + f))
	skipped=$((skipped + k))
	echo "$1: $line ($(($(date +%s) - start)) s)"
	if [ "$rc" != 0 ] && [ "$f" = 0 ]; then
		failed=$((failed + 1))
		echo "FAIL $1: exit status $rc"
	fi
}

start=$(date +%s)
# The cases, split over QBANK_TEST_JOBS workers (default: one per
# processor); each case's report and verdict go to files of their own,
# printed in order once all have run.
while read -r dir; do
	selected "$dir" "$@" && [ ! -f "$dir/suite" ] && echo "$dir"
done <"$W/all" >"$W/cases"
ncases=$(wc -l <"$W/cases")
jobs=${QBANK_TEST_JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)}
[ "$jobs" -ge 1 ] 2>/dev/null || jobs=1
mkdir "$W/r"
k=0
while [ $k -lt "$jobs" ]; do
	(
		w=$W/job$k
		n=0
		while read -r dir; do
			n=$((n + 1))
			[ $(((n - 1) % jobs)) -eq $k ] || continue
			verdict=$W/r/$n.v
			run_case "$dir" $n >"$W/r/$n" 2>&1
		done <"$W/cases"
	) &
	k=$((k + 1))
done
wait
n=1
while [ $n -le "$ncases" ]; do
	cat "$W/r/$n"
	v=fail
	[ -f "$W/r/$n.v" ] && read -r v <"$W/r/$n.v"
	case $v in
	pass) passed=$((passed + 1)) ;;
	skip) skipped=$((skipped + 1)) ;;
	*) failed=$((failed + 1)) ;;
	esac
	n=$((n + 1))
done
if [ "$ncases" -gt 0 ]; then
	if [ $serial -eq 1 ]; then
		echo "cases: $ncases run, each again with QBANK_THREADS=1 ($(($(date +%s) - start)) s)"
	else
		echo "cases: $ncases run (QBANK_TEST_NO_SERIAL=1: no second run) ($(($(date +%s) - start)) s)"
	fi
fi

if [ $update -eq 0 ]; then
	while read -r dir; do
		selected "$dir" "$@" || continue
		[ -f "$dir/suite" ] && run_suite "$dir"
	done <"$W/all"
fi

if [ "$passed" -eq 0 ] && [ "$failed" -eq 0 ] && [ "$skipped" -eq 0 ]; then
	echo "tests: nothing matches $*" >&2
	exit 2
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
