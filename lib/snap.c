// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

bool damos_ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix) &&
	       (n == m || s[n - m - 1] == '/');
}

/*
 * Snapshots of a scheme directory: every regular file below it, directories
 * in an order that lets a restore write each nr_* file before the numbered
 * directories it makes.  Statistics and tried regions are read for their
 * values but never written back; tried regions' own directories (one per
 * region, thousands on a big machine) are not read at all.
 */
/* @rel has the directory @comp as one of its components */
static bool has_dir(const char *rel, const char *comp)
{
	size_t n = strlen(comp);

	for (const char *c = rel; c; c = strchr(c, '/') ? strchr(c, '/') + 1 : NULL)
		if (!strncmp(c, comp, n) && c[n] == '/')
			return true;
	return false;
}

/* A snapshot may be of a scheme directory or of a whole interface's. */
static bool read_only_rel(const char *rel)
{
	return has_dir(rel, "stats") || has_dir(rel, "tried_regions") ||
	       damos_ends_with(rel, "quotas/effective_bytes");
}

/* Files a snapshot leaves alone: dbgfs' write-only commands. */
static bool skipped_rel(const char *rel)
{
	const char *b = strrchr(rel, '/') ? strrchr(rel, '/') + 1 : rel;

	return !strcmp(b, "mk_contexts") || !strcmp(b, "rm_contexts");
}

static int name_cmp(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	bool nx = !strncmp(x, "nr_", 3), ny = !strncmp(y, "nr_", 3);
	char *ex, *ey;
	unsigned long ux = strtoul(x, &ex, 10), uy = strtoul(y, &ey, 10);

	if (nx != ny)
		return nx ? -1 : 1;
	if (!*ex && !*ey && ex != x && ey != y)
		return ux < uy ? -1 : ux > uy;
	return strcmp(x, y);
}

void damos_snap_free_files(struct damos_snap *sn)
{
	for (size_t i = 0; i < sn->n; i++) {
		free(sn->f[i].rel);
		free(sn->f[i].content);
	}
	free(sn->f);
	memset(sn, 0, sizeof(*sn));
}

void damos_snap_free(struct damos_snap *sn)
{
	if (!sn)
		return;
	damos_snap_free_files(sn);
	free(sn);
}

int damos_snap_add(struct damos_snap *sn, char *rel, char *content,
		    bool writable)
{
	struct damos_snap_file *f = realloc(sn->f, (sn->n + 1) * sizeof(*f));

	if (!f) {
		free(rel);
		free(content);
		return damos_err(-ENOMEM, "out of memory");
	}
	sn->f = f;
	f[sn->n].rel = rel;
	f[sn->n].content = content;
	f[sn->n].writable = writable;
	sn->n++;
	return 0;
}

static int snap_walk(struct damos_io *io, const char *top, const char *rel,
		     struct damos_snap *sn, int depth)
{
	char *dir = *rel ? damos_path("%s/%s", top, rel) : strdup(top);
	struct damos_io_ent *ents = NULL;
	char **names = NULL;
	size_t nr = 0, ne = 0;
	int err = 0;

	if (!dir)
		return damos_err(-ENOMEM, "out of memory");
	if (depth > 16) {
		free(dir);
		return damos_err(-ELOOP, "%s: too deep", top);
	}
	err = damos_io_list(io, dir, &ents, &ne);
	if (err) {
		free(dir);
		return err;
	}
	names = calloc(ne + 1, sizeof(*names));
	if (!names)
		err = damos_err(-ENOMEM, "out of memory");
	for (size_t i = 0; !err && i < ne; i++)
		if (ents[i].name[0] != '.')
			names[nr++] = ents[i].name;
	if (nr)
		qsort(names, nr, sizeof(*names), name_cmp);
	/* files first, then directories */
	for (int pass = 0; pass < 2 && !err; pass++) {
		for (size_t i = 0; i < nr && !err; i++) {
			const struct damos_io_ent *e = NULL;
			char *r, *p, *content = NULL;
			bool ro;

			for (size_t k = 0; !e && k < ne; k++)
				if (ents[k].name == names[i])
					e = &ents[k];
			if (pass != e->dir || (!e->dir && !e->reg))
				continue;
			r = *rel ? damos_path("%s/%s", rel, names[i]) :
				   strdup(names[i]);
			if (!r) {
				err = damos_err(-ENOMEM, "out of memory");
				break;
			}
			if (pass) {
				if (!has_dir(r, "tried_regions"))
					err = snap_walk(io, top, r, sn, depth + 1);
				free(r);
				continue;
			}
			if (skipped_rel(r)) {
				free(r);
				continue;
			}
			ro = read_only_rel(r) || !e->writable;
			p = damos_path("%s/%s", top, r);
			err = p ? 0 : damos_err(-ENOMEM, "out of memory");
			/* memcg_path reads EBUSY while sysfs is locked */
			for (int t = 0; !err && t < 5; t++) {
				err = damos_io_read(io, p, &content);
				if (err != -EBUSY)
					break;
				usleep(20000);
			}
			/* a file root cannot read is no value of ours */
			if ((err == -EACCES || err == -EPERM) && ro)
				err = 0;
			/*
			 * dbgfs's init_regions reads EBUSY while monitoring
			 * is on, and takes no write then: a transaction reads
			 * it before it writes it (damos_txn_before_write())
			 */
			if (err == -EBUSY) {
				free(content);
				content = NULL;
				sn->nr_busy++;
				err = 0;
			}
			free(p);
			if (!err && content)
				err = damos_snap_add(sn, r, content, !ro);
			else
				free(r);
		}
	}
	free(names);
	damos_io_ents_free(ents, ne);
	free(dir);
	return err;
}

int damos_snap_read_io(struct damos_io *io, const char *dir,
		       struct damos_snap *sn)
{
	memset(sn, 0, sizeof(*sn));
	return snap_walk(io, dir, "", sn, 0);
}

int damos_snap_read(struct damon_ctx *d, const char *dir, struct damos_snap *sn)
{
	if (!d->io) {
		memset(sn, 0, sizeof(*sn));
		return damos_err(-EINVAL, "%s: a handle without files", dir);
	}
	return damos_snap_read_io(d->io, dir, sn);
}

int damos_snap_restore(struct damon_ctx *d, const char *dir,
		       const struct damos_snap *sn)
{
	int err = 0;

	for (size_t i = 0; i < sn->n && !err; i++) {
		const struct damos_snap_file *f = &sn->f[i];
		size_t len = strlen(f->content);
		char *p, *c;

		if (!f->writable)
			continue;
		while (len && f->content[len - 1] == '\n')
			len--;
		p = damos_path("%s/%s", dir, f->rel);
		/*
		 * The value as read, with one newline as echo writes it; but
		 * memcg_path keeps what it is given, newline included, and
		 * matches the cgroup with at most one (sysfs_streq()).
		 */
		c = damos_path("%.*s%s", (int)len, f->content,
			       damos_ends_with(f->rel, "memcg_path") ? "" : "\n");
		err = p && c ? damos_write(d, p, c) : damos_err(-ENOMEM, "out of memory");
		free(p);
		free(c);
	}
	return err;
}

