// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "internal.h"

/* A non-negative decimal "123" or "1.25" as num / den, den a power of 10. */
static int parse_decimal(const char *s, const char **end, uint64_t *num,
			 uint64_t *den)
{
	uint64_t n = 0, d = 1;
	bool digits = false, dot = false;

	for (; *s; s++) {
		if (*s == '.' && !dot) {
			dot = true;
			continue;
		}
		if (!isdigit((unsigned char)*s))
			break;
		digits = true;
		if (__builtin_mul_overflow(n, 10, &n) ||
		    __builtin_add_overflow(n, (uint64_t)(*s - '0'), &n))
			return -ERANGE;
		if (dot && __builtin_mul_overflow(d, 10, &d))
			return -ERANGE;
	}
	if (!digits)
		return -EINVAL;
	*end = s;
	*num = n;
	*den = d;
	return 0;
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* num / den * mul, exactly: -EDOM if not whole, -ERANGE on overflow. */
static int scale_exact(uint64_t num, uint64_t den, uint64_t mul, uint64_t *out)
{
	uint64_t g = gcd(mul, den);

	mul /= g;
	den /= g;
	uint64_t v;

	if (num % den)
		return -EDOM;
	if (__builtin_mul_overflow(num / den, mul, &v))
		return -ERANGE;
	*out = v;
	return 0;
}

int damos_parse_u64(const char *s, uint64_t *out)
{
	uint64_t n = 0;

	if (!s || !*s)
		return -EINVAL;
	for (; *s; s++) {
		if (!isdigit((unsigned char)*s))
			return -EINVAL;
		if (__builtin_mul_overflow(n, 10, &n) ||
		    __builtin_add_overflow(n, (uint64_t)(*s - '0'), &n))
			return -ERANGE;
	}
	*out = n;
	return 0;
}

int damos_parse_size(const char *s, uint64_t *bytes)
{
	static const char units[] = "bkmgt";
	uint64_t num, den, mul = 1;
	const char *end, *u;
	int err;

	/* 0xHEX bytes, as addresses and regions take them */
	if (s && (!strncmp(s, "0x", 2) || !strncmp(s, "0X", 2)) &&
	    isxdigit((unsigned char)s[2])) {
		uint64_t v = 0;
		const char *h;

		/* by hand: strtoull would take "0x0x10" and leading blanks */
		for (h = s + 2; isxdigit((unsigned char)*h); h++) {
			unsigned int d = isdigit((unsigned char)*h) ? *h - '0' :
					 (tolower((unsigned char)*h) - 'a' + 10);

			if (v >> 60)
				return damos_err(-ERANGE, "'%s' is too large", s);
			v = v << 4 | d;
		}
		if (*h)
			return damos_err(-EINVAL, "'%s' is not a size (units: B K M G T, or 0xHEX)", s);
		*bytes = v;
		return 0;
	}
	err = s ? parse_decimal(s, &end, &num, &den) : -EINVAL;
	if (!err && *end) {
		/* damo's spellings: 4KiB and 4KB are 4K (powers of 1024 all) */
		bool suffix = end[1] && ((!strcasecmp(end + 1, "iB") && *end != 'b' && *end != 'B') ||
					 (!strcasecmp(end + 1, "B") && *end != 'b' && *end != 'B'));

		u = end[1] && !suffix ? NULL :
		    strchr(units, tolower((unsigned char)*end));
		if (!u)
			err = -EINVAL;
		else
			mul = 1ULL << (10 * (u - units));
	}
	if (!err)
		err = scale_exact(num, den, mul, bytes);
	if (err == -EDOM)
		return damos_err(-EINVAL, "'%s' is not a whole number of bytes",
				 s);
	if (err == -ERANGE)
		return damos_err(err, "'%s' is too large", s);
	if (err)
		return damos_err(err, "'%s' is not a size (units: B K M G T)",
				 s ? s : "");
	return 0;
}

int damos_parse_time_us(const char *s, uint64_t bare_unit_us, uint64_t *us)
{
	static const struct {
		const char *name;
		uint64_t us;
	} units[] = {
		{ "us", 1 }, { "ms", 1000 }, { "s", 1000000 },
		{ "m", 60000000 }, { "h", 3600000000ULL },
		{ "d", 86400000000ULL },	/* damo's days */
	};
	uint64_t num, den, mul = 0;
	const char *end;
	int err;

	err = s ? parse_decimal(s, &end, &num, &den) : -EINVAL;
	if (!err) {
		if (!*end)
			mul = bare_unit_us;
		for (size_t i = 0; *end && i < ARRAY_SIZE(units); i++)
			if (!strcmp(end, units[i].name))
				mul = units[i].us;
		if (!mul)
			err = -EINVAL;
	}
	if (!err)
		err = scale_exact(num, den, mul, us);
	if (err == -EDOM)
		return damos_err(-EINVAL,
				 "'%s' is not a whole number of microseconds",
				 s);
	if (err == -ERANGE)
		return damos_err(err, "'%s' is too large", s);
	if (err)
		return damos_err(err, "'%s' is not a time (units: us ms s m h)",
				 s ? s : "");
	return 0;
}

int damos_parse_addr(const char *s, uint64_t *v)
{
	uint64_t a;

	/* 0xHEX or a size: damos_parse_size takes both */
	if (s && !damos_parse_size(s, &a)) {
		*v = a;
		return 0;
	}
	return damos_err(-EINVAL, "'%s' is not an address (0xHEX or a size)", s ? s : "");
}

/* "N%" of @total, exactly; -EINVAL without '%', -EDOM if not whole. */
int damos_parse_percent(const char *s, uint64_t total, uint64_t *out)
{
	uint64_t num, den;
	const char *end;
	int err;

	err = parse_decimal(s, &end, &num, &den);
	if (err)
		return err;
	if (strcmp(end, "%"))
		return -EINVAL;
	if (__builtin_mul_overflow(den, 100, &den))
		return -ERANGE;
	return scale_exact(num, den, total, out);
}

char *damos_format_size(uint64_t bytes, char *buf, size_t sz)
{
	static const char units[] = "KMGT";
	int i;

	if (bytes == DAMOS_ULONG_MAX) {
		snprintf(buf, sz, "max");
		return buf;
	}
	for (i = 4; i > 0; i--)
		if (bytes && !(bytes & ((1ULL << (10 * i)) - 1)))
			break;
	if (i)
		snprintf(buf, sz, "%llu%c",
			 (unsigned long long)(bytes >> (10 * i)), units[i - 1]);
	else
		snprintf(buf, sz, "%llu", (unsigned long long)bytes);
	return buf;
}

char *damos_format_time_us(uint64_t us, char *buf, size_t sz)
{
	static const struct {
		const char *name;
		uint64_t us;
	} units[] = {
		{ "h", 3600000000ULL }, { "m", 60000000 }, { "s", 1000000 },
		{ "ms", 1000 }, { "us", 1 },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(units) - 1; i++)
		if (us && !(us % units[i].us))
			break;
	snprintf(buf, sz, "%llu%s", (unsigned long long)(us / units[i].us),
		 units[i].name);
	return buf;
}
