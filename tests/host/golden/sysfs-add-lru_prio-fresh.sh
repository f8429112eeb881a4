#!/bin/sh
# damoctl --dry-run: these writes were not made.
# Any POSIX sh runs it: each file gets one write(), several
# lines through cat from a here-document.
set -e
# damoctl scheme add lru_prio (sysfs)
echo 1 > $ROOT/sys/kernel/mm/damon/admin/kdamonds/nr_kdamonds
echo 1 > $ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/nr_contexts
echo 1 > $ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/schemes/nr_schemes
echo 4096 > $ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/schemes/0/access_pattern/sz/min
echo 18446744073709551615 > $ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/schemes/0/access_pattern/sz/max
echo 10 > $ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/schemes/0/access_pattern/nr_accesses/min
echo 4294967295 > $ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/schemes/0/access_pattern/nr_accesses/max
echo 0 > $ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/schemes/0/access_pattern/age/min
echo 4294967295 > $ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/schemes/0/access_pattern/age/max
echo lru_prio > $ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/schemes/0/action
echo 5 > $ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/schemes/0/quotas/ms
echo 0 > $ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/schemes/0/quotas/bytes
echo 1000 > $ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/schemes/0/quotas/reset_interval_ms
echo 0 > $ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/schemes/0/quotas/weights/sz_permil
echo 1 > $ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/schemes/0/quotas/weights/nr_accesses_permil
echo 0 > $ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/schemes/0/quotas/weights/age_permil
echo none > $ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/schemes/0/watermarks/metric
echo 0 > $ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/schemes/0/watermarks/interval_us
echo 0 > $ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/schemes/0/watermarks/high
echo 0 > $ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/schemes/0/watermarks/mid
echo 0 > $ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/schemes/0/watermarks/low
