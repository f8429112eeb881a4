#!/bin/bash
# stage-kunit.sh KERNEL_SRC OUT: list the DAMON KUnit cases the kernel tree
# defines, one "suite case" per line, from mm/damon/*-test.h, so kunit.bats
# checks that each of them (the series' new ones too) ran and passed.
set -euo pipefail
src=$1 out=$2
shopt -s nullglob
files=("$src"/mm/damon/*-test.h)
[ ${#files[@]} -gt 0 ] || { echo "stage-kunit: no $src/mm/damon/*-test.h" >&2; exit 1; }
for f in "${files[@]}"; do
	suite=$(sed -n 's/^[[:space:]]*\.name = "\(.*\)",.*/\1/p' "$f" | head -n 1)
	[ -n "$suite" ] || continue
	sed -n 's/^[[:space:]]*KUNIT_CASE[A-Z_]*(\([a-zA-Z0-9_]*\).*/\1/p' "$f" |
		sed "s/^/$suite /"
done > "$out"
echo "  KUNIT $(wc -l < "$out") DAMON cases in $(cut -d' ' -f1 "$out" | sort -u | paste -sd' ' -)"
