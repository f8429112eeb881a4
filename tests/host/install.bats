#!/usr/bin/env bats
# make install (PREFIX, DESTDIR) into a scratch tree: the shared library
# with its soname, the static one, the header, libdamos.pc, damoctl, the man
# pages, the bash completion and the systemd unit; then programs built
# against the installed tree with pkg-config.

load helper

SRC="$BATS_TEST_DIRNAME/../.."

setup_file() {
	export BUILD_DIR INST
	BUILD_DIR=$(cd "$(dirname "$DAMOCTL_SHIPPED")" && pwd)
	INST="$BATS_FILE_TMPDIR/destdir"
	make -C "$SRC" --no-print-directory -j2 BUILD="$BUILD_DIR" install \
		DESTDIR="$INST" PREFIX=/usr >"$BATS_FILE_TMPDIR/install.log" 2>&1 ||
		{ cat "$BATS_FILE_TMPDIR/install.log" >&3; return 1; }
}

# A sanitized build (make check-sanitize) needs the runtime in the programs.
san_flags() {
	if ldd "$INST/usr/lib/libdamos.so.1" 2>/dev/null | grep -q libasan; then
		echo "-fsanitize=address,undefined"
	fi
}

pc() {
	PKG_CONFIG_SYSROOT_DIR="$INST" PKG_CONFIG_LIBDIR="$INST/usr/lib/pkgconfig" \
		pkg-config "$@" libdamos
}

@test "the files, where PREFIX=/usr puts them" {
	local f
	for f in usr/bin/damoctl usr/include/damos.h usr/lib/libdamos.a \
		usr/lib/pkgconfig/libdamos.pc usr/share/man/man8/damoctl.8 \
		usr/share/man/man5/damoctl.conf.5 usr/share/man/man3/libdamos.3 \
		usr/share/bash-completion/completions/damoctl \
		usr/lib/systemd/system/damoctl.service; do
		[ -f "$INST/$f" ] || fail "missing $f"
	done
	[ -x "$INST/usr/bin/damoctl" ]
	run "$INST/usr/bin/damoctl" --version
	assert_success
}

@test "the shared library: libdamos.so -> .so.1 -> .so.VERSION, soname libdamos.so.1" {
	[ "$(readlink "$INST/usr/lib/libdamos.so")" = libdamos.so.1 ]
	[ "$(readlink "$INST/usr/lib/libdamos.so.1")" = "libdamos.so.$(cat "$SRC/VERSION")" ]
	command -v objdump >/dev/null || skip "objdump not installed"
	run objdump -p "$INST/usr/lib/libdamos.so.1"
	assert_line --regexp 'SONAME +libdamos\.so\.1$'
}

@test "pkg-config: the EXAMPLES program of libdamos(3), shared and static" {
	run pc --modversion
	assert_output "$(cat "$SRC/VERSION")"
	# the first example of the man page, as written there
	sed -n '/^\.SH EXAMPLES/,/^\.SH FILES/p' "$SRC/man/libdamos.3" |
		sed -n '/^#include <stdio.h>/,/^}/p' | sed 's/\\e/\\/g' > "$BATS_TEST_TMPDIR/lru.c"
	grep -q 'int main' "$BATS_TEST_TMPDIR/lru.c"
	# shellcheck disable=SC2046
	cc -Wall -Werror $(san_flags) -o "$BATS_TEST_TMPDIR/lru" "$BATS_TEST_TMPDIR/lru.c" $(pc --cflags --libs)
	LD_LIBRARY_PATH="$INST/usr/lib" run "$BATS_TEST_TMPDIR/lru"
	assert_success
	assert_output "$("$DAMOCTL" scheme encode lru_prio age 0 5s)"
	# and the line the page says it prints (issue 14)
	assert_output "$(libdamos3_example 3)"
	[ -z "$(san_flags)" ] || skip "static link of a sanitized libdamos.a"
	# shellcheck disable=SC2046
	cc -Wall -Werror -static -o "$BATS_TEST_TMPDIR/lru-static" "$BATS_TEST_TMPDIR/lru.c" \
		$(pc --cflags) "$INST/usr/lib/libdamos.a"
	run "$BATS_TEST_TMPDIR/lru-static"
	assert_success
}

@test "a program parses scheme words, sets damon_lru_sort's parameters and reads a setup through the installed library" {
	cat > "$BATS_TEST_TMPDIR/words.c" <<-'EOF'
	#include <stdio.h>
	#include <string.h>
	#include <damos.h>

	int main(int argc, char **argv)
	{
		const char *bad[] = { "stat", "age", "5x", "max" };
		struct damon_opts o = DAMON_OPTS_INIT;
		struct damon_module *m = damon_module_new("lru_sort");
		struct damon_setup *s;

		if (argc != 2 || !m || damos_scheme_parse(4, bad, NULL))
			return 1;
		printf("%s\n", damos_errmsg());
		for (size_t p = 0; p < damon_module_nr_params(m); p++)
			if (!strcmp(damon_module_param_name(m, p), "hot_thres_access_freq") &&
			    damon_module_set(m, p, 300))
				return 2;
		if (damon_module_validate(m))
			return 3;
		damon_module_free(m);
		o.root = argv[1];
		if (damon_setup_read(&o, &s))
			return 4;
		printf("%s: %zu kdamonds, %zu modules\n", damon_iface_name(s->iface),
		       s->nr_kdamonds, s->nr_modules);
		damon_setup_free(s);
		return 0;
	}
	EOF
	# shellcheck disable=SC2046
	cc -Wall -Werror $(san_flags) -o "$BATS_TEST_TMPDIR/words" "$BATS_TEST_TMPDIR/words.c" $(pc --cflags --libs)
	mkdir -p "$BATS_TEST_TMPDIR/root/sys/kernel/mm/damon/admin/kdamonds"
	echo 0 > "$BATS_TEST_TMPDIR/root/sys/kernel/mm/damon/admin/kdamonds/nr_kdamonds"
	LD_LIBRARY_PATH="$INST/usr/lib" run "$BATS_TEST_TMPDIR/words" "$BATS_TEST_TMPDIR/root"
	assert_success
	assert_line --index 0 --partial "'5x'"
	assert_line --index 1 "sysfs: 0 kdamonds, 0 modules"
}

@test "the installed library is the DAMON model: damoctl's config parser and word splitter are not in it" {
	run nm -D --defined-only "$INST/usr/lib/libdamos.so.1"
	assert_success
	assert_output --partial "damos_scheme_parse"
	refute_output --partial "damos_config_"
	refute_output --partial "damos_words_"
	run grep -c 'damos_config\|damos_words\|cli_conf\|cli_words' "$INST/usr/include/damos.h"
	assert_output 0
	cat > "$BATS_TEST_TMPDIR/conf.c" <<-'EOF'
	#include <string.h>
	#include <damos.h>

	int main(void)
	{
		struct damos_config *c;

		return damos_config_parse("monitor on\n", 11, &c);
	}
	EOF
	# shellcheck disable=SC2046
	run cc -o "$BATS_TEST_TMPDIR/conf" "$BATS_TEST_TMPDIR/conf.c" $(pc --cflags --libs)
	assert_failure
	assert_output --partial "damos_config_parse"
}

@test "the man pages: installed where man finds them, and they render" {
	local page
	for page in damoctl damoctl.conf libdamos; do
		run env MANPATH="$INST/usr/share/man" man -w "$page"
		assert_success
		assert_output --partial "$INST/usr/share/man/"
		MANPATH="$INST/usr/share/man" MANWIDTH=80 man "$page" 2>/dev/null |
			grep -q '^SYNOPSIS' || fail "man $page does not render"
	done
}

@test "the unit: ExecStart with the installed damoctl, systemd-analyze verify" {
	run grep '^ExecStart=' "$INST/usr/lib/systemd/system/damoctl.service"
	assert_output "ExecStart=/usr/bin/damoctl apply /etc/damoctl.conf"
	command -v systemd-analyze >/dev/null || skip "systemd-analyze not installed"
	mkdir -p "$BATS_TEST_TMPDIR/unit"
	sed "s|/usr/bin/damoctl|$INST/usr/bin/damoctl|" \
		"$INST/usr/lib/systemd/system/damoctl.service" > "$BATS_TEST_TMPDIR/unit/damoctl.service"
	run systemd-analyze verify --man=no "$BATS_TEST_TMPDIR/unit/damoctl.service"
	assert_success
	assert_output ""
}

@test "the installed completion with the installed damoctl" {
	run env PATH="$INST/usr/bin:$PATH" bash -c '
		source "$1"
		COMP_WORDS=(damoctl lru-sort s); COMP_CWORD=2
		_damoctl
		echo "${COMPREPLY[*]}"' _ "$INST/usr/share/bash-completion/completions/damoctl"
	assert_success
	assert_output "status set"
}

@test "another PREFIX: the pc file and the unit follow it" {
	local other="$BATS_TEST_TMPDIR/other"
	make -C "$SRC" --no-print-directory BUILD="$BUILD_DIR" install DESTDIR="$other" \
		PREFIX=/opt/damos >/dev/null 2>&1
	run grep -E '^(prefix|libdir|includedir)=' "$other/opt/damos/lib/pkgconfig/libdamos.pc"
	assert_output "prefix=/opt/damos
libdir=/opt/damos/lib
includedir=/opt/damos/include"
	run grep '^ExecStart=' "$other/opt/damos/lib/systemd/system/damoctl.service"
	assert_output "ExecStart=/opt/damos/bin/damoctl apply /etc/damoctl.conf"
	[ -f "$other/opt/damos/share/bash-completion/completions/damoctl" ]
}
