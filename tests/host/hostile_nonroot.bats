#!/usr/bin/env bats
# damoctl run by a user who may not write DAMON's files: every command that
# needs root fails with status 1 and says so; what sysfs lets anyone read
# still works.  The fake tree imitates the kernel's permissions: sysfs files
# 0644 and directories 0755 owned by root, debugfs a 0700 directory.  Run
# as root, the tests drop to "nobody" with setpriv; run as a user, they take
# the write permission away from that user instead.

load helper

setup() {
	ROOT=$(mktemp -d "${TMPDIR:-/tmp}/damos-nonroot.XXXXXX")
	chmod 755 "$ROOT"
	if [ "$(id -u)" = 0 ]; then
		# a copy nobody can reach wherever the clone is (CI's may be below
		# a 0700 home): a skip here would hide the whole file
		DAMOCTL=$(nobody_damoctl) || fail "cannot copy $DAMOCTL for user nobody"
		setpriv --reuid=nobody --regid=nogroup --clear-groups \
			test -x "$DAMOCTL" || fail "user nobody cannot run $DAMOCTL"
	fi
}

teardown() {
	chmod -R u+rwX "$ROOT" 2>/dev/null
	rm -rf "$ROOT"
	[[ $DAMOCTL != */damos-bin.*/damoctl ]] || rm -rf "$(dirname "$DAMOCTL")"
}

# as_user CMD...: CMD without the right to write the tree.
as_user() {
	if [ "$(id -u)" = 0 ]; then
		setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"
	else
		"$@"
	fi
}

# Kernel permissions on the fake tree (run after building it).
lock_sysfs() {
	find "$ROOT" -type d -exec chmod 755 {} +
	find "$ROOT" -type f -exec chmod 644 {} +
	[ "$(id -u)" = 0 ] || find "$ROOT/sys" -depth -exec chmod a-w {} +
}
lock_dbgfs() {
	chmod 755 "$ROOT/sys" "$ROOT/sys/kernel"
	if [ "$(id -u)" = 0 ]; then
		chmod 700 "$ROOT/sys/kernel/debug"
	else
		chmod 000 "$ROOT/sys/kernel/debug"
	fi
}

needs_root() {
	run as_user "$DAMOCTL" --root "$ROOT" "$@"
	assert_failure 1
	assert_output --partial "need root"
}

@test "sysfs: every command that writes says it needs root; the tree is unchanged" {
	make_sysfs off 1
	lock_sysfs
	before=$(tree_sum)
	needs_root --interface sysfs scheme add lru_prio
	needs_root --interface sysfs scheme rm 0
	needs_root --interface sysfs scheme clear
	needs_root --interface sysfs attrs set sample 10ms
	needs_root --interface sysfs target set paddr region 0 4096
	needs_root --interface sysfs target clear
	needs_root --interface sysfs monitor start
	assert_equal "$(tree_sum)" "$before"
}

@test "sysfs: a running kdamond cannot be stopped or refreshed without root" {
	make_sysfs on 1
	lock_sysfs
	before=$(tree_sum)
	needs_root --interface sysfs monitor stop
	needs_root --interface sysfs scheme add stat
	assert_equal "$(tree_sum)" "$before"
}

@test "sysfs: what anyone may read is shown without root" {
	make_sysfs off 1
	lock_sysfs
	for cmd in "scheme list" "attrs show" "target show" "monitor status" "stats show"; do
		run as_user "$DAMOCTL" --root "$ROOT" --interface sysfs $cmd
		assert_success
	done
}

@test "dbgfs: debugfs is root's: every command says it needs root, none says 'missing'" {
	make_dbgfs
	lock_dbgfs
	for cmd in "scheme list" "scheme add lru_prio" "scheme clear" "attrs show" \
		   "attrs set sample 10ms" "target show" "monitor status" "monitor start" \
		   "stats show"; do
		needs_root --interface dbgfs $cmd
		refute_output --partial "does not exist"
		needs_root $cmd		# --interface auto: nothing else there
	done
}

@test "a dry run needs no root: it only reads" {
	make_sysfs off 1
	lock_sysfs
	run as_user "$DAMOCTL" --root "$ROOT" --interface sysfs --dry-run scheme add lru_prio
	assert_success
	assert_output --partial "nr_schemes"
}

@test "lru-sort: the module's parameters are root's (0600): every command says it needs root" {
	load lru_sort
	make_lru_sort
	lock_sysfs
	# root's 0600; a user running the tests cannot be kept out of their
	# own files otherwise than with 000
	find "$ROOT/sys/module" -type f -exec chmod "$([ "$(id -u)" = 0 ] && echo 600 || echo 000)" {} +
	# sizes and times: a user cannot read 000 files to sum them
	before=$(find "$ROOT" -printf '%p %s %T@\n' | sort)
	needs_root lru-sort status
	needs_root lru-sort enable
	needs_root lru-sort disable
	needs_root lru-sort set hot 60%
	assert_equal "$(find "$ROOT" -printf '%p %s %T@\n' | sort)" "$before"
}
