// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * The fake kernel: a layer that does on a tree of plain files what the
 * kernel does on a write to its files (damos_opts, "fake trees"), so that
 * a fake tree, and the dry run's private copy of the real files, read back
 * as the kernel's would.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>

#include "internal.h"

struct emul {
	struct damos_io io;
	bool declared;		/* the tree is the caller's: .max_action */
};

/* Fake trees: what the kernel creates on a write to a sysfs nr_* file. */
static const char *const kdamond_files[] = {
	"state=off", "pid=-1", "contexts/nr_contexts=0", NULL,
};
static const char *const context_files[] = {
	"avail_operations=vaddr\nfvaddr\npaddr", "operations=vaddr",
	"monitoring_attrs/intervals/sample_us=5000",
	"monitoring_attrs/intervals/aggr_us=100000",
	"monitoring_attrs/intervals/update_us=60000000",
	"monitoring_attrs/nr_regions/min=10",
	"monitoring_attrs/nr_regions/max=1000",
	"targets/nr_targets=0", "schemes/nr_schemes=0", NULL,
};
static const char *const target_files[] = {
	"pid_target=0", "regions/nr_regions=0", NULL,
};
static const char *const region_files[] = { "start=0", "end=0", NULL };
static const char *const scheme_files[] = {
	"action=stat",
	"access_pattern/sz/min=0", "access_pattern/sz/max=0",
	"access_pattern/nr_accesses/min=0", "access_pattern/nr_accesses/max=0",
	"access_pattern/age/min=0", "access_pattern/age/max=0",
	"quotas/ms=0", "quotas/bytes=0", "quotas/reset_interval_ms=0",
	"quotas/weights/sz_permil=0", "quotas/weights/nr_accesses_permil=0",
	"quotas/weights/age_permil=0",
	"watermarks/metric=none", "watermarks/interval_us=0",
	"watermarks/high=0", "watermarks/mid=0", "watermarks/low=0",
	"stats/nr_tried=0", "stats/sz_tried=0", "stats/nr_applied=0",
	"stats/sz_applied=0", "stats/qt_exceeds=0", NULL,
};
/* What later kernels add to a new scheme directory, by feature. */
static const struct {
	int feature;
	const char *file;
} scheme_files_new[] = {
	{ DAMOS_FEAT_TRIED_REGIONS, "tried_regions/.dir=" },
	{ DAMOS_FEAT_FILTERS, "filters/nr_filters=0" },
	{ DAMOS_FEAT_TRIED_BYTES, "tried_regions/total_bytes=0" },
	{ DAMOS_FEAT_APPLY_INTERVAL, "apply_interval_us=0" },
	{ DAMOS_FEAT_QUOTA_GOALS, "quotas/goals/nr_goals=0" },
	{ DAMOS_FEAT_EFFECTIVE_BYTES, "quotas/effective_bytes=0" },
	{ DAMOS_FEAT_MIGRATE, "target_nid=-1" },
};
static const char *const filter_files[] = {
	"type=anon", "matching=N", "memcg_path=", "addr_start=0",
	"addr_end=0", "damon_target_idx=0", NULL,
};
static const char *const goal_files[] = {
	"target_metric=user_input", "target_value=0", "current_value=0", NULL,
};
static const char *const dbgfs_ctx_files[] = {
	"attrs=5000 100000 60000000 10 1000", "schemes=", "target_ids=",
	"init_regions=", "kdamond_pid=none", NULL,
};

static const struct {
	const char *nr_file;
	const char *const *files;
} fake_dirs[] = {
	{ "kdamonds/nr_kdamonds", kdamond_files },
	{ "contexts/nr_contexts", context_files },
	{ "targets/nr_targets", target_files },
	{ "regions/nr_regions", region_files },
	{ "schemes/nr_schemes", scheme_files },
	{ "filters/nr_filters", filter_files },
	{ "goals/nr_goals", goal_files },
};

/* Make the files @files (see above) below @dir, through @io. */
static int fake_populate(struct damos_io *io, const char *dir,
			 const char *const *files)
{
	for (; *files; files++) {
		const char *eq = strchr(*files, '=');
		char *p = damos_path("%s/%.*s", dir, (int)(eq - *files), *files);
		char *parent = p ? strndup(p, strrchr(p, '/') - p) : NULL;
		int err = parent ? damos_io_mkdir(io, parent) : -ENOMEM;

		if (!err && strcmp(strrchr(p, '/'), "/.dir")) {
			char *text = damos_path("%s%s", eq + 1, eq[1] ? "\n" : "");

			err = text ? damos_io_write(io, p, text, DAMOS_IO_CREATE) :
				     -ENOMEM;
			free(text);
		}
		free(parent);
		free(p);
		if (err)
			return err;
	}
	return 0;
}

/* The default of file @rel: from @files, later kernels' table, else 0. */
static const char *default_of(const char *rel, const char *const *files)
{
	size_t n = strlen(rel);

	for (; files && *files; files++)
		if (!strncmp(*files, rel, n) && (*files)[n] == '=')
			return *files + n + 1;
	for (size_t k = 0; k < ARRAY_SIZE(scheme_files_new); k++)
		if (!strncmp(scheme_files_new[k].file, rel, n) &&
		    scheme_files_new[k].file[n] == '=')
			return scheme_files_new[k].file + n + 1;
	return "0";
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
 * "rel=default" for every file of @dir0 outside its own numbered
 * directories: a kernel makes every new directory with the same files,
 * those this library does not know included.  NULL on failure.
 */
static char **template_of(struct damos_io *io, const char *dir0,
			  const char *const *files)
{
	struct damos_snap sn;
	char **t = NULL;
	size_t n = 0;

	if (damos_snap_read_io(io, dir0, &sn))
		return NULL;
	t = calloc(sn.n + 1, sizeof(*t));
	for (size_t i = 0; t && i < sn.n; i++) {
		if (numbered_part(sn.f[i].rel))
			continue;
		t[n] = damos_path("%s=%s", sn.f[i].rel,
				  default_of(sn.f[i].rel, files));
		if (!t[n])
			break;
		n++;
	}
	for (size_t i = 0; i < sn.n; i++) {
		free(sn.f[i].rel);
		free(sn.f[i].content);
	}
	free(sn.f);
	if (t && n == 0) {
		free(t);
		return NULL;
	}
	return t;
}

/* The sysfs kernel recreates every numbered directory on a nr_* write. */
static int fake_nr_write(struct damos_io *io, const char *path,
			 const char *content)
{
	struct damos_ctx *d = io->d;
	const char *const *files = NULL;
	char *parent;
	uint64_t nr;
	int err = 0;

	static const char *const just_dir[] = { ".dir=", NULL };

	for (size_t i = 0; i < ARRAY_SIZE(fake_dirs); i++)
		if (damos_ends_with(path, fake_dirs[i].nr_file))
			files = fake_dirs[i].files;
	/*
	 * a later kernel's nr_* in a scheme: numbered dirs like their 0; but
	 * the weight nr_accesses_permil and the statistics are values
	 */
	if (!files && !strncmp(strrchr(path, '/') + 1, "nr_", 3) &&
	    strstr(path, "/schemes/") &&
	    !damos_ends_with(path, "nr_accesses_permil") &&
	    !strstr(path, "/stats/"))
		files = just_dir;
	if (!files)
		return 0;
	char word[32];

	snprintf(word, sizeof(word), "%.*s", (int)strcspn(content, "\n"),
		 content);
	if (damos_parse_u64(word, &nr) || nr > 4096)
		return -EINVAL;
	parent = strndup(path, strrchr(path, '/') - path);
	if (!parent)
		return -ENOMEM;
	/* the kernel makes the files it made before: those of <parent>/0 */
	char **tmpl = NULL;
	char *zero = damos_path("%s/0", parent);

	/* which files a new scheme has: the backend's probe says */
	if (files == scheme_files && d->ops && !d->feat_probed) {
		d->feat_probed = true;
		d->ops->probe(d);
	}
	if (zero && damos_exists(zero))
		tmpl = template_of(io->below, zero, files);
	free(zero);
	for (uint64_t i = 0; !err; i++) {
		char *p = damos_path("%s/%llu", parent, (unsigned long long)i);

		if (!p) {
			err = -ENOMEM;
		} else if (!damos_exists(p)) {
			free(p);
			break;
		} else {
			err = damos_io_remove(io->below, p);
		}
		free(p);
	}
	for (uint64_t i = 0; !err && i < nr; i++) {
		char *p = damos_path("%s/%llu", parent, (unsigned long long)i);

		err = p ? fake_populate(io->below, p, tmpl ? (const char *const *)tmpl :
					files) : -ENOMEM;
		for (size_t k = 0; !err && !tmpl && files == scheme_files &&
		     k < ARRAY_SIZE(scheme_files_new); k++) {
			const char *one[] = { scheme_files_new[k].file, NULL };

			if (d->feat & (1U << scheme_files_new[k].feature))
				err = fake_populate(io->below, p, one);
		}
		free(p);
	}
	for (size_t i = 0; tmpl && tmpl[i]; i++)
		free(tmpl[i]);
	free(tmpl);
	free(parent);
	return err;
}

static bool in_dir(const char *path, const char *dir)
{
	size_t n = dir ? strlen(dir) : 0;

	return n && !strncmp(path, dir, n) && path[n] == '/';
}

static int fake_monitor_on(struct damos_io *io)
{
	struct damos_ctx *d = io->d;
	char *word = NULL;
	char *p = damos_path("%s/monitor_on", d->dbgfs);
	bool on;

	if (p && !damos_exists(p)) {
		free(p);
		p = damos_path("%s/monitor_on_DEPRECATED", d->dbgfs);
	}
	if (p && damos_exists(p))
		damos_io_read(io->below, p, &word);
	free(p);
	on = word && !strncmp(word, "on", 2) && (!word[2] || word[2] == '\n');
	free(word);
	return on;
}

/* Before a write to a fake tree: the refusals of the kernel. */
static int fake_pre_write(struct damos_io *io, const char *path)
{
	struct damos_ctx *d = io->d;
	const char *base = strrchr(path, '/') + 1;

	if (in_dir(path, d->dbgfs) && strncmp(base, "monitor_on", 10) &&
	    fake_monitor_on(io))
		return -EBUSY;
	return 0;
}

/* After a write to a fake tree: the side effects of the kernel. */
static int fake_post_write(struct damos_io *io, const char *path,
			   const char *content, const char *old)
{
	struct damos_ctx *d = io->d;
	const char *base = strrchr(path, '/') + 1;
	char name[256];
	char *p;
	int err = 0;

	if (in_dir(path, d->admin)) {
		if (!strcmp(base, "state") && strcmp(content, "on\n") &&
		    strcmp(content, "off\n") && old)
			return damos_io_write(io->below, path, old, 0);
		return fake_nr_write(io, path, content);
	}
	/* dbgfs: the targets own their regions; new targets have none */
	if (in_dir(path, d->dbgfs) && !strcmp(base, "target_ids")) {
		p = damos_path("%.*s/init_regions", (int)(base - 1 - path), path);
		if (!p)
			return -ENOMEM;
		if (damos_exists(p))
			err = damos_io_write(io->below, p, "", 0);
		free(p);
		return err;
	}
	if (!in_dir(path, d->dbgfs) || (strcmp(base, "mk_contexts") &&
					strcmp(base, "rm_contexts")))
		return 0;
	snprintf(name, sizeof(name), "%.*s", (int)strcspn(content, " \n"),
		 content);
	if (!name[0] || strchr(name, '/') || !strcmp(name, ".."))
		return -EINVAL;
	p = damos_path("%s/%s", d->dbgfs, name);
	if (!p)
		return -ENOMEM;
	if (base[0] == 'm')
		err = damos_exists(p) ? -EEXIST :
		      fake_populate(io->below, p, dbgfs_ctx_files);
	else
		err = damos_exists(p) ? damos_io_remove(io->below, p) : -ENOENT;
	free(p);
	return err;
}

/* A dbgfs file a minimal fake tree may lack: what the kernel shows. */
static const char *dbgfs_default(struct damos_ctx *d, const char *path)
{
	static const char *const files[] = {
		"monitor_on=off", "attrs=5000 100000 60000000 10 1000",
		"init_regions=",
	};
	const char *base = strrchr(path, '/') + 1;
	size_t n = strlen(base);

	if (!in_dir(path, d->dbgfs))
		return NULL;
	for (size_t i = 0; i < ARRAY_SIZE(files); i++)
		if (!strncmp(files[i], base, n) && files[i][n] == '=')
			return files[i] + n + 1;
	return NULL;
}

static int emul_read(struct damos_io *io, const char *path, char **out)
{
	const char *def = dbgfs_default(io->d, path);

	if (!def || damos_exists(path))
		return damos_io_read(io->below, path, out);
	*out = damos_path("%s%s", def, *def ? "\n" : "");
	return *out ? 0 : damos_err(-ENOMEM, "out of memory");
}

static int emul_write(struct damos_io *io, const char *path,
		      const char *content, unsigned int flags)
{
	char *old = NULL;
	int err = fake_pre_write(io, path);

	if (err)
		return damos_err(err, "cannot write %s: %s", path,
				 strerror(-err));
	if (!strcmp(strrchr(path, '/'), "/state"))
		damos_io_read(io->below, path, &old);
	err = damos_io_write(io->below, path, content, flags);
	if (!err) {
		err = fake_post_write(io, path, content, old);
		if (err)
			damos_err(err, "cannot write %s: %s", path,
				  strerror(-err));
	}
	free(old);
	return err;
}

/* A fake dbgfs declares the kernel it models in <dbgfs>/.max_action. */
static int max_action(struct damos_io *io)
{
	char *p = io->d->dbgfs ? damos_path("%s/.max_action", io->d->dbgfs) : NULL;
	char *text = NULL;
	uint64_t v = 7;
	int err = 0;

	if (p && damos_exists(p)) {
		err = damos_io_read(io->below, p, &text);
		if (!err) {
			text[strcspn(text, "\n")] = '\0';
			if (damos_parse_u64(text, &v))
				err = damos_err(-EINVAL, "%s: '%s' is not a number",
						p, text);
		}
	}
	free(text);
	free(p);
	return err ? -EINVAL : v > 7 ? 7 : (int)v;
}

static int emul_query(struct damos_io *io, enum damos_io_q q)
{
	switch (q) {
	case DAMOS_IO_Q_STATIC:
	case DAMOS_IO_Q_EXACT:
		return 1;
	case DAMOS_IO_Q_MAX_ACTION:
		if (container_of(io, struct emul, io)->declared)
			return max_action(io);
		return -ENOTTY;
	default:
		return -ENOTTY;
	}
}

static void emul_free(struct damos_io *io)
{
	free(container_of(io, struct emul, io));
}

static const struct damos_io_ops emul_ops = {
	.name = "fake kernel",
	.read = emul_read,
	.write = emul_write,
	.query = emul_query,
	.free = emul_free,
};

struct damos_io *damos_io_emul(struct damos_ctx *d, struct damos_io *below,
			       bool declared)
{
	struct emul *e = calloc(1, sizeof(*e));

	if (!e)
		return damos_err_null(-ENOMEM, "out of memory");
	e->io.ops = &emul_ops;
	e->io.below = below;
	e->io.d = d;
	e->declared = declared;
	return &e->io;
}

static struct damos_io *push_fake(struct damos_ctx *d, struct damos_io *below,
				  long fs_magic)
{
	(void)fs_magic;
	return damos_io_emul(d, below, true);
}

static bool on_fs(const char *path, long magic)
{
	struct statfs st;

	return !statfs(path, &st) && st.f_type == magic;
}

static struct damos_io *push_auto(struct damos_ctx *d, struct damos_io *below,
				  long fs_magic)
{
	if (!fs_magic || !d->top || on_fs(d->top, fs_magic))
		return below;
	return damos_io_emul(d, below, true);
}

const struct damos_layer *damos_layer_fake_kernel(void)
{
	static const struct damos_layer l = { "fake kernel", push_fake };

	return &l;
}

const struct damos_layer *damos_layer_fake_kernel_auto(void)
{
	static const struct damos_layer l = { "fake kernel (auto)", push_auto };

	return &l;
}
