#!/bin/sh
# damoctl --dry-run: these writes were not made.
# Any POSIX sh runs it: each file gets one write(), several
# lines through cat from a here-document.
set -e
# damoctl scheme add lru_prio (dbgfs)
cat > $ROOT/sys/kernel/debug/damon/schemes <<'EOF'
4096 8192 0 5 10 20 2 10 1073741824 1000 0 0 100 1 5000000 600 500 300
4096 18446744073709551615 10 4294967295 0 4294967295 6 5 0 1000 0 1 0 0 0 0 0 0
EOF
