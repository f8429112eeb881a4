#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Host-only checks of the benchmark's user-space parts: no root, no kernel
# state.  The workload runs small; results are synthetic where the guest
# would measure, so only the plumbing and the arithmetic are under test.
#
# usage: selftest.sh BINDIR
set -eu -o pipefail

BIN=${1:?usage: selftest.sh BINDIR}
HERE=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$T"' EXIT
fail() { echo "perf selftest: FAIL: $*" >&2; exit 1; }
ok() { echo "perf selftest: ok: $*"; }

WL="--hot 64K --cold 448K --skew 90 --phases 3 --accesses 200000"

# shellcheck disable=SC2086
"$BIN/hotcold" $WL --trace "$T/a.bin" --progress "$T/p.txt" > "$T/a.out"
# shellcheck disable=SC2086
"$BIN/hotcold" $WL --trace "$T/b.bin" --trace-only > /dev/null
cmp -s "$T/a.bin" "$T/b.bin" || fail "--trace-only differs from a real run's trace"
ok "trace is deterministic and --trace-only matches a real run"

# the TLB flush touches its own mapping only: same trace, same data
# shellcheck disable=SC2086
"$BIN/hotcold" $WL --tlb-flush 0 --trace "$T/c.bin" > "$T/c.out"
cmp -s "$T/a.bin" "$T/c.bin" || fail "--tlb-flush 0 changes the trace"
sum() { sed -n 's/.*checksum=\([0-9a-f]*\).*/\1/p' "$1"; }
[ "$(sum "$T/a.out")" = "$(sum "$T/c.out")" ] || fail "--tlb-flush 0 changes the data read"
grep -q 'tlb_flush_every=4096 tlb_flushes=48 ' "$T/a.out" ||
	fail "expected 48 TLB flushes in 200000 accesses: $(cat "$T/a.out")"
grep -q 'tlb_flush_every=0 tlb_flushes=0 ' "$T/c.out" || fail "--tlb-flush 0 still flushes"
ok "TLB flush: counted, and no effect on the trace or the data"

grep -q 'runtime_s=[0-9.]* .*accesses=200000 .*pages=128 hot_pages=16 ' "$T/a.out" ||
	fail "unexpected hotcold report: $(cat "$T/a.out")"
awk 'NR > 1 && ($1 < t || $2 < i) { exit 1 } { t = $1; i = $2 }' "$T/p.txt" ||
	fail "progress log not monotonic"
ok "report and progress log"

"$BIN/hotcold" --skew 101 2> /dev/null && fail "--skew 101 accepted"
"$BIN/hotcold" --hot 1x 2> /dev/null && fail "--hot 1x accepted"
"$BIN/hotcold" --tlb-flush -1 2> /dev/null && fail "--tlb-flush -1 accepted"
ok "bad options rejected"

# tlbshake: pinned, counts its wakeups, names a bad value
out=$("$BIN/tlbshake" -c 0 -i 100000 -d 1) || fail "tlbshake -d 1 failed"
[[ $out =~ ^wakeups=([0-9]+)$ ]] && [ "${BASH_REMATCH[1]}" -ge 1 ] ||
	fail "tlbshake report: '$out'"
for bad in "-i 0" "-i 2x" "-c -1" "-d x" "extra"; do
	# shellcheck disable=SC2086
	err=$("$BIN/tlbshake" $bad 2>&1 >/dev/null) && fail "tlbshake $bad accepted"
	v=${bad#* }
	[[ $err == *"'$v'"* ]] || fail "tlbshake $bad: error does not name '$v': $err"
done
ok "tlbshake: report and bad options"

run_oracle() { "$BIN/hcoracle" -t "$T/a.bin" "$@" | sed -n 's/.*oracle_majflt=\([0-9]*\) pinned_lru_majflt=\([0-9]*\).*/\1 \2/p'; }
read -r m l < <(run_oracle -c 128)
[ "$m" = 0 ] && [ "$l" = 0 ] || fail "faults with every page resident: $m $l"
prev=1000000000
for cap in 24 48 72 96 120; do
	read -r m l < <(run_oracle -c $cap)
	[ "$m" -le "$l" ] || fail "MIN ($m) above pinned LRU ($l) at $cap pages"
	[ "$m" -le "$prev" ] || fail "MIN not monotonic in capacity at $cap pages"
	prev=$m
done
ok "oracle: zero when all fits, MIN <= LRU, monotonic in capacity"

# a limits log over the run's own timeline: 75% then 200% then 75%
t0=$(head -1 "$T/p.txt" | cut -d' ' -f1)
t1=$(tail -1 "$T/p.txt" | cut -d' ' -f1)
mid=$(( t0 + (t1 - t0) / 2 ))
printf '%s %s\n%s %s reached\n%s %s\n%s %s\n' "$t0" $((96 * 4096)) "$t0" $((96 * 4096)) \
	$((t0 + 1)) max "$mid" $((96 * 4096)) > "$T/l.txt"
read -r m l < <(run_oracle -P "$T/p.txt" -l "$T/l.txt")
read -r mfull _ < <(run_oracle -c 96)
[ "$m" -le "$mfull" ] || fail "time-varying limit gave more faults ($m) than a constant one ($mfull)"
# a 'cut' note raises the episode's limit to the charge reached: fewer faults
sed "\$a $mid $((110 * 4096)) cut" "$T/l.txt" > "$T/lc.txt"
read -r mc _ < <(run_oracle -P "$T/p.txt" -l "$T/lc.txt")
[ "$mc" -lt "$m" ] || fail "a 'cut' note did not raise the limit ($mc vs $m faults)"
grep -q 'limit_changes=1 ' <("$BIN/hcoracle" -t "$T/a.bin" -P "$T/p.txt" -l "$T/l.txt") ||
	fail "a 'reached' note counted as a limit change"
ok "oracle follows a limits log ($m faults vs $mfull at a constant limit)"

# ---- analysis on synthetic results ----
O=$T/out
mkdir -p "$O/runs"
echo "workload=$WL" > "$O/params.txt"
echo "peak_bytes=$((140 * 4096)) limit_lo=1 limit_hi=2" >> "$O/params.txt"
echo "kernel=synthetic" > "$O/env.txt"
for r in 1 2 3 4 5; do
	for c in orig mprs plrus-dbgfs plrus-sysfs lru_sort lru_sort-tuned; do
		case $c in
		orig) rt=10 mj=10 psi=100 cpu=0 ;;
		mprs) rt=20 mj=1000 psi=10000 cpu=0 ;;
		plrus-dbgfs) rt=19 mj=800 psi=9000 cpu=2.5 ;;
		plrus-sysfs) rt=18 mj=850 psi=8800 cpu=2.4 ;;
		*) rt=20 mj=990 psi=9900 cpu=0.5 ;;
		esac
		echo "config=$c round=$r status=0 runtime_s=$rt.$r majflt=$((mj / 2)) pgmajfault=$((mj + r)) psi_some_us=$((psi + r)) kdamond_cpu_pct=$cpu oom_kill=0 loadavg=0.5" >> "$O/results.txt"
		if [ "$c" != orig ]; then
			mkdir -p "$O/runs/$c-$r"
			cp "$T/p.txt" "$O/runs/$c-$r/progress.txt"
			cp "$T/l.txt" "$O/runs/$c-$r/limits.txt"
		fi
	done
done
echo "config=mprs round=6 failed=damon_start" >> "$O/results.txt"
"$HERE/analyze.sh" "$O" "$BIN" > "$T/an.out" || fail "analyze.sh failed"
last=$(tail -1 "$T/an.out")
[[ $last =~ ^plrus/mprs\ runtime=[0-9]+\.[0-9]{2}\ majfaults=[0-9]+\.[0-9]{2}\ psi=[0-9]+\.[0-9]{2}\ kdamond_cpu=[0-9]+\.[0-9]{2}%$ ]] ||
	fail "last line: '$last'"
# plrus-sysfs wins on the product of ratios: runtime 18.3/20.3
[ "$last" = "plrus/mprs runtime=0.90 majfaults=0.85 psi=0.88 kdamond_cpu=2.40%" ] ||
	fail "wrong numbers: '$last'"
grep -q '^runtime_s .*20\.30±' "$O/table.txt" || fail "table: mprs runtime mean"
grep -q '^runs (failed) *5(0) *5(1) ' "$O/table.txt" || fail "table: failed run not counted"
grep -q 'measured/floor' "$O/table.txt" || fail "table: no floor"
# runtime 18.3 vs mprs 20.3, sd 0.16 each over 5 runs (mprs's 6th failed)
grep -Eq '^  plrus-sysfs +-20\.00 +-150\.00 +-1200\.00$' "$O/table.txt" || fail "table: z of plrus-sysfs vs mprs: $(grep '^  plrus-sysfs ' "$O/table.txt")"
ok "analysis: table, floor and final line ($last)"
# the same results from fio: no trace, so no floor, and no hotcold run
F=$T/fio
cp -r "$O" "$F"
rm -f "$F"/oracle.txt "$F"/table.txt
sed -i '1i program=fio' "$F/params.txt"
sed -i 's/^workload=.*/workload=--size=1M --bs=4k/' "$F/params.txt"
"$HERE/analyze.sh" "$F" "$BIN" > "$T/fan.out" || fail "analyze.sh failed on fio results"
[ "$(tail -1 "$T/fan.out")" = "$last" ] || fail "fio: final line '$(tail -1 "$T/fan.out")'"
grep -q '^floor: none for fio' "$F/table.txt" || fail "fio table: no 'floor: none' note"
grep -q 'measured/floor' "$F/table.txt" && fail "fio table: a floor without a trace"
[ -s "$F/oracle.txt" ] && fail "fio: the oracle ran"
grep -q '^workload: fio --size=1M' "$F/table.txt" || fail "fio table: workload not named"
ok "analysis of fio results: no floor, same final line"

if command -v gnuplot > /dev/null; then
	[ -s "$O/ratios.png" ] || fail "no plot"
	ok "plot written"
fi
