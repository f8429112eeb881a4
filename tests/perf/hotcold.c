// SPDX-License-Identifier: GPL-2.0
/*
 * hotcold: a memory workload with a hot set and a cold set, for measuring
 * what LRU-list sorting buys under memory pressure.
 *
 * The buffer (hot + cold pages) is first filled page by page, then accessed:
 * a --skew percentage of accesses goes to a uniformly random page of the hot
 * window, the rest to a uniformly random page outside it.  With --phases N the
 * hot window moves N-1 times, evenly over the run.  The access sequence
 * depends only on the options and --seed, so a trace taken in one run is the
 * trace of every run with the same options; --progress records when each
 * access index was reached, which maps a run's wall-clock events (memcg limit
 * changes) onto the trace.  See README.md for the trace format.
 *
 * Every --tlb-flush accesses (4096 by default) the process's TLB is flushed,
 * as capacity misses would on hardware: see flush_tlb() below.  The flush
 * touches a separate small mapping only, so the trace is the same with or
 * without it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "hctrace.h"

struct opts {
	uint64_t hot_sz;
	uint64_t cold_sz;
	double skew;
	unsigned int phases;
	uint64_t accesses;
	double duration;
	unsigned int write_pct;
	uint64_t seed;
	const char *trace;
	const char *progress;
	const char *fill;
	int trace_only;
	uint64_t tlb_every;
};

static uint64_t rng_state;

/* xorshift64*: fast, and identical on every machine for a given seed */
static inline uint64_t rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545F4914F6CDD1DULL;
}

/*
 * DAMON (and the kernel's own reclaim) sees an access through the page
 * table's accessed bit, which the CPU sets when it walks the page table on a
 * TLB miss; clearing the bit (DAMON's mkold, ptep_clear_flush_young on x86)
 * flushes no TLB.  A hardware TLB holds a few thousand entries, so random
 * accesses over a 32 MiB hot set miss it nearly every time and every access
 * sets the bit again.  QEMU's TCG grows its software TLB until the whole
 * working set fits; then the hot pages are never walked again and look idle
 * to DAMON and to reclaim, unless something incidental flushes the TLB.  So
 * every --tlb-flush accesses, change the protection of FLUSH_PAGES pages of
 * a separate, resident mapping and back: flush_tlb_range() over more than 33
 * pages (tlb_single_page_flush_ceiling) flushes the whole TLB of the mm.
 * The pages are read first: reclaim may have swapped them out, and mprotect
 * of a swap entry changes no PTE and flushes nothing.
 */
#define FLUSH_PAGES 64

static char *tlb_buf;
static uint64_t tlb_flushes;

static void flush_tlb(uint64_t psz)
{
	volatile char *v = tlb_buf;
	uint64_t k;

	for (k = 0; k < FLUSH_PAGES; k++)
		(void)v[k * psz];
	mprotect(tlb_buf, FLUSH_PAGES * psz, PROT_READ);
	mprotect(tlb_buf, FLUSH_PAGES * psz, PROT_READ | PROT_WRITE);
	tlb_flushes++;
}

static uint64_t now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static int parse_size(const char *s, uint64_t *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || v < 0)
		return -1;
	switch (*end) {
	case 'k': case 'K': v *= 1024; end++; break;
	case 'm': case 'M': v *= 1024 * 1024; end++; break;
	case 'g': case 'G': v *= 1024.0 * 1024 * 1024; end++; break;
	case '\0': break;
	default: return -1;
	}
	if (*end)
		return -1;
	*out = (uint64_t)v;
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: hotcold [OPTIONS]\n"
"  -H, --hot SIZE        hot set size (default 32M; units K M G)\n"
"  -C, --cold SIZE       cold set size (default 160M)\n"
"  -s, --skew PCT        percent of accesses that go to the hot set (default 99)\n"
"  -p, --phases N        the hot window moves N-1 times, evenly (default 1)\n"
"  -n, --accesses N      fixed work: N accesses after the fill (default 2e7)\n"
"  -d, --duration SEC    run for SEC seconds instead of a fixed count\n"
"  -w, --write PCT       percent of accesses that also write (default 25)\n"
"  -S, --seed N          random seed (default 1)\n"
"  -f, --fill half|random|zero  page content (default half: ~2:1 compressible)\n"
"  -t, --trace FILE      write the access trace (binary, see README.md)\n"
"  -P, --progress FILE   write 'realtime_ns access_index' every 10 ms\n"
"  -T, --trace-only      generate the trace without touching memory\n"
"  -F, --tlb-flush N     flush the process's TLB every N accesses, as a\n"
"                        hardware TLB's capacity misses would (default 4096;\n"
"                        0: never, QEMU TCG's software TLB then hides the\n"
"                        hot set's accesses from DAMON and reclaim)\n"
"  -h, --help\n"
"Prints one line of key=value results on stdout.\n");
}

struct tracer {
	FILE *f;
	struct hctrace_rec buf[4096];
	size_t n;
};

static void trace_put(struct tracer *t, uint64_t idx, uint32_t page,
		      uint32_t kind)
{
	if (!t->f)
		return;
	t->buf[t->n].idx = idx;
	t->buf[t->n].page = page;
	t->buf[t->n].kind = kind;
	if (++t->n == sizeof(t->buf) / sizeof(t->buf[0])) {
		fwrite(t->buf, sizeof(t->buf[0]), t->n, t->f);
		t->n = 0;
	}
}

static int trace_close(struct tracer *t)
{
	if (!t->f)
		return 0;
	if (t->n)
		fwrite(t->buf, sizeof(t->buf[0]), t->n, t->f);
	return fclose(t->f) ? -1 : 0;
}

struct progress {
	uint64_t (*v)[2];
	size_t n, cap;
};

static void progress_put(struct progress *p, uint64_t t, uint64_t idx)
{
	if (p->n == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 4096;
		void *nv = realloc(p->v, cap * sizeof(p->v[0]));

		if (!nv)
			return;	/* a coarser log is still usable */
		p->v = nv;
		p->cap = cap;
	}
	p->v[p->n][0] = t;
	p->v[p->n][1] = idx;
	p->n++;
}

static uint64_t hot_start(const struct opts *o, uint64_t npages,
			  uint64_t nhot, unsigned int phase)
{
	if (o->phases <= 1)
		return 0;
	return (npages - nhot) * phase / (o->phases - 1);
}

int main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "hot", required_argument, NULL, 'H' },
		{ "cold", required_argument, NULL, 'C' },
		{ "skew", required_argument, NULL, 's' },
		{ "phases", required_argument, NULL, 'p' },
		{ "accesses", required_argument, NULL, 'n' },
		{ "duration", required_argument, NULL, 'd' },
		{ "write", required_argument, NULL, 'w' },
		{ "seed", required_argument, NULL, 'S' },
		{ "fill", required_argument, NULL, 'f' },
		{ "trace", required_argument, NULL, 't' },
		{ "progress", required_argument, NULL, 'P' },
		{ "trace-only", no_argument, NULL, 'T' },
		{ "tlb-flush", required_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct opts o = {
		.hot_sz = 32 << 20, .cold_sz = 160 << 20, .skew = 99,
		.phases = 1, .accesses = 20000000, .write_pct = 25, .seed = 1,
		.fill = "half", .tlb_every = 4096,
	};
	struct tracer tr = { 0 };
	struct progress pg = { 0 };
	uint64_t psz = (uint64_t)sysconf(_SC_PAGESIZE);
	uint64_t npages, nhot, ncold, hot_thres, idx = 0, i, sum = 0;
	uint64_t t0, t_fill, t_end, rt0, next_pg, hs, n_hot = 0, since_flush = 0;
	unsigned int phase = 0;
	struct rusage ru;
	char *buf = NULL;
	int c;

	while ((c = getopt_long(argc, argv, "H:C:s:p:n:d:w:S:f:t:P:TF:h",
				lopts, NULL)) != -1) {
		char *end = NULL;

		errno = 0;
		switch (c) {
		case 'H':
			if (parse_size(optarg, &o.hot_sz))
				goto bad;
			break;
		case 'C':
			if (parse_size(optarg, &o.cold_sz))
				goto bad;
			break;
		case 's':
			o.skew = strtod(optarg, &end);
			if (*end || o.skew < 0 || o.skew > 100)
				goto bad;
			break;
		case 'p':
			o.phases = strtoul(optarg, &end, 10);
			if (*end || !o.phases)
				goto bad;
			break;
		case 'n':
			o.accesses = (uint64_t)strtod(optarg, &end);
			if (*end)
				goto bad;
			break;
		case 'd':
			o.duration = strtod(optarg, &end);
			if (*end || o.duration <= 0)
				goto bad;
			break;
		case 'w':
			o.write_pct = strtoul(optarg, &end, 10);
			if (*end || o.write_pct > 100)
				goto bad;
			break;
		case 'S':
			o.seed = strtoull(optarg, &end, 0);
			if (*end)
				goto bad;
			break;
		case 'f':
			if (strcmp(optarg, "half") && strcmp(optarg, "random") &&
			    strcmp(optarg, "zero"))
				goto bad;
			o.fill = optarg;
			break;
		case 't':
			o.trace = optarg;
			break;
		case 'P':
			o.progress = optarg;
			break;
		case 'T':
			o.trace_only = 1;
			break;
		case 'F':
			o.tlb_every = strtoull(optarg, &end, 0);
			if (*end || optarg[0] == '-')
				goto bad;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
		continue;
bad:
		fprintf(stderr, "hotcold: invalid value '%s' for option -%c\n",
			optarg, c);
		return 2;
	}
	if (optind != argc) {
		usage(stderr);
		return 2;
	}

	nhot = o.hot_sz / psz;
	ncold = o.cold_sz / psz;
	npages = nhot + ncold;
	if (!nhot || !ncold || npages > UINT32_MAX) {
		fprintf(stderr, "hotcold: hot and cold sets need >= 1 page each\n");
		return 2;
	}
	if (o.trace_only && (o.duration > 0 || !o.trace)) {
		fprintf(stderr, "hotcold: --trace-only needs --trace and a fixed --accesses\n");
		return 2;
	}
	if (o.trace && o.duration > 0) {
		fprintf(stderr, "hotcold: --trace needs a fixed --accesses, not --duration\n");
		return 2;
	}
	hot_thres = (uint64_t)(o.skew / 100.0 * (double)UINT32_MAX);
	rng_state = o.seed * 0x9E3779B97F4A7C15ULL + 1;

	if (o.trace) {
		struct hctrace_hdr h = {
			.magic = HCTRACE_MAGIC, .page_size = psz,
			.npages = npages, .nhot = nhot, .phases = o.phases,
			.accesses = o.accesses, .seed = o.seed,
		};

		tr.f = fopen(o.trace, "w");
		if (!tr.f || fwrite(&h, sizeof(h), 1, tr.f) != 1) {
			fprintf(stderr, "hotcold: %s: %s\n", o.trace,
				strerror(errno));
			return 1;
		}
	}

	if (!o.trace_only) {
		buf = mmap(NULL, npages * psz, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (buf == MAP_FAILED) {
			perror("hotcold: mmap");
			return 1;
		}
#ifdef MADV_NOHUGEPAGE
		/* page-granular LRU behaviour, whatever the THP setting */
		madvise(buf, npages * psz, MADV_NOHUGEPAGE);
#endif
		if (o.tlb_every) {
			tlb_buf = mmap(NULL, FLUSH_PAGES * psz,
				       PROT_READ | PROT_WRITE,
				       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			if (tlb_buf == MAP_FAILED) {
				perror("hotcold: mmap");
				return 1;
			}
			/* real pages, not the zero page */
			for (i = 0; i < FLUSH_PAGES; i++)
				tlb_buf[i * psz] = 1;
		}
	}

	t0 = now_ns(CLOCK_MONOTONIC);
	rt0 = now_ns(CLOCK_REALTIME);
	progress_put(&pg, rt0, 0);

	hs = hot_start(&o, npages, nhot, 0);
	trace_put(&tr, 0, hs, HCTRACE_PHASE);
	next_pg = t0 + 10000000;
	for (i = 0; i < npages; i++, idx++) {
		trace_put(&tr, idx, i, HCTRACE_FILL);
		if (o.trace_only)
			continue;
		/* the fill slows down once the memcg limit is reached: log it
		 * too, or a limit change inside it maps to the wrong page */
		if (!(i & 63)) {
			uint64_t t = now_ns(CLOCK_MONOTONIC);

			if (t >= next_pg) {
				progress_put(&pg, now_ns(CLOCK_REALTIME), idx);
				next_pg = t + 10000000;
			}
		}
		uint64_t *p = (uint64_t *)(buf + i * psz);
		size_t nw = psz / 8, w, nr;

		nr = !strcmp(o.fill, "zero") ? 0 :
		     !strcmp(o.fill, "random") ? nw : nw / 2;
		p[nw - 1] = i + 1;	/* never a same-filled page for zram */
		/* content from its own generator: the access sequence must
		 * not depend on whether memory is really touched */
		for (w = 0; w < nr; w++)
			p[w] = (i * nw + w + 1) * 0x9E3779B97F4A7C15ULL;
	}
	t_fill = now_ns(CLOCK_MONOTONIC);
	progress_put(&pg, now_ns(CLOCK_REALTIME), idx);
	next_pg = t_fill + 10000000;

	for (i = 0;; i++, idx++) {
		uint64_t r, page;

		if (o.duration > 0) {
			if (!(i & 4095)) {
				uint64_t t = now_ns(CLOCK_MONOTONIC);
				double el = (t - t_fill) / 1e9;
				unsigned int ph;

				if (el >= o.duration)
					break;
				ph = el * o.phases / o.duration;
				if (ph != phase && ph < o.phases) {
					phase = ph;
					hs = hot_start(&o, npages, nhot, phase);
				}
			}
		} else {
			unsigned int ph;

			if (i >= o.accesses)
				break;
			ph = i * o.phases / o.accesses;
			if (ph != phase) {
				phase = ph;
				hs = hot_start(&o, npages, nhot, phase);
				trace_put(&tr, idx, hs, HCTRACE_PHASE);
			}
		}
		if (!(i & 4095) && pg.n) {
			uint64_t t = now_ns(CLOCK_MONOTONIC);

			if (t >= next_pg) {
				progress_put(&pg, now_ns(CLOCK_REALTIME), idx);
				next_pg = t + 10000000;
			}
		}

		r = rnd();
		if ((r & 0xffffffff) < hot_thres) {
			page = hs + (r >> 32) % nhot;
			n_hot++;
		} else {
			page = (r >> 32) % ncold;
			if (page >= hs)
				page += nhot;
			trace_put(&tr, idx, page, HCTRACE_ACCESS);
		}
		if (o.trace_only)
			continue;
		if (o.tlb_every && ++since_flush >= o.tlb_every) {
			flush_tlb(psz);
			since_flush = 0;
		}
		{
			uint64_t *p = (uint64_t *)(buf + page * psz);
			unsigned int off = (r >> 8) % (psz / 8);

			sum += p[off];
			if (((r >> 16) & 0xffff) * 100 < o.write_pct * 65536ULL)
				p[off] = sum;
		}
	}
	t_end = now_ns(CLOCK_MONOTONIC);
	progress_put(&pg, now_ns(CLOCK_REALTIME), idx);

	if (trace_close(&tr)) {
		fprintf(stderr, "hotcold: %s: %s\n", o.trace, strerror(errno));
		return 1;
	}
	if (o.progress) {
		FILE *f = fopen(o.progress, "w");
		size_t k;

		if (!f) {
			fprintf(stderr, "hotcold: %s: %s\n", o.progress,
				strerror(errno));
			return 1;
		}
		for (k = 0; k < pg.n; k++)
			fprintf(f, "%" PRIu64 " %" PRIu64 "\n", pg.v[k][0],
				pg.v[k][1]);
		if (fclose(f)) {
			fprintf(stderr, "hotcold: %s: %s\n", o.progress,
				strerror(errno));
			return 1;
		}
	}

	getrusage(RUSAGE_SELF, &ru);
	printf("runtime_s=%.3f fill_s=%.3f access_s=%.3f accesses=%" PRIu64
	       " hot_accesses=%" PRIu64 " rate_per_s=%.0f pages=%" PRIu64
	       " hot_pages=%" PRIu64 " maxrss_kb=%ld majflt=%ld minflt=%ld"
	       " start_realtime_ns=%" PRIu64 " tlb_flush_every=%" PRIu64
	       " tlb_flushes=%" PRIu64 " checksum=%" PRIx64 "\n",
	       (t_end - t0) / 1e9, (t_fill - t0) / 1e9, (t_end - t_fill) / 1e9,
	       i, n_hot, i / ((t_end - t_fill) / 1e9 + 1e-9), npages, nhot,
	       ru.ru_maxrss, ru.ru_majflt, ru.ru_minflt, rt0, o.tlb_every,
	       tlb_flushes, sum);
	return 0;
}
