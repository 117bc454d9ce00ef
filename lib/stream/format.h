/*
 * format.h - the gc stream's data model: record kinds and types, the
 * decoded record, kernels, the header, and the names of ops, spaces and
 * outcomes (format.c).  The byte layout is normative in gc-stream(5);
 * reading and writing it is stream.h.
 */
#ifndef GC_FORMAT_H
#define GC_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#define GC_VERSION_STRING "0.1.0"
#define GC_STREAM_MAJOR 1
#define GC_STREAM_MINOR 0

#define GC_HEADER_FIXED 64           /* bytes before the text area */
#define GC_HEADER_MAX (1u << 20)     /* largest header a reader accepts */
#define GC_RECORD_BASE 32            /* size of every record kind in 1.0 */
#define GC_RECORD_MAX 256
#define GC_NAME_CHUNK 30             /* name bytes carried by one name record */
#define GC_NAME_MAX 4096             /* longest kernel name */
#define GC_ATTR_MAX 16               /* attributes per kernel */
#define GC_ADDR48_MAX ((UINT64_C(1) << 48) - 1)

/* Record kinds (header field); every record of a stream is of its kind. */
enum gc_kind {
	GC_KIND_ACCESS = 1,  /* one per active lane of a memory instruction */
	GC_KIND_REQUEST = 2, /* one per cache line a warp instruction touches */
	GC_KIND_DRAM = 3,    /* one per DRAM transaction */
};

/* Header feature flags.  Required flags a reader must understand; optional
 * flags it may ignore.  No required flag is defined in 1.0. */
#define GC_REQ_OPCODES (1u << 0)   /* 1.3: kernels may end with opcode records */
#define GC_REQ_KNOWN GC_REQ_OPCODES
#define GC_STREAM_MINOR_OPCODES 3  /* the minor version such a stream has */
#define GC_OPCODE_FIRST 24         /* name bytes in an opcode record */
#define GC_OPCODE_MORE 30          /* ... and in its continuation record */
#define GC_OPT_SCHEDULED (1u << 0) /* timestamps are issue times */
#define GC_OPT_ANNOTATED (1u << 1) /* outcome bytes are valid */
#define GC_OPT_DISTANCE (1u << 2)  /* 1.1: a reuse distance at byte 32 (gc-rd) */
#define GC_STREAM_MINOR_DISTANCE 1 /* the minor version a distance stream has */
#define GC_RECORD_DISTANCE 40      /* its record size, at least */
#define GC_DIST_INF UINT64_MAX         /* distance of a first use */
#define GC_DIST_NONE (UINT64_MAX - 1)  /* no distance measured */
#define GC_OPT_COMPUTE (1u << 3)   /* 1.2: a compute field at bytes 40-47 */
#define GC_STREAM_MINOR_COMPUTE 2  /* the minor version a compute stream has */
#define GC_RECORD_COMPUTE 48       /* its record size, at least */
#define GC_OPT_PREFETCH (1u << 4)  /* 1.3: requests may carry GC_F_PREFETCH */
#define GC_STREAM_MINOR_PREFETCH 3 /* the minor version a prefetch stream has */

/*
 * The compute field (GC_OPT_COMPUTE, gc-stream(5) "The compute field"):
 * one 64-bit value on every record of a memory warp instruction, the same
 * on all of them, counting what the warp did from its first instruction
 * up to (not including) this memory instruction.  Each count wraps at its
 * width, so a reader takes differences between two records of a warp
 * modulo the width; records that stages make themselves (write-backs,
 * DRAM transactions) carry 0 (the valid bit clear).
 *   bits  0-23  insts:  non-memory warp instructions
 *   bits 24-49  cycles: their dependency-bound issue cycles for the warp
 *                       alone (every instruction, memory ones included,
 *                       takes an issue cycle; a load's value is ready at
 *                       once), with the opcode latencies of the header's
 *                       intervals.* keys
 *   bits 50-61  waits:  instructions that read a register a load of the
 *                       warp wrote, first readers only: the memory waits
 *   bit  62     reserved, 0
 *   bit  63     valid:  the record carries the field
 */
#define GC_CF_INSTS_BITS 24
#define GC_CF_CYCLES_BITS 26
#define GC_CF_WAITS_BITS 12
#define GC_CF_VALID (UINT64_C(1) << 63)
#define GC_CF_INSTS(v) ((v) & ((UINT64_C(1) << 24) - 1))
#define GC_CF_CYCLES(v) (((v) >> 24) & ((UINT64_C(1) << 26) - 1))
#define GC_CF_WAITS(v) (((v) >> 50) & ((UINT64_C(1) << 12) - 1))
#define GC_CF_MAKE(insts, cycles, waits)                                              \
	(GC_CF_VALID | ((uint64_t)(insts) & ((UINT64_C(1) << 24) - 1)) |              \
	 (((uint64_t)(cycles) & ((UINT64_C(1) << 26) - 1)) << 24) |                   \
	 (((uint64_t)(waits) & ((UINT64_C(1) << 12) - 1)) << 50))

/* Record types (byte 0 of every record). */
enum gc_type {
	GC_LOAD = 1,
	GC_STORE = 2,
	GC_ATOMIC = 3,  /* atomics and reductions, performed at L2 */
	GC_T_KBEGIN = 0x80,
	GC_T_KATTR = 0x81,
	GC_T_KNAME = 0x82,
	GC_T_KEND = 0x83,
	GC_T_TIME = 0x84,
	GC_T_OPCODE = 0x85,  /* 1.3, GC_REQ_OPCODES: a PC's opcode name */
	GC_T_OPMORE = 0x86,  /* 1.3: the rest of a long opcode name */
	GC_T_END = 0x8f,
};

enum gc_space {
	GC_GLOBAL = 0,
	GC_LOCAL = 1,
	GC_SHARED = 2,
	GC_CONST = 3,
	GC_TEXTURE = 4,
	GC_GENERIC = 5, /* unresolved generic address */
	GC_NSPACES = 6,
};

/* Record flags (high nibble of byte 1). */
#define GC_F_BYPASS_L1 0x1u /* cache-global: L1 passes it on to L2 */
#define GC_F_PREFETCH 0x2u  /* 1.3: a prefetch a cache stage made, not a warp's load */
#define GC_F_KNOWN 0x3u

/* Outcome byte of requests and DRAM transactions (GC_OPT_ANNOTATED). */
#define GC_OUT_RESULT(o) ((o) & 3u)
#define GC_OUT_CLASS(o) (((o) >> 2) & 7u)
#define GC_OUT_MAKE(res, cls) ((uint8_t)((res) | ((cls) << 2)))
enum gc_result { GC_R_NONE = 0, GC_R_HIT = 1, GC_R_SECTOR_MISS = 2, GC_R_MISS = 3 };
enum gc_class {
	GC_C_NONE = 0,
	GC_C_COMPULSORY = 1,
	GC_C_CAPACITY = 2,
	GC_C_CONFLICT = 3,
	GC_C_LATENCY = 4, /* merged into an in-flight miss */
	GC_C_MSHR = 5,    /* issued after an MSHR stall */
	GC_C_PARTIAL = 6, /* a sector a partial store left invalid, never fetched */
	GC_NCLASSES = 7,
};
#define GC_OUT_WRITEBACK 0x20u
#define GC_OUT_BYPASS 0x40u
#define GC_OUT_KNOWN 0x7fu

/* A data record as the program sees it.  The encoded record is 32 bytes;
 * `kernel` and the high half of `time` come from the stream's context. */
typedef struct gc_rec {
	uint8_t op;      /* GC_LOAD, GC_STORE, GC_ATOMIC */
	uint8_t space;   /* enum gc_space */
	uint8_t flags;   /* GC_F_* */
	uint8_t outcome; /* requests: GC_OUT_*; accesses: 0 */
	uint8_t lane;    /* accesses */
	uint8_t mask;    /* requests: sector mask, bit i = sector i of the line */
	uint16_t size;   /* accesses: bytes per lane (1..255); requests: bytes */
	uint16_t sm;
	uint16_t warp;   /* warp within the block */
	uint32_t kernel; /* id of the enclosing kernel */
	uint32_t block;  /* linear block id, x fastest */
	uint32_t pc;
	uint32_t seq;    /* per-warp dynamic instruction sequence number */
	uint64_t addr;   /* accesses: byte address; requests: line address */
	uint64_t time;
	uint64_t dist;   /* GC_OPT_DISTANCE streams: reuse distance (GC_DIST_*) */
	uint64_t compute; /* GC_OPT_COMPUTE streams: the compute field (GC_CF_*), else 0 */
} gc_rec;

/* Kernel attribute keys (unknown keys are carried through untouched). */
enum gc_attr_key {
	GC_A_INSTS = 1,      /* non-memory warp instructions */
	GC_A_MEM_INSTS = 2,  /* memory warp instructions */
	GC_A_STREAM = 3,     /* CUDA stream id */
	GC_A_BINARY = 4,     /* binary version (sm_XY as XY) */
	GC_A_SHMEM_BASE = 5, /* shared window base of generic addresses */
	GC_A_LOCAL_BASE = 6, /* local window base of generic addresses */
	GC_A_THREAD_INSTS = 7, /* thread instructions: active lanes summed over every
				* warp instruction, memory ones included (what
				* Accel-Sim counts as instructions) */
};

typedef struct gc_kernel {
	uint32_t id;
	uint32_t grid[3];   /* grid[0] up to 2^32-1, grid[1..2] up to 65535 */
	uint16_t block[3];
	uint16_t regs;      /* registers per thread */
	uint32_t shmem;     /* shared memory per block, bytes */
	int nattr;
	uint16_t attr_key[GC_ATTR_MAX];
	uint64_t attr_val[GC_ATTR_MAX];
	char name[GC_NAME_MAX + 1];
} gc_kernel;

void gc_kernel_init(gc_kernel *k, uint32_t id, const char *name);
/* Set (add or replace) an attribute; -1 when the table is full. */
int gc_kernel_set_attr(gc_kernel *k, uint16_t key, uint64_t val);
/* 1 and *val set when present, else 0. */
int gc_kernel_get_attr(const gc_kernel *k, uint16_t key, uint64_t *val);
uint64_t gc_kernel_threads_per_block(const gc_kernel *k);
uint64_t gc_kernel_blocks(const gc_kernel *k);

/* ---- header ---------------------------------------------------------- */

#define GC_KV_MAX 256 /* keys per header: 72 gpu.* keys and the stages' own */

typedef struct gc_header {
	uint16_t major, minor;
	uint16_t kind;
	uint16_t record_size;
	uint32_t required;
	uint32_t optional;
	int nkv;
	char *key[GC_KV_MAX];
	char *val[GC_KV_MAX];
} gc_header;

void gc_header_init(gc_header *h, enum gc_kind kind);
void gc_header_free(gc_header *h);
/* Deep copy; -1 on allocation failure. */
int gc_header_copy(gc_header *dst, const gc_header *src);
const char *gc_header_get(const gc_header *h, const char *key);
/* Add or replace; keys are [A-Za-z0-9_.-]+, values have no newline.
 * -1 on a bad key or value, a full table or no memory. */
int gc_header_set(gc_header *h, const char *key, const char *val);
/* Append " | entry" to the provenance key (or start it). */
int gc_header_add_provenance(gc_header *h, const char *entry);
/* The minor version a writer writes for the optional flags `optional`:
 * the largest its fields need (2 compute, 1 distance, else 0). */
unsigned gc_stream_minor(uint32_t optional);
/* ... and for a whole header: 3 with the opcodes flag, else the above. */
unsigned gc_header_minor(const gc_header *h);
/* The smallest record size that holds the fields of the optional flags
 * `optional` (48 compute, 40 distance, else 32). */
unsigned gc_record_size_min(uint32_t optional);
/* The text area as written: "key=value\n" lines.  Caller frees. */
char *gc_header_text(const gc_header *h, size_t *len);
const char *gc_kind_name(int kind);

/* ---- names ------------------------------------------------------------ */

const char *gc_op_name(int op);       /* "load", "store", "atomic" */
const char *gc_space_name(int space); /* "global", ... */
int gc_op_parse(const char *s);       /* -1 if unknown */
int gc_space_parse(const char *s);
const char *gc_class_name(int cls);   /* "compulsory", ... ; "" for none */
const char *gc_class_key(int cls);    /* the same as a JSON key: "partial_write" */
const char *gc_result_name(int res);  /* "hit", "sector-miss", "miss" */
/* Outcome as text ("miss/capacity+wb"), or "0xNN" for unknown bits.  A
 * buffer of GC_OUTCOME_BUFSZ bytes holds the longest,
 * "sector-miss/partial-write+wb+bypass" (35 characters and the NUL). */
#define GC_OUTCOME_BUFSZ 40
void gc_outcome_format(uint8_t outcome, char *buf, size_t len);
int gc_outcome_parse(const char *s, uint8_t *out);

#endif
