// SPDX-License-Identifier: GPL-2.0
/*
 * tlbshake: make a program that cannot flush its own TLB miss it, under
 * QEMU's TCG, as it would on hardware.
 *
 *   tlbshake [-c CPU] [-i USEC] [-d SEC]
 *
 * Pins itself to CPU (default 0) and wakes every USEC microseconds (default
 * 2000) until SIGTERM/SIGINT or -d SEC, then prints "wakeups=N".  Each wakeup
 * switches the CPU from the program running there to this process and back:
 * two CR3 loads, and QEMU's TCG flushes its whole software TLB of that vCPU
 * on every CR3 load (the guest CPU model has no PCID).  Run the program
 * pinned to the same CPU (fio: cpus_allowed).
 *
 * Why: DAMON and the kernel's reclaim see an access through the accessed bit
 * of a page table entry, which the CPU sets only on a page walk, i.e. on a
 * TLB miss.  A hardware TLB holds a few thousand entries and misses all the
 * time over a working set of tens of MiB; TCG grows its software TLB until
 * that set fits, and the program's hot pages then look idle.  hotcold flushes
 * its own TLB (--tlb-flush); a real program like fio needs this companion.
 * See README.md, "The TLB flush".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static long number(const char *opt, const char *s, long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max) {
		fprintf(stderr, "tlbshake: %s: '%s' is not a number in %ld..%ld\n",
			opt, s, min, max);
		exit(2);
	}
	return v;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: tlbshake [-c CPU] [-i USEC] [-d SEC]\n"
		"  wake every USEC us (2000) on CPU (0), for SEC s or until SIGTERM;\n"
		"  under QEMU TCG each wakeup flushes the software TLB of that vCPU\n");
}

int main(int argc, char **argv)
{
	long cpu = 0, usec = 2000, dur = 0;
	unsigned long wakeups = 0;
	struct timespec ts, end = { 0 };
	struct sigaction sa;
	cpu_set_t set;
	int opt;

	while ((opt = getopt(argc, argv, "c:i:d:h")) != -1) {
		switch (opt) {
		case 'c':
			cpu = number("-c", optarg, 0, CPU_SETSIZE - 1);
			break;
		case 'i':
			usec = number("-i", optarg, 1, 1000000);
			break;
		case 'd':
			dur = number("-d", optarg, 0, INT_MAX);
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "tlbshake: unexpected argument '%s'\n", argv[optind]);
		usage(stderr);
		return 2;
	}

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "tlbshake: cannot pin to CPU %ld: %s\n", cpu, strerror(errno));
		return 1;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);

	if (dur) {
		clock_gettime(CLOCK_MONOTONIC, &end);
		end.tv_sec += dur;
	}
	ts.tv_sec = usec / 1000000;
	ts.tv_nsec = usec % 1000000 * 1000;
	while (!stop) {
		if (nanosleep(&ts, NULL) && errno != EINTR)
			break;
		wakeups++;
		if (dur) {
			struct timespec now;

			clock_gettime(CLOCK_MONOTONIC, &now);
			if (now.tv_sec > end.tv_sec ||
			    (now.tv_sec == end.tv_sec && now.tv_nsec >= end.tv_nsec))
				break;
		}
	}
	printf("wakeups=%lu\n", wakeups);
	return 0;
}
