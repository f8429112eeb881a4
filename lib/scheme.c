// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

struct damos_scheme *damos_scheme_new(enum damos_action a)
{
	struct damos_scheme *s;

	if ((unsigned int)a >= DAMOS_NR_ACTIONS)
		return damos_err_null(-EINVAL, "%d is not an action", a);
	s = calloc(1, sizeof(*s));
	if (!s)
		return damos_err_null(-ENOMEM, "out of memory");
	for (int f = 0; f < DAMOS_NR_FIELDS; f++)
		s->v[f] = damos_fields[f].def;
	s->v[DAMOS_F_ACTION] = a;
	return s;
}

uint64_t damos_page_size(void)
{
	long page = sysconf(_SC_PAGESIZE);

	return page > 0 ? (uint64_t)page : 4096;
}

/*
 * damon_lru_sort's damon_lru_sort_new_{hot,cold}_scheme() with the module's
 * parameter defaults; its watermarks are left out (DESIGN: off unless given).
 * The one value that needs @attrs may fail; the rest is set regardless, so
 * that damos_scheme_parse() can accept a line that overrides that value.
 */
static int preset(struct damos_scheme *s, enum damos_action a,
		  const struct damon_attrs *attrs)
{
	int err;

	if (a != DAMOS_ACTION_LRU_PRIO && a != DAMOS_ACTION_LRU_DEPRIO)
		return 0;
	s->v[DAMOS_F_MIN_SZ] = damos_page_size();
	s->v[DAMOS_F_QUOTA_MS] = 10 / 2;
	s->v[DAMOS_F_QUOTA_RESET_MS] = 1000;
	if (a == DAMOS_ACTION_LRU_PRIO) {
		s->v[DAMOS_F_WEIGHT_NR_ACCESSES] = 1;
		err = damos_scheme_set_str(s, DAMOS_F_MIN_NR_ACCESSES, "50%",
					   attrs);
	} else {
		s->v[DAMOS_F_MAX_NR_ACCESSES] = 0;
		s->v[DAMOS_F_WEIGHT_AGE] = 1;
		err = damos_scheme_set_str(s, DAMOS_F_MIN_AGE, "120s", attrs);
	}
	if (err)
		damos_err_prefix(err, "%s default: ", damos_action_name(a));
	return err;
}

struct damos_scheme *damos_scheme_new_preset(enum damos_action a,
					     const struct damon_attrs *attrs)
{
	struct damos_scheme *s;
	int err = attrs ? damon_attrs_check(attrs) : 0;

	if (err) {
		errno = -err;
		return NULL;
	}
	s = damos_scheme_new(a);
	if (!s)
		return NULL;
	err = preset(s, a, attrs);
	if (err) {
		damos_scheme_free(s);
		errno = -err;
		return NULL;
	}
	return s;
}

const char *damos_snap_get(const struct damos_snap *sn, const char *rel)
{
	for (size_t i = 0; sn && i < sn->n; i++)
		if (!strcmp(sn->f[i].rel, rel))
			return sn->f[i].content;
	return NULL;
}

static struct damos_snap *snap_dup(const struct damos_snap *sn)
{
	struct damos_snap *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->f = calloc(sn->n ? sn->n : 1, sizeof(*d->f));
	if (!d->f) {
		free(d);
		return NULL;
	}
	for (; d->n < sn->n; d->n++) {
		struct damos_snap_file *f = &d->f[d->n];

		f->rel = strdup(sn->f[d->n].rel);
		f->content = strdup(sn->f[d->n].content);
		f->writable = sn->f[d->n].writable;
		if (!f->rel || !f->content) {
			d->n++;
			damos_snap_free(d);
			return NULL;
		}
	}
	return d;
}

void damos_scheme_clear_lists(struct damos_scheme *s)
{
	for (size_t i = 0; i < s->nr_filters; i++) {
		free(s->filters[i].word);
		free(s->filters[i].memcg_path);
	}
	free(s->filters);
	for (size_t i = 0; i < s->nr_goals; i++)
		free(s->goals[i].word);
	free(s->goals);
	s->filters = NULL;
	s->goals = NULL;
	s->nr_filters = s->nr_goals = 0;
}

int damos_filter_v_add(struct damos_scheme *s, int type, const char *word,
		       bool matching, const char *memcg, uint64_t start,
		       uint64_t end, int idx)
{
	struct damos_filter_v *arr = realloc(s->filters, (s->nr_filters + 1) *
					     sizeof(*arr));
	struct damos_filter_v *f;

	if (!arr)
		return damos_err(-ENOMEM, "out of memory");
	s->filters = arr;
	f = &arr[s->nr_filters];
	memset(f, 0, sizeof(*f));
	f->type = type;
	f->word = strdup(word);
	f->memcg_path = memcg ? strdup(memcg) : NULL;
	f->matching = matching;
	f->addr_start = start;
	f->addr_end = end;
	f->target_idx = idx;
	if (!f->word || (memcg && !f->memcg_path)) {
		free(f->word);
		free(f->memcg_path);
		return damos_err(-ENOMEM, "out of memory");
	}
	s->nr_filters++;
	return 0;
}

int damos_goal_v_add(struct damos_scheme *s, int metric, const char *word,
		     uint64_t target, uint64_t current)
{
	struct damos_goal_v *arr = realloc(s->goals, (s->nr_goals + 1) *
					   sizeof(*arr));

	if (!arr)
		return damos_err(-ENOMEM, "out of memory");
	s->goals = arr;
	arr[s->nr_goals].metric = metric;
	arr[s->nr_goals].word = strdup(word);
	arr[s->nr_goals].target = target;
	arr[s->nr_goals].current = current;
	if (!arr[s->nr_goals].word)
		return damos_err(-ENOMEM, "out of memory");
	s->nr_goals++;
	return 0;
}

int damos_scheme_copy_lists(struct damos_scheme *d,
			    const struct damos_scheme *s)
{
	int err = 0;

	d->filters = NULL;
	d->goals = NULL;
	d->nr_filters = d->nr_goals = 0;
	d->action_word = NULL;
	d->raw = NULL;
	for (size_t i = 0; i < s->nr_filters && !err; i++) {
		const struct damos_filter_v *f = &s->filters[i];

		err = damos_filter_v_add(d, f->type, f->word, f->matching,
					 f->memcg_path, f->addr_start,
					 f->addr_end, f->target_idx);
	}
	for (size_t i = 0; i < s->nr_goals && !err; i++)
		err = damos_goal_v_add(d, s->goals[i].metric, s->goals[i].word,
				       s->goals[i].target, s->goals[i].current);
	if (!err && s->action_word && !(d->action_word = strdup(s->action_word)))
		err = damos_err(-ENOMEM, "out of memory");
	if (!err && s->raw && !(d->raw = snap_dup(s->raw)))
		err = damos_err(-ENOMEM, "out of memory");
	return err;
}

struct damos_scheme *damos_scheme_dup(const struct damos_scheme *s)
{
	struct damos_scheme *d = malloc(sizeof(*d));

	if (!d)
		return damos_err_null(-ENOMEM, "out of memory");
	*d = *s;
	if (damos_scheme_copy_lists(d, s)) {
		damos_scheme_free(d);
		return damos_err_null(-ENOMEM, "out of memory");
	}
	return d;
}

void damos_scheme_free(struct damos_scheme *s)
{
	if (!s)
		return;
	damos_scheme_clear_lists(s);
	free(s->action_word);
	damos_snap_free(s->raw);
	free(s);
}

void damos_schemes_free(struct damos_scheme **s, size_t n)
{
	if (!s)
		return;
	for (size_t i = 0; i < n; i++)
		damos_scheme_free(s[i]);
	free(s);
}

uint64_t damos_scheme_get(const struct damos_scheme *s, enum damos_field f)
{
	if ((unsigned int)f >= DAMOS_NR_FIELDS)
		return 0;
	return s->v[f];
}

enum damos_action damos_scheme_action(const struct damos_scheme *s)
{
	return s->action_word ? DAMOS_ACTION_UNKNOWN :
			       (enum damos_action)s->v[DAMOS_F_ACTION];
}

const char *damos_scheme_action_name(const struct damos_scheme *s)
{
	return s->action_word ? s->action_word :
			       damos_action_name(s->v[DAMOS_F_ACTION]);
}

int damos_scheme_set(struct damos_scheme *s, enum damos_field f, uint64_t v)
{
	if ((unsigned int)f >= DAMOS_NR_FIELDS)
		return damos_err(-EINVAL, "%d is not a field", f);
	if (v > damos_fields[f].max &&
	    !(damos_fields[f].unit == U_NID && v == DAMOS_NID_NONE))
		return damos_err(-ERANGE, "%s: %llu is out of range (max %llu)",
				 damos_fields[f].label, (unsigned long long)v,
				 (unsigned long long)damos_fields[f].max);
	s->v[f] = v;
	if (f == DAMOS_F_ACTION) {
		free(s->action_word);
		s->action_word = NULL;
	}
	s->dirty = true;
	return 0;
}

size_t damos_scheme_nr_filters(const struct damos_scheme *s)
{
	return s->nr_filters;
}

int damos_scheme_filter(const struct damos_scheme *s, size_t i,
			struct damos_filter_info *out)
{
	const struct damos_filter_v *f;

	if (!out || out->sz < offsetof(struct damos_filter_info, target_idx) +
				sizeof(out->target_idx))
		return damos_err(-EINVAL, "damos_filter_info: .sz not set");
	if (i >= s->nr_filters)
		return damos_err(-EINVAL, "no filter %zu", i);
	f = &s->filters[i];
	out->type = f->type;
	out->type_name = f->word;
	out->matching = f->matching;
	out->memcg_path = f->memcg_path;
	out->addr_start = f->addr_start;
	out->addr_end = f->addr_end;
	out->target_idx = f->target_idx;
	return 0;
}

int damos_scheme_add_filter(struct damos_scheme *s,
			    const struct damos_filter_info *f)
{
	int err = f ? damos_sz_check(f, f->sz, sizeof(*f),
				     offsetof(struct damos_filter_info, target_idx) +
				     sizeof(f->target_idx), "damos_filter_info") :
		      damos_err(-EINVAL, "damos_filter_info: NULL");

	if (err)
		return err;
	if ((unsigned int)f->type >= DAMOS_NR_FILTER_TYPES)
		return damos_err(-EINVAL, "filter: %d is not a filter type",
				 f->type);
	if (f->type == DAMOS_FILTER_MEMCG && (!f->memcg_path || !*f->memcg_path))
		return damos_err(-EINVAL, "filter memcg: expected a cgroup path");
	if (f->type == DAMOS_FILTER_ADDR && f->addr_start >= f->addr_end)
		return damos_err(-EINVAL, "filter addr: start %#llx >= end %#llx",
				 (unsigned long long)f->addr_start,
				 (unsigned long long)f->addr_end);
	if (f->type == DAMOS_FILTER_TARGET && f->target_idx < 0)
		return damos_err(-EINVAL, "filter target: %d is not a target index",
				 f->target_idx);
	s->dirty = true;
	return damos_filter_v_add(s, f->type, damos_filter_types[f->type].name,
				  f->matching,
				  f->type == DAMOS_FILTER_MEMCG ? f->memcg_path : NULL,
				  f->type == DAMOS_FILTER_ADDR ? f->addr_start : 0,
				  f->type == DAMOS_FILTER_ADDR ? f->addr_end : 0,
				  f->type == DAMOS_FILTER_TARGET ? f->target_idx : 0);
}

size_t damos_scheme_nr_goals(const struct damos_scheme *s)
{
	return s->nr_goals;
}

int damos_scheme_goal(const struct damos_scheme *s, size_t i,
		      struct damos_goal_info *out)
{
	if (!out || out->sz < sizeof(*out))
		return damos_err(-EINVAL, "damos_goal_info: .sz not set");
	if (i >= s->nr_goals)
		return damos_err(-EINVAL, "no goal %zu", i);
	out->metric = s->goals[i].metric;
	out->metric_name = s->goals[i].word;
	out->target = s->goals[i].target;
	out->current = s->goals[i].current;
	return 0;
}

int damos_scheme_add_goal(struct damos_scheme *s,
			  const struct damos_goal_info *g)
{
	int err = g ? damos_sz_check(g, g->sz, sizeof(*g), sizeof(*g),
				     "damos_goal_info") :
		      damos_err(-EINVAL, "damos_goal_info: NULL");

	if (err)
		return err;
	if ((unsigned int)g->metric >= DAMOS_NR_GOAL_METRICS)
		return damos_err(-EINVAL, "goal: %d is not a metric", g->metric);
	s->dirty = true;
	return damos_goal_v_add(s, g->metric, damos_goal_metrics[g->metric],
				g->target, g->current);
}

/* N% above 100%: exact, as N% of 100 * 10^decimals is a whole number */
static bool above_100_percent(const char *value)
{
	const char *dot = strchr(value, '.');
	size_t decimals = dot ? strcspn(dot + 1, "%") : 0;
	uint64_t scale = 100, v;

	for (size_t i = 0; i < decimals; i++)
		if (__builtin_mul_overflow(scale, 10, &scale))
			return false;
	return !damos_parse_percent(value, scale, &v) && v > scale;
}

static int set_nr_accesses(const char *label, const char *value,
			   const struct damon_attrs *attrs, uint64_t *v)
{
	uint64_t max_nr = attrs ? damon_attrs_max_nr_accesses(attrs) : 0;
	int err;

	if (!strchr(value, '%'))
		return 1;
	/* the range before the granularity: 101% is wrong whatever the attrs */
	if (above_100_percent(value))
		return damos_err(-ERANGE, "%s: '%s' is above 100%%", label,
				 value);
	if (!max_nr)
		return damos_err(-EINVAL,
				 "%s: '%s' needs the monitoring attributes",
				 label, value);
	err = damos_parse_percent(value, max_nr, v);
	if (err == -EDOM)
		return damos_err(-EINVAL,
				 "%s: '%s' is not a whole number of samples (%llu sample%s per aggregation interval: use multiples of %g%% or a bare number)",
				 label, value, (unsigned long long)max_nr,
				 max_nr == 1 ? "" : "s", 100.0 / (double)max_nr);
	if (err)
		return damos_err(err, "%s: '%s' is not an access rate (N%%)",
				 label, value);
	if (*v > max_nr)
		return damos_err(-ERANGE, "%s: '%s' is above 100%%", label,
				 value);
	return 0;
}

static int set_age(const char *label, const char *value,
		   const struct damon_attrs *attrs, uint64_t *v)
{
	uint64_t us;
	char buf[32];
	int err;

	if (!damos_parse_u64(value, v))
		return 0;
	err = damos_parse_time_us(value, 0, &us);
	if (err)
		return damos_err_prefix(err, "%s: ", label);
	if (!attrs || !attrs->aggr_us)
		return damos_err(-EINVAL,
				 "%s: '%s' needs the monitoring attributes",
				 label, value);
	if (us % attrs->aggr_us)
		return damos_err(-EINVAL,
				 "%s: '%s' is not a whole number of aggregation intervals (%s)",
				 label, value,
				 damos_format_time_us(attrs->aggr_us, buf,
						      sizeof(buf)));
	*v = us / attrs->aggr_us;
	return 0;
}

int damos_scheme_set_str(struct damos_scheme *s, enum damos_field f,
			 const char *value, const struct damon_attrs *attrs)
{
	const struct damos_field_info *fi;
	uint64_t v = 0, us;
	int err = attrs ? damon_attrs_check(attrs) : 0;

	if (err)
		return err;
	if ((unsigned int)f >= DAMOS_NR_FIELDS)
		return damos_err(-EINVAL, "%d is not a field", f);
	fi = &damos_fields[f];
	if (!value || !*value)
		return damos_err(-EINVAL, "%s: missing value", fi->label);
	if (!strcmp(value, "min") && fi->unit != U_ACTION &&
	    fi->unit != U_METRIC && fi->unit != U_NID)
		return damos_scheme_set(s, f, 0);
	if (!strcmp(value, "max") && fi->unit != U_ACTION &&
	    fi->unit != U_METRIC && fi->unit != U_NID)
		return damos_scheme_set(s, f, fi->max);

	switch (fi->unit) {
	case U_NID:
		if (!strcmp(value, "none") || !strcmp(value, "-1"))
			return damos_scheme_set(s, f, DAMOS_NID_NONE);
		goto number;
	case U_SIZE:
		err = damos_parse_size(value, &v);
		if (err)
			return damos_err_prefix(err, "%s: ", fi->label);
		break;
	case U_NR_ACC:
		err = set_nr_accesses(fi->label, value, attrs, &v);
		if (err < 0)
			return err;
		if (err > 0 && damos_parse_u64(value, &v) == -ERANGE)
			return damos_err(-ERANGE, "%s: '%s' is too large",
					 fi->label, value);
		if (err > 0 && damos_parse_u64(value, &v))
			return damos_err(-EINVAL,
					 "%s: '%s' is not an access count or rate (N or N%%)",
					 fi->label, value);
		break;
	case U_AGE:
		err = set_age(fi->label, value, attrs, &v);
		if (err)
			return err;
		break;
	case U_MS:
	case U_US:
		/* bare ms beyond 2^64 us still fit the kernel's field */
		if (fi->unit == U_MS && !damos_parse_u64(value, &v))
			break;
		err = damos_parse_time_us(value, fi->unit == U_MS ? 1000 : 1,
					  &us);
		if (err)
			return damos_err_prefix(err, "%s: ", fi->label);
		if (fi->unit == U_MS && us % 1000)
			return damos_err(-EINVAL,
					 "%s: '%s' is not a whole number of milliseconds",
					 fi->label, value);
		v = fi->unit == U_MS ? us / 1000 : us;
		break;
	case U_ACTION:
		err = damos_action_from_name(value);
		if (err < 0)
			return damos_err_prefix(err, "%s: ", fi->label);
		v = (uint64_t)err;
		break;
	case U_METRIC:
		err = damos_metric_from_name(value);
		if (err < 0)
			return damos_err_prefix(err, "%s: ", fi->label);
		v = (uint64_t)err;
		break;
	case U_PERMIL:
		if (!strchr(value, '%'))
			goto number;
		err = damos_parse_percent(value, 1000, &v);
		if (err == -EDOM)
			return damos_err(-EINVAL,
					 "%s: '%s' is not a whole per mille (at most one decimal)",
					 fi->label, value);
		if (err)
			return damos_err(-EINVAL, "%s: '%s' is not N%% or a per-mille number",
					 fi->label, value);
		break;
	case U_NUM:
	case U_STAT:
number:
		err = damos_parse_u64(value, &v);
		if (err == -ERANGE)
			return damos_err(err, "%s: '%s' is too large",
					 fi->label, value);
		if (err)
			return damos_err(err, "%s: '%s' is not a number",
					 fi->label, value);
		break;
	}
	if (v > fi->max)
		return damos_err(-ERANGE,
				 "%s: '%s' is out of range (%llu > max %llu)",
				 fi->label, value, (unsigned long long)v,
				 (unsigned long long)fi->max);
	return damos_scheme_set(s, f, v);
}

/* the checks between a keyword's values (the grammar's table, below) */
static int kw_check(const struct damos_scheme *s);

int damos_scheme_validate(const struct damos_scheme *s)
{
	const uint64_t *v = s->v;
	int err;

	if (s->action_word)
		return damos_err(-EINVAL, "action '%s' is not one this library knows",
				 s->action_word);
	for (int f = 0; f < DAMOS_NR_FIELDS; f++)
		if (v[f] > damos_fields[f].max &&
		    !(damos_fields[f].unit == U_NID && v[f] == DAMOS_NID_NONE))
			return damos_err(-EINVAL,
					 "%s: %llu is out of range (max %llu)",
					 damos_fields[f].label,
					 (unsigned long long)v[f],
					 (unsigned long long)damos_fields[f].max);
	err = kw_check(s);
	if (err)
		return err;
	if ((v[DAMOS_F_ACTION] == DAMOS_ACTION_MIGRATE_HOT ||
	     v[DAMOS_F_ACTION] == DAMOS_ACTION_MIGRATE_COLD) &&
	    v[DAMOS_F_TARGET_NID] == DAMOS_NID_NONE)
		return damos_err(-EINVAL, "%s: needs nid N (the node to move to)",
				 damos_action_name(v[DAMOS_F_ACTION]));
	for (size_t i = 0; i < s->nr_filters; i++)
		if (s->filters[i].type < 0)
			return damos_err(-EINVAL, "filter %zu: type '%s' is not one this library knows",
					 i, s->filters[i].word);
	for (size_t i = 0; i < s->nr_goals; i++)
		if (s->goals[i].metric < 0)
			return damos_err(-EINVAL, "goal %zu: metric '%s' is not one this library knows",
					 i, s->goals[i].word);
	return 0;
}

/*
 * What the kernel holds is written back as it is, even if a tool left
 * min > max in it (the kernel accepts that); what a caller made or
 * changed must be valid.
 */
int damos_scheme_check_input(const struct damos_scheme *s)
{
	if (s->kernel && !s->dirty)
		return 0;
	return damos_scheme_validate(s);
}

static bool str_eq(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

bool damos_scheme_equal(const struct damos_scheme *a,
			const struct damos_scheme *b)
{
	for (int f = 0; f < DAMOS_NR_FIELDS; f++)
		if (!damos_field_is_stat(f) && a->v[f] != b->v[f])
			return false;
	if (!str_eq(a->action_word, b->action_word) ||
	    a->nr_filters != b->nr_filters || a->nr_goals != b->nr_goals)
		return false;
	for (size_t i = 0; i < a->nr_filters; i++) {
		const struct damos_filter_v *x = &a->filters[i], *y = &b->filters[i];

		if (strcmp(x->word, y->word) || x->matching != y->matching ||
		    !str_eq(x->memcg_path, y->memcg_path) ||
		    x->addr_start != y->addr_start || x->addr_end != y->addr_end ||
		    x->target_idx != y->target_idx)
			return false;
	}
	for (size_t i = 0; i < a->nr_goals; i++)
		if (strcmp(a->goals[i].word, b->goals[i].word) ||
		    a->goals[i].target != b->goals[i].target ||
		    a->goals[i].current != b->goals[i].current)
			return false;
	return true;
}

/*
 * The scheme grammar, one row a keyword: parsing, formatting, the
 * messages that list the keywords and, through damos_scheme_keyword(),
 * damoctl's help, synopsis and completion read it.  A new keyword is a
 * row here (its fields in damos_fields[]) and its lines in damoctl(8).
 */
enum kw_kind {
	KW_VALUES,	/* .nr words, one a field of .f[] */
	KW_SUBS,	/* sub-keywords, each with one value (.subs) */
	KW_FILTER,	/* filter [not] TYPE [ARGS]: damos_filter_types[] */
	KW_GOAL,	/* goal METRIC TARGET [CURRENT]: damos_goal_metrics[] */
};

#define KW_RANGE	0x1	/* .f[0] <= .f[1] */
#define KW_ORDERED	0x2	/* .f[2] >= .f[3] >= .f[4] (watermarks) */
#define KW_IF_SET	0x4	/* formatted only if not the field's default */

struct sub_kw {
	const char *kw;
	enum damos_field f;
	const char *arg;
};

struct scheme_kw {
	const char *kw;
	enum kw_kind kind;
	int nr;
	enum damos_field f[5];
	unsigned int flags;
	enum damos_kw_values values;	/* what completes its first value */
	const struct sub_kw *subs;	/* KW_SUBS, { NULL }-terminated */
	const char *args, *help;
};

static const struct sub_kw quota_subs[] = {
	{ "time", DAMOS_F_QUOTA_MS, "MS" },
	{ "size", DAMOS_F_QUOTA_SZ, "BYTES" },
	{ "reset", DAMOS_F_QUOTA_RESET_MS, "MS" },
	{ NULL },
};

static const struct scheme_kw kws[] = {
	{ "sz", KW_VALUES, 2, { DAMOS_F_MIN_SZ, DAMOS_F_MAX_SZ }, KW_RANGE,
	  DAMOS_KW_V_MIN_MAX, NULL, "MIN MAX",
	  "region size: bytes, or with B K M G T; min, max" },
	{ "access", KW_VALUES, 2,
	  { DAMOS_F_MIN_NR_ACCESSES, DAMOS_F_MAX_NR_ACCESSES }, KW_RANGE,
	  DAMOS_KW_V_MIN_MAX, NULL, "MIN MAX",
	  "accesses per aggregation interval: samples, or N% of them" },
	{ "age", KW_VALUES, 2, { DAMOS_F_MIN_AGE, DAMOS_F_MAX_AGE }, KW_RANGE,
	  DAMOS_KW_V_MIN_MAX, NULL, "MIN MAX",
	  "how long the access count held: aggregation intervals, or us ms s m h" },
	{ "quota", KW_SUBS, 0, { 0 }, 0, DAMOS_KW_V_NONE, quota_subs, NULL,
	  "at most time of CPU and size of memory every reset (bare: ms)" },
	{ "weights", KW_VALUES, 3, { DAMOS_F_WEIGHT_SZ,
	  DAMOS_F_WEIGHT_NR_ACCESSES, DAMOS_F_WEIGHT_AGE }, 0,
	  DAMOS_KW_V_NONE, NULL, "SZ ACCESS AGE",
	  "which regions go first under the quota" },
	{ "wmarks", KW_VALUES, 5, { DAMOS_F_WMARKS_METRIC,
	  DAMOS_F_WMARKS_INTERVAL_US, DAMOS_F_WMARKS_HIGH, DAMOS_F_WMARKS_MID,
	  DAMOS_F_WMARKS_LOW }, KW_ORDERED, DAMOS_KW_V_WMARK_METRIC, NULL,
	  "METRIC INTERVAL HIGH MID LOW",
	  "none, or free_mem_rate in per mille or N% checked every INTERVAL (bare: us): the scheme works between LOW and MID" },
	{ "nid", KW_VALUES, 1, { DAMOS_F_TARGET_NID }, KW_IF_SET,
	  DAMOS_KW_V_NONE, NULL, "N",
	  "the NUMA node migrate_hot and migrate_cold move to (sysfs, Linux 6.11+)" },
	{ "apply_interval", KW_VALUES, 1, { DAMOS_F_APPLY_INTERVAL_US },
	  KW_IF_SET, DAMOS_KW_V_NONE, NULL, "TIME",
	  "apply the scheme every TIME instead of every aggregation interval (sysfs, Linux 6.7+)" },
	{ "filter", KW_FILTER, 1, { 0 }, 0, DAMOS_KW_V_FILTER_TYPE, NULL,
	  "[not] TYPE [ARGS]",
	  "leave out the memory that is (not) of that kind; may come again (sysfs, Linux 6.3+)" },
	{ "goal", KW_GOAL, 2, { 0 }, 0, DAMOS_KW_V_GOAL_METRIC, NULL,
	  "METRIC TARGET [CURRENT]",
	  "tune the quota until METRIC (user_input, some_mem_psi_us) reaches TARGET; may come again (sysfs, Linux 6.8+)" },
};

#define NR_KWS ARRAY_SIZE(kws)

/* The names, for damos_scheme_keywords(): the table's, in its order. */
static const char *kw_names[NR_KWS + 1];
static const char *quota_names[ARRAY_SIZE(quota_subs)];
/* "time MS", "[time MS] [size BYTES] [reset MS]", and each sub's words */
static char quota_args[128];
/* "[not] anon|memcg PATH|..." and "anon, memcg PATH, ... or target IDX" */
static char filter_alts[160], filter_list[192];

static void kw_tables_once(void)
{
	size_t n = 0;

	for (size_t k = 0; k < NR_KWS; k++)
		kw_names[k] = kws[k].kw;
	for (size_t q = 0; quota_subs[q].kw; q++) {
		quota_names[q] = quota_subs[q].kw;
		n += snprintf(quota_args + n, sizeof(quota_args) - n, "%s[%s %s]",
			      q ? " " : "", quota_subs[q].kw, quota_subs[q].arg);
	}
	for (int t = 0, a = 0, l = 0; t < DAMOS_NR_FILTER_TYPES; t++) {
		const struct damos_filter_type_info *ft = &damos_filter_types[t];
		const char *sep = *ft->args ? " " : "";

		a += snprintf(filter_alts + a, sizeof(filter_alts) - a, "%s%s%s%s",
			      t ? "|" : "[not] ", ft->name, sep, ft->args);
		l += snprintf(filter_list + l, sizeof(filter_list) - l, "%s%s%s%s",
			      !t ? "" : t + 1 < DAMOS_NR_FILTER_TYPES ? ", " : " or ",
			      ft->name, sep, ft->args);
	}
}

/* made once, at the first call (not in a constructor: damoctl's run first) */
static void kw_tables(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, kw_tables_once);
}

const char *const *damos_scheme_keywords(void)
{
	kw_tables();
	return kw_names;
}

const char *const *damos_scheme_quota_keywords(void)
{
	kw_tables();
	return quota_names;
}

int damos_scheme_keyword(size_t i, struct damos_scheme_kw *out)
{
	const struct scheme_kw *k;

	if (i >= NR_KWS || !out || out->sz < sizeof(*out))
		return -EINVAL;
	kw_tables();
	k = &kws[i];
	out->kw = k->kw;
	out->nr_values = k->kind == KW_SUBS ? 0 : k->nr;
	out->subs = k->kind == KW_SUBS ? quota_names : NULL;
	out->values = k->values;
	out->repeat = k->kind == KW_FILTER || k->kind == KW_GOAL;
	out->args = k->kind == KW_SUBS ? quota_args : k->args;
	out->help_args = k->kind == KW_FILTER ? filter_alts : out->args;
	out->help = k->help;
	return 0;
}

/* "sz access ... goal": the keywords a message lists. */
static const char *kw_list(char *buf, size_t sz)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t k = 0; k < NR_KWS && n < sz; k++)
		n += snprintf(buf + n, sz - n, "%s%s", k ? " " : "", kws[k].kw);
	return buf;
}

static const struct scheme_kw *kw_find(const char *w)
{
	for (size_t k = 0; k < NR_KWS; k++)
		if (!strcmp(w, kws[k].kw))
			return &kws[k];
	return NULL;
}

static int kw_check(const struct damos_scheme *s)
{
	const uint64_t *v = s->v;

	for (size_t k = 0; k < NR_KWS; k++) {
		const enum damos_field *f = kws[k].f;

		if ((kws[k].flags & KW_RANGE) && v[f[0]] > v[f[1]])
			return damos_err(-EINVAL, "%s %llu > %s %llu",
					 damos_fields[f[0]].label,
					 (unsigned long long)v[f[0]],
					 damos_fields[f[1]].label,
					 (unsigned long long)v[f[1]]);
		if ((kws[k].flags & KW_ORDERED) &&
		    (v[f[2]] < v[f[3]] || v[f[3]] < v[f[4]]))
			return damos_err(-EINVAL,
					 "%s: high %llu, mid %llu, low %llu are not ordered high >= mid >= low",
					 kws[k].kw, (unsigned long long)v[f[2]],
					 (unsigned long long)v[f[3]],
					 (unsigned long long)v[f[4]]);
	}
	return 0;
}

struct parse_state {
	int argc;
	const char *const *argv;
	int i;
	const char *kw;
};

/* Set @n fields from the next @n words, as the user typed them. */
static int set_words(struct damos_scheme *s, struct parse_state *p,
		     const enum damos_field *fields, int n,
		     const struct damon_attrs *attrs, const char *usage)
{
	if (p->i + n > p->argc)
		return damos_err(-EINVAL, "%s: expected %s", p->kw, usage);
	for (int k = 0; k < n; k++) {
		int err = damos_scheme_set_str(s, fields[k], p->argv[p->i + k],
					       attrs);
		if (err)
			return err;
	}
	p->i += n;
	return 0;
}

/* Sub-keywords, each with one value, in any order, each at most once. */
static int parse_subs(struct damos_scheme *s, struct parse_state *p,
		      const struct scheme_kw *kw, const struct damon_attrs *attrs)
{
	const struct sub_kw *subs = kw->subs;
	bool seen[8] = { false };
	int start = p->i;
	char list[128];
	size_t n = 0;

	while (p->i < p->argc) {
		size_t k;

		for (k = 0; subs[k].kw; k++)
			if (!strcmp(p->argv[p->i], subs[k].kw))
				break;
		if (!subs[k].kw)
			break;
		if (seen[k])
			return damos_err(-EINVAL, "%s: '%s' given twice", kw->kw,
					 subs[k].kw);
		seen[k] = true;
		if (p->i + 1 >= p->argc)
			return damos_err(-EINVAL, "%s %s: expected a value",
					 kw->kw, subs[k].kw);
		int err = damos_scheme_set_str(s, subs[k].f, p->argv[p->i + 1],
					       attrs);
		if (err)
			return err;
		p->i += 2;
	}
	if (p->i == start) {
		for (size_t k = 0; subs[k].kw; k++)
			n += snprintf(list + n, sizeof(list) - n, "%s%s %s",
				      !k ? "" : subs[k + 1].kw ? ", " : " or ",
				      subs[k].kw, subs[k].arg);
		return damos_err(-EINVAL, "%s: expected %s", kw->kw, list);
	}
	/*
	 * A quota without a reset interval: 0 opens a new charge window at
	 * every check in Linux 6.1, so the quota would limit nothing.  1 s,
	 * as damon_reclaim and damon_lru_sort use: "time/size per second".
	 */
	if (subs == quota_subs && !seen[2] &&
	    !damos_scheme_get(s, DAMOS_F_QUOTA_RESET_MS) &&
	    (damos_scheme_get(s, DAMOS_F_QUOTA_MS) ||
	     damos_scheme_get(s, DAMOS_F_QUOTA_SZ)))
		return damos_scheme_set(s, DAMOS_F_QUOTA_RESET_MS, 1000);
	return 0;
}

/* filter [not] TYPE [ARGS]: the types and their ARGS of damos_filter_types[] */
static int parse_filter(struct damos_scheme *s, struct parse_state *p)
{
	struct damos_filter_info f = { .sz = sizeof(f), .matching = true };
	uint64_t v;
	int t, err = 0;

	if (p->i < p->argc && !strcmp(p->argv[p->i], "not")) {
		f.matching = false;
		p->i++;
	}
	if (p->i >= p->argc) {
		kw_tables();
		return damos_err(-EINVAL, "filter: expected [not] %s", filter_list);
	}
	t = damos_filter_type_from_name(p->argv[p->i++]);
	if (t < 0)
		return damos_err_prefix(t, "filter: ");
	f.type = t;
	if (p->i + (t == DAMOS_FILTER_ADDR ? 2 : 1) > p->argc &&
	    *damos_filter_types[t].args)
		return damos_err(-EINVAL, "filter %s: expected %s",
				 damos_filter_types[t].name,
				 damos_filter_types[t].args);
	if (t == DAMOS_FILTER_MEMCG) {
		f.memcg_path = p->argv[p->i++];
	} else if (t == DAMOS_FILTER_ADDR) {
		err = damos_parse_addr(p->argv[p->i], &f.addr_start);
		if (!err)
			err = damos_parse_addr(p->argv[p->i + 1], &f.addr_end);
		if (err)
			return damos_err_prefix(err, "filter addr: ");
		p->i += 2;
	} else if (t == DAMOS_FILTER_TARGET) {
		if (damos_parse_u64(p->argv[p->i], &v) || v > INT32_MAX)
			return damos_err(-EINVAL, "filter target: expected a target index");
		f.target_idx = (int)v;
		p->i++;
	}
	return damos_scheme_add_filter(s, &f);
}

/* goal METRIC TARGET [CURRENT] */
static int parse_goal(struct damos_scheme *s, struct parse_state *p,
		      const struct scheme_kw *kw)
{
	struct damos_goal_info g = { .sz = sizeof(g) };
	int m;

	if (p->i + 2 > p->argc)
		return damos_err(-EINVAL, "goal: expected %s", kw->args);
	m = damos_goal_metric_from_name(p->argv[p->i]);
	if (m < 0)
		return damos_err_prefix(m, "goal: ");
	g.metric = m;
	if (damos_parse_u64(p->argv[p->i + 1], &g.target))
		return damos_err(-EINVAL, "goal: target '%s' is %s", p->argv[p->i + 1],
				 damos_parse_u64(p->argv[p->i + 1], &g.target) == -ERANGE ?
				 "too large" : "not a number");
	p->i += 2;
	if (p->i < p->argc && !damos_parse_u64(p->argv[p->i], &g.current))
		p->i++;
	return damos_scheme_add_goal(s, &g);
}

/* A row's values, then the checks between them its flags ask for. */
static int parse_values(struct damos_scheme *s, struct parse_state *p,
			const struct scheme_kw *kw,
			const struct damon_attrs *attrs)
{
	const char *const *w = p->argv + p->i;
	const enum damos_field *f = kw->f;
	int err = set_words(s, p, f, kw->nr, attrs, kw->args);

	if (!err && (kw->flags & KW_RANGE) && s->v[f[0]] > s->v[f[1]])
		err = damos_err(-EINVAL, "%s %s > %s %s",
				damos_fields[f[0]].label, w[0],
				damos_fields[f[1]].label, w[1]);
	if (!err && (kw->flags & KW_ORDERED) &&
	    (s->v[f[2]] < s->v[f[3]] || s->v[f[3]] < s->v[f[4]]))
		err = damos_err(-EINVAL,
				"%s: high %s, mid %s, low %s are not ordered high >= mid >= low",
				kw->kw, w[2], w[3], w[4]);
	return err;
}

/*
 * The lists a keyword of damos_scheme_edit() replaces: the first filter
 * (goal) keyword drops the scheme's filters (goals), the other list stays.
 */
static void edit_reset(struct damos_scheme *s, bool filter)
{
	struct damos_scheme tmp = *s;

	if (filter) {
		tmp.nr_goals = 0;
		tmp.goals = NULL;
		s->nr_filters = 0;
		s->filters = NULL;
	} else {
		tmp.nr_filters = 0;
		tmp.filters = NULL;
		s->nr_goals = 0;
		s->goals = NULL;
	}
	tmp.raw = NULL;
	damos_scheme_clear_lists(&tmp);
	s->dirty = true;
}

/*
 * The keywords from argv[@p->i] on, over @s.  @edit (damos_scheme_edit()):
 * "action NAME" too, and the first filter (goal) replaces the scheme's
 * filters (goals); "filter none" ("goal none") removes them all.
 */
static int apply_keywords(struct damos_scheme *s, struct parse_state *p,
			  const struct damon_attrs *attrs, bool edit,
			  bool *seen, bool *seen_action)
{
	bool filters_reset = false, goals_reset = false;
	char list[160];
	int err = 0;

	while (!err && p->i < p->argc) {
		const struct scheme_kw *kw;

		p->kw = p->argv[p->i];
		if (edit && !strcmp(p->kw, "action")) {
			if (*seen_action)
				return damos_err(-EINVAL, "'action' given twice");
			*seen_action = true;
			p->i++;
			err = set_words(s, p, (const enum damos_field[]){
						DAMOS_F_ACTION }, 1, attrs, "ACTION");
			continue;
		}
		kw = kw_find(p->kw);
		if (!kw)
			return damos_err(-EINVAL, "unknown keyword '%s' (expected %s%s)",
					 p->kw, edit ? "action " : "",
					 kw_list(list, sizeof(list)));
		if (seen[kw - kws] && kw->kind != KW_FILTER && kw->kind != KW_GOAL)
			return damos_err(-EINVAL, "'%s' given twice", p->kw);
		seen[kw - kws] = true;
		p->i++;
		switch (kw->kind) {
		case KW_VALUES:
			err = parse_values(s, p, kw, attrs);
			break;
		case KW_SUBS:
			err = parse_subs(s, p, kw, attrs);
			break;
		case KW_FILTER:
		case KW_GOAL: {
			bool filter = kw->kind == KW_FILTER;
			bool *reset = filter ? &filters_reset : &goals_reset;

			if (edit && !*reset) {
				edit_reset(s, filter);
				*reset = true;
			}
			if (edit && p->i < p->argc && !strcmp(p->argv[p->i], "none")) {
				p->i++;
				continue;
			}
			err = filter ? parse_filter(s, p) : parse_goal(s, p, kw);
			break;
		}
		}
	}
	return err;
}

struct damos_scheme *damos_scheme_parse(int argc, const char *const *argv,
					const struct damon_attrs *attrs)
{
	struct parse_state p = { .argc = argc, .argv = argv, .i = 1 };
	bool seen[NR_KWS] = { false }, seen_action = false;
	struct damos_scheme *s;
	char preset_msg[256];
	int a, err = 0, preset_err = 0;

	if (argc < 1 || !argv[0])
		return damos_err_null(-EINVAL, "expected an action");
	a = damos_action_from_name(argv[0]);
	if (a >= 0 && attrs && (err = damon_attrs_check(attrs)))
		a = err;
	if (a < 0) {
		errno = EINVAL;
		return NULL;
	}
	s = damos_scheme_new(a);
	if (!s)
		return NULL;
	if (preset(s, a, attrs)) {
		preset_err = -EINVAL;
		snprintf(preset_msg, sizeof(preset_msg), "%s", damos_errmsg());
	}
	err = apply_keywords(s, &p, attrs, false, seen, &seen_action);
	/* the preset's failing value is access (lru_prio) or age (deprio) */
	if (!err && preset_err &&
	    !seen[kw_find(a == DAMOS_ACTION_LRU_PRIO ? "access" : "age") - kws])
		err = damos_err(preset_err, "%s", preset_msg);
	if (!err)
		err = damos_scheme_validate(s);
	if (err) {
		damos_scheme_free(s);
		errno = err == -ENOMEM ? ENOMEM : EINVAL;
		return NULL;
	}
	return s;
}

int damos_scheme_edit(struct damos_scheme *s, int argc,
		      const char *const *argv, const struct damon_attrs *attrs)
{
	struct parse_state p = { .argc = argc, .argv = argv, .i = 0 };
	bool seen[NR_KWS] = { false }, seen_action = false;
	char list[160];
	int err;

	if (argc < 1)
		return damos_err(-EINVAL, "expected FIELD VALUE... (action %s)",
				 kw_list(list, sizeof(list)));
	if (attrs && (err = damon_attrs_check(attrs)))
		return err;
	err = apply_keywords(s, &p, attrs, true, seen, &seen_action);
	if (!err)
		err = damos_scheme_validate(s);
	if (!err)
		s->dirty = true;
	return err;
}

static const char *fmt_num(const struct damos_scheme *s, enum damos_field f,
			   char *buf, size_t sz)
{
	uint64_t v = s->v[f];

	if (damos_fields[f].unit == U_METRIC)
		return damos_metric_name(v);
	if (v == damos_fields[f].max && v && damos_fields[f].unit != U_NID)
		return "max";
	switch (damos_fields[f].unit) {
	case U_SIZE:
		return damos_format_size(v, buf, sz);
	case U_MS:
		if (v && v <= UINT64_MAX / 1000)
			return damos_format_time_us(v * 1000, buf, sz);
		break;
	case U_US:
		if (v)
			return damos_format_time_us(v, buf, sz);
		break;
	default:
		break;
	}
	snprintf(buf, sz, "%llu", (unsigned long long)v);
	return buf;
}

static void format_filter(struct damos_buf *o, const struct scheme_kw *kw,
			  const struct damos_filter_v *f)
{
	damos_buf_printf(o, " %s %s%s", kw->kw, f->matching ? "" : "not ",
			 f->word);
	if (f->type == DAMOS_FILTER_MEMCG) {
		damos_buf_printf(o, " ");
		damos_quote(o, f->memcg_path ? f->memcg_path : "");
	} else if (f->type == DAMOS_FILTER_ADDR) {
		damos_buf_printf(o, " %#llx %#llx",
				 (unsigned long long)f->addr_start,
				 (unsigned long long)f->addr_end);
	} else if (f->type == DAMOS_FILTER_TARGET) {
		damos_buf_printf(o, " %d", f->target_idx);
	}
}

/* Keyword @kw with its values, if the scheme has them to show. */
static void format_kw(struct damos_buf *o, const struct damos_scheme *s,
		      const struct scheme_kw *kw)
{
	char b[32];

	if (kw->kind == KW_SUBS) {
		damos_buf_printf(o, " %s", kw->kw);
		for (const struct sub_kw *q = kw->subs; q->kw; q++)
			damos_buf_printf(o, " %s %s", q->kw,
					 fmt_num(s, q->f, b, sizeof(b)));
		return;
	}
	if (kw->kind == KW_FILTER) {
		for (size_t i = 0; i < s->nr_filters; i++)
			format_filter(o, kw, &s->filters[i]);
		return;
	}
	for (size_t i = 0; kw->kind == KW_GOAL && i < s->nr_goals; i++)
		damos_buf_printf(o, " %s %s %llu %llu", kw->kw, s->goals[i].word,
				 (unsigned long long)s->goals[i].target,
				 (unsigned long long)s->goals[i].current);
	if (kw->kind != KW_VALUES || ((kw->flags & KW_IF_SET) &&
				      s->v[kw->f[0]] == damos_fields[kw->f[0]].def))
		return;
	damos_buf_printf(o, " %s", kw->kw);
	for (int i = 0; i < kw->nr; i++)
		damos_buf_printf(o, " %s", fmt_num(s, kw->f[i], b, sizeof(b)));
}

int damos_scheme_format(const struct damos_scheme *s, char *buf, size_t sz)
{
	struct damos_buf o = { 0 };
	int n;

	if ((!s->action_word && s->v[DAMOS_F_ACTION] >= DAMOS_NR_ACTIONS) ||
	    s->v[DAMOS_F_WMARKS_METRIC] >= DAMOS_NR_WMARK_METRICS)
		return damos_err(-EINVAL, "invalid scheme");
	damos_buf_printf(&o, "%s", damos_scheme_action_name(s));
	for (size_t k = 0; k < NR_KWS; k++)
		format_kw(&o, s, &kws[k]);
	if (o.err) {
		damos_buf_free(&o);
		return damos_err(-ENOMEM, "out of memory");
	}
	n = snprintf(buf, sz, "%s", o.s);
	damos_buf_free(&o);
	return n;
}

int damon_attrs_check(const struct damon_attrs *a)
{
	return damos_sz_check(a, a->sz, sizeof(*a), sizeof(*a), "damon_attrs");
}

void damon_attrs_default(struct damon_attrs *a)
{
	a->sz = sizeof(*a);
	a->sample_us = 5000;
	a->aggr_us = 100000;
	a->update_us = 60000000;
	a->min_nr_regions = 10;
	a->max_nr_regions = 1000;
}

/* Attribute @i in the order of a dbgfs attrs line, by name, not by layout. */
const uint64_t *damon_attrs_field(const struct damon_attrs *a, size_t i)
{
	static const size_t off[] = {
		offsetof(struct damon_attrs, sample_us),
		offsetof(struct damon_attrs, aggr_us),
		offsetof(struct damon_attrs, update_us),
		offsetof(struct damon_attrs, min_nr_regions),
		offsetof(struct damon_attrs, max_nr_regions),
	};

	return (const uint64_t *)((const char *)a + off[i]);
}

uint64_t damon_attrs_max_nr_accesses(const struct damon_attrs *a)
{
	if (damon_attrs_check(a))
		return 0;
	return a->sample_us ? a->aggr_us / a->sample_us : 0;
}

/* In the words of "attrs set", so that a message quotes what was typed. */
int damon_attrs_validate(const struct damon_attrs *a)
{
	static const char *const names[] = {
		"sample", "aggr", "update", "min regions", "max regions",
	};
	char x[32], y[32];
	int err = damon_attrs_check(a);

	if (err)
		return err;
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (*damon_attrs_field(a, i) > DAMOS_ULONG_MAX)
			return damos_err(-EINVAL, "%s: %llu is out of range",
					 names[i],
					 (unsigned long long)*damon_attrs_field(a, i));
	if (!a->sample_us)
		return damos_err(-EINVAL, "sample: 0 (the sampling interval must be at least 1us)");
	if (!a->aggr_us)
		return damos_err(-EINVAL, "aggr: 0 (the aggregation interval must be at least the sampling interval)");
	if (a->aggr_us < a->sample_us)
		return damos_err(-EINVAL, "aggr %s < sample %s",
				 damos_format_time_us(a->aggr_us, x, sizeof(x)),
				 damos_format_time_us(a->sample_us, y, sizeof(y)));
	if (a->min_nr_regions < 3)
		return damos_err(-EINVAL, "min regions %llu < 3",
				 (unsigned long long)a->min_nr_regions);
	if (a->min_nr_regions > a->max_nr_regions)
		return damos_err(-EINVAL, "min regions %llu > max regions %llu",
				 (unsigned long long)a->min_nr_regions,
				 (unsigned long long)a->max_nr_regions);
	return 0;
}

int damon_attrs_decode(const char *text, struct damon_attrs *a)
{
	uint64_t v[5];
	char *copy, *tok, *save = NULL;
	int n = 0, err = 0;

	copy = strdup(text ? text : "");
	if (!copy)
		return damos_err(-ENOMEM, "out of memory");
	for (tok = strtok_r(copy, " \t\n", &save); tok && !err;
	     tok = strtok_r(NULL, " \t\n", &save)) {
		if (n == 5 || damos_parse_u64(tok, &v[n]))
			err = -EINVAL;
		n++;
	}
	free(copy);
	if (err || n != 5)
		return damos_err(-EINVAL,
				 "'%.*s' is not 5 numbers (sample aggr update min_regions max_regions)",
				 (int)strcspn(text ? text : "", "\n"), text ? text : "");
	a->sz = sizeof(*a);
	a->sample_us = v[0];
	a->aggr_us = v[1];
	a->update_us = v[2];
	a->min_nr_regions = v[3];
	a->max_nr_regions = v[4];
	return 0;
}

int damon_attrs_encode(const struct damon_attrs *a, char *buf, size_t sz)
{
	int n;

	if (damon_attrs_check(a))
		return -EINVAL;
	n = snprintf(buf, sz, "%llu %llu %llu %llu %llu\n",
			 (unsigned long long)a->sample_us,
			 (unsigned long long)a->aggr_us,
			 (unsigned long long)a->update_us,
			 (unsigned long long)a->min_nr_regions,
			 (unsigned long long)a->max_nr_regions);

	if (n < 0 || (size_t)n >= sz)
		return damos_err(-ENOSPC, "attrs: buffer too small");
	return n;
}

int damon_attrs_set_str(struct damon_attrs *a, const char *key,
			const char *value)
{
	static const char *const keys[] = {
		"sample", "aggr", "update", "min_regions", "max_regions",
	};
	uint64_t *v;
	size_t i;
	int err = damon_attrs_check(a);

	if (err)
		return err;
	for (i = 0; i < ARRAY_SIZE(keys); i++)
		if (key && !strcmp(key, keys[i]))
			break;
	if (i == ARRAY_SIZE(keys)) {
		char list[64];

		return damos_err(-EINVAL, "unknown attribute '%s' (expected %s)",
				 key ? key : "",
				 damos_join_names(list, sizeof(list), keys,
						  ARRAY_SIZE(keys), sizeof(*keys)));
	}
	v = (uint64_t *)damon_attrs_field(a, i);
	if (i < 3)
		err = damos_parse_time_us(value, 1, v);
	else if ((err = damos_parse_u64(value ? value : "", v)))
		damos_err(err, "'%s' is %s", value ? value : "",
			  err == -ERANGE ? "too large" : "not a number");
	if (!err && *v > DAMOS_ULONG_MAX)
		err = damos_err(-ERANGE, "'%s' is too large", value);
	if (err)
		return damos_err_prefix(-EINVAL, "%s: ", keys[i]);
	return 0;
}
