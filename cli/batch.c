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

	err = damos_words_split(line, &argc, &argv);
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
	damos_words_free(argc, argv);
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

	if (is_quit(cmd))
		return false;
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

/*
 * A line ending in a backslash goes on on the next one; errors name the
 * first line of the command.  Without --force the first failure stops the
 * batch; with it, every failure is reported and the status is that of the
 * first one.
 */
int cli_batch(struct cli *c, const char *file)
{
	struct batch b = { .name = strcmp(file, "-") ? file : "<stdin>" };
	FILE *f = strcmp(file, "-") ? fopen(file, "r") : stdin;
	char *line = NULL, *cmd = NULL;
	size_t cap = 0, cmd_len = 0;
	unsigned long nr = 0, first = 0;
	bool go = true;
	int read_err;
	ssize_t n;

	if (!f)
		return cli_error(c, EXIT_FAIL, "%s: %s", file, strerror(errno));
	while (go && (n = getline(&line, &cap, f)) >= 0) {
		bool more;
		char *nc;

		nr++;
		/* as apply: a NUL would cut the command short, silently */
		if (memchr(line, '\0', n)) {
			char where[512];
			int st;

			snprintf(where, sizeof(where), "%s:%lu", b.name, nr);
			c->where = where;
			st = cli_error(c, EXIT_USAGE, "a NUL byte in the line (is this a text file?)");
			c->where = NULL;
			b.nr_failed++;
			if (!b.status)
				b.status = st;
			cmd_len = 0;
			if (!c->force)
				break;
			continue;
		}
		if (n && line[n - 1] == '\n')
			line[--n] = '\0';
		more = n && line[n - 1] == '\\';
		if (more)
			line[--n] = '\0';
		if (!cmd_len)
			first = nr;
		nc = realloc(cmd, cmd_len + n + 2);
		if (!nc) {
			b.status = cli_error(c, EXIT_FAIL, "out of memory");
			break;
		}
		cmd = nc;
		memcpy(cmd + cmd_len, line, n);
		cmd_len += n;
		cmd[cmd_len++] = ' ';
		cmd[cmd_len] = '\0';
		if (more)
			continue;
		cmd_len = 0;
		go = run_one(c, &b, cmd, first);
	}
	read_err = ferror(f) ? (errno ? errno : EIO) : 0;
	if (go && cmd_len)	/* a backslash on the last line */
		run_one(c, &b, cmd, first);
	/* a directory, an I/O error: not the end of the file */
	if (read_err && !b.status)
		b.status = cli_error(c, EXIT_FAIL, "%s: %s", file,
				     strerror(read_err));
	if (c->force && b.nr_failed)
		cli_error(c, b.status, "%s: %lu of %lu commands failed", b.name,
			  b.nr_failed, b.nr_cmds);
	free(line);
	free(cmd);
	if (f != stdin)
		fclose(f);
	return b.status;
}
