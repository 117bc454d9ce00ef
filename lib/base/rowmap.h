/*
 * rowmap.h - rows of the caller's own type, found by a uint64_t key: the
 * "one row per key" table of a breakdown (gc-stats --by, gc-rd --by,
 * gc-l1's per-PC counts).
 *
 * The rows sit in one array, in the order their keys first appeared, so
 * a caller can walk, sort or hand them on as a plain array; a gc_hmap maps
 * each key to its row's index.  A new row starts zeroed.  The array grows
 * by doubling, so a row pointer is good until the next gc_rowmap_row; keep
 * indices (or the key) across calls.  The last key looked up is
 * remembered, so a run of records with one key costs no hashing.
 *
 * Like the rest of lib/, these calls never print or exit: running out of
 * memory is NULL (or -1), with the map as it was.
 */
#ifndef GC_ROWMAP_H
#define GC_ROWMAP_H

#include "base/hash.h"

#include <stddef.h>
#include <stdint.h>

typedef struct gc_rowmap {
	gc_hmap keys;     /* key -> index of its row */
	char *rows;       /* n rows of `size` bytes, room for cap */
	size_t size, n, cap, first_cap;
	uint64_t last_key; /* the key of row `last`, when has_last */
	size_t last;
	int has_last;
} gc_rowmap;

/* An empty map of rows of `size` bytes; first_cap rows are allocated on
 * the first new key (0: 64). */
void gc_rowmap_init(gc_rowmap *m, size_t size, size_t first_cap);
void gc_rowmap_free(gc_rowmap *m);

/* gc_rowmap_row's lookup of a key other than the last. */
void *gc_rowmap_lookup(gc_rowmap *m, uint64_t key, int *added);

/* The row of key, a new zeroed row at the end when the key is new
 * (*added set to 1, else 0; added may be NULL); NULL when out of memory.
 * The last key's row is found here, inline (a run of one key is the
 * common case: gc-l1 counts every request by PC). */
static inline void *gc_rowmap_row(gc_rowmap *m, uint64_t key, int *added)
{
	if (m->has_last && key == m->last_key) {
		if (added)
			*added = 0;
		return m->rows + m->last * m->size;
	}
	return gc_rowmap_lookup(m, key, added);
}

/* Forget every key; the rows stay.  A key seen again gets a new row (a
 * breakdown per kernel launch forgets at each launch). */
void gc_rowmap_forget(gc_rowmap *m);

/* The rows, n of them (gc_rowmap_count), in order of first appearance. */
static inline void *gc_rowmap_rows(const gc_rowmap *m)
{
	return m->rows;
}

static inline size_t gc_rowmap_count(const gc_rowmap *m)
{
	return m->n;
}

/* Hand the rows to the caller, who frees them with free(); *n set to their
 * number.  The map is then empty (and may be used again or freed). */
void *gc_rowmap_take(gc_rowmap *m, size_t *n);

#endif
