#!/usr/bin/env bats
# damoctl report effect against fake trees whose /proc files and scheme
# statistics change during the window (a background writer, as report.bats
# changes tried regions while report wss runs): the schemes' bytes tried
# and applied beside vmstat, meminfo and memory pressure, in text, JSON
# and OpenMetrics, and a counter the kernel lacks said to be missing.

load helper

CTX_REL=sys/kernel/mm/damon/admin/kdamonds/0/contexts/0
CTX() { echo "$ROOT/$CTX_REL"; }

# 6.12-like counters at the window's start; $1: no pgsteal_anon/file (6.1
# has them too, so a kernel without is made up: the missing case)
proc_before() {
	put "$ROOT/proc/vmstat" "nr_free_pages 25000
nr_file_pages 50000
nr_anon_pages 2000
pgmajfault 10
pgsteal_kswapd 5
pgsteal_direct 0
pgsteal_khugepaged 0
${1:+#}pgsteal_anon 0
${1:+#}pgsteal_file 5
pswpout 0
workingset_refault_anon 0
workingset_refault_file 100
workingset_activate_anon 0
workingset_activate_file 3
pgactivate 7
pgdeactivate 9"
	put "$ROOT/proc/meminfo" "MemTotal:        4000000 kB
MemFree:          100000 kB
Cached:           200000 kB
AnonPages:          8000 kB"
	put "$ROOT/proc/pressure/memory" "some avg10=0.00 avg60=0.00 avg300=0.00 total=1000
full avg10=0.00 avg60=0.00 avg300=0.00 total=500"
}

# what a pageout of 160000 kB of page cache does, 0.3 s into the window:
# scheme 0 applied 160000 kB, Cached and nr_file_pages fell by as much,
# MemFree rose, refaults and the pressure stall rose.  The files are made
# beforehand and copied in by one cp, so that a loaded machine does not
# stretch the change past the window's end.
change_later() {
	local after=$BATS_TEST_TMPDIR/after s
	rm -rf "$after"
	mkdir -p "$after"
	cp -a "$ROOT/proc" "$after/"
	s="$after/${CTX_REL}/schemes/0/stats"
	mkdir -p "$s"
	printf '%s\n' 40 > "$s/nr_tried"
	printf '%s\n' 209715200 > "$s/sz_tried"
	printf '%s\n' 30 > "$s/nr_applied"
	printf '%s\n' 163840000 > "$s/sz_applied"
	printf '%s\n' 0 > "$s/qt_exceeds"
	sed -i -e 's/^nr_file_pages .*/nr_file_pages 10000/' \
		-e 's/^workingset_refault_file .*/workingset_refault_file 180/' \
		"$after/proc/vmstat"
	sed -i -e 's/^Cached: .*/Cached:            40000 kB/' \
		-e 's/^MemFree: .*/MemFree:          260000 kB/' "$after/proc/meminfo"
	sed -i 's/total=1000$/total=51000/' "$after/proc/pressure/memory"
	( sleep 0.3; cp -a "$after/." "$ROOT/" ) &
}

fresh() {	# [no-pgsteal-anon-file]
	make_sysfs on 2
	proc_before "$@"
}

@test "report effect: the applied bytes beside the counters that rose and fell in the window" {
	fresh
	change_later
	run damoctl report effect duration 2s
	wait
	assert_success
	assert_line --index 0 --regexp '^report effect over 2\.[0-9]s$'
	assert_line --regexp '^0 +pageout +200\.0M +156\.2M +[0-9.]+M +[0-9.]+M$'
	assert_line --regexp '^1 +pageout +0B +0B +0B +0B$'
	assert_line --regexp '^  Cached +195\.3M +39\.1M +-156\.2M$'
	assert_line --regexp '^  MemFree +97\.7M +253\.9M +\+156\.2M$'
	assert_line --regexp '^  workingset_refault_file +\+80$'
	assert_line --regexp '^  pgsteal_kswapd +\+0$'
	assert_line --regexp '^memory pressure \(/proc/pressure/memory\): some 50ms stalled'
	assert_line "rose: MemFree by 156.2M, workingset_refault_file by 80, memory pressure (some) by 50ms"
	[ "$(getconf PAGESIZE)" = 4096 ] && assert_line "fell: Cached by 156.2M, nr_file_pages by 156.2M"
	# pageout's events only: no migration, LRU or fault counters
	refute_line --partial pgmigrate_success
	refute_line --partial pgactivate
	refute_line --partial missing
}

@test "report effect: a counter the kernel lacks is missing, not 0, in text, JSON and OpenMetrics" {
	fresh no-pgsteal-anon-file
	rm "$ROOT/proc/pressure/memory"
	run damoctl report effect duration 100ms
	assert_success
	assert_line --regexp '^  pgsteal_anon +missing on this kernel$'
	assert_line --regexp '^  pgsteal_file +missing on this kernel$'
	assert_line --partial "memory pressure: missing on this kernel"
	assert_line "missing on this kernel: pgsteal_anon, pgsteal_file, /proc/pressure/memory"
	run damoctl --json report effect duration 100ms
	assert_success
	run /usr/bin/python3 -c '
import json, sys
d = json.loads(sys.argv[1])
assert d["events"]["pgsteal_anon"] is None and d["events"]["pgsteal_file"] is None, d
assert d["events"]["pgsteal_kswapd"]["change"] == 0, d
assert d["pressure"] is None, d
print(" ".join(d["missing"]))
' "$output"
	assert_output "pgsteal_anon pgsteal_file pressure"
	run damoctl report effect duration 100ms --format openmetrics
	assert_success
	assert_line 'damon_effect_counter_present{counter="pgsteal_anon"} 0'
	assert_line 'damon_effect_counter_present{counter="pgsteal_kswapd"} 1'
	assert_line 'damon_effect_counter_present{counter="pressure_memory"} 0'
	refute_line --partial 'damon_effect_vmstat_change{counter="pgsteal_anon"}'
}

# The same window's numbers, as JSON and as parsed by prometheus_client.
effect_json() {
	/usr/bin/python3 -c '
import json, sys
d = json.loads(sys.argv[1])
s = d["schemes"][0]
print("applied", s["sz_applied"], "tried", s["sz_tried"])
print("Cached", d["memory"]["Cached"]["change"])
print("MemFree", d["memory"]["MemFree"]["change"])
print("nr_file_pages", d["memory"]["nr_file_pages"]["change_bytes"])
print("workingset_refault_file", d["events"]["workingset_refault_file"]["change"])
print("some_us", d["pressure"]["some_stall_us"])
print("rose", ",".join(d["rose"]))
print("fell", ",".join(d["fell"]))
' "$1"
}

effect_metrics() {
	/usr/bin/python3 -c '
import sys
from prometheus_client.openmetrics.parser import text_string_to_metric_families
v = {}
for fam in text_string_to_metric_families(sys.stdin.read()):
    for s in fam.samples:
        v[(s.name, s.labels.get("counter") or s.labels.get("kind") or s.labels.get("scheme"))] = s.value
print("applied", int(v[("damon_effect_scheme_applied_bytes", "0")]),
      "tried", int(v[("damon_effect_scheme_tried_bytes", "0")]))
print("Cached", int(v[("damon_effect_memory_change_bytes", "Cached")]))
print("MemFree", int(v[("damon_effect_memory_change_bytes", "MemFree")]))
print("nr_file_pages", int(v[("damon_effect_memory_change_bytes", "nr_file_pages")]))
print("workingset_refault_file", int(v[("damon_effect_vmstat_change", "workingset_refault_file")]))
print("some_us", round(v[("damon_effect_pressure_stall_seconds", "some")] * 1e6))
'
}

@test "report effect --json and --format openmetrics carry the text's numbers; prometheus_client parses them" {
	local pages=$((-40000 * $(getconf PAGESIZE)))
	fresh
	change_later
	run damoctl --json report effect duration 2s
	wait
	assert_success
	run effect_json "$output"
	assert_success
	assert_output "applied 163840000 tried 209715200
Cached -163840000
MemFree 163840000
nr_file_pages $pages
workingset_refault_file 80
some_us 50000
rose MemFree,workingset_refault_file,pressure_some
fell Cached,nr_file_pages"
	fresh
	change_later
	run damoctl report effect duration 2s --format openmetrics --output "$BATS_TEST_TMPDIR/effect.prom"
	wait
	assert_success
	run effect_metrics < "$BATS_TEST_TMPDIR/effect.prom"
	assert_success
	assert_output "applied 163840000 tried 209715200
Cached -163840000
MemFree 163840000
nr_file_pages $pages
workingset_refault_file 80
some_us 50000"
	# the Prometheus text format, as node_exporter's collector reads it
	fresh
	run damoctl report effect duration 100ms --format prometheus
	assert_success
	run /usr/bin/python3 -c '
import sys
from prometheus_client.parser import text_string_to_metric_families
print(len(list(text_string_to_metric_families(sys.stdin.read()))))' <<<"$output"
	assert_success
	assert_output 9
}

@test "report effect: a scheme replaced during the window has no delta, said so" {
	fresh
	put "$(CTX)/schemes/1/stats/sz_applied" 4096
	( sleep 0.2; put "$(CTX)/schemes/1/action" cold; ) &
	run damoctl report effect duration 2s
	wait
	assert_success
	assert_line --regexp '^1 +cold +changed during the window'
	# cold's events are shown too
	assert_line --regexp '^  pgmajfault +\+0$'
}

@test "report effect: bad words are usage errors" {
	fresh
	run damoctl report effect duration 0
	assert_failure 2
	assert_output "damoctl: report effect: duration: '0' is not a time above 0 (units: us ms s m h; bare: s)"
	run damoctl report effect frob 1
	assert_failure 2
	assert_output "damoctl: report effect: unknown keyword 'frob' (expected duration, --format or --output)"
	run damoctl report effect --format xml
	assert_failure 2
	run damoctl report effect duration
	assert_failure 2
	assert_output "damoctl: report effect: duration: expected a value"
}

@test "report effect: the completion offers the keywords its refusal lists, and --format's values" {
	run "$DAMOCTL" --root "$ROOT" report effect frob 1
	diff <(sed -n 's/.*(expected \(.*\))$/\1/p' <<<"$output" | sed 's/, \| or /\n/g') \
		<("$DAMOCTL" --complete -- report effect "") || fail "keywords differ"
	[ "$("$DAMOCTL" --complete -- report effect --format "" | tr '\n' ' ')" = "text openmetrics prometheus " ]
	"$DAMOCTL" --complete -- report "" | grep -qx effect
}

@test "report effect: a writer does not wait for the window (the lock is let go while it waits)" {
	fresh
	( "$DAMOCTL" --root "$ROOT" report effect duration 3s > "$BATS_TEST_TMPDIR/effect.out" 2>&1
	  echo $? > "$BATS_TEST_TMPDIR/effect.rc" ) &
	local reader=$!
	sleep 1
	run damoctl --wait 0 scheme add stat
	assert_success
	wait "$reader"
	[ "$(cat "$BATS_TEST_TMPDIR/effect.rc")" = 0 ] || fail "$(cat "$BATS_TEST_TMPDIR/effect.out")"
}
