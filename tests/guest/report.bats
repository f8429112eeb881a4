#!/usr/bin/env bats
# damoctl report access on the real kernel: a workload keeps a 64 MiB
# buffer hot and a 256 MiB one cold (helpers/hotcold, which prints where
# they are); kdamond 0 monitors it (vaddr) with two schemes of the user's.
# The snapshot must show the hot range with the higher access rate and the
# cold one with the higher age, and leave the schemes, the attributes, the
# targets and the kdamond's state as they were.  Sources: tried regions
# (sysfs, 6.2+: a temporary stat scheme) and the damon_aggregated
# tracepoint (a kernel with tracing: Debian's; the project's guest config
# has none).

load helpers/common

setup() {
	need sysfs
	damon_off
	log_mark
}

teardown() {
	stop_workload
	damon_off
	assert_kernel_log_clean
}

# hot_start cold_start from hotcold's "ready ... at HOT COLD" line
workload_ranges() {
	read -r HOT COLD < <(awk '/^ready/ { print $(NF - 1), $NF; exit }' \
		"$BATS_TEST_TMPDIR/hotcold.out")
	[ -n "$HOT" ] && [ -n "$COLD" ] || fail "hotcold printed no addresses"
	HOT=$((HOT)) COLD=$((COLD))
}

setup_kdamond() {
	start_workload -h 64 -c 256
	workload_ranges
	"$DAMOCTL" attrs set sample "${SAMPLE_US}us" aggr "${AGGR_US}us" update 1s regions 10 1000 &&
		"$DAMOCTL" target set vaddr pid "$WORKLOAD_PID" &&
		"$DAMOCTL" scheme add stat access 50% max &&
		"$DAMOCTL" scheme add pageout age 1h max &&
		"$DAMOCTL" monitor start || fail "setting up kdamond 0 failed"
	# regions split and ages grow over some aggregations
	sleep 8
	# A region's age counts the aggregations over which its access rate
	# did not change, so a buffer hot all along ages as the cold one does
	# (one run on Debian's 6.12: hot 36, cold 35).  A pause of the
	# workload changes the hot buffer's rate twice and starts its age
	# again; the cold one keeps its age from the start.
	kill -STOP "$WORKLOAD_PID"
	sleep 2
	kill -CONT "$WORKLOAD_PID"
	sleep 3
}

# What must not change: everything but the statistics.
state_now() {
	"$DAMOCTL" scheme list
	"$DAMOCTL" monitor status | grep -v '^features'
	cat "$SYSFS_K/state" "$SYSFS_K/pid"
}

# check_snapshot JSON: size-weighted access rate and age over each range
check_snapshot() {
	python3 - "$1" "$HOT" $((64 << 20)) "$COLD" $((256 << 20)) <<'PY'
import json, sys
d = json.loads(sys.argv[1])
hot, hsz, cold, csz = map(int, sys.argv[2:])
def weighted(lo, hi):
    b = acc = age = 0
    for r in d["regions"]:
        o = min(hi, r["end"]) - max(lo, r["start"])
        if o > 0:
            b += o
            acc += o * r["nr_accesses"]
            age += o * r["age"]
    return b, acc / max(b, 1), age / max(b, 1)
hb, hacc, hage = weighted(hot, hot + hsz)
cb, cacc, cage = weighted(cold, cold + csz)
print("source %s, %d regions; hot: %d bytes seen, accesses %.2f, age %.1f; cold: %d bytes seen, accesses %.2f, age %.1f"
      % (d["source"], d["nr_regions"], hb, hacc, hage, cb, cacc, cage))
ok = hb >= hsz // 2 and cb >= csz // 2 and hacc > cacc and cage > hage
sys.exit(0 if ok else 1)
PY
}

@test "report access from tried regions: the hot range hotter, the cold one older, the user's setup unchanged" {
	kernel_at_least 6.2 ||
		skip "kernel lacks: tried regions (DAMON sysfs of 6.2 and later; this is $(uname -r))"
	setup_kdamond
	before=$(state_now)
	run "$DAMOCTL" --json report access source tried
	echo "$output" | head -c 2000
	assert_success
	run check_snapshot "$output"
	echo "$output"
	echo "# $output" >&3	# what DAMON saw, in the TAP output
	assert_success
	assert_output --partial "source tried"
	run state_now
	assert_output "$before"
	run "$DAMOCTL" report access sort access
	assert_success
	assert_line --regexp '^total: [0-9]+ regions, .*from tried'
	# the working set: the hot buffer, not the cold one
	run "$DAMOCTL" --json report wss duration 3s source tried
	assert_success
	echo "# wss: $output" >&3
	run python3 -c '
import json, sys
p = {x["percentile"]: x["wss_bytes"] for x in json.loads(sys.argv[1])["percentiles"]}
sys.exit(0 if 16 << 20 <= p[50] < 256 << 20 else 1)' "$output"
	assert_success
	run state_now
	assert_output "$before"
}

@test "report access from the damon_aggregated tracepoint: the same, and no tracing instance left" {
	kconfig FTRACE ||
		skip "kernel lacks: tracing (CONFIG_FTRACE is not set in $(uname -r)): the tracepoint source has nothing to read"
	t=/sys/kernel/tracing
	[ -d "$t/events" ] || mount -t tracefs none "$t"
	[ -d "$t/events/damon/damon_aggregated" ] ||
		fail "CONFIG_FTRACE is set but $t has no damon:damon_aggregated event"
	setup_kdamond
	before=$(state_now)
	run "$DAMOCTL" --json report access source trace
	echo "$output" | head -c 2000
	assert_success
	run check_snapshot "$output"
	echo "$output"
	echo "# $output" >&3	# what DAMON saw, in the TAP output
	assert_success
	assert_output --partial "source trace"
	run state_now
	assert_output "$before"
	run ls "$t/instances"
	refute_output --partial damos-
	run cat "$t/events/damon/damon_aggregated/enable"
	assert_output 0
}

@test "report access on a stopped kdamond: fails and says it needs a running one" {
	"$DAMOCTL" target set paddr && "$DAMOCTL" scheme add stat ||
		fail "setup failed"
	before=$(state_now)
	run "$DAMOCTL" report access
	assert_failure 1
	assert_output "damoctl: report access: monitoring is off: a snapshot needs a running kdamond"
	run state_now
	assert_output "$before"
}
