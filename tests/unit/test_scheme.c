// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Scheme model, the keyword grammar, validation and the dbgfs encoding. */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "damos-private.h"

#define LRU_PRIO_LINE \
	"4096 18446744073709551615 10 4294967295 0 4294967295 6 5 0 1000 0 1 0 0 0 0 0 0\n"
#define LRU_DEPRIO_LINE \
	"4096 18446744073709551615 0 0 1200 4294967295 7 5 0 1000 0 0 1 0 0 0 0 0\n"
/* Documentation/admin-guide/mm/damon/usage.rst, the dbgfs example. */
#define DOC_LINE \
	"4096 8192 0 5 10 20 2 10 1073741824 1000 0 0 100 1 5000000 600 500 300\n"

static struct damon_attrs attrs_5ms_100ms(void)
{
	struct damon_attrs a;

	damon_attrs_default(&a);
	return a;
}

/* Parse a space-separated line of the keyword grammar. */
static struct damos_scheme *parse(const char *line,
				  const struct damon_attrs *a)
{
	char *copy = strdup(line), *save = NULL;
	const char *argv[64];
	int argc = 0;
	struct damos_scheme *s;

	for (char *t = strtok_r(copy, " ", &save); t;
	     t = strtok_r(NULL, " ", &save))
		argv[argc++] = t;
	s = damos_scheme_parse(argc, argv, a);
	free(copy);
	return s;
}

static void assert_line(const struct damos_scheme *s, const char *line)
{
	char buf[512];

	assert_non_null(s);
	assert_int_equal(damos_dbgfs_encode_scheme(s, buf, sizeof(buf)),
			 strlen(line));
	assert_string_equal(buf, line);
}

static void assert_parse_fails(const char *line, const char *msg)
{
	struct damon_attrs a = attrs_5ms_100ms();

	errno = 0;
	assert_null(parse(line, &a));
	assert_int_equal(errno, EINVAL);
	assert_string_equal(damos_errmsg(), msg);
}

static void test_lru_presets(void **state)
{
	struct damon_attrs a = attrs_5ms_100ms();
	struct damos_scheme *s;

	(void)state;
	s = damos_scheme_new_preset(DAMOS_ACTION_LRU_PRIO, &a);
	assert_int_equal(damos_scheme_get(s, DAMOS_F_MIN_NR_ACCESSES), 10);
	assert_line(s, LRU_PRIO_LINE);
	damos_scheme_free(s);

	s = damos_scheme_new_preset(DAMOS_ACTION_LRU_DEPRIO, &a);
	assert_int_equal(damos_scheme_get(s, DAMOS_F_MIN_AGE), 1200);
	assert_line(s, LRU_DEPRIO_LINE);
	damos_scheme_free(s);

	s = parse("lru_prio", &a);
	assert_line(s, LRU_PRIO_LINE);
	damos_scheme_free(s);
	s = parse("lru_deprio", &a);
	assert_line(s, LRU_DEPRIO_LINE);
	damos_scheme_free(s);

	/* other attributes, other kernel numbers */
	a.sample_us = 10000;
	a.aggr_us = 200000;
	s = parse("lru_deprio", &a);
	assert_int_equal(damos_scheme_get(s, DAMOS_F_MIN_AGE), 600);
	damos_scheme_free(s);
	s = parse("lru_prio", &a);
	assert_int_equal(damos_scheme_get(s, DAMOS_F_MIN_NR_ACCESSES), 10);
	damos_scheme_free(s);
}

static void test_preset_not_whole(void **state)
{
	struct damon_attrs a = attrs_5ms_100ms();

	(void)state;
	a.aggr_us = 25000;	/* 5 samples: 50% is 2.5 */
	errno = 0;
	assert_null(damos_scheme_new_preset(DAMOS_ACTION_LRU_PRIO, &a));
	assert_int_equal(errno, EINVAL);
	assert_string_equal(damos_errmsg(),
			    "lru_prio default: min access: '50%' is not a whole number of samples (5 samples per aggregation interval: use multiples of 20% or a bare number)");
	a.aggr_us = 70000;
	assert_null(damos_scheme_new_preset(DAMOS_ACTION_LRU_DEPRIO, &a));
	assert_string_equal(damos_errmsg(),
			    "lru_deprio default: min age: '120s' is not a whole number of aggregation intervals (70ms)");
	assert_null(damos_scheme_new_preset(DAMOS_ACTION_LRU_PRIO, NULL));
	assert_string_equal(damos_errmsg(),
			    "lru_prio default: min access: '50%' needs the monitoring attributes");
	/* the grammar accepts it when the line gives the value itself */
	assert_null(parse("lru_deprio quota time 1ms", &a));
	assert_string_equal(damos_errmsg(),
			    "lru_deprio default: min age: '120s' is not a whole number of aggregation intervals (70ms)");
	struct damos_scheme *s = parse("lru_deprio age 2s max", &a);

	assert_null(s);
	assert_string_equal(damos_errmsg(),
			    "min age: '2s' is not a whole number of aggregation intervals (70ms)");
	s = parse("lru_deprio age 1200 max", &a);
	assert_non_null(s);
	assert_int_equal(damos_scheme_get(s, DAMOS_F_MIN_AGE), 1200);
	assert_int_equal(damos_scheme_get(s, DAMOS_F_WEIGHT_AGE), 1);
	damos_scheme_free(s);
}

static void test_kernel_doc_example(void **state)
{
	struct damon_attrs a = attrs_5ms_100ms();
	struct damos_scheme *s;

	(void)state;
	s = parse("pageout sz 4K 8K access 0 5 age 10 20 quota time 10ms size 1G reset 1s weights 0 0 100 wmarks free_mem_rate 5s 600 500 300",
		  &a);
	assert_line(s, DOC_LINE);
	damos_scheme_free(s);
	/* bare numbers are the kernel's units; order of quota words is free */
	s = parse("pageout sz 4096 8192 access 0 5 age 10 20 quota reset 1000 size 1073741824 time 10 weights 0 0 100 wmarks 1 5000000 600 500 300",
		  &a);
	assert_line(s, DOC_LINE);
	damos_scheme_free(s);
	/* the same with human units for accesses and ages */
	s = parse("pageout sz 4K 8K access 0% 25% age 1s 2s quota time 10ms size 1G reset 1s weights 0 0 100 wmarks free_mem_rate 5s 600 500 300",
		  &a);
	assert_line(s, DOC_LINE);
	damos_scheme_free(s);
}

static void test_plain_defaults(void **state)
{
	struct damon_attrs a = attrs_5ms_100ms();
	struct damos_scheme *s;

	(void)state;
	s = parse("stat", &a);
	assert_line(s, "0 18446744073709551615 0 4294967295 0 4294967295 5 0 0 0 0 0 0 0 0 0 0 0\n");
	damos_scheme_free(s);
	s = parse("lru_prio access 80% max quota time 20ms", &a);
	assert_line(s, "4096 18446744073709551615 16 4294967295 0 4294967295 6 20 0 1000 0 1 0 0 0 0 0 0\n");
	damos_scheme_free(s);
	s = parse("cold sz min max access min max age min max", &a);
	assert_line(s, "0 18446744073709551615 0 4294967295 0 4294967295 1 0 0 0 0 0 0 0 0 0 0 0\n");
	damos_scheme_free(s);
}

static void test_parse_errors(void **state)
{
	(void)state;
	assert_parse_fails("pageout age 10s 5s", "min age 10s > max age 5s");
	assert_parse_fails("pageout sz 8K 4K", "min size 8K > max size 4K");
	assert_parse_fails("pageout access 60% 50%",
			   "min access 60% > max access 50%");
	assert_parse_fails("pageout age 5x 10s",
			   "min age: '5x' is not a time (units: us ms s m h)");
	assert_parse_fails("pageout age 150ms 1s",
			   "min age: '150ms' is not a whole number of aggregation intervals (100ms)");
	assert_parse_fails("pageout age 4294967296 max",
			   "min age: '4294967296' is out of range (4294967296 > max 4294967295)");
	assert_parse_fails("pageout access 0 4294967296",
			   "max access: '4294967296' is out of range (4294967296 > max 4294967295)");
	assert_parse_fails("pageout access 0 33%",
			   "max access: '33%' is not a whole number of samples (20 samples per aggregation interval: use multiples of 5% or a bare number)");
	assert_parse_fails("pageout access 200% max",
			   "min access: '200%' is above 100%");
	/* issue 14: the range first, though 101% is no whole number of samples */
	assert_parse_fails("pageout access 101% max",
			   "min access: '101%' is above 100%");
	assert_parse_fails("pageout access 0 100.5%",
			   "max access: '100.5%' is above 100%");
	assert_parse_fails("pageout sz 1Q 2",
			   "min size: '1Q' is not a size (units: B K M G T)");
	assert_parse_fails("pageout sz 1",
			   "sz: expected MIN MAX");
	assert_parse_fails("pageout quota",
			   "quota: expected time MS, size BYTES or reset MS");
	assert_parse_fails("pageout quota time",
			   "quota time: expected a value");
	assert_parse_fails("pageout quota time 1500us",
			   "quota time: '1500us' is not a whole number of milliseconds");
	assert_parse_fails("pageout quota time 1 time 2",
			   "quota: 'time' given twice");
	assert_parse_fails("pageout weights 1 2",
			   "weights: expected SZ ACCESS AGE");
	assert_parse_fails("pageout wmarks free_mem_rate 5s 500 600 300",
			   "wmarks: high 500, mid 600, low 300 are not ordered high >= mid >= low");
	assert_parse_fails("pageout wmarks free_mem_rate 5s 600 500 700",
			   "wmarks: high 600, mid 500, low 700 are not ordered high >= mid >= low");
	assert_parse_fails("pageout wmarks bogus 5s 6 5 3",
			   "wmarks metric: unknown metric 'bogus' (metrics: none free_mem_rate)");
	assert_parse_fails("pageout sz 1 2 sz 1 2", "'sz' given twice");
	assert_parse_fails("pageout size 1 2",
			   "unknown keyword 'size' (expected sz access age quota weights wmarks nid apply_interval filter goal)");
	assert_parse_fails("prio",
			   "unknown action 'prio' (actions: willneed cold pageout hugepage nohugepage lru_prio lru_deprio stat migrate_hot migrate_cold)");
	errno = 0;
	assert_null(damos_scheme_parse(0, NULL, NULL));
	assert_string_equal(damos_errmsg(), "expected an action");
}

static void test_set_and_validate(void **state)
{
	struct damos_scheme *s = damos_scheme_new(DAMOS_ACTION_COLD);

	(void)state;
	assert_int_equal(damos_scheme_action(s), DAMOS_ACTION_COLD);
	assert_int_equal(damos_scheme_set(s, DAMOS_F_MIN_AGE, 1ULL << 32),
			 -ERANGE);
	assert_string_equal(damos_errmsg(),
			    "min age: 4294967296 is out of range (max 4294967295)");
	assert_int_equal(damos_scheme_set(s, DAMOS_F_ACTION, DAMOS_NR_ACTIONS),
			 -ERANGE);
	assert_int_equal(damos_scheme_set(s, DAMOS_NR_FIELDS, 0), -EINVAL);
	assert_int_equal(damos_scheme_set(s, DAMOS_F_MIN_AGE, 7), 0);
	assert_int_equal(damos_scheme_set(s, DAMOS_F_MAX_AGE, 6), 0);
	assert_int_equal(damos_scheme_validate(s), -EINVAL);
	assert_string_equal(damos_errmsg(), "min age 7 > max age 6");
	char buf[256];

	assert_int_equal(damos_dbgfs_encode_scheme(s, buf, sizeof(buf)),
			 -EINVAL);
	assert_int_equal(damos_scheme_set(s, DAMOS_F_MAX_AGE, 7), 0);
	assert_int_equal(damos_scheme_set(s, DAMOS_F_WMARKS_LOW, 1), 0);
	assert_int_equal(damos_scheme_validate(s), -EINVAL);
	assert_string_equal(damos_errmsg(),
			    "wmarks: high 0, mid 0, low 1 are not ordered high >= mid >= low");
	assert_int_equal(damos_scheme_set_str(s, DAMOS_F_WMARKS_LOW, "0", NULL),
			 0);
	assert_int_equal(damos_scheme_validate(s), 0);
	assert_int_equal(damos_dbgfs_encode_scheme(s, buf, 10), -ENOSPC);
	assert_int_equal(damos_scheme_set_str(s, DAMOS_F_MIN_NR_ACCESSES,
					      "50%", NULL), -EINVAL);
	assert_string_equal(damos_errmsg(),
			    "min access: '50%' needs the monitoring attributes");
	assert_int_equal(damos_scheme_set_str(s, DAMOS_F_ACTION, "stat", NULL),
			 0);
	assert_int_equal(damos_scheme_action(s), DAMOS_ACTION_STAT);
	assert_int_equal(damos_scheme_set_str(s, DAMOS_F_ACTION, "max", NULL),
			 -EINVAL);
	/* watermark levels: per mille, or N% as in lru-sort */
	assert_int_equal(damos_scheme_set_str(s, DAMOS_F_WMARKS_HIGH, "60.5%",
					      NULL), 0);
	assert_int_equal(damos_scheme_get(s, DAMOS_F_WMARKS_HIGH), 605);
	assert_int_equal(damos_scheme_set_str(s, DAMOS_F_WMARKS_MID, "600",
					      NULL), 0);
	assert_int_equal(damos_scheme_get(s, DAMOS_F_WMARKS_MID), 600);
	assert_int_equal(damos_scheme_set_str(s, DAMOS_F_WMARKS_LOW, "0.05%",
					      NULL), -EINVAL);
	assert_string_equal(damos_errmsg(),
			    "wmarks low: '0.05%' is not a whole per mille (at most one decimal)");
	damos_scheme_free(s);
}

static void test_decode(void **state)
{
	struct damos_scheme **arr;
	size_t n;
	char buf[256];

	(void)state;
	/* 23 fields: 18 + the five statistics of 5.17+ kernels */
	assert_int_equal(damos_dbgfs_decode(
		"4096 8192 0 5 10 20 2 10 1073741824 1000 0 0 100 1 5000000 600 500 300 1 2 3 4 5\n"
		"\n"
		LRU_PRIO_LINE, &arr, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(damos_scheme_action(arr[0]), DAMOS_ACTION_PAGEOUT);
	assert_int_equal(damos_scheme_get(arr[0], DAMOS_F_NR_TRIED), 1);
	assert_int_equal(damos_scheme_get(arr[0], DAMOS_F_QT_EXCEEDS), 5);
	assert_int_equal(damos_scheme_action(arr[1]), DAMOS_ACTION_LRU_PRIO);
	assert_int_equal(damos_dbgfs_encode_scheme(arr[0], buf, sizeof(buf)),
			 strlen(DOC_LINE));
	assert_string_equal(buf, DOC_LINE);
	damos_schemes_free(arr, n);

	/* 20 fields: 5.16's two statistics */
	assert_int_equal(damos_dbgfs_decode(
		"1 2 3 4 5 6 4 0 0 0 1 2 3 1 100 3 2 1 7 8", &arr, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(damos_scheme_get(arr[0], DAMOS_F_NR_TRIED), 7);
	assert_int_equal(damos_scheme_get(arr[0], DAMOS_F_SZ_TRIED), 8);
	assert_int_equal(damos_scheme_get(arr[0], DAMOS_F_NR_APPLIED), 0);
	damos_schemes_free(arr, n);

	assert_int_equal(damos_dbgfs_decode("", &arr, &n), 0);
	assert_int_equal(n, 0);
	damos_schemes_free(arr, n);
}

static void test_decode_errors(void **state)
{
	struct damos_scheme **arr = NULL;
	size_t n = 99;

	(void)state;
	assert_int_equal(damos_dbgfs_decode("1 2 3", &arr, &n), -EINVAL);
	assert_string_equal(damos_errmsg(),
			    "schemes line 1: 3 fields (expected 18, 20 or 23)");
	/* an action number the library does not know is kept, not fatal */
	assert_int_equal(damos_dbgfs_decode(LRU_PRIO_LINE
		"1 2 3 4 5 6 9 0 0 0 1 2 3 1 100 3 2 1", &arr, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(damos_scheme_action(arr[1]), DAMOS_ACTION_UNKNOWN);
	assert_string_equal(damos_scheme_action_name(arr[1]), "9");
	damos_schemes_free(arr, n);
	arr = NULL;
	n = 99;
	assert_int_equal(damos_dbgfs_decode(
		"1 2 3 4 5 6 -22 0 0 0 1 2 3 1 100 3 2 1", &arr, &n), -EINVAL);
	assert_int_equal(damos_dbgfs_decode(
		"1 2 3 4 5 4294967296 1 0 0 0 1 2 3 1 100 3 2 1", &arr, &n),
		-EINVAL);
	assert_string_equal(damos_errmsg(),
			    "schemes line 1: max_age: 4294967296 is out of range (max 4294967295)");
	assert_int_equal(damos_dbgfs_decode(
		"1 2 3 4 5 6 1 0 0 0 1 2 3 1 100 3 2 x", &arr, &n), -EINVAL);
	assert_string_equal(damos_errmsg(),
			    "schemes line 1: wmarks_low: 'x' is not a number");
	assert_null(arr);
	assert_int_equal(n, 99);
}

static void test_encode_list(void **state)
{
	struct damon_attrs a = attrs_5ms_100ms();
	struct damos_scheme *s[2];
	char *text;

	(void)state;
	text = damos_dbgfs_encode(NULL, 0);
	assert_string_equal(text, "\n");
	free(text);
	s[0] = damos_scheme_new_preset(DAMOS_ACTION_LRU_PRIO, &a);
	s[1] = damos_scheme_new_preset(DAMOS_ACTION_LRU_DEPRIO, &a);
	text = damos_dbgfs_encode(s, 2);
	assert_string_equal(text, LRU_PRIO_LINE LRU_DEPRIO_LINE);
	free(text);
	damos_scheme_set(s[1], DAMOS_F_MIN_SZ, 8192);
	damos_scheme_set(s[1], DAMOS_F_MAX_SZ, 4096);
	errno = 0;
	assert_null(damos_dbgfs_encode(s, 2));
	assert_int_equal(errno, EINVAL);
	assert_string_equal(damos_errmsg(),
			    "scheme 1: min size 8192 > max size 4096");
	damos_scheme_free(s[0]);
	damos_scheme_free(s[1]);
}

static void test_format_round_trip(void **state)
{
	static const char *const lines[] = {
		"pageout sz 4K 8K access 0 5 age 10 20 quota time 10ms size 1G reset 1s weights 0 0 100 wmarks free_mem_rate 5s 600 500 300",
		"lru_prio",
		"lru_deprio",
		"stat sz 1536 1T access 3 max age 0 7 quota time 1500ms",
		"willneed quota size 1 reset 1h wmarks none 1us 3 2 1",
	};
	struct damon_attrs a = attrs_5ms_100ms();
	struct damon_attrs other = { sizeof(other), 1000, 3000, 1, 3, 3 };
	char buf[512];

	(void)state;
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		struct damos_scheme *s = parse(lines[i], &a), *t;

		assert_non_null(s);
		assert_true(damos_scheme_format(s, buf, sizeof(buf)) > 0);
		/* bare kernel numbers: the same under any attributes */
		t = parse(buf, &other);
		assert_non_null(t);
		assert_true(damos_scheme_equal(s, t));
		damos_scheme_free(s);
		damos_scheme_free(t);
	}
	struct damos_scheme *s = parse(lines[0], &a);

	damos_scheme_format(s, buf, sizeof(buf));
	assert_string_equal(buf, lines[0]);
	damos_scheme_free(s);
	s = parse("lru_prio", &a);
	damos_scheme_format(s, buf, sizeof(buf));
	assert_string_equal(buf,
			    "lru_prio sz 4K max access 10 max age 0 max quota time 5ms size 0 reset 1s weights 0 1 0 wmarks none 0 0 0 0");
	damos_scheme_free(s);
}

static void test_dbgfs_round_trip(void **state)
{
	struct damos_scheme **arr, **back;
	size_t n, m;
	char *text, *again;

	(void)state;
	assert_int_equal(damos_dbgfs_decode(DOC_LINE LRU_PRIO_LINE
					    LRU_DEPRIO_LINE, &arr, &n), 0);
	text = damos_dbgfs_encode(arr, n);
	assert_string_equal(text, DOC_LINE LRU_PRIO_LINE LRU_DEPRIO_LINE);
	assert_int_equal(damos_dbgfs_decode(text, &back, &m), 0);
	assert_int_equal(m, n);
	for (size_t i = 0; i < n; i++)
		assert_true(damos_scheme_equal(arr[i], back[i]));
	again = damos_dbgfs_encode(back, m);
	assert_string_equal(again, text);
	free(text);
	free(again);
	damos_schemes_free(arr, n);
	damos_schemes_free(back, m);
}

/*
 * The keyword table damos_scheme_keyword() shows is the one the parser
 * and the formatter read: every keyword in it is known to the parser, in
 * the order of damos_scheme_keywords(), and a formatted scheme that has
 * every keyword shows each one.
 */
static void test_keyword_table(void **state)
{
	struct damos_scheme_kw k = { .sz = sizeof(k) };
	struct damon_attrs a = attrs_5ms_100ms();
	const char *const *names = damos_scheme_keywords();
	const char *argv[] = { "migrate_hot", "nid", "1", "apply_interval", "1s",
			       "quota", "size", "1G", "filter", "anon", "goal",
			       "user_input", "10" };
	struct damos_scheme *s = damos_scheme_parse(13, argv, &a);
	char line[512], word[40];
	size_t i;

	(void)state;
	assert_non_null(s);
	assert_true(damos_scheme_format(s, line, sizeof(line)) > 0);
	for (i = 0; !damos_scheme_keyword(i, &k); i++) {
		assert_non_null(names[i]);
		assert_string_equal(k.kw, names[i]);
		assert_non_null(k.args);
		assert_non_null(k.help_args);
		assert_non_null(k.help);
		assert_true(k.nr_values > 0 || k.subs);
		snprintf(word, sizeof(word), " %s ", k.kw);
		assert_non_null(strstr(line, word));
	}
	assert_null(names[i]);
	assert_int_equal(i, 10);
	k.sz = sizeof(k) - 1;
	assert_int_equal(damos_scheme_keyword(0, &k), -EINVAL);
	damos_scheme_free(s);
}

/* The keyword lists the library publishes are the ones its parsers take. */
static void test_keyword_lists(void **state)
{
	struct damon_attrs a = attrs_5ms_100ms();
	const char *const *kw;
	size_t n = 0;
	char joined[128] = "";
	struct damon_module *lru;

	(void)state;
	for (kw = damos_scheme_keywords(); *kw; kw++, n++) {
		const char *argv[] = { "stat", *kw };

		assert_null(damos_scheme_parse(2, argv, &a));
		assert_null(strstr(damos_errmsg(), "unknown keyword"));
		strcat(joined, n ? " " : "");
		strcat(joined, *kw);
	}
	/* the list the parser names in its own error */
	{
		const char *argv[] = { "stat", "frob" };

		assert_null(damos_scheme_parse(2, argv, &a));
		assert_non_null(strstr(damos_errmsg(), joined));
	}
	for (kw = damos_scheme_quota_keywords(), n = 0; *kw; kw++, n++) {
		const char *argv[] = { "stat", "quota", *kw, "1" };
		struct damos_scheme *s = damos_scheme_parse(4, argv, &a);

		assert_non_null(s);
		damos_scheme_free(s);
	}
	assert_int_equal(n, 3);
	{
		const char *argv[] = { "stat", "quota", "frob", "1" };

		assert_null(damos_scheme_parse(4, argv, &a));
	}

	joined[0] = '\0';
	lru = damon_module_new("lru_sort");
	assert_non_null(lru);
	for (kw = damon_module_keywords(lru), n = 0; *kw; kw++, n++) {
		struct damon_module *l = damon_module_new("lru_sort");
		const char *argv[] = { *kw };

		assert_non_null(l);
		assert_int_not_equal(damon_module_parse(l, 1, argv), 0);
		assert_null(strstr(damos_errmsg(), "unknown keyword"));
		damon_module_free(l);
		strcat(joined, n ? " " : "");
		strcat(joined, *kw);
	}
	{
		struct damon_module *l = damon_module_new("lru_sort");
		const char *argv[] = { "frob" };

		assert_int_not_equal(damon_module_parse(l, 1, argv), 0);
		assert_non_null(strstr(damos_errmsg(), joined));
		damon_module_free(l);
	}
	damon_module_free(lru);
}

/* Linux 6.1: which operations set applies which action. */
static void test_ops_supports(void **state)
{
	static const char *const expect[DAMON_NR_OPS] = {
		[DAMON_OPS_VADDR] = "willneed cold pageout hugepage nohugepage stat",
		[DAMON_OPS_FVADDR] = "willneed cold pageout hugepage nohugepage stat",
		[DAMON_OPS_PADDR] = "pageout lru_prio lru_deprio stat",
	};
	static const char *const actions[] = {
		"willneed", "cold", "pageout", "hugepage", "nohugepage",
		"lru_prio", "lru_deprio", "stat",
	};

	(void)state;
	for (int o = 0; o < DAMON_NR_OPS; o++) {
		char got[128] = "";

		for (size_t i = 0; i < sizeof(actions) / sizeof(*actions); i++) {
			int act = damos_action_from_name(actions[i]);

			assert_true(act >= 0);
			if (damon_ops_supports((enum damon_ops)o, (enum damos_action)act)) {
				strcat(got, *got ? " " : "");
				strcat(got, actions[i]);
			}
		}
		assert_string_equal(got, expect[o]);
	}
}

/* A copy is equal and independent. */
static void test_scheme_dup(void **state)
{
	struct damon_attrs a = attrs_5ms_100ms();
	const char *argv[] = { "pageout", "age", "10s", "max", "quota", "size", "1G" };
	struct damos_scheme *s = damos_scheme_parse(7, argv, &a), *c;
	char l1[512], l2[512];

	(void)state;
	assert_non_null(s);
	c = damos_scheme_dup(s);
	assert_non_null(c);
	assert_true(damos_scheme_format(s, l1, sizeof(l1)) > 0);
	damos_scheme_free(s);
	assert_true(damos_scheme_format(c, l2, sizeof(l2)) > 0);
	assert_string_equal(l1, l2);
	damos_scheme_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lru_presets),
		cmocka_unit_test(test_preset_not_whole),
		cmocka_unit_test(test_kernel_doc_example),
		cmocka_unit_test(test_plain_defaults),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_set_and_validate),
		cmocka_unit_test(test_decode),
		cmocka_unit_test(test_decode_errors),
		cmocka_unit_test(test_encode_list),
		cmocka_unit_test(test_format_round_trip),
		cmocka_unit_test(test_dbgfs_round_trip),
		cmocka_unit_test(test_keyword_table),
		cmocka_unit_test(test_keyword_lists),
		cmocka_unit_test(test_ops_supports),
		cmocka_unit_test(test_scheme_dup),
	};

	return cmocka_run_group_tests_name("scheme", tests, NULL, NULL);
}
