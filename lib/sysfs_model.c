// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * What the kernel does on a write to its sysfs files, done on plain files:
 * the dry run's overlay, and the test build's fake trees.  The files
 * of a numbered directory come from the tables the backend reads and
 * writes through (damos_fields[], damos_features[], the attrs files), so
 * there is one description of the tree, not a second model of it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

const char *const damos_sysfs_attr_files[DAMOS_SYSFS_NR_ATTR_FILES] = {
	"monitoring_attrs/intervals/sample_us",
	"monitoring_attrs/intervals/aggr_us",
	"monitoring_attrs/intervals/update_us",
	"monitoring_attrs/nr_regions/min",
	"monitoring_attrs/nr_regions/max",
};

/* The files of a new directory: "rel=default"; "rel/" a directory. */
static const char *const kdamond_files[] = {
	"state=off", "pid=-1", "contexts/nr_contexts=0", NULL,
};
static const char *const target_files[] = {
	"pid_target=0", "regions/nr_regions=0", NULL,
};
static const char *const region_files[] = { "start=0", "end=0", NULL };
static const char *const filter_files[] = {
	"type=anon", "matching=N", "memcg_path=", NULL,
};
static const char *const filter_addr_files[] = {	/* 6.6 */
	"addr_start=0", "addr_end=0", "damon_target_idx=0", NULL,
};
static const char *const goal_files[] = {
	"target_value=0", "current_value=0", NULL,
};
static const char *const goal_metric_files[] = {	/* 6.9 */
	"target_metric=user_input", NULL,
};

static int add(struct damos_snap *sn, const char *rel, const char *def)
{
	char *r, *c;

	if (damos_snap_get(sn, rel))
		return 0;
	r = strdup(rel);
	c = damos_path("%s%s", def, *def ? "\n" : "");
	if (!r || !c) {
		free(r);
		free(c);
		return damos_err(-ENOMEM, "out of memory");
	}
	return damos_snap_add(sn, r, c, true);
}

static int add_list(struct damos_snap *sn, const char *const *files)
{
	int err = 0;

	for (; !err && files && *files; files++) {
		const char *eq = strchr(*files, '=');
		char *rel = strndup(*files, eq - *files);

		err = rel ? add(sn, rel, eq + 1) : -ENOMEM;
		free(rel);
	}
	return err;
}

static int context_layout(struct damos_snap *sn)
{
	struct damon_attrs a;
	struct damos_buf ops = { 0 };
	char v[32];
	int err = 0;

	damon_attrs_default(&a);
	for (size_t i = 0; !err && i < DAMOS_SYSFS_NR_ATTR_FILES; i++) {
		snprintf(v, sizeof(v), "%llu",
			 (unsigned long long)*damon_attrs_field(&a, i));
		err = add(sn, damos_sysfs_attr_files[i], v);
	}
	for (int o = 0; o < DAMON_NR_OPS; o++)
		damos_buf_printf(&ops, "%s%s", o ? "\n" : "", damon_ops_name(o));
	if (!err)
		err = ops.err ?: add(sn, "avail_operations", ops.s);
	damos_buf_free(&ops);
	if (!err)
		err = add(sn, "operations", damon_ops_name(DAMON_OPS_VADDR));
	if (!err)
		err = add(sn, "targets/nr_targets", "0");
	return err ?: add(sn, "schemes/nr_schemes", "0");
}

/* What a new scheme directory's file @fi reads (not the model's default). */
static const char *field_default(const struct damos_field_info *fi)
{
	if (fi->unit == U_ACTION)
		return damos_action_name(DAMOS_ACTION_STAT);
	if (fi->unit == U_METRIC)
		return damos_metric_name(DAMOS_WMARK_NONE);
	return fi->unit == U_NID ? "-1" : "0";
}

/* Every field's file, and the directories later kernels add, by feature. */
static int scheme_layout(struct damon_ctx *d, struct damos_snap *sn)
{
	int err = 0;

	for (int f = 0; !err && f < DAMOS_NR_FIELDS; f++) {
		const struct damos_field_info *fi = &damos_fields[f];

		if (fi->feature < 0 || damos_has_now(d, fi->feature, false) == 1)
			err = add(sn, fi->sysfs, field_default(fi));
	}
	for (int f = 0; !err && f < DAMOS_NR_FEATURES; f++) {
		const char *p = damos_features[f].sysfs_probe;
		const char *b = p ? strrchr(p, '/') : NULL;
		char dir[64];

		if (!p || damos_snap_get(sn, p) || damos_has_now(d, f, false) != 1)
			continue;
		snprintf(dir, sizeof(dir), "%s/", p);
		err = !strncmp(b ? b + 1 : p, "nr_", 3) ? add(sn, p, "0") :
		      add(sn, dir, "");
	}
	return err;
}

static int filter_layout(struct damon_ctx *d, struct damos_snap *sn)
{
	int err = add_list(sn, filter_files);

	if (!err && damos_has_now(d, DAMOS_FEAT_FILTER_ADDR, false) == 1)
		err = add_list(sn, filter_addr_files);
	return err;
}

static int goal_layout(struct damon_ctx *d, struct damos_snap *sn)
{
	int err = add_list(sn, goal_files);

	if (!err && damos_has_now(d, DAMOS_FEAT_GOAL_METRIC, false) == 1)
		err = add_list(sn, goal_metric_files);
	return err;
}

/* The layout of a directory of @nr_file; 1 if the tree has none. */
static int layout(struct damon_ctx *d, const char *nr_file,
		  struct damos_snap *sn)
{
	if (damos_ends_with(nr_file, "kdamonds/nr_kdamonds"))
		return add_list(sn, kdamond_files);
	if (damos_ends_with(nr_file, "contexts/nr_contexts"))
		return context_layout(sn);
	if (damos_ends_with(nr_file, "targets/nr_targets"))
		return add_list(sn, target_files);
	if (damos_ends_with(nr_file, "regions/nr_regions"))
		return add_list(sn, region_files);
	if (damos_ends_with(nr_file, "schemes/nr_schemes"))
		return scheme_layout(d, sn);
	if (damos_ends_with(nr_file, "filters/nr_filters"))
		return filter_layout(d, sn);
	if (damos_ends_with(nr_file, "goals/nr_goals"))
		return goal_layout(d, sn);
	/*
	 * a later kernel's nr_* in a scheme: numbered dirs like their 0; but
	 * the weight nr_accesses_permil and the statistics are values
	 */
	if (strstr(nr_file, "/schemes/") &&
	    !damos_ends_with(nr_file, "weights/nr_accesses_permil") &&
	    !strstr(nr_file, "/stats/"))
		return 0;
	return 1;
}

static bool numbered_part(const char *rel)
{
	for (const char *c = rel; *c; c = strchr(c, '/') ? strchr(c, '/') + 1 : "") {
		size_t n = strcspn(c, "/");

		if (n && strspn(c, "0123456789") == n)
			return true;
	}
	return false;
}

/*
 * The files of @zero (an existing <dir>/0) outside its own numbered
 * directories, at "0" where @sn has no default: a kernel makes every new
 * directory with the same files, those this library does not know included.
 */
static int add_template(struct damos_io *files, const char *zero,
			struct damos_snap *sn)
{
	struct damos_snap t = { 0 };
	int err = 0;

	if (!damos_io_exists(files, zero) || damos_snap_read_io(files, zero, &t))
		return 0;
	for (size_t i = 0; !err && i < t.n; i++)
		if (!numbered_part(t.f[i].rel))
			err = add(sn, t.f[i].rel, "0");
	damos_snap_free_files(&t);
	return err;
}

/* Make the files of @sn below @dir. */
static int populate(struct damos_io *files, const char *dir,
		    const struct damos_snap *sn)
{
	int err = damos_io_mkdir(files, dir);

	for (size_t i = 0; !err && i < sn->n; i++) {
		const struct damos_snap_file *f = &sn->f[i];
		char *p = damos_path("%s/%s", dir, f->rel);
		char *parent = p ? strndup(p, strrchr(p, '/') - p) : NULL;

		err = parent ? damos_io_mkdir(files, parent) : -ENOMEM;
		if (!err && f->rel[strlen(f->rel) - 1] != '/')
			err = damos_io_write(files, p, f->content,
					     DAMOS_IO_CREATE);
		free(parent);
		free(p);
	}
	return err;
}

/* <parent>/0 ... <parent>/<nr - 1> anew, as the kernel does. */
static int remake_dirs(struct damos_io *files, const char *parent,
		       uint64_t nr, const struct damos_snap *sn)
{
	int err = 0;

	for (uint64_t i = 0; !err; i++) {
		char *p = damos_path("%s/%llu", parent, (unsigned long long)i);
		bool there = p && damos_io_exists(files, p);

		err = !p ? -ENOMEM : there ? damos_io_remove(files, p) : 0;
		free(p);
		if (!there)
			break;
	}
	for (uint64_t i = 0; !err && i < nr; i++) {
		char *p = damos_path("%s/%llu", parent, (unsigned long long)i);

		err = p ? populate(files, p, sn) : -ENOMEM;
		free(p);
	}
	return err;
}

/* A write to an nr_* file: the number, then its directories anew. */
static int nr_write(struct damon_ctx *d, struct damos_io *files,
		    const char *path, const char *content, unsigned int flags)
{
	struct damos_snap sn = { 0 };
	char word[32], *parent, *zero;
	uint64_t nr;
	int err = layout(d, path, &sn);

	snprintf(word, sizeof(word), "%.*s", (int)strcspn(content, "\n"),
		 content);
	if (err == 1) {
		err = 0;
		goto plain;
	}
	if (!err && (damos_parse_u64(word, &nr) || nr > 4096))
		err = damos_err(-EINVAL, "cannot write %s: %s", path,
				strerror(EINVAL));
	parent = err ? NULL : strndup(path, strrchr(path, '/') - path);
	zero = parent ? damos_path("%s/0", parent) : NULL;
	if (!err && !zero)
		err = -ENOMEM;
	if (!err)
		err = add_template(files, zero, &sn);
	if (!err)
		err = damos_io_write(files, path, content, flags);
	if (!err)
		err = remake_dirs(files, parent, nr, &sn);
	free(zero);
	free(parent);
	damos_snap_free_files(&sn);
	return err;
plain:
	damos_snap_free_files(&sn);
	return damos_io_write(files, path, content, flags);
}

static int state_cmd(struct damos_io *files, const char *path,
		     const char *content, unsigned int flags)
{
	char *old = NULL;
	int err = damos_io_read(files, path, &old);

	if (!err)
		err = damos_io_write(files, path, content, flags);
	if (!err)
		err = damos_io_write(files, path, old, 0);
	free(old);
	return err;
}

static bool in_dir(const char *path, const char *dir)
{
	size_t n = dir ? strlen(dir) : 0;

	return n && !strncmp(path, dir, n) && path[n] == '/';
}

int damos_sysfs_model_write(struct damon_ctx *d, struct damos_io *files,
			    const char *path, const char *content,
			    unsigned int flags)
{
	const char *base = strrchr(path, '/') + 1;

	if (!in_dir(path, d->admin))
		return damos_io_write(files, path, content, flags);
	/* a command: "state" takes it, and keeps showing on or off */
	if (!strcmp(base, "state") && strcmp(content, "on\n") &&
	    strcmp(content, "off\n") && damos_io_exists(files, path))
		return state_cmd(files, path, content, flags);
	if (strncmp(base, "nr_", 3))
		return damos_io_write(files, path, content, flags);
	return nr_write(d, files, path, content, flags);
}
