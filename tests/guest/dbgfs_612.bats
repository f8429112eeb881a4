#!/usr/bin/env bats
# What the series does to dbgfs on 6.12 only.  6.12 renamed dbgfs's
# monitor_on to monitor_on_DEPRECATED so that users notice; the series keeps
# that (series v2 gave monitor_on back as an alias, which reversed the
# rename and took the name from mk_contexts: v3 dropped it).  And 6.12 has
# migrate_hot and migrate_cold, which need a target node that a dbgfs scheme
# line cannot carry: the series gives them no number (8 and 9 are refused
# with EINVAL).  On 6.1 (no monitor_on_DEPRECATED, no migrate actions) only
# the part that holds there is checked.  A kernel without the series
# (KPATCHES=none, Debian's) skips the file: "kernel lacks".

load helpers/common

setup() {
	need dbgfs_series
	damon_off
	log_mark
}

teardown() {
	[ -d "$DBGFS/monitor_on" ] && echo monitor_on > "$DBGFS/rm_contexts"
	damon_off
	assert_kernel_log_clean
}

# is_612: the kernel has the renamed switch
is_612() { [ -e "$DBGFS/monitor_on_DEPRECATED" ]; }

@test "dbgfs 6.12: the switch is monitor_on_DEPRECATED only, as upstream (6.1: monitor_on)" {
	if is_612; then
		assert_not_exists "$DBGFS/monitor_on"
	else
		assert_file_exists "$DBGFS/monitor_on"
	fi
}

@test "dbgfs 6.12: mk_contexts makes a context named monitor_on, and rm_contexts removes it" {
	is_612 || { echo "# 6.1: monitor_on is the switch there; nothing to check" >&3; return 0; }
	echo monitor_on > "$DBGFS/mk_contexts"
	assert_dir_exists "$DBGFS/monitor_on"
	assert_file_exists "$DBGFS/monitor_on/schemes"
	echo monitor_on > "$DBGFS/rm_contexts"
	assert_not_exists "$DBGFS/monitor_on"
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
