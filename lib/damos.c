// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#include <errno.h>
#include <glob.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "internal.h"

#define DEBUGFS_MAGIC	0x64626720
#define SYSFS_MAGIC	0x62656572

static char *norm_root(const char *root)
{
	size_t n;

	if (!root || !*root)
		root = "/";
	n = strlen(root);
	while (n > 0 && root[n - 1] == '/')
		n--;
	return strndup(root, n);
}

unsigned int damos_detect(const char *root)
{
	char *r = norm_root(root), *p;
	unsigned int mask = 0;

	if (!r)
		return 0;
	p = damos_path("%s/sys/kernel/mm/damon/admin", r);
	if (damos_exists(p))
		mask |= 1U << DAMOS_IFACE_SYSFS;
	free(p);
	p = damos_path("%s/sys/kernel/debug/damon", r);
	if (damos_exists(p))
		mask |= 1U << DAMOS_IFACE_DBGFS;
	free(p);
	free(r);
	return mask;
}

/* Whether @path cannot be seen for lack of permission (not for lack of it). */
static bool denied(const char *path)
{
	return access(path, F_OK) && errno == EACCES;
}

static bool on_fs(const char *path, long magic)
{
	struct statfs st;

	return !statfs(path, &st) && st.f_type == magic;
}

void damos_close(struct damos_ctx *d)
{
	if (!d)
		return;
	free(d->root);
	free(d->real_root);
	free(d->dbgfs);
	free(d->admin);
	free(d->kdamond);
	free(d->dir);
	damos_buf_free(&d->script);
	free(d);
}

/*
 * Options from a caller built against an older, shorter struct, or a newer,
 * longer one: its extra bytes must be zero (options this library does not
 * know cannot be honoured, so they are refused, as libbpf's OPTS_VALID()).
 */
int damos_opts_get(const struct damos_opts *in, struct damos_opts *o)
{
	struct damos_opts def = DAMOS_OPTS_INIT;

	*o = def;
	if (in && in->sz > sizeof(*o)) {
		const unsigned char *extra = (const unsigned char *)in + sizeof(*o);

		for (size_t i = 0; i < in->sz - sizeof(*o); i++)
			if (extra[i])
				return damos_err(-EINVAL,
						 "damos_opts: byte %zu is set, and this libdamos knows only the first %zu (options of a newer version)",
						 sizeof(*o) + i, sizeof(*o));
	}
	if (in)
		memcpy(o, in, in->sz < sizeof(*o) ? in->sz : sizeof(*o));
	o->sz = sizeof(*o);
	return 0;
}

/* @p (below d->root) as the same path below @root; NULL if out of memory. */
static char *rebase(const struct damos_ctx *d, const char *root, char *p)
{
	char *q = p ? damos_path("%s%s", root, p + strlen(d->root)) : NULL;

	free(p);
	return q;
}

/*
 * A dry run works on the dry-run layer's copy of the DAMON files, with the
 * kernel emulated there, and records its writes below the real root.
 */
static int use_dry_layer(struct damos_ctx *d)
{
	const char *layer = damos_dry_layer(d->root);
	char *root;

	if (!layer)
		return -EIO;
	root = strdup(layer);
	d->real_emulate = d->emulate;
	d->emulate = true;
	d->dbgfs = rebase(d, layer, d->dbgfs);
	d->admin = rebase(d, layer, d->admin);
	d->kdamond = rebase(d, layer, d->kdamond);
	d->dir = rebase(d, layer, d->dir);
	d->real_root = d->root;
	d->root = root;
	if (!root || !d->dbgfs || !d->admin || !d->kdamond || !d->dir)
		return damos_err(-ENOMEM, "out of memory");
	return 0;
}

struct damos_ctx *damos_open(const struct damos_opts *opts)
{
	struct damos_opts o;
	struct damos_ctx *d;
	unsigned int mask;
	bool ctx;
	int err = 0;

	if (opts && opts->sz < offsetof(struct damos_opts, root))
		return damos_err_null(-EINVAL, "damos_opts: .sz not set");
	if (damos_opts_get(opts, &o)) {
		errno = EINVAL;
		return NULL;
	}
	if ((unsigned int)o.iface > DAMOS_IFACE_DBGFS || o.kdamond < 0)
		return damos_err_null(-EINVAL, "damos_opts: bad interface or kdamond");
	d = calloc(1, sizeof(*d));
	if (!d)
		return damos_err_null(-ENOMEM, "out of memory");
	d->root = norm_root(o.root);
	d->dry_run = o.dry_run;
	d->kdamond_idx = o.kdamond;
	d->max_action = o.dbgfs_lru < 0 ? -1 : o.dbgfs_lru ? 7 : 5;
	d->dbgfs = d->root ? damos_path("%s/sys/kernel/debug/damon", d->root) : NULL;
	d->admin = d->root ? damos_path("%s/sys/kernel/mm/damon/admin", d->root) : NULL;
	d->kdamond = d->admin ? damos_path("%s/kdamonds/%d", d->admin, o.kdamond) : NULL;
	if (!d->kdamond) {
		damos_close(d);
		return damos_err_null(-ENOMEM, "out of memory");
	}
	mask = damos_detect(d->root[0] ? d->root : "/");
	d->iface = o.iface;
	/*
	 * A context is dbgfs's and a kdamond index sysfs's: either picks its
	 * interface, and is refused on the other rather than ignored.
	 */
	ctx = o.dbgfs_ctx && *o.dbgfs_ctx;
	if (ctx && o.kdamond)
		err = damos_err(-EINVAL, "dbgfs context '%s' and sysfs kdamond %d: one interface at a time",
				o.dbgfs_ctx, o.kdamond);
	else if (ctx && d->iface == DAMOS_IFACE_SYSFS)
		err = damos_err(-EINVAL, "dbgfs context '%s' on the sysfs interface",
				o.dbgfs_ctx);
	else if (o.kdamond && d->iface == DAMOS_IFACE_DBGFS)
		err = damos_err(-EINVAL, "sysfs kdamond %d on the dbgfs interface",
				o.kdamond);
	if (err) {
		damos_close(d);
		errno = -err;
		return NULL;
	}
	if (d->iface == DAMOS_IFACE_AUTO)
		d->iface = ctx ? DAMOS_IFACE_DBGFS : o.kdamond ? DAMOS_IFACE_SYSFS :
			   mask & (1U << DAMOS_IFACE_SYSFS) ? DAMOS_IFACE_SYSFS :
			   DAMOS_IFACE_DBGFS;
	if (!(mask & (1U << d->iface))) {
		const char *hidden = denied(d->dbgfs) ? d->dbgfs :
				     denied(d->admin) ? d->admin : NULL;

		/* debugfs is root's only: say so rather than "missing" */
		if (hidden && (o.iface == DAMOS_IFACE_AUTO ||
			       hidden == (d->iface == DAMOS_IFACE_SYSFS ?
					  d->admin : d->dbgfs)))
			err = damos_err(-EACCES,
					"cannot look into %s: %s (DAMON's files need root)",
					hidden, strerror(EACCES));
		else if (o.iface == DAMOS_IFACE_AUTO)
			err = damos_err(-ENOENT,
					"no DAMON interface: neither %s nor %s exists",
					d->admin, d->dbgfs);
		else
			err = damos_err(-ENOENT, "no DAMON %s interface: %s does not exist",
					damos_iface_name(d->iface),
					d->iface == DAMOS_IFACE_SYSFS ? d->admin : d->dbgfs);
	}
	if (!err && d->iface == DAMOS_IFACE_SYSFS) {
		d->ops = &damos_sysfs_backend;
		d->dir = damos_path("%s/contexts/0", d->kdamond);
	} else if (!err) {
		d->ops = &damos_dbgfs_backend;
		d->dir = o.dbgfs_ctx && *o.dbgfs_ctx ?
			 damos_path("%s/%s", d->dbgfs, o.dbgfs_ctx) :
			 strdup(d->dbgfs);
		if (d->dir && !damos_exists(d->dir))
			err = damos_err(-ENOENT, "no dbgfs context %s", d->dir);
	}
	if (!err && !d->dir)
		err = damos_err(-ENOMEM, "out of memory");
	if (!err) {
		const char *top = d->iface == DAMOS_IFACE_SYSFS ? d->admin : d->dbgfs;
		long magic = d->iface == DAMOS_IFACE_SYSFS ? SYSFS_MAGIC : DEBUGFS_MAGIC;

		d->emulate = o.emulate < 0 ? !on_fs(top, magic) : o.emulate;
	}
	if (!err && d->dry_run)
		err = use_dry_layer(d);
	if (err) {
		damos_close(d);
		errno = -err;
		return NULL;
	}
	return d;
}

enum damos_iface damos_get_iface(const struct damos_ctx *d)
{
	return d->iface;
}

const char *damos_get_dir(const struct damos_ctx *d)
{
	return d->dir;
}

int damos_dbgfs_lru_supported(struct damos_ctx *d)
{
	if (d->iface != DAMOS_IFACE_DBGFS)
		return damos_err(-EOPNOTSUPP, "not on dbgfs");
	if (d->max_action < 0 && (d->real_root ? d->real_emulate : d->emulate)) {
		char *p = damos_path("%s/.max_action", d->dbgfs);
		uint64_t v = 7;

		if (p && damos_exists(p) && damos_read_u64(d, p, &v)) {
			free(p);
			return -EINVAL;
		}
		free(p);
		d->max_action = v > 7 ? 7 : (int)v;
	}
	if (d->max_action < 0 && d->dry_run)
		return damos_err(-EAGAIN, "dry run: dbgfs not probed");
	if (d->max_action < 0 && damos_dbgfs_probe(d))
		return damos_err(-EAGAIN, "dbgfs probe could not run");
	return d->max_action >= 7;
}

void damos_features_probe(struct damos_ctx *d)
{
	if (d->feat_probed)
		return;
	d->feat_probed = true;
	d->ops->probe(d);
}

int damos_has(struct damos_ctx *d, enum damos_feature f)
{
	if ((unsigned int)f >= DAMOS_NR_FEATURES)
		return damos_err(-EINVAL, "%d is not a feature", f);
	damos_features_probe(d);
	if (f == DAMOS_FEAT_LRU_ACTIONS && d->iface == DAMOS_IFACE_DBGFS)
		return damos_dbgfs_lru_supported(d);
	return !!(d->feat & (1U << f));
}

const char *damos_kernel_desc(struct damos_ctx *d)
{
	damos_features_probe(d);
	return d->kdesc;
}

int damos_feature_err(struct damos_ctx *d, int f, const char *what)
{
	const struct damos_feature_info *fi = &damos_features[f];

	damos_features_probe(d);
	if (d->iface == DAMOS_IFACE_DBGFS)
		return damos_err(-EOPNOTSUPP,
				 "%s needs %s, which dbgfs does not have (the sysfs interface of Linux %d.%d+ does); nothing was changed",
				 what, fi->what, fi->since_major, fi->since_minor);
	return damos_err(-EOPNOTSUPP,
			 "%s needs %s (Linux %d.%d+), which this kernel (%s) lacks; nothing was changed",
			 what, fi->what, fi->since_major, fi->since_minor, d->kdesc);
}

/* Every feature a scheme the caller made or changed uses must be there. */
int damos_scheme_features(struct damos_ctx *d, const struct damos_scheme *s,
			  size_t idx)
{
	char what[96];
	int a = damos_scheme_action(s);

	if (s->kernel && !s->dirty)
		return 0;
	if (a >= 0 && damos_actions[a].feature >= 0 &&
	    !(a == DAMOS_ACTION_LRU_PRIO || a == DAMOS_ACTION_LRU_DEPRIO) &&
	    (d->iface == DAMOS_IFACE_DBGFS || damos_has(d, damos_actions[a].feature) != 1)) {
		snprintf(what, sizeof(what), "scheme %zu: %s", idx,
			 damos_actions[a].name);
		return damos_feature_err(d, damos_actions[a].feature, what);
	}
	for (int f = 0; f < DAMOS_NR_FIELDS; f++) {
		const struct damos_field_info *fi = &damos_fields[f];

		if (fi->feature < 0 || fi->unit == U_STAT || s->v[f] == fi->def)
			continue;
		if (d->iface == DAMOS_IFACE_SYSFS && damos_has(d, fi->feature) == 1)
			continue;
		snprintf(what, sizeof(what), "scheme %zu: %s", idx, fi->label);
		return damos_feature_err(d, fi->feature, what);
	}
	for (size_t i = 0; i < s->nr_filters; i++) {
		int t = s->filters[i].type;
		int need = t >= 0 ? damos_filter_types[t].feature : DAMOS_FEAT_FILTERS;

		if (d->iface == DAMOS_IFACE_SYSFS &&
		    damos_has(d, DAMOS_FEAT_FILTERS) == 1 && damos_has(d, need) == 1)
			continue;
		snprintf(what, sizeof(what), "scheme %zu: filter %s", idx,
			 s->filters[i].word);
		return damos_feature_err(d, d->iface == DAMOS_IFACE_SYSFS &&
					 damos_has(d, DAMOS_FEAT_FILTERS) == 1 ?
					 need : DAMOS_FEAT_FILTERS, what);
	}
	for (size_t i = 0; i < s->nr_goals; i++) {
		int need = s->goals[i].metric == DAMOS_GOAL_USER_INPUT ?
			   DAMOS_FEAT_QUOTA_GOALS : DAMOS_FEAT_GOAL_METRIC;

		if (d->iface == DAMOS_IFACE_SYSFS &&
		    damos_has(d, DAMOS_FEAT_QUOTA_GOALS) == 1 && damos_has(d, need) == 1)
			continue;
		snprintf(what, sizeof(what), "scheme %zu: goal %s", idx,
			 s->goals[i].word);
		return damos_feature_err(d, d->iface == DAMOS_IFACE_SYSFS &&
					 damos_has(d, DAMOS_FEAT_QUOTA_GOALS) == 1 ?
					 need : DAMOS_FEAT_QUOTA_GOALS, what);
	}
	return 0;
}

int damos_schemes_read(struct damos_ctx *d, struct damos_scheme ***out, size_t *n)
{
	return d->ops->schemes_read(d, out, n);
}

int damos_schemes_write(struct damos_ctx *d, struct damos_scheme *const *s,
			size_t n)
{
	return d->ops->schemes_write(d, s, n);
}

int damos_scheme_add(struct damos_ctx *d, const struct damos_scheme *s)
{
	struct damos_scheme **arr, **tmp;
	size_t n;
	int err;

	err = damos_scheme_validate(s);
	if (err)
		return err;
	err = damos_schemes_read(d, &arr, &n);
	if (err)
		return err;
	tmp = realloc(arr, (n + 1) * sizeof(*arr));
	if (tmp) {
		arr = tmp;
		arr[n] = damos_scheme_dup(s);
	}
	if (!tmp || !arr[n]) {
		damos_schemes_free(arr, n);
		return damos_err(-ENOMEM, "out of memory");
	}
	n++;
	err = damos_schemes_write(d, arr, n);
	damos_schemes_free(arr, n);
	return err ? err : (int)(n - 1);
}

int damos_scheme_remove(struct damos_ctx *d, size_t idx)
{
	struct damos_scheme **arr;
	size_t n;
	int err;

	err = damos_schemes_read(d, &arr, &n);
	if (err)
		return err;
	if (idx >= n) {
		damos_schemes_free(arr, n);
		return damos_err(-ENOENT, "no scheme %zu (there %s %zu)", idx,
				 n == 1 ? "is" : "are", n);
	}
	damos_scheme_free(arr[idx]);
	memmove(&arr[idx], &arr[idx + 1], (n - idx - 1) * sizeof(*arr));
	err = damos_schemes_write(d, arr, n - 1);
	damos_schemes_free(arr, n - 1);
	return err;
}

int damos_schemes_clear(struct damos_ctx *d)
{
	return damos_schemes_write(d, NULL, 0);
}

int damos_attrs_read(struct damos_ctx *d, struct damos_attrs *a)
{
	return d->ops->attrs_read(d, a);
}

int damos_attrs_write(struct damos_ctx *d, const struct damos_attrs *a)
{
	return d->ops->attrs_write(d, a);
}

int damos_targets_read(struct damos_ctx *d, struct damos_targets *t)
{
	return d->ops->targets_read(d, t);
}

int damos_targets_write(struct damos_ctx *d, const struct damos_targets *t)
{
	return d->ops->targets_write(d, t);
}

int damos_monitor_status(struct damos_ctx *d, bool *on, int *pid)
{
	return d->ops->status(d, on, pid);
}

/*
 * What dry runs of this thread turned off (a state, monitor_on or enabled
 * file), so that a later check in the same dry run ("apply", a --dry-run
 * shell session) does not see a DAMON user that it would have stopped.
 */
static __thread char dry_off[8][512];
static __thread unsigned int nr_dry_off;

void damos_dry_turned_off(struct damos_ctx *d, const char *path)
{
	if (d->dry_run && path && nr_dry_off < ARRAY_SIZE(dry_off))
		snprintf(dry_off[nr_dry_off++], sizeof(dry_off[0]), "%s", path);
}

static bool word_is(struct damos_ctx *d, const char *path, const char *want)
{
	char word[16] = "";

	for (unsigned int i = 0; d->dry_run && i < nr_dry_off; i++)
		if (!strcmp(dry_off[i], path))
			return false;
	return damos_exists(path) && !damos_read_word(d, path, word, sizeof(word)) &&
	       !strcmp(word, want);
}

/*
 * Linux 6.1's damon_start(): dbgfs and the modules start "exclusive", only
 * when no other context runs; sysfs kdamonds start when no exclusive one
 * runs.  The kernel refuses with EBUSY (the modules only in its log): find
 * it out before writing, and say who is in the way.
 */
int damos_other_user(struct damos_ctx *d, enum damos_user self)
{
	static const char *const selves[] = {
		[DAMOS_USER_SYSFS] = "sysfs monitoring",
		[DAMOS_USER_DBGFS] = "dbgfs monitoring",
		[DAMOS_USER_LRU_SORT] = "damon_lru_sort",
	};
	static const struct {
		enum damos_user who;
		const char *file, *on, *name;
		enum damos_hint stop;
	} users[] = {
		{ DAMOS_USER_DBGFS, "sys/kernel/debug/damon/monitor_on", "on",
		  "dbgfs monitoring", DAMOS_HINT_STOP_DBGFS },
		{ DAMOS_USER_DBGFS, "sys/kernel/debug/damon/monitor_on_DEPRECATED", "on",
		  "dbgfs monitoring", DAMOS_HINT_STOP_DBGFS },
		{ DAMOS_USER_LRU_SORT, "sys/module/damon_lru_sort/parameters/enabled", "Y",
		  "damon_lru_sort", DAMOS_HINT_STOP_LRU_SORT },
		{ DAMOS_USER_MODULE, "sys/module/damon_reclaim/parameters/enabled", "Y",
		  "damon_reclaim", DAMOS_HINT_STOP_RECLAIM },
	};
	char *p;
	glob_t g;
	int busy = 0;

	for (size_t i = 0; !busy && i < ARRAY_SIZE(users); i++) {
		if (users[i].who == self)
			continue;
		p = damos_path("%s/%s", d->root, users[i].file);
		if (p && word_is(d, p, users[i].on))
			busy = damos_err_hint(-EBUSY, users[i].stop, 0,
					      "%s is on, and %s does not start next to another DAMON user: stop it first" DAMOS_HINT_AT,
					      users[i].name, selves[self]);
		free(p);
	}
	/* sysfs kdamonds run side by side; the others run alone */
	if (busy || self == DAMOS_USER_SYSFS)
		return busy;
	p = damos_path("%s/sys/kernel/mm/damon/admin/kdamonds/*/state", d->root);
	if (p && !glob(p, 0, NULL, &g)) {
		for (size_t i = 0; !busy && i < g.gl_pathc; i++) {
			const char *k = g.gl_pathv[i] + strlen(p) - strlen("*/state");

			if (word_is(d, g.gl_pathv[i], "on"))
				busy = damos_err_hint(-EBUSY, DAMOS_HINT_STOP_KDAMOND,
						      atoll(k),
						      "a sysfs kdamond is on (%s), and %s does not start next to another DAMON user: stop it first" DAMOS_HINT_AT,
						      g.gl_pathv[i], selves[self]);
		}
		globfree(&g);
	}
	free(p);
	return busy;
}

int damos_monitor_check_start(struct damos_ctx *d)
{
	return damos_other_user(d, d->iface == DAMOS_IFACE_SYSFS ?
				DAMOS_USER_SYSFS : DAMOS_USER_DBGFS);
}

/* Linux 6.1 refuses "on" when on (EBUSY) and "off" when off (EINVAL, EPERM). */
int damos_monitor_start(struct damos_ctx *d)
{
	struct damos_targets t;
	bool on;
	int err;

	err = damos_monitor_status(d, &on, NULL);
	if (err || on)
		return err;
	if (!d->dry_run) {
		err = damos_targets_read(d, &t);
		if (err)
			return err;
		size_t nr = t.nr;

		damos_targets_free(&t);
		if (!nr)
			return damos_err_hint(-EINVAL, DAMOS_HINT_SET_TARGET, 0,
					      "no monitoring target: set one first");
	}
	err = damos_other_user(d, d->iface == DAMOS_IFACE_SYSFS ?
			       DAMOS_USER_SYSFS : DAMOS_USER_DBGFS);
	return err ? err : d->ops->turn(d, true);
}

int damos_monitor_stop(struct damos_ctx *d)
{
	bool on;
	int err = damos_monitor_status(d, &on, NULL);

	if (err || !on)
		return err;
	err = d->ops->turn(d, false);
	if (!err && d->dry_run) {
		char *p = d->iface == DAMOS_IFACE_SYSFS ?
			  damos_path("%s/state", d->kdamond) :
			  damos_path("%s/monitor_on", d->dbgfs);

		damos_dry_turned_off(d, p);
		free(p);
		p = d->iface == DAMOS_IFACE_SYSFS ? NULL :
		    damos_path("%s/monitor_on_DEPRECATED", d->dbgfs);
		damos_dry_turned_off(d, p);
		free(p);
	}
	return err;
}

const char *damos_dry_run_script(struct damos_ctx *d)
{
	return d->script.s ? d->script.s : "";
}

void damos_targets_free(struct damos_targets *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nr; i++)
		free(t->targets[i].regions);
	free(t->targets);
	memset(t, 0, sizeof(*t));
}

int damos_targets_validate(const struct damos_targets *t)
{
	if ((unsigned int)t->ops >= DAMOS_NR_OPS)
		return damos_err(-EINVAL, "targets: unknown operations %d", t->ops);
	if (t->ops == DAMOS_OPS_PADDR && t->nr > 1)
		return damos_err(-EINVAL, "targets: paddr has one target, not %zu",
				 t->nr);
	for (size_t i = 0; i < t->nr; i++) {
		const struct damos_target *tg = &t->targets[i];

		if (t->ops == DAMOS_OPS_VADDR && tg->pid <= 0)
			return damos_err(-EINVAL, "target %zu: pid %d is not a process",
					 i, tg->pid);
		/* the kernel would monitor it twice and apply schemes twice */
		for (size_t j = 0; t->ops == DAMOS_OPS_VADDR && j < i; j++)
			if (t->targets[j].pid == tg->pid)
				return damos_err(-EINVAL, "target %zu: pid %d is target %zu already",
						 i, tg->pid, j);
		for (size_t r = 0; r < tg->nr_regions; r++) {
			const struct damos_region *rg = &tg->regions[r];

			if (rg->start >= rg->end)
				return damos_err(-EINVAL,
						 "target %zu: region start %llu >= end %llu",
						 i, (unsigned long long)rg->start,
						 (unsigned long long)rg->end);
			if (r && rg->start < tg->regions[r - 1].end)
				return damos_err(-EINVAL,
						 "target %zu: region %llu-%llu overlaps or precedes %llu-%llu",
						 i, (unsigned long long)rg->start,
						 (unsigned long long)rg->end,
						 (unsigned long long)tg->regions[r - 1].start,
						 (unsigned long long)tg->regions[r - 1].end);
		}
	}
	return 0;
}
