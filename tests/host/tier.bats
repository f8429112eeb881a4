#!/usr/bin/env bats
# damoctl tier (issue 44) on fake trees of a two-node machine (numa.bash:
# node 0 with the CPUs and 3 GiB, node 1 with 1 GiB and none) and Linux
# 6.12's sysfs: the setup is two kdamonds in one transaction, the goals'
# current values come from node 0's meminfo, "tier run" feeds them until
# "tier disable", and what the kernel cannot take is refused.  The guest
# (tests/guest/numa.bats) proves that pages move.

load helper
load numa

ADMIN=sys/kernel/mm/damon/admin

# run.err and the exported specs go to the test's directory, not to the one
# bats runs from.
setup() {
	ROOT="$BATS_TEST_TMPDIR/root"
	mkdir -p "$ROOT"
	cd "$BATS_TEST_TMPDIR" || return 1
}

S() { echo "$ROOT/$ADMIN/kdamonds/$1/contexts/0/schemes/0/$2"; }

tree() {
	make_sysfs
	put "$ROOT/$ADMIN/kdamonds/0/contexts/0/targets/nr_targets" 0
	put "$ROOT/proc/sys/kernel/osrelease" 6.12.118-amd64
	make_nodes
	: > "$ROOT/proc/vmstat"
	printf '%s\n' "pgmigrate_success 10" "pgdemote_kswapd 0" "pgpromote_success 0" > "$ROOT/proc/vmstat"
}

@test "tier conf: the fast node has CPUs, the slow one none; damo's mem_tier.sh as two kdamond sections" {
	tree
	run damoctl tier conf
	assert_success
	assert_line "kdamond 0"
	assert_line "target paddr region 0x1000 0x9fc00 region 0x100000 0x7ffda000 region 0x100000000 0x140000000"
	assert_line --partial "scheme migrate_cold access 0 0 age 5000000us max nid 1 quota size 20971520 reset 100 filter young goal user_input 50 7500"
	assert_line "target paddr region 0x140000000 0x180000000"
	assert_line --partial "scheme migrate_hot access 5% max nid 0 quota size 20971520 reset 100 goal user_input 9970 2500"
	run damoctl tier conf quota 50M free 10% used 90% cold 30s hot 10%
	assert_success
	assert_output --partial "age 30000000us max nid 1 quota size 5242880 reset 100"
	assert_output --partial "goal user_input 1000 7500"
	assert_output --partial "migrate_hot access 10% max"
}

@test "tier conf: bad values and machines with nothing to tier are named" {
	tree
	run damoctl tier conf fast 0 slow 0
	assert_failure 2
	assert_output --partial "fast 0 slow 0: two nodes, not one"
	run damoctl tier conf slow 7
	assert_failure 1
	assert_output --partial "node 7: no such node with memory"
	run damoctl tier conf free 101%
	assert_failure 2
	assert_output --partial "free: '101%' is not a percentage"
	run damoctl tier conf quota 0
	assert_failure 2
	run damoctl tier conf frob 1
	assert_failure 2
	assert_output --partial "unknown keyword 'frob'"
	echo 0-1 > "$ROOT/sys/devices/system/node/node1/cpulist"
	run damoctl tier conf
	assert_failure 1
	assert_output --partial "no node of memory without CPUs (2 nodes)"
	rm -rf "$ROOT/sys/devices/system/node"
	run damoctl tier conf
	assert_failure 1
	assert_output --partial "a kernel without NUMA has no nodes to tier"
}

@test "tier enable: both kdamonds in one apply, the goals' current values from node 0's meminfo" {
	tree
	run damoctl tier enable
	assert_success
	assert_output --partial "2 kdamonds set"
	[ "$(cat "$ROOT/$ADMIN/kdamonds/nr_kdamonds")" = 2 ]
	[ "$(cat "$(S 0 action)")" = migrate_cold ]
	[ "$(cat "$(S 0 target_nid)")" = 1 ]
	[ "$(cat "$(S 1 action)")" = migrate_hot ]
	[ "$(cat "$(S 1 target_nid)")" = 0 ]
	[ "$(cat "$(S 0 quotas/goals/0/current_value)")" = 7500 ]
	[ "$(cat "$(S 1 quotas/goals/0/current_value)")" = 2500 ]
	[ "$(cat "$ROOT/$ADMIN/kdamonds/0/state")" = on ]
	[ "$(cat "$ROOT/$ADMIN/kdamonds/1/state")" = on ]
	# node 1's region is node 1's memory, exactly
	r=$ROOT/$ADMIN/kdamonds/1/contexts/0/targets/0/regions
	[ "$(cat "$r/nr_regions")" = 1 ]
	[ "$(printf '%x %x' "$(cat "$r/0/start")" "$(cat "$r/0/end")")" = "140000000 180000000" ]
	run damoctl tier status
	assert_success
	assert_output --partial "node 0  CPUs     3072 MiB, 768 MiB used (25.0%)"
	assert_output --partial "node 1  no CPUs  1024 MiB, 256 MiB used (25.0%)"
	assert_output --partial "pgmigrate_success    10"
	assert_output --partial "pgdemote_direct      not on this kernel"
	assert_output --partial "kdamond 0 on   migrate_cold to node 1"
	assert_output --partial "goal user_input 9970 bp (the fast node's used memory), last fed 2500"
	run damoctl tier disable
	assert_success
	[ "$(cat "$ROOT/$ADMIN/kdamonds/0/state")" = off ]
	[ "$(cat "$ROOT/$ADMIN/kdamonds/1/state")" = off ]
}

@test "tier run feeds the goals from meminfo each round and ends once the tier is off" {
	tree
	damoctl tier enable
	# 10% free: 314572.8 kB; the kernel's basis points are whole
	sed -i 's/MemFree: *[0-9]*/MemFree:        314573/' "$ROOT/sys/devices/system/node/node0/meminfo"
	"$DAMOCTL" --root "$ROOT" tier run interval 100ms > run.err 2>&1 &
	pid=$!
	for i in $(seq 100); do
		[ "$(cat "$(S 0 quotas/goals/0/current_value)")" = 1000 ] && break
		sleep 0.1
	done
	[ "$(cat "$(S 0 quotas/goals/0/current_value)")" = 1000 ]
	[ "$(cat "$(S 1 quotas/goals/0/current_value)")" = 9000 ]
	damoctl tier disable
	for i in $(seq 100); do
		kill -0 $pid 2>/dev/null || break
		sleep 0.1
	done
	# wait here, not in run's subshell (the job is this shell's)
	rc=0
	wait $pid || rc=$?
	[ $rc -eq 0 ] || fail "tier run: status $rc: $(cat run.err)"
	grep -q "kdamonds 0 and 1 are off: nothing to feed" run.err
}

@test "tier run ends on SIGTERM; tier commands refuse kdamonds that are not the tier's" {
	tree
	run damoctl tier run
	assert_failure 1
	assert_output --partial "is not damoctl tier's"
	local before
	before=$(find "$ROOT/$ADMIN" -type f -exec md5sum {} + | sort)
	run damoctl tier disable
	assert_failure 1
	assert_output --partial "kdamond 0 is not damoctl tier's"
	[ "$(find "$ROOT/$ADMIN" -type f -exec md5sum {} + | sort)" = "$before" ]
	damoctl tier enable
	sed -i 's/MemFree: *[0-9]*/MemFree:        314573/' "$ROOT/sys/devices/system/node/node0/meminfo"
	"$DAMOCTL" --root "$ROOT" tier run > run.err 2>&1 &
	pid=$!
	# once it has fed a round (it starts slowly on a loaded machine)
	for i in $(seq 100); do
		[ "$(cat "$(S 0 quotas/goals/0/current_value)")" = 1000 ] && break
		sleep 0.1
	done
	kill -TERM $pid
	rc=0
	wait $pid || rc=$?
	[ $rc -eq 0 ] || fail "tier run: status $rc: $(cat run.err)"
	grep -q "SIGTERM after" run.err
}

@test "tier enable on Linux 6.1 is refused before any write" {
	tree
	put "$ROOT/proc/sys/kernel/osrelease" 6.1.192-amd64
	before=$(find "$ROOT/sys/kernel" -type f -exec md5sum {} + | sort | md5sum)
	run damoctl tier enable
	assert_failure
	assert_output --partial "Linux 6."
	[ "$(find "$ROOT/sys/kernel" -type f -exec md5sum {} + | sort | md5sum)" = "$before" ]
}

@test "damoctl-tier.service: systemd-analyze verify, installed by the package" {
	local u=$BATS_TEST_TMPDIR/unit src=$BATS_TEST_DIRNAME/../..
	mkdir -p "$u"
	sed "s|@BINDIR@/damoctl|$DAMOCTL|" "$src/cli/damoctl-tier.service" > "$u/damoctl-tier.service"
	run systemd-analyze verify --man=no "$u/damoctl-tier.service"
	assert_success
	grep -qx "lib/systemd/system/damoctl-tier.service" "$src/debian/damoctl.install"
	grep -q "^ExecStart=@BINDIR@/damoctl tier run$" "$src/cli/damoctl-tier.service"
}

@test "export damo of the tier setup is damo's; damo v3.3.0's reading of it applies back to the same setup (fixtures/damo-3.3.0/reread)" {
	local fx=$BATS_TEST_DIRNAME/fixtures/damo-3.3.0/reread
	tree
	damoctl tier enable
	damoctl export damo > export.json
	diff -u "$fx/tier-export.json" export.json
	# what damo printed for it: applied over the setup, nothing changes
	before=$(find "$ROOT/sys/kernel/mm" -type f -exec md5sum {} + | sort | md5sum)
	run damoctl apply "$fx/tier-export.damo.json"
	assert_success
	[ "$(find "$ROOT/sys/kernel/mm" -type f -exec md5sum {} + | sort | md5sum)" = "$before" ]
	# and on a tree of one kdamond it makes the same setup
	rm -rf "$ROOT"; mkdir -p "$ROOT"
	tree
	run damoctl apply "$fx/tier-export.damo.json"
	assert_success
	damoctl export damo > again.json
	diff -u "$fx/tier-export.json" again.json
}

@test "damo's compound times (1 m, 1 m 30 s, 2 h 5 m) are read, and written as damo writes them" {
	tree
	damoctl tier enable
	damoctl export damo > e.json
	grep -q '"ops_update_us": "1 m"' e.json
	python3 - e.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["kdamonds"] = d["kdamonds"][:1]
c = d["kdamonds"][0]["contexts"][0]
c["intervals"]["ops_update_us"] = "2 h 5 m 30 s"
c["schemes"][0]["access_pattern"]["age"]["min"] = "1 m 30 s"
json.dump(d, open("c.json", "w"))
PY
	run damoctl -k 0 apply c.json
	assert_success
	[ "$(cat "$ROOT/$ADMIN/kdamonds/0/contexts/0/monitoring_attrs/intervals/update_us")" = $(((2 * 3600 + 5 * 60 + 30) * 1000000)) ]
	[ "$(cat "$(S 0 access_pattern/age/min)")" = 900 ]
	damoctl -k 0 export damo > c2.json
	grep -q '"ops_update_us": "2 h 5 m 30 s"' c2.json
	grep -q '"min": "1 m 30 s"' c2.json
}
