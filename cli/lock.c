// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Every command runs under the lock of libdamos(3) "Locking": flock(2) on
 * the directory of the interface it works on (LOCK_EX to write, LOCK_SH to
 * read or in a dry run), held from before its first read to after its
 * last write, waiting at most --wait SECONDS.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

#define NR_LOCKS 4

static bool is_dir(const char *p)
{
	return p && !access(p, F_OK);
}

/*
 * The directories of the command's object, in the lock order of
 * libdamos(3): the interface's (the one damon_open() picks), the module's.
 * apply may touch everything: all that exist.
 */
static int lock_dirs(struct cli *c, char *dirs[NR_LOCKS])
{
	const char *const *mod = damon_module_names();
	int n = 0;

	if (c->object && !strcmp(c->object, "lru-sort")) {
		dirs[n++] = damon_module_dir(c->root, "lru_sort");
	} else if (c->object && !strcmp(c->object, "reclaim")) {
		dirs[n++] = damon_module_dir(c->root, "reclaim");
	} else if (c->object && !strcmp(c->object, "apply")) {
		dirs[n++] = damon_iface_dir(c->root, DAMON_IFACE_SYSFS);
		dirs[n++] = damon_iface_dir(c->root, DAMON_IFACE_DBGFS);
		for (; *mod && n < NR_LOCKS; mod++)
			dirs[n++] = damon_module_dir(c->root, *mod);
	} else {
		struct damon_ctx *d = cli_open_quiet(c);

		/* no handle: the command says why itself */
		if (d)
			dirs[n++] = strdup(damos_lock_dir(d));
		damon_close(d);
	}
	return n;
}

/* Take the locks; EXIT_OK with @fds set, or an error printed. */
static int lock(struct cli *c, bool exclusive, int fds[NR_LOCKS])
{
	char *dirs[NR_LOCKS] = { NULL };
	int n = lock_dirs(c, dirs), status = EXIT_OK;

	for (int i = 0; i < n; i++) {
		char w[32];
		int fd;

		fds[i] = -1;
		if (status || !is_dir(dirs[i]))
			continue;
		fd = damos_lock_take(dirs[i], exclusive && !c->dry_run,
				     c->wait_us);
		if (fd == -ETIMEDOUT)
			status = cli_error(c, EXIT_FAIL,
					   "%s: waited %s (--wait SECONDS to wait longer)",
					   cli_errmsg(),
					   damos_format_time_us(c->wait_us, w,
								sizeof(w)));
		/* a directory that cannot be opened: the command says why */
		else if (fd >= 0)
			fds[i] = fd;
	}
	for (int i = 0; i < n; i++)
		free(dirs[i]);
	if (status)
		for (int i = 0; i < n; i++)
			damos_lock_release(fds[i]);
	return status;
}

int cli_call_run(struct cli *c, int (*fn)(struct cli *, int, char **),
		 bool exclusive, int argc, char **argv)
{
	int fds[NR_LOCKS];
	FILE *saved;
	char *buf;
	size_t len;
	int status;

	/* every slot: one left 0 would close stdin (it did, with a 4th lock) */
	for (int i = 0; i < NR_LOCKS; i++)
		fds[i] = -1;
	json_begin(c, &saved, &buf, &len);
	status = lock(c, exclusive, fds);
	if (!status) {
		status = fn(c, argc, argv);
		for (int i = 0; i < NR_LOCKS; i++)
			damos_lock_release(fds[i]);
	}
	json_end(c, saved, &buf, &len, status);
	return status;
}

int cli_call(struct cli *c, const struct cli_cmd *k, int argc, char **argv)
{
	FILE *saved;
	char *buf;
	size_t len;
	int status;

	c->writing = k->flags & CLI_WRITE;
	if (!(k->flags & CLI_NOLOCK))
		return cli_call_run(c, k->fn, k->flags & CLI_WRITE, argc, argv);
	json_begin(c, &saved, &buf, &len);
	status = k->fn(c, argc, argv);
	json_end(c, saved, &buf, &len, status);
	return status;
}
