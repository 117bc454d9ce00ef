/*
 * prefetch.c - the prefetchers (prefetch.h): per-PC stride, the
 * many-thread aware prefetcher, stream and next-line.
 */
#include "model/prefetch.h"

#include <stdio.h>
#include <stdlib.h>

#define EMPTY UINT64_MAX

/* The many-thread aware prefetcher (Lee et al., MICRO 2010): a per-warp
 * stride becomes the PC's global stride once PROMOTE warps agree on it;
 * an inter-warp stride is trusted once IP_CONF successive warps confirm
 * it; the throttle looks at its feedback every PERIOD accesses. */
#define PROMOTE 3
#define IP_CONF 2
#define PERIOD 1024

void gc_pf_clear(gc_pf *p)
{
	struct gc_pf_entry *tabs[3] = {p->t, p->gs, p->ip};
	for (int k = 0; k < 3; k++)
		for (unsigned i = 0; tabs[k] && i < p->p.table; i++)
			tabs[k][i] = (struct gc_pf_entry){EMPTY, 0, 0, 0, 0, 0};
	p->clock = 0;
	p->level = p->p.degree;
	p->accesses = p->useful = p->useless = p->late = 0;
}

int gc_pf_init(gc_pf *p, const gc_pf_params *pp, char *why, size_t len)
{
	*p = (gc_pf){0};
	p->p = *pp;
	if (pp->degree < 1 || pp->degree > GC_PF_OUT_MAX || pp->table < 1 || pp->distance < 1 ||
	    pp->window < 1) {
		snprintf(why, len, "prefetcher: degree %u (1 to %d), table %u, distance %u and "
			 "window %u (at least 1)", pp->degree, GC_PF_OUT_MAX, pp->table,
			 pp->distance, pp->window);
		return -1;
	}
	if (pp->kind == GC_PF_NONE)
		return 0;
	p->t = calloc(pp->table, sizeof *p->t);
	if (pp->kind == GC_PF_MTA) {
		p->gs = calloc(pp->table, sizeof *p->gs);
		p->ip = calloc(pp->table, sizeof *p->ip);
	}
	if (!p->t || (pp->kind == GC_PF_MTA && (!p->gs || !p->ip))) {
		gc_pf_free(p);
		snprintf(why, len, "out of memory for a prefetcher of %u entries", pp->table);
		return -1;
	}
	p->last_pc = 0;
	p->last_e = &p->t[gc_pf_slot(0, pp->table)];
	gc_pf_clear(p);
	return 0;
}

void gc_pf_free(gc_pf *p)
{
	free(p->t);
	free(p->gs);
	free(p->ip);
	p->t = p->gs = p->ip = NULL;
}

/* The throttle of the many-thread aware prefetcher: prefetches evicted
 * unused are its sign of harm.  Over a period, more than half of the
 * prefetches that ended evicted unused lowers the degree in force by
 * one (to 0: none), less than a quarter raises it (to the degree). */
static void throttle(gc_pf *p)
{
	if (++p->accesses < PERIOD)
		return;
	uint64_t ended = p->useful + p->late + p->useless;
	if (ended && 2 * p->useless > ended) {
		if (p->level)
			p->level--;
	} else if (4 * p->useless < ended || !ended) {
		if (p->level < p->p.degree)
			p->level++;
	}
	p->accesses = p->useful = p->useless = p->late = 0;
}

static unsigned mta_access(gc_pf *p, uint32_t pc, uint32_t warp, uint64_t line,
			   uint64_t *out)
{
	unsigned n = p->p.table;
	uint64_t wkey = (uint64_t)pc << 32 | warp;
	struct gc_pf_entry *w = &p->t[gc_pf_slot(wkey, n)];
	struct gc_pf_entry *g = &p->gs[gc_pf_slot(pc, n)];
	struct gc_pf_entry *ip = &p->ip[gc_pf_slot(pc, n)];
	throttle(p);

	/* Intra-warp: the warp's own stride at this PC; its first
	 * confirmation is a vote for the PC's global stride. */
	if (gc_pf_train(w, wkey, line) && w->conf == 1 && w->stride) {
		if (g->key == pc && g->stride == w->stride) {
			if (g->aux < UINT32_MAX)
				g->aux++;
		} else {
			*g = (struct gc_pf_entry){pc, 0, w->stride, 0, 1, 0};
		}
		if (g->aux >= PROMOTE)
			g->conf = 1;
	}

	/* Inter-warp: the stride between the lines of successive warps at
	 * this PC, per warp of distance (the first request of each warp). */
	if (ip->key != pc) {
		*ip = (struct gc_pf_entry){pc, line, 0, 0, warp, 0};
	} else if (ip->aux != warp) {
		int64_t dw = (int64_t)warp - (int64_t)ip->aux;
		int64_t d = (int64_t)(line - ip->last);
		if (d % dw == 0 && d / dw == ip->stride && ip->stride) {
			if (ip->conf < UINT32_MAX)
				ip->conf++;
		} else {
			ip->stride = d % dw == 0 ? d / dw : 0;
			ip->conf = 0;
		}
		ip->last = line;
		ip->aux = warp;
	}

	unsigned deg = p->level;
	if (!deg)
		return 0;
	/* The promoted stride first (no training for a new warp), then the
	 * warp's own, then the inter-warp one (for the warps that follow). */
	if (g->key == pc && g->conf)
		return gc_pf_ahead(p, line, g->stride, deg, out);
	if (w->key == wkey && w->conf && w->stride)
		return gc_pf_ahead(p, line, w->stride, deg, out);
	if (ip->key == pc && ip->conf >= IP_CONF && ip->aux == warp && ip->last == line)
		return gc_pf_ahead(p, line, ip->stride, deg, out);
	return 0;
}

/* The stream prefetcher: a miss no stream claims starts one (its
 * direction unknown); a later miss within `window` lines of it sets the
 * direction; from then on a miss or prefetched-line hit inside the
 * stream's window moves it there and prefetches up to `degree` lines
 * beyond what it has prefetched, never more than `window` lines ahead of
 * that access. */
static unsigned stream_access(gc_pf *p, uint64_t line, uint64_t *out)
{
	int64_t win = (int64_t)p->p.window;
	struct gc_pf_entry *e = NULL, *lru = &p->t[0];
	for (unsigned i = 0; i < p->p.table; i++) {
		struct gc_pf_entry *x = &p->t[i];
		if (x->key == EMPTY) {
			if (lru->key != EMPTY)
				lru = x;
			continue;
		}
		if (lru->key != EMPTY && x->aux < lru->aux)
			lru = x;
		int64_t d = (int64_t)(line - x->last);
		if (x->stride == 0 ? (d != 0 && d >= -win && d <= win)
				   : (d * x->stride >= 0 && d * x->stride <= win)) {
			e = x;
			break;
		}
	}
	if (!e) {
		*lru = (struct gc_pf_entry){1, line, 0, 0, (uint32_t)++p->clock, 0};
		return 0;
	}
	e->aux = (uint32_t)++p->clock;
	if (e->stride == 0) {
		e->stride = line > e->last ? 1 : -1;
		e->next = line;
	}
	e->last = line;
	if ((int64_t)(e->next - line) * e->stride <= 0)
		e->next = line + (uint64_t)e->stride;
	unsigned k = 0;
	while (k < p->p.degree && (int64_t)(e->next - line) * e->stride <= win) {
		uint64_t l = e->next;
		if ((e->stride > 0 && l > p->p.max_line) || (e->stride < 0 && l > line))
			break;
		out[k++] = l;
		e->next += (uint64_t)e->stride;
	}
	return k;
}

unsigned gc_pf_access(gc_pf *p, uint32_t pc, uint32_t warp, uint64_t line, int trigger,
		      uint64_t out[GC_PF_OUT_MAX])
{
	switch (p->p.kind) {
	case GC_PF_STRIDE:
	{
		const struct gc_pf_entry *e = gc_pf_stride_train(p, pc, line);
		return e ? gc_pf_ahead(p, line, e->stride, p->p.degree, out) : 0;
	}
	case GC_PF_MTA:
		return mta_access(p, pc, warp, line, out);
	case GC_PF_STREAM:
		return trigger ? stream_access(p, line, out) : 0;
	case GC_PF_NEXTLINE: {
		unsigned k = 0;
		for (unsigned i = 1; trigger && i <= p->p.degree; i++)
			if (line + i > line && line + i <= p->p.max_line)
				out[k++] = line + i;
		return k;
	}
	}
	return 0;
}

double gc_pf_accuracy(const gc_pf_counts *c)
{
	return c->issued ? (double)(c->useful + c->late) / (double)c->issued : 0.0;
}

double gc_pf_coverage(const gc_pf_counts *c, uint64_t misses)
{
	uint64_t d = c->useful + misses;
	return d ? (double)(c->useful + c->late) / (double)d : 0.0;
}
