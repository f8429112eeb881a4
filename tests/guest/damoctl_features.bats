#!/usr/bin/env bats
# Linux 6.12's DAMOS features through damoctl, on the real kernel (issue
# 13): "scheme add migrate_cold nid 0" with filters and a quota goal lands
# in sysfs as written and "scheme list" shows all of it, on a kernel that
# has them (6.11 and later: migrate_* and target_nid); a kernel without
# them (6.1's sysfs) and dbgfs, whose line cannot carry a node, refuse it
# with a message naming the action, and nothing is written.  The oracle
# for "has them" is the kernel's release, not damoctl's own probe.

load helpers/common

setup() {
	damon_off
	log_mark
}

teardown() {
	damon_off
	assert_kernel_log_clean
}

has_migrate() { kernel_at_least 6.11; }

@test "damoctl sysfs: scheme add migrate_cold nid 0 with filters and a goal, as the kernel has them" {
	runs_on_debian_612 sysfs
	need sysfs paddr
	local s=$SYSFS_C/schemes/0 before
	"$DAMOCTL" --interface sysfs scheme clear
	if ! has_migrate; then
		before=$(cat "$SYSFS_C/schemes/nr_schemes" 2>/dev/null || echo none)
		run "$DAMOCTL" --interface sysfs scheme add migrate_cold nid 0
		assert_failure
		assert_output --partial migrate_cold
		echo "# $(uname -r): $output" >&3
		[ "$(cat "$SYSFS_C/schemes/nr_schemes" 2>/dev/null || echo none)" = "$before" ] ||
			fail "the refused add changed nr_schemes"
		return 0
	fi
	run "$DAMOCTL" --interface sysfs scheme add migrate_cold nid 0 age 10s max \
		apply_interval 500ms filter not anon filter addr 0x1000 0x2000 \
		goal user_input 100 40
	assert_success
	[ "$(cat "$SYSFS_C/schemes/nr_schemes")" = 1 ]
	[ "$(cat "$s/action")" = migrate_cold ]
	[ "$(cat "$s/target_nid")" = 0 ]
	[ "$(cat "$s/apply_interval_us")" = 500000 ]
	[ "$(cat "$s/filters/nr_filters")" = 2 ]
	[ "$(cat "$s/filters/0/type")" = anon ]
	[ "$(cat "$s/filters/0/matching")" = N ]
	[ "$(cat "$s/filters/1/type")" = addr ]
	[ "$(cat "$s/filters/1/addr_start")" = 4096 ]
	[ "$(cat "$s/filters/1/addr_end")" = 8192 ]
	[ "$(cat "$s/quotas/goals/nr_goals")" = 1 ]
	[ "$(cat "$s/quotas/goals/0/target_metric")" = user_input ]
	[ "$(cat "$s/quotas/goals/0/target_value")" = 100 ]
	run "$DAMOCTL" --interface sysfs scheme list
	assert_success
	assert_output --partial "0: migrate_cold "
	assert_output --partial " nid 0 apply_interval 500ms filter not anon filter addr 0x1000 0x2000 goal user_input 100 40"
	run "$DAMOCTL" --interface sysfs --json scheme list
	assert_success
	assert_output --partial '"migrate_cold"'
}

@test "damoctl dbgfs: migrate_cold is refused (a dbgfs line has no node), nothing written" {
	need dbgfs
	local before
	"$DAMOCTL" --interface dbgfs scheme clear
	"$DAMOCTL" --interface dbgfs scheme add stat
	before=$(cat "$DBGFS/schemes")
	run "$DAMOCTL" --interface dbgfs scheme add migrate_cold nid 0
	assert_failure
	assert_output --partial migrate_cold
	echo "# $(uname -r): $output" >&3
	[ "$(cat "$DBGFS/schemes")" = "$before" ] || fail "the refused add changed the schemes"
}
