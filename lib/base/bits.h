/* bits.h - powers of two and logarithms, decimal widths, bits set. */
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

/* The decimal digits of v (1 for 0): a table column's width. */
static inline int gc_digits(uint64_t v)
{
	int n = 1;
	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

/* The bits set in x, without the library call __builtin_popcount becomes
 * where the target has no popcount instruction. */
static inline unsigned gc_popcount32(uint32_t x)
{
	x = x - ((x >> 1) & 0x55555555u);
	x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
	return (((x + (x >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24;
}

/* The bits set in the low byte of x, by table (a sector mask's sectors:
 * a load, where gc_popcount32 is a dozen operations). */
static inline unsigned gc_popcount8(unsigned x)
{
#define GC_PC2(n) n, n + 1, n + 1, n + 2
#define GC_PC4(n) GC_PC2(n), GC_PC2(n + 1), GC_PC2(n + 1), GC_PC2(n + 2)
#define GC_PC6(n) GC_PC4(n), GC_PC4(n + 1), GC_PC4(n + 1), GC_PC4(n + 2)
	static const uint8_t t[256] = {GC_PC6(0), GC_PC6(1), GC_PC6(1), GC_PC6(2)};
#undef GC_PC2
#undef GC_PC4
#undef GC_PC6
	return t[x & 0xff];
}

#endif
