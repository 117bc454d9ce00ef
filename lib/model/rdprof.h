/*
 * rdprof.h - the reuse-distance profile of a stream, as gc-rd takes it:
 * the rules the references follow, the LRU stacks (rd.h) they go to, the
 * rows of --by and the cut-offs (the caches whose LRU hits and SDCM hit
 * rate are counted).
 *
 * The rules (gc-rd(1), Scope) are gc-l1's with scope l1: only the
 * requests the L1 looks up (gc_l1_route), a stack per SM, the stacks
 * emptied at each kernel start when the GPU's l1.kernel_flush says so
 * and whenever a kernel's carve-out changes the L1's sets or ways (gc-l1
 * remakes its L1s then), and each kernel cut at its carve-out's L1.  The
 * stream's: every reference, one stack (a stack per SM with --by sm,
 * emptied at each kernel start with --by kernel).
 *
 *   gc_rdprof x;
 *   gc_rdprof_init(&x, &params, err, sizeof err);
 *   for each kernel begin: gc_rdprof_kernel(&x, k);
 *   for each record: gc_rdprof_prefetch(&x, r) a few records ahead, then
 *                    gc_rdprof_record(&x, r)  (sets r->dist);
 *   gc_rdprof_finish(&x);  then read the fields and gc_rdprof_cut();
 *   gc_rdprof_free(&x);
 *
 * Like the rest of lib/, nothing here prints or exits: -1 leaves a
 * one-line message in x->err (out of memory, or more than 2^31 distinct
 * units in one stack, or 2^32 kernel launches or PCs in a row key).
 */
#ifndef GC_MODEL_RDPROF_H
#define GC_MODEL_RDPROF_H

#include "base/hash.h"
#include "base/rowmap.h"
#include "config/gpu.h"
#include "model/l1.h"
#include "model/rd.h"
#include "stream/format.h"

#include <stddef.h>
#include <stdint.h>

enum { GC_RDP_LINE, GC_RDP_SECTOR, GC_RDP_BYTE };     /* units */
enum { GC_RDP_SM, GC_RDP_KERNEL, GC_RDP_PC, GC_RDP_NBY }; /* --by keys */
enum { GC_RDP_AUTO, GC_RDP_L1, GC_RDP_STREAM };       /* scopes */

#define GC_RDP_GROUP_BOUND 65536        /* --by histograms: exact below this */
#define GC_RDP_SAMPLED_BOUND (1u << 20) /* sampled histograms: exact below this */

/* Whether gc-l1's rules apply to a stream with header h (name: for the
 * message): scope GC_RDP_L1 asks for them, GC_RDP_AUTO takes them when
 * there is a GPU (gpu_given, or GPU keys in the header: *have_gpu says
 * which) and the stream is not past the L1 (gc-l1's output to L2, DRAM
 * transactions).  1 or 0; -1 with the message when scope l1 is asked of a
 * stream past the L1 (a usage error). */
int gc_rdprof_scope_l1(int scope, int gpu_given, const gc_header *h, const char *name,
		       int *have_gpu, char *err, size_t len);

typedef struct gc_rdp_params {
	const gc_gpu_config *gpu; /* finished, copied; NULL: none */
	int scope_l1;             /* gc-l1's rules (gc_rdprof_scope_l1) */
	int kind;                 /* the stream's GC_KIND_* */
	int gran;                 /* GC_RDP_LINE, _SECTOR, _BYTE */
	unsigned line, sector;    /* bytes: powers of two, sector <= line */
	int by[GC_RDP_NBY];       /* --by keys in order, nby of them */
	int nby;
	int boundary;             /* empty the stacks at each kernel start: 1, 0, -1 the rules' */
	unsigned sets;            /* a stack per cache set (1: one) */
	int index;                /* their set index (gc_set_index) */
	uint64_t lines, ways;     /* the cut-off's cache (0 lines: each kernel's L1 with a
				   * GPU at line or sector units, else none) */
	uint64_t sample;          /* SHARDS: at most this many units a stack (0: exact) */
	int no_prefetch;          /* records with GC_F_PREFETCH are no references */
} gc_rdp_params;

/* A cache the references are cut at: --lines/--ways, or the L1 a kernel
 * runs with (the carve-out's), in units. */
typedef struct gc_rdp_cfg {
	uint64_t lines, ways;  /* units in all, per set (SDCM's B and A); 0 lines: none */
	uint64_t bytes;        /* the L1's bytes */
	unsigned l1_sets, l1_ways; /* the L1's geometry (gc-l1 remakes its L1s when it changes) */
	int sdcm_ok;           /* SDCM can evaluate A ways of B units */
} gc_rdp_cfg;

/* The references of one cut-off: a histogram, the LRU hits at the cut. */
typedef struct gc_rdp_part {
	gc_rd_hist h;
	uint64_t refs;         /* references offered (sampling drops some) */
	double hits;           /* distance < the cut-off when it was made */
} gc_rdp_part;

/* The parts of a row (or of the whole stream), by cut-off. */
typedef struct gc_rdp_tally {
	gc_rdp_part *p;
	unsigned np;
} gc_rdp_tally;

/* One row of --by: a combination of the keys' values. */
typedef struct gc_rdp_group {
	uint64_t key;
	uint16_t sm;
	uint32_t kernel;       /* kernel id */
	uint32_t pc;
	uint64_t launch;       /* launch ordinal */
	uint64_t refs;
	gc_rd_hist h;          /* every reference (the parts merged at the end) */
	gc_rdp_tally t;
} gc_rdp_group;

/* One kernel launch: its cut-off and its counts. */
typedef struct gc_rdp_launch {
	uint32_t id;
	char *name;
	unsigned cfg;
	uint64_t refs;
	double hits;
} gc_rdp_launch;

/* One LRU stack (exact: s.st only). */
typedef struct gc_rdp_stack {
	gc_rds s;
} gc_rdp_stack;

typedef struct gc_rdprof {
	gc_rdp_params p;
	unsigned lshift, sshift, ushift; /* line, sector, unit */
	int sampled;

	/* the rules: gc-l1's (scope l1) or the stream's */
	int scope_l1;         /* only what the L1 looks up; geometry changes empty the stacks */
	int per_sm;           /* a stack per SM */
	int flush;            /* empty the stacks at each kernel start */
	gc_l1_routes route;   /* gc_l1_route of (op, space, flags) */
	gc_gpu_config gpu;
	int have_gpu;
	uint64_t shared, bypassed; /* records the L1 does not look up */
	uint64_t prefetches;  /* records with GC_F_PREFETCH (references unless no_prefetch) */

	/* stacks: by set (direct), or by (sm, set) through a map */
	gc_rdp_stack *stacks;
	size_t nstacks, scap;
	gc_hmap skeys;
	uint64_t prev_skey;
	gc_rdp_stack *prev_stack;

	/* histograms */
	gc_rd_hist all;       /* every reference (the parts merged at the end) */
	gc_rdp_tally tall;
	uint64_t records, refs, norefs;
	gc_rowmap groups;     /* --by key -> gc_rdp_group */
	gc_hmap tuples;       /* (prefix, value) -> prefix of the next key */
	gc_hmap pcids;        /* (kernel, pc) -> a number */
	uint64_t last_sm, last_launch, last_pc; /* the row of the last record */
	size_t last_group;
	int has_last_group;
	uint64_t launches;
	uint32_t kernel;
	gc_rdp_launch *lv;    /* the launches, in order */
	size_t nl, lcap;

	/* the caches of the cut-off and of SDCM: cfgs[cur] now */
	gc_rdp_cfg *cfgs;
	unsigned ncfg, cur;
	uint64_t cut;         /* distances below it hit (0: no cache) */
	int cache_from_gpu;
	/* the cache the report and the picture show: the one most references
	 * were cut at (set by gc_rdprof_finish) */
	uint64_t ways, clines;

	char err[160];
} gc_rdprof;

/* Whether key (GC_RDP_SM, ...) is one of the --by keys of p. */
int gc_rdp_has_by(const gc_rdp_params *p, int key);

/* 0; -1 with the message in err when out of memory; -2 with it when
 * there are more sets than the GPU's L1 has units (a usage error).  x is
 * to be freed either way. */
int gc_rdprof_init(gc_rdprof *x, const gc_rdp_params *p, char *err, size_t len);
void gc_rdprof_free(gc_rdprof *x);

/* A kernel begins: its cut-off (the carve-out's L1 with a GPU), and the
 * stacks emptied when the rules say so.  -1 when out of memory. */
int gc_rdprof_kernel(gc_rdprof *x, const gc_kernel *k);
/* The references of a record; its distance (the largest of its units',
 * GC_RD_NONE for none) in r->dist.  -1 with x->err. */
int gc_rdprof_record(gc_rdprof *x, gc_rec *r);
/* Start fetching the hash slot of a record's first unit (a stack per set
 * only): call it a few dozen records ahead of gc_rdprof_record. */
void gc_rdprof_prefetch(const gc_rdprof *x, const gc_rec *r);
/* The histograms flushed, merged (and adjusted when sampled); the cache
 * shown chosen.  -1 with x->err. */
int gc_rdprof_finish(gc_rdprof *x);

/* Row i of --by, in order of first appearance. */
static inline const gc_rdp_group *gc_rdprof_group(const gc_rdprof *x, size_t i)
{
	return (const gc_rdp_group *)gc_rowmap_rows(&x->groups) + i;
}
/* The figures of histogram h (x->all, or a row's) at the cut-offs. */
typedef struct gc_rdp_cut {
	double hits, misses, compulsory, capacity, sdcm;
} gc_rdp_cut;
/* LRU: the hits counted at each reference's cut-off.  SDCM: formula 2
 * over each cut-off's references (NaN with sets, whose distances are per
 * set, or a cache SDCM cannot evaluate). */
gc_rdp_cut gc_rdprof_cut(const gc_rdprof *x, const gc_rd_hist *h);
/* The cut-offs that references were cut at: 1 or more. */
unsigned gc_rdprof_cuts_used(const gc_rdprof *x);
/* The lowest sampling rate of the stacks (1 when exact). */
double gc_rdprof_rate(const gc_rdprof *x);

#endif
