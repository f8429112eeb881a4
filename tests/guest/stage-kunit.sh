#!/bin/bash
# stage-kunit.sh KERNEL_SRC OUT: list the DAMON KUnit cases the kernel tree
# defines, one "suite case" per line, so kunit.bats checks that each of them
# (the series' new ones too) ran and passed.  The suites are in
# mm/damon/*-test.h on 6.1 and in mm/damon/tests/*-kunit.h on 6.12
# (the files moved in between); a tree may have either.
set -euo pipefail
src=$1 out=$2
shopt -s nullglob
files=("$src"/mm/damon/*-test.h "$src"/mm/damon/tests/*-kunit.h)
[ ${#files[@]} -gt 0 ] || { echo "stage-kunit: neither $src/mm/damon/*-test.h nor $src/mm/damon/tests/*-kunit.h" >&2; exit 1; }
for f in "${files[@]}"; do
	suite=$(sed -n 's/^[[:space:]]*\.name = "\(.*\)",.*/\1/p' "$f" | head -n 1)
	[ -n "$suite" ] || continue
	sed -n 's/^[[:space:]]*KUNIT_CASE[A-Z_]*(\([a-zA-Z0-9_]*\).*/\1/p' "$f" |
		sed "s/^/$suite /"
done > "$out"
echo "  KUNIT $(wc -l < "$out") DAMON cases in $(cut -d' ' -f1 "$out" | sort -u | paste -sd' ' -)"
