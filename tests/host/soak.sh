#!/bin/bash
# soak.sh RUNS LOGDIR BATS_FILE...: run the bats files RUNS times with every
# CPU busy (stress-ng --cpu $(nproc), started here and stopped on exit), one
# line a run, then "N passed, N failed".  The TAP output of a failed run is
# kept in LOGDIR/run-N.tap.  Exit status 1 if a run failed.
# Needs DAMOCTL (the binary under test) in the environment, as check-bats.
set -u

runs=$1 logdir=$2
shift 2
: "${DAMOCTL:?DAMOCTL: the damoctl to test}"
cpus=${SOAK_CPUS:-$(nproc)}
command -v stress-ng >/dev/null || { echo "soak: stress-ng is missing (make deps)" >&2; exit 2; }
mkdir -p "$logdir"
rm -f "$logdir"/run-*.tap

stress-ng --cpu "$cpus" >"$logdir/stress-ng.log" 2>&1 &
stress=$!
trap 'kill "$stress" 2>/dev/null; wait "$stress" 2>/dev/null' EXIT
trap 'exit 130' INT TERM
sleep 1
kill -0 "$stress" 2>/dev/null || { echo "soak: stress-ng did not start:" >&2; cat "$logdir/stress-ng.log" >&2; exit 2; }
echo "soak: $runs runs of $*, under stress-ng --cpu $cpus"

pass=0 fail=0 start=$SECONDS
for ((i = 1; i <= runs; i++)); do
	t0=$SECONDS
	tap="$logdir/run-$i.tap"
	bats --tap "$@" >"$tap" 2>&1
	rc=$?
	n=$(grep -c '^ok ' "$tap")
	bad=$(grep '^not ok ' "$tap")
	load=$(cut -d' ' -f1 /proc/loadavg)
	if ! kill -0 "$stress" 2>/dev/null; then
		echo "soak: stress-ng has stopped: the runs from $i on would not be under load" >&2
		exit 2
	fi
	if [ "$rc" = 0 ] && [ -z "$bad" ]; then
		pass=$((pass + 1))
		echo "run $i/$runs: ok ($n tests, $((SECONDS - t0)) s, load $load)"
		rm -f "$tap"
	else
		fail=$((fail + 1))
		echo "run $i/$runs: FAILED (status $rc, $((SECONDS - t0)) s, load $load; $tap)"
		[ -n "$bad" ] && sed 's/^/    /' <<<"$bad"
	fi
done
echo "soak: $((SECONDS - start)) s"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
