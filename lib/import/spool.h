/*
 * spool.h - a kernel's access records kept until its begin record can be
 * written (the parsers whose kernel record carries counts known only at
 * the kernel's end: NVBit, PPT-GPU, Ocelot).
 *
 * Each record is coded against the one before it: a tag byte, then only
 * the fields that changed (the lane when it is not the previous one's
 * plus one, the address when it is not the previous one's plus the last
 * step), in variable-length integers, so a warp instruction of
 * consecutive lanes and words costs about two bytes a lane instead of
 * a parser's 9 to 40.  The bytes go in chunks of 2 MiB that never move
 * (no copy as the spool grows) and are kept for the next kernel (no fresh
 * pages to clear after the largest kernel).
 *
 * Carried: op, space, flags, size, block, warp, seq, lane, addr.  The
 * other fields of an emitted record are the template's.
 */
#ifndef GC_SPOOL_H
#define GC_SPOOL_H

#include "import/import.h"

#include <stddef.h>
#include <stdint.h>

typedef struct gc_spool {
	unsigned char **chunk;  /* chunks of GC_SPOOL_CHUNK bytes */
	size_t *used;           /* bytes of records in each */
	size_t nchunk, cchunk;  /* chunks allocated, room for pointers */
	size_t cur;             /* the chunk being written */
	unsigned char *p, *end; /* where the next record goes, the limit */
	uint64_t n;             /* records spooled since the last clear */
	/* The encoder's state: the previous record's fields and step. */
	uint8_t op, space, flags, next_lane;
	uint16_t size;
	uint32_t block, seq;
	uint16_t warp;
	uint64_t addr, step;
} gc_spool;

#define GC_SPOOL_CHUNK ((size_t)2 << 20)

/* An empty spool (all zero bytes are one too). */
void gc_spool_init(gc_spool *s);
/* Add r's carried fields (out of memory: im->fatal). */
void gc_spool_put(gc_import *im, gc_spool *s, const gc_rec *r);
/* Every record spooled, in order, through gc_import_access, its other
 * fields from tmpl, its block blocks[the block spooled] when blocks is
 * not NULL (a parser that learns its blocks' ids at the kernel's end);
 * then the spool is empty (its chunks kept). */
void gc_spool_emit(gc_import *im, gc_spool *s, const gc_rec *tmpl, const uint32_t *blocks);
/* Empty it, keeping its chunks. */
void gc_spool_clear(gc_spool *s);
void gc_spool_free(gc_spool *s);

/* Variable-length integers, 7 bits a byte, low bits first (at most 10
 * bytes), as the spools code their fields. */
static inline unsigned char *gc_put_varint(unsigned char *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	*p++ = (unsigned char)v;
	return p;
}

static inline const unsigned char *gc_get_varint(const unsigned char *p, uint64_t *v)
{
	uint64_t x = *p & 0x7f;
	for (unsigned sh = 7; *p++ & 0x80; sh += 7)
		x |= (uint64_t)(*p & 0x7f) << sh;
	*v = x;
	return p;
}

/* Zigzag: a signed step as an unsigned varint's value, and back. */
static inline uint64_t gc_zigzag(uint64_t d) { return d << 1 ^ (uint64_t)((int64_t)d >> 63); }
static inline uint64_t gc_unzigzag(uint64_t v) { return (v >> 1) ^ (0 - (v & 1)); }

#endif
