// SPDX-License-Identifier: GPL-2.0-or-later
/* damoctl: DAMON operation schemes from the command line. */
#include "cli.h"

int main(int argc, char **argv)
{
	struct cli c;
	int next, status;

	cli_init(&c);
	status = cli_parse_globals(&c, argc, argv, &next);
	if (status < 0)
		return EXIT_OK;
	if (status)
		return status;
	status = cli_run(&c, argc - next, argv + next);
	cli_fini(&c);
	return status;
}
