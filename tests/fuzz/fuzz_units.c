// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * Human values: sizes, times, access rates, ages, min/max, names of
 * actions, metrics and interfaces, monitoring attribute keys.
 *
 * Input: one byte picking the monitoring attributes, then the value.
 * Properties: no crash, leak or UB; a failure leaves the output untouched
 * and a message naming the field; what is accepted fits its field and
 * prints back (damos_format_*) to text that parses to the same value.
 */
#include <errno.h>

#include "fuzz.h"

static void sizes(const char *s)
{
	uint64_t v = 42, w = 43;
	char buf[64];
	int err = damos_parse_size(s, &v);

	if (err) {
		FUZZ_CHECK(err == -EINVAL || err == -ERANGE,
			   "parse_size('%s') = %d", s, err);
		FUZZ_CHECK(v == 42, "parse_size('%s') failed but wrote", s);
		fuzz_check_msg("parse_size");
		return;
	}
	damos_format_size(v, buf, sizeof(buf));
	if (!strcmp(buf, "max")) {
		FUZZ_CHECK(v == UINT64_MAX, "'%s' formats as max", s);
		return;
	}
	FUZZ_CHECK(!damos_parse_size(buf, &w) && w == v,
		   "size '%s' = %llu prints as '%s' which reads back as %llu",
		   s, (unsigned long long)v, buf, (unsigned long long)w);
}

static void times(const char *s)
{
	static const uint64_t bare[] = { 0, 1, 1000 };
	char buf[64];

	for (size_t i = 0; i < sizeof(bare) / sizeof(bare[0]); i++) {
		uint64_t v = 42, w = 43;
		int err = damos_parse_time_us(s, bare[i], &v);

		if (err) {
			FUZZ_CHECK(err == -EINVAL || err == -ERANGE,
				   "parse_time_us('%s') = %d", s, err);
			FUZZ_CHECK(v == 42, "parse_time_us('%s') failed but wrote",
				   s);
			fuzz_check_msg("parse_time_us");
			continue;
		}
		damos_format_time_us(v, buf, sizeof(buf));
		FUZZ_CHECK(!damos_parse_time_us(buf, 1, &w) && w == v,
			   "time '%s' = %lluus prints as '%s' which reads back as %llu",
			   s, (unsigned long long)v, buf, (unsigned long long)w);
	}
}

static void fields(const char *s, const struct damon_attrs *attrs)
{
	struct damos_scheme *sc = damos_scheme_new(DAMOS_ACTION_STAT);
	uint64_t before[DAMOS_NR_FIELDS];

	if (!sc)
		abort();
	for (int f = 0; f < DAMOS_NR_FIELDS; f++)
		before[f] = damos_scheme_get(sc, f);
	for (int f = 0; f < DAMOS_NR_FIELDS; f++) {
		int err = damos_scheme_set_str(sc, f, s, attrs);

		if (!err) {
			FUZZ_CHECK(damos_scheme_get(sc, f) <= damos_field_max(f) ||
				   (f == DAMOS_F_TARGET_NID &&
				    damos_scheme_get(sc, f) == DAMOS_NID_NONE),
				   "%s: '%s' accepted beyond the field's max",
				   damos_field_name(f), s);
			before[f] = damos_scheme_get(sc, f);
			continue;
		}
		FUZZ_CHECK(err == -EINVAL || err == -ERANGE,
			   "set_str(%s, '%s') = %d", damos_field_name(f), s, err);
		FUZZ_CHECK(strstr(damos_errmsg(), damos_field_label(f)),
			   "set_str(%s, '%s'): the message does not name the field",
			   damos_field_name(f), s);
		for (int g = 0; g < DAMOS_NR_FIELDS; g++)
			FUZZ_CHECK(damos_scheme_get(sc, g) == before[g],
				   "set_str(%s, '%s') failed but changed %s",
				   damos_field_name(f), s, damos_field_name(g));
	}
	damos_scheme_free(sc);
}

static void attr_keys(const char *s, const char *key)
{
	static const char *const keys[] = {
		"sample", "aggr", "update", "min_regions", "max_regions",
	};
	struct damon_attrs a, b;

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		damon_attrs_default(&a);
		b = a;
		if (damon_attrs_set_str(&a, keys[i], s)) {
			fuzz_check_msg("attrs_set_str");
			FUZZ_CHECK(!memcmp(&a, &b, sizeof(a)),
				   "attrs %s '%s' failed but wrote", keys[i], s);
		}
	}
	/* the input as the key, the first word as the value */
	damon_attrs_default(&a);
	b = a;
	if (damon_attrs_set_str(&a, s, key))
		FUZZ_CHECK(!memcmp(&a, &b, sizeof(a)),
			   "attrs key '%s' failed but wrote", s);
}

static void names(const char *s)
{
	int r;

	r = damos_action_from_name(s);
	if (r >= 0)
		FUZZ_CHECK(r < DAMOS_NR_ACTIONS &&
			   !strcmp(damos_action_name(r), s),
			   "action '%s' -> %d", s, r);
	r = damos_metric_from_name(s);
	if (r >= 0)
		FUZZ_CHECK(r < DAMOS_NR_WMARK_METRICS &&
			   damos_metric_from_name(damos_metric_name(r)) == r,
			   "metric '%s' -> %d", s, r);
	r = damon_iface_from_name(s);
	if (r >= 0)
		FUZZ_CHECK(!strcmp(damon_iface_name(r), s),
			   "iface '%s' -> %d", s, r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s;

	if (size < 1)
		return 0;
	s = fuzz_cstr(data + 1, size - 1);
	sizes(s);
	times(s);
	fields(s, fuzz_attrs(data[0]));
	attr_keys(s, "5ms");
	names(s);
	free(s);
	return 0;
}
