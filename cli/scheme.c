// SPDX-License-Identifier: GPL-2.0-or-later
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static int parse_scheme(struct cli *c, struct damos_ctx *d, int argc, char **argv,
			struct damos_scheme **out)
{
	struct damos_attrs a;

	if (argc < 1)
		return cli_error(c, EXIT_USAGE,
				 "expected an action (see damoctl help scheme)");
	if (d) {
		int status = cli_attrs(c, d, &a);

		if (status)
			return status;
	} else {
		damos_attrs_default(&a);
	}
	*out = damos_scheme_parse(argc, (const char *const *)argv, &a);
	if (!*out)
		return cli_error(c, EXIT_USAGE, "%s", damos_errmsg());
	return EXIT_OK;
}

/*
 * Where DAMON cannot be opened, the words are still checked, under the
 * default attributes: wrong words are a usage error (2) whether or not
 * there is a DAMON, and that is what the user has to fix first.
 */
static struct damos_ctx *open_for_words(struct cli *c, int argc, char **argv,
				    int *status)
{
	struct damos_scheme *s = NULL;
	struct damos_ctx *d = cli_open_quiet(c);
	char *msg;

	if (d)
		return d;
	msg = strdup(damos_errmsg());
	*status = parse_scheme(c, NULL, argc, argv, &s);
	damos_scheme_free(s);
	if (!*status)
		*status = cli_error(c, EXIT_FAIL, "%s", msg ? msg : "cannot open DAMON");
	free(msg);
	return NULL;
}

static int do_add(struct cli *c, int argc, char **argv)
{
	struct damos_scheme *s = NULL;
	int status, idx;
	struct damos_ctx *d = open_for_words(c, argc, argv, &status);

	if (!d)
		return status;
	status = parse_scheme(c, d, argc, argv, &s);
	if (!status) {
		idx = damos_scheme_add(d, s);
		if (idx < 0)
			status = cli_lib_error(c, idx);
		else if (c->json && !c->dry_run)
			fprintf(c->out, "{\"index\":%d}\n", idx);
	}
	damos_scheme_free(s);
	return cli_close(c, d, status);
}

static int do_list(struct cli *c, int argc, char **argv)
{
	struct damos_scheme **arr;
	struct damos_ctx *d;
	char line[512];
	size_t n;
	int err;

	(void)argc;
	(void)argv;
	d = cli_open(c);
	if (!d)
		return EXIT_FAIL;
	err = damos_schemes_read(d, &arr, &n);
	if (err)
		return cli_close(c, d, cli_lib_error(c, err));
	if (c->json)
		fprintf(c->out, "[");
	for (size_t i = 0; i < n; i++) {
		if (c->json) {
			fprintf(c->out, "%s", i ? "," : "");
			json_scheme(c->out, arr[i], (int)i);
		} else if (damos_scheme_format(arr[i], line, sizeof(line)) > 0) {
			fprintf(c->out, "%zu: %s\n", i, line);
		}
	}
	if (c->json)
		fprintf(c->out, "]\n");
	damos_schemes_free(arr, n);
	return cli_close(c, d, EXIT_OK);
}

static int parse_index(struct cli *c, const char *s, size_t *idx)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	/* strtoul() takes blanks and a sign: "-1" would be ULONG_MAX */
	if (errno || *end || end == s || !isdigit((unsigned char)*s))
		return cli_error(c, EXIT_USAGE,
				 "'%s' is not a scheme index (0, 1, ...: see damoctl scheme list)",
				 s);
	*idx = v;
	return EXIT_OK;
}

static int do_rm(struct cli *c, int argc, char **argv)
{
	struct damos_ctx *d;
	size_t idx = 0;
	int status, err;

	if (argc != 1)
		return argc ? cli_error(c, EXIT_USAGE,
					"'%s' after INDEX %s: one scheme at a time",
					argv[1], argv[0]) :
			      cli_error(c, EXIT_USAGE, "expected INDEX");
	status = parse_index(c, argv[0], &idx);
	if (status)
		return status;
	d = cli_open(c);
	if (!d)
		return EXIT_FAIL;
	err = damos_scheme_remove(d, idx);
	return cli_close(c, d, err ? cli_lib_error(c, err) : EXIT_OK);
}

static int do_clear(struct cli *c, int argc, char **argv)
{
	struct damos_ctx *d;
	int err;

	(void)argc;
	(void)argv;
	d = cli_open(c);
	if (!d)
		return EXIT_FAIL;
	err = damos_schemes_clear(d);
	return cli_close(c, d, err ? cli_lib_error(c, err) : EXIT_OK);
}

/* Offline: the attributes of the tree if there is one, else the defaults. */
static int do_encode(struct cli *c, int argc, char **argv)
{
	struct damos_scheme *s = NULL;
	struct damos_ctx *d = NULL;
	char line[512];
	int status, n;

	if (c->root || c->iface != DAMOS_IFACE_AUTO) {
		d = cli_open(c);
		if (!d)
			return EXIT_FAIL;
	}
	status = parse_scheme(c, d, argc, argv, &s);
	if (!status) {
		n = damos_dbgfs_encode_scheme(s, line, sizeof(line));
		if (n < 0) {
			status = cli_lib_error(c, n);
		} else if (c->json) {
			line[n - 1] = '\0';
			fprintf(c->out, "{\"dbgfs\":");
			json_str(c->out, line);
			fprintf(c->out, ",\"scheme\":");
			json_scheme(c->out, s, 0);
			fprintf(c->out, "}\n");
		} else {
			fputs(line, c->out);
		}
	}
	damos_scheme_free(s);
	return d ? cli_close(c, d, status) : status;
}

static const char *const min_max[] = { "min", "max", NULL };
static const char *const metrics[] = { "none", "free_mem_rate", NULL };
static const char *const quota_words[] = { "time", "size", "reset", NULL };

static const struct cli_grammar scheme_grammar = {
	.kws = (const struct kw_spec[]){
		{ "sz", 2, min_max, .every = true, .args = "MIN MAX",
		  .help = "region size: bytes, or with B K M G T; min, max" },
		{ "access", 2, min_max, .every = true, .args = "MIN MAX",
		  .help = "accesses per aggregation interval: samples, or N% of them" },
		{ "age", 2, min_max, .every = true, .args = "MIN MAX",
		  .help = "how long the access count held: aggregation intervals, or us ms s m h" },
		{ "quota", 0, NULL, quota_words,
		  .args = "[time MS] [size BYTES] [reset MS]",
		  .help = "at most time of CPU and size of memory every reset (bare: ms)" },
		{ "weights", 3, .args = "SZ ACCESS AGE",
		  .help = "which regions go first under the quota" },
		{ "wmarks", 5, metrics, .args = "METRIC INTERVAL HIGH MID LOW",
		  .help = "none, or free_mem_rate in per mille or N% checked every INTERVAL (bare: us): the scheme works between LOW and MID" },
		{ NULL },
	},
	.actions_first = true,
};

#define SCHEME_ARGS "ACTION [sz MIN MAX] [access MIN MAX] [age MIN MAX] " \
	"[quota [time MS] [size BYTES] [reset MS]] [weights SZ ACCESS AGE] " \
	"[wmarks METRIC INTERVAL HIGH MID LOW]"

const struct cli_cmd scheme_cmds[] = {
	{ "add", do_add, SCHEME_ARGS,
	  "append a scheme, keeping those there (lru_prio and lru_deprio alone take damon_lru_sort's defaults)",
	  &scheme_grammar },
	{ "list", do_list, "", "print the schemes, one a line, in the add grammar", NULL },
	{ "rm", do_rm, "INDEX", "remove the scheme at INDEX", NULL },
	{ "clear", do_clear, "", "remove every scheme", NULL },
	{ "encode", do_encode, SCHEME_ARGS,
	  "print the dbgfs schemes line of a scheme, writing nothing",
	  &scheme_grammar },
	{ NULL },
};
