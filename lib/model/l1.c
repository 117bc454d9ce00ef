/*
 * l1.c - the L1 engine's API, its configuration and the functional model:
 * in stream order, a miss fills its line at once.  The timing model is
 * l1_timing.c over l1_input.c; classification is l1_class.c.
 */
#include "model/l1.h"
#include "model/l1_impl.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const uint8_t l1_pop8[256] = {
#define P2(n) n, n + 1, n + 1, n + 2
#define P4(n) P2(n), P2(n + 1), P2(n + 1), P2(n + 2)
#define P6(n) P4(n), P4(n + 1), P4(n + 1), P4(n + 2)
	P6(0), P6(1), P6(1), P6(2)
#undef P2
#undef P4
#undef P6
};

/* ---- failures ---------------------------------------------------------- */

_Noreturn void l1_fail(gc_l1 *R, const char *fmt, ...)
{
	if (fmt) {
		va_list a;
		va_start(a, fmt);
		vsnprintf(R->err, sizeof R->err, fmt, a);
		va_end(a);
	}
	R->failed = 1;
	siglongjmp(R->jb, 1);
}

void *l1_alloc(gc_l1 *R, void *p, size_t n)
{
	p = realloc(p, n);
	if (!p)
		l1_fail(R, "out of memory");
	return p;
}

void *l1_zalloc(gc_l1 *R, size_t n, size_t size)
{
	void *p = calloc(n, size);
	if (!p)
		l1_fail(R, "out of memory");
	return p;
}

/* Every API call that can fail starts here: -1 at once after a failure,
 * and a failure below comes back to it (as 1 from sigsetjmp). */
#define ENTER(R)                         \
	do {                             \
		if ((R)->failed)         \
			return -1;       \
		if (sigsetjmp((R)->jb, 0)) \
			return -1;       \
	} while (0)

const char *gc_l1_error(const gc_l1 *L)
{
	return L->err;
}

/* The records collected go out. */
void l1_emit_flush(gc_l1 *R)
{
	unsigned n = R->nout;
	R->nout = 0;
	if (n && R->p.emit(R->p.emit_ctx, R->out, n, R->err, sizeof R->err) < 0)
		l1_fail(R, NULL);
	n = R->nrout;
	R->nrout = 0;
	if (n && R->p.emit_raw(R->p.emit_ctx, R->rout, n, R->rhi, R->err, sizeof R->err) < 0)
		l1_fail(R, NULL);
}

/* An API call that may have collected records returns: they go out. */
#define LEAVE(R)                 \
	do {                     \
		l1_emit_flush(R); \
		return 0;        \
	} while (0)

/* ---- configuration ------------------------------------------------------ */

/* The write policy for a store in `space`. */
static int write_policy(const gc_l1 *R, int space)
{
	if (R->write == GC_WRITE_LOCAL_BACK)
		return space == GC_LOCAL ? GC_WRITE_BACK : GC_WRITE_THROUGH;
	if (R->write == GC_WRITE_READ_ONLY)
		return GC_WRITE_EVICT;
	return R->write;
}

void gc_l1_route_table(gc_l1_routes t, int skip_global)
{
	gc_rec r;
	memset(&r, 0, sizeof r);
	memset(t, GC_L1_LOOKUP, sizeof(gc_l1_routes));
	for (unsigned op = GC_LOAD; op <= GC_ATOMIC; op++)
		for (unsigned space = 0; space < GC_NSPACES; space++)
			for (unsigned flags = 0; flags < 16; flags++) {
				r.op = (uint8_t)op;
				r.space = (uint8_t)space;
				r.flags = (uint8_t)flags;
				t[op][space][flags] = (uint8_t)gc_l1_route(skip_global, &r);
			}
}

/* The L1 and the maps from the configuration; -1 with a message. */
static int configure(gc_l1 *R, char *err, size_t len)
{
	const gc_gpu_cache *l1 = &R->gpu.l1;
	R->geom.line = l1->line;
	R->geom.sector = l1->sector;
	R->geom.sets = l1->sets;
	R->geom.ways = l1->ways;
	R->geom.index = l1->index;
	R->geom.repl = l1->repl;
	R->geom.seed = R->p.seed;
	char why[160];
	if (gc_cache_geom_check(&R->geom, why, sizeof why) < 0) {
		snprintf(err, len, "L1: %s", why);
		return -1;
	}
	R->sets = l1->sets;
	R->ways = l1->ways;
	R->write = l1->write;
	R->walloc = l1->walloc;
	R->skip_global = l1->skip_global;
	R->mshr_sector = l1->mshr == GC_MSHR_SECTOR_ASSOC;
	R->hit_lat = l1->latency;
	R->lambda_min = R->gpu.miss.lambda_min;
	R->sigma = R->gpu.miss.sigma;
	R->mshr_entries = l1->mshr_entries;
	R->mshr_merge = l1->mshr_merge;
	R->mshr_per_warp = l1->mshr_per_warp;
	R->line = l1->line;
	R->sector = l1->sector;
	R->nsectors = l1->line / l1->sector;
	R->seen_per = 6 - (R->nsectors <= 1 ? 0 : R->nsectors <= 2 ? 1 : R->nsectors <= 4 ? 2 : 3);
	R->pf_on = l1->prefetch != GC_PF_NONE;
	R->pf_wpb = 1;

	/* The stream's masks count its own sectors: map them onto the L1's. */
	unsigned in_line = R->p.in_line ? R->p.in_line : R->line;
	unsigned in_sector = R->p.in_sector ? R->p.in_sector : in_line < 32 ? in_line : 32;
	if (in_line != R->line) {
		snprintf(err, len, "%s: the stream's lines are %u bytes, the L1's %u "
			 "(give gc-coalesce and gc-l1 the same line size)",
			 R->p.input ? R->p.input : "input", in_line, R->line);
		return -1;
	}
	if (in_sector > in_line)
		in_sector = in_line;
	gc_cache_sector_map(R->maskmap, in_sector, R->sector, in_line);
	/* What goes on to L2 counts L2's sectors when L2 has the L1's lines
	 * (the sectors gc-l2 takes), else the stream's. */
	unsigned out_sector = in_sector;
	if (R->gpu.l2.line == in_line && R->gpu.l2.sector <= in_line &&
	    in_line / R->gpu.l2.sector <= 8)
		out_sector = R->gpu.l2.sector;
	gc_cache_sector_map(R->outmap, R->sector, out_sector, in_line);
	gc_cache_sector_map(R->rawmap, in_sector, out_sector, in_line);
	gc_cache_sector_map(R->inmap, R->sector, in_sector, in_line);
	gc_l1_route_table(R->route, R->skip_global);
	for (int space = 0; space < GC_NSPACES; space++)
		R->wpolicy[space] = (uint8_t)write_policy(R, space);

	gc_l1_statistics *st = &R->st;
	st->line = R->line;
	st->sector = R->sector;
	st->sets = R->geom.sets;
	st->ways = R->geom.ways;
	st->in_line = in_line;
	st->in_sector = in_sector;
	st->out_sector = out_sector;
	return 0;
}

gc_l1 *gc_l1_new(const gc_l1_params *p, char *err, size_t len)
{
	gc_l1 *R = calloc(1, sizeof *R);
	if (R && gc_bigpool_init(&R->seenpool) < 0) {
		free(R);
		R = NULL;
	}
	if (!R) {
		snprintf(err, len, "out of memory");
		return NULL;
	}
	R->p = *p;
	R->seenp = &R->seenpool;
	R->gpu = *p->gpu;
	R->p.gpu = &R->gpu;
	R->classify = p->classify;
	R->emit_all = p->emit_all;
	R->timing = p->timing;
	R->cur = -1;
	R->dfree = p->timing && p->dispatch == GC_L1_DISPATCH_FREE;
	R->last_warp = R->stage_warp = NONE32;
	gc_l1queue_init(&R->smheap);
	gc_l1queue_init(&R->aheap);
	if (configure(R, err, len) < 0) {
		gc_l1_free(R);
		return NULL;
	}
	/* Without --emit all no record carries a class: the functional
	 * model counts them in batches per SM (with a prefetcher, whose
	 * fills go into the shadow, in step) */
	R->cdefer = R->classify && !R->timing && !R->emit_all && !R->pf_on && !p->class_now;
	R->sms = calloc(65536, sizeof *R->sms);
	R->smlist = calloc(65536, sizeof *R->smlist);
	gc_pctab_init(&R->pcs);
	gc_kunits_init(&R->ksms, GC_KU_WIDTH);
	if (!R->sms || !R->smlist ||
	    gc_hmap_init(&R->warpmap, 0) < 0 || gc_hmap_init(&R->blockmap, 0) < 0 ||
	    gc_hset_init(&R->doneblocks, 0) < 0) {
		snprintf(err, len, "out of memory");
		gc_l1_free(R);
		return NULL;
	}
	return R;
}

void gc_l1_free(gc_l1 *L)
{
	if (!L)
		return;
	l1_class_pool_free(L); /* before the SMs' tables go */
	for (unsigned i = 0; L->sms && i < L->nsms; i++) {
		struct sm *s = L->sms[L->smlist[i]];
		gc_cache_free(&s->c);
		gc_pf_free(&s->pf);
		l1_class_free(s);
		l1_timing_free(L, s);
		free(s);
	}
	free(L->sms);
	free(L->smlist);
	gc_pctab_free(&L->pcs);
	free(L->pcsorted);
	free(L->ks);
	free(L->smstat);
	gc_kunits_free(&L->ksms);
	l1_input_free(L);
	gc_l1queue_free(&L->smheap);
	gc_l1queue_free(&L->aheap);
	gc_bigpool_free_all(&L->seenpool); /* after the SMs' tables went back */
	free(L);
}

/* ---- SMs ---------------------------------------------------------------- */

static void sm_cache_init(gc_l1 *R, struct sm *s)
{
	gc_cache_geom g = R->geom;
	g.sets = R->sets;
	g.ways = R->ways;
	g.seed = R->p.seed ^ ((uint64_t)s->id << 32);
	char why[160];
	if (gc_cache_init(&s->c, &g, why, sizeof why) < 0)
		l1_fail(R, "L1 of SM %u: %s", s->id, why);
	l1_pf_reset(R, s);
	if (R->classify)
		l1_class_init(R, s, &g);
}

struct sm *l1_new_sm(gc_l1 *R, uint16_t id)
{
	/* with a prefetcher, its window's ways past the struct (sm.pfat) */
	size_t pfat = R->pf_on ? (GC_PF_OUT_MAX + 1) * sizeof(const gc_cline *) : 0;
	struct sm *s = R->sms[id] = l1_zalloc(R, 1, sizeof *s + pfat);
	s->id = id;
	R->smlist[R->nsms++] = id;
	sm_cache_init(R, s);
	l1_pf_init(R, s);
	if (R->timing) {
		s->rng = R->p.seed * UINT64_C(0x2545f4914f6cdd1d) + id;
		l1_oom(R, gc_l1wheel_init(&s->ev, EV_SLOTS));
		s->m = l1_zalloc(R, R->mshr_entries, sizeof *s->m);
		for (unsigned i = 0; i < R->mshr_entries; i++)
			s->m[i].next_free = i + 1 < R->mshr_entries ? i + 1 : NONE32;
		s->mfree = 0;
		unsigned lg = 4;
		while ((1u << lg) < (R->mshr_entries > 1024 ? 2 : 4) * R->mshr_entries)
			lg++;
		s->inflight.slot = l1_alloc(R, NULL, ((size_t)1 << lg) * sizeof *s->inflight.slot);
		for (size_t i = 0; i < (size_t)1 << lg; i++)
			s->inflight.slot[i].v = IF_FREE;
		s->inflight.mask = (1u << lg) - 1;
		s->inflight.shift = 64 - lg;
		s->vtab = l1_zalloc(R, (size_t)VNEVER + 1, sizeof *s->vtab);
		s->pend_head = s->pend_tail = NONE32;
		/* --dispatch free: in the kernel's time, whenever it is read
		 * (l1_free_kernel wrote nothing past the kernel's start while
		 * the GPU could have an SM not seen yet) */
		s->now = R->dfree ? R->tbase : R->gnow;
		if (R->dfree && R->free_out > R->tbase)
			l1_fail(R, "%s: record %llu: SM %u first appears after the timing model "
				"wrote the kernel's output past its start (the GPU has %u SMs, and "
				"the stream uses more)", R->p.input ? R->p.input : "input",
				(unsigned long long)R->recno, id, R->gpu.sm.count);
	}
	return s;
}

/* ---- the cache operations (both models) ---------------------------------- */

/*
 * A store of `bytes` bytes to sectors m of line addr.  A sector is written
 * in full when the store covers every byte of its sectors (bytes >=
 * sectors x sector size); otherwise every written sector counts as partly
 * written, since a request does not say which bytes it carries.
 *
 *   write-evict (and read-only): a present line is written back if dirty
 *     and invalidated; the store goes to L2.
 *   write-through: the store goes to L2; present sectors are updated.
 *   write-back: written sectors that are valid (or become valid) turn
 *     dirty; the rest of the store goes to L2.
 *   Allocation of written sectors not valid in L1: none (no-write-
 *   allocate); fully written sectors become valid and partly written ones
 *   are fetched from L2 first (fetch-on-write); fully written sectors
 *   become valid and partly written ones stay invalid, their bytes going
 *   to L2 (write-allocate, lazy-fetch-on-read: L1 keeps no byte masks).
 * A sector a partial store left so (the line's aux bits) is held: a later
 * store to it counts as a hit of that sector, as GPGPU-Sim counts a store
 * to its MODIFIED sector with a byte mask, and as the hardware does; a
 * load of it still misses (class partial-write).  Only the counts see
 * it: what goes to L2 and the sectors' states are those of a miss.
 */

uint8_t l1_store(gc_l1 *R, struct sm *s, const gc_rec *r, uint8_t m, uint64_t time)
{
	return store_k(R, s, r, m, time, 0, 0);
}

/* A load, functional: a miss fetches its missing sectors and fills now. */
static inline __attribute__((always_inline)) uint8_t
load_now_k(gc_l1 *R, struct sm *s, const gc_rec *r, uint8_t m, uint64_t time, unsigned K,
	   unsigned W)
{
	uint64_t addr = r->addr & ~(uint64_t)(R->line - 1);
	unsigned set = set_k(&s->c, addr, K);
	gc_cline *hint = NULL;
	gc_cline *l = probe_k(s, addr, set, &hint, W);
	if (load_hit_k(R, s, l, addr, m, K))
		return GC_OUT_MAKE(GC_R_HIT, GC_C_NONE);
	uint64_t tag = gc_cache_tag(&s->c, addr);
	uint8_t missing = l ? m & ~l->valid : m;
	int result = l ? GC_R_SECTOR_MISS : GC_R_MISS;
	uint8_t partial = l ? (uint8_t)(l->aux & missing) : 0;
	int cls = GC_C_NONE;
	if (DEFERS(K, R)) {
		l1_class_defer(R, s, GC_LOAD, addr, m, missing, partial, 0, l != NULL);
	} else {
		if (CLASSIFIES(K, R))
			cls = l1_classify(R, s, tag, m, missing, partial, l1_fa_load(s, addr, m, 1));
		if (COUNTED(K))
			count_miss(s, result, cls);
	}
	uint8_t outcome = 0;
	if (!l)
		l = allocate_k(R, s, r, addr, set, hint, time, &outcome, K);
	to_l2_k(R, s, r, GC_LOAD, addr, missing, sector_bytes(R, missing), time, 0, K);
	l->valid |= missing;
	l->aux &= ~(uint32_t)missing;
	l1_touch(&s->c, l, K);
	return (uint8_t)(GC_OUT_MAKE(result, cls) | outcome);
}

/* ---- the functional model ------------------------------------------------- */

static inline __attribute__((always_inline)) void access_now(gc_l1 *R, const gc_rec *r,
							       unsigned K, unsigned W)
{
	struct sm *s = get_sm(R, r->sm);
	uint8_t m = R->maskmap[r->mask];
	uint8_t outcome;
	if (COUNTED(K)) {
		if (!DEFERS(K, R)) /* deferred: a lookup's counts are the drain's */
			count_request(s, r);
		count_inst(R, s, r);
	}
	int trained = 0;
	if (!bypass_k(R, s, r, r->time, &outcome, K)) {
		if (r->op == GC_LOAD) {
			outcome = load_now_k(R, s, r, m, r->time, K, W);
			trained = (K & L1_K_PF) || (!NO_PF(K) && R->pf_on);
		} else {
			outcome = store_k(R, s, r, m, r->time, K, W);
		}
	}
	if (K & L1_K_PLAIN)
		return;
	if (CLASSIFIES(K, R))
		l1_count_pc(R, r->pc, outcome);
	if (!(K & (L1_K_RAW | L1_K_DEFER)) && R->emit_all) {
		if (R->rsrc) {
			raw_slot(R)[2] = outcome;
		} else {
			gc_rec *o = out_slot(R);
			*o = *r;
			o->outcome = outcome;
		}
	}
	/* its prefetches after it (--emit all writes them too) */
	if (trained)
		l1_pf_access_k(R, s, r, is_miss(outcome), r->time, K, W);
}

/*
 * The state a request will touch is brought towards the core while the
 * requests before it are modelled: its SM's set (the L1s of 80 SMs do not
 * fit a core's first level cache) and, with classification, the home
 * slots of its line in the SM's hash maps (the compulsory-miss map
 * outgrows every cache).  A prefetch is only a hint: when a kernel begin
 * remakes the L1s or a map grows first, it fetches something unused, and
 * the model is the same.
 */
static inline __attribute__((always_inline)) void prefetch_k(const gc_l1 *R, unsigned sm,
								uint64_t addr, unsigned K, unsigned W)
{
	const struct sm *s = R->sms[sm];
	if (!s)
		return;
	const gc_cache *c = &s->c;
	if (K & L1_K_LRU) {
		gc_cache_prefetch_set(c, gc_cache_set_fast(c, addr), W ? W : c->g.ways);
		return;
	}
	addr &= ~(uint64_t)(R->line - 1);
	gc_cache_prefetch(c, addr, gc_cache_set(c, addr));
	if (CLASSIFIES(K, R) && !DEFERS(K, R)) /* deferred: the drain prefetches */
		l1_class_prefetch(R, s, gc_cache_tag(c, addr), addr);
}

static inline void prefetch(const gc_l1 *R, unsigned sm, uint64_t addr)
{
	prefetch_k(R, sm, addr, 0, 0);
}

/* Model rec[0..n), prefetching for ahead[] as it goes (one request's state
 * for each request modelled: a burst of prefetches would queue). */
int gc_l1_access(gc_l1 *R, const gc_rec *rec, size_t n, const gc_rec *ahead, size_t nahead)
{
	ENTER(R);
	size_t k = n > nahead ? n : nahead;
	for (size_t i = 0; i < k; i++) {
		if (i < nahead)
			prefetch(R, ahead[i].sm, ahead[i].addr);
		if (i < n)
			access_now(R, &rec[i], 0, 0);
	}
	if (n)
		R->last_time = rec[n - 1].time;
	LEAVE(R);
}

int gc_l1_raw_ok(const gc_l1 *R)
{
	return !R->timing && !(R->pf_on && R->emit_all) && R->p.emit_raw;
}

/* Requests looked ahead of the one modelled by gc_l1_access_raw. */
#ifndef RAW_AHEAD
#define RAW_AHEAD 16
#endif

/*
 * The fields of request p (gc-stream(5): op; space and flags; outcome;
 * mask; sm; warp; block; pc; seq; the clock's low half; the address, the
 * size above bit 48) that the model reads, into r; what it does not read
 * (lane, kernel, distance, compute) goes out as the record's own bytes.
 */
static inline void raw_decode(const unsigned char *p, uint64_t time_hi, gc_rec *r)
{
	uint64_t w0 = gc_get64(p), w1 = gc_get64(p + 8), w2 = gc_get64(p + 16);
	uint64_t a = gc_get64(p + 24);
	r->op = (uint8_t)w0;
	r->space = (uint8_t)(w0 >> 8 & 15);
	r->flags = (uint8_t)(w0 >> 12 & 15);
	r->outcome = (uint8_t)(w0 >> 16);
	r->mask = (uint8_t)(w0 >> 24);
	r->sm = (uint16_t)(w0 >> 32);
	r->warp = (uint16_t)(w0 >> 48);
	r->block = (uint32_t)w1;
	r->pc = (uint32_t)(w1 >> 32);
	r->seq = (uint32_t)w2;
	r->time = time_hi | (w2 >> 32);
	r->addr = a & GC_ADDR48_MAX;
	r->size = (uint16_t)(a >> 48);
}

/* The requests of [p, end) modelled, as they lie (K, W: l1_fast); the
 * last one's time. */
static inline __attribute__((always_inline)) uint64_t
access_raw_k(gc_l1 *R, const unsigned char *p, const unsigned char *end, uint64_t time_hi,
	     unsigned K, unsigned W)
{
	uint32_t kernel = R->nks ? R->ks[R->nks - 1].id : 0;
	uint64_t last = 0;
	for (const unsigned char *x = p; x < end; x += GC_RECORD_BASE) {
		const unsigned char *q = x + RAW_AHEAD * GC_RECORD_BASE;
		if (q < end)
			prefetch_k(R, gc_get16(q + 4), gc_get64(q + 24) & GC_ADDR48_MAX, K, W);
		/* a record of its own each time: nothing carried over */
		gc_rec r = {0};
		r.kernel = kernel;
		r.dist = GC_DIST_NONE;
		raw_decode(x, time_hi, &r);
		R->rsrc = x;
		access_now(R, &r, K, W);
		last = r.time;
	}
	return last;
}

/*
 * The common configurations, for which gc_l1_access_raw has an instance
 * of its loop with every test of the engine's state that it decides made
 * a constant (l1_impl.h's L1_K_*): SMs' caches of 4 ways, LRU, linearly
 * indexed over a power-of-two set count (gc-l1 --ways 4, the bench's L1;
 * the ways of the current kernel: a carve-out sets them), no --emit all,
 * and either (l1_fast) no classification and nothing that reads the
 * counts (--stats, reports) and no prefetcher, or (l1_fast_stats) the
 * counts kept and the classes deferred (gc-l1 --stats, -v; no
 * prefetcher), or (l1_fast_pf) l1_fast's with a prefetcher.
 */
static int l1_fast_geom(const gc_l1 *R)
{
	return !R->emit_all && !R->timing && R->ways == 4 && R->geom.repl == GC_REPL_LRU &&
	       R->geom.index == GC_INDEX_LINEAR && (R->sets & (R->sets - 1)) == 0;
}

static int l1_fast(const gc_l1 *R)
{
	return l1_fast_geom(R) && !R->pf_on && !R->classify && R->p.uncounted;
}

static int l1_fast_stats(const gc_l1 *R)
{
	return l1_fast_geom(R) && !R->pf_on && R->cdefer && !R->p.uncounted;
}

static int l1_fast_pf(const gc_l1 *R)
{
	return l1_fast_geom(R) && R->pf_on && !R->classify && R->p.uncounted;
}

/* l1_fast's instance, a function of its own: the code of the others
 * (and what a change to theirs does to how it is compiled) apart. */
static __attribute__((noinline)) uint64_t access_raw_plain(gc_l1 *R, const unsigned char *p,
							   const unsigned char *end, uint64_t time_hi)
{
	return access_raw_k(R, p, end, time_hi, L1_K_RAW | L1_K_PLAIN | L1_K_LRU | L1_K_UNCOUNTED,
			    4);
}

/* l1_fast_pf's instance, a function of its own: in gc_l1_access_raw's
 * body it made the others' code slower (CPU time of the plain copy
 * +10%). */
static __attribute__((noinline)) uint64_t access_raw_pf(gc_l1 *R, const unsigned char *p,
							const unsigned char *end, uint64_t time_hi)
{
	return access_raw_k(R, p, end, time_hi, L1_K_RAW | L1_K_PF | L1_K_LRU | L1_K_UNCOUNTED, 4);
}

int gc_l1_access_raw(gc_l1 *R, const unsigned char *p, size_t n, uint64_t time_hi)
{
	ENTER(R);
	if (!gc_l1_raw_ok(R))
		l1_fail(R, "gc_l1_access_raw: not a functional model without a prefetcher's --emit all");
	R->rhi = time_hi;
	const unsigned char *end = p + n * GC_RECORD_BASE;
	uint64_t last;
	if (l1_fast(R))
		last = access_raw_plain(R, p, end, time_hi);
	else if (l1_fast_stats(R))
		last = access_raw_k(R, p, end, time_hi, L1_K_RAW | L1_K_DEFER | L1_K_LRU, 4);
	else if (l1_fast_pf(R))
		last = access_raw_pf(R, p, end, time_hi);
	else
		last = access_raw_k(R, p, end, time_hi, 0, 0);
	R->rsrc = NULL;
	if (n)
		R->last_time = last;
	LEAVE(R);
}

/* ---- kernels ------------------------------------------------------------- */

void l1_counters_add(gc_l1_counts *a, const gc_l1_counts *b)
{
	uint64_t *x = (uint64_t *)a;
	const uint64_t *y = (const uint64_t *)b;
	for (size_t i = 0; i < sizeof *a / sizeof(uint64_t); i++)
		x[i] += y[i];
}

static void counters_sub(gc_l1_counts *a, const gc_l1_counts *b)
{
	uint64_t *x = (uint64_t *)a;
	const uint64_t *y = (const uint64_t *)b;
	for (size_t i = 0; i < sizeof *a / sizeof(uint64_t); i++)
		x[i] -= y[i];
}

static void sum_counters(const gc_l1 *R, gc_l1_counts *out)
{
	memset(out, 0, sizeof *out);
	for (unsigned i = 0; i < R->nsms; i++)
		l1_counters_add(out, &R->sms[R->smlist[i]]->n);
}

/* Invalidate every L1 (writing dirty sectors back) at time `time`. */
static void flush_all(gc_l1 *R, uint64_t time)
{
	for (unsigned i = 0; i < R->nsms; i++) {
		struct sm *s = R->sms[R->smlist[i]];
		size_t n = gc_cache_nlines(&s->c);
		for (size_t j = 0; j < n; j++) {
			gc_cline *l = &s->c.lines[j];
			pf_drop(s, l);
			if (l->tag != GC_CACHE_NO_TAG && l->dirty) {
				gc_rec src;
				memset(&src, 0, sizeof src);
				src.sm = s->id;
				src.kernel = R->ks ? R->ks[R->nks - 1].id : 0;
				write_back(R, s, &src, l, time);
			}
		}
		gc_cache_clear(&s->c);
		if (R->classify) {
			l1_class_drain(R, s);
			l1_class_clear(s);
		}
	}
}

int gc_l1_flush(gc_l1 *R, uint64_t time)
{
	ENTER(R);
	flush_all(R, time);
	LEAVE(R);
}

/* A kernel begins: the carve-out sets its L1 size (seed 003 formula 7). */
int gc_l1_kernel_begin(gc_l1 *R, const gc_kernel *k)
{
	ENTER(R);
	if (R->nks == R->kscap) {
		R->kscap = R->kscap ? 2 * R->kscap : 16;
		R->ks = l1_alloc(R, R->ks, R->kscap * sizeof *R->ks);
	}
	gc_l1_kstat *ks = &R->ks[R->nks++];
	memset(ks, 0, sizeof *ks);
	ks->id = k ? k->id : 0;
	if (k) {
		size_t len = strlen(k->name);
		if (len >= sizeof ks->name)
			len = sizeof ks->name - 1;
		memcpy(ks->name, k->name, len);
		ks->name[len] = 0;
	}
	if (R->classify && gc_pctab_kernel(&R->pcs, k ? k->name : "") < 0)
		l1_fail(R, "out of memory");
	l1_class_drain_all(R);
	sum_counters(R, &R->kbase);
	R->inst_valid = 0;
	/* the timing model steps an SM ahead only when its blocks have all
	 * their warps: a kernel that does not say how many has none ahead */
	uint64_t tpb = k ? gc_kernel_threads_per_block(k) : 0;
	R->wpb = tpb ? (uint32_t)((tpb + R->gpu.sm.warp_size - 1) / R->gpu.sm.warp_size) : UINT32_MAX;
	if (R->pf_on) {
		/* mta numbers the warps of an SM block after block */
		uint64_t wpb = k ? (gc_kernel_threads_per_block(k) + R->gpu.sm.warp_size - 1) /
				   R->gpu.sm.warp_size : 1;
		R->pf_wpb = (uint32_t)(wpb ? wpb : 1);
		for (unsigned i = 0; i < R->nsms; i++)
			gc_pf_clear(&R->sms[R->smlist[i]]->pf);
	}

	gc_carveout co;
	gc_gpu_kernel_l1(&R->gpu, k, &co);
	unsigned sets = co.l1_sets, ways = co.l1_ways, active = co.active;
	uint64_t shmem = co.shmem;
	if (!active)
		active = 1;
	R->active = active;
	ks->sets = sets;
	ks->ways = ways;
	ks->l1_size = (uint64_t)sets * ways * R->line;
	ks->shmem = shmem;
	ks->active = active;
	if (sets != R->sets || ways != R->ways) {
		/* A new carve-out: the L1s are remade (their dirty data first
		 * written back). */
		flush_all(R, R->gnow);
		R->sets = sets;
		R->ways = ways;
		for (unsigned i = 0; i < R->nsms; i++) {
			struct sm *s = R->sms[R->smlist[i]];
			gc_cache_free(&s->c);
			if (R->classify)
				l1_class_free(s);
			sm_cache_init(R, s);
		}
	}
	LEAVE(R);
}

int gc_l1_kernel_run(gc_l1 *R)
{
	ENTER(R);
	if (!R->timing || !R->p.read)
		l1_fail(R, "gc_l1_kernel_run: not a timing model with a read callback");
	l1_timing_kernel(R);
	LEAVE(R);
}

int gc_l1_kernel_end(gc_l1 *R)
{
	ENTER(R);
	l1_class_drain_all(R);
	if (R->p.flush)
		flush_all(R, R->timing ? R->gnow : R->last_time);
	if (!R->nks)
		LEAVE(R);
	gc_l1_counts now;
	sum_counters(R, &now);
	counters_sub(&now, &R->kbase);
	R->ks[R->nks - 1].n = now;
	/* the kernel's sectors by SM, in SM order (GC_KU_* are GC_L1_SEC_*) */
	_Static_assert((int)GC_KU_NFIELDS == (int)GC_L1_NSECS &&
		       (int)GC_KU_RES_FAILS == (int)GC_L1_SEC_RES_FAILS,
		       "kunits.h's fields are l1.h's sector counts");
	for (unsigned id = 0, left = R->nsms; left; id++) {
		const struct sm *s = R->sms[id];
		if (!s)
			continue;
		left--;
		uint64_t v[GC_KU_WIDTH];
		for (int f = 0; f < GC_KU_NFIELDS; f++) {
			v[GC_KU_LOADS + f] = s->n.op_sec[GC_LOAD][f];
			v[GC_KU_STORES + f] = s->n.op_sec[GC_STORE][f];
		}
		l1_oom(R, gc_kunits_unit(&R->ksms, id, v));
	}
	l1_oom(R, gc_kunits_kernel_end(&R->ksms));
	LEAVE(R);
}

/* ---- statistics ------------------------------------------------------------ */

static int by_id(const void *a, const void *b)
{
	unsigned x = ((const gc_l1_smstat *)a)->sm, y = ((const gc_l1_smstat *)b)->sm;
	return (x > y) - (x < y);
}

int gc_l1_finish(gc_l1 *R)
{
	ENTER(R);
	gc_l1_statistics *st = &R->st;
	l1_class_drain_all(R);
	R->smstat = l1_alloc(R, R->smstat, (R->nsms ? R->nsms : 1) * sizeof *R->smstat);
	for (unsigned i = 0; i < R->nsms; i++) {
		const struct sm *s = R->sms[R->smlist[i]];
		R->smstat[i] = (gc_l1_smstat){s->id, s->n};
	}
	qsort(R->smstat, R->nsms, sizeof *R->smstat, by_id);
	sum_counters(R, &st->total);
	l1_pcs_sorted(R);
	st->kernels = R->ks;
	st->nkernels = R->nks;
	st->sms = R->smstat;
	st->nsms = R->nsms;
	st->ksms = &R->ksms;
	st->pcs = R->pcsorted;
	st->npcs = R->pcsorted ? gc_pctab_count_rows(&R->pcs) : 0;
	st->pctab = &R->pcs;
	st->cycles = R->cycles;
	st->peak_buffered = R->peak_buffered;
	return 0;
}

const gc_l1_statistics *gc_l1_stats(const gc_l1 *L)
{
	return &L->st;
}
