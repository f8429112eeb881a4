// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#include <dirent.h>
#include <errno.h>
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

bool damos_exists(const char *path)
{
	return path && access(path, F_OK) == 0;
}

/* The part of @path below a --root other than "/", or NULL. */
static const char *below_root(const struct damos_ctx *d, const char *path)
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
static int open_below(const struct damos_ctx *d, const char *path, int flags,
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
static int open_file(const struct damos_ctx *d, const char *path, int flags,
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
static int io_err(const struct damos_ctx *d, int err, const char *verb,
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
int damos_read(struct damos_ctx *d, const char *path, char **out)
{
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

int damos_read_word(struct damos_ctx *d, const char *path, char *buf, size_t sz)
{
	char *s;
	int err = damos_read(d, path, &s);

	if (err)
		return err;
	s[strcspn(s, "\n")] = '\0';
	snprintf(buf, sz, "%s", s);
	free(s);
	return 0;
}

int damos_read_u64(struct damos_ctx *d, const char *path, uint64_t *v)
{
	char buf[64];
	int err = damos_read_word(d, path, buf, sizeof(buf));

	if (err)
		return err;
	if (damos_parse_u64(buf, v))
		return damos_err(-EINVAL, "%s: '%s' is not a number", path,
				 buf);
	return 0;
}

static bool plain_word(const char *s, size_t len)
{
	if (!len || s[0] == '-')
		return false;
	for (size_t i = 0; i < len; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789_./:=+,%@-", s[i]))
			return false;
	return true;
}

static void quote(struct damos_buf *b, const char *s, size_t len)
{
	if (plain_word(s, len)) {
		damos_buf_printf(b, "%.*s", (int)len, s);
		return;
	}
	damos_buf_printf(b, "'");
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '\'')
			damos_buf_printf(b, "'\\''");
		else
			damos_buf_printf(b, "%c", s[i]);
	}
	damos_buf_printf(b, "'");
}

/*
 * One shell command that writes @content in one write() (see the header on
 * shells): echo for one line, printf for several or for unusual content.
 */
static void record(struct damos_ctx *d, const char *path, const char *content)
{
	struct damos_buf *b = &d->script;
	size_t len = strlen(content);
	const char *nl = strchr(content, '\n');

	if (!strcmp(content, "\n")) {
		damos_buf_printf(b, "echo ''");
	} else if (nl && nl == content + len - 1 && !strchr(content, '\\') &&
		   content[0] != '-') {
		damos_buf_printf(b, "echo ");
		quote(b, content, len - 1);
	} else if (len && content[len - 1] == '\n') {
		damos_buf_printf(b, "printf '%%s\\n'");
		for (const char *l = content; *l; l = nl + 1) {
			nl = strchr(l, '\n');
			damos_buf_printf(b, " ");
			quote(b, l, nl - l);
		}
	} else {
		damos_buf_printf(b, "printf '%%s' ");
		quote(b, content, len);
	}
	damos_buf_printf(b, " > ");
	quote(b, path, strlen(path));
	damos_buf_printf(b, "\n");
}

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
};

/* mkdir -p of @path's parent, beneath the root as open_below() is. */
static int mkdirs(const struct damos_ctx *d, char *path)
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

static int fake_populate(const struct damos_ctx *d, const char *dir,
			 const char *const *files)
{
	for (; *files; files++) {
		const char *eq = strchr(*files, '=');
		char *p = damos_path("%s/%.*s", dir, (int)(eq - *files), *files);
		int err = p ? mkdirs(d, p) : -ENOMEM, fd = -1;

		if (!err) {
			char *text = damos_path("%s%s", eq + 1, eq[1] ? "\n" : "");
			size_t len = text ? strlen(text) : 0;

			fd = open_file(d, p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
			if (!text)
				err = -ENOMEM;
			else if (fd < 0 || write(fd, text, len) != (ssize_t)len)
				err = -errno ?: -EIO;
			if (fd >= 0 && close(fd) && !err)
				err = -errno;
			free(text);
		}
		free(p);
		if (err)
			return err;
	}
	return 0;
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

static int rm_rf(const struct damos_ctx *d, const char *path)
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

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix) &&
	       (n == m || s[n - m - 1] == '/');
}

/* The sysfs kernel recreates every numbered directory on a nr_* write. */
static int fake_nr_write(const struct damos_ctx *d, const char *path,
			 const char *content)
{
	const char *const *files = NULL;
	char *parent;
	uint64_t nr;
	int err = 0;

	for (size_t i = 0; i < ARRAY_SIZE(fake_dirs); i++)
		if (ends_with(path, fake_dirs[i].nr_file))
			files = fake_dirs[i].files;
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
	for (uint64_t i = 0; !err; i++) {
		char *p = damos_path("%s/%llu", parent, (unsigned long long)i);

		if (!p) {
			err = -ENOMEM;
		} else if (!damos_exists(p)) {
			free(p);
			break;
		} else {
			err = rm_rf(d, p);
		}
		free(p);
	}
	for (uint64_t i = 0; !err && i < nr; i++) {
		char *p = damos_path("%s/%llu", parent, (unsigned long long)i);

		err = p ? fake_populate(d, p, files) : -ENOMEM;
		free(p);
	}
	free(parent);
	return err;
}

static bool in_dir(const char *path, const char *dir)
{
	size_t n = dir ? strlen(dir) : 0;

	return n && !strncmp(path, dir, n) && path[n] == '/';
}

static int fake_monitor_on(struct damos_ctx *d)
{
	char word[16] = "";
	char *p = damos_path("%s/monitor_on", d->dbgfs);

	if (p && !damos_exists(p)) {
		free(p);
		p = damos_path("%s/monitor_on_DEPRECATED", d->dbgfs);
	}
	if (p && damos_exists(p))
		damos_read_word(d, p, word, sizeof(word));
	free(p);
	return !strcmp(word, "on");
}

/* Before a write to a fake tree: the refusals of the kernel. */
static int fake_pre_write(struct damos_ctx *d, const char *path)
{
	const char *base = strrchr(path, '/') + 1;

	if (in_dir(path, d->dbgfs) && strncmp(base, "monitor_on", 10) &&
	    fake_monitor_on(d))
		return -EBUSY;
	return 0;
}

/* After a write to a fake tree: the side effects of the kernel. */
static int fake_post_write(struct damos_ctx *d, const char *path,
			   const char *content, const char *old)
{
	const char *base = strrchr(path, '/') + 1;
	char name[256];
	char *p;
	int err = 0;

	if (in_dir(path, d->admin)) {
		if (!strcmp(base, "state") && strcmp(content, "on\n") &&
		    strcmp(content, "off\n") && old) {
			int fd = open_file(d, path, O_WRONLY | O_TRUNC, 0);

			if (fd < 0 || write(fd, old, strlen(old)) < 0)
				err = -errno;
			if (fd >= 0)
				close(fd);
			return err;
		}
		return fake_nr_write(d, path, content);
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
		      fake_populate(d, p, dbgfs_ctx_files);
	else
		err = damos_exists(p) ? rm_rf(d, p) : -ENOENT;
	free(p);
	return err;
}

int damos_write(struct damos_ctx *d, const char *path, const char *content)
{
	size_t len = strlen(content);
	char *old = NULL;
	ssize_t n;
	int fd, err;

	if (d->dry_run) {
		record(d, path, content);
		return d->script.err;
	}
	if (d->emulate) {
		err = fake_pre_write(d, path);
		if (err)
			return damos_err(err, "cannot write %s: %s", path,
					 strerror(-err));
		if (!strcmp(strrchr(path, '/'), "/state"))
			damos_read(d, path, &old);
	}
	/* O_TRUNC: a no-op on kernel files, needed for plain fake files */
	fd = open_file(d, path, O_WRONLY | O_TRUNC, 0);
	if (fd < 0) {
		free(old);
		return io_err(d, -errno, "write", path);
	}
	n = write(fd, content, len);
	err = n < 0 ? -errno : (size_t)n != len ? -EIO : 0;
	if (close(fd) && !err)
		err = -errno;
	if (!err && d->emulate)
		err = fake_post_write(d, path, content, old);
	free(old);
	if (err)
		return io_err(d, err, "write", path);
	return 0;
}

int damos_write_u64(struct damos_ctx *d, const char *path, uint64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%llu\n", (unsigned long long)v);
	return damos_write(d, path, buf);
}
