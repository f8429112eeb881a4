# tests/fuzz: libFuzzer targets (clang, ASan + UBSan + LeakSanitizer) for
# every parser in libdamos and damoctl.
#
#   make fuzz [FUZZ_SECONDS=60] [FUZZ_TARGETS='units dbgfs']
#                         each target FUZZ_SECONDS, one at a time, at nice 19;
#                         corpus kept in $(FUZZ_OUT)/corpus/<target>, crash
#                         inputs in $(FUZZ_OUT)/artifacts/<target>/, a line
#                         per run appended to $(FUZZ_OUT)/summary.tsv
#   make check-fuzz-short every seed corpus replayed, then FUZZ_SHORT_SECONDS
#                         of fuzzing per target (part of check-host)
#   make fuzz-build       the binaries only, in $(BUILD)/fuzz
#   make fuzz-repro FUZZ_TARGET=units FUZZ_INPUT=crash-...
#                         run one input through one target
#   make fuzz-corpus-update
#                         merge what the long runs found into the seed
#                         corpora (only inputs that add coverage; review the
#                         diff before committing)
#
# A target is tests/fuzz/fuzz_<name>.c with seeds in tests/fuzz/corpus/<name>/
# and optionally a dictionary tests/fuzz/<name>.dict.  Every target links all
# of libdamos (built here with clang and the sanitizers); one that needs
# damoctl code names its files in FUZZ_SRCS_<name>.  Inputs that once found a
# bug stay in the seed corpus (named regress-*), so every run replays them.
#
# The config file parser is damoctl's (cli/conf.c): FUZZ_SRCS_config below.

DEPS += clang libclang-rt-dev llvm

FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60
FUZZ_SHORT_SECONDS ?= 3
FUZZ_OUT ?= fuzz-out
FUZZ_NICE ?= 19
FUZZ_BUILD := $(BUILD)/fuzz
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer
# libdamos and damoctl are the lib engineer's; -Werror stays in their gcc
# build, clang-only warnings here are shown, not fatal; a function used
# undeclared is fatal (an implicit int would check the wrong value).
FUZZ_CFLAGS := -std=gnu11 -g -O1 -Wall -Wextra -D_GNU_SOURCE $(FUZZ_SAN) \
	-Werror=implicit-function-declaration \
	-DDAMOS_VERSION='"$(VERSION)"' -Ilib

# Per-target damoctl sources (cli/*.c without main()) and libraries.
FUZZ_SRCS_cmdline := $(filter-out cli/main.c,$(CLI_SRCS))
FUZZ_LIBS_cmdline := $(CLI_LIBS)
FUZZ_SRCS_config := cli/conf.c
# the test build's fake kernel under the fuzzed trees
FUZZ_SRCS_tree := tests/layers/emul.c

FUZZ_NAMES := $(sort $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c)))
FUZZ_TARGETS ?= $(FUZZ_NAMES)
FUZZ_BINS := $(FUZZ_NAMES:%=$(FUZZ_BUILD)/fuzz_%)
FUZZ_LIB_OBJS := $(LIB_SRCS:lib/%.c=$(FUZZ_BUILD)/lib/%.o)

# Not under check-sanitize: these binaries are sanitized already, and that
# target reruns check-host with -fsanitize in EXTRA_CFLAGS.
ifeq ($(findstring -fsanitize,$(EXTRA_CFLAGS)),)
CHECK_HOST_TARGETS += check-fuzz-short
endif

$(FUZZ_BUILD)/lib/%.o: lib/%.c lib/damos.h lib/internal.h tests/fuzz/fuzz.mk
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

$(FUZZ_BUILD)/tests/layers/%.o: tests/layers/%.c tests/layers/layers.h \
		lib/damos.h lib/internal.h tests/fuzz/fuzz.mk
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

$(FUZZ_BUILD)/cli/%.o: cli/%.c cli/cli.h cli/conf.h lib/damos.h tests/fuzz/fuzz.mk
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(CLI_CFLAGS) -Icli -fsanitize=fuzzer-no-link \
		-c -o $@ $<

define FUZZ_template
$(FUZZ_BUILD)/fuzz_$(1): tests/fuzz/fuzz_$(1).c tests/fuzz/fuzz.h \
		tests/fuzz/faketree.h $(FUZZ_LIB_OBJS) \
		$(FUZZ_SRCS_$(1):%.c=$(FUZZ_BUILD)/%.o)
	@mkdir -p $$(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -Icli -Itests/fuzz -Itests/layers \
		-fsanitize=fuzzer \
		-o $$@ $$< $(FUZZ_LIB_OBJS) \
		$(FUZZ_SRCS_$(1):%.c=$(FUZZ_BUILD)/%.o) $(FUZZ_LIBS_$(1))
endef
$(foreach t,$(FUZZ_NAMES),$(eval $(call FUZZ_template,$(t))))

FUZZ_RUN = FUZZ_OUT='$(FUZZ_OUT)' FUZZ_BUILD='$(FUZZ_BUILD)' \
	FUZZ_NICE='$(FUZZ_NICE)' tests/fuzz/run.sh

.PHONY: fuzz fuzz-build check-fuzz-short fuzz-repro fuzz-corpus-update fuzz-clean
fuzz-build: $(FUZZ_BINS)

fuzz: $(FUZZ_TARGETS:%=$(FUZZ_BUILD)/fuzz_%)
	@$(FUZZ_RUN) long $(FUZZ_SECONDS) $(FUZZ_TARGETS)

check-fuzz-short: $(FUZZ_BINS)
	@$(FUZZ_RUN) short $(FUZZ_SHORT_SECONDS) $(FUZZ_NAMES)

fuzz-repro: $(FUZZ_BUILD)/fuzz_$(FUZZ_TARGET)
	$(FUZZ_BUILD)/fuzz_$(FUZZ_TARGET) $(FUZZ_INPUT)

fuzz-corpus-update: $(FUZZ_BINS)
	@$(FUZZ_RUN) merge 0 $(FUZZ_TARGETS)

fuzz-clean:
	rm -rf $(FUZZ_OUT) $(FUZZ_BUILD)
