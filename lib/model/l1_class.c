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

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* ---- the shadow ------------------------------------------------------ */

/* The shadow of an SM whose L1 has geometry g. */
void l1_class_init(gc_l1 *R, struct sm *s, const gc_cache_geom *g)
{
	struct l1_fa *f = &s->fa;
	memset(f, 0, sizeof *f);
	uint64_t n = (uint64_t)g->sets * g->ways; /* <= 2^28: gc_cache_geom_check */
	f->n = (uint32_t)n;
	f->line_shift = s->c.line_shift;
	f->lru = g->repl == GC_REPL_LRU;
	f->core = g->repl == GC_REPL_RANDOM;
	if (f->core) {
		gc_cache_geom one = *g;
		one.ways = f->n;
		one.sets = 1;
		one.index = GC_INDEX_LINEAR;
		char why[160];
		if (gc_cache_init(&f->c, &one, why, sizeof why) < 0)
			l1_fail(R, "the fully associative shadow of SM %u: %s", s->id, why);
	} else {
		unsigned bits = 1;
		while ((UINT64_C(1) << bits) < 4 * n)
			bits++;
		f->shift = 64 - bits;
		/* in the seen tables' huge pages, with the queue */
		f->pool = R->seenp;
		f->node = gc_bigpool_calloc(f->pool, n, sizeof *f->node);
		f->ch = gc_bigpool_calloc(f->pool, n, sizeof *f->ch);
		f->ix = gc_bigpool_calloc(f->pool, (size_t)1 << bits, sizeof *f->ix);
		if (!f->node || !f->ch || !f->ix)
			l1_fail(R, "out of memory");
		l1_class_clear(s);
	}
	memset(&s->seen, 0, sizeof s->seen);
	if (R->cdefer && !s->cq) {
		/* in the seen tables' huge pages: the queues of 80 SMs are 5 MB,
		 * 1,280 small pages' first touches */
		s->cq = gc_bigpool_calloc(R->seenp, L1_CQ, sizeof *s->cq);
		if (!s->cq)
			l1_fail(R, "out of memory");
		s->cqpool = R->seenp;
	}
	s->ncq = 0;
}

void l1_class_clear(struct sm *s)
{
	struct l1_fa *f = &s->fa;
	if (f->core) {
		gc_cache_clear(&f->c);
	} else {
		for (uint32_t i = 0; i < f->n; i++) {
			f->node[i].l.tag = GC_CACHE_NO_TAG;
			f->node[i].l.valid = 0;
			f->node[i].next = i + 1 < f->n ? i + 1 : NONE32;
		}
		f->free = 0;
		f->head = f->tail = NONE32;
		memset(f->ix, 0xff, ((size_t)1 << (64 - f->shift)) * sizeof *f->ix); /* NONE32 */
	}
	struct l1_seen *t = &s->seen;
	if (t->slot)
		memset(t->slot, 0, (t->mask + 1) * 2 * sizeof *t->slot);
	t->n = 0;
}

void l1_class_free(struct sm *s)
{
	struct l1_fa *f = &s->fa;
	if (f->core) {
		gc_cache_free(&f->c);
	} else {
		gc_bigpool_put(f->pool, f->node, f->n, sizeof *f->node);
		gc_bigpool_put(f->pool, f->ch, f->n, sizeof *f->ch);
		if (f->ix)
			gc_bigpool_put(f->pool, f->ix, (size_t)1 << (64 - f->shift), sizeof *f->ix);
	}
	f->node = NULL;
	f->ch = NULL;
	f->ix = NULL;
	if (s->seen.slot)
		gc_bigpool_put(s->seen.pool, s->seen.slot, s->seen.mask + 1,
			       2 * sizeof *s->seen.slot);
	memset(&s->seen, 0, sizeof s->seen);
	if (s->cq)
		gc_bigpool_put(s->cqpool, s->cq, L1_CQ, sizeof *s->cq);
	if (s->cq2)
		gc_bigpool_put(s->cqpool, s->cq2, L1_CQ, sizeof *s->cq2);
	s->cq = s->cq2 = NULL;
	s->ncq = 0;
}

/* The index bucket of line tag. */
static inline uint32_t *fa_bucket(const struct l1_fa *f, uint64_t tag)
{
	return &f->ix[gc_hash64(tag) >> f->shift];
}

/* The node holding line tag, or NULL; its bucket in *b. */
static inline struct l1_fanode *fa_get(const struct l1_fa *f, uint64_t tag, uint32_t **b)
{
	*b = fa_bucket(f, tag);
	for (uint32_t k = **b; k != NONE32; k = f->ch[k].next)
		if (f->node[k].l.tag == tag)
			return &f->node[k];
	return NULL;
}

/* Node k out of the index. */
static inline void fa_unindex(struct l1_fa *f, uint32_t k)
{
	uint32_t *p = &f->ix[f->ch[k].bucket];
	while (*p != k)
		p = &f->ch[*p].next;
	*p = f->ch[k].next;
}

static inline void fa_unlink(struct l1_fa *f, uint32_t k)
{
	uint32_t p = f->node[k].prev, x = f->node[k].next;
	if (p == NONE32)
		f->head = x;
	else
		f->node[p].next = x;
	if (x == NONE32)
		f->tail = p;
	else
		f->node[x].prev = p;
}

static inline void fa_append(struct l1_fa *f, uint32_t k)
{
	f->node[k].prev = f->tail;
	f->node[k].next = NONE32;
	if (f->tail == NONE32)
		f->head = k;
	else
		f->node[f->tail].next = k;
	f->tail = k;
}

/* The shadow's line of addr, or NULL; where fa_new indexes it in *b. */
static inline __attribute__((always_inline)) gc_cline *fa_find(struct l1_fa *f, uint64_t addr, uint32_t **b, int C)
{
	if (!C && f->core) {
		unsigned set;
		*b = NULL;
		return gc_cache_find(&f->c, addr, &set);
	}
	struct l1_fanode *x = fa_get(f, addr >> f->line_shift, b);
	return x ? &x->l : NULL;
}

/* A use of line l: with LRU the most recent. */
static inline __attribute__((always_inline)) void fa_touch(struct l1_fa *f, gc_cline *l, int C)
{
	if (!C && f->core) {
		gc_cache_touch(&f->c, l);
		return;
	}
	uint32_t k = (uint32_t)((struct l1_fanode *)l - f->node);
	if ((C || f->lru) && k != f->tail) {
		fa_unlink(f, k);
		fa_append(f, k);
	}
}

/* Line l invalid (write-evict). */
static inline __attribute__((always_inline)) void fa_drop(struct l1_fa *f, gc_cline *l, int C)
{
	if (!C && f->core) {
		gc_cache_invalidate(&f->c, l);
		return;
	}
	uint32_t k = (uint32_t)((struct l1_fanode *)l - f->node);
	fa_unindex(f, k);
	fa_unlink(f, k);
	l->tag = GC_CACHE_NO_TAG;
	l->valid = 0;
	f->node[k].next = f->free;
	f->free = k;
}

/* A line for addr, absent (fa_find found its bucket b): an invalid one
 * if any, else the policy's victim (LRU, FIFO: the first node), given to
 * addr with no sector valid, the most recent. */
static inline gc_cline *fa_new(struct l1_fa *f, uint64_t addr, uint32_t *b, int C)
{
	if (!C && f->core) {
		gc_cline *v = gc_cache_victim(&f->c, 0);
		gc_cache_fill(&f->c, v, addr);
		return v;
	}
	uint64_t tag = addr >> f->line_shift;
	uint32_t k = f->free;
	if (k != NONE32) {
		f->free = f->node[k].next;
	} else {
		k = f->head;
		fa_unindex(f, k);
		fa_unlink(f, k);
	}
	struct l1_fanode *x = &f->node[k];
	x->l.tag = tag;
	x->l.valid = 0;
	x->l.aux = 0;
	fa_append(f, k);
	f->ch[k].next = *b;
	f->ch[k].bucket = (uint32_t)(b - f->ix);
	*b = k;
	return &x->l;
}

/* The shadow fetches sectors m of line addr: allocated (the victim by
 * the policy) when absent, the sectors valid, a use. */
void l1_fa_fill(struct sm *s, uint64_t addr, uint8_t m)
{
	uint32_t *b;
	gc_cline *l = fa_find(&s->fa, addr, &b, 0);
	if (!l)
		l = fa_new(&s->fa, addr, b, 0);
	l->valid |= m;
	l->aux &= ~(uint32_t)m;
	fa_touch(&s->fa, l, 0);
}

/* A load of sectors m of line addr in the shadow: 1 on a hit (a use);
 * on a miss 0, and the sectors are fetched at once when `now` is set
 * (else the caller fills them later). */
static inline __attribute__((always_inline)) int fa_load(struct sm *s, uint64_t addr, uint8_t m, int now, int C)
{
	uint32_t *b;
	gc_cline *l = fa_find(&s->fa, addr, &b, C);
	if (l && (l->valid & m) == m) {
		fa_touch(&s->fa, l, C);
		return 1;
	}
	if (now) {
		if (!l)
			l = fa_new(&s->fa, addr, b, C);
		l->valid |= m;
		l->aux &= ~(uint32_t)m;
		fa_touch(&s->fa, l, C);
	}
	return 0;
}

/* A store of sectors m of line addr in the shadow, by l1_store's rules
 * (write policy `policy`, the L1's write allocation; `partial`: the
 * store covers its sectors only in part).  1 when every sector was
 * valid or held (a hit: a sector a partial store left, as l1_store). */
int l1_fa_load(struct sm *s, uint64_t addr, uint8_t m, int now)
{
	return fa_load(s, addr, m, now, 0);
}

static inline __attribute__((always_inline)) int fa_store(gc_l1 *R, struct sm *s, uint64_t addr, uint8_t m, int partial,
			   int policy, int C)
{
	struct l1_fa *f = &s->fa;
	uint32_t *b;
	gc_cline *l = fa_find(f, addr, &b, C);
	uint8_t missing = l ? m & ~l->valid : m;
	uint8_t absent = l ? missing & ~(uint8_t)l->aux : m; /* held ones hit */
	if (policy == GC_WRITE_EVICT) {
		if (l)
			fa_drop(f, l, C);
		return !absent;
	}
	int alloc = R->walloc != GC_WALLOC_NONE && missing;
	if (!l && alloc)
		l = fa_new(f, addr, b, C);
	if (l) {
		if (alloc && (!partial || R->walloc == GC_WALLOC_FETCH_ON_WRITE)) {
			l->valid |= missing;
			l->aux &= ~(uint32_t)missing;
		} else if (alloc) {
			l->aux |= missing; /* held, as in the L1 */
		}
		fa_touch(f, l, C);
	}
	return !absent;
}

int l1_fa_store(gc_l1 *R, struct sm *s, uint64_t addr, uint8_t m, int partial, int policy)
{
	return fa_store(R, s, addr, m, partial, policy, 0);
}

/* ---- the seen map ---------------------------------------------------- */

/* A key's first slot, by its gc_hash64. */
static inline uint64_t seen_home(uint64_t hash, unsigned shift)
{
	return hash >> shift;
}

/* The seen table of twice the slots (64 at first), its words moved. */
static __attribute__((noinline)) void seen_grow(gc_l1 *R, struct l1_seen *t)
{
	uint64_t cap = t->slot ? 2 * (t->mask + 1) : 64;
	unsigned shift = t->slot ? t->shift - 1 : 64 - 6;
	uint64_t *to = gc_bigpool_calloc(R->seenp, cap, 2 * sizeof *to);
	if (!to)
		l1_fail(R, "out of memory");
	for (uint64_t i = 0; t->slot && i <= t->mask; i++) {
		uint64_t key = t->slot[2 * i];
		if (!key)
			continue;
		uint64_t j = seen_home(gc_hash64(key), shift);
		while (to[2 * j])
			j = (j + 1) & (cap - 1);
		to[2 * j] = key;
		to[2 * j + 1] = t->slot[2 * i + 1];
	}
	if (t->slot)
		gc_bigpool_put(t->pool, t->slot, t->mask + 1, 2 * sizeof *t->slot);
	t->slot = to;
	t->pool = R->seenp;
	t->mask = cap - 1;
	t->shift = shift;
}

/* The word of key, whose gc_hash64 is hash (a new word, zero, when the
 * key is new), by linear probing from its home. */
static inline uint64_t *seen_slot(gc_l1 *R, struct l1_seen *t, uint64_t key, uint64_t hash)
{
	for (;;) {
		if (t->slot) {
			for (uint64_t i = seen_home(hash, t->shift);; i = (i + 1) & t->mask) {
				uint64_t *e = &t->slot[2 * i];
				if (e[0] == key)
					return e + 1;
				if (e[0])
					continue;
				if (t->n >= t->mask - t->mask / 4) /* 3/4 of the slots, less one */
					break;
				e[0] = key;
				t->n++;
				return e + 1;
			}
		}
		seen_grow(R, t);
	}
}

/* The word of the seen table that holds line tag's requested sectors,
 * and where in it (*shift): a word packs the sector masks of 64 / b lines
 * in a row (b, the line's sectors rounded up to a power of two), since a
 * GPU's lines are used in dense runs; one slot (16 bytes) then serves 16
 * lines of 4 sectors, where a slot a line cost 21-43 bytes a line with
 * the table's spare room. */
static inline uint64_t *seen_word(gc_l1 *R, struct sm *s, uint64_t tag, unsigned *shift)
{
	unsigned per = l1_seen_per(R); /* log2 of the lines a word holds */
	*shift = (unsigned)(tag & ((UINT64_C(1) << per) - 1)) << (6 - per);
	uint64_t key = (tag >> per) + 1; /* tag < 2^62: never 0 */
	return seen_slot(R, &s->seen, key, gc_hash64(key));
}

/* Sectors `want` of line `tag` have been requested. */
void l1_seen(gc_l1 *R, struct sm *s, uint64_t tag, uint8_t want)
{
	unsigned shift;
	uint64_t *w = seen_word(R, s, tag, &shift); /* sets shift: not in one expression */
	*w |= (uint64_t)want << shift;
}

/* The class of a miss of sectors `want` of line `tag`, of which `missing`
 * were not valid, `partial` of them left invalid by a partial store, the
 * shadow having hit (fa_hit) or missed the same reference. */
/* The class of a miss the shadow missed (or any, with a prefetcher) whose
 * seen word is *w, line tag's sectors at `shift` in it; the sectors
 * wanted marked seen. */
static inline int seen_class(uint64_t *w, unsigned shift, uint8_t want, uint8_t missing,
			     uint8_t partial, int fa_hit)
{
	int first = (missing & ~(uint8_t)(*w >> shift)) != 0;
	*w |= (uint64_t)want << shift;
	if (first)
		return GC_C_COMPULSORY;
	if (partial)
		return GC_C_PARTIAL;
	return fa_hit ? GC_C_CONFLICT : GC_C_CAPACITY;
}

int l1_classify(gc_l1 *R, struct sm *s, uint64_t tag, uint8_t want, uint8_t missing,
		uint8_t partial, int fa_hit)
{
	/* Every sector valid or held in the shadow was requested (without a
	 * prefetcher, which fills unrequested ones): a shadow hit is not
	 * compulsory, and `want`, all valid or held there, is already seen. */
	if (fa_hit && !R->pf_on)
		return partial ? GC_C_PARTIAL : GC_C_CONFLICT;
	unsigned shift;
	uint64_t *w = seen_word(R, s, tag, &shift);
	return seen_class(w, shift, want, missing, partial, fa_hit);
}

/* ---- deferred classification ------------------------------------------ */

/* Seen lookups prefetched this many ahead in a drain. */
#ifndef SEEN_AHEAD
#define SEEN_AHEAD 16
#endif

/*
 * SM s's deferred references (l1_class_defer), in their order: first all
 * through the shadow, which one SM's batch keeps in the core's cache,
 * each miss the shadow hit classed at once (conflict or partial-write,
 * as l1_classify does without a seen lookup), and the seen table's home
 * slot of each miss left prefetched, so that the table's random lines
 * come in while the shadow works; then the misses left, compacted to the
 * front, looked up in the seen table with the home slot of the one
 * SEEN_AHEAD on prefetched again (what the first pass brought may have
 * left the first-level cache).  The two passes keep each structure's
 * order of references, and neither reads the other's.  Before them, the
 * lookups' request counts (drain_counts).
 */

/* The request counts of the deferred lookups of q[0, n) (what
 * count_request, count_sectors and the hit and miss counts make for a
 * lookup that is not deferred), added to s's.  A batch's counts fit 16
 * bits (L1_CQ lookups of at most 8 sectors), so four go in a word: by
 * operation the lookups, their sectors, the sectors missed and the line
 * misses (a missing sector of an absent line: h < n of count_sectors),
 * and the hits and the sector misses (a miss of a present line). */
_Static_assert(L1_CQ * 8 < 65536, "a batch's counts fit 16 bits");
static void drain_counts(struct sm *s, const struct l1_cref *q, unsigned n)
{
	uint64_t by_op[4] = {0}, res = 0;
	for (unsigned i = 0; i < n; i++) {
		const struct l1_cref *e = &q[i];
		unsigned miss = e->miss != 0, present = e->present != 0;
		/* a load of an absent line misses even with no sector */
		unsigned hit = (miss ^ 1) & ((e->kind & L1_CR_STORE) | present);
		by_op[e->op & 3] += 1 | (uint64_t)popcount8(e->m) << 16 |
				    (uint64_t)popcount8(e->miss) << 32 | (uint64_t)(miss & (present ^ 1)) << 48;
		res += hit | (uint64_t)((hit ^ 1) & present) << 16;
	}
	gc_l1_counts *t = &s->dn;
	for (unsigned j = 0; j < 4; j++) {
		uint64_t w = by_op[j], req = w >> 16 & 0xffff, hits = req - (w >> 32 & 0xffff);
		t->requests += w & 0xffff;
		t->sec_requested += req;
		t->sec_hits += hits;
		t->op_sec[j][GC_L1_SEC_REQUESTED] += req;
		t->op_sec[j][GC_L1_SEC_HITS] += hits;
		t->op_sec[j][GC_L1_SEC_LINE_MISSES] += w >> 48;
	}
	t->loads += by_op[GC_LOAD] & 0xffff;
	t->stores += by_op[GC_STORE] & 0xffff;
	t->atomics += by_op[GC_ATOMIC] & 0xffff;
	t->hits += res & 0xffff;
	t->misses += n - (res & 0xffff);
	t->sector_misses += res >> 16;
}

/* The first pass: C set when the shadow is known chained and LRU (an
 * instance without the tests of its policy); the misses left in q[0, k). */
static inline __attribute__((always_inline)) unsigned
drain_shadow(gc_l1 *R, struct sm *s, struct l1_cref *q, unsigned n, int C)
{
	unsigned k = 0, line_shift = s->c.line_shift, per = R->seen_per;
	for (unsigned i = 0; i < n; i++) {
		const struct l1_cref *e = &q[i];
		int fa_hit = e->kind & L1_CR_STORE
			? fa_store(R, s, e->addr, e->m, (e->kind & L1_CR_PARTIAL) != 0,
				   e->kind >> L1_CR_POLICY, C)
			: fa_load(s, e->addr, e->m, 1, C);
		if (!e->miss)
			continue;
		if (fa_hit && !R->pf_on) {
			s->dn.cls[e->part ? GC_C_PARTIAL : GC_C_CONFLICT]++;
			continue;
		}
		if (s->seen.slot)
			__builtin_prefetch(&s->seen.slot[2 * seen_home(gc_hash64((e->addr >> line_shift >> per) + 1),
								     s->seen.shift)], 1);
		q[k] = *e;
		q[k++].kind = fa_hit ? L1_CR_FAHIT : 0;
	}
	return k;
}

/* SM s's batch q[0, n) classified and counted, into s->dn: on the main
 * thread, or on a drain pool's (R is then the worker's copy). */
static void drain_batch(gc_l1 *R, struct sm *s, struct l1_cref *q, unsigned n)
{
	drain_counts(s, q, n);
	unsigned k = !s->fa.core && s->fa.lru ? drain_shadow(R, s, q, n, 1)
					      : drain_shadow(R, s, q, n, 0);
	/* the keys' hashes, SEEN_AHEAD of them: that of q[i] at i % SEEN_AHEAD */
	unsigned line_shift = s->c.line_shift, per = R->seen_per;
	uint64_t lines = (UINT64_C(1) << per) - 1, hash[SEEN_AHEAD];
	for (unsigned i = 0; i < k && i < SEEN_AHEAD; i++)
		hash[i] = gc_hash64((q[i].addr >> line_shift >> per) + 1);
	for (unsigned i = 0; i < k; i++) {
		uint64_t h = hash[i % SEEN_AHEAD];
		if (i + SEEN_AHEAD < k) {
			uint64_t g = gc_hash64((q[i + SEEN_AHEAD].addr >> line_shift >> per) + 1);
			hash[i % SEEN_AHEAD] = g;
			if (s->seen.slot)
				__builtin_prefetch(&s->seen.slot[2 * seen_home(g, s->seen.shift)], 1);
		}
		const struct l1_cref *e = &q[i];
		uint64_t tag = e->addr >> line_shift;
		uint64_t *w = seen_slot(R, &s->seen, (tag >> per) + 1, h);
		s->dn.cls[seen_class(w, (unsigned)(tag & lines) << (6 - per), e->m, e->miss, e->part,
				     (e->kind & L1_CR_FAHIT) != 0)]++;
	}
}

/* ---- the drain pool (--threads) ------------------------------------------- */

/*
 * With --threads N > 1 a full queue (l1_class_full) goes to N - 1 worker
 * threads, the main thread going on with the functional model into the
 * SM's other queue; it waits only when that one fills while the first is
 * still drained.  An SM has one batch in the pool at most, so its shadow
 * and seen table (and s->dn, the drains' counts) are one thread's at a
 * time, and see its references in order; the seen tables grow from the
 * seen pool, which has a lock.  The counts are added to the SM's (s->n)
 * when the main thread has waited for its drains (l1_class_drain,
 * l1_class_drain_all), so they are the same for any N.  A worker drains
 * with its own copy of the engine (what a drain reads of it is the
 * configuration, set before the pool starts), so a failure there (out
 * of memory) comes back to the worker, and the main thread reports it
 * at its next wait.
 */
struct l1_cworker {
	gc_l1 W;              /* the worker's copy of the engine */
	pthread_t id;
	struct l1_cpool *P;
};

struct l1_cpool {
	pthread_mutex_t mu;
	pthread_cond_t work;  /* an SM was queued, or quit */
	pthread_cond_t idle;  /* an SM's drain ended */
	struct sm *head, *tail; /* SMs whose batch waits, linked by dnext */
	unsigned busy;        /* SMs queued or being drained */
	int quit;
	int failed;           /* a drain failed: err says why */
	char err[640];
	unsigned n;           /* workers started */
	struct l1_cworker *w; /* the workers, then the main thread's copy */
	struct l1_cworker *own; /* that copy: the main thread drains while it waits */
};

/* A worker drains SM s's handed batch. */
static void worker_drain(struct l1_cworker *w, struct sm *s)
{
	struct l1_cpool *P = w->P;
	gc_l1 *W = &w->W;
	if (sigsetjmp(W->jb, 0)) {
		pthread_mutex_lock(&P->mu);
		if (!P->failed) {
			P->failed = 1;
			memcpy(P->err, W->err, sizeof P->err);
		}
		pthread_mutex_unlock(&P->mu);
		return;
	}
	drain_batch(W, s, s->cq2, s->ndq);
}

static void *worker_main(void *arg)
{
	struct l1_cworker *w = arg;
	struct l1_cpool *P = w->P;
	pthread_mutex_lock(&P->mu);
	for (;;) {
		while (!P->head && !P->quit)
			pthread_cond_wait(&P->work, &P->mu);
		struct sm *s = P->head;
		if (!s)
			break;
		P->head = s->dnext;
		if (!P->head)
			P->tail = NULL;
		int failed = P->failed;
		pthread_mutex_unlock(&P->mu);
		if (!failed) /* after a failure the batches left are dropped */
			worker_drain(w, s);
		pthread_mutex_lock(&P->mu);
		s->dbusy = 0;
		P->busy--;
		pthread_cond_broadcast(&P->idle);
	}
	pthread_mutex_unlock(&P->mu);
	return NULL;
}

/* The main thread, waiting, drains the first queued batch itself (its
 * own copy of the engine catches a failure as a worker's does).  Under
 * the lock, which it leaves and takes again; 0 when none is queued. */
static int own_drain(struct l1_cpool *P)
{
	struct sm *s = P->head;
	if (!s)
		return 0;
	P->head = s->dnext;
	if (!P->head)
		P->tail = NULL;
	int failed = P->failed;
	pthread_mutex_unlock(&P->mu);
	if (!failed)
		worker_drain(P->own, s);
	pthread_mutex_lock(&P->mu);
	s->dbusy = 0;
	P->busy--;
	pthread_cond_broadcast(&P->idle);
	return 1;
}

/* The pool of R->p.threads - 1 workers. */
static struct l1_cpool *pool_start(gc_l1 *R)
{
	struct l1_cpool *P = l1_zalloc(R, 1, sizeof *P);
	unsigned n = R->p.threads - 1;
	P->w = calloc(n + 1, sizeof *P->w);
	if (!P->w || pthread_mutex_init(&P->mu, NULL)) {
		free(P->w);
		free(P);
		l1_fail(R, "out of memory");
	}
	pthread_cond_init(&P->work, NULL);
	pthread_cond_init(&P->idle, NULL);
	R->cpool = P;
	P->own = &P->w[n];
	for (unsigned i = 0; i <= n; i++) {
		struct l1_cworker *w = &P->w[i];
		memcpy(&w->W, R, sizeof w->W);
		w->W.cpool = NULL;
		w->W.failed = 0;
		w->P = P;
		if (i == n)
			break; /* the main thread's */
		if (pthread_create(&w->id, NULL, worker_main, w))
			l1_fail(R, "cannot start a thread for --threads");
		P->n = i + 1;
	}
	return P;
}

void l1_class_pool_free(gc_l1 *R)
{
	struct l1_cpool *P = R->cpool;
	if (!P)
		return;
	pthread_mutex_lock(&P->mu);
	while (P->busy)
		pthread_cond_wait(&P->idle, &P->mu);
	P->quit = 1;
	pthread_cond_broadcast(&P->work);
	pthread_mutex_unlock(&P->mu);
	for (unsigned i = 0; i < P->n; i++)
		pthread_join(P->w[i].id, NULL);
	pthread_cond_destroy(&P->work);
	pthread_cond_destroy(&P->idle);
	pthread_mutex_destroy(&P->mu);
	free(P->w);
	free(P);
	R->cpool = NULL;
}

/* The main thread waits until SM s (NULL: every SM) has no batch in the
 * pool, draining queued batches meanwhile; a worker's failure is then
 * R's. */
static void pool_wait(gc_l1 *R, const struct sm *s)
{
	struct l1_cpool *P = R->cpool;
	pthread_mutex_lock(&P->mu);
	while (s ? s->dbusy : P->busy > 0)
		if (!own_drain(P))
			pthread_cond_wait(&P->idle, &P->mu);
	int failed = P->failed;
	if (failed)
		memcpy(R->err, P->err, sizeof R->err);
	pthread_mutex_unlock(&P->mu);
	if (failed)
		l1_fail(R, NULL);
}

/* SM s's queue to the pool, its other queue the one filled. */
static void pool_hand(gc_l1 *R, struct sm *s)
{
	struct l1_cpool *P = R->cpool;
	pool_wait(R, s);
	if (!s->cq2) {
		s->cq2 = gc_bigpool_calloc(s->cqpool, L1_CQ, sizeof *s->cq2);
		if (!s->cq2)
			l1_fail(R, "out of memory");
	}
	struct l1_cref *q = s->cq;
	s->cq = s->cq2;
	s->cq2 = q;
	s->ndq = s->ncq;
	s->ncq = 0;
	pthread_mutex_lock(&P->mu);
	s->dbusy = 1;
	s->dnext = NULL;
	if (P->tail)
		P->tail->dnext = s;
	else
		P->head = s;
	P->tail = s;
	P->busy++;
	pthread_cond_signal(&P->work);
	pthread_mutex_unlock(&P->mu);
}

void l1_class_full(gc_l1 *R, struct sm *s)
{
	if (R->p.threads > 1) {
		if (!R->cpool)
			pool_start(R);
		pool_hand(R, s);
		return;
	}
	drain_batch(R, s, s->cq, s->ncq);
	s->ncq = 0;
}

/* The drains' counts of SM s, all done, added to its own. */
static void drain_fold(struct sm *s)
{
	l1_counters_add(&s->n, &s->dn);
	memset(&s->dn, 0, sizeof s->dn);
}

void l1_class_drain(gc_l1 *R, struct sm *s)
{
	if (R->cpool)
		pool_wait(R, s);
	drain_batch(R, s, s->cq, s->ncq);
	s->ncq = 0;
	drain_fold(s);
}

void l1_class_drain_all(gc_l1 *R)
{
	if (!R->cdefer)
		return;
	if (R->cpool) {
		/* the batches left drained in parallel too */
		for (unsigned i = 0; i < R->nsms; i++) {
			struct sm *s = R->sms[R->smlist[i]];
			if (s->ncq)
				pool_hand(R, s);
		}
		pool_wait(R, NULL);
	}
	for (unsigned i = 0; i < R->nsms; i++)
		l1_class_drain(R, R->sms[R->smlist[i]]);
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
