# KIMAGE=debian: Debian's own linux-image-*-amd64 of $(KVER), unmodified,
# installed into a copy of the guest root with dpkg so that its postinst
# builds the initramfs the Debian way (kernel/debian-image.sh).  Included by
# kernel/kernel.mk in place of the build rule; overrides what other areas use:
#
#   KERNEL_BZIMAGE  Debian's vmlinuz           KERNEL_INITRD   its initrd.img
#   KERNEL_MODULES  its /lib/modules, mounted there in the guest by guest-init
#   KERNEL_CONFIG   its config                 KERNEL_RELEASE_FILE  uname -r
#   KERNEL_SRC      tools/ and mm/damon/ of linux-source-$(KVER) as Debian
#                   ships it, unpacked next to the image (no kernel lock, no
#                   full tree): the DAMON selftests and the KUnit case list
#
# The package: what the version's meta-package depends on (apt's candidate of
# linux-image-$(KVER)-amd64, or of linux-image-amd64 when that is $(KVER)),
# at apt's candidate version; the cache is keyed by that name and version.

DEBIAN_KPKG := $(shell for m in linux-image-$(KVER)-amd64 linux-image-amd64; do \
	apt-cache depends $$m 2>/dev/null; done | sed -n 's/^ *Depends: //p' | \
	grep -E '^linux-image-$(subst .,\.,$(KVER))\.[0-9][^ ]*-amd64$$' | head -n 1)
DEBIAN_KPKGVER := $(if $(DEBIAN_KPKG),$(shell apt-cache policy $(DEBIAN_KPKG) 2>/dev/null | \
	sed -n 's/^ *Candidate: *//p' | grep -v '(none)'))
DEBIAN_KKEY := $(shell { echo '$(KERNEL_PKG) $(KERNEL_PKGVER)'; cat $(CURDIR)/kernel/debian-image.sh; } | sha256sum | cut -c1-8)
DEBIAN_KOUT := $(KERNEL_CACHE)/debian/$(or $(DEBIAN_KPKG),unknown)_$(subst :,_,$(or $(DEBIAN_KPKGVER),unknown))-$(DEBIAN_KKEY)

KERNEL_BZIMAGE := $(DEBIAN_KOUT)/vmlinuz
KERNEL_INITRD := $(DEBIAN_KOUT)/initrd.img
KERNEL_MODULES := $(DEBIAN_KOUT)/modules
KERNEL_CONFIG := $(DEBIAN_KOUT)/config
KERNEL_RELEASE_FILE := $(DEBIAN_KOUT)/kernelrelease
KERNEL_SRC := $(DEBIAN_KOUT)/src
KERNEL_SRC_STAMP := $(DEBIAN_KOUT)/src/.damos-source
KERNEL_SELFTESTS := $(KERNEL_SRC)/tools/testing/selftests/damon

# The guest root is made first (the package is installed into a copy of it);
# $(GUEST_IMAGE) comes from guest-image/guest.mk, read later: recipes expand
# it when they run.
$(KERNEL_BZIMAGE):
	@[ -n "$(DEBIAN_KPKG)" ] && [ -n "$(DEBIAN_KPKGVER)" ] || { \
		echo "kernel: KIMAGE=debian: apt knows no linux-image-$(KVER).*-amd64 (through linux-image-$(KVER)-amd64 or linux-image-amd64); apt-get update?" >&2; exit 1; }
	@$(MAKE) --no-print-directory image
	@DEBIAN_KPKG='$(DEBIAN_KPKG)' DEBIAN_KPKGVER='$(DEBIAN_KPKGVER)' \
		DEBIAN_KOUT='$(DEBIAN_KOUT)' GUEST_IMAGE='$(GUEST_IMAGE)' \
		KERNEL_PKG='$(KERNEL_PKG)' KERNEL_PKGVER='$(KERNEL_PKGVER)' \
		KERNEL_CACHE='$(KERNEL_CACHE)' $(CURDIR)/kernel/debian-image.sh

# made with the image, by the same script
$(KERNEL_SRC_STAMP): | $(KERNEL_BZIMAGE)
	@[ -f $@ ] || { echo "kernel: $@ missing although $(KERNEL_BZIMAGE) is there; remove $(DEBIAN_KOUT) and run make again" >&2; exit 1; }
