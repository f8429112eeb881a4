// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Every command runs under the lock of libdamos(3) "Locking": flock(2) on
 * <root>/run/damos (LOCK_EX to write, LOCK_SH to read or in a dry run),
 * held from before its first read to after its last write, waiting at
 * most --wait SECONDS; a batch holds it from its first line to its end, so
 * no other writer runs between its lines.  Whoever takes it first puts
 * back what a dead damoctl left half-written (its journal).  While a
 * writer holds it, SIGINT, SIGTERM and SIGHUP are held: the command ends
 * as before or as after, then damoctl says so and exits 128 + the signal.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static void held_set(sigset_t *s)
{
	sigemptyset(s);
	sigaddset(s, SIGINT);
	sigaddset(s, SIGTERM);
	sigaddset(s, SIGHUP);
}

int cli_lock(struct cli *c, bool exclusive, bool hold)
{
	struct damon_opts o;
	char w[32];
	int fd, r;

	if (c->lock_fd >= 0)
		return EXIT_OK;		/* a batch's, for all its lines */
	/* a dry run too: it ends with its plan so far and a message */
	hold = hold && exclusive;
	exclusive = exclusive && !c->dry_run;
	fd = damos_lock_take(c->root, exclusive, c->wait_us);
	if (fd == -ETIMEDOUT)
		return cli_error(c, EXIT_FAIL, "%s: waited %s (--wait SECONDS to wait longer)",
				 cli_errmsg(),
				 damos_format_time_us(c->wait_us, w, sizeof(w)));
	/*
	 * A reader that cannot make or open the lock (not root, a read-only
	 * root) reads unlocked; what it reads says whether it may.
	 */
	if (fd < 0 && !exclusive && (fd == -EACCES || fd == -EROFS || fd == -ENOENT))
		return EXIT_OK;
	if (fd == -EACCES && geteuid())
		return cli_error(c, EXIT_FAIL, "%s (DAMON's files need root)",
				 cli_errmsg());
	if (fd < 0)
		return cli_lib_error(c, fd);
	c->lock_fd = fd;
	if (!c->dry_run) {
		cli_opts(c, &o);
		r = damos_journal_recover(fd, &o, c->wait_us);
		if (r == 1) {
			fprintf(c->err, "damoctl: %s\n", cli_errmsg());
		} else if (r < 0) {
			r = cli_lib_error(c, r);
			cli_unlock(c, r);
			return r;
		}
	}
	if (hold) {
		sigset_t s;

		held_set(&s);
		sigprocmask(SIG_BLOCK, &s, &c->sigmask);
		c->holding = true;
	}
	return EXIT_OK;
}

int cli_unlock(struct cli *c, int status)
{
	struct timespec zero = { 0, 0 };
	sigset_t s;
	int sig;

	damos_lock_release(c->lock_fd);
	c->lock_fd = -1;
	if (!c->holding)
		return status;
	c->holding = false;
	held_set(&s);
	sig = sigtimedwait(&s, NULL, &zero);
	sigprocmask(SIG_SETMASK, &c->sigmask, NULL);
	if (sig <= 0)
		return status;
	c->signalled = sig;
	fflush(c->out);
	fprintf(c->err, "damoctl: %s%sSIG%s came while writing: held until %s; stopping\n",
		c->where ? c->where : "", c->where ? ": " : "",
		sigabbrev_np(sig) ? sigabbrev_np(sig) : "?",
		c->dry_run ? "the dry run ended" :
		status == EXIT_OK ? "the change was made" :
		status == EXIT_RESTORE ? "the restore ended (see above)" :
		"the files were as before");
	return 128 + sig;
}

void cli_lock_pause(struct cli *c)
{
	if (c->lock_fd < 0 || c->batch_locked || c->holding)
		return;
	damos_lock_release(c->lock_fd);
	c->lock_fd = -1;
	c->lock_paused = true;
}

int cli_lock_resume(struct cli *c)
{
	if (!c->lock_paused)
		return EXIT_OK;
	c->lock_paused = false;
	return cli_lock(c, false, false);
}

int cli_call_run(struct cli *c, int (*fn)(struct cli *, int, char **),
		 bool exclusive, int argc, char **argv)
{
	bool mine = c->lock_fd < 0;
	FILE *saved;
	char *buf;
	size_t len;
	int status;

	json_begin(c, &saved, &buf, &len);
	status = cli_lock(c, exclusive, c->hold_signals);
	if (!status) {
		status = fn(c, argc, argv);
		if (mine)
			status = cli_unlock(c, status);
	}
	json_end(c, saved, &buf, &len, status);
	return status;
}

int cli_call(struct cli *c, const struct cli_cmd *k, int argc, char **argv)
{
	FILE *saved;
	char *buf;
	size_t len;
	int status;

	c->writing = k->flags & CLI_WRITE;
	c->hold_signals = !(k->flags & CLI_NOHOLD);
	if (!(k->flags & CLI_NOLOCK))
		return cli_call_run(c, k->fn, k->flags & CLI_WRITE, argc, argv);
	json_begin(c, &saved, &buf, &len);
	status = k->fn(c, argc, argv);
	json_end(c, saved, &buf, &len, status);
	return status;
}
