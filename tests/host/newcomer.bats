#!/usr/bin/env bats
# Issue 14: damoctl as a newcomer meets it.  One test (or more) an item.

load helper

# A /proc/iomem with three System RAM ranges (the 636K below the legacy
# hole, 2G below the 32-bit hole, 2G above it) and nested lines that are
# not top level.
make_iomem() {
	mkdir -p "$ROOT/proc"
	cat > "$ROOT/proc/iomem" <<-'EOF'
	00000000-00000fff : Reserved
	00001000-0009fbff : System RAM
	000f0000-000fffff : Reserved
	00100000-7ffdffff : System RAM
	  01000000-01ffffff : Kernel code
	100000000-17fffffff : System RAM
	  100000000-1ffffffff : System RAM
	EOF
}

C() { echo "$ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/$1"; }

# Issue 44: every System RAM range, no longer the biggest only (the
# two-node trees of numa_ram.bats test more)
@test "target set paddr with no region takes every System RAM range, and says so (sysfs)" {
	make_sysfs off 0
	make_iomem
	run damoctl target set paddr
	assert_success
	assert_output "damoctl: target set: paddr: no region given: every System RAM range of /proc/iomem, region 0x1000 0x9fc00 region 0x100000 0x7ffe0000 region 0x100000000 0x180000000 (4193787K)"
	[ "$(cat "$(C targets/0/regions/2/start)")" = 4294967296 ]
	[ "$(cat "$(C targets/0/regions/2/end)")" = 6442450944 ]
	run damoctl target show
	assert_output "paddr region 0x1000 0x9fc00 region 0x100000 0x7ffe0000 region 0x100000000 0x180000000"
}

@test "target set paddr with no region takes every System RAM range on dbgfs too" {
	make_dbgfs
	make_iomem
	run damoctl target set paddr
	assert_success
	assert_output --partial "region 0x100000000 0x180000000 (4193787K)"
	[ "$(sed -n 3p "$ROOT/sys/kernel/debug/damon/init_regions")" = "0 4294967296 6442450944" ]
}

@test "no System RAM range (no file, or zeros as a user sees it): refused, nothing written" {
	make_sysfs off 0
	before=$(tree_sum)
	run damoctl target set paddr
	assert_failure 1
	assert_output --partial "paddr with no region monitors nothing, and cannot read $ROOT/proc/iomem"
	make_iomem
	sed -i 's/^[0-9a-f]*-[0-9a-f]* /00000000-00000000 /' "$ROOT/proc/iomem"
	before=$(tree_sum)
	run damoctl target set paddr
	assert_failure 1
	assert_output --partial "no System RAM range in $ROOT/proc/iomem (it shows zeros: only root sees the addresses): give one (region START END)"
	[ "$(tree_sum)" = "$before" ]
	run damoctl target set paddr region 4G 8G
	assert_success
	assert_output ""
}

@test "monitor start of a paddr target without a region fills it in, or refuses" {
	make_sysfs off 0
	echo 0 > "$(C targets/0/regions/nr_regions)"
	rm -rf "$(C targets/0/regions/0)"
	run damoctl monitor start
	assert_failure 1
	assert_output --partial "paddr with no region monitors nothing"
	[ "$(cat "$ROOT/sys/kernel/mm/damon/admin/kdamonds/0/state")" = off ]
	make_iomem
	run damoctl monitor start
	assert_success
	assert_output --partial "region 0x100000000 0x180000000 (4193787K)"
	[ "$(cat "$(C targets/0/regions/2/start)")" = 4294967296 ]
	[ "$(cat "$ROOT/sys/kernel/mm/damon/admin/kdamonds/0/state")" = on ]
}

@test "apply of 'target paddr' takes the range, or names the line" {
	make_sysfs off 0
	printf 'target paddr\nmonitor on\n' > "$BATS_TEST_TMPDIR/p.conf"
	run damoctl apply "$BATS_TEST_TMPDIR/p.conf"
	assert_failure 2
	assert_output --partial "p.conf:1: target: paddr with no region monitors nothing"
	make_iomem
	run damoctl apply "$BATS_TEST_TMPDIR/p.conf"
	assert_success
	assert_output --partial "region 0x100000000 0x180000000"
	[ "$(cat "$(C targets/0/regions/2/end)")" = 6442450944 ]
}

@test "--root \"\" is a usage error, not the live system" {
	run "$DAMOCTL" --root "" scheme list
	assert_failure 2
	assert_output "damoctl: --root: an empty DIR (an unset variable?); give / for the live system"
	run "$DAMOCTL" --root= scheme list
	assert_failure 2
}

@test "a relative --root is made absolute (dry-run scripts work from anywhere)" {
	make_dbgfs
	cd "$BATS_TEST_TMPDIR"
	run "$DAMOCTL" --root root --dry-run scheme add stat
	assert_success
	assert_output --partial "> $ROOT/sys/kernel/debug/damon/schemes"
}

@test "-f DIR is an error, not an empty batch" {
	make_dbgfs
	run damoctl -f "$BATS_TEST_TMPDIR"
	assert_failure 1
	assert_output --partial "Is a directory"
}

@test "a NUL byte in a batch line is refused, the command not run" {
	make_dbgfs
	printf 'scheme add stat\0 sz 4K max\n' > "$BATS_TEST_TMPDIR/nul"
	run damoctl -f "$BATS_TEST_TMPDIR/nul"
	assert_failure 2
	assert_output --partial "nul:1: a NUL byte in the line"
	[ ! -s "$ROOT/sys/kernel/debug/damon/schemes" ]
}

@test "attrs set of a huge sample names no internal placeholder" {
	make_dbgfs
	run damoctl attrs set sample 18446744073709551615
	assert_failure 2
	refute_output --partial 9223372036854775807
	assert_output --partial "aggr 100ms"
}

@test "--kdamond 1 where only kdamond 0 exists: reads fail, no made-up defaults" {
	make_sysfs off 1
	for cmd in "scheme list" "attrs show" "target show" "stats show"; do
		run damoctl --kdamond 1 $cmd
		assert_failure 1
		assert_output --partial "kdamond 1 does not exist"
	done
}

@test "apply of the same file twice writes nothing the second time (no commit)" {
	command -v strace >/dev/null || skip "strace is missing"
	make_sysfs on 1
	mkdir -p "$ROOT/proc"
	cat > "$BATS_TEST_TMPDIR/s.conf" <<-'EOF2'
	attrs sample 5ms aggr 100ms update 1s regions 10 1000
	target paddr region 4G 8G
	scheme pageout sz 2M max access 0 0 age 5m max
	scheme stat
	monitor on
	EOF2
	# LeakSanitizer (make check-sanitize) does not work under ptrace
	ASAN_OPTIONS=detect_leaks=0 strace --seccomp-bpf -f -qq -e trace=write -s 32 -o "$BATS_TEST_TMPDIR/st1" \
		"$DAMOCTL" --root "$ROOT" apply "$BATS_TEST_TMPDIR/s.conf"
	[ "$(grep -c '"commit\\n"' "$BATS_TEST_TMPDIR/st1")" -ge 1 ]
	touch "$BATS_TEST_TMPDIR/mark"
	sleep 1.1
	ASAN_OPTIONS=detect_leaks=0 strace --seccomp-bpf -f -qq -e trace=write -s 32 -o "$BATS_TEST_TMPDIR/st2" \
		"$DAMOCTL" --root "$ROOT" apply "$BATS_TEST_TMPDIR/s.conf"
	run grep -c '"commit\\n"' "$BATS_TEST_TMPDIR/st2"
	assert_output 0
	# the state file takes update_schemes_stats for the reads; nothing else is written
	run find "$ROOT/sys" -type f -newer "$BATS_TEST_TMPDIR/mark" ! -name state
	assert_output ""
}

teardown() {
	[ -z "${NC_TMP:-}" ] || rm -rf "$NC_TMP"
}

@test "target set with init_regions read-only changes nothing and says so" {
	# a root that user nobody can reach (bats' own directory is 0700)
	NC_TMP=$(mktemp -d "${TMPDIR:-/tmp}/damos-nc.XXXXXX")
	chmod 755 "$NC_TMP"
	ROOT=$NC_TMP/root
	mkdir -p "$ROOT"
	make_dbgfs
	echo 42 > "$ROOT/sys/kernel/debug/damon/target_ids"
	chmod 444 "$ROOT/sys/kernel/debug/damon/init_regions"
	if [ "$(id -u)" = 0 ]; then
		chown -R nobody "$ROOT"
		chmod 444 "$ROOT/sys/kernel/debug/damon/init_regions"
		nd=$(nobody_damoctl) || fail "cannot copy $DAMOCTL for user nobody"
		run setpriv --reuid=nobody --regid=nogroup --clear-groups \
			"$nd" --root "$ROOT" target set vaddr pid 7 region 4K 8K
		rm -rf "$(dirname "$nd")"
	else
		run damoctl target set vaddr pid 7 region 4K 8K
	fi
	assert_failure 1
	assert_output --partial "cannot write $ROOT/sys/kernel/debug/damon/init_regions: Permission denied (DAMON's files need root); nothing was changed"
	[ "$(cat "$ROOT/sys/kernel/debug/damon/target_ids")" = 42 ]
}

@test "a kernel without DAMON is named as such" {
	mkdir -p "$ROOT/sys/kernel/debug" "$ROOT/sys/kernel/mm"
	run damoctl scheme list
	assert_failure 1
	assert_output --partial "this kernel has no DAMON (CONFIG_DAMON_SYSFS and CONFIG_DAMON_DBGFS are not set?)"
}

@test "lru-sort status says when the module failed to start, and when the watermarks keep it idle" {
	load lru_sort
	make_lru_sort
	echo Y > "$(LRU)/enabled"
	run damoctl lru-sort status
	assert_line --index 1 --partial "enabled, but no kdamond runs: the module failed to start"
	run damoctl --json lru-sort status
	assert_output --partial '"state":"failed"'
	echo 4321 > "$(LRU)/kdamond_pid"
	mkdir -p "$ROOT/proc"
	printf 'MemTotal:       2000000 kB\nMemFree:        1000000 kB\n' > "$ROOT/proc/meminfo"
	run damoctl lru-sort status
	assert_line --index 1 "  idle: free memory is 50.0%, above the high watermark 20.0%: the schemes wait until it is between 5.0% and 15.0%"
	printf 'MemTotal:       2000000 kB\nMemFree:        200000 kB\n' > "$ROOT/proc/meminfo"
	run damoctl --json lru-sort status
	assert_output --partial '"state":"running"'
}

@test "--context on a sysfs-only tree, and --context ../..: say what is wrong" {
	make_sysfs off 0
	run damoctl --context foo scheme list
	assert_failure 1
	assert_output --partial "dbgfs context 'foo' needs the dbgfs interface, and there is none: $ROOT/sys/kernel/debug/damon does not exist"
	run damoctl --context ../.. scheme list
	assert_failure 2
	assert_output --partial "a context is a name (of mk_contexts), not a path"
}

@test "damo's spellings: --interface debugfs, lru_sort, version" {
	make_dbgfs
	run damoctl --interface debugfs scheme list
	assert_success
	load lru_sort
	make_lru_sort
	run damoctl lru_sort status
	assert_success
	assert_line --index 0 "damon_lru_sort: off"
	run damoctl version
	assert_success
	assert_output --regexp '^damoctl [0-9.]+ \(libdamos [0-9.]+\)$'
}

@test "--version extra is a usage error; damoctl with commands on stdin hints at -f -; a batch line with damoctl" {
	run "$DAMOCTL" --version extra
	assert_failure 2
	assert_output --partial "--version: nothing goes after it, got 'extra'"
	run bash -c "echo 'scheme list' | '$DAMOCTL' --root '$ROOT'"
	assert_failure 2
	assert_output --partial "to run the commands of standard input: damoctl -f -"
	make_dbgfs
	run bash -c "echo 'damoctl scheme list' | '$DAMOCTL' --root '$ROOT' -f -"
	assert_failure 2
	assert_output --partial "what follows \"damoctl\": leave it out (scheme list)"
}

@test "scheme add --help says lru_prio/lru_deprio start from the module's defaults with keywords too" {
	run "$DAMOCTL" scheme add --help
	assert_output --partial "start from damon_lru_sort's defaults, the keywords given change them"
	refute_output --partial "alone"
}

@test "damoctl(8) EXAMPLES do not call access 0 5 'not accessed'" {
	run grep -n "not accessed for 1 to 2 seconds" "$BATS_TEST_DIRNAME/../../man/damoctl.8"
	assert_failure
}

@test "--json prints exactly one document a command, also on success; strings are UTF-8" {
	make_dbgfs
	make_iomem
	for cmd in "scheme add stat" "scheme list" "scheme rm 0" "scheme clear" "attrs set sample 10ms" \
		   "target set paddr" "target show" "monitor start" "monitor status" "monitor stop" \
		   "stats show" "scheme rm 5" "scheme add frob"; do
		run damoctl --json $cmd
		[ "${#lines[@]}" = 1 ] || fail "$cmd: ${#lines[@]} lines: $output"
		printf '%s\n' "$output" | python3 -c 'import json,sys; json.loads(sys.stdin.read())' ||
			fail "$cmd: not JSON: $output"
	done
	run damoctl --json scheme clear
	assert_output '{"ok":true}'
	run damoctl --json target set paddr
	assert_output --partial '{"ok":true,"notes":["paddr: no region given'
	run damoctl --json --dry-run scheme add stat
	assert_output --regexp '^\{"dry_run":"'
	run damoctl --json apply "$(printf 'bad\377name')"
	# json-c writes U+FFFD as the character, not as \ufffd: both are JSON
	printf '%s\n' "$output" | python3 -c 'import json,sys; d = json.loads(sys.stdin.buffer.read().decode("utf-8")); assert "bad\ufffdname" in d["error"], d'
}

@test "completion after --root=DIR and --interface=, no second --watch, nothing after -f -" {
	run "$DAMOCTL" --complete -- --root=/x scheme ""
	assert_line add
	run "$DAMOCTL" --complete -- --interface=d
	assert_output "--interface=dbgfs"
	run "$DAMOCTL" --complete -- monitor status --watch 1 ""
	refute_line -- --watch
	assert_line -- --count
	run "$DAMOCTL" --complete -- monitor status --watch ""
	assert_output ""
	run "$DAMOCTL" --complete -- -f - ""
	assert_output ""
}

@test "access beyond the samples of an aggregation interval is refused; a quota resets every 1s by default" {
	make_dbgfs
	run damoctl scheme add pageout access 50 max
	assert_failure 2
	assert_output --partial "access: 50 is more than the 20 samples of an aggregation interval (aggr 100ms / sample 5ms): at most 20, N%, or max"
	run damoctl scheme add pageout access 20 max
	assert_success
	run damoctl scheme add pageout quota size 100M
	assert_success
	run damoctl scheme list
	assert_line --index 1 --partial "quota time 0 size 100M reset 1s"
	run damoctl scheme encode pageout quota size 100M reset 0
	assert_output --partial " 2 0 104857600 0 "
}

@test "scheme encode lru_prio warns on a dbgfs without actions 6 and 7" {
	make_dbgfs
	echo 5 > "$ROOT/sys/kernel/debug/damon/.max_action"
	run damoctl --interface dbgfs scheme encode lru_prio
	assert_success
	assert_line --index 0 --partial "warning: this kernel's dbgfs does not accept lru_prio"
	assert_line --index 1 --partial " 6 "
	echo 7 > "$ROOT/sys/kernel/debug/damon/.max_action"
	run damoctl --interface dbgfs scheme encode lru_prio
	refute_output --partial warning
}

@test "scheme list with no scheme says so on a terminal, prints nothing to a pipe" {
	make_dbgfs
	run damoctl scheme list
	assert_output ""
	command -v script >/dev/null || skip "script(1) is missing"
	run script -qec "'$DAMOCTL' --root '$ROOT' scheme list" /dev/null
	assert_output --partial "no schemes (damoctl scheme add ACTION ... adds one)"
}

@test "sizes KiB and KB, times in days, as damo users type them" {
	run "$DAMOCTL" scheme encode stat sz 4KiB 1MB age 1d max
	assert_success
	assert_output "4096 1048576 0 4294967295 864000 4294967295 5 0 0 0 0 0 0 0 0 0 0 0"
}

@test "access 101% says it is above 100% before any word on the granularity" {
	make_dbgfs
	run damoctl scheme add stat access 101% max
	assert_failure 2
	assert_output "damoctl: scheme add: min access: '101%' is above 100%"
	run damoctl scheme add stat access 0 100.5%
	assert_failure 2
	assert_output "damoctl: scheme add: max access: '100.5%' is above 100%"
	# a rate within 100% that is no whole number of samples: the granularity
	run damoctl scheme add stat access 99.5% max
	assert_failure 2
	assert_output --partial "is not a whole number of samples"
}

@test "stats show with no scheme says so on a terminal; a pipe gets the header alone" {
	make_dbgfs
	run damoctl stats show
	assert_success
	assert_output "#   action          nr_tried       sz_tried   nr_applied     sz_applied qt_exceeds"
	command -v script >/dev/null || skip "script(1) is missing"
	run script -qec "'$DAMOCTL' --root '$ROOT' stats show" /dev/null
	assert_output --partial "no schemes (damoctl scheme add ACTION ... adds one)"
	damoctl scheme add stat
	run script -qec "'$DAMOCTL' --root '$ROOT' stats show" /dev/null
	refute_output --partial "no schemes"
	assert_output --partial "0   stat"
}

@test "target set vaddr then scheme add lru_prio is refused as apply refuses it (both orders, both interfaces)" {
	local tree msg="lru_prio does nothing on vaddr targets (Linux 6.1 applies willneed, cold, pageout, hugepage, nohugepage and stat there)"
	for tree in dbgfs sysfs; do
		rm -rf "$ROOT" && mkdir -p "$ROOT"
		if [ "$tree" = dbgfs ]; then make_dbgfs; else make_sysfs_empty; fi
		damoctl target set vaddr pid 1
		local before
		before=$(tree_sum)
		run damoctl scheme add lru_prio
		assert_failure 2
		assert_output "damoctl: scheme add: $msg"
		[ "$(tree_sum)" = "$before" ]
		printf '%s\n' "target vaddr pid 1" "scheme lru_prio" > "$BATS_TEST_TMPDIR/v.conf"
		run damoctl apply "$BATS_TEST_TMPDIR/v.conf"
		assert_failure 2
		assert_output --partial "v.conf:2: scheme: $msg"
		# the other order: the scheme first, then the target
		damoctl target clear
		damoctl scheme add lru_prio
		run damoctl target set vaddr pid 1
		assert_failure 2
		assert_output --partial "lru_prio does nothing on vaddr targets"
	done
}
