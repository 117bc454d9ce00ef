/*
 * rd.h - reuse (LRU stack) distances: the exact engine, the sampled
 * engine and the histogram they fill.
 *
 * The reuse distance of a reference is the number of distinct units
 * (lines, sectors or addresses: the caller's choice) referenced since the
 * previous reference to the same unit; a first reference has distance
 * infinity (seed 000 §3.3, seed 003 §2.3).  A fully associative LRU cache
 * of n units misses exactly the references of distance >= n.
 *
 * The exact engine (gc_rd) keeps, for every unit, the time of its last
 * reference in a hash table, and one bit per time slot that is the last
 * reference of some unit.  The distance of a reference whose unit was last
 * used at time t is the number of set bits after t.  The bits sit in
 * 64-bit words with a partial-sum tree over the words' counts (a complete
 * binary tree; a Fenwick tree's varying loop lengths mispredict), so a
 * reference costs one hash probe and O(log(T/64)) additions, and the tree
 * and the bits (T/8 + T/8 bytes) stay in the processor's caches.
 * When the time slots run out the live times are renumbered 0..M-1 in
 * order (compaction) and T becomes at least 2M: memory is proportional to the
 * distinct units M (12 bytes per hash slot at most 3/4 full, plus about
 * 0.5 to 1 byte per unit for the timeline), and compaction costs O(1) per
 * reference amortised.
 *
 * The sampled engine (gc_rds) is SHARDS with a fixed-size sample set
 * (Waldspurger et al., FAST 2015): a unit is sampled when its spatial
 * hash is at most a threshold; at most `max` sampled units are tracked,
 * and when one more comes the one with the largest hash is dropped and the
 * threshold lowered below it.  A sampled reference's distance among the
 * sampled units, divided by the sampling rate R = (threshold+1)/2^64, is
 * its estimated distance, and it stands for 1/R references.  While fewer
 * than `max` units have been seen, R = 1 and the result is exact.
 *
 * Like the rest of lib/, nothing here prints or exits; the only failure is
 * running out of memory (or of 32-bit time: more than 2^31 units), -1.
 */
#ifndef GC_RD_H
#define GC_RD_H

#include <stddef.h>
#include <stdint.h>

#define GC_RD_INF UINT64_MAX        /* a first reference: distance infinity */
#define GC_RD_NONE (UINT64_MAX - 1) /* no distance (a record with no unit) */

/* ---- the exact engine ---------------------------------------------------- */

typedef struct gc_rd {
	uint32_t *slots;    /* cap slots of 3 words: key low, key high, time */
	size_t cap, n;      /* slots, keys in them */
	unsigned shift;     /* 64 - log2(cap) */
	int has_empty;      /* the key UINT64_MAX (the empty mark) is present */
	uint32_t empty_time;
	uint64_t *bits;     /* one bit per time slot: a unit's last use */
	uint32_t *tree;     /* counts of the words' bits: a complete binary tree */
	size_t words;       /* time slots / 64: a power of two */
	uint64_t now;       /* the next time slot */
	uint64_t last;      /* the unit of the last reference */
	int has_last;       /* last is valid */
	uint64_t live;      /* set bits: distinct units */
} gc_rd;

void gc_rd_init(gc_rd *s);
void gc_rd_free(gc_rd *s);
/* Forget every unit (a new, empty stack); keeps the memory. */
void gc_rd_clear(gc_rd *s);
/* A reference to unit u: 0 and its distance in *d (GC_RD_INF for a first
 * reference), or -1 when out of memory. */
int gc_rd_ref(gc_rd *s, uint64_t u, uint64_t *d);
/* Start fetching what a reference to unit u of stack s will read (its
 * home hash slot) into the processor's cache; use it a few dozen
 * references ahead.  A macro, not a function: GCC finds that a function
 * whose only effect is a prefetch has no effect and drops its calls.  No
 * test for an empty table (shift 64, slots NULL): a prefetch never
 * faults. */
#define GC_RD_PREFETCH(s, u)                                                    \
	do {                                                                    \
		uint64_t gc_rd_k_ = (u);                                        \
		gc_rd_k_ ^= gc_rd_k_ >> 33;                                     \
		gc_rd_k_ *= UINT64_C(0xff51afd7ed558ccd);                       \
		gc_rd_k_ ^= gc_rd_k_ >> 33; /* gc_hash64: the home slot */      \
		__builtin_prefetch((s)->slots +                                 \
				   3 * ((gc_rd_k_ >> 1) >> ((s)->shift - 1)));  \
	} while (0)
/* Remove unit u from the stack (1 when it was there, 0 when not). */
int gc_rd_remove(gc_rd *s, uint64_t u);
static inline uint64_t gc_rd_distinct(const gc_rd *s) { return s->live; }
/* Bytes the engine holds. */
size_t gc_rd_bytes(const gc_rd *s);

/* ---- the sampled engine (SHARDS, fixed size) ------------------------------ */

typedef struct gc_rds {
	gc_rd st;          /* the stack of sampled units, keyed by their hash */
	uint64_t thresh;   /* sample when hash <= thresh */
	uint64_t *heap;    /* max-heap of the sampled hashes */
	size_t nheap, max;
	uint64_t seen;     /* references offered */
	double weight;     /* sum of the weights returned */
} gc_rds;

/* Track at most max >= 1 sampled units.  -1 when out of memory. */
int gc_rds_init(gc_rds *s, size_t max);
void gc_rds_free(gc_rds *s);
/* A reference to unit u: 0 when it is not sampled; 1 when it is, with its
 * estimated distance in *d (GC_RD_INF for a first reference) and the
 * references it stands for in *w; -1 when out of memory. */
int gc_rds_ref(gc_rds *s, uint64_t u, uint64_t *d, double *w);
/* As GC_RD_PREFETCH, when unit u is sampled. */
void gc_rds_prefetch(const gc_rds *s, uint64_t u);
/* The sampling rate now (1 until the sample set has filled). */
double gc_rds_rate(const gc_rds *s);
size_t gc_rds_bytes(const gc_rds *s);

/* ---- the histogram --------------------------------------------------------- */

#define GC_RD_BINS 64
#define GC_RD_PENDING 64

/* Counts of references by distance: exact for distances below `bound`
 * (a power of two, or 0 for no bound: every distance exact), in log2 bins
 * [2^k, 2^(k+1)) from the bound up, and infinity apart.  Counts are
 * doubles: whole numbers (exact up to 2^53) unless sampled. */
typedef struct gc_rd_hist {
	double *exact;      /* exact[d] for d < nexact */
	size_t nexact;      /* allocated entries (grows to the largest d + 1) */
	uint64_t bound;     /* 0: unbounded */
	double bin[GC_RD_BINS]; /* distances >= bound: bin floor(log2 d) */
	double inf;         /* first references */
	double total;       /* every reference */
	uint64_t maxd;      /* the largest finite distance seen */
	int finite;         /* a finite distance was seen */
	/* Exact cells not yet added: they are added GC_RD_PENDING at a time,
	 * after prefetching them all, since a large histogram is read at
	 * random and one cache miss at a time would dominate. */
	unsigned npend;
	uint64_t pend_d[GC_RD_PENDING];
	double pend_w[GC_RD_PENDING];
} gc_rd_hist;

void gc_rd_hist_init(gc_rd_hist *h, uint64_t bound);
void gc_rd_hist_free(gc_rd_hist *h);
/* Add weight w at distance d (GC_RD_INF: infinity).  -1 when out of
 * memory.  The functions below read only what gc_rd_hist_flush has added:
 * call it once after the last gc_rd_hist_add. */
int gc_rd_hist_add(gc_rd_hist *h, uint64_t d, double w);
int gc_rd_hist_flush(gc_rd_hist *h);
/* Add histogram `from` to `into` (both flushed, with the same bound):
 * every cell, the first uses and the total.  -1 when out of memory. */
int gc_rd_hist_merge(gc_rd_hist *into, const gc_rd_hist *from);
/* References of distance >= n (infinity included): the misses of a fully
 * associative LRU cache of n units.  Exact when n <= bound (or no bound),
 * or n is a power of two; otherwise the bin holding n counts as a whole
 * when its lower end is >= n. */
double gc_rd_hist_ge(const gc_rd_hist *h, uint64_t n);
/* References with distance in [lo, hi] (hi GC_RD_INF: up to infinity,
 * excluded).  Exact under the same condition at both ends. */
double gc_rd_hist_range(const gc_rd_hist *h, uint64_t lo, uint64_t hi);
/* Visit the stored cells in increasing distance: exact distances (lo ==
 * hi) with a non-zero count, then non-zero bins [lo, hi].  Start with *it
 * = 0; 1 while there is a cell. */
int gc_rd_hist_next(const gc_rd_hist *h, size_t *it, uint64_t *lo, uint64_t *hi,
		    double *count);
/* The smallest d such that the references of distance <= d reach fraction
 * q of all references (bins: their upper end); GC_RD_INF when the
 * infinite ones are needed. */
uint64_t gc_rd_hist_quantile(const gc_rd_hist *h, double q);
size_t gc_rd_hist_bytes(const gc_rd_hist *h);

#endif
