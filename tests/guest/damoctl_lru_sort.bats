#!/usr/bin/env bats
# damoctl lru-sort on the real damon_lru_sort: units, commit_inputs taken
# by the running module, invalid combinations refused before any write,
# and no start next to another DAMON user.

load helpers/common

P=$LRU_SORT

setup() {
	damon_off
	log_mark
	need lru_sort
	# the module keeps its inputs across tests: start from its defaults
	"$DAMOCTL" lru-sort set hot 50% cold 2m quota time 10ms reset 1s \
		wmarks 5s 20% 15% 5% sample 5ms aggr 100ms regions 10 1000 region 0 0
}

teardown() {
	stop_workload
	damon_off
	assert_kernel_log_clean
}

running() { [ "$(cat "$P/kdamond_pid")" -gt 0 ] 2>/dev/null; }
stopped() { [ "$(cat "$P/kdamond_pid")" = -1 ]; }
committed() { [ "$(cat "$P/commit_inputs")" = N ]; }

@test "damoctl lru-sort: status reads the module's parameters in schemes' units" {
	runs_on_debian_612 sysfs
	run "$DAMOCTL" lru-sort status
	assert_success
	assert_line --index 0 "damon_lru_sort: off"
	assert_line --regexp '^hot +50% +hot_thres_access_freq=500$'
	assert_line --regexp '^wmarks +5s 20% 15% 5% '
	assert_line "  lru_prio sz 4K max access 10 max age 0 max quota time 5ms size 0 reset 1s weights 0 1 0 wmarks free_mem_rate 5s 200 150 50"
}

@test "damoctl lru-sort enable/set/disable: the kdamond starts, takes commit_inputs, stops" {
	runs_on_debian_612 sysfs
	run "$DAMOCTL" lru-sort enable hot 30% cold 10s
	assert_success
	wait_for 10 running || fail "kdamond_pid stayed $(cat "$P/kdamond_pid")"
	local pid
	pid=$(cat "$P/kdamond_pid")
	assert_equal "$(cat "$P/hot_thres_access_freq")" 300
	run "$DAMOCTL" lru-sort status
	assert_line --index 0 "damon_lru_sort: on, kdamond pid $pid"
	run "$DAMOCTL" lru-sort set hot 40% quota time 20ms
	assert_success
	wait_for 30 committed || fail "commit_inputs stayed $(cat "$P/commit_inputs")"
	assert_equal "$(cat "$P/kdamond_pid")" "$pid"
	assert_equal "$(cat "$P/hot_thres_access_freq")" 400
	assert_equal "$(cat "$P/quota_ms")" 20
	run "$DAMOCTL" lru-sort disable
	assert_success
	wait_for 10 stopped || fail "kdamond_pid stayed $(cat "$P/kdamond_pid")"
}

@test "damoctl lru-sort: an invalid combination is refused and the running module keeps going" {
	runs_on_debian_612 sysfs
	"$DAMOCTL" lru-sort enable
	wait_for 10 running
	local pid
	pid=$(cat "$P/kdamond_pid")
	# min_nr_regions < 3 would make the kernel stop the module at commit
	run "$DAMOCTL" lru-sort set regions 2 1000
	assert_failure 2
	run "$DAMOCTL" lru-sort set wmarks 5s 10% 15% 5%
	assert_failure 2
	run "$DAMOCTL" lru-sort set sample 200ms
	assert_failure 2
	assert_equal "$(cat "$P/min_nr_regions") $(cat "$P/wmarks_high") $(cat "$P/sample_interval")" "10 200 5000"
	assert_equal "$(cat "$P/commit_inputs")" N
	sleep 2
	assert_equal "$(cat "$P/kdamond_pid")" "$pid"
}

@test "damoctl lru-sort enable: refused while sysfs or dbgfs monitoring runs" {
	need sysfs paddr
	sysfs_paddr_setup
	echo on > "$SYSFS_K/state"
	run "$DAMOCTL" lru-sort enable
	assert_failure 1
	assert_output --partial "does not start next to another DAMON user"
	assert_equal "$(cat "$P/enabled")" N
	echo off > "$SYSFS_K/state"
	wait_for 10 no_kdamond
	kconfig DAMON_DBGFS || return 0	# no dbgfs in this kernel
	dbgfs_paddr_setup
	echo on > "$DBGFS_ON"
	run "$DAMOCTL" lru-sort enable
	assert_failure 1
	assert_output --partial "dbgfs monitoring is on"
	echo off > "$DBGFS_ON"
}

# The other way round: a start next to the running module is refused by
# damon_setup_apply() before any write (the kernel would say EBUSY only at
# the start, after the setup was written); a batch that turns the module
# off first starts.
@test "damoctl monitor start: refused while damon_lru_sort runs, nothing written; after lru-sort disable in the batch it starts" {
	runs_on_debian_612 sysfs
	need sysfs paddr
	"$DAMOCTL" target set paddr
	"$DAMOCTL" scheme add stat
	"$DAMOCTL" lru-sort enable
	wait_for 10 running
	local before
	before=$(grep -r . "$SYSFS/kdamonds" 2>/dev/null | sort)
	run "$DAMOCTL" monitor start
	assert_failure 1
	assert_output --partial "damon_lru_sort is on, and sysfs monitoring does not start next to another DAMON user"
	[ "$(grep -r . "$SYSFS/kdamonds" 2>/dev/null | sort)" = "$before" ] || fail "the sysfs files changed"
	printf '%s\n' "lru-sort disable" "monitor start" > "$BATS_TEST_TMPDIR/b"
	run "$DAMOCTL" -f "$BATS_TEST_TMPDIR/b"
	assert_success
	assert_equal "$(cat "$P/enabled")" N
	assert_equal "$(cat "$SYSFS_K/state")" on
}

@test "damoctl lru-sort under memory pressure: the stats move, status and --watch show them" {
	runs_on_debian_612 sysfs
	echo 5000000 > "$P/cold_min_age"
	start_workload -h 64 -f 100
	"$DAMOCTL" lru-sort enable cold 5s sample "$SAMPLE_US" aggr "$AGGR_US" \
		regions 10 "$LRU_SORT_MAX_REGIONS"
	wait_for 10 running
	sorted() { [ "$(cat "$P/nr_lru_sorted_hot_regions")" -gt 0 ]; }
	wait_for 180 sorted || {
		damon_regions_summary 3
		fail "no hot region sorted"
	}
	run "$DAMOCTL" --json lru-sort status
	assert_success
	assert_output --regexp '"nr_applied":[1-9]'
	run "$DAMOCTL" lru-sort status --watch 100ms --count 2
	assert_success
	[ "$(grep -c '^damon_lru_sort: on' <<<"$output")" = 2 ]
}
