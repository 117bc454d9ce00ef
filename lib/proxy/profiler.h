/*
 * profiler.h - gc-profile's engine: an accesses stream in, one profile
 * kernel section (profile.h) per kernel out (profiler.c; the clustering of
 * seed 002 §4.4 in profiler_cluster.c).
 *
 * Records may come in any interleaving of warps (a raw trace in arrival
 * order), but each thread's records in program order, as every stream is.
 *
 * State per kernel: per thread seen, for the whole kernel, its node in a
 * prefix tree of the profiles (4 bytes; threads on one path share the
 * node); per warp retired, its threads' state as a chunk of bytes (the
 * spill: last seq, count of non-first accesses, and their first 8
 * (instruction, first address, last address) pins, each a difference
 * from the previous thread's: about 10 bytes a thread in a stream in
 * thread order); per (thread, static instruction) pair past a thread's
 * first 8, its first and last address (24 bytes, and a map entry); the
 * prefix tree, with each node's count of non-first accesses; one
 * distribution builder per instruction for P_A and one per (instruction,
 * context) for P_E (each bounded, pdist.h).  A thread's state proper (its
 * node, last seq, non-first accesses, pins, and its LRU stack of
 * reuse_depth addresses, made at its first access that is no first
 * instance, from the pins) lives in its warp's live entry: at most
 * live_warps of them, the one made live first retired (spilled) for a new
 * warp.  Measured peaks: 19 bytes per thread on gc-gen gather -n 4M, 0.38
 * KB on matmul -n 256 --inner 96 (all 2048 warps live, with their LRU
 * stacks).  So memory grows with the threads of the largest kernel and
 * the distinct profile prefixes, not with the number of accesses.
 *
 * P_E is built as the executors of an instruction come (their first
 * instances), while they come in thread order (a stream in trace order);
 * an instruction whose executors come out of order gets its P_E at the
 * kernel's end from all of them (the live entries' pins, the spill and
 * the map), sorted: the same distributions either way.
 *
 * A warp seen again after its retirement (a stream interleaving more
 * than live_warps warps) gets its state back from the spill, so profiles,
 * P_E and P_A stay exact, but its LRU stacks restart empty: P_R counts
 * the reuses of addresses from before the retirement as none
 * (gc_profiler_resurrected counts such warps).
 *
 * Clustering (§4.4): the distinct profiles, most threads first (ties: the
 * first seen first), each join the first cluster whose representative
 * (its first member) has similarity >= the threshold, else start one.
 * Similarity of profiles a and b: the number of positions i where both
 * have an entry and a[i].inst == b[i].inst, over max(len a, len b); two
 * empty profiles have similarity 1.  Past max_profiles clusters, the
 * smallest clusters join the most similar of the max_profiles largest.  A
 * cluster's profile is its representative; its thread count and P_R are
 * its members'.
 */
#ifndef GC_PROFILER_H
#define GC_PROFILER_H

#include "proxy/profile.h"
#include "stream/format.h"

#include <stddef.h>

#define GC_PROF_SIMILARITY 0.9     /* seed 002: Th = 0.9 */
#define GC_PROF_REUSE_DEPTH 16
#define GC_PROF_REUSE_DEPTH_MAX 256
#define GC_PROF_MAX_PROFILES 64
#define GC_PROF_MAX_RUNS 64
#define GC_PROF_LIVE_WARPS 4096

typedef struct gc_profiler_opts {
	double similarity;     /* 0..1 */
	uint32_t max_exact;    /* exact values per distribution */
	uint32_t reuse_depth;  /* 1..GC_PROF_REUSE_DEPTH_MAX */
	uint32_t max_profiles; /* >= 1 */
	uint32_t max_runs;     /* 0: never keep runs */
	uint32_t live_warps;   /* warps whose live state is kept (>= 1) */
} gc_profiler_opts;

void gc_profiler_opts_default(gc_profiler_opts *o);

typedef struct gc_profiler gc_profiler;

/* NULL when out of memory. */
gc_profiler *gc_profiler_new(const gc_profiler_opts *o, unsigned warp_size);
/* Each returns 0, or -1 with the message in gc_profiler_error (for add,
 * naming the field: "block 9 outside the grid of 8 blocks", "lane 40 not
 * below the warp size 32", "kernel 3 has no begin record"). */
int gc_profiler_kbegin(gc_profiler *p, const gc_kernel *k);
int gc_profiler_add(gc_profiler *p, const gc_rec *r);
/* The kernel's section, moved into *out (owned by the caller). */
int gc_profiler_kend(gc_profiler *p, gc_pkernel *out);
const char *gc_profiler_error(const gc_profiler *p);
/* Warps made live again after their retirement, over all kernels so far
 * (their LRU stacks restarted empty). */
uint64_t gc_profiler_resurrected(const gc_profiler *p);
void gc_profiler_free(gc_profiler *p);

#endif
