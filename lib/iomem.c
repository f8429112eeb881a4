// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * The physical memory paddr monitoring takes: the "System RAM" ranges of
 * /proc/iomem (every one, or the biggest, as damo and the kernel's
 * damon_reclaim and damon_lru_sort modules pick it), and a NUMA node's
 * memory from its memory blocks in sysfs.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

/* <root><rel>, the root's trailing slashes dropped */
static void root_path(char *path, size_t sz, const char *root, const char *rel)
{
	size_t n = root ? strlen(root) : 0;

	while (n && root[n - 1] == '/')
		n--;
	snprintf(path, sz, "%.*s%s", (int)n, n ? root : "", rel);
}

/* a fake tree's file: no symlink, no FIFO */
static FILE *open_regular(const char *path, int *err)
{
	struct stat st;
	FILE *f;
	int fd;

	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		*err = damos_err(-errno, "cannot read %s: %s", path,
				 strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		*err = damos_err(-EINVAL, "cannot read %s: not a regular file",
				 path);
		return NULL;
	}
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		*err = damos_err(-ENOMEM, "out of memory");
	}
	return f;
}

static int push(struct damon_region **r, size_t *nr, size_t *cap,
		uint64_t start, uint64_t end)
{
	if (*nr == *cap) {
		size_t c = *cap ? *cap * 2 : 8;
		struct damon_region *n = realloc(*r, c * sizeof(*n));

		if (!n)
			return damos_err(-ENOMEM, "out of memory");
		*r = n;
		*cap = c;
	}
	(*r)[*nr].start = start;
	(*r)[*nr].end = end;
	(*nr)++;
	return 0;
}

/* Every top-level System RAM range of <root>/proc/iomem, in file order. */
static int iomem_ram(const char *root, struct damon_region **out, size_t *nr,
		     char *path, size_t path_sz)
{
	struct damon_region *r = NULL;
	size_t n = 0, cap = 0;
	char line[256];
	bool zeros = false;
	int err = 0;
	FILE *f;

	root_path(path, path_sz, root, "/proc/iomem");
	f = open_regular(path, &err);
	if (!f)
		return err;
	while (!err && fgets(line, sizeof(line), f)) {
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
		err = push(&r, &n, &cap, s, e + 1);
	}
	fclose(f);
	if (!err && !n)
		err = damos_err(-ENOENT, "no System RAM range in %s%s", path,
				zeros ? " (it shows zeros: only root sees the addresses)" : "");
	if (err) {
		free(r);
		return err;
	}
	*out = r;
	*nr = n;
	return 0;
}

int damos_iomem_ram(const char *root, struct damon_region **ranges,
		    size_t *nr)
{
	char path[4096];

	return iomem_ram(root, ranges, nr, path, sizeof(path));
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int cmp_region(const void *a, const void *b)
{
	return cmp_u64(&((const struct damon_region *)a)->start,
		       &((const struct damon_region *)b)->start);
}

/* "memoryN" (not memory_failure, memory_tier...): N; -1 otherwise */
static long long block_index(const char *name)
{
	char *end;
	long long v;

	if (strncmp(name, "memory", 6) || !isdigit((unsigned char)name[6]))
		return -1;
	errno = 0;
	v = strtoll(name + 6, &end, 10);
	return errno || *end ? -1 : v;
}

/* Spans [@sp[2i], @sp[2i+1]) cut to the System RAM ranges @ram, merged. */
static int cut_to_ram(const uint64_t *sp, size_t nsp, const struct damon_region *ram,
		      size_t nram, struct damon_region **r, size_t *n, size_t *cap)
{
	int err = 0;

	for (size_t i = 0; !err && i < nsp; i++) {
		uint64_t s = sp[2 * i], e = sp[2 * i + 1];

		for (size_t k = 0; !err && k < nram; k++) {
			uint64_t a = ram[k].start > s ? ram[k].start : s;
			uint64_t b = ram[k].end < e ? ram[k].end : e;

			if (a >= b)
				continue;
			if (*n && (*r)[*n - 1].end == a)
				(*r)[*n - 1].end = b;
			else
				err = push(r, n, cap, a, b);
		}
	}
	return err;
}

/*
 * Node @nid's zones as /proc/zoneinfo spans them ("Node N, zone Z", then
 * "spanned P" and "start_pfn: F"): [F, F + P) pages, as bytes, sorted and
 * merged.  What a kernel without CONFIG_MEMORY_HOTPLUG (no memory blocks
 * in sysfs) still tells of where a node's memory is.
 */
static int zone_spans(const char *root, int nid, uint64_t **out, size_t *nr)
{
	char path[4096], line[256];
	uint64_t *sp = NULL, spanned = 0, page = (uint64_t)sysconf(_SC_PAGESIZE);
	size_t n = 0;
	int node = -1, err = 0;
	FILE *f;

	*out = NULL;
	*nr = 0;
	root_path(path, sizeof(path), root, "/proc/zoneinfo");
	if (!damos_exists(NULL, path))
		return 0;	/* the caller says what is missing */
	f = open_regular(path, &err);
	if (!f)
		return err;
	while (!err && fgets(line, sizeof(line), f)) {
		unsigned long long v;
		int k;

		if (sscanf(line, "Node %d, zone", &k) == 1) {
			node = k;
			spanned = 0;
		} else if (sscanf(line, " spanned %llu", &v) == 1) {
			spanned = v;
		} else if (sscanf(line, " start_pfn: %llu", &v) == 1 && node == nid && spanned) {
			uint64_t *ns = realloc(sp, (n + 2) * sizeof(*sp));

			if (!ns) {
				err = damos_err(-ENOMEM, "out of memory");
				break;
			}
			sp = ns;
			if (v > UINT64_MAX / page - spanned) {
				err = damos_err(-EINVAL, "%s: node %d: start_pfn %llu is past 64 bits", path, nid, v);
				break;
			}
			sp[n++] = v * page;
			sp[n++] = (v + spanned) * page;
		}
	}
	fclose(f);
	if (err) {
		free(sp);
		return err;
	}
	/* ZONE_MOVABLE may span what ZONE_NORMAL spans: sorted, merged */
	n /= 2;
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && sp[2 * (j - 1)] > sp[2 * j]; j--) {
			uint64_t a = sp[2 * j], b = sp[2 * j + 1];

			sp[2 * j] = sp[2 * (j - 1)];
			sp[2 * j + 1] = sp[2 * (j - 1) + 1];
			sp[2 * (j - 1)] = a;
			sp[2 * (j - 1) + 1] = b;
		}
	size_t m = 0;

	for (size_t i = 0; i < n; i++) {
		if (m && sp[2 * i] <= sp[2 * (m - 1) + 1]) {
			if (sp[2 * i + 1] > sp[2 * (m - 1) + 1])
				sp[2 * (m - 1) + 1] = sp[2 * i + 1];
			continue;
		}
		sp[2 * m] = sp[2 * i];
		sp[2 * m + 1] = sp[2 * i + 1];
		m++;
	}
	*out = sp;
	*nr = m;
	return 0;
}

int damos_node_ram(const char *root, int nid, struct damon_region **ranges,
		   size_t *nr)
{
	char path[4096], rel[64], line[64];
	struct damon_region *ram = NULL, *r = NULL;
	uint64_t *blocks = NULL, bs;
	size_t nb = 0, capb = 0, nram = 0, n = 0, cap = 0;
	unsigned long long v;
	struct dirent *de;
	char *end;
	int err = 0, fd;
	FILE *f;
	DIR *dir;

	if (nid < 0)
		return damos_err(-EINVAL, "node: %d is not a node id", nid);
	snprintf(rel, sizeof(rel), "/sys/devices/system/node/node%d", nid);
	root_path(path, sizeof(path), root, rel);
	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		return err == -ENOENT ?
			damos_err(err, "node %d: no such NUMA node (no %s)", nid, path) :
			damos_err(err, "node %d: cannot read %s: %s", nid, path,
				  strerror(-err));
	}
	dir = fdopendir(fd);
	if (!dir) {
		close(fd);
		return damos_err(-ENOMEM, "out of memory");
	}
	while (!err && (de = readdir(dir))) {
		long long b = block_index(de->d_name);

		if (b < 0)
			continue;
		if (nb == capb) {
			size_t c = capb ? capb * 2 : 64;
			uint64_t *nbk = realloc(blocks, c * sizeof(*nbk));

			if (!nbk) {
				err = damos_err(-ENOMEM, "out of memory");
				break;
			}
			blocks = nbk;
			capb = c;
		}
		blocks[nb++] = (uint64_t)b;
	}
	closedir(dir);
	if (!err && !nb) {
		char sys[4096];
		uint64_t *sp = NULL;
		size_t nsp = 0;

		/* the blocks' directory: sysfs has it with CONFIG_MEMORY_HOTPLUG */
		root_path(sys, sizeof(sys), root, "/sys/devices/system/memory");
		if (damos_exists(NULL, sys)) {
			err = damos_err(-ENOENT, "node %d has no memory (no memoryN block in %s)",
					nid, path);
			goto out;
		}
		/* without it, the node's zones (as 1-byte blocks) */
		err = zone_spans(root, nid, &sp, &nsp);
		if (!err && !nsp)
			err = damos_err(-ENOENT, "node %d: %s lists no memory blocks, there is no /sys/devices/system/memory (a kernel without CONFIG_MEMORY_HOTPLUG), and /proc/zoneinfo spans no zone of it; give the node's regions (region START END)",
					nid, path);
		if (!err)
			err = iomem_ram(root, &ram, &nram, path, sizeof(path));
		if (!err) {
			qsort(ram, nram, sizeof(*ram), cmp_region);
			err = cut_to_ram(sp, nsp, ram, nram, &r, &n, &cap);
		}
		free(sp);
		if (!err && !n)
			err = damos_err(-ENOENT, "node %d: its zones hold no System RAM range of %s",
					nid, path);
		goto out;
	}
	if (err)
		goto out;
	root_path(path, sizeof(path), root,
		  "/sys/devices/system/memory/block_size_bytes");
	f = open_regular(path, &err);
	if (!f)
		goto out;
	if (!fgets(line, sizeof(line), f))
		line[0] = '\0';
	fclose(f);
	errno = 0;
	v = strtoull(line, &end, 16);
	if (errno || end == line || (*end && *end != '\n') || !v ||
	    (v & (v - 1))) {
		line[strcspn(line, "\n")] = '\0';
		err = damos_err(-EINVAL, "%s: '%s' is not a block size (hex, a power of two)",
				path, line);
		goto out;
	}
	bs = v;
	qsort(blocks, nb, sizeof(*blocks), cmp_u64);
	if (blocks[nb - 1] > UINT64_MAX / bs - 1) {
		err = damos_err(-EINVAL, "node %d: memory block %llu is past 64 bits (block size 0x%llx)",
				nid, (unsigned long long)blocks[nb - 1], v);
		goto out;
	}
	err = iomem_ram(root, &ram, &nram, path, sizeof(path));
	if (err)
		goto out;
	qsort(ram, nram, sizeof(*ram), cmp_region);
	/* contiguous blocks merged, then cut to System RAM (holes, firmware) */
	for (size_t i = 0; !err && i < nb;) {
		uint64_t s = blocks[i] * bs, e;
		size_t j = i;

		while (j + 1 < nb && blocks[j + 1] <= blocks[j] + 1)
			j++;
		e = (blocks[j] + 1) * bs;
		for (size_t k = 0; !err && k < nram; k++) {
			uint64_t a = ram[k].start > s ? ram[k].start : s;
			uint64_t b = ram[k].end < e ? ram[k].end : e;

			if (a >= b)
				continue;
			if (n && r[n - 1].end == a)
				r[n - 1].end = b;
			else
				err = push(&r, &n, &cap, a, b);
		}
		i = j + 1;
	}
	if (!err && !n)
		err = damos_err(-ENOENT, "node %d: its memory blocks hold no System RAM range of %s",
				nid, path);
out:
	free(blocks);
	free(ram);
	if (err) {
		free(r);
		return err;
	}
	*ranges = r;
	*nr = n;
	return 0;
}
