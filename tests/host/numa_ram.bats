#!/usr/bin/env bats
# Issue 44: paddr monitors all of RAM by default, and one NUMA node's memory
# with "node N", on fake trees of a two-node machine: QEMU's q35 with
# 4 GiB (make run NUMA=1 DAMOS_GUEST_MEM=4G), 2 GiB below the 32-bit hole
# and 2 GiB above it;
# node 0 the CPUs and 3 GiB (the low range and the first GiB above the
# hole), node 1 the last GiB.  Memory blocks of 128 MiB, as x86 has them.

load helper

load numa

C() { echo "$ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/$1"; }

# the regions of the sysfs context, "start end" a line
sysfs_regions() {
	local r=$(C targets/0/regions) i

	for ((i = 0; i < $(cat "$r/nr_regions"); i++)); do
		echo "$(cat "$r/$i/start") $(cat "$r/$i/end")"
	done
}

@test "target set paddr monitors every System RAM range, a region each, and says so (sysfs)" {
	make_sysfs off 0
	make_nodes
	run damoctl target set paddr
	assert_success
	assert_output "damoctl: target set: paddr: no region given: every System RAM range of /proc/iomem, region 0x1000 0x9fc00 region 0x100000 0x7ffda000 region 0x100000000 0x180000000 (4193763K)"
	run sysfs_regions
	assert_output "$(printf '%s\n' '4096 654336' '1048576 2147328000' '4294967296 6442450944')"
	run damoctl target show
	assert_output "paddr region 0x1000 0x9fc00 region 0x100000 0x7ffda000 region 0x100000000 0x180000000"
}

@test "target set paddr monitors every System RAM range on dbgfs too" {
	make_dbgfs
	make_nodes
	run damoctl target set paddr
	assert_success
	assert_output --partial "region 0x1000 0x9fc00 region 0x100000 0x7ffda000 region 0x100000000 0x180000000"
	run cat "$ROOT/sys/kernel/debug/damon/init_regions"
	assert_output "$(printf '%s\n' '0 4096 654336' '0 1048576 2147328000' '0 4294967296 6442450944')"
}

@test "target set paddr node 0: its blocks on both sides of the hole, cut to System RAM" {
	make_sysfs off 0
	make_nodes
	run damoctl target set paddr node 0
	assert_success
	assert_output "damoctl: target set: paddr: node 0, region 0x1000 0x9fc00 region 0x100000 0x7ffda000 region 0x100000000 0x140000000 (3145187K)"
	run sysfs_regions
	assert_output "$(printf '%s\n' '4096 654336' '1048576 2147328000' '4294967296 5368709120')"
}

@test "target set paddr node 1: exactly its blocks (sysfs and dbgfs)" {
	make_sysfs off 0
	make_nodes
	run damoctl target set paddr node 1
	assert_success
	assert_output "damoctl: target set: paddr: node 1, region 0x140000000 0x180000000 (1G)"
	run sysfs_regions
	assert_output "5368709120 6442450944"
	rm -rf "$ROOT/sys/kernel/mm"
	make_dbgfs
	run damoctl target set paddr node 1
	assert_success
	[ "$(cat "$ROOT/sys/kernel/debug/damon/init_regions")" = "0 5368709120 6442450944" ]
}

@test "node blocks out of order and apart: sorted, contiguous ones merged, gaps kept" {
	# blocks 56-58, 60-61, 70-71 (listed 60 61 56 57 58 70 71)
	make_sysfs off 0
	make_nodes
	node_blocks 2 60 61
	node_blocks 2 56 57
	node_blocks 2 58 58
	node_blocks 2 70 71
	printf '100000000-3ffffffff : System RAM\n' >> "$ROOT/proc/iomem"
	run damoctl target set paddr node 2
	assert_success
	assert_output "damoctl: target set: paddr: node 2, region 0x1c0000000 0x1d8000000 region 0x1e0000000 0x1f0000000 region 0x230000000 0x240000000 (896M)"
}

@test "a node that is not there, a word that is not a node, node on vaddr: errors that name the value; nothing written" {
	make_sysfs off 0
	make_nodes
	before=$(tree_sum)
	run damoctl target set paddr node 7
	assert_failure 1
	assert_output "damoctl: target set: node 7: no such NUMA node (no $ROOT/sys/devices/system/node/node7)"
	run damoctl target set paddr node one
	assert_failure 2
	assert_output "damoctl: target set: node: 'one' is not a node id (0, 1, ...)"
	run damoctl target set paddr node -1
	assert_failure 2
	assert_output --partial "'-1' is not a node id"
	run damoctl target set paddr node
	assert_failure 2
	assert_output "damoctl: target set: node: expected N"
	run damoctl target set paddr node 0 node 1
	assert_failure 2
	assert_output "damoctl: target set: node given twice"
	run damoctl target set paddr node 1 region 4G 5G
	assert_failure 2
	assert_output "damoctl: target set: node 1 and region: give one or the other"
	run damoctl target set vaddr pid 1 node 0
	assert_failure 2
	assert_output "damoctl: target set: node: only paddr monitors a node's memory"
	[ "$(tree_sum)" = "$before" ]
}

@test "a node without memory blocks: what is missing is named (no CONFIG_MEMORY_HOTPLUG, a memoryless node)" {
	make_sysfs off 0
	make_iomem
	mkdir -p "$ROOT/sys/devices/system/node/node0"
	run damoctl target set paddr node 0
	assert_failure 1
	assert_output --partial "node 0: $ROOT/sys/devices/system/node/node0 lists no memory blocks, there is no /sys/devices/system/memory (a kernel without CONFIG_MEMORY_HOTPLUG), and /proc/zoneinfo spans no zone of it"
	make_nodes
	mkdir -p "$ROOT/sys/devices/system/node/node3"
	run damoctl target set paddr node 3
	assert_failure 1
	assert_output "damoctl: target set: node 3 has no memory (no memoryN block in $ROOT/sys/devices/system/node/node3)"
	echo zz > "$ROOT/sys/devices/system/memory/block_size_bytes"
	run damoctl target set paddr node 1
	assert_failure 1
	assert_output "damoctl: target set: $ROOT/sys/devices/system/memory/block_size_bytes: 'zz' is not a block size (hex, a power of two)"
}

@test "dry run of target set paddr node 1 prints the writes and makes none" {
	make_sysfs off 0
	make_nodes
	before=$(tree_sum)
	run damoctl --dry-run target set paddr node 1
	assert_success
	assert_output --partial "5368709120"
	assert_output --partial "6442450944"
	[ "$(tree_sum)" = "$before" ]
}

@test "monitor start and apply of a paddr target without a region take every System RAM range" {
	make_sysfs off 0
	make_nodes
	echo 0 > "$(C targets/0/regions/nr_regions)"
	rm -rf "$(C targets/0/regions/0)"
	run damoctl monitor start
	assert_success
	assert_output --partial "every System RAM range of /proc/iomem, region 0x1000 0x9fc00 region 0x100000 0x7ffda000 region 0x100000000 0x180000000"
	[ "$(cat "$(C targets/0/regions/nr_regions)")" = 3 ]
	[ "$(cat "$(C targets/0/regions/2/end)")" = 6442450944 ]
	run damoctl monitor stop
	printf 'target paddr\n' > "$BATS_TEST_TMPDIR/p.conf"
	run damoctl target set paddr region 4G 5G
	run damoctl apply "$BATS_TEST_TMPDIR/p.conf"
	assert_success
	assert_output --partial "region 0x100000000 0x180000000"
	[ "$(cat "$(C targets/0/regions/nr_regions)")" = 3 ]
}

@test "target set completes node after paddr only; its help names node N" {
	run "$DAMOCTL" help target
	assert_output --partial "paddr [node N | region START END...]"
	assert_output --partial "node N"
}

@test "without memory blocks (no CONFIG_MEMORY_HOTPLUG), node N is its zones' spans in /proc/zoneinfo, cut to System RAM" {
	make_sysfs off 0
	make_iomem
	mkdir -p "$ROOT/sys/devices/system/node/node0" "$ROOT/sys/devices/system/node/node1"
	# the patched guest kernel's zoneinfo on make run NUMA=1 (abridged):
	# node 0 DMA, DMA32 and 1 GiB of Normal, node 1 the last GiB, and
	# an empty Movable zone
	cat > "$ROOT/proc/zoneinfo" <<-'EOF2'
	Node 0, zone      DMA
	  pages free     3840
	        spanned  4095
	        present  3998
	  start_pfn:           1
	Node 0, zone    DMA32
	  pages free     500000
	        spanned  1044480
	        present  520154
	  start_pfn:           4096
	Node 0, zone   Normal
	  pages free     200000
	        spanned  262144
	        present  262144
	  start_pfn:           1048576
	Node 0, zone  Movable
	  pages free     0
	        spanned  0
	        present  0
	  start_pfn:           0
	Node 1, zone   Normal
	  pages free     262144
	        spanned  262144
	        present  262144
	  start_pfn:           1310720
	EOF2
	run damoctl target set paddr node 1
	assert_success
	[ "$(sysfs_regions)" = "$((0x140000000)) $((0x180000000))" ]
	run damoctl target set paddr node 0
	assert_success
	[ "$(sysfs_regions)" = "$(printf '%s\n' "$((0x1000)) $((0x9fc00))" "$((0x100000)) $((0x7ffda000))" "$((0x100000000)) $((0x140000000))")" ]
}
