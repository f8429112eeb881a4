#!/usr/bin/env bats
# damoctl record FILE and report access|wss|heatmap --input FILE: damo's
# record formats "json" and "json_compressed" (zlib), as damo v3.3.0's
# _damo_records.py writes and reads them.  fixtures/damo-record/
# damo-3.3.0.json is a record in damo's own layout (indent 4, numbers as
# strings of digits, intervals_goal, a region by percent and age in us, a
# second target whose lone snapshot has damo's filler snapshot after it),
# made from that format's description, not by damo.

load helper
load report

FIXTURE="$BATS_TEST_DIRNAME/fixtures/damo-record/damo-3.3.0.json"

REGIONS="4096 8192 20 3
8192 1056768 0 50
1056768 1060864 10 7"

# damo's json_compressed: zlib.compress() of the json text
compress() {	# IN OUT
	/usr/bin/python3 -c 'import sys, zlib
open(sys.argv[2], "wb").write(zlib.compress(open(sys.argv[1], "rb").read()))' "$1" "$2"
}

@test "record FILE writes damo's json: the keys damo's DamonRecord.from_kvpairs reads, the kernel's regions in each snapshot" {
	make_612 on 1
	stat_all 0 <<<"$REGIONS"
	run damoctl record "$BATS_TEST_TMPDIR/rec.json" duration 350ms
	assert_success
	assert_output --regexp "^$BATS_TEST_TMPDIR/rec.json: [0-9]+ snapshots, [0-9]+ regions, damo's json format$"
	run /usr/bin/python3 -c '
import json, sys
recs = json.load(open(sys.argv[1]))
assert len(recs) == 1, recs
r = recs[0]
for k in ("kdamond_idx", "context_idx", "intervals", "scheme_idx", "target_id",
          "scheme_filters", "snapshots", "data_source"):
    assert k in r, k
assert r["intervals"] == {"sample_us": "5000", "aggr_us": "100000", "ops_update_us": "1000000"}, r["intervals"]
assert 2 <= len(r["snapshots"]) <= 4, len(r["snapshots"])
for s in r["snapshots"]:
    # one aggregation interval, in ns, as strings of digits
    assert int(s["end_time"]) - int(s["start_time"]) == 100000000, s
    assert s["total_bytes"] == str(1060864 - 4096), s
    print(" ".join("%s-%s:%d:%s:%s" % (x["start"], x["end"], x["nr_accesses"]["samples"],
                                    x["age"]["aggr_intervals"], x["age"]["usec"]) for x in s["regions"]))
' "$BATS_TEST_TMPDIR/rec.json"
	assert_success
	assert_line --index 0 "4096-8192:20:3:300000 8192-1056768:0:50:5000000 1056768-1060864:10:7:700000"
	[ "$(sort -u <<<"$output" | wc -l)" = 1 ]
}

@test "record format json_compressed is zlib's compression of the same text, and report --input reads both back" {
	make_612 on 1
	stat_all 0 <<<"$REGIONS"
	run damoctl record "$BATS_TEST_TMPDIR/rec.z" duration 250ms format json_compressed
	assert_success
	run /usr/bin/python3 -c '
import json, sys, zlib
r = json.loads(zlib.decompress(open(sys.argv[1], "rb").read()))[0]
print(len(r["snapshots"][-1]["regions"]))' "$BATS_TEST_TMPDIR/rec.z"
	assert_output 3
	run damoctl report access --input "$BATS_TEST_TMPDIR/rec.z"
	assert_success
	assert_line --index 1 --regexp '^0x0000000000001000 0x0000000000002000 +4K +20/20 +100% +300ms$'
	assert_line --index 4 "total: 3 regions, 1.0M; accessed: 2 regions, 8K; from record, 100ms per aggregation"
	# no kernel is asked: the same answer without a tree
	rm -r "$ROOT/sys"
	run damoctl report access --input "$BATS_TEST_TMPDIR/rec.z" sort access
	assert_success
	assert_line --index 1 --regexp '^0x0000000000001000 '
	assert_line --index 2 --regexp '^0x0000000000102000 '
}

@test "report access --input reads damo's own record: the first target's last snapshot, percent and age in us converted" {
	run damoctl --json report access --input "$FIXTURE"
	assert_success
	run /usr/bin/python3 -c '
import json, sys
d = json.loads(sys.argv[1])
# a note (the other target) wraps the result
assert d["notes"] == ["--input %s: 2 records (targets) with snapshots; the first is shown" % sys.argv[2]], d
d = d["result"]
print(d["source"], d["max_nr_accesses"], d["nr_regions"], d["total_bytes"], d["accessed_bytes"])
for r in d["regions"]:
    print(r["start"], r["size"], r["nr_accesses"], r["access_rate_percent"], r["age"])
' "$output" "$FIXTURE"
	assert_output "record 20 3 88080384 20971520
1073741824 16777216 20 100 3
1090519040 67108864 0 0 13
1157627904 4194304 10 50 3"
	run damoctl report access --input "$FIXTURE"
	assert_success
	assert_line --index 0 "damoctl: report access: --input $FIXTURE: 2 records (targets) with snapshots; the first is shown"
}

@test "report wss --input: the working set of each snapshot of the record" {
	cp "$FIXTURE" "$BATS_TEST_TMPDIR/rec.json"
	compress "$FIXTURE" "$BATS_TEST_TMPDIR/rec.z"
	for f in rec.json rec.z; do
		run damoctl --json report wss --input "$BATS_TEST_TMPDIR/$f"
		assert_success
		run /usr/bin/python3 -c '
import json, sys
d = json.loads(sys.argv[1])["result"]
print(d["nr_snapshots"], " ".join("%d:%d" % (p["percentile"], p["wss_bytes"] >> 20) for p in d["percentiles"]))
' "$output"
		assert_output "4 0:16 25:16 50:20 75:20 90:20 99:20 100:20"
	done
}

@test "report heatmap --input: the record's snapshots binned as the live heatmap bins them" {
	compress "$FIXTURE" "$BATS_TEST_TMPDIR/rec.z"
	run damoctl --json report heatmap --input "$BATS_TEST_TMPDIR/rec.z" resol 4 21
	assert_success
	run /usr/bin/python3 -c '
import json, sys
d = json.loads(sys.argv[1])["result"]
print(d["source"], d["nr_snapshots"], d["address_start"], d["address_end"], d["time_us"])
for row in d["access_rate_percent"]:
    print(" ".join("%d" % v for v in row))
' "$output"
	assert_success
	# 21 columns of 4M: the hot 16M, the cold 64M, the warm 4M
	assert_output "record 4 1073741824 1161822208 [0, 100000, 200000, 300000]
100 100 100 100 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
100 100 100 100 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 25
90 90 90 90 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 50
100 100 100 100 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 50"
	run damoctl report heatmap --input "$BATS_TEST_TMPDIR/rec.z" resol 4 21 color never
	assert_success
	assert_line --index 5 "x: address 0x40000000-0x45400000 (84M), 21 columns"
}

@test "report --input: a file that is not a record, a cut one and a missing one are refused, saying where" {
	echo '{"kdamonds": []}' > "$BATS_TEST_TMPDIR/spec.json"
	run damoctl report access --input "$BATS_TEST_TMPDIR/spec.json"
	assert_failure 1
	assert_output "damoctl: report access: --input $BATS_TEST_TMPDIR/spec.json: not a record damoctl reads (damo's json or json_compressed: a list of records)"
	head -c 700 "$FIXTURE" > "$BATS_TEST_TMPDIR/cut.json"
	run damoctl report heatmap --input "$BATS_TEST_TMPDIR/cut.json"
	assert_failure 1
	assert_output --regexp "^damoctl: report heatmap: --input $BATS_TEST_TMPDIR/cut.json: byte 7[0-9][0-9]: expected "
	printf 'x\x9c garbage' > "$BATS_TEST_TMPDIR/bad.z"
	run damoctl report wss --input "$BATS_TEST_TMPDIR/bad.z"
	assert_failure 1
	assert_output --partial "zlib data that does not decompress"
	run damoctl report wss --input "$BATS_TEST_TMPDIR/none"
	assert_failure 1
	assert_output "damoctl: report wss: --input $BATS_TEST_TMPDIR/none: No such file or directory"
	echo '[]' > "$BATS_TEST_TMPDIR/empty.json"
	run damoctl report access --input "$BATS_TEST_TMPDIR/empty.json"
	assert_failure 1
	assert_output "damoctl: report access: --input $BATS_TEST_TMPDIR/empty.json: no snapshot in it"
}

@test "record: usage errors, and a stopped kdamond has nothing to record" {
	make_612 off 1
	run damoctl record
	assert_failure 2
	assert_output "damoctl: record: expected a FILE to record to"
	run damoctl record f format xml
	assert_failure 2
	assert_output "damoctl: record: format: 'xml' is not one of json, json_compressed"
	run damoctl record f frob 1
	assert_failure 2
	assert_output "damoctl: record: unknown keyword 'frob' (expected duration, format or source)"
	run damoctl record "$BATS_TEST_TMPDIR/rec.json" duration 100ms
	assert_failure 1
	[ ! -e "$BATS_TEST_TMPDIR/rec.json" ]
	# the completion: a file, then the keywords and their values
	[ "$("$DAMOCTL" --complete -- record "")" = "@files" ]
	[ "$("$DAMOCTL" --complete -- record f "" | tr '\n' ' ')" = "duration format source " ]
	[ "$("$DAMOCTL" --complete -- record f format "" | tr '\n' ' ')" = "json json_compressed " ]
	"$DAMOCTL" --complete -- report heatmap --input "" | grep -qx @files
}
