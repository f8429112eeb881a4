#!/usr/bin/env bats
# stats show and monitor status --format openmetrics|prometheus [--output
# FILE]: parsed by python3-prometheus-client's own parsers (OpenMetrics and
# the Prometheus text format), names and labels as Prometheus has them, the
# file replaced whole.

load helper
load report

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

# SCHEME NR_TRIED SZ_TRIED NR_APPLIED SZ_APPLIED QT_EXCEEDS, of kdamond $K (0)
stats_set() {
	local s
	s="$(CTX "${K:-0}")/schemes/$1/stats"
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
	# ExecStart as systemd runs it, with its Environment= and --root: by
	# default every kdamond
	make_612_two on 1
	put "$(CTX 1)/../../state" off
	cmd=$(sed -n 's/^ExecStart=//p' "$u/damoctl-metrics.service")
	DAMOCTL_METRICS_KDAMOND=$(sed -n 's/^Environment=DAMOCTL_METRICS_KDAMOND=//p' "$u/damoctl-metrics.service")
	[ "$DAMOCTL_METRICS_KDAMOND" = all ] || fail "the unit's default is kdamond '$DAMOCTL_METRICS_KDAMOND', not all"
	DAMOCTL_METRICS_FILE=$BATS_TEST_TMPDIR/damon.prom
	cmd=${cmd//'${DAMOCTL_METRICS_KDAMOND}'/$DAMOCTL_METRICS_KDAMOND}
	cmd=${cmd//'${DAMOCTL_METRICS_FILE}'/$DAMOCTL_METRICS_FILE}
	cmd=${cmd/#"$DAMOCTL" /"$DAMOCTL --root $ROOT "}
	run $cmd
	assert_success
	run parse prometheus < "$DAMOCTL_METRICS_FILE"
	assert_success
	assert_line "damon_kdamond_running{context=0,kdamond=0} 1"
	assert_line "damon_kdamond_running{context=0,kdamond=1} 0"
	# a drop-in's one kdamond
	cmd=${cmd/"--kdamond all"/"--kdamond 1"}
	run $cmd
	assert_success
	run parse prometheus < "$DAMOCTL_METRICS_FILE"
	assert_line "damon_kdamond_running{context=0,kdamond=1} 0"
	refute_line --partial "kdamond=0"
}

@test "monitor status --kdamond all --format openmetrics|prometheus: one exposition of every kdamond, each family once, as prometheus_client reads it" {
	make_612_two on 2
	put "$(CTX 1)/../../state" off
	put "$(CTX 1)/schemes/1/action" lru_prio
	stats_set 0 1 4096 0 0 0
	K=1 stats_set 1 10 1048576 7 65536 3
	run damoctl -k all monitor status --format openmetrics
	assert_success
	# HELP and TYPE once a family, one # EOF at the end
	expo=$output
	[ "$(grep -c '^# TYPE damon_scheme_applied_bytes ' <<<"$expo")" = 1 ] ||
		fail "damon_scheme_applied_bytes typed more than once"
	dups=$(grep '^# \(TYPE\|HELP\) ' <<<"$expo" | sort | uniq -d)
	[ -z "$dups" ] || fail "families printed twice: $dups"
	[ "$(grep -c '^# EOF' <<<"$expo")" = 1 ] && [ "${lines[-1]}" = "# EOF" ] ||
		fail "not one # EOF at the end"
	run parse openmetrics <<<"$expo"
	assert_success
	for k in 0 1; do
		assert_line "damon_context_info{context=0,interface=sysfs,kdamond=$k,kernel=sysfs, Linux 6.12} 1"
		assert_line "damon_schemes{context=0,kdamond=$k} 2"
		assert_line "damon_aggregation_interval_seconds{context=0,kdamond=$k} 0.1"
		assert_line "damon_access_telemetry_available{context=0,kdamond=$k,source=none} 0"
	done
	assert_line "damon_kdamond_running{context=0,kdamond=0} 1"
	assert_line "damon_kdamond_running{context=0,kdamond=1} 0"
	assert_line "damon_scheme_tried_bytes_total{action=pageout,context=0,kdamond=0,scheme=0} 4096"
	assert_line "damon_scheme_applied_bytes_total{action=lru_prio,context=0,kdamond=1,scheme=1} 65536"
	assert_line "damon_scheme_quota_exceeds_total{action=lru_prio,context=0,kdamond=1,scheme=1} 3"
	[ "$(grep -c '^family ' <<<"$output")" = 14 ] || fail "not 14 families: $output"
	# the Prometheus text file, replaced whole
	f=$BATS_TEST_TMPDIR/damon.prom
	run damoctl -k all monitor status --format prometheus --output "$f"
	assert_success
	assert_output ""
	run parse prometheus < "$f"
	assert_success
	assert_line "family damon_scheme_applied_bytes counter"
	assert_line "damon_scheme_applied_bytes_total{action=lru_prio,context=0,kdamond=1,scheme=1} 65536"
	assert_line "damon_scheme_applied_bytes_total{action=pageout,context=0,kdamond=0,scheme=0} 0"
	assert_line "damon_context{context=0,interface=sysfs,kdamond=1,kernel=sysfs, Linux 6.12} 1"
	[ "$(grep -c '^# TYPE damon_context gauge' "$f")" = 1 ] || fail "damon_context typed twice"
}

@test "--kdamond all with one kdamond or dbgfs: the exposition as without it, byte for byte; with none: one without samples" {
	local fmt
	make_612 on 2
	stats_set 1 10 1048576 7 65536 3
	for fmt in openmetrics prometheus; do
		one=$(damoctl monitor status --format $fmt)
		all=$(damoctl -k all monitor status --format $fmt)
		[ "$one" = "$all" ] || fail "$fmt: $(diff <(echo "$one") <(echo "$all"))"
	done
	make_dbgfs
	rm -rf "$ROOT/sys/kernel/mm"
	echo "1 2 3 4 5 6 2 0 0 0 0 0 0 0 0 0 0 0 7 8 9 10 11" > "$ROOT/sys/kernel/debug/damon/schemes"
	one=$(damoctl monitor status --format openmetrics)
	all=$(damoctl -k all monitor status --format openmetrics)
	[ "$one" = "$all" ] || fail "dbgfs: $(diff <(echo "$one") <(echo "$all"))"
	grep -q 'kdamond="dbgfs"' <<<"$all" || fail "no dbgfs kdamond label"
	# no kdamond: nothing to say, and a collector drops the old samples
	rm -rf "$ROOT/sys"
	make_sysfs_empty
	run damoctl -k all monitor status --format openmetrics
	assert_success
	assert_output "# EOF"
	echo old > "$BATS_TEST_TMPDIR/damon.prom"
	run damoctl -k all monitor status --format prometheus --output "$BATS_TEST_TMPDIR/damon.prom"
	assert_success
	[ ! -s "$BATS_TEST_TMPDIR/damon.prom" ] || fail "$(cat "$BATS_TEST_TMPDIR/damon.prom")"
	# the text form still says there is none
	run damoctl -k all monitor status
	assert_failure 1
	assert_output --partial "--kdamond all: there is no kdamond"
}
