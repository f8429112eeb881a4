// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

/*
 * dbgfs formats a file into a buffer of the read() count and fails when it
 * does not fit, so read in large chunks.
 */
int damos_read(struct damos *d, const char *path, char **out)
{
	const size_t chunk = 1 << 16;
	struct damos_buf b = { 0 };
	char *buf = malloc(chunk);
	ssize_t n = 0;
	int fd, err = 0;

	(void)d;
	if (!buf)
		return damos_err(-ENOMEM, "out of memory");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		free(buf);
		return damos_err(-errno, "cannot read %s: %s", path,
				 strerror(errno));
	}
	while ((n = read(fd, buf, chunk)) > 0)
		damos_buf_printf(&b, "%.*s", (int)n, buf);
	if (n < 0)
		err = damos_err(-errno, "cannot read %s: %s", path,
				strerror(errno));
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

int damos_read_word(struct damos *d, const char *path, char *buf, size_t sz)
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

int damos_read_u64(struct damos *d, const char *path, uint64_t *v)
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
static void record(struct damos *d, const char *path, const char *content)
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

static int mkdirs(char *path)
{
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

static int fake_populate(const char *dir, const char *const *files)
{
	for (; *files; files++) {
		const char *eq = strchr(*files, '=');
		char *p = damos_path("%s/%.*s", dir, (int)(eq - *files), *files);
		FILE *f;
		int err = p ? mkdirs(p) : -ENOMEM;

		if (!err) {
			f = fopen(p, "w");
			if (!f || fprintf(f, "%s%s", eq + 1, eq[1] ? "\n" : "") < 0)
				err = -errno ?: -EIO;
			if (f && fclose(f))
				err = -errno;
		}
		free(p);
		if (err)
			return err;
	}
	return 0;
}

static int rm_rf(const char *path)
{
	struct dirent *e;
	DIR *dir = opendir(path);
	int err = 0;

	if (!dir)
		return unlink(path) ? -errno : 0;
	while (!err && (e = readdir(dir))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		char *p = damos_path("%s/%s", path, e->d_name);

		err = p ? rm_rf(p) : -ENOMEM;
		free(p);
	}
	closedir(dir);
	if (!err && rmdir(path))
		err = -errno;
	return err;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix) &&
	       (n == m || s[n - m - 1] == '/');
}

/* The sysfs kernel recreates every numbered directory on a nr_* write. */
static int fake_nr_write(const char *path, const char *content)
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
			err = rm_rf(p);
		}
		free(p);
	}
	for (uint64_t i = 0; !err && i < nr; i++) {
		char *p = damos_path("%s/%llu", parent, (unsigned long long)i);

		err = p ? fake_populate(p, files) : -ENOMEM;
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

static int fake_monitor_on(struct damos *d)
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
static int fake_pre_write(struct damos *d, const char *path)
{
	const char *base = strrchr(path, '/') + 1;

	if (in_dir(path, d->dbgfs) && strncmp(base, "monitor_on", 10) &&
	    fake_monitor_on(d))
		return -EBUSY;
	return 0;
}

/* After a write to a fake tree: the side effects of the kernel. */
static int fake_post_write(struct damos *d, const char *path,
			   const char *content, const char *old)
{
	const char *base = strrchr(path, '/') + 1;
	char name[256];
	char *p;
	int err = 0;

	if (in_dir(path, d->admin)) {
		if (!strcmp(base, "state") && strcmp(content, "on\n") &&
		    strcmp(content, "off\n") && old) {
			int fd = open(path, O_WRONLY | O_TRUNC);

			if (fd < 0 || write(fd, old, strlen(old)) < 0)
				err = -errno;
			if (fd >= 0)
				close(fd);
			return err;
		}
		return fake_nr_write(path, content);
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
		err = damos_exists(p) ? -EEXIST : fake_populate(p, dbgfs_ctx_files);
	else
		err = damos_exists(p) ? rm_rf(p) : -ENOENT;
	free(p);
	return err;
}

int damos_write(struct damos *d, const char *path, const char *content)
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
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0) {
		free(old);
		return damos_err(-errno, "cannot write %s: %s", path,
				 strerror(errno));
	}
	n = write(fd, content, len);
	err = n < 0 ? -errno : (size_t)n != len ? -EIO : 0;
	if (close(fd) && !err)
		err = -errno;
	if (!err && d->emulate)
		err = fake_post_write(d, path, content, old);
	free(old);
	if (err)
		return damos_err(err, "cannot write %s: %s", path,
				 strerror(-err));
	return 0;
}

int damos_write_u64(struct damos *d, const char *path, uint64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%llu\n", (unsigned long long)v);
	return damos_write(d, path, buf);
}
