/*
 * intervals.h - the compute intervals of gc-import --intervals
 * (intervals.c): SASS opcodes to the classes of the GPU's functional
 * units, and one warp's dependency-bound issue cycles, which give the
 * compute field of gc-stream(5) (stream/format.h, GC_CF_*).
 *
 * The classes are config/gpu.h's enum gc_gpu_op in the same order; this
 * layer may not include config/, so gc-import's main copies the preset's
 * latencies into a gc_iv_lat (and checks the order at compile time).
 */
#ifndef GC_INTERVALS_H
#define GC_INTERVALS_H

#include <stddef.h>
#include <stdint.h>

enum gc_iv_class {
	GC_IV_INT,    /* integer ALU, conversions, moves, predicates, ... */
	GC_IV_SP,     /* FP32 and FP16 */
	GC_IV_DP,     /* FP64 */
	GC_IV_SFU,    /* MUFU */
	GC_IV_TENSOR, /* HMMA, IMMA, BMMA, DMMA, HGMMA, ... */
	GC_IV_BRANCH, /* control flow and barriers */
	GC_IV_NCLASSES,
	GC_IV_UNKNOWN = GC_IV_NCLASSES, /* not in the table: timed as int */
	GC_IV_MEMORY,                   /* a memory instruction (the importer's call) */
};

/* The class names of header keys and messages: "int", "sp", ... */
extern const char *const gc_iv_class_name[GC_IV_NCLASSES];

/* The class of a SASS opcode by its mnemonic, the part before the first
 * '.' (GC_IV_UNKNOWN when the table lacks it).  Memory instructions are
 * not in the table: whether an instruction is one is gc_sass_memop's
 * decision, made before this. */
int gc_iv_class(const char *opcode);

/* Cycles per class: until a result is ready, and before the unit takes
 * the next instruction of the warp. */
typedef struct gc_iv_lat {
	uint32_t latency[GC_IV_NCLASSES];
	uint32_t initiation[GC_IV_NCLASSES];
} gc_iv_lat;

/* Registers the tracker knows: R0..R254 are 0..254 (R255 is RZ, no
 * dependency), P0..P6 are 256..262 (PT, no dependency). */
#define GC_IV_REGS 256
#define GC_IV_PRED0 GC_IV_REGS
#define GC_IV_NREGS (GC_IV_REGS + 8)
#define GC_IV_NONE 0xffffu

/* The register of an operand token ("R12", "P3"), or GC_IV_NONE for RZ,
 * PT and every other token (uniform registers, immediates): those carry
 * no dependency. */
unsigned gc_iv_reg(const char *tok, size_t len);

/* One warp: about 1.1 KB, set to zeros before its first instruction. */
typedef struct gc_iv_warp {
	uint32_t next;                   /* earliest issue of the next instruction */
	uint32_t free[GC_IV_NCLASSES];   /* earliest issue the class's unit allows */
	uint32_t insts, waits;           /* so far: non-memory instructions, waits */
	uint32_t ready[GC_IV_NREGS];     /* when each register's value is ready */
	uint64_t loaded[(GC_IV_NREGS + 63) / 64]; /* written by a load, not yet read */
} gc_iv_warp;

/* Issue the warp's next instruction: class cls (GC_IV_MEMORY for a memory
 * instruction, whose destinations are ready at its issue and count as
 * loaded; GC_IV_UNKNOWN is timed as int), reading src[0..ns) and writing
 * dst[0..nd) (GC_IV_NONE entries are skipped).  Returns the compute field
 * of the instruction: the counts before it and its issue cycle,
 * GC_CF_MAKE(insts, issue, waits). */
uint64_t gc_iv_step(gc_iv_warp *w, const gc_iv_lat *lat, int cls, const uint16_t *src,
		    int ns, const uint16_t *dst, int nd);

#endif
