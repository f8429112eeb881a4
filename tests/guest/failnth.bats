#!/usr/bin/env bats
# Every allocation of a DAMON write failed in turn (issue 27), the way
# syzkaller and the kernel's own fault-injection docs use fail-nth: for
# N = 1, 2, ... the Nth slab or page allocation of the writing task fails
# (helpers/failnth.c arms /proc/thread-self/fail-nth with the file already
# open, so N counts the write's own allocations), until a write makes fewer
# than N.  After each faulted write, the file's state must be the one from
# before the write (the write failed) or the one a clean write leaves (it
# succeeded); anything else is counted as half-applied and fails the test.
# The kernel log must have no report.
#
# fail-nth reaches the writing task only: sysfs "commit" and the other
# state commands are carried out by the kdamond thread, out of its reach
# (the writer's own allocation, kernfs's buffer, only fails the write), and
# a commit changes no file to tell before from after; "on", which builds
# the context in the writer, is swept instead.
#
# Needs CONFIG_FAULT_INJECTION, CONFIG_FAILSLAB, CONFIG_FAIL_PAGE_ALLOC and
# CONFIG_FAULT_INJECTION_DEBUG_FS (kernel/config/guest.config has them;
# Debian's kernels do not, so it skips there, by their config).

load helpers/common

setup() {
	damon_off
	log_mark
	for sym in FAULT_INJECTION FAILSLAB FAIL_PAGE_ALLOC FAULT_INJECTION_DEBUG_FS; do
		kconfig $sym || skip "kernel lacks: fault injection (CONFIG_$sym is not set in $(uname -r))"
	done
	[ -w /proc/thread-self/fail-nth ] ||
		fail "CONFIG_FAULT_INJECTION is set but /proc/thread-self/fail-nth is not there"
	# Sleeping allocations (GFP_KERNEL) are what DAMON's writes make; by
	# default both capabilities skip them, and fail_page_alloc also skips
	# order 0.  verbose 0: no stack dump per injected fault.
	local f
	for f in failslab fail_page_alloc; do
		echo N > "/sys/kernel/debug/$f/ignore-gfp-wait"
		echo 0 > "/sys/kernel/debug/$f/verbose"
	done
	echo N > /sys/kernel/debug/fail_page_alloc/ignore-gfp-highmem
	echo 0 > /sys/kernel/debug/fail_page_alloc/min-order
}

teardown() {
	damon_off
	assert_kernel_log_clean
}

# sweep NAME FILE DATA SETUP STATE [EMPTY]: SETUP makes the state from
# before the write, STATE prints it.  Prints "NAME: N allocations, F failed
# whole, S succeeded whole" to the test's output; fails on a half-applied
# state.  EMPTY: what FILE reads after a write of it alone, which a failed
# write may also leave (the nr_* files: the kernel removes the old
# directories before it makes the new ones, so a failure leaves none);
# counted apart.
sweep() {
	local name=$1 file=$2 data=$3 setup=$4 state=$5 empty_data=${6:-}
	local before after empty=- got out res inj n=1 failed=0 emptied=0 ok=0 half=() errs=
	$setup
	before=$($state)
	if [ -n "$empty_data" ]; then
		$setup
		write_once "$file" "$empty_data" || fail "$name: '$empty_data' to $file fails without a fault"
		empty=$($state)
	fi
	$setup
	write_once "$file" "$data" || fail "$name: '$data' to $file fails without a fault"
	after=$($state)
	[ "$before" != "$after" ] ||
		fail "$name: the write changes nothing that can be seen: cannot tell before from after"
	while :; do
		$setup
		out=$("$HELPERS/failnth" "$n" "$file" "$data") || fail "$name: failnth $n: $out"
		read -r res inj <<<"$out"
		[ "$inj" = injected ] || break
		got=$($state)
		if [ "$res" = ok ] && [ "$got" = "$after" ]; then
			ok=$((ok + 1))
		elif [ "$res" != ok ] && [ "$got" = "$before" ]; then
			failed=$((failed + 1))
			case " $errs " in *" $res "*) ;; *) errs="$errs $res" ;; esac
		elif [ "$res" != ok ] && [ "$got" = "$empty" ]; then
			emptied=$((emptied + 1))
		else
			half+=("allocation $n: write $res, state:
$got")
		fi
		n=$((n + 1))
		[ $n -le 3000 ] || fail "$name: more than 3000 allocations in one write"
	done
	echo "# $name: $((n - 1)) allocations failed in turn: $failed writes failed whole (${errs# }),$([ -n "$empty_data" ] && echo " $emptied failed and left what '$empty_data' leaves,") $ok succeeded whole, ${#half[@]} half-applied" >&3
	if [ ${#half[@]} -gt 0 ]; then
		printf '%s\n' "$name: before:" "$before" "after:" "$after" "${half[@]}"
		fail "$name: ${#half[@]} faulted writes left a state that is neither before nor after"
	fi
	SWEPT=$((n - 1))
}

# --- dbgfs ------------------------------------------------------------------

dbgfs_state() {
	cat "$DBGFS/schemes" "$DBGFS/target_ids" "$DBGFS/init_regions"
	ls "$DBGFS"
}

schemes_setup() {
	echo "$LRU_PRIO_LINE" > "$DBGFS/schemes"
}

@test "fail-nth, dbgfs schemes: every allocation of a two-scheme write failed in turn leaves the old scheme or both new ones" {
	need dbgfs_lru
	sweep schemes "$DBGFS/schemes" "$LRU_DEPRIO_LINE
$LRU_PRIO_LINE" schemes_setup dbgfs_state
	[ "$SWEPT" -gt 0 ]
}

regions_setup() {
	echo $$ > "$DBGFS/target_ids"
	echo "0 4096 8192" > "$DBGFS/init_regions"
}

@test "fail-nth, dbgfs init_regions: every allocation failed in turn leaves the old regions or the new ones" {
	need dbgfs
	sweep init_regions "$DBGFS/init_regions" "0 100 200 0 300 400 0 500 600" regions_setup dbgfs_state
	[ "$SWEPT" -gt 0 ]
}

ids_setup() {
	echo $$ > "$DBGFS/target_ids"
	echo "0 4096 8192" > "$DBGFS/init_regions"
}

@test "fail-nth, dbgfs target_ids: every allocation failed in turn leaves the old target (and its regions) or the new ones" {
	need dbgfs
	sweep target_ids "$DBGFS/target_ids" "$$ $PPID" ids_setup dbgfs_state
	[ "$SWEPT" -gt 0 ]
}

mk_setup() {
	[ ! -d "$DBGFS/failnth" ] || echo failnth > "$DBGFS/rm_contexts"
}

rm_setup() {
	[ -d "$DBGFS/failnth" ] || echo failnth > "$DBGFS/mk_contexts"
}

@test "fail-nth, dbgfs mk_contexts and rm_contexts: every allocation failed in turn leaves the context there or gone, whole" {
	need dbgfs
	sweep mk_contexts "$DBGFS/mk_contexts" failnth mk_setup dbgfs_state
	[ "$SWEPT" -gt 0 ]
	sweep rm_contexts "$DBGFS/rm_contexts" failnth rm_setup dbgfs_state
	mk_setup
}

# --- sysfs ------------------------------------------------------------------

# every readable file under kdamonds/ but the counters, in one process;
# 'state' apart, read again while it answers EBUSY (a running kdamond holds
# the lock its show() only tries)
sysfs_state() {
	local i v
	grep -rs '' --exclude-dir=tried_regions --exclude-dir=stats \
		--exclude=pid --exclude=state "$SYSFS/kdamonds" | sort
	for ((i = 0; i < 100; i++)); do
		IFS= read -r v < "$SYSFS_K/state" 2>/dev/null && break
		sleep 0.1
	done
	echo "state=$v"
}

# the schemes directory alone: one sweep step per allocation, and a
# scheme's directory makes dozens
schemes_state() {
	grep -rs '' --exclude-dir=tried_regions --exclude-dir=stats \
		"$SYSFS_C/schemes" | sort
}

nr_schemes_setup() {
	echo 1 > "$SYSFS_C/schemes/nr_schemes"
	echo lru_prio > "$SYSFS_C/schemes/0/action"
}

@test "fail-nth, sysfs nr_schemes: every allocation failed in turn leaves the old scheme directory, the new ones, or none (nr_schemes 0)" {
	need sysfs paddr
	sysfs_paddr_setup
	sweep nr_schemes "$SYSFS_C/schemes/nr_schemes" 3 nr_schemes_setup schemes_state 0
	[ "$SWEPT" -gt 0 ]
}

on_setup() {
	local STOPPED=
	kdamond_off "$SYSFS_K" || fail "the kdamond did not stop"
	[ -z "$STOPPED" ] || wait_for 20 no_kdamond || fail "no kdamond thread ended"
}

on_state() {
	sysfs_state
	pgrep -c -x 'kdamond\.[0-9]+' || true
}

@test "fail-nth, sysfs state on: every allocation failed in turn leaves the kdamond off with its files, or running" {
	need sysfs paddr
	sysfs_paddr_setup
	echo 1 > "$SYSFS_C/schemes/nr_schemes"
	echo lru_prio > "$SYSFS_C/schemes/0/action"
	sweep state_on "$SYSFS_K/state" on on_setup on_state
	[ "$SWEPT" -gt 0 ]
}
