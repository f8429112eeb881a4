// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Paths below the context (kdamonds/N/contexts/0) or the kdamond. */
static char *cpath(struct damos_ctx *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static char *cpath(struct damos_ctx *d, const char *fmt, ...)
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

static int read_u64_at(struct damos_ctx *d, char *path, uint64_t *v)
{
	int err = path ? damos_read_u64(d, path, v) : -ENOMEM;

	free(path);
	return err;
}

static int write_at(struct damos_ctx *d, char *path, const char *content)
{
	int err = path ? damos_write(d, path, content) : -ENOMEM;

	free(path);
	return err;
}

static int write_u64_at(struct damos_ctx *d, char *path, uint64_t v)
{
	int err = path ? damos_write_u64(d, path, v) : -ENOMEM;

	free(path);
	return err;
}

static int sysfs_status(struct damos_ctx *d, bool *on, int *pid)
{
	char word[32] = "off";
	char *p;
	int err = 0;

	p = damos_path("%s/state", d->kdamond);
	if (!p)
		return damos_err(-ENOMEM, "out of memory");
	if (damos_exists(p) || !d->fresh)
		err = damos_read_word(d, p, word, sizeof(word));
	free(p);
	if (err && !damos_exists(d->kdamond))
		err = 0;	/* no kdamond yet: off */
	if (err)
		return err;
	if (on)
		*on = !strcmp(word, "on");
	if (pid) {
		*pid = -1;
		p = damos_path("%s/pid", d->kdamond);
		if (p && damos_exists(p) &&
		    !damos_read_word(d, p, word, sizeof(word)))
			*pid = atoi(word);
		free(p);
	}
	return 0;
}

/* Make kdamonds/N/contexts/0 exist, without resetting another kdamond. */
static int ensure_ctx(struct damos_ctx *d)
{
	uint64_t nr = 0;
	char *p;
	int err;

	if (d->fresh || damos_exists(d->dir))
		return 0;
	p = damos_path("%s/kdamonds/nr_kdamonds", d->admin);
	err = read_u64_at(d, p, &nr);
	if (err)
		return err;
	if (nr <= (uint64_t)d->kdamond_idx) {
		if (nr)
			return damos_err(-ENOENT,
					 "kdamond %d does not exist and making it would reset the %llu there: use --kdamond 0..%llu",
					 d->kdamond_idx, (unsigned long long)nr,
					 (unsigned long long)nr - 1);
		err = write_u64_at(d, damos_path("%s/kdamonds/nr_kdamonds",
						 d->admin), d->kdamond_idx + 1);
		if (err)
			return err;
	}
	err = write_u64_at(d, damos_path("%s/contexts/nr_contexts",
					 d->kdamond), 1);
	if (!err && d->dry_run)
		d->fresh = true;
	return err;
}

static int commit_if_on(struct damos_ctx *d)
{
	bool on = false;
	int err = sysfs_status(d, &on, NULL);

	if (err || !on)
		return err;
	return write_at(d, damos_path("%s/state", d->kdamond), "commit\n");
}

static int read_scheme(struct damos_ctx *d, size_t i, struct damos_scheme *s)
{
	char word[64];
	int err = 0;

	for (int f = 0; f < DAMOS_NR_FIELDS && !err; f++) {
		char *p = cpath(d, "schemes/%zu/%s", i, damos_fields[f].sysfs);
		uint64_t v = 0;

		if (!p)
			return damos_err(-ENOMEM, "out of memory");
		if (f == DAMOS_F_ACTION || f == DAMOS_F_WMARKS_METRIC) {
			err = damos_read_word(d, p, word, sizeof(word));
			if (!err) {
				int r = f == DAMOS_F_ACTION ?
					damos_action_from_name(word) :
					damos_metric_from_name(word);
				if (r < 0)
					err = damos_err_prefix(r, "%s: ", p);
				v = (uint64_t)r;
			}
		} else {
			err = damos_read_u64(d, p, &v);
		}
		if (!err)
			err = damos_scheme_set(s, f, v);
		free(p);
	}
	return err;
}

static int sysfs_schemes_read(struct damos_ctx *d, struct damos_scheme ***out,
			      size_t *n)
{
	struct damos_scheme **arr = NULL;
	uint64_t nr = 0;
	bool on = false;
	int err = 0;
	size_t i;

	*out = NULL;
	*n = 0;
	if (d->fresh || !damos_exists(d->dir))
		return 0;
	if (!d->dry_run && !sysfs_status(d, &on, NULL) && on)
		write_at(d, damos_path("%s/state", d->kdamond),
			 "update_schemes_stats\n");
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

static int write_scheme(struct damos_ctx *d, size_t i, const struct damos_scheme *s)
{
	int err = 0;

	for (int f = 0; f < DAMOS_NR_INPUT_FIELDS && !err; f++) {
		uint64_t v = damos_scheme_get(s, f);
		char *p = cpath(d, "schemes/%zu/%s", i, damos_fields[f].sysfs);
		char buf[64];

		if (f == DAMOS_F_ACTION)
			snprintf(buf, sizeof(buf), "%s\n", damos_action_name(v));
		else if (f == DAMOS_F_WMARKS_METRIC)
			snprintf(buf, sizeof(buf), "%s\n", damos_metric_name(v));
		else
			snprintf(buf, sizeof(buf), "%llu\n",
				 (unsigned long long)v);
		err = write_at(d, p, buf);
	}
	return err;
}

/*
 * Writing nr_schemes recreates every scheme directory with default values,
 * so all schemes are written again; "commit" then updates a running
 * kdamond's schemes in place, keeping their statistics.
 */
static int sysfs_schemes_write(struct damos_ctx *d, struct damos_scheme *const *s,
			       size_t n)
{
	int err = 0;

	for (size_t i = 0; i < n && !err; i++)
		if ((err = damos_scheme_validate(s[i])))
			damos_err_prefix(err, "scheme %zu: ", i);
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

static const char *const attr_files[] = {
	"monitoring_attrs/intervals/sample_us",
	"monitoring_attrs/intervals/aggr_us",
	"monitoring_attrs/intervals/update_us",
	"monitoring_attrs/nr_regions/min",
	"monitoring_attrs/nr_regions/max",
};

static int sysfs_attrs_read(struct damos_ctx *d, struct damos_attrs *a)
{
	uint64_t *v = &a->sample_us;
	int err = 0;

	damos_attrs_default(a);
	if (d->fresh || !damos_exists(d->dir))
		return 0;
	for (size_t i = 0; i < ARRAY_SIZE(attr_files) && !err; i++)
		err = read_u64_at(d, cpath(d, "%s", attr_files[i]), &v[i]);
	return err;
}

static int sysfs_attrs_write(struct damos_ctx *d, const struct damos_attrs *a)
{
	const uint64_t *v = &a->sample_us;
	int err = damos_attrs_validate(a);

	if (!err)
		err = ensure_ctx(d);
	for (size_t i = 0; i < ARRAY_SIZE(attr_files) && !err; i++)
		err = write_u64_at(d, cpath(d, "%s", attr_files[i]), v[i]);
	if (!err)
		err = commit_if_on(d);
	return err;
}

static int sysfs_targets_read(struct damos_ctx *d, struct damos_targets *t)
{
	char word[32];
	uint64_t nr = 0, v;
	int err = 0;

	memset(t, 0, sizeof(*t));
	if (d->fresh || !damos_exists(d->dir))
		return 0;
	char *p = cpath(d, "operations");

	err = p ? damos_read_word(d, p, word, sizeof(word)) : -ENOMEM;
	free(p);
	for (t->ops = 0; !err && t->ops < DAMOS_NR_OPS; t->ops++)
		if (!strcmp(word, damos_ops_name(t->ops)))
			break;
	if (!err && t->ops == DAMOS_NR_OPS)
		err = damos_err(-EINVAL, "operations: unknown '%s'", word);
	if (!err)
		err = read_u64_at(d, cpath(d, "targets/nr_targets"), &nr);
	if (!err && nr > 65536)
		err = damos_err(-EINVAL, "nr_targets %llu: too many",
				(unsigned long long)nr);
	if (!err && nr && !(t->targets = calloc(nr, sizeof(*t->targets))))
		err = damos_err(-ENOMEM, "out of memory");
	for (size_t i = 0; i < nr && !err; i++) {
		struct damos_target *tg = &t->targets[i];
		uint64_t nr_regions = 0;

		t->nr++;
		err = read_u64_at(d, cpath(d, "targets/%zu/pid_target", i), &v);
		tg->pid = t->ops == DAMOS_OPS_VADDR ? (int)v : 0;
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
		damos_targets_free(t);
	return err;
}

static int sysfs_targets_write(struct damos_ctx *d, const struct damos_targets *t)
{
	char buf[32];
	int err = damos_targets_validate(t);

	if (!err)
		err = ensure_ctx(d);
	snprintf(buf, sizeof(buf), "%s\n", damos_ops_name(t->ops));
	if (!err)
		err = write_at(d, cpath(d, "operations"), buf);
	if (!err)
		err = write_u64_at(d, cpath(d, "targets/nr_targets"), t->nr);
	for (size_t i = 0; i < t->nr && !err; i++) {
		const struct damos_target *tg = &t->targets[i];

		if (t->ops == DAMOS_OPS_VADDR)
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

static int sysfs_turn(struct damos_ctx *d, bool on)
{
	int err = on ? ensure_ctx(d) : 0;

	if (!err)
		err = write_at(d, damos_path("%s/state", d->kdamond),
			       on ? "on\n" : "off\n");
	return err;
}

const struct damos_backend damos_sysfs_backend = {
	.schemes_read = sysfs_schemes_read,
	.schemes_write = sysfs_schemes_write,
	.attrs_read = sysfs_attrs_read,
	.attrs_write = sysfs_attrs_write,
	.targets_read = sysfs_targets_read,
	.targets_write = sysfs_targets_write,
	.status = sysfs_status,
	.turn = sysfs_turn,
};
