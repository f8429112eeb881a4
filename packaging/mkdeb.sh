#!/bin/bash
# mkdeb.sh OUT: build libdamos1, libdamos-dev and damoctl with
# dpkg-buildpackage -us -uc -b from a copy of this checkout (its tracked and
# untracked, not ignored, files: what a commit of it would hold) in
# OUT/src, move the packages to OUT, print their paths and run lintian on
# them: any error or warning fails.  The checkout itself is not written to.
set -euo pipefail
out=$1
top=$(cd "$(dirname "$0")/.." && pwd)
version=$(cat "$top/VERSION")
say() { printf 'deb: %s\n' "$*"; }
die() { printf 'deb: error: %s\n' "$*" >&2; exit 1; }
for t in dpkg-buildpackage dh lintian rsync; do
	command -v $t >/dev/null || die "$t is missing (make deps)"
done

mkdir -p "$out"
out=$(cd "$out" && pwd)
src=$out/src/damos-$version
t0=$SECONDS
rm -rf "$out/src"
mkdir -p "$src"
if git -C "$top" rev-parse --git-dir >/dev/null 2>&1; then
	git -C "$top" ls-files -z -co --exclude-standard |
		rsync -a --from0 --files-from=- --ignore-missing-args "$top/" "$src/"
else
	rsync -a --exclude=/build --exclude=/.git "$top/" "$src/"
fi
"$src/debian/gen-changelog" "$src/VERSION" "$src/CHANGES" "$src/debian/control" \
	>"$src/debian/changelog"
debver=$(dpkg-parsechangelog -l "$src/debian/changelog" -S Version)
arch=$(dpkg-architecture -q DEB_HOST_ARCH)
say "dpkg-buildpackage -us -uc -b: damos $debver ($arch) in $src"
log=$out/build.log
if ! (cd "$src" && dpkg-buildpackage -us -uc -b) >"$log" 2>&1; then
	tail -n 30 "$log" >&2
	die "dpkg-buildpackage failed; log: $log"
fi
# The previous build's packages of these names go; others in OUT stay.
for p in $(sed -n 's/^Package: *//p' "$src/debian/control"); do
	rm -f "$out/${p}_"*.deb "$out/${p}-dbgsym_"*.deb
done
rm -f "$out"/damos_*.changes "$out"/damos_*.buildinfo
mv "$out"/src/*.deb "$out"/src/damos_*.changes "$out"/src/damos_*.buildinfo "$out/"
changes=$out/damos_${debver}_${arch}.changes
say "built in $((SECONDS - t0)) s:"
sed -n '/^Files:/,/^[^ ]/s/^ .* \([^ ]*\.deb\)$/\1/p' "$changes" | sed "s|^|$out/|"
t1=$SECONDS
say "lintian --fail-on error,warning $(basename "$changes")"
rc=0
lintian --fail-on error,warning --display-info "$changes" >"$out/lintian.txt" 2>&1 || rc=$?
grep -v 'running with root privileges is not recommended' "$out/lintian.txt" || true
# (--show-overrides would list the overridden tags, but --fail-on then
# counts them too)
say "overridden, with reasons: $(cat "$src"/debian/*.lintian-overrides | grep -vc '^#') tags (debian/*.lintian-overrides)"
[ $rc = 0 ] || die "lintian found errors or warnings (above)"
say "lintian: no errors, no warnings ($((SECONDS - t1)) s); total $((SECONDS - t0)) s"
