// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/*
 * Must match the kernel's enum damos_action (include/linux/damon.h, 6.1),
 * whose order is also mm/damon/sysfs.c's damon_sysfs_damos_action_strs[].
 * The dbgfs numbers are the mapping of mm/damon/dbgfs.c, plus 6 and 7 from
 * the damos kernel series (the numbers damo used before dropping debugfs).
 */
static const struct {
	const char *name;
	int dbgfs;
	const char *desc;
} actions[DAMOS_NR_ACTIONS] = {
	[DAMOS_ACTION_WILLNEED] = { "willneed", 0,
		"madvise(MADV_WILLNEED) the region" },
	[DAMOS_ACTION_COLD] = { "cold", 1, "madvise(MADV_COLD) the region" },
	[DAMOS_ACTION_PAGEOUT] = { "pageout", 2,
		"madvise(MADV_PAGEOUT) the region" },
	[DAMOS_ACTION_HUGEPAGE] = { "hugepage", 3,
		"madvise(MADV_HUGEPAGE) the region" },
	[DAMOS_ACTION_NOHUGEPAGE] = { "nohugepage", 4,
		"madvise(MADV_NOHUGEPAGE) the region" },
	[DAMOS_ACTION_LRU_PRIO] = { "lru_prio", 6,
		"prioritize the region on its LRU lists (paddr)" },
	[DAMOS_ACTION_LRU_DEPRIO] = { "lru_deprio", 7,
		"deprioritize the region on its LRU lists (paddr)" },
	[DAMOS_ACTION_STAT] = { "stat", 5,
		"do nothing but count the statistics" },
};

static const char *const metrics[DAMOS_NR_WMARK_METRICS] = {
	[DAMOS_WMARK_NONE] = "none",
	[DAMOS_WMARK_FREE_MEM_RATE] = "free_mem_rate",
};

#define UL DAMOS_ULONG_MAX
#define UI DAMOS_UINT_MAX
const struct damos_field_info damos_fields[DAMOS_NR_FIELDS] = {
	{ "min_sz", "min size", "access_pattern/sz/min", UL, U_SIZE },
	{ "max_sz", "max size", "access_pattern/sz/max", UL, U_SIZE },
	{ "min_nr_accesses", "min access", "access_pattern/nr_accesses/min",
		UI, U_NR_ACC },
	{ "max_nr_accesses", "max access", "access_pattern/nr_accesses/max",
		UI, U_NR_ACC },
	{ "min_age", "min age", "access_pattern/age/min", UI, U_AGE },
	{ "max_age", "max age", "access_pattern/age/max", UI, U_AGE },
	{ "action", "action", "action", DAMOS_NR_ACTIONS - 1, U_ACTION },
	{ "quota_ms", "quota time", "quotas/ms", UL, U_MS },
	{ "quota_sz", "quota size", "quotas/bytes", UL, U_SIZE },
	{ "quota_reset_interval_ms", "quota reset", "quotas/reset_interval_ms",
		UL, U_MS },
	{ "weight_sz", "size weight", "quotas/weights/sz_permil", UI, U_NUM },
	{ "weight_nr_accesses", "access weight",
		"quotas/weights/nr_accesses_permil", UI, U_NUM },
	{ "weight_age", "age weight", "quotas/weights/age_permil", UI, U_NUM },
	{ "wmarks_metric", "wmarks metric", "watermarks/metric",
		DAMOS_NR_WMARK_METRICS - 1, U_METRIC },
	{ "wmarks_interval_us", "wmarks interval", "watermarks/interval_us",
		UL, U_US },
	{ "wmarks_high", "wmarks high", "watermarks/high", UL, U_PERMIL },
	{ "wmarks_mid", "wmarks mid", "watermarks/mid", UL, U_PERMIL },
	{ "wmarks_low", "wmarks low", "watermarks/low", UL, U_PERMIL },
	{ "nr_tried", "nr_tried", "stats/nr_tried", UL, U_STAT },
	{ "sz_tried", "sz_tried", "stats/sz_tried", UL, U_STAT },
	{ "nr_applied", "nr_applied", "stats/nr_applied", UL, U_STAT },
	{ "sz_applied", "sz_applied", "stats/sz_applied", UL, U_STAT },
	{ "qt_exceeds", "qt_exceeds", "stats/qt_exceeds", UL, U_STAT },
};
#undef UL
#undef UI

static const char *const ops_names[DAMOS_NR_OPS] = {
	[DAMOS_OPS_VADDR] = "vaddr",
	[DAMOS_OPS_FVADDR] = "fvaddr",
	[DAMOS_OPS_PADDR] = "paddr",
};

static const char *const iface_names[] = {
	[DAMOS_IFACE_AUTO] = "auto",
	[DAMOS_IFACE_SYSFS] = "sysfs",
	[DAMOS_IFACE_DBGFS] = "dbgfs",
};

const char *damos_action_name(enum damos_action a)
{
	if ((unsigned int)a >= DAMOS_NR_ACTIONS)
		return damos_err_null(-EINVAL, "%d is not an action", a);
	return actions[a].name;
}

const char *damos_action_desc(enum damos_action a)
{
	if ((unsigned int)a >= DAMOS_NR_ACTIONS)
		return damos_err_null(-EINVAL, "%d is not an action", a);
	return actions[a].desc;
}

int damos_action_from_name(const char *name)
{
	char list[128] = "";
	size_t n = 0;

	for (int a = 0; a < DAMOS_NR_ACTIONS; a++) {
		if (name && !strcmp(name, actions[a].name))
			return a;
		n += snprintf(list + n, sizeof(list) - n, "%s%s",
			      a ? " " : "", actions[a].name);
	}
	return damos_err(-EINVAL, "unknown action '%s' (actions: %s)",
			 name ? name : "", list);
}

int damos_action_dbgfs_nr(enum damos_action a)
{
	if ((unsigned int)a >= DAMOS_NR_ACTIONS)
		return damos_err(-EINVAL, "%d is not an action", a);
	return actions[a].dbgfs;
}

int damos_action_from_dbgfs(long nr)
{
	for (int a = 0; a < DAMOS_NR_ACTIONS; a++)
		if (actions[a].dbgfs == nr)
			return a;
	return damos_err(-EINVAL, "unknown dbgfs action number %ld", nr);
}

const char *damos_metric_name(enum damos_wmark_metric m)
{
	if ((unsigned int)m >= DAMOS_NR_WMARK_METRICS)
		return damos_err_null(-EINVAL, "%d is not a metric", m);
	return metrics[m];
}

int damos_metric_from_name(const char *name)
{
	uint64_t v;

	for (int m = 0; m < DAMOS_NR_WMARK_METRICS; m++)
		if (name && !strcmp(name, metrics[m]))
			return m;
	if (name && !damos_parse_u64(name, &v) && v < DAMOS_NR_WMARK_METRICS)
		return (int)v;
	return damos_err(-EINVAL,
			 "unknown metric '%s' (metrics: none free_mem_rate)",
			 name ? name : "");
}

const char *damos_field_name(enum damos_field f)
{
	if ((unsigned int)f >= DAMOS_NR_FIELDS)
		return damos_err_null(-EINVAL, "%d is not a field", f);
	return damos_fields[f].name;
}

const char *damos_field_label(enum damos_field f)
{
	if ((unsigned int)f >= DAMOS_NR_FIELDS)
		return damos_err_null(-EINVAL, "%d is not a field", f);
	return damos_fields[f].label;
}

const char *damos_field_sysfs_path(enum damos_field f)
{
	if ((unsigned int)f >= DAMOS_NR_FIELDS)
		return damos_err_null(-EINVAL, "%d is not a field", f);
	return damos_fields[f].sysfs;
}

uint64_t damos_field_max(enum damos_field f)
{
	if ((unsigned int)f >= DAMOS_NR_FIELDS)
		return 0;
	return damos_fields[f].max;
}

const char *damos_ops_name(enum damos_ops o)
{
	if ((unsigned int)o >= DAMOS_NR_OPS)
		return damos_err_null(-EINVAL, "%d is not an operations set", o);
	return ops_names[o];
}

const char *damos_iface_name(enum damos_iface i)
{
	if ((unsigned int)i >= ARRAY_SIZE(iface_names))
		return damos_err_null(-EINVAL, "%d is not an interface", i);
	return iface_names[i];
}

int damos_iface_from_name(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(iface_names); i++)
		if (name && !strcmp(name, iface_names[i]))
			return (int)i;
	return damos_err(-EINVAL,
			 "unknown interface '%s' (interfaces: auto sysfs dbgfs)",
			 name ? name : "");
}
