/*
 * endian.h - little-endian field encoding, independent of the host.
 *
 * On a little-endian host (GCC and Clang say so) a field is one memcpy,
 * which compiles to a single load or store; elsewhere it is put together
 * byte by byte.  Compilers do not always merge the bytes of a computed
 * value into one store, and the record codecs are the tools' hot path.
 */
#ifndef GC_ENDIAN_H
#define GC_ENDIAN_H

#include <stdint.h>
#include <string.h>

#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && \
	__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define GC_HOST_LE 1
#else
#define GC_HOST_LE 0
#endif

static inline uint16_t gc_get16(const unsigned char *p)
{
	if (GC_HOST_LE) {
		uint16_t v;
		memcpy(&v, p, sizeof v);
		return v;
	}
	return (uint16_t)(p[0] | (unsigned)p[1] << 8);
}

static inline uint32_t gc_get32(const unsigned char *p)
{
	if (GC_HOST_LE) {
		uint32_t v;
		memcpy(&v, p, sizeof v);
		return v;
	}
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static inline uint64_t gc_get64(const unsigned char *p)
{
	if (GC_HOST_LE) {
		uint64_t v;
		memcpy(&v, p, sizeof v);
		return v;
	}
	return (uint64_t)gc_get32(p) | (uint64_t)gc_get32(p + 4) << 32;
}

static inline void gc_put16(unsigned char *p, uint16_t v)
{
	if (GC_HOST_LE) {
		memcpy(p, &v, sizeof v);
		return;
	}
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
}

static inline void gc_put32(unsigned char *p, uint32_t v)
{
	if (GC_HOST_LE) {
		memcpy(p, &v, sizeof v);
		return;
	}
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

static inline void gc_put64(unsigned char *p, uint64_t v)
{
	if (GC_HOST_LE) {
		memcpy(p, &v, sizeof v);
		return;
	}
	gc_put32(p, (uint32_t)v);
	gc_put32(p + 4, (uint32_t)(v >> 32));
}

#endif
