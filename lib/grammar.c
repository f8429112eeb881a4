// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * The text grammars of the monitoring attributes and targets, the words of
 * "damoctl attrs set" and "damoctl target set" (and of damoctl.conf(5),
 * whose parser is damoctl's), and which actions an operations set applies.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

int damon_attrs_parse(struct damon_attrs *a, int argc, const char *const *argv)
{
	bool seen[4] = { false };
	static const char *const kws[] = { "sample", "aggr", "update", "regions" };
	int err;

	if (!argc)
		return damos_err(-EINVAL,
				 "expected [sample TIME] [aggr TIME] [update TIME] [regions MIN MAX]");
	for (int i = 0; i < argc;) {
		size_t k;

		for (k = 0; k < ARRAY_SIZE(kws); k++)
			if (!strcmp(argv[i], kws[k]))
				break;
		if (k == ARRAY_SIZE(kws))
			return damos_err(-EINVAL,
					 "unknown keyword '%s' (expected sample aggr update regions)",
					 argv[i]);
		if (seen[k])
			return damos_err(-EINVAL, "%s given twice", kws[k]);
		seen[k] = true;
		if (k == 3) {
			if (i + 2 >= argc)
				return damos_err(-EINVAL, "regions: expected MIN MAX");
			err = damon_attrs_set_str(a, "min_regions", argv[i + 1]);
			if (!err)
				err = damon_attrs_set_str(a, "max_regions", argv[i + 2]);
			i += 3;
		} else {
			if (i + 1 >= argc)
				return damos_err(-EINVAL, "%s: expected a value", kws[k]);
			err = damon_attrs_set_str(a, kws[k], argv[i + 1]);
			i += 2;
		}
		if (err)
			return err;
	}
	return damon_attrs_validate(a);
}

/* The grammar of "damoctl target set" (cli/target.c). */
int damon_targets_parse(struct damon_targets *t, int argc,
			const char *const *argv)
{
	int i = 1, err;

	memset(t, 0, sizeof(*t));
	t->sz = sizeof(*t);
	if (argc < 1)
		return damos_err(-EINVAL, "expected paddr, vaddr or fvaddr");
	for (t->ops = 0; t->ops < DAMON_NR_OPS; t->ops++)
		if (!strcmp(argv[0], damon_ops_name(t->ops)))
			break;
	if (t->ops == DAMON_NR_OPS)
		return damos_err(-EINVAL,
				 "unknown operations '%s' (expected paddr vaddr fvaddr)",
				 argv[0]);
	if (t->ops != DAMON_OPS_VADDR && (err = damos_targets_add(t, 0)))
		return err;
	while (i < argc) {
		if (!strcmp(argv[i], "pid") && t->ops == DAMON_OPS_VADDR) {
			char *end;
			long pid;

			if (i + 1 >= argc)
				return damos_err(-EINVAL, "pid: expected PID");
			errno = 0;
			pid = strtol(argv[i + 1], &end, 10);
			if (errno || *end || end == argv[i + 1] || pid <= 0 ||
			    pid > INT32_MAX)
				return damos_err(-EINVAL, "pid: '%s' is not a pid",
						 argv[i + 1]);
			err = damos_targets_add(t, (int)pid);
			if (err)
				return err;
			i += 2;
		} else if (!strcmp(argv[i], "region")) {
			uint64_t start, end;

			if (!t->nr)
				return damos_err(-EINVAL, "region: give 'pid PID' first");
			if (i + 2 >= argc)
				return damos_err(-EINVAL, "region: expected START END");
			err = damos_parse_addr(argv[i + 1], &start);
			if (!err)
				err = damos_parse_addr(argv[i + 2], &end);
			if (err)
				return damos_err_prefix(err, "region: ");
			err = damos_target_region_add(&t->targets[t->nr - 1],
						      start, end);
			if (err)
				return err;
			i += 3;
		} else {
			return damos_err(-EINVAL,
					 "unknown keyword '%s' (expected %sregion)",
					 argv[i],
					 t->ops == DAMON_OPS_VADDR ? "pid " : "");
		}
	}
	if (t->ops == DAMON_OPS_VADDR && !t->nr)
		return damos_err(-EINVAL, "vaddr: expected pid PID");
	return damon_targets_validate(t);
}

bool damon_ops_supports(enum damon_ops o, enum damos_action a)
{
	if ((unsigned int)a >= DAMOS_NR_ACTIONS || (unsigned int)o >= DAMON_NR_OPS)
		return false;
	return o == DAMON_OPS_PADDR ? damos_actions[a].paddr :
				      damos_actions[a].vaddr;
}

