#!/usr/bin/env bats
# damon_lru_sort (built in) through its module parameters.

load helpers/common

P=$LRU_SORT

setup() {
	damon_off
	log_mark
	need lru_sort
	# the module keeps its inputs across enable/disable (and failed tests):
	# start every test from its defaults
	local kv
	for kv in hot_thres_access_freq=500 cold_min_age=120000000 quota_ms=10 \
		quota_reset_interval_ms=1000 wmarks_interval=5000000 wmarks_high=200 \
		wmarks_mid=150 wmarks_low=50 sample_interval=5000 aggr_interval=100000 \
		min_nr_regions=10 max_nr_regions=1000; do
		echo "${kv#*=}" > "$P/${kv%%=*}"
	done
}

teardown() {
	stop_workload
	damon_off
	assert_kernel_log_clean
}

enabled_with_pid() { [ "$(cat "$P/kdamond_pid")" -gt 0 ] 2>/dev/null; }
disabled() { [ "$(cat "$P/kdamond_pid")" = -1 ]; }
committed() { [ "$(cat "$P/commit_inputs")" = N ]; }

@test "lru_sort: the module's parameters are all there" {
	runs_on_debian_612 sysfs
	local p
	for p in enabled commit_inputs kdamond_pid hot_thres_access_freq cold_min_age \
		quota_ms quota_reset_interval_ms wmarks_interval wmarks_high wmarks_mid wmarks_low \
		sample_interval aggr_interval min_nr_regions max_nr_regions \
		monitor_region_start monitor_region_end \
		nr_lru_sort_tried_hot_regions bytes_lru_sort_tried_hot_regions \
		nr_lru_sorted_hot_regions bytes_lru_sorted_hot_regions nr_hot_quota_exceeds \
		nr_lru_sort_tried_cold_regions bytes_lru_sort_tried_cold_regions \
		nr_lru_sorted_cold_regions bytes_lru_sorted_cold_regions nr_cold_quota_exceeds; do
		assert_file_exists "$P/$p"
	done
	assert_equal "$(cat "$P/enabled")" N
	assert_equal "$(cat "$P/kdamond_pid")" -1
}

@test "lru_sort: enable starts a kdamond and sets kdamond_pid; disable stops it" {
	runs_on_debian_612 sysfs
	echo Y > "$P/enabled"
	wait_for 10 enabled_with_pid || fail "kdamond_pid stayed $(cat "$P/kdamond_pid")"
	local pid
	pid=$(cat "$P/kdamond_pid")
	assert_equal "$(cat "/proc/$pid/comm")" kdamond.0
	echo N > "$P/enabled"
	wait_for 10 disabled || fail "kdamond_pid stayed $(cat "$P/kdamond_pid")"
	wait_for 10 no_kdamond || fail "kdamond $pid still runs"
	assert_equal "$(cat "$P/enabled")" N
}

@test "lru_sort: commit_inputs applies new parameters online and reads back N" {
	runs_on_debian_612 sysfs
	echo Y > "$P/enabled"
	wait_for 10 enabled_with_pid
	local pid
	pid=$(cat "$P/kdamond_pid")
	echo 300 > "$P/hot_thres_access_freq"
	echo 5000000 > "$P/cold_min_age"
	echo Y > "$P/commit_inputs"
	# the kdamond picks the inputs up at its next check and clears the flag
	wait_for 30 committed || fail "commit_inputs stayed $(cat "$P/commit_inputs")"
	assert_equal "$(cat "$P/enabled")" Y
	assert_equal "$(cat "$P/kdamond_pid")" "$pid"
	assert_equal "$(cat "$P/hot_thres_access_freq")" 300
}

@test "lru_sort: hot and cold regions are sorted under memory pressure" {
	runs_on_debian_612 sysfs
	# damon_lru_sort works only while free memory is between the low (5%) and
	# mid (15%) watermarks: fill memory down to 10% free.
	echo 5000000 > "$P/cold_min_age"	# cold after 5 s, not 120 s
	start_workload -h 64 -f 100
	grep -E '^(MemTotal|MemFree)' /proc/meminfo
	echo "$SAMPLE_US" > "$P/sample_interval"
	echo "$AGGR_US" > "$P/aggr_interval"
	# fewer regions than the module's default: see LRU_SORT_MAX_REGIONS
	echo "$LRU_SORT_MAX_REGIONS" > "$P/max_nr_regions"
	echo Y > "$P/enabled"
	wait_for 10 enabled_with_pid

	sorted() {
		[ "$(cat "$P/nr_lru_sorted_hot_regions")" -gt 0 ] &&
			[ "$(cat "$P/nr_lru_sorted_cold_regions")" -gt 0 ]
	}
	wait_for 180 sorted || {
		grep . "$P"/*lru_sort* "$P"/*sorted* /proc/meminfo
		fail "hot and cold regions were not both sorted"
	}
	grep . "$P"/*lru_sort* "$P"/*sorted*
	# each file is read on its own while the counters grow: read the applied
	# count first, so that the tried count read after it is never behind
	local hot_sorted hot_tried
	hot_sorted=$(cat "$P/nr_lru_sorted_hot_regions")
	hot_tried=$(cat "$P/nr_lru_sort_tried_hot_regions")
	[ "$hot_tried" -ge "$hot_sorted" ]
	[ "$(cat "$P/bytes_lru_sorted_hot_regions")" -gt 0 ]
	[ "$(cat "$P/bytes_lru_sorted_cold_regions")" -gt 0 ]
	# and they keep moving while the pressure lasts
	moved() { [ "$(cat "$P/nr_lru_sort_tried_hot_regions")" -gt "$hot_tried" ]; }
	wait_for 60 moved || {
		# the schemes work only while free memory is between the watermarks
		grep -E '^(MemTotal|MemFree)' /proc/meminfo
		grep . "$P"/*lru_sort* "$P"/*sorted* "$P"/*quota* "$P"/wmarks_*
		# where the kdamond waits: a watermark sleep, or at work
		local k
		k=$(cat "$P/kdamond_pid")
		grep . "/proc/$k/wchan" "/proc/$k/stack" "/proc/$k/stat" 2>/dev/null
		# the regions, and how often the hottest was seen (of
		# aggr_interval / sample_interval samples)
		damon_regions_summary 3
		fail "nr_lru_sort_tried_hot_regions stuck at $hot_tried"
	}

	echo N > "$P/enabled"
	wait_for 10 disabled
	wait_for 10 no_kdamond
}

@test "lru_sort: an invalid committed input disables it cleanly" {
	runs_on_debian_612 sysfs
	echo Y > "$P/enabled"
	wait_for 10 enabled_with_pid
	# min_nr_regions < 3 is invalid for DAMON
	echo 1 > "$P/min_nr_regions"
	echo Y > "$P/commit_inputs"
	wait_for 30 disabled || fail "still running with kdamond_pid $(cat "$P/kdamond_pid")"
	wait_for 10 no_kdamond
}

@test "lru_sort: it refuses to start while another DAMON user runs (EBUSY)" {
	# the other user: dbgfs where the kernel has it, else sysfs
	if kconfig DAMON_DBGFS; then
		dbgfs_paddr_setup
		echo on > "$DBGFS_ON"
	else
		need sysfs
		sysfs_paddr_setup
		echo on > "$SYSFS_K/state"
	fi
	# 6.1 takes the write and then does not start the kdamond; 6.12
	# refuses the write itself with EBUSY
	run bash -c "echo Y > '$P/enabled'"
	[ "$status" -eq 0 ] || assert_output --partial "Device or resource busy"
	sleep 2
	assert_equal "$(cat "$P/kdamond_pid")" -1
	echo N > "$P/enabled"
}
