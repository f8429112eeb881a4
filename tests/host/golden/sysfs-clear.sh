#!/bin/sh
# damoctl --dry-run: these writes were not made.
# Run with sh (dash): bash splits a multi-line printf into
# several write()s, which dbgfs refuses.
set -e
# damoctl scheme clear (sysfs)
echo 0 > $ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/schemes/nr_schemes
echo commit > $ROOT/sys/kernel/mm/damon/admin/kdamonds/0/state
