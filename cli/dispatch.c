// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The dispatcher that argv, -f FILE and the shell share: the objects and
 * their command tables, the session (struct cli), "OBJECT COMMAND ARGS"
 * run, and the words that may follow a prefix, for the completions.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static const struct cli_cmd help_cmds[] = { { NULL } };

const struct cli_object cli_objects[] = {
	{ "scheme", scheme_cmds, "list", "DAMON-based operation schemes" },
	{ "attrs", attrs_cmds, "show", "monitoring attributes" },
	{ "target", target_cmds, "show", "monitoring targets and regions" },
	{ "monitor", monitor_cmds, "status", "turn monitoring on and off" },
	{ "stats", stats_cmds, "show", "statistics of the schemes" },
	{ "lru-sort", lru_sort_cmds, "status", "the damon_lru_sort module" },
	{ "reclaim", reclaim_cmds, "status", "the damon_reclaim module" },
	{ "report", report_cmds, "access", "what DAMON sees: the monitored regions" },
	{ "export", export_cmds, NULL, "the setup in another tool's format (damo)" },
	{ "tier", tier_cmds, "status", "memory tiering: cold pages to a slow node, hot ones back (Linux 6.11+)" },
	{ "record", help_cmds, NULL, "snapshots of the monitored regions to FILE, in damo's record format",
	  record_run, RECORD_ARGS },
	{ "apply", help_cmds, NULL, "make a damoctl.conf(5) file or a damo kdamonds spec the live setup, or check it",
	  apply_run, APPLY_ARGS },
	{ "help", help_cmds, NULL, "this help, help OBJECT or help OBJECT COMMAND" },
	{ NULL },
};

void cli_init(struct cli *c)
{
	memset(c, 0, sizeof(*c));
	c->iface = DAMON_IFACE_AUTO;
	c->out = stdout;
	c->err = stderr;
	c->wait_us = CLI_WAIT_DEFAULT_US;
	c->lock_fd = -1;
}

void cli_fini(struct cli *c)
{
	fflush(c->out);
	free(c->root_abs);
	c->root_abs = NULL;
}

const struct cli_object *cli_object_find(const char *name)
{
	/* the spellings of damo's users */
	if (!strcmp(name, "lru_sort"))
		name = "lru-sort";
	for (const struct cli_object *o = cli_objects; o->name; o++)
		if (!strcmp(o->name, name))
			return o;
	return NULL;
}

const struct cli_cmd *cmd_select(const struct cli_cmd *cmds, const char *name)
{
	for (; cmds->name; cmds++)
		if (!strcmp(cmds->name, name))
			return cmds;
	return NULL;
}

static int cli_run_cmd(struct cli *c, const struct cli_object *o,
		       const struct cli_cmd *k, int argc, char **argv);

static bool is_help(const char *w)
{
	return !strcmp(w, "help") || !strcmp(w, "--help") || !strcmp(w, "-h");
}

/*
 * A global option among a command's words: --help is the command's help,
 * the others belong before the object.
 */
static int misplaced_option(struct cli *c, const struct cli_object *o,
			    const struct cli_cmd *k, int argc, char **argv)
{
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			cli_help(c, o, k);
			return -1;
		}
		for (const struct cli_option *g = cli_options; g->name; g++) {
			size_t len = strlen(g->name);

			/* --NAME or --NAME=VALUE; --help is above */
			if (g->val == 'h' || strncmp(argv[i], "--", 2) ||
			    strncmp(argv[i] + 2, g->name, len) ||
			    (argv[i][2 + len] && argv[i][2 + len] != '='))
				continue;
			return cli_error(c, EXIT_USAGE,
					 "'%s' is an option of damoctl: put it before '%s' (damoctl [OPTIONS] %s %s ...)",
					 argv[i], o->name, o->name, k->name);
		}
	}
	return EXIT_OK;
}

static int run(struct cli *c, int argc, char **argv)
{
	const struct cli_object *o;
	const struct cli_cmd *k;
	const char *name;
	int status;

	if (argc < 1) {
		/* "echo 'scheme list' | damoctl": the commands are on stdin */
		if (c->json)
			return cli_error(c, EXIT_USAGE,
					 "expected OBJECT COMMAND (see damoctl --help)");
		cli_usage(c->err);
		if (!isatty(STDIN_FILENO))
			fprintf(c->err, "\nNo command given; to run the commands of standard input: damoctl -f -\n");
		return EXIT_USAGE;
	}
	if (!strcmp(argv[0], "version") && argc == 1) {
		if (c->json)
			json_print_version(c->out, DAMOS_VERSION, damos_version());
		else
			fprintf(c->out, "damoctl %s (libdamos %s)\n",
				DAMOS_VERSION, damos_version());
		return EXIT_OK;
	}
	o = cli_object_find(argv[0]);
	if (!o) {
		char list[256] = "";
		size_t n = 0;

		for (o = cli_objects; o->name; o++)
			n += snprintf(list + n, sizeof(list) - n, "%s%s",
				      n ? " " : "", o->name);
		return cli_error(c, EXIT_USAGE,
				 "unknown object '%s' (objects: %s)", argv[0],
				 list);
	}
	if (!strcmp(o->name, "help")) {
		if (argc < 2) {
			cli_help(c, NULL, NULL);
			return EXIT_OK;
		}
		o = cli_object_find(argv[1]);
		if (!o || !strcmp(o->name, "help"))
			return cli_error(c, EXIT_USAGE,
					 "help: unknown object '%s'", argv[1]);
		if (argc < 3) {
			cli_help(c, o, NULL);
			return EXIT_OK;
		}
		k = cmd_select(o->cmds, argv[2]);
		if (!k)
			return cli_error(c, EXIT_USAGE,
					 "help: %s has no command '%s'",
					 o->name, argv[2]);
		if (argc > 3)
			return cli_error(c, EXIT_USAGE,
					 "help: '%s' after %s %s (expected help [OBJECT [COMMAND]])",
					 argv[3], o->name, k->name);
		cli_help(c, o, k);
		return EXIT_OK;
	}
	c->object = o->name;
	if (o->run) {
		if (argc > 1 && is_help(argv[1])) {
			cli_help(c, o, NULL);
			return EXIT_OK;
		}
		snprintf(c->line, sizeof(c->line), "%s", o->name);
		for (int i = 1, n = strlen(c->line); i < argc &&
		     n < (int)sizeof(c->line); i++)
			n += snprintf(c->line + n, sizeof(c->line) - n, " %s",
				      argv[i]);
		c->hold_signals = true;
		status = cli_setup_flush(c);
		if (status)
			return status;
		status = cli_call_run(c, o->run,
				      !(argc > 1 && !strcmp(argv[1], "check")),
				      argc - 1, argv + 1);
		fflush(c->out);
		return status;
	}
	if (argc > 1 && is_help(argv[1])) {
		cli_help(c, o, NULL);
		return EXIT_OK;
	}
	/* "stats --watch 2": options go to the default command */
	if (argc > 1 && argv[1][0] == '-' && o->default_cmd) {
		k = cmd_select(o->cmds, o->default_cmd);
		if (k && (k->flags & CLI_WATCH))
			return cli_run_cmd(c, o, k, argc - 1, argv + 1);
	}
	name = argc > 1 ? argv[1] : o->default_cmd;
	k = cmd_select(o->cmds, name);
	if (!k) {
		char list[256] = "";
		size_t n = 0;

		for (k = o->cmds; k->name; k++)
			n += snprintf(list + n, sizeof(list) - n, "%s%s",
				      n ? " " : "", k->name);
		return cli_error(c, EXIT_USAGE,
				 "unknown command '%s' (commands: %s)", name,
				 list);
	}
	return cli_run_cmd(c, o, k, argc > 1 ? argc - 2 : 0,
			   argc > 1 ? argv + 2 : argv + 1);
}

/* The error prefix "OBJECT COMMAND: " holds for this command only. */
int cli_run(struct cli *c, int argc, char **argv)
{
	int status;

	c->object = NULL;
	c->command = NULL;
	status = run(c, argc, argv);
	c->object = NULL;
	c->command = NULL;
	return status;
}

/* Run command @k of @o with its arguments @argv. */
static int cli_run_cmd(struct cli *c, const struct cli_object *o,
		       const struct cli_cmd *k, int argc, char **argv)
{
	uint64_t watch_us = 0;
	long count = 0;
	int status = EXIT_OK;

	c->object = o->name;
	c->command = k->name;
	snprintf(c->line, sizeof(c->line), "%s %s", o->name, k->name);
	for (int i = 0, n = strlen(c->line); i < argc &&
	     n < (int)sizeof(c->line); i++)
		n += snprintf(c->line + n, sizeof(c->line) - n, " %s", argv[i]);
	status = misplaced_option(c, o, k, argc, argv);
	if (status)
		return status < 0 ? EXIT_OK : status;
	if (k->flags & CLI_WATCH)
		status = cli_watch_args(c, &argc, argv, &watch_us, &count);
	if (!status && c->kdamond_all && !(k->flags & CLI_ALL_KDAMONDS))
		status = cli_error(c, EXIT_USAGE, "--kdamond all: '%s %s' works on one kdamond (export damo and monitor status, start and stop take all)",
				   o->name, k->name);
	if (!status && !*k->args && argc)
		status = cli_error(c, EXIT_USAGE, "no arguments expected, got '%s'",
				   argv[0]);
	/* a batch's edits so far are applied before any other command runs */
	if (!status && !(k->flags & CLI_EDIT))
		status = cli_setup_flush(c);
	if (!status && watch_us)
		status = cli_watch(c, k, argc, argv, watch_us, count);
	else if (!status)
		status = cli_call(c, k, argc, argv);
	fflush(c->out);
	return status;
}

/*
 * The words that may follow argv[0..argc-1] (the words typed so far, the
 * one being completed excluded): objects, then commands, then the
 * command's keywords (actions first for "scheme add"/"scheme encode", the
 * fixed values after "quota" and "wmarks").
 * Returns a malloc()ed NULL-terminated array of static strings.
 */
const char **cli_complete_words(struct cli *c, int argc, char **argv)
{
	const char **out = calloc(64, sizeof(*out));
	const struct cli_object *o;
	const struct cli_cmd *k;
	int n = 0;

	if (!out)
		return NULL;
	if (argc == 0) {
		for (o = cli_objects; o->name && n < 63; o++)
			out[n++] = o->name;
		return out;
	}
	o = cli_object_find(argv[0]);
	if (!o)
		return out;
	if (!strcmp(o->name, "help")) {
		const struct cli_object *h = argc > 1 ? cli_object_find(argv[1]) : NULL;

		if (argc == 1)
			for (o = cli_objects; o->name && n < 63; o++)
				if (strcmp(o->name, "help"))
					out[n++] = o->name;
		if (argc == 2 && h)
			for (k = h->cmds; k->name && n < 63; k++)
				out[n++] = k->name;
		return out;
	}
	if (o->run) {
		if (o->run == record_run && argc >= 2)
			cli_complete_grammar(&record_grammar, argc - 2, argv + 2, out, &n);
		else if (argc == 1 && o->run == apply_run)
			out[n++] = "check";
		return out;
	}
	if (argc == 1) {
		for (k = o->cmds; k->name && n < 63; k++)
			out[n++] = k->name;
		return out;
	}
	k = cmd_select(o->cmds, argv[1]);
	if (!k)
		return out;
	if ((k->flags & CLI_INDEX) && argc == 2 && c) {
		n += cli_complete_indexes(c, out + n, 63 - n);
	} else if (k->grammar) {
		cli_complete_grammar(k->grammar, argc - 2, argv + 2, out, &n);
	} else if (k->flags & CLI_WATCH) {
		bool watch = false, count = false;
		const char *last = argv[argc - 1];

		for (int i = 2; i < argc; i++) {
			watch |= !strcmp(argv[i], "--watch");
			count |= !strcmp(argv[i], "--count");
		}
		/* after --watch or --count comes its value */
		if (strcmp(last, "--watch") && strcmp(last, "--count")) {
			if (!watch)
				out[n++] = "--watch";
			if (!count)
				out[n++] = "--count";
		}
	}
	return out;
}
