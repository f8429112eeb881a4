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

/* A path of the dry-run layer as the real one it stands for. */
static const char *real_path(const struct damos_ctx *d, const char *path,
			     char *buf, size_t sz)
{
	size_t n = strlen(d->root);

	if (!d->real_root || strncmp(path, d->root, n) || path[n] != '/')
		return path;
	snprintf(buf, sz, "%s%s", d->real_root, path + n);
	return buf;
}

/* The message for a failed open/read/write of @path, with what helps. */
static int io_err(const struct damos_ctx *d, int err, const char *verb,
		  const char *path)
{
	char real[4096];

	path = real_path(d, path, real, sizeof(real));
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

void damos_quote(struct damos_buf *b, const char *s)
{
	quote(b, s, strlen(s));
}

/*
 * One shell command that writes @content in one write() under every POSIX
 * shell: echo for one line; several lines through cat from a here-document
 * (bash's printf and echo write each line with its own write(), which
 * dbgfs takes as a whole new content each time; dash writes once).
 */
static void record(struct damos_ctx *d, const char *path, const char *content)
{
	struct damos_buf *b = &d->script;
	char real[4096], delim[32] = "EOF";
	size_t len = strlen(content);
	const char *nl = strchr(content, '\n');

	path = real_path(d, path, real, sizeof(real));
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
		quote(b, content, len - 1);
	} else if (nl && nl == content + len - 1) {
		damos_buf_printf(b, "printf '%%s\\n' ");
		quote(b, content, len - 1);
	} else if (nl && content[len - 1] == '\n') {
		damos_buf_printf(b, "cat > ");
		quote(b, path, strlen(path));
		damos_buf_printf(b, " <<'%s'\n%s%s\n", delim, content, delim);
		return;
	} else if (nl) {
		/* several lines, no newline at the end: dd copies one read */
		damos_buf_printf(b, "dd bs=%zu count=1 > ", len);
		quote(b, path, strlen(path));
		damos_buf_printf(b, " <<'%s'\n%s\n%s\n", delim, content, delim);
		return;
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

static int fake_populate(const struct damos_ctx *d, const char *dir,
			 const char *const *files)
{
	for (; *files; files++) {
		const char *eq = strchr(*files, '=');
		char *p = damos_path("%s/%.*s", dir, (int)(eq - *files), *files);
		int err = p ? mkdirs(d, p) : -ENOMEM, fd = -1;

		if (!err && !strcmp(strrchr(p, '/'), "/.dir")) {
			/* only the directory */
		} else if (!err) {
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
static char **template_of(struct damos_ctx *d, const char *dir0,
			  const char *const *files)
{
	struct damos_snap sn;
	char **t = NULL;
	size_t n = 0;

	if (damos_snap_read(d, dir0, &sn))
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
static int fake_nr_write(struct damos_ctx *d, const char *path,
			 const char *content)
{
	const char *const *files = NULL;
	char *parent;
	uint64_t nr;
	int err = 0;

	static const char *const just_dir[] = { ".dir=", NULL };

	for (size_t i = 0; i < ARRAY_SIZE(fake_dirs); i++)
		if (ends_with(path, fake_dirs[i].nr_file))
			files = fake_dirs[i].files;
	/*
	 * a later kernel's nr_* in a scheme: numbered dirs like their 0; but
	 * the weight nr_accesses_permil and the statistics are values
	 */
	if (!files && !strncmp(strrchr(path, '/') + 1, "nr_", 3) &&
	    strstr(path, "/schemes/") && !ends_with(path, "nr_accesses_permil") &&
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

	if (files == scheme_files)
		damos_features_probe(d);
	if (zero && damos_exists(zero))
		tmpl = template_of(d, zero, files);
	free(zero);
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

		err = p ? fake_populate(d, p, tmpl ? (const char *const *)tmpl :
					files) : -ENOMEM;
		for (size_t k = 0; !err && !tmpl && files == scheme_files &&
		     k < ARRAY_SIZE(scheme_files_new); k++) {
			const char *one[] = { scheme_files_new[k].file, NULL };

			if (d->feat & (1U << scheme_files_new[k].feature))
				err = fake_populate(d, p, one);
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
	/* dbgfs: the targets own their regions; new targets have none */
	if (in_dir(path, d->dbgfs) && !strcmp(base, "target_ids")) {
		int fd;

		p = damos_path("%.*s/init_regions", (int)(base - 1 - path), path);
		if (!p)
			return -ENOMEM;
		fd = damos_exists(p) ? open_file(d, p, O_WRONLY | O_TRUNC, 0) : -2;
		err = fd == -1 ? -errno : 0;
		if (fd >= 0)
			close(fd);
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
		      fake_populate(d, p, dbgfs_ctx_files);
	else
		err = damos_exists(p) ? rm_rf(d, p) : -ENOENT;
	free(p);
	return err;
}

#ifdef DAMOS_FAULT_INJECTION
int damos_fault_write(struct damos_ctx *d, const char *path)
{
	static unsigned long nr;
	const char *spec = getenv("DAMOS_FAULT"), *log = getenv("DAMOS_FAULT_LOG");
	unsigned long nth = 0;
	char *end = NULL;
	int e = EIO;

	if (!below_root(d, path))
		return 0;	/* never a real file's */
	nr++;
	if (log && *log) {
		FILE *f = fopen(log, "a");

		if (f) {
			fprintf(f, "%lu %s\n", nr, path);
			fclose(f);
		}
	}
	if (spec && *spec)
		nth = strtoul(spec, &end, 10);
	if (!nth)
		return 0;
	if (end && *end == '+')
		end++;
	else if (nr != nth)
		return 0;
	if (nr < nth)
		return 0;
	if (end && *end == ':')
		e = atoi(end + 1);
	return -(e > 0 ? e : EIO);
}
#endif

int damos_write(struct damos_ctx *d, const char *path, const char *content)
{
	size_t len = strlen(content);
	char *old = NULL;
	ssize_t n;
	int fd, err;

	if (d->dry_run) {
		record(d, path, content);
		if (d->script.err || !d->real_root)
			return d->script.err;
		/* the layer: the write lands on the copy, as on the kernel */
	}
	if (d->emulate) {
		err = fake_pre_write(d, path);
		if (err)
			return damos_err(err, "cannot write %s: %s", path,
					 strerror(-err));
		if (!strcmp(strrchr(path, '/'), "/state"))
			damos_read(d, path, &old);
	}
	damos_txn_before_write(d, path);
#ifdef DAMOS_FAULT_INJECTION
	err = damos_fault_write(d, path);
	if (err) {
		free(old);
		return io_err(d, err, "write", path);
	}
#endif
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
	damos_txn_note_write(d, path, content);
	return 0;
}

int damos_write_u64(struct damos_ctx *d, const char *path, uint64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%llu\n", (unsigned long long)v);
	return damos_write(d, path, buf);
}

/*
 * Snapshots of a scheme directory: every regular file below it, directories
 * in an order that lets a restore write each nr_* file before the numbered
 * directories it makes.  Statistics and tried regions are read for their
 * values but never written back; tried regions' own directories (one per
 * region, thousands on a big machine) are not read at all.
 */
/* @rel has the directory @comp as one of its components */
static bool has_dir(const char *rel, const char *comp)
{
	size_t n = strlen(comp);

	for (const char *c = rel; c; c = strchr(c, '/') ? strchr(c, '/') + 1 : NULL)
		if (!strncmp(c, comp, n) && c[n] == '/')
			return true;
	return false;
}

/* A snapshot may be of a scheme directory or of a whole interface's. */
static bool read_only_rel(const char *rel)
{
	return has_dir(rel, "stats") || has_dir(rel, "tried_regions") ||
	       ends_with(rel, "quotas/effective_bytes");
}

/* Files a snapshot leaves alone: dbgfs' write-only commands. */
static bool skipped_rel(const char *rel)
{
	const char *b = strrchr(rel, '/') ? strrchr(rel, '/') + 1 : rel;

	return !strcmp(b, "mk_contexts") || !strcmp(b, "rm_contexts");
}

static int name_cmp(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	bool nx = !strncmp(x, "nr_", 3), ny = !strncmp(y, "nr_", 3);
	char *ex, *ey;
	unsigned long ux = strtoul(x, &ex, 10), uy = strtoul(y, &ey, 10);

	if (nx != ny)
		return nx ? -1 : 1;
	if (!*ex && !*ey && ex != x && ey != y)
		return ux < uy ? -1 : ux > uy;
	return strcmp(x, y);
}

static int snap_add(struct damos_snap *sn, char *rel, char *content,
		    bool writable)
{
	struct damos_snap_file *f = realloc(sn->f, (sn->n + 1) * sizeof(*f));

	if (!f) {
		free(rel);
		free(content);
		return damos_err(-ENOMEM, "out of memory");
	}
	sn->f = f;
	f[sn->n].rel = rel;
	f[sn->n].content = content;
	f[sn->n].writable = writable;
	sn->n++;
	return 0;
}

static int snap_walk(struct damos_ctx *d, const char *top, const char *rel,
		     struct damos_snap *sn, int depth)
{
	char *dir = *rel ? damos_path("%s/%s", top, rel) : strdup(top);
	char **names = NULL;
	size_t nr = 0;
	struct dirent *e;
	DIR *dp = NULL;
	int fd, err = 0;

	if (!dir)
		return damos_err(-ENOMEM, "out of memory");
	if (depth > 16) {
		free(dir);
		return damos_err(-ELOOP, "%s: too deep", top);
	}
	fd = open_below(d, dir, O_RDONLY | O_DIRECTORY, 0);
	if (fd >= 0)
		dp = fdopendir(fd);
	if (!dp) {
		err = io_err(d, -errno, "list", dir);
		if (fd >= 0)
			close(fd);
		free(dir);
		return err;
	}
	while (!err && (e = readdir(dp))) {
		char **tmp;

		if (e->d_name[0] == '.')
			continue;
		tmp = realloc(names, (nr + 1) * sizeof(*names));
		if (tmp)
			names = tmp;
		if (!tmp || !(names[nr] = strdup(e->d_name)))
			err = damos_err(-ENOMEM, "out of memory");
		else
			nr++;
	}
	if (nr)
		qsort(names, nr, sizeof(*names), name_cmp);
	/* files first, then directories */
	for (int pass = 0; pass < 2 && !err; pass++) {
		for (size_t i = 0; i < nr && !err; i++) {
			struct stat st;
			char *r, *p, *content = NULL;
			bool ro;

			if (fstatat(dirfd(dp), names[i], &st, AT_SYMLINK_NOFOLLOW))
				continue;
			if (pass != S_ISDIR(st.st_mode) ||
			    (!S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode)))
				continue;
			r = *rel ? damos_path("%s/%s", rel, names[i]) :
				   strdup(names[i]);
			if (!r) {
				err = damos_err(-ENOMEM, "out of memory");
				break;
			}
			if (pass) {
				if (!has_dir(r, "tried_regions"))
					err = snap_walk(d, top, r, sn, depth + 1);
				free(r);
				continue;
			}
			if (skipped_rel(r)) {
				free(r);
				continue;
			}
			ro = read_only_rel(r) || !(st.st_mode & 0222);
			p = damos_path("%s/%s", top, r);
			err = p ? 0 : damos_err(-ENOMEM, "out of memory");
			/* memcg_path reads EBUSY while sysfs is locked */
			for (int t = 0; !err && t < 5; t++) {
				err = damos_read(d, p, &content);
				if (err != -EBUSY)
					break;
				usleep(20000);
			}
			/* a file root cannot read is no value of ours */
			if ((err == -EACCES || err == -EPERM) && ro)
				err = 0;
			/*
			 * dbgfs's init_regions reads EBUSY while monitoring
			 * is on, and takes no write then: a transaction reads
			 * it before it writes it (damos_txn_before_write())
			 */
			if (err == -EBUSY) {
				free(content);
				content = NULL;
				sn->nr_busy++;
				err = 0;
			}
			free(p);
			if (!err && content)
				err = snap_add(sn, r, content, !ro);
			else
				free(r);
		}
	}
	for (size_t i = 0; i < nr; i++)
		free(names[i]);
	free(names);
	closedir(dp);
	free(dir);
	return err;
}

int damos_snap_read(struct damos_ctx *d, const char *dir, struct damos_snap *sn)
{
	memset(sn, 0, sizeof(*sn));
	return snap_walk(d, dir, "", sn, 0);
}

int damos_snap_restore(struct damos_ctx *d, const char *dir,
		       const struct damos_snap *sn)
{
	int err = 0;

	for (size_t i = 0; i < sn->n && !err; i++) {
		const struct damos_snap_file *f = &sn->f[i];
		size_t len = strlen(f->content);
		char *p, *c;

		if (!f->writable)
			continue;
		while (len && f->content[len - 1] == '\n')
			len--;
		p = damos_path("%s/%s", dir, f->rel);
		/*
		 * The value as read, with one newline as echo writes it; but
		 * memcg_path keeps what it is given, newline included, and
		 * matches the cgroup with at most one (sysfs_streq()).
		 */
		c = damos_path("%.*s%s", (int)len, f->content,
			       ends_with(f->rel, "memcg_path") ? "" : "\n");
		err = p && c ? damos_write(d, p, c) : damos_err(-ENOMEM, "out of memory");
		free(p);
		free(c);
	}
	return err;
}

/* ------------------------------------------------------------------------
 * The dry-run layer (see internal.h).
 */
static char *layer_dir;		/* the copy's root */
static char *layer_of;		/* the root it copies */

static void layer_remove(void)
{
	int fd;

	if (!layer_dir)
		return;
	fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		rm_at(fd, layer_dir + 1);
		close(fd);
	}
}

/* Copy @rel of @from (a handle on the real root) into the layer. */
static int layer_copy(struct damos_ctx *from, const char *rel, int depth)
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
		char *p = damos_path("%s/x", dst);

		if (!t || !p)
			err = -ENOMEM;
		else if ((err = mkdirs(from, p)) == 0 &&
			 symlink(t, dst) && errno != EEXIST)
			err = -errno;
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

const char *damos_dry_layer(const char *root)
{
	static const char *const parts[] = {
		"sys/kernel/mm/damon", "sys/kernel/debug/damon",
		"sys/module/damon_lru_sort", "sys/module/damon_reclaim",
		"proc/sys/kernel/osrelease",
	};
	struct damos_ctx from = { .root = (char *)root };
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
		char *p = damos_path("%s/%s/x", layer_dir, parts[i]);
		struct damos_ctx to = { .root = layer_dir };

		/* the parents of each part */
		err = p ? mkdirs(&to, p) : -ENOMEM;
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
