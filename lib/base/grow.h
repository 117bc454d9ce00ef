/* grow.h - growing an array by doubling. */
#ifndef GC_GROW_H
#define GC_GROW_H

#include <stddef.h>

/* gc_grow(p, &cap, need, size, first): an array of *cap elements of size
 * bytes at p (NULL and 0 at first), made to hold at least need elements:
 * p itself when it does, else a block of first, or of twice *cap,
 * doubled until need fits, with p's contents, and *cap set to it.  NULL
 * when out of memory or the size overflows; p and *cap are then as they
 * were. */
void *gc_grow(void *p, size_t *cap, size_t need, size_t size, size_t first);

#endif
