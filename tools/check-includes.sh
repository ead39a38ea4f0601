#!/bin/sh
# The floors of tools/ (tools/README.md "Floors"), checked: every
# #include "..." of a C file under tools/ points sideways within its floor
# or down, never up, and the includes make no circle between units (a .c
# file and its header; a folder of tools/lib such as rules/ counts as one
# unit). It also fails on a rule id written as a string ("key-missing")
# anywhere under tools/ but the rule table, tools/lib/rules.c: code names
# a rule by its key, QB_RULE_KEY_MISSING (tools/lib/rule_ids.h).
#
# Every violation is printed, one a line, naming the file, the include and
# the two floors. tools/check-includes.known lists violations that are
# known and being removed, with the reason; they are reported as known and
# do not fail the run, but an entry that no longer matches fails it, so
# that the list only shrinks.
#
# POSIX sh and awk only; run by `make test` and `make check-static`.
# Exit status: 0 clean (or only known violations), 1 violations, 2 usage.
set -eu
cd "$(dirname "$0")/.." || exit 2

KNOWN=tools/check-includes.known

# The floor of each file, lowest first: FLOOR LABEL PATTERN..., patterns
# relative to tools/; the first that matches wins, in the order written (*
# matches within one path component). A new file under tools/ needs a
# pattern here.
FLOORS='
0  core       lib/core/* lib/error.[ch] lib/limits.h lib/version.h
1  utilities  lib/text.[ch] lib/richtext.[ch] lib/xmlw.[ch] lib/imgpath.[ch] lib/paths.[ch]
1  utilities  lib/atomic.[ch] lib/moodle_grades.[ch] lib/model.[ch] lib/diag.[ch] lib/rule_ids.h
1  utilities  lib/tempfile.[ch] lib/fcopy.[ch] lib/diff_words.[ch] lib/mathml.[ch] lib/xmlnode.[ch]
2  input      lib/reader.[ch] lib/reader_hold.h lib/schema.c lib/config.[ch] lib/gitrev.[ch]
3  plug-ins   lib/rule.h lib/rules/* lib/exporter.h lib/exporters/* lib/importer.h lib/importers/*
4  drivers    lib/lint.[ch] lib/rules.[ch] lib/export.[ch] lib/import.[ch] lib/run.[ch] lib/pipeline.[ch]
4  drivers    lib/stats.[ch] lib/diff.[ch] lib/diff_question.[ch]
5a formats    cli/fmt* cli/format* cli/json_writer.[ch]
5b commands   cli/*
6  bench      bench/*
6  build      docx_reference.c
'

files=$(find tools -type f \( -name '*.c' -o -name '*.h' \) | LC_ALL=C sort)
[ -n "$files" ] || { echo "check-includes: no C files under tools/" >&2; exit 2; }

# standard input: the floor table, then the list of files
# shellcheck disable=SC2086  # file names under tools/ have no spaces
{ printf '%s\n' "$FLOORS"; echo '-- files'; printf '%s\n' "$files"; } | LC_ALL=C awk -v known="$KNOWN" '
function glob_re(g,    r, i, c) {
	r = "^"
	for (i = 1; i <= length(g); i++) {
		c = substr(g, i, 1)
		if (c == "*") r = r "[^/]*"
		else if (c == "?") r = r "[^/]"
		else if (c == "." || c == "+" || c == "(" || c == ")" || c == "$" || c == "^") r = r "\\" c
		else r = r c
	}
	return r "$"
}
function floor_of(f,    i) {
	for (i = 1; i <= nfloors; i++)
		if (f ~ pat[i]) { flabel[f] = lab[i]; return rank[i] }
	return 0
}
function dirname(f) { return f ~ /\// ? substr(f, 1, match(f, /\/[^\/]*$/) - 1) : "." }
# a/b/../c -> a/c; ./ dropped
function normalise(p,    n, parts, out, k, i) {
	n = split(p, parts, "/")
	k = 0
	for (i = 1; i <= n; i++) {
		if (parts[i] == "." || parts[i] == "") continue
		if (parts[i] == ".." && k > 0 && out[k] != "..") { k--; continue }
		out[++k] = parts[i]
	}
	p = ""
	for (i = 1; i <= k; i++) p = p (i > 1 ? "/" : "") out[i]
	return p
}
# A folder of tools/lib (core/, rules/, exporters/ ...) is one unit; else a
# file and its header are.
function unit_of(f) {
	if (f ~ /^tools\/lib\/[^\/]+\//) return substr(f, 1, match(f, /^tools\/lib\/[^\/]+\//) + RLENGTH - 1)
	sub(/\.[ch]$/, "", f)
	return f
}
function complain(key, text) {
	if (key in allowed) { allowed_hit[key] = 1; nknown++; print "known:     " text; return }
	nbad++
	print text
}
# The string literals of LINE (comments and character constants skipped;
# in_comment carries a /* comment across lines) go to lit[1..nlit].
function literals(line,    i, c, n, s) {
	nlit = 0
	n = length(line)
	for (i = 1; i <= n; i++) {
		c = substr(line, i, 1)
		if (in_comment) {
			if (c == "*" && substr(line, i + 1, 1) == "/") { in_comment = 0; i++ }
			continue
		}
		if (c == "/" && substr(line, i + 1, 1) == "*") { in_comment = 1; i++; continue }
		if (c == "/" && substr(line, i + 1, 1) == "/") return
		if (c == "\047") {
			for (i++; i <= n && substr(line, i, 1) != "\047"; i++)
				if (substr(line, i, 1) == "\\") i++
			continue
		}
		if (c == "\"") {
			s = ""
			for (i++; i <= n && substr(line, i, 1) != "\""; i++) {
				if (substr(line, i, 1) == "\\") { s = s substr(line, i, 2); i++; continue }
				s = s substr(line, i, 1)
			}
			lit[++nlit] = s
		}
	}
}

FILENAME == "-" {
	if ($0 == "-- files") listing = 1
	else if (listing) { nfiles++; file[nfiles] = $0; exists[$0] = 1 }
	else if (NF >= 3) {
		if (!nrank || $1 "" != last_floor) { nrank++; last_floor = $1 "" }  # the table goes up
		for (k = 3; k <= NF; k++) {
			nfloors++
			rank[nfloors] = nrank
			lab[nfloors] = $1 " " $2
			pat[nfloors] = glob_re("tools/" $k)
		}
	}
	next
}
FNR == 1 { in_comment = 0 }
# the ids of the rule table: rows "[QB_RULE_X] = { \"x\", ..."
FILENAME == "tools/lib/rules.c" && /^\t\[QB_RULE_[A-Z0-9_]+\] = \{ "/ {
	id = $0
	sub(/^[^"]*"/, "", id)
	sub(/".*$/, "", id)
	rule_id[id] = 1
}
/^[ \t]*#[ \t]*include[ \t]*"/ {
	inc = $0
	sub(/^[^"]*"/, "", inc)
	sub(/".*$/, "", inc)
	ninc++
	inc_from[ninc] = FILENAME
	inc_line[ninc] = FNR
	inc_name[ninc] = inc
	inc_to[ninc] = normalise(dirname(FILENAME) "/" inc)
}
FILENAME != "tools/lib/rules.c" {
	literals($0)
	for (k = 1; k <= nlit; k++) {
		nlits++
		lit_file[nlits] = FILENAME
		lit_line[nlits] = FNR
		lit_text[nlits] = lit[k]
	}
}

END {
	while ((getline l < known) > 0) {
		if (l ~ /^[ \t]*(#|$)/) continue
		key = l
		sub(/[ \t]+#.*$/, "", key)
		sub(/[ \t]+$/, "", key)
		if (key ~ /^(up|literal) (tools\/lib\/rules\/|tools\/lib\/lint\.c |tools\/lib\/config\.c )/ ||
		    key ~ /^circle .*(tools\/lib\/rules\/|tools\/lib\/lint |tools\/lib\/config )/) {
			print known ": " key ": the rules, lint.c and config.c are never on this list"
			nbad++
			continue
		}
		allowed[key] = 1
	}
	for (i = 1; i <= nfiles; i++) {
		f = file[i]
		fl[f] = floor_of(f)
		if (!fl[f]) { nbad++; print f ": no floor; give it one in tools/check-includes.sh (FLOORS)" }
	}
	for (i = 1; i <= ninc; i++) {
		from = inc_from[i]; to = inc_to[i]
		where = from ":" inc_line[i] ": #include \"" inc_name[i] "\""
		if (!(to in exists)) { nbad++; print where ": no such file under tools/ (" to ")"; continue }
		if (!fl[from] || !fl[to]) continue
		if (fl[to] > fl[from])
			complain("up " from " " to, where " points up: floor " flabel[from] " may not include floor " flabel[to] " (" to ")")
		u = unit_of(from); v = unit_of(to)
		if (u != v && !((u, v) in edge)) {
			edge[u, v] = where
			nout[u]++; out[u, nout[u]] = v
			units[u] = 1; units[v] = 1
		}
	}
	# circles: units that reach each other
	for (u in units) {
		delete seen
		n = 0; stack[++n] = u
		while (n > 0) {
			x = stack[n--]
			for (j = 1; j <= nout[x]; j++) {
				y = out[x, j]
				if (!(y in seen)) { seen[y] = 1; stack[++n] = y }
			}
		}
		for (y in seen) reach[u, y] = 1
	}
	for (u in units) {
		if (!((u, u) in reach) || (u in done)) continue
		members = ""
		nm = 0
		for (v in units)
			if ((u, v) in reach && (v, u) in reach) { m[++nm] = v; done[v] = 1 }
		for (a = 2; a <= nm; a++)  # sort the members: stable messages
			for (b = a; b > 1 && m[b - 1] > m[b]; b--) { t = m[b]; m[b] = m[b - 1]; m[b - 1] = t }
		for (a = 1; a <= nm; a++) members = members (a > 1 ? " " : "") m[a]
		text = "include circle between " members ":"
		for (a = 1; a <= nm; a++)
			for (b = 1; b <= nm; b++)
				if ((m[a], m[b]) in edge) text = text "\n    " edge[m[a], m[b]]
		complain("circle " members, text)
	}
	for (i = 1; i <= nlits; i++) {
		if (!(lit_text[i] in rule_id)) continue
		key = lit_text[i]
		gsub(/-/, "_", key)
		complain("literal " lit_file[i] " \"" lit_text[i] "\"", lit_file[i] ":" lit_line[i] ": the rule id \"" lit_text[i] \
			 "\" as a string; name the rule by its key QB_RULE_" toupper(key) " (rule_ids.h)")
	}
	for (key in allowed)
		if (!(key in allowed_hit)) {
			nbad++
			print known ": \"" key "\" no longer happens; remove it from the list"
		}
	if (nbad) {
		printf "check-includes: %d violation%s (tools/README.md \"Floors\")\n", nbad, nbad == 1 ? "" : "s"
		exit 1
	}
	if (nknown)
		printf "check-includes: clean but for %d known violation%s (%s)\n", nknown, nknown == 1 ? "" : "s", known
}
' - $files
