#!/usr/bin/env bats
# A fake tree under --root is the user's own directory, and may hold
# symlinks.  Nothing damoctl writes, creates or removes may follow one out of
# the root: such a write is refused (status 1, the message says why) and the
# files outside are untouched.  Symlinks that stay inside the root work.

load helper

DOC="4096 8192 0 5 10 20 2 10 1073741824 1000 0 0 100 1 5000000 600 500 300"

setup() {
	ROOT="$BATS_TEST_TMPDIR/root"
	OUT="$BATS_TEST_TMPDIR/outside"
	mkdir -p "$ROOT" "$OUT"
}

# What must survive: every file outside the root, with its content.
outside_sum() { (cd "$OUT" && find . -print0 | sort -z | xargs -0 ls -ld --time-style=+ | awk '{ $6 = ""; print }'; find . -type f -print0 | sort -z | xargs -0 -r md5sum); }

# A directory outside the root that looks like a sysfs scheme (so that
# reading it succeeds if a symlink is followed) and holds a bystander file.
make_outside_scheme() {
	make_sysfs_scheme "$OUT/scheme" pageout 4096 8192 0 5 10 20
	mkdir -p "$OUT/scheme/keep"
	echo precious > "$OUT/scheme/keep/data"
}

@test "dbgfs: schemes is an absolute symlink out of the root: refused, target untouched" {
	make_dbgfs
	echo "$DOC" > "$OUT/victim"
	rm "$ROOT/sys/kernel/debug/damon/schemes"
	ln -s "$OUT/victim" "$ROOT/sys/kernel/debug/damon/schemes"
	before=$(outside_sum)
	run damoctl --interface dbgfs scheme add stat
	assert_failure 1
	assert_output --partial "through a symlink (refused)"
	assert_equal "$(outside_sum)" "$before"
	assert_equal "$(cat "$OUT/victim")" "$DOC"
	run damoctl --interface dbgfs scheme clear
	assert_failure 1
	assert_equal "$(cat "$OUT/victim")" "$DOC"
}

@test "dbgfs: schemes is a relative symlink climbing out with ..: refused" {
	make_dbgfs
	echo "$DOC" > "$OUT/victim"
	rm "$ROOT/sys/kernel/debug/damon/schemes"
	ln -s ../../../../../outside/victim "$ROOT/sys/kernel/debug/damon/schemes"
	[ "$(cat "$ROOT/sys/kernel/debug/damon/schemes")" = "$DOC" ]	# it does lead out
	run damoctl --interface dbgfs scheme add stat
	assert_failure 1
	assert_output --partial "through a symlink (refused)"
	assert_equal "$(cat "$OUT/victim")" "$DOC"
}

@test "dbgfs: the debugfs directory itself is a symlink out of the root: refused" {
	make_dbgfs
	mv "$ROOT/sys/kernel/debug" "$OUT/debug"
	ln -s "$OUT/debug" "$ROOT/sys/kernel/debug"
	before=$(outside_sum)
	run damoctl --interface dbgfs scheme add stat
	assert_failure 1
	assert_output --partial "through a symlink (refused)"
	run damoctl --interface dbgfs attrs set sample 10ms
	assert_failure 1
	run damoctl --interface dbgfs target set paddr region 0 4096
	assert_failure 1
	run damoctl --interface dbgfs monitor start
	assert_failure 1
	assert_equal "$(outside_sum)" "$before"
}

@test "sysfs: a scheme directory is a symlink out of the root: nothing outside is read, written or removed" {
	make_sysfs off 1
	make_outside_scheme
	rm -r "$ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/schemes/0"
	ln -s "$OUT/scheme" "$ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/schemes/0"
	before=$(outside_sum)
	for cmd in "scheme add stat" "scheme rm 0" "scheme list" "stats show"; do
		run damoctl --interface sysfs $cmd
		assert_failure 1
		assert_output --partial "through a symlink (refused)"
	done
	assert_equal "$(outside_sum)" "$before"
	# clear needs nothing from the scheme: it removes the link, not its target
	run damoctl --interface sysfs scheme clear
	assert_equal "$(outside_sum)" "$before"
	assert_equal "$(cat "$OUT/scheme/keep/data")" precious
}

@test "sysfs: a stale numbered directory that is a symlink is removed as a link, its target kept" {
	make_sysfs off 1
	make_outside_scheme
	# nr_schemes says 1; a leftover "1" leads out of the tree
	ln -s "$OUT/scheme" "$ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/schemes/1"
	before=$(outside_sum)
	run damoctl --interface sysfs scheme add stat
	assert_success
	assert_equal "$(outside_sum)" "$before"
	[ -d "$ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/schemes/1" ]
	[ ! -L "$ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/schemes/1" ]
	run damoctl --interface sysfs scheme list
	assert_success
	assert_line --index 1 --partial "1: stat"
}

@test "sysfs: the kdamond directory is a symlink out of the root: refused" {
	make_sysfs off 1
	mv "$ROOT/sys/kernel/mm/damon/admin/kdamonds/0" "$OUT/kdamond"
	ln -s "$OUT/kdamond" "$ROOT/sys/kernel/mm/damon/admin/kdamonds/0"
	before=$(outside_sum)
	for cmd in "scheme add stat" "monitor start" "attrs set sample 10ms" "target clear"; do
		run damoctl --interface sysfs $cmd
		assert_failure 1
		assert_output --partial "through a symlink (refused)"
	done
	assert_equal "$(outside_sum)" "$before"
}

@test "symlinks that stay inside the root are followed" {
	make_dbgfs
	d="$ROOT/sys/kernel/debug/damon"
	mkdir -p "$ROOT/real"
	mv "$d/schemes" "$ROOT/real/schemes"
	ln -s ../../../../real/schemes "$d/schemes"
	run damoctl --interface dbgfs scheme add stat
	assert_success
	assert_equal "$(wc -l < "$ROOT/real/schemes")" 1
	[ -L "$d/schemes" ]
}

@test "a FIFO or a device node in the tree is refused, not waited on" {
	make_dbgfs
	rm "$ROOT/sys/kernel/debug/damon/schemes"
	mkfifo "$ROOT/sys/kernel/debug/damon/schemes"
	run timeout 10 "$DAMOCTL" --root "$ROOT" --interface dbgfs scheme list
	assert_failure 1
	assert_output --partial "not a regular file"
	run timeout 10 "$DAMOCTL" --root "$ROOT" --interface dbgfs scheme clear
	assert_failure 1
	assert_output --partial "not a regular file"
	rm "$ROOT/sys/kernel/debug/damon/schemes"
	ln -s /dev/zero "$ROOT/sys/kernel/debug/damon/schemes"
	run timeout 10 "$DAMOCTL" --root "$ROOT" --interface dbgfs scheme list
	assert_failure 1
}

@test "--dry-run over a tree with an escaping symlink writes nothing anywhere" {
	make_dbgfs
	: > "$OUT/victim"
	rm "$ROOT/sys/kernel/debug/damon/schemes"
	ln -s "$OUT/victim" "$ROOT/sys/kernel/debug/damon/schemes"
	before=$(outside_sum)
	run damoctl --interface dbgfs --dry-run scheme add stat
	assert_equal "$(outside_sum)" "$before"
}
