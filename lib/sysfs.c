// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#include <errno.h>
#include <glob.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Paths below the context (kdamonds/N/contexts/0) or the kdamond. */
static char *cpath(struct damon_ctx *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static char *cpath(struct damon_ctx *d, const char *fmt, ...)
{
	char *rel, *p = NULL;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&rel, fmt, ap) >= 0) {
		p = damos_path("%s/%s", d->dir, rel);
		free(rel);
	}
	va_end(ap);
	return p;
}

static int read_u64_at(struct damon_ctx *d, char *path, uint64_t *v)
{
	int err = path ? damos_read_u64(d, path, v) : -ENOMEM;

	free(path);
	return err;
}

static int write_at(struct damon_ctx *d, char *path, const char *content)
{
	int err = path ? damos_write(d, path, content) : -ENOMEM;

	free(path);
	return err;
}

static int write_u64_at(struct damon_ctx *d, char *path, uint64_t v)
{
	int err = path ? damos_write_u64(d, path, v) : -ENOMEM;

	free(path);
	return err;
}

/*
 * A "state" command (@cmd, without its newline) that updates what the kernel
 * shows, nothing else; an error names the command.
 */
static int update_cmd(struct damon_ctx *d, const char *cmd)
{
	char *p = damos_path("%s/state", d->kdamond);
	char line[64];
	int err;

	snprintf(line, sizeof(line), "%s\n", cmd);
	err = p ? damos_write_update(d, p, line) : -ENOMEM;
	free(p);
	return err ? damos_err_prefix(err, "%s: ", cmd) : 0;
}

static int sysfs_status(struct damon_ctx *d, bool *on, int *pid)
{
	char word[32] = "off";
	char *p;
	int err = 0;

	p = damos_path("%s/state", d->kdamond);
	if (!p)
		return damos_err(-ENOMEM, "out of memory");
	err = damos_read_word(d, p, word, sizeof(word));
	free(p);
	if (err && !damos_exists(d, d->kdamond))
		err = 0;	/* no kdamond yet: off */
	if (err)
		return err;
	if (on)
		*on = !strcmp(word, "on");
	if (pid) {
		*pid = -1;
		p = damos_path("%s/pid", d->kdamond);
		if (p && damos_exists(d, p) &&
		    !damos_read_word(d, p, word, sizeof(word)))
			*pid = atoi(word);
		free(p);
	}
	return 0;
}

/* Make kdamonds/N/contexts/0 exist, without resetting another kdamond. */
static int ensure_ctx(struct damon_ctx *d)
{
	uint64_t nr = 0;
	char *p;
	int err;

	if (damos_exists(d, d->dir))
		return 0;
	p = damos_path("%s/kdamonds/nr_kdamonds", d->admin);
	err = read_u64_at(d, p, &nr);
	if (err)
		return err;
	if (nr <= (uint64_t)d->kdamond_idx) {
		if (nr)
			return damos_err_hint(-ENOENT, DAMOS_HINT_PICK_KDAMOND,
					      (int64_t)nr,
					      "kdamond %d does not exist: making it means writing nr_kdamonds, which would remove the %llu kdamond%s there with %s setup",
					      d->kdamond_idx, (unsigned long long)nr,
					      nr == 1 ? "" : "s", nr == 1 ? "its" : "their");
		err = write_u64_at(d, damos_path("%s/kdamonds/nr_kdamonds",
						 d->admin), d->kdamond_idx + 1);
		if (err)
			return err;
	}
	return write_u64_at(d, damos_path("%s/contexts/nr_contexts",
					  d->kdamond), 1);
}

static int commit_if_on(struct damon_ctx *d)
{
	char *p;
	bool on = false;
	int err = sysfs_status(d, &on, NULL);

	if (err || !on)
		return err;
	p = damos_path("%s/state", d->kdamond);
	if (!p)
		return damos_err(-ENOMEM, "out of memory");
	/* in a transaction: at its end, once the staged files read back */
	if (damos_txn_defer_commit(d, p)) {
		free(p);
		return 0;
	}
	return write_at(d, p, "commit\n");
}

/* The value of @rel in @sn: its first line; NULL if the file is absent. */
static const char *snap_word(const struct damos_snap *sn, const char *rel,
			     char *buf, size_t sz)
{
	const char *c = damos_snap_get(sn, rel);

	if (!c)
		return NULL;
	snprintf(buf, sz, "%.*s", (int)strcspn(c, "\n"), c);
	return buf;
}

static int snap_u64(const struct damos_snap *sn, const char *dir,
		    const char *rel, uint64_t *v)
{
	char word[64];

	if (!snap_word(sn, rel, word, sizeof(word)))
		return -ENOENT;
	if (damos_parse_u64(word, v))
		return damos_err(-EINVAL, "%s/%s: '%s' is not a number", dir,
				 rel, word);
	return 0;
}

/* A signed int file (target_nid, damon_target_idx): -1 is "none". */
static int snap_int(const struct damos_snap *sn, const char *dir,
		    const char *rel, long long *v)
{
	char word[64], *end;

	if (!snap_word(sn, rel, word, sizeof(word)))
		return -ENOENT;
	errno = 0;
	*v = strtoll(word, &end, 10);
	if (errno || end == word || *end || *v < INT32_MIN || *v > INT32_MAX)
		return damos_err(-EINVAL, "%s/%s: '%s' is not a number", dir,
				 rel, word);
	return 0;
}

static int read_filters(const struct damos_snap *sn, const char *dir,
			struct damos_scheme *s)
{
	uint64_t nr = 0;
	int err = snap_u64(sn, dir, "filters/nr_filters", &nr);

	if (err == -ENOENT)
		return 0;
	s->filters_read = true;
	for (uint64_t j = 0; !err && j < nr; j++) {
		char rel[64], word[64], match[8] = "Y";
		const char *memcg;
		uint64_t start = 0, end = 0;
		long long idx = 0;
		int t;

		snprintf(rel, sizeof(rel), "filters/%llu/type", (unsigned long long)j);
		if (!snap_word(sn, rel, word, sizeof(word)))
			return damos_err(-ENOENT, "%s/%s: missing", dir, rel);
		t = damos_filter_type_from_name(word);
		snprintf(rel, sizeof(rel), "filters/%llu/matching", (unsigned long long)j);
		snap_word(sn, rel, match, sizeof(match));
		snprintf(rel, sizeof(rel), "filters/%llu/memcg_path", (unsigned long long)j);
		memcg = damos_snap_get(sn, rel);
		snprintf(rel, sizeof(rel), "filters/%llu/addr_start", (unsigned long long)j);
		snap_u64(sn, dir, rel, &start);
		snprintf(rel, sizeof(rel), "filters/%llu/addr_end", (unsigned long long)j);
		snap_u64(sn, dir, rel, &end);
		snprintf(rel, sizeof(rel), "filters/%llu/damon_target_idx", (unsigned long long)j);
		snap_int(sn, dir, rel, &idx);
		char path[4096] = "";

		if (memcg)
			snprintf(path, sizeof(path), "%.*s",
				 (int)strcspn(memcg, "\n"), memcg);
		err = damos_filter_v_add(s, t < 0 ? DAMOS_FILTER_UNKNOWN : t,
					 word, strchr("Yy1", match[0]) != NULL,
					 t == DAMOS_FILTER_MEMCG ? path : NULL,
					 start, end, (int)idx);
	}
	return err;
}

static int read_goals(const struct damos_snap *sn, const char *dir,
		      struct damos_scheme *s)
{
	uint64_t nr = 0;
	int err = snap_u64(sn, dir, "quotas/goals/nr_goals", &nr);

	if (err == -ENOENT)
		return 0;
	s->goals_read = true;
	for (uint64_t j = 0; !err && j < nr; j++) {
		char rel[64], word[64] = "user_input";
		uint64_t target = 0, current = 0;
		int m;

		snprintf(rel, sizeof(rel), "quotas/goals/%llu/target_metric",
			 (unsigned long long)j);
		snap_word(sn, rel, word, sizeof(word));
		snprintf(rel, sizeof(rel), "quotas/goals/%llu/target_value",
			 (unsigned long long)j);
		snap_u64(sn, dir, rel, &target);
		snprintf(rel, sizeof(rel), "quotas/goals/%llu/current_value",
			 (unsigned long long)j);
		snap_u64(sn, dir, rel, &current);
		m = damos_goal_metric_from_name(word);
		err = damos_goal_v_add(s, m < 0 ? DAMOS_GOAL_UNKNOWN : m, word,
				       target, current);
	}
	return err;
}

/*
 * One scheme: a snapshot of its whole directory, the model decoded from
 * it.  A file of 6.1's layout that is missing is an error; a later one
 * keeps its default.  Unknown words (action, filter type, goal metric)
 * are kept as the kernel wrote them.
 */
static int read_scheme(struct damon_ctx *d, size_t i, struct damos_scheme *s)
{
	struct damos_snap *sn = calloc(1, sizeof(*sn));
	char *dir = cpath(d, "schemes/%zu", i);
	char word[64];
	int err = sn && dir ? 0 : damos_err(-ENOMEM, "out of memory");

	if (!err)
		err = damos_snap_read(d, dir, sn);
	for (int f = 0; f < DAMOS_NR_FIELDS && !err; f++) {
		const struct damos_field_info *fi = &damos_fields[f];
		uint64_t v = fi->def;
		long long nid;

		if (!snap_word(sn, fi->sysfs, word, sizeof(word))) {
			if (fi->feature < 0 && fi->unit != U_STAT)
				err = damos_err(-ENOENT, "%s/%s: missing", dir,
						fi->sysfs);
			s->v[f] = v;
			continue;
		}
		if (f == DAMOS_F_ACTION) {
			int a = damos_action_from_name(word);

			if (a < 0 && !(s->action_word = strdup(word)))
				err = damos_err(-ENOMEM, "out of memory");
			v = a < 0 ? (uint64_t)DAMOS_ACTION_UNKNOWN : (uint64_t)a;
		} else if (f == DAMOS_F_WMARKS_METRIC) {
			int r = damos_metric_from_name(word);

			if (r < 0)
				err = damos_err_prefix(r, "%s/%s: ", dir, fi->sysfs);
			v = (uint64_t)r;
		} else if (fi->unit == U_NID) {
			err = snap_int(sn, dir, fi->sysfs, &nid);
			v = nid < 0 ? DAMOS_NID_NONE : (uint64_t)nid;
		} else {
			err = snap_u64(sn, dir, fi->sysfs, &v);
		}
		s->v[f] = v;
	}
	if (!err)
		err = read_filters(sn, dir, s);
	if (!err)
		err = read_goals(sn, dir, s);
	if (!err) {
		s->raw = sn;
		sn = NULL;
		s->kernel = true;
		s->dirty = false;
	}
	if (sn)
		damos_snap_free(sn);
	free(dir);
	return err;
}

/*
 * A running kdamond's statistics files hold what they held at the last
 * update command.  update_schemes_tried_bytes waits until every scheme has
 * been applied again, up to its apply interval (seconds on a real setup), so
 * only the commands that show statistics ask for it, never a schemes read.
 */
static int sysfs_stats_update(struct damon_ctx *d)
{
	bool on = false;
	int err;

	if (!damos_exists(d, d->dir))
		return 0;
	err = sysfs_status(d, &on, NULL);
	if (err || !on)
		return err;
	err = update_cmd(d, "update_schemes_stats");
	if (!err && damos_has(d, DAMOS_FEAT_EFFECTIVE_BYTES) == 1)
		err = update_cmd(d, "update_schemes_effective_quotas");
	if (!err && damos_has(d, DAMOS_FEAT_TRIED_BYTES) == 1)
		err = update_cmd(d, "update_schemes_tried_bytes");
	return err;
}

static int sysfs_schemes_read(struct damon_ctx *d, struct damos_scheme ***out,
			      size_t *n)
{
	struct damos_scheme **arr = NULL;
	uint64_t nr = 0;
	int err = 0;
	size_t i;

	*out = NULL;
	*n = 0;
	if (!damos_exists(d, d->dir))
		return 0;
	err = read_u64_at(d, cpath(d, "schemes/nr_schemes"), &nr);
	if (!err && nr > 65536)
		err = damos_err(-EINVAL, "nr_schemes %llu: too many",
				(unsigned long long)nr);
	if (!err && nr && !(arr = calloc(nr, sizeof(*arr))))
		err = damos_err(-ENOMEM, "out of memory");
	for (i = 0; i < nr && !err; i++) {
		arr[i] = damos_scheme_new(DAMOS_ACTION_STAT);
		err = arr[i] ? read_scheme(d, i, arr[i]) : -ENOMEM;
	}
	if (err) {
		damos_schemes_free(arr, nr);
		return err;
	}
	*out = arr;
	*n = nr;
	return 0;
}

/* The content the model gives field @f, as written to its file. */
static void field_text(const struct damos_scheme *s, int f, char *buf,
		       size_t sz)
{
	uint64_t v = s->v[f];

	if (f == DAMOS_F_ACTION)
		snprintf(buf, sz, "%s\n", damos_scheme_action_name(s));
	else if (f == DAMOS_F_WMARKS_METRIC)
		snprintf(buf, sz, "%s\n", damos_metric_name(v));
	else if (damos_fields[f].unit == U_NID && v == DAMOS_NID_NONE)
		snprintf(buf, sz, "-1\n");
	else
		snprintf(buf, sz, "%llu\n", (unsigned long long)v);
}

static bool same_text(const char *a, const char *b)
{
	size_t n = strcspn(a, "\n"), m = strcspn(b, "\n");

	return n == m && !strncmp(a, b, n);
}

/* Whether the model's filters differ from what @raw holds. */
static bool filters_differ(const struct damos_scheme *s)
{
	char buf[64];
	const char *c;
	uint64_t nr = 0;

	if (!s->raw)
		return s->nr_filters > 0;
	c = damos_snap_get(s->raw, "filters/nr_filters");
	if (!c)
		return s->nr_filters > 0;
	snprintf(buf, sizeof(buf), "%.*s", (int)strcspn(c, "\n"), c);
	if (damos_parse_u64(buf, &nr) || nr != s->nr_filters)
		return true;
	return s->dirty;
}

static bool goals_differ(const struct damos_scheme *s)
{
	char buf[64];
	const char *c;
	uint64_t nr = 0;

	if (!s->raw)
		return s->nr_goals > 0;
	c = damos_snap_get(s->raw, "quotas/goals/nr_goals");
	if (!c)
		return s->nr_goals > 0;
	snprintf(buf, sizeof(buf), "%.*s", (int)strcspn(c, "\n"), c);
	if (damos_parse_u64(buf, &nr) || nr != s->nr_goals)
		return true;
	return s->dirty;
}

static int write_filters(struct damon_ctx *d, size_t i,
			 const struct damos_scheme *s)
{
	int err = write_u64_at(d, cpath(d, "schemes/%zu/filters/nr_filters", i),
			       s->nr_filters);

	for (size_t j = 0; j < s->nr_filters && !err; j++) {
		const struct damos_filter_v *f = &s->filters[j];
		char buf[64];

		snprintf(buf, sizeof(buf), "%s\n", f->word);
		err = write_at(d, cpath(d, "schemes/%zu/filters/%zu/type", i, j), buf);
		if (!err)
			err = write_at(d, cpath(d, "schemes/%zu/filters/%zu/matching",
						i, j), f->matching ? "Y\n" : "N\n");
		if (!err && f->type == DAMOS_FILTER_MEMCG)
			err = write_at(d, cpath(d, "schemes/%zu/filters/%zu/memcg_path",
						i, j), f->memcg_path ? f->memcg_path : "");
		if (!err && f->type == DAMOS_FILTER_ADDR)
			err = write_u64_at(d, cpath(d, "schemes/%zu/filters/%zu/addr_start",
						    i, j), f->addr_start);
		if (!err && f->type == DAMOS_FILTER_ADDR)
			err = write_u64_at(d, cpath(d, "schemes/%zu/filters/%zu/addr_end",
						    i, j), f->addr_end);
		if (!err && f->type == DAMOS_FILTER_TARGET)
			err = write_u64_at(d, cpath(d, "schemes/%zu/filters/%zu/damon_target_idx",
						    i, j), (uint64_t)f->target_idx);
	}
	return err;
}

static int write_goals(struct damon_ctx *d, size_t i,
		       const struct damos_scheme *s)
{
	int err = write_u64_at(d, cpath(d, "schemes/%zu/quotas/goals/nr_goals", i),
			       s->nr_goals);
	bool metric = damos_has(d, DAMOS_FEAT_GOAL_METRIC) == 1;

	for (size_t j = 0; j < s->nr_goals && !err; j++) {
		const struct damos_goal_v *g = &s->goals[j];
		char buf[64];

		snprintf(buf, sizeof(buf), "%s\n", g->word);
		if (metric)
			err = write_at(d, cpath(d, "schemes/%zu/quotas/goals/%zu/target_metric",
						i, j), buf);
		if (!err)
			err = write_u64_at(d, cpath(d, "schemes/%zu/quotas/goals/%zu/target_value",
						    i, j), g->target);
		if (!err)
			err = write_u64_at(d, cpath(d, "schemes/%zu/quotas/goals/%zu/current_value",
						    i, j), g->current);
	}
	return err;
}

/*
 * Scheme @i after nr_schemes made its directory anew: first every file
 * the scheme had when it was read (what the library does not model
 * included), then the modelled values that differ from those.  A new
 * scheme gets the 6.1 fields and whatever later ones it sets.
 */
static int write_scheme(struct damon_ctx *d, size_t i, const struct damos_scheme *s)
{
	char *dir = cpath(d, "schemes/%zu", i);
	int err = dir ? 0 : damos_err(-ENOMEM, "out of memory");

	if (!err && s->raw)
		err = damos_snap_restore(d, dir, s->raw);
	for (int f = 0; f < DAMOS_NR_FIELDS && !err; f++) {
		const struct damos_field_info *fi = &damos_fields[f];
		const char *old = s->raw ? damos_snap_get(s->raw, fi->sysfs) : NULL;
		char buf[64];

		if (fi->unit == U_STAT)
			continue;
		field_text(s, f, buf, sizeof(buf));
		if (old && same_text(old, buf))
			continue;
		/* a later kernel's field at its default needs no write */
		if (!old && fi->feature >= 0 && s->v[f] == fi->def)
			continue;
		err = write_at(d, cpath(d, "schemes/%zu/%s", i, fi->sysfs), buf);
	}
	if (!err && filters_differ(s))
		err = write_filters(d, i, s);
	if (!err && goals_differ(s))
		err = write_goals(d, i, s);
	free(dir);
	return err;
}

/*
 * Writing nr_schemes recreates every scheme directory with default values,
 * so all schemes are written again, each with every file it had; "commit"
 * then updates a running kdamond's schemes in place, keeping their
 * statistics.
 */
static int sysfs_schemes_write(struct damon_ctx *d, struct damos_scheme *const *s,
			       size_t n)
{
	int err = 0;

	for (size_t i = 0; i < n && !err; i++)
		if ((err = damos_scheme_check_input(s[i])))
			damos_err_prefix(err, "scheme %zu: ", i);
	for (size_t i = 0; i < n && !err; i++)
		err = damos_scheme_features(d, s[i], i);
	if (!err)
		err = ensure_ctx(d);
	if (!err)
		err = write_u64_at(d, cpath(d, "schemes/nr_schemes"), n);
	for (size_t i = 0; i < n && !err; i++)
		err = write_scheme(d, i, s[i]);
	if (!err)
		err = commit_if_on(d);
	return err;
}

static int sysfs_goal_current(struct damon_ctx *d, size_t idx, size_t goal,
			      uint64_t v)
{
	bool on = false;
	int err = write_u64_at(d, cpath(d, "schemes/%zu/quotas/goals/%zu/current_value",
					idx, goal), v);

	if (!err)
		err = sysfs_status(d, &on, NULL);
	if (!err && on)
		err = write_at(d, damos_path("%s/state", d->kdamond),
			       "commit_schemes_quota_goals\n");
	return err;
}

static int sysfs_attrs_read(struct damon_ctx *d, struct damon_attrs *a)
{
	int err = 0;

	damon_attrs_default(a);
	if (!damos_exists(d, d->dir))
		return 0;
	for (size_t i = 0; i < DAMOS_SYSFS_NR_ATTR_FILES && !err; i++)
		err = read_u64_at(d, cpath(d, "%s", damos_sysfs_attr_files[i]),
				  (uint64_t *)damon_attrs_field(a, i));
	return err;
}

static int sysfs_attrs_write(struct damon_ctx *d, const struct damon_attrs *a)
{
	int err = damon_attrs_validate(a);

	if (!err)
		err = ensure_ctx(d);
	for (size_t i = 0; i < DAMOS_SYSFS_NR_ATTR_FILES && !err; i++)
		err = write_u64_at(d, cpath(d, "%s", damos_sysfs_attr_files[i]),
				   *damon_attrs_field(a, i));
	if (!err)
		err = commit_if_on(d);
	return err;
}

static int sysfs_targets_read(struct damon_ctx *d, struct damon_targets *t)
{
	char word[32];
	uint64_t nr = 0, v;
	int err = 0;

	memset(t, 0, sizeof(*t));
	t->sz = sizeof(*t);
	if (!damos_exists(d, d->dir))
		return 0;
	char *p = cpath(d, "operations");

	err = p ? damos_read_word(d, p, word, sizeof(word)) : -ENOMEM;
	free(p);
	for (t->ops = 0; !err && t->ops < DAMON_NR_OPS; t->ops++)
		if (!strcmp(word, damon_ops_name(t->ops)))
			break;
	if (!err && t->ops == DAMON_NR_OPS)
		err = damos_err(-EINVAL, "operations: unknown '%s'", word);
	if (!err)
		err = read_u64_at(d, cpath(d, "targets/nr_targets"), &nr);
	if (!err && nr > 65536)
		err = damos_err(-EINVAL, "nr_targets %llu: too many",
				(unsigned long long)nr);
	if (!err && nr && !(t->targets = calloc(nr, sizeof(*t->targets))))
		err = damos_err(-ENOMEM, "out of memory");
	for (size_t i = 0; i < nr && !err; i++) {
		struct damon_target *tg = &t->targets[i];
		uint64_t nr_regions = 0;

		t->nr++;
		err = read_u64_at(d, cpath(d, "targets/%zu/pid_target", i), &v);
		tg->pid = t->ops == DAMON_OPS_VADDR ? (int)v : 0;
		if (!err)
			err = read_u64_at(d, cpath(d, "targets/%zu/regions/nr_regions",
						   i), &nr_regions);
		if (!err && nr_regions > 65536)
			err = damos_err(-EINVAL, "nr_regions: too many");
		if (!err && nr_regions &&
		    !(tg->regions = calloc(nr_regions, sizeof(*tg->regions))))
			err = damos_err(-ENOMEM, "out of memory");
		for (size_t r = 0; r < nr_regions && !err; r++) {
			tg->nr_regions++;
			err = read_u64_at(d, cpath(d, "targets/%zu/regions/%zu/start",
						   i, r), &tg->regions[r].start);
			if (!err)
				err = read_u64_at(d, cpath(d, "targets/%zu/regions/%zu/end",
							   i, r), &tg->regions[r].end);
		}
	}
	if (err)
		damon_targets_free(t);
	return err;
}

static int sysfs_targets_write(struct damon_ctx *d, const struct damon_targets *t)
{
	static const char *const files[] = {
		"operations", "targets/nr_targets", NULL,
	};
	char buf[32];
	int err = damon_targets_validate(t);

	if (!err)
		err = damos_check_writable(d, files);
	if (!err)
		err = ensure_ctx(d);
	snprintf(buf, sizeof(buf), "%s\n", damon_ops_name(t->ops));
	if (!err)
		err = write_at(d, cpath(d, "operations"), buf);
	if (!err)
		err = write_u64_at(d, cpath(d, "targets/nr_targets"), t->nr);
	for (size_t i = 0; i < t->nr && !err; i++) {
		const struct damon_target *tg = &t->targets[i];

		if (t->ops == DAMON_OPS_VADDR)
			err = write_u64_at(d, cpath(d, "targets/%zu/pid_target",
						    i), tg->pid);
		if (!err)
			err = write_u64_at(d, cpath(d, "targets/%zu/regions/nr_regions",
						    i), tg->nr_regions);
		for (size_t r = 0; r < tg->nr_regions && !err; r++) {
			err = write_u64_at(d, cpath(d, "targets/%zu/regions/%zu/start",
						    i, r), tg->regions[r].start);
			if (!err)
				err = write_u64_at(d, cpath(d, "targets/%zu/regions/%zu/end",
							    i, r), tg->regions[r].end);
		}
	}
	if (!err)
		err = commit_if_on(d);
	return err;
}

static int sysfs_turn(struct damon_ctx *d, bool on)
{
	char *p = damos_path("%s/state", d->kdamond);
	int err = !p ? -ENOMEM : on ? ensure_ctx(d) : 0;

	if (!err)
		err = damos_write(d, p, on ? "on\n" : "off\n");
	free(p);
	return err;
}

int damos_sysfs_kdamond_on(struct damon_ctx *d, char **state)
{
	char *dir = damos_path("%s/%s/kdamonds", d->root, damos_sysfs_backend.top);
	struct damos_io_ent *e = NULL;
	char *st = NULL;
	size_t n = 0;
	long on = -1;

	/* through the handle's layers: a dry run's kdamonds too */
	if (!dir || damos_list(d, dir, &e, &n))
		n = 0;
	for (size_t i = 0; i < n; i++) {
		char *end, *p;
		long k = strtol(e[i].name, &end, 10);

		if (*end || k < 0 || (on >= 0 && k > on) ||
		    !(p = damos_path("%s/%s/state", dir, e[i].name)))
			continue;
		if (damos_word_is(d, p, "on")) {
			free(st);
			st = p;
			on = k;
		} else {
			free(p);
		}
	}
	damos_io_ents_free(e, n);
	free(dir);
	if (state)
		*state = st;
	else
		free(st);
	return (int)on;
}

/* Any handle: a kdamond below its root that is on. */
static int sysfs_in_use(struct damon_ctx *d, const char *self)
{
	char *state;
	int k = damos_sysfs_kdamond_on(d, &state), busy = 0;

	if (k >= 0)
		busy = damos_err_hint(-EBUSY, DAMOS_HINT_STOP_KDAMOND, k,
				      "a sysfs kdamond is on (%s), and %s does not start next to another DAMON user: stop it first" DAMOS_HINT_AT,
				      state, self);
	free(state);
	return busy;
}

/* "6.12.118-amd64" -> 6 * 1000 + 12; 0 if unknown. */
static int release_of(struct damon_ctx *d)
{
	char *p = damos_path("%s/proc/sys/kernel/osrelease", d->root);
	char word[64] = "";
	int major = 0, minor = 0;

	if (p && damos_exists(d, p) && !damos_read_word(d, p, word, sizeof(word)))
		sscanf(word, "%d.%d", &major, &minor);
	free(p);
	return major > 0 ? major * 1000 + minor : 0;
}

/*
 * A scheme directory of this kdamond, or of any, shows which files this
 * kernel makes; the release says the rest.  Without either, Linux 6.1.
 */
static void sysfs_probe(struct damon_ctx *d)
{
	char *pat = damos_path("%s/kdamonds/*/contexts/*/schemes/0", d->admin);
	char *own = cpath(d, "schemes/0");
	const char *dir = NULL;
	int rel = release_of(d), ver = rel;
	glob_t g = { 0 };
	bool globbed = false;

	if (own && damos_exists(d, own))
		dir = own;
	else if (pat && !glob(pat, 0, NULL, &g) && g.gl_pathc) {
		dir = g.gl_pathv[0];
		globbed = true;
	}
	d->feat = 0;
	for (int f = 0; dir && f < DAMOS_NR_FEATURES; f++) {
		const struct damos_feature_info *fi = &damos_features[f];
		char *p = fi->sysfs_probe ? damos_path("%s/%s", dir, fi->sysfs_probe) : NULL;

		if (p && damos_exists(d, p)) {
			d->feat |= 1U << f;
			if (fi->since_major * 1000 + fi->since_minor > ver)
				ver = fi->since_major * 1000 + fi->since_minor;
		}
		free(p);
	}
	if (!ver)
		ver = 6001;
	for (int f = 0; f < DAMOS_NR_FEATURES; f++) {
		const struct damos_feature_info *fi = &damos_features[f];

		if (f == DAMOS_FEAT_MONITOR_ON_DEPRECATED ||
		    (dir && fi->sysfs_probe))
			continue;
		if (fi->since_major * 1000 + fi->since_minor <= ver)
			d->feat |= 1U << f;
	}
	snprintf(d->kdesc, sizeof(d->kdesc), "sysfs, Linux %d.%d%s", ver / 1000,
		 ver % 1000, rel ? "" : dir ? " layout" : " layout assumed");
	if (globbed)
		globfree(&g);
	free(pat);
	free(own);
}

static int ulong_cmp(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

/* The numbered directories below @dir, in numeric order. */
static int region_dirs(const char *dir, unsigned long **out, size_t *n)
{
	char *pat = damos_path("%s/[0-9]*", dir);
	glob_t g = { 0 };
	int err = 0, r;

	*out = NULL;
	*n = 0;
	if (!pat)
		return damos_err(-ENOMEM, "out of memory");
	r = glob(pat, GLOB_ONLYDIR | GLOB_NOSORT, NULL, &g);
	free(pat);
	if (r == GLOB_NOMATCH)
		return 0;
	if (r)
		return damos_err(-EIO, "%s: cannot list the regions", dir);
	*out = calloc(g.gl_pathc ? g.gl_pathc : 1, sizeof(**out));
	if (!*out)
		err = damos_err(-ENOMEM, "out of memory");
	for (size_t i = 0; !err && i < g.gl_pathc; i++) {
		const char *name = strrchr(g.gl_pathv[i], '/') + 1;
		char *end;
		unsigned long v = strtoul(name, &end, 10);

		if (!*end)
			(*out)[(*n)++] = v;
	}
	globfree(&g);
	if (!err)
		qsort(*out, *n, sizeof(**out), ulong_cmp);
	return err;
}

/*
 * tried_regions/{total_bytes,<M>/{start,end,nr_accesses,age}}, files only
 * root reads (0400).  The kernel lists them on update_schemes_tried_regions
 * and keeps them until clear_schemes_tried_regions.
 */
static int sysfs_tried_regions(struct damon_ctx *d, size_t idx,
			       struct damos_tried_regions *r)
{
	static const char *const files[] = {
		"start", "end", "nr_accesses", "age",
	};
	char *dir = cpath(d, "schemes/%zu/tried_regions", idx), *p;
	unsigned long *idx_arr = NULL;
	size_t nr_idx = 0;
	bool on = false;
	int err = dir ? 0 : damos_err(-ENOMEM, "out of memory");

	if (!err && !damos_exists(d, dir)) {
		p = cpath(d, "schemes/%zu", idx);
		err = p && damos_exists(d, p) ?
		      damos_err(-EOPNOTSUPP, "%s: no tried_regions directory", p) :
		      damos_err(-ENOENT, "no scheme %zu", idx);
		free(p);
	}
	if (!err && !sysfs_status(d, &on, NULL) && on)
		err = update_cmd(d, "update_schemes_tried_regions");
	p = dir ? damos_path("%s/total_bytes", dir) : NULL;
	if (!err && p && damos_exists(d, p)) {
		err = damos_read_u64(d, p, &r->total_bytes);
		r->has_total = !err;
	}
	free(p);
	/*
	 * The kernel names a region's directory by a counter it shares among
	 * all schemes (6.2 to 6.12: damon_sysfs_schemes_region_idx), so a
	 * scheme's directories have gaps where another scheme's regions were.
	 */
	if (!err)
		err = region_dirs(dir, &idx_arr, &nr_idx);
	for (size_t i = 0; !err && i < nr_idx; i++) {
		struct damos_tried_region *t;
		uint64_t v[ARRAY_SIZE(files)];

		p = damos_path("%s/%lu", dir, idx_arr[i]);
		if (!p) {
			err = damos_err(-ENOMEM, "out of memory");
			break;
		}
		for (size_t f = 0; f < ARRAY_SIZE(files) && !err; f++)
			err = read_u64_at(d, damos_path("%s/%s", p, files[f]), &v[f]);
		free(p);
		t = err ? NULL : realloc(r->r, (r->nr + 1) * sizeof(*t));
		if (!err && !t)
			err = damos_err(-ENOMEM, "out of memory");
		if (err)
			break;
		r->r = t;
		r->r[r->nr++] = (struct damos_tried_region){
			.sz = sizeof(*t), .start = v[0], .end = v[1],
			.nr_accesses = v[2], .age = v[3],
		};
	}
	free(idx_arr);
	free(dir);
	return err;
}

/*
 * A context that is not there reads as defaults; a write makes it (and
 * kdamond 0 first of all), unless its kdamond is another that is not
 * there either.
 */
static int sysfs_context_check(struct damon_ctx *d)
{
	if (!d->kdamond_idx || damos_exists(d, d->dir) || damos_exists(d, d->kdamond))
		return 0;
	return damos_err(-ENOENT, "kdamond %d does not exist: no %s",
			 d->kdamond_idx, d->kdamond);
}

static bool sysfs_claims(const struct damon_opts *o, char *buf, size_t sz)
{
	if (!o->kdamond)
		return false;
	snprintf(buf, sz, "sysfs kdamond %d", o->kdamond);
	return true;
}

/* kdamonds/<N>/contexts/0, which a write makes if it is not there. */
static int sysfs_open(struct damon_ctx *d, const struct damon_opts *o)
{
	d->kdamond = damos_path("%s/kdamonds/%d", d->admin, o->kdamond);
	d->dir = d->kdamond ? damos_path("%s/contexts/0", d->kdamond) : NULL;
	return d->dir ? 0 : damos_err(-ENOMEM, "out of memory");
}

#define SYSFS_MAGIC	0x62656572

const struct damos_backend damos_sysfs_backend = {
	.iface = DAMON_IFACE_SYSFS,
	.top = "sys/kernel/mm/damon/admin",
	.fs_magic = SYSFS_MAGIC,
	.claims = sysfs_claims,
	.open = sysfs_open,
	.tried_regions = sysfs_tried_regions,
	.user = "sysfs monitoring",
	.exclusive = false,
	.in_use = sysfs_in_use,
	.probe = sysfs_probe,
	.schemes_read = sysfs_schemes_read,
	.stats_update = sysfs_stats_update,
	.schemes_write = sysfs_schemes_write,
	.attrs_read = sysfs_attrs_read,
	.attrs_write = sysfs_attrs_write,
	.targets_read = sysfs_targets_read,
	.targets_write = sysfs_targets_write,
	.status = sysfs_status,
	.turn = sysfs_turn,
	.goal_current = sysfs_goal_current,
	.model_write = damos_sysfs_model_write,
	.context_check = sysfs_context_check,
};

/* ---- the kdamonds of a setup (damon_kdamonds_count/resize) ---- */

int damon_kdamonds_count(struct damon_ctx *d, unsigned int *nr)
{
	uint64_t v = 0;
	int err;

	if (d->ops != &damos_sysfs_backend) {
		*nr = 1;	/* dbgfs: one kdamond per context, all together */
		return 0;
	}
	err = read_u64_at(d, damos_path("%s/kdamonds/nr_kdamonds", d->admin), &v);
	if (err)
		return err;
	if (v > 1024)
		return damos_err(-ERANGE, "nr_kdamonds reads %llu", (unsigned long long)v);
	*nr = (unsigned int)v;
	return 0;
}

int damon_kdamonds_resize(struct damon_ctx *d, unsigned int nr)
{
	unsigned int now;
	int err;

	if (d->ops != &damos_sysfs_backend)
		return damos_err(-EOPNOTSUPP, "several kdamonds need DAMON's sysfs interface (dbgfs has contexts: mk_contexts)");
	if (!nr || nr > 1024)
		return damos_err(-EINVAL, "%u kdamonds: 1 to 1024", nr);
	err = damon_kdamonds_count(d, &now);
	if (err || now == nr)
		return err;
	/* the kernel refuses while one runs (EBUSY): say which */
	for (unsigned int i = 0; i < now; i++) {
		char *p = damos_path("%s/kdamonds/%u/state", d->admin, i);
		char word[16] = "";

		if (!p)
			return damos_err(-ENOMEM, "out of memory");
		err = damos_read_word(d, p, word, sizeof(word));
		free(p);
		if (err)
			return err;
		if (!strcmp(word, "on"))
			return damos_err(-EBUSY, "kdamond %u is on: nr_kdamonds is written with every kdamond off", i);
	}
	err = write_u64_at(d, damos_path("%s/kdamonds/nr_kdamonds", d->admin), nr);
	for (unsigned int i = 0; !err && i < nr; i++)
		err = write_u64_at(d, damos_path("%s/kdamonds/%u/contexts/nr_contexts",
						 d->admin, i), 1);
	return err;
}
