#!/usr/bin/env bats
# Every command is all or nothing (DESIGN.md, "Guarantees"): each mutating
# command, a -f batch and apply, run once per write it makes with that
# write failing, on a 6.12 sysfs tree with another tool's schemes (kdamond
# off and on), a 6.1 sysfs tree (on) and a 6.1 dbgfs tree, leaves the whole tree exactly as before and
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
	ROOT=$BATS_TEST_TMPDIR/sysfs61-on
	mkdir -p "$ROOT"
	txn_make_sysfs61 "$ROOT" on
	ROOT=$BATS_TEST_TMPDIR/dbgfs
	mkdir -p "$ROOT"
	txn_make_dbgfs "$ROOT"
	printf '%s\n' "scheme add lru_prio" "scheme add stat age 10s max" \
		"scheme add pageout sz 4K max" > "$BATS_TEST_TMPDIR/three"
	printf '%s\n' "attrs sample 10ms aggr 200ms update 1s regions 10 1000" \
		"target paddr region 1G 2G" "scheme lru_prio" > "$BATS_TEST_TMPDIR/conf"
}

@test "the shipped damoctl and libdamos have no fault layer" {
	[ -x "$DAMOCTL_FAULT" ] || fail "no $DAMOCTL_FAULT (make $DAMOCTL_FAULT)"
	run grep -c DAMOS_FAULT "$DAMOCTL_FAULT"
	assert_success
	run grep -c DAMOS_FAULT "$DAMOCTL_SHIPPED"
	assert_failure
	run grep -c DAMOS_FAULT "$BATS_TEST_DIRNAME/../../build/libdamos.a"
	assert_failure
}

@test "transactions: a failure at every write leaves each tree as before or as after" {
	make_trees
	txn_setup
	local t
	for t in sysfs-off sysfs-on sysfs61-on dbgfs; do
		local p=$BATS_TEST_TMPDIR/$t
		txn_sweep "$t: scheme add lru_prio" "$p" scheme add lru_prio
		txn_sweep "$t: scheme rm 0" "$p" scheme rm 0
		txn_sweep "$t: scheme clear" "$p" scheme clear
		txn_sweep "$t: attrs set" "$p" attrs set sample 10ms aggr 200ms
		txn_sweep "$t: target set" "$p" target set paddr region 1G 2G
		txn_sweep "$t: -f three adds" "$p" -f "$BATS_TEST_TMPDIR/three"
		txn_sweep "$t: apply attrs, target, scheme" "$p" apply "$BATS_TEST_TMPDIR/conf"
		# the fake dbgfs's target_ids is a plain file, not the kernel's
		# list of targets (dbgfs target clear runs in the guest's
		# real_paths.bats)
		[ $t = dbgfs ] || txn_sweep "$t: target clear" "$p" target clear
	done
	txn_sweep "sysfs-off: monitor start" "$BATS_TEST_TMPDIR/sysfs-off" monitor start
	txn_sweep "sysfs-on: monitor stop" "$BATS_TEST_TMPDIR/sysfs-on" monitor stop
	txn_sweep "dbgfs: monitor start" "$BATS_TEST_TMPDIR/dbgfs" monitor start
	echo "transactions: $TXN_CMDS commands, $TXN_RUNS faulted runs, $TXN_HALF half-applied" >&3
	[ "$TXN_HALF" -eq 0 ] || fail "$(head -40 "$TXN_WORK/half")"
	[ "$TXN_CMDS" -eq 34 ]
}

@test "a restore that fails too: exit 3, and the error names the files left otherwise" {
	txn_make_sysfs612 "$ROOT" off
	# write 5 of scheme add fails, and every write after it: the restore's
	run env DAMOS_FAULT=5+ "$DAMOCTL_FAULT" --root "$ROOT" scheme add lru_prio
	assert_failure 3
	assert_output --partial "damoctl: scheme add: cannot write $ROOT/$TXN_CTX/schemes/"
	assert_output --partial "; and the files could not be put back as they were; $ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/schemes/"
	assert_output --regexp "is '[^']*', was '[^']*'"
}

@test "-f: a write failing in the batch's one apply puts back everything, and names the lines; --force keeps lines 1 and 2" {
	txn_make_sysfs612 "$ROOT" off
	cd "$BATS_TEST_TMPDIR"
	printf '%s\n' "attrs set sample 10ms" "scheme rm 1" "scheme add stat" > b
	local before after nw
	before=$(txn_digest "$ROOT")
	: > log
	cp -a "$ROOT" "$BATS_TEST_TMPDIR/copy"
	DAMOS_FAULT_LOG=$PWD/log "$DAMOCTL_FAULT" --root "$BATS_TEST_TMPDIR/copy" -f b
	# the last write is line 3's
	nw=$(wc -l < log)
	run env DAMOS_FAULT=$nw "$DAMOCTL_FAULT" --root "$ROOT" -f b
	assert_failure 1
	assert_line --index 0 --regexp "^damoctl: b:1-3: cannot write "
	assert_line --index 1 "damoctl: b: nothing of it was applied: the files are as before line 1"
	[ "$(txn_digest "$ROOT")" = "$before" ]
	# --force: each line its own apply; the last write is line 3's
	rm -rf "$BATS_TEST_TMPDIR/copy" && cp -a "$ROOT" "$BATS_TEST_TMPDIR/copy"
	: > log
	DAMOS_FAULT_LOG=$PWD/log "$DAMOCTL_FAULT" --root "$BATS_TEST_TMPDIR/copy" --force -f b
	nw=$(wc -l < log)
	run env DAMOS_FAULT=$nw "$DAMOCTL_FAULT" --root "$ROOT" --force -f b
	assert_failure 1
	assert_line --index 1 "damoctl: b: 1 of 3 commands failed"
	run damoctl scheme list
	assert_output --partial "0: pageout"
	refute_output --partial "migrate_cold"
	run damoctl attrs show
	assert_output --partial "10ms"
}

# A running kdamond's "commit" that the kernel would refuse stops the
# kdamond on Linux 6.1 and 6.12, and the write of "commit" returns 0
# (lib/sysfs_commit.c): what the kernel checks then is checked before it.
@test "commit: a staged value the kernel would refuse (min_nr_regions 1, another tool's) fails the command before 'commit', naming the file; every file as before" {
	txn_make_sysfs612 "$ROOT" on
	put "$ROOT/$TXN_CTX/monitoring_attrs/nr_regions/min" 1
	local before
	before=$(txn_digest "$ROOT")
	run damoctl scheme add lru_prio
	assert_failure 1
	assert_output "damoctl: scheme add: $ROOT/$TXN_CTX/monitoring_attrs/nr_regions/min is 1, below 3: the kernel would refuse the commit and stop the running kdamond"
	[ "$(txn_digest "$ROOT")" = "$before" ]
	# once the value is one the kernel takes, the same command commits
	put "$ROOT/$TXN_CTX/monitoring_attrs/nr_regions/min" 3
	run damoctl scheme add lru_prio
	assert_success
	run damoctl scheme list
	assert_output --partial "2: lru_prio"
}

@test "commit: a memcg filter on a cgroup without a memory controller is refused before 'commit' where cgroup v2 is mounted; with one it commits" {
	txn_make_sysfs612 "$ROOT" on
	put "$ROOT/sys/fs/cgroup/cgroup.controllers" "cpu memory"
	# the foreign schemes' /workload has no memcg yet: the kernel would
	# refuse any commit, ours included
	mkdir -p "$ROOT/sys/fs/cgroup/workload"
	local before
	before=$(txn_digest "$ROOT")
	run damoctl scheme add lru_prio
	assert_failure 1
	assert_output "damoctl: scheme add: $ROOT/$TXN_CTX/schemes/0/filters/1/memcg_path is '/workload', which is no cgroup with a memory controller: the kernel would refuse the commit and stop the running kdamond"
	[ "$(txn_digest "$ROOT")" = "$before" ]
	put "$ROOT/sys/fs/cgroup/workload/memory.current" 0
	before=$(txn_digest "$ROOT")
	run damoctl scheme add lru_prio filter memcg workload
	assert_failure 1
	assert_output --partial "memcg_path is 'workload', which is no cgroup with a memory controller"
	[ "$(txn_digest "$ROOT")" = "$before" ]
	run damoctl scheme add lru_prio filter memcg /workload
	assert_success
}
