#!/bin/sh
# damoctl --dry-run: these writes were not made.
# Any POSIX sh runs it: each file gets one write(), several
# lines through cat from a here-document.
set -e
# damoctl scheme add pageout sz 4K 8K access 0 5 age 10 20 quota time 10ms size 1G reset 1s weights 0 0 100 wmarks free_mem_rate 5s 600 500 300 (sysfs)
echo 1 > $ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/schemes/nr_schemes
echo 4096 > $ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/schemes/0/access_pattern/sz/min
echo 8192 > $ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/schemes/0/access_pattern/sz/max
echo 0 > $ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/schemes/0/access_pattern/nr_accesses/min
echo 5 > $ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/schemes/0/access_pattern/nr_accesses/max
echo 10 > $ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/schemes/0/access_pattern/age/min
echo 20 > $ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/schemes/0/access_pattern/age/max
echo pageout > $ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/schemes/0/action
echo 10 > $ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/schemes/0/quotas/ms
echo 1073741824 > $ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/schemes/0/quotas/bytes
echo 1000 > $ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/schemes/0/quotas/reset_interval_ms
echo 0 > $ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/schemes/0/quotas/weights/sz_permil
echo 0 > $ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/schemes/0/quotas/weights/nr_accesses_permil
echo 100 > $ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/schemes/0/quotas/weights/age_permil
echo free_mem_rate > $ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/schemes/0/watermarks/metric
echo 5000000 > $ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/schemes/0/watermarks/interval_us
echo 600 > $ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/schemes/0/watermarks/high
echo 500 > $ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/schemes/0/watermarks/mid
echo 300 > $ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/schemes/0/watermarks/low
