// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"


char *damos_root_norm(const char *root)
{
	size_t n;

	if (!root || !*root)
		root = "/";
	n = strlen(root);
	while (n > 0 && root[n - 1] == '/')
		n--;
	return strndup(root, n);
}

/* In the order damon_open() prefers them when both are there. */
static const struct damos_backend *const backends[] = {
	&damos_sysfs_backend,
	&damos_dbgfs_backend,
};

unsigned int damos_detect(const char *root)
{
	char *r = damos_root_norm(root), *p;
	unsigned int mask = 0;

	if (!r)
		return 0;
	for (size_t i = 0; i < ARRAY_SIZE(backends); i++) {
		p = damos_path("%s/%s", r, backends[i]->top);
		if (damos_exists(NULL, p))
			mask |= 1U << backends[i]->iface;
		free(p);
	}
	free(r);
	return mask;
}

/* Whether @path cannot be seen for lack of permission (not for lack of it). */
static bool denied(const char *path)
{
	return access(path, F_OK) && errno == EACCES;
}

void damon_close(struct damon_ctx *d)
{
	if (!d)
		return;
	if (d->refs > 0) {
		d->refs--;	/* a transaction frees it at its end */
		return;
	}
	damos_io_close(d);
	free(d->root);
	free(d->dbgfs);
	free(d->admin);
	free(d->kdamond);
	free(d->dir);
	free(d->top);
	free(d);
}

/*
 * Options from a caller built against an older, shorter struct, or a newer,
 * longer one: its extra bytes must be zero (options this library does not
 * know cannot be honoured, so they are refused, as libbpf's OPTS_VALID()).
 */
int damon_opts_get(const struct damon_opts *in, struct damon_opts *o)
{
	struct damon_opts def = DAMON_OPTS_INIT;
	int err;

	*o = def;
	if (in && (err = damos_sz_check(in, in->sz, sizeof(*o), 0, "damon_opts")))
		return err;
	if (in)
		memcpy(o, in, in->sz < sizeof(*o) ? in->sz : sizeof(*o));
	o->sz = sizeof(*o);
	return 0;
}

static const struct damos_backend *backend_of(enum damon_iface i)
{
	for (size_t j = 0; j < ARRAY_SIZE(backends); j++)
		if (backends[j]->iface == i)
			return backends[j];
	return NULL;
}

/*
 * The backend @o names: the one chosen, else the one whose own options it
 * sets (a dbgfs context, a sysfs kdamond), else the first one present.
 * An option of one interface is refused on the other rather than ignored.
 */
static const struct damos_backend *pick(const struct damon_opts *o,
					unsigned int mask)
{
	const struct damos_backend *b = NULL;
	char what[2][128];
	int nr = 0;

	for (size_t i = 0; i < ARRAY_SIZE(backends) && nr < 2; i++)
		if (backends[i]->claims(o, what[nr], sizeof(what[nr])))
			b = backends[i], nr++;
	if (nr > 1)
		return damos_err_null(-EINVAL, "%s and %s: one interface at a time",
				      what[0], what[1]);
	if (o->iface != DAMON_IFACE_AUTO) {
		if (nr && b->iface != o->iface)
			return damos_err_null(-EINVAL, "%s on the %s interface",
					      what[0], damon_iface_name(o->iface));
		return backend_of(o->iface);
	}
	for (size_t i = 0; !b && i < ARRAY_SIZE(backends); i++)
		if (mask & (1U << backends[i]->iface))
			b = backends[i];
	return b ? b : backends[0];
}

/* Neither @sysfs nor @dbgfs: and no DAMON directory in sysfs at all? */
static int no_damon(const char *sysfs, const char *dbgfs)
{
	char *damon = strndup(sysfs, strrchr(sysfs, '/') - sysfs);
	bool none = damon && !damos_exists(NULL, damon);

	free(damon);
	return damos_err(-ENOENT, "no DAMON interface: neither %s nor %s exists%s",
			 sysfs, dbgfs, none ? ": this kernel has no DAMON (CONFIG_DAMON_SYSFS and CONFIG_DAMON_DBGFS are not set?), or debugfs is not mounted" : "");
}

/* No interface @b below the root: say where, and whether it is hidden. */
static int missing(struct damon_ctx *d, const struct damon_opts *o,
		   const struct damos_backend *b)
{
	char *top[ARRAY_SIZE(backends)], what[128];
	const char *hidden = NULL;
	int err = -ENOMEM;

	for (size_t i = 0; i < ARRAY_SIZE(backends); i++)
		top[i] = damos_path("%s/%s", d->root, backends[i]->top);
	for (size_t i = 0; i < ARRAY_SIZE(backends); i++)
		if (!top[i])
			goto out;
	/* debugfs is root's only: say so rather than "missing" */
	for (size_t i = ARRAY_SIZE(backends); !hidden && i-- > 0;)
		if (denied(top[i]) && (o->iface == DAMON_IFACE_AUTO ||
				       backends[i] == b))
			hidden = top[i];
	if (hidden)
		err = damos_err(-EACCES,
				"cannot look into %s: %s (DAMON's files need root)",
				hidden, strerror(EACCES));
	else if (b->claims(o, what, sizeof(what)))
		err = damos_err(-ENOENT, "%s needs the %s interface, and there is none: %s does not exist",
				what, damon_iface_name(b->iface), d->top);
	else if (o->iface == DAMON_IFACE_AUTO)
		err = no_damon(top[0], top[1]);
	else
		err = damos_err(-ENOENT, "no DAMON %s interface: %s does not exist",
				damon_iface_name(b->iface), d->top);
out:
	for (size_t i = 0; i < ARRAY_SIZE(backends); i++)
		free(top[i]);
	return err;
}

struct damon_ctx *damon_open(const struct damon_opts *opts)
{
	const struct damos_backend *b;
	struct damon_opts o;
	struct damon_ctx *d;
	unsigned int mask;
	int err = 0;

	if (opts && opts->sz < offsetof(struct damon_opts, root))
		return damos_err_null(-EINVAL, "damon_opts: .sz not set");
	if (damon_opts_get(opts, &o)) {
		errno = EINVAL;
		return NULL;
	}
	if ((unsigned int)o.iface > DAMON_IFACE_DBGFS || o.kdamond < 0)
		return damos_err_null(-EINVAL, "damon_opts: bad interface or kdamond");
	d = calloc(1, sizeof(*d));
	if (!d)
		return damos_err_null(-ENOMEM, "out of memory");
	d->root = damos_root_norm(o.root);
	d->kdamond_idx = o.kdamond;
	/* both interfaces' directories: the backends' model_write use them */
	d->dbgfs = d->root ? damos_path("%s/%s", d->root, damos_dbgfs_backend.top) : NULL;
	d->admin = d->root ? damos_path("%s/%s", d->root, damos_sysfs_backend.top) : NULL;
	if (!d->dbgfs || !d->admin) {
		damon_close(d);
		return damos_err_null(-ENOMEM, "out of memory");
	}
	mask = damos_detect(d->root[0] ? d->root : "/");
	b = pick(&o, mask);
	if (!b) {
		err = -errno;
		goto fail;
	}
	d->iface = b->iface;
	d->ops = b;
	d->top = damos_path("%s/%s", d->root, b->top);
	if (!d->top)
		err = damos_err(-ENOMEM, "out of memory");
	else if (!(mask & (1U << d->iface)))
		err = missing(d, &o, b);
	if (!err)
		err = b->open(d, &o);
	if (!err)
		err = damos_io_open(d, &o, b->fs_magic);
	if (err) {
fail:
		damon_close(d);
		errno = -err;
		return NULL;
	}
	return d;
}

struct damon_ctx *damos_open_dir(const struct damon_opts *opts, const char *kind,
				 const char *top)
{
	const struct damos_backend *b = !strcmp(kind, "sysfs") ? &damos_sysfs_backend :
					!strcmp(kind, "dbgfs") ? &damos_dbgfs_backend : NULL;
	struct damon_opts o;
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
	d->dbgfs = d->root ? damos_path("%s/%s", d->root, damos_dbgfs_backend.top) : NULL;
	d->admin = d->root ? damos_path("%s/%s", d->root, damos_sysfs_backend.top) : NULL;
	d->top = strdup(top);
	if (b) {
		d->iface = b->iface;
		d->ops = b;
	}
	err = d->dbgfs && d->admin && d->top ? 0 : damos_err(-ENOMEM, "out of memory");
	if (!err)
		err = damos_io_open(d, &o, b ? b->fs_magic : 0);
	if (err) {
		damon_close(d);
		errno = -err;
		return NULL;
	}
	return d;
}

char *damon_iface_dir(const char *root, enum damon_iface i)
{
	const struct damos_backend *b = backend_of(i);
	char *r = damos_root_norm(root), *p;

	if (!b || !r) {
		free(r);
		return damos_err_null(b ? -ENOMEM : -EINVAL,
				      b ? "out of memory" : "%d is not an interface", i);
	}
	p = damos_path("%s/%s", r, b->top);
	free(r);
	return p ? p : damos_err_null(-ENOMEM, "out of memory");
}

int damon_context_check(struct damon_ctx *d)
{
	return d->ops->context_check ? d->ops->context_check(d) : 0;
}

bool damon_targets_same(struct damon_ctx *d, const struct damon_targets *shown,
			const struct damon_targets *want)
{
	const struct damon_targets *a = shown, *b = want;

	if (a->nr != b->nr || (a->nr && a->ops != b->ops))
		return false;
	for (size_t i = 0; i < a->nr; i++) {
		const struct damon_target *x = &a->targets[i], *y = &b->targets[i];

		if (a->ops == DAMON_OPS_VADDR && x->pid != y->pid)
			return false;
		if (d->ops->regions_lossy && (!x->nr_regions || !y->nr_regions))
			continue;
		if (x->nr_regions != y->nr_regions)
			return false;
		for (size_t r = 0; r < x->nr_regions; r++)
			if (x->regions[r].start != y->regions[r].start ||
			    x->regions[r].end != y->regions[r].end)
				return false;
	}
	return true;
}

enum damon_iface damon_get_iface(const struct damon_ctx *d)
{
	return d->iface;
}

const char *damon_get_dir(const struct damon_ctx *d)
{
	return d->dir;
}

void damos_features_probe(struct damon_ctx *d)
{
	if (d->feat_probed)
		return;
	d->feat_probed = true;
	d->ops->probe(d);
}

/* The feature bits; a backend may know better (probes that write). */
int damos_has_now(struct damon_ctx *d, int f, bool probe)
{
	damos_features_probe(d);
	if (d->ops->has)
		return d->ops->has(d, f, probe);
	return !!(d->feat & (1U << f));
}

int damos_has(struct damon_ctx *d, enum damos_feature f)
{
	if ((unsigned int)f >= DAMOS_NR_FEATURES)
		return damos_err(-EINVAL, "%d is not a feature", f);
	return damos_has_now(d, f, true);
}

const char *damos_kernel_desc(struct damon_ctx *d)
{
	damos_features_probe(d);
	return d->kdesc;
}

int damos_feature_err(struct damon_ctx *d, int f, const char *what)
{
	const struct damos_feature_info *fi = &damos_features[f];

	damos_features_probe(d);
	if (d->ops->feature_err)
		return d->ops->feature_err(d, f, what);
	return damos_err(-EOPNOTSUPP,
			 "%s needs %s (Linux %d.%d+), which this kernel (%s) lacks; nothing was changed",
			 what, fi->what, fi->since_major, fi->since_minor, d->kdesc);
}

/*
 * Every feature a scheme the caller made or changed uses must be there.
 * One the backend cannot know yet without a probe that writes (dbgfs's
 * lru actions) is left to the backend's write.
 */
int damos_scheme_features(struct damon_ctx *d, const struct damos_scheme *s,
			  size_t idx)
{
	char what[96], pre[32] = "";
	int a = damos_scheme_action(s);

	if (idx != SIZE_MAX)
		snprintf(pre, sizeof(pre), "scheme %zu: ", idx);

	if (s->kernel && !s->dirty)
		return 0;
	if (a >= 0 && damos_actions[a].feature >= 0 &&
	    !damos_has_now(d, damos_actions[a].feature, false)) {
		snprintf(what, sizeof(what), "%s%s", pre,
			 damos_actions[a].name);
		return damos_feature_err(d, damos_actions[a].feature, what);
	}
	for (int f = 0; f < DAMOS_NR_FIELDS; f++) {
		const struct damos_field_info *fi = &damos_fields[f];

		if (fi->feature < 0 || fi->unit == U_STAT || s->v[f] == fi->def ||
		    damos_has_now(d, fi->feature, false) == 1)
			continue;
		snprintf(what, sizeof(what), "%s%s", pre, fi->label);
		return damos_feature_err(d, fi->feature, what);
	}
	for (size_t i = 0; i < s->nr_filters; i++) {
		int t = s->filters[i].type;
		int need = t >= 0 ? damos_filter_types[t].feature : DAMOS_FEAT_FILTERS;
		bool any = damos_has_now(d, DAMOS_FEAT_FILTERS, false) == 1;

		if (any && damos_has_now(d, need, false) == 1)
			continue;
		snprintf(what, sizeof(what), "%sfilter %s", pre,
			 s->filters[i].word);
		return damos_feature_err(d, any ? need : DAMOS_FEAT_FILTERS, what);
	}
	for (size_t i = 0; i < s->nr_goals; i++) {
		int need = s->goals[i].metric == DAMOS_GOAL_USER_INPUT ?
			   DAMOS_FEAT_QUOTA_GOALS : DAMOS_FEAT_GOAL_METRIC;
		bool any = damos_has_now(d, DAMOS_FEAT_QUOTA_GOALS, false) == 1;

		if (any && damos_has_now(d, need, false) == 1)
			continue;
		snprintf(what, sizeof(what), "%sgoal %s", pre,
			 s->goals[i].word);
		return damos_feature_err(d, any ? need : DAMOS_FEAT_QUOTA_GOALS, what);
	}
	return 0;
}

int damos_scheme_check(struct damon_ctx *d, const struct damos_scheme *s)
{
	int err = damos_scheme_check_input(s);

	if (!err && d->ops->scheme_check &&
	    (err = d->ops->scheme_check(d, s)) < 0)
		return damos_err_prefix(err, "%s: ", damos_scheme_action_name(s));
	if (err >= 0) {
		int ferr = damos_scheme_features(d, s, SIZE_MAX);

		err = ferr ? ferr : err;
	}
	return err;
}

int damon_targets_check(struct damon_ctx *d, const struct damon_targets *t)
{
	int err = damon_targets_validate(t);

	if (!err && d->ops->targets_check)
		err = d->ops->targets_check(d, t);
	return err;
}

int damos_schemes_read(struct damon_ctx *d, struct damos_scheme ***out, size_t *n)
{
	return d->ops->schemes_read(d, out, n);
}

int damos_stats_update(struct damon_ctx *d)
{
	return d->ops->stats_update ? d->ops->stats_update(d) : 0;
}

int damos_schemes_write(struct damon_ctx *d, struct damos_scheme *const *s,
			size_t n)
{
	return DAMOS_TXN(d, d->ops->schemes_write(d, s, n));
}

int damos_goal_current_write(struct damon_ctx *d, size_t idx, size_t goal,
			     uint64_t v)
{
	struct damos_scheme **arr;
	char what[64];
	size_t n;
	int err;

	snprintf(what, sizeof(what), "scheme %zu goal %zu", idx, goal);
	if (!d->ops->goal_current) {
		char rel[64] = "";
		char *p = damos_path("%s/proc/sys/kernel/osrelease", d->root);

		if (!p || !damos_exists(d, p) || damos_read_word(d, p, rel, sizeof(rel)))
			snprintf(rel, sizeof(rel), "release unknown");
		free(p);
		return damos_err(-EOPNOTSUPP,
				 "%s: quota goals need the sysfs interface of Linux 6.8 or later; dbgfs has none (this kernel: Linux %s); nothing was changed",
				 what, rel);
	}
	if (damos_has(d, DAMOS_FEAT_QUOTA_GOALS) != 1)
		return damos_feature_err(d, DAMOS_FEAT_QUOTA_GOALS, what);
	err = damos_schemes_read(d, &arr, &n);
	if (err)
		return err;
	if (idx >= n)
		err = damos_err(-ENOENT, "no scheme %zu (there %s %zu)", idx,
				n == 1 ? "is" : "are", n);
	else if (goal >= arr[idx]->nr_goals)
		err = arr[idx]->nr_goals ?
		      damos_err(-ENOENT, "scheme %zu has no goal %zu: its goals are 0 to %zu",
				idx, goal, arr[idx]->nr_goals - 1) :
		      damos_err(-ENOENT, "scheme %zu has no goal %zu: it has no goal", idx, goal);
	else if (arr[idx]->goals[goal].metric != DAMOS_GOAL_USER_INPUT)
		err = damos_err(-EINVAL,
				"%s is a %s goal: the kernel measures its current value; only a user_input goal takes one",
				what, arr[idx]->goals[goal].word ?
				arr[idx]->goals[goal].word : "kernel-measured");
	damos_schemes_free(arr, n);
	if (err)
		return err;
	return DAMOS_TXN(d, d->ops->goal_current(d, idx, goal, v));
}

/*
 * A write of several files that the kernel takes one by one: one refused
 * half-way would leave the first changed and the rest not, so every file
 * there is checked first.
 */
int damos_check_writable(struct damon_ctx *d, const char *const *rel)
{
	for (; *rel; rel++) {
		char *p = damos_path("%s/%s", d->dir, *rel);
		int err = 0;

		if (!p)
			return damos_err(-ENOMEM, "out of memory");
		if (!access(p, F_OK) && access(p, W_OK))
			err = damos_err(-errno, "cannot write %s: %s%s; nothing was changed",
					p, strerror(errno),
					geteuid() ? " (DAMON's files need root)" : "");
		free(p);
		if (err)
			return err;
	}
	return 0;
}

int damos_tried_regions_read(struct damon_ctx *d, size_t idx,
			     struct damos_tried_regions **out)
{
	struct damos_tried_regions *r;
	int err;

	*out = NULL;
	if (!d->ops->tried_regions ||
	    damos_has(d, DAMOS_FEAT_TRIED_REGIONS) != 1)
		return damos_feature_err(d, DAMOS_FEAT_TRIED_REGIONS,
					 "reading tried regions");
	r = calloc(1, sizeof(*r));
	if (!r)
		return damos_err(-ENOMEM, "out of memory");
	err = d->ops->tried_regions(d, idx, r);
	if (err) {
		damos_tried_regions_free(r);
		return err;
	}
	if (!r->has_total)
		for (size_t i = 0; i < r->nr; i++)
			r->total_bytes += r->r[i].end - r->r[i].start;
	*out = r;
	return 0;
}

size_t damos_tried_regions_nr(const struct damos_tried_regions *r)
{
	return r->nr;
}

int damos_tried_regions_get(const struct damos_tried_regions *r, size_t i,
			    struct damos_tried_region *out)
{
	if (!out || out->sz < sizeof(*out))
		return damos_err(-EINVAL, "damos_tried_region: .sz not set");
	if (i >= r->nr)
		return damos_err(-EINVAL, "no tried region %zu (there %s %zu)", i,
				 r->nr == 1 ? "is" : "are", r->nr);
	out->start = r->r[i].start;
	out->end = r->r[i].end;
	out->nr_accesses = r->r[i].nr_accesses;
	out->age = r->r[i].age;
	return 0;
}

uint64_t damos_tried_regions_total_bytes(const struct damos_tried_regions *r)
{
	return r->total_bytes;
}

void damos_tried_regions_free(struct damos_tried_regions *r)
{
	if (!r)
		return;
	free(r->r);
	free(r);
}

int damon_attrs_read(struct damon_ctx *d, struct damon_attrs *a)
{
	return d->ops->attrs_read(d, a);
}

int damon_attrs_write(struct damon_ctx *d, const struct damon_attrs *a)
{
	int err = damon_attrs_check(a);

	return err ? err : DAMOS_TXN(d, d->ops->attrs_write(d, a));
}

int damon_targets_read(struct damon_ctx *d, struct damon_targets *t)
{
	return d->ops->targets_read(d, t);
}

int damon_targets_write(struct damon_ctx *d, const struct damon_targets *t)
{
	return DAMOS_TXN(d, d->ops->targets_write(d, t));
}

int damon_monitor_status(struct damon_ctx *d, bool *on, int *pid)
{
	return d->ops->status(d, on, pid);
}

bool damos_word_is(struct damon_ctx *d, const char *path, const char *want)
{
	char word[16] = "";

	return damos_exists(d, path) && !damos_read_word(d, path, word, sizeof(word)) &&
	       !strcmp(word, want);
}

/*
 * Linux 6.1's damon_start(): dbgfs and the modules start "exclusive", only
 * when no other context runs; sysfs kdamonds start when no exclusive one
 * runs.  The kernel refuses with EBUSY (the modules only in its log): find
 * it out before writing, and say who is in the way.  The interfaces say
 * whether they monitor (their in_use()); the modules are these.
 */
static const struct {
	const char *name;
	enum damos_hint stop;
} modules[] = {
	{ "damon_lru_sort", DAMOS_HINT_STOP_LRU_SORT },
	{ "damon_reclaim", DAMOS_HINT_STOP_RECLAIM },
};

/* Module @i runs ("Y" in its enabled). */
static bool module_runs(struct damon_ctx *d, size_t i)
{
	char *p = damos_path("%s/sys/module/%s/parameters/enabled", d->root,
			     modules[i].name);
	bool on = p && damos_word_is(d, p, "Y");

	free(p);
	return on;
}

bool damos_module_on(struct damon_ctx *d)
{
	for (size_t i = 0; i < ARRAY_SIZE(modules); i++)
		if (module_runs(d, i))
			return true;
	return false;
}

int damos_other_user(struct damon_ctx *d, const struct damos_backend *self,
		     const char *name, const char *const *off)
{
	bool exclusive = self ? self->exclusive : true;
	int busy = 0;

	if (self)
		name = self->user;
	for (size_t i = 0; !busy && i < ARRAY_SIZE(backends); i++)
		if (backends[i] != self && backends[i]->exclusive)
			busy = backends[i]->in_use(d, name);
	for (size_t i = 0; !busy && i < ARRAY_SIZE(modules); i++) {
		bool going = false;

		for (const char *const *o = off; o && *o && !going; o++)
			going = !strcmp(*o, modules[i].name);
		if (!going && strcmp(modules[i].name, name) && module_runs(d, i))
			busy = damos_err_hint(-EBUSY, modules[i].stop, 0,
					      "%s is on, and %s does not start next to another DAMON user: stop it first" DAMOS_HINT_AT,
					      modules[i].name, name);
	}
	/* the others run side by side, but not next to an exclusive one */
	for (size_t i = 0; !busy && exclusive && i < ARRAY_SIZE(backends); i++)
		if (backends[i] != self && !backends[i]->exclusive)
			busy = backends[i]->in_use(d, name);
	return busy;
}

/* Linux 6.1 refuses "on" when on (EBUSY) and "off" when off (EINVAL, EPERM). */
int damon_monitor_start(struct damon_ctx *d)
{
	struct damon_targets t;
	bool on;
	int err;

	err = damon_monitor_status(d, &on, NULL);
	if (err || on)
		return err;
	/* a dry run reads the targets its batch set before (the layer) */
	err = damon_targets_read(d, &t);
	if (err)
		return err;
	size_t nr = t.nr;

	damon_targets_free(&t);
	if (!nr)
		return damos_err_hint(-EINVAL, DAMOS_HINT_SET_TARGET, 0,
				      "no monitoring target: set one first");
	err = damos_other_user(d, d->ops, NULL, NULL);
	return err ? err : DAMOS_TXN(d, d->ops->turn(d, true));
}

int damon_monitor_stop(struct damon_ctx *d)
{
	bool on;
	int err = damon_monitor_status(d, &on, NULL);

	if (err || !on)
		return err;
	return DAMOS_TXN(d, d->ops->turn(d, false));
}

int damos_targets_add(struct damon_targets *t, int pid)
{
	struct damon_target *arr = realloc(t->targets,
					   (t->nr + 1) * sizeof(*arr));

	if (!arr)
		return damos_err(-ENOMEM, "out of memory");
	t->targets = arr;
	memset(&arr[t->nr], 0, sizeof(arr[0]));
	arr[t->nr++].pid = pid;
	return 0;
}

int damos_target_region_add(struct damon_target *t, uint64_t start,
			    uint64_t end)
{
	struct damon_region *r = realloc(t->regions,
					 (t->nr_regions + 1) * sizeof(*r));

	if (!r)
		return damos_err(-ENOMEM, "out of memory");
	t->regions = r;
	r[t->nr_regions].start = start;
	r[t->nr_regions++].end = end;
	return 0;
}

void damon_targets_free(struct damon_targets *t)
{
	size_t sz;

	if (!t)
		return;
	for (size_t i = 0; i < t->nr; i++)
		free(t->targets[i].regions);
	free(t->targets);
	sz = t->sz;
	t->ops = 0;
	t->nr = 0;
	t->targets = NULL;
	t->sz = sz;
}

int damon_targets_check_sz(const struct damon_targets *t)
{
	return damos_sz_check(t, t->sz, sizeof(*t), sizeof(*t), "damon_targets");
}

int damon_targets_validate(const struct damon_targets *t)
{
	int err = damon_targets_check_sz(t);

	if (err)
		return err;
	if ((unsigned int)t->ops >= DAMON_NR_OPS)
		return damos_err(-EINVAL, "targets: unknown operations %d", t->ops);
	if (t->ops == DAMON_OPS_PADDR && t->nr > 1)
		return damos_err(-EINVAL, "targets: paddr has one target, not %zu",
				 t->nr);
	for (size_t i = 0; i < t->nr; i++) {
		const struct damon_target *tg = &t->targets[i];

		if (t->ops == DAMON_OPS_VADDR && tg->pid <= 0)
			return damos_err(-EINVAL, "target %zu: pid %d is not a process",
					 i, tg->pid);
		/* the kernel would monitor it twice and apply schemes twice */
		for (size_t j = 0; t->ops == DAMON_OPS_VADDR && j < i; j++)
			if (t->targets[j].pid == tg->pid)
				return damos_err(-EINVAL, "target %zu: pid %d is target %zu already",
						 i, tg->pid, j);
		for (size_t r = 0; r < tg->nr_regions; r++) {
			const struct damon_region *rg = &tg->regions[r];

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
