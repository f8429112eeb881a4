// SPDX-License-Identifier: GPL-2.0-or-later
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

void cli_print_targets(struct cli *c, const struct damon_targets *t)
{
	if (c->json) {
		json_write(c->out, json_targets(t));
		return;
	}
	fprintf(c->out, "%s", t->nr ? damon_ops_name(t->ops) : "none");
	for (size_t i = 0; i < t->nr; i++) {
		const struct damon_target *tg = &t->targets[i];

		if (t->ops == DAMON_OPS_VADDR)
			fprintf(c->out, " pid %d", tg->pid);
		for (size_t r = 0; r < tg->nr_regions; r++)
			fprintf(c->out, " region 0x%llx 0x%llx",
				(unsigned long long)tg->regions[r].start,
				(unsigned long long)tg->regions[r].end);
	}
}

/* "region 0x.. 0x.. region ..." of @r: the note's list */
static void note_regions(struct cli *c, const char *what,
			 const struct damon_region *r, size_t n)
{
	char *text = NULL, sz[32];
	size_t len = 0;
	uint64_t total = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return;
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "%sregion 0x%llx 0x%llx", i ? " " : "",
			(unsigned long long)r[i].start,
			(unsigned long long)r[i].end);
		total += r[i].end - r[i].start;
	}
	fclose(f);
	cli_note(c, "paddr: %s, %s (%s)", what, text ? text : "?",
		 damos_format_size(total, sz, sizeof(sz)));
	free(text);
}

/*
 * paddr with a target of no region: Linux 6.1 to 6.12 then monitor
 * nothing.  Take every System RAM range of /proc/iomem, a region each (damo
 * and damon_lru_sort take the biggest only: on a machine with memory above
 * the 32-bit hole that leaves the rest unseen), and say so; none found is
 * an error.  A region each, not one from the first to the last: the hole
 * between them is no memory, and DAMON would spend regions and samples on
 * it.  *@filled tells whether @t changed.
 */
int cli_paddr_fill(struct cli *c, struct damon_targets *t, bool *filled)
{
	struct damon_region *r;
	size_t n;
	int err;

	*filled = false;
	if (t->ops != DAMON_OPS_PADDR || t->nr != 1 || t->targets[0].nr_regions)
		return EXIT_OK;
	err = damos_iomem_ram(c->root, &r, &n);
	if (err)
		return cli_error(c, EXIT_FAIL,
				 "paddr with no region monitors nothing, and %s: give one (region START END)",
				 cli_errmsg());
	t->targets[0].regions = r;
	t->targets[0].nr_regions = n;
	*filled = true;
	note_regions(c, "no region given: every System RAM range of /proc/iomem", r, n);
	return EXIT_OK;
}

/*
 * "node N" among the words of target set (paddr only): NUMA node N's
 * memory as @t's regions (damos_node_ram()).  The words without it go on
 * to damon_targets_parse(): *@nid is -1 when there is none.
 */
static int take_node(struct cli *c, int *argc, char **argv, int *nid)
{
	*nid = -1;
	for (int i = 1; i < *argc; i++) {
		char *end;
		long v;

		if (strcmp(argv[i], "node"))
			continue;
		if (strcmp(argv[0], "paddr"))
			return cli_error(c, EXIT_USAGE,
					 "node: only paddr monitors a node's memory");
		if (*nid >= 0)
			return cli_error(c, EXIT_USAGE, "node given twice");
		if (i + 1 >= *argc)
			return cli_error(c, EXIT_USAGE, "node: expected N");
		errno = 0;
		v = strtol(argv[i + 1], &end, 10);
		if (errno || *end || end == argv[i + 1] || v < 0 ||
		    v > INT32_MAX || !isdigit((unsigned char)argv[i + 1][0]))
			return cli_error(c, EXIT_USAGE,
					 "node: '%s' is not a node id (0, 1, ...)",
					 argv[i + 1]);
		*nid = (int)v;
		memmove(argv + i, argv + i + 2, (*argc - i - 2) * sizeof(*argv));
		*argc -= 2;
		i--;
	}
	return EXIT_OK;
}

static int node_fill(struct cli *c, struct damon_targets *t, int nid)
{
	struct damon_region *r;
	char what[48];
	size_t n;
	int err;

	if (t->targets[0].nr_regions)
		return cli_error(c, EXIT_USAGE,
				 "node %d and region: give one or the other", nid);
	err = damos_node_ram(c->root, nid, &r, &n);
	if (err)
		return err == -ENOMEM ? cli_lib_error(c, err) :
		       cli_error(c, EXIT_FAIL, "%s", cli_errmsg());
	t->targets[0].regions = r;
	t->targets[0].nr_regions = n;
	snprintf(what, sizeof(what), "node %d", nid);
	note_regions(c, what, r, n);
	return EXIT_OK;
}

static int do_show(struct cli *c, int argc, char **argv)
{
	struct damon_targets t;
	struct damon_ctx *d;
	int err;

	(void)argc;
	(void)argv;
	d = cli_open(c);
	if (!d)
		return EXIT_FAIL;
	err = damon_targets_read(d, &t);
	if (!err) {
		cli_print_targets(c, &t);
		fputc('\n', c->out);
	}
	damon_targets_free(&t);
	return cli_close(c, d, err ? cli_lib_error(c, err) : EXIT_OK);
}

/* target set's edit: the schemes must mean something on the new operations */
static int set_edit(struct cli *c, struct damon_kdamond_setup *k, void *arg)
{
	struct damon_targets *t = arg;
	char which[64];
	int status = EXIT_OK;

	for (size_t i = 0; t->nr && !status && i < k->nr_schemes; i++) {
		snprintf(which, sizeof(which), "scheme %zu: ", i);
		status = cli_check_ops(c, t->ops, damos_scheme_action(k->schemes[i]),
				       which);
	}
	if (!status)
		status = cli_paddr_fill(c, t, &(bool){ false });
	if (!status) {
		/* the setup takes @t's memory */
		damon_targets_free(&k->targets);
		k->targets = *t;
		t->nr = 0;
		t->targets = NULL;
	}
	return status;
}

static int do_set(struct cli *c, int argc, char **argv)
{
	struct damon_targets t;
	int err, status, nid;

	status = take_node(c, &argc, argv, &nid);
	if (status)
		return status;
	err = damon_targets_parse(&t, argc, (const char *const *)argv);
	if (err) {
		damon_targets_free(&t);
		return cli_parse_error(c, err);
	}
	if (nid < 0 || !(status = node_fill(c, &t, nid)))
		status = cli_setup_change(c, set_edit, &t);
	damon_targets_free(&t);
	return status;
}

/* target clear's edit: no target, the operations as they are */
static int clear_edit(struct cli *c, struct damon_kdamond_setup *k, void *arg)
{
	enum damon_ops ops = k->targets.ops;

	(void)c;
	(void)arg;
	damon_targets_free(&k->targets);
	k->targets.ops = ops;
	return EXIT_OK;
}

static int do_clear(struct cli *c, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cli_setup_change(c, clear_edit, NULL);
}

static const struct cli_grammar target_grammar = {
	.kws = (const struct kw_spec[]){
		{ "pid", 1, .args = "PID",
		  .help = "vaddr: a process; the regions after it are its own" },
		{ "region", 2, .args = "START END",
		  .help = "an initial region: 0xHEX or sizes, in order, not overlapping" },
		{ "node", 1, .args = "N",
		  .help = "paddr: NUMA node N's memory (its memory blocks in sysfs, cut to System RAM); paddr with neither: every System RAM range" },
		{ NULL },
	},
	.first = (const char *const[]){ "paddr", "vaddr", "fvaddr", NULL },
	.first_help = "the operations: physical memory, processes' virtual memory, fixed virtual ranges (sysfs only)",
	.repeat = true,
};

const struct cli_cmd target_cmds[] = {
	{ "show", do_show, "", "print the operations, targets and regions", NULL },
	{ "set", do_set,
	  "paddr [node N | region START END...] | fvaddr [region START END]... | vaddr pid PID [region START END]... [pid PID ...]",
	  "replace the targets (addresses in 0xHEX or sizes)", &target_grammar,
	  CLI_WRITE | CLI_EDIT },
	{ "clear", do_clear, "", "remove every target", NULL, CLI_WRITE | CLI_EDIT },
	{ NULL },
};
