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

#include <pthread.h>
#include <stddef.h>

#define GC_BIG_PAGE ((size_t)2 << 20)
#define GC_BIG_MIN ((size_t)1 << 20)

/* n elements of size bytes, zeroed; NULL (errno ENOMEM) as calloc when
 * out of memory or n * size overflows. */
void *gc_big_calloc(size_t n, size_t size);

/* Frees p from gc_big_calloc(n, size), given the same n and size; NULL is
 * nothing. */
void gc_big_free(void *p, size_t n, size_t size);

/* A pool of tables of GC_POOL_MIN bytes to 2 MiB, for many tables that
 * grow by doubling (gc-l1's seen table of each SM, ~512 KiB each on the
 * bench's streams), which alone would each take a whole huge page: blocks
 * of a power of two of bytes carved from 2 MiB huge pages by halving
 * (buddies), a freed block joined again with its free buddy, so that the
 * tables of SMs growing in step reuse what each other left.  Below
 * GC_POOL_MIN a table is calloc's, above 2 MiB gc_big_calloc's.  The
 * pages go back to the system only at gc_bigpool_free_all.  Calls may
 * come from several threads.  The smallest block is a small page: the
 * 80 SMs' small tables and arrays of gc-l1 --stats (a seen table's first
 * doublings, the shadow's arrays) took ~1,300 small pages' first touches
 * from calloc on the bench's transposition. */
#define GC_POOL_MIN ((size_t)4 << 10)
#define GC_POOL_ORDERS 10 /* 4 KiB << 0..9 */

typedef struct gc_bigpool {
	void *free[GC_POOL_ORDERS]; /* free blocks by order, linked by their first word */
	void **chunk;               /* the 2 MiB pages */
	size_t nchunk, cap;
	pthread_mutex_t mu;
} gc_bigpool;

/* An empty pool; -1 if its lock cannot be made. */
int gc_bigpool_init(gc_bigpool *p);
/* n elements of size bytes, zeroed, as gc_big_calloc. */
void *gc_bigpool_calloc(gc_bigpool *p, size_t n, size_t size);
/* The same, not zeroed (the block may hold what its last owner left):
 * for arrays that are written before they are read. */
void *gc_bigpool_alloc(gc_bigpool *p, size_t n, size_t size);
/* Gives q from gc_bigpool_calloc or _alloc(p, n, size) back, the same n and size. */
void gc_bigpool_put(gc_bigpool *p, void *q, size_t n, size_t size);
/* Every page of the pool back to the system (its blocks with them). */
void gc_bigpool_free_all(gc_bigpool *p);

#endif
