/*
 * clone.h - gc-clone's engine: a profile kernel section (profile.h) in, an
 * accesses stream's records out, by Algorithms 1 and 2 of seed 002
 * (clone.c).
 *
 * Threads are generated a block at a time, in thread order, so that the
 * inter-thread strides chain exactly as gc-profile measured them:
 *
 *   1. Each thread gets a profile: by the runs when the kernel has them
 *      (thread t of a scaled grid takes the profile of thread
 *      floor(t * threads / threads') of the original), else drawn from Q.
 *   2. Algorithm 1 per thread: the first instance of instruction k is the
 *      anchor of its context (profile.h) plus a draw from P_E[context]
 *      (the base thread: B); a later instance draws a reuse distance d from
 *      the profile's P_R: when the thread's LRU stack holds an address at
 *      depth d and that address minus the instruction's previous address
 *      is in the support of P_A, the access reuses it; otherwise it is the
 *      previous address plus a draw from P_A.  Either way the address
 *      becomes the instruction's previous address (the seed's Algorithm 1
 *      leaves b'(k) behind on a reuse, which drifts every later stride).
 *      Addresses outside the extent [B + lo, B + hi) wrap into it (a chain
 *      of random strides is a random walk; wrapping keeps it on the
 *      footprint the original touched); with --scale F > 1 the extent is
 *      F times as wide (hi' = lo + (hi - lo) * F), so the footprint grows
 *      with the grid.
 *   3. A warp's records: its lanes' entries merged by seq (the entries of
 *      all lanes with the same seq and instruction make one warp
 *      instruction, their records in lane order; an instruction whose seq
 *      is not above the warp's previous one takes that one's seq + 1, so a
 *      warp's seqs stay distinct and increasing), warps in order, blocks
 *      in order: the order of a trace, so gc-sched, gc-coalesce and the
 *      caches downstream do Algorithm 2's scheduling and coalescing.
 *
 * Scaling (--scale F): the number of blocks becomes round(blocks * F), at
 * least 1, by scaling the slowest grid dimension larger than 1 (z, else y,
 * else x); threads keep their whole profiles.  So the per-thread
 * locality (P_A, P_R) and a block's working set stay as measured, and the
 * footprint grows or shrinks with the grid, as a smaller or larger input
 * would.  Records carry time 0 and no compute field (a 1.0 stream).
 *
 * Memory: one block's accesses at a time (its threads' generated
 * addresses), plus the profile.
 */
#ifndef GC_CLONE_H
#define GC_CLONE_H

#include "proxy/profile.h"
#include "stream/format.h"

#include <stddef.h>
#include <stdint.h>

/* --ablate: reduce one component to nothing or to its mode, to find which
 * one a proxy's error comes from. */
#define GC_ABL_Q 0x01      /* every thread takes the most common profile */
#define GC_ABL_RUNS 0x02   /* draw from Q even when the kernel has runs */
#define GC_ABL_PE 0x04     /* P_E: its mode in each context */
#define GC_ABL_PA 0x08     /* P_A: its mode */
#define GC_ABL_PR 0x10     /* P_R: no reuse */
#define GC_ABL_EXTENT 0x20 /* no wrapping into the extent */

typedef struct gc_clone_opts {
	uint64_t seed;
	double scale;      /* > 0 */
	unsigned ablate;   /* GC_ABL_* */
} gc_clone_opts;

typedef struct gc_cloner gc_cloner;

/* NULL when out of memory; check gc_cloner_error for a bad section (a
 * profile that names an instruction it does not have...). */
gc_cloner *gc_cloner_new(const gc_pkernel *k, unsigned warp_size, const gc_clone_opts *o);
const char *gc_cloner_error(const gc_cloner *c); /* NULL when fine */
/* The kernel begin record to write (the grid scaled). */
const gc_kernel *gc_cloner_kernel(const gc_cloner *c);
/* Up to max records (kernel field set); 0 at the end of the kernel;
 * (size_t)-1 on an error (out of memory, gc_cloner_error). */
size_t gc_cloner_next(gc_cloner *c, gc_rec *recs, size_t max);
void gc_cloner_free(gc_cloner *c);

#endif
