// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * Access snapshots: the monitored regions of a running context, from the
 * tried regions of a stat scheme that matches every region (sysfs, 6.2+)
 * or from the damon:damon_aggregated tracepoint (any kernel with tracing).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

static void sleep_us(uint64_t us)
{
	struct timespec ts = { .tv_sec = us / 1000000,
			       .tv_nsec = (us % 1000000) * 1000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* A stat scheme that every region passes: its tried regions are all. */
static bool matches_all(const struct damos_scheme *s)
{
	static const enum damos_field max[] = {
		DAMOS_F_MAX_SZ, DAMOS_F_MAX_NR_ACCESSES, DAMOS_F_MAX_AGE,
	};
	static const enum damos_field zero[] = {
		DAMOS_F_MIN_SZ, DAMOS_F_MIN_NR_ACCESSES, DAMOS_F_MIN_AGE,
		DAMOS_F_QUOTA_MS, DAMOS_F_QUOTA_SZ, DAMOS_F_WMARKS_METRIC,
	};

	if (s->v[DAMOS_F_ACTION] != DAMOS_ACTION_STAT || s->nr_filters)
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(max); i++)
		if (s->v[max[i]] != damos_field_max(max[i]))
			return false;
	for (size_t i = 0; i < ARRAY_SIZE(zero); i++)
		if (s->v[zero[i]])
			return false;
	return true;
}

/*
 * The kernel lists no region when its update ends before the scheme was
 * applied once (a stock kernel ends it on a wall clock timeout, which a
 * busy kdamond outlasts): a context always has regions, so ask again.
 */
static int tried_nonempty(struct damon_ctx *d, size_t idx,
			  struct damos_tried_regions **out)
{
	int err = 0;

	for (int i = 0; i < 5; i++) {
		err = damos_tried_regions_read(d, idx, out);
		if (err || (*out)->nr)
			return err;
		damos_tried_regions_free(*out);
		*out = NULL;
		if (damos_io_query(d, DAMOS_IO_Q_STATIC) == 1)
			break;
	}
	return damos_err(-EAGAIN, "the kernel listed no tried regions for scheme %zu",
			 idx);
}

static int from_tried(struct damon_ctx *d, struct damos_tried_regions **out)
{
	struct damos_scheme **arr = NULL, **more = NULL;
	size_t n = 0, i;
	int err, err2;

	err = damos_schemes_read(d, &arr, &n);
	if (err)
		return err;
	for (i = 0; i < n && !matches_all(arr[i]); i++)
		;
	if (i < n) {
		err = tried_nonempty(d, i, out);
		damos_schemes_free(arr, n);
		return err;
	}
	more = calloc(n + 1, sizeof(*more));
	if (!more) {
		damos_schemes_free(arr, n);
		return damos_err(-ENOMEM, "out of memory");
	}
	if (n)		/* no schemes: arr may be NULL (UBSan) */
		memcpy(more, arr, n * sizeof(*more));
	more[n] = damos_scheme_new(DAMOS_ACTION_STAT);
	err = more[n] ? damos_schemes_write(d, more, n + 1) : -ENOMEM;
	if (!err)
		err = tried_nonempty(d, n, out);
	/* the user's schemes as they were, also after a failure */
	err2 = damos_schemes_write(d, arr, n);
	if (err2) {
		damos_tried_regions_free(*out);
		*out = NULL;
		err = damos_err_prefix(err2, "the temporary stat scheme %zu is left: ",
				       n);
	}
	damos_scheme_free(more[n]);
	free(more);
	damos_schemes_free(arr, n);
	return err;
}

/* ------------------------------------------------------------------------
 * The tracepoint: "<comm>-<pid> [cpu] flags ts: damon_aggregated:
 * target_id=%lu nr_regions=%u %lu-%lu: %u %u" (Linux 6.1; later kernels
 * append fields, which are ignored).  An aggregation traces each target's
 * regions in address order, so a start below the last end begins the next.
 */
struct trace_target {
	unsigned long id;
	unsigned int nr_want;
	struct damos_tried_region *cur, *done;
	size_t nr_cur, nr_done;
};

struct trace_parse {
	struct trace_target *t;
	size_t nr;
};

static void trace_parse_free(struct trace_parse *p)
{
	for (size_t i = 0; i < p->nr; i++) {
		free(p->t[i].cur);
		free(p->t[i].done);
	}
	free(p->t);
	memset(p, 0, sizeof(*p));
}

static void batch_end(struct trace_target *t)
{
	if (t->nr_cur && t->nr_cur == t->nr_want) {
		free(t->done);
		t->done = t->cur;
		t->nr_done = t->nr_cur;
	} else {
		free(t->cur);
	}
	t->cur = NULL;
	t->nr_cur = 0;
}

static struct trace_target *target_of(struct trace_parse *p, unsigned long id)
{
	struct trace_target *t;

	for (size_t i = 0; i < p->nr; i++)
		if (p->t[i].id == id)
			return &p->t[i];
	t = realloc(p->t, (p->nr + 1) * sizeof(*t));
	if (!t)
		return NULL;
	p->t = t;
	t = &p->t[p->nr++];
	memset(t, 0, sizeof(*t));
	t->id = id;
	return t;
}

/* One line; 0 also for lines of other events and other kdamonds. */
static int trace_line(struct trace_parse *p, const char *line, int pid)
{
	const char *ev = strstr(line, " damon_aggregated: ");
	unsigned long id, start, end;
	unsigned int nr, acc, age;
	struct trace_target *t;
	struct damos_tried_region *r;

	if (!ev || *line == '#')
		return 0;
	if (pid > 0) {
		const char *sp = line + strspn(line, " ");
		const char *tok_end = sp + strcspn(sp, " ");
		const char *dash = NULL;

		for (const char *q = sp; q < tok_end; q++)
			if (*q == '-')
				dash = q;
		if (!dash || atoi(dash + 1) != pid)
			return 0;
	}
	if (sscanf(ev + strlen(" damon_aggregated: "),
		   "target_id=%lu nr_regions=%u %lu-%lu: %u %u",
		   &id, &nr, &start, &end, &acc, &age) != 6)
		return 0;
	t = target_of(p, id);
	if (!t)
		return damos_err(-ENOMEM, "out of memory");
	if (t->nr_cur && (start < t->cur[t->nr_cur - 1].end || nr != t->nr_want))
		batch_end(t);
	t->nr_want = nr;
	r = realloc(t->cur, (t->nr_cur + 1) * sizeof(*r));
	if (!r)
		return damos_err(-ENOMEM, "out of memory");
	t->cur = r;
	t->cur[t->nr_cur++] = (struct damos_tried_region){
		.sz = sizeof(*r), .start = start, .end = end,
		.nr_accesses = acc, .age = age,
	};
	if (t->nr_cur == t->nr_want)
		batch_end(t);
	return 0;
}

/* Every target's last complete aggregation, targets in the order seen. */
static int trace_result(struct trace_parse *p, struct damos_tried_regions *r)
{
	size_t nr = 0, k = 0;

	for (size_t i = 0; i < p->nr; i++) {
		if (!p->t[i].nr_done)
			return -EAGAIN;
		nr += p->t[i].nr_done;
	}
	if (!nr)
		return -EAGAIN;
	r->r = calloc(nr, sizeof(*r->r));
	if (!r->r)
		return damos_err(-ENOMEM, "out of memory");
	for (size_t i = 0; i < p->nr; i++)
		for (size_t j = 0; j < p->t[i].nr_done; j++) {
			r->r[k] = p->t[i].done[j];
			r->total_bytes += r->r[k].end - r->r[k].start;
			k++;
		}
	r->nr = nr;
	return 0;
}

static int trace_parse_text(char *text, int pid, struct damos_tried_regions *r)
{
	struct trace_parse p = { 0 };
	int err = 0;

	for (char *line = strtok(text, "\n"); line && !err; line = strtok(NULL, "\n"))
		err = trace_line(&p, line, pid);
	if (!err)
		err = trace_result(&p, r);
	trace_parse_free(&p);
	return err;
}

/* tracefs where it is mounted, or below debugfs (older setups). */
static char *tracing_dir(struct damon_ctx *d)
{
	static const char *const dirs[] = {
		"sys/kernel/tracing", "sys/kernel/debug/tracing",
	};

	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++) {
		char *dir = damos_path("%s/%s", d->root, dirs[i]);
		char *ev = dir ? damos_path("%s/events/damon/damon_aggregated/enable",
					    dir) : NULL;
		bool ok = ev && damos_exists(d, ev);

		free(ev);
		if (ok)
			return dir;
		free(dir);
	}
	return NULL;
}

static int from_trace(struct damon_ctx *d, uint64_t wait_us, int pid,
		      struct damos_tried_regions *r)
{
	char *top = tracing_dir(d), *inst = NULL, *dir, *enable = NULL;
	char *trace = NULL, *text = NULL, old[16] = "0";
	struct damon_attrs a;
	uint64_t waited = 0;
	int err, e;

	if (!top)
		return damos_err(-EOPNOTSUPP,
				 "no damon:damon_aggregated tracepoint below %s/sys/kernel/tracing or %s/sys/kernel/debug/tracing (a kernel without CONFIG_FTRACE and CONFIG_DAMON's trace events, or tracefs not mounted)",
				 d->root, d->root);
	err = damon_attrs_read(d, &a);
	if (err)
		goto out;
	/*
	 * A tracing instance of our own keeps the user's trace buffer and
	 * events as they are; a fake tree is read as it stands.
	 */
	dir = top;
	if (damos_io_query(d, DAMOS_IO_Q_STATIC) != 1) {
		inst = damos_path("%s/instances/damos-%d", top, (int)getpid());
		if (inst && !damos_dir_below(d, inst, true))
			dir = inst;
		else {
			free(inst);
			inst = NULL;
		}
	}
	enable = damos_path("%s/events/damon/damon_aggregated/enable", dir);
	trace = damos_path("%s/trace", dir);
	if (!enable || !trace) {
		err = damos_err(-ENOMEM, "out of memory");
		goto out;
	}
	err = damos_read_word(d, enable, old, sizeof(old));
	if (!err)
		err = damos_write(d, enable, "1\n");
	if (err)
		goto out;
	if (!wait_us)
		wait_us = 2 * a.aggr_us;
	for (;;) {
		if (damos_io_query(d, DAMOS_IO_Q_STATIC) != 1) {
			sleep_us(waited ? a.aggr_us : wait_us);
			waited += waited ? a.aggr_us : wait_us;
		}
		free(text);
		text = NULL;
		err = damos_read(d, trace, &text);
		if (!err)
			err = trace_parse_text(text, pid, r);
		if (err != -EAGAIN || damos_io_query(d, DAMOS_IO_Q_STATIC) == 1 ||
		    waited >= wait_us + 20 * a.aggr_us)
			break;
	}
	if (err == -EAGAIN)
		err = damos_err(-EAGAIN, "%s: no complete aggregation of kdamond pid %d traced in %llu ms",
				trace, pid, (unsigned long long)(waited / 1000));
	if (strcmp(old, "1")) {
		char buf[20];

		snprintf(buf, sizeof(buf), "%s\n", old);
		e = damos_write(d, enable, buf);
		if (e && !err)
			err = e;
	}
out:
	if (inst && (e = damos_dir_below(d, inst, false)) && !err)
		err = damos_err(e, "cannot remove the tracing instance %s", inst);
	free(text);
	free(trace);
	free(enable);
	free(inst);
	free(top);
	return err;
}

int damon_access_snapshot(struct damon_ctx *d,
			  const struct damon_snapshot_opts *opts,
			  struct damos_tried_regions **out)
{
	struct damon_snapshot_opts o = { .sz = sizeof(o) };
	struct damos_tried_regions *r;
	bool on = false, tried;
	int pid = -1, err;

	if (!out)
		return damos_err(-EINVAL, "damon_access_snapshot: no result pointer");
	*out = NULL;
	if (opts) {
		err = damos_sz_check(opts, opts->sz, sizeof(o),
				     sizeof(o), "damon_snapshot_opts");
		if (err)
			return err;
		o = *opts;
	}
	if (o.source < DAMON_SNAPSHOT_AUTO || o.source > DAMON_SNAPSHOT_TRACE)
		return damos_err(-EINVAL, "snapshot source %d: not a source",
				 (int)o.source);
	if (damos_io_query(d, DAMOS_IO_Q_RECORDED) == 1)
		return damos_err(-EOPNOTSUPP,
				 "an access snapshot reads what a running kdamond sees; a dry run has none");
	err = damon_monitor_status(d, &on, &pid);
	if (err)
		return err;
	if (!on)
		return damos_err(-ENODATA, "monitoring is off: a snapshot needs a running kdamond");
	tried = d->ops->tried_regions && damos_has(d, DAMOS_FEAT_TRIED_REGIONS) == 1;
	if (o.source == DAMON_SNAPSHOT_TRIED_REGIONS && !tried)
		return damos_feature_err(d, DAMOS_FEAT_TRIED_REGIONS,
					 "an access snapshot from tried regions");
	if (o.source == DAMON_SNAPSHOT_TRACE)
		tried = false;
	if (tried)
		return from_tried(d, out);
	r = calloc(1, sizeof(*r));
	if (!r)
		return damos_err(-ENOMEM, "out of memory");
	err = from_trace(d, o.trace_us, pid, r);
	if (err) {
		damos_tried_regions_free(r);
		return err;
	}
	*out = r;
	return 0;
}
