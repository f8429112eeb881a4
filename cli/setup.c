// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One change of one kdamond as read → edit → apply: the whole setup read,
 * the kdamond the options name edited in memory, the setup applied once
 * (damon_setup_apply(): the library's one write order, the read-back
 * before the commit point, everything put back on a failure).  With
 * --kdamond all every kdamond is edited, and applied together.  A dry run
 * prints the plan.  In a batch (without --force) the edits of the lines
 * in a row go to one setup, applied once before the next other command
 * and at the batch's end: the batch's writes are the difference between
 * before and after, not each line's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* @s applied (its plan printed, under @what, in a dry run) at once. */
static int apply(struct cli *c, struct damon_setup *s, const char *what)
{
	struct damon_opts o;
	char *plan = NULL;
	int err;

	cli_opts(c, &o);
	err = damon_setup_apply(&o, s, c->dry_run ? &plan : NULL);
	cli_print_script(c, what, plan);
	free(plan);
	return err ? cli_lib_error(c, err) : EXIT_OK;
}

static void edits_join(struct cli *c, bool first);

/* The setup to edit: read now, or the batch's edits so far. */
static int setup_get(struct cli *c, struct damon_setup **out)
{
	struct damon_opts o;
	int err;

	*out = c->edits;
	if (*out)
		return EXIT_OK;
	cli_opts(c, &o);
	err = damon_setup_read(&o, out);
	return err ? cli_lib_error(c, err) : EXIT_OK;
}

/* The kdamond the options name in @s (dbgfs: its one context). */
static size_t kdamond_of(const struct cli *c, const struct damon_setup *s)
{
	return s->iface == DAMON_IFACE_SYSFS ? (size_t)c->kdamond : 0;
}

bool cli_setup_attrs(const struct cli *c, struct damon_attrs *a)
{
	size_t k = c->edits ? kdamond_of(c, c->edits) : 0;

	if (!c->edits || k >= c->edits->nr_kdamonds)
		return false;
	*a = c->edits->kdamonds[k].attrs;
	return true;
}

/* @s, unless it is the batch's: its edits so far stay. */
static void setup_put(struct cli *c, struct damon_setup *s)
{
	if (s != c->edits)
		damon_setup_free(s);
}

/*
 * @s edited (the interface's or module's, @what): applied now, or kept as
 * the batch's edits.
 */
static int setup_done(struct cli *c, struct damon_setup *s, const char *what)
{
	int status;

	if (c->batch_edits) {
		/* edits of several say the interface's name */
		if (c->edits && strcmp(c->edits_what, what))
			what = damon_iface_name(s->iface);
		edits_join(c, !c->edits);
		snprintf(c->edits_what, sizeof(c->edits_what), "%s", what);
		c->edits = s;
		return EXIT_OK;
	}
	status = apply(c, s, what);
	damon_setup_free(s);
	return status;
}

/* The batch line now run joins its edits: its line, its command. */
static void edits_join(struct cli *c, bool first)
{
	const char *colon = c->where ? strrchr(c->where, ':') : NULL;
	size_t n;

	if (first) {
		snprintf(c->edits_where, sizeof(c->edits_where), "%s",
			 c->where ? c->where : "");
		c->edits_line[0] = '\0';
	}
	snprintf(c->edits_last, sizeof(c->edits_last), "%s",
		 colon ? colon + 1 : "");
	n = strlen(c->edits_line);
	snprintf(c->edits_line + n, sizeof(c->edits_line) - n, "%s%s",
		 n ? "; " : "", c->line);
}

/*
 * Kdamond @k of @s edited.  *@stopped: the edit turned it off (a batch
 * applies that at once, so that "monitor stop ... monitor start" restarts
 * it, as the lines one by one do).
 */
static int edit_one(struct cli *c, struct damon_setup *s, size_t k,
		    int (*edit)(struct cli *c, struct damon_kdamond_setup *k,
				void *arg),
		    void *arg, bool *stopped)
{
	bool was_on = s->kdamonds[k].on;
	int status = edit(c, &s->kdamonds[k], arg);

	*stopped |= !status && was_on && !s->kdamonds[k].on;
	return status;
}

/* A kdamond as nr_kdamonds makes it: nothing set, off. */
static bool kdamond_empty(const struct damon_kdamond_setup *k)
{
	struct damon_attrs def;

	damon_attrs_default(&def);
	return !k->on && !k->nr_schemes && !k->targets.nr &&
	       !memcmp(&k->attrs, &def, sizeof(def));
}

int cli_setup_change(struct cli *c,
		     int (*edit)(struct cli *c, struct damon_kdamond_setup *k,
				 void *arg),
		     void *arg)
{
	struct damon_setup *s = NULL;
	bool made = false, stopped = false;
	size_t k;
	int status;

	status = setup_get(c, &s);
	if (status)
		return status;
	k = kdamond_of(c, s);
	if (s->iface == DAMON_IFACE_AUTO)
		status = cli_error(c, EXIT_FAIL, "no DAMON interface below %s",
				   c->root ? c->root : "/");
	else if (c->kdamond_all && !s->nr_kdamonds)
		status = cli_error(c, EXIT_FAIL, "--kdamond all: there is no kdamond");
	else if (!c->kdamond_all && k >= s->nr_kdamonds &&
		 !(k == 0 && s->nr_kdamonds == 0))
		status = cli_error(c, EXIT_FAIL, "kdamond %zu does not exist: making it means writing nr_kdamonds, which would remove the %zu kdamond%s there with %s setup: use --kdamond 0..%zu",
				   k, s->nr_kdamonds, s->nr_kdamonds == 1 ? "" : "s",
				   s->nr_kdamonds == 1 ? "its" : "their",
				   s->nr_kdamonds - 1);
	if (!status && !s->nr_kdamonds) {
		/* no kdamond yet: kdamond 0 is made (nr_kdamonds 1) */
		s->kdamonds = calloc(1, sizeof(*s->kdamonds));
		made = s->kdamonds;
		if (made) {
			s->nr_kdamonds = 1;
			damon_attrs_default(&s->kdamonds[0].attrs);
		} else {
			status = cli_error(c, EXIT_FAIL, "out of memory");
		}
	}
	if (!status && c->kdamond_all)
		for (k = 0; !status && k < s->nr_kdamonds; k++)
			status = edit_one(c, s, k, edit, arg, &stopped);
	else if (!status)
		status = edit_one(c, s, k, edit, arg, &stopped);
	if (status) {
		/* a batch stops at a failed line: its edits go with it */
		setup_put(c, s);
		return status;
	}
	/* monitor stop, target clear where there is no kdamond: none made */
	if (made && kdamond_empty(&s->kdamonds[0])) {
		free(s->kdamonds);
		s->kdamonds = NULL;
		s->nr_kdamonds = 0;
	}
	status = setup_done(c, s, damon_iface_name(s->iface));
	return !status && stopped ? cli_setup_flush(c) : status;
}

int cli_setup_edit(struct cli *c,
		   int (*edit)(struct cli *c, struct damon_setup *s, void *arg),
		   void *arg)
{
	struct damon_setup *s = NULL;
	int status = setup_get(c, &s);

	if (!status && (status = edit(c, s, arg)))
		setup_put(c, s);
	return status ? status : setup_done(c, s, damon_iface_name(s->iface));
}

/* A module the setup lacks: the library's reason (the directory named). */
static int no_module(struct cli *c, const char *name)
{
	struct damon_module *m = NULL;
	struct damon_opts o;
	int err;

	cli_opts(c, &o);
	err = damon_module_read(&o, name, &m);
	damon_module_free(m);
	return err ? cli_lib_error(c, err) :
		     cli_error(c, EXIT_FAIL, "this kernel has no damon_%s", name);
}

int cli_setup_module_change(struct cli *c, const char *name,
			    int (*edit)(struct cli *c, struct damon_module_setup *m,
					void *arg),
			    void *arg)
{
	struct damon_setup *s = NULL;
	struct damon_module_setup *m = NULL;
	char what[32];
	int status = setup_get(c, &s);

	if (status)
		return status;
	for (size_t i = 0; i < s->nr_modules; i++)
		if (!strcmp(damon_module_name(s->modules[i].module), name))
			m = &s->modules[i];
	status = m ? edit(c, m, arg) : no_module(c, name);
	if (status) {
		setup_put(c, s);
		return status;
	}
	snprintf(what, sizeof(what), "damon_%s", name);
	return setup_done(c, s, what);
}

int cli_setup_flush(struct cli *c)
{
	struct damon_setup *s = c->edits;
	const char *where = c->where, *object = c->object, *command = c->command;
	const char *first = strrchr(c->edits_where, ':');
	char line[sizeof(c->line)], range[sizeof(c->edits_where) + 32];
	int status;

	if (!s)
		return EXIT_OK;
	c->edits = NULL;
	/* what is said is of the edit lines: FILE:FIRST[-LAST], their plan */
	snprintf(range, sizeof(range), "%s%s%s", c->edits_where,
		 first && strcmp(first + 1, c->edits_last) ? "-" : "",
		 first && strcmp(first + 1, c->edits_last) ? c->edits_last : "");
	memcpy(line, c->line, sizeof(line));
	snprintf(c->line, sizeof(c->line), "%s", c->edits_line);
	c->where = range[0] ? range : NULL;
	c->object = c->command = NULL;
	status = apply(c, s, c->edits_what);
	c->where = where;
	c->object = object;
	c->command = command;
	memcpy(c->line, line, sizeof(line));
	damon_setup_free(s);
	return status;
}

void cli_setup_drop(struct cli *c)
{
	damon_setup_free(c->edits);
	c->edits = NULL;
}
