// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Units, the action table and human values. */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "conf.h"
#include "damos-private.h"

static uint64_t size_of(const char *s)
{
	uint64_t v = 12345;

	assert_int_equal(damos_parse_size(s, &v), 0);
	return v;
}

static void test_sizes(void **state)
{
	(void)state;
	assert_int_equal(size_of("0"), 0);
	assert_int_equal(size_of("4096"), 4096);
	assert_int_equal(size_of("4K"), 4096);
	assert_int_equal(size_of("4k"), 4096);
	assert_int_equal(size_of("12B"), 12);
	assert_int_equal(size_of("2M"), 2 << 20);
	assert_int_equal(size_of("1G"), 1 << 30);
	assert_int_equal(size_of("1T"), 1ULL << 40);
	assert_int_equal(size_of("1.5K"), 1536);
	assert_int_equal(size_of("0.5M"), 512 * 1024);
	assert_int_equal(size_of("16383T"), 16383ULL << 40);
	assert_int_equal(size_of("18446744073709551615"), UINT64_MAX);
}

static void test_size_errors(void **state)
{
	uint64_t v = 7;

	(void)state;
	assert_int_equal(damos_parse_size("4X", &v), -EINVAL);
	assert_string_equal(damos_errmsg(),
			    "'4X' is not a size (units: B K M G T)");
	assert_int_equal(damos_parse_size("", &v), -EINVAL);
	assert_int_equal(damos_parse_size("K", &v), -EINVAL);
	assert_int_equal(damos_parse_size("-1", &v), -EINVAL);
	assert_int_equal(damos_parse_size(" 1", &v), -EINVAL);
	/* damo's spellings (issue 14): KiB and KB are K, powers of 1024 */
	assert_int_equal(damos_parse_size("4KB", &v), 0);
	assert_int_equal(v, 4096);
	assert_int_equal(damos_parse_size("2MiB", &v), 0);
	assert_int_equal(v, 2097152);
	assert_int_equal(damos_parse_size("4BB", &v), -EINVAL);
	assert_int_equal(damos_parse_size("4KiBs", &v), -EINVAL);
	v = 7;
	assert_int_equal(damos_parse_size("1.1B", &v), -EINVAL);
	assert_string_equal(damos_errmsg(),
			    "'1.1B' is not a whole number of bytes");
	assert_int_equal(damos_parse_size("16777216T", &v), -ERANGE);
	assert_int_equal(damos_parse_size("18446744073709551616", &v), -ERANGE);
	assert_string_equal(damos_errmsg(), "'18446744073709551616' is too large");
	assert_int_equal(v, 7);
	/* hex (issue 45), whole or not at all: the fuzzer's 0x1!0 wrote 1 */
	assert_int_equal(size_of("0x10"), 16);
	assert_int_equal(size_of("0XffffFFFFffffFFFF"), UINT64_MAX);
	assert_int_equal(damos_parse_size("0x1!0", &v), -EINVAL);
	assert_int_equal(damos_parse_size("0x0x10", &v), -EINVAL);
	assert_int_equal(damos_parse_size("0x 1", &v), -EINVAL);
	assert_int_equal(damos_parse_size("0x-1", &v), -EINVAL);
	assert_int_equal(damos_parse_size("0x10000000000000000", &v), -ERANGE);
	assert_int_equal(v, 7);
}

static uint64_t us_of(const char *s, uint64_t bare)
{
	uint64_t v = 12345;

	assert_int_equal(damos_parse_time_us(s, bare, &v), 0);
	return v;
}

static void test_times(void **state)
{
	(void)state;
	assert_int_equal(us_of("5us", 1), 5);
	assert_int_equal(us_of("5ms", 1), 5000);
	assert_int_equal(us_of("1s", 1), 1000000);
	assert_int_equal(us_of("2m", 1), 120000000);
	assert_int_equal(us_of("1h", 1), 3600000000ULL);
	assert_int_equal(us_of("1.5s", 1), 1500000);
	assert_int_equal(us_of("10", 1000), 10000);
	assert_int_equal(us_of("10", 1), 10);
	assert_int_equal(us_of("0", 1), 0);
}

static void test_time_errors(void **state)
{
	uint64_t v = 3;

	(void)state;
	assert_int_equal(damos_parse_time_us("5x", 1, &v), -EINVAL);
	assert_string_equal(damos_errmsg(),
			    "'5x' is not a time (units: us ms s m h)");
	assert_int_equal(damos_parse_time_us("5", 0, &v), -EINVAL);
	assert_int_equal(damos_parse_time_us("5 s", 1, &v), -EINVAL);
	assert_int_equal(damos_parse_time_us("0.5us", 1, &v), -EINVAL);
	assert_string_equal(damos_errmsg(),
			    "'0.5us' is not a whole number of microseconds");
	assert_int_equal(damos_parse_time_us("99999999999999h", 1, &v),
			 -ERANGE);
	assert_int_equal(v, 3);
}

static void test_format(void **state)
{
	char b[32];

	(void)state;
	assert_string_equal(damos_format_size(0, b, sizeof(b)), "0");
	assert_string_equal(damos_format_size(4096, b, sizeof(b)), "4K");
	assert_string_equal(damos_format_size(1536, b, sizeof(b)), "1536");
	assert_string_equal(damos_format_size(1ULL << 30, b, sizeof(b)), "1G");
	assert_string_equal(damos_format_size(ULONG_MAX, b, sizeof(b)), "max");
	assert_string_equal(damos_format_time_us(5000, b, sizeof(b)), "5ms");
	assert_string_equal(damos_format_time_us(120000000, b, sizeof(b)),
			    "2m");
	assert_string_equal(damos_format_time_us(1500, b, sizeof(b)),
			    "1500us");
	assert_string_equal(damos_format_time_us(0, b, sizeof(b)), "0us");
}

static void test_actions(void **state)
{
	static const char *const names[] = {
		"willneed", "cold", "pageout", "hugepage", "nohugepage",
		"lru_prio", "lru_deprio", "stat", "migrate_hot", "migrate_cold",
	};
	static const int dbgfs[] = { 0, 1, 2, 3, 4, 6, 7, 5, -1, -1 };

	(void)state;
	/* released values never move: 6.11's migrate_* came after stat */
	assert_int_equal(DAMOS_NR_ACTIONS, 10);
	assert_int_equal(DAMOS_ACTION_STAT, 7);
	assert_int_equal(DAMOS_ACTION_MIGRATE_COLD, 9);
	for (int a = 0; a < DAMOS_NR_ACTIONS; a++) {
		assert_string_equal(damos_action_name(a), names[a]);
		assert_int_equal(damos_action_from_name(names[a]), a);
		assert_non_null(damos_action_desc(a));
		if (dbgfs[a] < 0) {
			assert_int_equal(damos_action_dbgfs_nr(a), -EOPNOTSUPP);
			continue;
		}
		assert_int_equal(damos_action_dbgfs_nr(a), dbgfs[a]);
		assert_int_equal(damos_action_from_dbgfs(dbgfs[a]), a);
	}
	assert_null(damos_action_name(DAMOS_NR_ACTIONS));
	assert_int_equal(damos_action_from_name("lru"), -EINVAL);
	assert_string_equal(damos_errmsg(),
			    "unknown action 'lru' (actions: willneed cold pageout hugepage nohugepage lru_prio lru_deprio stat migrate_hot migrate_cold)");
	assert_int_equal(damos_action_from_dbgfs(8), -EINVAL);
	assert_int_equal(damos_action_from_dbgfs(-22), -EINVAL);
	assert_int_equal(damos_action_dbgfs_nr(-1), -EINVAL);
}

static void test_metrics_ifaces(void **state)
{
	(void)state;
	assert_string_equal(damos_metric_name(DAMOS_WMARK_FREE_MEM_RATE),
			    "free_mem_rate");
	assert_int_equal(damos_metric_from_name("none"), DAMOS_WMARK_NONE);
	assert_int_equal(damos_metric_from_name("1"), DAMOS_WMARK_FREE_MEM_RATE);
	assert_int_equal(damos_metric_from_name("2"), -EINVAL);
	assert_int_equal(damon_iface_from_name("dbgfs"), DAMON_IFACE_DBGFS);
	assert_int_equal(damon_iface_from_name("debugfs"), -EINVAL);
	assert_string_equal(damon_iface_name(DAMON_IFACE_SYSFS), "sysfs");
	assert_string_equal(damon_ops_name(DAMON_OPS_PADDR), "paddr");
}

static void test_fields(void **state)
{
	(void)state;
	/* the 18 dbgfs inputs, 6.1's five statistics, then later fields */
	for (int f = 0; f < DAMOS_NR_FIELDS; f++)
		assert_int_equal(damos_field_is_stat(f),
				 (f >= DAMOS_F_NR_TRIED && f <= DAMOS_F_QT_EXCEEDS) ||
				 f == DAMOS_F_EFFECTIVE_BYTES || f == DAMOS_F_TRIED_BYTES);
	assert_int_equal(DAMOS_F_QT_EXCEEDS, 22);
	assert_int_equal(DAMOS_F_TRIED_BYTES, 26);
	assert_string_equal(damos_field_sysfs_path(DAMOS_F_TARGET_NID), "target_nid");
	assert_string_equal(damos_field_name(DAMOS_F_QUOTA_RESET_MS),
			    "quota_reset_interval_ms");
	assert_string_equal(damos_field_sysfs_path(DAMOS_F_WEIGHT_AGE),
			    "quotas/weights/age_permil");
	assert_string_equal(damos_field_sysfs_path(DAMOS_F_QUOTA_SZ),
			    "quotas/bytes");
	assert_string_equal(damos_field_label(DAMOS_F_MIN_AGE), "min age");
	assert_int_equal(damos_field_max(DAMOS_F_MAX_AGE), UINT_MAX);
	assert_int_equal(damos_field_max(DAMOS_F_MAX_SZ), ULONG_MAX);
	assert_int_equal(damos_field_max(DAMOS_F_ACTION), DAMOS_NR_ACTIONS - 1);
	assert_null(damos_field_name(DAMOS_NR_FIELDS));
}

static void test_attrs(void **state)
{
	struct damon_attrs a;
	char buf[128];

	(void)state;
	damon_attrs_default(&a);
	assert_int_equal(damon_attrs_validate(&a), 0);
	assert_int_equal(damon_attrs_max_nr_accesses(&a), 20);
	assert_int_equal(damon_attrs_encode(&a, buf, sizeof(buf)),
			 strlen("5000 100000 60000000 10 1000\n"));
	assert_string_equal(buf, "5000 100000 60000000 10 1000\n");
	assert_int_equal(damon_attrs_decode("1 2 3 4 5\n", &a), 0);
	assert_int_equal(a.sample_us, 1);
	assert_int_equal(a.max_nr_regions, 5);
	assert_int_equal(damon_attrs_decode("1 2 3 4", &a), -EINVAL);
	assert_int_equal(damon_attrs_decode("1 2 3 4 5 6", &a), -EINVAL);
	assert_int_equal(damon_attrs_set_str(&a, "sample", "5ms"), 0);
	assert_int_equal(a.sample_us, 5000);
	assert_int_equal(damon_attrs_set_str(&a, "aggr", "100"), 0);
	assert_int_equal(a.aggr_us, 100);
	assert_int_equal(damon_attrs_validate(&a), -EINVAL);
	assert_string_equal(damos_errmsg(),
			    "aggr 100us < sample 5ms");
	assert_int_equal(damon_attrs_set_str(&a, "aggr", "1x"), -EINVAL);
	assert_string_equal(damos_errmsg(),
			    "aggr: '1x' is not a time (units: us ms s m h)");
	assert_int_equal(damon_attrs_set_str(&a, "foo", "1"), -EINVAL);
	damon_attrs_default(&a);
	a.min_nr_regions = 2;
	assert_int_equal(damon_attrs_validate(&a), -EINVAL);
	assert_string_equal(damos_errmsg(), "min regions 2 < 3");
}

static void test_words(void **state)
{
	char **v;
	int n;

	(void)state;
	assert_int_equal(cli_words_split("  scheme add 'a b'\"c\\\"d\" x#y # rest", &n, &v), 0);
	assert_int_equal(n, 4);
	assert_string_equal(v[0], "scheme");
	assert_string_equal(v[2], "a bc\"d");
	assert_string_equal(v[3], "x#y");
	assert_null(v[4]);
	cli_words_free(n, v);
	assert_int_equal(cli_words_split(" # only a comment", &n, &v), 0);
	assert_int_equal(n, 0);
	assert_null(v);
	cli_words_free(n, v);
	assert_int_equal(cli_words_split("target set 'paddr", &n, &v), -EINVAL);
	assert_int_equal(n, 0);
	assert_null(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_size_errors),
		cmocka_unit_test(test_times),
		cmocka_unit_test(test_time_errors),
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_actions),
		cmocka_unit_test(test_metrics_ifaces),
		cmocka_unit_test(test_fields),
		cmocka_unit_test(test_attrs),
		cmocka_unit_test(test_words),
	};

	return cmocka_run_group_tests_name("units", tests, NULL, NULL);
}
