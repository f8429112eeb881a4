#!/usr/bin/env bats
# stats show --watch: rates since the last frame beside the totals.  A
# writer plays the kernel: once two frames are out, the counters rise by
# known amounts; whatever the timing, the frames' quota exceeds add up to
# the rise, and one frame has the bytes per second of it.

load helper

LINE="4096 8192 0 5 10 20 2 0 0 0 0 0 0 0 0 0 0 0"

setup() {
	ROOT="$BATS_TEST_TMPDIR/root"
	mkdir -p "$ROOT"
	make_dbgfs
	echo "$LINE 1 4096 2 8192 3" > "$ROOT/sys/kernel/debug/damon/schemes"
}

# rise_after FILE LINES: once FILE has LINES lines, raise the counters
rise_after() {
	local i
	for ((i = 0; i < 200; i++)); do
		[ "$(wc -l < "$1")" -ge "$2" ] && break
		sleep 0.05
	done
	echo "$LINE 11 1052672 7 532480 8" > "$ROOT/sys/kernel/debug/damon/schemes"
}

@test "stats show --json --watch: rates from the second frame on; quota exceeds add up to the rise" {
	out=$BATS_TEST_TMPDIR/out
	: > "$out"
	rise_after "$out" 2 &
	damoctl --json stats show --watch 50ms --count 20 > "$out"
	wait
	run /usr/bin/python3 -c '
import json, sys
frames = [json.loads(l)[0] for l in open(sys.argv[1])]
assert len(frames) == 20, len(frames)
assert "rates" not in frames[0], frames[0]
assert all("rates" in f for f in frames[1:]), frames
r = [f["rates"] for f in frames[1:]]
print("qt_exceeds", sum(x["qt_exceeds"] for x in r))
rise = [x for x in r if x["applied_bytes_per_second"]]
assert len(rise) == 1, r
x = rise[0]
# 1 MiB tried and 512 KiB applied in interval_us
assert x["tried_bytes_per_second"] == 1048576 * 1000000 // x["interval_us"], x
assert x["applied_bytes_per_second"] == 524288 * 1000000 // x["interval_us"], x
print("totals", frames[-1]["sz_tried"], frames[-1]["sz_applied"], frames[-1]["qt_exceeds"])
' "$out"
	assert_success
	assert_line "qt_exceeds 5"
	assert_line "totals 1052672 532480 8"
}

@test "stats show --watch (text): rate columns beside the totals, '-' in the first frame; without --watch none" {
	run damoctl stats show
	assert_success
	refute_output --partial "tried/s"
	run damoctl stats show --watch 10ms --count 2
	assert_success
	assert_line --index 0 --regexp '^#   action +nr_tried +sz_tried +nr_applied +sz_applied +qt_exceeds +tried/s +applied/s +qt_exc$'
	assert_line --index 1 --regexp '^0 +pageout +1 +4096 +2 +8192 +3 +- +- +-$'
	assert_line --regexp '^0 +pageout +1 +4096 +2 +8192 +3 +0 +0 +0$'
}

@test "stats show --watch: a counter that went back (a restarted kdamond) gives no rate for that frame" {
	echo "$LINE 100 409600 50 204800 30" > "$ROOT/sys/kernel/debug/damon/schemes"
	out=$BATS_TEST_TMPDIR/out
	: > "$out"
	rise_after "$out" 2 &
	damoctl --json stats show --watch 50ms --count 20 > "$out"
	wait
	run /usr/bin/python3 -c '
import json, sys
frames = [json.loads(l)[0] for l in open(sys.argv[1])]
print("without rates", sum("rates" not in f for f in frames))
' "$out"
	assert_output "without rates 2"
}
