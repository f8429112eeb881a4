#!/usr/bin/env bats
# damoctl on the real kernel, through dbgfs and through sysfs: what it sets
# is what the kernel holds, and both interfaces agree. Until damoctl is
# installed these fail (command not found): in the guest nothing skips.

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

dbgfs_attrs_5ms_100ms() { echo "5000 100000 1000000 10 1000" > "$DBGFS/attrs"; }

sysfs_attrs_5ms_100ms() { sysfs_paddr_setup; }

@test "damoctl: is installed, reports its version, and its man page works" {
	runs_on_debian_612 any
	run "$DAMOCTL" --version
	assert_success
	assert_output --partial "$(cat /damos/VERSION)"
	run man -w damoctl
	assert_success
	assert_output --regexp "^$DAMOS_PREFIX/(share/)?man/"  # /usr/local/man links to share/man
	run bash -c 'MANPAGER=cat man damoctl'
	assert_success
	assert_output --partial SYNOPSIS
}

@test "damoctl dbgfs: scheme add lru_prio writes damon_lru_sort's hot scheme as action 6" {
	need dbgfs_lru
	dbgfs_attrs_5ms_100ms
	run "$DAMOCTL" --interface dbgfs scheme add lru_prio
	assert_success
	run cat "$DBGFS/schemes"
	assert_equal "${#lines[@]}" 1
	assert_equal "$(field 7 "${lines[0]}")" 6		# action
	assert_equal "$(field 3 "${lines[0]}")" 10		# >= 50% of 20 samples
}

@test "damoctl dbgfs: scheme add lru_deprio appends action 7 and keeps the schemes there" {
	need dbgfs_lru
	dbgfs_attrs_5ms_100ms
	echo "$LRU_PRIO_LINE" > "$DBGFS/schemes"
	run "$DAMOCTL" --interface dbgfs scheme add lru_deprio
	assert_success
	run cat "$DBGFS/schemes"
	assert_equal "${#lines[@]}" 2
	assert_equal "$(first_fields 18 <<<"${lines[0]}")" "$LRU_PRIO_LINE"
	assert_equal "$(field 7 "${lines[1]}")" 7		# action
	assert_equal "$(field 4 "${lines[1]}")" 0		# no access
	assert_equal "$(field 5 "${lines[1]}")" 1200		# 120 s of 100 ms
}

@test "damoctl dbgfs: scheme list shows what the kernel holds" {
	need dbgfs_lru
	dbgfs_attrs_5ms_100ms
	write_once "$DBGFS/schemes" "$LRU_PRIO_LINE
$LRU_DEPRIO_LINE"
	run "$DAMOCTL" --interface dbgfs scheme list
	assert_success
	assert_line --partial lru_prio
	assert_line --partial lru_deprio
}

@test "damoctl dbgfs: --dry-run writes nothing and its script does what the command does" {
	need dbgfs_lru
	dbgfs_attrs_5ms_100ms
	run "$DAMOCTL" --interface dbgfs --dry-run scheme add lru_prio
	assert_success
	local script=$output
	assert_equal "$(cat "$DBGFS/schemes")" ""
	sh -e <<<"$script"
	local by_script
	by_script=$(first_fields 18 < "$DBGFS/schemes")
	echo > "$DBGFS/schemes"
	"$DAMOCTL" --interface dbgfs scheme add lru_prio
	assert_equal "$(first_fields 18 < "$DBGFS/schemes")" "$by_script"
}

# Issue 14 High 2: the kernel's dbgfs keeps the last write() to schemes
# only; the dry-run script of a batch writes its lines in one write() under
# dash and under bash (the old printf script left one scheme under bash).
@test "damoctl dbgfs: a dry-run batch's script leaves the batch's schemes under dash and under bash" {
	need dbgfs_lru
	dbgfs_attrs_5ms_100ms
	printf '%s\n' "scheme add stat" "scheme add lru_prio" "scheme add pageout" > "$BATS_TEST_TMPDIR/b"
	run "$DAMOCTL" --interface dbgfs --dry-run -f "$BATS_TEST_TMPDIR/b"
	assert_success
	local script=$output sh want
	assert_equal "$(cat "$DBGFS/schemes")" ""
	"$DAMOCTL" --interface dbgfs -f "$BATS_TEST_TMPDIR/b"
	want=$(first_fields 18 < "$DBGFS/schemes")
	assert_equal "$(wc -l <<<"$want")" 3
	for sh in dash bash; do
		echo > "$DBGFS/schemes"
		"$sh" -e <<<"$script"
		assert_equal "$(first_fields 18 < "$DBGFS/schemes")" "$want"
	done
}

@test "damoctl sysfs: scheme add lru_prio and lru_deprio create sysfs schemes" {
	runs_on_debian_612 sysfs
	need sysfs
	sysfs_attrs_5ms_100ms
	run "$DAMOCTL" --interface sysfs scheme add lru_prio
	assert_success
	run "$DAMOCTL" --interface sysfs scheme add lru_deprio
	assert_success
	assert_equal "$(cat "$SYSFS_C/schemes/nr_schemes")" 2
	assert_equal "$(cat "$SYSFS_C/schemes/0/action")" lru_prio
	assert_equal "$(cat "$SYSFS_C/schemes/1/action")" lru_deprio
	run "$DAMOCTL" --interface sysfs scheme list
	assert_success
	assert_line --partial lru_prio
	assert_line --partial lru_deprio
}

@test "damoctl: dbgfs and sysfs agree on every field of lru_prio and lru_deprio" {
	need dbgfs_lru sysfs
	dbgfs_attrs_5ms_100ms
	sysfs_attrs_5ms_100ms
	local a
	for a in lru_prio lru_deprio; do
		"$DAMOCTL" --interface dbgfs scheme add $a
		"$DAMOCTL" --interface sysfs scheme add $a
	done
	run first_fields 18 < "$DBGFS/schemes"
	assert_equal "${#lines[@]}" 2
	assert_equal "$(sysfs_scheme_line 0)" "${lines[0]}"
	assert_equal "$(sysfs_scheme_line 1)" "${lines[1]}"
}

@test "damoctl dbgfs: monitor start/status/stop and stats on a paddr target with a hot/cold workload" {
	need dbgfs_lru paddr
	start_workload -h 64 -c 256
	damoctl_paddr_setup dbgfs
	"$DAMOCTL" --interface dbgfs scheme add lru_prio
	"$DAMOCTL" --interface dbgfs scheme add lru_deprio age 500ms max
	run "$DAMOCTL" --interface dbgfs monitor start
	assert_success
	assert_equal "$(cat "$DBGFS_ON")" on
	run "$DAMOCTL" --interface dbgfs monitor status
	assert_success
	assert_output --partial "$(cat "$DBGFS/kdamond_pid")"

	applied() { [ "$(sed -n 1p "$DBGFS/schemes" | awk '{ print $21 }')" -gt 0 ]; }
	wait_for 120 applied || { cat "$DBGFS/schemes"; fail "lru_prio not applied"; }
	run "$DAMOCTL" --interface dbgfs stats show
	assert_success
	assert_output --partial lru_prio

	# dbgfs is locked while monitoring: a clear error, nothing changed
	local before
	before=$(first_fields 18 < "$DBGFS/schemes")
	run "$DAMOCTL" --interface dbgfs scheme add lru_prio
	assert_failure 1
	assert_output --partial stop
	assert_equal "$(first_fields 18 < "$DBGFS/schemes")" "$before"

	run "$DAMOCTL" --interface dbgfs monitor stop
	assert_success
	wait_for 10 no_kdamond
	assert_equal "$(cat "$DBGFS_ON")" off

	# stopped, the stats hold still: damoctl shows the kernel's numbers
	local k
	k=$(sed -n 1p "$DBGFS/schemes" | awk '{ print $19 " +" $20 " +" $21 " +" $22 " +" $23 }')
	[ "$(field 1 "$k")" -gt 0 ]
	run "$DAMOCTL" --interface dbgfs stats show
	assert_success
	assert_line --regexp "^0 +lru_prio +$k\$"
}

@test "damoctl sysfs: monitor start, online scheme add (commit), stats, stop" {
	runs_on_debian_612 sysfs
	need sysfs paddr
	start_workload -h 64 -c 256
	damoctl_paddr_setup sysfs
	"$DAMOCTL" --interface sysfs scheme add lru_prio
	run "$DAMOCTL" --interface sysfs monitor start
	assert_success
	assert_equal "$(cat "$SYSFS_K/state")" on
	[ "$(cat "$SYSFS_K/pid")" -gt 0 ]
	# adding while on commits online
	run "$DAMOCTL" --interface sysfs scheme add lru_deprio age 500ms max
	assert_success
	assert_equal "$(cat "$SYSFS_C/schemes/nr_schemes")" 2
	assert_equal "$(cat "$SYSFS_K/state")" on

	applied() {
		echo update_schemes_stats > "$SYSFS_K/state" &&
			[ "$(cat "$SYSFS_C/schemes/0/stats/nr_applied")" -gt 0 ]
	}
	wait_for 120 applied || fail "lru_prio not applied"
	run "$DAMOCTL" --interface sysfs stats show
	assert_success
	assert_output --partial lru_prio

	run "$DAMOCTL" --interface sysfs monitor stop
	assert_success
	wait_for 10 no_kdamond
	assert_equal "$(cat "$SYSFS_K/state")" off
}

@test "damoctl: scheme clear empties both interfaces" {
	need dbgfs_lru sysfs
	dbgfs_attrs_5ms_100ms
	sysfs_attrs_5ms_100ms
	echo "$LRU_PRIO_LINE" > "$DBGFS/schemes"
	"$DAMOCTL" --interface sysfs scheme add lru_prio
	run "$DAMOCTL" --interface dbgfs scheme clear
	assert_success
	assert_equal "$(cat "$DBGFS/schemes")" ""
	run "$DAMOCTL" --interface sysfs scheme clear
	assert_success
	assert_equal "$(cat "$SYSFS_C/schemes/nr_schemes")" 0
}

# Issue 14 High 1, "done when": the README's quick example on this kernel.
# The stats of a catch-all stat scheme: nr_tried of scheme 0.
readme_nr_tried() {
	"$DAMOCTL" --interface "$1" --json stats show | grep -o '"nr_tried":[0-9]*' |
		head -n 1 | cut -d: -f2
}

readme_tried_above() {	# INTERFACE N: the scheme has tried more than N regions
	[ "$(readme_nr_tried "$1")" -gt "$2" ]
}

readme_example() {	# INTERFACE
	local want
	# every top-level System RAM range, in /proc/iomem's order (issue 44)
	want=$(grep -E '^[0-9a-f]+-[0-9a-f]+ : System RAM$' /proc/iomem |
		while IFS='- ' read -r s e _; do
			printf ' region 0x%x 0x%x' "$((16#$s))" "$((16#$e + 1))"
		done)
	[ -n "$want" ] || fail "no System RAM range in /proc/iomem"
	run "$DAMOCTL" --interface "$1" target set paddr
	assert_success
	assert_output --partial "every System RAM range of /proc/iomem,$want"
	run "$DAMOCTL" --interface "$1" target show
	assert_output "paddr$want"
	run "$DAMOCTL" --interface "$1" scheme add stat
	assert_success
	run "$DAMOCTL" --interface "$1" monitor start
	assert_success
	# the scheme tries regions of the range, and goes on trying
	# (a function, so that wait_for reads the stats at every poll: a
	# $(...) in its arguments would be read once, before the first)
	wait_for 60 readme_tried_above "$1" 0 || fail "nr_tried stays 0"
	t0=$(readme_nr_tried "$1")
	wait_for 60 readme_tried_above "$1" "$t0" || fail "nr_tried stays $t0"
	run "$DAMOCTL" --interface "$1" monitor stop
	assert_success
}

@test "damoctl sysfs: the README's example monitors every System RAM range and the stats move" {
	runs_on_debian_612 sysfs
	need sysfs
	readme_example sysfs
}

@test "damoctl dbgfs: the README's example monitors every System RAM range and the stats move" {
	need dbgfs
	echo > "$DBGFS/schemes"
	readme_example dbgfs
}
