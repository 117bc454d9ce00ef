/*
 * model/l1.h - the L1 engine: one private L1 data cache per SM, its
 * functional model (seed 003 §4.1), the timing model of seed 000 §4.2-4.5,
 * miss classification and the counters the statistics need.
 *
 * The engine knows no command line and no streams: requests come in as
 * records, what goes on to L2 (or, with emit_all, every request annotated
 * with its outcome) goes out through the emit callback, and the timing
 * model reads a kernel's records through the read callback as it needs
 * them (it looks ahead, so it cannot be fed one record at a time).
 *
 *   gc_l1 *L = gc_l1_new(&params, err, sizeof err);
 *   functional:  gc_l1_kernel_begin(L, k); gc_l1_access(L, recs, n, NULL, 0) ...;
 *                gc_l1_kernel_end(L);
 *   timing:      gc_l1_kernel_begin(L, k); gc_l1_kernel_run(L); gc_l1_kernel_end(L);
 *   gc_l1_finish(L); s = gc_l1_stats(L); ...; gc_l1_free(L);
 *
 * Every call that can fail returns -1 (NULL for gc_l1_new) and leaves a
 * one-line message (gc_l1_error); after a failure the engine refuses
 * everything but gc_l1_error and gc_l1_free.
 *
 * The files: l1.c (the API, configuration, the functional model),
 * l1_class.c (classification, per-PC counts), l1_input.c (the timing
 * model's buffered input), l1_timing.c (the timing model); l1_impl.h is
 * their shared state.  l1queue.h is the engine's helper.
 */
#ifndef GC_MODEL_L1_H
#define GC_MODEL_L1_H

#include "base/kunits.h"
#include "base/pctab.h"
#include "config/gpu.h"
#include "stream/format.h"

#include <stddef.h>
#include <stdint.h>

typedef struct gc_l1 gc_l1;

/* Records go out, r[0..n) in order: 0, or -1 when they could not be
 * written (the message in err, which the engine then fails with).  The
 * engine collects them and hands them over before each call returns. */
typedef int (*gc_l1_emit_fn)(void *ctx, const gc_rec *r, size_t n, char *err, size_t len);
/* The same from gc_l1_access_raw: n request records of GC_RECORD_BASE
 * bytes at p, in gc-stream(5)'s layout, all of the clock's high half
 * time_hi (a record's time is time_hi | its bytes 20-23): the bytes a
 * writer writes for the records emit would get, as gc_write_raw takes
 * them. */
typedef int (*gc_l1_emit_raw_fn)(void *ctx, const unsigned char *p, size_t n, uint64_t time_hi,
				 char *err, size_t len);

/* The timing model wants the kernel's next records: up to `max` of them
 * into r[] (recno[i]: their numbers in the stream, for messages) and how
 * many; 0 when the kernel's input has ended, -1 on an error (the message
 * in err).  Fewer than max is fine (the engine asks again). */
typedef long (*gc_l1_read_fn)(void *ctx, gc_rec *r, uint64_t *recno, size_t max, char *err,
			      size_t len);

/* When a block (and its warps) read from the input joins its SM, with
 * --timing: READ at the global time it was read (SMs stepped in one
 * global order); FREE when the SM has a free slot, in its own time, all
 * its warps together, whenever the records were read (SMs apart). */
enum { GC_L1_DISPATCH_READ, GC_L1_DISPATCH_FREE };

typedef struct gc_l1_params {
	/* The finished configuration (copied): the L1, the miss latency,
	 * L2's sectors for the output, the SM for the carve-out. */
	const gc_gpu_config *gpu;
	unsigned in_line;      /* the stream's line bytes (0: the L1's; must be the L1's) */
	unsigned in_sector;    /* the stream's sector bytes (0: min(32, line)) */
	int timing;            /* the timing model (else functional) */
	int classify;          /* classes and per-(kernel, PC) counts (slower) */
	int emit_all;          /* emit every request with its outcome, not what goes to L2 */
	int flush;             /* invalidate the L1s at each kernel end */
	int uncounted;         /* nothing reads the counts (gc_l1_stats's totals, kernels,
				* SMs): the functional model and the timing model's
				* common path may skip keeping them, and they are then
				* unspecified */
	uint64_t seed;         /* random replacement and miss latencies */
	uint64_t window;       /* timing: a warp with no record in this many has ended */
	int step_all;          /* timing: no skipping of blocked steps (a check) */
	int look_all;          /* timing: a retry looks at every request again (a check) */
	int generic;           /* timing: the steps test every option, no instance of them
				* for the common configuration (a check) */
	int in_order;          /* timing: every step in the global order, none ahead (a check) */
	int class_now;         /* functional: classify each reference at once, not in
				* batches per SM (a check) */
	unsigned threads;      /* timing: threads that step SMs ahead; deferred classes:
				* N - 1 drain SMs' batches (0, 1: the caller's alone) */
	int dispatch;          /* timing: when a block or warp read joins its SM (GC_L1_DISPATCH_*) */
	unsigned free_read;    /* timing, dispatch free: records read a round (0: 256K; a check) */
	const char *input;     /* the input's name, for messages */
	gc_l1_emit_fn emit;
	gc_l1_emit_raw_fn emit_raw; /* gc_l1_access_raw's (NULL: it is refused) */
	void *emit_ctx;             /* both's */
	gc_l1_read_fn read;    /* timing only */
	void *read_ctx;
} gc_l1_params;

/* op_sec[op][...]: the operations (0 unused, GC_LOAD, GC_STORE,
 * GC_ATOMIC) and the sector counts of each. */
#define GC_L1_NOPS 4
enum { GC_L1_SEC_REQUESTED, GC_L1_SEC_HITS, GC_L1_SEC_LINE_MISSES, GC_L1_SEC_MERGED,
       GC_L1_SEC_RES_FAILS, GC_L1_NSECS };

/* Counts of one SM, one kernel or the whole run. */
typedef struct gc_l1_counts {
	uint64_t requests, loads, stores, atomics;
	uint64_t hits, misses, sector_misses, bypassed, shared;
	uint64_t cls[GC_NCLASSES]; /* misses by class (GC_C_*) */
	uint64_t stalls;     /* instructions cancelled for want of an MSHR */
	uint64_t l2_reads, l2_writes, l2_atomics;
	uint64_t l2_read_bytes, l2_write_bytes, l2_atomic_bytes;
	uint64_t writebacks; /* of those writes, write-backs of dirty sectors */
	/* Per sector, over the requests L1 looks up: the L1 sectors of their
	 * masks, and those valid when the request arrived. */
	uint64_t sec_requested, sec_hits;
	/* The same by operation (GC_LOAD, GC_STORE, GC_ATOMIC: atomics are
	 * never looked up, their sectors count as misses), with the missing
	 * sectors split as GPGPU-Sim's per-sector lookups see them: a request
	 * finding its line absent has one line miss (its first missing
	 * sector), its other missing sectors are sector misses; sectors of
	 * an in-flight miss (timing) are merged.  RES_FAILS (timing) counts
	 * the failed attempts to issue: each time an instruction is
	 * cancelled for want of an MSHR, one, on its first request that did
	 * not fit (always a load), as GPGPU-Sim counts RESERVATION_FAIL for
	 * each access retried.  And warp instructions by
	 * operation (a run of requests of one warp and dynamic instruction;
	 * shared memory not counted). */
	uint64_t op_sec[GC_L1_NOPS][GC_L1_NSECS];
	uint64_t insts[GC_L1_NOPS];
	/* The prefetcher (l1.prefetch): prefetches issued, and what became
	 * of them (model/prefetch.h); they are in l2_reads too. */
	uint64_t pf_issued, pf_useful, pf_late, pf_useless;
} gc_l1_counts;

typedef struct gc_l1_kstat {
	uint32_t id;
	char name[64];
	uint64_t l1_size, shmem;   /* the carve-out the kernel ran with */
	unsigned sets, ways, active;
	gc_l1_counts n;            /* complete once the kernel has ended */
} gc_l1_kstat;

typedef struct gc_l1_smstat {
	unsigned sm;
	gc_l1_counts n;
} gc_l1_smstat;

typedef struct gc_l1_statistics {
	/* from gc_l1_new on */
	unsigned line, sector, sets, ways; /* the L1 as configured */
	unsigned in_line, in_sector;       /* the stream's */
	unsigned out_sector;               /* sectors of the L2 requests' masks */
	/* as of the last gc_l1_finish */
	gc_l1_counts total;
	const gc_l1_kstat *kernels;        /* in order */
	size_t nkernels;
	const gc_l1_smstat *sms;           /* the SMs seen, by number */
	size_t nsms;
	/* Kernel k's sectors by SM (GC_KU_* of loads and stores), the SMs
	 * that looked something up in it: kunits.h rows of kernel k. */
	const gc_kunits *ksms;
	/* With classify: one row per (kernel name, PC), by misses, most
	 * first (gc_pctab_sorted); the names are pctab's. */
	const gc_pcrow *pcs;
	size_t npcs;
	const gc_pctab *pctab;
	uint64_t cycles;                   /* timing: the last time */
	uint64_t peak_buffered;            /* timing: most records buffered */
} gc_l1_statistics;

/* Where the L1 sends a request (gc-l1's rule, which gc-rd --scope l1
 * follows): looked up in L1; nowhere (shared memory); on to L2 unlooked
 * (atomics, constant and texture requests, the bypass flag, and global
 * loads when skip_global, the GPU's l1.skip_global). */
enum { GC_L1_LOOKUP, GC_L1_SHARED, GC_L1_BYPASS };
static inline int gc_l1_route(int skip_global, const gc_rec *r)
{
	if (r->space == GC_SHARED)
		return GC_L1_SHARED;
	if (r->op == GC_ATOMIC || (r->flags & GC_F_BYPASS_L1) || r->space == GC_CONST ||
	    r->space == GC_TEXTURE ||
	    (r->op == GC_LOAD && skip_global && (r->space == GC_GLOBAL || r->space == GC_GENERIC)))
		return GC_L1_BYPASS;
	return GC_L1_LOOKUP;
}
/* gc_l1_route of every (op, space, flags) into t, indexed [op & 3][space]
 * [flags & 15], so that the hot loop looks it up (op 0, not an operation,
 * is looked up). */
typedef uint8_t gc_l1_routes[4][GC_NSPACES][16];
void gc_l1_route_table(gc_l1_routes t, int skip_global);

/* NULL with the message in err (a bad geometry, a stream line size not
 * the L1's, out of memory). */
gc_l1 *gc_l1_new(const gc_l1_params *p, char *err, size_t len);
void gc_l1_free(gc_l1 *L);
const char *gc_l1_error(const gc_l1 *L);

/* A kernel begins (k: its sizes set the carve-out; NULL: none). */
int gc_l1_kernel_begin(gc_l1 *L, const gc_kernel *k);
/* Timing: run the kernel begun to the end of its input (read) and of its
 * last miss. */
int gc_l1_kernel_run(gc_l1 *L);
/* The kernel ends: the L1s are flushed when params.flush says so. */
int gc_l1_kernel_end(gc_l1 *L);

/* Functional: model requests rec[0..n) in order; ahead[0..nahead), the
 * ones that come next, are a hint (their state is prefetched meanwhile). */
int gc_l1_access(gc_l1 *L, const gc_rec *rec, size_t n, const gc_rec *ahead, size_t nahead);

/* Functional, the form that decodes and encodes nothing it need not: n
 * requests as gc_read_raw gives them from a stream of GC_RECORD_BASE-byte
 * records (time base time_hi), what they send on going out through
 * emit_raw, patched from their bytes.  The model, its output and its
 * statistics are gc_l1_access's for the records decoded.  Whether the
 * engine takes them (functional, no prefetcher with --emit all, an
 * emit_raw callback); gc_l1_access_raw fails when it does not. */
int gc_l1_raw_ok(const gc_l1 *L);
int gc_l1_access_raw(gc_l1 *L, const unsigned char *p, size_t n, uint64_t time_hi);

/* Invalidate every L1 now, dirty sectors written back at `time`. */
int gc_l1_flush(gc_l1 *L, uint64_t time);

/* Bring the statistics up to date (may be called more than once). */
int gc_l1_finish(gc_l1 *L);
const gc_l1_statistics *gc_l1_stats(const gc_l1 *L);

#endif
