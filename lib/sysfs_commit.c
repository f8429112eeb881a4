// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * A running sysfs kdamond's "commit": what the kernel refuses only when it
 * applies the files, checked before "commit" is written; and a kdamond the
 * commit stopped, found after it.
 *
 * Linux 6.1 and 6.12 apply a commit in the kdamond's own callback, after
 * damon_sysfs_handle_cmd() has returned 0 to the writer; a refused input
 * makes the callback fail, which ends kdamond_fn(): the kdamond stops and
 * no one is told (Debian's 6.12.118: "echo commit > state" exits 0, then
 * state reads "off").  So the checks the kernel makes on applying the
 * files are made here first, on the files as staged: damon_set_attrs()
 * (at least 3 regions, min <= max; 6.12's also sample <= aggr, which 6.1's
 * does not check: left to the state read after), damon_sysfs_set_regions()
 * (each region start <= end, in order, not overlapping; one paddr target),
 * and the addr and
 * memcg filters of damon_sysfs_add_scheme_filters() (a memcg path must name
 * a cgroup with a memory controller, written as cgroup_path() writes it).
 * What no file tells (a target's process gone, no memory) still stops the
 * kdamond: damos_sysfs_commit_stopped() sees it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define WOULD_STOP "the kernel would refuse the commit and stop the running kdamond"

/* @ctx/@rel as a number; *@absent when the file is not there. */
static int num(struct damon_ctx *d, const char *ctx, const char *rel,
	       uint64_t *v, bool *absent)
{
	char *p = damos_path("%s/%s", ctx, rel);
	int err;

	if (!p)
		return damos_err(-ENOMEM, "out of memory");
	*absent = !damos_exists(d, p);
	err = *absent ? 0 : damos_read_u64(d, p, v);
	free(p);
	return err;
}

static int check_attrs(struct damon_ctx *d, const char *ctx)
{
	uint64_t min = 3, max = 3;
	bool no[2];
	int err;

	if ((err = num(d, ctx, "monitoring_attrs/nr_regions/min", &min, &no[0])) ||
	    (err = num(d, ctx, "monitoring_attrs/nr_regions/max", &max, &no[1])))
		return err;
	if (!no[0] && min < 3)
		return damos_err(-EINVAL, "%s/monitoring_attrs/nr_regions/min is %" PRIu64 ", below 3: " WOULD_STOP,
				 ctx, min);
	if (!no[0] && !no[1] && min > max)
		return damos_err(-EINVAL, "%s/monitoring_attrs/nr_regions: min %" PRIu64 " above max %" PRIu64 ": " WOULD_STOP,
				 ctx, min, max);
	return 0;
}

static int check_regions(struct damon_ctx *d, const char *ctx)
{
	uint64_t nt = 0, nr, start, end, prev_end = 0;
	char rel[128];
	bool no;
	int err = 0;
	char *p = damos_path("%s/operations", ctx), ops[16] = "";

	if (!p)
		return damos_err(-ENOMEM, "out of memory");
	if (damos_exists(d, p))
		err = damos_read_word(d, p, ops, sizeof(ops));
	free(p);
	if (err)
		return err;
	if ((err = num(d, ctx, "targets/nr_targets", &nt, &no)) || no)
		return err;
	if (!strcmp(ops, "paddr") && nt > 1)
		return damos_err(-EINVAL, "%s/targets/nr_targets is %" PRIu64 " on paddr, which takes one target: " WOULD_STOP,
				 ctx, nt);
	for (uint64_t t = 0; t < nt; t++) {
		snprintf(rel, sizeof(rel), "targets/%" PRIu64 "/regions/nr_regions", t);
		if ((err = num(d, ctx, rel, &nr, &no)) || no)
			return err;
		for (uint64_t r = 0; r < nr; r++) {
			bool no_end;

			snprintf(rel, sizeof(rel), "targets/%" PRIu64 "/regions/%" PRIu64 "/start", t, r);
			if ((err = num(d, ctx, rel, &start, &no)))
				return err;
			snprintf(rel, sizeof(rel), "targets/%" PRIu64 "/regions/%" PRIu64 "/end", t, r);
			if ((err = num(d, ctx, rel, &end, &no_end)))
				return err;
			if (no || no_end)
				continue;
			if (start > end)
				return damos_err(-EINVAL, "%s/targets/%" PRIu64 "/regions/%" PRIu64 ": start %" PRIu64 " above end %" PRIu64 ": " WOULD_STOP,
						 ctx, t, r, start, end);
			if (r && prev_end > start)
				return damos_err(-EINVAL, "%s/targets/%" PRIu64 "/regions/%" PRIu64 " starts at %" PRIu64 ", inside the region before it (ends at %" PRIu64 "): " WOULD_STOP,
						 ctx, t, r, start, prev_end);
			prev_end = end;
		}
	}
	return 0;
}

/*
 * The cgroup @path names, as damon_sysfs_memcg_path_to_id() finds it: a
 * memcg whose cgroup_path() is @path, so absolute, without a trailing or
 * doubled '/', and with a memory controller (memory.current; the root's
 * memcg has none and always exists).  Only where cgroup v2 is mounted at
 * <root>/sys/fs/cgroup; elsewhere the kdamond's state after the commit
 * tells.
 */
static int check_memcg(struct damon_ctx *d, const char *file, const char *path)
{
	char *cg = damos_path("%s/sys/fs/cgroup", d->root), *p = NULL;
	bool v2, ok;

	if (!cg)
		return damos_err(-ENOMEM, "out of memory");
	p = damos_path("%s/cgroup.controllers", cg);
	v2 = p && damos_exists(d, p);
	free(p);
	p = NULL;
	ok = path[0] == '/' && !strstr(path, "//") &&
	     (!strcmp(path, "/") || path[strlen(path) - 1] != '/');
	if (ok && v2 && strcmp(path, "/")) {
		p = damos_path("%s%s/memory.current", cg, path);
		ok = p && damos_exists(d, p);
	}
	free(p);
	free(cg);
	if (!ok && (v2 || path[0] != '/'))
		return damos_err(-EINVAL, "%s is '%s', which is no cgroup with a memory controller: " WOULD_STOP,
				 file, path);
	return 0;
}

static int check_filters(struct damon_ctx *d, const char *ctx)
{
	uint64_t ns = 0, nf, a, b;
	char rel[160], type[16];
	bool no, no_b;
	int err;

	if ((err = num(d, ctx, "schemes/nr_schemes", &ns, &no)) || no)
		return err;
	for (uint64_t s = 0; s < ns; s++) {
		snprintf(rel, sizeof(rel), "schemes/%" PRIu64 "/filters/nr_filters", s);
		if ((err = num(d, ctx, rel, &nf, &no)) || no)
			continue;	/* before 6.3: no filters */
		for (uint64_t f = 0; f < nf; f++) {
			char *dir = damos_path("%s/schemes/%" PRIu64 "/filters/%" PRIu64, ctx, s, f);
			char *p = dir ? damos_path("%s/type", dir) : NULL;

			err = p ? damos_read_word(d, p, type, sizeof(type)) :
				  damos_err(-ENOMEM, "out of memory");
			free(p);
			if (!err && !strcmp(type, "addr")) {
				snprintf(rel, sizeof(rel), "schemes/%" PRIu64 "/filters/%" PRIu64 "/addr_start", s, f);
				err = num(d, ctx, rel, &a, &no);
				snprintf(rel, sizeof(rel), "schemes/%" PRIu64 "/filters/%" PRIu64 "/addr_end", s, f);
				if (!err)
					err = num(d, ctx, rel, &b, &no_b);
				if (!err && !no && !no_b && b < a)
					err = damos_err(-EINVAL, "%s: addr_end %" PRIu64 " below addr_start %" PRIu64 ": " WOULD_STOP,
							dir, b, a);
			} else if (!err && !strcmp(type, "memcg")) {
				char *v = NULL;

				p = damos_path("%s/memcg_path", dir);
				err = p ? damos_read(d, p, &v) :
					  damos_err(-ENOMEM, "out of memory");
				if (!err) {
					v[strcspn(v, "\n")] = '\0';
					err = check_memcg(d, p, v);
				}
				free(v);
				free(p);
			}
			free(dir);
			if (err)
				return err;
		}
	}
	return 0;
}

int damos_sysfs_commit_check(struct damon_ctx *d, const char *state_path)
{
	const char *slash = strrchr(state_path, '/');
	char *ctx = damos_path("%.*s/contexts/0", (int)(slash - state_path),
			       state_path);
	int err;

	if (!ctx)
		return damos_err(-ENOMEM, "out of memory");
	err = check_attrs(d, ctx);
	if (!err)
		err = check_regions(d, ctx);
	if (!err)
		err = check_filters(d, ctx);
	free(ctx);
	return err;
}

bool damos_sysfs_commit_stopped(struct damon_ctx *d, const char *state_path)
{
	char word[16] = "";

	return !damos_read_word(d, state_path, word, sizeof(word)) &&
	       !strcmp(word, "off");
}
