#!/usr/bin/env bash
# kernel/devtree.sh: a git tree to rework the series in, and back.
#
#   devtree.sh init     unpack the package into $KERNEL_DEVTREE as a git repo
#                       (one "pristine" commit) and `git am` the series onto
#                       branch "series"; refuses to touch an existing tree
#   devtree.sh export   write base..series back to kernel/patches with
#                       `git format-patch --zero-commit`, a cover letter that
#                       keeps the current subject, text and version prefix
#                       ("PATCH v2", put on every patch), and the series
#                       file
#
# Run through make (kernel-devtree, kernel-export), which sets the KERNEL_*
# variables.  Then `make kernel-lint` and `make kernel`.

set -euo pipefail
: "${KERNEL_PKG:?}" "${KERNEL_PKGVER:?}" "${KERNEL_DEVTREE:?}" "${KERNEL_PATCHDIR:?}"

say() { printf 'kernel: %s\n' "$*"; }
die() { printf 'kernel: error: %s\n' "$*" >&2; exit 1; }

git_dev() {
	git -C "$KERNEL_DEVTREE" -c user.name='damos developers' \
		-c user.email=damos@example.org "$@"
}

do_init() {
	local series=$KERNEL_PATCHDIR/series
	[ ! -e "$KERNEL_DEVTREE" ] ||
		die "$KERNEL_DEVTREE exists; remove it first (or keep working in it)"
	[ -r "/usr/src/$KERNEL_PKG.tar.xz" ] || die "$KERNEL_PKG is not installed (make kernel-source)"
	say "unpacking $KERNEL_PKG $KERNEL_PKGVER into $KERNEL_DEVTREE"
	mkdir -p "$KERNEL_DEVTREE"
	tar -xJf "/usr/src/$KERNEL_PKG.tar.xz" -C "$KERNEL_DEVTREE" --strip-components=1
	git_dev init -q
	# A whole kernel tree is ~80k loose objects: without this, the next
	# commit starts `git gc --auto`, a repack that takes minutes of both
	# cores of a shared 2-core machine.
	git_dev config gc.auto 0
	# Debian's .gitignore ignores the whole top level: add everything.
	git_dev add -A -f
	git_dev commit -q -m "$KERNEL_PKG $KERNEL_PKGVER (pristine)"
	git_dev tag pristine
	git_dev checkout -q -b series
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$series" | while read -r p; do
		say "git am $p"
		git_dev am -q "$KERNEL_PATCHDIR/$p"
	done
	say "ready: $KERNEL_DEVTREE, branch series; 'make kernel-export' when done"
}

do_export() {
	local tmp
	git_dev rev-parse -q --verify pristine >/dev/null ||
		die "no dev tree at $KERNEL_DEVTREE (make kernel-devtree)"
	tmp=$(mktemp -d)
	# The posting's version (v2 ...) goes on every patch, as
	# format-patch -vN would put it, but the file names stay.
	local prefix=PATCH
	if [ -f "$KERNEL_PATCHDIR/0000-cover-letter.patch" ]; then
		prefix=$(sed -n 's/^Subject: \[\(PATCH[^]]*\) [0-9]*\/[0-9]*\].*/\1/p' \
			"$KERNEL_PATCHDIR/0000-cover-letter.patch")
	fi
	git_dev format-patch -q --zero-commit --no-signature --cover-letter \
		--subject-prefix="${prefix:-PATCH}" -o "$tmp" pristine..series
	# Keep the current cover letter's subject and text.
	python3 - "$tmp/0000-cover-letter.patch" \
		"$KERNEL_PATCHDIR/0000-cover-letter.patch" <<'EOF'
import os, re, sys
new, old = sys.argv[1:]
subject, blurb = '*** SUBJECT HERE ***', '*** BLURB HERE ***'
if os.path.exists(old):
    head, body = open(old).read().split('\n\n', 1)
    subject = re.search(r'^Subject: \[PATCH[^]]*\] (.*)$', head, re.M).group(1)
    blurb = re.split(r'^\S.* \(\d+\):$', body, maxsplit=1, flags=re.M)[0].rstrip()
s = open(new).read()
s = s.replace('*** SUBJECT HERE ***', subject)
s = s.replace('*** BLURB HERE ***', blurb)
open(new, 'w').write(s)
EOF
	rm -f "$KERNEL_PATCHDIR"/[0-9][0-9][0-9][0-9]-*.patch
	cp "$tmp"/[0-9][0-9][0-9][0-9]-*.patch "$KERNEL_PATCHDIR/"
	(cd "$tmp" && ls [0-9][0-9][0-9][0-9]-*.patch | grep -v '^0000-') \
		>"$KERNEL_PATCHDIR/series"
	rm -rf "$tmp"
	say "exported $(wc -l <"$KERNEL_PATCHDIR/series") patches to $KERNEL_PATCHDIR"
}

case ${1:-} in
init) do_init ;;
export) do_export ;;
*) die "usage: $0 init|export (run through make, see kernel/kernel.mk)" ;;
esac
