// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * Deterministic random inputs for the parsers, with the round-trip
 * invariants: whatever damos_scheme_parse() accepts, damos_scheme_format()
 * and the dbgfs encoding give back unchanged.  Run under ASan/UBSan by
 * make check-sanitize.
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

static uint64_t rng = 0x2545f4914f6cdd1dULL;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static const char *const vocab[] = {
	"sz", "access", "age", "quota", "time", "size", "reset", "weights",
	"wmarks", "min", "max", "0", "1", "5", "10", "20", "4K", "8K", "1G",
	"1.5K", "50%", "5%", "33%", "100%", "0%", "120s", "1s", "100ms",
	"150ms", "5ms", "2m", "1h", "4294967295", "4294967296",
	"18446744073709551615", "18446744073709551616", "none",
	"free_mem_rate", "600", "500", "300", "x", "", "-1", "1e3", "0x10",
	"pageout", "lru_prio",
};

static void check_round_trip(const struct damos_scheme *s,
			     const struct damon_attrs *a)
{
	struct damos_scheme *t, **arr;
	char buf[1024], line[512], *copy, *save = NULL;
	const char *argv[64];
	int argc = 0;
	size_t n;

	assert_true(damos_scheme_format(s, buf, sizeof(buf)) > 0);
	copy = strdup(buf);
	for (char *w = strtok_r(copy, " ", &save); w && argc < 64;
	     w = strtok_r(NULL, " ", &save))
		argv[argc++] = w;
	t = damos_scheme_parse(argc, argv, a);
	if (!t)
		fail_msg("'%s' does not parse back: %s", buf, damos_errmsg());
	assert_true(damos_scheme_equal(s, t));
	free(copy);
	damos_scheme_free(t);

	assert_true(damos_dbgfs_encode_scheme(s, line, sizeof(line)) > 0);
	assert_int_equal(damos_dbgfs_decode(line, &arr, &n), 0);
	assert_int_equal(n, 1);
	assert_true(damos_scheme_equal(s, arr[0]));
	damos_schemes_free(arr, n);
}

static void test_scheme_grammar(void **state)
{
	struct damon_attrs a;
	int accepted = 0;

	(void)state;
	damon_attrs_default(&a);
	for (int iter = 0; iter < 20000; iter++) {
		const char *argv[16];
		int argc = 1 + (int)(next() % 15);
		struct damos_scheme *s;

		argv[0] = damos_action_name(next() % DAMOS_NR_ACTIONS);
		for (int i = 1; i < argc; i++)
			argv[i] = vocab[next() % (sizeof(vocab) / sizeof(vocab[0]))];
		s = damos_scheme_parse(argc, argv, &a);
		if (!s) {
			assert_true(errno == EINVAL);
			assert_true(damos_errmsg()[0] != '\0');
			continue;
		}
		accepted++;
		assert_int_equal(damos_scheme_validate(s), 0);
		check_round_trip(s, &a);
		damos_scheme_free(s);
	}
	assert_true(accepted > 100);
}

static void test_decode_garbage(void **state)
{
	static const char alphabet[] = "0123456789 \n\t-x%";
	char text[256];

	(void)state;
	for (int iter = 0; iter < 20000; iter++) {
		struct damos_scheme **arr;
		struct damon_attrs a;
		size_t len = next() % (sizeof(text) - 1), n;
		uint64_t v;

		for (size_t i = 0; i < len; i++)
			text[i] = alphabet[next() % (sizeof(alphabet) - 1)];
		text[len] = '\0';
		if (!damos_dbgfs_decode(text, &arr, &n)) {
			char *again = damos_dbgfs_encode(arr, n);

			/* decoded schemes may break min <= max: then no encoding */
			free(again);
			damos_schemes_free(arr, n);
		}
		damon_attrs_decode(text, &a);
		damos_parse_size(text, &v);
		damos_parse_time_us(text, 1, &v);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scheme_grammar),
		cmocka_unit_test(test_decode_garbage),
	};

	return cmocka_run_group_tests_name("random", tests, NULL, NULL);
}
