#!/usr/bin/env bats
# One grammar, four descriptions: damoctl --help, the SYNOPSIS of
# damoctl(8), the bash completion (cli/damoctl.bash-completion, which asks
# damoctl) and the man pages.  These tests keep them naming the same things.

load helper

SRC="$BATS_TEST_DIRNAME/../.."

# Complete the words given (the last one is being typed) as bash would.
complete_words() {
	bash -c 'source "$1"; shift
		COMP_WORDS=(damoctl "$@"); COMP_CWORD=$#
		_damoctl
		printf "%s\n" "${COMPREPLY[@]}"' _ "$SRC/cli/damoctl.bash-completion" "$@"
}

# "OBJECT COMMAND" pairs: the first word after the object, brackets dropped.
pairs() { awk '{ w = $3; gsub(/[][]/, "", w); print $2, w }' | sort -u; }

help_pairs() {
	"$DAMOCTL" --help | sed -n 's/^  \(damoctl [a-z].*\)$/\1/p' | grep -v '^damoctl help' | pairs
}

man_pairs() {
	sed -n '/^\.SH SYNOPSIS/,/^\.SH/p' "$SRC/man/damoctl.8" |
		grep '^\\fBdamoctl [a-z]' | sed -e 's/\\f[BIR]//g' -e 's/\\-/-/g' |
		grep -v '^damoctl help' | pairs
}

completion_pairs() {
	local o c
	for o in $(complete_words ""); do
		[ "$o" = help ] && continue
		# an object whose first word is a file (record FILE)
		if [ "$("$DAMOCTL_SHIPPED" --complete -- "$o" "")" = @files ]; then
			echo "damoctl $o FILE"
			continue
		fi
		for c in $(complete_words "$o" ""); do
			case $c in -*) continue ;; esac
			echo "damoctl $o $c"
		done
	done | pairs
}

setup() {
	ROOT="$BATS_TEST_TMPDIR/root"
	mkdir -p "$ROOT"
	export PATH="$(dirname "$DAMOCTL_SHIPPED"):$PATH"
	cd "$BATS_TEST_TMPDIR"	# no file names among the candidates
}

@test "help, the man page SYNOPSIS and the bash completion name the same commands" {
	mkdir empty
	help_pairs > help
	man_pairs > man
	(cd empty && completion_pairs) > completion
	[ "$(wc -l < help)" -ge 19 ]
	run diff -u help man
	assert_success
	run diff -u help completion
	assert_success
}

@test "the objects: help, completion, the unknown-object message" {
	run complete_words ""
	local objs
	objs=$(tr '\n' ' ' <<<"$output" | sed 's/ $//')
	run "$DAMOCTL" frob
	assert_output "damoctl: unknown object 'frob' (objects: $objs)"
	for o in $objs; do
		[ "$o" = help ] && continue
		"$DAMOCTL" --help | grep -q "^  damoctl $o " || fail "--help lacks $o"
		"$DAMOCTL" help "$o" >/dev/null || fail "help $o fails"
	done
}

@test "completion: global options and their values, actions, files after apply" {
	run complete_words --int
	assert_output --interface
	run complete_words --interface ""
	assert_output "auto
sysfs
dbgfs"
	# the words are libdamos' own interface names, as its refusal lists them
	run "$DAMOCTL" --interface bogus monitor status
	assert_failure 2
	names=$(sed -n "s/.*unknown interface 'bogus' (interfaces: \(.*\))$/\1/p" <<<"$output")
	[ -n "$names" ] || fail "no list of interfaces in: $output"
	run complete_words --interface ""
	assert_output "$(tr ' ' '\n' <<<"$names")"
	run complete_words scheme add ""
	assert_output "$(for a in willneed cold pageout hugepage nohugepage lru_prio lru_deprio stat migrate_hot migrate_cold; do echo $a; done)"
	touch my.conf
	run complete_words apply m
	assert_output my.conf
	run complete_words --root . stats show ""
	assert_output "--watch
--count"
}

@test "every keyword the completion offers is one the commands take" {
	local kw
	# scheme add: the library's keywords
	for kw in $(complete_words scheme add pageout ""); do
		"$DAMOCTL" scheme encode pageout "$kw" 2>&1 | grep -q "unknown keyword" &&
			fail "scheme add does not take $kw"
	done
	for kw in $(complete_words lru-sort set ""); do
		"$DAMOCTL" --root . lru-sort set "$kw" 2>&1 | grep -q "unknown keyword" &&
			fail "lru-sort set does not take $kw"
	done
	# on a tree, so that the words are all that can fail
	make_dbgfs
	for kw in $(complete_words attrs set ""); do
		damoctl attrs set "$kw" 2>&1 | grep -q "unknown" &&
			fail "attrs set does not take $kw"
	done
	run damoctl attrs set frob 1
	assert_output --partial "unknown keyword 'frob'"
	for kw in $(sed -n 's/.*(expected \(.*\))$/\1/p' <<<"$output"); do
		complete_words attrs set "" | grep -qx "$kw" || fail "completion lacks attrs $kw"
	done
	for kw in $(complete_words target set paddr ""); do
		damoctl target set paddr "$kw" 2>&1 | grep -q "unknown" &&
			fail "target set paddr does not take $kw"
	done
	for kw in $(complete_words reclaim set ""); do
		"$DAMOCTL" --root . reclaim set "$kw" 2>&1 | grep -q "unknown keyword" &&
			fail "reclaim set does not take $kw"
	done
	for kw in $(complete_words scheme set 0 ""); do
		"$DAMOCTL" --root . scheme set 0 "$kw" 2>&1 | grep -q "unknown keyword" &&
			fail "scheme set does not take $kw"
	done
	# and every keyword of the commands' error messages is offered
	run "$DAMOCTL" reclaim set frob 1
	for kw in $(sed -n 's/.*(expected \(.*\))$/\1/p' <<<"$output"); do
		complete_words reclaim set "" | grep -qx "$kw" || fail "completion lacks reclaim $kw"
	done
	[ "$(complete_words reclaim set skip_anon "")" = "$(printf 'on\noff')" ]
	make_sysfs off 2
	run damoctl scheme set 0 frob 1
	assert_output --partial "unknown keyword 'frob'"
	for kw in $(sed -n 's/.*(expected \(.*\)); nothing was written$/\1/p' <<<"$output"); do
		complete_words scheme set 0 "" | grep -qx "$kw" || fail "completion lacks scheme set $kw"
	done
	complete_words scheme set 0 action "" | grep -qx migrate_cold
	run "$DAMOCTL" lru-sort set frob 1
	for kw in $(sed -n 's/.*(expected \(.*\))$/\1/p' <<<"$output"); do
		complete_words lru-sort set "" | grep -qx "$kw" || fail "completion lacks lru-sort $kw"
	done
	run "$DAMOCTL" scheme encode pageout frob 1
	for kw in $(sed -n 's/.*(expected \(.*\))$/\1/p' <<<"$output"); do
		complete_words scheme add pageout "" | grep -qx "$kw" || fail "completion lacks scheme $kw"
	done
}

@test "the man pages: mandoc -Tlint clean" {
	command -v mandoc >/dev/null || skip "mandoc not installed"
	run mandoc -Tlint -Wwarning "$SRC/man/damoctl.8" "$SRC/man/damoctl.conf.5" "$SRC/man/libdamos.3"
	assert_success
	assert_output ""
}

@test "damoctl(8) documents every command, EXIT STATUS, FILES, SEE ALSO and the examples asked for" {
	local page="$SRC/man/damoctl.8" sec
	for sec in SYNOPSIS OPTIONS "EXIT STATUS" FILES EXAMPLES "SEE ALSO" \
		"INTERACTIVE SHELL" "BATCH FILES" WATCHING "LRU\\\\-SORT" APPLY; do
		grep -q "^\.SH \"\?$sec\"\?$" "$page" || fail "no section $sec"
	done
	grep -q 'damoctl \\-\\-interface dbgfs scheme add lru_prio$' "$page"
	grep -q "^# echo '4096 18446744073709551615 10 4294967295 0 4294967295 6 5 0 1000 0 1 0 0 0 0 0 0'" "$page"
	# that echo is what damoctl writes
	make_dbgfs
	run damoctl --dry-run --interface dbgfs scheme add lru_prio
	assert_line "echo '4096 18446744073709551615 10 4294967295 0 4294967295 6 5 0 1000 0 1 0 0 0 0 0 0' > $ROOT/sys/kernel/debug/damon/schemes"
	grep -q 'BR damoctl.conf (5)' "$page"
	grep -q 'BR libdamos (3)' "$page"
}

@test "damoctl.conf(5) documents the directives the parser takes" {
	run "$DAMOCTL" --root . apply - <<<"frob"
	local d
	for d in $(sed -n "s/.*(expected \(.*\))$/\1/p" <<<"${lines[0]}"); do
		local re="^\\\\fB${d/-/\\\\\\-}[ \\\\]"
		sed -n '/^\.SH SYNOPSIS/,/^\.SH/p' "$SRC/man/damoctl.conf.5" | grep -q "$re" ||
			fail "damoctl.conf(5) lacks $d in its SYNOPSIS"
		sed -n '/^\.SH DIRECTIVES/,/^\.SH RULES/p' "$SRC/man/damoctl.conf.5" | grep -q "$re" ||
			fail "damoctl.conf(5) lacks $d in DIRECTIVES"
	done
}

@test "scheme rm TAB offers the scheme indexes, read with the options typed" {
	make_dbgfs
	damoctl scheme add stat
	damoctl scheme add pageout
	run complete_words --root "$ROOT" scheme rm ""
	assert_output "0
1"
	run complete_words --root="$ROOT" --interface dbgfs scheme rm 1
	assert_output 1
	# one index only, and nothing where there is no tree or no scheme
	run complete_words --root "$ROOT" scheme rm 0 ""
	assert_output ""
	run complete_words --root "$ROOT/none" scheme rm ""
	assert_output ""
	damoctl scheme clear
	run complete_words --root "$ROOT" scheme rm ""
	assert_output ""
	# --dry-run reads what is there; it writes nothing either way
	damoctl scheme add stat
	local before
	before=$(tree_sum)
	run complete_words --root "$ROOT" --dry-run scheme rm ""
	assert_output 0
	[ "$(tree_sum)" = "$before" ]
}

@test "the value words completed after filter, goal, wmarks and quota are the library's" {
	local words
	# the library lists them in its own refusals: those are the reference
	words() { sed -n "s/.*($1: \(.*\))$/\1/p" | tr ' ' '\n' | sort; }
	run "$DAMOCTL" scheme encode pageout filter bogus
	diff -u <({ echo "$output" | words types; echo not; } | sort) \
		<(complete_words scheme add pageout filter "" | sort) ||
		fail "filter types differ"
	run "$DAMOCTL" scheme encode pageout goal bogus 1
	diff -u <(echo "$output" | words metrics) \
		<(complete_words scheme add pageout goal "" | sort) ||
		fail "goal metrics differ"
	run "$DAMOCTL" scheme encode pageout wmarks bogus 1 2 3 4
	diff -u <(echo "$output" | words metrics) \
		<(complete_words scheme add pageout wmarks "" | sort) ||
		fail "wmarks metrics differ"
	for kw in $(complete_words scheme add pageout quota ""); do
		"$DAMOCTL" scheme encode pageout quota "$kw" 1 2>&1 | grep -q "unknown" &&
			fail "quota does not take $kw"
	done
	run "$DAMOCTL" scheme encode pageout quota
	diff -u <(sed -n 's/.*expected \(.*\)$/\1/p' <<<"$output" |
		  grep -o '\b[a-z]\+ [A-Z]\+' | cut -d' ' -f1) \
		<(complete_words scheme add pageout quota "" | head -3) ||
		fail "quota words differ"
}

@test "report heatmap: the keywords and values completed are the ones it takes, and its refusals list the same" {
	local kw
	for kw in $(complete_words report heatmap ""); do
		"$DAMOCTL" --root . report heatmap "$kw" 2>&1 | grep -q "unknown keyword" &&
			fail "report heatmap does not take $kw"
	done
	run "$DAMOCTL" --root . report heatmap frob 1
	assert_failure 2
	diff -u <(sed -n 's/.*(expected \(.*\))$/\1/p' <<<"$output" | sed 's/,\? or /, /' | tr -d , | tr ' ' '\n') \
		<(complete_words report heatmap "") || fail "keywords differ"
	run "$DAMOCTL" --root . report heatmap color bogus
	diff -u <(sed -n "s/.*is not one of \(.*\)$/\1/p" <<<"$output" | tr -d , | tr ' ' '\n') \
		<(complete_words report heatmap color "") || fail "color values differ"
	run "$DAMOCTL" --root . report heatmap source bogus
	diff -u <(sed -n "s/.*is not one of \(.*\)$/\1/p" <<<"$output" | tr -d , | tr ' ' '\n') \
		<(complete_words report heatmap source "") || fail "source values differ"
	# file names after --output and --data
	touch heat.png
	run complete_words report heatmap --output he
	assert_output heat.png
	run complete_words report heatmap duration 5s --data he
	assert_output heat.png
}
