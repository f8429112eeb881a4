// SPDX-License-Identifier: GPL-2.0-or-later
#include "cli.h"

static int turn(struct cli *c, int argc, bool on)
{
	struct damos *d;
	int err;

	if (argc)
		return cli_error(c, EXIT_USAGE, "no arguments expected");
	d = cli_open(c);
	if (!d)
		return EXIT_FAIL;
	err = on ? damos_monitor_start(d) : damos_monitor_stop(d);
	return cli_close(c, d, err ? cli_lib_error(c, err) : EXIT_OK);
}

static int do_start(struct cli *c, int argc, char **argv)
{
	(void)argv;
	return turn(c, argc, true);
}

static int do_stop(struct cli *c, int argc, char **argv)
{
	(void)argv;
	return turn(c, argc, false);
}

static int do_status(struct cli *c, int argc, char **argv)
{
	struct damos *d;
	bool on = false;
	int pid = -1, err;

	(void)argv;
	if (argc)
		return cli_error(c, EXIT_USAGE, "no arguments expected");
	d = cli_open(c);
	if (!d)
		return EXIT_FAIL;
	err = damos_monitor_status(d, &on, &pid);
	if (err)
		return cli_close(c, d, cli_lib_error(c, err));
	if (c->json)
		fprintf(c->out, "{\"interface\":\"%s\",\"on\":%s,\"pid\":%d}\n",
			damos_iface_name(damos_get_iface(d)),
			on ? "true" : "false", pid);
	else if (on && pid > 0)
		fprintf(c->out, "on (%s, kdamond pid %d)\n",
			damos_iface_name(damos_get_iface(d)), pid);
	else
		fprintf(c->out, "%s (%s)\n", on ? "on" : "off",
			damos_iface_name(damos_get_iface(d)));
	return cli_close(c, d, EXIT_OK);
}

const struct cli_cmd monitor_cmds[] = {
	{ "start", do_start, "", "start monitoring (needs a target)", NULL },
	{ "stop", do_stop, "", "stop monitoring", NULL },
	{ "status", do_status, "", "print whether monitoring runs", NULL, CLI_WATCH },
	{ NULL },
};
