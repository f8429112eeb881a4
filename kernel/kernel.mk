# kernel: Debian's linux-source-$(KVER) + kernel/patches/$(KVER)/series,
# configured from tinyconfig + kernel/config/*.config +
# kernel/config/$(KVER)/*.config, built into the cache (never the repo).
# The work is done by kernel/build.sh; this file computes paths and keys.
#
# Knobs (command line or environment):
#   KVER=6.1          the kernel: 6.1 or 6.12 picks the source package
#                     (linux-source-$(KVER)), the series
#                     (kernel/patches/$(KVER)/) and the version's own config
#                     fragments (kernel/config/$(KVER)/*.config); every cache
#                     path below carries the package version
#   KCONFIG=default   config set: kernel/config/*.config; any other NAME adds
#                     kernel/config/variant/NAME.config (e.g. KCONFIG=debug)
#   KPATCHES=series   KPATCHES=none builds the package as is, for comparison
#   KERNEL_JOBS=2     make -j for kbuild
#   KERNEL_SERIES=F   another series file to build or lint
#
# Targets: kernel, kernel-source (just the patched tree), kernel-lint
# (checkpatch --strict + bisect build of mm/damon/), kernel-info,
# kernel-clean, and kernel-devtree / kernel-export to rework the series in
# a git tree ($(DAMOS_CACHE)/kernel/dev/...) and write it back as patches.
#
# For other areas:
#   KERNEL_BZIMAGE    the bzImage (file rule; `make kernel` builds it)
#   KERNEL_SRC        the source tree it was built from (patched unless
#                     KPATCHES=none); KERNEL_SRC_STAMP is a file rule that
#                     brings the tree to that state without building
#   KERNEL_SELFTESTS  $(KERNEL_SRC)/tools/testing/selftests/damon
#   KERNEL_CONFIG     the .config used; KERNEL_RELEASE_FILE holds `uname -r`
#
# Keys: the source tree state is keyed by the package version and the series
# (the series file and the patches it lists: the cover letter is not an
# input); the bzImage by that, KCONFIG, the config fragments, build.sh and
# this file.
# Outputs live in $(DAMOS_CACHE)/kernel/out/<KCONFIG>-<KPATCHES>-<key>/, so switching
# back to earlier inputs is free; the source trees and build directories are
# stable per (package version, KPATCHES, KCONFIG) so that a changed patch
# recompiles only what it touches.

KVER ?= 6.1
KERNEL_VERSIONS := 6.1 6.12
ifeq ($(filter $(KERNEL_VERSIONS),$(KVER)),)
$(error KVER must be one of: $(KERNEL_VERSIONS); not "$(KVER)")
endif
KERNEL_PKG := linux-source-$(KVER)
KERNEL_DEPS := $(KERNEL_PKG) xz-utils patch make gcc libc6-dev bc bison flex \
	libelf-dev libssl-dev perl
DEPS += $(KERNEL_DEPS)

KCONFIG ?= default
KPATCHES ?= series
KERNEL_JOBS ?= 2

ifeq ($(filter series none,$(KPATCHES)),)
$(error KPATCHES must be "series" or "none", not "$(KPATCHES)")
endif

# KIMAGE=debian boots Debian's own image of $(KVER) (kernel/debian.mk); its
# source tree, for the selftests and KUnit case list, is the package as is.
KIMAGE ?= patched
ifeq ($(filter patched debian,$(KIMAGE)),)
$(error KIMAGE must be "patched" or "debian", not "$(KIMAGE)")
endif
ifeq ($(KIMAGE),debian)
override KPATCHES := none
endif

# The installed version, or the one apt would install on a fresh machine
# (build.sh installs it and checks that the two agree).
KERNEL_PKGVER := $(shell dpkg-query -W -f='$${Version}' $(KERNEL_PKG) 2>/dev/null)
ifeq ($(KERNEL_PKGVER),)
KERNEL_PKGVER := $(shell apt-cache policy $(KERNEL_PKG) 2>/dev/null | \
	sed -n 's/^ *Candidate: *//p' | grep -v '(none)')
endif
ifeq ($(KERNEL_PKGVER),)
KERNEL_PKGVER := unknown
endif
KERNEL_PKGVER_ := $(subst :,_,$(KERNEL_PKGVER))

# KERNEL_SERIES=PATH tries another series (e.g. while reworking one)
KERNEL_SERIES ?= $(CURDIR)/kernel/patches/$(KVER)/series
kernel_hashchar := \#
ifeq ($(KPATCHES),none)
KERNEL_PATCH_FILES :=
KERNEL_SERIES_ARG :=
KERNEL_LOCALVERSION := -unpatched
else
KERNEL_PATCH_FILES := $(KERNEL_SERIES) $(addprefix $(dir $(KERNEL_SERIES)),\
	$(shell sed -e 's/$(kernel_hashchar).*//' $(KERNEL_SERIES) 2>/dev/null))
KERNEL_SERIES_ARG := $(KERNEL_SERIES)
KERNEL_LOCALVERSION := -damos
endif

KERNEL_CONFIG_FILES := $(sort $(wildcard $(CURDIR)/kernel/config/*.config)) \
	$(sort $(wildcard $(CURDIR)/kernel/config/$(KVER)/*.config))
ifneq ($(KCONFIG),default)
KERNEL_CONFIG_FILES += $(CURDIR)/kernel/config/variant/$(KCONFIG).config
KERNEL_LOCALVERSION := $(KERNEL_LOCALVERSION)-$(KCONFIG)
ifeq ($(wildcard $(CURDIR)/kernel/config/variant/$(KCONFIG).config),)
$(error KCONFIG=$(KCONFIG): no kernel/config/variant/$(KCONFIG).config)
endif
endif

# $(call kernel_hash,STRING,FILES): hash of STRING and the files' names and
# contents (a missing file hashes as empty)
kernel_hash = $(shell { echo '$(1)'; $(foreach f,$(2),echo '== $(notdir $(f))'; \
	cat '$(f)' 2>/dev/null;) } | sha256sum | cut -c1-12)

KERNEL_SRC_KEY := $(call kernel_hash,$(KERNEL_PKG) $(KERNEL_PKGVER) $(KPATCHES),$(KERNEL_PATCH_FILES))
KERNEL_KEY := $(call kernel_hash,$(KERNEL_SRC_KEY) $(KCONFIG),$(KERNEL_CONFIG_FILES) \
	$(CURDIR)/kernel/build.sh $(CURDIR)/kernel/kernel.mk)

KERNEL_CACHE := $(abspath $(DAMOS_CACHE))/kernel
KERNEL_SRC := $(KERNEL_CACHE)/src/linux-$(KERNEL_PKGVER_)$(if $(filter none,$(KPATCHES)),-unpatched)
KERNEL_SRC_STAMP := $(KERNEL_SRC)/.damos/stamp-$(KERNEL_SRC_KEY)
KERNEL_SELFTESTS := $(KERNEL_SRC)/tools/testing/selftests/damon
KERNEL_BUILD_DIR := $(KERNEL_CACHE)/build/$(KERNEL_PKGVER_)-$(KPATCHES)-$(KCONFIG)
KERNEL_OUT := $(KERNEL_CACHE)/out/$(KCONFIG)-$(KPATCHES)-$(KERNEL_KEY)
KERNEL_BZIMAGE := $(KERNEL_OUT)/bzImage
KERNEL_CONFIG := $(KERNEL_OUT)/config
KERNEL_RELEASE_FILE := $(KERNEL_OUT)/kernelrelease
KERNEL_LINT_SRC := $(KERNEL_CACHE)/lint/linux-$(KERNEL_PKGVER_)
KERNEL_LINT_BUILD := $(KERNEL_CACHE)/lint/build-$(KERNEL_PKGVER_)

KERNEL_ENV := KERNEL_PKG='$(KERNEL_PKG)' KERNEL_PKGVER='$(KERNEL_PKGVER)' \
	KERNEL_DEPS='$(KERNEL_DEPS)' KERNEL_CACHE='$(KERNEL_CACHE)' \
	KERNEL_SRC='$(KERNEL_SRC)' KERNEL_SRC_KEY='$(KERNEL_SRC_KEY)' \
	KERNEL_PATCHES='$(KERNEL_SERIES_ARG)' \
	KERNEL_CONFIGS='$(KERNEL_CONFIG_FILES)' KERNEL_JOBS='$(KERNEL_JOBS)' \
	KERNEL_LOCALVERSION='$(KERNEL_LOCALVERSION)' \
	KERNEL_BUILD_DIR='$(KERNEL_BUILD_DIR)' KERNEL_OUT='$(KERNEL_OUT)' \
	KERNEL_LINT_SRC='$(KERNEL_LINT_SRC)' KERNEL_LINT_BUILD='$(KERNEL_LINT_BUILD)'

# KIMAGE=debian: Debian's image and its own source subset, keyed and made
# by kernel/debian.mk (the variables above it overrides, its own rules).
ifeq ($(KIMAGE),debian)
include $(CURDIR)/kernel/debian.mk
endif

.PHONY: kernel kernel-source kernel-lint kernel-info kernel-clean

kernel: $(KERNEL_BZIMAGE) $(KERNEL_SRC_STAMP)
	@echo "kernel: ready: $(KERNEL_BZIMAGE) ($$(cat $(KERNEL_RELEASE_FILE)))"

kernel-source: $(KERNEL_SRC_STAMP)

# No prerequisites by mtime: the path is keyed by content, so a fresh clone
# with new mtimes reuses the cache.  The source tree prerequisite is
# order-only for the same reason.
ifneq ($(KIMAGE),debian)
$(KERNEL_BZIMAGE): | $(KERNEL_SRC_STAMP)
	@$(KERNEL_ENV) $(CURDIR)/kernel/build.sh build

$(KERNEL_SRC_STAMP):
	@$(KERNEL_ENV) $(CURDIR)/kernel/build.sh source
endif

kernel-lint:
	@$(KERNEL_ENV) KERNEL_CONFIGS='$(sort $(wildcard $(CURDIR)/kernel/config/*.config) \
		$(wildcard $(CURDIR)/kernel/config/$(KVER)/*.config))' \
		$(CURDIR)/kernel/build.sh lint

kernel-info:
	@echo "KVER=$(KVER)"
	@echo "KIMAGE=$(KIMAGE)"
	@echo "KERNEL_PKG=$(KERNEL_PKG)"
	@echo "KERNEL_PKGVER=$(KERNEL_PKGVER)"
	@echo "KERNEL_SRC=$(KERNEL_SRC)"
	@echo "KERNEL_SELFTESTS=$(KERNEL_SELFTESTS)"
	@echo "KERNEL_BUILD_DIR=$(KERNEL_BUILD_DIR)"
	@echo "KERNEL_BZIMAGE=$(KERNEL_BZIMAGE)"
	@echo "KERNEL_CONFIG=$(KERNEL_CONFIG)"
	@echo "KERNEL_RELEASE_FILE=$(KERNEL_RELEASE_FILE)"
	@echo "KERNEL_INITRD=$(KERNEL_INITRD)"
	@echo "KERNEL_MODULES=$(KERNEL_MODULES)"
	@echo "KERNEL_CONFIG_FILES=$(notdir $(KERNEL_CONFIG_FILES))"

# Build directories and outputs; the unpacked trees are kept (cheap to
# reuse, 15 s to unpack again).
kernel-clean:
	rm -rf $(KERNEL_CACHE)/build $(KERNEL_CACHE)/out $(KERNEL_CACHE)/lint/build-*

# Reworking the series: a git tree of the package with the series as
# commits, and back to kernel/patches (see kernel/devtree.sh).
KERNEL_DEVTREE ?= $(KERNEL_CACHE)/dev/linux-$(KERNEL_PKGVER_)
KERNEL_DEVTREE_ENV := KERNEL_PKG='$(KERNEL_PKG)' KERNEL_PKGVER='$(KERNEL_PKGVER)' \
	KERNEL_DEVTREE='$(KERNEL_DEVTREE)' KERNEL_PATCHDIR='$(dir $(KERNEL_SERIES))'

.PHONY: kernel-devtree kernel-export
kernel-devtree:
	@$(KERNEL_DEVTREE_ENV) $(CURDIR)/kernel/devtree.sh init

kernel-export:
	@$(KERNEL_DEVTREE_ENV) $(CURDIR)/kernel/devtree.sh export
