#!/usr/bin/env bats
# damoctl's interactive shell on the real kernel, through a pseudo-terminal
# (helpers/ptyexpect): LRU sorting set up by hand, monitoring started, the
# statistics watched until the kernel has applied the schemes.

load helpers/common

setup() {
	damon_off
	log_mark
	export HOME=$BATS_TEST_TMPDIR TERM=vt100
	export INPUTRC=$BATS_TEST_TMPDIR/inputrc
	echo 'set enable-bracketed-paste off' > "$INPUTRC"
}

teardown() {
	stop_workload
	damon_off
	assert_kernel_log_clean
}

# shell [DAMOCTL OPTIONS...] < SCRIPT: a session; $output is its transcript.
shell() {
	run "$HELPERS/ptyexpect" -t 180 -- "$DAMOCTL" "$@"
}

session_script() {	# IFACE: the session both interfaces go through
	local range
	range=$(paddr_range)
	cat <<-EOF
	expect damoctl> 
	send attrs set sample ${SAMPLE_US}us aggr ${AGGR_US}us update 1s regions 10 1000\r
	expect damoctl> 
	send target set pa\t
	expect paddr 
	send region ${range% *} ${range#* }\r
	expect damoctl> 
	send scheme add lru_p\t\r
	expect damoctl> 
	send scheme add lru_deprio age 1s max\r
	expect damoctl> 
	send scheme list\r
	expect-re 1: lru_deprio sz 4K max access 0 0 age $((1000000 / AGGR_US)) max
	expect damoctl> 
	send monitor start\r
	expect damoctl> 
	send monitor status\r
	expect-re on \\($1
	expect damoctl> 
	# refused by the kernel (dbgfs) or fine (sysfs): the shell goes on
	send attrs set aggr $((AGGR_US * 2))us\r
	expect damoctl> 
	send stats --watch 1s\r
	expect-re lru_prio +[1-9][0-9]* +[1-9][0-9]* +[1-9]
	send \x03
	expect damoctl> 
	send monitor stop\r
	expect damoctl> 
	send quit\r
	EOF
}

@test "shell, sysfs: lru_prio and lru_deprio, monitor start, stats until applied" {
	runs_on_debian_612 sysfs
	need sysfs paddr
	start_workload -h 64 -c 256
	shell --interface sysfs < <(session_script sysfs)
	assert_success
	assert_output --partial "0: lru_prio sz 4K max access 10 max"
	# what the session set is what the kernel held
	assert_equal "$(cat "$SYSFS_C/schemes/nr_schemes")" 2
	assert_equal "$(cat "$SYSFS_C/schemes/0/action")" lru_prio
	assert_equal "$(cat "$SYSFS_C/schemes/1/action")" lru_deprio
	assert_equal "$(cat "$SYSFS_C/operations")" paddr
	assert_equal "$(cat "$SYSFS_K/state")" off
	[ "$(cat "$SYSFS_C/schemes/0/stats/nr_applied")" -gt 0 ]
}

@test "shell, dbgfs: actions 6 and 7, a refusal while on that does not end the shell" {
	need dbgfs_lru paddr
	start_workload -h 64 -c 256
	shell --interface dbgfs < <(session_script dbgfs)
	assert_success
	assert_output --partial "dbgfs refuses to change"
	run first_fields 18 < "$DBGFS/schemes"
	assert_equal "$(field 7 "${lines[0]}")" 6
	assert_equal "$(field 7 "${lines[1]}")" 7
	assert_equal "$(cat "$DBGFS_ON")" off
	[ "$(sed -n 1p "$DBGFS/schemes" | awk '{ print $21 }')" -gt 0 ]
}

@test "shell: lru-sort through the module's parameters, completion and history" {
	runs_on_debian_612 sysfs
	need lru_sort
	shell <<-'EOF'
	expect damoctl> 
	send lru-sort set hot 30% cold 5s\r
	expect damoctl> 
	send lru-sort enable\r
	expect damoctl> 
	send lru-sort status --watch 500ms\r
	expect-re damon_lru_sort: on, kdamond pid [0-9]+
	send \x03
	expect damoctl> 
	send lru-sort set wmarks 5s 10% 20% 5%\r
	expect does not hold; nothing was written
	expect damoctl> 
	send lru-sort dis\t\r
	expect damoctl> 
	send quit\r
	EOF
	assert_success
	assert_equal "$(cat "$LRU_SORT/hot_thres_access_freq")" 300
	assert_equal "$(cat "$LRU_SORT/cold_min_age")" 5000000
	assert_equal "$(cat "$LRU_SORT/wmarks_high")" 200
	wait_for 10 eval '[ "$(cat "$LRU_SORT/kdamond_pid")" = -1 ]'
	grep -qx 'lru-sort enable' "$HOME/.damoctl_history"
}
