/*
 * kunits.c - per-kernel counts of units (kunits.h).
 */
#include "base/kunits.h"

#include "base/grow.h"
#include <stdlib.h>
#include <string.h>

void gc_kunits_init(gc_kunits *u, unsigned width)
{
	memset(u, 0, sizeof *u);
	u->width = width;
}

void gc_kunits_free(gc_kunits *u)
{
	free(u->base);
	free(u->rows);
	free(u->first);
	memset(u, 0, sizeof *u);
}

int gc_kunits_unit(gc_kunits *u, uint32_t unit, const uint64_t *now)
{
	size_t w = u->width;
	if (unit >= u->nbase) {
		size_t was = u->nbase;
		uint64_t *b = gc_grow(u->base, &u->nbase, (size_t)unit + 1, w * sizeof *b, 16);
		if (!b)
			return -1;
		memset(b + was * w, 0, (u->nbase - was) * w * sizeof *b);
		u->base = b;
	}
	uint64_t *base = u->base + (size_t)unit * w;
	if (memcmp(base, now, w * sizeof *now) == 0)
		return 0;
	if (u->n == u->cap) {
		uint64_t *r = gc_grow(u->rows, &u->cap, u->n + 1, (w + 1) * sizeof *r, 64);
		if (!r)
			return -1;
		u->rows = r;
	}
	uint64_t *row = u->rows + u->n++ * (w + 1);
	row[0] = unit;
	for (size_t i = 0; i < w; i++)
		row[i + 1] = now[i] - base[i];
	memcpy(base, now, w * sizeof *now);
	return 0;
}

static int by_unit(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

int gc_kunits_kernel_end(gc_kunits *u)
{
	if (u->nk + 1 >= u->kcap) {
		size_t *f = gc_grow(u->first, &u->kcap, u->nk + 2, sizeof *f, 16);
		if (!f)
			return -1;
		u->first = f;
	}
	size_t start = u->nk ? u->first[u->nk] : 0;
	if (!u->nk)
		u->first[0] = 0;
	qsort(u->rows + start * (u->width + 1), u->n - start, (u->width + 1) * sizeof *u->rows,
	      by_unit);
	u->first[++u->nk] = u->n;
	return 0;
}

size_t gc_kunits_rows(const gc_kunits *u, size_t k, const uint64_t **row)
{
	if (k >= u->nk) {
		*row = NULL;
		return 0;
	}
	*row = u->rows + u->first[k] * (u->width + 1);
	return u->first[k + 1] - u->first[k];
}
