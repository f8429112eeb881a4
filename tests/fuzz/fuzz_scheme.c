// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * The keyword grammar of "damoctl scheme add": ACTION [sz MIN MAX] [access
 * MIN MAX] [age MIN MAX] [quota ...] [weights ...] [wmarks ...].
 *
 * Input: one byte picking the monitoring attributes, then the words,
 * separated by blanks (as the command-line splitter hands them over).
 * Properties: no crash, leak or UB; a refused line has a message and sets
 * errno to EINVAL (or ENOMEM); an accepted scheme is valid, encodes to a
 * dbgfs line that decodes to the same scheme, and prints in the grammar
 * (damos_scheme_format) to words that parse back to the same scheme.
 */
#include <errno.h>

#include "fuzz.h"

#define MAX_WORDS 64

static struct damos_scheme *parse_text(char *text, const struct damon_attrs *a)
{
	char *words[MAX_WORDS];
	int n = fuzz_split(text, " \t\n", words, MAX_WORDS);

	return damos_scheme_parse(n, (const char *const *)words, a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct damon_attrs *attrs;
	struct damos_scheme *s, *back, **dec;
	char *text, line[512], fmt[1024], copy[1024];
	size_t n;
	int len;

	if (size < 1)
		return 0;
	attrs = fuzz_attrs(data[0]);
	text = fuzz_cstr(data + 1, size - 1);
	errno = 0;
	s = parse_text(text, attrs);
	free(text);
	if (!s) {
		FUZZ_CHECK(errno == EINVAL || errno == ENOMEM,
			   "scheme_parse failed with errno %d", errno);
		fuzz_check_msg("scheme_parse");
		return 0;
	}
	FUZZ_CHECK(!damos_scheme_validate(s), "scheme_parse accepted an invalid scheme");

	len = damos_dbgfs_encode_scheme(s, line, sizeof(line));
	if (len == -EOPNOTSUPP) {
		/* 6.12's fields (migrate_*, nid, filters...) have no dbgfs
		 * form: refusing them is the contract */
		damos_scheme_free(s);
		return 0;
	}
	FUZZ_CHECK(len > 0, "dbgfs_encode_scheme = %d", len);
	FUZZ_CHECK(!damos_dbgfs_decode(line, &dec, &n) && n == 1 &&
		   damos_scheme_equal(s, dec[0]),
		   "dbgfs line '%s' does not decode to the same scheme", line);
	damos_schemes_free(dec, n);

	len = damos_scheme_format(s, fmt, sizeof(fmt));
	FUZZ_CHECK(len > 0 && (size_t)len < sizeof(fmt), "scheme_format = %d",
		   len);
	memcpy(copy, fmt, sizeof(copy));
	back = parse_text(fmt, attrs);
	FUZZ_CHECK(back, "'%s' (scheme_format) does not parse back", copy);
	FUZZ_CHECK(damos_scheme_equal(s, back),
		   "'%s' (scheme_format) parses back to another scheme", copy);
	damos_scheme_free(back);
	damos_scheme_free(s);
	return 0;
}
