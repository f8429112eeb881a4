#!/bin/bash
# hostile_input.sh [CLASS...]: throw at DAMON's dbgfs and sysfs files what
# real scripts get wrong, in the damos guest (root, a throwaway kernel: never
# on a host).  Classes, all by default:
#
#   random      random bytes, near-miss numbers, typos in valid lines
#   long        very long lines (1 MiB, 16 MiB, 64 MiB), and inputs at and
#               over the series' cap of the input of one open dbgfs file
#   split       one content split over several write() calls
#   offset      writes at an offset
#   many        10,000 schemes (dbgfs: one write; sysfs: nr_schemes)
#   numbers     negative and overflowing numbers in every field
#   nul         embedded NULs
#   concurrent  several processes writing while monitor_on / state toggle
#   cmdrace     (not in the default set) 'commit' to a kdamond that stops,
#               raced by nr_kdamonds: a deadlock of the stock 6.1 sysfs code
#
# On a kernel without DAMON's debugfs (Debian's own 6.12) every class runs
# on sysfs alone: each dbgfs step is left out (no_dbgfs), and the table has
# sysfs rows only.
#
# Before each class a baseline is set (dbgfs: damon_lru_sort's two schemes
# over the physical address space; sysfs: the same in kdamond 0).  After it:
#   - the kernel log has no Oops, BUG, WARNING, KASAN, UBSAN or lockdep
#     report since the class began;
#   - the schemes are the baseline's: a rejected write, or an accepted one
#     that was not valid, must not have changed them (tests/guest/helpers/
#     hostile_write checks this after every single write, and classifies
#     each dbgfs "schemes" write as valid, invalid or unknown);
#   - DAMON still starts and stops through both interfaces.
#
# One row per class and interface goes to stdout and to $HOSTILE_OUT
# (default /damos/results/hostile.tsv in the guest runner, else
# /tmp/hostile.tsv).  Exit status 1 if a class broke a rule above.  A stock
# kernel (uname -r without "-damos") accepts malformed dbgfs input by design
# of its parser: there lost schemes and accepted invalid writes are
# reported but not fatal, unless HOSTILE_STRICT=1.  Without dbgfs there is
# no such parser, and every rule is fatal.
#
# Knobs: HOSTILE_N (inputs per file in random/numbers, 200), HOSTILE_SECONDS
# (duration of concurrent, 20), HOSTILE_SYSFS_MANY (sysfs schemes in many,
# 10000), HOSTILE_SEED (1), HOSTILE_WRITE (the helper's path).
set -u
export LC_ALL=C
# "producer | dhw ..." must count in this shell, not in a pipeline subshell
shopt -s lastpipe

here=$(cd "$(dirname "$0")" && pwd)
HW=${HOSTILE_WRITE:-}
for c in "$HW" "$here/helpers/hostile_write" "$here/hostile_write"; do
	[ -n "$c" ] && [ -x "$c" ] && { HW=$c; break; }
done
[ -x "$HW" ] || { echo "hostile_input: helpers/hostile_write not found (HOSTILE_WRITE=...)" >&2; exit 2; }

N=${HOSTILE_N:-200}
SECS=${HOSTILE_SECONDS:-20}
SYSFS_MANY=${HOSTILE_SYSFS_MANY:-10000}
SEED=${HOSTILE_SEED:-1}
if [ -z "${HOSTILE_OUT:-}" ]; then
	if [ -d /damos/results ]; then HOSTILE_OUT=/damos/results/hostile.tsv
	else HOSTILE_OUT=/tmp/hostile.tsv; fi
fi
case $(uname -r) in
*-damos*) STRICT=${HOSTILE_STRICT:-1} SERIES=1 ;;
*) STRICT=${HOSTILE_STRICT:-0} SERIES=0 ;;
esac

DBGFS=/sys/kernel/debug/damon
# monitor_on, renamed monitor_on_DEPRECATED in 6.9
DBGFS_ON=$DBGFS/monitor_on
[ -e "$DBGFS/monitor_on_DEPRECATED" ] && DBGFS_ON=$DBGFS/monitor_on_DEPRECATED
SYSFS=/sys/kernel/mm/damon/admin
K=$SYSFS/kdamonds/0
C=$K/contexts/0
U32_MAX=4294967295
ULONG_MAX=18446744073709551615
PRIO="4096 $ULONG_MAX 10 $U32_MAX 0 $U32_MAX 6 5 0 1000 0 1 0 0 0 0 0 0"
DEPRIO="4096 $ULONG_MAX 0 0 1200 $U32_MAX 7 5 0 1000 0 0 1 0 0 0 0 0"
DOC="4096 8192 0 5 10 20 2 10 1073741824 1000 0 0 100 1 5000000 600 500 300"
STAT="0 $ULONG_MAX 0 $U32_MAX 0 $U32_MAX 5 0 0 0 0 0 0 0 0 0 0 0"
REPORTS='Oops|BUG:|WARNING:|KASAN|UBSAN|Kernel panic|general protection fault|cut here|possible (circular|recursive) locking|inconsistent lock state|DEBUG_LOCKS_WARN_ON|suspicious RCU usage|INFO: task .* blocked|INFO: rcu'

say() { printf 'hostile: %s\n' "$*" >&2; }

# put FILE CONTENT: one write() of CONTENT (C-escaped).  bash's printf and
# echo write a multi-line string line by line, which dbgfs takes as several
# writes.
put() {
	[[ $1 != "$DBGFS"/* ]] || ! no_dbgfs || return 0
	"$HW" "$1" "$2" | grep -q ' failed=0 '
}

# no_dbgfs: the kernel has no DAMON debugfs; dbgfs steps are left out.
no_dbgfs() { [ "$HAVE_DBGFS" = 0 ]; }

# --- DAMON state -------------------------------------------------------------

wait_no_kdamond() {
	local i
	for ((i = 0; i < 100; i++)); do
		pgrep -x 'kdamond\.[0-9]+' >/dev/null || return 0
		sleep 0.2
	done
	return 1
}

# The largest System RAM range as "start end" (end exclusive).
paddr_range() {
	grep -E '^ *[0-9a-f]+-[0-9a-f]+ : System RAM$' /proc/iomem |
		while IFS='- ' read -r s e _; do
			s=${s// /}
			echo "$((16#$e - 16#$s + 1)) $((16#$s)) $((16#$e + 1))"
		done | sort -n | tail -n 1 | cut -d' ' -f2-
}
RANGE=$(paddr_range)

damon_off() {
	local k d
	if [ -f /sys/module/damon_lru_sort/parameters/enabled ] &&
	   [ "$(cat /sys/module/damon_lru_sort/parameters/enabled)" = Y ]; then
		echo N > /sys/module/damon_lru_sort/parameters/enabled
	fi
	for k in "$SYSFS"/kdamonds/[0-9]*; do
		[ -f "$k/state" ] && [ "$(sysfs_read "$k/state")" = on ] &&
			sysfs_state off "$k"
	done
	[ "$(cat "$DBGFS_ON" 2>/dev/null)" = on ] &&
		echo off > "$DBGFS_ON"
	wait_no_kdamond
	# contexts a class made (random names included)
	for d in "$DBGFS"/*/; do
		[ -d "$d" ] || continue
		d=${d%/}
		printf '%s' "${d##*/}" > "$DBGFS/rm_contexts" 2>/dev/null
	done
	return 0
}

dbgfs_baseline() {
	[ "$HAVE_DBGFS" = 1 ] || return 0
	echo "5000 100000 1000000 10 1000" > "$DBGFS/attrs" &&
	echo paddr > "$DBGFS/target_ids" &&
	echo "0 $RANGE" > "$DBGFS/init_regions" &&
	put "$DBGFS/schemes" "$BASE_A\n$BASE_B\n"
}

# sysfs_scheme N "18 numbers": scheme N of kdamond 0 as a dbgfs line says.
sysfs_scheme() {
	local s=$C/schemes/$1 f
	local -a v
	read -r -a v <<<"$2"
	local -a acts=(willneed cold pageout hugepage nohugepage stat lru_prio lru_deprio)
	local -a mets=(none free_mem_rate)
	echo "${acts[${v[6]}]}" > "$s/action"
	# max first, so that min <= max holds at every step
	echo "${v[1]}" > "$s/access_pattern/sz/max"; echo "${v[0]}" > "$s/access_pattern/sz/min"
	echo "${v[3]}" > "$s/access_pattern/nr_accesses/max"; echo "${v[2]}" > "$s/access_pattern/nr_accesses/min"
	echo "${v[5]}" > "$s/access_pattern/age/max"; echo "${v[4]}" > "$s/access_pattern/age/min"
	echo "${v[7]}" > "$s/quotas/ms"; echo "${v[8]}" > "$s/quotas/bytes"
	echo "${v[9]}" > "$s/quotas/reset_interval_ms"
	echo "${v[10]}" > "$s/quotas/weights/sz_permil"
	echo "${v[11]}" > "$s/quotas/weights/nr_accesses_permil"
	echo "${v[12]}" > "$s/quotas/weights/age_permil"
	echo "${mets[${v[13]}]}" > "$s/watermarks/metric"
	echo "${v[14]}" > "$s/watermarks/interval_us"
	echo "${v[15]}" > "$s/watermarks/high"; echo "${v[16]}" > "$s/watermarks/mid"
	echo "${v[17]}" > "$s/watermarks/low"
}

sysfs_baseline() {
	echo 0 > "$SYSFS/kdamonds/nr_kdamonds" &&
	echo 1 > "$SYSFS/kdamonds/nr_kdamonds" &&
	echo 1 > "$K/contexts/nr_contexts" &&
	echo paddr > "$C/operations" &&
	echo 5000 > "$C/monitoring_attrs/intervals/sample_us" &&
	echo 100000 > "$C/monitoring_attrs/intervals/aggr_us" &&
	echo 1000000 > "$C/monitoring_attrs/intervals/update_us" &&
	echo 10 > "$C/monitoring_attrs/nr_regions/min" &&
	echo 1000 > "$C/monitoring_attrs/nr_regions/max" &&
	echo 1 > "$C/targets/nr_targets" &&
	echo 1 > "$C/targets/0/regions/nr_regions" &&
	echo "${RANGE#* }" > "$C/targets/0/regions/0/end" &&
	echo "${RANGE% *}" > "$C/targets/0/regions/0/start" &&
	echo 2 > "$C/schemes/nr_schemes" &&
	sysfs_scheme 0 "$PRIO" && sysfs_scheme 1 "$DEPRIO"
}

# What must survive: dbgfs schemes without their statistics; the sysfs
# context (attributes, targets, schemes) without statistics.
dbgfs_state() { [ "$HAVE_DBGFS" = 1 ] || return 0; awk '{ s = $1; for (i = 2; i <= 18; i++) s = s " " $i; print s }' "$DBGFS/schemes"; }
# (Not named sysfs_state: that writes a state command, below.  Sharing the
# name, the later definition won, and every class compared two empty
# outputs of a state write missing its word: no sysfs check at all.)
sysfs_context() { grep -r . "$C" --exclude-dir=stats 2>/dev/null | sort; }

# sysfs_state WORD [KDAMOND]: WORD into the state file of KDAMOND (its
# directory; kdamond 0's by default), again while the
# kernel answers EBUSY, up to 10 s.  state_store() takes damon_sysfs_lock
# with mutex_trylock() and fails with EBUSY if it is held, and a running
# kdamond takes the same lock (trylock) in its after_sampling callback,
# at every sampling interval (5 ms here), and after each aggregation:
# a write can meet it held, the more often on a guest whose vCPU the host
# deschedules in the middle of the callback (patched 6.12 beside a load of
# 10: 'off' failed so, and the class failed as "kdamond did not stop").
# Any other error fails at once; EBUSY for 10 s fails, saying so.
sysfs_state() {
	local i err k=${2:-$K}
	for ((i = 1; i <= 100; i++)); do
		if err=$( { echo "$1" > "$k/state"; } 2>&1 ); then
			[ "$i" = 1 ] || say "sysfs: '$1' into state took $i writes (EBUSY before: the lock was held)"
			return 0
		fi
		[[ $err == *"Device or resource busy"* ]] || { say "sysfs: '$1' into state: ${err##*: }"; return 1; }
		sleep 0.1
	done
	say "sysfs: '$1' into state: EBUSY for 10 s (damon_sysfs_lock held all along)"
	return 1
}

# sysfs_read FILE: a file of a kdamond (state, pid), read again while
# its show() (the same trylock) fails with EBUSY, up to 10 s; nothing if
# it never read.
sysfs_read() {
	local i v
	for ((i = 0; i < 100; i++)); do
		v=$(cat "$1" 2>/dev/null) && { echo "$v"; return 0; }
		sleep 0.1
	done
	return 1
}

# dbgfs: start and stop monitoring; sysfs: the same.  0 if both work.
start_stop() {
	local ok=0 pid
	damon_off
	if [ "$HAVE_DBGFS" = 1 ]; then
		echo paddr > "$DBGFS/target_ids" && echo "0 $RANGE" > "$DBGFS/init_regions" &&
			echo on > "$DBGFS_ON" || ok=1
		sleep 0.3
		pid=$(cat "$DBGFS/kdamond_pid" 2>/dev/null)
		[[ $pid =~ ^[0-9]+$ ]] || { say "dbgfs: no kdamond after monitor_on (kdamond_pid: $pid)"; ok=1; }
		echo off > "$DBGFS_ON" || ok=1
		wait_no_kdamond || { say "dbgfs: kdamond did not stop"; ok=1; }
	fi
	# the kdamond exists when the write returns (damon_start() made it)
	sysfs_state on || ok=1
	pid=$(sysfs_read "$K/pid")
	[[ $pid =~ ^[0-9]+$ ]] && [ "$pid" -gt 0 ] || { say "sysfs: no kdamond after state on (pid: $pid)"; ok=1; }
	sysfs_state off || ok=1
	wait_no_kdamond || { say "sysfs: kdamond did not stop"; ok=1; }
	return $ok
}

# --- counting ---------------------------------------------------------------

declare -A CNT
reset_counts() {
	local i k
	for i in dbgfs sysfs; do
		for k in writes ok failed lost accepted_invalid rejected_valid; do
			CNT[$i.$k]=0
		done
		CNT[$i.errors]=
	done
}

# hw_add IFACE OUTPUT: add a helper's summary line to the class row of IFACE.
hw_add() {
	local iface=$1 kv k v
	for kv in $2; do
		k=${kv%%=*} v=${kv#*=}
		case $k in
		errors) [ "$v" = none ] || CNT[$iface.errors]+="$v," ;;
		writes|ok|failed|lost|accepted_invalid|rejected_valid)
			CNT[$iface.$k]=$(( ${CNT[$iface.$k]} + v )) ;;
		esac
	done
}

# hw IFACE ARGS...: run the helper, count its results for IFACE.
hw() {
	local iface=$1 out
	shift
	echo "-- $iface: ${*:1:12}" >> "$LOG"
	out=$("$HW" -S "$SEED" "$@" 2>>"$LOG") || { say "hostile_write failed: $*"; return 1; }
	echo "   $out" >> "$LOG"
	HW_LAST=$out
	[ -n "${VERBOSE:-}" ] && say "$iface: $out"
	hw_add "$iface" "$out"
	return 0
}

# bg IFACE ARGS...: the same in the background; bg_wait collects them all.
BG=()
bg() {
	local iface=$1 f
	shift
	[ "$iface" != dbgfs ] || ! no_dbgfs || return 0
	f=$TMPD/bg.${#BG[@]}
	echo "$iface" > "$f.iface"
	"$HW" -S "$SEED" "$@" > "$f" 2>>"$LOG" &
	BG+=("$f")
}
bg_wait() {
	local f deadline=$((SECONDS + SECS + 120)) left
	while :; do
		left=$(jobs -rp | wc -l)
		[ "$left" = 0 ] && break
		if [ $SECONDS -ge $deadline ]; then
			hang_report "$left background writers still blocked $((SECS + 120)) s after they should have stopped"
			exit 3
		fi
		sleep 1
	done
	wait
	for f in "${BG[@]}"; do
		echo "   bg $(cat "$f.iface"): $(cat "$f")" >> "$LOG"
		hw_add "$(cat "$f.iface")" "$(cat "$f")"
	done
	BG=()
}

# hang_report WHY: where every writer and kdamond sleeps, into the log and
# the results; the class fails and the run ends (the kernel state is stuck).
hang_report() {
	local p
	{
		echo "HANG: $1"
		for p in $(pgrep -f hostile_write) $(pgrep -x 'kdamond\.[0-9]+'); do
			echo "--- pid $p: $(tr '\0' ' ' < "/proc/$p/cmdline" 2>/dev/null | cut -c1-200)"
			echo "state: $(awk '/^State/ { print $2, $3 }' "/proc/$p/status" 2>/dev/null) wchan: $(cat "/proc/$p/wchan" 2>/dev/null)"
			cat "/proc/$p/stack" 2>/dev/null
		done
	} | tee -a "$LOG" >&2
	printf '%s\t%s\tHANG\t\t\t\t\t\t\t\t%s\t%s\n' "$CLASS" all "$((SECONDS - t0))" "$1" >> "$HOSTILE_OUT"
}

# dhw ARGS...: a dbgfs write checked against the schemes file ($JOIN: the
# kernel joins the writes to one open file, see below).
dhw() {
	# a producer piped in ends on SIGPIPE when this returns
	no_dbgfs && return 0
	hw dbgfs -k "$DBGFS/schemes" -F 18 $JOIN "$@"
}
# shw FILE [OPTION...] [-- CONTENT...]: a sysfs write checked against FILE.
shw() {
	local f=$1 opts=()
	shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do opts+=("$1"); shift; done
	[ $# -gt 0 ] && shift
	hw sysfs -k "$f" "${opts[@]}" "$f" "$@"
}

# errors "EINVAL:3,EBUSY:2,EINVAL:1," -> "EINVAL:4 EBUSY:2"
sum_errors() {
	tr ',' '\n' <<<"$1" | awk -F: 'NF == 2 { n[$1] += $2 } END { for (e in n) printf "%s:%d ", e, n[e] }'
}

# --- classes ------------------------------------------------------------------

DBGFS_FILES="schemes attrs target_ids init_regions ${DBGFS_ON##*/} mk_contexts rm_contexts"
# sysfs files of scheme 1 and of the context that take numbers or words
sysfs_files() {
	local s=$C/schemes/1
	echo "$s/action $s/access_pattern/sz/min $s/access_pattern/sz/max" \
		"$s/access_pattern/nr_accesses/min $s/access_pattern/nr_accesses/max" \
		"$s/access_pattern/age/min $s/access_pattern/age/max" \
		"$s/quotas/ms $s/quotas/bytes $s/quotas/reset_interval_ms" \
		"$s/quotas/weights/sz_permil $s/quotas/weights/nr_accesses_permil" \
		"$s/quotas/weights/age_permil $s/watermarks/metric" \
		"$s/watermarks/interval_us $s/watermarks/high $s/watermarks/mid" \
		"$s/watermarks/low $C/operations" \
		"$C/monitoring_attrs/intervals/sample_us $C/monitoring_attrs/intervals/aggr_us" \
		"$C/monitoring_attrs/intervals/update_us $C/monitoring_attrs/nr_regions/min" \
		"$C/monitoring_attrs/nr_regions/max $C/targets/0/regions/0/start" \
		"$C/targets/0/regions/0/end $C/targets/0/pid_target $K/state" \
		"$C/schemes/nr_schemes $C/targets/nr_targets $K/contexts/nr_contexts" \
		"$SYSFS/kdamonds/nr_kdamonds"
}

class_random() {
	local f n4=$(((N + 3) / 4))
	# schemes: binary garbage, digit soup, typos in a valid content
	dhw -V "$ORACLE" -R 1-512 -n "$N" "$DBGFS/schemes"
	dhw -V "$ORACLE" -R 1-300 -A '0123456789 \n' -n "$N" "$DBGFS/schemes"
	dhw -V "$ORACLE" -M 1 -A '0123456789 \n-x\t' -n "$N" "$DBGFS/schemes" "$BASE_A\n$BASE_B\n"
	dhw -V "$ORACLE" -M 3 -n "$N" "$DBGFS/schemes" "$BASE_A\n$BASE_B\n"
	# a typo can make another valid scheme (quota 5 -> 6): taken, as it
	# should be; back to the baseline for the end-of-class comparison
	put "$DBGFS/schemes" "$BASE_A\n$BASE_B\n"
	for f in $DBGFS_FILES; do
		[ "$f" = schemes ] && continue
		dhw -R 1-256 -n "$n4" "$DBGFS/$f"
	done
	for f in $(sysfs_files); do
		case ${f##*/} in nr_*) continue ;; esac	# digits could be valid
		shw "$f" -I -R 1-256 -n "$n4"
	done
}

# refused_as ERRNO WHAT: on a kernel with the series, the last hw run's
# writes all failed with ERRNO (a name: EFBIG); a kernel without it says
# anything.  The series caps the input of one open 'schemes', 'init_regions'
# or 'target_ids' file at DBGFS_INPUT_MAX bytes: a write that makes it
# longer fails with EFBIG ("File too large"), and the input fails whole.
DBGFS_INPUT_MAX=98304
refused_as() {
	no_dbgfs && return 0
	[ "$SERIES" = 1 ] || return 0
	case $HW_LAST in
	*" ok=0 "*"errors=$1:"*) ;;
	*) say "dbgfs: $2: not refused with $1 alone: $HW_LAST"; TOOL_FAIL=1 ;;
	esac
}

# pad_to N: stdin, then spaces up to N bytes in all
pad_to() {
	local t
	t=$(cat; echo x)
	t=${t%x}
	printf '%s' "$t"
	head -c $(($1 - ${#t})) /dev/zero | tr '\0' ' '
}

class_long() {
	local f s=$C/schemes/1
	head -c 1048576 /dev/zero | tr '\0' 1 | dhw -V "$ORACLE" "$DBGFS/schemes"
	refused_as EFBIG "1 MiB of digits"
	# 1M zeros on one line: the stock parser takes 256 schemes of them
	head -c 2097152 /dev/zero | tr '\0' ' ' | sed 's/  /0 /g' | dhw -V "$ORACLE" "$DBGFS/schemes"
	refused_as EFBIG "1 Mi zeros on one line"
	# under the cap, and too many schemes: refused for what it says
	{ for _ in $(seq 300); do echo "$BASE_A"; done; } | dhw -V "$ORACLE" "$DBGFS/schemes"
	refused_as EINVAL "300 schemes"
	head -c 67108864 /dev/zero | tr '\0' x | dhw -V "$ORACLE" "$DBGFS/schemes"
	refused_as EFBIG "64 MiB of x"
	# a valid line, then 1 MiB of spaces and a junk word on the same line
	{ printf '%s' "$BASE_A"; head -c 1048576 /dev/zero | tr '\0' ' '; echo junk; } |
		dhw -V "$ORACLE" "$DBGFS/schemes"
	refused_as EFBIG "a line of 1 MiB"
	# valid content padded to the cap is taken, one byte more is not
	echo "$BASE_A" | pad_to "$DBGFS_INPUT_MAX" | dhw -V "$ORACLE" "$DBGFS/schemes"
	if [ "$SERIES" = 1 ] && ! no_dbgfs && [[ $HW_LAST != *" ok=1 "* ]]; then
		say "dbgfs: a valid input of $DBGFS_INPUT_MAX bytes (the cap) not taken: $HW_LAST"
		TOOL_FAIL=1
	fi
	put "$DBGFS/schemes" "$BASE_A\n$BASE_B\n"
	echo "$BASE_A" | pad_to $((DBGFS_INPUT_MAX + 1)) | dhw -I "$DBGFS/schemes"
	refused_as EFBIG "a valid input one byte over the cap"
	# bash-like: many writes to one open file, each leaving a valid input,
	# until one crosses the cap; the input fails whole (the baseline stays)
	{ echo "$BASE_A"; head -c $((DBGFS_INPUT_MAX + 4096)) /dev/zero | tr '\0' '\n'; } |
		dhw -I -c 4096 "$DBGFS/schemes"
	refused_as EFBIG "writes of 4 KiB to one open file past the cap"
	for f in attrs ${DBGFS_ON##*/}; do
		head -c 1048576 /dev/zero | tr '\0' 7 | dhw -I "$DBGFS/$f"
	done
	for f in target_ids init_regions; do
		head -c 1048576 /dev/zero | tr '\0' 7 | dhw -I "$DBGFS/$f"
		refused_as EFBIG "1 MiB into $f"
	done
	# not made strict by the series: only the schemes must survive it
	head -c 1048576 /dev/zero | tr '\0' 7 | dhw "$DBGFS/mk_contexts"
	for f in "$s/action" "$s/access_pattern/sz/min" "$s/quotas/ms" "$C/operations" "$K/state"; do
		head -c 65536 /dev/zero | tr '\0' 9 | shw "$f" -I
		head -c 65536 /dev/zero | tr '\0' a | shw "$f" -I
	done
}

class_split() {
	local c
	# A kernel that joins the writes to one open file takes the whole
	# content, and the oracle judges all of it (-J).  Else the oracle
	# judges the first piece, the only one dbgfs takes: a piece that ends
	# inside the last number of a line is a valid, other scheme ("... 500
	# 300" cut to "... 500 3"), which dbgfs cannot tell from a whole
	# write.  After each, the baseline is put back.
	for c in 1 7 100 150 200; do
		dhw -V "$ORACLE" -c "$c" "$DBGFS/schemes" "$BASE_A\n$DOC\n$BASE_B\n"
		put "$DBGFS/schemes" "$BASE_A\n$BASE_B\n"
		# a bad line in the middle: refused, the baseline kept
		dhw -V "$ORACLE" -c "$c" "$DBGFS/schemes" "$DOC\ngarbage\n$BASE_B\n"
	done
	dhw -I -c 3 "$DBGFS/attrs" "5000 100000 1000000 10 1000\n"
	# "pa" of "paddr" is taken as paddr by the stock parser, the second
	# piece is refused; target_ids does not join writes
	dhw -I -c 2 "$DBGFS/target_ids" "paddr\n"
	dhw -I -c 1 "$DBGFS_ON" "on\n"
	shw "$C/schemes/0/action" -I -c 4 -- "lru_deprio\n"
	shw "$C/schemes/0/watermarks/metric" -I -c 5 -- "free_mem_rate\n"
	shw "$C/operations" -I -c 2 -- "vaddr\n"
	shw "$K/state" -I -c 1 -- "on\n"
}

class_offset() {
	local o f
	for o in 1 80 4096 1099511627776; do
		dhw -I -o "$o" "$DBGFS/schemes" "$BASE_A\n$BASE_B\n"
		dhw -I -o "$o" "$DBGFS/schemes" "\n"
		dhw -I -o "$o" "$DBGFS/attrs" "5000 100000 1000000 10 1000\n"
		dhw -I -o "$o" "$DBGFS/target_ids" "paddr\n"
		dhw -I -o "$o" "$DBGFS_ON" "on\n"
		dhw -I -o "$o" "$DBGFS/mk_contexts" "offctx\n"
		# sysfs attributes ignore the offset: valid content is taken,
		# invalid content refused either way
		shw "$C/schemes/0/action" -o "$o" -- "lru_prio\n"
		shw "$C/schemes/0/action" -I -o "$o" -- "bogus\n"
		shw "$C/schemes/0/access_pattern/sz/min" -I -o "$o" -- "-1\n"
	done
	dhw -I -o -1 "$DBGFS/schemes" "$BASE_A\n"
}

class_many() {
	local t
	{ for _ in $(seq 10000); do echo "$BASE_A"; done; } | dhw -V "$ORACLE" "$DBGFS/schemes"
	{ for _ in $(seq 257); do echo "$BASE_B"; done; } | dhw -V "$ORACLE" "$DBGFS/schemes"
	# the limit itself is valid: accepted, then the baseline again
	{ for _ in $(seq 256); do echo "$DOC"; done; } | dhw -V "$ORACLE" "$DBGFS/schemes"
	# cat: wc reads with a buffer the dbgfs read handler cannot kmalloc
	no_dbgfs || [ "$(cat "$DBGFS/schemes" | wc -l)" = 256 ] || say "dbgfs: 256 schemes written, $(cat "$DBGFS/schemes" | wc -l) read back"
	# 256 schemes of the widest numbers: reading them back takes more
	# than 64 KiB, and dbgfs fails a read() that cannot hold it all
	local wide="$ULONG_MAX $ULONG_MAX $U32_MAX $U32_MAX $U32_MAX $U32_MAX ${ORACLE#*:} $ULONG_MAX $ULONG_MAX $ULONG_MAX $U32_MAX $U32_MAX $U32_MAX 1 $ULONG_MAX $ULONG_MAX $ULONG_MAX $ULONG_MAX"
	{ for _ in $(seq 256); do echo "$wide"; done; } | dhw -V "$ORACLE" "$DBGFS/schemes"
	if ! no_dbgfs && command -v damoctl >/dev/null; then
		if ! damoctl --interface dbgfs scheme list > "$TMPD/list" 2>&1; then
			say "damoctl cannot list 256 wide dbgfs schemes: $(tail -n 1 "$TMPD/list")"
			TOOL_FAIL=1
		elif [ "$(wc -l < "$TMPD/list")" != 256 ]; then
			say "damoctl lists $(wc -l < "$TMPD/list") of 256 wide dbgfs schemes"
			TOOL_FAIL=1
		fi
	fi
	put "$DBGFS/schemes" "$BASE_A\n$BASE_B\n"
	# sysfs: nr_schemes has no limit; make them, run them, drop them
	t=$SECONDS
	hw sysfs "$C/schemes/nr_schemes" "$SYSFS_MANY\n"
	[ -d "$C/schemes/$((SYSFS_MANY - 1))" ] || say "sysfs: no scheme $((SYSFS_MANY - 1)) after nr_schemes $SYSFS_MANY"
	hw sysfs "$K/state" "on\n"
	sleep 1
	hw sysfs "$K/state" "update_schemes_stats\n" "commit\n" "off\n"
	wait_no_kdamond
	hw sysfs "$C/schemes/nr_schemes" "2\n"
	say "sysfs: $SYSFS_MANY schemes made, run and removed in $((SECONDS - t)) s"
	sysfs_scheme 0 "$PRIO" && sysfs_scheme 1 "$DEPRIO"
}

class_numbers() {
	local f i v line s=$C/schemes/0
	local -a w
	read -r -a w <<<"$BASE_A"
	for ((i = 0; i < 18; i++)); do
		for v in -1 4294967296 4294967302 18446744073709551616 \
			 99999999999999999999999 1e3 0x10 1.5 ''; do
			line=("${w[@]}")
			line[$i]=$v
			dhw -V "$ORACLE" "$DBGFS/schemes" "${line[*]}\n"
		done
	done
	dhw -V "$ORACLE" -M 2 -A '-0123456789' -n "$N" "$DBGFS/schemes" "$BASE_A\n$BASE_B\n"
	put "$DBGFS/schemes" "$BASE_A\n$BASE_B\n"
	# a leading zero is no octal prefix: 010 is ten or an error, never 8
	line=("${w[@]}")
	line[0]=010
	if ! no_dbgfs && put "$DBGFS/schemes" "${line[*]}\n"; then
		v=$(awk '{ print $1 }' "$DBGFS/schemes")
		if [ "$v" != 10 ]; then
			say "dbgfs: min_sz 010 read back as $v"
			CNT[dbgfs.lost]=$(( ${CNT[dbgfs.lost]} + 1 ))
		fi
		put "$DBGFS/schemes" "$BASE_A\n$BASE_B\n"
	fi
	for v in "-5000 100000 1000000 10 1000" "5000 100000 1000000 10 -1" \
		 "18446744073709551616 100000 1000000 10 1000" \
		 "5000 100000 1000000 4294967296 1000" "0 0 0 0 0"; do
		dhw "$DBGFS/attrs" "$v\n"
	done
	no_dbgfs || echo "5000 100000 1000000 10 1000" > "$DBGFS/attrs"
	dhw "$DBGFS/init_regions" "0 -1 4096\n" "0 18446744073709551616 1\n" \
		"-1 0 4096\n" "0 18446744073709551615 0\n"
	dhw "$DBGFS/target_ids" "-1\n" "4294967296\n" "99999999999999999999\n"
	for f in $(sysfs_files) $s/access_pattern/sz/min $s/quotas/ms $s/watermarks/high; do
		case $f in */action|*/metric|*/operations|*/state|*/pid_target) continue ;; esac
		shw "$f" -I -- "-1\n" "18446744073709551616\n" "99999999999999999999999\n" \
			"1 2\n" "1x\n" "\n" "--1\n" "0x\n"
	done
	# u32 kernel fields take unsigned long in sysfs: accepted, not checked
	shw "$s/access_pattern/nr_accesses/max" -- "4294967296\n"
	shw "$s/access_pattern/age/max" -- "18446744073709551615\n"
	shw "$C/targets/0/pid_target" -- "-1\n" "18446744073709551616\n" "x\n"
	echo 0 > "$C/targets/0/pid_target"
	sysfs_scheme 0 "$PRIO"
}

class_nul() {
	local s=$C/schemes/0
	dhw -V "$ORACLE" "$DBGFS/schemes" "$BASE_A\0junk\n" "$BASE_A\n\0$BASE_B\n" \
		"40\x0096 ${BASE_A#* }\n" "\0garbage\n" "$BASE_A\n\0"
	put "$DBGFS/schemes" "$BASE_A\n$BASE_B\n"
	dhw -V "$ORACLE" "$DBGFS/schemes" "\0"
	put "$DBGFS/schemes" "$BASE_A\n$BASE_B\n"
	dhw -V "$ORACLE" -M 2 -A '\0' -n "$N" "$DBGFS/schemes" "$BASE_A\n$BASE_B\n"
	put "$DBGFS/schemes" "$BASE_A\n$BASE_B\n"
	dhw "$DBGFS/attrs" "5000\x00100000 1000000 10 1000\n" "\0"
	dhw "$DBGFS/target_ids" "pad\x00dr\n" "\0"
	dhw "$DBGFS/mk_contexts" "nul\x00ctx\n" "\0"
	dhw "$DBGFS_ON" "o\x00n\n" "\0"
	shw "$s/action" -I -- "lru\x00_prio\n" "\0"
	shw "$s/access_pattern/sz/min" -I -- "\0"
	shw "$K/state" -I -- "o\x00n\n" "\0"
	# sysfs stores read a C string: what follows a NUL is not seen, so
	# these are taken ("40\096" sets 40); counted, not judged
	shw "$s/action" -- "lru_prio\0junk\n"
	shw "$s/access_pattern/sz/min" -- "40\x0096\n"
	sysfs_scheme 0 "$PRIO"
}

class_concurrent() {
	local t=$SECS s0=$C/schemes/0 s1=$C/schemes/1 st
	# dbgfs: valid and invalid writers, a toggler, readers, contexts
	bg dbgfs -t "$t" -p 2 "$DBGFS/schemes" "$BASE_A\n$BASE_B\n" "$DOC\n"
	bg dbgfs -t "$t" -p 2 -I "$DBGFS/schemes" "garbage\n" "$BASE_A junk\n" "${BASE_A% *} -1\n"
	bg dbgfs -t "$t" "$DBGFS_ON" "on\n" "off\n"
	bg dbgfs -t "$t" "$DBGFS/attrs" "5000 100000 1000000 10 1000\n" "1000 20000 500000 5 100\n"
	bg dbgfs -t "$t" "$DBGFS/target_ids" "paddr\n"
	bg dbgfs -t "$t" "$DBGFS/mk_contexts" "racectx\n"
	bg dbgfs -t "$t" "$DBGFS/rm_contexts" "racectx\n"
	bg dbgfs -t "$t" -r -p 2 "$DBGFS/schemes"
	bg dbgfs -t "$t" -r "$DBGFS/kdamond_pid"
	# sysfs at the same time: DAMON refuses one interface while the other
	# runs, so the two togglers race each other too
	bg sysfs -t "$t" "$K/state" "on\n" "commit\n" "update_schemes_stats\n" "off\n"
	bg sysfs -t "$t" "$s1/action" "lru_prio\n" "bogus\n" "lru_deprio\n"
	bg sysfs -t "$t" "$s1/access_pattern/nr_accesses/min" "0\n" "5\n" "-1\n"
	bg sysfs -t "$t" "$C/schemes/nr_schemes" "2\n" "3\n"
	bg sysfs -t "$t" "$C/targets/0/regions/nr_regions" "1\n"
	# nr_kdamonds is left out here: it deadlocks the stock sysfs code
	# (kernel patch 0007 fixes it; class cmdrace reproduces it on its own)
	bg sysfs -t "$t" -r "$s0/stats/nr_tried"
	bg sysfs -t "$t" -r "$K/pid"
	bg_wait
	damon_off
	# whatever valid content won last, it must be one of the valid ones
	st=$(dbgfs_state)
	no_dbgfs && st=$DOC
	case $st in
	"$(printf '%s\n%s' "$BASE_A" "$BASE_B")"|"$DOC") ;;
	*) say "dbgfs: schemes after the race are none of the valid contents written:"
	   printf '%s\n' "$st" >&2
	   CNT[dbgfs.lost]=$(( ${CNT[dbgfs.lost]} + 1 )) ;;
	esac
	# valid writes changed both interfaces: back to the baselines
	sysfs_baseline
	dbgfs_baseline
}

# Not in the default set: a reproducer of a deadlock of the stock 6.1 sysfs
# interface (see tests/fuzz/README.md), fixed by kernel patch 0007 and run
# by hostile_input.bats: a "commit" the kdamond cannot apply stops the
# kdamond; the writer of "commit" then waits for damon_sysfs_lock while
# holding the state file, and a write to nr_kdamonds that took the lock
# waits for the state file to be released (kernfs_drain).  Both block in
# the kernel for good.  HOSTILE_RACE_TRIES (10) tries.
class_cmdrace() {
	local i cpid rpid deadline
	for ((i = 0; i < ${HOSTILE_RACE_TRIES:-10}; i++)); do
		sysfs_baseline
		echo on > "$K/state" || { say "cmdrace: cannot start kdamond 0"; return; }
		sleep 0.2
		# region 0 becomes [4096, 0): the commit below fails in the
		# kdamond, which then stops
		echo 1 > "$C/targets/0/regions/nr_regions"
		echo 4096 > "$C/targets/0/regions/0/start"
		"$HW" "$K/state" "commit\n" > "$TMPD/commit.out" 2>>"$LOG" &
		cpid=$!
		# nr_kdamonds is refused (EBUSY) while the kdamond runs; keep
		# writing it until it is taken.  The 6.12 series refuses such a
		# commit before it reaches the kdamond, which runs on (patch
		# "return the error of a refused 'commit'"): once the commit
		# has returned, stop the kdamond, or nr_kdamonds is refused to
		# the end (400 writes, more than 60 s on a loaded TCG guest).
		# Neither writer keeps this script's stdout or stderr: if they
		# hang, the caller (bats' "run", a pipe) must still see the end
		# of the output.
		( for _ in $(seq 400); do
			"$HW" "$SYSFS/kdamonds/nr_kdamonds" "1\n" | grep -q ' ok=1 ' && break
			kill -0 "$cpid" 2>/dev/null || echo off 2>/dev/null > "$K/state"
		  done ) >/dev/null 2>>"$LOG" &
		rpid=$!
		deadline=$((SECONDS + 60))
		while kill -0 "$cpid" 2>/dev/null || kill -0 "$rpid" 2>/dev/null; do
			if [ $SECONDS -ge $deadline ]; then
				hang_report "try $((i + 1)): 'commit' to a kdamond that stops, raced by nr_kdamonds: still blocked after 60 s"
				exit 3
			fi
			sleep 0.5
		done
		hw_add sysfs "$(cat "$TMPD/commit.out")"
		wait_no_kdamond
	done
	# nr_kdamonds made kdamond 0 afresh: the baseline again
	sysfs_baseline
}

CLASSES="random long split offset many numbers nul concurrent"

# --- driver -----------------------------------------------------------------

# cmdrace needs sysfs only (a kernel without dbgfs: Debian's 6.12)
HAVE_DBGFS=1
[ -d "$DBGFS" ] || HAVE_DBGFS=0
# strict where no stock dbgfs parser is in the way
[ "$HAVE_DBGFS" = 1 ] || STRICT=${HOSTILE_STRICT:-1}
[ -d "$SYSFS" ] || { echo "hostile_input: needs DAMON sysfs ($SYSFS), and dbgfs ($DBGFS) where the kernel has it: run it in the damos guest" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "hostile_input: needs root" >&2; exit 2; }
[ -n "$RANGE" ] || { echo "hostile_input: no System RAM range in /proc/iomem" >&2; exit 2; }

# The dbgfs baseline: damon_lru_sort's pair where dbgfs takes actions 6 and
# 7, else (a stock kernel) the kernel documentation's example and a stat
# scheme, so that every class measures the parser and not the action table.
damon_off
if [ "$HAVE_DBGFS" = 0 ]; then
	# the classes' dbgfs steps are left out; their arguments still expand
	ORACLE=none:0 BASE_A=$DOC BASE_B=$STAT
elif put "$DBGFS/schemes" "$PRIO\n"; then
	BASE_A=$PRIO BASE_B=$DEPRIO ORACLE=dbgfs:7
else
	BASE_A=$DOC BASE_B=$STAT ORACLE=dbgfs:5
fi

# Does the kernel join the writes to one open file into one input (kernel
# patch "join the writes to one open 'schemes' or 'init_regions'")?  Two
# lines in two writes: joined, both are set; else the second write fails.
JOIN=
if [ -n "${BASE_B:-}" ] &&
   "$HW" -c $((${#BASE_A} + 1)) "$DBGFS/schemes" "$BASE_A\n$BASE_B\n" | grep -q ' failed=0 ' &&
   [ "$(dbgfs_state | wc -l)" = 2 ]; then
	JOIN=-J
fi
put "$DBGFS/schemes" "\n"

classes=${*:-$CLASSES}
for c in $classes; do
	declare -F "class_$c" >/dev/null || { echo "hostile_input: unknown class '$c' (classes: $CLASSES cmdrace)" >&2; exit 2; }
done

LOG=${HOSTILE_LOG:-${HOSTILE_OUT%.tsv}.log}
TMPD=$(mktemp -d)
trap 'rm -rf "$TMPD"' EXIT
mkdir -p "$(dirname "$HOSTILE_OUT")"
[ -s "$HOSTILE_OUT" ] || printf 'class\tiface\tinputs\taccepted\trejected\taccepted_invalid\trejected_valid\tschemes_lost\tkernel_reports\tstart_stop\tseconds\terrors\n' > "$HOSTILE_OUT"
say "kernel $(uname -r), strict=$STRICT, dbgfs actions up to ${ORACLE#*:}, joined writes: ${JOIN:-no}, seed $SEED, table $HOSTILE_OUT"

rc=0
for c in $classes; do
	CLASS=$c
	mark="damos-hostile-$c-$$-$RANDOM"
	echo "$mark" > /dev/kmsg
	damon_off
	sysfs_baseline || { say "$c: cannot set the sysfs baseline"; rc=1; }
	dbgfs_baseline || { say "$c: cannot set the dbgfs baseline"; rc=1; }
	base_d=$(dbgfs_state) base_s=$(sysfs_context)
	reset_counts
	TOOL_FAIL=0
	t0=$SECONDS
	echo "== class $c" >> "$LOG"
	"class_$c"
	damon_off
	secs=$((SECONDS - t0))

	now_d=$(dbgfs_state) now_s=$(sysfs_context)
	if [ "$now_d" != "$base_d" ]; then
		say "$c: dbgfs schemes differ from the baseline"
		echo "$base_d" > "$TMPD/a"; echo "$now_d" > "$TMPD/b"
		diff "$TMPD/a" "$TMPD/b" | head -n 10 >&2
		CNT[dbgfs.lost]=$(( ${CNT[dbgfs.lost]} + 1 ))
	fi
	if [ "$now_s" != "$base_s" ]; then
		say "$c: sysfs context differs from the baseline"
		echo "$base_s" > "$TMPD/a"; echo "$now_s" > "$TMPD/b"
		diff "$TMPD/a" "$TMPD/b" | head -n 10 >&2
		CNT[sysfs.lost]=$(( ${CNT[sysfs.lost]} + 1 ))
	fi
	reports=$(dmesg | sed -n "/$mark/,\$p" | grep -cE "$REPORTS")
	if [ "$reports" -gt 0 ]; then
		say "$c: kernel log reports:"
		dmesg | sed -n "/$mark/,\$p" | grep -E -A5 "$REPORTS" | head -n 40 >&2
		rc=1
	fi
	sysfs_baseline >/dev/null 2>&1; dbgfs_baseline >/dev/null 2>&1
	if start_stop; then ss=ok; else ss=FAIL; rc=1; fi
	[ "$TOOL_FAIL" = 0 ] || rc=1
	for i in dbgfs sysfs; do
		nw=${CNT[$i.writes]}
		[ "$nw" -gt 0 ] || [ "$c" = concurrent ] || continue
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$c" "$i" \
			"$nw" "${CNT[$i.ok]}" "${CNT[$i.failed]}" \
			"${CNT[$i.accepted_invalid]}" "${CNT[$i.rejected_valid]}" \
			"${CNT[$i.lost]}" "$reports" "$ss" "$secs" \
			"$(sum_errors "${CNT[$i.errors]}")" | tee -a "$HOSTILE_OUT"
		if [ "${CNT[$i.lost]}" -gt 0 ] || [ "${CNT[$i.accepted_invalid]}" -gt 0 ] ||
		   [ "${CNT[$i.rejected_valid]}" -gt 0 ]; then
			if [ "$STRICT" = 1 ]; then
				rc=1
			else
				say "$c/$i: lost or misjudged input on a stock kernel (not fatal: strict=0)"
			fi
		fi
	done
done
# leave DAMON as the other suites expect it: off, nothing set
damon_off
echo 0 > "$SYSFS/kdamonds/nr_kdamonds"
if [ "$HAVE_DBGFS" = 1 ]; then
	echo > "$DBGFS/schemes"
	echo > "$DBGFS/target_ids"
fi
exit $rc
