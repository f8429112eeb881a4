// SPDX-License-Identifier: GPL-2.0
/*
 * numaplace: a buffer first placed on one NUMA node, and where its pages
 * are now.
 *
 *   numaplace NODE MB [hot]
 *
 * Maps MB MiB of anonymous memory (no huge pages: a page each), binds the
 * process to NODE (set_mempolicy(MPOL_BIND)) while it writes every page,
 * then gives the policy back (MPOL_DEFAULT: nothing pins the pages
 * there, so whatever moves them may).  Then prints where the pages are,
 * "ready", and sleeps; at each SIGUSR1 it prints where they are again.
 * A line: "pages N node0 N node1 N ... other N" (other: not present, or
 * an error), from move_pages(2) in query mode (no target nodes: it moves
 * nothing).  The buffer is never touched after the first write: cold; with
 * "hot" it is written again, a byte a page, every 20 ms.
 * Syscalls by number: the guest has no libnuma, and a static binary
 * cannot take it from the host.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MPOL_DEFAULT 0
#define MPOL_BIND 2
#define MAX_NODES 64

static volatile sig_atomic_t want;

static void on_usr1(int sig)
{
	(void)sig;
	want = 1;
}

static void count(void **pages, int *status, long n)
{
	long nodes[MAX_NODES] = { 0 }, other = 0;
	int top = 1;

	/* in chunks: the kernel takes at most what it copies at once */
	for (long i = 0; i < n; i += 16384) {
		long k = n - i < 16384 ? n - i : 16384;

		if (syscall(SYS_move_pages, 0, k, pages + i, NULL, status + i, 0)) {
			fprintf(stderr, "numaplace: move_pages: %s\n", strerror(errno));
			exit(1);
		}
	}
	for (long i = 0; i < n; i++) {
		if (status[i] >= 0 && status[i] < MAX_NODES) {
			nodes[status[i]]++;
			if (status[i] + 1 > top)
				top = status[i] + 1;
		} else {
			other++;
		}
	}
	printf("pages %ld", n);
	for (int i = 0; i < top; i++)
		printf(" node%d %ld", i, nodes[i]);
	printf(" other %ld\n", other);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	unsigned long mask[MAX_NODES / (8 * sizeof(unsigned long)) + 1] = { 0 };
	long page = sysconf(_SC_PAGESIZE), n, node, mb;
	int *status;
	void **pages;
	char *buf;

	if (argc < 3 || argc > 4 || (argc == 4 && strcmp(argv[3], "hot")) ||
	    (node = atol(argv[1])) < 0 || node >= MAX_NODES ||
	    (mb = atol(argv[2])) <= 0) {
		fprintf(stderr, "usage: numaplace NODE MB [hot]\n");
		return 2;
	}
	n = mb * (1L << 20) / page;
	buf = mmap(NULL, n * page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	pages = calloc(n, sizeof(*pages));
	status = calloc(n, sizeof(*status));
	if (buf == MAP_FAILED || !pages || !status) {
		perror("numaplace: allocation");
		return 1;
	}
	madvise(buf, n * page, MADV_NOHUGEPAGE);
	mask[node / (8 * sizeof(unsigned long))] |= 1UL << (node % (8 * sizeof(unsigned long)));
	if (syscall(SYS_set_mempolicy, MPOL_BIND, mask, MAX_NODES + 1)) {
		fprintf(stderr, "numaplace: set_mempolicy(MPOL_BIND, node %ld): %s\n",
			node, strerror(errno));
		return 1;
	}
	for (long i = 0; i < n; i++) {
		buf[i * page] = (char)i;
		pages[i] = buf + i * page;
	}
	if (syscall(SYS_set_mempolicy, MPOL_DEFAULT, NULL, 0)) {
		fprintf(stderr, "numaplace: set_mempolicy(MPOL_DEFAULT): %s\n",
			strerror(errno));
		return 1;
	}
	signal(SIGUSR1, on_usr1);
	count(pages, status, n);
	printf("ready\n");
	fflush(stdout);
	for (;;) {
		sigset_t none, usr1;

		sigemptyset(&none);
		sigemptyset(&usr1);
		sigaddset(&usr1, SIGUSR1);
		/* hot: every page written again until asked where they are */
		while (argc == 4 && !want) {
			for (long i = 0; i < n && !want; i++)
				buf[i * page]++;
			usleep(20000);
		}
		sigprocmask(SIG_BLOCK, &usr1, NULL);
		while (!want)
			sigsuspend(&none);
		want = 0;
		sigprocmask(SIG_UNBLOCK, &usr1, NULL);
		count(pages, status, n);
	}
}
