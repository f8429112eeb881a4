/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * libdamos: DAMON-based operation schemes (DAMOS) for user space.
 *
 * The whole DAMON setup below a root is one value (struct damon_setup):
 * read it from either of DAMON's kernel interfaces, edit it in memory,
 * apply it in one transaction.  Its parts are modelled here: schemes and
 * their quotas, watermarks, filters and goals, the monitoring attributes,
 * the targets, DAMON's modules; with human values ("4K", "120s", "50%")
 * turned into the kernel's units, and dbgfs' scheme lines encoded and
 * decoded.
 *
 *   dbgfs  <root>/sys/kernel/debug/damon/          one 18-number line a scheme
 *   sysfs  <root>/sys/kernel/mm/damon/admin/       one directory tree a scheme
 *
 * Names follow the kernel's (include/linux/damon.h): damon_* for what the
 * kernel calls so, damos_* for schemes and their parts and for what is the
 * library's own.  Every function, struct and enum has a kernel-doc comment
 * (tests/host/docs.bats checks them and libdamos(3) against this file).
 *
 * Conventions, for every function below unless it says otherwise: int
 * functions return 0 (or a documented non-negative value) or a negative
 * errno; pointer functions NULL with errno set.  A failure keeps a message
 * naming the field and the value at fault for the calling thread
 * (damos_errmsg()).  The library never prints, never exits, and never
 * clamps or truncates a value.  Whether dbgfs takes lru_prio/lru_deprio
 * (actions 6 and 7, added by the damos kernel series) is probed on a
 * private context of its own, never the user's: libdamos(3).
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

/**
 * damos_errmsg() - the message of the calling thread's last failure.
 *
 * Return: a string owned by the library, valid until the next libdamos call
 * in the same thread; "" if nothing has failed yet.
 */
DAMOS_API const char *damos_errmsg(void);

/**
 * damos_version() - the library version, "MAJOR.MINOR.PATCH".
 * Return: the version string, static.
 */
DAMOS_API const char *damos_version(void);

/* ------------------------------------------------------------------------
 * Actions: the library's own append-only values (not the kernel's enum,
 * whose order changed in 6.11); the sysfs string is the name, the dbgfs
 * numbers a stable mapping (0..5 as the kernel's, 6 and 7 from the damos
 * kernel series, none for sysfs-only actions).
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
 * damos_action_from_name() - look an action up by its exact name.
 * @name: the name
 *
 * Return: the enum damos_action value, or -EINVAL (message lists the names).
 */
DAMOS_API int damos_action_from_name(const char *name);

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
 * added.  The statistics (the comments say so) are read-only.
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
 * damos_field_name() - the field's identifier, as DESIGN.md and the JSON
 * output spell it ("min_sz", "quota_reset_interval_ms", "qt_exceeds", ...).
 * @f: the field
 *
 * Return: the name; NULL (errno EINVAL) if @f is not a field.
 */
DAMOS_API const char *damos_field_name(enum damos_field f);

/* ------------------------------------------------------------------------
 * Monitoring attributes (the five numbers of dbgfs "attrs").  Sized
 * structs, this one and struct damon_targets: a caller starts one from
 * DAMON_ATTRS_INIT (or .sz = sizeof); a .sz short of the 2.0 fields, or
 * set bytes past the fields known, is refused.  Fields are only appended.
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
 * Return: 0 or -EINVAL with a message naming the values in damoctl's words
 * ("aggr 1ms < sample 5ms").
 */
DAMOS_API int damon_attrs_validate(const struct damon_attrs *a);

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
 * as damos_dbgfs_decode() returns it.
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
 * library does not know (damos_scheme_format() shows the kernel's word).
 */
DAMOS_API enum damos_action damos_scheme_action(const struct damos_scheme *s);

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
 * keyword given, each value in the units of @attrs; then it checks
 * the scheme (a message such as "min age 10s > max age 5s" quotes the
 * values as the user wrote them).  A keyword may appear once.
 *
 * Return: the scheme, or NULL (errno EINVAL) with a message.
 */
DAMOS_API struct damos_scheme *damos_scheme_parse(int argc,
						  const char *const *argv,
						  const struct damon_attrs *attrs);

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

/*
 * struct damos_layer - one layer of a handle's I/O (opaque).  Every read
 * and write of a handle goes through the layers damon_opts.layers lists,
 * the first one on top, down to the files below the root; no other part
 * of the library knows which layers are there.
 */
struct damos_layer;

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
 *	for none (damoctl's test build has its own)
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
	int dbgfs_lru;		/* -1 probe, 0 no, 1 yes */
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
 * damos_has() - whether the handle's kernel has @f.
 * @d: the handle
 * @f: the feature
 *
 * Return: 1 yes, 0 no, -EINVAL (not a feature), -EAGAIN (not known: a dbgfs
 * lru probe that could not run).
 */
DAMOS_API int damos_has(struct damon_ctx *d, enum damos_feature f);

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

/* ------------------------------------------------------------------------
 * The text grammars of the model: the words of damoctl's commands (and of
 * damoctl.conf(5), which damoctl parses).
 */

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

/* ------------------------------------------------------------------------
 * DAMON's modules, one model for all: "lru_sort"
 * (damon_lru_sort) and "reclaim" (damon_reclaim), each a table of its
 * parameters (<root>/sys/module/<kernel name>/parameters, the names and
 * defaults of mm/damon/<module>.c), its keyword grammar in the units of
 * schemes, its statistics and the schemes it builds.  Parameters
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
 * damon_module_nr_params() - the number of the module's parameters
 * @m: the module
 *
 * The parameters are numbered 0 .. this - 1 in the module's table order
 * (damon_module_param_name()).
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
 * damon_module_read() - module @name's parameters, state and statistics.
 * Return: 0 with *@out, -ENOENT if the kernel does not have the module
 * (the message names the directory), or the errno of a read.
 * @opts: where and how (root, interface, layers); NULL for the defaults
 * @name: the name
 * @out: where the module goes
 */
DAMOS_API int damon_module_read(const struct damon_opts *opts,
				const char *name, struct damon_module **out);

/* ---- the whole setup: read, edit in memory, apply in one step ---- */

/**
 * struct damon_kdamond_setup - one kdamond (sysfs) or the dbgfs context
 * @on: monitoring runs
 * @attrs: the monitoring attributes
 * @targets: the targets (.nr 0: none)
 * @schemes: the schemes, owned by the setup
 * @nr_schemes: their number
 */
struct damon_kdamond_setup {
	bool on;
	struct damon_attrs attrs;
	struct damon_targets targets;
	struct damos_scheme **schemes;
	size_t nr_schemes;
};

/**
 * struct damon_module_setup - a DAMON module and whether it runs
 * @module: its parameters, owned by the setup
 * @enable: 1 on, 0 off; to apply, -1 as it is
 */
struct damon_module_setup {
	struct damon_module *module;
	int enable;
};

/**
 * struct damon_setup - everything DAMON holds below a root
 * @iface: the interface; DAMON_IFACE_AUTO: the kernel has none
 * @nr_kdamonds: sysfs: nr_kdamonds; dbgfs: 1, the context of the opts
 * @kdamonds: the kdamonds, malloc()ed
 * @nr_modules: the modules this kernel has
 * @modules: the modules, malloc()ed
 * @restart: to apply: a running dbgfs context is stopped for the writes
 *	and started again (else dbgfs refuses them: -EBUSY)
 *
 * Edit it in memory (realloc() the arrays, free what goes with the
 * library's free functions) and apply it whole.
 */
struct damon_setup {
	enum damon_iface iface;
	size_t nr_kdamonds;
	struct damon_kdamond_setup *kdamonds;
	size_t nr_modules;
	struct damon_module_setup *modules;
	bool restart;
};

/**
 * damon_setup_read() - read the whole setup below @opts' root
 * @opts: where and how (root, interface, dbgfs context, layers); NULL: defaults
 * @out: the setup (damon_setup_free())
 *
 * Return: 0, or a negative errno with a message.
 */
DAMOS_API int damon_setup_read(const struct damon_opts *opts,
			       struct damon_setup **out);

/**
 * damon_setup_apply() - make the kernel hold @want, as one transaction
 * @opts: as damon_setup_read()'s
 * @want: the setup wanted (a module absent from it is left as it is)
 * @plan: NULL to apply; else nothing is written and *@plan is the plan: a
 *	POSIX shell script of the writes, in order (free() it)
 *
 * Under the lock of the root (above; taken here for up to 30 s unless
 * this process holds it, a dead process's journal rolled back first), the
 * setup is read again and only what differs from @want is written (a
 * second apply writes nothing), in one order: modules that must go off;
 * running kdamonds that must stop (all if the count changes, then
 * nr_kdamonds); each kdamond's schemes that only the kernel can refuse,
 * attributes, targets, schemes; kdamonds started; modules' parameters and
 * enable.  A running sysfs kdamond takes its changes by commit.  Every
 * written part is read back before the commit point.  On any failure,
 * a signal (SIGINT, SIGTERM, SIGHUP are held while files are written) or
 * a crash (the journal), every file is put back as it was.
 *
 * Return: 0; -EINVAL (what @want changes is invalid: before any write), -EIO (read back
 * otherwise: another program that does not take the lock), -ETIMEDOUT
 * (the lock), -ENOTRECOVERABLE (the files could not be put back) or
 * another negative errno, with a message.
 */
DAMOS_API int damon_setup_apply(const struct damon_opts *opts,
				const struct damon_setup *want, char **plan);

/**
 * damon_setup_free() - free @s and everything it holds; NULL is a no-op
 * @s: the setup
 */
DAMOS_API void damon_setup_free(struct damon_setup *s);

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
