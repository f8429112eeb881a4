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

# A tracefs of plain files with one complete aggregation of kdamond 4242.
make_trace() {	# DIR
	local t=$1
	put "$t/events/damon/damon_aggregated/enable" 0
	cat > "$t/trace" <<-'EOT'
	# tracer: nop
	      kdamond.0-4242    [001] .....   10.100000: damon_aggregated: target_id=0 nr_regions=1 4096-8192: 1 1
	      kdamond.0-4242    [001] .....   10.200000: damon_aggregated: target_id=0 nr_regions=1 4096-8192: 18 2
	      kdamond.0-4242    [001] .....   10.300000: damon_aggregated: target_id=0 nr_regions=1 4096-8192: 19 3
	EOT
}

# The shipped damoctl: the test build's fake kernel reads a tree as it
# stands and makes no tracing instance; the shipped one does what it does
# on a kernel.
@test "report access source trace: a signal while it traces waits until the tracepoint's enable is put back" {
	rm -rf "$ROOT"
	make_sysfs on 1
	# two aggregation intervals of 1 s to wait: time for the Ctrl-C
	put "$ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/monitoring_attrs/intervals/aggr_us" 1000000
	make_trace "$ROOT/sys/kernel/tracing"
	en="$ROOT/sys/kernel/tracing/events/damon/damon_aggregated/enable"
	"$DAMOCTL_SHIPPED" --root "$ROOT" report access source trace > "$BATS_TEST_TMPDIR/out" 2>&1 &
	pid=$!
	for _ in $(seq 100); do [ "$(cat "$en")" = 1 ] && break; sleep 0.02; done
	[ "$(cat "$en")" = 1 ] || fail "the tracepoint was never enabled"
	# SIGTERM: bash starts a background job with SIGINT ignored; the
	# same mask holds SIGINT, SIGTERM, SIGHUP and SIGQUIT
	kill -TERM "$pid"
	st=0
	wait "$pid" || st=$?
	# it ends by the signal, as before, but after putting things back
	[ "$st" = 143 ] || fail "status $st: $(cat "$BATS_TEST_TMPDIR/out")"
	[ "$(cat "$en")" = 0 ]
}

@test "report access source trace: a tracing directory that is a symlink out of --root makes nothing there" {
	rm -rf "$ROOT"
	make_sysfs on 1
	out="$BATS_TEST_TMPDIR/outside"
	make_trace "$out"
	mkdir "$out/instances"
	ln -s "$out" "$ROOT/sys/kernel/tracing"
	before=$(cd "$out" && find . | sort; md5sum events/damon/damon_aggregated/enable)
	# the lock's directory (run/damos) is made once, below the root: not here
	mkdir -p -m 0700 "$ROOT/run/damos"
	# a directory made there and removed again leaves no trace: strace sees it
	run env ASAN_OPTIONS=detect_leaks=0 strace --seccomp-bpf -f -qq -e trace=mkdir,mkdirat \
		-o "$BATS_TEST_TMPDIR/st" "$DAMOCTL_SHIPPED" --root "$ROOT" report access source trace
	assert_failure
	[ "$(cd "$out" && find . | sort; md5sum events/damon/damon_aggregated/enable)" = "$before" ] ||
		fail "changed outside the root: $(ls -la "$out/instances")"
	run grep -E '^[0-9]+ +mkdir.*= 0$' "$BATS_TEST_TMPDIR/st"
	assert_failure
}

@test "report access source trace: the tracing instance is made and removed below --root" {
	rm -rf "$ROOT"
	make_sysfs on 1
	make_trace "$ROOT/sys/kernel/tracing"
	mkdir "$ROOT/sys/kernel/tracing/instances"
	run "$DAMOCTL_SHIPPED" --root "$ROOT" report access source trace
	# an instance of plain files has no tracepoint: refused, and removed
	assert_failure
	assert_output --partial "instances/damos-"
	[ -z "$(ls -A "$ROOT/sys/kernel/tracing/instances")" ]
}
