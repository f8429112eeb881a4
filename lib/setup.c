// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * The whole DAMON setup as one value (damos.h, struct damon_setup): read
 * from either interface, edited in memory by the caller, applied in one
 * transaction.  damon_setup_apply() reads what is there again, writes
 * only what differs, in one order for every caller (modules that must go
 * off; kdamonds stopped where they must; nr_kdamonds; each kdamond's
 * schemes that the kernel alone can refuse, attributes, targets,
 * schemes; kdamonds started; modules' parameters and modules on), reads
 * every written part back before the commit point, and puts everything
 * back on any failure, the read-back's included.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static void kdamond_clear(struct damon_kdamond_setup *k)
{
	damon_targets_free(&k->targets);
	damos_schemes_free(k->schemes, k->nr_schemes);
	memset(k, 0, sizeof(*k));
}

void damon_setup_free(struct damon_setup *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nr_kdamonds; i++)
		kdamond_clear(&s->kdamonds[i]);
	for (size_t i = 0; i < s->nr_modules; i++)
		damon_module_free(s->modules[i].module);
	free(s->kdamonds);
	free(s->modules);
	free(s);
}

/* The handle @d made kdamond @idx's (sysfs; dbgfs has one context). */
int damos_kdamond_select(struct damon_ctx *d, unsigned int idx)
{
	char *k, *dir;

	if (d->ops != &damos_sysfs_backend || (int)idx == d->kdamond_idx)
		return 0;
	k = damos_path("%s/kdamonds/%u", d->admin, idx);
	dir = k ? damos_path("%s/contexts/0", k) : NULL;
	if (!dir) {
		free(k);
		return damos_err(-ENOMEM, "out of memory");
	}
	free(d->kdamond);
	free(d->dir);
	d->kdamond = k;
	d->dir = dir;
	d->kdamond_idx = (int)idx;
	return 0;
}

static int kdamond_read(struct damon_ctx *d, struct damon_kdamond_setup *k)
{
	int err = damon_monitor_status(d, &k->on, NULL);

	if (!err)
		err = damon_attrs_read(d, &k->attrs);
	/* a context without target files (a minimal tree) has none */
	if (!err && (err = damon_targets_read(d, &k->targets)) == -ENOENT) {
		damon_targets_free(&k->targets);
		err = 0;
	}
	if (!err)
		err = damos_schemes_read(d, &k->schemes, &k->nr_schemes);
	return err;
}

/* The setup below @d's root, its DAMON part through @d. */
static int setup_read(struct damon_ctx *d, const struct damon_opts *opts,
		      struct damon_setup **out)
{
	struct damon_setup *s = calloc(1, sizeof(*s));
	const char *const *names = damon_module_names();
	unsigned int nr = 0;
	int err;

	*out = NULL;
	if (!s)
		return damos_err(-ENOMEM, "out of memory");
	s->iface = d ? d->iface : DAMON_IFACE_AUTO;	/* AUTO: none */
	err = d ? damon_kdamonds_count(d, &nr) : 0;
	if (!err && nr && !(s->kdamonds = calloc(nr, sizeof(*s->kdamonds))))
		err = damos_err(-ENOMEM, "out of memory");
	for (unsigned int i = 0; !err && i < nr; i++) {
		s->nr_kdamonds = i + 1;
		err = damos_kdamond_select(d, i);
		if (!err)
			err = kdamond_read(d, &s->kdamonds[i]);
	}
	for (size_t i = 0; !err && names[i]; i++) {
		struct damon_module *m = NULL;
		struct damon_module_setup *ms;

		/* a module this kernel lacks is no part of its setup */
		if (damon_module_read(opts, names[i], &m))
			continue;
		ms = realloc(s->modules, (s->nr_modules + 1) * sizeof(*ms));
		if (!ms) {
			damon_module_free(m);
			err = damos_err(-ENOMEM, "out of memory");
			break;
		}
		s->modules = ms;
		ms[s->nr_modules].module = m;
		ms[s->nr_modules++].enable = damon_module_enabled(m);
	}
	if (err) {
		damon_setup_free(s);
		return err;
	}
	*out = s;
	return 0;
}

/*
 * The handle of @opts, or NULL with 0 where the kernel has no DAMON
 * interface (its modules may still be there).
 */
static int open_damon(const struct damon_opts *opts, struct damon_ctx **d)
{
	struct damon_opts o;
	int err;

	*d = damon_open(opts);
	if (*d)
		return 0;
	err = -errno;
	if (damon_opts_get(opts, &o) || damos_detect(o.root && *o.root ? o.root : "/"))
		return err;
	return 0;
}

int damon_setup_read(const struct damon_opts *opts, struct damon_setup **out)
{
	struct damon_ctx *d;
	int err = open_damon(opts, &d);

	*out = NULL;
	if (!err)
		err = setup_read(d, opts, out);
	damon_close(d);
	return err;
}

/* Whether the kernel holds @t exactly (regions and pids included). */
static bool targets_equal(const struct damon_targets *a,
			  const struct damon_targets *b)
{
	if (a->nr != b->nr || (a->nr && a->ops != b->ops))
		return false;
	for (size_t i = 0; i < a->nr; i++) {
		const struct damon_target *x = &a->targets[i], *y = &b->targets[i];

		if (x->pid != y->pid || x->nr_regions != y->nr_regions ||
		    (x->nr_regions && memcmp(x->regions, y->regions,
					     x->nr_regions * sizeof(*x->regions))))
			return false;
	}
	return true;
}

static bool schemes_equal(struct damos_scheme *const *a, size_t na,
			  struct damos_scheme *const *b, size_t nb)
{
	if (na != nb)
		return false;
	for (size_t i = 0; i < na; i++)
		if (!damos_scheme_equal(a[i], b[i]))
			return false;
	return true;
}

/* What of kdamond @k differs from @cur: bits of enum below. */
enum { W_ATTRS = 1, W_TARGETS = 2, W_SCHEMES = 4 };

static unsigned int kdamond_diff(const struct damon_kdamond_setup *cur,
				 const struct damon_kdamond_setup *want)
{
	unsigned int w = 0;

	if (!cur || memcmp(&cur->attrs, &want->attrs, sizeof(want->attrs)))
		w |= W_ATTRS;
	if (!cur || !targets_equal(&cur->targets, &want->targets))
		w |= W_TARGETS;
	if (!cur || !schemes_equal(cur->schemes, cur->nr_schemes,
				   want->schemes, want->nr_schemes))
		w |= W_SCHEMES;
	return w;
}

/* What kdamond @k reads back as, in damoctl.conf's words, for a message. */
static void said(struct damos_buf *b, const struct damon_kdamond_setup *k,
		 unsigned int what)
{
	char x[32], y[32], z[32], line[512];

	if (what == W_ATTRS) {
		damos_buf_printf(b, "they are now sample %s aggr %s update %s regions %llu %llu",
				 damos_format_time_us(k->attrs.sample_us, x, sizeof(x)),
				 damos_format_time_us(k->attrs.aggr_us, y, sizeof(y)),
				 damos_format_time_us(k->attrs.update_us, z, sizeof(z)),
				 (unsigned long long)k->attrs.min_nr_regions,
				 (unsigned long long)k->attrs.max_nr_regions);
		return;
	}
	if (what == W_TARGETS) {
		damos_buf_printf(b, "there %s now %zu target%s (%s)",
				 k->targets.nr == 1 ? "is" : "are", k->targets.nr,
				 k->targets.nr == 1 ? "" : "s",
				 k->targets.nr ? damon_ops_name(k->targets.ops) : "none");
		return;
	}
	damos_buf_printf(b, "there %s now %zu", k->nr_schemes == 1 ? "is" : "are",
			 k->nr_schemes);
	for (size_t i = 0; i < k->nr_schemes; i++)
		if (damos_scheme_format(k->schemes[i], line, sizeof(line)) > 0)
			damos_buf_printf(b, "%s%zu: %s", i ? "; " : ": ", i, line);
}

/* The files of kdamond @i read back as @want: else -EIO naming what. */
static int kdamond_verify(struct damon_ctx *d, unsigned int i,
			  const struct damon_kdamond_setup *want, unsigned int w)
{
	struct damon_kdamond_setup now = { 0 };
	struct damos_buf b = { 0 };
	unsigned int what = 0;
	char who[32] = "";
	int err = kdamond_read(d, &now);

	if (err)
		goto out;
	if ((w & W_ATTRS) && memcmp(&now.attrs, &want->attrs, sizeof(now.attrs)))
		what = W_ATTRS;
	else if ((w & W_TARGETS) && !damon_targets_same(d, &now.targets, &want->targets))
		what = W_TARGETS;
	else if ((w & W_SCHEMES) && !schemes_equal(now.schemes, now.nr_schemes,
						   want->schemes, want->nr_schemes))
		what = W_SCHEMES;
	if (!what)
		goto out;
	if (what == W_SCHEMES)
		damos_buf_printf(&b, "%zu scheme%s meant, ", want->nr_schemes,
				 want->nr_schemes == 1 ? "" : "s");
	said(&b, &now, what);
	if (d->ops == &damos_sysfs_backend)
		snprintf(who, sizeof(who), " of kdamond %u", i);
	err = damos_err(-EIO, "another program changed the %s%s while they were written (one that does not flock <root>/run/damos): %s; nothing was changed",
			what == W_ATTRS ? "attributes" : what == W_TARGETS ? "targets" : "schemes",
			who, b.s ? b.s : "");
	damos_buf_free(&b);
out:
	kdamond_clear(&now);
	return err;
}

static int script_add(struct damos_buf *b, char *part)
{
	if (part && *part)
		damos_buf_printf(b, "%s", part);
	free(part);
	return b->err ? damos_err(-ENOMEM, "out of memory") : 0;
}

static bool module_equal(const struct damon_module *a,
			 const struct damon_module *b)
{
	size_t n = damon_module_nr_params(a);

	if (n != damon_module_nr_params(b))
		return false;
	for (size_t p = 0; p < n; p++)
		if (damon_module_param_present(a, p) != damon_module_param_present(b, p) ||
		    damon_module_get(a, p) != damon_module_get(b, p))
			return false;
	return true;
}

/*
 * Module @i of @want, in @phase 0 (before DAMON's writes: off if it runs
 * and must go off, which leaves DAMON to kdamonds that start; Linux 6.1
 * runs one DAMON user at a time, and a module left on makes their start
 * fail naming it) or 1 (after them: the rest).  *@done says phase 0 did
 * all of it.
 */
static int module_write(const struct damon_opts *opts,
			const struct damon_setup *cur,
			const struct damon_module_setup *w, int phase,
			bool *done, struct damos_buf *script)
{
	const struct damon_module_setup *c = NULL;
	char *part = NULL;
	bool on;
	int err;

	for (size_t j = 0; j < cur->nr_modules; j++)
		if (!strcmp(damon_module_name(cur->modules[j].module),
			    damon_module_name(w->module)))
			c = &cur->modules[j];
	on = c && c->enable == 1;
	if (phase == 0) {
		if (!on || w->enable != 0)
			return 0;
		/* off for good: with its new parameters at once */
		*done = true;
		err = damon_module_write(opts, w->module, 0, &part);
	} else {
		if (*done || (c && (w->enable == -1 || (w->enable == 1) == on) &&
			      module_equal(c->module, w->module)))
			return 0;
		err = damon_module_write(opts, w->module, w->enable, &part);
	}
	return err ? (free(part), err) : script_add(script, part);
}

/*
 * What @want changes is valid: the parts of a kdamond that differ from
 * @cur's (all of it where the count changes), and of its schemes those
 * not read back unchanged from the kernel (another tool's are its own).
 */
static int setup_validate(const struct damon_setup *cur,
			  const struct damon_setup *want, bool resize)
{
	int err = 0;

	for (size_t i = 0; !err && i < want->nr_kdamonds; i++) {
		const struct damon_kdamond_setup *k = &want->kdamonds[i];
		unsigned int w = kdamond_diff(resize || i >= cur->nr_kdamonds ?
					      NULL : &cur->kdamonds[i], k);

		if (w & W_ATTRS)
			err = damon_attrs_validate(&k->attrs);
		if (!err && (w & W_TARGETS) && k->targets.nr)
			err = damon_targets_validate(&k->targets);
		for (size_t j = 0; !err && (w & W_SCHEMES) && j < k->nr_schemes; j++)
			if (!k->schemes[j]->kernel || k->schemes[j]->dirty)
				err = damos_scheme_validate(k->schemes[j]);
	}
	return err;
}

/*
 * Another DAMON user in the way of a kdamond @want starts (Linux 6.1 runs
 * one exclusive user at a time), told before anything is written; the
 * modules @want turns off go off first.
 */
static int start_check(struct damon_ctx *d, const struct damon_setup *cur,
		       const struct damon_setup *want, bool resize)
{
	const char *off[8] = { NULL };
	size_t n = 0;

	for (size_t i = 0; i < want->nr_modules && n + 1 < ARRAY_SIZE(off); i++)
		if (!want->modules[i].enable)
			off[n++] = damon_module_kernel_name(want->modules[i].module);
	for (size_t i = 0; i < want->nr_kdamonds; i++)
		if (want->kdamonds[i].on &&
		    (resize || i >= cur->nr_kdamonds || !cur->kdamonds[i].on))
			return damos_kdamond_select(d, (unsigned int)i) ?:
			       damos_other_user(d, d->ops, NULL, off);
	return 0;
}

static int setup_write(struct damon_ctx *d, const struct damon_opts *opts,
		       const struct damon_setup *cur,
		       const struct damon_setup *want, struct damos_buf script[2])
{
	size_t nk = want->nr_kdamonds;
	bool resize = d && d->ops == &damos_sysfs_backend && cur->nr_kdamonds != nk;
	bool commit = d && damos_has(d, DAMOS_FEAT_COMMIT) == 1;
	unsigned int *w = calloc(nk ? nk : 1, sizeof(*w));
	bool *start = calloc(nk ? nk : 1, sizeof(*start));
	bool *done = calloc(want->nr_modules + 1, sizeof(*done));
	size_t started = 0;
	int err = 0;

	if (!w || !start || !done) {
		err = damos_err(-ENOMEM, "out of memory");
		goto out;
	}
	if (!d && nk) {
		err = damos_err(-ENOENT, "no DAMON interface below the root: its kdamonds cannot be set");
		goto out;
	}
	if (d && d->ops != &damos_sysfs_backend && nk != 1) {
		err = damos_err(-EOPNOTSUPP, "%zu kdamonds: several kdamonds need DAMON's sysfs interface",
				nk);
		goto out;
	}
	err = setup_validate(cur, want, resize);
	if (!err)
		err = start_check(d, cur, want, resize);
	if (err)
		goto out;
	for (size_t i = 0; !err && i < want->nr_modules; i++)
		err = module_write(opts, cur, &want->modules[i], 0, &done[i],
				   &script[0]);
	/* a new count makes every kdamond anew: all of them off first */
	for (size_t i = 0; !err && i < cur->nr_kdamonds; i++) {
		const struct damon_kdamond_setup *c = &cur->kdamonds[i];
		bool stop = resize || i >= nk;

		if (!stop && c->on) {
			w[i] = kdamond_diff(c, &want->kdamonds[i]);
			/* an interface without commit refuses changes while on */
			stop = !want->kdamonds[i].on || (w[i] && !commit && want->restart);
		}
		if (c->on && stop && !(err = damos_kdamond_select(d, (unsigned int)i)))
			err = damon_monitor_stop(d);
	}
	if (!err && resize)
		err = damon_kdamonds_resize(d, (unsigned int)nk);
	for (size_t i = 0; !err && i < nk; i++) {
		const struct damon_kdamond_setup *k = &want->kdamonds[i];
		struct damon_kdamond_setup fresh = { 0 };
		bool first = false;

		err = damos_kdamond_select(d, (unsigned int)i);
		/* a kdamond made anew holds what the kernel makes: read it */
		if (!err && resize)
			err = kdamond_read(d, &fresh);
		if (!err)
			w[i] = kdamond_diff(resize ? &fresh : &cur->kdamonds[i], k);
		kdamond_clear(&fresh);
		/* what only the kernel decides goes first: its refusal changes nothing */
		for (size_t j = 0; !err && (w[i] & W_SCHEMES) && j < k->nr_schemes; j++)
			first |= damos_scheme_check(d, k->schemes[j]) > 0;
		if (!err && first)
			err = damos_schemes_write(d, k->schemes, k->nr_schemes);
		if (!err && (w[i] & W_ATTRS))
			err = damon_attrs_write(d, &k->attrs);
		if (!err && (w[i] & W_TARGETS))
			err = damon_targets_write(d, &k->targets);
		if (!err && (w[i] & W_SCHEMES) && !first)
			err = damos_schemes_write(d, k->schemes, k->nr_schemes);
		if (!err && k->on) {
			bool on = false;

			err = damon_monitor_status(d, &on, NULL);
			start[i] = !err && !on;
		}
	}
	/* started last, so that a failure before leaves every kdamond off */
	for (size_t i = 0; !err && i < nk; i++) {
		if (start[i] && !(err = damos_kdamond_select(d, (unsigned int)i)))
			err = damon_monitor_start(d);
		if (!err)
			started = i + 1;
	}
	/* what was written reads back so, before the commit point */
	for (size_t i = 0; !err && i < nk; i++)
		if (w[i] && !(err = damos_kdamond_select(d, (unsigned int)i)))
			err = kdamond_verify(d, (unsigned int)i, &want->kdamonds[i], w[i]);
	for (size_t i = 0; !err && i < want->nr_modules; i++)
		err = module_write(opts, cur, &want->modules[i], 1, &done[i],
				   &script[1]);
	/* a kdamond that runs keeps nr_kdamonds as it is: off before a restore */
	for (size_t i = 0; err && resize && i < started; i++)
		if (start[i] && !damos_kdamond_select(d, (unsigned int)i))
			damon_monitor_stop(d);
out:
	free(w);
	free(start);
	free(done);
	return err;
}

/*
 * The dry run's layer on top of @in's layers, in @o (a plan: nothing
 * written); 1 if it was put there, 0 if the caller's dry run has it.
 */
static int plan_opts(const struct damon_opts *in, struct damon_opts *o,
		     const struct damos_layer **layers, size_t max)
{
	const struct damos_layer *dry = damos_layer_dry_run();
	size_t n = 0;
	int err = damon_opts_get(in, o);

	if (err)
		return err;
	for (const struct damos_layer *const *l = o->layers; l && *l; l++)
		if (*l == dry)
			return 0;	/* the caller's dry run already */
	layers[n++] = dry;
	for (const struct damos_layer *const *l = o->layers; l && *l; l++) {
		if (n + 1 >= max)
			return damos_err(-EINVAL, "damon_opts: too many layers");
		layers[n++] = *l;
	}
	layers[n] = NULL;
	o->layers = layers;
	return 1;
}

#define SETUP_WAIT_US	(30 * 1000000ULL)

int damon_setup_apply(const struct damon_opts *opts,
		      const struct damon_setup *want, char **plan)
{
	const struct damos_layer *layers[16];
	struct damos_buf b[2] = { { 0 }, { 0 } };
	struct damon_setup *cur = NULL;
	struct damon_ctx *d = NULL;
	struct damon_opts o;
	sigset_t held, saved;
	int err, lockfd = -1, own_plan = 0;

	if (plan)
		*plan = NULL;
	err = plan ? own_plan = plan_opts(opts, &o, layers, ARRAY_SIZE(layers)) :
		     damon_opts_get(opts, &o);
	if (err < 0)
		return err;
	err = 0;
	/* the lock, unless this process holds it (damoctl does, per command) */
	if (!plan && !damos_lock_held(o.root)) {
		lockfd = damos_lock_take(o.root, true, SETUP_WAIT_US);
		if (lockfd < 0)
			return lockfd;
		err = damos_journal_recover(lockfd, &o, SETUP_WAIT_US);
		if (err < 0) {
			damos_lock_release(lockfd);
			return err;
		}
		/* a signal now ends the process after the commit or the rollback */
		sigemptyset(&held);
		sigaddset(&held, SIGINT);
		sigaddset(&held, SIGTERM);
		sigaddset(&held, SIGHUP);
		pthread_sigmask(SIG_BLOCK, &held, &saved);
	}
	err = open_damon(&o, &d);
	if (err)
		goto out;
	err = damos_txn_begin(NULL);
	if (err)
		goto out;
	err = damos_txn_begin(d);
	/* read under the lock: what another writer changed is kept */
	if (!err)
		err = setup_read(d, &o, &cur);
	if (!err)
		err = setup_write(d, &o, cur, want, b);
	err = damos_txn_end(d, err);
	err = damos_txn_end(NULL, err);
	/* the plan: the writes in the order they were made, in the overlay */
	if (!err && plan) {
		struct damos_buf all = { 0 };

		damos_buf_printf(&all, "%s%s%s", b[0].s ? b[0].s : "",
				 d ? damos_dry_run_script(d) : "",
				 b[1].s ? b[1].s : "");
		err = all.err ? damos_err(-ENOMEM, "out of memory") : 0;
		*plan = err ? (free(all.s), NULL) : all.s;
	}
out:
	damos_buf_free(&b[0]);
	damos_buf_free(&b[1]);
	damon_setup_free(cur);
	damon_close(d);
	/* a plan of its own leaves no overlay for the process's next one */
	if (own_plan == 1)
		damos_dry_forget();
	if (lockfd >= 0) {
		damos_lock_release(lockfd);
		pthread_sigmask(SIG_SETMASK, &saved, NULL);
	}
	return err;
}
