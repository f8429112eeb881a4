#!/usr/bin/env bats
# damoctl's grammar, exit statuses (0 ok, 1 failure, 2 usage) and --json.

load helper

@test "--version and --help" {
	run "$DAMOCTL" --version
	assert_success
	assert_output --regexp '^damoctl [0-9]+\.[0-9]+\.[0-9]+ \(libdamos [0-9.]+\)$'
	run "$DAMOCTL" --help
	assert_success
	assert_line "Usage: damoctl [OPTIONS] OBJECT COMMAND [ARGS]"
	assert_line --partial "damoctl scheme add ACTION [sz MIN MAX]"
}

@test "no arguments (not a terminal): usage on stderr, status 2" {
	run "$DAMOCTL"
	assert_failure 2
	assert_line --index 0 "Usage: damoctl [OPTIONS] OBJECT COMMAND [ARGS]"
}

@test "help and help OBJECT list the commands and the actions" {
	run "$DAMOCTL" help scheme
	assert_success
	assert_line --partial "damoctl scheme rm INDEX"
	assert_line --regexp '^  lru_deprio +deprioritize the region on its LRU lists'
	run "$DAMOCTL" scheme help
	assert_success
	run "$DAMOCTL" help frob
	assert_failure 2
}

@test "unknown objects, commands and options are usage errors" {
	run "$DAMOCTL" frob
	assert_failure 2
	assert_output "damoctl: unknown object 'frob' (objects: scheme attrs target monitor stats lru-sort reclaim report export tier record apply help)"
	run "$DAMOCTL" scheme ad lru_prio
	assert_failure 2
	assert_output "damoctl: scheme: unknown command 'ad' (commands: add list rm clear set goal encode)"
	run "$DAMOCTL" --frob scheme list
	assert_failure 2
	assert_output "damoctl: unknown option '--frob'"
	run "$DAMOCTL" --interface frob scheme list
	assert_failure 2
	assert_output "damoctl: unknown interface 'frob' (interfaces: auto sysfs dbgfs)"
	run "$DAMOCTL" --root
	assert_failure 2
	run "$DAMOCTL" --kdamond x scheme list
	assert_failure 2
}

@test "a bad command line is a usage error (2) even with no DAMON below the root" {
	run damoctl attrs set frob 1
	assert_failure 2
	assert_output "damoctl: attrs set: unknown keyword 'frob' (expected sample aggr update regions)"
	run damoctl attrs set
	assert_failure 2
	run damoctl attrs set regions 2 10
	assert_failure 2
	assert_output "damoctl: attrs set: min regions 2 < 3"
	run damoctl target set kaddr
	assert_failure 2
	# good words: then the missing interface (1)
	run damoctl attrs set sample 1s
	assert_failure 1
	# scheme add: the words are checked under the default attributes
	run damoctl scheme add lru_prio bogus 1
	assert_failure 2
	assert_output "damoctl: scheme add: unknown keyword 'bogus' (expected sz access age quota weights wmarks nid apply_interval filter goal)"
	run damoctl scheme add pageout age 10s 5s
	assert_failure 2
	assert_output "damoctl: scheme add: min age 10s > max age 5s"
	run damoctl --interface sysfs scheme add lru_prio
	assert_failure 1
	assert_output --partial "no DAMON sysfs interface"
}

@test "no DAMON interface below the root: status 1, the paths named" {
	run damoctl scheme list
	assert_failure 1
	assert_output "damoctl: scheme list: no DAMON interface: neither $ROOT/sys/kernel/mm/damon/admin nor $ROOT/sys/kernel/debug/damon exists: this kernel has no DAMON (CONFIG_DAMON_SYSFS and CONFIG_DAMON_DBGFS are not set?), or debugfs is not mounted"
	run damoctl --interface sysfs scheme list
	assert_output "damoctl: scheme list: no DAMON sysfs interface: $ROOT/sys/kernel/mm/damon/admin does not exist"
}

@test "--json errors are JSON too" {
	make_dbgfs
	run damoctl --json scheme add pageout age 10s 5s
	assert_failure 2
	assert_output '{"error":"scheme add: min age 10s > max age 5s"}'
	run "$DAMOCTL" --json frob
	assert_output "{\"error\":\"unknown object 'frob' (objects: scheme attrs target monitor stats lru-sort reclaim report export tier record apply help)\"}"
	run damoctl --json scheme add lru_prio
	assert_success
	assert_output '{"index":0}'
	run damoctl --json scheme list
	assert_output --partial '[{"index":0,"min_sz":4096,"max_sz":18446744073709551615,"min_nr_accesses":10,'
}

# Every line of $output is one JSON document.
assert_json_lines() {
	python3 -c 'import json, sys
for line in sys.stdin:
    json.loads(line)' <<<"$output" || fail "not JSON: $output"
}

@test "--json: whatever prints, prints JSON (help, --version, errors of options too)" {
	load lru_sort
	make_sysfs on 2
	make_lru_sort
	local cmd
	for cmd in "scheme list" "scheme encode lru_prio" "attrs show" "target show" \
		   "monitor status" "stats show" "lru-sort status" "help" "help scheme" \
		   "help scheme add" "scheme help" "apply help" "--version" "--help" \
		   "stats show --watch 10ms --count 2" "-n scheme add stat" \
		   "-n lru-sort set hot 30%" "scheme add stat" "frob" "scheme rm x" \
		   "help scheme add extra" "--frob" "-k x scheme list" ""; do
		# shellcheck disable=SC2086
		run damoctl --json $cmd
		[ -n "$output" ] || fail "--json $cmd printed nothing"
		assert_json_lines
	done
	# --json holds from anywhere among the options, even after a bad one
	for cmd in "--frob --json" "-k x --json scheme list" "--help --json" "--version -j"; do
		# shellcheck disable=SC2086
		run damoctl $cmd
		assert_json_lines
	done
	run damoctl --json --version
	assert_output '{"version":"'"$("$DAMOCTL" --version | cut -d' ' -f2)"'","libdamos":"'"$("$DAMOCTL" --version | sed 's/.*libdamos \(.*\))/\1/')"'"}'
}

@test "help OBJECT COMMAND explains each keyword it takes, and the actions" {
	local oc kw
	for oc in "scheme add pageout" "scheme encode stat" "attrs set" "lru-sort set" \
		  "lru-sort enable" "target set vaddr"; do
		# shellcheck disable=SC2086
		set -- $oc
		run "$DAMOCTL" help "$1" "$2"
		assert_success
		local text=$output
		# shellcheck disable=SC2086
		for kw in $("$DAMOCTL" --complete -- $oc ""); do
			grep -qE "^  $kw [A-Z[]" <<<"$text" || fail "help $1 $2 does not explain $kw"
		done
	done
	run "$DAMOCTL" help scheme add
	assert_line "  ACTION: willneed cold pageout hugepage nohugepage lru_prio lru_deprio stat migrate_hot migrate_cold"
	assert_line "  sz MIN MAX             region size: bytes, or with B K M G T; min, max"
	run "$DAMOCTL" help target set
	assert_line --regexp "^  paddr\|vaddr\|fvaddr +the operations: "
}

@test "--help after the words is their help; other options there are named" {
	make_dbgfs
	local before
	before=$(tree_sum)
	run damoctl scheme add --help
	assert_success
	assert_line --index 0 --partial "damoctl scheme add ACTION"
	run damoctl scheme add pageout sz 4K 8K -h
	assert_success
	assert_line --index 0 --partial "damoctl scheme add ACTION"
	run damoctl monitor --help
	assert_success
	assert_line --index 0 "damoctl monitor: turn monitoring on and off"
	run damoctl apply --help
	assert_success
	# these said only "unknown keyword '--dry-run'" or "no arguments expected"
	run damoctl scheme add stat --dry-run
	assert_failure 2
	assert_output "damoctl: scheme add: '--dry-run' is an option of damoctl: put it before 'scheme' (damoctl [OPTIONS] scheme add ...)"
	run damoctl scheme list --json
	assert_failure 2
	assert_output "damoctl: scheme list: '--json' is an option of damoctl: put it before 'scheme' (damoctl [OPTIONS] scheme list ...)"
	run damoctl target set paddr --root=/
	assert_failure 2
	[ "$(tree_sum)" = "$before" ]
}

@test "help OBJECT COMMAND with more words names the extra one" {
	run "$DAMOCTL" help scheme add extra
	assert_failure 2
	assert_output "damoctl: help: 'extra' after scheme add (expected help [OBJECT [COMMAND]])"
	run "$DAMOCTL" help scheme frob
	assert_failure 2
	assert_output "damoctl: help: scheme has no command 'frob'"
}

@test "--json dry run" {
	make_dbgfs
	run damoctl --json -n scheme add lru_prio
	assert_success
	assert_output "{\"dry_run\":\"echo '4096 18446744073709551615 10 4294967295 0 4294967295 6 5 0 1000 0 1 0 0 0 0 0 0' > $ROOT/sys/kernel/debug/damon/schemes\\n\"}"
}

@test "objects without a command run their default" {
	make_dbgfs
	run damoctl scheme
	assert_success
	run damoctl monitor
	assert_line --index 0 "off (dbgfs)"
	run damoctl stats
	assert_success
	run damoctl target
	assert_output none
}

@test "extra arguments are usage errors" {
	make_dbgfs
	run damoctl scheme list 1
	assert_failure 2
	assert_output "damoctl: scheme list: no arguments expected, got '1'"
	run damoctl monitor start now
	assert_failure 2
	run damoctl scheme rm
	assert_failure 2
	assert_output "damoctl: scheme rm: expected INDEX"
	run damoctl scheme rm 1 2
	assert_failure 2
	assert_output "damoctl: scheme rm: '2' after INDEX 1: one scheme at a time"
	# strtoul() would read -1 as ULONG_MAX
	run damoctl scheme rm -1
	assert_failure 2
	assert_output "damoctl: scheme rm: '-1' is not a scheme index (0, 1, ...: see damoctl scheme list)"
	run damoctl scheme add
	assert_failure 2
	assert_output "damoctl: scheme add: expected an action (see damoctl help scheme)"
}

@test "every command without arguments refuses one, naming it, and writes nothing" {
	make_dbgfs
	local before cmds
	before=$(tree_sum)
	# the commands --help lists with nothing after them (or only options:
	# --format, --watch)
	cmds=$("$DAMOCTL" --help | sed -n 's/^  damoctl \([a-z-]* [a-z]*\)\( \[--\(watch\|format\).*\)\{0,1\}$/\1/p')
	[ "$(wc -l <<<"$cmds")" -ge 10 ]
	while read -r cmd; do
		# shellcheck disable=SC2086
		run damoctl $cmd frob
		assert_failure 2
		assert_output "damoctl: $cmd: no arguments expected, got 'frob'"
	done <<<"$cmds"
	[ "$(tree_sum)" = "$before" ]
}

@test "help OBJECT COMMAND works for every command of every object (scheme set once crashed it)" {
	local o k n=0
	while read -r o k; do
		run "$DAMOCTL" help "$o" "$k"
		assert_success
		assert_line --index 0 --partial "damoctl $o $k"
		n=$((n + 1))
	done < <("$DAMOCTL" help | sed -n 's/^  damoctl \([a-z-]*\) \([a-z][a-z]*\).*/\1 \2/p')
	[ "$n" -ge 25 ]
	run "$DAMOCTL" help scheme set
	assert_line --regexp '^  INDEX +the scheme.s index'
	assert_line --regexp '^  action ACTION +change the action$'
}
