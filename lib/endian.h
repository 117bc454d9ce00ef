/* endian.h - little-endian field encoding, independent of the host. */
#ifndef GC_ENDIAN_H
#define GC_ENDIAN_H

#include <stdint.h>

static inline uint16_t gc_get16(const unsigned char *p)
{
	return (uint16_t)(p[0] | (unsigned)p[1] << 8);
}

static inline uint32_t gc_get32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static inline uint64_t gc_get64(const unsigned char *p)
{
	return (uint64_t)gc_get32(p) | (uint64_t)gc_get32(p + 4) << 32;
}

static inline void gc_put16(unsigned char *p, uint16_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
}

static inline void gc_put32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

static inline void gc_put64(unsigned char *p, uint64_t v)
{
	gc_put32(p, (uint32_t)v);
	gc_put32(p + 4, (uint32_t)(v >> 32));
}

#endif
