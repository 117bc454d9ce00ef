/*
 * hash.h - open-addressing hash tables keyed by uint64_t: a set, and a map
 * to a uint64_t value (a counter, a bit mask, or an index into the
 * caller's own array of records).
 *
 * Linear probing over a power-of-two table that doubles when it is three
 * quarters full; deletion shifts the following entries back, so there are
 * no tombstones and lookups stay short under churn (the cache stages insert
 * and remove lines all the time).  Every key value is allowed: the one key
 * that marks an empty slot is kept beside the table.
 *
 * Memory: 8 bytes (set) or 16 bytes (map) per slot, 1.33 to 2.67 slots per
 * key.  Like the rest of lib/, these calls never print or exit; the only
 * failure is running out of memory, reported as -1 or NULL.
 */
#ifndef GC_HASH_H
#define GC_HASH_H

#include <stddef.h>
#include <stdint.h>

typedef struct gc_hset {
	uint64_t *keys;   /* cap slots; GC_HASH_EMPTY marks a free one */
	size_t cap;       /* 0 before the first insertion, else a power of two */
	size_t n;         /* keys in the table (the out-of-line key excluded) */
	unsigned shift;   /* 64 - log2(cap) */
	int has_empty;    /* the key GC_HASH_EMPTY is a member */
} gc_hset;

typedef struct gc_hslot {
	uint64_t key;
	uint64_t val;
} gc_hslot;

typedef struct gc_hmap {
	gc_hslot *slots;
	size_t cap, n;
	unsigned shift;
	int has_empty;
	uint64_t empty_val; /* value of the key GC_HASH_EMPTY */
} gc_hmap;

#define GC_HASH_EMPTY UINT64_MAX

/* Initialise for about `expect` keys (0: allocate on first use).  -1 when
 * out of memory (the table is then empty but usable). */
int gc_hset_init(gc_hset *s, size_t expect);
void gc_hset_free(gc_hset *s);
/* Remove every key, keeping the memory. */
void gc_hset_clear(gc_hset *s);
/* 1 when added, 0 when already present, -1 when out of memory. */
int gc_hset_add(gc_hset *s, uint64_t key);
int gc_hset_has(const gc_hset *s, uint64_t key);
/* 1 when removed, 0 when absent. */
int gc_hset_del(gc_hset *s, uint64_t key);
size_t gc_hset_count(const gc_hset *s);
/* Iterate in no particular order: start with *it = 0; 1 and *key set, or
 * 0 at the end.  The set must not change while iterating. */
int gc_hset_next(const gc_hset *s, size_t *it, uint64_t *key);

int gc_hmap_init(gc_hmap *m, size_t expect);
void gc_hmap_free(gc_hmap *m);
void gc_hmap_clear(gc_hmap *m);
/* The value of key, or NULL when absent. */
uint64_t *gc_hmap_get(const gc_hmap *m, uint64_t key);
/* The value of key, inserted as 0 when absent (*added set to 1, else 0;
 * added may be NULL); NULL when out of memory.  The pointer stays valid
 * until the next gc_hmap_put or gc_hmap_del on this map. */
uint64_t *gc_hmap_put(gc_hmap *m, uint64_t key, int *added);
int gc_hmap_del(gc_hmap *m, uint64_t key);
size_t gc_hmap_count(const gc_hmap *m);
int gc_hmap_next(const gc_hmap *m, size_t *it, uint64_t *key, uint64_t *val);

/* The mixing function the tables use (exposed for tests and for callers
 * that shard by hash). */
static inline uint64_t gc_hash64(uint64_t k)
{
	k ^= k >> 33;
	k *= UINT64_C(0xff51afd7ed558ccd);
	k ^= k >> 33;
	return k;
}

/* Bring key's home slot of m towards the CPU (a hint; nothing changes).
 * Always inlined, or GCC drops the call (see gc_cache_prefetch). */
static inline __attribute__((always_inline)) void gc_hmap_prefetch(const gc_hmap *m, uint64_t key)
{
	if (m->cap > 1)
		__builtin_prefetch(&m->slots[gc_hash64(key) >> m->shift], 1);
}

#endif
