/*
 * pending.h - sectors in flight in a cache without a timing model of its
 * own (gc-l2 over gc-l1 --timing's stream): for each line slot of a
 * gc_cache (gc_cache_line_index), the time each sector's fill arrives.
 * A sector fetched at time t with latency L is pending until t + L; an
 * access before then finds it pending (GPGPU-Sim's HIT_RESERVED).  A slot
 * given a new line starts with nothing pending.
 */
#ifndef GC_PENDING_H
#define GC_PENDING_H

#include <stddef.h>
#include <stdint.h>

typedef struct gc_pending {
	uint64_t *ready; /* [slot * nsectors + sector]: when its fill arrives */
	unsigned nsectors;
} gc_pending;

/* 0, or -1 when out of memory. */
int gc_pending_init(gc_pending *p, size_t nlines, unsigned nsectors);
void gc_pending_free(gc_pending *p);

/* Slot `line` holds a new line: nothing pending. */
void gc_pending_clear(gc_pending *p, size_t line);
/* Sectors `mask` of slot `line` are fetched: pending until `until`. */
void gc_pending_set(gc_pending *p, size_t line, uint8_t mask, uint64_t until);
/* Of sectors `mask` of slot `line`, those still pending at time `now`. */
uint8_t gc_pending_mask(const gc_pending *p, size_t line, uint8_t mask, uint64_t now);

#endif
