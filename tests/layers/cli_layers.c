// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * damoctl's layers in its test build (in place of cli/layers.c): the race
 * layer on top, the fault layer (above the dry run, which passes no write
 * down: its N-th write is the plan's), the dry run with --dry-run, then
 * the fake kernel where the tree is a fake one.  Each test layer does nothing
 * unless its environment variable is set: DAMOCTL_TEST_RACE (race.c),
 * DAMOS_FAULT and DAMOS_FAULT_LOG (fault.c).
 */
#include "cli.h"
#include "layers.h"

/* a --root tree acts as the kernel's (damos_test_layer_fake_kernel_auto) */
bool cli_fake_kernel(void)
{
	return true;
}

const struct damos_layer *const *cli_layers(const struct cli *c)
{
	static const struct damos_layer *l[5];
	size_t n = 0;

	l[n++] = &damos_test_layer_race;
	l[n++] = &damos_test_layer_fault;
	if (c->dry_run)
		l[n++] = damos_layer_dry_run();
	l[n++] = &damos_test_layer_fake_kernel_auto;
	l[n] = NULL;
	return l;
}
