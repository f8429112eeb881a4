// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * The transactions' journal (damos.h, "Locking"): before its first write, a
 * transaction puts the snapshot of every directory it writes to in
 * <root>/run/damos/journal, fsync()ed; the file goes at its end.  One
 * that is still there under the lock belongs to a process that died
 * mid-transaction (SIGKILL, the OOM killer, a crash): the next holder of
 * the lock puts the files back from it (txn.c), as SQLite's next reader
 * rolls back a hot journal.  Only a holder of the lock writes one (a
 * program that writes without it gets none): so one found under the lock
 * is a dead process's, whatever runs under its pid now.
 *
 * The format, every length in bytes, every string followed by "\n":
 *   damos-journal 1 / pid PID / cmd LEN + bytes /
 *   (dir KIND LEN + path / (file WRITABLE RELLEN LEN + rel + content)*)* /
 *   end
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

static char *journal_path(const char *root, const char *name)
{
	char *dir = damos_lock_path(root), *p;

	p = dir ? damos_path("%s/%s", dir, name) : NULL;
	free(dir);
	return p;
}

/* The command line of this process, for whoever finds the journal. */
static void self_cmdline(char *buf, size_t sz)
{
	int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, buf, sz - 1) : -1;

	if (fd >= 0)
		close(fd);
	if (n < 0)
		n = 0;
	while (n > 0 && buf[n - 1] == '\0')
		n--;
	buf[n] = '\0';
	for (ssize_t i = 0; i < n; i++)
		if ((unsigned char)buf[i] < 0x20)
			buf[i] = ' ';
}

static void fsync_dir_of(const char *path)
{
	char *dir = strdup(path), *slash = dir ? strrchr(dir, '/') : NULL;
	int fd;

	if (!slash)
		goto out;
	*slash = '\0';
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
out:
	free(dir);
}

int damos_journal_save(const char *root, const struct damos_journal_dir *dirs,
		       size_t n)
{
	char *path = journal_path(root, "journal"), *tmp = journal_path(root, "journal.new");
	char cmd[256];
	struct damos_buf b = { 0 };
	int fd = -1, err = 0;
	size_t off = 0;

	if (!path || !tmp) {
		err = damos_err(-ENOMEM, "out of memory");
		goto out;
	}
	/* not the lock's holder: no journal (see the top) */
	if (!damos_lock_held(root))
		goto out;
	self_cmdline(cmd, sizeof(cmd));
	damos_buf_printf(&b, "damos-journal 1\npid %d\ncmd %zu\n%s\n", (int)getpid(),
			 strlen(cmd), cmd);
	for (size_t i = 0; i < n; i++) {
		const struct damos_snap *sn = dirs[i].snap;

		damos_buf_printf(&b, "dir %s %zu\n%s\n", dirs[i].kind,
				 strlen(dirs[i].dir), dirs[i].dir);
		for (size_t k = 0; k < sn->n; k++) {
			if (!sn->f[k].content)
				continue;
			damos_buf_printf(&b, "file %d %zu %zu\n%s\n%s\n",
					 sn->f[k].writable, strlen(sn->f[k].rel),
					 strlen(sn->f[k].content), sn->f[k].rel,
					 sn->f[k].content);
		}
	}
	damos_buf_printf(&b, "end\n");
	if (b.err) {
		err = damos_err(-ENOMEM, "out of memory");
		goto out;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		err = damos_err(-errno, "cannot write the journal %s: %s", tmp,
				strerror(errno));
		goto out;
	}
	while (off < b.len) {
		ssize_t w = write(fd, b.s + off, b.len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			err = damos_err(w < 0 ? -errno : -EIO, "cannot write the journal %s: %s",
					tmp, strerror(w < 0 ? errno : EIO));
			goto out;
		}
		off += (size_t)w;
	}
	if (fsync(fd)) {
		err = damos_err(-errno, "cannot write the journal %s: %s", tmp,
				strerror(errno));
		goto out;
	}
	close(fd);
	fd = -1;
	if (rename(tmp, path)) {
		err = damos_err(-errno, "cannot write the journal %s: %s", path,
				strerror(errno));
		goto out;
	}
	fsync_dir_of(path);
out:
	if (fd >= 0)
		close(fd);
	if (err && tmp)
		unlink(tmp);
	damos_buf_free(&b);
	free(path);
	free(tmp);
	return err;
}

void damos_journal_remove(const char *root)
{
	char *path = journal_path(root, "journal");

	if (path && !unlink(path))
		fsync_dir_of(path);
	free(path);
}

void damos_journal_free(struct damos_journal *j)
{
	for (size_t i = 0; i < j->n; i++) {
		free(j->d[i].kind);
		free(j->d[i].dir);
		damos_snap_free_files(&j->d[i].snap);
	}
	free(j->d);
	free(j->cmd);
	memset(j, 0, sizeof(*j));
}

/* "WORD ARGS\n" at *@p, then the @len bytes and their "\n" */
static char *take_bytes(const char **p, const char *end, size_t len)
{
	char *s;

	if ((size_t)(end - *p) < len + 1 || (*p)[len] != '\n')
		return NULL;
	s = strndup(*p, len);
	*p += len + 1;
	return s;
}

static const char *next_line(const char **p, const char *end)
{
	const char *l = *p, *nl = memchr(l, '\n', end - l);

	if (!nl)
		return NULL;
	*p = nl + 1;
	return l;
}

static int parse(const char *s, size_t len, struct damos_journal *j)
{
	const char *p = s, *end = s + len, *l;
	size_t a, b;
	int w;

	l = next_line(&p, end);
	if (!l || strncmp(l, "damos-journal 1\n", 16))
		return -EINVAL;
	l = next_line(&p, end);
	if (!l || sscanf(l, "pid %d", &j->pid) != 1)
		return -EINVAL;
	l = next_line(&p, end);
	if (!l || sscanf(l, "cmd %zu", &a) != 1 || !(j->cmd = take_bytes(&p, end, a)))
		return -EINVAL;
	while ((l = next_line(&p, end))) {
		char kind[16];

		if (!strncmp(l, "end\n", 4))
			return 0;
		if (sscanf(l, "dir %15s %zu", kind, &a) == 2) {
			void *d = realloc(j->d, (j->n + 1) * sizeof(*j->d));

			if (!d)
				return -ENOMEM;
			j->d = d;
			memset(&j->d[j->n], 0, sizeof(*j->d));
			j->d[j->n].kind = strdup(kind);
			j->d[j->n].dir = take_bytes(&p, end, a);
			if (!j->d[j->n++].dir)
				return -EINVAL;
		} else if (j->n && sscanf(l, "file %d %zu %zu", &w, &a, &b) == 3) {
			char *rel = take_bytes(&p, end, a), *c = rel ? take_bytes(&p, end, b) : NULL;

			if (!c) {
				free(rel);
				return -EINVAL;
			}
			if (damos_snap_add(&j->d[j->n - 1].snap, rel, c, w))
				return -ENOMEM;
		} else {
			return -EINVAL;
		}
	}
	return -EINVAL;		/* cut short: it was never complete */
}

int damos_journal_read(const char *root, struct damos_journal *j)
{
	char *path = journal_path(root, "journal"), *s = NULL;
	size_t len = 0, cap = 0;
	int fd, err = 0;

	memset(j, 0, sizeof(*j));
	if (!path)
		return damos_err(-ENOMEM, "out of memory");
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		err = errno == ENOENT ? -ENOENT :
		      damos_err(-errno, "cannot read the journal %s: %s", path,
				strerror(errno));
		free(path);
		return err;
	}
	for (;;) {
		ssize_t r;

		if (len + 4096 > cap) {
			char *t = realloc(s, cap = cap * 2 + 8192);

			if (!t) {
				err = damos_err(-ENOMEM, "out of memory");
				break;
			}
			s = t;
		}
		r = read(fd, s + len, cap - len - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			err = damos_err(-errno, "cannot read the journal %s: %s",
					path, strerror(errno));
			break;
		}
		if (!r)
			break;
		len += (size_t)r;
	}
	close(fd);
	if (!err && (err = parse(s, len, j)))
		err = damos_err(err, "the journal %s is not one of this library's (%s): left as it is",
				path, err == -ENOMEM ? "out of memory" : "cannot parse it");
	if (err)
		damos_journal_free(j);
	free(s);
	free(path);
	return err;
}
