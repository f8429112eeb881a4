# tests: C unit tests (cmocka) and bats tests of damoctl against fake trees.
#
#   make check-host        unit tests, then the bats host suite
#   make check-sanitize    the same, built with ASan + UBSan in $(BUILD)/san
#   make update-golden     regenerate tests/host/golden/ (review the diff)
#   make soak-terminal     the terminal tests SOAK_RUNS times under full CPU
#                          load (not part of check: it takes every core)

DEPS += libcmocka-dev bats bats-assert bats-support bats-file strace binutils
# setpriv, script(1) and systemd-analyze, which host tests run (a skip for a
# missing tool fails check-bats)
DEPS += util-linux bsdutils systemd
# the interactive shell tests drive damoctl through a pty (tests/host/pty.bash)
DEPS += expect
# the load of make soak-terminal
DEPS += stress-ng
# dry-run scripts are run by both shells (tests/host/dry_layer.bats)
DEPS += dash bash
# tests/host/metrics.bats: Prometheus' own text parsers
DEPS += python3-prometheus-client
# tests/host/heatmap.bats: report heatmap --output draws with gnuplot
DEPS += gnuplot-nox
CHECK_HOST_TARGETS += check-unit check-bats check-install check-abi

UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)

# The unit tests link the test build's fake kernel (tests/layers/emul.c)
# and damoctl's own word splitter and config parser (cli/conf.c).
$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/tests/layers/emul.o \
		$(BUILD)/cli/conf.o $(LIB_A) lib/damos.h cli/conf.h
	@mkdir -p $(@D)
	$(CC) $(DAMOS_CFLAGS) -Wno-missing-prototypes -Ilib -Icli -Itests/layers \
		-o $@ $< $(BUILD)/tests/layers/emul.o $(BUILD)/cli/conf.o $(LIB_A) \
		$(DAMOS_LDFLAGS) -lcmocka

.PHONY: check-unit check-bats check-install check-sanitize update-golden \
	soak-terminal check-abi update-abi

# The ABI of the last release (tests/abi/libdamos-<version>.abi) must hold:
# every exported symbol and version node, enum value and struct member
# offset it lists (and the size of structs without .sz).  New lines are
# fine; a changed or missing one fails.  tests/abi/abi.sh says what is kept.
ABI_BASELINE := tests/abi/libdamos-$(VERSION_MINOR).0.abi
check-abi: $(LIB_SO)
	@tests/abi/abi.sh lib/damos.h $(LIB_SO) $(CC) > $(BUILD)/abi.raw
	@LC_ALL=C sort $(BUILD)/abi.raw > $(BUILD)/abi.now
	@LC_ALL=C sort $(ABI_BASELINE) | LC_ALL=C comm -23 - $(BUILD)/abi.now > $(BUILD)/abi.lost
	@if [ -s $(BUILD)/abi.lost ]; then \
		echo "ABI break: these facts of $(ABI_BASELINE) changed or went:"; \
		cat $(BUILD)/abi.lost; exit 1; fi
	@echo "abi: $$(wc -l < $(ABI_BASELINE)) facts of $(ABI_BASELINE) hold ($$(wc -l < $(BUILD)/abi.now) now)"

# For a release only: the baseline of a new version (never edit an old one).
update-abi: $(LIB_SO)
	tests/abi/abi.sh lib/damos.h $(LIB_SO) $(CC) > $(BUILD)/abi.raw
	LC_ALL=C sort $(BUILD)/abi.raw > $(ABI_BASELINE)

# The test build of damoctl: the shipped objects, with tests/layers/
# (cli_layers.c in place of cli/layers.c) adding three layers to every
# handle's I/O stack: the fault layer (DAMOS_FAULT, DAMOS_FAULT_LOG),
# which tests/host/transactions.bats sweeps, the race layer
# (DAMOCTL_TEST_RACE) of tests/host/lock.bats and
# tests/guest/concurrency.bats, and the fake kernel (emul.c) that makes a
# tree of plain files act as the kernel's: the host tests run this build
# ($DAMOCTL) on their fake trees.  The shipped damoctl and libdamos have no
# such code at all: no environment variable makes a root tool fail or run
# a command on purpose, and no fake kernel ships ($DAMOCTL_SHIPPED is the
# shipped build, for the tests that check that).  damoctl-fault is its old
# name.
TEST_LAYER_OBJS := $(patsubst tests/layers/%.c,$(BUILD)/tests/layers/%.o,\
	$(wildcard tests/layers/*.c))
DAMOCTL_TEST := $(BUILD)/tests/damoctl-test
DAMOCTL_FAULT := $(BUILD)/tests/damoctl-fault

$(BUILD)/tests/layers/%.o: tests/layers/%.c tests/layers/layers.h cli/cli.h cli/conf.h \
		lib/damos.h lib/damos-private.h lib/internal.h tests/tests.mk
	@mkdir -p $(@D)
	$(CC) $(DAMOS_CFLAGS) $(CLI_CFLAGS) -Ilib -Icli -c -o $@ $<

$(DAMOCTL_TEST): $(filter-out $(BUILD)/cli/layers.o,$(CLI_OBJS)) \
		$(TEST_LAYER_OBJS) $(LIB_A)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(DAMOS_LDFLAGS) $(CLI_LIBS)

$(DAMOCTL_FAULT): $(DAMOCTL_TEST)
	ln -sf $(notdir $<) $@

check-unit: $(UNIT_BINS)
	@fail=0; for t in $(UNIT_BINS); do \
		DAMOS_SRCDIR=$(CURDIR) $$t || fail=1; \
	done; exit $$fail

# The suite tests the shared library too (abi.bats, docs.bats): it is a
# prerequisite, so a fresh clone runs those tests instead of skipping them.
# A skip fails the run unless tests/host/allowed-skips gives its reason.
check-bats: $(BUILD)/damoctl $(LIB_SO) $(DAMOCTL_FAULT)
	DAMOCTL=$(abspath $(DAMOCTL_TEST)) \
	DAMOCTL_SHIPPED=$(abspath $(BUILD)/damoctl) \
	DAMOCTL_TEST=$(abspath $(DAMOCTL_TEST)) \
	DAMOCTL_FAULT=$(abspath $(DAMOCTL_FAULT)) tests/host/run-suite.sh \
		tests/host/allowed-skips $(BUILD)/host.tap -- tests/host

SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer
check-sanitize:
	$(MAKE) BUILD=$(BUILD)/san EXTRA_CFLAGS="$(SAN_FLAGS)" \
		EXTRA_LDFLAGS="$(SAN_FLAGS)" check-host

update-golden: $(DAMOCTL_TEST)
	UPDATE_GOLDEN=1 DAMOCTL=$(abspath $(DAMOCTL_TEST)) bats tests/host

# The tests that drive damoctl through a pty (the shell, completion, --watch
# on a terminal), again and again with every core busy: timing bugs there
# (a signal racing readline) show up as a rare timeout in check-host.
TERMINAL_BATS := tests/host/shell_session.bats tests/host/shell_complete.bats \
	tests/host/watch.bats
SOAK_RUNS ?= 50
SOAK_JOBS ?= 1
soak-terminal: $(DAMOCTL_TEST)
	DAMOCTL=$(abspath $(DAMOCTL_TEST)) SOAK_JOBS=$(SOAK_JOBS) \
		tests/host/soak.sh $(SOAK_RUNS) $(BUILD)/soak $(TERMINAL_BATS)

# Install into a scratch DESTDIR, then build and run a program against the
# installed header, pkg-config file and shared library.
INST := $(abspath $(BUILD))/destdir
check-install: $(ALL_TARGETS)
	rm -rf $(INST)
	$(MAKE) --no-print-directory install DESTDIR=$(INST) PREFIX=/usr >/dev/null
	test -x $(INST)/usr/bin/damoctl
	test -f $(INST)/usr/share/man/man8/damoctl.8
	test -f $(INST)/usr/share/man/man5/damoctl.conf.5
	test -f $(INST)/usr/share/man/man3/libdamos.3
	test -f $(INST)/usr/share/bash-completion/completions/damoctl
	grep -qx 'ExecStart=/usr/bin/damoctl apply /etc/damoctl.conf' \
		$(INST)/usr/lib/systemd/system/damoctl.service
	test -L $(INST)/usr/lib/libdamos.so.$(LIB_SOMAJOR)
	$(CC) $(DAMOS_CFLAGS) -o $(BUILD)/install-smoke tests/install-smoke.c \
		$$(PKG_CONFIG_SYSROOT_DIR=$(INST) \
		   PKG_CONFIG_LIBDIR=$(INST)/usr/lib/pkgconfig \
		   pkg-config --cflags --libs libdamos) $(DAMOS_LDFLAGS)
	LD_LIBRARY_PATH=$(INST)/usr/lib $(BUILD)/install-smoke
	$(INST)/usr/bin/damoctl --version
