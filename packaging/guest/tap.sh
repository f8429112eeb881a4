# shellcheck shell=bash
# tap.sh: TAP lines for make check-deb's guest scripts, sourced by them.
# check NAME CMD...: one test, ok when CMD succeeds; its output on failure.
n=0
failed=0
check() {
	local name=$1 out rc
	shift
	n=$((n + 1))
	out=$("$@" 2>&1) && rc=0 || rc=$?
	if [ $rc = 0 ]; then
		echo "ok $n - $name"
	else
		echo "not ok $n - $name"
		printf '%s\n' "$out" | tail -n 20 | sed 's/^/# /'
		failed=$((failed + 1))
	fi
	return 0
}
plan() { echo "1..$n"; }
