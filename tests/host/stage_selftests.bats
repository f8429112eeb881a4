#!/usr/bin/env bats
# tests/guest/stage-selftests.sh on the host: it stages a made-up kernel
# selftest directory (a Makefile with the install and emit_tests targets
# the kernel's has, two programs) and writes selftests.bats, which is then
# run here with the guest helpers, their two DAMON-writing functions
# replaced by no-ops (nothing here touches a kernel) and uname answering as
# the guest's kernel would.  It checks how a program's end is reported: a
# pass, a failure; on Debian's own 6.12 a program that reads tried regions
# updates (which the stock kernel ends on a wall clock) is skipped before it
# runs, naming the missing fix; on the patched kernel it runs, and its
# failure fails.

STAGE=$BATS_TEST_DIRNAME/../guest/stage-selftests.sh
COMMON=$BATS_TEST_DIRNAME/../guest/helpers/common.bash
WSS=sysfs_update_schemes_tried_regions_wss_estimation.py

setup() {
	src=$BATS_TEST_TMPDIR/src dest=$BATS_TEST_TMPDIR/suite
	mkdir -p "$src" "$dest/helpers" "$BATS_TEST_TMPDIR/bin"
	printf '%s\n' 'install:' \
		'	mkdir -p $(INSTALL_PATH) && cp -p *.sh *.py $(INSTALL_PATH)/' \
		'emit_tests:' \
		'	@for p in sysfs.sh $(WSS); do echo "damon:$$p"; done' |
		sed "s/\$(WSS)/$WSS/" >"$src/Makefile"
	# each program says how many tlbshake processes run beside it (WSS
	# waits up to 5 s for one, as tlbshake is started in the background)
	printf '#!/bin/sh\necho "sysfs.sh: $(ls "$SHAKERS" | wc -l) shakers" >>"$SHAKERS.log"\necho "sysfs.sh: ${SYSFS_SAYS:-ok}"\nexit ${SYSFS_RC:-0}\n' >"$src/sysfs.sh"
	# the output of the real program on Debian's 6.12 in the guest under
	# load; like it, it runs the selftests' workload (access_memory)
	printf '%s\n' '#!/bin/sh' \
		'# subprocess.Popen(["./access_memory", ...])' \
		'for i in $(seq 50); do [ -n "$(ls "$SHAKERS")" ] && break; sleep 0.1; done' \
		'echo "$0: $(ls "$SHAKERS" | wc -l) shakers" >>"$SHAKERS.log"' \
		'echo "50-th percentile (0) error 1.000000"' \
		'echo "the error rate is not acceptable (> 0.200000)"' \
		'exit 1' >"$src/$WSS"
	chmod +x "$src/sysfs.sh" "$src/$WSS"
	run "$STAGE" "$src" "$dest"
	[ "$status" = 0 ] || { echo "$output"; return 1; }
	{
		cat "$COMMON"
		echo 'need() { :; }'
		echo 'damon_off() { :; }'
	} >"$dest/helpers/common.bash"
	# like tests/perf/tlbshake.c: runs until SIGTERM, then exits 0; here
	# it is a file in $SHAKERS while it runs (the trap set before the
	# file is made: a SIGTERM between the two left the file, under load)
	printf '#!/bin/sh\ntrap '"'"'rm -f "$SHAKERS/$$"; kill $! 2>/dev/null; exit 0'"'"' TERM\ntouch "$SHAKERS/$$"\nsleep 60 & wait\n' >"$dest/helpers/tlbshake"
	export SHAKERS=$BATS_TEST_TMPDIR/shakers
	mkdir -p "$SHAKERS"
	printf '#!/bin/sh\necho 6.12.118+deb12-amd64\n' >"$BATS_TEST_TMPDIR/bin/uname"
	chmod +x "$dest/helpers/tlbshake" "$BATS_TEST_TMPDIR/bin/uname"
}

suite() {	# suite SERIES_APPLIED: run the generated selftests.bats
	echo "KVER=6.12 SERIES_APPLIED=$1" >"$dest/kernel.knobs"
	run env PATH="$BATS_TEST_TMPDIR/bin:$PATH" bats --tap "$dest/selftests.bats"
}

@test "stage-selftests: one test per program the Makefile lists" {
	run grep -c '^@test "kselftest damon: ' "$dest/selftests.bats"
	[ "$output" = 2 ]
	[ -x "$dest/selftests/sysfs.sh" ]
}

@test "selftests.bats: Debian's 6.12 (no series): a tried regions reader is skipped before it runs, naming the missing fix" {
	suite 0
	echo "$output"
	[[ $output == *"ok 1 kselftest damon: sysfs.sh"* ]]
	# the runner (guest-image/run.sh) takes a skip as such only with a
	# reason that starts "kernel lacks: "
	[[ $output == *"ok 2 kselftest damon: $WSS # skip kernel lacks: the 6.12 series' fix of the tried regions update timeout "*"$WSS reads tried regions updates, which 6.12.118+deb12-amd64 ends on a wall clock timeout"* ]]
	# not run: its output is not there
	[[ $output != *"50-th percentile"* ]]
	[ "$status" = 0 ]
}

@test "selftests.bats: the patched kernel: the same output is a failure" {
	suite 13
	echo "$output"
	[[ $output == *"not ok 2 kselftest damon: $WSS"* ]]
	[[ $output != *"# skip"* ]]
	[ "$status" != 0 ]
}

@test "selftests.bats: another failure on Debian's 6.12 is a failure" {
	SYSFS_RC=1 SYSFS_SAYS='tried regions is not created' suite 0
	echo "$output"
	[[ $output == *"not ok 1 kselftest damon: sysfs.sh"* ]]
	[[ $output == *"sysfs.sh: tried regions is not created"* ]]
}

@test "selftests.bats: tlbshake runs beside a program with the selftests' workload (access_memory) only" {
	run grep -c '^	run_selftest sysfs.sh$' "$dest/selftests.bats"
	[ "$output" = 1 ]
	run grep -c "^	run_selftest $WSS tlbshake\$" "$dest/selftests.bats"
	[ "$output" = 1 ]
	suite 13
	echo "$output"
	run cat "$SHAKERS.log"
	echo "$output"
	[ "${lines[0]}" = "sysfs.sh: 0 shakers" ]
	[[ ${lines[1]} == *"$WSS: "[1-9]*" shakers" ]]
	# all stopped after it
	[ -z "$(ls "$SHAKERS")" ]
}
