#!/usr/bin/env bash
# kernel/build.sh: the work behind `make kernel` and `make kernel-lint`.
#
#   build.sh source   install linux-source if missing, unpack it into the
#                     cache, bring the tree to "package + series" state
#   build.sh build    source, then merge the config fragments on top of
#                     tinyconfig, check them, build bzImage, publish it
#   build.sh lint     checkpatch --strict on every patch, then apply the
#                     patches one by one on a separate tree and build
#                     mm/damon/ after each (bisectability)
#   build.sh deb      source, then the same config plus
#                     kernel/config/package/*.config (zstd initramfs) in a
#                     build directory of its own; kbuild's bindeb-pkg:
#                     linux-image (and, with modules, linux-headers) .debs
#
# kernel/kernel.mk computes every path and key and passes them in the
# environment (KERNEL_*); this script only does the work.  Trees are never
# rebuilt from scratch when the series changes: the patches recorded as
# applied are reverted and the new ones applied, so only the files the series
# touches get new mtimes and kbuild recompiles only what depends on them.

set -euo pipefail

: "${KERNEL_PKG:?}" "${KERNEL_PKGVER:?}" "${KERNEL_DEPS:?}"
: "${KERNEL_CACHE:?}" "${KERNEL_SRC:?}" "${KERNEL_SRC_KEY:?}"
: "${KERNEL_PATCHES:=}" "${KERNEL_CONFIGS:=}" "${KERNEL_JOBS:=2}"
: "${KERNEL_LOCALVERSION:=}"

# Do not let the calling make's flags (V=, O=, W=, -j, a jobserver) leak into
# kbuild: this script passes everything kbuild needs explicitly.
unset MAKEFLAGS MFLAGS MAKEOVERRIDES MAKELEVEL GNUMAKEFLAGS KCONFIG KPATCHES

export ARCH=x86_64
TARBALL=/usr/src/$KERNEL_PKG.tar.xz
T0=$SECONDS

say() { printf 'kernel: %s\n' "$*"; }
die() { printf 'kernel: error: %s\n' "$*" >&2; exit 1; }
elapsed() { local s=$((SECONDS - ${1:-$T0})); printf '%dm%02ds' $((s / 60)) $((s % 60)); }

[ "$(uname -m)" = x86_64 ] || die "the guest kernel is built natively: needs an x86_64 host, not $(uname -m)"

# One kernel build at a time on this machine (2 cores, shared), and no two
# makes rearranging the same tree.
mkdir -p "$KERNEL_CACHE"
exec 9>"$KERNEL_CACHE/.lock"
if ! flock -n 9; then
	say "waiting for another kernel build to finish (lock: $KERNEL_CACHE/.lock)"
	flock 9
fi

# --- packages ---------------------------------------------------------------

ensure_packages() {
	local p missing=() sudo=
	for p in $KERNEL_DEPS; do
		[ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" = \
		  "install ok installed" ] || missing+=("$p")
	done
	if [ ${#missing[@]} -gt 0 ]; then
		[ "$(id -u)" = 0 ] || sudo=sudo
		say "installing with apt-get: ${missing[*]}"
		# DPkg::Lock::Timeout: make check's matrix may install Debian's
		# kernel source for its KIMAGE=debian run at the same moment
		# shellcheck disable=SC2086
		$sudo env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -q \
			--no-install-recommends "${missing[@]}" ||
		{ $sudo apt-get -o DPkg::Lock::Timeout=600 update -q &&
		  $sudo env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -q \
			--no-install-recommends "${missing[@]}"; } ||
			die "could not install: ${missing[*]}"
	fi
	local ver
	ver=$(dpkg-query -W -f='${Version}' "$KERNEL_PKG")
	[ "$ver" = "$KERNEL_PKGVER" ] ||
		die "$KERNEL_PKG is $ver but make keyed the cache on '$KERNEL_PKGVER'; run make again"
	[ -r "$TARBALL" ] || die "$TARBALL missing although $KERNEL_PKG is installed"
}

# --- source trees -----------------------------------------------------------

# unpack DIR: a pristine tree from the package, replacing DIR.  tar keeps the
# package's mtimes, so a build directory that already holds objects for these
# sources stays valid.
unpack() {
	local dir=$1 t=$SECONDS
	say "unpacking $KERNEL_PKG $KERNEL_PKGVER into $dir"
	rm -rf "$dir.new"
	mkdir -p "$dir.new"
	tar -xJf "$TARBALL" -C "$dir.new" --strip-components=1
	mkdir -p "$dir.new/.damos/applied"
	echo "$KERNEL_PKG $KERNEL_PKGVER" >"$dir.new/.damos/package"
	rm -rf "$dir"
	mv "$dir.new" "$dir"
	say "unpacked in $(elapsed "$t")"
}

# applied DIR: the patch copies recorded as applied to DIR, in order, named
# NNNN--<name in the series>
applied() {
	find "$1/.damos/applied" -maxdepth 1 -type f -name '[0-9][0-9][0-9][0-9]--*' |
		sort
}

# prepare_tree DIR PATCH...: make DIR exactly "package + PATCH..." with as
# few file writes as possible.
prepare_tree() {
	local dir=$1; shift
	local want=("$@") have=() i n keep p name

	if [ ! -f "$dir/.damos/package" ] ||
	   [ "$(cat "$dir/.damos/package")" != "$KERNEL_PKG $KERNEL_PKGVER" ]; then
		unpack "$dir"
	fi
	mapfile -t have < <(applied "$dir")

	# Keep the longest common prefix of what is applied and what is wanted.
	keep=0
	while [ $keep -lt ${#have[@]} ] && [ $keep -lt ${#want[@]} ] &&
	      cmp -s "${have[$keep]}" "${want[$keep]}"; do
		keep=$((keep + 1))
	done

	for ((i = ${#have[@]} - 1; i >= keep; i--)); do
		p=${have[$i]}
		name=$(basename "$p"); name=${name#*--}
		say "reverting $name"
		if ! patch -d "$dir" -p1 -R -F0 -s --batch --no-backup-if-mismatch \
			<"$p" >/dev/null 2>&1; then
			say "cannot revert $name cleanly (tree edited by hand?); starting over"
			unpack "$dir"
			prepare_tree "$dir" "${want[@]}"
			return
		fi
		rm -f "$p"
	done

	n=$keep
	for ((i = keep; i < ${#want[@]}; i++)); do
		p=${want[$i]}
		name=$(basename "$p")
		if ! out=$(patch -d "$dir" -p1 -F0 --batch --dry-run <"$p" 2>&1); then
			printf '%s\n' "$out" >&2
			die "$name does not apply to $KERNEL_PKG $KERNEL_PKGVER (no fuzz allowed)"
		fi
		say "applying $name"
		patch -d "$dir" -p1 -F0 -s --batch --no-backup-if-mismatch <"$p"
		n=$((n + 1))
		cp "$p" "$dir/.damos/applied/$(printf '%04d' "$n")--$name"
	done
}

series_files() {
	[ -n "$KERNEL_PATCHES" ] || return 0
	local dir
	dir=$(dirname "$KERNEL_PATCHES")
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$KERNEL_PATCHES" |
		while read -r f; do
			[ -f "$dir/$f" ] || die "series names $f, which is not in $dir"
			echo "$dir/$f"
		done
}

do_source() {
	ensure_packages
	local patches=()
	mapfile -t patches < <(series_files)
	prepare_tree "$KERNEL_SRC" "${patches[@]}"
	rm -f "$KERNEL_SRC"/.damos/stamp-*
	touch "$KERNEL_SRC/.damos/stamp-$KERNEL_SRC_KEY"
}

# --- config -----------------------------------------------------------------

# configure SRC BUILD_DIR FRAGMENT...: tinyconfig + fragments, then check
# that every line of every fragment made it into .config.
configure() {
	local src=$1 bld=$2; shift 2
	local log=$bld/config.log line sym bad=0
	mkdir -p "$bld"
	say "configuring: tinyconfig + $(for f in "$@"; do basename "$f"; done | xargs)"
	{
		make -C "$src" O="$bld" tinyconfig &&
		"$src/scripts/kconfig/merge_config.sh" -m -O "$bld" "$bld/.config" "$@" &&
		make -C "$src" O="$bld" olddefconfig
	} >"$log" 2>&1 || { tail -n 20 "$log" >&2; die "configuration failed; log: $log"; }

	while IFS= read -r line; do
		case $line in
		"# CONFIG_"*" is not set")
			sym=${line#\# }; sym=${sym%% *}
			if grep -q "^$sym=" "$bld/.config"; then
				say "config: $sym should not be set but is: $(grep "^$sym=" "$bld/.config")" >&2
				bad=1
			fi ;;
		CONFIG_*)
			if ! grep -qxF -- "$line" "$bld/.config"; then
				sym=${line%%=*}
				say "config: wanted $line, got: $(grep -E "^(# )?$sym[= ]" "$bld/.config" || echo "nothing (unknown symbol or unmet dependency)")" >&2
				bad=1
			fi ;;
		esac
	done < <(cat "$@")
	[ $bad = 0 ] || die "some requested options did not stick (see above; fragments: $*)"
}

# --- build ------------------------------------------------------------------

# kmake SRC BUILD_DIR LOG TARGET...: run kbuild with its output in LOG and a
# progress line every 20 s.
kmake() {
	local src=$1 bld=$2 log=$3; shift 3
	local t=$SECONDS pid rc n
	make -C "$src" O="$bld" -j"$KERNEL_JOBS" \
		KBUILD_BUILD_USER=damos KBUILD_BUILD_HOST=damos \
		KBUILD_BUILD_TIMESTAMP="$BUILD_TIMESTAMP" KBUILD_BUILD_VERSION=1 \
		LOCALVERSION="$KERNEL_LOCALVERSION" "$@" >"$log" 2>&1 &
	pid=$!
	while ! wait_timeout $pid 20; do
		n=$(grep -cE '^  (CC|AS) ' "$log" || true)
		say "building... $n objects compiled, $(elapsed "$t") (log: $log)"
	done
	wait $pid && rc=0 || rc=$?
	if [ $rc != 0 ]; then
		grep -E 'error|Error' "$log" | head -n 20 >&2 || true
		tail -n 15 "$log" >&2
		die "kbuild failed ($*); full log: $log"
	fi
}

# wait_timeout PID SECONDS: true once PID has exited, false on timeout
wait_timeout() {
	local i
	for ((i = 0; i < $2; i++)); do
		kill -0 "$1" 2>/dev/null || return 0
		sleep 1
	done
	! kill -0 "$1" 2>/dev/null
}

build_timestamp() {
	# The package's own date, so that rebuilding the same inputs gives the
	# same `uname -v` everywhere.
	zcat "/usr/share/doc/$KERNEL_PKG/changelog.Debian.gz" 2>/dev/null |
		sed -n '/^ -- /{s/^ -- .*>  //p;q}' || true
}

do_build() {
	: "${KERNEL_BUILD_DIR:?}" "${KERNEL_OUT:?}"
	do_source
	BUILD_TIMESTAMP=$(build_timestamp)
	local configs=()
	read -r -a configs <<<"$KERNEL_CONFIGS"
	configure "$KERNEL_SRC" "$KERNEL_BUILD_DIR" "${configs[@]}"

	local log=$KERNEL_BUILD_DIR/build.log t=$SECONDS
	say "building bzImage with -j$KERNEL_JOBS in $KERNEL_BUILD_DIR"
	kmake "$KERNEL_SRC" "$KERNEL_BUILD_DIR" "$log" bzImage
	say "built in $(elapsed "$t"): $(grep -cE '^  (CC|AS) ' "$log" || true) objects compiled"

	rm -rf "$KERNEL_OUT.new"
	mkdir -p "$KERNEL_OUT.new"
	cp "$KERNEL_BUILD_DIR/arch/x86/boot/bzImage" "$KERNEL_OUT.new/bzImage"
	cp "$KERNEL_BUILD_DIR/.config" "$KERNEL_OUT.new/config"
	cp "$KERNEL_BUILD_DIR/System.map" "$KERNEL_OUT.new/System.map"
	cp "$log" "$KERNEL_OUT.new/build.log"
	make -s -C "$KERNEL_SRC" O="$KERNEL_BUILD_DIR" kernelrelease \
		LOCALVERSION="$KERNEL_LOCALVERSION" >"$KERNEL_OUT.new/kernelrelease"
	rm -rf "$KERNEL_OUT"
	mv "$KERNEL_OUT.new" "$KERNEL_OUT"
	say "bzImage ($(cat "$KERNEL_OUT/kernelrelease")): $KERNEL_OUT/bzImage (total $(elapsed))"
}

# --- lint -------------------------------------------------------------------

do_lint() {
	: "${KERNEL_LINT_SRC:?}" "${KERNEL_LINT_BUILD:?}"
	ensure_packages
	BUILD_TIMESTAMP=$(build_timestamp)
	local patches=() p i fail=0 configs=()
	mapfile -t patches < <(series_files)
	[ ${#patches[@]} -gt 0 ] || die "no patches in the series"
	read -r -a configs <<<"$KERNEL_CONFIGS"

	# The pristine tree first: it provides checkpatch and the baseline
	# objects, so each step below recompiles only what its patch touched.
	prepare_tree "$KERNEL_LINT_SRC"

	# UNKNOWN_COMMIT_ID: checkpatch looks the ids of Fixes: tags up with git,
	# and neither the package tree nor this repository has the kernel's
	# history, so every id would be "unknown".  Check them by hand against
	# the kernel's git log instead.  FILE_PATH_CHANGES ("does MAINTAINERS
	# need updating?") is said of every added file; the series adds files
	# only under directories DAMON's MAINTAINERS entry covers
	# (tools/testing/selftests/damon/settings).
	#
	# A backport's stable line, "commit <40 hex digits> upstream.", is the
	# form the stable tree asks for, and checkpatch reports it as a
	# malformed commit reference (GIT_COMMIT_ID); nothing can make both
	# happy.  The line is checked here by its form instead, and checkpatch
	# runs on a copy of the patch without it: the line is the only thing
	# let through.
	say "checkpatch --strict"
	local stable_re='^commit [0-9a-f]{40} upstream\.$' note
	for p in "${patches[@]}"; do
		note=
		if grep -qE "$stable_re" "$p"; then
			note=" (its stable 'commit <id> upstream.' line checked by form, not by checkpatch)"
		fi
		if grep -vE "$stable_re" "$p" | "$KERNEL_LINT_SRC/scripts/checkpatch.pl" \
			--strict --quiet --ignore UNKNOWN_COMMIT_ID,FILE_PATH_CHANGES \
			- >"$KERNEL_LINT_BUILD.checkpatch" 2>&1 &&
		   [ -z "$(grep -v '^$' "$KERNEL_LINT_BUILD.checkpatch")" ]; then
			say "  ok   $(basename "$p")$note"
		else
			say "  FAIL $(basename "$p")"
			sed 's/^/    /' "$KERNEL_LINT_BUILD.checkpatch"
			fail=1
		fi
	done
	rm -f "$KERNEL_LINT_BUILD.checkpatch"

	configure "$KERNEL_LINT_SRC" "$KERNEL_LINT_BUILD" "${configs[@]}"
	say "bisect build: mm/damon/ with W=1 -Werror after each patch"
	kmake "$KERNEL_LINT_SRC" "$KERNEL_LINT_BUILD" "$KERNEL_LINT_BUILD/lint.log" \
		W=1 KCFLAGS=-Werror mm/damon/
	say "  ok   (package as is)"
	for ((i = 1; i <= ${#patches[@]}; i++)); do
		p=${patches[$((i - 1))]}
		prepare_tree "$KERNEL_LINT_SRC" "${patches[@]:0:$i}" >/dev/null
		if (kmake "$KERNEL_LINT_SRC" "$KERNEL_LINT_BUILD" \
			"$KERNEL_LINT_BUILD/lint.log" W=1 KCFLAGS=-Werror mm/damon/) \
			>/dev/null 2>&1; then
			say "  ok   $(basename "$p")"
		else
			say "  FAIL $(basename "$p") (log: $KERNEL_LINT_BUILD/lint-$i.log)"
			cp "$KERNEL_LINT_BUILD/lint.log" "$KERNEL_LINT_BUILD/lint-$i.log"
			grep -E 'error|warning' "$KERNEL_LINT_BUILD/lint-$i.log" | head -n 20 | sed 's/^/    /' || true
			fail=1
		fi
	done
	[ $fail = 0 ] || die "kernel-lint failed"
	say "kernel-lint: ${#patches[@]} patches checkpatch-clean and bisectable ($(elapsed))"
}

# --- Debian packages ----------------------------------------------------------

# bindeb-pkg writes its .debs next to the build directory ("..", so
# KERNEL_DEB_BUILD is a subdirectory of a directory of its own); only
# linux-image and linux-headers are published: the linux-libc-dev that 6.1
# also makes would replace Debian's and is of no use here.
do_deb() {
	: "${KERNEL_DEB_BUILD:?}" "${KERNEL_DEB_OUT:?}" "${KERNEL_DEB_VERSION:?}"
	do_source
	BUILD_TIMESTAMP=$(build_timestamp)
	local configs=() log=$KERNEL_DEB_BUILD/deb.log t=$SECONDS f
	local debdir
	debdir=$(dirname "$KERNEL_DEB_BUILD")
	read -r -a configs <<<"$KERNEL_CONFIGS"
	# A directory of its own, not make kernel's: copying make kernel's
	# objects here saved nothing (tried: 1,267 objects compiled again in
	# 9m32s on 6.1), since objtool is rebuilt for the new path and every
	# object depends on the objtool binary.  Later runs are incremental.
	mkdir -p "$KERNEL_DEB_BUILD"
	configure "$KERNEL_SRC" "$KERNEL_DEB_BUILD" "${configs[@]}"
	rm -f "$debdir"/*.deb "$debdir"/*.buildinfo "$debdir"/*.changes
	say "bindeb-pkg with -j$KERNEL_JOBS in $KERNEL_DEB_BUILD"
	# -d: 6.12's generated control names gcc-x86-64-linux-gnu, which
	# bookworm does not have; the build needs are in make deps.
	KDEB_PKGVERSION=$KERNEL_DEB_VERSION KDEB_CHANGELOG_DIST=bookworm \
	DEBFULLNAME="damos kernel build" DEBEMAIL=root@localhost \
		kmake "$KERNEL_SRC" "$KERNEL_DEB_BUILD" "$log" DPKG_FLAGS=-d bindeb-pkg
	rm -rf "$KERNEL_DEB_OUT.new"
	mkdir -p "$KERNEL_DEB_OUT.new"
	for f in "$debdir"/linux-image-*.deb "$debdir"/linux-headers-*.deb; do
		[ -f "$f" ] || continue
		case $f in *-dbg_*) continue ;; esac
		mv "$f" "$KERNEL_DEB_OUT.new/"
	done
	ls "$KERNEL_DEB_OUT.new"/linux-image-*.deb >/dev/null 2>&1 ||
		die "bindeb-pkg made no linux-image package (log: $log)"
	cp "$KERNEL_DEB_BUILD/.config" "$KERNEL_DEB_OUT.new/config"
	cp "$log" "$KERNEL_DEB_OUT.new/build.log"
	make -s -C "$KERNEL_SRC" O="$KERNEL_DEB_BUILD" kernelrelease \
		LOCALVERSION="$KERNEL_LOCALVERSION" >"$KERNEL_DEB_OUT.new/kernelrelease"
	echo "$(elapsed "$t")" >"$KERNEL_DEB_OUT.new/build-time"
	rm -rf "$KERNEL_DEB_OUT"
	mv "$KERNEL_DEB_OUT.new" "$KERNEL_DEB_OUT"
	say "kernel packages ($(cat "$KERNEL_DEB_OUT/kernelrelease"), built in $(elapsed "$t")):"
	for f in "$KERNEL_DEB_OUT"/*.deb; do say "  $f"; done
}

case ${1:-} in
source) do_source ;;
build) do_build ;;
lint) do_lint ;;
deb) do_deb ;;
*) die "usage: $0 source|build|lint|deb (run through make, see kernel/kernel.mk)" ;;
esac
