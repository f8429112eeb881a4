#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# In-guest driver of the PLRUS benchmark (root, patched kernel, never the
# host): runs the workload (hotcold, or fio with BENCH_PROGRAM=fio) under
# each configuration, N rounds in rotated order in one boot, and writes raw
# per-run metrics; analyze.sh turns them into the table.  See README.md.
#
# usage: bench.sh [-q] [-n ROUNDS] [-c "CONFIGS"] [-o OUTDIR]
set -u -o pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
HOTCOLD=${HOTCOLD:-$HERE/hotcold}
TLBSHAKE=${TLBSHAKE:-$HERE/tlbshake}
DAMOCTL=${DAMOCTL:-damoctl}
OUT=${BENCH_OUT:-/tmp/damos-bench}
ROUNDS=${BENCH_ROUNDS:-5}
QUICK=${BENCH_QUICK:-0}
CONFIGS=${BENCH_CONFIGS:-"orig mprs plrus-dbgfs plrus-sysfs lru_sort lru_sort-tuned"}
# The workload: hotcold (ours: known hot set, so the oracle floor can be
# computed) or fio (a real program from Debian: mmap reads over a tmpfs file
# with a zoned distribution, 90% of reads to the first 20% of the file, 9% to
# the next 50%, 1% to the last 30%).  Both shapes are sized for a 1-2 GiB
# guest under TCG (README.md).  fio's work is counted in 4 KiB reads: keep
# --bs=4k when overriding BENCH_WORKLOAD.
PROGRAM=${BENCH_PROGRAM:-hotcold}
case $PROGRAM in
hotcold) WL_DEFAULT="--hot 32M --cold 160M --skew 99 --phases 2" ;;
fio) WL_DEFAULT="--size=192M --bs=4k --rw=randread --ioengine=mmap"
     WL_DEFAULT+=" --random_distribution=zoned:90/20:9/50:1/30 --norandommap --randrepeat=1"
     WL_DEFAULT+=" --buffer_compress_percentage=50 --refill_buffers --invalidate=0" ;;
*) echo "bench: BENCH_PROGRAM: '$PROGRAM' is neither hotcold nor fio" >&2; exit 2 ;;
esac
WL_ARGS=${BENCH_WORKLOAD:-$WL_DEFAULT}
FIO_DIR=/run/damos-bench-fio	# a tmpfs of its own: the file's pages swap to zram like anon ones
FIO_CPU=0			# fio and tlbshake share this CPU (tlbshake.c)
TLBSHAKE_US=${BENCH_TLBSHAKE_US:-2000}	# its wakeup interval; 0: no tlbshake
TARGET_S=${BENCH_TARGET_S:-100}	# access-phase seconds of an unpressured run: >= 10 pressure episodes
CAL_S=${BENCH_CAL_S:-8}
# how schemes are installed: damoctl (the product), raw (direct writes, a
# cross-check), or auto (damoctl when installed, else raw, said loudly)
VIA=${BENCH_VIA:-auto}
PRESSURE=${BENCH_PRESSURE:-strict}	# strict|seed, see pressure_loop

while getopts "qn:c:o:" opt; do
	case $opt in
	q) QUICK=1 ;;
	n) ROUNDS=$OPTARG ;;
	c) CONFIGS=$OPTARG ;;
	o) OUT=$OPTARG ;;
	*) echo "usage: $0 [-q] [-n ROUNDS] [-c CONFIGS] [-o OUTDIR]" >&2; exit 2 ;;
	esac
done
if [ "$QUICK" = 1 ]; then
	ROUNDS=${BENCH_ROUNDS_QUICK:-1}
	TARGET_S=${BENCH_TARGET_S_QUICK:-12}
	CAL_S=${BENCH_CAL_S_QUICK:-4}
fi

CG=/sys/fs/cgroup/damos-bench
DBGFS=/sys/kernel/debug/damon
SYSFS=/sys/kernel/mm/damon/admin
LRUS=/sys/module/damon_lru_sort/parameters

# Monitoring attributes: "sample_us aggr_us update_us min_nr max_nr".  DAMON's
# usual 5 ms / 100 ms with up to 1000 regions cost a kdamond 20-25% of a vCPU
# under TCG (measured, README.md): every access check is an emulated rmap
# walk.  The default samples 4x less often over 4x fewer regions, keeping the
# same number of samples per aggregation, so the access thresholds below
# mean the same; BENCH_DAMON_ATTRS="5000 100000 1000000 10 1000" is the seed's.
read -r SAMPLE_US AGGR_US UPDATE_US MIN_NR MAX_NR <<< "${BENCH_DAMON_ATTRS:-20000 400000 1000000 10 250}"
# the seed's radically tuned PLRUS
# lru_prio's threshold: the seed's >= 20% of samples (BENCH_HOT_PCT)
HOT_PCT=${BENCH_HOT_PCT:-20}
HOT_NR=$((AGGR_US / SAMPLE_US * HOT_PCT / 100))
COLD_AGE=$(((5000000 + AGGR_US - 1) / AGGR_US))	# >= 5 s without access
# time quota of each scheme per 1 s: the seed's 20 ms is 2% of one CPU each
QUOTA_MS=${BENCH_QUOTA_MS:-20} QUOTA_RESET_MS=1000
ULONG_MAX=18446744073709551615 UINT_MAX=4294967295

log() { echo "bench: $*" | tee -a "$OUT/bench.log" >&2; }
die() { log "error: $*"; exit 1; }
now_ns() { local t=$EPOCHREALTIME; echo "${t/./}000"; }

setup_system() {
	[ "$(id -u)" = 0 ] || die "must run as root (in the guest)"
	if [ "$PROGRAM" = fio ]; then
		command -v fio > /dev/null || die "no fio in the guest (make bench uses the bench image, guest-image/packages-bench)"
		command -v python3 > /dev/null || die "no python3 in the guest (fio's dependency; it reads fio's JSON)"
		[ -x "$TLBSHAKE" ] || die "$TLBSHAKE: not built"
		mkdir -p $FIO_DIR
		mountpoint -q $FIO_DIR || mount -t tmpfs -o size=1G damos-bench-fio $FIO_DIR ||
			die "cannot mount a tmpfs on $FIO_DIR"
	else
		[ -x "$HOTCOLD" ] || die "$HOTCOLD: not built"
	fi
	grep -q ' /sys/fs/cgroup cgroup2 ' /proc/mounts ||
		mount -t cgroup2 none /sys/fs/cgroup || die "cannot mount cgroup2"
	grep -q ' /sys/kernel/debug debugfs ' /proc/mounts ||
		mount -t debugfs none /sys/kernel/debug 2>/dev/null
	grep -qw memory /sys/fs/cgroup/cgroup.controllers ||
		die "no memory controller in cgroup v2"
	echo +memory > /sys/fs/cgroup/cgroup.subtree_control ||
		die "cannot enable the memory controller"
	[ -r /proc/pressure/memory ] || die "no PSI (/proc/pressure/memory)"

	if ! grep -q zram /proc/swaps; then
		modprobe zram 2>/dev/null
		[ -e /sys/block/zram0 ] || cat /sys/class/zram-control/hot_add >/dev/null 2>&1
		[ -e /sys/block/zram0 ] || die "no zram device"
		echo 1 > /sys/block/zram0/reset 2>/dev/null
		echo "${BENCH_ZRAM_SIZE:-1G}" > /sys/block/zram0/disksize ||
			die "cannot size zram0"
		mkswap /dev/zram0 >/dev/null || die "mkswap /dev/zram0 failed"
		swapon -p 100 /dev/zram0 || die "swapon /dev/zram0 failed"
	fi
	rmdir "$CG" 2>/dev/null
	mkdir -p "$OUT/runs"
	if [ "$VIA" = auto ]; then
		if command -v "$DAMOCTL" > /dev/null; then
			VIA=damoctl
		else
			VIA=raw
			log "note: no $DAMOCTL in the guest: PLRUS schemes are written directly (BENCH_VIA=raw)"
		fi
	fi
}

record_env() {
	{
		echo "date=$(date -u +%FT%TZ)"
		echo "kernel=$(uname -r)"
		echo "cmdline=$(cat /proc/cmdline)"
		echo "cpus=$(nproc)"
		echo "memtotal_kb=$(awk '/^MemTotal/ {print $2}' /proc/meminfo)"
		echo "loadavg=$(cat /proc/loadavg)"
		echo "lru_gen=$(cat /sys/kernel/mm/lru_gen/enabled 2>/dev/null || echo none)"
		echo "thp=$(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo none)"
		echo "swap=$(tail -n +2 /proc/swaps | tr -s ' ' | tr '\n' ';')"
		echo "zram_algo=$(cat /sys/block/zram0/comp_algorithm 2>/dev/null)"
		echo "damoctl=$(command -v "$DAMOCTL" || echo none)"
		echo "via=$VIA quick=$QUICK rounds=$ROUNDS configs=$CONFIGS pressure=$PRESSURE"
		echo "program=$PROGRAM $([ "$PROGRAM" = fio ] && echo "$(fio --version) tlbshake_us=$TLBSHAKE_US")"
		echo "damon_attrs=$SAMPLE_US,$AGGR_US,$UPDATE_US,$MIN_NR,$MAX_NR quota_ms=$QUOTA_MS/$QUOTA_RESET_MS hot_pct=$HOT_PCT hot_nr=$HOT_NR"
	} > "$OUT/env.txt"
}

# System RAM range that damon_lru_sort would pick: the biggest one.
paddr_range() {
	local line s e best=0 bs=0 be=0
	while IFS= read -r line; do
		# top-level entries only: nested ones are indented
		case $line in [0-9a-f]*"System RAM") ;; *) continue ;; esac
		s=${line%%-*} e=${line#*-}; e=${e%% *}
		s=$((16#$s)) e=$((16#$e + 1))
		if ((e - s > best)); then best=$((e - s)) bs=$s be=$e; fi
	done < /proc/iomem
	((best)) || return 1
	echo "$bs $be"
}

# ---- PLRUS through damoctl (the product) ----
plrus_damoctl() {
	local d="$DAMOCTL --interface $1" start end
	read -r start end <<< "$(paddr_range)"
	$d monitor stop > /dev/null 2>&1
	$d scheme clear &&
	$d attrs set sample ${SAMPLE_US}us aggr ${AGGR_US}us update ${UPDATE_US}us \
		regions $MIN_NR $MAX_NR &&
	$d target set paddr region "$(printf '0x%x' "$start")" "$(printf '0x%x' "$end")" &&
	$d scheme add lru_prio sz 4K max access $HOT_NR max age min max \
		quota time ${QUOTA_MS}ms reset ${QUOTA_RESET_MS}ms weights 0 1 1 &&
	$d scheme add lru_deprio sz 4K max access 0 0 age $COLD_AGE max \
		quota time ${QUOTA_MS}ms reset ${QUOTA_RESET_MS}ms weights 0 0 1 &&
	$d scheme list &&
	$d monitor start
}

# ---- PLRUS by direct writes (cross-check; no damoctl involved) ----
plrus_raw_dbgfs() {
	local start end
	read -r start end <<< "$(paddr_range)"
	echo "$SAMPLE_US $AGGR_US $UPDATE_US $MIN_NR $MAX_NR" > $DBGFS/attrs &&
	echo paddr > $DBGFS/target_ids &&
	echo "0 $start $end" > $DBGFS/init_regions &&
	printf '%s\n%s\n' \
		"4096 $ULONG_MAX $HOT_NR $UINT_MAX 0 $UINT_MAX 6 $QUOTA_MS 0 $QUOTA_RESET_MS 0 1 1 0 0 0 0 0" \
		"4096 $ULONG_MAX 0 0 $COLD_AGE $UINT_MAX 7 $QUOTA_MS 0 $QUOTA_RESET_MS 0 0 1 0 0 0 0 0" \
		> $DBGFS/schemes &&
	echo on > $DBGFS/monitor_on
}

sysfs_scheme() {
	local s=$1 action=$2 nmin=$3 nmax=$4 amin=$5 wa=$6 wage=$7
	echo "$action" > "$s/action" &&
	echo 4096 > "$s/access_pattern/sz/min" &&
	echo "$ULONG_MAX" > "$s/access_pattern/sz/max" &&
	echo "$nmax" > "$s/access_pattern/nr_accesses/max" &&
	echo "$nmin" > "$s/access_pattern/nr_accesses/min" &&
	echo "$UINT_MAX" > "$s/access_pattern/age/max" &&
	echo "$amin" > "$s/access_pattern/age/min" &&
	echo "$QUOTA_MS" > "$s/quotas/ms" &&
	echo 0 > "$s/quotas/bytes" &&
	echo "$QUOTA_RESET_MS" > "$s/quotas/reset_interval_ms" &&
	echo 0 > "$s/quotas/weights/sz_permil" &&
	echo "$wa" > "$s/quotas/weights/nr_accesses_permil" &&
	echo "$wage" > "$s/quotas/weights/age_permil" &&
	echo none > "$s/watermarks/metric"
}

plrus_raw_sysfs() {
	local start end k=$SYSFS/kdamonds/0 c
	read -r start end <<< "$(paddr_range)"
	echo 1 > $SYSFS/kdamonds/nr_kdamonds &&
	echo 1 > $k/contexts/nr_contexts || return 1
	c=$k/contexts/0
	echo paddr > $c/operations &&
	echo $SAMPLE_US > $c/monitoring_attrs/intervals/sample_us &&
	echo $AGGR_US > $c/monitoring_attrs/intervals/aggr_us &&
	echo $UPDATE_US > $c/monitoring_attrs/intervals/update_us &&
	echo $MAX_NR > $c/monitoring_attrs/nr_regions/max &&
	echo $MIN_NR > $c/monitoring_attrs/nr_regions/min &&
	echo 1 > $c/targets/nr_targets &&
	echo 1 > $c/targets/0/regions/nr_regions &&
	echo "$end" > $c/targets/0/regions/0/end &&
	echo "$start" > $c/targets/0/regions/0/start &&
	echo 2 > $c/schemes/nr_schemes &&
	sysfs_scheme $c/schemes/0 lru_prio $HOT_NR $UINT_MAX 0 1 1 &&
	sysfs_scheme $c/schemes/1 lru_deprio 0 0 $COLD_AGE 0 1 &&
	echo on > $k/state
}

lru_sort_set() {	# name=value ...
	local kv
	for kv in "$@"; do
		echo "${kv#*=}" > "$LRUS/${kv%%=*}" || return 1
	done
}

# Restore the module's defaults (those of mm/damon/lru_sort.c in 6.1).
LRUS_DEFAULTS="hot_thres_access_freq=500 cold_min_age=120000000 quota_ms=10
quota_reset_interval_ms=1000 wmarks_interval=5000000 wmarks_high=200
wmarks_mid=150 wmarks_low=50 sample_interval=5000 aggr_interval=100000
min_nr_regions=10 max_nr_regions=1000 monitor_region_start=0 monitor_region_end=0"
# Tuned like the PLRUS schemes above; quota_ms is split between the two
# schemes, and watermarks 1000/999/0 keep it active at any free memory.
LRUS_TUNED="hot_thres_access_freq=$((HOT_PCT * 10)) cold_min_age=5000000 quota_ms=$((2 * QUOTA_MS))
wmarks_high=1000 wmarks_mid=999 wmarks_low=0 sample_interval=$SAMPLE_US
aggr_interval=$AGGR_US min_nr_regions=$MIN_NR max_nr_regions=$MAX_NR"

# the interface a PLRUS configuration installs its schemes through;
# orig-plrus is plrus-sysfs without the pressure (DAMON's view and cost alone)
plrus_iface() {
	case $1 in
	plrus-dbgfs) echo dbgfs ;;
	plrus-sysfs|orig-plrus) echo sysfs ;;
	esac
}

kdamond_pid() {
	local f
	case $1 in
	plrus-dbgfs) f=$DBGFS/kdamond_pid ;;
	plrus-sysfs|orig-plrus) f=$SYSFS/kdamonds/0/pid ;;
	lru_sort*) f=$LRUS/kdamond_pid ;;
	*) echo none; return ;;
	esac
	cat "$f" 2>/dev/null || echo none
}

damon_start() {
	local cfg=$1 i pid
	case $cfg in
	orig|mprs|warmup) return 0 ;;
	plrus-dbgfs|plrus-sysfs|orig-plrus)
		if [ "$VIA" = raw ]; then
			plrus_raw_"$(plrus_iface "$cfg")"
		else
			plrus_damoctl "$(plrus_iface "$cfg")"
		fi || return 1 ;;
	lru_sort)
		lru_sort_set $LRUS_DEFAULTS enabled=Y || return 1 ;;
	lru_sort-tuned)
		lru_sort_set $LRUS_DEFAULTS $LRUS_TUNED enabled=Y || return 1 ;;
	*) die "unknown configuration $cfg" ;;
	esac
	# lru_sort starts its kdamond from a workqueue: wait for the pid
	for i in $(seq 50); do
		pid=$(kdamond_pid "$cfg")
		[ "$pid" != none ] && [ "$pid" -gt 0 ] 2>/dev/null && return 0
		sleep 0.1
	done
	log "$cfg: kdamond did not start"
	return 1
}

# Scheme stats, one "name=value" per word, prio_* and deprio_*.
scheme_stats() {
	local cfg=$1 f
	case $cfg in
	plrus-dbgfs)
		awk '$7 == 6 { p = "prio_" } $7 == 7 { p = "deprio_" }
		     NF == 23 { printf "%snr_tried=%s %ssz_tried=%s %snr_applied=%s %ssz_applied=%s %sqt_exceeds=%s ",
			p, $19, p, $20, p, $21, p, $22, p, $23 }' $DBGFS/schemes ;;
	plrus-sysfs|orig-plrus)
		echo update_schemes_stats > $SYSFS/kdamonds/0/state
		for i in 0 1; do
			p=$([ $i = 0 ] && echo prio_ || echo deprio_)
			for f in nr_tried sz_tried nr_applied sz_applied qt_exceeds; do
				printf '%s%s=%s ' $p $f "$(cat $SYSFS/kdamonds/0/contexts/0/schemes/$i/stats/$f)"
			done
		done ;;
	lru_sort*)
		for w in hot:prio_ cold:deprio_; do
			t=${w%%:*} p=${w#*:}
			printf '%snr_tried=%s %ssz_tried=%s %snr_applied=%s %ssz_applied=%s %sqt_exceeds=%s ' \
				$p "$(cat $LRUS/nr_lru_sort_tried_${t}_regions)" \
				$p "$(cat $LRUS/bytes_lru_sort_tried_${t}_regions)" \
				$p "$(cat $LRUS/nr_lru_sorted_${t}_regions)" \
				$p "$(cat $LRUS/bytes_lru_sorted_${t}_regions)" \
				$p "$(cat $LRUS/nr_${t}_quota_exceeds)"
		done ;;
	esac
}

damon_stop() {
	local cfg=$1 i
	case $cfg in
	plrus-dbgfs|plrus-sysfs|orig-plrus)
		if [ "$VIA" = raw ]; then
			if [ "$cfg" = plrus-dbgfs ]; then
				echo off > $DBGFS/monitor_on
			else
				echo off > $SYSFS/kdamonds/0/state
			fi
		else
			$DAMOCTL --interface "$(plrus_iface "$cfg")" monitor stop
		fi ;;
	lru_sort*) echo N > $LRUS/enabled ;;
	*) return 0 ;;
	esac
	for i in $(seq 100); do
		case $(kdamond_pid "$cfg") in none|-1|'') break ;; esac
		sleep 0.1
	done
	# leave no scheme behind for the next configuration
	if [ "$cfg" = plrus-dbgfs ]; then
		[ "$VIA" = raw ] && printf '' > $DBGFS/schemes ||
			$DAMOCTL --interface dbgfs scheme clear
	fi
	return 0
}

proc_ticks() {	# utime + stime of a pid, in clock ticks
	awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "/proc/$1/stat" 2>/dev/null || echo 0
}
# "na" when the kernel has no such counter (CONFIG_VM_EVENT_COUNTERS=n)
vmstat() { awk -v k="$1" '$1 == k { print $2; f = 1 } END { if (!f) print "na" }' /proc/vmstat; }
delta() { if [ "$1" = na ] || [ "$2" = na ]; then echo na; else echo $(($2 - $1)); fi; }
psi_some() { awk '/^some/ { sub("total=", "", $5); print $5 }' "${1:-/proc/pressure/memory}"; }

# The cover letter's pressure: 75% of the peak for 1 s, 200% for 10 s, ...
# Runs in its own subshell; TERM ends it without leaving a sleep behind.
# The memory.max write reclaims in the writer until the cgroup fits: under
# TCG that can take many seconds.  BENCH_PRESSURE=strict (default) stops it
# after 1 s (memory_max_write gives up on a pending signal) so that every
# episode lasts 1 s as on the seed's hardware; "seed" waits for the write,
# as the cover letter's script does.
pressure_loop() {
	local lo=$1 hi=$2 lim=$3 sp="" wp=""
	trap 'kill $sp $wp 2>/dev/null; exit 0' TERM
	while :; do
		echo "$(now_ns) $lo" >> "$lim"
		if [ "$PRESSURE" = seed ]; then
			echo "$lo" > $CG/memory.max
			echo "$(now_ns) $lo reached" >> "$lim"
			sleep 1 & sp=$!; wait $sp
		else
			( echo "$lo" > $CG/memory.max && echo "$(now_ns) $lo reached" >> "$lim" ) &
			wp=$!
			sleep 1 & sp=$!; wait $sp
			# how far reclaim got: the oracle's limit for this episode
			echo "$(now_ns) $(cat $CG/memory.current) cut" >> "$lim"
			# raise the limit first: the writer may take a whole
			# reclaim batch to notice the signal
			kill $wp 2>/dev/null
		fi
		echo "$(now_ns) $hi" >> "$lim"
		echo "$hi" > $CG/memory.max
		if [ -n "$wp" ]; then wait $wp 2>/dev/null; wp=""; fi
		sleep 10 & sp=$!; wait $sp
	done
}

# fio_run DIR accesses|duration N: fio with tlbshake on its CPU, the file
# laid out in the cgroup and removed after; prints one key=value line like
# hotcold's (runtime_s first: fio's own wall time, layout included, as
# hotcold's includes its fill).
fio_run() {
	local dir=$1 kind=$2 n=$3 work t0 t1 st sp
	case $kind in
	accesses) work="--io_size=$((n * 4096))" ;;
	duration) work="--time_based --runtime=${n}s" ;;
	esac
	sp=""
	if [ "$TLBSHAKE_US" != 0 ]; then
		"$TLBSHAKE" -c $FIO_CPU -i "$TLBSHAKE_US" > "$dir/tlbshake.out" 2>&1 &
		sp=$!
	else
		echo "wakeups=0" > "$dir/tlbshake.out"
	fi
	t0=$(now_ns)
	# shellcheck disable=SC2086 # the workload options are words
	fio --name=bench --filename=$FIO_DIR/data --cpus_allowed=$FIO_CPU $WL_ARGS $work \
		--output-format=json --output="$dir/fio.json" > "$dir/fio.log" 2>&1
	st=$?
	t1=$(now_ns)
	[ -n "$sp" ] && { kill "$sp" 2>/dev/null; wait "$sp"; }
	rm -f $FIO_DIR/data
	if [ $st != 0 ]; then
		echo "fio failed (status $st): $(tail -n 3 "$dir/fio.log")" >&2
		return $st
	fi
	python3 - "$dir/fio.json" "$t0" "$t1" <<-'PY' || return 1
	import json, sys
	j = json.load(open(sys.argv[1]))["jobs"][0]
	r = j["read"]
	t0, t1 = int(sys.argv[2]), int(sys.argv[3])
	print(f"runtime_s={(t1 - t0) / 1e9:.3f} access_s={r['runtime'] / 1000:.3f}"
	      f" rate_per_s={r['iops']:.0f} accesses={r['total_ios']}"
	      f" majflt={j['majf']} minflt={j['minf']} fio_error={j['error']}"
	      f" lat_mean_us={r['lat_ns']['mean'] / 1000:.2f}"
	      f" lat_p99_us={r['clat_ns']['percentile'].get('99.000000', 0) / 1000:.2f}", end="")
	PY
	echo " tlbshake_$(cat "$dir/tlbshake.out")"
}

# workload_run DIR accesses|duration N: the workload in this shell (already
# in the cgroup); one key=value line on stdout.  "accesses N" is the fixed
# work of a measured run (hotcold also logs its progress, for the oracle);
# "duration N" the calibration.
workload_run() {
	local dir=$1 kind=$2 n=$3
	if [ "$PROGRAM" = fio ]; then
		fio_run "$dir" "$kind" "$n"
	elif [ "$kind" = accesses ]; then
		# shellcheck disable=SC2086
		exec "$HOTCOLD" $WL_ARGS --accesses "$n" --progress "$dir/progress.txt"
	else
		# shellcheck disable=SC2086
		exec "$HOTCOLD" $WL_ARGS --duration "$n"
	fi
}

# run_one CONFIG ROUND: one measured run
run_one() {
	local cfg=$1 round=$2
	local dir=$OUT/runs/$cfg-$round pid ppid=none kpid t0 t1 ticks0=0 ticks1=0
	local maj0 maj1 psi0 psi1 sin0 sin1 sout0 sout1 res peak oom st
	mkdir -p "$dir"
	sync; echo 3 > /proc/sys/vm/drop_caches
	rmdir $CG 2>/dev/null; mkdir $CG || die "cannot create $CG"
	echo "$((PEAK * 2))" > $CG/memory.max

	if ! damon_start "$cfg" > "$dir/damon-start.log" 2>&1; then
		log "$cfg round $round: DAMON set-up failed: $(tail -3 "$dir/damon-start.log")"
		damon_stop "$cfg" >/dev/null 2>&1
		echo "config=$cfg round=$round failed=damon_start" >> "$OUT/results.txt"
		return 1
	fi
	kpid=$(kdamond_pid "$cfg")
	[ "$kpid" != none ] && ticks0=$(proc_ticks "$kpid")

	maj0=$(vmstat pgmajfault) sin0=$(vmstat pswpin) sout0=$(vmstat pswpout)
	psi0=$(psi_some)
	t0=$(now_ns)
	echo "$t0 $((PEAK * 2))" > "$dir/limits.txt"
	( echo $BASHPID > $CG/cgroup.procs &&
	  workload_run "$dir" accesses "$ACCESSES" ) > "$dir/workload.out" 2> "$dir/workload.err" &
	pid=$!
	if [ "$cfg" != orig ] && [ "$cfg" != warmup ] && [ "$cfg" != orig-plrus ]; then
		pressure_loop "$LO" "$HI" "$dir/limits.txt" &
		ppid=$!
	fi
	wait $pid; st=$?
	t1=$(now_ns)
	[ "$ppid" != none ] && { kill $ppid; wait $ppid 2>/dev/null; }
	maj1=$(vmstat pgmajfault) sin1=$(vmstat pswpin) sout1=$(vmstat pswpout)
	psi1=$(psi_some)
	[ "$kpid" != none ] && ticks1=$(proc_ticks "$kpid")
	peak=$(cat $CG/memory.peak 2>/dev/null || echo 0)
	oom=$(awk '$1 == "oom_kill" { print $2 }' $CG/memory.events)
	res="config=$cfg round=$round via=$VIA status=$st $(cat "$dir/workload.out")"
	res+=" wall_s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')"
	res+=" pgmajfault=$(delta "$maj0" "$maj1") pswpin=$(delta "$sin0" "$sin1") pswpout=$(delta "$sout0" "$sout1")"
	res+=" psi_some_us=$((psi1 - psi0)) cg_psi_some_us=$(psi_some $CG/memory.pressure)"
	res+=" kdamond_cpu_pct=$(awk -v d=$((ticks1 - ticks0)) -v hz="$(getconf CLK_TCK)" -v a="$t0" -v b="$t1" \
		'BEGIN { printf "%.3f", d / hz / ((b - a) / 1e9) * 100 }')"
	res+=" cg_peak=$peak oom_kill=${oom:-0} loadavg=$(cut -d' ' -f1 /proc/loadavg)"
	# episodes at 75%, seconds spent at 75%, of which blocked in reclaim
	res+=" $(awk -v lo="${LO:-x}" -v end="$t1" '
		$2 == lo && NF == 2 { n++; s = $1 }
		$2 == lo && NF == 3 { r += $1 - s }
		$2 != lo && s { p += $1 - s; s = 0 }
		END { if (s) p += end - s
		      printf "episodes=%d pressure_s=%.2f reclaim_wait_s=%.2f", n, p / 1e9, r / 1e9 }' "$dir/limits.txt")"
	res+=" $(scheme_stats "$cfg" 2>/dev/null)"
	case $cfg in plrus-*|orig-plrus) [ "$VIA" = damoctl ] &&
		$DAMOCTL --interface "$(plrus_iface "$cfg")" stats show > "$dir/stats.txt" 2>&1 ;; esac
	damon_stop "$cfg" > "$dir/damon-stop.log" 2>&1
	echo "$res" >> "$OUT/results.txt"
	log "$cfg round $round: $(cut -d' ' -f1 "$dir/workload.out") pgmajfault=$(delta "$maj0" "$maj1") status=$st oom=${oom:-0}"
	rmdir $CG 2>/dev/null
	return 0
}

main() {
	local r i n cfgs rate out
	mkdir -p "$OUT"
	: > "$OUT/bench.log"
	setup_system
	record_env
	log "configs: $CONFIGS; rounds: $ROUNDS; workload: $PROGRAM $WL_ARGS; via: $VIA"

	# size the fixed work so an unpressured run's access phase is ~TARGET_S
	rmdir $CG 2>/dev/null; mkdir $CG
	mkdir -p "$OUT/runs/calibration"
	out=$( (echo $BASHPID > $CG/cgroup.procs && workload_run "$OUT/runs/calibration" duration "$CAL_S") ) ||
		die "calibration run failed"
	rmdir $CG
	log "calibration run: $out"
	rate=$(echo "$out" | sed -n 's/.*rate_per_s=\([0-9]*\).*/\1/p')
	[ -n "$rate" ] && [ "$rate" -gt 0 ] || die "calibration: no access rate in: $out"
	ACCESSES=$((rate * TARGET_S))
	log "calibration: $rate accesses/s -> $ACCESSES accesses"

	# warm-up run (not measured): the peak charge the pressure is based on
	PEAK=$((1 << 40))
	run_one warmup 0 > /dev/null || die "warm-up failed"
	PEAK=$(awk '$1 == "config=warmup" { for (i = 1; i <= NF; i++) if ($i ~ /^cg_peak=/) { sub("cg_peak=", "", $i); print $i } }' "$OUT/results.txt")
	if [ -z "$PEAK" ] || [ "$PEAK" = 0 ]; then	# no memory.peak: VmHWM + slack
		PEAK=$(( $(sed -n 's/.*maxrss_kb=\([0-9]*\).*/\1/p' "$OUT/runs/warmup-0/workload.out") * 1024 + (4 << 20) ))
	fi
	LO=$((PEAK * 75 / 100)) HI=$((PEAK * 2))
	sed -i '/^config=warmup /d' "$OUT/results.txt"
	{
		echo "program=$PROGRAM"
		# the workload's whole command line (analyze.sh replays hotcold's)
		if [ "$PROGRAM" = fio ]; then
			echo "workload=$WL_ARGS --io_size=$((ACCESSES * 4096))"
		else
			echo "workload=$WL_ARGS --accesses $ACCESSES"
		fi
		echo "peak_bytes=$PEAK limit_lo=$LO limit_hi=$HI"
		echo "rate_per_s=$rate target_s=$TARGET_S rounds=$ROUNDS"
	} > "$OUT/params.txt"
	log "peak charge $PEAK bytes: limits $LO / $HI"

	read -ra cfgs <<< "$CONFIGS"
	n=${#cfgs[@]}
	for r in $(seq "$ROUNDS"); do
		# rotate the order each round so no configuration always runs
		# first (or right after the same neighbour)
		for i in $(seq 0 $((n - 1))); do
			run_one "${cfgs[$(( (i + r - 1) % n ))]}" "$r"
		done
	done
	echo "loadavg_end=$(cat /proc/loadavg)" >> "$OUT/env.txt"
	log "done: $OUT/results.txt"
}

main
