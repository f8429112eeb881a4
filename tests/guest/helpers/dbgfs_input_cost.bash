#!/bin/bash
# dbgfs_input_cost.bash: what the writes to one open DAMON debugfs file cost
# the kernel, for kernel patch "cap the input of an open file, and read only
# its new lines" (patch 17 of each series).  Root, in the damos guest only:
#
#   make guest-run KVER=6.12 CMD='bash /damos/tests/helpers/dbgfs_input_cost.bash'
#
# One line per case: what it writes, in how many write(2) calls on one open
# file, the result, and the wall and system seconds of the loop.  Without
# the patch, every write reads and applies all of the input so far: the
# cases with many writes cost their square.
set -u
D=/sys/kernel/debug/damon
ON=$D/monitor_on
[ -e "$D/monitor_on_DEPRECATED" ] && ON=$D/monitor_on_DEPRECATED
U32=4294967295 UL=18446744073709551615
TIMEFORMAT='%R %S'

[ -d "$D" ] || { echo "no DAMON debugfs in $(uname -r)"; exit 1; }
[ "$(cat "$ON")" = off ] || echo off > "$ON"
line() { echo "$((4096 * ($1 + 1))) $UL 0 $U32 $1 $U32 5 10 0 1000 0 0 100 0 0 0 0 0"; }
lines=()
for ((i = 0; i < 256; i++)); do lines+=("$(line "$i")"); done

# run NAME WRITES FILE SCRIPT: SCRIPT writes to fd 3, open on FILE
run() {
	local name=$1 writes=$2 file=$3 script=$4 t rc
	t=$( { time bash -c "exec 3> '$file'; $script" >/dev/null 2>"$TMP/err"; } 2>&1 )
	rc=$?
	printf '%-58s %6s writes  %-22s %s s wall, %s s sys\n' "$name" "$writes" \
		"$( [ -s "$TMP/err" ] && sed -n '$s/.*: //p' "$TMP/err" || echo ok)" \
		"${t% *}" "${t#* }"
}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
export -f line
export UL U32

echo "kernel $(uname -r)"
echo > "$D/schemes"
run "schemes: 256 lines, one write each (bash printf)" 256 "$D/schemes" \
	'for ((i = 0; i < 256; i++)); do line $i >&3 || exit 1; done'
run "schemes: 256 lines, then 20000 blank lines, one write each" 20256 "$D/schemes" \
	'for ((i = 0; i < 256; i++)); do line $i >&3 || exit 1; done
	 for ((i = 0; i < 20000; i++)); do echo >&3 || exit 1; done'
run "schemes: the same 20256 lines in one write" 1 "$D/schemes" \
	'{ for ((i = 0; i < 256; i++)); do line $i; done
	   for ((i = 0; i < 20000; i++)); do echo; done; } > /tmp/in; cat /tmp/in >&3'
echo > "$D/schemes"

echo paddr > "$D/target_ids"
run "init_regions: 2000 regions, one line per write" 2000 "$D/init_regions" \
	'for ((i = 0; i < 2000; i++)); do echo "0 $((i * 8192)) $((i * 8192 + 4096))" >&3 || exit 1; done'
run "init_regions: the same 2000 lines in one write" 1 "$D/init_regions" \
	'for ((i = 0; i < 2000; i++)); do echo "0 $((i * 8192)) $((i * 8192 + 4096))"; done > /tmp/in; cat /tmp/in >&3'

run "schemes: one write of 98304 bytes (a line, then spaces)" 1 "$D/schemes" \
	'{ line 1; head -c $((98304 - ${#UL} - 60)) /dev/zero | tr "\0" " "; } > /tmp/in
	 truncate -s 98304 /tmp/in; dd if=/tmp/in bs=1M status=none >&3'
run "schemes: one write of 98305 bytes" 1 "$D/schemes" \
	'truncate -s 98305 /tmp/in; tr "\0" " " < /tmp/in > /tmp/in2; dd if=/tmp/in2 bs=1M status=none >&3'
run "schemes: one write of 1 MiB" 1 "$D/schemes" \
	'head -c 1048576 /dev/zero | tr "\0" " " > /tmp/in; dd if=/tmp/in bs=1M status=none >&3'
echo > "$D/schemes"
echo > "$D/target_ids"
