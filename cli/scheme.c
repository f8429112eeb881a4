// SPDX-License-Identifier: GPL-2.0-or-later
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static int check_samples(struct cli *c, const struct damon_attrs *attrs,
			 struct damos_scheme **out);

static int parse_scheme(struct cli *c, struct damon_ctx *d, int argc, char **argv,
			struct damos_scheme **out)
{
	struct damon_attrs a;

	if (argc < 1)
		return cli_error(c, EXIT_USAGE,
				 "expected an action (see damoctl help scheme)");
	if (d) {
		int status = cli_attrs(c, d, &a);

		if (status)
			return status;
	} else {
		damon_attrs_default(&a);
	}
	*out = damos_scheme_parse(argc, (const char *const *)argv, &a);
	if (!*out)
		return cli_error(c, EXIT_USAGE, "%s", cli_errmsg());
	return check_samples(c, &a, out);
}

/*
 * A count of samples no aggregation interval reaches never matches (the
 * library keeps bare kernel numbers as they are; "max" is the field's
 * bound and means "any").  Frees *@out on an error.
 */
static int check_samples(struct cli *c, const struct damon_attrs *attrs,
			 struct damos_scheme **out)
{
	struct damon_attrs a = *attrs;

	for (int f = DAMOS_F_MIN_NR_ACCESSES; f <= DAMOS_F_MAX_NR_ACCESSES; f++) {
		uint64_t v = damos_scheme_get(*out, f);
		uint64_t most = damon_attrs_max_nr_accesses(&a);
		char sa[32], ag[32];

		if (v <= most || v == damos_field_max(f))
			continue;
		damos_scheme_free(*out);
		*out = NULL;
		return cli_error(c, EXIT_USAGE,
				 "%s: %llu is more than the %llu samples of an aggregation interval (aggr %s / sample %s): at most %llu, N%%, or max",
				 damos_field_label(f), (unsigned long long)v,
				 (unsigned long long)most,
				 damos_format_time_us(a.aggr_us, ag, sizeof(ag)),
				 damos_format_time_us(a.sample_us, sa, sizeof(sa)),
				 (unsigned long long)most);
	}
	return EXIT_OK;
}

/*
 * Where DAMON cannot be opened, the words are still checked, under the
 * default attributes: wrong words are a usage error (2) whether or not
 * there is a DAMON, and that is what the user has to fix first.
 */
static struct damon_ctx *open_for_words(struct cli *c, int argc, char **argv,
				    int *status)
{
	struct damos_scheme *s = NULL;
	struct damon_ctx *d = cli_open_quiet(c);
	char *msg;

	if (d)
		return d;
	msg = strdup(cli_errmsg());
	*status = parse_scheme(c, NULL, argc, argv, &s);
	damos_scheme_free(s);
	if (!*status)
		*status = cli_error(c, EXIT_FAIL, "%s", msg ? msg : "cannot open DAMON");
	free(msg);
	return NULL;
}

/* scheme add: the scheme appended to the kdamond's (@arg: struct add). */
struct add {
	struct damos_scheme *s;
	size_t idx;
};

static int add_edit(struct cli *c, struct damon_kdamond_setup *k, void *arg)
{
	struct add *x = arg;
	struct damos_scheme **arr;
	int status = EXIT_OK;

	/* an action the live targets' operations ignore: as apply refuses it */
	if (k->targets.nr)
		status = cli_check_ops(c, k->targets.ops, damos_scheme_action(x->s), NULL);
	if (status)
		return status;
	arr = realloc(k->schemes, (k->nr_schemes + 1) * sizeof(*arr));
	if (!arr)
		return cli_error(c, EXIT_FAIL, "out of memory");
	k->schemes = arr;
	x->idx = k->nr_schemes;
	arr[k->nr_schemes++] = x->s;	/* the setup's now */
	x->s = NULL;
	return EXIT_OK;
}

static int do_add(struct cli *c, int argc, char **argv)
{
	struct add x = { 0 };
	int status;
	struct damon_ctx *d = open_for_words(c, argc, argv, &status);

	if (!d)
		return status;
	status = parse_scheme(c, d, argc, argv, &x.s);
	status = cli_close(c, d, status);
	if (!status)
		status = cli_setup_change(c, add_edit, &x);
	if (!status && c->json && !c->dry_run) {
		struct json_object *o = json_object_new_object();

		json_object_object_add(o, "index", json_object_new_int((int)x.idx));
		json_print(c->out, o);
	}
	damos_scheme_free(x.s);
	return status;
}

/* Whether the library knows every word of @s (else it cannot judge it). */
static bool known_words(const struct damos_scheme *s)
{
	struct damos_filter_info f = { .sz = sizeof(f) };
	struct damos_goal_info g = { .sz = sizeof(g) };

	if (damos_scheme_action(s) == DAMOS_ACTION_UNKNOWN)
		return false;
	for (size_t i = 0; !damos_scheme_filter(s, i, &f); i++)
		if (f.type == DAMOS_FILTER_UNKNOWN)
			return false;
	for (size_t i = 0; !damos_scheme_goal(s, i, &g); i++)
		if (g.metric == DAMOS_GOAL_UNKNOWN)
			return false;
	return true;
}

void cli_stats_update(struct cli *c, struct damon_ctx *d)
{
	if (damos_stats_update(d))
		fprintf(c->err, "damoctl: warning: the statistics are as the kernel last updated them: %s\n",
			cli_errmsg());
}

struct damon_ctx *cli_schemes_open(struct cli *c, struct damos_scheme ***arr,
				   size_t *n, bool stats, int *status)
{
	struct damon_ctx *d = cli_open(c);
	int err;

	*status = EXIT_FAIL;
	if (!d)
		return NULL;
	if (stats)
		cli_stats_update(c, d);
	err = damos_schemes_read(d, arr, n);
	if (err) {
		*status = cli_close(c, d, cli_lib_error(c, err));
		return NULL;
	}
	*status = EXIT_OK;
	return d;
}

void cli_no_schemes(struct cli *c, size_t n)
{
	/* a user at a terminal sees that there is nothing; scripts get nothing */
	if (!n && !c->json && isatty(fileno(c->out)))
		fprintf(c->out, "no schemes (damoctl scheme add ACTION ... adds one)\n");
}

static int do_list(struct cli *c, int argc, char **argv)
{
	struct damos_scheme **arr;
	struct damon_ctx *d;
	char line[4096];
	size_t n;
	int status;

	(void)argc;
	(void)argv;
	d = cli_schemes_open(c, &arr, &n, false, &status);
	if (!d)
		return status;
	struct json_object *list = c->json ? json_object_new_array() : NULL;

	for (size_t i = 0; i < n; i++) {
		if (c->json) {
			json_object_array_add(list, json_scheme(arr[i], (int)i));
		} else if (damos_scheme_format(arr[i], line, sizeof(line)) > 0) {
			fprintf(c->out, "%zu: %s\n", i, line);
		}
		/* what another tool left is shown; the kernel accepts it */
		if (known_words(arr[i]) && damos_scheme_validate(arr[i]))
			fprintf(c->err, "damoctl: warning: scheme %zu: %s\n", i,
				cli_errmsg());
	}
	if (c->json)
		json_print(c->out, list);
	cli_no_schemes(c, n);
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

static int no_scheme(struct cli *c, size_t idx, size_t n)
{
	return cli_error(c, EXIT_FAIL, "no scheme %zu (there %s %zu)", idx,
			 n == 1 ? "is" : "are", n);
}

static int rm_edit(struct cli *c, struct damon_kdamond_setup *k, void *arg)
{
	size_t idx = *(size_t *)arg;

	if (idx >= k->nr_schemes)
		return no_scheme(c, idx, k->nr_schemes);
	damos_scheme_free(k->schemes[idx]);
	memmove(&k->schemes[idx], &k->schemes[idx + 1],
		(k->nr_schemes - idx - 1) * sizeof(*k->schemes));
	k->nr_schemes--;
	return EXIT_OK;
}

static int do_rm(struct cli *c, int argc, char **argv)
{
	size_t idx = 0;
	int status;

	if (argc != 1)
		return argc ? cli_error(c, EXIT_USAGE,
					"'%s' after INDEX %s: one scheme at a time",
					argv[1], argv[0]) :
			      cli_error(c, EXIT_USAGE, "expected INDEX");
	status = parse_index(c, argv[0], &idx);
	return status ? status : cli_setup_change(c, rm_edit, &idx);
}

static int clear_edit(struct cli *c, struct damon_kdamond_setup *k, void *arg)
{
	(void)c;
	(void)arg;
	damos_schemes_free(k->schemes, k->nr_schemes);
	k->schemes = NULL;
	k->nr_schemes = 0;
	return EXIT_OK;
}

static int do_clear(struct cli *c, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cli_setup_change(c, clear_edit, NULL);
}

/*
 * scheme set INDEX KEYWORDS: the scheme there with the keywords given
 * changed, written in place (a running sysfs kdamond takes it by commit
 * and keeps its statistics), one transaction.
 */
struct set {
	size_t idx;
	int argc;
	char **argv;
};

static int set_edit(struct cli *c, struct damon_kdamond_setup *k, void *arg)
{
	struct set *x = arg;
	struct damos_scheme *s;
	int status = EXIT_OK;

	if (x->idx >= k->nr_schemes)
		return no_scheme(c, x->idx, k->nr_schemes);
	s = damos_scheme_dup(k->schemes[x->idx]);
	if (!s)
		return cli_lib_error(c, -ENOMEM);
	if (damos_scheme_edit(s, x->argc, (const char *const *)x->argv, &k->attrs))
		status = cli_error(c, EXIT_USAGE, "%s; nothing was written",
				   cli_errmsg());
	for (int i = 0; !status && i < x->argc; i++)
		if (!strcmp(x->argv[i], "access")) {
			status = check_samples(c, &k->attrs, &s);
			break;
		}
	if (!status && k->targets.nr)
		status = cli_check_ops(c, k->targets.ops, damos_scheme_action(s), NULL);
	if (status) {
		damos_scheme_free(s);
		return status;
	}
	damos_scheme_free(k->schemes[x->idx]);
	k->schemes[x->idx] = s;
	return EXIT_OK;
}

/*
 * scheme set INDEX KEYWORDS: the scheme there with the keywords given
 * changed, written in place (a running sysfs kdamond takes it by commit
 * and keeps its statistics), one transaction.
 */
static int do_set(struct cli *c, int argc, char **argv)
{
	struct set x = { .argc = argc - 1, .argv = argv + 1 };
	int status;

	if (argc < 2)
		return cli_error(c, EXIT_USAGE, argc ?
				 "expected FIELD VALUE... after INDEX (see damoctl help scheme set)" :
				 "expected INDEX FIELD VALUE...");
	status = parse_index(c, argv[0], &x.idx);
	return status ? status : cli_setup_change(c, set_edit, &x);
}

/* scheme goal INDEX GOAL current VALUE */
static int do_goal(struct cli *c, int argc, char **argv)
{
	struct damon_ctx *d;
	size_t idx = 0, goal = 0;
	uint64_t v;
	char *end;
	int status, err;

	if (argc != 4 || strcmp(argv[2], "current"))
		return cli_error(c, EXIT_USAGE, argc >= 3 && strcmp(argv[2], "current") ?
				 "'%s': expected current (scheme goal INDEX GOAL current VALUE)" :
				 "expected INDEX GOAL current VALUE%s",
				 argc >= 3 ? argv[2] : "");
	status = parse_index(c, argv[0], &idx);
	if (status)
		return status;
	errno = 0;
	goal = strtoul(argv[1], &end, 10);
	if (errno || *end || end == argv[1] || !isdigit((unsigned char)*argv[1]))
		return cli_error(c, EXIT_USAGE,
				 "'%s' is not a goal index (0, 1, ...: see damoctl scheme list)",
				 argv[1]);
	errno = 0;
	v = strtoull(argv[3], &end, 0);
	if (errno == ERANGE && !*end)
		return cli_error(c, EXIT_USAGE, "current: '%s' is too large (at most %llu)",
				 argv[3], (unsigned long long)UINT64_MAX);
	if (errno || *end || end == argv[3] || !isdigit((unsigned char)*argv[3]))
		return cli_error(c, EXIT_USAGE,
				 "current: '%s' is not a number (the goal's metric, in its own unit)",
				 argv[3]);
	d = cli_open(c);
	if (!d)
		return EXIT_FAIL;
	err = damos_goal_current_write(d, idx, goal, v);
	return cli_close(c, d, err ? cli_lib_error(c, err) : EXIT_OK);
}

/* Offline: the attributes of the tree if there is one, else the defaults. */
static int do_encode(struct cli *c, int argc, char **argv)
{
	struct damos_scheme *s = NULL;
	struct damon_ctx *d = NULL;
	char line[512];
	int status, n;

	if (c->root || c->iface != DAMON_IFACE_AUTO) {
		d = cli_open(c);
		if (!d)
			return EXIT_FAIL;
	}
	status = parse_scheme(c, d, argc, argv, &s);
	/* as scheme add refuses it there: a warning, the line is still printed */
	if (!status && d && damos_scheme_check(d, s) < 0) {
		const char *m = cli_errmsg(), *a = damos_scheme_action_name(s);

		/* the line is this scheme's: no need to name its action */
		if (!strncmp(m, a, strlen(a)) && !strncmp(m + strlen(a), ": ", 2))
			m += strlen(a) + 2;
		fprintf(c->err, "damoctl: scheme encode: warning: %s (scheme add would refuse it)\n",
			m);
	}
	if (!status) {
		n = damos_dbgfs_encode_scheme(s, line, sizeof(line));
		if (n < 0) {
			status = cli_lib_error(c, n);
		} else if (c->json) {
			struct json_object *o = json_object_new_object();

			line[n - 1] = '\0';
			json_object_object_add(o, "dbgfs", json_str(line));
			json_object_object_add(o, "scheme", json_scheme(s, 0));
			json_print(c->out, o);
		} else {
			fputs(line, c->out);
		}
	}
	damos_scheme_free(s);
	return d ? cli_close(c, d, status) : status;
}

/*
 * The grammars of scheme add/encode and scheme set, their synopses and
 * completion: from the library's keyword table (damos_scheme_keyword()),
 * so there is no copy here to drift.
 */
#define MAX_KWS 16
static const char *const min_max[] = { "min", "max", NULL };
static const char *metrics[DAMOS_NR_WMARK_METRICS + 1];
static const char *filter_types[DAMOS_NR_FILTER_TYPES + 2] = { "not" };
static const char *goal_metrics[DAMOS_NR_GOAL_METRICS + 1];
static const char *actions[DAMOS_NR_ACTIONS + 1];
static const char *const no_words[] = { NULL };
static struct kw_spec add_kws[MAX_KWS + 1], set_kws[MAX_KWS + 2];
static char add_args[512], set_args[512];

static const struct cli_grammar scheme_grammar = {
	.kws = add_kws, .actions_first = true,
};
static const struct cli_grammar set_grammar = {
	.kws = set_kws, .first = no_words,
	.first_help = "the scheme's index (damoctl scheme list)",
};

static const char *const *values_of(enum damos_kw_values v)
{
	switch (v) {
	case DAMOS_KW_V_MIN_MAX:
		return min_max;
	case DAMOS_KW_V_WMARK_METRIC:
		return metrics;
	case DAMOS_KW_V_FILTER_TYPE:
		return filter_types;
	case DAMOS_KW_V_GOAL_METRIC:
		return goal_metrics;
	default:
		return NULL;
	}
}

/* " [kw ARGS]", "..." if it may come again; set: "none|" before a list's */
static size_t synopsis_add(char *buf, size_t len, size_t sz,
			   const struct damos_scheme_kw *k, bool set)
{
	if (len < sz)
		len += snprintf(buf + len, sz - len, " [%s %s%s]%s", k->kw,
				set && k->repeat ? "none|" : "", k->args,
				k->repeat ? "..." : "");
	return len < sz ? len : sz - 1;
}

__attribute__((constructor)) static void scheme_words(void)
{
	struct damos_scheme_kw k = { .sz = sizeof(k) };
	size_t n = 0, add_len, set_len;

	for (int m = 0; m < DAMOS_NR_WMARK_METRICS; m++)
		metrics[m] = damos_metric_name(m);
	for (int t = 0; t < DAMOS_NR_FILTER_TYPES; t++)
		filter_types[t + 1] = damos_filter_type_name(t);
	for (int m = 0; m < DAMOS_NR_GOAL_METRICS; m++)
		goal_metrics[m] = damos_goal_metric_name(m);
	for (int a = 0; a < DAMOS_NR_ACTIONS; a++)
		actions[a] = damos_action_name(a);
	set_kws[0] = (struct kw_spec){ "action", 1, actions, .args = "ACTION",
				       .help = "change the action" };
	add_len = snprintf(add_args, sizeof(add_args), "ACTION");
	set_len = snprintf(set_args, sizeof(set_args), "INDEX [action ACTION]");
	for (; n < MAX_KWS && !damos_scheme_keyword(n, &k); n++) {
		add_kws[n] = (struct kw_spec){
			.kw = k.kw, .nr = k.nr_values, .values = values_of(k.values),
			.sub = k.subs, .every = k.values == DAMOS_KW_V_MIN_MAX,
			.args = k.help_args, .help = k.help,
		};
		set_kws[n + 1] = add_kws[n];
		add_len = synopsis_add(add_args, add_len, sizeof(add_args), &k, false);
		set_len = synopsis_add(set_args, set_len, sizeof(set_args), &k, true);
	}
}

const struct cli_cmd scheme_cmds[] = {
	{ "add", do_add, add_args,
	  "append a scheme, keeping those there (lru_prio and lru_deprio start from damon_lru_sort's defaults, the keywords given change them)",
	  &scheme_grammar, CLI_WRITE | CLI_EDIT },
	{ "list", do_list, "", "print the schemes, one a line, in the add grammar", NULL },
	{ "rm", do_rm, "INDEX", "remove the scheme at INDEX", NULL,
	  CLI_WRITE | CLI_EDIT | CLI_INDEX },
	{ "clear", do_clear, "", "remove every scheme", NULL, CLI_WRITE | CLI_EDIT },
	{ "set", do_set, set_args,
	  "change the fields given of the scheme at INDEX in place: a running kdamond takes it by commit and keeps its statistics (sysfs); a filter or goal keyword replaces the scheme's, none removes them",
	  &set_grammar, CLI_WRITE | CLI_EDIT | CLI_INDEX },
	{ "goal", do_goal, "INDEX GOAL current VALUE",
	  "feed a user_input quota goal of a running kdamond: its current value, which the kernel tunes the effective quota with (sysfs, Linux 6.8+)",
	  NULL, CLI_WRITE | CLI_INDEX },
	{ "encode", do_encode, add_args,
	  "print the dbgfs schemes line of a scheme, writing nothing",
	  &scheme_grammar, CLI_NOLOCK },
	{ NULL },
};
