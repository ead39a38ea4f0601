#!/bin/sh
# How qbank fits the tools around it: make install / uninstall into a
# staging folder, the man page, bash completion, the pre-commit hooks, the
# README's CI recipes (run as written), editor settings, `qbank new`,
# `qbank stats` and the progress display.
# Environment: QBANK (the binary), BUILD (its build folder).
# Prints "eco: N passed, M failed"; exits 1 on any failure.
set -u
cd "$(dirname "$0")/../.." || exit 2
root=$(pwd)
export LC_ALL=C
unset NO_COLOR
BUILD=${BUILD:-build}
QBANK=${QBANK:-$BUILD/qbank}
case $QBANK in /*) ;; *) QBANK=$root/$QBANK ;; esac
data=tests/ecosystem

tmp=$(mktemp -d "${TMPDIR:-/tmp}/qbank-eco.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT HUP INT TERM

passed=0
failed=0
skipped=0
pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: eco: $*" >&2; }
# pty_check NAME COMMAND...: a check that needs a pseudo-terminal; skipped,
# and said so, where none can be made (a container without /dev/pts)
if script -qec true /dev/null </dev/null >/dev/null 2>&1; then has_pty=1; else has_pty=0; fi
pty_check() {
	if [ $has_pty -eq 1 ]; then
		check "$@"
	else
		skipped=$((skipped + 1))
		echo "SKIP: eco: $1: no pseudo-terminal here" >&2
	fi
}
# check NAME COMMAND...: one test case; COMMAND's own output goes to $tmp/log
check() {
	name=$1
	shift
	# a subshell: a case's variables and exports stay its own
	if ( "$@" ) >"$tmp/log" 2>&1; then
		pass
	else
		fail "$name"
		sed 's/^/  | /' "$tmp/log" | head -n 40 >&2
	fi
}

version=$(sed -n 's/^#define QB_VERSION "\(.*\)"$/\1/p' tools/lib/version.h)
prefix=/usr/local
stage=$tmp/stage

# ---- make install / man page / uninstall --------------------------------------

installed_files="bin/qbank share/man/man1/qbank.1 share/qbank/qbank.xsd share/qbank/README.md
share/bash-completion/completions/qbank"

t_install() {
	make --no-print-directory install BUILD="$BUILD" PREFIX=$prefix DESTDIR="$stage" || return 1
	for f in $installed_files; do
		[ -f "$stage$prefix/$f" ] || { echo "not installed: $prefix/$f"; return 1; }
	done
	[ -x "$stage$prefix/bin/qbank" ] || { echo "bin/qbank is not executable"; return 1; }
	cmp schema/qbank.xsd "$stage$prefix/share/qbank/qbank.xsd"
}

t_man_renders() {
	page=$stage$prefix/share/man/man1/qbank.1
	MANWIDTH=80 MAN_KEEP_FORMATTING= man --warnings -l "$page" >"$tmp/man.txt" 2>"$tmp/man.err" ||
		return 1
	if [ -s "$tmp/man.err" ]; then
		echo "man warnings:"
		cat "$tmp/man.err"
		return 1
	fi
	for s in NAME SYNOPSIS COMMANDS 'EXIT STATUS' CONFIGURATION 'INLINE SUPPRESSION' \
		ENVIRONMENT FILES EXAMPLES NO_COLOR "qbank $version"; do
		grep -q "$s" "$tmp/man.txt" || { echo "man page lacks '$s'"; return 1; }
	done
}

# Every command of --help, every option of `qbank help CMD` (long and
# short) and qbank's own options are in the man page's source, so that the
# page cannot fall behind the option tables that print the help.
# man_has_options WHAT HELP: every option that the text HELP names is in the page
man_has_options() {
	for opt in $(printf '%s\n' "$2" | grep -oE -- '--[a-z][a-z-]*' | sort -u); do
		grep -qF -- "\\$opt" "$src" || grep -qF -- "$opt" "$src" ||
			{ echo "man page does not document '$1 $opt'"; rc=1; }
	done
	for opt in $(printf '%s\n' "$2" | grep -oE -- '^  -[a-zA-Z],' | cut -c3-4 | sort -u); do
		grep -qF -- "**$opt**" "$src" || { echo "man page does not document '$1 $opt'"; rc=1; }
	done
}

t_man_complete() {
	src=tools/cli/qbank.1.md
	rc=0
	for cmd in $("$QBANK" --help | awk '/^Commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { exit }'); do
		grep -q "^## $cmd\$" "$src" || { echo "man page has no section for command '$cmd'"; rc=1; }
		man_has_options "$cmd" "$("$QBANK" help "$cmd")"
	done
	man_has_options qbank "$("$QBANK" --help | awk '/^Options:/ { on = 1; next } on && /^$/ { exit } on')"
	return $rc
}

t_installed_version() {
	out=$("$stage$prefix/bin/qbank" --version) || return 1
	[ "$out" = "qbank $version" ] || { echo "got '$out', want 'qbank $version'"; return 1; }
}

t_installed_lints_bank() {
	"$stage$prefix/bin/qbank" lint bank/
}

# qbank new finds the installed schema next to the installed binary.
t_installed_new_schema() {
	"$stage$prefix/bin/qbank" new "$tmp/inst-new.xml" || return 1
	loc=$(xmllint --xpath 'string(/bank/@*[local-name()="noNamespaceSchemaLocation"])' "$tmp/inst-new.xml") ||
		return 1
	[ "$loc" = "$stage$prefix/share/qbank/qbank.xsd" ] || { echo "schema location '$loc'"; return 1; }
	xmllint --noout --nonet --schema "$loc" "$tmp/inst-new.xml"
}

t_uninstall() {
	make --no-print-directory uninstall PREFIX=$prefix DESTDIR="$stage" || return 1
	left=$(find "$stage" -type f)
	[ -z "$left" ] || { echo "left behind: $left"; return 1; }
	[ ! -e "$stage$prefix/share/qbank" ] || { echo "share/qbank remains"; return 1; }
}

check "make install puts every file in place" t_install
check "man -l renders the installed page without warnings" t_man_renders
check "the man page documents every command and option" t_man_complete
check "the installed qbank --version is version.h's" t_installed_version
check "the installed binary lints bank/" t_installed_lints_bank
check "qbank new points at the installed schema" t_installed_new_schema
check "make uninstall removes everything" t_uninstall

# ---- bash completion ------------------------------------------------------------

# complete WORDS...: the candidates for the last word, sorted, one line.
complete_words() {
	PATH=$(dirname "$QBANK"):$PATH bash -c '
		. tools/cli/qbank.bash
		COMP_WORDS=("$@")
		COMP_CWORD=$(($# - 1))
		_qbank
		printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " "' bash "$@"
}

expect_completion() {
	want=$1
	shift
	got=$(complete_words "$@")
	[ "$got" = "$want " ] || { echo "completing '$*': got '$got', want '$want'"; return 1; }
}

# The names in a C table's rows: { "name", ...
table_names() {
	sed -n "/$2/,/^};/p" "$1" | grep -oE '^	\{ "[a-z0-9]+"' | sed 's/.*"\(.*\)"/\1/' | sort | tr '\n' ' ' |
		sed 's/ $//'
}

t_completion_command() {
	expect_completion lint qbank li && expect_completion stats qbank st &&
		expect_completion "new" qbank help ne
}

t_completion_formats() {
	expect_completion "$(table_names tools/cli/format.c 'qb_formats\[\] =')" qbank lint --format ""
}

t_completion_targets() {
	expect_completion "$(table_names tools/lib/export.c 'qb_exporters\[\] =')" qbank export --to ""
}

t_completion_options() {
	expect_completion "--quiet" qbank lint --qu && expect_completion "--answers" qbank export --ans
}

t_completion_rules() {
	expect_completion "key-missing key-multiple" qbank lint --disable key-m &&
		expect_completion "id-duplicate,key-missing id-duplicate,key-multiple" \
			qbank lint --disable id-duplicate,key-m &&
		expect_completion "option-count" qbank explain option-cou
}

check "completion: commands (qbank li -> lint)" t_completion_command
check "completion: --format values are the format table" t_completion_formats
check "completion: --to values are the exporter table" t_completion_targets
check "completion: options of a command" t_completion_options
check "completion: rule ids from qbank rules" t_completion_rules

# ---- qbank new --------------------------------------------------------------------

t_new_lints_clean() {
	"$QBANK" new "$tmp/course.xml" || return 1
	out=$("$QBANK" lint "$tmp/course.xml") || { echo "$out"; return 1; }
	# nothing but the summary line: no finding of any severity
	[ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] || { echo "$out"; return 1; }
	printf '%s\n' "$out" | grep -q '^1 file, 7 questions: 0 errors, 0 warnings;' || { echo "$out"; return 1; }
	for t in single multiple truefalse short numeric essay matching; do
		grep -q "<question id=\"course-$t\" type=\"$t\"" "$tmp/course.xml" ||
			{ echo "no $t question named course-$t"; return 1; }
	done
}

t_new_refuses_overwrite() {
	cp "$tmp/course.xml" "$tmp/course.before"
	"$QBANK" new "$tmp/course.xml" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 2 ] || { echo "exit $rc, want 2"; return 1; }
	grep -q "course.xml: already exists" "$tmp/err" || { cat "$tmp/err"; return 1; }
	cmp "$tmp/course.before" "$tmp/course.xml"
}

t_new_template_is_clean() {
	# the template itself, as it sits in the tree, and through standard output
	"$QBANK" lint tools/cli/starter.xml >/dev/null || return 1
	"$QBANK" new - >"$tmp/stdout.xml" && "$QBANK" lint "$tmp/stdout.xml" >/dev/null
}

t_new_project_schema() {
	mkdir -p "$tmp/proj/schema" "$tmp/proj/bank/unit 1" &&
		cp schema/qbank.xsd "$tmp/proj/schema/" || return 1
	"$QBANK" new "$tmp/proj/bank/unit 1/2024 exam.xml" || return 1
	f="$tmp/proj/bank/unit 1/2024 exam.xml"
	grep -q 'xsi:noNamespaceSchemaLocation="../../schema/qbank.xsd"' "$f" || return 1
	grep -q '<bank [^>]*id="bank-2024-exam"' "$f" || { grep '<bank' "$f"; return 1; }
	(cd "$tmp/proj/bank/unit 1" && xmllint --noout --nonet --schema ../../schema/qbank.xsd "2024 exam.xml")
}

check "qbank new writes a bank that lints clean" t_new_lints_clean
check "qbank new refuses to overwrite (exit 2, file unchanged)" t_new_refuses_overwrite
check "the starter template lints clean" t_new_template_is_clean
check "qbank new finds schema/qbank.xsd upward" t_new_project_schema

# ---- qbank stats ------------------------------------------------------------------

t_stats_golden() {
	"$QBANK" stats tools/cli/starter.xml >"$tmp/stats.txt" || return 1
	diff -u "$data/stats-starter.txt" "$tmp/stats.txt" || return 1
	"$QBANK" stats --format json tools/cli/starter.xml >"$tmp/stats.json" || return 1
	diff -u "$data/stats-starter.json" "$tmp/stats.json"
}

# The figures agree with each other and with the lint summary.
t_stats_bank() {
	"$QBANK" stats --format json bank/ >"$tmp/bank.json" || return 1
	summary=$("$QBANK" lint bank/ | tail -n 1)
	jq -e --arg s "$summary" '
		($s | capture("(?<f>[0-9]+) files?, (?<q>[0-9]+) questions?.*explanations (?<e>[0-9]+)/(?<et>[0-9]+).*rationales (?<r>[0-9]+)/(?<rt>[0-9]+)")) as $l
		| .files == ($l.f | tonumber) and .questions == ($l.q | tonumber)
		and .explanations.present == ($l.e | tonumber) and .explanations.total == ($l.et | tonumber)
		and .rationales.present == ($l.r | tonumber) and .rationales.total == ($l.rt | tonumber)
		and ([.types[].questions] | add) == .questions
		and ([.categories[].questions] | add) + .uncategorized == .questions
		and ([.key_positions[]] | add) == .keys
		and .keys >= .types.single.questions' "$tmp/bank.json" >/dev/null || { cat "$tmp/bank.json"; return 1; }
	"$QBANK" stats bank/ | grep -q "^1 file, [0-9]* questions, [0-9.]* points\$"
}

t_stats_unreadable() {
	printf '<?xml version="1.0"?>\n<bank id="b" version="1"><title>t</title>\n<question id="q1" type="single">\n' \
		>"$tmp/broken.xml"
	"$QBANK" stats "$tmp/broken.xml" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 1 ] || { echo "exit $rc, want 1"; return 1; }
	grep -q "broken.xml:[0-9]*: error: .*\[xml-syntax\]" "$tmp/err" || { cat "$tmp/err"; return 1; }
	grep -q "run 'qbank stats' again" "$tmp/err"
}

t_stats_usage() {
	"$QBANK" stats --format csv bank/ 2>"$tmp/err"
	[ $? -eq 2 ] && grep -q "unknown format 'csv' (table or json)" "$tmp/err"
}

check "qbank stats: golden table and JSON of the starter bank" t_stats_golden
check "qbank stats: figures add up and match the lint summary" t_stats_bank
check "qbank stats: unreadable parts are named, exit 1" t_stats_unreadable
check "qbank stats: unknown --format is a usage error" t_stats_usage

# ---- progress ---------------------------------------------------------------------

# gen_bank N FILE: a bank of N questions; 100,000 take a lint of more than a
# second, 40,000 an export (the exporter does more per question).
gen_bank() {
	awk -v n="$1" 'BEGIN {
	print "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
	print "<bank id=\"big\" version=\"1\"><title>Big</title><category name=\"c\">"
	for (i = 0; i < n; i++) {
		printf "<question id=\"q%d\" type=\"single\"><stem>Which value is number %d?</stem>", i, i
		printf "<option><text>Value %d alpha</text><rationale>Incorrect. No.</rationale></option>", i
		printf "<option correct=\"true\"><text>Value %d beta</text><rationale>Correct. Yes.</rationale></option>", i
		printf "<option><text>Value %d gamma</text><rationale>Incorrect. No.</rationale></option>", i
		printf "<explanation>Explanation %d.</explanation></question>\n", i
	}
	print "</category></bank>" }' >"$2"
}
gen_bank 100000 "$tmp/big.xml"
gen_bank 40000 "$tmp/mid.xml"

# in_pty COMMAND: runs it with standard error (and input) on a pseudo-terminal.
in_pty() {
	script -qec "$1" /dev/null </dev/null
}

progress_re='reading [0-9]+ MB of [0-9]+ MB \([0-9]+%\)'

# The five runs go side by side (each takes seconds); the checks read their output.
in_pty "env -u CI '$QBANK' lint '$tmp/big.xml' >/dev/null" >"$tmp/p-lint.out" &
in_pty "env -u CI '$QBANK' export --to moodle -o '$tmp/mid-moodle.xml' '$tmp/mid.xml'" >"$tmp/p-export.out" &
env -u CI "$QBANK" lint "$tmp/big.xml" >/dev/null 2>"$tmp/p-notty.out" &
in_pty "CI=true '$QBANK' lint '$tmp/big.xml' >/dev/null" >"$tmp/p-ci.out" &
in_pty "env -u CI '$QBANK' lint --quiet '$tmp/big.xml' >/dev/null" >"$tmp/p-quiet.out" &
wait

shown() {
	grep -qE "$progress_re" "$tmp/p-$1.out" || { od -c "$tmp/p-$1.out" | head; return 1; }
	# erased at the end: the last bytes are spaces and a carriage return
	[ "$(tail -c 1 "$tmp/p-$1.out" | od -An -c | tr -d ' ')" = '\r' ]
}

not_shown() {
	! grep -q reading "$tmp/p-$1.out" || { od -c "$tmp/p-$1.out" | head; return 1; }
}

pty_check "progress: shown on a terminal, then erased (lint)" shown lint
pty_check "progress: shown on a terminal, then erased (export)" shown export
check "progress: not shown when stderr is not a terminal" not_shown notty
check "progress: not shown with CI set" not_shown ci
check "progress: not shown with --quiet" not_shown quiet

# ---- README blocks --------------------------------------------------------------

# readme_block NAME: the fenced block after "<!-- test: NAME -->" in README.md,
# the man page's source or schema/README.md (each recipe lives in one of them).
readme_block() {
	awk -v name="$1" '
		$0 == "<!-- test: " name " -->" { want = 1; next }
		want && /^```/ && !inblock { inblock = 1; next }
		inblock && /^```/ { exit }
		inblock { print }' README.md tools/cli/qbank.1.md schema/README.md
}

# A clean and a broken bank, each in a folder of its own as a bank repository.
mkdir -p "$tmp/good/bank" "$tmp/bad/bank"
cp bank/*.xml "$tmp/good/bank/"
cp bank/*.xml "$tmp/bad/bank/"
# a second file reusing an id of the first: an error only the whole bank shows
sed 's/id="starter-single"/id="pt-dist-01"/' tools/cli/starter.xml >"$tmp/bad/bank/extra.xml"
printf '<?xml version="1.0"?>\n<bank id="bad" version="1"><title>t</title>\n<question id="x1" type="single"><stem>S?</stem>\n<option><text>a</text></option><option><text>b</text></option></question></bank>\n' \
	>"$tmp/bad/bank/broken.xml"

# The commands of a recipe: its qbank lines, as written.
qbank_lines() {
	grep -oE 'qbank lint [^#]*' | sed 's/[[:space:]]*$//'
}

# yaml_ok FILE: parses with Debian's PyYAML (a pre-commit dependency).
yaml_ok() {
	/usr/bin/python3 -c 'import sys, yaml; yaml.safe_load(open(sys.argv[1]))' "$1"
}

t_readme_github() {
	readme_block github-actions >"$tmp/gh.yml"
	[ -s "$tmp/gh.yml" ] && yaml_ok "$tmp/gh.yml" || return 1
	# the install step, as written, into a staging folder
	grep -q 'make -C "$RUNNER_TEMP/qbank" install PREFIX=/usr/local' "$tmp/gh.yml" || return 1
	make --no-print-directory -C "$root" install BUILD="$BUILD" PREFIX=/usr/local DESTDIR="$tmp/gh-stage" \
		>/dev/null || return 1
	PATH=$tmp/gh-stage/usr/local/bin:$PATH
	qbank_lines <"$tmp/gh.yml" >"$tmp/gh.cmds"
	[ "$(wc -l <"$tmp/gh.cmds")" -eq 2 ] || { cat "$tmp/gh.cmds"; return 1; }
	grep -q 'sarif_file: qbank.sarif' "$tmp/gh.yml" && grep -q 'upload-sarif' "$tmp/gh.yml" || return 1
	(cd "$tmp/good" && sh -e "$tmp/gh.cmds") >"$tmp/gh.good" || { cat "$tmp/gh.good"; return 1; }
	jq -e '.version == "2.1.0" and (.runs[0].tool.driver.name == "qbank")' "$tmp/good/qbank.sarif" >/dev/null ||
		return 1
	# broken bank: the SARIF step fails (continue-on-error) but writes its file;
	# the annotation step fails the job with ::error lines
	(cd "$tmp/bad" && sh "$tmp/gh.cmds") >"$tmp/gh.bad" && { echo "broken bank passed"; return 1; }
	jq -e '[.runs[0].results[] | select(.level == "error")] | length > 0' "$tmp/bad/qbank.sarif" >/dev/null ||
		return 1
	grep -q '^::error file=bank/broken.xml,line=' "$tmp/gh.bad" || { cat "$tmp/gh.bad"; return 1; }
	grep -q '^::error file=bank/extra.xml,line=.*id-duplicate' "$tmp/gh.bad"
}

t_readme_gitlab() {
	readme_block gitlab-ci >"$tmp/gl.yml"
	[ -s "$tmp/gl.yml" ] && yaml_ok "$tmp/gl.yml" || return 1
	grep -q 'junit: qbank-junit.xml' "$tmp/gl.yml" || return 1
	qbank_lines <"$tmp/gl.yml" >"$tmp/gl.cmds"
	[ "$(wc -l <"$tmp/gl.cmds")" -eq 1 ] || return 1
	PATH=$(dirname "$QBANK"):$PATH
	(cd "$tmp/good" && sh -e "$tmp/gl.cmds") || return 1
	xmllint --noout "$tmp/good/qbank-junit.xml" || return 1
	(cd "$tmp/bad" && sh "$tmp/gl.cmds") && { echo "broken bank passed"; return 1; }
	xmllint --noout "$tmp/bad/qbank-junit.xml" &&
		[ "$(xmllint --xpath 'count(//testcase/failure)' "$tmp/bad/qbank-junit.xml")" -gt 0 ]
}

t_readme_vscode() {
	readme_block vscode-settings >"$tmp/vscode.json"
	sys=$(jq -er '."xml.fileAssociations"[0].systemId' "$tmp/vscode.json") || return 1
	[ "$sys" = "$prefix/share/qbank/qbank.xsd" ] || { echo "systemId $sys"; return 1; }
	# that is where make install puts the schema
	[ -f "$tmp/gh-stage$sys" ] || [ -f "$stage$sys" ] || { echo "no schema at $sys after make install"; return 1; }
}

# Every bank file of the repository names a schema that exists.
t_bank_schema_location() {
	for f in bank/*.xml; do
		loc=$(xmllint --xpath 'string(/bank/@*[local-name()="noNamespaceSchemaLocation"])' "$f") || return 1
		[ -f "$(dirname "$f")/$loc" ] || { echo "$f: schema location '$loc' does not exist"; return 1; }
	done
}

check "README: the GitHub Actions recipe runs as written" t_readme_github
check "README: the GitLab CI recipe runs as written" t_readme_gitlab
check "README: the VS Code settings parse and name the installed schema" t_readme_vscode
check "bank files point editors at an existing schema" t_bank_schema_location

# Colour on a terminal, none with NO_COLOR (https://no-color.org/).
t_no_color() {
	esc=$(printf '\033')
	(cd "$tmp/bad" && in_pty "'$QBANK' lint bank/") >"$tmp/color.out"
	grep -q "$esc\[" "$tmp/color.out" || { echo "no colour on a terminal"; return 1; }
	(cd "$tmp/bad" && in_pty "NO_COLOR=1 '$QBANK' lint bank/") >"$tmp/color.out"
	grep -q 'error:' "$tmp/color.out" && ! grep -q "$esc" "$tmp/color.out"
}

pty_check "colour on a terminal obeys NO_COLOR" t_no_color

# ---- pre-commit ---------------------------------------------------------------------

# A hooks repository holding this tree's .pre-commit-hooks.yaml, committed in
# a scratch clone-like folder (pre-commit clones what a config names), and
# a bank repository whose .pre-commit-config.yaml is the README's block.
t_precommit() {
	command -v pre-commit >/dev/null || { echo "pre-commit is not installed (tools/setup.sh)"; return 1; }
	git_env="GIT_AUTHOR_NAME=qbank GIT_AUTHOR_EMAIL=qbank@example.invalid GIT_COMMITTER_NAME=qbank GIT_COMMITTER_EMAIL=qbank@example.invalid"
	export HOME="$tmp/home" PRE_COMMIT_HOME="$tmp/pre-commit-cache" $git_env
	mkdir -p "$HOME" "$tmp/hooks"
	cp .pre-commit-hooks.yaml "$tmp/hooks/"
	(cd "$tmp/hooks" && git init -q && git add .pre-commit-hooks.yaml && git commit -qm hooks) || return 1
	rev=$(git -C "$tmp/hooks" rev-parse HEAD)

	repo=$tmp/bankrepo
	mkdir -p "$repo/bank"
	readme_block pre-commit | sed -e "s|repo: .*|repo: $tmp/hooks|" -e "s|rev: .*|rev: $rev|" \
		>"$repo/.pre-commit-config.yaml"
	grep -q "id: qbank-lint-bank" "$repo/.pre-commit-config.yaml" || return 1
	cp bank/*.xml "$repo/bank/"
	(cd "$repo" && git init -q && git add -A) || return 1
	PATH=$(dirname "$QBANK"):$PATH
	export PATH
	(cd "$repo" && pre-commit run --all-files) >"$tmp/pc.good" 2>&1 || { cat "$tmp/pc.good"; return 1; }
	grep -q 'qbank lint (whole bank).*Passed' "$tmp/pc.good" || { cat "$tmp/pc.good"; return 1; }

	# a second file that reuses an id: only the bank-wide hook can see it
	cp "$tmp/bad/bank/extra.xml" "$repo/bank/extra.xml"
	(cd "$repo" && git add -A && pre-commit run --all-files) >"$tmp/pc.bad" 2>&1 &&
		{ echo "a bad bank passed the hooks"; cat "$tmp/pc.bad"; return 1; }
	grep -q 'qbank lint (whole bank).*Failed' "$tmp/pc.bad" || { cat "$tmp/pc.bad"; return 1; }
	grep -q 'id-duplicate' "$tmp/pc.bad" || { cat "$tmp/pc.bad"; return 1; }

	# a broken file fails the per-file hook too, and blocks the commit
	cp "$tmp/bad/bank/broken.xml" "$repo/bank/broken.xml"
	(cd "$repo" && git rm -q --cached bank/extra.xml && rm bank/extra.xml && git add -A &&
		pre-commit install >/dev/null && git commit -qm broken) >"$tmp/pc.commit" 2>&1 &&
		{ echo "the commit of a broken bank went through"; cat "$tmp/pc.commit"; return 1; }
	grep -q 'qbank lint (changed bank files).*Failed' "$tmp/pc.commit" || { cat "$tmp/pc.commit"; return 1; }
}

check "pre-commit: the hooks pass a good bank and fail a bad one" t_precommit

# ---- messages a person can act on ------------------------------------------------

t_messages() {
	"$QBANK" lint "$tmp/missing.xml" 2>"$tmp/err"
	[ $? -eq 2 ] && grep -q "missing.xml" "$tmp/err" || { cat "$tmp/err"; return 1; }
	"$QBANK" lint --format nope bank/ 2>"$tmp/err"
	[ $? -eq 2 ] && grep -q "try 'qbank help lint'" "$tmp/err" || { cat "$tmp/err"; return 1; }
	"$QBANK" new 2>"$tmp/err"
	[ $? -eq 2 ] && grep -q "qbank new bank/course.xml" "$tmp/err" || { cat "$tmp/err"; return 1; }
}

check "error messages name the file and what to do" t_messages

echo "eco: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
