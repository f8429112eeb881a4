#!/usr/bin/env bats
# Issue 44: a machine with real topology (make check-guest NUMA=1: q35,
# 4 GiB, two System RAM ranges, node 1 a CPU-less memory tier with HMAT
# latencies).  What damoctl's paddr covers is compared with what the
# firmware said (ACPI SRAT in the boot log) and /proc/iomem, not with
# damoctl's own reading; what a migrate_cold scheme did is proven by where
# the pages are (move_pages(2) in query mode), not by a counter.
# On a one-node machine every test skips and says so.

load helpers/common

setup() {
	need_two_nodes
	runs_on_debian_612 numa
	damon_off
	log_mark
}

teardown() {
	[ -z "${PLACE_PID:-}" ] || { kill "$PLACE_PID" 2>/dev/null; wait "$PLACE_PID" 2>/dev/null; }
	damon_off
	assert_kernel_log_clean
}

need_two_nodes() {
	local rel
	if ! kconfig NUMA; then
		krel rel
		skip "kernel lacks: NUMA (CONFIG_NUMA is not set in $rel)"
	fi
	[ -d /sys/devices/system/node/node0 ] || fail "CONFIG_NUMA is set but /sys/devices/system/node/node0 is not there"
	[ -d /sys/devices/system/node/node1 ] ||
		skip "kernel has: one NUMA node on this machine (the two-node one is make check-guest NUMA=1)"
}

# The top-level System RAM ranges of /proc/iomem, "0xSTART 0xEND" a line
# (end exclusive), in the file's order.
iomem_ram() {
	grep -E '^[0-9a-f]+-[0-9a-f]+ : System RAM$' /proc/iomem |
		while IFS='- ' read -r s e _; do
			printf '0x%x 0x%x\n' "$((16#$s))" "$((16#$e + 1))"
		done
}

# node_ram N: node N's memory as the firmware gave it (the SRAT lines of
# the boot log: "ACPI: SRAT: Node N PXM P [mem 0xS-0xE]"), cut to the
# System RAM ranges, merged where they touch: "0xSTART 0xEND" a line.
node_ram() {
	local srat ram
	srat=$(sed -nE "s/.*ACPI: SRAT: Node $1 PXM [0-9]+ \[mem (0x[0-9a-f]+)-(0x[0-9a-f]+)\].*/\1 \2/p" "$DAMOS_BOOT_DMESG")
	[ -n "$srat" ] || return 1
	ram=$(iomem_ram)
	while read -r s e; do
		e=$((e + 1))
		while read -r rs re; do
			local a=$((rs > s ? rs : s)) b=$((re < e ? re : e))
			[ $a -lt $b ] && echo "$a $b"
		done <<<"$ram"
	done <<<"$srat" | sort -n | {
		# merged where they touch; printed by bash (mawk's %x stops at 32 bits)
		local s= e= a b
		while read -r a b; do
			if [ -n "$e" ] && [ "$a" = "$e" ]; then
				e=$b
				continue
			fi
			[ -z "$e" ] || printf '0x%x 0x%x\n' "$s" "$e"
			s=$a e=$b
		done
		[ -z "$e" ] || printf '0x%x 0x%x\n' "$s" "$e"
	}
}

# in_list N LIST: N is in a kernel list such as "0", "0-1" or "0,2-3"
in_list() {
	local r
	for r in ${2//,/ }; do
		[ "$1" -ge "${r%-*}" ] && [ "$1" -le "${r#*-}" ] && return 0
	done
	return 1
}

# "paddr region A B region C D" of "A B" lines
as_target() { awk 'BEGIN { printf "paddr" } { printf " region %s %s", $1, $2 } END { print "" }'; }

@test "numa: the machine has two System RAM ranges, below and above the 32-bit hole, and node 1 has memory and no CPU" {
	run iomem_ram
	echo "# System RAM: $(echo $output)" >&3
	[ "${#lines[@]}" -ge 2 ] || fail "one System RAM range: $output"
	[ $((${lines[-1]%% *})) -ge $((1 << 32)) ] || fail "no System RAM above 4 GiB: $output"
	[ -z "$(cat /sys/devices/system/node/node1/cpulist)" ] || fail "node 1 has CPUs: $(cat /sys/devices/system/node/node1/cpulist)"
	run node_ram 1
	assert_success
	[ -n "$output" ] || fail "the boot log's SRAT gives node 1 no System RAM"
}

@test "numa: HMAT ranks the CPU-less node 1 in a lower memory tier than node 0 (Linux 6.10+)" {
	kconfig ACPI_HMAT || { krel rel; skip "kernel lacks: ACPI_HMAT (CONFIG_ACPI_HMAT is not set in $rel)"; }
	kernel_at_least 6.10 || { krel rel; skip "kernel lacks: memory tiers of CPU-less nodes from HMAT (Linux 6.10; this is $rel)"; }
	local t n t0= t1=
	for t in /sys/devices/virtual/memory_tiering/memory_tier*; do
		n=$(cat "$t/nodelist")
		in_list 0 "$n" && t0=${t##*memory_tier}
		in_list 1 "$n" && t1=${t##*memory_tier}
	done
	echo "# memory tiers: node 0 in tier ${t0:-?}, node 1 in tier ${t1:-?}" >&3
	[ -n "$t0" ] && [ -n "$t1" ] || fail "no memory tier lists node 0 and node 1: $(grep -H . /sys/devices/virtual/memory_tiering/memory_tier*/nodelist)"
	[ "$t1" -gt "$t0" ] || fail "node 1 is not in a lower tier: node 0 tier $t0, node 1 tier $t1"
}

@test "numa: target set paddr covers every System RAM range, both sides of the hole (sysfs)" {
	need sysfs paddr
	local want
	want=$(iomem_ram | as_target)
	run "$DAMOCTL" target set paddr
	assert_success
	assert_output --partial "every System RAM range of /proc/iomem"
	run "$DAMOCTL" target show
	assert_output "$want"
	echo "# target set paddr: $output" >&3
}

# node_target_or_skip N: target set paddr node N, which must work, or,
# where the kernel has no memory blocks in sysfs (CONFIG_MEMORY_HOTPLUG
# unset: the patched kernels) and damoctl has nothing else to read, fail
# saying so: then the test skips
node_target_or_skip() {
	local rel
	run "$DAMOCTL" target set paddr node "$1"
	[ "$status" = 0 ] && return 0
	if ! kconfig MEMORY_HOTPLUG; then
		assert_failure 1
		assert_output --partial "CONFIG_MEMORY_HOTPLUG"
		krel rel
		skip "kernel lacks: memory blocks in sysfs (CONFIG_MEMORY_HOTPLUG is not set in $rel), and damoctl reads no other source: target set paddr node N refused"
	fi
	assert_success
}

@test "numa: target set paddr node 1 covers node 1 exactly, node 0 the rest (sysfs)" {
	need sysfs paddr
	local want n
	for n in 1 0; do
		want=$(node_ram $n | as_target) || fail "no SRAT line for node $n in the boot log"
		node_target_or_skip $n
		assert_output --partial "paddr: node $n, region"
		run "$DAMOCTL" target show
		assert_output "$want"
		echo "# node $n: $output" >&3
	done
}

# place_last: the helper's last line, "pages N node0 N node1 N ... other N"
place_last() { grep '^pages ' "$BATS_TEST_TMPDIR/place.out" | tail -n 1; }
# count_of NODE LINE
count_of() { awk -v k="node$1" '{ for (i = 1; i < NF; i++) if ($i == k) { print $(i + 1); exit } } END { }' <<<"$2"; }

place_query() {	# a fresh line from the helper
	local n
	n=$(grep -c '^pages ' "$BATS_TEST_TMPDIR/place.out")
	kill -USR1 "$PLACE_PID"
	wait_for 60 place_more "$n" || fail "numaplace did not answer in 60 s"
}
place_more() { [ "$(grep -c '^pages ' "$BATS_TEST_TMPDIR/place.out")" -gt "$1" ]; }

@test "numa: a migrate_cold scheme (nid 1) on node 0 moves >= 70% of a cold 256 MiB buffer to node 1, proven by move_pages" {
	need sysfs paddr
	kconfig MIGRATION || { krel rel; skip "kernel lacks: MIGRATION (CONFIG_MIGRATION is not set in $rel)"; }
	kernel_at_least 6.11 || { krel rel; skip "kernel lacks: migrate_cold (Linux 6.11; this is $rel)"; }
	local before after b0 b1 a1 total t0 t bound=240 target
	"$HELPERS/numaplace" 0 256 > "$BATS_TEST_TMPDIR/place.out" 2>&1 &
	PLACE_PID=$!
	wait_for 120 grep -q '^ready' "$BATS_TEST_TMPDIR/place.out" || fail "numaplace not ready: $(cat "$BATS_TEST_TMPDIR/place.out")"
	before=$(place_last)
	total=$(awk '{ print $2 }' <<<"$before")
	b0=$(count_of 0 "$before") b1=$(count_of 1 "$before")
	echo "# before: $before" >&3
	[ $((b0 * 100)) -ge $((total * 95)) ] || fail "the buffer is not on node 0 to begin with: $before"
	run "$DAMOCTL" attrs set sample 5ms aggr 100ms update 1s regions 10 1000
	assert_success
	# node 0's memory: damoctl's node 0, or where it has nothing to read
	# (no memory blocks: the test above says so), the firmware's SRAT
	run "$DAMOCTL" target set paddr node 0
	if [ "$status" != 0 ]; then
		read -ra target <<<"$(node_ram 0 | as_target | cut -d' ' -f2-)"
		run "$DAMOCTL" target set paddr "${target[@]}"
	fi
	assert_success
	run "$DAMOCTL" target show
	echo "# target: $output" >&3
	run "$DAMOCTL" scheme add migrate_cold access 0 0 age 2s max nid 1
	assert_success
	t0=$SECONDS
	run "$DAMOCTL" monitor start
	assert_success
	while :; do
		sleep 5
		place_query
		after=$(place_last)
		a1=$(count_of 1 "$after")
		t=$((SECONDS - t0))
		[ $((a1 * 100)) -ge $((total * 70)) ] && break
		[ $t -lt $bound ] || break
	done
	echo "# after $t s (bound $bound s): $after" >&3
	run "$DAMOCTL" --json stats show
	echo "# stats: $output" >&3
	run "$DAMOCTL" monitor stop
	assert_success
	[ $((a1 * 100)) -ge $((total * 70)) ] ||
		fail "$a1 of $total pages on node 1 after $t s (before: $b1): under 70%"
}
