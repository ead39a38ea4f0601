#!/bin/sh
# Hostile input: every case must end with a finding naming file and line
# (exit 1) or a one-line I/O error (exit 2); never a crash, a hang, a
# sanitizer report, a secret in the output, or a partial or stray file.
# Static cases are in tests/hostile/cases/; big ones are generated into a
# temporary folder at run time and removed afterwards.
# Environment: QBANK (the binary, or a wrapper such as valgrind's),
# HOSTILE_QUICK=1 to skip the big generated inputs (valgrind runs),
# HOSTILE_NO_LIMITS=1 not to judge time and memory (valgrind runs; they
# are still printed).
# Prints "hostile: N passed, M failed, K skipped"; exits 1 when M > 0.
set -u
cd "$(dirname "$0")/../.." || exit 2
: "${QBANK:?QBANK must name the qbank binary}"
export LC_ALL=C
CASES=tests/hostile/cases
T=$(mktemp -d "${TMPDIR:-/tmp}/qbank-hostile.XXXXXX") || exit 2
MNT=""
cleanup() {
	[ -n "$MNT" ] && umount "$MNT" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT INT TERM
pass=0 fail=0 skip=0

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL hostile/$1: $2" >&2; }
skipped() { skip=$((skip + 1)); echo "SKIP hostile/$1: $2"; }

TIME=""
[ -x /usr/bin/time ] && /usr/bin/time -f %M true 2>/dev/null && TIME=/usr/bin/time

# run NAME TIMEOUT ARGS...: runs qbank with a time limit; sets $rc, leaves
# $T/NAME.out and $T/NAME.err, $secs (wall time) and $rss (peak KB or "").
run() {
	name=$1 limit=$2
	shift 2
	start=$(date +%s)
	if [ -n "$TIME" ]; then
		timeout "$limit" $TIME -o "$T/$name.rss" -f %M "$QBANK" "$@" \
			>"$T/$name.out" 2>"$T/$name.err" </dev/null
		rc=$?
		rss=$(tail -1 "$T/$name.rss" 2>/dev/null | grep -E '^[0-9]+$' || true)
	else
		timeout "$limit" "$QBANK" "$@" >"$T/$name.out" 2>"$T/$name.err" </dev/null
		rc=$?
		rss=""
	fi
	secs=$(($(date +%s) - start))
}

# sane NAME: no crash, no hang, no sanitizer or valgrind report. Returns 1
# (and counts a failure) when the run went wrong.
sane() {
	if [ "$rc" -eq 124 ]; then
		bad "$1" "timed out"
		return 1
	fi
	if [ "$rc" -gt 2 ]; then
		bad "$1" "exit status $rc (crash or tool error): $(head -c 600 "$T/$1.err")"
		return 1
	fi
	if grep -q 'Sanitizer\|runtime error:\|Invalid read\|Invalid write\|definitely lost\|uninitialised' \
		"$T/$1.err"; then
		bad "$1" "sanitizer or valgrind report: $(grep -m3 'Sanitizer\|runtime error\|Invalid\|lost\|uninit' "$T/$1.err")"
		return 1
	fi
	return 0
}

# finding NAME FILE LINE RULE: lint FILE must exit 1 with an error of RULE
# at FILE:LINE (LINE may be a regular expression).
finding() {
	run "$1" 120 lint --no-config "$2"
	sane "$1" || return 1
	if [ "$rc" -ne 1 ]; then
		bad "$1" "exit $rc, expected 1: $(head -c 400 "$T/$1.out" "$T/$1.err")"
	elif ! grep -Eq "^$(printf '%s' "$2" | sed 's/[.[\*^$/]/\\&/g'):$3: error: .*\[$4\]\$" "$T/$1.out"; then
		bad "$1" "no '$4' error at $2:$3 in: $(head -c 600 "$T/$1.out")"
	else
		ok
	fi
}

# ioerror NAME ARGS...: exit 2 with exactly one line on standard error,
# nothing on standard output.
ioerror() {
	n=$1
	shift
	run "$n" 30 "$@"
	sane "$n" || return 1
	if [ "$rc" -ne 2 ]; then
		bad "$n" "exit $rc, expected 2"
	elif [ "$(wc -l <"$T/$n.err")" -ne 1 ] || [ -s "$T/$n.out" ]; then
		bad "$n" "expected one line on stderr and nothing on stdout, got: $(head -c 400 "$T/$n.err")"
	else
		ok
	fi
}

# absent NAME TEXT: TEXT appears neither in the output nor in the errors of
# the last run, nor in any file left in DIR ($3, optional).
absent() {
	if grep -rqF -- "$2" "$T/$1.out" "$T/$1.err" ${3:+"$3"}; then
		bad "$1" "'$2' leaked into the output"
	else
		ok
	fi
}

# within NAME SECONDS MB: the last run took at most SECONDS and MB of RSS.
# Under AddressSanitizer (make test SANITIZE=1 exports ASAN_OPTIONS) freed
# memory waits in a quarantine of up to 256 MB before it is reused; the cap
# is about qbank's own memory, so the quarantine is added to it there.
within() {
	cap=$3
	[ -n "${ASAN_OPTIONS:-}" ] && cap=$((cap + 256))
	if [ -n "${HOSTILE_NO_LIMITS:-}" ]; then
		ok
	elif [ "$secs" -gt "$2" ]; then
		bad "$1" "took $secs s, more than $2 s"
	elif [ -n "$rss" ] && [ "$rss" -gt $((cap * 1024)) ]; then
		bad "$1" "peak RSS $((rss / 1024)) MB, more than $cap MB"
	else
		ok
	fi
	echo "  hostile/$1: ${secs} s, ${rss:-?} KB peak RSS"
}

# A lint-clean question, to build banks with.
question() {
	printf '<question id="%s" type="single"><stem>%s</stem>' "$1" "$2"
	printf '<option correct="true"><text>Alpha</text><rationale>Correct. Because.</rationale></option>'
	printf '<option><text>Bravo</text><rationale>Incorrect. Because.</rationale></option>'
	printf '<option><text>Charlie</text><rationale>Incorrect. Because.</rationale></option>'
	printf '<option><text>Delta</text><rationale>Incorrect. Because.</rationale></option>'
	printf '<explanation>Explained.</explanation></question>\n'
}
bank_head() {
	printf '<?xml version="1.0" encoding="UTF-8"?>\n<bank id="%s" version="1">\n<title>Hostile</title>\n' "$1"
}

# ---- XML attacks ------------------------------------------------------------

SECRET="qbank-secret-$$-marker"
printf 'root:x:0:0:%s\n' "$SECRET" >"$T/secret.txt"

finding xxe-passwd $CASES/xxe-passwd.xml 2 xml-doctype
absent xxe-passwd "root:x:0"
finding xxe-parameter $CASES/xxe-parameter.xml 2 xml-doctype
finding doctype-plain $CASES/doctype-plain.xml 2 xml-doctype
finding dtd-external-url $CASES/dtd-external-url.xml 2 xml-doctype

# the same attack against a file of our own, in every output format and export
sed "s|file:///etc/passwd|file://$T/secret.txt|" $CASES/xxe-passwd.xml >"$T/xxe-own.xml"
finding xxe-own "$T/xxe-own.xml" 2 xml-doctype
absent xxe-own "$SECRET"
for f in json sarif github junit; do
	run xxe-own-$f 30 lint --no-config --format $f "$T/xxe-own.xml"
	sane xxe-own-$f && absent xxe-own-$f "$SECRET"
done
mkdir -p "$T/exp"
for x in moodle markdown qti21; do
	run xxe-export-$x 30 export --no-config --to $x -o "$T/exp/out-$x" "$T/xxe-own.xml"
	if sane xxe-export-$x; then
		if [ "$rc" -eq 0 ]; then
			bad xxe-export-$x "exported a bank with a DOCTYPE"
		else
			absent xxe-export-$x "$SECRET" "$T/exp"
		fi
	fi
done
if [ -n "$(ls -A "$T/exp")" ]; then
	bad xxe-export-files "files left after refused exports: $(ls -A "$T/exp")"
else
	ok
fi

finding billion-laughs $CASES/billion-laughs.xml 2 xml-doctype
within billion-laughs 5 64

# quadratic blow-up: a 64 KB entity referenced 20,000 times (1.3 GB expanded)
{
	printf '<?xml version="1.0"?>\n<!DOCTYPE bank [<!ENTITY a "'
	head -c 65536 /dev/zero | tr '\0' a
	printf '">]>\n<bank id="quad" version="1"><title>t</title><question id="q" type="essay"><stem>'
	i=0
	while [ $i -lt 200 ]; do
		printf '&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;'
		i=$((i + 1))
	done
	printf '</stem></question></bank>\n'
} >"$T/quadratic.xml"
finding quadratic "$T/quadratic.xml" 2 xml-doctype
within quadratic 5 64

# XInclude is not processed and a schema location is never fetched
finding xinclude $CASES/xinclude.xml 7 xml-schema
absent xinclude "root:x:0"

# no network: neither the DTD URL nor the schema location is asked for
if command -v strace >/dev/null 2>&1 && strace -f -o /dev/null true 2>/dev/null; then
	for c in dtd-external-url xinclude; do
		strace -f -e trace=connect,socket -o "$T/$c.strace" "$QBANK" lint --no-config \
			$CASES/$c.xml >/dev/null 2>&1
		if grep -q 'AF_INET\|connect(' "$T/$c.strace"; then
			bad no-network-$c "a network call was made: $(grep -m1 'AF_INET\|connect(' "$T/$c.strace")"
		else
			ok
		fi
	done
else
	skipped no-network "strace is not available or not permitted"
fi

# ---- malformed input --------------------------------------------------------

: >"$T/empty.xml"
finding empty "$T/empty.xml" 1 xml-syntax
finding truncated $CASES/truncated.xml 7 xml-syntax
finding random-bytes $CASES/random-bytes.xml '[0-9]+' 'xml-[a-z]+'
printf '<?xml version="1.0"?>\n<bank id="b" version="1">\n<title>x\0y</title></bank>\n' >"$T/nul.xml"
finding nul-bytes "$T/nul.xml" 3 xml-syntax
printf '<?xml version="1.0" encoding="UTF-8"?>\n<bank id="b" version="1">\n<title>caf\351 \377</title></bank>\n' \
	>"$T/bad-utf8.xml"
finding invalid-utf8 "$T/bad-utf8.xml" 3 xml-syntax
{ bank_head utf16; question u1 "Is this UTF-16?"; printf '</bank>\n'; } >"$T/utf8.xml"
if iconv -f UTF-8 -t UTF-16 "$T/utf8.xml" >"$T/utf16.xml" 2>/dev/null; then
	finding utf16-bom "$T/utf16.xml" 1 xml-encoding
	iconv -f UTF-8 -t UTF-16LE "$T/utf8.xml" >"$T/utf16le.xml"
	finding utf16-no-bom "$T/utf16le.xml" 1 xml-encoding
else
	skipped utf16 "iconv cannot write UTF-16"
fi
finding latin1-declared $CASES/latin1-declared.xml 1 xml-encoding

if [ -z "${HOSTILE_QUICK:-}" ]; then
	# 100,000 levels of nesting
	{
		printf '<?xml version="1.0"?>\n<bank id="deep" version="1"><title>t</title>\n'
		i=0
		while [ $i -lt 1000 ]; do
			printf '<category name="c"><category name="c"><category name="c"><category name="c"><category name="c"><category name="c"><category name="c"><category name="c"><category name="c"><category name="c">'
			printf '<category name="c"><category name="c"><category name="c"><category name="c"><category name="c"><category name="c"><category name="c"><category name="c"><category name="c"><category name="c">'
			printf '<category name="c"><category name="c"><category name="c"><category name="c"><category name="c"><category name="c"><category name="c"><category name="c"><category name="c"><category name="c">'
			printf '<category name="c"><category name="c"><category name="c"><category name="c"><category name="c"><category name="c"><category name="c"><category name="c"><category name="c"><category name="c">'
			printf '<category name="c"><category name="c"><category name="c"><category name="c"><category name="c"><category name="c"><category name="c"><category name="c"><category name="c"><category name="c">'
			printf '<category name="c"><category name="c"><category name="c"><category name="c"><category name="c"><category name="c"><category name="c"><category name="c"><category name="c"><category name="c">'
			printf '<category name="c"><category name="c"><category name="c"><category name="c"><category name="c"><category name="c"><category name="c"><category name="c"><category name="c"><category name="c">'
			printf '<category name="c"><category name="c"><category name="c"><category name="c"><category name="c"><category name="c"><category name="c"><category name="c"><category name="c"><category name="c">'
			printf '<category name="c"><category name="c"><category name="c"><category name="c"><category name="c"><category name="c"><category name="c"><category name="c"><category name="c"><category name="c">'
			printf '<category name="c"><category name="c"><category name="c"><category name="c"><category name="c"><category name="c"><category name="c"><category name="c"><category name="c"><category name="c">\n'
			i=$((i + 1))
		done
		printf '</bank>\n'
	} >"$T/deep.xml"
	finding deep-nesting "$T/deep.xml" 5 xml-syntax
	within deep-nesting 10 256

	# a 50 MB text node
	{
		bank_head bigtext
		printf '<question id="big" type="essay">\n<stem>'
		head -c 52428800 /dev/zero | tr '\0' x
		printf '</stem></question></bank>\n'
	} >"$T/bigtext.xml"
	finding text-50mb "$T/bigtext.xml" 5 xml-syntax
	within text-50mb 30 512

	# a 1 MB attribute: as a question id, and as an img alt text
	{
		bank_head bigattr
		printf '<question id="'
		head -c 1048576 /dev/zero | tr '\0' q
		printf '" type="single"><stem>Long id?</stem>'
		printf '<option correct="true"><text>Alpha</text></option><option><text>Bravo</text></option></question>\n'
		printf '<question id="alt" type="single"><stem>Image <img src="img/a.png" alt="'
		head -c 1048576 /dev/zero | tr '\0' a
		printf '"/></stem><option correct="true"><text>Alpha</text></option><option><text>Bravo</text></option></question>\n'
		printf '</bank>\n'
	} >"$T/bigattr.xml"
	finding attribute-1mb-id "$T/bigattr.xml" 4 limit-exceeded
	finding attribute-1mb-alt "$T/bigattr.xml" 5 limit-exceeded
	if [ "$(wc -c <"$T/attribute-1mb-id.out")" -gt 20000 ]; then
		bad attribute-1mb-output "the output repeats the 1 MB value ($(wc -c <"$T/attribute-1mb-id.out") bytes)"
	else
		ok
	fi
	within attribute-1mb-id 10 256

	# a line of 10 MB: 25,000 questions on line 4
	{
		bank_head longline
		i=0
		while [ $i -lt 250 ]; do
			j=0
			while [ $j -lt 100 ]; do
				printf '<question id="q%d-%d" type="single"><stem>Question %d %d?</stem><option correct="true"><text>Alpha</text><rationale>Correct. Yes.</rationale></option><option><text>Bravo</text><rationale>Incorrect. No.</rationale></option><option><text>Charlie</text><rationale>Incorrect. No.</rationale></option><option><text>Delta</text><rationale>Incorrect. No.</rationale></option><explanation>Explained %d %d.</explanation></question>' $i $j $i $j $i $j
				j=$((j + 1))
			done
			i=$((i + 1))
		done
		printf '\n<question id="last" type="single"><stem>Broken <b>markup</b>?</stem></question>\n</bank>\n'
	} >"$T/longline.xml"
	finding line-10mb "$T/longline.xml" 5 xml-schema
	if grep -q "25001 questions" "$T/line-10mb.out"; then ok; else
		bad line-10mb "not every question was read: $(tail -1 "$T/line-10mb.out")"
	fi
	within line-10mb 60 256
else
	skipped big-inputs "HOSTILE_QUICK is set"
fi

# ---- limits -------------------------------------------------------------------

{
	bank_head limits
	question "$(printf '%0101d' 0 | tr 0 i)" "An id of 101 characters?"
	printf '<question id="many" type="single"><stem>How many options?</stem>\n'
	i=0
	while [ $i -lt 101 ]; do
		printf '<option%s><text>Option %d</text></option>\n' "$([ $i -eq 0 ] && echo ' correct="true"')" $i
		i=$((i + 1))
	done
	printf '</question>\n<question id="longstem" type="essay">\n<stem>'
	head -c 70000 /dev/zero | tr '\0' s
	printf '</stem></question>\n'
	printf '<category name="%s">\n' "$(head -c 300 /dev/zero | tr '\0' c)"
	question in-long-category "Inside a long category?"
	printf '</category>\n</bank>\n'
} >"$T/limits.xml"
finding limit-id "$T/limits.xml" 4 limit-exceeded
finding limit-options "$T/limits.xml" 5 limit-exceeded
finding limit-text "$T/limits.xml" 109 limit-exceeded
finding limit-category "$T/limits.xml" 110 limit-exceeded
{ bank_head at-limit; question "$(printf '%0100d' 0 | tr 0 i)" "An id of 100 characters?"; printf '</bank>\n'; } \
	>"$T/at-limit.xml"
run limit-id-100 30 lint --no-config "$T/at-limit.xml"
if sane limit-id-100; then
	if [ "$rc" -ne 0 ]; then bad limit-id-100 "an id of 100 characters is refused: $(head -3 "$T/limit-id-100.out")"; else ok; fi
fi

# ---- images -------------------------------------------------------------------

mkdir -p "$T/b/img/dir.png" "$T/b/sub"
printf '%s\n' "$SECRET" >"$T/secret.png"
printf '\211PNG\r\n\032\n' >"$T/b/img/ok.png"
ln -s ../../secret.png "$T/b/img/link.png"
mkfifo "$T/b/img/fifo.png" 2>/dev/null
img_q() {
	printf '<question id="%s" type="single"><stem>Look at %s: <img src="%s" alt="A picture"/></stem>' "$1" "$1" "$2"
	printf '<option correct="true"><text>Alpha</text><rationale>Correct. Because.</rationale></option>'
	printf '<option><text>Bravo</text><rationale>Incorrect. Because.</rationale></option>'
	printf '<option><text>Charlie</text><rationale>Incorrect. Because.</rationale></option>'
	printf '<option><text>Delta</text><rationale>Incorrect. Because.</rationale></option>'
	printf '<explanation>Explained %s.</explanation></question>\n' "$1"
}
{
	bank_head images
	img_q img-ok img/ok.png
	img_q img-absolute "$T/secret.png"
	img_q img-url "http://127.0.0.1:9/x.png"
	img_q img-file-url "file://$T/secret.png"
	img_q img-escape ../secret.png
	img_q img-escape-deep img/../../secret.png
	img_q img-missing img/missing.png
	img_q img-link img/link.png
	img_q img-fifo img/fifo.png
	img_q img-dir img/dir.png
	img_q img-backslash 'img\ok.png'
	printf '</bank>\n'
} >"$T/b/images.xml"
finding img-absolute "$T/b/images.xml" 5 img-unsafe-path
finding img-url "$T/b/images.xml" 6 img-unsafe-path
finding img-file-url "$T/b/images.xml" 7 img-unsafe-path
finding img-escape "$T/b/images.xml" 8 img-unsafe-path
finding img-escape-deep "$T/b/images.xml" 9 img-unsafe-path
finding img-missing "$T/b/images.xml" 10 img-missing
finding img-link-out "$T/b/images.xml" 11 img-unsafe-path
finding img-fifo "$T/b/images.xml" 12 img-missing
finding img-dir "$T/b/images.xml" 13 img-missing
finding img-backslash "$T/b/images.xml" 14 img-unsafe-path
if grep -q ':4: .*\[img-' "$T/img-absolute.out"; then
	bad img-ok "a good image is reported: $(grep ':4: ' "$T/img-absolute.out")"
else
	ok
fi
mkdir -p "$T/imgout"
for x in moodle markdown qti21; do
	run img-export-$x 30 export --no-config --to $x -o "$T/imgout/out-$x" "$T/b/images.xml"
	if grep -q 'not available yet' "$T/img-export-$x.err"; then
		skipped img-export-$x "the $x exporter is not built yet"
	elif sane img-export-$x; then
		if [ "$rc" -ne 1 ]; then
			bad img-export-$x "exit $rc, expected 1 (refused)"
		else
			absent img-export-$x "$SECRET" "$T/imgout"
		fi
	fi
done
if [ -n "$(ls -A "$T/imgout")" ]; then bad img-export-files "left: $(ls -A "$T/imgout")"; else ok; fi
# with the two rules turned off the exporters still refuse to read such files
printf '[rules]\nimg-unsafe-path = "off"\nimg-missing = "off"\n' >"$T/img-off.toml"
for x in moodle qti21 markdown; do
	n=img-disabled-$x
	run $n 30 export --config "$T/img-off.toml" --to $x -o "$T/imgout/out-$x" "$T/b/images.xml"
	if sane $n; then
		if [ $x != markdown ] && [ "$rc" -eq 0 ]; then
			bad $n "exported images from outside the bank's folder"
		else
			absent $n "$SECRET" "$T/imgout"
		fi
	fi
	rm -rf "$T/imgout"/* "$T/imgout"/.[!.]* 2>/dev/null
done

# ---- zip entries of the QTI package ----------------------------------------------

mkdir -p "$T/z/img/deep/er" "$T/zout"
printf '\211PNG\r\n\032\n' >"$T/z/img/a.png"
printf '\211PNG\r\n\032\n' >"$T/z/img/deep/er/b c.png"
{
	bank_head zip
	img_q zip-1 img/a.png
	img_q zip-2 "img/./deep/er/b c.png"
	img_q zip-3 "img//a.png"
	printf '</bank>\n'
} >"$T/z/zip.xml"
run zip-export 60 export --no-config --to qti21 -o "$T/zout/package.zip" "$T/z/zip.xml"
if grep -q 'not available yet' "$T/zip-export.err"; then
	skipped zip-entries "the qti21 exporter is not built yet"
elif ! command -v unzip >/dev/null 2>&1; then
	skipped zip-entries "unzip is not installed"
elif sane zip-export; then
	if [ "$rc" -ne 0 ]; then
		bad zip-export "exit $rc: $(head -c 400 "$T/zip-export.err")"
	else
		unzip -Z1 "$T/zout/package.zip" >"$T/zip-entries" 2>/dev/null
		if [ ! -s "$T/zip-entries" ]; then
			bad zip-entries "no entries listed"
		elif grep -Eq '^/|(^|/)\.\.(/|$)|\\|^[A-Za-z]:|(^|/)\.(/|$)|//' "$T/zip-entries"; then
			bad zip-entries "an entry escapes or is not normalised: $(grep -E '^/|\.\.|\\|//' "$T/zip-entries" | head -3)"
		else
			ok
		fi
		unzip -q -d "$T/zout/x" "$T/zout/package.zip" >/dev/null 2>&1
		if [ -n "$(find "$T/zout" -newer "$T/z/zip.xml" ! -path "$T/zout/x*" ! -name package.zip | grep -v "^$T/zout\$")" ]; then
			bad zip-extract "extracting wrote outside its folder"
		else
			ok
		fi
	fi
fi

# ---- paths and files -----------------------------------------------------------

ioerror missing-file lint "$T/no-such-bank.xml"
mkdir -p "$T/emptydir/sub"
printf 'not a bank\n' >"$T/emptydir/notes.txt"
ioerror empty-directory lint "$T/emptydir"
mkfifo "$T/fifo.xml" 2>/dev/null
ioerror fifo lint "$T/fifo.xml"
ioerror char-device lint /dev/null
mkdir -p "$T/fifodir"
mkfifo "$T/fifodir/a.xml" 2>/dev/null
ioerror fifo-in-directory lint "$T/fifodir"
{ bank_head unreadable; question u1 "Can you read me?"; printf '</bank>\n'; } >"$T/unreadable.xml"
chmod 000 "$T/unreadable.xml"
if [ "$(id -u)" -eq 0 ]; then
	skipped unreadable-file "running as root, who can read a mode 000 file"
else
	ioerror unreadable-file lint "$T/unreadable.xml"
fi
chmod 644 "$T/unreadable.xml"

# ---- writing ---------------------------------------------------------------------

{ bank_head good; question g1 "Is this fine?"; question g2 "Is this fine too?"; printf '</bank>\n'; } >"$T/good.xml"
cp "$T/good.xml" "$T/good.orig"
for x in moodle markdown qti21; do
	run output-is-input-$x 30 export --no-config --to $x -o "$T/good.xml" "$T/good.xml"
	if sane output-is-input-$x; then
		if [ "$rc" -ne 2 ] || ! cmp -s "$T/good.xml" "$T/good.orig"; then
			bad output-is-input-$x "exit $rc, input changed: $(cmp "$T/good.xml" "$T/good.orig")"
		else
			ok
		fi
	fi
done
ln -s good.xml "$T/good-link.xml"
run output-is-input-link 30 export --no-config --to moodle -o "$T/good-link.xml" "$T/good.xml"
if sane output-is-input-link; then
	if [ "$rc" -ne 2 ] || ! cmp -s "$T/good.xml" "$T/good.orig"; then bad output-is-input-link "exit $rc"; else ok; fi
fi

# -o /dev/null and /dev/full: devices are written through, never replaced
run export-dev-null 30 export --no-config --to moodle -o /dev/null "$T/good.xml"
if sane export-dev-null; then
	if [ "$rc" -ne 0 ] || [ ! -c /dev/null ]; then bad export-dev-null "exit $rc or /dev/null replaced"; else ok; fi
fi
if [ -c /dev/full ]; then
	run export-dev-full 30 export --no-config --to moodle -o /dev/full "$T/good.xml"
	if sane export-dev-full; then
		if [ "$rc" -ne 2 ] || [ ! -c /dev/full ] || [ "$(wc -l <"$T/export-dev-full.err")" -ne 1 ]; then
			bad export-dev-full "exit $rc (expected 2 with one line): $(cat "$T/export-dev-full.err")"
		else
			ok
		fi
	fi
fi

# a full disk: a 64 KB tmpfs holding an older output
MNT="$T/full"
mkdir -p "$MNT"
if mount -t tmpfs -o size=64k tmpfs "$MNT" 2>/dev/null; then
	{
		bank_head big
		i=0
		while [ $i -lt 1500 ]; do question "fill-$i" "Question number $i that fills the disk?"; i=$((i + 1)); done
		printf '</bank>\n'
	} >"$T/big.xml"
	for x in moodle markdown qti21; do
		ext=xml; [ $x = markdown ] && ext=md; [ $x = qti21 ] && ext=zip
		printf 'old output\n' >"$MNT/out.$ext"
		run disk-full-$x 60 export --no-config --to $x -o "$MNT/out.$ext" "$T/big.xml"
		if grep -q 'not available yet' "$T/disk-full-$x.err"; then
			skipped disk-full-$x "the $x exporter is not built yet"
		elif sane disk-full-$x; then
			left=$(ls -A "$MNT" | grep -v "^out.$ext\$")
			if [ "$rc" -ne 2 ]; then
				bad disk-full-$x "exit $rc, expected 2: $(head -c 300 "$T/disk-full-$x.err")"
			elif [ "$(cat "$MNT/out.$ext")" != "old output" ]; then
				bad disk-full-$x "the old output was changed"
			elif [ -n "$left" ]; then
				bad disk-full-$x "temporary files left: $left"
			elif [ "$(wc -l <"$T/disk-full-$x.err")" -ne 1 ]; then
				bad disk-full-$x "expected a one-line error: $(cat "$T/disk-full-$x.err")"
			elif ! grep -q "out\.$ext: .*No space left" "$T/disk-full-$x.err"; then
				bad disk-full-$x "the error names neither the file nor the cause: $(cat "$T/disk-full-$x.err")"
			else
				ok
			fi
		fi
		rm -f "$MNT"/* "$MNT"/.[!.]* 2>/dev/null
	done
	# forms: three outputs and two key spools; the message names the one that failed
	run disk-full-forms 60 export --no-config --to markdown --forms 2 --seed 1 -o "$MNT/f.md" "$T/big.xml"
	if sane disk-full-forms; then
		left=$(ls -A "$MNT")
		if [ "$rc" -ne 2 ]; then
			bad disk-full-forms "exit $rc, expected 2: $(head -c 300 "$T/disk-full-forms.err")"
		elif [ -n "$left" ]; then
			bad disk-full-forms "files left: $left"
		elif [ "$(wc -l <"$T/disk-full-forms.err")" -ne 1 ] ||
		     ! grep -Eq "f-(A|B|key)\.md: write failed: No space left" "$T/disk-full-forms.err"; then
			bad disk-full-forms "expected one line naming a form and the cause: $(cat "$T/disk-full-forms.err")"
		else
			ok
		fi
	fi
	rm -f "$MNT"/* "$MNT"/.[!.]* 2>/dev/null
	umount "$MNT"
	MNT=""
else
	MNT=""
	skipped disk-full "cannot mount a tmpfs here (needs root)"
fi

# ---- fuzz regressions: every input that once crashed a harness -------------------

for f in tests/fuzz/regressions/*; do
	[ -f "$f" ] || continue
	case "$f" in *.md) continue ;; esac
	n=regression-$(basename "$f")
	run "$n" 60 lint --no-config "$f"
	if sane "$n"; then
		if [ "$rc" -eq 2 ]; then bad "$n" "I/O error on a readable file"; else ok; fi
	fi
	for x in moodle markdown; do
		run "$n-$x" 60 export --no-config --to $x -o "$T/reg-out" "$f"
		sane "$n-$x" && ok
		rm -f "$T/reg-out"
	done
done

echo "hostile: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
