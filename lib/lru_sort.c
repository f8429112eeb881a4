// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * damon_lru_sort's API of LIBDAMOS_1.0: the module model of module.c
 * (damos_module_*()) under its first names.  struct damos_lru_sort is a
 * struct damos_module of "lru_sort", whose parameter table is in the order
 * of enum damos_lru_param.
 */
#include <errno.h>

#include "internal.h"

#define M(l) ((struct damos_module *)(l))
#define CM(l) ((const struct damos_module *)(l))

const char *const *damos_lru_sort_keywords(void)
{
	static const char *const *kw;

	if (!kw) {
		struct damos_module *m = damos_module_new("lru_sort");

		kw = m ? damos_module_keywords(m) : NULL;	/* static */
		damos_module_free(m);
	}
	return kw;
}

const char *damos_lru_sort_param_name(enum damos_lru_param p)
{
	static const char *const names[DAMOS_LRU_NR_PARAMS] = {
		"hot_thres_access_freq", "cold_min_age", "quota_ms",
		"quota_reset_interval_ms", "wmarks_interval", "wmarks_high",
		"wmarks_mid", "wmarks_low", "sample_interval", "aggr_interval",
		"min_nr_regions", "max_nr_regions", "monitor_region_start",
		"monitor_region_end",
	};

	if ((unsigned int)p >= DAMOS_LRU_NR_PARAMS) {
		errno = EINVAL;
		return NULL;
	}
	return names[p];
}

struct damos_lru_sort *damos_lru_sort_new(void)
{
	return (struct damos_lru_sort *)damos_module_new("lru_sort");
}

void damos_lru_sort_free(struct damos_lru_sort *l)
{
	damos_module_free(M(l));
}

uint64_t damos_lru_sort_get(const struct damos_lru_sort *l,
			    enum damos_lru_param p)
{
	return (unsigned int)p < DAMOS_LRU_NR_PARAMS ? damos_module_get(CM(l), p) : 0;
}

int damos_lru_sort_set(struct damos_lru_sort *l, enum damos_lru_param p,
		       uint64_t v)
{
	if ((unsigned int)p >= DAMOS_LRU_NR_PARAMS)
		return damos_err(-EINVAL, "lru-sort: no parameter %d", p);
	return damos_module_set(M(l), p, v);
}

void damos_lru_sort_overlay(struct damos_lru_sort *dst,
			    const struct damos_lru_sort *src)
{
	damos_module_overlay(M(dst), CM(src));
}

bool damos_lru_sort_enabled(const struct damos_lru_sort *l)
{
	return damos_module_enabled(CM(l));
}

int damos_lru_sort_kdamond_pid(const struct damos_lru_sort *l)
{
	return damos_module_kdamond_pid(CM(l));
}

int damos_lru_sort_parse(struct damos_lru_sort *l, int argc,
			 const char *const *argv)
{
	return damos_module_parse(M(l), argc, argv);
}

int damos_lru_sort_validate(const struct damos_lru_sort *l)
{
	return damos_module_validate(CM(l));
}

int damos_lru_sort_format(const struct damos_lru_sort *l, char *buf,
			  size_t sz)
{
	return damos_module_format(CM(l), buf, sz);
}

struct damos_scheme *damos_lru_sort_scheme(const struct damos_lru_sort *l,
					   enum damos_action a)
{
	if (a != DAMOS_ACTION_LRU_PRIO && a != DAMOS_ACTION_LRU_DEPRIO)
		return damos_err_null(-EINVAL,
				      "damon_lru_sort has lru_prio and lru_deprio schemes only");
	return damos_module_scheme(CM(l), a == DAMOS_ACTION_LRU_DEPRIO);
}

int damos_lru_sort_read(const struct damos_opts *opts,
			struct damos_lru_sort **out)
{
	return damos_module_read(opts, "lru_sort", (struct damos_module **)out);
}

int damos_lru_sort_write(const struct damos_opts *opts,
			 const struct damos_lru_sort *l, int enable,
			 char **script)
{
	return damos_module_write(opts, CM(l), enable, script);
}
