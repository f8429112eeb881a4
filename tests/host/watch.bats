#!/usr/bin/env bats
# --watch SECONDS [--count N] on stats, monitor status and lru-sort status:
# frames one after the other on a pipe, in place on a terminal.

load helper
load pty

setup() {
	ROOT="$BATS_TEST_TMPDIR/root"
	mkdir -p "$ROOT"
	make_dbgfs
	echo "4096 8192 0 5 10 20 2 0 0 0 0 0 0 0 0 0 0 0 1 4096 2 8192 3" > \
		"$ROOT/sys/kernel/debug/damon/schemes"
}

@test "stats --watch --count: N tables, a blank line between them" {
	run damoctl stats --watch 10ms --count 3
	assert_success
	[ "$(grep -c '^#   action' <<<"$output")" = 3 ]
	[ "$(grep -c '^$' <<<"$output")" = 2 ]
	run damoctl stats show --watch 0.01 --count 2
	assert_success
	[ "$(grep -c '^0 +pageout' -E <<<"$output")" = 2 ]
}

@test "--json --watch: one document a line" {
	run damoctl --json stats --watch 10ms --count 2
	assert_success
	[ "${#lines[@]}" = 2 ]
	assert_line --index 0 '[{"index":0,"action":"pageout","nr_tried":1,"sz_tried":4096,"nr_applied":2,"sz_applied":8192,"qt_exceeds":3}]'
	# from the second frame on, the rates since the last one
	assert_line --index 1 --regexp '^\[\{"index":0,"action":"pageout","nr_tried":1,"sz_tried":4096,"nr_applied":2,"sz_applied":8192,"qt_exceeds":3,"rates":\{"interval_us":[0-9]+,"tried_bytes_per_second":0,"applied_bytes_per_second":0,"qt_exceeds":0\}\}\]$'
}

@test "monitor status --watch" {
	run damoctl monitor status --watch 10ms --count 2
	assert_success
	[ "$(grep -c '^off (dbgfs)$' <<<"$output")" = 2 ]
	run damoctl monitor --watch 10ms --count 2
	assert_success
}

@test "bad --watch and --count values, --watch where it does not belong" {
	run damoctl stats --watch
	assert_failure 2
	assert_output "damoctl: stats show: --watch: expected a value"
	run damoctl stats --watch 5x
	assert_failure 2
	run damoctl stats --watch 0
	assert_failure 2
	run damoctl stats --watch 1 --count 0
	assert_failure 2
	run damoctl scheme list --watch 1
	assert_failure 2
}

@test "an error ends the watch with its status" {
	run damoctl --interface sysfs stats --watch 10ms --count 5
	assert_failure 1
	[ "${#lines[@]}" = 1 ]
}

@test "on a terminal: a header, the frame redrawn in place, Ctrl-C ends it with 0" {
	pty_setup
	session stats --watch 100ms <<'EOF'
expect -ex "\033\[H\033\[J"
expect "Every 100ms: damoctl stats show --watch 100ms"
expect "pageout"
expect -ex "\033\[H\033\[J"
expect "pageout"
send "\x03"
EOF
	assert_success
}

@test "--watch among other words, from a batch line: each word freed once" {
	cd "$BATS_TEST_TMPDIR"
	printf '%s\n' "stats show x --watch 10ms --count 1" "stats --watch 10ms --count 1" > b
	run damoctl --force -f b
	assert_failure 2
	assert_line --index 0 "damoctl: b:1: stats show: no arguments expected, got 'x'"
	assert_line --regexp '^0 +pageout'
	refute_output --partial "free()"
}
