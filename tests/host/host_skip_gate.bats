#!/usr/bin/env bats
# make check-bats fails on a host test that skips for a reason the reviewed
# list (tests/host/allowed-skips) does not give, and counts what ran.

load helper

GATE="$BATS_TEST_DIRNAME/run-suite.sh"

setup() {
	T=$BATS_TEST_TMPDIR
	mkdir -p "$T/suite"
	# '@' apart: bats would take a line that starts with @test as its own
	printf '@%s\n' 'test "runs" { true; }' \
		'test "skips for a tool" { skip "frobnicate not installed"; }' > "$T/suite/a.bats"
	printf '# list\nstatic link of a sanitized*\twhy\n' > "$T/allowed"
}

@test "a skip the list does not give fails the run and is named" {
	run "$GATE" "$T/allowed" "$T/tap" -- "$T/suite"
	assert_failure 1
	assert_output --partial "check-bats: skip not in $T/allowed: 2 skips for a tool # skip frobnicate not installed"
	assert_line "check-bats: 1 passed, 0 failed, 1 skipped"
}

@test "a skip the list gives passes, and is counted" {
	printf 'frobnicate not*\twhy\n' >> "$T/allowed"
	run "$GATE" "$T/allowed" "$T/tap" -- "$T/suite"
	assert_success
	assert_line "check-bats: 1 passed, 0 failed, 1 skipped"
}

@test "a failing test fails the run" {
	printf '@%s\n' 'test "fails" { false; }' > "$T/suite/b.bats"
	printf 'frobnicate not*\twhy\n' >> "$T/allowed"
	run "$GATE" "$T/allowed" "$T/tap" -- "$T/suite"
	assert_failure
	assert_line "check-bats: 1 passed, 1 failed, 1 skipped"
}

@test "the project's list names only skips that some host test can take" {
	while IFS=$'\t' read -r glob why; do
		[[ -z $glob || $glob == '#'* ]] && continue
		[ -n "$why" ] || fail "no reason for '$glob'"
		g=${glob%%\**}
		grep -rqF -- "skip \"$g" "$BATS_TEST_DIRNAME"/*.bats ||
			fail "no host test skips with '$glob'"
	done < "$BATS_TEST_DIRNAME/allowed-skips"
}
