// SPDX-License-Identifier: GPL-2.0
/*
 * hotcold: a workload with hot and cold memory for DAMON to find.
 *
 *   hotcold [-h HOT_MB] [-c COLD_MB | -f FREE_PERMIL] [-t SECONDS]
 *
 * The cold part is written once and never touched again; the hot part is
 * written page by page in a loop, pass after pass: a sleep between passes
 * would last a whole tick on the guest's HZ=250 kernel without high
 * resolution timers, and leave the hot pages idle in many of DAMON's 5 ms
 * samples. -f sizes the cold part so that free memory
 * drops to FREE_PERMIL of the total (memory pressure for damon_lru_sort's
 * free_mem_rate watermarks). "ready" goes to stdout once both are populated.
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

static char *populate(size_t sz)
{
	char *p;

	if (!sz)
		return NULL;
	p = mmap(NULL, sz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0);
	if (p == MAP_FAILED) {
		perror("hotcold: mmap");
		exit(1);
	}
	/* No THP: DAMON should see the hot/cold boundary at page granularity. */
	madvise(p, sz, MADV_NOHUGEPAGE);
	memset(p, 1, sz);
	return p;
}

int main(int argc, char *argv[])
{
	size_t hot = 64UL << 20, cold = 256UL << 20;
	long page = sysconf(_SC_PAGESIZE), free_permil = -1, secs = 3600;
	time_t end;
	char *h;
	int opt;

	while ((opt = getopt(argc, argv, "h:c:f:t:")) != -1) {
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
		default:
			fprintf(stderr, "usage: hotcold [-h HOT_MB] [-c COLD_MB | -f FREE_PERMIL] [-t SECONDS]\n");
			return 2;
		}
	}
	h = populate(hot);
	if (free_permil >= 0) {
		long total = meminfo_kb("MemTotal"), avail = meminfo_kb("MemFree");
		long want = avail - total * free_permil / 1000;

		cold = want > 0 ? (size_t)want << 10 : 0;
	}
	populate(cold);
	printf("ready hot=%zuM cold=%zuM\n", hot >> 20, cold >> 20);
	fflush(stdout);

	end = time(NULL) + secs;
	while (time(NULL) < end) {
		for (size_t off = 0; off < hot; off += page)
			h[off]++;
		sched_yield();
	}
	return 0;
}
