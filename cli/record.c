// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * record FILE: snapshots of the monitored regions, as report access takes
 * them, written in damo's record format "json" (or "json_compressed":
 * the same text, zlib-compressed), so that damo's reports read them; and
 * the reader of those files that report access|wss|heatmap --input use.
 *
 * damo's format, as its v3.3.0 writes it (raw numbers, strings of
 * digits where it formats them): a list of records, one a monitoring
 * target, each
 *   {"kdamond_idx", "context_idx", "intervals": {"sample_us", "aggr_us",
 *    "ops_update_us"}, "scheme_idx", "target_id", "scheme_filters": [],
 *    "snapshots": [{"start_time", "end_time" (ns), "regions": [{"start",
 *    "end", "nr_accesses": {"samples", "percent"}, "age": {"usec",
 *    "aggr_intervals"}, "probe_hits", "sz_filter_passed"}], "total_bytes",
 *    "damos_stats", "sample_interval_us"}], "data_source"}
 * A number may be a JSON number or a string of one; percent-only access
 * counts and usec-only ages are converted by the intervals, as damo does.
 *
 * The reader walks the text once and keeps only the regions (a record of
 * a million regions is some hundred megabytes of JSON; json-c would build
 * a tree of it several times that size).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "cli.h"

/* ---- reading ---- */

struct rd {
	const char *p, *end;
	const char *err;	/* what was expected where parsing stopped */
};

static void ws(struct rd *r)
{
	while (r->p < r->end && (*r->p == ' ' || *r->p == '\n' ||
				 *r->p == '\t' || *r->p == '\r'))
		r->p++;
}

static bool eat(struct rd *r, char ch)
{
	ws(r);
	if (r->p < r->end && *r->p == ch) {
		r->p++;
		return true;
	}
	return false;
}

static int fail(struct rd *r, const char *what)
{
	if (!r->err)
		r->err = what;
	return -EINVAL;
}

/* a string into @buf (cut to its size; escapes kept as they are) */
static int string(struct rd *r, char *buf, size_t sz)
{
	size_t n = 0;

	if (!eat(r, '"'))
		return fail(r, "a string");
	while (r->p < r->end && *r->p != '"') {
		if (*r->p == '\\' && r->p + 1 < r->end)
			r->p++;
		if (buf && n + 1 < sz)
			buf[n++] = *r->p;
		r->p++;
	}
	if (buf)
		buf[n] = '\0';
	if (r->p >= r->end)
		return fail(r, "the end of a string");
	r->p++;
	return 0;
}

static bool literal(struct rd *r, const char *w)
{
	size_t n = strlen(w);

	ws(r);
	if ((size_t)(r->end - r->p) >= n && !memcmp(r->p, w, n)) {
		r->p += n;
		return true;
	}
	return false;
}

static int skip(struct rd *r, int depth)
{
	ws(r);
	if (depth > 64)
		return fail(r, "less nesting");
	if (r->p >= r->end)
		return fail(r, "a value");
	if (*r->p == '"')
		return string(r, NULL, 0);
	if (*r->p == '{' || *r->p == '[') {
		char close = *r->p == '{' ? '}' : ']';
		bool obj = *r->p == '{';

		r->p++;
		if (eat(r, close))
			return 0;
		do {
			if (obj && (string(r, NULL, 0) || !eat(r, ':')))
				return fail(r, "a key and ':'");
			if (skip(r, depth + 1))
				return -EINVAL;
		} while (eat(r, ','));
		return eat(r, close) ? 0 : fail(r, obj ? "'}'" : "']'");
	}
	if (literal(r, "true") || literal(r, "false") || literal(r, "null"))
		return 0;
	if (*r->p == '-' || (*r->p >= '0' && *r->p <= '9')) {
		while (r->p < r->end && strchr("+-0123456789.eE", *r->p))
			r->p++;
		return 0;
	}
	return fail(r, "a value");
}

/*
 * A number, a string of one (damo writes "4096"), or null (*@null set).
 * Fractions are cut (damo's percent may be one); -1 stays -1.
 */
static int number(struct rd *r, long long *v, bool *null)
{
	char buf[64];
	const char *s;
	char *e;
	size_t n = 0;

	*null = false;
	ws(r);
	if (literal(r, "null")) {
		*null = true;
		return 0;
	}
	if (r->p < r->end && *r->p == '"') {
		if (string(r, buf, sizeof(buf)))
			return -EINVAL;
		s = buf;
	} else {
		while (r->p + n < r->end && n < sizeof(buf) - 1 &&
		       strchr("+-0123456789.eE", r->p[n]))
			n++;
		memcpy(buf, r->p, n);
		buf[n] = '\0';
		r->p += n;
		s = buf;
	}
	if (!*s)
		return fail(r, "a number");
	errno = 0;
	if (*s != '-' && !strpbrk(s, ".eE"))
		*v = (long long)strtoull(s, &e, 10);
	else if (!strpbrk(s, ".eE"))
		*v = strtoll(s, &e, 10);
	else
		*v = (long long)strtod(s, &e);
	if (errno || *e)
		return fail(r, "a number");
	return 0;
}

/* object members: @fn(key) for each, which must consume the value */
static int members(struct rd *r, void *arg,
		   int (*fn)(struct rd *r, const char *key, void *arg))
{
	char key[64];

	if (!eat(r, '{'))
		return fail(r, "an object");
	if (eat(r, '}'))
		return 0;
	do {
		if (string(r, key, sizeof(key)) || !eat(r, ':'))
			return fail(r, "a key and ':'");
		if (fn(r, key, arg))
			return -EINVAL;
	} while (eat(r, ','));
	return eat(r, '}') ? 0 : fail(r, "'}' or ','");
}

struct region_in {
	long long start, end, samples, percent, age, usec;
	bool has_samples, has_percent, has_age, has_usec;
};

static int pair_member(struct rd *r, const char *key, void *arg)
{
	struct region_in *x = arg;
	long long v;
	bool null;

	if (strcmp(key, "samples") && strcmp(key, "percent") &&
	    strcmp(key, "aggr_intervals") && strcmp(key, "usec"))
		return skip(r, 0);
	if (number(r, &v, &null))
		return -EINVAL;
	if (null)
		return 0;
	if (!strcmp(key, "samples")) {
		x->samples = v;
		x->has_samples = true;
	} else if (!strcmp(key, "percent")) {
		x->percent = v;
		x->has_percent = true;
	} else if (!strcmp(key, "aggr_intervals")) {
		x->age = v;
		x->has_age = true;
	} else {
		x->usec = v;
		x->has_usec = true;
	}
	return 0;
}

static int region_member(struct rd *r, const char *key, void *arg)
{
	struct region_in *x = arg;
	bool null;

	if (!strcmp(key, "start"))
		return number(r, &x->start, &null);
	if (!strcmp(key, "end"))
		return number(r, &x->end, &null);
	if (strcmp(key, "nr_accesses") && strcmp(key, "age"))
		return skip(r, 0);
	ws(r);
	/* damoctl's own JSON: plain numbers */
	if (r->p < r->end && *r->p != '{') {
		long long v;

		if (number(r, &v, &null))
			return -EINVAL;
		if (!null && !strcmp(key, "age")) {
			x->age = v;
			x->has_age = true;
		} else if (!null) {
			x->samples = v;
			x->has_samples = true;
		}
		return 0;
	}
	return members(r, x, pair_member);
}

struct reader {
	struct cli_record *rec;		/* all records, in order */
	struct cli_record *cur;
	struct cli_record_snap *snap;
	int nr_records;
};

static int push_region(struct cli_record_snap *s, const struct region_in *x)
{
	struct damos_tried_region *more;

	if (s->nr % 1024 == 0) {
		more = realloc(s->r, (s->nr + 1024) * sizeof(*more));
		if (!more)
			return -ENOMEM;
		s->r = more;
	}
	s->r[s->nr++] = (struct damos_tried_region){
		.sz = sizeof(*s->r), .start = (uint64_t)x->start,
		.end = (uint64_t)x->end, .nr_accesses = (uint64_t)x->samples,
		.age = (uint64_t)x->age,
	};
	return 0;
}

static int regions(struct rd *r, struct reader *rr)
{
	const struct damon_attrs *a = &rr->cur->a;
	uint64_t max = damon_attrs_max_nr_accesses(a);

	if (literal(r, "null"))
		return 0;
	if (!eat(r, '['))
		return fail(r, "a list of regions");
	if (eat(r, ']'))
		return 0;
	do {
		struct region_in x = { 0 };

		if (members(r, &x, region_member))
			return -EINVAL;
		/* damo's filler snapshot of one empty region */
		if (x.start == 0 && x.end == 0)
			continue;
		/* addresses as u64: a kernel's may be above 2^63 */
		if ((uint64_t)x.end < (uint64_t)x.start)
			return fail(r, "a region whose end is not below its start");
		if (!x.has_samples && x.has_percent)
			x.samples = x.percent * (long long)max / 100;
		if (!x.has_age && x.has_usec && a->aggr_us)
			x.age = x.usec / (long long)a->aggr_us;
		if (x.samples < 0)
			x.samples = 0;
		if (x.age < 0)
			x.age = 0;
		if (push_region(rr->snap, &x))
			return fail(r, "memory (out of memory)");
	} while (eat(r, ','));
	return eat(r, ']') ? 0 : fail(r, "']' or ','");
}

static int snapshot_member(struct rd *r, const char *key, void *arg)
{
	struct reader *rr = arg;
	long long v;
	bool null;

	if (!strcmp(key, "start_time") || !strcmp(key, "end_time")) {
		if (number(r, &v, &null))
			return -EINVAL;
		if (!null && key[0] == 's')
			rr->snap->start_ns = v;
		else if (!null)
			rr->snap->end_ns = v;
		return 0;
	}
	if (!strcmp(key, "regions"))
		return regions(r, rr);
	return skip(r, 0);
}

static int interval_member(struct rd *r, const char *key, void *arg)
{
	struct damon_attrs *a = arg;
	long long v;
	bool null;

	if (strcmp(key, "sample_us") && strcmp(key, "aggr_us") &&
	    strcmp(key, "ops_update_us"))
		return skip(r, 0);
	if (number(r, &v, &null))
		return -EINVAL;
	if (null || v <= 0)
		return 0;
	if (!strcmp(key, "sample_us"))
		a->sample_us = v;
	else if (!strcmp(key, "aggr_us"))
		a->aggr_us = v;
	else
		a->update_us = v;
	return 0;
}

static int record_member(struct rd *r, const char *key, void *arg)
{
	struct reader *rr = arg;
	struct cli_record *rec = rr->cur;

	if (!strcmp(key, "intervals")) {
		if (literal(r, "null"))
			return 0;
		return members(r, &rec->a, interval_member);
	}
	if (strcmp(key, "snapshots"))
		return skip(r, 0);
	/* the intervals come first in damo's files; snapshots need them */
	if (!eat(r, '['))
		return fail(r, "a list of snapshots");
	if (eat(r, ']'))
		return 0;
	do {
		struct cli_record_snap *more = realloc(rec->s, (rec->nr + 1) * sizeof(*more));

		if (!more)
			return fail(r, "memory (out of memory)");
		rec->s = more;
		rr->snap = &rec->s[rec->nr++];
		memset(rr->snap, 0, sizeof(*rr->snap));
		if (members(r, rr, snapshot_member))
			return -EINVAL;
		/* the filler snapshot damo adds to a one-snapshot record */
		if (!rr->snap->nr && rec->nr > 1) {
			free(rr->snap->r);
			rec->nr--;
		}
	} while (eat(r, ','));
	return eat(r, ']') ? 0 : fail(r, "']' or ','");
}

void cli_record_free(struct cli_record *rec)
{
	for (size_t i = 0; rec && i < rec->nr; i++)
		free(rec->s[i].r);
	if (rec)
		free(rec->s);
}

static int read_all(const char *file, unsigned char **buf, size_t *len)
{
	int fd = open(file, O_RDONLY | O_CLOEXEC);
	size_t cap = 1 << 16, n = 0;
	unsigned char *b = NULL, *more;
	ssize_t got;

	if (fd < 0)
		return -errno;
	do {
		if (n + 1 >= cap || !b) {
			cap = b ? cap * 2 : cap;
			more = realloc(b, cap);
			if (!more) {
				free(b);
				close(fd);
				return -ENOMEM;
			}
			b = more;
		}
		got = read(fd, b + n, cap - n - 1);
		if (got > 0)
			n += got;
	} while (got > 0 || (got < 0 && errno == EINTR));
	if (got < 0) {
		int err = -errno;

		free(b);
		close(fd);
		return err;
	}
	close(fd);
	*buf = b;
	*len = n;
	return 0;
}

/* damo's json_compressed: zlib's format (zlib.compress()), not gzip's */
static int inflate_all(const unsigned char *in, size_t len, unsigned char **out,
		       size_t *outlen)
{
	z_stream z = { 0 };
	size_t cap = len * 8 + 4096;
	unsigned char *b = malloc(cap), *more;
	int ret;

	if (!b || inflateInit(&z) != Z_OK) {
		free(b);
		return -ENOMEM;
	}
	z.next_in = (unsigned char *)in;
	z.avail_in = len;
	do {
		if (z.total_out == cap) {
			more = realloc(b, cap * 2);
			if (!more) {
				ret = Z_MEM_ERROR;
				break;
			}
			b = more;
			cap *= 2;
		}
		z.next_out = b + z.total_out;
		z.avail_out = cap - z.total_out;
		ret = inflate(&z, Z_NO_FLUSH);
	} while (ret == Z_OK);
	*outlen = z.total_out;
	inflateEnd(&z);
	if (ret != Z_STREAM_END) {
		free(b);
		return ret == Z_MEM_ERROR ? -ENOMEM : -EBADMSG;
	}
	*out = b;
	return 0;
}

int cli_record_load(struct cli *c, const char *file, struct cli_record **out,
		    size_t *nr)
{
	unsigned char *buf = NULL, *text = NULL;
	struct cli_record *recs = NULL, *more;
	size_t len = 0, tlen;
	struct reader rr = { 0 };
	struct rd r;
	int err;

	*out = NULL;
	*nr = 0;
	err = read_all(file, &buf, &len);
	if (err)
		return cli_error(c, EXIT_FAIL, "--input %s: %s", file, strerror(-err));
	/* zlib's header: 0x78 and a check that makes it a multiple of 31 */
	if (len >= 2 && buf[0] == 0x78 && ((buf[0] << 8) | buf[1]) % 31 == 0) {
		err = inflate_all(buf, len, &text, &tlen);
		free(buf);
		if (err)
			return cli_error(c, EXIT_FAIL, "--input %s: %s", file,
					 err == -ENOMEM ? "out of memory" :
					 "zlib data that does not decompress (damo's json_compressed?)");
	} else {
		text = buf;
		tlen = len;
	}
	r = (struct rd){ (const char *)text, (const char *)text + tlen, NULL };
	if (!eat(&r, '[')) {
		free(text);
		return cli_error(c, EXIT_FAIL,
				 "--input %s: not a record damoctl reads (damo's json or json_compressed: a list of records)",
				 file);
	}
	err = 0;
	if (!eat(&r, ']')) {
		do {
			more = realloc(recs, (*nr + 1) * sizeof(*recs));
			if (!more) {
				err = fail(&r, "memory (out of memory)");
				break;
			}
			recs = more;
			rr.cur = &recs[(*nr)++];
			memset(rr.cur, 0, sizeof(*rr.cur));
			/* damo's defaults where a record has no intervals */
			rr.cur->a = (struct damon_attrs){ .sz = sizeof(rr.cur->a), .sample_us = 5000,
				.aggr_us = 100000, .update_us = 1000000,
				.min_nr_regions = 10, .max_nr_regions = 1000 };
			err = members(&r, &rr, record_member);
		} while (!err && eat(&r, ','));
		if (!err && !eat(&r, ']'))
			err = fail(&r, "']' or ','");
	}
	if (!err) {
		ws(&r);
		if (r.p != r.end)
			err = fail(&r, "nothing after the list");
	}
	if (err) {
		size_t at = r.p - (const char *)text;

		for (size_t i = 0; i < *nr; i++)
			cli_record_free(&recs[i]);
		free(recs);
		free(text);
		*nr = 0;
		return cli_error(c, EXIT_FAIL, "--input %s: byte %zu: expected %s",
				 file, at, r.err);
	}
	free(text);
	*out = recs;
	return EXIT_OK;
}

/*
 * The record that --input shows: the first with snapshots, and a note
 * when others (other targets) are left out.
 */
int cli_record_input(struct cli *c, const char *file, struct cli_record *rec)
{
	struct cli_record *recs;
	size_t n, pick = 0, with = 0;
	int status = cli_record_load(c, file, &recs, &n);

	memset(rec, 0, sizeof(*rec));
	if (status)
		return status;
	for (size_t i = n; i-- > 0;)
		if (recs[i].nr) {
			pick = i;
			with++;
		}
	if (!with) {
		for (size_t i = 0; i < n; i++)
			cli_record_free(&recs[i]);
		free(recs);
		return cli_error(c, EXIT_FAIL, "--input %s: no snapshot in it", file);
	}
	if (with > 1)
		cli_note(c, "--input %s: %zu records (targets) with snapshots; the first is shown",
			 file, with);
	*rec = recs[pick];
	for (size_t i = 0; i < n; i++)
		if (i != pick)
			cli_record_free(&recs[i]);
	free(recs);
	return EXIT_OK;
}

/* ---- writing ---- */

enum { FMT_JSON, FMT_JSON_COMPRESSED };

static const char *const fmt_words[] = { "json", "json_compressed", NULL };
static const char *const rec_source_words[] = { "auto", "tried", "trace", NULL };

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* damo's json, as its v3.3.0 writes it with raw numbers */
void cli_record_write(FILE *f, const struct cli_record *rec, int kdamond)
{
	const struct damon_attrs *a = &rec->a;

	fprintf(f, "[{\"kdamond_idx\": %d, \"context_idx\": 0, \"intervals\": "
		"{\"sample_us\": \"%llu\", \"aggr_us\": \"%llu\", \"ops_update_us\": \"%llu\"}, "
		"\"scheme_idx\": null, \"target_id\": 0, \"scheme_filters\": [], \"snapshots\": [",
		kdamond, (unsigned long long)a->sample_us,
		(unsigned long long)a->aggr_us, (unsigned long long)a->update_us);
	for (size_t i = 0; i < rec->nr; i++) {
		const struct cli_record_snap *s = &rec->s[i];
		uint64_t total = 0;

		fprintf(f, "%s\n{\"start_time\": \"%llu\", \"end_time\": \"%llu\", \"regions\": [",
			i ? "," : "", (unsigned long long)s->start_ns,
			(unsigned long long)s->end_ns);
		for (size_t j = 0; j < s->nr; j++) {
			const struct damos_tried_region *r = &s->r[j];

			total += r->end - r->start;
			fprintf(f, "%s\n{\"start\": \"%llu\", \"end\": \"%llu\", "
				"\"nr_accesses\": {\"samples\": %llu, \"percent\": null}, "
				"\"age\": {\"usec\": \"%llu\", \"aggr_intervals\": \"%llu\"}, "
				"\"probe_hits\": [], \"sz_filter_passed\": \"0\"}",
				j ? "," : "", (unsigned long long)r->start,
				(unsigned long long)r->end,
				(unsigned long long)r->nr_accesses,
				(unsigned long long)(r->age * a->aggr_us),
				(unsigned long long)r->age);
		}
		fprintf(f, "], \"total_bytes\": \"%llu\", \"damos_stats\": null, "
			"\"sample_interval_us\": null}", (unsigned long long)total);
	}
	fprintf(f, "], \"data_source\": \"unknown\"}]\n");
}

/* @path replaced whole: a temporary file beside it, then rename(2) */
static int write_file(struct cli *c, const char *path, const void *data,
		      size_t len)
{
	const char *slash = strrchr(path, '/');
	char *tmp = NULL;
	int fd, err = 0;

	if (asprintf(&tmp, "%.*s.%s.XXXXXX", slash ? (int)(slash - path + 1) : 0,
		     path, slash ? slash + 1 : path) < 0)
		return cli_error(c, EXIT_FAIL, "out of memory");
	fd = mkstemp(tmp);
	if (fd < 0) {
		err = errno;
		free(tmp);
		return cli_error(c, EXIT_FAIL, "%s: %s", path, strerror(err));
	}
	if (fchmod(fd, 0644) || write(fd, data, len) != (ssize_t)len)
		err = errno ? errno : EIO;
	if (close(fd) && !err)
		err = errno;
	if (!err && rename(tmp, path))
		err = errno;
	if (err)
		unlink(tmp);
	free(tmp);
	return err ? cli_error(c, EXIT_FAIL, "%s: %s", path, strerror(err)) : EXIT_OK;
}

static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
	(void)sig;
	interrupted = 1;
}

static int take(struct cli *c, struct damon_ctx *d,
		const struct damon_snapshot_opts *o, uint64_t duration_us,
		struct cli_record *rec)
{
	struct sigaction sa = { .sa_handler = on_sigint, .sa_flags = SA_RESTART }, old;
	bool progress = isatty(fileno(c->err)) && !c->json;
	uint64_t t0 = mono_ns(), aggr_ns = rec->a.aggr_us * 1000;
	int err = 0;

	sigemptyset(&sa.sa_mask);
	interrupted = 0;
	sigaction(SIGINT, &sa, &old);
	while (!err && !interrupted &&
	       (!rec->nr || mono_ns() - t0 < duration_us * 1000)) {
		struct damos_tried_regions *tr = NULL;
		struct cli_record_snap *more, *s;
		uint64_t t1 = mono_ns();

		err = damon_access_snapshot(d, o, &tr);
		if (err)
			break;
		more = realloc(rec->s, (rec->nr + 1) * sizeof(*more));
		if (!more) {
			damos_tried_regions_free(tr);
			err = -ENOMEM;
			break;
		}
		rec->s = more;
		s = &rec->s[rec->nr];
		s->end_ns = mono_ns();
		/* a snapshot is of the aggregation interval that ended there */
		s->start_ns = s->end_ns > aggr_ns ? s->end_ns - aggr_ns : 0;
		s->nr = damos_tried_regions_nr(tr);
		s->r = calloc(s->nr ? s->nr : 1, sizeof(*s->r));
		if (!s->r) {
			damos_tried_regions_free(tr);
			err = -ENOMEM;
			break;
		}
		rec->nr++;
		for (size_t i = 0; i < s->nr; i++) {
			s->r[i].sz = sizeof(s->r[i]);
			damos_tried_regions_get(tr, i, &s->r[i]);
		}
		damos_tried_regions_free(tr);
		if (progress && mono_ns() - t0 >= 1000000000)
			fprintf(c->err, "\rrecord: %zu snapshots, %llu s of %llu s (Ctrl-C: stop here)",
				rec->nr, (unsigned long long)((mono_ns() - t0) / 1000000000),
				(unsigned long long)(duration_us / 1000000));
		if (!interrupted && mono_ns() - t1 < aggr_ns)
			usleep((aggr_ns - (mono_ns() - t1)) / 1000);
	}
	sigaction(SIGINT, &old, NULL);
	if (progress && mono_ns() - t0 >= 1000000000)
		fprintf(c->err, "\r\033[K");
	return err;
}

static int word_at(const char *const *words, const char *w)
{
	for (int i = 0; words[i]; i++)
		if (!strcmp(words[i], w))
			return i;
	return -1;
}

int record_run(struct cli *c, int argc, char **argv)
{
	struct damon_snapshot_opts o = { .sz = sizeof(o) };
	struct cli_record rec = { 0 };
	uint64_t duration = 10000000;
	const char *file = NULL;
	char *text = NULL;
	size_t len = 0;
	int fmt = FMT_JSON, status, err;
	struct damon_ctx *d;
	FILE *f;

	for (int i = 0; i < argc; i++) {
		const char *kw = argv[i];
		int w;

		if (strcmp(kw, "duration") && strcmp(kw, "format") &&
		    strcmp(kw, "source")) {
			if (!file && *kw && kw[0] != '-') {
				file = kw;
				continue;
			}
			return cli_error(c, EXIT_USAGE, file ?
					 "unknown keyword '%s' (expected duration, format or source)" :
					 "'%s' is not a file name (expected record FILE [duration TIME] ...)",
					 kw);
		}
		if (i + 1 >= argc)
			return cli_error(c, EXIT_USAGE, "%s: expected a value", kw);
		i++;
		if (!strcmp(kw, "duration")) {
			if (damos_parse_time_us(argv[i], 1000000, &duration) || !duration)
				return cli_error(c, EXIT_USAGE,
						 "duration: '%s' is not a time above 0 (units: us ms s m h; bare: s)",
						 argv[i]);
			continue;
		}
		w = word_at(!strcmp(kw, "format") ? fmt_words : rec_source_words, argv[i]);
		if (w < 0)
			return cli_error(c, EXIT_USAGE, "%s: '%s' is not one of %s", kw,
					 argv[i], !strcmp(kw, "format") ?
					 "json, json_compressed" : "auto, tried, trace");
		if (!strcmp(kw, "format"))
			fmt = w;
		else
			o.source = w;
	}
	if (!file)
		return cli_error(c, EXIT_USAGE, "expected a FILE to record to");
	d = cli_open(c);
	if (!d)
		return EXIT_FAIL;
	err = damon_attrs_read(d, &rec.a);
	if (!err)
		err = take(c, d, &o, duration, &rec);
	if (err && rec.nr && (interrupted || err == -ENOMEM))
		err = 0;
	if (err) {
		cli_record_free(&rec);
		return cli_close(c, d, err == -ENOMEM ?
				 cli_error(c, EXIT_FAIL, "out of memory") :
				 cli_lib_error(c, err));
	}
	f = open_memstream(&text, &len);
	if (!f) {
		cli_record_free(&rec);
		return cli_close(c, d, cli_error(c, EXIT_FAIL, "out of memory"));
	}
	cli_record_write(f, &rec, c->kdamond);
	fclose(f);
	if (fmt == FMT_JSON_COMPRESSED) {
		uLongf zlen = compressBound(len);
		unsigned char *z = malloc(zlen);

		if (!z || compress(z, &zlen, (const unsigned char *)text, len) != Z_OK) {
			free(z);
			status = cli_error(c, EXIT_FAIL, "out of memory");
		} else {
			status = write_file(c, file, z, zlen);
			free(z);
		}
	} else {
		status = write_file(c, file, text, len);
	}
	free(text);
	if (!status) {
		size_t nreg = 0;

		for (size_t i = 0; i < rec.nr; i++)
			nreg += rec.s[i].nr;
		if (c->json) {
			struct json_object *j = json_object_new_object();

			json_object_object_add(j, "file", json_str(file));
			json_object_object_add(j, "format", json_str(fmt_words[fmt]));
			json_object_object_add(j, "nr_snapshots", json_u64(rec.nr));
			json_object_object_add(j, "nr_regions", json_u64(nreg));
			json_print(c->out, j);
		} else {
			fprintf(c->out, "%s: %zu snapshots, %zu regions, damo's %s format\n",
				file, rec.nr, nreg, fmt_words[fmt]);
		}
	}
	cli_record_free(&rec);
	return cli_close(c, d, status);
}

const struct cli_grammar record_grammar = {
	.kws = (const struct kw_spec[]){
		{ "duration", 1, .args = "TIME",
		  .help = "how long to take snapshots (bare: s; default 10s), one an aggregation interval at most; Ctrl-C stops early and writes what was taken" },
		{ "format", 1, fmt_words, .args = "json|json_compressed",
		  .help = "damo's record formats: JSON text (default), or the same zlib-compressed" },
		{ "source", 1, rec_source_words, .args = "auto|tried|trace",
		  .help = "as for report access" },
		{ NULL },
	},
};
