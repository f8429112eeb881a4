#!/usr/bin/env bats
# The dry-run layer: a dry run keeps its writes in memory over the DAMON
# files, with the kernel emulated there, so that each command of a dry-run batch
# sees what the commands before it would have done, and the batch's script
# is the one the batch writes when run for real (its edits in a row as one
# setup, applied once).

load helper
bats_require_minimum_version 1.5.0

# Dependent commands: rm needs the add before it, lru_deprio's age the
# attrs before it, monitor start the target before it.
BATCH=("scheme add stat" "scheme add pageout age 10s max" "scheme rm 0"
	"attrs set sample 10ms aggr 200ms" "scheme add lru_deprio"
	"target set paddr region 4G 8G" "monitor start")

# The script's writes, without the comments and header.
writes() {
	grep -v '^#\|^set -e$\|^$'
}

@test "dbgfs: --dry-run -f FILE, run as a script on a copy, leaves the tree the batch leaves" {
	make_dbgfs
	printf '%s\n' "${BATCH[@]}" > "$BATS_TEST_TMPDIR/b"
	local before script
	before=$(tree_sum)
	run damoctl --interface dbgfs --dry-run -f "$BATS_TEST_TMPDIR/b"
	assert_success
	script=$output
	[ "$(tree_sum)" = "$before" ]
	# the script on a copy of the tree
	cp -a "$ROOT" "$BATS_TEST_TMPDIR/copy"
	sed "s|$ROOT|$BATS_TEST_TMPDIR/copy|g" <<<"$script" > "$BATS_TEST_TMPDIR/s.sh"
	sh "$BATS_TEST_TMPDIR/s.sh"
	# the batch for real
	run damoctl --interface dbgfs -f "$BATS_TEST_TMPDIR/b"
	assert_success
	[ "$(cd "$ROOT" && find . -type f -print0 | sort -z | xargs -0 md5sum)" = \
	  "$(cd "$BATS_TEST_TMPDIR/copy" && find . -type f -print0 | sort -z | xargs -0 md5sum)" ]
	run cat "$ROOT/sys/kernel/debug/damon/monitor_on"
	assert_output on
}

@test "sysfs: a batch is one edit of one setup: its plan is the writes of the real batch, fewer than its lines' one by one, same tree" {
	make_sysfs off 1
	cp -a "$ROOT" "$BATS_TEST_TMPDIR/one"
	printf '%s\n' "${BATCH[@]}" > "$BATS_TEST_TMPDIR/b"
	local before l n_one=0
	before=$(tree_sum)
	run damoctl --dry-run -f "$BATS_TEST_TMPDIR/b"
	assert_success
	[ "$(tree_sum)" = "$before" ]
	# the edits of the lines in a row are planned once, the commands named
	assert_output --partial "# damoctl scheme add stat; scheme add pageout age 10s max; scheme rm 0; attrs set"
	plan_paths <<<"$output" > "$BATS_TEST_TMPDIR/plan"
	DAMOS_FAULT_LOG="$BATS_TEST_TMPDIR/log" "$DAMOCTL_FAULT" --root "$ROOT" -f "$BATS_TEST_TMPDIR/b"
	cut -d' ' -f2- "$BATS_TEST_TMPDIR/log" | diff "$BATS_TEST_TMPDIR/plan" - ||
		fail "the batch's plan is not its writes"
	assert_equal "$(cat "$ROOT/sys/kernel/mm/damon/admin/kdamonds/0/state")" on
	# the same lines one by one: the same tree, more writes
	for l in "${BATCH[@]}"; do
		# shellcheck disable=SC2086
		DAMOS_FAULT_LOG="$BATS_TEST_TMPDIR/log1" "$DAMOCTL_FAULT" --root "$BATS_TEST_TMPDIR/one" $l
	done
	n_one=$(wc -l < "$BATS_TEST_TMPDIR/log1")
	[ "$(wc -l < "$BATS_TEST_TMPDIR/log")" -lt "$n_one" ]
	echo "# the batch: $(wc -l < "$BATS_TEST_TMPDIR/log") writes; its ${#BATCH[@]} lines one by one: $n_one" >&3
	[ "$(cd "$ROOT" && find . -type f ! -name pid -print0 | sort -z | xargs -0 md5sum)" = \
	  "$(cd "$BATS_TEST_TMPDIR/one" && find . -type f ! -name pid -print0 | sort -z | xargs -0 md5sum)" ]
}

@test "a batch's edits are applied before a line that reads, and a failure of the whole names the lines" {
	make_sysfs off 1
	printf '%s\n' "scheme add stat" "scheme list" "scheme rm 0" > "$BATS_TEST_TMPDIR/b"
	run damoctl -f "$BATS_TEST_TMPDIR/b"
	assert_success
	# scheme list saw the add before it
	assert_line --index 1 --regexp "^1: stat "
	run damoctl scheme list
	assert_line --index 0 --regexp "^0: stat "
	[ "${#lines[@]}" = 1 ]
	# a goal on a 6.1 layout: refused for lines 1-2 together, nothing changed
	local before
	before=$(tree_sum)
	printf '%s\n' "scheme add pageout" "scheme add stat goal user_input 100" > "$BATS_TEST_TMPDIR/c"
	run damoctl -f "$BATS_TEST_TMPDIR/c"
	assert_failure 1
	assert_output --partial "$BATS_TEST_TMPDIR/c:1-2: scheme 2: goal user_input needs quota goals"
	assert_output --partial "nothing of it was applied"
	[ "$(tree_sum)" = "$before" ]
}

# The overlay is memory only: no temporary file, so a dry run works where
# nothing can be written (a copy of the tree used to go to $TMPDIR).
@test "the layer writes no file: with TMPDIR where nothing can be made, the batch plans as before" {
	make_sysfs off 1
	printf '%s\n' "${BATCH[@]}" > "$BATS_TEST_TMPDIR/b"
	run damoctl --dry-run -f "$BATS_TEST_TMPDIR/b"
	assert_success
	local want=$output
	run env TMPDIR=/proc/version "$DAMOCTL" --root "$ROOT" --dry-run -f "$BATS_TEST_TMPDIR/b"
	assert_success
	[ "$output" = "$want" ] || fail "plans differ: $(diff <(echo "$want") <(echo "$output"))"
	# the later lines saw the earlier ones: the rm of the added scheme is there
	assert_output --partial "nr_schemes"
}

@test "the layer is private: the tree is never written, a second dry run starts afresh" {
	make_sysfs off 1
	local before
	before=$(tree_sum)
	run damoctl -n scheme clear
	assert_success
	run damoctl -n scheme rm 0
	assert_success
	[ "$(tree_sum)" = "$before" ]
}

# Issue 14 High 2: the dry-run script of a batch of dependent commands, run
# by dash and by bash on copies of the tree (with the kernel's side of the
# sysfs writes done by tests/host/fake_kernel.sh), leaves the tree the real
# batch leaves.  On dbgfs each file gets one write() under both shells
# (strace, in make deps): the kernel keeps the last write only, so a
# multi-line write split by the shell would leave one scheme.
same_as_batch() {	# BATCH LINES...
	local sh script copies="$BATS_TEST_TMPDIR/copies" want got
	printf '%s\n' "$@" > "$BATS_TEST_TMPDIR/b"
	run damoctl --dry-run -f "$BATS_TEST_TMPDIR/b"
	assert_success
	script=$output
	mkdir -p "$copies"
	for sh in dash bash; do
		command -v "$sh" >/dev/null || fail "$sh is not installed (make deps)"
		rm -rf "${copies:?}/$sh"
		cp -a "$ROOT" "$copies/$sh"
		sed "s|$ROOT|$copies/$sh|g" <<<"$script" > "$copies/$sh.sh"
		run strace --seccomp-bpf -f -y -o "$copies/$sh.trace" -e trace=write \
			"$sh" -c '. "$1"; kernel_run "$2"' _ \
			"$BATS_TEST_DIRNAME/fake_kernel.sh" "$copies/$sh.sh"
		assert_success
		# dbgfs takes each write() as the whole file: one a command
		[ -d "$ROOT/sys/kernel/mm/damon" ] && continue
		[ "$(grep -c "write([0-9]*<$copies/$sh/" "$copies/$sh.trace")" = \
		  "$(grep -c '^\(echo\|printf\|cat\|dd\) .*> ' "$copies/$sh.sh")" ] ||
			fail "$sh: not one write() per written file: $(grep "<$copies/$sh/" "$copies/$sh.trace")"
	done
	run damoctl -f "$BATS_TEST_TMPDIR/b"
	assert_success
	want=$(tree_sum)
	for sh in dash bash; do
		got=$(cd "$copies/$sh" && find . -type f -print0 | sort -z | xargs -0 md5sum)
		[ "$got" = "$want" ] || {
			echo "the $sh run of the script differs from the batch:"
			diff -r "$ROOT" "$copies/$sh"
			false
		}
	done
}

# dbgfs monitoring a paddr region with one pageout scheme.
dbgfs_running() {
	make_dbgfs
	damoctl target set paddr region 4G 8G
	damoctl scheme add pageout age 5s max
	echo on > "$ROOT/sys/kernel/debug/damon/monitor_on"
}

@test "dbgfs, monitoring on: stop, adds, rm, attrs, target, start; dash and bash leave the batch's tree" {
	dbgfs_running
	same_as_batch "monitor stop" "scheme add stat" "scheme add lru_prio" \
		"scheme add pageout age 10s max" "scheme rm 1" \
		"attrs set sample 10ms aggr 200ms" "scheme add lru_deprio" \
		"target set paddr region 4G 6G" "monitor start"
	run cut -d' ' -f7 "$ROOT/sys/kernel/debug/damon/schemes"
	assert_output "2
6
2
7"
	assert_equal "$(cat "$ROOT/sys/kernel/debug/damon/monitor_on")" on
}

@test "sysfs from no kdamond: nr_kdamonds and nr_contexts written once; dash and bash leave the batch's tree" {
	make_sysfs_empty
	same_as_batch "scheme add stat" "scheme add lru_prio" "scheme add pageout" \
		"scheme rm 1" "attrs set sample 10ms aggr 200ms" \
		"scheme add lru_deprio" "target set paddr region 4G 8G" \
		"monitor start" "monitor stop" "scheme add stat age 1s max"
	local c="$ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0"
	run cat "$c/schemes/nr_schemes" "$c/schemes/0/action" "$c/schemes/1/action" \
		"$c/schemes/2/action" "$c/schemes/3/action"
	assert_output "4
stat
pageout
lru_deprio
stat"
}

@test "sysfs, kdamond on with a scheme: adds commit, rm, stop, start; dash and bash leave the batch's tree" {
	make_sysfs on 1
	same_as_batch "scheme add stat" "scheme add lru_prio" "scheme rm 0" \
		"monitor stop" "attrs set aggr 200ms" "scheme add lru_deprio" \
		"monitor start"
	local c="$ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0"
	run cat "$c/schemes/nr_schemes" "$c/schemes/2/action" \
		"$c/monitoring_attrs/intervals/aggr_us" \
		"$ROOT/sys/kernel/mm/damon/admin/kdamonds/0/state"
	assert_output "3
lru_deprio
200000
on"
}

@test "a sysfs batch writes nr_kdamonds and nr_contexts once, not again on each command" {
	make_sysfs_empty
	printf '%s\n' "scheme add stat" "attrs set aggr 200ms" "scheme add pageout" \
		"target set paddr region 4G 8G" > "$BATS_TEST_TMPDIR/b"
	run damoctl --dry-run -f "$BATS_TEST_TMPDIR/b"
	assert_success
	[ "$(grep -c '/kdamonds/nr_kdamonds$' <<<"$output")" = 1 ]
	[ "$(grep -c '/contexts/nr_contexts$' <<<"$output")" = 1 ]
}

@test "--dry-run apply on dbgfs while monitoring runs succeeds as the apply does, and its script does the same" {
	dbgfs_running
	printf '%s\n' "attrs sample 10ms aggr 200ms" "target paddr region 4G 6G" \
		"scheme lru_prio" "scheme lru_deprio" "monitor on" > "$BATS_TEST_TMPDIR/a.conf"
	run damoctl --dry-run apply "$BATS_TEST_TMPDIR/a.conf"
	assert_success
	refute_output --partial "nothing changed"
	same_as_batch "apply $BATS_TEST_TMPDIR/a.conf"
	run cut -d' ' -f7 "$ROOT/sys/kernel/debug/damon/schemes"
	assert_output "6
7"
	assert_equal "$(cat "$ROOT/sys/kernel/debug/damon/monitor_on")" on
}

@test "--dry-run monitor start with no target fails as the real run does; after target set in the batch it runs" {
	local tree
	for tree in dbgfs sysfs; do
		rm -rf "$ROOT" && mkdir -p "$ROOT"
		if [ "$tree" = dbgfs ]; then make_dbgfs; else make_sysfs_empty; fi
		run damoctl monitor start
		assert_failure 1
		assert_output --partial "no monitoring target"
		local real=$output
		# the same status and message, and no script
		run damoctl --dry-run monitor start
		assert_failure 1
		assert_output "$real"
		same_as_batch "target set paddr region 4G 8G" "monitor start"
	done
}

# The shipped damoctl has no fake kernel: its dry run makes on its copy
# what the kernel would make from the backends' own layout (model_write),
# which the test build's fake kernel uses too.  On a fake tree both must
# write the same script.
@test "the shipped damoctl's dry run writes the script of the test build's, sysfs and dbgfs" {
	local iface want
	printf '%s\n' "${BATCH[@]}" > "$BATS_TEST_TMPDIR/dbgfs"
	# sysfs from no kdamond, a 6.12 layout: filters and goals too
	printf '%s\n' "${BATCH[@]}" "scheme add stat filter anon" \
		"scheme add stat goal user_input 100" "scheme rm 0" \
		"scheme add pageout sz 4K max" > "$BATS_TEST_TMPDIR/sysfs"
	for iface in dbgfs sysfs; do
		rm -rf "$ROOT" && mkdir -p "$ROOT"
		if [ $iface = dbgfs ]; then
			make_dbgfs
		else
			make_sysfs_empty
			put "$ROOT/proc/sys/kernel/osrelease" 6.12.0
		fi
		run damoctl --interface $iface --dry-run -f "$BATS_TEST_TMPDIR/$iface"
		assert_success
		want=$output
		run "$DAMOCTL_SHIPPED" --root "$ROOT" --interface $iface --dry-run \
			-f "$BATS_TEST_TMPDIR/$iface"
		assert_success
		if [ $iface = sysfs ]; then
			assert_output "$want"
			continue
		fi
		# dbgfs: the same writes; the shipped damoctl cannot tell whether
		# this kernel takes lru_deprio (the fake kernel's .max_action is
		# the test build's), so it writes the schemes first: a refusal
		# then changes nothing
		assert_equal "$(sort <<<"$output")" "$(sort <<<"$want")"
		[ "$(plan_paths <<<"$output" | head -1)" = "$ROOT/sys/kernel/debug/damon/schemes" ]
	done
}

@test "no fake kernel ships: libdamos exports none, the shipped damoctl holds none" {
	run nm -D --defined-only "$(dirname "$DAMOCTL_SHIPPED")/libdamos.so"
	assert_success
	refute_output --partial fake
	run grep -c -e 'fake kernel' -e '\.max_action' "$DAMOCTL_SHIPPED"
	assert_output 0
	run grep -c 'fake kernel' "$DAMOCTL"
	assert_success
}

# kind_tree KIND: ROOT a tree of KIND (sysfs-off, sysfs-on: a 6.12 tree
# with kdamond 0 off or on; dbgfs), from transactions.bash
kind_tree() {
	ROOT=$BATS_TEST_TMPDIR/$1
	mkdir -p "$ROOT"
	case $1 in
	sysfs-off) txn_make_sysfs612 "$ROOT" off ;;
	sysfs-on) txn_make_sysfs612 "$ROOT" on ;;
	dbgfs) txn_make_dbgfs "$ROOT" ;;
	esac
}

# The plan a dry run prints is the writes the command then makes, in
# order: the file of every write of the script against the fault layer's
# log of the real run (no fault), for each command that goes through
# damon_setup_apply(), on a 6.12 tree (kdamond off and on) and on dbgfs.
@test "the plan is the writes: --dry-run of scheme add, set, rm, clear, attrs set and apply, then the same for real" {
	load transactions
	local kind cmd n=0
	printf '%s\n' "attrs sample 10ms aggr 200ms" "scheme pageout sz 1M max" "scheme stat" > "$BATS_TEST_TMPDIR/a.conf"
	for kind in sysfs-off sysfs-on dbgfs; do
		kind_tree "$kind"
		for cmd in "scheme add stat sz 4K 8K" "scheme set 0 age 1s max" "scheme rm 0" \
			   "attrs set sample 20ms aggr 400ms" "apply $BATS_TEST_TMPDIR/a.conf" "scheme clear"; do
			damoctl --dry-run $cmd 2> /dev/null | plan_paths > "$BATS_TEST_TMPDIR/plan"
			rm -f "$BATS_TEST_TMPDIR/log"
			DAMOS_FAULT_LOG="$BATS_TEST_TMPDIR/log" "$DAMOCTL_FAULT" --root "$ROOT" $cmd > /dev/null ||
				fail "$kind: $cmd failed"
			touch "$BATS_TEST_TMPDIR/log"
			cut -d' ' -f2- "$BATS_TEST_TMPDIR/log" | diff "$BATS_TEST_TMPDIR/plan" - ||
				fail "$kind: $cmd: the plan is not the writes"
			[ -s "$BATS_TEST_TMPDIR/plan" ] || fail "$kind: $cmd: an empty plan"
			n=$((n + 1))
		done
	done
	echo "# $n commands: the plan is the writes" >&3
}

# What a dry run shows after a command is what the files show after the
# command is run: the overlay answers the reads of the lines after it as
# the kernel (here the fake kernel) would.  The same commands and trees as
# above, each followed by export damo in one batch, dry and real.
@test "the overlay reads as the real run leaves the files: export damo after each command, dry and real, is the same" {
	load transactions
	local kind cmd n=0 dry real
	printf '%s\n' "attrs sample 10ms aggr 200ms" "scheme pageout sz 1M max" "scheme stat" > "$BATS_TEST_TMPDIR/a.conf"
	for kind in sysfs-off sysfs-on dbgfs; do
		kind_tree "$kind"
		for cmd in "scheme add stat sz 4K 8K" "scheme set 0 age 1s max" "scheme rm 0" \
			   "attrs set sample 20ms aggr 400ms" "target set paddr region 8G 12G" \
			   "monitor stop" "monitor start" "apply $BATS_TEST_TMPDIR/a.conf" "scheme clear"; do
			printf '%s\n' "$cmd" "export damo" > "$BATS_TEST_TMPDIR/b"
			# the export is the output from its first JSON line on; a
			# refusal (dbgfs while monitoring) is the same in both
			run --separate-stderr damoctl --dry-run -f "$BATS_TEST_TMPDIR/b"
			dry="$status $(sed -n '/^{/,$p' <<<"$output")"
			run --separate-stderr damoctl -f "$BATS_TEST_TMPDIR/b"
			real="$status $(sed -n '/^{/,$p' <<<"$output")"
			[ "$dry" = "$real" ] ||
				fail "$kind: $cmd: the dry run shows $(diff <(echo "$dry") <(echo "$real"))"
			[ "$status" = 0 ] && [ "${#real}" -gt 100 ] && n=$((n + 1))
		done
	done
	echo "# $n commands: the dry run reads as the real run leaves the files" >&3
	[ "$n" -ge 24 ]
}

# The "another DAMON user" checks find the kdamonds through the handle:
# one a dry-run batch started is there for the lines after it, as it is
# for the real batch (Linux 6.1: damon_reclaim does not start next to it).
@test "a dry run refuses what the real run refuses: reclaim enable after the batch's monitor start" {
	load reclaim
	make_sysfs_empty
	make_reclaim 6.1
	printf '%s\n' "target set paddr region 4G 8G" "monitor start" "reclaim enable" > "$BATS_TEST_TMPDIR/b"
	run damoctl --dry-run -f "$BATS_TEST_TMPDIR/b"
	assert_failure 1
	assert_output --partial "a sysfs kdamond is on ($ROOT/sys/kernel/mm/damon/admin/kdamonds/0/state), and damon_reclaim does not start"
	run damoctl -f "$BATS_TEST_TMPDIR/b"
	assert_failure 1
	assert_output --partial "a sysfs kdamond is on ($ROOT/sys/kernel/mm/damon/admin/kdamonds/0/state), and damon_reclaim does not start"
}
