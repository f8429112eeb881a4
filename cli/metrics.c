// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --format openmetrics|prometheus [--output FILE] on stats show and
 * monitor status: the state and each scheme's statistics as a metrics
 * exposition, for node_exporter's textfile collector and the like.  The
 * file is replaced whole (a temporary file in its directory, renamed), so
 * that a reader never sees half of it.
 *
 * The two formats differ only where the specifications do: OpenMetrics
 * names a counter's family without "_total" in HELP and TYPE and ends with
 * "# EOF"; the Prometheus text format (0.0.4, what node_exporter's textfile
 * collector parses) names it with "_total" and has no end marker.
 *
 * monitor status --kdamond all reads every kdamond first, then prints each
 * family once with the samples of all of them under it: a parser takes a
 * family's HELP and TYPE once, and its samples in one group.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static const char *const format_words[] = {
	[CLI_FORMAT_TEXT] = "text",
	[CLI_FORMAT_OPENMETRICS] = "openmetrics",
	[CLI_FORMAT_PROMETHEUS] = "prometheus",
};

int cli_metrics_args(struct cli *c, int *argc, char **argv,
		     struct cli_metrics *m)
{
	int nk = 0, no = 0, i, status = EXIT_OK;
	/* the other words, then the options: argv stays a permutation of
	 * itself on every path, so that its owner frees each word once */
	char **keep = calloc(*argc + 1, sizeof(*keep));
	char **opts = calloc(*argc + 1, sizeof(*opts));

	memset(m, 0, sizeof(*m));
	if (!keep || !opts) {
		free(keep);
		free(opts);
		return cli_error(c, EXIT_FAIL, "out of memory");
	}
	for (i = 0; !status && i < *argc; i++) {
		const char *a = argv[i], *val;
		/* --format=VALUE, as getopt_long takes it */
		bool eq = !strncmp(a, "--format=", 9) || !strncmp(a, "--output=", 9);
		size_t f;

		if (!eq && strcmp(a, "--format") && strcmp(a, "--output")) {
			keep[nk++] = argv[i];
			continue;
		}
		if (!eq && i + 1 >= *argc) {
			status = cli_error(c, EXIT_USAGE, "%s: expected a value", a);
			break;
		}
		val = eq ? a + 9 : argv[i + 1];
		opts[no++] = argv[i];
		if (!eq)
			opts[no++] = argv[++i];
		if (!strncmp(a, "--output", 8)) {
			m->output = val;
			continue;
		}
		for (f = 0; f < ARRAY_SIZE(format_words); f++)
			if (!strcmp(val, format_words[f]))
				break;
		if (f == ARRAY_SIZE(format_words))
			status = cli_error(c, EXIT_USAGE,
					   "--format: '%s' is not one of text, openmetrics, prometheus",
					   val);
		m->format = (int)f;
	}
	/* the words the loop did not reach stay where they are, at the end */
	memmove(argv + nk + no, argv + i, (*argc - i) * sizeof(*argv));
	memcpy(argv, keep, nk * sizeof(*argv));
	memcpy(argv + nk, opts, no * sizeof(*argv));
	/* the commands take nothing else */
	if (!status && nk)
		status = cli_error(c, EXIT_USAGE, "no arguments expected, got '%s'",
				   argv[0]);
	if (!status && m->output && m->format == CLI_FORMAT_TEXT)
		status = cli_error(c, EXIT_USAGE,
				   "--output needs --format openmetrics or prometheus");
	if (!status && m->format != CLI_FORMAT_TEXT && c->json)
		status = cli_error(c, EXIT_USAGE, "--format %s and --json: pick one",
				   format_words[m->format]);
	if (!status)
		*argc = nk;
	free(keep);
	free(opts);
	return status;
}

struct family {
	const char *name;	/* without _total */
	const char *type;	/* gauge, counter, info */
	const char *help;
};

static void family(FILE *f, const struct cli_metrics *m, const struct family *fa)
{
	const char *suffix = m->format == CLI_FORMAT_PROMETHEUS &&
			     !strcmp(fa->type, "counter") ? "_total" : "";
	/* the Prometheus text format has no info type: a gauge of 1 */
	const char *type = m->format == CLI_FORMAT_PROMETHEUS &&
			   !strcmp(fa->type, "info") ? "gauge" : fa->type;

	fprintf(f, "# HELP %s%s %s\n", fa->name, suffix, fa->help);
	fprintf(f, "# TYPE %s%s %s\n", fa->name, suffix, type);
}

/* A label value: \, " and newline escaped, as both formats want. */
static void label_value(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			fprintf(f, "\\%c", *s);
		else if (*s == '\n')
			fputs("\\n", f);
		else
			fputc(*s, f);
	}
}

struct labels {
	char kdamond[32];
	const char *context;
};

static void sample(FILE *f, const struct family *fa, const char *suffix,
		   const struct labels *l, long scheme, const char *action,
		   const char *value)
{
	fprintf(f, "%s%s{kdamond=\"%s\",context=\"", fa->name, suffix, l->kdamond);
	label_value(f, l->context);
	fputc('"', f);
	if (scheme >= 0) {
		fprintf(f, ",scheme=\"%ld\",action=\"", scheme);
		label_value(f, action);
		fputc('"', f);
	}
	fprintf(f, "} %s\n", value);
}

static const struct family f_info = {
	"damon_context", "info",
	"The DAMON context: its interface and kernel (value 1).",
};
static const struct family f_running = {
	"damon_kdamond_running", "gauge",
	"Whether the context's kdamond runs (1) or not (0).",
};
static const struct family f_attrs[] = {
	{ "damon_sample_interval_seconds", "gauge", "The sampling interval." },
	{ "damon_aggregation_interval_seconds", "gauge", "The aggregation interval." },
	{ "damon_update_interval_seconds", "gauge", "The operations update interval." },
	{ "damon_min_regions", "gauge", "The least number of monitoring regions." },
	{ "damon_max_regions", "gauge", "The most number of monitoring regions." },
};
static const struct family f_nr_schemes = {
	"damon_schemes", "gauge", "The number of schemes of the context.",
};
static const struct {
	struct family fa;
	enum damos_field field;
} f_stats[] = {
	{ { "damon_scheme_tried_regions", "counter",
	    "Regions the scheme's action was tried on." }, DAMOS_F_NR_TRIED },
	{ { "damon_scheme_tried_bytes", "counter",
	    "Bytes of the regions the scheme's action was tried on." }, DAMOS_F_SZ_TRIED },
	{ { "damon_scheme_applied_regions", "counter",
	    "Regions the scheme's action was applied to." }, DAMOS_F_NR_APPLIED },
	{ { "damon_scheme_applied_bytes", "counter",
	    "Bytes of the regions the scheme's action was applied to." }, DAMOS_F_SZ_APPLIED },
	{ { "damon_scheme_quota_exceeds", "counter",
	    "Times the scheme's quota was exceeded." }, DAMOS_F_QT_EXCEEDS },
};

static const struct family f_tm_available = {
	"damon_access_telemetry_available", "gauge",
	"Whether the access telemetry below could be read (1) or not (0: the kdamond is off, or no match-all stat scheme with tried regions and no damon_aggregated tracepoint).",
};
static const struct family f_tm[] = {
	{ "damon_access_monitored_bytes", "gauge", "Bytes of the monitored regions." },
	{ "damon_access_regions", "gauge", "Monitored regions." },
	{ "damon_access_working_set_bytes", "gauge",
	  "Bytes of the regions accessed in the last aggregation interval (nr_accesses >= 1)." },
	{ "damon_access_age_seconds", "gauge",
	  "The age (time its access rate did not change) that the given percentile of the monitored bytes is below." },
};

static void labels_start(FILE *f, const char *name, const struct labels *l)
{
	fprintf(f, "%s{kdamond=\"%s\",context=\"", name, l->kdamond);
	label_value(f, l->context);
	fputc('"', f);
}

/*
 * What one kdamond's (or the dbgfs context's) part of the exposition
 * says, read before any of it is printed: each family is printed once,
 * with the samples of every kdamond under it.
 */
struct kd {
	struct labels l;
	char *iface, *kernel;		/* status only */
	bool have_on, on;
	bool have_attrs;		/* status only */
	struct damon_attrs a;
	bool have_schemes;
	struct damos_scheme **arr;
	size_t n;
	struct cli_access_telemetry t;	/* status only */
};

struct kds {
	bool status;			/* monitor status' families too */
	struct kd *k;
	size_t nr;
	/* some kdamond has these samples: their families are printed */
	bool on, attrs, schemes, stats, telemetry;
};

#define for_each_kd(all, k) \
	for (struct kd *k = (all)->k; k < (all)->k + (all)->nr; k++)

/* kdamond @i, c->kdamond (or the dbgfs context), read into the next of @arg */
static int kd_read(struct cli *c, unsigned int i, void *arg)
{
	struct kds *all = arg;
	struct damon_ctx *d;
	struct kd *k;

	k = realloc(all->k, (all->nr + 1) * sizeof(*all->k));
	if (!k)
		return cli_error(c, EXIT_FAIL, "out of memory");
	all->k = k;
	d = cli_open(c);
	if (!d)
		return EXIT_FAIL;
	k = memset(&all->k[all->nr++], 0, sizeof(*k));
	snprintf(k->l.kdamond, sizeof(k->l.kdamond), "%u", i);
	k->l.context = "0";
	if (damon_get_iface(d) == DAMON_IFACE_DBGFS) {
		snprintf(k->l.kdamond, sizeof(k->l.kdamond), "dbgfs");
		k->l.context = c->dbgfs_ctx ? c->dbgfs_ctx : "0";
	}
	if (all->status) {
		k->iface = strdup(damon_iface_name(damon_get_iface(d)));
		k->kernel = strdup(damos_kernel_desc(d));
		if (!k->iface || !k->kernel)
			return cli_close(c, d, cli_error(c, EXIT_FAIL, "out of memory"));
	}
	k->have_on = !damon_monitor_status(d, &k->on, NULL);
	k->have_attrs = all->status && !damon_attrs_read(d, &k->a);
	cli_stats_update(c, d);
	k->have_schemes = !damos_schemes_read(d, &k->arr, &k->n);
	if (all->status)
		cli_access_telemetry(c, d, &k->t);
	all->on |= k->have_on;
	all->attrs |= k->have_attrs;
	all->schemes |= k->have_schemes;
	all->stats |= k->have_schemes && k->n;
	all->telemetry |= k->t.available;
	return cli_close(c, d, EXIT_OK);
}

static void kds_free(struct kds *all)
{
	for_each_kd(all, k) {
		free(k->iface);
		free(k->kernel);
		if (k->have_schemes)
			damos_schemes_free(k->arr, k->n);
	}
	free(all->k);
}

static void telemetry(FILE *f, const struct cli_metrics *m,
		      const struct kds *all)
{
	static const char *const pct[] = { "50", "90", "99" };

	if (all->nr)
		family(f, m, &f_tm_available);
	for_each_kd(all, k) {
		labels_start(f, f_tm_available.name, &k->l);
		fprintf(f, ",source=\"%s\"} %d\n",
			k->t.available ? k->t.source : "none", k->t.available);
	}
	if (!all->telemetry)
		return;
	family(f, m, &f_tm[0]);
	for_each_kd(all, k)
		if (k->t.available) {
			labels_start(f, f_tm[0].name, &k->l);
			fprintf(f, "} %llu\n", (unsigned long long)k->t.total_bytes);
		}
	family(f, m, &f_tm[1]);
	for_each_kd(all, k)
		if (k->t.available) {
			labels_start(f, f_tm[1].name, &k->l);
			fprintf(f, "} %zu\n", k->t.nr_regions);
		}
	family(f, m, &f_tm[2]);
	for_each_kd(all, k)
		if (k->t.available) {
			labels_start(f, f_tm[2].name, &k->l);
			fprintf(f, ",min_nr_accesses=\"1\"} %llu\n",
				(unsigned long long)k->t.wss_bytes);
		}
	family(f, m, &f_tm[3]);
	for_each_kd(all, k)
		for (size_t i = 0; k->t.available && i < ARRAY_SIZE(pct); i++) {
			labels_start(f, f_tm[3].name, &k->l);
			fprintf(f, ",percentile=\"%s\"} %llu.%06llu\n", pct[i],
				(unsigned long long)(k->t.age_us[i] / 1000000),
				(unsigned long long)(k->t.age_us[i] % 1000000));
		}
}

static void exposition(FILE *f, const struct cli_metrics *m,
		       const struct kds *all)
{
	char v[64];

	if (all->status && all->nr)
		family(f, m, &f_info);
	for_each_kd(all, k) {
		if (!all->status)
			break;
		fprintf(f, "%s%s{kdamond=\"%s\",context=\"", f_info.name,
			m->format == CLI_FORMAT_PROMETHEUS ? "" : "_info", k->l.kdamond);
		label_value(f, k->l.context);
		fprintf(f, "\",interface=\"%s\",kernel=\"", k->iface);
		label_value(f, k->kernel);
		fprintf(f, "\"} 1\n");
	}
	if (all->on)
		family(f, m, &f_running);
	for_each_kd(all, k)
		if (k->have_on)
			sample(f, &f_running, "", &k->l, -1, NULL, k->on ? "1" : "0");
	for (size_t i = 0; i < ARRAY_SIZE(f_attrs) && all->attrs; i++) {
		family(f, m, &f_attrs[i]);
		for_each_kd(all, k) {
			uint64_t us[] = { k->a.sample_us, k->a.aggr_us, k->a.update_us };
			uint64_t nr[] = { k->a.min_nr_regions, k->a.max_nr_regions };

			if (!k->have_attrs)
				continue;
			if (i < 3)
				snprintf(v, sizeof(v), "%llu.%06llu",
					 (unsigned long long)(us[i] / 1000000),
					 (unsigned long long)(us[i] % 1000000));
			else
				snprintf(v, sizeof(v), "%llu",
					 (unsigned long long)nr[i - 3]);
			sample(f, &f_attrs[i], "", &k->l, -1, NULL, v);
		}
	}
	if (all->status && all->schemes)
		family(f, m, &f_nr_schemes);
	for_each_kd(all, k)
		if (all->status && k->have_schemes) {
			snprintf(v, sizeof(v), "%zu", k->n);
			sample(f, &f_nr_schemes, "", &k->l, -1, NULL, v);
		}
	for (size_t s = 0; s < ARRAY_SIZE(f_stats) && all->stats; s++) {
		family(f, m, &f_stats[s].fa);
		for_each_kd(all, k)
			for (size_t i = 0; k->have_schemes && i < k->n; i++) {
				snprintf(v, sizeof(v), "%llu", (unsigned long long)
					 damos_scheme_get(k->arr[i], f_stats[s].field));
				sample(f, &f_stats[s].fa, "_total", &k->l, (long)i,
				       damos_scheme_action_name(k->arr[i]), v);
			}
	}
	if (all->status)
		telemetry(f, m, all);
	if (m->format == CLI_FORMAT_OPENMETRICS)
		fputs("# EOF\n", f);
}

/* @path replaced whole: a temporary file beside it, then rename(2). */
static int write_atomic(struct cli *c, const char *path, const char *text,
			size_t len)
{
	const char *slash = strrchr(path, '/');
	char *tmp = NULL;
	int fd, err = 0;

	if (asprintf(&tmp, "%.*s.%s.XXXXXX", slash ? (int)(slash - path + 1) : 0,
		     path, slash ? slash + 1 : path) < 0)
		return cli_error(c, EXIT_FAIL, "out of memory");
	fd = mkstemp(tmp);
	if (fd < 0) {
		err = errno;
		cli_error(c, EXIT_FAIL, "--output %s: cannot make %s: %s", path,
			  tmp, strerror(err));
		free(tmp);
		return EXIT_FAIL;
	}
	if (fchmod(fd, 0644) || write(fd, text, len) != (ssize_t)len ||
	    fsync(fd))
		err = errno ? errno : EIO;
	if (close(fd) && !err)
		err = errno;
	if (!err && rename(tmp, path))
		err = errno;
	if (err) {
		unlink(tmp);
		cli_error(c, EXIT_FAIL, "--output %s: %s", path, strerror(err));
	}
	free(tmp);
	return err ? EXIT_FAIL : EXIT_OK;
}

/*
 * The kdamond --kdamond names, or with --kdamond all every kdamond (none:
 * an exposition without samples), read whole before the exposition is
 * printed or the file replaced.
 */
int cli_metrics_print(struct cli *c, const struct cli_metrics *m, bool status)
{
	struct kds all = { .status = status };
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	int st;

	st = c->kdamond_all ? cli_each_kdamond(c, true, kd_read, &all) :
	     kd_read(c, (unsigned int)c->kdamond, &all);
	if (st) {
		kds_free(&all);
		return st;
	}
	f = m->output ? open_memstream(&text, &len) : c->out;
	if (!f) {
		kds_free(&all);
		return cli_error(c, EXIT_FAIL, "out of memory");
	}
	exposition(f, m, &all);
	kds_free(&all);
	if (!m->output)
		return EXIT_OK;
	fclose(f);
	st = write_atomic(c, m->output, text, len);
	free(text);
	return st;
}

/* for the other expositions (cli/effect.c): the same HELP/TYPE lines */
void cli_metrics_family(FILE *f, const struct cli_metrics *m, const char *name,
			const char *type, const char *help)
{
	const struct family fa = { name, type, help };

	family(f, m, &fa);
}

void cli_metrics_label(FILE *f, const char *value)
{
	label_value(f, value);
}

int cli_metrics_write(struct cli *c, const char *path, const char *text,
		      size_t len)
{
	return write_atomic(c, path, text, len);
}
