/*
 * l2map.c - the slice and set of an L2 line (l2map.h).
 */
#include "model/l2map.h"
#include "base/bits.h"
#include "config/gpu.h"
#include "model/cache.h"

unsigned gc_l2map_locate_slow(const gc_l2map *p, uint64_t addr, unsigned *slice)
{
	uint64_t pa;
	*slice = gc_addrmap_slice_paddr(&p->am, addr, &pa);
	unsigned s;
	if (p->index == GC_INDEX_IPOLY) {
		uint64_t la = pa >> p->line_shift;
		s = gc_ipoly_table_hash(&p->ipoly, la >> p->set_bits, (unsigned)la);
	} else {
		s = gc_set_index(p->index, pa, p->line_shift, p->sets);
	}
	return *slice * p->sets + s;
}

void gc_l2map_init(gc_l2map *p, const gc_addrmap *am, int index, unsigned sets, unsigned line)
{
	p->am = *am;
	p->sets = sets;
	p->set_bits = gc_log2(sets);
	p->line = line;
	p->line_shift = gc_log2(line);
	p->index = index;
	if (index == GC_INDEX_IPOLY)
		gc_ipoly_table_init(&p->ipoly, sets);
	p->by_tab = gc_addrmap_linear(am) && gc_is_pow2(sets) &&
		    (index == GC_INDEX_LINEAR || index == GC_INDEX_XOR || index == GC_INDEX_FERMI ||
		     index == GC_INDEX_IPOLY);
	for (unsigned k = 0; p->by_tab && k < 6; k++)
		for (unsigned v = 0; v < 256; v++) {
			unsigned slice;
			uint64_t a = ((uint64_t)v << 8 * k) & ~(uint64_t)(line - 1);
			p->tab[k][v] = gc_l2map_locate_slow(p, a, &slice);
		}
}
