#!/bin/sh
# damoctl --dry-run: these writes were not made.
# Run with sh (dash): bash splits a multi-line printf into
# several write()s, which dbgfs refuses.
set -e
# damoctl scheme add lru_prio (dbgfs)
printf '%s\n' '4096 8192 0 5 10 20 2 10 1073741824 1000 0 0 100 1 5000000 600 500 300' '4096 18446744073709551615 10 4294967295 0 4294967295 6 5 0 1000 0 1 0 0 0 0 0 0' > $ROOT/sys/kernel/debug/damon/schemes
