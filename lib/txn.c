// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * Transactions (damos.h, damos_txn_begin()): a snapshot of every file of
 * the interfaces a transaction writes to, taken before its first write;
 * on a failure, the files written back and read again.  SQLite's rollback
 * journal is the model, with the kernel's files as the database: no write
 * of ours is left behind a failed one.
 */
#include <errno.h>
#include <stddef.h>
#include <sys/file.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

struct txn_dir {
	struct damon_ctx *d;	/* held (d->refs) until the end */
	char *dir;		/* d->top when it joined */
	const char *kind;	/* the journal's: sysfs, dbgfs, module */
	struct damos_snap snap;
	size_t nr_restored;	/* files a restore wrote */
};

struct txn_write {
	char *path, *content;
};

static __thread struct {
	int depth;
	bool restoring;
	struct txn_dir *dirs;
	size_t nr_dirs;
	struct txn_write *w;		/* what was written, for the check */
	size_t nr_w;
	struct damon_ctx **commit_d;	/* kdamonds to commit at the end */
	char **commit;
	size_t nr_commit;
	size_t stopped;			/* 1 + the commit that stopped its kdamond */
	char *root;			/* the handles' root: the journal's */
	bool journaled;
} txn;

static const char *base_of(const char *p)
{
	const char *b = strrchr(p, '/');

	return b ? b + 1 : p;
}

/* The files a restore does not write: the kernel's, or commands. */
static bool restore_skips(const char *rel)
{
	static const char *const names[] = {
		"state", "pid", "kdamond_pid", "monitor_on",
		"monitor_on_DEPRECATED", "avail_operations",
	};
	const char *b = base_of(rel);

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(b, names[i]))
			return true;
	return false;
}

/*
 * A file's value for comparing and writing back: without the trailing
 * newlines; dbgfs "schemes" without the statistics a read adds to each
 * line (the fields after DBGFS_NR_INPUTS).
 */
static char *norm(const char *rel, const char *c)
{
	size_t len = strlen(c);
	struct damos_buf b = { 0 };

	while (len && c[len - 1] == '\n')
		len--;
	if (strcmp(base_of(rel), "schemes"))
		return strndup(c, len);
	char *copy = strndup(c, len), *save = NULL;

	if (!copy)
		return NULL;
	for (char *l = strtok_r(copy, "\n", &save); l;
	     l = strtok_r(NULL, "\n", &save)) {
		char *ws = NULL;
		int k = 0;

		for (char *w = strtok_r(l, " \t", &ws); w && k < DBGFS_NR_INPUTS;
		     w = strtok_r(NULL, " \t", &ws), k++)
			damos_buf_printf(&b, "%s%s", k ? " " : "", w);
		damos_buf_printf(&b, "\n");
	}
	free(copy);
	if (b.err) {
		damos_buf_free(&b);
		return NULL;
	}
	if (b.len)
		b.s[--b.len] = '\0';
	return b.s ? b.s : strdup("");
}

/* Files that keep the bytes as written (a fake tree): compare them all. */
static bool same_in(struct damon_ctx *d, const char *rel, const char *a,
		    const char *b);

static bool same(const char *rel, const char *a, const char *b)
{
	char *x = norm(rel, a), *y = norm(rel, b);
	bool eq = x && y && !strcmp(x, y);

	free(x);
	free(y);
	return eq;
}

static bool same_in(struct damon_ctx *d, const char *rel, const char *a,
		    const char *b)
{
	return damos_io_query(d, DAMOS_IO_Q_EXACT) == 1 ? !strcmp(a, b) :
							   same(rel, a, b);
}

/* The snapshots, durable before the first write they guard (journal.c). */
static int journal_save(void)
{
	struct damos_journal_dir *jd = calloc(txn.nr_dirs + 1, sizeof(*jd));
	int err;

	if (!jd)
		return damos_err(-ENOMEM, "out of memory");
	for (size_t i = 0; i < txn.nr_dirs; i++)
		jd[i] = (struct damos_journal_dir){ txn.dirs[i].kind,
						    txn.dirs[i].dir,
						    &txn.dirs[i].snap };
	err = damos_journal_save(txn.root, jd, txn.nr_dirs);
	free(jd);
	if (!err)
		txn.journaled = true;
	return err;
}

static const char *kind_of(const struct damon_ctx *d)
{
	if (d->admin && !strcmp(d->top, d->admin))
		return "sysfs";
	if (d->dbgfs && !strcmp(d->top, d->dbgfs))
		return "dbgfs";
	return "module";
}

static int join(struct damon_ctx *d)
{
	struct txn_dir *t;
	int err;

	if (!d || damos_io_query(d, DAMOS_IO_Q_RECORDED) == 1 || !d->top)
		return 0;
	for (size_t i = 0; i < txn.nr_dirs; i++)
		if (!strcmp(txn.dirs[i].dir, d->top))
			return 0;
	t = realloc(txn.dirs, (txn.nr_dirs + 1) * sizeof(*t));
	if (!t)
		return damos_err(-ENOMEM, "out of memory");
	txn.dirs = t;
	t = &txn.dirs[txn.nr_dirs];
	memset(t, 0, sizeof(*t));
	t->dir = strdup(d->top);
	if (!t->dir)
		return damos_err(-ENOMEM, "out of memory");
	if (!damos_exists(d, t->dir)) {
		/* nothing there to keep (damon_open() would have said) */
		free(t->dir);
		return 0;
	}
	err = damos_snap_read(d, t->dir, &t->snap);
	if (err) {
		damos_snap_free_files(&t->snap);
		free(t->dir);
		return damos_err_prefix(err, "cannot read what to restore on a failure: ");
	}
	t->d = d;
	t->kind = kind_of(d);
	if (!txn.root && !(txn.root = strdup(d->root)))
		err = damos_err(-ENOMEM, "out of memory");
	txn.nr_dirs++;
	if (!err)
		err = journal_save();
	if (err) {
		txn.nr_dirs--;
		damos_snap_free_files(&t->snap);
		free(t->dir);
		return err;
	}
	d->refs++;
	return 0;
}

int damos_txn_begin(struct damon_ctx *d)
{
	int err = join(d);

	if (!err)
		txn.depth++;
	return err;
}

/*
 * Whether the snapshot has a file in @rel's directory: a file missing
 * from a directory the snapshot read was left out (it read EBUSY); one in
 * a directory made since (a new scheme's) was not there to keep.
 */
static bool in_snap_dir(const struct damos_snap *sn, const char *rel)
{
	size_t n = base_of(rel) - rel;

	for (size_t i = 0; i < sn->n; i++)
		if (base_of(sn->f[i].rel) - sn->f[i].rel == (ptrdiff_t)n &&
		    !strncmp(sn->f[i].rel, rel, n))
			return true;
	return false;
}

/*
 * A file of a joined directory that the snapshot left out because it read
 * EBUSY (dbgfs's init_regions while monitoring is on) is read now, before
 * its first write: the write can only succeed once the file is readable,
 * so the snapshot still holds every file a transaction changed.
 */
void damos_txn_before_write(struct damon_ctx *d, const char *path)
{
	(void)d;
	if (!txn.depth || txn.restoring)
		return;
	for (size_t i = 0; i < txn.nr_dirs; i++) {
		struct txn_dir *t = &txn.dirs[i];
		size_t n = strlen(t->dir);
		struct damos_snap_file *f;
		char *rel, *content = NULL;

		if (strncmp(path, t->dir, n) || path[n] != '/')
			continue;
		/* most snapshots left nothing out: no search on each write */
		if (!t->snap.nr_busy || damos_snap_get(&t->snap, path + n + 1) ||
		    !in_snap_dir(&t->snap, path + n + 1) || !damos_exists(d, path) ||
		    damos_read(t->d, path, &content))
			return;
		rel = strdup(path + n + 1);
		f = rel ? realloc(t->snap.f, (t->snap.n + 1) * sizeof(*f)) : NULL;
		if (!f) {
			free(rel);
			free(content);
			return;
		}
		t->snap.f = f;
		f[t->snap.n++] = (struct damos_snap_file){ rel, content, true };
		t->snap.nr_busy--;
		journal_save();
		return;
	}
}

void damos_txn_note_write(struct damon_ctx *d, const char *path,
			  const char *content)
{
	struct txn_write *w;
	size_t n;

	(void)d;
	if (!txn.depth || txn.restoring)
		return;
	/* an nr_* file recreates what is below its directory */
	if (!strncmp(base_of(path), "nr_", 3)) {
		n = base_of(path) - path;
		for (size_t i = 0; i < txn.nr_w; )
			if (!strncmp(txn.w[i].path, path, n) &&
			    strcmp(txn.w[i].path, path)) {
				free(txn.w[i].path);
				free(txn.w[i].content);
				txn.w[i] = txn.w[--txn.nr_w];
			} else {
				i++;
			}
	}
	for (size_t i = 0; i < txn.nr_w; i++)
		if (!strcmp(txn.w[i].path, path)) {
			char *c = strdup(content);

			if (c) {
				free(txn.w[i].content);
				txn.w[i].content = c;
			}
			return;
		}
	w = realloc(txn.w, (txn.nr_w + 1) * sizeof(*w));
	if (!w)
		return;
	txn.w = w;
	w[txn.nr_w].path = strdup(path);
	w[txn.nr_w].content = strdup(content);
	if (w[txn.nr_w].path && w[txn.nr_w].content)
		txn.nr_w++;
	else {
		free(w[txn.nr_w].path);
		free(w[txn.nr_w].content);
	}
}

bool damos_txn_defer_commit(struct damon_ctx *d, const char *state_path)
{
	struct damon_ctx **cd;
	char **c;

	/* a dry run's too: its plan commits where the change will */
	if (!txn.depth)
		return false;
	for (size_t i = 0; i < txn.nr_commit; i++)
		if (!strcmp(txn.commit[i], state_path))
			return true;
	cd = realloc(txn.commit_d, (txn.nr_commit + 1) * sizeof(*cd));
	if (cd)
		txn.commit_d = cd;
	c = cd ? realloc(txn.commit, (txn.nr_commit + 1) * sizeof(*c)) : NULL;
	if (c)
		txn.commit = c;
	if (!c || !(c[txn.nr_commit] = strdup(state_path)))
		return false;	/* commit now, as without a transaction */
	cd[txn.nr_commit++] = d;
	d->refs++;
	return true;
}

/* The staged files read back as written: -EIO with a message if not. */
static int check_written(void)
{
	for (size_t i = 0; i < txn.nr_w; i++) {
		const struct txn_write *w = &txn.w[i];
		char *now = NULL;
		int err;

		if (!strcmp(base_of(w->path), "state"))
			continue;
		err = damos_read(txn.commit_d[0], w->path, &now);
		if (err)
			return err;
		if (!same(w->path, now, w->content)) {
			char *x = norm(w->path, now), *y = norm(w->path, w->content);

			err = damos_err(-EIO, "%s reads '%s' after '%s' was written: not committed",
					w->path, x ? x : "?", y ? y : "?");
			free(x);
			free(y);
			free(now);
			return err;
		}
		free(now);
	}
	return 0;
}

static int commit_all(void)
{
	int err = txn.nr_commit ? check_written() : 0;

	for (size_t i = 0; i < txn.nr_commit && !err; i++) {
		char word[16] = "";

		/* only a kdamond that still runs takes a commit */
		if (damos_read_word(txn.commit_d[i], txn.commit[i], word,
				    sizeof(word)) || strcmp(word, "on"))
			continue;
		/* what the kernel would refuse only when it applies the files */
		err = damos_sysfs_commit_check(txn.commit_d[i], txn.commit[i]);
		if (err)
			break;
		err = damos_write(txn.commit_d[i], txn.commit[i], "commit\n");
		/*
		 * Stock Linux stops the kdamond on files it refuses and returns
		 * 0; with the damos series 6.1 returns the error and stops it,
		 * 6.12 returns the error and keeps it running.
		 */
		if (!damos_sysfs_commit_stopped(txn.commit_d[i], txn.commit[i]))
			continue;
		txn.stopped = i + 1;
		if (err) {
			char why[512];

			snprintf(why, sizeof(why), "%s", damos_errmsg());
			damos_err(err, "%s; the kernel stopped the kdamond on it",
				  why);
		} else {
			err = damos_err(-ECANCELED, "%s: the kernel stopped the kdamond on \"commit\": it refused the files (Linux tells the writer no error)",
					txn.commit[i]);
		}
	}
	return err;
}

/*
 * After the restore: start again the kdamond that a refused commit stopped,
 * on the files as they were.  0, or -ENOTRECOVERABLE with the reason in
 * @left.
 */
static int restart_stopped(struct damos_buf *left)
{
	size_t i = txn.stopped - 1;
	char *pid = NULL;
	int err;

	if (!txn.stopped)
		return 0;
	err = damos_write(txn.commit_d[i], txn.commit[i], "on\n");
	if (err) {
		damos_buf_printf(left, ", but the kdamond could not be started again on them: %s",
				 damos_errmsg());
		return -ENOTRECOVERABLE;
	}
	pid = damos_path("%.*s/pid", (int)(strrchr(txn.commit[i], '/') - txn.commit[i]),
			 txn.commit[i]);
	if (pid) {
		char word[32] = "?";

		damos_read_word(txn.commit_d[i], pid, word, sizeof(word));
		damos_buf_printf(left, "; the files were put back as they were and the kdamond started again on them (pid %s; its monitoring results start anew)",
				 word);
	}
	free(pid);
	return 0;
}

/* Write back what differs from @t's snapshot; then whether all is back. */
static int restore_dir(struct txn_dir *t, struct damos_buf *left)
{
	struct damos_snap now = { 0 };
	int err = 0;

	for (int pass = 0; pass < 3; pass++) {
		/*
		 * A module's "enabled" last: started again, it takes the
		 * parameters as they are then.
		 */
		for (size_t j = 0; j < 2 * t->snap.n; j++) {
			size_t i = j % t->snap.n;
			const struct damos_snap_file *f = &t->snap.f[i];
			char *p, *cur = NULL, *c;

			if (!f->writable || restore_skips(f->rel) ||
			    (j < t->snap.n) == !strcmp(f->rel, "enabled"))
				continue;
			p = damos_path("%s/%s", t->dir, f->rel);
			if (!p)
				return damos_err(-ENOMEM, "out of memory");
			if (damos_exists(t->d, p) && !damos_read(t->d, p, &cur) &&
			    same_in(t->d, f->rel, cur, f->content)) {
				free(cur);
				free(p);
				continue;
			}
			free(cur);
			if (damos_io_query(t->d, DAMOS_IO_Q_EXACT) == 1) {
				if (!damos_write(t->d, p, f->content))
					t->nr_restored++;
				free(p);
				continue;
			}
			c = norm(f->rel, f->content);
			if (c) {
				/* memcg_path keeps what it is given, newline included */
				char *line = damos_path("%s%s", c,
							!strcmp(base_of(f->rel), "memcg_path") ? "" : "\n");

				if (line && !damos_write(t->d, p, line))
					t->nr_restored++;
				free(line);
			}
			free(c);
			free(p);
		}
		damos_snap_free_files(&now);
		err = damos_snap_read(t->d, t->dir, &now);
		if (err)
			continue;
		/* the same writable files, with the same values */
		size_t nr_left = 0;
		bool ok = true;

		for (size_t i = 0; i < t->snap.n; i++) {
			const struct damos_snap_file *f = &t->snap.f[i];
			const char *c;

			if (!f->writable || restore_skips(f->rel))
				continue;
			c = damos_snap_get(&now, f->rel);
			if (c && same_in(t->d, f->rel, c, f->content))
				continue;
			ok = false;
			if (pass == 2 && nr_left++ < 8) {
				char *x = c ? norm(f->rel, c) : NULL,
				     *y = norm(f->rel, f->content);

				damos_buf_printf(left, "; %s/%s is %s%s%s, was '%s'",
						 t->dir, f->rel, c ? "'" : "",
						 c ? (x ? x : "?") : "missing",
						 c ? "'" : "", y ? y : "?");
				free(x);
				free(y);
			}
		}
		for (size_t i = 0; i < now.n; i++) {
			const struct damos_snap_file *f = &now.f[i];

			if (!f->writable || restore_skips(f->rel) ||
			    damos_snap_get(&t->snap, f->rel))
				continue;
			ok = false;
			if (pass == 2 && nr_left++ < 8)
				damos_buf_printf(left, "; %s/%s is new", t->dir,
						 f->rel);
		}
		if (pass == 2 && nr_left > 8)
			damos_buf_printf(left, "; and %zu more", nr_left - 8);
		if (ok) {
			damos_snap_free_files(&now);
			return 0;
		}
	}
	damos_snap_free_files(&now);
	if (err && !left->len)
		damos_buf_printf(left, "; %s cannot be read back", t->dir);
	return -ENOTRECOVERABLE;
}

/*
 * A sysfs tree put back: the kdamonds that ran before the change and are
 * off now (stopped by it, to write nr_kdamonds) started again on the files
 * put back.  Said in @left.
 */
static void restart_was_on(struct txn_dir *t, struct damos_buf *left)
{
	bool dbgfs = !strcmp(t->kind, "dbgfs");

	if (!dbgfs && strcmp(t->kind, "sysfs"))
		return;
	for (size_t i = 0; i < t->snap.n; i++) {
		const struct damos_snap_file *f = &t->snap.f[i];
		unsigned int k = 0;
		int n = 0;
		char *p, word[16] = "";

		/* dbgfs: its one monitoring, "kdamond 0" in what is said */
		if (dbgfs ? strcmp(f->rel, "monitor_on") && strcmp(f->rel, "monitor_on_DEPRECATED") :
			    sscanf(f->rel, "kdamonds/%u/state%n", &k, &n) != 1 || f->rel[n])
			continue;
		if (strncmp(f->content, "on", 2))
			continue;
		p = damos_path("%s/%s", t->dir, f->rel);
		if (!p || damos_read_word(t->d, p, word, sizeof(word)) ||
		    strcmp(word, "off")) {
			free(p);
			continue;
		}
		if (damos_write(t->d, p, "on\n")) {
			if (dbgfs)
				damos_buf_printf(left, "; monitoring ran before and could not be started again: %s",
						 damos_errmsg());
			else
				damos_buf_printf(left, "; kdamond %u ran before and could not be started again: %s",
						 k, damos_errmsg());
		} else if (dbgfs) {
			damos_buf_printf(left, "; monitoring, which the change had stopped, started again on them");
		} else {
			damos_buf_printf(left, "; kdamond %u, which the change had stopped, started again on them",
					 k);
		}
		free(p);
	}
}

static void txn_reset(void)
{
	for (size_t i = 0; i < txn.nr_dirs; i++) {
		damos_snap_free_files(&txn.dirs[i].snap);
		free(txn.dirs[i].dir);
		damon_close(txn.dirs[i].d);
	}
	free(txn.dirs);
	for (size_t i = 0; i < txn.nr_w; i++) {
		free(txn.w[i].path);
		free(txn.w[i].content);
	}
	free(txn.w);
	for (size_t i = 0; i < txn.nr_commit; i++) {
		free(txn.commit[i]);
		damon_close(txn.commit_d[i]);
	}
	free(txn.commit);
	free(txn.commit_d);
	free(txn.root);
	memset(&txn, 0, sizeof(txn));
}

/* The layers of @d learn that its change is done (after every check). */
static int changed(struct damon_ctx *d, int err)
{
	if (d && !err)
		damos_io_event(d, DAMOS_IO_EV_CHANGED);
	return err;
}

int damos_txn_end(struct damon_ctx *d, int err)
{
	if (txn.depth <= 0)
		return changed(d, err);
	if (--txn.depth)
		return changed(d, err);
	if (!err)
		err = commit_all();
	if (err && txn.nr_dirs) {
		char first[512];
		struct damos_buf left = { 0 };
		int bad = 0;

		snprintf(first, sizeof(first), "%s", damos_errmsg());
		txn.restoring = true;
		for (size_t i = txn.nr_dirs; i-- > 0; )
			if (restore_dir(&txn.dirs[i], &left))
				bad = -ENOTRECOVERABLE;
		txn.restoring = false;
		int unrestarted = bad ? 0 : restart_stopped(&left);

		for (size_t i = 0; !bad && i < txn.nr_dirs; i++)
			if (txn.dirs[i].d)
				restart_was_on(&txn.dirs[i], &left);
		if (unrestarted) {
			err = damos_err(-ENOTRECOVERABLE, "%s; the files were put back as they were%s",
					first, left.s ? left.s : "");
		} else if (bad) {
			err = damos_err(bad, "%s; and the files could not be put back as they were%s",
					first[0] ? first : strerror(-err),
					left.s ? left.s : "");
		} else if (left.s) {
			damos_err(err, "%s%s", first, left.s);
		} else if (strcmp(damos_errmsg(), first)) {
			/* a failure of the restore's that it got past */
			damos_err(err, "%s", first);
		}
		damos_buf_free(&left);
	}
	/* committed or put back (or said what is left how): done with it */
	if (txn.journaled)
		damos_journal_remove(txn.root);
	txn_reset();
	return changed(d, err);
}

/* A restored sysfs tree's running kdamonds take the files put back. */
static void commit_running(struct damon_ctx *d, const char *admin,
			   struct damos_buf *left)
{
	for (int k = 0; k < 4096; k++) {
		char *state = damos_path("%s/kdamonds/%d/state", admin, k), word[16] = "";

		if (!state || !damos_exists(d, state)) {
			free(state);
			return;
		}
		if (!damos_read_word(d, state, word, sizeof(word)) &&
		    !strcmp(word, "on") && damos_write(d, state, "commit\n"))
			damos_buf_printf(left, "; %s: commit: %s", state,
					 damos_errmsg());
		free(state);
	}
}

int damos_journal_recover(int lockfd, const struct damon_opts *opts,
			  uint64_t wait_us)
{
	struct damos_journal j;
	struct damos_buf left = { 0 };
	char *root, *lockdir = NULL;
	int err, bad = 0;

	if (txn.depth)
		return 0;	/* ours, alive */
	root = damos_root_norm(opts ? opts->root : NULL);
	if (!root)
		return damos_err(-ENOMEM, "out of memory");
	err = damos_journal_read(root, &j);
	if (err)
		goto out;
	lockdir = damos_lock_path(root);
	err = lockdir ? damos_lock_wait(lockfd, LOCK_EX, wait_us, lockdir) :
			damos_err(-ENOMEM, "out of memory");
	if (err)
		goto out;
	/* another process may have put it back while this one waited */
	damos_journal_free(&j);
	err = damos_journal_read(root, &j);
	if (err)
		goto out;
	txn.restoring = true;
	for (size_t i = j.n; i-- > 0; ) {
		struct txn_dir t = { .dir = j.d[i].dir, .kind = j.d[i].kind,
				     .snap = j.d[i].snap };

		t.d = damos_open_dir(opts, t.kind, t.dir);
		if (!t.d) {
			damos_buf_printf(&left, "; %s: %s", t.dir, damos_errmsg());
			bad = -ENOTRECOVERABLE;
			continue;
		}
		if (restore_dir(&t, &left))
			bad = -ENOTRECOVERABLE;
		else if (t.nr_restored && !strcmp(t.kind, "sysfs"))
			commit_running(t.d, t.dir, &left);
		if (!bad)
			restart_was_on(&t, &left);
		damon_close(t.d);
	}
	txn.restoring = false;
	if (bad)
		err = damos_err(bad, "pid %d (%s) died in the middle of a change, and its journal %s/journal could not put the files back as they were%s",
				j.pid, j.cmd, lockdir, left.s ? left.s : "");
	else
		err = damos_err(1, "pid %d (%s) died in the middle of a change: its files are put back as they were before it (from %s/journal)%s",
				j.pid, j.cmd, lockdir, left.s ? left.s : "");
	damos_journal_remove(root);
out:
	if (err == -ENOENT)
		err = 0;
	damos_journal_free(&j);
	damos_buf_free(&left);
	free(lockdir);
	free(root);
	return err;
}
