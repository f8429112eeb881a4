#!/bin/sh
# damoctl --dry-run: these writes were not made.
# Any POSIX sh runs it: each file gets one write(), several
# lines through cat from a here-document.
set -e
# damoctl attrs set aggr 200ms (sysfs)
echo 5000 > $ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/monitoring_attrs/intervals/sample_us
echo 200000 > $ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/monitoring_attrs/intervals/aggr_us
echo 1000000 > $ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/monitoring_attrs/intervals/update_us
echo 10 > $ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/monitoring_attrs/nr_regions/min
echo 1000 > $ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/monitoring_attrs/nr_regions/max
echo commit > $ROOT/sys/kernel/mm/damon/admin/kdamonds/0/state
