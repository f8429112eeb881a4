#!/bin/sh
# damoctl --dry-run: these writes were not made.
# Any POSIX sh runs it: each file gets one write(), several
# lines through cat from a here-document.
set -e
# damoctl monitor stop (sysfs)
echo off > $ROOT/sys/kernel/mm/damon/admin/kdamonds/0/state
