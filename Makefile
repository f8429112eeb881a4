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

# Everything: the host tests and the in-guest suites on every kernel of the
# matrix (patched 6.1 and 6.12, Debian's own 6.12 and 6.1: check-matrix in
# guest-image/guest.mk; check-guest runs one kernel), at the same time: a
# TCG guest keeps about one of the two cores busy, and the matrix's critical
# path is the patched kernels' builds and then their suites, so the host
# tests fill what is left instead of delaying the matrix by their 8
# minutes.  Niced by 5, not more: the terminal tests' expect scripts wait
# 10 s for a prompt, which a nice-10 process beside four busy threads
# (a build's two, a guest's two) may not get in time; soak-terminal shows
# they hold beside one stress-ng thread per core.  The programs both use are made first, once.  The host's lines
# are prefixed "[host] ", each guest's with its kernel; the host's result
# comes first in the closing lines, then the matrix's summary, then each
# stage's time.
check:
	@t=$$SECONDS; $(MAKE) --no-print-directory deps || exit; \
	d=$$((SECONDS - t)); t=$$SECONDS; \
	mkdir -p $(BUILD); \
	$(MAKE) --no-print-directory all guest-payload || exit; \
	( set -o pipefail; nice -n 5 $(MAKE) --no-print-directory check-host 2>&1 | \
		sed -u 's/^/[host] /' | tee $(BUILD)/check-host.log; \
		echo $$? > $(BUILD)/check-host.rc; \
		echo $$SECONDS > $(BUILD)/check-host.end ) & host=$$!; \
	trap 'kill $$host 2>/dev/null' EXIT; \
	$(MAKE) --no-print-directory check-matrix; mrc=$$?; \
	m=$$((SECONDS - t)); \
	wait $$host; hrc=$$(cat $(BUILD)/check-host.rc 2>/dev/null || echo 1); \
	h=$$(( $$(cat $(BUILD)/check-host.end 2>/dev/null || echo $$SECONDS) - t )); \
	mmss() { printf '%dm%02ds' $$(($$1 / 60)) $$(($$1 % 60)); }; \
	grep -E '^\[host\] (check-version|check-bats|abi|fuzz: [0-9]+ targets)' $(BUILD)/check-host.log | sed 's/^\[host\] /check: host: /'; \
	[ "$$hrc" = 0 ] && echo "check: host: passed" || echo "check: host: FAILED (exit $$hrc; log: $(BUILD)/check-host.log)"; \
	tot=$$((SECONDS - t + d)); \
	echo "check: stages: deps $$(mmss $$d), host $$(mmss $$h) and matrix $$(mmss $$m) at the same time; total $$(mmss $$tot)"; \
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
