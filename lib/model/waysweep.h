/*
 * waysweep.h - a functional cache of every associativity in one pass:
 * gc-l1 --ways-sweep (an SM's L1) and gc-l2 --ways-sweep (the L2's
 * slices).
 *
 * For LRU caches of one set count and line size, the lines a W-way set
 * holds are the W most recently used lines of that set (Mattson et al.'s
 * stack property), so one LRU stack per set gives every associativity at
 * once: a reference whose line is at depth d of its set's stack (d lines
 * of the set used since) finds its line in every cache of more than d
 * ways.  The stacks are kept to the largest associativity swept, MAX:
 * a line deeper than that is absent from every cache swept.
 *
 * Sectors: a W-way cache fills a line with the sectors of the request
 * that brings it in and adds the sectors of later requests while the
 * line stays.  So sector s of a line is valid in the W-way cache when
 * some request since the line's last fill there asked for s, that is
 * when W exceeds the depth of every reference to the line since the
 * latest request for s.  Each stacked line keeps, per sector, the least
 * W for which the sector is valid (its "need"); a request hits in every
 * cache of at least max(d + 1, the needs of its sectors) ways.  Counting
 * those thresholds in histograms gives the hits, misses and sector misses
 * of every W by prefix sums, at the end of each kernel.
 *
 * What keeps the stack property in the L1, and what the engine refuses
 * (-2 from gc_waysweep_new or gc_waysweep_access, with the reason):
 *   - LRU only: FIFO and random replacement are no stack algorithms
 *     (a larger FIFO cache can miss more, Belady's anomaly);
 *   - the functional model only: the timing model's MSHRs and warp
 *     queue order the requests by their outcomes, which differ per W;
 *   - no adaptive carve-out: it sets the ways (or sets) per kernel;
 *   - stores: a write-allocating policy (write-allocate, fetch-on-write,
 *     lazy-fetch-on-read) with write-back, write-through or local
 *     write-back updates the line in every cache the same way (a partial
 *     store without fetch validates no sector).  Under write-evict or
 *     read-only a store invalidates its line only in the caches that hold
 *     it, and under no-write-allocate it refreshes its line only there,
 *     so the caches' orders part: the first store L1 looks up is refused
 *     (a stream without stores is fine under any policy).
 * A kernel-end flush empties every cache alike: the stacks are emptied.
 *
 * The L2 (level 2: gc-l2's rules, gpu->l2): the caller gives each
 * request's set among all slices' (gc-l2's locate), the tag is the whole
 * line address.  Loads and atomics read (a sector is present when
 * valid); a store's sector is present when valid or partly written.
 * Under write-allocate and fetch-on-write a store leaves its sectors
 * valid, under lazy-fetch-on-read (write-validate) a partial store
 * leaves them partly written (held, not valid): the L1's two thresholds.
 * Every policy but two allocates or touches the line in every cache
 * alike; write-evict (a store invalidates its sectors, and its line when
 * none is left, only where it is present) and no-write-allocate (a store
 * touches its line only where one of its sectors is present) refuse the
 * first store.  Refused too: FIFO and random replacement, the L2
 * prefetcher (it fills the lines a cache lacks, which differ per W) and
 * timed input (a sector in flight is merged, not a hit, and when a
 * cache fetched it differs per W).  DRAM reads are the sectors fetched:
 * a load's or atomic's sectors not valid, a store's not valid under
 * write-allocate and, for a partial store, fetch-on-write.
 *
 * Requests are routed as gc-l1 routes them (gc_l1_route): shared memory,
 * bypassed requests and atomics are counted, not looked up.  The counts
 * equal those of separate gc-l1 runs, one per associativity (tests/
 * gc-l1-sweep.bats checks it on real traces).  Nothing here prints.
 */
#ifndef GC_MODEL_WAYSWEEP_H
#define GC_MODEL_WAYSWEEP_H

#include "base/waycounts.h"
#include "config/gpu.h"
#include "stream/format.h"

#include <stddef.h>
#include <stdint.h>

#define GC_WAYSWEEP_MAX 1024 /* the largest associativity swept */

typedef struct gc_waysweep gc_waysweep;

typedef struct gc_waysweep_params {
	const gc_gpu_config *gpu; /* finished: the cache's line, sector, sets, policies */
	int level;                /* 1 (0 too): gc-l1's L1; 2: gc-l2's L2 */
	unsigned in_line;         /* L1: the stream's line bytes (must be the L1's) */
	unsigned in_sector;       /* L1: the stream's sector bytes (0: min(32, line)) */
	unsigned slices;          /* L2: the slices (sets: l2.sets of each) */
	int timed;                /* L2: the input's times are cycles (refused) */
	const unsigned *ways;     /* the associativities, ascending, 1..MAX */
	size_t nways;
	int flush;                /* empty the caches at each kernel end */
	const char *input;        /* for messages */
} gc_waysweep_params;

/* Parse a list of associativities, "1..32" or "1,2,4,8" or both mixed
 * ("1..4,8,16"), into ways[] ascending without repeats; the count, or 0
 * with the reason in why. */
size_t gc_waysweep_parse(const char *s, unsigned ways[GC_WAYSWEEP_MAX], char *why, size_t len);

/* NULL with the message in err; *refused set to 1 when the configuration
 * is one the sweep cannot do (a usage error), 0 otherwise. */
gc_waysweep *gc_waysweep_new(const gc_waysweep_params *p, int *refused, char *err, size_t len);
void gc_waysweep_free(gc_waysweep *S);
const char *gc_waysweep_error(const gc_waysweep *S);

/* Model requests rec[0..n) in order (recno[i]: their numbers, for a
 * message).  0; -1 out of memory; -2 refused (a store the policy makes
 * size-dependent, see above). */
int gc_waysweep_access(gc_waysweep *S, const gc_rec *rec, const uint64_t *recno, size_t n);
/* Level 2: request r (record recno), its line in `set` of all the
 * slices' (slice * l2.sets + its set in the slice); the same returns. */
int gc_waysweep_access_l2(gc_waysweep *S, const gc_rec *r, unsigned set, uint64_t recno);
int gc_waysweep_kernel_begin(gc_waysweep *S, const gc_kernel *k);
int gc_waysweep_kernel_end(gc_waysweep *S);
/* The statistics as of now (the totals brought up to date). */
const gc_waysweep_stats *gc_waysweep_stats_get(gc_waysweep *S);

#endif
