// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One change of one kdamond as read → edit → apply: the whole setup read,
 * the kdamond the options name edited in memory, the setup applied once
 * (damon_setup_apply(): the library's one write order, the read-back
 * before the commit point, everything put back on a failure).  A dry run
 * prints the plan.
 */
#include <errno.h>
#include <stdlib.h>

#include "cli.h"

int cli_setup_change(struct cli *c,
		     int (*edit)(struct cli *c, struct damon_kdamond_setup *k,
				 void *arg),
		     void *arg)
{
	struct damon_setup *s = NULL;
	struct damon_opts o;
	char *plan = NULL;
	size_t k;
	int err, status;

	cli_opts(c, &o);
	err = damon_setup_read(&o, &s);
	if (err)
		return cli_lib_error(c, err);
	if (s->iface == DAMON_IFACE_AUTO) {
		damon_setup_free(s);
		return cli_error(c, EXIT_FAIL, "no DAMON interface below %s",
				 c->root ? c->root : "/");
	}
	k = s->iface == DAMON_IFACE_SYSFS ? (size_t)c->kdamond : 0;
	if (k >= s->nr_kdamonds && !(k == 0 && s->nr_kdamonds == 0)) {
		status = cli_error(c, EXIT_FAIL, "kdamond %zu does not exist: making it means writing nr_kdamonds, which would remove the %zu kdamond%s there with %s setup: use --kdamond 0..%zu",
				   k, s->nr_kdamonds, s->nr_kdamonds == 1 ? "" : "s",
				   s->nr_kdamonds == 1 ? "its" : "their",
				   s->nr_kdamonds - 1);
		damon_setup_free(s);
		return status;
	}
	if (!s->nr_kdamonds) {
		/* no kdamond yet: kdamond 0 is made (nr_kdamonds 1) */
		s->kdamonds = calloc(1, sizeof(*s->kdamonds));
		if (!s->kdamonds) {
			damon_setup_free(s);
			return cli_error(c, EXIT_FAIL, "out of memory");
		}
		s->nr_kdamonds = 1;
		damon_attrs_default(&s->kdamonds[0].attrs);
	}
	status = edit(c, &s->kdamonds[k], arg);
	if (!status) {
		err = damon_setup_apply(&o, s, c->dry_run ? &plan : NULL);
		cli_print_script(c, damon_iface_name(s->iface), plan);
		free(plan);
		if (err)
			status = cli_lib_error(c, err);
	}
	damon_setup_free(s);
	return status;
}
