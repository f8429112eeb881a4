#!/bin/bash
# stage-kunit.sh KERNEL_SRC OUT: list the DAMON KUnit cases the kernel tree
# defines, one "suite case CONFIG_SYMBOL" per line, from mm/damon/*-test.h
# (6.1) or mm/damon/tests/*-kunit.h (6.8 and later), so kunit.bats checks
# that each of them (the series' new ones too) ran and passed wherever the
# kernel's config builds its file (core: DAMON_KUNIT_TEST, NAME:
# DAMON_NAME_KUNIT_TEST).
set -euo pipefail
src=$1 out=$2
shopt -s nullglob
files=("$src"/mm/damon/*-test.h "$src"/mm/damon/tests/*-kunit.h)
[ ${#files[@]} -gt 0 ] || { echo "stage-kunit: no $src/mm/damon/*-test.h nor $src/mm/damon/tests/*-kunit.h" >&2; exit 1; }
for f in "${files[@]}"; do
	suite=$(sed -n 's/^[[:space:]]*\.name = "\(.*\)",.*/\1/p' "$f" | head -n 1)
	[ -n "$suite" ] || continue
	name=$(basename "$f"); name=${name%-test.h}; name=${name%-kunit.h}
	case $name in
	core) sym=DAMON_KUNIT_TEST ;;
	*) sym=DAMON_$(tr a-z A-Z <<<"$name")_KUNIT_TEST ;;
	esac
	sed -n 's/^[[:space:]]*KUNIT_CASE[A-Z_]*(\([a-zA-Z0-9_]*\).*/\1/p' "$f" |
		sed "s/\$/ $sym/; s/^/$suite /"
done > "$out"
echo "  KUNIT $(wc -l < "$out") DAMON cases in $(cut -d' ' -f1 "$out" | sort -u | paste -sd' ' -)"
