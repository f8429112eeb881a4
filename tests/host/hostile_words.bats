#!/usr/bin/env bats
# Spellings and messages a new user meets (issue 45): every report keyword
# with "--" as damo spells them, --format=VALUE, sizes in hex as regions
# take them; a value too large says "too large", not "not a number";
# --root naming no directory says so, not "this kernel has no DAMON"; an
# error apply finds twice is shown once.

load helper
load report
load reclaim

REGIONS="4096 8192 20 3
8192 1056768 0 50"

@test "report access and report wss take each keyword with -- too (--sort, --source, --duration)" {
	make_612 on 2
	stat_all 1 <<<"$REGIONS"
	run damoctl report access --source tried --sort access --duration 1s
	assert_success
	assert_line --index 0 --regexp '^start +end'
	run damoctl report access source tried
	assert_success
	plain=$output
	run damoctl report access --source tried
	assert_output "$plain"
	run damoctl report access --source frob
	assert_failure 2
	assert_output "damoctl: report access: source: 'frob' is not one of auto, tried, trace"
	run damoctl report wss --duration 200ms --source tried
	refute_output --partial 'unknown keyword'
	run damoctl report wss --frob 1
	assert_failure 2
	assert_output "damoctl: report wss: unknown keyword '--frob' (expected duration, source or --input)"
}

@test "--format=VALUE and --output=FILE as --format VALUE and --output FILE" {
	make_sysfs off 1
	run damoctl stats show --format prometheus
	assert_success
	want=$output
	run damoctl stats show --format=prometheus
	assert_success
	assert_output "$want"
	run damoctl stats show --format=prometheus --output="$BATS_TEST_TMPDIR/m.prom"
	assert_success
	[ "$(cat "$BATS_TEST_TMPDIR/m.prom")" = "$want" ]
	run damoctl stats show --format=frob
	assert_failure 2
	assert_output "damoctl: stats show: --format: 'frob' is not one of text, openmetrics, prometheus"
}

@test "a size in hex (sz 0x1000) as regions and addresses take it; past 64 bits it is too large" {
	make_sysfs off 0
	run damoctl scheme add pageout sz 0x1000 0x200000
	assert_success
	run damoctl scheme list
	assert_output --partial 'sz 4K 2M'
	run damoctl scheme add pageout sz 0x10000000000000000 max
	assert_failure 2
	assert_output "damoctl: scheme add: min size: '0x10000000000000000' is too large"
	run damoctl scheme add pageout sz 0x1g max
	assert_failure 2
	assert_output --partial "'0x1g' is not a size"
}

@test "a number too large says so, not 'not a number'" {
	make_sysfs off 0
	big=99999999999999999999999
	run damoctl attrs set regions 10 $big
	assert_failure 2
	assert_output "damoctl: attrs set: max_regions: '$big' is too large"
	run damoctl scheme add pageout access $big max
	assert_failure 2
	assert_output "damoctl: scheme add: min access: '$big' is too large"
	run damoctl scheme goal 0 0 current $big
	assert_failure 2
	assert_output "damoctl: scheme goal: current: '$big' is too large (at most 18446744073709551615)"
	# and a word that is no number still says that
	run damoctl attrs set regions 10 lots
	assert_output "damoctl: attrs set: max_regions: 'lots' is not a number"
}

@test "--root naming no directory says so, not that the kernel has no DAMON" {
	run "$DAMOCTL" --root "$BATS_TEST_TMPDIR/nonexistent" scheme list
	assert_failure 1
	assert_output "damoctl: --root $BATS_TEST_TMPDIR/nonexistent: No such file or directory"
	refute_output --partial 'has no DAMON'
	: > "$BATS_TEST_TMPDIR/file"
	run "$DAMOCTL" --root "$BATS_TEST_TMPDIR/file" scheme list
	assert_failure 1
	assert_output "damoctl: --root $BATS_TEST_TMPDIR/file: not a directory"
}

@test "apply shows an error the file's check and the kernel's check both find once" {
	make_sysfs off 0
	printf 'target paddr region 10 5\n' > "$BATS_TEST_TMPDIR/r.conf"
	run damoctl apply check "$BATS_TEST_TMPDIR/r.conf"
	assert_failure 2
	[ "$(grep -c 'region start 10 >= end 5' <<<"$output")" = 1 ] || fail "$output"
	assert_line "damoctl: apply: $BATS_TEST_TMPDIR/r.conf: 1 bad line; nothing was changed"
}

@test "monitor status on a stock kernel's dbgfs says its features are none, not an empty list" {
	make_dbgfs
	echo 5 > "$ROOT/sys/kernel/debug/damon/.max_action"
	run damoctl monitor status
	assert_success
	assert_line --regexp '^features +dbgfs[^:]*: none$'
	run damoctl --json monitor status
	assert_output --partial '"features":[]'
}

@test "reclaim status: every column starts where its heading does, skip_anon's row too" {
	make_sysfs off 0
	make_reclaim
	run damoctl reclaim status
	assert_success
	head=$(grep '^KEYWORD' <<<"$output")
	v=$(awk -v h="$head" 'BEGIN { print index(h, "VALUE") }')
	p=$(awk -v h="$head" 'BEGIN { print index(h, "PARAMETERS") }')
	rows=$(sed -n '/^KEYWORD/,/^$/p' <<<"$output" | sed '1d;/^$/d')
	grep -q '^skip_anon ' <<<"$rows"
	while IFS= read -r row; do
		[ "${row:v-2:1}" = " " ] && [ "${row:v-1:1}" != " " ] ||
			fail "VALUE at $v: '$row'"
		[ "${row:p-2:1}" = " " ] && [ "${row:p-1:1}" != " " ] ||
			fail "PARAMETERS at $p: '$row'"
	done <<<"$rows"
}
