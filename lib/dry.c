// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * The dry run: a layer that records every write as a line of a shell
 * script and makes it on a private copy of the DAMON files, with what the
 * kernel would make there (the backend's model_write), so that a later
 * read sees it as the kernel would show it, and the real files are never
 * written.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

struct dry {
	struct damos_io io;
	struct damos_buf script;
	char *real_root;	/* the root the script writes below */
	char *copy;		/* the copy's root (the handle's root now) */
	bool model;		/* no layer below models the kernel */
};

/* A path of the copy as the real one it stands for. */
static const char *real_path(const struct dry *y, const char *path,
			     char *buf, size_t sz)
{
	size_t n = strlen(y->copy);

	if (strncmp(path, y->copy, n) || path[n] != '/')
		return path;
	snprintf(buf, sz, "%s%s", y->real_root, path + n);
	return buf;
}

/*
 * One shell command that writes @content in one write() under every POSIX
 * shell: echo for one line; several lines through cat from a here-document
 * (bash's printf and echo write each line with its own write(), which
 * dbgfs takes as a whole new content each time; dash writes once).
 */
static void record(struct dry *y, const char *path, const char *content)
{
	struct damos_buf *b = &y->script;
	char real[4096], delim[32] = "EOF";
	size_t len = strlen(content);
	const char *nl = strchr(content, '\n');

	path = real_path(y, path, real, sizeof(real));
	/* a here-document ends at a line that is its delimiter alone */
	for (unsigned int i = 1; nl; i++) {
		size_t n = strlen(delim);
		const char *l = content;

		for (; l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
			if (!strncmp(l, delim, n) && (l[n] == '\n' || !l[n]))
				break;
		if (!l)
			break;
		snprintf(delim, sizeof(delim), "EOF%u", i);
	}
	if (!strcmp(content, "\n")) {
		damos_buf_printf(b, "echo ''");
	} else if (nl && nl == content + len - 1 && !strchr(content, '\\') &&
		   content[0] != '-') {
		damos_buf_printf(b, "echo ");
		damos_quote_n(b, content, len - 1);
	} else if (nl && nl == content + len - 1) {
		damos_buf_printf(b, "printf '%%s\\n' ");
		damos_quote_n(b, content, len - 1);
	} else if (nl && content[len - 1] == '\n') {
		damos_buf_printf(b, "cat > ");
		damos_quote_n(b, path, strlen(path));
		damos_buf_printf(b, " <<'%s'\n%s%s\n", delim, content, delim);
		return;
	} else if (nl) {
		/* several lines, no newline at the end: dd copies one read */
		damos_buf_printf(b, "dd bs=%zu count=1 > ", len);
		damos_quote_n(b, path, strlen(path));
		damos_buf_printf(b, " <<'%s'\n%s\n%s\n", delim, content, delim);
		return;
	} else {
		damos_buf_printf(b, "printf '%%s' ");
		damos_quote_n(b, content, len);
	}
	damos_buf_printf(b, " > ");
	damos_quote_n(b, path, strlen(path));
	damos_buf_printf(b, "\n");
}

/* ------------------------------------------------------------------------
 * The dry-run layer (see internal.h).
 */
static char *layer_dir;		/* the copy's root */
static char *layer_of;		/* the root it copies */

/* a handle on the files below @root, without layers */
static struct damos_io *bare(struct damon_ctx *d, const char *root)
{
	memset(d, 0, sizeof(*d));
	d->root = (char *)root;
	return damos_io_real(d);
}

static void layer_remove(void)
{
	struct damon_ctx d;
	struct damos_io *io;

	if (!layer_dir)
		return;
	io = bare(&d, "");
	if (io) {
		damos_io_remove(io, layer_dir);
		io->ops->free(io);
	}
}

/* Copy @rel of @from (a handle on the real root) into the layer. */
static int layer_copy(struct damon_ctx *from, const char *rel, int depth)
{
	char *src = damos_path("%s/%s", from->root, rel);
	char *dst = damos_path("%s/%s", layer_dir, rel);
	struct stat st;
	int err = 0;

	if (!src || !dst || depth > 12) {
		err = src && dst ? 0 : -ENOMEM;
		goto out;
	}
	if (lstat(src, &st))
		goto out;		/* absent: nothing to copy */
	if (S_ISLNK(st.st_mode)) {
		char target[4096];
		ssize_t n = readlink(src, target, sizeof(target) - 1);
		char *t;

		if (n < 0)
			goto out;
		target[n] = '\0';
		/* an absolute link into the root points into the copy */
		if (target[0] == '/' && from->root[0] &&
		    !strncmp(target, from->root, strlen(from->root)) &&
		    target[strlen(from->root)] == '/')
			t = damos_path("%s%s", layer_dir, target + strlen(from->root));
		else
			t = strdup(target);
		char *p = strdup(dst);	/* as a directory, as it always was */
		struct damon_ctx c;
		struct damos_io *io = bare(&c, from->root);

		if (!t || !p || !io)
			err = -ENOMEM;
		else if ((err = damos_io_mkdir(io, p)) == 0 &&
			 symlink(t, dst) && errno != EEXIST)
			err = -errno;
		if (io)
			io->ops->free(io);
		free(p);
		free(t);
	} else if (S_ISDIR(st.st_mode)) {
		DIR *dir = opendir(src);
		struct dirent *e;

		if (mkdir(dst, 0755) && errno != EEXIST)
			err = -errno;
		while (!err && dir && (e = readdir(dir))) {
			char *sub;

			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			sub = damos_path("%s/%s", rel, e->d_name);
			err = sub ? layer_copy(from, sub, depth + 1) : -ENOMEM;
			free(sub);
		}
		if (dir)
			closedir(dir);
	} else if (S_ISREG(st.st_mode)) {
		char *content = NULL;
		int fd;

		/* unreadable (write-only files, EBUSY): an empty file */
		if (damos_read(from, src, &content))
			content = NULL;
		fd = open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
			  (st.st_mode & 0777) | 0600);
		if (fd < 0)
			err = -errno;
		else if (content && write(fd, content, strlen(content)) < 0)
			err = -errno;
		if (fd >= 0)
			close(fd);
		free(content);
	}
out:
	free(src);
	free(dst);
	return err;
}

static const char *dry_layer(const char *root)
{
	static const char *const parts[] = {
		"sys/kernel/mm/damon", "sys/kernel/debug/damon",
		"sys/module/damon_lru_sort", "sys/module/damon_reclaim",
		"proc/sys/kernel/osrelease",
	};
	struct damon_ctx from = { .root = (char *)root };
	const char *tmp = getenv("TMPDIR");
	int err = 0;

	if (layer_dir && !strcmp(layer_of, root))
		return layer_dir;
	if (layer_dir) {
		layer_remove();
		free(layer_dir);
		free(layer_of);
	} else {
		atexit(layer_remove);
	}
	layer_of = strdup(root);
	layer_dir = damos_path("%s/damos-dry-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!layer_of || !layer_dir || !mkdtemp(layer_dir)) {
		free(layer_dir);
		layer_dir = NULL;
		return damos_err_null(-ENOMEM, "dry run: cannot make a private copy of the DAMON files");
	}
	for (size_t i = 0; !err && i < ARRAY_SIZE(parts); i++) {
		char *p = damos_path("%s/%s", layer_dir, parts[i]);
		char *parent = p ? strndup(p, strrchr(p, '/') - p) : NULL;
		struct damon_ctx to;
		struct damos_io *io = bare(&to, layer_dir);

		/* the parents of each part */
		err = parent && io ? damos_io_mkdir(io, parent) : -ENOMEM;
		if (io)
			io->ops->free(io);
		free(parent);
		free(p);
		p = damos_path("%s/%s", layer_dir, parts[i]);
		if (p)
			rmdir(p);
		free(p);
		if (!err)
			err = layer_copy(&from, parts[i], 0);
	}
	if (err)
		return damos_err_null(err, "dry run: cannot copy the DAMON files: %s",
				      strerror(-err));
	return layer_dir;
}

/* @p (below @from) as the same path below @to; -ENOMEM */
static int rebase(const char *from, const char *to, char **p)
{
	char *q;

	if (!*p)
		return 0;
	q = damos_path("%s%s", to, *p + strlen(from));
	free(*p);
	*p = q;
	return q ? 0 : -ENOMEM;
}

/* The message of a failure below, with the real paths in it. */
static int real_msg(struct dry *y, int err)
{
	const char *m = damos_errmsg(), *c;
	struct damos_buf b = { 0 };
	size_t n = strlen(y->copy);

	if (!strstr(m, y->copy))
		return err;
	for (; (c = strstr(m, y->copy)); m = c + n)
		damos_buf_printf(&b, "%.*s%s", (int)(c - m), m, y->real_root);
	damos_buf_printf(&b, "%s", m);
	if (!b.err)
		damos_err(err, "%s", b.s);
	damos_buf_free(&b);
	return err;
}

static int dry_read(struct damos_io *io, const char *path, char **out)
{
	int err = damos_io_read(io->below, path, out);

	return err ? real_msg(container_of(io, struct dry, io), err) : 0;
}

static int dry_write(struct damos_io *io, const char *path,
		     const char *content, unsigned int flags)
{
	struct dry *y = container_of(io, struct dry, io);
	int err;

	/* no kernel to ask: what it shows is as the writes left it */
	if (flags & DAMOS_IO_UPDATE)
		return 0;
	record(y, path, content);
	if (y->script.err)
		return damos_err(y->script.err, "out of memory");
	err = y->model ? damos_io_model_write(io->d, io->below, path, content,
					      flags) :
			 damos_io_write(io->below, path, content, flags);
	return err ? real_msg(y, err) : 0;
}

/* The copy is plain files: they change only when written, as written. */
static int dry_query(struct damos_io *io, enum damos_io_q q)
{
	(void)io;
	return q == DAMOS_IO_Q_RECORDED || q == DAMOS_IO_Q_STATIC ||
	       q == DAMOS_IO_Q_EXACT ? 1 : -ENOTTY;
}

static const char *dry_script(struct damos_io *io)
{
	return container_of(io, struct dry, io)->script.s;
}

static void dry_free(struct damos_io *io)
{
	struct dry *y = container_of(io, struct dry, io);

	damos_buf_free(&y->script);
	free(y->real_root);
	free(y->copy);
	free(y);
}

static const struct damos_io_ops dry_ops = {
	.name = "dry run",
	.read = dry_read,
	.write = dry_write,
	.query = dry_query,
	.script = dry_script,
	.free = dry_free,
};

/*
 * The handle's paths move to the copy (made at the first dry run of the
 * process, kept for its later ones, removed at exit): a batch of dry-run
 * commands sees the writes of those before it as the kernel would show them.
 */
struct damos_io *damos_io_dry(struct damon_ctx *d, struct damos_io *below)
{
	const char *copy = dry_layer(d->root);
	struct dry *y;
	int err;

	if (!copy)
		return NULL;
	y = calloc(1, sizeof(*y));
	if (!y)
		return damos_err_null(-ENOMEM, "out of memory");
	/* a fake tree's fake kernel (test builds) models it already */
	y->model = damos_io_ask(below, DAMOS_IO_Q_STATIC) != 1;
	y->io.ops = &dry_ops;
	y->io.below = below;
	y->io.d = d;
	y->real_root = strdup(d->root);
	y->copy = strdup(copy);
	err = !y->real_root || !y->copy ? -ENOMEM : 0;
	if (!err)
		err = rebase(d->root, copy, &d->dbgfs) |
		      rebase(d->root, copy, &d->admin) |
		      rebase(d->root, copy, &d->kdamond) |
		      rebase(d->root, copy, &d->dir) |
		      rebase(d->root, copy, &d->top);
	if (!err) {
		free(d->root);
		d->root = strdup(copy);
		err = d->root ? 0 : -ENOMEM;
	}
	if (err) {
		dry_free(&y->io);
		return damos_err_null(-ENOMEM, "out of memory");
	}
	return &y->io;
}

static struct damos_io *push_dry(struct damon_ctx *d, struct damos_io *below,
				 long fs_magic)
{
	(void)fs_magic;
	return damos_io_dry(d, below);
}

const struct damos_layer *damos_layer_dry_run(void)
{
	static const struct damos_layer l = { "dry run", push_dry };

	return &l;
}
