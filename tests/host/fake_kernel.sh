# The kernel's side of a write to a fake sysfs tree, for a dry-run script
# run by dash or bash on a copy of the tree (tests/host/dry_layer.bats):
# kernel_run SCRIPT runs SCRIPT's lines with this shell, and after each
# write to a sysfs nr_* file or to a kdamond's state does what Linux 6.1's
# mm/damon/sysfs.c does there (and what libdamos does on a fake tree):
# a nr_* write makes every numbered directory anew with the default files,
# a state command other than on/off leaves the state as it was.  POSIX sh.

# The default files of a new numbered directory, by the nr_* file.
kernel_files() {
	case $1 in
	nr_kdamonds) echo "state=off pid=-1 contexts/nr_contexts=0" ;;
	nr_contexts) echo "avail_operations=vaddr,fvaddr,paddr operations=vaddr
		monitoring_attrs/intervals/sample_us=5000
		monitoring_attrs/intervals/aggr_us=100000
		monitoring_attrs/intervals/update_us=60000000
		monitoring_attrs/nr_regions/min=10 monitoring_attrs/nr_regions/max=1000
		targets/nr_targets=0 schemes/nr_schemes=0" ;;
	nr_targets) echo "pid_target=0 regions/nr_regions=0" ;;
	nr_regions) echo "start=0 end=0" ;;
	nr_schemes) echo "action=stat
		access_pattern/sz/min=0 access_pattern/sz/max=0
		access_pattern/nr_accesses/min=0 access_pattern/nr_accesses/max=0
		access_pattern/age/min=0 access_pattern/age/max=0
		quotas/ms=0 quotas/bytes=0 quotas/reset_interval_ms=0
		quotas/weights/sz_permil=0 quotas/weights/nr_accesses_permil=0
		quotas/weights/age_permil=0
		watermarks/metric=none watermarks/interval_us=0
		watermarks/high=0 watermarks/mid=0 watermarks/low=0
		stats/nr_tried=0 stats/sz_tried=0 stats/nr_applied=0
		stats/sz_applied=0 stats/qt_exceeds=0" ;;
	esac
}

kernel_nr() {	# FILE: a write to FILE (a nr_* file) was made
	_dir=${1%/*}
	_files=$(kernel_files "${1##*/}")
	[ -n "$_files" ] || return 0
	_n=$(cat "$1")
	_i=0
	while [ -d "$_dir/$_i" ]; do
		rm -rf "${_dir:?}/$_i"
		_i=$((_i + 1))
	done
	_i=0
	while [ "$_i" -lt "$_n" ]; do
		for _kv in $_files; do
			_p=$_dir/$_i/${_kv%%=*}
			mkdir -p "${_p%/*}"
			printf '%s\n' "${_kv#*=}" | tr , '\n' > "$_p"
		done
		_i=$((_i + 1))
	done
}

kernel_state() {	# FILE OLD: a write to a kdamond's state, OLD before it
	case $(cat "$1") in
	on | off) ;;
	*) printf '%s\n' "$2" > "$1" ;;
	esac
}

# The script with a kernel_nr or kernel_state call after each write of one
# line to a nr_* file or a state file (sysfs writes are all one line).
kernel_script() {	# SCRIPT
	sed -e 's|^\(echo .* > \(.*/nr_[a-z]*\)\)$|\1; kernel_nr \2|' \
	    -e 's|^\(echo .* > \(.*/kdamonds/[0-9]*/state\)\)$|_old=$(cat \2); \1; kernel_state \2 "$_old"|' \
	    "$1"
}

kernel_run() {	# SCRIPT
	kernel_script "$1" > "$1.kernel"
	. "$1.kernel"
}
