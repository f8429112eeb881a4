// SPDX-License-Identifier: GPL-2.0-or-later
/* report access: what DAMON sees, one aggregation interval of it. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

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
			  size_t n, const struct damos_attrs *a,
			  const char *source)
{
	uint64_t max = damos_attrs_max_nr_accesses(a), total = 0, hot = 0;
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

static int do_access(struct cli *c, int argc, char **argv)
{
	struct damos_snapshot_opts o = { .sz = sizeof(o) };
	struct damos_tried_regions *tr = NULL;
	struct damos_tried_region *r = NULL;
	struct damos_attrs a;
	struct damos_ctx *d;
	int sort = SORT_ADDRESS, err;
	size_t n;

	for (int i = 0; i < argc; i++) {
		const char *kw = !strcmp(argv[i], "--sort") ? "sort" : argv[i];
		int v;

		if (strcmp(kw, "sort") && strcmp(kw, "source") && strcmp(kw, "duration"))
			return cli_error(c, EXIT_USAGE,
					 "unknown keyword '%s' (expected sort, source or duration)",
					 argv[i]);
		if (i + 1 >= argc)
			return cli_error(c, EXIT_USAGE, "%s: expected a value",
					 kw);
		i++;
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
	d = cli_open(c);
	if (!d)
		return EXIT_FAIL;
	err = damos_attrs_read(d, &a);
	if (!err)
		err = damos_access_snapshot(d, &o, &tr);
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
		      o.source == DAMOS_SNAPSHOT_TRACE ||
		      damos_has(d, DAMOS_FEAT_TRIED_REGIONS) != 1 ||
		      damos_get_iface(d) != DAMOS_IFACE_SYSFS ? "trace" : "tried");
	free(r);
	damos_tried_regions_free(tr);
	return cli_close(c, d, EXIT_OK);
}

#define REPORT_ACCESS_ARGS "[sort address|access|age] [source auto|tried|trace] " \
	"[duration TIME]"

static const struct cli_grammar access_grammar = {
	.kws = (const struct kw_spec[]){
		{ "sort", 1, sort_words, .args = "address|access|age",
		  .help = "the order of the regions: by address (default), hottest first, oldest first" },
		{ "source", 1, source_words, .args = "auto|tried|trace",
		  .help = "tried regions of a stat scheme (sysfs, 6.2+), or the damon_aggregated tracepoint; auto: tried regions where the kernel has them" },
		{ "duration", 1, .args = "TIME",
		  .help = "trace: record at least this long (bare: s; default two aggregation intervals)" },
		{ NULL },
	},
};

const struct cli_cmd report_cmds[] = {
	{ "access", do_access, REPORT_ACCESS_ARGS,
	  "the monitored regions of a running kdamond: size, access rate and age, and totals",
	  &access_grammar, CLI_WRITE },
	{ NULL },
};
