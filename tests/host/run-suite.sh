#!/bin/bash
# run-suite.sh ALLOWED TAP -- BATS-ARGS...: the host bats suite, as make
# check-bats runs it.  bats exits 0 on a skip, so a test that skips for a
# missing library or tool would pass unseen; here every skip must match a
# line of ALLOWED (a reviewed list: a glob of the skip reason, a tab, why
# the test may not run there), and any other skip fails the run.  The TAP
# output is kept in TAP; the closing line counts what ran:
#
#   check-bats: 254 passed, 0 failed, 0 skipped
set -uo pipefail
allowed=$1 tap=$2
shift 3
bats --formatter tap "$@" | tee "$tap"
rc=${PIPESTATUS[0]}

passed=0 failed=0 skipped=0 bad=0
while IFS= read -r line; do
	case $line in
	"not ok "*) failed=$((failed + 1)) ;;
	"ok "*" # skip"*)
		skipped=$((skipped + 1))
		reason=${line#* # skip}
		reason=${reason# }
		ok=
		while IFS=$'\t' read -r glob why; do
			[[ -z $glob || $glob == '#'* ]] && continue
			# shellcheck disable=SC2053
			[[ $reason == $glob ]] && { ok=1; break; }
		done < "$allowed"
		if [ -z "$ok" ]; then
			bad=$((bad + 1))
			echo "check-bats: skip not in $allowed: ${line#ok }" >&2
		fi
		;;
	"ok "*) passed=$((passed + 1)) ;;
	esac
done < "$tap"
echo "check-bats: $passed passed, $failed failed, $skipped skipped"
if [ "$bad" -gt 0 ]; then
	echo "check-bats: $bad skip(s) without a reason in $allowed: a host test" \
		"that cannot run here is a failure (install its tool: make deps)" >&2
	exit 1
fi
[ "$passed" -gt 0 ] || { echo "check-bats: no test ran" >&2; exit 1; }
exit "$rc"
