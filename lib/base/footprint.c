/*
 * footprint.c - the distinct sectors and lines a stream touches: the
 * parts off the common path (footprint.h).
 */
#include "base/footprint.h"

#include <stdlib.h>

void gc_footprint_init(gc_footprint *f, unsigned lshift, unsigned sshift)
{
	memset(f, 0, sizeof *f);
	f->lshift = lshift;
	f->sshift = sshift;
	f->lss = lshift - sshift;
	f->wide = f->lss > 6;
	gc_hmap_init(&f->pages, 0);
	gc_hset_init(&f->bare, 0);
	gc_hset_init(&f->wide_lines, 0);
	f->prev_wide_line = UINT64_MAX; /* not a line number: lines are long here */
}

void gc_footprint_free(gc_footprint *f)
{
	gc_hmap_free(&f->pages);
	for (unsigned i = 0; i < f->nchunks; i++)
		free(f->chunk[i]);
	gc_hset_free(&f->wide_lines);
	gc_hset_free(&f->bare);
}

/* A fresh page's words from the chunks (zeroed: calloc), or NULL. */
static uint64_t *new_page(gc_footprint *f)
{
	const size_t words = (size_t)1 << GC_FP_PAGE;
	if (f->chunk_used == f->chunk_cap) {
		size_t cap = f->chunk_cap ? f->chunk_cap * 2 : 64;
		if (f->nchunks == GC_FP_CHUNKS || cap > SIZE_MAX / 2 / (words * sizeof(uint64_t)))
			return NULL;
		uint64_t *c = calloc(cap, words * sizeof(uint64_t));
		if (!c)
			return NULL;
		f->chunk[f->nchunks++] = c;
		f->chunk_cap = cap;
		f->chunk_used = 0;
	}
	return f->chunk[f->nchunks - 1] + words * f->chunk_used++;
}

uint64_t *gc_footprint_page(gc_footprint *f, uint64_t page)
{
	int added;
	uint64_t *slot = gc_hmap_put(&f->pages, page, &added);
	if (slot && !added)
		return (uint64_t *)(uintptr_t)*slot;
	uint64_t *w = slot ? new_page(f) : NULL;
	if (w) {
		*slot = (uint64_t)(uintptr_t)w;
		return w;
	}
	if (slot)
		gc_hmap_del(&f->pages, page);
	if (!f->failed)
		f->failed = GC_FP_NOMEM_GROUPS;
	return f->scratch;
}

size_t gc_footprint_groups(const gc_footprint *f)
{
	size_t n = 0, words = (size_t)f->chunk_used << GC_FP_PAGE;
	for (unsigned i = 0; i < f->nchunks; i++) {
		const uint64_t *c = f->chunk[i];
		size_t end = i + 1 == f->nchunks ? words : (size_t)64 << GC_FP_PAGE << i;
		for (size_t j = 0; j < end; j++)
			n += c[j] != 0;
	}
	return n;
}

void gc_footprint_wide_lines(gc_footprint *f, uint64_t l0, uint64_t l1)
{
	for (uint64_t l = l0;; l++) {
		if (l != f->prev_wide_line && gc_hset_add(&f->wide_lines, l) < 0 && !f->failed)
			f->failed = GC_FP_NOMEM_LINES;
		f->prev_wide_line = l;
		if (l == l1)
			break;
	}
}

uint64_t gc_footprint_lines(const gc_footprint *f)
{
	if (f->wide)
		return gc_hset_count(&f->wide_lines);
	uint64_t n = f->lines, line;
	size_t it = 0;
	while (gc_hset_next(&f->bare, &it, &line)) {
		uint64_t sec = line << f->lss, g = sec >> 6;
		const uint64_t *v = gc_hmap_get(&f->pages, g >> GC_FP_PAGE);
		n += !v || !(((const uint64_t *)(uintptr_t)*v)[g & ((1u << GC_FP_PAGE) - 1)] &
			     gc_footprint_field(f, sec & 63));
	}
	return n;
}
