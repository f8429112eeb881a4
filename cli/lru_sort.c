// SPDX-License-Identifier: GPL-2.0-or-later
/* damoctl lru-sort: the damon_lru_sort module through its parameters. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static int read_module(struct cli *c, struct damos_lru_sort **l)
{
	struct damos_opts o;
	int err;

	/*
	 * The module runs its own kdamond: an option that names another one
	 * would be ignored.  A shell's options are for its other commands.
	 */
	if (!c->interactive && c->kdamond)
		return cli_error(c, EXIT_USAGE,
				 "--kdamond %d: damon_lru_sort runs its own kdamond; lru-sort takes no --kdamond",
				 c->kdamond);
	if (!c->interactive && c->dbgfs_ctx)
		return cli_error(c, EXIT_USAGE,
				 "--context %s: damon_lru_sort is not a dbgfs context; lru-sort takes no --context",
				 c->dbgfs_ctx);
	cli_opts(c, &o);
	err = damos_lru_sort_read(&o, l);
	return err ? cli_lib_error(c, err) : EXIT_OK;
}

static void rate(char *buf, size_t sz, uint64_t permil)
{
	if (permil % 10)
		snprintf(buf, sz, "%llu.%llu%%", (unsigned long long)permil / 10,
			 (unsigned long long)permil % 10);
	else
		snprintf(buf, sz, "%llu%%", (unsigned long long)permil / 10);
}

static void row(struct cli *c, const char *kw, const char *value,
		const struct damos_lru_sort *l, int first, int last)
{
	fprintf(c->out, "%-8s %-28s", kw, value);
	for (int p = first; p <= last; p++)
		fprintf(c->out, " %s=%llu", damos_lru_sort_param_name(p),
			(unsigned long long)damos_lru_sort_get(l, p));
	fprintf(c->out, "\n");
}

/*
 * What "on" means now: "running"; "failed" (enabled, no kdamond: the
 * module could not start); "idle" (the watermarks keep the schemes off:
 * free memory, from <root>/proc/meminfo as the kernel's free_mem_rate,
 * above the high one or below the low one); "off".  @why says it.
 */
static const char *module_state(struct cli *c, const struct damos_lru_sort *l,
				char *why, size_t sz)
{
	uint64_t total = 0, free_kb = 0, rate;
	uint64_t high = damos_lru_sort_get(l, DAMOS_LRU_WMARKS_HIGH);
	uint64_t low = damos_lru_sort_get(l, DAMOS_LRU_WMARKS_LOW);
	char path[4096], line[128];
	FILE *f;

	*why = '\0';
	if (!damos_lru_sort_enabled(l))
		return "off";
	if (damos_lru_sort_kdamond_pid(l) <= 0) {
		snprintf(why, sz, "enabled, but no kdamond runs: the module failed to start (another DAMON user? an invalid parameter? see dmesg)");
		return "failed";
	}
	snprintf(path, sizeof(path), "%s/proc/meminfo", c->root ? c->root : "");
	f = fopen(path, "re");
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long long v;

		if (sscanf(line, "MemTotal: %llu", &v) == 1)
			total = v;
		else if (sscanf(line, "MemFree: %llu", &v) == 1)
			free_kb = v;
	}
	if (f)
		fclose(f);
	if (!total)
		return "running";
	rate = free_kb * 1000 / total;
	if (rate > high || rate < low) {
		snprintf(why, sz, "idle: free memory is %llu.%llu%%, %s the %s watermark %llu.%llu%%: the schemes wait until it is between %llu.%llu%% and %llu.%llu%%",
			 (unsigned long long)rate / 10, (unsigned long long)rate % 10,
			 rate > high ? "above" : "below", rate > high ? "high" : "low",
			 (unsigned long long)(rate > high ? high : low) / 10,
			 (unsigned long long)(rate > high ? high : low) % 10,
			 (unsigned long long)low / 10, (unsigned long long)low % 10,
			 (unsigned long long)damos_lru_sort_get(l, DAMOS_LRU_WMARKS_MID) / 10,
			 (unsigned long long)damos_lru_sort_get(l, DAMOS_LRU_WMARKS_MID) % 10);
		return "idle";
	}
	return "running";
}

static void print_text(struct cli *c, const struct damos_lru_sort *l,
		       struct damos_scheme *const *s)
{
	char why[512];
	char v[256], a[32], b[32], t[32], h[48], m[48], w[48];
	uint64_t start = damos_lru_sort_get(l, DAMOS_LRU_MONITOR_REGION_START);
	uint64_t end = damos_lru_sort_get(l, DAMOS_LRU_MONITOR_REGION_END);
	static const char *const names[] = { "hot", "cold" };

	module_state(c, l, why, sizeof(why));
	if (damos_lru_sort_enabled(l) && damos_lru_sort_kdamond_pid(l) > 0)
		fprintf(c->out, "damon_lru_sort: on, kdamond pid %d\n",
			damos_lru_sort_kdamond_pid(l));
	else
		fprintf(c->out, "damon_lru_sort: %s\n",
			damos_lru_sort_enabled(l) ? "on" : "off");
	if (*why)
		fprintf(c->out, "  %s\n", why);
	fputc('\n', c->out);
	fprintf(c->out, "%-8s %-28s %s\n", "KEYWORD", "VALUE", "PARAMETERS");
	rate(v, sizeof(v), damos_lru_sort_get(l, DAMOS_LRU_HOT_THRES_ACCESS_FREQ));
	row(c, "hot", v, l, DAMOS_LRU_HOT_THRES_ACCESS_FREQ,
	    DAMOS_LRU_HOT_THRES_ACCESS_FREQ);
	row(c, "cold", damos_format_time_us(damos_lru_sort_get(l,
		DAMOS_LRU_COLD_MIN_AGE), v, sizeof(v)), l,
	    DAMOS_LRU_COLD_MIN_AGE, DAMOS_LRU_COLD_MIN_AGE);
	snprintf(v, sizeof(v), "time %s reset %s",
		 damos_format_time_us(damos_lru_sort_get(l, DAMOS_LRU_QUOTA_MS) * 1000,
				      a, sizeof(a)),
		 damos_format_time_us(damos_lru_sort_get(l,
			DAMOS_LRU_QUOTA_RESET_INTERVAL_MS) * 1000, b, sizeof(b)));
	row(c, "quota", v, l, DAMOS_LRU_QUOTA_MS,
	    DAMOS_LRU_QUOTA_RESET_INTERVAL_MS);
	rate(h, sizeof(h), damos_lru_sort_get(l, DAMOS_LRU_WMARKS_HIGH));
	rate(m, sizeof(m), damos_lru_sort_get(l, DAMOS_LRU_WMARKS_MID));
	rate(w, sizeof(w), damos_lru_sort_get(l, DAMOS_LRU_WMARKS_LOW));
	snprintf(v, sizeof(v), "%s %s %s %s",
		 damos_format_time_us(damos_lru_sort_get(l, DAMOS_LRU_WMARKS_INTERVAL),
				      t, sizeof(t)), h, m, w);
	row(c, "wmarks", v, l, DAMOS_LRU_WMARKS_INTERVAL, DAMOS_LRU_WMARKS_LOW);
	row(c, "sample", damos_format_time_us(damos_lru_sort_get(l,
		DAMOS_LRU_SAMPLE_INTERVAL), v, sizeof(v)), l,
	    DAMOS_LRU_SAMPLE_INTERVAL, DAMOS_LRU_SAMPLE_INTERVAL);
	row(c, "aggr", damos_format_time_us(damos_lru_sort_get(l,
		DAMOS_LRU_AGGR_INTERVAL), v, sizeof(v)), l,
	    DAMOS_LRU_AGGR_INTERVAL, DAMOS_LRU_AGGR_INTERVAL);
	snprintf(v, sizeof(v), "%llu %llu",
		 (unsigned long long)damos_lru_sort_get(l, DAMOS_LRU_MIN_NR_REGIONS),
		 (unsigned long long)damos_lru_sort_get(l, DAMOS_LRU_MAX_NR_REGIONS));
	row(c, "regions", v, l, DAMOS_LRU_MIN_NR_REGIONS,
	    DAMOS_LRU_MAX_NR_REGIONS);
	if (!start && !end)
		snprintf(v, sizeof(v), "0 0 (biggest System RAM)");
	else
		snprintf(v, sizeof(v), "0x%llx 0x%llx", (unsigned long long)start,
			 (unsigned long long)end);
	row(c, "region", v, l, DAMOS_LRU_MONITOR_REGION_START,
	    DAMOS_LRU_MONITOR_REGION_END);

	fprintf(c->out, "\n%-5s %-11s %12s %14s %12s %14s %10s\n", "", "action",
		"nr_tried", "sz_tried", "nr_applied", "sz_applied",
		"qt_exceeds");
	for (int i = 0; i < 2; i++)
		fprintf(c->out, "%-5s %-11s %12llu %14llu %12llu %14llu %10llu\n",
			names[i], damos_scheme_action_name(s[i]),
			(unsigned long long)damos_scheme_get(s[i], DAMOS_F_NR_TRIED),
			(unsigned long long)damos_scheme_get(s[i], DAMOS_F_SZ_TRIED),
			(unsigned long long)damos_scheme_get(s[i], DAMOS_F_NR_APPLIED),
			(unsigned long long)damos_scheme_get(s[i], DAMOS_F_SZ_APPLIED),
			(unsigned long long)damos_scheme_get(s[i], DAMOS_F_QT_EXCEEDS));
	fprintf(c->out, "\nThe module's schemes, as damoctl scheme add would take them:\n");
	for (int i = 0; i < 2; i++)
		if (damos_scheme_format(s[i], v, sizeof(v)) > 0)
			fprintf(c->out, "  %s\n", v);
}

static void print_json(struct cli *c, const struct damos_lru_sort *l,
		       struct damos_scheme *const *s)
{
	char kw[512], why[512];
	const char *state = module_state(c, l, why, sizeof(why));

	struct json_object *o = json_object_new_object(), *j;

	json_object_object_add(o, "enabled",
			       json_object_new_boolean(damos_lru_sort_enabled(l)));
	json_object_object_add(o, "kdamond_pid",
			       json_object_new_int(damos_lru_sort_kdamond_pid(l)));
	json_object_object_add(o, "state", json_str(state));
	if (*why)
		json_object_object_add(o, "why", json_str(why));
	j = json_object_new_object();
	for (int p = 0; p < DAMOS_LRU_NR_PARAMS; p++)
		json_object_object_add(j, damos_lru_sort_param_name(p),
				       json_u64(damos_lru_sort_get(l, p)));
	json_object_object_add(o, "parameters", j);
	if (damos_lru_sort_format(l, kw, sizeof(kw)) > 0)
		json_object_object_add(o, "keywords", json_str(kw));
	j = json_object_new_array();
	for (int i = 0; i < 2; i++)
		json_object_array_add(j, json_scheme(s[i], i));
	json_object_object_add(o, "schemes", j);
	json_print(c->out, o);
}

static int do_status(struct cli *c, int argc, char **argv)
{
	struct damos_lru_sort *l = NULL;
	struct damos_scheme *s[2] = { NULL, NULL };
	int status;

	(void)argc;
	(void)argv;
	status = read_module(c, &l);
	if (status)
		return status;
	s[0] = damos_lru_sort_scheme(l, DAMOS_ACTION_LRU_PRIO);
	s[1] = s[0] ? damos_lru_sort_scheme(l, DAMOS_ACTION_LRU_DEPRIO) : NULL;
	if (!s[1])
		status = cli_lib_error(c, -errno);
	else if (c->json)
		print_json(c, l, s);
	else
		print_text(c, l, s);
	damos_scheme_free(s[0]);
	damos_scheme_free(s[1]);
	damos_lru_sort_free(l);
	return status;
}

/*
 * The parameters given over what the module holds, checked as a whole
 * before anything is written.
 */
static int change(struct cli *c, int argc, char **argv, int enable)
{
	struct damos_lru_sort *given = NULL, *l = NULL;
	struct damos_opts o;
	char *script = NULL;
	int status, err;

	given = damos_lru_sort_new();
	if (!given)
		return cli_lib_error(c, -ENOMEM);
	if (damos_lru_sort_parse(given, argc, (const char *const *)argv)) {
		status = cli_error(c, EXIT_USAGE, "%s", cli_errmsg());
		goto out;
	}
	status = read_module(c, &l);
	if (status)
		goto out;
	damos_lru_sort_overlay(l, given);
	if (damos_lru_sort_validate(l)) {
		status = cli_error(c, EXIT_USAGE, "%s; nothing was written",
				   cli_errmsg());
		goto out;
	}
	cli_opts(c, &o);
	err = damos_lru_sort_write(&o, l, enable, &script);
	if (err)
		status = cli_lib_error(c, err);
	cli_print_script(c, "damon_lru_sort", script);
out:
	free(script);
	damos_lru_sort_free(given);
	damos_lru_sort_free(l);
	return status;
}

static int do_enable(struct cli *c, int argc, char **argv)
{
	return change(c, argc, argv, 1);
}

static int do_disable(struct cli *c, int argc, char **argv)
{
	(void)argc;
	return change(c, 0, argv, 0);
}

static int do_set(struct cli *c, int argc, char **argv)
{
	if (!argc)
		return cli_error(c, EXIT_USAGE,
				 "expected keywords (see damoctl help lru-sort)");
	return change(c, argc, argv, -1);
}

#define LRU_SORT_ARGS "[hot RATE] [cold TIME] [quota [time MS] [reset MS]] " \
	"[wmarks INTERVAL HIGH MID LOW] [sample TIME] [aggr TIME] " \
	"[regions MIN MAX] [region START END]"

static const struct cli_grammar lru_sort_grammar = {
	.kws = (const struct kw_spec[]){
		{ "hot", 1, .args = "RATE",
		  .help = "access rate from which a region is hot: N% or per mille; min, max" },
		{ "cold", 1, .args = "TIME",
		  .help = "how long a region must go unaccessed to be cold (bare: us)" },
		{ "quota", 0, NULL, (const char *const[]){ "time", "reset", NULL },
		  .args = "[time MS] [reset MS]",
		  .help = "CPU time per reset interval (bare: ms), half of it for each scheme" },
		{ "wmarks", 4, .args = "INTERVAL HIGH MID LOW",
		  .help = "free memory in N% or per mille, checked every INTERVAL: works between LOW and MID" },
		{ "sample", 1, .args = "TIME", .help = "sampling interval (bare: us)" },
		{ "aggr", 1, .args = "TIME", .help = "aggregation interval (bare: us)" },
		{ "regions", 2, .args = "MIN MAX", .help = "number of monitoring regions" },
		{ "region", 2, .args = "START END",
		  .help = "physical address range: 0xHEX or sizes; 0 0 is the biggest System RAM" },
		{ NULL },
	},
};

const struct cli_cmd lru_sort_cmds[] = {
	{ "status", do_status, "",
	  "the module's state, parameters (with units and as files), statistics and schemes",
	  NULL, CLI_WATCH },
	{ "enable", do_enable, LRU_SORT_ARGS,
	  "start the module, with the parameters given changed first", &lru_sort_grammar,
	  CLI_WRITE },
	{ "disable", do_disable, "", "stop the module", NULL, CLI_WRITE },
	{ "set", do_set, LRU_SORT_ARGS,
	  "change the parameters given; a running module takes them through commit_inputs",
	  &lru_sort_grammar, CLI_WRITE },
	{ NULL },
};
