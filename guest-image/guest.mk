# guest-image: the Debian guest, the QEMU runner, the in-guest suites.
#
#   make image                 debootstrap the guest root into the cache
#   make check-guest           boot KERNEL_BZIMAGE with it, run tests/guest
#   make run [CMD='...']       interactive root shell, or one command
#
# The root image is keyed by what goes into it (package list, build script,
# init stub); the project's own code travels on a small payload disk packed
# for every boot, so a code change never rebuilds the image. A passing
# check-guest is remembered under the hash of all its inputs (kernel, image,
# payload): run again with nothing changed, it reports that run.
#
# Knobs (environment): DAMOS_KVM=1 (KVM instead of TCG; nested KVM on this
# machine kind does not get past decompression), DAMOS_GUEST_MEM (2G),
# DAMOS_GUEST_CPUS (2), DAMOS_GUEST_TIMEOUT (check-guest: 2400 s, 3600 s
# for a KCONFIG variant), DAMOS_GUEST_SILENCE
# (check-guest: seconds of console and progress silence before a hung guest
# is killed; 360, 1200 for a KCONFIG variant; 0: never), DAMOS_GUEST_MACHINE
# (QEMU -machine: pc, q35,sata=off,smbus=off for a KCONFIG variant and NUMA=1),
# DAMOS_GUEST_APPEND
# (kernel command line), DAMOS_GUEST_RERUN=1 (boot even if these inputs
# passed), DAMOS_MIRROR (the Debian mirror, instead of apt's configuration).
# NUMA=1 (make variable): the two-node machine (guest-image/run.sh).
# Results: $(GUEST_OUT) (console.log, results/guest.tap, results/*dmesg*).

DEPS += qemu-system-x86 debootstrap debian-archive-keyring e2fsprogs curl \
	rsync libc6-dev coreutils

GUEST_CACHE := $(DAMOS_CACHE)/guest
GUEST_IMAGE_INPUTS := guest-image/packages guest-image/mkimage.sh guest-image/init-stub
image_key = $(shell cat $(1) | sha256sum | cut -c1-16)
GUEST_IMAGE_KEY := $(call image_key,$(GUEST_IMAGE_INPUTS))
GUEST_IMAGE := $(GUEST_CACHE)/image-$(GUEST_IMAGE_KEY)/root.img
# make bench's image: the same plus the benchmark's programs (fio), kept
# apart so that they never rebuild the image the tests run on
GUEST_BENCH_IMAGE_KEY := $(call image_key,$(GUEST_IMAGE_INPUTS) guest-image/packages-bench)
GUEST_BENCH_IMAGE := $(GUEST_CACHE)/image-bench-$(GUEST_BENCH_IMAGE_KEY)/root.img
GUEST_STAGE := $(BUILD)/guest/stage
GUEST_OUT := $(BUILD)/guest/out
GUEST_CFLAGS := -O2 -Wall -Wextra -Werror -static

# From kernel/kernel.mk; overridable on the command line.
KERNEL_BZIMAGE ?=
KERNEL_SRC ?=
# KIMAGE=debian (kernel/debian.mk): the initramfs, and the modules the
# payload carries to /lib/modules; the kernel's config, staged for every
# kernel, is what the suites read to tell a missing feature from a bug.
KERNEL_INITRD ?=
KERNEL_MODULES ?=
KERNEL_CONFIG ?=
SELFTESTS_DAMON = $(KERNEL_SRC)/tools/testing/selftests/damon
# The kernel's DAMON selftests prove something about the kernel they run
# on.  On a patched kernel that is the series (kernel/patches/): they run.
# Debian's own kernels (KIMAGE=debian) are Debian's build of upstream
# code that this project does not change, and no selftest runs damoctl or
# libdamos, so there they prove nothing about damos; they cost about two
# minutes of Debian's 6.12 run (sysfs.sh alone 77 s).  GUEST_SELFTESTS=1
# stages them anyway: to see whether a selftest that fails on the patched
# kernel fails on the stock one too.  (KUnit: the stock configs have none.)
GUEST_SELFTESTS ?= $(if $(filter debian,$(KIMAGE)),0,1)
# The other kernels of the check-matrix run (make check) this one is part
# of, KVER:KIMAGE:NUMA each (guest-image/matrix.sh sets it; empty for a
# check-guest or run of its own).  The suites read it from kernel.knobs: a
# test whose subject is the same on Debian's 6.12 runs there only
# (runs_on_debian_612 in tests/guest/helpers/common.bash says which, and
# skips saying so); alone, a kernel runs every test.
GUEST_MATRIX_ALSO ?=

.PHONY: image bench-image guest-payload guest-stage check-guest check-guest-prereqs guest-run guest-image-clean check-matrix

image: $(GUEST_IMAGE)

# No prerequisites on purpose: the key in the path already covers the inputs'
# content, and a fresh clone's newer mtimes must not trigger a rebuild.
$(GUEST_IMAGE):
	@mkdir -p $(@D)
	guest-image/mkimage.sh $@

bench-image: $(GUEST_BENCH_IMAGE)

$(GUEST_BENCH_IMAGE):
	@mkdir -p $(@D)
	guest-image/mkimage.sh $@ guest-image/packages-bench

# Images of other keys are left alone: other checkouts (worktrees, branches,
# CI's clone) share the cache and may be using or building them right now.
# guest-image-clean removes them all, running builds aside (mkimage.* dirs).
guest-image-clean:
	rm -f $(GUEST_CACHE)/image-*/root.img
	rm -rf $(GUEST_CACHE)/passed
	-rmdir $(GUEST_CACHE)/image-* 2>/dev/null

# What guest-stage installs and copies, made ahead (check-matrix: before
# two kernels' guest-stage run at once, each into its own GUEST_STAGE).
guest-payload: $(DAMOCTL_TEST)

# The payload tree, rebuilt on every boot (cheap): the project's install tree,
# the suites and their helpers, the kernel's DAMON selftests, guest-init.
guest-stage:
	@rm -rf $(GUEST_STAGE) && mkdir -p $(GUEST_STAGE)/tests/helpers
	@$(MAKE) --no-print-directory install DESTDIR=$(abspath $(GUEST_STAGE))/root PREFIX=/usr/local >$(GUEST_STAGE)/install.log 2>&1 \
		|| { cat $(GUEST_STAGE)/install.log; echo "guest-stage: make install failed" >&2; exit 1; }
	@cp guest-image/guest-init guest-image/profile.sh VERSION $(GUEST_STAGE)/
	@$(MAKE) --no-print-directory $(DAMOCTL_TEST) >>$(GUEST_STAGE)/install.log 2>&1 \
		|| { cat $(GUEST_STAGE)/install.log; echo "guest-stage: make $(DAMOCTL_TEST) failed" >&2; exit 1; }
	@cp $(DAMOCTL_TEST) $(GUEST_STAGE)/tests/helpers/damoctl-test
	$(CC) $(GUEST_CFLAGS) -o $(GUEST_STAGE)/damos-reboot guest-image/reboot.c
	@cp tests/guest/*.bats tests/guest/hostile_input.sh $(GUEST_STAGE)/tests/
	@cp tests/guest/helpers/*.bash tests/guest/helpers/*.txt $(GUEST_STAGE)/tests/helpers/
	@mkdir -p $(GUEST_STAGE)/tests/fixtures && cp -r tests/host/fixtures/damo-3.3.0 $(GUEST_STAGE)/tests/fixtures/
	@for c in tests/guest/helpers/*.c tests/perf/tlbshake.c; do \
		echo "  CC $$c"; \
		$(CC) $(GUEST_CFLAGS) -o $(GUEST_STAGE)/tests/helpers/$$(basename $$c .c) $$c || exit 1; \
	done
	@if [ -n "$(KERNEL_CONFIG)" ] && [ -f "$(KERNEL_CONFIG)" ]; then \
		cp $(KERNEL_CONFIG) $(GUEST_STAGE)/tests/kernel.config; \
	else \
		echo "guest-stage: no kernel config ($(or $(KERNEL_CONFIG),KERNEL_CONFIG not set)): the suites cannot tell what the kernel lacks" >&2; \
	fi
	@echo "KVER=$(KVER) KIMAGE=$(KIMAGE) KCONFIG=$(KCONFIG) KPATCHES=$(KPATCHES) TEST_TIMEOUT=$(GUEST_TEST_TIMEOUT) SERIES_APPLIED=$(words $(filter-out $(KERNEL_SERIES),$(KERNEL_PATCH_FILES)))" > $(GUEST_STAGE)/tests/kernel.knobs
	@echo "MATRIX_ALSO='$(strip $(GUEST_MATRIX_ALSO))'" >> $(GUEST_STAGE)/tests/kernel.knobs
	@if [ -n "$(KERNEL_MODULES)" ]; then \
		cp -al $(KERNEL_MODULES) $(GUEST_STAGE)/modules 2>/dev/null || \
		{ rm -rf $(GUEST_STAGE)/modules; cp -a $(KERNEL_MODULES) $(GUEST_STAGE)/modules; } || exit 1; \
	fi
	@if [ -n "$(KERNEL_SRC)" ]; then \
		if [ "$(GUEST_SELFTESTS)" = 1 ]; then \
			tests/guest/stage-selftests.sh $(SELFTESTS_DAMON) $(abspath $(GUEST_STAGE))/tests || exit 1; \
		else \
			echo "  SELFTESTS not run on KIMAGE=$(KIMAGE): the kernel's own selftests of a kernel damos does not change (GUEST_SELFTESTS=1 runs them)"; \
		fi; \
		tests/guest/stage-kunit.sh $(KERNEL_SRC) $(GUEST_STAGE)/tests/kunit-expected.txt || exit 1; \
	else \
		echo "guest-stage: KERNEL_SRC is not set: the kernel's DAMON selftests and KUnit case list are not staged" >&2; \
	fi

check-guest-prereqs:
	@[ -n "$(KERNEL_BZIMAGE)" ] || { echo "check-guest: KERNEL_BZIMAGE is not set (make kernel, or pass KERNEL_BZIMAGE=...)" >&2; exit 1; }
	@[ -n "$(KERNEL_SRC)" ] || { echo "check-guest: KERNEL_SRC is not set (make kernel, or pass KERNEL_SRC=...): the DAMON selftests come from it" >&2; exit 1; }

# How long the guest may be silent before it counts as hung (run.sh): more
# for a KCONFIG variant (KASAN and lockdep under TCG: a slow boot and bats).
GUEST_SILENCE = $(or $(DAMOS_GUEST_SILENCE),$(if $(filter default,$(KCONFIG)),360,1200))
# The in-guest per-test timeout (bats' BATS_TEST_TIMEOUT), below the
# silence bound so that a stuck test is named: the kernel's sysfs.sh
# selftest took 191 s on the 6.12 debug kernel alone, more than 300 s
# beside another guest, and more than 600 s beside three other loads.
GUEST_TEST_TIMEOUT = $(if $(filter default,$(KCONFIG)),300,900)
# The whole run's bound: the debug kernel's run takes 1,380 s alone on
# 2 cores and 1,643 s beside another guest; patched 6.12's default run
# took 1,615 s in CI before the two-node machine and tier.bats (issue 44)
# added about 3 minutes to it: 2400 s.  A hang is caught by the silence
# bound long before.
GUEST_TIMEOUT = $(or $(DAMOS_GUEST_TIMEOUT),$(if $(filter default,$(KCONFIG)),2400,3600))
# The machine (run.sh): q35 for a KCONFIG variant, whose slow boot the pc
# machine's looping ACPI _PRT method hangs (issue 17); pc otherwise.
guest_q35 := q35,sata=off,smbus=off
GUEST_MACHINE = $(or $(DAMOS_GUEST_MACHINE),$(if $(filter default,$(KCONFIG)),$(if $(filter 1,$(NUMA)),$(guest_q35),pc),$(guest_q35)))
# NUMA=1: the two-node machine (run.sh, DAMOS_GUEST_NUMA): 2 GiB (or
# DAMOS_GUEST_MEM) in two System RAM ranges, node 1 a CPU-less memory
# tier with HMAT latencies; q35.
NUMA ?= 0

check-guest: check-guest-prereqs $(KERNEL_BZIMAGE) $(KERNEL_SRC_STAMP) $(GUEST_IMAGE)
	@$(MAKE) --no-print-directory guest-stage
	DAMOS_GUEST_NUMA=$(NUMA) DAMOS_GUEST_SILENCE=$(GUEST_SILENCE) DAMOS_GUEST_TIMEOUT=$(GUEST_TIMEOUT) DAMOS_GUEST_MACHINE='$(GUEST_MACHINE)' DAMOS_GUEST_PASSED=$(GUEST_CACHE)/passed DAMOS_GUEST_INITRD=$(KERNEL_INITRD) guest-image/run.sh check $(KERNEL_BZIMAGE) $(GUEST_IMAGE) $(GUEST_STAGE) $(GUEST_OUT)

# make check's guest part: check-guest on every kernel of MATRIX (KVER:KIMAGE
# pairs), patched kernels built in the background while Debian's run; one
# summary line per kernel, then "check-matrix: N kernels: N passed, N
# failed, N skipped" (guest-image/matrix.sh). Results: $(BUILD)/guest/out-*/.
#
# MATRIX_ALL is the whole matrix issue 12 asks for, and what `make check`
# runs: every kernel a Debian user can have (patched 6.1 and 6.12, Debian's
# own 6.12 with sysfs only, Debian's 6.1 without DAMON).  MATRIX="6.1:patched"
# (or any subset) runs fewer.
MATRIX_ALL := 6.1:patched 6.12:patched 6.12:debian 6.1:debian
MATRIX ?= $(MATRIX_ALL)
check-matrix:
	@MAKE='$(MAKE)' guest-image/matrix.sh $(BUILD)/guest/matrix $(MATRIX)

# `make run`: interactive shell; `make run CMD='...'`: one command, its status
# (make itself exits 2 on any failure; run.sh prints the command's status).
# CMD goes through $(file) and $(value): no make or shell quoting gets in
# its way, newlines and $ included.
guest-run: $(KERNEL_BZIMAGE) $(KERNEL_SRC_STAMP) $(GUEST_IMAGE)
	@[ -n "$(KERNEL_BZIMAGE)" ] || { echo "run: KERNEL_BZIMAGE is not set (make kernel, or pass KERNEL_BZIMAGE=...)" >&2; exit 1; }
	@$(MAKE) --no-print-directory guest-stage >&2
	@$(shell mkdir -p $(BUILD)/guest)$(file >$(BUILD)/guest/cmd,$(value CMD))true
	@DAMOS_GUEST_NUMA=$(NUMA) DAMOS_GUEST_MACHINE='$(GUEST_MACHINE)' DAMOS_GUEST_INITRD=$(KERNEL_INITRD) guest-image/run.sh $(if $(value CMD),cmd,shell) $(KERNEL_BZIMAGE) $(GUEST_IMAGE) $(GUEST_STAGE) $(GUEST_OUT) $(BUILD)/guest/cmd

CLEAN_FILES += $(BUILD)/guest
