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
# built in the background (SCHED_IDLE), one after the other, the one with the
# longer suites (6.12) first; the kernels' suites run MATRIX_JOBS (default
# 1) at a time, Debian's first (they need no build), each with its own
# payload tree and output, their lines prefixed with the kernel
# ([6.12-debian] ...).  MATRIX_HOLD=FILE: while FILE is there, something
# else holds one of the MATRIX_JOBS slots (make check: MATRIX_JOBS=2, and
# its host tests hold one until they are done, so that two loads run at a
# time, never three; see check in the Makefile).  Each kernel's suites are
# told the other kernels of the run (GUEST_MATRIX_ALSO): a test whose
# subject is the same on Debian's 6.12 runs there only.  Every
# step prints "matrix: [elapsed] kernel: stage"; the closing summary lists
# the kernels in that order whatever order they finished in.
set -uo pipefail
out=$1
shift
MAKE=${MAKE:-make}
mkdir -p "$out"
out=$(cd "$out" && pwd)
T0=$SECONDS
JOBS=${MATRIX_JOBS:-1}
case $JOBS in [1-9]) ;; *) echo "matrix: MATRIX_JOBS='$JOBS' is not 1..9" >&2; exit 2 ;; esac

# The kernels whose suites boot the two-node machine (make check-guest
# NUMA=1, guest-image/run.sh: q35, 4 GiB in two System RAM ranges, node 1
# a CPU-less memory tier): both 6.12s, the kernels with migrate_cold.
# Their one boot becomes that machine: no boot is added (numa.bats skips,
# saying so, on the others).  MATRIX_NUMA="" boots none of them so.
MATRIX_NUMA=${MATRIX_NUMA-6.12:patched 6.12:debian}
numa_of() { [[ " $MATRIX_NUMA " == *" $1 "* ]] && echo 1 || echo 0; }

# also_of KVER:KIMAGE: the other kernels of this run, KVER:KIMAGE:NUMA each
also_of() {
	local j a=
	for j in "${kernels[@]}"; do
		[ "$j" = "$1" ] || a+="${a:+ }$j:$(numa_of "$j")"
	done
	echo "$a"
}

mmss() { printf '%dm%02ds' $(($1 / 60)) $(($1 % 60)); }
el() { mmss $((SECONDS - ${1:-$T0})); }

# The CPU time of a stage: bash's `time` of it into OUT/cpu-<stage>-<tag>,
# user and system seconds of everything it ran and waited for (a kernel
# build's compilers, a guest's QEMU).  On a machine of 2 cores the stages'
# sum is what no order of them can beat.
TIMEFORMAT='%3U %3S'
# cpu_s FILE...: the seconds (user + system) of time's lines in FILEs,
# whatever decimal point the locale gave them
cpu_s() { awk '{ gsub(",", "."); n += $1 + $2 } END { printf "%d", n }' "$@" 2>/dev/null; }
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
# order they are built.  6.12 before 6.1 in each: its suites take longest
# (quiet machine: patched 13m49s against 9m57s, Debian's 12m04s against
# 1m03s), so that the last suites to start are the shorter ones.
order=()
for k in 6.12:debian 6.1:debian 6.12:patched 6.1:patched; do
	for j in "${kernels[@]}"; do [ "$j" = "$k" ] && { order+=("$k"); break; }; done
done

# The background builder: the patched kernels, one after the other (Debian's
# images and their source subset are made in the foreground, without the
# kernel lock).  It leaves OUT/ready-<tag> (its status) for each.  At low
# priority: a TCG guest beside a build at normal priority slows down more
# than its share.
# When it is done with all of them it leaves OUT/builds-done: from then on
# only the kernels' suites use the machine (make check starts the host
# tests then).
rm -f "$out"/ready-* "$out"/builds-done "$out"/*.log "$out/summary" "$out"/summary-* "$out"/counts-* \
	"$out"/cpu-*
(
	# SCHED_IDLE: the build gets a core only when no guest wants it.  The
	# kernel's own timing-sensitive selftests (6.12's
	# sysfs_update_schemes_tried_regions_wss_estimation.py: the 50th
	# percentile of the measured working set within 20 %) run in patched
	# 6.12's suites beside the 6.1 build, and failed there beside a build
	# at nice 10 (2026-12-06: 50th percentile 4092 bytes of 10 MiB).  nice
	# 10 where chrt is missing.  Set here, by the builder on itself: from
	# outside, the first build could start before it.
	chrt --idle -p 0 $BASHPID >/dev/null 2>&1 || renice -n 10 -p $BASHPID >/dev/null 2>&1
	for k in "${order[@]}"; do
		[[ $k == *:patched ]] || continue
		{ time m kernel KVER="${k%%:*}" KIMAGE=patched >"$out/build-$(tag "$k").log" 2>&1; } \
			2>"$out/cpu-build-$(tag "$k")"
		echo $? >"$out/ready-$(tag "$k")"
	done
	: >"$out/builds-done"
) &
builder=$!
pids=()
# kill_tree PID: PID and everything below it.  Stopped first, so that it
# starts no new child (make, a compiler) while its children are killed.
kill_tree() {
	local c
	kill -STOP "$1" 2>/dev/null || return 0
	for c in $(pgrep -P "$1"); do
		kill_tree "$c"
	done
	kill -TERM "$1" 2>/dev/null
	kill -CONT "$1" 2>/dev/null
}
# stop_all: the builder and every kernel's run, with their children (a
# kernel build's make -C under make kernel included: a TERM to the top make
# alone left it compiling)
stop_all() {
	local p
	for p in $builder "${pids[@]}"; do
		kill_tree "$p"
	done
}
trap stop_all EXIT
trap 'say "interrupted"; exit 130' INT TERM
npatched=0
for k in "${order[@]}"; do [[ $k == *:patched ]] && npatched=$((npatched + 1)); done
if [ $npatched -gt 0 ]; then
	say "building $npatched patched kernel(s) in the background (SCHED_IDLE); logs in $out; $JOBS kernel(s)' suites at a time"
else
	say "no patched kernel to build; logs in $out; $JOBS kernel(s)' suites at a time"
fi

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

# run_kernel KVER:KIMAGE: make (or wait for) the kernel, then its suites;
# leaves OUT/counts-TAG ("passed failed skipped") and OUT/summary-TAG (its
# lines of the closing summary).  Run in the background, JOBS at a time.
run_kernel() {
	local k=$1 v=${1%%:*} i=${1#*:} n t t0 ts log rc rel sum p f s c nu
	n=$(name "$k") t=$(tag "$k")
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
		echo "matrix: $n: FAILED: the kernel could not be made (log: $out/build-$t.log, $log)" >"$out/summary-$t"
		echo "0 1 0" >"$out/counts-$t"
		return
	fi
	rel=$(m kernel-info KVER="$v" KIMAGE="$i" | sed -n 's/^KERNEL_RELEASE_FILE=//p')
	nu=$(numa_of "$k")
	say "$n: suites (make check-guest KVER=$v KIMAGE=$i NUMA=$nu)"
	ts=$SECONDS
	# its own payload tree: two kernels' suites may run at once; the
	# other kernels of this run (a test the same on Debian's 6.12 runs
	# there only: guest.mk's GUEST_MATRIX_ALSO)
	{ time m check-guest KVER="$v" KIMAGE="$i" NUMA="$nu" GUEST_OUT="$(dirname "$out")/out-$t" \
		GUEST_STAGE="$(dirname "$out")/stage-$t" GUEST_MATRIX_ALSO="$(also_of "$k")" 2>&1 |
		sed -u "s/^/[$t] /" | tee -a "$log"; } 2>"$out/cpu-suite-$t"
	rc=${PIPESTATUS[0]}
	c=$(cpu_s "$out/cpu-suite-$t")
	sum=$(grep -E '^\[[^]]*\] check-guest: [0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1 | sed 's/^\[[^]]*\] //')
	rel=$(cat "$rel" 2>/dev/null || echo '?')
	if [ -z "$sum" ]; then
		say "$n ($rel): FAILED: no summary from check-guest (log: $log)"
		echo "matrix: $n ($rel): FAILED: no summary from check-guest (log: $log)" >"$out/summary-$t"
		echo "0 1 0" >"$out/counts-$t"
		return
	fi
	read -r p f s < <(sed -E 's/^check-guest: ([0-9]+) passed, ([0-9]+) failed(, ([0-9]+) skipped)?.*/\1 \2 \4/' <<<"$sum")
	s=${s:-0}
	if [ "$rc" = 0 ] && [ "$f" = 0 ]; then
		say "$n ($rel): $p passed, $f failed, $s skipped (suite $(el "$ts"), CPU $(mmss "$c"))"
		{
			echo "matrix: $n ($rel): $p passed, $f failed, $s skipped (suite $(el "$ts"), CPU $(mmss "$c"); kernel and suite $(el "$t0"))"
			skips "$log"
			notrun "$log"
		} >"$out/summary-$t"
	else
		[ "$f" = 0 ] && f=1
		say "$n ($rel): FAILED: $p passed, $f failed, $s skipped (log: $log)"
		{
			echo "matrix: $n ($rel): FAILED: $p passed, $f failed, $s skipped (log: $log)"
			skips "$log"
			notrun "$log"
			failures "$log"
		} >"$out/summary-$t"
	fi
	echo "$p $f $s" >"$out/counts-$t"
}

# The programs every payload carries, made once before the kernels' runs
# start, so that two check-guests at once only copy them.
if ! m all >"$out/payload.log" 2>&1 || ! m guest-payload >>"$out/payload.log" 2>&1; then
	tail -n 20 "$out/payload.log"
	say "payload: FAILED (log: $out/payload.log)"
	exit 1
fi

# JOBS kernels at a time, in order; one fewer while MATRIX_HOLD (a file)
# is there: make check's host tests hold a slot until they are done, so
# that no more than JOBS loads run at once (the host tests and a guest,
# then two guests).  Polled: the host tests end on their own time.
slots() {
	if [ -n "${MATRIX_HOLD:-}" ] && [ -e "$MATRIX_HOLD" ] && [ "$JOBS" -gt 1 ]; then
		echo $((JOBS - 1))
	else
		echo "$JOBS"
	fi
}
held=
for k in "${order[@]}"; do
	while :; do
		alive=()
		for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && alive+=("$p"); done
		pids=("${alive[@]}")
		n=$(slots)
		if [ -z "$held" ] && [ "$n" -lt "$JOBS" ]; then
			held=1
			say "a slot of $JOBS held while $MATRIX_HOLD is there (make check's host tests)"
		fi
		[ ${#pids[@]} -lt "$n" ] && break
		if [ -n "${MATRIX_HOLD:-}" ]; then
			sleep 2
		else
			wait -n "${pids[@]}"
		fi
	done
	[ -z "$held" ] || [ "$n" -lt "$JOBS" ] || { held=; say "all $JOBS slots free ($MATRIX_HOLD is gone)"; }
	run_kernel "$k" &
	pids+=($!)
done
[ ${#pids[@]} = 0 ] || wait "${pids[@]}"

# cpu_line: the closing line of CPU time, each build's and each suite's,
# and the sum (the guest root, the installs of Debian's kernels and the
# payload's programs not counted: a few minutes on a fresh clone)
cpu_line() {
	local k c n line=
	for k in "${order[@]}"; do
		for c in build suite; do
			n=$(cpu_s "$out/cpu-$c-$(tag "$k")") &&
				line+="${line:+, }$(name "$k") $c $(mmss "$n")"
		done
	done
	[ -n "$line" ] || return 0
	echo "matrix: CPU: $line"
	n=$(cpu_s "$out"/cpu-*)
	echo "matrix: CPU of the builds and suites: $(mmss "$n") ($((n / 60)) core-minutes)"
}

total_p=0 total_f=0 total_s=0 bad=()
for k in "${order[@]}"; do
	t=$(tag "$k")
	read -r p f s <"$out/counts-$t" 2>/dev/null || { p=0 f=1 s=0; echo "matrix: $(name "$k"): FAILED: no result" >"$out/summary-$t"; }
	cat "$out/summary-$t" >>"$out/summary"
	total_p=$((total_p + p)) total_f=$((total_f + f)) total_s=$((total_s + s))
	[ "$f" = 0 ] || bad+=("$(name "$k")")
done
wait $builder 2>/dev/null
trap - EXIT INT TERM

echo "matrix: ---- $(el) ----"
cat "$out/summary" 2>/dev/null
cpu_line
[ ${#bad[@]} = 0 ] || echo "matrix: failed: ${bad[*]}"
echo "check-matrix: ${#kernels[@]} kernels: $total_p passed, $total_f failed, $total_s skipped"
[ ${#bad[@]} = 0 ] && [ $total_f = 0 ]
