/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * Fake DAMON trees for the fuzz targets that go through a handle: a private
 * directory (under $TMPDIR, /dev/shm preferred) holding the sysfs and dbgfs
 * files of a 6.1 kernel with one kdamond, one paddr context, one target and
 * one scheme.  Everything the targets do stays below it: the handle's root
 * is never taken from the input.
 */
#ifndef DAMOS_FUZZ_FAKETREE_H
#define DAMOS_FUZZ_FAKETREE_H

#include <fcntl.h>
#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"

#define SYSFS_K "sys/kernel/mm/damon/admin/kdamonds/0"
#define SYSFS_C SYSFS_K "/contexts/0"
#define SYSFS_S SYSFS_C "/schemes/0"
#define DBGFS "sys/kernel/debug/damon"
#define LRU "sys/module/damon_lru_sort/parameters"

/* path relative to the tree, default content */
static const char *const fake_files[][2] = {
	{ "sys/kernel/mm/damon/admin/kdamonds/nr_kdamonds", "1\n" },
	{ SYSFS_K "/state", "off\n" },
	{ SYSFS_K "/pid", "-1\n" },
	{ SYSFS_K "/contexts/nr_contexts", "1\n" },
	{ SYSFS_C "/avail_operations", "vaddr\nfvaddr\npaddr\n" },
	{ SYSFS_C "/operations", "paddr\n" },
	{ SYSFS_C "/monitoring_attrs/intervals/sample_us", "5000\n" },
	{ SYSFS_C "/monitoring_attrs/intervals/aggr_us", "100000\n" },
	{ SYSFS_C "/monitoring_attrs/intervals/update_us", "1000000\n" },
	{ SYSFS_C "/monitoring_attrs/nr_regions/min", "10\n" },
	{ SYSFS_C "/monitoring_attrs/nr_regions/max", "1000\n" },
	{ SYSFS_C "/targets/nr_targets", "1\n" },
	{ SYSFS_C "/targets/0/pid_target", "0\n" },
	{ SYSFS_C "/targets/0/regions/nr_regions", "1\n" },
	{ SYSFS_C "/targets/0/regions/0/start", "4294967296\n" },
	{ SYSFS_C "/targets/0/regions/0/end", "8589934592\n" },
	{ SYSFS_C "/schemes/nr_schemes", "1\n" },
	{ SYSFS_S "/action", "lru_prio\n" },
	{ SYSFS_S "/access_pattern/sz/min", "4096\n" },
	{ SYSFS_S "/access_pattern/sz/max", "18446744073709551615\n" },
	{ SYSFS_S "/access_pattern/nr_accesses/min", "10\n" },
	{ SYSFS_S "/access_pattern/nr_accesses/max", "4294967295\n" },
	{ SYSFS_S "/access_pattern/age/min", "0\n" },
	{ SYSFS_S "/access_pattern/age/max", "4294967295\n" },
	{ SYSFS_S "/quotas/ms", "5\n" },
	{ SYSFS_S "/quotas/bytes", "0\n" },
	{ SYSFS_S "/quotas/reset_interval_ms", "1000\n" },
	{ SYSFS_S "/quotas/weights/sz_permil", "0\n" },
	{ SYSFS_S "/quotas/weights/nr_accesses_permil", "1\n" },
	{ SYSFS_S "/quotas/weights/age_permil", "0\n" },
	{ SYSFS_S "/watermarks/metric", "none\n" },
	{ SYSFS_S "/watermarks/interval_us", "0\n" },
	{ SYSFS_S "/watermarks/high", "0\n" },
	{ SYSFS_S "/watermarks/mid", "0\n" },
	{ SYSFS_S "/watermarks/low", "0\n" },
	{ SYSFS_S "/stats/nr_tried", "0\n" },
	{ SYSFS_S "/stats/sz_tried", "0\n" },
	{ SYSFS_S "/stats/nr_applied", "0\n" },
	{ SYSFS_S "/stats/sz_applied", "0\n" },
	{ SYSFS_S "/stats/qt_exceeds", "0\n" },
	{ DBGFS "/attrs", "5000 100000 60000000 10 1000\n" },
	{ DBGFS "/schemes",
	  "4096 8192 0 5 10 20 2 10 1073741824 1000 0 0 100 1 5000000 600 500 300 1 2 3 4 5\n" },
	{ DBGFS "/target_ids", "42\n" },
	{ DBGFS "/init_regions", "42 4294967296 8589934592\n" },
	{ DBGFS "/kdamond_pid", "none\n" },
	{ DBGFS "/monitor_on", "off\n" },
	{ DBGFS "/mk_contexts", "" },
	{ DBGFS "/rm_contexts", "" },
	{ DBGFS "/.max_action", "7\n" },
	{ LRU "/enabled", "N\n" },
	{ LRU "/kdamond_pid", "-1\n" },
	{ LRU "/hot_thres_access_freq", "500\n" },
	{ LRU "/cold_min_age", "120000000\n" },
	{ LRU "/quota_ms", "10\n" },
	{ LRU "/quota_reset_interval_ms", "1000\n" },
	{ LRU "/wmarks_interval", "5000000\n" },
	{ LRU "/wmarks_high", "200\n" },
	{ LRU "/wmarks_mid", "150\n" },
	{ LRU "/wmarks_low", "50\n" },
	{ LRU "/sample_interval", "5000\n" },
	{ LRU "/aggr_interval", "100000\n" },
	{ LRU "/min_nr_regions", "10\n" },
	{ LRU "/max_nr_regions", "1000\n" },
	{ LRU "/monitor_region_start", "0\n" },
	{ LRU "/monitor_region_end", "0\n" },
	{ LRU "/commit_inputs", "N\n" },
	{ LRU "/nr_lru_sort_tried_hot_regions", "0\n" },
	{ LRU "/bytes_lru_sort_tried_hot_regions", "0\n" },
	{ LRU "/nr_lru_sorted_hot_regions", "0\n" },
	{ LRU "/bytes_lru_sorted_hot_regions", "0\n" },
	{ LRU "/nr_hot_quota_exceeds", "0\n" },
	{ LRU "/nr_lru_sort_tried_cold_regions", "0\n" },
	{ LRU "/bytes_lru_sort_tried_cold_regions", "0\n" },
	{ LRU "/nr_lru_sorted_cold_regions", "0\n" },
	{ LRU "/bytes_lru_sorted_cold_regions", "0\n" },
	{ LRU "/nr_cold_quota_exceeds", "0\n" },
};
#define NR_FAKE_FILES (sizeof(fake_files) / sizeof(fake_files[0]))

static char fake_root[256];

static int fake_rm(const char *p, const struct stat *st, int flag,
		   struct FTW *ftw)
{
	(void)st; (void)flag; (void)ftw;
	return remove(p);
}

static void fake_cleanup(void)
{
	if (fake_root[0])
		nftw(fake_root, fake_rm, 16, FTW_DEPTH | FTW_PHYS);
}

/* Write @len bytes of @content to the tree's file @rel, making its dirs. */
static void fake_put(const char *rel, const char *content, size_t len)
{
	char path[512];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", fake_root, rel);
	for (char *p = path + strlen(fake_root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 || (len && write(fd, content, len) != (ssize_t)len))
		fuzz_fail("cannot write the fake tree's %s", path);
	close(fd);
}

/* Make the tree once per process; return its root. */
static const char *fake_tree(void)
{
	const char *tmp = access("/dev/shm", W_OK) ? getenv("TMPDIR") :
						     "/dev/shm";

	if (fake_root[0])
		return fake_root;
	snprintf(fake_root, sizeof(fake_root), "%s/damos-fuzz.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(fake_root))
		fuzz_fail("mkdtemp %s failed", fake_root);
	atexit(fake_cleanup);
	for (size_t i = 0; i < NR_FAKE_FILES; i++)
		fake_put(fake_files[i][0], fake_files[i][1],
			 strlen(fake_files[i][1]));
	return fake_root;
}

#endif /* DAMOS_FUZZ_FAKETREE_H */
