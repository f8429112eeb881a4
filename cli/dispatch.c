// SPDX-License-Identifier: GPL-2.0-or-later
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

static const struct cli_cmd help_cmds[] = { { NULL } };

const struct cli_object cli_objects[] = {
	{ "scheme", scheme_cmds, "list", "DAMON-based operation schemes" },
	{ "attrs", attrs_cmds, "show", "monitoring attributes" },
	{ "target", target_cmds, "show", "monitoring targets and regions" },
	{ "monitor", monitor_cmds, "status", "turn monitoring on and off" },
	{ "stats", stats_cmds, "show", "statistics of the schemes" },
	{ "lru-sort", lru_sort_cmds, "status", "the damon_lru_sort module" },
	{ "reclaim", reclaim_cmds, "status", "the damon_reclaim module" },
	{ "report", report_cmds, "access", "what DAMON sees: the monitored regions" },
	{ "export", export_cmds, NULL, "the setup in another tool's format (damo)" },
	{ "tier", tier_cmds, "status", "memory tiering: cold pages to a slow node, hot ones back (Linux 6.11+)" },
	{ "record", help_cmds, NULL, "snapshots of the monitored regions to FILE, in damo's record format",
	  record_run, RECORD_ARGS },
	{ "apply", help_cmds, NULL, "make a damoctl.conf(5) file or a damo kdamonds spec the live setup, or check it",
	  apply_run, APPLY_ARGS },
	{ "help", help_cmds, NULL, "this help, help OBJECT or help OBJECT COMMAND" },
	{ NULL },
};

void cli_init(struct cli *c)
{
	memset(c, 0, sizeof(*c));
	c->iface = DAMON_IFACE_AUTO;
	c->out = stdout;
	c->err = stderr;
	c->wait_us = CLI_WAIT_DEFAULT_US;
	c->lock_fd = -1;
}

void cli_fini(struct cli *c)
{
	fflush(c->out);
	free(c->root_abs);
	c->root_abs = NULL;
}

/* "damoctl OBJECT COMMAND ARGS", as --help, help and damoctl(8) show it. */
static void synopsis(FILE *f, const struct cli_object *o,
		     const struct cli_cmd *k)
{
	fprintf(f, "damoctl %s %s%s%s%s", o->name, k->name,
		*k->args ? " " : "", k->args,
		k->flags & CLI_WATCH ? " [--watch SECONDS [--count N]]" : "");
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: damoctl [OPTIONS] OBJECT COMMAND [ARGS]\n"
		"       damoctl [OPTIONS] help [OBJECT [COMMAND]]\n"
		"       damoctl [OPTIONS] -f FILE|- [--force]\n"
		"       damoctl [OPTIONS]      (on a terminal: the interactive shell)\n"
		"\n"
		"Options:\n");
	for (const struct cli_option *g = cli_options; g->name; g++) {
		char words[64], letter[8] = "    ";

		if (!g->no_short)
			snprintf(letter, sizeof(letter), "-%c, ", g->val);
		snprintf(words, sizeof(words), "%s--%s%s%s", letter, g->name,
			 g->arg ? " " : "", g->arg ? g->arg : "");
		fprintf(f, "  %-20s  %s\n", words, g->help);
	}
	fprintf(f, "\nObjects and commands:\n");
	for (const struct cli_object *o = cli_objects; o->name; o++) {
		if (o->run)
			fprintf(f, "  damoctl %s %s\n", o->name, o->run_args);
		for (const struct cli_cmd *k = o->cmds; k->name; k++) {
			fprintf(f, "  ");
			synopsis(f, o, k);
			fprintf(f, "\n");
		}
	}
	fprintf(f, "\nExit status: 0 ok, 1 failure, 2 usage error, 3 a failed write not undone,\n"
		"128+N signal N came while writing (held until the command ended).\n");
}

/* In the shell: the commands without "damoctl", no command-line options. */
static void shell_usage(FILE *f)
{
	fprintf(f, "Objects and commands (as on damoctl's command line, without \"damoctl\"):\n");
	for (const struct cli_object *o = cli_objects; o->name; o++) {
		if (o->run)
			fprintf(f, "  %s %s\n", o->name, o->run_args);
		for (const struct cli_cmd *k = o->cmds; k->name; k++)
			fprintf(f, "  %s %s%s%s%s\n", o->name, k->name,
				*k->args ? " " : "", k->args,
				k->flags & CLI_WATCH ? " [--watch SECONDS [--count N]]" : "");
	}
}

const struct cli_object *cli_object_find(const char *name)
{
	/* the spellings of damo's users */
	if (!strcmp(name, "lru_sort"))
		name = "lru-sort";
	for (const struct cli_object *o = cli_objects; o->name; o++)
		if (!strcmp(o->name, name))
			return o;
	return NULL;
}

/* "  WORDS  HELP", HELP wrapped in its column (from the next line if WORDS are long). */
static void help_row(FILE *f, const char *words, const char *help)
{
	int col = fprintf(f, "  %-22s", words);

	if (col > 24) {
		fprintf(f, "\n");
		col = 0;
	}
	while (*help) {
		int len = strcspn(help, " ");

		if (col > 25 && col + 1 + len > 78) {
			fprintf(f, "\n");
			col = 0;
		}
		col += fprintf(f, "%*s%.*s", col ? 1 : 25, "", len, help);
		help += len + (help[len] == ' ');
	}
	fprintf(f, "\n");
}

static void help_grammar(FILE *f, const struct cli_grammar *g)
{
	char words[128] = "";
	size_t n = 0;

	fprintf(f, "\n");
	if (g->actions_first) {
		for (int a = 0; a < DAMOS_NR_ACTIONS; a++)
			n += snprintf(words + n, sizeof(words) - n, "%s%s",
				      a ? " " : "", damos_action_name(a));
		fprintf(f, "  ACTION: %s\n  (damoctl help scheme says what each does)\n",
			words);
	}
	n = 0;
	for (const char *const *w = g->first; w && *w; w++)
		n += snprintf(words + n, sizeof(words) - n, "%s%s",
			      n ? "|" : "", *w);
	/* an empty list of first words: the command's index (scheme set) */
	if (g->first)
		help_row(f, n ? words : "INDEX", g->first_help);
	for (const struct kw_spec *w = g->kws; w->kw; w++) {
		snprintf(words, sizeof(words), "%s %s", w->kw, w->args);
		help_row(f, words, w->help);
	}
}

static void help_command(FILE *f, const struct cli_object *o,
			 const struct cli_cmd *k)
{
	synopsis(f, o, k);
	fprintf(f, "\n    %s\n", k->help);
	if (k->flags & CLI_WATCH)
		fprintf(f, "    --watch SECONDS: print it again every SECONDS (times take units:\n"
			"    500ms, 2s), in place on a terminal, until Ctrl-C or --count N times\n");
	if (k->grammar)
		help_grammar(f, k->grammar);
}

static void help_object(FILE *f, const struct cli_object *o)
{
	fprintf(f, "damoctl %s: %s\n\n", o->name, o->help);
	if (o->run)
		fprintf(f, "  damoctl %s %s\n", o->name, o->run_args);
	if (o->run == record_run)
		help_grammar(f, &record_grammar);
	for (const struct cli_cmd *k = o->cmds; k->name; k++) {
		fprintf(f, "  ");
		synopsis(f, o, k);
		fprintf(f, "\n      %s\n", k->help);
	}
	if (!strcmp(o->name, "scheme")) {
		fprintf(f, "\nActions:\n");
		for (int a = 0; a < DAMOS_NR_ACTIONS; a++)
			fprintf(f, "  %-11s %s\n", damos_action_name(a),
				damos_action_desc(a));
		fprintf(f,
			"\nValues: sizes 4K 2M 1G (B K M G T), times us ms s m h,\n"
			"access rates N%% of the samples per aggregation interval,\n"
			"min/max (the field's bounds); a bare number is the kernel's unit.\n");
	}
}

/*
 * The usage (@o NULL), an object's help or a command's (@k), on c->out;
 * with --json as {"help": TEXT}, so that every output parses.
 */
void cli_help(struct cli *c, const struct cli_object *o,
	      const struct cli_cmd *k)
{
	char *text = NULL;
	size_t len;
	FILE *f = c->json ? open_memstream(&text, &len) : c->out;

	if (!f) {
		cli_error(c, EXIT_FAIL, "out of memory");
		return;
	}
	if (!o && c->interactive)
		shell_usage(f);
	else if (!o)
		usage(f);
	else if (!k)
		help_object(f, o);
	else
		help_command(f, o, k);
	if (c->json) {
		fclose(f);
		json_print_str(c->out, "help", text);
		free(text);
	}
}

const struct cli_cmd *cmd_select(const struct cli_cmd *cmds, const char *name)
{
	for (; cmds->name; cmds++)
		if (!strcmp(cmds->name, name))
			return cmds;
	return NULL;
}

static void vreport(struct cli *c, const char *fmt, va_list ap)
{
	char msg[4096], where[600] = "";

	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (c->object)
		snprintf(where, sizeof(where), "%s%s%s%s%s: ",
			 c->where ? c->where : "", c->where ? ": " : "",
			 c->object, c->command ? " " : "",
			 c->command ? c->command : "");
	else if (c->where)
		snprintf(where, sizeof(where), "%s: ", c->where);
	if (c->json && c->capture) {
		char full[4800];

		snprintf(full, sizeof(full), "%s%s", where, msg);
		json_add(&c->json_errs, &c->nr_errs, full);
	} else if (c->json) {
		char full[4800];

		snprintf(full, sizeof(full), "%s%s", where, msg);
		json_print_str(c->out, "error", full);
	} else {
		fprintf(c->err, "damoctl: %s%s\n", where, msg);
	}
}

int cli_error(struct cli *c, int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(c, fmt, ap);
	va_end(ap);
	return status;
}

/* The rule of apply (cli_conf_check_ops) for scheme add and target set. */
int cli_check_ops(struct cli *c, enum damon_ops o, enum damos_action a,
		  const char *which)
{
	if (damon_ops_supports(o, a))
		return EXIT_OK;
	return cli_error(c, EXIT_USAGE,
			 "%s%s does nothing on %s targets (Linux 6.1 applies %s there)",
			 which ? which : "", damos_action_name(a), damon_ops_name(o),
			 o == DAMON_OPS_PADDR ? "pageout, lru_prio, lru_deprio and stat" :
			 "willneed, cold, pageout, hugepage, nohugepage and stat");
}

void cli_note(struct cli *c, const char *fmt, ...)
{
	FILE *f = c->json || c->dry_run ? c->err : c->out;
	va_list ap;

	if (c->json && c->capture) {
		char msg[1024];

		va_start(ap, fmt);
		vsnprintf(msg, sizeof(msg), fmt, ap);
		va_end(ap);
		json_add(&c->json_notes, &c->nr_notes, msg);
		return;
	}
	fprintf(f, "damoctl: ");
	if (c->object)
		fprintf(f, "%s%s%s: ", c->object, c->command ? " " : "",
			c->command ? c->command : "");
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
}

/*
 * The library says what went wrong and hints at what helps; the words of
 * the advice, damoctl's options and commands, are damoctl's.
 */
static bool dir_exists(const char *path)
{
	struct stat st;

	errno = 0;
	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

static bool advice(const struct damos_hint_info *h, char *buf, size_t sz)
{
	switch (h->hint) {
	case DAMOS_HINT_USE_SYSFS:
		snprintf(buf, sz, ": use --interface sysfs");
		break;
	case DAMOS_HINT_STOP_MONITOR:
		snprintf(buf, sz, " (damoctl monitor stop)");
		break;
	case DAMOS_HINT_STOP_DBGFS:
		snprintf(buf, sz, " (damoctl --interface dbgfs monitor stop)");
		break;
	case DAMOS_HINT_STOP_KDAMOND:
		if (h->arg)
			snprintf(buf, sz, " (damoctl --kdamond %lld monitor stop)",
				 (long long)h->arg);
		else
			snprintf(buf, sz, " (damoctl monitor stop)");
		break;
	case DAMOS_HINT_STOP_LRU_SORT:
		snprintf(buf, sz, " (damoctl lru-sort disable)");
		break;
	case DAMOS_HINT_STOP_RECLAIM:
		snprintf(buf, sz, " (damoctl reclaim disable)");
		break;
	case DAMOS_HINT_SET_TARGET:
		snprintf(buf, sz, " (damoctl target set ...)");
		break;
	case DAMOS_HINT_PICK_KDAMOND:
		if (h->arg <= 0)
			return false;
		snprintf(buf, sz, ": use --kdamond 0..%lld", (long long)h->arg - 1);
		break;
	default:
		return false;
	}
	return true;
}

const char *cli_errmsg(void)
{
	static __thread char buf[1024];
	struct damos_hint_info h = { .sz = sizeof(h) };
	const char *msg = damos_errmsg();
	char words[128];

	if (damos_error_hint(&h) || !advice(&h, words, sizeof(words)) ||
	    h.pos > strlen(msg))
		return msg;
	snprintf(buf, sizeof(buf), "%.*s%s%s", (int)h.pos, msg, words,
		 msg + h.pos);
	return buf;
}

int cli_lib_error(struct cli *c, int err)
{
	const char *msg = cli_errmsg();

	if (!*msg)
		msg = strerror(-err);
	/* a file a kernel would have made: what FAKE TREES in damoctl(8) says */
	if (err == -ENOENT && c->root && strcmp(c->root, "/") && !cli_fake_kernel())
		return cli_error(c, EXIT_FAIL,
				 "%s (under --root the tree is used as it is, and must be complete: see FAKE TREES in damoctl(8))",
				 msg);
	return cli_error(c, err == -ENOTRECOVERABLE ? EXIT_RESTORE : EXIT_FAIL,
			 "%s", msg);
}

/* A grammar the library parses: bad words are the user's, ENOMEM is not. */
int cli_parse_error(struct cli *c, int err)
{
	return err == -ENOMEM ? cli_lib_error(c, err) :
	       cli_error(c, EXIT_USAGE, "%s", cli_errmsg());
}

void cli_opts(struct cli *c, struct damon_opts *o)
{
	struct damon_opts def = DAMON_OPTS_INIT;

	*o = def;
	o->root = c->root;
	o->iface = c->iface;
	o->layers = cli_layers(c);
	o->kdamond = c->kdamond;
	o->dbgfs_ctx = c->dbgfs_ctx;
}

/* The handle the options name; NULL with errno and damos_errmsg() set. */
struct damon_ctx *cli_open_quiet(struct cli *c)
{
	struct damon_opts o;

	cli_opts(c, &o);
	return damon_open(&o);
}

struct damon_ctx *cli_open(struct cli *c)
{
	struct damon_ctx *d = cli_open_quiet(c);

	int err;

	if (!d) {
		cli_lib_error(c, -errno);
		return NULL;
	}
	/* reads of a context that is not there would show made-up defaults */
	err = c->writing ? 0 : damon_context_check(d);
	if (err) {
		cli_lib_error(c, err);
		damon_close(d);
		return NULL;
	}
	return d;
}

/* The writes of a dry run, after a header the first time (@what: where). */
void cli_print_script(struct cli *c, const char *what, const char *script)
{
	if (!c->dry_run || !script || !*script)
		return;
	if (c->json && c->capture) {
		size_t n = c->json_script ? strlen(c->json_script) : 0;
		char *s = realloc(c->json_script, n + strlen(script) + 1);

		if (s) {
			strcpy(s + n, script);
			c->json_script = s;
		}
	} else if (c->json) {
		json_print_str(c->out, "dry_run", script);
	} else {
		if (!c->script_started)
			fprintf(c->out,
				"#!/bin/sh\n"
				"# damoctl --dry-run: these writes were not made.\n"
				"# Any POSIX sh runs it: each file gets one write(), several\n"
				"# lines through cat from a here-document.\n"
				"set -e\n");
		fprintf(c->out, "# damoctl %s (%s)\n%s", c->line, what, script);
	}
	c->script_started = true;
}

int cli_close(struct cli *c, struct damon_ctx *d, int status)
{
	if (!d)
		return status;
	cli_print_script(c, damon_iface_name(damon_get_iface(d)),
			 damos_dry_run_script(d));
	damon_close(d);
	return status;
}

int cli_attrs(struct cli *c, struct damon_ctx *d, struct damon_attrs *a)
{
	int err = damon_attrs_read(d, a);

	if (err)
		return cli_lib_error(c, err);
	return 0;
}

const struct cli_option cli_options[] = {
	{ "interface", 'i', false, "auto|sysfs|dbgfs", CLI_ARG_CHOICE,
	  "kernel interface (default auto: sysfs if present)" },
	{ "root", 'r', false, "DIR", CLI_ARG_FILE,
	  "treat DIR as / (fake trees, offline use)" },
	{ "dry-run", 'n', false, NULL, CLI_ARG_NONE,
	  "print the writes as a sh script, make none" },
	{ "json", 'j', false, NULL, CLI_ARG_NONE,
	  "JSON output, errors included" },
	{ "kdamond", 'k', false, "N|all", CLI_ARG_VALUE,
	  "sysfs kdamond index (default 0); all: every kdamond (export damo, monitor status|start|stop)" },
	{ "context", 'c', false, "NAME", CLI_ARG_VALUE,
	  "dbgfs context directory (default: the first)" },
	{ "wait", 'w', false, "SECONDS", CLI_ARG_VALUE,
	  "wait at most this long for another damoctl (default 30)" },
	{ "file", 'f', false, "FILE|-", CLI_ARG_FILE,
	  "run the command lines of FILE (- for stdin)" },
	/* 'F' is only what getopt_long() returns: there is no -F */
	{ "force", 'F', true, NULL, CLI_ARG_NONE,
	  "with -f: go on after a failure, report them all" },
	{ "version", 'V', false, NULL, CLI_ARG_NONE, "print the version" },
	{ "help", 'h', false, NULL, CLI_ARG_NONE, "print this help" },
	{ NULL },
};

/* The row of "--NAME" or "-V"; NULL if @word is neither. */
const struct cli_option *cli_option_find(const char *word)
{
	for (const struct cli_option *g = cli_options; g->name; g++)
		if ((word[0] == '-' && word[1] == '-' && !strcmp(word + 2, g->name)) ||
		    (!g->no_short && word[0] == '-' && word[1] == g->val && !word[2]))
			return g;
	return NULL;
}

/* getopt_long()'s two tables, from cli_options[]. */
static void getopt_tables(struct option *longs, char *shorts)
{
	*shorts++ = '+';	/* the options end at the object */
	for (const struct cli_option *g = cli_options; g->name; g++) {
		*longs++ = (struct option){ g->name, g->arg ? required_argument :
					    no_argument, NULL, g->val };
		if (g->no_short)
			continue;
		*shorts++ = g->val;
		if (g->arg)
			*shorts++ = ':';
	}
	*longs = (struct option){ NULL, 0, NULL, 0 };
	*shorts = '\0';
}

int cli_parse_globals(struct cli *c, int argc, char **argv, int *next)
{
	struct option opts[ARRAY_SIZE(cli_options)];
	char shorts[2 * ARRAY_SIZE(cli_options) + 2];
	const struct cli_option *g;
	char *end;
	long v;
	int opt;

	/* --json first, so that every message is JSON wherever it stands */
	getopt_tables(opts, shorts);
	opterr = 0;
	for (optind = 0; (opt = getopt_long(argc, argv, shorts, opts,
					    NULL)) != -1;)
		c->json |= opt == 'j';
	optind = 0;
	while ((opt = getopt_long(argc, argv, shorts, opts, NULL)) != -1) {
		switch (opt) {
		case 'i':
			/* damo's spelling */
			v = damon_iface_from_name(strcmp(optarg, "debugfs") ?
						  optarg : "dbgfs");
			if (v < 0)
				return cli_error(c, EXIT_USAGE, "%s",
						 cli_errmsg());
			c->iface = v;
			break;
		case 'r':
			/* "$FAKE" unset must not mean the live system */
			if (!*optarg)
				return cli_error(c, EXIT_USAGE,
						 "--root: an empty DIR (an unset variable?); give / for the live system");
			c->root = optarg;
			/* absolute: dry-run scripts and messages work anywhere */
			if (optarg[0] != '/') {
				char *cwd = getcwd(NULL, 0);

				free(c->root_abs);
				c->root_abs = NULL;
				if (!cwd || asprintf(&c->root_abs, "%s/%s", cwd, optarg) < 0)
					c->root_abs = NULL;
				free(cwd);
				if (!c->root_abs)
					return cli_error(c, EXIT_FAIL, "--root %s: %s",
							 optarg, strerror(errno));
				c->root = c->root_abs;
			}
			/* a mistyped DIR is not "this kernel has no DAMON" */
			if (!dir_exists(c->root))
				return cli_error(c, EXIT_FAIL, "--root %s: %s", optarg,
						 errno == ENOTDIR || !errno ? "not a directory" :
						 strerror(errno));
			break;
		case 'n':
			c->dry_run = true;
			break;
		case 'j':
			c->json = true;
			break;
		case 'k':
			c->kdamond_given = true;
			if (!strcmp(optarg, "all")) {
				c->kdamond_all = true;
				c->kdamond = 0;
				break;
			}
			c->kdamond_all = false;
			errno = 0;
			v = strtol(optarg, &end, 10);
			if (errno || *end || end == optarg || v < 0 || v > 1024)
				return cli_error(c, EXIT_USAGE,
						 "--kdamond: '%s' is not a kdamond index (0 to 1024, or all)",
						 optarg);
			c->kdamond = (int)v;
			break;
		case 'c':
			c->dbgfs_ctx = optarg;
			break;
		case 'f':
			c->batch = optarg;
			break;
		case 'F':
			c->force = true;
			break;
		case 'w': {
			uint64_t us;

			if (damos_parse_time_us(optarg, 1000000, &us))
				return cli_error(c, EXIT_USAGE,
						 "--wait: '%s' is not a time (seconds, or with us ms s m h)",
						 optarg);
			c->wait_us = us;
			break;
		}
		case 'V':
			if (optind < argc)
				return cli_error(c, EXIT_USAGE,
						 "--version: nothing goes after it, got '%s'",
						 argv[optind]);
			if (c->json)
				json_print_version(c->out, DAMOS_VERSION, damos_version());
			else
				fprintf(c->out, "damoctl %s (libdamos %s)\n",
					DAMOS_VERSION, damos_version());
			*next = argc;
			return -1;
		case 'h':
			cli_help(c, NULL, NULL);
			*next = argc;
			return -1;
		default:
			for (g = cli_options; g->name && g->val != optopt; g++)
				;
			if (optopt)
				return cli_error(c, EXIT_USAGE,
						 "option -%c: %s", optopt,
						 g->name && g->arg ?
						 "missing argument" : "unknown option");
			return cli_error(c, EXIT_USAGE, "unknown option '%s'",
					 argv[optind - 1]);
		}
	}
	/* damon_open() refuses these too, but they are usage errors */
	if (c->dbgfs_ctx && !*c->dbgfs_ctx)
		c->dbgfs_ctx = NULL;
	if (c->dbgfs_ctx && (strchr(c->dbgfs_ctx, '/') ||
			     !strcmp(c->dbgfs_ctx, ".") || !strcmp(c->dbgfs_ctx, "..")))
		return cli_error(c, EXIT_USAGE,
				 "--context '%s': a context is a name (of mk_contexts), not a path",
				 c->dbgfs_ctx);
	if (c->dbgfs_ctx && (c->kdamond || c->kdamond_all))
		return cli_error(c, EXIT_USAGE,
				 "--context is dbgfs's and --kdamond sysfs's: not both");
	if (c->dbgfs_ctx && c->iface == DAMON_IFACE_SYSFS)
		return cli_error(c, EXIT_USAGE,
				 "--context %s: a dbgfs context, not with --interface sysfs",
				 c->dbgfs_ctx);
	if ((c->kdamond || c->kdamond_all) && c->iface == DAMON_IFACE_DBGFS)
		return cli_error(c, EXIT_USAGE,
				 c->kdamond_all ? "--kdamond all: sysfs kdamonds, not with --interface dbgfs" :
				 "--kdamond %d: a sysfs kdamond, not with --interface dbgfs",
				 c->kdamond);
	*next = optind;
	return 0;
}

static int cli_run_cmd(struct cli *c, const struct cli_object *o,
		       const struct cli_cmd *k, int argc, char **argv);

static bool is_help(const char *w)
{
	return !strcmp(w, "help") || !strcmp(w, "--help") || !strcmp(w, "-h");
}

/*
 * A global option among a command's words: --help is the command's help,
 * the others belong before the object.
 */
static int misplaced_option(struct cli *c, const struct cli_object *o,
			    const struct cli_cmd *k, int argc, char **argv)
{
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			cli_help(c, o, k);
			return -1;
		}
		for (const struct cli_option *g = cli_options; g->name; g++) {
			size_t len = strlen(g->name);

			/* --NAME or --NAME=VALUE; --help is above */
			if (g->val == 'h' || strncmp(argv[i], "--", 2) ||
			    strncmp(argv[i] + 2, g->name, len) ||
			    (argv[i][2 + len] && argv[i][2 + len] != '='))
				continue;
			return cli_error(c, EXIT_USAGE,
					 "'%s' is an option of damoctl: put it before '%s' (damoctl [OPTIONS] %s %s ...)",
					 argv[i], o->name, o->name, k->name);
		}
	}
	return EXIT_OK;
}

static int run(struct cli *c, int argc, char **argv)
{
	const struct cli_object *o;
	const struct cli_cmd *k;
	const char *name;
	int status;

	if (argc < 1) {
		/* "echo 'scheme list' | damoctl": the commands are on stdin */
		if (c->json)
			return cli_error(c, EXIT_USAGE,
					 "expected OBJECT COMMAND (see damoctl --help)");
		usage(c->err);
		if (!isatty(STDIN_FILENO))
			fprintf(c->err, "\nNo command given; to run the commands of standard input: damoctl -f -\n");
		return EXIT_USAGE;
	}
	if (!strcmp(argv[0], "version") && argc == 1) {
		if (c->json)
			json_print_version(c->out, DAMOS_VERSION, damos_version());
		else
			fprintf(c->out, "damoctl %s (libdamos %s)\n",
				DAMOS_VERSION, damos_version());
		return EXIT_OK;
	}
	o = cli_object_find(argv[0]);
	if (!o) {
		char list[256] = "";
		size_t n = 0;

		for (o = cli_objects; o->name; o++)
			n += snprintf(list + n, sizeof(list) - n, "%s%s",
				      n ? " " : "", o->name);
		return cli_error(c, EXIT_USAGE,
				 "unknown object '%s' (objects: %s)", argv[0],
				 list);
	}
	if (!strcmp(o->name, "help")) {
		if (argc < 2) {
			cli_help(c, NULL, NULL);
			return EXIT_OK;
		}
		o = cli_object_find(argv[1]);
		if (!o || !strcmp(o->name, "help"))
			return cli_error(c, EXIT_USAGE,
					 "help: unknown object '%s'", argv[1]);
		if (argc < 3) {
			cli_help(c, o, NULL);
			return EXIT_OK;
		}
		k = cmd_select(o->cmds, argv[2]);
		if (!k)
			return cli_error(c, EXIT_USAGE,
					 "help: %s has no command '%s'",
					 o->name, argv[2]);
		if (argc > 3)
			return cli_error(c, EXIT_USAGE,
					 "help: '%s' after %s %s (expected help [OBJECT [COMMAND]])",
					 argv[3], o->name, k->name);
		cli_help(c, o, k);
		return EXIT_OK;
	}
	c->object = o->name;
	if (o->run) {
		if (argc > 1 && is_help(argv[1])) {
			cli_help(c, o, NULL);
			return EXIT_OK;
		}
		snprintf(c->line, sizeof(c->line), "%s", o->name);
		for (int i = 1, n = strlen(c->line); i < argc &&
		     n < (int)sizeof(c->line); i++)
			n += snprintf(c->line + n, sizeof(c->line) - n, " %s",
				      argv[i]);
		c->hold_signals = true;
		status = cli_call_run(c, o->run,
				      !(argc > 1 && !strcmp(argv[1], "check")),
				      argc - 1, argv + 1);
		fflush(c->out);
		return status;
	}
	if (argc > 1 && is_help(argv[1])) {
		cli_help(c, o, NULL);
		return EXIT_OK;
	}
	/* "stats --watch 2": options go to the default command */
	if (argc > 1 && argv[1][0] == '-' && o->default_cmd) {
		k = cmd_select(o->cmds, o->default_cmd);
		if (k && (k->flags & CLI_WATCH))
			return cli_run_cmd(c, o, k, argc - 1, argv + 1);
	}
	name = argc > 1 ? argv[1] : o->default_cmd;
	k = cmd_select(o->cmds, name);
	if (!k) {
		char list[256] = "";
		size_t n = 0;

		for (k = o->cmds; k->name; k++)
			n += snprintf(list + n, sizeof(list) - n, "%s%s",
				      n ? " " : "", k->name);
		return cli_error(c, EXIT_USAGE,
				 "unknown command '%s' (commands: %s)", name,
				 list);
	}
	return cli_run_cmd(c, o, k, argc > 1 ? argc - 2 : 0,
			   argc > 1 ? argv + 2 : argv + 1);
}

/* The error prefix "OBJECT COMMAND: " holds for this command only. */
int cli_run(struct cli *c, int argc, char **argv)
{
	int status;

	c->object = NULL;
	c->command = NULL;
	status = run(c, argc, argv);
	c->object = NULL;
	c->command = NULL;
	return status;
}

/* Run command @k of @o with its arguments @argv. */
static int cli_run_cmd(struct cli *c, const struct cli_object *o,
		       const struct cli_cmd *k, int argc, char **argv)
{
	uint64_t watch_us = 0;
	long count = 0;
	int status = EXIT_OK;

	c->object = o->name;
	c->command = k->name;
	snprintf(c->line, sizeof(c->line), "%s %s", o->name, k->name);
	for (int i = 0, n = strlen(c->line); i < argc &&
	     n < (int)sizeof(c->line); i++)
		n += snprintf(c->line + n, sizeof(c->line) - n, " %s", argv[i]);
	status = misplaced_option(c, o, k, argc, argv);
	if (status)
		return status < 0 ? EXIT_OK : status;
	if (k->flags & CLI_WATCH)
		status = cli_watch_args(c, &argc, argv, &watch_us, &count);
	if (!status && c->kdamond_all && !(k->flags & CLI_ALL_KDAMONDS))
		status = cli_error(c, EXIT_USAGE, "--kdamond all: '%s %s' works on one kdamond (export damo and monitor status, start and stop take all)",
				   o->name, k->name);
	if (!status && !*k->args && argc)
		status = cli_error(c, EXIT_USAGE, "no arguments expected, got '%s'",
				   argv[0]);
	if (!status && watch_us)
		status = cli_watch(c, k, argc, argv, watch_us, count);
	else if (!status)
		status = cli_call(c, k, argc, argv);
	fflush(c->out);
	return status;
}

/*
 * The words that may follow argv[0..argc-1] (the words typed so far, the
 * one being completed excluded): objects, then commands, then the
 * command's keywords (actions first for "scheme add"/"scheme encode", the
 * fixed values after "quota" and "wmarks").
 * Returns a malloc()ed NULL-terminated array of static strings.
 */
const char **cli_complete_words(struct cli *c, int argc, char **argv)
{
	const char **out = calloc(64, sizeof(*out));
	const struct cli_object *o;
	const struct cli_cmd *k;
	int n = 0;

	if (!out)
		return NULL;
	if (argc == 0) {
		for (o = cli_objects; o->name && n < 63; o++)
			out[n++] = o->name;
		return out;
	}
	o = cli_object_find(argv[0]);
	if (!o)
		return out;
	if (!strcmp(o->name, "help")) {
		const struct cli_object *h = argc > 1 ? cli_object_find(argv[1]) : NULL;

		if (argc == 1)
			for (o = cli_objects; o->name && n < 63; o++)
				if (strcmp(o->name, "help"))
					out[n++] = o->name;
		if (argc == 2 && h)
			for (k = h->cmds; k->name && n < 63; k++)
				out[n++] = k->name;
		return out;
	}
	if (o->run) {
		if (o->run == record_run && argc >= 2)
			cli_complete_grammar(&record_grammar, argc - 2, argv + 2, out, &n);
		else if (argc == 1 && o->run == apply_run)
			out[n++] = "check";
		return out;
	}
	if (argc == 1) {
		for (k = o->cmds; k->name && n < 63; k++)
			out[n++] = k->name;
		return out;
	}
	k = cmd_select(o->cmds, argv[1]);
	if (!k)
		return out;
	if ((k->flags & CLI_INDEX) && argc == 2 && c) {
		n += cli_complete_indexes(c, out + n, 63 - n);
	} else if (k->grammar) {
		cli_complete_grammar(k->grammar, argc - 2, argv + 2, out, &n);
	} else if (k->flags & CLI_WATCH) {
		bool watch = false, count = false;
		const char *last = argv[argc - 1];

		for (int i = 2; i < argc; i++) {
			watch |= !strcmp(argv[i], "--watch");
			count |= !strcmp(argv[i], "--count");
		}
		/* after --watch or --count comes its value */
		if (strcmp(last, "--watch") && strcmp(last, "--count")) {
			if (!watch)
				out[n++] = "--watch";
			if (!count)
				out[n++] = "--count";
		}
	}
	return out;
}
