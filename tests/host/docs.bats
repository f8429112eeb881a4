#!/usr/bin/env bats
# The grammar in --help, the man page SYNOPSIS and the completion tables
# describe the same commands; the public header, the version script and
# the shared library export the same functions.

load helper

SRC="$BATS_TEST_DIRNAME/../.."

# The SYNOPSIS lines of damoctl.8 as plain text, an indented line (the
# rest of a long one, for 80 columns) joined to the line before it.
man_synopsis() {
	sed -n '/^\.SH SYNOPSIS/,/^\.SH/p' "$SRC/man/damoctl.8" |
		awk '/^ / { sub(/^ +/, " "); line = line $0; next }
		     { if (line != "") print line; line = $0 }
		     END { if (line != "") print line }' |
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

# The global options of damoctl's table (cli_options[] in cli/options.c,
# which the option parser, --help and the completion all read), as --help
# lists them: "-r, --root DIR", "--force".
help_options() {
	"$DAMOCTL" --help | sed -n '/^Options:$/,/^$/p' |
		awk 'NR > 1 && NF { sub(/^ +/, ""); sub(/  .*/, ""); print }'
}

# The .TP headings of OPTIONS in damoctl(8) (or PAGE), as plain text.
man_options() {	# [PAGE]
	sed -n '/^\.SH OPTIONS/,/^\.SH [^O]/p' "${1:-$SRC/man/damoctl.8}" |
		awk 'tp { print; tp = 0 } /^\.TP/ { tp = 1 }' |
		sed -e 's/\\f[BIR]//g' -e 's/\\-/-/g'
}

@test "every global option of damoctl's table is in OPTIONS of damoctl(8), with its letter and value, and back" {
	help_options > "$BATS_TEST_TMPDIR/table"
	man_options > "$BATS_TEST_TMPDIR/man"
	[ "$(wc -l < "$BATS_TEST_TMPDIR/table")" -ge 11 ]
	grep -qx -- '-r, --root DIR' "$BATS_TEST_TMPDIR/table"
	grep -qx -- '--force' "$BATS_TEST_TMPDIR/table"
	run diff -u "$BATS_TEST_TMPDIR/table" "$BATS_TEST_TMPDIR/man"
	assert_success
	# an option's entry lost from the page is found
	sed '/^\.TP$/{N;/\\-\\-wait\\fR/d}' "$SRC/man/damoctl.8" > "$BATS_TEST_TMPDIR/damoctl.8"
	man_options "$BATS_TEST_TMPDIR/damoctl.8" > "$BATS_TEST_TMPDIR/man"
	run diff -u "$BATS_TEST_TMPDIR/table" "$BATS_TEST_TMPDIR/man"
	assert_failure
	assert_output --partial '
--w, --wait SECONDS
 -f, --file FILE|-'
}

@test "every scheme keyword of the library's table has its paragraph in damoctl(8), and back" {
	# the table, as scheme add --help lists it (one row a keyword)
	"$DAMOCTL" help scheme add | sed -n 's/^  \([a-z_][a-z_]*\) .*/\1/p' |
		sort > "$BATS_TEST_TMPDIR/table"
	[ "$(wc -l < "$BATS_TEST_TMPDIR/table")" -ge 10 ]
	# the man page: the .TP entries after "Keywords, each at most once"
	sed -n '/^Keywords, each at most once/,/^\.RE/p' "$SRC/man/damoctl.8" |
		awk 'tp { print; tp = 0 } /^\.TP/ { tp = 1 }' |
		sed -n 's/^\\fB\([a-z_]*\)\\fR.*/\1/p' | sort > "$BATS_TEST_TMPDIR/man"
	run diff -u "$BATS_TEST_TMPDIR/table" "$BATS_TEST_TMPDIR/man"
	assert_success
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
		grep -o 'damo[ns]_[a-z0-9_]*(' | tr -d '(' | sort -u
}

@test "lib/damos.h and lib/libdamos.map list the same functions" {
	header_api > "$BATS_TEST_TMPDIR/h"
	grep -o 'damo[ns]_[a-z0-9_]*;' "$SRC/lib/libdamos.map" | tr -d ';' |
		sort > "$BATS_TEST_TMPDIR/m"
	run diff -u "$BATS_TEST_TMPDIR/h" "$BATS_TEST_TMPDIR/m"
	assert_success
}

@test "libdamos.so exports exactly the header's functions, soname libdamos.so.1" {
	so="$(dirname "$DAMOCTL_SHIPPED")/libdamos.so"
	[ -e "$so" ] || skip "no $so"
	command -v nm >/dev/null || skip "nm not installed"
	header_api > "$BATS_TEST_TMPDIR/h"
	nm -D --defined-only "$so" | awk '$2 == "T" { sub(/@.*/, "", $3); print $3 }' |
		sort > "$BATS_TEST_TMPDIR/so"
	run diff -u "$BATS_TEST_TMPDIR/h" "$BATS_TEST_TMPDIR/so"
	assert_success
	if command -v objdump >/dev/null; then
		run objdump -p "$so"
		assert_line --regexp 'SONAME +libdamos\.so\.1$'
	fi
}

@test "every function of lib/damos.h has kernel-doc of its own, every parameter and the return value described, every struct and enum its members, and libdamos(3) names the functions" {
	run "$SRC/tests/host/kerneldoc.py" "$SRC/lib/damos.h" "$SRC/man/libdamos.3"
	assert_success
	assert_output ""
	# a parameter line lost, a title naming another function, a Return:
	# section lost, a struct's member and an enum's value undescribed and
	# a struct's comment that is not kernel-doc are found
	sed -e '/^ \* damon_open() - /,/^ \*\//{/^ \* @opts: /d}' \
		-e 's/^ \* damos_scheme_free() - / * damos_scheme_gone() - /' \
		-e '/^ \* damon_attrs_encode() - /,/^ \*\//{/^ \* Return: /d}' \
		-e '/^ \* struct damon_attrs - /,/^ \*\//{/^ \* @max_nr_regions: /d}' \
		-e '/^ \* enum damos_action - /,/^ \*\//{/^ \* @DAMOS_ACTION_COLD: /d}' \
		"$SRC/lib/damos.h" |
		sed '/^\/\*\*$/{N;s/^\/\*\*\n\( \* struct damon_opts - \)/\/*\n\1/}' \
		> "$BATS_TEST_TMPDIR/damos.h"
	run "$SRC/tests/host/kerneldoc.py" "$BATS_TEST_TMPDIR/damos.h" "$SRC/man/libdamos.3"
	assert_failure
	assert_line "damon_open: parameter @opts not described"
	assert_line --partial "damos_scheme_free: its comment is titled"
	assert_line 'damon_attrs_encode: returns int, no "Return:" section'
	assert_line "struct damon_attrs: member @max_nr_regions not described"
	assert_line "enum damos_action: member @DAMOS_ACTION_COLD not described"
	assert_line "struct damon_opts: its comment is not kernel-doc (/**)"
	[ "${#lines[@]}" = 6 ] || fail "expected 6 faults: $output"
}

# A page as the reader sees it at 80 columns: mandoc, and man(1) if there.
rendered() {	# PAGE TOOL
	case $2 in
	mandoc) mandoc -T ascii -O width=80 "$1" ;;
	man) MANWIDTH=80 man -l "$1" 2>/dev/null ;;
	esac | sed 's/.\x08//g'
}

@test "no SYNOPSIS line of damoctl(8), damoctl.conf(5) or libdamos(3) is wider than 80 columns" {
	command -v mandoc >/dev/null || fail "mandoc is not installed (make deps)"
	local page tool wide
	for tool in mandoc man; do
		[ "$tool" = man ] && ! command -v man >/dev/null && continue
		for page in damoctl.8 damoctl.conf.5 libdamos.3; do
			rendered "$SRC/man/$page" "$tool" > "$BATS_TEST_TMPDIR/r"
			# the page rendered at all: its SYNOPSIS is there
			grep -q '^SYNOPSIS$' "$BATS_TEST_TMPDIR/r" || fail "$tool: $page has no SYNOPSIS"
			wide=$(awk '/^SYNOPSIS$/ { s = 1; next } /^[A-Z]/ { s = 0 }
				    s && length > 80 { print length ": " $0 }' "$BATS_TEST_TMPDIR/r")
			[ -z "$wide" ] || fail "$tool: $page: SYNOPSIS lines wider than 80 columns:
$wide"
		done
	done
	# and the SYNOPSIS still has every command (joined lines)
	[ "$(man_synopsis | grep -c '^damoctl scheme add ACTION .*goal METRIC TARGET \[CURRENT\]\]\.\.\.$')" = 1 ]
}

@test "the libdamos(3) example's output, as the page shows it, is what damoctl encodes on a fake tree" {
	# install.bats compiles the program and compares its output with this line
	local claimed
	claimed=$(libdamos3_example 3)
	[ "$(wc -l <<<"$claimed")" = 1 ] && [ -n "$claimed" ] ||
		fail "no single output line in libdamos(3) EXAMPLES"
	libdamos3_example 1 | grep -q '"lru_prio", "age", "0", "5s"' ||
		fail "the program does not encode lru_prio age 0 5s"
	grep -q 'damoctl scheme encode lru_prio age 0 5s' "$SRC/man/libdamos.3"
	# under the kernel's default attributes, as the page says
	make_dbgfs
	[ "$(cat "$ROOT/sys/kernel/debug/damon/attrs")" = "5000 100000 60000000 10 1000" ]
	run damoctl scheme encode lru_prio age 0 5s
	assert_output "$claimed"
}

# (issue 45) what the pages and the README say of the binary, checked
# against it: the shell's banner, the exit statuses, the environment it
# reads, the module files, the package names.

@test "damoctl(8)'s shell transcript starts with the banner this damoctl prints, its version included" {
	version=$("$DAMOCTL" --version | awk '{ print $2; exit }')
	[ -n "$version" ]
	banner=$(sed -n 's/\\-/-/g; /type help for the commands/p' "$SRC/man/damoctl.8")
	# the format string of cli/shell.c with the version in it
	fmt=$(sed -n 's/.*fprintf(c->out, "\(damoctl %s: type help[^"]*\)\\n".*/\1/p' "$SRC/cli/shell.c")
	[ -n "$fmt" ]
	# shellcheck disable=SC2059
	[ "$banner" = "$(printf "$fmt" "$version")" ] ||
		fail "man: '$banner'; damoctl $version prints '$(printf "$fmt" "$version")'"
}

@test "--help's exit statuses are EXIT STATUS of damoctl(8), 3 included" {
	man=$(sed -n '/^\.SH "EXIT STATUS"/,/^\.SH/p' "$SRC/man/damoctl.8" |
		awk '/^\.B [0-9]+$/ { print $2 }' | paste -sd' ')
	help=$("$DAMOCTL" --help | sed -n 's/^Exit status: //p' | grep -o '[0-9] [a-z]' |
		cut -c1 | paste -sd' ')
	[ "$man" = "0 1 2 3" ]
	[ "$help" = "$man" ] || fail "--help: $help; man: $man"
	# and the held signal's status (issue 41), in both
	sed -n '/^\.SH "EXIT STATUS"/,/^\.SH/p' "$SRC/man/damoctl.8" | grep -qx '\.B 128 + N'
	"$DAMOCTL" --help | grep -q '^128+N signal N came while writing'
}

@test "ENVIRONMENT of damoctl(8) names every variable damoctl reads, and nothing else" {
	# getenv("NAME"), and the names passed by variable (term_dim's, the locale's)
	grep -oh 'getenv("[A-Z_]*")' "$SRC"/cli/*.c "$SRC"/lib/*.c |
		sed 's/getenv("\(.*\)")/\1/' > "$BATS_TEST_TMPDIR/code"
	grep -oh 'term_dim(c, "[A-Z_]*"' "$SRC/cli/heatmap.c" | grep -o '"[A-Z_]*"' | tr -d '"' >> "$BATS_TEST_TMPDIR/code"
	sed -n 's/.*vars\[\] = {\(.*\)};/\1/p' "$SRC/cli/heatmap.c" | grep -o '[A-Z][A-Z_]*' >> "$BATS_TEST_TMPDIR/code"
	sort -u -o "$BATS_TEST_TMPDIR/code" "$BATS_TEST_TMPDIR/code"
	[ "$(wc -l < "$BATS_TEST_TMPDIR/code")" -ge 8 ]
	sed -n '/^\.SH ENVIRONMENT/,/^\.SH [^E]/p' "$SRC/man/damoctl.8" |
		awk 'tp { print; tp = 0 } /^\.TP/ { tp = 1 }' |
		sed -e 's/^\.BR\? //' -e 's/"//g' -e 's/ , /\n/g' | tr -d ' ' | sort -u > "$BATS_TEST_TMPDIR/man"
	run diff -u "$BATS_TEST_TMPDIR/code" "$BATS_TEST_TMPDIR/man"
	assert_success
}

@test "FILES of damoctl(8) names the parameters of every module libdamos drives" {
	mods=$(sed -n 's/^\t{ "[a-z_]*", "\(damon_[a-z_]*\)", .*/\1/p' "$SRC/lib/module.c")
	[ "$(wc -w <<<"$mods")" -ge 2 ]
	for m in $mods; do
		sed -n '/^\.SH FILES/,/^\.SH/p' "$SRC/man/damoctl.8" |
			grep -qx ".I /sys/module/$m/parameters/" || fail "FILES lacks $m"
	done
}

@test "the README's make deb names the packages of debian/control" {
	control=$(sed -n 's/^Package: //p' "$SRC/debian/control" | sort | paste -sd' ')
	readme=$(grep '^| `make deb' "$SRC/README.md" | grep -o '`[a-z0-9-]*`' | tr -d '`' |
		grep -v '^make' | sort | paste -sd' ')
	[ -n "$control" ]
	[ "$readme" = "$control" ] || fail "README: $readme; debian/control: $control"
}

@test "the README says what make check costs, not the history of its timings (CHANGES keeps that)" {
	# one figure for make check, no table of stages, no earlier runs
	run grep -c '^| .* | .*[0-9]m[0-9][0-9]s' "$SRC/README.md"
	assert_output 0
	run grep -E 'Before: [0-9]+m|commit [0-9a-f]{7}' "$SRC/README.md"
	assert_failure
	grep -q 'make check' "$SRC/README.md"
}
