# damos: top-level build. The targets below are the contract that README.md,
# .ci/run and reviewers rely on; each area keeps its own rules in an included
# fragment (lib/lib.mk, cli/cli.mk, man/man.mk, tests/tests.mk,
# kernel/kernel.mk, guest-image/guest.mk) that appends to the variables here.

SHELL := /bin/bash
.DEFAULT_GOAL := all
.DELETE_ON_ERROR:

PREFIX ?= /usr/local
DESTDIR ?=
BINDIR ?= $(PREFIX)/bin
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
MANDIR ?= $(PREFIX)/share/man
DATADIR ?= $(PREFIX)/share

CC ?= cc
BUILD ?= build
VERSION := $(shell cat VERSION)

# Large build products (kernel tree, guest root, disk images) live here, never
# in the repository. Keyed by their inputs so fresh clones reuse them.
DAMOS_CACHE ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/damos
export DAMOS_CACHE

# Debian packages the project needs; every fragment adds its own to DEPS.
DEPS := make gcc pkg-config

# Per-area hooks: fragments add prerequisites/recipes to these.
ALL_TARGETS :=
CHECK_HOST_TARGETS :=
INSTALL_TARGETS :=
CLEAN_FILES :=

include lib/lib.mk
include cli/cli.mk
include man/man.mk
include tests/tests.mk
include tests/fuzz/fuzz.mk
include kernel/kernel.mk
include guest-image/guest.mk
include tests/perf/perf.mk
include packaging/deb.mk

.PHONY: all deps check-host check run install clean help

all: $(ALL_TARGETS)

# Idempotent: asks apt only for what dpkg says is missing.
deps:
	@missing=$$(for p in $(sort $(DEPS)); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; \
	done); \
	if [ -z "$$missing" ]; then echo "deps: all $(words $(sort $(DEPS))) packages installed"; exit 0; fi; \
	echo "deps: installing:" $$missing; \
	[ "$$(id -u)" = 0 ] && sudo= || sudo=sudo; \
	$$sudo apt-get update -q >/dev/null && \
	DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -q --no-install-recommends $$missing

check-host: $(CHECK_HOST_TARGETS)

# Everything: the in-guest suites on every kernel of the matrix (patched
# 6.1 and 6.12, Debian's own 6.12 and 6.1: check-matrix in
# guest-image/guest.mk; check-guest runs one kernel) and the host tests
# (check-host).  With the kernels cached (CI's case) the work is the four
# guests, about one core each, and the host tests, one core; on an empty
# cache two kernel builds (35 core-minutes) come first, at SCHED_IDLE.
# So the matrix starts first (the guest root, then Debian's kernels,
# which need no build, while the patched kernels build beside them), and
# the host tests start when the builder is done
# ($(BUILD)/guest/matrix/builds-done: at once with a cached kernel).
# Two loads at a time, never more: the matrix has two slots
# (MATRIX_JOBS=2) and the host tests hold one of them
# ($(BUILD)/guest/matrix/host-slot, MATRIX_HOLD) from the start until
# they are done; then two guests run at once.  Before, the guests ran one
# after the other whatever the host tests did: from the end of the host
# tests (30 of 65 minutes in) one core idled (ea36ecb, kernels cached).
# The programs both use are made first, once; the host tests' lines are
# prefixed "[host] " (log: $(BUILD)/check-host.log).  Each stage's time
# closes the run (the matrix prints its kernels' own).
#
# Tried before on a fresh clone, 2 cores: host tests first, the builds
# niced beside them (60m43s: the host tests took 18m19s beside the builds
# against 10 alone); the host tests beside the whole matrix with two guests
# at a time, three loads on two cores (70m37s: a TCG guest beside a kernel
# build and the host tests slows down more than its share, and the builds
# got a third of the machine).
check:
	@t=$$SECONDS; $(MAKE) --no-print-directory deps || exit; \
	d=$$((SECONDS - t)); t=$$SECONDS; t0=$$(date +%s); \
	$(MAKE) --no-print-directory all guest-payload >/dev/null || exit; \
	mx=$(BUILD)/guest/matrix; mkdir -p $$mx; \
	rm -f $$mx/builds-done $(BUILD)/check-matrix.end $(BUILD)/check-host.rc \
		$(BUILD)/check-host.start $(BUILD)/check-host.end $(BUILD)/check-host.cpu; \
	: > $$mx/host-slot; \
	setsid bash -c 'while [ ! -f $$0/builds-done ] && [ ! -f $(BUILD)/check-matrix.end ]; do sleep 5; done; \
		echo $$(date +%s) > $(BUILD)/check-host.start; \
		set -o pipefail; TIMEFORMAT="%3U %3S"; { time $(MAKE) --no-print-directory check-host 2>&1 | \
		sed -u "s/^/[host] /" | tee $(BUILD)/check-host.log; } 2> $(BUILD)/check-host.cpu; \
		echo $$? > $(BUILD)/check-host.rc; rm -f $$0/host-slot; echo $$(date +%s) > $(BUILD)/check-host.end' $$mx & host=$$!; \
	trap 'kill -- -$$host 2>/dev/null' EXIT; \
	MATRIX_JOBS=$${MATRIX_JOBS:-2} MATRIX_HOLD=$$mx/host-slot $(MAKE) --no-print-directory check-matrix; mrc=$$?; \
	m=$$((SECONDS - t)); : > $(BUILD)/check-matrix.end; \
	wait $$host; trap - EXIT; \
	hrc=$$(cat $(BUILD)/check-host.rc 2>/dev/null || echo 1); \
	hs=$$(( $$(cat $(BUILD)/check-host.start 2>/dev/null || date +%s) - t0 )); \
	h=$$(( $$(cat $(BUILD)/check-host.end 2>/dev/null || date +%s) - t0 - hs )); \
	mmss() { printf '%dm%02ds' $$(($$1 / 60)) $$(($$1 % 60)); }; \
	grep -E '^\[host\] (check-version|check-bats|abi|fuzz: [0-9]+ targets)' $(BUILD)/check-host.log | sed 's/^\[host\] /check: host: /'; \
	[ "$$hrc" = 0 ] && echo "check: host: passed" || echo "check: host: FAILED (exit $$hrc; log: $(BUILD)/check-host.log)"; \
	tot=$$((SECONDS - t + d)); \
	cpu() { awk '{ gsub(",", "."); n += $$1 + $$2 } END { printf "%d", n }' "$$@" 2>/dev/null; }; \
	hc=$$(cpu $(BUILD)/check-host.cpu); mc=$$(cpu $$mx/cpu-*); \
	echo "check: stages: deps $$(mmss $$d), matrix $$(mmss $$m)," \
		"host $$(mmss $$h) from $$(mmss $$hs) on (beside the suites); total $$(mmss $$tot)"; \
	echo "check: CPU: builds and suites $$(mmss $${mc:-0}), host tests $$(mmss $${hc:-0});" \
		"$$(( ($${mc:-0} + $${hc:-0}) / 60 )) core-minutes on $$(nproc) cores"; \
	[ "$$hrc" = 0 ] && [ "$$mrc" = 0 ]

# The main job: set the machine up, then boot the guest (guest-run in
# guest-image/guest.mk); CMD='...' reaches the sub-make on its command line.
run: deps
	@$(MAKE) --no-print-directory all
	@$(MAKE) --no-print-directory guest-run

install: $(INSTALL_TARGETS)

clean:
	rm -rf $(BUILD) $(CLEAN_FILES)

help:
	@sed -n '/^| target/,/^$$/p' README.md
