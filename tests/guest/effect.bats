#!/usr/bin/env bats
# report effect, record and report --input on the real kernel.
#
# report effect: a 128 MiB file read into the page cache and left cold,
# paddr monitored with a pageout scheme for cold regions: over the window,
# the scheme's applied bytes rise and Cached and nr_file_pages fall by at
# least a quarter of the file (DAMOS pageout goes through reclaim_pages(),
# which counts no pgsteal_* on 6.1 and 6.12: the memory counters are where
# it shows).  record: 30 s of the hot/cold workload, read back by report
# heatmap --input (the hot buffer hotter than the cold one) and report wss
# --input.  Cost under TCG, measured on Debian's 6.12 (2026-12-06, loaded
# host): 59 s for the first test (a 20 s and a 2 s window, the file's
# 128 MiB written and read), 91 s for the second (30 s of record, 13
# snapshots, then the reports): 2.5 min a kernel.  That run: pageout
# applied 134 MiB, Cached -131 MiB, nr_file_pages -132 MiB, MemFree
# +126 MiB, workingset_refault_file and the pressure stall rose, no
# pgsteal_*; heatmap --input hot 95% against cold 0.2%.

load helpers/common

COLD_FILE=/var/tmp/damos-effect-cold

setup() {
	need sysfs paddr
	damon_off
	log_mark
}

teardown() {
	stop_workload
	damon_off
	rm -f "$COLD_FILE"
	assert_kernel_log_clean
}

@test "report effect: a pageout scheme on a cold file: applied bytes rise, Cached and nr_file_pages fall, the events it matches listed" {
	runs_on_debian_612 sysfs
	dd if=/dev/zero of="$COLD_FILE" bs=1M count=128 status=none
	sync
	echo 3 > /proc/sys/vm/drop_caches
	cat "$COLD_FILE" > /dev/null
	damoctl_paddr_setup sysfs &&
		"$DAMOCTL" scheme add pageout access 0 0 age 2s max &&
		"$DAMOCTL" monitor start || fail "setting up the pageout scheme failed"
	run "$DAMOCTL" --json report effect duration 20s
	assert_success
	json=$output
	run python3 -c '
import json, sys
d = json.loads(sys.argv[1])
s = d["schemes"][0]
m = d["memory"]
print("# window %.1f s: pageout applied %d MiB (tried %d MiB); Cached %+d MiB, nr_file_pages %+d MiB, MemFree %+d MiB; rose %s; fell %s; missing %s" % (
    d["window_us"] / 1e6, s["sz_applied"] >> 20, s["sz_tried"] >> 20,
    m["Cached"]["change"] / 2**20, m["nr_file_pages"]["change_bytes"] / 2**20,
    m["MemFree"]["change"] / 2**20, d["rose"], d["fell"], d["missing"]))
assert s["action"] == "pageout" and not s["changed"], s
assert s["sz_applied"] >= 32 << 20, "applied %d bytes" % s["sz_applied"]
assert m["Cached"]["change"] <= -(32 << 20), m["Cached"]
assert m["nr_file_pages"]["change_bytes"] <= -(32 << 20), m["nr_file_pages"]
assert "Cached" in d["fell"] and "nr_file_pages" in d["fell"], d["fell"]
# the events of pageout are there, each a number or said missing
for e in ("pgsteal_kswapd", "pgsteal_direct", "pswpout", "workingset_refault_file"):
    assert e in d["events"], e
    assert d["events"][e] is None or isinstance(d["events"][e]["change"], int), d["events"][e]
' "$json"
	echo "$output" >&3
	assert_success
	# the text names them too
	run "$DAMOCTL" report effect duration 2s
	assert_success
	assert_line --regexp '^0 +pageout +[0-9.]+[BKMG] '
	assert_line "reclaim events (/proc/vmstat), for pageout, lru_deprio:"
	assert_line --regexp '^  Cached '
	assert_line --regexp '^rose: '
}

@test "record: 30 s of the hot/cold workload, read back by report heatmap --input (hot above cold) and report wss --input" {
	runs_on_debian_612 snapshots
	kernel_at_least 6.2 || kconfig FTRACE ||
		skip "kernel lacks: tried regions (6.2+) and tracing (CONFIG_FTRACE is not set in $(uname -r)): record has no source of snapshots"
	t=/sys/kernel/tracing
	kconfig FTRACE && { [ -d "$t/events" ] || mount -t tracefs none "$t"; }
	start_workload -h 64 -c 256
	read -r HOT COLD < <(awk '/^ready/ { print $(NF - 1), $NF; exit }' "$BATS_TEST_TMPDIR/hotcold.out")
	HOT=$((HOT)) COLD=$((COLD))
	"$DAMOCTL" attrs set sample "${SAMPLE_US}us" aggr "${AGGR_US}us" update 1s regions 10 1000 &&
		"$DAMOCTL" target set vaddr pid "$WORKLOAD_PID" &&
		"$DAMOCTL" monitor start || fail "setting up kdamond 0 failed"
	rec=$BATS_TEST_TMPDIR/rec.json
	run "$DAMOCTL" record "$rec" duration 30s
	echo "# $output" >&3
	assert_success
	lo=$((HOT < COLD ? HOT : COLD))
	hi=$(((HOT + (64 << 20)) > (COLD + (256 << 20)) ? HOT + (64 << 20) : COLD + (256 << 20)))
	run "$DAMOCTL" report heatmap --input "$rec" address "$lo" "$hi" --data "$BATS_TEST_TMPDIR/heat.dat"
	assert_success
	run awk -v h0="$HOT" -v h1=$((HOT + (64 << 20))) -v c0="$COLD" -v c1=$((COLD + (256 << 20))) '
		!/^#/ && NF == 3 && $3 != "NaN" {
			if ($2 >= h0 && $2 < h1) { hs += $3; hn++ }
			if ($2 >= c0 && $2 < c1) { cs += $3; cn++ }
		}
		END { if (hn && cn) printf "%.2f %.2f\n", hs / hn, cs / cn; else print "none" }' "$BATS_TEST_TMPDIR/heat.dat"
	echo "# heatmap --input: hot and cold access rate (%): $output" >&3
	[ "$output" != none ] || fail "no cell over the hot or the cold range"
	python3 -c 'import sys; h, c = map(float, sys.argv[1:]); sys.exit(0 if h > c else 1)' $output ||
		fail "hot is not above cold: $output"
	run "$DAMOCTL" --json report wss --input "$rec"
	assert_success
	run python3 -c '
import json, sys
d = json.loads(sys.argv[1])
p = {x["percentile"]: x["wss_bytes"] for x in d["percentiles"]}
assert d["nr_snapshots"] >= 3, d
assert p[100] > 0, p
print("# wss --input: %d snapshots, p50 %d MiB, p100 %d MiB" % (d["nr_snapshots"], p[50] >> 20, p[100] >> 20))' "$output"
	echo "$output" >&3
	assert_success
}
