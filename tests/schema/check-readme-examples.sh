#!/bin/sh
# Validate the format documentation against the schema, from the repo root:
#  - every ```xml fenced block in schema/README.md must be a complete bank
#    file that validates against schema/qbank.xsd;
#  - every tests/schema/invalid/*.xml must be well-formed but FAIL
#    validation (negative cases).
# A suite of tests/run.sh (tests/schema/suite is a link to this file).
# Prints "N passed, M failed"; exits 1 on any failure, 2 if the inputs are
# missing.
set -u

xsd=schema/qbank.xsd
readme=schema/README.md
invalid_dir=tests/schema/invalid

for f in "$xsd" "$readme"; do
  if [ ! -f "$f" ]; then
    echo "check-readme-examples: $f not found (run from the repository root)" >&2
    exit 2
  fi
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/qbank-schema.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT HUP INT TERM

# One file per ```xml block: example-001.xml, example-002.xml, ...
# The README line of each block's opening fence goes into a side file.
awk -v dir="$tmp" '
  /^```xml[ \t]*$/ { n++; out = sprintf("%s/example-%03d.xml", dir, n);
                     print NR > (out ".line"); close(out ".line");
                     printf "" > out; inblock = 1; next }
  inblock && /^```[ \t]*$/ { close(out); inblock = 0; next }
  inblock { print > out }
  END { if (inblock) { print "unterminated ```xml block" > "/dev/stderr"; exit 1 } }
' "$readme" || exit 2

passed=0
failed=0

for f in "$tmp"/example-*.xml; do
  [ -e "$f" ] || continue
  line=$(cat "$f.line")
  if out=$(xmllint --nonet --noout --schema "$xsd" "$f" 2>&1); then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: $readme:$line: xml block does not validate" >&2
    printf '%s\n' "$out" | sed "s|$tmp/|  |" >&2
  fi
done

for f in "$invalid_dir"/*.xml; do
  [ -e "$f" ] || continue
  # xmllint exits 3 for a well-formed file that fails validation; anything
  # else (0 valid, 1 not well-formed, 5 schema does not compile) means the
  # case does not test what it claims to.
  xmllint --nonet --noout --schema "$xsd" "$f" >/dev/null 2>&1
  rc=$?
  if [ "$rc" -eq 3 ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: $f: expected a schema validity error (xmllint exit 3), got exit $rc" >&2
  fi
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
