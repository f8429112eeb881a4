// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * damoctl lru-sort, damoctl reclaim: DAMON's modules through their
 * parameters, one code for both (libdamos' module model); the grammar,
 * help and completion of each come from the library's table.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The object's module: "lru-sort" is lru_sort, "reclaim" reclaim. */
static const char *mod_of(struct cli *c)
{
	return c->object && !strcmp(c->object, "reclaim") ? "reclaim" : "lru_sort";
}

/* The options a module command refuses (it is no kdamond, no context). */
static int module_options(struct cli *c)
{
	const char *obj = c->object ? c->object : "lru-sort";
	char kname[32];

	snprintf(kname, sizeof(kname), "damon_%s", mod_of(c));
	/*
	 * The module runs its own kdamond: an option that names another one
	 * would be ignored.  A shell's options are for its other commands.
	 */
	if (!c->interactive && c->kdamond)
		return cli_error(c, EXIT_USAGE,
				 "--kdamond %d: %s runs its own kdamond; %s takes no --kdamond",
				 c->kdamond, kname, obj);
	if (!c->interactive && c->dbgfs_ctx)
		return cli_error(c, EXIT_USAGE,
				 "--context %s: %s is not a dbgfs context; %s takes no --context",
				 c->dbgfs_ctx, kname, obj);
	return EXIT_OK;
}

static int read_module(struct cli *c, struct damon_module **m)
{
	struct damon_opts o;
	int status = module_options(c), err;

	if (status)
		return status;
	cli_opts(c, &o);
	err = damon_module_read(&o, mod_of(c), m);
	return err ? cli_lib_error(c, err) : EXIT_OK;
}

static uint64_t param(const struct damon_module *m, const char *file)
{
	int p = damon_module_param_index(m, file);

	return p < 0 ? 0 : damon_module_get(m, (size_t)p);
}

/*
 * What "on" means now: "running"; "failed" (enabled, no kdamond: the
 * module could not start); "idle" (the watermarks keep the schemes off:
 * free memory, from <root>/proc/meminfo as the kernel's free_mem_rate,
 * above the high one or below the low one); "off".  @why says it.
 */
static const char *module_state(struct cli *c, const struct damon_module *m,
				char *why, size_t sz)
{
	uint64_t total = 0, free_kb = 0, rate;
	uint64_t high = param(m, "wmarks_high"), low = param(m, "wmarks_low");
	uint64_t mid = param(m, "wmarks_mid");
	char path[4096], line[128];
	FILE *f;

	*why = '\0';
	if (!damon_module_enabled(m))
		return "off";
	if (damon_module_kdamond_pid(m) <= 0) {
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
			 (unsigned long long)mid / 10, (unsigned long long)mid % 10);
		return "idle";
	}
	return "running";
}

/* " file=value" for parameter @p, as the kernel shows it */
static void param_col(struct cli *c, const struct damon_module *m, size_t p)
{
	const char *name = damon_module_param_name(m, p);

	if (!damon_module_param_present(m, p))
		return;
	if (!strcmp(name, "skip_anon"))
		fprintf(c->out, " %s=%s", name, damon_module_get(m, p) ? "Y" : "N");
	else
		fprintf(c->out, " %s=%llu", name,
			(unsigned long long)damon_module_get(m, p));
}

static void print_text(struct cli *c, const struct damon_module *m,
		       struct damos_scheme **s, size_t ns)
{
	const char *kname = damon_module_kernel_name(m);
	char why[512], v[256];
	struct damon_module_kw k = { .sz = sizeof(k) };
	int kw_w = 8, val_w = 28;	/* at least: the widths before skip_anon */

	module_state(c, m, why, sizeof(why));
	if (damon_module_enabled(m) && damon_module_kdamond_pid(m) > 0)
		fprintf(c->out, "%s: on, kdamond pid %d\n", kname,
			damon_module_kdamond_pid(m));
	else
		fprintf(c->out, "%s: %s\n", kname,
			damon_module_enabled(m) ? "on" : "off");
	if (*why)
		fprintf(c->out, "  %s\n", why);
	fputc('\n', c->out);
	/* the columns as wide as their widest word (skip_anon, a quota) */
	for (size_t i = 0; !damon_module_keyword(m, i, &k); i++) {
		int n = damon_module_keyword_format(m, i, v, sizeof(v));

		if (n <= 0)
			continue;
		if ((int)strlen(k.kw) > kw_w)
			kw_w = (int)strlen(k.kw);
		if (n > val_w)
			val_w = n;
	}
	fprintf(c->out, "%-*s %-*s %s\n", kw_w, "KEYWORD", val_w, "VALUE", "PARAMETERS");
	for (size_t i = 0; !damon_module_keyword(m, i, &k); i++) {
		if (damon_module_keyword_format(m, i, v, sizeof(v)) <= 0)
			continue;	/* a later kernel's */
		if (!strcmp(k.kw, "region") && !param(m, "monitor_region_start") &&
		    !param(m, "monitor_region_end"))
			snprintf(v, sizeof(v), "0 0 (biggest System RAM)");
		fprintf(c->out, "%-*s %-*s", kw_w, k.kw, val_w, v);
		if (k.nr_values)
			for (int j = 0; j < k.nr_values; j++)
				param_col(c, m, k.first + j);
		else
			for (size_t j = 0; j < k.nr_subs; j++)
				param_col(c, m, k.sub_params[j]);
		fputc('\n', c->out);
	}

	fprintf(c->out, "\n%-5s %-11s %12s %14s %12s %14s %10s\n", "", "action",
		"nr_tried", "sz_tried", "nr_applied", "sz_applied",
		"qt_exceeds");
	for (size_t i = 0; i < ns; i++)
		fprintf(c->out, "%-5s %-11s %12llu %14llu %12llu %14llu %10llu\n",
			damon_module_scheme_label(m, i), damos_scheme_action_name(s[i]),
			(unsigned long long)damos_scheme_get(s[i], DAMOS_F_NR_TRIED),
			(unsigned long long)damos_scheme_get(s[i], DAMOS_F_SZ_TRIED),
			(unsigned long long)damos_scheme_get(s[i], DAMOS_F_NR_APPLIED),
			(unsigned long long)damos_scheme_get(s[i], DAMOS_F_SZ_APPLIED),
			(unsigned long long)damos_scheme_get(s[i], DAMOS_F_QT_EXCEEDS));
	fprintf(c->out, "\nThe module's %s, as damoctl scheme add would take %s:\n",
		ns > 1 ? "schemes" : "scheme", ns > 1 ? "them" : "it");
	for (size_t i = 0; i < ns; i++)
		if (damos_scheme_format(s[i], v, sizeof(v)) > 0)
			fprintf(c->out, "  %s\n", v);
}

static void print_json(struct cli *c, const struct damon_module *m,
		       struct damos_scheme **s, size_t ns)
{
	char kw[1024], why[512];
	const char *state = module_state(c, m, why, sizeof(why));
	struct json_object *o = json_object_new_object(), *j;

	json_object_object_add(o, "enabled",
			       json_object_new_boolean(damon_module_enabled(m)));
	json_object_object_add(o, "kdamond_pid",
			       json_object_new_int(damon_module_kdamond_pid(m)));
	json_object_object_add(o, "state", json_str(state));
	if (*why)
		json_object_object_add(o, "why", json_str(why));
	j = json_object_new_object();
	for (size_t p = 0; p < damon_module_nr_params(m); p++) {
		const char *name = damon_module_param_name(m, p);

		if (!damon_module_param_present(m, p))
			continue;
		json_object_object_add(j, name, !strcmp(name, "skip_anon") ?
				       json_object_new_boolean(damon_module_get(m, p)) :
				       json_u64(damon_module_get(m, p)));
	}
	json_object_object_add(o, "parameters", j);
	if (damon_module_format(m, kw, sizeof(kw)) > 0)
		json_object_object_add(o, "keywords", json_str(kw));
	j = json_object_new_array();
	for (size_t i = 0; i < ns; i++)
		json_object_array_add(j, json_scheme(s[i], (int)i));
	json_object_object_add(o, "schemes", j);
	json_print(c->out, o);
}

static int do_status(struct cli *c, int argc, char **argv)
{
	struct damon_module *m = NULL;
	struct damos_scheme *s[4] = { NULL };
	size_t ns = 0;
	int status;

	(void)argc;
	(void)argv;
	status = read_module(c, &m);
	if (status)
		return status;
	for (; ns < damon_module_nr_schemes(m) && ns < ARRAY_SIZE(s); ns++) {
		s[ns] = damon_module_scheme(m, ns);
		if (!s[ns]) {
			status = cli_lib_error(c, -errno);
			break;
		}
	}
	if (!status && c->json)
		print_json(c, m, s, ns);
	else if (!status)
		print_text(c, m, s, ns);
	for (size_t i = 0; i < ARRAY_SIZE(s); i++)
		damos_scheme_free(s[i]);
	damon_module_free(m);
	return status;
}

/* What a change gives: parameters, and whether on (-1: as it is). */
struct given {
	struct damon_module *m;
	int enable;
};

/* The parameters given over the setup's module, checked as a whole. */
static int module_edit(struct cli *c, struct damon_module_setup *ms, void *arg)
{
	struct given *g = arg;

	damon_module_overlay(ms->module, g->m);
	if (damon_module_validate(ms->module))
		return cli_error(c, EXIT_USAGE, "%s; nothing was written",
				 cli_errmsg());
	if (g->enable >= 0)
		ms->enable = g->enable;
	return EXIT_OK;
}

/*
 * A change of the module: read -> edit -> apply, one transaction
 * (cli_setup_module_change(); a batch's lines edit one setup).
 */
static int change(struct cli *c, int argc, char **argv, int enable)
{
	struct given g = { .enable = enable };
	int status;

	g.m = damon_module_new(mod_of(c));
	if (!g.m)
		return cli_lib_error(c, -errno);
	if (damon_module_parse(g.m, argc, (const char *const *)argv)) {
		status = cli_error(c, EXIT_USAGE, "%s", cli_errmsg());
		goto out;
	}
	status = module_options(c);
	if (!status)
		status = cli_setup_module_change(c, mod_of(c), module_edit, &g);
out:
	damon_module_free(g.m);
	return status;
}

static int do_enable(struct cli *c, int argc, char **argv)
{
	return change(c, argc, argv, 1);
}

static int do_disable(struct cli *c, int argc, char **argv)
{
	if (argc)
		return cli_error(c, EXIT_USAGE, "'%s': disable takes no arguments",
				 argv[0]);
	return change(c, 0, argv, 0);
}

static int do_set(struct cli *c, int argc, char **argv)
{
	if (!argc)
		return cli_error(c, EXIT_USAGE,
				 "expected keywords (see damoctl help %s)",
				 c->object ? c->object : "lru-sort");
	return change(c, argc, argv, -1);
}

/* ------------------------------------------------------------------------
 * The grammars, from the library's tables.
 */
#define MAX_KWS 16

struct mod_grammar {
	struct kw_spec kws[MAX_KWS + 1];
	const char *subs[MAX_KWS][9];
	char args[512];
	struct cli_grammar g;
};

static struct mod_grammar grammars[2];
static const char *const on_off[] = { "on", "off", NULL };

static void build(struct mod_grammar *mg, const char *name)
{
	struct damon_module *m = damon_module_new(name);
	struct damon_module_kw k = { .sz = sizeof(k) };
	size_t n = 0, len = 0;

	for (size_t i = 0; m && i < MAX_KWS && !damon_module_keyword(m, i, &k); i++) {
		struct kw_spec *s = &mg->kws[n++];

		s->kw = k.kw;
		s->nr = k.nr_values;
		s->args = k.args;
		s->help = k.help;
		if (!strcmp(k.kw, "skip_anon"))
			s->values = on_off;
		if (!k.nr_values) {
			for (size_t j = 0; j < k.nr_subs && j < 8; j++)
				mg->subs[i][j] = k.subs[j];
			s->sub = mg->subs[i];
		}
		len += snprintf(mg->args + len, sizeof(mg->args) - len, "%s[%s %s]",
				len ? " " : "", k.kw, k.args);
		if (len >= sizeof(mg->args))
			len = sizeof(mg->args) - 1;
	}
	damon_module_free(m);
	mg->g.kws = mg->kws;
}

__attribute__((constructor)) static void module_grammars(void)
{
	build(&grammars[0], "lru_sort");
	build(&grammars[1], "reclaim");
}

#define MODULE_CMDS(i, mod, what)					\
	{ "status", do_status, "",					\
	  "the module's state, parameters (with units and as files), statistics and " what, \
	  NULL, CLI_WATCH },						\
	{ "enable", do_enable, grammars[i].args,			\
	  "start the module, with the parameters given changed first", &grammars[i].g, \
	  CLI_WRITE | CLI_EDIT },					\
	{ "disable", do_disable, "", "stop the module", NULL,		\
	  CLI_WRITE | CLI_EDIT },					\
	{ "set", do_set, grammars[i].args,				\
	  "change the parameters given; a running module takes them through commit_inputs", \
	  &grammars[i].g, CLI_WRITE | CLI_EDIT },			\
	{ NULL }

const struct cli_cmd lru_sort_cmds[] = { MODULE_CMDS(0, lru_sort, "schemes") };
const struct cli_cmd reclaim_cmds[] = { MODULE_CMDS(1, reclaim, "scheme") };
