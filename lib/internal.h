/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* libdamos private declarations: not installed, not exported. */
#ifndef DAMOS_INTERNAL_H
#define DAMOS_INTERNAL_H

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>

#include "damos-private.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define container_of(p, type, member) \
	((type *)((char *)(p) - offsetof(type, member)))
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
	U_NID,		/* a NUMA node, or "none" (DAMOS_NID_NONE) */
};

struct damos_field_info {
	const char *name;
	const char *label;
	const char *sysfs;
	uint64_t max;
	enum damos_unit unit;
	uint64_t def;			/* a new scheme's value */
	int feature;			/* enum damos_feature it needs, or -1 */
};

extern const struct damos_field_info damos_fields[DAMOS_NR_FIELDS];

/* The fields of a dbgfs line: DAMOS_F_MIN_SZ .. DAMOS_F_WMARKS_LOW. */
#define DBGFS_NR_INPUTS		18
#define DBGFS_NR_FIELDS		23

struct damos_action_info {
	const char *name;		/* also the sysfs string */
	int dbgfs;			/* -1: no dbgfs number */
	int feature;			/* enum damos_feature it needs, or -1 */
	bool paddr, vaddr;		/* operations that apply it (6.1/6.12) */
	const char *desc;
};
extern const struct damos_action_info damos_actions[DAMOS_NR_ACTIONS];

struct damos_filter_type_info {
	const char *name;
	int feature;
	const char *args;		/* grammar after the type */
};
extern const struct damos_filter_type_info damos_filter_types[DAMOS_NR_FILTER_TYPES];
extern const char *const damos_goal_metrics[DAMOS_NR_GOAL_METRICS];

struct damos_feature_info {
	const char *name;
	const char *what;		/* for messages */
	int since_major, since_minor;	/* sysfs: the Linux release */
	const char *sysfs_probe;	/* a file of a scheme dir, or NULL */
};
extern const struct damos_feature_info damos_features[DAMOS_NR_FEATURES];

/* One file of a directory tree: its path below the tree and content. */
struct damos_snap_file {
	char *rel;
	char *content;		/* as read, trailing newline included */
	bool writable;
};

struct damos_snap {
	size_t n;
	struct damos_snap_file *f;
	size_t nr_busy;		/* files left out: they read EBUSY */
};

void damos_snap_free(struct damos_snap *sn);
/* the files of @sn, not @sn itself, which is left empty */
void damos_snap_free_files(struct damos_snap *sn);
/* snap.c: one more file (@rel and @content are @sn's now, also on failure) */
int damos_snap_add(struct damos_snap *sn, char *rel, char *content,
		   bool writable);
const char *damos_snap_get(const struct damos_snap *sn, const char *rel);

struct damos_filter_v {
	int type;			/* enum damos_filter_type */
	char *word;			/* the kernel's word (always set) */
	bool matching;
	char *memcg_path;
	uint64_t addr_start, addr_end;
	int target_idx;
};

struct damos_goal_v {
	int metric;
	char *word;
	uint64_t target, current;
};

struct damos_tried_regions {
	size_t nr;
	struct damos_tried_region *r;	/* .sz of this library */
	uint64_t total_bytes;
	bool has_total;			/* the kernel's total_bytes */
};

struct damos_scheme {
	uint64_t v[DAMOS_NR_FIELDS];
	char *action_word;		/* DAMOS_ACTION_UNKNOWN: the kernel's */
	size_t nr_filters;
	struct damos_filter_v *filters;
	size_t nr_goals;
	struct damos_goal_v *goals;
	/*
	 * Read from sysfs: every file of its directory as it was, so that a
	 * rewrite puts back what the library does not model; NULL otherwise.
	 */
	struct damos_snap *raw;
	bool filters_read, goals_read;	/* the kernel had those directories */
	bool kernel;			/* read from the kernel */
	bool dirty;			/* changed since */
};

int damos_scheme_copy_lists(struct damos_scheme *dst,
			    const struct damos_scheme *src);
void damos_scheme_clear_lists(struct damos_scheme *s);
int damos_filter_v_add(struct damos_scheme *s, int type, const char *word,
		       bool matching, const char *memcg, uint64_t start,
		       uint64_t end, int idx);
int damos_goal_v_add(struct damos_scheme *s, int metric, const char *word,
		     uint64_t target, uint64_t current);
/* scheme.c: validate what a caller wrote, not what the kernel holds */
int damos_scheme_check_input(const struct damos_scheme *s);
/* codec.c: damos_dbgfs_encode(), !@strict for schemes read and kept */
char *damos_dbgfs_encode_kept(struct damos_scheme *const *s, size_t n,
			      bool strict);
/* -EOPNOTSUPP with a message if @s needs a feature @d lacks; @idx
 * (SIZE_MAX: none) names the scheme in it */
int damos_scheme_features(struct damon_ctx *d, const struct damos_scheme *s,
			  size_t idx);
/* The kernel's page size, for every file that needs it. */
uint64_t damos_page_size(void);

/* error.c: every failure goes through these; they return @err. */
int damos_err(int err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int damos_err_prefix(int err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void *damos_err_null(int err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * A failure with a hint (damos_error_hint()): DAMOS_HINT_AT in @fmt marks
 * where a client's advice fits (else the end).  The library's words name
 * no program's options: damoctl's advice is damoctl's (cli/messages.c).
 */
#define DAMOS_HINT_AT "\x1f"
int damos_err_hint(int err, enum damos_hint hint, int64_t arg,
		   const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* scheme.c: attribute @i (0..4) in the order of a dbgfs attrs line */
const uint64_t *damon_attrs_field(const struct damon_attrs *a, size_t i);
/* scheme.c, damos.c: a caller's struct's .sz; -EINVAL with a message */
int damon_attrs_check(const struct damon_attrs *a);
int damon_targets_check_sz(const struct damon_targets *t);
/* damos.c: append a target of @pid, no regions, to @t (grammar, dbgfs) */
int damos_targets_add(struct damon_targets *t, int pid);
/* damos.c: append the region [@start, @end) to @t (grammar, dbgfs) */
int damos_target_region_add(struct damon_target *t, uint64_t start,
			    uint64_t end);
/* error.c: .sz of a caller's struct; -EINVAL with a message */
int damos_sz_check(const void *p, size_t sz, size_t known, size_t min,
		   const char *name);

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
/* error.c: @s as one sh word (quoted if it must be). */
void damos_quote(struct damos_buf *b, const char *s);
/*
 * "a b c" into @buf: the @n names from @first on, each @stride bytes
 * after the one before (an array of names, or a table's .name); for the
 * lists that messages give, from the table they come from.
 */
const char *damos_join_names(char *buf, size_t sz, const char *const *first,
			     size_t n, size_t stride);
void damos_quote_n(struct damos_buf *b, const char *s, size_t len);

/* damos.c, io.c, dbgfs.c, sysfs.c: the handle and its backends. */
struct damos_backend;

struct damon_ctx {
	enum damon_iface iface;
	const struct damos_backend *ops;
	struct damos_io *io;	/* the top of its I/O stack (lib/stack.c) */
	char *root;		/* "" for "/", else without trailing '/' */
	char *dbgfs;		/* <root>/sys/kernel/debug/damon */
	char *admin;		/* <root>/sys/kernel/mm/damon/admin */
	char *kdamond;		/* sysfs: <admin>/kdamonds/<N> */
	char *dir;		/* the context directory */
	char *top;		/* the interface's directory (admin, dbgfs) */
	int kdamond_idx;
	int max_action;		/* dbgfs: highest action nr accepted, -1 unknown */
	bool feat_probed;
	unsigned int feat;	/* 1 << enum damos_feature */
	char kdesc[64];		/* damos_kernel_desc() */
	int refs;		/* holders besides the caller (a transaction) */
};

/*
 * One DAMON interface: all that differs between them is here and in the
 * backend's file (lib/sysfs.c, lib/dbgfs.c); lib/damos.c only picks one.
 */
struct damos_io;

struct damos_backend {
	enum damon_iface iface;
	const char *top;	/* its directory below the root */
	long fs_magic;		/* the filesystem the real one is on */
	/* whether @o sets an option of this interface; its words in @buf */
	bool (*claims)(const struct damon_opts *o, char *buf, size_t sz);
	/* d->dir (and the backend's own paths) for @o */
	int (*open)(struct damon_ctx *d, const struct damon_opts *o);
	/* optional: feature @f, when the bits do not tell (-EAGAIN unknown) */
	int (*has)(struct damon_ctx *d, int f, bool probe);
	/* optional: scheme @idx's tried regions (damos_tried_regions_read()) */
	int (*tried_regions)(struct damon_ctx *d, size_t idx,
			     struct damos_tried_regions *r);
	/* optional: what the interface cannot take (damos_*_check()) */
	int (*scheme_check)(struct damon_ctx *d, const struct damos_scheme *s);
	int (*targets_check)(struct damon_ctx *d, const struct damon_targets *t);
	/* optional: the refusal of a missing feature, in this backend's words */
	int (*feature_err)(struct damon_ctx *d, int f, const char *what);
	const char *user;	/* its monitoring, in messages */
	bool exclusive;		/* Linux 6.1: starts only when nothing else runs */
	/* -EBUSY with a message if it monitors now, in the way of @self */
	int (*in_use)(struct damon_ctx *d, const char *self);
	int (*schemes_read)(struct damon_ctx *d, struct damos_scheme ***out,
			    size_t *n);
	/* optional: the kernel refreshes the schemes' statistics files */
	int (*stats_update)(struct damon_ctx *d);
	int (*schemes_write)(struct damon_ctx *d, struct damos_scheme *const *s,
			     size_t n);
	int (*attrs_read)(struct damon_ctx *d, struct damon_attrs *a);
	int (*attrs_write)(struct damon_ctx *d, const struct damon_attrs *a);
	int (*targets_read)(struct damon_ctx *d, struct damon_targets *t);
	int (*targets_write)(struct damon_ctx *d, const struct damon_targets *t);
	int (*status)(struct damon_ctx *d, bool *on, int *pid);
	int (*turn)(struct damon_ctx *d, bool on);
	void (*probe)(struct damon_ctx *d);	/* sets feat and kdesc */
	/*
	 * optional: quota goal @goal of scheme @idx gets current value @v,
	 * and a running kdamond takes it (sysfs: commit_schemes_quota_goals)
	 */
	int (*goal_current)(struct damon_ctx *d, size_t idx, size_t goal,
			    uint64_t v);
	/*
	 * What the kernel does on a write of @content to @path, done through
	 * @files on plain files (the dry run's overlay, a test build's fake
	 * tree): the write, and the files and directories it makes or
	 * removes.  From the backend's own tables, not a second model.
	 */
	int (*model_write)(struct damon_ctx *d, struct damos_io *files,
			   const char *path, const char *content,
			   unsigned int flags);
	/* optional: damon_context_check() */
	int (*context_check)(struct damon_ctx *d);
	/* the kernel may show a target's regions as none (damon_targets_same()) */
	bool regions_lossy;
};

extern const struct damos_backend damos_dbgfs_backend;
extern const struct damos_backend damos_sysfs_backend;

/* sysfs_model.c: the context's attrs files, in struct damon_attrs' order */
#define DAMOS_SYSFS_NR_ATTR_FILES	5
extern const char *const damos_sysfs_attr_files[DAMOS_SYSFS_NR_ATTR_FILES];
int damos_sysfs_model_write(struct damon_ctx *d, struct damos_io *files,
			    const char *path, const char *content,
			    unsigned int flags);
/* stack.c: @d's backend's model_write, else the write alone */
int damos_io_model_write(struct damon_ctx *d, struct damos_io *files,
			 const char *path, const char *content,
			 unsigned int flags);

char *damos_path(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* damos.c: @root ("" or NULL: "/") without its trailing '/' ("/" is ""); NULL */
char *damos_root_norm(const char *root);
/* whether @path is there, as @d's I/O stack shows it (NULL @d: the files) */
bool damos_exists(struct damon_ctx *d, const char *path);

/*
 * The I/O stack (lib/stack.c).  Every read and write of a handle goes to
 * the top layer of its stack, which does its part and passes the call to
 * the layer below (a NULL op passes it on by itself).  At the bottom is the
 * filesystem (lib/io.c); above it, stacked by damos_io_open(): the dry
 * run (lib/dry.c: writes recorded as a script and made in an overlay in memory,
 * with what the kernel would make there: the backend's model_write) and
 * the layers of test builds (tests/layers/: the fake kernel of fake trees,
 * faults, races).  The code
 * above the stack (damos.c, the backends, txn.c) never knows which layers
 * are there: it asks the stack (damos_io_query()).
 */
struct damos_io;

/* flags of a write */
#define DAMOS_IO_CREATE		1	/* make the file if missing */
#define DAMOS_IO_UPDATE	2	/* asks the kernel to update what it
					 * shows (sysfs "update_*" commands):
					 * no change of the user's settings */

/* one name of a directory (damos_io_list()) */
struct damos_io_ent {
	char *name;
	bool dir, reg, writable;
};

/* what the stack is asked: each answer is 0/1, or as said */
enum damos_io_q {
	DAMOS_IO_Q_RECORDED,	/* writes are recorded, not made on a kernel:
				 * nothing to probe, undo or update */
	DAMOS_IO_Q_STATIC,	/* the files change only when written */
	DAMOS_IO_Q_EXACT,	/* a file reads back the bytes written */
	DAMOS_IO_Q_MAX_ACTION,	/* dbgfs: the highest action number the
				 * kernel takes; -EAGAIN unknown, -EINVAL
				 * with a message */
};

enum damos_io_ev {
	DAMOS_IO_EV_CHANGED,	/* a change of the handle's files is done */
				/* (a library call's transaction ended) */
};

struct damos_io_ops {
	const char *name;
	int (*read)(struct damos_io *io, const char *path, char **out);
	int (*write)(struct damos_io *io, const char *path,
		     const char *content, unsigned int flags);
	int (*list)(struct damos_io *io, const char *dir,
		    struct damos_io_ent **ents, size_t *n);
	int (*mkdir)(struct damos_io *io, const char *path); /* and parents */
	int (*remove)(struct damos_io *io, const char *path); /* rm -r */
	int (*exists)(struct damos_io *io, const char *path); /* 1 or 0 */
	/* -ENOTTY: not this layer's to answer */
	int (*query)(struct damos_io *io, enum damos_io_q q);
	void (*event)(struct damos_io *io, enum damos_io_ev ev);
	/* the script of writes recorded so far, or NULL */
	const char *(*script)(struct damos_io *io);
	void (*free)(struct damos_io *io);
};

struct damos_io {
	const struct damos_io_ops *ops;
	struct damos_io *below;
	struct damon_ctx *d;
};

/*
 * The layers: each takes the stack below and returns the new top (NULL
 * with a message).
 */
struct damos_io *damos_io_real(struct damon_ctx *d);
struct damos_io *damos_io_dry(struct damon_ctx *d, struct damos_io *below);
/* dry.c: the dry run's overlay emptied (a plan of damon_setup_apply() ends) */
void damos_dry_forget(void);

/*
 * What damon_opts.layers lists (damos.h): a layer's name and how it is
 * stacked; @fs_magic is the filesystem of the interface's files on a
 * kernel (0: the files are plain ones anyway).  Test builds add their own
 * (tests/layers/).
 */
struct damos_layer {
	const char *name;
	struct damos_io *(*push)(struct damon_ctx *d, struct damos_io *below,
				 long fs_magic);
};

/*
 * stack.c: stack @o's layers (NULL: none) over the files of @d
 * (damon_open(), and lru_sort.c's handles with @fs_magic 0).
 */
int damos_io_open(struct damon_ctx *d, const struct damon_opts *o,
		  long fs_magic);
void damos_io_close(struct damon_ctx *d);
/* the ops of @io or the first layer below it that has one */
int damos_io_read(struct damos_io *io, const char *path, char **out);
int damos_io_write(struct damos_io *io, const char *path, const char *content,
		   unsigned int flags);
int damos_io_list(struct damos_io *io, const char *dir,
		  struct damos_io_ent **ents, size_t *n);
bool damos_io_exists(struct damos_io *io, const char *path);
/* io.c */
void damos_io_ents_free(struct damos_io_ent *ents, size_t n);
int damos_io_mkdir(struct damos_io *io, const char *path);
/*
 * mkdir (0700) or rmdir of @path itself, beneath @d's root as every file
 * of the handle: a symlink in a fake tree leads it nowhere out (EXDEV).
 * Not a layer's: for what the library makes for itself (a tracing instance).
 */
int damos_dir_below(const struct damon_ctx *d, const char *path, bool make);
int damos_io_remove(struct damos_io *io, const char *path);
int damos_io_ask(struct damos_io *io, enum damos_io_q q);
/* the same, from the top of @d's stack */
int damos_io_query(struct damon_ctx *d, enum damos_io_q q);
void damos_io_event(struct damon_ctx *d, enum damos_io_ev ev);

int damos_read(struct damon_ctx *d, const char *path, char **out);
int damos_list(struct damon_ctx *d, const char *dir, struct damos_io_ent **ents,
	       size_t *n);
/* sysfs.c: the lowest kdamond below @d's root that is on, its state file in @state (or NULL); -1 */
int damos_sysfs_kdamond_on(struct damon_ctx *d, char **state);
int damos_read_u64(struct damon_ctx *d, const char *path, uint64_t *v);
int damos_read_word(struct damon_ctx *d, const char *path, char *buf, size_t sz);
int damos_write(struct damon_ctx *d, const char *path, const char *content);
int damos_write_u64(struct damon_ctx *d, const char *path, uint64_t v);
/* A write with DAMOS_IO_UPDATE. */
int damos_write_update(struct damon_ctx *d, const char *path,
			const char *content);
void damos_features_probe(struct damon_ctx *d);
/* damos_has() without the check of @f; @probe: may write to find out */
int damos_has_now(struct damon_ctx *d, int f, bool probe);
/* damos.c: @in (NULL: defaults) into @o; -EINVAL for unknown set bytes */
int damon_opts_get(const struct damon_opts *in, struct damon_opts *o);
/* A message naming feature @f and the handle's kernel; -EOPNOTSUPP. */
int damos_feature_err(struct damon_ctx *d, int f, const char *what);
/* snap.c: every file below @dir (skipping stats/ and tried_regions/). */
int damos_snap_read(struct damon_ctx *d, const char *dir, struct damos_snap *sn);
/* the same through @io and the layers below it */
int damos_snap_read_io(struct damos_io *io, const char *dir,
		       struct damos_snap *sn);
/* snap.c: @s ends with the path components @suffix */
bool damos_ends_with(const char *s, const char *suffix);
/* snap.c: write back the writable files of @sn below @dir, nr_* first. */
int damos_snap_restore(struct damon_ctx *d, const char *dir,
		       const struct damos_snap *sn);

/*
 * damos.c: -EBUSY with a message if another DAMON user keeps @self (an
 * interface's monitoring) or, @self NULL, the module @name off; the
 * modules named in @off (NULL-ended, or NULL) go off first: none of them.
 */
int damos_other_user(struct damon_ctx *d, const struct damos_backend *self,
		     const char *name, const char *const *off);
/* damos.c: damon_lru_sort or damon_reclaim runs below @d's root */
bool damos_module_on(struct damon_ctx *d);
/* -errno with a message unless every existing file @rel of d->dir is writable */
int damos_check_writable(struct damon_ctx *d, const char *const *rel);
/* Whether @path holds @want. */
bool damos_word_is(struct damon_ctx *d, const char *path, const char *want);

/*
 * txn.c: transactions (damos_txn_begin()).  damos_write() tells each
 * successful write, for the check before a commit; a sysfs backend asks
 * whether "commit" waits for the end of the transaction (true: it does,
 * and is written there once the staged files read back as written).
 */
void damos_txn_note_write(struct damon_ctx *d, const char *path,
			  const char *content);
/* before a write: a file the snapshot could not read then is read now */
void damos_txn_before_write(struct damon_ctx *d, const char *path);
bool damos_txn_defer_commit(struct damon_ctx *d, const char *state_path);
/*
 * sysfs_commit.c: before a running kdamond's "commit" (its state file
 * @state_path), what the kernel refuses only when it applies the files
 * (0, or -EINVAL naming the file and value); after it, whether the kernel
 * stopped the kdamond instead (a refused commit does, silently).
 */
int damos_sysfs_commit_check(struct damon_ctx *d, const char *state_path);
bool damos_sysfs_commit_stopped(struct damon_ctx *d, const char *state_path);
/* setup.c: the handle @d made kdamond @idx's (sysfs; dbgfs: no-op) */
int damos_kdamond_select(struct damon_ctx *d, unsigned int idx);
/* The public mutators run @op(@d, @arg) as one transaction. */
#define DAMOS_TXN(d, call) \
	({ int _e = damos_txn_begin(d); \
	   _e ? _e : damos_txn_end((d), (call)); })


/*
 * lock.c: <root>/run/damos, the lock's directory and the journal's;
 * flock(@fd, @op) for up to @wait_us (0, -ETIMEDOUT naming the holders).
 */
char *damos_lock_path(const char *root);
/* whether this process holds the lock of @root (its transactions journal) */
bool damos_lock_held(const char *root);
int damos_lock_wait(int fd, int op, uint64_t wait_us, const char *dir);

/* journal.c: the durable journal of a transaction (see the file). */
struct damos_journal_dir {
	const char *kind;		/* "sysfs", "dbgfs" or "module" */
	const char *dir;
	const struct damos_snap *snap;
};
int damos_journal_save(const char *root, const struct damos_journal_dir *dirs,
		       size_t n);
void damos_journal_remove(const char *root);
struct damos_journal {
	int pid;
	char *cmd;
	size_t n;
	struct {
		char *kind, *dir;
		struct damos_snap snap;
	} *d;
};
/* 0, -ENOENT if there is none, or an error with a message */
int damos_journal_read(const char *root, struct damos_journal *j);
void damos_journal_free(struct damos_journal *j);
/* damos.c: a handle on directory @top of kind @kind, for a restore */
struct damon_ctx *damos_open_dir(const struct damon_opts *o, const char *kind,
				 const char *top);

#endif /* DAMOS_INTERNAL_H */
