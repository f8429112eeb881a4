// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>

#include "cli.h"

static int turn(struct cli *c, bool on)
{
	struct damos_ctx *d;
	int err;

	d = cli_open(c);
	if (!d)
		return EXIT_FAIL;
	/* start: the paddr region it fills in and the start are one */
	if (on && (err = damos_txn_begin(d)))
		return cli_close(c, d, cli_lib_error(c, err));
	if (on) {
		struct damos_targets t;
		bool filled = false, was_on = false;
		int status = EXIT_OK;

		/* paddr without a region would monitor nothing */
		err = damos_monitor_status(d, &was_on, NULL);
		if (!err && !was_on)
			err = damos_monitor_check_start(d);
		if (!err && !was_on)
			err = damos_targets_read(d, &t);
		if (!err && !was_on) {
			status = cli_paddr_fill(c, &t, &filled);
			if (!status && filled && (err = damos_targets_write(d, &t)))
				status = cli_lib_error(c, err);
			if (!status && filled)
				status = cli_verify_targets(c, d, &t);
			damos_targets_free(&t);
			if (status) {
				err = damos_txn_end(d, -ECANCELED);
				if (err == -ENOTRECOVERABLE)
					status = cli_lib_error(c, err);
				return cli_close(c, d, status);
			}
		}
		if (err)
			return cli_close(c, d, cli_lib_error(c, damos_txn_end(d, err)));
	}
	err = on ? damos_monitor_start(d) : damos_monitor_stop(d);
	if (on)
		err = damos_txn_end(d, err);
	return cli_close(c, d, err ? cli_lib_error(c, err) : EXIT_OK);
}

static int do_start(struct cli *c, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return turn(c, true);
}

static int do_stop(struct cli *c, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return turn(c, false);
}

/*
 * The context's setup after the state: what cannot be read is left out.
 * Text: one labelled line each; JSON: members of the status object.
 */
static void status_setup(struct cli *c, struct damos_ctx *d)
{
	struct damos_opts o;
	struct damos_lru_sort *l = NULL;
	struct damos_scheme **arr;
	struct damos_targets t;
	struct damos_attrs a;
	const char *fmt = c->json ? ",\"%s\":" : "%-9s ";
	const char *end = c->json ? "" : "\n";
	size_t n;

	if (!damos_attrs_read(d, &a)) {
		fprintf(c->out, fmt, "attrs");
		cli_print_attrs(c, &a);
		fputs(end, c->out);
	}
	if (!damos_targets_read(d, &t)) {
		fprintf(c->out, fmt, "targets");
		cli_print_targets(c, &t);
		fputs(end, c->out);
	}
	damos_targets_free(&t);
	if (!damos_schemes_read(d, &arr, &n)) {
		fprintf(c->out, fmt, "schemes");
		if (c->json) {
			fputc('[', c->out);
			for (size_t i = 0; i < n; i++)
				fprintf(c->out, "%s\"%s\"", i ? "," : "",
					damos_scheme_action_name(arr[i]));
			fputc(']', c->out);
		} else {
			fprintf(c->out, "%zu", n);
			for (size_t i = 0; i < n; i++)
				fprintf(c->out, "%s%s", i ? ", " : ": ",
					damos_scheme_action_name(arr[i]));
			fputc('\n', c->out);
		}
		damos_schemes_free(arr, n);
	}
	fprintf(c->out, fmt, c->json ? "kernel" : "features");
	if (c->json) {
		json_str(c->out, damos_kernel_desc(d));
		fprintf(c->out, ",\"features\":[");
	} else {
		fprintf(c->out, "%s:", damos_kernel_desc(d));
	}
	for (int f = 0, k = 0; f < DAMOS_NR_FEATURES; f++) {
		if (damos_has(d, f) != 1)
			continue;
		if (c->json)
			fprintf(c->out, "%s\"%s\"", k++ ? "," : "", damos_feature_name(f));
		else
			fprintf(c->out, " %s", damos_feature_name(f));
	}
	fputs(c->json ? "]" : "\n", c->out);
	cli_opts(c, &o);
	if (!damos_lru_sort_read(&o, &l)) {
		bool on = damos_lru_sort_enabled(l);

		fprintf(c->out, fmt, c->json ? "lru_sort" : "lru-sort");
		if (c->json)
			fprintf(c->out, "{\"enabled\":%s,\"kdamond_pid\":%d}",
				on ? "true" : "false", damos_lru_sort_kdamond_pid(l));
		else if (on)
			fprintf(c->out, "on, kdamond pid %d\n",
				damos_lru_sort_kdamond_pid(l));
		else
			fprintf(c->out, "off\n");
	}
	damos_lru_sort_free(l);
}

static int do_status(struct cli *c, int argc, char **argv)
{
	struct cli_metrics m;
	struct damos_ctx *d;
	bool on = false;
	int pid = -1, err;

	err = cli_metrics_args(c, &argc, argv, &m);
	if (err || m.format != CLI_FORMAT_TEXT)
		return err ? err : cli_metrics_print(c, &m, true);
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
		status_setup(c, d);
		fprintf(c->out, "}\n");
		return cli_close(c, d, EXIT_OK);
	}
	if (on && pid > 0)
		fprintf(c->out, "on (%s, kdamond pid %d)\n",
			damos_iface_name(damos_get_iface(d)), pid);
	else
		fprintf(c->out, "%s (%s)\n", on ? "on" : "off",
			damos_iface_name(damos_get_iface(d)));
	status_setup(c, d);
	return cli_close(c, d, EXIT_OK);
}

const struct cli_cmd monitor_cmds[] = {
	{ "start", do_start, "", "start monitoring (needs a target)", NULL,
	  CLI_WRITE },
	{ "stop", do_stop, "", "stop monitoring", NULL, CLI_WRITE },
	{ "status", do_status, CLI_METRICS_ARGS,
	  "print whether monitoring runs, and the attrs, targets and schemes it runs with",
	  NULL, CLI_WATCH },
	{ NULL },
};
