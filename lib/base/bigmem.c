/* bigmem.c - large zeroed tables in huge pages (bigmem.h). */
#include "base/bigmem.h"

#include "base/grow.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#ifndef MAP_ANONYMOUS
#define MAP_ANONYMOUS MAP_ANON
#endif

/* The bytes mapped for a table of `bytes`: whole huge pages. */
static size_t big_len(size_t bytes)
{
	return (bytes + GC_BIG_PAGE - 1) & ~(GC_BIG_PAGE - 1);
}

/* n * size into *bytes; -1 (errno ENOMEM) when it overflows. */
static int big_bytes(size_t n, size_t size, size_t *bytes)
{
	if (size && n > SIZE_MAX / size) {
		errno = ENOMEM;
		return -1;
	}
	*bytes = n * size;
	return 0;
}

void *gc_big_calloc(size_t n, size_t size)
{
	size_t bytes;
	if (big_bytes(n, size, &bytes) < 0)
		return NULL;
	if (bytes < GC_BIG_MIN)
		return calloc(n, size);
	size_t len = big_len(bytes);
	if (len < bytes || len > SIZE_MAX - GC_BIG_PAGE) {
		errno = ENOMEM;
		return NULL;
	}
	/* A huge page must start on a 2 MiB boundary: map one page more and
	 * give back what lies before and after the aligned block. */
	char *raw = mmap(NULL, len + GC_BIG_PAGE, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (raw == MAP_FAILED) {
		errno = ENOMEM;
		return NULL;
	}
	uintptr_t a = ((uintptr_t)raw + GC_BIG_PAGE - 1) & ~(uintptr_t)(GC_BIG_PAGE - 1);
	char *p = (char *)a;
	size_t head = (size_t)(p - raw), tail = GC_BIG_PAGE - head;
	if (head)
		munmap(raw, head);
	if (tail)
		munmap(p + len, tail);
#ifdef MADV_HUGEPAGE
	madvise(p, len, MADV_HUGEPAGE); /* a hint: small pages if refused */
#endif
	return p;
}

void gc_big_free(void *p, size_t n, size_t size)
{
	if (!p)
		return;
	size_t bytes = n * size;
	if (bytes < GC_BIG_MIN)
		free(p);
	else
		munmap(p, big_len(bytes));
}

int gc_bigpool_init(gc_bigpool *p)
{
	memset(p, 0, sizeof *p);
	return pthread_mutex_init(&p->mu, NULL) ? -1 : 0;
}

/* The order of a block of `bytes` (GC_POOL_MIN to GC_BIG_PAGE). */
static unsigned pool_order(size_t bytes)
{
	unsigned k = 0;
	while ((GC_POOL_MIN << k) < bytes)
		k++;
	return k;
}

/* A free block of order k, split from a larger one or a new page; NULL
 * when out of memory.  Under the lock. */
static void *pool_take(gc_bigpool *p, unsigned k)
{
	unsigned j = k;
	while (j < GC_POOL_ORDERS && !p->free[j])
		j++;
	char *b;
	if (j == GC_POOL_ORDERS) {
		void **c = gc_grow(p->chunk, &p->cap, p->nchunk + 1, sizeof *c, 16);
		if (!c)
			return NULL;
		p->chunk = c;
		if (!(b = gc_big_calloc(1, GC_BIG_PAGE)))
			return NULL;
		p->chunk[p->nchunk++] = b;
		j = GC_POOL_ORDERS - 1;
	} else {
		b = p->free[j];
		p->free[j] = *(void **)b;
	}
	while (j > k) { /* the upper half of each split is free */
		j--;
		char *half = b + (GC_POOL_MIN << j);
		*(void **)half = p->free[j];
		p->free[j] = half;
	}
	return b;
}

void *gc_bigpool_alloc(gc_bigpool *p, size_t n, size_t size)
{
	size_t bytes;
	if (big_bytes(n, size, &bytes) < 0)
		return NULL;
	if (bytes < GC_POOL_MIN)
		return malloc(bytes ? bytes : 1);
	if (bytes > GC_BIG_PAGE)
		return gc_big_calloc(n, size);
	pthread_mutex_lock(&p->mu);
	void *b = pool_take(p, pool_order(bytes));
	pthread_mutex_unlock(&p->mu);
	if (!b)
		errno = ENOMEM;
	return b;
}

void *gc_bigpool_calloc(gc_bigpool *p, size_t n, size_t size)
{
	size_t bytes;
	if (big_bytes(n, size, &bytes) < 0)
		return NULL;
	if (bytes < GC_POOL_MIN || bytes > GC_BIG_PAGE)
		return gc_big_calloc(n, size);
	void *b = gc_bigpool_alloc(p, n, size);
	if (b)
		memset(b, 0, GC_POOL_MIN << pool_order(bytes));
	return b;
}

void gc_bigpool_put(gc_bigpool *p, void *q, size_t n, size_t size)
{
	if (!q)
		return;
	size_t bytes = n * size;
	if (bytes < GC_POOL_MIN || bytes > GC_BIG_PAGE) {
		gc_big_free(q, n, size);
		return;
	}
	unsigned k = pool_order(bytes);
	char *b = q;
	pthread_mutex_lock(&p->mu);
	/* Pages are 2 MiB aligned: a block's buddy differs in one bit. */
	while (k + 1 < GC_POOL_ORDERS) {
		char *buddy = (char *)((uintptr_t)b ^ (GC_POOL_MIN << k));
		void **at = &p->free[k];
		while (*at && *at != buddy)
			at = (void **)*at;
		if (!*at)
			break;
		*at = *(void **)buddy; /* taken off its list, joined */
		if (buddy < b)
			b = buddy;
		k++;
	}
	*(void **)b = p->free[k];
	p->free[k] = b;
	pthread_mutex_unlock(&p->mu);
}

void gc_bigpool_free_all(gc_bigpool *p)
{
	for (size_t i = 0; i < p->nchunk; i++)
		gc_big_free(p->chunk[i], 1, GC_BIG_PAGE);
	free(p->chunk);
	pthread_mutex_destroy(&p->mu);
	memset(p, 0, sizeof *p);
}
