#!/bin/sh
# Printable exams: `qbank export --to markdown` beyond what the golden cases
# in tests/golden/export/markdown/ (one file on standard output) cover:
#   - forms: golden copies of two forms and their key (fixed seed), the
#     same bytes on every run, forms that differ, questions kept in their
#     category, shuffle="false" kept, every key letter mapping back to the
#     bank's correct option;
#   - files: image paths relative to the output's folder, refusals that
#     leave no file and keep an older one;
#   - PDF through the real pandoc and XeLaTeX (skipped, and counted as
#     skipped, when they are missing): the student PDF holds every stem and
#     option and no rationale, explanation or accepted answer; the teacher's
#     PDF holds the keys ("A, C, E" for dbx-mla-211) and every rationale;
#     hostile text prints literally; no page of a student PDF starts in the
#     middle of a question; a form compiles and is marked as such.
#
# Environment: QBANK (the binary; default build/qbank); QBANK_NO_PDF=1 skips
# the PDF part (quick or valgrind runs).
# Usage: tests/export/markdown/run.sh [--update]   (--update rewrites golden/)
# Prints "markdown: N passed, M failed, K skipped"; exits 1 when M > 0.
set -u
cd "$(dirname "$0")/../../.." || exit 2
export LC_ALL=C
QBANK=${QBANK:-build/qbank}
HERE=tests/export/markdown
TYPES=tests/fixtures/export/types.xml
BANK=bank/distributed-ml.xml
HOSTILE=tests/fixtures/hostile.xml

if [ ! -x "$QBANK" ]; then
	echo "markdown: $QBANK is not built (make test builds it)" >&2
	exit 2
fi
case "$QBANK" in /*) ;; *) QBANK="$(pwd)/$QBANK" ;; esac
update=0
[ "${1:-}" = --update ] && update=1

T=$(mktemp -d "${TMPDIR:-/tmp}/qbank-markdown.XXXXXX") || exit 2
trap 'rm -rf "$T"' EXIT INT TERM
pass=0 fail=0 skip=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "markdown: FAIL $*"; }
skipped() { skip=$((skip + 1)); echo "markdown: SKIP $*"; }
check() { # check DESCRIPTION COMMAND...: passes when COMMAND succeeds
	d=$1
	shift
	if "$@"; then ok; else bad "$d"; fi
}

# ---- forms: golden copies -------------------------------------------------

mkdir -p "$T/f1" "$T/f2" "$T/f3" "$T/fa"
"$QBANK" export --to markdown --forms 2 --seed 42 -o "$T/f1/types.md" $TYPES || bad "forms export"
"$QBANK" export --to markdown --forms 2 --seed 42 -o "$T/f2/types.md" $TYPES || bad "forms export, second run"
"$QBANK" export --to markdown --forms 2 --seed 43 -o "$T/f3/types.md" $TYPES || bad "forms export, other seed"
"$QBANK" export --to markdown --answers --forms 2 --seed 42 -o "$T/fa/types-answers.md" $TYPES ||
	bad "forms export --answers"
for f in types-A.md types-B.md types-key.md types-answers-A.md types-answers-B.md types-answers-key.md; do
	case $f in types-answers*) got=$T/fa/$f ;; *) got=$T/f1/$f ;; esac
	if [ $update -eq 1 ]; then
		mkdir -p $HERE/golden
		cmp -s "$got" $HERE/golden/$f || { cp "$got" $HERE/golden/$f && echo "markdown: updated $HERE/golden/$f"; }
		ok
	elif cmp -s "$got" $HERE/golden/$f; then
		ok
	else
		bad "golden $f"
		diff -u $HERE/golden/$f "$got" | head -40 | sed 's/^/    /'
	fi
done

# ---- forms: properties ------------------------------------------------------

for f in types-A.md types-B.md types-key.md; do
	check "forms are the same bytes on a second run ($f)" cmp -s "$T/f1/$f" "$T/f2/$f"
done
# the printed questions in order, without the form letter
questions() { grep -E '^\*\*[0-9]+\.\*\*' "$1"; }
questions "$T/f1/types-A.md" >"$T/qa"
questions "$T/f1/types-B.md" >"$T/qb"
questions "$T/f3/types-A.md" >"$T/qc"
check "form A and form B differ" sh -c '! cmp -s "$1" "$2"' - "$T/qa" "$T/qb"
check "another seed gives another form A" sh -c '! cmp -s "$1" "$2" || ! cmp -s "$3" "$4"' - \
	"$T/qa" "$T/qc" "$T/f1/types-key.md" "$T/f3/types-key.md"

# key rows of form $2 in key file $1: number, id, key, printed = bank
rows() {
	awk -v form="# Form $2" '$0 == form { on = 1; next } /^# Form / { on = 0 }
		on && /^\| [0-9]+ \|/' "$1"
}
# The bank's categories, as the key's positions 1..13 must keep them.
cat >"$T/groups" <<'EOF'
1 types-single
2 types-multiple-3of5 types-multiple-4of10
3 types-multiple-3of5 types-multiple-4of10
4 types-truefalse-true types-truefalse-false types-short types-numeric-unit types-numeric-plain types-essay-editor types-essay-plain types-matching-pairs types-matching-distractor
5 types-truefalse-true types-truefalse-false types-short types-numeric-unit types-numeric-plain types-essay-editor types-essay-plain types-matching-pairs types-matching-distractor
6 types-truefalse-true types-truefalse-false types-short types-numeric-unit types-numeric-plain types-essay-editor types-essay-plain types-matching-pairs types-matching-distractor
7 types-truefalse-true types-truefalse-false types-short types-numeric-unit types-numeric-plain types-essay-editor types-essay-plain types-matching-pairs types-matching-distractor
8 types-truefalse-true types-truefalse-false types-short types-numeric-unit types-numeric-plain types-essay-editor types-essay-plain types-matching-pairs types-matching-distractor
9 types-truefalse-true types-truefalse-false types-short types-numeric-unit types-numeric-plain types-essay-editor types-essay-plain types-matching-pairs types-matching-distractor
10 types-truefalse-true types-truefalse-false types-short types-numeric-unit types-numeric-plain types-essay-editor types-essay-plain types-matching-pairs types-matching-distractor
11 types-truefalse-true types-truefalse-false types-short types-numeric-unit types-numeric-plain types-essay-editor types-essay-plain types-matching-pairs types-matching-distractor
12 types-truefalse-true types-truefalse-false types-short types-numeric-unit types-numeric-plain types-essay-editor types-essay-plain types-matching-pairs types-matching-distractor
13 types-root
EOF
# the bank's key, from the teacher's version without forms (printed = bank)
"$QBANK" export --to markdown --answers $TYPES | awk -F' \\| ' '/^\| [0-9]+ \| types-/ { print $2 "|" $3 }' \
	| sed 's/\\//g' >"$T/bankkey"
for form in A B; do
	for d in f1 f3; do
		rows "$T/$d/types-key.md" $form | sed 's/\\//g' >"$T/rows"
		check "form $form ($d): every question once" \
			sh -c '[ "$(cut -d"|" -f3 "$1" | tr -d " " | sort | tr "\n" " ")" = "$(cut -d" " -f2- "$2" | tr " " "\n" | sort -u | tr "\n" " ")" ]' - \
			"$T/rows" "$T/groups"
		check "form $form ($d): questions stay in their category" awk -F'|' '
			NR == FNR { for (i = 2; i <= NF; i++) ok[$1 " " $i] = 1; next }
			{ n = $2 + 0; id = $3; gsub(/ /, "", id); if (!ok[n " " id]) { print "    " n " " id; bad = 1 } }
			END { exit bad }' FS=' ' "$T/groups" FS='|' "$T/rows"
		check "form $form ($d): shuffle=\"false\" keeps the options' order" \
			grep -q '| types-single | B | A=A, B=B, C=C |' "$T/rows"
		check "form $form ($d): shuffle=\"false\" keeps the matching order" \
			grep -q '| types-matching-distractor | 1–A, 2–B | 1=1, 2=2 |' "$T/rows"
		# printed letters of the key, mapped through "printed = bank", give the bank's key
		check "form $form ($d): every key maps back to the bank's key" awk -F'|' '
			NR == FNR { split($0, a, "|"); bank[a[1]] = a[2]; next }
			$5 ~ /=/ && $3 ~ /types-(single|multiple|root)/ {
				id = $3; gsub(/ /, "", id)
				n = split($5, m, ","); for (i = 1; i <= n; i++) { gsub(/ /, "", m[i]); split(m[i], kv, "="); map[kv[1]] = kv[2] }
				k = split($4, l, ","); s = ""
				for (i = 1; i <= k; i++) { gsub(/ /, "", l[i]); v[i] = map[l[i]] }
				# sort the mapped ids
				for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
				for (i = 1; i <= k; i++) s = s (i > 1 ? ", " : "") v[i]
				want = bank[id]; gsub(/^ +| +$/, "", want)
				if (s != want) { print "    " id ": printed " $4 "-> " s ", bank " want; bad = 1 }
			}
			END { exit bad }' "$T/bankkey" "$T/rows"
	done
done
check "forms --answers: the teacher's form ends with its key" grep -q '^# Answer key$' "$T/fa/types-answers-A.md"
check "forms --answers: the teacher's form marks the correct options" grep -q '☑' "$T/fa/types-answers-B.md"
check "student forms hold no key" sh -c '! grep -q -e "☑" -e "^# Answer key" -e "Rubric" "$1" "$2"' - \
	"$T/f1/types-A.md" "$T/f1/types-B.md"

# ---- files: image paths, refusals -------------------------------------------

mkdir -p "$T/img/out/deeper"
"$QBANK" export --to markdown -o "$T/img/out/deeper/rich.md" tests/fixtures/export/richtext.xml ||
	bad "richtext export"
grep -o '](<[^>]*>)' "$T/img/out/deeper/rich.md" | sed 's/^](<//; s/>)$//' | sort -u >"$T/paths"
check "image paths are relative" sh -c '[ -s "$1" ] && ! grep -q "^/" "$1"' - "$T/paths"
missing=0
while IFS= read -r p; do
	[ -f "$T/img/out/deeper/$p" ] || { echo "    $p"; missing=1; }
done <"$T/paths"
check "image paths resolve from the output's folder" [ $missing -eq 0 ]

mkdir -p "$T/refuse"
"$QBANK" export --to markdown -o "$T/refuse/x.md" tests/fixtures/scraped-quiz.xml 2>/dev/null
check "a bank with lint errors is refused (exit 1)" [ $? -eq 1 ]
"$QBANK" export --to markdown --forms 2 --seed 1 -o "$T/refuse/y.md" tests/fixtures/scraped-quiz.xml 2>/dev/null
check "forms of a bank with lint errors are refused (exit 1)" [ $? -eq 1 ]
check "a refused export leaves no file" [ -z "$(ls -A "$T/refuse")" ]
echo "older exam" >"$T/refuse/keep.md"
"$QBANK" export --to markdown -o "$T/refuse/keep.md" tests/fixtures/scraped-quiz.xml 2>/dev/null
check "a refused export keeps the older file" [ "$(cat "$T/refuse/keep.md")" = "older exam" ]

# ---- PDF ----------------------------------------------------------------------

have_pdf=1
for tool in pandoc xelatex pdftotext pdfinfo xmllint; do
	command -v $tool >/dev/null 2>&1 || { have_pdf=0; why="$tool is not installed (tools/setup.sh installs it)"; }
done
[ "${QBANK_NO_PDF:-0}" = 1 ] && { have_pdf=0; why="QBANK_NO_PDF=1"; }
if [ $have_pdf -eq 0 ]; then
	skipped "PDF tests: $why"
	echo "markdown: $pass passed, $fail failed, $skip skipped"
	[ $fail -eq 0 ]
	exit
fi

P=$T/pdf
mkdir -p "$P"
"$QBANK" export --to markdown -o "$P/bank.md" $BANK || bad "bank export"
"$QBANK" export --to markdown --answers -o "$P/bank-answers.md" $BANK || bad "bank export --answers"
"$QBANK" export --to markdown -o "$P/hostile.md" $HOSTILE || bad "hostile export"
"$QBANK" export --to markdown --answers -o "$P/hostile-answers.md" $HOSTILE || bad "hostile export --answers"
"$QBANK" export --to markdown --answers -o "$P/rich-answers.md" tests/fixtures/export/richtext.xml ||
	bad "richtext export --answers"
cp "$T/f1/types-B.md" "$P/"

# pandoc as the Makefile runs it, two at a time
jobs=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
[ "$jobs" -ge 2 ] 2>/dev/null || jobs=2
n=0
for md in bank bank-answers hostile hostile-answers rich-answers types-B; do
	(cd "$P" && SOURCE_DATE_EPOCH=0 pandoc --pdf-engine=xelatex -o $md.pdf $md.md >$md.log 2>&1 ||
		echo failed >$md.failed) &
	n=$((n + 1))
	[ $((n % jobs)) -eq 0 ] && wait
done
wait
for md in bank bank-answers hostile hostile-answers rich-answers types-B; do
	if [ -f "$P/$md.pdf" ] && [ ! -f "$P/$md.failed" ]; then
		ok
		pdftotext "$P/$md.pdf" "$P/$md.txt"
	else
		bad "pandoc $md.md"
		sed 's/^/    /' "$P/$md.log" | head -20
		: >"$P/$md.txt"
	fi
done

# Text is compared without white space and hyphens: line breaks,
# justification and hyphenation are the typesetter's.
# The text of every element $2 in bank $1, one per line: markup dropped,
# entities decoded.
texts() {
	xmllint --xpath "//$2" "$1" 2>/dev/null | tr '\n' ' ' | sed "s#</$2>#&\n#g" |
		sed -e 's/<[^>]*>//g' -e 's/&lt;/</g; s/&gt;/>/g; s/&quot;/"/g' -e "s/&apos;/'/g" -e 's/&amp;/\&/g' |
		grep -v '^ *$'
}
# contains FILE NEEDLES: every line of NEEDLES occurs in FILE (both normalised);
# lacks FILE NEEDLES: none does.
find_lines() {
	awk -v want="$3" '
		function norm(s) { gsub(/[ \t\r\f-]/, "", s); return s }
		NR == FNR { hay = hay norm($0); next }
		{
			n = norm($0)
			if (n == "") next
			found = index(hay, n) > 0
			if (want == "present" && !found) { print "    missing: " $0; bad = 1 }
			if (want == "absent" && found) { print "    present: " $0; bad = 1 }
		}
		END { exit bad }' "$1" "$2"
}
contains() { find_lines "$1" "$2" present; }
lacks() { find_lines "$1" "$2" absent; }
# every page after the first starts with a question number ("12. (1 point)")
pages_start_with_questions() {
	pages=$(pdfinfo "$1" 2>/dev/null | awk '/^Pages:/ { print $2 }')
	r=0
	i=2
	while [ "$i" -le "${pages:-0}" ]; do
		first=$(pdftotext -f $i -l $i "$1" - | grep -v -e '^ *$' -e '^Form [A-Z]' -e '^[0-9]*$' | head -1)
		case $first in
		"Answer key"*) break ;;
		[0-9]*". ("*) ;;
		*) echo "    page $i starts with: $first"; r=1 ;;
		esac
		i=$((i + 1))
	done
	return $r
}

texts $BANK stem >"$T/stems"
texts $BANK text >"$T/options"
texts $BANK rationale >"$T/rationales"
texts $BANK explanation >"$T/explanations"
check "bank: 31 stems and 125 options read from the XML" \
	sh -c '[ $(wc -l <"$1") -eq 31 ] && [ $(wc -l <"$2") -ge 100 ]' - "$T/stems" "$T/options"
check "student PDF: every stem" contains "$P/bank.txt" "$T/stems"
check "student PDF: every option" contains "$P/bank.txt" "$T/options"
check "student PDF: no rationale" lacks "$P/bank.txt" "$T/rationales"
check "student PDF: no explanation" lacks "$P/bank.txt" "$T/explanations"
check "student PDF: no answer key" sh -c '! grep -q -e "Answer key" -e "(correct)" "$1"' - "$P/bank.txt"
check "student PDF: no question split across pages" pages_start_with_questions "$P/bank.pdf"
check "teacher's PDF: every rationale" contains "$P/bank-answers.txt" "$T/rationales"
check "teacher's PDF: every explanation" contains "$P/bank-answers.txt" "$T/explanations"
check "teacher's PDF: the key of dbx-mla-211 is A, C, E" \
	sh -c 'pdftotext -layout "$1" - | grep -q "dbx-mla-211 *A, C, E"' - "$P/bank-answers.pdf"
check "teacher's PDF: no question split across pages" pages_start_with_questions "$P/bank-answers.pdf"

cat >"$T/hostile-needles" <<'EOF'
Hostile text: <b> & "quotes" 'apostrophes' ]]> $x$ 100%
Which line is the CDATA terminator? It is ]]> and never <![CDATA[ or </p>.
Specials: * _ # [ ] ( ) < > | $ \ { } ~ ^ % & and `backticks` and <!-- not a comment -->.
1. this line starts like a numbered list - this one like a bullet > this one like a quote + and this one like a plus list # and this one like a heading
1. <![CDATA[
- </p> & &amp;
> a < b && c > d ]]>
+ $5 \$6 {x} ~y~ ^z^ 50% #1
Markdown: *stars* _underscores_ # hash [link](http://example.invalid) | pipe | `tick` ~tilde~ ^caret^
"straight" and 'single' quotes
Ελληνικά * _ # [ ] | $ \
Ελληνικά: Η απάντηση είναι «ψευδής». Русский: Ответ — «ложь».
(Hint: 6 × 7 = 42; not 42 % 2 or $42.)
B <bytes> & µ
if (a < b && b > c) { printf("%s\n", "]]>"); } // * _ # |
EOF
check "hostile: specials, quotes, Greek and Cyrillic print as typed" contains "$P/hostile.txt" "$T/hostile-needles"
if fc-list 2>/dev/null | grep -q "WenQuanYi Micro Hei"; then
	echo '中文：这是错的。日本語：これは誤りです。' >"$T/cjk"
	check "hostile: CJK prints (WenQuanYi Micro Hei)" contains "$P/hostile.txt" "$T/cjk"
else
	skipped "hostile CJK: the font WenQuanYi Micro Hei is not installed"
fi
cat >"$T/hostile-secrets" <<'EOF'
The three characters ]]> close a CDATA section
XML ends a CDATA section at the first ]]>
Ωμέγα-日本
x * y ]]> 'z'
Award points for
(correct)
EOF
check "hostile: the student PDF shows no rationale, explanation, answer or rubric" \
	lacks "$P/hostile.txt" "$T/hostile-secrets"
check "hostile: the teacher's PDF shows them" contains "$P/hostile-answers.txt" "$T/hostile-secrets"
check "rich text: the teacher's PDF with images holds its text" \
	grep -q "Which dot is red?" "$P/rich-answers.txt"
check "forms: form B says so on its pages" grep -q "Form B" "$P/types-B.txt"
check "forms: no question split across pages" pages_start_with_questions "$P/types-B.pdf"

echo "markdown: $pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
