// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The I/O layers of damoctl's handles: the dry run with --dry-run, else
 * none (the files themselves).  The test build of damoctl (tests/tests.mk)
 * links tests/layers/cli_layers.c in place of this file.
 */
#include "cli.h"

/* no fake kernel ships: a --root tree is read and written as it is */
bool cli_fake_kernel(void)
{
	return false;
}

const struct damos_layer *const *cli_layers(const struct cli *c)
{
	static const struct damos_layer *dry[2];

	if (!c->dry_run)
		return NULL;	/* the library's default: no layer */
	dry[0] = damos_layer_dry_run();
	return dry;
}
