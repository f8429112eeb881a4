# The fault sweep of tests/host/transactions.bats: every mutating command
# run once per write it makes, with that write failing (DAMOS_FAULT, in
# the test build $DAMOCTL_FAULT only), must leave the whole tree exactly
# as before (and fail) or exactly as its unfaulted run leaves it (and
# succeed).  SQLite's I/O-error tests are the model.

: "${DAMOCTL_FAULT:=$BATS_TEST_DIRNAME/../../build/tests/damoctl-fault}"

TXN_CTX=sys/kernel/mm/damon/admin/kdamonds/0/contexts/0

# A digest of every directory and file below $1 (names, contents, modes),
# but the lock's directory run/damos (made by the first damoctl), of
# which only what is in it counts: a journal left there is a difference.
# With TXN_NEW_PID set, a kdamond's pid file counts by its name only: a
# kdamond that a change stopped and its rollback started again is as
# before with another pid, as on Linux.
txn_digest() {
	{ tar -C "$1" --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner \
		--exclude=./run ${TXN_NEW_PID:+--exclude=./sys/kernel/mm/damon/admin/kdamonds/*/pid} \
		-cf - .; ls -A "$1/run/damos" 2>/dev/null
	  [ -z "${TXN_NEW_PID:-}" ] || (cd "$1" && ls -d sys/kernel/mm/damon/admin/kdamonds/*/pid 2>/dev/null); } |
		md5sum | cut -d' ' -f1
}

# $1: root.  Linux 6.12's sysfs layout, kdamond 0 $2 (off/on), two
# schemes as another tool leaves them: a pageout and a migrate_cold, each
# with target_nid 0, apply_interval_us 1000000, a some_mem_psi_us quota
# goal, an anon filter and a memcg filter.
txn_make_sysfs612() {
	local ROOT=$1 c s i f
	make_sysfs "$2" 2
	put "$ROOT/proc/sys/kernel/osrelease" 6.12.118-amd64
	c="$ROOT/$TXN_CTX"
	for i in 0 1; do
		s="$c/schemes/$i"
		put "$s/apply_interval_us" 0
		put "$s/target_nid" -1
		put "$s/quotas/goals/nr_goals" 0
		put "$s/quotas/effective_bytes" 0
		put "$s/filters/nr_filters" 0
		put "$s/tried_regions/total_bytes" 0
	done
	for i in 0 1; do
		s="$c/schemes/$i"
		put "$s/target_nid" 0
		put "$s/apply_interval_us" 1000000
		put "$s/quotas/goals/nr_goals" 1
		put "$s/quotas/goals/0/target_metric" some_mem_psi_us
		put "$s/quotas/goals/0/target_value" 1000
		put "$s/quotas/goals/0/current_value" 0
		put "$s/filters/nr_filters" 2
		for f in 0 1; do
			put "$s/filters/$f/type" anon
			put "$s/filters/$f/matching" Y
			put "$s/filters/$f/memcg_path" ""
			put "$s/filters/$f/addr_start" 0
			put "$s/filters/$f/addr_end" 0
			put "$s/filters/$f/damon_target_idx" 0
		done
		put "$s/filters/1/type" memcg
		put "$s/filters/1/matching" N
		put "$s/filters/1/memcg_path" /workload
	done
	put "$c/schemes/1/action" migrate_cold
}

# $1: root.  Linux 6.1's sysfs layout (no filters, goals, apply_interval_us
# or target_nid), kdamond 0 $2 (off/on), two schemes as another tool
# leaves them: a pageout with a time and size quota, weights and
# free_mem_rate watermarks, and a stat.
txn_make_sysfs61() {
	local ROOT=$1 s="$1/$TXN_CTX/schemes/0"
	make_sysfs "$2" 2
	put "$ROOT/proc/sys/kernel/osrelease" 6.1.192-amd64
	put "$s/quotas/ms" 20
	put "$s/quotas/bytes" 1073741824
	put "$s/quotas/reset_interval_ms" 1000
	put "$s/quotas/weights/nr_accesses_permil" 1
	put "$s/quotas/weights/age_permil" 1
	put "$s/watermarks/metric" free_mem_rate
	put "$s/watermarks/interval_us" 5000000
	put "$s/watermarks/high" 600
	put "$s/watermarks/mid" 500
	put "$s/watermarks/low" 300
	put "$ROOT/$TXN_CTX/schemes/1/action" stat
}

# $1: root.  A 6.1 dbgfs with two schemes of another tool and a target.
txn_make_dbgfs() {
	local ROOT=$1 d="$1/sys/kernel/debug/damon"
	make_dbgfs
	printf '%s\n' "4096 8192 0 5 10 20 2 10 1073741824 1000 0 0 100 1 5000000 600 500 300" \
		"4096 18446744073709551615 0 0 1200 4294967295 7 5 0 1000 0 0 1 0 0 0 0 0" > "$d/schemes"
	echo 42 > "$d/target_ids"
	echo "0 4294967296 8589934592" > "$d/init_regions"
	echo "5000 100000 1000000 10 1000" > "$d/attrs"
}

# Worker $1 of $2: the faulted runs of writes $1, $1 + $2, ... up to $3,
# in a tree of its own, copied again only when a run left it changed.
# Prints "ok" or what a run left, a line a run.  TXN_SIG (TERM, INT, HUP,
# KILL), if set, makes the fault that signal at the write instead of a
# failure: a held one must end the command as before or as after with exit
# 128 + the signal and a message; after a SIGKILL, the next damoctl (a
# "scheme list") must leave the tree as before or as after.
txn_worker() {
	local k=$1 step=$2 nw=$3 w=$TXN_WORK/w.$1 n rc got st spec
	local -A signo=([INT]=2 [HUP]=1 [TERM]=15 [KILL]=9)
	shift 3
	rm -rf "$w" && cp -a "$TXN_PRISTINE" "$w"
	for ((n = k; n <= nw; n += step)); do
		rc=0
		spec=$n${TXN_SIG:+:$TXN_SIG}
		DAMOS_FAULT=$spec "$DAMOCTL_FAULT" --root "$w" "$@" > /dev/null \
			2> "$w.err" < /dev/null || rc=$?
		st=
		if [ "${TXN_SIG:-KILL}" != KILL ]; then
			[ $rc -eq $((128 + signo[$TXN_SIG])) ] ||
				st="exit $rc, not $((128 + signo[$TXN_SIG]))"
			grep -q "SIG$TXN_SIG came while writing: held until" "$w.err" ||
				st="$st; no message: $(head -c 300 "$w.err")"
		elif [ -n "${TXN_SIG:-}" ]; then
			[ $rc -eq 137 ] || st="exit $rc, not 137"
			"$DAMOCTL_FAULT" --root "$w" scheme list > /dev/null 2> "$w.err" ||
				st="$st; the next scheme list failed: $(head -c 300 "$w.err")"
		fi
		got=$(txn_digest "$w")
		if [ -n "$st" ]; then
			echo "write $n: $st"
		elif [ -n "${TXN_SIG:-}" ] && { [ "$got" = "$TXN_BEFORE" ] || [ "$got" = "$TXN_AFTER" ]; }; then
			echo ok
			[ "$got" = "$TXN_BEFORE" ] && continue
		elif [ "$got" = "$TXN_BEFORE" ] && [ $rc -ne 0 ]; then
			echo ok
			continue
		elif [ "$got" = "$TXN_AFTER" ] && [ $rc -eq 0 ]; then
			echo ok
		else
			echo "write $n: exit $rc, the tree $( [ "$got" = "$TXN_BEFORE" ] && echo "as before" || { [ "$got" = "$TXN_AFTER" ] && echo "as after" || echo "neither as before nor as after"; })"
		fi
		rm -rf "$w" && cp -a "$TXN_PRISTINE" "$w"
	done
	rm -rf "$w" "$w.err"
}

# txn_sweep NAME PRISTINE_ROOT ARGS...: the unfaulted run, then one run a
# write with that write failing (three workers).  Adds to TXN_CMDS,
# TXN_RUNS and TXN_HALF, and each half-applied run to $TXN_WORK/half.
txn_sweep() {
	local name=$1 w nw out
	export TXN_PRISTINE=$2 TXN_BEFORE TXN_AFTER TXN_SIG
	shift 2
	w=$TXN_WORK/w.0
	rm -rf "$w" && cp -a "$TXN_PRISTINE" "$w"
	TXN_BEFORE=$(txn_digest "$w")
	: > "$TXN_WORK/log"
	if ! DAMOS_FAULT_LOG=$TXN_WORK/log "$DAMOCTL_FAULT" --root "$w" "$@" \
		> "$TXN_WORK/out" 2>&1 < /dev/null; then
		echo "$name: the unfaulted run failed: $(cat "$TXN_WORK/out")" >> "$TXN_WORK/half"
		TXN_HALF=$((TXN_HALF + 1))
		return 0
	fi
	TXN_AFTER=$(txn_digest "$w")
	nw=$(wc -l < "$TXN_WORK/log")
	if [ "$TXN_BEFORE" = "$TXN_AFTER" ] || [ "$nw" -eq 0 ]; then
		echo "$name: the unfaulted run changed nothing" >> "$TXN_WORK/half"
		TXN_HALF=$((TXN_HALF + 1))
		return 0
	fi
	TXN_CMDS=$((TXN_CMDS + 1))
	out=$(for k in 1 2 3; do txn_worker $k 3 "$nw" "$@" & done; wait)
	TXN_RUNS=$((TXN_RUNS + nw))
	while read -r line; do
		[ "$line" = ok ] && continue
		TXN_HALF=$((TXN_HALF + 1))
		echo "$name: $line (of $nw writes)" >> "$TXN_WORK/half"
	done <<< "$out"
}

# The work directory: on tmpfs when there is one (a run copies the tree).
txn_setup() {
	TXN_WORK=$(mktemp -d /dev/shm/damos-txn.XXXXXX 2>/dev/null) ||
		TXN_WORK=$(mktemp -d "$BATS_TEST_TMPDIR/txn.XXXXXX")
	export TXN_WORK DAMOCTL_FAULT
	TXN_CMDS=0 TXN_RUNS=0 TXN_HALF=0
	: > "$TXN_WORK/half"
}
