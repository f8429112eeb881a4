/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Trace format shared by hotcold (writer) and hcoracle (reader): one header,
 * then records in access-index order.  Host byte order; the trace is read on
 * the machine kind that wrote it (x86_64 guest and host).
 */
#ifndef HCTRACE_H
#define HCTRACE_H

#include <stdint.h>

#define HCTRACE_MAGIC 0x314543415254434bULL	/* "KCTRACE1" */

enum {
	HCTRACE_FILL = 0,	/* first touch of a page (never a major fault) */
	HCTRACE_ACCESS = 1,	/* access to a page outside the hot window */
	HCTRACE_PHASE = 2,	/* the hot window starts at page 'page' */
};

struct hctrace_hdr {
	uint64_t magic;
	uint32_t page_size;
	uint32_t npages;	/* hot + cold */
	uint32_t nhot;		/* hot window length in pages */
	uint32_t phases;
	uint64_t accesses;	/* after the fill */
	uint64_t seed;
};

struct hctrace_rec {
	uint64_t idx;		/* access index: fill touches count too */
	uint32_t page;
	uint32_t kind;
};

#endif
