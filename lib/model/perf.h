/*
 * model/perf.h - seed 004's MDM performance model (its equations 1-10)
 * and the four models it is compared with (its Table V), over the
 * intervals of a kernel's representative warp; and the per-kernel
 * collection that finds the warps, their intervals and the
 * representative warp in a request stream (gc-perf(1)).
 *
 * perf.c holds the equations, one function each, numbered as the seed
 * numbers them, and the sum over intervals (eq. 1); perf_warp.c holds the
 * collection: a kernel's memory instructions per warp, the representative
 * warp (seed 004 §II, after GPUMech), its intervals.  Nothing here prints
 * or exits: a bad record is -1 with a one-line message in the caller's
 * buffer.
 *
 * Units: latencies and stalls in SM cycles, the clock in GHz, bandwidths
 * in GB/s of the whole GPU (the seed divides a per-channel service
 * latency by the n channels; an aggregate bandwidth already is that
 * division), the block size in bytes.
 */
#ifndef GC_MODEL_PERF_H
#define GC_MODEL_PERF_H

#include <stddef.h>
#include <stdint.h>

/* The five models of seed 004 Table V: the memory/NoC queue model and
 * the MSHR model each come from MDM or from GPUMech. */
enum gc_perf_model {
	GC_PERF_MDM,          /* MDM queue (eqs. 9-10) + MDM batching (eq. 6) */
	GC_PERF_MDM_QUEUE,    /* MDM queue + GPUMech+'s MSHR model */
	GC_PERF_MDM_MSHR,     /* GPUMech+'s queue + MDM batching */
	GC_PERF_GPUMECH_PLUS, /* GPUMech + a NoC queue, MSHR wait with the queues */
	GC_PERF_GPUMECH,      /* DRAM queue only, MSHR wait with L^NoContention */
	GC_PERF_NMODELS,
};

const char *gc_perf_model_name(int model); /* "mdm", "mdm-queue", ... */
int gc_perf_model_parse(const char *s);    /* -1 if unknown */

/* The architecture and the kernel-wide inputs of the equations. */
typedef struct gc_perf_params {
	int model;            /* enum gc_perf_model */
	double clock;         /* f, GHz */
	double sms;           /* #SMs: the SMs the kernel occupies */
	double warps;         /* W: warps an SM runs concurrently */
	double mshrs;         /* #MSHRs of an L1 */
	double issue_width;   /* warp instructions an SM issues per cycle */
	double llc_latency;   /* L^MinLLC: an LLC hit's round trip, no contention */
	double dram_latency;  /* L^MinDRAM: what an LLC miss adds, no contention */
	double noc_bandwidth; /* B^NoC, GB/s */
	double dram_bandwidth;/* B^DRAM, GB/s */
	double block_size;    /* bytes a miss request moves */
	double llc_miss_rate; /* of the kernel's L1 read misses */
	double l1_latency;    /* what a warp waits on a load that hits L1 */
} gc_perf_params;

/* ---- the equations (perf.c) --------------------------------------------- */

/* eq. 2: an MD interval, M^Read x W > #MSHRs. */
int gc_perf_md(const gc_perf_params *p, double m_read);
/* eq. 3: M = min(M^Read x W, #MSHRs) + M^Write x W. */
double gc_perf_m(const gc_perf_params *p, double m_read, double m_write);
/* eq. 4: L^NoContention = L^MinLLC + LLCMissRate x L^MinDRAM. */
double gc_perf_no_contention(const gc_perf_params *p);
/* eq. 7: L^NoCService = f x BlockSize / B^NoC. */
double gc_perf_noc_service(const gc_perf_params *p);
/* eq. 8: L^DRAMService = f x LLCMissRatio x BlockSize / B^DRAM. */
double gc_perf_dram_service(const gc_perf_params *p);
/* eq. 10: the NoC saturates, L^NoCService x M x #SMs > L^MinLLC + L^MinDRAM. */
int gc_perf_saturated(const gc_perf_params *p, double m);
/* eq. 9 for a service latency: #SMs x M x service, whole when `full`
 * (MD and saturated), else half. */
double gc_perf_queue(const gc_perf_params *p, int full, double m, double service);
/* eq. 6: (ceil(M^Read x W / #MSHRs) - 1) x S^Mem for an MD interval, else 0. */
double gc_perf_mshr_batches(const gc_perf_params *p, double m_read, double s_mem);
/* Our reading of GPUMech's MSHR wait (seed 004 §IV gives it only by name):
 * max(0, M^Read x W / #MSHRs - 1) x latency, no MD test, no ceiling. */
double gc_perf_mshr_gpumech(const gc_perf_params *p, double m_read, double latency);

/* One interval of the representative warp. */
typedef struct gc_perf_interval {
	double n;         /* warp instructions, the closing load's included */
	double c;         /* their dependency-bound cycles, the warp alone */
	double hit_waits; /* waits on loads that hit L1 (each l1_latency) */
	double m_read;    /* M^Read: the closing load's L1 miss requests */
	double m_write;   /* M^Write: store requests in the interval */
	int miss;         /* it ends in a load that misses L1 */
} gc_perf_interval;

/* What one interval costs (cycles of an SM). */
typedef struct gc_perf_cost {
	double compute;   /* C_i: max(W n / issue width, c + hit waits x l1 + L^NoContention) */
	double mshr, noc, dram; /* S^MSHR, S^NoC, S^DRAM */
	double path;      /* one warp's own path: c + hit waits x l1 (+ L^NoContention) */
	double m, s_mem;  /* M (eq. 3) and S^Mem (eq. 5) */
	int md, saturated;/* eq. 2, eq. 10 */
} gc_perf_cost;

void gc_perf_interval_cost(const gc_perf_params *p, const gc_perf_interval *iv,
			   gc_perf_cost *out);

/* The intervals together (eq. 1). */
typedef struct gc_perf_total {
	double n, compute, mshr, noc, dram; /* sums */
	double path;      /* sum of the paths: with mshr, noc and dram, the time
			   * the warp itself takes (its issue slots aside) */
	size_t intervals, md;
	double ipc_sm;    /* eq. 1: W x sum n / sum (C + S^MSHR + S^NoC + S^DRAM) */
} gc_perf_total;

void gc_perf_evaluate(const gc_perf_params *p, const gc_perf_interval *iv, size_t n,
		      gc_perf_total *out);

/* ---- a kernel's warps (perf_warp.c) ------------------------------------- */

/* One memory instruction of a warp as the stream shows it. */
typedef struct gc_perf_inst {
	uint32_t seq, pc;
	uint8_t op;          /* GC_LOAD, GC_STORE, GC_ATOMIC */
	uint8_t read;        /* a load or an atomic: the warp waits for its value */
	uint64_t compute;    /* its compute field (GC_CF_*), 0 when none */
	uint32_t requests;   /* its requests in the stream */
	uint32_t misses;     /* of them, read requests that missed L1 */
	uint32_t stores;     /* of them, store requests (M^Write) */
} gc_perf_inst;

/* A request of the kernel, as the caller classified it. */
typedef struct gc_perf_req {
	uint32_t block, seq, pc;
	uint16_t warp;
	uint8_t op;
	uint8_t l1_miss;     /* a read that went on to L2 */
	uint64_t compute;
} gc_perf_req;

typedef struct gc_perf_warp {
	uint32_t block;
	uint16_t warp;
	size_t n, cap;
	gc_perf_inst *inst;
	/* features (gc_perf_kernel_warps): cumulative counts up to its last
	 * memory instruction, the wrap of each count undone */
	double insts, mem, cycles, waits, cpi;
} gc_perf_warp;

typedef struct gc_perf_kernel gc_perf_kernel;

gc_perf_kernel *gc_perf_kernel_new(void);
void gc_perf_kernel_free(gc_perf_kernel *k);
/* Forget the warps (a new kernel). */
void gc_perf_kernel_reset(gc_perf_kernel *k);
/* Add a request to its instruction (block, warp, seq): -1 when out of
 * memory, or when the request's compute field differs from the one its
 * instruction's earlier request carried; the message names the field. */
int gc_perf_kernel_add(gc_perf_kernel *k, const gc_perf_req *r, char *err, size_t len);

/* How to read the compute counts. */
typedef struct gc_perf_shape {
	int have_compute;    /* the stream carries the compute field */
	double insts_per_mem;/* without it: non-memory instructions per memory one */
	double ipc_compute;  /* without it: warp instructions per cycle of a warp */
	double tail;         /* warp instructions after the last memory one seen
			      * (the representative warp's; 0: none known) */
} gc_perf_shape;

/* Sort and merge each warp's instructions and compute its features.
 * Returns the warps, sorted by block and warp, and their number in *n. */
gc_perf_warp *gc_perf_kernel_warps(gc_perf_kernel *k, const gc_perf_shape *s, size_t *n);

/* The representative warp: the least sum of squared relative deviations
 * of its features (non-memory instructions, memory instructions, cycles
 * per instruction, waits) from the kernel's means; ties go to the lowest
 * block and warp.  Index into w[], or -1 when n == 0; the means in mean[4]
 * and the warp's score in *score. */
long gc_perf_representative(const gc_perf_warp *w, size_t n, double mean[4], double *score);

/* The intervals of warp w (seed 004 §III-B): one per load that missed
 * L1, holding what the warp did since the previous one; then the tail
 * (s->tail more instructions) without a memory stall.  Returns the number
 * written into *out (a new array the caller frees), or -1 when out of
 * memory. */
long gc_perf_intervals(const gc_perf_warp *w, const gc_perf_shape *s, gc_perf_interval **out);

#endif
