// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static int parse_addr(struct cli *c, const char *s, uint64_t *v)
{
	char *end;

	if (!strncmp(s, "0x", 2) || !strncmp(s, "0X", 2)) {
		errno = 0;
		*v = strtoull(s + 2, &end, 16);
		if (!errno && !*end && end != s + 2)
			return EXIT_OK;
		return cli_error(c, EXIT_USAGE, "region: '%s' is not an address",
				 s);
	}
	if (damos_parse_size(s, v))
		return cli_error(c, EXIT_USAGE, "region: '%s' is not an address (0xHEX or a size)",
				 s);
	return EXIT_OK;
}

static void print_targets(struct cli *c, const struct damos_targets *t)
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
		fprintf(c->out, "]}\n");
		return;
	}
	if (!t->nr) {
		fprintf(c->out, "none\n");
		return;
	}
	fprintf(c->out, "%s", damos_ops_name(t->ops));
	for (size_t i = 0; i < t->nr; i++) {
		const struct damos_target *tg = &t->targets[i];

		if (t->ops == DAMOS_OPS_VADDR)
			fprintf(c->out, " pid %d", tg->pid);
		for (size_t r = 0; r < tg->nr_regions; r++)
			fprintf(c->out, " region 0x%llx 0x%llx",
				(unsigned long long)tg->regions[r].start,
				(unsigned long long)tg->regions[r].end);
	}
	fprintf(c->out, "\n");
}

static int do_show(struct cli *c, int argc, char **argv)
{
	struct damos_targets t;
	struct damos *d;
	int err;

	(void)argv;
	if (argc)
		return cli_error(c, EXIT_USAGE, "no arguments expected");
	d = cli_open(c);
	if (!d)
		return EXIT_FAIL;
	err = damos_targets_read(d, &t);
	if (!err)
		print_targets(c, &t);
	damos_targets_free(&t);
	return cli_close(c, d, err ? cli_lib_error(c, err) : EXIT_OK);
}

static int add_target(struct damos_targets *t, int pid)
{
	struct damos_target *n = realloc(t->targets, (t->nr + 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	t->targets = n;
	memset(&n[t->nr], 0, sizeof(*n));
	n[t->nr++].pid = pid;
	return 0;
}

static int parse_targets(struct cli *c, int argc, char **argv,
			 struct damos_targets *t)
{
	int i = 1;

	memset(t, 0, sizeof(*t));
	if (argc < 1)
		return cli_error(c, EXIT_USAGE,
				 "expected paddr, vaddr or fvaddr");
	for (t->ops = 0; t->ops < DAMOS_NR_OPS; t->ops++)
		if (!strcmp(argv[0], damos_ops_name(t->ops)))
			break;
	if (t->ops == DAMOS_NR_OPS)
		return cli_error(c, EXIT_USAGE,
				 "unknown operations '%s' (expected paddr vaddr fvaddr)",
				 argv[0]);
	if (t->ops != DAMOS_OPS_VADDR && add_target(t, 0))
		return cli_error(c, EXIT_FAIL, "out of memory");
	while (i < argc) {
		if (!strcmp(argv[i], "pid") && t->ops == DAMOS_OPS_VADDR) {
			char *end;
			long pid;

			if (i + 1 >= argc)
				return cli_error(c, EXIT_USAGE, "pid: expected PID");
			errno = 0;
			pid = strtol(argv[i + 1], &end, 10);
			if (errno || *end || pid <= 0 || pid > INT32_MAX)
				return cli_error(c, EXIT_USAGE,
						 "pid: '%s' is not a pid",
						 argv[i + 1]);
			if (add_target(t, (int)pid))
				return cli_error(c, EXIT_FAIL, "out of memory");
			i += 2;
		} else if (!strcmp(argv[i], "region")) {
			struct damos_target *tg;
			struct damos_region *r;
			uint64_t start, end;
			int status;

			if (!t->nr)
				return cli_error(c, EXIT_USAGE,
						 "region: give 'pid PID' first");
			if (i + 2 >= argc)
				return cli_error(c, EXIT_USAGE,
						 "region: expected START END");
			status = parse_addr(c, argv[i + 1], &start);
			if (!status)
				status = parse_addr(c, argv[i + 2], &end);
			if (status)
				return status;
			tg = &t->targets[t->nr - 1];
			r = realloc(tg->regions, (tg->nr_regions + 1) * sizeof(*r));
			if (!r)
				return cli_error(c, EXIT_FAIL, "out of memory");
			tg->regions = r;
			r[tg->nr_regions].start = start;
			r[tg->nr_regions++].end = end;
			i += 3;
		} else {
			return cli_error(c, EXIT_USAGE,
					 "unknown keyword '%s' (expected %sregion)",
					 argv[i],
					 t->ops == DAMOS_OPS_VADDR ? "pid " : "");
		}
	}
	if (t->ops == DAMOS_OPS_VADDR && !t->nr)
		return cli_error(c, EXIT_USAGE, "vaddr: expected pid PID");
	if (damos_targets_validate(t))
		return cli_error(c, EXIT_USAGE, "%s", damos_errmsg());
	return EXIT_OK;
}

static int do_set(struct cli *c, int argc, char **argv)
{
	struct damos_targets t;
	struct damos *d;
	int status, err;

	status = parse_targets(c, argc, argv, &t);
	if (status) {
		damos_targets_free(&t);
		return status;
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
	struct damos *d;
	int err;

	(void)argv;
	if (argc)
		return cli_error(c, EXIT_USAGE, "no arguments expected");
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

static const char *const target_keywords[] = {
	"paddr", "vaddr", "fvaddr", "pid", "region", NULL,
};

const struct cli_cmd target_cmds[] = {
	{ "show", do_show, "", "print the operations, targets and regions", NULL },
	{ "set", do_set,
	  "{paddr|fvaddr} [region START END]... | vaddr pid PID [region START END]... [pid PID ...]",
	  "replace the targets (addresses in 0xHEX or sizes)", target_keywords },
	{ "clear", do_clear, "", "remove every target", NULL },
	{ NULL },
};
