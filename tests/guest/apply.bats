#!/usr/bin/env bats
# damoctl apply on the real kernel: a damoctl.conf(5) file made the live
# setup on sysfs and dbgfs, a bad file that changes nothing, the module
# through the file, the systemd unit's command as at boot, the man pages.

load helpers/common

UNIT=$DAMOS_UNITDIR/damoctl.service

setup() {
	damon_off
	log_mark
	CONF=$BATS_TEST_TMPDIR/damoctl.conf
}

teardown() {
	stop_workload
	damon_off
	rm -f /etc/damoctl.conf
	assert_kernel_log_clean
}

# write_conf IFACE [MONITOR]: LRU sorting with schemes on the largest RAM range.
write_conf() {
	local range
	range=$(paddr_range)
	cat > "$CONF" <<-EOF
	# LRU sorting with DAMOS schemes
	interface $1
	attrs sample ${SAMPLE_US}us aggr ${AGGR_US}us update 1s regions 10 1000
	target paddr region ${range% *} ${range#* }
	scheme lru_prio
	scheme lru_deprio age 1s max
	monitor ${2:-on}
	lru-sort off
	EOF
}

@test "apply, sysfs: attrs, target, schemes and monitoring in one step" {
	runs_on_debian_612 sysfs
	need sysfs paddr
	start_workload -h 64 -c 256
	write_conf sysfs
	run "$DAMOCTL" apply "$CONF"
	assert_success
	assert_output ""
	assert_equal "$(cat "$SYSFS_K/state")" on
	[ "$(cat "$SYSFS_K/pid")" -gt 0 ]
	assert_equal "$(cat "$SYSFS_C/operations")" paddr
	assert_equal "$(cat "$SYSFS_C/monitoring_attrs/intervals/update_us")" 1000000
	assert_equal "$(cat "$SYSFS_C/schemes/nr_schemes")" 2
	assert_equal "$(cat "$SYSFS_C/schemes/0/action")" lru_prio
	assert_equal "$(cat "$SYSFS_C/schemes/1/action")" lru_deprio
	# 1 s in aggregation intervals
	assert_equal "$(cat "$SYSFS_C/schemes/1/access_pattern/age/min")" $((1000000 / AGGR_US))
	applied() {
		echo update_schemes_stats > "$SYSFS_K/state" &&
			[ "$(cat "$SYSFS_C/schemes/0/stats/nr_applied")" -gt 0 ]
	}
	wait_for 120 applied || fail "lru_prio not applied"
	# again: nothing changes, the kdamond keeps running
	local pid
	pid=$(cat "$SYSFS_K/pid")
	run "$DAMOCTL" apply "$CONF"
	assert_success
	assert_equal "$(cat "$SYSFS_K/pid")" "$pid"
	# a running kdamond takes new schemes online
	printf 'interface sysfs\nscheme lru_prio\nscheme stat\n' > "$CONF"
	run "$DAMOCTL" apply "$CONF"
	assert_success
	assert_equal "$(cat "$SYSFS_C/schemes/1/action")" stat
	assert_equal "$(cat "$SYSFS_K/pid")" "$pid"
	printf 'interface sysfs\nmonitor off\nscheme none\n' > "$CONF"
	run "$DAMOCTL" apply "$CONF"
	assert_success
	assert_equal "$(cat "$SYSFS_K/state")" off
	assert_equal "$(cat "$SYSFS_C/schemes/nr_schemes")" 0
}

@test "apply, dbgfs: the schemes as actions 6 and 7; stopped and restarted around the writes" {
	need dbgfs_lru paddr
	start_workload -h 64 -c 256
	write_conf dbgfs
	run "$DAMOCTL" apply "$CONF"
	assert_success
	assert_equal "$(cat "$DBGFS_ON")" on
	run first_fields 18 < "$DBGFS/schemes"
	assert_equal "${lines[0]}" "4096 $ULONG_MAX 10 $U32_MAX 0 $U32_MAX 6 5 0 1000 0 1 0 0 0 0 0 0"
	assert_equal "$(field 7 "${lines[1]}")" 7
	assert_equal "$(field 5 "${lines[1]}")" $((1000000 / AGGR_US))
	# dbgfs refuses writes while on: apply stops, writes, starts again
	printf 'interface dbgfs\nscheme lru_prio\n' > "$CONF"
	run "$DAMOCTL" apply "$CONF"
	assert_success
	assert_equal "$(cat "$DBGFS_ON")" on
	run first_fields 18 < "$DBGFS/schemes"
	assert_equal "${#lines[@]}" 1
}

@test "apply: a bad file is refused whole, every bad line named, the kernel untouched" {
	runs_on_debian_612 sysfs
	need sysfs paddr lru_sort
	write_conf sysfs
	"$DAMOCTL" apply "$CONF"
	local before
	before=$("$DAMOCTL" --interface sysfs scheme list; cat "$SYSFS_K/state")
	cat > "$CONF" <<-'EOF'
	interface sysfs
	scheme lru_prio
	scheme pageout age 10s 5s
	scheme willneed
	monitor maybe
	lru-sort on
	EOF
	run "$DAMOCTL" apply "$CONF"
	assert_failure 2
	assert_line --index 0 "damoctl: apply: $CONF:3: scheme: min age 10s > max age 5s"
	assert_line --index 1 --partial "$CONF:4: scheme: willneed does nothing on paddr targets"
	assert_line --index 2 "damoctl: apply: $CONF:5: monitor: expected on or off"
	assert_line --partial "$CONF:6: lru-sort on: DAMON monitoring is on and stays on"
	assert_line "damoctl: apply: $CONF: 4 bad lines; nothing was changed"
	assert_equal "$("$DAMOCTL" --interface sysfs scheme list; cat "$SYSFS_K/state")" "$before"
	assert_equal "$(cat "$LRU_SORT/enabled")" N
}

@test "apply: damon_lru_sort through the file, DAMON off first" {
	runs_on_debian_612 sysfs
	need sysfs paddr lru_sort
	write_conf sysfs
	"$DAMOCTL" apply "$CONF"
	printf 'interface sysfs\nmonitor off\nlru-sort on hot 30%% cold 5s\n' > "$CONF"
	run "$DAMOCTL" apply "$CONF"
	assert_success
	assert_equal "$(cat "$SYSFS_K/state")" off
	enabled() { [ "$(cat "$LRU_SORT/kdamond_pid")" -gt 0 ]; }
	wait_for 10 enabled || fail "damon_lru_sort did not start"
	assert_equal "$(cat "$LRU_SORT/hot_thres_access_freq")" 300
	assert_equal "$(cat "$LRU_SORT/cold_min_age")" 5000000
	printf 'lru-sort off\n' > "$CONF"
	run "$DAMOCTL" apply "$CONF"
	assert_success
	wait_for 10 eval '[ "$(cat "$LRU_SORT/kdamond_pid")" = -1 ]'
}

@test "the unit: its ExecStart, as at boot, applies /etc/damoctl.conf" {
	runs_on_debian_612 sysfs
	need sysfs paddr
	assert_file_exists "$UNIT"
	local cmd
	cmd=$(sed -n 's/^ExecStart=//p' "$UNIT")
	assert_equal "$cmd" "$DAMOS_PREFIX/bin/damoctl apply /etc/damoctl.conf"
	write_conf sysfs
	cp "$CONF" /etc/damoctl.conf
	run "$DAMOCTL" apply check /etc/damoctl.conf
	assert_success
	# what systemd would run: the command line as it is in the unit
	run $cmd
	assert_success
	assert_equal "$(cat "$SYSFS_K/state")" on
	assert_equal "$(cat "$SYSFS_C/schemes/nr_schemes")" 2
	# ConditionPathExists: without the file the unit does nothing
	grep -qx 'ConditionPathExists=/etc/damoctl.conf' "$UNIT"
}

@test "man damoctl, damoctl.conf and libdamos render; the completion is installed and works" {
	runs_on_debian_612 any
	local page
	for page in damoctl damoctl.conf libdamos; do
		run man -w "$page"
		assert_success
		assert_output --regexp "^$DAMOS_PREFIX/(share/)?man/"
		run bash -c "MANPAGER=cat MANWIDTH=80 man $page 2>&1"
		assert_success
		assert_output --partial SYNOPSIS
		assert_output --partial "SEE ALSO"
	done
	run bash -c 'MANPAGER=cat MANWIDTH=80 man damoctl'
	assert_output --partial "INTERACTIVE SHELL"
	assert_output --partial "damoctl --interface dbgfs scheme add lru_prio"
	run bash -c 'source "$1"/share/bash-completion/completions/damoctl
		COMP_WORDS=(damoctl scheme add lru_); COMP_CWORD=3; _damoctl
		echo "${COMPREPLY[*]}"' _ "$DAMOS_PREFIX"
	assert_output "lru_prio lru_deprio"
}
