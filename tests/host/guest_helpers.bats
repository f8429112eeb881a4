#!/usr/bin/env bats
# The in-guest suites' feature gate (tests/guest/helpers/common.bash: need,
# kconfig), run on the host against made-up kernel configs: a feature the
# config lacks is a skip with its reason, a missing config is a failure.
# Nothing here touches a kernel: the helpers only test paths for existence.

setup() {
	mkdir -p "$BATS_TEST_TMPDIR/suite/helpers"
	cp "$BATS_TEST_DIRNAME"/../guest/helpers/common.bash "$BATS_TEST_TMPDIR/suite/helpers/"
	# (printf: a line of this file starting with the test keyword would
	# be taken by bats as a test of this file)
	printf '%s\n' 'load helpers/common' '@test "gate" {' '	need damon paddr' '}' \
		>"$BATS_TEST_TMPDIR/suite/gate.bats"
}

gate() {	# gate CONFIG-LINES...: run the suite with that kernel.config
	if [ $# -gt 0 ]; then
		printf '%s\n' "$@" >"$BATS_TEST_TMPDIR/suite/kernel.config"
	fi
	run bats --tap "$BATS_TEST_TMPDIR/suite/gate.bats"
}

@test "need: a kernel built without DAMON skips, naming the option" {
	gate '# CONFIG_DAMON is not set'
	[ "$status" = 0 ]
	[[ $output == *"ok 1 gate # skip kernel lacks: damon (CONFIG_DAMON is not set"* ]]
}

@test "need: a kernel with every feature runs the test" {
	gate CONFIG_DAMON=y CONFIG_DAMON_PADDR=y
	[ "$status" = 0 ]
	[[ $output == *"ok 1 gate"* ]]
	[[ $output != *"# skip"* ]]
}

@test "need: no kernel config fails the test, it is not a skip for a kernel without DAMON" {
	gate
	[ "$status" != 0 ]
	[[ $output == *"not ok 1 gate"* ]]
	[[ $output == *"cannot tell what this kernel has"* ]]
	[[ $output != *"# skip"* ]]
}

@test "kconfig: one grep per symbol for the whole run, the answer the same in every later test" {
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	# a grep that counts its calls, then does the real thing
	printf '#!/bin/sh\necho x >>"%s/greps"\nexec /bin/grep "$@"\n' "$BATS_TEST_TMPDIR" \
		>"$BATS_TEST_TMPDIR/bin/grep"
	chmod +x "$BATS_TEST_TMPDIR/bin/grep"
	printf '%s\n' 'CONFIG_DAMON=y' '# CONFIG_DAMON_DBGFS is not set' >"$BATS_TEST_TMPDIR/suite/kernel.config"
	{
		echo 'load helpers/common'
		for i in 1 2 3; do
			printf '@test "t%s" {\n\tkconfig DAMON\n\t! kconfig DAMON_DBGFS\n\t! kconfig DAMON_SYSFS\n}\n' "$i"
		done
	} >"$BATS_TEST_TMPDIR/suite/cache.bats"
	run env PATH="$BATS_TEST_TMPDIR/bin:$PATH" bats --tap "$BATS_TEST_TMPDIR/suite/cache.bats"
	echo "$output"
	[ "$status" = 0 ]
	[[ $output == *"ok 3 t3"* ]]
	[ "$(wc -l < "$BATS_TEST_TMPDIR/greps")" = 3 ]
}

fail_older() { echo "kernel_at_least $1 took $2 as $1 or later"; return 1; }

@test "kernel_at_least: compares the version before the first '-' or '+' of the release" {
	source "$BATS_TEST_DIRNAME"/../guest/helpers/common.bash 2>/dev/null || true
	kernel_at_least 6.2 6.12.118+deb12-amd64
	kernel_at_least 6.11 6.12.118-damos-debug
	kernel_at_least 6.1 6.1.192-damos
	kernel_at_least 6.12.118 6.12.118+deb12-amd64
	if kernel_at_least 6.12.119 6.12.118+deb12; then fail_older 6.12.119 6.12.118+deb12; fi
	if kernel_at_least 6.2 6.1.192-damos; then fail_older 6.2 6.1.192-damos; fi
	if kernel_at_least 6.11 6.1.0-57-amd64; then fail_older 6.11 6.1.0-57-amd64; fi
}

# on KVER KIMAGE ALSO SCOPE: what runs_on_debian_612 SCOPE does on that
# kernel of a make check whose other kernels are ALSO: "runs", or the skip
on() {
	( skip() { echo "skip $*"; exit 0; }
	  fail() { echo "fail $*"; exit 1; }
	  KVER=$1 KIMAGE=$2 MATRIX_ALSO=$3 runs_on_debian_612 "$4"; echo runs )
}

@test "runs_on_debian_612: on patched 6.12 (numa: where Debian's boots the two-node machine) and, for damoctl's own files, on every kernel; only where the same make check runs Debian's 6.12" {
	source "$BATS_TEST_DIRNAME"/../guest/helpers/common.bash 2>/dev/null || true
	local all="6.1:patched:0 6.12:debian:1 6.1:debian:0" why
	for scope in sysfs snapshots numa any; do
		why=$(on 6.12 patched "$all" $scope)
		[[ $why == "skip runs on Debian's 6.12 only (this make check): "* ]] ||
			{ echo "patched 6.12, $scope: $why"; return 1; }
		# a check-guest of its own, or a matrix without Debian's 6.12: it runs
		[ "$(on 6.12 patched "" $scope)" = runs ] || { echo "alone, $scope: skipped"; return 1; }
		[ "$(on 6.12 patched "6.1:patched:0 6.1:debian:0" $scope)" = runs ] ||
			{ echo "no Debian's 6.12, $scope: skipped"; return 1; }
		# Debian's 6.12 itself runs everything
		[ "$(on 6.12 debian "6.12:patched:1 6.1:patched:0" $scope)" = runs ] ||
			{ echo "Debian's 6.12, $scope: skipped"; return 1; }
	done
	# Debian's 6.12 on the one-node machine: the NUMA tests stay here
	[ "$(on 6.12 patched "6.12:debian:0" numa)" = runs ] || { echo "numa skipped for a one-node Debian's 6.12"; return 1; }
	[ "$(on 6.12 patched "6.12:debian:0" sysfs)" != runs ] || { echo "sysfs ran beside a one-node Debian's 6.12"; return 1; }
	# patched 6.1 has its own sysfs: only damoctl's own files are left to Debian's 6.12
	[ "$(on 6.1 patched "6.12:patched:1 6.12:debian:1" sysfs)" = runs ] || { echo "6.1 sysfs skipped"; return 1; }
	[ "$(on 6.1 patched "6.12:patched:1 6.12:debian:1" snapshots)" = runs ] || { echo "6.1 snapshots skipped"; return 1; }
	[ "$(on 6.1 patched "6.12:patched:1 6.12:debian:1" numa)" = runs ] || { echo "6.1 numa skipped"; return 1; }
	[[ $(on 6.1 patched "6.12:patched:1 6.12:debian:1" any) == "skip runs on "* ]] || { echo "6.1 any ran"; return 1; }
	# a scope it does not know is a failure, not a skip
	[[ $(on 6.12 patched "$all" typo) == "fail "* ]] || { echo "unknown scope: $(on 6.12 patched "$all" typo)"; return 1; }
}

# sample_for MS: workload_sample_us for a hotcold whose first pass took MS
sample_for() {
	mkdir -p "$BATS_TEST_TMPDIR"
	printf 'ready hot=64M cold=256M\npass %s ms (100 passes in 5.0 s)\npass 99.00 ms (1 passes in 5.0 s)\n' "$1" \
		>"$BATS_TEST_TMPDIR/hotcold.out"
	workload_sample_us
}

@test "workload_sample_us: twice the first pass, rounded up to an interval every age of the suites divides" {
	source "$BATS_TEST_DIRNAME"/../guest/helpers/common.bash 2>/dev/null || true
	local ms want got
	for ms_want in 1.00:5000 2.50:5000 2.51:6250 3.10:6250 6.00:12500 6.25:12500 \
		6.30:25000 12.00:25000 40.00:25000; do
		ms=${ms_want%:*} want=${ms_want#*:}
		got=$(sample_for "$ms")
		[ "$got" = "$want" ] || { echo "pass $ms ms: $got us, not $want"; return 1; }
		# 20 samples per aggregation interval; 500 ms, 1 s and 5 s whole
		for age in 500000 1000000 5000000; do
			[ $((age % (got * 20))) = 0 ] || { echo "$age us is not whole in $((got * 20)) us"; return 1; }
		done
	done
}

@test "stock_tried_regions_reader: the three tried regions readers, only on a 6.2+ kernel without the series" {
	source "$BATS_TEST_DIRNAME"/../guest/helpers/common.bash 2>/dev/null || true
	local p
	for p in sysfs_update_schemes_tried_regions_wss_estimation.py \
		 damos_tried_regions.py damon_nr_regions.py; do
		SERIES_APPLIED=0 stock_tried_regions_reader "$p" 6.12.118+deb12-amd64 ||
			{ echo "$p on Debian's 6.12 not taken as a reader"; return 1; }
		if SERIES_APPLIED=13 stock_tried_regions_reader "$p" 6.12.118-damos; then
			echo "$p skipped on a patched kernel"; return 1
		fi
		if SERIES_APPLIED=0 stock_tried_regions_reader "$p" 6.1.0-57-amd64; then
			echo "$p skipped on 6.1, which has no tried regions updates"; return 1
		fi
	done
	if SERIES_APPLIED=0 stock_tried_regions_reader sysfs.sh 6.12.118+deb12-amd64; then
		echo "another program taken as a reader"; return 1
	fi
}

# damon_aggregated lines as 6.1's debug kernel wrote them (format from
# include/trace/events/damon.h: "target_id=%lu nr_regions=%u %lu-%lu: %u %u"):
# an aggregation of 12 regions, then one of 3
aggregated_fixture() {
	local k
	for k in $(seq 0 11); do
		printf '       kdamond.0-145     [001] .....    79.%03d: damon_aggregated: target_id=0 nr_regions=12 %d-%d: %d 4\n' \
			"$k" $((4294967296 + k * 4096)) $((4294967296 + k * 4096 + 4096)) $(( k == 7 ? 15 : k % 3 ))
	done
	printf '       kdamond.0-145     [000] .....    79.501: damon_aggregated: target_id=0 nr_regions=3 %s: %d 0\n' \
		4096-8192 9 8192-12288 2 12288-16384 0
}

@test "damon_regions_summary: a line per aggregation from the trace, and one when nothing was traced" {
	source "$BATS_TEST_DIRNAME"/../guest/helpers/common.bash 2>/dev/null || true
	local t=$BATS_TEST_TMPDIR/tracing
	local ev=$t/events/damon/damon_aggregated
	mkdir -p "$ev"
	echo 0 > "$ev/enable"
	echo 'stale line from before' > "$t/trace"
	# the kernel's part: trace while the event is enabled
	( for _ in $(seq 100); do
		[ "$(cat "$ev/enable")" = 1 ] && { aggregated_fixture >> "$t/trace"; exit; }
		sleep 0.05
	  done ) &
	DAMOS_TRACEFS=$t run damon_regions_summary 1
	wait
	[ "$status" = 0 ]
	[ "$output" = "damon: aggregation of 12 regions, the most accessed seen in 15 samples
damon: aggregation of 3 regions, the most accessed seen in 9 samples" ] ||
		{ echo "got: $output"; return 1; }
	[ "$(cat "$ev/enable")" = 0 ]
	# nothing traced in the time given
	DAMOS_TRACEFS=$t run damon_regions_summary 0
	[ "$output" = "damon: no aggregation traced (no kdamond at work?)" ]
	# a kernel without the event
	rm -r "$t/events/damon"
	DAMOS_TRACEFS=$t run damon_regions_summary 0
	[ "$output" = "damon: no damon_aggregated trace event in $t" ]
}

# A function defined twice in one script is the later one everywhere:
# hostile_input.sh had sysfs_state() as the context snapshot and again as
# the EBUSY-retrying state writer, so every class compared two empty
# snapshots.  Each guest script and helper defines each name once, and
# none redefines a name of helpers/common.bash that it loads.
@test "guest scripts: no shell function is defined twice, nor over one of common.bash" {
	local f dups common
	common=$(sed -nE 's/^([A-Za-z_][A-Za-z0-9_]*)\(\) *\{.*/\1/p' \
		"$BATS_TEST_DIRNAME"/../guest/helpers/common.bash | sort)
	for f in "$BATS_TEST_DIRNAME"/../guest/*.sh "$BATS_TEST_DIRNAME"/../guest/*.bats \
		 "$BATS_TEST_DIRNAME"/../guest/helpers/*.bash; do
		dups=$(sed -nE 's/^([A-Za-z_][A-Za-z0-9_]*)\(\) *\{.*/\1/p' "$f" | sort | uniq -d)
		[ -z "$dups" ] || { echo "$(basename "$f") defines twice: $dups" >&2; return 1; }
		case $f in */common.bash) continue ;; esac
		grep -q 'load helpers/common\|common.bash' "$f" || continue
		dups=$(sed -nE 's/^([A-Za-z_][A-Za-z0-9_]*)\(\) *\{.*/\1/p' "$f" | sort | comm -12 - <(echo "$common"))
		[ -z "$dups" ] || { echo "$(basename "$f") redefines common.bash's: $dups" >&2; return 1; }
	done
}
