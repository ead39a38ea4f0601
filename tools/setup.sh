#!/bin/sh
# Installs the Debian packages qbank needs to build, test and export.
# Quick when everything is present: one dpkg-query call, no network.
# Usage: tools/setup.sh [--check]   (--check: report what is missing, install nothing)
#        tools/setup.sh hardening   the tools of make fuzz, check-static and valgrind
set -eu

PACKAGES="
pkg-config
libxml2-dev
libxml2-utils
libpcre2-dev
libutf8proc-dev
libarchive-dev
libgit2-dev
libjemalloc-dev
check
pandoc
texlive-xetex
texlive-latex-recommended
texlive-fonts-recommended
lmodern
fonts-dejavu-core
fonts-dejavu-extra
fonts-symbola
fonts-wqy-microhei
poppler-utils
jq
git
pre-commit
man-db
time
unzip
"
if [ "${1:-}" = "hardening" ]; then
  PACKAGES="clang libclang-rt-dev cppcheck clang-tidy valgrind strace"
  shift
fi

missing=""
for p in $PACKAGES; do
  status=$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null || true)
  case "$status" in
    ii*) ;;
    *) missing="$missing $p" ;;
  esac
done

[ -z "$missing" ] && exit 0

if [ "${1:-}" = "--check" ]; then
  echo "missing packages:$missing"
  exit 1
fi

echo "qbank set-up: installing$missing" >&2
if [ "$(id -u)" -eq 0 ]; then
  run=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  run="sudo"
else
  echo "qbank set-up: cannot install$missing: not root and sudo is not available without a password." >&2
  echo "  Install them yourself: sudo apt-get install$missing" >&2
  exit 1
fi

export DEBIAN_FRONTEND=noninteractive
$run apt-get update -qq >&2 || {
  echo "qbank set-up: apt-get update failed; check the network or your apt sources." >&2
  exit 1
}
# shellcheck disable=SC2086
$run apt-get install -y -qq --no-install-recommends $missing >&2 || {
  echo "qbank set-up: apt-get install failed for:$missing" >&2
  exit 1
}
