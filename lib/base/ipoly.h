/*
 * ipoly.h - the IPOLY index hash (ipoly.c): GPGPU-Sim's hashed set index
 * of the L1 and L2 (-gpgpu_cache ... "P"), and its L2 partition index.
 */
#ifndef GC_IPOLY_H
#define GC_IPOLY_H

#include <stdint.h>

/* The IPOLY hash of GPGPU-Sim (hashing.cc) for n = 16, 32 or 64:
 * `hi` the address bits above the index, `index` the linear index.
 * Used by the set index (model/cache.c) and the address mapping
 * (config/addrmap.c).  Other n: index % n. */
unsigned gc_ipoly_hash(uint64_t hi, unsigned index, unsigned n);

#endif
