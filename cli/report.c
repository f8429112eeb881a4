// SPDX-License-Identifier: GPL-2.0-or-later
/* report access: what DAMON sees, one aggregation interval of it. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

/*
 * A snapshot makes things of its own in the kernel's files (a tracing
 * instance with the tracepoint enabled, or a temporary stat scheme) and
 * removes them at its end: Ctrl-C, kill and a closed terminal wait for
 * that end (a few aggregation intervals), then act as they would.
 */
int cli_access_snapshot(struct damon_ctx *d, const struct damon_snapshot_opts *o,
			struct damos_tried_regions **out)
{
	sigset_t hold, old;
	int err;

	sigemptyset(&hold);
	sigaddset(&hold, SIGINT);
	sigaddset(&hold, SIGTERM);
	sigaddset(&hold, SIGHUP);
	sigaddset(&hold, SIGQUIT);
	sigprocmask(SIG_BLOCK, &hold, &old);
	err = damon_access_snapshot(d, o, out);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return err;
}

enum { SORT_ADDRESS, SORT_ACCESS, SORT_AGE };

static const char *const sort_words[] = { "address", "access", "age", NULL };
static const char *const source_words[] = { "auto", "tried", "trace", NULL };

/* 1536 -> "1.5K": a size to read, not to write back (that is damos_format_size) */
static char *human_size(uint64_t b, char *buf, size_t sz)
{
	static const char units[] = "BKMGTPE";
	double v = b;
	int u = 0;

	while (v >= 1024 && u < 6) {
		v /= 1024;
		u++;
	}
	if (!u)
		snprintf(buf, sz, "%lluB", (unsigned long long)b);
	else
		snprintf(buf, sz, v < 10 && v != (uint64_t)v ? "%.1f%c" : "%.0f%c",
			 v, units[u]);
	return buf;
}

static int by_access(const void *a, const void *b)
{
	const struct damos_tried_region *x = a, *y = b;

	if (x->nr_accesses != y->nr_accesses)
		return x->nr_accesses < y->nr_accesses ? 1 : -1;
	if (x->age != y->age)
		return x->age < y->age ? 1 : -1;
	return x->start < y->start ? -1 : x->start > y->start;
}

static int by_age(const void *a, const void *b)
{
	const struct damos_tried_region *x = a, *y = b;

	if (x->age != y->age)
		return x->age < y->age ? 1 : -1;
	return x->start < y->start ? -1 : x->start > y->start;
}

static int by_address(const void *a, const void *b)
{
	const struct damos_tried_region *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

static int word_index(const char *const *words, const char *w)
{
	for (int i = 0; words[i]; i++)
		if (!strcmp(words[i], w))
			return i;
	return -1;
}

static unsigned int rate_pct(uint64_t acc, uint64_t max)
{
	return max ? (unsigned int)((acc * 100 + max / 2) / max) : 0;
}

static void print_regions(struct cli *c, const struct damos_tried_region *r,
			  size_t n, const struct damon_attrs *a,
			  const char *source)
{
	uint64_t max = damon_attrs_max_nr_accesses(a), total = 0, hot = 0;
	size_t nr_hot = 0;
	char s1[32], s2[32], s3[32];

	for (size_t i = 0; i < n; i++) {
		total += r[i].end - r[i].start;
		if (r[i].nr_accesses) {
			hot += r[i].end - r[i].start;
			nr_hot++;
		}
	}
	if (c->json) {
		fprintf(c->out, "{\"source\":\"%s\",\"sample_us\":%llu,\"aggr_us\":%llu,"
			"\"max_nr_accesses\":%llu,\"nr_regions\":%zu,\"total_bytes\":%llu,"
			"\"accessed_bytes\":%llu,\"regions\":[",
			source, (unsigned long long)a->sample_us,
			(unsigned long long)a->aggr_us, (unsigned long long)max, n,
			(unsigned long long)total, (unsigned long long)hot);
		for (size_t i = 0; i < n; i++)
			fprintf(c->out, "%s{\"start\":%llu,\"end\":%llu,\"size\":%llu,"
				"\"nr_accesses\":%llu,\"access_rate_percent\":%u,"
				"\"age\":%llu,\"age_us\":%llu}", i ? "," : "",
				(unsigned long long)r[i].start,
				(unsigned long long)r[i].end,
				(unsigned long long)(r[i].end - r[i].start),
				(unsigned long long)r[i].nr_accesses,
				rate_pct(r[i].nr_accesses, max),
				(unsigned long long)r[i].age,
				(unsigned long long)(r[i].age * a->aggr_us));
		fprintf(c->out, "]}\n");
		return;
	}
	fprintf(c->out, "%-18s %-18s %8s %8s %6s %10s\n", "start", "end", "size",
		"accesses", "rate", "age");
	for (size_t i = 0; i < n; i++) {
		char acc[32], age[32];

		snprintf(acc, sizeof(acc), "%llu/%llu",
			 (unsigned long long)r[i].nr_accesses,
			 (unsigned long long)max);
		damos_format_time_us(r[i].age * a->aggr_us, age, sizeof(age));
		fprintf(c->out, "0x%016llx 0x%016llx %8s %8s %5u%% %10s\n",
			(unsigned long long)r[i].start,
			(unsigned long long)r[i].end,
			human_size(r[i].end - r[i].start, s1, sizeof(s1)), acc,
			rate_pct(r[i].nr_accesses, max), age);
	}
	fprintf(c->out, "total: %zu regions, %s; accessed: %zu regions, %s; from %s, %s per aggregation\n",
		n, human_size(total, s1, sizeof(s1)), nr_hot,
		human_size(hot, s2, sizeof(s2)), source,
		damos_format_time_us(a->aggr_us, s3, sizeof(s3)));
}

/* --input FILE: the last snapshot of a record, as the kernel's last aggregation */
static int access_input(struct cli *c, const char *file, int sort)
{
	struct cli_record rec;
	struct cli_record_snap *s;
	int status = cli_record_input(c, file, &rec);

	if (status)
		return status;
	s = &rec.s[rec.nr - 1];
	qsort(s->r, s->nr, sizeof(*s->r), sort == SORT_ACCESS ? by_access :
					   sort == SORT_AGE ? by_age : by_address);
	print_regions(c, s->r, s->nr, &rec.a, "record");
	cli_record_free(&rec);
	return EXIT_OK;
}

static int do_access(struct cli *c, int argc, char **argv)
{
	struct damon_snapshot_opts o = { .sz = sizeof(o) };
	struct damos_tried_regions *tr = NULL;
	struct damos_tried_region *r = NULL;
	struct damon_attrs a;
	struct damon_ctx *d;
	int sort = SORT_ADDRESS, err;
	const char *input = NULL;
	size_t n;

	for (int i = 0; i < argc; i++) {
		/* each keyword is taken with "--" too, as damo spells them */
		const char *kw = argv[i] + (strncmp(argv[i], "--", 2) ? 0 : 2);
		int v;

		if (strcmp(kw, "sort") && strcmp(kw, "source") && strcmp(kw, "duration") &&
		    strcmp(argv[i], "--input"))
			return cli_error(c, EXIT_USAGE,
					 "unknown keyword '%s' (expected sort, source, duration or --input)",
					 argv[i]);
		if (i + 1 >= argc)
			return cli_error(c, EXIT_USAGE, "%s: expected a value",
					 kw);
		if (!strcmp(argv[i++], "--input")) {
			input = argv[i];
			continue;
		}
		if (!strcmp(kw, "duration")) {
			if (damos_parse_time_us(argv[i], 1000000, &o.trace_us))
				return cli_error(c, EXIT_USAGE,
						 "duration: '%s' is not a time (units: us ms s m h; bare: s)",
						 argv[i]);
			continue;
		}
		v = word_index(!strcmp(kw, "sort") ? sort_words : source_words, argv[i]);
		if (v < 0)
			return cli_error(c, EXIT_USAGE, "%s: '%s' is not one of %s",
					 kw, argv[i], !strcmp(kw, "sort") ?
					 "address, access, age" : "auto, tried, trace");
		if (!strcmp(kw, "sort"))
			sort = v;
		else
			o.source = v;
	}
	if (input)
		return access_input(c, input, sort);
	d = cli_open(c);
	if (!d)
		return EXIT_FAIL;
	err = damon_attrs_read(d, &a);
	if (!err)
		err = cli_access_snapshot(d, &o, &tr);
	if (err)
		return cli_close(c, d, cli_lib_error(c, err));
	n = damos_tried_regions_nr(tr);
	r = calloc(n ? n : 1, sizeof(*r));
	for (size_t i = 0; r && i < n; i++) {
		r[i].sz = sizeof(r[i]);
		damos_tried_regions_get(tr, i, &r[i]);
	}
	if (!r) {
		damos_tried_regions_free(tr);
		return cli_close(c, d, cli_error(c, EXIT_FAIL, "out of memory"));
	}
	qsort(r, n, sizeof(*r), sort == SORT_ACCESS ? by_access :
				sort == SORT_AGE ? by_age : by_address);
	/* which source gave them: tried regions where the kernel has them */
	print_regions(c, r, n, &a,
		      o.source == DAMON_SNAPSHOT_TRACE ||
		      damos_has(d, DAMOS_FEAT_TRIED_REGIONS) != 1 ||
		      damon_get_iface(d) != DAMON_IFACE_SYSFS ? "trace" : "tried");
	free(r);
	damos_tried_regions_free(tr);
	return cli_close(c, d, EXIT_OK);
}

static uint64_t mono_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * The working set of each snapshot over @duration: the bytes of the regions
 * accessed in it (nr_accesses > 0), as damo report wss counts them; then
 * their distribution.  One snapshot an aggregation interval at most.
 */
static int do_wss(struct cli *c, int argc, char **argv)
{
	static const unsigned int pct[] = { 0, 25, 50, 75, 90, 99, 100 };
	struct damon_snapshot_opts o = { .sz = sizeof(o) };
	uint64_t duration = 5000000, t0, *wss = NULL;
	bool progress = isatty(fileno(c->err)) && !c->json;
	struct damon_attrs a;
	struct damon_ctx *d;
	const char *input = NULL;
	size_t n = 0;
	char s1[32];
	int err = 0;

	for (int i = 0; i < argc; i++) {
		/* each keyword is taken with "--" too, as damo spells them */
		const char *kw = argv[i] + (strncmp(argv[i], "--", 2) ? 0 : 2);

		if (strcmp(kw, "duration") && strcmp(kw, "source") &&
		    strcmp(argv[i], "--input"))
			return cli_error(c, EXIT_USAGE,
					 "unknown keyword '%s' (expected duration, source or --input)",
					 argv[i]);
		if (i + 1 >= argc)
			return cli_error(c, EXIT_USAGE, "%s: expected a value", kw);
		if (!strcmp(argv[i], "--input")) {
			input = argv[++i];
			continue;
		}
		i++;
		if (!strcmp(kw, "duration")) {
			if (damos_parse_time_us(argv[i], 1000000, &duration))
				return cli_error(c, EXIT_USAGE,
						 "duration: '%s' is not a time (units: us ms s m h; bare: s)",
						 argv[i]);
			continue;
		}
		err = word_index(source_words, argv[i]);
		if (err < 0)
			return cli_error(c, EXIT_USAGE, "source: '%s' is not one of auto, tried, trace",
					 argv[i]);
		o.source = err;
		err = 0;
	}
	if (input) {
		struct cli_record rec;
		int status = cli_record_input(c, input, &rec);

		if (status)
			return status;
		wss = calloc(rec.nr, sizeof(*wss));
		for (size_t i = 0; wss && i < rec.nr; i++)
			for (size_t j = 0; j < rec.s[i].nr; j++)
				if (rec.s[i].r[j].nr_accesses)
					wss[i] += rec.s[i].r[j].end - rec.s[i].r[j].start;
		n = rec.nr;
		a = rec.a;
		duration = rec.s[n - 1].end_ns > rec.s[0].start_ns ?
			   (rec.s[n - 1].end_ns - rec.s[0].start_ns) / 1000 : 0;
		cli_record_free(&rec);
		if (!wss)
			return cli_error(c, EXIT_FAIL, "out of memory");
		d = NULL;
		goto out;
	}
	d = cli_open(c);
	if (!d)
		return EXIT_FAIL;
	err = damon_attrs_read(d, &a);
	t0 = mono_us();
	while (!err && (!n || mono_us() - t0 < duration)) {
		struct damos_tried_regions *tr = NULL;
		struct damos_tried_region r = { .sz = sizeof(r) };
		uint64_t t1 = mono_us(), sum = 0, *more;

		err = cli_access_snapshot(d, &o, &tr);
		for (size_t i = 0; !err && i < damos_tried_regions_nr(tr); i++)
			if (!damos_tried_regions_get(tr, i, &r) && r.nr_accesses)
				sum += r.end - r.start;
		damos_tried_regions_free(tr);
		if (err)
			break;
		more = realloc(wss, (n + 1) * sizeof(*wss));
		if (!more) {
			free(wss);
			return cli_close(c, d, cli_error(c, EXIT_FAIL, "out of memory"));
		}
		wss = more;
		wss[n++] = sum;
		if (progress && mono_us() - t0 >= 1000000)
			fprintf(c->err, "\rreport wss: %zu snapshots, %llu s of %llu s",
				n, (unsigned long long)((mono_us() - t0) / 1000000),
				(unsigned long long)(duration / 1000000));
		if (mono_us() - t1 < a.aggr_us)
			usleep(a.aggr_us - (mono_us() - t1));
	}
	if (progress && mono_us() - t0 >= 1000000)
		fprintf(c->err, "\r\033[K");
	if (err) {
		free(wss);
		return cli_close(c, d, cli_lib_error(c, err));
	}
out:
	qsort(wss, n, sizeof(*wss), u64_cmp);
	if (c->json)
		fprintf(c->out, "{\"nr_snapshots\":%zu,\"aggr_us\":%llu,\"percentiles\":[",
			n, (unsigned long long)a.aggr_us);
	else
		fprintf(c->out, "working set of %zu snapshots over %s (bytes of the regions accessed in an aggregation)\n%-10s %10s\n",
			n, damos_format_time_us(duration, s1, sizeof(s1)),
			"percentile", "wss");
	for (size_t i = 0; i < ARRAY_SIZE(pct); i++) {
		/* nearest rank */
		size_t k = pct[i] ? (pct[i] * n + 99) / 100 - 1 : 0;

		if (c->json)
			fprintf(c->out, "%s{\"percentile\":%u,\"wss_bytes\":%llu}",
				i ? "," : "", pct[i], (unsigned long long)wss[k]);
		else
			fprintf(c->out, "%-10u %10s\n", pct[i],
				human_size(wss[k], s1, sizeof(s1)));
	}
	if (c->json)
		fprintf(c->out, "]}\n");
	free(wss);
	return cli_close(c, d, EXIT_OK);
}

#define REPORT_ACCESS_ARGS "[sort address|access|age] [source auto|tried|trace] " \
	"[duration TIME] [--input FILE]"

static const struct cli_grammar access_grammar = {
	.kws = (const struct kw_spec[]){
		{ "sort", 1, sort_words, .args = "address|access|age",
		  .help = "the order of the regions: by address (default), hottest first, oldest first" },
		{ "source", 1, source_words, .args = "auto|tried|trace",
		  .help = "tried regions of a stat scheme (sysfs, 6.2+), or the damon_aggregated tracepoint; auto: tried regions where the kernel has them" },
		{ "duration", 1, .args = "TIME",
		  .help = "trace: record at least this long (bare: s; default two aggregation intervals)" },
		{ "--input", 1, .args = "FILE",
		  .help = "the last snapshot of a record (damoctl record, damo's json or json_compressed) instead of the kernel's" },
		{ NULL },
	},
};

static const struct cli_grammar wss_grammar = {
	.kws = (const struct kw_spec[]){
		{ "duration", 1, .args = "TIME",
		  .help = "how long to take snapshots (bare: s; default 5s), one an aggregation interval at most" },
		{ "source", 1, source_words, .args = "auto|tried|trace",
		  .help = "as for report access" },
		{ "--input", 1, .args = "FILE",
		  .help = "every snapshot of a record instead of the kernel's" },
		{ NULL },
	},
};

static const char *const heatmap_source_words[] = { "auto", "tried", "trace", NULL };
static const char *const heatmap_color_words[] = { "auto", "always", "never", NULL };

static const struct cli_grammar heatmap_grammar = {
	.kws = (const struct kw_spec[]){
		{ "duration", 1, .args = "TIME",
		  .help = "how long to take snapshots (bare: s; default 10s), one an aggregation interval at most" },
		{ "resol", 2, .args = "ROWS COLUMNS",
		  .help = "time rows and address columns (default: the terminal's size; 200 columns and a row a snapshot for --output, --data and --json)" },
		{ "address", 2, .args = "START END",
		  .help = "the address range (default: the span of regions without a gap that was accessed most)" },
		{ "source", 1, heatmap_source_words, .args = "auto|tried|trace",
		  .help = "as for report access" },
		{ "color", 1, heatmap_color_words, .args = "auto|always|never",
		  .help = "Unicode blocks in colour (auto: on a terminal whose TERM is not dumb, without NO_COLOR) or digits 0-9" },
		{ "size", 2, .args = "WIDTH HEIGHT",
		  .help = "the image's size in pixels (default 800 600)" },
		{ "--output", 1, .args = "FILE",
		  .help = "draw a PNG or SVG image (by the extension) with gnuplot" },
		{ "--data", 1, .args = "FILE",
		  .help = "write the matrix as gnuplot draws it: time (s), address, access rate (%)" },
		{ "--input", 1, .args = "FILE",
		  .help = "the snapshots of a record (damoctl record, damo's json or json_compressed) instead of the kernel's" },
		{ NULL },
	},
};

#define REPORT_HEATMAP_ARGS "[duration TIME] [resol ROWS COLUMNS] [address START END] " \
	"[source auto|tried|trace] [color auto|always|never] [size WIDTH HEIGHT] " \
	"[--output FILE] [--data FILE] [--input FILE]"

const struct cli_cmd report_cmds[] = {
	{ "access", do_access, REPORT_ACCESS_ARGS,
	  "the monitored regions of a running kdamond: size, access rate and age, and totals",
	  &access_grammar, CLI_WRITE | CLI_NOHOLD },
	{ "wss", do_wss, "[duration TIME] [source auto|tried|trace] [--input FILE]",
	  "the working set size (bytes of the regions accessed) over a time: its percentiles",
	  &wss_grammar, CLI_WRITE | CLI_NOHOLD },
	{ "heatmap", report_heatmap, REPORT_HEATMAP_ARGS,
	  "access over address and time for a duration: in the terminal, as a PNG or SVG drawn by gnuplot, or --json",
	  &heatmap_grammar, CLI_WRITE | CLI_NOHOLD },
	{ "effect", report_effect, REPORT_EFFECT_ARGS,
	  "over a window: each scheme's bytes tried and applied beside the kernel's counters of their effect (vmstat, meminfo, memory pressure)",
	  &report_effect_grammar },
	{ NULL },
};
