#!/bin/sh
# damoctl --dry-run: these writes were not made.
# Any POSIX sh runs it: each file gets one write(), several
# lines through cat from a here-document.
set -e
# damoctl target set vaddr pid 1234 region 0x1000 0x2000 (sysfs)
echo vaddr > $ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/operations
echo 1 > $ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/targets/nr_targets
echo 1234 > $ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/targets/0/pid_target
echo 1 > $ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/targets/0/regions/nr_regions
echo 4096 > $ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/targets/0/regions/0/start
echo 8192 > $ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/targets/0/regions/0/end
echo commit > $ROOT/sys/kernel/mm/damon/admin/kdamonds/0/state
