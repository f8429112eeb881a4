// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * snapbench ROOT N DAMOCTL: what an access snapshot costs, on the fake tree
 * ROOT that tests/perf/snapshot_bench.sh makes (a 6.12 sysfs tree whose
 * stat scheme lists the tried regions).  Prints the wall time of N
 * damon_access_snapshot() calls (min, median, max) and this process's peak
 * memory, then the wall time and peak memory of damoctl report access and
 * report heatmap on the same tree (each a child: wait4()'s rusage).
 * A benchmark prints figures; it passes or fails nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "damos-private.h"

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static long maxrss_kib(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}

/* damoctl --root ROOT ARGS... > /dev/null: wall ms and its peak KiB */
static int child(const char *damoctl, const char *root, char *const *args,
		 double *ms, long *kib)
{
	char *argv[16] = { (char *)damoctl, "--root", (char *)root };
	struct rusage ru;
	double t0 = now_ms();
	int n = 3, st;
	pid_t pid;

	while (*args && n < 15)
		argv[n++] = *args++;
	argv[n] = NULL;
	fflush(stdout);	/* or the child's copy of the buffer is printed again */
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		if (!freopen("/dev/null", "w", stdout))
			_exit(126);
		execv(damoctl, argv);
		_exit(127);
	}
	if (wait4(pid, &st, 0, &ru) < 0)
		return -1;
	*ms = now_ms() - t0;
	*kib = ru.ru_maxrss;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

int main(int argc, char **argv)
{
	struct damon_opts o = DAMON_OPTS_INIT;
	struct damon_snapshot_opts so = { .sz = sizeof(so) };
	struct damos_tried_regions *tr;
	long rss0, rss1, kib;
	struct damon_ctx *d;
	size_t nr = 0;
	double *t, ms;
	int n, rc;

	if (argc != 4 || (n = atoi(argv[2])) < 1) {
		fprintf(stderr, "usage: snapbench ROOT N DAMOCTL\n");
		return 2;
	}
	t = calloc(n, sizeof(*t));
	o.root = argv[1];
	d = damon_open(&o);
	if (!d || !t) {
		fprintf(stderr, "snapbench: %s\n", damos_errmsg());
		return 1;
	}
	rss0 = maxrss_kib();
	for (int i = 0; i < n; i++) {
		double t0 = now_ms();
		int err = damon_access_snapshot(d, &so, &tr);

		t[i] = now_ms() - t0;
		if (err) {
			fprintf(stderr, "snapbench: %s\n", damos_errmsg());
			return 1;
		}
		nr = damos_tried_regions_nr(tr);
		damos_tried_regions_free(tr);
	}
	rss1 = maxrss_kib();
	damon_close(d);
	qsort(t, n, sizeof(*t), dbl_cmp);
	printf("damon_access_snapshot: %zu regions, %d runs: min %.2f ms, median %.2f ms, max %.2f ms\n",
	       nr, n, t[0], t[n / 2], t[n - 1]);
	printf("damon_access_snapshot: peak memory %ld KiB (%ld KiB before the first snapshot)\n",
	       rss1, rss0);
	rc = child(argv[3], argv[1], (char *[]){ "--json", "report", "access", NULL },
		   &ms, &kib);
	printf("damoctl --json report access: %.2f ms, peak memory %ld KiB (exit %d)\n",
	       ms, kib, rc);
	rc = child(argv[3], argv[1], (char *[]){ "--json", "report", "heatmap",
		   "duration", "1s", NULL }, &ms, &kib);
	printf("damoctl --json report heatmap duration 1s: %.2f ms, peak memory %ld KiB (exit %d)\n",
	       ms, kib, rc);
	free(t);
	return 0;
}
