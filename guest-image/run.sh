#!/bin/bash
# run.sh MODE KERNEL IMAGE STAGE OUT [CMDFILE]: boot the damos guest in QEMU.
#
#   MODE check  run the in-guest suites; print progress and the summary line;
#               exit non-zero on a failed test, a hang (timeout) or a kernel
#               log with an Oops, BUG, WARNING, KASAN or lockdep report
#   MODE cmd    run the shell code in CMDFILE in the guest, print its output, exit with its status
#   MODE shell  interactive root shell on this terminal (Ctrl-A x kills QEMU)
#
# KERNEL is a bzImage, IMAGE the root disk from `make image` (attached with
# snapshot=on: never written), STAGE the directory packed into the payload disk
# (/dev/vdb, /damos in the guest: guest-init, the project's install tree, the
# tests), OUT where the console log and the results land.
#
# Environment: DAMOS_KVM=1 uses KVM (TCG otherwise: nested KVM here is far
# slower), DAMOS_GUEST_MACHINE (QEMU's -machine, pc),
# DAMOS_GUEST_MEM (2G), DAMOS_GUEST_CPUS (2), DAMOS_GUEST_TIMEOUT
# (seconds for a check or cmd run, 1800), DAMOS_GUEST_SILENCE (check: seconds
# the console and the progress channel may both stay silent before the guest
# counts as hung and QEMU is killed, 360; 0: never), DAMOS_GUEST_APPEND (more
# kernel command line; damos.hang=init makes guest-init hang on purpose),
# DAMOS_GUEST_RERUN=1 (check: boot even when these exact inputs passed
# before; see below), DAMOS_GUEST_INITRD (an initramfs to boot KERNEL with:
# KIMAGE=debian's; STAGE/modules then goes to /lib/modules),
# DAMOS_GUEST_NUMA=1 (the two-node machine below).
set -uo pipefail
mode=$1 kernel=$2 image=$3 stage=$4 out=$5 cmdfile=${6:-/dev/null}

mem=${DAMOS_GUEST_MEM:-2G}
cpus=${DAMOS_GUEST_CPUS:-2}
tmo=${DAMOS_GUEST_TIMEOUT:-1800}
# QEMU 7.2's i440FX ("pc") ACPI builds the PCI interrupt routing (_PRT)
# with an AML loop of 128 rounds each time a device is enabled: too slow for
# a KASAN kernel under TCG (AML loop timeout, a virtio disk without an
# interrupt, a hung boot: issue 17).  q35's _PRT returns a fixed table;
# check-guest and run use q35,sata=off,smbus=off for a KCONFIG variant.
machine=${DAMOS_GUEST_MACHINE:-pc}
silence=${DAMOS_GUEST_SILENCE:-360}

die() { echo "run: $*" >&2; exit 1; }
[ -f "$kernel" ] || die "no kernel image '$kernel' (make kernel, or KERNEL_BZIMAGE=...)"
[ -f "$image" ] || die "no guest image '$image' (make image)"
command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 missing (make deps)"

# DAMOS_GUEST_NUMA=1: a machine with real topology (issue 44): q35 with
# half of its memory below the 32-bit hole (max-ram-below-4g) and half
# above it, two System RAM ranges (and the 640 KiB below the legacy
# hole); node 0 has the CPUs and three quarters of the memory (the low
# range and the first half of the high one), node 1 no CPU and the last
# quarter: a memory tier, whose HMAT latency (3x) and bandwidth (1/2)
# rank it below node 0 where the kernel reads HMAT (6.10+: memory tiers
# of CPU-less nodes).  Node 0 spans both ranges, so a node is not a
# range.  2 GiB as the one-node machine (1 GiB below the hole, node 1
# 512 MiB): the suites that fill memory to make pressure took up to 2.5x
# as long on 4 GiB (Debian's 6.12: report effect 39 -> 99 s, lru_sort
# under pressure 15 -> 52 s).  DAMOS_GUEST_MEM=4G: q35's own 2 GiB below
# and 2 GiB above, node 1 1 GiB.  Memory is allocated lazily: TCG copes.
numa=()
if [ "${DAMOS_GUEST_NUMA:-0}" = 1 ]; then
	case $mem in
	*G) mib=$((${mem%G} * 1024)) ;;
	*M) mib=${mem%M} ;;
	*) die "DAMOS_GUEST_NUMA=1: DAMOS_GUEST_MEM='$mem' is not NG or NM" ;;
	esac
	[ "$mib" -ge 1024 ] && [ $((mib % 256)) = 0 ] ||
		die "DAMOS_GUEST_NUMA=1: DAMOS_GUEST_MEM='$mem': 1G or more, in steps of 256M"
	machine=${DAMOS_GUEST_MACHINE:-q35,sata=off,smbus=off}
	[[ $machine == q35* ]] || die "DAMOS_GUEST_NUMA=1 needs a q35 machine (DAMOS_GUEST_MACHINE='$machine')"
	machine+=,hmat=on,max-ram-below-4g=$((mib / 2))M
	numa=(-object memory-backend-ram,id=m0,size=$((mib * 3 / 4))M
		-object memory-backend-ram,id=m1,size=$((mib / 4))M
		-numa node,nodeid=0,memdev=m0,cpus=0-$((cpus - 1))
		-numa node,nodeid=1,memdev=m1,initiator=0
		-numa hmat-lb,initiator=0,target=0,hierarchy=memory,data-type=access-latency,latency=100
		-numa hmat-lb,initiator=0,target=0,hierarchy=memory,data-type=access-bandwidth,bandwidth=20G
		-numa hmat-lb,initiator=0,target=1,hierarchy=memory,data-type=access-latency,latency=300
		-numa hmat-lb,initiator=0,target=1,hierarchy=memory,data-type=access-bandwidth,bandwidth=10G)
fi

# One run per output directory and stage: a second make run or check-guest
# in the same checkout would delete this one's console log and payload
# under QEMU and judge itself by the other's console.  It is refused,
# naming the run that holds them (QEMU keeps the lock while it lives).
hold() {	# FD DIR
	local l=${2%/}.lock
	mkdir -p "$(dirname "$l")"
	eval "exec $1<>\"\$l\""
	flock -n "$1" ||
		die "another guest run uses $2: $(tr -d '\n' < "$l") (lock: $l); wait for it to end, or give each run its own GUEST_OUT and GUEST_STAGE"
	: > "$l"
	echo "pid $$, run.sh $mode of $kernel, since $(date '+%F %T')" >&"$1"
}
hold 8 "$out"
hold 7 "$stage"

rm -rf "$out"
mkdir -p "$out"
out=$(cd "$out" && pwd)

echo "$mode" > "$stage/mode"
cp "$cmdfile" "$stage/cmd"
rm -f "$stage/term"
if [ "$mode" = shell ] && [ -t 0 ]; then
	read -r rows cols < <(stty size 2>/dev/null) || true
	{
		echo "export TERM=${TERM:-vt100}"
		[ -n "${rows:-}" ] && echo "stty rows $rows cols $cols 2>/dev/null"
	} > "$stage/term"
fi
rm -rf "$stage/results"
mkdir -p "$stage/results"

# The payload: packed fresh for every boot (a second or two), with room for
# the results the guest writes back.
size_mb=$(( $(du -sm "$stage" | cut -f1) + 256 ))
truncate -s "${size_mb}M" "$out/payload.img"
mkfs.ext4 -q -F -L damos-payload -d "$stage" "$out/payload.img" "${size_mb}M" \
	|| die "mkfs.ext4 -d failed"

append="console=ttyS0 root=/dev/vda rw rootfstype=ext4 init=/sbin/damos-init"
# watchdog_thresh=60 (the most; a soft lockup is reported after 2x it):
# under TCG a vCPU that the host leaves unscheduled for half a minute, as
# make check's two loads on 2 cores can, read as "BUG: soft lockup" in
# page allocation (clear_page_rep, with "clocksource: Long readout
# interval" before it), which is the host's, not the kernel's; a real
# lockup is still one after 120 s, and the test's timeout ends it first.
append+=" panic=-1 log_buf_len=4M watchdog_thresh=60 ${DAMOS_GUEST_APPEND:-}"
if [ "${DAMOS_KVM:-0}" = 1 ]; then
	accel=(-accel kvm -cpu host)
	accel_name=KVM
else
	accel=(-accel tcg)
	accel_name=TCG
fi
qemu=(qemu-system-x86_64 -nodefaults -no-user-config -display none -no-reboot
	-machine "$machine" -m "$mem" -smp "$cpus" "${numa[@]}" "${accel[@]}"
	-drive "file=$image,format=raw,if=virtio,snapshot=on"
	-drive "file=$out/payload.img,format=raw,if=virtio"
	-kernel "$kernel")
initrd=${DAMOS_GUEST_INITRD:-}
if [ -n "$initrd" ]; then
	[ -f "$initrd" ] || die "no initramfs '$initrd'"
	qemu+=(-initrd "$initrd")
fi

results() {
	# Read the results back without mounting: e2fsprogs' debugfs, whose
	# rdump fails ("File exists") over an existing directory: a results
	# directory of another run there (a run killed while this one ran in
	# the same tree) must not take this run's place.
	rm -rf "$out/results"
	debugfs -R "rdump /results $out" "$out/payload.img" >/dev/null 2>&1
	[ -d "$out/results" ]
}

# Kernel reports that fail a run even when every test passed.  Not the
# user-space fault of the kernel's own selftest helper huge_count_read
# (tools/testing/selftests/damon/huge_count_read_write.c): it read(2)s a
# DAMON file with a count of 4 GiB into a 25-byte stack buffer, so a file
# longer than 25 bytes (attrs: 28) smashes its own stack, and x86 prints
# "traps: huge_count_read[PID] general protection fault ip:..." for it.
# That is the program's bug, not the kernel's (the selftest passes).
user_fault_ok='traps: huge_count_read\[[0-9]+\] general protection fault ip:'
bad_kernel_log='Oops|BUG:|WARNING:|KASAN|UBSAN|Kernel panic|general protection fault|cut here|possible (circular|recursive) locking|inconsistent lock state|DEBUG_LOCKS_WARN_ON|suspicious RCU usage|INFO: task .* blocked|INFO: rcu'

case $mode in
shell)
	echo "run: booting $(basename "$kernel") ($accel_name, $mem, $cpus CPUs${numa:+, 2 NUMA nodes}); 'exit' powers off, Ctrl-A x kills QEMU"
	"${qemu[@]}" -append "$append quiet" \
		-chardev "stdio,id=con,mux=on,signal=off,logfile=$out/console.log" \
		-serial chardev:con -mon chardev=con,mode=readline \
		-serial "file:$out/progress.log"
	results || die "no results from the guest (console: $out/console.log)"
	exit "$(cat "$out/results/rc" 2>/dev/null || echo 1)"
	;;
cmd)
	# In the background, so that the trap below can end QEMU when this
	# script is interrupted: timeout puts QEMU in a process group of its own.
	timeout -k 5 "$tmo" "${qemu[@]}" -append "$append ignore_loglevel" \
		-serial "file:$out/console.log" -serial stdio </dev/null &
	qpid=$!
	trap 'kill $qpid 2>/dev/null' EXIT INT TERM
	wait $qpid
	qrc=$?
	[ $qrc = 124 ] && die "guest timed out after $tmo s (console: $out/console.log)"
	results || die "no results from the guest (console: $out/console.log)"
	if grep -E "$bad_kernel_log" "$out/console.log" | grep -qvE "$user_fault_ok"; then
		echo "run: note: the guest kernel log has a warning (see $out/console.log)" >&2
	fi
	rc=$(cat "$out/results/rc" 2>/dev/null || echo 1)
	# make turns any failure into its own status 2: say which it was
	[ "$rc" = 0 ] || echo "run: the command exited with status $rc" >&2
	exit "$rc"
	;;
check) ;;
*) die "unknown mode '$mode'" ;;
esac

# check: a passing run is remembered under the hash of everything that went
# into it (the kernel's bytes, the image key, every staged file, this script,
# the QEMU settings), like a build cache: nothing changed, nothing to redo.
# Any change, and DAMOS_GUEST_RERUN=1, boots again; failures are never cached.
# CI always boots: a pass remembered on the machine proves nothing there.
[ "${CI:-}" = true ] && DAMOS_GUEST_RERUN=1
run_key() {
	{
		sha256sum < "$kernel"
		[ -z "$initrd" ] || sha256sum < "$initrd"
		echo "$image"
		(cd "$stage" && find . -type f ! -path './results/*' ! -name install.log \
			! -name mode ! -name cmd ! -name term -print0 | sort -z | xargs -0 sha256sum)
		sha256sum < "$0"
		echo "$mem $cpus ${DAMOS_KVM:-0} ${DAMOS_GUEST_APPEND:-} $tmo $machine ${numa[*]}"
	} | sha256sum | cut -c1-16
}
passed_dir=${DAMOS_GUEST_PASSED:-${DAMOS_CACHE:-$HOME/.cache/damos}/guest/passed}
key=$(run_key)
if [ "${DAMOS_GUEST_RERUN:-0}" != 1 ] && [ -f "$passed_dir/$key/summary" ]; then
	mkdir -p "$out/results"
	cp "$passed_dir/$key"/* "$out/results/"
	echo "guest: these exact inputs (kernel, image, payload $key) passed on $(date -r "$passed_dir/$key/summary" '+%F %T'):"
	echo "guest: not booting again (DAMOS_GUEST_RERUN=1 forces a run); TAP: $out/results/guest.tap"
	cat "$passed_dir/$key/summary"
	exit 0
fi

# The stage the guest is in, from its progress channel.
guest_stage() {
	local p n last plan
	p=$(tr -d '\r' < "$out/progress.log")
	if [ -z "$p" ]; then
		echo "kernel boot (guest-init never started)"
	elif grep -q '^init: suites done' <<<"$p"; then
		echo "power-off (the suites were done)"
	elif grep -q '^init: running the in-guest suites' <<<"$p"; then
		plan=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' <<<"$p" | head -n 1)
		n=$(grep -cE '^(not )?ok [0-9]+' <<<"$p")
		last=$(grep -E '^(not )?ok [0-9]+' <<<"$p" | tail -n 1)
		echo "in-guest suites: test $((n + 1)) of ${plan:-?} running${last:+ (the one after \"$last\")}"
	else
		echo "guest-init setup (before the suites; last progress line: \"$(tail -n 1 <<<"$p")\")"
	fi
}

# The silence watchdog: a guest whose console and progress channel have both
# been quiet for $silence s is hung (a boot waiting for an interrupt that
# never comes, a test stuck in the kernel): QEMU is killed then, not at the
# timeout, and the judgement below says where it stopped.  The bound must
# be above the in-guest per-test timeout (BATS_TEST_TIMEOUT: 300 s, 900 s
# for a KCONFIG variant; guest.mk), so that
# a stuck test is reported by name first.  Also records the longest silence.
silence_watch() {
	local now last gap max=0 step=5
	[ "$silence" -lt 20 ] && step=1
	while sleep $step; do
		kill -0 "$qpid" 2>/dev/null || return 0
		now=$(date +%s)
		last=$(stat -c %Y "$out/console.log" "$out/progress.log" | sort -n | tail -n 1)
		gap=$((now - last))
		[ $gap -gt $max ] && max=$gap && echo $max > "$out/silence-max"
		if [ $gap -ge "$silence" ]; then
			guest_stage > "$out/hung-stage"
			echo "guest: silent for $gap s in $(cat "$out/hung-stage"): killing QEMU"
			kill "$qpid" 2>/dev/null
			return 0
		fi
	done
}

# check: boot, follow the progress channel, then judge.
start=$SECONDS
echo "guest: booting $(basename "$kernel") ($accel_name, $mem, $cpus CPUs${numa:+, 2 NUMA nodes}, timeout $tmo s, silence bound ${silence} s); console: $out/console.log"
: > "$out/progress.log"
: > "$out/console.log"
timeout -k 5 "$tmo" "${qemu[@]}" -append "$append ignore_loglevel" \
	-serial "file:$out/console.log" -serial "file:$out/progress.log" </dev/null &
qpid=$!
wpid=
# (the lock stays with QEMU and this script, not with a watchdog's sleep)
[ "$silence" -gt 0 ] && { silence_watch 7>&- 8>&- & wpid=$!; }
trap 'kill $qpid $wpid 2>/dev/null' EXIT INT TERM
tail -s 0.5 -n +1 -f --pid=$qpid "$out/progress.log" 2>/dev/null 7>&- 8>&- |
	while IFS= read -r line; do
		line=${line%$'\r'}
		printf 'guest: [%4ds] %s\n' $((SECONDS - start)) "$line"
	done
wait $qpid
qrc=$?
[ -n "$wpid" ] && { kill $wpid 2>/dev/null; wait $wpid 2>/dev/null; }
echo "guest: QEMU exited ($qrc) after $((SECONDS - start)) s; longest silence $(cat "$out/silence-max" 2>/dev/null || echo 0) s"

passed=0 failed=0
pass() { passed=$((passed + 1)); echo "ok - host: $*"; }
fail() { failed=$((failed + 1)); echo "not ok - host: $*"; }

if [ -f "$out/hung-stage" ]; then
	fail "guest did not hang (console and progress silent for $silence s in $(cat "$out/hung-stage"): QEMU killed; last console lines below)"
	tail -n 30 "$out/console.log" | sed 's/^/# /'
elif [ $qrc = 124 ]; then
	fail "guest finished within $tmo s (it hung in $(guest_stage); last console lines below)"
	tail -n 30 "$out/console.log" | sed 's/^/# /'
else
	pass "guest finished within $tmo s"
fi

tap=$out/results/guest.tap
if ! results || [ ! -s "$out/results/rc" ]; then
	# The guest did not finish (hang, panic): its TAP stream was mirrored on
	# the progress channel; count what it got to.
	tr -d '\r' < "$out/progress.log" > "$out/guest-partial.tap"
	tap=$out/guest-partial.tap
	fail "the guest finished its run and wrote its results"
fi
if [ -s "$tap" ]; then
	plan=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$tap" | head -n 1)
	ok=$(grep -c '^ok ' "$tap")
	nok=$(grep -c '^not ok ' "$tap")
	# A test skips only for what this kernel was built without (the suites
	# decide that from its config: tests/guest/helpers/common.bash, need),
	# for a fix it is waiting for, or because the same make check runs it
	# on Debian's 6.12, where it checks the same (runs_on_debian_612), and
	# says which; any other skip counts as failed.
	skip_ok='# skip (kernel lacks: |kernel has: |waiting for |runs on )'
	skipped=$(grep -ciE "^ok [0-9]+ .*$skip_ok" "$tap")
	badskip=$(grep -iE '^ok [0-9]+ .*# skip' "$tap" | grep -ciEv "$skip_ok")
	if [ "$skipped" -gt 0 ]; then
		# one line per reason (the TAP file has each test)
		grep -iE "^ok [0-9]+ .*$skip_ok" "$tap" | sed -E 's/^ok [0-9]+ .* # skip //I' |
			sort | uniq -c | sed -E 's/^ *([0-9]+) /# skipped \1: /'
	fi
	if [ "$badskip" -gt 0 ]; then
		grep -iE '^ok [0-9]+ .*# skip' "$tap" | grep -iEv "$skip_ok" | sed 's/^/# skipped without a kernel reason, counted as failed: /'
	fi
	# bats --timing (guest-init): where the suite's time went
	sed -nE 's/^(not )?ok [0-9]+ (.*) in ([0-9]+)ms( # skip.*)?$/\3 \2/p' "$tap" |
		sort -rn | awk '{ t += $1 } NR <= 5 { top = top sprintf("# slowest: %5.1f s %s\n", $1 / 1000, substr($0, index($0, " ") + 1, 100)) }
			END { if (NR) printf "%s# %d tests took %.0f s of the suite (the rest is the runner between tests)\n", top, NR, t / 1000 }'
	passed=$((passed + ok - skipped - badskip))
	failed=$((failed + nok + badskip))
	missing=$(( ${plan:-0} - ok - nok ))
	if [ -z "$plan" ] || [ $missing -gt 0 ]; then
		fail "all planned guest tests ran (plan ${plan:-none}, ran $((ok + nok)))"
		failed=$((failed + (missing > 0 ? missing : 0)))
	fi
else
	fail "the guest ran the suites (console: $out/console.log)"
fi

if grep -nE "$bad_kernel_log" "$out/console.log" | grep -vE "$user_fault_ok" > "$out/kernel-reports.txt"; then
	fail "guest kernel log has no Oops/BUG/WARNING/KASAN/lockdep report:"
	head -n 20 "$out/kernel-reports.txt" | sed 's/^/# /'
else
	pass "guest kernel log has no Oops/BUG/WARNING/KASAN/lockdep report"
fi

echo "guest: results in $out (results/guest.tap, console.log, results/boot-dmesg.txt)"
summary="check-guest: $passed passed, $failed failed, ${skipped:-0} skipped"
if [ $failed = 0 ]; then
	rm -rf "$passed_dir/$key" && mkdir -p "$passed_dir/$key"
	cp "$tap" "$passed_dir/$key/"
	echo "$summary" > "$passed_dir/$key/summary"
	# keep the last few passes only
	ls -1t "$passed_dir" | tail -n +6 | sed "s|^|$passed_dir/|" | xargs -r rm -rf
fi
echo "$summary"
[ $failed = 0 ]
