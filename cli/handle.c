// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The DAMON handle a command opens, as the global options name it, and
 * what closing it prints: the writes of a dry run.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

void cli_opts(struct cli *c, struct damon_opts *o)
{
	struct damon_opts def = DAMON_OPTS_INIT;

	*o = def;
	o->root = c->root;
	o->iface = c->iface;
	o->layers = cli_layers(c);
	o->kdamond = c->kdamond;
	o->dbgfs_ctx = c->dbgfs_ctx;
}

/* The handle the options name; NULL with errno and damos_errmsg() set. */
struct damon_ctx *cli_open_quiet(struct cli *c)
{
	struct damon_opts o;

	cli_opts(c, &o);
	return damon_open(&o);
}

struct damon_ctx *cli_open(struct cli *c)
{
	struct damon_ctx *d = cli_open_quiet(c);

	int err;

	if (!d) {
		cli_lib_error(c, -errno);
		return NULL;
	}
	/* reads of a context that is not there would show made-up defaults */
	err = c->writing ? 0 : damon_context_check(d);
	if (err) {
		cli_lib_error(c, err);
		damon_close(d);
		return NULL;
	}
	return d;
}

/* The writes of a dry run, after a header the first time (@what: where). */
void cli_print_script(struct cli *c, const char *what, const char *script)
{
	if (!c->dry_run || !script || !*script)
		return;
	if (c->json && c->capture) {
		size_t n = c->json_script ? strlen(c->json_script) : 0;
		char *s = realloc(c->json_script, n + strlen(script) + 1);

		if (s) {
			strcpy(s + n, script);
			c->json_script = s;
		}
	} else if (c->json) {
		json_print_str(c->out, "dry_run", script);
	} else {
		if (!c->script_started)
			fprintf(c->out,
				"#!/bin/sh\n"
				"# damoctl --dry-run: these writes were not made.\n"
				"# Any POSIX sh runs it: each file gets one write(), several\n"
				"# lines through cat from a here-document.\n"
				"set -e\n");
		fprintf(c->out, "# damoctl %s (%s)\n%s", c->line, what, script);
	}
	c->script_started = true;
}

int cli_close(struct cli *c, struct damon_ctx *d, int status)
{
	if (!d)
		return status;
	cli_print_script(c, damon_iface_name(damon_get_iface(d)),
			 damos_dry_run_script(d));
	damon_close(d);
	return status;
}

int cli_attrs(struct cli *c, struct damon_ctx *d, struct damon_attrs *a)
{
	int err;

	/* a batch's edits so far: as a line before set them */
	if (cli_setup_attrs(c, a))
		return 0;
	err = damon_attrs_read(d, a);

	if (err)
		return cli_lib_error(c, err);
	return 0;
}
