/*
 * model/l1_impl.h - the L1 engine's state, shared by its files (l1.c,
 * l1_class.c, l1_input.c, l1_timing.c, l1_ahead.c) and by nothing else:
 * the API is model/l1.h.
 */
#ifndef GC_MODEL_L1_IMPL_H
#define GC_MODEL_L1_IMPL_H

#include "base/bigmem.h"
#include "base/endian.h"
#include "base/hash.h"
#include "base/pctab.h"
#include "base/rowmap.h"
#include "config/gpu.h"
#include "model/cache.h"
#include "model/l1.h"
#include "model/l1queue.h"
#include "model/prefetch.h"
#include "stream/format.h"

#include <setjmp.h>
#include <stdint.h>
#include <string.h>

#define INST_MAX 256   /* longest instruction issued at once */
#define NONE32 UINT32_MAX

/*
 * The records a warp has read but not yet issued, as its instructions:
 * each a run of consecutive records (an instruction's requests are
 * consecutive in the input) in a slot of 2^c records, the warp's slots
 * linked in order.  The instruction read last stays in a staging buffer
 * until a record of another instruction (or the kernel's end) closes it;
 * then it moves to a slot of its size, and is whole.  Slots come from
 * free lists by size class, so memory follows the records buffered, and
 * the instruction at a warp's head is one short run of memory, prefetched
 * when the warp joins the queue.
 */
#define NCLASS 9 /* slots of 1 to INST_MAX records */

struct islot {
	struct islot *next; /* the warp's next instruction, or the next free slot */
	uint16_t off;       /* records already issued (a split instruction) */
	uint16_t n;         /* records left */
	uint8_t cls;        /* the slot holds 2^cls records */
	gc_rec rec[];
};

enum wstate { W_PENDING, W_QUEUED, W_WAITING, W_DONE };

struct warp {
	uint32_t block;     /* index into the kernel's blocks */
	uint32_t next;      /* next warp of the block (by warp id), NONE32 */
	uint16_t id, sm;
	uint8_t state;      /* enum wstate */
	uint8_t stalled;    /* its current instruction waited for an MSHR */
	uint64_t blocked_ver; /* the SM's state version when it was cancelled */
	uint32_t outstanding; /* MSHR entries it allocated, still in flight */
	uint64_t last_read; /* input record number of its last record (--dispatch
			     * free: the last its SM's steps may see) */
	struct islot *ihead, *itail; /* its closed instructions, in order */
	struct dryset *dry; /* while its head instruction waits: what it needs */
};

/* --dispatch free: what the reader took of a warp while the SMs were
 * stepped, not theirs to see before l1_free_publish: its last record,
 * its instructions closed since.  The reader's alone (l1_input.c), apart
 * from struct warp: the lines the SMs' steps write are not the reader's,
 * and the reader's are dense. */
struct wread {
	uint64_t rlast;
	struct islot *nhead, *ntail;
	uint8_t dirty;      /* it is on the engine's list of such warps */
};

/*
 * What the requests of a cancelled instruction need from the MSHRs (see
 * mshr_need), all as of the SM's change count `at`, and their sums.  A
 * request's needs depend only on the state of its own line (valid
 * sectors, in-flight entry), and every change of a line's state stamps
 * the line's bucket in the SM's change table (note_change); a retry works
 * out again only the requests whose bucket was stamped since, and then
 * all are as of the retry's count.  A request that needs nothing, ever
 * (not a cached load), has the bucket VNEVER, which is never stamped.
 */
struct dryrec {
	uint32_t bucket; /* its line's bucket in the change table, or VNEVER */
	uint8_t cost, alloc, ok;
};

struct dryset {
	uint64_t at;     /* the change count the needs are as of */
	uint32_t cost;   /* the sums of the requests' costs, allocs */
	uint32_t mine;
	uint32_t bad;    /* and of those that cannot merge (!ok) */
	struct dryrec rec[];
};
#define BATCH 64     /* the timing model reads records this many at a time */
#define OUTBUF 64    /* records emitted at a time */
#define DRY_SMALL 32 /* the two sizes of kept needs: 32 and INST_MAX requests */
#define VBITS 12     /* change table: 2^VBITS buckets per SM */
#define VNEVER (1u << VBITS) /* and one more, never stamped */

#define BWL 32 /* warps of a block kept in an array (1024 threads) */
/* Whether block b's warps are all in its array (GC_L1_GENERIC: never,
 * the list is walked), or, `adding`, whether one more goes there. */
#define BLOCK_WL(R, b, adding) (!(R)->p.generic && (b)->nwarps + ((adding) != 0) <= BWL)

struct block {
	uint32_t id;
	uint16_t sm;
	uint8_t resident, done;
	uint32_t first;     /* first warp (lowest id) */
	uint32_t nwarps, ndone;
	uint32_t next_pending; /* the SM's next pending block, NONE32 */
	uint64_t last_new;  /* --dispatch free: the input record of its last new warp */
	uint64_t rlast_new; /* the same as the reader has it (l1_free_publish) */
	/* its warps by id, the list's order, while it has at most BWL: their
	 * slots and ids without a walk of the list through cold warps */
	uint32_t wl[BWL];
	uint16_t wid[BWL];
};

/* --dispatch free: a warp the reader made while the SMs were stepped,
 * joining its block in l1_free_publish: its first record's number in
 * the kernel's data and in the stream. */
struct newwarp {
	uint32_t w;
	uint64_t n, recno;
};

struct mshr {
	uint64_t tag;
	uint64_t ret;       /* when the fill arrives */
	uint32_t warp;      /* the warp that allocated it */
	uint32_t block_id;  /* its block's and its own ids, for a write-back at the fill */
	uint16_t warp_id;
	uint32_t merged;    /* requests it serves */
	uint32_t cost;      /* entries it takes (sectors for sector MSHRs) */
	uint8_t mask;       /* sectors being fetched */
	uint8_t prefetch;   /* a prefetch's that no demand request has met yet */
	uint32_t next_free;
};

enum evkind { EV_FILL, EV_WAKE };
#define EV_SLOTS 1024 /* the event wheel's window: longer than a miss, as a rule */

/* A FIFO of warps; cap is a power of two (64, doubled when full). */
struct ring {
	uint32_t *q;
	size_t head, n, cap;
};

/*
 * The three-C shadow of an SM (l1_class.c): a fully associative cache of
 * the L1's line count.  With LRU or FIFO replacement it is a list of
 * nodes, least recent (or oldest fill) first, and an index tag -> node:
 * 4n buckets or more (a power of two, by the tag's hash), each the first
 * node of a chain linked by ch[].next (ch[].bucket: the node's bucket):
 * no allocation, a miss reuses the list's first node.  With random
 * replacement it is the cache core's one set, whose draws those are.
 */
struct l1_fanode {
	gc_cline l;         /* tag, valid, aux (stamp unused) */
	uint32_t prev, next;
};

struct l1_fa {
	int core;           /* random replacement: the shadow is `c` */
	gc_cache c;
	struct l1_fanode *node; /* n nodes */
	uint32_t *ix;       /* the index: a bucket's first node, NONE32: none */
	struct l1_fachain { uint32_t next, bucket; } *ch; /* by node: its chain */
	unsigned shift;     /* 64 - log2(buckets) */
	unsigned line_shift;
	int lru;
	uint32_t n;
	uint32_t head, tail; /* the first and last valid node (NONE32: none) */
	uint32_t free;      /* invalid nodes, linked by next */
	gc_bigpool *pool;   /* where node, ch and ix came from (the seenpool) */
};

/* The sectors an SM has requested since the last flush (l1_class.c): per
 * run of 2^per lines (l1_seen_per), a word of their masks, in a table of
 * (key + 1, word) slots by linear probing, key + 1 = 0 marking a free
 * slot (so a new table is calloc's zeroed pages, written only where
 * used), doubled at three quarters full. */
struct l1_seen {
	uint64_t *slot;     /* two words a slot */
	uint64_t mask;      /* slots - 1 */
	unsigned shift;     /* 64 - log2(slots) */
	uint64_t n;         /* slots used */
	gc_bigpool *pool;   /* where slot came from (the gc_l1's seenpool) */
};

/* A reference whose classification waits (l1_class.c, l1_class_defer):
 * the functional model without --emit all classifies an SM's references
 * in batches of L1_CQ, so that the SM's shadow and seen table stay in the
 * cache while they are used (the classes are only counted then), and the
 * drain makes the lookup's request, sector, hit and miss counts too. */
struct l1_cref {
	uint64_t addr;      /* the line's address */
	uint8_t m;          /* the sectors requested */
	uint8_t miss;       /* those the L1 missed (a store: not held; 0: no class) */
	uint8_t part;       /* a load: those of them a partial store left */
	uint8_t kind;       /* L1_CR_* */
	uint8_t op;         /* the request's operation */
	uint8_t present;    /* its line was in the L1 */
};
#define L1_CR_STORE 1       /* a store (else a load) */
#define L1_CR_PARTIAL 2     /* a store covering its sectors in part */
#define L1_CR_FAHIT 4       /* the shadow hit (set by the drain) */
#define L1_CR_POLICY 3      /* the store's write policy, above this bit */
#define L1_CQ 4096

/* An SM's MSHRs in flight by line tag (inflight_*, below): linear probing
 * over at least four slots an entry (two past 1024 entries), which never
 * fill since there are no more keys than entries, deletion by backward
 * shift.  Every miss and fill and most dry runs look here, so it is
 * inline and small: a slot is 8 bytes, the tag above the entry's 16 bits
 * (a request's address has 48 bits and a line at least 4 bytes, so a
 * tag has at most 46; there are at most 65536 entries), IF_FREE when
 * free (no tag and entry make it). */
struct l1_ifslot {
	uint64_t v;         /* tag << 16 | entry, or IF_FREE */
};
#define IF_FREE UINT64_MAX
#define IF_TAG(v) ((v) >> 16)
#define IF_ENTRY(v) ((uint32_t)((v) & 0xffff))

struct l1_inflight {
	struct l1_ifslot *slot;
	uint32_t mask;      /* slots - 1 */
	unsigned shift;     /* 64 - log2(slots) */
};

/* One step of an SM taken ahead: its time, the records it emitted, the
 * records it issued. */
struct astep {
	uint64_t t;
	uint32_t nrec, issued;
};

/* An SM's steps ahead (l1_ahead.c): their entries (st[sh..sn)) and the
 * records they emitted (rec[rh..rn)), each array cap long; the steps
 * write the SM's own, and a run set aside for the merge (`next` the
 * SM's next one) is written no more. */
struct aseg {
	gc_rec *rec;
	size_t rh, rn, rcap;
	struct astep *st;
	size_t sh, sn, scap;
	struct aseg *next;
};

/* One SM: its L1 and, with the timing model, its warp queue and MSHRs. */
struct sm {
	uint16_t id;
	gc_cache c;
	struct l1_fa fa;    /* classify: the fully associative shadow (l1_class.c) */
	struct l1_seen seen; /* classify: sectors ever requested (compulsory misses) */
	struct l1_cref *cq; /* R->cdefer: references not yet classified */
	gc_bigpool *cqpool; /* where cq and cq2 came from (the gc_l1's seenpool) */
	unsigned ncq;
	/* --threads (l1_class.c, the drain pool): the other queue, with the
	 * ndq references a worker drains while dbusy is set (under the pool's
	 * lock: the SM is queued or being drained), the next SM in the pool's
	 * list */
	struct l1_cref *cq2;
	unsigned ndq;
	int dbusy;
	struct sm *dnext;
	gc_l1_counts n;
	gc_l1_counts dn;    /* the drains' counts, not yet added to n */
	gc_pf pf;           /* the prefetcher (l1_prefetch.c) */

	/* timing */
	uint64_t now;       /* the next issue slot */
	uint64_t order;     /* issue sequence number */
	uint64_t rng;
	struct ring q;      /* warps ready to issue */
	struct ring rq;     /* warps cancelled at the last step */
	uint64_t ver;       /* bumped by every change a cancelled warp waits for */
	size_t nblocked;    /* warps in q and rq whose blocked_ver is ver */
	int spinning;       /* every queued warp is blocked until the next event */
	uint64_t spin_from; /* the first step skipped while spinning */
	uint32_t hgen;      /* token of the SM's entry in the SM heap */
	gc_l1wheel ev;      /* miss returns and warps waking */
	struct mshr *m;
	uint32_t mfree;
	unsigned mused;     /* entries in use (sectors for sector MSHRs) */
	unsigned nfull;     /* entries in flight with no room to merge */
	struct l1_inflight inflight; /* tag -> MSHR entry */
	uint64_t chg;       /* changes of line state so far */
	uint64_t *vtab;     /* by line bucket: the change count of its last change */
	unsigned resident;  /* resident blocks */
	uint32_t pend_head, pend_tail; /* blocks waiting for a slot */
	int inheap;
	unsigned inc_res;   /* resident blocks that may still get warps */
	/* run-ahead (l1_ahead.c): what its steps ahead of the global order
	 * emitted, not yet merged, and the last such step */
	struct aseg a;      /* the buffer its steps write */
	struct aseg *aold, *aoldtail; /* runs set aside for the merge, oldest first */
	struct aseg *aspare; /* an emptied run, kept for reuse (one) */
	int aq;             /* it is in the merge's heap */
	uint64_t ahead_t;   /* time of its last step ahead + 1, 0: none */
	/* --threads: what its steps in a parallel phase leave to the main
	 * thread (l1_ahead.c): the blocks that ended there, the per-PC
	 * counts (pc << 8 | outcome) */
	uint32_t *dblk;
	size_t ndblk, dblkcap;
	uint64_t *pclog;
	size_t npc, pccap;
	/* --dispatch free: the same of the round before, handed over for
	 * the main thread to take at the start of the next */
	uint32_t *hdblk;
	size_t nhdblk, hdblkcap;
	uint64_t *hpclog;
	size_t nhpc, hpccap;
	int pstep;          /* it took a step in the phase */
	int stopped;        /* --dispatch free: its step at `now` stopped for input */
	/* With a prefetcher, GC_PF_OUT_MAX + 1 entries (l1_new_sm allocates
	 * them past the struct), for L1_K_PF's path (l1_pf_access_k): the
	 * way of the SM's L1 where each line of the last prefetch window was
	 * left (present, or filled), or l1_pf_nowhere; the entry past the
	 * last is always that.  Reset with the cache (l1_pf_reset): the ways
	 * are its memory.  Without a prefetcher there are none, and the SMs'
	 * structs and caches lie as they did before (520 bytes more in every
	 * struct cost the plain path 2-3% in CPU time). */
	const gc_cline *pfat[];
};


/* Where a request goes: looked up in L1, nowhere (shared memory), to L2. */
enum { ROUTE_L1 = GC_L1_LOOKUP, ROUTE_SHARED = GC_L1_SHARED, ROUTE_L2 = GC_L1_BYPASS };

struct gc_l1 {
	gc_l1_params p;
	gc_gpu_config gpu;
	int classify, emit_all, timing;
	int cdefer;           /* classify in batches per SM (l1_class_defer) */
	gc_l1_statistics st; /* what gc_l1_stats returns */

	/* the L1 as configured and as the current kernel has it */
	gc_cache_geom geom;
	unsigned sets, ways;
	int write, walloc, skip_global, mshr_sector;
	unsigned hit_lat, lambda_min, mshr_entries, mshr_merge, mshr_per_warp;
	double sigma;
	unsigned line, sector, nsectors;
	unsigned seen_per;    /* log2 of the lines a seen word holds (l1_seen_per) */
	uint8_t maskmap[256]; /* input mask -> L1 sectors */
	uint8_t outmap[256];  /* L1 sectors -> the output's sectors */
	uint8_t rawmap[256];  /* the stream's sectors -> the output's */
	uint8_t inmap[256];   /* L1 sectors -> the stream's (--emit all) */
	/* Where a request goes, by operation, space and flags: gc_l1_route()
	 * as a table, for bypass() */
	gc_l1_routes route;
	uint8_t wpolicy[GC_NSPACES]; /* the write policy by space, for l1_store() */

	struct sm **sms;      /* by SM number, made on first use */
	uint16_t *smlist;     /* SM numbers in order of first use */
	unsigned nsms;

	gc_pctab pcs;         /* (kernel name, pc) -> its gc_pcrow */
	gc_l1_kstat *ks;
	size_t nks, kscap;
	gc_l1_counts kbase;
	gc_l1_smstat *smstat; /* the snapshot of gc_l1_finish */
	gc_kunits ksms;       /* each kernel's sectors by SM */
	gc_pcrow *pcsorted;
	uint64_t last_time;   /* functional: the last request's time */
	uint64_t inst_key;    /* count_inst: the last record's block and warp */
	uint32_t inst_seq;    /* and its instruction */
	int inst_valid;
	uint64_t cycles;      /* timing: the last time */

	/* timing */
	struct warp *warps;
	struct wread *wrd;    /* the reader's part of each warp (wcap of them) */
	size_t nwarps, wcap;
	uint32_t wfree;       /* free warp slots, linked by next */
	struct block *blocks;
	size_t nblocks, bcap;
	uint32_t bfree;       /* free block slots, linked by next_pending */
	gc_hmap warpmap, blockmap;
	gc_hset doneblocks;   /* blocks of the kernel that have ended */
	struct islot *ifree[NCLASS]; /* free slots by size class */
	char **slabs;         /* the memory of the slots */
	size_t nslabs;
	size_t slab_left;     /* bytes left in the last slab */
	gc_rec stage[INST_MAX]; /* the instruction read last, still open */
	unsigned stage_n;     /* its records (l1_input.c: the first stage_cp */
	unsigned stage_cp;    /* in stage, the rest from batch[stage_b0] on) */
	unsigned stage_b0;
	uint32_t stage_warp;  /* its warp, NONE32 */
	struct dryset *dryfree[2]; /* free needs arrays: DRY_SMALL, INST_MAX */
	gc_rec batch[BATCH];  /* records read, not yet taken */
	uint64_t bnum[BATCH]; /* their numbers in the stream */
	unsigned bpos, bn;
	gc_rec out[OUTBUF];   /* records for the emit callback */
	unsigned nout;
	/* gc_l1_access_raw: the request being modelled as it lies in the
	 * stream (NULL: none; what goes out is then records in out[]), and
	 * what goes out, its bytes patched, for emit_raw (time base rhi) */
	const unsigned char *rsrc;
	uint64_t rhi;
	unsigned char rout[OUTBUF * GC_RECORD_BASE];
	unsigned nrout;
	uint64_t recno;       /* the number of the record taken last */
	unsigned active;      /* blocks per SM */
	uint64_t nread;       /* data records read in the kernel */
	uint32_t last_warp;   /* warp of the last record read */
	uint32_t last_seq;
	uint64_t last_key;    /* its (block, warp) key in warpmap */
	int kend;             /* the kernel's input has ended */
	gc_l1queue smheap;    /* SMs by their next time */
	gc_bigpool seenpool;  /* the SMs' seen tables, in shared huge pages */
	gc_bigpool *seenp;    /* that pool: a thread's copy of the struct (--threads)
			       * takes from the engine's, not from its own copy */
	uint64_t tbase;       /* the kernel's start time */
	uint64_t gnow;        /* the current global time */
	uint64_t buffered, peak_buffered;
	int cur;              /* the SM being stepped, -1: none */
	uint64_t tmax;        /* the latest time stepped */
	uint32_t wpb;         /* warps per block of the kernel, UINT32_MAX: unknown */
	int ahead;            /* the SM being stepped is ahead of the global order */
	int astep_open;       /* it has an entry for this step */
	gc_l1queue aheap;     /* SMs with steps ahead, by their first one's (time, SM) */
	uint64_t io_t;        /* the last step in the global order: its time */
	int io_id;            /* and SM, -1: none yet */

	/* --threads (l1_ahead.c): parallel phases step SMs ahead, each
	 * thread on its own copy of this struct (par set) */
	struct l1_pool *pool;
	/* --threads with deferred classes (l1_class.c): workers that drain
	 * full queues while the main thread goes on (NULL: none yet) */
	struct l1_cpool *cpool;
	int par;              /* this is a thread's copy, in a parallel phase */
	int dfree;            /* --dispatch free: SMs apart (l1_timing.c, l1_free_kernel) */
	int kstep;            /* the steps take the L1_K_STEP path (l1_timing.c) */
	uint64_t free_out;    /* --dispatch free: the output is written up to this time */
	/* --dispatch free: what the reader took while the SMs were stepped
	 * (l1_input.c): the warps with records, the new warps and the new
	 * blocks, in the order read */
	uint32_t *dirty;
	size_t ndirty, dirtycap;
	struct newwarp *nwq;
	size_t nnwq, nwqcap;
	uint32_t *nbq;
	size_t nnbq, nbqcap;
	uint64_t phase_t;     /* the earliest SM's time at the last phase */
	uint16_t *todo;       /* the SMs of the phase */
	struct islot *ifree_tail[NCLASS]; /* a copy's own free slots: their last */

	/* the prefetcher (l1_prefetch.c) */
	int pf_on;
	uint32_t pf_wpb;      /* warps per block of the kernel: warp numbers for mta */
	uint16_t pf_trig[INST_MAX]; /* timing: the loads of an instruction that train it */
	uint8_t pf_miss[INST_MAX];
	unsigned pf_ntrig;

	/* failures: a message, and the way back to the API call */
	int failed;
	char err[640];
	sigjmp_buf jb;
};

/* ---- l1.c ------------------------------------------------------------ */

/* Fail: the message (printf-style; NULL: err already holds it), then back
 * to the API call, which returns -1. */
_Noreturn void l1_fail(gc_l1 *R, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Out of memory when rc < 0. */
static inline void l1_oom(gc_l1 *R, int rc)
{
	if (rc < 0)
		l1_fail(R, "out of memory");
}
void *l1_alloc(gc_l1 *R, void *p, size_t n); /* realloc, or fail */
void *l1_zalloc(gc_l1 *R, size_t n, size_t size); /* calloc, or fail */
void l1_emit_flush(gc_l1 *R);
struct sm *l1_new_sm(gc_l1 *R, uint16_t id);
uint8_t l1_store(gc_l1 *R, struct sm *s, const gc_rec *r, uint8_t m, uint64_t time);

/* ---- l1_class.c ------------------------------------------------------ */

int l1_classify(gc_l1 *R, struct sm *s, uint64_t tag, uint8_t want, uint8_t missing,
		uint8_t partial, int fa_hit);
void l1_seen(gc_l1 *R, struct sm *s, uint64_t tag, uint8_t want);
int l1_fa_load(struct sm *s, uint64_t addr, uint8_t m, int now);
void l1_fa_fill(struct sm *s, uint64_t addr, uint8_t m);
int l1_fa_store(gc_l1 *R, struct sm *s, uint64_t addr, uint8_t m, int partial, int policy);
void l1_class_init(gc_l1 *R, struct sm *s, const gc_cache_geom *g);
void l1_class_clear(struct sm *s);
void l1_class_free(struct sm *s);
/* The references SM s deferred (every SM's) classified and counted: on
 * return its counts (s->n) are whole. */
void l1_class_drain(gc_l1 *R, struct sm *s);
void l1_class_drain_all(gc_l1 *R);
/* SM s's queue is full: drained, or with --threads handed to the drain
 * pool (l1_class.c). */
void l1_class_full(gc_l1 *R, struct sm *s);
/* The drain pool's threads stopped, what they drain finished. */
void l1_class_pool_free(gc_l1 *R);
/* a += b, count by count */
void l1_counters_add(gc_l1_counts *a, const gc_l1_counts *b);

/* A lookup by operation op of line addr for sectors m (l1_cref), its
 * classification deferred: the shadow and the seen table see it when its
 * SM's batch is drained, in the SM's order, and its class (a miss's) and
 * its request counts (count_request, count_sectors, the hits and misses)
 * are made then. */
static inline void l1_class_defer(gc_l1 *R, struct sm *s, int op, uint64_t addr, uint8_t m,
				  uint8_t miss, uint8_t part, unsigned kind, int present)
{
	if (s->ncq == L1_CQ)
		l1_class_full(R, s);
	struct l1_cref *e = &s->cq[s->ncq++];
	e->addr = addr;
	e->m = m;
	e->miss = miss;
	e->part = part;
	e->kind = (uint8_t)kind;
	e->op = (uint8_t)op;
	e->present = (uint8_t)present;
}
void l1_pcs_sorted(gc_l1 *R);

/* The seen map's key of line tag: a word holds the sectors of 2^per lines
 * (l1_class.c, seen_word). */
static inline unsigned l1_seen_per(const gc_l1 *R)
{
	return R->seen_per;
}

/* Bring what classifying a reference to line tag (at byte address addr)
 * reads towards the CPU: its seen word's home slot and its slot in the
 * shadow's index (a hint; nothing changes). */
static inline __attribute__((always_inline)) void l1_class_prefetch(const gc_l1 *R, const struct sm *s,
								      uint64_t tag, uint64_t addr)
{
	if (s->seen.slot)
		__builtin_prefetch(&s->seen.slot[2 * (gc_hash64((tag >> l1_seen_per(R)) + 1) >> s->seen.shift)], 1);
	if (s->fa.core)
		gc_cache_prefetch(&s->fa.c, addr, 0);
	else
		__builtin_prefetch(&s->fa.ix[gc_hash64(tag) >> s->fa.shift], 1);
}

/* ---- l1_input.c: the timing model's buffered input ------------------- */

void l1_input_reset(gc_l1 *R);
void l1_read_one(gc_l1 *R);
/* l1_read_one n times, or until the kernel's input ends */
void l1_read_n(gc_l1 *R, size_t n);
/* --dispatch free: room for n more records' warps and blocks, so that
 * the arrays do not move while the reader takes them and SMs are stepped */
void l1_free_reserve(gc_l1 *R, size_t n);
/* --dispatch free: what was read since the last call joins the warps,
 * blocks and SMs that the steps see. */
void l1_free_publish(gc_l1 *R);
/* Read on until warp widx's next instruction is whole (*complete set),
 * the warp is taken to have ended (no request of it in the next window
 * records) or the input ends; the instruction's records buffered
 * (warp_inst). */
unsigned l1_read_inst(gc_l1 *R, uint32_t widx, int *complete);
void l1_warp_pop(gc_l1 *R, uint32_t widx, unsigned k);
void l1_warp_done(gc_l1 *R, struct sm *s, uint32_t widx);
/* The engine-wide part of block bidx's end (its ids, its warps' and its
 * own slots), left to the main thread by a parallel phase. */
void l1_block_release(gc_l1 *R, uint32_t bidx);
void l1_input_free(gc_l1 *R);
/* Free lists of needs arrays (DRY_SMALL and INST_MAX requests), freed. */
void l1_dry_free(struct dryset *list[2]);

/* ---- l1_ahead.c: SMs stepped ahead of the global order ------------- */

gc_rec *l1_ahead_slot(gc_l1 *R);
void l1_ahead_issued(gc_l1 *R, unsigned k);
/* What steps ahead up to (t, id) emitted goes out (t UINT64_MAX: all). */
void l1_ahead_flush(gc_l1 *R, uint64_t t, uint64_t id);
/* --dispatch free: what steps up to time t emitted goes out at the start
 * of the next l1_pool_run, while its SMs are stepped (or at the next
 * l1_ahead_flush): their buffers are set aside now. */
void l1_ahead_defer(gc_l1 *R, uint64_t t);
void l1_ahead_free(gc_l1 *R, struct sm *s);
/* --threads: SMs todo[0..n) stepped ahead (l1_step_ahead, up to
 * `base` + the span) by the pool's threads, their results merged back
 * into R in SM order. */
void l1_pool_run(gc_l1 *R, const uint16_t *todo, unsigned n, uint64_t base, unsigned nread);
/* A step in a parallel phase counted an outcome of pc. */
void l1_pc_defer(gc_l1 *R, struct sm *s, uint32_t pc, uint8_t outcome);
void l1_pool_free(gc_l1 *R);
/* --dispatch free: what the last round's steps left to the main thread
 * (blocks that ended, per-PC counts) taken now (l1_pool_run takes it at
 * the start of the next round, before its reads). */
void l1_pool_drain(gc_l1 *R);

/* ---- l1_prefetch.c: the prefetcher ------------------------------------ */

void l1_pf_init(gc_l1 *R, struct sm *s);
/* SM s's prefetch window's ways (sm.pfat) forgotten: its cache was made
 * anew. */
void l1_pf_reset(const gc_l1 *R, struct sm *s);
/* Demand load r (looked up in L1; `miss`: it missed) trains the SM's
 * prefetcher, and its prefetches go out at time t: filled at once
 * (functional), or into MSHRs left free (timing). */
void l1_pf_access(gc_l1 *R, struct sm *s, const gc_rec *r, int miss, uint64_t t);
/* Its parts: the prefetch of the line at addr goes to L2 (and out; not
 * from gc_l1_access_raw);
 * timing, an MSHR entry for the prefetch of line `tag`, or 0 when none
 * is free.  l1_pf_access_k (below allocate_k) is its body. */
void l1_pf_out(gc_l1 *R, struct sm *s, const gc_rec *r, uint64_t addr, uint64_t t);
int l1_pf_mshr(gc_l1 *R, struct sm *s, const gc_rec *r, uint64_t tag, uint64_t t);
/* Timing: a demand request met prefetch MSHR x in flight. */
void l1_pf_late(struct sm *s, struct mshr *x);

/* A line no address has (GC_CACHE_NO_TAG): sm.pfat's "no way known". */
extern const gc_cline l1_pf_nowhere;

/* A demand access found line l: a prefetched line used. */
static inline void pf_use(struct sm *s, gc_cline *l)
{
	if (l && l->pf) {
		l->pf = 0;
		s->n.pf_useful++;
		gc_pf_feedback(&s->pf, GC_PF_USEFUL);
	}
}

/* Line l leaves the cache: a prefetched line never used. */
static inline void pf_drop(struct sm *s, gc_cline *l)
{
	if (l->pf) {
		l->pf = 0;
		s->n.pf_useless++;
		gc_pf_feedback(&s->pf, GC_PF_USELESS);
	}
}

/* ---- l1_timing.c ----------------------------------------------------- */

/* A miss's latency: lambda_min + |N(0, sigma^2)|, from the SM's generator. */
uint64_t l1_miss_latency(gc_l1 *R, struct sm *s);
/* A new MSHR entry (the caller checked one is free) for line `tag`,
 * fetching sectors `mask`, allocated by warp widx (NONE32: a prefetch's,
 * no warp's), its fill on the SM's event wheel. */
struct mshr *l1_mshr_new(gc_l1 *R, struct sm *s, const gc_rec *r, uint64_t tag, uint8_t mask,
			 uint32_t widx, uint64_t t);
void l1_block_start(gc_l1 *R, struct sm *s, uint32_t bidx);
void l1_sm_arrive(gc_l1 *R, struct sm *s);
void l1_sm_reschedule(gc_l1 *R, struct sm *s);
void l1_queue_warp(gc_l1 *R, struct sm *s, uint32_t widx);
void l1_ring_grow(gc_l1 *R, struct ring *r);
void l1_timing_kernel(gc_l1 *R);
/* Step SM s ahead, on W (a thread's copy of the engine), until it needs
 * input or passes `base` by the span. */
void l1_step_ahead(gc_l1 *W, struct sm *s, uint64_t base);
/* --dispatch free with GC_L1_IN_ORDER: SMs todo[0..n) stepped up to
 * `limit` on W, one step at a time in (time, SM) order. */
void l1_step_in_order(gc_l1 *W, const uint16_t *todo, unsigned n, uint64_t limit);
void l1_timing_free(gc_l1 *R, struct sm *s);

/* ---- small shared pieces --------------------------------------------- */

/*
 * What a caller knows of the engine at compile time: the `K` argument of
 * the always-inline helpers below, a constant where they are inlined.  A
 * bit set turns a test of the engine's state into a constant, so that
 * the instance of gc_l1_access_raw for the common configuration (l1.c,
 * l1_fast) carries none of those tests; 0 tests everything, as the
 * other paths do.  No bit changes what is modelled.
 *   L1_K_RAW    gc_l1_access_raw without emit_all: R->rsrc is set and
 *               every record out is a patched copy of it.
 *   L1_K_PLAIN  functional, no classification, no prefetcher: no 3C
 *               shadow, no line's pf bit ever set, no change table.
 *   L1_K_LRU    the SMs' caches are scanned (not wide), linearly indexed
 *               over a power-of-two set count, with LRU replacement.
 *   L1_K_UNCOUNTED  nothing reads the counts: none is kept.
 *   L1_K_PF     functional with a prefetcher, no classification: no 3C
 *               shadow, no change table; every demand load trains it.
 *   L1_K_DEFER  functional, classes deferred (R->cdefer, so classify and
 *               no --emit all), no prefetcher: no line's pf bit ever set,
 *               no change table (l1_fast_stats, gc-l1 --stats).
 *   L1_K_STEP   the timing model's step on a thread's copy under
 *               --dispatch free (R->ahead set, R->rsrc NULL; every record
 *               out goes to the SM's buffer of steps ahead), with no
 *               classification, no prefetcher and no --emit all: no
 *               line's pf bit ever set; the change table kept
 *               (l1_timing.c, R->kstep, with L1_K_LRU and
 *               L1_K_UNCOUNTED).
 */
enum {
	L1_K_RAW = 1,
	L1_K_PLAIN = 2,
	L1_K_LRU = 4,
	L1_K_UNCOUNTED = 8,
	L1_K_DEFER = 16,
	L1_K_PF = 32,
	L1_K_STEP = 64
};
/* Whether a path of K keeps the counts (not with L1_K_UNCOUNTED: the
 * caller said nothing reads them, gc_l1_params.uncounted). */
#define COUNTED(K) (!((K) & L1_K_UNCOUNTED))
/* Whether a path of K on R classifies, classifies in batches (with
 * L1_K_DEFER both constants), may meet a prefetched line (NO_PF: not
 * with L1_K_PLAIN, L1_K_DEFER or L1_K_STEP) or keeps a change table
 * (CHANGES: the timing model's, so none with a functional path's bit,
 * L1_K_PF's too). */
#define CLASSIFIES(K, R) \
	(((K) & L1_K_DEFER) || (!((K) & (L1_K_PLAIN | L1_K_PF | L1_K_STEP)) && (R)->classify))
#define DEFERS(K, R) \
	(((K) & L1_K_DEFER) || (!((K) & (L1_K_PLAIN | L1_K_PF | L1_K_STEP)) && (R)->cdefer))
#define NO_PF(K) ((K) & (L1_K_PLAIN | L1_K_DEFER | L1_K_STEP))
#define CHANGES(K) (!((K) & (L1_K_PLAIN | L1_K_DEFER | L1_K_PF)))
/* Whether a path of K on R writes every request's record (--emit all). */
#define EMITS_ALL(K, R) (!((K) & (L1_K_RAW | L1_K_STEP)) && (R)->emit_all)

/* gc_cache_probe and gc_cache_find on an SM's L1, a 4-way set's scan
 * unrolled (every request looks up its line, a miss's fill too). */
static inline __attribute__((always_inline)) gc_cline *l1_probe(struct sm *s, uint64_t addr, unsigned set, gc_cline **victim)
{
	gc_cache *c = &s->c;
	if (c->g.ways == 4)
		return gc_cache_probe_ways(c, gc_cache_tag(c, addr), set, victim, 4);
	return gc_cache_probe(c, addr, set, victim);
}

/* The set of line addr, and the probe of it (K and W: see l1_impl.h and
 * l1.c's l1_fast). */
static inline __attribute__((always_inline)) unsigned set_k(const gc_cache *c, uint64_t addr,
							       unsigned K)
{
	return (K & L1_K_LRU) ? gc_cache_set_fast(c, addr) : gc_cache_set(c, addr);
}

static inline __attribute__((always_inline)) gc_cline *
probe_k(struct sm *s, uint64_t addr, unsigned set, gc_cline **hint, unsigned W)
{
	if (W)
		return gc_cache_probe_ways(&s->c, gc_cache_tag(&s->c, addr), set, hint, W);
	return l1_probe(s, addr, set, hint);
}

static inline __attribute__((always_inline)) gc_cline *l1_find(struct sm *s, uint64_t addr, unsigned *set)
{
	gc_cache *c = &s->c;
	*set = gc_cache_set(c, addr);
	if (c->g.ways == 4) { /* not wide */
		gc_cline *l = c->lines + (size_t)*set * 4;
		unsigned f = gc_cache_scan_tags(l, gc_cache_tag(c, addr), 4);
		return f ? &l[f - 1] : NULL;
	}
	return gc_cache_lookup(c, addr, *set);
}

static inline uint32_t inflight_home(const struct l1_inflight *f, uint64_t tag)
{
	return (uint32_t)((tag * UINT64_C(0x9e3779b97f4a7c15)) >> f->shift);
}

/* The MSHR entry in flight for line `tag`, or NULL. */
static inline struct mshr *inflight_get(struct sm *s, uint64_t tag)
{
	const struct l1_inflight *f = &s->inflight;
	for (uint32_t i = inflight_home(f, tag);; i = (i + 1) & f->mask) {
		uint64_t v = f->slot[i].v;
		if (IF_TAG(v) == tag) /* IF_FREE's is no tag */
			return &s->m[IF_ENTRY(v)];
		if (v == IF_FREE)
			return NULL;
	}
}

/* Line `tag`, not in flight, now is: entry e. */
static inline void inflight_add(struct l1_inflight *f, uint64_t tag, uint32_t e)
{
	uint32_t i = inflight_home(f, tag);
	while (f->slot[i].v != IF_FREE)
		i = (i + 1) & f->mask;
	f->slot[i].v = tag << 16 | e;
}

/* Line `tag`, in flight, no longer is: the slots after it that would not
 * be found past the hole move back into it. */
static inline void inflight_del(struct l1_inflight *f, uint64_t tag)
{
	uint32_t i = inflight_home(f, tag);
	while (IF_TAG(f->slot[i].v) != tag)
		i = (i + 1) & f->mask;
	for (uint32_t j = (i + 1) & f->mask; f->slot[j].v != IF_FREE; j = (j + 1) & f->mask) {
		/* j's home h is on the path i+1..j (circularly): it stays */
		uint32_t h = inflight_home(f, IF_TAG(f->slot[j].v));
		if (((j - h) & f->mask) < ((j - i) & f->mask))
			continue;
		f->slot[i] = f->slot[j];
		i = j;
	}
	f->slot[i].v = IF_FREE;
}

/* Set bits of a sector mask (a table: no popcount instruction assumed). */
extern const uint8_t l1_pop8[256];
static inline unsigned popcount8(uint8_t m)
{
	return l1_pop8[m];
}

static inline struct sm *get_sm(gc_l1 *R, uint16_t id)
{
	struct sm *s = R->sms[id];
	return s ? s : l1_new_sm(R, id);
}

static inline unsigned sector_bytes(const gc_l1 *R, uint8_t mask)
{
	return popcount8(mask) * R->sector;
}

/* The next record to emit, filled in by the caller. */
static inline gc_rec *out_slot(gc_l1 *R)
{
	if (R->ahead)
		return l1_ahead_slot(R);
	if (R->nout == OUTBUF)
		l1_emit_flush(R);
	return &R->out[R->nout++];
}

/* out_slot of a step on a thread's copy (R->ahead and R->par set; SM s
 * is R->cur): while the SM's buffers have room, in place, the step's
 * entry opened on its first record as l1_ahead.c's step_entry does (a
 * thread's copy pushes no entry on the merge's heap). */
static inline __attribute__((always_inline)) gc_rec *step_slot(gc_l1 *R, struct sm *s)
{
	struct aseg *a = &s->a;
	if (a->rn == a->rcap || (!R->astep_open && (a->sn == a->scap || !R->par)))
		return l1_ahead_slot(R);
	if (!R->astep_open) {
		struct astep *e = &a->st[a->sn++];
		e->t = R->gnow;
		e->nrec = e->issued = 0;
		R->astep_open = 1;
	}
	a->st[a->sn - 1].nrec++;
	return &a->rec[a->rn++];
}

static inline void ring_push(gc_l1 *R, struct ring *r, uint32_t x)
{
	if (r->n == r->cap)
		l1_ring_grow(R, r);
	r->q[(r->head + r->n++) & (r->cap - 1)] = x;
}

/* The records of w's next instruction: how many are buffered (up to
 * INST_MAX), and whether the instruction is complete: a closed one is;
 * the open one (l1_input.c) may still grow. */
static inline unsigned warp_inst(const gc_l1 *R, uint32_t widx, int *complete)
{
	const struct islot *in = R->warps[widx].ihead;
	if (in) {
		*complete = 1;
		return in->n;
	}
	*complete = 0;
	return R->stage_warp == widx ? R->stage_n : 0;
}

/* The change-table bucket of line `tag`. */
static inline uint32_t vbucket(uint64_t tag)
{
	return (uint32_t)((tag * UINT64_C(0x9e3779b97f4a7c15)) >> (64 - VBITS));
}

/* Timing: the state of line `tag` changed (its sectors, its presence or
 * its in-flight miss): what waiting instructions need of it is stale. */
static inline void note_change(struct sm *s, uint64_t tag)
{
	if (s->vtab)
		s->vtab[vbucket(tag)] = ++s->chg;
}

/* note_change on a path of K (L1_K_STEP: the timing model, whose SMs
 * always have the table). */
static inline __attribute__((always_inline)) void note_change_k(struct sm *s, uint64_t tag, unsigned K)
{
	if (K & L1_K_STEP)
		s->vtab[vbucket(tag)] = ++s->chg;
	else
		note_change(s, tag);
}

/* gc_l1_access_raw: the next record out, a copy of the request's bytes
 * (R->rsrc) that the caller patches. */
static inline __attribute__((always_inline)) unsigned char *raw_slot(gc_l1 *R)
{
	if (R->nrout == OUTBUF)
		l1_emit_flush(R);
	unsigned char *q = R->rout + (size_t)R->nrout++ * GC_RECORD_BASE;
	memcpy(q, R->rsrc, GC_RECORD_BASE);
	return q;
}

/* A request to L2: counted always, emitted unless emit_all.  Masks are
 * the L1's sectors, written as the stream's; RAW_MASK passes the source's
 * own mask (a bypassed request goes on unchanged).  It carries the
 * compute field of src, the request that caused it, unless it is a
 * write-back.  Returns the record when it is a patched copy of R->rsrc
 * (gc_l1_access_raw's), else NULL. */
#define RAW_MASK 0x100u
static inline __attribute__((always_inline)) unsigned char *
to_l2_k(gc_l1 *R, struct sm *s, const gc_rec *src, int op, uint64_t addr, unsigned mask,
	unsigned bytes, uint64_t time, int writeback, unsigned K)
{
	gc_l1_counts *n = &s->n;
	if (!COUNTED(K)) {
	} else if (op == GC_LOAD) {
		n->l2_reads++;
		n->l2_read_bytes += bytes;
	} else if (op == GC_STORE) {
		n->l2_writes++;
		n->l2_write_bytes += bytes;
		n->writebacks += writeback != 0;
	} else {
		n->l2_atomics++;
		n->l2_atomic_bytes += bytes;
	}
	if (EMITS_ALL(K, R))
		return NULL;
	uint8_t omask = mask == RAW_MASK ? R->rawmap[src->mask] : R->outmap[mask];
	uint16_t size = (uint16_t)(bytes > 65535 ? 65535 : bytes);
	if ((K & L1_K_RAW) || (!(K & L1_K_STEP) && R->rsrc)) {
		/* src's bytes (no compute field in 32 bytes), at its time */
		if (time != src->time)
			l1_fail(R, "a functional L2 request at another time than its source");
		unsigned char *q = raw_slot(R);
		q[0] = (uint8_t)op;
		q[2] = 0;
		q[3] = omask;
		gc_put64(q + 24, addr | (uint64_t)size << 48);
		return q;
	}
	gc_rec *o = (K & L1_K_STEP) ? step_slot(R, s) : out_slot(R);
	*o = *src;
	o->op = (uint8_t)op;
	o->addr = addr;
	o->mask = omask;
	o->size = size;
	o->time = time;
	o->outcome = 0;
	if (writeback) /* the L1's own record: no instruction's compute field */
		o->compute = 0;
	return NULL;
}

static inline void to_l2(gc_l1 *R, struct sm *s, const gc_rec *src, int op, uint64_t addr,
			 unsigned mask, unsigned bytes, uint64_t time, int writeback)
{
	to_l2_k(R, s, src, op, addr, mask, bytes, time, writeback, 0);
}

/* Dirty sectors of line l go to L2. */
static inline __attribute__((always_inline)) void
write_back_k(gc_l1 *R, struct sm *s, const gc_rec *src, gc_cline *l, uint64_t time, unsigned K)
{
	if (l->tag == GC_CACHE_NO_TAG || !l->dirty)
		return;
	to_l2_k(R, s, src, GC_STORE, gc_cache_line_addr(&s->c, l), l->dirty,
		sector_bytes(R, l->dirty), time, 1, K);
	l->dirty = 0;
}

static inline void write_back(gc_l1 *R, struct sm *s, const gc_rec *src, gc_cline *l,
			      uint64_t time)
{
	write_back_k(R, s, src, l, time, 0);
}

/* A use of line l (gc_cache_touch). */
static inline __attribute__((always_inline)) void l1_touch(gc_cache *c, gc_cline *l, unsigned K)
{
	if (K & L1_K_LRU)
		gc_cache_touch_lru(c, l);
	else
		gc_cache_touch(c, l);
}

/* Line `addr` takes way v: the victim's dirty sectors written back, in a
 * record with src's fields (read only then). */
static inline __attribute__((always_inline)) void
take_way_k(gc_l1 *R, struct sm *s, const gc_rec *src, uint64_t addr, gc_cline *v, uint64_t time,
	   uint8_t *outcome, unsigned K)
{
	if (v->tag != GC_CACHE_NO_TAG) {
		if (!NO_PF(K))
			pf_drop(s, v);
		if (CHANGES(K))
			note_change_k(s, v->tag, K);
		if (v->dirty) {
			write_back_k(R, s, src, v, time, K);
			*outcome |= GC_OUT_WRITEBACK;
		}
	}
	if (K & L1_K_LRU)
		gc_cache_fill_narrow(&s->c, v, addr);
	else
		gc_cache_fill(&s->c, v, addr);
}

static inline void take_way(gc_l1 *R, struct sm *s, const gc_rec *src, uint64_t addr, gc_cline *v,
			    uint64_t time, uint8_t *outcome)
{
	take_way_k(R, s, src, addr, v, time, outcome, 0);
}

/* The way line `addr` gets: the victim's dirty sectors written back. */
static inline __attribute__((always_inline)) gc_cline *
allocate_k(gc_l1 *R, struct sm *s, const gc_rec *src, uint64_t addr, unsigned set,
	   gc_cline *hint, uint64_t time, uint8_t *outcome, unsigned K)
{
	/* LRU: the probe found the victim */
	gc_cline *v = (K & L1_K_LRU) ? hint : gc_cache_victim_hint(&s->c, set, hint);
	take_way_k(R, s, src, addr, v, time, outcome, K);
	return v;
}

static inline gc_cline *allocate(gc_l1 *R, struct sm *s, const gc_rec *src, uint64_t addr,
				 unsigned set, gc_cline *hint, uint64_t time, uint8_t *outcome)
{
	return allocate_k(R, s, src, addr, set, hint, time, outcome, 0);
}

/* Prefetch i of a window, of line `line`, triggered by r: filled (or
 * given an MSHR) unless present or in flight, and out to L2.  K and W
 * as l1_pf_access_k's. */
static inline __attribute__((always_inline)) void
l1_pf_line_k(gc_l1 *R, struct sm *s, const gc_rec *r, uint64_t line, const gc_cline **at,
	     unsigned i, uint64_t t, unsigned K, unsigned W)
{
	if (K & L1_K_PF) {
		/* line i + 1 of the last window, where it was left: still
		 * there, it is present (and its probe would change nothing) */
		const gc_cline *was = at[i + 1];
		if (was->tag == line) {
			at[i] = was;
			return;
		}
	}
	/* (a line address is at most GC_ADDR48_MAX's: line is addr's tag) */
	uint64_t addr = line << s->c.line_shift;
	unsigned set = (K & L1_K_LRU) ? (unsigned)(line & s->c.set_mask) : gc_cache_set(&s->c, addr);
	gc_cline *hint = NULL;
	gc_cline *l = W ? gc_cache_probe_ways(&s->c, line, set, &hint, W)
			: gc_cache_probe(&s->c, addr, set, &hint);
	if (l) {
		if (K & L1_K_PF)
			at[i] = l;
		return;
	}
	if (!(K & L1_K_PF) && R->timing) {
		if (inflight_get(s, line) || !l1_pf_mshr(R, s, r, line, t))
			return;
	} else {
		uint8_t o = 0;
		l = allocate_k(R, s, r, addr, set, hint, t, &o, K);
		l->valid = s->c.full_mask;
		l->pf = 1;
		if (K & L1_K_PF)
			at[i] = l;
		if (CLASSIFIES(K, R))
			l1_fa_fill(s, addr, s->c.full_mask);
	}
	if (!(K & L1_K_RAW) && !R->rsrc) {
		l1_pf_out(R, s, r, addr, t);
		return;
	}
	/* gc_l1_access_raw (never with --emit all): l1_pf_out's record is
	 * the trigger's bytes to_l2 writes, flags in byte 1's high half, no
	 * compute field */
	if (COUNTED(K))
		s->n.pf_issued++;
	/* the whole line: R->line bytes */
	unsigned char *q = to_l2_k(R, s, r, GC_LOAD, addr, s->c.full_mask, R->line, t, 0, K);
	q[1] = (uint8_t)((q[1] & ~(GC_F_BYPASS_L1 << 4)) | GC_F_PREFETCH << 4);
}

/* l1_pf_access for a path of K and W (l1.c's l1_fast_pf: L1_K_PF, a
 * functional model's prefetches into 4 LRU ways; 0: any).  L1_K_PF's
 * path runs the stride prefetcher inline, and a window of lines inside
 * the address space one line after another, with no list. */
static inline __attribute__((always_inline)) void
l1_pf_access_k(gc_l1 *R, struct sm *s, const gc_rec *r, int miss, uint64_t t, unsigned K,
	       unsigned W)
{
	uint64_t lines[GC_PF_OUT_MAX];
	uint64_t line = gc_cache_tag(&s->c, r->addr);
	unsigned n;
	if ((K & L1_K_PF) && s->pf.p.kind == GC_PF_STRIDE) {
		gc_pf *p = &s->pf;
		const struct gc_pf_entry *e = gc_pf_stride_train(p, r->pc, line);
		if (!e)
			return;
		int64_t stride = e->stride;
		n = p->p.degree;
		if (gc_pf_inside(p, line, stride, n)) {
			uint64_t l = line + (uint64_t)(stride * (int64_t)p->p.distance);
			const gc_cline **at = s->pfat;
			for (unsigned i = 0; i < n; i++, l += (uint64_t)stride)
				l1_pf_line_k(R, s, r, l, at, i, t, K, W);
			return;
		}
		n = gc_pf_ahead(p, line, stride, n, lines);
	} else {
		n = gc_pf_access(&s->pf, r->pc, r->block * R->pf_wpb + r->warp, line, miss, lines);
	}
	for (unsigned i = 0; i < n; i++)
		l1_pf_line_k(R, s, r, lines[i], s->pfat, i, t, K, W);
}

/* A miss and its class counted (a deferred one's are the drain's). */
static inline void count_miss(struct sm *s, int result, int cls)
{
	s->n.misses++;
	s->n.sector_misses += result == GC_R_SECTOR_MISS;
	s->n.cls[cls]++;
}

/* A request of operation op for sectors m that L1 looks up, `valid` of
 * them valid on arrival, its line present or not: the per-sector counts
 * (a line miss when the line is absent and a sector is missing). */
static inline void count_sectors(struct sm *s, int op, uint8_t m, uint8_t valid, int present)
{
	unsigned n = popcount8(m), h = popcount8(m & valid);
	uint64_t *o = s->n.op_sec[op & 3];
	s->n.sec_requested += n;
	s->n.sec_hits += h;
	o[GC_L1_SEC_REQUESTED] += n;
	o[GC_L1_SEC_HITS] += h;
	o[GC_L1_SEC_LINE_MISSES] += !present && h < n;
}

/* Warp instructions by operation: a record of another warp or dynamic
 * instruction than the record before starts one (the rule the timing
 * model's input groups them by); shared memory is not counted. */
static inline void count_inst(gc_l1 *R, struct sm *s, const gc_rec *r)
{
	uint64_t key = ((uint64_t)r->block << 16) | r->warp;
	if (R->inst_valid && R->inst_key == key && R->inst_seq == r->seq)
		return;
	R->inst_valid = 1;
	R->inst_key = key;
	R->inst_seq = r->seq;
	if (r->space != GC_SHARED)
		s->n.insts[r->op & 3]++;
}

/* A load's lookup of line l (NULL: absent) at addr for sectors m: counts
 * its sectors, and when every one is valid counts the hit, refreshes the
 * line and feeds the 3C shadow.  1 for a hit (the caller returns its
 * outcome), 0 for a miss of some sector (the caller goes on). */
static inline __attribute__((always_inline)) int
load_hit_k(gc_l1 *R, struct sm *s, gc_cline *l, uint64_t addr, uint8_t m, unsigned K)
{
	if (COUNTED(K) && !DEFERS(K, R)) /* deferred: the drain counts */
		count_sectors(s, GC_LOAD, m, l ? l->valid : 0, l != NULL);
	if (!NO_PF(K))
		pf_use(s, l);
	if (!l || (l->valid & m) != m)
		return 0;
	if (COUNTED(K) && !DEFERS(K, R))
		s->n.hits++;
	l1_touch(&s->c, l, K);
	if (DEFERS(K, R))
		l1_class_defer(R, s, GC_LOAD, addr, m, 0, 0, 0, 1);
	else if (CLASSIFIES(K, R))
		l1_fa_load(s, addr, m, 1);
	return 1;
}

static inline int load_hit(gc_l1 *R, struct sm *s, gc_cline *l, uint64_t addr, uint8_t m)
{
	return load_hit_k(R, s, l, addr, m, 0);
}

static inline void count_request(struct sm *s, const gc_rec *r)
{
	s->n.requests++;
	s->n.loads += r->op == GC_LOAD;
	s->n.stores += r->op == GC_STORE;
	s->n.atomics += r->op == GC_ATOMIC;
}

/* Whether r is a request L1 does not look up (see bypass()). */
static inline int passes_by(const gc_l1 *R, const gc_rec *r)
{
	return gc_l1_route(R->skip_global, r) != GC_L1_LOOKUP;
}

static inline int is_miss(uint8_t outcome)
{
	unsigned res = GC_OUT_RESULT(outcome);
	return res == GC_R_MISS || res == GC_R_SECTOR_MISS;
}

/* Per-(kernel, PC) counts (classify): the kernel is the one
 * gc_l1_kernel_begin named. */
static inline void l1_count_pc(gc_l1 *R, uint32_t pc, uint8_t outcome)
{
	if (gc_pctab_count(&R->pcs, pc, GC_OUT_RESULT(outcome) == GC_R_HIT, is_miss(outcome)) < 0)
		l1_fail(R, "out of memory");
}

/* Requests L1 does not look up: atomics, cache-global and skipped loads,
 * constant and texture requests go on to L2; shared memory goes nowhere.
 * Returns 1 when r is one of them (its outcome in *outcome). */
static inline __attribute__((always_inline)) int
bypass_k(gc_l1 *R, struct sm *s, const gc_rec *r, uint64_t time, uint8_t *outcome, unsigned K)
{
	unsigned route = R->route[r->op & 3][r->space][r->flags & 15];
	if (route == ROUTE_L1)
		return 0;
	if (COUNTED(K) && DEFERS(K, R)) /* access_now left it to a lookup's drain */
		count_request(s, r);
	if (route == ROUTE_SHARED) {
		if (COUNTED(K))
			s->n.shared++;
		*outcome = 0;
		return 1;
	}
	if (COUNTED(K))
		s->n.bypassed++;
	if (COUNTED(K) && r->op == GC_ATOMIC) {
		/* not looked up: every sector a miss */
		unsigned n = popcount8(R->maskmap[r->mask]);
		s->n.op_sec[GC_ATOMIC][GC_L1_SEC_REQUESTED] += n;
		s->n.op_sec[GC_ATOMIC][GC_L1_SEC_LINE_MISSES] += n;
	}
	to_l2_k(R, s, r, r->op, r->addr, RAW_MASK, r->size, time, 0, K);
	*outcome = GC_OUT_BYPASS;
	return 1;
}

static inline int bypass(gc_l1 *R, struct sm *s, const gc_rec *r, uint64_t time,
			 uint8_t *outcome)
{
	return bypass_k(R, s, r, time, outcome, 0);
}

/* A store of sectors m at `time` (the write policies' rules: l1.c, above
 * l1_store, which is K = 0's instance; W: a constant way count, or 0). */
static inline __attribute__((always_inline)) uint8_t
store_k(gc_l1 *R, struct sm *s, const gc_rec *r, uint8_t m, uint64_t time, unsigned K, unsigned W)
{
	uint64_t addr = r->addr & ~(uint64_t)(R->line - 1);
	uint64_t tag = gc_cache_tag(&s->c, addr);
	unsigned set = set_k(&s->c, addr, K);
	gc_cline *hint = NULL;
	gc_cline *l = probe_k(s, addr, set, &hint, W);
	uint8_t present = l ? l->valid & m : 0;
	uint8_t missing = m & ~present;
	uint8_t held = l ? (uint8_t)(l->aux & missing) : 0;
	uint8_t absent = missing & ~held; /* the sectors the store misses */
	int result = !absent ? GC_R_HIT : l ? GC_R_SECTOR_MISS : GC_R_MISS;
	int cls = GC_C_NONE;
	uint8_t outcome = 0;
	int policy = R->wpolicy[r->space];
	int partial = r->size < sector_bytes(R, m);

	if (COUNTED(K) && !DEFERS(K, R)) /* deferred: the drain counts */
		count_sectors(s, r->op, m, present | held, l != NULL);
	if (!NO_PF(K))
		pf_use(s, l);
	if (DEFERS(K, R)) {
		l1_class_defer(R, s, r->op, addr, m, absent, 0,
			       L1_CR_STORE | (partial ? L1_CR_PARTIAL : 0) |
			       (unsigned)policy << L1_CR_POLICY, l != NULL);
	} else if (CLASSIFIES(K, R)) {
		int fa_hit = l1_fa_store(R, s, addr, m, partial, policy);
		if (absent) /* none held: never partial-write */
			cls = l1_classify(R, s, tag, m, absent, 0, fa_hit);
	}
	if (!COUNTED(K) || DEFERS(K, R))
		;
	else if (!absent)
		s->n.hits++;
	else
		count_miss(s, result, cls);

	if (policy == GC_WRITE_EVICT) {
		if (l) {
			if (l->dirty)
				outcome |= GC_OUT_WRITEBACK;
			write_back_k(R, s, r, l, time, K);
			gc_cache_invalidate(&s->c, l);
			if (CHANGES(K))
				note_change_k(s, tag, K);
		}
		to_l2_k(R, s, r, GC_STORE, addr, m, r->size, time, 0, K);
		return (uint8_t)(GC_OUT_MAKE(result, cls) | outcome);
	}

	int alloc = R->walloc != GC_WALLOC_NONE && missing;
	int filled = 0;
	if (!l && alloc) {
		l = allocate_k(R, s, r, addr, set, hint, time, &outcome, K);
		filled = 1;
	}
	uint8_t validated = 0;
	if (l) {
		if (alloc) {
			if (!partial) {
				validated = missing;
			} else if (R->walloc == GC_WALLOC_FETCH_ON_WRITE) {
				to_l2_k(R, s, r, GC_LOAD, addr, missing, sector_bytes(R, missing), time,
					0, K);
				validated = missing;
			} else {
				l->aux |= missing; /* partly written, not fetched */
			}
		}
		l->valid |= validated;
		l->aux &= ~(uint32_t)validated;
		if (CHANGES(K) && (filled || validated))
			note_change_k(s, tag, K);
		l1_touch(&s->c, l, K);
	}
	if (policy == GC_WRITE_BACK) {
		uint8_t kept = l ? m & l->valid : 0;
		if (l)
			l->dirty |= kept;
		uint8_t fwd = m & ~kept;
		if (fwd) {
			unsigned b = fwd == m ? r->size : sector_bytes(R, fwd);
			if (b > r->size)
				b = r->size;
			to_l2_k(R, s, r, GC_STORE, addr, fwd, b, time, 0, K);
		}
	} else {
		to_l2_k(R, s, r, GC_STORE, addr, m, r->size, time, 0, K);
	}
	return (uint8_t)(GC_OUT_MAKE(result, cls) | outcome);
}

#endif
