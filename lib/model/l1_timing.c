/*
 * l1_timing.c - the L1 engine's timing model (seed 000 §4.2-4.5): each SM
 * runs the warp queue over the records it reads (l1_input.c): the front
 * warp issues its next instruction, a hit costs the hit latency, a miss
 * lambda_min + |N(0, sigma^2)|, the line arrives when the miss returns, a
 * request to a line still in flight merges with it (a latency miss), and
 * an instruction that finds no free MSHR is cancelled and its warp sent to
 * the back of the queue.  SMs run in one global (time, SM) order, or
 * ahead of it where nothing can reach them, their output merged back
 * into that order (l1_ahead.c).
 */
#include "base/normal.h"
#include "base/rng.h"
#include "model/l1.h"
#include "model/l1_impl.h"

#include <stdlib.h>
#include <string.h>

/* A miss's latency: lambda_min + |N(0, sigma^2)| rounded to a cycle, the
 * normal drawn by Box-Muller from the SM's own generator (seed 000 §4.2;
 * base/normal.h). */
uint64_t l1_miss_latency(gc_l1 *R, struct sm *s)
{
	if (R->sigma <= 0)
		return R->lambda_min;
	double u1 = ((double)(gc_splitmix64(&s->rng) >> 11) + 1.0) / 9007199254740993.0;
	double u2 = (double)(gc_splitmix64(&s->rng) >> 11) / 9007199254740992.0;
	return R->lambda_min + gc_abs_normal_round(u1, u2, R->sigma);
}

/* ---- warp queues ------------------------------------------------------------ */

/* A full ring doubles. */
void l1_ring_grow(gc_l1 *R, struct ring *r)
{
	size_t cap = r->cap ? 2 * r->cap : 64;
	uint32_t *q = l1_alloc(R, NULL, cap * sizeof *q);
	for (size_t i = 0; i < r->n; i++)
		q[i] = r->q[(r->head + i) % r->cap];
	free(r->q);
	r->q = q;
	r->head = 0;
	r->cap = cap;
}

static uint32_t ring_pop(struct ring *r)
{
	uint32_t x = r->q[r->head];
	r->head = (r->head + 1) & (r->cap - 1);
	r->n--;
	return x;
}

/* A warp popped back to the front (the step stopped before it issued). */
static void ring_push_front(struct ring *r, uint32_t x)
{
	r->head = (r->head + r->cap - 1) & (r->cap - 1);
	r->q[r->head] = x;
	r->n++;
}

static uint32_t ring_pop_back(struct ring *r)
{
	r->n--;
	return r->q[(r->head + r->n) & (r->cap - 1)];
}

/* A warp joins the queue: the records of its next instruction, cold since
 * they were read ahead, are fetched into the CPU cache while the warps
 * before it issue. */
void l1_queue_warp(gc_l1 *R, struct sm *s, uint32_t widx)
{
	const char *in = (const char *)R->warps[widx].ihead;
	if (in) {
		/* the slot's first lines, without waiting to read its length */
		__builtin_prefetch(in);
		__builtin_prefetch(in + 64);
		__builtin_prefetch(in + 128);
		__builtin_prefetch(in + 192);
	}
	if (R->warps[widx].blocked_ver == s->ver)
		s->nblocked++;
	ring_push(R, &s->q, widx);
}

/* Block b gets a slot on its SM: its warps join the queue in warp order. */
void l1_block_start(gc_l1 *R, struct sm *s, uint32_t bidx)
{
	struct block *b = &R->blocks[bidx];
	b->resident = 1;
	s->resident++;
	s->inc_res += b->nwarps < R->wpb;
	if (!R->dfree)
		l1_sm_arrive(R, s);
	if (BLOCK_WL(R, b, 0)) {
		/* the warps are cold: fetched together, not one by one */
		for (unsigned i = 0; i < b->nwarps; i++)
			__builtin_prefetch(&R->warps[b->wl[i]], 1);
		for (unsigned i = 0; i < b->nwarps; i++) {
			R->warps[b->wl[i]].state = W_QUEUED;
			l1_queue_warp(R, s, b->wl[i]);
		}
	} else {
		for (uint32_t w = b->first; w != NONE32; w = R->warps[w].next) {
			R->warps[w].state = W_QUEUED;
			l1_queue_warp(R, s, w);
		}
	}
	if (!R->dfree)
		l1_sm_reschedule(R, s);
}

/* --dispatch free: whether block bidx's warps are all known: as many as
 * its kernel's threads per block make, or no new warp of it in the
 * window after its last one, or the kernel's input all read. */
static int block_known(const gc_l1 *R, uint32_t bidx)
{
	const struct block *b = &R->blocks[bidx];
	return R->kend || b->nwarps >= R->wpb || R->nread - b->last_new >= R->p.window;
}

/* --dispatch free: SM s's free slots take its queued blocks, in the
 * order they were read, each with all its warps.  1 when that cannot be
 * decided yet (a slot free, and no block queued or the first one's warps
 * not all known, while the kernel's input is not all read): the SM stops
 * for input. */
static int sm_fill(gc_l1 *R, struct sm *s)
{
	while (s->resident < R->active) {
		uint32_t b = s->pend_head;
		if (b == NONE32)
			return !R->kend;
		if (!block_known(R, b))
			return 1;
		s->pend_head = R->blocks[b].next_pending;
		if (s->pend_head == NONE32)
			s->pend_tail = NONE32;
		l1_block_start(R, s, b);
	}
	return 0;
}

/* ---- SMs in global time order ---------------------------------------------- */

static uint64_t sm_next_time(const struct sm *s)
{
	const gc_l1event *e = gc_l1wheel_top(&s->ev);
	if (s->spinning)
		return e->time;
	if (s->q.n || s->rq.n)
		return s->now;
	return e ? (e->time > s->now ? e->time : s->now) : UINT64_MAX;
}

/* Put s into the global SM heap when it has something to do.  Each entry
 * carries a token; an entry whose token is not the SM's latest is stale. */
static void sm_schedule(gc_l1 *R, struct sm *s)
{
	if (s->inheap || R->cur == s->id)
		return;
	if (!s->spinning && s->now < R->gnow)
		s->now = R->gnow;
	uint64_t t = sm_next_time(s);
	if (t == UINT64_MAX)
		return;
	s->inheap = 1;
	l1_oom(R, gc_l1queue_push(&R->smheap, t, s->id, s->id, ++s->hgen));
}

/* s's next time may have moved earlier: a fresh entry. */
void l1_sm_reschedule(gc_l1 *R, struct sm *s)
{
	s->inheap = 0;
	sm_schedule(R, s);
}

/*
 * The steps a spinning SM skipped, up to and including `upto`: in each,
 * the warps cancelled at the step before join the back of the queue and
 * the front warp is cancelled again (nothing it waits for has changed).
 * That rotates the queue (with the last cancelled warp) one place a step.
 */
static void sm_unspin(gc_l1 *R, struct sm *s, uint64_t upto)
{
	if (upto + 1 > s->spin_from) {
		uint64_t k = upto + 1 - s->spin_from;
		while (s->rq.n)
			ring_push(R, &s->q, ring_pop(&s->rq));
		for (uint64_t i = k % s->q.n; i > 0; i--)
			ring_push(R, &s->q, ring_pop(&s->q));
		ring_push(R, &s->rq, ring_pop_back(&s->q));
		s->n.stalls += k;
		s->n.op_sec[GC_LOAD][GC_L1_SEC_RES_FAILS] += k;
		s->order += k;
		s->now = upto + 1;
	}
	s->spinning = 0;
}

/* Warps arrive at s while another SM (R->cur) steps at R->gnow: a
 * spinning s catches up with the steps it took before that moment (at
 * gnow itself too when its number is lower: the heap steps it first). */
void l1_sm_arrive(gc_l1 *R, struct sm *s)
{
	if (!s->spinning)
		return;
	uint64_t upto = R->cur >= 0 && s->id < R->cur ? R->gnow : R->gnow - 1;
	sm_unspin(R, s, upto);
}

/* Every warp queued or just cancelled waits for a change (an MSHR freed,
 * a line filled). */
static int sm_all_blocked(const struct sm *s)
{
	return s->nblocked == s->q.n + s->rq.n;
}

/* ---- misses ------------------------------------------------------------------ */

/* A miss returns: the line is filled (a victim written back), the entry
 * freed. */
static inline __attribute__((always_inline)) void fill_k(gc_l1 *R, struct sm *s, uint32_t e,
							 uint64_t time, unsigned K)
{
	struct mshr *m = &s->m[e];
	uint64_t addr = m->tag << s->c.line_shift;
	unsigned set = set_k(&s->c, addr, K);
	gc_cline *hint = NULL;
	gc_cline *l = (K & L1_K_STEP) ? probe_k(s, addr, set, &hint, 4) : l1_probe(s, addr, set, &hint);
	if (!l) {
		/* a write-back's record: made only for one */
		l = (K & L1_K_LRU) ? hint : gc_cache_victim_hint(&s->c, set, hint);
		gc_rec src;
		if (l->tag != GC_CACHE_NO_TAG && l->dirty) {
			memset(&src, 0, sizeof src);
			src.sm = s->id;
			src.kernel = R->nks ? R->ks[R->nks - 1].id : 0;
			src.warp = m->warp_id;
			src.block = m->block_id;
			src.space = GC_GLOBAL;
		}
		uint8_t o = 0;
		take_way_k(R, s, &src, addr, l, time, &o, K);
	}
	l->valid |= m->mask;
	l->aux &= ~(uint32_t)m->mask;
	l->pf = m->prefetch;
	l1_touch(&s->c, l, K);
	if (CLASSIFIES(K, R))
		l1_fa_fill(s, addr, m->mask);
	note_change_k(s, m->tag, K);
	s->ver++;
	s->nblocked = 0;
	s->mused -= m->cost;
	s->nfull -= m->merged >= R->mshr_merge;
	/* only the per-warp limit reads it (a cold warp); a prefetch's entry
	 * is no warp's */
	if (R->mshr_per_warp && m->warp != NONE32)
		R->warps[m->warp].outstanding--;
	inflight_del(&s->inflight, m->tag);
	m->next_free = s->mfree;
	s->mfree = e;
}

static inline __attribute__((always_inline)) void apply_events_k(gc_l1 *R, struct sm *s, uint64_t t,
								  unsigned K)
{
	const gc_l1event *e;
	while ((e = gc_l1wheel_top(&s->ev)) && e->time <= t) {
		gc_l1event ev = *e;
		gc_l1wheel_pop(&s->ev);
		if (ev.kind == EV_FILL) {
			fill_k(R, s, ev.item, ev.time, K);
		} else {
			R->warps[ev.item].state = W_QUEUED;
			l1_queue_warp(R, s, ev.item);
		}
	}
}

static inline __attribute__((always_inline)) struct mshr *
mshr_new_k(gc_l1 *R, struct sm *s, const gc_rec *r, uint64_t tag, uint8_t mask, uint32_t widx,
	   uint64_t t, unsigned K)
{
	uint32_t e = s->mfree;
	struct mshr *x = &s->m[e];
	s->mfree = x->next_free;
	x->tag = tag;
	x->mask = mask;
	x->prefetch = widx == NONE32;
	x->merged = widx != NONE32;
	s->nfull += x->merged >= R->mshr_merge;
	x->warp = widx;
	x->warp_id = r->warp;
	x->block_id = r->block;
	x->cost = R->mshr_sector ? popcount8(mask) : 1;
	x->ret = t + l1_miss_latency(R, s);
	s->mused += x->cost;
	if (R->mshr_per_warp && widx != NONE32)
		R->warps[widx].outstanding++;
	inflight_add(&s->inflight, tag, e);
	note_change_k(s, tag, K);
	l1_oom(R, gc_l1wheel_push(&s->ev, x->ret, ++s->order, e, EV_FILL));
	return x;
}

struct mshr *l1_mshr_new(gc_l1 *R, struct sm *s, const gc_rec *r, uint64_t tag, uint8_t mask,
			 uint32_t widx, uint64_t t)
{
	return mshr_new_k(R, s, r, tag, mask, widx, t, 0);
}

/* The line at addr in s's L1, or NULL (K: see l1_impl.h). */
static inline __attribute__((always_inline)) gc_cline *find_k(struct sm *s, uint64_t addr, unsigned K)
{
	if (K & L1_K_STEP) {
		gc_cline *ways = s->c.lines + (size_t)set_k(&s->c, addr, K) * 4;
		unsigned f = gc_cache_scan_tags(ways, gc_cache_tag(&s->c, addr), 4);
		return f ? &ways[f - 1] : NULL;
	}
	unsigned set;
	return l1_find(s, addr, &set);
}

/* A load issued at time t: a hit, a merge into an in-flight miss (latency
 * class) or a new miss.  Returns the outcome; *effect is when its data
 * is there. */
static inline __attribute__((always_inline)) uint8_t
load_timed_k(gc_l1 *R, struct sm *s, const gc_rec *r, uint8_t m, uint64_t t, struct warp *w,
	     uint32_t widx, uint64_t *effect, unsigned K)
{
	uint64_t addr = r->addr & ~(uint64_t)(R->line - 1);
	uint64_t tag = gc_cache_tag(&s->c, addr);
	gc_cline *l = find_k(s, addr, K);
	if (load_hit_k(R, s, l, addr, m, K)) {
		*effect = t + R->hit_lat;
		return GC_OUT_MAKE(GC_R_HIT, GC_C_NONE);
	}
	uint8_t missing = l ? m & ~l->valid : m;
	int result = l ? GC_R_SECTOR_MISS : GC_R_MISS;
	struct mshr *x = inflight_get(s, tag);
	int cls;
	if (x) {
		/* The clipping of seed 000 §4.2: the request takes effect with
		 * the miss already in flight; sectors that miss does not fetch
		 * are added to it. */
		uint8_t extra = missing & ~x->mask;
		s->nfull += ++x->merged == R->mshr_merge;
		if (!NO_PF(K) && x->prefetch)
			l1_pf_late(s, x);
		/* its sectors in flight are merged; with the line reserved by
		 * the miss in flight, no line miss */
		if (COUNTED(K)) {
			s->n.op_sec[GC_LOAD][GC_L1_SEC_MERGED] += popcount8(missing & x->mask);
			if (!l)
				s->n.op_sec[GC_LOAD][GC_L1_SEC_LINE_MISSES]--;
		}
		note_change_k(s, tag, K);
		if (extra) {
			to_l2_k(R, s, r, GC_LOAD, addr, extra, sector_bytes(R, extra), t, 0, K);
			x->mask |= extra;
			if (R->mshr_sector) {
				x->cost += popcount8(extra);
				s->mused += popcount8(extra);
			}
		}
		if (CLASSIFIES(K, R)) {
			l1_seen(R, s, tag, m);
			l1_fa_load(s, addr, m, 0); /* a miss there fills with this one */
		}
		cls = GC_C_LATENCY;
		*effect = x->ret;
	} else {
		if (CLASSIFIES(K, R)) {
			cls = l1_classify(R, s, tag, m, missing,
					  l ? (uint8_t)(l->aux & missing) : 0,
					  l1_fa_load(s, addr, m, 0));
			if (w->stalled)
				cls = GC_C_MSHR;
		} else {
			cls = w->stalled ? GC_C_MSHR : GC_C_NONE;
		}
		x = mshr_new_k(R, s, r, tag, missing, widx, t, K);
		to_l2_k(R, s, r, GC_LOAD, addr, missing, sector_bytes(R, missing), t, 0, K);
		*effect = x->ret;
	}
	if (COUNTED(K))
		count_miss(s, result, cls);
	return GC_OUT_MAKE(result, cls);
}

/* ---- issuing ------------------------------------------------------------------ */

/* What request r needs from the MSHRs now, into x: a load looked up in
 * L1 (sectors m) needs x->cost entries (sectors for sector MSHRs),
 * x->alloc new entries of the warp's own (0 or 1), and x->ok unset when
 * it merges into an in-flight entry that has no room. */
static inline __attribute__((always_inline)) void dry_need_k(gc_l1 *R, struct sm *s, const gc_rec *r,
							     struct dryrec *x, unsigned K)
{
	x->cost = x->alloc = 0;
	x->ok = 1;
	if (r->op != GC_LOAD || passes_by(R, r)) {
		x->bucket = VNEVER;
		return;
	}
	x->bucket = vbucket(r->addr >> s->c.line_shift);
	uint64_t addr = r->addr & ~(uint64_t)(R->line - 1);
	uint8_t m = R->maskmap[r->mask];
	gc_cline *l = find_k(s, addr, K);
	uint8_t missing = l ? m & ~l->valid : m;
	if (!missing)
		return;
	const struct mshr *e = inflight_get(s, gc_cache_tag(&s->c, addr));
	if (e) {
		x->cost = (uint8_t)(R->mshr_sector ? popcount8(missing & ~e->mask) : 0);
		x->ok = e->merged < R->mshr_merge;
		return;
	}
	x->cost = (uint8_t)(R->mshr_sector ? popcount8(missing) : 1);
	x->alloc = 1;
}

/* The needs of the k requests recs, all worked out, into d. */
static inline __attribute__((always_inline)) void dry_all_k(gc_l1 *R, struct sm *s, const gc_rec *recs,
							    unsigned k, struct dryset *d, unsigned K)
{
	uint32_t cost = 0, mine = 0, bad = 0;
	for (unsigned i = 0; i < k; i++) {
		struct dryrec *x = &d->rec[i];
		dry_need_k(R, s, &recs[i], x, K);
		cost += x->cost;
		mine += x->alloc;
		bad += !x->ok;
	}
	d->at = s->chg;
	d->cost = cost;
	d->mine = mine;
	d->bad = bad;
}

/* The needs d kept for recs brought up to date: those whose line changed
 * since are worked out again, the sums mended. */
static inline __attribute__((always_inline)) void dry_renew_k(gc_l1 *R, struct sm *s, const gc_rec *recs,
							      unsigned k, struct dryset *d, unsigned K)
{
	if (d->at == s->chg)
		return; /* no line has changed */
	const uint64_t *vtab = s->vtab;
	uint64_t at = d->at;
	for (unsigned i = 0; i < k; i++) {
		struct dryrec *x = &d->rec[i];
		if (vtab[x->bucket] <= at)
			continue;
		d->cost -= x->cost;
		d->mine -= x->alloc;
		d->bad -= !x->ok;
		dry_need_k(R, s, &recs[i], x, K);
		d->cost += x->cost;
		d->mine += x->alloc;
		d->bad += !x->ok;
	}
	d->at = s->chg;
}

/* Whether an instruction of k requests recs fits the MSHRs whatever its
 * lines' state: no entry in flight is out of room to merge into, and the
 * most its requests could take fits (every one a new miss of its whole
 * mask; no more than k of the warp's own).  Then no dry run is needed. */
static int surely_fits(const gc_l1 *R, const struct sm *s, const struct warp *w, const gc_rec *recs,
		       unsigned k)
{
	if (s->nfull || (R->mshr_per_warp && w->outstanding + k > R->mshr_per_warp))
		return 0;
	unsigned most = k;
	if (R->mshr_sector) {
		most = 0;
		for (unsigned i = 0; i < k; i++)
			most += popcount8(R->maskmap[recs[i].mask]);
	}
	return s->mused + most <= R->mshr_entries;
}

/* A needs array for an instruction of k requests, and back. */
static struct dryset *dry_get(gc_l1 *R, unsigned k)
{
	int c = k > DRY_SMALL;
	struct dryset *p = R->dryfree[c];
	if (p) {
		void *next; /* a free block holds the next one's address */
		memcpy(&next, p, sizeof next);
		R->dryfree[c] = next;
		return p;
	}
	return l1_alloc(R, NULL, sizeof *p + (c ? INST_MAX : DRY_SMALL) * sizeof p->rec[0]);
}

static void dry_put(gc_l1 *R, struct dryset *p, unsigned k)
{
	int c = k > DRY_SMALL;
	void *next = R->dryfree[c];
	memcpy(p, &next, sizeof next);
	R->dryfree[c] = p;
}

static inline __attribute__((always_inline)) void warp_wait(gc_l1 *R, struct sm *s, struct warp *w,
							    uint32_t widx, uint64_t ready)
{
	w->state = W_WAITING;
	l1_oom(R, gc_l1wheel_push(&s->ev, ready, ++s->order, widx, EV_WAKE));
}

/* Warp w is cancelled for want of MSHRs: to the back of the queue, behind
 * the warps that become ready by the next step.  One failed attempt of
 * the load that did not fit (a reservation fail). */
static void cancel(gc_l1 *R, struct sm *s, struct warp *w, uint32_t widx)
{
	s->n.stalls++;
	s->n.op_sec[GC_LOAD][GC_L1_SEC_RES_FAILS]++;
	s->order++;
	w->state = W_WAITING;
	ring_push(R, &s->rq, widx);
	s->nblocked++;
}

/* The dry run of warp w's instruction of *kp requests recs: 1 when it
 * issues, *kp then the part that fits now; 0 when it is cancelled.  A
 * warp that waited keeps what its requests need (struct dryset).  The
 * requests fit in order while each can merge and the entries they take
 * so far fit; costs are never negative, so all fit exactly when the
 * sums do. */
static inline __attribute__((always_inline)) int dry_run_k(gc_l1 *R, struct sm *s, struct warp *w,
							    uint32_t widx, const gc_rec *recs,
							    unsigned *kp, unsigned K)
{
	unsigned k = *kp;
	struct dryset *d = w->dry;
	if (!d) {
		d = dry_get(R, k);
		dry_all_k(R, s, recs, k, d, K);
	} else if (R->p.look_all) {
		dry_all_k(R, s, recs, k, d, K);
	} else {
		dry_renew_k(R, s, recs, k, d, K);
	}
	unsigned per_warp = R->mshr_per_warp;
	if (d->bad || s->mused + d->cost > R->mshr_entries ||
	    (per_warp && w->outstanding + d->mine > per_warp)) {
		/* An instruction that could never fit at once issues the part
		 * that fits now; any other is cancelled and waits whole. */
		int never = d->cost > R->mshr_entries || (per_warp && d->mine > per_warp);
		unsigned fit = 0;
		if (never) {
			unsigned used = 0, mine = 0;
			for (; fit < k; fit++) {
				const struct dryrec *x = &d->rec[fit];
				if (!x->ok || s->mused + used + x->cost > R->mshr_entries ||
				    (per_warp && w->outstanding + mine + x->alloc > per_warp))
					break;
				used += x->cost;
				mine += x->alloc;
			}
		}
		if (!never || fit == 0) {
			w->stalled = 1;
			w->blocked_ver = s->ver;
			cancel(R, s, w, widx);
			w->dry = d;
			return 0;
		}
		*kp = fit;
	}
	dry_put(R, d, k);
	w->dry = NULL;
	return 1;
}

enum { I_ENDED, I_ISSUED, I_CANCELLED, I_INPUT };

/* The front warp issues its next instruction at time t, or has it
 * cancelled for want of MSHRs (seed 000 §4.4): I_ISSUED, I_CANCELLED, or
 * I_ENDED when the warp has nothing left to issue.  An SM stepped ahead
 * reads nothing: I_INPUT when the instruction needs input, before any
 * change. */
static inline __attribute__((always_inline)) int issue_k(gc_l1 *R, struct sm *s, uint32_t widx,
							 uint64_t t, unsigned K)
{
	struct warp *w = &R->warps[widx];
	if (w->stalled && w->blocked_ver == s->ver) {
		/* nothing it waits for has changed: cancelled again */
		cancel(R, s, w, widx);
		return I_CANCELLED;
	}
	int complete;
	unsigned k = warp_inst(R, widx, &complete);
	if (!complete && !R->kend && ((K & L1_K_STEP) || R->dfree)) {
		/* the warp's end is the input's to say: no record of it in
		 * the window after its last */
		if (!k && R->nread - w->last_read >= R->p.window)
			return I_ENDED;
		return I_INPUT;
	}
	if (!complete && !R->kend && R->ahead)
		return I_INPUT;
	if (!complete && !R->kend) {
		/* Read on until the instruction is whole, or the warp is taken
		 * to have ended: no request of it in the next window records. */
		k = l1_read_inst(R, widx, &complete);
		w = &R->warps[widx];
	}
	if (!k)
		return I_ENDED;

	/* The dry run: do the MSHRs take the whole instruction?  Not
	 * needed when they surely do. */
	const struct islot *in = w->ihead;
	const gc_rec *recs = in->rec + in->off;
	unsigned n = k;
	/* the rest of its records (a line each), cold, together */
	for (unsigned i = 2; i <= k; i++)
		__builtin_prefetch(&recs[i]);
	if ((w->dry || !surely_fits(R, s, w, recs, k)) && !dry_run_k(R, s, w, widx, recs, &k, K))
		return I_CANCELLED;

	uint64_t ready = t;
	for (unsigned i = 0; i < k; i++) {
		const gc_rec *r = &recs[i];
		uint8_t m = R->maskmap[r->mask];
		uint8_t outcome;
		uint64_t effect = t + R->hit_lat;
		if (COUNTED(K))
			count_request(s, r);
		if (bypass_k(R, s, r, t, &outcome, K)) {
			if (r->op != GC_STORE && r->space != GC_SHARED)
				effect = t + l1_miss_latency(R, s);
		} else if (r->op == GC_LOAD) {
			outcome = load_timed_k(R, s, r, m, t, w, widx, &effect, K);
			if (!NO_PF(K) && R->pf_on) {
				R->pf_trig[R->pf_ntrig] = (uint16_t)i;
				R->pf_miss[R->pf_ntrig++] = (uint8_t)is_miss(outcome);
			}
		} else {
			outcome = (K & L1_K_STEP) ? store_k(R, s, r, m, t, K, 4) : l1_store(R, s, r, m, t);
		}
		if (effect > ready)
			ready = effect;
		if (CLASSIFIES(K, R)) {
			if (R->par)
				l1_pc_defer(R, s, r->pc, outcome);
			else
				l1_count_pc(R, r->pc, outcome);
		}
		if (EMITS_ALL(K, R)) {
			gc_rec *o = out_slot(R);
			*o = *r;
			o->outcome = outcome;
			o->time = t;
		}
	}
	/* The instruction's loads train the prefetcher once it has issued
	 * whole: its prefetches take only the MSHRs it left. */
	if (!NO_PF(K)) {
		for (unsigned i = 0; i < R->pf_ntrig; i++)
			l1_pf_access(R, s, &recs[R->pf_trig[i]], R->pf_miss[i], t);
		R->pf_ntrig = 0;
	}
	l1_warp_pop(R, widx, k);
	if (w->ihead) {
		/* the warp's next records, cold since they were read: towards
		 * the CPU while it waits */
		const char *nx = (const char *)w->ihead;
		__builtin_prefetch(nx, 0, 2);
		__builtin_prefetch(nx + 64, 0, 2);
	}
	if ((K & L1_K_STEP) && R->astep_open) { /* l1_ahead_issued, its entry open */
		s->a.st[s->a.sn - 1].issued += k;
		R->buffered += k;
	} else if ((K & L1_K_STEP) || R->ahead) {
		l1_ahead_issued(R, k);
	}
	/* The rest of a split instruction keeps its stall. */
	w->stalled = k < n;
	if (ready > R->cycles)
		R->cycles = ready;
	s->ver++;
	s->nblocked = 0;
	warp_wait(R, s, w, widx, ready);
	return I_ISSUED;
}

/* One step of SM s at time t: the effects due, then one issue.  1 when
 * it stopped for input (stepped ahead): the front warp is back in front,
 * and the step goes on from there when taken again at t. */
static inline __attribute__((always_inline)) int sm_step_k(gc_l1 *R, struct sm *s, uint64_t t,
							   unsigned K)
{
	s->now = t;
	apply_events_k(R, s, t, K);
	while (s->rq.n) {
		uint32_t w = ring_pop(&s->rq);
		R->warps[w].state = W_QUEUED;
		ring_push(R, &s->q, w);
	}
	if (((K & L1_K_STEP) || R->dfree) && sm_fill(R, s))
		return 1;
	while (s->q.n) {
		uint32_t widx = ring_pop(&s->q);
		if (s->q.n) {
			/* the next warp's records, while this one issues */
			const char *nx = (const char *)R->warps[s->q.q[s->q.head]].ihead;
			if (nx) {
				__builtin_prefetch(nx);
				__builtin_prefetch(nx + 64);
			}
		}
		int blocked = R->warps[widx].blocked_ver == s->ver;
		s->nblocked -= blocked;
		int rc = issue_k(R, s, widx, t, K);
		if (rc == I_INPUT) {
			ring_push_front(&s->q, widx);
			s->nblocked += blocked;
			return 1;
		}
		if (rc == I_ENDED) {
			l1_warp_done(R, s, widx);
			if (((K & L1_K_STEP) || R->dfree) && sm_fill(R, s))
				return 1;
			continue;
		}
		s->now = t + 1;
		/* When every warp waits for the next event, the steps until
		 * then only cancel: skip them (sm_unspin counts them). */
		const gc_l1event *e = gc_l1wheel_top(&s->ev);
		if (rc == I_CANCELLED && !R->p.step_all && e && e->time > t + 1 &&
		    sm_all_blocked(s)) {
			s->spinning = 1;
			s->spin_from = t + 1;
		}
		return 0;
	}
	return 0;
}

/* The step's instance for the common configuration (R->kstep: see
 * l1_timing_kernel), else the one that tests everything. */
static int sm_step(gc_l1 *R, struct sm *s, uint64_t t)
{
	if (R->kstep)
		return sm_step_k(R, s, t, L1_K_STEP | L1_K_LRU | L1_K_UNCOUNTED);
	return sm_step_k(R, s, t, 0);
}

/* ---- kernels -------------------------------------------------------------------- */

/* How far (cycles) an SM may be stepped ahead of the earliest one: what
 * bounds the output it keeps (on a gather of 8.9 M requests 256 to 16384
 * took the same time within 5%, the memory growing from 119 to 201 MB). */
#define AHEAD_SPAN 1024

/*
 * Whether SM s may be stepped ahead of the global (time, SM) order.  Steps
 * of different SMs touch each other only through the input: a record read
 * (in some SM's step) may bring s a warp or a block, which takes effect at
 * once when the block is running (a new warp of it) or a block slot is
 * free (a new block starts).  A new block queued behind a waiting one, or
 * a new warp of a waiting block, changes nothing before a block ends, and
 * a block ends only at a step in the global order: a warp ends when its
 * input says so, and a step ahead reads nothing (it stops where it needs
 * input).  So s may run ahead while all its slots hold blocks that have
 * all their warps (the kernel's threads per block say how many), or once
 * the kernel's input has all been read.
 */
static int sm_exposed(const gc_l1 *R, const struct sm *s)
{
	return !R->kend && (s->resident < R->active || s->inc_res);
}

/* --dispatch free: SM s's next step: at `now` when its step there stopped
 * for input or it has a free slot that its queued blocks may fill (at
 * the kernel's start), else its warps' and events' time. */
static uint64_t free_next_time(const gc_l1 *R, const struct sm *s)
{
	if (s->stopped || (s->resident < R->active && (s->pend_head != NONE32 || !R->kend)))
		return s->now;
	return sm_next_time(s);
}

/* SM s's step at time t on W (R->cur set), apart from the global order:
 * 1 when it stopped for input. */
static int step_at(gc_l1 *W, struct sm *s, uint64_t t)
{
	if (s->spinning)
		sm_unspin(W, s, t - 1);
	W->gnow = t;
	if (t > W->tmax)
		W->tmax = t;
	W->astep_open = 0;
	s->pstep = 1;
	return sm_step(W, s, t);
}

/* --dispatch free: SM s's step at time t, on W; 1 when it stopped for
 * input (s->stopped). */
static int free_step(gc_l1 *W, struct sm *s, uint64_t t)
{
	W->cur = s->id;
	s->stopped = step_at(W, s, t);
	W->cur = -1;
	return s->stopped;
}

/* --dispatch free: SM s's steps up to time `limit`, on W, until one stops
 * for input.  Nothing outside s, its warps and blocks and W changes. */
static void step_free(gc_l1 *W, struct sm *s, uint64_t limit)
{
	s->pstep = 0;
	for (uint64_t t = free_next_time(W, s); t <= limit && t != UINT64_MAX;
	     t = free_next_time(W, s))
		if (free_step(W, s, t))
			break;
}

/* The steps of SM s that a parallel phase takes: those of l1_timing_kernel's
 * run ahead, on W, a thread's copy of the engine (--dispatch free: up to
 * time `base` itself, see l1_free_kernel). */
void l1_step_ahead(gc_l1 *W, struct sm *s, uint64_t base)
{
	if (W->dfree) {
		step_free(W, s, base);
		return;
	}
	W->cur = s->id;
	s->pstep = 0;
	for (uint64_t t = sm_next_time(s); t != UINT64_MAX && t - base <= AHEAD_SPAN;
	     t = sm_next_time(s)) {
		s->ahead_t = t + 1;
		if (step_at(W, s, t))
			break;
	}
	W->cur = -1;
}

/* The cycles the earliest SM moves on between parallel phases, each of
 * which steps every SM that may be ahead up to AHEAD_SPAN past it (on the
 * bench's gather 16 left the phases 18% of the steps, 64 14%, 256 12%;
 * the main thread's runs ahead after its reads take the rest). */
#define PHASE_GAP 16

/*
 * --threads: a parallel phase, when the earliest SM has moved PHASE_GAP
 * on since the last one.  The SMs that may be stepped ahead (sm_exposed)
 * and whose next step is after the last one in the global order are
 * stepped ahead by the pool's threads, each SM by one thread; no record
 * is read and no SM is stepped in the global order meanwhile, so the
 * threads share nothing they write (l1_ahead.c merges what they leave).
 */
static void parallel_phase(gc_l1 *R)
{
	const gc_l1event *top;
	while ((top = gc_l1queue_top(&R->smheap)) && top->kind != R->sms[top->item]->hgen)
		gc_l1queue_pop(&R->smheap); /* superseded entries */
	if (!top || (R->phase_t != UINT64_MAX && top->time < R->phase_t + PHASE_GAP))
		return;
	uint64_t base = top->time;
	R->phase_t = base;
	unsigned n = 0;
	for (unsigned i = 0; i < R->nsms; i++) {
		struct sm *s = R->sms[R->smlist[i]];
		uint64_t t = sm_next_time(s);
		if (t == UINT64_MAX || t - base > AHEAD_SPAN || sm_exposed(R, s) ||
		    t < R->io_t || (t == R->io_t && (int)s->id <= R->io_id))
			continue;
		R->todo[n++] = s->id;
	}
	if (n)
		l1_pool_run(R, R->todo, n, base, 0);
}

/* --dispatch free: records read at a time, when the earliest SM waits
 * for input. */
#define FREE_READ 262144

/* --dispatch free: the earliest next step of any SM (UINT64_MAX: none);
 * *stopped set when one of the SMs there stopped for input. */
static uint64_t free_frontier(const gc_l1 *R, int *stopped)
{
	uint64_t f = UINT64_MAX;
	int st = 0;
	for (unsigned i = 0; i < R->nsms; i++) {
		const struct sm *s = R->sms[R->smlist[i]];
		uint64_t t = free_next_time(R, s);
		if (t < f) {
			f = t;
			st = s->stopped;
		} else if (t == f) {
			st |= s->stopped;
		}
	}
	*stopped = st;
	return f;
}

/*
 * --dispatch free: one kernel, its SMs apart.  A block starts when its SM
 * has a free slot, in the SM's own time, with all its warps, and an SM
 * stops for input (a step that goes on from where it stopped) where the
 * input read so far cannot say what comes next: so an SM's steps depend
 * on the input alone, never on when it was read or on other SMs.  The
 * kernel runs in rounds: each steps every SM up to AHEAD_SPAN cycles past
 * the earliest one, SM after SM in the pool's threads (GC_L1_IN_ORDER:
 * one step at a time in (time, SM) order, in the main thread), while the
 * main thread reads FREE_READ records first (GC_L1_FREE_READ: a check;
 * when an SM at the earliest time waits for input, or fewer than
 * 2 x --window + FREE_READ are buffered); the steps
 * see only what was read before the round (l1_free_publish joins the
 * rest after it).  Between rounds the output before the earliest SM's
 * time goes out, merged by (time, SM) (l1_ahead.c).  The rounds, the
 * reads and so every count are the same for any number of threads.
 */
static void l1_free_kernel(gc_l1 *R)
{
	unsigned chunk = R->p.free_read ? R->p.free_read : FREE_READ;
	uint64_t cap = 2 * R->p.window + chunk;
	for (unsigned i = 0; i < R->nsms; i++)
		R->sms[R->smlist[i]]->stopped = 0;
	for (;;) {
		int stopped;
		uint64_t f = free_frontier(R, &stopped);
		if (f == UINT64_MAX && R->kend)
			break;
		unsigned nread = 0;
		if (!R->kend && (f == UINT64_MAX || stopped || R->buffered < cap)) {
			nread = chunk;
			l1_free_reserve(R, nread);
		}
		uint64_t limit = f + AHEAD_SPAN < f ? UINT64_MAX - 1 : f + AHEAD_SPAN;
		unsigned n = 0;
		for (unsigned i = 0; i < R->nsms && f != UINT64_MAX; i++) {
			struct sm *s = R->sms[R->smlist[i]];
			if (free_next_time(R, s) <= limit)
				R->todo[n++] = s->id;
		}
		l1_pool_run(R, R->todo, n, limit, nread);
		l1_free_publish(R);
		/* What is before every SM's next step goes out: an SM not
		 * seen yet would start at the kernel's start, so while the
		 * GPU may have one and the input is not all read, nothing. */
		f = free_frontier(R, &stopped);
		if (!R->kend && R->nsms < R->gpu.sm.count)
			f = R->tbase;
		if (f == UINT64_MAX)
			l1_ahead_flush(R, UINT64_MAX, 0);
		else if (f > R->tbase)
			l1_ahead_defer(R, f - 1);
		if (f != UINT64_MAX && f > R->free_out)
			R->free_out = f;
	}
	l1_pool_drain(R);
}

void l1_step_in_order(gc_l1 *W, const uint16_t *todo, unsigned n, uint64_t limit)
{
	for (unsigned i = 0; i < n; i++)
		W->sms[todo[i]]->pstep = 0;
	for (;;) {
		struct sm *s = NULL;
		uint64_t t = UINT64_MAX;
		for (unsigned i = 0; i < n; i++) {
			struct sm *x = W->sms[todo[i]];
			uint64_t u = x->pstep == 2 ? UINT64_MAX : free_next_time(W, x);
			if (u <= limit && (u < t || (u == t && x->id < s->id))) {
				s = x;
				t = u;
			}
		}
		if (!s)
			return;
		if (free_step(W, s, t))
			s->pstep = 2; /* not again in this round */
	}
}

/* Run one kernel to the end of its input and of its last miss.  SMs are
 * stepped in one global (time, SM) order, each as long as it is the
 * earliest and then, where nothing can reach it (sm_exposed), ahead alone
 * until it needs input or is AHEAD_SPAN past the earliest: its state stays
 * in the CPU's caches.  What the steps ahead emit is merged back into the
 * global order (l1_ahead.c), so the results are the global order's. */
void l1_timing_kernel(gc_l1 *R)
{
	l1_input_reset(R);
	R->gnow = R->tmax = R->tbase;
	for (unsigned i = 0; i < R->nsms; i++) {
		struct sm *s = R->sms[R->smlist[i]];
		s->now = R->tbase;
		s->resident = s->inc_res = 0;
		s->ahead_t = 0;
		s->pend_head = s->pend_tail = NONE32;
	}
	R->io_t = R->tbase;
	R->io_id = -1;
	R->phase_t = UINT64_MAX;
	int threaded = R->p.threads > 1 && !R->p.in_order;
	if ((threaded || R->dfree) && !R->todo)
		R->todo = l1_alloc(R, NULL, 65536 * sizeof *R->todo);
	R->free_out = R->tbase;
	/* The steps' instance with the configuration's tests made constants
	 * (L1_K_STEP): --dispatch free (every step on a thread's copy, its
	 * output to the SM's buffer), no classification, prefetcher or
	 * --emit all, nothing that reads the counts (gc_l1_params.uncounted:
	 * none kept), and the L1 of l1.c's l1_fast_geom: 4 ways, LRU,
	 * linearly indexed over a power-of-two set count. */
	R->kstep = !R->p.generic && R->dfree && !R->classify && !R->pf_on && !R->emit_all &&
		   R->p.uncounted &&
		   R->ways == 4 &&
		   R->geom.repl == GC_REPL_LRU && R->geom.index == GC_INDEX_LINEAR &&
		   (R->sets & (R->sets - 1)) == 0;
	if (R->dfree)
		l1_free_kernel(R);
	/* Look ahead so that every SM's first blocks are known at time 0. */
	while (!R->dfree && !R->kend && R->nread < R->p.window)
		l1_read_one(R);
	for (; !R->dfree;) {
		if (threaded)
			parallel_phase(R);
		const gc_l1event *top = gc_l1queue_top(&R->smheap);
		if (!top) {
			if (R->kend)
				break;
			l1_ahead_flush(R, UINT64_MAX, 0);
			R->gnow = R->tmax;
			l1_read_one(R);
			continue;
		}
		uint64_t t = top->time;
		uint16_t id = (uint16_t)top->item;
		uint32_t token = top->kind;
		gc_l1queue_pop(&R->smheap);
		struct sm *s = R->sms[id];
		if (token != s->hgen)
			continue; /* superseded by a later entry */
		s->inheap = 0;
		if (s->spinning)
			sm_unspin(R, s, t - 1);
		if (sm_next_time(s) != t) {
			sm_schedule(R, s);
			continue;
		}
		/* Step s as long as it stays the earliest SM (ties go to the
		 * lower SM number, as in the heap), then ahead if it may. */
		R->cur = s->id;
		for (;;) {
			top = gc_l1queue_top(&R->smheap);
			int ahead = top && (top->time < t || (top->time == t && top->order < s->id));
			if (ahead && (R->p.in_order || t - top->time > AHEAD_SPAN || sm_exposed(R, s)))
				break;
			if (s->spinning)
				sm_unspin(R, s, t - 1);
			R->gnow = t;
			if (t > R->tmax)
				R->tmax = t;
			int input = 0;
			if (ahead) {
				R->ahead = 1;
				R->astep_open = 0;
				s->ahead_t = t + 1;
				input = sm_step(R, s, t);
				R->ahead = 0;
			} else {
				l1_ahead_flush(R, t, s->id);
				R->io_t = t;
				R->io_id = s->id;
				sm_step(R, s, t);
			}
			if (input)
				break;
			t = sm_next_time(s);
			if (t == UINT64_MAX)
				break;
		}
		R->cur = -1;
		sm_schedule(R, s);
	}
	l1_ahead_flush(R, UINT64_MAX, 0);
	/* Warps that never issued again (all their input was read) */
	uint64_t end = R->tmax;
	for (unsigned i = 0; i < R->nsms; i++) {
		struct sm *s = R->sms[R->smlist[i]];
		if (s->now > end)
			end = s->now;
	}
	R->gnow = end;
	R->tbase = end;
}

void l1_timing_free(gc_l1 *R, struct sm *s)
{
	free(s->q.q);
	free(s->rq.q);
	free(s->m);
	free(s->vtab);
	free(s->dblk);
	free(s->pclog);
	l1_ahead_free(R, s);
	free(s->inflight.slot);
	if (R->timing)
		gc_l1wheel_free(&s->ev);
}
