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
	U_PERMIL,	/* per mille, or N% */
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
/* 0xHEX or a size (damos_parse_size()); -EINVAL with a message. */
int damos_parse_addr(const char *s, uint64_t *v);

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

/* damos.c, io.c, dbgfs.c, sysfs.c: the handle and its backends. */
struct damos_backend;

struct damos_ctx {
	enum damos_iface iface;
	const struct damos_backend *ops;
	char *root;		/* "" for "/", else without trailing '/' */
	char *dbgfs;		/* <root>/sys/kernel/debug/damon */
	char *admin;		/* <root>/sys/kernel/mm/damon/admin */
	char *kdamond;		/* sysfs: <admin>/kdamonds/<N> */
	char *dir;		/* the context directory */
	int kdamond_idx;
	bool dry_run;
	bool emulate;
	bool fresh;		/* dry run made the context: reads see defaults */
	int max_action;		/* dbgfs: highest action nr accepted, -1 unknown */
	struct damos_buf script;
};

struct damos_backend {
	int (*schemes_read)(struct damos_ctx *d, struct damos_scheme ***out,
			    size_t *n);
	int (*schemes_write)(struct damos_ctx *d, struct damos_scheme *const *s,
			     size_t n);
	int (*attrs_read)(struct damos_ctx *d, struct damos_attrs *a);
	int (*attrs_write)(struct damos_ctx *d, const struct damos_attrs *a);
	int (*targets_read)(struct damos_ctx *d, struct damos_targets *t);
	int (*targets_write)(struct damos_ctx *d, const struct damos_targets *t);
	int (*status)(struct damos_ctx *d, bool *on, int *pid);
	int (*turn)(struct damos_ctx *d, bool on);
};

extern const struct damos_backend damos_dbgfs_backend;
extern const struct damos_backend damos_sysfs_backend;

char *damos_path(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
bool damos_exists(const char *path);
int damos_read(struct damos_ctx *d, const char *path, char **out);
int damos_read_u64(struct damos_ctx *d, const char *path, uint64_t *v);
int damos_read_word(struct damos_ctx *d, const char *path, char *buf, size_t sz);
int damos_write(struct damos_ctx *d, const char *path, const char *content);
int damos_write_u64(struct damos_ctx *d, const char *path, uint64_t v);
int damos_dbgfs_probe(struct damos_ctx *d);

/* damos.c: -EBUSY with a message if another DAMON user keeps @self off. */
enum damos_user {
	DAMOS_USER_SYSFS, DAMOS_USER_DBGFS, DAMOS_USER_LRU_SORT, DAMOS_USER_MODULE,
};
int damos_other_user(struct damos_ctx *d, enum damos_user self);
/* In a dry run: @path was turned off, for damos_other_user() to know. */
void damos_dry_turned_off(struct damos_ctx *d, const char *path);
