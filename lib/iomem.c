// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * The physical address range that paddr monitoring takes when none is
 * given: the biggest "System RAM" range of /proc/iomem, as damo and the
 * kernel's damon_reclaim and damon_lru_sort modules pick it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

int damos_iomem_biggest_ram(const char *root, uint64_t *start, uint64_t *end)
{
	char path[4096], line[256];
	uint64_t best_s = 0, best_e = 0;
	bool zeros = false;
	size_t n = root ? strlen(root) : 0;
	struct stat st;
	FILE *f;
	int fd;

	while (n && root[n - 1] == '/')
		n--;
	snprintf(path, sizeof(path), "%.*s/proc/iomem", (int)n, n ? root : "");
	/* a fake tree's file: no symlink, no FIFO */
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return damos_err(-errno, "cannot read %s: %s", path,
				 strerror(errno));
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return damos_err(-EINVAL, "cannot read %s: not a regular file",
				 path);
	}
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return damos_err(-ENOMEM, "out of memory");
	}
	while (fgets(line, sizeof(line), f)) {
		unsigned long long s, e;
		int pos = 0;

		/* top level only: nested lines (kernel code, ...) are indented */
		if (line[0] == ' ' ||
		    sscanf(line, "%llx-%llx : %n", &s, &e, &pos) != 2 || !pos ||
		    strncmp(line + pos, "System RAM", 10) ||
		    (line[pos + 10] != '\n' && line[pos + 10] != '\0'))
			continue;
		if (!s && !e) {		/* what a user other than root sees */
			zeros = true;
			continue;
		}
		if (e < s || e == UINT64_MAX)
			continue;
		if (e + 1 - s > best_e - best_s) {
			best_s = s;
			best_e = e + 1;
		}
	}
	fclose(f);
	if (best_e == best_s)
		return damos_err(-ENOENT, "no System RAM range in %s%s", path,
				 zeros ? " (it shows zeros: only root sees the addresses)" : "");
	*start = best_s;
	*end = best_e;
	return 0;
}
