#!/usr/bin/env bats
# debian/: the changelog made from CHANGES, the symbols file made from the
# version script, the library package named by the soname.  Run by
# make check-debian (part of check-host); LIB_SO is the built library.

bats_require_minimum_version 1.5.0

setup() {
	top=$BATS_TEST_DIRNAME/../..
	tmp=$BATS_TEST_TMPDIR
}

# the words of CHANGES' sections, without the list markers
changes_words() {
	sed -nE '/^[0-9][^ ]* \(.*\)$/,$p' "$1" | grep -vE '^[0-9][^ ]* \(.*\)$' |
		tr -s ' \t' '\n\n' | grep -vxE -- '-|\*|' || true
}

@test "changelog: one entry per CHANGES section, the newest is VERSION-1" {
	run -0 "$top/debian/gen-changelog" "$top/VERSION" "$top/CHANGES" "$top/debian/control"
	echo "$output" > "$tmp/changelog"
	[ "$(dpkg-parsechangelog -l "$tmp/changelog" -S Version)" = "$(cat "$top/VERSION")-1" ]
	[ "$(dpkg-parsechangelog -l "$tmp/changelog" -S Source)" = damos ]
	sections=$(grep -cE '^[0-9][^ ]* \(.*\)$' "$top/CHANGES")
	# one Version per entry: rfc822 keeps the entries apart (the default
	# format merges them into one, which counted one for any number)
	[ "$(dpkg-parsechangelog -l "$tmp/changelog" --format rfc822 --all -S Version |
		grep -c .)" = "$sections" ]
}

@test "changelog: every word of CHANGES, in order, and no line over 80 columns" {
	"$top/debian/gen-changelog" "$top/VERSION" "$top/CHANGES" "$top/debian/control" > "$tmp/changelog"
	changes_words "$top/CHANGES" > "$tmp/a"
	sed -E '/^ -- /d; /^[a-z0-9.-]+ \(/d' "$tmp/changelog" | tr -s ' \t' '\n\n' |
		grep -vxE -- '-|\*|' > "$tmp/b"
	diff "$tmp/a" "$tmp/b"
	run awk 'length > 80 && !/^ -- /' "$tmp/changelog"
	[ -z "$output" ]
}

@test "changelog: a release date makes an unstable entry of that day" {
	printf '1.2.3\n' > "$tmp/VERSION"
	printf 'notes\n\n1.2.3 (2026-05-04)\n\n  lib:\n  - one\n    two\n\n1.2.2 (unreleased)\n\n  - older\n' > "$tmp/CHANGES"
	SOURCE_DATE_EPOCH=0 run -0 "$top/debian/gen-changelog" "$tmp/VERSION" "$tmp/CHANGES" "$top/debian/control"
	echo "$output" > "$tmp/changelog"
	[ "$(dpkg-parsechangelog -l "$tmp/changelog" -S Distribution)" = unstable ]
	[ "$(dpkg-parsechangelog -l "$tmp/changelog" -S Date)" = "Mon, 04 May 2026 00:00:00 +0000" ]
	[ "$(dpkg-parsechangelog -l "$tmp/changelog" --offset 1 --count 1 -S Distribution)" = UNRELEASED ]
	grep -qxF '    - one two' "$tmp/changelog"
	grep -qxF '  * lib:' "$tmp/changelog"
}

@test "changelog: refused when CHANGES' newest section is not VERSION" {
	printf '9.9.9\n' > "$tmp/VERSION"
	run -1 "$top/debian/gen-changelog" "$tmp/VERSION" "$top/CHANGES" "$top/debian/control"
	[[ $output == *"VERSION is '9.9.9'"* ]]
}

@test "symbols: every name of lib/libdamos.map, at its node, package from the soname" {
	[ -n "${LIB_SO:-}" ] && [ -f "$LIB_SO" ]
	run -0 "$top/debian/gen-symbols" "$LIB_SO" "$top/lib/libdamos.map" 7.7 /dev/null libdamos-dev
	echo "$output" > "$tmp/symbols"
	soname=$(objdump -p "$LIB_SO" | awk '$1 == "SONAME" { print $2 }')
	head -n 1 "$tmp/symbols" | grep -qxF "$soname ${soname%%.so.*}${soname##*.so.} #MINVER#"
	# the library package of debian/control is the one the soname names
	pkg=$(head -n 1 "$tmp/symbols" | cut -d' ' -f2)
	grep -qx "Package: $pkg" "$top/debian/control"
	# the exported, versioned names of the built library are those listed
	objdump -T "$LIB_SO" | awk '/ g / && !/\*UND\*/ && NF >= 6 { print $NF "@" $(NF-1) }' |
		grep -vE '^([A-Z0-9_.]+)@\1$' | sort > "$tmp/exported"
	sed -n 's/^ \([^ ]*\) 7\.7$/\1/p' "$tmp/symbols" | grep -vE '^([A-Z0-9_.]+)@\1$' | sort > "$tmp/listed"
	[ -s "$tmp/listed" ]
	diff "$tmp/exported" "$tmp/listed"
}

@test "symbols: nodes, parents, comments and pinned minimum versions" {
	cat > "$tmp/map" <<-'MAP'
	/* two nodes */
	FOO_1.0 {
		global:
			foo_a;   # first
			foo_b;
		local:
			*;
	};
	FOO_1.1 {
		global: foo_c;
	} FOO_1.0;
	MAP
	printf 'int foo_a(void){return 1;}\nint foo_b(void){return 2;}\nint foo_c(void){return 3;}\nint hidden(void){return 4;}\n' > "$tmp/foo.c"
	${CC:-cc} -shared -fPIC -o "$tmp/libfoo2.so.3" -Wl,-soname,libfoo2.so.3 \
		-Wl,--version-script="$tmp/map" "$tmp/foo.c"
	printf '# pinned\nFOO_1.0 1.0.0\n' > "$tmp/minver"
	run -0 "$top/debian/gen-symbols" "$tmp/libfoo2.so.3" "$tmp/map" 1.1.0 "$tmp/minver" libfoo-dev
	[ "$output" = "libfoo2.so.3 libfoo2-3 #MINVER#
* Build-Depends-Package: libfoo-dev
 FOO_1.0@FOO_1.0 1.0.0
 FOO_1.1@FOO_1.1 1.1.0
 foo_a@FOO_1.0 1.0.0
 foo_b@FOO_1.0 1.0.0
 foo_c@FOO_1.1 1.1.0" ]
	# and dpkg-gensymbols, building a later version, agrees with it about
	# that library (-c4: no symbol more or less; it forgives a symbol of
	# the version being built that is missing, test 5 does not)
	mkdir -p "$tmp/pkg/DEBIAN" "$tmp/pkg/usr/lib" "$tmp/src/debian"
	cp "$tmp/libfoo2.so.3" "$tmp/pkg/usr/lib/"
	echo "$output" > "$tmp/src/debian/symbols"
	printf 'foo (1.2.0-1) unstable; urgency=medium\n\n  * x\n\n -- a <a@b.c>  Mon, 04 May 2026 00:00:00 +0000\n' > "$tmp/src/debian/changelog"
	printf 'Source: foo\n\nPackage: libfoo2-3\nArchitecture: any\n' > "$tmp/src/debian/control"
	cd "$tmp/src"
	run -0 dpkg-gensymbols -plibfoo2-3 -P"$tmp/pkg" -c4 -O"$tmp/out1"
	# a map listing a name the library does not export fails it
	printf ' foo_d@FOO_1.1 1.1.0\n' >> debian/symbols
	run -1 dpkg-gensymbols -plibfoo2-3 -P"$tmp/pkg" -c4 -O"$tmp/out2"
}
