// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdlib.h>
#include <string.h>

#include "cli.h"

void cli_print_attrs(struct cli *c, const struct damon_attrs *a)
{
	char s[32], g[32], u[32];

	if (c->json)
		json_write(c->out, json_attrs(a));
	else
		fprintf(c->out, "sample %s aggr %s update %s regions %llu %llu",
			damos_format_time_us(a->sample_us, s, sizeof(s)),
			damos_format_time_us(a->aggr_us, g, sizeof(g)),
			damos_format_time_us(a->update_us, u, sizeof(u)),
			(unsigned long long)a->min_nr_regions,
			(unsigned long long)a->max_nr_regions);
}

static int do_show(struct cli *c, int argc, char **argv)
{
	struct damon_attrs a;
	struct damon_ctx *d;
	int status;

	(void)argc;
	(void)argv;
	d = cli_open(c);
	if (!d)
		return EXIT_FAIL;
	status = cli_attrs(c, d, &a);
	if (!status) {
		cli_print_attrs(c, &a);
		fputc('\n', c->out);
	}
	return cli_close(c, d, status);
}

struct words {
	int argc;
	char **argv;
};

/* attrs set: the values given over the kdamond's */
static int set_edit(struct cli *c, struct damon_kdamond_setup *k, void *arg)
{
	const struct words *w = arg;
	struct damon_attrs a = k->attrs;
	int err = damon_attrs_parse(&a, w->argc, (const char *const *)w->argv);

	if (err)
		return cli_parse_error(c, err);
	k->attrs = a;
	return EXIT_OK;
}

static int do_set(struct cli *c, int argc, char **argv)
{
	/* any value that fails over these fails over every live setting */
	struct damon_attrs a = {
		.sz = sizeof(a),
		.sample_us = 1, .aggr_us = UINT64_MAX >> 1, .update_us = 1,
		.min_nr_regions = 3, .max_nr_regions = UINT64_MAX >> 1,
	};
	struct words w = { argc, argv };
	struct damon_ctx *d;
	int status, err;
	char *msg;

	d = cli_open_quiet(c);
	if (!d) {
		/* a bad word is a usage error even where there is no DAMON */
		msg = strdup(cli_errmsg());
		err = damon_attrs_parse(&a, argc, (const char *const *)argv);
		status = err ? cli_parse_error(c, err) :
			 cli_error(c, EXIT_FAIL, "%s", msg ? msg : "cannot open DAMON");
		free(msg);
		return status;
	}
	damon_close(d);
	return cli_setup_change(c, set_edit, &w);
}

static const struct cli_grammar attrs_grammar = {
	.kws = (const struct kw_spec[]){
		{ "sample", 1, .args = "TIME",
		  .help = "sampling interval (us ms s m h; bare: us)" },
		{ "aggr", 1, .args = "TIME",
		  .help = "aggregation interval: ages count these" },
		{ "update", 1, .args = "TIME",
		  .help = "interval of the operations' updates (vaddr: mappings)" },
		{ "regions", 2, .args = "MIN MAX",
		  .help = "number of monitoring regions (MIN at least 3)" },
		{ NULL },
	},
};

const struct cli_cmd attrs_cmds[] = {
	{ "show", do_show, "", "print the monitoring attributes", NULL },
	{ "set", do_set, "[sample TIME] [aggr TIME] [update TIME] [regions MIN MAX]",
	  "change the given attributes, keeping the others", &attrs_grammar,
	  CLI_WRITE | CLI_EDIT },
	{ NULL },
};
