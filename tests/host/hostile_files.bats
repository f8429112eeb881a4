#!/usr/bin/env bats
# Files damoctl writes on hostile ground (issue 45): report heatmap --data
# replaces a symlink planted at FILE instead of writing through it, as
# --output does; the image and the data are 0644, as the metrics' --output.

load helper
load report

setup() {
	ROOT="$BATS_TEST_TMPDIR/root"
	mkdir -p "$ROOT"
	make_612 on 1
	stat_all 0 <<-EOF
	16777216 17825792 20 3
	EOF
}

@test "report heatmap --data: a symlink at FILE is replaced, its target untouched" {
	echo precious > "$BATS_TEST_TMPDIR/target"
	ln -s "$BATS_TEST_TMPDIR/target" "$BATS_TEST_TMPDIR/h.dat"
	run damoctl report heatmap duration 200ms --data "$BATS_TEST_TMPDIR/h.dat"
	assert_success
	[ "$(cat "$BATS_TEST_TMPDIR/target")" = precious ]
	[ ! -L "$BATS_TEST_TMPDIR/h.dat" ]
	[ -s "$BATS_TEST_TMPDIR/h.dat" ]
	# no temporary file is left beside it
	[ "$(ls -A "$BATS_TEST_TMPDIR" | grep -c '^\.h\.dat\.')" = 0 ]
}

@test "report heatmap: the image and the data are 0644 whatever mkstemp made, as the metrics' --output" {
	umask 022
	run damoctl report heatmap duration 200ms --output "$BATS_TEST_TMPDIR/h.png" --data "$BATS_TEST_TMPDIR/h.dat"
	assert_success
	[ "$(stat -c %a "$BATS_TEST_TMPDIR/h.png")" = 644 ]
	[ "$(stat -c %a "$BATS_TEST_TMPDIR/h.dat")" = 644 ]
	[ "$(ls -A "$BATS_TEST_TMPDIR" | grep -c '^\.h\.')" = 0 ]
}
