#!/bin/bash
# soak.sh RUNS LOGDIR BATS_FILE...: run the bats files RUNS times with every
# CPU busy (stress-ng --cpu $(nproc), started here and stopped on exit), one
# line a run, then "N passed, N failed".  SOAK_JOBS runs at a time (1).
# The TAP output of a failed run is kept in LOGDIR/run-N.tap.  Exit status
# 1 if a run failed.
# Needs DAMOCTL (the binary under test) in the environment, as check-bats.
set -u

runs=$1 logdir=$2
shift 2
: "${DAMOCTL:?DAMOCTL: the damoctl to test}"
cpus=${SOAK_CPUS:-$(nproc)}
jobs=${SOAK_JOBS:-1}
command -v stress-ng >/dev/null || { echo "soak: stress-ng is missing (make deps)" >&2; exit 2; }
mkdir -p "$logdir"
rm -f "$logdir"/run-*.tap "$logdir"/run-*.rc

stress-ng --cpu "$cpus" >"$logdir/stress-ng.log" 2>&1 &
stress=$!
disown		# not one of the runs that "wait" waits for
trap 'kill "$stress" 2>/dev/null; wait "$stress" 2>/dev/null' EXIT
trap 'exit 130' INT TERM
sleep 1
kill -0 "$stress" 2>/dev/null || { echo "soak: stress-ng did not start:" >&2; cat "$logdir/stress-ng.log" >&2; exit 2; }
echo "soak: $runs runs of $*, $jobs at a time, under stress-ng --cpu $cpus"

# one run: its line, and its status in LOGDIR/run-N.rc
one() {
	local i=$1 t0=$SECONDS tap="$logdir/run-$1.tap" rc n bad load

	bats --tap "${files[@]}" >"$tap" 2>&1
	rc=$?
	n=$(grep -c '^ok ' "$tap")
	bad=$(grep '^not ok ' "$tap")
	load=$(cut -d' ' -f1 /proc/loadavg)
	if [ "$rc" = 0 ] && [ -z "$bad" ]; then
		echo "run $i/$runs: ok ($n tests, $((SECONDS - t0)) s, load $load)"
		rm -f "$tap"
	else
		[ "$rc" = 0 ] && rc=1
		echo "run $i/$runs: FAILED (status $rc, $((SECONDS - t0)) s, load $load; $tap)${bad:+
$(sed 's/^/    /' <<<"$bad")}"
	fi
	echo "$rc" >"$logdir/run-$i.rc"
}

files=("$@")
start=$SECONDS
for ((i = 1; i <= runs; i++)); do
	while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
		wait -n
	done
	if ! kill -0 "$stress" 2>/dev/null; then
		echo "soak: stress-ng has stopped: the runs from $i on would not be under load" >&2
		exit 2
	fi
	one "$i" &
done
wait
kill -0 "$stress" 2>/dev/null ||
	{ echo "soak: stress-ng stopped before the last run ended" >&2; exit 2; }
pass=$(cat "$logdir"/run-*.rc | grep -cx 0)
fail=$((runs - pass))
echo "soak: $((SECONDS - start)) s"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
