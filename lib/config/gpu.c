/*
 * gpu.c - the typed GPU configuration (gc-config(5)): the key table,
 * values, cross-checks, GPGPU-Sim cache strings, the stream header,
 * occupancy (seed 003 formulas 3-6) and the carve-out (formula 7).
 */
#include "config/gpu.h"
#include "base/bits.h"
#include "config/addrmap.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the key table ---------------------------------------------------- */

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
	KEY_L2_CACHE, KEY_L2_SIZE, KEY_L2_CHANNELS, KEY_L2_SUB, KEY_L2_SLICE, KEY_L2_LINE,
	KEY_L2_SECTOR, KEY_L2_SETS, KEY_L2_WAYS, KEY_L2_INDEX, KEY_L2_REPL, KEY_L2_WRITE,
	KEY_L2_ALLOC, KEY_L2_WALLOC, KEY_L2_MSHR, KEY_L2_MSHR_ENTRIES, KEY_L2_MSHR_MERGE,
	KEY_L2_MISS_QUEUE, KEY_L2_PORT, KEY_L2_LATENCY, KEY_L2_MAPPING, KEY_L2_PINDEX, KEY_L2_FLUSH,
	KEY_DRAM_TYPE, KEY_DRAM_CHANNELS, KEY_DRAM_BANKS, KEY_DRAM_BANK_GROUPS,
	KEY_DRAM_ROW, KEY_DRAM_BUS_WIDTH, KEY_DRAM_BANDWIDTH, KEY_DRAM_LATENCY,
	KEY_MISS_LAMBDA, KEY_MISS_SIGMA,
	KEY_COALESCE,
	NKEYS
};

_Static_assert(NKEYS <= GC_GPU_KEYS_MAX, "GC_GPU_KEYS_MAX is too small");

static const struct genum e_index[] = {
	{"linear", "L", GC_INDEX_LINEAR}, {"xor", "X", GC_INDEX_XOR},
	{"fermi", "H", GC_INDEX_FERMI}, {"ipoly", "P", GC_INDEX_IPOLY}, {NULL, NULL, 0}};
static const struct genum e_repl[] = {
	{"lru", "L", GC_REPL_LRU}, {"fifo", "F", GC_REPL_FIFO},
	{"random", NULL, GC_REPL_RANDOM}, {NULL, NULL, 0}};
static const struct genum e_write[] = {
	{"write-back", "B", GC_WRITE_BACK}, {"write-through", "T", GC_WRITE_THROUGH},
	{"write-evict", "E", GC_WRITE_EVICT}, {"local-write-back", "L", GC_WRITE_LOCAL_BACK},
	{"read-only", "R", GC_WRITE_READ_ONLY}, {NULL, NULL, 0}};
static const struct genum e_alloc[] = {
	{"on-miss", "m", GC_ALLOC_ON_MISS}, {"on-fill", "f", GC_ALLOC_ON_FILL},
	{"streaming", "s", GC_ALLOC_STREAMING}, {NULL, NULL, 0}};
static const struct genum e_walloc[] = {
	{"no-write-allocate", "N", GC_WALLOC_NONE}, {"write-allocate", "W", GC_WALLOC_WRITE},
	{"fetch-on-write", "F", GC_WALLOC_FETCH_ON_WRITE},
	{"lazy-fetch-on-read", "L", GC_WALLOC_LAZY_FETCH_ON_READ}, {NULL, NULL, 0}};
static const struct genum e_mshr[] = {
	{"assoc", "A", GC_MSHR_ASSOC}, {"sector-assoc", "S", GC_MSHR_SECTOR_ASSOC},
	{NULL, NULL, 0}};
static const struct genum e_carveout[] = {
	{"none", NULL, GC_CARVEOUT_NONE}, {"fixed", NULL, GC_CARVEOUT_FIXED},
	{"adaptive", NULL, GC_CARVEOUT_ADAPTIVE}, {NULL, NULL, 0}};
static const struct genum e_scale[] = {
	{"ways", NULL, GC_SCALE_WAYS}, {"sets", NULL, GC_SCALE_SETS}, {NULL, NULL, 0}};
static const struct genum e_pindex[] = {
	{"consecutive", "0", GC_PINDEX_CONSECUTIVE},
	{"bitwise-permutation", "1", GC_PINDEX_BITWISE_PERMUTATION},
	{"ipoly", "2", GC_PINDEX_IPOLY}, {"random", "4", GC_PINDEX_RANDOM},
	{"ipoly-modulo", "6", GC_PINDEX_IPOLY_MODULO}, {NULL, NULL, 0}};
static const struct genum e_dram[] = {
	{"gddr5", NULL, GC_DRAM_GDDR5}, {"gddr5x", NULL, GC_DRAM_GDDR5X},
	{"gddr6", NULL, GC_DRAM_GDDR6}, {"gddr6x", NULL, GC_DRAM_GDDR6X},
	{"hbm2", NULL, GC_DRAM_HBM2}, {"hbm2e", NULL, GC_DRAM_HBM2E},
	{"hbm3", NULL, GC_DRAM_HBM3}, {"hbm3e", NULL, GC_DRAM_HBM3E}, {NULL, NULL, 0}};
/* Numbers (GPGPU-Sim's -gpgpu_coalesce_arch) are accepted too; see
 * coalesce_number(). */
static const struct genum e_coalesce[] = {
	{"fermi", NULL, GC_COALESCE_FERMI}, {"kepler", NULL, GC_COALESCE_KEPLER},
	{"maxwell", NULL, GC_COALESCE_MAXWELL}, {"pascal", NULL, GC_COALESCE_PASCAL},
	{"volta", NULL, GC_COALESCE_VOLTA}, {"turing", NULL, GC_COALESCE_TURING},
	{"ampere", NULL, GC_COALESCE_AMPERE}, {"hopper", NULL, GC_COALESCE_HOPPER},
	{NULL, NULL, 0}};
static const struct genum e_bool[] = {{"no", NULL, 0}, {"yes", NULL, 1}, {NULL, NULL, 0}};

#define OFF(f) offsetof(gc_gpu_config, f)
#define KB(n) ((uint64_t)(n) << 10)
#define MB(n) ((uint64_t)(n) << 20)
#define GB(n) ((uint64_t)(n) << 30)

#define KU(id, nm, fld, lo, hi, fl, m) \
	[id] = {nm, K_UINT, fl, OFF(fld), lo, hi, 0, 0, NULL, m}
#define KS(id, nm, fld, lo, hi, fl, m) \
	[id] = {nm, K_SIZE, fl, OFF(fld), lo, hi, 0, 0, NULL, m}
#define KE(id, nm, fld, tab, m) \
	[id] = {nm, K_ENUM, 0, OFF(fld), 0, 0, 0, 0, tab, m}
#define KR(id, nm, fld, lo, hi, m) \
	[id] = {nm, K_REAL, 0, OFF(fld), 0, 0, lo, hi, NULL, m}
#define KT(id, nm, ty, fld, m) \
	[id] = {nm, ty, 0, OFF(fld), 0, 0, 0, 0, NULL, m}

static const struct key keys[NKEYS] = {
	KT(KEY_NAME, "name", K_NAME, name, "Short name of the configuration (a preset's file name)."),
	KT(KEY_DESCRIPTION, "description", K_TEXT, description, "The GPU in words."),
	KT(KEY_CC, "cc", K_CC, cc, "CUDA compute capability."),

	KU(KEY_SM_COUNT, "sm.count", sm.count, 1, 65535, 0, "Streaming multiprocessors (SMs)."),
	KU(KEY_SM_CLOCK, "sm.clock", sm.clock, 1, 100000, 0, "SM clock in MHz (latencies are SM cycles)."),
	KU(KEY_SM_WARP_SIZE, "sm.warp_size", sm.warp_size, 1, 64, 0, "Threads per warp."),
	KU(KEY_SM_MAX_THREADS, "sm.max_threads", sm.max_threads, 1, 65536, 0,
	   "Most resident threads per SM."),
	KU(KEY_SM_MAX_WARPS, "sm.max_warps", sm.max_warps, 1, 2048, 0,
	   "Most resident warps per SM (sm.max_threads / sm.warp_size)."),
	KU(KEY_SM_MAX_BLOCKS, "sm.max_blocks", sm.max_blocks, 1, 1024, 0,
	   "Most resident thread blocks per SM."),
	KU(KEY_SM_MAX_THREADS_PER_BLOCK, "sm.max_threads_per_block", sm.max_threads_per_block,
	   1, 65536, 0, "Most threads in one block."),
	KU(KEY_SM_REGISTERS, "sm.registers", sm.registers, 1, 1u << 24, 0,
	   "32-bit registers per SM."),
	KU(KEY_SM_MAX_REGS_PER_BLOCK, "sm.max_regs_per_block", sm.max_regs_per_block, 1, 1u << 24, 0,
	   "Most registers one block may allocate."),
	KU(KEY_SM_MAX_REGS_PER_THREAD, "sm.max_regs_per_thread", sm.max_regs_per_thread, 1, 65535, 0,
	   "Most registers one thread may use."),
	KU(KEY_SM_REG_ALLOC_UNIT, "sm.reg_alloc_unit", sm.reg_alloc_unit, 1, 65536, 0,
	   "Registers are allocated per warp in multiples of this many (1: exact)."),
	KU(KEY_SM_REG_PARTITIONS, "sm.reg_partitions", sm.reg_partitions, 1, 64, 0,
	   "Register-file partitions: a warp's registers come from one partition (1: one file)."),
	KS(KEY_SM_SHMEM, "sm.shmem", sm.shmem, 0, GB(1), 0,
	   "Most shared memory per SM (the largest carve-out option, if any)."),
	KS(KEY_SM_MAX_SHMEM_PER_BLOCK, "sm.max_shmem_per_block", sm.max_shmem_per_block, 0, GB(1), 0,
	   "Most shared memory one block may use."),
	KU(KEY_SM_SHMEM_ALLOC_UNIT, "sm.shmem_alloc_unit", sm.shmem_alloc_unit, 1, 65536, 0,
	   "Shared memory is allocated per block in multiples of this many bytes."),
	KS(KEY_SM_UNIFIED, "sm.unified_size", sm.unified, 0, GB(1), 0,
	   "Storage shared by L1 and shared memory (0: separate)."),
	KT(KEY_SM_OPTIONS, "sm.shmem_options", K_LIST, sm.options,
	   "Shared-memory sizes the unified storage can be split into, ascending."),
	KE(KEY_SM_CARVEOUT, "sm.carveout", sm.carveout, e_carveout,
	   "none: L1 and shared memory are separate; fixed: one split for the run; "
	   "adaptive: the split is chosen per kernel."),

	[KEY_L1_CACHE] = {"l1.cache", K_CACHE, F_PSEUDO, OFF(l1), 0, 0, 0, 0, NULL,
			  "A GPGPU-Sim cache string; sets the l1 keys it spells."},
	KS(KEY_L1_SIZE, "l1.size", l1.size, 1, GB(1), 0,
	   "L1 data cache bytes per SM: l1.sets * l1.ways * l1.line (with a carve-out, the base size)."),
	KU(KEY_L1_LINE, "l1.line", l1.line, 4, 4096, F_POW2, "L1 line bytes."),
	KU(KEY_L1_SECTOR, "l1.sector", l1.sector, 4, 4096, F_POW2,
	   "L1 sector bytes (l1.line: not sectored)."),
	KU(KEY_L1_SETS, "l1.sets", l1.sets, 1, 1u << 24, 0, "L1 sets."),
	KU(KEY_L1_WAYS, "l1.ways", l1.ways, 1, 65536, 0, "L1 ways (associativity)."),
	KE(KEY_L1_INDEX, "l1.index", l1.index, e_index, "L1 set-index function."),
	KE(KEY_L1_REPL, "l1.replacement", l1.repl, e_repl, "L1 replacement policy."),
	KE(KEY_L1_WRITE, "l1.write", l1.write, e_write, "L1 write policy."),
	KE(KEY_L1_ALLOC, "l1.alloc", l1.alloc, e_alloc, "When L1 allocates a line."),
	KE(KEY_L1_WALLOC, "l1.write_alloc", l1.walloc, e_walloc, "What an L1 write miss does."),
	KE(KEY_L1_MSHR, "l1.mshr_kind", l1.mshr, e_mshr, "L1 MSHR organisation."),
	KU(KEY_L1_MSHR_ENTRIES, "l1.mshr_entries", l1.mshr_entries, 1, 65536, 0,
	   "L1 MSHR entries per SM."),
	KU(KEY_L1_MSHR_MERGE, "l1.mshr_merge", l1.mshr_merge, 1, 65536, 0,
	   "Requests one L1 MSHR entry can merge."),
	KU(KEY_L1_MSHR_PER_WARP, "l1.mshr_per_warp", l1.mshr_per_warp, 0, 65536, 0,
	   "MSHR entries one warp may hold (0: no limit)."),
	KU(KEY_L1_MISS_QUEUE, "l1.miss_queue", l1.miss_queue, 0, 65536, 0, "L1 miss queue entries."),
	KU(KEY_L1_PORT, "l1.port", l1.port, 0, 65536, 0,
	   "L1 data port bytes per cycle (0: the line size)."),
	KU(KEY_L1_LATENCY, "l1.latency", l1.latency, 0, 1000000, 0, "L1 hit latency in cycles."),
	KE(KEY_L1_SKIP_GLOBAL, "l1.skip_global", l1.skip_global, e_bool,
	   "Global loads bypass L1 unless marked cacheable."),
	KE(KEY_L1_SCALE, "l1.carveout_scales", l1.scale, e_scale,
	   "What an adaptive carve-out changes: ways (fixed sets) or sets (fixed ways)."),
	KE(KEY_L1_FLUSH, "l1.kernel_flush", l1.kernel_flush, e_bool,
	   "L1 invalidated at every kernel end (gc-l1's default --kernel-boundary)."),

	[KEY_L2_CACHE] = {"l2.cache", K_CACHE, F_PSEUDO, OFF(l2), 0, 0, 0, 0, NULL,
			  "A GPGPU-Sim cache string for one L2 slice; sets the l2 keys it spells."},
	KS(KEY_L2_SIZE, "l2.size", l2.total, 1, (uint64_t)1 << 40, 0,
	   "Total L2 bytes: l2.channels * l2.sub_partitions * l2.slice_size."),
	KU(KEY_L2_CHANNELS, "l2.channels", l2.channels, 1, 4096, 0,
	   "Memory partitions (channels), each with an L2 part and a DRAM controller."),
	KU(KEY_L2_SUB, "l2.sub_partitions", l2.sub_partitions, 1, 64, F_POW2,
	   "Sub-partitions per channel, one L2 slice each."),
	KS(KEY_L2_SLICE, "l2.slice_size", l2.size, 1, GB(1), 0,
	   "Bytes of one L2 slice: l2.sets * l2.ways * l2.line."),
	KU(KEY_L2_LINE, "l2.line", l2.line, 4, 4096, F_POW2, "L2 line bytes."),
	KU(KEY_L2_SECTOR, "l2.sector", l2.sector, 4, 4096, F_POW2,
	   "L2 sector bytes (l2.line: not sectored)."),
	KU(KEY_L2_SETS, "l2.sets", l2.sets, 1, 1u << 24, 0, "Sets of one L2 slice."),
	KU(KEY_L2_WAYS, "l2.ways", l2.ways, 1, 65536, 0, "L2 ways (associativity)."),
	KE(KEY_L2_INDEX, "l2.index", l2.index, e_index,
	   "L2 set-index function (applied to the partition address)."),
	KE(KEY_L2_REPL, "l2.replacement", l2.repl, e_repl, "L2 replacement policy."),
	KE(KEY_L2_WRITE, "l2.write", l2.write, e_write, "L2 write policy."),
	KE(KEY_L2_ALLOC, "l2.alloc", l2.alloc, e_alloc, "When L2 allocates a line."),
	KE(KEY_L2_WALLOC, "l2.write_alloc", l2.walloc, e_walloc, "What an L2 write miss does."),
	KE(KEY_L2_MSHR, "l2.mshr_kind", l2.mshr, e_mshr, "L2 MSHR organisation."),
	KU(KEY_L2_MSHR_ENTRIES, "l2.mshr_entries", l2.mshr_entries, 1, 65536, 0,
	   "MSHR entries per L2 slice."),
	KU(KEY_L2_MSHR_MERGE, "l2.mshr_merge", l2.mshr_merge, 1, 65536, 0,
	   "Requests one L2 MSHR entry can merge."),
	KU(KEY_L2_MISS_QUEUE, "l2.miss_queue", l2.miss_queue, 0, 65536, 0, "L2 miss queue entries."),
	KU(KEY_L2_PORT, "l2.port", l2.port, 0, 65536, 0,
	   "L2 data port bytes per cycle (0: the line size)."),
	KU(KEY_L2_LATENCY, "l2.latency", l2.latency, 0, 1000000, 0,
	   "L2 (ROP) latency in cycles."),
	KT(KEY_L2_MAPPING, "l2.mapping", K_MAP, l2.mapping,
	   "DRAM address mapping (GPGPU-Sim -gpgpu_mem_addr_mapping)."),
	KE(KEY_L2_PINDEX, "l2.partition_index", l2.pindex, e_pindex,
	   "How addresses choose a channel and sub-partition."),
	KE(KEY_L2_FLUSH, "l2.kernel_flush", l2.kernel_flush, e_bool,
	   "L2 written back and invalidated at every kernel end (gc-l2's default --flush)."),

	KE(KEY_DRAM_TYPE, "dram.type", dram.type, e_dram, "DRAM technology."),
	KU(KEY_DRAM_CHANNELS, "dram.channels", dram.channels, 1, 4096, 0,
	   "Independent DRAM channels (a multiple of l2.channels)."),
	KU(KEY_DRAM_BANKS, "dram.banks", dram.banks, 1, 1024, F_POW2,
	   "Banks per channel (2 to the number of B bits of l2.mapping)."),
	KU(KEY_DRAM_BANK_GROUPS, "dram.bank_groups", dram.bank_groups, 1, 1024, 0,
	   "Bank groups per channel (divides dram.banks)."),
	KS(KEY_DRAM_ROW, "dram.row_size", dram.row, 1, MB(1), F_POW2,
	   "Bytes of one row of one bank of a channel (2 to the number of C and S bits)."),
	KU(KEY_DRAM_BUS_WIDTH, "dram.bus_width", dram.bus_width, 1, 1024, 0,
	   "Bytes per transfer of one channel."),
	KR(KEY_DRAM_BANDWIDTH, "dram.bandwidth", dram.bandwidth, 0.001, 1e6,
	   "Peak DRAM bandwidth of the whole GPU in GB/s (10^9 bytes per second)."),
	KU(KEY_DRAM_LATENCY, "dram.latency", dram.latency, 0, 1000000, 0,
	   "DRAM latency in cycles."),

	KU(KEY_MISS_LAMBDA, "miss.lambda_min", miss.lambda_min, 0, 1000000, 0,
	   "Seed 000's best-case miss latency, in cycles."),
	KR(KEY_MISS_SIGMA, "miss.sigma", miss.sigma, 0, 1e6,
	   "Seed 000's miss-latency spread: a miss takes miss.lambda_min + |N(0, sigma^2)|."),

	KE(KEY_COALESCE, "coalesce.arch", coalesce, e_coalesce,
	   "Coalescing rules (fermi, kepler: segments by access size; later: 32-byte sectors)."),
};

/* The keys of one cache level, in the order the cache string sets them. */
struct level {
	const char *name;
	size_t off;
	int cache, size, line, sector, sets, ways, index, repl, write, alloc, walloc, mshr,
		entries, merge, miss_queue, port;
};

static const struct level L1 = {"l1", OFF(l1), KEY_L1_CACHE, KEY_L1_SIZE, KEY_L1_LINE,
				KEY_L1_SECTOR, KEY_L1_SETS, KEY_L1_WAYS, KEY_L1_INDEX,
				KEY_L1_REPL, KEY_L1_WRITE, KEY_L1_ALLOC, KEY_L1_WALLOC,
				KEY_L1_MSHR, KEY_L1_MSHR_ENTRIES, KEY_L1_MSHR_MERGE,
				KEY_L1_MISS_QUEUE, KEY_L1_PORT};
static const struct level L2 = {"l2", OFF(l2), KEY_L2_CACHE, KEY_L2_SLICE, KEY_L2_LINE,
				KEY_L2_SECTOR, KEY_L2_SETS, KEY_L2_WAYS, KEY_L2_INDEX,
				KEY_L2_REPL, KEY_L2_WRITE, KEY_L2_ALLOC, KEY_L2_WALLOC,
				KEY_L2_MSHR, KEY_L2_MSHR_ENTRIES, KEY_L2_MSHR_MERGE,
				KEY_L2_MISS_QUEUE, KEY_L2_PORT};

int gc_gpu_nkeys(void)
{
	return NKEYS;
}

int gc_gpu_key_find(const char *name)
{
	for (int i = 0; i < NKEYS; i++)
		if (strcmp(keys[i].name, name) == 0)
			return i;
	return -1;
}

const char *gc_gpu_key_name(int i)
{
	return i >= 0 && i < NKEYS ? keys[i].name : NULL;
}

const char *gc_gpu_key_meaning(int i)
{
	return i >= 0 && i < NKEYS ? keys[i].meaning : NULL;
}

int gc_gpu_key_pseudo(int i)
{
	return i >= 0 && i < NKEYS && (keys[i].flags & F_PSEUDO);
}

const char *gc_gpu_key_type(int i)
{
	if (i < 0 || i >= NKEYS)
		return NULL;
	switch (keys[i].type) {
	case K_NAME: return "name";
	case K_TEXT: return "text";
	case K_CC: return "compute capability";
	case K_UINT: return "integer";
	case K_SIZE: return "size";
	case K_REAL: return "number";
	case K_ENUM: return keys[i].e == e_bool ? "yes/no" : "enum";
	case K_LIST: return "size list";
	case K_MAP: return "address mapping";
	case K_CACHE: return "cache string";
	}
	return "?";
}

/* ---- small helpers ---------------------------------------------------- */



/* Sizes print with the largest binary suffix that is exact: 16K, 6M. */
static void fmt_size(char *b, size_t n, uint64_t v)
{
	if (v && v % GB(1) == 0)
		snprintf(b, n, "%lluG", (unsigned long long)(v >> 30));
	else if (v && v % MB(1) == 0)
		snprintf(b, n, "%lluM", (unsigned long long)(v >> 20));
	else if (v && v % KB(1) == 0)
		snprintf(b, n, "%lluK", (unsigned long long)(v >> 10));
	else
		snprintf(b, n, "%llu", (unsigned long long)v);
}

/* The shortest decimal text that reads back as exactly v. */
static void fmt_real(char *b, size_t n, double v)
{
	if (v == floor(v) && fabs(v) < 1e15) {
		snprintf(b, n, "%.0f", v);
		return;
	}
	for (int p = 1; p <= 17; p++) {
		snprintf(b, n, "%.*g", p, v);
		if (strtod(b, NULL) == v)
			return;
	}
}

/* Decimal or 0x hex; decimal may end in K, M or G (x1024^n). */
static int parse_u64(const char *s, uint64_t *out)
{
	int base = 10;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (!((*s >= '0' && *s <= '9') ||
	      (base == 16 && *s && strchr("abcdefABCDEF", *s))))
		return -1;
	errno = 0;
	char *end;
	unsigned long long v = strtoull(s, &end, base);
	if (errno == ERANGE)
		return -1;
	unsigned shift = 0;
	if (*end && base == 10) {
		switch (*end) {
		case 'k': case 'K': shift = 10; break;
		case 'm': case 'M': shift = 20; break;
		case 'g': case 'G': shift = 30; break;
		default: return -1;
		}
		end++;
	}
	if (*end || (shift && v > (~0ULL >> shift)))
		return -1;
	*out = (uint64_t)v << shift;
	return 0;
}

static void *field(gc_gpu_config *c, int k)
{
	return (char *)c + keys[k].off;
}

static const void *cfield(const gc_gpu_config *c, int k)
{
	return (const char *)c + keys[k].off;
}

static const char *enum_name(const struct genum *e, int v)
{
	for (; e->name; e++)
		if (e->value == v)
			return e->name;
	return "?";
}

void gc_gpu_key_expected(int i, char *buf, size_t len)
{
	const struct key *k = &keys[i];
	char lo[32], hi[32];
	size_t n;
	switch (k->type) {
	case K_NAME:
		snprintf(buf, len, "a name of letters, digits, '.', '_' and '-', at most 63");
		return;
	case K_TEXT:
		snprintf(buf, len, "printable text, at most 127 characters");
		return;
	case K_CC:
		snprintf(buf, len, "MAJOR.MINOR such as 7.0");
		return;
	case K_UINT:
		snprintf(buf, len, "%s from %llu to %llu",
			 (k->flags & F_POW2) ? "a power of two" : "an integer",
			 (unsigned long long)k->min, (unsigned long long)k->max);
		return;
	case K_SIZE:
		fmt_size(lo, sizeof lo, k->min);
		fmt_size(hi, sizeof hi, k->max);
		snprintf(buf, len, "%s in bytes from %s to %s; K, M, G multiply by 1024",
			 (k->flags & F_POW2) ? "a power-of-two size" : "a size", lo, hi);
		return;
	case K_REAL:
		fmt_real(lo, sizeof lo, k->dmin);
		fmt_real(hi, sizeof hi, k->dmax);
		snprintf(buf, len, "a number from %s to %s", lo, hi);
		return;
	case K_ENUM:
		if (k->e == e_bool) {
			snprintf(buf, len, "yes or no");
			return;
		}
		n = (size_t)snprintf(buf, len, "one of");
		for (const struct genum *e = k->e; e->name && n < len; e++)
			n += (size_t)snprintf(buf + n, len - n, "%s %s", e == k->e ? "" : ",", e->name);
		if (k->e == e_coalesce && n < len) {
			snprintf(buf + n, len - n, " (or a GPGPU-Sim -gpgpu_coalesce_arch number)");
			return;
		}
		if (k->e[0].alias && n < len) {
			n += (size_t)snprintf(buf + n, len - n, " (or");
			for (const struct genum *e = k->e; e->name && n < len; e++)
				if (e->alias)
					n += (size_t)snprintf(buf + n, len - n, "%s %s",
							      e == k->e ? "" : ",", e->alias);
			if (n < len)
				snprintf(buf + n, len - n, ")");
		}
		return;
	case K_LIST:
		snprintf(buf, len, "none, or up to %d ascending sizes separated by commas",
			 GC_GPU_OPTIONS_MAX);
		return;
	case K_MAP:
		snprintf(buf, len, "[dramid@BIT;] then 64 bit symbols of D, B, R, C, S, 0");
		return;
	case K_CACHE:
		snprintf(buf, len, "a GPGPU-Sim cache string");
		return;
	}
}

/* ---- GPGPU-Sim cache strings ------------------------------------------ */

/* Write a message into buf and return -1. */
static int msgf(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int msgf(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	return -1;
}

static int parse_count(const char *f, unsigned *out)
{
	if (!*f)
		return -1;
	uint64_t v = 0;
	for (const char *p = f; *p; p++) {
		if (*p < '0' || *p > '9')
			return -1;
		v = v * 10 + (uint64_t)(*p - '0');
		if (v > 0xffffffffu)
			return -1;
	}
	*out = (unsigned)v;
	return 0;
}

static int letter(const char *f, const char *allowed, const struct genum *e, int *out)
{
	if (strlen(f) != 1 || !strchr(allowed, f[0]))
		return -1;
	for (; e->name; e++)
		if (e->alias && e->alias[0] == f[0]) {
			*out = e->value;
			return 0;
		}
	return -1;
}

int gc_gpu_cache_parse(gc_gpu_cache *out, const char *s, char *why, size_t len)
{
	char buf[256];
	char *grp[8][8];
	int nf[8] = {0}, ng = 0;
	if (strcmp(s, "none") == 0)
		return msgf(why, len, "'none' (no cache) has no geometry");
	if (strlen(s) >= sizeof buf)
		return msgf(why, len, "too long");
	strcpy(buf, s);
	/* Split into comma groups of colon fields. */
	for (char *p = buf;;) {
		if (ng == 8)
			return msgf(why, len, "too many comma groups");
		char *comma = strchr(p, ',');
		if (comma)
			*comma = 0;
		for (char *q = p;;) {
			if (nf[ng] == 8)
				return msgf(why, len, "too many fields in group %d", ng + 1);
			char *colon = strchr(q, ':');
			if (colon)
				*colon = 0;
			if (!*q)
				return msgf(why, len, "empty field in group %d", ng + 1);
			grp[ng][nf[ng]++] = q;
			if (!colon)
				break;
			q = colon + 1;
		}
		ng++;
		if (!comma)
			break;
		p = comma + 1;
	}

	gc_gpu_cache c = *out;
	int grammar, g = 0;
	char ct = 'N';
	char **f = grp[0];
	if ((f[0][0] >= 'A' && f[0][0] <= 'Z') || (f[0][0] >= 'a' && f[0][0] <= 'z')) {
		grammar = GC_GRAMMAR_4X;
		if (nf[0] != 4)
			return msgf(why, len, "<ct>:<nset>:<line>:<assoc> has %d fields, not 4", nf[0]);
		if (strlen(f[0]) != 1 || (f[0][0] != 'N' && f[0][0] != 'S'))
			return msgf(why, len, "cache type '%s' is not N (normal) or S (sector)", f[0]);
		ct = f[0][0];
		f++;
	} else {
		if (nf[0] != 3)
			return msgf(why, len, "<nset>:<line>:<assoc> has %d fields, not 3", nf[0]);
		grammar = GC_GRAMMAR_3X;
	}
	if (parse_count(f[0], &c.sets) < 0 || !gc_is_pow2(c.sets))
		return msgf(why, len, "sets '%s' is not a power of two", f[0]);
	if (parse_count(f[1], &c.line) < 0 || !gc_is_pow2(c.line) || c.line < 4 || c.line > 4096)
		return msgf(why, len, "line '%s' is not a power of two from 4 to 4096", f[1]);
	if (parse_count(f[2], &c.ways) < 0 || c.ways < 1 || c.ways > 65536)
		return msgf(why, len, "associativity '%s' is not from 1 to 65536", f[2]);
	if (ct == 'S' && c.line != 128)
		return msgf(why, len, "sector caches (S) need 128-byte lines (4 sectors of 32 bytes)");
	c.sector = ct == 'S' ? 32 : c.line;

	if (ng < 3)
		return msgf(why, len, "too few fields (at least <geometry>,<policies>,<mshr>)");
	g = 1;
	f = grp[g];
	if (grammar == GC_GRAMMAR_3X && nf[g] == 4)
		grammar = GC_GRAMMAR_3X_NOSIF;
	else if (nf[g] != 5)
		return msgf(why, len, "<rp>:<wp>:<ap>:<wap>%s has %d fields",
			    grammar == GC_GRAMMAR_4X ? ":<sif>" : "[:<sif>]", nf[g]);
	if (letter(f[0], "LF", e_repl, &c.repl) < 0)
		return msgf(why, len, "replacement '%s' is not L or F", f[0]);
	if (letter(f[1], "RBTEL", e_write, &c.write) < 0)
		return msgf(why, len, "write policy '%s' is not R, B, T, E or L", f[1]);
	if (letter(f[2], "mfs", e_alloc, &c.alloc) < 0)
		return msgf(why, len, "allocation '%s' is not m, f or s", f[2]);
	if (letter(f[3], "NWFL", e_walloc, &c.walloc) < 0)
		return msgf(why, len, "write allocation '%s' is not N, W, F or L", f[3]);
	if (grammar == GC_GRAMMAR_3X_NOSIF) {
		c.index = GC_INDEX_LINEAR;
	} else if (strcmp(f[4], "C") == 0) {
		return msgf(why, len, "set index C (custom) is not implemented (GPGPU-Sim maps "
			    "everything to set 0)");
	} else if (letter(f[4], "LXHP", e_index, &c.index) < 0) {
		return msgf(why, len, "set index '%s' is not L, X, H or P", f[4]);
	}

	g = 2;
	f = grp[g];
	if (nf[g] != 3)
		return msgf(why, len, "<mshr>:<N>:<merge> has %d fields, not 3", nf[g]);
	if (strcmp(f[0], "F") == 0 || strcmp(f[0], "T") == 0)
		return msgf(why, len, "MSHR kind %s is a texture cache's; data caches use A or S", f[0]);
	if (letter(f[0], "AS", e_mshr, &c.mshr) < 0)
		return msgf(why, len, "MSHR kind '%s' is not A or S", f[0]);
	if (parse_count(f[1], &c.mshr_entries) < 0 || c.mshr_entries < 1 || c.mshr_entries > 65536)
		return msgf(why, len, "MSHR entries '%s' is not from 1 to 65536", f[1]);
	if (parse_count(f[2], &c.mshr_merge) < 0 || c.mshr_merge < 1 || c.mshr_merge > 65536)
		return msgf(why, len, "MSHR merges '%s' is not from 1 to 65536", f[2]);

	c.miss_queue = 0;
	c.port = 0;
	if (ng > 3) {
		unsigned fifo;
		f = grp[3];
		if (nf[3] > 2)
			return msgf(why, len, "<mq>[:<fifo>] has %d fields", nf[3]);
		if (parse_count(f[0], &c.miss_queue) < 0 || c.miss_queue > 65536)
			return msgf(why, len, "miss queue '%s' is not from 0 to 65536", f[0]);
		if (nf[3] == 2 && parse_count(f[1], &fifo) < 0)
			return msgf(why, len, "fifo '%s' is not a number", f[1]);
		if (ng > 4) {
			if (grammar == GC_GRAMMAR_4X && nf[3] != 2)
				return msgf(why, len, "a port width needs <mq>:<fifo> before it");
			if (nf[4] != 1 || parse_count(grp[4][0], &c.port) < 0)
				return msgf(why, len, "port '%s' is not a number", grp[4][0]);
			if (c.port && (c.port > c.line || c.line % c.port))
				return msgf(why, len, "port %u does not divide the line (%u)", c.port,
					    c.line);
		}
		if (ng > 5)
			return msgf(why, len, "too many fields after the port");
	}
	c.size = (uint64_t)c.sets * c.ways * c.line;
	*out = c;
	return grammar;
}

int gc_gpu_cache_format(const gc_gpu_cache *c, char *buf, size_t len)
{
	char ct;
	if (c->sector == c->line)
		ct = 'N';
	else if (c->sector == 32 && c->line == 128)
		ct = 'S';
	else
		return -1;
	if (c->repl == GC_REPL_RANDOM)
		return -1;
	const char *rp = e_repl[c->repl].alias, *wp = e_write[c->write].alias;
	const char *ap = e_alloc[c->alloc].alias, *wap = e_walloc[c->walloc].alias;
	const char *sif = e_index[c->index].alias, *ms = e_mshr[c->mshr].alias;
	return snprintf(buf, len, "%c:%u:%u:%u,%s:%s:%s:%s:%s,%s:%u:%u,%u:0,%u", ct, c->sets,
			c->line, c->ways, rp, wp, ap, wap, sif, ms, c->mshr_entries,
			c->mshr_merge, c->miss_queue, c->port);
}

int gc_gpu_coalesce_sectored(const gc_gpu_config *c)
{
	return c->coalesce >= GC_COALESCE_MAXWELL;
}

/* ---- address mappings (reference §3.5) --------------------------------- */

/* The bit counts of a mapping string's fields (gc_addrmap_parse reads it:
 * one parser for the key's check and for gc-l2 and gc-dram). */
struct mapping {
	int dramid; /* bit of the inserted chip id, or -1 */
	int nD, nB, nR, nC; /* nC counts the S bits too */
};

static int mapping_parse(const char *s, struct mapping *m, char *why, size_t len)
{
	gc_addrmap am;
	if (gc_addrmap_parse(&am, s, why, len) < 0)
		return -1;
	m->dramid = am.dramid;
	m->nD = __builtin_popcountll(am.mask[GC_AM_CHIP]);
	m->nB = __builtin_popcountll(am.mask[GC_AM_BANK]);
	m->nR = __builtin_popcountll(am.mask[GC_AM_ROW]);
	m->nC = __builtin_popcountll(am.mask[GC_AM_COL]);
	return 0;
}

/* ---- setting values --------------------------------------------------- */

void gc_gpu_defaults(gc_gpu_config *c)
{
	memset(c, 0, sizeof *c);
	/* The seed-000 GPU: share/gpus/fermi-gtx470-16k.gpu gives the sources. */
	snprintf(c->name, sizeof c->name, "fermi-gtx470-16k");
	snprintf(c->description, sizeof c->description,
		 "NVIDIA GeForce GTX 470 (Fermi GF100), 16 KB L1 and 48 KB shared memory");
	c->cc = 20;
	c->sm.count = 14;
	c->sm.clock = 1215;
	c->sm.warp_size = 32;
	c->sm.max_threads = 1536;
	c->sm.max_warps = 48;
	c->sm.max_blocks = 8;
	c->sm.max_threads_per_block = 1024;
	c->sm.registers = 32768;
	c->sm.max_regs_per_block = 32768;
	c->sm.max_regs_per_thread = 63;
	c->sm.reg_alloc_unit = 64;
	c->sm.reg_partitions = 2;
	c->sm.shmem = KB(48);
	c->sm.max_shmem_per_block = KB(48);
	c->sm.shmem_alloc_unit = 128;
	c->sm.unified = KB(64);
	c->sm.carveout = GC_CARVEOUT_FIXED;
	c->sm.noptions = 2;
	c->sm.options[0] = KB(16);
	c->sm.options[1] = KB(48);

	gc_gpu_cache *l1 = &c->l1;
	l1->kernel_flush = 1; /* -gpgpu_flush_l1_cache 1 */
	l1->line = l1->sector = 128;
	l1->sets = 32;
	l1->ways = 4;
	l1->size = KB(16);
	l1->index = GC_INDEX_FERMI;
	l1->repl = GC_REPL_LRU;
	l1->write = GC_WRITE_LOCAL_BACK;
	l1->alloc = GC_ALLOC_ON_MISS;
	l1->walloc = GC_WALLOC_NONE;
	l1->mshr = GC_MSHR_ASSOC;
	l1->mshr_entries = 64;
	l1->mshr_merge = 8;
	l1->mshr_per_warp = 6;
	l1->miss_queue = 8;
	l1->latency = 0;
	l1->scale = GC_SCALE_WAYS;

	gc_gpu_cache *l2 = &c->l2;
	l2->line = 128;
	l2->sector = 32;
	l2->sets = 64;
	l2->ways = 8;
	l2->size = KB(64);
	l2->channels = 5;
	l2->sub_partitions = 2;
	l2->total = KB(640);
	l2->index = GC_INDEX_LINEAR;
	l2->repl = GC_REPL_LRU;
	l2->write = GC_WRITE_BACK;
	l2->alloc = GC_ALLOC_ON_MISS;
	l2->walloc = GC_WALLOC_LAZY_FETCH_ON_READ;
	l2->mshr = GC_MSHR_ASSOC;
	l2->mshr_entries = 256;
	l2->mshr_merge = 4;
	l2->miss_queue = 4;
	l2->port = 32;
	l2->latency = 120;
	l2->pindex = GC_PINDEX_CONSECUTIVE;
	snprintf(l2->mapping, sizeof l2->mapping, "dramid@8;00000000.00000000.00000000."
		 "00000000.0000RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS");

	c->dram.type = GC_DRAM_GDDR5;
	c->dram.channels = 5;
	c->dram.banks = 16;
	c->dram.bank_groups = 4;
	c->dram.row = KB(4);
	c->dram.bus_width = 8;
	c->dram.bandwidth = 133.9;
	c->dram.latency = 100;
	c->miss.lambda_min = 100;
	c->miss.sigma = 5;
	c->coalesce = GC_COALESCE_FERMI;
	gc_gpu_begin(c);
}

void gc_gpu_begin(gc_gpu_config *c)
{
	memset(c->given, 0, sizeof c->given);
	memset(c->line, 0, sizeof c->line);
	for (int i = 0; i < GC_GPU_KEYS_MAX; i++)
		c->by[i] = -1;
	c->err_line = 0;
}

/* Note that key k is set in this layer through key `by`.  A key set both
 * directly and through a cache string is a conflict. */
static int mark(gc_gpu_config *c, int k, int by, int line, char *err, size_t len)
{
	if (c->given[k] && c->by[k] != by) {
		char at[32] = "";
		if (c->line[k] > 0)
			snprintf(at, sizeof at, " on line %d", c->line[k]);
		if (by == k)
			return msgf(err, len, "key '%s' is also set by '%s'%s", keys[k].name,
				    keys[c->by[k]].name, at);
		return msgf(err, len, "key '%s' sets '%s', already set%s", keys[by].name,
			    keys[k].name, at);
	}
	c->given[k] = 1;
	c->by[k] = (short)by;
	c->line[k] = line;
	return 0;
}

static int bad(char *err, size_t len, int k, const char *val, const char *why)
{
	char exp[256];
	gc_gpu_key_expected(k, exp, sizeof exp);
	if (why && *why)
		return msgf(err, len, "bad value '%s' for key '%s' (expected %s: %s)", val,
			    keys[k].name, exp, why);
	return msgf(err, len, "bad value '%s' for key '%s' (expected %s)", val, keys[k].name, exp);
}

static int parse_enum(const struct genum *e, const char *v, int *out)
{
	for (; e->name; e++)
		if (strcmp(e->name, v) == 0 || (e->alias && strcmp(e->alias, v) == 0)) {
			*out = e->value;
			return 0;
		}
	return -1;
}

/* GPGPU-Sim's coalescing numbers by generation (<40: segments). */
static int coalesce_number(const char *v, int *out)
{
	uint64_t n;
	if (parse_u64(v, &n) < 0 || n < 1 || n > 199)
		return -1;
	*out = n < 30 ? GC_COALESCE_FERMI : n < 40 ? GC_COALESCE_KEPLER
		: n < 60 ? GC_COALESCE_MAXWELL : n < 70 ? GC_COALESCE_PASCAL
		: n < 75 ? GC_COALESCE_VOLTA : n < 80 ? GC_COALESCE_TURING
		: n < 90 ? GC_COALESCE_AMPERE : GC_COALESCE_HOPPER;
	return 0;
}

static int set_cache(gc_gpu_config *c, int k, const char *val, int line, char *err, size_t len)
{
	const struct level *lv = k == KEY_L1_CACHE ? &L1 : &L2;
	gc_gpu_cache *cache = (gc_gpu_cache *)((char *)c + lv->off);
	gc_gpu_cache tmp = *cache;
	char why[160];
	if (gc_gpu_cache_parse(&tmp, val, why, sizeof why) < 0)
		return bad(err, len, k, val, why);
	const int set[] = {lv->line, lv->sector, lv->sets, lv->ways, lv->index, lv->repl,
			   lv->write, lv->alloc, lv->walloc, lv->mshr, lv->entries, lv->merge,
			   lv->miss_queue, lv->port};
	for (size_t i = 0; i < sizeof set / sizeof set[0]; i++)
		if (mark(c, set[i], k, line, err, len) < 0)
			return -1;
	tmp.size = cache->size; /* sizes are derived by gc_gpu_finish */
	*cache = tmp;
	c->given[k] = 1;
	c->by[k] = (short)k;
	c->line[k] = line;
	return 0;
}

static int set_list(gc_gpu_config *c, int k, const char *val, char *err, size_t len)
{
	uint64_t v[GC_GPU_OPTIONS_MAX];
	int n = 0;
	char buf[512], why[96];
	if (strcmp(val, "none") != 0) {
		if (strlen(val) >= sizeof buf)
			return bad(err, len, k, val, "too long");
		strcpy(buf, val);
		char *save = NULL;
		for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
			while (*t == ' ' || *t == '\t')
				t++;
			char *e = t + strlen(t);
			while (e > t && (e[-1] == ' ' || e[-1] == '\t'))
				*--e = 0;
			if (n == GC_GPU_OPTIONS_MAX)
				return bad(err, len, k, val, "too many sizes");
			if (parse_u64(t, &v[n]) < 0 || v[n] > GB(1)) {
				snprintf(why, sizeof why, "'%s' is not a size up to 1G", t);
				return bad(err, len, k, val, why);
			}
			if (n && v[n] <= v[n - 1]) {
				char a[32], b[32];
				fmt_size(a, sizeof a, v[n]);
				fmt_size(b, sizeof b, v[n - 1]);
				snprintf(why, sizeof why, "%s does not follow %s", a, b);
				return bad(err, len, k, val, why);
			}
			n++;
		}
		if (!n || val[strlen(val) - 1] == ',' || strstr(val, ",,") || val[0] == ',')
			return bad(err, len, k, val, "an empty size");
	}
	c->sm.noptions = n;
	memcpy(c->sm.options, v, sizeof(uint64_t) * (size_t)n);
	return 0;
}

static int set_value(gc_gpu_config *c, int k, const char *val, char *err, size_t len)
{
	const struct key *kp = &keys[k];
	uint64_t u;
	switch (kp->type) {
	case K_NAME: {
		size_t n = strlen(val);
		if (n == 0 || n > 63 || strspn(val, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
					     "0123456789._-") != n)
			return bad(err, len, k, val, NULL);
		strcpy(field(c, k), val);
		return 0;
	}
	case K_TEXT: {
		size_t n = strlen(val);
		if (n > 127)
			return bad(err, len, k, val, NULL);
		for (const char *p = val; *p; p++)
			if ((unsigned char)*p < 0x20 || (unsigned char)*p > 0x7e)
				return bad(err, len, k, val, NULL);
		strcpy(field(c, k), val);
		return 0;
	}
	case K_CC: {
		if (strlen(val) < 3 || strlen(val) > 4)
			return bad(err, len, k, val, NULL);
		unsigned major = 0;
		const char *p = val;
		while (*p >= '0' && *p <= '9')
			major = major * 10 + (unsigned)(*p++ - '0');
		if (p == val || major < 1 || major > 99 || p[0] != '.' || p[1] < '0' || p[1] > '9' ||
		    p[2])
			return bad(err, len, k, val, NULL);
		*(unsigned *)field(c, k) = major * 10 + (unsigned)(p[1] - '0');
		return 0;
	}
	case K_UINT:
	case K_SIZE:
		if (parse_u64(val, &u) < 0 || u < kp->min || u > kp->max ||
		    ((kp->flags & F_POW2) && !gc_is_pow2(u)))
			return bad(err, len, k, val, NULL);
		if (kp->type == K_UINT)
			*(unsigned *)field(c, k) = (unsigned)u;
		else
			*(uint64_t *)field(c, k) = u;
		return 0;
	case K_REAL: {
		char *end;
		errno = 0;
		double d = strtod(val, &end);
		if (end == val || *end || errno == ERANGE || !isfinite(d) || d < kp->dmin ||
		    d > kp->dmax)
			return bad(err, len, k, val, NULL);
		*(double *)field(c, k) = d;
		return 0;
	}
	case K_ENUM: {
		int v;
		if (parse_enum(kp->e, val, &v) < 0 &&
		    (kp->e != e_coalesce || coalesce_number(val, &v) < 0))
			return bad(err, len, k, val, NULL);
		*(int *)field(c, k) = v;
		return 0;
	}
	case K_LIST:
		return set_list(c, k, val, err, len);
	case K_MAP: {
		struct mapping m;
		char why[96];
		if (strlen(val) >= sizeof c->l2.mapping)
			return bad(err, len, k, val, "too long");
		if (mapping_parse(val, &m, why, sizeof why) < 0)
			return bad(err, len, k, val, why);
		strcpy(field(c, k), val);
		return 0;
	}
	case K_CACHE:
		break;
	}
	return -1;
}

int gc_gpu_set(gc_gpu_config *c, const char *key, const char *val, int line, char *err,
	       size_t len)
{
	int k = gc_gpu_key_find(key);
	if (k < 0)
		return msgf(err, len, "unknown key '%s'", key);
	/* Work on a copy, so a bad value leaves the layer as it was. */
	gc_gpu_config tmp = *c;
	if (keys[k].type == K_CACHE) {
		if (set_cache(&tmp, k, val, line, err, len) < 0)
			return -1;
	} else if (set_value(&tmp, k, val, err, len) < 0 ||
		   mark(&tmp, k, k, line, err, len) < 0) {
		return -1;
	}
	*c = tmp;
	return 0;
}

int gc_gpu_format(const gc_gpu_config *c, int k, char *buf, size_t len)
{
	const struct key *kp = &keys[k];
	const void *f = cfield(c, k);
	switch (kp->type) {
	case K_NAME:
	case K_TEXT:
	case K_MAP:
		return snprintf(buf, len, "%s", (const char *)f);
	case K_CC:
		return snprintf(buf, len, "%u.%u", *(const unsigned *)f / 10,
				*(const unsigned *)f % 10);
	case K_UINT:
		return snprintf(buf, len, "%u", *(const unsigned *)f);
	case K_SIZE:
		fmt_size(buf, len, *(const uint64_t *)f);
		return (int)strlen(buf);
	case K_REAL:
		fmt_real(buf, len, *(const double *)f);
		return (int)strlen(buf);
	case K_ENUM:
		return snprintf(buf, len, "%s", enum_name(kp->e, *(const int *)f));
	case K_LIST: {
		if (!c->sm.noptions)
			return snprintf(buf, len, "none");
		size_t n = 0;
		buf[0] = 0;
		for (int i = 0; i < c->sm.noptions && n < len; i++) {
			char s[32];
			fmt_size(s, sizeof s, c->sm.options[i]);
			n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? "," : "", s);
		}
		return (int)strlen(buf);
	}
	case K_CACHE:
		break;
	}
	return -1;
}

char *gc_gpu_text(const gc_gpu_config *c, const char *prefix, const char *sep)
{
	size_t cap = 8192, n = 0;
	char *s = malloc(cap), val[512];
	if (!s)
		return NULL;
	s[0] = 0;
	for (int k = 0; k < NKEYS; k++) {
		if (keys[k].flags & F_PSEUDO)
			continue;
		gc_gpu_format(c, k, val, sizeof val);
		size_t need = strlen(prefix) + strlen(keys[k].name) + strlen(sep) + strlen(val) + 2;
		if (n + need >= cap) {
			cap = 2 * cap + need;
			char *t = realloc(s, cap);
			if (!t) {
				free(s);
				return NULL;
			}
			s = t;
		}
		n += (size_t)snprintf(s + n, cap - n, "%s%s%s%s\n", prefix, keys[k].name, sep, val);
	}
	return s;
}

/* ---- deriving and cross-checking -------------------------------------- */

/* Fail, blaming the latest line among the keys given (-1 ends the list). */
static int failk(gc_gpu_config *c, char *err, size_t len, const int *blame, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static int failk(gc_gpu_config *c, char *err, size_t len, const int *blame, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	c->err_line = 0;
	for (; *blame >= 0; blame++)
		if (c->given[*blame] && c->line[*blame] > c->err_line)
			c->err_line = c->line[*blame];
	return -1;
}

#define BLAME(...) ((const int[]){__VA_ARGS__, -1})
#define SZ(buf, v) (fmt_size(buf, sizeof buf, (v)), buf)

static int derive_cache(gc_gpu_config *c, const struct level *lv, char *err, size_t len)
{
	gc_gpu_cache *k = (gc_gpu_cache *)((char *)c + lv->off);
	char a[32], b[32];
	uint64_t unit = (uint64_t)k->ways * k->line;
	if (c->given[lv->size] && !c->given[lv->sets]) {
		if (k->size % unit || k->size / unit > keys[lv->sets].max)
			return failk(c, err, len, BLAME(lv->size, lv->ways, lv->line),
				"%s %s is not a multiple of %s * %s = %u * %u = %s (up to %llu sets)",
				keys[lv->size].name, SZ(a, k->size), keys[lv->ways].name,
				keys[lv->line].name, k->ways, k->line, SZ(b, unit),
				(unsigned long long)keys[lv->sets].max);
		k->sets = (unsigned)(k->size / unit);
	} else if (!c->given[lv->size]) {
		k->size = k->sets * unit;
		if (k->size > keys[lv->size].max)
			return failk(c, err, len, BLAME(lv->sets, lv->ways, lv->line, lv->cache),
				"%s * %s * %s = %s is more than %s", keys[lv->sets].name,
				keys[lv->ways].name, keys[lv->line].name, SZ(a, k->size),
				SZ(b, keys[lv->size].max));
	}
	if (k->size != k->sets * unit)
		return failk(c, err, len, BLAME(lv->size, lv->sets, lv->ways, lv->line, lv->cache),
			"%s %s is not %s * %s * %s = %u * %u * %u = %s", keys[lv->size].name,
			SZ(a, k->size), keys[lv->sets].name, keys[lv->ways].name,
			keys[lv->line].name, k->sets, k->ways, k->line, SZ(b, k->sets * unit));
	return 0;
}

static int check_cache(gc_gpu_config *c, const struct level *lv, char *err, size_t len)
{
	gc_gpu_cache *k = (gc_gpu_cache *)((char *)c + lv->off);
	const char *n = lv->name;
	if (k->sector > k->line || k->line % k->sector)
		return failk(c, err, len, BLAME(lv->sector, lv->line, lv->cache),
			"%s.sector %u does not divide %s.line %u", n, k->sector, n, k->line);
	if (k->line / k->sector > 8)
		return failk(c, err, len, BLAME(lv->sector, lv->line, lv->cache),
			"%s.line %u holds %u sectors of %u bytes; at most 8 are supported", n,
			k->line, k->line / k->sector, k->sector);
	if (k->index == GC_INDEX_XOR && !gc_is_pow2(k->sets))
		return failk(c, err, len, BLAME(lv->index, lv->sets, lv->size, lv->cache),
			"%s.index xor needs a power-of-two number of sets, not %u", n, k->sets);
	if (k->index == GC_INDEX_FERMI && ((k->sets != 32 && k->sets != 64) || k->line != 128))
		return failk(c, err, len, BLAME(lv->index, lv->sets, lv->line, lv->size, lv->cache),
			"%s.index fermi needs 32 or 64 sets of 128-byte lines, not %u sets of %u bytes",
			n, k->sets, k->line);
	if (k->index == GC_INDEX_IPOLY && k->sets != 16 && k->sets != 32 && k->sets != 64)
		return failk(c, err, len, BLAME(lv->index, lv->sets, lv->size, lv->cache),
			"%s.index ipoly needs 16, 32 or 64 sets, not %u", n, k->sets);
	if (k->write == GC_WRITE_BACK && k->alloc != GC_ALLOC_ON_MISS)
		return failk(c, err, len, BLAME(lv->write, lv->alloc, lv->cache),
			"%s.alloc %s cannot be used with %s.write write-back", n,
			enum_name(e_alloc, k->alloc), n);
	if ((k->walloc == GC_WALLOC_FETCH_ON_WRITE || k->walloc == GC_WALLOC_LAZY_FETCH_ON_READ) &&
	    k->alloc != GC_ALLOC_ON_MISS)
		return failk(c, err, len, BLAME(lv->walloc, lv->alloc, lv->cache),
			"%s.write_alloc %s needs %s.alloc on-miss", n,
			enum_name(e_walloc, k->walloc), n);
	if (k->port && (k->port > k->line || k->line % k->port))
		return failk(c, err, len, BLAME(lv->port, lv->line, lv->cache),
			"%s.port %u does not divide %s.line %u", n, k->port, n, k->line);
	if (lv == &L1 && k->mshr_per_warp > k->mshr_entries)
		return failk(c, err, len, BLAME(KEY_L1_MSHR_PER_WARP, KEY_L1_MSHR_ENTRIES, KEY_L1_CACHE),
			"l1.mshr_per_warp %u is more than l1.mshr_entries %u",
			k->mshr_per_warp, k->mshr_entries);
	return 0;
}

static int check_sm(gc_gpu_config *c, char *err, size_t len)
{
	char a[32], b[32], d[32];
	if ((uint64_t)c->sm.max_warps * c->sm.warp_size != c->sm.max_threads)
		return failk(c, err, len, BLAME(KEY_SM_MAX_WARPS, KEY_SM_MAX_THREADS, KEY_SM_WARP_SIZE),
			"sm.max_threads %u is not sm.max_warps * sm.warp_size = %u * %u",
			c->sm.max_threads, c->sm.max_warps, c->sm.warp_size);
	if (c->sm.max_threads_per_block > c->sm.max_threads)
		return failk(c, err, len, BLAME(KEY_SM_MAX_THREADS_PER_BLOCK, KEY_SM_MAX_THREADS),
			"sm.max_threads_per_block %u is more than sm.max_threads %u",
			c->sm.max_threads_per_block, c->sm.max_threads);
	if (c->sm.max_regs_per_block > c->sm.registers)
		return failk(c, err, len, BLAME(KEY_SM_MAX_REGS_PER_BLOCK, KEY_SM_REGISTERS),
			"sm.max_regs_per_block %u is more than sm.registers %u",
			c->sm.max_regs_per_block, c->sm.registers);
	if (c->sm.registers % c->sm.reg_partitions)
		return failk(c, err, len, BLAME(KEY_SM_REG_PARTITIONS, KEY_SM_REGISTERS),
			"sm.reg_partitions %u does not divide sm.registers %u",
			c->sm.reg_partitions, c->sm.registers);
	if (c->sm.max_shmem_per_block > c->sm.shmem)
		return failk(c, err, len, BLAME(KEY_SM_MAX_SHMEM_PER_BLOCK, KEY_SM_SHMEM),
			"sm.max_shmem_per_block %s is more than sm.shmem %s",
			SZ(a, c->sm.max_shmem_per_block), SZ(b, c->sm.shmem));

	/* The carve-out (reference §3.4). */
	uint64_t u = c->sm.unified;
	const gc_gpu_cache *l1 = &c->l1;
	if (c->sm.carveout == GC_CARVEOUT_NONE) {
		if (u || c->sm.noptions)
			return failk(c, err, len, BLAME(KEY_SM_CARVEOUT, KEY_SM_UNIFIED, KEY_SM_OPTIONS),
				"sm.carveout none needs sm.unified_size 0 and sm.shmem_options none");
		return 0;
	}
	if (!u || !c->sm.noptions)
		return failk(c, err, len, BLAME(KEY_SM_CARVEOUT, KEY_SM_UNIFIED, KEY_SM_OPTIONS),
			"sm.carveout %s needs sm.unified_size and sm.shmem_options",
			enum_name(e_carveout, c->sm.carveout));
	for (int i = 0; i < c->sm.noptions; i++)
		if (c->sm.options[i] >= u)
			return failk(c, err, len, BLAME(KEY_SM_OPTIONS, KEY_SM_UNIFIED),
				"sm.shmem_options: %s leaves no L1 in sm.unified_size %s",
				SZ(a, c->sm.options[i]), SZ(b, u));
	if (c->sm.carveout == GC_CARVEOUT_FIXED) {
		int found = 0;
		for (int i = 0; i < c->sm.noptions; i++)
			found |= c->sm.options[i] == c->sm.shmem;
		if (!found)
			return failk(c, err, len, BLAME(KEY_SM_SHMEM, KEY_SM_OPTIONS),
				"sm.shmem %s is not one of sm.shmem_options",
				SZ(a, c->sm.shmem));
		if (l1->size + c->sm.shmem != u)
			return failk(c, err, len, BLAME(KEY_L1_SIZE, KEY_SM_SHMEM, KEY_SM_UNIFIED, KEY_L1_CACHE,
				    KEY_L1_SETS, KEY_L1_WAYS),
				"l1.size %s + sm.shmem %s is not sm.unified_size %s",
				SZ(a, l1->size), SZ(b, c->sm.shmem), SZ(d, u));
		return 0;
	}
	if (c->sm.options[c->sm.noptions - 1] != c->sm.shmem)
		return failk(c, err, len, BLAME(KEY_SM_SHMEM, KEY_SM_OPTIONS),
			"sm.shmem %s is not the largest of sm.shmem_options (%s)",
			SZ(a, c->sm.shmem), SZ(b, c->sm.options[c->sm.noptions - 1]));
	uint64_t unit;
	if (l1->scale == GC_SCALE_WAYS) {
		/* GPGPU-Sim asserts that the unified size is a multiple of the
		 * base L1; every option must leave a whole number of ways. */
		if (u % l1->size)
			return failk(c, err, len, BLAME(KEY_SM_UNIFIED, KEY_L1_SIZE, KEY_L1_CACHE, KEY_L1_SETS,
				    KEY_L1_WAYS),
				"sm.unified_size %s is not a multiple of l1.size %s",
				SZ(a, u), SZ(b, l1->size));
		unit = (uint64_t)l1->sets * l1->line;
	} else {
		if (l1->index != GC_INDEX_LINEAR)
			return failk(c, err, len, BLAME(KEY_L1_SCALE, KEY_L1_INDEX, KEY_L1_CACHE),
				"l1.carveout_scales sets needs l1.index linear (the set count "
				"changes with the carve-out)");
		unit = (uint64_t)l1->ways * l1->line;
	}
	for (int i = 0; i < c->sm.noptions; i++)
		if ((u - c->sm.options[i]) % unit)
			return failk(c, err, len, BLAME(KEY_SM_OPTIONS, KEY_SM_UNIFIED, KEY_L1_SCALE),
				"sm.shmem_options: %s leaves %s of L1, not a multiple of %s "
				"(l1.%s * l1.line)", SZ(a, c->sm.options[i]),
				SZ(b, u - c->sm.options[i]), SZ(d, unit),
				l1->scale == GC_SCALE_WAYS ? "sets" : "ways");
	return 0;
}

static int check_l2_dram(gc_gpu_config *c, char *err, size_t len)
{
	gc_gpu_cache *l2 = &c->l2;
	char a[32], b[32], d[32];
	struct mapping m;
	char why[96];
	if (!c->given[KEY_L2_SIZE]) {
		l2->total = (uint64_t)l2->channels * l2->sub_partitions * l2->size;
		if (l2->total > keys[KEY_L2_SIZE].max)
			return failk(c, err, len, BLAME(KEY_L2_CHANNELS, KEY_L2_SUB, KEY_L2_SLICE, KEY_L2_CACHE),
				"l2.size %s is more than %s", SZ(a, l2->total),
				SZ(b, keys[KEY_L2_SIZE].max));
	}
	if (l2->total != (uint64_t)l2->channels * l2->sub_partitions * l2->size)
		return failk(c, err, len, BLAME(KEY_L2_SIZE, KEY_L2_CHANNELS, KEY_L2_SUB,
						KEY_L2_SLICE, KEY_L2_CACHE, KEY_L2_SETS, KEY_L2_WAYS),
			"l2.size %s is not l2.channels * l2.sub_partitions * l2.slice_size = "
			"%u * %u * %s = %s", SZ(a, l2->total), l2->channels, l2->sub_partitions,
			SZ(b, l2->size), SZ(d, (uint64_t)l2->channels * l2->sub_partitions * l2->size));
	if (l2->pindex == GC_PINDEX_IPOLY) {
		unsigned p = 1;
		while (p < l2->channels)
			p <<= 1;
		unsigned total = p * l2->sub_partitions;
		if (total != 16 && total != 32 && total != 64)
			return failk(c, err, len, BLAME(KEY_L2_PINDEX, KEY_L2_CHANNELS, KEY_L2_SUB),
				"l2.partition_index ipoly needs 16, 32 or 64 sub-partitions after "
				"rounding l2.channels up to a power of two (%u * %u = %u)", p,
				l2->sub_partitions, total);
	}
	if (l2->pindex == GC_PINDEX_BITWISE_PERMUTATION && !gc_is_pow2(l2->channels))
		return failk(c, err, len, BLAME(KEY_L2_PINDEX, KEY_L2_CHANNELS),
			"l2.partition_index bitwise-permutation needs a power-of-two "
			"l2.channels, not %u", l2->channels);
	if (mapping_parse(l2->mapping, &m, why, sizeof why) < 0)
		return failk(c, err, len, BLAME(KEY_L2_MAPPING), "l2.mapping: %s", why);
	if (m.dramid < 0 && m.nD < 32 && (1u << m.nD) < l2->channels)
		return failk(c, err, len, BLAME(KEY_L2_MAPPING, KEY_L2_CHANNELS),
			"l2.mapping has %d D bits, too few for %u channels", m.nD, l2->channels);
	if ((unsigned)m.nB < gc_log2(l2->sub_partitions))
		return failk(c, err, len, BLAME(KEY_L2_MAPPING, KEY_L2_SUB),
			"l2.mapping has %d B bits, too few to pick one of %u sub-partitions",
			m.nB, l2->sub_partitions);
	if (m.nB > 20 || c->dram.banks != (1u << m.nB))
		return failk(c, err, len, BLAME(KEY_DRAM_BANKS, KEY_L2_MAPPING),
			"dram.banks %u is not 2^%d (the B bits of l2.mapping)", c->dram.banks, m.nB);
	if (m.nC > 40 || c->dram.row != (1ull << (m.nC)))
		return failk(c, err, len, BLAME(KEY_DRAM_ROW, KEY_L2_MAPPING),
			"dram.row_size %s is not 2^%d (the C and S bits of l2.mapping)",
			SZ(a, c->dram.row), m.nC);
	if (c->dram.banks % c->dram.bank_groups)
		return failk(c, err, len, BLAME(KEY_DRAM_BANK_GROUPS, KEY_DRAM_BANKS),
			"dram.bank_groups %u does not divide dram.banks %u", c->dram.bank_groups,
			c->dram.banks);
	if (c->dram.channels % l2->channels)
		return failk(c, err, len, BLAME(KEY_DRAM_CHANNELS, KEY_L2_CHANNELS),
			"dram.channels %u is not a multiple of l2.channels %u", c->dram.channels,
			l2->channels);
	return 0;
}

int gc_gpu_finish(gc_gpu_config *c, char *err, size_t len)
{
	c->err_line = 0;
	if (derive_cache(c, &L1, err, len) < 0 || derive_cache(c, &L2, err, len) < 0 ||
	    check_sm(c, err, len) < 0 || check_cache(c, &L1, err, len) < 0 ||
	    check_cache(c, &L2, err, len) < 0 || check_l2_dram(c, err, len) < 0)
		return -1;
	return 0;
}

/* ---- files ------------------------------------------------------------ */

/* The syntax of a GPU file, without exiting (gc_gpu_load in prog.c uses
 * it too): "key = value" lines, '#' comments, no key twice. */
int gc_gpu_read_lists(struct gc_gpu *g, const char *path, char *err, size_t len)
{
	memset(g, 0, sizeof *g);
	snprintf(g->name, sizeof g->name, "%s", path);
	snprintf(g->path, sizeof g->path, "%s", path);
	FILE *f = fopen(path, "r");
	if (!f)
		return msgf(err, len, "%s: %s", path, strerror(errno));
	char line[1024];
	int ln = 0, rc = 0;
	while (rc == 0 && fgets(line, sizeof line, f)) {
		ln++;
		size_t l = strlen(line);
		if (l == sizeof line - 1 && line[l - 1] != '\n') {
			rc = msgf(err, len, "%s:%d: line too long", path, ln);
			break;
		}
		char *h = strchr(line, '#');
		if (h)
			*h = 0;
		char *s = line;
		while (*s == ' ' || *s == '\t')
			s++;
		char *e = s + strlen(s);
		while (e > s && strchr(" \t\r\n", e[-1]))
			*--e = 0;
		if (!*s)
			continue;
		char *eq = strchr(s, '=');
		if (!eq) {
			rc = msgf(err, len, "%s:%d: expected 'key = value'", path, ln);
			break;
		}
		char *k = s, *ke = eq, *v = eq + 1;
		while (ke > k && (ke[-1] == ' ' || ke[-1] == '\t'))
			ke--;
		*ke = 0;
		while (*v == ' ' || *v == '\t')
			v++;
		if (!*k || !*v) {
			rc = msgf(err, len, "%s:%d: expected 'key = value'", path, ln);
			break;
		}
		for (int i = 0; i < g->n && rc == 0; i++)
			if (strcmp(g->key[i], k) == 0)
				rc = msgf(err, len, "%s:%d: '%s' already set on line %d", path, ln, k,
					  g->line[i]);
		if (rc)
			break;
		if (g->n == 256) {
			rc = msgf(err, len, "%s:%d: too many keys", path, ln);
			break;
		}
		g->key[g->n] = strdup(k);
		g->val[g->n] = strdup(v);
		g->line[g->n] = ln;
		if (!g->key[g->n] || !g->val[g->n]) {
			free(g->key[g->n]);
			free(g->val[g->n]);
			rc = msgf(err, len, "out of memory");
			break;
		}
		g->n++;
	}
	if (rc == 0 && ferror(f))
		rc = msgf(err, len, "%s: read error", path);
	fclose(f);
	if (rc)
		gc_gpu_free(g);
	return rc;
}

int gc_gpu_parse_lists(gc_gpu_config *c, const struct gc_gpu *g, char *err, size_t len)
{
	char msg[512];
	gc_gpu_defaults(c);
	gc_gpu_begin(c);
	for (int i = 0; i < g->n; i++)
		if (gc_gpu_set(c, g->key[i], g->val[i], g->line[i], msg, sizeof msg) < 0)
			return msgf(err, len, "%s:%d: %s", g->path, g->line[i], msg);
	/* A file without a name is named after itself, not after the defaults. */
	if (!c->given[KEY_NAME]) {
		const char *base = strrchr(g->path, '/');
		base = base ? base + 1 : g->path;
		size_t n = strcspn(base, ".");
		snprintf(c->name, sizeof c->name, "custom");
		if (n && n < sizeof c->name &&
		    strspn(base, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") >= n)
			snprintf(c->name, sizeof c->name, "%.*s", (int)n, base);
	}
	if (!c->given[KEY_DESCRIPTION])
		snprintf(c->description, sizeof c->description, "%s over the %s defaults", c->name,
			 "fermi-gtx470-16k");
	if (gc_gpu_finish(c, msg, sizeof msg) < 0) {
		if (c->err_line > 0)
			return msgf(err, len, "%s:%d: %s", g->path, c->err_line, msg);
		return msgf(err, len, "%s: %s", g->path, msg);
	}
	return 0;
}

int gc_gpu_parse_file(gc_gpu_config *c, const char *path, char *err, size_t len)
{
	gc_gpu g;
	if (gc_gpu_read_lists(&g, path, err, len) < 0)
		return -1;
	int rc = gc_gpu_parse_lists(c, &g, err, len);
	gc_gpu_free(&g);
	return rc;
}

/* ---- the stream header ------------------------------------------------ */

int gc_gpu_header_write(const gc_gpu_config *c, gc_header *h, char *err, size_t len)
{
	char hk[128], val[512];
	int need = 0, all = 0;
	for (int k = 0; k < NKEYS; k++) {
		if (keys[k].flags & F_PSEUDO)
			continue;
		all++;
		snprintf(hk, sizeof hk, GC_GPU_HEADER_PREFIX "%s", keys[k].name);
		if (!gc_header_get(h, hk))
			need++;
	}
	if (h->nkv + need > GC_KV_MAX)
		return msgf(err, len, "stream header full: the GPU configuration needs %d keys, "
			    "%d of the header's %d are in use (GC_KV_MAX)", all, h->nkv, GC_KV_MAX);
	for (int k = 0; k < NKEYS; k++) {
		if (keys[k].flags & F_PSEUDO)
			continue;
		snprintf(hk, sizeof hk, GC_GPU_HEADER_PREFIX "%s", keys[k].name);
		gc_gpu_format(c, k, val, sizeof val);
		if (gc_header_set(h, hk, val) < 0)
			return msgf(err, len, "cannot set header key '%s'", hk);
	}
	return 0;
}

int gc_gpu_header_read(gc_gpu_config *c, const gc_header *h, char *err, size_t len)
{
	char msg[512];
	size_t pl = strlen(GC_GPU_HEADER_PREFIX);
	int n = 0;
	gc_gpu_defaults(c);
	gc_gpu_begin(c);
	for (int i = 0; i < h->nkv; i++) {
		if (strncmp(h->key[i], GC_GPU_HEADER_PREFIX, pl) != 0)
			continue;
		n++;
		if (gc_gpu_set(c, h->key[i] + pl, h->val[i], 0, msg, sizeof msg) < 0)
			return msgf(err, len, "stream header key '%s': %s", h->key[i], msg);
	}
	if (n && gc_gpu_finish(c, msg, sizeof msg) < 0)
		return msgf(err, len, "GPU configuration in the stream header: %s", msg);
	return n;
}

/* ---- occupancy -------------------------------------------------------- */

const char *gc_gpu_limit_name(int limit)
{
	switch (limit) {
	case GC_LIMIT_THREADS: return "threads";
	case GC_LIMIT_WARPS: return "warps";
	case GC_LIMIT_BLOCKS: return "blocks";
	case GC_LIMIT_REGISTERS: return "registers";
	case GC_LIMIT_SHMEM: return "shared memory";
	}
	return "none";
}

static uint64_t round_up(uint64_t v, uint64_t unit)
{
	return unit > 1 ? (v + unit - 1) / unit * unit : v;
}

static unsigned clamp_blocks(uint64_t v)
{
	return v >= GC_GPU_UNLIMITED ? GC_GPU_UNLIMITED - 1 : (unsigned)v;
}

unsigned gc_gpu_occupancy_at(const gc_gpu_config *c, unsigned threads, unsigned regs,
			     uint64_t shmem, uint64_t shmem_per_sm, gc_occupancy *o)
{
	gc_occupancy tmp;
	if (!o)
		o = &tmp;
	memset(o, 0, sizeof *o);
	o->limiter = -1;
	if (threads == 0) {
		o->why = "a block of 0 threads";
		return 0;
	}
	unsigned wpb = (threads + c->sm.warp_size - 1) / c->sm.warp_size;
	o->warps_per_block = wpb;
	if (threads > c->sm.max_threads_per_block)
		o->why = "more threads per block than sm.max_threads_per_block";
	/* Formula 4, and its warp-slot form. */
	o->limit[GC_LIMIT_THREADS] = c->sm.max_threads / threads;
	o->limit[GC_LIMIT_WARPS] = c->sm.max_warps / wpb;
	o->limit[GC_LIMIT_BLOCKS] = c->sm.max_blocks;
	/* Formula 5: registers are allocated per warp, rounded up to the
	 * allocation unit, from one of the register-file partitions. */
	if (regs == 0) {
		o->limit[GC_LIMIT_REGISTERS] = GC_GPU_UNLIMITED;
	} else {
		uint64_t rpw = round_up((uint64_t)regs * c->sm.warp_size, c->sm.reg_alloc_unit);
		o->regs_per_warp = (unsigned)rpw;
		if (regs > c->sm.max_regs_per_thread)
			o->why = "more registers per thread than sm.max_regs_per_thread";
		else if (rpw * wpb > c->sm.max_regs_per_block)
			o->why = "more registers per block than sm.max_regs_per_block";
		uint64_t warps = (c->sm.registers / c->sm.reg_partitions) / rpw * c->sm.reg_partitions;
		o->limit[GC_LIMIT_REGISTERS] = clamp_blocks(warps / wpb);
	}
	/* Formula 6, with shared memory allocated in units. */
	uint64_t sa = round_up(shmem, c->sm.shmem_alloc_unit);
	o->shmem_per_block = sa;
	if (sa == 0) {
		o->limit[GC_LIMIT_SHMEM] = GC_GPU_UNLIMITED;
	} else {
		if (sa > c->sm.max_shmem_per_block)
			o->why = "more shared memory per block than sm.max_shmem_per_block";
		o->limit[GC_LIMIT_SHMEM] = clamp_blocks(shmem_per_sm / sa);
	}
	/* Formula 3: the smallest limit. */
	unsigned active = GC_GPU_UNLIMITED;
	for (int i = 0; i < GC_NLIMITS; i++)
		if (o->limit[i] < active) {
			active = o->limit[i];
			o->limiter = i;
		}
	o->active = o->why ? 0 : active;
	return o->active;
}

unsigned gc_gpu_occupancy(const gc_gpu_config *c, unsigned threads, unsigned regs,
			  uint64_t shmem, gc_occupancy *o)
{
	return gc_gpu_occupancy_at(c, threads, regs, shmem, c->sm.shmem, o);
}

/* ---- the carve-out ----------------------------------------------------- */

int gc_gpu_carveout(const gc_gpu_config *c, unsigned threads, unsigned regs, uint64_t shmem,
		    gc_carveout *out)
{
	gc_occupancy o;
	memset(out, 0, sizeof *out);
	unsigned n = gc_gpu_occupancy(c, threads, regs, shmem, &o);
	if (n == 0)
		return -1;
	out->active = n;
	out->shmem_used = (uint64_t)n * o.shmem_per_block;
	if (c->sm.carveout != GC_CARVEOUT_ADAPTIVE) {
		out->shmem = c->sm.shmem;
		out->l1_size = c->l1.size;
		out->l1_sets = c->l1.sets;
		out->l1_ways = c->l1.ways;
		return 0;
	}
	/* Formula 7: the smallest option x with MaxActBlk(x) equal to the
	 * active blocks at the largest option.  That is the smallest option
	 * holding the shared memory of all active blocks (reference §3.4). */
	uint64_t x = c->sm.options[c->sm.noptions - 1];
	for (int i = 0; i < c->sm.noptions; i++)
		if (gc_gpu_occupancy_at(c, threads, regs, shmem, c->sm.options[i], NULL) == n) {
			x = c->sm.options[i];
			break;
		}
	out->shmem = x;
	out->l1_size = c->sm.unified - x;
	if (c->l1.scale == GC_SCALE_WAYS) {
		out->l1_sets = c->l1.sets;
		out->l1_ways = (unsigned)(out->l1_size / ((uint64_t)c->l1.sets * c->l1.line));
	} else {
		out->l1_ways = c->l1.ways;
		out->l1_sets = (unsigned)(out->l1_size / ((uint64_t)c->l1.ways * c->l1.line));
	}
	return 0;
}

/* ---- the lists of a file ---------------------------------------------- */

const char *gc_gpu_get(const gc_gpu *g, const char *key)
{
	for (int i = 0; i < g->n; i++)
		if (strcmp(g->key[i], key) == 0)
			return g->val[i];
	return NULL;
}

void gc_gpu_free(gc_gpu *g)
{
	for (int i = 0; i < g->n; i++) {
		free(g->key[i]);
		free(g->val[i]);
	}
	g->n = 0;
}
