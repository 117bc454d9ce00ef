/*
 * model/l2.h - the L2 engine: the shared, sliced L2 of gc-l2 (slices,
 * address mapping, sectors, write policies, the L2 prefetcher, flushes)
 * and the counters its statistics need.
 *
 * The engine knows no command line: it reads a request stream from a
 * reader to its end, writes what goes to DRAM (or, with emit_all, every
 * request annotated with its outcome) through a writer, and keeps the
 * counts.
 *
 *   gc_l2 *L = gc_l2_new(&params, &refused, err, sizeof err);
 *   gc_l2_run(L, reader, writer, &back);  (or, for a sweep, gc_l2_place per request)
 *   gc_l2_finish(L); s = gc_l2_stats(L); ...; gc_l2_free(L);
 *
 * Every call that can fail returns -1 (NULL for gc_l2_new) and leaves a
 * one-line message (gc_l2_error); after a failure the engine refuses
 * everything but gc_l2_error and gc_l2_free.
 */
#ifndef GC_MODEL_L2_H
#define GC_MODEL_L2_H

#include "base/kunits.h"
#include "base/optab.h"
#include "base/pctab.h"
#include "config/gpu.h"
#include "model/prefetch.h"
#include "stream/stream.h"

#include <stddef.h>
#include <stdint.h>

typedef struct gc_l2 gc_l2;

/* DRAM reads and writes by cause. */
enum { GC_L2_RD_LOAD, GC_L2_RD_ATOMIC, GC_L2_RD_WRITE_FETCH, GC_L2_RD_PARTIAL,
       GC_L2_RD_PREFETCH, GC_L2_NRCAUSES };
enum { GC_L2_WR_EVICT, GC_L2_WR_FLUSH, GC_L2_WR_THROUGH, GC_L2_WR_AROUND, GC_L2_NWCAUSES };

/* Sectors: every sector of a request's mask is requested, and a hit when
 * it is present at the lookup (valid; for a store valid or partial), the
 * rule that makes the request a hit when all of them are. */
typedef struct gc_l2_sectors {
	uint64_t requested, hits;
} gc_l2_sectors;

/* Sectors of one operation (GC_LOAD, GC_STORE, GC_ATOMIC): requested;
 * hits as the model counts them (present at the lookup); line misses
 * (one a request that finds its line absent: GPGPU-Sim's MISS, its other
 * missing sectors being SECTOR_MISS); hits as the hardware counts them
 * (a store sector allocated without a DRAM read is a hit too). */
typedef struct gc_l2_op_sectors {
	uint64_t requested, hits, line_misses, merged, hw_hits;
} gc_l2_op_sectors;

typedef struct gc_l2_slice {
	uint64_t requests, hits, misses, dram_reads, dram_writes;
	gc_l2_sectors sec;
	gc_l2_op_sectors *op; /* [4], by operation */
} gc_l2_slice;

/* What a kernel's entry in "kernels" reports: the counters at its begin
 * and at its end (after the flush), differenced. */
typedef struct gc_l2_kcounts {
	uint64_t requests, hits, sec_requested, sec_hits;
	uint64_t dram_reads, dram_read_bytes, dram_writes, dram_write_bytes;
	gc_l2_op_sectors op[4];
} gc_l2_kcounts;

typedef struct gc_l2_kstat {
	uint32_t id;
	char *name;
	gc_l2_kcounts n;
} gc_l2_kstat;

/* The whole L2's counts. */
typedef struct gc_l2_totals {
	gc_l2_op_sectors op[4];
	uint64_t requests, results[4];
	uint64_t ops[4], op_hits[4];
	uint64_t dram_reads, dram_read_bytes, dram_writes, dram_write_bytes;
	uint64_t read_records, write_records;
	uint64_t rd[GC_L2_NRCAUSES], wr[GC_L2_NWCAUSES];
	uint64_t evictions, dirty_evictions, kernels, flushes, dirty_left;
	gc_l2_sectors sec;
} gc_l2_totals;

typedef struct gc_l2_statistics {
	unsigned nslices;
	gc_l2_totals s;               /* as of the last gc_l2_finish */
	const gc_l2_slice *sl;        /* [nslices] */
	const gc_l2_kstat *ks;        /* the kernels, in order */
	size_t nks;
	const gc_kunits *kslices;     /* each kernel's sectors by slice */
	const gc_pctab *pcs;          /* with by_pc: (kernel name, pc) -> counts */
	const gc_opmap *ops;          /* (kernel name, pc) -> opcode */
	gc_pf_counts pfc;             /* the prefetches and what became of them */
	uint64_t l1_prefetches;       /* requests that are L1's prefetches */
} gc_l2_statistics;

typedef struct gc_l2_params {
	const gc_gpu_config *gpu;     /* the finished configuration (copied) */
	int flush;                    /* flush at every kernel end */
	int emit_all;                 /* every request with its outcome, not DRAM's */
	int by_pc;                    /* count (kernel, pc) rows */
	int sweep;                    /* the configuration and gc_l2_place alone */
	uint64_t miss_latency;        /* timed input: mem.dram_latency; 0: untimed */
	/* called once an event when set (progress) */
	void (*progress)(const gc_reader *r);
} gc_l2_params;

/* NULL with the message in err; *refused when the configuration is
 * refused (a usage error), else out of memory. */
gc_l2 *gc_l2_new(const gc_l2_params *p, int *refused, char *err, size_t len);
void gc_l2_free(gc_l2 *L);
const char *gc_l2_error(const gc_l2 *L);

/* Model the stream of r to its end, what it makes written to w (NULL:
 * nothing): 0, or -1 with the message in gc_l2_error; when the message is
 * about a record, *back is 1 + how many records before the reader's last
 * it is (gc_die_record_back's), else 0. */
int gc_l2_run(gc_l2 *L, gc_reader *r, gc_writer *w, uint64_t *back);

/* A request's mask checked and its slice and set found: its set among
 * every slice's, or -1 (a mask that is no set of the line's sectors,
 * the message in gc_l2_error, and the engine not failed). */
long gc_l2_place(gc_l2 *L, const gc_rec *rec, unsigned *slice);

/* Bring the statistics up to date (the dirty sectors left counted). */
void gc_l2_finish(gc_l2 *L);
const gc_l2_statistics *gc_l2_stats(const gc_l2 *L);

#endif
