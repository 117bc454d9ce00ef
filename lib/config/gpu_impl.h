/*
 * gpu_impl.h - what the files of the typed GPU configuration share, and
 * nothing outside them includes: the key table and its types (gpu_keys.c),
 * the enum tables the cache strings and the cross-checks read, the keys of
 * a cache level, and the small helpers of gpu.c.
 *
 * The module, by what each file does:
 *   gpu_keys.c       the key table, the enum tables, what a key expects
 *   gpu.c            setting values one by one, formatting them, defaults
 *   gpu_cachestr.c   GPGPU-Sim cache strings
 *   gpu_check.c      deriving what a layer left open, and cross-checking
 *   gpu_file.c       GPU files and the stream header
 *   gpu_occupancy.c  occupancy and the carve-out
 */
#ifndef GC_GPU_IMPL_H
#define GC_GPU_IMPL_H

#include "config/gpu.h"

#include <stddef.h>
#include <stdint.h>

/* ---- the key table (gpu_keys.c) -------------------------------------- */

enum ktype { K_NAME, K_TEXT, K_CC, K_UINT, K_SIZE, K_REAL, K_ENUM, K_LIST, K_MAP, K_CACHE };

#define F_POW2 1u   /* integers: a power of two */
#define F_PSEUDO 2u /* sets other keys; not printed or stored */

struct genum {
	const char *name;
	const char *alias; /* the GPGPU-Sim spelling, or NULL */
	int value;
};

struct key {
	const char *name;
	unsigned char type, flags;
	size_t off;
	uint64_t min, max;
	double dmin, dmax;
	const struct genum *e;
	const char *meaning;
};

enum kid {
	KEY_NAME, KEY_DESCRIPTION, KEY_CC,
	KEY_SM_COUNT, KEY_SM_CLOCK, KEY_SM_WARP_SIZE, KEY_SM_MAX_THREADS, KEY_SM_MAX_WARPS,
	KEY_SM_MAX_BLOCKS, KEY_SM_MAX_THREADS_PER_BLOCK, KEY_SM_REGISTERS,
	KEY_SM_MAX_REGS_PER_BLOCK, KEY_SM_MAX_REGS_PER_THREAD, KEY_SM_REG_ALLOC_UNIT,
	KEY_SM_REG_PARTITIONS, KEY_SM_SHMEM, KEY_SM_MAX_SHMEM_PER_BLOCK,
	KEY_SM_SHMEM_ALLOC_UNIT, KEY_SM_UNIFIED, KEY_SM_OPTIONS, KEY_SM_CARVEOUT,
	KEY_L1_CACHE, KEY_L1_SIZE, KEY_L1_LINE, KEY_L1_SECTOR, KEY_L1_SETS, KEY_L1_WAYS,
	KEY_L1_INDEX, KEY_L1_REPL, KEY_L1_WRITE, KEY_L1_ALLOC, KEY_L1_WALLOC,
	KEY_L1_MSHR, KEY_L1_MSHR_ENTRIES, KEY_L1_MSHR_MERGE, KEY_L1_MSHR_PER_WARP,
	KEY_L1_MISS_QUEUE, KEY_L1_PORT, KEY_L1_LATENCY, KEY_L1_SKIP_GLOBAL, KEY_L1_SCALE, KEY_L1_FLUSH,
	KEY_L1_PREFETCH, KEY_L1_PF_DEGREE, KEY_L1_PF_DISTANCE, KEY_L1_PF_TABLE,
	KEY_L2_CACHE, KEY_L2_SIZE, KEY_L2_CHANNELS, KEY_L2_SUB, KEY_L2_SLICE, KEY_L2_LINE,
	KEY_L2_SECTOR, KEY_L2_SETS, KEY_L2_WAYS, KEY_L2_INDEX, KEY_L2_REPL, KEY_L2_WRITE,
	KEY_L2_ALLOC, KEY_L2_WALLOC, KEY_L2_MSHR, KEY_L2_MSHR_ENTRIES, KEY_L2_MSHR_MERGE,
	KEY_L2_MISS_QUEUE, KEY_L2_PORT, KEY_L2_LATENCY, KEY_L2_MAPPING, KEY_L2_PINDEX, KEY_L2_FLUSH,
	KEY_L2_PREFETCH, KEY_L2_PF_WINDOW, KEY_L2_PF_DEGREE, KEY_L2_PF_TABLE,
	KEY_DRAM_TYPE, KEY_DRAM_CHANNELS, KEY_DRAM_BANKS, KEY_DRAM_BANK_GROUPS,
	KEY_DRAM_ROW, KEY_DRAM_BUS_WIDTH, KEY_DRAM_BANDWIDTH, KEY_DRAM_LATENCY,
	KEY_DRAM_CLOCK, KEY_DRAM_BURST, KEY_DRAM_RATE, KEY_DRAM_QUEUE, KEY_DRAM_TCCD,
	KEY_DRAM_TCCDL, KEY_DRAM_TRRD, KEY_DRAM_TRCD, KEY_DRAM_TRAS, KEY_DRAM_TRP, KEY_DRAM_TRC,
	KEY_DRAM_TCL, KEY_DRAM_TWL, KEY_DRAM_TCDLR, KEY_DRAM_TWR, KEY_DRAM_TRTPL,
	KEY_MISS_LAMBDA, KEY_MISS_SIGMA,
	KEY_COALESCE,
	KEY_OP_INT_LAT, KEY_OP_INT_INIT, KEY_OP_SP_LAT, KEY_OP_SP_INIT, KEY_OP_DP_LAT,
	KEY_OP_DP_INIT, KEY_OP_SFU_LAT, KEY_OP_SFU_INIT, KEY_OP_TENSOR_LAT, KEY_OP_TENSOR_INIT,
	KEY_OP_BRANCH_LAT, KEY_OP_BRANCH_INIT, KEY_SM_ISSUE_WIDTH,
	KEY_NOC_BANDWIDTH, KEY_MEM_LLC_LATENCY, KEY_MEM_DRAM_LATENCY, KEY_KERNEL_LAUNCH_LATENCY,
	NKEYS
};

_Static_assert(NKEYS <= GC_GPU_KEYS_MAX, "GC_GPU_KEYS_MAX is too small");

extern const struct key gpu_keys[NKEYS];

/* The enum tables that more than the key table reads, by value order. */
extern const struct genum gpu_e_index[], gpu_e_repl[], gpu_e_write[], gpu_e_alloc[],
	gpu_e_walloc[], gpu_e_mshr[], gpu_e_carveout[], gpu_e_coalesce[];

/* The keys of one cache level, in the order the cache string sets them. */
struct level {
	const char *name;
	size_t off;
	int cache, size, line, sector, sets, ways, index, repl, write, alloc, walloc, mshr,
		entries, merge, miss_queue, port;
};

extern const struct level gpu_level_l1, gpu_level_l2;

#define KB(n) ((uint64_t)(n) << 10)
#define MB(n) ((uint64_t)(n) << 20)
#define GB(n) ((uint64_t)(n) << 30)

/* ---- small helpers (gpu.c) ------------------------------------------- */

/* Sizes print with the largest binary suffix that is exact: 16K, 6M. */
void gpu_fmt_size(char *b, size_t n, uint64_t v);
/* The shortest decimal text that reads back as exactly v. */
void gpu_fmt_real(char *b, size_t n, double v);
/* The name of value v in table e, or "?". */
const char *gpu_enum_name(const struct genum *e, int v);
/* Write a message into buf and return -1. */
int gpu_msgf(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The bit counts of a mapping string's fields (gc_addrmap_parse reads it:
 * one parser for the key's check and for gc-l2 and gc-dram). */
struct mapping {
	int dramid; /* bit of the inserted chip id, or -1 */
	int nD, nB, nR, nC; /* nC counts the S bits too */
};

int gpu_mapping_parse(const char *s, struct mapping *m, char *why, size_t len);

#endif
