/*
 * profile.h - a G-MAP profile (seed 002 §4.6): the data model, the text
 * form of gc-profile(5) (profile_text.c reads and writes it) and the
 * obfuscation of its base addresses (profile.c).
 *
 * Per kernel, the 5-tuple (Pi, Q, B, P_S, P_R) of seed 002 and the
 * kernel's launch (grid, block, registers, shared memory, attributes):
 *
 *   - The static instructions (gc_pinst): a memory instruction as the
 *     stream names it (pc, op, space, flags, size).  For each: B, the base
 *     address (the first address of the first thread, in thread order,
 *     that executes it); the extent, the lowest and highest offsets from B
 *     that any access of it touched (gc-clone keeps generated addresses
 *     inside it); and P_S = (P_E, P_A):
 *       P_E, the inter-thread stride, by context (below);
 *       P_A, the intra-thread stride: address minus the same thread's
 *       previous address for this instruction.
 *   - The dominant profiles Pi (gc_pprof) with Q, the number of threads in
 *     each one's cluster (Q = threads / the kernel's threads).  A profile
 *     is the ordered sequence of static instructions a thread executes,
 *     each entry with its seq delta: the warp's dynamic instruction number
 *     (gc_rec.seq) minus that of the thread's previous entry (the first
 *     entry: its seq).  Threads the stream never shows (no memory access)
 *     have the empty profile, which is a profile like the others (len 0).
 *     Per profile, P_R: the intra-thread reuse distance of every access
 *     but the first of each static instruction in the thread: the number
 *     of distinct addresses the thread touched since it last touched this
 *     one (seed 002 Fig. 5; LRU stack distance at address granularity,
 *     none for a new address or one deeper than the profiler's depth).
 *   - Runs (an extension of the paper): when the profiles of the threads
 *     in thread order form at most --max-runs runs, the runs themselves
 *     (first thread, profile), and gc-clone assigns profiles by them rather
 *     than drawing from Q; none when there are more.
 *
 * Thread order: thread t of block b is b * (block size) + warp *
 * warp_size + lane, block b the linear block id (x fastest), as in the
 * stream.
 *
 * Inter-thread contexts.  GPU addresses are linear in each coordinate of
 * the thread index, not in the linear thread id, so P_E is kept per
 * context: for thread t executing instruction k for the first time, let p
 * be the previous thread in thread order that executed k; the context is
 * the slowest of t's coordinates (bz, by, bx, tz, ty, tx) where t and p
 * differ, and the stride is t's first address minus the first address of
 * the first executor of k in p's unit at that level (tx: p itself; ty: the
 * first executor in p's row; tz: in p's plane; bx: in p's block; by: in
 * p's row of blocks; bz: in p's plane of blocks).  A kernel with a linear
 * index-to-address map has one value per context; the seed's single
 * distribution is the tx context of 1-D kernels.
 */
#ifndef GC_PROFILE_H
#define GC_PROFILE_H

#include "proxy/pdist.h"
#include "stream/format.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define GC_PROFILE_VERSION 1
#define GC_PROFILE_MAGIC "gc-profile"

enum gc_pe_ctx {
	GC_PE_BZ = 0, GC_PE_BY, GC_PE_BX, /* a new block: which block coordinate */
	GC_PE_TZ, GC_PE_TY, GC_PE_TX,     /* within a block */
	GC_PE_NCTX,
};
extern const char *const gc_pe_ctx_name[GC_PE_NCTX]; /* "bz" ... "tx" */

typedef struct gc_pinst {
	uint32_t pc;
	uint8_t op, space, flags; /* gc_rec's */
	uint16_t size;            /* bytes per lane */
	uint64_t base;            /* B */
	int64_t lo, hi;           /* extent: offsets from base, [lo, hi) bytes */
	uint64_t accesses;        /* its access records */
	gc_pdist pe[GC_PE_NCTX];  /* P_E by context (total 0: never seen) */
	gc_pdist pa;              /* P_A */
} gc_pinst;

typedef struct gc_pentry {
	uint32_t inst; /* index into the kernel's inst[] */
	uint32_t dseq; /* seq delta */
} gc_pentry;

typedef struct gc_pprof {
	uint64_t threads; /* threads of its cluster: Q's numerator */
	uint32_t len;
	gc_pentry *e;
	gc_pdist pr;      /* P_R */
} gc_pprof;

typedef struct gc_prun {
	uint64_t first; /* first thread (thread order) of the run */
	uint32_t prof;
} gc_prun;

typedef struct gc_pkernel {
	gc_kernel k;       /* id, name, grid, block, regs, shmem, attributes */
	uint64_t threads;  /* blocks * block size */
	uint64_t accesses; /* access records */
	uint32_t ninst, nprof, nrun;
	gc_pinst *inst;
	gc_pprof *prof;    /* sorted by descending threads, ties by first seen */
	gc_prun *run;      /* nrun runs, ascending first, run[0].first == 0 */
} gc_pkernel;

/* The inter-thread anchors of one static instruction while threads are
 * walked in thread order (gc-profile measuring, gc-clone generating: the
 * same rule both ways).  For a thread t executing the instruction for the
 * first time: c = gc_panchor_ctx(k, a, t) (-1 for the first executor of
 * the kernel, whose address is B); the stride is its address minus
 * a->first[c]; then gc_panchor_set(a, c, t, address). */
typedef struct gc_panchor {
	int seen;                      /* an executor so far */
	uint64_t last;                 /* the previous executor p */
	uint64_t first[GC_PE_NCTX];    /* first executor's address in p's unit per level */
} gc_panchor;

/* t's coordinates, slowest first: bz, by, bx, tz, ty, tx. */
void gc_pthread_coords(const gc_kernel *k, uint64_t t, uint64_t c[GC_PE_NCTX]);
int gc_panchor_ctx(const gc_kernel *k, const gc_panchor *a, uint64_t t);
/* Record t (context c, -1 for the first) at address addr: first[c..] =
 * addr (all levels for c = -1), last = t. */
void gc_panchor_set(gc_panchor *a, int c, uint64_t t, uint64_t addr);

/* The profile's own settings, written at its top. */
typedef struct gc_profile {
	int version;
	unsigned warp_size;
	char source_format[64]; /* the stream's source_format, "" if none */
	double similarity;      /* clustering threshold used */
	uint32_t max_exact, reuse_depth, max_profiles, max_runs;
	int obfuscated;
	uint32_t nkernel;
	gc_pkernel *kern;
} gc_profile;

void gc_profile_init(gc_profile *p);
void gc_profile_free(gc_profile *p);
void gc_pkernel_free(gc_pkernel *k);
/* Append a kernel (moved: *k is emptied); -1 out of memory. */
int gc_profile_add_kernel(gc_profile *p, gc_pkernel *k);

/* Write the text form; 0, or -1 on a write error (ferror). */
int gc_profile_write(FILE *f, const gc_profile *p);
/* Parse a whole profile from text[0..len) (name for messages).  -1 with
 * "NAME: line N: what" in err on anything malformed, inconsistent or cut
 * short (a profile ends with its "end" line). */
int gc_profile_parse(const char *text, size_t len, const char *name, gc_profile *p,
		     char *err, size_t errlen);

/* --obfuscate: the regions (the union of overlapping extents [base + lo,
 * base + hi) over every instruction of every kernel, so that arrays
 * shared by kernels move together) each move to a random, distinct
 * 16 MiB-aligned place in [2^32, 2^46) drawn from seed; every B moves
 * with its region and the address attributes (GC_A_SHMEM_BASE,
 * GC_A_LOCAL_BASE) are dropped.  Offsets within 16 MiB are kept, so set
 * and sector indices below bit 24 are unchanged.  -1 out of memory. */
int gc_profile_obfuscate(gc_profile *p, uint64_t seed);

#endif
