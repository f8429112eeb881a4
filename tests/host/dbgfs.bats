#!/usr/bin/env bats
# damoctl against a fake debugfs tree of plain files (--interface dbgfs).

load helper

LRU_PRIO="4096 18446744073709551615 10 4294967295 0 4294967295 6 5 0 1000 0 1 0 0 0 0 0 0"
LRU_DEPRIO="4096 18446744073709551615 0 0 1200 4294967295 7 5 0 1000 0 0 1 0 0 0 0 0"
DOC="4096 8192 0 5 10 20 2 10 1073741824 1000 0 0 100 1 5000000 600 500 300"
SCHEMES() { echo "$ROOT/sys/kernel/debug/damon/schemes"; }

@test "scheme add lru_prio appends damon_lru_sort's hot scheme, keeping the lines there" {
	make_dbgfs
	echo "$DOC" > "$(SCHEMES)"
	run damoctl --interface dbgfs scheme add lru_prio
	assert_success
	assert_output ""
	run cat "$(SCHEMES)"
	assert_output "$DOC
$LRU_PRIO"
}

@test "scheme add lru_deprio then lru_prio on an empty schemes file" {
	make_dbgfs
	run damoctl --interface dbgfs scheme add lru_deprio
	assert_success
	run damoctl --interface dbgfs scheme add lru_prio
	assert_success
	run cat "$(SCHEMES)"
	assert_output "$LRU_DEPRIO
$LRU_PRIO"
}

@test "schemes read with statistics (23 fields) are written back without them" {
	make_dbgfs
	echo "$DOC 1 2 3 4 5" > "$(SCHEMES)"
	run damoctl --interface dbgfs scheme add lru_deprio
	assert_success
	run cat "$(SCHEMES)"
	assert_output "$DOC
$LRU_DEPRIO"
}

@test "the kernel documentation's example scheme, in keywords" {
	make_dbgfs
	run damoctl scheme add pageout sz 4K 8K access 0 5 age 10 20 \
		quota time 10ms size 1G reset 1s weights 0 0 100 \
		wmarks free_mem_rate 5s 600 500 300
	assert_success
	run cat "$(SCHEMES)"
	assert_output "$DOC"
}

@test "watermark levels in N%, as lru-sort takes them" {
	make_dbgfs
	run damoctl scheme add pageout sz 4K 8K access 0 5 age 10 20 \
		quota time 10ms size 1G reset 1s weights 0 0 100 \
		wmarks free_mem_rate 5s 60% 50% 30%
	assert_success
	run cat "$(SCHEMES)"
	assert_output "$DOC"
}

@test "a bad value changes nothing and names itself" {
	make_dbgfs
	echo "$DOC" > "$(SCHEMES)"
	before=$(tree_sum)
	run damoctl --interface dbgfs scheme add pageout age 10s 5s
	assert_failure 2
	assert_output "damoctl: scheme add: min age 10s > max age 5s"
	run damoctl scheme add lru_prio access 5x max
	assert_failure 2
	assert_output "damoctl: scheme add: min access: '5x' is not an access count or rate (N or N%)"
	run damoctl scheme add cold age 5x 10s
	assert_output "damoctl: scheme add: min age: '5x' is not a time (units: us ms s m h)"
	run damoctl scheme add cold sz 4Q 8K
	assert_output "damoctl: scheme add: min size: '4Q' is not a size (units: B K M G T)"
	run damoctl scheme add cold age 0 4294967296
	assert_output "damoctl: scheme add: max age: '4294967296' is out of range (4294967296 > max 4294967295)"
	run damoctl scheme add cold wmarks free_mem_rate 1s 500 600 100
	assert_output "damoctl: scheme add: wmarks: high 500, mid 600, low 100 are not ordered high >= mid >= low"
	run damoctl scheme add cold access 0 33%
	assert_failure 2
	assert_output --partial "max access: '33%' is not a whole number of samples"
	run damoctl scheme add frobnicate
	assert_failure 2
	assert_output --partial "unknown action 'frobnicate'"
	[ "$(tree_sum)" = "$before" ]
}

@test "percentages and ages follow the context's attributes" {
	make_dbgfs
	echo "10000 200000 1000000 10 1000" > "$ROOT/sys/kernel/debug/damon/attrs"
	run damoctl scheme add lru_prio
	assert_success
	run damoctl scheme add lru_deprio
	run cat "$(SCHEMES)"
	assert_line --index 0 --partial "4096 18446744073709551615 10 4294967295 0"
	assert_line --index 1 --partial " 0 0 600 4294967295 7 "
}

@test "a minimal fake tree (schemes only) uses the kernel's default attributes" {
	mkdir -p "$ROOT/sys/kernel/debug/damon"
	: > "$(SCHEMES)"
	run damoctl --interface dbgfs scheme add lru_prio
	assert_success
	run cat "$(SCHEMES)"
	assert_output "$LRU_PRIO"
}

@test "while monitoring is on: a clear error, nothing changed" {
	make_dbgfs
	echo "$DOC" > "$(SCHEMES)"
	echo on > "$ROOT/sys/kernel/debug/damon/monitor_on"
	before=$(tree_sum)
	run damoctl --interface dbgfs scheme add lru_prio
	assert_failure 1
	assert_output "damoctl: scheme add: monitoring is on and dbgfs refuses to change schemes while it runs: stop it first (damoctl monitor stop); nothing was changed"
	run damoctl scheme clear
	assert_failure 1
	run damoctl attrs set aggr 200ms
	assert_failure 1
	[ "$(tree_sum)" = "$before" ]
}

@test "6.9+ kernels: monitor_on_DEPRECATED" {
	make_dbgfs
	mv "$ROOT/sys/kernel/debug/damon/monitor_on" \
		"$ROOT/sys/kernel/debug/damon/monitor_on_DEPRECATED"
	echo on > "$ROOT/sys/kernel/debug/damon/monitor_on_DEPRECATED"
	run damoctl monitor status
	assert_line --index 0 "on (dbgfs)"
	run damoctl scheme add stat
	assert_failure 1
	run damoctl monitor stop
	assert_success
	run cat "$ROOT/sys/kernel/debug/damon/monitor_on_DEPRECATED"
	assert_output off
}

@test "a stock kernel's dbgfs (.max_action 5): lru actions refused, nothing changed" {
	make_dbgfs
	echo 5 > "$ROOT/sys/kernel/debug/damon/.max_action"
	echo "$DOC" > "$(SCHEMES)"
	before=$(tree_sum)
	run damoctl --interface dbgfs scheme add lru_deprio
	assert_failure 1
	assert_output "damoctl: scheme add: this kernel's dbgfs does not accept lru_prio and lru_deprio (dbgfs actions 6 and 7 need the damos kernel series): use --interface sysfs; nothing was changed"
	[ "$(tree_sum)" = "$before" ]
	run damoctl --interface dbgfs scheme add cold
	assert_success
}

@test "scheme list, rm and clear" {
	make_dbgfs
	printf '%s\n' "$DOC" "$LRU_PRIO" "$LRU_DEPRIO" > "$(SCHEMES)"
	run damoctl scheme list
	assert_success
	assert_output "0: pageout sz 4K 8K access 0 5 age 10 20 quota time 10ms size 1G reset 1s weights 0 0 100 wmarks free_mem_rate 5s 600 500 300
1: lru_prio sz 4K max access 10 max age 0 max quota time 5ms size 0 reset 1s weights 0 1 0 wmarks none 0 0 0 0
2: lru_deprio sz 4K max access 0 0 age 1200 max quota time 5ms size 0 reset 1s weights 0 0 1 wmarks none 0 0 0 0"
	run damoctl scheme rm 1
	assert_success
	run cat "$(SCHEMES)"
	assert_output "$DOC
$LRU_DEPRIO"
	run damoctl scheme rm 2
	assert_failure 1
	assert_output "damoctl: scheme rm: no scheme 2 (there are 2)"
	run damoctl scheme rm x
	assert_failure 2
	run damoctl scheme clear
	assert_success
	run cat "$(SCHEMES)"
	assert_output ""
	[ "$(cat "$(SCHEMES)" | od -An -c | tr -d ' ')" = '\n' ]
}

@test "scheme list output reads back as the same schemes" {
	make_dbgfs
	printf '%s\n' "$DOC" "$LRU_PRIO" "$LRU_DEPRIO" > "$(SCHEMES)"
	cp "$(SCHEMES)" "$BATS_TEST_TMPDIR/orig"
	damoctl scheme list | sed 's/^[0-9]*: //' > "$BATS_TEST_TMPDIR/list"
	damoctl scheme clear
	while read -r line; do
		# shellcheck disable=SC2086
		damoctl scheme add $line
	done < "$BATS_TEST_TMPDIR/list"
	run diff "$BATS_TEST_TMPDIR/orig" "$(SCHEMES)"
	assert_success
}

@test "scheme encode prints the line and writes nothing" {
	make_dbgfs
	before=$(tree_sum)
	run damoctl scheme encode lru_prio
	assert_success
	assert_output "$LRU_PRIO"
	run "$DAMOCTL" scheme encode lru_deprio
	assert_output "$LRU_DEPRIO"
	run "$DAMOCTL" --json scheme encode lru_deprio
	assert_output --partial "{\"dbgfs\":\"$LRU_DEPRIO\",\"scheme\":{\"index\":0,"
	[ "$(tree_sum)" = "$before" ]
	# on a stock kernel's dbgfs: the line, and a warning in the library's words
	echo 5 > "$ROOT/sys/kernel/debug/damon/.max_action"
	[ "$(damoctl scheme encode lru_prio 2>"$BATS_TEST_TMPDIR/err")" = "$LRU_PRIO" ]
	run cat "$BATS_TEST_TMPDIR/err"
	assert_output "damoctl: scheme encode: warning: this kernel's dbgfs does not accept lru_prio and lru_deprio (dbgfs actions 6 and 7 need the damos kernel series): use --interface sysfs (scheme add would refuse it)"
	damoctl scheme encode stat 2>"$BATS_TEST_TMPDIR/err"
	[ ! -s "$BATS_TEST_TMPDIR/err" ]
}

@test "dry run prints a script that does what the real run does" {
	make_dbgfs
	echo "$DOC" > "$(SCHEMES)"
	before=$(tree_sum)
	run damoctl --dry-run scheme add lru_prio
	assert_success
	assert_golden dbgfs-add-lru_prio.sh
	[ "$(tree_sum)" = "$before" ]
	printf '%s\n' "$output" > "$BATS_TEST_TMPDIR/script"
	sh "$BATS_TEST_TMPDIR/script"
	run cat "$(SCHEMES)"
	assert_output "$DOC
$LRU_PRIO"
}

@test "the multi-line dry-run write is one write() under dash and under bash" {
	command -v strace >/dev/null || skip "strace not installed"
	make_dbgfs
	printf '%s\n' "$DOC" "$LRU_PRIO" > "$(SCHEMES)"
	damoctl -n scheme add lru_deprio > "$BATS_TEST_TMPDIR/script"
	local sh
	for sh in dash bash; do
		printf '%s\n' "$DOC" "$LRU_PRIO" > "$(SCHEMES)"
		run strace --seccomp-bpf -f -s 4096 -e trace=write -o "$BATS_TEST_TMPDIR/trace" "$sh" "$BATS_TEST_TMPDIR/script"
		assert_success
		# one write() to the file (fd 1), of the three lines
		run grep -c '^[0-9]* *write(1,' "$BATS_TEST_TMPDIR/trace"
		assert_output 1
		run grep -F "write(1, \"$DOC\\n$LRU_PRIO\\n$LRU_DEPRIO\\n\"" "$BATS_TEST_TMPDIR/trace"
		assert_success
		run cat "$(SCHEMES)"
		assert_line --index 2 "$LRU_DEPRIO"
	done
}

@test "attrs show and set" {
	make_dbgfs
	run damoctl attrs
	assert_output "sample 5ms aggr 100ms update 1m regions 10 1000"
	run damoctl attrs set aggr 200ms regions 20 2000
	assert_success
	run cat "$ROOT/sys/kernel/debug/damon/attrs"
	assert_output "5000 200000 60000000 20 2000"
	run damoctl attrs set sample 1s
	assert_failure 2
	assert_output "damoctl: attrs set: aggr 200ms < sample 1s"
	run damoctl attrs set regions 2 10
	assert_failure 2
	assert_output "damoctl: attrs set: min regions 2 < 3"
	run damoctl attrs set sample 0
	assert_failure 2
	assert_output "damoctl: attrs set: sample: 0 (the sampling interval must be at least 1us)"
	run damoctl attrs set aggr 0
	assert_failure 2
	assert_output "damoctl: attrs set: aggr: 0 (the aggregation interval must be at least the sampling interval)"
	local before
	before=$(tree_sum)
	run damoctl attrs set frob 1
	assert_failure 2
	assert_output "damoctl: attrs set: unknown keyword 'frob' (expected sample aggr update regions)"
	run damoctl attrs set aggr 5x
	assert_failure 2
	assert_output "damoctl: attrs set: aggr: '5x' is not a time (units: us ms s m h)"
	run damoctl attrs set regions 20 lots
	assert_failure 2
	assert_output "damoctl: attrs set: max_regions: 'lots' is not a number"
	run damoctl attrs set sample 1ms sample 2ms
	assert_failure 2
	assert_output "damoctl: attrs set: sample given twice"
	run damoctl attrs set update
	assert_failure 2
	assert_output "damoctl: attrs set: update: expected a value"
	run damoctl attrs set
	assert_failure 2
	assert_output "damoctl: attrs set: expected [sample TIME] [aggr TIME] [update TIME] [regions MIN MAX]"
	[ "$(tree_sum)" = "$before" ]
	run damoctl --json attrs
	assert_output '{"sample_us":5000,"aggr_us":200000,"update_us":60000000,"min_nr_regions":20,"max_nr_regions":2000}'
}

@test "target set paddr and vaddr, show, clear" {
	make_dbgfs
	run damoctl target set paddr region 4G 0x200000000
	assert_success
	run cat "$ROOT/sys/kernel/debug/damon/target_ids"
	assert_output paddr
	run cat "$ROOT/sys/kernel/debug/damon/init_regions"
	assert_output "0 4294967296 8589934592"
	run damoctl target show
	assert_output "paddr region 0x100000000 0x200000000"
	run damoctl target set vaddr pid 42 region 0x1000 0x2000 pid 43
	assert_success
	run cat "$ROOT/sys/kernel/debug/damon/target_ids"
	assert_output "42 43"
	local before
	before=$(tree_sum)
	run damoctl target set vaddr region 1 2
	assert_failure 2
	assert_output "damoctl: target set: region: give 'pid PID' first"
	run damoctl target set paddr region 0x2000 0x1000
	assert_failure 2
	assert_output "damoctl: target set: target 0: region start 8192 >= end 4096"
	run damoctl target set paddr region 0xzz 0x1000
	assert_failure 2
	assert_output "damoctl: target set: region: '0xzz' is not an address (0xHEX or a size)"
	# strtoull would take a sign or blanks after 0x: 0x-1 is not 2^64-1
	run damoctl target set paddr region 0x1000 0x-1
	assert_failure 2
	assert_output "damoctl: target set: region: '0x-1' is not an address (0xHEX or a size)"
	run damoctl target set paddr region 4G
	assert_failure 2
	assert_output "damoctl: target set: region: expected START END"
	run damoctl target set vaddr pid ''
	assert_failure 2
	assert_output "damoctl: target set: pid: '' is not a pid"
	run damoctl target set paddr pid 42
	assert_failure 2
	assert_output "damoctl: target set: unknown keyword 'pid' (expected region)"
	run damoctl target set vaddr
	assert_failure 2
	assert_output "damoctl: target set: vaddr: expected pid PID"
	run damoctl target set vaddr pid 42 pid 43 pid 42
	assert_failure 2
	assert_output "damoctl: target set: target 2: pid 42 is target 0 already"
	run damoctl target set kaddr
	assert_failure 2
	assert_output "damoctl: target set: unknown operations 'kaddr' (expected paddr vaddr fvaddr)"
	[ "$(tree_sum)" = "$before" ]
	run damoctl target set fvaddr region 0x1000 0x2000
	assert_failure 1
	assert_output --partial "dbgfs has no fvaddr monitoring"
}

@test "monitor start needs a target; status, start and stop" {
	make_dbgfs
	run damoctl monitor start
	assert_failure 1
	assert_output "damoctl: monitor start: no monitoring target: set one first (damoctl target set ...)"
	damoctl target set paddr region 4G 8G
	run damoctl monitor start
	assert_success
	run damoctl monitor
	assert_line --index 0 "on (dbgfs)"
	assert_line --regexp "^targets +paddr"
	assert_line "schemes   0"
	run damoctl --json monitor status
	assert_output --partial '{"interface":"dbgfs","on":true,"pid":-1,'
	# the JSON has what the text has: attrs, targets, schemes
	assert_output --partial ',"targets":{"operations":"paddr","targets":[{"pid":0,"regions":[{"start":4294967296,"end":8589934592}]}]},"schemes":[]'
	python3 -m json.tool <<<"$output" >/dev/null
	run damoctl monitor stop
	assert_success
	run cat "$ROOT/sys/kernel/debug/damon/monitor_on"
	assert_output off
}

@test "stats" {
	make_dbgfs
	echo "$DOC 1 4096 2 8192 3" > "$(SCHEMES)"
	run damoctl stats
	assert_success
	assert_line --index 1 --regexp '^0 +pageout +1 +4096 +2 +8192 +3$'
	run damoctl --json stats
	assert_output '[{"index":0,"action":"pageout","nr_tried":1,"sz_tried":4096,"nr_applied":2,"sz_applied":8192,"qt_exceeds":3}]'
}

@test "contexts made by mk_contexts (--context)" {
	make_dbgfs
	echo foo > "$ROOT/sys/kernel/debug/damon/mk_contexts"
	mkdir "$ROOT/sys/kernel/debug/damon/foo"
	: > "$ROOT/sys/kernel/debug/damon/foo/schemes"
	run damoctl --context foo scheme add lru_prio
	assert_success
	run cat "$ROOT/sys/kernel/debug/damon/foo/schemes"
	assert_output "$LRU_PRIO"
	run cat "$(SCHEMES)"
	assert_output ""
	run damoctl --context bar scheme list
	assert_failure 1
	assert_output "damoctl: scheme list: no dbgfs context $ROOT/sys/kernel/debug/damon/bar"
}

@test "access rates that do not convert say how many samples there are" {
	make_dbgfs
	echo "5000 5000 60000000 10 1000" > "$ROOT/sys/kernel/debug/damon/attrs"
	run damoctl scheme add lru_prio
	assert_failure 2
	assert_output "damoctl: scheme add: lru_prio default: min access: '50%' is not a whole number of samples (1 sample per aggregation interval: use multiples of 100% or a bare number)"
	run damoctl scheme add pageout access 3% max
	assert_failure 2
	assert_output --partial "(1 sample per aggregation interval"
}

@test "an attrs file that does not parse: the file and its content named" {
	make_dbgfs
	echo "5000 x" > "$ROOT/sys/kernel/debug/damon/attrs"
	run damoctl attrs show
	assert_failure 1
	assert_output "damoctl: attrs show: $ROOT/sys/kernel/debug/damon/attrs: '5000 x' is not 5 numbers (sample aggr update min_regions max_regions)"
}
