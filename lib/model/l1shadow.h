/*
 * l1shadow.h - a fully associative, sectored LRU cache of a fixed number
 * of lines: the shadow that tells capacity from conflict misses.
 *
 * gc-l1 mirrors every change of a real (set-associative) cache onto a
 * shadow of the same number of lines: a miss that also misses here is a
 * capacity miss, one that hits here a conflict miss (the textbook
 * three-C split, computed in the same pass).  The shadow knows only
 * lines, their sector valid bits and the LRU order; it never writes back
 * and has no policy of its own.
 *
 * O(1) per call: a hash map from line address to a node, and the nodes
 * in a doubly linked list, most recent first.  Memory: about 40 bytes a
 * line, allocated once.
 */
#ifndef GC_L1SHADOW_H
#define GC_L1SHADOW_H

#include "base/hash.h"

#include <stddef.h>
#include <stdint.h>

typedef struct gc_l1shadow_node {
	uint64_t tag;
	int32_t prev, next; /* -1: none */
	uint8_t valid;      /* sector bits */
	uint8_t pad[7];
} gc_l1shadow_node;

typedef struct gc_l1shadow {
	size_t lines;       /* capacity */
	size_t used;        /* nodes holding a line */
	int32_t head, tail; /* most and least recently used; -1 when empty */
	int32_t free;       /* first unused node (linked by next), -1: none */
	gc_l1shadow_node *node;
	gc_hmap map;        /* tag -> node index */
} gc_l1shadow;

/* An empty shadow of `lines` lines (>= 1).  -1 when out of memory. */
int gc_l1shadow_init(gc_l1shadow *s, size_t lines);
void gc_l1shadow_free(gc_l1shadow *s);
/* Every line gone. */
void gc_l1shadow_clear(gc_l1shadow *s);

/* 1 when line `tag` is present with every sector of `mask` valid (a hit),
 * else 0.  Changes nothing. */
int gc_l1shadow_probe(const gc_l1shadow *s, uint64_t tag, uint8_t mask);

/* A use of line `tag`: when present it becomes the most recent and the
 * sectors of `valid` become valid; when absent and `alloc` is set it is
 * inserted as the most recent with exactly `valid` (the least recent line
 * leaves when the shadow is full); absent without `alloc`: nothing.
 * -1 when out of memory (the hash map grows only while filling). */
int gc_l1shadow_use(gc_l1shadow *s, uint64_t tag, uint8_t valid, int alloc);

/* Line `tag` leaves (write-evict, invalidation); nothing when absent. */
void gc_l1shadow_drop(gc_l1shadow *s, uint64_t tag);

#endif
