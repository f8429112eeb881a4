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
