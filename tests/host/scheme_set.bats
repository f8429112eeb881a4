#!/usr/bin/env bats
# Online tuning: damoctl scheme set INDEX KEYWORDS changes the fields
# given of one scheme in place (a running sysfs kdamond takes it by
# commit), and damoctl scheme goal INDEX GOAL current VALUE feeds a
# user_input quota goal (commit_schemes_quota_goals); both transactions,
# both refused with the kernel named where the interface cannot.

load helper
load transactions

CTX=sys/kernel/mm/damon/admin/kdamonds/0/contexts/0

setup() {
	ROOT="$BATS_TEST_TMPDIR/root"
	mkdir -p "$ROOT"
}

teardown() {
	[ -z "${TXN_WORK:-}" ] || rm -rf "$TXN_WORK"
}

f() { cat "$ROOT/$CTX/schemes/$1"; }

# 6.12's tree (txn_make_sysfs612) with scheme 1's goal made a user_input one
make_612() {
	txn_make_sysfs612 "$ROOT" "$1"
	put "$ROOT/$CTX/schemes/1/quotas/goals/0/target_metric" user_input
	put "$ROOT/$CTX/schemes/1/quotas/goals/0/target_value" 10000
}

@test "scheme set: only the fields given change, the others and what damoctl does not model stay" {
	make_612 off
	run damoctl scheme set 0 age 5s max quota size 1G weights 1 2 3
	assert_success
	[ "$(f 0/access_pattern/age/min)" = 50 ]
	[ "$(f 0/quotas/bytes)" = 1073741824 ]
	[ "$(f 0/quotas/weights/sz_permil) $(f 0/quotas/weights/nr_accesses_permil) $(f 0/quotas/weights/age_permil)" = "1 2 3" ]
	# the rest of scheme 0 and scheme 1 as before
	[ "$(f 0/action)" = pageout ]
	[ "$(f 0/target_nid)" = 0 ]
	[ "$(f 0/apply_interval_us)" = 1000000 ]
	[ "$(f 0/filters/nr_filters)" = 2 ]
	[ "$(f 0/filters/1/memcg_path)" = /workload ]
	[ "$(f 0/quotas/goals/0/target_metric)" = some_mem_psi_us ]
	[ "$(f 1/action)" = migrate_cold ]
	[ "$(f 1/quotas/goals/0/target_metric)" = user_input ]
	run damoctl scheme list
	# age in aggregation intervals; a quota without a reset gets 1 s, as in add
	assert_line --index 0 --partial "0: pageout sz 4K 8K access 0 5 age 50 max quota time 0 size 1G reset 1s weights 1 2 3 wmarks none"
}

@test "scheme set on a running kdamond: the files, then commit" {
	make_612 on
	run damoctl --dry-run scheme set 1 action pageout apply_interval 2s
	assert_success
	assert_output --partial "echo pageout > $ROOT/$CTX/schemes/1/action"
	assert_output --partial "echo 2000000 > $ROOT/$CTX/schemes/1/apply_interval_us"
	assert_line --partial "echo commit > $ROOT/sys/kernel/mm/damon/admin/kdamonds/0/state"
	[ "$(echo "$output" | grep -n commit | tail -1 | cut -d: -f1)" -gt "$(echo "$output" | grep -n apply_interval_us | tail -1 | cut -d: -f1)" ]
	run damoctl scheme set 1 action pageout apply_interval 2s
	assert_success
	[ "$(f 1/action) $(f 1/apply_interval_us)" = "pageout 2000000" ]
	[ "$(cat "$ROOT/sys/kernel/mm/damon/admin/kdamonds/0/state")" = on ]
}

@test "scheme set: filter and goal replace the scheme's, none removes them" {
	make_612 off
	run damoctl scheme set 0 filter young filter not addr 1G 2G
	assert_success
	[ "$(f 0/filters/nr_filters)" = 2 ]
	[ "$(f 0/filters/0/type) $(f 0/filters/0/matching)" = "young Y" ]
	[ "$(f 0/filters/1/type) $(f 0/filters/1/matching) $(f 0/filters/1/addr_start) $(f 0/filters/1/addr_end)" = "addr N 1073741824 2147483648" ]
	# the goals stayed
	[ "$(f 0/quotas/goals/nr_goals) $(f 0/quotas/goals/0/target_metric)" = "1 some_mem_psi_us" ]
	run damoctl scheme set 0 filter none goal user_input 500 20
	assert_success
	[ "$(f 0/filters/nr_filters)" = 0 ]
	[ "$(f 0/quotas/goals/0/target_metric) $(f 0/quotas/goals/0/target_value) $(f 0/quotas/goals/0/current_value)" = "user_input 500 20" ]
}

@test "scheme set: bad input names the bad value; nothing is written" {
	make_612 on
	local before
	before=$(tree_sum)
	run damoctl scheme set 0 age 10s 5s
	assert_failure 2
	assert_output "damoctl: scheme set: min age 10s > max age 5s; nothing was written"
	run damoctl scheme set 0 quota size 5Q
	assert_failure 2
	assert_output --partial "'5Q'"
	run damoctl scheme set 0 frob 1
	assert_failure 2
	assert_output "damoctl: scheme set: unknown keyword 'frob' (expected action sz access age quota weights wmarks nid apply_interval filter goal); nothing was written"
	run damoctl scheme set 0 action explode
	assert_failure 2
	assert_output --partial "'explode'"
	run damoctl scheme set 0 access 50 max
	assert_failure 2
	assert_output --partial "min access: 50 is more than the 20 samples"
	run damoctl scheme set x age 1s max
	assert_failure 2
	assert_output "damoctl: scheme set: 'x' is not a scheme index (0, 1, ...: see damoctl scheme list)"
	run damoctl scheme set 7 age 1s max
	assert_failure 1
	assert_output "damoctl: scheme set: no scheme 7 (there are 2)"
	run damoctl scheme set 0
	assert_failure 2
	[ "$(tree_sum)" = "$before" ]
}

@test "scheme set on a running dbgfs: refused as scheme add is, nothing written; stopped, it works" {
	txn_make_dbgfs "$ROOT"
	echo on > "$ROOT/sys/kernel/debug/damon/monitor_on"
	run damoctl scheme set 0 age 1s max
	assert_failure 1
	assert_output "damoctl: scheme set: monitoring is on and dbgfs refuses to change schemes while it runs: stop it first (damoctl monitor stop); nothing was changed"
	echo off > "$ROOT/sys/kernel/debug/damon/monitor_on"
	run damoctl scheme set 0 age 1s max
	assert_success
	run damoctl scheme list
	assert_line --index 0 --partial "age 10 max"
}

@test "scheme goal: a user_input goal's current value, then commit_schemes_quota_goals on a running kdamond" {
	make_612 on
	run damoctl --dry-run scheme goal 1 0 current 7000
	assert_success
	assert_output --partial "echo 7000 > $ROOT/$CTX/schemes/1/quotas/goals/0/current_value
echo commit_schemes_quota_goals > $ROOT/sys/kernel/mm/damon/admin/kdamonds/0/state"
	run damoctl scheme goal 1 0 current 7000
	assert_success
	[ "$(f 1/quotas/goals/0/current_value)" = 7000 ]
	[ "$(f 1/quotas/goals/0/target_value)" = 10000 ]
	# off: the file only
	echo off > "$ROOT/sys/kernel/mm/damon/admin/kdamonds/0/state"
	run damoctl --dry-run scheme goal 1 0 current 8000
	refute_output --partial commit_schemes_quota_goals
}

@test "scheme goal: bad input and goals that take no value are refused, naming them" {
	make_612 on
	local before
	before=$(tree_sum)
	run damoctl scheme goal 0 0 current 5
	assert_failure 1
	assert_output "damoctl: scheme goal: scheme 0 goal 0 is a some_mem_psi_us goal: the kernel measures its current value; only a user_input goal takes one"
	run damoctl scheme goal 1 3 current 5
	assert_failure 1
	assert_output "damoctl: scheme goal: scheme 1 has no goal 3: its goals are 0 to 0"
	run damoctl scheme goal 1 0 current lots
	assert_failure 2
	assert_output "damoctl: scheme goal: current: 'lots' is not a number (the goal's metric, in its own unit)"
	run damoctl scheme goal 1 0 target 5
	assert_failure 2
	assert_output "damoctl: scheme goal: 'target': expected current (scheme goal INDEX GOAL current VALUE)"
	run damoctl scheme goal 1 x current 5
	assert_failure 2
	assert_output "damoctl: scheme goal: 'x' is not a goal index (0, 1, ...: see damoctl scheme list)"
	[ "$(tree_sum)" = "$before" ]
}

@test "scheme goal where there are no quota goals: dbgfs and Linux 6.1's sysfs, the kernel named" {
	txn_make_dbgfs "$ROOT"
	put "$ROOT/proc/sys/kernel/osrelease" 6.1.0-test
	local before
	before=$(tree_sum)
	run damoctl scheme goal 0 0 current 5
	assert_failure 1
	assert_output "damoctl: scheme goal: scheme 0 goal 0: quota goals need the sysfs interface of Linux 6.8 or later; dbgfs has none (this kernel: Linux 6.1.0-test); nothing was changed"
	[ "$(tree_sum)" = "$before" ]
	rm -rf "$ROOT/sys"
	make_sysfs on 1
	put "$ROOT/proc/sys/kernel/osrelease" 6.1.0-test
	run damoctl scheme goal 0 0 current 5
	assert_failure 1
	assert_output --regexp "scheme 0 goal 0 needs .*\(Linux 6.8\+\), which this kernel \(sysfs, Linux 6.1\) lacks"
}

@test "scheme set and scheme goal are transactions: a failure at every write leaves the tree as before or as after" {
	local t
	for t in off on; do
		ROOT=$BATS_TEST_TMPDIR/sysfs-$t
		mkdir -p "$ROOT"
		make_612 $t
	done
	ROOT=$BATS_TEST_TMPDIR/dbgfs
	mkdir -p "$ROOT"
	txn_make_dbgfs "$ROOT"
	txn_setup
	for t in sysfs-off sysfs-on; do
		txn_sweep "$t: scheme set" "$BATS_TEST_TMPDIR/$t" scheme set 0 age 5s max quota size 1G filter young
		txn_sweep "$t: scheme goal" "$BATS_TEST_TMPDIR/$t" scheme goal 1 0 current 7000
	done
	txn_sweep "dbgfs: scheme set" "$BATS_TEST_TMPDIR/dbgfs" scheme set 1 age 5s max
	echo "scheme set/goal: $TXN_CMDS commands, $TXN_RUNS faulted runs, $TXN_HALF half-applied" >&3
	[ "$TXN_HALF" -eq 0 ] || fail "$(head -40 "$TXN_WORK/half")"
	[ "$TXN_CMDS" -eq 5 ]
}
