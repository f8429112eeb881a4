// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * The lock that serializes read-modify-writes of DAMON's files across
 * processes (see damos.h, "Locking"): flock(2) on <root>/run/damos, a
 * directory only its owner can open.  DAMON's own directories are
 * world-readable, so anyone could hold a flock on them and make root's
 * writers wait; nobody but root can open this one.  The transactions'
 * journal lives in it (txn.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

static uint64_t now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

/* "pid 123 (damoctl scheme add stat)": the command line, shortened. */
static void describe(int pid, struct damos_buf *b)
{
	char path[64], cmd[128];
	ssize_t n = 0;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/cmdline", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, cmd, sizeof(cmd) - 1);
		close(fd);
	}
	if (n <= 0) {
		damos_buf_printf(b, "pid %d", pid);
		return;
	}
	while (n > 0 && cmd[n - 1] == '\0')
		n--;
	cmd[n] = '\0';
	for (ssize_t i = 0; i < n; i++)
		if (cmd[i] == '\0' || (unsigned char)cmd[i] < 0x20)
			cmd[i] = ' ';
	damos_buf_printf(b, "pid %d (%s%s)", pid, cmd,
			 n == (ssize_t)sizeof(cmd) - 1 ? "..." : "");
}

/*
 * Who holds a flock on @st's inode, from /proc/locks ("2: FLOCK ADVISORY
 * WRITE 123 fe:00:4567 0 EOF"; waiters are the "->" lines).  "" if that
 * cannot be known (no /proc, another pid namespace).
 */
static void holders(const struct stat *st, struct damos_buf *b)
{
	FILE *f = fopen("/proc/locks", "re");
	char line[256];
	int nr = 0;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f) && nr < 4) {
		char type[16], mode[16];
		unsigned int maj, min;
		unsigned long long ino;
		int pid;

		if (strstr(line, "->") ||
		    sscanf(line, "%*d: %15s %*s %15s %d %x:%x:%llu", type, mode,
			   &pid, &maj, &min, &ino) != 6)
			continue;
		if (strcmp(type, "FLOCK") || ino != (unsigned long long)st->st_ino ||
		    maj != major(st->st_dev) || min != minor(st->st_dev) ||
		    pid <= 0 || pid == getpid())
			continue;
		damos_buf_printf(b, "%s", nr++ ? ", " : " by ");
		describe(pid, b);
		if (!strcmp(mode, "READ"))
			damos_buf_printf(b, " reading");
	}
	fclose(f);
}

char *damos_lock_path(const char *root)
{
	char *r = damos_root_norm(root), *p = r ? damos_path("%s/run/damos", r) : NULL;

	free(r);
	return p;
}

/* openat() of directory @name in @at, made with @mode if missing and @make */
static int dir_at(int at, const char *name, mode_t mode, bool make)
{
	int fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
			O_NONBLOCK | O_CLOEXEC);

	if (fd < 0 && errno == ENOENT && make &&
	    (!mkdirat(at, name, mode) || errno == EEXIST))
		fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
			    O_NONBLOCK | O_CLOEXEC);
	return fd;
}

/*
 * <root>/run/damos, opened without following a symlink at any step and
 * made (0700) if missing; it must be the caller's own and closed to
 * everyone else.  Below a --root its "run" is made too (0755).
 */
static int lock_open(const char *root, const char *path)
{
	int rootfd, run, fd, e;
	struct stat st;
	char *r = damos_root_norm(root);

	if (!r)
		return damos_err(-ENOMEM, "out of memory");
	rootfd = open(r[0] ? r : "/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	e = errno;
	free(r);
	if (rootfd < 0)
		return damos_err(-e, "cannot open %s: %s", root && *root ? root : "/",
				 strerror(e));
	run = dir_at(rootfd, "run", 0755, root && *root && strcmp(root, "/"));
	e = errno;
	close(rootfd);
	if (run < 0)
		return damos_err(e == ENOTDIR ? -ELOOP : -e,
				 "cannot open the lock's directory %s: %s", path,
				 e == ENOTDIR || e == ELOOP ? "a symlink or not a directory (refused)" :
				 strerror(e));
	fd = dir_at(run, "damos", 0700, true);
	e = errno;
	close(run);
	if (fd < 0)
		return damos_err(e == ENOTDIR ? -ELOOP : -e, "cannot open the lock %s: %s%s",
				 path, e == ENOTDIR || e == ELOOP ?
				 "a symlink or not a directory (refused)" : strerror(e),
				 e == EACCES || e == EPERM ? " (it is root's)" : "");
	if (fstat(fd, &st)) {
		e = errno;
		close(fd);
		return damos_err(-e, "cannot stat %s: %s", path, strerror(e));
	}
	if (st.st_uid != geteuid() || (st.st_mode & 077)) {
		close(fd);
		return damos_err(-EPERM, "%s is %s: another user could hold the lock (refused: it must be uid %u's, mode 0700)",
				 path, st.st_uid != geteuid() ? "not ours" : "open to other users",
				 (unsigned int)geteuid());
	}
	return fd;
}

/*
 * flock(@fd, @op) until @wait_us have passed: 0, or -ETIMEDOUT naming the
 * holders, or flock()'s errno, with a message about @dir.
 */
int damos_lock_wait(int fd, int op, uint64_t wait_us, const char *dir)
{
	struct damos_buf who = { 0 };
	uint64_t deadline = now_us() + wait_us, delay = 1000, t;
	struct stat st;
	int err;

	for (;;) {
		if (!flock(fd, op | LOCK_NB))
			return 0;
		if (errno == EINTR)
			continue;
		if (errno != EWOULDBLOCK) {
			err = -errno;
			return damos_err(err, "cannot lock %s: %s", dir,
					 strerror(-err));
		}
		t = now_us();
		if (t >= deadline)
			break;
		if (delay > deadline - t)
			delay = deadline - t;
		usleep(delay);
		delay = delay * 2 > 50000 ? 50000 : delay * 2;
	}
	if (!fstat(fd, &st))
		holders(&st, &who);
	err = damos_err(-ETIMEDOUT, "%s is locked%s", dir,
			who.s && !who.err ? who.s : " by another process");
	damos_buf_free(&who);
	return err;
}

/* The lock this process holds (one root at a time): its journal is ours. */
static struct {
	int fd;
	char *root;
} held = { -1, NULL };

bool damos_lock_held(const char *root)
{
	char *r = damos_root_norm(root);
	bool yes = r && held.root && held.fd >= 0 && !strcmp(r, held.root);

	free(r);
	return yes;
}

int damos_lock_take(const char *root, bool exclusive, uint64_t wait_us)
{
	char *dir = damos_lock_path(root);
	int fd, err;

	if (!dir)
		return damos_err(-ENOMEM, "out of memory");
	fd = lock_open(root, dir);
	if (fd >= 0) {
		err = damos_lock_wait(fd, exclusive ? LOCK_EX : LOCK_SH, wait_us,
				      dir);
		if (err) {
			close(fd);
			fd = err;
		}
	}
	free(dir);
	if (fd >= 0 && held.fd < 0) {
		free(held.root);
		held.root = damos_root_norm(root);
		held.fd = held.root ? fd : -1;
	}
	return fd;
}

void damos_lock_release(int fd)
{
	if (fd < 0)
		return;
	if (fd == held.fd) {
		held.fd = -1;
		free(held.root);
		held.root = NULL;
	}
	close(fd);
}
