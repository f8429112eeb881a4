# Shared by report.bats, heatmap.bats and the snapshot benchmark
# (tests/perf/snapshot_bench.sh): a 6.12 sysfs tree whose stat scheme lists
# tried regions, as the kernel would after update_schemes_tried_regions.

# kdamond $1's (default 0) context
CTX() { echo "$ROOT/sys/kernel/mm/damon/admin/kdamonds/${1:-0}/contexts/0"; }

# make_sysfs in 6.12's layout: $1 state, $2 pageout schemes.
make_612() {
	local i s
	make_sysfs "$@"
	put "$ROOT/proc/sys/kernel/osrelease" 6.12.118-amd64
	for ((i = 0; i < ${2:-0}; i++)); do
		s="$(CTX)/schemes/$i"
		put "$s/apply_interval_us" 0
		put "$s/target_nid" -1
		put "$s/quotas/goals/nr_goals" 0
		put "$s/quotas/effective_bytes" 0
		put "$s/filters/nr_filters" 0
		put "$s/tried_regions/total_bytes" 0
	done
}

# Two kdamonds: make_612 $1 $2, and kdamond 1 a copy of kdamond 0.
make_612_two() {
	local k="$ROOT/sys/kernel/mm/damon/admin/kdamonds"
	make_612 "$@"
	cp -a "$k/0" "$k/1"
	put "$k/nr_kdamonds" 2
}

# Scheme $1 of kdamond $2 (default 0) becomes a stat scheme that every
# region passes, with the tried regions "START END NR_ACCESSES AGE" given
# on stdin.
stat_all() {
	local s n=0 a b acc age
	s="$(CTX "${2:-0}")/schemes/$1"
	put "$s/action" stat
	put "$s/access_pattern/sz/min" 0
	put "$s/access_pattern/sz/max" 18446744073709551615
	put "$s/access_pattern/nr_accesses/min" 0
	put "$s/access_pattern/nr_accesses/max" 4294967295
	put "$s/access_pattern/age/min" 0
	put "$s/access_pattern/age/max" 4294967295
	while read -r a b acc age; do
		put "$s/tried_regions/$n/start" "$a"
		put "$s/tried_regions/$n/end" "$b"
		put "$s/tried_regions/$n/nr_accesses" "$acc"
		put "$s/tried_regions/$n/age" "$age"
		n=$((n + 1))
	done
}
