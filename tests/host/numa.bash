# Fake trees of a two-node machine for the host tests of issue 44 (loaded
# by numa_ram.bats and tier.bats): QEMU's q35 with 4 GiB (make run
# NUMA=1), 2 GiB below the 32-bit hole and 2 GiB above it; node 0 the CPUs
# and 3 GiB (the low range and the first GiB above the hole), node 1 the
# last GiB and no CPU.  Memory blocks of 128 MiB, as x86 has them.

# /proc/iomem as that guest shows it (nested lines are not top level)
make_iomem() {
	mkdir -p "$ROOT/proc"
	cat > "$ROOT/proc/iomem" <<-'EOF2'
	00000000-00000fff : Reserved
	00001000-0009fbff : System RAM
	0009fc00-0009ffff : Reserved
	000a0000-000bffff : PCI Bus 0000:00
	000f0000-000fffff : Reserved
	00100000-7ffd9fff : System RAM
	  01000000-01ffffff : Kernel code
	7ffda000-7fffffff : Reserved
	80000000-afffffff : PCI Bus 0000:00
	b0000000-bfffffff : PCI ECAM 0000 [bus 00-ff]
	100000000-17fffffff : System RAM
	180000000-97fffffff : PCI Bus 0000:00
	EOF2
}

# node N FIRST LAST: memory blocks FIRST..LAST of node N, as sysfs has them
# (symlinks to /sys/devices/system/memory/memoryM), beside the files a
# node directory also has (memory_failure, meminfo, ...)
node_blocks() {
	local n=$ROOT/sys/devices/system/node/node$1 m=$ROOT/sys/devices/system/memory b

	mkdir -p "$n/memory_failure" "$m"
	# meminfo as Linux writes it; node 0 has the CPUs
	[ -e "$n/meminfo" ] || printf 'Node %s MemTotal:       %s kB\nNode %s MemFree:        %s kB\nNode %s MemUsed:        %s kB\n' \
		"$1" $((1048576 * (3 - 2 * $1))) "$1" $((786432 * (3 - 2 * $1))) "$1" $((262144 * (3 - 2 * $1))) > "$n/meminfo"
	[ -e "$n/cpulist" ] || { [ "$1" = 0 ] && echo 0-1 || echo; } > "$n/cpulist"
	for ((b = $2; b <= $3; b++)); do
		mkdir -p "$m/memory$b"
		ln -sfn "../../memory/memory$b" "$n/memory$b"
	done
}

make_nodes() {
	make_iomem
	mkdir -p "$ROOT/sys/devices/system/memory"
	echo 8000000 > "$ROOT/sys/devices/system/memory/block_size_bytes"
	node_blocks 0 0 15
	node_blocks 0 32 39
	node_blocks 1 40 47
}

