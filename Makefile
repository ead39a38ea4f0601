# qbank: one non-recursive Makefile.
#
#   make              set up (Debian packages), build, lint bank/, export everything
#   make test         set up, build, run the whole test suite
#   make test SANITIZE=1   the same under AddressSanitizer + UndefinedBehaviorSanitizer
#   make test TSAN=1       the same under ThreadSanitizer (the reader, QTI zip, output and import threads)
#   make test TESTS=cli    only the cases and suites below tests/cli (tests/README.md)
#   make test-update  rewrite the expected files of the cases from their output
#   make install      set up the build job only (no TeX), install qbank and its man page
#   make V=1          show the commands
#
# The public targets first run tools/setup.sh with the jobs they need
# (quick when nothing is missing): build for building, linting and
# installing; print for the PDFs; test for the test suite (with what its
# PDF tests need); hardening for fuzz, check-static and valgrind. Then they
# call this Makefile again for the real work, so that pkg-config is asked
# only once the packages are there.

CC      ?= cc
CFLAGS  ?= -O2 -g
WERROR  ?= -Werror
SANITIZE ?=
TSAN    ?=
PREFIX  ?= /usr/local
DESTDIR ?=

# BUILD is where products go; give each concurrent build its own (BUILD=build/x).
ifeq ($(SANITIZE),1)
BUILD   ?= build/sanitize
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
# leaks count as failures (LeakSanitizer, also in Check's forked tests);
# stack traces for UBSan; the caller's own settings win
export ASAN_OPTIONS ?= detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1
export UBSAN_OPTIONS ?= print_stacktrace=1:halt_on_error=1
else ifeq ($(TSAN),1)
BUILD   ?= build/tsan
SANFLAGS := -fsanitize=thread -fno-omit-frame-pointer
# a data race fails the run (its report goes to standard error, which the
# cli cases compare too); the caller's own settings win
export TSAN_OPTIONS ?= halt_on_error=1:exitcode=66:second_deadlock_stack=1
# code under ThreadSanitizer runs 5-15 times slower: Check's per-test
# timeouts grow to match
export CK_TIMEOUT_MULTIPLIER ?= 10
else
BUILD   ?= build
SANFLAGS :=
endif

PKGS      := libxml-2.0 libpcre2-8 libutf8proc libarchive libgit2
# The qbank binary uses jemalloc instead of glibc's malloc: parsing
# allocates and frees every node of every question, and with two threads
# jemalloc made lint 6-11 % and the exports about 10 % faster at 100,000
# questions than glibc's allocator (measured A/B: README.md at b7f7d43). Not
# with the sanitizers, which bring their own allocator; ALLOC_LIBS= turns
# it off (e.g. for a ThreadSanitizer build).
ifneq ($(filter 1,$(SANITIZE) $(TSAN)),)
ALLOC_LIBS ?=
else
ALLOC_LIBS ?= -ljemalloc
endif

ifeq ($(QB_INNER),1)
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS))
PKG_LIBS   := $(shell pkg-config --libs $(PKGS)) -lm -pthread
CHECK_CFLAGS := $(shell pkg-config --cflags check)
CHECK_LIBS   := $(shell pkg-config --libs check)
endif

QB_CFLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -Wall -Wextra $(WERROR) \
	-MMD -MP $(PKG_CFLAGS) $(SANFLAGS)
QB_LDFLAGS := $(SANFLAGS)

ifeq ($(V),1)
Q :=
else
Q := @
endif

# ---- sources (explicit lists, one per line, sorted) -------------------------

LIB_SRCS := \
	tools/lib/atomic.c \
	tools/lib/config.c \
	tools/lib/core/arena.c \
	tools/lib/core/array.c \
	tools/lib/core/behind.c \
	tools/lib/core/bigmem.c \
	tools/lib/core/buf.c \
	tools/lib/core/cores.c \
	tools/lib/core/map.c \
	tools/lib/diag.c \
	tools/lib/diff.c \
	tools/lib/diff_question.c \
	tools/lib/diff_words.c \
	tools/lib/error.c \
	tools/lib/export.c \
	tools/lib/fcopy.c \
	tools/lib/exporters/export_canvas.c \
	tools/lib/exporters/export_gift.c \
	tools/lib/exporters/export_html.c \
	tools/lib/exporters/export_markdown.c \
	tools/lib/exporters/export_moodle.c \
	tools/lib/exporters/export_pandoc.c \
	tools/lib/exporters/export_qti21.c \
	tools/lib/exporters/md_item.c \
	tools/lib/exporters/md_labels.c \
	tools/lib/exporters/md_rand.c \
	tools/lib/exporters/md_text.c \
	tools/lib/exporters/moodle_write.c \
	tools/lib/exporters/qti_item.c \
	tools/lib/exporters/qti_util.c \
	tools/lib/exporters/qti_v3.c \
	tools/lib/exporters/qti_zip.c \
	tools/lib/exporters/target.c \
	tools/lib/gitrev.c \
	tools/lib/imgpath.c \
	tools/lib/import.c \
	tools/lib/importers/aiken.c \
	tools/lib/importers/gift.c \
	tools/lib/importers/html_rich.c \
	tools/lib/importers/md_rich.c \
	tools/lib/importers/importers.c \
	tools/lib/importers/moodle.c \
	tools/lib/lint.c \
	tools/lib/mathml.c \
	tools/lib/model.c \
	tools/lib/moodle_grades.c \
	tools/lib/paths.c \
	tools/lib/pipeline.c \
	tools/lib/reader.c \
	tools/lib/richtext.c \
	tools/lib/rules.c \
	tools/lib/rules/rule_common.c \
	tools/lib/rules/rule_coverage.c \
	tools/lib/rules/rule_cues.c \
	tools/lib/rules/rule_digest.c \
	tools/lib/rules/rule_img.c \
	tools/lib/rules/rule_keys.c \
	tools/lib/rules/rule_options.c \
	tools/lib/rules/rule_shape.c \
	tools/lib/rules/rule_stem.c \
	tools/lib/rules/rule_user.c \
	tools/lib/run.c \
	tools/lib/schema.c \
	tools/lib/stats.c \
	tools/lib/tempfile.c \
	tools/lib/text.c \
	tools/lib/xmlnode.c \
	tools/lib/xmlw.c

CLI_SRCS := \
	tools/cli/cli_common.c \
	tools/cli/cmd_diff.c \
	tools/cli/cmd_export.c \
	tools/cli/cmd_import.c \
	tools/cli/cmd_lint.c \
	tools/cli/cmd_new.c \
	tools/cli/cmd_rules.c \
	tools/cli/cmd_stats.c \
	tools/cli/commands.c \
	tools/cli/fmt_diff.c \
	tools/cli/fmt_diff_json.c \
	tools/cli/fmt_diff_markdown.c \
	tools/cli/fmt_diff_text.c \
	tools/cli/fmt_gcc.c \
	tools/cli/fmt_github.c \
	tools/cli/fmt_json.c \
	tools/cli/fmt_junit.c \
	tools/cli/fmt_sarif.c \
	tools/cli/format.c \
	tools/cli/json_writer.c \
	tools/cli/main.c \
	tools/cli/opts.c \
	tools/cli/progress.c

UNIT_SRCS := \
	tests/unit/check_config.c \
	tests/unit/check_core.c \
	tests/unit/check_diff.c \
	tests/unit/check_imgpath.c \
	tests/unit/check_import.c \
	tests/unit/check_main.c \
	tests/unit/check_markdown.c \
	tests/unit/check_moodle.c \
	tests/unit/check_qti.c \
	tests/unit/check_reader.c \
	tests/unit/check_rules.c \
	tests/unit/check_stats.c \
	tests/unit/check_tables.c \
	tests/unit/check_tempfile.c \
	tests/unit/check_text.c \
	tests/unit/moodle_rules.c

# compiled-in files (tools/embed.sh): the schema, the HTML page's assets,
# the DOCX reference document
GEN_NAMES := qbank_xsd html_css html_js katex_js reference_docx
GEN_OBJS  := $(GEN_NAMES:%=$(BUILD)/obj/gen/%.o)
LIB_OBJS  := $(LIB_SRCS:%.c=$(BUILD)/obj/%.o) $(GEN_OBJS)
CLI_OBJS  := $(CLI_SRCS:%.c=$(BUILD)/obj/%.o) $(BUILD)/obj/gen/starter_xml.o
UNIT_OBJS := $(UNIT_SRCS:%.c=$(BUILD)/obj/%.o)
# the unit tests also see the command line's tables (everything but main)
CLI_LIB_OBJS := $(filter-out $(BUILD)/obj/tools/cli/main.o,$(CLI_OBJS))

QBANK     := $(BUILD)/qbank
LIBQBANK  := $(BUILD)/libqbank.a
UNIT      := $(BUILD)/check_unit

BANKS     := $(sort $(wildcard bank/*.xml))
BANK_NAMES := $(notdir $(BANKS:.xml=))

export QBANK_CONFORMANCE_DIR ?= $(abspath ../shared/conformance)

# ---- public targets ---------------------------------------------------------

.PHONY: all build test test-update setup lint-bank export clean golden-update

all:
	$(Q)tools/setup.sh build print
	$(Q)$(MAKE) --no-print-directory QB_INNER=1 _all

build:
	$(Q)tools/setup.sh build
	$(Q)$(MAKE) --no-print-directory QB_INNER=1 _build

test:
	$(Q)tools/setup.sh build test
	$(Q)$(MAKE) --no-print-directory QB_INNER=1 _test

# rewrites the expected files of the test cases (TESTS= selects some; review the diff)
test-update:
	$(Q)tools/setup.sh build test
	$(Q)$(MAKE) --no-print-directory QB_INNER=1 _test_update

golden-update: test-update

# every job but hardening (tools/setup.sh without a job)
setup:
	$(Q)tools/setup.sh

clean:
	rm -rf build

# ---- inner targets (packages present) --------------------------------------

.PHONY: _all _build _test _test_update _lint_bank _export

_build: $(QBANK)

_all: $(QBANK) $(BUILD)/qbank.1 _lint_bank _export

# The project's bank stays at 0 errors, 0 warnings and full coverage.
_lint_bank: $(QBANK)
	@echo "  LINT    bank/"
	$(Q)$(QBANK) lint --no-config --max-warnings 0 --min-explanation-coverage 100 \
		--min-rationale-coverage 100 bank/

_export: $(QBANK) _lint_bank $(BANK_NAMES:%=$(BUILD)/moodle/%.xml) $(BANK_NAMES:%=$(BUILD)/gift/%.gift.txt) \
	$(BANK_NAMES:%=$(BUILD)/qti/%.zip) $(BANK_NAMES:%=$(BUILD)/qti30/%.zip) $(BANK_NAMES:%=$(BUILD)/canvas/%.zip) \
	$(BANK_NAMES:%=$(BUILD)/html/%.html) _pdf

$(BUILD)/moodle/%.xml: bank/%.xml $(QBANK)
	@mkdir -p $(@D)
	@echo "  EXPORT  $@"
	$(Q)$(QBANK) export --to moodle -o $@ $<

$(BUILD)/gift/%.gift.txt: bank/%.xml $(QBANK)
	@mkdir -p $(@D)
	@echo "  EXPORT  $@"
	$(Q)$(QBANK) export --to gift -o $@ $<
$(BUILD)/html/%.html: bank/%.xml $(QBANK)
	@mkdir -p $(@D)
	@echo "  EXPORT  $@"
	$(Q)$(QBANK) export --to html -o $@ $<

$(BUILD)/qti/%.zip: bank/%.xml $(QBANK)
	@mkdir -p $(@D)
	@echo "  EXPORT  $@"
	$(Q)$(QBANK) export --to qti21 -o $@ $<

$(BUILD)/canvas/%.zip: bank/%.xml $(QBANK)
	@mkdir -p $(@D)
	@echo "  EXPORT  $@"
	$(Q)$(QBANK) export --to canvas -o $@ $<
$(BUILD)/qti30/%.zip: bank/%.xml $(QBANK)
	@mkdir -p $(@D)
	@echo "  EXPORT  $@"
	$(Q)$(QBANK) export --to qti30 -o $@ $<

# tests/run.sh runs the cases and suites (TESTS= selects some, as its
# arguments do; tests/README.md), then the Check unit tests close the run
# with their summary line; any failure fails the target.
TESTS ?=

_test: $(QBANK) $(UNIT) check-includes
	$(Q)QBANK=$(QBANK) BUILD=$(BUILD) tests/run.sh $(TESTS); s=$$?; \
	if [ -z "$(TESTS)" ]; then $(UNIT) || s=1; fi; exit $$s

_test_update: $(QBANK) $(QTI_CHECK)
	$(Q)QBANK=$(QBANK) BUILD=$(BUILD) tests/run.sh --update $(TESTS)

# The floors of tools/ (tools/README.md "Floors"): no #include points up a
# floor or makes a circle, no rule id is written as a string outside the
# rule table. POSIX sh and awk, a fraction of a second: make test and make
# check-static both run it.
.PHONY: check-includes
check-includes:
	@echo "  FLOORS  tools/"
	$(Q)tools/check-includes.sh

# ---- building ---------------------------------------------------------------

$(BUILD)/gen/qbank_xsd.c: schema/qbank.xsd tools/embed.sh
	@mkdir -p $(@D)
	$(Q)tools/embed.sh qb_schema_xsd $< > $@.tmp && mv $@.tmp $@

# The page's script and style sheet go into <script> and <style> as they
# are (HTML reads those as raw text): none may hold "</script" or
# "</style", which would end the element early.
KATEX_JS ?= /usr/share/javascript/katex/katex.min.js

$(BUILD)/gen/html_css.c: tools/lib/exporters/html/page.css tools/embed.sh
	@mkdir -p $(@D)
	$(Q)! grep -qi '</style' $< && tools/embed.sh qb_html_css $< > $@.tmp && mv $@.tmp $@

$(BUILD)/gen/html_js.c: tools/lib/exporters/html/page.js tools/embed.sh
	@mkdir -p $(@D)
	$(Q)! grep -qi '</script\|<!--' $< && tools/embed.sh qb_html_js $< > $@.tmp && mv $@.tmp $@

$(BUILD)/gen/katex_js.c: $(KATEX_JS) tools/embed.sh
	@mkdir -p $(@D)
	$(Q)! grep -qi '</script\|<!--' $< && tools/embed.sh qb_katex_js $< > $@.tmp && mv $@.tmp $@

$(BUILD)/obj/gen/%.o: $(BUILD)/gen/%.c
	@mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) $(QB_CFLAGS) -c -o $@ $<

# The DOCX reference document of --to docx: pandoc's own, with the page
# and fonts of the PDF (tools/docx_reference.c says what changes), embedded
# in qbank so that an export finds it from any folder.
$(BUILD)/docx_reference: $(BUILD)/obj/tools/docx_reference.o
	@echo "  LD      $@"
	$(Q)$(CC) $(CFLAGS) $(QB_LDFLAGS) -o $@ $< $(PKG_LIBS)

$(BUILD)/gen/reference.docx: $(BUILD)/docx_reference
	@mkdir -p $(@D)
	@echo "  GEN     $@"
	$(Q)pandoc -o $@.in --print-default-data-file reference.docx && \
		$(BUILD)/docx_reference $@.in $@.tmp && rm -f $@.in && mv $@.tmp $@

$(BUILD)/gen/reference_docx.c: $(BUILD)/gen/reference.docx tools/embed.sh
	$(Q)tools/embed.sh qb_reference_docx $< > $@.tmp && mv $@.tmp $@

$(BUILD)/obj/tests/%.o: tests/%.c
	@mkdir -p $(@D)
	@echo "  CC      $<"
	$(Q)$(CC) $(CFLAGS) $(QB_CFLAGS) $(CHECK_CFLAGS) -c -o $@ $<

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(@D)
	@echo "  CC      $<"
	$(Q)$(CC) $(CFLAGS) $(QB_CFLAGS) -c -o $@ $<

$(LIBQBANK): $(LIB_OBJS)
	@echo "  AR      $@"
	$(Q)rm -f $@ && ar rcs $@ $^

$(QBANK): $(CLI_OBJS) $(LIBQBANK)
	@echo "  LD      $@"
	$(Q)$(CC) $(CFLAGS) $(QB_LDFLAGS) -o $@ $(CLI_OBJS) $(LIBQBANK) $(PKG_LIBS) $(ALLOC_LIBS)

$(UNIT): $(UNIT_OBJS) $(CLI_LIB_OBJS) $(LIBQBANK)
	@echo "  LD      $@"
	$(Q)$(CC) $(CFLAGS) $(QB_LDFLAGS) -o $@ $(UNIT_OBJS) $(CLI_LIB_OBJS) $(LIBQBANK) \
		$(PKG_LIBS) $(CHECK_LIBS)

-include $(LIB_OBJS:.o=.d) $(CLI_OBJS:.o=.d) $(UNIT_OBJS:.o=.d)

# ---- QTI 2.1 package checker (tests/export/qti21) --------------------------
#
# The suite tests/export/qti21/suite uses $(BUILD)/qti_check to unpack
# exported packages, validate them against the official schemas in
# QBANK_CONFORMANCE_DIR and compare every item's key with the bank; the
# case tests/golden/export/qti21/two-files unpacks its package with it.

QTI_CHECK := $(BUILD)/qti_check

_test: $(QTI_CHECK)

$(QTI_CHECK): $(BUILD)/obj/tests/export/qti21/qti_check.o $(LIBQBANK)
	@echo "  LD      $@"
	$(Q)$(CC) $(CFLAGS) $(QB_LDFLAGS) -o $@ $< $(LIBQBANK) $(PKG_LIBS)

-include $(BUILD)/obj/tests/export/qti21/qti_check.d

# ---- the gate's property test (tests/gate/suite) ---------------------------
#
# $(BUILD)/gate_check generates random banks and checks, through the library,
# that every bank that lints clean exports to every target with the bank's
# keys (tests/gate/gate_check.c).

GATE_CHECK := $(BUILD)/gate_check

_test: $(GATE_CHECK)

$(GATE_CHECK): $(BUILD)/obj/tests/gate/gate_check.o $(LIBQBANK)
	@echo "  LD      $@"
	$(Q)$(CC) $(CFLAGS) $(QB_LDFLAGS) -o $@ $< $(LIBQBANK) $(PKG_LIBS)

-include $(BUILD)/obj/tests/gate/gate_check.d

# ---- printable exams (make pdf; see tools/lib/exporters/README.md) --------
#
# For every bank/<name>.xml, in $(BUILD)/print/, written by qbank itself
# (--to pdf and --to docx run pandoc and XeLaTeX, the forms in parallel):
#   <name>.pdf, <name>.docx                  the student version
#   <name>-answers.pdf                       the teacher's version: keys, rationales, key table
#   <name>-form-A.pdf, -form-B.pdf           two shuffled forms (seed PDF_SEED), each
#                                            with its answer sheet
#   <name>-form-key.pdf                      each form's key and filled answer sheet
# SOURCE_DATE_EPOCH (qbank's default: 0) keeps the files' dates fixed.
# `make` builds them too (the _export target).

PRINT     := $(BUILD)/print
PDF_SEED  ?= 1
PDFS := $(foreach b,$(BANK_NAMES),$(addprefix $(PRINT)/$(b),.pdf .docx -answers.pdf -form-A.pdf))

.PHONY: pdf _pdf

pdf:
	$(Q)tools/setup.sh build print
	$(Q)$(MAKE) --no-print-directory QB_INNER=1 _pdf

_pdf: $(PDFS)

$(PRINT)/%.pdf: bank/%.xml $(QBANK)
	@mkdir -p $(@D)
	@echo "  PDF     $@"
	$(Q)$(QBANK) export -q --to pdf -o $@ $<

$(PRINT)/%.docx: bank/%.xml $(QBANK)
	@mkdir -p $(@D)
	@echo "  DOCX    $@"
	$(Q)$(QBANK) export -q --to docx -o $@ $<

$(PRINT)/%-answers.pdf: bank/%.xml $(QBANK)
	@mkdir -p $(@D)
	@echo "  PDF     $@"
	$(Q)$(QBANK) export -q --to pdf --answers -o $@ $<

# one run prints both forms and their key (three pandoc jobs side by side)
$(PRINT)/%-form-A.pdf: bank/%.xml $(QBANK)
	@mkdir -p $(@D)
	@echo "  PDF     $(PRINT)/$*-form-{A,B,key}.pdf"
	$(Q)$(QBANK) export -q --to pdf --forms 2 --seed $(PDF_SEED) -o $(PRINT)/$*-form.pdf $<

# ---- benchmark (not installed; see tools/bench/README.md) ------------------
#
#   make bench                      100,000 questions
#   make bench BENCH_N=1000000      a million (about 2 GB of XML)
#   make bench BENCH_RUNS=1         one run per step instead of the best of 3
#   make bench BENCH_DOM_RUNS=1     one run of the DOM step (it needs ~5x the file in RAM)
#
# Builds qbank, the bank generator (tools/bench/gen.c), the timing wrapper
# (tools/bench/rusage.c) and the cores' probe (tools/bench/cores.c),
# generates $(BENCH_DIR)/bank-N.xml once (seeded: the same N gives the same
# file) and runs tools/bench/bench.sh, which prints a
# Markdown table of wall time, ratio to xmllint --stream and peak RSS.
# Exports are written into $(BENCH_DIR) and deleted after each run.

BENCH_N    ?= 100000
BENCH_RUNS ?= 3
BENCH_DOM_RUNS ?= $(BENCH_RUNS)
BENCH_DIR  ?= build/bench
BENCH_GEN  := $(BUILD)/bench-tools/qbank-gen
BENCH_RUSAGE := $(BUILD)/bench-tools/qbank-rusage
BENCH_CORES := $(BUILD)/bench-tools/qbank-cores

.PHONY: bench _bench

bench:
	$(Q)tools/setup.sh build
	$(Q)$(MAKE) --no-print-directory QB_INNER=1 _bench

BENCH_FILES := $(BENCH_DIR)/bank-$(BENCH_N).xml $(BENCH_DIR)/bank-text-$(BENCH_N).xml

_bench: $(QBANK) $(BENCH_GEN) $(BENCH_RUSAGE) $(BENCH_CORES) $(BENCH_FILES)
	$(Q)QBANK=$(QBANK) RUSAGE=$(BENCH_RUSAGE) CORES=$(BENCH_CORES) RUNS=$(BENCH_RUNS) DOM_RUNS=$(BENCH_DOM_RUNS) OUT=$(BENCH_DIR) \
		tools/bench/bench.sh $(BENCH_FILES)

# the two shapes: markup-heavy (the original benchmark bank) and plain text
$(BENCH_DIR)/bank-text-%.xml: $(BENCH_GEN)
	@mkdir -p $(@D)
	@echo "  GEN     $@"
	$(Q)$(BENCH_GEN) -p text -n $* -o $@.tmp && mv $@.tmp $@

$(BENCH_DIR)/bank-%.xml: $(BENCH_GEN)
	@mkdir -p $(@D)
	@echo "  GEN     $@"
	$(Q)$(BENCH_GEN) -n $* -o $@.tmp && mv $@.tmp $@

# tests/hostile/signals/suite interrupts exports of a generated bank
_test: $(BENCH_GEN)

$(BENCH_GEN): $(BUILD)/obj/tools/bench/gen.o
	@echo "  LD      $@"
	@mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) $(QB_LDFLAGS) -o $@ $< $(PKG_LIBS)

$(BENCH_RUSAGE): $(BUILD)/obj/tools/bench/rusage.o
	@echo "  LD      $@"
	@mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) $(QB_LDFLAGS) -o $@ $<

$(BENCH_CORES): $(BUILD)/obj/tools/bench/cores.o $(BUILD)/obj/tools/lib/core/cores.o \
		$(BUILD)/obj/tools/lib/core/behind.o
	@echo "  LD      $@"
	@mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) $(QB_LDFLAGS) -o $@ $^ -pthread

# ---- hardening: fuzzing, static analysis, valgrind --------------------------
#
#   make fuzz FUZZ_SECONDS=60   replays tests/fuzz/regressions/, then runs each
#                               libFuzzer harness (reader, moodle, qti21,
#                               markdown, import-moodle, import-gift,
#                               import-aiken) in turn; corpus in $(BUILD)/fuzz/corpus
#   make check-static           the include floors (tools/check-includes.sh), then
#                               cppcheck and clang-tidy over tools/ (.clang-tidy)
#   make valgrind               the cases and the hostile suite (tests/run.sh
#                               tests/cli tests/golden tests/hostile) and the
#                               unit tests, under valgrind memcheck
#
# The harnesses need clang with compiler-rt (libFuzzer, ASan, UBSan); the
# library is compiled again with clang into $(BUILD)/fuzz. These targets
# install their own tools (tools/setup.sh hardening).

FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= reader moodle qti21 markdown gift import-moodle import-gift import-aiken
FUZZ_DIR     := $(BUILD)/fuzz
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
# no -Werror here: the warnings gate is the gcc build; clang may warn differently
FUZZ_CFLAGS  := -g -O1 -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -Wall -Wextra \
	-MMD -MP $(PKG_CFLAGS) $(FUZZ_SAN) -fsanitize=fuzzer-no-link
FUZZ_LIB_OBJS := $(LIB_SRCS:%.c=$(FUZZ_DIR)/obj/%.o) $(GEN_NAMES:%=$(FUZZ_DIR)/obj/gen/%.o)
FUZZ_BINS    := $(FUZZ_TARGETS:%=$(FUZZ_DIR)/fuzz-%)

.PHONY: fuzz _fuzz _fuzz_build check-static _check_static valgrind _valgrind

fuzz:
	$(Q)tools/setup.sh build hardening
	$(Q)$(MAKE) --no-print-directory QB_INNER=1 _fuzz

_fuzz: _fuzz_build
	$(Q)tests/fuzz/run.sh $(FUZZ_DIR) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

_fuzz_build: $(FUZZ_BINS)

# the compiled-in files, as for the library (GEN_NAMES)
$(FUZZ_DIR)/obj/gen/%.o: $(BUILD)/gen/%.c
	@mkdir -p $(@D)
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -c -o $@ $<

$(FUZZ_DIR)/obj/%.o: %.c
	@mkdir -p $(@D)
	@echo "  FUZZCC  $<"
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -c -o $@ $<

$(FUZZ_DIR)/fuzz-reader: $(FUZZ_DIR)/obj/tests/fuzz/fuzz_reader.o $(FUZZ_LIB_OBJS)
	@echo "  LD      $@"
	$(Q)$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $^ $(PKG_LIBS)

$(FUZZ_DIR)/obj/tests/fuzz/fuzz_export_%.o: tests/fuzz/fuzz_export.c
	@mkdir -p $(@D)
	@echo "  FUZZCC  $< ($*)"
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -DFUZZ_EXPORTER='"$*"' -c -o $@ $<

$(FUZZ_DIR)/obj/tests/fuzz/fuzz_import_%.o: tests/fuzz/fuzz_import.c
	@mkdir -p $(@D)
	@echo "  FUZZCC  $< ($*)"
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -DFUZZ_IMPORTER='"$*"' -c -o $@ $<

$(FUZZ_DIR)/fuzz-import-%: $(FUZZ_DIR)/obj/tests/fuzz/fuzz_import_%.o $(FUZZ_LIB_OBJS)
	@echo "  LD      $@"
	$(Q)$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $^ $(PKG_LIBS)

$(FUZZ_DIR)/fuzz-%: $(FUZZ_DIR)/obj/tests/fuzz/fuzz_export_%.o $(FUZZ_LIB_OBJS)
	@echo "  LD      $@"
	$(Q)$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $^ $(PKG_LIBS)

# dependency files are made by the compiler, never by a rule: without this,
# make would try to remake fuzz_export_moodle.d from fuzz_export_moodle.d.o
$(FUZZ_DIR)/obj/%.d: ;
-include $(FUZZ_LIB_OBJS:.o=.d) $(FUZZ_DIR)/obj/tests/fuzz/*.d

valgrind:
	$(Q)tools/setup.sh build test hardening
	$(Q)$(MAKE) --no-print-directory QB_INNER=1 _valgrind

_valgrind: $(QBANK) $(UNIT) $(QTI_CHECK)
	$(Q)QBANK=$(QBANK) UNIT=$(UNIT) BUILD=$(BUILD) tests/valgrind.sh

# Static analysis: cppcheck (warnings, portability, performance) and
# clang-tidy with the checks listed and justified in tools/.clang-tidy.
STATIC_SRCS := $(LIB_SRCS) $(CLI_SRCS) tests/fuzz/fuzz_reader.c tests/fuzz/fuzz_export.c
STATIC_DEFS := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -DFUZZ_EXPORTER='"moodle"'

check-static:
	$(Q)tools/setup.sh build test hardening
	$(Q)$(MAKE) --no-print-directory QB_INNER=1 _check_static

_check_static: check-includes
	@echo "  CPPCHECK tools/"
	$(Q)cppcheck --quiet --std=c11 --language=c --enable=warning,portability,performance \
		--inline-suppr --suppressions-list=tools/cppcheck.supp --error-exitcode=1 -j2 \
		-I tools/lib -I tools/cli -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -DFUZZ_EXPORTER='"moodle"' \
		$(STATIC_SRCS)
	@echo "  TIDY    tools/"
	@# one file per run: clang-tidy 14 carries analyzer state from one file
	@# to the next (a false valist.Uninitialized in the second file)
	$(Q)printf '%s\n' $(STATIC_SRCS) | xargs -P2 -I{} clang-tidy --quiet \
		--config-file=tools/.clang-tidy --warnings-as-errors='*' {} -- $(STATIC_DEFS) \
		$(PKG_CFLAGS) $(CHECK_CFLAGS) 2>/dev/null

# ---- install: binary, man page, schema, bash completion ---------------------
#
#   make install PREFIX=/usr/local DESTDIR=/tmp/stage   (DESTDIR: staging root)
#   make uninstall PREFIX=/usr/local DESTDIR=/tmp/stage
#   make man                                            $(BUILD)/qbank.1 only
#
# The man page has one source, tools/cli/qbank.1.md, turned into roff by
# pandoc at build time; its footer carries the version from
# tools/lib/version.h, the one place the version is written. Installed:
#   $(BINDIR)/qbank
#   $(MANDIR)/man1/qbank.1
#   $(DATADIR)/qbank.xsd and README.md        the bank format, for editors
#   $(BASHCOMPDIR)/qbank                      bash completion
# `qbank new` finds the installed schema next to the binary (../share/qbank).
# uninstall removes exactly these files, and $(DATADIR) once it is empty.

BINDIR      ?= $(PREFIX)/bin
MANDIR      ?= $(PREFIX)/share/man
DATADIR     ?= $(PREFIX)/share/qbank
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
INSTALL     ?= install
MANPAGE     := $(BUILD)/qbank.1
QB_VERSION_STR = $(shell sed -n 's/^\#define QB_VERSION "\(.*\)"$$/\1/p' tools/lib/version.h)

.PHONY: install uninstall man _install _man

install:
	$(Q)tools/setup.sh build
	$(Q)$(MAKE) --no-print-directory QB_INNER=1 _install

man:
	$(Q)tools/setup.sh build
	$(Q)$(MAKE) --no-print-directory QB_INNER=1 _man

_man: $(MANPAGE)

$(MANPAGE): tools/cli/qbank.1.md tools/lib/version.h
	@mkdir -p $(@D)
	@echo "  PANDOC  $@"
	$(Q)pandoc -s -f markdown -t man -M footer="qbank $(QB_VERSION_STR)" -o $@.tmp $< && mv $@.tmp $@

_install: $(QBANK) $(MANPAGE)
	@echo "  INSTALL $(DESTDIR)$(PREFIX)"
	$(Q)$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(DATADIR) \
		$(DESTDIR)$(BASHCOMPDIR)
	$(Q)$(INSTALL) -m 755 $(QBANK) $(DESTDIR)$(BINDIR)/qbank
	$(Q)$(INSTALL) -m 644 $(MANPAGE) $(DESTDIR)$(MANDIR)/man1/qbank.1
	$(Q)$(INSTALL) -m 644 schema/qbank.xsd schema/README.md $(DESTDIR)$(DATADIR)/
	$(Q)$(INSTALL) -m 644 tools/cli/qbank.bash $(DESTDIR)$(BASHCOMPDIR)/qbank

uninstall:
	@echo "  UNINSTALL $(DESTDIR)$(PREFIX)"
	$(Q)rm -f $(DESTDIR)$(BINDIR)/qbank $(DESTDIR)$(MANDIR)/man1/qbank.1 \
		$(DESTDIR)$(DATADIR)/qbank.xsd $(DESTDIR)$(DATADIR)/README.md \
		$(DESTDIR)$(BASHCOMPDIR)/qbank
	$(Q)if [ -d $(DESTDIR)$(DATADIR) ]; then rmdir $(DESTDIR)$(DATADIR) 2>/dev/null || \
		echo "  kept $(DESTDIR)$(DATADIR): it holds other files"; fi

# the starter bank of `qbank new`, embedded like the schema
$(BUILD)/gen/starter_xml.c: tools/cli/starter.xml tools/embed.sh
	@mkdir -p $(@D)
	$(Q)tools/embed.sh qb_starter_xml $< > $@.tmp && mv $@.tmp $@

$(BUILD)/obj/gen/starter_xml.o: $(BUILD)/gen/starter_xml.c
	@mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) $(QB_CFLAGS) -c -o $@ $<

# ---- README rule list and command-line test goldens ---------------------------
#
#   make readme-rules   rewrites README.md's rule list (between <!-- rules:begin -->
#                       and <!-- rules:end -->) from the rule table; the command-line
#                       case tests/cli/readme-rules fails when it is stale
#   make cli-update     the same as make test-update (the cases of tests/cli/ are
#                       cases like any other)

.PHONY: readme-rules _readme_rules cli-update

readme-rules:
	$(Q)tools/setup.sh build
	$(Q)$(MAKE) --no-print-directory QB_INNER=1 _readme_rules

_readme_rules: $(QBANK)
	$(Q)QBANK=$(QBANK) tools/readme-rules.sh

cli-update: test-update
