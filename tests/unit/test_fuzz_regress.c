// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * Regressions found by the fuzz targets (tests/fuzz/): one test per bug,
 * named after what broke.  The input that found it is also in the target's
 * seed corpus as regress-*, so every fuzz run replays it.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "damos-private.h"

/*
 * A quota time or reset interval in ms above 2^64 / 1000 is a valid kernel
 * value (unsigned long ms) and damos_scheme_format() prints it bare; the
 * grammar must read it back instead of overflowing it into microseconds.
 */
static void test_bare_ms_beyond_u64_us(void **state)
{
	const char *argv[] = { "stat", "quota", "time", "42949676744073615",
			       "reset", "18446744073709551614" };
	struct damos_scheme *s, *back;
	char text[512], *words[64], *p;
	int n = 0;

	(void)state;
	s = damos_scheme_parse(6, argv, NULL);
	assert_non_null(s);
	assert_int_equal(damos_scheme_get(s, DAMOS_F_QUOTA_MS),
			 42949676744073615ULL);
	assert_int_equal(damos_scheme_get(s, DAMOS_F_QUOTA_RESET_MS),
			 18446744073709551614ULL);
	assert_true(damos_scheme_format(s, text, sizeof(text)) > 0);
	for (p = strtok(text, " "); p && n < 64; p = strtok(NULL, " "))
		words[n++] = p;
	back = damos_scheme_parse(n, (const char *const *)words, NULL);
	assert_non_null(back);
	assert_true(damos_scheme_equal(s, back));
	damos_scheme_free(back);
	damos_scheme_free(s);

	/* with a unit it is still a time, and too large a time is an error */
	s = damos_scheme_new(DAMOS_ACTION_STAT);
	assert_int_equal(damos_scheme_set_str(s, DAMOS_F_QUOTA_MS,
					      "42949676744073615ms", NULL),
			 -ERANGE);
	assert_int_equal(damos_scheme_set_str(s, DAMOS_F_QUOTA_MS,
					      "18446744073709551616", NULL),
			 -ERANGE);
	assert_int_equal(damos_scheme_get(s, DAMOS_F_QUOTA_MS), 0);
	damos_scheme_free(s);
}

/*
 * damon_lru_sort computes its hot threshold as aggr/sample * freq / 1000 in
 * an unsigned int: parameters that make it 2^32 or more were accepted and
 * the kernel would truncate them.  Found by fuzz_lrusort.
 */
static void test_lru_sort_hot_threshold_u32(void **state)
{
	const char *argv[] = { "sample", "5ms", "aggr", "1004294967295ms" };
	struct damon_module *l = damon_module_new("lru_sort");

	(void)state;
	assert_non_null(l);
	assert_int_equal(damon_module_parse(l, 4, argv), 0);
	assert_int_equal(damon_module_validate(l), -EINVAL);
	assert_non_null(strstr(damos_errmsg(), "hot: 500 per mille"));
	/* the largest that fits: 2^32 - 1 samples at 100% */
	assert_int_equal(damon_module_set(l, (size_t)damon_module_param_index(l, "sample_interval"), 1), 0);
	assert_int_equal(damon_module_set(l, (size_t)damon_module_param_index(l, "aggr_interval"),
					    4294967295ULL), 0);
	assert_int_equal(damon_module_set(l, (size_t)damon_module_param_index(l, "hot_thres_access_freq"),
					    1000), 0);
	assert_int_equal(damon_module_set(l, (size_t)damon_module_param_index(l, "cold_min_age"),
					    4294967295ULL), 0);
	assert_int_equal(damon_module_validate(l), 0);
	assert_int_equal(damon_module_set(l, (size_t)damon_module_param_index(l, "aggr_interval"),
					    4294967296ULL), 0);
	assert_int_equal(damon_module_validate(l), -EINVAL);
	damon_module_free(l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bare_ms_beyond_u64_us),
		cmocka_unit_test(test_lru_sort_hot_threshold_u32),
	};

	return cmocka_run_group_tests_name("fuzz_regress", tests, NULL, NULL);
}
