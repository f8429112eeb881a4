/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * libdamos: DAMON-based operation schemes (DAMOS) for user space.
 *
 * The library models schemes, the monitoring attributes and the monitoring
 * targets, turns human values ("4K", "120s", "50%") into the kernel's units,
 * and reads and writes them through either of DAMON's two kernel interfaces:
 *
 *   dbgfs  <root>/sys/kernel/debug/damon/          one 18-number line a scheme
 *   sysfs  <root>/sys/kernel/mm/damon/admin/       one directory tree a scheme
 *
 * Names follow the kernel's (include/linux/damon.h): what the kernel calls
 * damon_* is damon_* here (the monitoring attributes, targets, regions, the
 * context and its handle, operations sets, interfaces, monitoring on/off,
 * access snapshots, the DAMON modules); schemes and their parts (actions,
 * fields, quotas, watermarks, filters, goals, tried regions) are damos_*,
 * and so is what is the library's own (errors, units, locks, transactions,
 * I/O layers, features, version).
 *
 * Every function has a kernel-doc comment of its own, and every struct and
 * enum (scripts/kernel-doc -Wall reads this file without a warning;
 * tests/host/docs.bats checks each function has one, with every parameter
 * and, unless it returns void, a Return: section, each struct and enum one
 * with every member, and that libdamos(3) names the same functions).
 *
 * Conventions, for every function below unless it says otherwise:
 *
 * - Functions returning int return 0 (or a documented non-negative value) on
 *   success and a negative errno on failure.  Functions returning a pointer
 *   return NULL and set errno on failure.
 * - On failure, a message naming the field and the value at fault (for
 *   example "age: '5x' is not a time (units: us ms s m h)") is kept for the
 *   calling thread and returned by damos_errmsg() until the next failure.
 * - The library never prints, never exits and never clamps or truncates a
 *   value: a value that does not fit its field exactly is an error.
 * - Every path is below a root directory ("/" by default).  The library
 *   writes plain files as it writes the kernel's: what the kernel would
 *   make on a write (a sysfs nr_* file's directories) it makes only on the
 *   dry run's copy (damos_layer_dry_run()); damos' own tests put a fake
 *   kernel under a tree of plain files in their test build.
 *
 * Detecting whether dbgfs accepts lru_prio/lru_deprio (action numbers 6 and
 * 7, added by the damos kernel series; stock kernels reject them with
 * EINVAL and never misread them):
 *
 * 1. damon_opts.dbgfs_lru forces the answer (1 yes, 0 no).
 * 2. A layer of the handle's I/O may know (damos' test build's fake kernel
 *    reads it from a fake tree's "<dbgfs>/damon/.max_action": the highest
 *    dbgfs action number that tree's kernel accepts).
 * 3. On a real debugfs, with monitoring off, the library creates a private
 *    context ("damos_probe_<pid>" via mk_contexts), writes one action-6
 *    scheme to that context's schemes file only, reads the errno and removes
 *    the context again.  The user's contexts are never written by the probe.
 *    If the probe context cannot be made, the answer is "unknown" and a
 *    schemes write that the kernel rejects with EINVAL is reported as "this
 *    kernel's dbgfs does not accept lru_prio and lru_deprio" (-EOPNOTSUPP,
 *    hint DAMOS_HINT_USE_SYSFS): the kernel rejects the whole write, so
 *    nothing has changed.
 * The answer is cached in the handle.  Dry runs never probe (a probe writes).
 */
#ifndef DAMOS_H
#define DAMOS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DAMOS_API __attribute__((visibility("default")))

/* ------------------------------------------------------------------------
 * Errors and version
 */

/**
 * damos_errmsg() - the message of the calling thread's last failure.
 *
 * Return: a string owned by the library, valid until the next libdamos call
 * in the same thread; "" if nothing has failed yet.
 */
DAMOS_API const char *damos_errmsg(void);

/**
 * enum damos_hint - what the caller can do about a failure, beyond its
 * message
 * @DAMOS_HINT_NONE: no advice to give
 * @DAMOS_HINT_USE_SYSFS: the sysfs interface can do it
 * @DAMOS_HINT_STOP_MONITOR: turn this handle's monitoring off
 * @DAMOS_HINT_STOP_DBGFS: turn dbgfs monitoring off
 * @DAMOS_HINT_STOP_KDAMOND: turn sysfs kdamond .arg off
 * @DAMOS_HINT_STOP_LRU_SORT: disable damon_lru_sort
 * @DAMOS_HINT_STOP_RECLAIM: disable damon_reclaim
 * @DAMOS_HINT_SET_TARGET: give the context a monitoring target
 * @DAMOS_HINT_PICK_KDAMOND: use a kdamond of 0 .. .arg - 1
 *
 * The library's messages state the fact and, at most, generic advice
 * ("stop it first"); they never name a program's options.  A client turns
 * the hint into its own advice and puts it at .pos of damos_errmsg()
 * (damoctl prints " (damoctl monitor stop)" there for
 * DAMOS_HINT_STOP_MONITOR).  Append-only values.
 */
enum damos_hint {
	DAMOS_HINT_NONE = 0,
	DAMOS_HINT_USE_SYSFS = 1,
	DAMOS_HINT_STOP_MONITOR = 2,
	DAMOS_HINT_STOP_DBGFS = 3,
	DAMOS_HINT_STOP_KDAMOND = 4,
	DAMOS_HINT_STOP_LRU_SORT = 5,
	DAMOS_HINT_STOP_RECLAIM = 6,
	DAMOS_HINT_SET_TARGET = 7,
	DAMOS_HINT_PICK_KDAMOND = 8,
};

/**
 * struct damos_hint_info - the hint of the calling thread's last failure
 * @sz: sizeof(struct damos_hint_info), set by the caller
 * @hint: the hint; DAMOS_HINT_NONE: no advice to give
 * @pos: where in damos_errmsg() the advice fits
 * @arg: DAMOS_HINT_STOP_KDAMOND: the kdamond's index;
 *	 DAMOS_HINT_PICK_KDAMOND: how many there are
 *
 * Fields are only appended.
 */
struct damos_hint_info {
	size_t sz;
	enum damos_hint hint;
	size_t pos;
	int64_t arg;
};

/**
 * damos_error_hint() - fill @out with the hint of the calling thread's
 * last failure (the one damos_errmsg() describes; it lives as long).
 * @out: the hint, .sz set by the caller
 *
 * Return: 0, or -EINVAL if @out is NULL or its .sz is too small.
 */
DAMOS_API int damos_error_hint(struct damos_hint_info *out);

/**
 * damos_version() - the library version, "MAJOR.MINOR.PATCH".
 *
 * Return: the version string, static.
 */
DAMOS_API const char *damos_version(void);

/* ------------------------------------------------------------------------
 * Actions: one table (lib/tables.c) for names, dbgfs numbers, sysfs strings,
 * help text and the feature each needs.
 *
 * The values are the library's own and append-only: a value once released
 * never changes meaning, whatever order the kernel's enum has (6.11 put
 * migrate_hot and migrate_cold before stat).  The sysfs string is the name;
 * the dbgfs numbers are a separate, stable mapping (0..5 as the kernel has
 * them, 6 and 7 from the damos kernel series; sysfs-only actions have none).
 * Iterate with "for (a = 0; a < DAMOS_NR_ACTIONS; a++)" for help text and
 * completion.  A scheme read from the kernel with an action this library
 * does not know has DAMOS_ACTION_UNKNOWN and keeps the kernel's word
 * (damos_scheme_action_name()).
 */
/**
 * enum damos_action - the DAMOS actions
 * @DAMOS_ACTION_UNKNOWN: an action of the kernel this library does not
 *	know (the scheme keeps the kernel's word)
 * @DAMOS_ACTION_WILLNEED: willneed (madvise MADV_WILLNEED)
 * @DAMOS_ACTION_COLD: cold (MADV_COLD)
 * @DAMOS_ACTION_PAGEOUT: pageout (reclaim)
 * @DAMOS_ACTION_HUGEPAGE: hugepage (MADV_HUGEPAGE)
 * @DAMOS_ACTION_NOHUGEPAGE: nohugepage (MADV_NOHUGEPAGE)
 * @DAMOS_ACTION_LRU_PRIO: lru_prio (Linux 6.0+)
 * @DAMOS_ACTION_LRU_DEPRIO: lru_deprio (Linux 6.0+)
 * @DAMOS_ACTION_STAT: stat (statistics only)
 * @DAMOS_ACTION_MIGRATE_HOT: migrate_hot (sysfs, Linux 6.11+: needs nid)
 * @DAMOS_ACTION_MIGRATE_COLD: migrate_cold (sysfs, Linux 6.11+: needs nid)
 * @DAMOS_NR_ACTIONS: the number of actions of this version; grows
 *
 * damos_action_desc() says what each does.
 */
enum damos_action {
	DAMOS_ACTION_UNKNOWN = -1,
	DAMOS_ACTION_WILLNEED = 0,
	DAMOS_ACTION_COLD = 1,
	DAMOS_ACTION_PAGEOUT = 2,
	DAMOS_ACTION_HUGEPAGE = 3,
	DAMOS_ACTION_NOHUGEPAGE = 4,
	DAMOS_ACTION_LRU_PRIO = 5,
	DAMOS_ACTION_LRU_DEPRIO = 6,
	DAMOS_ACTION_STAT = 7,
	DAMOS_ACTION_MIGRATE_HOT = 8,
	DAMOS_ACTION_MIGRATE_COLD = 9,
	DAMOS_NR_ACTIONS
};

/**
 * damos_action_name() - the action's name, which is also its sysfs string.
 * @a: the action
 *
 * Return: "pageout", ...; NULL (errno EINVAL) if @a is not an action.
 */
DAMOS_API const char *damos_action_name(enum damos_action a);

/**
 * damos_action_desc() - a one-line description of the action, for help.
 * @a: the action
 *
 * Return: the description; NULL (errno EINVAL) if @a is not an action.
 */
DAMOS_API const char *damos_action_desc(enum damos_action a);

/**
 * damos_action_from_name() - look an action up by its exact name.
 * @name: the name
 *
 * Return: the enum damos_action value, or -EINVAL (message lists the names).
 */
DAMOS_API int damos_action_from_name(const char *name);

/**
 * damos_action_dbgfs_nr() - the number that stands for @a in a dbgfs line.
 * @a: the action
 *
 * Return: 0..7, -EINVAL if @a is not an action, -EOPNOTSUPP if dbgfs has
 * no number for it (migrate_hot, migrate_cold).
 */
DAMOS_API int damos_action_dbgfs_nr(enum damos_action a);

/**
 * damos_action_from_dbgfs() - the action a dbgfs action number stands for.
 * @nr: the number
 *
 * Return: the enum damos_action value, or -EINVAL for an unknown number.
 */
DAMOS_API int damos_action_from_dbgfs(long nr);

/**
 * enum damos_wmark_metric - watermark metrics: dbgfs numbers are the enum
 * values, sysfs the names
 * @DAMOS_WMARK_NONE: none: watermarks off
 * @DAMOS_WMARK_FREE_MEM_RATE: free_mem_rate, the free memory in per mille
 * @DAMOS_NR_WMARK_METRICS: the number of metrics
 */
enum damos_wmark_metric {
	DAMOS_WMARK_NONE = 0,
	DAMOS_WMARK_FREE_MEM_RATE = 1,
	DAMOS_NR_WMARK_METRICS,
};

/**
 * damos_metric_name() - the name of a watermark metric.
 * @m: the watermark metric
 *
 * Return: "none" or "free_mem_rate"; NULL (errno EINVAL) for anything
 * else.
 */
DAMOS_API const char *damos_metric_name(enum damos_wmark_metric m);

/**
 * damos_metric_from_name() - look a metric up by name or by its number.
 * @name: the name
 *
 * Return: the enum damos_wmark_metric value, or -EINVAL.
 */
DAMOS_API int damos_metric_from_name(const char *name);

/* ------------------------------------------------------------------------
 * Scheme fields.  Explicit, append-only values: the 18 numbers of a dbgfs
 * line in their order, the five statistics of 6.1, then what later kernels
 * added.  damos_field_is_stat() tells inputs from read-only values.
 */
/**
 * enum damos_field - the values of a scheme
 * @DAMOS_F_MIN_SZ: min_sz, bytes
 * @DAMOS_F_MAX_SZ: max_sz, bytes
 * @DAMOS_F_MIN_NR_ACCESSES: min_nr_accesses, samples per aggregation
 *	interval
 * @DAMOS_F_MAX_NR_ACCESSES: max_nr_accesses, samples per aggregation
 *	interval
 * @DAMOS_F_MIN_AGE: min_age, aggregation intervals
 * @DAMOS_F_MAX_AGE: max_age, aggregation intervals
 * @DAMOS_F_ACTION: the action, an enum damos_action (not a dbgfs number)
 * @DAMOS_F_QUOTA_MS: quota_ms, the time quota
 * @DAMOS_F_QUOTA_SZ: quota_sz, the size quota in bytes
 * @DAMOS_F_QUOTA_RESET_MS: quota_reset_interval_ms
 * @DAMOS_F_WEIGHT_SZ: weight_sz, the size weight of the prioritisation
 * @DAMOS_F_WEIGHT_NR_ACCESSES: weight_nr_accesses
 * @DAMOS_F_WEIGHT_AGE: weight_age
 * @DAMOS_F_WMARKS_METRIC: wmarks_metric, an enum damos_wmark_metric
 * @DAMOS_F_WMARKS_INTERVAL_US: wmarks_interval_us
 * @DAMOS_F_WMARKS_HIGH: wmarks_high, per mille
 * @DAMOS_F_WMARKS_MID: wmarks_mid, per mille
 * @DAMOS_F_WMARKS_LOW: wmarks_low, per mille
 * @DAMOS_F_NR_TRIED: statistic: regions tried
 * @DAMOS_F_SZ_TRIED: statistic: bytes tried
 * @DAMOS_F_NR_APPLIED: statistic: regions the action was applied to
 * @DAMOS_F_SZ_APPLIED: statistic: bytes the action was applied to
 * @DAMOS_F_QT_EXCEEDS: statistic: how often the quota was exceeded
 * @DAMOS_F_APPLY_INTERVAL_US: apply_interval_us (sysfs, 6.7+; 0: the
 *	aggregation interval)
 * @DAMOS_F_TARGET_NID: target_nid (sysfs, 6.11+; DAMOS_NID_NONE: none)
 * @DAMOS_F_EFFECTIVE_BYTES: statistic: quotas/effective_bytes
 * @DAMOS_F_TRIED_BYTES: statistic: tried_regions/total_bytes
 * @DAMOS_NR_FIELDS: the number of fields of this version; grows
 */
enum damos_field {
	DAMOS_F_MIN_SZ = 0,
	DAMOS_F_MAX_SZ = 1,
	DAMOS_F_MIN_NR_ACCESSES = 2,
	DAMOS_F_MAX_NR_ACCESSES = 3,
	DAMOS_F_MIN_AGE = 4,
	DAMOS_F_MAX_AGE = 5,
	DAMOS_F_ACTION = 6,
	DAMOS_F_QUOTA_MS = 7,
	DAMOS_F_QUOTA_SZ = 8,
	DAMOS_F_QUOTA_RESET_MS = 9,
	DAMOS_F_WEIGHT_SZ = 10,
	DAMOS_F_WEIGHT_NR_ACCESSES = 11,
	DAMOS_F_WEIGHT_AGE = 12,
	DAMOS_F_WMARKS_METRIC = 13,
	DAMOS_F_WMARKS_INTERVAL_US = 14,
	DAMOS_F_WMARKS_HIGH = 15,
	DAMOS_F_WMARKS_MID = 16,
	DAMOS_F_WMARKS_LOW = 17,
	DAMOS_F_NR_TRIED = 18,
	DAMOS_F_SZ_TRIED = 19,
	DAMOS_F_NR_APPLIED = 20,
	DAMOS_F_SZ_APPLIED = 21,
	DAMOS_F_QT_EXCEEDS = 22,
	DAMOS_F_APPLY_INTERVAL_US = 23,
	DAMOS_F_TARGET_NID = 24,
	DAMOS_F_EFFECTIVE_BYTES = 25,
	DAMOS_F_TRIED_BYTES = 26,
	DAMOS_NR_FIELDS
};

/* DAMOS_F_TARGET_NID of a scheme without a node (the kernel's -1). */
#define DAMOS_NID_NONE UINT64_MAX

/**
 * damos_field_is_stat() - whether @f is a read-only value the kernel
 * reports (statistics), not one a scheme sets.
 * @f: the field
 *
 * Return: true for a statistic; false for an input field or for a value that
 * is not a field.
 */
DAMOS_API bool damos_field_is_stat(enum damos_field f);

/**
 * damos_field_name() - the field's identifier, as DESIGN.md and the JSON
 * output spell it ("min_sz", "quota_reset_interval_ms", "qt_exceeds", ...).
 * @f: the field
 *
 * Return: the name; NULL (errno EINVAL) if @f is not a field.
 */
DAMOS_API const char *damos_field_name(enum damos_field f);

/**
 * damos_field_label() - the field's name in messages ("min age", "quota
 * reset", ...).
 * @f: the field
 *
 * Return: the label; NULL (errno EINVAL) if @f is not a field.
 */
DAMOS_API const char *damos_field_label(enum damos_field f);

/**
 * damos_field_sysfs_path() - the field's file relative to a sysfs scheme
 * directory ("access_pattern/age/min", "quotas/weights/sz_permil", ...).
 * @f: the field
 *
 * Return: the path; NULL (errno EINVAL) if @f is not a field.
 */
DAMOS_API const char *damos_field_sysfs_path(enum damos_field f);

/**
 * damos_field_max() - the largest value the kernel stores in the field
 * (ULONG_MAX for unsigned long fields, UINT_MAX for unsigned int ones, the
 * last enum value for the action and the metric).
 * @f: the field
 *
 * Return: the bound; 0 if @f is not a field.
 */
DAMOS_API uint64_t damos_field_max(enum damos_field f);

/* ------------------------------------------------------------------------
 * Monitoring attributes (the five numbers of dbgfs "attrs").
 *
 * Sized structs (this one and struct damon_targets), as the other 2.0
 * structs: the functions that fill one (damon_attrs_default(),
 * damon_attrs_decode(), damon_attrs_read(), ...) set .sz to the size they
 * filled; one a caller fills itself starts from DAMON_ATTRS_INIT (or sets
 * .sz = sizeof(struct damon_attrs)).  A function that takes one refuses
 * (-EINVAL) a .sz short of the 2.0 fields, or set bytes past the fields it
 * knows.  Fields are only appended.
 */
/**
 * struct damon_attrs - the monitoring attributes
 * @sz: the size of the struct the caller has (see above)
 * @sample_us: the sampling interval
 * @aggr_us: the aggregation interval
 * @update_us: the operations update interval
 * @min_nr_regions: the fewest regions
 * @max_nr_regions: the most regions
 */
struct damon_attrs {
	size_t sz;
	uint64_t sample_us;
	uint64_t aggr_us;
	uint64_t update_us;
	uint64_t min_nr_regions;
	uint64_t max_nr_regions;
};

#define DAMON_ATTRS_INIT { .sz = sizeof(struct damon_attrs) }

/**
 * damon_attrs_default() - fill @a with the kernel's defaults for a new
 * context: 5 ms, 100 ms, 60 s, 10 and 1000 regions; .sz too.
 * @a: the monitoring attributes
 */
DAMOS_API void damon_attrs_default(struct damon_attrs *a);

/**
 * damon_attrs_validate() - check what the kernel and the unit conversions
 * need: non-zero sample interval, aggregation >= sample interval, min
 * regions >= 3 and <= max regions.
 * @a: the monitoring attributes
 *
 * Return: 0 or -EINVAL with a message naming the values in the words of
 * damon_attrs_parse() ("aggr 1ms < sample 5ms").
 */
DAMOS_API int damon_attrs_validate(const struct damon_attrs *a);

/**
 * damon_attrs_max_nr_accesses() - aggr_us / sample_us, the largest number
 * of accesses one aggregation interval can count (the kernel's own formula).
 * @a: the monitoring attributes
 *
 * Return: the number, or 0 if @a has no sampling interval or a bad .sz.
 */
DAMOS_API uint64_t damon_attrs_max_nr_accesses(const struct damon_attrs *a);

/**
 * damon_attrs_decode() - parse a dbgfs "attrs" line ("5000 100000 ...").
 * @text: the text
 * @a: the monitoring attributes
 *
 * Return: 0 or -EINVAL.
 */
DAMOS_API int damon_attrs_decode(const char *text, struct damon_attrs *a);

/**
 * damon_attrs_encode() - write @a as a dbgfs "attrs" line with a trailing
 * newline into @buf of @sz bytes.
 * @a: the monitoring attributes
 * @buf: the buffer
 * @sz: the buffer's size
 *
 * Return: the length written (without the NUL), or -ENOSPC.
 */
DAMOS_API int damon_attrs_encode(const struct damon_attrs *a, char *buf,
				 size_t sz);

/**
 * damon_attrs_set_str() - set one attribute from a human value.
 * @a: the monitoring attributes
 * @key: "sample", "aggr" or "update" (times: us ms s m h, bare = us) or
 *	 "min_regions"/"max_regions" (bare counts)
 * @value: the value as text
 *
 * Return: 0, or -EINVAL with a message naming @key and @value.
 */
DAMOS_API int damon_attrs_set_str(struct damon_attrs *a, const char *key,
				  const char *value);

/* ------------------------------------------------------------------------
 * Human values.
 */

/**
 * damos_parse_size() - parse a size: a number with an optional unit B, K,
 * M, G or T (powers of 1024, case-insensitive; KiB and KB are K too, as
 * damo spells them); a bare number is bytes.
 * Decimals are accepted when the result is a whole number of bytes
 * ("1.5K" = 1536).
 * @s: the text
 * @bytes: the size in bytes
 *
 * Return: 0, -EINVAL (not a size) or -ERANGE (more than 64 bits).
 */
DAMOS_API int damos_parse_size(const char *s, uint64_t *bytes);

/**
 * damos_parse_time_us() - parse a time: a number with a unit us, ms, s, m,
 * h or d; a bare number is taken in units of @bare_unit_us microseconds (1
 * for fields in us, 1000 for fields in ms).  Decimals are accepted when the
 * result is a whole number of microseconds.
 * @s: the text
 * @bare_unit_us: the unit of a bare number, in microseconds
 * @us: the time in microseconds
 *
 * Return: 0, -EINVAL (not a time) or -ERANGE (more than 64 bits).
 */
DAMOS_API int damos_parse_time_us(const char *s, uint64_t bare_unit_us,
				  uint64_t *us);

/**
 * damos_format_size() - print @bytes with the largest unit that keeps it a
 * whole number ("4K", "1G", "1536", "max" for ULONG_MAX) into @buf.
 * @bytes: the size in bytes
 * @buf: the buffer
 * @sz: the buffer's size
 *
 * Return: @buf.
 */
DAMOS_API char *damos_format_size(uint64_t bytes, char *buf, size_t sz);

/**
 * damos_format_time_us() - print @us with the largest unit that keeps it a
 * whole number ("5ms", "2m", "1500us") into @buf.
 * @us: the time in microseconds
 * @buf: the buffer
 * @sz: the buffer's size
 *
 * Return: @buf.
 */
DAMOS_API char *damos_format_time_us(uint64_t us, char *buf, size_t sz);

/* ------------------------------------------------------------------------
 * Schemes.  A scheme is an opaque object holding all DAMOS_NR_FIELDS values.
 */
struct damos_scheme;

/**
 * damos_scheme_new() - a scheme of action @a that matches every region
 * (sizes, accesses and ages from 0 to their field's maximum), with no quota,
 * no weights and no watermarks.  Statistics are zero.
 * @a: the action
 *
 * Return: the scheme (free with damos_scheme_free()), or NULL.
 */
DAMOS_API struct damos_scheme *damos_scheme_new(enum damos_action a);

/**
 * damos_scheme_new_preset() - a scheme of action @a with the defaults that
 * "damoctl scheme add ACTION" uses: for lru_prio and lru_deprio those of the
 * damon_lru_sort module (lru_prio: regions of at least one page accessed in
 * >= 50% of the samples, 5 ms quota per 1 s, weighted by access rate;
 * lru_deprio: regions of at least one page not accessed for >= 120 s,
 * same quota, weighted by age), watermarks off; for other actions the same
 * as damos_scheme_new().  @attrs converts the rate and the age into kernel
 * units; it must be valid and make them whole numbers.
 * @a: the action
 * @attrs: the attributes units convert with (NULL: the defaults)
 *
 * Return: the scheme, or NULL (errno EINVAL with a message).
 */
DAMOS_API struct damos_scheme *
damos_scheme_new_preset(enum damos_action a, const struct damon_attrs *attrs);

/**
 * damos_scheme_dup() - a copy of @s.
 * @s: the scheme
 *
 * Return: the copy, or NULL (errno ENOMEM).
 */
DAMOS_API struct damos_scheme *damos_scheme_dup(const struct damos_scheme *s);

/**
 * damos_scheme_free() - free @s; NULL is a no-op.
 * @s: the scheme
 */
DAMOS_API void damos_scheme_free(struct damos_scheme *s);

/**
 * damos_schemes_free() - free an array of @n schemes and the array itself,
 * as damos_dbgfs_decode() and damos_schemes_read() return it.
 * @s: where the scheme goes
 * @n: the number
 */
DAMOS_API void damos_schemes_free(struct damos_scheme **s, size_t n);

/**
 * damos_scheme_get() - the value of field @f, in the kernel's unit.
 * @s: the scheme
 * @f: the field
 *
 * Return: the value; 0 if @f is not a field.
 */
DAMOS_API uint64_t damos_scheme_get(const struct damos_scheme *s,
				    enum damos_field f);

/**
 * damos_scheme_action() - the scheme's action.
 * @s: the scheme
 *
 * Return: the action; DAMOS_ACTION_UNKNOWN for a word of the kernel this
 * library does not know (damos_scheme_action_name() has it).
 */
DAMOS_API enum damos_action damos_scheme_action(const struct damos_scheme *s);

/**
 * damos_scheme_action_name() - the scheme's action as the kernel calls it:
 * the name of a known action, or the word the kernel showed for one this
 * library does not know (kept, and written back as it was).
 * @s: the scheme
 *
 * Return: the name or the kernel's word, owned by the scheme.
 */
DAMOS_API const char *damos_scheme_action_name(const struct damos_scheme *s);

/* ------------------------------------------------------------------------
 * Filters (sysfs, Linux 6.3+; addr and target 6.6+, young 6.10+): a
 * matching filter excludes the memory it matches from the action, a
 * non-matching one the memory it does not match.  Append-only values.
 */
/**
 * enum damos_filter_type - the types of scheme filters
 * @DAMOS_FILTER_UNKNOWN: a word of the kernel this library lacks
 * @DAMOS_FILTER_ANON: anonymous pages
 * @DAMOS_FILTER_MEMCG: the pages of a memory cgroup (memcg_path)
 * @DAMOS_FILTER_YOUNG: pages accessed since the last check
 * @DAMOS_FILTER_ADDR: an address range (addr_start, addr_end)
 * @DAMOS_FILTER_TARGET: a monitoring target (target_idx)
 * @DAMOS_NR_FILTER_TYPES: the number of types of this version; grows
 */
enum damos_filter_type {
	DAMOS_FILTER_UNKNOWN = -1,
	DAMOS_FILTER_ANON = 0,
	DAMOS_FILTER_MEMCG = 1,
	DAMOS_FILTER_YOUNG = 2,
	DAMOS_FILTER_ADDR = 3,
	DAMOS_FILTER_TARGET = 4,
	DAMOS_NR_FILTER_TYPES
};

/**
 * struct damos_filter_info - one filter
 * @sz: sizeof(struct damos_filter_info), set before passing it in
 * @type: the type
 * @type_name: out: the kernel's word; in: ignored
 * @matching: true: the filter excludes the memory it matches; false: the
 *	memory it does not match
 * @memcg_path: DAMOS_FILTER_MEMCG: the cgroup's path
 * @addr_start: DAMOS_FILTER_ADDR: the range [start, end)
 * @addr_end: DAMOS_FILTER_ADDR: its end
 * @target_idx: DAMOS_FILTER_TARGET: the target's index
 *
 * Fields are only appended, and a longer struct passed in must have zeros
 * past the fields this library knows (else -EINVAL: what it does not know
 * it cannot honour).  Strings returned by damos_scheme_filter() belong to
 * the scheme.
 */
struct damos_filter_info {
	size_t sz;
	enum damos_filter_type type;
	const char *type_name;
	bool matching;
	const char *memcg_path;
	uint64_t addr_start;
	uint64_t addr_end;
	int target_idx;
};

/**
 * damos_filter_type_name() - the word of a filter type
 * @t: the filter type
 *
 * The words are "anon", "memcg", "young", "addr" and "target"
 * (damos_filter_type_from_name() looks one up).
 *
 * Return: the word, static; NULL (errno EINVAL) if @t is not a filter type.
 */
DAMOS_API const char *damos_filter_type_name(enum damos_filter_type t);
/**
 * damos_filter_type_from_name() - the filter type of a word
 * @name: the name
 *
 * See damos_filter_type_name() for the words.
 *
 * Return: the enum damos_filter_type value, or -EINVAL (the message lists
 * the words).
 */
DAMOS_API int damos_filter_type_from_name(const char *name);

/**
 * damos_scheme_nr_filters() - the number of the scheme's filters
 * @s: the scheme
 *
 * The filters are in order: damos_scheme_filter() fills one.
 *
 * Return: the number of filters, 0 for none.
 */
DAMOS_API size_t damos_scheme_nr_filters(const struct damos_scheme *s);
/**
 * damos_scheme_filter() - fill @out with filter @i of the scheme
 * @s: the scheme
 * @i: the index
 * @out: the filter, .sz set by the caller
 *
 * Strings in @out belong to the scheme (see struct damos_filter_info).
 *
 * Return: 0, or -EINVAL (no filter @i, or .sz not set).
 */
DAMOS_API int damos_scheme_filter(const struct damos_scheme *s, size_t i,
				  struct damos_filter_info *out);

/**
 * damos_scheme_add_filter() - append a filter of a known type (addr needs
 * start < end).
 * @s: the scheme
 * @f: the filter
 *
 * Return: 0, -EINVAL with a message, or -ENOMEM.
 */
DAMOS_API int damos_scheme_add_filter(struct damos_scheme *s,
				      const struct damos_filter_info *f);

/* ------------------------------------------------------------------------
 * Quota goals (sysfs, Linux 6.8+; target_metric 6.9+): the kernel tunes the
 * quota so that the metric reaches the target.  Append-only values.
 */
/**
 * enum damos_goal_metric - the metrics of quota goals
 * @DAMOS_GOAL_UNKNOWN: a word of the kernel this library lacks
 * @DAMOS_GOAL_USER_INPUT: user_input: current_value written by the user
 * @DAMOS_GOAL_SOME_MEM_PSI_US: some_mem_psi_us: the kernel measures it
 * @DAMOS_NR_GOAL_METRICS: the number of metrics of this version; grows
 */
enum damos_goal_metric {
	DAMOS_GOAL_UNKNOWN = -1,
	DAMOS_GOAL_USER_INPUT = 0,
	DAMOS_GOAL_SOME_MEM_PSI_US = 1,
	DAMOS_NR_GOAL_METRICS
};

/**
 * struct damos_goal_info - one quota goal
 * @sz: as for struct damos_filter_info
 * @metric: the metric
 * @metric_name: out: the kernel's word
 * @target: the value the kernel tunes the quota to reach
 * @current: user_input: as written; else as read
 */
struct damos_goal_info {
	size_t sz;
	enum damos_goal_metric metric;
	const char *metric_name;
	uint64_t target;
	uint64_t current;
};

/**
 * damos_goal_metric_name() - the word of a quota goal metric
 * @m: the goal metric
 *
 * Return: "user_input" or "some_mem_psi_us"; NULL (errno EINVAL) if @m is
 * not a goal metric.
 */
DAMOS_API const char *damos_goal_metric_name(enum damos_goal_metric m);
/**
 * damos_goal_metric_from_name() - the quota goal metric of a word
 * @name: the name
 *
 * Return: the enum damos_goal_metric value, or -EINVAL (the message lists
 * the metrics).
 */
DAMOS_API int damos_goal_metric_from_name(const char *name);
/**
 * damos_scheme_nr_goals() - the number of the scheme's quota goals
 * @s: the scheme
 *
 * Return: the number of goals, 0 for none.
 */
DAMOS_API size_t damos_scheme_nr_goals(const struct damos_scheme *s);
/**
 * damos_scheme_goal() - quota goal @i of the scheme
 * @s: the scheme
 * @i: the index
 * @out: the goal, .sz set by the caller
 *
 * Return: 0 with @out filled (its strings belong to the scheme), or -EINVAL
 * (no goal @i, or .sz not set).
 */
DAMOS_API int damos_scheme_goal(const struct damos_scheme *s, size_t i,
				struct damos_goal_info *out);
/**
 * damos_scheme_add_goal() - append a quota goal
 * @s: the scheme
 * @g: the goal
 *
 * Return: 0, -EINVAL (.sz not set, or not a metric) with a message, or
 * -ENOMEM.
 */
DAMOS_API int damos_scheme_add_goal(struct damos_scheme *s,
				    const struct damos_goal_info *g);

/**
 * damos_scheme_set() - set field @f to @v (kernel unit).  The value must be
 * within damos_field_max(@f); cross-field rules (min <= max, watermarks
 * order) are checked by damos_scheme_validate().
 * @s: the scheme
 * @f: the field
 * @v: the value, in the kernel's unit
 *
 * Return: 0, -EINVAL for an unknown field, -ERANGE (message names the field
 * and the value) for a value out of the field's range.
 */
DAMOS_API int damos_scheme_set(struct damos_scheme *s, enum damos_field f,
			       uint64_t v);

/**
 * damos_scheme_set_str() - set field @f from a human value:
 *   "min"/"max" the field's own bounds, a bare number the kernel's unit;
 *   sizes (min_sz, max_sz, quota_sz): B K M G T;
 *   access counts: "N%" of the samples per aggregation interval;
 *   ages: times (us ms s m h) turned into aggregation intervals;
 *   quota time/reset (ms) and watermark interval (us): times;
 *   watermark levels: per mille, or "N%" (at most one decimal);
 *   action and metric: their names (or dbgfs numbers).
 * @attrs (may be NULL when no % or age time is used) does the conversions;
 * a conversion must give a whole number or it is an error that says which
 * values would work.
 * @s: the scheme
 * @f: the field
 * @value: the value as text
 * @attrs: the attributes units convert with (NULL: the defaults)
 *
 * Return: 0, or -EINVAL/-ERANGE with a message naming field and value.
 */
DAMOS_API int damos_scheme_set_str(struct damos_scheme *s, enum damos_field f,
				   const char *value,
				   const struct damon_attrs *attrs);

/**
 * damos_scheme_validate() - check the rules the kernel applies to a scheme:
 * min <= max for sizes, accesses and ages, and watermarks high >= mid >=
 * low.
 * @s: the scheme
 *
 * Return: 0 or -EINVAL with a message naming the fields and values.
 */
DAMOS_API int damos_scheme_validate(const struct damos_scheme *s);

/**
 * damos_scheme_equal() - whether the 18 input fields of @a and @b are equal
 * (statistics are ignored).
 * @a: a scheme
 * @b: the other scheme
 *
 * Return: true if they are equal.
 */
DAMOS_API bool damos_scheme_equal(const struct damos_scheme *a,
				  const struct damos_scheme *b);

/**
 * damos_scheme_parse() - build a scheme from the keyword grammar of
 * "damoctl scheme add":
 * @argc: the number of words
 * @argv: the words
 * @attrs: the attributes units convert with (NULL: the defaults)
 *
 *   ACTION [sz MIN MAX] [access MIN MAX] [age MIN MAX]
 *          [quota [time MS] [size BYTES] [reset MS]]
 *          [weights SZ ACCESS AGE]
 *          [wmarks METRIC INTERVAL HIGH MID LOW]
 *          [nid N] [apply_interval TIME]
 *          [filter [not] anon|young|memcg PATH|addr START END|target IDX]...
 *          [goal METRIC TARGET [CURRENT]]...
 *
 * migrate_hot and migrate_cold need nid.  filter and goal may come again
 * (one filter or goal each); every other keyword once.
 * It starts from damos_scheme_new_preset(ACTION, @attrs) and applies every
 * keyword given, with damos_scheme_set_str() for each value; then it checks
 * the scheme (a message such as "min age 10s > max age 5s" quotes the
 * values as the user wrote them).  A keyword may appear once.
 *
 * Return: the scheme, or NULL (errno EINVAL) with a message.
 */
DAMOS_API struct damos_scheme *damos_scheme_parse(int argc,
						  const char *const *argv,
						  const struct damon_attrs *attrs);

/**
 * damos_scheme_keywords() - the keywords damos_scheme_parse() knows, in
 * grammar order ("sz", "access", "age", "quota", "weights", "wmarks",
 * "nid", "apply_interval", "filter", "goal"), for help text and
 * completion.
 *
 * Return: a static NULL-terminated array.
 */
DAMOS_API const char *const *damos_scheme_keywords(void);
/**
 * damos_scheme_quota_keywords() - the words after "quota" ("time",
 * "size", "reset"), for help text and completion.
 *
 * Return: a static NULL-terminated array.
 */
DAMOS_API const char *const *damos_scheme_quota_keywords(void);

/**
 * enum damos_kw_values - what completes a keyword's first value (or every
 * one, DAMOS_KW_V_MIN_MAX)
 * @DAMOS_KW_V_NONE: nothing fixed
 * @DAMOS_KW_V_MIN_MAX: "min", "max": each value
 * @DAMOS_KW_V_WMARK_METRIC: damos_metric_name()
 * @DAMOS_KW_V_FILTER_TYPE: "not", damos_filter_type_name()
 * @DAMOS_KW_V_GOAL_METRIC: damos_goal_metric_name()
 */
enum damos_kw_values {
	DAMOS_KW_V_NONE = 0,
	DAMOS_KW_V_MIN_MAX = 1,
	DAMOS_KW_V_WMARK_METRIC = 2,
	DAMOS_KW_V_FILTER_TYPE = 3,
	DAMOS_KW_V_GOAL_METRIC = 4,
};

/**
 * struct damos_scheme_kw - keyword i of the scheme grammar
 * @sz: sizeof(struct damos_scheme_kw), set by the caller
 * @kw: the keyword
 * @nr_values: how many words follow it; 0: the sub-keywords @subs
 * @subs: the sub-keywords, NULL-terminated, each with one value
 * @values: what completes its values
 * @repeat: it may come again (filter, goal)
 * @args: the words after it as a synopsis shows them ("MIN MAX")
 * @help_args: the words after it as a keyword list shows them (the filter
 *	types spelt out)
 * @help: one line of help
 *
 * From the one table that damos_scheme_parse(), damos_scheme_edit(),
 * damos_scheme_format() and their messages read (damos_scheme_keyword()).
 * The strings are static.
 */
struct damos_scheme_kw {
	size_t sz;
	const char *kw;
	int nr_values;
	const char *const *subs;
	enum damos_kw_values values;
	bool repeat;
	const char *args, *help_args, *help;
};

/**
 * damos_scheme_keyword() - fill @out with keyword @i (0, 1, ... in grammar
 * order).
 * @i: the index
 * @out: the keyword, .sz set by the caller
 *
 * Return: 0, or -EINVAL past the last keyword or for a short @out->sz.
 */
DAMOS_API int damos_scheme_keyword(size_t i, struct damos_scheme_kw *out);

/**
 * damos_scheme_format() - print @s in the keyword grammar with every
 * keyword given, sizes and times with units and access counts and ages as
 * bare kernel numbers, so that damos_scheme_parse() reads back the same
 * scheme under any attributes ("pageout sz 4K 8K access 0 5 age 10 20
 * quota time 10ms size 1G reset 1s weights 0 0 100 wmarks free_mem_rate 5s
 * 600 500 300"), then nid, apply_interval, filters and goals when the
 * scheme has them.  An action, filter type or goal metric the library does
 * not know is printed as the kernel's word.  No trailing newline.
 * @s: the scheme
 * @buf: the buffer
 * @sz: the buffer's size
 *
 * Return: the length the full text needs (like snprintf), or -EINVAL.
 */
DAMOS_API int damos_scheme_format(const struct damos_scheme *s, char *buf,
				  size_t sz);

/* ------------------------------------------------------------------------
 * dbgfs encoding.
 */

/**
 * damos_dbgfs_encode_scheme() - write @s as one dbgfs "schemes" line (18
 * numbers and a newline) into @buf.  Checks damos_scheme_validate() first.
 * @s: the scheme
 * @buf: the buffer
 * @sz: the buffer's size
 *
 * Return: the length written, -EINVAL (invalid scheme) or -ENOSPC.
 */
DAMOS_API int damos_dbgfs_encode_scheme(const struct damos_scheme *s,
					char *buf, size_t sz);

/**
 * damos_dbgfs_encode() - the full content of a dbgfs "schemes" file for @n
 * schemes: one line each; for @n == 0 a single newline (what "echo '' >
 * schemes" writes, which removes every scheme).
 * @s: the schemes
 * @n: the number
 *
 * Return: a malloc()ed string, or NULL (errno EINVAL/ENOMEM) with a message
 * naming the scheme index at fault.
 */
DAMOS_API char *damos_dbgfs_encode(struct damos_scheme *const *s, size_t n);

/**
 * damos_dbgfs_decode() - parse what reading a dbgfs "schemes" file returns:
 * lines of 18 numbers (as written), 23 (18 + five statistics, 5.17 and
 * later) or 20 (18 + two statistics, 5.16: they become nr_tried and
 * sz_tried).  Blank lines are skipped.
 * @text: the text
 * @out: where the array of schemes goes
 * @n: the number
 *
 * Return: 0 with a malloc()ed array in *@out (free with
 * damos_schemes_free()) and its length in *@n, or -EINVAL with a message
 * naming the line and the field.
 */
DAMOS_API int damos_dbgfs_decode(const char *text, struct damos_scheme ***out,
				 size_t *n);

/* ------------------------------------------------------------------------
 * Monitoring targets.
 */
/**
 * enum damon_ops - the operations sets
 * @DAMON_OPS_VADDR: vaddr: processes, by pid
 * @DAMON_OPS_FVADDR: fvaddr: fixed virtual address ranges (sysfs only)
 * @DAMON_OPS_PADDR: paddr: the physical address space
 * @DAMON_NR_OPS: the number of operations sets
 */
enum damon_ops {
	DAMON_OPS_VADDR = 0,
	DAMON_OPS_FVADDR = 1,
	DAMON_OPS_PADDR = 2,
	DAMON_NR_OPS,
};

/**
 * struct damon_region - an address range, an element of the regions of a
 * struct damon_target
 * @start: its start
 * @end: its end, exclusive
 *
 * Fixed in size for the life of LIBDAMOS_2 (an array's stride is the
 * caller's), as struct damon_target.
 */
struct damon_region {
	uint64_t start;
	uint64_t end;
};

/**
 * struct damon_target - a monitoring target, an element of the targets of
 * a struct damon_targets
 * @pid: vaddr and fvaddr: the process; 0 for paddr
 * @nr_regions: the number of @regions
 * @regions: the initial regions; may be empty
 */
struct damon_target {
	int pid;
	size_t nr_regions;
	struct damon_region *regions;
};

/**
 * struct damon_targets - a context's operations set and targets
 * @sz: as for struct damon_attrs: filled ones have it, DAMON_TARGETS_INIT
 * @ops: the operations set
 * @nr: the number of @targets
 * @targets: the targets
 */
struct damon_targets {
	size_t sz;
	enum damon_ops ops;
	size_t nr;
	struct damon_target *targets;
};

#define DAMON_TARGETS_INIT { .sz = sizeof(struct damon_targets) }

/**
 * damon_ops_name() - the name of an operations set, as the kernel's
 * files spell it.
 * @o: the operations set
 *
 * Return: "vaddr", "fvaddr" or "paddr"; NULL for anything else.
 */
DAMOS_API const char *damon_ops_name(enum damon_ops o);

/**
 * damon_targets_free() - free the arrays inside @t (not @t itself) and zero
 * it, keeping its .sz.
 * @t: the targets
 */
DAMOS_API void damon_targets_free(struct damon_targets *t);

/**
 * damon_targets_validate() - paddr has at most one target; vaddr targets
 * are distinct processes; regions have start < end and are sorted and not
 * overlapping.
 * @t: the targets
 *
 * Return: 0 or -EINVAL with a message.
 */
DAMOS_API int damon_targets_validate(const struct damon_targets *t);

/* ------------------------------------------------------------------------
 * A handle on one DAMON context through one interface.
 */
/**
 * enum damon_iface - DAMON's kernel interfaces
 * @DAMON_IFACE_AUTO: sysfs where it is, else dbgfs (damon_open())
 * @DAMON_IFACE_SYSFS: <root>/sys/kernel/mm/damon/admin
 * @DAMON_IFACE_DBGFS: <root>/sys/kernel/debug/damon
 */
enum damon_iface {
	DAMON_IFACE_AUTO = 0,
	DAMON_IFACE_SYSFS = 1,
	DAMON_IFACE_DBGFS = 2,
};

/**
 * damon_iface_name() - the name of an interface.
 * @i: the interface
 *
 * Return: "auto", "sysfs" or "dbgfs"; NULL for anything else.
 */
DAMOS_API const char *damon_iface_name(enum damon_iface i);

/**
 * damon_iface_from_name() - the interface for "auto", "sysfs" or "dbgfs".
 * @name: the name
 *
 * Return: the enum damon_iface value or -EINVAL.
 */
DAMOS_API int damon_iface_from_name(const char *name);

/**
 * damos_detect() - which interfaces exist below @root (NULL for "/").
 * @root: the root directory ("" or NULL: /)
 *
 * Return: a mask of (1 << DAMON_IFACE_SYSFS) and (1 << DAMON_IFACE_DBGFS);
 * 0 if there is none.
 */
DAMOS_API unsigned int damos_detect(const char *root);

/*
 * struct damos_layer - one layer of a handle's I/O (opaque).  Every read
 * and write of a handle goes through the layers damon_opts.layers lists,
 * the first one on top, down to the files below the root; no other part
 * of the library knows which layers are there.
 */
struct damos_layer;

/**
 * damos_layer_dry_run() - the dry run: the handle works on a private copy
 * of the DAMON files below the root (made at the first dry run of the
 * process, kept for the later ones, removed at exit).  Each write is
 * recorded with its real path (damos_dry_run_script()) and made on the
 * copy with what the kernel would make (a sysfs nr_* write its numbered
 * directories, from the sysfs backend's own layout), so that a later
 * read, in the same handle or a later one of the process, sees it as the
 * kernel would show it: a batch of dry-run commands writes the script its
 * commands write when run one after the other.  The real tree is never
 * written.  Put it on top.
 *
 * Return: the layer, static (for damon_opts.layers).
 */
DAMOS_API const struct damos_layer *damos_layer_dry_run(void);

/**
 * struct damon_opts - how to open a handle (damon_open())
 * @sz: sizeof(struct damon_opts); DAMON_OPTS_INIT sets it
 * @root: the root directory; NULL or "" = "/"
 * @iface: the interface; AUTO: see damon_open()
 * @kdamond: sysfs: kdamonds/<kdamond>, context 0
 * @dbgfs_ctx: dbgfs: the context directory; NULL = the damon directory
 * @dbgfs_lru: -1 probe, 0 no, 1 yes: whether dbgfs takes lru_prio and
 *	lru_deprio (see the top of this file)
 * @layers: the layers over the files, top first, NULL-terminated; NULL
 *	for none.  A dry run: { damos_layer_dry_run(), NULL }.
 *
 * Fields added later are appended, and a caller built against an older
 * header keeps working.
 */
struct damon_opts {
	size_t sz;
	const char *root;	/* NULL or "" = "/" */
	enum damon_iface iface;	/* AUTO: see damon_open() */
	int kdamond;		/* sysfs: kdamonds/<kdamond>, context 0 */
	const char *dbgfs_ctx;	/* dbgfs: context directory, NULL = root */
	int dbgfs_lru;		/* -1 probe, 0 no, 1 yes: see the top */
	/*
	 * The layers over the files, top first, NULL-terminated; NULL for
	 * none.  A dry run: { damos_layer_dry_run(), NULL }.
	 */
	const struct damos_layer *const *layers;
};

#define DAMON_OPTS_INIT {						\
	.sz = sizeof(struct damon_opts), .root = NULL,			\
	.iface = DAMON_IFACE_AUTO, .kdamond = 0, .dbgfs_ctx = NULL,	\
	.dbgfs_lru = -1, .layers = NULL,				\
}

struct damon_ctx;

/**
 * damon_open() - a handle on the DAMON context chosen by @opts (NULL for
 * the defaults).  Nothing is written.  With DAMON_IFACE_AUTO it picks dbgfs
 * if .dbgfs_ctx names a context, sysfs if .kdamond is not 0, else sysfs if
 * present, else dbgfs.  A context on sysfs, or a kdamond other than 0 on
 * dbgfs, is refused (EINVAL) rather than ignored.
 * @opts: where and how (root, interface, layers); NULL for the defaults
 *
 * Return: the handle (close with damon_close()), or NULL with errno ENOENT
 * (no such interface below the root, message says where it looked),
 * EINVAL or ENOMEM.
 */
DAMOS_API struct damon_ctx *damon_open(const struct damon_opts *opts);

/**
 * damon_close() - free the handle; NULL is a no-op.
 * @d: the handle
 */
DAMOS_API void damon_close(struct damon_ctx *d);

/**
 * damon_get_iface() - the interface the handle uses (never AUTO).
 * @d: the handle
 *
 * Return: DAMON_IFACE_SYSFS or DAMON_IFACE_DBGFS.
 */
DAMOS_API enum damon_iface damon_get_iface(const struct damon_ctx *d);

/**
 * damon_get_dir() - the directory the handle works in: the dbgfs context
 * directory or the sysfs context directory (kdamonds/N/contexts/0).
 * @d: the handle
 *
 * Return: the path, owned by the handle.
 */
DAMOS_API const char *damon_get_dir(const struct damon_ctx *d);

/**
 * damon_context_check() - whether the handle's context is there, or a
 * write would make it without resetting another (a read of a context that
 * is not there shows made-up defaults).  On sysfs, a context whose
 * kdamond (other than 0, which the first write makes) does not exist is
 * neither.
 * @d: the handle
 *
 * Return: 0, or -ENOENT with a message ("kdamond 3 does not exist: ...").
 */
DAMOS_API int damon_context_check(struct damon_ctx *d);

/**
 * damon_kdamonds_count() - how many kdamonds the interface has: sysfs's
 * nr_kdamonds; 1 on dbgfs.
 * @d: any handle of the interface
 * @nr: where the count goes
 *
 * Return: 0 or a negative errno with a message.
 */
DAMOS_API int damon_kdamonds_count(struct damon_ctx *d, unsigned int *nr);

/**
 * damon_kdamonds_resize() - make the sysfs interface hold @nr kdamonds of
 * one context each.  The kernel makes every kdamond directory anew on a
 * write of nr_kdamonds, so a change of count resets all of them: the caller
 * writes each setup afterwards, in the same transaction (damos_txn_begin()
 * on @d first, and a failure puts back every kdamond as it was).  The same
 * count writes nothing.
 * @d: a sysfs handle
 * @nr: 1 to 1024
 *
 * Return: 0, -EBUSY (a kdamond is on; the message names it), -EOPNOTSUPP on
 * dbgfs, or another negative errno with a message.
 */
DAMOS_API int damon_kdamonds_resize(struct damon_ctx *d, unsigned int nr);

/*
 * Locking.  DAMON's files are read-modify-written (a scheme is added by
 * reading the schemes and writing them all back), so two programs writing
 * at once lose each other's changes, and sysfs answers EBUSY or ENODEV to
 * the slower one.  The library does not lock by itself; damoctl takes, for
 * the whole of every command (of every batch, from its first line to its
 * end), flock(2) on one directory, and any other program can take the same
 * lock (flock(1) in a script, as root):
 *
 *   <root>/run/damos      made 0700 if missing, refused unless it is the
 *                           caller's own and closed to other users
 *
 * LOCK_EX to write, LOCK_SH to read.  DAMON's own directories are
 * world-readable: a lock on them could be held by any user.
 *
 * The journal.  A transaction (damos_txn_begin()) of a process that holds
 * the lock of its root puts, before its first write, the files it may
 * change in <root>/run/damos/journal (fsync()ed), and removes it at its
 * end.  A journal found there by the next holder of the lock is a dead
 * process's, mid-change: damos_journal_recover() puts its files back.
 */

/**
 * damos_lock_take() - flock() the lock directory of @root (above),
 * LOCK_EX if @exclusive else LOCK_SH, trying until @wait_us microseconds
 * have passed (0: once).
 * @root: the root directory ("" or NULL: /)
 * @exclusive: an exclusive lock, else a shared one
 * @wait_us: how long to wait for it
 *
 * Return: the descriptor that holds the lock (release it with
 * damos_lock_release()), -ETIMEDOUT with a message naming the holder when
 * /proc/locks shows it ("... is locked by pid 123 (damoctl scheme add
 * stat)"), -EPERM if the directory is another user's or open to others,
 * -ELOOP if it or its parent is a symlink, or the errno of mkdir(), open()
 * or flock().
 */
DAMOS_API int damos_lock_take(const char *root, bool exclusive,
			      uint64_t wait_us);

/**
 * damos_lock_release() - release what damos_lock_take() returned; a
 * negative @fd is a no-op.
 * @fd: the descriptor damos_lock_take() returned
 */
DAMOS_API void damos_lock_release(int fd);

/**
 * damos_journal_recover() - put back the files of a transaction whose
 * process died in it
 * @lockfd: the lock of @opts' root, held (damos_lock_take()); made
 *          exclusive (waiting up to @wait_us) if there is a journal to
 *          roll back, and left so
 * @opts: the root and the layers of the handles that write the files back
 * @wait_us: how long to wait for the exclusive lock
 *
 * Call it after taking the lock, before reading anything.  After a sysfs
 * restore, every running kdamond takes the files ("commit").
 *
 * Return: 0 if there was no journal to roll back; 1 when it rolled one
 * back, with damos_errmsg() saying whose and what; -ENOTRECOVERABLE with
 * the files left otherwise named; another negative errno with a message
 * (an unreadable journal is left as it is).
 */
DAMOS_API int damos_journal_recover(int lockfd, const struct damon_opts *opts,
				    uint64_t wait_us);

/**
 * damon_iface_dir() - the directory of interface @i (not AUTO) below
 * @root (NULL for "/"), whether or not it exists.
 * @root: the root directory ("" or NULL: /)
 * @i: the interface
 *
 * Return: the path (free() it), or NULL with errno EINVAL (no such
 * interface) and a message, or ENOMEM.
 */
DAMOS_API char *damon_iface_dir(const char *root, enum damon_iface i);
/**
 * damon_module_dir() - a module's directory below a root
 * @root: the root directory ("" or NULL: /)
 * @name: the name
 *
 * The parameters directory of module @name ("lru_sort" or
 * "damon_lru_sort", ...), whether or not it exists, as damon_iface_dir().
 *
 * Return: the path (free() it), or NULL with errno ENOENT (no such
 * module) and a message, or ENOMEM.
 */
DAMOS_API char *damon_module_dir(const char *root, const char *name);


/**
 * enum damos_feature - what the kernel behind a handle offers
 * @DAMOS_FEAT_LRU_ACTIONS: lru_prio, lru_deprio
 * @DAMOS_FEAT_MIGRATE: migrate_hot/cold, target_nid (6.11)
 * @DAMOS_FEAT_APPLY_INTERVAL: apply_interval_us (6.7)
 * @DAMOS_FEAT_FILTERS: filters/: anon, memcg (6.3)
 * @DAMOS_FEAT_FILTER_ADDR: addr and target filters (6.6)
 * @DAMOS_FEAT_FILTER_YOUNG: young filter (6.10)
 * @DAMOS_FEAT_QUOTA_GOALS: quotas/goals/ (6.8)
 * @DAMOS_FEAT_GOAL_METRIC: goals' target_metric (6.9)
 * @DAMOS_FEAT_EFFECTIVE_BYTES: quotas/effective_bytes (6.9)
 * @DAMOS_FEAT_TRIED_REGIONS: tried_regions/ (6.2)
 * @DAMOS_FEAT_TRIED_BYTES: tried_regions/total_bytes (6.6)
 * @DAMOS_FEAT_MONITOR_ON_DEPRECATED: dbgfs monitor_on_DEPRECATED (6.9)
 * @DAMOS_FEAT_COMMIT: changes reach a running context (sysfs)
 * @DAMOS_NR_FEATURES: the number of features of this version; grows
 *
 * Probed once per handle (sysfs: the files of an existing scheme
 * directory, else the kernel release in <root>/proc/sys/kernel/osrelease,
 * else Linux 6.1's layout; dbgfs: its files, and the lru_prio probe
 * described at the top).  An operation that needs a missing feature fails
 * with -EOPNOTSUPP and a message naming the feature and the kernel.
 * Append-only values.
 */
enum damos_feature {
	DAMOS_FEAT_LRU_ACTIONS = 0,
	DAMOS_FEAT_MIGRATE = 1,
	DAMOS_FEAT_APPLY_INTERVAL = 2,
	DAMOS_FEAT_FILTERS = 3,
	DAMOS_FEAT_FILTER_ADDR = 4,
	DAMOS_FEAT_FILTER_YOUNG = 5,
	DAMOS_FEAT_QUOTA_GOALS = 6,
	DAMOS_FEAT_GOAL_METRIC = 7,
	DAMOS_FEAT_EFFECTIVE_BYTES = 8,
	DAMOS_FEAT_TRIED_REGIONS = 9,
	DAMOS_FEAT_TRIED_BYTES = 10,
	DAMOS_FEAT_MONITOR_ON_DEPRECATED = 11,
	DAMOS_FEAT_COMMIT = 12,
	DAMOS_NR_FEATURES
};

/**
 * damos_feature_name() - the name of a feature.
 * @f: the feature
 *
 * Return: "lru_actions", "migrate", ...; NULL (errno EINVAL) if @f is not a
 * feature.
 */
DAMOS_API const char *damos_feature_name(enum damos_feature f);

/**
 * damos_has() - whether the handle's kernel has @f.
 * @d: the handle
 * @f: the feature
 *
 * Return: 1 yes, 0 no, -EINVAL (not a feature), -EAGAIN (not known: a dbgfs
 * lru probe that could not run).
 */
DAMOS_API int damos_has(struct damon_ctx *d, enum damos_feature f);

/**
 * damos_kernel_desc() - how the handle's kernel was identified, for
 * messages.
 * @d: the handle
 *
 * Return: the description ("sysfs, Linux 6.12 layout", "dbgfs"), owned by
 * the handle.
 */
DAMOS_API const char *damos_kernel_desc(struct damon_ctx *d);

/**
 * damos_dbgfs_lru_supported() - whether this dbgfs accepts lru_prio and
 * lru_deprio (see the top of this file for how it is found out).
 * @d: the handle
 *
 * Return: 1 yes, 0 no, -EAGAIN unknown (dry run, or the probe could not
 * run), -EOPNOTSUPP if the handle is not on dbgfs.
 */
DAMOS_API int damos_dbgfs_lru_supported(struct damon_ctx *d);

/**
 * damos_scheme_check() - whether the handle's interface and kernel take
 * @s, checked without writing: damos_scheme_validate() for a scheme the
 * caller made or changed, every feature it needs (damos_has()), and what
 * the interface refuses (dbgfs without the damos series: lru_prio and
 * lru_deprio; the message then starts with the action, hint
 * DAMOS_HINT_USE_SYSFS).  May run the dbgfs probe described at the top.
 * @d: the handle
 * @s: the scheme
 *
 * Return: 0 yes; 1 not known before the write (the kernel then decides,
 * and a refusal changes nothing); -EINVAL or -EOPNOTSUPP with a message.
 */
DAMOS_API int damos_scheme_check(struct damon_ctx *d,
				 const struct damos_scheme *s);

/**
 * damon_targets_check() - whether the handle's interface takes @t:
 * damon_targets_validate(), then what it cannot express (dbgfs: fvaddr,
 * -EOPNOTSUPP with hint DAMOS_HINT_USE_SYSFS).  Writes nothing.
 * @d: the handle
 * @t: the targets
 *
 * Return: 0 or a negative errno with a message.
 */
DAMOS_API int damon_targets_check(struct damon_ctx *d,
				  const struct damon_targets *t);

/**
 * damon_targets_same() - whether @shown (damon_targets_read() after a
 * write) shows @want as the handle's interface shows what was written:
 * the operations, each target's pid (vaddr) and regions; dbgfs shows no
 * regions while monitoring runs and keeps none of a target written
 * without them, so there regions count only where both have some.
 * @d: the handle
 * @shown: the targets read back
 * @want: the targets written
 *
 * Return: true if @shown shows @want.
 */
DAMOS_API bool damon_targets_same(struct damon_ctx *d,
				  const struct damon_targets *shown,
				  const struct damon_targets *want);

/**
 * damos_schemes_read() - the context's schemes with their statistics as the
 * files hold them.  On sysfs a running kdamond updates its statistics files
 * only when asked: call damos_stats_update() first to show them.
 * @d: the handle
 * @out: where the array of schemes goes
 * @n: the number
 *
 * Return: 0 with *@out (free with damos_schemes_free()) and *@n, or a
 * negative errno.
 */
DAMOS_API int damos_schemes_read(struct damon_ctx *d, struct damos_scheme ***out,
				 size_t *n);

/**
 * damos_stats_update() - asks a running sysfs kdamond to update its schemes'
 * statistics files: update_schemes_stats, and update_schemes_effective_quotas
 * and update_schemes_tried_bytes where the kernel has them.  The last waits
 * until every scheme has been applied again (up to its apply interval).
 * Nothing to do on dbgfs (its schemes file shows them current) or when the
 * kdamond is off.
 * @d: the handle
 *
 * Return: 0, or the negative errno of the first command the kernel refused
 * (the statistics are then as they were).
 */
DAMOS_API int damos_stats_update(struct damon_ctx *d);

/**
 * damos_schemes_write() - replace the context's schemes by @n schemes.
 * dbgfs: one write of the whole "schemes" content; refused with -EBUSY
 * while monitoring is on (nothing is written), and lru_prio/lru_deprio are
 * refused with -EOPNOTSUPP on a dbgfs without them.  sysfs: nr_schemes and
 * every file of every scheme, then "commit" if the kdamond is on.
 * Every scheme is validated before anything is written.
 * @d: the handle
 * @s: the schemes
 * @n: the number
 *
 * Return: 0 or a negative errno with a message.
 */
DAMOS_API int damos_schemes_write(struct damon_ctx *d,
				  struct damos_scheme *const *s, size_t n);

/**
 * damos_scheme_add() - append @s to the context's schemes, keeping those
 * already there (read, append, write as damos_schemes_write()).
 * @d: the handle
 * @s: the scheme
 *
 * Return: the new scheme's index, or a negative errno.
 */
DAMOS_API int damos_scheme_add(struct damon_ctx *d, const struct damos_scheme *s);

/**
 * damos_scheme_remove() - remove the scheme at index @idx, keeping the
 * others in order.
 * @d: the handle
 * @idx: the index of the scheme
 *
 * Return: 0, -ENOENT if there is no such scheme, or a negative errno.
 */
DAMOS_API int damos_scheme_remove(struct damon_ctx *d, size_t idx);

/*
 * Tried regions (sysfs, Linux 6.2+; total_bytes 6.6+): the regions the
 * action of a scheme was tried on in its last apply interval, with their
 * access counts, as the kernel lists them in tried_regions/.
 */
struct damos_tried_regions;

/**
 * struct damos_tried_region - one tried region
 * @sz: as for struct damos_filter_info: set it before
 *	damos_tried_regions_get()
 * @start: the region [start, end)
 * @end: its end
 * @nr_accesses: samples per aggregation interval
 * @age: aggregation intervals
 *
 * Fields are only appended.
 */
struct damos_tried_region {
	size_t sz;
	uint64_t start;
	uint64_t end;
	uint64_t nr_accesses;
	uint64_t age;
};

/**
 * damos_tried_regions_read() - the tried regions of scheme @idx.  When the
 * kdamond is on (and this is not a dry run), the kernel is asked to list
 * them afresh first (state update_schemes_tried_regions, which returns
 * once the scheme's next apply interval has passed); when it is off, what
 * the kernel last listed is read.
 * @d: the handle
 * @idx: the index of the scheme
 * @out: where the tried regions go
 *
 * Return: 0 with *@out (free with damos_tried_regions_free()); -ENOENT (no
 * scheme @idx), -EOPNOTSUPP (dbgfs, or a kernel without tried_regions/:
 * the message names the feature and the kernel), or the errno of a read.
 */
DAMOS_API int damos_tried_regions_read(struct damon_ctx *d, size_t idx,
				       struct damos_tried_regions **out);

/**
 * damos_tried_regions_nr() - the number of tried regions
 * @r: the tried regions
 *
 * The regions are in the kernel's order (damos_tried_regions_get()).
 *
 * Return: the number of regions.
 */
DAMOS_API size_t damos_tried_regions_nr(const struct damos_tried_regions *r);
/**
 * damos_tried_regions_get() - tried region @i
 * @r: the tried regions
 * @i: the index
 * @out: the region
 *
 * Fills @out (its .sz must be set) with region @i, in the kernel's order.
 *
 * Return: 0, or -EINVAL (no region @i, or .sz not set).
 */
DAMOS_API int damos_tried_regions_get(const struct damos_tried_regions *r,
				      size_t i, struct damos_tried_region *out);
/**
 * damos_tried_regions_total_bytes() - the tried bytes the kernel summed
 * @r: the tried regions
 *
 * The kernel's total_bytes (6.6+), else the sum of the regions' sizes.
 *
 * Return: the number of bytes.
 */
DAMOS_API uint64_t
damos_tried_regions_total_bytes(const struct damos_tried_regions *r);

/**
 * damos_tried_regions_free() - free @r; NULL is a no-op.
 * @r: the tried regions
 */
DAMOS_API void damos_tried_regions_free(struct damos_tried_regions *r);

/**
 * enum damon_snapshot_source - where an access snapshot comes from
 * @DAMON_SNAPSHOT_AUTO: tried regions where the kernel has them, else the
 *	tracepoint
 * @DAMON_SNAPSHOT_TRIED_REGIONS: the tried regions of a stat scheme
 *	(sysfs, Linux 6.2+)
 * @DAMON_SNAPSHOT_TRACE: the damon:damon_aggregated tracepoint (any
 *	interface)
 *
 * Access snapshots: the regions a running context monitors, with their
 * access counts and ages, as one aggregation interval left them.  The
 * result is a struct damos_tried_regions (read it with the functions
 * above).
 *
 * DAMON_SNAPSHOT_TRIED_REGIONS reads the tried regions of a stat scheme
 * that every region passes (no filters, quotas or watermarks): the
 * context's own such scheme if it has one; else one is appended for the
 * snapshot and the schemes are written back as they were afterwards (a
 * running kdamond gets both changes by "commit").
 *
 * DAMON_SNAPSHOT_TRACE reads the tracepoint in a tracefs instance of its
 * own (<tracefs>/instances/damos-<pid>, removed afterwards) so that the
 * user's trace buffer is left alone; lines of other kdamonds are skipped
 * by pid.  It records for .trace_us (0: two aggregation intervals), then
 * for up to 20 more aggregation intervals until each target has a
 * complete aggregation.  On a fake tree the "trace" file below
 * <root>/sys/kernel/tracing (or <root>/sys/kernel/debug/tracing) is read
 * as it is, without waiting.
 */
enum damon_snapshot_source {
	DAMON_SNAPSHOT_AUTO = 0,
	DAMON_SNAPSHOT_TRIED_REGIONS = 1,
	DAMON_SNAPSHOT_TRACE = 2,
};

/**
 * struct damon_snapshot_opts - how to take an access snapshot
 * @sz: sizeof(struct damon_snapshot_opts); fields are only appended
 * @source: where the snapshot comes from
 * @trace_us: DAMON_SNAPSHOT_TRACE: record this long
 */
struct damon_snapshot_opts {
	size_t sz;
	enum damon_snapshot_source source;
	uint64_t trace_us;
};

/**
 * damon_access_snapshot() - the monitored regions of @d's context.
 * @opts: NULL for the defaults (AUTO).
 * @d: the handle
 * @opts: the source and its options; NULL for the defaults
 * @out: where the tried regions go
 *
 * Return: 0 with *@out (free with damos_tried_regions_free()); -ENODATA
 * (monitoring is off: a snapshot needs a running kdamond), -EOPNOTSUPP
 * (a dry run; the source asked for is missing: no tried regions, no
 * tracepoint), -EAGAIN (the kernel listed no region in time), or the
 * errno of a read or write.
 */
DAMOS_API int damon_access_snapshot(struct damon_ctx *d,
				    const struct damon_snapshot_opts *opts,
				    struct damos_tried_regions **out);

/**
 * damos_schemes_clear() - remove every scheme.
 * @d: the handle
 *
 * Return: 0 or a negative errno with a message.
 */
DAMOS_API int damos_schemes_clear(struct damon_ctx *d);

/**
 * damon_attrs_read() - the context's monitoring attributes.  If the tree
 * has no attributes file (a minimal fake tree), the kernel's defaults.
 * @d: the handle
 * @a: the monitoring attributes
 *
 * Return: 0 with *@a filled, or a negative errno with a message.
 */
DAMOS_API int damon_attrs_read(struct damon_ctx *d, struct damon_attrs *a);

/**
 * damon_attrs_write() - set the context's monitoring attributes (validated
 * first; dbgfs refuses while monitoring is on; sysfs commits if on).
 * @d: the handle
 * @a: the monitoring attributes
 *
 * Return: 0, -EINVAL (invalid, named in the message), -EBUSY (dbgfs while
 * monitoring is on) or another negative errno with a message.
 */
DAMOS_API int damon_attrs_write(struct damon_ctx *d, const struct damon_attrs *a);

/**
 * damon_targets_read() - the context's operations, targets and regions.
 * *@t is set in every case: free it with damon_targets_free() even after
 * a failure.
 * dbgfs reports paddr when target_ids reads "42" and init_regions can be
 * read only while monitoring is off (else targets have no regions).
 * @d: the handle
 * @t: the targets
 *
 * Return: 0 or a negative errno with a message.
 */
DAMOS_API int damon_targets_read(struct damon_ctx *d, struct damon_targets *t);

/**
 * damon_targets_write() - set the context's operations, targets and their
 * initial regions (validated first).  dbgfs cannot express fvaddr.  The
 * kernel takes the files one by one, so each is checked writable before
 * the first write (-EACCES or the like, nothing written).
 * @d: the handle
 * @t: the targets
 *
 * Return: 0 or a negative errno with a message.
 */
DAMOS_API int damon_targets_write(struct damon_ctx *d,
				  const struct damon_targets *t);

/**
 * damon_monitor_status() - whether monitoring runs, and the kdamond's pid
 * (-1 when off or unknown).  Either pointer may be NULL.
 * @d: the handle
 * @on: where whether it runs goes
 * @pid: where the kdamond's pid goes
 *
 * Return: 0 or a negative errno with a message.
 */
DAMOS_API int damon_monitor_status(struct damon_ctx *d, bool *on, int *pid);

/**
 * damon_monitor_start() - turn monitoring on
 * @d: the handle
 *
 * damon_monitor_start() / damon_monitor_stop(): turn monitoring on or off.
 * dbgfs: monitor_on (monitor_on_DEPRECATED on 6.9+ kernels) for all
 * contexts; sysfs: the kdamond's state.  Starting needs at least a target.
 * Monitoring already in that state is left alone (the kernel would refuse
 * the write: EBUSY, EINVAL or EPERM).
 *
 * Return: 0 (also when monitoring was on already); -EINVAL (hint
 * DAMOS_HINT_SET_TARGET) without a target; -EBUSY when another DAMON user
 * keeps it off (damon_monitor_check_start()); or another negative errno,
 * with a message.
 */
DAMOS_API int damon_monitor_start(struct damon_ctx *d);
/**
 * damon_monitor_check_start() - the check of damon_monitor_start() that
 * another DAMON user keeps monitoring off (-EBUSY with a message naming
 * it), for a caller that prepares more before it starts.
 * @d: the handle
 *
 * Return: 0, -EBUSY with a message naming the other user, or another
 * negative errno.
 */
DAMOS_API int damon_monitor_check_start(struct damon_ctx *d);
/**
 * damon_monitor_stop() - turn monitoring off
 * @d: the handle
 *
 * See damon_monitor_start().
 *
 * Return: 0 (also when monitoring was off already), or a negative errno
 * with a message.
 */
DAMOS_API int damon_monitor_stop(struct damon_ctx *d);

/**
 * damos_txn_begin() - begin a transaction of several calls
 * @d: the handle
 *
 * damos_txn_begin() / damos_txn_end(): all or nothing.
 *
 * Every mutating function of this library runs as a transaction: before
 * its first write, every file of the interface's directory is read (what
 * other programs set included); if a write fails, those files are written
 * back (nr_* counts first, as writing them recreates directories with
 * defaults) and read again to check.  On a running sysfs kdamond "commit"
 * is written at the end, only once the staged files read back as written.
 *
 * A caller may make several calls one transaction: damos_txn_begin(@d)
 * (@d may be NULL: each handle used before the end joins with its
 * interface's directory when it first writes), the calls, then
 * damos_txn_end(@d, err) with the first error of the calls (0: none).
 * Transactions nest; only the outermost end restores or commits.  Handles
 * may be closed before the end.  A dry run has none.
 *
 * Return: damos_txn_begin(): 0, or the error of reading the files.
 * damos_txn_end(): 0; @err when the files are as before the transaction;
 * -ENOTRECOVERABLE when they could not be put back (damos_errmsg() names
 * the files left otherwise, after the first error's message).
 */
DAMOS_API int damos_txn_begin(struct damon_ctx *d);
/**
 * damos_txn_end() - end the transaction damos_txn_begin() began
 * @d: the handle
 * @err: the errno
 *
 * See damos_txn_begin(), whose comment describes both.
 *
 * Return: 0; @err when the files are as before the transaction;
 * -ENOTRECOVERABLE when they could not be put back (damos_errmsg() names
 * the files left otherwise, after the first error's message).
 */
DAMOS_API int damos_txn_end(struct damon_ctx *d, int err);

/**
 * damon_dbgfs_contexts() - the names of the dbgfs contexts made through
 * mk_contexts (directories of the damon directory that hold a "schemes"
 * file), sorted; the first context, the damon directory itself, is not
 * listed.
 * @d: the handle
 * @names: where the names go
 * @n: the number
 *
 * Return: 0 with a malloc()ed array of malloc()ed names in *@names (free
 * each and the array) and its length in *@n; -EOPNOTSUPP off dbgfs.
 */
DAMOS_API int damon_dbgfs_contexts(struct damon_ctx *d, char ***names, size_t *n);

/**
 * damon_dbgfs_context_make() - write @name to mk_contexts
 * @d: the handle
 * @name: the name
 *
 * damon_dbgfs_context_make() / damon_dbgfs_context_remove(): write @name
 * to mk_contexts or rm_contexts.  The kernel refuses (EBUSY) while any
 * DAMON context runs.  A handle opened on a context keeps working on it.
 *
 * Return: 0, -EINVAL for a name with '/' or blanks, -EOPNOTSUPP off dbgfs,
 * or the kernel's errno.
 */
DAMOS_API int damon_dbgfs_context_make(struct damon_ctx *d, const char *name);
/**
 * damon_dbgfs_context_remove() - write @name to rm_contexts
 * @d: the handle
 * @name: the name
 *
 * See damon_dbgfs_context_make().
 *
 * Return: as damon_dbgfs_context_make().
 */
DAMOS_API int damon_dbgfs_context_remove(struct damon_ctx *d, const char *name);

/**
 * damos_dry_run_script() - with damos_layer_dry_run() in the handle's
 * layers, the writes recorded so far as the body of a POSIX shell script,
 * each one write() under any shell (dash, bash): "echo VALUE > 'FILE'" for a single-line write, "cat > 'FILE'
 * <<'EOF'" and the lines for a multi-line one (bash's printf and echo
 * write line by line, and dbgfs keeps the last write only).  Without
 * that layer, "".
 * @d: the handle
 *
 * Return: a string owned by the handle, valid until the next call on it.
 */
DAMOS_API const char *damos_dry_run_script(struct damon_ctx *d);

/* ------------------------------------------------------------------------
 * The text grammars of the model: the words of damoctl's commands (and of
 * damoctl.conf(5), which damoctl parses).
 */

/**
 * damon_attrs_parse() - apply "[sample TIME] [aggr TIME] [update TIME]
 * [regions MIN MAX]" (the grammar of "damoctl attrs set") to @a, then
 * damon_attrs_validate() it.
 * @a: the monitoring attributes
 * @argc: the number of words
 * @argv: the words
 *
 * Return: 0 or -EINVAL with a message.
 */
DAMOS_API int damon_attrs_parse(struct damon_attrs *a, int argc,
				const char *const *argv);

/**
 * damon_targets_parse() - fill @t (which it first zeroes; free it with
 * damon_targets_free() in every case) from the grammar of "damoctl target
 * set": "{paddr|fvaddr} [region START END]..." or "vaddr pid PID [region
 * START END]... [pid PID ...]", addresses as 0xHEX or sizes; then
 * damon_targets_validate().
 * @t: the targets
 * @argc: the number of words
 * @argv: the words
 *
 * Return: 0 or -EINVAL/-ENOMEM with a message.
 */
DAMOS_API int damon_targets_parse(struct damon_targets *t, int argc,
				  const char *const *argv);

/**
 * damon_ops_supports() - whether the operations set @o applies action @a
 * in Linux 6.1 (paddr: pageout, lru_prio, lru_deprio; vaddr and fvaddr:
 * willneed, cold, pageout, hugepage, nohugepage; stat everywhere).  The
 * kernel accepts the others and silently does nothing.
 * @o: the operations set
 * @a: the action
 *
 * Return: true if @o applies @a; false otherwise and for values that are not
 * an operations set or an action.
 */
DAMOS_API bool damon_ops_supports(enum damon_ops o, enum damos_action a);

/**
 * damos_iomem_biggest_ram() - the biggest top-level "System RAM" range of
 * <@root>/proc/iomem (@root NULL or "" for /), the range damo and the
 * kernel's damon_reclaim and damon_lru_sort monitor when none is given;
 * Linux 6.1 to 6.12 give paddr no region by themselves.
 * @root: the root directory ("" or NULL: /)
 * @start: where the start goes
 * @end: where the end goes
 *
 * Return: 0 with [*@start, *@end) (@end exclusive); -ENOENT if there is no
 * such range (the message says so, and that a user other than root sees
 * only zeros), or the errno of the read.
 */
DAMOS_API int damos_iomem_biggest_ram(const char *root, uint64_t *start,
				      uint64_t *end);

/**
 * damos_iomem_ram() - every top-level "System RAM" range of
 * <@root>/proc/iomem (@root NULL or "" for /), in the file's order: what
 * damoctl's paddr monitors when no region is given.  A machine of 4 GiB or
 * more has one below the 32-bit hole and one above it (and the 640 KiB
 * below the legacy hole); the biggest alone leaves the rest unseen.
 * @root: the root directory ("" or NULL: /)
 * @ranges: where the array goes (free() it), each range's end exclusive
 * @nr: where its length goes
 *
 * Return: 0 with at least one range; -ENOENT if there is none (the message
 * says so, and that a user other than root sees only zeros), or the errno
 * of the read.
 */
DAMOS_API int damos_iomem_ram(const char *root, struct damon_region **ranges,
			      size_t *nr);

/**
 * damos_node_ram() - the memory of NUMA node @nid: its memory blocks
 * (<@root>/sys/devices/system/node/node<@nid>/memory<N>, each
 * <@root>/sys/devices/system/memory/block_size_bytes long), contiguous
 * blocks merged, cut to the System RAM ranges of <@root>/proc/iomem (a
 * block also covers holes and firmware's memory), in address order, as
 * damo's --numa_node takes them.  A kernel without CONFIG_MEMORY_HOTPLUG
 * lists no blocks: then the spans of the node's zones in
 * <@root>/proc/zoneinfo, cut the same way.
 * @root: the root directory ("" or NULL: /)
 * @nid: the node id
 * @ranges: where the array goes (free() it), each range's end exclusive
 * @nr: where its length goes
 *
 * Return: 0 with at least one range; -ENOENT with a message that names the
 * node if there is no such node, if it has no memory block (a kernel
 * without CONFIG_MEMORY_HOTPLUG has none in sysfs: the message says so)
 * or no System RAM in them; -EINVAL for a bad block size or @nid < 0; or
 * the errno of a read.
 */
DAMOS_API int damos_node_ram(const char *root, int nid,
			     struct damon_region **ranges, size_t *nr);

/* ------------------------------------------------------------------------
 * damon_lru_sort: the kernel's LRU-lists sorting module (built in), driven
 * through its parameters in <root>/sys/module/damon_lru_sort/parameters.
 * The enum follows the parameters of mm/damon/lru_sort.c (Linux 6.1);
 * values are in the kernel's units (the comments say which).
 */
/**
 * enum damon_lru_param - the parameters of damon_lru_sort, in the
 * kernel's units
 * @DAMON_LRU_HOT_THRES_ACCESS_FREQ: hot_thres_access_freq, per mille of
 *	the samples
 * @DAMON_LRU_COLD_MIN_AGE: cold_min_age, us
 * @DAMON_LRU_QUOTA_MS: quota_ms, ms, halved for each scheme
 * @DAMON_LRU_QUOTA_RESET_INTERVAL_MS: quota_reset_interval_ms, ms
 * @DAMON_LRU_WMARKS_INTERVAL: wmarks_interval, us
 * @DAMON_LRU_WMARKS_HIGH: wmarks_high, per mille of free memory
 * @DAMON_LRU_WMARKS_MID: wmarks_mid, per mille of free memory
 * @DAMON_LRU_WMARKS_LOW: wmarks_low, per mille of free memory
 * @DAMON_LRU_SAMPLE_INTERVAL: sample_interval, us
 * @DAMON_LRU_AGGR_INTERVAL: aggr_interval, us
 * @DAMON_LRU_MIN_NR_REGIONS: min_nr_regions
 * @DAMON_LRU_MAX_NR_REGIONS: max_nr_regions
 * @DAMON_LRU_MONITOR_REGION_START: monitor_region_start, a physical
 *	address; 0 0: the biggest System RAM range
 * @DAMON_LRU_MONITOR_REGION_END: monitor_region_end, its end
 * @DAMON_LRU_NR_PARAMS: the number of parameters of this version; grows
 */
enum damon_lru_param {
	DAMON_LRU_HOT_THRES_ACCESS_FREQ = 0,
	DAMON_LRU_COLD_MIN_AGE = 1,
	DAMON_LRU_QUOTA_MS = 2,
	DAMON_LRU_QUOTA_RESET_INTERVAL_MS = 3,
	DAMON_LRU_WMARKS_INTERVAL = 4,
	DAMON_LRU_WMARKS_HIGH = 5,
	DAMON_LRU_WMARKS_MID = 6,
	DAMON_LRU_WMARKS_LOW = 7,
	DAMON_LRU_SAMPLE_INTERVAL = 8,
	DAMON_LRU_AGGR_INTERVAL = 9,
	DAMON_LRU_MIN_NR_REGIONS = 10,
	DAMON_LRU_MAX_NR_REGIONS = 11,
	DAMON_LRU_MONITOR_REGION_START = 12,
	DAMON_LRU_MONITOR_REGION_END = 13,
	DAMON_LRU_NR_PARAMS
};

struct damon_lru_sort;

/**
 * damon_lru_sort_param_name() - the parameter's file name
 * ("hot_thres_access_freq", ...).
 * @p: the parameter
 *
 * Return: the name; NULL (errno EINVAL) if @p is not a parameter.
 */
DAMOS_API const char *damon_lru_sort_param_name(enum damon_lru_param p);

/**
 * damon_lru_sort_new() - the module's parameters at their kernel defaults
 * (50%, 120 s, 10 ms per 1 s, watermarks 5 s 200 150 50, 5 ms, 100 ms, 10
 * and 1000 regions, the biggest System RAM), disabled, no statistics, no
 * parameter marked as given.
 *
 * Return: the object (free with damon_lru_sort_free()), or NULL.
 */
DAMOS_API struct damon_lru_sort *damon_lru_sort_new(void);

/**
 * damon_lru_sort_free() - free @l; NULL is a no-op.
 * @l: damon_lru_sort's parameters
 */
DAMOS_API void damon_lru_sort_free(struct damon_lru_sort *l);

/**
 * damon_lru_sort_get() - parameter @p in the kernel's unit.
 * @l: damon_lru_sort's parameters
 * @p: the parameter
 *
 * Return: the value; 0 if @p is not a parameter.
 */
DAMOS_API uint64_t damon_lru_sort_get(const struct damon_lru_sort *l,
				      enum damon_lru_param p);

/**
 * damon_lru_sort_set() - set parameter @p (kernel unit) and mark it given.
 * Cross-parameter rules are checked by damon_lru_sort_validate().
 * @l: damon_lru_sort's parameters
 * @p: the parameter
 * @v: the value, in the kernel's unit
 *
 * Return: 0, -EINVAL (not a parameter) or -ERANGE.
 */
DAMOS_API int damon_lru_sort_set(struct damon_lru_sort *l,
				 enum damon_lru_param p, uint64_t v);

/**
 * damon_lru_sort_overlay() - copy into @dst the parameters given in @src
 * (by damon_lru_sort_set() or damon_lru_sort_parse()), marking them given
 * in @dst.  For "these changes over what the module holds".
 * @dst: the parameters to change
 * @src: the parameters given there
 */
DAMOS_API void damon_lru_sort_overlay(struct damon_lru_sort *dst,
				      const struct damon_lru_sort *src);

/**
 * damon_lru_sort_parse() - apply the keyword grammar of "damoctl lru-sort
 * set" to @l, in the units of schemes:
 * @l: damon_lru_sort's parameters
 * @argc: the number of words
 * @argv: the words
 *
 *   [hot RATE] [cold TIME] [quota [time MS] [reset MS]]
 *   [wmarks INTERVAL HIGH MID LOW] [sample TIME] [aggr TIME]
 *   [regions MIN MAX] [region START END]
 *
 * RATE and the watermarks are N% or a bare per-mille number (hot also min
 * and max); times take us ms s m h (bare: us, ms for quota); START and END
 * are 0xHEX or sizes.  A keyword may appear once; the parameters given are
 * marked given.  Cross-parameter rules are not checked here.
 *
 * Return: 0 or -EINVAL/-ERANGE with a message naming the keyword and value
 * (@l may then be partly changed).
 */
DAMOS_API int damon_lru_sort_parse(struct damon_lru_sort *l, int argc,
				   const char *const *argv);

/**
 * damon_lru_sort_keywords() - the keywords of damon_lru_sort_parse(),
 * NULL-terminated, for help and completion.
 *
 * Return: a static NULL-terminated array.
 */
DAMOS_API const char *const *damon_lru_sort_keywords(void);

/**
 * damon_lru_sort_validate() - the rules the kernel and the module need,
 * checked before anything is written: valid monitoring attributes (as
 * damon_attrs_validate()), hot threshold <= 100%, cold age < 2^32
 * aggregation intervals, quota time not 1 ms (halved to 0 = no quota),
 * watermarks <= 1000 and high >= mid >= low, region start < end (or 0 0).
 * @l: damon_lru_sort's parameters
 *
 * Return: 0 or -EINVAL with a message naming the values.
 */
DAMOS_API int damon_lru_sort_validate(const struct damon_lru_sort *l);

/**
 * damon_lru_sort_format() - print every parameter in the grammar of
 * damon_lru_sort_parse(), with units ("hot 50% cold 2m quota time 10ms
 * reset 1s wmarks 5s 20% 15% 5% sample 5ms aggr 100ms regions 10 1000
 * region 0x0 0x0"), like snprintf.
 * @l: damon_lru_sort's parameters
 * @buf: the buffer
 * @sz: the buffer's size
 *
 * Return: the length the full text needs, or -ENOMEM.
 */
DAMOS_API int damon_lru_sort_format(const struct damon_lru_sort *l,
				    char *buf, size_t sz);

/**
 * damon_lru_sort_enabled() - whether damon_lru_sort runs
 * @l: damon_lru_sort's parameters
 *
 * The state damon_lru_sort_read() read (damon_lru_sort_kdamond_pid()
 * too).
 *
 * Return: true if the module runs.
 */
DAMOS_API bool damon_lru_sort_enabled(const struct damon_lru_sort *l);
/**
 * damon_lru_sort_kdamond_pid() - the pid of damon_lru_sort's kdamond
 * @l: damon_lru_sort's parameters
 *
 * As damon_lru_sort_read() read it.
 *
 * Return: the pid, -1 when the module is off.
 */
DAMOS_API int damon_lru_sort_kdamond_pid(const struct damon_lru_sort *l);

/**
 * damon_lru_sort_scheme() - the scheme the module builds from @l for
 * action @a (DAMOS_ACTION_LRU_PRIO: hot regions, DAMOS_ACTION_LRU_DEPRIO:
 * cold ones), as the kernel computes it (thresholds truncated, half the
 * quota time each, weights 0 1 0, free_mem_rate watermarks), with the
 * module's statistics for it.
 * @l: damon_lru_sort's parameters
 * @a: the action
 *
 * Return: the scheme (free with damos_scheme_free()), or NULL (EINVAL).
 */
DAMOS_API struct damos_scheme *
damon_lru_sort_scheme(const struct damon_lru_sort *l, enum damos_action a);

/**
 * damon_lru_sort_read() - read the module's parameters, state and
 * statistics below @opts->root (only .root is used; NULL opts for "/").
 * @opts: where and how (root, interface, layers); NULL for the defaults
 * @out: where the parameters go
 *
 * Return: 0 with *@out (free with damon_lru_sort_free()), -ENOENT if the
 * kernel has no damon_lru_sort (message names the directory), or the errno
 * of a read.
 */
DAMOS_API int damon_lru_sort_read(const struct damon_opts *opts,
				  struct damon_lru_sort **out);

/**
 * damon_lru_sort_write() - make the module hold @l: validate @l first
 * (nothing is written if it fails), then write the parameters that differ
 * from what the module holds and
 *   @enable 1: write enabled=Y last, if the module is off;
 *   @enable 0: write enabled=N first, if it is on;
 *   any case:  if the module stays on and a parameter changed, write
 *              commit_inputs=Y (the module takes the inputs at its next
 *              aggregation; an input it finds invalid disables it).
 * Honours @opts->root and @opts->layers (no fake kernel: the module's
 * files are plain files anyway); with damos_layer_dry_run() *@script (if
 * @script is not NULL) gets the writes as a malloc()ed sh script body.
 * @opts: where and how (root, interface, layers); NULL for the defaults
 * @l: damon_lru_sort's parameters
 * @enable: 1 on, 0 off, -1 as it is
 * @script: where the dry run's script goes (may be NULL)
 *
 * Return: 0 or a negative errno with a message.
 */
DAMOS_API int damon_lru_sort_write(const struct damon_opts *opts,
				   const struct damon_lru_sort *l, int enable,
				   char **script);

/* ------------------------------------------------------------------------
 * DAMON's modules, one model for all: "lru_sort"
 * (damon_lru_sort) and "reclaim" (damon_reclaim), each a table of its
 * parameters (<root>/sys/module/<kernel name>/parameters, the names and
 * defaults of mm/damon/<module>.c), its keyword grammar in the units of
 * schemes, its statistics and the schemes it builds.  damon_lru_sort's
 * functions above are this model under their first names.  Parameters
 * are numbered in the module's table order; values are in the kernel's
 * units (a bool parameter is 0 or 1).
 */
struct damon_module;

/**
 * damon_module_names() - the names of the modules the library knows.
 *
 * Return: a static array: "lru_sort", "reclaim", then NULL.
 */
DAMOS_API const char *const *damon_module_names(void);

/**
 * damon_module_new() - module @name ("reclaim" or "damon_reclaim", ...)
 * with every parameter at the kernel's default, none marked given.
 * @name: the name
 *
 * Return: the object (free with damon_module_free()), or NULL with errno
 * ENOENT (no such module, message) or ENOMEM.
 */
DAMOS_API struct damon_module *damon_module_new(const char *name);
/**
 * damon_module_free() - free @m; NULL is a no-op
 * @m: the module
 *
 * See damon_module_new().
 */
DAMOS_API void damon_module_free(struct damon_module *m);
/**
 * damon_module_name() - the module's name in the library ("reclaim")
 * @m: the module
 *
 * Return: the name, static.
 */
DAMOS_API const char *damon_module_name(const struct damon_module *m);
/**
 * damon_module_kernel_name() - the module's kernel name ("damon_reclaim")
 * @m: the module
 *
 * The name of the kernel's module, as under /sys/module.
 *
 * Return: the name, static.
 */
DAMOS_API const char *damon_module_kernel_name(const struct damon_module *m);

/**
 * damon_module_nr_params() - the number of the module's parameters
 * @m: the module
 *
 * The parameters are numbered 0 .. this - 1 in the module's table order
 * (damon_module_param_name(), damon_module_param_index()).
 *
 * Return: the number of parameters.
 */
DAMOS_API size_t damon_module_nr_params(const struct damon_module *m);
/**
 * damon_module_param_name() - the file name of parameter @p
 * @m: the module
 * @p: the parameter's number
 *
 * The parameter's file name below the module's parameters directory.
 *
 * Return: the name, static; NULL (errno EINVAL) if there is no parameter @p.
 */
DAMOS_API const char *damon_module_param_name(const struct damon_module *m,
					      size_t p);
/**
 * damon_module_param_index() - the number of the parameter in @file
 * @m: the module
 * @file: the parameter's file name
 *
 * The number of a parameter by its file name.
 *
 * Return: the number, or -ENOENT with a message.
 */
DAMOS_API int damon_module_param_index(const struct damon_module *m,
				       const char *file);
/**
 * damon_module_param_present() - whether this kernel's module has parameter @p
 * @m: the module
 * @p: the parameter's number
 *
 * A parameter of a later kernel that damon_module_read() did not find is
 * not.
 *
 * Return: true if the parameter is there (or was not read); false if
 * damon_module_read() did not find it or there is no parameter @p.
 */
DAMOS_API bool damon_module_param_present(const struct damon_module *m,
					  size_t p);
/**
 * damon_module_get() - the value of parameter @p, in the kernel's unit
 * @m: the module
 * @p: the parameter's number
 *
 * As damon_module_read() read it or damon_module_set() set it.
 *
 * Return: the value; 0 if there is no parameter @p.
 */
DAMOS_API uint64_t damon_module_get(const struct damon_module *m, size_t p);
/**
 * damon_module_set() - set @p (kernel unit) and mark it given
 * @m: the module
 * @p: the parameter's number
 * @v: the value, in the kernel's unit
 *
 * Return: 0, -EINVAL (no parameter @p) or -ERANGE (not a value of its
 * type), with a message.
 */
DAMOS_API int damon_module_set(struct damon_module *m, size_t p, uint64_t v);
/**
 * damon_module_overlay() - the parameters given in @src into @dst
 * @dst: the module to change
 * @src: the module whose given parameters are copied
 */
DAMOS_API void damon_module_overlay(struct damon_module *dst,
				    const struct damon_module *src);

/**
 * damon_module_parse() - the module's keyword grammar (damoctl lru-sort
 * set, damoctl reclaim set) over @m: each value in the units of schemes,
 * the parameters it sets marked given.
 * @m: the module
 * @argc: the number of words
 * @argv: the words
 *
 * Return: 0, or -EINVAL / -ERANGE with a message naming the keyword and
 * the value.
 */
DAMOS_API int damon_module_parse(struct damon_module *m, int argc,
				 const char *const *argv);
/**
 * damon_module_keywords() - the keywords of the module's grammar
 * @m: the module
 *
 * Return: a static NULL-terminated array.
 */
DAMOS_API const char *const *damon_module_keywords(const struct damon_module *m);

/**
 * struct damon_module_kw - keyword i of a module's grammar
 * (damon_module_keyword())
 * @sz: sizeof(struct damon_module_kw), set by the caller
 * @kw: the keyword
 * @nr_values: how many values follow it, for the parameters from @first
 *	on; 0: sub-keywords
 * @first: the number of its first parameter
 * @nr_subs: the number of @subs
 * @subs: the sub-keywords, each with one value for its parameter
 * @sub_params: the parameter of each sub-keyword
 * @args: the words after it as a synopsis shows them
 * @help: one line of help
 */
struct damon_module_kw {
	size_t sz;
	const char *kw;
	int nr_values;
	size_t first;
	size_t nr_subs;
	const char *subs[8];
	size_t sub_params[8];
	const char *args, *help;
};
/**
 * damon_module_keyword() - keyword @i of the module's grammar
 * @m: the module
 * @i: the index
 * @out: the keyword, .sz set by the caller
 *
 * Return: 0, or -EINVAL past the last keyword or for a short @out->sz.
 */
DAMOS_API int damon_module_keyword(const struct damon_module *m, size_t i,
				   struct damon_module_kw *out);
/**
 * damon_module_keyword_format() - keyword @i's values in the grammar's
 * units ("time 10ms reset 1s"); "" for one this kernel does not have.
 * @m: the module
 * @i: the index
 * @buf: the buffer
 * @sz: the buffer's size
 *
 * Return: the length of the text (as snprintf(): it did not fit if
 * >= @sz), or a negative errno.
 */
DAMOS_API int damon_module_keyword_format(const struct damon_module *m,
					  size_t i, char *buf, size_t sz);
/**
 * damon_module_format() - every keyword with its values
 * @m: the module
 * @buf: the buffer
 * @sz: the buffer's size
 *
 * The keywords as damon_module_keyword_format() prints each.
 *
 * Return: the length of the text (as snprintf(): it did not fit if
 * >= @sz), or a negative errno.
 */
DAMOS_API int damon_module_format(const struct damon_module *m, char *buf,
				  size_t sz);
/**
 * damon_module_validate() - as damon_lru_sort_validate(), for any module
 * @m: the module
 *
 * Return: 0 or -EINVAL with a message naming the values.
 */
DAMOS_API int damon_module_validate(const struct damon_module *m);

/**
 * damon_module_enabled() - whether the module runs, as damon_module_read() read
 * @m: the module
 *
 * Return: true if the module runs.
 */
DAMOS_API bool damon_module_enabled(const struct damon_module *m);
/**
 * damon_module_kdamond_pid() - the pid of the module's kdamond
 * @m: the module
 *
 * Return: the pid, -1 when the module is off.
 */
DAMOS_API int damon_module_kdamond_pid(const struct damon_module *m);

/**
 * damon_module_nr_schemes() - the number of schemes the module builds
 * @m: the module
 *
 * The schemes the module builds from its parameters (reclaim: one
 * pageout; lru_sort: hot lru_prio, cold lru_deprio): damon_module_scheme().
 *
 * Return: the number of schemes.
 */
DAMOS_API size_t damon_module_nr_schemes(const struct damon_module *m);
/**
 * damon_module_scheme_label() - the label of scheme @i ("hot", "cold")
 * @m: the module
 * @i: the index
 *
 * See damon_module_nr_schemes().
 *
 * Return: the label, static; NULL if there is no scheme @i.
 */
DAMOS_API const char *damon_module_scheme_label(const struct damon_module *m,
						size_t i);
/**
 * damon_module_scheme() - scheme @i of those the module builds
 * @m: the module
 * @i: the index
 *
 * Built from the module's parameters, with the statistics
 * damon_module_read() read.
 *
 * Return: the scheme (free with damos_scheme_free()), or NULL with errno
 * EINVAL (no scheme @i, or a zero interval) or ENOMEM and a message.
 */
DAMOS_API struct damos_scheme *damon_module_scheme(const struct damon_module *m,
						   size_t i);

/**
 * damon_module_read() - module @name's parameters, state and statistics.
 * Return: 0 with *@out, -ENOENT if the kernel does not have the module
 * (the message names the directory), or the errno of a read.
 * @opts: where and how (root, interface, layers); NULL for the defaults
 * @name: the name
 * @out: where the module goes
 */
DAMOS_API int damon_module_read(const struct damon_opts *opts,
				const char *name, struct damon_module **out);

/**
 * damon_module_write() - make the module hold @m, as damon_lru_sort_write()
 * (@enable 1, 0, -1), as one transaction: if a write fails, the files are
 * put back as they were (-ENOTRECOVERABLE naming the files if that fails
 * too).  A parameter this kernel's module does not have, given or not at
 * its default, is -EOPNOTSUPP naming it and the kernel release, before
 * anything is written.
 * @opts: where and how (root, interface, layers); NULL for the defaults
 * @m: the module
 * @enable: 1 on, 0 off, -1 as it is
 * @script: where the dry run's script goes (may be NULL)
 *
 * Return: 0, -EOPNOTSUPP (a parameter this kernel lacks), -ENOTRECOVERABLE
 * (the files could not be put back) or another negative errno, with a
 * message.
 */
DAMOS_API int damon_module_write(const struct damon_opts *opts,
				 const struct damon_module *m, int enable,
				 char **script);

/**
 * damos_scheme_edit() - apply the keywords of damos_scheme_parse() (no
 * action first; "action NAME" instead) over @s, as "damoctl scheme set"
 * does: only the fields given change.  The first filter (goal) keyword
 * replaces the scheme's filters (goals); "filter none" ("goal none")
 * removes them.  Then the scheme is checked as a whole.  On an error @s
 * may be half changed: edit a copy (damos_scheme_dup()).
 * Return: 0, or -EINVAL with a message naming the keyword and the value.
 * @s: the scheme
 * @argc: the number of words
 * @argv: the words
 * @attrs: the attributes units convert with (NULL: the defaults)
 */
DAMOS_API int damos_scheme_edit(struct damos_scheme *s, int argc,
				const char *const *argv,
				const struct damon_attrs *attrs);

/**
 * damos_scheme_update() - replace scheme @idx of the context by @s, in
 * place: on a running sysfs kdamond through "commit", which keeps the
 * scheme's statistics (nr_tried goes on from where it was).  One
 * transaction.  dbgfs refuses while monitoring is on, naming the kernel.
 * Return: 0, -ENOENT (no scheme @idx), or an errno with a message.
 * @d: the handle
 * @idx: the index of the scheme
 * @s: the scheme
 */
DAMOS_API int damos_scheme_update(struct damon_ctx *d, size_t idx,
				  const struct damos_scheme *s);

/**
 * damos_goal_current_write() - set the current value of quota goal @goal
 * of scheme @idx, a user_input goal, to @v: the file alone, and on a
 * running kdamond "commit_schemes_quota_goals", so the kernel tunes the
 * effective quota with it.  One transaction.
 * @d: the handle
 * @idx: the index of the scheme
 * @goal: the index of the goal
 * @v: the value, in the kernel's unit
 *
 * Return: 0; -EOPNOTSUPP naming the kernel without quota goals (dbgfs,
 * sysfs before Linux 6.8); -EINVAL for a goal of another metric;
 * -ENOENT for no such scheme or goal; or another negative errno.
 */
DAMOS_API int damos_goal_current_write(struct damon_ctx *d, size_t idx,
				       size_t goal, uint64_t v);

#ifdef __cplusplus
}
#endif

#endif /* DAMOS_H */
