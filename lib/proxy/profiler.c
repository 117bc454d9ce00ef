/*
 * profiler.c - gc-profile's engine (profiler.h): the per-thread state while
 * a kernel streams by, and the kernel's section at its end.  The
 * clustering of the distinct profiles is profiler_cluster.c's.
 *
 * Hot path, per access record: the thread (its warp's slot, by a table
 * of the grid's warps, or a map for a grid of more than 2^24, cached
 * while the lanes of one warp instruction go by), the static instruction
 * (cached likewise), the thread's next node in the prefix tree (a map
 * from (node, (instruction, seq delta)) to the child, cached for the next
 * lane, which usually takes the same step), its (thread, instruction)
 * pair (its first instructions pinned in its warp's live entry, the
 * others in a map), P_E when the pair is new (new_exec), P_A (runs of
 * equal strides counted at once) and the LRU stack (none while every
 * access was a first instance in a pin).  Nothing is allocated per
 * record: the arrays grow geometrically, the maps by doubling, and the
 * two that grow with the retired threads (the spill, tnode) by chunks of
 * a huge page that never move.
 *
 * Why this shape: a stream of 4M threads makes 12M pairs, and keeping
 * them for the kernel (28 bytes each) cost more in first touches of new
 * memory (page faults) than all the rest.  So nothing is kept per pair
 * that the end needs: P_E is built online, and a retired warp's pins go
 * to the spill, packed by differences from the previous lane.
 *
 * Live warps: a ring of live_warps entries, each the state, pins and LRU
 * stacks of one warp's threads; a warp not live takes the next entry,
 * retiring its owner (the warp made live longest ago: its nodes to
 * tnode, its counts of non-first accesses to nnf, the rest to the spill).
 * A new warp's entry is cleared lane by lane; a retired warp seen again
 * gets its state back from its last chunk in the spill (its counts taken
 * back from nnf) and starts with empty stacks.
 */
#include "proxy/profiler.h"

#include "base/grow.h"
#include "base/hash.h"
#include "proxy/profiler_impl.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define NPIN 8                            /* (instruction, pair) entries in a thread */
#define INST_BITS 24                      /* static instructions per kernel: < 2^24 */
#define DIST_BITS 9                       /* reuse distances: < 2^9 */

#define NONE UINT32_MAX
#define WSLOT_MAX (UINT64_C(1) << 24)        /* warps of a grid that a table indexes */
#define CHUNK ((size_t)2 << 20)              /* the spill's and tnode's chunks: a huge page */

/* What a thread keeps while its warp is live: its first NPIN (thread,
 * instruction) pairs, the pins. */
struct lthr {
	uint8_t npin;
	uint8_t stacked;         /* its LRU stack is kept; else every access so far was
				  * a first instance, each in a pin, in order */
	uint16_t nstack;         /* addresses on its LRU stack */
	uint32_t node;           /* in the prefix tree */
	uint32_t lastseq;
	uint64_t nonfirst;       /* accesses that were no first instance */
	uint32_t pinst[NPIN];    /* its first instructions ... */
	struct {
		uint64_t first;  /* ... their first addresses (P_E's, for an
				  * instruction not in thread order) ... */
		uint64_t last;   /* ... and last addresses (P_A's) */
	} pin[NPIN];
};

/* A warp of the kernel. */
struct slot {
	uint64_t base;           /* its lane 0's thread */
	uint32_t live;           /* its live entry, or NONE */
	uint32_t pad;
	uint64_t spill;          /* its pins as retired last: chunk * CHUNK + offset + 1
				  * in the spill; 0 while never retired */
};

/* A pair past its thread's first NPIN: in the M_PAIR map, for the kernel. */
struct pair {
	uint32_t tidx, inst;
	uint64_t first, last;    /* its first and last addresses */
};

/* P_E's walk over one instruction's executors in thread order
 * (gc_panchor_ctx with the coordinates carried from one to the next). */
struct cwalk {
	uint64_t c[GC_PE_NCTX];
	uint64_t last;
	int seen;
};

struct inst {
	uint64_t key;            /* pc, size, flags, space, op packed */
	uint64_t lo, hi;         /* lowest address, highest address + size */
	uint64_t accesses;
	gc_pdist_builder pa;
	/* P_E built as the executors come, while they come in thread order */
	uint64_t nex;            /* executors */
	int unsorted;            /* one came out of order: P_E from all of them at the end */
	uint64_t base;           /* the first executor's first address */
	struct cwalk cw;
	gc_panchor a;
	gc_pdist_builder pe[GC_PE_NCTX];
};

/* One executor of an instruction not in thread order, for P_E at the end. */
struct exec {
	uint64_t thread, addr;
	uint32_t inst;
};

/* Memory in chunks of CHUNK bytes that never move (no copy as it grows),
 * kept from kernel to kernel. */
struct chunks {
	uint8_t **c;
	size_t n, cap;
};

/* The maps of a kernel. */
enum {
	M_SLOT,  /* block << 16 | warp -> slot, for a grid of more than WSLOT_MAX warps */
	M_INST,  /* instruction key -> index */
	M_STEP,  /* inst << 32 | dseq -> step id */
	M_TREE,  /* node << 32 | step -> child */
	M_PAIR,  /* tidx << INST_BITS | inst -> pair, past a thread's first NPIN */
	M_REUSE, /* tidx << DIST_BITS | distance -> count: P_R's finite distances */
	NMAP,
};

struct gc_profiler {
	gc_profiler_opts o;
	gc_hmap map[NMAP];
	unsigned ws;
	char err[256];

	/* the kernel */
	int in_kernel;
	gc_kernel k;
	uint64_t blocks, bsize, threads, accesses;

	/* threads: warp slots of ws thread states each */
	struct slot *slot;
	size_t nslot, cslot;
	uint32_t *wslot;         /* block * wpb + warp -> slot + 1 (0: none yet), for a
				  * grid of at most WSLOT_MAX warps; else M_SLOT */
	uint64_t wpb;            /* warps per block */
	struct chunks tnode;     /* slot * ws + lane (tnode_of): its node in the prefix
				  * tree, as its warp was retired last (live warps: at
				  * the end) */
	size_t tn_slots;         /* slots a chunk of tnode holds */

	/* the live warps: a ring of live_warps entries, taken in activation
	 * order (the oldest retired for a new one) */
	uint32_t nlive;          /* entries */
	uint32_t *lslot;         /* entry -> its slot, or NONE */
	struct lthr *lthr;       /* entry * ws + lane */
	uint64_t **lstack;       /* entry -> its LRU stacks (ws * reuse_depth), made when
				  * first needed */
	uint64_t nact;           /* activations */
	uint64_t resurrected;    /* activations of retired warps, all kernels */

	/* static instructions */
	struct inst *inst;
	size_t ninst, cinst;

	/* the prefix tree */
	uint32_t nstep;
	gc_pnode *node;
	size_t nnode, cnode;
	uint64_t *nnf;           /* node -> non-first accesses of the retired threads on it */
	size_t cnnf;

	/* (thread, instruction) pairs past a thread's first NPIN */
	struct pair *pair;
	size_t npair, cpair;

	/* the pins of the retired warps, a chunk per retirement (spill_warp) */
	struct chunks spill;
	size_t spill_at;         /* the next chunk's offset: chunk * CHUNK + offset */

	/* P_E's coordinate extents (dims) and instructions not in thread order */
	uint64_t dim[GC_PE_NCTX];
	uint32_t nunsorted;

	/* caches of the hot path */
	uint64_t c_wkey, c_ikey, c_skey, c_nkey;
	size_t c_slot;
	struct lthr *c_lthr;     /* the slot's live threads */
	uint64_t *c_stack;       /* their LRU stacks, or NULL */
	uint32_t c_inst, c_step, c_child;
	/* P_A: a run of equal strides of one instruction not yet counted */
	uint32_t pa_inst;
	int64_t pa_val;
	uint64_t pa_n;

	gc_pdist_builder pe[GC_PE_NCTX]; /* reused for each instruction */
	gc_pdist_builder pr;             /* reused for each profile */
};

static int fail(gc_profiler *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(gc_profiler *p, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(p->err, sizeof p->err, fmt, ap);
	va_end(ap);
	return -1;
}

static int oom(gc_profiler *p)
{
	return fail(p, "out of memory");
}

/* Grow *a (of *cap elements of size sz) to hold at least n; -1 out of
 * memory. */
static int grow(void **a, size_t *cap, size_t n, size_t sz)
{
	void *q = gc_grow(*a, cap, n, sz, 64);
	if (!q)
		return -1;
	*a = q;
	return 0;
}

/* Huge pages asked for the whole pages of len bytes at q: first touches
 * of new memory are the profiler's dearest cost, one fault per 2 MiB
 * instead of 512 where the system gives huge pages on request. */
static void huge(void *q, size_t len)
{
#ifdef MADV_HUGEPAGE
	(void)madvise(q, len, MADV_HUGEPAGE);
#else
	(void)q;
	(void)len;
#endif
}

/* n bytes (a multiple of CHUNK) aligned to CHUNK, huge pages asked for;
 * NULL out of memory. */
static void *huge_alloc(size_t n)
{
	void *q = aligned_alloc(CHUNK, n);
	if (q)
		huge(q, n);
	return q;
}

/* Chunk i of ch, made when new; NULL out of memory. */
static uint8_t *chunk(struct chunks *ch, size_t i)
{
	while (ch->n <= i) {
		if (ch->n == ch->cap) {
			size_t c = ch->cap ? 2 * ch->cap : 16;
			uint8_t **q = realloc(ch->c, c * sizeof *q);
			if (!q)
				return NULL;
			ch->c = q;
			ch->cap = c;
		}
		if (!(ch->c[ch->n] = huge_alloc(CHUNK)))
			return NULL;
		ch->n++;
	}
	return ch->c[i];
}

static void chunks_free(struct chunks *ch)
{
	for (size_t i = 0; i < ch->n; i++)
		free(ch->c[i]);
	free(ch->c);
}

void gc_profiler_opts_default(gc_profiler_opts *o)
{
	o->similarity = GC_PROF_SIMILARITY;
	o->max_exact = GC_PDIST_EXACT_DEFAULT;
	o->reuse_depth = GC_PROF_REUSE_DEPTH;
	o->max_profiles = GC_PROF_MAX_PROFILES;
	o->max_runs = GC_PROF_MAX_RUNS;
	o->live_warps = GC_PROF_LIVE_WARPS;
}

gc_profiler *gc_profiler_new(const gc_profiler_opts *o, unsigned warp_size)
{
	gc_profiler *p = calloc(1, sizeof *p);
	if (!p)
		return NULL;
	p->o = *o;
	if (p->o.reuse_depth < 1)
		p->o.reuse_depth = 1;
	if (p->o.reuse_depth > GC_PROF_REUSE_DEPTH_MAX)
		p->o.reuse_depth = GC_PROF_REUSE_DEPTH_MAX;
	if (p->o.max_profiles < 1)
		p->o.max_profiles = 1;
	if (p->o.live_warps < 1)
		p->o.live_warps = 1;
	p->ws = warp_size ? warp_size : 32;
	p->nlive = p->o.live_warps;
	p->tn_slots = CHUNK / (p->ws * sizeof(uint32_t));
	p->lslot = malloc(p->nlive * sizeof *p->lslot);
	size_t lbytes = (size_t)p->nlive * p->ws * sizeof *p->lthr;
	p->lthr = huge_alloc((lbytes + CHUNK - 1) / CHUNK * CHUNK);
	p->lstack = calloc(p->nlive, sizeof *p->lstack);
	if (!p->lslot || !p->lthr || !p->lstack) {
		gc_profiler_free(p);
		return NULL;
	}
	int bad = gc_pdist_builder_init(&p->pr);
	for (int m = 0; m < NMAP; m++)
		bad |= gc_hmap_init(&p->map[m], 0);
	for (int c = 0; c < GC_PE_NCTX; c++)
		bad |= gc_pdist_builder_init(&p->pe[c]);
	if (bad) {
		gc_profiler_free(p);
		return NULL;
	}
	return p;
}

const char *gc_profiler_error(const gc_profiler *p)
{
	return p->err;
}

/* The instructions' builders, freed; everything of a kernel forgotten
 * (the memory of the maps and arrays kept for the next). */
static void free_insts(gc_profiler *p)
{
	for (size_t i = 0; i < p->ninst; i++) {
		gc_pdist_builder_free(&p->inst[i].pa);
		for (int c = 0; c < GC_PE_NCTX; c++)
			gc_pdist_builder_free(&p->inst[i].pe[c]);
	}
}

static void reset(gc_profiler *p)
{
	free_insts(p);
	p->ninst = p->nslot = p->npair = p->spill_at = 0;
	p->nunsorted = 0;
	p->nnode = 1;
	p->node[0] = (gc_pnode){0, 0, 0, 0};
	p->nnf[0] = 0;
	p->nstep = 0;
	for (int m = 0; m < NMAP; m++)
		gc_hmap_clear(&p->map[m]);
	p->c_wkey = p->c_ikey = p->c_skey = p->c_nkey = UINT64_MAX;
	p->pa_n = 0;
	p->accesses = 0;
	for (uint32_t e = 0; e < p->nlive; e++)
		p->lslot[e] = NONE;
	p->nact = 0;
}

uint64_t gc_profiler_resurrected(const gc_profiler *p)
{
	return p->resurrected;
}

void gc_profiler_free(gc_profiler *p)
{
	if (!p)
		return;
	free_insts(p);
	for (int m = 0; m < NMAP; m++)
		gc_hmap_free(&p->map[m]);
	for (int c = 0; c < GC_PE_NCTX; c++)
		gc_pdist_builder_free(&p->pe[c]);
	gc_pdist_builder_free(&p->pr);
	free(p->slot);
	chunks_free(&p->tnode);
	free(p->wslot);
	free(p->nnf);
	if (p->lstack)
		for (uint32_t e = 0; e < p->nlive; e++)
			free(p->lstack[e]);
	free(p->lstack);
	free(p->lthr);
	free(p->lslot);
	free(p->inst);
	free(p->node);
	free(p->pair);
	chunks_free(&p->spill);
	free(p);
}

static uint64_t dim1(uint64_t v)
{
	return v ? v : 1;
}

/* gc_panchor_ctx of executor t after those walked so far (in thread
 * order), its coordinates kept from one to the next: the next thread's by
 * carrying, another's by division (gc_pthread_coords). */
static int cwalk_ctx(const gc_profiler *p, struct cwalk *w, uint64_t t)
{
	int c = GC_PE_TX;
	if (w->seen && t == w->last + 1) {
		while (c > GC_PE_BZ && w->c[c] + 1 == p->dim[c])
			w->c[c--] = 0;
		w->c[c]++;
	} else if (!w->seen || t != w->last) {
		uint64_t n[GC_PE_NCTX];
		gc_pthread_coords(&p->k, t, n);
		c = -1;
		if (w->seen)
			for (c = 0; c < GC_PE_TX && n[c] == w->c[c]; c++)
				;
		memcpy(w->c, n, sizeof n);
	}
	w->last = t;
	w->seen = 1;
	return c;
}

/* Executor t of instruction in at addr into its P_E: stride from the
 * anchor of its context (B for the first).  An executor out of thread
 * order marks the instruction for the exact path at the end. */
static int pe_walk(gc_profiler *p, struct inst *in, gc_pdist_builder *pe, uint64_t t,
		   uint64_t addr)
{
	int c = cwalk_ctx(p, &in->cw, t);
	if (c < 0)
		in->base = addr;
	else if (gc_pdist_add(&pe[c], (int64_t)(addr - in->a.first[c]), 1) < 0)
		return -1;
	gc_panchor_set(&in->a, c, t, addr);
	return 0;
}

int gc_profiler_kbegin(gc_profiler *p, const gc_kernel *k)
{
	if (p->in_kernel)
		return fail(p, "kernel %u begins inside kernel %u", k->id, p->k.id);
	if (!p->node && (grow((void **)&p->node, &p->cnode, 1, sizeof *p->node) < 0 ||
			 grow((void **)&p->nnf, &p->cnnf, 1, sizeof *p->nnf) < 0))
		return oom(p);
	reset(p);
	p->k = *k;
	p->blocks = gc_kernel_blocks(k);
	p->bsize = gc_kernel_threads_per_block(k);
	if (!p->blocks || !p->bsize)
		return fail(p, "kernel %u: an empty grid or block", k->id);
	if (__builtin_mul_overflow(p->blocks, p->bsize, &p->threads))
		return fail(p, "kernel %u: more than 2^64 threads", k->id);
	p->wpb = (p->bsize + p->ws - 1) / p->ws;
	free(p->wslot);
	p->wslot = NULL;
	if (p->blocks <= WSLOT_MAX / p->wpb &&
	    !(p->wslot = calloc(p->blocks * p->wpb, sizeof *p->wslot)))
		return oom(p);
	p->dim[GC_PE_BZ] = UINT64_MAX;
	p->dim[GC_PE_BY] = dim1(k->grid[1]);
	p->dim[GC_PE_BX] = dim1(k->grid[0]);
	p->dim[GC_PE_TZ] = dim1(k->block[2]);
	p->dim[GC_PE_TY] = dim1(k->block[1]);
	p->dim[GC_PE_TX] = dim1(k->block[0]);
	p->in_kernel = 1;
	return 0;
}

/* ---- the hot path ------------------------------------------------------------ */

/* The LRU stacks of live entry e, made when first needed; NULL out of
 * memory. */
static uint64_t *entry_stack(gc_profiler *p, uint32_t e)
{
	if (!p->lstack[e])
		p->lstack[e] = malloc((size_t)p->ws * p->o.reuse_depth * sizeof **p->lstack);
	return p->lstack[e];
}

/* ---- the spill: the state of retired warps -------------------------------------
 *
 * A warp retired leaves its threads' nodes in tnode, their non-first
 * accesses in nnf (by node), and the rest (last seq, non-first accesses,
 * pins) as a chunk of bytes, lane after lane: a byte of flags (the pin
 * count; whether a last seq, a count of non-first accesses and last
 * addresses other than the first follow), those that do as varints (the
 * last seq as the zigzag difference from the previous lane's), then per
 * pin the zigzag differences of its instruction and first address from
 * the same pin of the previous lane, and of its last address from its
 * first when the flag says so.  In a stream in thread order neighbouring
 * threads run the same instructions at neighbouring addresses: a thread of
 * gc-gen gather takes about 10 bytes where its pairs took 84. */

#define SP_NPIN 0x0f     /* the pin count */
#define SP_SEQ 0x10      /* a last seq other than the previous lane's follows */
#define SP_NONFIRST 0x20 /* a count of non-first accesses other than 0 follows */
#define SP_LAST 0x40     /* each pin's last address follows */
#define SP_INST 0x80     /* the pins' instructions differ from the previous lane's */
#define SP_LANE_MAX (1 + 2 * 10 + NPIN * 30)

static uint8_t *put_varint(uint8_t *b, uint64_t v)
{
	while (v >= 0x80) {
		*b++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*b++ = (uint8_t)v;
	return b;
}

static const uint8_t *get_varint(const uint8_t *b, uint64_t *v)
{
	uint64_t x = 0;
	unsigned sh = 0;
	while (*b & 0x80) {
		x |= (uint64_t)(*b++ & 0x7f) << sh;
		sh += 7;
	}
	*v = x | (uint64_t)*b++ << sh;
	return b;
}

static uint64_t zz(uint64_t d)
{
	return d << 1 ^ (uint64_t)((int64_t)d >> 63);
}

static uint64_t unzz(uint64_t z)
{
	return z >> 1 ^ (uint64_t)-(int64_t)(z & 1);
}

/* Slot s's threads' nodes in tnode (its chunk made when s was). */
static uint32_t *tnode_of(const gc_profiler *p, size_t s)
{
	return (uint32_t *)(void *)p->tnode.c[s / p->tn_slots] + s % p->tn_slots * p->ws;
}

/* The threads of live entry e, slot s's, into tnode and nnf. */
static void park_warp(gc_profiler *p, uint32_t e, size_t s)
{
	const struct lthr *lt = &p->lthr[(size_t)e * p->ws];
	uint32_t *tn = tnode_of(p, s);
	for (unsigned l = 0; l < p->ws; l++) {
		tn[l] = lt[l].node;
		p->nnf[lt[l].node] += lt[l].nonfirst;
	}
}

/* Live entry e, slot s's, retired: parked and spilled. */
static int spill_warp(gc_profiler *p, uint32_t e, size_t s)
{
	const struct lthr *lt = &p->lthr[(size_t)e * p->ws];
	park_warp(p, e, s);
	size_t ci = p->spill_at / CHUNK, off = p->spill_at % CHUNK;
	if (off + (size_t)p->ws * SP_LANE_MAX > CHUNK) {
		ci++;
		off = 0;
	}
	uint8_t *b0 = chunk(&p->spill, ci);
	if (!b0)
		return oom(p);
	uint8_t *b = b0 + off;
	uint64_t pi[NPIN] = {0}, pf[NPIN] = {0};
	uint32_t seq = 0;
	for (unsigned l = 0; l < p->ws; l++) {
		const struct lthr *t = &lt[l];
		unsigned fl = t->npin;
		if (t->lastseq != seq)
			fl |= SP_SEQ;
		if (t->nonfirst)
			fl |= SP_NONFIRST;
		for (unsigned j = 0; j < t->npin; j++) {
			if (t->pin[j].last != t->pin[j].first)
				fl |= SP_LAST;
			if (t->pinst[j] != pi[j])
				fl |= SP_INST;
		}
		*b++ = (uint8_t)fl;
		if (fl & SP_SEQ)
			b = put_varint(b, zz((uint64_t)(int64_t)(int32_t)(t->lastseq - seq)));
		if (fl & SP_NONFIRST)
			b = put_varint(b, t->nonfirst);
		seq = t->lastseq;
		for (unsigned j = 0; j < t->npin; j++) {
			if (fl & SP_INST)
				b = put_varint(b, zz(t->pinst[j] - pi[j]));
			b = put_varint(b, zz(t->pin[j].first - pf[j]));
			if (fl & SP_LAST)
				b = put_varint(b, zz(t->pin[j].last - t->pin[j].first));
			pi[j] = t->pinst[j];
			pf[j] = t->pin[j].first;
		}
	}
	p->slot[s].spill = ci * CHUNK + off + 1;
	p->spill_at = ci * CHUNK + (size_t)(b - b0);
	return 0;
}

/* Slot s's threads as spilled into lt (ws threads; their nodes from
 * tnode). */
static void unspill_warp(const gc_profiler *p, size_t s, struct lthr *lt)
{
	size_t at = p->slot[s].spill - 1;
	const uint8_t *b = p->spill.c[at / CHUNK] + at % CHUNK;
	const uint32_t *tn = tnode_of(p, s);
	uint64_t pi[NPIN] = {0}, pf[NPIN] = {0}, v;
	uint32_t seq = 0;
	for (unsigned l = 0; l < p->ws; l++) {
		struct lthr *t = &lt[l];
		unsigned fl = *b++;
		t->npin = (uint8_t)(fl & SP_NPIN);
		t->node = tn[l];
		if (fl & SP_SEQ) {
			b = get_varint(b, &v);
			seq += (uint32_t)unzz(v);
		}
		t->lastseq = seq;
		t->nonfirst = 0;
		if (fl & SP_NONFIRST)
			b = get_varint(b, &t->nonfirst);
		for (unsigned j = 0; j < t->npin; j++) {
			if (fl & SP_INST) {
				b = get_varint(b, &v);
				pi[j] += unzz(v);
			}
			b = get_varint(b, &v);
			pf[j] += unzz(v);
			t->pinst[j] = (uint32_t)pi[j];
			t->pin[j].first = t->pin[j].last = pf[j];
			if (fl & SP_LAST) {
				b = get_varint(b, &v);
				t->pin[j].last += unzz(v);
			}
		}
	}
}

/* Slot s made live: the oldest live warp retired (spill_warp) when the
 * ring is full; a retired warp coming back gets its state back from the
 * spill (its non-first accesses taken back from nnf) and empty LRU
 * stacks. */
static int activate(gc_profiler *p, size_t s)
{
	uint32_t e = (uint32_t)(p->nact++ % p->nlive);
	if (p->lslot[e] != NONE) {
		if (spill_warp(p, e, p->lslot[e]) < 0)
			return -1;
		p->slot[p->lslot[e]].live = NONE;
	}
	p->lslot[e] = (uint32_t)s;
	struct slot *sl = &p->slot[s];
	sl->live = e;
	struct lthr *lt = &p->lthr[(size_t)e * p->ws];
	if (!sl->spill) {
		for (unsigned l = 0; l < p->ws; l++) {
			lt[l].npin = 0;
			lt[l].stacked = 0;
			lt[l].nstack = 0;
			lt[l].node = 0;
			lt[l].lastseq = 0;
			lt[l].nonfirst = 0;
		}
		return 0;
	}
	p->resurrected++;
	if (!entry_stack(p, e))
		return oom(p);
	unspill_warp(p, s, lt);
	for (unsigned l = 0; l < p->ws; l++) {
		lt[l].stacked = 1;
		lt[l].nstack = 0;
		p->nnf[lt[l].node] -= lt[l].nonfirst;
	}
	return 0;
}

/* The slot of (block, warp), made when new, made live when not. */
static int warp_slot(gc_profiler *p, const gc_rec *r, uint64_t wkey)
{
	if (r->block >= p->blocks)
		return fail(p, "block %u outside the grid of %llu blocks", r->block,
			    (unsigned long long)p->blocks);
	if ((uint64_t)r->warp * p->ws >= p->bsize)
		return fail(p, "warp %u outside the block of %llu threads (warp size %u)", r->warp,
			    (unsigned long long)p->bsize, p->ws);
	int added;
	uint64_t sv, *v = &sv;
	uint32_t *w = NULL;
	if (p->wslot) {
		w = &p->wslot[r->block * p->wpb + r->warp];
		added = !*w;
		sv = (uint64_t)*w - 1;
	} else if (!(v = gc_hmap_put(&p->map[M_SLOT], wkey, &added))) {
		return oom(p);
	}
	if (added) {
		size_t s = p->nslot;
		if ((uint64_t)(s + 1) * p->ws > UINT32_MAX)
			return fail(p, "more than 2^32 threads in one kernel");
		if (grow((void **)&p->slot, &p->cslot, s + 1, sizeof *p->slot) < 0 ||
		    !chunk(&p->tnode, s / p->tn_slots))
			return oom(p);
		p->slot[s] = (struct slot){(uint64_t)r->block * p->bsize + (uint64_t)r->warp * p->ws,
					   NONE, 0, 0};
		p->nslot++;
		*v = s;
		if (w)
			*w = (uint32_t)(s + 1);
	}
	size_t s = (size_t)*v;
	if (p->slot[s].live == NONE && activate(p, s) < 0)
		return -1;
	uint32_t e = p->slot[s].live;
	p->c_wkey = wkey;
	p->c_slot = s;
	p->c_lthr = &p->lthr[(size_t)e * p->ws];
	p->c_stack = p->lstack[e];
	return 0;
}

static int new_inst(gc_profiler *p, uint64_t ikey)
{
	int added;
	uint64_t *v = gc_hmap_put(&p->map[M_INST], ikey, &added);
	if (!v)
		return oom(p);
	if (added) {
		if (p->ninst >= (1u << INST_BITS) - 1)
			return fail(p, "more than %u static instructions in one kernel",
				    (1u << INST_BITS) - 1);
		if (grow((void **)&p->inst, &p->cinst, p->ninst + 1, sizeof *p->inst) < 0)
			return oom(p);
		struct inst *in = &p->inst[p->ninst];
		memset(in, 0, sizeof *in);
		in->key = ikey;
		in->lo = UINT64_MAX;
		int bad = gc_pdist_builder_init(&in->pa);
		for (int c = 0; c < GC_PE_NCTX; c++)
			bad |= gc_pdist_builder_init(&in->pe[c]);
		if (bad)
			return oom(p);
		*v = p->ninst++;
	}
	p->c_ikey = ikey;
	p->c_inst = (uint32_t)*v;
	return 0;
}

/* The child of the thread's node for step (inst, dseq). */
static int tree_step(gc_profiler *p, uint32_t node, uint32_t inst, uint32_t dseq)
{
	uint64_t skey = (uint64_t)inst << 32 | dseq;
	if (skey != p->c_skey) {
		int added;
		uint64_t *v = gc_hmap_put(&p->map[M_STEP], skey, &added);
		if (!v)
			return oom(p);
		if (added) {
			if (p->nstep == UINT32_MAX)
				return fail(p, "more than 2^32 distinct profile entries");
			*v = p->nstep++;
		}
		p->c_skey = skey;
		p->c_step = (uint32_t)*v;
	}
	uint64_t nkey = (uint64_t)node << 32 | p->c_step;
	if (nkey != p->c_nkey) {
		int added;
		uint64_t *v = gc_hmap_put(&p->map[M_TREE], nkey, &added);
		if (!v)
			return oom(p);
		if (added) {
			if (p->nnode >= UINT32_MAX)
				return fail(p, "more than 2^32 profile prefixes");
			if (grow((void **)&p->node, &p->cnode, p->nnode + 1, sizeof *p->node) < 0 ||
			    grow((void **)&p->nnf, &p->cnnf, p->nnode + 1, sizeof *p->nnf) < 0)
				return oom(p);
			p->node[p->nnode] = (gc_pnode){node, inst, dseq, p->node[node].depth + 1};
			p->nnf[p->nnode] = 0;
			*v = p->nnode++;
		}
		p->c_nkey = nkey;
		p->c_child = (uint32_t)*v;
	}
	return 0;
}

/* A new executor of inst: lane's thread of the current warp, at addr.
 * P_E takes it now while the instruction's executors come in thread
 * order; one out of order leaves P_E to the end (finish_unsorted). */
static int new_exec(gc_profiler *p, uint32_t inst, unsigned lane, uint64_t addr)
{
	struct inst *in = &p->inst[inst];
	in->nex++;
	if (in->unsorted)
		return 0;
	uint64_t t = p->slot[p->c_slot].base + lane;
	if (in->cw.seen && t <= in->cw.last) {
		in->unsorted = 1;
		p->nunsorted++;
		return 0;
	}
	if (pe_walk(p, in, in->pe, t, addr) < 0)
		return oom(p);
	return 0;
}

/* The pair of (thread tidx, inst): where its last address is, *isnew
 * when made now (its first and last addresses addr).  The thread's first
 * NPIN instructions are its pins (so a miss there is a new pair while it
 * has fewer); the others are in the map. */
static int find_pair(gc_profiler *p, struct lthr *t, unsigned lane, uint32_t tidx,
		     uint32_t inst, uint64_t addr, uint64_t **last, int *isnew)
{
	unsigned n = t->npin;
	for (unsigned i = 0; i < n; i++)
		if (t->pinst[i] == inst) {
			*last = &t->pin[i].last;
			*isnew = 0;
			return 0;
		}
	if (n < NPIN) {
		if (new_exec(p, inst, lane, addr) < 0)
			return -1;
		t->pinst[n] = inst;
		t->pin[n].first = t->pin[n].last = addr;
		t->npin = (uint8_t)(n + 1);
		*last = &t->pin[n].last;
		*isnew = 1;
		return 0;
	}
	int added;
	uint64_t *v = gc_hmap_put(&p->map[M_PAIR], (uint64_t)tidx << INST_BITS | inst, &added);
	if (!v)
		return oom(p);
	if (added) {
		if (p->npair >= UINT32_MAX)
			return fail(p, "more than 2^32 (thread, instruction) pairs");
		if (grow((void **)&p->pair, &p->cpair, p->npair + 1, sizeof *p->pair) < 0)
			return oom(p);
		p->pair[p->npair] = (struct pair){tidx, inst, addr, addr};
		*v = p->npair++;
		if (new_exec(p, inst, lane, addr) < 0)
			return -1;
	}
	*last = &p->pair[*v].last;
	*isnew = added;
	return 0;
}

static int flush_pa(gc_profiler *p)
{
	if (p->pa_n && gc_pdist_add(&p->inst[p->pa_inst].pa, p->pa_val, p->pa_n) < 0)
		return oom(p);
	p->pa_n = 0;
	return 0;
}

/* addr onto the LRU stack st of n addresses (at most depth), no reuse
 * counted: the new n. */
static unsigned lru_push(uint64_t *st, unsigned n, unsigned depth, uint64_t addr)
{
	unsigned i;
	for (i = 0; i < n; i++)
		if (st[i] == addr)
			break;
	if (i == n) {
		if (n < depth)
			n++;
		else
			i = n - 1;
	}
	for (; i > 0; i--)
		st[i] = st[i - 1];
	st[0] = addr;
	return n;
}

/* The LRU stack of live thread lt (lane) started: its first npin accesses,
 * all first instances, are its first npin pins' first addresses. */
static int stack_start(gc_profiler *p, struct lthr *lt, unsigned lane, unsigned npin)
{
	if (!p->c_stack) {
		p->c_stack = entry_stack(p, p->slot[p->c_slot].live);
		if (!p->c_stack)
			return oom(p);
	}
	uint64_t *st = &p->c_stack[(size_t)lane * p->o.reuse_depth];
	unsigned n = 0;
	for (unsigned j = 0; j < npin; j++)
		n = lru_push(st, n, p->o.reuse_depth, lt->pin[j].last); /* = first */
	lt->nstack = (uint16_t)n;
	lt->stacked = 1;
	return 0;
}

int gc_profiler_add(gc_profiler *p, const gc_rec *r)
{
	if (!p->in_kernel)
		return fail(p, "kernel %u has no begin record", r->kernel);
	if (r->lane >= p->ws)
		return fail(p, "lane %u not below the warp size %u", r->lane, p->ws);
	uint64_t wkey = (uint64_t)r->block << 16 | r->warp;
	if (wkey != p->c_wkey && warp_slot(p, r, wkey) < 0)
		return -1;
	if ((uint64_t)r->warp * p->ws + r->lane >= p->bsize)
		return fail(p, "lane %u of warp %u: thread %llu outside the block of %llu threads",
			    r->lane, r->warp, (unsigned long long)r->warp * p->ws + r->lane,
			    (unsigned long long)p->bsize);
	uint32_t tidx = (uint32_t)(p->c_slot * p->ws + r->lane);
	struct lthr *lt = &p->c_lthr[r->lane];

	uint64_t ikey = (uint64_t)r->pc << 32 | (uint64_t)r->size << 16 |
			(uint64_t)(r->flags & 0xff) << 8 | (uint64_t)(r->space & 0xf) << 4 |
			(r->op & 0xf);
	if (ikey != p->c_ikey && new_inst(p, ikey) < 0)
		return -1;
	uint32_t inst = p->c_inst;
	struct inst *in = &p->inst[inst];
	uint64_t addr = r->addr;
	in->accesses++;
	if (addr < in->lo)
		in->lo = addr;
	uint64_t end = addr + r->size;
	if (end > in->hi)
		in->hi = end;
	p->accesses++;

	/* the profile: one more entry */
	uint32_t dseq = r->seq - lt->lastseq;
	lt->lastseq = r->seq;
	if (tree_step(p, lt->node, inst, dseq) < 0)
		return -1;
	lt->node = p->c_child;

	/* first instance, or a stride for P_A */
	uint64_t *last = NULL;
	int first = 0;
	unsigned npin = lt->npin;
	if (find_pair(p, lt, r->lane, tidx, inst, addr, &last, &first) < 0)
		return -1;
	/* no LRU stack kept while every access was a first instance held in a
	 * pin: made now, from the pins, before their last addresses move */
	int stackless = !lt->stacked && first && lt->npin > npin;
	if (!lt->stacked && !stackless && stack_start(p, lt, r->lane, npin) < 0)
		return -1;
	if (!first) {
		int64_t stride = (int64_t)(addr - *last);
		*last = addr;
		lt->nonfirst++;
		if (p->pa_n && (p->pa_inst != inst || p->pa_val != stride) && flush_pa(p) < 0)
			return -1;
		p->pa_inst = inst;
		p->pa_val = stride;
		p->pa_n++;
	}

	/* the LRU stack: distance = distinct addresses touched since */
	if (stackless)
		return 0;
	uint64_t *st = &p->c_stack[(size_t)r->lane * p->o.reuse_depth];
	unsigned n = lt->nstack, i;
	for (i = 0; i < n; i++)
		if (st[i] == addr)
			break;
	if (i < n) {
		if (!first) {
			uint64_t *c = gc_hmap_put(&p->map[M_REUSE], (uint64_t)tidx << DIST_BITS | i, NULL);
			if (!c)
				return oom(p);
			++*c;
		}
	} else if (n < p->o.reuse_depth) {
		lt->nstack = (uint16_t)(n + 1);
	} else {
		i = n - 1; /* the deepest falls off */
	}
	for (; i > 0; i--)
		st[i] = st[i - 1];
	st[0] = addr;
	return 0;
}

/* ---- the kernel's end --------------------------------------------------------- */

static int by_inst_thread(const void *pa, const void *pb)
{
	const struct exec *a = pa, *b = pb;
	if (a->inst != b->inst)
		return (a->inst > b->inst) - (a->inst < b->inst);
	return (a->thread > b->thread) - (a->thread < b->thread);
}

/* Executor (thread t, first address addr) of instruction inst into ex
 * when the instruction is not in thread order. */
static void exec_put(const gc_profiler *p, struct exec *ex, size_t *n, uint32_t inst,
		     uint64_t t, uint64_t addr)
{
	if (p->inst[inst].unsorted)
		ex[(*n)++] = (struct exec){t, addr, inst};
}

/* P_E of the instructions whose executors did not all come in thread
 * order, from all their executors (the pins of the live warps and of the
 * retired ones, and the pairs of the map) sorted by thread: B in each
 * one's base, P_E in out.  ex holds all their executors. */
static int finish_unsorted(gc_profiler *p, gc_pkernel *out, struct exec *ex)
{
	size_t n = 0;
	struct lthr *tmp = malloc(p->ws * sizeof *tmp);
	if (!tmp)
		return -1;
	for (size_t s = 0; s < p->nslot; s++) {
		const struct slot *sl = &p->slot[s];
		const struct lthr *lt = tmp;
		if (sl->live != NONE)
			lt = &p->lthr[(size_t)sl->live * p->ws];
		else
			unspill_warp(p, s, tmp);
		for (unsigned l = 0; l < p->ws; l++)
			for (unsigned j = 0; j < lt[l].npin; j++)
				exec_put(p, ex, &n, lt[l].pinst[j], sl->base + l, lt[l].pin[j].first);
	}
	free(tmp);
	for (size_t i = 0; i < p->npair; i++) {
		const struct pair *pr = &p->pair[i];
		exec_put(p, ex, &n, pr->inst, p->slot[pr->tidx / p->ws].base + pr->tidx % p->ws,
			 pr->first);
	}
	qsort(ex, n, sizeof *ex, by_inst_thread);
	for (size_t j = 0; j < n;) {
		uint32_t i = ex[j].inst;
		struct inst *in = &p->inst[i];
		memset(&in->cw, 0, sizeof in->cw);
		memset(&in->a, 0, sizeof in->a);
		for (int c = 0; c < GC_PE_NCTX; c++)
			gc_pdist_builder_clear(&p->pe[c]);
		for (; j < n && ex[j].inst == i; j++)
			if (pe_walk(p, in, p->pe, ex[j].thread, ex[j].addr) < 0)
				return -1;
		for (int c = 0; c < GC_PE_NCTX; c++)
			if (gc_pdist_finish(&p->pe[c], p->o.max_exact, &out->inst[i].pe[c]) < 0)
				return -1;
	}
	return 0;
}

/* B, the extent and P_E of every instruction, and P_A. */
static int finish_insts(gc_profiler *p, gc_pkernel *out)
{
	size_t ni = p->ninst;
	struct exec *ex = NULL;
	out->inst = calloc(ni ? ni : 1, sizeof *out->inst);
	int rc = -1;
	if (!out->inst)
		goto out;
	out->ninst = (uint32_t)ni;
	for (size_t i = 0; i < ni; i++) {
		gc_pinst *o = &out->inst[i];
		for (int c = 0; c < GC_PE_NCTX; c++)
			gc_pdist_init(&o->pe[c]);
		gc_pdist_init(&o->pa);
	}
	if (p->nunsorted) {
		uint64_t nex = 0;
		for (size_t i = 0; i < ni; i++)
			if (p->inst[i].unsorted)
				nex += p->inst[i].nex;
		if (nex > SIZE_MAX / sizeof *ex || !(ex = malloc((size_t)nex * sizeof *ex)))
			goto out;
		if (finish_unsorted(p, out, ex) < 0)
			goto out;
	}

	for (size_t i = 0; i < ni; i++) {
		const struct inst *in = &p->inst[i];
		gc_pinst *o = &out->inst[i];
		o->base = in->base;
		o->pc = (uint32_t)(in->key >> 32);
		o->size = (uint16_t)(in->key >> 16);
		o->flags = (uint8_t)(in->key >> 8);
		o->space = (uint8_t)(in->key >> 4 & 0xf);
		o->op = (uint8_t)(in->key & 0xf);
		o->lo = (int64_t)(in->lo - o->base);
		o->hi = (int64_t)(in->hi - o->base);
		o->accesses = in->accesses;
		if (!in->unsorted)
			for (int c = 0; c < GC_PE_NCTX; c++)
				if (gc_pdist_finish(&in->pe[c], p->o.max_exact, &o->pe[c]) < 0)
					goto out;
		if (gc_pdist_finish(&in->pa, p->o.max_exact, &o->pa) < 0)
			goto out;
	}
	rc = 0;
out:
	free(ex);
	return rc;
}

/* The slots in thread order. */
static int slot_order(const void *pa, const void *pb)
{
	const uint64_t *a = pa, *b = pb;
	return (a[0] > b[0]) - (a[0] < b[0]);
}

/* The threads of the kernel in thread order: fn(ctx, first, count, node)
 * for each run of threads on one node (the unseen ones on the root). */
struct walk {
	gc_profiler *p;
	uint64_t *order; /* base, slot pairs */
};

typedef int (*walk_fn)(void *ctx, uint64_t first, uint64_t count, uint32_t node);

static int walk_threads(const struct walk *w, walk_fn fn, void *ctx)
{
	const gc_profiler *p = w->p;
	uint64_t next = 0;
	for (size_t s = 0; s < p->nslot; s++) {
		uint64_t base = w->order[2 * s];
		const uint32_t *t = tnode_of(p, w->order[2 * s + 1]);
		if (base > next && fn(ctx, next, base - next, 0) < 0)
			return -1;
		uint64_t inblock = base % p->bsize, lanes = p->bsize - inblock;
		if (lanes > p->ws)
			lanes = p->ws;
		for (uint64_t l = 0; l < lanes; l++)
			if (fn(ctx, base + l, 1, t[l]) < 0)
				return -1;
		next = base + lanes;
	}
	if (next < p->threads)
		return fn(ctx, next, p->threads - next, 0);
	return 0;
}

/* Threads and first thread per node. */
struct count_ctx {
	uint64_t *cnt, *first;
};

static int count_node(void *ctx, uint64_t first, uint64_t count, uint32_t node)
{
	struct count_ctx *c = ctx;
	if (!c->cnt[node])
		c->first[node] = first;
	c->cnt[node] += count;
	return 0;
}

/* The runs of the threads' profiles. */
struct run_ctx {
	const uint32_t *candof, *cluster;
	gc_prun *run;
	uint32_t nrun, max;
};

static int run_node(void *ctx, uint64_t first, uint64_t count, uint32_t node)
{
	struct run_ctx *c = ctx;
	uint32_t prof = c->cluster[c->candof[node]];
	if (c->nrun && c->run[c->nrun - 1].prof == prof)
		return 0;
	if (c->nrun == c->max)
		return -1; /* too many: no runs */
	c->run[c->nrun++] = (gc_prun){first, prof};
	return 0;
}

/* The profiles: the clusters' representatives, threads and P_R. */
static int finish_profiles(gc_profiler *p, gc_pkernel *out)
{
	size_t nn = p->nnode, depth = p->o.reuse_depth;
	uint64_t *cnt = calloc(nn, sizeof *cnt), *firstt = calloc(nn, sizeof *firstt);
	uint32_t *candof = malloc(nn * sizeof *candof);
	uint64_t *order = malloc((p->nslot ? p->nslot : 1) * 2 * sizeof *order);
	gc_pcand *cand = NULL;
	uint32_t *cluster = NULL, *rep = NULL;
	uint64_t *rcnt = NULL, *nonfirst = NULL;
	int rc = -1;
	if (!cnt || !firstt || !candof || !order)
		goto out;
	for (size_t s = 0; s < p->nslot; s++) {
		order[2 * s] = p->slot[s].base;
		order[2 * s + 1] = s;
	}
	qsort(order, p->nslot, 2 * sizeof *order, slot_order);
	struct walk w = {p, order};
	struct count_ctx cc = {cnt, firstt};
	walk_threads(&w, count_node, &cc);

	/* the distinct profiles, clustered */
	size_t nc = 0;
	for (size_t i = 0; i < nn; i++)
		nc += cnt[i] != 0;
	cand = malloc(nc * sizeof *cand);
	cluster = malloc(nc * sizeof *cluster);
	rep = malloc(nc * sizeof *rep);
	if (!cand || !cluster || !rep)
		goto out;
	nc = 0;
	for (size_t i = 0; i < nn; i++)
		if (cnt[i]) {
			candof[i] = (uint32_t)nc;
			cand[nc++] = (gc_pcand){(uint32_t)i, cnt[i], firstt[i]};
		}
	long ncl = gc_pcluster(p->node, cand, nc, p->o.similarity, p->o.max_profiles, cluster,
			       rep);
	if (ncl < 0)
		goto out;

	/* P_R: the finite distances and the other non-first accesses */
	rcnt = calloc((size_t)ncl * depth, sizeof *rcnt);
	nonfirst = calloc((size_t)ncl, sizeof *nonfirst);
	out->prof = calloc((size_t)ncl, sizeof *out->prof);
	if (!rcnt || !nonfirst || !out->prof)
		goto out;
	out->nprof = (uint32_t)ncl;
	for (long j = 0; j < ncl; j++)
		gc_pdist_init(&out->prof[j].pr);
	for (size_t i = 1; i < nn; i++)
		if (cnt[i])
			nonfirst[cluster[candof[i]]] += p->nnf[i];
	size_t it = 0;
	uint64_t key, val;
	while (gc_hmap_next(&p->map[M_REUSE], &it, &key, &val)) {
		uint64_t tidx = key >> DIST_BITS;
		uint32_t node = tnode_of(p, tidx / p->ws)[tidx % p->ws];
		rcnt[(size_t)cluster[candof[node]] * depth + (key & ((1u << DIST_BITS) - 1))] += val;
	}
	for (size_t i = 0; i < nc; i++)
		out->prof[cluster[i]].threads += cand[i].threads;
	for (long j = 0; j < ncl; j++) {
		gc_pprof *o = &out->prof[j];
		const gc_pnode *rn = &p->node[cand[rep[j]].node];
		o->len = rn->depth;
		o->e = malloc((o->len ? o->len : 1) * sizeof *o->e);
		if (!o->e)
			goto out;
		gc_ptree_entries(p->node, cand[rep[j]].node, o->e);
		gc_pdist_builder_clear(&p->pr);
		uint64_t finite = 0;
		for (size_t d = 0; d < depth; d++) {
			uint64_t c = rcnt[(size_t)j * depth + d];
			if (c && gc_pdist_add(&p->pr, (int64_t)d, c) < 0)
				goto out;
			finite += c;
		}
		gc_pdist_add_none(&p->pr, nonfirst[j] - finite);
		if (gc_pdist_finish(&p->pr, p->o.max_exact, &o->pr) < 0)
			goto out;
	}

	/* runs, when there are few enough */
	if (p->o.max_runs) {
		struct run_ctx rc2 = {candof, cluster, NULL, 0, p->o.max_runs};
		rc2.run = malloc(p->o.max_runs * sizeof *rc2.run);
		if (!rc2.run)
			goto out;
		if (walk_threads(&w, run_node, &rc2) < 0) {
			free(rc2.run);
		} else {
			out->run = rc2.run;
			out->nrun = rc2.nrun;
		}
	}
	rc = 0;
out:
	free(cnt);
	free(firstt);
	free(candof);
	free(order);
	free(cand);
	free(cluster);
	free(rep);
	free(rcnt);
	free(nonfirst);
	return rc;
}

int gc_profiler_kend(gc_profiler *p, gc_pkernel *out)
{
	memset(out, 0, sizeof *out);
	if (!p->in_kernel)
		return fail(p, "a kernel end without its begin record");
	p->in_kernel = 0;
	if (flush_pa(p) < 0)
		return -1;
	for (uint32_t e = 0; e < p->nlive; e++)
		if (p->lslot[e] != NONE)
			park_warp(p, e, p->lslot[e]);
	out->k = p->k;
	out->threads = p->threads;
	out->accesses = p->accesses;
	if (finish_insts(p, out) < 0 || finish_profiles(p, out) < 0) {
		gc_pkernel_free(out);
		memset(out, 0, sizeof *out);
		return oom(p);
	}
	return 0;
}
