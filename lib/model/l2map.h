/*
 * l2map.h - where a line lives in a sliced L2 (gc-l2): its slice, under the
 * address mapping and partition indexing (config/addrmap.h), and its set
 * within the slice, the set-index function of the partition address; as
 * one number, slice * sets + set, its set in one gc_cache of every slice.
 *
 * Where the mapping is linear over GF(2) (gc_addrmap_linear) and the set
 * index too (a power-of-two set count; linear, XOR, Fermi or IPOLY: every
 * shipped L2), that number for an address below 2^48 is the XOR of one
 * table entry per address byte, each entry gc_l2map_locate_slow of that
 * byte alone (line offset cleared): six loads instead of the mapping's
 * bit packing and two hashes (some 400 instructions a request).
 */
#ifndef GC_L2MAP_H
#define GC_L2MAP_H

#include "config/addrmap.h"

#include <stdint.h>

typedef struct gc_l2map {
	gc_addrmap am;
	unsigned sets, set_bits, line, line_shift;
	int index;               /* enum gc_gpu_index */
	gc_ipoly_table ipoly;    /* index ipoly: the set hash by table */
	int by_tab;              /* locate by tab[] */
	uint32_t tab[6][256];
} gc_l2map;

/* For mapping am (copied), `sets` sets per slice (indexed by `index`, as
 * gc_set_index_check passed it) of `line`-byte lines. */
void gc_l2map_init(gc_l2map *p, const gc_addrmap *am, int index, unsigned sets, unsigned line);
/* The set of byte address addr among all slices', its slice in *slice:
 * the mapping and the set index computed. */
unsigned gc_l2map_locate_slow(const gc_l2map *p, uint64_t addr, unsigned *slice);

/* The same, by table where it applies; addr below 2^48. */
static inline unsigned gc_l2map_locate(const gc_l2map *p, uint64_t addr, unsigned *slice)
{
	if (!p->by_tab)
		return gc_l2map_locate_slow(p, addr, slice);
	unsigned s = p->tab[0][addr & 0xff] ^ p->tab[1][addr >> 8 & 0xff] ^
		     p->tab[2][addr >> 16 & 0xff] ^ p->tab[3][addr >> 24 & 0xff] ^
		     p->tab[4][addr >> 32 & 0xff] ^ p->tab[5][addr >> 40 & 0xff];
	*slice = s >> p->set_bits;
	return s;
}

#endif
