// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * damon_lru_sort's API of LIBDAMOS_1.0: the module model of module.c
 * (damon_module_*()) under its first names.  struct damon_lru_sort is a
 * struct damon_module of "lru_sort", whose parameter table is in the order
 * of enum damon_lru_param.
 */
#include <errno.h>

#include "internal.h"

#define M(l) ((struct damon_module *)(l))
#define CM(l) ((const struct damon_module *)(l))

const char *const *damon_lru_sort_keywords(void)
{
	static const char *const *kw;

	if (!kw) {
		struct damon_module *m = damon_module_new("lru_sort");

		kw = m ? damon_module_keywords(m) : NULL;	/* static */
		damon_module_free(m);
	}
	return kw;
}

const char *damon_lru_sort_param_name(enum damon_lru_param p)
{
	static const char *const names[DAMON_LRU_NR_PARAMS] = {
		"hot_thres_access_freq", "cold_min_age", "quota_ms",
		"quota_reset_interval_ms", "wmarks_interval", "wmarks_high",
		"wmarks_mid", "wmarks_low", "sample_interval", "aggr_interval",
		"min_nr_regions", "max_nr_regions", "monitor_region_start",
		"monitor_region_end",
	};

	if ((unsigned int)p >= DAMON_LRU_NR_PARAMS) {
		errno = EINVAL;
		return NULL;
	}
	return names[p];
}

struct damon_lru_sort *damon_lru_sort_new(void)
{
	return (struct damon_lru_sort *)damon_module_new("lru_sort");
}

void damon_lru_sort_free(struct damon_lru_sort *l)
{
	damon_module_free(M(l));
}

uint64_t damon_lru_sort_get(const struct damon_lru_sort *l,
			    enum damon_lru_param p)
{
	return (unsigned int)p < DAMON_LRU_NR_PARAMS ? damon_module_get(CM(l), p) : 0;
}

int damon_lru_sort_set(struct damon_lru_sort *l, enum damon_lru_param p,
		       uint64_t v)
{
	if ((unsigned int)p >= DAMON_LRU_NR_PARAMS)
		return damos_err(-EINVAL, "lru-sort: no parameter %d", p);
	return damon_module_set(M(l), p, v);
}

void damon_lru_sort_overlay(struct damon_lru_sort *dst,
			    const struct damon_lru_sort *src)
{
	damon_module_overlay(M(dst), CM(src));
}

bool damon_lru_sort_enabled(const struct damon_lru_sort *l)
{
	return damon_module_enabled(CM(l));
}

int damon_lru_sort_kdamond_pid(const struct damon_lru_sort *l)
{
	return damon_module_kdamond_pid(CM(l));
}

int damon_lru_sort_parse(struct damon_lru_sort *l, int argc,
			 const char *const *argv)
{
	return damon_module_parse(M(l), argc, argv);
}

int damon_lru_sort_validate(const struct damon_lru_sort *l)
{
	return damon_module_validate(CM(l));
}

int damon_lru_sort_format(const struct damon_lru_sort *l, char *buf,
			  size_t sz)
{
	return damon_module_format(CM(l), buf, sz);
}

struct damos_scheme *damon_lru_sort_scheme(const struct damon_lru_sort *l,
					   enum damos_action a)
{
	if (a != DAMOS_ACTION_LRU_PRIO && a != DAMOS_ACTION_LRU_DEPRIO)
		return damos_err_null(-EINVAL,
				      "damon_lru_sort has lru_prio and lru_deprio schemes only");
	return damon_module_scheme(CM(l), a == DAMOS_ACTION_LRU_DEPRIO);
}

int damon_lru_sort_read(const struct damon_opts *opts,
			struct damon_lru_sort **out)
{
	return damon_module_read(opts, "lru_sort", (struct damon_module **)out);
}

int damon_lru_sort_write(const struct damon_opts *opts,
			 const struct damon_lru_sort *l, int enable,
			 char **script)
{
	return damon_module_write(opts, CM(l), enable, script);
}
