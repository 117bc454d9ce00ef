/*
 * l1_prefetch.c - the L1 engine's prefetcher (l1.prefetch): each SM's
 * prefetcher (model/prefetch.h) trains on the demand loads L1 looks up,
 * and its prefetches are loads of whole lines of their own (the prefetch
 * flag, gc-stream(5)) that fill the line marked as prefetched.
 *
 * Functional: a prefetch fills its line at once.  Timing: it takes an
 * MSHR entry like a miss (no warp's: the per-warp limit does not apply)
 * when one is free after the instruction that triggered it, and is
 * dropped otherwise; a demand request that meets it in flight merges
 * into it (a late prefetch).  Lines present or in flight are not
 * prefetched again.
 */
#include "model/l1.h"
#include "model/l1_impl.h"

const gc_cline l1_pf_nowhere = {.tag = GC_CACHE_NO_TAG};

void l1_pf_init(gc_l1 *R, struct sm *s)
{
	const gc_gpu_cache *l1 = &R->gpu.l1;
	gc_pf_params pp = {l1->prefetch, l1->pf_degree, l1->pf_distance, l1->pf_table,
			   l1->pf_window, GC_ADDR48_MAX >> s->c.line_shift};
	char why[160];
	if (gc_pf_init(&s->pf, &pp, why, sizeof why) < 0)
		l1_fail(R, "L1 of SM %u: %s", s->id, why);
	l1_pf_reset(R, s);
}

void l1_pf_reset(const gc_l1 *R, struct sm *s)
{
	for (unsigned i = 0; R->pf_on && i <= GC_PF_OUT_MAX; i++)
		s->pfat[i] = &l1_pf_nowhere;
}

void l1_pf_late(struct sm *s, struct mshr *x)
{
	x->prefetch = 0; /* the demand request's now: its line fills unmarked */
	s->n.pf_late++;
	gc_pf_feedback(&s->pf, GC_PF_LATE);
}

/* The prefetch of the line at addr goes to L2: a load of the whole line
 * with the flag, carrying the trigger's ids but no compute field.  With
 * --emit all it is a record of that stream too, after its trigger, in the
 * stream's sectors and with no outcome (it is no lookup of a warp's).
 * Not from gc_l1_access_raw: l1_pf_access_k writes its own. */
void l1_pf_out(gc_l1 *R, struct sm *s, const gc_rec *r, uint64_t addr, uint64_t t)
{
	uint8_t full = s->c.full_mask;
	unsigned bytes = sector_bytes(R, full);
	s->n.pf_issued++;
	to_l2(R, s, r, GC_LOAD, addr, full, bytes, t, 0);
	gc_rec *o;
	if (R->emit_all) {
		o = out_slot(R);
		*o = *r;
		o->op = GC_LOAD;
		o->addr = addr;
		o->mask = R->inmap[full];
		o->size = (uint16_t)(bytes > 65535 ? 65535 : bytes);
		o->time = t;
		o->outcome = 0;
	} else {
		/* the record to_l2 just wrote: in the SM's own buffer when
		 * stepped ahead */
		o = R->ahead ? &s->a.rec[s->a.rn - 1] : &R->out[R->nout - 1];
	}
	o->flags = (uint8_t)((o->flags & ~GC_F_BYPASS_L1) | GC_F_PREFETCH);
	o->compute = 0;
}

int l1_pf_mshr(gc_l1 *R, struct sm *s, const gc_rec *r, uint64_t tag, uint64_t t)
{
	unsigned cost = R->mshr_sector ? popcount8(s->c.full_mask) : 1;
	if (s->mused + cost > R->mshr_entries || s->mfree == NONE32)
		return 0;
	l1_mshr_new(R, s, r, tag, s->c.full_mask, NONE32, t);
	return 1;
}

void l1_pf_access(gc_l1 *R, struct sm *s, const gc_rec *r, int miss, uint64_t t)
{
	l1_pf_access_k(R, s, r, miss, t, 0, 0);
}
