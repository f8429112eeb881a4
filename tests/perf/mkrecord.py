#!/usr/bin/python3
# mkrecord.py REGIONS SNAPSHOTS OUT: a record in damo's json_compressed
# format (v3.3.0's layout: numbers as strings of digits, zlib.compress()
# of the JSON text) of REGIONS regions x SNAPSHOTS snapshots, 4 KiB to
# 1 MiB regions from 4 GiB, access counts and ages varying as a moving hot
# spot would make them.  For tests/perf/record_bench.sh.
import json
import sys
import zlib

nr, nsnap, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
t0 = 10 ** 12
aggr_ns = 100 * 10 ** 6
snaps = []
for s in range(nsnap):
    regions = []
    addr = 1 << 32
    hot = (s * nr // nsnap) % nr
    for i in range(nr):
        sz = 4096 * (1 + (i * 37) % 256)
        acc = 20 if abs(i - hot) < nr // 20 else (i * 7 + s) % 3
        regions.append({
            "start": "%d" % addr, "end": "%d" % (addr + sz),
            "nr_accesses": {"samples": acc, "percent": None},
            "age": {"usec": None, "aggr_intervals": "%d" % ((i + s) % 50)},
            "probe_hits": [], "sz_filter_passed": "0"})
        addr += sz
    snaps.append({"start_time": "%d" % (t0 + s * aggr_ns),
                  "end_time": "%d" % (t0 + (s + 1) * aggr_ns),
                  "regions": regions,
                  "total_bytes": "%d" % (addr - (1 << 32)),
                  "damos_stats": None, "sample_interval_us": None})
rec = [{"kdamond_idx": 0, "context_idx": 0,
        "intervals": {"sample_us": "5000", "aggr_us": "100000",
                      "ops_update_us": "1000000"},
        "scheme_idx": 0, "target_id": 0, "scheme_filters": [],
        "snapshots": snaps, "data_source": "unknown"}]
with open(out, "wb") as f:
    f.write(zlib.compress(json.dumps(rec, indent=4).encode()))
