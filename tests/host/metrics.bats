#!/usr/bin/env bats
# stats show and monitor status --format openmetrics|prometheus [--output
# FILE]: parsed by python3-prometheus-client's own parsers (OpenMetrics and
# the Prometheus text format), names and labels as Prometheus has them, the
# file replaced whole.

load helper

CTX() { echo "$ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0"; }

# parse FORMAT < exposition: "name{labels} value" per sample, sorted, and
# "family TYPE" per family, from the library's parser (not ours).  Debian's
# python3 (a python3 earlier in PATH, pyenv's, lacks Debian's modules).
parse() {
	/usr/bin/python3 -c '
import sys
if sys.argv[1] == "openmetrics":
    from prometheus_client.openmetrics.parser import text_string_to_metric_families
else:
    from prometheus_client.parser import text_string_to_metric_families
out = []
for fam in text_string_to_metric_families(sys.stdin.read()):
    out.append("family %s %s" % (fam.name, fam.type))
    for s in fam.samples:
        lab = ",".join("%s=%s" % kv for kv in sorted(s.labels.items()))
        out.append("%s{%s} %g" % (s.name, lab, s.value))
print("\n".join(out))
' "$1"
}

stats_set() {	# SCHEME NR_TRIED SZ_TRIED NR_APPLIED SZ_APPLIED QT_EXCEEDS
	local s
	s="$(CTX)/schemes/$1/stats"
	put "$s/nr_tried" "$2"
	put "$s/sz_tried" "$3"
	put "$s/nr_applied" "$4"
	put "$s/sz_applied" "$5"
	put "$s/qt_exceeds" "$6"
}

@test "stats show --format openmetrics parses as OpenMetrics: per-scheme counters with kdamond, context, scheme and action labels" {
	make_sysfs on 2
	put "$(CTX)/schemes/1/action" lru_prio
	stats_set 0 1 4096 0 0 0
	stats_set 1 10 1048576 7 65536 3
	run damoctl stats show --format openmetrics
	assert_success
	assert_line --index 0 "# HELP damon_kdamond_running Whether the context's kdamond runs (1) or not (0)."
	assert_line "# TYPE damon_scheme_applied_bytes counter"
	assert_line 'damon_scheme_applied_bytes_total{kdamond="0",context="0",scheme="1",action="lru_prio"} 65536'
	[ "${lines[-1]}" = "# EOF" ] || fail "no # EOF at the end"
	run parse openmetrics <<<"$output"
	assert_success
	assert_line "family damon_scheme_applied_bytes counter"
	assert_line "damon_scheme_applied_bytes_total{action=lru_prio,context=0,kdamond=0,scheme=1} 65536"
	assert_line "damon_scheme_tried_regions_total{action=pageout,context=0,kdamond=0,scheme=0} 1"
	assert_line "damon_scheme_quota_exceeds_total{action=lru_prio,context=0,kdamond=0,scheme=1} 3"
	assert_line "damon_kdamond_running{context=0,kdamond=0} 1"
}

@test "monitor status --format prometheus --output FILE: a Prometheus text file for node_exporter, replaced whole, no temporary file left" {
	make_sysfs off 1
	stats_set 0 5 20480 2 8192 0
	mkdir "$BATS_TEST_TMPDIR/prom"
	f=$BATS_TEST_TMPDIR/prom/damon.prom
	echo old > "$f"
	ino=$(stat -c %i "$f")
	run damoctl monitor status --format prometheus --output "$f"
	assert_success
	assert_output ""
	[ "$(stat -c %i "$f")" != "$ino" ] || fail "$f was written in place, not renamed over"
	[ "$(stat -c %a "$f")" = 644 ] || fail "$f is not 0644"
	run ls -A "$BATS_TEST_TMPDIR/prom"
	assert_output damon.prom
	run grep -c '^# EOF' "$f"
	assert_output 0
	run parse prometheus < "$f"
	assert_success
	assert_line "family damon_scheme_applied_bytes counter"
	assert_line "damon_scheme_applied_bytes_total{action=pageout,context=0,kdamond=0,scheme=0} 8192"
	assert_line "damon_kdamond_running{context=0,kdamond=0} 0"
	assert_line "damon_sample_interval_seconds{context=0,kdamond=0} 0.005"
	assert_line "damon_aggregation_interval_seconds{context=0,kdamond=0} 0.1"
	assert_line "damon_schemes{context=0,kdamond=0} 1"
	assert_line --partial "damon_context{context=0,interface=sysfs,kdamond=0,kernel=sysfs, Linux 6.1"
	# the counters rise with the kernel's
	stats_set 0 9 40960 4 16384 1
	run damoctl monitor status --format openmetrics --output "$f"
	assert_success
	run parse openmetrics < "$f"
	assert_line "damon_scheme_applied_bytes_total{action=pageout,context=0,kdamond=0,scheme=0} 16384"
	assert_line "damon_context_info{context=0,interface=sysfs,kdamond=0,kernel=sysfs, Linux 6.1 layout} 1"
}

@test "metrics on dbgfs: kdamond label dbgfs, the context's name" {
	make_dbgfs
	echo "1 2 3 4 5 6 2 0 0 0 0 0 0 0 0 0 0 0 7 8 9 10 11" > "$ROOT/sys/kernel/debug/damon/schemes"
	run damoctl stats show --format openmetrics
	assert_success
	run parse openmetrics <<<"$output"
	assert_success
	assert_line "damon_scheme_applied_bytes_total{action=pageout,context=0,kdamond=dbgfs,scheme=0} 10"
}

@test "--format and --output: bad values are usage errors, a failed write leaves the old file" {
	make_sysfs on 1
	run damoctl stats show --format yaml
	assert_failure 2
	assert_output "damoctl: stats show: --format: 'yaml' is not one of text, openmetrics, prometheus"
	run damoctl stats show --output x.prom
	assert_failure 2
	assert_output "damoctl: stats show: --output needs --format openmetrics or prometheus"
	run damoctl --json stats show --format openmetrics
	assert_failure 2
	run damoctl stats show --format openmetrics --output "$BATS_TEST_TMPDIR/no/such/dir/x.prom"
	assert_failure 1
	assert_output --partial "--output $BATS_TEST_TMPDIR/no/such/dir/x.prom: cannot make"
	# text stays the default
	run damoctl stats show --format text
	assert_success
	assert_line --index 0 --regexp '^#  +action +nr_tried'
}

@test "stats show --format openmetrics --watch: one exposition each time" {
	make_sysfs on 1
	run damoctl stats show --format openmetrics --watch 10ms --count 2
	assert_success
	run grep -c '^# EOF' <<<"$output"
	assert_output 2
}

@test "damoctl-metrics.service and .timer: systemd-analyze verify, and the service's command writes a file the parser takes" {
	local u=$BATS_TEST_TMPDIR/unit src=$BATS_TEST_DIRNAME/../..
	mkdir -p "$u"
	sed "s|@BINDIR@/damoctl|$DAMOCTL|" "$src/cli/damoctl-metrics.service" > "$u/damoctl-metrics.service"
	cp "$src/cli/damoctl-metrics.timer" "$u/"
	run systemd-analyze verify --man=no "$u/damoctl-metrics.service" "$u/damoctl-metrics.timer"
	assert_success
	assert_output ""
	grep -q "damoctl-metrics.service\|damoctl-metrics.timer" "$src/debian/damoctl.install" ||
		fail "the package does not install the units"
	# ExecStart as systemd runs it, with its Environment= and --root
	make_sysfs on 1
	cmd=$(sed -n 's/^ExecStart=//p' "$u/damoctl-metrics.service")
	DAMOCTL_METRICS_KDAMOND=0 DAMOCTL_METRICS_FILE=$BATS_TEST_TMPDIR/damon.prom
	cmd=${cmd//'${DAMOCTL_METRICS_KDAMOND}'/$DAMOCTL_METRICS_KDAMOND}
	cmd=${cmd//'${DAMOCTL_METRICS_FILE}'/$DAMOCTL_METRICS_FILE}
	cmd=${cmd/#"$DAMOCTL" /"$DAMOCTL --root $ROOT "}
	run $cmd
	assert_success
	run parse prometheus < "$DAMOCTL_METRICS_FILE"
	assert_success
	assert_line "damon_kdamond_running{context=0,kdamond=0} 1"
}
