// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * The race layer, for test builds only (build/tests/damoctl-test): it
 * plays a program that writes without the lock.  DAMOCTL_TEST_RACE, a
 * shell command, runs once after each change of the handle's files (a
 * library call's transaction ended, its own checks done) at the handle's
 * next read: where damoctl reads back what it meant (cli/verify.c).  Never
 * in a dry run, whose writes reach no file of the tree.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "layers.h"

struct race {
	struct damos_io io;
	bool armed;
};

static int race_read(struct damos_io *io, const char *path, char **out)
{
	struct race *r = container_of(io, struct race, io);
	const char *cmd = getenv("DAMOCTL_TEST_RACE");

	if (r->armed && cmd && *cmd &&
	    damos_io_ask(io->below, DAMOS_IO_Q_RECORDED) != 1) {
		r->armed = false;
		fflush(NULL);
		if (system(cmd) == -1)
			perror("DAMOCTL_TEST_RACE");
	}
	return damos_io_read(io->below, path, out);
}

static void race_event(struct damos_io *io, enum damos_io_ev ev)
{
	if (ev == DAMOS_IO_EV_CHANGED)
		container_of(io, struct race, io)->armed = true;
}

static void race_free(struct damos_io *io)
{
	free(container_of(io, struct race, io));
}

static const struct damos_io_ops race_ops = {
	.name = "race",
	.read = race_read,
	.event = race_event,
	.free = race_free,
};

static struct damos_io *push(struct damon_ctx *d, struct damos_io *below,
			     long fs_magic)
{
	struct race *r = calloc(1, sizeof(*r));

	(void)fs_magic;
	if (!r)
		return damos_err_null(-ENOMEM, "out of memory");
	r->io.ops = &race_ops;
	r->io.below = below;
	r->io.d = d;
	return &r->io;
}

const struct damos_layer damos_test_layer_race = { "race", push };
