// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * The keyword grammar of "damoctl lru-sort set" (damon_lru_sort_parse():
 * hot, cold, quota, wmarks, sample, aggr, regions, region, with rates,
 * times, per-mille numbers, hex addresses and sizes).
 *
 * Input: the words, separated by blanks.
 * Properties: no crash, leak or UB; a refusal has a message; what is
 * accepted and valid prints (damon_lru_sort_format) to words that parse
 * back to the same parameters, and its two schemes are valid.
 */
#include <errno.h>

#include "fuzz.h"

#define MAX_WORDS 64

static struct damon_lru_sort *parse_text(char *text, int *err)
{
	struct damon_lru_sort *l = damon_lru_sort_new();
	char *words[MAX_WORDS];
	int n = fuzz_split(text, " \t\n", words, MAX_WORDS);

	if (!l)
		abort();
	*err = damon_lru_sort_parse(l, n, (const char *const *)words);
	return l;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_cstr(data, size), fmt[1024], copy[1024];
	struct damon_lru_sort *l, *back;
	struct damos_scheme *s;
	int err, len;

	l = parse_text(text, &err);
	free(text);
	if (err) {
		FUZZ_CHECK(err == -EINVAL || err == -ERANGE,
			   "lru_sort_parse = %d", err);
		fuzz_check_msg("lru_sort_parse");
		damon_lru_sort_free(l);
		return 0;
	}
	len = damon_lru_sort_format(l, fmt, sizeof(fmt));
	FUZZ_CHECK(len > 0 && (size_t)len < sizeof(fmt),
		   "lru_sort_format = %d", len);
	memcpy(copy, fmt, sizeof(copy));
	back = parse_text(fmt, &err);
	FUZZ_CHECK(!err, "'%s' (lru_sort_format) does not parse back", copy);
	for (int p = 0; p < DAMON_LRU_NR_PARAMS; p++)
		FUZZ_CHECK(damon_lru_sort_get(l, p) == damon_lru_sort_get(back, p),
			   "'%s' (lru_sort_format) reads back %s %llu, not %llu",
			   copy, damon_lru_sort_param_name(p),
			   (unsigned long long)damon_lru_sort_get(back, p),
			   (unsigned long long)damon_lru_sort_get(l, p));
	if (!damon_lru_sort_validate(l)) {
		for (int a = DAMOS_ACTION_LRU_PRIO; a <= DAMOS_ACTION_LRU_DEPRIO; a++) {
			s = damon_lru_sort_scheme(l, a);
			FUZZ_CHECK(s, "no %s scheme from valid parameters",
				   damos_action_name(a));
			FUZZ_CHECK(!damos_scheme_validate(s),
				   "the %s scheme of valid parameters is invalid",
				   damos_action_name(a));
			damos_scheme_free(s);
		}
	}
	damon_lru_sort_free(back);
	damon_lru_sort_free(l);
	return 0;
}
