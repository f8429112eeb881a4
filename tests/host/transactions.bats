#!/usr/bin/env bats
# Every command is all or nothing (DESIGN.md, "Guarantees"): each mutating
# command, and a -f batch, run once per write it makes with that write
# failing, on a 6.12 sysfs tree with another tool's schemes (kdamond off
# and on) and on a dbgfs tree, leaves the whole tree exactly as before and
# fails, or exactly as its unfaulted run and succeeds.  The faults come
# from the test build of damoctl (build/tests/damoctl-fault): the shipped
# one has no fault layer at all.

load helper
load transactions

teardown() {
	[ -z "${TXN_WORK:-}" ] || rm -rf "$TXN_WORK"
}

# The three trees, below $BATS_TEST_TMPDIR.
make_trees() {
	local t
	for t in off on; do
		ROOT=$BATS_TEST_TMPDIR/sysfs-$t
		mkdir -p "$ROOT"
		txn_make_sysfs612 "$ROOT" $t
	done
	ROOT=$BATS_TEST_TMPDIR/dbgfs
	mkdir -p "$ROOT"
	txn_make_dbgfs "$ROOT"
	printf '%s\n' "scheme add lru_prio" "scheme add stat age 10s max" \
		"scheme add pageout sz 4K max" > "$BATS_TEST_TMPDIR/three"
}

@test "the shipped damoctl and libdamos have no fault layer" {
	[ -x "$DAMOCTL_FAULT" ] || fail "no $DAMOCTL_FAULT (make $DAMOCTL_FAULT)"
	run grep -c DAMOS_FAULT "$DAMOCTL_FAULT"
	assert_success
	run grep -c DAMOS_FAULT "$DAMOCTL"
	assert_failure
	run grep -c DAMOS_FAULT "$BATS_TEST_DIRNAME/../../build/libdamos.a"
	assert_failure
}

@test "transactions: a failure at every write leaves each tree as before or as after" {
	make_trees
	txn_setup
	local t
	for t in sysfs-off sysfs-on dbgfs; do
		local p=$BATS_TEST_TMPDIR/$t
		txn_sweep "$t: scheme add lru_prio" "$p" scheme add lru_prio
		txn_sweep "$t: scheme rm 0" "$p" scheme rm 0
		txn_sweep "$t: scheme clear" "$p" scheme clear
		txn_sweep "$t: attrs set" "$p" attrs set sample 10ms aggr 200ms
		txn_sweep "$t: target set" "$p" target set paddr region 1G 2G
		txn_sweep "$t: -f three adds" "$p" -f "$BATS_TEST_TMPDIR/three"
	done
	echo "transactions: $TXN_CMDS commands, $TXN_RUNS faulted runs, $TXN_HALF half-applied" >&3
	[ "$TXN_HALF" -eq 0 ] || fail "$(head -40 "$TXN_WORK/half")"
	[ "$TXN_CMDS" -eq 18 ]
}
