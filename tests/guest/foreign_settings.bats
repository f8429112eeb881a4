#!/usr/bin/env bats
# Settings damoctl did not make survive what damoctl does (issue 10).  A
# scheme is made by plain writes into sysfs, with what 6.11+ sysfs has and
# damoctl may not know: action migrate_cold with target_nid 0,
# apply_interval_us, a quota goal, an anon filter.  Then damoctl scheme add,
# scheme rm of another scheme, scheme list, stats show, monitor status, and
# apply of a file that does not mention it run one after the other, with
# the kdamond off and then on; after each, the foreign scheme must read
# back exactly as written.
# libdamos keeps them by reading every file of the schemes before it
# writes nr_schemes and putting back what it did not change (issue 13).

load helpers/common

setup() {
	damon_off
	log_mark
	need sysfs paddr
	# migrate_cold and target_nid came in 6.11; apply_interval_us, quota
	# goals and filters earlier
	if ! kernel_at_least 6.11; then
		skip "kernel lacks: migrate_cold/target_nid (DAMON sysfs of 6.11 and later; this is $(uname -r))"
	fi
	runs_on_debian_612 sysfs
	CONF=$BATS_TEST_TMPDIR/damoctl.conf
}

teardown() {
	damon_off
	assert_kernel_log_clean
}

FS=$SYSFS_C/schemes/0

# The foreign scheme (index 0) and another plain one (index 1, stat), by
# plain writes, as a script or another tool would make them.
foreign_setup() {
	sysfs_paddr_setup
	echo 2 > "$SYSFS_C/schemes/nr_schemes"
	echo migrate_cold > "$FS/action"
	echo 0 > "$FS/target_nid"
	echo 2000000 > "$FS/apply_interval_us"
	echo 5 > "$FS/access_pattern/age/min"
	echo 200 > "$FS/quotas/ms"
	echo 1048576 > "$FS/quotas/bytes"
	echo 1000 > "$FS/quotas/reset_interval_ms"
	echo 1 > "$FS/quotas/goals/nr_goals"
	echo some_mem_psi_us > "$FS/quotas/goals/0/target_metric"
	echo 1000 > "$FS/quotas/goals/0/target_value"
	echo 1 > "$FS/filters/nr_filters"
	echo anon > "$FS/filters/0/type"
	echo Y > "$FS/filters/0/matching"
	echo stat > "$SYSFS_C/schemes/1/action"
	FOREIGN=$(foreign_state)
	# what was written is what the kernel shows
	grep -qx 'action:migrate_cold' <<<"$FOREIGN"
	grep -qx 'target_nid:0' <<<"$FOREIGN"
	grep -qx 'apply_interval_us:2000000' <<<"$FOREIGN"
	grep -qx 'quotas/goals/0/target_metric:some_mem_psi_us' <<<"$FOREIGN"
	grep -qx 'filters/0/type:anon' <<<"$FOREIGN"
}

# Every input file of scheme 0 as "path:value"; what the kernel updates by
# itself (stats, tried regions, effective_bytes, a goal's current_value)
# left out.
foreign_state() {
	(cd "$FS" && grep -r . --exclude-dir=stats --exclude-dir=tried_regions \
		--exclude=effective_bytes --exclude=current_value 2>/dev/null | sort)
}

# survives WHAT: scheme 0 reads back as written.
survives() {
	local now
	now=$(foreign_state)
	if [ "$now" != "$FOREIGN" ]; then
		echo "after $1, the foreign scheme changed:"
		diff <(echo "$FOREIGN") <(echo "$now") || true
		fail "foreign settings lost by $1"
	fi
}

# the sequence of damoctl commands, each followed by the check
damoctl_sequence() {
	run "$DAMOCTL" --interface sysfs scheme add lru_prio
	assert_success
	survives "scheme add"
	assert_equal "$(cat "$SYSFS_C/schemes/nr_schemes")" 3
	assert_equal "$(cat "$SYSFS_C/schemes/2/action")" lru_prio

	run "$DAMOCTL" --interface sysfs scheme rm 1
	assert_success
	survives "scheme rm 1"
	assert_equal "$(cat "$SYSFS_C/schemes/nr_schemes")" 2
	assert_equal "$(cat "$SYSFS_C/schemes/1/action")" lru_prio

	run "$DAMOCTL" --interface sysfs scheme list
	assert_success
	echo "$output"
	assert_line --regexp '^0: .*migrate_cold'
	survives "scheme list"

	run "$DAMOCTL" --interface sysfs stats show
	assert_success
	survives "stats show"

	run "$DAMOCTL" --interface sysfs monitor status
	assert_success
	survives "monitor status"

	printf 'interface sysfs\nattrs sample 5ms aggr 100ms update 1s regions 10 1000\n' > "$CONF"
	run "$DAMOCTL" apply "$CONF"
	assert_success
	survives "apply of a file without schemes"
}

@test "foreign settings: a sysfs scheme damoctl did not make survives every damoctl command (kdamond off)" {
	foreign_setup
	damoctl_sequence
	assert_equal "$(cat "$SYSFS_K/state")" off
}

@test "foreign settings: the same with the kdamond running (online commits)" {
	foreign_setup
	echo on > "$SYSFS_K/state"
	assert_equal "$(cat "$SYSFS_K/state")" on
	damoctl_sequence
	assert_equal "$(cat "$SYSFS_K/state")" on
}
