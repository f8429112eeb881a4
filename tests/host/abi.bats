#!/usr/bin/env bats
# The abi check (make check-abi) fails when a fact of the 2.0 baseline
# changes: an enum value, a struct member's offset, an exported symbol.

load helper

SRC="$BATS_TEST_DIRNAME/../.."

lost() {	# the facts of BASELINE that HEADER and the built library lose
	"$SRC/tests/abi/abi.sh" "$1" "$SO" "${CC:-cc}" | LC_ALL=C sort > "$BATS_TEST_TMPDIR/now"
	LC_ALL=C sort "${2:-$SRC/tests/abi/libdamos-2.0.abi}" |
		LC_ALL=C comm -23 - "$BATS_TEST_TMPDIR/now"
}

setup() {
	SO="$(dirname "$DAMOCTL_SHIPPED")/libdamos.so"
	[ -e "$SO" ] || skip "no $SO"
	command -v nm >/dev/null || skip "nm not installed"
}

@test "abi: the header as it is keeps the baseline" {
	run lost "$SRC/lib/damos.h"
	assert_success
	assert_output ""
}

@test "abi: a renumbered action, a moved member, a lost symbol all fail" {
	sed -e 's/DAMOS_ACTION_STAT = 7,/DAMOS_ACTION_STAT = 10,/' \
		-e 's/^\tint kdamond;\(.*sysfs: kdamonds\)/\tuint64_t kdamond;\1/' \
		"$SRC/lib/damos.h" > "$BATS_TEST_TMPDIR/damos.h"
	run lost "$BATS_TEST_TMPDIR/damos.h"
	assert_line "enum DAMOS_ACTION_STAT=7"
	assert_line "offset damon_opts.dbgfs_ctx=24"
	# a symbol of the baseline that the library no longer exports
	{ cat "$SRC/tests/abi/libdamos-2.0.abi"; echo "sym damos_gone@@LIBDAMOS_2.0"; } \
		> "$BATS_TEST_TMPDIR/base"
	run lost "$SRC/lib/damos.h" "$BATS_TEST_TMPDIR/base"
	assert_output "sym damos_gone@@LIBDAMOS_2.0"
}
