/*
 * footprint.h - the distinct sectors and lines a stream touches (gc-stats).
 *
 * Sectors: for each group of 64 consecutive sectors, the mask of those
 * seen; a group holds 16 lines of 128 bytes.  The groups' words lie in
 * pages of 8 consecutive groups (64 bytes), found by a map from page to
 * words, so the map stays small and a streaming kernel seldom probes
 * it.  Lines of up to 64
 * sectors: a line is a field of the mask, counted when its first sector
 * appears; a request whose mask holds none of its own line's sectors
 * leaves the line in `bare`, counted at the end if no sector of it ever
 * appears.  Longer lines have a set of their own.
 *
 * Out of memory does not stop the counting (the sectors go to a scratch
 * word); gc_footprint_failed says so, and the caller reports it.
 */
#ifndef GC_FOOTPRINT_H
#define GC_FOOTPRINT_H

#include "base/hash.h"

#include <stdint.h>
#include <string.h>

#define GC_FP_RECENT 16 /* recent pages remembered (the hash's top 4 bits) */
#define GC_FP_PAGE 3     /* log2 of the sector groups of a page: 8 words, 64 bytes */
#define GC_FP_CHUNKS 48  /* chunks of pages, each twice the last */

typedef struct gc_footprint {
	unsigned lshift, sshift, lss; /* log2 of line, sector, sectors a line */
	int wide;                     /* more than 64 sectors a line */
	/* The groups' words by pages of 2^GC_FP_PAGE consecutive groups:
	 * a map from page to its words (a pointer into a chunk, where they
	 * stay: the map's growth moves none, so `recent` stays valid). */
	gc_hmap pages;
	uint64_t *chunk[GC_FP_CHUNKS];
	unsigned nchunks;
	size_t chunk_used, chunk_cap; /* pages of the last chunk */
	uint64_t sectors, lines;      /* distinct sectors; lines so far (narrow) */
	uint64_t prev_page;
	uint64_t *prev_words;         /* words of prev_page, or NULL */
	struct { uint64_t page, *v; } recent[GC_FP_RECENT];
	gc_hset bare;
	gc_hset wide_lines;
	uint64_t prev_wide_line;
	int failed;                   /* GC_FP_NOMEM_* of the first failure, or 0 */
	uint64_t scratch[1u << GC_FP_PAGE]; /* a page's words when none could be had */
} gc_footprint;

enum { GC_FP_NOMEM_GROUPS = 1, GC_FP_NOMEM_LINES, GC_FP_NOMEM_BARE };

/* Lines of 2^lshift bytes, sectors of 2^sshift (sshift <= lshift). */
void gc_footprint_init(gc_footprint *f, unsigned lshift, unsigned sshift);
void gc_footprint_free(gc_footprint *f);
/* The count of distinct lines, once everything is touched. */
uint64_t gc_footprint_lines(const gc_footprint *f);
/* The words of page `page` (slow path of gc_footprint_touch). */
uint64_t *gc_footprint_page(gc_footprint *f, uint64_t page);
/* Sector groups with a sector seen. */
size_t gc_footprint_groups(const gc_footprint *f);
/* Lines l0..l1 of a footprint with wide lines. */
void gc_footprint_wide_lines(gc_footprint *f, uint64_t l0, uint64_t l1);

static inline unsigned gc_footprint_popcount64(uint64_t x)
{
	x -= (x >> 1) & UINT64_C(0x5555555555555555);
	x = (x & UINT64_C(0x3333333333333333)) + ((x >> 2) & UINT64_C(0x3333333333333333));
	x = (x + (x >> 4)) & UINT64_C(0x0f0f0f0f0f0f0f0f);
	return (unsigned)((x * UINT64_C(0x0101010101010101)) >> 56);
}

/* The bits of the line field of a group's mask holding bit p. */
static inline uint64_t gc_footprint_field(const gc_footprint *f, unsigned p)
{
	uint64_t ones = f->lss == 6 ? UINT64_MAX : (UINT64_C(1) << (1u << f->lss)) - 1;
	return ones << (p >> f->lss << f->lss);
}

/* Lines whose first sectors are in `fresh`, given those seen `before`. */
static inline unsigned gc_footprint_new_lines(const gc_footprint *f, uint64_t before,
					      uint64_t fresh)
{
	unsigned n = 0;
	while (fresh) {
		uint64_t m = gc_footprint_field(f, (unsigned)__builtin_ctzll(fresh));
		n += !(before & m);
		fresh &= ~m;
	}
	return n;
}

/* Mark sectors `bits` of group g as seen. */
static inline __attribute__((always_inline)) void gc_footprint_touch(gc_footprint *f, uint64_t g,
								   uint64_t bits)
{
	uint64_t page = g >> GC_FP_PAGE, *w;
	if (f->prev_words && page == f->prev_page) {
		w = f->prev_words;
	} else {
		/* a hash: two arrays 2^k apart differ in high bits only */
		unsigned c = (unsigned)((page * UINT64_C(0x9E3779B97F4A7C15)) >> 60);
		if (f->recent[c].v && f->recent[c].page == page) {
			w = f->recent[c].v;
		} else {
			w = gc_footprint_page(f, page);
			f->recent[c].page = page;
			f->recent[c].v = w;
		}
		f->prev_page = page;
		f->prev_words = w;
	}
	uint64_t *v = &w[g & ((1u << GC_FP_PAGE) - 1)];
	uint64_t fresh = bits & ~*v;
	if (fresh) {
		if (!f->wide)
			f->lines += gc_footprint_new_lines(f, *v, fresh);
		*v |= fresh;
		f->sectors += gc_footprint_popcount64(fresh);
	}
}

/* Sectors first..last of a group as a mask. */
static inline uint64_t gc_footprint_bits(unsigned first, unsigned last)
{
	return ((UINT64_C(2) << last) - 1) & ~((UINT64_C(1) << first) - 1);
}

/* The bytes [addr, addr+size) of an access; size 0 counts as one byte. */
static inline void gc_footprint_range(gc_footprint *f, uint64_t addr, unsigned size)
{
	uint64_t last = addr + (size ? size - 1 : 0);
	if (last < addr)
		last = UINT64_MAX;
	if (f->wide)
		gc_footprint_wide_lines(f, addr >> f->lshift, last >> f->lshift);
	uint64_t s0 = addr >> f->sshift, s1 = last >> f->sshift;
	uint64_t g0 = s0 >> 6, g1 = s1 >> 6;
	if (g0 == g1) {
		gc_footprint_touch(f, g0, gc_footprint_bits(s0 & 63, s1 & 63));
		return;
	}
	gc_footprint_touch(f, g0, gc_footprint_bits(s0 & 63, 63));
	for (uint64_t g = g0 + 1; g < g1; g++)
		gc_footprint_touch(f, g, UINT64_MAX);
	gc_footprint_touch(f, g1, gc_footprint_bits(0, s1 & 63));
}

/* A request: its line, and sector i of the mask at addr + i * sector. */
static inline void gc_footprint_request(gc_footprint *f, uint64_t addr, unsigned mask)
{
	uint64_t line = addr >> f->lshift, s0 = addr >> f->sshift;
	unsigned off = s0 & 63;
	if (f->wide) /* its line, and the next when the mask reaches it */
		gc_footprint_wide_lines(f, line, mask ? (s0 + 31 - (unsigned)__builtin_clz(mask)) >> f->lss
						       : line);
	gc_footprint_touch(f, s0 >> 6, (uint64_t)mask << off);
	if (off > 56 && mask >> (64 - off))
		gc_footprint_touch(f, (s0 >> 6) + 1, mask >> (64 - off));
	if (!f->wide) {
		/* The sectors of the mask on the request's own line. */
		unsigned own = (1u << f->lss) - (unsigned)(s0 & ((1u << f->lss) - 1));
		if (!(mask & (own >= 8 ? 0xffu : (1u << own) - 1)) && gc_hset_add(&f->bare, line) < 0 &&
		    !f->failed)
			f->failed = GC_FP_NOMEM_BARE;
	}
}

#endif
