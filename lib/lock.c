// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * The lock that serializes read-modify-writes of DAMON's files across
 * processes: flock(2) on the directory of what is written (see damos.h,
 * "Locking").  Any tool can take the same lock, with flock(1) in a script.
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

const char *damos_lock_dir(const struct damon_ctx *d)
{
	return d->top;
}

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

int damos_lock_take(const char *dir, bool exclusive, uint64_t wait_us)
{
	struct damos_buf who = { 0 };
	uint64_t deadline = now_us() + wait_us, delay = 1000, t;
	struct stat st;
	int fd, err;

	/* O_NONBLOCK: a FIFO in a fake tree must not hang the open */
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK |
		  O_CLOEXEC);
	if (fd < 0)
		return damos_err(-errno, "cannot open %s to lock it: %s", dir,
				 strerror(errno));
	for (;;) {
		if (!flock(fd, (exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB))
			return fd;
		if (errno == EINTR)
			continue;
		if (errno != EWOULDBLOCK) {
			err = -errno;
			close(fd);
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
	close(fd);
	err = damos_err(-ETIMEDOUT, "%s is locked%s", dir,
			who.s && !who.err ? who.s : " by another process");
	damos_buf_free(&who);
	return err;
}

void damos_lock_release(int fd)
{
	if (fd >= 0)
		close(fd);
}
