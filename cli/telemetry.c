// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Access telemetry in the metrics exposition of monitor status: from the
 * monitored regions of a running kdamond, the age (how long a region's
 * access rate has not changed) at the 50th, 90th and 99th percentile of
 * the monitored bytes, the working set (the bytes of the regions accessed
 * in the last aggregation interval: nr_accesses >= 1, as report wss
 * counts) and the bytes monitored: what Linux 6.17's DAMON_STAT exports,
 * for the kernels that have no such module.
 *
 * monitor status holds a shared lock, so the regions are read without a
 * change to the setup: the tried regions of a stat scheme of the context
 * that every region passes (the kernel lists them on a state command, as
 * it updates the statistics), else the damon_aggregated tracepoint in a
 * tracing instance of damoctl's own.  Neither: the gauges are left out,
 * and damon_access_telemetry_available is 0.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* a stat scheme every region passes: its tried regions are all of them */
static bool match_all(const struct damos_scheme *s, uint64_t max_acc)
{
	return damos_scheme_get(s, DAMOS_F_ACTION) == DAMOS_ACTION_STAT &&
	       !damos_scheme_get(s, DAMOS_F_MIN_SZ) &&
	       damos_scheme_get(s, DAMOS_F_MAX_SZ) >= (1ULL << 57) &&
	       !damos_scheme_get(s, DAMOS_F_MIN_NR_ACCESSES) &&
	       damos_scheme_get(s, DAMOS_F_MAX_NR_ACCESSES) >= max_acc &&
	       !damos_scheme_get(s, DAMOS_F_MIN_AGE) &&
	       damos_scheme_get(s, DAMOS_F_MAX_AGE) >= 0xffffffffULL;
}

static int by_age(const void *a, const void *b)
{
	const struct damos_tried_region *x = a, *y = b;

	return x->age < y->age ? -1 : x->age > y->age;
}

int cli_access_telemetry(struct cli *c, struct damon_ctx *d,
			 struct cli_access_telemetry *t)
{
	static const unsigned int pct[] = { 50, 90, 99 };
	struct damos_tried_regions *tr = NULL;
	struct damos_scheme **arr = NULL;
	struct damos_tried_region *r;
	struct damon_attrs a;
	uint64_t cum = 0;
	size_t n = 0, k = 0;
	long idx = -1;
	bool on = false;
	int err;

	(void)c;
	memset(t, 0, sizeof(*t));
	if (damon_monitor_status(d, &on, NULL) || !on) {
		t->why = "the kdamond is off";
		return -ENODATA;
	}
	err = damon_attrs_read(d, &a);
	if (err) {
		t->why = "the attributes could not be read";
		return err;
	}
	if (damon_get_iface(d) == DAMON_IFACE_SYSFS &&
	    damos_has(d, DAMOS_FEAT_TRIED_REGIONS) == 1 &&
	    !damos_schemes_read(d, &arr, &n)) {
		for (size_t i = 0; i < n && idx < 0; i++)
			if (match_all(arr[i], damon_attrs_max_nr_accesses(&a)))
				idx = (long)i;
		damos_schemes_free(arr, n);
	}
	if (idx >= 0) {
		err = damos_tried_regions_read(d, idx, &tr);
		t->source = "tried";
	} else {
		struct damon_snapshot_opts o = { .sz = sizeof(o),
						 .source = DAMON_SNAPSHOT_TRACE };

		err = damon_access_snapshot(d, &o, &tr);
		t->source = "trace";
	}
	if (err) {
		t->why = idx >= 0 ? "the stat scheme's tried regions could not be read" :
			 "no stat scheme that every region passes, and no damon_aggregated tracepoint";
		return err;
	}
	n = damos_tried_regions_nr(tr);
	r = calloc(n ? n : 1, sizeof(*r));
	if (!r) {
		damos_tried_regions_free(tr);
		t->why = "out of memory";
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		r[i].sz = sizeof(r[i]);
		damos_tried_regions_get(tr, i, &r[i]);
		t->total_bytes += r[i].end - r[i].start;
		if (r[i].nr_accesses)
			t->wss_bytes += r[i].end - r[i].start;
	}
	damos_tried_regions_free(tr);
	t->nr_regions = n;
	/* the age below which p% of the bytes are: the youngest first */
	qsort(r, n, sizeof(*r), by_age);
	for (size_t i = 0; i < n && k < ARRAY_SIZE(pct); i++) {
		cum += r[i].end - r[i].start;
		while (k < ARRAY_SIZE(pct) &&
		       (unsigned __int128)cum * 100 >= (unsigned __int128)t->total_bytes * pct[k])
			t->age_us[k++] = r[i].age * a.aggr_us;
	}
	free(r);
	t->available = n > 0;
	if (!n)
		t->why = "no region listed";
	return n ? 0 : -ENODATA;
}
