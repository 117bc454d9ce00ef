/* bigmem.h - large zeroed tables, in huge pages where the system has them.
 *
 * A table of GC_BIG_MIN bytes or more is mapped on its own, its length
 * rounded up to GC_BIG_PAGE (2 MiB) and its start aligned to it, and the
 * kernel asked for transparent huge pages (madvise MADV_HUGEPAGE, which
 * is what the systems we run on honour by default): the first touch of
 * each 2 MiB then costs one fault that zeroes it, not 512 (a fresh 4 KiB
 * page costs ~25 us on the VMs we run on, a fresh 2 MiB one ~200 us), and
 * random accesses over the table miss the TLB far less.  A smaller table
 * is calloc's, so that a small input never zeroes 2 MiB it does not use.
 * DESIGN-NOTES ("Large tables in huge pages") has the measurements. */
#ifndef GC_BIGMEM_H
#define GC_BIGMEM_H

#include <stddef.h>

#define GC_BIG_PAGE ((size_t)2 << 20)
#define GC_BIG_MIN ((size_t)1 << 20)

/* n elements of size bytes, zeroed; NULL (errno ENOMEM) as calloc when
 * out of memory or n * size overflows. */
void *gc_big_calloc(size_t n, size_t size);

/* Frees p from gc_big_calloc(n, size), given the same n and size; NULL is
 * nothing. */
void gc_big_free(void *p, size_t n, size_t size);

#endif
