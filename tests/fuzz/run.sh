#!/usr/bin/env bash
# tests/fuzz/run.sh MODE SECONDS TARGET...: the work behind the fuzz targets
# of tests/fuzz/fuzz.mk (which sets FUZZ_OUT, FUZZ_BUILD, FUZZ_NICE).
#
#   long   fuzz each target SECONDS at nice FUZZ_NICE, corpus kept in
#          $FUZZ_OUT/corpus/<t>, crashes in $FUZZ_OUT/artifacts/<t>/, one
#          line per run appended to $FUZZ_OUT/summary.tsv
#   short  replay each seed corpus, then fuzz SECONDS in a scratch corpus
#   merge  add the inputs of $FUZZ_OUT/corpus/<t> that bring new coverage
#          to the seed corpus tests/fuzz/corpus/<t>
#
# Exit status 1 if any target found a crash, leak or UB report.
set -uo pipefail

mode=$1 secs=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
: "${FUZZ_OUT:=fuzz-out}" "${FUZZ_BUILD:=build/fuzz}" "${FUZZ_NICE:=19}"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:symbolize=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

# Inputs larger than a real schemes file are not interesting; the dbgfs
# target gets room for a few hundred lines.
max_len() { case $1 in dbgfs) echo 32768 ;; *) echo 4096 ;; esac; }

stat_of() { sed -n "s/^stat::$1: *//p" "$2" | tail -n 1; }

fail=0 total=0
for t in "$@"; do
	bin=$FUZZ_BUILD/fuzz_$t seeds=$here/corpus/$t dict=$here/$t.dict
	[ -x "$bin" ] || { echo "fuzz: $bin is not built" >&2; exit 2; }
	[ -d "$seeds" ] || { echo "fuzz: no seed corpus $seeds" >&2; exit 2; }
	opts=(-max_len="$(max_len "$t")" -timeout=10 -rss_limit_mb=2048
	      -print_final_stats=1)
	[ -f "$dict" ] && opts+=(-dict="$dict")
	case $mode in
	long)
		corpus=$FUZZ_OUT/corpus/$t art=$FUZZ_OUT/artifacts/$t
		log=$FUZZ_OUT/logs/$t-$(date +%Y%m%d-%H%M%S).log
		mkdir -p "$corpus" "$art" "$FUZZ_OUT/logs"
		echo "fuzz: $t for ${secs}s (log: $log)"
		nice -n "$FUZZ_NICE" "$bin" "${opts[@]}" -use_value_profile=1 \
			-max_total_time="$secs" -artifact_prefix="$art/" \
			"$corpus" "$seeds" >"$log" 2>&1
		rc=$? ;;
	short)
		corpus=$FUZZ_BUILD/short/$t log=$FUZZ_BUILD/short/$t.log
		rm -rf "$corpus" && mkdir -p "$corpus"
		"$bin" "${opts[@]}" -max_total_time="$secs" \
			-artifact_prefix="$FUZZ_BUILD/short/$t-" \
			"$corpus" "$seeds" >"$log" 2>&1
		rc=$? ;;
	merge)
		corpus=$FUZZ_OUT/corpus/$t log=$FUZZ_OUT/logs/$t-merge.log
		mkdir -p "$corpus" "$FUZZ_OUT/logs"
		before=$(find "$seeds" -type f | wc -l)
		"$bin" "${opts[@]}" -merge=1 "$seeds" "$corpus" >"$log" 2>&1
		rc=$?
		echo "fuzz: $t: seed corpus $before -> $(find "$seeds" -type f | wc -l) inputs"
		[ $rc = 0 ] || { tail -n 20 "$log"; fail=1; }
		continue ;;
	*)
		echo "usage: $0 long|short|merge SECONDS TARGET..." >&2; exit 2 ;;
	esac
	execs=$(stat_of number_of_executed_units "$log")
	n=$(find "$corpus" -type f | wc -l)
	total=$((total + ${execs:-0}))
	if [ $rc = 0 ]; then
		res=ok
	else
		res=FAIL fail=1
		grep -E '^(==[0-9]+==ERROR|SUMMARY|fuzz property|.*runtime error)' "$log" | head -n 5
		grep -E 'Test unit written to' "$log" | head -n 1
		echo "fuzz: $t: full log: $log"
	fi
	printf 'fuzz: %-8s %-4s %10s execs in %ss, corpus %s inputs (+%s seeds)\n' \
		"$t" "$res" "${execs:-?}" "$secs" "$n" "$(find "$seeds" -type f | wc -l)"
	if [ "$mode" = long ]; then
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" \
			"$(git -C "$here" rev-parse --short HEAD 2>/dev/null)" \
			"$t" "$secs" "${execs:-?}" "$n" "$res" >>"$FUZZ_OUT/summary.tsv"
	fi
done
[ "$mode" = merge ] || echo "fuzz: $# targets, $total executions, $([ $fail = 0 ] && echo 'no findings' || echo 'FINDINGS (see above)')"
exit $fail
