# qbank: one non-recursive Makefile.
#
#   make              set up (Debian packages), build, lint bank/, export everything
#   make test         set up, build, run the whole test suite
#   make test SANITIZE=1   the same under AddressSanitizer + UndefinedBehaviorSanitizer
#   make V=1          show the commands
#
# The public targets first run tools/setup.sh (quick when nothing is
# missing), then call this Makefile again for the real work, so that
# pkg-config is asked only once the packages are there.

CC      ?= cc
CFLAGS  ?= -O2 -g
WERROR  ?= -Werror
SANITIZE ?=
PREFIX  ?= /usr/local
DESTDIR ?=

# BUILD is where products go; give each concurrent build its own (BUILD=build/x).
ifeq ($(SANITIZE),1)
BUILD   ?= build/sanitize
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
else
BUILD   ?= build
SANFLAGS :=
endif

PKGS      := libxml-2.0 libpcre2-8 libutf8proc libarchive
ifeq ($(QB_INNER),1)
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS))
PKG_LIBS   := $(shell pkg-config --libs $(PKGS)) -lm
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
	tools/lib/buf.c \
	tools/lib/config.c \
	tools/lib/diag.c \
	tools/lib/error.c \
	tools/lib/export.c \
	tools/lib/exporters/export_markdown.c \
	tools/lib/exporters/export_moodle.c \
	tools/lib/exporters/export_qti21.c \
	tools/lib/lint.c \
	tools/lib/model.c \
	tools/lib/moodle_grades.c \
	tools/lib/paths.c \
	tools/lib/reader.c \
	tools/lib/richtext.c \
	tools/lib/rules.c \
	tools/lib/rules/rule_digest.c \
	tools/lib/rules/rule_user.c \
	tools/lib/run.c \
	tools/lib/schema.c \
	tools/lib/text.c

CLI_SRCS := \
	tools/cli/cli_common.c \
	tools/cli/cmd_export.c \
	tools/cli/cmd_lint.c \
	tools/cli/cmd_rules.c \
	tools/cli/commands.c \
	tools/cli/fmt_gcc.c \
	tools/cli/fmt_github.c \
	tools/cli/fmt_json.c \
	tools/cli/fmt_junit.c \
	tools/cli/fmt_sarif.c \
	tools/cli/format.c \
	tools/cli/main.c

UNIT_SRCS := \
	tests/unit/check_main.c \
	tests/unit/check_reader.c \
	tests/unit/check_tables.c \
	tests/unit/check_text.c

LIB_OBJS  := $(LIB_SRCS:%.c=$(BUILD)/obj/%.o) $(BUILD)/obj/gen/qbank_xsd.o
CLI_OBJS  := $(CLI_SRCS:%.c=$(BUILD)/obj/%.o)
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

.PHONY: all build test setup lint-bank export clean golden-update

all: setup
	$(Q)$(MAKE) --no-print-directory QB_INNER=1 _all

build: setup
	$(Q)$(MAKE) --no-print-directory QB_INNER=1 _build

test: setup
	$(Q)$(MAKE) --no-print-directory QB_INNER=1 _test

golden-update: setup
	$(Q)$(MAKE) --no-print-directory QB_INNER=1 _golden_update

setup:
	$(Q)tools/setup.sh

clean:
	rm -rf build

# ---- inner targets (packages present) --------------------------------------

.PHONY: _all _build _test _golden_update _lint_bank _export

_build: $(QBANK)

_all: $(QBANK) _lint_bank _export

_lint_bank: $(QBANK)
	@echo "  LINT    bank/"
	$(Q)$(QBANK) lint bank/

_export: $(QBANK) _lint_bank $(BANK_NAMES:%=$(BUILD)/moodle/%.xml)

$(BUILD)/moodle/%.xml: bank/%.xml $(QBANK)
	@mkdir -p $(@D)
	@echo "  EXPORT  $@"
	$(Q)$(QBANK) export --to moodle -o $@ $<

_test: $(QBANK) $(UNIT)
	$(Q)QBANK=$(QBANK) UNIT=$(UNIT) BUILD=$(BUILD) tests/run.sh

_golden_update: $(QBANK)
	$(Q)QBANK=$(QBANK) tests/golden/run.sh --update

# ---- building ---------------------------------------------------------------

$(BUILD)/gen/qbank_xsd.c: schema/qbank.xsd tools/embed.sh
	@mkdir -p $(@D)
	$(Q)tools/embed.sh qb_schema_xsd $< > $@.tmp && mv $@.tmp $@

$(BUILD)/obj/gen/qbank_xsd.o: $(BUILD)/gen/qbank_xsd.c
	@mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) $(QB_CFLAGS) -c -o $@ $<

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
	$(Q)$(CC) $(CFLAGS) $(QB_LDFLAGS) -o $@ $(CLI_OBJS) $(LIBQBANK) $(PKG_LIBS)

$(UNIT): $(UNIT_OBJS) $(CLI_LIB_OBJS) $(LIBQBANK)
	@echo "  LD      $@"
	$(Q)$(CC) $(CFLAGS) $(QB_LDFLAGS) -o $@ $(UNIT_OBJS) $(CLI_LIB_OBJS) $(LIBQBANK) \
		$(PKG_LIBS) $(CHECK_LIBS)

-include $(LIB_OBJS:.o=.d) $(CLI_OBJS:.o=.d) $(UNIT_OBJS:.o=.d)
