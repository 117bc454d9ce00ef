/*
 * cache.c - set-index functions and the shared cache core (cache.h).
 */
#include "model/cache.h"
#include "base/bits.h"
#include "base/ipoly.h"
#include "base/rng.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- set-index functions --------------------------------------------------- */

int gc_set_index_check(int fn, unsigned sets, unsigned line, char *why, size_t len)
{
	if (sets == 0) {
		snprintf(why, len, "a cache needs at least one set");
		return -1;
	}
	if (!gc_is_pow2(line)) {
		snprintf(why, len, "line size %u is not a power of two", line);
		return -1;
	}
	switch (fn) {
	case GC_INDEX_LINEAR:
		return 0;
	case GC_INDEX_XOR:
		if (!gc_is_pow2(sets)) {
			snprintf(why, len, "the xor set index needs a power-of-two set count, not %u", sets);
			return -1;
		}
		return 0;
	case GC_INDEX_FERMI:
		if (sets != 32 && sets != 64) {
			snprintf(why, len, "the fermi set index needs 32 or 64 sets, not %u", sets);
			return -1;
		}
		return 0;
	case GC_INDEX_FIBONACCI:
		return 0;
	case GC_INDEX_IPOLY:
		if (sets != 16 && sets != 32 && sets != 64) {
			snprintf(why, len, "the ipoly set index needs 16, 32 or 64 sets, not %u", sets);
			return -1;
		}
		return 0;
	}
	snprintf(why, len, "unknown set-index function %d", fn);
	return -1;
}

unsigned gc_set_index(int fn, uint64_t addr, unsigned line_shift, unsigned sets)
{
	uint64_t la = addr >> line_shift;

	switch (fn) {
	case GC_INDEX_XOR: {
		unsigned sb = gc_log2(sets);
		return (unsigned)((la ^ (la >> sb)) & (sets - 1));
	}
	case GC_INDEX_FERMI: {
		/* Address bits 7-11 (the line address's low five bits with
		 * 128-byte lines) XOR bits 13, 14, 15, 17, 19; bit 12 is the
		 * sixth set bit with 64 sets (seed 000 Fig. 6). */
		unsigned lower = (unsigned)(la & 0x1f);
		unsigned upper = (unsigned)(((addr >> 13) & 7) | ((addr >> 14) & 8) | ((addr >> 15) & 16));
		unsigned set = lower ^ upper;
		if (sets == 64)
			set |= (unsigned)((addr >> 7) & 0x20);
		return set;
	}
	case GC_INDEX_IPOLY: {
		unsigned sb = gc_log2(sets);
		return gc_ipoly_hash(la >> sb, (unsigned)(la & (sets - 1)), sets);
	}
	case GC_INDEX_FIBONACCI:
		return gc_fibonacci_set(la, sets);
	default:
		if (gc_is_pow2(sets))
			return (unsigned)(la & (sets - 1));
		return (unsigned)(la % sets);
	}
}

/* Seed 003's simulator: floor(frac(line * 0.61803398875) * sets), each
 * step one IEEE double operation rounded to nearest as its Python does
 * (separate statements and volatile keep a compiler from fusing the
 * multiply and the subtraction into one FMA, which would round once).
 * The product is exact to 2^-52 of its magnitude, so from line
 * GC_FIBONACCI_FLAT on it is a whole number and every line gets set 0
 * (cache.h). */
unsigned gc_fibonacci_set(uint64_t line, unsigned sets)
{
	volatile double p = (double)line * GC_FIBONACCI_PHI;
	volatile double f = p - floor(p);
	double s = f * (double)sets;
	unsigned set = (unsigned)s;
	return set < sets ? set : sets - 1; /* f < 1; kept in range all the same */
}

/* ---- the cache ------------------------------------------------------------ */

int gc_cache_geom_check(const gc_cache_geom *g, char *why, size_t len)
{
	if (!gc_is_pow2(g->line) || g->line < 4) {
		snprintf(why, len, "line size %u is not a power of two of at least 4", g->line);
		return -1;
	}
	if (!gc_is_pow2(g->sector) || g->sector > g->line) {
		snprintf(why, len, "sector size %u is not a power of two no larger than the line (%u)",
			 g->sector, g->line);
		return -1;
	}
	if (g->line / g->sector > GC_CACHE_SECTORS_MAX) {
		snprintf(why, len, "%u sectors per line (%u / %u); at most %d", g->line / g->sector,
			 g->line, g->sector, GC_CACHE_SECTORS_MAX);
		return -1;
	}
	if (g->ways == 0) {
		snprintf(why, len, "a cache needs at least one way");
		return -1;
	}
	if (g->repl != GC_REPL_LRU && g->repl != GC_REPL_FIFO && g->repl != GC_REPL_RANDOM) {
		snprintf(why, len, "unknown replacement policy %d", g->repl);
		return -1;
	}
	if ((uint64_t)g->sets * g->ways > (UINT64_C(1) << 28)) {
		snprintf(why, len, "%u sets x %u ways is more lines than gc models (2^28)", g->sets,
			 g->ways);
		return -1;
	}
	return gc_set_index_check(g->index, g->sets, g->line, why, len);
}

size_t gc_cache_bytes(const gc_cache_geom *g)
{
	return (size_t)g->sets * g->ways * sizeof(gc_cline);
}

#define NIL UINT32_MAX

void gc_cache_clear(gc_cache *c)
{
	size_t n = gc_cache_nlines(c);
	for (size_t i = 0; i < n; i++) {
		c->lines[i].tag = GC_CACHE_NO_TAG;
		c->lines[i].stamp = 0;
		c->lines[i].valid = c->lines[i].dirty = c->lines[i].pf = 0;
		c->lines[i].aux = 0;
	}
	if (c->wide) {
		gc_hmap_clear(&c->map);
		for (unsigned s = 0; s < c->g.sets; s++) {
			c->first[s] = c->last[s] = NIL;
			uint64_t *b = c->inv + (size_t)s * c->invw;
			for (unsigned w = 0; w < c->invw; w++) {
				unsigned left = c->g.ways - 64 * w;
				b[w] = left >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << left) - 1;
			}
		}
	}
	c->clock = 0;
	c->rng = gc_cache_rng_seed(c->g.seed);
}

int gc_cache_init(gc_cache *c, const gc_cache_geom *g, char *why, size_t len)
{
	memset(c, 0, sizeof *c);
	if (gc_cache_geom_check(g, why, len) < 0)
		return -1;
	c->g = *g;
	c->line_shift = gc_log2(g->line);
	c->sector_shift = gc_log2(g->sector);
	c->fast_index = g->index == GC_INDEX_LINEAR && gc_is_pow2(g->sets);
	c->set_mask = g->sets - 1;
	c->nsectors = g->line / g->sector;
	c->full_mask = (uint8_t)((1u << c->nsectors) - 1);
	c->lines = malloc(gc_cache_bytes(g));
	if (!c->lines) {
		snprintf(why, len, "out of memory for a cache of %u x %u lines", g->sets, g->ways);
		return -1;
	}
	if (g->ways >= GC_CACHE_WIDE) {
		size_t n = gc_cache_nlines(c);
		c->wide = 1;
		c->invw = (g->ways + 63) / 64;
		c->prev = malloc(n * sizeof *c->prev);
		c->next = malloc(n * sizeof *c->next);
		c->first = malloc(g->sets * sizeof *c->first);
		c->last = malloc(g->sets * sizeof *c->last);
		c->inv = malloc((size_t)g->sets * c->invw * sizeof *c->inv);
		if (gc_hmap_init(&c->map, n) < 0 || !c->prev || !c->next || !c->first || !c->last ||
		    !c->inv) {
			gc_cache_free(c);
			snprintf(why, len, "out of memory for a cache of %u x %u lines", g->sets, g->ways);
			return -1;
		}
	}
	gc_cache_clear(c);
	return 0;
}

void gc_cache_free(gc_cache *c)
{
	free(c->lines);
	c->lines = NULL;
	if (c->wide) {
		gc_hmap_free(&c->map);
		free(c->prev);
		free(c->next);
		free(c->first);
		free(c->last);
		free(c->inv);
		c->prev = c->next = c->first = c->last = NULL;
		c->inv = NULL;
		c->wide = 0;
	}
}

/* ---- the index of wide sets ---------------------------------------------- */

/* Line i out of its set's stamp order. */
static void order_remove(gc_cache *c, uint32_t i, unsigned set)
{
	uint32_t p = c->prev[i], n = c->next[i];
	if (p == NIL)
		c->first[set] = n;
	else
		c->next[p] = n;
	if (n == NIL)
		c->last[set] = p;
	else
		c->prev[n] = p;
}

/* Line i to the end of its set's order: it has the newest stamp. */
static void order_append(gc_cache *c, uint32_t i, unsigned set)
{
	c->prev[i] = c->last[set];
	c->next[i] = NIL;
	if (c->last[set] == NIL)
		c->first[set] = i;
	else
		c->next[c->last[set]] = i;
	c->last[set] = i;
}

gc_cline *gc_cache_wide_lookup(gc_cache *c, uint64_t tag, unsigned set)
{
	const uint64_t *v = gc_hmap_get(&c->map, tag);
	if (!v || *v / c->g.ways != set)
		return NULL; /* (a scan looks in `set` only) */
	return &c->lines[*v];
}

/* The lowest invalid way of `set`, or NULL. */
static gc_cline *first_invalid(gc_cache *c, unsigned set)
{
	gc_cline *l = c->lines + (size_t)set * c->g.ways;
	if (!c->wide) {
		for (unsigned w = 0; w < c->g.ways; w++)
			if (l[w].tag == GC_CACHE_NO_TAG)
				return &l[w];
		return NULL;
	}
	const uint64_t *b = c->inv + (size_t)set * c->invw;
	for (unsigned w = 0; w < c->invw; w++)
		if (b[w])
			return &l[64 * w + (unsigned)__builtin_ctzll(b[w])];
	return NULL;
}

/* The lowest invalid way, else the least stamp (LRU, FIFO). */
gc_cline *gc_cache_wide_victim(gc_cache *c, unsigned set)
{
	gc_cline *v = first_invalid(c, set);
	return v ? v : &c->lines[c->first[set]];
}

void gc_cache_wide_touch(gc_cache *c, gc_cline *l)
{
	uint32_t i = (uint32_t)(l - c->lines);
	unsigned set = i / c->g.ways;
	if (c->last[set] == i)
		return;
	order_remove(c, i, set);
	order_append(c, i, set);
}

/* Before gc_cache_fill gives line l the tag `tag` (and the newest stamp). */
void gc_cache_wide_fill(gc_cache *c, gc_cline *l, uint64_t tag)
{
	uint32_t i = (uint32_t)(l - c->lines);
	unsigned set = i / c->g.ways, way = i % c->g.ways;
	if (l->tag != GC_CACHE_NO_TAG) {
		gc_hmap_del(&c->map, l->tag);
		order_remove(c, i, set);
	} else {
		c->inv[(size_t)set * c->invw + way / 64] &= ~(UINT64_C(1) << (way % 64));
	}
	/* cannot fail: the map was made for every line */
	*gc_hmap_put(&c->map, tag, NULL) = i;
	order_append(c, i, set);
}

/* Before gc_cache_invalidate takes valid line l's tag away. */
void gc_cache_wide_invalidate(gc_cache *c, gc_cline *l)
{
	uint32_t i = (uint32_t)(l - c->lines);
	unsigned set = i / c->g.ways, way = i % c->g.ways;
	gc_hmap_del(&c->map, l->tag);
	order_remove(c, i, set);
	c->inv[(size_t)set * c->invw + way / 64] |= UINT64_C(1) << (way % 64);
}

void gc_cache_sector_map(uint8_t map[256], unsigned from, unsigned to, unsigned line)
{
	for (unsigned m = 0; m < 256; m++) {
		uint8_t out = 0;
		for (unsigned i = 0; i < 8 && i < line / from; i++) {
			if (!(m & (1u << i)))
				continue;
			unsigned first = i * from / to;
			unsigned last = ((i + 1) * from - 1) / to;
			for (unsigned j = first; j <= last && j < line / to && j < 8; j++)
				out |= (uint8_t)(1u << j);
		}
		map[m] = out;
	}
}

uint8_t gc_cache_sectors(const gc_cache *c, uint64_t addr, unsigned bytes)
{
	uint64_t off = addr & (c->g.line - 1);
	uint64_t end = bytes ? off + bytes - 1 : off;
	if (end >= c->g.line)
		end = c->g.line - 1;
	unsigned first = (unsigned)(off >> c->sector_shift);
	unsigned last = (unsigned)(end >> c->sector_shift);
	return (uint8_t)(((1u << (last + 1)) - 1) & ~((1u << first) - 1));
}

static uint64_t next_random(gc_cache *c)
{
	return gc_cache_rng_next(&c->rng);
}

gc_cline *gc_cache_victim(gc_cache *c, unsigned set)
{
	gc_cline *l = c->lines + (size_t)set * c->g.ways;
	if (c->g.repl == GC_REPL_RANDOM) {
		gc_cline *v = first_invalid(c, set);
		return v ? v : &l[(next_random(c) >> 32) % c->g.ways];
	}
	if (c->wide)
		return gc_cache_wide_victim(c, set);
	/* The probe's scan for the tag of an invalid line: the first invalid
	 * way, else the least stamp. */
	gc_cline *v = NULL, *f = gc_cache_probe_tag(c, GC_CACHE_NO_TAG, set, &v);
	return f ? f : v;
}

