/*
 * import.h - the interface between gc-import and its trace parsers.
 *
 * A parser reads one input (gc_lines) and emits kernels and accesses
 * through the gc_import_* calls below, which write the output stream.  The
 * library neither prints nor exits: a malformed line goes to im->bad (which
 * gc-import's main makes fatal, or counting with --lenient), a failed write
 * to im->fatal.
 */
#ifndef GC_IMPORT_H
#define GC_IMPORT_H

#include "base/bits.h"
#include "import/intervals.h"
#include "stream/lines.h"
#include "stream/stream.h"

#include <stddef.h>
#include <stdint.h>

typedef struct gc_import gc_import;

#define GC_ACCELSIM_SPOOL_DEFAULT ((uint64_t)256 << 20)

/* A junk rule: lane addresses lo..hi (both included) are junk; the kind
 * says how it was written (below:N is 0..N-1, range:LO-HI is LO..HI,
 * above:N is N+1..2^64-1). */
enum { GC_JUNK_BELOW, GC_JUNK_RANGE, GC_JUNK_ABOVE, GC_JUNK_KINDS };
#define GC_JUNK_RULES 8
typedef struct gc_junk_rule {
	int kind;
	uint64_t lo, hi;
} gc_junk_rule;

/* How an Ocelot file's lines make warp instructions: detected, file order
 * (Ocelot's), or the reuse-distance model's per-thread lists. */
enum { GC_ORDER_AUTO, GC_ORDER_FILE, GC_ORDER_THREAD };

struct gc_import {
	/* Set by main. */
	gc_header h;            /* output header; a parser may add keys (or,
				   for a restore, replace it) before the
				   first record is written */
	const char *out;        /* output path (NULL: stdout) */
	int wflags;             /* GC_W_GZIP, GC_W_FORCE */
	int no_stream;          /* --emit none: nothing written, all counted */
	int lenient;
	int warp_size;          /* lanes per warp (default 32) */
	/* NVBit and PPT-GPU junk lane addresses: a lane whose address falls
	 * in one of these ranges is dropped (none: every lane is kept). */
	gc_junk_rule junk[GC_JUNK_RULES];
	int njunk;
	const char *app_config; /* PPT-GPU: the app_config geometry for .mem
				   inputs (NULL: none) */
	int ppt_level;          /* PPT-GPU: the tracer's ENV_TRACING_LEVEL (4:
				   a warp id field, 8: the predicate fields) */
	uint32_t grid[3];       /* Ocelot: the traced launch's grid (all 0:
				   one-dimensional) */
	int order;              /* Ocelot: GC_ORDER_* */
	int restore;            /* set by a parser that restores a stream (csv):
				   its records are carried as they are, an
				   access address of 2^48 or more included */
	/* --intervals (Accel-Sim traces): the compute field on every access
	 * record.  Main sets the header's GC_OPT_COMPUTE and record size, and
	 * either the latencies (iv_lat, iv_ready = 1) or iv_setup, which the
	 * parser calls once before the first kernel is written, with the
	 * kernel's binary version (have_binary 0: the trace has none); it
	 * sets iv_lat and the header's intervals.* keys, or never returns.
	 * iv_choose, where set, sets iv_lat alone, by the same rule, and
	 * returns -1 with nothing changed where iv_setup would fail: the
	 * one-pass reader calls it at the first kernel it spools, and
	 * iv_setup still writes the keys where two passes would. */
	int intervals;
	/* Accel-Sim: the bytes a trace's one-pass spool may take before the
	 * file is read a second time instead (0: always two passes);
	 * GC_ACCELSIM_SPOOL_DEFAULT unless the caller sets it */
	uint64_t accelsim_spool;
	int iv_ready;
	gc_iv_lat iv_lat;
	void (*iv_setup)(gc_import *im, const char *file, int have_binary, uint64_t binary);
	int (*iv_choose)(gc_import *im, int have_binary, uint64_t binary);
	/* A warning (main prints it unless -q); NULL: none. */
	void (*warn)(gc_import *im, const char *msg);
	/* A malformed line: never returns unless lenient (then the parser
	 * skips the line). */
	void (*bad)(gc_import *im, const char *file, uint64_t line, const char *msg);
	/* A failed write or an impossible state: never returns. */
	void (*fatal)(gc_import *im, const char *msg);

	/* Kept by the calls below (the summary of --stats and -v). */
	gc_writer *w;
	int in_kernel;
	uint32_t kernel_id;
	uint32_t max_id;        /* the largest kernel id written so far */
	uint64_t kernels, accesses, bad_lines;
	uint64_t instructions;  /* warp instructions, memory or not (the
				   kernels' GC_A_INSTS + GC_A_MEM_INSTS) */
	uint64_t mem_instructions; /* memory warp instructions (GC_A_MEM_INSTS) */
	uint64_t lines;         /* lines of trace text read (gc_import_text) */
	uint64_t text_bytes;    /* bytes of trace text read, decompressed */
	uint64_t junk_dropped[GC_JUNK_RULES]; /* lanes dropped by each rule */
	uint64_t thread_order;  /* Ocelot files read in thread order */
	uint64_t thread_insts;  /* active lanes of every warp instruction
				   (GC_A_THREAD_INSTS), Accel-Sim traces */
	uint64_t iv_unknown;    /* --intervals: instructions of opcodes the
				   class table lacks (timed as int) */
	int iv_nwarned;         /* distinct unknown mnemonics warned about */
	char iv_warned[64][24];
	gc_optab ops;           /* the open kernel's opcodes (gc_import_opcode) */
	/* --progress: the bytes (as on disk) the inputs will be read in, each
	 * file once a pass (gc_import_will_read); read_unknown: some input's
	 * size is not known (a pipe). */
	uint64_t read_total;
	int read_unknown;
};

/* One supported format. */
typedef struct gc_format {
	const char *name;
	const char *what;       /* one line for --help and the man page */
	/* Nonzero when the first bytes (head, len) and the name look like this
	 * format; higher wins. */
	int (*probe)(const char *head, size_t len, const char *path);
	/* Read all of `in`; return 0 (errors go through im->bad/im->fatal). */
	int (*import)(gc_import *im, gc_lines *in);
} gc_format;

void gc_import_init(gc_import *im);
/* Report a malformed line through im->bad, printf-style. */
void gc_import_bad(gc_import *im, gc_lines *in, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void gc_import_bad_at(gc_import *im, const char *file, uint64_t line,
		      const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* The id of a kernel whose trace carries none: one more than the largest
 * id so far, so that ids are 1..n in order of appearance when no input
 * carries ids, and never repeat one that an input carried. */
uint32_t gc_import_next_id(gc_import *im);
/* Count the lines and bytes of an input read to its end (once per input
 * file, after its last pass). */
void gc_import_text(gc_import *im, gc_lines *in);
void gc_import_kbegin(gc_import *im, const gc_kernel *k);
void gc_import_access(gc_import *im, const gc_rec *r);
/* The accesses of a warp instruction's active lanes: r with, for each lane
 * of mask in order, that lane and its address, addr[lane], or when addr is
 * NULL r->addr + k * stride for the k-th active lane (what
 * gc_import_access of each would write, in one go). */
void gc_import_lanes(gc_import *im, const gc_rec *r, uint32_t mask, const uint64_t *addr,
		     uint64_t stride);
void gc_import_kend(gc_import *im);
/* The SASS opcode of a memory instruction at pc (name: len bytes), for
 * the opcode records written before the kernel's end; ignored unless a
 * parser whose traces name opcodes set GC_REQ_OPCODES in im->h before
 * the first kernel. */
void gc_import_opcode(gc_import *im, uint32_t pc, const char *name, size_t len);
/* --intervals: an opcode the class table lacks (the caller counts its
 * instructions in iv_unknown): one warning (im->warn) per distinct
 * mnemonic, the first 64, then one that says there are more. */
void gc_import_unknown_opcode(gc_import *im, const char *opcode);
/* The first rule of im->junk that lane address addr falls in, or -1. */
int gc_import_junk_match(const gc_import *im, uint64_t addr);
/* 1 when a lane address is junk by im->junk (counted in junk_dropped),
 * else 0. */
int gc_import_junk(gc_import *im, uint64_t addr);
/* 1 when the bytes addr..addr+size-1 (size 1 to 255) lie below 2^48,
 * where every request line fits. */
static inline int gc_import_below48(uint64_t addr, unsigned size)
{
	return addr <= GC_ADDR48_MAX - (size ? size - 1 : 0);
}
/* 1 when every active lane's bytes lie below 2^48: those of mask, at
 * addr[lane], or when addr is NULL at base + k * stride for the k-th
 * active lane (stride a two's complement step); 0 when one does not. */
static inline int gc_import_lanes_below48(uint32_t mask, const uint64_t *addr, uint64_t base,
					  uint64_t stride, unsigned size)
{
	const uint64_t lim = GC_ADDR48_MAX - (size ? size - 1 : 0);
	if (addr) {
		uint64_t over = 0;
		for (; mask; mask &= mask - 1)
			over |= addr[__builtin_ctz(mask)] > lim;
		return !over;
	}
	if (!mask || base > lim)
		return !mask;
	/* The lanes' addresses run from base to base + (n - 1) * stride
	 * without wrapping when the step's magnitude times n - 1 stays
	 * within what lies between base and the end it runs to. */
	uint64_t n1 = gc_popcount32(mask) - 1;
	int up = (int64_t)stride >= 0;
	uint64_t mag = up ? stride : 0 - stride, room = up ? lim - base : base;
	return n1 == 0 || mag <= room / n1;
}
/* 0 when the bytes addr..addr+size-1 lie below 2^48; else the line is
 * reported through im->bad (with the lane's index) and -1 is returned. */
int gc_import_addr48(gc_import *im, gc_lines *in, int lane, uint64_t addr, unsigned size);
/* The message of an address beyond 2^48, into buf. */
void gc_import_addr48_msg(char *buf, size_t len, uint64_t addr, unsigned size);
/* --progress: the file at path ("-": standard input) will be read
 * `passes` times.  gc-import adds its operands before reading; a parser
 * adds the files an input names (a kernelslist's traces) before reading
 * them, and the passes after the first that it knows it will make. */
void gc_import_will_read(gc_import *im, const char *path, int passes);
/* The same for an open input: once more (its second pass). */
void gc_import_will_reread(gc_import *im, const gc_lines *in);
/* Open the output if no record opened it, and close it with its end
 * record. */
void gc_import_finish(gc_import *im);

/* ---- helpers shared by the parsers -------------------------------------- */

/* Access width in bytes from a SASS opcode (the Accel-Sim rule: first
 * all-digit dot token / 8, else first U<digits> token / 8, else 4). */
unsigned gc_sass_width(const char *opcode);
/* Operation and memory space from a SASS opcode; 0 when the opcode is not
 * a memory instruction. */
int gc_sass_memop(const char *opcode, uint8_t *op, uint8_t *space, uint8_t *flags);
/* Parse hex with or without 0x; end set past the digits; 0 on failure. */
int gc_parse_hex(const char *s, const char **end, uint64_t *v);
int gc_parse_dec(const char *s, const char **end, int64_t *v);
/* Unsigned decimal of at most max at *p: 1 and *p moved past it, or 0. */
int gc_parse_udec(const char **p, uint64_t max, uint64_t *v);
/* Room for `need` elements of `size` bytes in *p (capacity *cap, doubled
 * as needed); out of memory goes to im->fatal. */
void *gc_import_grow(gc_import *im, void *p, size_t *cap, size_t need, size_t size);

#endif
