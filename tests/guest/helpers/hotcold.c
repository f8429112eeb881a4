// SPDX-License-Identifier: GPL-2.0
/*
 * hotcold: a workload with hot and cold memory for DAMON to find.
 *
 *   hotcold [-h HOT_MB] [-c COLD_MB | -f FREE_PERMIL] [-t SECONDS] [-n]
 *
 * The cold part is written once and never touched again; the hot part is
 * written page by page in a loop, pass after pass: a sleep between passes
 * would last a whole tick on the guest's HZ=250 kernel without high
 * resolution timers, and leave the hot pages idle in many of DAMON's 5 ms
 * samples. -f sizes the cold part so that free memory
 * drops to FREE_PERMIL of the total (memory pressure for damon_lru_sort's
 * free_mem_rate watermarks). "ready" goes to stdout once both are populated,
 * then every 5 s the mean time of a pass over the hot part: a page counts as
 * accessed in a DAMON sample only if a pass reaches it within the sampling
 * interval, so a pass much longer than that (a slow or loaded host under
 * TCG) makes the hot part look lukewarm.  -n leaves out the TLB flush after
 * each pass (below), to compare.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static long meminfo_kb(const char *key)
{
	char line[256];
	long val = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		size_t n = strlen(key);

		if (!strncmp(line, key, n) && line[n] == ':') {
			val = strtol(line + n + 1, NULL, 10);
			break;
		}
	}
	fclose(f);
	return val;
}

/*
 * A mapping of sz bytes, written once, with pad bytes of the same mapping
 * on either side that are never touched (no memory).  DAMON's vaddr
 * regions end at its own random split points, not at mappings, so a hot
 * region can reach past the end of the hot part; where a gap between
 * mappings was there (hot's end was: the flush pages are mapped apart),
 * an madvise() action over it (willneed, pageout, cold) fails with ENOMEM
 * and DAMON counts the region tried, not applied.  A guest run showed a
 * willneed scheme's hot region 0x7fd0b696630a-0x7fd0b8a2919c go 164 KiB
 * past the hot part into such a gap; report.bats' metrics test once saw
 * 66 regions tried and no byte applied in 2 s.  With the pads a region must
 * also span a whole untouched pad, which DAMON keeps apart as idle, to get
 * there.
 */
#define PAD (4UL << 20)

static char *populate(size_t sz)
{
	char *p;

	if (!sz)
		return NULL;
	p = mmap(NULL, sz + 2 * PAD, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("hotcold: mmap");
		exit(1);
	}
	p += PAD;
	/* No THP: DAMON should see the hot/cold boundary at page granularity. */
	madvise(p - PAD, sz + 2 * PAD, MADV_NOHUGEPAGE);
	memset(p, 1, sz);
	return p;
}

/*
 * DAMON sees an access through the page table's accessed bit, which the CPU
 * sets when it walks the page table on a TLB miss; clearing the bit (DAMON's
 * "mkold") flushes no TLB on x86.  A real TLB holds a few thousand entries,
 * so a pass over more pages than that walks them all again.  QEMU's TCG
 * grows its software TLB to fit the working set, and then a pass hits the
 * TLB for every page: the hot part looks idle to DAMON except after an
 * incidental flush (a switch to another process), which depends on
 * whatever else the guest runs.  So after each pass, change the protection
 * of a few populated pages: flush_tlb_range() of more than 33 pages flushes
 * the whole TLB of the process, as capacity misses would on hardware.  The
 * pages are read first: an mprotect() over pages reclaim swapped out changes
 * no PTE and flushes nothing.  (tests/perf/hotcold.c does the same.)
 */
#define FLUSH_PAGES 64

static void flush_tlb(char *buf, long page)
{
	volatile char *v = buf;

	for (long k = 0; k < FLUSH_PAGES; k++)
		(void)v[k * page];
	mprotect(buf, FLUSH_PAGES * page, PROT_READ);
	mprotect(buf, FLUSH_PAGES * page, PROT_READ | PROT_WRITE);
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char *argv[])
{
	size_t hot = 64UL << 20, cold = 256UL << 20;
	long page = sysconf(_SC_PAGESIZE), free_permil = -1, secs = 3600;
	time_t end;
	double t0, last;
	unsigned long passes = 0;
	char *h, *fl, *c;
	int opt, noflush = 0;

	while ((opt = getopt(argc, argv, "h:c:f:t:n")) != -1) {
		switch (opt) {
		case 'h':
			hot = strtoul(optarg, NULL, 0) << 20;
			break;
		case 'c':
			cold = strtoul(optarg, NULL, 0) << 20;
			break;
		case 'f':
			free_permil = strtol(optarg, NULL, 0);
			break;
		case 't':
			secs = strtol(optarg, NULL, 0);
			break;
		case 'n':
			noflush = 1;
			break;
		default:
			fprintf(stderr, "usage: hotcold [-h HOT_MB] [-c COLD_MB | -f FREE_PERMIL] [-t SECONDS] [-n]\n");
			return 2;
		}
	}
	h = populate(hot);
	fl = populate(FLUSH_PAGES * page);
	if (free_permil >= 0) {
		long total = meminfo_kb("MemTotal"), avail = meminfo_kb("MemFree");
		long want = avail - total * free_permil / 1000;

		cold = want > 0 ? (size_t)want << 10 : 0;
	}
	c = populate(cold);
	/* where they are, for tests that look at what DAMON saw there */
	printf("ready hot=%zuM cold=%zuM at %p %p\n", hot >> 20, cold >> 20,
	       (void *)h, (void *)c);
	fflush(stdout);

	end = time(NULL) + secs;
	t0 = now_ms();
	while (time(NULL) < end) {
		for (size_t off = 0; off < hot; off += page)
			h[off]++;
		if (!noflush)
			flush_tlb(fl, page);
		passes++;
		last = now_ms();
		if (last - t0 >= 5000) {
			printf("pass %.2f ms (%lu passes in %.1f s)\n",
			       (last - t0) / passes, passes, (last - t0) / 1e3);
			fflush(stdout);
			t0 = last;
			passes = 0;
		}
		sched_yield();
	}
	return 0;
}
