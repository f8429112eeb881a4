#!/usr/bin/env bats
# Bad input through dbgfs, sysfs and damoctl: rejected with the errno the
# kernel documents (EINVAL, for dbgfs schemes whatever is wrong), the state
# before it kept, the kernel log clean (teardown).

load helpers/common

setup() {
	damon_off
	log_mark
}

teardown() {
	damon_off
	assert_kernel_log_clean
}

# write_fails FILE CONTENT [STRERROR]: one write of CONTENT into FILE must
# fail with that error (default EINVAL's "Invalid argument").
write_fails() {
	run write_once "$1" "$2"
	assert_failure
	assert_output --partial "${3:-Invalid argument}"
}

# A dbgfs scheme state to be kept across rejected writes.
dbgfs_keep() {
	write_once "$DBGFS/schemes" "$LRU_PRIO_LINE
$LRU_DEPRIO_LINE"
	KEPT=$(cat "$DBGFS/schemes")
}
assert_dbgfs_kept() { assert_equal "$(cat "$DBGFS/schemes")" "$KEPT"; }

@test "dbgfs schemes: garbage is rejected, the schemes kept" {
	need dbgfs_series
	dbgfs_keep
	write_fails "$DBGFS/schemes" $'garbage\n'
	assert_dbgfs_kept
}

@test "dbgfs schemes: junk after valid lines is rejected, the schemes kept" {
	need dbgfs_series
	dbgfs_keep
	write_fails "$DBGFS/schemes" "$LRU_PRIO_LINE"$'\njunk\n'
	assert_dbgfs_kept
	write_fails "$DBGFS/schemes" "$LRU_PRIO_LINE junk"$'\n'
	assert_dbgfs_kept
}

@test "dbgfs schemes: a line of 17 numbers is rejected" {
	need dbgfs_series
	dbgfs_keep
	write_fails "$DBGFS/schemes" "$(first_fields 17 <<<"$LRU_PRIO_LINE")"$'\n'
	assert_dbgfs_kept
}

@test "dbgfs schemes: action 8 is rejected" {
	need dbgfs_series
	dbgfs_keep
	write_fails "$DBGFS/schemes" "4096 $ULONG_MAX 0 $U32_MAX 0 $U32_MAX 8 10 0 1000 0 0 100 0 0 0 0 0"$'\n'
	assert_dbgfs_kept
}

@test "dbgfs schemes: numbers too large for their field are rejected (EINVAL), not truncated" {
	need dbgfs_series
	dbgfs_keep
	# min_nr_accesses, a lower bound: its meaning would be a guess
	write_fails "$DBGFS/schemes" "4096 $ULONG_MAX 4294967296 $U32_MAX 0 $U32_MAX 6 10 0 1000 0 0 100 0 0 0 0 0"$'\n'
	assert_dbgfs_kept
	# min_sz, above 64 bits
	write_fails "$DBGFS/schemes" "18446744073709551616 $ULONG_MAX 0 $U32_MAX 0 $U32_MAX 6 10 0 1000 0 0 100 0 0 0 0 0"$'\n'
	assert_dbgfs_kept
	# a quota
	write_fails "$DBGFS/schemes" "4096 $ULONG_MAX 0 $U32_MAX 0 $U32_MAX 6 18446744073709551616 0 1000 0 0 100 0 0 0 0 0"$'\n'
	assert_dbgfs_kept
}

@test "dbgfs schemes: an upper bound above its field's range means no bound (damo 1.x)" {
	need dbgfs_series
	write_once "$DBGFS/schemes" "4096 18446744073709551616 0 4294967296 0 184467440737095 6 10 0 1000 0 0 100 0 0 0 0 0"$'\n'
	assert_equal "$(first_fields 18 < "$DBGFS/schemes")" \
		"4096 $ULONG_MAX 0 $U32_MAX 0 $U32_MAX 6 10 0 1000 0 0 100 0 0 0 0 0"
}

@test "dbgfs schemes: a negative number is rejected" {
	need dbgfs_series
	dbgfs_keep
	write_fails "$DBGFS/schemes" "4096 $ULONG_MAX -1 $U32_MAX 0 $U32_MAX 6 10 0 1000 0 0 100 0 0 0 0 0"$'\n'
	assert_dbgfs_kept
}

@test "dbgfs schemes: min > max and unordered watermarks are rejected" {
	need dbgfs_series
	dbgfs_keep
	write_fails "$DBGFS/schemes" "4096 $ULONG_MAX 10 5 0 $U32_MAX 6 10 0 1000 0 0 100 0 0 0 0 0"$'\n'
	assert_dbgfs_kept
	write_fails "$DBGFS/schemes" "4096 $ULONG_MAX 0 $U32_MAX 0 $U32_MAX 6 10 0 1000 0 0 100 1 5000000 100 200 50"$'\n'
	assert_dbgfs_kept
}

@test "dbgfs schemes: more schemes than the limit (257) are rejected (EINVAL), not cut" {
	need dbgfs_series
	dbgfs_keep
	local many
	many=$(for _ in $(seq 257); do echo "$LRU_PRIO_LINE"; done)
	write_fails "$DBGFS/schemes" "$many"$'\n'
	assert_dbgfs_kept
	# the limit itself is fine
	many=$(for _ in $(seq 256); do echo "$LRU_PRIO_LINE"; done)
	write_once "$DBGFS/schemes" "$many"$'\n'
	# (through cat: dbgfs formats all schemes into a buffer of the read's size
	# and fails ENOMEM when they do not fit; wc reads 16 KiB, cat 128 KiB)
	assert_equal "$(cat "$DBGFS/schemes" | wc -l)" 256
}

@test "dbgfs attrs: malformed or invalid attributes are rejected, the old ones kept" {
	need dbgfs
	echo "5000 100000 1000000 10 1000" > "$DBGFS/attrs"
	write_fails "$DBGFS/attrs" $'5000 100000\n'
	write_fails "$DBGFS/attrs" $'five thousand\n'
	write_fails "$DBGFS/attrs" $'5000 100000 1000000 1 1000\n'	# min_nr_regions < 3
	write_fails "$DBGFS/attrs" $'5000 100000 1000000 100 10\n'	# min > max
	assert_equal "$(cat "$DBGFS/attrs")" "5000 100000 1000000 10 1000"
}

@test "dbgfs monitor_on: anything but on/off is rejected; on with no target too" {
	need dbgfs
	write_fails "$DBGFS_ON" $'maybe\n'
	write_fails "$DBGFS_ON" $'on\n'		# no target set
	assert_equal "$(cat "$DBGFS_ON")" off
	no_kdamond
}

@test "dbgfs init_regions: overlapping regions are rejected" {
	need dbgfs
	echo paddr > "$DBGFS/target_ids"
	echo "0 4096 8192" > "$DBGFS/init_regions"
	write_fails "$DBGFS/init_regions" $'0 4096 16384\n0 8192 32768\n'
	write_fails "$DBGFS/init_regions" $'0 8192 4096\n'	# start >= end
}

@test "sysfs: an unknown action, metric, operations or state command is rejected, old value kept" {
	need sysfs
	sysfs_paddr_setup
	echo 1 > "$SYSFS_C/schemes/nr_schemes"
	local s=$SYSFS_C/schemes/0
	echo lru_prio > "$s/action"
	write_fails "$s/action" $'bogus\n'
	assert_equal "$(cat "$s/action")" lru_prio
	echo free_mem_rate > "$s/watermarks/metric"
	write_fails "$s/watermarks/metric" $'bogus\n'
	assert_equal "$(cat "$s/watermarks/metric")" free_mem_rate
	write_fails "$SYSFS_C/operations" $'bogus\n'
	assert_equal "$(cat "$SYSFS_C/operations")" paddr
	write_fails "$SYSFS_K/state" $'maybe\n'
	assert_equal "$(cat "$SYSFS_K/state")" off
}

@test "sysfs: non-numbers in number files are rejected, old value kept" {
	runs_on_debian_612 sysfs
	need sysfs
	sysfs_paddr_setup
	echo 1 > "$SYSFS_C/schemes/nr_schemes"
	local s=$SYSFS_C/schemes/0
	echo 10 > "$s/access_pattern/nr_accesses/min"
	write_fails "$s/access_pattern/nr_accesses/min" $'ten\n'
	assert_equal "$(cat "$s/access_pattern/nr_accesses/min")" 10
	write_fails "$SYSFS_C/schemes/nr_schemes" $'abc\n'
	assert_equal "$(cat "$SYSFS_C/schemes/nr_schemes")" 1
	write_fails "$SYSFS/kdamonds/nr_kdamonds" $'-1\n'
	assert_equal "$(cat "$SYSFS/kdamonds/nr_kdamonds")" 1
}

@test "damoctl dbgfs: an invalid value is a usage error (2) that names itself, nothing changed" {
	need dbgfs
	echo "5000 100000 1000000 10 1000" > "$DBGFS/attrs"
	dbgfs_keep
	run "$DAMOCTL" --interface dbgfs scheme add lru_prio age 10s 5s
	assert_failure 2
	assert_output --partial age
	assert_dbgfs_kept
	run "$DAMOCTL" --interface dbgfs scheme add lru_prio access 5x max
	assert_failure 2
	assert_output --partial 5x
	assert_dbgfs_kept
	run "$DAMOCTL" --interface dbgfs scheme add no_such_action
	assert_failure 2
	assert_dbgfs_kept
}

@test "damoctl sysfs: an invalid value is a usage error (2) that names itself, nothing changed" {
	runs_on_debian_612 sysfs
	need sysfs
	sysfs_paddr_setup
	"$DAMOCTL" --interface sysfs scheme add lru_prio
	local before
	before=$(sysfs_scheme_line 0)
	run "$DAMOCTL" --interface sysfs scheme add lru_deprio age 10s 5s
	assert_failure 2
	assert_output --partial age
	assert_equal "$(cat "$SYSFS_C/schemes/nr_schemes")" 1
	assert_equal "$(sysfs_scheme_line 0)" "$before"
}
