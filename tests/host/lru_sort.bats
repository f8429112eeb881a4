#!/usr/bin/env bats
# damoctl lru-sort against a fake /sys/module/damon_lru_sort/parameters:
# units as in schemes, only what changes is written, commit_inputs for a
# running module, invalid combinations refused before any write.

load helper
load lru_sort

setup() {
	ROOT="$BATS_TEST_TMPDIR/root"
	mkdir -p "$ROOT"
	make_lru_sort
}

param() { cat "$(LRU)/$1"; }

@test "status: the parameters with units and as files, the stats, the schemes" {
	echo 7 > "$(LRU)/nr_lru_sort_tried_hot_regions"
	echo 28672 > "$(LRU)/bytes_lru_sort_tried_hot_regions"
	echo 3 > "$(LRU)/nr_cold_quota_exceeds"
	run damoctl lru-sort
	assert_success
	assert_line --index 0 "damon_lru_sort: off"
	assert_line --regexp '^hot +50% +hot_thres_access_freq=500$'
	assert_line --regexp '^cold +2m +cold_min_age=120000000$'
	assert_line --regexp '^quota +time 10ms reset 1s +quota_ms=10 quota_reset_interval_ms=1000$'
	assert_line --regexp '^wmarks +5s 20% 15% 5% +wmarks_interval=5000000 wmarks_high=200 wmarks_mid=150 wmarks_low=50$'
	assert_line --regexp '^region +0 0 \(biggest System RAM\) +monitor_region_start=0 monitor_region_end=0$'
	assert_line --regexp '^hot +lru_prio +7 +28672 +0 +0 +0$'
	assert_line --regexp '^cold +lru_deprio +0 +0 +0 +0 +3$'
	# 50% of 20 samples; 120 s of 100 ms; half of the 10 ms quota each
	assert_line "  lru_prio sz 4K max access 10 max age 0 max quota time 5ms size 0 reset 1s weights 0 1 0 wmarks free_mem_rate 5s 200 150 50"
	assert_line "  lru_deprio sz 4K max access 0 0 age 1200 max quota time 5ms size 0 reset 1s weights 0 1 0 wmarks free_mem_rate 5s 200 150 50"
	lru_sort_on
	run damoctl lru-sort status
	assert_line --index 0 "damon_lru_sort: on, kdamond pid 4321"
}

@test "status --json" {
	lru_sort_on
	run damoctl --json lru-sort status
	assert_success
	assert_output --partial '{"enabled":true,"kdamond_pid":4321,"state":"running","parameters":{"hot_thres_access_freq":500,"cold_min_age":120000000,'
	assert_output --partial '"keywords":"hot 50% cold 2m quota time 10ms reset 1s wmarks 5s 20% 15% 5% sample 5ms aggr 100ms regions 10 1000 region 0x0 0x0"'
	assert_output --partial '"action":"lru_deprio"'
	python3 -c 'import json,sys; d = json.load(sys.stdin); assert len(d["schemes"]) == 2' <<<"$output"
}

@test "the module's hot scheme is scheme add lru_prio with its watermarks" {
	run damoctl lru-sort
	local line
	line=$(sed -n 's/^  \(lru_prio .*\)$/\1/p' <<<"$output")
	run "$DAMOCTL" scheme encode $line
	assert_success
	local module=$output
	run "$DAMOCTL" scheme encode lru_prio wmarks free_mem_rate 5s 200 150 50
	assert_output "$module"
}

@test "set: units as in schemes, only the changed files written, no commit when off" {
	run damoctl --dry-run lru-sort set hot 30% cold 30s quota time 20ms reset 2s \
		wmarks 1s 50% 40% 10% sample 10ms aggr 200ms regions 20 2000 region 4G 8G
	assert_success
	refute_output --partial commit_inputs
	run damoctl lru-sort set hot 30% cold 30s quota time 20ms reset 2s \
		wmarks 1s 50% 40% 10% sample 10ms aggr 200ms regions 20 2000 region 4G 8G
	assert_success
	assert_output ""
	[ "$(param hot_thres_access_freq)" = 300 ]
	[ "$(param cold_min_age)" = 30000000 ]
	[ "$(param quota_ms)" = 20 ]
	[ "$(param quota_reset_interval_ms)" = 2000 ]
	[ "$(param wmarks_interval)" = 1000000 ]
	[ "$(param wmarks_high) $(param wmarks_mid) $(param wmarks_low)" = "500 400 100" ]
	[ "$(param sample_interval) $(param aggr_interval)" = "10000 200000" ]
	[ "$(param min_nr_regions) $(param max_nr_regions)" = "20 2000" ]
	[ "$(param monitor_region_start) $(param monitor_region_end)" = "4294967296 8589934592" ]
	[ "$(param commit_inputs)" = N ]
	[ "$(param enabled)" = N ]
}

@test "set: bare numbers are the kernel's units; 12.5% and 0x addresses" {
	run damoctl lru-sort set hot 125 cold 1000000 wmarks 2000000 300 200 100 \
		region 0x1000 0x2000
	assert_success
	[ "$(param hot_thres_access_freq)" = 125 ]
	[ "$(param cold_min_age)" = 1000000 ]
	[ "$(param wmarks_interval) $(param wmarks_high)" = "2000000 300" ]
	[ "$(param monitor_region_start) $(param monitor_region_end)" = "4096 8192" ]
	run damoctl lru-sort set hot 12.5%
	assert_success
	run damoctl --json lru-sort
	assert_output --partial '"keywords":"hot 12.5% cold 1s'
}

@test "set on a running module: the changed files, then commit_inputs" {
	lru_sort_on
	run damoctl --dry-run lru-sort set hot 40% quota time 10ms
	assert_success
	assert_output --partial "# damoctl lru-sort set hot 40% quota time 10ms (damon_lru_sort)
echo 400 > $ROOT/sys/module/damon_lru_sort/parameters/hot_thres_access_freq
echo Y > $ROOT/sys/module/damon_lru_sort/parameters/commit_inputs"
	run damoctl lru-sort set hot 40%
	assert_success
	[ "$(param hot_thres_access_freq)" = 400 ]
	[ "$(param commit_inputs)" = Y ]
}

@test "nothing to change: nothing written, no commit" {
	lru_sort_on
	run damoctl --dry-run lru-sort set hot 50% cold 2m
	assert_success
	assert_output ""
}

@test "invalid combinations are refused before anything is written" {
	lru_sort_on
	local before
	before=$(tree_sum)
	run damoctl lru-sort set wmarks 5s 10% 15% 5%
	assert_failure 2
	assert_output "damoctl: lru-sort set: wmarks: high 10% >= mid 15% >= low 5% does not hold; nothing was written"
	run damoctl lru-sort set regions 100 10
	assert_failure 2
	assert_output "damoctl: lru-sort set: min regions 100 > max regions 10; nothing was written"
	run damoctl lru-sort set regions 2 10
	assert_failure 2
	run damoctl lru-sort set sample 100ms aggr 5ms
	assert_failure 2
	assert_output "damoctl: lru-sort set: aggr 5ms < sample 100ms; nothing was written"
	# against what the module holds: aggr 100ms
	run damoctl lru-sort set sample 200ms
	assert_failure 2
	run damoctl lru-sort set hot 120%
	assert_failure 2
	assert_output "damoctl: lru-sort set: hot 120% is more than 100%; nothing was written"
	run damoctl lru-sort set wmarks 5s 1500 40% 10%
	assert_failure 2
	assert_output "damoctl: lru-sort set: wmarks: high 150% is more than 100%; nothing was written"
	run damoctl lru-sort set region 8G 4G
	assert_failure 2
	assert_output --partial "region: 0x200000000 0x100000000 is empty"
	run damoctl lru-sort set quota time 1ms
	assert_failure 2
	assert_output --partial "halved to 0"
	run damoctl lru-sort enable wmarks 5s 101% 50% 10%
	assert_failure 2
	run damoctl lru-sort set cold 1000000h
	assert_failure 2
	[ "$(tree_sum)" = "$before" ]
}

@test "bad keywords and values name what is wrong" {
	run damoctl lru-sort set frob 1
	assert_failure 2
	assert_output "damoctl: lru-sort set: unknown keyword 'frob' (expected hot cold quota wmarks sample aggr regions region)"
	run damoctl lru-sort set hot 5x
	assert_failure 2
	assert_output --partial "hot: '5x' is not a rate"
	run damoctl lru-sort set cold 5x
	assert_failure 2
	assert_output --partial "cold: "
	run damoctl lru-sort set hot 10% hot 20%
	assert_failure 2
	assert_output "damoctl: lru-sort set: hot given twice"
	run damoctl lru-sort set wmarks 5s 20%
	assert_failure 2
	assert_output "damoctl: lru-sort set: wmarks: expected 4 values"
	run damoctl lru-sort set quota 5ms
	assert_failure 2
	run damoctl lru-sort set quota time 1500us
	assert_failure 2
	assert_output --partial "not a whole number of milliseconds"
	run damoctl lru-sort set region 0x1000 0x-1
	assert_failure 2
	assert_output "damoctl: lru-sort set: region: '0x-1' is not an address (0xHEX or a size)"
	run damoctl lru-sort set
	assert_failure 2
	run damoctl lru-sort disable now
	assert_failure 2
	assert_output "damoctl: lru-sort disable: no arguments expected, got 'now'"
}

@test "enable writes the parameters first and enabled last; disable writes N first" {
	run damoctl --dry-run lru-sort enable hot 30%
	assert_success
	assert_output --partial "echo 300 > $ROOT/sys/module/damon_lru_sort/parameters/hot_thres_access_freq
echo Y > $ROOT/sys/module/damon_lru_sort/parameters/enabled"
	run damoctl lru-sort enable
	assert_success
	[ "$(param enabled)" = Y ]
	lru_sort_on
	run damoctl --dry-run lru-sort enable
	assert_output ""
	run damoctl lru-sort disable
	assert_success
	[ "$(param enabled)" = N ]
	run damoctl --dry-run lru-sort disable
	assert_output ""
}

@test "enable is refused while another DAMON user runs (6.1 runs one at a time)" {
	make_dbgfs
	echo on > "$ROOT/sys/kernel/debug/damon/monitor_on"
	run damoctl lru-sort enable
	assert_failure 1
	assert_output --partial "dbgfs monitoring is on, and damon_lru_sort does not start next to another DAMON user"
	[ "$(param enabled)" = N ]
	echo off > "$ROOT/sys/kernel/debug/damon/monitor_on"
	make_sysfs on 0
	run damoctl lru-sort enable hot 10%
	assert_failure 1
	assert_output --partial "a sysfs kdamond is on ($ROOT/sys/kernel/mm/damon/admin/kdamonds/0/state)"
	[ "$(param enabled)" = N ]
	[ "$(param hot_thres_access_freq)" = 500 ]
	echo off > "$ROOT/sys/kernel/mm/damon/admin/kdamonds/0/state"
	put "$ROOT/sys/module/damon_reclaim/parameters/enabled" Y
	run damoctl lru-sort enable
	assert_failure 1
	assert_output "damoctl: lru-sort enable: damon_reclaim is on, and damon_lru_sort does not start next to another DAMON user: stop it first (damoctl reclaim disable)"
	[ "$(param enabled)" = N ]
}

@test "no damon_lru_sort in the kernel: status 1, the directory named" {
	rm -rf "$ROOT/sys/module"
	run damoctl lru-sort status
	assert_failure 1
	assert_output "damoctl: lru-sort status: damon_lru_sort is not in this kernel: $ROOT/sys/module/damon_lru_sort/parameters does not exist"
}

@test "status --watch --count: the table again and again" {
	run damoctl lru-sort status --watch 10ms --count 3
	assert_success
	[ "$(grep -c '^damon_lru_sort: off' <<<"$output")" = 3 ]
	run damoctl lru-sort --watch 10ms --count 2
	assert_success
	[ "$(grep -c '^damon_lru_sort: off' <<<"$output")" = 2 ]
	run damoctl --json lru-sort status --watch 10ms --count 2
	[ "${#lines[@]}" = 2 ]
	run damoctl lru-sort status --watch 1ms
	assert_failure 2
	run damoctl lru-sort status --count 2
	assert_failure 2
	assert_output "damoctl: lru-sort status: --count needs --watch"
}

@test "--kdamond and --context name another DAMON: refused, nothing written" {
	local before
	before=$(cd "$(LRU)" && grep -r . | sort)
	run damoctl --kdamond 1 lru-sort set hot 40%
	assert_failure 2
	assert_output "damoctl: lru-sort set: --kdamond 1: damon_lru_sort runs its own kdamond; lru-sort takes no --kdamond"
	run damoctl --context ctx1 lru-sort enable
	assert_failure 2
	assert_output --partial "--context ctx1: damon_lru_sort is not a dbgfs context"
	assert_equal "$(cd "$(LRU)" && grep -r . | sort)" "$before"
	# status too: its numbers are not kdamond 1's
	run damoctl --kdamond 1 lru-sort status
	assert_failure 2
}
