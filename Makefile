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

# Everything: host tests, then the in-guest suites on every kernel of the
# matrix: patched 6.1 and 6.12, Debian's own 6.12 and 6.1 (check-matrix in
# guest-image/guest.mk; check-guest runs one kernel).  On a fresh machine
# the guest root and the patched kernels (6.12 first, whose suites are the
# longer) are made in the background (niced) while the host tests run: the
# matrix then finds them ready or under way (kernel/build.sh's lock),
# instead of starting them after the host tests.  Their logs:
# $(BUILD)/check-prefetch-*.log.  Each stage's time closes the run (the
# matrix prints its kernels' own).
#
# Not at the same time as the matrix, nor two guests at once (MATRIX_JOBS,
# default 1): tried on a fresh clone, 2 cores, it took longer.  A TCG guest
# beside a kernel build and the host tests slows down more than its share
# (Debian's 6.12 suites 23m49s against 12m04s), and the patched builds,
# the critical path, still got a third of the machine.
check:
	@t=$$SECONDS; $(MAKE) --no-print-directory deps || exit; \
	d=$$((SECONDS - t)); t=$$SECONDS; \
	mkdir -p $(BUILD); \
	setsid nice -n 10 $(MAKE) --no-print-directory image \
		> $(BUILD)/check-prefetch-image.log 2>&1 & img=$$!; \
	setsid bash -c 'for v in $(filter 6.12,$(KERNEL_VERSIONS)) $(filter-out 6.12,$(KERNEL_VERSIONS)); do \
		nice -n 10 $(MAKE) --no-print-directory kernel KVER=$$v KIMAGE=patched || exit; \
		done' > $(BUILD)/check-prefetch-kernels.log 2>&1 & krn=$$!; \
	trap 'kill -- -$$img -$$krn 2>/dev/null' EXIT; \
	$(MAKE) check-host || exit; \
	h=$$((SECONDS - t)); t=$$SECONDS; \
	wait $$img || echo "check: the guest root's background make failed" \
		"(log: $(BUILD)/check-prefetch-image.log); the matrix tries again"; \
	$(MAKE) check-matrix; rc=$$?; \
	m=$$((SECONDS - t)); \
	mmss() { printf '%dm%02ds' $$(($$1 / 60)) $$(($$1 % 60)); }; \
	echo "check: stages: deps $$(mmss $$d), host $$(mmss $$h)," \
		"matrix $$(mmss $$m); total $$(mmss $$((d + h + m)))"; \
	exit $$rc

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
