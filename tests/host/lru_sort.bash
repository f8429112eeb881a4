# damon_lru_sort's module parameters as plain files (Linux 6.1 names and
# defaults, mm/damon/lru_sort.c), for the lru-sort and apply suites.

LRU_SORT_DEFAULTS="enabled=N commit_inputs=N kdamond_pid=-1
hot_thres_access_freq=500 cold_min_age=120000000 quota_ms=10
quota_reset_interval_ms=1000 wmarks_interval=5000000 wmarks_high=200
wmarks_mid=150 wmarks_low=50 sample_interval=5000 aggr_interval=100000
min_nr_regions=10 max_nr_regions=1000 monitor_region_start=0
monitor_region_end=0"

LRU() { echo "$ROOT/sys/module/damon_lru_sort/parameters"; }

make_lru_sort() {
	local p kv h f
	p=$(LRU)
	mkdir -p "$p"
	for kv in $LRU_SORT_DEFAULTS; do
		echo "${kv#*=}" > "$p/${kv%%=*}"
	done
	for h in hot cold; do
		for f in nr_lru_sort_tried_${h}_regions bytes_lru_sort_tried_${h}_regions \
			nr_lru_sorted_${h}_regions bytes_lru_sorted_${h}_regions \
			nr_${h}_quota_exceeds; do
			echo 0 > "$p/$f"
		done
	done
}

# The module as if running: enabled Y, a kdamond pid.
lru_sort_on() {
	echo Y > "$(LRU)/enabled"
	echo 4321 > "$(LRU)/kdamond_pid"
}
