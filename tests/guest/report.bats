#!/usr/bin/env bats
# damoctl report access on the real kernel: a workload keeps a 64 MiB
# buffer hot and a 256 MiB one cold (helpers/hotcold, which prints where
# they are); kdamond 0 monitors it (vaddr) with two schemes of the user's.
# The snapshot must show the hot range with the higher access rate and the
# cold one with the higher age, and leave the schemes, the attributes, the
# targets and the kdamond's state as they were.  Sources: tried regions
# (sysfs, 6.2+: a temporary stat scheme) and the damon_aggregated
# tracepoint (a kernel with tracing: Debian's; the project's guest config
# has none).  report heatmap draws the same over time (its PNG checked from
# its header, its rows from the data gnuplot drew), and the metrics file
# of stats show is read by Prometheus' own parser while a scheme applies.

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

# start_kdamond [SCHEME ADD ARGS...]: kdamond 0 over hotcold with the
# user's two schemes (a third too, if given), just started
start_kdamond() {
	start_workload -h 64 -c 256
	workload_ranges
	"$DAMOCTL" attrs set sample "${SAMPLE_US}us" aggr "${AGGR_US}us" update 1s regions 10 1000 &&
		"$DAMOCTL" target set vaddr pid "$WORKLOAD_PID" &&
		"$DAMOCTL" scheme add stat access 50% max &&
		"$DAMOCTL" scheme add pageout age 1h max &&
		{ [ $# = 0 ] || "$DAMOCTL" scheme add "$@"; } &&
		"$DAMOCTL" monitor start || fail "setting up kdamond 0 failed"
}

# hot_tried N: the stat scheme (access 50% or more) has tried N regions,
# as the kernel's own stats files say (update_schemes_stats: EBUSY while
# the kdamond holds damon_sysfs_lock, then this is just not yet)
hot_tried() {
	local n=0
	echo update_schemes_stats 2>/dev/null > "$SYSFS_K/state" || return 1
	val n "$SYSFS_C/schemes/0/stats/nr_tried"
	[ "${n:-0}" -ge "$1" ]
}

# setup_kdamond [SCHEME ADD ARGS...]: the same, settled for a snapshot
setup_kdamond() {
	start_kdamond "$@"
	# Regions split until the hot buffer has regions of its own, and ages
	# grow.  That takes aggregations, not a time: until the stat scheme
	# has tried 20 regions of 50% access or more (one to four an
	# aggregation, so 5 to 20 aggregations after the first hot one), up
	# to 60 s.  (A fixed 8 s before: about 32 aggregations at 250 ms when
	# the kdamond had the CPU, fewer beside other loads.)
	wait_for 60 hot_tried 20 ||
		fail "the stat scheme tried fewer than 20 regions of 50% access or more in 60 s"
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
	runs_on_debian_612 sysfs
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
	runs_on_debian_612 sysfs
	"$DAMOCTL" target set paddr && "$DAMOCTL" scheme add stat ||
		fail "setup failed"
	before=$(state_now)
	run "$DAMOCTL" report access
	assert_failure 1
	assert_output "damoctl: report access: monitoring is off: a snapshot needs a running kdamond"
	run state_now
	assert_output "$before"
}

# heat_of DATA LO HI: the mean access rate of the data's cells whose
# column starts in [LO, HI) (gnuplot's lines: time, address, rate)
heat_of() {
	awk -v lo="$2" -v hi="$3" '!/^#/ && NF == 3 && $3 != "NaN" &&
		$2 >= lo && $2 < hi { s += $3; n++ }
		END { if (n) printf "%.2f %d\n", s / n, n; else print "none 0" }' "$1"
}

@test "report heatmap: the rows over the hot range hotter than over the cold one, a PNG of the size asked for, the terminal's within 80 columns" {
	runs_on_debian_612 snapshots
	kernel_at_least 6.2 || kconfig FTRACE ||
		skip "kernel lacks: tried regions (6.2+) and tracing (CONFIG_FTRACE is not set in $(uname -r)): report access has no source"
	t=/sys/kernel/tracing
	kconfig FTRACE && { [ -d "$t/events" ] || mount -t tracefs none "$t"; }
	setup_kdamond
	before=$(state_now)
	lo=$((HOT < COLD ? HOT : COLD))
	hi=$(((HOT + (64 << 20)) > (COLD + (256 << 20)) ? HOT + (64 << 20) : COLD + (256 << 20)))
	# a tried regions snapshot took 2-3 s under TCG: a few rows at least
	dur=$((AGGR_US * 12 > 12000000 ? AGGR_US * 12 : 12000000))us
	out=$BATS_TEST_TMPDIR
	run "$DAMOCTL" --json report heatmap duration "$dur" address "$lo" "$hi" \
		--output "$out/heat.png" size 640 480 --data "$out/heat.dat"
	echo "$output" | head -c 1000
	assert_success
	json=$output
	run python3 -c '
import struct, sys
b = open(sys.argv[1], "rb").read(24)
assert b[:8] == b"\x89PNG\r\n\x1a\n" and b[12:16] == b"IHDR", b
print("%dx%d" % struct.unpack(">II", b[16:24]))' "$out/heat.png"
	assert_output 640x480
	read -r hot_rate hot_n < <(heat_of "$out/heat.dat" "$HOT" $((HOT + (64 << 20))))
	read -r cold_rate cold_n < <(heat_of "$out/heat.dat" "$COLD" $((COLD + (256 << 20))))
	echo "# heatmap: hot $hot_rate% over $hot_n cells, cold $cold_rate% over $cold_n cells" >&3
	[ "$hot_n" -gt 0 ] && [ "$cold_n" -gt 0 ] || fail "no cell over a range"
	python3 -c 'import sys; sys.exit(0 if float(sys.argv[1]) > float(sys.argv[2]) else 1)' \
		"$hot_rate" "$cold_rate" || fail "hot $hot_rate% is not above cold $cold_rate%"
	# the same matrix in --json
	run python3 -c '
import json, sys
d = json.loads(sys.argv[1])
assert d["address_start"] == int(sys.argv[2]) and d["address_end"] == int(sys.argv[3]), d
assert d["rows"] == d["nr_snapshots"] >= 2 and d["columns"] == 200, d
print("%d rows (snapshots) over %.1f s" % (d["rows"], d["time_us"][-1] / 1e6))' "$json" "$lo" "$hi"
	echo "# heatmap: $output" >&3
	assert_success
	# from the tracepoint too, where the kernel has tracing (the source of
	# kernels before 6.2)
	if kconfig FTRACE; then
		run "$DAMOCTL" --json report heatmap source trace duration "$dur" \
			address "$lo" "$hi" --data "$out/trace.dat"
		assert_success
		read -r hot_rate hot_n < <(heat_of "$out/trace.dat" "$HOT" $((HOT + (64 << 20))))
		read -r cold_rate cold_n < <(heat_of "$out/trace.dat" "$COLD" $((COLD + (256 << 20))))
		echo "# heatmap from the tracepoint: hot $hot_rate% over $hot_n cells, cold $cold_rate% over $cold_n cells" >&3
		[ "$hot_n" -gt 0 ] && [ "$cold_n" -gt 0 ] || fail "no cell over a range (trace)"
		python3 -c 'import sys; sys.exit(0 if float(sys.argv[1]) > float(sys.argv[2]) else 1)' \
			"$hot_rate" "$cold_rate" || fail "trace: hot $hot_rate% is not above cold $cold_rate%"
		run ls "$t/instances"
		refute_output --partial damos-
	fi
	# the terminal's, default range: within 80 columns
	COLUMNS=80 LINES=24 run "$DAMOCTL" report heatmap duration $((AGGR_US * 3))us
	assert_success
	echo "$output"
	run python3 -c '
import sys
w = max(len(l) for l in sys.argv[1].split("\n"))
print("widest", w)
sys.exit(0 if 40 <= w <= 80 else 1)' "$output"
	assert_success
	run state_now
	assert_output "$before"
}

# prom_values FILE FORMAT FAMILY ACTION [FAMILY ACTION...]: the value of
# each FAMILY for the scheme of ACTION, through Prometheus' parser (one
# python3 for all: a start of it takes about a second under TCG)
prom_values() {
	python3 - "$@" <<'PY'
import sys
path, fmt = sys.argv[1:3]
if fmt == "openmetrics":
    from prometheus_client.openmetrics.parser import text_string_to_metric_families
else:
    from prometheus_client.parser import text_string_to_metric_families
fams = list(text_string_to_metric_families(open(path).read()))
out = []
for fam, action in zip(sys.argv[3::2], sys.argv[4::2]):
    vals = [s.value for f in fams for s in f.samples
            if s.name in (fam, fam + "_total") and s.labels.get("action") == action]
    assert len(vals) == 1, (fam, action, vals)
    out.append(str(int(vals[0])))
print(" ".join(out))
PY
}

@test "metrics: the file parses with python3-prometheus-client's parsers and a scheme's counters rise while it applies" {
	runs_on_debian_612 sysfs
	# stat applies nothing (no bytes applied, ever): willneed on the hot
	# buffer does, and leaves its pages where they are.  The kdamond needs
	# no settling here (setup_kdamond's 13 s): the counters only have to
	# rise, which the loop below waits for.
	start_kdamond willneed access 50% max
	f=$BATS_TEST_TMPDIR/damon.prom
	run "$DAMOCTL" stats show --format prometheus --output "$f"
	assert_success
	run prom_values "$f" prometheus damon_scheme_applied_bytes willneed \
		damon_scheme_tried_regions stat
	assert_success
	read -r a1 t1 <<<"$output"
	# What makes them rise is work, not time: aggregations of the kdamond
	# (4 a second at 250 ms when it has the CPU, far fewer beside other
	# loads) in which willneed finds a hot region.  A fixed wait of 5
	# aggregation intervals (2 s) saw no willneed byte applied once on the
	# patched 6.12 under a load of 10 (see helpers/hotcold.c, the pads).
	# So read again until both rose, up to 60 s.
	start=$SECONDS reads=0
	while :; do
		run "$DAMOCTL" monitor status --format openmetrics --output "$f"
		assert_success
		reads=$((reads + 1))
		tail -1 "$f" | grep -qx '# EOF' || fail "no # EOF"
		run prom_values "$f" openmetrics damon_scheme_applied_bytes willneed \
			damon_scheme_tried_regions stat damon_scheme_tried_regions willneed \
			damon_scheme_tried_bytes willneed
		assert_success
		read -r a2 t2 wt wtb <<<"$output"
		[ "$a2" -gt "$a1" ] && [ "$t2" -gt "$t1" ] && break
		[ $((SECONDS - start)) -lt 60 ] || break
		sleep 1
	done
	echo "# willneed applied bytes $a1 -> $a2, stat tried regions $t1 -> $t2 ($reads reads in $((SECONDS - start)) s)" >&3
	[ "$t2" -gt "$t1" ] ||
		fail "stat tried regions did not rise in $((SECONDS - start)) s: $t1 -> $t2 (no aggregation with a region of 50% or more)"
	[ "$a2" -gt "$a1" ] ||
		fail "willneed applied bytes did not rise in $((SECONDS - start)) s: $a1 -> $a2, though it tried $wt regions ($wtb bytes)"
	run python3 - "$f" <<'PY'
import sys
from prometheus_client.openmetrics.parser import text_string_to_metric_families
fams = {f.name: f for f in text_string_to_metric_families(open(sys.argv[1]).read())}
assert fams["damon_kdamond_running"].samples[0].value == 1, fams["damon_kdamond_running"]
assert fams["damon_scheme_applied_bytes"].type == "counter", fams
print("ok")
PY
	assert_output ok
}
