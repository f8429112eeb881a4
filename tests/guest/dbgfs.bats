#!/usr/bin/env bats
# DAMON's debugfs interface used as a shell script uses it: echo and cat.
# Scripts are /bin/sh (dash) here: bash line-buffers its builtins' output,
# which splits a multi-line echo into writes that dbgfs refuses.

load helpers/common

setup() {
	damon_off
	log_mark
}

teardown() {
	stop_workload
	damon_off
	assert_kernel_log_clean
}

# scheme_line ACTION [MIN_AGE]: an 18-field line with the given action.
scheme_line() {
	echo "4096 $ULONG_MAX 0 $U32_MAX ${2:-0} $U32_MAX $1 10 0 1000 0 0 100 0 0 0 0 0"
}

# scheme_stat LINE_NR FIELD: a stats field (19 nr_tried .. 23 qt_exceeds) of
# the LINE_NR-th scheme (1-based) as dbgfs shows it now.
scheme_stat() { sed -n "${1}p" "$DBGFS/schemes" | awk -v f="$2" '{ print $f }'; }

@test "dbgfs: lru_prio (6) and lru_deprio (7) schemes written with echo read back" {
	need dbgfs_lru
	sh -c 'echo "$1
$2" > "$3"' _ "$LRU_PRIO_LINE" "$LRU_DEPRIO_LINE" "$DBGFS/schemes"
	run cat "$DBGFS/schemes"
	assert_success
	assert_equal "${#lines[@]}" 2
	assert_equal "$(first_fields 18 <<<"${lines[0]}")" "$LRU_PRIO_LINE"
	assert_equal "$(first_fields 18 <<<"${lines[1]}")" "$LRU_DEPRIO_LINE"
	# then the five stats, all zero before any monitoring
	assert_equal "$(cut -d' ' -f19- <<<"${lines[0]}")" "0 0 0 0 0"
	assert_equal "$(cut -d' ' -f19- <<<"${lines[1]}")" "0 0 0 0 0"
}

@test "dbgfs: every action number 0..7 round-trips" {
	need dbgfs_lru
	local a
	for a in 0 1 2 3 4 5 6 7; do
		scheme_line $a > "$DBGFS/schemes"
		assert_equal "$(first_fields 18 < "$DBGFS/schemes")" "$(scheme_line $a)"
	done
}

@test "dbgfs: an empty write removes all schemes" {
	need dbgfs
	echo "$LRU_PRIO_LINE" > "$DBGFS/schemes"
	echo > "$DBGFS/schemes"
	run cat "$DBGFS/schemes"
	assert_success
	assert_output ""
}

@test "dbgfs: paddr monitoring of a hot/cold workload tries and applies lru_prio and lru_deprio" {
	need dbgfs_lru paddr
	start_workload -h 64 -c 256
	dbgfs_paddr_setup
	# cold after 5 aggregation intervals (0.5 s), so the test needs not wait 120 s
	write_once "$DBGFS/schemes" "$LRU_PRIO_LINE
$(scheme_line 7 5)"
	echo on > "$DBGFS_ON"
	assert_equal "$(cat "$DBGFS_ON")" on
	local pid
	pid=$(cat "$DBGFS/kdamond_pid")
	[ "$pid" -gt 0 ]
	assert_equal "$(cat "/proc/$pid/comm")" kdamond.0

	applied() { [ "$(scheme_stat 1 21)" -gt 0 ] && [ "$(scheme_stat 2 21)" -gt 0 ]; }
	wait_for 120 applied || { cat "$DBGFS/schemes"; fail "lru_prio and lru_deprio were not both applied"; }
	cat "$DBGFS/schemes"
	# one read of schemes is one consistent snapshot of the stats
	local line
	while read -r line; do
		set -- $line
		[ "${19}" -ge "${21}" ]	# nr_tried >= nr_applied
		[ "${20}" -gt 0 ]	# sz_tried
		[ "${22}" -gt 0 ]	# sz_applied
	done < <(cat "$DBGFS/schemes")

	# while monitoring, the inputs are locked
	run bash -c "echo '$LRU_PRIO_LINE' > '$DBGFS/schemes'"
	assert_failure
	assert_output --partial "Device or resource busy"

	echo off > "$DBGFS_ON"
	wait_for 10 no_kdamond
	assert_equal "$(cat "$DBGFS_ON")" off
	assert_equal "$(cat "$DBGFS/kdamond_pid")" none
	# stats survive the stop
	[ "$(scheme_stat 1 21)" -gt 0 ]
}
