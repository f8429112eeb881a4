#!/bin/bash
# make check-deb, first boot (the packaged kernel's vmlinuz, no initramfs,
# root=/dev/vda): install the fresh .debs from /damos/debs with apt-get as
# a user would, offline (the guest has no network), and check what they
# installed.  TAP on stdout; the host then boots the /boot files the kernel
# package made.
set -u
. /damos/deb/tap.sh
rel=$(cat /damos/deb/kernelrelease)
export DEBIAN_FRONTEND=noninteractive
cd /damos/debs || exit 1

kpkgs=$(cd /damos/debs && ls linux-*.deb | sed 's/_.*//' | sort -u | xargs)
check "apt-get install ./*.deb (libdamos1, libdamos-dev, damoctl, $kpkgs), offline" \
	apt-get install -y -q --no-install-recommends ./*.deb

for p in libdamos1 libdamos-dev damoctl $kpkgs; do
	check "$p is installed" bash -c "dpkg-query -W -f='\${Status}' $p | grep -qx 'install ok installed'"
done
listed() { dpkg -L "$1" | grep -qxF "$2"; }
for f in /usr/bin/damoctl /usr/share/man/man8/damoctl.8.gz /usr/share/man/man5/damoctl.conf.5.gz \
	/usr/share/bash-completion/completions/damoctl /lib/systemd/system/damoctl.service /etc/damoctl.conf; do
	check "dpkg -L damoctl: $f" listed damoctl "$f"
done
for f in /usr/include/damos.h /usr/share/man/man3/libdamos.3.gz; do
	check "dpkg -L libdamos-dev: $f" listed libdamos-dev "$f"
done
check "dpkg -L libdamos-dev: libdamos.a, libdamos.so, libdamos.pc under the multiarch libdir" \
	bash -c 'dpkg -L libdamos-dev | grep -cE "^/usr/lib/[^/]+-linux-gnu/(libdamos\.a|libdamos\.so|pkgconfig/libdamos\.pc)$" | grep -qx 3'
check "/etc/damoctl.conf is a conffile of damoctl" \
	bash -c "dpkg-query -W -f='\${Conffiles}\n' damoctl | grep -q '^ /etc/damoctl.conf '"
check "damoctl runs, libdamos linked in (no libdamos.so needed)" \
	bash -c '! ldd /usr/bin/damoctl | grep -q libdamos && damoctl --version'
check "damoctl.service is installed, not enabled" \
	bash -c '[ -f /lib/systemd/system/damoctl.service ] && ! ls /etc/systemd/system/*.wants/damoctl.service 2>/dev/null | grep -q .'
check "the shipped /etc/damoctl.conf is valid (apply check)" damoctl apply check /etc/damoctl.conf
check "bash-completion's loader finds damoctl's completion" \
	bash -c '. /usr/share/bash-completion/bash_completion; _completion_loader damoctl; complete -p damoctl | grep -q "_damoctl damoctl$"'
check "man -w damoctl damoctl.conf libdamos: the installed pages" \
	bash -c 'for p in damoctl damoctl.conf libdamos; do man -w $p | grep -q "^/usr/share/man/" || exit 1; done'
check "the kernel package made /boot/vmlinuz-$rel and /boot/initrd.img-$rel" \
	test -s "/boot/vmlinuz-$rel" -a -s "/boot/initrd.img-$rel"
check "the initramfs has initramfs-tools' init and its root mounting" \
	bash -c "lsinitramfs /boot/initrd.img-$rel | grep -qx init && lsinitramfs /boot/initrd.img-$rel | grep -qx scripts/local"

plan
sync
exit $((failed > 0))
