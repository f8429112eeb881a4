#!/usr/bin/env bats
# guest-image/matrix.sh (make check-matrix) against a fake make: the
# kernels' suites run MATRIX_JOBS at a time, never more, each with its own
# payload tree and output; the patched kernels are built one after the
# other, 6.12 first; the closing summary lists every kernel in the same
# order whatever order they finished in, and a failing kernel fails the
# run without stopping the others.  No kernel, no image, no QEMU.

bats_load_library bats-support
bats_load_library bats-assert

MATRIX_SH="$BATS_TEST_DIRNAME/../../guest-image/matrix.sh"

setup() {
	T=$BATS_TEST_TMPDIR
	mkdir -p "$T/bin"
	# The fake make: each target the matrix asks for leaves a line in
	# $T/events ("start|end TARGET KVER-KIMAGE STAGE") and takes a little
	# time; check-guest prints what the real one prints last.
	cat > "$T/bin/fake-make" <<'EOF'
#!/bin/bash
target= kver= kimage= stage=- numa=- also=-
for a in "$@"; do
	case $a in
	--no-print-directory) ;;
	NUMA=*) numa=${a#NUMA=} ;;
	KVER=*) kver=${a#KVER=} ;;
	KIMAGE=*) kimage=${a#KIMAGE=} ;;
	GUEST_STAGE=*) stage=${a#GUEST_STAGE=} ;;
	GUEST_MATRIX_ALSO=*) also=${a#GUEST_MATRIX_ALSO=} ;;
	*=*) ;;
	*) target=$a ;;
	esac
done
ev() { echo "$1 $target $kver-$kimage $stage $(date +%s.%N)" >> "$FAKE_EVENTS"; }
# FAKE_BURN=S: a child that uses S seconds of CPU, whatever the load, as a
# compiler under the kernel's make or QEMU under check-guest would
burn() {
	[ -n "${FAKE_BURN:-}" ] || return 0
	python3 -c "import time
while time.process_time() < $FAKE_BURN: pass"
}
case $target in
image | all | guest-payload) exit 0 ;;
kernel-info)
	echo "$kver-$kimage-release" > "$FAKE_DIR/rel-$kver-$kimage"
	echo "KERNEL_RELEASE_FILE=$FAKE_DIR/rel-$kver-$kimage"
	exit 0 ;;
kernel)
	ev start
	# the scheduling policy the build runs under (chrt -p: "...: SCHED_IDLE")
	echo "policy $(chrt -p $$ | sed -n 's/.*policy: //p' | head -n 1)" >> "$FAKE_EVENTS"
	# a make -C below this one, as kernel/build.sh runs it
	if [ -n "${FAKE_BUILD_CHILD:-}" ]; then
		bash -c 'exec -a "$1" sleep 60' _ "$FAKE_BUILD_CHILD" &
		wait
	fi
	sleep "${FAKE_BUILD_S:-0.3}"
	burn
	# the builder must not say it is done while a build is under way
	[ "$kimage" = patched ] && [ -f "$FAKE_OUT/builds-done" ] && ev early
	ev end
	echo "kernel: ready: fake $kver $kimage"
	exit 0 ;;
check-guest)
	ev start
	echo "numa $kver-$kimage $numa" >> "$FAKE_EVENTS"
	echo "also $kver-$kimage $also" >> "$FAKE_EVENTS"
	# whether the builder had said it was done when this suite started
	[ -f "$FAKE_OUT/builds-done" ] && ev built || ev building
	sleep "${FAKE_SUITE_S:-0.6}"
	burn
	ev end
	if [ "$kver-$kimage" = "${FAKE_FAIL:-}" ]; then
		echo "not ok 3 a test that fails"
		echo "# why it failed"
		echo "check-guest: 4 passed, 1 failed, 0 skipped"
		exit 1
	fi
	echo "# skipped 2: kernel lacks: something ($kver)"
	echo "check-guest: 5 passed, 0 failed, 2 skipped"
	exit 0 ;;
esac
echo "fake-make: unexpected target '$target'" >&2
exit 2
EOF
	chmod +x "$T/bin/fake-make"
	export FAKE_EVENTS=$T/events FAKE_DIR=$T MAKE=$T/bin/fake-make FAKE_OUT=$T/out
	: > "$FAKE_EVENTS"
}

# most_at_once: the largest number of check-guest runs under way at once
most_at_once() {
	awk '$2 == "check-guest" && ($1 == "start" || $1 == "end") { print $5, ($1 == "start" ? 1 : -1) }' "$FAKE_EVENTS" |
		sort -k1,1n -k2,2n | awk '{ n += $2; if (n > m) m = n } END { print m + 0 }'
}

@test "matrix: two kernels' suites at a time, never three, each in its own payload tree" {
	MATRIX_JOBS=2 run "$MATRIX_SH" "$T/out" 6.1:patched 6.12:patched 6.12:debian 6.1:debian
	assert_success
	assert_output --partial "check-matrix: 4 kernels: 20 passed, 0 failed, 8 skipped"
	assert_equal "$(most_at_once)" 2
	# four suites, four payload trees, each beside the matrix's output
	run awk '$1 == "start" && $2 == "check-guest" { print $4 }' "$FAKE_EVENTS"
	assert_equal "$(sort -u <<<"$output" | wc -l)" 4
	for t in 6.1-patched 6.12-patched 6.12-debian 6.1-debian; do
		assert_line "$(dirname "$T/out")/stage-$t"
	done
}

@test "matrix: by default (and MATRIX_JOBS=1) one suite at a time" {
	unset MATRIX_JOBS
	run "$MATRIX_SH" "$T/out" 6.12:debian 6.1:debian 6.1:patched
	assert_success
	assert_equal "$(most_at_once)" 1
}

@test "matrix: the patched kernels build one after the other, 6.12 first, whatever order they are given in" {
	run "$MATRIX_SH" "$T/out" 6.1:patched 6.12:patched
	assert_success
	run awk '$2 == "kernel" { print $1, $3 }' "$FAKE_EVENTS"
	assert_output "start 6.12-patched
end 6.12-patched
start 6.1-patched
end 6.1-patched"
	# and a patched kernel's suites start only after its build
	b=$(awk '$1 == "end" && $2 == "kernel" && $3 == "6.1-patched" { print $5 }' "$FAKE_EVENTS")
	s=$(awk '$1 == "start" && $2 == "check-guest" && $3 == "6.1-patched" { print $5 }' "$FAKE_EVENTS")
	run awk -v b="$b" -v s="$s" 'BEGIN { exit !(s >= b) }'
	assert_success
}

@test "matrix: the summary lists the kernels in order (Debian's, then 6.12, then 6.1), each with its skips, whatever finished first" {
	# Debian's 6.1 finishes long before Debian's 6.12 beside it
	FAKE_SUITE_S=0.2 MATRIX_JOBS=2 run "$MATRIX_SH" "$T/out" 6.1:debian 6.12:patched 6.12:debian
	assert_success
	run sed -n '/^matrix: ----/,$p' <<<"$output"
	assert_line --index 1 --regexp '^matrix: 6\.12 debian \(6\.12-debian-release\): 5 passed, 0 failed, 2 skipped'
	assert_line --index 2 'matrix:   skipped 2: kernel lacks: something (6.12)'
	assert_line --index 3 --regexp '^matrix: 6\.1 debian \(6\.1-debian-release\): 5 passed'
	assert_line --index 5 --regexp '^matrix: 6\.12 patched \(6\.12-patched-release\): 5 passed'
}

@test "matrix: a kernel whose suite fails fails the run, names the test, and the other kernels still run" {
	FAKE_FAIL=6.12-debian MATRIX_JOBS=2 run "$MATRIX_SH" "$T/out" 6.12:debian 6.1:debian 6.1:patched
	assert_failure
	assert_output --partial "matrix: 6.12 debian (6.12-debian-release): FAILED: 4 passed, 1 failed, 0 skipped"
	assert_output --partial "matrix:   not ok 3 a test that fails"
	assert_output --partial "matrix:     # why it failed"
	assert_output --partial "matrix: failed: 6.12 debian"
	assert_output --partial "check-matrix: 3 kernels: 14 passed, 1 failed, 4 skipped"
	run grep -c "^start check-guest" "$FAKE_EVENTS"
	assert_output 3
}

@test "matrix: MATRIX_JOBS that is not 1..9 is refused before anything runs" {
	MATRIX_JOBS=0 run "$MATRIX_SH" "$T/out" 6.1:debian
	assert_failure 2
	assert_output --partial "MATRIX_JOBS='0' is not 1..9"
	[ ! -s "$FAKE_EVENTS" ]
}

@test "matrix: builds-done appears once the builder has made every patched kernel, not before" {
	# a stale one from an earlier run is removed first
	mkdir -p "$T/out" && : > "$T/out/builds-done"
	FAKE_BUILD_S=1 run "$MATRIX_SH" "$T/out" 6.1:patched 6.12:patched 6.12:debian 6.1:debian
	assert_success
	assert [ -f "$T/out/builds-done" ]
	# Debian's 6.12 starts while 6.12 builds; patched 6.1, the last one
	# built, starts after its build, when the builder is done
	run awk '$1 == "building" || $1 == "built" { print $1, $3 }' "$FAKE_EVENTS"
	assert_line --index 0 "building 6.12-debian"
	assert_line --index 3 "built 6.1-patched"
	# and it was not there while a kernel was being built
	run grep -c '^early ' "$FAKE_EVENTS"
	assert_output 0
}

@test "matrix: the background builder runs at SCHED_IDLE, the suites at normal priority" {
	run "$MATRIX_SH" "$T/out" 6.12:patched 6.1:patched
	assert_success
	run grep -c '^policy SCHED_IDLE$' "$FAKE_EVENTS"
	assert_output 2
	run chrt -p $$
	refute_output --partial SCHED_IDLE
}

@test "matrix: interrupted, it leaves nothing of a build running (a TERM to the top make alone left the make -C under it)" {
	marker=damos-fake-make-C-$$-$RANDOM
	FAKE_BUILD_CHILD=$marker FAKE_SUITE_S=30 "$MATRIX_SH" "$T/out" 6.12:patched 6.12:debian > "$T/log" 2>&1 &
	m=$!
	for ((i = 0; i < 100; i++)); do
		pgrep -f "^$marker" >/dev/null && break
		sleep 0.1
	done
	run pgrep -f "^$marker"
	assert_success
	kill -TERM $m
	wait $m || true
	for ((i = 0; i < 50; i++)); do
		pgrep -f "^$marker" >/dev/null || break
		sleep 0.1
	done
	run pgrep -af "^$marker"
	assert_failure
	assert_output ""
}

@test "matrix: the summary gives each build's and each suite's CPU time, its processes' children's included" {
	FAKE_BURN=1.2 run "$MATRIX_SH" "$T/out" 6.12:patched 6.12:debian
	assert_success
	assert_line --regexp '^matrix: 6\.12 patched \(6\.12-patched-release\): 5 passed, 0 failed, 2 skipped \(suite [0-9]+m[0-9]{2}s, CPU 0m0[12]s; kernel and suite [0-9]+m[0-9]{2}s\)$'
	# Debian's kernel is installed, not built: its suite only
	assert_line --regexp '^matrix: CPU: 6\.12 debian suite 0m0[12]s, 6\.12 patched build 0m0[12]s, 6\.12 patched suite 0m0[12]s$'
	assert_line --regexp '^matrix: CPU of the builds and suites: 0m0[3-6]s \(0 core-minutes\)$'
	# without the burning children, next to nothing
	FAKE_BURN= run "$MATRIX_SH" "$T/out" 6.12:patched
	assert_success
	assert_line --regexp '^matrix: CPU: 6\.12 patched build 0m00s, 6\.12 patched suite 0m00s$'
}

@test "matrix: both 6.12s boot the two-node machine (NUMA=1), the 6.1s the one-node one; MATRIX_NUMA picks them" {
	run "$MATRIX_SH" "$T/out" 6.1:patched 6.12:patched 6.12:debian 6.1:debian
	assert_success
	assert_output --partial "6.12 patched: suites (make check-guest KVER=6.12 KIMAGE=patched NUMA=1)"
	run awk '$1 == "numa" { print $2, $3 }' "$FAKE_EVENTS"
	assert_output "$(printf '%s\n' '6.12-debian 1' '6.1-debian 0' '6.12-patched 1' '6.1-patched 0')"
	: > "$FAKE_EVENTS"
	MATRIX_NUMA="6.1:patched" run "$MATRIX_SH" "$T/out" 6.1:patched 6.12:debian
	assert_success
	run awk '$1 == "numa" { print $2, $3 }' "$FAKE_EVENTS"
	assert_output "$(printf '%s\n' '6.12-debian 0' '6.1-patched 1')"
}

@test "matrix: each kernel's suites are told the other kernels of the run (KVER:KIMAGE:NUMA), for the tests that run on Debian's 6.12 only" {
	run "$MATRIX_SH" "$T/out" 6.1:patched 6.12:patched 6.12:debian
	assert_success
	run awk '$1 == "also" { $1 = ""; print substr($0, 2) }' "$FAKE_EVENTS"
	assert_line "6.12-patched 6.1:patched:0 6.12:debian:1"
	assert_line "6.12-debian 6.1:patched:0 6.12:patched:1"
	assert_line "6.1-patched 6.12:patched:1 6.12:debian:1"
	: > "$FAKE_EVENTS"
	run "$MATRIX_SH" "$T/out" 6.12:patched
	assert_success
	run awk '$1 == "also" { print $2, NF }' "$FAKE_EVENTS"
	assert_output "6.12-patched 2"
}

# most_at_once_around T: the most check-guest runs under way at once
# before T, and from T on
most_at_once_around() {
	awk '$2 == "check-guest" && ($1 == "start" || $1 == "end") { print $5, ($1 == "start" ? 1 : -1) }' "$FAKE_EVENTS" |
		sort -k1,1n -k2,2n | awk -v t="$1" '{ n += $2; if ($1 < t) { if (n > b) b = n } else if (n > a) a = n }
			END { print b + 0, a + 0 }'
}

@test "matrix: while MATRIX_HOLD is there (make check's host tests) one slot of MATRIX_JOBS is taken; then every slot is used" {
	: > "$T/hold"
	# released 1 s into the first suite (3 s), before the matrix's next
	# look (2 s): the second suite starts beside the first
	( for _ in $(seq 300); do grep -q '^start check-guest' "$FAKE_EVENTS" && break; sleep 0.1; done
	  sleep 1; date +%s.%N > "$T/released"; rm -f "$T/hold" ) &
	FAKE_SUITE_S=3 MATRIX_JOBS=2 MATRIX_HOLD=$T/hold run "$MATRIX_SH" "$T/out" 6.12:debian 6.1:debian 6.12:patched 6.1:patched
	assert_success
	assert_output --partial "a slot of 2 held while $T/hold is there"
	assert_output --partial "check-matrix: 4 kernels: 20 passed, 0 failed, 8 skipped"
	[ -s "$T/released" ] || fail "the hold was never released"
	run most_at_once_around "$(cat "$T/released")"
	assert_output "1 2"
	# no hold file at all: every slot from the start
	: > "$FAKE_EVENTS"
	FAKE_SUITE_S=1 MATRIX_JOBS=2 MATRIX_HOLD=$T/no-such-file run "$MATRIX_SH" "$T/out" 6.12:debian 6.1:debian
	assert_success
	refute_output --partial "held"
	assert_equal "$(most_at_once)" 2
}
