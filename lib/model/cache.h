/*
 * cache.h - set-index functions and the state of one set-associative,
 * sectored cache: the part of a cache every model shares (gc-l1, gc-l2,
 * gc-rd's per-set distances).
 *
 * The core knows geometry, tags, per-sector valid and dirty bits and the
 * replacement order.  It has no policy: what a write does, when a line is
 * allocated, what a miss costs and what goes to the next level are the
 * caller's (gc-l1 and gc-l2 differ in all of them).  So the calls are
 * small and explicit:
 *
 *     l = gc_cache_find(c, addr, &set);      look, change nothing
 *     if (l) gc_cache_touch(c, l);           a use: LRU order
 *     else {
 *         v = gc_cache_victim(c, set);       invalid way first, else policy
 *         if (v->valid && v->dirty) ...      the caller writes it back
 *         gc_cache_fill(c, v, addr);         new tag, no sector valid yet
 *     }
 *     l->valid |= sectors; ...
 *
 * Addresses are byte addresses; the tag is the whole line address, so no
 * set-index function can alias two lines.  Deterministic: the random
 * replacement draws from the cache's own seeded generator.
 */
#ifndef GC_CACHE_H
#define GC_CACHE_H

#include "base/hash.h"
#include "base/rng.h"
#include "config/gpu.h"

#include <stddef.h>
#include <stdint.h>

#define GC_CACHE_SECTORS_MAX 8 /* sectors per line: the request's mask byte */
#define GC_CACHE_NO_TAG UINT64_MAX

/* ---- set-index functions (reference §3.2) ------------------------------ */

/* 0 when function `fn` can index `sets` sets of `line`-byte lines;
 * otherwise -1 with the reason in why ("the Fermi hash needs 32 or 64
 * sets", ...).  Linear takes any set count (the line address modulo
 * sets); XOR needs a power of two; Fermi 32 or 64 sets; IPOLY 16, 32 or
 * 64; Fibonacci any. */
int gc_set_index_check(int fn, unsigned sets, unsigned line, char *why, size_t len);

/* The set of byte address addr.  line_shift = log2(line).  The arguments
 * must have passed gc_set_index_check. */
unsigned gc_set_index(int fn, uint64_t addr, unsigned line_shift, unsigned sets);

/*
 * Fibonacci hashing, the set index of seed 003's released simulator:
 * set = floor(frac(line * 0.61803398875) * sets) in IEEE double, where
 * line is the line address (addr >> line_shift); line 1 of 64 sets is
 * set 39.  Its weakness is the double: the product line * phi keeps 53
 * bits, so once it reaches 2^(52-k) its fraction is a multiple of 2^-k
 * and at most 2^k sets are reachable (64 sets stop being all reachable
 * at line 227718039650175, the product's 2^47), and from line
 * GC_FIBONACCI_FLAT (the product's 2^52) the fraction is 0: every line
 * goes to set 0 and distinct lines no longer spread at all.  Any set
 * count.
 */
#define GC_FIBONACCI_PHI 0.61803398875
#define GC_FIBONACCI_FLAT UINT64_C(7286977268805584)
unsigned gc_fibonacci_set(uint64_t line, unsigned sets);


/* ---- the cache ---------------------------------------------------------- */

typedef struct gc_cache_geom {
	unsigned line;    /* bytes, a power of two */
	unsigned sector;  /* bytes, a power of two dividing line; line/sector <= 8 */
	unsigned sets;    /* >= 1 */
	unsigned ways;    /* >= 1, any count */
	int index;        /* enum gc_gpu_index */
	int repl;         /* enum gc_gpu_repl */
	uint64_t seed;    /* random replacement */
} gc_cache_geom;

/* One way of one set.  `aux` is the caller's (gc-l2 keeps write-validate
 * byte masks elsewhere indexed by gc_cache_line_index). */
typedef struct gc_cline {
	uint64_t tag;     /* line address (addr >> line_shift); GC_CACHE_NO_TAG when invalid */
	uint64_t stamp;   /* LRU: last use; FIFO: fill time */
	uint8_t valid;    /* sector bits */
	uint8_t dirty;    /* sector bits */
	uint8_t pf;       /* the caller's: a prefetch filled it and no demand used it yet */
	uint8_t pad;
	uint32_t aux;
} gc_cline;

typedef struct gc_cache {
	gc_cache_geom g;
	unsigned line_shift, sector_shift, nsectors;
	uint8_t full_mask;   /* every sector of a line */
	gc_cline *lines;     /* sets * ways, set-major */
	uint64_t set_mask;   /* sets - 1 when the index is linear and sets a power of two */
	int fast_index;      /* ... and then 1: the set is the line address & set_mask */
	uint64_t clock;      /* replacement clock */
	uint64_t rng;        /* random replacement state */

	/* Wide sets (ways >= GC_CACHE_WIDE, e.g. GPGPU-Sim's 4-set, 256-way
	 * Volta L1): a scan of the set would read kilobytes a lookup, so the
	 * cache keeps an index instead, with the same answers: a map tag ->
	 * line, per set a bitmap of its invalid ways, and per set its valid
	 * lines in stamp order (least first), so that the victim is the
	 * lowest invalid way, else the first of that list. */
	int wide;
	gc_hmap map;         /* tag -> line index */
	uint32_t *prev, *next; /* per line: its neighbours in its set's order */
	uint32_t *first, *last; /* per set: the least and most recent valid line */
	uint64_t *inv;       /* per set: invalid ways, invw words */
	unsigned invw;
} gc_cache;

#define GC_CACHE_WIDE 32 /* ways from which a cache keeps the index */

/* The random replacement's generator: its state from a seed, and the
 * next draw (xorshift64*: enough for victim choice, the same everywhere). */
static inline uint64_t gc_cache_rng_seed(uint64_t seed)
{
	/* splitmix64 of the seed: a zero seed still gives a live state. */
	return gc_splitmix64_at(seed, 0) | 1;
}
static inline uint64_t gc_cache_rng_next(uint64_t *state)
{
	uint64_t x = *state;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * UINT64_C(0x2545f4914f6cdd1d);
}

/* Check a geometry: -1 with the reason in why. */
int gc_cache_geom_check(const gc_cache_geom *g, char *why, size_t len);
/* Allocate an empty cache (every line invalid).  -1 with the reason when
 * the geometry is bad or memory runs out. */
int gc_cache_init(gc_cache *c, const gc_cache_geom *g, char *why, size_t len);
void gc_cache_free(gc_cache *c);
/* Every line invalid again, the clocks and the generator reset. */
void gc_cache_clear(gc_cache *c);

static inline uint64_t gc_cache_tag(const gc_cache *c, uint64_t addr)
{
	return addr >> c->line_shift;
}

/* gc_cache_set of a cache the caller knows has fast_index set. */
static inline unsigned gc_cache_set_fast(const gc_cache *c, uint64_t addr)
{
	return (unsigned)((addr >> c->line_shift) & c->set_mask);
}

static inline unsigned gc_cache_set(const gc_cache *c, uint64_t addr)
{
	if (c->fast_index)
		return gc_cache_set_fast(c, addr);
	return gc_set_index(c->g.index, addr, c->line_shift, c->g.sets);
}

/* The sector bits covering bytes [addr, addr + bytes) of addr's line
 * (bytes beyond the line are ignored; 0 bytes: the sector of addr). */
uint8_t gc_cache_sectors(const gc_cache *c, uint64_t addr, unsigned bytes);

/* map[m]: the sectors of `to` bytes covering the sectors m of `from`
 * bytes, in a line of `line` bytes (a stream's sector masks as a cache's:
 * gc-l1's and its --ways-sweep's). */
void gc_cache_sector_map(uint8_t map[256], unsigned from, unsigned to, unsigned line);

/* The line holding addr in set `set`, which the caller computed (gc-l2
 * indexes a slice by the partition address but tags by the whole line
 * address), or NULL.  Changes nothing. */
gc_cline *gc_cache_wide_lookup(gc_cache *c, uint64_t tag, unsigned set);
gc_cline *gc_cache_wide_victim(gc_cache *c, unsigned set);
void gc_cache_wide_touch(gc_cache *c, gc_cline *l);
void gc_cache_wide_fill(gc_cache *c, gc_cline *l, uint64_t tag);
void gc_cache_wide_invalidate(gc_cache *c, gc_cline *l);

static inline gc_cline *gc_cache_lookup(gc_cache *c, uint64_t addr, unsigned set)
{
	uint64_t tag = addr >> c->line_shift;
	if (c->wide)
		return gc_cache_wide_lookup(c, tag, set);
	gc_cline *l = c->lines + (size_t)set * c->g.ways;
	for (unsigned w = 0; w < c->g.ways; w++)
		if (l[w].tag == tag)
			return &l[w];
	return NULL;
}

/* The line holding addr, or NULL; its set in *set either way.  Changes
 * nothing. */
static inline gc_cline *gc_cache_find(gc_cache *c, uint64_t addr, unsigned *set)
{
	*set = gc_cache_set(c, addr);
	return gc_cache_lookup(c, addr, *set);
}

/*
 * gc_cache_lookup and the victim search in one scan of the set: the line
 * holding addr, or NULL with *victim the way gc_cache_victim(c, set)
 * would choose now, the set unchanged.  With random replacement *victim
 * is NULL on a miss (the draw is gc_cache_victim's, made only when the
 * caller allocates).  Use it as
 *
 *     l = gc_cache_probe(c, addr, set, &hint);
 *     if (!l) v = gc_cache_victim_hint(c, set, hint);
 *
 * The search is the least stamp, the lowest way on a tie: an invalid line
 * has stamp 0 (gc_cache_clear, gc_cache_invalidate) and a valid one a
 * clock value of at least 1, so it is the first invalid way, else the
 * least recently used (LRU) or the oldest fill (FIFO).  gc_cache_probe_tag
 * takes the tag itself.
 */
static inline __attribute__((always_inline)) gc_cline *
gc_cache_probe_ways(gc_cache *c, uint64_t tag, unsigned set, gc_cline **victim, unsigned ways);
static inline __attribute__((always_inline)) gc_cline *
gc_cache_probe_victim(gc_cache *c, unsigned set, unsigned ways);

/* The ways l[0..ways) of a set (not wide) scanned for tag with no branch
 * on which way holds it (one would be mispredicted whenever the way that
 * hits changes): the lowest way that does plus 1, or 0.  A constant
 * `ways` unrolls it. */
static inline __attribute__((always_inline)) unsigned gc_cache_scan_tags(const gc_cline *l, uint64_t tag,
									 unsigned ways)
{
	unsigned w = ways, f = 0;
#pragma GCC unroll 4
	while (w--)
		f = l[w].tag == tag ? w + 1 : f;
	return f;
}

static inline gc_cline *gc_cache_probe_tag(gc_cache *c, uint64_t tag, unsigned set,
					   gc_cline **victim)
{
	return gc_cache_probe_ways(c, tag, set, victim, c->g.ways);
}

/* gc_cache_probe_tag with ways = c->g.ways given by the caller: a
 * constant there (gc-l2's 16 and 24 ways) unrolls the scan. */
static inline __attribute__((always_inline)) gc_cline *
gc_cache_probe_ways(gc_cache *c, uint64_t tag, unsigned set, gc_cline **victim, unsigned ways)
{
	/* wide: from GC_CACHE_WIDE ways (a constant below folds the test) */
	if (ways >= GC_CACHE_WIDE && c->wide) {
		gc_cline *f = gc_cache_wide_lookup(c, tag, set);
		if (!f)
			*victim = c->g.repl == GC_REPL_RANDOM ? NULL : gc_cache_wide_victim(c, set);
		return f;
	}
	gc_cline *l = c->lines + (size_t)set * ways;
	unsigned f = gc_cache_scan_tags(l, tag, ways);
	if (f)
		return &l[f - 1];
	*victim = gc_cache_probe_victim(c, set, ways);
	return NULL;
}

/* gc_cache_probe's victim search alone (the set's tag not there): the
 * way gc_cache_victim would choose now, NULL with random replacement. */
static inline __attribute__((always_inline)) gc_cline *
gc_cache_probe_victim(gc_cache *c, unsigned set, unsigned ways)
{
	gc_cline *l = c->lines + (size_t)set * ways;
	unsigned w, v0 = 0, v1 = 0;
	uint64_t s0 = UINT64_MAX, s1 = UINT64_MAX;
	/* Two chains of branch-free minima, even and odd ways, so that a
	 * 16- or 24-way set is not one long chain of dependent moves. */
#pragma GCC unroll 2
	for (w = 0; w + 1 < ways; w += 2) {
		uint64_t a = l[w].stamp, b = l[w + 1].stamp;
		v0 = a < s0 ? w : v0;
		s0 = a < s0 ? a : s0;
		v1 = b < s1 ? w + 1 : v1;
		s1 = b < s1 ? b : s1;
	}
	if (w < ways) {
		v0 = l[w].stamp < s0 ? w : v0;
		s0 = l[w].stamp < s0 ? l[w].stamp : s0;
	}
	/* the least stamp, the lower way on a tie, with no branch either
	 * (on a stream of misses it is a coin toss) */
	unsigned odd = (unsigned)(s1 < s0) | ((unsigned)(s1 == s0) & (unsigned)(v1 < v0));
	unsigned v = v0 ^ ((v0 ^ v1) & (0u - odd));
	return c->g.repl == GC_REPL_RANDOM ? NULL : &l[v];
}

static inline gc_cline *gc_cache_probe(gc_cache *c, uint64_t addr, unsigned set,
				       gc_cline **victim)
{
	return gc_cache_probe_tag(c, addr >> c->line_shift, set, victim);
}

/* Bring what a lookup of addr's line in `set` reads towards the CPU while
 * the caller does other work (a hint; nothing changes): the set's ways,
 * or for wide sets the line's slot in the tag map.  Always inlined: GCC
 * finds a function of nothing but prefetches "const" and drops calls to
 * it before inlining them (gc-l1's lookahead had no prefetch left).
 * gc_cache_prefetch_set is the ways of a cache that is not wide, ways =
 * c->g.ways given by the caller (a constant unrolls it). */
static inline __attribute__((always_inline)) void
gc_cache_prefetch_set(const gc_cache *c, unsigned set, unsigned ways)
{
	const char *p = (const char *)(c->lines + (size_t)set * ways);
	size_t bytes = ways * sizeof(gc_cline);
	for (size_t off = 0; off < bytes; off += 64)
		__builtin_prefetch(p + off, 1);
	__builtin_prefetch(p + bytes - 1, 1);
}

static inline __attribute__((always_inline)) void gc_cache_prefetch(const gc_cache *c, uint64_t addr, unsigned set)
{
	if (c->wide) {
		gc_hmap_prefetch(&c->map, addr >> c->line_shift);
		return;
	}
	gc_cache_prefetch_set(c, set, c->g.ways);
}

/* gc_cache_touch of a cache the caller knows is LRU and not wide. */
static inline void gc_cache_touch_lru(gc_cache *c, gc_cline *l)
{
	l->stamp = ++c->clock;
}

/* A use of line l: with LRU it becomes the most recent. */
static inline void gc_cache_touch(gc_cache *c, gc_cline *l)
{
	if (c->g.repl == GC_REPL_LRU) {
		gc_cache_touch_lru(c, l);
		if (c->wide)
			gc_cache_wide_touch(c, l);
	}
}

/* The way a new line of `set` goes to: an invalid way if there is one
 * (the lowest), else the least recently used (LRU), the oldest fill
 * (FIFO) or a seeded random way.  The caller handles a valid victim
 * (write-back of its dirty sectors) before gc_cache_fill. */
gc_cline *gc_cache_victim(gc_cache *c, unsigned set);

/* The victim gc_cache_probe found, or (random replacement) the draw. */
static inline gc_cline *gc_cache_victim_hint(gc_cache *c, unsigned set, gc_cline *hint)
{
	return hint ? hint : gc_cache_victim(c, set);
}

/* gc_cache_fill of a cache the caller knows is not wide. */
static inline void gc_cache_fill_narrow(gc_cache *c, gc_cline *l, uint64_t addr)
{
	l->tag = addr >> c->line_shift;
	l->valid = l->dirty = l->pf = 0;
	l->aux = 0;
	l->stamp = ++c->clock;
}

/* Give way l to addr's line: no sector valid or dirty yet, most recent. */
static inline void gc_cache_fill(gc_cache *c, gc_cline *l, uint64_t addr)
{
	if (c->wide)
		gc_cache_wide_fill(c, l, addr >> c->line_shift);
	gc_cache_fill_narrow(c, l, addr);
}

/* Line l invalid: stamp 0, which makes it the first choice of a victim
 * search (see gc_cache_probe). */
static inline void gc_cache_invalidate(gc_cache *c, gc_cline *l)
{
	if (c->wide && l->tag != GC_CACHE_NO_TAG)
		gc_cache_wide_invalidate(c, l);
	l->tag = GC_CACHE_NO_TAG;
	l->stamp = 0;
	l->valid = l->dirty = l->pf = 0;
}

/* The byte address of line l's first byte. */
static inline uint64_t gc_cache_line_addr(const gc_cache *c, const gc_cline *l)
{
	return l->tag << c->line_shift;
}

static inline size_t gc_cache_nlines(const gc_cache *c)
{
	return (size_t)c->g.sets * c->g.ways;
}

static inline size_t gc_cache_line_index(const gc_cache *c, const gc_cline *l)
{
	return (size_t)(l - c->lines);
}

/* Bytes a cache of this geometry allocates. */
size_t gc_cache_bytes(const gc_cache_geom *g);

#endif
