#!/usr/bin/env bats
# Issue 19: several damoctl at once on the real kernel, through every
# interface the kernel has (patched 6.1: dbgfs and sysfs; Debian's 6.12:
# sysfs, dbgfs only if built in; monitor_on may be monitor_on_DEPRECATED).
# Every reported success must be there in the end; a program that writes
# without the lock in the middle of a command must be reported.

load helpers/common

# The interfaces this kernel has, as damoctl names them.
interfaces() {
	[ -f "$SYSFS/kdamonds/nr_kdamonds" ] && echo sysfs
	[ -f "$DBGFS/schemes" ] && echo dbgfs
	true
}

# Everything off and empty, through damoctl itself (it knows the layout).
reset_iface() {
	"$DAMOCTL" --interface "$1" monitor stop
	"$DAMOCTL" --interface "$1" scheme clear
	"$DAMOCTL" --interface "$1" attrs set sample 5ms aggr 100ms
}

setup() {
	log_mark
	[ -n "$(interfaces)" ] || fail "no DAMON interface: neither $SYSFS nor $DBGFS/schemes"
}

teardown() {
	local i
	[ -z "${holder:-}" ] || release
	for i in $(interfaces); do
		"$DAMOCTL" --interface "$i" monitor stop || true
		"$DAMOCTL" --interface "$i" scheme clear || true
	done
	assert_kernel_log_clean
}

# Never a bare `wait`: with BATS_TEST_TIMEOUT (the guest sets 300 s) bats
# runs its timeout countdown as a background job of the test's shell, so
# `wait` without pids waits for the countdown, and the test "hangs" until
# it times out.  Every background job's pid goes in $jobs instead.
jobs=()
wait_jobs() {
	local st=0
	[ ${#jobs[@]} -eq 0 ] || wait "${jobs[@]}" || st=$?
	jobs=()
	return $st
}

# parallel IFACE N: N "scheme add stat sz NK max" at once (pids in $jobs;
# wait_jobs waits for them); statuses in st.N
parallel_adds() {
	local iface=$1 n=$2 i
	for ((i = 1; i <= n; i++)); do
		( "$DAMOCTL" --interface "$iface" scheme add stat sz "${i}K" max \
			2> "$BATS_TEST_TMPDIR/err.$i"
		  echo $? > "$BATS_TEST_TMPDIR/st.$i" ) &
		jobs+=($!)
	done
}

count_ok() {	# count_ok N: how many of st.1..st.N are 0; failures on stderr
	local n=$1 i ok=0
	for ((i = 1; i <= n; i++)); do
		if [ "$(cat "$BATS_TEST_TMPDIR/st.$i")" = 0 ]; then
			ok=$((ok + 1))
		else
			echo "add $i: $(cat "$BATS_TEST_TMPDIR/err.$i")" >&2
		fi
	done
	echo "$ok"
}

@test "10 parallel scheme adds: 10 exit 0 and 10 schemes, on every interface" {
	local iface ok n
	for iface in $(interfaces); do
		reset_iface "$iface"
		parallel_adds "$iface" 10
		wait_jobs
		ok=$(count_ok 10)
		n=$("$DAMOCTL" --interface "$iface" scheme list | wc -l)
		echo "# $iface: $ok of 10 adds exited 0, $n schemes kept" >&3
		[ "$ok" = 10 ] || fail "$iface: $ok of 10 adds exited 0"
		[ "$n" = 10 ] || fail "$iface: 10 adds left $n schemes"
		run "$DAMOCTL" --interface "$iface" scheme list
		for ((i = 1; i <= 10; i++)); do
			assert_line --partial "stat sz ${i}K max "
		done
	done
}

@test "adds mixed with rm and apply at once: the count is what the successes make" {
	local iface ok n rm_ok i
	cat > "$BATS_TEST_TMPDIR/attrs.conf" <<-EOF
	attrs sample 10ms aggr 200ms update 1s regions 10 1000
	EOF
	for iface in $(interfaces); do
		reset_iface "$iface"
		"$DAMOCTL" --interface "$iface" scheme add pageout sz 1M max
		"$DAMOCTL" --interface "$iface" scheme add pageout sz 2M max
		"$DAMOCTL" --interface "$iface" scheme add pageout sz 3M max
		for i in 1 2; do
			( "$DAMOCTL" --interface "$iface" scheme rm 0 2> "$BATS_TEST_TMPDIR/rmerr.$i"
			  echo $? > "$BATS_TEST_TMPDIR/rm.$i" ) &
			jobs+=($!)
		done
		( "$DAMOCTL" --interface "$iface" apply "$BATS_TEST_TMPDIR/attrs.conf" \
			2> "$BATS_TEST_TMPDIR/applyerr"
		  echo $? > "$BATS_TEST_TMPDIR/apply" ) &
		jobs+=($!)
		parallel_adds "$iface" 6
		wait_jobs
		ok=$(count_ok 6)
		rm_ok=0
		for i in 1 2; do
			[ "$(cat "$BATS_TEST_TMPDIR/rm.$i")" = 0 ] && rm_ok=$((rm_ok + 1))
		done
		n=$("$DAMOCTL" --interface "$iface" scheme list | wc -l)
		echo "# $iface: $ok of 6 adds, $rm_ok of 2 rm, apply $(cat "$BATS_TEST_TMPDIR/apply"): $n schemes" >&3
		[ "$(cat "$BATS_TEST_TMPDIR/apply")" = 0 ] ||
			fail "$iface: apply: $(cat "$BATS_TEST_TMPDIR/applyerr")"
		[ "$ok" = 6 ] && [ "$rm_ok" = 2 ] ||
			fail "$iface: $ok of 6 adds, $rm_ok of 2 rm exited 0: $(cat "$BATS_TEST_TMPDIR"/rmerr.*)"
		[ "$n" = $((3 + ok - rm_ok)) ] ||
			fail "$iface: 3 + $ok adds - $rm_ok rm should leave $((3 + ok - rm_ok)) schemes, not $n"
		run "$DAMOCTL" --interface "$iface" attrs show
		assert_output "sample 10ms aggr 200ms update 1s regions 10 1000"
	done
}

@test "a write without the lock in the middle of scheme add is reported and the add rolled back, not lost silently" {
	local iface file
	for iface in $(interfaces); do
		reset_iface "$iface"
		"$DAMOCTL" --interface "$iface" scheme add pageout sz 1M max
		if [ "$iface" = sysfs ]; then
			# another program empties the schemes right after damoctl's write
			file="$SYSFS/kdamonds/0/contexts/0/schemes/nr_schemes"
			race="echo 0 > $file"
		else
			race="echo > $DBGFS/schemes"
		fi
		# the race layer is in the test build of damoctl only (staged
		# as helpers/damoctl-test); it runs $race after damoctl's write
		DAMOCTL_TEST_RACE="$race" run "$HELPERS/damoctl-test" --root / --interface "$iface" scheme add stat
		assert_failure 1
		assert_output --partial "another program changed the schemes"
		assert_output --partial "while they were written"
		assert_output --partial "2 schemes meant, there are now 0"
		assert_output --partial "; nothing was changed"
	done
}

@test "a lock holder makes damoctl wait, then fail naming it; a flock on DAMON's own directory makes none wait" {
	local iface dir lock=/run/damos
	mkdir -p -m 0700 "$lock"
	for iface in $(interfaces); do
		dir=$SYSFS
		[ "$iface" = dbgfs ] && dir=$DBGFS
		# the holder says when it has the lock (no guess of how long
		# a fork takes under TCG), then keeps it until told to let go
		# (a fixed 4 s before: waited out twice an interface)
		hold "$lock"
		run "$DAMOCTL" --interface "$iface" --wait 1 scheme add stat
		assert_failure 1
		assert_output --partial "$lock is locked by pid $holder (flock"
		release
		run "$DAMOCTL" --interface "$iface" scheme list
		assert_output ""
		# DAMON's directory is world-readable: anyone's flock there
		# (issue 41) must not make root's damoctl wait
		hold "$dir" -s
		run "$DAMOCTL" --interface "$iface" --wait 0 scheme add stat
		assert_success
		run "$DAMOCTL" --interface "$iface" scheme clear
		assert_success
		release
	done
}

# hold FILE [FLOCK OPTION]: flock(1) holds FILE in the background ($holder)
# from when it says so until release (a line into a FIFO, which it waits
# on without a CPU; at most 60 s)
hold() {
	local d=$BATS_TEST_TMPDIR
	rm -f "$d/held" "$d/release"
	mkfifo "$d/release"
	flock ${2:-} "$1" timeout 60 sh -c ': > "$1"; read -r _ < "$2"' sh "$d/held" "$d/release" 3>&- &
	holder=$!
	for _ in $(seq 100); do
		[ -e "$d/held" ] && return 0
		sleep 0.1
	done
	fail "flock did not take $1 in 10 s"
}
release() {
	# read-write: the open does not wait for the reader
	echo go 1<>"$BATS_TEST_TMPDIR/release"
	wait "$holder"
	holder=
}
