#!/usr/bin/env bats
# apply FILE on hostile input (issue 45): what json-c takes without a word
# (integers past 64 bits, keys given twice) is refused as the string forms
# are; an empty file, a forgotten FILE after "check", a BOM, an unclosed
# document and a 10 MB value each get a message that says what is wrong,
# and a spec's errors name its JSON path, never the converted conf's line.

load helper

FIX="$BATS_TEST_DIRNAME/fixtures/damo-3.3.0"

setup() {
	ROOT="$BATS_TEST_TMPDIR/root"
	mkdir -p "$ROOT"
	cd "$BATS_TEST_TMPDIR" || return 1
}
CTX() { echo "$ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0"; }
make_612() {
	make_sysfs
	put "$(CTX)/targets/nr_targets" 0
	put "$ROOT/proc/sys/kernel/osrelease" 6.12.118-amd64
}
# spec FILE PYTHON: the pageout fixture edited (s: spec, c: context, k:
# scheme), written with its numbers as python writes them
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
S='$.kdamonds[0].contexts[0]'

@test "an integer past 64 bits is refused with its JSON path, not clamped to max" {
	make_612
	before=$(tree_sum)
	for edit in 'k["access_pattern"]["sz_bytes"]["min"] = 184467440737095516160@schemes[0].access_pattern.sz_bytes.min' \
		    'k["quotas"]["sz_bytes"] = 18446744073709551616@schemes[0].quotas.sz_bytes' \
		    'c["nr_regions"]["max"] = 99999999999999999999999@nr_regions.max' \
		    'c["targets"][0]["regions"][0]["end"] = 184467440737095516160@targets[0].regions[0].end'; do
		spec big.json "${edit%@*}"
		run damoctl apply big.json
		assert_failure 2
		assert_output --partial "big.json: $S.${edit#*@}: "
		assert_output --partial 'is too large for the kernel'"'"'s 64-bit field'
	done
	# the string form says the same, not "is not a size"
	spec str.json 'k["quotas"]["sz_bytes"] = "184467440737095516160"'
	run damoctl apply str.json
	assert_failure 2
	assert_output --partial "$S.schemes[0].quotas.sz_bytes: \"184467440737095516160\" is too large"
	# U64_MAX itself is a number the kernel takes
	spec edge.json 'k["quotas"]["sz_bytes"] = 18446744073709551615'
	run damoctl apply check edge.json
	assert_success
	[ "$(tree_sum)" = "$before" ]
}

@test "a key given twice is refused, naming the key and its object" {
	make_612
	before=$(tree_sum)
	spec one.json 'pass'
	sed 's/"reset_interval_ms": "1 s"/"reset_interval_ms": "1 s", "reset_interval_ms": "2 s"/' one.json > dup.json
	! cmp -s one.json dup.json
	run damoctl apply dup.json
	assert_failure 2
	assert_output --partial "dup.json: $S.schemes[0].quotas: 'reset_interval_ms' is given twice"
	# an escaped spelling of the same key is the same key
	printf '{"kdamonds": [], "\\u006bdamonds": []}\n' > esc.json
	run damoctl apply esc.json
	assert_failure 2
	assert_output --partial "esc.json: \$: 'kdamonds' is given twice"
	[ "$(tree_sum)" = "$before" ]
}

@test "a spec's error found against the kernel names its JSON path, not the converted conf's line" {
	make_sysfs
	put "$(CTX)/targets/nr_targets" 0
	run damoctl apply check "$FIX/filters-goals.json"
	assert_failure 2
	assert_output --partial "filters-goals.json: $S.schemes[0]: scheme: apply interval needs"
	refute_output --regexp 'filters-goals.json:[0-9]'
	assert_output --partial 'filters-goals.json: 1 error in the damo spec; nothing was changed'
}

@test "an unclosed document, a BOM and a 10 MB value get messages that say so" {
	make_612
	printf '{\n' > brace.json
	run damoctl apply brace.json
	assert_failure 2
	assert_output --partial 'brace.json: not JSON at byte 2: the document ends before its last { [ or " is closed'
	refute_output --partial continue
	# an editor's byte order mark: the file is read as without it
	printf '\xef\xbb\xbfmonitor off\n' > bom.conf
	run damoctl apply check bom.conf
	assert_success
	spec one.json 'pass'
	printf '\xef\xbb\xbf' | cat - one.json > bom.json
	run damoctl apply check bom.json
	assert_success
	spec huge.json 'k["action"] = "x" * 10000000'
	run damoctl apply huge.json
	assert_failure 2
	assert_output --partial '... (10000002 bytes) is not an action damoctl knows'
	[ "${#output}" -lt 1000 ]
}

@test "an empty file is refused; a file of comments applies nothing and says so" {
	make_612
	before=$(tree_sum)
	: > empty.json
	run damoctl apply empty.json
	assert_failure 2
	assert_output 'damoctl: apply: empty.json is empty: nothing to apply'
	printf '\n  \n' > blank.conf
	run damoctl --json apply blank.conf
	assert_failure 2
	refute_output --partial '"ok":true'
	printf '# only a comment\n' > c.conf
	run damoctl apply c.conf
	assert_success
	assert_output --partial 'c.conf has no directive: nothing to apply'
	[ "$(tree_sum)" = "$before" ]
}

@test "apply check with no FILE is refused, even where a file is named check" {
	make_612
	before=$(tree_sum)
	printf 'monitor off\n' > check
	run damoctl apply check
	assert_failure 2
	assert_output --partial 'check: expected FILE after it (a file named check: ./check)'
	[ "$(tree_sum)" = "$before" ]
	run damoctl apply check ./check
	assert_success
	[ "$(tree_sum)" = "$before" ]
}
