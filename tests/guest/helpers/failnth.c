// SPDX-License-Identifier: GPL-2.0
/*
 * failnth N FILE DATA: write DATA to FILE in one write() with the Nth
 * kernel allocation of this task made to fail, through the kernel's
 * /proc/thread-self/fail-nth (CONFIG_FAULT_INJECTION, with failslab and
 * fail_page_alloc told not to ignore sleeping allocations).  FILE is opened
 * before the fault is armed, so N counts the allocations of the write alone.
 *
 * Prints one line: "ok" or the write's errno name, then "injected" when the
 * Nth allocation happened inside the write (fail-nth reads 0 afterwards) or
 * "not-reached" when the write made fewer than N allocations (the sweep is
 * over).  Exits 0 unless the helper itself could not run (2).
 *
 * tests/guest/failnth.bats runs it for N = 1, 2, ... over each write.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *errname(int e)
{
	switch (e) {
	case ENOMEM: return "ENOMEM";
	case EINVAL: return "EINVAL";
	case EBUSY: return "EBUSY";
	case EFAULT: return "EFAULT";
	case ENOENT: return "ENOENT";
	case EEXIST: return "EEXIST";
	case EAGAIN: return "EAGAIN";
	case ENOSPC: return "ENOSPC";
	default: return "other";
	}
}

int main(int argc, char **argv)
{
	char nbuf[32], back[32];
	ssize_t w, r;
	int nth, fd, e;

	if (argc != 4) {
		fprintf(stderr, "usage: failnth N FILE DATA\n");
		return 2;
	}
	nth = open("/proc/thread-self/fail-nth", O_RDWR);
	if (nth < 0) {
		perror("failnth: /proc/thread-self/fail-nth");
		return 2;
	}
	fd = open(argv[2], O_WRONLY);
	if (fd < 0) {
		perror(argv[2]);
		return 2;
	}
	snprintf(nbuf, sizeof(nbuf), "%s", argv[1]);
	if (pwrite(nth, nbuf, strlen(nbuf), 0) < 0) {
		perror("failnth: arming fail-nth");
		return 2;
	}
	w = write(fd, argv[3], strlen(argv[3]));
	e = errno;
	r = pread(nth, back, sizeof(back) - 1, 0);
	/* disarm before anything else allocates */
	if (pwrite(nth, "0", 1, 0) < 0 || r < 0) {
		perror("failnth: reading fail-nth");
		return 2;
	}
	back[r] = '\0';
	close(fd);
	printf("%s %s\n", w < 0 ? errname(e) : "ok",
	       atoi(back) == 0 ? "injected" : "not-reached");
	return 0;
}
