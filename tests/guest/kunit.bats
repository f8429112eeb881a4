#!/usr/bin/env bats
# KUnit: the DAMON suites are built in and run at boot. Their KTAP results
# are read from the boot log guest-init saved before any test ran, and
# checked against the cases the kernel tree under test defines
# (kunit-expected.txt, staged from mm/damon/*-test.h or
# mm/damon/tests/*-kunit.h), each case where the kernel's config builds its
# suite.  A kernel built without DAMON's KUnit tests (Debian's: KUnit is not
# built in there) skips, and says so.

load helpers/common

setup() {
	need kunit
}

BOOTLOG=${DAMOS_BOOT_DMESG:-/damos/results/boot-dmesg.txt}
EXPECTED=$BATS_TEST_DIRNAME/kunit-expected.txt

# The boot log without printk timestamps.
ktap() { sed -E 's/^\[[ 0-9.]+\] ?//' "$BOOTLOG"; }

# "suite case result" for every case of a DAMON suite (result ok, fail or skip).
kunit_results() {
	ktap | awk '
		/^    # Subtest: / { suite = $3; next }
		suite ~ /^damon/ && /^    (not )?ok [0-9]+ / {
			r = ($1 == "not") ? "fail" : (/# SKIP/ ? "skip" : "ok")
			c = ($1 == "not") ? $4 : $3
			if (c == "-") c = ($1 == "not") ? $5 : $4
			print suite, c, r
		}
		/^(not )?ok [0-9]+ / { suite = "" }'
}

@test "kunit: the boot log has the DAMON suites' KTAP results" {
	assert_file_exists "$BOOTLOG"
	run kunit_results
	assert_success
	[ "${#lines[@]}" -gt 0 ] || fail "no DAMON KUnit results in $BOOTLOG"
}

@test "kunit: every case of every DAMON suite in the kernel tree ran and passed" {
	assert_file_exists "$EXPECTED"
	local results suite case r missing=0 bad=0 n=0
	results=$(kunit_results)
	while read -r suite case sym; do
		if [ -n "$sym" ] && ! kconfig "$sym"; then
			echo "# kunit $suite.$case: not built (CONFIG_$sym is not set)" >&3
			continue
		fi
		n=$((n + 1))
		r=$(awk -v s="$suite" -v c="$case" '$1 == s && $2 == c { print $3 }' <<<"$results")
		case $r in
		ok) ;;
		"") echo "missing: $suite.$case"; missing=$((missing + 1)) ;;
		*) echo "$r: $suite.$case"; bad=$((bad + 1)) ;;
		esac
	done < "$EXPECTED"
	for suite in $(awk '{ print $1 }' "$EXPECTED" | sort -u); do
		echo "# kunit $suite: $(awk -v s="$suite" '$1 == s && $3 == "ok"' <<<"$results" | wc -l) passed" >&3
	done
	echo "# kunit: $n DAMON cases expected, $((n - missing - bad)) passed, $bad failed or skipped, $missing missing" >&3
	[ "$n" -gt 0 ]
	[ "$missing" -eq 0 ]
	[ "$bad" -eq 0 ]
}

@test "kunit: no DAMON suite reports a failure" {
	run bash -c "sed -E 's/^\[[ 0-9.]+\] ?//' '$BOOTLOG' | grep -E '^not ok [0-9]+ (- )?damon'"
	assert_failure
}
