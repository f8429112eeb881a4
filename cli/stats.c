// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdlib.h>

#include "cli.h"

/* bytes per second, in the units of damos_format_size() where whole */
static char *rate_str(uint64_t bps, char *buf, size_t sz)
{
	static const char units[] = "KMGT";
	double v = bps;
	int u = -1;

	while (v >= 1024 && u < 3) {
		v /= 1024;
		u++;
	}
	if (u < 0)
		snprintf(buf, sz, "%llu", (unsigned long long)bps);
	else
		snprintf(buf, sz, "%.1f%c", v, units[u]);
	return buf;
}

static int do_show(struct cli *c, int argc, char **argv)
{
	struct damos_scheme **arr;
	struct damon_ctx *d;
	struct cli_rate *rates;
	struct cli_metrics m;
	char t1[32], t2[32];
	size_t n;
	int status;

	status = cli_metrics_args(c, &argc, argv, &m);
	if (status || m.format != CLI_FORMAT_TEXT)
		return status ? status : cli_metrics_print(c, &m, false);
	d = cli_schemes_open(c, &arr, &n, true, &status);
	if (!d)
		return status;
	struct json_object *list = c->json ? json_object_new_array() : NULL;

	/* --watch: rates since the last frame beside the totals */
	rates = c->watch_frame ? calloc(n + 1, sizeof(*rates)) : NULL;
	if (rates)
		cli_rates_update(c, arr, n, rates);
	if (!c->json)
		fprintf(c->out, "%-3s %-11s %12s %14s %12s %14s %10s%s\n", "#",
			"action", "nr_tried", "sz_tried", "nr_applied",
			"sz_applied", "qt_exceeds",
			rates ? "    tried/s  applied/s  qt_exc" : "");
	for (size_t i = 0; i < n; i++) {
		const struct damos_scheme *s = arr[i];

		if (c->json) {
			struct json_object *o = json_object_new_object();

			json_object_object_add(o, "index", json_u64(i));
			json_object_object_add(o, "action",
					       json_str(damos_scheme_action_name(s)));
			for (int f = DAMOS_F_NR_TRIED; f <= DAMOS_F_QT_EXCEEDS; f++)
				json_object_object_add(o, damos_field_name(f),
						       json_u64(damos_scheme_get(s, f)));
			/* later kernels' values, where this one has them */
			if (damos_has(d, DAMOS_FEAT_EFFECTIVE_BYTES) == 1)
				json_object_object_add(o, "effective_bytes",
						       json_u64(damos_scheme_get(s, DAMOS_F_EFFECTIVE_BYTES)));
			if (damos_has(d, DAMOS_FEAT_TRIED_BYTES) == 1)
				json_object_object_add(o, "tried_bytes",
						       json_u64(damos_scheme_get(s, DAMOS_F_TRIED_BYTES)));
			if (rates && rates[i].valid) {
				struct json_object *r = json_object_new_object();

				json_object_object_add(r, "interval_us", json_u64(rates[i].interval_us));
				json_object_object_add(r, "tried_bytes_per_second",
						       json_u64(rates[i].tried_bps));
				json_object_object_add(r, "applied_bytes_per_second",
						       json_u64(rates[i].applied_bps));
				json_object_object_add(r, "qt_exceeds", json_u64(rates[i].qt_exceeds));
				json_object_object_add(o, "rates", r);
			}
			json_object_array_add(list, o);
			continue;
		}
		fprintf(c->out, "%-3zu %-11s %12llu %14llu %12llu %14llu %10llu",
			i, damos_scheme_action_name(s),
			(unsigned long long)damos_scheme_get(s, DAMOS_F_NR_TRIED),
			(unsigned long long)damos_scheme_get(s, DAMOS_F_SZ_TRIED),
			(unsigned long long)damos_scheme_get(s, DAMOS_F_NR_APPLIED),
			(unsigned long long)damos_scheme_get(s, DAMOS_F_SZ_APPLIED),
			(unsigned long long)damos_scheme_get(s, DAMOS_F_QT_EXCEEDS));
		if (rates && rates[i].valid)
			fprintf(c->out, " %10s %10s %7llu",
				rate_str(rates[i].tried_bps, t1, sizeof(t1)),
				rate_str(rates[i].applied_bps, t2, sizeof(t2)),
				(unsigned long long)rates[i].qt_exceeds);
		else if (rates)
			fprintf(c->out, " %10s %10s %7s", "-", "-", "-");
		fputc('\n', c->out);
	}
	free(rates);
	if (c->json)
		json_print(c->out, list);
	cli_no_schemes(c, n);
	damos_schemes_free(arr, n);
	return cli_close(c, d, EXIT_OK);
}

const struct cli_cmd stats_cmds[] = {
	{ "show", do_show, CLI_METRICS_ARGS, "print each scheme's statistics", NULL,
	  CLI_WATCH },
	{ NULL },
};
