#!/usr/bin/env bats
# guest-image/run.sh's silence watchdog, against a fake QEMU: a guest whose
# console and progress channel both go quiet is killed within the bound
# (DAMOS_GUEST_SILENCE), with its last console lines and its stage named;
# a guest that keeps talking is left alone.  No kernel, no image, no QEMU.

bats_load_library bats-support
bats_load_library bats-assert

RUN_SH="$BATS_TEST_DIRNAME/../../guest-image/run.sh"

setup() {
	command -v mkfs.ext4 >/dev/null && command -v debugfs >/dev/null ||
		skip "e2fsprogs (mkfs.ext4, debugfs) missing: make deps"
	T=$BATS_TEST_TMPDIR
	mkdir -p "$T/bin" "$T/stage"
	: > "$T/bzImage"
	: > "$T/root.img"
	# The fake QEMU: finds its two serial files (console, progress) on its
	# command line and plays $FAKE_GUEST.
	cat > "$T/bin/qemu-system-x86_64" <<'EOF'
#!/bin/bash
files=()
QEMU_ARGS="$*"
while [ $# -gt 0 ]; do
	[ "$1" = -serial ] && files+=("${2#file:}")
	shift
done
con=${files[0]} prog=${files[1]}
echo $$ > "$FAKE_PIDFILE"
for i in $(seq 1 40); do echo "[    $i.000000] boot message $i" >> "$con"; done
case $FAKE_GUEST in
finish)
	# the suites pass and write their results into the payload disk,
	# as guest-init does; meanwhile something leaves a results
	# directory of its own in the output directory (another run,
	# killed, in the same tree)
	img=
	for a in $QEMU_ARGS; do
		case $a in file=*payload.img*) img=${a#file=}; img=${img%%,*} ;; esac
	done
	out=$(dirname "$con")
	mkdir -p "$out/results"
	printf '1..9\nok 1 stale\n' > "$out/results/guest.tap"
	printf 'init: running the in-guest suites\r\n1..2\r\nok 1 fake: a\r\nok 2 fake: b\r\n' >> "$prog"
	w=$(mktemp -d)
	printf "${FAKE_TAP:-1..2\nok 1 fake: a\nok 2 fake: b\n}" > "$w/guest.tap"
	echo 0 > "$w/rc"
	debugfs -w -R "write $w/guest.tap results/guest.tap" "$img" >/dev/null 2>&1
	debugfs -w -R "write $w/rc results/rc" "$img" >/dev/null 2>&1
	rm -rf "$w"
	exit 0 ;;
boot-hang)
	echo "[   41.000000] virtio_blk virtio0: [vda] 1093632 512-byte logical blocks" >> "$con"
	exec sleep 300 ;;
suite-hang)
	printf 'init: running (uptime 9.1 s)\r\ninit: running the in-guest suites\r\n1..5\r\n' >> "$prog"
	printf 'ok 1 apply: first\r\nok 2 apply: second\r\n' >> "$prog"
	exec sleep 300 ;;
chatty)
	# silent on the progress channel, never silent for the bound on
	# the console; then powers off by itself
	for i in 1 2 3 4 5 6; do sleep 1; echo "[  5$i.000000] still busy" >> "$con"; done
	exit 0 ;;
esac
EOF
	chmod +x "$T/bin/qemu-system-x86_64"
	export PATH="$T/bin:$PATH" DAMOS_GUEST_PASSED=$T/passed DAMOS_GUEST_RERUN=1
	export DAMOS_GUEST_SILENCE=3 DAMOS_GUEST_TIMEOUT=120 FAKE_PIDFILE=$T/qemu.pid
}

run_guest() {
	local t0=$SECONDS
	run "$RUN_SH" check "$T/bzImage" "$T/root.img" "$T/stage" "$T/out"
	took=$((SECONDS - t0))
}

@test "a guest hung at boot is killed within the silence bound, stage and console shown" {
	FAKE_GUEST=boot-hang run_guest
	assert_failure
	[ "$took" -lt 20 ] || fail "took $took s for a 3 s silence bound"
	assert_line --regexp '^guest: silent for [0-9]+ s in kernel boot \(guest-init never started\): killing QEMU$'
	assert_line "not ok - host: guest did not hang (console and progress silent for 3 s in kernel boot (guest-init never started): QEMU killed; last console lines below)"
	assert_line "# [   41.000000] virtio_blk virtio0: [vda] 1093632 512-byte logical blocks"
	assert_line "# [    40.000000] boot message 40"
	refute_line "# [    10.000000] boot message 10"
	assert_line --regexp '^check-guest: [0-9]+ passed, [1-9][0-9]* failed, [0-9]+ skipped$'
	# QEMU is gone: nothing of the fake is left running
	sleep 1
	! kill -0 "$(cat "$T/qemu.pid")" 2>/dev/null || fail "the fake QEMU still runs"
}

@test "a guest hung in a test names the test it was in" {
	FAKE_GUEST=suite-hang run_guest
	assert_failure
	[ "$took" -lt 20 ] || fail "took $took s for a 3 s silence bound"
	assert_line --partial 'in in-guest suites: test 3 of 5 running (the one after "ok 2 apply: second"): killing QEMU'
	assert_line --partial "not ok - host: all planned guest tests ran (plan 5, ran 2)"
}

@test "a slow guest that keeps talking on its console is not killed" {
	FAKE_GUEST=chatty run_guest
	refute_line --partial "silent for"
	assert_line --regexp '^guest: QEMU exited \(0\) after [0-9]+ s; longest silence [0-9] s$'
	assert_line "ok - host: guest finished within 120 s"
}

@test "DAMOS_GUEST_SILENCE=0 turns the watchdog off (the timeout still ends the guest)" {
	DAMOS_GUEST_SILENCE=0 DAMOS_GUEST_TIMEOUT=5 FAKE_GUEST=boot-hang run_guest
	assert_failure
	refute_line --partial "silent for"
	assert_line --partial "not ok - host: guest finished within 5 s (it hung in kernel boot (guest-init never started); last console lines below)"
}

@test "a finished guest's results are read back even over a stale results directory" {
	FAKE_GUEST=finish run_guest
	assert_success
	assert_line "ok - host: guest finished within 120 s"
	refute_line --partial "not ok - host: the guest finished its run and wrote its results"
	assert_line --regexp '^check-guest: [0-9]+ passed, 0 failed, 0 skipped$'
	run cat "$T/out/results/guest.tap"
	assert_output "$(printf '1..2\nok 1 fake: a\nok 2 fake: b')"
}

@test "a skip counts when it says what the kernel lacks or has, or that Debian's 6.12 of the same make check runs the test; any other skip is a failure" {
	FAKE_TAP='1..4\nok 1 a # skip kernel lacks: dbgfs (CONFIG_DAMON_DBGFS is not set in x)\nok 2 b # skip runs on Debian'"'"'s 6.12 only (this make check): why\nok 3 c # skip runs on Debian'"'"'s 6.12 only (this make check): why\nok 4 d\n' \
		FAKE_GUEST=finish run_guest
	assert_success
	assert_line "# skipped 2: runs on Debian's 6.12 only (this make check): why"
	assert_line "# skipped 1: kernel lacks: dbgfs (CONFIG_DAMON_DBGFS is not set in x)"
	assert_line --regexp '^check-guest: 3 passed, 0 failed, 3 skipped$'
	FAKE_TAP='1..2\nok 1 a # skip flaky here\nok 2 b\n' FAKE_GUEST=finish run_guest
	assert_failure
	assert_line "# skipped without a kernel reason, counted as failed: ok 1 a # skip flaky here"
	assert_line --regexp '^check-guest: [0-9]+ passed, 1 failed, 0 skipped$'
}

@test "a second run on the same output directory is refused, naming the first; the first's files are kept (issue 45)" {
	DAMOS_GUEST_SILENCE=60 FAKE_GUEST=boot-hang "$RUN_SH" check "$T/bzImage" "$T/root.img" "$T/stage" "$T/out" > "$T/first.log" 2>&1 &
	first=$!
	for _ in $(seq 100); do [ -s "$T/qemu.pid" ] && break; sleep 0.1; done
	[ -s "$T/qemu.pid" ] || fail "the first guest never started: $(cat "$T/first.log")"
	ls "$T/out" > "$T/before"
	run "$RUN_SH" cmd "$T/bzImage" "$T/root.img" "$T/stage" "$T/out"
	assert_failure 1
	assert_output --regexp "^run: another guest run uses $T/out: pid $first, run.sh check of $T/bzImage, since [0-9-]+ [0-9:]+ \\(lock: $T/out.lock\\)"
	# the first run's console log and payload are still there, and its
	# fake QEMU still runs
	[ "$(ls "$T/out")" = "$(cat "$T/before")" ]
	[ -f "$T/out/console.log" ] && [ -f "$T/out/payload.img" ]
	kill -0 "$(cat "$T/qemu.pid")"
	# another output directory on the same stage: refused as well
	run "$RUN_SH" cmd "$T/bzImage" "$T/root.img" "$T/stage" "$T/out2"
	assert_failure 1
	assert_output --partial "run: another guest run uses $T/stage: pid $first"
	kill "$(cat "$T/qemu.pid")"
	wait "$first" || true
	# once the first is gone, the lock is free
	FAKE_GUEST=chatty run_guest
	assert_line "ok - host: guest finished within 120 s"
}
