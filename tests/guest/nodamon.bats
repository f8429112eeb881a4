#!/usr/bin/env bats
# A kernel without DAMON (Debian's own 6.1: CONFIG_DAMON is not set): every
# damoctl command fails (status 1, not a usage error) with one line that
# says so — no DAMON in this kernel — instead of an errno about some
# file, a crash or a hang.  On a kernel with DAMON these skip.

load helpers/common

setup() {
	log_mark
	kconfig DAMON && skip "kernel has: DAMON (CONFIG_DAMON=y in $(uname -r)); this suite is for kernels without it"
	return 0
}

teardown() {
	assert_kernel_log_clean
}

# Every command of damoctl(8) that touches the kernel, with valid arguments.
COMMANDS=(
	"scheme add lru_prio"
	"scheme list"
	"scheme rm 0"
	"scheme clear"
	"scheme set 0 age 1s max"
	"scheme goal 0 0 current 1"
	"attrs show"
	"attrs set sample 5ms aggr 100ms"
	"target show"
	"target set paddr"
	"target clear"
	"monitor start"
	"monitor stop"
	"monitor status"
	"stats show"
	"lru-sort status"
	"lru-sort enable"
	"lru-sort set hot 30%"
	"lru-sort disable"
	"reclaim status"
	"reclaim enable"
	"reclaim set cold 1m"
	"reclaim disable"
)

# says_no_damon CMD OUTPUT: one line, "damoctl: CMD: ..." saying that DAMON
# (or, for lru-sort and reclaim, damon_lru_sort or damon_reclaim) is not in
# this kernel.
says_no_damon() {
	local cmd=$1 out=$2 what a b
	read -r a b _ <<<"$cmd"
	what=$a${b:+ $b}
	[ "$(wc -l <<<"$out")" -eq 1 ] || { echo "more than one line for '$cmd':"; echo "$out"; return 1; }
	case $out in
	"damoctl: $what: "*) ;;
	*) echo "'$cmd' does not name itself: $out"; return 1 ;;
	esac
	grep -qiE 'no DAMON|DAMON is not|without DAMON|damon_(lru_sort|reclaim) is not in this kernel' <<<"$out" ||
		{ echo "'$cmd' does not say there is no DAMON: $out"; return 1; }
}

@test "no DAMON: the kernel really has none (no sysfs, no dbgfs, no module parameters)" {
	[ ! -e "$SYSFS" ]
	[ ! -e "$DBGFS" ]
	[ ! -e "$LRU_SORT" ]
	[ ! -e /sys/module/damon_reclaim ]
	mountpoint -q /sys/kernel/debug	# dbgfs would be there if it existed
}

@test "no DAMON: every damoctl command fails with status 1 and says there is no DAMON" {
	local cmd bad=0
	for cmd in "${COMMANDS[@]}"; do
		run "$DAMOCTL" $cmd
		echo "damoctl $cmd -> $status: $output"
		[ "$status" -eq 1 ] || { echo "  status $status, expected 1"; bad=$((bad + 1)); continue; }
		says_no_damon "$cmd" "$output" || bad=$((bad + 1))
	done
	[ "$bad" -eq 0 ]
}

@test "no DAMON: with --interface sysfs and dbgfs too" {
	local iface cmd bad=0
	for iface in sysfs dbgfs; do
		for cmd in "scheme list" "scheme add lru_prio" "monitor status" "stats show"; do
			run "$DAMOCTL" --interface "$iface" $cmd
			echo "damoctl --interface $iface $cmd -> $status: $output"
			[ "$status" -eq 1 ] || { bad=$((bad + 1)); continue; }
			says_no_damon "$cmd" "$output" || bad=$((bad + 1))
		done
	done
	[ "$bad" -eq 0 ]
}

@test "no DAMON: apply of a valid file fails whole and says there is no DAMON" {
	local conf=$BATS_TEST_TMPDIR/damoctl.conf
	printf 'interface auto\nattrs sample 5ms aggr 100ms\ntarget paddr\nscheme lru_prio\nmonitor on\n' > "$conf"
	run "$DAMOCTL" apply "$conf"
	echo "$output"
	assert_failure 1
	says_no_damon apply "$output"
}

@test "no DAMON: --json reports the error as JSON" {
	run "$DAMOCTL" --json scheme list
	echo "$output"
	assert_failure 1
	assert_output --regexp '^\{.*"error".*\}$'
	assert_output --regexp '(no DAMON|DAMON is not)'
}

@test "no DAMON: the interactive shell says so and goes on" {
	run "$HELPERS/ptyexpect" -t 60 -- "$DAMOCTL" <<-'EOF2'
	expect damoctl> 
	send scheme list\r
	expect-re no DAMON|DAMON is not
	expect damoctl> 
	send monitor status\r
	expect-re no DAMON|DAMON is not
	expect damoctl> 
	send quit\r
	EOF2
	echo "$output"
	assert_success
}
