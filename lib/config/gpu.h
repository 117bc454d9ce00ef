/*
 * gpu.h - the typed GPU configuration: presets, keys, cache strings,
 * occupancy and the shared-memory carve-out.
 *
 * A GPU is described by one text file of "key = value" lines (gc-config(5)).
 * Every key has one entry in a table (name, type, range, field, meaning)
 * that drives parsing, validation, printing, the stream header and the
 * manual.  Values are checked one by one as they are set; the relations
 * between them (L1 size = sets x ways x line, channels x sub-partitions x
 * slice = L2 size, carve-out options, ...) are checked by gc_gpu_finish.
 *
 * Library functions never print and never exit: they return -1 and leave a
 * one-line message in the caller's buffer.  Only the gc_gpu_config_*
 * wrappers at the end (program support for main) print and exit 2.
 *
 * Settings come in layers: gc_gpu_defaults, then a file (or a stream
 * header), then command-line options.  gc_gpu_begin starts a layer,
 * gc_gpu_set sets keys in it, gc_gpu_finish derives what the layer left
 * open (a size when the geometry changed, the sets when only the size did)
 * and runs the cross-checks.
 */
#ifndef GC_GPU_H
#define GC_GPU_H

#include "config/addrmap.h"
#include "stream/format.h"

#include <stddef.h>
#include <stdint.h>

#define GC_GPU_KEYS_MAX 128    /* room for the key table */
#define GC_GPU_OPTIONS_MAX 16  /* shared-memory carve-out options */
#define GC_GPU_UNLIMITED 0xffffffffu
#define GC_GPU_HEADER_PREFIX "gpu."

/* Set-index functions (reference §3.2; GPGPU-Sim letters L, X, H, P). */
enum gc_gpu_index {
	GC_INDEX_LINEAR,
	GC_INDEX_XOR,
	GC_INDEX_FERMI,
	GC_INDEX_IPOLY,
	GC_INDEX_FIBONACCI, /* seed 003's simulator; no GPGPU-Sim letter */
};
enum gc_gpu_repl { GC_REPL_LRU, GC_REPL_FIFO, GC_REPL_RANDOM };
/* Write policies (GPGPU-Sim B, T, E, L, R). */
enum gc_gpu_write {
	GC_WRITE_BACK,
	GC_WRITE_THROUGH,
	GC_WRITE_EVICT,
	GC_WRITE_LOCAL_BACK, /* local write-back, global write-through */
	GC_WRITE_READ_ONLY,
};
/* When a line is allocated (GPGPU-Sim m, f, s). */
enum gc_gpu_alloc { GC_ALLOC_ON_MISS, GC_ALLOC_ON_FILL, GC_ALLOC_STREAMING };
/* What a write miss does (GPGPU-Sim N, W, F, L). */
enum gc_gpu_walloc {
	GC_WALLOC_NONE,
	GC_WALLOC_WRITE,
	GC_WALLOC_FETCH_ON_WRITE,
	GC_WALLOC_LAZY_FETCH_ON_READ,
};
enum gc_gpu_mshr { GC_MSHR_ASSOC, GC_MSHR_SECTOR_ASSOC };
/* Prefetchers (gc-l1 --prefetch, gc-l2 --prefetch): none, L1's per-PC
 * stride and many-thread aware prefetchers, L2's stream and next-line. */
enum gc_gpu_prefetch { GC_PF_NONE, GC_PF_STRIDE, GC_PF_MTA, GC_PF_STREAM, GC_PF_NEXTLINE };
/* How L1 and shared memory share the SM's storage (reference §3.4). */
enum gc_gpu_carveout {
	GC_CARVEOUT_NONE,     /* separate: no unified storage */
	GC_CARVEOUT_FIXED,    /* one split for the whole run (Fermi) */
	GC_CARVEOUT_ADAPTIVE, /* chosen per kernel (seed 003 formula 7) */
};
/* What the adaptive carve-out changes: the ways at a fixed set count
 * (GPGPU-Sim), or the sets at a fixed associativity (seed 003's model). */
enum gc_gpu_scale { GC_SCALE_WAYS, GC_SCALE_SETS };
/* -gpgpu_memory_partition_indexing (reference §3.5). */
enum gc_gpu_dram {
	GC_DRAM_GDDR5,
	GC_DRAM_GDDR5X,
	GC_DRAM_GDDR6,
	GC_DRAM_GDDR6X,
	GC_DRAM_HBM2,
	GC_DRAM_HBM2E,
	GC_DRAM_HBM3,
	GC_DRAM_HBM3E,
};
/* Coalescing rules by generation (reference §3.6): Fermi and Kepler use
 * 32/64/128-byte segments by access size; Maxwell and later 32-byte
 * sectors. */
enum gc_gpu_coalesce {
	GC_COALESCE_FERMI,
	GC_COALESCE_KEPLER,
	GC_COALESCE_MAXWELL,
	GC_COALESCE_PASCAL,
	GC_COALESCE_VOLTA,
	GC_COALESCE_TURING,
	GC_COALESCE_AMPERE,
	GC_COALESCE_HOPPER,
};

/* Opcode classes of the compute intervals: the functional units of
 * Accel-Sim's trace.config (-trace_opcode_latency_initiation_*), which
 * gc-import --intervals maps every SASS opcode to. */
enum gc_gpu_op {
	GC_OP_INT,    /* integer ALU */
	GC_OP_SP,     /* single precision (FP32, FMA) */
	GC_OP_DP,     /* double precision */
	GC_OP_SFU,    /* special functions (MUFU, conversions) */
	GC_OP_TENSOR, /* tensor cores (HMMA, IMMA, ...) */
	GC_OP_BRANCH, /* branch unit (BRA, BRX, CALL, RET, EXIT, BAR, ...) */
	GC_NOPS,
};
/* The classes as the keys (op.<name>.latency) and messages name them:
 * "int", "sp", "dp", "sfu", "tensor", "branch". */
extern const char *const gc_gpu_op_name[GC_NOPS];

/* One cache level.  For L2 the geometry is one slice (one per memory
 * sub-partition); `total`, `channels`, `sub_partitions`, `pindex` and
 * `mapping` are L2's, `mshr_per_warp`, `skip_global` and `scale` L1's. */
typedef struct gc_gpu_cache {
	uint64_t size;          /* sets * ways * line, bytes */
	unsigned line, sector;  /* bytes; sector == line: not sectored */
	unsigned sets, ways;
	int index;              /* enum gc_gpu_index */
	int repl;               /* enum gc_gpu_repl */
	int write;              /* enum gc_gpu_write */
	int alloc;              /* enum gc_gpu_alloc */
	int walloc;             /* enum gc_gpu_walloc */
	int mshr;               /* enum gc_gpu_mshr */
	unsigned mshr_entries;  /* in-flight lines (sectors for sector MSHRs) */
	unsigned mshr_merge;    /* requests merged into one entry */
	unsigned miss_queue;
	unsigned port;          /* data port bytes per cycle; 0: the line */
	unsigned latency;       /* L1: hit latency; L2: ROP latency (cycles) */
	/* L1 only */
	unsigned mshr_per_warp; /* 0: no per-warp limit */
	int skip_global;        /* global loads bypass L1 by default */
	int kernel_flush;       /* invalidated (L1) / written back and invalidated (L2)
				 * at every kernel end */
	int scale;              /* enum gc_gpu_scale */
	/* the prefetcher (both levels; pf_distance L1's, pf_window L2's) */
	int prefetch;           /* enum gc_gpu_prefetch */
	unsigned pf_degree;     /* lines a trained entry prefetches at once */
	unsigned pf_distance;   /* L1: strides ahead of the access the first one is */
	unsigned pf_table;      /* entries of the prefetcher's table (L1 per SM, L2 per slice) */
	unsigned pf_window;     /* L2: lines ahead of a stream's last miss it may reach */
	/* L2 only */
	uint64_t total;         /* channels * sub_partitions * size */
	unsigned channels, sub_partitions;
	int pindex;             /* enum gc_gpu_pindex */
	char mapping[128];      /* -gpgpu_mem_addr_mapping */
} gc_gpu_cache;

typedef struct gc_gpu_config {
	char name[64];
	char description[128];
	unsigned cc;            /* compute capability, major * 10 + minor */
	struct {
		unsigned count, clock, warp_size;
		unsigned max_threads, max_warps, max_blocks, max_threads_per_block;
		unsigned registers, max_regs_per_block, max_regs_per_thread;
		unsigned reg_alloc_unit, reg_partitions;
		uint64_t shmem, max_shmem_per_block;
		unsigned shmem_alloc_unit;
		uint64_t unified;
		int carveout;   /* enum gc_gpu_carveout */
		int noptions;
		uint64_t options[GC_GPU_OPTIONS_MAX]; /* ascending, bytes */
	} sm;
	gc_gpu_cache l1, l2;
	struct {
		int type;       /* enum gc_gpu_dram */
		unsigned channels, banks, bank_groups, bus_width, latency;
		uint64_t row;
		double bandwidth; /* GB/s */
		/* The FR-FCFS controller of gc-dram: the command clock, a
		 * transaction's burst, and GPGPU-Sim's -gpgpu_dram_timing_opt
		 * in command cycles (dram.t* keys). */
		double clock;     /* MHz */
		unsigned burst, data_rate, queue;
		unsigned tccd, tccdl, trrd, trcd, tras, trp, trc, tcl, twl, tcdlr, twr, trtpl;
	} dram;
	struct {
		unsigned lambda_min; /* λmin, cycles */
		double sigma;        /* σ of the half-normal part */
	} miss;
	int coalesce;           /* enum gc_gpu_coalesce */
	struct {                /* keys op.<class>.latency, op.<class>.initiation */
		unsigned latency[GC_NOPS];    /* cycles until the result is ready */
		unsigned initiation[GC_NOPS]; /* cycles before the unit takes the next */
		unsigned issue_width;         /* sm.issue_width: warp instructions an SM
					       * issues per cycle (its schedulers) */
	} op;
	struct {                /* the performance model's memory system (gc-perf) */
		double noc_bandwidth;   /* noc.bandwidth: GB/s, SMs to L2, all of it */
		unsigned llc_latency;   /* mem.llc_latency: L^MinLLC, round trip of an
					 * L2 hit without contention, cycles */
		unsigned dram_latency;  /* mem.dram_latency: L^MinDRAM, what an L2 miss
					 * adds without contention, cycles */
		unsigned launch_latency; /* kernel.launch_latency: cycles per kernel */
	} perf;

	/* The current layer (gc_gpu_begin): which keys it set, on which line,
	 * and through which key (a cache string sets several). */
	unsigned char given[GC_GPU_KEYS_MAX];
	short by[GC_GPU_KEYS_MAX];
	int line[GC_GPU_KEYS_MAX];
	int err_line; /* after a failed gc_gpu_finish: the line to blame, or 0 */
} gc_gpu_config;

/* ---- the key table ---------------------------------------------------- */

int gc_gpu_nkeys(void);
int gc_gpu_key_find(const char *name); /* index, or -1 */
const char *gc_gpu_key_name(int i);
const char *gc_gpu_key_type(int i);    /* "integer", "size", "enum", ... */
const char *gc_gpu_key_meaning(int i);
/* What a value must be, as written after "expected" in messages. */
void gc_gpu_key_expected(int i, char *buf, size_t len);
/* 1 for keys that only set other keys (l1.cache, l2.cache): they are not
 * printed or written to headers. */
int gc_gpu_key_pseudo(int i);

/* ---- setting and checking --------------------------------------------- */

/* The built-in defaults: the seed-000 GPU (fermi-gtx470-16k). */
void gc_gpu_defaults(gc_gpu_config *c);
/* Start a layer of settings. */
void gc_gpu_begin(gc_gpu_config *c);
/* Set one key from text; `line` (0: none) is remembered for messages.
 * -1 with "unknown key 'x'", "bad value 'y' for key 'x' (expected ...)" or
 * "key 'x' is also set by 'y' on line N" in err. */
int gc_gpu_set(gc_gpu_config *c, const char *key, const char *val, int line,
	       char *err, size_t len);
/* Derive what the layer left open, then cross-check everything.  -1 with
 * the message in err and c->err_line set to the line to blame (0: none). */
int gc_gpu_finish(gc_gpu_config *c, char *err, size_t len);
/* The canonical text of key i's value (what the header carries).  Returns
 * the length, or -1 for a pseudo key. */
int gc_gpu_format(const gc_gpu_config *c, int i, char *buf, size_t len);
/* Every non-pseudo key as "<prefix><key><sep><value>\n"; caller frees.
 * NULL when out of memory. */
char *gc_gpu_text(const gc_gpu_config *c, const char *prefix, const char *sep);

/* ---- files ------------------------------------------------------------ */

struct gc_gpu; /* prog.h: a file's key/value/line lists */

/* A GPU file as read: its keys, values and line numbers, in file order. */
typedef struct gc_gpu {
	char name[128];  /* preset name or file path as given */
	char path[512];  /* file actually read */
	int n;
	char *key[256];
	char *val[256];
	int line[256];
} gc_gpu;
const char *gc_gpu_get(const gc_gpu *g, const char *key);
void gc_gpu_free(gc_gpu *g);

/* Read path into g like gc_gpu_load, but return -1 with "path:line: ..."
 * in err instead of exiting.  gc_gpu_free releases it. */
int gc_gpu_read_lists(struct gc_gpu *g, const char *path, char *err, size_t len);
/* Defaults, then every key of g as one layer, then gc_gpu_finish; messages
 * are "FILE:LINE: ...".  A file without `name` is named after the file
 * ("my-gpu.gpu": my-gpu), without `description` described as such. */
int gc_gpu_parse_lists(gc_gpu_config *c, const struct gc_gpu *g, char *err,
		       size_t len);
/* gc_gpu_read_lists + gc_gpu_parse_lists for one file. */
int gc_gpu_parse_file(gc_gpu_config *c, const char *path, char *err, size_t len);

/* ---- GPGPU-Sim configurations (gpu_gpgpusim.c) ------------------------ */

/* 1 when the file's first line that is not blank or a comment is a
 * GPGPU-Sim option ("-name value"), 0 when not, -1 when unreadable. */
int gc_gpu_is_gpgpusim(const char *path);

/* A gpgpusim.config (and Accel-Sim's trace.config, or NULL) as our keys:
 * g holds them in preset order with the config's line of the option each
 * came from (0: trace.config or a derived value); why[i] names the
 * options and formula.  Repeated options: the last counts, as in GPGPU-Sim.
 * Options the table does not know are counted (nunknown, the first named
 * in `unknown`) and ignored. */
typedef struct gc_gpgpusim {
	gc_gpu g;
	char *why[256];
	int nunknown;
	char unknown[600];
} gc_gpgpusim;
int gc_gpgpusim_convert(gc_gpgpusim *s, const char *config, const char *trace, char *err,
			size_t len);
void gc_gpgpusim_free(gc_gpgpusim *s);
/* The options we know (gc-config(5)'s table): the name, the keys it sets
 * (NULL when ignored) or why it is ignored. */
int gc_gpgpusim_noptions(void);
const char *gc_gpgpusim_option(int i, const char **keys, const char **why);

/* The preset of a compute capability (major * 10 + minor, as Accel-Sim's
 * '-binary version' writes it), or NULL (gc-config(5), GPU SELECTION). */
const char *gc_gpu_preset_of_cc(unsigned cc);

/* ---- the stream header ------------------------------------------------ */

/* Every non-pseudo key as "gpu.<key>=<value>".  -1 (and nothing written)
 * when the header cannot hold them all. */
int gc_gpu_header_write(const gc_gpu_config *c, gc_header *h, char *err, size_t len);
/* Defaults, then every "gpu.*" key of h as one layer, then the checks.
 * Returns the number of gpu.* keys read (0: the header has none), or -1. */
int gc_gpu_header_read(gc_gpu_config *c, const gc_header *h, char *err, size_t len);

/* ---- GPGPU-Sim cache strings (reference §3.1) -------------------------- */

enum gc_gpu_grammar {
	GC_GRAMMAR_4X = 1,       /* <ct>:<nset>:<line>:<assoc>,<rp>:<wp>:<ap>:<wap>:<sif>,... */
	GC_GRAMMAR_3X = 2,       /* 3.2.x after 2014-07: no <ct>, with <sif> */
	GC_GRAMMAR_3X_NOSIF = 3, /* before 2014-07: no <ct>, no <sif> (linear) */
};

/* Decode s into the string's fields of out (geometry, sector, policies,
 * set index, MSHRs, miss queue, port; size = sets * ways * line); other
 * fields are untouched.  Returns the grammar, or -1 with the reason. */
int gc_gpu_cache_parse(gc_gpu_cache *out, const char *s, char *why, size_t len);
/* The 4.x string of a cache; -1 when it has no GPGPU-Sim spelling. */
int gc_gpu_cache_format(const gc_gpu_cache *c, char *buf, size_t len);
/* 1 when coalescing uses 32-byte sectors (Maxwell and later). */
int gc_gpu_coalesce_sectored(const gc_gpu_config *c);

/* ---- occupancy (seed 003 formulas 3-6) -------------------------------- */

enum gc_gpu_limit {
	GC_LIMIT_THREADS,   /* sm.max_threads / block size (formula 4) */
	GC_LIMIT_WARPS,     /* sm.max_warps / warps per block */
	GC_LIMIT_BLOCKS,    /* sm.max_blocks */
	GC_LIMIT_REGISTERS, /* formula 5, registers allocated per warp */
	GC_LIMIT_SHMEM,     /* formula 6, shared memory allocated per block */
	GC_NLIMITS,
};

typedef struct gc_occupancy {
	unsigned limit[GC_NLIMITS]; /* blocks each limit allows (GC_GPU_UNLIMITED) */
	unsigned active;            /* active blocks per SM: the minimum */
	int limiter;                /* the first limit that binds */
	const char *why;            /* active == 0 because a block cannot run */
	unsigned warps_per_block;
	unsigned regs_per_warp;     /* allocated */
	uint64_t shmem_per_block;   /* allocated */
} gc_occupancy;

/* Active blocks per SM for blocks of `threads` threads using `regs`
 * registers per thread and `shmem` bytes of shared memory, with the SM's
 * maximum shared memory (sm.shmem).  Fills o when not NULL. */
unsigned gc_gpu_occupancy(const gc_gpu_config *c, unsigned threads, unsigned regs,
			  uint64_t shmem, gc_occupancy *o);
/* The same with `shmem_per_sm` bytes of shared memory per SM. */
unsigned gc_gpu_occupancy_at(const gc_gpu_config *c, unsigned threads, unsigned regs,
			     uint64_t shmem, uint64_t shmem_per_sm, gc_occupancy *o);
const char *gc_gpu_limit_name(int limit);

/* ---- the shared-memory carve-out (formula 7, reference §3.4) ------------ */

typedef struct gc_carveout {
	uint64_t shmem;       /* shared memory per SM: the option chosen */
	uint64_t l1_size;     /* unified - shmem (or l1.size without carve-out) */
	unsigned l1_sets, l1_ways;
	unsigned active;      /* active blocks per SM */
	uint64_t shmem_used;  /* active * allocated shared memory per block */
} gc_carveout;

/* The carve-out a kernel gets: the smallest option that keeps the active
 * blocks of the largest one.  -1 when a block cannot run at all. */
int gc_gpu_carveout(const gc_gpu_config *c, unsigned threads, unsigned regs,
		    uint64_t shmem, gc_carveout *out);
/* The L1 kernel k runs with (gc-l1, and gc-rd's cut-off): the carve-out
 * of its block size, registers and shared memory; the configured L1 (and
 * sm.shmem, active 0) when there is no kernel, its blocks have no threads
 * or cannot run, or the carve-out leaves no way. */
void gc_gpu_kernel_l1(const gc_gpu_config *c, const gc_kernel *k, gc_carveout *out);

#endif
