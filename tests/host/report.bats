#!/usr/bin/env bats
# damoctl report access against fake trees: tried regions of a stat scheme
# (sysfs, 6.2+) and the damon:damon_aggregated tracepoint in 6.1's format
# (a fake tracefs "trace" file).  A fake tree lists no tried regions for a
# scheme the snapshot adds (the kernel would); the guest test
# tests/guest/report.bats runs both sources on a real kernel.

load helper
load report

REGIONS="4096 8192 20 3
8192 1056768 0 50
1056768 1060864 10 7"

@test "report access: tried regions of the context's own match-all stat scheme, by address, hottest first, oldest first" {
	make_612 on 2
	stat_all 1 <<<"$REGIONS"
	before=$(tree_sum)
	run damoctl report access
	assert_success
	assert_line --index 0 --regexp '^start +end +size +accesses +rate +age$'
	assert_line --index 1 --regexp '^0x0000000000001000 0x0000000000002000 +4K +20/20 +100% +300ms$'
	assert_line --index 2 --regexp '^0x0000000000002000 0x0000000000102000 +1M +0/20 +0% +5s$'
	assert_line --index 3 --regexp '^0x0000000000102000 0x0000000000103000 +4K +10/20 +50% +700ms$'
	assert_line --index 4 "total: 3 regions, 1.0M; accessed: 2 regions, 8K; from tried, 100ms per aggregation"
	run damoctl report access sort access
	assert_success
	assert_line --index 1 --partial '0x0000000000001000 '
	assert_line --index 2 --partial '0x0000000000102000 '
	assert_line --index 3 --partial '0x0000000000002000 '
	run damoctl report access --sort age
	assert_success
	assert_line --index 1 --partial '0x0000000000002000 '
	# the snapshot asked the kernel to list them, and changed nothing else
	run cat "$ROOT/sys/kernel/mm/damon/admin/kdamonds/0/state"
	assert_output on
	[ "$(tree_sum)" = "$before" ] || fail "the tree changed"
}

@test "report access --json: damo's keys start, end, nr_accesses and age per region, and totals" {
	make_612 on 1
	stat_all 0 <<<"$REGIONS"
	run damoctl --json report access sort access
	assert_success
	run python3 -c '
import json, sys
d = json.loads(sys.argv[1])
assert d["source"] == "tried" and d["max_nr_accesses"] == 20, d
assert d["nr_regions"] == 3 and d["total_bytes"] == 1056768, d
assert d["accessed_bytes"] == 8192, d
r = d["regions"]
print(" ".join("%d-%d:%d:%d:%d" % (x["start"], x["end"], x["nr_accesses"], x["age"], x["access_rate_percent"]) for x in r))
' "$output"
	assert_success
	assert_output "4096-8192:20:3:100 1056768-1060864:10:7:50 8192-1056768:0:50:0"
}

@test "report access adds a temporary stat scheme and puts the user's schemes back as they were" {
	make_612 on 2
	before=$(tree_sum)
	run damoctl report access
	# a fake kernel lists no tried regions for the scheme the snapshot added
	assert_failure 1
	assert_output "damoctl: report access: the kernel listed no tried regions for scheme 2"
	run cat "$(CTX)/schemes/nr_schemes"
	assert_output 2
	[ "$(tree_sum)" = "$before" ] || fail "the tree changed"
}

@test "report access on a stopped kdamond says that a snapshot needs a running one, and writes nothing" {
	make_612 off 1
	before=$(tree_sum)
	run damoctl report access
	assert_failure 1
	assert_output "damoctl: report access: monitoring is off: a snapshot needs a running kdamond"
	[ "$(tree_sum)" = "$before" ] || fail "the tree changed"
}

# A tracefs with the damon events and a trace file in 6.1's format.
make_trace() {	# DIR
	local t="$ROOT/$1"
	put "$t/events/damon/damon_aggregated/enable" 0
	cat > "$t/trace"
}

TRACE='# tracer: nop
#
#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION
#              | |         |   |||||     |         |
      kdamond.0-4242    [001] .....   10.100000: damon_aggregated: target_id=0 nr_regions=2 4096-8192: 1 1
      kdamond.0-4242    [001] .....   10.100001: damon_aggregated: target_id=0 nr_regions=2 8192-16384: 0 1
      kdamond.1-999     [000] .....   10.150000: damon_aggregated: target_id=0 nr_regions=1 0-4096: 20 20
      kdamond.0-4242    [001] .....   10.200000: damon_aggregated: target_id=0 nr_regions=3 4096-8192: 18 2
      kdamond.0-4242    [001] .....   10.200001: damon_aggregated: target_id=0 nr_regions=3 8192-12288: 0 9
      kdamond.0-4242    [001] .....   10.200002: damon_aggregated: target_id=0 nr_regions=3 12288-16384: 4 5
      kdamond.0-4242    [001] .....   10.300000: damon_aggregated: target_id=0 nr_regions=3 4096-8192: 19 3'

@test "report access on 6.1 (no tried regions): the last complete aggregation of this kdamond from the tracepoint, the event's enable put back; the same where command names are not recorded (record-cmd 0: <...>-PID)" {
	local trace nameless=${TRACE//kdamond.[01]/<...>}

	[[ $nameless != *kdamond* && $nameless == *"<...>-4242 "* ]] || fail "no nameless trace"
	make_sysfs on 1
	for trace in "$TRACE" "$nameless"; do
		make_trace sys/kernel/tracing <<<"$trace"
		run damoctl --json report access
		assert_success
		run python3 -c '
import json, sys
d = json.loads(sys.argv[1])
assert d["source"] == "trace", d
print(" ".join("%d-%d:%d:%d" % (x["start"], x["end"], x["nr_accesses"], x["age"]) for x in d["regions"]))
' "$output"
		assert_output "4096-8192:18:2 8192-12288:0:9 12288-16384:4:5"
		run cat "$ROOT/sys/kernel/tracing/events/damon/damon_aggregated/enable"
		assert_output 0
	done
}

@test "report access source trace: tracefs below debugfs, on dbgfs, and on a 6.12 tree when asked" {
	make_dbgfs
	echo on > "$ROOT/sys/kernel/debug/damon/monitor_on"
	echo 4242 > "$ROOT/sys/kernel/debug/damon/kdamond_pid"
	make_trace sys/kernel/debug/tracing <<<"$TRACE"
	run damoctl report access sort access
	assert_success
	assert_line --index 1 --regexp '^0x0000000000001000 0x0000000000002000 +4K +18/20 +90% +200ms$'
	assert_line --index 4 "total: 3 regions, 12K; accessed: 2 regions, 8K; from trace, 100ms per aggregation"
	rm -rf "$ROOT/sys/kernel/debug"
	make_612 on 1
	make_trace sys/kernel/tracing <<<"$TRACE"
	run damoctl report access source trace
	assert_success
	assert_line --index 4 --partial "from trace"
}

@test "report access without a tracepoint or a complete aggregation says so" {
	make_sysfs on 0
	run damoctl report access
	assert_failure 1
	assert_output --partial "no damon:damon_aggregated tracepoint below $ROOT/sys/kernel/tracing"
	make_trace sys/kernel/tracing <<<"${TRACE%%
      kdamond.0-4242    [001] .....   10.200000*}"
	sed -i '/kdamond.0/d' "$ROOT/sys/kernel/tracing/trace"
	run damoctl report access
	assert_failure 1
	assert_output --partial "no complete aggregation of kdamond pid 4242 traced"
	make_612 on 0
	run damoctl report access source tried
	assert_failure 1
	assert_output "damoctl: report access: the kernel listed no tried regions for scheme 0"
}

@test "report access: bad keywords are usage errors" {
	run damoctl report access sort hotness
	assert_failure 2
	assert_output "damoctl: report access: sort: 'hotness' is not one of address, access, age"
	run damoctl report access frob
	assert_failure 2
	run damoctl report access duration 5x
	assert_failure 2
}

@test "report access reads tried regions whose directory numbers have gaps (the kernel counts them across schemes)" {
	make_612 on 1
	stat_all 0 <<<"$REGIONS"
	# 6.2 to 6.12 name them by one counter for all schemes: 0, 2, 10
	mv "$(CTX)/schemes/0/tried_regions/2" "$(CTX)/schemes/0/tried_regions/10"
	mv "$(CTX)/schemes/0/tried_regions/1" "$(CTX)/schemes/0/tried_regions/2"
	run damoctl report access
	assert_success
	assert_line --index 4 "total: 3 regions, 1.0M; accessed: 2 regions, 8K; from tried, 100ms per aggregation"
}

@test "report wss: percentiles of the accessed bytes over the snapshots of a duration" {
	make_612 on 1
	stat_all 0 <<<"$REGIONS"
	run damoctl report wss duration 300ms
	assert_success
	assert_line --index 0 --regexp '^working set of [0-9]+ snapshots over 300ms'
	assert_line --index 1 --regexp '^percentile +wss$'
	assert_line --index 4 --regexp '^50 +8K$'
	run damoctl --json report wss duration 250ms
	assert_success
	run /usr/bin/python3 -c '
import json, sys
d = json.loads(sys.argv[1])
# one snapshot an aggregation interval (100 ms) at most
assert 1 <= d["nr_snapshots"] <= 3, d
print(" ".join("%d:%d" % (p["percentile"], p["wss_bytes"]) for p in d["percentiles"]))
' "$output"
	assert_output "0:8192 25:8192 50:8192 75:8192 90:8192 99:8192 100:8192"
	run damoctl report wss duration 5x
	assert_failure 2
	assert_output "damoctl: report wss: duration: '5x' is not a time (units: us ms s m h; bare: s)"
}

@test "report wss: the distribution of changing working sets, nearest rank" {
	make_612 on 1
	stat_all 0 <<<"$REGIONS"
	# the accessed bytes change while it runs: 8K, then 1M + 8K
	( sleep 0.35; echo 3 > "$(CTX)/schemes/0/tried_regions/1/nr_accesses" ) &
	run damoctl --json report wss duration 700ms
	wait
	assert_success
	run /usr/bin/python3 -c '
import json, sys
d = json.loads(sys.argv[1])
p = {x["percentile"]: x["wss_bytes"] for x in d["percentiles"]}
assert p[0] == 8192 and p[100] == 1048576 + 8192, p
assert sorted(p.values()) == [p[k] for k in sorted(p)], p
print("ok")
' "$output"
	assert_output ok
}
