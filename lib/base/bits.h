/* bits.h - powers of two and logarithms. */
#ifndef GC_BITS_H
#define GC_BITS_H

#include <stdint.h>

/* Powers of two (0 is not one) and the floor of log2 (0 for 0 and 1). */
static inline int gc_is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

static inline unsigned gc_log2(uint64_t v)
{
	return v > 1 ? 63u - (unsigned)__builtin_clzll(v) : 0u;
}

#endif
