// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * damoctl's global options: the table (cli_options[]) that the parser,
 * --help, the completion and tests/host/docs.bats read, and the parser.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

const struct cli_option cli_options[] = {
	{ "interface", 'i', false, "auto|sysfs|dbgfs", CLI_ARG_CHOICE,
	  "kernel interface (default auto: sysfs if present)" },
	{ "root", 'r', false, "DIR", CLI_ARG_FILE,
	  "treat DIR as / (fake trees, offline use)" },
	{ "dry-run", 'n', false, NULL, CLI_ARG_NONE,
	  "print the writes as a sh script, make none" },
	{ "json", 'j', false, NULL, CLI_ARG_NONE,
	  "JSON output, errors included" },
	{ "kdamond", 'k', false, "N|all", CLI_ARG_VALUE,
	  "sysfs kdamond index (default 0); all: every kdamond (export damo, monitor status|start|stop)" },
	{ "context", 'c', false, "NAME", CLI_ARG_VALUE,
	  "dbgfs context directory (default: the first)" },
	{ "wait", 'w', false, "SECONDS", CLI_ARG_VALUE,
	  "wait at most this long for another damoctl (default 30)" },
	{ "file", 'f', false, "FILE|-", CLI_ARG_FILE,
	  "run the command lines of FILE (- for stdin)" },
	/* 'F' is only what getopt_long() returns: there is no -F */
	{ "force", 'F', true, NULL, CLI_ARG_NONE,
	  "with -f: go on after a failure, report them all" },
	{ "version", 'V', false, NULL, CLI_ARG_NONE, "print the version" },
	{ "help", 'h', false, NULL, CLI_ARG_NONE, "print this help" },
	{ NULL },
};

/* The row of "--NAME" or "-V"; NULL if @word is neither. */
const struct cli_option *cli_option_find(const char *word)
{
	for (const struct cli_option *g = cli_options; g->name; g++)
		if ((word[0] == '-' && word[1] == '-' && !strcmp(word + 2, g->name)) ||
		    (!g->no_short && word[0] == '-' && word[1] == g->val && !word[2]))
			return g;
	return NULL;
}

/* getopt_long()'s two tables, from cli_options[]. */
static void getopt_tables(struct option *longs, char *shorts)
{
	*shorts++ = '+';	/* the options end at the object */
	for (const struct cli_option *g = cli_options; g->name; g++) {
		*longs++ = (struct option){ g->name, g->arg ? required_argument :
					    no_argument, NULL, g->val };
		if (g->no_short)
			continue;
		*shorts++ = g->val;
		if (g->arg)
			*shorts++ = ':';
	}
	*longs = (struct option){ NULL, 0, NULL, 0 };
	*shorts = '\0';
}

static bool dir_exists(const char *path)
{
	struct stat st;

	errno = 0;
	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

int cli_parse_globals(struct cli *c, int argc, char **argv, int *next)
{
	struct option opts[ARRAY_SIZE(cli_options)];
	char shorts[2 * ARRAY_SIZE(cli_options) + 2];
	const struct cli_option *g;
	char *end;
	long v;
	int opt;

	/* --json first, so that every message is JSON wherever it stands */
	getopt_tables(opts, shorts);
	opterr = 0;
	for (optind = 0; (opt = getopt_long(argc, argv, shorts, opts,
					    NULL)) != -1;)
		c->json |= opt == 'j';
	optind = 0;
	while ((opt = getopt_long(argc, argv, shorts, opts, NULL)) != -1) {
		switch (opt) {
		case 'i':
			/* damo's spelling */
			v = damon_iface_from_name(strcmp(optarg, "debugfs") ?
						  optarg : "dbgfs");
			if (v < 0)
				return cli_error(c, EXIT_USAGE, "%s",
						 cli_errmsg());
			c->iface = v;
			break;
		case 'r':
			/* "$FAKE" unset must not mean the live system */
			if (!*optarg)
				return cli_error(c, EXIT_USAGE,
						 "--root: an empty DIR (an unset variable?); give / for the live system");
			c->root = optarg;
			/* absolute: dry-run scripts and messages work anywhere */
			if (optarg[0] != '/') {
				char *cwd = getcwd(NULL, 0);

				free(c->root_abs);
				c->root_abs = NULL;
				if (!cwd || asprintf(&c->root_abs, "%s/%s", cwd, optarg) < 0)
					c->root_abs = NULL;
				free(cwd);
				if (!c->root_abs)
					return cli_error(c, EXIT_FAIL, "--root %s: %s",
							 optarg, strerror(errno));
				c->root = c->root_abs;
			}
			/* a mistyped DIR is not "this kernel has no DAMON" */
			if (!dir_exists(c->root))
				return cli_error(c, EXIT_FAIL, "--root %s: %s", optarg,
						 errno == ENOTDIR || !errno ? "not a directory" :
						 strerror(errno));
			break;
		case 'n':
			c->dry_run = true;
			break;
		case 'j':
			c->json = true;
			break;
		case 'k':
			c->kdamond_given = true;
			if (!strcmp(optarg, "all")) {
				c->kdamond_all = true;
				c->kdamond = 0;
				break;
			}
			c->kdamond_all = false;
			errno = 0;
			v = strtol(optarg, &end, 10);
			if (errno || *end || end == optarg || v < 0 || v > 1024)
				return cli_error(c, EXIT_USAGE,
						 "--kdamond: '%s' is not a kdamond index (0 to 1024, or all)",
						 optarg);
			c->kdamond = (int)v;
			break;
		case 'c':
			c->dbgfs_ctx = optarg;
			break;
		case 'f':
			c->batch = optarg;
			break;
		case 'F':
			c->force = true;
			break;
		case 'w': {
			uint64_t us;

			if (damos_parse_time_us(optarg, 1000000, &us))
				return cli_error(c, EXIT_USAGE,
						 "--wait: '%s' is not a time (seconds, or with us ms s m h)",
						 optarg);
			c->wait_us = us;
			break;
		}
		case 'V':
			if (optind < argc)
				return cli_error(c, EXIT_USAGE,
						 "--version: nothing goes after it, got '%s'",
						 argv[optind]);
			if (c->json)
				json_print_version(c->out, DAMOS_VERSION, damos_version());
			else
				fprintf(c->out, "damoctl %s (libdamos %s)\n",
					DAMOS_VERSION, damos_version());
			*next = argc;
			return -1;
		case 'h':
			cli_help(c, NULL, NULL);
			*next = argc;
			return -1;
		default:
			for (g = cli_options; g->name && g->val != optopt; g++)
				;
			if (optopt)
				return cli_error(c, EXIT_USAGE,
						 "option -%c: %s", optopt,
						 g->name && g->arg ?
						 "missing argument" : "unknown option");
			return cli_error(c, EXIT_USAGE, "unknown option '%s'",
					 argv[optind - 1]);
		}
	}
	/* damon_open() refuses these too, but they are usage errors */
	if (c->dbgfs_ctx && !*c->dbgfs_ctx)
		c->dbgfs_ctx = NULL;
	if (c->dbgfs_ctx && (strchr(c->dbgfs_ctx, '/') ||
			     !strcmp(c->dbgfs_ctx, ".") || !strcmp(c->dbgfs_ctx, "..")))
		return cli_error(c, EXIT_USAGE,
				 "--context '%s': a context is a name (of mk_contexts), not a path",
				 c->dbgfs_ctx);
	if (c->dbgfs_ctx && (c->kdamond || c->kdamond_all))
		return cli_error(c, EXIT_USAGE,
				 "--context is dbgfs's and --kdamond sysfs's: not both");
	if (c->dbgfs_ctx && c->iface == DAMON_IFACE_SYSFS)
		return cli_error(c, EXIT_USAGE,
				 "--context %s: a dbgfs context, not with --interface sysfs",
				 c->dbgfs_ctx);
	if ((c->kdamond || c->kdamond_all) && c->iface == DAMON_IFACE_DBGFS)
		return cli_error(c, EXIT_USAGE,
				 c->kdamond_all ? "--kdamond all: sysfs kdamonds, not with --interface dbgfs" :
				 "--kdamond %d: a sysfs kdamond, not with --interface dbgfs",
				 c->kdamond);
	*next = optind;
	return 0;
}
