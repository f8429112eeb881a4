#!/bin/sh
# damoctl --dry-run: these writes were not made.
# Run with sh (dash): bash splits a multi-line printf into
# several write()s, which dbgfs refuses.
set -e
# damoctl monitor stop (sysfs)
echo off > $ROOT/sys/kernel/mm/damon/admin/kdamonds/0/state
