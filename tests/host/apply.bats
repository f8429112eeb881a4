#!/usr/bin/env bats
# damoctl apply [check] FILE: damoctl.conf(5) made the live setup in one
# step, or refused whole with every bad line named and nothing changed.

load helper
load lru_sort

setup() {
	ROOT="$BATS_TEST_TMPDIR/root"
	mkdir -p "$ROOT"
	make_lru_sort
	cd "$BATS_TEST_TMPDIR"
}

DBG() { echo "$ROOT/sys/kernel/debug/damon/$1"; }

LRU_PRIO="4096 18446744073709551615 10 4294967295 0 4294967295 6 5 0 1000 0 1 0 0 0 0 0 0"

good_conf() {
	cat > damoctl.conf <<-'EOF'
	# sort the LRU lists of the 4G..8G range with DAMOS schemes
	attrs sample 5ms aggr 100ms update 1s regions 10 1000
	target paddr region 4G 8G
	scheme lru_prio
	scheme lru_deprio age 60s max   # cold after a minute
	scheme pageout sz 2M max access 0 0 age 5m max \
	    quota time 10ms size 1G reset 1s
	monitor on
	lru-sort off
	EOF
}

@test "a whole setup on dbgfs: attrs, target, schemes (replaced), monitor on" {
	make_dbgfs
	echo "0 0 0 0 0 0 5 0 0 0 0 0 0 0 0 0 0 0" > "$(DBG schemes)"
	good_conf
	run damoctl apply damoctl.conf
	assert_success
	assert_output ""
	run cat "$(DBG attrs)"
	assert_output "5000 100000 1000000 10 1000"
	run cat "$(DBG target_ids)"
	assert_output paddr
	run cat "$(DBG init_regions)"
	assert_output "0 4294967296 8589934592"
	run cat "$(DBG schemes)"
	assert_output "$LRU_PRIO
4096 18446744073709551615 0 0 600 4294967295 7 5 0 1000 0 0 1 0 0 0 0 0
2097152 18446744073709551615 0 0 3000 4294967295 2 10 1073741824 1000 0 0 0 0 0 0 0 0"
	run cat "$(DBG monitor_on)"
	assert_output on
}

@test "the same file on sysfs, from no kdamond at all" {
	make_sysfs_empty
	good_conf
	run damoctl apply damoctl.conf
	assert_success
	local c="$ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0"
	run cat "$c/schemes/nr_schemes" "$c/schemes/0/action" "$c/schemes/1/access_pattern/age/min" \
		"$c/operations" "$c/targets/0/regions/0/start" \
		"$c/monitoring_attrs/intervals/update_us" \
		"$ROOT/sys/kernel/mm/damon/admin/kdamonds/0/state"
	assert_output "3
lru_prio
600
paddr
4294967296
1000000
on"
}

@test "a bad file: every bad line with its number, status 2, nothing changed" {
	make_dbgfs
	echo "$LRU_PRIO" > "$(DBG schemes)"
	cat > bad.conf <<-'EOF'
	interface dbgfs
	attrs sample 5ms aggr 1ms
	target vaddr pid 12 region 0x1000 0x2000
	scheme lru_prio
	scheme pageout age 10s 5s
	frob
	monitor maybe
	scheme stat
	lru-sort on wmarks 1s 10% 20% 5%
	scheme 'oops
	interface sysfs
	EOF
	local before
	before=$(tree_sum)
	run damoctl apply bad.conf
	assert_failure 2
	assert_output "damoctl: apply: bad.conf:2: attrs: aggr 1ms < sample 5ms
damoctl: apply: bad.conf:4: scheme: lru_prio does nothing on vaddr targets (Linux 6.1 applies willneed, cold, pageout, hugepage, nohugepage and stat there)
damoctl: apply: bad.conf:5: scheme: min age 10s > max age 5s
damoctl: apply: bad.conf:6: unknown directive 'frob' (expected interface attrs target scheme monitor lru-sort)
damoctl: apply: bad.conf:7: monitor: expected on or off
damoctl: apply: bad.conf:9: lru-sort: wmarks: high 10% >= mid 20% >= low 5% does not hold (with the module's other parameters)
damoctl: apply: bad.conf:10: unterminated quote
damoctl: apply: bad.conf:11: interface given twice (first on line 1)
damoctl: apply: bad.conf: 8 bad lines; nothing was changed"
	[ "$(tree_sum)" = "$before" ]
	run damoctl apply check bad.conf
	assert_failure 2
	[ "$(tree_sum)" = "$before" ]
}

@test "apply check: a good file passes and nothing is written" {
	make_dbgfs
	good_conf
	local before
	before=$(tree_sum)
	run damoctl apply check damoctl.conf
	assert_success
	assert_output ""
	[ "$(tree_sum)" = "$before" ]
}

@test "--dry-run: the writes in order, one script, none made" {
	make_dbgfs
	good_conf
	local before
	before=$(tree_sum)
	run damoctl --dry-run apply damoctl.conf
	assert_success
	assert_line --index 0 "#!/bin/sh"
	assert_line "# damoctl apply damoctl.conf (dbgfs)"
	assert_line "echo on > $ROOT/sys/kernel/debug/damon/monitor_on"
	[ "$(tree_sum)" = "$before" ]
}

@test "what the file does not name stays as it is" {
	make_dbgfs
	echo "$LRU_PRIO" > "$(DBG schemes)"
	echo "5000 200000 1000000 10 1000" > "$(DBG attrs)"
	echo "lru-sort hot 30%" > lru.conf
	run damoctl apply lru.conf
	assert_success
	[ "$(cat "$(LRU)/hot_thres_access_freq")" = 300 ]
	[ "$(cat "$(LRU)/enabled")" = N ]
	run cat "$(DBG schemes)" "$(DBG attrs)"
	assert_output "$LRU_PRIO
5000 200000 1000000 10 1000"
	# only a lru-sort line: no DAMON interface needed at all
	rm -rf "$ROOT/sys/kernel/debug"
	run damoctl apply lru.conf
	assert_success
}

@test "scheme none removes every scheme; it cannot go with schemes" {
	make_dbgfs
	echo "$LRU_PRIO" > "$(DBG schemes)"
	echo "scheme none" > none.conf
	run damoctl apply none.conf
	assert_success
	run cat "$(DBG schemes)"
	assert_output ""
	printf 'scheme stat\nscheme none\n' > both.conf
	run damoctl apply both.conf
	assert_failure 2
	assert_line "damoctl: apply: both.conf:2: scheme none: there are schemes (line 1)"
}

@test "schemes convert with the file's attrs, else with the kernel's" {
	make_dbgfs
	echo "5000 200000 1000000 10 1000" > "$(DBG attrs)"
	echo "scheme stat age 10s max" > s.conf
	run damoctl apply s.conf
	assert_success
	run cut -d' ' -f5 "$(DBG schemes)"
	assert_output 50
	printf 'attrs aggr 100ms\nscheme stat age 10s max\n' > s.conf
	run damoctl apply s.conf
	assert_success
	run cut -d' ' -f5 "$(DBG schemes)"
	assert_output 100
	# 10 s is no whole number of 300 ms intervals: the line is bad
	echo "5000 300000 1000000 10 1000" > "$(DBG attrs)"
	echo "scheme stat age 10s max" > s.conf
	run damoctl apply s.conf
	assert_failure 2
	assert_line --index 0 --partial "damoctl: apply: s.conf:1: scheme: "
}

@test "dbgfs while monitoring: stopped for the writes, started again" {
	make_dbgfs
	damoctl target set paddr region 4G 8G
	echo on > "$(DBG monitor_on)"
	echo "scheme lru_prio" > s.conf
	run damoctl apply s.conf
	assert_success
	run cat "$(DBG schemes)" "$(DBG monitor_on)"
	assert_output "$LRU_PRIO
on"
	printf 'scheme stat\nmonitor off\n' > off.conf
	run damoctl apply off.conf
	assert_success
	run cut -d' ' -f7 "$(DBG schemes)"
	assert_output 5
	run cat "$(DBG monitor_on)"
	assert_output off
}

@test "live checks: a target for monitor on, one DAMON user at a time, actions the ops apply" {
	make_dbgfs
	echo "monitor on" > m.conf
	run damoctl apply m.conf
	assert_failure 2
	assert_output "damoctl: apply: m.conf:1: monitor on: there is no target, here or in the kernel (add a target line)
damoctl: apply: m.conf: 1 bad line; nothing was changed"
	damoctl target set vaddr pid 1
	echo "scheme lru_deprio" > v.conf
	run damoctl apply v.conf
	assert_failure 2
	assert_line --index 0 --partial "v.conf:1: scheme: lru_deprio does nothing on vaddr targets"
	damoctl target set paddr region 4G 8G
	# the module runs: DAMON cannot start next to it
	lru_sort_on
	run damoctl apply m.conf
	assert_failure 2
	assert_line --index 0 "damoctl: apply: m.conf:1: monitor on: damon_lru_sort is on (add 'lru-sort off'): Linux 6.1 runs one DAMON user at a time"
	printf 'monitor on\nlru-sort off\n' > m2.conf
	run damoctl apply m2.conf
	assert_success
	[ "$(cat "$(LRU)/enabled")" = N ]
	[ "$(cat "$(DBG monitor_on)")" = on ]
	# DAMON runs: the module cannot start next to it
	echo "lru-sort on" > l.conf
	run damoctl apply l.conf
	assert_failure 2
	assert_line --index 0 --partial "l.conf:1: lru-sort on: DAMON monitoring is on and stays on (add 'monitor off')"
	printf 'monitor off\nlru-sort on hot 20%%\n' > l2.conf
	run damoctl apply l2.conf
	assert_success
	[ "$(cat "$(DBG monitor_on)")" = off ]
	[ "$(cat "$(LRU)/enabled")" = Y ]
	[ "$(cat "$(LRU)/hot_thres_access_freq")" = 200 ]
	printf 'monitor on\nlru-sort on\n' > both.conf
	run damoctl apply check both.conf
	assert_failure 2
	assert_line --index 0 "damoctl: apply: both.conf:2: lru-sort on and monitor on (line 1): Linux 6.1 runs one DAMON user at a time"
}

@test "lru-sort in the file: over the module's parameters, commit when it runs" {
	lru_sort_on
	echo "lru-sort quota time 20ms wmarks 2s 50% 40% 10%" > l.conf
	run damoctl apply l.conf
	assert_success
	[ "$(cat "$(LRU)/quota_ms") $(cat "$(LRU)/wmarks_high")" = "20 500" ]
	[ "$(cat "$(LRU)/commit_inputs")" = Y ]
	# valid alone, not with what the module holds (aggr 100ms)
	echo "lru-sort sample 200ms" > l.conf
	run damoctl apply l.conf
	assert_failure 2
	assert_line --index 0 --partial "l.conf:1: lru-sort: aggr 100ms < sample 200ms (with the module's other parameters)"
	rm -rf "$ROOT/sys/module"
	echo "lru-sort on" > l.conf
	run damoctl apply l.conf
	assert_failure 2
	assert_line --index 0 "damoctl: apply: l.conf:1: damon_lru_sort is not in this kernel: $ROOT/sys/module/damon_lru_sort/parameters does not exist"
}

@test "--dry-run from DAMON to the module and back: the stop made first counts" {
	make_sysfs on 1
	printf '%s\n' "monitor off" "lru-sort on" > to-lru.conf
	run damoctl --dry-run apply to-lru.conf
	assert_success
	assert_line "echo off > $ROOT/sys/kernel/mm/damon/admin/kdamonds/0/state"
	assert_line "echo Y > $(LRU)/enabled"
	echo off > "$ROOT/sys/kernel/mm/damon/admin/kdamonds/0/state"
	lru_sort_on
	printf '%s\n' "monitor on" "lru-sort off" > to-damon.conf
	run damoctl --dry-run apply to-damon.conf
	assert_success
	assert_line "echo N > $(LRU)/enabled"
	assert_line "echo on > $ROOT/sys/kernel/mm/damon/admin/kdamonds/0/state"
	# the dry run wrote its copy, not the module's file
	[ "$(cat "$(LRU)/enabled")" = Y ]
}

@test "what dbgfs cannot take is a bad line, found before the first write" {
	make_dbgfs
	echo 5 > "$(DBG .max_action)"	# a kernel without the damos series
	printf '%s\n' "attrs sample 10ms aggr 200ms" "target fvaddr region 4K 8K" \
		"scheme stat" > f.conf
	printf '%s\n' "attrs sample 10ms aggr 200ms" "target paddr region 4G 8G" \
		"scheme stat" "scheme lru_deprio" > l.conf
	local before
	before=$(tree_sum)
	# these used to write the attrs (and the target), then fail
	run damoctl apply f.conf
	assert_failure 2
	assert_output "damoctl: apply: f.conf:2: target: dbgfs has no fvaddr monitoring: use --interface sysfs
damoctl: apply: f.conf: 1 bad line; nothing was changed"
	[ "$(tree_sum)" = "$before" ]
	run damoctl apply l.conf
	assert_failure 2
	assert_output "damoctl: apply: l.conf:4: scheme: lru_deprio: this kernel's dbgfs does not accept lru_prio and lru_deprio (dbgfs actions 6 and 7 need the damos kernel series): use --interface sysfs
damoctl: apply: l.conf: 1 bad line; nothing was changed"
	[ "$(tree_sum)" = "$before" ]
	run damoctl apply check l.conf
	assert_failure 2
	[ "$(tree_sum)" = "$before" ]
	# the damos series: it goes through
	echo 7 > "$(DBG .max_action)"
	run damoctl apply l.conf
	assert_success
}

@test "what the kernel lacks is a bad line too, on sysfs: a 6.1 layout has no migrate_cold" {
	make_sysfs off 1
	printf '%s\n' "attrs sample 10ms aggr 200ms" "scheme migrate_cold nid 0" > m.conf
	local before
	before=$(tree_sum)
	# this used to write the attrs, then fail on the scheme
	run damoctl apply m.conf
	assert_failure 2
	assert_line --index 0 --partial "damoctl: apply: m.conf:2: scheme: migrate_cold needs the migrate_hot and migrate_cold actions"
	assert_line --index 1 "damoctl: apply: m.conf: 1 bad line; nothing was changed"
	[ "$(tree_sum)" = "$before" ]
}

@test "dbgfs that may not take lru actions: the schemes go first, a refusal changes nothing" {
	make_dbgfs
	damoctl target set paddr region 4G 8G
	echo on > "$(DBG monitor_on)"
	# a kernel the library cannot tell (the probe could not run) ...
	echo unknown > "$(DBG .max_action)"
	printf '%s\n' "attrs sample 10ms aggr 200ms" "target paddr region 4G 6G" \
		"scheme lru_prio" > l.conf
	local attrs regions
	attrs=$(cat "$(DBG attrs)")
	regions=$(cat "$(DBG init_regions)")
	# ... and that refuses the schemes write (EINVAL), made right after
	# monitoring stops: before the attrs and the targets
	run env DAMOS_FAULT=2:22 DAMOS_FAULT_LOG="$BATS_TEST_TMPDIR/w.log" \
		"$DAMOCTL_FAULT" --root "$ROOT" apply l.conf
	assert_failure 1
	assert_output --partial "monitoring, which the change had stopped, started again on them"
	assert_equal "$(sed -n 1p "$BATS_TEST_TMPDIR/w.log")" "1 $(DBG monitor_on)"
	assert_equal "$(sed -n 2p "$BATS_TEST_TMPDIR/w.log")" "2 $(DBG schemes)"
	assert_equal "$(cat "$(DBG attrs)")" "$attrs"
	assert_equal "$(cat "$(DBG init_regions)")" "$regions"
	assert_equal "$(cat "$(DBG monitor_on)")" on
	# a kernel that takes them: the same file goes through
	run damoctl apply l.conf
	assert_success
	assert_equal "$(cut -d' ' -f7 "$(DBG schemes)")" 6
	assert_equal "$(cat "$(DBG attrs)")" "10000 200000 60000000 10 1000"
	assert_equal "$(cat "$(DBG monitor_on)")" on
}

@test "the file's interface, unless --interface says otherwise" {
	make_dbgfs
	make_sysfs off 0
	printf 'interface dbgfs\nscheme stat\n' > i.conf
	run damoctl apply i.conf
	assert_success
	run cut -d' ' -f7 "$(DBG schemes)"
	assert_output 5
	[ "$(cat "$ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/schemes/nr_schemes")" = 0 ]
	run damoctl --interface sysfs apply i.conf
	assert_success
	[ "$(cat "$ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/schemes/nr_schemes")" = 1 ]
}

@test "file syntax: CRLF, quotes, continued lines, comments; - for stdin" {
	make_dbgfs
	printf 'attrs aggr "100ms" \\\r\n   sample 5ms # comment\r\nscheme stat\r\n' > crlf.conf
	run damoctl apply crlf.conf
	assert_success
	run cut -d' ' -f7 "$(DBG schemes)"
	assert_output 5
	run damoctl apply - <<<"scheme cold age 10s 5s"
	assert_failure 2
	assert_line --index 0 "damoctl: apply: <stdin>:1: scheme: min age 10s > max age 5s"
}

@test "applying the same file again changes nothing" {
	make_dbgfs
	good_conf
	damoctl apply damoctl.conf
	local once
	once=$(tree_sum)
	run damoctl apply damoctl.conf
	assert_success
	[ "$(tree_sum)" = "$once" ]
}

@test "usage and I/O errors; --json" {
	run damoctl apply
	assert_failure 2
	assert_output "damoctl: apply: expected [check] FILE"
	run damoctl apply a b
	assert_failure 2
	assert_output "damoctl: apply: 'b' after FILE a (expected [check] FILE)"
	run damoctl apply check a b
	assert_failure 2
	assert_output "damoctl: apply: 'b' after FILE a (expected [check] FILE)"
	run damoctl apply nope.conf
	assert_failure 1
	assert_output "damoctl: apply: nope.conf: No such file or directory"
	echo "frob" > f.conf
	run damoctl --json apply f.conf
	assert_failure 2
	# one document: the first error, and all of them
	assert_output '{"error":"apply: f.conf:1: unknown directive '"'frob'"' (expected interface attrs target scheme monitor lru-sort)","errors":["apply: f.conf:1: unknown directive '"'frob'"' (expected interface attrs target scheme monitor lru-sort)","apply: f.conf: 1 bad line; nothing was changed"]}'
}

# The tree "OBJECT set ARGS" makes, then the one "apply" of the line "DIRECTIVE
# ARGS" makes from the same start: they must be equal and differ from the
# start.  For bad ARGS both must refuse with the same message, writing nothing.
same_as_set() {	# OBJECT DIRECTIVE ARGS...
	local obj=$1 dir=$2 start set_out set_tree
	shift 2
	start=$(tree_sum)
	cp -a "$ROOT" "$BATS_TEST_TMPDIR/start"
	run damoctl "$obj" set "$@"
	local set_status=$status
	set_out=${output#"damoctl: $obj set: "}
	set_tree=$(tree_sum)
	rm -rf "$ROOT" && cp -a "$BATS_TEST_TMPDIR/start" "$ROOT"
	printf '%s' "$dir" > line.conf
	printf " '%s'" "$@" >> line.conf
	run damoctl apply line.conf
	if [ "$set_status" = 0 ]; then
		assert_success
		[ "$set_tree" != "$start" ] || fail "$obj set $* changed nothing"
	elif [ "$set_status" = 2 ]; then	# the grammar's error, on its line
		assert_failure 2
		assert_line --index 0 "damoctl: apply: line.conf:1: $dir: ${set_out#"$dir: "}"
		[ "$set_tree" = "$start" ] || fail "a failed $obj set $* wrote"
	else	# what the interface cannot do: apply finds it before writing
		assert_failure 2
		assert_line --index 0 "damoctl: apply: line.conf:1: $dir: $set_out"
	fi
	[ "$(tree_sum)" = "$set_tree" ] || fail "$dir $*: apply made another tree than $obj set"
	rm -rf "$ROOT" "$BATS_TEST_TMPDIR/start" && cp -a "$BATS_TEST_TMPDIR/fresh" "$ROOT"
}

@test "one grammar: target and attrs lines make the trees and errors of target set and attrs set" {
	local make args
	for make in make_dbgfs "make_sysfs off"; do
		rm -rf "$ROOT" "$BATS_TEST_TMPDIR/fresh" && mkdir -p "$ROOT" && $make
		# attrs set changes the live attributes, an attrs line the
		# kernel's defaults (damoctl.conf(5)): start from the defaults
		[ "$make" = make_dbgfs ] ||
			echo 60000000 > "$ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/monitoring_attrs/intervals/update_us"
		cp -a "$ROOT" "$BATS_TEST_TMPDIR/fresh"
		for args in "paddr region 1G 3G" "paddr" "fvaddr region 0x1000 0x2000" \
			    "vaddr pid 42 region 0x1000 0x2000 pid 43" \
			    "vaddr pid 42 region 0x2000 0x1000" "paddr region 0xzz 1G" \
			    "vaddr region 1 2" "paddr pid 1" "kaddr" "vaddr pid -1" "vaddr pid 7 pid 7"; do
			# shellcheck disable=SC2086
			same_as_set target target $args
		done
		for args in "sample 10ms aggr 200ms regions 20 2000" "update 2s" \
			    "sample 1s" "aggr 5x" "regions 2 10" "regions 20" \
			    "sample 1ms sample 2ms" "frob 1"; do
			# shellcheck disable=SC2086
			same_as_set attrs attrs $args
		done
	done
}
