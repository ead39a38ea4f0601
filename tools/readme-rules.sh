#!/bin/sh
# Rewrites README.md's rule list, the block between <!-- rules:begin --> and
# <!-- rules:end -->, from the rule table (`qbank rules --format markdown`).
# Usage: tools/readme-rules.sh [--check]
#   --check   change nothing; exit 1 (with the difference) when the block is stale
# Environment: QBANK (default build/qbank), README (default README.md).
set -eu
QBANK=${QBANK:-build/qbank}
README=${README:-README.md}
mode=${1:-}

tmp=$(mktemp)
trap 'rm -f "$tmp" "$tmp.new"' EXIT INT TERM
"$QBANK" rules --format markdown >"$tmp"

if ! awk -v gen="$tmp" '
	/^<!-- rules:begin -->$/ { print; while ((getline l < gen) > 0) print l; inside = 1; begins++; next }
	/^<!-- rules:end -->$/   { inside = 0; ends++ }
	!inside { print }
	END { if (begins != 1 || ends != 1 || inside) exit 3 }' "$README" >"$tmp.new"; then
	echo "readme-rules: $README needs exactly one <!-- rules:begin --> ... <!-- rules:end --> block" >&2
	exit 2
fi

if cmp -s "$README" "$tmp.new"; then
	exit 0
fi
if [ "$mode" = --check ]; then
	echo "readme-rules: the rule list in $README is stale; run 'make readme-rules'" >&2
	diff -u "$README" "$tmp.new" >&2 || true
	exit 1
fi
cat "$tmp.new" >"$README"
echo "readme-rules: updated $README" >&2
