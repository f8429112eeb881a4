#!/usr/bin/env bats
# All or nothing against people (DESIGN.md, "Guarantees"; issue 41): a
# signal at every write of a command (SIGTERM, SIGINT, SIGHUP: held, the
# command ends as before or as after, exit 128 + the signal with a
# message), a SIGKILL at every write (the next damoctl rolls the journal
# back: as before or as after), and another writer at every write of a
# batch (it waits, or keeps its change: never undone by the batch's
# rollback).  Fake trees: a 6.12 sysfs tree with another tool's schemes
# (goals, filters), kdamond off and on, and a 6.1 dbgfs tree.  The signals
# and the other writer come from the test build's fault layer
# (DAMOS_FAULT=N:TERM, N:KILL, N:run).

load helper
load transactions
load lru_sort

teardown() {
	[ -z "${TXN_WORK:-}" ] || rm -rf "$TXN_WORK"
}

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
	printf '%s\n' "scheme add lru_prio" "attrs set sample 10ms aggr 200ms" \
		"scheme rm 0" > "$BATS_TEST_TMPDIR/three"
}

# sig_sweeps SIG: the commands of the issue at every write, on each tree
sig_sweeps() {
	local t p
	export TXN_SIG=$1
	for t in sysfs-off sysfs-on dbgfs; do
		p=$BATS_TEST_TMPDIR/$t
		txn_sweep "$t: scheme add" "$p" scheme add lru_prio
		txn_sweep "$t: scheme rm 0" "$p" scheme rm 0
		txn_sweep "$t: attrs set" "$p" attrs set sample 10ms aggr 200ms
		txn_sweep "$t: -f three lines" "$p" -f "$BATS_TEST_TMPDIR/three"
	done
	echo "SIG$1: $TXN_CMDS commands, $TXN_RUNS runs, $TXN_HALF half-applied or wrong" >&3
	[ "$TXN_HALF" -eq 0 ] || fail "$(head -40 "$TXN_WORK/half")"
	[ "$TXN_CMDS" -eq 12 ]
}

@test "SIGTERM at every write: as before or as after, exit 143, a message" {
	make_trees
	txn_setup
	sig_sweeps TERM
}

@test "SIGKILL at every write, then scheme list: as before or as after" {
	make_trees
	txn_setup
	sig_sweeps KILL
}

@test "SIGINT and SIGHUP at every write of a batch: held as SIGTERM is" {
	make_trees
	txn_setup
	TXN_SIG=INT txn_sweep "sysfs-on: -f three lines" "$BATS_TEST_TMPDIR/sysfs-on" \
		-f "$BATS_TEST_TMPDIR/three"
	TXN_SIG=HUP txn_sweep "dbgfs: -f three lines" "$BATS_TEST_TMPDIR/dbgfs" \
		-f "$BATS_TEST_TMPDIR/three"
	echo "SIGINT, SIGHUP: $TXN_CMDS commands, $TXN_RUNS runs, $TXN_HALF wrong" >&3
	[ "$TXN_HALF" -eq 0 ] || fail "$(head -40 "$TXN_WORK/half")"
	[ "$TXN_CMDS" -eq 2 ]
}

@test "a SIGKILL mid-change leaves a journal; the next damoctl says it rolled it back" {
	txn_make_sysfs612 "$ROOT" on
	local before
	before=$(txn_digest "$ROOT")
	run env DAMOS_FAULT=20:KILL "$DAMOCTL_FAULT" --root "$ROOT" scheme add lru_prio
	assert_failure 137
	[ -f "$ROOT/run/damos/journal" ]
	[ "$(stat -c %a "$ROOT/run/damos/journal")" = 600 ]
	[ "$(txn_digest "$ROOT")" != "$before" ]
	run damoctl scheme list
	assert_success
	assert_output --regexp "^damoctl: pid [0-9]+ \(.*damoctl-fault --root $ROOT scheme add lru_prio\) died in the middle of a change: its files are put back as they were before it \(from $ROOT/run/damos/journal\)"
	[ ! -e "$ROOT/run/damos/journal" ]
	[ "$(txn_digest "$ROOT")" = "$before" ]
	# the running kdamond took the files put back
	grep -qx commit "$ROOT/sys/kernel/mm/damon/admin/kdamonds/0/state" ||
		grep -qx on "$ROOT/sys/kernel/mm/damon/admin/kdamonds/0/state"
}

@test "a journal under the lock is a dead writer's: rolled back; a cut-short one is refused and kept" {
	make_dbgfs
	damoctl scheme add stat
	run env DAMOS_FAULT=1:KILL "$DAMOCTL_FAULT" --root "$ROOT" scheme add pageout
	assert_failure 137
	# its pid taken by a process that runs: the journal is still a dead one's
	sleep 30 &
	local alive=$!
	sed -i "s/^pid .*/pid $alive/" "$ROOT/run/damos/journal"
	echo "4096 8192 0 0 0 0 2 0 0 0 0 0 0 0 0 0 0 0" >> "$ROOT/sys/kernel/debug/damon/schemes"
	run damoctl scheme list
	assert_success
	assert_output --partial "pid $alive (${DAMOCTL_FAULT} --root $ROOT scheme add pageout) died in the middle of a change"
	assert_output --partial "0: stat"
	refute_output --partial "1: pageout"
	kill $alive
	wait $alive || true
	printf 'damos-journal 1\npid 1\n' > "$ROOT/run/damos/journal"
	run damoctl scheme list
	assert_failure 1
	assert_output --partial "is not one of this library's (cannot parse it): left as it is"
	[ -f "$ROOT/run/damos/journal" ]
}

# other_writer_sweep NAME PRISTINE BATCH: the batch's last line fails
# after its writes, so it rolls back; at each of its writes another damoctl adds a scheme (in
# the background, waiting up to 20 s for the lock).  That one must succeed
# after the batch and its scheme be there at the end, or fail.
other_writer_sweep() {
	local name=$1 pristine=$2 batch=$3 w=$TXN_WORK/ow nw n rc
	rm -rf "$w" && cp -a "$pristine" "$w"
	: > "$TXN_WORK/log"
	DAMOS_FAULT_LOG=$TXN_WORK/log "$DAMOCTL_FAULT" --root "$w" -f "$batch" \
		> /dev/null 2>&1 || true
	nw=$(wc -l < "$TXN_WORK/log")
	[ "$nw" -gt 0 ] || fail "$name: the batch wrote nothing"
	for ((n = 1; n <= nw; n++)); do
		rm -rf "$w" "$w.rc" && cp -a "$pristine" "$w"
		rc=0
		DAMOS_FAULT=$n:run DAMOS_FAULT_RUN="( env -u DAMOS_FAULT '$DAMOCTL' --root '$w' --wait 20 scheme add stat sz 12K 16K > /dev/null 2>&1; echo \$? > '$w.rc' ) &" \
			"$DAMOCTL_FAULT" --root "$w" -f "$batch" > /dev/null 2>&1 || rc=$?
		[ $rc -ne 0 ] || echo "$name: write $n: the batch did not fail" >> "$TXN_WORK/half"
		while [ ! -s "$w.rc" ]; do sleep 0.05; done
		OW_RUNS=$((OW_RUNS + 1))
		if [ "$(cat "$w.rc")" = 0 ]; then
			OW_KEPT=$((OW_KEPT + 1))
			"$DAMOCTL" --root "$w" scheme list | grep -q "stat sz 12K 16K" ||
				echo "$name: write $n: the other writer's scheme is lost" >> "$TXN_WORK/half"
		fi
	done
}

@test "another writer at every write of a failing batch waits and keeps its change" {
	make_trees
	txn_setup
	# lines 1-3 edit one setup, applied before scheme list reads; line 5
	# fails, so the batch rolls back what that apply wrote
	printf '%s\n' "scheme add lru_prio" "attrs set sample 10ms aggr 200ms" \
		"scheme add pageout" "scheme list" "scheme rm 99" > "$BATS_TEST_TMPDIR/fails"
	OW_RUNS=0 OW_KEPT=0
	other_writer_sweep sysfs-off "$BATS_TEST_TMPDIR/sysfs-off" "$BATS_TEST_TMPDIR/fails"
	other_writer_sweep dbgfs "$BATS_TEST_TMPDIR/dbgfs" "$BATS_TEST_TMPDIR/fails"
	echo "another writer: $OW_RUNS interleavings, $OW_KEPT kept their change, $(wc -l < "$TXN_WORK/half") lost or wrong" >&3
	[ ! -s "$TXN_WORK/half" ] || fail "$(head -20 "$TXN_WORK/half")"
	[ "$OW_KEPT" -eq "$OW_RUNS" ]
}

@test "apply with damon_lru_sort is one transaction: a failure or a SIGTERM at every write, the module's included" {
	ROOT=$BATS_TEST_TMPDIR/sysfs-lru
	mkdir -p "$ROOT"
	txn_make_sysfs612 "$ROOT" off
	make_lru_sort
	printf '%s\n' "attrs sample 10ms aggr 200ms update 1s regions 10 1000" \
		"scheme stat" "lru-sort on hot 30%" > "$BATS_TEST_TMPDIR/lru.conf"
	txn_setup
	txn_sweep "apply with lru-sort" "$ROOT" apply "$BATS_TEST_TMPDIR/lru.conf"
	TXN_SIG=TERM txn_sweep "apply with lru-sort, SIGTERM" "$ROOT" apply "$BATS_TEST_TMPDIR/lru.conf"
	echo "apply with lru-sort: $TXN_CMDS sweeps, $TXN_RUNS runs, $TXN_HALF half-applied or wrong" >&3
	[ "$TXN_HALF" -eq 0 ] || fail "$(head -20 "$TXN_WORK/half")"
	[ "$TXN_CMDS" -eq 2 ]
	# the module's own write is among them, and fails the whole apply
	grep -q "damon_lru_sort/parameters/enabled" "$TXN_WORK/log"
}

@test "a dry run interrupted (SIGINT, SIGTERM) ends with its plan so far, leaves no file, and exits 128 + the signal" {
	make_sysfs off 1
	mkdir -p "$BATS_TEST_TMPDIR/tmp"
	local sig rc
	for sig in INT TERM; do
		run env TMPDIR="$BATS_TEST_TMPDIR/tmp" DAMOS_FAULT=2:$sig "$DAMOCTL_FAULT" \
			--root "$ROOT" --dry-run scheme add stat
		[ "$sig" = INT ] && rc=130 || rc=143
		assert_failure $rc
		assert_output --partial "SIG$sig came while writing: held until the dry run ended"
		assert_output --partial "echo stat >"
		[ -z "$(ls -A "$BATS_TEST_TMPDIR/tmp")" ] ||
			fail "left in TMPDIR: $(ls "$BATS_TEST_TMPDIR/tmp")"
	done
}
