#!/usr/bin/env bats
# Issue 19: damoctl serializes its read-modify-writes with flock(2)
# (LOCKING in damoctl(8)), waits at most --wait SECONDS, names the holder,
# and after a write checks that what it meant is there.  Issue 41: the
# lock is ROOT/run/damos, a directory only its owner can open (DAMON's
# own are world-readable: any user could hold a flock on them).  Fake
# trees, parallel processes.

load helper
load lru_sort

# The race layer (DAMOCTL_TEST_RACE) is in the test build only.
: "${DAMOCTL_TEST:=$BATS_TEST_DIRNAME/../../build/tests/damoctl-test}"

# race_build: the race tests run the test build as damoctl
race_build() {
	[ -x "$DAMOCTL_TEST" ] || fail "no $DAMOCTL_TEST (make $DAMOCTL_TEST)"
	DAMOCTL=$DAMOCTL_TEST
}

DBGDIR() { echo "$ROOT/sys/kernel/debug/damon"; }
LOCKDIR() { mkdir -p -m 0700 "$ROOT/run/damos"; echo "$ROOT/run/damos"; }
ADMIN() { echo "$ROOT/sys/kernel/mm/damon/admin"; }

# hold [-s] DIR SECONDS: flock(1) holds DIR's lock in the background
# (its pid in $holder) from the moment this returns.
hold() {
	local opt=
	[ "$1" = -s ] && { opt=-s; shift; }
	rm -f "$BATS_TEST_TMPDIR/held"
	flock $opt "$1" sh -c "touch '$BATS_TEST_TMPDIR/held'; sleep $2" &
	holder=$!
	while [ ! -e "$BATS_TEST_TMPDIR/held" ]; do sleep 0.05; done
}

# N parallel "scheme add stat sz NK max"; the exit statuses in $BATS_TEST_TMPDIR/st.N
parallel_adds() {
	local n=$1 i pids=()
	shift
	for ((i = 1; i <= n; i++)); do
		( "$DAMOCTL" --root "$ROOT" "$@" scheme add stat sz "${i}K" max \
			2> "$BATS_TEST_TMPDIR/err.$i"; echo $? > "$BATS_TEST_TMPDIR/st.$i" ) &
		pids+=($!)
	done
	# never a bare wait: under BATS_TEST_TIMEOUT it waits for bats' countdown
	wait "${pids[@]}"
}

# every add exited 0, and each size is there once
check_adds() {
	local n=$1 i
	for ((i = 1; i <= n; i++)); do
		[ "$(cat "$BATS_TEST_TMPDIR/st.$i")" = 0 ] ||
			fail "add $i exited $(cat "$BATS_TEST_TMPDIR/st.$i"): $(cat "$BATS_TEST_TMPDIR/err.$i")"
	done
	run damoctl scheme list
	assert_success
	[ "${#lines[@]}" -eq "$n" ] || fail "$n adds left ${#lines[@]} schemes: $output"
	for ((i = 1; i <= n; i++)); do
		assert_line --partial "stat sz ${i}K max "
	done
}

@test "dbgfs: 10 parallel scheme adds leave 10 schemes, all exit 0" {
	make_dbgfs
	parallel_adds 10
	check_adds 10
}

@test "sysfs: 10 parallel scheme adds leave 10 schemes, all exit 0" {
	make_sysfs off 0
	parallel_adds 10
	check_adds 10
}

@test "dbgfs: parallel adds mixed with rm and apply: every success is there" {
	make_dbgfs
	damoctl scheme add pageout sz 1M max
	damoctl scheme add pageout sz 2M max
	printf 'scheme stat sz 64K max\nscheme pageout sz 1M max\n' > "$BATS_TEST_TMPDIR/a.conf"
	( "$DAMOCTL" --root "$ROOT" apply "$BATS_TEST_TMPDIR/a.conf"; echo $? > "$BATS_TEST_TMPDIR/st.apply" ) &
	local others=($!)
	( "$DAMOCTL" --root "$ROOT" scheme rm 0; echo $? > "$BATS_TEST_TMPDIR/st.rm" ) &
	others+=($!)
	parallel_adds 6
	wait "${others[@]}"
	[ "$(cat "$BATS_TEST_TMPDIR/st.apply")" = 0 ]
	[ "$(cat "$BATS_TEST_TMPDIR/st.rm")" = 0 ]
	run damoctl scheme list
	# the apply ran at some point: the adds after it are all there, and
	# every add that exited 0 left a scheme unless the apply replaced it
	for i in 1 2 3 4 5 6; do
		[ "$(cat "$BATS_TEST_TMPDIR/st.$i")" = 0 ] || fail "add $i failed"
	done
	# exact: the schemes are what some serial order of the 8 commands
	# leaves (the lock makes them serial; a lost or doubled write is not)
	printf '%s\n' "${lines[@]}" | awk '{ print $2, $4 }' > "$BATS_TEST_TMPDIR/got"
	run serial_outcome "$BATS_TEST_TMPDIR/got"
	assert_success
}

# serial_outcome GOT: GOT ("ACTION SIZE" lines) is the list of schemes that
# some order of apply (stat 64K, pageout 1M), rm 0 and the adds of stat 1K
# .. 6K leaves, starting from pageout 1M, pageout 2M.  Tries all 8! orders.
serial_outcome() {
	python3 - "$1" <<-'PY'
	import itertools, sys
	got = [tuple(l.split()) for l in open(sys.argv[1]) if l.strip()]
	ops = ["apply", "rm"] + ["%dK" % i for i in range(1, 7)]
	seen = set()
	for order in itertools.permutations(ops):
	    s = [("pageout", "1M"), ("pageout", "2M")]
	    for op in order:
	        if op == "apply":
	            s = [("stat", "64K"), ("pageout", "1M")]
	        elif op == "rm":
	            s = s[1:]
	        else:
	            s = s + [("stat", op)]
	    if s == got:
	        sys.exit(0)
	    seen.add(tuple(s))
	print("no serial order of the commands leaves %s (%d outcomes possible)" % (got, len(seen)))
	sys.exit(1)
	PY
}

@test "a holder of the lock makes a write wait, then time out naming it; nothing changes" {
	make_dbgfs
	before=$(tree_sum)
	hold "$(LOCKDIR)" 5
	start=$SECONDS
	run damoctl --wait 1 scheme add stat
	assert_failure 1
	assert_output --partial "$(LOCKDIR) is locked by pid $holder (flock"
	assert_output --partial "waited 1s (--wait SECONDS to wait longer)"
	[ $((SECONDS - start)) -le 3 ]
	[ "$(tree_sum)" = "$before" ]
	wait "$holder"
}

@test "--wait: a write waits for the lock and goes on when it is free" {
	make_sysfs off 0
	hold "$(LOCKDIR)" 1
	run damoctl --wait 10 scheme add stat
	assert_success
	wait "$holder"
	run damoctl scheme list
	assert_output --partial "0: stat"
}

@test "--wait 0 tries once; --wait takes times; a bad one is a usage error" {
	make_sysfs off 0
	hold "$(LOCKDIR)" 3
	run damoctl --wait 0 attrs set sample 10ms
	assert_failure 1
	assert_output --partial "is locked by pid"
	assert_output --partial "waited 0us"
	run damoctl --wait 200ms --json scheme clear
	assert_failure 1
	assert_output --partial '{"error":"scheme clear: '
	assert_output --partial "waited 200ms"
	wait "$holder"
	run damoctl --wait 2x scheme list
	assert_failure 2
	assert_output --partial "--wait: '2x' is not a time"
}

@test "reads share the lock with reads, and wait for a writer" {
	make_sysfs off 1
	hold -s "$(LOCKDIR)" 3
	run damoctl --wait 0 scheme list
	assert_success
	run damoctl --wait 0 scheme rm 0
	assert_failure 1
	assert_output --partial "reading"
	wait "$holder"
	hold "$(LOCKDIR)" 3
	run damoctl --wait 0 monitor status
	assert_failure 1
	wait "$holder"
}

@test "a dry run takes the lock shared: it waits for a writer, not for readers" {
	make_dbgfs
	hold -s "$(LOCKDIR)" 3
	run damoctl --wait 0 --dry-run scheme add stat
	assert_success
	wait "$holder"
}

@test "lru-sort commands and apply take the same lock" {
	make_dbgfs
	make_lru_sort
	echo 'scheme stat' > "$BATS_TEST_TMPDIR/a.conf"
	hold "$(LOCKDIR)" 3
	run damoctl --wait 0 lru-sort set hot 60%
	assert_failure 1
	assert_output --partial "$(LOCKDIR) is locked by pid $holder"
	run damoctl --wait 0 apply "$BATS_TEST_TMPDIR/a.conf"
	assert_failure 1
	assert_output --partial "$(LOCKDIR) is locked"
	wait "$holder"
	run damoctl --wait 0 lru-sort set hot 60%
	assert_success
}

@test "a flock on DAMON's own directories (world-readable) makes no damoctl wait" {
	make_dbgfs
	make_lru_sort
	hold "$(DBGDIR)" 3
	run damoctl --wait 0 scheme add stat
	assert_success
	wait "$holder"
	hold "$(LRU)" 3
	run damoctl --wait 0 lru-sort set hot 60%
	assert_success
	wait "$holder"
}

@test "the lock's directory: made 0700; refused if open to others, another user's, or a symlink" {
	make_dbgfs
	run damoctl scheme add stat
	assert_success
	[ "$(stat -c %a "$ROOT/run/damos")" = 700 ]
	chmod 0755 "$ROOT/run/damos"
	run damoctl --wait 0 scheme add stat
	assert_failure 1
	assert_output --partial "$ROOT/run/damos is open to other users: another user could hold the lock (refused"
	run damoctl scheme list
	assert_failure 1
	rm -rf "$ROOT/run/damos"
	mkdir -m 0700 "$BATS_TEST_TMPDIR/elsewhere"
	ln -s "$BATS_TEST_TMPDIR/elsewhere" "$ROOT/run/damos"
	run damoctl --wait 0 scheme add stat
	assert_failure 1
	assert_output --partial "a symlink or not a directory (refused)"
	[ -z "$(ls -A "$BATS_TEST_TMPDIR/elsewhere")" ]
	rm "$ROOT/run/damos"
	if [ "$(id -u)" = 0 ]; then
		mkdir -m 0700 "$ROOT/run/damos"
		chown 65534 "$ROOT/run/damos"
		run damoctl --wait 0 scheme add stat
		assert_failure 1
		assert_output --partial "$ROOT/run/damos is not ours"
	fi
}

@test "root's lock cannot be taken by an unprivileged user" {
	[ "$(id -u)" = 0 ] || skip "needs root: the lock is root's, the other user not"
	# a root nobody can reach (the test's own directory is 0700)
	ROOT=$(mktemp -d "${TMPDIR:-/tmp}/damos-lock.XXXXXX")
	chmod 755 "$ROOT"
	make_dbgfs
	damoctl scheme add stat
	chmod 755 "$ROOT/run"
	# nobody reaches run/, not the lock in it
	run setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$ROOT/run"
	assert_success
	run setpriv --reuid=65534 --regid=65534 --clear-groups \
		flock -n -s "$ROOT/run/damos" true
	assert_failure
	assert_output --partial "Permission denied"
	run damoctl --wait 0 scheme add stat sz 8K max
	assert_success
	rm -rf "$ROOT"
}

@test "a program without the lock changes the schemes meanwhile: add and rm fail, saying what is there" {
	make_dbgfs
	race_build
	damoctl scheme add pageout sz 1M max
	export DAMOCTL_TEST_RACE="echo '4096 8192 0 0 0 0 5 0 0 0 0 0 0 0 0 0 0 0' > $(DBGDIR)/schemes"
	run damoctl scheme add stat
	assert_failure 1
	assert_output --partial "another program changed the schemes while they were written"
	assert_output --partial "2 schemes meant, there is now 1: 0: stat sz 4K 8K"
	assert_output --partial "; nothing was changed"
	# the read-back is before the commit point: the add is rolled back
	run damoctl scheme list
	assert_output --regexp "^0: pageout sz 1M max"
	[ "${#lines[@]}" = 1 ]
	DAMOCTL_TEST_RACE= damoctl scheme add pageout
	run damoctl scheme rm 0
	assert_failure 1
	assert_output --partial "1 scheme meant, there is now 1: 0: stat sz 4K 8K"
	unset DAMOCTL_TEST_RACE
	run damoctl scheme add stat
	assert_success
}

@test "sysfs: a program without the lock changes attrs or targets meanwhile: reported" {
	make_sysfs off 0
	race_build
	c="$(ADMIN)/kdamonds/0/contexts/0"
	DAMOCTL_TEST_RACE="echo 7000 > $c/monitoring_attrs/intervals/sample_us" \
		run damoctl attrs set sample 10ms
	assert_failure 1
	assert_output --partial "another program changed the attributes of kdamond 0 while they were written"
	assert_output --partial "they are now sample 7ms aggr 100ms"
	assert_output --partial "; nothing was changed"
	# rolled back before the commit point: the sample interval as it was
	[ "$(cat "$c/monitoring_attrs/intervals/sample_us")" = 5000 ]
	# (the tree has paddr 4G 8G: a set to the same would write nothing)
	DAMOCTL_TEST_RACE="echo vaddr > $c/operations" \
		run damoctl target set paddr region 4G 9G
	assert_failure 1
	assert_output --partial "another program changed the targets of kdamond 0 while they were written"
	assert_output --partial "there is now 1 target (vaddr)"
	assert_output --partial "; nothing was changed"
	# rolled back: the operations and the region as they were
	[ "$(cat "$c/operations")" = paddr ]
	[ "$(cat "$c/targets/0/regions/0/end")" = 8589934592 ]
	run damoctl attrs set sample 10ms
	assert_success
}

@test "the shipped damoctl obeys no DAMOCTL_TEST_RACE: only the test build runs it" {
	make_dbgfs
	DAMOCTL_TEST_RACE="touch $BATS_TEST_TMPDIR/ran" "$DAMOCTL_SHIPPED" --root "$ROOT" scheme add stat
	[ ! -e "$BATS_TEST_TMPDIR/ran" ]
	run grep -c DAMOCTL_TEST "$DAMOCTL_SHIPPED"
	assert_failure
}
