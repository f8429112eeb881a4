// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/*
 * The one table of actions.  The library's values are its own (damos.h);
 * sysfs takes the name, dbgfs the number (mm/damon/dbgfs.c's mapping, plus
 * 6 and 7 from the damos kernel series; -1: dbgfs has none).  A new DAMON
 * action is one line here and one enum value in damos.h.
 */
const struct damos_action_info damos_actions[DAMOS_NR_ACTIONS] = {
	[DAMOS_ACTION_WILLNEED] = { "willneed", 0, -1, false, true,
		"madvise(MADV_WILLNEED) the region" },
	[DAMOS_ACTION_COLD] = { "cold", 1, -1, false, true,
		"madvise(MADV_COLD) the region" },
	[DAMOS_ACTION_PAGEOUT] = { "pageout", 2, -1, true, true,
		"madvise(MADV_PAGEOUT) the region" },
	[DAMOS_ACTION_HUGEPAGE] = { "hugepage", 3, -1, false, true,
		"madvise(MADV_HUGEPAGE) the region" },
	[DAMOS_ACTION_NOHUGEPAGE] = { "nohugepage", 4, -1, false, true,
		"madvise(MADV_NOHUGEPAGE) the region" },
	[DAMOS_ACTION_LRU_PRIO] = { "lru_prio", 6, DAMOS_FEAT_LRU_ACTIONS,
		true, false, "prioritize the region on its LRU lists (paddr)" },
	[DAMOS_ACTION_LRU_DEPRIO] = { "lru_deprio", 7, DAMOS_FEAT_LRU_ACTIONS,
		true, false, "deprioritize the region on its LRU lists (paddr)" },
	[DAMOS_ACTION_STAT] = { "stat", 5, -1, true, true,
		"do nothing but count the statistics" },
	[DAMOS_ACTION_MIGRATE_HOT] = { "migrate_hot", -1, DAMOS_FEAT_MIGRATE,
		true, false, "move the region to node nid, hottest first (paddr, sysfs 6.11+)" },
	[DAMOS_ACTION_MIGRATE_COLD] = { "migrate_cold", -1, DAMOS_FEAT_MIGRATE,
		true, false, "move the region to node nid, coldest first (paddr, sysfs 6.11+)" },
};

const struct damos_filter_type_info damos_filter_types[DAMOS_NR_FILTER_TYPES] = {
	[DAMOS_FILTER_ANON] = { "anon", DAMOS_FEAT_FILTERS, "" },
	[DAMOS_FILTER_MEMCG] = { "memcg", DAMOS_FEAT_FILTERS, "PATH" },
	[DAMOS_FILTER_YOUNG] = { "young", DAMOS_FEAT_FILTER_YOUNG, "" },
	[DAMOS_FILTER_ADDR] = { "addr", DAMOS_FEAT_FILTER_ADDR, "START END" },
	[DAMOS_FILTER_TARGET] = { "target", DAMOS_FEAT_FILTER_ADDR, "IDX" },
};

const char *const damos_goal_metrics[DAMOS_NR_GOAL_METRICS] = {
	[DAMOS_GOAL_USER_INPUT] = "user_input",
	[DAMOS_GOAL_SOME_MEM_PSI_US] = "some_mem_psi_us",
};

/* The release that added each, and a file of a scheme directory that shows it. */
const struct damos_feature_info damos_features[DAMOS_NR_FEATURES] = {
	[DAMOS_FEAT_LRU_ACTIONS] = { "lru_actions", "the lru_prio and lru_deprio actions", 6, 0, NULL },
	[DAMOS_FEAT_MIGRATE] = { "migrate", "the migrate_hot and migrate_cold actions (target_nid)", 6, 11, "target_nid" },
	[DAMOS_FEAT_APPLY_INTERVAL] = { "apply_interval", "per-scheme apply intervals (apply_interval_us)", 6, 7, "apply_interval_us" },
	[DAMOS_FEAT_FILTERS] = { "filters", "scheme filters (filters/)", 6, 3, "filters/nr_filters" },
	[DAMOS_FEAT_FILTER_ADDR] = { "filter_addr", "addr and target filters", 6, 6, NULL },
	[DAMOS_FEAT_FILTER_YOUNG] = { "filter_young", "young filters", 6, 10, NULL },
	[DAMOS_FEAT_QUOTA_GOALS] = { "quota_goals", "quota goals (quotas/goals/)", 6, 8, "quotas/goals/nr_goals" },
	[DAMOS_FEAT_GOAL_METRIC] = { "goal_metric", "quota goal metrics (target_metric)", 6, 9, NULL },
	[DAMOS_FEAT_EFFECTIVE_BYTES] = { "effective_bytes", "effective quotas (quotas/effective_bytes)", 6, 9, "quotas/effective_bytes" },
	[DAMOS_FEAT_TRIED_REGIONS] = { "tried_regions", "tried regions (tried_regions/)", 6, 2, "tried_regions" },
	[DAMOS_FEAT_TRIED_BYTES] = { "tried_bytes", "tried regions' total size (tried_regions/total_bytes)", 6, 6, "tried_regions/total_bytes" },
	[DAMOS_FEAT_MONITOR_ON_DEPRECATED] = { "monitor_on_deprecated", "dbgfs monitor_on_DEPRECATED", 6, 9, NULL },
	[DAMOS_FEAT_COMMIT] = { "commit", "changes to a running context (state commit)", 5, 19, NULL },
};

static const char *const metrics[DAMOS_NR_WMARK_METRICS] = {
	[DAMOS_WMARK_NONE] = "none",
	[DAMOS_WMARK_FREE_MEM_RATE] = "free_mem_rate",
};

#define UL DAMOS_ULONG_MAX
#define UI DAMOS_UINT_MAX
#define NA -1
const struct damos_field_info damos_fields[DAMOS_NR_FIELDS] = {
	{ "min_sz", "min size", "access_pattern/sz/min", UL, U_SIZE, 0, NA },
	{ "max_sz", "max size", "access_pattern/sz/max", UL, U_SIZE, UL, NA },
	{ "min_nr_accesses", "min access", "access_pattern/nr_accesses/min",
		UI, U_NR_ACC, 0, NA },
	{ "max_nr_accesses", "max access", "access_pattern/nr_accesses/max",
		UI, U_NR_ACC, UI, NA },
	{ "min_age", "min age", "access_pattern/age/min", UI, U_AGE, 0, NA },
	{ "max_age", "max age", "access_pattern/age/max", UI, U_AGE, UI, NA },
	{ "action", "action", "action", DAMOS_NR_ACTIONS - 1, U_ACTION, 0, NA },
	{ "quota_ms", "quota time", "quotas/ms", UL, U_MS, 0, NA },
	{ "quota_sz", "quota size", "quotas/bytes", UL, U_SIZE, 0, NA },
	{ "quota_reset_interval_ms", "quota reset", "quotas/reset_interval_ms",
		UL, U_MS, 0, NA },
	{ "weight_sz", "size weight", "quotas/weights/sz_permil", UI, U_NUM, 0, NA },
	{ "weight_nr_accesses", "access weight",
		"quotas/weights/nr_accesses_permil", UI, U_NUM, 0, NA },
	{ "weight_age", "age weight", "quotas/weights/age_permil", UI, U_NUM, 0, NA },
	{ "wmarks_metric", "wmarks metric", "watermarks/metric",
		DAMOS_NR_WMARK_METRICS - 1, U_METRIC, 0, NA },
	{ "wmarks_interval_us", "wmarks interval", "watermarks/interval_us",
		UL, U_US, 0, NA },
	{ "wmarks_high", "wmarks high", "watermarks/high", UL, U_PERMIL, 0, NA },
	{ "wmarks_mid", "wmarks mid", "watermarks/mid", UL, U_PERMIL, 0, NA },
	{ "wmarks_low", "wmarks low", "watermarks/low", UL, U_PERMIL, 0, NA },
	{ "nr_tried", "nr_tried", "stats/nr_tried", UL, U_STAT, 0, NA },
	{ "sz_tried", "sz_tried", "stats/sz_tried", UL, U_STAT, 0, NA },
	{ "nr_applied", "nr_applied", "stats/nr_applied", UL, U_STAT, 0, NA },
	{ "sz_applied", "sz_applied", "stats/sz_applied", UL, U_STAT, 0, NA },
	{ "qt_exceeds", "qt_exceeds", "stats/qt_exceeds", UL, U_STAT, 0, NA },
	{ "apply_interval_us", "apply interval", "apply_interval_us", UL, U_US,
		0, DAMOS_FEAT_APPLY_INTERVAL },
	{ "target_nid", "nid", "target_nid", INT32_MAX, U_NID, DAMOS_NID_NONE,
		DAMOS_FEAT_MIGRATE },
	{ "effective_bytes", "effective_bytes", "quotas/effective_bytes", UL,
		U_STAT, 0, DAMOS_FEAT_EFFECTIVE_BYTES },
	{ "tried_bytes", "tried_bytes", "tried_regions/total_bytes", UL,
		U_STAT, 0, DAMOS_FEAT_TRIED_BYTES },
};
#undef UL
#undef UI
#undef NA

static const char *const ops_names[DAMON_NR_OPS] = {
	[DAMON_OPS_VADDR] = "vaddr",
	[DAMON_OPS_FVADDR] = "fvaddr",
	[DAMON_OPS_PADDR] = "paddr",
};

static const char *const iface_names[] = {
	[DAMON_IFACE_AUTO] = "auto",
	[DAMON_IFACE_SYSFS] = "sysfs",
	[DAMON_IFACE_DBGFS] = "dbgfs",
};

const char *damos_action_name(enum damos_action a)
{
	if ((unsigned int)a >= DAMOS_NR_ACTIONS)
		return damos_err_null(-EINVAL, "%d is not an action", a);
	return damos_actions[a].name;
}

const char *damos_action_desc(enum damos_action a)
{
	if ((unsigned int)a >= DAMOS_NR_ACTIONS)
		return damos_err_null(-EINVAL, "%d is not an action", a);
	return damos_actions[a].desc;
}

/* The names of a table, for a message: its rows' .name or its strings. */
#define NAMES(buf, tbl, member)						\
	damos_join_names(buf, sizeof(buf), &(tbl)[0] member,		\
			 ARRAY_SIZE(tbl), sizeof((tbl)[0]))

int damos_action_from_name(const char *name)
{
	char list[256];

	for (int a = 0; a < DAMOS_NR_ACTIONS; a++)
		if (name && !strcmp(name, damos_actions[a].name))
			return a;
	return damos_err(-EINVAL, "unknown action '%s' (actions: %s)",
			 name ? name : "", NAMES(list, damos_actions, .name));
}

int damos_action_dbgfs_nr(enum damos_action a)
{
	if ((unsigned int)a >= DAMOS_NR_ACTIONS)
		return damos_err(-EINVAL, "%d is not an action", a);
	if (damos_actions[a].dbgfs < 0)
		return damos_err(-EOPNOTSUPP,
				 "dbgfs has no %s (sysfs only, Linux 6.11+)",
				 damos_actions[a].name);
	return damos_actions[a].dbgfs;
}

int damos_action_from_dbgfs(long nr)
{
	for (int a = 0; a < DAMOS_NR_ACTIONS; a++)
		if (damos_actions[a].dbgfs >= 0 && damos_actions[a].dbgfs == nr)
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
	char list[128];
	uint64_t v;

	for (int m = 0; m < DAMOS_NR_WMARK_METRICS; m++)
		if (name && !strcmp(name, metrics[m]))
			return m;
	if (name && !damos_parse_u64(name, &v) && v < DAMOS_NR_WMARK_METRICS)
		return (int)v;
	return damos_err(-EINVAL, "unknown metric '%s' (metrics: %s)",
			 name ? name : "", NAMES(list, metrics, ));
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

const char *damon_ops_name(enum damon_ops o)
{
	if ((unsigned int)o >= DAMON_NR_OPS)
		return damos_err_null(-EINVAL, "%d is not an operations set", o);
	return ops_names[o];
}

const char *damon_iface_name(enum damon_iface i)
{
	if ((unsigned int)i >= ARRAY_SIZE(iface_names))
		return damos_err_null(-EINVAL, "%d is not an interface", i);
	return iface_names[i];
}

int damon_iface_from_name(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(iface_names); i++)
		if (name && !strcmp(name, iface_names[i]))
			return (int)i;
	char list[64];

	return damos_err(-EINVAL, "unknown interface '%s' (interfaces: %s)",
			 name ? name : "", NAMES(list, iface_names, ));
}

bool damos_field_is_stat(enum damos_field f)
{
	return (unsigned int)f < DAMOS_NR_FIELDS &&
	       damos_fields[f].unit == U_STAT;
}

const char *damos_filter_type_name(enum damos_filter_type t)
{
	if ((unsigned int)t >= DAMOS_NR_FILTER_TYPES)
		return damos_err_null(-EINVAL, "%d is not a filter type", t);
	return damos_filter_types[t].name;
}

int damos_filter_type_from_name(const char *name)
{
	for (int t = 0; t < DAMOS_NR_FILTER_TYPES; t++)
		if (name && !strcmp(name, damos_filter_types[t].name))
			return t;
	char list[128];

	return damos_err(-EINVAL, "unknown filter type '%s' (types: %s)",
			 name ? name : "", NAMES(list, damos_filter_types, .name));
}

const char *damos_goal_metric_name(enum damos_goal_metric m)
{
	if ((unsigned int)m >= DAMOS_NR_GOAL_METRICS)
		return damos_err_null(-EINVAL, "%d is not a goal metric", m);
	return damos_goal_metrics[m];
}

int damos_goal_metric_from_name(const char *name)
{
	for (int m = 0; m < DAMOS_NR_GOAL_METRICS; m++)
		if (name && !strcmp(name, damos_goal_metrics[m]))
			return m;
	char list[128];

	return damos_err(-EINVAL, "unknown goal metric '%s' (metrics: %s)",
			 name ? name : "", NAMES(list, damos_goal_metrics, ));
}

const char *damos_feature_name(enum damos_feature f)
{
	if ((unsigned int)f >= DAMOS_NR_FEATURES)
		return damos_err_null(-EINVAL, "%d is not a feature", f);
	return damos_features[f].name;
}
