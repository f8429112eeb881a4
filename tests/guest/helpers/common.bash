# Shared by the in-guest suites (tests/guest/*.bats). They run as root on the
# patched kernel, in a throwaway guest: nothing here is meant for a host.

# The libraries' load.bash files run `source "$(dirname ...)"` once per file:
# some twenty fork+execs per test, seconds under TCG. Their sources, read
# directly, are the same functions for no fork at all.
for _lib in bats-support bats-assert bats-file; do
	for _f in "${BATS_LIB_PATH:-/usr/lib/bats}/$_lib"/src/*.bash; do
		source "$_f"
	done
done
unset _lib _f

DBGFS=/sys/kernel/debug/damon
SYSFS=/sys/kernel/mm/damon/admin
LRU_SORT=/sys/module/damon_lru_sort/parameters
DAMOCTL=${DAMOCTL:-damoctl}
# Where the damoctl under test was installed: make install's /usr/local
# (check-guest), or the Debian packages' /usr with the unit in
# /lib/systemd/system (make check-deb sets both).
DAMOS_PREFIX=${DAMOS_PREFIX:-/usr/local}
DAMOS_UNITDIR=${DAMOS_UNITDIR:-$DAMOS_PREFIX/lib/systemd/system}
HELPERS=$BATS_TEST_DIRNAME/helpers

U32_MAX=4294967295
ULONG_MAX=18446744073709551615

# damon_lru_sort's schemes under 5 ms / 100 ms attributes, as dbgfs lines:
# hot = >= 50% access rate (10 of 20 samples), 10 ms quota per 1 s, weighted by
# access rate; cold = no access for 1200 aggregation intervals (120 s),
# weighted by age; watermarks off.
LRU_PRIO_LINE="4096 $ULONG_MAX 10 $U32_MAX 0 $U32_MAX 6 10 0 1000 0 100 0 0 0 0 0 0"
LRU_DEPRIO_LINE="4096 $ULONG_MAX 0 0 1200 $U32_MAX 7 10 0 1000 0 0 100 0 0 0 0 0"

# What counts as a kernel report; the host checks the whole console log for
# the same.
KERNEL_REPORTS='Oops|BUG:|WARNING:|KASAN|UBSAN|Kernel panic|general protection fault|cut here|possible (circular|recursive) locking|inconsistent lock state|DEBUG_LOCKS_WARN_ON|suspicious RCU usage'

# Mark the kernel log, so a test can look at what it alone caused.
log_mark() {
	LOG_MARK="damos-test-mark-$$-$RANDOM"
	echo "$LOG_MARK" > /dev/kmsg
}

assert_kernel_log_clean() {
	# awk, not bash: ${log#*mark} on a 100 KB boot log takes seconds in TCG
	if dmesg | awk -v mark="$LOG_MARK" -v re="$KERNEL_REPORTS" '
		index($0, mark) { on = 1 }
		on { txt = txt $0 "\n"; if ($0 ~ re) bad = 1 }
		END { if (bad) printf "%s", txt; exit !bad }'; then
		fail "the kernel log has a report since this test started"
	fi
}

# Reading files with `read` instead of $(cat ...): no fork, which matters
# under TCG. val VAR FILE. Not for dbgfs's kdamond_pid (nor other files that
# format their whole content into a buffer of the read's size): bash reads
# unseekable files a byte at a time, and those return nothing for 1 byte.
val() { IFS= read -r "$1" < "$2" || true; }

# write_once FILE CONTENT: CONTENT into FILE in exactly one write(2), as
# dbgfs needs (a second write at a non-zero offset is refused). bash's own
# echo/printf cannot do it: bash line-buffers its builtins' output, so a
# multi-line echo becomes one write per line. dd with a block larger than the
# content makes one read of the file and one write.
write_once() {
	printf '%s' "$2" > "$BATS_TEST_TMPDIR/write_once"
	dd if="$BATS_TEST_TMPDIR/write_once" of="$1" bs=1M status=none
}

# first_fields N: the first N fields of each line on stdin.
first_fields() { awk -v n="$1" '{ s = $1; for (i = 2; i <= n; i++) s = s " " $i; print s }'; }

# field N LINE: one whitespace-separated field.
field() { awk -v n="$1" '{ print $n }' <<<"$2"; }

# The largest System RAM range, as "start end" in decimal (end exclusive):
# what DAMON_RECLAIM and DAMON_LRU_SORT monitor by default.
paddr_range() {
	grep -E '^[0-9a-f]+-[0-9a-f]+ : System RAM$' /proc/iomem |
		while IFS='- ' read -r s e _; do
			echo "$((16#$e - 16#$s + 1)) $((16#$s)) $((16#$e + 1))"
		done | sort -n | tail -n 1 | cut -d' ' -f2-
}

# wait_for SECONDS COMMAND...: poll until COMMAND succeeds.
wait_for() {
	local deadline=$((SECONDS + $1))
	shift
	until "$@"; do
		[ $SECONDS -lt $deadline ] || return 1
		sleep 0.2
	done
}

# dbgfs's monitor_on reads "on" while any kdamond runs (dbgfs's, sysfs's or
# a module's).
no_kdamond() {
	local v
	val v "$DBGFS/monitor_on"
	[ "$v" = off ]
}

# Stop every DAMON user and drop what dbgfs and sysfs hold, whatever state a
# previous test left.
damon_off() {
	local v k
	if [ -f "$LRU_SORT/enabled" ]; then
		val v "$LRU_SORT/enabled"
		[ "$v" = Y ] && echo N > "$LRU_SORT/enabled"
	fi
	for k in "$SYSFS"/kdamonds/[0-9]*; do
		[ -d "$k" ] || continue
		val v "$k/state"
		[ "$v" = on ] && echo off > "$k/state"
	done
	val v "$SYSFS/kdamonds/nr_kdamonds"
	[ "$v" = 0 ] || echo 0 > "$SYSFS/kdamonds/nr_kdamonds"
	v=$(< "$DBGFS/kdamond_pid")
	[ "$v" = none ] || echo off > "$DBGFS/monitor_on"
	wait_for 10 no_kdamond
	echo > "$DBGFS/schemes"
	echo > "$DBGFS/target_ids"
}

# Workload: start_workload ARGS... runs helpers/hotcold in the background
# until stop_workload; returns once its memory is populated.
start_workload() {
	local out=$BATS_TEST_TMPDIR/hotcold.out
	"$HELPERS/hotcold" "$@" > "$out" 2>&1 &
	WORKLOAD_PID=$!
	wait_for 120 grep -q '^ready' "$out" || {
		cat "$out"
		fail "hotcold did not get ready"
	}
}

stop_workload() {
	if [ -n "${WORKLOAD_PID:-}" ]; then
		kill "$WORKLOAD_PID" 2>/dev/null
		wait "$WORKLOAD_PID" 2>/dev/null
		WORKLOAD_PID=
		# its pass times: shown only if the test failed
		sed 's/^/hotcold: /' "$BATS_TEST_TMPDIR/hotcold.out" >&2
	fi
	return 0
}

# dbgfs: monitor the physical address space with the given schemes.
dbgfs_paddr_setup() {
	local range
	range=$(paddr_range)
	echo "5000 100000 1000000 10 1000" > "$DBGFS/attrs"
	echo paddr > "$DBGFS/target_ids"
	echo "0 $range" > "$DBGFS/init_regions"
}

# sysfs: kdamond 0, one paddr context over the largest System RAM range.
SYSFS_K=$SYSFS/kdamonds/0
SYSFS_C=$SYSFS_K/contexts/0
sysfs_paddr_setup() {
	local range start end
	range=$(paddr_range)
	start=${range% *} end=${range#* }
	echo 1 > "$SYSFS/kdamonds/nr_kdamonds"
	echo 1 > "$SYSFS_K/contexts/nr_contexts"
	echo paddr > "$SYSFS_C/operations"
	echo 5000 > "$SYSFS_C/monitoring_attrs/intervals/sample_us"
	echo 100000 > "$SYSFS_C/monitoring_attrs/intervals/aggr_us"
	echo 1000000 > "$SYSFS_C/monitoring_attrs/intervals/update_us"
	echo 10 > "$SYSFS_C/monitoring_attrs/nr_regions/min"
	echo 1000 > "$SYSFS_C/monitoring_attrs/nr_regions/max"
	echo 1 > "$SYSFS_C/targets/nr_targets"
	echo 1 > "$SYSFS_C/targets/0/regions/nr_regions"
	# end first: start must stay below end at every step
	echo "$end" > "$SYSFS_C/targets/0/regions/0/end"
	echo "$start" > "$SYSFS_C/targets/0/regions/0/start"
}

# sysfs_scheme_line N: sysfs scheme N as the 18 numbers of a dbgfs line
# (action by its dbgfs number), so both interfaces can be compared.
sysfs_scheme_line() {
	local s=$SYSFS_C/schemes/$1 a metric
	case $(cat "$s/action") in
	willneed) a=0 ;; cold) a=1 ;; pageout) a=2 ;; hugepage) a=3 ;;
	nohugepage) a=4 ;; stat) a=5 ;; lru_prio) a=6 ;; lru_deprio) a=7 ;;
	*) a=unknown ;;
	esac
	case $(cat "$s/watermarks/metric") in
	none) metric=0 ;; free_mem_rate) metric=1 ;; *) metric=unknown ;;
	esac
	echo "$(cat "$s/access_pattern/sz/min") $(cat "$s/access_pattern/sz/max")" \
		"$(cat "$s/access_pattern/nr_accesses/min") $(cat "$s/access_pattern/nr_accesses/max")" \
		"$(cat "$s/access_pattern/age/min") $(cat "$s/access_pattern/age/max")" \
		"$a" \
		"$(cat "$s/quotas/ms") $(cat "$s/quotas/bytes") $(cat "$s/quotas/reset_interval_ms")" \
		"$(cat "$s/quotas/weights/sz_permil") $(cat "$s/quotas/weights/nr_accesses_permil") $(cat "$s/quotas/weights/age_permil")" \
		"$metric $(cat "$s/watermarks/interval_us")" \
		"$(cat "$s/watermarks/high") $(cat "$s/watermarks/mid") $(cat "$s/watermarks/low")"
}

# damoctl (see damoctl(8)): 5 ms / 100 ms / 1 s attributes, a paddr target
# over the largest System RAM range.
damoctl_paddr_setup() {
	local iface=$1 range
	range=$(paddr_range)
	"$DAMOCTL" --interface "$iface" attrs set sample 5ms aggr 100ms update 1s regions 10 1000 &&
		"$DAMOCTL" --interface "$iface" target set paddr region "${range% *}" "${range#* }"
}
