#!/usr/bin/env bats
# damoctl report heatmap against a 6.12 fake tree whose stat scheme lists
# tried regions (tests/host/report.bash): a hot range (every sample found
# it accessed) beside a cold one, and a third range after a gap.  The
# matrix is checked from --json and from the data gnuplot draws (--data);
# the image from its header.  tests/guest/report.bats draws a real
# kernel's view of hotcold.

load helper
load report

HOT=16777216	# 16M..17M: 20 of 20 samples
COLD=17825792	# 17M..21M: none
FAR=67108864	# 64M..65M after a gap: 5 of 20

setup() {
	ROOT="$BATS_TEST_TMPDIR/root"
	mkdir -p "$ROOT"
	make_612 on 1
	stat_all 0 <<-EOF
	$HOT $COLD 20 3
	$COLD 22020096 0 50
	$FAR 68157440 5 1
	EOF
}

# The kernel replaces a tried region's file whole; so does this (a
# reader never sees it empty).
set_accesses() {	# REGION NR
	local f
	f="$(CTX)/schemes/0/tried_regions/$1/nr_accesses"
	echo "$2" > "$f.new" && mv "$f.new" "$f"
}

# mean_rates JSON LO HI: the mean access rate of the matrix's cells that
# lie in [LO, HI), each row, one line a row
mean_rates() {
	python3 - "$@" <<'PY'
import json, sys
d = json.loads(sys.argv[1])
lo, hi = int(sys.argv[2]), int(sys.argv[3])
a = d["address"]
cols = [j for j in range(d["columns"]) if a[j] >= lo and a[j + 1] <= hi]
assert cols, "no column in the range"
for row in d["access_rate_percent"]:
    v = [row[j] for j in cols]
    assert None not in v, row
    print("%.1f" % (sum(v) / len(v)))
PY
}

@test "report heatmap --json: rows of the snapshots, columns of the hottest span without a gap, the hot range hotter than the cold one" {
	before=$(tree_sum)
	run damoctl --json report heatmap duration 500ms resol 100 48
	assert_success
	json=$output
	run python3 - "$json" <<'PY'
import json, sys
d = json.loads(sys.argv[1])
assert d["source"] == "tried" and d["max_nr_accesses"] == 20, d
# one snapshot an aggregation interval (100 ms) at most: rows are clamped to them
assert 2 <= d["nr_snapshots"] <= 6 and d["rows"] == d["nr_snapshots"], d
assert d["columns"] == 48 and len(d["address"]) == 49, d
# the span 16M..21M (the one with 64M..65M is cooler), cut evenly
assert d["address_start"] == 16777216 and d["address_end"] == 22020096, d
assert d["address"][0] == d["address_start"] and d["address"][-1] == d["address_end"], d
assert d["address"] == sorted(d["address"]), d
assert d["time_us"] == sorted(d["time_us"]) and len(d["time_us"]) == d["rows"], d
assert all(len(r) == 48 for r in d["access_rate_percent"]), d
print("ok")
PY
	assert_output ok
	run mean_rates "$json" $HOT $COLD
	assert_success
	[ "$(sort -u <<<"$output")" = 100.0 ] || fail "hot range: $output"
	run mean_rates "$json" $COLD 22020096
	[ "$(sort -u <<<"$output")" = 0.0 ] || fail "cold range: $output"
	# the column across 17M holds both, weighted by their bytes
	run python3 -c '
import json, sys
d = json.loads(sys.argv[1])
a, hot_end = d["address"], 17825792
j = next(j for j in range(d["columns"]) if a[j] < hot_end < a[j + 1])
want = 100.0 * (hot_end - a[j]) / (a[j + 1] - a[j])
got = d["access_rate_percent"][0][j]
assert abs(got - want) < 0.01, (got, want)
print("ok")' "$json"
	assert_output ok
	[ "$(tree_sum)" = "$before" ] || fail "the tree changed"
}

@test "report heatmap: time runs down the rows (the cold range warms up while it records)" {
	( sleep 0.5; set_accesses 1 10 ) &
	run damoctl --json report heatmap duration 2s address $COLD 22020096 resol 100 8
	wait
	assert_success
	run mean_rates "$output" $COLD 22020096
	assert_success
	echo "$output"
	[ "${lines[0]}" = 0.0 ] || fail "first row: ${lines[0]}"
	[ "${lines[-1]}" = 50.0 ] || fail "last row: ${lines[-1]}"
	# in order: no 50 before a 0
	[ "$(printf '%s\n' "${lines[@]}" | sort -n)" = "$output" ] || fail "not in time order"
}

@test "report heatmap address START END: the range asked for, in hex, decimal or with a unit; a range without a region is blank; no column narrower than a byte" {
	run damoctl --json report heatmap duration 200ms address 0x1000000 17M resol 1 4
	assert_success
	run python3 -c '
import json, sys
d = json.loads(sys.argv[1])
assert (d["address_start"], d["address_end"]) == (16777216, 17825792), d
print(d["access_rate_percent"])' "$output"
	assert_output "[[100.0, 100.0, 100.0, 100.0]]"
	# the gap between 21M and 64M, and 64M..65M at a quarter
	run damoctl --json report heatmap duration 200ms address 21M 65M resol 1 44
	assert_success
	run python3 -c '
import json, sys
r = json.loads(sys.argv[1])["access_rate_percent"][0]
print(r.count(None), r[-1])' "$output"
	assert_output "43 25.0"
	# 5 bytes in 80 columns: a column a byte
	run damoctl --json report heatmap duration 200ms address 16M 0x1000005 resol 1 80
	assert_success
	run python3 -c '
import json, sys
d = json.loads(sys.argv[1])
print(d["columns"], d["address"], d["access_rate_percent"])' "$output"
	assert_output "5 [16777216, 16777217, 16777218, 16777219, 16777220, 16777221] [[100.0, 100.0, 100.0, 100.0, 100.0]]"
}

@test "report heatmap --data: the matrix gnuplot draws, cell for cell the --json matrix" {
	run damoctl --json report heatmap duration 300ms resol 100 20 --data "$BATS_TEST_TMPDIR/h.dat"
	assert_success
	json=$output
	run python3 - "$json" "$BATS_TEST_TMPDIR/h.dat" <<'PY'
import json, math, sys
d = json.loads(sys.argv[1])
rows = [l.split() for l in open(sys.argv[2]) if l.strip() and not l.startswith("#")]
assert len(rows) == d["rows"] * d["columns"], len(rows)
k = 0
for i, t in enumerate(d["time_us"]):
    for j in range(d["columns"]):
        ts, addr, heat = rows[k]
        k += 1
        assert abs(float(ts) - t / 1e6) < 1e-6 and int(addr) == d["address"][j], rows[k - 1]
        want = d["access_rate_percent"][i][j]
        assert (heat == "NaN") if want is None else abs(float(heat) - want) < 0.001, (heat, want)
print("ok")
PY
	assert_output ok
	# the hot range hotter than the cold one, in the data
	run awk -v h=$HOT -v c=$COLD '!/^#/ && NF == 3 {
		if ($2 >= h && $2 < c) { hs += $3; hn++ } else if ($2 >= c + 1048576) { cs += $3; cn++ } }
		END { printf "%d %d %s\n", hn, cn, (hn && cn && hs / hn > cs / cn) ? "hotter" : "not" }' "$BATS_TEST_TMPDIR/h.dat"
	assert_output --regexp '^[1-9][0-9]* [1-9][0-9]* hotter$'
}

# png_size FILE: width and height from the IHDR chunk
png_size() {
	python3 -c '
import struct, sys
b = open(sys.argv[1], "rb").read(24)
assert b[:8] == b"\x89PNG\r\n\x1a\n" and b[12:16] == b"IHDR", b
print("%dx%d" % struct.unpack(">II", b[16:24]))' "$1"
}

svg_size() {
	python3 -c '
import sys, xml.etree.ElementTree as ET
r = ET.parse(sys.argv[1]).getroot()
assert r.tag.endswith("svg"), r.tag
print("%sx%s" % (r.get("width"), r.get("height")))' "$1"
}

@test "report heatmap --output FILE.png / .svg: gnuplot's image of the size asked for, its axes labelled, the data it drew kept with --data" {
	cd "$BATS_TEST_TMPDIR"
	run damoctl report heatmap duration 300ms --output "$BATS_TEST_TMPDIR/h.png" size 640 400 --data "$BATS_TEST_TMPDIR/png.dat"
	assert_success
	assert_output --regexp "h.png: 640x400 pixels, [0-9]+ rows x 200 columns of [0-9]+ snapshots$"
	run png_size h.png
	assert_output 640x400
	grep -q "^0\.[0-9]* $HOT 100\.000$" png.dat || fail "the hot range is not in the data"
	run damoctl report heatmap duration 300ms --output "$BATS_TEST_TMPDIR/it's.svg" size 500 300
	assert_success
	run svg_size "it's.svg"
	assert_output 500x300
	grep -q "Time (s)" "it's.svg" || fail "no time axis label"
	grep -q "Address (bytes from 0x1000000)" "it's.svg" || fail "no address axis label"
	# the default size; the temporary data file is gone
	export TMPDIR="$BATS_TEST_TMPDIR/tmp"
	mkdir "$TMPDIR"
	run damoctl report heatmap duration 200ms --output "$BATS_TEST_TMPDIR/d.SVG"
	assert_success
	run svg_size d.SVG
	assert_output 800x600
	run ls -A "$TMPDIR"
	assert_output ""
	# nothing but the files asked for
	run ls -A "$BATS_TEST_TMPDIR"
	assert_output "d.SVG
h.png
it's.svg
png.dat
root
tmp"
}

@test "report heatmap --output without gnuplot: fails naming gnuplot before it records; the terminal heatmap needs none" {
	mkdir "$BATS_TEST_TMPDIR/bin"
	PATH="$BATS_TEST_TMPDIR/bin" run "$DAMOCTL" --root "$ROOT" report heatmap duration 10s --output "$BATS_TEST_TMPDIR/h.png"
	assert_failure 1
	assert_output "damoctl: report heatmap: --output $BATS_TEST_TMPDIR/h.png: gnuplot draws the image and is not on PATH (Debian: apt install gnuplot-nox); the terminal heatmap needs none"
	[ ! -e "$BATS_TEST_TMPDIR/h.png" ]
	PATH="$BATS_TEST_TMPDIR/bin" COLUMNS=80 run "$DAMOCTL" --root "$ROOT" report heatmap duration 200ms
	assert_success
	assert_line --regexp '^ +0\.[0-9]s 9+'
}

@test "report heatmap --output: a gnuplot that fails leaves no file and its message is shown" {
	mkdir "$BATS_TEST_TMPDIR/bin"
	# as gnuplot does: the command echoed, then the reason; it reads none of its input
	printf '#!/bin/sh\necho "gnuplot> set terminal png" >&2\necho "         line 0: unknown terminal type" >&2\necho >&2\nexit 1\n' > "$BATS_TEST_TMPDIR/bin/gnuplot"
	chmod +x "$BATS_TEST_TMPDIR/bin/gnuplot"
	PATH="$BATS_TEST_TMPDIR/bin:$PATH" run "$DAMOCTL" --root "$ROOT" report heatmap duration 200ms --output "$BATS_TEST_TMPDIR/out/h.png"
	assert_failure 1
	assert_output --partial "No such file or directory"
	mkdir "$BATS_TEST_TMPDIR/out"
	PATH="$BATS_TEST_TMPDIR/bin:$PATH" run "$DAMOCTL" --root "$ROOT" report heatmap duration 200ms --output "$BATS_TEST_TMPDIR/out/h.png"
	assert_failure 1
	assert_output "damoctl: report heatmap: gnuplot failed (status 1): line 0: unknown terminal type"
	run ls -A "$BATS_TEST_TMPDIR/out"
	assert_output ""
}

# the display width of each line, escapes dropped
widths() {
	python3 -c '
import re, sys
for l in sys.stdin.read().split("\n")[:-1]:
    print(len(re.sub(r"\x1b\[[0-9;]*m", "", l)))'
}

@test "report heatmap in the terminal: fits COLUMNS=80 (and 60), digits over the hot range 9 and over the cold one 0" {
	COLUMNS=80 LINES=24 run damoctl report heatmap duration 400ms
	assert_success
	echo "$output"
	max=$(widths <<<"$output" | sort -n | tail -1)
	[ "$max" -le 80 ] || fail "a line of $max columns"
	[ "$max" -ge 70 ] || fail "the heatmap does not use the width: $max"
	# 72 columns over 16M..21M: the first 14 (16M..17M) hot, 15 on cold
	assert_line --index 0 --regexp '^ +0\.[0-9]s 9{14}[0-9]0{57}$'
	assert_line --regexp '^x: address 0x1000000-0x1500000 \(5M\), 72 columns$'
	assert_line --regexp '^0-9: access rate, 9 = 100%'
	refute_output --partial $'\e['
	COLUMNS=60 run damoctl report heatmap duration 300ms
	assert_success
	max=$(widths <<<"$output" | sort -n | tail -1)
	[ "$max" -le 60 ] || fail "a line of $max columns"
	# and the terminal's rows: LINES=8 leaves 4 for the matrix
	COLUMNS=80 LINES=8 run damoctl report heatmap duration 800ms
	assert_success
	[ "${#lines[@]}" -le 8 ] || fail "${#lines[@]} lines"
}

@test "report heatmap color: blocks in colour, always or on a terminal whose TERM has colours; digits otherwise" {
	LC_ALL=C.UTF-8 COLUMNS=80 run damoctl report heatmap duration 200ms color always
	assert_success
	assert_output --partial $'\e[91m\u2588'
	max=$(LC_ALL=C.UTF-8 widths <<<"$output" | sort -n | tail -1)
	[ "$max" -le 80 ] || fail "a line of $max columns"
	COLUMNS=80 TERM=xterm-256color run damoctl report heatmap duration 200ms color always
	assert_output --partial $'\e[38;5;196m'
	# auto: a pipe gets digits
	TERM=xterm-256color run damoctl report heatmap duration 200ms
	refute_output --partial $'\e['
	# auto on a terminal: colour, unless TERM is dumb or NO_COLOR is set
	cmd="'$DAMOCTL' --root '$ROOT' report heatmap duration 200ms"
	TERM=xterm-256color COLUMNS=80 run script -qec "$cmd" /dev/null
	assert_output --partial $'\e[38;5;'
	TERM=dumb COLUMNS=80 run script -qec "$cmd" /dev/null
	refute_output --partial $'\e['
	assert_output --regexp $'(^|\n) +0\\.[0-9]s 9+'
	TERM=xterm-256color NO_COLOR=1 COLUMNS=80 run script -qec "$cmd" /dev/null
	refute_output --partial $'\e['
	TERM=xterm-256color COLUMNS=80 run script -qec "$cmd color never" /dev/null
	refute_output --partial $'\e['
}

@test "report heatmap on a terminal: a progress line while it records for longer than a second" {
	TERM=dumb COLUMNS=80 run script -qec "'$DAMOCTL' --root '$ROOT' report heatmap duration 1500ms" /dev/null
	assert_success
	assert_output --regexp $'\rreport heatmap: [0-9]+ snapshots, 1 s of 1 s'
	# and none on a pipe
	COLUMNS=80 run damoctl report heatmap duration 1200ms
	refute_output --partial "snapshots, "
}

@test "report heatmap: bad keywords and values are usage errors that name them" {
	bad() {	# MESSAGE ARGS...
		local want=$1
		shift
		run damoctl report heatmap "$@"
		assert_failure 2
		assert_output "damoctl: report heatmap: $want"
	}
	bad "unknown keyword 'frob' (expected duration, resol, address, source, color, size, --output, --data or --input)" frob 1
	bad "duration: '5x' is not a time above 0 (units: us ms s m h; bare: s)" duration 5x
	bad "duration: '0' is not a time above 0 (units: us ms s m h; bare: s)" duration 0
	bad "resol: '0' is not a number of time rows (1 to 10000)" resol 0 80
	bad "resol: 'many' is not a number of address columns (1 to 10000)" resol 10 many
	bad "resol: expected two values" resol 10
	bad "address: '0xzz' is not an address" address 0xzz 0x100
	bad "address: the end '0x10' is not above the start '0x20'" address 0x20 0x10
	bad "source: 'kernel' is not one of auto, tried, trace" source kernel
	bad "color: 'rainbow' is not one of auto, always, never" color rainbow
	bad "--output: 'h.pdf' is not a .png or .svg file name" --output h.pdf
	bad "--output: 'png' is not a .png or .svg file name" output png
	bad "size: '10' is not an image width (64 to 10000 pixels)" size 10 600 --output h.png
	bad "size: is the size of --output's image; no --output given" size 640 480
	bad "--data: expected a value" --data
}

@test "report heatmap on a stopped kdamond says that a snapshot needs a running one" {
	echo off > "$ROOT/sys/kernel/mm/damon/admin/kdamonds/0/state"
	run damoctl report heatmap duration 200ms
	assert_failure 1
	assert_output "damoctl: report heatmap: monitoring is off: a snapshot needs a running kdamond"
}

@test "report heatmap: Ctrl-C ends the recording early and shows what it recorded" {
	"$DAMOCTL" --root "$ROOT" --json report heatmap duration 60s > "$BATS_TEST_TMPDIR/out" 2>&1 &
	pid=$!
	sleep 1
	kill -INT $pid
	SECONDS=0
	wait $pid || fail "status $?: $(cat "$BATS_TEST_TMPDIR/out")"
	[ "$SECONDS" -le 5 ] || fail "it went on for $SECONDS s after Ctrl-C"
	run python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert 1 <= d["nr_snapshots"] <= 30 and d["rows"] == d["nr_snapshots"], d
print("ok")' "$BATS_TEST_TMPDIR/out"
	assert_output ok
}
