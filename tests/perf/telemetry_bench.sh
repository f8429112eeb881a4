#!/bin/bash
# telemetry_bench.sh DAMOCTL: (the test build, whose fake kernel answers
# state commands) what a refresh of the metrics textfile costs
# (monitor status --format prometheus --output FILE, access telemetry
# included) with 1,000 and 10,000 tried regions of a match-all stat scheme
# on a fake 6.12 sysfs tree: CPU time (user + sys) and wall time per
# refresh, the mean of BENCH_RUNS (default 20).  It measures damoctl
# reading the files and computing the gauges, not the kernel's listing of
# the regions.  Figures only; nothing passes or fails on them.
set -euo pipefail

damoctl=$1 runs=${BENCH_RUNS:-20}
here=$(cd "$(dirname "$0")" && pwd)
ROOT=$(mktemp -d "${TMPDIR:-/tmp}/damos-tmbench.XXXXXX")
trap 'rm -rf "$ROOT"' EXIT

bats_load_library() { :; }
# shellcheck disable=SC2034 # helper.bash reads it
BATS_TEST_DIRNAME=$here/../host
# shellcheck source=/dev/null
. "$here/../host/helper.bash"
# shellcheck source=/dev/null
. "$here/../host/report.bash"

echo "telemetry refresh benchmark: $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), $runs refreshes each"
printf '%-8s %14s %14s\n' regions cpu_ms/refresh wall_ms/refresh
for n in ${BENCH_SIZES:-1000 10000}; do
	rm -rf "${ROOT:?}"/*
	make_612 on 1
	stat_all 0 < /dev/null
	/usr/bin/python3 - "$(CTX)/schemes/0/tried_regions" "$n" <<'PY'
import os, sys
t, n = sys.argv[1], int(sys.argv[2])
for i in range(n):
    d = os.path.join(t, str(i))
    os.makedirs(d)
    for k, v in (("start", (1 << 32) + i * 1048576), ("end", (1 << 32) + (i + 1) * 1048576),
                 ("nr_accesses", i * 7 % 21), ("age", i % 50)):
        with open(os.path.join(d, k), "w") as f:
            f.write("%d\n" % v)
PY
	"$damoctl" --root "$ROOT" monitor status --format prometheus --output "$ROOT/damon.prom"
	grep -q "damon_access_regions{.*} $n\$" "$ROOT/damon.prom" ||
		{ echo "telemetry_bench: the textfile lacks $n regions" >&2; exit 1; }
	# shellcheck disable=SC2016 # the inner script's own arguments
	/usr/bin/time -f '%e %U %S' -o "$ROOT/time" bash -c '
		for ((i = 0; i < $1; i++)); do
			"$2" --root "$3" monitor status --format prometheus --output "$3/damon.prom" || exit 1
		done' _ "$runs" "$damoctl" "$ROOT"
	read -r e u s < "$ROOT/time"
	printf '%-8s %14s %14s\n' "$n" "$(echo "scale=2; ($u + $s) * 1000 / $runs" | bc)" \
		"$(echo "scale=2; $e * 1000 / $runs" | bc)"
done
