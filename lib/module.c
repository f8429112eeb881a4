// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * DAMON's modules (damon_lru_sort, damon_reclaim): one model for both.  A
 * module is a table: its parameters (the files below
 * <root>/sys/module/<name>/parameters, names and defaults of
 * mm/damon/<module>.c and modules-common.h), its keyword grammar in the
 * units of schemes, its statistics and the schemes it builds.  Reading,
 * checking, formatting and the one transaction that writes are the same
 * code for every module.  (damon_stat, mm/damon/stat.c, came after 6.12:
 * neither Debian's 6.1 nor its 6.12 has it.)
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

#define MOD_MAX_PARAMS	24
#define MOD_NR_STATS	5	/* DAMOS_F_NR_TRIED .. DAMOS_F_QT_EXCEEDS */

/* How a parameter is read and written by the user, not by the kernel. */
enum mod_unit {
	M_RATE,		/* per mille of the samples; N%, min, max */
	M_PERMIL,	/* per mille of free memory; N% */
	M_US, M_MS,	/* a time */
	M_SIZE,		/* bytes */
	M_COUNT,
	M_ADDR,
	M_BOOL,		/* Y or N; on, off */
};

struct mod_param {
	const char *file;
	uint64_t def;		/* the kernel's default */
	enum mod_unit unit;
	const char *since;	/* a later kernel's only: its first release */
};

/* A keyword: @nr values for the parameters from @first, or sub-keywords. */
struct mod_sub {
	const char *kw;
	const char *param;
};

struct mod_kw {
	const char *kw;
	int nr;
	const char *first;
	const struct mod_sub *sub;	/* nr 0: each sub-keyword one value */
	const char *args, *help;
};

struct mod_scheme {
	enum damos_action action;
	const char *label;		/* "hot", "cold" */
	const char *stats[MOD_NR_STATS];
};

struct damon_module;

struct mod_info {
	const char *name;		/* damoctl's: "lru_sort" */
	const char *kname;		/* the kernel's: "damon_lru_sort" */
	const struct mod_param *params;
	size_t nr_params;
	const struct mod_kw *kws;
	const char *const *kw_names;
	const struct mod_scheme *schemes;
	size_t nr_schemes;
	int (*validate)(const struct damon_module *m);
	int (*scheme)(const struct damon_module *m, size_t i,
		      struct damos_scheme *s);
};

struct damon_module {
	const struct mod_info *info;
	uint64_t v[MOD_MAX_PARAMS];
	uint32_t given;		/* parameters set by the caller */
	uint32_t absent;	/* parameters this kernel does not have */
	bool enabled;
	int pid;
	uint64_t stats[2][MOD_NR_STATS];
	char release[64];	/* <root>/proc/sys/kernel/osrelease, or "" */
};

static int pidx(const struct mod_info *mi, const char *file)
{
	for (size_t i = 0; i < mi->nr_params; i++)
		if (!strcmp(mi->params[i].file, file))
			return (int)i;
	return -1;
}

static uint64_t val(const struct damon_module *m, const char *file)
{
	int i = pidx(m->info, file);

	return i >= 0 ? m->v[i] : 0;
}

#define COMMON_KWS(what)						\
	{ "wmarks", 4, "wmarks_interval", NULL, "INTERVAL HIGH MID LOW",	\
	  "free memory in N% or per mille, checked every INTERVAL: " what " works between LOW and MID" }, \
	{ "sample", 1, "sample_interval", NULL, "TIME", "sampling interval (bare: us)" }, \
	{ "aggr", 1, "aggr_interval", NULL, "TIME", "aggregation interval (bare: us)" }, \
	{ "regions", 2, "min_nr_regions", NULL, "MIN MAX", "number of monitoring regions" }, \
	{ "region", 2, "monitor_region_start", NULL, "START END",	\
	  "physical address range: 0xHEX or sizes; 0 0 is the biggest System RAM" }

#define COMMON_PARAMS(wh, wm, wl)					\
	{ "wmarks_interval", 5000000, M_US, NULL },			\
	{ "wmarks_high", wh, M_PERMIL, NULL },				\
	{ "wmarks_mid", wm, M_PERMIL, NULL },				\
	{ "wmarks_low", wl, M_PERMIL, NULL },				\
	{ "sample_interval", 5000, M_US, NULL },			\
	{ "aggr_interval", 100000, M_US, NULL },			\
	{ "min_nr_regions", 10, M_COUNT, NULL },			\
	{ "max_nr_regions", 1000, M_COUNT, NULL },			\
	{ "monitor_region_start", 0, M_ADDR, NULL },			\
	{ "monitor_region_end", 0, M_ADDR, NULL }

/* ------------------------------------------------------------------------
 * damon_lru_sort (mm/damon/lru_sort.c), in its order.
 */
static const struct mod_param lru_sort_params[] = {
	{ "hot_thres_access_freq", 500, M_RATE, NULL },
	{ "cold_min_age", 120000000, M_US, NULL },
	{ "quota_ms", 10, M_MS, NULL },
	{ "quota_reset_interval_ms", 1000, M_MS, NULL },
	COMMON_PARAMS(200, 150, 50),
};

static const struct mod_sub lru_sort_quota[] = {
	{ "time", "quota_ms" }, { "reset", "quota_reset_interval_ms" }, { NULL },
};

static const struct mod_kw lru_sort_kws[] = {
	{ "hot", 1, "hot_thres_access_freq", NULL, "RATE",
	  "access rate from which a region is hot: N% or per mille; min, max" },
	{ "cold", 1, "cold_min_age", NULL, "TIME",
	  "how long a region must go unaccessed to be cold (bare: us)" },
	{ "quota", 0, NULL, lru_sort_quota, "[time MS] [reset MS]",
	  "CPU time per reset interval (bare: ms), half of it for each scheme" },
	COMMON_KWS("the module"),
	{ NULL },
};

static const char *const lru_sort_kw_names[] = {
	"hot", "cold", "quota", "wmarks", "sample", "aggr", "regions",
	"region", NULL,
};

static const struct mod_scheme lru_sort_schemes[] = {
	{ DAMOS_ACTION_LRU_PRIO, "hot",
	  { "nr_lru_sort_tried_hot_regions", "bytes_lru_sort_tried_hot_regions",
	    "nr_lru_sorted_hot_regions", "bytes_lru_sorted_hot_regions",
	    "nr_hot_quota_exceeds" } },
	{ DAMOS_ACTION_LRU_DEPRIO, "cold",
	  { "nr_lru_sort_tried_cold_regions", "bytes_lru_sort_tried_cold_regions",
	    "nr_lru_sorted_cold_regions", "bytes_lru_sorted_cold_regions",
	    "nr_cold_quota_exceeds" } },
};

/* ------------------------------------------------------------------------
 * damon_reclaim (mm/damon/reclaim.c).
 */
static const struct mod_param reclaim_params[] = {
	{ "min_age", 120000000, M_US, NULL },
	{ "quota_ms", 10, M_MS, NULL },
	{ "quota_sz", 128 << 20, M_SIZE, NULL },
	{ "quota_reset_interval_ms", 1000, M_MS, NULL },
	{ "quota_mem_pressure_us", 0, M_US, "6.9" },
	{ "quota_autotune_feedback", 0, M_COUNT, "6.9" },
	COMMON_PARAMS(500, 400, 200),
	/* the module skips anon pages with a DAMOS filter: both came in 6.3 */
	{ "skip_anon", 0, M_BOOL, "6.3" },
};

static const struct mod_sub reclaim_quota[] = {
	{ "time", "quota_ms" }, { "size", "quota_sz" },
	{ "reset", "quota_reset_interval_ms" }, { NULL },
};

static const struct mod_kw reclaim_kws[] = {
	{ "cold", 1, "min_age", NULL, "TIME",
	  "how long a region must go unaccessed to be paged out (bare: us)" },
	{ "quota", 0, NULL, reclaim_quota, "[time MS] [size BYTES] [reset MS]",
	  "at most time of CPU and size of memory every reset (bare: ms)" },
	{ "pressure", 1, "quota_mem_pressure_us", NULL, "TIME",
	  "tune the quota for this much memory pressure stall per reset interval; 0 off (Linux 6.9+)" },
	{ "feedback", 1, "quota_autotune_feedback", NULL, "N",
	  "tune the quota for this feedback to reach 10000; 0 off (Linux 6.9+)" },
	COMMON_KWS("the module"),
	{ "skip_anon", 1, "skip_anon", NULL, "on|off",
	  "leave anonymous pages alone (Linux 6.3+)" },
	{ NULL },
};

static const char *const reclaim_kw_names[] = {
	"cold", "quota", "pressure", "feedback", "wmarks", "sample", "aggr",
	"regions", "region", "skip_anon", NULL,
};

static const struct mod_scheme reclaim_schemes[] = {
	{ DAMOS_ACTION_PAGEOUT, "cold",
	  { "nr_reclaim_tried_regions", "bytes_reclaim_tried_regions",
	    "nr_reclaimed_regions", "bytes_reclaimed_regions",
	    "nr_quota_exceeds" } },
};

static int lru_sort_validate(const struct damon_module *m);
static int lru_sort_scheme(const struct damon_module *m, size_t i,
			   struct damos_scheme *s);
static int reclaim_validate(const struct damon_module *m);
static int reclaim_scheme(const struct damon_module *m, size_t i,
			  struct damos_scheme *s);

static const struct mod_info modules[] = {
	{ "lru_sort", "damon_lru_sort", lru_sort_params,
	  ARRAY_SIZE(lru_sort_params), lru_sort_kws, lru_sort_kw_names,
	  lru_sort_schemes, ARRAY_SIZE(lru_sort_schemes), lru_sort_validate,
	  lru_sort_scheme },
	{ "reclaim", "damon_reclaim", reclaim_params,
	  ARRAY_SIZE(reclaim_params), reclaim_kws, reclaim_kw_names,
	  reclaim_schemes, ARRAY_SIZE(reclaim_schemes), reclaim_validate,
	  reclaim_scheme },
};

static const char *const module_names[] = { "lru_sort", "reclaim", NULL };


const char *const *damon_module_names(void)
{
	return module_names;
}

static const struct mod_info *info_of(const char *name)
{
	for (size_t i = 0; name && i < ARRAY_SIZE(modules); i++)
		if (!strcmp(modules[i].name, name) ||
		    !strcmp(modules[i].kname, name))
			return &modules[i];
	return NULL;
}

/* The module @name; NULL with a message. */
static const struct mod_info *module_named(const char *name)
{
	const struct mod_info *mi = info_of(name);

	if (!mi)
		return damos_err_null(-ENOENT, "no DAMON module '%s' (expected lru_sort or reclaim)",
				      name ? name : "");
	return mi;
}

struct damon_module *damon_module_new(const char *name)
{
	const struct mod_info *mi = module_named(name);
	struct damon_module *m;

	if (!mi)
		return NULL;
	m = calloc(1, sizeof(*m));
	if (!m)
		return damos_err_null(-ENOMEM, "out of memory");
	m->info = mi;
	for (size_t p = 0; p < mi->nr_params; p++)
		m->v[p] = mi->params[p].def;
	m->pid = -1;
	return m;
}

void damon_module_free(struct damon_module *m)
{
	free(m);
}

const char *damon_module_name(const struct damon_module *m)
{
	return m->info->name;
}

const char *damon_module_kernel_name(const struct damon_module *m)
{
	return m->info->kname;
}

size_t damon_module_nr_params(const struct damon_module *m)
{
	return m->info->nr_params;
}

const char *damon_module_param_name(const struct damon_module *m, size_t p)
{
	if (p >= m->info->nr_params) {
		errno = EINVAL;
		return NULL;
	}
	return m->info->params[p].file;
}

int damon_module_param_index(const struct damon_module *m, const char *file)
{
	int i = pidx(m->info, file);

	return i >= 0 ? i : damos_err(-ENOENT, "%s has no parameter '%s'",
				      m->info->kname, file);
}

bool damon_module_param_present(const struct damon_module *m, size_t p)
{
	return p < m->info->nr_params && !(m->absent & (1U << p));
}

uint64_t damon_module_get(const struct damon_module *m, size_t p)
{
	return p < m->info->nr_params ? m->v[p] : 0;
}

int damon_module_set(struct damon_module *m, size_t p, uint64_t v)
{
	if (p >= m->info->nr_params)
		return damos_err(-EINVAL, "%s: no parameter %zu", m->info->kname, p);
	if (v > DAMOS_ULONG_MAX || (m->info->params[p].unit == M_BOOL && v > 1))
		return damos_err(-ERANGE, "%s: %llu is out of range",
				 m->info->params[p].file, (unsigned long long)v);
	m->v[p] = v;
	m->given |= 1U << p;
	return 0;
}

void damon_module_overlay(struct damon_module *dst,
			  const struct damon_module *src)
{
	if (dst->info != src->info)
		return;
	for (size_t p = 0; p < src->info->nr_params; p++)
		if (src->given & (1U << p))
			damon_module_set(dst, p, src->v[p]);
}

bool damon_module_enabled(const struct damon_module *m)
{
	return m->enabled;
}

int damon_module_kdamond_pid(const struct damon_module *m)
{
	return m->pid;
}

const char *const *damon_module_keywords(const struct damon_module *m)
{
	return m->info->kw_names;
}

int damon_module_keyword(const struct damon_module *m, size_t i,
			 struct damon_module_kw *out)
{
	const struct mod_kw *k;
	size_t n = 0;

	while (m->info->kws[n].kw)
		n++;
	if (i >= n || !out || out->sz < sizeof(*out))
		return -EINVAL;
	k = &m->info->kws[i];
	out->kw = k->kw;
	out->nr_values = k->nr;
	out->args = k->args;
	out->help = k->help;
	out->nr_subs = 0;
	out->first = k->first ? (size_t)pidx(m->info, k->first) : 0;
	for (size_t s = 0; k->sub && k->sub[s].kw && s < ARRAY_SIZE(out->subs); s++) {
		out->subs[s] = k->sub[s].kw;
		out->sub_params[s] = (size_t)pidx(m->info, k->sub[s].param);
		out->nr_subs++;
	}
	return 0;
}

/* One value in the user's units; @kw names it in messages. */
static int set_value(struct damon_module *m, int p, const char *kw,
		     const char *s)
{
	const struct mod_param *mp = &m->info->params[p];
	uint64_t v;
	int err;

	switch (mp->unit) {
	case M_RATE:
		if (!strcmp(s, "min") || !strcmp(s, "max")) {
			v = s[1] == 'i' ? 0 : 1000;
			break;
		}
		/* fall through */
	case M_PERMIL:
		err = strchr(s, '%') ? damos_parse_percent(s, 1000, &v) :
				       damos_parse_u64(s, &v);
		if (err)
			return damos_err(-EINVAL,
					 "%s: '%s' is not a rate (N%% with at most one decimal, or a bare per-mille number)",
					 kw, s);
		break;
	case M_US:
	case M_MS:
		err = damos_parse_time_us(s, mp->unit == M_MS ? 1000 : 1, &v);
		if (err)
			return damos_err_prefix(err, "%s: ", kw);
		if (mp->unit == M_MS) {
			if (v % 1000)
				return damos_err(-EINVAL,
						 "%s: '%s' is not a whole number of milliseconds",
						 kw, s);
			v /= 1000;
		}
		break;
	case M_SIZE:
		err = damos_parse_size(s, &v);
		if (err)
			return damos_err_prefix(err, "%s: ", kw);
		break;
	case M_COUNT:
		if (damos_parse_u64(s, &v))
			return damos_err(-EINVAL, "%s: '%s' is %s", kw, s,
					 damos_parse_u64(s, &v) == -ERANGE ?
					 "too large" : "not a number");
		break;
	case M_BOOL:
		if (!strcmp(s, "on") || !strcmp(s, "Y") || !strcmp(s, "y") ||
		    !strcmp(s, "1"))
			v = 1;
		else if (!strcmp(s, "off") || !strcmp(s, "N") ||
			 !strcmp(s, "n") || !strcmp(s, "0"))
			v = 0;
		else
			return damos_err(-EINVAL, "%s: '%s' is not on or off",
					 kw, s);
		break;
	case M_ADDR:
	default:
		if (damos_parse_addr(s, &v))
			return damos_err_prefix(-EINVAL, "%s: ", kw);
		break;
	}
	if (v > DAMOS_ULONG_MAX)
		return damos_err(-ERANGE, "%s: '%s' is out of range", kw, s);
	return damon_module_set(m, (size_t)p, v);
}

static int expected_err(const struct mod_info *mi, const char *word)
{
	struct damos_buf b = { 0 };
	int err;

	for (size_t k = 0; mi->kws[k].kw; k++)
		damos_buf_printf(&b, "%s%s", k ? " " : "", mi->kws[k].kw);
	err = damos_err(-EINVAL, "unknown keyword '%s' (expected %s)", word,
			b.s ? b.s : "");
	damos_buf_free(&b);
	return err;
}

int damon_module_parse(struct damon_module *m, int argc,
		       const char *const *argv)
{
	const struct mod_info *mi = m->info;
	bool seen[16] = { false };
	int i = 0, err;

	while (i < argc) {
		const struct mod_kw *k;
		size_t n;

		for (n = 0; mi->kws[n].kw; n++)
			if (!strcmp(argv[i], mi->kws[n].kw))
				break;
		k = &mi->kws[n];
		if (!k->kw)
			return expected_err(mi, argv[i]);
		if (seen[n])
			return damos_err(-EINVAL, "%s given twice", k->kw);
		seen[n] = true;
		i++;
		if (k->sub) {
			uint32_t got = 0;

			for (;;) {
				size_t s;
				char label[64];

				for (s = 0; i < argc && k->sub[s].kw; s++)
					if (!strcmp(argv[i], k->sub[s].kw))
						break;
				if (i >= argc || !k->sub[s].kw || (got & (1U << s)))
					break;
				if (i + 1 >= argc)
					return damos_err(-EINVAL,
							 "%s %s: expected a value",
							 k->kw, argv[i]);
				snprintf(label, sizeof(label), "%s %s", k->kw,
					 k->sub[s].kw);
				err = set_value(m, pidx(mi, k->sub[s].param),
						label, argv[i + 1]);
				if (err)
					return err;
				got |= 1U << s;
				i += 2;
			}
			if (!got) {
				struct damos_buf b = { 0 };

				for (size_t s = 0; k->sub[s].kw; s++)
					damos_buf_printf(&b, "%s%s VALUE",
							 s ? " and/or " : "",
							 k->sub[s].kw);
				err = damos_err(-EINVAL, "%s: expected %s", k->kw,
						b.s ? b.s : "values");
				damos_buf_free(&b);
				return err;
			}
			continue;
		}
		if (i + k->nr > argc)
			return damos_err(-EINVAL, "%s: expected %d value%s",
					 k->kw, k->nr, k->nr > 1 ? "s" : "");
		for (int j = 0; j < k->nr; j++) {
			err = set_value(m, pidx(mi, k->first) + j, k->kw,
					argv[i + j]);
			if (err)
				return err;
		}
		i += k->nr;
	}
	return 0;
}

static void fmt_rate(struct damos_buf *b, uint64_t permil)
{
	if (permil % 10)
		damos_buf_printf(b, "%llu.%llu%%",
				 (unsigned long long)permil / 10,
				 (unsigned long long)permil % 10);
	else
		damos_buf_printf(b, "%llu%%", (unsigned long long)permil / 10);
}

/* "@what N% is more than 100%", in the unit the user gave rates in */
static int over_100(const char *what, uint64_t permil)
{
	struct damos_buf b = { 0 };
	int err;

	damos_buf_printf(&b, "%s ", what);
	fmt_rate(&b, permil);
	damos_buf_printf(&b, " is more than 100%%");
	err = damos_err(-EINVAL, "%s", b.s ? b.s : what);
	damos_buf_free(&b);
	return err;
}

static void mod_attrs(const struct damon_module *m, struct damon_attrs *a)
{
	memset(a, 0, sizeof(*a));
	a->sz = sizeof(*a);
	a->sample_us = val(m, "sample_interval");
	a->aggr_us = val(m, "aggr_interval");
	a->update_us = a->aggr_us;
	a->min_nr_regions = val(m, "min_nr_regions");
	a->max_nr_regions = val(m, "max_nr_regions");
}

/* A minimum age in us the kernel divides into an unsigned int. */
static int age_fits(const struct damon_module *m, const char *file)
{
	uint64_t aggr = val(m, "aggr_interval");

	if (aggr && val(m, file) / aggr > DAMOS_UINT_MAX)
		return damos_err(-EINVAL,
				 "cold: %lluus is more than 2^32 aggregation intervals",
				 (unsigned long long)val(m, file));
	return 0;
}

static int lru_sort_validate(const struct damon_module *m)
{
	struct damon_attrs a;
	uint64_t freq = val(m, "hot_thres_access_freq"), hot;

	mod_attrs(m, &a);
	if (freq > 1000)
		return over_100("hot", freq);
	/* the module stores both thresholds in unsigned ints, truncating */
	if (__builtin_mul_overflow(damon_attrs_max_nr_accesses(&a), freq, &hot) ||
	    hot / 1000 > DAMOS_UINT_MAX)
		return damos_err(-EINVAL,
				 "hot: %llu per mille of %llu samples per aggregation interval is more than 2^32 samples",
				 (unsigned long long)freq,
				 (unsigned long long)damon_attrs_max_nr_accesses(&a));
	if (age_fits(m, "cold_min_age"))
		return -EINVAL;
	/* the module gives each of its two schemes half of quota_ms */
	if (val(m, "quota_ms") == 1)
		return damos_err(-EINVAL,
				 "quota time: 1ms is halved to 0 for each scheme, which means no quota: use 0 (none) or at least 2ms");
	return 0;
}

static int reclaim_validate(const struct damon_module *m)
{
	return age_fits(m, "min_age");
}

int damon_module_validate(const struct damon_module *m)
{
	static const char *const wmarks[] = {
		"wmarks: high", "wmarks: mid", "wmarks: low",
	};
	static const char *const wfiles[] = {
		"wmarks_high", "wmarks_mid", "wmarks_low",
	};
	struct damon_attrs a;
	uint64_t w[3], start, end;
	int err;

	mod_attrs(m, &a);
	err = damon_attrs_validate(&a);
	if (err)
		return err;
	if (m->info->validate && (err = m->info->validate(m)))
		return err;
	for (int i = 0; i < 3; i++) {
		w[i] = val(m, wfiles[i]);
		if (w[i] > 1000)
			return over_100(wmarks[i], w[i]);
	}
	if (w[0] < w[1] || w[1] < w[2]) {
		struct damos_buf b = { 0 };

		damos_buf_printf(&b, "wmarks: high ");
		fmt_rate(&b, w[0]);
		damos_buf_printf(&b, " >= mid ");
		fmt_rate(&b, w[1]);
		damos_buf_printf(&b, " >= low ");
		fmt_rate(&b, w[2]);
		damos_buf_printf(&b, " does not hold");
		err = damos_err(-EINVAL, "%s", b.s ? b.s : "wmarks: not ordered");
		damos_buf_free(&b);
		return err;
	}
	start = val(m, "monitor_region_start");
	end = val(m, "monitor_region_end");
	if (start > end || (start == end && start))
		return damos_err(-EINVAL,
				 "region: 0x%llx 0x%llx is empty (start < end, or 0 0 for the biggest System RAM)",
				 (unsigned long long)start, (unsigned long long)end);
	return 0;
}

/* Parameter @p in the grammar's units. */
static void fmt_value(struct damos_buf *b, const struct damon_module *m,
		      size_t p)
{
	uint64_t v = m->v[p];
	char t[32];

	switch (m->info->params[p].unit) {
	case M_RATE:
	case M_PERMIL:
		fmt_rate(b, v);
		break;
	case M_US:
		damos_buf_printf(b, "%s", damos_format_time_us(v, t, sizeof(t)));
		break;
	case M_MS:
		damos_buf_printf(b, "%s", damos_format_time_us(v * 1000, t, sizeof(t)));
		break;
	case M_SIZE:
		damos_buf_printf(b, "%s", damos_format_size(v, t, sizeof(t)));
		break;
	case M_ADDR:
		damos_buf_printf(b, "0x%llx", (unsigned long long)v);
		break;
	case M_BOOL:
		damos_buf_printf(b, "%s", v ? "on" : "off");
		break;
	case M_COUNT:
	default:
		damos_buf_printf(b, "%llu", (unsigned long long)v);
		break;
	}
}

/* Keyword @k's values (not the keyword), or "" if this kernel lacks them. */
static void fmt_kw(struct damos_buf *b, const struct damon_module *m,
		   const struct mod_kw *k)
{
	const struct mod_info *mi = m->info;

	if (k->sub) {
		bool any = false;

		for (size_t s = 0; k->sub[s].kw; s++) {
			int p = pidx(mi, k->sub[s].param);

			if (m->absent & (1U << p))
				continue;
			damos_buf_printf(b, "%s%s ", any ? " " : "", k->sub[s].kw);
			fmt_value(b, m, (size_t)p);
			any = true;
		}
		return;
	}
	for (int j = 0; j < k->nr; j++) {
		int p = pidx(mi, k->first) + j;

		if (m->absent & (1U << p))
			return;
		if (j)
			damos_buf_printf(b, " ");
		fmt_value(b, m, (size_t)p);
	}
}

static int buf_out(struct damos_buf *b, char *buf, size_t sz)
{
	int n;

	if (b->err) {
		damos_buf_free(b);
		return damos_err(-ENOMEM, "out of memory");
	}
	n = (int)b->len;
	if (sz)
		snprintf(buf, sz, "%s", b->s ? b->s : "");
	damos_buf_free(b);
	return n;
}

int damon_module_keyword_format(const struct damon_module *m, size_t i,
				char *buf, size_t sz)
{
	struct damos_buf b = { 0 };
	size_t n = 0;

	while (m->info->kws[n].kw)
		n++;
	if (i >= n)
		return damos_err(-EINVAL, "no keyword %zu", i);
	fmt_kw(&b, m, &m->info->kws[i]);
	return buf_out(&b, buf, sz);
}

int damon_module_format(const struct damon_module *m, char *buf, size_t sz)
{
	struct damos_buf b = { 0 };

	for (size_t k = 0; m->info->kws[k].kw; k++) {
		struct damos_buf v = { 0 };

		fmt_kw(&v, m, &m->info->kws[k]);
		if (v.len)
			damos_buf_printf(&b, "%s%s %s", b.len ? " " : "",
					 m->info->kws[k].kw, v.s);
		b.err |= v.err;
		damos_buf_free(&v);
	}
	return buf_out(&b, buf, sz);
}

/* What damon_lru_sort_apply_parameters() builds for its two schemes. */
static int lru_sort_scheme(const struct damon_module *m, size_t i,
			   struct damos_scheme *s)
{
	struct damon_attrs at;

	mod_attrs(m, &at);
	if (i) {
		s->v[DAMOS_F_MAX_NR_ACCESSES] = 0;
		s->v[DAMOS_F_MIN_AGE] = val(m, "cold_min_age") / at.aggr_us;
	} else {
		s->v[DAMOS_F_MIN_NR_ACCESSES] = damon_attrs_max_nr_accesses(&at) *
			val(m, "hot_thres_access_freq") / 1000;
	}
	s->v[DAMOS_F_QUOTA_MS] = val(m, "quota_ms") / 2;
	s->v[DAMOS_F_QUOTA_SZ] = 0;
	s->v[DAMOS_F_WEIGHT_SZ] = 0;
	s->v[DAMOS_F_WEIGHT_NR_ACCESSES] = 1;
	s->v[DAMOS_F_WEIGHT_AGE] = 0;
	return 0;
}

/* damon_reclaim_new_scheme() and damon_reclaim_apply_parameters() */
static int reclaim_scheme(const struct damon_module *m, size_t i,
			  struct damos_scheme *s)
{
	uint64_t aggr = val(m, "aggr_interval");
	int err = 0;

	(void)i;
	s->v[DAMOS_F_MIN_NR_ACCESSES] = 0;
	s->v[DAMOS_F_MAX_NR_ACCESSES] = 0;
	s->v[DAMOS_F_MIN_AGE] = val(m, "min_age") / aggr;
	s->v[DAMOS_F_QUOTA_MS] = val(m, "quota_ms");
	s->v[DAMOS_F_QUOTA_SZ] = val(m, "quota_sz");
	s->v[DAMOS_F_WEIGHT_SZ] = 0;
	s->v[DAMOS_F_WEIGHT_NR_ACCESSES] = 0;
	s->v[DAMOS_F_WEIGHT_AGE] = 1;
	if (val(m, "quota_mem_pressure_us")) {
		struct damos_goal_info g = {
			.sz = sizeof(g), .metric = DAMOS_GOAL_SOME_MEM_PSI_US,
			.target = val(m, "quota_mem_pressure_us"),
		};

		err = damos_scheme_add_goal(s, &g);
	}
	if (!err && val(m, "quota_autotune_feedback")) {
		struct damos_goal_info g = {
			.sz = sizeof(g), .metric = DAMOS_GOAL_USER_INPUT,
			.target = 10000,
			.current = val(m, "quota_autotune_feedback"),
		};

		err = damos_scheme_add_goal(s, &g);
	}
	if (!err && val(m, "skip_anon")) {
		struct damos_filter_info f = {
			.sz = sizeof(f), .type = DAMOS_FILTER_ANON, .matching = true,
		};

		err = damos_scheme_add_filter(s, &f);
	}
	return err;
}

size_t damon_module_nr_schemes(const struct damon_module *m)
{
	return m->info->nr_schemes;
}

const char *damon_module_scheme_label(const struct damon_module *m, size_t i)
{
	return i < m->info->nr_schemes ? m->info->schemes[i].label : NULL;
}

struct damos_scheme *damon_module_scheme(const struct damon_module *m,
					 size_t i)
{
	struct damos_scheme *s;
	int err;

	if (i >= m->info->nr_schemes)
		return damos_err_null(-EINVAL, "%s has %zu scheme%s", m->info->kname,
				      m->info->nr_schemes,
				      m->info->nr_schemes > 1 ? "s" : "");
	if (!val(m, "sample_interval") || !val(m, "aggr_interval"))
		return damos_err_null(-EINVAL, "sample or aggregation interval is 0");
	s = damos_scheme_new(m->info->schemes[i].action);
	if (!s)
		return NULL;
	s->v[DAMOS_F_MIN_SZ] = damos_page_size();
	s->v[DAMOS_F_QUOTA_RESET_MS] = val(m, "quota_reset_interval_ms");
	s->v[DAMOS_F_WMARKS_METRIC] = DAMOS_WMARK_FREE_MEM_RATE;
	s->v[DAMOS_F_WMARKS_INTERVAL_US] = val(m, "wmarks_interval");
	s->v[DAMOS_F_WMARKS_HIGH] = val(m, "wmarks_high");
	s->v[DAMOS_F_WMARKS_MID] = val(m, "wmarks_mid");
	s->v[DAMOS_F_WMARKS_LOW] = val(m, "wmarks_low");
	err = m->info->scheme(m, i, s);
	if (err) {
		damos_scheme_free(s);
		errno = -err;
		return NULL;
	}
	for (int f = 0; f < MOD_NR_STATS; f++)
		s->v[DAMOS_F_NR_TRIED + f] = m->stats[i][f];
	return s;
}

/* ------------------------------------------------------------------------
 * The module's files.
 */

static char *mod_dir(const char *root, const struct mod_info *mi)
{
	return damos_path("%s/sys/module/%s/parameters", root, mi->kname);
}

char *damon_module_dir(const char *root, const char *name)
{
	const struct mod_info *mi = module_named(name);
	char *r, *p;

	if (!mi)
		return NULL;
	r = damos_root_norm(root);
	p = r ? mod_dir(r, mi) : NULL;
	free(r);
	return p ? p : damos_err_null(-ENOMEM, "out of memory");
}

/*
 * A handle that is only a root, its I/O stack and the module's directory
 * (d->top, which a transaction keeps a copy of).
 */
static struct damon_ctx *mod_open(const struct damon_opts *opts,
				  const struct mod_info *mi, char **dir)
{
	struct damon_opts o = DAMON_OPTS_INIT;
	struct damon_ctx *d;
	int err;

	if (damon_opts_get(opts, &o)) {
		errno = EINVAL;
		return NULL;
	}
	d = calloc(1, sizeof(*d));
	if (!d)
		return damos_err_null(-ENOMEM, "out of memory");
	d->root = damos_root_norm(o.root);
	*dir = d->root ? mod_dir(d->root, mi) : NULL;
	if (!*dir) {
		damon_close(d);
		return damos_err_null(-ENOMEM, "out of memory");
	}
	if (!damos_exists(d, *dir)) {
		damos_err(-ENOENT, "%s is not in this kernel: %s does not exist",
			  mi->kname, *dir);
		free(*dir);
		damon_close(d);
		errno = ENOENT;
		return NULL;
	}
	/* no fake kernel: the module's parameters are plain files anyway */
	err = damos_io_open(d, &o, 0);
	if (err) {
		free(*dir);
		damon_close(d);
		errno = -err;
		return NULL;
	}
	d->top = strdup(*dir);
	if (!d->top) {
		free(*dir);
		damon_close(d);
		return damos_err_null(-ENOMEM, "out of memory");
	}
	return d;
}

static int read_param(struct damon_ctx *d, const char *dir, const char *file,
		      enum mod_unit unit, uint64_t *v)
{
	char *p = damos_path("%s/%s", dir, file), word[16];
	int err;

	if (!p)
		return damos_err(-ENOMEM, "out of memory");
	if (unit == M_BOOL) {
		err = damos_read_word(d, p, word, sizeof(word));
		*v = !err && (word[0] == 'Y' || word[0] == 'y' || word[0] == '1');
	} else {
		err = damos_read_u64(d, p, v);
	}
	free(p);
	return err;
}

static int read_all(struct damon_ctx *d, const char *dir, struct damon_module *m)
{
	const struct mod_info *mi = m->info;
	char word[64], *p;
	int err = 0;

	m->absent = 0;
	for (size_t i = 0; !err && i < mi->nr_params; i++) {
		if (mi->params[i].since) {
			char *f = damos_path("%s/%s", dir, mi->params[i].file);
			bool there = f && damos_exists(d, f);

			free(f);
			if (!there) {
				m->absent |= 1U << i;
				m->v[i] = mi->params[i].def;
				continue;
			}
		}
		err = read_param(d, dir, mi->params[i].file, mi->params[i].unit,
				 &m->v[i]);
	}
	for (size_t h = 0; !err && h < mi->nr_schemes; h++)
		for (int f = 0; !err && f < MOD_NR_STATS; f++)
			err = read_param(d, dir, mi->schemes[h].stats[f], M_COUNT,
					 &m->stats[h][f]);
	if (err)
		return err;
	p = damos_path("%s/enabled", dir);
	err = p ? damos_read_word(d, p, word, sizeof(word)) : -ENOMEM;
	free(p);
	if (err)
		return err;
	m->enabled = word[0] == 'Y' || word[0] == 'y' || word[0] == '1';
	p = damos_path("%s/kdamond_pid", dir);
	err = p ? damos_read_word(d, p, word, sizeof(word)) : -ENOMEM;
	free(p);
	if (err)
		return err;
	m->pid = atoi(word);
	if (m->pid <= 0)
		m->pid = -1;
	m->given = 0;
	m->release[0] = '\0';
	p = damos_path("%s/proc/sys/kernel/osrelease", d->root);
	if (p && damos_exists(d, p) && !damos_read_word(d, p, word, sizeof(word)))
		snprintf(m->release, sizeof(m->release), "%s", word);
	free(p);
	return 0;
}

int damon_module_read(const struct damon_opts *opts, const char *name,
		      struct damon_module **out)
{
	const struct mod_info *mi = info_of(name);
	struct damon_module *m;
	char *dir;
	struct damon_ctx *d;
	int err;

	if (!mi)
		return damos_err(-ENOENT, "no DAMON module '%s' (expected lru_sort or reclaim)",
				 name ? name : "");
	d = mod_open(opts, mi, &dir);
	if (!d)
		return -errno;
	m = damon_module_new(mi->name);
	err = m ? read_all(d, dir, m) : -ENOMEM;
	free(dir);
	damon_close(d);
	if (err) {
		damon_module_free(m);
		return err;
	}
	*out = m;
	return 0;
}

static int write_word(struct damon_ctx *d, const char *dir, const char *file,
		      const char *word)
{
	char *p = damos_path("%s/%s", dir, file);
	int err = p ? damos_write(d, p, word) : -ENOMEM;

	free(p);
	return err;
}

/*
 * Linux 6.1's modules stop their kdamond from a work item after "N" is
 * written, and their enabled reads whether it runs: wait (up to 5 s) for
 * it to read N, so that a start right after does not meet the module.
 */
static void wait_off(struct damon_ctx *d, const char *dir)
{
	char *p = damos_path("%s/enabled", dir);

	for (int i = 0; p && i < 250 && damos_word_is(d, p, "Y"); i++)
		usleep(20000);
	free(p);
}

/*
 * Disable first (so the parameters wait for the next start), enable last
 * (so the kdamond starts with them); a running module takes them through
 * commit_inputs, which it reads at its next aggregation or watermarks
 * check.  All of it one transaction: a failed write puts back the files.
 */
static int write_module(struct damon_ctx *d, const char *dir,
			const struct damon_module *m, int enable)
{
	const struct mod_info *mi = m->info;
	struct damon_module cur = { .info = mi };
	bool changed = false, on;
	int err;

	err = read_all(d, dir, &cur);
	on = cur.enabled;
	for (size_t i = 0; !err && i < mi->nr_params; i++) {
		const char *rel;

		if (!(cur.absent & (1U << i)) ||
		    (!(m->given & (1U << i)) && m->v[i] == mi->params[i].def))
			continue;
		rel = cur.release[0] ? cur.release : "this kernel";
		return damos_err(-EOPNOTSUPP,
				 "%s: %s has no parameter %s (Linux %s; it came in Linux %s); nothing was changed",
				 mi->params[i].file, mi->kname, mi->params[i].file,
				 rel, mi->params[i].since);
	}
	if (!err && enable == 1 && !on)
		err = damos_other_user(d, NULL, mi->kname, NULL);
	if (!err && enable == 0 && on) {
		err = write_word(d, dir, "enabled", "N\n");
		if (!err)
			wait_off(d, dir);
		on = false;
	}
	for (size_t i = 0; !err && i < mi->nr_params; i++) {
		if (m->v[i] == cur.v[i] || (cur.absent & (1U << i)))
			continue;
		if (mi->params[i].unit == M_BOOL) {
			err = write_word(d, dir, mi->params[i].file,
					 m->v[i] ? "Y\n" : "N\n");
		} else {
			char *p = damos_path("%s/%s", dir, mi->params[i].file);

			err = p ? damos_write_u64(d, p, m->v[i]) : -ENOMEM;
			free(p);
		}
		changed = true;
	}
	if (!err && enable == 1 && !on)
		err = write_word(d, dir, "enabled", "Y\n");
	else if (!err && on && changed)
		err = write_word(d, dir, "commit_inputs", "Y\n");
	return err;
}

int damon_module_write(const struct damon_opts *opts,
		       const struct damon_module *m, int enable, char **script)
{
	char *dir;
	struct damon_ctx *d;
	int err;

	if (script)
		*script = NULL;
	err = damon_module_validate(m);
	if (err)
		return err;
	d = mod_open(opts, m->info, &dir);
	if (!d)
		return -errno;
	err = DAMOS_TXN(d, write_module(d, dir, m, enable));
	if (!err && script) {	/* "" without the dry run's layer */
		*script = strdup(damos_dry_run_script(d));
		if (!*script)
			err = damos_err(-ENOMEM, "out of memory");
	}
	free(dir);
	damon_close(d);
	return err;
}
