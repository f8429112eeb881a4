// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>

#include "cli.h"

/*
 * monitor start and stop: the kdamond's "on" edited (every kdamond's with
 * --kdamond all), one apply.  A paddr target of no region gets System
 * RAM first: it would monitor nothing.
 */
static int turn_edit(struct cli *c, struct damon_kdamond_setup *k, void *arg)
{
	bool on = *(const bool *)arg;

	if (on && !k->on) {
		int status = cli_paddr_fill(c, &k->targets, &(bool){ false });

		if (status)
			return status;
	}
	k->on = on;
	return EXIT_OK;
}

/* another DAMON user in the way (Linux 6.1) is the apply's to say */
static int do_turn(struct cli *c, bool on)
{
	return cli_setup_change(c, turn_edit, &on);
}

static int do_start(struct cli *c, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return do_turn(c, true);
}

static int do_stop(struct cli *c, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return do_turn(c, false);
}

/*
 * The context's setup after the state: what cannot be read is left out.
 * Text: one labelled line each; JSON: members of the status object @o.
 */
static void status_setup(struct cli *c, struct damon_ctx *d,
			 struct json_object *o)
{
	struct damon_opts opts;
	struct damos_scheme **arr;
	struct damon_targets t;
	struct damon_attrs a;
	struct json_object *j;
	size_t n;

	if (!damon_attrs_read(d, &a)) {
		if (o) {
			json_object_object_add(o, "attrs", json_attrs(&a));
		} else {
			fprintf(c->out, "%-9s ", "attrs");
			cli_print_attrs(c, &a);
			fputc('\n', c->out);
		}
	}
	if (!damon_targets_read(d, &t)) {
		if (o) {
			json_object_object_add(o, "targets", json_targets(&t));
		} else {
			fprintf(c->out, "%-9s ", "targets");
			cli_print_targets(c, &t);
			fputc('\n', c->out);
		}
	}
	damon_targets_free(&t);
	if (!damos_schemes_read(d, &arr, &n)) {
		if (o) {
			j = json_object_new_array();
			for (size_t i = 0; i < n; i++)
				json_object_array_add(j, json_str(damos_scheme_action_name(arr[i])));
			json_object_object_add(o, "schemes", j);
		} else {
			fprintf(c->out, "%-9s %zu", "schemes", n);
			for (size_t i = 0; i < n; i++)
				fprintf(c->out, "%s%s", i ? ", " : ": ",
					damos_scheme_action_name(arr[i]));
			fputc('\n', c->out);
		}
		damos_schemes_free(arr, n);
	}
	if (o) {
		json_object_object_add(o, "kernel", json_str(damos_kernel_desc(d)));
		j = json_object_new_array();
		for (int f = 0; f < DAMOS_NR_FEATURES; f++)
			if (damos_has(d, f) == 1)
				json_object_array_add(j, json_str(damos_feature_name(f)));
		json_object_object_add(o, "features", j);
	} else {
		int nr = 0;

		fprintf(c->out, "%-9s %s:", "features", damos_kernel_desc(d));
		for (int f = 0; f < DAMOS_NR_FEATURES; f++)
			if (damos_has(d, f) == 1 && ++nr)
				fprintf(c->out, " %s", damos_feature_name(f));
		/* a stock dbgfs: none of those damoctl asks about */
		fprintf(c->out, "%s\n", nr ? "" : " none");
	}
	cli_opts(c, &opts);
	/* each module the kernel has: lru_sort as "lru-sort", reclaim */
	for (const char *const *name = damon_module_names(); *name; name++) {
		struct damon_module *m = NULL;
		char label[32];
		bool on;

		if (damon_module_read(&opts, *name, &m))
			continue;
		on = damon_module_enabled(m);
		snprintf(label, sizeof(label), "%s", *name);
		for (char *u = label; *u; u++)
			if (*u == '_')
				*u = '-';
		if (o) {
			j = json_object_new_object();
			json_object_object_add(j, "enabled", json_object_new_boolean(on));
			json_object_object_add(j, "kdamond_pid",
					       json_object_new_int(damon_module_kdamond_pid(m)));
			json_object_object_add(o, *name, j);
		} else if (on) {
			fprintf(c->out, "%-9s on, kdamond pid %d\n", label,
				damon_module_kdamond_pid(m));
		} else {
			fprintf(c->out, "%-9s off\n", label);
		}
		damon_module_free(m);
	}
}

/*
 * One kdamond's status; under --kdamond all after a "kdamond N" line, or
 * as a JSON object with "kdamond": N added to the array @arg.
 */
static int status_one(struct cli *c, unsigned int i, void *arg)
{
	struct damon_ctx *d;
	bool on = false;
	int pid = -1, err;

	if (c->kdamond_all && !c->json)
		fprintf(c->out, "%skdamond %u\n", i ? "\n" : "", i);
	d = cli_open(c);
	if (!d)
		return EXIT_FAIL;
	err = damon_monitor_status(d, &on, &pid);
	if (err)
		return cli_close(c, d, cli_lib_error(c, err));
	if (c->json) {
		struct json_object *o = json_object_new_object();

		if (c->kdamond_all)
			json_object_object_add(o, "kdamond", json_object_new_int((int)i));
		json_object_object_add(o, "interface",
				       json_str(damon_iface_name(damon_get_iface(d))));
		json_object_object_add(o, "on", json_object_new_boolean(on));
		json_object_object_add(o, "pid", json_object_new_int(pid));
		status_setup(c, d, o);
		if (arg)
			json_object_array_add(arg, o);
		else
			json_print(c->out, o);
		return cli_close(c, d, EXIT_OK);
	}
	if (on && pid > 0)
		fprintf(c->out, "on (%s, kdamond pid %d)\n",
			damon_iface_name(damon_get_iface(d)), pid);
	else
		fprintf(c->out, "%s (%s)\n", on ? "on" : "off",
			damon_iface_name(damon_get_iface(d)));
	status_setup(c, d, NULL);
	return cli_close(c, d, EXIT_OK);
}

/* --kdamond all: each kdamond's status, or one exposition of them all */
static int do_status(struct cli *c, int argc, char **argv)
{
	struct json_object *arr;
	struct cli_metrics m;
	int err;

	err = cli_metrics_args(c, &argc, argv, &m);
	if (err || m.format != CLI_FORMAT_TEXT)
		return err ? err : cli_metrics_print(c, &m, true);
	if (!c->kdamond_all)
		return status_one(c, (unsigned int)c->kdamond, NULL);
	if (!c->json)
		return cli_each_kdamond(c, false, status_one, NULL);
	/* an array however many there are, each object with its index */
	arr = json_object_new_array();
	err = cli_each_kdamond(c, false, status_one, arr);
	if (!err)
		json_print(c->out, arr);
	else
		json_object_put(arr);
	return err;
}

/* cli.h: monitor start, stop and status and the metrics use it */
int cli_each_kdamond(struct cli *c, bool none_ok,
		     int (*fn)(struct cli *c, unsigned int i, void *arg),
		     void *arg)
{
	struct damon_ctx *d;
	unsigned int nr = 0;
	int saved = c->kdamond, status, err;

	d = cli_open(c);
	if (!d)
		return EXIT_FAIL;
	err = damon_kdamonds_count(d, &nr);
	status = cli_close(c, d, err ? cli_lib_error(c, err) : EXIT_OK);
	if (!status && !nr && !none_ok)
		status = cli_error(c, EXIT_FAIL, "--kdamond all: there is no kdamond");
	for (unsigned int i = 0; i < nr && !status; i++) {
		c->kdamond = (int)i;
		status = fn(c, i, arg);
	}
	c->kdamond = saved;
	return status;
}

const struct cli_cmd monitor_cmds[] = {
	{ "start", do_start, "", "start monitoring (needs a target); --kdamond all: every kdamond", NULL,
	  CLI_WRITE | CLI_EDIT | CLI_ALL_KDAMONDS },
	{ "stop", do_stop, "", "stop monitoring; --kdamond all: every kdamond", NULL,
	  CLI_WRITE | CLI_EDIT | CLI_ALL_KDAMONDS },
	{ "status", do_status, CLI_METRICS_ARGS,
	  "print whether monitoring runs, and the attrs, targets and schemes it runs with; --kdamond all: of every kdamond",
	  NULL, CLI_WATCH | CLI_ALL_KDAMONDS },
	{ NULL },
};
