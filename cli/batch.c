// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * damoctl -f FILE | -f -: one command line a line, run by the same
 * dispatcher as argv and the shell.  Errors are prefixed with FILE:LINE.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* One line: split, skip blanks and comments, run.  "quit" ends a batch. */
int cli_run_line(struct cli *c, const char *line)
{
	char **argv;
	int argc, err, status;

	err = cli_words_split(line, &argc, &argv);
	if (err == -EINVAL)
		return cli_error(c, EXIT_USAGE, "unterminated quote");
	if (err)
		return cli_error(c, EXIT_FAIL, "out of memory");
	if (!argc)
		status = EXIT_OK;
	else if (!strcmp(argv[0], "damoctl"))
		status = cli_error(c, EXIT_USAGE,
				   "a command line here is what follows \"damoctl\": leave it out (%s%s%s)",
				   argc > 1 ? argv[1] : "scheme", argc > 2 ? " " : "",
				   argc > 2 ? argv[2] : argc > 1 ? "" : " list");
	else if (argv[0][0] == '-')
		status = cli_error(c, EXIT_USAGE,
				   "'%s': options go on the damoctl command line, not in a command",
				   argv[0]);
	else
		status = cli_run(c, argc, argv);
	cli_words_free(argc, argv);
	return status;
}

static bool is_quit(const char *line)
{
	char word[8];

	return sscanf(line, " %7s", word) == 1 &&
	       (!strcmp(word, "quit") || !strcmp(word, "exit"));
}

struct batch {
	const char *name;
	unsigned long nr_cmds;
	unsigned long nr_failed;
	int status;
};

/* Returns false when the batch must stop. */
static bool run_one(struct cli *c, struct batch *b, const char *cmd,
		    unsigned long line)
{
	const char *p = cmd + strspn(cmd, " \t");
	char where[512];
	int st;

	if (!*p || *p == '#')
		return true;
	if (*p && *p != '#')
		b->nr_cmds++;
	snprintf(where, sizeof(where), "%s:%lu", b->name, line);
	c->where = where;
	st = cli_run_line(c, cmd);
	c->where = NULL;
	if (!st)
		return true;
	b->nr_failed++;
	if (!b->status)
		b->status = st;
	return c->force;
}

#define NUL_LINE "\x01"
#define NUL_MSG "a NUL byte in the line (is this a text file?)"

/* The commands of a file, read whole before any runs. */
struct cmds {
	char **cmd;
	unsigned long *line;
	size_t n;
};

static int cmds_add(struct cmds *v, const char *cmd, unsigned long line)
{
	/* doubling: a realloc that copies (ASan's does) stays linear */
	size_t cap = v->n < 16 ? 16 : v->n * 2;
	char **c = v->cmd;
	unsigned long *l = v->line;

	if (!v->n || (v->n >= 16 && !(v->n & (v->n - 1)))) {
		c = realloc(v->cmd, cap * sizeof(*c));
		if (c)
			v->cmd = c;
		l = c ? realloc(v->line, cap * sizeof(*l)) : NULL;
		if (l)
			v->line = l;
	}
	if (!l || !(c[v->n] = strdup(cmd)))
		return -ENOMEM;
	l[v->n++] = line;
	return 0;
}

static void cmds_free(struct cmds *v)
{
	for (size_t i = 0; i < v->n; i++)
		free(v->cmd[i]);
	free(v->cmd);
	free(v->line);
}

/* An error of line @line before any command runs. */
static int line_error(struct cli *c, struct batch *b, unsigned long line,
		      int status, const char *msg)
{
	char where[512];
	int st;

	snprintf(where, sizeof(where), "%s:%lu", b->name, line);
	c->where = where;
	st = cli_error(c, status, "%s", msg);
	c->where = NULL;
	b->nr_failed++;
	if (!b->status)
		b->status = st;
	return st;
}

/*
 * A line ending in a backslash goes on on the next one; errors name the
 * first line of the command.  The whole file is read and its lines split
 * first: a NUL byte or an unterminated quote anywhere runs nothing.
 * Without --force the batch is one transaction (damos_txn_begin()): the
 * first failure stops it and puts the files back as they were before its
 * first line; with it, every command is its own, every failure is
 * reported and the status is that of the first one.  Either way the lock
 * is held from the first line to the end (cli_lock()): no other writer's
 * change comes between two lines, or is undone by the batch's rollback.
 */
int cli_batch(struct cli *c, const char *file)
{
	struct batch b = { .name = strcmp(file, "-") ? file : "<stdin>" };
	FILE *f = strcmp(file, "-") ? fopen(file, "r") : stdin;
	struct cmds v = { 0 };
	char *line = NULL, *cmd = NULL;
	size_t cap = 0, cmd_len = 0;
	unsigned long nr = 0, first = 0;
	bool go = true, quit = false, txn, locked = false;
	int read_err, err, st;
	ssize_t n;

	if (!f)
		return cli_error(c, EXIT_FAIL, "%s: %s", file, strerror(errno));
	while (!quit && (n = getline(&line, &cap, f)) >= 0) {
		bool more;

		nr++;
		/* as apply: a NUL would cut the command short, silently */
		if (memchr(line, '\0', n)) {
			cmd_len = 0;
			/* --force: reported in its turn */
			if (c->force && !cmds_add(&v, NUL_LINE, nr))
				continue;
			line_error(c, &b, nr, EXIT_USAGE, NUL_MSG);
			break;
		}
		if (n && line[n - 1] == '\n')
			line[--n] = '\0';
		more = n && line[n - 1] == '\\';
		if (more)
			line[--n] = '\0';
		if (!cmd_len)
			first = nr;
		if (cli_line_append(&cmd, &cmd_len, line, n)) {
			b.status = cli_error(c, EXIT_FAIL, "out of memory");
			break;
		}
		if (more)
			continue;
		cmd_len = 0;
		quit = is_quit(cmd);
		if (!quit && cmds_add(&v, cmd, first)) {
			b.status = cli_error(c, EXIT_FAIL, "out of memory");
			break;
		}
	}
	/* getline's ENOMEM sets no error flag: not the end of the file either */
	read_err = ferror(f) || (n < 0 && !feof(f)) ? (errno ? errno : EIO) : 0;
	if (!quit && cmd_len && cmds_add(&v, cmd, first))	/* a backslash on the last line */
		b.status = cli_error(c, EXIT_FAIL, "out of memory");
	/* a directory, an I/O error: not the end of the file */
	if (read_err && !b.status)
		b.status = cli_error(c, EXIT_FAIL, "%s: %s", file,
				     strerror(read_err));
	/* every line splits into words before any runs */
	for (size_t i = 0; i < v.n && !c->force && !b.status; i++) {
		char **argv;
		int argc;

		err = cli_words_split(v.cmd[i], &argc, &argv);
		if (err == -EINVAL) {
			line_error(c, &b, v.line[i], EXIT_USAGE, "unterminated quote");
		} else if (err) {
			b.status = cli_error(c, EXIT_FAIL, "out of memory");
		} else {
			cli_words_free(argc, argv);
		}
	}
	if (b.status && !c->force)
		go = false;
	/* one lock from the first line to the end: no writer in between */
	locked = go && !(st = cli_lock(c, true, true));
	c->batch_locked = locked;
	if (go && !locked) {
		b.status = st;
		go = false;
	}
	txn = go && !c->force;
	if (txn && (err = damos_txn_begin(NULL))) {
		txn = go = false;
		b.status = cli_lib_error(c, err);
	}
	/* one setup for the edits in a row (cli/setup.c), applied once */
	c->batch_edits = txn;
	for (size_t i = 0; go && i < v.n; i++)
		if (!strcmp(v.cmd[i], NUL_LINE))
			line_error(c, &b, v.line[i], EXIT_USAGE, NUL_MSG);
		else
			go = run_one(c, &b, v.cmd[i], v.line[i]);
	if (go && !b.status && (st = cli_setup_flush(c))) {
		b.nr_failed++;
		b.status = st;
	}
	cli_setup_drop(c);
	c->batch_edits = false;
	if (txn && !b.status) {
		/* a running kdamond's commit, once the files read back */
		err = damos_txn_end(NULL, 0);
		if (err)
			b.status = cli_lib_error(c, err);
	} else if (txn) {
		err = damos_txn_end(NULL, -ECANCELED);
		if (err == -ENOTRECOVERABLE)
			b.status = cli_lib_error(c, err);
		else if (b.nr_cmds > 1)
			cli_error(c, b.status, "%s: nothing of it was applied: the files are as before line %lu",
				  b.name, v.line[0]);
	}
	if (c->force && b.nr_failed)
		cli_error(c, b.status, "%s: %lu of %lu commands failed", b.name,
			  b.nr_failed, b.nr_cmds);
	if (locked)
		b.status = cli_unlock(c, b.status);
	c->batch_locked = false;
	cmds_free(&v);
	free(line);
	free(cmd);
	if (f != stdin)
		fclose(f);
	return b.status;
}
