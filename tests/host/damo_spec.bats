#!/usr/bin/env bats
# damo's kdamonds spec: damoctl apply FILE takes it (recognised by its
# content), damoctl export damo prints one; on the six specs damo v3.3.0
# printed (fixtures/damo-3.3.0/), import -> export -> import keeps every
# field both tools model, and a bad spec names the field and its JSON path.

load helper

FIX="$BATS_TEST_DIRNAME/fixtures/damo-3.3.0"

# the helper's root, and the scratch files the tests write (a.schemes,
# one.json, ...) in the test's own directory, never in the clone
setup() {
	ROOT="$BATS_TEST_TMPDIR/root"
	mkdir -p "$ROOT"
	cd "$BATS_TEST_TMPDIR" || return 1
}
CTX() { echo "$ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0"; }

# make_sysfs with no target and no scheme, in 6.12's layout (the probe
# reads the release), as a kernel of Debian 13 shows it.
make_612() {
	make_sysfs
	put "$(CTX)/targets/nr_targets" 0
	put "$ROOT/proc/sys/kernel/osrelease" 6.12.118-amd64
}

# The spec as JSON with damo's (json.dumps) spacing and key order kept.
canon() {
	python3 -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1])), indent=4))' "$1"
}

@test "each fixture applies and exports back as the same spec (allow filter excepted)" {
	for f in "$FIX"/*.json; do
		rm -rf "$ROOT"; mkdir -p "$ROOT"
		make_612
		run damoctl apply "$f"
		assert_success
		run damoctl export damo
		assert_success
		printf '%s\n' "$output" > export.json
		want=$(canon "$f")
		# a last allow filter is the reject filter of the opposite match
		[ "${f##*/}" = filters-goals.json ] &&
			want=$(printf '%s\n' "$want" | python3 -c '
import sys
t = sys.stdin.read()
print(t.replace("\"matching\": true,\n                                    \"allow\": true", "\"matching\": false,\n                                    \"allow\": false"), end="")')
		diff -u <(printf '%s\n' "$want") <(canon export.json) ||
			fail "${f##*/}: the export differs from damo's spec"
	done
}

@test "import -> export -> import on every fixture: the same attrs, targets and schemes" {
	for f in "$FIX"/*.json; do
		ROOT="$BATS_TEST_TMPDIR/a"; rm -rf "$ROOT"; make_612
		damoctl apply "$f" 2>/dev/null
		damoctl export damo > export.json
		damoctl --json monitor status > a.status
		damoctl --json scheme list > a.schemes
		ROOT="$BATS_TEST_TMPDIR/b"; rm -rf "$ROOT"; make_612
		run damoctl apply export.json
		assert_success
		damoctl --json monitor status > b.status
		damoctl --json scheme list > b.schemes
		diff a.status b.status || fail "${f##*/}: status differs"
		diff a.schemes b.schemes || fail "${f##*/}: schemes differ"
		# not trivially equal: the fixture set something
		grep -q '"action"' a.schemes || fail "${f##*/}: no scheme"
	done
}

@test "damo's spellings become the kernel's numbers" {
	make_612
	run damoctl apply "$FIX/pageout-quota-wmarks.json"
	assert_success
	local s
	s="$(CTX)/schemes/0"
	# "4.000 KiB", "max", "30 s" at 100 ms, "10 ms", "128.000 MiB", "0.3 %"
	[ "$(cat "$s/access_pattern/sz/min")" = 4096 ]
	[ "$(cat "$s/access_pattern/sz/max")" = 18446744073709551615 ]
	[ "$(cat "$s/access_pattern/age/min")" = 300 ]
	[ "$(cat "$s/quotas/ms")" = 10 ]
	[ "$(cat "$s/quotas/bytes")" = 134217728 ]
	[ "$(cat "$s/quotas/weights/nr_accesses_permil")" = 3 ]
	[ "$(cat "$s/watermarks/high")" = 500 ]
	[ "$(cat "$s/watermarks/interval_us")" = 5000000 ]
	run damoctl apply "$FIX/intervals-regions.json"
	assert_success
	# "10 ms", "200 ms", "2 s", "2,000"
	[ "$(cat "$(CTX)/monitoring_attrs/intervals/sample_us")" = 10000 ]
	[ "$(cat "$(CTX)/monitoring_attrs/intervals/aggr_us")" = 200000 ]
	[ "$(cat "$(CTX)/monitoring_attrs/intervals/update_us")" = 2000000 ]
	[ "$(cat "$(CTX)/monitoring_attrs/nr_regions/max")" = 2000 ]
	run damoctl apply "$FIX/lru-prio-deprio.json"
	assert_success
	# "50 %" of 20 samples (10 ms, 200 ms): 10; damo's U64_MAX % is max
	[ "$(cat "$(CTX)/schemes/0/access_pattern/nr_accesses/min")" = 10 ]
	[ "$(cat "$(CTX)/schemes/0/access_pattern/nr_accesses/max")" = 4294967295 ]
	run damoctl apply "$FIX/vaddr-pid.json"
	assert_success
	[ "$(cat "$(CTX)/operations")" = vaddr ]
	[ "$(cat "$(CTX)/targets/0/pid_target")" = 4242 ]
}

@test "an access rate that is no whole percentage exports as samples and reads back" {
	make_sysfs
	put "$ROOT/proc/sys/kernel/osrelease" 6.12.118-amd64
	# 7 of 20 samples is 35 %; 7 of 30 (3 ms, 90 ms) is not a whole 1/1000 %
	put "$(CTX)/monitoring_attrs/intervals/sample_us" 3000
	put "$(CTX)/monitoring_attrs/intervals/aggr_us" 90000
	damoctl scheme add stat access 7 max
	damoctl export damo > e.json
	grep -q '"min": "7"' e.json || fail "$(cat e.json)"
	damoctl --json scheme list > a
	damoctl scheme clear
	run damoctl apply e.json
	assert_success
	damoctl --json scheme list > b
	diff a b
}

@test "apply check takes a spec and writes nothing" {
	make_612
	before=$(tree_sum)
	run damoctl apply check "$FIX/filters-goals.json"
	assert_success
	[ "$(tree_sum)" = "$before" ]
}

# spec NAME PYTHON: the fixture pageout-quota-wmarks.json changed by
# PYTHON (on s, the parsed spec; c its context, k its first scheme)
spec() {
	python3 - "$FIX/pageout-quota-wmarks.json" "$1" "$2" <<-'PY'
	import json, sys
	s = json.load(open(sys.argv[1]))
	c = s["kdamonds"][0]["contexts"][0]
	k = c["schemes"][0]
	exec(sys.argv[3])
	json.dump(s, open(sys.argv[2], "w"), indent=4)
	PY
}

@test "a bad spec names the field and its JSON path, and changes nothing" {
	make_612
	before=$(tree_sum)
	spec unknown.json 'k["quotas"]["frobs"] = 1'
	run damoctl apply unknown.json
	assert_failure 2
	assert_output --partial "unknown.json: \$.kdamonds[0].contexts[0].schemes[0].quotas: unknown field 'frobs'"
	spec badval.json 'k["access_pattern"]["age"]["min"] = "30 parsecs"'
	run damoctl apply badval.json
	assert_failure 2
	assert_output --partial '$.kdamonds[0].contexts[0].schemes[0].access_pattern.age.min: "30 parsecs" is not a time'
	spec frac.json 'k["access_pattern"]["sz_bytes"]["min"] = "4.5 B"'
	run damoctl apply frac.json
	assert_failure 2
	assert_output --partial 'sz_bytes.min: "4.5 B" is not a whole number of bytes'
	spec type.json 'c["schemes"] = {}'
	run damoctl apply type.json
	assert_failure 2
	assert_output --partial '$.kdamonds[0].contexts[0].schemes: {} is not an array'
	# a field damoctl does not model is named, not dropped
	spec refresh.json 's["kdamonds"][0]["refresh_ms"] = 1000'
	run damoctl apply refresh.json
	assert_failure 2
	assert_output --partial '$.kdamonds[0].refresh_ms: 1000: damoctl does not model'
	spec tuner.json 'k["quotas"]["goal_tuner"] = "temporal"'
	run damoctl apply tuner.json
	assert_failure 2
	assert_output --partial 'quotas.goal_tuner: "temporal": damoctl does not model goal tuners'
	# two contexts in a kdamond: Linux's sysfs takes one (issue 41)
	spec two.json 's["kdamonds"][0]["contexts"].append(c)'
	run damoctl apply two.json
	assert_failure 2
	assert_output --partial '$.kdamonds[0].contexts: 2 contexts: Linux'"'"'s sysfs takes one context a kdamond'
	# an error of a second kdamond names its path
	spec two-bad.json 'import copy; s["kdamonds"].append(copy.deepcopy(s["kdamonds"][0])); s["kdamonds"][1]["contexts"][0]["schemes"][0]["action"] = "frob"'
	run damoctl apply two-bad.json
	assert_failure 2
	assert_output --partial '$.kdamonds[1].contexts[0].schemes[0].action: "frob" is not an action'
	printf '{"kdamonds": []}\n' > none.json
	run damoctl apply none.json
	assert_failure 2
	assert_output --partial '$.kdamonds: no kdamond'
	# several errors: all of them
	spec many.json 'k["action"] = "frob"; c["pause"] = True'
	run damoctl apply many.json
	assert_failure 2
	assert_output --partial 'schemes[0].action: "frob" is not an action'
	assert_output --partial 'contexts[0].pause: true: damoctl does not model paused contexts'
	assert_output --partial '2 errors in the damo spec; nothing was changed'
	printf '{"kdamonds": [ {"contexts": [}\n' > broken.json
	run damoctl apply broken.json
	assert_failure 2
	assert_output --partial 'broken.json: not JSON at byte'
	printf '{"schemes": []}\n' > notspec.json
	run damoctl apply notspec.json
	assert_failure 2
	assert_output --partial "\$: unknown field 'schemes'"
	[ "$(tree_sum)" = "$before" ]
}

@test "a field the kernel lacks is an error naming it and the kernel (6.1 layout)" {
	make_sysfs
	put "$(CTX)/targets/nr_targets" 0
	before=$(tree_sum)
	run damoctl apply "$FIX/migrate-cold-nid.json"
	assert_failure 2
	assert_output --partial 'migrate_cold needs the migrate_hot and migrate_cold actions (target_nid) (Linux 6.11+), which this kernel (sysfs, Linux 6.1'
	run damoctl apply "$FIX/filters-goals.json"
	assert_failure 2
	assert_output --partial 'apply_interval_us) (Linux 6.7+), which this kernel'
	[ "$(tree_sum)" = "$before" ]
}

@test "export damo: --json gives the same spec on one line; an argument is refused" {
	make_612
	damoctl apply "$FIX/lru-prio-deprio.json"
	run damoctl --json export damo
	assert_success
	[ "${#lines[@]}" = 1 ]
	damoctl export damo > pretty.json
	diff <(canon pretty.json) <(printf '%s\n' "$output" > one.json; canon one.json)
	run damoctl export damo extra
	assert_failure 2
}
