/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* libdamos private declarations: not installed, not exported. */
#ifndef DAMOS_INTERNAL_H
#define DAMOS_INTERNAL_H

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>

#include "damos.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define DAMOS_ULONG_MAX ((uint64_t)ULONG_MAX)
#define DAMOS_UINT_MAX ((uint64_t)UINT_MAX)

enum damos_unit {
	U_SIZE,		/* bytes, with B K M G T */
	U_NR_ACC,	/* samples per aggregation interval, or % */
	U_AGE,		/* aggregation intervals, or a time */
	U_ACTION,
	U_MS,		/* milliseconds, or a time */
	U_US,		/* microseconds, or a time */
	U_NUM,		/* plain number */
	U_METRIC,
	U_STAT,
};

struct damos_field_info {
	const char *name;
	const char *label;
	const char *sysfs;
	uint64_t max;
	enum damos_unit unit;
};

extern const struct damos_field_info damos_fields[DAMOS_NR_FIELDS];

struct damos_scheme {
	uint64_t v[DAMOS_NR_FIELDS];
};

/* error.c: every failure goes through these; they return @err. */
int damos_err(int err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int damos_err_prefix(int err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void *damos_err_null(int err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* units.c */
int damos_parse_u64(const char *s, uint64_t *out);
int damos_parse_percent(const char *s, uint64_t total, uint64_t *out);

/* A growable string. */
struct damos_buf {
	char *s;
	size_t len;
	size_t cap;
	int err;
};
void damos_buf_printf(struct damos_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void damos_buf_free(struct damos_buf *b);

#endif /* DAMOS_INTERNAL_H */
