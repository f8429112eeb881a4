// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * target set/clear and monitor start, which write targets outside the
 * setup apply (damon_setup_apply() reads back itself): after the write,
 * under the lock, read back and check that what was meant is there.  A
 * program that writes without the lock (libdamos(3)) may have changed the
 * files between damoctl's read and its write, or just after; then the
 * command fails and says what is there now, rather than exit 0 with the
 * change lost.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define CHANGED "another program changed the %s while damoctl wrote them (a program that does not take the lock: see LOCKING in damoctl(8)): "

static void print_targets(struct cli *c, const void *t)
{
	cli_print_targets(c, t);
}

/* The failure: what is there now, as @print shows it in text. */
static int changed(struct cli *c, const char *what,
		   void (*print)(struct cli *c, const void *x), const void *x)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = c->out, *f = open_memstream(&text, &len);

	if (f) {
		bool json = c->json;

		c->out = f;
		c->json = false;
		print(c, x);
		c->json = json;
		c->out = out;
		fclose(f);
	}
	cli_error(c, EXIT_FAIL, CHANGED "they are now %s", what,
		  text ? text : "?");
	free(text);
	return EXIT_FAIL;
}

int cli_verify_targets(struct cli *c, struct damon_ctx *d,
		       const struct damon_targets *want)
{
	struct damon_targets t;
	int err, status;

	if (c->dry_run)
		return EXIT_OK;
	err = damon_targets_read(d, &t);
	if (err)
		return cli_lib_error(c, err);
	status = damon_targets_same(d, &t, want) ? EXIT_OK :
		 changed(c, "targets", print_targets, &t);
	damon_targets_free(&t);
	return status;
}
