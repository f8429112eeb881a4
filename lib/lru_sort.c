// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * damon_lru_sort's module parameters (mm/damon/lru_sort.c of Linux 6.1):
 * the model, its keyword grammar in the units of schemes, and the files
 * below <root>/sys/module/damon_lru_sort/parameters.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define LRU_SORT_DIR	"sys/module/damon_lru_sort/parameters"
#define LRU_NR_STATS	5	/* DAMOS_F_NR_TRIED .. DAMOS_F_QT_EXCEEDS */

/* How a parameter is read and written by the user, not by the kernel. */
enum lru_unit { L_PERMIL_RATE, L_US, L_MS, L_PERMIL, L_COUNT, L_ADDR };

static const struct {
	const char *file;
	uint64_t def;		/* the kernel's default */
	enum lru_unit unit;
} params[DAMOS_LRU_NR_PARAMS] = {
	[DAMOS_LRU_HOT_THRES_ACCESS_FREQ] = { "hot_thres_access_freq", 500, L_PERMIL_RATE },
	[DAMOS_LRU_COLD_MIN_AGE] = { "cold_min_age", 120000000, L_US },
	[DAMOS_LRU_QUOTA_MS] = { "quota_ms", 10, L_MS },
	[DAMOS_LRU_QUOTA_RESET_INTERVAL_MS] = { "quota_reset_interval_ms", 1000, L_MS },
	[DAMOS_LRU_WMARKS_INTERVAL] = { "wmarks_interval", 5000000, L_US },
	[DAMOS_LRU_WMARKS_HIGH] = { "wmarks_high", 200, L_PERMIL },
	[DAMOS_LRU_WMARKS_MID] = { "wmarks_mid", 150, L_PERMIL },
	[DAMOS_LRU_WMARKS_LOW] = { "wmarks_low", 50, L_PERMIL },
	[DAMOS_LRU_SAMPLE_INTERVAL] = { "sample_interval", 5000, L_US },
	[DAMOS_LRU_AGGR_INTERVAL] = { "aggr_interval", 100000, L_US },
	[DAMOS_LRU_MIN_NR_REGIONS] = { "min_nr_regions", 10, L_COUNT },
	[DAMOS_LRU_MAX_NR_REGIONS] = { "max_nr_regions", 1000, L_COUNT },
	[DAMOS_LRU_MONITOR_REGION_START] = { "monitor_region_start", 0, L_ADDR },
	[DAMOS_LRU_MONITOR_REGION_END] = { "monitor_region_end", 0, L_ADDR },
};

/* The statistics: hot (lru_prio) then cold (lru_deprio), in field order. */
static const char *const stat_files[2][LRU_NR_STATS] = {
	{ "nr_lru_sort_tried_hot_regions", "bytes_lru_sort_tried_hot_regions",
	  "nr_lru_sorted_hot_regions", "bytes_lru_sorted_hot_regions",
	  "nr_hot_quota_exceeds" },
	{ "nr_lru_sort_tried_cold_regions", "bytes_lru_sort_tried_cold_regions",
	  "nr_lru_sorted_cold_regions", "bytes_lru_sorted_cold_regions",
	  "nr_cold_quota_exceeds" },
};

struct damos_lru_sort {
	uint64_t v[DAMOS_LRU_NR_PARAMS];
	uint32_t given;		/* parameters set by the caller */
	bool enabled;
	int pid;
	uint64_t stats[2][LRU_NR_STATS];
};

static const char *const keywords[] = {
	"hot", "cold", "quota", "wmarks", "sample", "aggr", "regions",
	"region", NULL,
};

const char *const *damos_lru_sort_keywords(void)
{
	return keywords;
}

const char *damos_lru_sort_param_name(enum damos_lru_param p)
{
	if ((unsigned int)p >= DAMOS_LRU_NR_PARAMS) {
		errno = EINVAL;
		return NULL;
	}
	return params[p].file;
}

struct damos_lru_sort *damos_lru_sort_new(void)
{
	struct damos_lru_sort *l = calloc(1, sizeof(*l));

	if (!l)
		return damos_err_null(-ENOMEM, "out of memory");
	for (int p = 0; p < DAMOS_LRU_NR_PARAMS; p++)
		l->v[p] = params[p].def;
	l->pid = -1;
	return l;
}

void damos_lru_sort_free(struct damos_lru_sort *l)
{
	free(l);
}

uint64_t damos_lru_sort_get(const struct damos_lru_sort *l,
			    enum damos_lru_param p)
{
	return (unsigned int)p < DAMOS_LRU_NR_PARAMS ? l->v[p] : 0;
}

int damos_lru_sort_set(struct damos_lru_sort *l, enum damos_lru_param p,
		       uint64_t v)
{
	if ((unsigned int)p >= DAMOS_LRU_NR_PARAMS)
		return damos_err(-EINVAL, "lru-sort: no parameter %d", p);
	if (v > DAMOS_ULONG_MAX)
		return damos_err(-ERANGE, "%s: %llu is out of range",
				 params[p].file, (unsigned long long)v);
	l->v[p] = v;
	l->given |= 1U << p;
	return 0;
}

void damos_lru_sort_overlay(struct damos_lru_sort *dst,
			    const struct damos_lru_sort *src)
{
	for (int p = 0; p < DAMOS_LRU_NR_PARAMS; p++)
		if (src->given & (1U << p))
			damos_lru_sort_set(dst, p, src->v[p]);
}

bool damos_lru_sort_enabled(const struct damos_lru_sort *l)
{
	return l->enabled;
}

int damos_lru_sort_kdamond_pid(const struct damos_lru_sort *l)
{
	return l->pid;
}

/* One value in the user's units; @kw names it in messages. */
static int set_value(struct damos_lru_sort *l, enum damos_lru_param p,
		     const char *kw, const char *s)
{
	uint64_t v;
	int err;

	switch (params[p].unit) {
	case L_PERMIL_RATE:
		if (!strcmp(s, "min") || !strcmp(s, "max")) {
			v = s[1] == 'i' ? 0 : 1000;
			err = 0;
			break;
		}
		/* fall through */
	case L_PERMIL:
		err = strchr(s, '%') ? damos_parse_percent(s, 1000, &v) :
				       damos_parse_u64(s, &v);
		if (err)
			return damos_err(-EINVAL,
					 "%s: '%s' is not a rate (N%% with at most one decimal, or a bare per-mille number)",
					 kw, s);
		break;
	case L_US:
	case L_MS:
		err = damos_parse_time_us(s, params[p].unit == L_MS ? 1000 : 1,
					  &v);
		if (err)
			return damos_err_prefix(err, "%s: ", kw);
		if (params[p].unit == L_MS) {
			if (v % 1000)
				return damos_err(-EINVAL,
						 "%s: '%s' is not a whole number of milliseconds",
						 kw, s);
			v /= 1000;
		}
		break;
	case L_COUNT:
		if (damos_parse_u64(s, &v))
			return damos_err(-EINVAL, "%s: '%s' is not a number",
					 kw, s);
		break;
	case L_ADDR:
	default:
		if (damos_parse_addr(s, &v))
			return damos_err_prefix(-EINVAL, "%s: ", kw);
		break;
	}
	if (v > DAMOS_ULONG_MAX)
		return damos_err(-ERANGE, "%s: '%s' is out of range", kw, s);
	return damos_lru_sort_set(l, p, v);
}

int damos_lru_sort_parse(struct damos_lru_sort *l, int argc,
			 const char *const *argv)
{
	static const struct {
		const char *kw;
		int nr;
		enum damos_lru_param first;
	} kws[] = {
		{ "hot", 1, DAMOS_LRU_HOT_THRES_ACCESS_FREQ },
		{ "cold", 1, DAMOS_LRU_COLD_MIN_AGE },
		{ "quota", 0, DAMOS_LRU_QUOTA_MS },
		{ "wmarks", 4, DAMOS_LRU_WMARKS_INTERVAL },
		{ "sample", 1, DAMOS_LRU_SAMPLE_INTERVAL },
		{ "aggr", 1, DAMOS_LRU_AGGR_INTERVAL },
		{ "regions", 2, DAMOS_LRU_MIN_NR_REGIONS },
		{ "region", 2, DAMOS_LRU_MONITOR_REGION_START },
	};
	bool seen[ARRAY_SIZE(kws)] = { false };
	int i = 0, err;

	while (i < argc) {
		size_t k;

		for (k = 0; k < ARRAY_SIZE(kws); k++)
			if (!strcmp(argv[i], kws[k].kw))
				break;
		if (k == ARRAY_SIZE(kws))
			return damos_err(-EINVAL,
					 "unknown keyword '%s' (expected hot cold quota wmarks sample aggr regions region)",
					 argv[i]);
		if (seen[k])
			return damos_err(-EINVAL, "%s given twice", kws[k].kw);
		seen[k] = true;
		i++;
		if (!strcmp(kws[k].kw, "quota")) {
			bool t = false, r = false;

			while (i < argc && ((!t && !strcmp(argv[i], "time")) ||
					    (!r && !strcmp(argv[i], "reset")))) {
				bool is_t = argv[i][0] == 't';

				if (i + 1 >= argc)
					return damos_err(-EINVAL,
							 "quota %s: expected a value",
							 argv[i]);
				err = set_value(l, is_t ? DAMOS_LRU_QUOTA_MS :
						DAMOS_LRU_QUOTA_RESET_INTERVAL_MS,
						is_t ? "quota time" : "quota reset",
						argv[i + 1]);
				if (err)
					return err;
				t |= is_t;
				r |= !is_t;
				i += 2;
			}
			if (!t && !r)
				return damos_err(-EINVAL,
						 "quota: expected time MS and/or reset MS");
			continue;
		}
		if (i + kws[k].nr > argc)
			return damos_err(-EINVAL, "%s: expected %d value%s",
					 kws[k].kw, kws[k].nr,
					 kws[k].nr > 1 ? "s" : "");
		for (int j = 0; j < kws[k].nr; j++) {
			err = set_value(l, kws[k].first + j, kws[k].kw,
					argv[i + j]);
			if (err)
				return err;
		}
		i += kws[k].nr;
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

int damos_lru_sort_validate(const struct damos_lru_sort *l)
{
	static const char *const wmarks[] = {
		"wmarks: high", "wmarks: mid", "wmarks: low",
	};
	const uint64_t *v = l->v;
	struct damos_attrs a = {
		.sz = sizeof(a),
		.sample_us = v[DAMOS_LRU_SAMPLE_INTERVAL],
		.aggr_us = v[DAMOS_LRU_AGGR_INTERVAL],
		.update_us = v[DAMOS_LRU_AGGR_INTERVAL],
		.min_nr_regions = v[DAMOS_LRU_MIN_NR_REGIONS],
		.max_nr_regions = v[DAMOS_LRU_MAX_NR_REGIONS],
	};
	int err = damos_attrs_validate(&a);
	uint64_t hot;

	if (err)
		return err;
	if (v[DAMOS_LRU_HOT_THRES_ACCESS_FREQ] > 1000)
		return over_100("hot", v[DAMOS_LRU_HOT_THRES_ACCESS_FREQ]);
	/* the module stores both thresholds in unsigned ints, truncating */
	if (__builtin_mul_overflow(damos_attrs_max_nr_accesses(&a),
				   v[DAMOS_LRU_HOT_THRES_ACCESS_FREQ], &hot) ||
	    hot / 1000 > DAMOS_UINT_MAX)
		return damos_err(-EINVAL,
				 "hot: %llu per mille of %llu samples per aggregation interval is more than 2^32 samples",
				 (unsigned long long)v[DAMOS_LRU_HOT_THRES_ACCESS_FREQ],
				 (unsigned long long)damos_attrs_max_nr_accesses(&a));
	if (v[DAMOS_LRU_COLD_MIN_AGE] / a.aggr_us > DAMOS_UINT_MAX)
		return damos_err(-EINVAL,
				 "cold: %lluus is more than 2^32 aggregation intervals",
				 (unsigned long long)v[DAMOS_LRU_COLD_MIN_AGE]);
	/* the module gives each of its two schemes half of quota_ms */
	if (v[DAMOS_LRU_QUOTA_MS] == 1)
		return damos_err(-EINVAL,
				 "quota time: 1ms is halved to 0 for each scheme, which means no quota: use 0 (none) or at least 2ms");
	for (int w = 0; w < 3; w++)
		if (v[DAMOS_LRU_WMARKS_HIGH + w] > 1000)
			return over_100(wmarks[w], v[DAMOS_LRU_WMARKS_HIGH + w]);
	if (v[DAMOS_LRU_WMARKS_HIGH] < v[DAMOS_LRU_WMARKS_MID] ||
	    v[DAMOS_LRU_WMARKS_MID] < v[DAMOS_LRU_WMARKS_LOW]) {
		struct damos_buf b = { 0 };

		damos_buf_printf(&b, "wmarks: high ");
		fmt_rate(&b, v[DAMOS_LRU_WMARKS_HIGH]);
		damos_buf_printf(&b, " >= mid ");
		fmt_rate(&b, v[DAMOS_LRU_WMARKS_MID]);
		damos_buf_printf(&b, " >= low ");
		fmt_rate(&b, v[DAMOS_LRU_WMARKS_LOW]);
		damos_buf_printf(&b, " does not hold");
		err = damos_err(-EINVAL, "%s", b.s ? b.s : "wmarks: not ordered");
		damos_buf_free(&b);
		return err;
	}
	if (v[DAMOS_LRU_MONITOR_REGION_START] > v[DAMOS_LRU_MONITOR_REGION_END] ||
	    (v[DAMOS_LRU_MONITOR_REGION_START] == v[DAMOS_LRU_MONITOR_REGION_END] &&
	     v[DAMOS_LRU_MONITOR_REGION_START]))
		return damos_err(-EINVAL,
				 "region: 0x%llx 0x%llx is empty (start < end, or 0 0 for the biggest System RAM)",
				 (unsigned long long)v[DAMOS_LRU_MONITOR_REGION_START],
				 (unsigned long long)v[DAMOS_LRU_MONITOR_REGION_END]);
	return 0;
}

int damos_lru_sort_format(const struct damos_lru_sort *l, char *buf,
			  size_t sz)
{
	struct damos_buf b = { 0 };
	const uint64_t *v = l->v;
	char t[5][32];
	int n;

	damos_buf_printf(&b, "hot ");
	fmt_rate(&b, v[DAMOS_LRU_HOT_THRES_ACCESS_FREQ]);
	damos_buf_printf(&b, " cold %s quota time %s reset %s wmarks %s",
			 damos_format_time_us(v[DAMOS_LRU_COLD_MIN_AGE], t[0], 32),
			 damos_format_time_us(v[DAMOS_LRU_QUOTA_MS] * 1000, t[1], 32),
			 damos_format_time_us(v[DAMOS_LRU_QUOTA_RESET_INTERVAL_MS] * 1000,
					      t[2], 32),
			 damos_format_time_us(v[DAMOS_LRU_WMARKS_INTERVAL], t[3], 32));
	for (int p = DAMOS_LRU_WMARKS_HIGH; p <= DAMOS_LRU_WMARKS_LOW; p++) {
		damos_buf_printf(&b, " ");
		fmt_rate(&b, v[p]);
	}
	damos_buf_printf(&b, " sample %s aggr %s regions %llu %llu region 0x%llx 0x%llx",
			 damos_format_time_us(v[DAMOS_LRU_SAMPLE_INTERVAL], t[3], 32),
			 damos_format_time_us(v[DAMOS_LRU_AGGR_INTERVAL], t[4], 32),
			 (unsigned long long)v[DAMOS_LRU_MIN_NR_REGIONS],
			 (unsigned long long)v[DAMOS_LRU_MAX_NR_REGIONS],
			 (unsigned long long)v[DAMOS_LRU_MONITOR_REGION_START],
			 (unsigned long long)v[DAMOS_LRU_MONITOR_REGION_END]);
	if (b.err) {
		damos_buf_free(&b);
		return damos_err(-ENOMEM, "out of memory");
	}
	n = (int)b.len;
	if (sz)
		snprintf(buf, sz, "%s", b.s);
	damos_buf_free(&b);
	return n;
}

/* What damon_lru_sort_apply_parameters() builds for its two schemes. */
struct damos_scheme *damos_lru_sort_scheme(const struct damos_lru_sort *l,
					   enum damos_action a)
{
	const uint64_t *v = l->v;
	struct damos_attrs at = {
		.sz = sizeof(at),
		.sample_us = v[DAMOS_LRU_SAMPLE_INTERVAL],
		.aggr_us = v[DAMOS_LRU_AGGR_INTERVAL],
	};
	struct damos_scheme *s;
	int cold = a == DAMOS_ACTION_LRU_DEPRIO;

	if (a != DAMOS_ACTION_LRU_PRIO && !cold)
		return damos_err_null(-EINVAL,
				      "damon_lru_sort has lru_prio and lru_deprio schemes only");
	if (!at.sample_us || !at.aggr_us)
		return damos_err_null(-EINVAL, "sample or aggregation interval is 0");
	s = damos_scheme_new(a);
	if (!s)
		return NULL;
	s->v[DAMOS_F_MIN_SZ] = damos_page_size();
	if (cold) {
		s->v[DAMOS_F_MAX_NR_ACCESSES] = 0;
		s->v[DAMOS_F_MIN_AGE] = v[DAMOS_LRU_COLD_MIN_AGE] / at.aggr_us;
	} else {
		s->v[DAMOS_F_MIN_NR_ACCESSES] = damos_attrs_max_nr_accesses(&at) *
			v[DAMOS_LRU_HOT_THRES_ACCESS_FREQ] / 1000;
	}
	s->v[DAMOS_F_QUOTA_MS] = v[DAMOS_LRU_QUOTA_MS] / 2;
	s->v[DAMOS_F_QUOTA_SZ] = 0;
	s->v[DAMOS_F_QUOTA_RESET_MS] = v[DAMOS_LRU_QUOTA_RESET_INTERVAL_MS];
	s->v[DAMOS_F_WEIGHT_SZ] = 0;
	s->v[DAMOS_F_WEIGHT_NR_ACCESSES] = 1;
	s->v[DAMOS_F_WEIGHT_AGE] = 0;
	s->v[DAMOS_F_WMARKS_METRIC] = DAMOS_WMARK_FREE_MEM_RATE;
	s->v[DAMOS_F_WMARKS_INTERVAL_US] = v[DAMOS_LRU_WMARKS_INTERVAL];
	s->v[DAMOS_F_WMARKS_HIGH] = v[DAMOS_LRU_WMARKS_HIGH];
	s->v[DAMOS_F_WMARKS_MID] = v[DAMOS_LRU_WMARKS_MID];
	s->v[DAMOS_F_WMARKS_LOW] = v[DAMOS_LRU_WMARKS_LOW];
	for (int f = 0; f < LRU_NR_STATS; f++)
		s->v[DAMOS_F_NR_TRIED + f] = l->stats[cold][f];
	return s;
}

/* ------------------------------------------------------------------------
 * The module's files.
 */

/* A handle that is only a root and a dry-run script, for io.c. */
static struct damos_ctx *mod_open(const struct damos_opts *opts, char **dir)
{
	struct damos_opts o = DAMOS_OPTS_INIT;
	struct damos_ctx *d;
	const char *root;
	size_t n;

	if (damos_opts_get(opts, &o)) {
		errno = EINVAL;
		return NULL;
	}
	root = o.root && *o.root ? o.root : "/";
	n = strlen(root);
	while (n > 0 && root[n - 1] == '/')
		n--;
	d = calloc(1, sizeof(*d));
	if (!d)
		return damos_err_null(-ENOMEM, "out of memory");
	d->root = strndup(root, n);
	d->dry_run = o.dry_run;
	*dir = d->root ? damos_path("%s/" LRU_SORT_DIR, d->root) : NULL;
	if (!*dir) {
		damos_close(d);
		return damos_err_null(-ENOMEM, "out of memory");
	}
	if (!damos_exists(*dir)) {
		damos_err(-ENOENT, "damon_lru_sort is not in this kernel: %s does not exist",
			  *dir);
		free(*dir);
		damos_close(d);
		errno = ENOENT;
		return NULL;
	}
	/* a dry run reads and writes the dry-run layer's copy */
	if (d->dry_run) {
		const char *layer = damos_dry_layer(d->root);

		free(*dir);
		*dir = layer ? damos_path("%s/" LRU_SORT_DIR, layer) : NULL;
		d->real_root = d->root;
		d->root = layer ? strdup(layer) : NULL;
		d->emulate = true;
		if (!*dir || !d->root) {
			free(*dir);
			damos_close(d);
			errno = ENOMEM;
			return NULL;
		}
	}
	return d;
}

static int read_param(struct damos_ctx *d, const char *dir, const char *file,
		      uint64_t *v)
{
	char *p = damos_path("%s/%s", dir, file);
	int err = p ? damos_read_u64(d, p, v) : -ENOMEM;

	free(p);
	return err;
}

static int read_all(struct damos_ctx *d, const char *dir, struct damos_lru_sort *l)
{
	char word[16], *p;
	int err = 0;

	for (int i = 0; !err && i < DAMOS_LRU_NR_PARAMS; i++)
		err = read_param(d, dir, params[i].file, &l->v[i]);
	for (int h = 0; !err && h < 2; h++)
		for (int f = 0; !err && f < LRU_NR_STATS; f++)
			err = read_param(d, dir, stat_files[h][f], &l->stats[h][f]);
	if (err)
		return err;
	p = damos_path("%s/enabled", dir);
	err = p ? damos_read_word(d, p, word, sizeof(word)) : -ENOMEM;
	free(p);
	if (err)
		return err;
	l->enabled = word[0] == 'Y' || word[0] == 'y' || word[0] == '1';
	p = damos_path("%s/kdamond_pid", dir);
	err = p ? damos_read_word(d, p, word, sizeof(word)) : -ENOMEM;
	free(p);
	if (err)
		return err;
	l->pid = atoi(word);
	if (l->pid <= 0)
		l->pid = -1;
	l->given = 0;
	return 0;
}

int damos_lru_sort_read(const struct damos_opts *opts,
			struct damos_lru_sort **out)
{
	struct damos_lru_sort *l;
	char *dir;
	struct damos_ctx *d = mod_open(opts, &dir);
	int err;

	if (!d)
		return -errno;
	l = damos_lru_sort_new();
	err = l ? read_all(d, dir, l) : -ENOMEM;
	free(dir);
	damos_close(d);
	if (err) {
		damos_lru_sort_free(l);
		return err;
	}
	*out = l;
	return 0;
}

static int write_word(struct damos_ctx *d, const char *dir, const char *file,
		      const char *word)
{
	char *p = damos_path("%s/%s", dir, file);
	int err = p ? damos_write(d, p, word) : -ENOMEM;

	free(p);
	return err;
}

/*
 * Disable first (so the parameters wait for the next start), enable last
 * (so the kdamond starts with them); a running module takes them through
 * commit_inputs, which it reads at its next aggregation or watermarks check.
 */
int damos_lru_sort_write(const struct damos_opts *opts,
			 const struct damos_lru_sort *l, int enable,
			 char **script)
{
	struct damos_lru_sort cur;
	bool changed = false, on;
	char *dir;
	struct damos_ctx *d;
	int err;

	if (script)
		*script = NULL;
	err = damos_lru_sort_validate(l);
	if (err)
		return err;
	d = mod_open(opts, &dir);
	if (!d)
		return -errno;
	memset(&cur, 0, sizeof(cur));
	err = read_all(d, dir, &cur);
	on = cur.enabled;
	if (!err && enable == 1 && !on)
		err = damos_other_user(d, NULL, "damon_lru_sort");
	if (!err && enable == 0 && on) {
		char *p = damos_path("%s/enabled", dir);

		err = write_word(d, dir, "enabled", "N\n");
		damos_dry_turned_off(d, p);
		free(p);
		on = false;
	}
	for (int i = 0; !err && i < DAMOS_LRU_NR_PARAMS; i++) {
		char *p;

		if (l->v[i] == cur.v[i])
			continue;
		p = damos_path("%s/%s", dir, params[i].file);
		err = p ? damos_write_u64(d, p, l->v[i]) : -ENOMEM;
		free(p);
		changed = true;
	}
	if (!err && enable == 1 && !on)
		err = write_word(d, dir, "enabled", "Y\n");
	else if (!err && on && changed)
		err = write_word(d, dir, "commit_inputs", "Y\n");
	if (!err && script && d->dry_run) {
		*script = strdup(damos_dry_run_script(d));
		if (!*script)
			err = damos_err(-ENOMEM, "out of memory");
	}
	free(dir);
	damos_close(d);
	return err;
}
