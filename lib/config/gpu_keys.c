/*
 * gpu_keys.c - the key table of the typed GPU configuration (gc-config(5)):
 * every key's name, type, range, field and meaning, the enum tables, the
 * keys of each cache level, and what the table tells of a key (its type,
 * what a value must be).  gc-config(5) is written from this table by
 * "gpu-test man".
 */
#include "config/gpu.h"
#include "config/gpu_impl.h"

#include <stdio.h>
#include <string.h>

const struct genum gpu_e_index[] = {
	{"linear", "L", GC_INDEX_LINEAR}, {"xor", "X", GC_INDEX_XOR},
	{"fermi", "H", GC_INDEX_FERMI}, {"ipoly", "P", GC_INDEX_IPOLY},
	{"fibonacci", NULL, GC_INDEX_FIBONACCI}, {NULL, NULL, 0}};
const struct genum gpu_e_repl[] = {
	{"lru", "L", GC_REPL_LRU}, {"fifo", "F", GC_REPL_FIFO},
	{"random", NULL, GC_REPL_RANDOM}, {NULL, NULL, 0}};
const struct genum gpu_e_write[] = {
	{"write-back", "B", GC_WRITE_BACK}, {"write-through", "T", GC_WRITE_THROUGH},
	{"write-evict", "E", GC_WRITE_EVICT}, {"local-write-back", "L", GC_WRITE_LOCAL_BACK},
	{"read-only", "R", GC_WRITE_READ_ONLY}, {NULL, NULL, 0}};
const struct genum gpu_e_alloc[] = {
	{"on-miss", "m", GC_ALLOC_ON_MISS}, {"on-fill", "f", GC_ALLOC_ON_FILL},
	{"streaming", "s", GC_ALLOC_STREAMING}, {NULL, NULL, 0}};
const struct genum gpu_e_walloc[] = {
	{"no-write-allocate", "N", GC_WALLOC_NONE}, {"write-allocate", "W", GC_WALLOC_WRITE},
	{"fetch-on-write", "F", GC_WALLOC_FETCH_ON_WRITE},
	{"lazy-fetch-on-read", "L", GC_WALLOC_LAZY_FETCH_ON_READ}, {NULL, NULL, 0}};
const struct genum gpu_e_mshr[] = {
	{"assoc", "A", GC_MSHR_ASSOC}, {"sector-assoc", "S", GC_MSHR_SECTOR_ASSOC},
	{NULL, NULL, 0}};
const struct genum gpu_e_carveout[] = {
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
 * coalesce_number() in gpu.c. */
const struct genum gpu_e_coalesce[] = {
	{"fermi", NULL, GC_COALESCE_FERMI}, {"kepler", NULL, GC_COALESCE_KEPLER},
	{"maxwell", NULL, GC_COALESCE_MAXWELL}, {"pascal", NULL, GC_COALESCE_PASCAL},
	{"volta", NULL, GC_COALESCE_VOLTA}, {"turing", NULL, GC_COALESCE_TURING},
	{"ampere", NULL, GC_COALESCE_AMPERE}, {"hopper", NULL, GC_COALESCE_HOPPER},
	{NULL, NULL, 0}};
static const struct genum e_pf_l1[] = {
	{"none", NULL, GC_PF_NONE}, {"stride", NULL, GC_PF_STRIDE}, {"mta", NULL, GC_PF_MTA},
	{NULL, NULL, 0}};
static const struct genum e_pf_l2[] = {
	{"none", NULL, GC_PF_NONE}, {"stream", NULL, GC_PF_STREAM},
	{"nextline", NULL, GC_PF_NEXTLINE}, {NULL, NULL, 0}};
static const struct genum e_bool[] = {{"no", NULL, 0}, {"yes", NULL, 1}, {NULL, NULL, 0}};

const char *const gc_gpu_op_name[GC_NOPS] = {
	[GC_OP_INT] = "int",       [GC_OP_SP] = "sp",         [GC_OP_DP] = "dp",
	[GC_OP_SFU] = "sfu",       [GC_OP_TENSOR] = "tensor", [GC_OP_BRANCH] = "branch"};

#define OFF(f) offsetof(gc_gpu_config, f)

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

const struct key gpu_keys[NKEYS] = {
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
	KE(KEY_SM_CARVEOUT, "sm.carveout", sm.carveout, gpu_e_carveout,
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
	KE(KEY_L1_INDEX, "l1.index", l1.index, gpu_e_index, "L1 set-index function."),
	KE(KEY_L1_REPL, "l1.replacement", l1.repl, gpu_e_repl, "L1 replacement policy."),
	KE(KEY_L1_WRITE, "l1.write", l1.write, gpu_e_write, "L1 write policy."),
	KE(KEY_L1_ALLOC, "l1.alloc", l1.alloc, gpu_e_alloc, "When L1 allocates a line."),
	KE(KEY_L1_WALLOC, "l1.write_alloc", l1.walloc, gpu_e_walloc, "What an L1 write miss does."),
	KE(KEY_L1_MSHR, "l1.mshr_kind", l1.mshr, gpu_e_mshr, "L1 MSHR organisation."),
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
	KE(KEY_L1_PREFETCH, "l1.prefetch", l1.prefetch, e_pf_l1,
	   "L1 prefetcher: none, stride (per PC), mta (many-thread aware, Lee et al. 2010)."),
	KU(KEY_L1_PF_DEGREE, "l1.prefetch_degree", l1.pf_degree, 1, 64, 0,
	   "Lines an L1 prefetcher entry prefetches at once."),
	KU(KEY_L1_PF_DISTANCE, "l1.prefetch_distance", l1.pf_distance, 1, 1024, 0,
	   "Strides ahead of the access the L1 prefetcher's first line is."),
	KU(KEY_L1_PF_TABLE, "l1.prefetch_table", l1.pf_table, 1, 65536, 0,
	   "Entries of each table of the L1 prefetcher, per SM."),

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
	KE(KEY_L2_INDEX, "l2.index", l2.index, gpu_e_index,
	   "L2 set-index function (applied to the partition address)."),
	KE(KEY_L2_REPL, "l2.replacement", l2.repl, gpu_e_repl, "L2 replacement policy."),
	KE(KEY_L2_WRITE, "l2.write", l2.write, gpu_e_write, "L2 write policy."),
	KE(KEY_L2_ALLOC, "l2.alloc", l2.alloc, gpu_e_alloc, "When L2 allocates a line."),
	KE(KEY_L2_WALLOC, "l2.write_alloc", l2.walloc, gpu_e_walloc, "What an L2 write miss does."),
	KE(KEY_L2_MSHR, "l2.mshr_kind", l2.mshr, gpu_e_mshr, "L2 MSHR organisation."),
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
	KE(KEY_L2_PREFETCH, "l2.prefetch", l2.prefetch, e_pf_l2,
	   "L2 prefetcher: none, stream (on a detected stream of misses), nextline."),
	KU(KEY_L2_PF_WINDOW, "l2.prefetch_window", l2.pf_window, 1, 4096, 0,
	   "Lines ahead of a stream's last miss the L2 stream prefetcher may reach."),
	KU(KEY_L2_PF_DEGREE, "l2.prefetch_degree", l2.pf_degree, 1, 64, 0,
	   "Lines the L2 prefetcher issues per trigger."),
	KU(KEY_L2_PF_TABLE, "l2.prefetch_table", l2.pf_table, 1, 65536, 0,
	   "Streams the L2 stream prefetcher tracks per slice."),

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
	KR(KEY_DRAM_CLOCK, "dram.clock", dram.clock, 1, 1e6,
	   "DRAM command clock in MHz (the fourth of -gpgpu_clock_domains); the dram.t* keys "
	   "count its cycles."),
	KU(KEY_DRAM_BURST, "dram.burst_length", dram.burst, 1, 256, 0,
	   "Data transfers of one burst (-gpgpu_dram_burst_length): one transaction's data."),
	KU(KEY_DRAM_RATE, "dram.data_rate", dram.data_rate, 1, 16, 0,
	   "Data transfers per command cycle (-dram_data_command_freq_ratio: 2 DDR, 4 QDR); "
	   "a burst holds the data bus dram.burst_length / dram.data_rate cycles."),
	KU(KEY_DRAM_QUEUE, "dram.queue", dram.queue, 1, 4096, 0,
	   "Requests the FR-FCFS scheduler of one channel holds (-gpgpu_frfcfs_dram_sched_queue_size)."),
	KU(KEY_DRAM_TCCD, "dram.tccd", dram.tccd, 0, 1000, 0,
	   "Column command to column command, another bank group (CCD), in DRAM cycles."),
	KU(KEY_DRAM_TCCDL, "dram.tccdl", dram.tccdl, 0, 1000, 0,
	   "Column command to column command in the same bank group (CCDL)."),
	KU(KEY_DRAM_TRRD, "dram.trrd", dram.trrd, 0, 1000, 0,
	   "Activate to activate, another bank of the channel (RRD)."),
	KU(KEY_DRAM_TRCD, "dram.trcd", dram.trcd, 0, 1000, 0,
	   "Activate to a column command of the bank (RCD)."),
	KU(KEY_DRAM_TRAS, "dram.tras", dram.tras, 0, 1000, 0,
	   "Activate to precharge of the bank (RAS)."),
	KU(KEY_DRAM_TRP, "dram.trp", dram.trp, 0, 1000, 0, "Precharge to activate of the bank (RP)."),
	KU(KEY_DRAM_TRC, "dram.trc", dram.trc, 0, 1000, 0,
	   "Activate to activate of the same bank (RC)."),
	KU(KEY_DRAM_TCL, "dram.tcl", dram.tcl, 0, 1000, 0,
	   "Read command to its first data (CL, CAS latency)."),
	KU(KEY_DRAM_TWL, "dram.twl", dram.twl, 0, 1000, 0, "Write command to its first data (WL)."),
	KU(KEY_DRAM_TCDLR, "dram.tcdlr", dram.tcdlr, 0, 1000, 0,
	   "End of write data to a read command (CDLR, the write-to-read turnaround)."),
	KU(KEY_DRAM_TWR, "dram.twr", dram.twr, 0, 1000, 0,
	   "End of write data to precharge of the bank (WR, write recovery)."),
	KU(KEY_DRAM_TRTPL, "dram.trtpl", dram.trtpl, 0, 1000, 0,
	   "Read command to precharge of the bank (RTPL)."),

	KU(KEY_MISS_LAMBDA, "miss.lambda_min", miss.lambda_min, 0, 1000000, 0,
	   "Seed 000's best-case miss latency, in cycles."),
	KR(KEY_MISS_SIGMA, "miss.sigma", miss.sigma, 0, 1e6,
	   "Seed 000's miss-latency spread: a miss takes miss.lambda_min + |N(0, sigma^2)|."),

	KE(KEY_COALESCE, "coalesce.arch", coalesce, gpu_e_coalesce,
	   "Coalescing rules (fermi, kepler: segments by access size; later: 32-byte sectors)."),

	KU(KEY_OP_INT_LAT, "op.int.latency", op.latency[GC_OP_INT], 1, 100000, 0,
	   "Integer ALU latency: SM cycles from issue until a dependent instruction may issue "
	   "(Accel-Sim -trace_opcode_latency_initiation_int, first number)."),
	KU(KEY_OP_INT_INIT, "op.int.initiation", op.initiation[GC_OP_INT], 1, 100000, 0,
	   "Integer ALU initiation interval: SM cycles before the unit takes the next warp "
	   "instruction (second number)."),
	KU(KEY_OP_SP_LAT, "op.sp.latency", op.latency[GC_OP_SP], 1, 100000, 0,
	   "Single-precision (FP32, FFMA) latency in SM cycles (-trace_opcode_latency_initiation_sp)."),
	KU(KEY_OP_SP_INIT, "op.sp.initiation", op.initiation[GC_OP_SP], 1, 100000, 0,
	   "Single-precision initiation interval in SM cycles."),
	KU(KEY_OP_DP_LAT, "op.dp.latency", op.latency[GC_OP_DP], 1, 100000, 0,
	   "Double-precision latency in SM cycles (-trace_opcode_latency_initiation_dp)."),
	KU(KEY_OP_DP_INIT, "op.dp.initiation", op.initiation[GC_OP_DP], 1, 100000, 0,
	   "Double-precision initiation interval in SM cycles."),
	KU(KEY_OP_SFU_LAT, "op.sfu.latency", op.latency[GC_OP_SFU], 1, 100000, 0,
	   "Special-function (MUFU, conversions) latency in SM cycles "
	   "(-trace_opcode_latency_initiation_sfu)."),
	KU(KEY_OP_SFU_INIT, "op.sfu.initiation", op.initiation[GC_OP_SFU], 1, 100000, 0,
	   "Special-function initiation interval in SM cycles."),
	KU(KEY_OP_TENSOR_LAT, "op.tensor.latency", op.latency[GC_OP_TENSOR], 1, 100000, 0,
	   "Tensor-core (HMMA, IMMA) latency in SM cycles (-trace_opcode_latency_initiation_tensor)."),
	KU(KEY_OP_TENSOR_INIT, "op.tensor.initiation", op.initiation[GC_OP_TENSOR], 1, 100000, 0,
	   "Tensor-core initiation interval in SM cycles."),
	KU(KEY_OP_BRANCH_LAT, "op.branch.latency", op.latency[GC_OP_BRANCH], 1, 100000, 0,
	   "Branch-unit (BRA, EXIT, BAR, ...) latency in SM cycles "
	   "(the BRA unit's -trace_opcode_latency_initiation_spec_op_N)."),
	KU(KEY_OP_BRANCH_INIT, "op.branch.initiation", op.initiation[GC_OP_BRANCH], 1, 100000, 0,
	   "Branch-unit initiation interval in SM cycles."),
	KU(KEY_SM_ISSUE_WIDTH, "sm.issue_width", op.issue_width, 1, 64, 0,
	   "Warp instructions an SM issues per cycle: its warp schedulers "
	   "(-gpgpu_num_sched_per_core)."),
	KR(KEY_NOC_BANDWIDTH, "noc.bandwidth", perf.noc_bandwidth, 0.001, 1e7,
	   "Bandwidth of the network from the SMs to the L2 slices, all of it, in GB/s "
	   "(10^9 bytes per second): B^NoC of seed 004."),
	KU(KEY_MEM_LLC_LATENCY, "mem.llc_latency", perf.llc_latency, 0, 1000000, 0,
	   "Round trip of an L2 hit without contention, in SM cycles: L^MinLLC of seed 004."),
	KU(KEY_MEM_DRAM_LATENCY, "mem.dram_latency", perf.dram_latency, 0, 1000000, 0,
	   "What an L2 miss adds to mem.llc_latency without contention, in SM cycles: "
	   "L^MinDRAM of seed 004."),
	KU(KEY_KERNEL_LAUNCH_LATENCY, "kernel.launch_latency", perf.launch_latency, 0, 100000000, 0,
	   "SM cycles from one kernel's launch until its first block runs "
	   "(-gpgpu_kernel_launch_latency)."),
};

/* The keys of one cache level, in the order the cache string sets them. */
const struct level gpu_level_l1 = {
	"l1", OFF(l1), KEY_L1_CACHE, KEY_L1_SIZE, KEY_L1_LINE, KEY_L1_SECTOR, KEY_L1_SETS,
	KEY_L1_WAYS, KEY_L1_INDEX, KEY_L1_REPL, KEY_L1_WRITE, KEY_L1_ALLOC, KEY_L1_WALLOC,
	KEY_L1_MSHR, KEY_L1_MSHR_ENTRIES, KEY_L1_MSHR_MERGE, KEY_L1_MISS_QUEUE, KEY_L1_PORT};
const struct level gpu_level_l2 = {
	"l2", OFF(l2), KEY_L2_CACHE, KEY_L2_SLICE, KEY_L2_LINE, KEY_L2_SECTOR, KEY_L2_SETS,
	KEY_L2_WAYS, KEY_L2_INDEX, KEY_L2_REPL, KEY_L2_WRITE, KEY_L2_ALLOC, KEY_L2_WALLOC,
	KEY_L2_MSHR, KEY_L2_MSHR_ENTRIES, KEY_L2_MSHR_MERGE, KEY_L2_MISS_QUEUE, KEY_L2_PORT};

int gc_gpu_nkeys(void)
{
	return NKEYS;
}

int gc_gpu_key_find(const char *name)
{
	for (int i = 0; i < NKEYS; i++)
		if (strcmp(gpu_keys[i].name, name) == 0)
			return i;
	return -1;
}

const char *gc_gpu_key_name(int i)
{
	return i >= 0 && i < NKEYS ? gpu_keys[i].name : NULL;
}

const char *gc_gpu_key_meaning(int i)
{
	return i >= 0 && i < NKEYS ? gpu_keys[i].meaning : NULL;
}

int gc_gpu_key_pseudo(int i)
{
	return i >= 0 && i < NKEYS && (gpu_keys[i].flags & F_PSEUDO);
}

const char *gc_gpu_key_type(int i)
{
	if (i < 0 || i >= NKEYS)
		return NULL;
	switch (gpu_keys[i].type) {
	case K_NAME: return "name";
	case K_TEXT: return "text";
	case K_CC: return "compute capability";
	case K_UINT: return "integer";
	case K_SIZE: return "size";
	case K_REAL: return "number";
	case K_ENUM: return gpu_keys[i].e == e_bool ? "yes/no" : "enum";
	case K_LIST: return "size list";
	case K_MAP: return "address mapping";
	case K_CACHE: return "cache string";
	}
	return "?";
}


void gc_gpu_key_expected(int i, char *buf, size_t len)
{
	const struct key *k = &gpu_keys[i];
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
		gpu_fmt_size(lo, sizeof lo, k->min);
		gpu_fmt_size(hi, sizeof hi, k->max);
		snprintf(buf, len, "%s in bytes from %s to %s; K, M, G multiply by 1024",
			 (k->flags & F_POW2) ? "a power-of-two size" : "a size", lo, hi);
		return;
	case K_REAL:
		gpu_fmt_real(lo, sizeof lo, k->dmin);
		gpu_fmt_real(hi, sizeof hi, k->dmax);
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
		if (k->e == gpu_e_coalesce && n < len) {
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

