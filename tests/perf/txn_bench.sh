#!/usr/bin/env bash
# What transactions cost (issue 28): the wall time, write(2) calls and
# open(2) calls of `damoctl scheme add lru_prio` on a fake Linux 6.1 sysfs
# tree (tests/host/helper.bash's make_sysfs) of 1, 10 and 100 schemes,
# kdamond off and on, for the damoctl under test and for one built from a
# revision before transactions.  A benchmark: it prints figures, it passes
# or fails on nothing but its own errors.
#
#   tests/perf/txn_bench.sh DAMOCTL [BASE_DAMOCTL]
#   make bench-txn [TXN_BENCH_BASE=REV] [TXN_BENCH_RUNS=N]
#
# The fake tree is plain files: the kernel's work is not in the figures,
# only damoctl's (reading the snapshot, writing, reading back).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
now=${1:?usage: txn_bench.sh DAMOCTL [BASE_DAMOCTL]}
base=${2:-}
runs=${TXN_BENCH_RUNS:-15}
work=$(mktemp -d "${TMPDIR:-/tmp}/damos-txn-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

# the fake trees of the host tests (bats' library loader is not needed)
bats_load_library() { :; }
BATS_TEST_DIRNAME=$here/../host
# shellcheck source=../host/helper.bash
source "$here/../host/helper.bash"

# median of the numbers on stdin
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# measure BIN STATE NR: "median_ms writes opens" of scheme add on a fresh
# copy of the tree for each run
measure() {
	local bin=$1 state=$2 nr=$3 i t0 t1 ms=() trace=$work/trace
	ROOT=$work/pristine
	rm -rf "$ROOT" && mkdir -p "$ROOT"
	make_sysfs "$state" "$nr"
	for ((i = 0; i < runs; i++)); do
		rm -rf "$work/t" && cp -a "$work/pristine" "$work/t"
		t0=$(date +%s%N)
		"$bin" --root "$work/t" scheme add lru_prio > /dev/null
		t1=$(date +%s%N)
		ms+=("$(( (t1 - t0) / 1000 ))")
	done
	# the counts of one more run, under strace (not timed)
	rm -rf "$work/t" && cp -a "$work/pristine" "$work/t"
	strace -f -qq -o "$trace" -e trace=write,pwrite64,openat,open \
		"$bin" --root "$work/t" scheme add lru_prio > /dev/null
	printf '%s %s %s\n' \
		"$(printf '%s\n' "${ms[@]}" | median | awk '{ printf "%.1f", $1 / 1000 }')" \
		"$(grep -cE '^[0-9]+ +p?write(64)?\(' "$trace" || true)" \
		"$(grep -cE '^[0-9]+ +open(at)?\(' "$trace" || true)"
}

printf 'scheme add lru_prio on a fake 6.1 sysfs tree, median of %d runs\n' "$runs"
printf '%-6s %-8s %-9s %10s %8s %8s\n' kdamond schemes damoctl ms writes opens
for state in off on; do
	for nr in 1 10 100; do
		for who in before after; do
			bin=$now
			if [ $who = before ]; then
				[ -n "$base" ] || continue
				bin=$base
			fi
			read -r ms w o < <(measure "$bin" "$state" "$nr")
			printf '%-6s %-8s %-9s %10s %8s %8s\n' "$state" "$nr" "$who" "$ms" "$w" "$o"
		done
	done
done
