#!/usr/bin/env bats
# damoctl -f FILE and -f -: the command lines of argv, one a line; the first
# failure stops the batch and is reported as FILE:LINE; --force goes on and
# reports them all.

load helper

setup() {
	ROOT="$BATS_TEST_TMPDIR/root"
	mkdir -p "$ROOT"
	make_dbgfs
	cd "$BATS_TEST_TMPDIR"
}

SCHEMES() { echo "$ROOT/sys/kernel/debug/damon/schemes"; }

@test "-f FILE: comments, blank lines, quotes, continued lines" {
	cat > setup.damoctl <<-'EOF'
	# LRU sorting, as damon_lru_sort does it
	attrs set sample 5ms aggr 100ms

	scheme add lru_prio   # the hot scheme
	scheme add lru_deprio \
	    age 2m max
	scheme add "stat"
	EOF
	run damoctl -f setup.damoctl
	assert_success
	assert_output ""
	run cut -d' ' -f5,7 "$(SCHEMES)"
	assert_output "0 6
1200 7
0 5"
}

@test "the first failure stops the batch: FILE:LINE, its status, nothing of it applied" {
	printf '%s\n' "scheme add lru_prio" "" "scheme add pageout age 10s 5s" \
		"scheme add stat" > b
	run damoctl -f b
	assert_failure 2
	assert_output "damoctl: b:3: scheme add: min age 10s > max age 5s
damoctl: b: nothing of it was applied: the files are as before line 1"
	run cat "$(SCHEMES)"
	assert_output ""
}

@test "a kernel failure stops it too, with status 1" {
	printf '%s\n' "scheme add stat" "monitor start" "scheme add cold" > b
	run damoctl -f b
	assert_failure 1
	# lines 1-3 edit one setup, applied once: its failure names them all
	assert_output "damoctl: b:1-3: no monitoring target: set one first (damoctl target set ...)
damoctl: b: nothing of it was applied: the files are as before line 1"
	run wc -l < "$(SCHEMES)"
	assert_output 0
}

@test "--force goes on: every failure with its line, a count, the first status" {
	cat > b <<-'EOF'
	scheme add stat
	frob
	scheme add pageout sz 8K 4K
	scheme add cold \
	    access 0 'x
	monitor start
	scheme add willneed
	EOF
	run damoctl --force -f b
	assert_failure 2
	assert_output "damoctl: b:2: unknown object 'frob' (objects: $(objects))
damoctl: b:3: scheme add: min size 8K > max size 4K
damoctl: b:4: unterminated quote
damoctl: b:6: monitor start: no monitoring target: set one first (damoctl target set ...)
damoctl: b: 4 of 6 commands failed"
	run cut -d' ' -f7 "$(SCHEMES)"
	assert_output "5
0"
}

@test "--force: a bad command's object does not stick to the next messages" {
	printf '%s\n' "scheme frob" "scheme add 'stat" > b
	run damoctl --force -f b
	assert_failure 2
	assert_output "damoctl: b:1: scheme: unknown command 'frob' (commands: add list rm clear set goal encode)
damoctl: b:2: unterminated quote
damoctl: b: 2 of 2 commands failed"
}

objects() { "$DAMOCTL" --complete -- "" | grep -v '^-' | tr '\n' ' ' | sed 's/ $//'; }

@test "-f -: commands from stdin, reported as <stdin>:LINE" {
	run damoctl -f - <<-'EOF'
	scheme add stat
	scheme rm 7
	EOF
	assert_failure 1
	assert_output --regexp '^damoctl: <stdin>:2: scheme rm: '
}

@test "quit and exit end a batch early" {
	printf '%s\n' "scheme add stat" "quit" "scheme add cold" > b
	run damoctl -f b
	assert_success
	run wc -l < "$(SCHEMES)"
	assert_output 1
}

@test "usage: --force without -f, a command after -f, options inside the file" {
	run damoctl --force scheme list
	assert_failure 2
	assert_output "damoctl: --force goes with -f FILE"
	echo "scheme list" > b
	run damoctl -f b scheme list
	assert_failure 2
	assert_output "damoctl: -f FILE runs the commands of FILE: no command after it"
	echo "--interface sysfs scheme list" > b
	run damoctl -f b
	assert_failure 2
	assert_output "damoctl: b:1: '--interface': options go on the damoctl command line, not in a command"
	run damoctl -f
	assert_failure 2
	run damoctl -f does-not-exist
	assert_failure 1
	assert_output "damoctl: does-not-exist: No such file or directory"
}

@test "--json: errors carry FILE:LINE too" {
	printf '%s\n' "scheme add stat" "scheme add pageout age 10s 5s" > b
	run damoctl --json -f b
	assert_failure 2
	# and that line 1 was undone, as the text says (issue 45)
	assert_output '{"index":0}
{"error":"b:2: scheme add: min age 10s > max age 5s"}
{"error":"b: nothing of it was applied: the files are as before line 1"}'
}

@test "--dry-run: one script for the whole batch, a comment per applied setup" {
	printf '%s\n' "scheme add lru_prio" "scheme add lru_deprio" "scheme list" "scheme rm 0" > b
	run damoctl --dry-run -f b
	assert_success
	assert_line --index 0 "#!/bin/sh"
	[ "$(grep -c '^#!/bin/sh' <<<"$output")" = 1 ]
	# the edits in a row are one setup, one write of the schemes file
	assert_line "# damoctl scheme add lru_prio; scheme add lru_deprio (dbgfs)"
	assert_line "# damoctl scheme rm 0 (dbgfs)"
	[ "$(grep -c '> .*/schemes' <<<"$output")" = 2 ]
	run cat "$(SCHEMES)"
	assert_output ""
}

@test "the same lines one-shot, from -f and in the shell make the same tree" {
	local lines=("attrs set aggr 200ms" "scheme add lru_prio" "scheme add pageout sz 4K 2M age 10s max quota time 5ms reset 1s")
	local l
	for l in "${lines[@]}"; do
		# shellcheck disable=SC2086
		damoctl $l
	done
	local oneshot
	oneshot=$(tree_sum)
	rm -rf "$ROOT" && mkdir -p "$ROOT" && make_dbgfs
	printf '%s\n' "${lines[@]}" > b
	damoctl -f b
	[ "$(tree_sum)" = "$oneshot" ]
}

# A batch's edits are one setup: what a line checks against the kernel is
# what the lines before it left, and what it undoes it undoes for real.
@test "batch: lru-sort disable then monitor start (Linux 6.1: one DAMON user) starts; the module is off first" {
	load lru_sort
	rm -rf "$ROOT" && mkdir -p "$ROOT"
	make_sysfs off 0
	make_lru_sort
	lru_sort_on
	printf '%s\n' "lru-sort disable" "monitor start" > b
	run damoctl -f b
	assert_success
	assert_equal "$(cat "$(LRU)/enabled")" N
	assert_equal "$(cat "$ROOT/sys/kernel/mm/damon/admin/kdamonds/0/state")" on
}

@test "batch: a failed apply of its edits names their lines, not the command that came next" {
	rm -rf "$ROOT" && mkdir -p "$ROOT"
	make_sysfs off 0
	printf '%s\n' "scheme add stat" "scheme add stat goal user_input 100" "scheme list" > b
	run damoctl -f b
	assert_failure 1
	assert_line --index 0 --partial "damoctl: b:1-2: scheme 1: goal user_input needs quota goals"
	refute_output --partial "scheme list:"
}

@test "batch: monitor stop ... monitor start restarts the kdamond; monitor stop with no kdamond makes none" {
	rm -rf "$ROOT" && mkdir -p "$ROOT"
	make_sysfs on 0
	printf '%s\n' "monitor stop" "attrs set sample 10ms" "monitor start" > b
	DAMOS_FAULT_LOG=$PWD/log "$DAMOCTL_FAULT" --root "$ROOT" -f b
	# off first, then the attrs, then on: started again on them (a
	# commit would write the attrs first, then "commit" to the state)
	run cut -d' ' -f2- log
	assert_line --index 0 "$ROOT/sys/kernel/mm/damon/admin/kdamonds/0/state"
	assert_line --index 1 --partial "intervals/sample_us"
	assert_line --index $((${#lines[@]} - 1)) "$ROOT/sys/kernel/mm/damon/admin/kdamonds/0/state"
	assert_equal "$(cat "$ROOT/sys/kernel/mm/damon/admin/kdamonds/0/state")" on
	rm -rf "$ROOT" && mkdir -p "$ROOT"
	make_sysfs_empty
	: > log
	DAMOS_FAULT_LOG=$PWD/log "$DAMOCTL_FAULT" --root "$ROOT" monitor stop
	DAMOS_FAULT_LOG=$PWD/log "$DAMOCTL_FAULT" --root "$ROOT" target clear
	[ ! -s log ]
	assert_equal "$(cat "$ROOT/sys/kernel/mm/damon/admin/kdamonds/nr_kdamonds")" 0
}
