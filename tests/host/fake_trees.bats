#!/usr/bin/env bats
# Fake trees as the docs say (issue 45): the damoctl that ships reads and
# writes a --root tree as it is, and says so when a file a kernel would
# have made is missing; the test build acts as the kernel; and a new user
# going down the README's examples with the test build on a fake tree of
# each interface meets no error that damoctl(8) or the README does not
# predict.

load helper
load report
load lru_sort
load reclaim

SRC="$BATS_TEST_DIRNAME/../.."

@test "the shipped damoctl uses a --root tree as it is: a missing scheme directory is an error pointing to FAKE TREES; the test build makes it" {
	make_612 off 0
	run "$DAMOCTL_SHIPPED" --root "$ROOT" scheme add lru_prio
	assert_failure 1
	assert_output --partial "schemes/0/access_pattern/sz/min: No such file or directory (under --root the tree is used as it is, and must be complete: see FAKE TREES in damoctl(8))"
	run damoctl scheme add lru_prio
	assert_success
	[ -d "$(CTX)/schemes/0" ]
	# what the page and the README say of it
	sed -n '/^\.SH "FAKE TREES"/,/^\.SH/p' "$SRC/man/damoctl.8" | tr '\n' ' ' > "$BATS_TEST_TMPDIR/man"
	grep -q 'the damoctl that ships does not act as the kernel' "$BATS_TEST_TMPDIR/man"
	grep -q 'must therefore be complete' "$BATS_TEST_TMPDIR/man"
	grep -q 'build/tests/damoctl\\-test' "$BATS_TEST_TMPDIR/man"
	grep -q 'does not act as the kernel, so the tree must be complete' <(tr '\n' ' ' < "$SRC/README.md")
	grep -q 'build/tests/damoctl-test' "$SRC/README.md"
}

@test "dbgfs .max_action is the test build's: it refuses action 6 there, the shipped damoctl writes what it is asked" {
	make_dbgfs
	echo 5 > "$ROOT/sys/kernel/debug/damon/.max_action"
	run damoctl scheme add lru_prio
	assert_failure
	assert_output --partial 'dbgfs actions 6 and 7 need the damos kernel series'
	run "$DAMOCTL_SHIPPED" --root "$ROOT" scheme add lru_prio
	assert_success
	[ "$(awk '{ print $7 }' "$ROOT/sys/kernel/debug/damon/schemes")" = 6 ]
	sed -n '/^\.SH "FAKE TREES"/,/^\.SH/p' "$SRC/man/damoctl.8" | tr '\n' ' ' |
		grep -q 'The test build of damoctl.*\.max_action'
}

# The README's "damoctl in short" lines, as a user types them.
readme_examples() {
	sed -n '/^## damoctl in short/,/^`damoctl scheme add lru_prio` with/p' "$SRC/README.md" |
		grep '^    damoctl' | sed -e 's/^    //' -e 's/ *#.*//'
}

# Errors a fake tree of plain files meets that the docs predict: a
# pattern of the message, a tab, what damoctl(8) or the README says.
PREDICTED="the kernel listed no tried regions	The fake kernel monitors nothing
no damon:damon_aggregated tracepoint	(a kernel with \\fBCONFIG_FTRACE\\fR
does not start next to another DAMON user	\\fBenable\\fR is refused while \\fBdamon_lru_sort\\fR or DAMON monitoring
dbgfs refuses to change schemes while it runs	refuse writes while \\fImonitor_on\\fR reads \\fBon\\fR
quota goals need the sysfs interface of Linux 6.8	Quota goals need sysfs of Linux 6.8 or later
needs quota goals .quotas/goals/., which dbgfs does not have	Quota goals need sysfs of Linux 6.8 or later
no DAMON dbgfs interface: .*/sys/kernel/debug/damon does not exist	no dbgfs in Debian's 6.12
tier enable: no DAMON sysfs interface: .*/sys/kernel/mm/damon/admin does not exist	Memory tiering with DAMOS \\fBmigrate_cold\\fR and \\fBmigrate_hot\\fR (sysfs,"

# /proc/iomem and nodes 0 and 1 (target set paddr node 1, tier enable):
# node 1's memory blocks 40..47 of 128 MiB, the last GiB of the System RAM
# range above the hole, no CPU; node 0 the first GiB and the CPUs
make_node1() {
	local b n
	mkdir -p "$ROOT/proc" "$ROOT/sys/devices/system/node/node0" "$ROOT/sys/devices/system/node/node1"
	printf '100000000-17fffffff : System RAM\n' > "$ROOT/proc/iomem"
	mkdir -p "$ROOT/sys/devices/system/memory"
	echo 8000000 > "$ROOT/sys/devices/system/memory/block_size_bytes"
	for ((b = 32; b < 48; b++)); do
		n=$((b < 40 ? 0 : 1))
		mkdir -p "$ROOT/sys/devices/system/memory/memory$b"
		ln -s "../../memory/memory$b" "$ROOT/sys/devices/system/node/node$n/memory$b"
	done
	for n in 0 1; do
		printf 'Node %s MemTotal:       1048576 kB\nNode %s MemFree:         524288 kB\n' $n $n \
			> "$ROOT/sys/devices/system/node/node$n/meminfo"
	done
	echo 0-1 > "$ROOT/sys/devices/system/node/node0/cpulist"
	echo > "$ROOT/sys/devices/system/node/node1/cpulist"
}

# Each example on one tree, in the README's order.  Files the user brings
# are the project's (the shipped /etc/damoctl.conf, a damo spec of
# fixtures/, a batch); a duration of 30 s is 300 ms, --watch gets --count
# 1, the metrics go to the test's directory; the shell needs a terminal
# (shell_session.bats).
walk_readme() {	# INTERFACE
	local line args out st n=0 pat doc ok
	cd "$BATS_TEST_TMPDIR" || return 1
	printf 'scheme list\n' > setup.txt
	cp "$BATS_TEST_DIRNAME/fixtures/damo-3.3.0/lru-prio-deprio.json" spec.json
	while read -r line; do
		[ "$line" = damoctl ] && continue
		args=${line#damoctl }
		args=${args//\/etc\/damoctl.conf/$SRC/debian/damoctl.conf}
		args=${args//duration 30s/duration 300ms}
		args=${args//--watch 1/--watch 1 --count 1}
		args=${args//\/var\/lib\/prometheus\/node-exporter\//}
		st=0
		out=$(eval "timeout 60 \"\$DAMOCTL\" --root \"\$ROOT\" $args" 2>&1 < /dev/null) || st=$?
		n=$((n + 1))
		[ "$st" = 0 ] && continue
		ok=
		while IFS=$'\t' read -r pat doc; do
			grep -qE -- "$pat" <<<"$out" || continue
			grep -qF -- "$doc" "$SRC/man/damoctl.8" "$SRC/README.md" ||
				fail "$1: '$line': the docs no longer say: $doc"
			ok=1
		done <<<"$PREDICTED"
		[ -n "$ok" ] || fail "$1: '$line' (status $st), an error the docs do not predict: $out"
	done < <(readme_examples)
	[ "$n" -ge 20 ] || fail "$1: only $n examples"
}

@test "the README's examples on a fake sysfs tree (6.12) with the test build: each works or fails as the docs say" {
	make_612 off 0
	make_lru_sort
	make_reclaim
	make_node1
	walk_readme sysfs
	[ -s "$BATS_TEST_TMPDIR/damon.prom" ]
	[ -s "$BATS_TEST_TMPDIR/now.json" ]
}

@test "the README's examples on a fake dbgfs tree with the test build: each works or fails as the docs say" {
	make_dbgfs
	make_lru_sort
	make_reclaim
	make_node1
	walk_readme dbgfs
	[ -s "$BATS_TEST_TMPDIR/now.json" ]
}
