// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The I/O layers of damoctl's handles: the dry run on top with --dry-run,
 * the fake kernel where the tree is a fake one.  The test build of damoctl
 * (tests/tests.mk) links tests/layers/cli_layers.c in place of this file.
 */
#include "cli.h"

const struct damos_layer *const *cli_layers(const struct cli *c)
{
	static const struct damos_layer *dry[3];

	if (!c->dry_run)
		return NULL;	/* the library's default */
	dry[0] = damos_layer_dry_run();
	dry[1] = damos_layer_fake_kernel_auto();
	return dry;
}
