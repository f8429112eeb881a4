#!/usr/bin/env bats
# The grammar in --help, the man page SYNOPSIS and the completion tables
# describe the same commands; the public header, the version script and
# the shared library export the same functions.

load helper

SRC="$BATS_TEST_DIRNAME/../.."

# The SYNOPSIS lines of damoctl.8 as plain text.
man_synopsis() {
	sed -n '/^\.SH SYNOPSIS/,/^\.SH/p' "$SRC/man/damoctl.8" |
		grep '^\\fBdamoctl [a-z]' |
		sed -e 's/\\f[BIR]//g' -e 's/\\-/-/g' -e 's/\\e/\\/g'
}

@test "every command of --help is in the man page SYNOPSIS, and back" {
	"$DAMOCTL" --help | sed -n 's/^  \(damoctl [a-z].*\)$/\1/p' |
		sort > "$BATS_TEST_TMPDIR/help"
	man_synopsis | grep -v '^damoctl help' | sort > "$BATS_TEST_TMPDIR/man"
	run diff -u "$BATS_TEST_TMPDIR/help" "$BATS_TEST_TMPDIR/man"
	assert_success
	[ "$(wc -l < "$BATS_TEST_TMPDIR/help")" -ge 14 ]
}

@test "every action is documented in damoctl help scheme and the man page" {
	for a in willneed cold pageout hugepage nohugepage lru_prio lru_deprio stat migrate_hot migrate_cold; do
		"$DAMOCTL" help scheme | grep -q "^  $a " || fail "help lacks $a"
		grep -q "fB$a\\\\fR" "$SRC/man/damoctl.8" || fail "man page lacks $a"
	done
}

# Public functions: DAMOS_API declarations, possibly over two lines.
header_api() {
	tr '\n' ' ' < "$SRC/lib/damos.h" | grep -o 'DAMOS_API[^;]*;' |
		grep -o 'damos_[a-z0-9_]*(' | tr -d '(' | sort -u
}

@test "lib/damos.h and lib/libdamos.map list the same functions" {
	header_api > "$BATS_TEST_TMPDIR/h"
	grep -o 'damos_[a-z0-9_]*;' "$SRC/lib/libdamos.map" | tr -d ';' |
		sort > "$BATS_TEST_TMPDIR/m"
	run diff -u "$BATS_TEST_TMPDIR/h" "$BATS_TEST_TMPDIR/m"
	assert_success
}

@test "libdamos.so exports exactly the header's functions, soname libdamos.so.0" {
	so="$(dirname "$DAMOCTL")/libdamos.so"
	[ -e "$so" ] || skip "no $so"
	command -v nm >/dev/null || skip "nm not installed"
	header_api > "$BATS_TEST_TMPDIR/h"
	nm -D --defined-only "$so" | awk '$2 == "T" { sub(/@.*/, "", $3); print $3 }' |
		sort > "$BATS_TEST_TMPDIR/so"
	run diff -u "$BATS_TEST_TMPDIR/h" "$BATS_TEST_TMPDIR/so"
	assert_success
	if command -v objdump >/dev/null; then
		run objdump -p "$so"
		assert_line --regexp 'SONAME +libdamos\.so\.0$'
	fi
}
