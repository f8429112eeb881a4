// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * The dry run's overlay (lib/dry.c) against a real directory: the same
 * random writes, mkdirs, removals, reads, listings and existence checks on
 * a real tree and through the dry-run layer over an identical one must
 * succeed and fail alike and show the same files.  Among them what no
 * kernel model makes but a real tree refuses: a write over a directory, a
 * new file under a missing directory or under a file, a mkdir over a file.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "internal.h"

#define SEEDS	200
#define STEPS	300

static uint64_t rng;
static char top[64];	/* both trees, removed at the end even after a failure */

static unsigned int pick(unsigned int n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned int)(rng % n);
}

struct side {
	struct damon_ctx d;
	struct damos_io *io;	/* the real files, or the dry run over them */
	char root[80];
};

static void side_open(struct side *s, bool dry)
{
	char *t;

	snprintf(s->root, sizeof(s->root), "%s/XXXXXX", top);
	assert_non_null(mkdtemp(s->root));
	memset(&s->d, 0, sizeof(s->d));
	s->d.root = s->root;
	s->io = damos_io_real(&s->d);
	assert_non_null(s->io);
	if (dry) {
		s->io = damos_io_dry(&s->d, s->io);
		assert_non_null(s->io);
	}
	t = damos_path("%s/t", s->root);
	assert_int_equal(damos_io_mkdir(s->io->below ? s->io->below : s->io, t), 0);
	free(t);
}

static void side_close(struct side *s)
{
	char cmd[160];

	for (struct damos_io *io = s->io, *below; io; io = below) {
		below = io->below;
		if (io->ops->free)
			io->ops->free(io);
		else
			free(io);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", s->root);
	assert_int_equal(system(cmd), 0);
}

/* A path below <root>/t of 1 to 3 parts out of three names. */
static void rand_rel(char *buf, size_t sz)
{
	static const char *const names[] = { "a", "b", "c" };
	unsigned int depth = 1 + pick(3);

	snprintf(buf, sz, "t");
	for (unsigned int i = 0; i < depth; i++) {
		size_t n = strlen(buf);

		snprintf(buf + n, sz - n, "/%s", names[pick(3)]);
	}
}

static int cmp_ent(const void *a, const void *b)
{
	return strcmp(((const struct damos_io_ent *)a)->name,
		      ((const struct damos_io_ent *)b)->name);
}

/* The listing of @rel as "name/ name ..." (sorted), or NULL if it fails. */
static char *listing(struct side *s, const char *rel)
{
	char *p = damos_path("%s/%s", s->root, rel);
	struct damos_io_ent *e = NULL;
	struct damos_buf b = { 0 };
	size_t n = 0;
	int err = damos_io_list(s->io, p, &e, &n);

	free(p);
	if (err)
		return NULL;
	qsort(e, n, sizeof(*e), cmp_ent);
	damos_buf_printf(&b, "%s", "");	/* "" for an empty directory */
	for (size_t i = 0; i < n; i++)
		damos_buf_printf(&b, "%s%s ", e[i].name, e[i].dir ? "/" : "");
	damos_io_ents_free(e, n);
	assert_int_equal(b.err, 0);
	return b.s;
}

/* One random operation on both sides: the same outcome, else a failure. */
static void step(struct side *real, struct side *dry, unsigned int seed,
		 unsigned int i)
{
	char rel[32], what[64];
	char *pr, *pd, *cr = NULL, *cd = NULL;
	unsigned int op = pick(7);
	int rr, rd;

	rand_rel(rel, sizeof(rel));
	pr = damos_path("%s/%s", real->root, rel);
	pd = damos_path("%s/%s", dry->root, rel);
	snprintf(what, sizeof(what), "seed %u step %u op %u %s", seed, i, op, rel);
	switch (op) {
	case 0: case 1: {	/* write, without and with create */
		char content[16];
		unsigned int flags = op ? DAMOS_IO_CREATE : 0;

		snprintf(content, sizeof(content), "v%u\n", pick(100));
		rr = damos_io_write(real->io, pr, content, flags);
		rd = damos_io_write(dry->io, pd, content, flags);
		break;
	}
	case 2:
		rr = damos_io_mkdir(real->io, pr);
		rd = damos_io_mkdir(dry->io, pd);
		break;
	case 3:
		rr = damos_io_remove(real->io, pr);
		rd = damos_io_remove(dry->io, pd);
		break;
	case 4:
		rr = damos_io_read(real->io, pr, &cr);
		rd = damos_io_read(dry->io, pd, &cd);
		if (!rr && !rd && strcmp(cr, cd))
			fail_msg("%s: read %s, the overlay %s", what, cr, cd);
		break;
	case 5:
		rr = damos_io_exists(real->io, pr);
		rd = damos_io_exists(dry->io, pd);
		break;
	default:
		cr = listing(real, rel);
		cd = listing(dry, rel);
		rr = !cr;
		rd = !cd;
		if (cr && cd && strcmp(cr, cd))
			fail_msg("%s: lists \"%s\", the overlay \"%s\"", what, cr, cd);
		break;
	}
	if (!rr != !rd)
		fail_msg("%s: the real tree %d, the overlay %d", what, rr, rd);
	free(cr);
	free(cd);
	free(pr);
	free(pd);
}

static void test_overlay_is_a_directory(void **state)
{
	(void)state;
	for (unsigned int seed = 1; seed <= SEEDS; seed++) {
		struct side real, dry;

		side_open(&real, false);
		side_open(&dry, true);
		rng = 0x9e3779b97f4a7c15ULL * seed;
		/* the same real files below both, then the steps */
		for (unsigned int i = 0; i < 20; i++) {
			char rel[32], *pr, *pd;
			bool dir = pick(2);

			rand_rel(rel, sizeof(rel));
			pr = damos_path("%s/%s", real.root, rel);
			pd = damos_path("%s/%s", dry.root, rel);
			if (dir) {
				damos_io_mkdir(real.io, pr);
				damos_io_mkdir(dry.io->below, pd);
			} else {
				damos_io_write(real.io, pr, "base\n", DAMOS_IO_CREATE);
				damos_io_write(dry.io->below, pd, "base\n", DAMOS_IO_CREATE);
			}
			free(pr);
			free(pd);
		}
		for (unsigned int i = 0; i < STEPS; i++)
			step(&real, &dry, seed, i);
		damos_dry_forget();
		side_close(&real);
		side_close(&dry);
	}
}

static int top_make(void **state)
{
	(void)state;
	snprintf(top, sizeof(top), "/tmp/damos-overlay-XXXXXX");
	return mkdtemp(top) ? 0 : -1;
}

static int top_remove(void **state)
{
	char cmd[96];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	return system(cmd) ? -1 : 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_overlay_is_a_directory),
	};

	return cmocka_run_group_tests(tests, top_make, top_remove);
}
