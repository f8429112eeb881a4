#!/usr/bin/env bats
# Scripts that echo schemes into DAMON's debugfs under bash: bash's echo and
# printf write a multi-line string one line per write(2).  The writes to one
# open file are one input (kernel patches "join the writes to one open
# 'schemes' or 'init_regions'" and "... 'target_ids' too"; a pid per line
# from a shell loop is the same), and each write is applied as if it ended
# the input: the whole content is set; a write that makes the input bad
# (a bad line, or a write that ends inside a line) fails, and so do the later
# writes to that open file, and the input fails whole: the content from
# before its first write comes back (kernel patch "fail the joined input of
# an open file whole"), unless another writer changed it in between.  With or
# without a last newline, the same bytes give the same result.

load helpers/common

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

# line N ACTION: a valid scheme line, different for every N.
line() { echo "$((4096 * ($1 + 1))) $ULONG_MAX 0 $U32_MAX $1 $U32_MAX $2 10 0 1000 0 0 100 0 0 0 0 0"; }

# The 18 input numbers of each scheme the file shows now: one read(2) of
# 128 KiB (cat's buffer), large enough for 256 schemes (the file formats all
# of them into the buffer of each read, or fails).  Exactly one: every read
# formats the schemes of that moment and returns them from the file offset,
# so cat's second read (for end of file) returns the tail of a longer
# content a writer set in between, glued to the first read's content.
schemes_now() { dd if="$DBGFS/schemes" bs=128K count=1 status=none | first_fields 18; }

@test "bash: echo of two lines (two writes) sets exactly both schemes" {
	local two
	two="$(line 1 6)
$(line 2 7)"
	run bash -c 'echo "$1" > "$2"' _ "$two" "$DBGFS/schemes"
	assert_success
	assert_equal "$(schemes_now)" "$two"
}

@test "bash: printf of 256 schemes (256 writes) sets exactly those, 257 keep them" {
	local -a want  # not "lines": bats' run overwrites that
	local i
	for ((i = 0; i < 256; i++)); do want+=("$(line "$i" $((i % 8)))"); done
	run bash -c 'l=("${@:2}"); printf "%s\n" "${l[@]}" > "$1"' _ "$DBGFS/schemes" "${want[@]}"
	assert_success
	assert_equal "$(schemes_now)" "$(printf '%s\n' "${want[@]}")"
	# one more is too many: the write fails, the 256 stay
	run bash -c 'l=("${@:2}"); printf "%s\n" "${l[@]}" > "$1"' _ "$DBGFS/schemes" "${want[@]}" "$(line 256 5)"
	assert_failure
	assert_equal "$(schemes_now)" "$(printf '%s\n' "${want[@]}")"
}

@test "bash: a bad line in the middle fails the whole echo: the schemes from before it stay" {
	local old
	old=$(line 9 5)
	echo "$old" > "$DBGFS/schemes"
	run bash -c 'echo "$1
garbage
$2" > "$3"' _ "$(line 1 6)" "$(line 2 7)" "$DBGFS/schemes"
	assert_failure
	assert_output --partial "Invalid argument"
	assert_equal "$(schemes_now)" "$old"
	# in one write (dash, dd): nothing of it is applied
	echo "$old" > "$DBGFS/schemes"
	run write_once "$DBGFS/schemes" "$(line 1 6)
garbage
$(line 2 7)"
	assert_failure
	assert_equal "$(schemes_now)" "$old"
	# a line too large for its field, in the last line
	run bash -c 'echo "$1
4096 8192 0 5 4294967296 4294967296 2 0 0 0 0 0 0 0 0 0 0 0" > "$2"' _ "$(line 1 6)" "$DBGFS/schemes"
	assert_failure
	assert_equal "$(schemes_now)" "$old"
}

@test "a write that ends inside a line fails and changes nothing, nor do the later writes" {
	local old two
	old=$(line 9 5)
	echo "$old" > "$DBGFS/schemes"
	two="$(line 3 6)
$(line 4 7)"
	run "$HELPERS/hostile_write" -c 7 "$DBGFS/schemes" "$two\n"
	assert_output --partial " ok=0 "
	assert_equal "$(schemes_now)" "$old"
}

@test "newline-less bad input (as damo 1.x writes) fails with EINVAL and keeps the old content" {
	local old input regions
	old=$(line 9 5)
	echo "$old" > "$DBGFS/schemes"
	for input in "4096 8192 0 5 10 20 2" "1 2 3 4 5 6 7 8 9" "4096 8192 0"; do
		run bash -c 'printf "%s" "$1" > "$2"' _ "$input" "$DBGFS/schemes"
		assert_failure
		assert_output --partial "Invalid argument"
		assert_equal "$(schemes_now)" "$old"
	done
	# a complete line, then an unfinished one: the input fails whole
	run bash -c 'printf "%s\n%s" "$1" "4096 8192 0" > "$2"' _ "$(line 1 6)" "$DBGFS/schemes"
	assert_failure
	assert_equal "$(schemes_now)" "$old"
	# a good newline-less line is applied
	run bash -c 'printf "%s" "$1" > "$2"' _ "$(line 2 7)" "$DBGFS/schemes"
	assert_success
	assert_equal "$(schemes_now)" "$(line 2 7)"

	echo $$ > "$DBGFS/target_ids"
	echo "0 100 200" > "$DBGFS/init_regions"
	for input in "0 300 200" "0 100 200 0 150 300"; do
		run bash -c 'printf "%s" "$1" > "$2"' _ "$input" "$DBGFS/init_regions"
		assert_failure
		assert_output --partial "Invalid argument"
		regions=$(< "$DBGFS/init_regions")
		assert_equal "$regions" "0 100 200"
	done
	run bash -c 'printf "%s" "0 100 200 0 300 400" > "$1"' _ "$DBGFS/init_regions"
	assert_success
	regions=$(< "$DBGFS/init_regions")
	assert_equal "$regions" "0 100 200
0 300 400"
	echo > "$DBGFS/target_ids"
}

@test "an open file takes at most 96 KiB: the write past it fails with EFBIG and the input fails whole" {
	local old pad
	old=$(line 9 5)
	echo "$old" > "$DBGFS/schemes"
	pad=$(printf '%60s' '')
	# a scheme, then lines of 60 spaces, one per write, as a bash loop
	# writes them: the 1,611th write ends past 98,304 bytes
	run bash -c 'exec 3> "$1"; echo "$2" >&3 || exit 9
		for ((i = 1; i <= 2000; i++)); do
			echo "$3" >&3 || { echo "write $i failed"; exit 1; }
		done' _ "$DBGFS/schemes" "$(line 1 6)" "$pad"
	assert_failure 1
	assert_output --partial "File too large"
	assert_output --partial "write 1611 failed"
	assert_equal "$(schemes_now)" "$old"
	# the same input under the cap, in one write, is taken
	run bash -c 'exec 3> "$1"; echo "$2" >&3 || exit 9
		for ((i = 1; i <= 1610; i++)); do
			echo "$3" >&3 || { echo "write $i failed"; exit 1; }
		done' _ "$DBGFS/schemes" "$(line 1 6)" "$pad"
	assert_success
	assert_equal "$(schemes_now)" "$(line 1 6)"
	# init_regions and target_ids have the same cap
	run bash -c 'head -c 98305 /dev/zero | tr "\\0" " " > "$1"' _ "$DBGFS/init_regions"
	assert_failure
	assert_output --partial "File too large"
	run bash -c 'head -c 98305 /dev/zero | tr "\\0" " " > "$1"' _ "$DBGFS/target_ids"
	assert_failure
	assert_output --partial "File too large"
}

@test "two bash writers on their own opens at once: the schemes are always one whole content" {
	local a b st i
	a="$(line 1 6)
$(line 2 7)"
	b="$(line 3 2)
$(line 4 5)
$(line 5 6)"
	bash -c 'for i in $(seq 30); do echo "$1" > "$2" || exit 1; done' _ "$a" "$DBGFS/schemes" &
	local pa=$!
	bash -c 'for i in $(seq 30); do echo "$1" > "$2" || exit 1; done' _ "$b" "$DBGFS/schemes" &
	local pb=$!
	local seen=
	for i in $(seq 30); do
		st=$(schemes_now)
		case $st in
		"$a"|"$b"|"$(line 1 6)"|"$(line 3 2)"|"$(line 3 2)
$(line 4 5)") seen=1 ;;	# a write in progress shows its lines so far
		# empty (as setup left it) until the first write of either
		# (kill || true: a writer that has ended must not fail the test
		# before it says what it read)
		"") [ -z "$seen" ] || { kill $pa $pb 2>/dev/null || true; fail "read $i: empty after a write"; } ;;
		*) kill $pa $pb 2>/dev/null || true; fail "read $i: a mix of two writers' schemes: $st" ;;
		esac
	done
	wait $pa || fail "writer a failed"
	wait $pb || fail "writer b failed"
	st=$(schemes_now)
	[ "$st" = "$a" ] || [ "$st" = "$b" ] || fail "after both writers: $st"
}

@test "dash (one write for the whole echo) still sets both schemes" {
	local two
	two="$(line 1 6)
$(line 2 7)"
	run sh -c 'echo "$1" > "$2"' _ "$two" "$DBGFS/schemes"
	assert_success
	assert_equal "$(schemes_now)" "$two"
}

@test "target_ids: one pid per write (bash) and one write (dash) set the same targets; a bad line fails and keeps them" {
	local p1=$$ p2=$PPID
	# bash: the loop's echo writes each line with its own write(2)
	run bash -c 'for p in "${@:2}"; do echo "$p"; done > "$1"' _ "$DBGFS/target_ids" "$p1" "$p2"
	assert_success
	assert_equal "$(< "$DBGFS/target_ids")" "$p1 $p2"
	echo > "$DBGFS/target_ids"
	assert_equal "$(< "$DBGFS/target_ids")" ""
	# dash: printf writes both lines in one write(2)
	run sh -c 'printf "%s\n" "$2" "$3" > "$1"' _ "$DBGFS/target_ids" "$p1" "$p2"
	assert_success
	assert_equal "$(< "$DBGFS/target_ids")" "$p1 $p2"

	# a bad line fails its write and the later ones, and the input fails
	# whole: the line before it (bash wrote it alone) is undone
	run bash -c 'for p in "${@:2}"; do echo "$p"; done > "$1"' _ "$DBGFS/target_ids" "$p2" garbage "$p1"
	assert_failure
	assert_output --partial "Invalid argument"
	assert_equal "$(< "$DBGFS/target_ids")" "$p1 $p2"
	# in one write, nothing of it is applied
	printf '%s\n' "$p1" "$p2" > "$DBGFS/target_ids"
	run write_once "$DBGFS/target_ids" "$p2
garbage
$p1
"
	assert_failure
	assert_equal "$(< "$DBGFS/target_ids")" "$p1 $p2"
	# a bad first line keeps the old targets, however it is written
	run bash -c 'for p in "${@:2}"; do echo "$p"; done > "$1"' _ "$DBGFS/target_ids" garbage "$p2"
	assert_failure
	assert_equal "$(< "$DBGFS/target_ids")" "$p1 $p2"
	run sh -c 'printf "%s\n" garbage "$2" > "$1"' _ "$DBGFS/target_ids" "$p2"
	assert_failure
	assert_equal "$(< "$DBGFS/target_ids")" "$p1 $p2"
	# without a last newline, the same
	run bash -c 'printf "%s\n%s" "$2" "$3" > "$1"' _ "$DBGFS/target_ids" "$p2" "$p1"
	assert_success
	assert_equal "$(< "$DBGFS/target_ids")" "$p2 $p1"
	echo > "$DBGFS/target_ids"
}

@test "init_regions: malformed input fails with EINVAL and keeps the regions, in one write, as bash writes it, and without a last newline" {
	local input regions
	echo $$ > "$DBGFS/target_ids"
	echo "0 100 200" > "$DBGFS/init_regions"
	# stock (and v3) took what sscanf() could read and succeeded: garbage
	# removed the regions, a bad second line dropped the lines after it
	for input in garbage "0 1 100 junk" "0 100" "0 1 100 1" "+0 1 100" \
		"0 0x10 0x20" "0 1 18446744073709551616" "4294967296 1 100" \
		$'0 1\n100' $'0 30 50 x\n0 1 2' "1 300 400"; do
		run write_once "$DBGFS/init_regions" "$input"
		assert_failure
		assert_output --partial "Invalid argument"
		regions=$(< "$DBGFS/init_regions")
		assert_equal "$regions" "0 100 200"
		run bash -c 'echo "$1" > "$2"' _ "$input" "$DBGFS/init_regions"
		assert_failure
		regions=$(< "$DBGFS/init_regions")
		assert_equal "$regions" "0 100 200"
		run bash -c 'printf "%s" "$1" > "$2"' _ "$input" "$DBGFS/init_regions"
		assert_failure
		regions=$(< "$DBGFS/init_regions")
		assert_equal "$regions" "0 100 200"
	done
	# a NUL byte does not hide what follows it
	run bash -c 'printf "0 5 10\0junk" > "$1"' _ "$DBGFS/init_regions"
	assert_failure
	regions=$(< "$DBGFS/init_regions")
	assert_equal "$regions" "0 100 200"
	# bash's echo of a good line, then a bad one: the echo fails whole
	run bash -c 'echo "0 1 100
0 30 50 x
0 200 300" > "$1"' _ "$DBGFS/init_regions"
	assert_failure
	regions=$(< "$DBGFS/init_regions")
	assert_equal "$regions" "0 100 200"
	# several regions on a line, as damo 1.x writes them, and one a line
	run write_once "$DBGFS/init_regions" "0 100 200 0 300 400"
	assert_success
	regions=$(< "$DBGFS/init_regions")
	assert_equal "$regions" $'0 100 200\n0 300 400'
	run bash -c 'echo "0   1       100
        0   100     200" > "$1"' _ "$DBGFS/init_regions"
	assert_success
	regions=$(< "$DBGFS/init_regions")
	assert_equal "$regions" $'0 1 100\n0 100 200'
	echo > "$DBGFS/target_ids"
}

@test "a bash loop whose third line is bad leaves schemes, init_regions and target_ids as before its first line" {
	local old regions
	old="$(line 8 5)
$(line 9 6)"
	echo "$old" > "$DBGFS/schemes"
	run bash -c 'for l in "${@:2}"; do echo "$l"; done > "$1"' _ "$DBGFS/schemes" \
		"$(line 1 6)" "$(line 2 7)" garbage "$(line 3 2)"
	assert_failure
	assert_output --partial "Invalid argument"
	assert_equal "$(schemes_now)" "$old"

	echo $$ > "$DBGFS/target_ids"
	echo "0 100 200" > "$DBGFS/init_regions"
	run bash -c 'for l in "${@:2}"; do echo "$l"; done > "$1"' _ "$DBGFS/init_regions" \
		"0 1 10" "0 20 30" "0 40 x" "0 50 60"
	assert_failure
	regions=$(< "$DBGFS/init_regions")
	assert_equal "$regions" "0 100 200"

	run bash -c 'for l in "${@:2}"; do echo "$l"; done > "$1"' _ "$DBGFS/target_ids" \
		"$PPID" 1 garbage "$$"
	assert_failure
	assert_equal "$(< "$DBGFS/target_ids")" "$$"
	# the targets came back with their regions
	regions=$(< "$DBGFS/init_regions")
	assert_equal "$regions" "0 100 200"
	echo > "$DBGFS/target_ids"
}

@test "a failed input never puts back over what another open file wrote after it" {
	local a b fa fb
	a=$(line 1 6)
	b=$(line 2 7)
	echo "$(line 9 5)" > "$DBGFS/schemes"
	# fds of bash's choosing: bats reports on fd 3
	exec {fa}> "$DBGFS/schemes" {fb}> "$DBGFS/schemes"
	echo "$a" >&"$fa"
	echo "$b" >&"$fb"
	# fa fails: fb wrote after it, so fb's scheme stays
	if echo garbage >&"$fa"; then exec {fa}>&- {fb}>&-; fail "a bad line on fa succeeded"; fi
	assert_equal "$(schemes_now)" "$b"
	# fb fails: what fb replaced, fa's scheme, comes back
	if echo garbage >&"$fb"; then exec {fa}>&- {fb}>&-; fail "a bad line on fb succeeded"; fi
	exec {fa}>&- {fb}>&-
	assert_equal "$(schemes_now)" "$a"
}
