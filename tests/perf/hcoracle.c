// SPDX-License-Identifier: GPL-2.0
/*
 * hcoracle: the floor for a hotcold run under a changing memcg limit.
 *
 * Replays a hotcold trace against the limits a run actually saw and counts
 * the major faults of an oracle that keeps the current hot window resident
 * (pinned) and manages every other page with Belady's MIN, which evicts the
 * page whose next use is farthest.  No real policy can do better while
 * keeping the hot set resident, so the count is a floor for that run.  The
 * same replay with LRU for the non-hot pages is printed for reference.
 *
 * Limits are "realtime_ns bytes" lines (bytes may be "max"); the run's
 * --progress log maps those times onto access indices.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hctrace.h"

#define NONE UINT64_MAX

enum { UNTOUCHED, COLD, PINNED, SWAPPED };

struct capev {
	uint64_t idx;
	uint64_t cap;
};

struct trace {
	struct hctrace_hdr h;
	struct hctrace_rec *r;
	size_t n;
	uint64_t *nxt;		/* position of the page's next record */
	uint64_t *first;	/* per page: position of its first record */
};

struct heapent {
	uint64_t key;
	uint32_t page;
	uint32_t gen;
};

struct sim {
	const struct trace *t;
	int lru;
	uint8_t *state;
	uint32_t *gen;
	uint64_t *cursor;	/* per page: position of next unseen record */
	uint64_t *key;		/* MIN: next use; LRU: last use */
	struct heapent *heap;	/* max-heap on key (MIN) or on -key (LRU) */
	size_t hn, hcap;
	uint64_t resident, pinned, cap;
	uint64_t majflt, evictions, overflow;
	uint64_t hs;		/* hot window start */
};

static void die(const char *msg)
{
	fprintf(stderr, "hcoracle: %s\n", msg);
	exit(1);
}

static void *xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n ? n : 1, sz);

	if (!p)
		die("out of memory");
	return p;
}

static void heap_push(struct sim *s, uint64_t key, uint32_t page)
{
	size_t i;

	if (s->hn == s->hcap) {
		s->hcap = s->hcap ? s->hcap * 2 : 1 << 16;
		s->heap = realloc(s->heap, s->hcap * sizeof(*s->heap));
		if (!s->heap)
			die("out of memory");
	}
	i = s->hn++;
	while (i) {
		size_t p = (i - 1) / 2;

		if (s->heap[p].key >= key)
			break;
		s->heap[i] = s->heap[p];
		i = p;
	}
	s->heap[i].key = key;
	s->heap[i].page = page;
	s->heap[i].gen = s->gen[page];
}

static struct heapent heap_pop(struct sim *s)
{
	struct heapent top = s->heap[0], last = s->heap[--s->hn];
	size_t i = 0;

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= s->hn)
			break;
		if (c + 1 < s->hn && s->heap[c + 1].key > s->heap[c].key)
			c++;
		if (s->heap[c].key <= last.key)
			break;
		s->heap[i] = s->heap[c];
		i = c;
	}
	if (s->hn)
		s->heap[i] = last;
	return top;
}

static int in_hot(const struct sim *s, uint64_t page)
{
	return page >= s->hs && page < s->hs + s->t->h.nhot;
}

/* (re)insert a resident non-hot page with its current priority */
static void make_cold(struct sim *s, uint32_t page, uint64_t now)
{
	s->state[page] = COLD;
	s->gen[page]++;
	/* MIN evicts the largest next use; LRU the oldest (largest ~last) */
	s->key[page] = s->lru ? ~now : s->cursor[page];
	heap_push(s, s->key[page], page);
}

static void shrink(struct sim *s)
{
	while (s->resident > s->cap) {
		struct heapent e;

		if (!s->hn) {
			s->overflow++;
			return;
		}
		e = heap_pop(s);
		if (s->state[e.page] != COLD || s->gen[e.page] != e.gen)
			continue;
		s->state[e.page] = SWAPPED;
		s->gen[e.page]++;
		s->resident--;
		s->evictions++;
	}
}

static void touch(struct sim *s, uint32_t page, uint64_t now)
{
	switch (s->state[page]) {
	case SWAPPED:
		s->majflt++;
		/* fall through */
	case UNTOUCHED:
		s->resident++;
		break;
	default:
		break;
	}
	if (in_hot(s, page)) {
		if (s->state[page] != PINNED)
			s->pinned++;
		s->state[page] = PINNED;
		s->gen[page]++;
	} else {
		make_cold(s, page, now);
	}
}

static void new_phase(struct sim *s, uint64_t hs, uint64_t now)
{
	uint64_t p, old = s->hs, nhot = s->t->h.nhot;

	s->hs = hs;
	for (p = old; p < old + nhot; p++)
		if (s->state[p] == PINNED && !in_hot(s, p)) {
			s->pinned--;
			make_cold(s, p, now);
		}
	/* the new hot pages are touched at once: pay for any in swap now */
	for (p = hs; p < hs + nhot; p++)
		if (s->state[p] == COLD || s->state[p] == SWAPPED)
			touch(s, p, now);
}

static void run(struct sim *s, const struct capev *cev, size_t ncev,
		uint64_t cap0)
{
	const struct trace *t = s->t;
	size_t i, c = 0;

	s->cap = cap0;
	s->hs = 0;
	memcpy(s->cursor, t->first, t->h.npages * sizeof(*s->cursor));
	for (i = 0; i < t->n; i++) {
		const struct hctrace_rec *r = &t->r[i];

		while (c < ncev && cev[c].idx <= r->idx) {
			s->cap = cev[c++].cap;
			shrink(s);
		}
		if (r->page >= t->h.npages)
			die("trace: page out of range");
		if (r->kind == HCTRACE_PHASE) {
			if (r->page + (uint64_t)t->h.nhot > t->h.npages)
				die("trace: hot window out of range");
			new_phase(s, r->page, i);
		} else {
			s->cursor[r->page] = t->nxt[i];
			touch(s, r->page, i);
		}
		shrink(s);
	}
}

static void load_trace(const char *path, struct trace *t)
{
	FILE *f = fopen(path, "r");
	size_t cap = 1 << 20, i;
	uint64_t *last;

	if (!f || fread(&t->h, sizeof(t->h), 1, f) != 1)
		die("cannot read the trace header");
	if (t->h.magic != HCTRACE_MAGIC || !t->h.nhot ||
	    t->h.nhot > t->h.npages)
		die("not a hotcold trace");
	t->r = xcalloc(cap, sizeof(*t->r));
	for (;;) {
		size_t got;

		if (t->n == cap) {
			cap *= 2;
			t->r = realloc(t->r, cap * sizeof(*t->r));
			if (!t->r)
				die("out of memory");
		}
		got = fread(t->r + t->n, sizeof(*t->r), cap - t->n, f);
		t->n += got;
		if (t->n < cap)
			break;
	}
	fclose(f);

	t->nxt = xcalloc(t->n, sizeof(*t->nxt));
	t->first = xcalloc(t->h.npages, sizeof(*t->first));
	last = xcalloc(t->h.npages, sizeof(*last));
	for (i = 0; i < t->h.npages; i++)
		last[i] = NONE;
	for (i = t->n; i-- > 0;) {
		uint32_t p = t->r[i].page;

		if (t->r[i].kind == HCTRACE_PHASE || p >= t->h.npages) {
			t->nxt[i] = NONE;
			continue;
		}
		t->nxt[i] = last[p];
		last[p] = i;
	}
	memcpy(t->first, last, t->h.npages * sizeof(*last));
	free(last);
}

/* access index reached at realtime ns, by linear interpolation */
static uint64_t time_to_idx(const uint64_t (*pg)[2], size_t n, uint64_t ns)
{
	size_t i;

	if (!n || ns <= pg[0][0])
		return 0;
	for (i = 1; i < n; i++)
		if (ns < pg[i][0]) {
			double f = (double)(ns - pg[i - 1][0]) /
				   (double)(pg[i][0] - pg[i - 1][0]);

			return pg[i - 1][1] + f * (pg[i][1] - pg[i - 1][1]);
		}
	return NONE;
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: hcoracle -t TRACE [-P PROGRESS -l LIMITS | -c PAGES] [-o PAGES]\n"
"  -t TRACE     hotcold --trace output\n"
"  -P PROGRESS  the run's hotcold --progress output\n"
"  -l LIMITS    the run's memcg limit changes: 'realtime_ns bytes|max' lines\n"
"  -c PAGES     a fixed capacity instead of -P/-l\n"
"  -o PAGES     memcg pages that are not workload data (code, page tables)\n");
}

int main(int argc, char **argv)
{
	const char *tpath = NULL, *ppath = NULL, *lpath = NULL;
	uint64_t fixed = NONE, overhead = 0, cap0 = NONE;
	uint64_t (*pg)[2] = NULL;
	size_t npg = 0, ncev = 0, i;
	struct capev *cev = NULL;
	struct trace t = { 0 };
	struct sim s[2];
	int c;

	while ((c = getopt(argc, argv, "t:P:l:c:o:h")) != -1) {
		switch (c) {
		case 't': tpath = optarg; break;
		case 'P': ppath = optarg; break;
		case 'l': lpath = optarg; break;
		case 'c': fixed = strtoull(optarg, NULL, 0); break;
		case 'o': overhead = strtoull(optarg, NULL, 0); break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (!tpath || (fixed == NONE && (!ppath || !lpath))) {
		usage(stderr);
		return 2;
	}
	load_trace(tpath, &t);

	if (fixed != NONE) {
		cap0 = fixed;
	} else {
		FILE *f = fopen(ppath, "r");
		uint64_t a, b, last_idx = NONE;
		char val[64], line[256];

		if (!f)
			die("cannot open the progress log");
		while (fscanf(f, "%" SCNu64 " %" SCNu64, &a, &b) == 2) {
			pg = realloc(pg, (npg + 1) * sizeof(*pg));
			if (!pg)
				die("out of memory");
			pg[npg][0] = a;
			pg[npg++][1] = b;
		}
		fclose(f);
		f = fopen(lpath, "r");
		if (!f)
			die("cannot open the limits log");
		while (fgets(line, sizeof(line), f)) {
			char note[32];
			uint64_t bytes;

			int nw = sscanf(line, "%" SCNu64 " %63s %31s", &a, val,
					note);
			uint64_t pages, idx;

			if (nw < 2)
				continue;
			bytes = strcmp(val, "max") ? strtoull(val, NULL, 0) : NONE;
			pages = bytes == NONE ? NONE : bytes / t.h.page_size;
			pages = pages == NONE ? NONE :
				pages > overhead ? pages - overhead : 0;
			/*
			 * "t bytes": a limit written at t.  "t bytes reached":
			 * reclaim got there (no change).  "t bytes cut": the
			 * episode was ended with the charge still at bytes, so
			 * the limit only ever bit that far: raise it.
			 */
			if (nw == 3) {
				if (strcmp(note, "cut") || last_idx == NONE)
					continue;
				if (!last_idx && pages > cap0)
					cap0 = pages;
				else if (last_idx && pages > cev[ncev - 1].cap)
					cev[ncev - 1].cap = pages;
				continue;
			}
			idx = time_to_idx((const uint64_t (*)[2])pg, npg, a);
			last_idx = idx;
			if (idx == NONE)
				continue;
			if (!idx) {
				cap0 = pages;
				continue;
			}
			cev = realloc(cev, (ncev + 1) * sizeof(*cev));
			if (!cev)
				die("out of memory");
			cev[ncev].idx = idx;
			cev[ncev++].cap = pages;
		}
		fclose(f);
	}

	for (i = 0; i < 2; i++) {
		memset(&s[i], 0, sizeof(s[i]));
		s[i].t = &t;
		s[i].lru = i;
		s[i].state = xcalloc(t.h.npages, 1);
		s[i].gen = xcalloc(t.h.npages, sizeof(uint32_t));
		s[i].cursor = xcalloc(t.h.npages, sizeof(uint64_t));
		s[i].key = xcalloc(t.h.npages, sizeof(uint64_t));
		run(&s[i], cev, ncev, cap0);
	}
	printf("oracle_majflt=%" PRIu64 " pinned_lru_majflt=%" PRIu64
	       " oracle_evictions=%" PRIu64 " limit_changes=%zu"
	       " trace_records=%zu overflow=%" PRIu64 "\n",
	       s[0].majflt, s[1].majflt, s[0].evictions, ncev, t.n,
	       s[0].overflow + s[1].overflow);
	return 0;
}
