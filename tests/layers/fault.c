// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * The fault layer, for test builds only (build/tests/damoctl-test): the
 * N-th write below a --root fails, before it reaches the layers below (so
 * the file is left as it was).  DAMOS_FAULT="N[+][:ERRNO]": N counts from
 * 1 over the whole process, "+" fails every write from the N-th on (a
 * restore that fails too), ERRNO a number (default EIO).
 * DAMOS_FAULT_LOG=FILE: each write's path is appended to FILE.
 *
 * DAMOS_FAULT="N:SIGNAME" (TERM, INT, HUP, KILL) sends this process that
 * signal at the N-th write, before it, and lets the write go on: what an
 * operator's Ctrl-C, systemd's stop or the OOM killer does at that moment.
 * DAMOS_FAULT="N:run" runs DAMOS_FAULT_RUN (a shell command) there, and
 * waits for it: another writer between two of ours.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "layers.h"

static int fault_of(struct damon_ctx *d, const char *path)
{
	static unsigned long nr;
	const char *spec = getenv("DAMOS_FAULT"), *log = getenv("DAMOS_FAULT_LOG");
	size_t n = strlen(d->root);
	unsigned long nth = 0;
	char *end = NULL;
	int e = EIO;

	if (!n || strncmp(path, d->root, n) || path[n] != '/')
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
	if (end && *end == ':' && (!strcmp(end + 1, "run") || !atoi(end + 1))) {
		static const struct { const char *name; int sig; } sigs[] = {
			{ "TERM", SIGTERM }, { "INT", SIGINT }, { "HUP", SIGHUP },
			{ "KILL", SIGKILL },
		};
		const char *cmd = getenv("DAMOS_FAULT_RUN");

		if (!strcmp(end + 1, "run")) {
			fflush(NULL);
			if (cmd && system(cmd) == -1)
				perror("DAMOS_FAULT_RUN");
			return 0;
		}
		for (size_t i = 0; i < ARRAY_SIZE(sigs); i++)
			if (!strcmp(end + 1, sigs[i].name)) {
				fflush(NULL);
				kill(getpid(), sigs[i].sig);
			}
		return 0;
	}
	if (end && *end == ':')
		e = atoi(end + 1);
	return -(e > 0 ? e : EIO);
}

static int fault_write(struct damos_io *io, const char *path,
		       const char *content, unsigned int flags)
{
	int err = fault_of(io->d, path);

	if (!err)
		return damos_io_write(io->below, path, content, flags);
	if ((err == -EACCES || err == -EPERM) && geteuid())
		return damos_err(err, "cannot write %s: %s (DAMON's files need root)",
				 path, strerror(-err));
	return damos_err(err, "cannot write %s: %s", path, strerror(-err));
}

static void fault_free(struct damos_io *io)
{
	free(io);
}

static const struct damos_io_ops fault_ops = {
	.name = "faults",
	.write = fault_write,
	.free = fault_free,
};

static struct damos_io *push(struct damon_ctx *d, struct damos_io *below,
			     long fs_magic)
{
	struct damos_io *io = calloc(1, sizeof(*io));

	(void)fs_magic;
	if (!io)
		return damos_err_null(-ENOMEM, "out of memory");
	io->ops = &fault_ops;
	io->below = below;
	io->d = d;
	return io;
}

const struct damos_layer damos_test_layer_fault = { "faults", push };
