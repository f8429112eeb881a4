#!/usr/bin/env bats
# libdamos paths that the host tests only ever ran against lib/io.c's
# emulator, here against the kernel's own files: the sysfs dry-run script
# of one command and of a -f batch (run by dash and by bash) leaves what the
# real run leaves; vaddr targets on a real process and target clear;
# a second kdamond (--kdamond 1) beside another tool's kdamond 0; a second
# dbgfs context (--context NAME) beside the first.

load helpers/common

setup() {
	damon_off
	log_mark
}

teardown() {
	stop_workload
	damon_off
	[ ! -d "$DBGFS/damos_ctx" ] || echo damos_ctx > "$DBGFS/rm_contexts"
	assert_kernel_log_clean
}

# What the kernel holds for kdamond K (default 0) as damoctl and the files
# say it: every file below the context (the stats and the kdamond's own
# pid and state apart), then damoctl's reading of it.
sysfs_tree() {
	local k=${1:-0}
	(cd "$SYSFS/kdamonds" && grep -r . "$k" --exclude-dir=stats \
		--exclude=pid --exclude=state --exclude=effective_bytes 2>/dev/null | sort)
	"$DAMOCTL" --interface sysfs --kdamond "$k" scheme list
	"$DAMOCTL" --interface sysfs --kdamond "$k" attrs show
	"$DAMOCTL" --interface sysfs --kdamond "$k" target show
}

# dry_vs_real CMD...: CMD's dry-run script, run by dash and by bash on a
# kernel with no kdamond, leaves the tree that CMD itself leaves.
dry_vs_real() {
	local script want sh
	run "$DAMOCTL" --interface sysfs --dry-run "$@"
	assert_success
	script=$output
	[ "$(cat "$SYSFS/kdamonds/nr_kdamonds")" = 0 ] || fail "the dry run wrote nr_kdamonds"
	run "$DAMOCTL" --interface sysfs "$@"
	assert_success
	want=$(sysfs_tree)
	[ -n "$want" ] || fail "no tree after the real run"
	for sh in dash bash; do
		damon_off
		"$sh" -e <<<"$script" || fail "$sh could not run the dry-run script: $script"
		assert_equal "$(sysfs_tree)" "$want"
	done
}

@test "sysfs dry run: one command's script, run by dash and by bash, leaves what the command leaves" {
	runs_on_debian_612 sysfs
	need sysfs
	dry_vs_real scheme add lru_prio
}

@test "sysfs dry run: a -f batch's script, run by dash and by bash, leaves what the batch leaves" {
	runs_on_debian_612 sysfs
	need sysfs paddr
	local range
	range=$(paddr_range)
	printf '%s\n' "attrs set sample 10ms aggr 200ms update 2s regions 20 500" \
		"target set paddr region ${range% *} ${range#* }" \
		"scheme add stat" "scheme add lru_deprio age 5s max quota time 10 reset 1s" \
		"scheme add pageout access 0 0 age 2m max" > "$BATS_TEST_TMPDIR/batch"
	dry_vs_real -f "$BATS_TEST_TMPDIR/batch"
	assert_equal "$(cat "$SYSFS_C/schemes/nr_schemes")" 3
	assert_equal "$(cat "$SYSFS_C/monitoring_attrs/intervals/sample_us")" 10000
}

# vaddr_target IFACE: a vaddr target on the workload's pid, monitored,
# then target clear.
vaddr_target() {
	local iface=$1 pid
	start_workload -h 16 -c 64
	pid=$WORKLOAD_PID
	run "$DAMOCTL" --interface "$iface" target set vaddr pid "$pid"
	assert_success
	run "$DAMOCTL" --interface "$iface" target show
	assert_success
	assert_output --partial "vaddr pid $pid"
	if [ "$iface" = dbgfs ]; then
		assert_equal "$(cat "$DBGFS/target_ids")" "$pid"
	else
		assert_equal "$(cat "$SYSFS_C/operations")" vaddr
		assert_equal "$(cat "$SYSFS_C/targets/nr_targets")" 1
		assert_equal "$(cat "$SYSFS_C/targets/0/pid_target")" "$pid"
	fi
	"$DAMOCTL" --interface "$iface" scheme add stat
	run "$DAMOCTL" --interface "$iface" monitor start
	assert_success
	tried() { "$DAMOCTL" --interface "$iface" --json stats show | grep -q '"nr_tried":[1-9]'; }
	wait_for 60 tried || fail "the stat scheme tried no region of pid $pid"
	run "$DAMOCTL" --interface "$iface" monitor stop
	assert_success
	wait_for 10 no_kdamond
	run "$DAMOCTL" --interface "$iface" target clear
	assert_success
	if [ "$iface" = dbgfs ]; then
		assert_equal "$(cat "$DBGFS/target_ids")" ""
	else
		assert_equal "$(cat "$SYSFS_C/targets/nr_targets")" 0
	fi
	run "$DAMOCTL" --interface "$iface" target show
	refute_output --partial "pid $pid"
}

@test "sysfs: target set vaddr on a running process's pid, monitored, then target clear" {
	runs_on_debian_612 sysfs
	need sysfs
	vaddr_target sysfs
}

@test "dbgfs: target set vaddr on a running process's pid, monitored, then target clear" {
	need dbgfs
	vaddr_target dbgfs
}

@test "sysfs: --kdamond 1 sets, starts and stops kdamond 1; another tool's kdamond 0 is left as it was" {
	runs_on_debian_612 sysfs
	need sysfs paddr
	local range before k1=$SYSFS/kdamonds/1
	range=$(paddr_range)
	# kdamond 0 by plain writes, as another tool makes it (nr_kdamonds
	# first: writing it makes every kdamond directory afresh)
	echo 2 > "$SYSFS/kdamonds/nr_kdamonds"
	echo 1 > "$SYSFS_K/contexts/nr_contexts"
	echo paddr > "$SYSFS_C/operations"
	echo 7000 > "$SYSFS_C/monitoring_attrs/intervals/sample_us"
	echo 1 > "$SYSFS_C/schemes/nr_schemes"
	echo pageout > "$SYSFS_C/schemes/0/action"
	echo 4096 > "$SYSFS_C/schemes/0/access_pattern/sz/min"
	before=$(sysfs_tree 0)
	"$DAMOCTL" --interface sysfs --kdamond 1 attrs set sample 5ms aggr 100ms
	"$DAMOCTL" --interface sysfs --kdamond 1 target set paddr region "${range% *}" "${range#* }"
	run "$DAMOCTL" --interface sysfs --kdamond 1 scheme add stat
	assert_success
	assert_equal "$(cat "$k1/contexts/0/schemes/nr_schemes")" 1
	assert_equal "$(cat "$k1/contexts/0/schemes/0/action")" stat
	run "$DAMOCTL" --interface sysfs --kdamond 1 monitor start
	assert_success
	assert_equal "$(cat "$k1/state")" on
	assert_equal "$(cat "$SYSFS_K/state")" off
	run "$DAMOCTL" --interface sysfs --kdamond 1 monitor status
	assert_success
	assert_output --partial "$(cat "$k1/pid")"
	run "$DAMOCTL" --interface sysfs --kdamond 1 monitor stop
	assert_success
	assert_equal "$(cat "$k1/state")" off
	assert_equal "$(sysfs_tree 0)" "$before"
}

@test "dbgfs: --context NAME writes that context's files; the first context keeps its schemes" {
	need dbgfs
	local ctx=$DBGFS/damos_ctx
	# the kernel documentation's example line, in the first context
	echo "4096 8192 0 5 10 20 2 10 1073741824 1000 0 0 100 1 5000000 600 500 300" > "$DBGFS/schemes"
	local first
	first=$(first_fields 18 < "$DBGFS/schemes")
	[ -n "$first" ] || fail "the first context took no scheme"
	echo damos_ctx > "$DBGFS/mk_contexts"
	[ -d "$ctx" ] || fail "mk_contexts made no $ctx"
	run "$DAMOCTL" --interface dbgfs --context damos_ctx scheme add stat sz 4K max
	assert_success
	assert_equal "$(wc -l < "$ctx/schemes")" 1
	assert_equal "$(field 7 "$(cat "$ctx/schemes")")" 5
	run "$DAMOCTL" --interface dbgfs --context damos_ctx scheme list
	assert_success
	assert_output --partial "stat sz 4K max"
	assert_equal "$(first_fields 18 < "$DBGFS/schemes")" "$first"
	run "$DAMOCTL" --interface dbgfs --context damos_ctx scheme clear
	assert_success
	assert_equal "$(cat "$ctx/schemes")" ""
	assert_equal "$(first_fields 18 < "$DBGFS/schemes")" "$first"
}
