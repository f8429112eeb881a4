// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * The keyword grammar of "damoctl lru-sort set" (damon_module_parse():
 * hot, cold, quota, wmarks, sample, aggr, regions, region, with rates,
 * times, per-mille numbers, hex addresses and sizes).
 *
 * Input: the words, separated by blanks.
 * Properties: no crash, leak or UB; a refusal has a message; what is
 * accepted and valid prints (damon_module_format) to words that parse
 * back to the same parameters, and its two schemes are valid.
 */
#include <errno.h>

#include "fuzz.h"

#define MAX_WORDS 64

static struct damon_module *parse_text(char *text, int *err)
{
	struct damon_module *l = damon_module_new("lru_sort");
	char *words[MAX_WORDS];
	int n = fuzz_split(text, " \t\n", words, MAX_WORDS);

	if (!l)
		abort();
	*err = damon_module_parse(l, n, (const char *const *)words);
	return l;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_cstr(data, size), fmt[1024], copy[1024];
	struct damon_module *l, *back;
	struct damos_scheme *s;
	int err, len;

	l = parse_text(text, &err);
	free(text);
	if (err) {
		FUZZ_CHECK(err == -EINVAL || err == -ERANGE,
			   "lru_sort_parse = %d", err);
		fuzz_check_msg("lru_sort_parse");
		damon_module_free(l);
		return 0;
	}
	len = damon_module_format(l, fmt, sizeof(fmt));
	FUZZ_CHECK(len > 0 && (size_t)len < sizeof(fmt),
		   "lru_sort_format = %d", len);
	memcpy(copy, fmt, sizeof(copy));
	back = parse_text(fmt, &err);
	FUZZ_CHECK(!err, "'%s' (lru_sort_format) does not parse back", copy);
	for (int p = 0; p < (int)damon_module_nr_params(l); p++)
		FUZZ_CHECK(damon_module_get(l, (size_t)p) == damon_module_get(back, (size_t)p),
			   "'%s' (lru_sort_format) reads back %s %llu, not %llu",
			   copy, damon_module_param_name(l, (size_t)p),
			   (unsigned long long)damon_module_get(back, (size_t)p),
			   (unsigned long long)damon_module_get(l, (size_t)p));
	if (!damon_module_validate(l)) {
		for (int a = DAMOS_ACTION_LRU_PRIO; a <= DAMOS_ACTION_LRU_DEPRIO; a++) {
			s = damon_module_scheme(l, a == DAMOS_ACTION_LRU_DEPRIO);
			FUZZ_CHECK(s, "no %s scheme from valid parameters",
				   damos_action_name(a));
			FUZZ_CHECK(!damos_scheme_validate(s),
				   "the %s scheme of valid parameters is invalid",
				   damos_action_name(a));
			damos_scheme_free(s);
		}
	}
	damon_module_free(back);
	damon_module_free(l);
	return 0;
}
