#!/bin/sh
# Interrupted runs leave nothing behind: each exporter (moodle, qti21,
# markdown, markdown --forms) is started on a generated bank that takes a
# few seconds, over older outputs, and sent SIGINT or SIGTERM at a random
# point (mostly while its temporary files are being written, sometimes
# right at the start). Afterwards the older outputs must be byte-identical,
# no temporary file may remain, the exit status must be the signal's (130,
# 143) and nothing may be printed. A run that finished before its signal
# counts only when its outputs are complete and nothing else is left.
# Also here, because they are about the same outputs: a closed standard
# output ends the run quietly by SIGPIPE (141), even when SIGPIPE is
# ignored, and -o onto a symbolic link replaces the link, not the file it
# points to.
#
# Environment: QBANK (the binary), GEN (tools/bench/gen.c's qbank-gen),
# BUILD (the generated bank goes to $BUILD/signals/, made once per run),
# SIGNALS_RUNS (runs per exporter and signal, default 3), SIGNALS_N (the
# bank's questions, default 20000).
# Prints "signals: N passed, M failed"; exits 1 when M > 0.
set -u
cd "$(dirname "$0")/../.." || exit 2
: "${QBANK:?QBANK must name the qbank binary}"
: "${GEN:?GEN must name qbank-gen}"
: "${BUILD:=build}"
RUNS=${SIGNALS_RUNS:-3}
N=${SIGNALS_N:-20000}
export LC_ALL=C
W="$BUILD/signals"
rm -rf "$W"
mkdir -p "$W" || exit 2
pass=0 fail=0 early=0 interrupted=0
trap 'rm -rf "$W"' EXIT
trap 'exit 2' INT TERM

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL signals/$1: $2" >&2; }

# A random whole number from 0 to $1 - 1.
random() {
	echo $(($(od -An -N2 -tu2 /dev/urandom | tr -d ' ') % $1))
}

# Milliseconds as seconds for sleep(1).
secs() {
	printf '%d.%03d' $(($1 / 1000)) $(($1 % 1000))
}

"$GEN" -n "$N" -o "$W/bank.xml" || { echo "signals: cannot generate the bank" >&2; exit 2; }

# A shell starts background jobs with SIGINT and SIGQUIT ignored, and qbank
# keeps an inherited SIG_IGN (as coreutils' sort and make do): the runs
# are started with the default disposition given back.
if env --default-signal=INT true 2>/dev/null; then
	START="env --default-signal=INT,QUIT"
else
	START=""
	echo "signals: env has no --default-signal; SIGINT runs are skipped"
fi

# outputs TARGET: the output files an export writes (one, or the forms'
# three) as names in the output folder, and the arguments that write them.
outputs() {
	case $1 in
	moodle) NAMES="out.xml" ARGS="--to moodle -o $D/out.xml" ;;
	qti21) NAMES="out.zip" ARGS="--to qti21 -o $D/out.zip" ;;
	markdown) NAMES="out.md" ARGS="--to markdown -o $D/out.md" ;;
	forms) NAMES="f-A.md f-B.md f-key.md" ARGS="--to markdown --forms 2 --seed 7 -o $D/f.md" ;;
	esac
}

# reference TARGET: the complete outputs, made once (only when a run
# finished before its signal and its outputs must be checked).
reference() {
	D="$W/ref-$1"
	[ -d "$D" ] && return 0
	mkdir -p "$D"
	outputs "$1"
	# shellcheck disable=SC2086
	"$QBANK" export --no-config -q $ARGS "$W/bank.xml" >/dev/null 2>&1
}

# interrupt TARGET SIGNAL RUN: one run, checked.
interrupt() {
	x=$1 sig=$2 run=$3 name=$1-$2-$3
	case $sig in INT) want=130 ;; TERM) want=143 ;; esac
	D="$W/$name"
	mkdir -p "$D"
	outputs "$x"
	for f in $NAMES; do
		printf 'older %s output of %s\n' "$f" "$name" >"$D/$f"
		head -c 4096 /dev/urandom >>"$D/$f"
		cp "$D/$f" "$W/$name.$f.orig"
	done
	# the first run of each pair comes early (maybe before the handlers are
	# installed); the others once a temporary file exists, up to 1 s in
	if [ $run -eq 1 ]; then
		delay=$((10 + $(random 60)))
	else
		delay=$(random 1000)
	fi
	# shellcheck disable=SC2086
	$START "$QBANK" export --no-config -q $ARGS "$W/bank.xml" >"$W/$name.out" 2>"$W/$name.err" &
	pid=$!
	if [ $run -ne 1 ]; then
		tries=0
		while [ $tries -lt 1000 ] && kill -0 $pid 2>/dev/null; do
			set -- "$D"/.*.tmp-*
			[ -e "$1" ] && break
			sleep 0.01
			tries=$((tries + 1))
		done
	fi
	sleep "$(secs "$delay")"
	kill -s "$sig" $pid 2>/dev/null
	wait $pid 2>/dev/null
	rc=$?
	what="$x, SIG$sig ${delay} ms $([ $run -eq 1 ] && echo 'after the start' || echo 'into the writing')"
	left=$(cd "$D" && ls -A | grep -vxF "$(printf '%s\n' $NAMES)")
	if [ -s "$W/$name.err" ]; then
		bad "$name" "$what: printed: $(head -c 300 "$W/$name.err")"
		return
	fi
	if [ -n "$left" ]; then
		bad "$name" "$what: left behind: $(echo $left)"
		return
	fi
	same=1
	for f in $NAMES; do
		cmp -s "$D/$f" "$W/$name.$f.orig" || same=0
	done
	if [ "$rc" -eq "$want" ] && [ $same -eq 1 ]; then
		interrupted=$((interrupted + 1))
		ok
		rm -rf "$D"
		return
	fi
	# finished first, or the signal came after the renames: the outputs
	# must then be complete, every one of them
	if [ "$rc" -ne "$want" ] && [ "$rc" -ne 0 ]; then
		bad "$name" "$what: exit status $rc, expected $want"
		return
	fi
	reference "$x"
	for f in $NAMES; do
		if ! cmp -s "$D/$f" "$W/ref-$x/$f"; then
			bad "$name" "$what: exit status $rc and $f neither the older output nor the complete one"
			return
		fi
	done
	early=$((early + 1))
	ok
	rm -rf "$D"
}

start=$(date +%s)
for x in moodle qti21 markdown forms; do
	for sig in INT TERM; do
		[ "$sig" = INT ] && [ -z "$START" ] && continue
		i=1
		while [ $i -le "$RUNS" ]; do
			interrupt $x $sig $i
			i=$((i + 1))
		done
	done
done
echo "  signals: $interrupted runs interrupted, $early finished before their signal, $(($(date +%s) - start)) s"
# a check that checked nothing would pass on any code
if [ $interrupted -lt $((early * 2)) ]; then
	bad interrupted "only $interrupted of $((interrupted + early)) runs were interrupted: make the bank bigger (SIGNALS_N)"
else
	ok
fi

# ---- a closed standard output --------------------------------------------------

# closed NAME [trap]: qbank writes a Markdown export (about 600 KB, far more
# than a pipe holds) into a pipe that head closes after one line; it must
# end by SIGPIPE (141) and print nothing, also when it was started with
# SIGPIPE ignored.
"$GEN" -n 1000 -o "$W/small.xml" || { echo "signals: cannot generate the bank" >&2; exit 2; }
closed() {
	(
		[ $# -gt 1 ] && trap '' PIPE
		{ "$QBANK" export --no-config -q --to markdown "$W/small.xml" 2>"$W/$1.err"; echo $? >"$W/$1.rc"; } |
			head -n 1 >/dev/null
	)
	rc=$(cat "$W/$1.rc")
	if [ "$rc" -ne 141 ]; then
		bad "$1" "exit status $rc, expected 141 (SIGPIPE)"
	elif [ -s "$W/$1.err" ]; then
		bad "$1" "printed: $(head -c 300 "$W/$1.err")"
	else
		ok
	fi
}
closed closed-stdout
closed closed-stdout-sigpipe-ignored ignore

# ---- -o onto a symbolic link ------------------------------------------------------

# The link is replaced by the output; the file it pointed to is untouched.
mkdir -p "$W/link/elsewhere"
{
	printf '<?xml version="1.0" encoding="UTF-8"?>\n<bank id="link" version="1">\n<title>Link</title>\n'
	printf '<question id="q1" type="single"><stem>Which one?</stem>'
	printf '<option correct="true"><text>Alpha</text><rationale>Correct. Yes.</rationale></option>'
	printf '<option><text>Bravo</text><rationale>Incorrect. No.</rationale></option>'
	printf '<option><text>Charlie</text><rationale>Incorrect. No.</rationale></option>'
	printf '<explanation>Explained.</explanation></question>\n</bank>\n'
} >"$W/link/bank.xml"
for x in moodle qti21 markdown; do
	printf 'the file the link points to\n' >"$W/link/elsewhere/target-$x"
	ln -s elsewhere/target-$x "$W/link/out-$x"
	"$QBANK" export --no-config -q --to $x -o "$W/link/out-$x" "$W/link/bank.xml" >"$W/link/$x.out" 2>&1
	rc=$?
	if [ $rc -ne 0 ]; then
		bad symlink-$x "exit status $rc: $(head -c 300 "$W/link/$x.out")"
	elif [ -L "$W/link/out-$x" ] || [ ! -f "$W/link/out-$x" ]; then
		bad symlink-$x "out-$x is not a file in place of the link"
	elif [ "$(cat "$W/link/elsewhere/target-$x")" != "the file the link points to" ]; then
		bad symlink-$x "the file the link pointed to was changed"
	elif [ -n "$(ls -A "$W/link" | grep -v '^out-\|^bank.xml$\|^elsewhere$\|\.out$')" ]; then
		bad symlink-$x "left behind: $(ls -A "$W/link")"
	else
		ok
	fi
done

echo "signals: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
