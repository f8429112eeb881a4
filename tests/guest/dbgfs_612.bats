#!/usr/bin/env bats
# What the series adds to dbgfs on 6.12 only.  6.12 renamed dbgfs's
# monitor_on to monitor_on_DEPRECATED; the series provides monitor_on again
# beside it, the same switch, so that old scripts and damo 1.x run unchanged.
# And 6.12 has migrate_hot and migrate_cold, which need a target node that a
# dbgfs scheme line cannot carry: the series gives them no number (8 and 9 are
# refused with EINVAL).  On 6.1 (no monitor_on_DEPRECATED, no migrate actions)
# only the part that holds there is checked.  A kernel without the series
# (KPATCHES=none, Debian's) skips the file: "kernel lacks".

load helpers/common

setup() {
	need dbgfs_series
	damon_off
	log_mark
}

teardown() {
	damon_off
	assert_kernel_log_clean
}

# is_612: the kernel has the renamed switch
is_612() { [ -e "$DBGFS/monitor_on_DEPRECATED" ]; }

@test "dbgfs 6.12: monitor_on is there (beside monitor_on_DEPRECATED on 6.12)" {
	assert_file_exists "$DBGFS/monitor_on"
	if is_612; then
		assert_file_exists "$DBGFS/monitor_on_DEPRECATED"
	fi
}

@test "dbgfs 6.12: monitor_on and monitor_on_DEPRECATED are one switch" {
	is_612 || { echo "# 6.1: only monitor_on exists; nothing to compare" >&3; return 0; }
	local on off v
	for on in monitor_on monitor_on_DEPRECATED; do
		off=monitor_on
		[ "$on" = monitor_on ] && off=monitor_on_DEPRECATED
		# a kdamond that ends drops its pid targets (dbgfs_before_terminate):
		# every start needs them written again, once the last one is gone
		wait_for 10 no_kdamond
		echo $$ > "$DBGFS/target_ids"
		echo on > "$DBGFS/$on"
		val v "$DBGFS/monitor_on"; assert_equal "$v" on
		val v "$DBGFS/monitor_on_DEPRECATED"; assert_equal "$v" on
		v=$(< "$DBGFS/kdamond_pid")
		[ "$v" != none ] || fail "on via $on, but kdamond_pid is none"
		echo off > "$DBGFS/$off"
		val v "$DBGFS/monitor_on"; assert_equal "$v" off
		val v "$DBGFS/monitor_on_DEPRECATED"; assert_equal "$v" off
	done
}

@test "dbgfs 6.12: monitor_on refuses what monitor_on_DEPRECATED refuses" {
	is_612 || { echo "# 6.1: only monitor_on exists; nothing to compare" >&3; return 0; }
	local f
	echo > "$DBGFS/target_ids"
	for f in monitor_on monitor_on_DEPRECATED; do
		# no target: EINVAL from both (bash names the errno; dash says
		# "I/O error" for any failed write)
		run bash -c 'echo on > "$1"' _ "$DBGFS/$f"
		assert_failure
		assert_output --partial "Invalid argument"
		run bash -c 'echo garbage > "$1"' _ "$DBGFS/$f"
		assert_failure
		assert_output --partial "Invalid argument"
	done
}

@test "dbgfs 6.12: no number for migrate_hot/migrate_cold: 8 and 9 are refused, old schemes kept" {
	local keep="4096 $ULONG_MAX 0 $U32_MAX 0 $U32_MAX 5 10 0 1000 0 0 100 0 0 0 0 0" a
	echo "$keep" > "$DBGFS/schemes"
	for a in 8 9; do
		# bash names the errno of a failed write; dash says "I/O error"
		# for any of them
		run bash -c 'echo "$1" > "$2"' _ \
			"4096 $ULONG_MAX 0 $U32_MAX 0 $U32_MAX $a 10 0 1000 0 0 100 0 0 0 0 0" \
			"$DBGFS/schemes"
		assert_failure
		assert_output --partial "Invalid argument"
		run first_fields 18 < "$DBGFS/schemes"
		assert_output "$keep"
	done
}
