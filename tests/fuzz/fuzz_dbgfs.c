// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * dbgfs decoding: what reading "schemes" and "attrs" returns (18, 20 or 23
 * numbers a line; five attribute numbers), as a kernel or a fake tree might
 * hand it over.
 *
 * Input: the file content.
 * Properties: no crash, leak or UB; a failure has a message and returns no
 * array; every scheme decoded has its fields within bounds; a valid one
 * encodes to a line that decodes to the same scheme, and prints in the
 * keyword grammar to words that damos_scheme_parse() reads back as the same
 * scheme under any monitoring attributes (damos.h promises both).
 */
#include <errno.h>

#include "fuzz.h"

#define MAX_WORDS 64

static void grammar_round_trip(const struct damos_scheme *s, uint8_t pick)
{
	char text[1024], copy[1024], *words[MAX_WORDS];
	struct damos_scheme *back;
	int len, n;

	len = damos_scheme_format(s, text, sizeof(text));
	FUZZ_CHECK(len > 0 && (size_t)len < sizeof(text),
		   "scheme_format of a valid scheme = %d", len);
	memcpy(copy, text, sizeof(copy));
	n = fuzz_split(text, " ", words, MAX_WORDS);
	back = damos_scheme_parse(n, (const char *const *)words,
				  fuzz_attrs(pick));
	FUZZ_CHECK(back, "'%s' (scheme_format) does not parse back", copy);
	FUZZ_CHECK(damos_scheme_equal(s, back),
		   "'%s' (scheme_format) parses back to another scheme", copy);
	damos_scheme_free(back);
}

static void schemes(const char *text, uint8_t pick)
{
	struct damos_scheme **arr = (void *)1, **back = NULL;
	size_t n = 12345, nb = 0, valid = 0;
	char *enc;
	int err;

	err = damos_dbgfs_decode(text, &arr, &n);
	if (err) {
		FUZZ_CHECK(err == -EINVAL, "dbgfs_decode = %d", err);
		FUZZ_CHECK(arr == (void *)1 && n == 12345,
			   "dbgfs_decode failed but returned an array");
		fuzz_check_msg("dbgfs_decode");
		return;
	}
	for (size_t i = 0; i < n; i++) {
		for (int f = 0; f < DAMOS_NR_FIELDS; f++)
			FUZZ_CHECK(damos_scheme_get(arr[i], f) <=
				   damos_field_max(f) ||
				   (f == DAMOS_F_ACTION &&
				    damos_scheme_get(arr[i], f) == DAMOS_ACTION_UNKNOWN) ||
				   (f == DAMOS_F_TARGET_NID &&
				    damos_scheme_get(arr[i], f) == DAMOS_NID_NONE),
				   "scheme %zu: %s beyond its max", i,
				   damos_field_name(f));
		if (damos_scheme_validate(arr[i]))
			continue;
		valid++;
		grammar_round_trip(arr[i], pick);
	}

	/* the whole array: encodes only if every scheme is valid */
	enc = damos_dbgfs_encode(arr, n);
	FUZZ_CHECK(!enc == (valid != n), "dbgfs_encode of %zu/%zu valid: %s",
		   valid, n, enc ? "encoded" : "refused");
	if (enc) {
		FUZZ_CHECK(!damos_dbgfs_decode(enc, &back, &nb) && nb == n,
			   "dbgfs_encode output does not decode to %zu schemes",
			   n);
		for (size_t i = 0; i < n; i++)
			FUZZ_CHECK(damos_scheme_equal(arr[i], back[i]),
				   "scheme %zu differs after encode/decode", i);
		damos_schemes_free(back, nb);
		free(enc);
	}
	damos_schemes_free(arr, n);
}

static void attrs(const char *text)
{
	struct damon_attrs a, b;
	char buf[256];

	if (damon_attrs_decode(text, &a)) {
		fuzz_check_msg("attrs_decode");
		return;
	}
	FUZZ_CHECK(damon_attrs_encode(&a, buf, sizeof(buf)) > 0 &&
		   !damon_attrs_decode(buf, &b) && !memcmp(&a, &b, sizeof(a)),
		   "attrs do not round-trip");
	if (!damon_attrs_validate(&a))
		FUZZ_CHECK(damon_attrs_max_nr_accesses(&a) >= 1,
			   "valid attrs with no access count");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_cstr(data, size);
	uint8_t pick = 0;

	for (size_t i = 0; i < size; i++)
		pick += data[i];
	schemes(text, pick);
	attrs(text);
	free(text);
	return 0;
}
