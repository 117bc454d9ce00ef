/*
 * l1_class.c - the L1 engine's miss classification and per-PC counts:
 * what only the reports need (--emit all, --stats, -v), so none of it runs
 * unless params.classify is set.
 *
 * The three Cs as Hill and Smith define them: compulsory, a missing
 * sector never requested since the last flush (a map of runs of lines
 * -> their sectors, consulted on misses); otherwise capacity when a fully associative cache
 * of the same lines, sectors, replacement policy and write rules, fed
 * every reference the L1 looks up, misses the reference too, conflict
 * when it hits.  That cache is the SM's shadow (`fa`, a gc_cache of one
 * set), an independent cache: it is looked up for every reference
 * (l1_fa_load, l1_fa_store) and fills on its own misses (l1_fa_fill); with
 * --timing a load the L1 misses fills the shadow when the L1's miss
 * returns, so a fully associative L1 and its shadow stay the same cache.
 * Before the three Cs: partial-write, a missing sector a partial store
 * left invalid in the line (the line's aux bits, l1_store); and before
 * all, latency (merged into an in-flight miss) and MSHR (issued after an
 * MSHR stall), the timing model's own.
 */
#include "model/l1.h"
#include "model/l1_impl.h"

#include <stdlib.h>
#include <string.h>

/* The shadow of an SM whose L1 has geometry g. */
void l1_class_init(gc_l1 *R, struct sm *s, const gc_cache_geom *g)
{
	gc_cache_geom f = *g;
	f.ways = g->sets * g->ways;
	f.sets = 1;
	f.index = GC_INDEX_LINEAR;
	char why[160];
	if (gc_cache_init(&s->fa, &f, why, sizeof why) < 0)
		l1_fail(R, "the fully associative shadow of SM %u: %s", s->id, why);
	l1_oom(R, gc_hmap_init(&s->seen, 0));
}

void l1_class_clear(struct sm *s)
{
	gc_cache_clear(&s->fa);
	gc_hmap_clear(&s->seen);
}

void l1_class_free(struct sm *s)
{
	gc_cache_free(&s->fa);
	gc_hmap_free(&s->seen);
}

/* The shadow fetches sectors m of line addr: allocated (the victim by
 * the policy) when absent, the sectors valid, a use. */
void l1_fa_fill(struct sm *s, uint64_t addr, uint8_t m)
{
	gc_cache *c = &s->fa;
	unsigned set = gc_cache_set(c, addr);
	gc_cline *hint = NULL;
	gc_cline *l = gc_cache_probe(c, addr, set, &hint);
	if (!l) {
		l = gc_cache_victim_hint(c, set, hint);
		gc_cache_fill(c, l, addr);
	}
	l->valid |= m;
	l->aux &= ~(uint32_t)m;
	gc_cache_touch(c, l);
}

/* A load of sectors m of line addr in the shadow: 1 on a hit (a use);
 * on a miss 0, and the sectors are fetched at once when `now` is set
 * (else the caller fills them later). */
int l1_fa_load(struct sm *s, uint64_t addr, uint8_t m, int now)
{
	unsigned set;
	gc_cline *l = gc_cache_find(&s->fa, addr, &set);
	if (l && (l->valid & m) == m) {
		gc_cache_touch(&s->fa, l);
		return 1;
	}
	if (now)
		l1_fa_fill(s, addr, m);
	return 0;
}

/* A store of sectors m of line addr in the shadow, by l1_store's rules
 * (write policy `policy`, the L1's write allocation; `partial`: the
 * store covers its sectors only in part).  1 when every sector was
 * valid or held (a hit: a sector a partial store left, as l1_store). */
int l1_fa_store(gc_l1 *R, struct sm *s, uint64_t addr, uint8_t m, int partial, int policy)
{
	gc_cache *c = &s->fa;
	unsigned set = gc_cache_set(c, addr);
	gc_cline *hint = NULL;
	gc_cline *l = gc_cache_probe(c, addr, set, &hint);
	uint8_t missing = l ? m & ~l->valid : m;
	uint8_t absent = l ? missing & ~(uint8_t)l->aux : m; /* held ones hit */
	if (policy == GC_WRITE_EVICT) {
		if (l)
			gc_cache_invalidate(c, l);
		return !absent;
	}
	int alloc = R->walloc != GC_WALLOC_NONE && missing;
	if (!l && alloc) {
		l = gc_cache_victim_hint(c, set, hint);
		gc_cache_fill(c, l, addr);
	}
	if (l) {
		if (alloc && (!partial || R->walloc == GC_WALLOC_FETCH_ON_WRITE)) {
			l->valid |= missing;
			l->aux &= ~(uint32_t)missing;
		} else if (alloc) {
			l->aux |= missing; /* held, as in the L1 */
		}
		gc_cache_touch(c, l);
	}
	return !absent;
}

/* The word of the seen map that holds line tag's requested sectors, and
 * where in it (*shift): a word packs the sector masks of 64 / b lines in
 * a row (b, the line's sectors rounded up to a power of two), since a
 * GPU's lines are used in dense runs; one slot (16 bytes) then serves 16
 * lines of 4 sectors, where a slot a line cost 21-43 bytes a line with
 * the map's spare room. */
static uint64_t *seen_word(gc_l1 *R, struct sm *s, uint64_t tag, unsigned *shift)
{
	unsigned lb = R->nsectors <= 1 ? 0 : R->nsectors <= 2 ? 1 : R->nsectors <= 4 ? 2 : 3;
	unsigned per = 6 - lb; /* log2 of the lines a word holds */
	uint64_t *w = gc_hmap_put(&s->seen, tag >> per, NULL);
	if (!w)
		l1_fail(R, "out of memory");
	*shift = (unsigned)(tag & ((UINT64_C(1) << per) - 1)) << lb;
	return w;
}

/* Sectors `want` of line `tag` have been requested. */
void l1_seen(gc_l1 *R, struct sm *s, uint64_t tag, uint8_t want)
{
	unsigned shift;
	*seen_word(R, s, tag, &shift) |= (uint64_t)want << shift;
}

/* The class of a miss of sectors `want` of line `tag`, of which `missing`
 * were not valid, `partial` of them left invalid by a partial store, the
 * shadow having hit (fa_hit) or missed the same reference. */
int l1_classify(gc_l1 *R, struct sm *s, uint64_t tag, uint8_t want, uint8_t missing,
		uint8_t partial, int fa_hit)
{
	unsigned shift;
	uint64_t *w = seen_word(R, s, tag, &shift);
	int first = (missing & ~(uint8_t)(*w >> shift)) != 0;
	*w |= (uint64_t)want << shift;
	if (first)
		return GC_C_COMPULSORY;
	if (partial)
		return GC_C_PARTIAL;
	return fa_hit ? GC_C_CONFLICT : GC_C_CAPACITY;
}

/* Per-(kernel, PC) counts: the kernel is the one gc_l1_kernel_begin named. */
void l1_count_pc(gc_l1 *R, uint32_t pc, uint8_t outcome)
{
	if (gc_pctab_count(&R->pcs, pc, GC_OUT_RESULT(outcome) == GC_R_HIT, is_miss(outcome)) < 0)
		l1_fail(R, "out of memory");
}

/* The rows by misses, most first (a copy: the counts go on by index). */
void l1_pcs_sorted(gc_l1 *R)
{
	size_t n;
	free(R->pcsorted);
	R->pcsorted = gc_pctab_sorted(&R->pcs, &n);
	if (!R->pcsorted && n)
		l1_fail(R, "out of memory");
}
