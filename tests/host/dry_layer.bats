#!/usr/bin/env bats
# The dry-run layer: a dry run works on a private copy of the DAMON files
# with the kernel emulated there, so that each command of a dry-run batch
# sees what the commands before it would have done, and the batch's script
# is the one its commands write when run for real one after the other.

load helper

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

@test "sysfs: a dry-run batch writes what its commands write run for real one by one" {
	make_sysfs off 1
	printf '%s\n' "${BATCH[@]}" > "$BATS_TEST_TMPDIR/b"
	local before batch one="" l
	before=$(tree_sum)
	run damoctl --dry-run -f "$BATS_TEST_TMPDIR/b"
	assert_success
	batch=$(writes <<<"$output")
	[ "$(tree_sum)" = "$before" ]
	for l in "${BATCH[@]}"; do
		# shellcheck disable=SC2086
		run damoctl --dry-run $l
		assert_success
		one+=$(writes <<<"$output")$'\n'
		# shellcheck disable=SC2086
		damoctl $l
	done
	[ "$batch" = "${one%$'\n'}" ] || { diff <(echo "$batch") <(echo "${one%$'\n'}"); false; }
	assert_equal "$(cat "$ROOT/sys/kernel/mm/damon/admin/kdamonds/0/state")" on
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
