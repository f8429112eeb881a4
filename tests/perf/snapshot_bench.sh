#!/bin/bash
# snapshot_bench.sh BUILD [REGIONS] [RUNS]: what an access snapshot of
# REGIONS (default 1000) regions costs: wall time and peak memory
# (getrusage's maxrss) of damon_access_snapshot() and of damoctl's report
# access and report heatmap.  On a fake 6.12 sysfs tree (tests/host's
# helpers, in a temporary directory): it measures damoctl and libdamos
# reading, parsing and binning the regions, not the kernel's update of
# them.  Figures only; nothing passes or fails on them.
set -euo pipefail

build=$1 nr=${2:-1000} runs=${3:-20}
here=$(cd "$(dirname "$0")" && pwd)
ROOT=$(mktemp -d "${TMPDIR:-/tmp}/damos-snapbench.XXXXXX")
trap 'rm -rf "$ROOT"' EXIT

bats_load_library() { :; }
BATS_TEST_DIRNAME=$here/../host DAMOCTL=$1/damoctl
# shellcheck source=/dev/null
. "$here/../host/helper.bash"
# shellcheck source=/dev/null
. "$here/../host/report.bash"

make_612 on 1
stat_all 0 < /dev/null
t="$(CTX)/schemes/0/tried_regions"
# 4 KiB apart from 4 GiB, access counts and ages varying
for ((i = 0; i < nr; i++)); do
	mkdir -p "$t/$i"
	printf '%d\n' $((4294967296 + i * 1048576)) > "$t/$i/start"
	printf '%d\n' $((4294967296 + (i + 1) * 1048576)) > "$t/$i/end"
	printf '%d\n' $((i * 7 % 21)) > "$t/$i/nr_accesses"
	printf '%d\n' $((i % 50)) > "$t/$i/age"
done

echo "snapshot benchmark: $nr regions on a fake 6.12 sysfs tree (no kernel), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
"$build/perf/snapbench" "$ROOT" "$runs" "$build/damoctl"
