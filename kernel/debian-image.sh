#!/usr/bin/env bash
# kernel/debian-image.sh: the work behind KIMAGE=debian (kernel/debian.mk).
#
# Debian's own, unmodified linux-image-*-amd64 package, as an installed
# Debian system has it: downloaded with apt-get download (apt's own mirror
# configuration), installed with dpkg -i into a throwaway copy of the guest
# root (which has initramfs-tools, busybox and zstd, like a Debian install),
# so that the package's own postinst runs depmod and update-initramfs.  The
# initramfs holds what this guest's root needs (MODULES=list: virtio_pci,
# virtio_blk, ext4 and their dependencies), as MODULES=dep would pick on the
# guest, not Debian's default MODULES=most: that one took 159 s (106 s of
# CPU) of an install that takes 34 s (21 s) with the list, made a 30 MiB
# initramfs against 5.5 MiB, and the guest decompressed it at every boot.
# What the guest boots is then taken out of that root into $DEBIAN_KOUT:
#
#   vmlinuz  initrd.img  config  System.map  kernelrelease  package
#   modules/<release>/    /lib/modules of the package, after depmod
#   src/                  tools/ and mm/damon/ of KERNEL_PKG (linux-source-
#                         $KVER, installed with apt if missing): the DAMON
#                         selftests and KUnit case list of that version
#
# Environment (from kernel/debian.mk): DEBIAN_KPKG, DEBIAN_KPKGVER (what make
# keyed the cache on), DEBIAN_KOUT, GUEST_IMAGE (the guest root disk),
# KERNEL_PKG, KERNEL_PKGVER (the source package), KERNEL_CACHE.
set -euo pipefail
: "${DEBIAN_KPKG:?}" "${DEBIAN_KPKGVER:?}" "${DEBIAN_KOUT:?}" "${GUEST_IMAGE:?}" "${KERNEL_CACHE:?}"
: "${KERNEL_PKG:?}" "${KERNEL_PKGVER:?}"

T0=$SECONDS
say() { printf 'kernel: %s\n' "$*"; }
die() { printf 'kernel: error: %s\n' "$*" >&2; exit 1; }
elapsed() { local s=$((SECONDS - ${1:-$T0})); printf '%dm%02ds' $((s / 60)) $((s % 60)); }

[ "$(id -u)" = 0 ] || die "KIMAGE=debian installs the package into a chroot: needs root"
[ -f "$GUEST_IMAGE" ] || die "no guest image $GUEST_IMAGE (make image)"

mkdir -p "$KERNEL_CACHE/debian"
exec 9>"$KERNEL_CACHE/debian/.lock"
if ! flock -n 9; then
	say "waiting for another Debian kernel unpack (lock: $KERNEL_CACHE/debian/.lock)"
	flock 9
fi
if [ -f "$DEBIAN_KOUT/kernelrelease" ]; then
	say "Debian's $DEBIAN_KPKG $DEBIAN_KPKGVER: ready in $DEBIAN_KOUT"
	exit 0
fi

work=$(mktemp -d "$KERNEL_CACHE/debian/work.XXXXXX")
r=$work/root
cleanup() {
	local m
	for m in proc dev; do
		mountpoint -q "$r/$m" 2>/dev/null && umount -l "$r/$m"
	done
	rm -rf "$work"
}
trap cleanup EXIT

# The package, by the version make keyed the cache on; stale lists are
# refreshed once.
say "downloading $DEBIAN_KPKG $DEBIAN_KPKGVER with apt-get download"
if ! (cd "$work" && apt-get download -q "$DEBIAN_KPKG=$DEBIAN_KPKGVER" >"$work/apt.log" 2>&1); then
	say "apt-get download failed; apt-get update and once more"
	apt-get -o DPkg::Lock::Timeout=600 update -q >/dev/null 2>&1 || true
	(cd "$work" && apt-get download -q "$DEBIAN_KPKG=$DEBIAN_KPKGVER" >"$work/apt.log" 2>&1) || {
		cat "$work/apt.log" >&2
		now=$(apt-cache policy "$DEBIAN_KPKG" 2>/dev/null | sed -n 's/^ *Candidate: *//p')
		die "cannot download $DEBIAN_KPKG=$DEBIAN_KPKGVER (apt's candidate now: ${now:-none}; run make again)"
	}
fi
deb=$(find "$work" -maxdepth 1 -name "${DEBIAN_KPKG}_*.deb" | head -n 1)
[ -n "$deb" ] || die "apt-get download left no ${DEBIAN_KPKG}_*.deb"
got=$(dpkg-deb -f "$deb" Version)
[ "$got" = "$DEBIAN_KPKGVER" ] || die "downloaded $DEBIAN_KPKG $got, wanted $DEBIAN_KPKGVER"
say "downloaded $(basename "$deb") ($(du -m "$deb" | cut -f1) MiB) in $(elapsed)"

# A copy of the guest root, read out of its image without mounting it.
t=$SECONDS
mkdir -p "$r"
debugfs -R "rdump / $r" "$GUEST_IMAGE" >"$work/rdump.log" 2>&1 ||
	{ tail -n 20 "$work/rdump.log" >&2; die "debugfs rdump of $GUEST_IMAGE failed"; }
# rdump puts the root directory's contents under $r/ or $r/<name of />
[ -x "$r/usr/sbin/mkinitramfs" ] ||
	die "the guest root has no mkinitramfs (guest-image/packages must list initramfs-tools)"
say "guest root copied out of $(basename "$(dirname "$GUEST_IMAGE")") in $(elapsed "$t")"

# dpkg -i as on an installed system: postinst runs depmod and the
# initramfs-tools hook (update-initramfs -c).  A private mount namespace:
# /proc and /dev in the chroot disappear with it.  --force-unsafe-io: no
# fsync of every module file into a root that is thrown away.
t=$SECONDS
cp "$deb" "$r/tmp/"
echo MODULES=list >"$r/etc/initramfs-tools/conf.d/damos-guest"
printf '%s\n' virtio_pci virtio_blk ext4 >>"$r/etc/initramfs-tools/modules"
say "installing it with dpkg -i in the guest root (depmod, update-initramfs)"
if ! unshare -m --propagation private sh -c '
	r=$1 deb=$2
	mount -t proc proc "$r/proc" && mount --rbind /dev "$r/dev" &&
	chroot "$r" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C \
		DEBIAN_FRONTEND=noninteractive dpkg --force-unsafe-io -i "/tmp/$deb"
' _ "$r" "$(basename "$deb")" >"$work/dpkg.log" 2>&1; then
	tail -n 30 "$work/dpkg.log" >&2
	die "dpkg -i $(basename "$deb") in the guest root failed"
fi
rel=$(ls "$r/usr/lib/modules" 2>/dev/null | head -n 1)
[ -n "$rel" ] || die "the package installed no /lib/modules/<release>"
for f in "boot/vmlinuz-$rel" "boot/initrd.img-$rel" "boot/config-$rel" "usr/lib/modules/$rel/modules.dep"; do
	[ -s "$r/$f" ] || { tail -n 30 "$work/dpkg.log" >&2; die "after dpkg -i: no /$f"; }
done
say "installed $rel in $(elapsed "$t"): initrd.img $(du -m "$r/boot/initrd.img-$rel" | cut -f1) MiB"

rm -rf "$DEBIAN_KOUT.new"
mkdir -p "$DEBIAN_KOUT.new/modules" "$DEBIAN_KOUT.new/src"

# The selftests and KUnit cases of this version, from Debian's source
# package as it is (only what the suites read: no kernel lock, no full tree).
t=$SECONDS
if [ "$(dpkg-query -W -f='${Status}' "$KERNEL_PKG" 2>/dev/null)" != "install ok installed" ]; then
	say "installing $KERNEL_PKG with apt-get"
	DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -q --no-install-recommends "$KERNEL_PKG" >"$work/apt-src.log" 2>&1 ||
	{ apt-get -o DPkg::Lock::Timeout=600 update -q >/dev/null 2>&1; DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -q --no-install-recommends "$KERNEL_PKG" >"$work/apt-src.log" 2>&1; } ||
		{ tail -n 20 "$work/apt-src.log" >&2; die "could not install $KERNEL_PKG"; }
fi
srcver=$(dpkg-query -W -f='${Version}' "$KERNEL_PKG")
[ "$srcver" = "$KERNEL_PKGVER" ] || die "$KERNEL_PKG is $srcver but make keyed the cache on '$KERNEL_PKGVER'; run make again"
tar -xJf "/usr/src/$KERNEL_PKG.tar.xz" -C "$DEBIAN_KOUT.new/src" --strip-components=1 \
	--wildcards --no-wildcards-match-slash '*/tools' '*/mm/damon' || die "unpacking tools/ and mm/damon/ of /usr/src/$KERNEL_PKG.tar.xz failed"
echo "$KERNEL_PKG $srcver" >"$DEBIAN_KOUT.new/src/.damos-source"
[ "${srcver%%-*}" = "${DEBIAN_KPKGVER%%-*}" ] ||
	say "note: the selftests come from $KERNEL_PKG $srcver, the image is $DEBIAN_KPKGVER"
say "$KERNEL_PKG $srcver: tools/ and mm/damon/ unpacked in $(elapsed "$t")"
cp "$r/boot/vmlinuz-$rel" "$DEBIAN_KOUT.new/vmlinuz"
cp "$r/boot/initrd.img-$rel" "$DEBIAN_KOUT.new/initrd.img"
cp "$r/boot/config-$rel" "$DEBIAN_KOUT.new/config"
cp "$r/boot/System.map-$rel" "$DEBIAN_KOUT.new/System.map" 2>/dev/null || true
cp -a "$r/usr/lib/modules/$rel" "$DEBIAN_KOUT.new/modules/"
cp "$work/dpkg.log" "$DEBIAN_KOUT.new/dpkg.log"
echo "$rel" >"$DEBIAN_KOUT.new/kernelrelease"
echo "$DEBIAN_KPKG $DEBIAN_KPKGVER" >"$DEBIAN_KOUT.new/package"
rm -rf "$DEBIAN_KOUT"
mv "$DEBIAN_KOUT.new" "$DEBIAN_KOUT"
say "Debian's $DEBIAN_KPKG $DEBIAN_KPKGVER ($rel): $DEBIAN_KOUT (total $(elapsed))"
