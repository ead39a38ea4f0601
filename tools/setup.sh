#!/bin/sh
# Installs the Debian packages of the jobs asked for, and nothing else.
# Quick when everything is present: one dpkg-query call, no network.
#
# Usage: tools/setup.sh [--check] [JOB...]
#   build      build, lint and install qbank: compiler libraries, xmllint,
#              pandoc (the man page is made from Markdown at build time)
#   print      printable exams (make pdf): pandoc, XeLaTeX, fonts, pdftotext
#   test       the test suite (make test): Check, jq, unzip, pre-commit, ...
#              and what its PDF tests need, so that none of them is skipped
#   hardening  make fuzz, check-static and valgrind: clang, cppcheck, valgrind
#   --check    install nothing: list what is missing and exit 1, or exit 0
# The test job also puts Microsoft's SARIF Multitool (an npm package, a
# self-contained binary; pinned below) into $QBANK_TOOLS (default
# build/tools) for the SARIF validation case, and playwright-core and
# axe-core there for the HTML page's browser tests (with Debian's chromium);
# without npm or the network it says so and those cases are skipped.
# Without a JOB: build print test. The Makefile's targets ask for their own
# jobs (make: build print; make build, make install: build; make test:
# build test).
#
# apt waits up to $QBANK_LOCK_WAIT seconds (default 300) for a lock that
# another apt or dpkg holds (unattended-upgrades on a fresh machine) instead
# of failing at once.
set -eu

# build: what compiling, linking, linting and `make install` need
BUILD_PACKAGES="
pkg-config
libxml2-dev
libxml2-utils
libpcre2-dev
libutf8proc-dev
libarchive-dev
libgit2-dev
libjemalloc-dev
libxxhash-dev
libjs-katex
pandoc
"
# print: Markdown to PDF with XeLaTeX and the fonts of every script the
# exporter switches to (tools/lib/exporters/README.md)
PRINT_PACKAGES="
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
"
# test: unit tests (check), JSON and zip checks, the ecosystem tests (git,
# pre-commit, man), peak memory of the hostile inputs (time), the no-network
# check (strace); plus print and fc-list (fontconfig), for the PDF tests,
# which look up the CJK font; chromium for the HTML page's browser tests
TEST_PACKAGES="
check
chromium
jq
unzip
git
pre-commit
man-db
time
strace
fontconfig
$PRINT_PACKAGES
"
HARDENING_PACKAGES="
clang
libclang-rt-dev
cppcheck
clang-tidy
valgrind
strace
"

usage() {
	echo "usage: tools/setup.sh [--check] [build|print|test|hardening]..." >&2
	exit 2
}

check_only=0
jobs=""
for arg in "$@"; do
	case $arg in
	--check) check_only=1 ;;
	build | print | test | hardening) jobs="$jobs $arg" ;;
	*) usage ;;
	esac
done
[ -n "$jobs" ] || jobs="build print test"

wanted=""
for job in $jobs; do
	case $job in
	build) wanted="$wanted $BUILD_PACKAGES" ;;
	print) wanted="$wanted $PRINT_PACKAGES" ;;
	test) wanted="$wanted $TEST_PACKAGES" ;;
	hardening) wanted="$wanted $HARDENING_PACKAGES" ;;
	esac
done
# shellcheck disable=SC2086
wanted=$(printf '%s\n' $wanted | sort -u)

# npm_tools: the test job's tools from the npm registry, into $TOOLS_DIR:
# the SARIF Multitool, and playwright-core (drives the Debian chromium) with
# axe-core for the HTML page's browser tests (tests/export/html). All in one
# npm call, since npm removes from the folder what the call does not name.
# Never fatal: the case that needs one prints SKIP when it is absent.
SARIF_MULTITOOL_PKG="@microsoft/sarif-multitool-linux@5.7.0"
BROWSER_PKGS="playwright-core@1.65.1 axe-core@4.14.1"
TOOLS_DIR=${QBANK_TOOLS:-build/tools}
SARIF_MULTITOOL="$TOOLS_DIR/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool"
npm_tools() {
	[ -e "$SARIF_MULTITOOL" ] && [ -e "$TOOLS_DIR/node_modules/playwright-core/package.json" ] &&
		[ -e "$TOOLS_DIR/node_modules/axe-core/axe.min.js" ] && return 0
	if [ $check_only -eq 1 ]; then
		echo "missing npm packages: $SARIF_MULTITOOL_PKG $BROWSER_PKGS (into $TOOLS_DIR)"
		return 0
	fi
	if ! command -v npm >/dev/null 2>&1; then
		echo "qbank set-up: npm not found: the SARIF Multitool check and the browser tests will be skipped" >&2
		return 0
	fi
	echo "qbank set-up: installing $SARIF_MULTITOOL_PKG $BROWSER_PKGS into $TOOLS_DIR" >&2
	mkdir -p "$TOOLS_DIR"
	# --ignore-scripts: the Multitool's one install script is a chmod, done
	# here; the others have none that matters (playwright-core's would
	# download browsers: Debian's chromium is used instead)
	# shellcheck disable=SC2086
	if npm install --prefix "$TOOLS_DIR" --no-save --no-audit --no-fund --ignore-scripts \
		"$SARIF_MULTITOOL_PKG" $BROWSER_PKGS >/dev/null 2>&1; then
		chmod u+x "$SARIF_MULTITOOL"
	else
		echo "qbank set-up: npm could not install $SARIF_MULTITOOL_PKG $BROWSER_PKGS: the SARIF Multitool check and the browser tests will be skipped" >&2
	fi
}
case " $jobs " in
*" test "*) npm_tools ;;
esac

# One dpkg-query for all of them: it prints the packages dpkg knows (and
# complains on stderr about the others, which are missing too).
# shellcheck disable=SC2086
installed=$(dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' $wanted 2>/dev/null |
	awk '$1 ~ /^ii/ { print $2 }' | sort -u || true)
missing=""
for p in $wanted; do
	case "
$installed
" in
	*"
$p
"*) ;;
	*) missing="$missing $p" ;;
	esac
done

[ -z "$missing" ] && exit 0

if [ $check_only -eq 1 ]; then
	echo "missing packages:$missing"
	exit 1
fi

echo "qbank set-up (${jobs# }): installing$missing" >&2
if [ "$(id -u)" -eq 0 ]; then
	run=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
	run="sudo"
else
	echo "qbank set-up: cannot install$missing: not root and sudo is not available without a password." >&2
	echo "  Install them yourself: sudo apt-get install$missing" >&2
	exit 1
fi

LOCK_WAIT=${QBANK_LOCK_WAIT:-300}
err=$(mktemp "${TMPDIR:-/tmp}/qbank-setup.XXXXXX")
trap 'rm -f "$err"' EXIT INT TERM

# apt_get ARG...: apt-get, waiting for a lock held by another apt or dpkg.
# DPkg::Lock::Timeout makes apt wait for dpkg's own locks; the locks of the
# package lists (apt-get update) and of the download folder have no timeout
# in apt 2.6, so a run that fails on one of them is tried again every 5
# seconds until the same deadline.
apt_get() {
	deadline=$(($(date +%s) + LOCK_WAIT))
	said=0
	while :; do
		left=$((deadline - $(date +%s)))
		[ $left -gt 0 ] || left=1
		if $run env DEBIAN_FRONTEND=noninteractive \
			apt-get -o DPkg::Lock::Timeout=$left "$@" >&2 2>"$err"; then
			cat "$err" >&2
			return 0
		fi
		if grep -q 'Could not get lock' "$err" && [ "$(date +%s)" -lt "$deadline" ]; then
			if [ $said -eq 0 ]; then
				echo "qbank set-up: another package manager holds a lock; waiting up to ${LOCK_WAIT}s" >&2
				said=1
			fi
			sleep 5
			continue
		fi
		cat "$err" >&2
		return 1
	done
}

apt_get update -qq || {
	echo "qbank set-up: apt-get update failed; check the network or your apt sources." >&2
	exit 1
}
# shellcheck disable=SC2086
apt_get install -y -qq --no-install-recommends $missing || {
	echo "qbank set-up: apt-get install failed for:$missing" >&2
	exit 1
}
