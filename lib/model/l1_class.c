/*
 * l1_class.c - the L1 engine's miss classification and per-PC counts:
 * what only the reports need (--emit all, --stats, -v), so none of it runs
 * unless params.classify is set.
 *
 * Compulsory: a missing sector never requested since the last flush (a
 * map line -> sectors, consulted on misses).  Capacity: a miss in a fully
 * associative LRU shadow of the same number of lines (l1shadow.h), which
 * mirrors every change to the real L1 and is probed before it mirrors the
 * miss; conflict: a hit there.  Latency (merged into an in-flight miss)
 * and MSHR (issued after an MSHR stall) are the timing model's own.
 */
#include "model/l1.h"
#include "model/l1_impl.h"

#include <stdlib.h>
#include <string.h>

void l1_class_init(gc_l1 *R, struct sm *s, size_t lines)
{
	l1_oom(R, gc_l1shadow_init(&s->sh, lines));
	l1_oom(R, gc_hmap_init(&s->seen, 0));
}

void l1_class_clear(struct sm *s)
{
	gc_l1shadow_clear(&s->sh);
	gc_hmap_clear(&s->seen);
}

void l1_class_free(struct sm *s)
{
	gc_l1shadow_free(&s->sh);
	gc_hmap_free(&s->seen);
}

/* Sectors `want` of line `tag` have been requested. */
void l1_seen(gc_l1 *R, struct sm *s, uint64_t tag, uint8_t want)
{
	int added;
	uint64_t *seen = gc_hmap_put(&s->seen, tag, &added);
	if (!seen)
		l1_fail(R, "out of memory");
	*seen |= want;
}

/* The class of a miss of sectors `want` of line `tag`, of which `missing`
 * were not valid; the shadow is probed before it mirrors the change. */
int l1_classify(gc_l1 *R, struct sm *s, uint64_t tag, uint8_t want, uint8_t missing)
{
	int added;
	uint64_t *seen = gc_hmap_put(&s->seen, tag, &added);
	if (!seen)
		l1_fail(R, "out of memory");
	int first = (missing & ~(uint8_t)*seen) != 0;
	*seen |= want;
	if (first)
		return GC_C_COMPULSORY;
	return gc_l1shadow_probe(&s->sh, tag, want) ? GC_C_CONFLICT : GC_C_CAPACITY;
}

/* Per-PC counts. */
void l1_count_pc(gc_l1 *R, uint32_t pc, int miss)
{
	int added;
	gc_l1_pcstat *p = gc_rowmap_row(&R->pcs, pc, &added);
	if (!p)
		l1_fail(R, "out of memory");
	if (added)
		p->pc = pc;
	p->requests++;
	p->misses += miss != 0;
}

static int by_misses(const void *a, const void *b)
{
	const gc_l1_pcstat *x = a, *y = b;
	if (x->misses != y->misses)
		return x->misses > y->misses ? -1 : 1;
	return x->pc < y->pc ? -1 : x->pc > y->pc;
}

/* The PCs by misses, most first (a copy: the counts go on by index). */
void l1_pcs_sorted(gc_l1 *R)
{
	size_t n = gc_rowmap_count(&R->pcs);
	if (!n)
		return;
	R->pcsorted = l1_alloc(R, R->pcsorted, n * sizeof *R->pcsorted);
	memcpy(R->pcsorted, gc_rowmap_rows(&R->pcs), n * sizeof *R->pcsorted);
	qsort(R->pcsorted, n, sizeof *R->pcsorted, by_misses);
}
