// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

static char *ctx_file(struct damon_ctx *d, const char *name)
{
	return damos_path("%s/%s", d->dir, name);
}

/* 6.9+ renamed monitor_on to monitor_on_DEPRECATED. */
static char *monitor_on_file(struct damon_ctx *d)
{
	char *p = damos_path("%s/monitor_on", d->dbgfs);

	if (p && !damos_exists(d, p)) {
		char *q = damos_path("%s/monitor_on_DEPRECATED", d->dbgfs);

		if (q && damos_exists(d, q)) {
			free(p);
			return q;
		}
		free(q);
	}
	return p;
}

static int dbgfs_status(struct damon_ctx *d, bool *on, int *pid)
{
	char word[32] = "off";
	char *p = monitor_on_file(d);
	uint64_t v;
	int err = 0;

	if (!p)
		return damos_err(-ENOMEM, "out of memory");
	err = damos_read_word(d, p, word, sizeof(word));
	free(p);
	if (err)
		return err;
	if (on)
		*on = !strcmp(word, "on");
	if (!pid)
		return 0;
	*pid = -1;
	p = ctx_file(d, "kdamond_pid");
	if (p && damos_exists(d, p) &&
	    !damos_read_word(d, p, word, sizeof(word)) &&
	    !damos_parse_u64(word, &v) && v <= INT_MAX)
		*pid = (int)v;
	free(p);
	return 0;
}

static int refuse_if_on(struct damon_ctx *d, const char *what)
{
	bool on = false;
	int err = dbgfs_status(d, &on, NULL);

	if (err)
		return err;
	if (on)
		return damos_err_hint(-EBUSY, DAMOS_HINT_STOP_MONITOR, 0,
				      "monitoring is on and dbgfs refuses to change %s while it runs: stop it first" DAMOS_HINT_AT "; nothing was changed",
				      what);
	return 0;
}

static int dbgfs_schemes_read(struct damon_ctx *d, struct damos_scheme ***out,
			      size_t *n)
{
	char *p = ctx_file(d, "schemes"), *text = NULL;
	int err = p ? damos_read(d, p, &text) : -ENOMEM;

	free(p);
	if (!err)
		err = damos_dbgfs_decode(text, out, n);
	for (size_t i = 0; !err && i < *n; i++)
		(*out)[i]->kernel = true;
	free(text);
	return err;
}

static int lru_refusal(const char *tail)
{
	return damos_err_hint(-EOPNOTSUPP, DAMOS_HINT_USE_SYSFS, 0,
			      "this kernel's dbgfs does not accept lru_prio and lru_deprio (dbgfs actions 6 and 7 need the damos kernel series)" DAMOS_HINT_AT "%s",
			      tail);
}

static int lru_supported(struct damon_ctx *d);

/* lru_prio and lru_deprio need the damos series: 1 if not known. */
static int dbgfs_scheme_check(struct damon_ctx *d, const struct damos_scheme *s)
{
	enum damos_action a = damos_scheme_action(s);
	int sup;

	if (a != DAMOS_ACTION_LRU_PRIO && a != DAMOS_ACTION_LRU_DEPRIO)
		return 0;
	sup = lru_supported(d);
	return !sup ? lru_refusal("") : sup < 0;
}

static int dbgfs_targets_check(struct damon_ctx *d, const struct damon_targets *t)
{
	(void)d;
	if (t->ops == DAMON_OPS_FVADDR)
		return damos_err_hint(-EOPNOTSUPP, DAMOS_HINT_USE_SYSFS, 0,
				      "dbgfs has no fvaddr monitoring");
	return 0;
}

static int dbgfs_schemes_write(struct damon_ctx *d, struct damos_scheme *const *s,
			       size_t n)
{
	int first_lru = -1, err, supported;
	char *p, *text;

	for (size_t i = 0; i < n && first_lru < 0; i++) {
		enum damos_action a = damos_scheme_action(s[i]);

		if (a == DAMOS_ACTION_LRU_PRIO || a == DAMOS_ACTION_LRU_DEPRIO)
			first_lru = a;
	}
	for (size_t i = 0; i < n; i++) {
		err = damos_scheme_features(d, s[i], i);
		if (err)
			return err;
	}
	text = damos_dbgfs_encode_kept(s, n, false);
	if (!text)
		return -errno;
	err = refuse_if_on(d, "schemes");
	if (!err && first_lru >= 0) {
		supported = damos_dbgfs_lru_supported(d);
		if (supported == 0)
			err = lru_refusal("; nothing was changed");
	}
	p = ctx_file(d, "schemes");
	if (!err)
		err = p ? damos_write(d, p, text) : -ENOMEM;
	/* the kernel rejects the whole write: nothing changed */
	if (err == -EINVAL && first_lru >= 0 && d->max_action < 0)
		err = lru_refusal("; nothing was changed");
	free(p);
	free(text);
	return err;
}

static int dbgfs_attrs_read(struct damon_ctx *d, struct damon_attrs *a)
{
	char *p = ctx_file(d, "attrs"), *text = NULL;
	int err = 0;

	if (!p)
		return damos_err(-ENOMEM, "out of memory");
	if (!(err = damos_read(d, p, &text)) &&
	    (err = damon_attrs_decode(text, a)))
		damos_err_prefix(err, "%s: ", p);
	free(p);
	free(text);
	return err;
}

static int dbgfs_attrs_write(struct damon_ctx *d, const struct damon_attrs *a)
{
	char buf[128], *p;
	int err = damon_attrs_validate(a);

	if (!err)
		err = refuse_if_on(d, "attrs");
	if (err)
		return err;
	damon_attrs_encode(a, buf, sizeof(buf));
	p = ctx_file(d, "attrs");
	err = p ? damos_write(d, p, buf) : -ENOMEM;
	free(p);
	return err;
}

static int read_init_regions(struct damon_ctx *d, struct damon_targets *t)
{
	char *p = ctx_file(d, "init_regions"), *text = NULL, *line, *save;
	int err;

	if (!p)
		return damos_err(-ENOMEM, "out of memory");
	err = damos_read(d, p, &text);
	free(p);
	if (err == -EBUSY)	/* readable only while monitoring is off */
		return 0;
	for (line = text ? strtok_r(text, "\n", &save) : NULL;
	     line && !err; line = strtok_r(NULL, "\n", &save)) {
		unsigned long long idx, start, end;

		if (sscanf(line, "%llu %llu %llu", &idx, &start, &end) != 3 ||
		    idx >= t->nr)
			err = damos_err(-EINVAL, "init_regions: bad line '%s'",
					line);
		else
			err = damos_target_region_add(&t->targets[idx],
						      start, end);
	}
	free(text);
	return err;
}

static int dbgfs_targets_read(struct damon_ctx *d, struct damon_targets *t)
{
	char *p = ctx_file(d, "target_ids"), *text = NULL, *tok, *save;
	int err;

	memset(t, 0, sizeof(*t));
	t->sz = sizeof(*t);
	err = p ? damos_read(d, p, &text) : -ENOMEM;
	free(p);
	t->ops = DAMON_OPS_VADDR;
	/* the kernel shows paddr's single target as "42" */
	if (!err && !strcmp(text, "42\n"))
		t->ops = DAMON_OPS_PADDR;
	for (tok = err ? NULL : strtok_r(text, " \n", &save); tok && !err;
	     tok = strtok_r(NULL, " \n", &save)) {
		uint64_t v;

		if (!strcmp(tok, "paddr")) {	/* a fake tree as written */
			t->ops = DAMON_OPS_PADDR;
			v = 42;
		} else if (damos_parse_u64(tok, &v) || v > INT_MAX) {
			err = damos_err(-EINVAL, "target_ids: '%s' is not a pid",
					tok);
			break;
		}
		err = damos_targets_add(t, t->ops == DAMON_OPS_PADDR ? 0 : (int)v);
	}
	free(text);
	if (!err)
		err = read_init_regions(d, t);
	if (err)
		damon_targets_free(t);
	return err;
}

static int dbgfs_targets_write(struct damon_ctx *d, const struct damon_targets *t)
{
	struct damos_buf ids = { 0 }, regions = { 0 };
	char *p;
	int err = damon_targets_validate(t);

	static const char *const files[] = { "target_ids", "init_regions", NULL };

	if (!err)
		err = dbgfs_targets_check(d, t);
	if (!err)
		err = refuse_if_on(d, "targets");
	if (!err)
		err = damos_check_writable(d, files);
	if (err)
		return err;
	if (t->ops == DAMON_OPS_PADDR)
		damos_buf_printf(&ids, "paddr\n");
	for (size_t i = 0; t->ops == DAMON_OPS_VADDR && i < t->nr; i++)
		damos_buf_printf(&ids, "%s%d", i ? " " : "", t->targets[i].pid);
	if (t->ops == DAMON_OPS_VADDR)
		damos_buf_printf(&ids, "\n");
	for (size_t i = 0; i < t->nr; i++)
		for (size_t r = 0; r < t->targets[i].nr_regions; r++)
			damos_buf_printf(&regions, "%zu %llu %llu\n", i,
					 (unsigned long long)t->targets[i].regions[r].start,
					 (unsigned long long)t->targets[i].regions[r].end);
	err = ids.err ?: regions.err;
	p = ctx_file(d, "target_ids");
	if (!err)
		err = p ? damos_write(d, p, ids.s) : -ENOMEM;
	free(p);
	p = ctx_file(d, "init_regions");
	if (!err && regions.s)
		err = p ? damos_write(d, p, regions.s) : -ENOMEM;
	free(p);
	damos_buf_free(&ids);
	damos_buf_free(&regions);
	return err;
}

static int dbgfs_turn(struct damon_ctx *d, bool on)
{
	char *p = monitor_on_file(d);
	int err = p ? damos_write(d, p, on ? "on\n" : "off\n") : -ENOMEM;

	free(p);
	return err;
}

/* Any handle: below its root, whichever interface it is on. */
static int dbgfs_in_use(struct damon_ctx *d, const char *self)
{
	static const char *const files[] = {
		"monitor_on", "monitor_on_DEPRECATED",
	};
	int busy = 0;

	char *pid = damos_path("%s/%s/kdamond_pid", d->root, damos_dbgfs_backend.top);
	/*
	 * monitor_on reads "on" while any DAMON context runs, a sysfs
	 * kdamond's or a module's too (damon_nr_running_ctxs()): with one of
	 * those on and dbgfs's kdamond_pid "none", the "on" is theirs.
	 */
	bool own = !pid || !damos_exists(d, pid) || !damos_word_is(d, pid, "none") ||
		   !(damos_sysfs_kdamond_on(d, NULL) >= 0 || damos_module_on(d));

	free(pid);
	for (size_t i = 0; own && !busy && i < ARRAY_SIZE(files); i++) {
		char *p = damos_path("%s/%s/%s", d->root,
				     damos_dbgfs_backend.top, files[i]);

		if (p && damos_word_is(d, p, "on"))
			busy = damos_err_hint(-EBUSY, DAMOS_HINT_STOP_DBGFS, 0,
					      "dbgfs monitoring is on, and %s does not start next to another DAMON user: stop it first" DAMOS_HINT_AT,
					      self);
		free(p);
	}
	return busy;
}

/*
 * See damos.h: a private context, one action-6 scheme, its errno.  The
 * kernel's mk_contexts refuses (EBUSY) while any DAMON context runs.
 */
static int dbgfs_lru_probe(struct damon_ctx *d)
{
	static const char line[] =
		"4096 8192 0 0 0 0 6 0 0 0 0 0 0 0 0 0 0 0\n"
		"4096 8192 0 0 0 0 7 0 0 0 0 0 0 0 0 0 0 0\n";
	char name[64], *mk, *rm, *schemes;
	int err;

	snprintf(name, sizeof(name), "damos_probe_%d\n", (int)getpid());
	mk = damos_path("%s/mk_contexts", d->dbgfs);
	rm = damos_path("%s/rm_contexts", d->dbgfs);
	schemes = damos_path("%s/%.*s/schemes", d->dbgfs,
			     (int)strlen(name) - 1, name);
	if (!mk || !rm || !schemes) {
		err = -ENOMEM;
		goto out;
	}
	err = damos_write(d, mk, name);
	if (err) {
		err = -EAGAIN;
		goto out;
	}
	err = damos_write(d, schemes, line);
	d->max_action = !err ? 7 : err == -EINVAL ? 5 : -1;
	damos_write(d, rm, name);
	err = d->max_action < 0 ? -EAGAIN : 0;
out:
	free(mk);
	free(rm);
	free(schemes);
	return err;
}

/* What is known without writing: the caller's word, the I/O stack's. */
static int lru_known(struct damon_ctx *d)
{
	if (d->max_action < 0) {
		int m = damos_io_query(d, DAMOS_IO_Q_MAX_ACTION);

		if (m == -EINVAL)
			return m;
		if (m >= 0)
			d->max_action = m;
	}
	return d->max_action < 0 ? -EAGAIN : d->max_action >= 7;
}

int damos_dbgfs_lru_supported(struct damon_ctx *d)
{
	if (d->iface != DAMON_IFACE_DBGFS)
		return damos_err(-EOPNOTSUPP, "not on dbgfs");
	return lru_supported(d);
}

static int lru_supported(struct damon_ctx *d)
{
	int known = lru_known(d);

	if (known != -EAGAIN)
		return known;
	/* a probe writes */
	if (damos_io_query(d, DAMOS_IO_Q_RECORDED) == 1)
		return damos_err(-EAGAIN, "dry run: dbgfs not probed");
	if (dbgfs_lru_probe(d))
		return damos_err(-EAGAIN, "dbgfs probe could not run");
	return d->max_action >= 7;
}

static int dbgfs_has(struct damon_ctx *d, int f, bool probe)
{
	if (f != DAMOS_FEAT_LRU_ACTIONS)
		return !!(d->feat & (1U << f));
	return probe ? damos_dbgfs_lru_supported(d) : lru_known(d);
}

static int dbgfs_feature_err(struct damon_ctx *d, int f, const char *what)
{
	const struct damos_feature_info *fi = &damos_features[f];

	if (f == DAMOS_FEAT_LRU_ACTIONS)
		return lru_refusal("; nothing was changed");
	(void)d;
	return damos_err(-EOPNOTSUPP,
			 "%s needs %s, which dbgfs does not have (the sysfs interface of Linux %d.%d+ does); nothing was changed",
			 what, fi->what, fi->since_major, fi->since_minor);
}

static bool dbgfs_claims(const struct damon_opts *o, char *buf, size_t sz)
{
	if (!o->dbgfs_ctx || !*o->dbgfs_ctx)
		return false;
	snprintf(buf, sz, "dbgfs context '%s'", o->dbgfs_ctx);
	return true;
}

/* The context directory: a context made by mk_contexts, or the first. */
static int dbgfs_open(struct damon_ctx *d, const struct damon_opts *o)
{
	d->max_action = o->dbgfs_lru < 0 ? -1 : o->dbgfs_lru ? 7 : 5;
	d->dir = o->dbgfs_ctx && *o->dbgfs_ctx ?
		 damos_path("%s/%s", d->dbgfs, o->dbgfs_ctx) : strdup(d->dbgfs);
	if (!d->dir)
		return damos_err(-ENOMEM, "out of memory");
	if (!damos_exists(d, d->dir))
		return damos_err(-ENOENT, "no dbgfs context %s", d->dir);
	return 0;
}

static void dbgfs_probe(struct damon_ctx *d)
{
	char *p = damos_path("%s/monitor_on_DEPRECATED", d->dbgfs);

	d->feat = 0;
	if (p && damos_exists(d, p))
		d->feat |= 1U << DAMOS_FEAT_MONITOR_ON_DEPRECATED;
	free(p);
	snprintf(d->kdesc, sizeof(d->kdesc), "dbgfs");
}

/* A context directory as mk_contexts makes it. */
static int make_context(struct damos_io *files, const char *dir)
{
	struct damon_attrs a;
	char attrs[128];
	const char *const f[][2] = {
		{ "attrs", attrs }, { "schemes", "" }, { "target_ids", "" },
		{ "init_regions", "" }, { "kdamond_pid", "none\n" },
	};
	int err = damos_io_mkdir(files, dir);

	damon_attrs_default(&a);
	damon_attrs_encode(&a, attrs, sizeof(attrs));
	for (size_t i = 0; !err && i < ARRAY_SIZE(f); i++) {
		char *p = damos_path("%s/%s", dir, f[i][0]);

		err = p ? damos_io_write(files, p, f[i][1], DAMOS_IO_CREATE) :
			  -ENOMEM;
		free(p);
	}
	return err;
}

/* mk_contexts, rm_contexts: the directory of the context named. */
static int context_dir_op(struct damon_ctx *d, struct damos_io *files,
			  const char *base, const char *content)
{
	char name[256], *p;
	int err;

	snprintf(name, sizeof(name), "%.*s", (int)strcspn(content, " \n"),
		 content);
	if (!name[0] || strchr(name, '/') || !strcmp(name, ".."))
		return -EINVAL;
	p = damos_path("%s/%s", d->dbgfs, name);
	if (!p)
		return -ENOMEM;
	if (base[0] == 'm')
		err = damos_io_exists(files, p) ? -EEXIST : make_context(files, p);
	else
		err = damos_io_exists(files, p) ? damos_io_remove(files, p) : -ENOENT;
	free(p);
	return err;
}

/* What dbgfs does on a write, on plain files (the backend's model_write). */
static int dbgfs_model_write(struct damon_ctx *d, struct damos_io *files,
			     const char *path, const char *content,
			     unsigned int flags)
{
	size_t n = strlen(d->dbgfs);
	const char *base = strrchr(path, '/') + 1;
	int err = damos_io_write(files, path, content, flags);

	if (err || strncmp(path, d->dbgfs, n) || path[n] != '/')
		return err;
	/* the targets own their regions; new targets have none */
	if (!strcmp(base, "target_ids")) {
		char *p = damos_path("%.*s/init_regions", (int)(base - 1 - path),
				     path);

		err = !p ? -ENOMEM : damos_io_exists(files, p) ?
		      damos_io_write(files, p, "", 0) : 0;
		free(p);
	} else if (!strcmp(base, "mk_contexts") || !strcmp(base, "rm_contexts")) {
		err = context_dir_op(d, files, base, content);
	}
	if (err && err != -ENOMEM)
		damos_err(err, "cannot write %s: %s", path, strerror(-err));
	return err;
}

#define DEBUGFS_MAGIC	0x64626720

const struct damos_backend damos_dbgfs_backend = {
	.iface = DAMON_IFACE_DBGFS,
	.top = "sys/kernel/debug/damon",
	.fs_magic = DEBUGFS_MAGIC,
	.claims = dbgfs_claims,
	.open = dbgfs_open,
	.has = dbgfs_has,
	.feature_err = dbgfs_feature_err,
	.scheme_check = dbgfs_scheme_check,
	.targets_check = dbgfs_targets_check,
	.user = "dbgfs monitoring",
	.exclusive = true,
	.in_use = dbgfs_in_use,
	.probe = dbgfs_probe,
	.schemes_read = dbgfs_schemes_read,
	.schemes_write = dbgfs_schemes_write,
	.attrs_read = dbgfs_attrs_read,
	.attrs_write = dbgfs_attrs_write,
	.targets_read = dbgfs_targets_read,
	.targets_write = dbgfs_targets_write,
	.status = dbgfs_status,
	.turn = dbgfs_turn,
	.model_write = dbgfs_model_write,
	/*
	 * dbgfs shows no regions while monitoring runs, and keeps none of a
	 * target written without them
	 */
	.regions_lossy = true,
};
