// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stats show --watch: each scheme's rates since the last frame (bytes
 * tried and applied per second, quota exceeds in the interval), beside
 * the kernel's totals.  A scheme has a rate once it was there in the last
 * frame with the same action and counters that did not go back (a
 * restarted kdamond starts from zero).
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

static const enum damos_field fields[] = {
	DAMOS_F_SZ_TRIED, DAMOS_F_SZ_APPLIED, DAMOS_F_QT_EXCEEDS,
};

static struct {
	size_t n;
	uint64_t *v;		/* n * ARRAY_SIZE(fields) */
	int *action;
	uint64_t us;		/* CLOCK_MONOTONIC */
} last;

static uint64_t now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static void forget(void)
{
	free(last.v);
	free(last.action);
	memset(&last, 0, sizeof(last));
}

void cli_rates_update(struct cli *c, struct damos_scheme *const *arr, size_t n,
		      struct cli_rate *out)
{
	const size_t nf = ARRAY_SIZE(fields);
	uint64_t t = now_us(), *v = calloc(n * nf + 1, sizeof(*v));
	int *action = calloc(n + 1, sizeof(*action));

	/* a new --watch starts afresh */
	if (c->watch_frame <= 1)
		forget();
	for (size_t i = 0; i < n; i++) {
		out[i] = (struct cli_rate){ .valid = false };
		if (!v || !action)
			continue;
		action[i] = damos_scheme_get(arr[i], DAMOS_F_ACTION);
		for (size_t f = 0; f < nf; f++)
			v[i * nf + f] = damos_scheme_get(arr[i], fields[f]);
		if (i >= last.n || !last.v || last.action[i] != action[i] ||
		    t <= last.us)
			continue;
		out[i].valid = true;
		out[i].interval_us = t - last.us;
		for (size_t f = 0; f < nf; f++)
			if (v[i * nf + f] < last.v[i * nf + f])
				out[i].valid = false;
		if (!out[i].valid)
			continue;
		out[i].tried_bps = (v[i * nf] - last.v[i * nf]) * 1000000 /
				   out[i].interval_us;
		out[i].applied_bps = (v[i * nf + 1] - last.v[i * nf + 1]) *
				     1000000 / out[i].interval_us;
		out[i].qt_exceeds = v[i * nf + 2] - last.v[i * nf + 2];
	}
	forget();
	last.n = v && action ? n : 0;
	last.v = v;
	last.action = action;
	last.us = t;
}
