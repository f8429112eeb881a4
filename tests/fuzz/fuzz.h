/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * Shared by the libFuzzer targets in tests/fuzz/.  A target gets the raw
 * input; these helpers turn it into what the library's callers pass (C
 * strings, argv vectors, monitoring attributes) and stop the run with a
 * message when a property the header documents does not hold: libFuzzer
 * then saves the input as a crash artifact.
 */
#ifndef DAMOS_FUZZ_H
#define DAMOS_FUZZ_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "damos-private.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

__attribute__((format(printf, 1, 2), noreturn))
static inline void fuzz_fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "fuzz property violated: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n(last libdamos message: '%s')\n", damos_errmsg());
	va_end(ap);
	abort();
}

#define FUZZ_CHECK(cond, ...)						\
	do {								\
		if (!(cond))						\
			fuzz_fail(__VA_ARGS__);				\
	} while (0)

/*
 * The input as a C string in a buffer of exactly its length + 1, so that
 * AddressSanitizer sees any read past the terminator.  An embedded NUL ends
 * the string early, as it would for any C caller.
 */
static inline char *fuzz_cstr(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/*
 * Monitoring attributes picked by one input byte: the kernel's defaults,
 * damon_lru_sort's, extremes (1 us sampling, aggregation = sampling, huge
 * intervals), odd ratios that make % and times inexact, and invalid ones
 * (zero sampling, aggregation < sampling) that conversions must refuse.
 */
static inline const struct damon_attrs *fuzz_attrs(uint8_t pick)
{
#define A sizeof(struct damon_attrs)
	static const struct damon_attrs set[] = {
		{ A, 5000, 100000, 60000000, 10, 1000 },
		{ A, 5000, 100000, 1000000, 10, 1000 },
		{ A, 1, 1, 1, 3, 3 },
		{ A, 1, 1000000, 1000000, 10, 1000 },
		{ A, 3, 7, 11, 3, 1000 },
		{ A, 1000, 18446744073709551615ULL, 18446744073709551615ULL, 3,
		  18446744073709551615ULL },
		{ A, 0, 100000, 1000000, 10, 1000 },
		{ A, 100000, 5000, 1000000, 10, 1000 },
	};
#undef A

	if (pick == 0xff)
		return NULL;
	return &set[pick % (sizeof(set) / sizeof(set[0]))];
}

/*
 * Split @s in place into words separated by @seps; at most @max words.
 * Return: the number of words.
 */
static inline int fuzz_split(char *s, const char *seps, char **words, int max)
{
	int n = 0;

	while (*s && n < max) {
		s += strspn(s, seps);
		if (!*s)
			break;
		words[n++] = s;
		s += strcspn(s, seps);
		if (*s)
			*s++ = '\0';
	}
	return n;
}

/* Whether the last failure left a message naming something. */
static inline void fuzz_check_msg(const char *what)
{
	FUZZ_CHECK(damos_errmsg()[0], "%s failed without a message", what);
}

#endif /* DAMOS_FUZZ_H */
