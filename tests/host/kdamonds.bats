#!/usr/bin/env bats
# Several kdamonds (issue 41): a damo spec of two kdamonds (damo v3.3.0's
# --nr_ctxs 1 1, fixtures/damo-3.3.0/two-kdamonds.json) and a damoctl.conf
# of "kdamond N" sections apply as one transaction over every kdamond of
# sysfs, and export back unchanged; a failure, a SIGTERM or a SIGKILL at
# any write leaves every kdamond as before (started again if it ran) or
# as after; --kdamond all on the commands that take it.

load helper
load transactions

FIX="$BATS_TEST_DIRNAME/fixtures/damo-3.3.0"
TWO="$FIX/two-kdamonds.json"
ADMIN=sys/kernel/mm/damon/admin

# The conf files are named as the user would name them ("a.conf:1: ..."),
# in the test's directory, not in the one bats runs from.
setup() {
	ROOT="$BATS_TEST_TMPDIR/root"
	mkdir -p "$ROOT"
	cd "$BATS_TEST_TMPDIR" || return 1
}

teardown() {
	[ -z "${TXN_WORK:-}" ] || rm -rf "$TXN_WORK"
}

# A 6.12 tree with another tool's schemes (goals, filters) on kdamond 0,
# which is $1 (off/on).
tree() {
	ROOT=$BATS_TEST_TMPDIR/sysfs-$1
	mkdir -p "$ROOT"
	txn_make_sysfs612 "$ROOT" "$1"
}

canon() {
	python3 -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1])), indent=4))' "$1"
}

@test "damo's two-kdamond spec applies over one running kdamond and exports back unchanged" {
	tree on
	run damoctl apply "$TWO"
	assert_success
	assert_output --partial "2 kdamonds set"
	[ "$(cat "$ROOT/$ADMIN/kdamonds/nr_kdamonds")" = 2 ]
	# a spec says nothing of state: the new kdamonds are off
	[ "$(cat "$ROOT/$ADMIN/kdamonds/0/state")" = off ]
	damoctl export damo > export.json
	diff -u <(canon "$TWO") <(canon export.json)
	# the same spec again writes nothing
	before=$(txn_digest "$ROOT")
	run damoctl apply "$TWO"
	assert_success
	[ "$(txn_digest "$ROOT")" = "$before" ]
}

@test "export damo: one kdamond with --kdamond N, all of them without it or with --kdamond all" {
	tree off
	damoctl apply "$TWO"
	run damoctl -k 1 export damo
	assert_success
	[ "$(printf '%s\n' "$output" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(len(d["kdamonds"]), d["kdamonds"][0]["contexts"][0]["schemes"][0]["action"])')" = "1 migrate_hot" ]
	run damoctl -k all export damo
	assert_success
	[ "$(printf '%s\n' "$output" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["kdamonds"]))')" = 2 ]
}

@test "--kdamond all: monitor status of each; refused by a command of one kdamond and on dbgfs" {
	tree off
	damoctl apply "$TWO"
	run damoctl -k all monitor status
	assert_success
	assert_line "kdamond 0"
	assert_line "kdamond 1"
	assert_output --partial "schemes   1: migrate_hot"
	run damoctl -k all scheme list
	assert_failure 2
	assert_output --partial "--kdamond all: 'scheme list' works on one kdamond"
	run damoctl -k all --interface dbgfs monitor status
	assert_failure 2
	assert_output --partial "not with --interface dbgfs"
	run damoctl -k allx monitor status
	assert_failure 2
	assert_output --partial "'allx' is not a kdamond index (0 to 1024, or all)"
}

@test "--kdamond all --json monitor status: an array of every kdamond's status, each with its index" {
	tree off
	damoctl apply "$TWO"
	run damoctl --json -k all monitor status
	assert_success
	run python3 -c 'import json,sys
for o in json.load(sys.stdin):
    print(o["kdamond"], o["interface"], o["on"], ",".join(o["schemes"]))' <<<"$output"
	assert_success
	assert_output "0 sysfs False migrate_cold
1 sysfs False migrate_hot"
	# an array with one kdamond too; without --kdamond all no index, as before
	printf '%s\n' "kdamond 0" "target paddr region 0x1000 0x2000" "scheme stat" > "$BATS_TEST_TMPDIR/one.conf"
	damoctl apply "$BATS_TEST_TMPDIR/one.conf"
	run damoctl --json -k all monitor status
	assert_success
	[ "$(python3 -c 'import json,sys; d=json.load(sys.stdin); print(type(d).__name__, len(d), d[0]["kdamond"])' <<<"$output")" = "list 1 0" ]
	run damoctl --json monitor status
	assert_success
	[ "$(python3 -c 'import json,sys; d=json.load(sys.stdin); print(type(d).__name__, "kdamond" in d)' <<<"$output")" = "dict False" ]
}

@test "kdamond sections of damoctl.conf: errors name the line, and nothing is written" {
	tree on
	before=$(txn_digest "$ROOT")
	printf '%s\n' "target paddr region 0x1000 0x2000" "kdamond 0" "scheme lru_prio" > a.conf
	run damoctl apply a.conf
	assert_failure 2
	assert_output --partial "a.conf:1: a directive before 'kdamond 0'"
	printf '%s\n' "kdamond 0" "scheme lru_prio" "kdamond 2" "scheme stat" > b.conf
	run damoctl apply b.conf
	assert_failure 2
	assert_output --partial "b.conf:3: kdamond 2: expected kdamond 1"
	printf '%s\n' "# two" "kdamond 0" "target paddr region 0x1000 0x2000" "scheme lru_prio" \
		"kdamond 1" "target paddr region 0x1000 0x2000" "scheme lru_prio age 5x" > c.conf
	run damoctl apply c.conf
	assert_failure 2
	assert_output --partial "c.conf:7:"
	assert_output --partial "1 bad line; nothing was changed"
	printf '%s\n' "kdamond 0" "lru-sort on" > d.conf
	run damoctl apply d.conf
	assert_failure 2
	assert_output --partial "d.conf:2: lru-sort: damon_lru_sort is no kdamond of sysfs"
	run damoctl --dry-run apply c.conf
	assert_failure 2
	[ "$(txn_digest "$ROOT")" = "$before" ]
	# a good file, checked only
	printf '%s\n' "kdamond 0" "target paddr region 0x1000 0x2000" "scheme lru_prio" \
		"kdamond 1" "target paddr region 0x3000 0x4000" "scheme stat" > e.conf
	run damoctl apply check e.conf
	assert_success
	[ "$(txn_digest "$ROOT")" = "$before" ]
	run damoctl apply e.conf
	assert_success
	[ "$(cat "$ROOT/$ADMIN/kdamonds/1/contexts/0/schemes/0/action")" = stat ]
	run damoctl --interface dbgfs apply e.conf
	assert_failure 2
}

@test "the kdamond sections example of damoctl.conf(5) applies" {
	tree off
	sed -n '/^\.SS "Kdamond sections"/,/^\.SH RULES/p' \
		"$BATS_TEST_DIRNAME/../../man/damoctl.conf.5" |
		sed -n '/^\.EX/,/^\.EE/p' | sed '1d;$d' > example.conf
	[ "$(wc -l < example.conf)" -eq 6 ]
	run damoctl apply example.conf
	assert_success
	[ "$(cat "$ROOT/$ADMIN/kdamonds/1/contexts/0/schemes/0/action")" = migrate_hot ]
	[ "$(cat "$ROOT/$ADMIN/kdamonds/0/contexts/0/schemes/0/target_nid")" = 1 ]
}

@test "kdamond sections with monitor on: started last, both run" {
	tree off
	printf '%s\n' "kdamond 0" "target paddr region 0x1000 0x2000" "scheme lru_prio" "monitor on" \
		"kdamond 1" "target paddr region 0x3000 0x4000" "scheme stat" "monitor on" > on.conf
	run damoctl apply on.conf
	assert_success
	[ "$(cat "$ROOT/$ADMIN/kdamonds/0/state")" = on ]
	[ "$(cat "$ROOT/$ADMIN/kdamonds/1/state")" = on ]
	# the same count again: the running kdamonds take the change by commit
	sed -i 's/scheme stat/scheme pageout/' on.conf
	run damoctl apply on.conf
	assert_success
	[ "$(cat "$ROOT/$ADMIN/kdamonds/1/contexts/0/schemes/0/action")" = pageout ]
	[ "$(cat "$ROOT/$ADMIN/kdamonds/1/state")" = on ]
}

@test "--dry-run of kdamond sections prints the plan: nothing written, the very writes the apply then makes, in order" {
	tree on
	printf '%s\n' "kdamond 0" "target paddr region 0x1000 0x2000" "scheme lru_prio" "monitor on" \
		"kdamond 1" "target paddr region 0x3000 0x4000" "scheme stat" "monitor on" > on.conf
	cp -a "$ROOT" "$BATS_TEST_TMPDIR/before"
	run damoctl --dry-run apply on.conf
	assert_success
	assert_line --index 0 "#!/bin/sh"
	assert_line "echo 2 > $ROOT/$ADMIN/kdamonds/nr_kdamonds"
	diff -r -x run "$BATS_TEST_TMPDIR/before" "$ROOT"
	# the files the plan writes, in order ...
	damoctl --dry-run apply on.conf 2> /dev/null | plan_paths > plan.paths
	[ "$(wc -l < plan.paths)" -ge 10 ]
	# ... are those the apply writes (the fault layer's log, no fault)
	DAMOS_FAULT_LOG="$BATS_TEST_TMPDIR/w.log" "$DAMOCTL_FAULT" --root "$ROOT" apply on.conf
	cut -d' ' -f2- w.log > apply.paths
	diff plan.paths apply.paths
}

@test "a failure, SIGTERM and SIGKILL at every write of a two-kdamond apply: as before or as after" {
	tree off
	tree on
	txn_setup
	export TXN_NEW_PID=1
	for t in off on; do
		TXN_SIG=
		txn_sweep "sysfs-$t: apply two" "$BATS_TEST_TMPDIR/sysfs-$t" apply "$TWO"
		TXN_SIG=TERM
		txn_sweep "sysfs-$t: apply two, SIGTERM" "$BATS_TEST_TMPDIR/sysfs-$t" apply "$TWO"
		TXN_SIG=KILL
		txn_sweep "sysfs-$t: apply two, SIGKILL" "$BATS_TEST_TMPDIR/sysfs-$t" apply "$TWO"
	done
	echo "two-kdamond apply: $TXN_CMDS sweeps, $TXN_RUNS runs, $TXN_HALF half-applied or wrong" >&3
	[ "$TXN_HALF" -eq 0 ] || fail "$(head -40 "$TXN_WORK/half")"
	[ "$TXN_CMDS" -eq 6 ]
}

@test "a second kdamond starts while dbgfs's monitor_on reads on for the first (Linux counts every running context there; dbgfs's kdamond_pid says none)" {
	tree off
	make_dbgfs
	printf '%s\n' "kdamond 0" "target paddr region 0x1000 0x2000" "scheme stat" \
		"kdamond 1" "target paddr region 0x3000 0x4000" "scheme stat" > two.conf
	run damoctl --interface sysfs apply two.conf
	assert_success
	run damoctl --interface sysfs -k 0 monitor start
	assert_success
	# what patched 6.12 shows while a sysfs kdamond runs
	echo on > "$ROOT/sys/kernel/debug/damon/monitor_on"
	run damoctl --interface sysfs -k 1 monitor start
	assert_success
	[ "$(cat "$ROOT/$ADMIN/kdamonds/1/state")" = on ]
	# dbgfs's own kdamond running is another DAMON user
	damoctl --interface sysfs -k 1 monitor stop
	echo 4242 > "$ROOT/sys/kernel/debug/damon/kdamond_pid"
	run damoctl --interface sysfs -k 1 monitor start
	assert_failure 1
	assert_output --partial "dbgfs monitoring is on"
}
