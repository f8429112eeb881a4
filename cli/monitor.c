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

/* The context's setup under the state line; what cannot be read is said. */
static void status_table(struct cli *c, struct damos *d)
{
	struct damos_opts o = DAMOS_OPTS_INIT;
	struct damos_lru_sort *l = NULL;
	struct damos_scheme **arr;
	struct damos_targets t;
	struct damos_attrs a;
	char x[32], y[32], z[32];
	size_t n;

	if (!damos_attrs_read(d, &a))
		fprintf(c->out, "%-9s sample %s aggr %s update %s regions %llu %llu\n",
			"attrs", damos_format_time_us(a.sample_us, x, sizeof(x)),
			damos_format_time_us(a.aggr_us, y, sizeof(y)),
			damos_format_time_us(a.update_us, z, sizeof(z)),
			(unsigned long long)a.min_nr_regions,
			(unsigned long long)a.max_nr_regions);
	if (!damos_targets_read(d, &t)) {
		fprintf(c->out, "%-9s %s", "targets", t.nr ? damos_ops_name(t.ops) : "none");
		for (size_t i = 0; i < t.nr; i++) {
			if (t.ops == DAMOS_OPS_VADDR)
				fprintf(c->out, " pid %d", t.targets[i].pid);
			for (size_t r = 0; r < t.targets[i].nr_regions; r++)
				fprintf(c->out, " region 0x%llx 0x%llx",
					(unsigned long long)t.targets[i].regions[r].start,
					(unsigned long long)t.targets[i].regions[r].end);
		}
		fprintf(c->out, "\n");
	}
	damos_targets_free(&t);
	if (!damos_schemes_read(d, &arr, &n)) {
		fprintf(c->out, "%-9s %zu", "schemes", n);
		for (size_t i = 0; i < n; i++)
			fprintf(c->out, "%s%s", i ? ", " : ": ",
				damos_action_name(damos_scheme_action(arr[i])));
		fprintf(c->out, "\n");
		damos_schemes_free(arr, n);
	}
	o.root = c->root;
	if (!damos_lru_sort_read(&o, &l)) {
		if (damos_lru_sort_enabled(l))
			fprintf(c->out, "%-9s on, kdamond pid %d\n", "lru-sort",
				damos_lru_sort_kdamond_pid(l));
		else
			fprintf(c->out, "%-9s off\n", "lru-sort");
	}
	damos_lru_sort_free(l);
}

static void status_json(struct cli *c, struct damos *d)
{
	struct damos_opts o = DAMOS_OPTS_INIT;
	struct damos_lru_sort *l = NULL;
	struct damos_scheme **arr;
	struct damos_attrs a;
	size_t n;

	if (!damos_attrs_read(d, &a))
		fprintf(c->out, ",\"attrs\":{\"sample_us\":%llu,\"aggr_us\":%llu,\"update_us\":%llu,\"min_nr_regions\":%llu,\"max_nr_regions\":%llu}",
			(unsigned long long)a.sample_us,
			(unsigned long long)a.aggr_us,
			(unsigned long long)a.update_us,
			(unsigned long long)a.min_nr_regions,
			(unsigned long long)a.max_nr_regions);
	if (!damos_schemes_read(d, &arr, &n)) {
		fprintf(c->out, ",\"schemes\":[");
		for (size_t i = 0; i < n; i++)
			fprintf(c->out, "%s\"%s\"", i ? "," : "",
				damos_action_name(damos_scheme_action(arr[i])));
		fprintf(c->out, "]");
		damos_schemes_free(arr, n);
	}
	o.root = c->root;
	if (!damos_lru_sort_read(&o, &l))
		fprintf(c->out, ",\"lru_sort\":{\"enabled\":%s,\"kdamond_pid\":%d}",
			damos_lru_sort_enabled(l) ? "true" : "false",
			damos_lru_sort_kdamond_pid(l));
	damos_lru_sort_free(l);
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
	if (c->json) {
		fprintf(c->out, "{\"interface\":\"%s\",\"on\":%s,\"pid\":%d",
			damos_iface_name(damos_get_iface(d)),
			on ? "true" : "false", pid);
		status_json(c, d);
		fprintf(c->out, "}\n");
		return cli_close(c, d, EXIT_OK);
	}
	if (on && pid > 0)
		fprintf(c->out, "on (%s, kdamond pid %d)\n",
			damos_iface_name(damos_get_iface(d)), pid);
	else
		fprintf(c->out, "%s (%s)\n", on ? "on" : "off",
			damos_iface_name(damos_get_iface(d)));
	status_table(c, d);
	return cli_close(c, d, EXIT_OK);
}

const struct cli_cmd monitor_cmds[] = {
	{ "start", do_start, "", "start monitoring (needs a target)", NULL },
	{ "stop", do_stop, "", "stop monitoring", NULL },
	{ "status", do_status, "",
	  "print whether monitoring runs, and the attrs, targets and schemes it runs with",
	  NULL, CLI_WATCH },
	{ NULL },
};
