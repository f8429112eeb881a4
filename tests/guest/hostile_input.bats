#!/usr/bin/env bats
# The hostile input classes of hostile_input.sh, one test each, so that a
# class that hangs hits the per-test timeout alone.  The table of what each
# class tried and found lands in the results (hostile.tsv, hostile.log).

load helpers/common

hostile() {
	local script
	# every class but cmdrace goes through both interfaces
	if [ "$1" = cmdrace ]; then need sysfs paddr; else need dbgfs sysfs paddr; fi
	# a stock kernel's dbgfs parser accepts malformed input by design: what
	# it loses is reported, not fatal (hostile_input.sh); the series makes it strict
	[ "${SERIES_APPLIED:-0}" -gt 0 ] || export HOSTILE_STRICT=${HOSTILE_STRICT:-0}
	for script in "$BATS_TEST_DIRNAME/hostile_input.sh" \
		      "$BATS_TEST_DIRNAME/helpers/hostile_input.sh"; do
		[ -x "$script" ] && break
	done
	# 3>&-: a writer that a class leaves blocked in the kernel (cmdrace on
	# a kernel without the fix) must not hold bats' output descriptor, or
	# bats waits for it forever instead of reporting the failure
	run "$script" "$1" 3>&-
	echo "$output"
	assert_success
}

@test "hostile dbgfs/sysfs input: random bytes" { hostile random; }
@test "hostile dbgfs/sysfs input: very long lines" { hostile long; }
@test "hostile dbgfs/sysfs input: writes split over several write() calls" { hostile split; }
@test "hostile dbgfs/sysfs input: writes at an offset" { hostile offset; }
@test "hostile dbgfs/sysfs input: 10,000 schemes" { hostile many; }
@test "hostile dbgfs/sysfs input: negative and overflowing numbers" { hostile numbers; }
@test "hostile dbgfs/sysfs input: embedded NULs" { hostile nul; }
@test "hostile dbgfs/sysfs input: concurrent writers while monitoring toggles" { hostile concurrent; }

# A deadlock of the stock 6.1 sysfs code, fixed by kernel patch 0007: on a
# kernel without it this hangs within two tries (hostile_input.sh gives up
# after 60 s, reports the writers' stacks and fails); five tries take about
# 10 s on the patched kernel.
@test "hostile sysfs input: state commands raced by nr_kdamonds do not deadlock" {
	export HOSTILE_RACE_TRIES=5
	hostile cmdrace
}
