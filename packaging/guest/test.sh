#!/bin/bash
# make check-deb, second boot: the kernel and initramfs that the kernel
# package installed in /boot, root=LABEL=damos-root (which only the
# initramfs can resolve).  Checks the boot, runs the damoctl suites against
# the installed packages (/usr/bin/damoctl, nothing in /usr/local), then
# removes the packages: nothing may stay but the conffile, which purge
# removes.  TAP on stdout (this script's, then the suites' on their own).
set -u
. /damos/deb/tap.sh
rel=$(cat /damos/deb/kernelrelease)
export DEBIAN_FRONTEND=noninteractive
results=/damos/results

check "running the packaged kernel $rel" test "$(uname -r)" = "$rel"
check "booted through the initramfs (root=LABEL=damos-root, initramfs unpacked)" \
	bash -c 'grep -q "root=LABEL=damos-root" /proc/cmdline &&
		dmesg | grep -qE "Unpacking initramfs|Trying to unpack rootfs image as initramfs" &&
		! dmesg | grep -q "rootfs image is not initramfs"'
check "root is /dev/vda, mounted by the initramfs" bash -c 'findmnt -n -o SOURCE / | grep -qx /dev/vda'
check "damoctl is the package's /usr/bin/damoctl (no /usr/local install)" \
	bash -c '[ "$(command -v damoctl)" = /usr/bin/damoctl ] && [ ! -e /usr/local/bin/damoctl ]'

# The suites replace /etc/damoctl.conf (apply.bats) and remove it: keep
# the package's copy for the removal checks below.
cp -a /etc/damoctl.conf /root/damoctl.conf.pkg
suites=$(cat /damos/deb/suites)
(
	cd /damos/tests &&
	DAMOS_PREFIX=/usr DAMOS_UNITDIR=/lib/systemd/system DAMOS_BOOT_DMESG=$results/boot-dmesg.txt \
	BATS_TEST_TIMEOUT=${BATS_TEST_TIMEOUT:-300} bats --tap $suites
) > "$results/suites.tap" 2>&1
suites_rc=$?
cp -a /root/damoctl.conf.pkg /etc/damoctl.conf
check "the damoctl suites ($suites) pass against the packages (TAP: suites.tap)" test $suites_rc = 0

pkgs="damoctl libdamos-dev libdamos1"
for p in $pkgs; do dpkg -L "$p"; done | sort -u > /root/files
dpkg-query -W -f='${Conffiles}\n' $pkgs | awk 'NF { print $1 }' > /root/conffiles
check "apt-get remove $pkgs" apt-get remove -y -q $pkgs
# After remove: no file of theirs but conffiles; a directory of theirs
# stays only if another package owns it too.  After purge, not even those.
left() {
	local f bad=0
	while read -r f; do
		[ "$f" = /. ] && continue
		[ -e "$f" ] || [ -L "$f" ] || continue
		if [ -d "$f" ]; then
			dpkg -S "$f" >/dev/null 2>&1 || { echo "left: directory $f ($(ls -A "$f" | head -n 3 | xargs))"; bad=1; }
		elif [ "${1:-}" = purged ] || ! grep -qxF "$f" /root/conffiles; then
			echo "left: $f"; bad=1
		fi
	done < /root/files
	return $bad
}
check "after remove, nothing of theirs is left but conffiles" left
check "after remove, /etc/damoctl.conf stays, damoctl is in config-files state" \
	bash -c "[ -f /etc/damoctl.conf ] && dpkg-query -W -f='\${Status}' damoctl | grep -qx 'deinstall ok config-files'"
check "apt-get purge damoctl removes the conffile too" \
	bash -c 'apt-get purge -y -q damoctl && [ ! -e /etc/damoctl.conf ] && ! dpkg-query -W -f="\${Status}" damoctl 2>/dev/null | grep -q config-files'
check "after purge, nothing of theirs is left at all" left purged
plan
exit $((failed > 0))
