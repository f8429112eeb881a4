# packaging: Debian packages of damos (debian/) and of the patched kernel.
#
#   make deb          libdamos1, libdamos-dev, damoctl with dpkg-buildpackage
#                     into $(DEB_OUT); lintian must be clean
#   make kernel-deb   kbuild's bindeb-pkg of the patched kernel (KVER, KCONFIG,
#                     KPATCHES as for make kernel): linux-image-*-damos .deb
#                     (linux-headers too if the config has modules), in a
#                     build directory of its own (incremental after the
#                     first run)
#   make check-deb    boots the guest, installs both with apt-get, reboots
#                     into the installed kernel and initramfs, runs the
#                     damoctl suites against the installed packages
#
# See packaging/README.md.

DEPS += debhelper dpkg-dev fakeroot lintian kmod cpio

DEB_OUT ?= $(DAMOS_CACHE)/deb

# --- kernel packages ---------------------------------------------------------

KERNEL_DEB_CONFIGS := $(KERNEL_CONFIG_FILES) \
	$(sort $(wildcard $(CURDIR)/kernel/config/package/*.config))
KERNEL_DEB_KEY := $(call kernel_hash,$(KERNEL_SRC_KEY) $(KCONFIG) deb,$(KERNEL_DEB_CONFIGS) \
	$(CURDIR)/kernel/build.sh $(CURDIR)/packaging/deb.mk)
# bindeb-pkg puts its .debs in the build directory's parent
KERNEL_DEB_BUILD := $(KERNEL_CACHE)/deb/$(KERNEL_PKGVER_)-$(KPATCHES)-$(KCONFIG)/build
KERNEL_DEB_OUT := $(KERNEL_CACHE)/deb/out/$(KCONFIG)-$(KPATCHES)-$(KERNEL_DEB_KEY)
KERNEL_DEB_STAMP := $(KERNEL_DEB_OUT)/kernelrelease
# 6.1.192-3 -> 6.1.192-3+damos.1: Debian's version, then what was added
KERNEL_DEB_VERSION := $(KERNEL_PKGVER)+$(subst -,.,$(patsubst -%,%,$(KERNEL_LOCALVERSION))).1

.PHONY: kernel-deb kernel-deb-info
kernel-deb: $(KERNEL_DEB_STAMP)
	@echo "kernel-deb: $(KERNEL_DEB_OUT) ($$(cat $(KERNEL_DEB_STAMP)), built in $$(cat $(KERNEL_DEB_OUT)/build-time)):"
	@ls -1 $(KERNEL_DEB_OUT)/*.deb

# Keyed by content like the bzImage: no mtime prerequisites.
$(KERNEL_DEB_STAMP):
	@$(KERNEL_ENV) KERNEL_CONFIGS='$(KERNEL_DEB_CONFIGS)' \
		KERNEL_DEB_BUILD='$(KERNEL_DEB_BUILD)' KERNEL_DEB_OUT='$(KERNEL_DEB_OUT)' \
		KERNEL_DEB_VERSION='$(KERNEL_DEB_VERSION)' \
		$(CURDIR)/kernel/build.sh deb

kernel-deb-info:
	@echo "KERNEL_DEB_OUT=$(KERNEL_DEB_OUT)"
	@echo "KERNEL_DEB_VERSION=$(KERNEL_DEB_VERSION)"
	@echo "KERNEL_DEB_CONFIGS=$(notdir $(KERNEL_DEB_CONFIGS))"

# --- libdamos1, libdamos-dev, damoctl -----------------------------------------

.PHONY: deb
deb:
	packaging/mkdeb.sh $(DEB_OUT)

# For dpkg-buildpackage run by hand in this checkout (make deb does this in
# its copy): the changelog is made from CHANGES, never edited.
.PHONY: debian/changelog
debian/changelog:
	debian/gen-changelog VERSION CHANGES debian/control > $@

# host test of debian/'s generators (no package build: that is make deb)
CHECK_HOST_TARGETS += check-debian
.PHONY: check-debian
check-debian: $(LIB_SO)
	LIB_SO=$(abspath $(LIB_SO)) bats packaging/tests

# --- the packages in the guest -----------------------------------------------

DEB_GUEST_PACKAGES := packaging/guest-packages
DEB_IMAGE_KEY := $(call image_key,$(GUEST_IMAGE_INPUTS) $(DEB_GUEST_PACKAGES))
DEB_IMAGE := $(GUEST_CACHE)/image-deb-$(DEB_IMAGE_KEY)/root.img
DEB_STAGE := $(BUILD)/deb-guest/stage
DEB_GUEST_OUT := $(BUILD)/deb-guest/out

.PHONY: deb-image check-deb
deb-image: $(DEB_IMAGE)

# keyed by content, as make image is
$(DEB_IMAGE):
	@mkdir -p $(@D)
	guest-image/mkimage.sh $@ $(DEB_GUEST_PACKAGES)

# The suites and guest-init come from guest-stage (without the kernel's
# selftests, and its make install tree removed: damoctl must come from the
# packages).
check-deb: $(KERNEL_DEB_STAMP) $(DEB_IMAGE)
	@$(MAKE) --no-print-directory deb
	@$(MAKE) --no-print-directory guest-stage GUEST_STAGE=$(DEB_STAGE) KERNEL_SRC= \
		KERNEL_CONFIG=$(KERNEL_DEB_OUT)/config
	packaging/check-deb.sh $(KERNEL_DEB_OUT) $(DEB_OUT) $(DEB_IMAGE) $(DEB_STAGE) $(DEB_GUEST_OUT)

CLEAN_FILES += $(BUILD)/deb-guest
