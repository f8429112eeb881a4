#!/usr/bin/env bats
# Issue 31 on the real kernel: damoctl reclaim drives DAMON_RECLAIM (its
# kdamond starts and stops, commit_inputs is taken); scheme set changes a
# running kdamond's scheme in place and its statistics go on (nr_tried
# keeps growing from where it was); scheme goal feeds a user_input quota
# goal and the kernel's effective quota follows it.  The oracles are the
# kernel's own files, read and commanded directly (update_schemes_stats,
# update_schemes_effective_quotas); a kernel without quota goals (6.1) is
# told apart by its scheme directory, not by damoctl.

load helpers/common

setup() {
	damon_off
	log_mark
}

teardown() {
	damon_off
	assert_kernel_log_clean
}

reclaim_pid() { local v; v=$(cat "$RECLAIM/kdamond_pid"); [ "$v" -gt 0 ] 2>/dev/null; }
reclaim_stopped() { [ "$(cat "$RECLAIM/kdamond_pid")" = -1 ]; }
reclaim_committed() { [ "$(cat "$RECLAIM/commit_inputs")" = N ]; }

# the module keeps its inputs across tests: start from its defaults
reclaim_defaults() {
	local kv
	for kv in min_age=120000000 quota_ms=10 quota_sz=134217728 \
		quota_reset_interval_ms=1000 wmarks_interval=5000000 wmarks_high=500 \
		wmarks_mid=400 wmarks_low=200 sample_interval=5000 aggr_interval=100000 \
		min_nr_regions=10 max_nr_regions=1000 monitor_region_start=0 \
		monitor_region_end=0; do
		echo "${kv#*=}" > "$RECLAIM/${kv%%=*}"
	done
	[ ! -e "$RECLAIM/skip_anon" ] || echo N > "$RECLAIM/skip_anon"
}

@test "reclaim enable starts DAMON_RECLAIM (kdamond_pid appears), set goes through commit_inputs, disable stops it" {
	runs_on_debian_612 sysfs
	need reclaim
	reclaim_defaults
	run "$DAMOCTL" reclaim enable cold 30s quota size 64M
	assert_success
	wait_for 10 reclaim_pid || fail "kdamond_pid stayed $(cat "$RECLAIM/kdamond_pid")"
	local pid
	pid=$(cat "$RECLAIM/kdamond_pid")
	assert_equal "$(cat "/proc/$pid/comm")" kdamond.0
	assert_equal "$(cat "$RECLAIM/enabled")" Y
	assert_equal "$(cat "$RECLAIM/min_age") $(cat "$RECLAIM/quota_sz")" "30000000 67108864"
	run "$DAMOCTL" reclaim status
	assert_success
	assert_line --index 0 "damon_reclaim: on, kdamond pid $pid"
	# a running module takes new inputs through commit_inputs, which it
	# clears when it has read them (at its next watermarks check, 5 s)
	run "$DAMOCTL" reclaim set cold 1m
	assert_success
	assert_equal "$(cat "$RECLAIM/min_age")" 60000000
	wait_for 30 reclaim_committed || fail "commit_inputs stayed $(cat "$RECLAIM/commit_inputs")"
	assert_equal "$(cat "$RECLAIM/kdamond_pid")" "$pid"
	run "$DAMOCTL" reclaim disable
	assert_success
	wait_for 10 reclaim_stopped || fail "kdamond_pid stayed $(cat "$RECLAIM/kdamond_pid")"
	wait_for 10 no_kdamond || fail "kdamond $pid still runs"
	assert_equal "$(cat "$RECLAIM/enabled")" N
}

@test "reclaim: a parameter this kernel's module has, or the refusal naming the release" {
	runs_on_debian_612 sysfs
	need reclaim
	reclaim_defaults
	if [ -e "$RECLAIM/skip_anon" ]; then
		run "$DAMOCTL" reclaim set skip_anon on
		assert_success
		assert_equal "$(cat "$RECLAIM/skip_anon")" Y
		run "$DAMOCTL" reclaim status
		assert_line --regexp '^skip_anon on +skip_anon=Y$'
		output=$(grep '^skip_anon' <<<"$output")
	else
		run "$DAMOCTL" reclaim set skip_anon on
		assert_failure 1
		assert_output "damoctl: reclaim set: skip_anon: damon_reclaim has no parameter skip_anon (Linux $(uname -r); it came in Linux 6.3); nothing was changed"
	fi
	echo "# $(uname -r): $output" >&3
}

# kdamond 0: stats of scheme 0 updated by the kernel, then read
nr_tried() {
	echo update_schemes_stats > "$SYSFS_K/state"
	cat "$SYSFS_C/schemes/0/stats/nr_tried"
}

@test "scheme set on a running kdamond: the scheme changes in place, nr_tried goes on from where it was" {
	need sysfs paddr
	damoctl_paddr_setup sysfs
	run "$DAMOCTL" --interface sysfs scheme add stat
	assert_success
	run "$DAMOCTL" --interface sysfs monitor start
	assert_success
	local pid n1 n2 n3
	pid=$(cat "$SYSFS_K/pid")
	# enough tries that a reset to 0 could not catch up at once
	tried_at_least() { [ "$(nr_tried)" -ge "$1" ]; }
	wait_for 120 tried_at_least 300 || fail "nr_tried stayed $(nr_tried)"
	n1=$(nr_tried)
	local extra=()
	# apply_interval_us came in 6.7: set it where the kernel has it
	[ ! -e "$SYSFS_C/schemes/0/apply_interval_us" ] || extra=(apply_interval 200ms)
	run "$DAMOCTL" --interface sysfs scheme set 0 age 1s max quota size 1G "${extra[@]}"
	assert_success
	n2=$(nr_tried)
	# the kernel's files hold the new scheme, the kdamond is the same one
	assert_equal "$(cat "$SYSFS_C/schemes/0/access_pattern/age/min")" $((1000000 / AGGR_US))
	assert_equal "$(cat "$SYSFS_C/schemes/0/quotas/bytes")" 1073741824
	if [ -e "$SYSFS_C/schemes/0/apply_interval_us" ]; then
		assert_equal "$(cat "$SYSFS_C/schemes/0/apply_interval_us")" 200000
	fi
	assert_equal "$(cat "$SYSFS_K/state")" on
	assert_equal "$(cat "$SYSFS_K/pid")" "$pid"
	[ "$n2" -ge "$n1" ] || fail "nr_tried went from $n1 to $n2 across scheme set: the statistics were reset"
	tried_more() { [ "$(nr_tried)" -gt "$n2" ]; }
	wait_for 60 tried_more || fail "nr_tried stayed $n2 after scheme set"
	n3=$(nr_tried)
	echo "# $(uname -r): nr_tried $n1 before scheme set, $n2 right after, $n3 later" >&3
	run "$DAMOCTL" --interface sysfs scheme list
	assert_output --partial "0: stat "
	assert_output --partial "quota time 0 size 1G"
}

effective() {
	echo update_schemes_effective_quotas > "$SYSFS_K/state"
	cat "$SYSFS_C/schemes/0/quotas/effective_bytes"
}

@test "scheme goal: a user_input goal's current value changes the effective quota" {
	runs_on_debian_612 sysfs
	need sysfs paddr
	damoctl_paddr_setup sysfs
	run "$DAMOCTL" --interface sysfs scheme add stat
	assert_success
	if [ ! -d "$SYSFS_C/schemes/0/quotas/goals" ]; then
		run "$DAMOCTL" --interface sysfs scheme goal 0 0 current 1
		assert_failure 1
		assert_output --regexp "quota goals .*\\(Linux 6.8\\+\\), which this kernel \\(sysfs, Linux"
		echo "# $(uname -r): $output" >&3
		return 0
	fi
	# at most 1 GiB per 100 ms, tuned by a user_input goal of 10000
	run "$DAMOCTL" --interface sysfs scheme set 0 quota size 1G reset 100ms goal user_input 10000 0
	assert_success
	run "$DAMOCTL" --interface sysfs monitor start
	assert_success
	# current 0 of 10000: the kernel doubles the quota every reset, up to 1 GiB
	big() { [ "$(effective)" -ge $((512 << 20)) ]; }
	wait_for 120 big || fail "effective_bytes stayed $(effective) with current 0"
	local e1 e2
	e1=$(effective)
	# 30000 of 10000 (three times the goal): the kernel drops it to its least
	run "$DAMOCTL" --interface sysfs scheme goal 0 0 current 30000
	assert_success
	assert_equal "$(cat "$SYSFS_C/schemes/0/quotas/goals/0/current_value")" 30000
	small() { [ "$(effective)" -lt 4096 ]; }
	wait_for 60 small || fail "effective_bytes stayed $(effective) with current 30000"
	e2=$(effective)
	# and back: 0 again, it grows again
	run "$DAMOCTL" --interface sysfs scheme goal 0 0 current 0
	assert_success
	grown() { [ "$(effective)" -gt "$e2" ]; }
	wait_for 60 grown || fail "effective_bytes stayed $(effective) with current 0 again"
	echo "# $(uname -r): effective_bytes $e1 at current 0, $e2 at 30000, $(effective) at 0 again" >&3
	# a goal the kernel measures takes no value
	run "$DAMOCTL" --interface sysfs scheme set 0 goal some_mem_psi_us 1000
	assert_success
	run "$DAMOCTL" --interface sysfs scheme goal 0 0 current 5
	assert_failure 1
	assert_output --partial "is a some_mem_psi_us goal"
}

@test "scheme set and goal on dbgfs: set works while off, is refused while on as scheme add is, nothing written; goal is refused" {
	need dbgfs
	damoctl_paddr_setup dbgfs
	run "$DAMOCTL" --interface dbgfs scheme add stat
	assert_success
	run "$DAMOCTL" --interface dbgfs scheme set 0 age 1s max
	assert_success
	[ "$(field 5 "$(cat "$DBGFS/schemes")")" = $((1000000 / AGGR_US)) ]
	run "$DAMOCTL" --interface dbgfs monitor start
	assert_success
	local before
	before=$(cat "$DBGFS/schemes" | first_fields 18)
	run "$DAMOCTL" --interface dbgfs scheme set 0 age 2s max
	assert_failure 1
	assert_output --partial "monitoring is on and dbgfs refuses to change schemes while it runs: stop it first"
	assert_output --partial "; nothing was changed"
	[ "$(cat "$DBGFS/schemes" | first_fields 18)" = "$before" ]
	run "$DAMOCTL" --interface dbgfs scheme goal 0 0 current 1
	assert_failure 1
	assert_output "damoctl: scheme goal: scheme 0 goal 0: quota goals need the sysfs interface of Linux 6.8 or later; dbgfs has none (this kernel: Linux $(uname -r)); nothing was changed"
	echo "# $(uname -r): $output" >&3
}
