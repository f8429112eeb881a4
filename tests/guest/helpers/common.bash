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
RECLAIM=/sys/module/damon_reclaim/parameters
DAMOCTL=${DAMOCTL:-damoctl}
# Where the damoctl under test was installed: make install's /usr/local
# (check-guest), or the Debian packages' /usr with the unit in
# /lib/systemd/system (make check-deb sets both).
DAMOS_PREFIX=${DAMOS_PREFIX:-/usr/local}
DAMOS_UNITDIR=${DAMOS_UNITDIR:-$DAMOS_PREFIX/lib/systemd/system}
HELPERS=$BATS_TEST_DIRNAME/helpers
# dbgfs's switch: monitor_on, renamed monitor_on_DEPRECATED in 6.9 (the
# 6.12 series keeps the rename; series v2 had given monitor_on back beside
# it)
if [ -e "$DBGFS/monitor_on_DEPRECATED" ]; then
	DBGFS_ON=$DBGFS/monitor_on_DEPRECATED
else
	DBGFS_ON=$DBGFS/monitor_on
fi

# What the kernel under test has.  The suites run on every kernel of the
# matrix (make check: patched 6.1 and 6.12, Debian's own 6.12 and 6.1); a
# test of a feature the kernel was built without skips, with the reason, and
# only then: the kernel's config (staged by guest-image/guest.mk as
# kernel.config) says what it was built with, so a feature the config has
# but the kernel does not show is a failure, never a skip.  The host counts
# a skip only if its reason starts with "kernel lacks:" (or names the fix
# the test waits for, "waiting for"); any other skip counts as a failure.
KERNEL_CONFIG_FILE=${KERNEL_CONFIG_FILE:-$BATS_TEST_DIRNAME/kernel.config}
# the make knobs of this kernel (KVER, KIMAGE, KCONFIG, KPATCHES) and the
# number of the series' patches applied to it
[ -f "$BATS_TEST_DIRNAME/kernel.knobs" ] && source "$BATS_TEST_DIRNAME/kernel.knobs"

# kconfig SYM: CONFIG_SYM is y or m in the kernel's config.  Without the
# config the test ends as a failure: kconfig is called as a condition, where
# bats-assert's fail (a return 1) would read as "not set" and turn every
# test into a skip for a kernel without DAMON.
# The answer is kept for the rest of the bats run (a file per config and
# symbol in BATS_RUN_TMPDIR, read back with the read builtin): a grep is a
# fork+exec, 0.17 s under TCG beside a loaded host, and a need of one
# feature made two of them in nearly every test of every suite.
kconfig() {
	if [ ! -f "$KERNEL_CONFIG_FILE" ]; then
		echo "no $KERNEL_CONFIG_FILE: cannot tell what this kernel has" >&2
		exit 1
	fi
	local c= v=
	if [ -n "${BATS_RUN_TMPDIR:-}" ] && [ -d "$BATS_RUN_TMPDIR" ]; then
		c=$BATS_RUN_TMPDIR/kconfig${KERNEL_CONFIG_FILE//\//_}.$1
		[ -f "$c" ] && { val v "$c"; [ "$v" = y ]; return; }
	fi
	v=n
	grep -qE "^CONFIG_$1=[ym]\$" "$KERNEL_CONFIG_FILE" && v=y
	[ -z "$c" ] || echo "$v" > "$c"
	[ "$v" = y ]
}

# krel VAR: uname -r into VAR, kept for the rest of the bats run like
# kconfig's answers (a skip of need named it with a fork+exec of uname).
krel() {
	local c=${BATS_RUN_TMPDIR:-}/uname-r
	if [ -n "${BATS_RUN_TMPDIR:-}" ] && [ -f "$c" ]; then
		val "$1" "$c"
		return
	fi
	printf -v "$1" '%s' "$(uname -r)"
	[ -z "${BATS_RUN_TMPDIR:-}" ] || [ ! -d "$BATS_RUN_TMPDIR" ] || echo "${!1}" > "$c"
}

# need FEATURE...: skip unless the kernel was built with every FEATURE; fail
# if it was but the feature's files are not there.
#   damon     CONFIG_DAMON                      (anything at all)
#   sysfs     CONFIG_DAMON_SYSFS                $SYSFS
#   dbgfs     CONFIG_DAMON_DBGFS                $DBGFS (6.9+: _DEPRECATED)
#   lru_sort  CONFIG_DAMON_LRU_SORT             $LRU_SORT
#   reclaim   CONFIG_DAMON_RECLAIM              /sys/module/damon_reclaim
#   paddr     CONFIG_DAMON_PADDR
#   kunit     CONFIG_DAMON_KUNIT_TEST           (built in: results at boot)
#   dbgfs_lru dbgfs actions 6 and 7 (lru_prio, lru_deprio): the series adds
#             them to dbgfs, no stock kernel has them
#   dbgfs_series  dbgfs's strict "schemes" parsing, also the series' own
need() {
	local f sym path rel
	for f in "$@"; do
		path=
		case $f in
		damon) sym=DAMON ;;
		sysfs) sym=DAMON_SYSFS path=$SYSFS ;;
		dbgfs) sym=DAMON_DBGFS path=$DBGFS ;;
		lru_sort) sym=DAMON_LRU_SORT path=$LRU_SORT ;;
		reclaim) sym=DAMON_RECLAIM path=$RECLAIM ;;
		paddr) sym=DAMON_PADDR ;;
		kunit) sym=DAMON_KUNIT_TEST ;;
		dbgfs_lru|dbgfs_series)
			need dbgfs
			[ "${SERIES_APPLIED:-0}" -gt 0 ] ||
				{ krel rel; skip "kernel lacks: the series' dbgfs changes ($([ $f = dbgfs_lru ] && echo 'actions 6/7, lru_prio/lru_deprio' || echo 'strict schemes parsing')): no patch of kernel/patches/${KVER:-?}/series is applied to $rel"; }
			continue ;;
		*) fail "need: unknown feature $f" ;;
		esac
		if [ "$sym" != DAMON ] && ! kconfig DAMON; then
			krel rel
			skip "kernel lacks: DAMON (CONFIG_DAMON is not set in $rel); needed: $f"
		fi
		if ! kconfig "$sym"; then
			krel rel
			skip "kernel lacks: $f (CONFIG_$sym is not set in $rel)"
		fi
		if [ -n "$path" ] && [ ! -e "$path" ]; then
			fail "CONFIG_$sym is set but $path is not there"
		fi
	done
}

# kernel_at_least VERSION [RELEASE]: the kernel (RELEASE, default uname -r,
# its version before the first '-' or '+') is VERSION or later, for what
# DAMON's sysfs gained in a version rather than behind a config option.
kernel_at_least() {
	local v=${2:-$(uname -r)}
	v=${v%%-*}
	printf '%s\n%s\n' "$1" "${v%%+*}" | sort -CV
}

# What a 6.2+ kernel without the 6.12 series lacks for its tried regions
# updates (the skip reason of tried_regions.bats and of selftests.bats).
TRIED_REGIONS_FIX="the 6.12 series' fix of the tried regions update timeout (mm/damon/sysfs-schemes: time the update out in the kdamond's intervals)"

# stock_tried_regions_reader PROGRAM [RELEASE]: the kernel selftest PROGRAM
# reads tried regions updates on a kernel that has them (6.2 and later) but
# not the series (SERIES_APPLIED=0: Debian's own image, KPATCHES=none), whose
# 6.12 tried regions timeout fix it lacks.  The stock kernel ends an update
# after two apply intervals of wall clock time, so a kdamond slower than that
# (TCG beside other loads) returns empty ones (tried_regions.bats measures
# it: 7 of 11 empty on Debian's 6.12.118) and these programs fail as often as
# not.  Decided from the program's name, the release and the build, before
# the program runs: a failure is never turned into a skip afterwards.
stock_tried_regions_reader() {
	[ "${SERIES_APPLIED:-0}" -eq 0 ] || return 1
	kernel_at_least 6.2 "${2:-}" || return 1
	case $1 in
	damos_tried_regions.py | damon_nr_regions.py | \
	sysfs_update_schemes_tried_regions_wss_estimation.py) return 0 ;;
	esac
	return 1
}

# runs_on_debian_612 SCOPE: skip where the same make check also runs this
# test on Debian's own 6.12 (the kernel most users run) and what the test
# checks is the same on this kernel.  "The same make check" is
# MATRIX_ALSO in kernel.knobs: the other kernels of the check-matrix run,
# KVER:KIMAGE:NUMA each (guest-image/matrix.sh; guest.mk's
# GUEST_MATRIX_ALSO).  A check-guest of its own has none: every test runs.
#   sysfs  on patched 6.12: damoctl over 6.12's sysfs and the built-in
#          modules (damon_lru_sort, damon_reclaim), paddr's actions, the
#          tracepoint: code the 6.12 series leaves as Debian builds it.
#          What the series changes in sysfs is tested here by tests that
#          do not call this: tried regions updates (patch 3:
#          tried_regions.bats, report access from tried regions, the
#          kernel's selftests), a refused commit (patch 5: transactions
#          .bats, online.bats' scheme set), state commands raced by
#          nr_kdamonds (patch 2) and many scheme directories (patch 1:
#          hostile_input.bats); and all of dbgfs.
#   snapshots  on patched 6.12: a report over many snapshots (record,
#          report heatmap), whose tried regions updates the series does
#          change (patch 3): what the change does to a snapshot is tested
#          here by report access from tried regions and tried_regions.bats,
#          the rest is damoctl's
#   numa   on patched 6.12, where Debian's 6.12 boots the two-node machine
#          too: migration and memory tiers, which the series leaves alone
#   any    on every other kernel: damoctl's own files (version, man pages,
#          completion), no kernel file in what the test checks
# The reason starts "runs on " (guest-image/run.sh counts such a skip, and
# no other that does not say what the kernel lacks or has).
runs_on_debian_612() {
	local also=" ${MATRIX_ALSO:-} " why
	[ "${KIMAGE:-}" != debian ] || return 0
	case $1 in
	sysfs)
		[ "${KVER:-}" = 6.12 ] && [[ $also == *" 6.12:debian:"* ]] || return 0
		why="6.12's sysfs and modules, which the series leaves as they are" ;;
	snapshots)
		[ "${KVER:-}" = 6.12 ] && [[ $also == *" 6.12:debian:"* ]] || return 0
		why="a report over many snapshots; what the series changes in one (tried regions updates) is tested here by report access and tried_regions.bats" ;;
	numa)
		[ "${KVER:-}" = 6.12 ] && [[ $also == *" 6.12:debian:1 "* ]] || return 0
		why="migration and memory tiers on the two-node machine, which the series leaves as they are" ;;
	any)
		[[ $also == *" 6.12:debian:"* ]] || return 0
		why="damoctl's own files, the same whatever the kernel" ;;
	*) fail "runs_on_debian_612: unknown scope '$1'" ;;
	esac
	skip "runs on Debian's 6.12 only (this make check): $why"
}

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
# a module's); without dbgfs, no kdamond thread is there.
no_kdamond() {
	local v
	if [ -e "$DBGFS_ON" ]; then
		val v "$DBGFS_ON"
		[ "$v" = off ]
	else
		! pgrep -x 'kdamond\.[0-9]+' >/dev/null
	fi
}

# kdamond_off KDAMOND: KDAMOND (a sysfs kdamond's directory) off, its
# state read and 'off' written again while either fails, up to 10 s: their
# show() and store() take damon_sysfs_lock with mutex_trylock() and fail
# with EBUSY while it is held, and a running kdamond takes it in its
# after_sampling callback at every sampling interval; on a loaded host,
# whose scheduler may stop the vCPU in the middle of that callback, a
# write of 'off' met it held (hostile_input.sh, patched 6.12).  Once it
# reads anything but "on" (stopped by the write, or by itself), done.
kdamond_off() {
	local i v
	for ((i = 0; i < 100; i++)); do
		v=
		if IFS= read -r v < "$1/state" 2>/dev/null; then
			[ "$v" = on ] || return 0
			STOPPED=1
			echo off 2>/dev/null > "$1/state" && continue
		fi
		sleep 0.1
	done
	echo "kdamond_off: $1 still on after 10 s of EBUSY" >&2
	return 1
}

# Stop every DAMON user and drop what dbgfs and sysfs hold, whatever state a
# previous test left.
#
# Every DAMON user is one of these, and each stops synchronously
# (kthread_stop()), so the wait for no kdamond thread is there only after
# one was stopped: without dbgfs it is a pgrep, a fork+exec (0.23 s under
# TCG beside a loaded host) twice in every test.
damon_off() {
	local v k STOPPED=
	if [ -f "$LRU_SORT/enabled" ]; then
		val v "$LRU_SORT/enabled"
		[ "$v" = Y ] && { STOPPED=1; echo N > "$LRU_SORT/enabled"; }
	fi
	if [ -f "$RECLAIM/enabled" ]; then
		val v "$RECLAIM/enabled"
		[ "$v" = Y ] && { STOPPED=1; echo N > "$RECLAIM/enabled"; }
	fi
	for k in "$SYSFS"/kdamonds/[0-9]*; do
		[ -d "$k" ] || continue
		kdamond_off "$k"
	done
	if [ -d "$SYSFS" ]; then
		val v "$SYSFS/kdamonds/nr_kdamonds"
		[ "$v" = 0 ] || echo 0 > "$SYSFS/kdamonds/nr_kdamonds"
	fi
	if [ -d "$DBGFS" ]; then
		v=$(< "$DBGFS/kdamond_pid")
		[ "$v" = none ] || { STOPPED=1; echo off > "$DBGFS_ON"; }
	fi
	[ -z "$STOPPED" ] || wait_for 10 no_kdamond
	if [ -d "$DBGFS" ]; then
		echo > "$DBGFS/schemes"
		echo > "$DBGFS/target_ids"
	fi
}

# The most regions the damon_lru_sort tests under memory pressure let the
# module use (its own default is 1000).  6.1's kdamond closes an aggregation
# when aggr_interval has passed on the clock (kdamond_aggregate_interval_passed),
# while the hot threshold counts samples (hot_thres_access_freq of
# aggr_interval / sample_interval, 10 of 20): a sample that takes longer than
# sample_interval leaves fewer than 20 in an aggregation.  A sample's work
# grows with the number of regions (two rmap walks each), and on the debug
# kernel under TCG the regions over the paddr space grew to 417 and 421 on
# average (534 at most) in two failed runs, where no region was seen accessed
# in more than 5 samples of most aggregations: the hot part was never hot
# again.  With at most 100 regions (35 to 50 on average), it was seen in up
# to 16.  (6.12 counts an aggregation in samples: next_aggregation_sis.)
# 100 regions still cut the 1.7 GiB paddr space finely enough to find the
# 64 MiB hot part.
LRU_SORT_MAX_REGIONS=100

# damon_regions_summary SECONDS: for a failure's output, the running
# kdamond's aggregations over SECONDS, from the damon_aggregated trace
# event (one per region, with the count of its regions): per aggregation,
# how many regions, and in how many samples the most accessed one was seen.
# DAMOS_TRACEFS: another tracefs (the host test's made-up one).
damon_regions_summary() {
	local t=${DAMOS_TRACEFS:-/sys/kernel/tracing} ev
	[ -d "$t/events" ] || mount -t tracefs none "$t" 2>/dev/null
	ev=$t/events/damon/damon_aggregated
	if [ ! -d "$ev" ]; then
		echo "damon: no damon_aggregated trace event in $t"
		return 0
	fi
	echo > "$t/trace"
	echo 1 > "$ev/enable"
	sleep "$1"
	echo 0 > "$ev/enable"
	awk '/damon_aggregated:/ {
		for (i = 1; i <= NF; i++)
			if ($i ~ /^nr_regions=/) nr = substr($i, 12) + 0
			else if ($i ~ /^[0-9]+-[0-9]+:$/) acc = $(i + 1) + 0
		n++
		if (acc > max) max = acc
		if (n >= nr) {
			printf "damon: aggregation of %d regions, the most accessed seen in %d samples\n", n, max
			n = 0; max = 0; seen = 1
		}
	}
	END { if (!seen) print "damon: no aggregation traced (no kdamond at work?)" }' "$t/trace"
	echo > "$t/trace"
}

# Workload: start_workload ARGS... runs helpers/hotcold in the background
# until stop_workload; returns once its memory is populated and its first
# pass time is known, with SAMPLE_US and AGGR_US set for it
# (workload_sample_us).  Without a workload they are DAMON's defaults.
SAMPLE_US=5000
AGGR_US=100000
start_workload() {
	local out=$BATS_TEST_TMPDIR/hotcold.out
	"$HELPERS/hotcold" "$@" > "$out" 2>&1 &
	WORKLOAD_PID=$!
	wait_for 120 grep -q '^ready' "$out" || {
		cat "$out"
		fail "hotcold did not get ready"
	}
	SAMPLE_US=$(workload_sample_us) || fail "hotcold reported no pass time"
	AGGR_US=$((SAMPLE_US * 20))
	echo "workload: DAMON sampling $SAMPLE_US us, aggregation $AGGR_US us"
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

# workload_sample_us: the DAMON sampling interval (us) to monitor the
# running hotcold with.  A page counts as accessed in a sample only if a
# pass reaches it within the sample, so samples shorter than a pass see
# the hot part as lukewarm: at least twice the mean time of hotcold's first
# reported pass.  On the default kernel a pass takes about 6 ms; on the
# debug kernel (KASAN) under TCG 15 to 40 ms (twice that beside another
# guest), where 5 ms samples saw no hot region in 120 s.  Rounded up to
# 5, 6.25, 12.5 or 25 ms: the aggregation interval (20 samples, so that
# every access rate in steps of 5% is whole) is then 100, 125, 250 or
# 500 ms, of which every age the suites give (500 ms, 1 s, 5 s) is a whole
# number.  25 ms at most: a pass longer than that is still seen in most
# samples.
workload_sample_us() {
	local out=$BATS_TEST_TMPDIR/hotcold.out us s
	wait_for 60 grep -q '^pass ' "$out" || return 1
	us=$(awk '/^pass / { printf "%d", $2 * 2000; exit }' "$out")
	for s in 5000 6250 12500 25000; do
		[ "$us" -gt "$s" ] || break
	done
	echo "$s"
}

# dbgfs: monitor the physical address space with the given schemes.
dbgfs_paddr_setup() {
	local range
	range=$(paddr_range)
	echo "$SAMPLE_US $AGGR_US 1000000 10 1000" > "$DBGFS/attrs"
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
	echo "$SAMPLE_US" > "$SYSFS_C/monitoring_attrs/intervals/sample_us"
	echo "$AGGR_US" > "$SYSFS_C/monitoring_attrs/intervals/aggr_us"
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

# damoctl (see damoctl(8)): SAMPLE_US / AGGR_US / 1 s attributes, a paddr
# target over the largest System RAM range.
damoctl_paddr_setup() {
	local iface=$1 range
	range=$(paddr_range)
	"$DAMOCTL" --interface "$iface" attrs set sample "${SAMPLE_US}us" aggr "${AGGR_US}us" update 1s regions 10 1000 &&
		"$DAMOCTL" --interface "$iface" target set paddr region "${range% *}" "${range#* }"
}
