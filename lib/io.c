// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <time.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "internal.h"

char *damos_path(const char *fmt, ...)
{
	va_list ap;
	char *p;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&p, fmt, ap);
	va_end(ap);
	return n < 0 ? NULL : p;
}

/* The part of @path below a --root other than "/", or NULL. */
static const char *below_root(const struct damon_ctx *d, const char *path)
{
	size_t n = strlen(d->root);

	if (!n || strncmp(path, d->root, n) || path[n] != '/')
		return NULL;
	return path + n + 1;
}

/* Without openat2 (Linux < 5.6): no symlink at all below the root. */
static int open_walk(int rootfd, const char *rel, int flags, mode_t mode)
{
	char *copy = strdup(rel), *comp, *next;
	int fd = dup(rootfd), nfd, e;

	if (!copy || fd < 0) {
		free(copy);
		if (fd >= 0)
			close(fd);
		errno = ENOMEM;
		return -1;
	}
	for (comp = copy; (next = strchr(comp, '/')); comp = next) {
		*next++ = '\0';
		if (!strcmp(comp, "..")) {
			errno = EXDEV;
			nfd = -1;
		} else {
			nfd = openat(fd, comp, O_PATH | O_DIRECTORY | O_NOFOLLOW |
				     O_CLOEXEC);
		}
		e = errno;
		close(fd);
		if (nfd < 0) {
			free(copy);
			errno = e == ENOTDIR ? ELOOP : e;
			return -1;
		}
		fd = nfd;
	}
	nfd = strcmp(comp, "..") ? openat(fd, comp, flags | O_NOFOLLOW, mode) : -1;
	e = strcmp(comp, "..") ? errno : EXDEV;
	close(fd);
	free(copy);
	errno = e;
	return nfd;
}

/*
 * open() for the handle's files.  Below a --root other than "/" the path is
 * resolved beneath the root, so that no symlink in a fake tree leads a read,
 * a write, a mkdir or a removal out of it (EXDEV; ELOOP without openat2).
 */
static int open_below(const struct damon_ctx *d, const char *path, int flags,
		      mode_t mode)
{
	const char *rel = below_root(d, path);
	struct open_how how = {
		.flags = (uint64_t)(flags | O_CLOEXEC),
		.mode = mode,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS,
	};
	int rootfd, fd, e;

	if (!rel)
		return open(path, flags | O_CLOEXEC, mode);
	rootfd = open(d->root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0)
		return -1;
	fd = (int)syscall(SYS_openat2, rootfd, rel, &how, sizeof(how));
	if (fd < 0 && errno == ENOSYS)
		fd = open_walk(rootfd, rel, flags | O_CLOEXEC, mode);
	e = errno;
	close(rootfd);
	errno = e;
	return fd;
}

/*
 * A file to read or write: below a --root it must be a regular file, as
 * every DAMON file is; a FIFO or a device in a fake tree would block or
 * never end.  -1 with errno set on failure (EINVAL: not a regular file).
 */
static int open_file(const struct damon_ctx *d, const char *path, int flags,
		     mode_t mode)
{
	bool below = below_root(d, path);
	struct stat st;
	int fd = open_below(d, path, flags | (below ? O_NONBLOCK : 0), mode);

	if (fd >= 0 && below && (fstat(fd, &st) || !S_ISREG(st.st_mode))) {
		close(fd);
		errno = EINVAL;
		return -1;
	}
	return fd;
}

/* The message for a failed open/read/write of @path, with what helps. */
static int io_err(const struct damon_ctx *d, int err, const char *verb,
		  const char *path)
{
	if ((err == -EXDEV || err == -ELOOP) && below_root(d, path))
		return damos_err(-EXDEV,
				 "cannot %s %s: it leads out of %s through a symlink (refused)",
				 verb, path, d->root);
	/* ENXIO: a FIFO or socket opened O_NONBLOCK for writing */
	if ((err == -EINVAL || err == -ENXIO) && below_root(d, path))
		return damos_err(-EINVAL, "cannot %s %s: not a regular file",
				 verb, path);
	if ((err == -EACCES || err == -EPERM) && geteuid())
		return damos_err(err, "cannot %s %s: %s (DAMON's files need root)",
				 verb, path, strerror(-err));
	return damos_err(err, "cannot %s %s: %s", verb, path, strerror(-err));
}

/*
 * dbgfs formats a file into a buffer of the read() count and fails with
 * ENOMEM when it does not fit, so read in large chunks, and a larger one
 * when the first read fails so (256 schemes of wide numbers take 125 KiB).
 */
/*
 * DAMON's sysfs files take damon_sysfs_lock with mutex_trylock() and answer
 * EBUSY while it is held, and a running kdamond holds it in its callbacks
 * at every sampling interval: a state read or an "off" can meet it on a
 * busy machine.  There, EBUSY is tried again for up to a second.  (dbgfs's
 * EBUSY means "monitoring is on" and is final.)
 */
static int read_once(struct damos_io *io, const char *path, char **out);

static bool busy_again(const char *path, int err, int *tries)
{
	const struct timespec pause = { 0, 10 * 1000 * 1000 };

	if (err != -EBUSY || !strstr(path, "/kdamonds/") || ++*tries > 100)
		return false;
	nanosleep(&pause, NULL);
	return true;
}

static int real_read(struct damos_io *io, const char *path, char **out)
{
	int err, tries = 0;

	while ((err = read_once(io, path, out)) && busy_again(path, err, &tries))
		;
	return err;
}

static int read_once(struct damos_io *io, const char *path, char **out)
{
	struct damon_ctx *d = io->d;
	size_t chunk = 1 << 16;
	struct damos_buf b = { 0 };
	char *buf = malloc(chunk);
	ssize_t n = 0;
	int fd, err = 0;

	if (!buf)
		return damos_err(-ENOMEM, "out of memory");
	fd = open_file(d, path, O_RDONLY, 0);
	if (fd < 0) {
		free(buf);
		return io_err(d, -errno, "read", path);
	}
	while ((n = read(fd, buf, chunk)) > 0 ||
	       (n < 0 && errno == ENOMEM && !b.len && chunk < (4 << 20))) {
		if (n > 0) {
			damos_buf_printf(&b, "%.*s", (int)n, buf);
			continue;
		}
		char *big = realloc(buf, chunk * 4);

		if (!big)
			break;
		buf = big;
		chunk *= 4;
	}
	if (n < 0)
		err = io_err(d, -errno, "read", path);
	close(fd);
	free(buf);
	if (!err && b.err)
		err = damos_err(b.err, "out of memory");
	if (!err && !b.s) {
		b.s = strdup("");
		if (!b.s)
			err = damos_err(-ENOMEM, "out of memory");
	}
	if (err) {
		damos_buf_free(&b);
		return err;
	}
	*out = b.s;
	return 0;
}

/* mkdir -p of @path's parent, beneath the root as open_below() is. */
static int mkdirs(const struct damon_ctx *d, char *path)
{
	const char *rel = below_root(d, path);
	char *copy, *comp, *next;
	int fd, nfd, err = 0;

	if (!rel) {
		for (char *p = strchr(path + 1, '/'); p; p = strchr(p + 1, '/')) {
			*p = '\0';
			if (mkdir(path, 0755) && errno != EEXIST) {
				*p = '/';
				return -errno;
			}
			*p = '/';
		}
		return 0;
	}
	/* mostly the parent is there: one resolution beneath the root */
	char *slash = strrchr(path, '/');

	if (slash && slash > path) {
		*slash = '\0';
		fd = open_below(d, path, O_PATH | O_DIRECTORY, 0);
		*slash = '/';
		if (fd >= 0) {
			close(fd);
			return 0;
		}
	}
	copy = strdup(rel);
	fd = open(d->root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (!copy || fd < 0) {
		free(copy);
		if (fd >= 0)
			close(fd);
		return copy ? -errno : -ENOMEM;
	}
	for (comp = copy; !err && (next = strchr(comp, '/')); comp = next) {
		*next++ = '\0';
		if (!strcmp(comp, ".."))
			err = -EXDEV;
		else if (mkdirat(fd, comp, 0755) && errno != EEXIST)
			err = -errno;
		nfd = err ? -1 : openat(fd, comp, O_PATH | O_DIRECTORY |
					O_NOFOLLOW | O_CLOEXEC);
		if (!err && nfd < 0)
			err = errno == ENOTDIR ? -ELOOP : -errno;
		close(fd);
		fd = nfd;
	}
	if (fd >= 0)
		close(fd);
	free(copy);
	return err;
}

int damos_dir_below(const struct damon_ctx *d, const char *path, bool make)
{
	char *copy = strdup(path), *slash = copy ? strrchr(copy, '/') : NULL;
	int fd, err = 0;

	if (!slash || slash == copy) {
		free(copy);
		return copy ? -EINVAL : -ENOMEM;
	}
	*slash = '\0';
	fd = open_below(d, copy, O_PATH | O_DIRECTORY, 0);
	if (fd < 0)
		err = -errno;
	else if (make ? mkdirat(fd, slash + 1, 0700) :
		 unlinkat(fd, slash + 1, AT_REMOVEDIR))
		err = -errno;
	if (fd >= 0)
		close(fd);
	free(copy);
	return err;
}

/* rm -r of @name in @dirfd: never follows a symlink, removes the link. */
static int rm_at(int parent, const char *name)
{
	struct dirent *e;
	struct stat st;
	DIR *dir;
	int fd, err = 0;

	if (fstatat(parent, name, &st, AT_SYMLINK_NOFOLLOW))
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return unlinkat(parent, name, 0) ? -errno : 0;
	fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	dir = fd >= 0 ? fdopendir(fd) : NULL;
	if (!dir) {
		err = -errno;
		if (fd >= 0)
			close(fd);
		return err;
	}
	while (!err && (e = readdir(dir))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		err = rm_at(dirfd(dir), e->d_name);
	}
	closedir(dir);
	if (!err && unlinkat(parent, name, AT_REMOVEDIR))
		err = -errno;
	return err;
}

static int rm_rf(const struct damon_ctx *d, const char *path)
{
	char *parent = strndup(path, strrchr(path, '/') - path);
	int fd = parent ? open_below(d, parent, O_PATH | O_DIRECTORY, 0) : -1;
	int err = fd < 0 ? (parent ? -errno : -ENOMEM) :
			   rm_at(fd, strrchr(path, '/') + 1);

	if (fd >= 0)
		close(fd);
	free(parent);
	return err;
}

/*
 * O_TRUNC: a no-op on kernel files, needed for plain files; with
 * DAMOS_IO_CREATE the file is made if missing (a fake kernel's files).
 */
static int write_once(struct damos_io *io, const char *path,
		      const char *content, unsigned int flags)
{
	struct damon_ctx *d = io->d;
	size_t len = strlen(content);
	ssize_t n;
	int fd, err;

	/* openat2() takes a mode with O_CREAT only */
	fd = flags & DAMOS_IO_CREATE ?
	     open_file(d, path, O_WRONLY | O_TRUNC | O_CREAT, 0644) :
	     open_file(d, path, O_WRONLY | O_TRUNC, 0);
	if (fd < 0)
		return io_err(d, -errno, "write", path);
	n = write(fd, content, len);
	err = n < 0 ? -errno : (size_t)n != len ? -EIO : 0;
	if (close(fd) && !err)
		err = -errno;
	return err ? io_err(d, err, "write", path) : 0;
}

static int real_write(struct damos_io *io, const char *path,
		      const char *content, unsigned int flags)
{
	int err, tries = 0;

	while ((err = write_once(io, path, content, flags)) &&
	       busy_again(path, err, &tries))
		;
	return err;
}

static int real_list(struct damos_io *io, const char *dir,
		     struct damos_io_ent **out, size_t *nr)
{
	struct damon_ctx *d = io->d;
	struct damos_io_ent *ents = NULL, *tmp;
	struct dirent *e;
	struct stat st;
	size_t n = 0;
	DIR *dp = NULL;
	int fd, err = 0;

	fd = open_below(d, dir, O_RDONLY | O_DIRECTORY, 0);
	if (fd >= 0)
		dp = fdopendir(fd);
	if (!dp) {
		err = io_err(d, -errno, "list", dir);
		if (fd >= 0)
			close(fd);
		return err;
	}
	while (!err && (e = readdir(dp))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		tmp = realloc(ents, (n + 1) * sizeof(*ents));
		if (tmp)
			ents = tmp;
		if (!tmp || !(ents[n].name = strdup(e->d_name))) {
			err = damos_err(-ENOMEM, "out of memory");
			break;
		}
		memset(&st, 0, sizeof(st));
		fstatat(dirfd(dp), e->d_name, &st, AT_SYMLINK_NOFOLLOW);
		ents[n].dir = S_ISDIR(st.st_mode);
		ents[n].reg = S_ISREG(st.st_mode);
		ents[n].writable = st.st_mode & 0222;
		n++;
	}
	closedir(dp);
	if (err) {
		damos_io_ents_free(ents, n);
		return err;
	}
	*out = ents;
	*nr = n;
	return 0;
}

void damos_io_ents_free(struct damos_io_ent *ents, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(ents[i].name);
	free(ents);
}

static int real_mkdir(struct damos_io *io, const char *path)
{
	char *p = damos_path("%s/x", path);
	int err = p ? mkdirs(io->d, p) : -ENOMEM;

	free(p);
	return err;
}

static int real_remove(struct damos_io *io, const char *path)
{
	return rm_rf(io->d, path);
}

static int real_query(struct damos_io *io, enum damos_io_q q)
{
	(void)io;
	return q == DAMOS_IO_Q_MAX_ACTION ? -EAGAIN : 0;
}

static void real_free(struct damos_io *io)
{
	free(io);
}

static const struct damos_io_ops real_ops = {
	.name = "files",
	.read = real_read,
	.write = real_write,
	.list = real_list,
	.mkdir = real_mkdir,
	.remove = real_remove,
	.query = real_query,
	.free = real_free,
};

struct damos_io *damos_io_real(struct damon_ctx *d)
{
	struct damos_io *io = calloc(1, sizeof(*io));

	if (!io)
		return damos_err_null(-ENOMEM, "out of memory");
	io->ops = &real_ops;
	io->d = d;
	return io;
}
