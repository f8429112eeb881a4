// SPDX-License-Identifier: GPL-2.0-or-later
/* damoctl: DAMON operation schemes from the command line. */
#include <string.h>
#include <unistd.h>

#include "cli.h"

int main(int argc, char **argv)
{
	struct cli c;
	int next, status;

	/* for the bash completion: damoctl --complete -- WORD... CURRENT */
	if (argc >= 3 && !strcmp(argv[1], "--complete") && !strcmp(argv[2], "--"))
		return cli_complete_print(argc - 3, argv + 3, stdout);
	cli_init(&c);
	status = cli_parse_globals(&c, argc, argv, &next);
	if (status < 0)
		return EXIT_OK;
	if (status)
		return status;
	if (c.force && !c.batch)
		status = cli_error(&c, EXIT_USAGE, "--force goes with -f FILE");
	else if (c.batch && next < argc)
		status = cli_error(&c, EXIT_USAGE,
				   "-f FILE runs the commands of FILE: no command after it");
	else if (c.batch)
		status = cli_batch(&c, c.batch);
	else if (next == argc && isatty(STDIN_FILENO))
		status = cli_shell(&c);
	else
		status = cli_run(&c, argc - next, argv + next);
	cli_fini(&c);
	return status;
}
