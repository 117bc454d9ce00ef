/*
 * model/prefetch.h - the hardware prefetchers of the cache models: which
 * lines to prefetch after a demand access.  gc-l1 runs one per SM (per-PC
 * stride, or the many-thread aware prefetcher of Lee et al., MICRO 2010),
 * gc-l2 one for the whole L2 (stream, or next-line).
 *
 * A prefetcher knows lines and nothing of caches: the caller tells it of
 * each demand access (its line address, PC, warp, and whether it missed
 * or hit a line a prefetch brought), and it answers with the line
 * addresses to prefetch, in order.  Whether a line is already present or
 * in flight, and what a prefetch costs, is the caller's; the caller also
 * reports what became of its prefetches (gc_pf_feedback), which the
 * many-thread aware prefetcher throttles on.
 *
 *   gc_pf p;  gc_pf_init(&p, &params, why, sizeof why);
 *   n = gc_pf_access(&p, pc, warp, line, miss, out);   out[0..n): lines
 *   gc_pf_feedback(&p, GC_PF_USEFUL); ...
 *   gc_pf_free(&p);
 *
 * Deterministic; no allocation after gc_pf_init.
 */
#ifndef GC_MODEL_PREFETCH_H
#define GC_MODEL_PREFETCH_H

#include "config/gpu.h"

#include <stddef.h>
#include <stdint.h>

#define GC_PF_OUT_MAX 64 /* lines one access may ask for: the largest degree */

typedef struct gc_pf_params {
	int kind;          /* enum gc_gpu_prefetch */
	unsigned degree;   /* 1..GC_PF_OUT_MAX */
	unsigned distance; /* stride and mta: strides ahead of the access (>= 1) */
	unsigned table;    /* entries of each table (>= 1) */
	unsigned window;   /* stream: lines ahead of the last access it may reach */
	uint64_t max_line; /* the largest line address there is */
} gc_pf_params;

/* One trained stride: the key it is kept under, the last line, the stride
 * in lines and how many times in a row it was seen again. */
struct gc_pf_entry {
	uint64_t key;      /* UINT64_MAX: empty */
	uint64_t last;
	int64_t stride;
	uint32_t conf;
	uint32_t aux;      /* mta's promotion: warps agreeing; stream: LRU stamp */
	uint64_t next;     /* stream: the next line to prefetch */
};

typedef struct gc_pf {
	gc_pf_params p;
	struct gc_pf_entry *t;  /* stride: per PC; mta: per (PC, warp); stream: streams */
	struct gc_pf_entry *gs; /* mta: promoted strides per PC (the GS table) */
	struct gc_pf_entry *ip; /* mta: inter-warp strides per PC (the IP table) */
	uint64_t clock;         /* stream: LRU */
	/* stride: the entry of pc last_pc (where gc_pf_slot puts it, which
	 * never changes), for a run of one PC's accesses */
	uint32_t last_pc;
	struct gc_pf_entry *last_e;
	/* mta's throttle: the degree in force, and the feedback of the
	 * current period */
	unsigned level;
	uint64_t accesses, useful, useless, late;
} gc_pf;

/* What became of a prefetch (gc_pf_feedback). */
enum { GC_PF_USEFUL, GC_PF_USELESS, GC_PF_LATE };

/* -1 with the reason in why (a bad parameter, no memory). */
int gc_pf_init(gc_pf *p, const gc_pf_params *pp, char *why, size_t len);
void gc_pf_free(gc_pf *p);
/* Every table empty, the throttle reset (a new kernel). */
void gc_pf_clear(gc_pf *p);

/*
 * A demand access of line `line` (the line address, addr >> line bits)
 * by static instruction pc of warp `warp` (a number unique among the
 * warps the prefetcher sees at once); `trigger` says it missed or hit a
 * line a prefetch brought (the stream and next-line prefetchers act on
 * those only; the stride ones train on every access).  Writes the lines
 * to prefetch to out[] and returns how many (at most the degree).
 */
unsigned gc_pf_access(gc_pf *p, uint32_t pc, uint32_t warp, uint64_t line, int trigger,
		      uint64_t out[GC_PF_OUT_MAX]);

/* ---- the stride prefetcher's parts, inline: prefetch.c's, and gc-l1's
 * path with one (l1_impl.h, l1_pf_access_k) without the call ---- */

/* The table slot of key among n (a power of two masks: the same slot). */
static inline uint32_t gc_pf_slot(uint64_t key, unsigned n)
{
	uint64_t h = (key * UINT64_C(0x9e3779b97f4a7c15)) >> 32;
	return (uint32_t)((n & (n - 1)) == 0 ? h & (n - 1) : h % n);
}

/* Train entry e (key `key`) on `line`: 1 when its stride is confirmed
 * again (conf counts the confirmations in a row). */
static inline __attribute__((always_inline)) int gc_pf_train(struct gc_pf_entry *e, uint64_t key,
							     uint64_t line)
{
	if (e->key != key) {
		*e = (struct gc_pf_entry){key, line, 0, 0, 0, 0};
		return 0;
	}
	int64_t d = (int64_t)(line - e->last);
	if (d == 0) /* another request of the same line: nothing learnt */
		return 0;
	e->last = line;
	if (d == e->stride) {
		if (e->conf < UINT32_MAX)
			e->conf++;
		return 1;
	}
	e->stride = d;
	e->conf = 0;
	return 0;
}

/* Whether lines line + stride * (distance + i), i < n, all lie in
 * [0, max_line] with a positive stride (then each is one addition). */
static inline int gc_pf_inside(const gc_pf *p, uint64_t line, int64_t stride, unsigned n)
{
	return stride > 0 && n && line <= p->p.max_line &&
	       (uint64_t)(stride * (int64_t)p->p.distance + stride * (int64_t)(n - 1)) <=
		       p->p.max_line - line;
}

/* Lines line + stride * (distance + i), i < n, into out; those outside
 * [0, max_line] are left out. */
static inline __attribute__((always_inline)) unsigned
gc_pf_ahead(const gc_pf *p, uint64_t line, int64_t stride, unsigned n, uint64_t *out)
{
	unsigned k = 0;
	int64_t step = stride * (int64_t)p->p.distance;
	if (gc_pf_inside(p, line, stride, n)) {
		for (; k < n; k++, step += stride)
			out[k] = line + (uint64_t)step;
		return k;
	}
	for (unsigned i = 0; i < n; i++, step += stride) {
		uint64_t l = line + (uint64_t)step;
		if ((step > 0 && (l < line || l > p->p.max_line)) || (step < 0 && l > line))
			continue;
		out[k++] = l;
	}
	return k;
}

/* The stride prefetcher trained on `line` by pc: its entry when it
 * prefetches (`degree` strides from `distance` on), else NULL. */
static inline __attribute__((always_inline)) const struct gc_pf_entry *
gc_pf_stride_train(gc_pf *p, uint32_t pc, uint64_t line)
{
	struct gc_pf_entry *e = p->last_e;
	if (pc != p->last_pc) {
		e = p->last_e = &p->t[gc_pf_slot(pc, p->p.table)];
		p->last_pc = pc;
	}
	return gc_pf_train(e, pc, line) && e->stride != 0 ? e : NULL;
}

/* A prefetch was used by a demand access (GC_PF_USEFUL), evicted unused
 * (GC_PF_USELESS), or met by a demand access while in flight
 * (GC_PF_LATE). */
static inline void gc_pf_feedback(gc_pf *p, int what)
{
	p->useful += what == GC_PF_USEFUL;
	p->useless += what == GC_PF_USELESS;
	p->late += what == GC_PF_LATE;
}

/*
 * The counts every prefetching cache keeps (gc-l1 and gc-l2 --stats):
 * issued, useful (a demand access hit a line a prefetch filled, before
 * it was evicted), late (a demand access met the prefetch in flight:
 * --timing only), useless (evicted, or invalidated, unused).
 */
typedef struct gc_pf_counts {
	uint64_t issued, useful, late, useless;
} gc_pf_counts;

/* accuracy = (useful + late) / issued: the share of prefetches a demand
 * access used.  coverage = (useful + late) / (useful + misses), misses
 * the demand misses (the late ones among them: a demand access that met
 * a prefetch in flight is a miss of the latency class): the share of
 * the misses there would be without the prefetcher that it removed or
 * shortened.  0 when the denominator is 0. */
double gc_pf_accuracy(const gc_pf_counts *c);
double gc_pf_coverage(const gc_pf_counts *c, uint64_t misses);

#endif
