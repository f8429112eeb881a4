// SPDX-License-Identifier: GPL-2.0-or-later
#include "cli.h"

static int do_show(struct cli *c, int argc, char **argv)
{
	struct damos_scheme **arr;
	struct damos_ctx *d;
	size_t n;
	int status;

	(void)argc;
	(void)argv;
	d = cli_schemes_open(c, &arr, &n, &status);
	if (!d)
		return status;
	struct json_object *list = c->json ? json_object_new_array() : NULL;

	if (!c->json)
		fprintf(c->out, "%-3s %-11s %12s %14s %12s %14s %10s\n", "#",
			"action", "nr_tried", "sz_tried", "nr_applied",
			"sz_applied", "qt_exceeds");
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
			json_object_array_add(list, o);
			continue;
		}
		fprintf(c->out, "%-3zu %-11s %12llu %14llu %12llu %14llu %10llu\n",
			i, damos_scheme_action_name(s),
			(unsigned long long)damos_scheme_get(s, DAMOS_F_NR_TRIED),
			(unsigned long long)damos_scheme_get(s, DAMOS_F_SZ_TRIED),
			(unsigned long long)damos_scheme_get(s, DAMOS_F_NR_APPLIED),
			(unsigned long long)damos_scheme_get(s, DAMOS_F_SZ_APPLIED),
			(unsigned long long)damos_scheme_get(s, DAMOS_F_QT_EXCEEDS));
	}
	if (c->json)
		json_print(c->out, list);
	cli_no_schemes(c, n);
	damos_schemes_free(arr, n);
	return cli_close(c, d, EXIT_OK);
}

const struct cli_cmd stats_cmds[] = {
	{ "show", do_show, "", "print each scheme's statistics", NULL, CLI_WATCH },
	{ NULL },
};
