#!/usr/bin/env bats
# What damo 1.x (v1.6.0, the last release that drove DAMON's debugfs with
# actions 6 and 7) writes to the dbgfs files, byte for byte, and the kernel
# documentation's example lines: each accepted with its intended meaning.
# The damo lines are test data derived from damo's source
# (helpers/damo-1.6.0-dbgfs.txt); damo itself is not needed.
#
# The kernel's layout is discovered, not assumed: the monitor_on file may be
# monitor_on_DEPRECATED (6.12), and a kernel without DAMON's debugfs
# interface has nothing to test here.

load helpers/common

DAMO_LINES=$BATS_TEST_DIRNAME/helpers/damo-1.6.0-dbgfs.txt

setup() {
	need dbgfs_series
	damon_off
	log_mark
}

teardown() {
	[ -d "$DBGFS" ] || return 0
	damon_off
	assert_kernel_log_clean
}

# put FILE CONTENT: CONTENT in one write(2), without a newline, as damo's
# Python file write does (write_once: dd, one read and one write).
put() { write_once "$1" "$2"; }

# The W and R lines of the data file, in order.
damo_written() { sed -n 's/^W //p' "$DAMO_LINES"; }
damo_read() { sed -n 's/^R //p' "$DAMO_LINES"; }

@test "damo 1.x: the test data has a line for every action 0..7 and both min/max spellings" {
	local a
	[ "$(damo_written | wc -l)" -ge 12 ]
	[ "$(damo_written | wc -l)" -eq "$(damo_read | wc -l)" ]
	for a in 0 1 2 3 4 5 6 7; do
		damo_written | awk -F'\t' -v a="$a" '$7 == a { f = 1 } END { exit !f }' ||
			fail "no damo line with action $a"
	done
	grep -q '^S .* min min min ' "$DAMO_LINES"
	grep -q '^S .* max max max ' "$DAMO_LINES"
}

@test "damo 1.x: each scheme line damo v1.6.0 writes is accepted and reads back with its meaning" {
	local w r n=0
	while IFS= read -r w && IFS= read -r r <&4; do
		n=$((n + 1))
		run put "$DBGFS/schemes" "$w"
		assert_success
		assert_equal "$(cat "$DBGFS/schemes" | first_fields 18)" "$r"
		assert_equal "$(wc -l < "$DBGFS/schemes")" 1
	done < <(damo_written) 4< <(damo_read)
	[ "$n" -ge 12 ]
}

@test "damo 1.x: all of its lines in one write, joined as damo joins them (no final newline)" {
	put "$DBGFS/schemes" "$(damo_written)"
	assert_equal "$(cat "$DBGFS/schemes" | first_fields 18)" "$(damo_read)"
}

@test "damo 1.x: the same lines written by bash, one line per write(2), also all set" {
	local -a lines
	mapfile -t lines < <(damo_written)
	printf '%s\n' "${lines[@]}" > "$DBGFS/schemes"
	assert_equal "$(cat "$DBGFS/schemes" | first_fields 18)" "$(damo_read)"
}

@test "damo 1.x: its feature probes see a kernel with every schemes feature" {
	# target_ids: paddr reads back as 42
	put "$DBGFS/target_ids" $'paddr\n'
	assert_equal "$(cat "$DBGFS/target_ids")" 42
	# init_regions 'version 1' probe: '42 100 200' must not read back as
	# is (6.1 takes a target index, and there is no target 42)
	write_once "$DBGFS/init_regions" '42 100 200' || true
	[ "$(cat "$DBGFS/init_regions")" != '42 100 200' ]
	# schemes: 9, 12 and 17 ones are not schemes of this kernel ...
	local n ones
	for n in 9 12 17; do
		ones=$(printf '1 %.0s' $(seq "$n")); ones=${ones% }
		write_once "$DBGFS/schemes" "$ones" || true
		[ "$(cat "$DBGFS/schemes")" != "$ones 0 0" ]
	done
	# ... 18 ones read back with five statistics: schemes_stat_succ
	ones=$(printf '1 %.0s' $(seq 18)); ones=${ones% }
	put "$DBGFS/schemes" "$ones"
	assert_equal "$(cat "$DBGFS/schemes")" "$ones 0 0 0 0 0"
}

@test "damo 1.x: a probe writes back what it read (23 numbers a line): the schemes stay" {
	put "$DBGFS/schemes" "$(damo_written)"
	local before
	before=$(cat "$DBGFS/schemes")
	[ "$(wc -l <<<"$before")" -ge 12 ]
	# damo's test_debugfs_file(): save, write a test value, restore
	put "$DBGFS/schemes" "$(printf '1 %.0s' $(seq 18))"
	put "$DBGFS/schemes" "$before"
	assert_equal "$(cat "$DBGFS/schemes")" "$before"
}

@test "damo 1.x: attrs, target_ids and init_regions as damo writes them" {
	local range start end
	range=$(paddr_range)
	start=${range% *} end=${range#* }
	# attrs: five numbers and a trailing space, no newline
	put "$DBGFS/attrs" '5000 100000 1000000 10 1000 '
	assert_equal "$(cat "$DBGFS/attrs")" '5000 100000 1000000 10 1000'
	put "$DBGFS/target_ids" $'paddr\n'
	# init_regions: target index 0, the regions on one line, no newline
	put "$DBGFS/init_regions" "0 $start $((start + 4096)) 0 $((start + 4096)) $end"
	assert_equal "$(cat "$DBGFS/init_regions")" "0 $start $((start + 4096))
0 $((start + 4096)) $end"
	# a process target: '%d' % pid, no newline
	put "$DBGFS/target_ids" "$$"
	assert_equal "$(cat "$DBGFS/target_ids")" "$$"
	put "$DBGFS/init_regions" "0 4096 8192"
	assert_equal "$(cat "$DBGFS/init_regions")" "0 4096 8192"
}

@test "kernel docs 6.1: the schemes example, written with echo" {
	local scheme="4096 8192  0 5    10 20    2"
	scheme+=" 10 $((1024*1024*1024)) 1000"
	scheme+=" 0 0 100"
	scheme+=" 1 5000000 600 500 300"
	echo "$scheme" > "$DBGFS/schemes"
	assert_equal "$(cat "$DBGFS/schemes")" \
		"4096 8192 0 5 10 20 2 10 1073741824 1000 0 0 100 1 5000000 600 500 300 0 0 0 0 0"
}

@test "kernel docs 5.15-6.1: attrs, target_ids and the four-line init_regions echo under bash" {
	echo 5000 100000 1000000 10 1000 > "$DBGFS/attrs"
	assert_equal "$(cat "$DBGFS/attrs")" "5000 100000 1000000 10 1000"
	# "echo 42 4242 > target_ids", with two pids that exist here
	local p1=$$ p2=$PPID
	echo "$p1 $p2" > "$DBGFS/target_ids"
	assert_equal "$(cat "$DBGFS/target_ids")" "$p1 $p2"
	# bash writes each of the four lines with its own write(2)
	echo "0   1       100
        0   100     200
        1   20      40
        1   50      100" > "$DBGFS/init_regions"
	assert_equal "$(cat "$DBGFS/init_regions")" "0 1 100
0 100 200
1 20 40
1 50 100"
	echo paddr > "$DBGFS/target_ids"
	assert_equal "$(cat "$DBGFS/target_ids")" 42
}
