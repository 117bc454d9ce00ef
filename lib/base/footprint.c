/*
 * footprint.c - the distinct sectors and lines a stream touches: the
 * parts off the common path (footprint.h).
 */
#include "base/footprint.h"

void gc_footprint_init(gc_footprint *f, unsigned lshift, unsigned sshift)
{
	memset(f, 0, sizeof *f);
	f->lshift = lshift;
	f->sshift = sshift;
	f->lss = lshift - sshift;
	f->wide = f->lss > 6;
	gc_hmap_init(&f->groups, 0);
	gc_hset_init(&f->bare, 0);
	gc_hset_init(&f->wide_lines, 0);
	f->prev_wide_line = UINT64_MAX; /* not a line number: lines are long here */
}

void gc_footprint_free(gc_footprint *f)
{
	gc_hmap_free(&f->groups);
	gc_hset_free(&f->wide_lines);
	gc_hset_free(&f->bare);
}

uint64_t *gc_footprint_word(gc_footprint *f, uint64_t g)
{
	uint64_t *v = gc_hmap_put(&f->groups, g, NULL);
	if (v)
		return v;
	if (!f->failed)
		f->failed = GC_FP_NOMEM_GROUPS;
	return &f->scratch;
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
		uint64_t sec = line << f->lss;
		const uint64_t *v = gc_hmap_get(&f->groups, sec >> 6);
		n += !v || !(*v & gc_footprint_field(f, sec & 63));
	}
	return n;
}
