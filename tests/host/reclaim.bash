# damon_reclaim's module parameters as plain files, for the reclaim suite:
# Linux 6.12's names and defaults (mm/damon/reclaim.c, modules-common.h),
# or 6.1's (make_reclaim 6.1: no skip_anon, quota_mem_pressure_us nor
# quota_autotune_feedback).

RECLAIM_DEFAULTS="enabled=N commit_inputs=N kdamond_pid=-1 min_age=120000000
quota_ms=10 quota_sz=134217728 quota_reset_interval_ms=1000
wmarks_interval=5000000 wmarks_high=500 wmarks_mid=400 wmarks_low=200
sample_interval=5000 aggr_interval=100000 min_nr_regions=10
max_nr_regions=1000 monitor_region_start=0 monitor_region_end=0
nr_reclaim_tried_regions=0 bytes_reclaim_tried_regions=0
nr_reclaimed_regions=0 bytes_reclaimed_regions=0 nr_quota_exceeds=0"
RECLAIM_612="quota_mem_pressure_us=0 quota_autotune_feedback=0 skip_anon=N"

RECLAIM() { echo "$ROOT/sys/module/damon_reclaim/parameters"; }

make_reclaim() {
	local p kv
	p=$(RECLAIM)
	mkdir -p "$p"
	for kv in $RECLAIM_DEFAULTS $([ "${1:-6.12}" = 6.1 ] || echo "$RECLAIM_612"); do
		echo "${kv#*=}" > "$p/${kv%%=*}"
	done
	put "$ROOT/proc/sys/kernel/osrelease" "${1:-6.12}.0-test"
}

# The module as if running: enabled Y, a kdamond pid.
reclaim_on() {
	echo Y > "$(RECLAIM)/enabled"
	echo 4321 > "$(RECLAIM)/kdamond_pid"
}
