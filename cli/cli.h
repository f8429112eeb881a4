/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * damoctl internals shared by the per-object files, the dispatcher, the
 * interactive shell and batch mode.
 *
 * Entry points for a front end (argv, -f FILE, the readline shell):
 *   cli_init() / cli_fini()      the session: global options, JSON state
 *   cli_parse_globals()          --root, --interface, ... (argv only)
 *   cli_words_split()            one input line -> argv (conf.h)
 *   cli_run()                    run "OBJECT COMMAND ARGS"; returns an exit
 *                                status (0 ok, 1 failure, 2 usage), never
 *                                exits, prints its own errors
 *   cli_objects[]                every object and its command table, for
 *                                help and completion; cli_complete_words()
 *                                lists the words valid after a prefix
 */
#ifndef DAMOCTL_CLI_H
#define DAMOCTL_CLI_H

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>

#include <json-c/json.h>

#include "conf.h"
#include "damos-private.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* EXIT_RESTORE: a write failed and the files could not be put back */
enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2, EXIT_RESTORE = 3 };

struct cli {
	/* global options */
	const char *root;
	char *root_abs;			/* a relative --root made absolute */
	enum damon_iface iface;
	bool dry_run;
	bool json;
	int kdamond;
	bool kdamond_all;		/* --kdamond all (CLI_ALL_KDAMONDS) */
	bool kdamond_given;		/* --kdamond N or all was given */
	const char *dbgfs_ctx;
	uint64_t wait_us;		/* --wait: for the lock (cli/lock.c) */
	/* the lock (cli/lock.c): held by a command, or a batch for all */
	int lock_fd;			/* -1: not held */
	bool hold_signals;		/* the command's: hold them while writing */
	bool holding;			/* SIGINT, SIGTERM, SIGHUP blocked */
	sigset_t sigmask;		/* the mask before */
	int signalled;			/* a held signal came: stop, exit 128 + it */
	bool batch_locked;		/* a batch holds it for all its lines */
	bool lock_paused;		/* a reader let writers in (cli_lock_pause()) */
	/* per command */
	const char *object;
	const char *command;
	char line[256];			/* the command, for dry-run comments */
	bool script_started;
	bool writing;			/* the command writes (CLI_WRITE) */
	/* --json: one document a command (cli/json.c) */
	bool capture;			/* collecting this command's output */
	char **json_errs, **json_notes;
	size_t nr_errs, nr_notes;
	char *json_script;
	FILE *out;
	FILE *err;
	/* front ends (cli/shell.c, cli/batch.c) */
	const char *batch;		/* -f FILE, "-" for stdin */
	bool force;			/* --force: a batch goes on after failures */
	const char *where;		/* "FILE:LINE" prefixed to errors, or NULL */
	/*
	 * A batch without --force edits one setup and applies it once
	 * (cli/setup.c): the edits of its CLI_EDIT lines in a row, applied
	 * before any other line runs and at its end.
	 */
	bool batch_edits;
	struct damon_setup *edits;	/* read at the first edit, or NULL */
	char edits_where[600];		/* FILE:FIRST, the first edit line's */
	char edits_last[32];		/* the last one's LINE */
	char edits_line[256];		/* their commands, for dry-run comments */
	char edits_what[32];		/* what they change: "sysfs", "damon_reclaim" */
	bool interactive;		/* the readline shell runs the commands */
	long watch_frame;		/* --watch: this frame's number (1, 2, ...), else 0 */
};

/*
 * A keyword grammar, for completing a value or the keywords not used yet,
 * and for help.  Each keyword takes @nr values; @values are the fixed words
 * its first value (@every: each value) may be; @sub are the sub-keywords it
 * takes (quota), each with one value.  @args and @help describe it in
 * "help OBJECT COMMAND".  tests/host/completion.bats checks these against
 * what the commands take.
 */
struct kw_spec {
	const char *kw;
	int nr;
	const char *const *values;
	const char *const *sub;
	bool every;
	const char *args;
	const char *help;
};

struct cli_grammar {
	const struct kw_spec *kws;	/* terminated by { NULL } */
	const char *const *first;	/* the fixed words before the keywords */
	const char *first_help;
	bool actions_first;		/* an action name before the keywords */
	bool repeat;			/* keywords may come again */
};

struct cli_cmd {
	const char *name;
	int (*fn)(struct cli *c, int argc, char **argv);
	const char *args;		/* usage after "OBJECT COMMAND" */
	const char *help;
	const struct cli_grammar *grammar;	/* its keywords, or NULL */
	unsigned int flags;		/* CLI_WATCH */
};

/* The command takes --watch SECONDS [--count N] (cli/watch.c). */
#define CLI_WATCH	0x1
/* The command writes: it takes the lock exclusive (cli/lock.c). */
#define CLI_WRITE	0x2
/* The command takes no lock (it reads nothing of DAMON's). */
#define CLI_NOLOCK	0x4
/*
 * It runs for a duration and stops on Ctrl-C itself: signals are not held
 * while it writes (its short changes are journaled all the same).
 */
#define CLI_NOHOLD	0x10
/* Its argument is a scheme index: the completion offers those there are. */
#define CLI_INDEX	0x8
/* It takes --kdamond all (c->kdamond_all): every kdamond of sysfs. */
#define CLI_ALL_KDAMONDS	0x20
/* It is an edit of the setup (cli_setup_change()): a batch applies it later. */
#define CLI_EDIT	0x40

struct cli_object {
	const char *name;
	const struct cli_cmd *cmds;	/* terminated by { NULL } */
	const char *default_cmd;	/* run when no command is given */
	const char *help;
	/* an object without commands: "damoctl OBJECT ARGS" calls run() */
	int (*run)(struct cli *c, int argc, char **argv);
	const char *run_args;
};

extern const struct cli_object cli_objects[];	/* terminated by { NULL } */

/*
 * damoctl's global options, one row each: cli_parse_globals() builds its
 * getopt_long() tables from it, --help lists it, the bash completion
 * offers it, and tests/host/docs.bats checks it against OPTIONS in
 * damoctl(8).  Not libdamos': options are damoctl's, as its commands are.
 * @val is what getopt_long() returns, and -@val the short option unless
 * @no_short; @arg names the option's value (NULL: it takes none), and
 * @arg_kind says what the completion offers for it.
 */
enum cli_arg_kind {
	CLI_ARG_NONE,
	CLI_ARG_VALUE,			/* a number, a name: nothing to offer */
	CLI_ARG_CHOICE,			/* one of the words of @arg, '|' apart */
	CLI_ARG_FILE,			/* a file name (or "-") */
};

struct cli_option {
	const char *name;		/* --NAME */
	char val;
	bool no_short;
	const char *arg;
	enum cli_arg_kind arg_kind;
	const char *help;		/* one line of --help */
};

extern const struct cli_option cli_options[];	/* terminated by { NULL } */
const struct cli_option *cli_option_find(const char *word);

extern const struct cli_cmd scheme_cmds[];
extern const struct cli_cmd attrs_cmds[];
extern const struct cli_cmd target_cmds[];
extern const struct cli_cmd tier_cmds[];
extern const struct cli_cmd monitor_cmds[];
extern const struct cli_cmd stats_cmds[];
extern const struct cli_cmd lru_sort_cmds[];
extern const struct cli_cmd reclaim_cmds[];
extern const struct cli_cmd report_cmds[];
/* cli/effect.c: report effect */
int report_effect(struct cli *c, int argc, char **argv);
extern const struct cli_grammar report_effect_grammar;
#define REPORT_EFFECT_ARGS "[duration TIME] [--format text|openmetrics|prometheus [--output FILE]]"
/*
 * cli/record.c: record FILE, and the records report --input reads (damo's
 * json and json_compressed formats): one record a monitoring target, its
 * intervals in @a, its snapshots in time order
 */
struct cli_record_snap {
	uint64_t start_ns, end_ns;
	struct damos_tried_region *r;
	size_t nr;
};
struct cli_record {
	struct damon_attrs a;
	struct cli_record_snap *s;
	size_t nr;
};
int record_run(struct cli *c, int argc, char **argv);
extern const struct cli_grammar record_grammar;
#define RECORD_ARGS "FILE [duration TIME] [format json|json_compressed] [source auto|tried|trace]"
int cli_record_load(struct cli *c, const char *file, struct cli_record **out,
		    size_t *nr);
int cli_record_input(struct cli *c, const char *file, struct cli_record *rec);
void cli_record_free(struct cli_record *rec);
void cli_record_write(FILE *f, const struct cli_record *rec, int kdamond);
/* cli/heatmap.c: report heatmap */
int report_heatmap(struct cli *c, int argc, char **argv);
/* damon_access_snapshot() with SIGINT, SIGTERM, SIGHUP, SIGQUIT held */
int cli_access_snapshot(struct damon_ctx *d, const struct damon_snapshot_opts *o,
			struct damos_tried_regions **out);
int apply_run(struct cli *c, int argc, char **argv);
#define APPLY_ARGS "[check] FILE"
/*
 * cli/apply.c: apply [check] of a damoctl.conf(5) text or a damo spec in
 * @buf (@len bytes, freed), as "damoctl apply" does a file named @name.
 */
int cli_apply_text(struct cli *c, const char *name, char *buf, size_t len,
		   bool check_only);

/* damo's kdamonds spec (cli/damo_spec.c) */
extern const struct cli_cmd export_cmds[];
bool damo_spec_detect(const char *buf, size_t len);
/* *paths[line - 1]: the JSON path the conf's line came from, or NULL */
int damo_spec_to_conf(struct cli *c, const char *name, const char *buf,
		      size_t len, char **conf, char ***paths, size_t *nr_paths);
void damo_spec_paths_free(char **paths, size_t nr);

void cli_init(struct cli *c);
void cli_fini(struct cli *c);
int cli_parse_globals(struct cli *c, int argc, char **argv, int *next);
int cli_run(struct cli *c, int argc, char **argv);
const char **cli_complete_words(struct cli *c, int argc, char **argv);
/* cli/help.c; cli_usage() prints the text of damoctl --help on @f */
void cli_help(struct cli *c, const struct cli_object *o,
	      const struct cli_cmd *k);
void cli_usage(FILE *f);
const struct cli_object *cli_object_find(const char *name);

/* front ends: cli/shell.c, cli/batch.c, cli/complete.c, cli/watch.c */
int cli_shell(struct cli *c);
int cli_batch(struct cli *c, const char *file);
int cli_run_line(struct cli *c, const char *line);
int cli_complete_print(int argc, char **argv, FILE *f);
void cli_complete_grammar(const struct cli_grammar *g, int argc, char **argv,
			  const char **out, int *n);
int cli_complete_indexes(struct cli *c, const char **out, int room);
int cli_watch_args(struct cli *c, int *argc, char **argv, uint64_t *us,
		   long *count);
int cli_watch(struct cli *c, const struct cli_cmd *k, int argc, char **argv,
	      uint64_t us, long count);

/* cli/lock.c: run a command under the lock of its object */
int cli_call(struct cli *c, const struct cli_cmd *k, int argc, char **argv);
/*
 * cli/lock.c: take the lock (a no-op while a batch holds it), roll back a
 * dead process's journal, and with @hold hold the signals of a writer;
 * cli_unlock() releases it and returns @status, or 128 + a held signal
 * that came, with a message.
 */
int cli_lock(struct cli *c, bool exclusive, bool hold);
int cli_unlock(struct cli *c, int status);
/*
 * A reader's long wait (a report's window) lets writers in: the lock of a
 * command that took it itself (not a batch's) is released, then taken
 * again (EXIT_OK, or the error printed).
 */
void cli_lock_pause(struct cli *c);
int cli_lock_resume(struct cli *c);
int cli_call_run(struct cli *c, int (*fn)(struct cli *, int, char **),
		 bool exclusive, int argc, char **argv);
/*
 * cli/monitor.c: --kdamond all: @fn(c, i, @arg) on each kdamond of sysfs,
 * i = 0, 1, ..., with c->kdamond = i (dbgfs: once); the first failure ends
 * it and is returned.  No kdamond is an error unless @none_ok.
 */
int cli_each_kdamond(struct cli *c, bool none_ok,
		     int (*fn)(struct cli *c, unsigned int i, void *arg),
		     void *arg);
/* cli/target.c: paddr without a region gets every System RAM range */
int cli_paddr_fill(struct cli *c, struct damon_targets *t, bool *filled);
/* a note on what damoctl chose (stdout; with --json in the document) */
void cli_note(struct cli *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int cli_check_ops(struct cli *c, enum damon_ops o, enum damos_action a,
		  const char *which);
/* cli/scheme.c: open and read the schemes (NULL: *status says why) */
/*
 * cli_open() and the schemes; with @stats, their statistics updated first
 * (cli_stats_update())
 */
struct damon_ctx *cli_schemes_open(struct cli *c, struct damos_scheme ***arr,
				   size_t *n, bool stats, int *status);
/* damos_stats_update(); a refusal is a warning: the statistics are older */
void cli_stats_update(struct cli *c, struct damon_ctx *d);
/* "no schemes" on a terminal when @n is 0 (scheme list, stats show) */
void cli_no_schemes(struct cli *c, size_t n);
/*
 * cli/setup.c: one change of the options' kdamond (every kdamond's with
 * --kdamond all), read → edit → apply
 */
int cli_setup_change(struct cli *c,
		     int (*edit)(struct cli *c, struct damon_kdamond_setup *k,
				 void *arg),
		     void *arg);
/* ... of the whole setup */
int cli_setup_edit(struct cli *c,
		   int (*edit)(struct cli *c, struct damon_setup *s, void *arg),
		   void *arg);
/* ... and of module @name ("lru_sort", "reclaim") */
int cli_setup_module_change(struct cli *c, const char *name,
			    int (*edit)(struct cli *c, struct damon_module_setup *m,
					void *arg),
			    void *arg);
/* The attrs of a batch's edits so far (false: none; read the kernel's) */
bool cli_setup_attrs(const struct cli *c, struct damon_attrs *a);
/* A batch's edits so far applied at once (nothing to do: EXIT_OK) */
int cli_setup_flush(struct cli *c);
/* ... or dropped, when the batch stops */
void cli_setup_drop(struct cli *c);
#define CLI_WAIT_DEFAULT_US	(30 * 1000000ULL)

/* helpers for the object files */
const struct cli_cmd *cmd_select(const struct cli_cmd *cmds, const char *name);
/* cli/messages.c */
int cli_error(struct cli *c, int status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int cli_lib_error(struct cli *c, int err);
/* damos_errmsg() with damoctl's advice for the library's hint in it */
const char *cli_errmsg(void);
int cli_parse_error(struct cli *c, int err);
/*
 * layers.c: the I/O layers of the handles @c opens (damon_opts.layers);
 * test builds link tests/layers/cli_layers.c instead, which adds theirs.
 */
const struct damos_layer *const *cli_layers(const struct cli *c);
/* whether a --root tree acts as the kernel's: only in the test build */
bool cli_fake_kernel(void);
/* cli/handle.c: the handle the global options name */
void cli_opts(struct cli *c, struct damon_opts *o);
struct damon_ctx *cli_open(struct cli *c);
struct damon_ctx *cli_open_quiet(struct cli *c);
int cli_close(struct cli *c, struct damon_ctx *d, int status);
void cli_print_script(struct cli *c, const char *what, const char *script);
int cli_attrs(struct cli *c, struct damon_ctx *d, struct damon_attrs *a);

/* attrs and targets in the grammar of "set" (text) or as a JSON object */
void cli_print_attrs(struct cli *c, const struct damon_attrs *a);
void cli_print_targets(struct cli *c, const struct damon_targets *t);

/* cli/metrics.c: --format openmetrics|prometheus [--output FILE] */
enum { CLI_FORMAT_TEXT, CLI_FORMAT_OPENMETRICS, CLI_FORMAT_PROMETHEUS };
struct cli_metrics {
	int format;
	const char *output;		/* replaced whole (rename), or stdout */
};
#define CLI_METRICS_ARGS "[--format text|openmetrics|prometheus [--output FILE]]"
int cli_metrics_args(struct cli *c, int *argc, char **argv,
		     struct cli_metrics *m);
/* @status: monitor status's state and attributes too, not only schemes' */
int cli_metrics_print(struct cli *c, const struct cli_metrics *m, bool status);
/*
 * cli/telemetry.c: the access telemetry of monitor status' metrics, from
 * the regions of a running kdamond read without a change to the setup;
 * -errno with @why when there is none
 */
struct cli_access_telemetry {
	bool available;
	const char *source;		/* "tried" or "trace" */
	const char *why;		/* not available: why */
	size_t nr_regions;
	uint64_t total_bytes, wss_bytes;
	uint64_t age_us[3];		/* p50, p90, p99 of the bytes */
};
int cli_access_telemetry(struct cli *c, struct damon_ctx *d,
			 struct cli_access_telemetry *t);
/* for other expositions: a family's HELP and TYPE, a label value escaped,
 * the file replaced whole */
void cli_metrics_family(FILE *f, const struct cli_metrics *m, const char *name,
			const char *type, const char *help);
void cli_metrics_label(FILE *f, const char *value);
int cli_metrics_write(struct cli *c, const char *path, const char *text,
		      size_t len);

/* cli/rates.c: each scheme's rates since the last --watch frame */
struct cli_rate {
	bool valid;			/* false: no last frame to compare with */
	uint64_t interval_us;
	uint64_t tried_bps, applied_bps;	/* bytes per second */
	uint64_t qt_exceeds;		/* in the interval */
};
void cli_rates_update(struct cli *c, struct damos_scheme *const *arr, size_t n,
		      struct cli_rate *out);

/*
 * JSON output through json-c (cli/json.c): one document per command on
 * c->out.  json_str() makes a string of valid UTF-8 (U+FFFD for an invalid
 * byte); json_write() prints a value and releases it, json_print() adds
 * a newline (one document a line).
 */
struct json_object *json_str(const char *s);
struct json_object *json_u64(uint64_t v);
void json_write(FILE *f, struct json_object *o);
void json_print(FILE *f, struct json_object *o);
void json_print_str(FILE *f, const char *key, const char *value);
void json_print_version(FILE *f, const char *version, const char *lib);
void json_begin(struct cli *c, FILE **saved, char **buf, size_t *len);
void json_end(struct cli *c, FILE *saved, char **bufp, size_t *lenp, int status);
void json_add(char ***arr, size_t *n, const char *s);
struct json_object *json_scheme(const struct damos_scheme *s, int idx);
struct json_object *json_attrs(const struct damon_attrs *a);
struct json_object *json_targets(const struct damon_targets *t);

#endif /* DAMOCTL_CLI_H */
