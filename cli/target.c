// SPDX-License-Identifier: GPL-2.0-or-later
#include "cli.h"

void cli_print_targets(struct cli *c, const struct damos_targets *t)
{
	if (c->json) {
		fprintf(c->out, "{\"operations\":\"%s\",\"targets\":[",
			damos_ops_name(t->ops));
		for (size_t i = 0; i < t->nr; i++) {
			const struct damos_target *tg = &t->targets[i];

			fprintf(c->out, "%s{\"pid\":%d,\"regions\":[", i ? "," : "",
				tg->pid);
			for (size_t r = 0; r < tg->nr_regions; r++)
				fprintf(c->out, "%s{\"start\":%llu,\"end\":%llu}",
					r ? "," : "",
					(unsigned long long)tg->regions[r].start,
					(unsigned long long)tg->regions[r].end);
			fprintf(c->out, "]}");
		}
		fprintf(c->out, "]}");
		return;
	}
	fprintf(c->out, "%s", t->nr ? damos_ops_name(t->ops) : "none");
	for (size_t i = 0; i < t->nr; i++) {
		const struct damos_target *tg = &t->targets[i];

		if (t->ops == DAMOS_OPS_VADDR)
			fprintf(c->out, " pid %d", tg->pid);
		for (size_t r = 0; r < tg->nr_regions; r++)
			fprintf(c->out, " region 0x%llx 0x%llx",
				(unsigned long long)tg->regions[r].start,
				(unsigned long long)tg->regions[r].end);
	}
}

static int do_show(struct cli *c, int argc, char **argv)
{
	struct damos_targets t;
	struct damos_ctx *d;
	int err;

	(void)argc;
	(void)argv;
	d = cli_open(c);
	if (!d)
		return EXIT_FAIL;
	err = damos_targets_read(d, &t);
	if (!err) {
		cli_print_targets(c, &t);
		fputc('\n', c->out);
	}
	damos_targets_free(&t);
	return cli_close(c, d, err ? cli_lib_error(c, err) : EXIT_OK);
}

static int do_set(struct cli *c, int argc, char **argv)
{
	struct damos_targets t;
	struct damos_ctx *d;
	int err;

	err = damos_targets_parse(&t, argc, (const char *const *)argv);
	if (err) {
		damos_targets_free(&t);
		return cli_parse_error(c, err);
	}
	d = cli_open(c);
	if (!d) {
		damos_targets_free(&t);
		return EXIT_FAIL;
	}
	err = damos_targets_write(d, &t);
	damos_targets_free(&t);
	return cli_close(c, d, err ? cli_lib_error(c, err) : EXIT_OK);
}

static int do_clear(struct cli *c, int argc, char **argv)
{
	struct damos_targets t = { .ops = DAMOS_OPS_VADDR };
	struct damos_ctx *d;
	int err;

	(void)argc;
	(void)argv;
	d = cli_open(c);
	if (!d)
		return EXIT_FAIL;
	err = damos_targets_read(d, &t);
	if (!err) {
		enum damos_ops ops = t.ops;

		damos_targets_free(&t);
		t.ops = ops;
		err = damos_targets_write(d, &t);
	}
	return cli_close(c, d, err ? cli_lib_error(c, err) : EXIT_OK);
}

static const struct cli_grammar target_grammar = {
	.kws = (const struct kw_spec[]){
		{ "pid", 1, .args = "PID",
		  .help = "vaddr: a process; the regions after it are its own" },
		{ "region", 2, .args = "START END",
		  .help = "an initial region: 0xHEX or sizes, in order, not overlapping" },
		{ NULL },
	},
	.first = (const char *const[]){ "paddr", "vaddr", "fvaddr", NULL },
	.first_help = "the operations: physical memory, processes' virtual memory, fixed virtual ranges (sysfs only)",
	.repeat = true,
};

const struct cli_cmd target_cmds[] = {
	{ "show", do_show, "", "print the operations, targets and regions", NULL },
	{ "set", do_set,
	  "{paddr|fvaddr} [region START END]... | vaddr pid PID [region START END]... [pid PID ...]",
	  "replace the targets (addresses in 0xHEX or sizes)", &target_grammar },
	{ "clear", do_clear, "", "remove every target", NULL },
	{ NULL },
};
