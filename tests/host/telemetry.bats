#!/usr/bin/env bats
# Access telemetry in monitor status --format openmetrics|prometheus: the
# age percentiles weighted by bytes, the working set and the monitored
# bytes, from the tried regions of a match-all stat scheme (6.2+), parsed
# by python3-prometheus-client's own parsers.

load helper
load report

# parse FORMAT < exposition: "name{labels} value" of the access families
parse() {
	/usr/bin/python3 -c '
import sys
if sys.argv[1] == "openmetrics":
    from prometheus_client.openmetrics.parser import text_string_to_metric_families
else:
    from prometheus_client.parser import text_string_to_metric_families
for fam in text_string_to_metric_families(sys.stdin.read()):
    for s in fam.samples:
        if not s.name.startswith("damon_access_"):
            continue
        lab = ",".join("%s=%s" % kv for kv in sorted(s.labels.items()))
        print("%s{%s} %g" % (s.name, lab, s.value))
' "$1"
}

# 100 pages: half of them 1 aggregation old, 40% 10, 9% 100, 1% 1000 (100 ms each)
REGIONS="$((1 << 32)) $(((1 << 32) + 50 * 4096)) 0 1
$(((1 << 32) + 50 * 4096)) $(((1 << 32) + 90 * 4096)) 4 10
$(((1 << 32) + 90 * 4096)) $(((1 << 32) + 99 * 4096)) 0 100
$(((1 << 32) + 99 * 4096)) $(((1 << 32) + 100 * 4096)) 20 1000"

@test "monitor status --format openmetrics: age percentiles by bytes, the working set and the bytes monitored, as prometheus_client reads them" {
	make_612 on 2
	stat_all 1 <<<"$REGIONS"
	run damoctl monitor status --format openmetrics
	assert_success
	run parse openmetrics <<<"$output"
	assert_success
	assert_output 'damon_access_telemetry_available{context=0,kdamond=0,source=tried} 1
damon_access_monitored_bytes{context=0,kdamond=0} 409600
damon_access_regions{context=0,kdamond=0} 4
damon_access_working_set_bytes{context=0,kdamond=0,min_nr_accesses=1} 167936
damon_access_age_seconds{context=0,kdamond=0,percentile=50} 0.1
damon_access_age_seconds{context=0,kdamond=0,percentile=90} 1
damon_access_age_seconds{context=0,kdamond=0,percentile=99} 10'
	# the textfile the metrics timer writes, in Prometheus' text format
	run damoctl monitor status --format prometheus --output "$BATS_TEST_TMPDIR/damon.prom"
	assert_success
	run parse prometheus < "$BATS_TEST_TMPDIR/damon.prom"
	assert_success
	assert_line 'damon_access_age_seconds{context=0,kdamond=0,percentile=99} 10'
	assert_line 'damon_access_working_set_bytes{context=0,kdamond=0,min_nr_accesses=1} 167936'
}

@test "access telemetry: none without a match-all stat scheme and a tracepoint, or with the kdamond off; the setup is not changed for it" {
	make_612 on 1
	run damoctl monitor status --format openmetrics
	assert_success
	run parse openmetrics <<<"$output"
	assert_output 'damon_access_telemetry_available{context=0,kdamond=0,source=none} 0'
	# no scheme was added for it (report access would add one)
	[ "$(cat "$(CTX)/schemes/nr_schemes")" = 1 ]
	make_612 off 2
	stat_all 1 <<<"$REGIONS"
	run damoctl monitor status --format openmetrics
	run parse openmetrics <<<"$output"
	assert_output 'damon_access_telemetry_available{context=0,kdamond=0,source=none} 0'
	# stats show has no telemetry
	make_612 on 2
	stat_all 1 <<<"$REGIONS"
	run damoctl stats show --format openmetrics
	assert_success
	refute_output --partial damon_access_
}

@test "monitor status --kdamond all: each running kdamond's access telemetry, under one family each" {
	make_612_two on 2
	stat_all 1 0 <<<"$REGIONS"
	# kdamond 1: 8 pages, all of them accessed, 2 aggregations old
	stat_all 1 1 <<<"$((1 << 33)) $(((1 << 33) + 8 * 4096)) 3 2"
	run damoctl -k all monitor status --format openmetrics
	assert_success
	run parse openmetrics <<<"$output"
	assert_success
	assert_output 'damon_access_telemetry_available{context=0,kdamond=0,source=tried} 1
damon_access_telemetry_available{context=0,kdamond=1,source=tried} 1
damon_access_monitored_bytes{context=0,kdamond=0} 409600
damon_access_monitored_bytes{context=0,kdamond=1} 32768
damon_access_regions{context=0,kdamond=0} 4
damon_access_regions{context=0,kdamond=1} 1
damon_access_working_set_bytes{context=0,kdamond=0,min_nr_accesses=1} 167936
damon_access_working_set_bytes{context=0,kdamond=1,min_nr_accesses=1} 32768
damon_access_age_seconds{context=0,kdamond=0,percentile=50} 0.1
damon_access_age_seconds{context=0,kdamond=0,percentile=90} 1
damon_access_age_seconds{context=0,kdamond=0,percentile=99} 10
damon_access_age_seconds{context=0,kdamond=1,percentile=50} 0.2
damon_access_age_seconds{context=0,kdamond=1,percentile=90} 0.2
damon_access_age_seconds{context=0,kdamond=1,percentile=99} 0.2'
	# kdamond 0 off: none of its gauges, kdamond 1's as before
	put "$(CTX)/../../state" off
	run damoctl -k all monitor status --format prometheus
	assert_success
	run parse prometheus <<<"$output"
	assert_success
	assert_line 'damon_access_telemetry_available{context=0,kdamond=0,source=none} 0'
	assert_line 'damon_access_working_set_bytes{context=0,kdamond=1,min_nr_accesses=1} 32768'
	refute_line --partial 'damon_access_regions{context=0,kdamond=0}'
}
