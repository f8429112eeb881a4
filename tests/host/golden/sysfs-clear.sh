#!/bin/sh
# damoctl --dry-run: these writes were not made.
# Any POSIX sh runs it: each file gets one write(), several
# lines through cat from a here-document.
set -e
# damoctl scheme clear (sysfs)
echo 0 > $ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/schemes/nr_schemes
echo commit > $ROOT/sys/kernel/mm/damon/admin/kdamonds/0/state
