#!/bin/bash
# check-deb.sh KDEB DEBS IMAGE STAGE OUT: the Debian packages where they run.
#
#   boot 1  the packaged kernel's vmlinuz (no initramfs, root=/dev/vda) on a
#           writable copy of IMAGE; guest/install.sh installs the .debs of
#           DEBS (libdamos1, libdamos-dev, damoctl) and KDEB (linux-image,
#           linux-headers if made) with apt-get, offline, and checks them
#   boot 2  the vmlinuz and initrd.img that the kernel package installed in
#           the guest's /boot (read out of the disk with debugfs),
#           root=LABEL=damos-root; guest/test.sh checks the boot, runs the
#           damoctl suites against the packages, removes and purges them
#
# STAGE is a guest-stage payload without the install tree (guest-init, the
# suites and their helpers); OUT gets the console logs, the results and the
# disk.  Prints "check-deb: N passed, N failed"; fails on a failed check, a
# timeout or a kernel report.  The QEMU settings follow guest-image/run.sh
# (DAMOS_GUEST_MEM, DAMOS_GUEST_CPUS, DAMOS_GUEST_TIMEOUT per boot,
# DAMOS_KVM), but the root disk is written and the kernel booted with an
# initramfs, which run.sh does not do.
set -uo pipefail
kdeb=$1 debs=$2 image=$3 stage=$4 out=$5
here=$(cd "$(dirname "$0")" && pwd)
suites=${DEB_SUITES:-apply.bats bad_input.bats damoctl.bats damoctl_lru_sort.bats shell.bats}
mem=${DAMOS_GUEST_MEM:-2G}
cpus=${DAMOS_GUEST_CPUS:-2}
tmo=${DAMOS_GUEST_TIMEOUT:-1800}
t0=$SECONDS

die() { echo "check-deb: $*" >&2; exit 1; }
say() { echo "check-deb: $*"; }
rel=$(cat "$kdeb/kernelrelease") || die "no kernel packages in $kdeb (make kernel-deb)"
[ -f "$image" ] || die "no guest image $image"
ls "$kdeb"/linux-image-"$rel"_*.deb >/dev/null 2>&1 || die "no linux-image-$rel .deb in $kdeb"
for p in libdamos1 libdamos-dev damoctl; do
	ls "$debs/${p}_"*.deb >/dev/null 2>&1 || die "no $p .deb in $debs (make deb)"
done

# without it every suite skips as on a kernel without DAMON
[ -s "$stage/tests/kernel.config" ] || die "no tests/kernel.config in $stage: the suites cannot tell what the kernel has"

rm -rf "$out"
mkdir -p "$out"
out=$(cd "$out" && pwd)

# the payload: the packages and the two guest scripts
rm -rf "$stage/debs" "$stage/deb" "$stage/root"
mkdir -p "$stage/debs" "$stage/deb"
cp "$debs"/libdamos1_*.deb "$debs"/libdamos-dev_*.deb "$debs"/damoctl_*.deb \
	"$kdeb"/linux-*"$rel"_*.deb "$stage/debs/"
cp "$here"/guest/*.sh "$stage/deb/"
echo "$rel" > "$stage/deb/kernelrelease"
echo "$suites" > "$stage/deb/suites"
say "packages: $(cd "$stage/debs" && echo *.deb)"

# a writable root disk with room for the packages
say "root disk: a copy of $(basename "$(dirname "$image")"), 1 GiB larger"
cp --sparse=always "$image" "$out/root.img"
truncate -s +1G "$out/root.img"
e2fsck -fp "$out/root.img" >/dev/null || die "e2fsck of the copied image failed"
resize2fs -f "$out/root.img" >/dev/null 2>&1 || die "resize2fs failed"

if [ "${DAMOS_KVM:-0}" = 1 ]; then accel=(-accel kvm -cpu host); else accel=(-accel tcg); fi
bad_kernel_log='Oops|BUG:|WARNING:|KASAN|UBSAN|Kernel panic|general protection fault|cut here|possible (circular|recursive) locking|inconsistent lock state|DEBUG_LOCKS_WARN_ON|suspicious RCU usage|INFO: task .* blocked|INFO: rcu'

passed=0 failed=0 skipped=0
count() {	# count TAPFILE: add its ok / not ok / skipped lines
	local ok nok sk
	sk=$(grep -cE '^ok .* # skip' "$1")
	ok=$(( $(grep -c '^ok ' "$1") - sk ))
	nok=$(grep -c '^not ok ' "$1")
	passed=$((passed + ok)) failed=$((failed + nok)) skipped=$((skipped + sk))
}
host() {	# host CONDITION-RESULT NAME
	if [ "$1" = 0 ]; then passed=$((passed + 1)); echo "ok - host: $2"
	else failed=$((failed + 1)); echo "not ok - host: $2"; fi
}

# boot NAME KERNEL INITRD APPEND SCRIPT: run SCRIPT in the guest (guest-init's
# cmd mode), its output on this terminal and in OUT/NAME.tap
boot() {
	local name=$1 kernel=$2 initrd=$3 append=$4 script=$5 t=$SECONDS qrc
	echo cmd > "$stage/mode"
	echo "bash /damos/deb/$script" > "$stage/cmd"
	rm -rf "$stage/results" && mkdir -p "$stage/results"
	local size_mb=$(( $(du -sm "$stage" | cut -f1) + 256 ))
	rm -f "$out/payload.img"
	truncate -s "${size_mb}M" "$out/payload.img"
	mkfs.ext4 -q -F -L damos-payload -d "$stage" "$out/payload.img" "${size_mb}M" ||
		die "mkfs.ext4 -d failed"
	say "$name: booting $(basename "$kernel")${initrd:+ + $(basename "$initrd")} ($mem, $cpus CPUs, timeout $tmo s)"
	timeout -k 5 "$tmo" qemu-system-x86_64 -nodefaults -no-user-config -display none -no-reboot \
		-m "$mem" -smp "$cpus" "${accel[@]}" \
		-drive "file=$out/root.img,format=raw,if=virtio" \
		-drive "file=$out/payload.img,format=raw,if=virtio" \
		-kernel "$kernel" ${initrd:+-initrd "$initrd"} \
		-append "console=ttyS0 $append init=/sbin/damos-init panic=-1 log_buf_len=4M ignore_loglevel" \
		-serial "file:$out/$name-console.log" -serial stdio </dev/null |
		sed -u 's/\r$//' | tee "$out/$name.tap" | sed -u "s/^/  $name: /"
	qrc=${PIPESTATUS[0]}
	say "$name: QEMU exited ($qrc) after $((SECONDS - t)) s"
	host "$([ "$qrc" != 124 ]; echo $?)" "$name: the guest finished within $tmo s"
	mkdir -p "$out/$name-results"
	debugfs -R "rdump /results $out/$name-results" "$out/payload.img" >/dev/null 2>&1
	host "$([ "$(cat "$out/$name-results/results/rc" 2>/dev/null)" = 0 ]; echo $?)" \
		"$name: $script exited 0"
	count "$out/$name.tap"
	if grep -nE "$bad_kernel_log" "$out/$name-console.log" > "$out/$name-kernel-reports.txt"; then
		host 1 "$name: kernel log has no Oops/BUG/WARNING report"
		head -n 10 "$out/$name-kernel-reports.txt" | sed 's/^/# /'
	else
		host 0 "$name: kernel log has no Oops/BUG/WARNING report"
	fi
}

mkdir -p "$out/pkg"
dpkg-deb --fsys-tarfile "$kdeb"/linux-image-"$rel"_*.deb |
	tar -x -C "$out/pkg" "./boot/vmlinuz-$rel" || die "no boot/vmlinuz-$rel in the linux-image package"
boot install "$out/pkg/boot/vmlinuz-$rel" "" "root=/dev/vda rw" install.sh

# the files the package installed, read off the guest's disk
mkdir -p "$out/boot"
for f in "vmlinuz-$rel" "initrd.img-$rel"; do
	debugfs -R "dump /boot/$f $out/boot/$f" "$out/root.img" >/dev/null 2>&1
done
if [ -s "$out/boot/vmlinuz-$rel" ] && [ -s "$out/boot/initrd.img-$rel" ]; then
	host 0 "the guest's /boot has vmlinuz-$rel and initrd.img-$rel ($(du -k "$out/boot/initrd.img-$rel" | cut -f1) KiB)"
	boot installed "$out/boot/vmlinuz-$rel" "$out/boot/initrd.img-$rel" "root=LABEL=damos-root rw" test.sh
	if [ -s "$out/installed-results/results/suites.tap" ]; then
		say "suites ($suites):"
		grep -E '^(not )?ok ' "$out/installed-results/results/suites.tap" | sed 's/^/  suites: /'
		grep -E '^not ok ' -A 15 "$out/installed-results/results/suites.tap" | grep '^#' | head -n 60 | sed 's/^/  suites: /'
		sk=$skipped
		count "$out/installed-results/results/suites.tap"
		# The package holds the guest config's kernel, which has every
		# feature these suites use (check-guest skips none of them on a
		# patched kernel): a skip (listed above with its reason) means
		# the run proved less than it says.
		host "$([ "$skipped" = "$sk" ]; echo $?)" "no suite test skipped ($((skipped - sk)) skipped)"
		# tests that did not run (bats stopped early) count as failed
		plan=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$out/installed-results/results/suites.tap" | head -n 1)
		ran=$(grep -cE '^(not )?ok ' "$out/installed-results/results/suites.tap")
		if [ -z "$plan" ] || [ "$ran" -lt "$plan" ]; then
			host 1 "all planned suite tests ran (plan ${plan:-none}, ran $ran)"
			failed=$((failed + ${plan:-0} - ran))
			grep -v -E '^(not )?ok ' "$out/installed-results/results/suites.tap" | head -n 5 | sed 's/^/# /'
		fi
	else
		host 1 "the suites wrote their TAP"
	fi
else
	host 1 "the guest's /boot has vmlinuz-$rel and initrd.img-$rel"
fi

say "results in $out (install.tap, installed.tap, installed-results/results/suites.tap, *-console.log); $((SECONDS - t0)) s"
echo "check-deb: $passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
