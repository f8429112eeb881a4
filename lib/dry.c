// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * The dry run: a layer that records every write as a line of a shell
 * script and makes it, with what the kernel would make there (the
 * backend's model_write), in an overlay in memory over the real files:
 * a later read sees it as the kernel would show it, and the real files
 * are never written.  The overlay lasts as long as the process, so the
 * dry-run commands of one batch or shell session see those before them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

struct dry {
	struct damos_io io;	/* the layer: writes recorded and modelled */
	struct damos_io files;	/* the overlay, where the model writes */
	struct damos_buf script;
};

/*
 * One shell command that writes @content in one write() under every POSIX
 * shell: echo for one line; several lines through cat from a here-document
 * (bash's printf and echo write each line with its own write(), which
 * dbgfs takes as a whole new content each time; dash writes once).
 */
static void record(struct dry *y, const char *path, const char *content)
{
	struct damos_buf *b = &y->script;
	char delim[32] = "EOF";
	size_t len = strlen(content);
	const char *nl = strchr(content, '\n');

	/* a here-document ends at a line that is its delimiter alone */
	for (unsigned int i = 1; nl; i++) {
		size_t n = strlen(delim);
		const char *l = content;

		for (; l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
			if (!strncmp(l, delim, n) && (l[n] == '\n' || !l[n]))
				break;
		if (!l)
			break;
		snprintf(delim, sizeof(delim), "EOF%u", i);
	}
	if (!strcmp(content, "\n")) {
		damos_buf_printf(b, "echo ''");
	} else if (nl && nl == content + len - 1 && !strchr(content, '\\') &&
		   content[0] != '-') {
		damos_buf_printf(b, "echo ");
		damos_quote_n(b, content, len - 1);
	} else if (nl && nl == content + len - 1) {
		damos_buf_printf(b, "printf '%%s\\n' ");
		damos_quote_n(b, content, len - 1);
	} else if (nl && content[len - 1] == '\n') {
		damos_buf_printf(b, "cat > ");
		damos_quote_n(b, path, strlen(path));
		damos_buf_printf(b, " <<'%s'\n%s%s\n", delim, content, delim);
		return;
	} else if (nl) {
		/* several lines, no newline at the end: dd copies one read */
		damos_buf_printf(b, "dd bs=%zu count=1 > ", len);
		damos_quote_n(b, path, strlen(path));
		damos_buf_printf(b, " <<'%s'\n%s\n%s\n", delim, content, delim);
		return;
	} else {
		damos_buf_printf(b, "printf '%%s' ");
		damos_quote_n(b, content, len);
	}
	damos_buf_printf(b, " > ");
	damos_quote_n(b, path, strlen(path));
	damos_buf_printf(b, "\n");
}


/* ------------------------------------------------------------------------
 * The overlay: what the dry run wrote, made and removed, by path, sorted
 * (a directory's part is one run of it).  A directory it made hides what
 * the real files have at that path; a removed path is an entry too.
 */
struct ent {
	char *path;
	char *content;		/* NULL: a directory */
	bool gone;
};

static struct {
	struct ent *e;		/* by absolute path: any root's */
	size_t n;
} ov;

enum { ABSENT, IS_FILE, IS_DIR, BELOW };

/* strcmp() with '/' first: the paths below one are right after it */
static int cmp(const char *a, const char *b)
{
	for (; *a && *a == *b; a++, b++)
		;
	return (*a == '/' ? 1 : (unsigned char)*a) -
	       (*b == '/' ? 1 : (unsigned char)*b);
}

/* The first entry not before @path. */
static size_t lower(const char *path)
{
	size_t lo = 0, hi = ov.n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (cmp(ov.e[mid].path, path) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static struct ent *find(const char *path)
{
	size_t i = lower(path);

	return i < ov.n && !strcmp(ov.e[i].path, path) ? &ov.e[i] : NULL;
}

/* What @path is in the overlay (BELOW: the real files say). */
static int state(const char *path, struct ent **hit)
{
	struct ent *e = find(path);
	char p[4096];

	*hit = e;
	if (e)
		return e->gone ? ABSENT : e->content ? IS_FILE : IS_DIR;
	snprintf(p, sizeof(p), "%s", path);
	/* an ancestor made or removed here hides what is below it */
	for (char *s; (s = strrchr(p, '/')) && s != p;)
		if (*s = '\0', find(p))
			return ABSENT;
	return BELOW;
}

static int exists(struct damos_io *io, const char *path)
{
	struct ent *e;
	int s = state(path, &e);

	return s == BELOW ? damos_io_exists(io->below, path) : s != ABSENT;
}

/* What @path is, the overlay first (a real directory has a "."). */
static int kind(struct damos_io *io, const char *path)
{
	struct ent *e;
	int s = state(path, &e);
	char *dot;

	if (s != BELOW)
		return s;
	dot = damos_path("%s/.", path);
	s = dot && damos_io_exists(io->below, dot) ? IS_DIR :
	    damos_io_exists(io->below, path) ? IS_FILE : ABSENT;
	free(dot);
	return s;
}

/* @path's entry, made (not gone, no content) where missing. */
static struct ent *entry(const char *path)
{
	size_t i = lower(path);
	struct ent *e;

	if (i < ov.n && !strcmp(ov.e[i].path, path))
		return &ov.e[i];
	e = realloc(ov.e, (ov.n + 1) * sizeof(*e));
	if (!e)
		return NULL;
	ov.e = e;
	memmove(&e[i + 1], &e[i], (ov.n - i) * sizeof(*e));
	e[i] = (struct ent){ .path = strdup(path) };
	if (!e[i].path) {
		memmove(&e[i], &e[i + 1], (ov.n - i) * sizeof(*e));
		return NULL;
	}
	ov.n++;
	return &e[i];
}

/* @path as a file of @content, a directory (NULL) or @gone. */
static int set(const char *path, const char *content, bool gone)
{
	char *c = content ? strdup(content) : NULL;
	struct ent *e = !content || c ? entry(path) : NULL;

	if (!e) {
		free(c);
		return damos_err(-ENOMEM, "out of memory");
	}
	free(e->content);
	e->content = c;
	e->gone = gone;
	return 0;
}

static int ov_read(struct damos_io *io, const char *path, char **out)
{
	struct ent *e;
	int s = state(path, &e);

	if (s == BELOW)
		return damos_io_read(io->below, path, out);
	if (s != IS_FILE)
		return damos_err(s == IS_DIR ? -EISDIR : -ENOENT, "cannot read %s: %s",
				 path, strerror(s == IS_DIR ? EISDIR : ENOENT));
	*out = strdup(e->content);
	return *out ? 0 : damos_err(-ENOMEM, "out of memory");
}

static int ov_write(struct damos_io *io, const char *path,
		    const char *content, unsigned int flags)
{
	int k = kind(io, path);
	int err = k == IS_DIR ? -EISDIR :
		  k == ABSENT && !(flags & DAMOS_IO_CREATE) ? -ENOENT : 0;

	/* a new file, as open(O_CREAT) makes one: in a directory */
	if (k == ABSENT && !err) {
		char *parent = strdup(path);
		char *slash = parent ? strrchr(parent, '/') : NULL;

		if (!parent)
			return damos_err(-ENOMEM, "out of memory");
		if (slash > parent) {
			*slash = '\0';
			k = kind(io, parent);
			err = k == IS_DIR ? 0 : k == ABSENT ? -ENOENT : -ENOTDIR;
		}
		free(parent);
	}
	if (err)
		return damos_err(err, "cannot write %s: %s", path, strerror(-err));
	return set(path, content, false);
}

/*
 * mkdir -p: mostly the directory is there; else each missing part, from
 * the top; a file in the way fails it.
 */
static int ov_mkdir(struct damos_io *io, const char *path)
{
	char *p;
	int err = 0;

	if (kind(io, path) == IS_DIR)
		return 0;
	p = strdup(path);
	if (!p)
		return damos_err(-ENOMEM, "out of memory");
	for (char *s = strchr(p + 1, '/'); !err; s = strchr(s + 1, '/')) {
		int k;

		if (s)
			*s = '\0';
		k = kind(io, p);
		if (k == ABSENT)
			err = set(p, NULL, false);
		else if (k == IS_FILE)
			err = damos_err(-ENOTDIR, "cannot make directory %s: %s",
					path, strerror(ENOTDIR));
		if (!s)
			break;
		*s = '/';
	}
	free(p);
	return err;
}

static int ov_remove(struct damos_io *io, const char *path)
{
	size_t n = strlen(path), i = lower(path), j = i;
	/* the path's own entry, if it has one, stays (as removed) */
	bool own = i < ov.n && !strcmp(ov.e[i].path, path);

	if (!exists(io, path))
		return damos_err(-ENOENT, "cannot remove %s: %s", path,
				 strerror(ENOENT));
	/* everything below the path */
	for (j = i + own; j < ov.n && !strncmp(ov.e[j].path, path, n) &&
	     ov.e[j].path[n] == '/'; j++) {
		free(ov.e[j].path);
		free(ov.e[j].content);
	}
	memmove(&ov.e[i + own], &ov.e[j], (ov.n - j) * sizeof(*ov.e));
	ov.n -= j - i - own;
	return set(path, NULL, true);
}

static int add_ent(struct damos_io_ent **ents, size_t *n, const char *name,
		   bool dir)
{
	struct damos_io_ent *t = realloc(*ents, (*n + 1) * sizeof(*t));

	if (!t)
		return -ENOMEM;
	*ents = t;
	t[*n] = (struct damos_io_ent){ .name = strdup(name), .dir = dir,
				       .reg = !dir, .writable = true };
	return t[(*n)++].name ? 0 : -ENOMEM;
}

static int ov_list(struct damos_io *io, const char *dir,
		   struct damos_io_ent **ents, size_t *nr)
{
	char *pre = damos_path("%s/", dir);
	size_t n = 0, k, len;
	struct damos_io_ent *l = NULL;
	struct ent *e;
	int s = state(dir, &e), err = 0;

	if (s == BELOW)
		err = damos_io_list(io->below, dir, &l, &n);
	else if (s != IS_DIR)
		err = damos_err(s == ABSENT ? -ENOENT : -ENOTDIR, "cannot list %s: %s",
				dir, strerror(s == ABSENT ? ENOENT : ENOTDIR));
	if (!pre)
		err = err ?: damos_err(-ENOMEM, "out of memory");
	len = pre ? strlen(pre) : 0;
	/* the real names the overlay removed or changed */
	for (k = 0; !err && k < n;) {
		char *p = damos_path("%s%s", pre, l[k].name);
		int cs = p ? state(p, &e) : -1;

		free(p);
		if (cs < 0) {
			err = damos_err(-ENOMEM, "out of memory");
		} else if (cs == ABSENT) {
			free(l[k].name);
			l[k] = l[--n];
		} else {
			if (cs != BELOW)
				l[k].dir = cs == IS_DIR, l[k].reg = cs == IS_FILE;
			k++;
		}
	}
	/* the names it made */
	for (size_t i = pre ? lower(pre) : ov.n; !err && i < ov.n &&
	     !strncmp(ov.e[i].path, pre, len); i++) {
		const char *name = ov.e[i].path + len;
		bool known = false;

		if (strchr(name, '/') || ov.e[i].gone)
			continue;
		for (k = 0; k < n && !known; k++)
			known = !strcmp(l[k].name, name);
		if (!known && add_ent(&l, &n, name, !ov.e[i].content))
			err = damos_err(-ENOMEM, "out of memory");
	}
	free(pre);
	if (err) {
		damos_io_ents_free(l, n);
		return err;
	}
	*ents = l;
	*nr = n;
	return 0;
}

void damos_dry_forget(void)
{
	for (size_t i = 0; i < ov.n; i++) {
		free(ov.e[i].path);
		free(ov.e[i].content);
	}
	free(ov.e);
	memset(&ov, 0, sizeof(ov));
}

/* ------------------------------------------------------------------------
 * The dry-run layer (see internal.h).
 */
static int dry_write(struct damos_io *io, const char *path,
		     const char *content, unsigned int flags)
{
	struct dry *y = container_of(io, struct dry, io);

	/* no kernel to ask: what it shows is as the writes left it */
	if (flags & DAMOS_IO_UPDATE)
		return 0;
	record(y, path, content);
	if (y->script.err)
		return damos_err(y->script.err, "out of memory");
	return damos_io_model_write(io->d, &y->files, path, content, flags);
}

/* Its files change only when written, as written. */
static int dry_query(struct damos_io *io, enum damos_io_q q)
{
	(void)io;
	return q == DAMOS_IO_Q_RECORDED || q == DAMOS_IO_Q_STATIC ||
	       q == DAMOS_IO_Q_EXACT ? 1 : -ENOTTY;
}

static const char *dry_script(struct damos_io *io)
{
	return container_of(io, struct dry, io)->script.s;
}

static void dry_free(struct damos_io *io)
{
	struct dry *y = container_of(io, struct dry, io);

	damos_buf_free(&y->script);
	free(y);
}

static const struct damos_io_ops dry_ops = {
	.name = "dry run",
	.read = ov_read,
	.write = dry_write,
	.list = ov_list,
	.mkdir = ov_mkdir,
	.remove = ov_remove,
	.exists = exists,
	.query = dry_query,
	.script = dry_script,
	.free = dry_free,
}, files_ops = {
	.name = "dry run's overlay",
	.read = ov_read,
	.write = ov_write,
	.list = ov_list,
	.mkdir = ov_mkdir,
	.remove = ov_remove,
	.exists = exists,
};

struct damos_io *damos_io_dry(struct damon_ctx *d, struct damos_io *below)
{
	struct dry *y = calloc(1, sizeof(*y));
	static bool registered;

	if (!y)
		return damos_err_null(-ENOMEM, "out of memory");
	if (!registered)
		registered = !atexit(damos_dry_forget);
	y->io = (struct damos_io){ &dry_ops, below, d };
	y->files = (struct damos_io){ &files_ops, below, d };
	return &y->io;
}

static struct damos_io *push_dry(struct damon_ctx *d, struct damos_io *below,
				 long fs_magic)
{
	(void)fs_magic;
	return damos_io_dry(d, below);
}

const struct damos_layer *damos_layer_dry_run(void)
{
	static const struct damos_layer l = { "dry run", push_dry };

	return &l;
}
