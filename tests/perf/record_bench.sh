#!/bin/bash
# record_bench.sh DAMOCTL [DAMO]: report heatmap and report wss --input on
# records of 1,000 and 10,000 regions x 100 snapshots (damo's
# json_compressed, made by mkrecord.py), by damoctl and by damo (DAMO: the
# damo script of a damo source tree, e.g. v3.3.0's "git archive v3.3.0 src
# damo"; without it damoctl alone).  Wall time, CPU time and peak memory
# (GNU time's %e %U+%S %M) of one run each, and damo/damoctl ratios.
# Figures only; nothing passes or fails on them.  BENCH_SIZES="1000 10000"
# and BENCH_SNAPSHOTS=100 change the records.
set -euo pipefail

damoctl=$1 damo=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d "${TMPDIR:-/tmp}/damos-recbench.XXXXXX")
trap 'rm -rf "$dir"' EXIT
mkdir "$dir/root"	# --root of nothing: no kernel, no lock

# measure NAME CMD...: "NAME wall cpu maxrss_kb" (stdout of CMD dropped)
measure() {
	local name=$1 e u s m
	shift
	if ! /usr/bin/time -f '%e %U %S %M' -o "$dir/time" "$@" > /dev/null 2> "$dir/err"; then
		echo "$name failed: $(tail -n 3 "$dir/err")" >&2
		echo "$name - - -"
		return
	fi
	read -r e u s m < "$dir/time"
	echo "$name $e $(echo "$u + $s" | bc) $m"
}

ratio() {
	if [ "$1" = - ] || [ "$2" = - ]; then
		echo -
	else
		echo "scale=1; $1 / ($2 + 0.0005)" | bc
	fi
}

echo "record benchmark: $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)${damo:+, damo $damo}"
printf '%-8s %-8s %-8s %9s %9s %10s\n' regions report tool wall_s cpu_s maxrss_kb
for n in ${BENCH_SIZES:-1000 10000}; do
	rec=$dir/rec-$n.z
	/usr/bin/python3 "$here/mkrecord.py" "$n" "${BENCH_SNAPSHOTS:-100}" "$rec"
	for r in heatmap wss; do
		extra=()
		[ $r = heatmap ] && extra=(color never)
		read -r _ de dc dm < <(COLUMNS=88 LINES=44 measure damoctl "$damoctl" --root "$dir/root" report $r --input "$rec" "${extra[@]}")
		printf '%-8s %-8s %-8s %9s %9s %10s\n' "$n" $r damoctl "$de" "$dc" "$dm"
		[ -n "$damo" ] || continue
		read -r _ pe pc pm < <(measure damo /usr/bin/python3 "$damo" report $r --input "$rec")
		printf '%-8s %-8s %-8s %9s %9s %10s\n' "$n" $r damo "$pe" "$pc" "$pm"
		printf '%-8s %-8s %-8s %9s %9s %10s\n' "$n" $r damo/ctl "$(ratio "$pe" "$de")" "$(ratio "$pc" "$dc")" "$(ratio "$pm" "$dm")"
	done
done
