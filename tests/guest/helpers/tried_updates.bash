# tried_updates N REGIONS: the tried regions update of DAMON sysfs on a
# kdamond that is slower than its intervals.  Standalone (no bats), so that
# it can also run by hand on any kernel:
#
#   bash -c '. tests/helpers/tried_updates.bash; tried_updates 10 2000'
#
# Sets up kdamond 0 with one vaddr context on a process with a 256 MiB
# mapping, REGIONS..2*REGIONS regions at 1 ms sampling and 20 ms
# aggregation, and one 'stat' scheme that matches every region (any size,
# access rate and age).  Under TCG a sample of 2,000 regions takes far
# longer than 1 ms, so the kdamond passes its 20 samples of an aggregation
# interval in a multiple of 20 ms of wall clock time.  Then N times
# 'update_schemes_tried_bytes' and once 'update_schemes_tried_regions'; one
# line per update with what it showed and how long the write took.  The
# last line: "tried_updates: N+1 updates, E empty".  As the scheme matches
# every region, an empty update is the kernel ending the update before the
# kdamond applied the scheme once (kernels that time the update out in
# jiffies; the 6.12 series counts the kdamond's own intervals).  Leaves DAMON
# off.
tried_updates() {
	local n=${1:-10} regions=${2:-2000}
	local admin=/sys/kernel/mm/damon/admin
	local k=$admin/kdamonds/0 c s pid i t0 t1 v empty=0 out
	c=$k/contexts/0
	s=$c/schemes/0
	out=$(mktemp)
	python3 -c 'import mmap, sys, time
m = mmap.mmap(-1, 256 << 20)
print("ready", flush=True)
time.sleep(3600)' > "$out" &
	pid=$!
	for i in $(seq 1 100); do
		grep -q ready "$out" && break
		sleep 0.1
	done
	rm -f "$out"
	echo 1 > "$admin/kdamonds/nr_kdamonds"
	echo 1 > "$k/contexts/nr_contexts"
	echo vaddr > "$c/operations"
	echo 1000 > "$c/monitoring_attrs/intervals/sample_us"
	echo 20000 > "$c/monitoring_attrs/intervals/aggr_us"
	echo 1000000 > "$c/monitoring_attrs/intervals/update_us"
	echo $((regions * 2)) > "$c/monitoring_attrs/nr_regions/max"
	echo "$regions" > "$c/monitoring_attrs/nr_regions/min"
	echo 1 > "$c/targets/nr_targets"
	echo "$pid" > "$c/targets/0/pid_target"
	echo 1 > "$c/schemes/nr_schemes"
	echo stat > "$s/action"
	echo 18446744073709551615 > "$s/access_pattern/sz/max"
	echo 4294967295 > "$s/access_pattern/nr_accesses/max"
	echo 4294967295 > "$s/access_pattern/age/max"
	echo on > "$k/state"
	sleep 1
	for i in $(seq 1 "$n"); do
		t0=$(date +%s%N)
		echo update_schemes_tried_bytes > "$k/state"
		t1=$(date +%s%N)
		v=$(cat "$s/tried_regions/total_bytes")
		[ "$v" -gt 0 ] || empty=$((empty + 1))
		echo "update $i: tried bytes $v ($(((t1 - t0) / 1000000)) ms)"
	done
	t0=$(date +%s%N)
	echo update_schemes_tried_regions > "$k/state"
	t1=$(date +%s%N)
	v=$(find "$s/tried_regions" -mindepth 1 -maxdepth 1 -type d | wc -l)
	[ "$v" -gt 0 ] || empty=$((empty + 1))
	echo "update $((n + 1)): tried regions $v ($(((t1 - t0) / 1000000)) ms)"
	echo off > "$k/state"
	echo 0 > "$admin/kdamonds/nr_kdamonds"
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	echo "tried_updates: $((n + 1)) updates, $empty empty"
}
