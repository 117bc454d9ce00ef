/*
 * clone.c - gc-clone's engine (clone.h): a profile kernel section in,
 * access records out, by Algorithms 1 and 2 of seed 002.
 *
 * A warp at a time: its threads (in thread order, so the inter-thread
 * anchors chain as gc-profile measured them) each get a profile and have
 * every entry of it given an address; then the lanes' entries are merged
 * by (seq, instruction) into warp instructions and handed out as records.
 * Warps in order, blocks in order.  So the memory is the profile's copy
 * and one warp's addresses, whatever the kernel's size.
 */
#include "proxy/clone.h"

#include "base/rng.h"
#include "proxy/profiler.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WARP_SIZE_MAX 256 /* a record's lane is one byte */
#define GRID_X_MAX UINT32_MAX
#define GRID_YZ_MAX 65535

/* A static instruction as the generator keeps it. */
struct cinst {
	uint32_t pc;
	uint8_t op, space, flags;
	uint16_t size;
	uint64_t base;
	uint64_t lo;          /* B + lo: the extent's first byte */
	uint64_t hi;          /* its end, B + lo + the (scaled) width */
	uint64_t wrap;        /* width to wrap by, a multiple of size; 0: never wrap */
	gc_pdist pe[GC_PE_NCTX], pa;
	int pe_src[GC_PE_NCTX]; /* the context drawn from for each (fallback), -1 none */
	int64_t pe_mode[GC_PE_NCTX], pa_mode;
	int pe_one[GC_PE_NCTX], pa_one; /* one value only: the mode, no draw */
	int pa_has;           /* P_A has a value to draw */
	gc_panchor anc;
	/* the thread being generated */
	uint64_t stamp;       /* the thread that last executed it */
	uint64_t prev;        /* that thread's previous address for it */
};

struct cprof {
	uint64_t threads;
	uint32_t len;
	gc_pentry *e;
	gc_pdist pr;
	unsigned depth;       /* LRU stack depth: the deepest distance P_R draws, + 1 */
};

struct gc_cloner {
	char err[256];
	int bad;
	gc_kernel k;          /* the kernel begin record: the grid scaled */
	unsigned ws, tpb, nwarps, ablate;
	uint64_t blocks, threads, othreads;
	uint32_t ninst, nprof, nrun;
	struct cinst *inst;
	struct cprof *prof;
	gc_prun *run;
	uint64_t *qcum;       /* cumulative threads of the profiles */
	uint64_t rng;
	/* where the generation is */
	uint64_t b;           /* block */
	unsigned w;           /* warp in the block */
	int in_warp;          /* the warp's addresses are made */
	uint32_t runcur;      /* the run of the last thread */
	uint64_t tstamp;      /* threads generated so far */
	unsigned tx, ty;      /* the thread's coordinates in its block */
	int carry;            /* the slowest that changed from the thread before, -1 unknown */
	/* the warp: per lane its profile, next entry, that entry's seq and the
	 * offset of its addresses */
	unsigned nl;
	uint32_t *lprof, *lcur;
	uint64_t *lseq, *loff;
	uint64_t *addr;
	size_t addrcap;
	uint64_t *stack;      /* the thread's LRU stack, most recent first */
	/* the warp instruction being handed out */
	int have;
	int uni;              /* every lane has the same profile: one cursor */
	uint64_t iseq;
	uint32_t ik;
	unsigned ili;
};

static int fail(gc_cloner *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(gc_cloner *c, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(c->err, sizeof c->err, "kernel %u: ", c->k.id);
	va_start(ap, fmt);
	vsnprintf(c->err + n, sizeof c->err - (size_t)n, fmt, ap);
	va_end(ap);
	c->bad = 1;
	return -1;
}

/* 64 x 64 -> the high 64 bits: floor(a * b / 2^64). */
static uint64_t mulhi(uint64_t a, uint64_t b)
{
	return (uint64_t)(((unsigned __int128)a * b) >> 64);
}

/* ---- setting up ------------------------------------------------------------ */

/*
 * The scaled grid: about round(blocks * F) blocks, at least 1.  The
 * slowest dimension larger than 1 (z, else y, else x) takes
 * round(target / P) for P the blocks of the faster dimensions; when that
 * is below 1 it becomes 1 and the next faster dimension takes the rest.
 */
static int scale_grid(gc_cloner *c, double f)
{
	uint32_t *g = c->k.grid;
	uint64_t blocks = gc_kernel_blocks(&c->k);
	if (f == 1.0)
		return 0;
	double target = floor((double)blocks * f + 0.5);
	if (target < 1)
		target = 1;
	int s = g[2] > 1 ? 2 : g[1] > 1 ? 1 : 0;
	for (;; s--) {
		double p = 1;
		for (int d = 0; d < s; d++)
			p *= g[d];
		double n = floor(target / p + 0.5);
		if (n < 1 && s > 0) {
			g[s] = 1;
			continue;
		}
		if (n < 1)
			n = 1;
		double max = s == 0 ? GRID_X_MAX : GRID_YZ_MAX;
		if (n > max)
			return fail(c, "--scale %g: %.0f blocks in %c exceed %.0f", f, n, "xyz"[s],
				    max);
		g[s] = (uint32_t)n;
		break;
	}
	if (gc_kernel_blocks(&c->k) > UINT32_MAX)
		return fail(c, "--scale %g: %llu blocks exceed 2^32 - 1", f,
			    (unsigned long long)gc_kernel_blocks(&c->k));
	return 0;
}

/* The counts among the attributes (instructions) scale with the blocks;
 * the others describe the kernel and stay. */
static void scale_attrs(gc_cloner *c, uint64_t oblocks)
{
	if (c->blocks == oblocks)
		return;
	double r = (double)c->blocks / (double)oblocks;
	for (int i = 0; i < c->k.nattr; i++) {
		uint16_t key = c->k.attr_key[i];
		if (key != GC_A_INSTS && key != GC_A_MEM_INSTS && key != GC_A_THREAD_INSTS)
			continue;
		double v = floor((double)c->k.attr_val[i] * r + 0.5);
		c->k.attr_val[i] = v >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)v;
	}
}

/* A distribution reduced to one value: its most frequent exact value, else
 * the smallest magnitude of its fullest bin (a multiple of its align). */
static int mode_of(const gc_pdist *d, int64_t *v)
{
	if (gc_pdist_mode(d, v))
		return 1;
	uint64_t best = 0;
	for (uint32_t i = 0; i < d->nbin; i++) {
		if (d->bin[i].cnt > best) {
			best = d->bin[i].cnt;
			uint64_t m = UINT64_C(1) << d->bin[i].exp;
			*v = d->bin[i].sign < 0 ? (int64_t)(0 - m) : (int64_t)m;
		}
	}
	return best > 0;
}

/* A distribution has a value to draw (not only none). */
static int has_values(const gc_pdist *d)
{
	return d->total > d->none;
}

/* A distribution that can only draw one value (its mode): no draw needed. */
static int one_value(const gc_pdist *d)
{
	return d->none == 0 && d->nexact == 1 && d->nbin == 0;
}

static int copy_inst(gc_cloner *c, uint32_t i, const gc_pinst *p, double f)
{
	struct cinst *q = &c->inst[i];
	q->pc = p->pc;
	q->op = p->op;
	q->space = p->space;
	q->flags = p->flags;
	q->size = p->size;
	q->base = p->base;
	for (int x = 0; x < GC_PE_NCTX; x++)
		if (gc_pdist_copy(&q->pe[x], &p->pe[x]) < 0 || gc_pdist_prepare(&q->pe[x]) < 0)
			return -2;
	if (gc_pdist_copy(&q->pa, &p->pa) < 0 || gc_pdist_prepare(&q->pa) < 0)
		return -2;
	if (p->op < GC_LOAD || p->op > GC_ATOMIC)
		return fail(c, "instruction %u: op %u is not load, store or atomic", i, p->op);
	if (p->space >= GC_NSPACES)
		return fail(c, "instruction %u: space %u is not a memory space", i, p->space);
	if (p->size == 0 || p->size > 255)
		return fail(c, "instruction %u: size %u is not 1 to 255 bytes", i, p->size);
	if (p->lo > p->hi)
		return fail(c, "instruction %u: extent %lld to %lld is empty", i, (long long)p->lo,
			    (long long)p->hi);
	/* The extent, F times as wide for F > 1, wrapped by a multiple of the
	 * access size so that a wrapped address keeps its alignment. */
	double width = (double)p->hi - (double)p->lo;
	if (f > 1)
		width = floor(width * f);
	if (width > 0x1p62)
		width = 0x1p62;
	uint64_t w = (uint64_t)width;
	q->lo = p->base + (uint64_t)p->lo;
	q->hi = q->lo + w;
	q->wrap = w - w % p->size;
	if (c->ablate & GC_ABL_EXTENT)
		q->wrap = 0;
	/* P_E: a context without samples draws from the nearest faster one
	 * that has them (none: a stride of 0). */
	for (int x = 0; x < GC_PE_NCTX; x++) {
		q->pe_src[x] = -1;
		for (int y = x; y < GC_PE_NCTX; y++)
			if (has_values(&q->pe[y])) {
				q->pe_src[x] = y;
				break;
			}
		q->pe_mode[x] = 0;
		q->pe_one[x] = 0;
		if (q->pe_src[x] >= 0) {
			mode_of(&q->pe[q->pe_src[x]], &q->pe_mode[x]);
			q->pe_one[x] = (c->ablate & GC_ABL_PE) || one_value(&q->pe[q->pe_src[x]]);
		}
	}
	q->pa_has = has_values(&q->pa);
	q->pa_mode = 0;
	q->pa_one = 0;
	if (q->pa_has) {
		mode_of(&q->pa, &q->pa_mode);
		q->pa_one = (c->ablate & GC_ABL_PA) || one_value(&q->pa);
	}
	q->stamp = 0;
	return 0;
}

/* The LRU stack depth a profile needs: one more than the largest reuse
 * distance its P_R can draw, at most the profiler's limit. */
static int reuse_depth(gc_cloner *c, uint32_t i, const gc_pdist *d, unsigned *depth)
{
	uint64_t max = 0;
	int any = 0;
	for (uint32_t j = 0; j < d->nexact; j++) {
		if (d->val[j] < 0)
			return fail(c, "profile %u: P_R has the negative reuse distance %lld", i,
				    (long long)d->val[j]);
		if ((uint64_t)d->val[j] >= max)
			max = (uint64_t)d->val[j];
		any = 1;
	}
	for (uint32_t j = 0; j < d->nbin; j++) {
		if (d->bin[j].sign < 0)
			return fail(c, "profile %u: P_R has a bin of negative reuse distances", i);
		uint64_t top = d->bin[j].exp >= 63 ? UINT64_MAX : (UINT64_C(2) << d->bin[j].exp) - 1;
		if (top >= max)
			max = top;
		any = 1;
	}
	*depth = !any ? 0 : max >= GC_PROF_REUSE_DEPTH_MAX ? GC_PROF_REUSE_DEPTH_MAX
							      : (unsigned)max + 1;
	return 0;
}

static int copy_prof(gc_cloner *c, uint32_t i, const gc_pprof *p)
{
	struct cprof *q = &c->prof[i];
	q->threads = p->threads;
	q->len = p->len;
	if (p->len) {
		q->e = malloc((size_t)p->len * sizeof *q->e);
		if (!q->e)
			return -2;
		memcpy(q->e, p->e, (size_t)p->len * sizeof *q->e);
	}
	if (gc_pdist_copy(&q->pr, &p->pr) < 0 || gc_pdist_prepare(&q->pr) < 0)
		return -2;
	for (uint32_t j = 0; j < p->len; j++)
		if (p->e[j].inst >= c->ninst)
			return fail(c, "profile %u entry %u: instruction %u out of range (%u "
				    "instructions)", i, j, p->e[j].inst, c->ninst);
	if (reuse_depth(c, i, &q->pr, &q->depth) < 0)
		return -1;
	if (c->ablate & GC_ABL_PR)
		q->depth = 0;
	return 0;
}

static int check_runs(gc_cloner *c, const gc_pkernel *k)
{
	for (uint32_t i = 0; i < k->nrun; i++) {
		const gc_prun *r = &k->run[i];
		if (i == 0 && r->first != 0)
			return fail(c, "run 0 starts at thread %llu, not 0",
				    (unsigned long long)r->first);
		if (i > 0 && r->first <= k->run[i - 1].first)
			return fail(c, "run %u: thread %llu does not follow %llu", i,
				    (unsigned long long)r->first,
				    (unsigned long long)k->run[i - 1].first);
		if (r->first >= k->threads)
			return fail(c, "run %u: thread %llu beyond the %llu threads", i,
				    (unsigned long long)r->first, (unsigned long long)k->threads);
		if (r->prof >= k->nprof)
			return fail(c, "run %u: profile %u out of range (%u profiles)", i, r->prof,
				    k->nprof);
	}
	return 0;
}

/* Everything but the distributions' copies; -1 a bad section. */
static int setup(gc_cloner *c, const gc_pkernel *k, unsigned ws, const gc_clone_opts *o)
{
	const gc_kernel *ok = &k->k;
	if (!(o->scale > 0) || o->scale > 1e9)
		return fail(c, "scale %g is not a positive factor", o->scale);
	if (ws < 1 || ws > WARP_SIZE_MAX)
		return fail(c, "warp size %u is not 1 to %d", ws, WARP_SIZE_MAX);
	for (int d = 0; d < 3; d++)
		if (ok->grid[d] == 0 || ok->block[d] == 0)
			return fail(c, "grid %ux%ux%u or block %ux%ux%u has a dimension of 0",
				    ok->grid[0], ok->grid[1], ok->grid[2], ok->block[0],
				    ok->block[1], ok->block[2]);
	uint64_t tpb = gc_kernel_threads_per_block(ok), oblocks = gc_kernel_blocks(ok);
	if (tpb > 1024 * 1024)
		return fail(c, "%llu threads a block", (unsigned long long)tpb);
	if (k->threads != oblocks * tpb)
		return fail(c, "%llu threads, not the %llu of %llu blocks of %llu",
			    (unsigned long long)k->threads, (unsigned long long)(oblocks * tpb),
			    (unsigned long long)oblocks, (unsigned long long)tpb);
	uint64_t sum = 0;
	for (uint32_t i = 0; i < k->nprof; i++)
		sum += k->prof[i].threads;
	if (sum != k->threads)
		return fail(c, "the profiles have %llu threads, the kernel %llu",
			    (unsigned long long)sum, (unsigned long long)k->threads);
	if (check_runs(c, k) < 0)
		return -1;
	c->ws = ws;
	c->tpb = (unsigned)tpb;
	c->nwarps = (c->tpb + ws - 1) / ws;
	c->othreads = k->threads;
	if (scale_grid(c, o->scale) < 0)
		return -1;
	c->blocks = gc_kernel_blocks(&c->k);
	c->threads = c->blocks * tpb;
	scale_attrs(c, oblocks);
	return 0;
}

gc_cloner *gc_cloner_new(const gc_pkernel *k, unsigned warp_size, const gc_clone_opts *o)
{
	gc_cloner *c = calloc(1, sizeof *c);
	if (!c)
		return NULL;
	c->k = k->k;
	c->ablate = o->ablate;
	c->rng = gc_splitmix64_at(o->seed, k->k.id);
	if (setup(c, k, warp_size, o) < 0)
		return c;
	c->ninst = k->ninst;
	c->nprof = k->nprof;
	c->nrun = (o->ablate & (GC_ABL_RUNS | GC_ABL_Q)) ? 0 : k->nrun;
	c->inst = calloc(k->ninst ? k->ninst : 1, sizeof *c->inst);
	c->prof = calloc(k->nprof ? k->nprof : 1, sizeof *c->prof);
	c->run = malloc((k->nrun ? k->nrun : 1) * sizeof *c->run);
	c->qcum = malloc((k->nprof ? k->nprof : 1) * sizeof *c->qcum);
	c->lprof = malloc(c->ws * sizeof *c->lprof);
	c->lcur = malloc(c->ws * sizeof *c->lcur);
	c->lseq = malloc(c->ws * sizeof *c->lseq);
	c->loff = malloc((c->ws + 1) * sizeof *c->loff);
	c->stack = malloc(GC_PROF_REUSE_DEPTH_MAX * sizeof *c->stack);
	if (!c->inst || !c->prof || !c->run || !c->qcum || !c->lprof || !c->lcur || !c->lseq ||
	    !c->loff || !c->stack)
		goto oom;
	for (uint32_t i = 0; i < k->ninst; i++) {
		for (int x = 0; x < GC_PE_NCTX; x++)
			gc_pdist_init(&c->inst[i].pe[x]);
		gc_pdist_init(&c->inst[i].pa);
	}
	for (uint32_t i = 0; i < k->nprof; i++)
		gc_pdist_init(&c->prof[i].pr);
	for (uint32_t i = 0; i < k->ninst; i++) {
		int r = copy_inst(c, i, &k->inst[i], o->scale);
		if (r == -2)
			goto oom;
		if (r < 0)
			return c;
	}
	uint64_t cum = 0;
	for (uint32_t i = 0; i < k->nprof; i++) {
		int r = copy_prof(c, i, &k->prof[i]);
		if (r == -2)
			goto oom;
		if (r < 0)
			return c;
		cum += k->prof[i].threads;
		c->qcum[i] = cum;
	}
	if (k->nrun)
		memcpy(c->run, k->run, k->nrun * sizeof *c->run);
	return c;
oom:
	gc_cloner_free(c);
	return NULL;
}

const char *gc_cloner_error(const gc_cloner *c)
{
	return c->bad ? c->err : NULL;
}

const gc_kernel *gc_cloner_kernel(const gc_cloner *c)
{
	return &c->k;
}

void gc_cloner_free(gc_cloner *c)
{
	if (!c)
		return;
	if (c->inst)
		for (uint32_t i = 0; i < c->ninst; i++) {
			for (int x = 0; x < GC_PE_NCTX; x++)
				gc_pdist_free(&c->inst[i].pe[x]);
			gc_pdist_free(&c->inst[i].pa);
		}
	if (c->prof)
		for (uint32_t i = 0; i < c->nprof; i++) {
			free(c->prof[i].e);
			gc_pdist_free(&c->prof[i].pr);
		}
	free(c->inst);
	free(c->prof);
	free(c->run);
	free(c->qcum);
	free(c->lprof);
	free(c->lcur);
	free(c->lseq);
	free(c->loff);
	free(c->stack);
	free(c->addr);
	free(c);
}

/* ---- Algorithm 1: one thread --------------------------------------------------- */

/* Thread t's profile: by the runs (thread t of the scaled grid is thread
 * floor(t * threads / threads') of the original), else drawn from Q. */
static uint32_t pick_profile(gc_cloner *c, uint64_t t)
{
	if (c->ablate & GC_ABL_Q)
		return 0;
	if (c->nrun) {
		uint64_t ot = t;
		if (c->threads != c->othreads)
			ot = (uint64_t)(((unsigned __int128)t * c->othreads) / c->threads);
		while (c->runcur + 1 < c->nrun && c->run[c->runcur + 1].first <= ot)
			c->runcur++;
		return c->run[c->runcur].prof;
	}
	if (c->nprof == 1)
		return 0;
	uint64_t u = mulhi(gc_splitmix64(&c->rng), c->qcum[c->nprof - 1]);
	uint32_t lo = 0, hi = c->nprof - 1;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (c->qcum[mid] > u)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* An address outside the instruction's extent wraps into it. */
static inline uint64_t wrap(const struct cinst *q, uint64_t a)
{
	if (q->wrap == 0 || (a >= q->lo && a < q->hi))
		return a;
	int64_t off = (int64_t)(a - q->lo) % (int64_t)q->wrap;
	if (off < 0)
		off += (int64_t)q->wrap;
	return q->lo + (uint64_t)off;
}

/* The first instance of an instruction in thread t: its context's anchor
 * plus a draw from P_E of that context (or the fallback's). */
static uint64_t first_address(gc_cloner *c, struct cinst *q, uint64_t t)
{
	/* When the previous executor is the previous thread, the context is
	 * the level thread order carried at from it to t (gc_panchor_ctx's
	 * rule, without its divisions). */
	int x = c->carry >= 0 && q->anc.seen && q->anc.last + 1 == t
			? c->carry
			: gc_panchor_ctx(&c->k, &q->anc, t);
	uint64_t a = q->base;
	if (x >= 0) {
		int64_t s = 0;
		int src = q->pe_src[x];
		if (src >= 0) {
			if (q->pe_one[x])
				s = q->pe_mode[x];
			else if (!gc_pdist_draw(&q->pe[src], gc_splitmix64(&c->rng), &s))
				s = 0;
		}
		a = wrap(q, q->anc.first[x] + (uint64_t)s);
	}
	gc_panchor_set(&q->anc, x, t, a);
	return a;
}

/* A later instance: a reuse of the address at depth d of the LRU stack
 * when P_A allows the stride to it, else the previous address plus a draw
 * from P_A. */
static uint64_t later_address(gc_cloner *c, struct cinst *q, const struct cprof *p,
			      unsigned sp)
{
	if (sp) {
		int64_t d;
		if (gc_pdist_draw(&p->pr, gc_splitmix64(&c->rng), &d) && d >= 0 &&
		    (uint64_t)d < sp) {
			uint64_t cand = c->stack[d];
			if (gc_pdist_has(&q->pa, (int64_t)(cand - q->prev)))
				return cand;
		}
	}
	int64_t s = 0;
	if (q->pa_has) {
		if (q->pa_one)
			s = q->pa_mode;
		else if (!gc_pdist_draw(&q->pa, gc_splitmix64(&c->rng), &s))
			s = 0;
	}
	return wrap(q, q->prev + (uint64_t)s);
}

/* Move a to the top of the LRU stack of sp addresses (at most depth). */
static inline unsigned lru_touch(uint64_t *st, unsigned sp, unsigned depth, uint64_t a)
{
	unsigned i = 0;
	while (i < sp && st[i] != a)
		i++;
	if (i == sp) {
		if (sp < depth)
			sp++;
		i = sp - 1;
	}
	memmove(st + 1, st, i * sizeof *st);
	st[0] = a;
	return sp;
}

static void gen_thread(gc_cloner *c, const struct cprof *p, uint64_t t, uint64_t *out)
{
	unsigned sp = 0;
	const uint64_t me = ++c->tstamp;
	for (uint32_t j = 0; j < p->len; j++) {
		struct cinst *q = &c->inst[p->e[j].inst];
		uint64_t a;
		if (q->stamp != me) {
			q->stamp = me;
			a = first_address(c, q, t);
		} else {
			a = later_address(c, q, p, sp);
		}
		q->prev = a;
		if (p->depth)
			sp = lru_touch(c->stack, sp, p->depth, a);
		out[j] = a;
	}
}

/* ---- Algorithm 2: warps, blocks ------------------------------------------------- */

/* The next thread of the block in thread order: tx, then ty, then tz. */
static inline void step(gc_cloner *c)
{
	if (++c->tx < c->k.block[0]) {
		c->carry = GC_PE_TX;
	} else if (c->tx = 0, ++c->ty < c->k.block[1]) {
		c->carry = GC_PE_TY;
	} else {
		c->ty = 0;
		c->carry = GC_PE_TZ;
	}
}

/* Make the addresses of warp w of block b; -1 out of memory. */
static int gen_warp(gc_cloner *c)
{
	const unsigned first = c->w * c->ws;
	const uint64_t t0 = c->b * c->tpb + first;
	c->nl = c->tpb - first < c->ws ? c->tpb - first : c->ws;
	c->tx = first % c->k.block[0];
	c->ty = first / c->k.block[0] % c->k.block[1];
	c->carry = -1;
	uint64_t off = 0;
	for (unsigned l = 0; l < c->nl; l++) {
		if (l > 0)
			step(c);
		c->lprof[l] = pick_profile(c, t0 + l);
		const struct cprof *p = &c->prof[c->lprof[l]];
		c->loff[l] = off;
		if (off + p->len > c->addrcap) {
			size_t cap = c->addrcap ? c->addrcap : 4096;
			while (cap < off + p->len)
				cap *= 2;
			uint64_t *n = realloc(c->addr, cap * sizeof *n);
			if (!n) {
				snprintf(c->err, sizeof c->err, "kernel %u: out of memory", c->k.id);
				c->bad = 1;
				return -1;
			}
			c->addr = n;
			c->addrcap = cap;
		}
		gen_thread(c, p, t0 + l, c->addr + off);
		off += p->len;
		c->lcur[l] = 0;
		c->lseq[l] = p->len ? p->e[0].dseq : 0;
	}
	c->uni = 1;
	for (unsigned l = 1; l < c->nl; l++)
		if (c->lprof[l] != c->lprof[0])
			c->uni = 0;
	c->have = 0;
	return 0;
}

/* The next warp instruction: the smallest (seq, instruction) among the
 * lanes' next entries; 0 when the warp is done. */
static int next_inst(gc_cloner *c)
{
	int found = 0;
	c->ili = 0;
	if (c->uni) {
		/* The lanes go together: lane 0's cursor is every lane's. */
		const struct cprof *p = &c->prof[c->lprof[0]];
		if (c->lcur[0] >= p->len)
			return c->have = 0;
		c->iseq = c->lseq[0];
		c->ik = p->e[c->lcur[0]].inst;
		return c->have = 1;
	}
	for (unsigned l = 0; l < c->nl; l++) {
		const struct cprof *p = &c->prof[c->lprof[l]];
		if (c->lcur[l] >= p->len)
			continue;
		uint32_t k = p->e[c->lcur[l]].inst;
		if (!found || c->lseq[l] < c->iseq || (c->lseq[l] == c->iseq && k < c->ik)) {
			c->iseq = c->lseq[l];
			c->ik = k;
			found = 1;
		}
	}
	c->have = found;
	return found;
}

size_t gc_cloner_next(gc_cloner *c, gc_rec *recs, size_t max)
{
	size_t n = 0;
	if (c->bad)
		return (size_t)-1;
	while (n < max) {
		if (!c->in_warp) {
			if (c->b >= c->blocks)
				break;
			if (gen_warp(c) < 0)
				return (size_t)-1;
			c->in_warp = 1;
		}
		if (!c->have && !next_inst(c)) {
			c->in_warp = 0;
			if (++c->w == c->nwarps) {
				c->w = 0;
				c->b++;
			}
			continue;
		}
		const struct cinst *q = &c->inst[c->ik];
		gc_rec r;
		memset(&r, 0, sizeof r);
		r.op = q->op;
		r.space = q->space;
		r.flags = q->flags;
		r.size = q->size;
		r.pc = q->pc;
		r.seq = (uint32_t)c->iseq;
		r.block = (uint32_t)c->b;
		r.warp = (uint16_t)c->w;
		r.kernel = c->k.id;
		if (c->uni) {
			const struct cprof *p = &c->prof[c->lprof[0]];
			const uint32_t j = c->lcur[0];
			const uint64_t *a = c->addr + j;
			for (; c->ili < c->nl && n < max; c->ili++) {
				gc_rec *o = &recs[n++];
				*o = r;
				o->lane = (uint8_t)c->ili;
				o->addr = a[(size_t)c->ili * p->len];
			}
			if (c->ili == c->nl) {
				c->have = 0;
				if (++c->lcur[0] < p->len)
					c->lseq[0] += p->e[j + 1].dseq;
			}
			continue;
		}
		for (; c->ili < c->nl && n < max; c->ili++) {
			unsigned l = c->ili;
			const struct cprof *p = &c->prof[c->lprof[l]];
			uint32_t j = c->lcur[l];
			if (j >= p->len || c->lseq[l] != c->iseq || p->e[j].inst != c->ik)
				continue;
			gc_rec *o = &recs[n++];
			*o = r;
			o->lane = (uint8_t)l;
			o->addr = c->addr[c->loff[l] + j];
			if (++c->lcur[l] < p->len)
				c->lseq[l] += p->e[j + 1].dseq;
		}
		if (c->ili == c->nl)
			c->have = 0;
	}
	return n;
}
