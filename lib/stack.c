// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * The I/O stack of a handle (internal.h): the calls that go to its top
 * layer, and damos_io_open(), which stacks the layers at damon_open().
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

/* the first layer from @io down that has op @f */
#define LAYER_WITH(io, f) ({						\
	struct damos_io *_l = (io);					\
	while (_l && !_l->ops->f)					\
		_l = _l->below;						\
	_l; })

int damos_io_read(struct damos_io *io, const char *path, char **out)
{
	io = LAYER_WITH(io, read);
	return io ? io->ops->read(io, path, out) : -ENOSYS;
}

int damos_io_write(struct damos_io *io, const char *path, const char *content,
		   unsigned int flags)
{
	io = LAYER_WITH(io, write);
	return io ? io->ops->write(io, path, content, flags) : -ENOSYS;
}

int damos_io_list(struct damos_io *io, const char *dir,
		  struct damos_io_ent **ents, size_t *n)
{
	io = LAYER_WITH(io, list);
	return io ? io->ops->list(io, dir, ents, n) : -ENOSYS;
}

bool damos_io_exists(struct damos_io *io, const char *path)
{
	io = LAYER_WITH(io, exists);
	return path && (io ? io->ops->exists(io, path) > 0 :
			     access(path, F_OK) == 0);
}

bool damos_exists(struct damon_ctx *d, const char *path)
{
	return damos_io_exists(d ? d->io : NULL, path);
}

int damos_io_mkdir(struct damos_io *io, const char *path)
{
	io = LAYER_WITH(io, mkdir);
	return io ? io->ops->mkdir(io, path) : -ENOSYS;
}

int damos_io_remove(struct damos_io *io, const char *path)
{
	io = LAYER_WITH(io, remove);
	return io ? io->ops->remove(io, path) : -ENOSYS;
}

int damos_io_model_write(struct damon_ctx *d, struct damos_io *files,
			 const char *path, const char *content,
			 unsigned int flags)
{
	if (d->ops && d->ops->model_write)
		return d->ops->model_write(d, files, path, content, flags);
	return damos_io_write(files, path, content, flags);
}

int damos_io_ask(struct damos_io *io, enum damos_io_q q)
{
	for (; io; io = io->below) {
		int r = io->ops->query ? io->ops->query(io, q) : -ENOTTY;

		if (r != -ENOTTY)
			return r;
	}
	return q == DAMOS_IO_Q_MAX_ACTION ? -EAGAIN : 0;
}

/* A handle without a stack (a bare root). */
static struct damos_io *top_of(struct damon_ctx *d, struct damos_io *tmp)
{
	if (d->io)
		return d->io;
	if (!tmp->ops) {
		struct damos_io *r = damos_io_real(d);

		if (r) {
			*tmp = *r;
			free(r);
		}
	}
	return tmp->ops ? tmp : NULL;
}

int damos_io_query(struct damon_ctx *d, enum damos_io_q q)
{
	return damos_io_ask(d->io, q);
}

void damos_io_event(struct damon_ctx *d, enum damos_io_ev ev)
{
	for (struct damos_io *io = d->io; io; io = io->below)
		if (io->ops->event)
			io->ops->event(io, ev);
}

int damos_read(struct damon_ctx *d, const char *path, char **out)
{
	struct damos_io tmp = { 0 }, *io = top_of(d, &tmp);

	return io ? damos_io_read(io, path, out) :
		    damos_err(-ENOMEM, "out of memory");
}

int damos_list(struct damon_ctx *d, const char *dir, struct damos_io_ent **ents,
	       size_t *n)
{
	struct damos_io tmp = { 0 }, *io = top_of(d, &tmp);

	return io ? damos_io_list(io, dir, ents, n) :
		    damos_err(-ENOMEM, "out of memory");
}

int damos_read_word(struct damon_ctx *d, const char *path, char *buf, size_t sz)
{
	char *s;
	int err = damos_read(d, path, &s);

	if (err)
		return err;
	s[strcspn(s, "\n")] = '\0';
	snprintf(buf, sz, "%s", s);
	free(s);
	return 0;
}

int damos_read_u64(struct damon_ctx *d, const char *path, uint64_t *v)
{
	char buf[64];
	int err = damos_read_word(d, path, buf, sizeof(buf));

	if (err)
		return err;
	if (damos_parse_u64(buf, v))
		return damos_err(-EINVAL, "%s: '%s' is not a number", path,
				 buf);
	return 0;
}

static int write_flags(struct damon_ctx *d, const char *path,
		       const char *content, unsigned int flags)
{
	struct damos_io tmp = { 0 }, *io = top_of(d, &tmp);
	int err;

	/* the transaction's part (txn.c): what to keep, then what was written */
	damos_txn_before_write(d, path);
	err = io ? damos_io_write(io, path, content, flags) :
		   damos_err(-ENOMEM, "out of memory");
	if (!err)
		damos_txn_note_write(d, path, content);
	return err;
}

int damos_write(struct damon_ctx *d, const char *path, const char *content)
{
	return write_flags(d, path, content, 0);
}

int damos_write_update(struct damon_ctx *d, const char *path,
			const char *content)
{
	return write_flags(d, path, content, DAMOS_IO_UPDATE);
}

int damos_write_u64(struct damon_ctx *d, const char *path, uint64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%llu\n", (unsigned long long)v);
	return damos_write(d, path, buf);
}

const char *damos_dry_run_script(struct damon_ctx *d)
{
	struct damos_io *io = LAYER_WITH(d->io, script);
	const char *s = io ? io->ops->script(io) : NULL;

	return s ? s : "";
}

int damos_io_open(struct damon_ctx *d, const struct damon_opts *o,
		  long fs_magic)
{
	const struct damos_layer *const none[] = { NULL };
	const struct damos_layer *const *l = o->layers ? o->layers : none;
	struct damos_io *io = damos_io_real(d);
	size_t n = 0;

	while (l[n])
		n++;
	d->io = io;
	/* bottom up: the last one listed is right above the files */
	while (io && n-- > 0) {
		io = l[n]->push(d, d->io, fs_magic);
		if (io)
			d->io = io;
	}
	if (!io) {
		int err = -errno ?: -ENOMEM;

		damos_io_close(d);
		return err;
	}
	return 0;
}

void damos_io_close(struct damon_ctx *d)
{
	struct damos_io *io = d->io, *below;

	for (; io; io = below) {
		below = io->below;
		io->ops->free(io);
	}
	d->io = NULL;
}
