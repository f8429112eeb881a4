#!/bin/bash
# matrix.sh OUTDIR KVER:KIMAGE...: make check-guest on every kernel of the
# matrix (make check-matrix, part of make check), one summary line per
# kernel and one closing line for all of them:
#
#   matrix: 6.1 patched (6.1.192-damos): 120 passed, 0 failed, 4 skipped (suite 9m40s)
#   ...
#   check-matrix: 4 kernels: 301 passed, 0 failed, 52 skipped
#
# A kernel that fails names itself (and where its log is); the status is
# non-zero if any did.  Time: the guest root is made once and shared by all
# kernels (Debian's are installed into a copy of it); the patched kernels are
# built in the background, niced, one after the other, while the Debian
# kernels' suites run, so the first suite starts after the image and one
# package download, not after two kernel builds.  Every step prints
# "matrix: [elapsed] kernel: stage".
set -uo pipefail
out=$1
shift
MAKE=${MAKE:-make}
mkdir -p "$out"
out=$(cd "$out" && pwd)
T0=$SECONDS

el() { local s=$((SECONDS - ${1:-$T0})); printf '%dm%02ds' $((s / 60)) $((s % 60)); }
say() { printf 'matrix: [%s] %s\n' "$(el)" "$*"; }
m() { $MAKE --no-print-directory "$@"; }

kernels=("$@")
[ ${#kernels[@]} -gt 0 ] || { echo "matrix: no kernels" >&2; exit 2; }
for k in "${kernels[@]}"; do
	case $k in
	6.1:patched|6.12:patched|6.1:debian|6.12:debian) ;;
	*) echo "matrix: '$k' is not KVER:KIMAGE (6.1|6.12 : patched|debian)" >&2; exit 2 ;;
	esac
done
name() { echo "${1%%:*} ${1#*:}"; }
tag() { echo "${1%%:*}-${1#*:}"; }

# Debian's kernels first: they need no build.  Then the patched ones in the
# order they are built.
order=()
for k in "${kernels[@]}"; do [[ $k == *:debian ]] && order+=("$k"); done
for k in "${kernels[@]}"; do [[ $k == *:patched ]] && order+=("$k"); done

# The background builder: the patched kernels, one after the other (Debian's
# images and their source subset are made in the foreground, without the
# kernel lock).  It leaves OUT/ready-<tag> (its status) for each.
rm -f "$out"/ready-* "$out"/*.log "$out/summary"
(
	for k in "${order[@]}"; do
		[[ $k == *:patched ]] || continue
		m kernel KVER="${k%%:*}" KIMAGE=patched >"$out/build-$(tag "$k").log" 2>&1
		echo $? >"$out/ready-$(tag "$k")"
	done
) &
builder=$!
renice -n 10 -p $builder >/dev/null 2>&1
trap 'pkill -TERM -P $builder 2>/dev/null; kill $builder 2>/dev/null' EXIT
trap 'say "interrupted"; exit 130' INT TERM
say "building the patched kernels in the background (niced); logs in $out"

# wait_ready FILE WHAT: until the builder has done WHAT
wait_ready() {
	local f=$out/$1 t=$SECONDS n=0
	while [ ! -f "$f" ]; do
		if ! kill -0 $builder 2>/dev/null && [ ! -f "$f" ]; then
			echo 1 >"$f"
			break
		fi
		sleep 5
		n=$((n + 1))
		[ $((n % 12)) = 0 ] && say "$2: waiting for the background build ($(el "$t"); $(tail -n 1 "$out"/build-*.log 2>/dev/null | tail -n 1))"
	done
	[ "$(cat "$f")" = 0 ]
}

say "guest root: make image"
if ! m image >"$out/image.log" 2>&1; then
	tail -n 20 "$out/image.log"
	say "guest root: FAILED (log: $out/image.log)"
	exit 1
fi
say "guest root: ready"

# failures LOG: each "not ok" line of a kernel's run with the first lines of
# its diagnostics, for the closing summary: the end of the output (all that
# a CI log may show) then names the failed test and why, not only the count.
# skips LOG: the runner's "# skipped N: reason" tally of a kernel's run
# (guest-image/run.sh counts each reason), for the closing summary: every
# skip is a claim about that kernel, shown beside its counts.
skips() {
	sed -E 's/^\[[^]]*\] (guest: \[ *[0-9]+s\] )?//' "$1" |
		sed -nE 's/^# skipped ([0-9]+): /matrix:   skipped \1: /p' | head -n 40
}

# notrun LOG: what guest-stage left out of a kernel's suites on purpose
# (the kernel's selftests on Debian's own kernels: guest.mk,
# GUEST_SELFTESTS), so that the summary says so beside the counts.
notrun() {
	sed -nE 's/^\[[^]]*\] +SELFTESTS not run on [^:]*: (.*)$/matrix:   not run: \1/p' "$1" | head -n 1
}

failures() {
	sed -E 's/^\[[^]]*\] (guest: \[ *[0-9]+s\] )?//' "$1" | awk '
		/^not ok / { n = 0; keep = 1; print "matrix:   " $0; next }
		keep && /^#/ && n < 12 { n++; print "matrix:     " $0; next }
		{ keep = 0 }' | head -n 80
}

total_p=0 total_f=0 total_s=0 bad=()
for k in "${order[@]}"; do
	v=${k%%:*} i=${k#*:} n=$(name "$k") t=$(tag "$k")
	t0=$SECONDS
	log=$out/check-$t.log
	: >"$log"
	if [ "$i" = debian ]; then
		say "$n: Debian's package, its initramfs, its selftests (make kernel KIMAGE=debian)"
		m kernel KVER="$v" KIMAGE=debian 2>&1 | sed -u "s/^/[$t] /" | tee -a "$log" | grep --line-buffered -E '^\[[^]]*\] kernel: (ready|downloading|downloaded|installing|installed|linux-source|note|Debian|error)'
		rc=${PIPESTATUS[0]}
	else
		say "$n: waiting for its build"
		wait_ready "ready-$t" "$n: build"
		rc=$?
		tail -n 2 "$out/build-$t.log" | sed "s/^/[$t] /"
	fi
	if [ "$rc" != 0 ]; then
		say "$n: FAILED: the kernel could not be made (log: $out/build-$t.log, $log)"
		bad+=("$n"); total_f=$((total_f + 1))
		continue
	fi
	rel=$(m kernel-info KVER="$v" KIMAGE="$i" | sed -n 's/^KERNEL_RELEASE_FILE=//p')
	say "$n: suites (make check-guest KVER=$v KIMAGE=$i)"
	ts=$SECONDS
	m check-guest KVER="$v" KIMAGE="$i" GUEST_OUT="$(dirname "$out")/out-$t" 2>&1 |
		sed -u "s/^/[$t] /" | tee -a "$log"
	rc=${PIPESTATUS[0]}
	sum=$(grep -E '^\[[^]]*\] check-guest: [0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1 | sed 's/^\[[^]]*\] //')
	rel=$(cat "$rel" 2>/dev/null || echo '?')
	if [ -z "$sum" ]; then
		say "$n ($rel): FAILED: no summary from check-guest (log: $log)"
		bad+=("$n"); total_f=$((total_f + 1))
		continue
	fi
	read -r p f s < <(sed -E 's/^check-guest: ([0-9]+) passed, ([0-9]+) failed(, ([0-9]+) skipped)?.*/\1 \2 \4/' <<<"$sum")
	s=${s:-0}
	total_p=$((total_p + p)) total_f=$((total_f + f)) total_s=$((total_s + s))
	if [ "$rc" = 0 ] && [ "$f" = 0 ]; then
		echo "matrix: $n ($rel): $p passed, $f failed, $s skipped (suite $(el "$ts"), kernel and suite $(el "$t0"))" >>"$out/summary"
		say "$n ($rel): $p passed, $f failed, $s skipped (suite $(el "$ts"))"
		skips "$log" >>"$out/summary"
		notrun "$log" >>"$out/summary"
	else
		[ "$f" = 0 ] && { f=1; total_f=$((total_f + 1)); }
		echo "matrix: $n ($rel): FAILED: $p passed, $f failed, $s skipped (log: $log)" >>"$out/summary"
		say "$n ($rel): FAILED: $p passed, $f failed, $s skipped (log: $log)"
		skips "$log" >>"$out/summary"
		notrun "$log" >>"$out/summary"
		failures "$log" >>"$out/summary"
		bad+=("$n")
	fi
done
wait $builder 2>/dev/null
trap - EXIT INT TERM

echo "matrix: ---- $(el) ----"
cat "$out/summary" 2>/dev/null
[ ${#bad[@]} = 0 ] || echo "matrix: failed: ${bad[*]}"
echo "check-matrix: ${#kernels[@]} kernels: $total_p passed, $total_f failed, $total_s skipped"
[ ${#bad[@]} = 0 ] && [ $total_f = 0 ]
