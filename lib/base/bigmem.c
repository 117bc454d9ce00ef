/* bigmem.c - large zeroed tables in huge pages (bigmem.h). */
#include "base/bigmem.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#ifndef MAP_ANONYMOUS
#define MAP_ANONYMOUS MAP_ANON
#endif

/* The bytes mapped for a table of `bytes`: whole huge pages. */
static size_t big_len(size_t bytes)
{
	return (bytes + GC_BIG_PAGE - 1) & ~(GC_BIG_PAGE - 1);
}

void *gc_big_calloc(size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size) {
		errno = ENOMEM;
		return NULL;
	}
	size_t bytes = n * size;
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
