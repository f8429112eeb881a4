// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * Reading a DAMON tree: the values the library reads from sysfs files
 * (numbers, action and metric names, state words, nr_* counts that size
 * loops) and from dbgfs files (schemes, attrs, target_ids, init_regions,
 * kdamond_pid, monitor_on) and from damon_lru_sort's module parameters, as
 * a kernel, an older or newer kernel or a hand-made fake tree may hold
 * them.
 *
 * Input: one byte picking the interface, then the contents of the tree's
 * files in the order of faketree.h (sysfs, dbgfs, module parameters),
 * separated by 0x01 bytes; files left out keep their default content.
 * Properties: no crash, leak, UB or hang; a failure has a message; the
 * schemes read have every field within the range its file can hold.
 */
#include <errno.h>

#include "faketree.h"
#include "layers.h"

static void read_all(enum damon_iface iface)
{
	const struct damos_layer *fake_kernel[] = { &damos_test_layer_fake_kernel, NULL };
	struct damon_opts o = DAMON_OPTS_INIT;
	struct damos_scheme **s = NULL;
	struct damon_targets t = { 0 };
	struct damon_attrs a;
	struct damon_ctx *d;
	size_t n = 0;
	bool on;
	int pid;

	o.root = fake_root;
	o.iface = iface;
	o.layers = fake_kernel;
	d = damon_open(&o);
	if (!d) {
		fuzz_check_msg("damon_open");
		return;
	}
	/*
	 * A sysfs number file holds an unsigned long whatever the field (the
	 * kernel keeps age and nr_accesses as unsigned long in sysfs and
	 * truncates them to unsigned int only when it makes the scheme), and
	 * the library keeps what another tool wrote there, to write it back
	 * as it was: only its words (action, watermark metric) are bounded.
	 * dbgfs lines are parsed to the fields' ranges.
	 */
	if (!damos_schemes_read(d, &s, &n)) {
		for (size_t i = 0; i < n; i++)
			for (int f = 0; f < DAMOS_NR_FIELDS; f++)
				FUZZ_CHECK((iface == DAMON_IFACE_SYSFS &&
					    f != DAMOS_F_ACTION &&
					    f != DAMOS_F_WMARKS_METRIC) ||
					   damos_scheme_get(s[i], f) <=
					   damos_field_max(f) ||
					   (f == DAMOS_F_ACTION &&
				    damos_scheme_get(s[i], f) == DAMOS_ACTION_UNKNOWN) ||
				   (f == DAMOS_F_TARGET_NID &&
					    damos_scheme_get(s[i], f) == DAMOS_NID_NONE),
					   "scheme %zu: %s beyond its max", i,
					   damos_field_name(f));
		damos_schemes_free(s, n);
	} else {
		fuzz_check_msg("damos_schemes_read");
	}
	if (damon_attrs_read(d, &a))
		fuzz_check_msg("damon_attrs_read");
	if (!damon_targets_read(d, &t))
		damon_targets_free(&t);
	else
		fuzz_check_msg("damon_targets_read");
	if (damon_monitor_status(d, &on, &pid))
		fuzz_check_msg("damon_monitor_status");
	if (iface == DAMON_IFACE_DBGFS)
		damos_dbgfs_lru_supported(d);
	damon_close(d);
}

static void read_lru_sort(void)
{
	struct damon_opts o = DAMON_OPTS_INIT;
	struct damon_module *l;
	struct damos_scheme *s;

	o.root = fake_root;
	if (damon_module_read(&o, "lru_sort", &l)) {
		fuzz_check_msg("damon_module_read");
		return;
	}
	damon_module_enabled(l);
	damon_module_kdamond_pid(l);
	if (!damon_module_validate(l))
		for (int a = DAMOS_ACTION_LRU_PRIO; a <= DAMOS_ACTION_LRU_DEPRIO; a++) {
			s = damon_module_scheme(l, a == DAMOS_ACTION_LRU_DEPRIO);
			FUZZ_CHECK(s && !damos_scheme_validate(s),
				   "read lru-sort parameters are valid, their %s scheme is not",
				   damos_action_name(a));
			damos_scheme_free(s);
		}
	damon_module_free(l);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data + 1, *end = (const char *)data + size;
	size_t i;

	if (size < 1)
		return 0;
	fake_tree();
	for (i = 0; i < NR_FAKE_FILES; i++) {
		const char *sep = p < end ? memchr(p, 0x01, (size_t)(end - p)) : NULL;

		if (p >= end) {
			fake_put(fake_files[i][0], fake_files[i][1],
				 strlen(fake_files[i][1]));
			continue;
		}
		if (!sep)
			sep = end;
		fake_put(fake_files[i][0], p, (size_t)(sep - p));
		p = sep + 1;
	}
	read_all(data[0] & 1 ? DAMON_IFACE_DBGFS : DAMON_IFACE_SYSFS);
	read_lru_sort();
	return 0;
}
