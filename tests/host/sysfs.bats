#!/usr/bin/env bats
# damoctl against a pre-created fake sysfs tree (the 6.1 layout of
# mm/damon/sysfs.c): golden --dry-run scripts, then real writes, for which
# libdamos emulates what the kernel does on nr_* and state writes.

load helper
bats_require_minimum_version 1.5.0

ADMIN() { echo "$ROOT/sys/kernel/mm/damon/admin"; }
CTX() { echo "$ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0"; }

@test "auto picks sysfs when both interfaces exist" {
	make_sysfs off 1
	make_dbgfs
	run damoctl monitor status
	assert_line --index 0 "off (sysfs)"
	run damoctl --interface dbgfs monitor status
	assert_line --index 0 "off (dbgfs)"
}

DOC_LINE="4096 8192 0 5 10 20 5 0 0 0 0 0 0 0 0 0 0 0"

@test "--context means dbgfs and --kdamond N sysfs, never ignored on the other" {
	make_sysfs off 1
	make_dbgfs
	mkdir "$ROOT/sys/kernel/debug/damon/foo"
	echo "$DOC_LINE" > "$ROOT/sys/kernel/debug/damon/foo/schemes"
	local before
	before=$(tree_sum)
	# auto with both trees: the context is dbgfs's (it used to go to sysfs)
	run damoctl --context foo scheme list
	assert_success
	assert_output "0: stat sz 4K 8K access 0 5 age 10 20 quota time 0 size 0 reset 0 weights 0 0 0 wmarks none 0 0 0 0"
	run damoctl --context foo --interface sysfs scheme clear
	assert_failure 2
	assert_output "damoctl: --context foo: a dbgfs context, not with --interface sysfs"
	run damoctl --kdamond 1 --interface dbgfs scheme clear
	assert_failure 2
	assert_output "damoctl: --kdamond 1: a sysfs kdamond, not with --interface dbgfs"
	run damoctl --kdamond 1 --context foo scheme clear
	assert_failure 2
	assert_output "damoctl: --context is dbgfs's and --kdamond sysfs's: not both"
	[ "$(tree_sum)" = "$before" ]
}

@test "dry run: add lru_prio next to an existing scheme" {
	make_sysfs off 1
	before=$(tree_sum)
	run damoctl --dry-run scheme add lru_prio
	assert_success
	assert_golden sysfs-add-lru_prio.sh
	[ "$(tree_sum)" = "$before" ]
}

@test "dry run: add lru_deprio while the kdamond is on commits" {
	make_sysfs on 1
	run damoctl -n scheme add lru_deprio
	assert_success
	assert_golden sysfs-add-lru_deprio-on.sh
}

@test "dry run: add to a sysfs tree without a kdamond creates one" {
	make_sysfs_empty
	run damoctl -n scheme add lru_prio
	assert_success
	assert_golden sysfs-add-lru_prio-fresh.sh
}

@test "dry run: the kernel documentation's example" {
	make_sysfs off 0
	run damoctl -n scheme add pageout sz 4K 8K access 0 5 age 10 20 \
		quota time 10ms size 1G reset 1s weights 0 0 100 \
		wmarks free_mem_rate 5s 600 500 300
	assert_success
	assert_golden sysfs-add-doc-example.sh
}

@test "dry run: rm, clear, attrs, target, monitor" {
	make_sysfs on 2
	run damoctl -n scheme rm 0
	assert_success
	assert_golden sysfs-rm.sh
	run damoctl -n scheme clear
	assert_golden sysfs-clear.sh
	run damoctl -n attrs set aggr 200ms
	assert_golden sysfs-attrs-set.sh
	run damoctl -n target set vaddr pid 1234 region 0x1000 0x2000
	assert_golden sysfs-target-set.sh
	run damoctl -n monitor stop
	assert_golden sysfs-monitor-stop.sh
}

@test "dry run: a bad value prints no script and changes nothing" {
	make_sysfs off 1
	before=$(tree_sum)
	run damoctl -n scheme add lru_deprio age 1m 30s
	assert_failure 2
	assert_output "damoctl: scheme add: min age 1m > max age 30s"
	[ "$(tree_sum)" = "$before" ]
}

@test "scheme list reads the tree" {
	make_sysfs off 1
	run damoctl scheme list
	assert_output "0: pageout sz 4K 8K access 0 5 age 10 20 quota time 0 size 0 reset 0 weights 0 0 0 wmarks none 0 0 0 0"
}

@test "emulated writes: add, list, rm on a fake tree" {
	make_sysfs off 1
	run damoctl scheme add lru_prio
	assert_success
	run damoctl scheme add lru_deprio wmarks free_mem_rate 5s 200 150 50
	assert_success
	[ "$(cat "$(CTX)/schemes/nr_schemes")" = 3 ]
	[ "$(cat "$(CTX)/schemes/2/action")" = lru_deprio ]
	[ "$(cat "$(CTX)/schemes/2/access_pattern/age/min")" = 1200 ]
	[ "$(cat "$(CTX)/schemes/2/watermarks/metric")" = free_mem_rate ]
	run damoctl scheme list
	assert_output "0: pageout sz 4K 8K access 0 5 age 10 20 quota time 0 size 0 reset 0 weights 0 0 0 wmarks none 0 0 0 0
1: lru_prio sz 4K max access 10 max age 0 max quota time 5ms size 0 reset 1s weights 0 1 0 wmarks none 0 0 0 0
2: lru_deprio sz 4K max access 0 0 age 1200 max quota time 5ms size 0 reset 1s weights 0 0 1 wmarks free_mem_rate 5s 200 150 50"
	run damoctl scheme rm 0
	assert_success
	run damoctl scheme list
	assert_line --index 0 --partial "0: lru_prio"
	[ ! -e "$(CTX)/schemes/2" ]
}

@test "emulated scheme directories have the kernel's files" {
	make_sysfs off 0
	damoctl scheme add stat
	mkdir -p "$BATS_TEST_TMPDIR/ref"
	make_sysfs_scheme "$BATS_TEST_TMPDIR/ref" stat 0 18446744073709551615 0 4294967295 0 4294967295
	run diff -r "$BATS_TEST_TMPDIR/ref" "$(CTX)/schemes/0"
	assert_success
}

@test "emulated state: commit leaves the state on" {
	make_sysfs on 0
	run damoctl scheme add lru_prio
	assert_success
	[ "$(cat "$(ADMIN)/kdamonds/0/state")" = on ]
	run damoctl monitor status
	assert_line --index 0 "on (sysfs, kdamond pid 4242)"
}

@test "a kdamond index that does not exist is not created over others" {
	make_sysfs off 1
	before=$(tree_sum)
	run damoctl --kdamond 1 scheme add stat
	assert_failure 1
	assert_output "damoctl: scheme add: kdamond 1 does not exist: making it means writing nr_kdamonds, which would remove the 1 kdamond there with its setup: use --kdamond 0..0"
	[ "$(tree_sum)" = "$before" ]
}

@test "fresh tree: add creates kdamond 0 and its context" {
	make_sysfs_empty
	run damoctl scheme add lru_prio
	assert_success
	[ "$(cat "$(ADMIN)/kdamonds/nr_kdamonds")" = 1 ]
	[ "$(cat "$(CTX)/schemes/0/action")" = lru_prio ]
	[ "$(cat "$(CTX)/operations")" = vaddr ]
	run damoctl attrs
	assert_output "sample 5ms aggr 100ms update 1m regions 10 1000"
}

@test "targets: paddr region, vaddr pids, fvaddr" {
	make_sysfs off 0
	run damoctl target show
	assert_output "paddr region 0x100000000 0x200000000"
	run damoctl target set vaddr pid 100 pid 200 region 0x1000 0x3000
	assert_success
	run damoctl target show
	assert_output "vaddr pid 100 pid 200 region 0x1000 0x3000"
	run damoctl target set fvaddr region 0x1000 0x2000
	assert_success
	run damoctl --json target
	assert_output '{"operations":"fvaddr","targets":[{"pid":0,"regions":[{"start":4096,"end":8192}]}]}'
	run damoctl target set paddr region 1G 2G region 3G 4G
	assert_success
	run damoctl target set paddr region 3G 4G region 1G 2G
	assert_failure 2
}

@test "monitor start and stop" {
	make_sysfs off 0
	run damoctl monitor start
	assert_success
	[ "$(cat "$(ADMIN)/kdamonds/0/state")" = on ]
	run damoctl monitor stop
	[ "$(cat "$(ADMIN)/kdamonds/0/state")" = off ]
}

@test "monitor start is refused while an exclusive DAMON user runs (Linux 6.1)" {
	load lru_sort
	make_sysfs off 0
	make_lru_sort
	lru_sort_on
	local before
	before=$(tree_sum)
	run damoctl monitor start
	assert_failure 1
	assert_output "damoctl: monitor start: damon_lru_sort is on, and sysfs monitoring does not start next to another DAMON user: stop it first (damoctl lru-sort disable)"
	echo N > "$(LRU)/enabled"
	make_dbgfs
	echo paddr > "$ROOT/sys/kernel/debug/damon/target_ids"
	# a machine's System RAM, for the paddr target of no region
	mkdir -p "$ROOT/proc"
	echo "00100000-7ffdffff : System RAM" > "$ROOT/proc/iomem"
	echo on > "$(ADMIN)/kdamonds/0/state"
	before=$(tree_sum)
	run --separate-stderr damoctl --interface dbgfs monitor start
	assert_failure 1
	[ "$stderr" = "damoctl: monitor start: a sysfs kdamond is on ($(ADMIN)/kdamonds/0/state), and dbgfs monitoring does not start next to another DAMON user: stop it first (damoctl monitor stop)" ]
	[ "$(tree_sum)" = "$before" ]
	# the advice names the kdamond that is on (the library's hint says which)
	echo off > "$(ADMIN)/kdamonds/0/state"
	mkdir -p "$(ADMIN)/kdamonds/12"
	echo on > "$(ADMIN)/kdamonds/12/state"
	run --separate-stderr damoctl --interface dbgfs monitor start
	assert_failure 1
	[ "$stderr" = "damoctl: monitor start: a sysfs kdamond is on ($(ADMIN)/kdamonds/12/state), and dbgfs monitoring does not start next to another DAMON user: stop it first (damoctl --kdamond 12 monitor stop)" ]
}

# The check is damon_setup_apply()'s, before its first write (a start it
# refused at the write would have written the setup and put it back);
# apply's own check of its file comes before.
@test "monitor start and apply with monitor on next to a running damon_lru_sort (Linux 6.1): no write at all" {
	load lru_sort
	make_sysfs off 0
	make_lru_sort
	lru_sort_on
	printf '%s\n' "attrs sample 10ms aggr 200ms" "target paddr region 4G 8G" \
		"scheme stat" "monitor on" > "$BATS_TEST_TMPDIR/on.conf"
	local before cmd
	before=$(tree_sum)
	for cmd in "monitor start" "scheme add stat" "apply $BATS_TEST_TMPDIR/on.conf"; do
		[ "$cmd" = "scheme add stat" ] && { damoctl $cmd; before=$(tree_sum); continue; }
		rm -f "$BATS_TEST_TMPDIR/w.log"
		run env DAMOS_FAULT_LOG="$BATS_TEST_TMPDIR/w.log" "$DAMOCTL_FAULT" --root "$ROOT" $cmd
		assert_failure
		assert_output --partial "damon_lru_sort is on"
		[ ! -s "$BATS_TEST_TMPDIR/w.log" ] || fail "$cmd wrote: $(cat "$BATS_TEST_TMPDIR/w.log")"
		[ "$(tree_sum)" = "$before" ]
	done
	# Linux 6.1 with dbgfs: its monitor_on reads on while the module's
	# context runs, its kdamond_pid none: the module is named, not dbgfs
	make_dbgfs
	echo on > "$ROOT/sys/kernel/debug/damon/monitor_on"
	run damoctl monitor start
	assert_failure 1
	assert_output --partial "damon_lru_sort is on, and sysfs monitoring does not start"
}

@test "monitor start when on, stop when off: nothing to write, status 0" {
	# Linux 6.1 refuses "on" while on (EBUSY) and "off" while off (EINVAL)
	make_sysfs on 0
	run damoctl --dry-run monitor start
	assert_success
	assert_output ""
	echo off > "$(ADMIN)/kdamonds/0/state"
	run damoctl --dry-run monitor stop
	assert_success
	assert_output ""
	make_dbgfs
	run damoctl --interface dbgfs --dry-run monitor stop
	assert_success
	assert_output ""
	echo on > "$ROOT/sys/kernel/debug/damon/monitor_on"
	run damoctl --interface dbgfs --dry-run monitor start
	assert_success
	assert_output ""
}

# The kernel keeps a sysfs age or access count as unsigned long and
# truncates it to unsigned int only when it makes the scheme; a value
# beyond 32 bits that another tool wrote is the file's, and libdamos keeps
# it (found by fuzz_tree, corpus regress-sysfs-age-beyond-u32).
@test "a sysfs age beyond 32 bits another tool left is listed, and kept through scheme add" {
	make_sysfs off 1
	local s="$ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/schemes/0"
	put "$s/access_pattern/age/max" 8589934592
	run damoctl scheme list
	assert_success
	assert_line "damoctl: warning: scheme 0: max age: 8589934592 is out of range (max 4294967295)"
	assert_line --partial "0: pageout sz 4K 8K access 0 5 age 10 8589934592 "
	run damoctl scheme add stat
	assert_success
	[ "$(cat "$s/access_pattern/age/max")" = 8589934592 ]
	run damoctl scheme list
	assert_line "damoctl: warning: scheme 0: max age: 8589934592 is out of range (max 4294967295)"
	assert_line --partial "0: pageout sz 4K 8K access 0 5 age 10 8589934592 "
	assert_line --partial "1: stat "
}
