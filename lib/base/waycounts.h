/*
 * waycounts.h - what a sweep of associativities counts (gc-l1 and gc-l2
 * --ways-sweep): per associativity, for the whole stream and for each
 * kernel.  The model (model/waysweep.h) fills them, the report
 * (report/sweeptab.h) writes them; neither needs the other.
 */
#ifndef GC_WAYCOUNTS_H
#define GC_WAYCOUNTS_H

#include <stddef.h>
#include <stdint.h>

/* Counts of one associativity: a separate run's keys. */
typedef struct gc_waysweep_counts {
	uint64_t requests, hits, misses, sector_misses;
	uint64_t sec_requested, sec_hits;
	/* the L2's too (gc-l2): by operation, and the sectors read from DRAM */
	uint64_t reads, read_hits, writes, write_hits, atomics, atomic_hits;
	uint64_t dram_reads;
} gc_waysweep_counts;

typedef struct gc_waysweep_kernel {
	uint32_t id;
	char name[64];
	gc_waysweep_counts *n; /* one per associativity */
} gc_waysweep_kernel;

typedef struct gc_waysweep_stats {
	int l2;                 /* the L2's sweep: its counts written too */
	unsigned line, sector, sets;
	unsigned units;         /* the caches a size counts: 1 (an SM's L1), or the slices */
	const unsigned *ways;
	size_t nways;
	/* the same for every associativity */
	uint64_t requests, loads, stores, atomics, bypassed, shared;
	const gc_waysweep_counts *total; /* one per associativity */
	const gc_waysweep_kernel *kernels;
	size_t nkernels;
} gc_waysweep_stats;

#endif
