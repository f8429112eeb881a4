/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * libdamos' functions beyond its public API (damos.h), for damoctl and
 * damos' tests: linked from libdamos.a, hidden in libdamos.so, never
 * installed, no ABI.  They are the granular steps the setup model
 * (damon_setup_read(), damon_setup_apply()) is made of, and what damoctl
 * needs for its words (keyword tables, labels, help), its dry runs, its
 * lock and journal and its reports.  A C program outside damos uses
 * damos.h alone.
 */
#ifndef DAMOS_PRIVATE_H
#define DAMOS_PRIVATE_H

#include <stdio.h>

#include "damos.h"

#ifdef __cplusplus
extern "C" {
#endif

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
 * damos_action_desc() - a one-line description of the action, for help.
 * @a: the action
 *
 * Return: the description; NULL (errno EINVAL) if @a is not an action.
 */
const char *damos_action_desc(enum damos_action a);

/**
 * damos_field_label() - the field's name in messages ("min age", "quota
 * reset", ...).
 * @f: the field
 *
 * Return: the label; NULL (errno EINVAL) if @f is not a field.
 */
const char *damos_field_label(enum damos_field f);

/**
 * damos_field_sysfs_path() - the field's file relative to a sysfs scheme
 * directory ("access_pattern/age/min", "quotas/weights/sz_permil", ...).
 * @f: the field
 *
 * Return: the path; NULL (errno EINVAL) if @f is not a field.
 */
const char *damos_field_sysfs_path(enum damos_field f);

/**
 * damos_field_max() - the largest value the kernel stores in the field
 * (ULONG_MAX for unsigned long fields, UINT_MAX for unsigned int ones, the
 * last enum value for the action and the metric).
 * @f: the field
 *
 * Return: the bound; 0 if @f is not a field.
 */
uint64_t damos_field_max(enum damos_field f);

/**
 * damos_field_is_stat() - whether @f is a read-only value the kernel
 * reports (statistics), not one a scheme sets.
 * @f: the field
 *
 * Return: true for a statistic; false for an input field or for a value that
 * is not a field.
 */
bool damos_field_is_stat(enum damos_field f);

/**
 * damos_scheme_keyword() - fill @out with keyword @i (0, 1, ... in grammar
 * order).
 * @i: the index
 * @out: the keyword, .sz set by the caller
 *
 * Return: 0, or -EINVAL past the last keyword or for a short @out->sz.
 */
int damos_scheme_keyword(size_t i, struct damos_scheme_kw *out);

/**
 * damos_scheme_keywords() - the keywords damos_scheme_parse() knows, in
 * grammar order ("sz", "access", "age", "quota", "weights", "wmarks",
 * "nid", "apply_interval", "filter", "goal"), for help text and
 * completion.
 *
 * Return: a static NULL-terminated array.
 */
const char *const *damos_scheme_keywords(void);

/**
 * damos_scheme_quota_keywords() - the words after "quota" ("time",
 * "size", "reset"), for help text and completion.
 *
 * Return: a static NULL-terminated array.
 */
const char *const *damos_scheme_quota_keywords(void);

/**
 * damon_module_keyword() - keyword @i of the module's grammar
 * @m: the module
 * @i: the index
 * @out: the keyword, .sz set by the caller
 *
 * Return: 0, or -EINVAL past the last keyword or for a short @out->sz.
 */
int damon_module_keyword(const struct damon_module *m, size_t i,
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
int damon_module_keyword_format(const struct damon_module *m,
					  size_t i, char *buf, size_t sz);

/**
 * damon_module_keywords() - the keywords of the module's grammar
 * @m: the module
 *
 * Return: a static NULL-terminated array.
 */
const char *const *damon_module_keywords(const struct damon_module *m);

/**
 * damon_module_scheme_label() - the label of scheme @i ("hot", "cold")
 * @m: the module
 * @i: the index
 *
 * See damon_module_nr_schemes().
 *
 * Return: the label, static; NULL if there is no scheme @i.
 */
const char *damon_module_scheme_label(const struct damon_module *m,
						size_t i);

/**
 * damos_error_hint() - fill @out with the hint of the calling thread's
 * last failure (the one damos_errmsg() describes; it lives as long).
 * @out: the hint, .sz set by the caller
 *
 * Return: 0, or -EINVAL if @out is NULL or its .sz is too small.
 */
int damos_error_hint(struct damos_hint_info *out);

/**
 * damos_kernel_desc() - how the handle's kernel was identified, for
 * messages.
 * @d: the handle
 *
 * Return: the description ("sysfs, Linux 6.12 layout", "dbgfs"), owned by
 * the handle.
 */
const char *damos_kernel_desc(struct damon_ctx *d);

/**
 * damos_feature_name() - the name of a feature.
 * @f: the feature
 *
 * Return: "lru_actions", "migrate", ...; NULL (errno EINVAL) if @f is not a
 * feature.
 */
const char *damos_feature_name(enum damos_feature f);

/**
 * damos_detect() - which interfaces exist below @root (NULL for "/").
 * @root: the root directory ("" or NULL: /)
 *
 * Return: a mask of (1 << DAMON_IFACE_SYSFS) and (1 << DAMON_IFACE_DBGFS);
 * 0 if there is none.
 */
unsigned int damos_detect(const char *root);

/**
 * damon_iface_dir() - the directory of interface @i (not AUTO) below
 * @root (NULL for "/"), whether or not it exists.
 * @root: the root directory ("" or NULL: /)
 * @i: the interface
 *
 * Return: the path (free() it), or NULL with errno EINVAL (no such
 * interface) and a message, or ENOMEM.
 */
char *damon_iface_dir(const char *root, enum damon_iface i);

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
char *damon_module_dir(const char *root, const char *name);

/**
 * damon_get_dir() - the directory the handle works in: the dbgfs context
 * directory or the sysfs context directory (kdamonds/N/contexts/0).
 * @d: the handle
 *
 * Return: the path, owned by the handle.
 */
const char *damon_get_dir(const struct damon_ctx *d);

/**
 * damos_layer_dry_run() - the dry run: the handle's writes go to an
 * overlay in memory over the files below the root (kept for the process's
 * later dry runs, freed at exit).  Each write is recorded
 * (damos_dry_run_script()) and made in the overlay with what the kernel
 * would make (a sysfs nr_* write its numbered directories, from the
 * sysfs backend's own layout); reads see the overlay, then the files,
 * so that a later
 * read, in the same handle or a later one of the process, sees it as the
 * kernel would show it: a batch of dry-run commands writes the script its
 * commands write when run one after the other.  The real tree is never
 * written.  Put it on top.
 *
 * Return: the layer, static (for damon_opts.layers).
 */
const struct damos_layer *damos_layer_dry_run(void);

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
const char *damos_dry_run_script(struct damon_ctx *d);

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
int damos_lock_take(const char *root, bool exclusive,
			      uint64_t wait_us);

/**
 * damos_lock_release() - release what damos_lock_take() returned; a
 * negative @fd is a no-op.
 * @fd: the descriptor damos_lock_take() returned
 */
void damos_lock_release(int fd);

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
int damos_journal_recover(int lockfd, const struct damon_opts *opts,
				    uint64_t wait_us);

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
int damon_context_check(struct damon_ctx *d);

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
bool damon_targets_same(struct damon_ctx *d,
				  const struct damon_targets *shown,
				  const struct damon_targets *want);

/**
 * damon_targets_check() - whether the handle's interface takes @t:
 * damon_targets_validate(), then what it cannot express (dbgfs: fvaddr,
 * -EOPNOTSUPP with hint DAMOS_HINT_USE_SYSFS).  Writes nothing.
 * @d: the handle
 * @t: the targets
 *
 * Return: 0 or a negative errno with a message.
 */
int damon_targets_check(struct damon_ctx *d,
				  const struct damon_targets *t);

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
int damos_scheme_check(struct damon_ctx *d,
				 const struct damos_scheme *s);

/**
 * damos_dbgfs_lru_supported() - whether this dbgfs accepts lru_prio and
 * lru_deprio (see the top of this file for how it is found out).
 * @d: the handle
 *
 * Return: 1 yes, 0 no, -EAGAIN unknown (dry run, or the probe could not
 * run), -EOPNOTSUPP if the handle is not on dbgfs.
 */
int damos_dbgfs_lru_supported(struct damon_ctx *d);

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
int damon_attrs_parse(struct damon_attrs *a, int argc,
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
int damon_targets_parse(struct damon_targets *t, int argc,
				  const char *const *argv);

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
int damos_scheme_edit(struct damos_scheme *s, int argc,
				const char *const *argv,
				const struct damon_attrs *attrs);

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
int damos_iomem_ram(const char *root, struct damon_region **ranges,
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
int damos_node_ram(const char *root, int nid,
			     struct damon_region **ranges, size_t *nr);

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
int damon_access_snapshot(struct damon_ctx *d,
				    const struct damon_snapshot_opts *opts,
				    struct damos_tried_regions **out);

/**
 * damon_attrs_write() - set the context's monitoring attributes (validated
 * first; dbgfs refuses while monitoring is on; sysfs commits if on).
 * @d: the handle
 * @a: the monitoring attributes
 *
 * Return: 0, -EINVAL (invalid, named in the message), -EBUSY (dbgfs while
 * monitoring is on) or another negative errno with a message.
 */
int damon_attrs_write(struct damon_ctx *d, const struct damon_attrs *a);

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
int damon_targets_write(struct damon_ctx *d,
				  const struct damon_targets *t);

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
int damos_schemes_write(struct damon_ctx *d,
				  struct damos_scheme *const *s, size_t n);

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
 * keeps it off (naming it); or another negative errno,
 * with a message.
 */
int damon_monitor_start(struct damon_ctx *d);

/**
 * damon_monitor_stop() - turn monitoring off
 * @d: the handle
 *
 * See damon_monitor_start().
 *
 * Return: 0 (also when monitoring was off already), or a negative errno
 * with a message.
 */
int damon_monitor_stop(struct damon_ctx *d);

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
int damos_txn_begin(struct damon_ctx *d);

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
int damos_txn_end(struct damon_ctx *d, int err);

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
int damon_kdamonds_resize(struct damon_ctx *d, unsigned int nr);


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
int damon_module_write(const struct damon_opts *opts,
				 const struct damon_module *m, int enable,
				 char **script);

/**
 * damon_module_overlay() - the parameters given in @src into @dst
 * @dst: the module to change
 * @src: the module whose given parameters are copied
 */
void damon_module_overlay(struct damon_module *dst,
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
int damon_module_parse(struct damon_module *m, int argc,
				 const char *const *argv);

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
int damon_module_format(const struct damon_module *m, char *buf,
				  size_t sz);

/**
 * damon_module_param_index() - the number of the parameter in @file
 * @m: the module
 * @file: the parameter's file name
 *
 * The number of a parameter by its file name.
 *
 * Return: the number, or -ENOENT with a message.
 */
int damon_module_param_index(const struct damon_module *m,
				       const char *file);

/**
 * damon_module_kernel_name() - the module's kernel name ("damon_reclaim")
 * @m: the module
 *
 * The name of the kernel's module, as under /sys/module.
 *
 * Return: the name, static.
 */
const char *damon_module_kernel_name(const struct damon_module *m);

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
int damos_scheme_set_str(struct damos_scheme *s, enum damos_field f,
				   const char *value,
				   const struct damon_attrs *attrs);

/**
 * damon_attrs_set_str() - set one attribute from a human value.
 * @a: the monitoring attributes
 * @key: "sample", "aggr" or "update" (times: us ms s m h, bare = us) or
 *	 "min_regions"/"max_regions" (bare counts)
 * @value: the value as text
 *
 * Return: 0, or -EINVAL with a message naming @key and @value.
 */
int damon_attrs_set_str(struct damon_attrs *a, const char *key,
				  const char *value);
/**
 * damos_action_dbgfs_nr() - the number that stands for @a in a dbgfs line.
 * @a: the action
 *
 * Return: 0..7, -EINVAL if @a is not an action, -EOPNOTSUPP if dbgfs has
 * no number for it (migrate_hot, migrate_cold).
 */
int damos_action_dbgfs_nr(enum damos_action a);

/**
 * damos_action_from_dbgfs() - the action a dbgfs action number stands for.
 * @nr: the number
 *
 * Return: the enum damos_action value, or -EINVAL for an unknown number.
 */
int damos_action_from_dbgfs(long nr);

/**
 * damos_scheme_action_name() - the scheme's action as the kernel calls it:
 * the name of a known action, or the word the kernel showed for one this
 * library does not know (kept, and written back as it was).
 * @s: the scheme
 *
 * Return: the name or the kernel's word, owned by the scheme.
 */
const char *damos_scheme_action_name(const struct damos_scheme *s);

/**
 * damon_module_kdamond_pid() - the pid of the module's kdamond
 * @m: the module
 *
 * Return: the pid, -1 when the module is off.
 */
int damon_module_kdamond_pid(const struct damon_module *m);

/**
 * damon_module_nr_schemes() - the number of schemes the module builds
 * @m: the module
 *
 * The schemes the module builds from its parameters (reclaim: one
 * pageout; lru_sort: hot lru_prio, cold lru_deprio): damon_module_scheme().
 *
 * Return: the number of schemes.
 */
size_t damon_module_nr_schemes(const struct damon_module *m);

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
struct damos_scheme *damon_module_scheme(const struct damon_module *m,
						   size_t i);

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
bool damon_module_param_present(const struct damon_module *m,
					  size_t p);

/**
 * damon_attrs_max_nr_accesses() - aggr_us / sample_us, the largest number
 * of accesses one aggregation interval can count (the kernel's own formula).
 * @a: the monitoring attributes
 *
 * Return: the number, or 0 if @a has no sampling interval or a bad .sz.
 */
uint64_t damon_attrs_max_nr_accesses(const struct damon_attrs *a);

/**
 * damon_attrs_read() - the context's monitoring attributes.  If the tree
 * has no attributes file (a minimal fake tree), the kernel's defaults.
 * @d: the handle
 * @a: the monitoring attributes
 *
 * Return: 0 with *@a filled, or a negative errno with a message.
 */
int damon_attrs_read(struct damon_ctx *d, struct damon_attrs *a);

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
int damon_targets_read(struct damon_ctx *d, struct damon_targets *t);

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
int damos_schemes_read(struct damon_ctx *d, struct damos_scheme ***out,
				 size_t *n);

/**
 * damon_monitor_status() - whether monitoring runs, and the kdamond's pid
 * (-1 when off or unknown).  Either pointer may be NULL.
 * @d: the handle
 * @on: where whether it runs goes
 * @pid: where the kdamond's pid goes
 *
 * Return: 0 or a negative errno with a message.
 */
int damon_monitor_status(struct damon_ctx *d, bool *on, int *pid);

/**
 * damon_kdamonds_count() - how many kdamonds the interface has: sysfs's
 * nr_kdamonds; 1 on dbgfs.
 * @d: any handle of the interface
 * @nr: where the count goes
 *
 * Return: 0 or a negative errno with a message.
 */
int damon_kdamonds_count(struct damon_ctx *d, unsigned int *nr);

#ifdef __cplusplus
}
#endif

#endif /* DAMOS_PRIVATE_H */
