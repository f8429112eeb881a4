#!/usr/bin/env bats
# damoctl reclaim against a fake /sys/module/damon_reclaim/parameters
# (Linux 6.12's files, or 6.1's): the same module model as lru-sort, units
# as in schemes, only what changes is written, commit_inputs for a running
# module, a parameter the kernel lacks refused naming the release, and
# every write one transaction (a failed write puts the files back).

load helper
load reclaim
load transactions

setup() {
	ROOT="$BATS_TEST_TMPDIR/root"
	mkdir -p "$ROOT"
	make_reclaim
}

teardown() {
	[ -z "${TXN_WORK:-}" ] || rm -rf "$TXN_WORK"
}

param() { cat "$(RECLAIM)/$1"; }

@test "reclaim status: the parameters with units and as files, the stats, the scheme" {
	echo 9 > "$(RECLAIM)/nr_reclaim_tried_regions"
	echo 36864 > "$(RECLAIM)/bytes_reclaim_tried_regions"
	echo 2 > "$(RECLAIM)/nr_quota_exceeds"
	run damoctl reclaim
	assert_success
	assert_line --index 0 "damon_reclaim: off"
	assert_line --regexp '^cold +2m +min_age=120000000$'
	assert_line --regexp '^quota +time 10ms size 128M reset 1s +quota_ms=10 quota_sz=134217728 quota_reset_interval_ms=1000$'
	assert_line --regexp '^wmarks +5s 50% 40% 20% +wmarks_interval=5000000 wmarks_high=500 wmarks_mid=400 wmarks_low=200$'
	assert_line --regexp '^skip_anon off +skip_anon=N$'
	assert_line --regexp '^cold +pageout +9 +36864 +0 +0 +2$'
	# damon_reclaim_new_scheme(): not accessed for 120 s of 100 ms, oldest first
	assert_line "  pageout sz 4K max access 0 0 age 1200 max quota time 10ms size 128M reset 1s weights 0 0 1 wmarks free_mem_rate 5s 500 400 200"
	reclaim_on
	run damoctl reclaim status
	assert_line --index 0 "damon_reclaim: on, kdamond pid 4321"
}

@test "reclaim status --json: parameters by file name, skip_anon a boolean, the scheme" {
	reclaim_on
	run damoctl --json reclaim status
	assert_success
	python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["enabled"] is True and d["kdamond_pid"] == 4321, d
p = d["parameters"]
assert p["min_age"] == 120000000 and p["quota_sz"] == 134217728, p
assert p["skip_anon"] is False, p
assert len(d["schemes"]) == 1 and d["schemes"][0]["action"] == "pageout", d
' <<<"$output"
}

@test "reclaim set: units as in schemes, only the changed files written, no commit when off" {
	run damoctl reclaim set cold 30s quota time 20ms size 1G reset 2s pressure 5ms \
		feedback 5000 wmarks 1s 60% 30% 10% sample 10ms aggr 200ms regions 20 2000 \
		region 4G 8G skip_anon on
	assert_success
	assert_output ""
	[ "$(param min_age)" = 30000000 ]
	[ "$(param quota_ms) $(param quota_sz) $(param quota_reset_interval_ms)" = "20 1073741824 2000" ]
	[ "$(param quota_mem_pressure_us) $(param quota_autotune_feedback)" = "5000 5000" ]
	[ "$(param wmarks_interval) $(param wmarks_high) $(param wmarks_mid) $(param wmarks_low)" = "1000000 600 300 100" ]
	[ "$(param sample_interval) $(param aggr_interval)" = "10000 200000" ]
	[ "$(param min_nr_regions) $(param max_nr_regions)" = "20 2000" ]
	[ "$(param monitor_region_start) $(param monitor_region_end)" = "4294967296 8589934592" ]
	[ "$(param skip_anon)" = Y ]
	[ "$(param commit_inputs)" = N ]
	[ "$(param enabled)" = N ]
	# the module's scheme follows: the goals and the anon filter of 6.12
	run damoctl reclaim status
	assert_line "  pageout sz 4K max access 0 0 age 150 max quota time 20ms size 1G reset 2s weights 0 0 1 wmarks free_mem_rate 1s 600 300 100 filter anon goal some_mem_psi_us 5000 0 goal user_input 10000 5000"
	# nothing else changed: nothing written
	run damoctl --dry-run reclaim set cold 30s skip_anon on
	assert_success
	assert_output ""
}

@test "reclaim set on a running module: the changed files, then commit_inputs" {
	reclaim_on
	run damoctl --dry-run reclaim set quota size 64M
	assert_success
	assert_output --partial "echo 67108864 > $ROOT/sys/module/damon_reclaim/parameters/quota_sz
echo Y > $ROOT/sys/module/damon_reclaim/parameters/commit_inputs"
	run damoctl reclaim set quota size 64M
	assert_success
	[ "$(param quota_sz)" = 67108864 ]
	[ "$(param commit_inputs)" = Y ]
}

@test "reclaim enable writes the parameters first and enabled last; disable writes N first" {
	run damoctl --dry-run reclaim enable cold 1m
	assert_success
	assert_output --partial "echo 60000000 > $ROOT/sys/module/damon_reclaim/parameters/min_age
echo Y > $ROOT/sys/module/damon_reclaim/parameters/enabled"
	run damoctl reclaim enable cold 1m
	assert_success
	[ "$(param enabled)" = Y ]
	[ "$(param min_age)" = 60000000 ]
	reclaim_on
	run damoctl reclaim disable
	assert_success
	[ "$(param enabled)" = N ]
	run damoctl --dry-run reclaim disable
	assert_output ""
}

@test "reclaim enable is refused while damon_lru_sort runs, naming how to stop it" {
	put "$ROOT/sys/module/damon_lru_sort/parameters/enabled" Y
	run damoctl reclaim enable cold 1m
	assert_failure 1
	assert_output "damoctl: reclaim enable: damon_lru_sort is on, and damon_reclaim does not start next to another DAMON user: stop it first (damoctl lru-sort disable)"
	[ "$(param enabled)" = N ]
	[ "$(param min_age)" = 120000000 ]
}

@test "Linux 6.1's damon_reclaim: no skip_anon, pressure or feedback; setting one names the release" {
	rm -rf "$ROOT/sys/module"
	make_reclaim 6.1
	run damoctl reclaim status
	assert_success
	refute_output --partial skip_anon
	refute_output --partial pressure
	local before
	before=$(tree_sum)
	run damoctl reclaim set cold 1m skip_anon on
	assert_failure 1
	assert_output "damoctl: reclaim set: skip_anon: damon_reclaim has no parameter skip_anon (Linux 6.1.0-test; it came in Linux 6.3); nothing was changed"
	run damoctl reclaim set pressure 1ms
	assert_failure 1
	assert_output --partial "quota_mem_pressure_us: damon_reclaim has no parameter quota_mem_pressure_us (Linux 6.1.0-test; it came in Linux 6.9)"
	[ "$(tree_sum)" = "$before" ]
	run damoctl reclaim set cold 1m
	assert_success
	[ "$(param min_age)" = 60000000 ]
}

@test "reclaim: bad keywords and values name what is wrong; nothing is written" {
	local before
	before=$(tree_sum)
	run damoctl reclaim set frob 1
	assert_failure 2
	assert_output "damoctl: reclaim set: unknown keyword 'frob' (expected cold quota pressure feedback wmarks sample aggr regions region skip_anon)"
	run damoctl reclaim set quota size 1X
	assert_failure 2
	assert_output "damoctl: reclaim set: quota size: '1X' is not a size (units: B K M G T)"
	run damoctl reclaim set skip_anon maybe
	assert_failure 2
	assert_output "damoctl: reclaim set: skip_anon: 'maybe' is not on or off"
	run damoctl reclaim set feedback lots
	assert_failure 2
	assert_output "damoctl: reclaim set: feedback: 'lots' is not a number"
	run damoctl reclaim set quota
	assert_failure 2
	assert_output "damoctl: reclaim set: quota: expected time VALUE and/or size VALUE and/or reset VALUE"
	run damoctl reclaim set wmarks 5s 10% 20% 5%
	assert_failure 2
	assert_output "damoctl: reclaim set: wmarks: high 10% >= mid 20% >= low 5% does not hold; nothing was written"
	run damoctl reclaim set region 8G 4G
	assert_failure 2
	assert_output --partial "region: 0x200000000 0x100000000 is empty"
	run damoctl reclaim set
	assert_failure 2
	[ "$(tree_sum)" = "$before" ]
}

@test "no damon_reclaim in the kernel: status 1, the directory named" {
	rm -rf "$ROOT/sys/module"
	run damoctl reclaim status
	assert_failure 1
	assert_output "damoctl: reclaim status: damon_reclaim is not in this kernel: $ROOT/sys/module/damon_reclaim/parameters does not exist"
}

@test "reclaim takes no --kdamond or --context" {
	run damoctl --kdamond 1 reclaim set cold 1m
	assert_failure 2
	assert_output "damoctl: reclaim set: --kdamond 1: damon_reclaim runs its own kdamond; reclaim takes no --kdamond"
	[ "$(param min_age)" = 120000000 ]
}

@test "module writes are transactions: a failure at every write leaves the module's files as before or as after" {
	reclaim_on
	make_lru_sort_here() {
		local p="$1/sys/module/damon_lru_sort/parameters" kv
		mkdir -p "$p"
		for kv in enabled=Y commit_inputs=N kdamond_pid=77 hot_thres_access_freq=500 \
			cold_min_age=120000000 quota_ms=10 quota_reset_interval_ms=1000 \
			wmarks_interval=5000000 wmarks_high=200 wmarks_mid=150 wmarks_low=50 \
			sample_interval=5000 aggr_interval=100000 min_nr_regions=10 \
			max_nr_regions=1000 monitor_region_start=0 monitor_region_end=0; do
			echo "${kv#*=}" > "$p/${kv%%=*}"
		done
		for h in hot cold; do
			for f in nr_lru_sort_tried_${h}_regions bytes_lru_sort_tried_${h}_regions \
				nr_lru_sorted_${h}_regions bytes_lru_sorted_${h}_regions nr_${h}_quota_exceeds; do
				echo 0 > "$p/$f"
			done
		done
	}
	cp -a "$ROOT" "$BATS_TEST_TMPDIR/off"
	echo N > "$BATS_TEST_TMPDIR/off/sys/module/damon_reclaim/parameters/enabled"
	make_lru_sort_here "$BATS_TEST_TMPDIR/lru"
	txn_setup
	txn_sweep "reclaim set (on)" "$ROOT" reclaim set cold 1m quota size 1G skip_anon on wmarks 1s 60% 30% 10%
	txn_sweep "reclaim disable" "$ROOT" reclaim disable
	txn_sweep "reclaim enable" "$BATS_TEST_TMPDIR/off" reclaim enable cold 1m regions 20 2000
	txn_sweep "lru-sort set (on)" "$BATS_TEST_TMPDIR/lru" lru-sort set hot 30% cold 1m quota time 20ms
	echo "module transactions: $TXN_CMDS commands, $TXN_RUNS faulted runs, $TXN_HALF half-applied" >&3
	[ "$TXN_HALF" -eq 0 ] || fail "$(head -40 "$TXN_WORK/half")"
	[ "$TXN_CMDS" -eq 4 ]
	[ "$TXN_RUNS" -ge 14 ]
}

@test "a failed enable puts the parameters back and leaves the module off" {
	[ -x "$DAMOCTL_FAULT" ] || fail "no $DAMOCTL_FAULT"
	local before log
	before=$(txn_digest "$ROOT")
	log=$BATS_TEST_TMPDIR/log
	cp -a "$ROOT" "$BATS_TEST_TMPDIR/copy"
	DAMOS_FAULT_LOG=$log "$DAMOCTL_FAULT" --root "$BATS_TEST_TMPDIR/copy" reclaim enable cold 1m quota size 1G
	# the last write is enabled=Y: fail it
	tail -1 "$log" | grep -q '/enabled$'
	run env DAMOS_FAULT=$(wc -l < "$log"):16 "$DAMOCTL_FAULT" --root "$ROOT" reclaim enable cold 1m quota size 1G
	assert_failure 1
	assert_output --partial "damoctl: reclaim enable: cannot write $(RECLAIM)/enabled: Device or resource busy"
	[ "$(txn_digest "$ROOT")" = "$before" ]
	[ "$(param min_age) $(param quota_sz) $(param enabled)" = "120000000 134217728 N" ]
}

@test "monitor status shows damon_reclaim beside the interface, text and --json" {
	make_sysfs off 0
	run damoctl monitor status
	assert_success
	assert_line --regexp '^reclaim +off$'
	reclaim_on
	run damoctl monitor status
	assert_line --regexp '^reclaim +on, kdamond pid 4321$'
	run damoctl --json monitor status
	assert_success
	python3 -c 'import json, sys; d = json.load(sys.stdin); assert d["reclaim"] == {"enabled": True, "kdamond_pid": 4321}, d' <<<"$output"
}

@test "reclaim status --watch --count, and reclaim alone runs status" {
	run damoctl reclaim status --watch 10ms --count 2
	assert_success
	[ "$(grep -c '^damon_reclaim: off' <<<"$output")" = 2 ]
	run damoctl reclaim
	assert_success
	assert_line --index 0 "damon_reclaim: off"
}
