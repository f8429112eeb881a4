#!/usr/bin/env bats
# DAMON sysfs's tried regions update ('update_schemes_tried_bytes',
# 'update_schemes_tried_regions') on a kdamond slower than its intervals:
# every update shows what the scheme was applied to.  The stock kernel ends
# the update after two apply intervals of wall clock time; a kdamond that
# needs longer for them (a busy CPU under TCG, many regions) ends it before
# it applied the scheme once, and the update shows nothing, for a scheme
# that matches every region.  This is how the kernel's selftests
# damos_tried_regions.py and damon_nr_regions.py failed under load ("tried
# regions is not created").  The 6.12 series' tried regions timeout fix (patch 0003) counts the
# timeout in the kdamond's own sampling intervals.  The helper
# (helpers/tried_updates.bash) says what it sets up; the pass condition
# does not depend on timing: with the fix, the update of a scheme that
# matches every region cannot end before the kdamond applied it.

load helpers/common
load helpers/tried_updates

setup() {
	need sysfs
	# the tried regions directory and its updates came in 6.2
	kernel_at_least 6.2 ||
		skip "kernel lacks: tried regions updates (DAMON sysfs of 6.2 and later; this is $(uname -r))"
	[ "${SERIES_APPLIED:-0}" -gt 0 ] ||
		skip "kernel lacks: $TRIED_REGIONS_FIX; $(uname -r) ends it on a wall clock timeout"
	damon_off
	log_mark
}

teardown() {
	damon_off
	assert_kernel_log_clean
}

@test "tried regions update on a kdamond slower than its intervals: no update is empty" {
	run tried_updates 10 2000
	echo "$output"
	assert_success
	assert_line "tried_updates: 11 updates, 0 empty"
}
