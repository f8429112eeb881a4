#!/usr/bin/env bats
# All or nothing on the kernel's files (issue 28): a damoctl command that
# fails in the middle of its writes leaves every file of the kdamond as it
# was before the command, and a running kdamond runs the schemes it ran.
# The host sweep (tests/host/transactions.bats) fails every write in turn
# on a fake tree; here the refusals are the kernel's own.
#
# A running kdamond takes new files by "commit", which Linux 6.1 and 6.12
# apply in the kdamond's thread after the write returned 0: a refusal
# stops the kdamond and tells no one (seen on each kernel below by the
# last test).  So damoctl checks what the kernel would refuse before it
# writes "commit" (lib/sysfs_commit.c), and reads the state after it.
#
# strace (-y: each write with the file it went to) shows that damoctl had
# written the new scheme and wrote the old count back, so a command that
# failed before writing anything cannot pass these tests.

load helpers/common

setup() {
	damon_off
	log_mark
	need sysfs paddr
	TRACE=$BATS_TEST_TMPDIR/strace
}

teardown() {
	damon_off
	assert_kernel_log_clean
}

SCHEMES=$SYSFS_C/schemes

# Another tool's kdamond: one stat scheme (every region; a quota reset
# interval and weights, but no limit), running.
foreign_running() {
	sysfs_paddr_setup
	echo 1 > "$SCHEMES/nr_schemes"
	echo stat > "$SCHEMES/0/action"
	# a new sysfs scheme's ranges are 0..0: it would match no region
	echo 18446744073709551615 > "$SCHEMES/0/access_pattern/sz/max"
	echo 4294967295 > "$SCHEMES/0/access_pattern/nr_accesses/max"
	echo 4294967295 > "$SCHEMES/0/access_pattern/age/max"
	echo 500 > "$SCHEMES/0/quotas/reset_interval_ms"
	echo 7 > "$SCHEMES/0/quotas/weights/sz_permil"
	echo on > "$SYSFS_K/state"
	assert_equal "$(cat "$SYSFS_K/state")" on
	PID=$(cat "$SYSFS_K/pid")
	# it works before damoctl runs
	wait_for 60 eval '[ "$(nr_tried)" -gt 0 ]' ||
		fail "the foreign scheme tried no region in 60 s"
}

# Every file of kdamond 0 damoctl could write, "path:value", without what
# the kernel changes by itself (state, pid, stats, tried regions, the
# effective quota, a goal's current value).
kdamond_files() {
	(cd "$SYSFS_K" && grep -r . --exclude=state --exclude=pid \
		--exclude-dir=stats --exclude-dir=tried_regions \
		--exclude=effective_bytes --exclude=current_value \
		2>/dev/null | sort)
}

# nr_tried of the running scheme 0, as the kernel counts it now
nr_tried() {
	echo update_schemes_stats > "$SYSFS_K/state"
	cat "$SCHEMES/0/stats/nr_tried"
}

# the failed command wrote the new scheme, did not write "commit", and
# wrote the scheme count back
assert_restored_before_commit() {
	grep -q "nr_schemes>, \"2" "$TRACE" ||
		fail "damoctl never wrote nr_schemes 2: $(grep -c write "$TRACE") writes"
	if grep -q "state>, \"commit" "$TRACE"; then
		fail "commit was written"
	fi
	grep "nr_schemes>, " "$TRACE" | tail -1 | grep -q "nr_schemes>, \"1" ||
		fail "nr_schemes was not put back to 1"
}

# the running kdamond is the same and still applies its one scheme
assert_kdamond_unchanged() {
	local before after
	assert_equal "$(cat "$SYSFS_K/state")" on
	assert_equal "$(cat "$SYSFS_K/pid")" "$PID"
	assert_equal "$(cat "$SCHEMES/nr_schemes")" 1
	before=$(nr_tried)
	wait_for 60 eval '[ "$(nr_tried)" -gt "$before" ]' ||
		fail "scheme 0's nr_tried stayed at $before"
	after=$(nr_tried)
	echo "# scheme 0 nr_tried $before then $after"
}

@test "transactions: scheme add on a kdamond whose commit the kernel would refuse (another tool staged min_nr_regions 1) fails before the commit; every file as it was, the kdamond runs on" {
	foreign_running
	# staged, not committed: the kernel refuses it at the next commit
	# (damon_set_attrs: fewer than 3 regions)
	echo 1 > "$SYSFS_C/monitoring_attrs/nr_regions/min"
	local before
	before=$(kdamond_files)

	run strace -f -y -s 64 -e trace=write -o "$TRACE" \
		"$DAMOCTL" --interface sysfs scheme add lru_prio
	echo "$output"
	assert_failure 1
	assert_output --partial "monitoring_attrs/nr_regions/min is 1, below 3: the kernel would refuse the commit"
	assert_restored_before_commit

	assert_equal "$(kdamond_files)" "$before"
	assert_kdamond_unchanged

	# the same command succeeds once the staged value is a valid one
	echo 10 > "$SYSFS_C/monitoring_attrs/nr_regions/min"
	run "$DAMOCTL" --interface sysfs scheme add lru_prio
	assert_success
	assert_equal "$(cat "$SCHEMES/nr_schemes")" 2
	assert_equal "$(cat "$SCHEMES/1/action")" lru_prio
}

@test "transactions: scheme add with a filter on a cgroup that does not exist fails before the commit the kernel would refuse; every file as it was, the kdamond runs on" {
	# filters came in 6.3; the kernel resolves a memcg path at commit
	# (damon_sysfs_memcg_path_to_id: -EINVAL when no cgroup has it, and
	# always without CONFIG_MEMCG)
	kernel_at_least 6.3 ||
		skip "kernel lacks: scheme filters (DAMON sysfs of 6.3 and later; this is $(uname -r))"
	foreign_running
	local before
	before=$(kdamond_files)

	run strace -f -y -s 64 -e trace=write -o "$TRACE" \
		"$DAMOCTL" --interface sysfs scheme add lru_prio filter memcg /no-such-cgroup
	echo "$output"
	assert_failure 1
	assert_output --partial "memcg_path is '/no-such-cgroup', which is no cgroup with a memory controller"
	assert_restored_before_commit

	assert_equal "$(kdamond_files)" "$before"
	assert_kdamond_unchanged
}

@test "transactions: a commit that stops the kdamond (a monitored process exited) is found: the files put back, the failed restart said, exit 3" {
	# what no file tells: the kernel finds the pid gone only on the commit
	sleep 600 & local p1=$!
	sleep 600 & local p2=$!
	echo 1 > "$SYSFS/kdamonds/nr_kdamonds"
	echo 1 > "$SYSFS_K/contexts/nr_contexts"
	echo vaddr > "$SYSFS_C/operations"
	echo 2 > "$SYSFS_C/targets/nr_targets"
	echo "$p1" > "$SYSFS_C/targets/0/pid_target"
	echo "$p2" > "$SYSFS_C/targets/1/pid_target"
	echo 1 > "$SCHEMES/nr_schemes"
	echo stat > "$SCHEMES/0/action"
	echo on > "$SYSFS_K/state"
	assert_equal "$(cat "$SYSFS_K/state")" on
	kill "$p2"
	wait "$p2" || true
	# the kdamond runs on while one of its processes lives
	sleep 1
	assert_equal "$(cat "$SYSFS_K/state")" on
	local before
	before=$(kdamond_files)

	run strace -f -y -s 64 -e trace=write -o "$TRACE" \
		"$DAMOCTL" --interface sysfs scheme add stat
	# read before p1 ends: with no live target a vaddr kdamond stops itself
	local state
	state=$(cat "$SYSFS_K/state")
	kill "$p1" || true
	echo "$output"
	grep -q "state>, \"commit" "$TRACE" || fail "commit was not written"
	assert_equal "$(kdamond_files)" "$before"
	case ${SERIES_APPLIED:-0}:${KVER:-} in
	0:*)
		# stock: "commit" returns 0 and the kdamond stops
		assert_failure 3
		assert_output --partial 'kdamonds/0/state: the kernel stopped the kdamond on "commit": it refused the files'
		assert_output --partial "the files were put back as they were, but the kdamond could not be started again on them"
		assert_equal "$state" off ;;
	*:6.1)
		# the series' 6.1: "commit" fails, and the kdamond still stops
		assert_failure 3
		assert_output --partial "kdamonds/0/state: Invalid argument; the kernel stopped the kdamond on it"
		assert_output --partial "the files were put back as they were, but the kdamond could not be started again on them"
		assert_equal "$state" off ;;
	*)
		# the series' 6.12: "commit" fails, and the kdamond runs on
		assert_failure 1
		assert_output --partial "kdamonds/0/state: Invalid argument"
		refute_output --partial "stopped"
		assert_equal "$state" on ;;
	esac
}

@test "the kernel: a 'commit' of files it refuses (min_nr_regions 1): stock returns 0 and stops the kdamond; the series returns EINVAL, and on 6.12 keeps it running" {
	foreign_running
	local pid
	pid=$(cat "$SYSFS_K/pid")
	echo 1 > "$SYSFS_C/monitoring_attrs/nr_regions/min"
	run bash -c 'echo commit > "$1"' _ "$SYSFS_K/state"
	echo "$output"
	case ${SERIES_APPLIED:-0}:${KVER:-} in
	0:*)
		assert_success
		wait_for 10 eval '[ "$(cat "$SYSFS_K/state")" = off ]' ||
			fail "stock: the kdamond did not stop" ;;
	*:6.1)
		assert_failure
		assert_output --partial "Invalid argument"
		assert_equal "$(cat "$SYSFS_K/state")" off ;;
	*)
		assert_failure
		assert_output --partial "Invalid argument"
		assert_equal "$(cat "$SYSFS_K/state")" on
		assert_equal "$(cat "$SYSFS_K/pid")" "$pid"
		# and it still applies its scheme
		local n
		n=$(nr_tried)
		wait_for 60 eval '[ "$(nr_tried)" -gt '"$n"' ]' ||
			fail "the scheme tried no more regions after the refused commit" ;;
	esac
}

# Issue 41: what an operator and the OOM killer do, on the kernel's own
# files.  strace delivers the signal at the write of the new scheme's
# action (-P: only writes to that file), after nr_schemes made the
# directory and before the commit: the middle of the rewrite.
@test "signals: SIGTERM in the middle of a scheme add on a running kdamond is held: the add ends, exit 143 with a message, the kdamond runs on" {
	foreign_running
	run strace -f -qq -o /dev/null -P "$SCHEMES/1/action" \
		-e trace=write -e inject=write:signal=TERM:when=1 \
		"$DAMOCTL" --interface sysfs scheme add lru_prio
	echo "$output"
	assert_failure 143
	assert_output --partial "SIGTERM came while writing: held until the change was made; stopping"
	assert_equal "$(cat "$SYSFS_K/state")" on
	assert_equal "$(cat "$SYSFS_K/pid")" "$PID"
	assert_equal "$(cat "$SCHEMES/nr_schemes")" 2
	assert_equal "$(cat "$SCHEMES/1/action")" lru_prio
	[ ! -e /run/damos/journal ] || fail "the journal is left"
}

@test "signals: SIGKILL in the middle of a scheme add on a running kdamond; the next damoctl puts the files back from the journal, the kdamond runs on" {
	foreign_running
	local before
	before=$(kdamond_files)
	run strace -f -qq -o /dev/null -P "$SCHEMES/1/action" \
		-e trace=write -e inject=write:signal=KILL:when=1 \
		"$DAMOCTL" --interface sysfs scheme add lru_prio
	assert_failure 137
	[ -e /run/damos/journal ] || fail "no journal after the kill"
	# killed half-way: two schemes staged, the second never filled in
	assert_equal "$(cat "$SCHEMES/nr_schemes")" 2
	run "$DAMOCTL" --interface sysfs scheme list
	echo "$output"
	assert_success
	assert_output --regexp "^damoctl: pid [0-9]+ \\(.*damoctl --interface sysfs scheme add lru_prio\\) died in the middle of a change: its files are put back as they were before it"
	[ ! -e /run/damos/journal ] || fail "the journal is left"
	assert_equal "$(kdamond_files)" "$before"
	assert_kdamond_unchanged
}
