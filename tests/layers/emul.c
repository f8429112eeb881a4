// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * The fake kernel, for test builds only: a layer that makes a tree of
 * plain files (a "fake tree", --root in the host tests) act as the
 * kernel's.  What a write makes there is the backend's own model (its
 * model_write, which the dry run's overlay uses too); this layer adds what
 * only a fake tree needs: dbgfs' refusal while monitoring is on, the
 * files a minimal tree lacks, and the kernel the tree declares
 * (<dbgfs>/.max_action).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>

#include "layers.h"

struct emul {
	struct damos_io io;
};

static bool in_dir(const char *path, const char *dir)
{
	size_t n = dir ? strlen(dir) : 0;

	return n && !strncmp(path, dir, n) && path[n] == '/';
}

static int fake_monitor_on(struct damos_io *io)
{
	struct damon_ctx *d = io->d;
	char *word = NULL;
	char *p = damos_path("%s/monitor_on", d->dbgfs);
	bool on;

	if (p && !damos_io_exists(io->below, p)) {
		free(p);
		p = damos_path("%s/monitor_on_DEPRECATED", d->dbgfs);
	}
	if (p && damos_io_exists(io->below, p))
		damos_io_read(io->below, p, &word);
	free(p);
	on = word && !strncmp(word, "on", 2) && (!word[2] || word[2] == '\n');
	free(word);
	return on;
}

/* Before a write to a fake tree: the refusals of the kernel. */
static int fake_pre_write(struct damos_io *io, const char *path)
{
	struct damon_ctx *d = io->d;
	const char *base = strrchr(path, '/') + 1;

	if (in_dir(path, d->dbgfs) && strncmp(base, "monitor_on", 10) &&
	    fake_monitor_on(io))
		return -EBUSY;
	return 0;
}

/* A dbgfs file a minimal fake tree may lack: what the kernel shows. */
static const char *dbgfs_default(struct damon_ctx *d, const char *path)
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

	if (!def || damos_io_exists(io->below, path))
		return damos_io_read(io->below, path, out);
	*out = damos_path("%s%s", def, *def ? "\n" : "");
	return *out ? 0 : damos_err(-ENOMEM, "out of memory");
}

static int emul_write(struct damos_io *io, const char *path,
		      const char *content, unsigned int flags)
{
	int err = fake_pre_write(io, path);

	if (err)
		return damos_err(err, "cannot write %s: %s", path,
				 strerror(-err));
	return damos_io_model_write(io->d, io->below, path, content, flags);
}

/* A fake dbgfs declares the kernel it models in <dbgfs>/.max_action. */
static int max_action(struct damos_io *io)
{
	char *p = io->d->dbgfs ? damos_path("%s/.max_action", io->d->dbgfs) : NULL;
	char *text = NULL;
	uint64_t v = 7;
	int err = 0;

	if (p && damos_io_exists(io->below, p)) {
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
		return max_action(io);
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

static struct damos_io *emul(struct damon_ctx *d, struct damos_io *below)
{
	struct emul *e = calloc(1, sizeof(*e));

	if (!e)
		return damos_err_null(-ENOMEM, "out of memory");
	e->io.ops = &emul_ops;
	e->io.below = below;
	e->io.d = d;
	return &e->io;
}

static struct damos_io *push_fake(struct damon_ctx *d, struct damos_io *below,
				  long fs_magic)
{
	(void)fs_magic;
	return emul(d, below);
}

static bool on_fs(const char *path, long magic)
{
	struct statfs st;

	return !statfs(path, &st) && st.f_type == magic;
}

static struct damos_io *push_auto(struct damon_ctx *d, struct damos_io *below,
				  long fs_magic)
{
	if (!fs_magic || !d->top || on_fs(d->top, fs_magic))
		return below;
	return emul(d, below);
}

const struct damos_layer damos_test_layer_fake_kernel = {
	"fake kernel", push_fake,
};

const struct damos_layer damos_test_layer_fake_kernel_auto = {
	"fake kernel (auto)", push_auto,
};
