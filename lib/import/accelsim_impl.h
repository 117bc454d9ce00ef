/*
 * accelsim_impl.h - what the files of the Accel-Sim trace parser share,
 * and nothing else includes: the parser's state, the tokenizer, and the
 * steps one file calls in another.  accelsim.c says what the parser reads
 * and decides; the files, by what they do:
 *   accelsim.c         messages and errors, detection, kernelslists, entry
 *   accelsim_pass.c    a kernel trace file read in two passes, a pipe spilt
 *   accelsim_spool.c   or in one: what the second pass would write, kept
 *   accelsim_kernel.c  kernels: the '-' header, the begin record, the counts
 *   accelsim_traceg.c  the .traceg structure: blocks and warp sections
 *   accelsim_inst.c    instruction lines, their opcodes and address payloads
 */
#ifndef GC_ACCELSIM_IMPL_H
#define GC_ACCELSIM_IMPL_H

#include "base/bits.h"
#include "import/import.h"
#include "stream/lines.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define LANES 32
#define LOCAL_WINDOW (UINT64_C(1) << 14) /* Accel-Sim LOCAL_MEM_SIZE_MAX */
#define MAX_REGS 32                      /* dest_num/src_num (tracer: <= 5) */
#define MAX_THREADS (UINT64_C(1) << 21)  /* keeps warp numbers in 16 bits */
#define SPILL_BUF (1u << 20)
#define OPC_SLOTS 256
#define OPC_LEN 47
#define PCSEEN_SLOTS 512

enum { L_UNKNOWN, L_TRACEG, L_RAW };
enum { S_NONE, S_HEADER, S_BODY };
enum { K_NONE, K_LIST, K_TRACE };

/* What the first pass learnt about one kernel, for the second. */
typedef struct kcount {
	uint64_t insts, mem, tinsts;
	int skip;
} kcount;

/* One memory warp instruction, decoded. */
typedef struct minst {
	uint32_t pc, mask;
	uint8_t op, space, flags, ldgsts;
	uint16_t size;
	int strided;          /* base+stride: addr[] unused */
	uint64_t cf;          /* --intervals: its compute field */
	uint64_t base;        /* address of the first active lane */
	int64_t stride;
	uint64_t addr[LANES]; /* by lane, where mask has the bit */
} minst;

/* Per-warp state of a raw trace (open addressing, key 0 = empty). */
typedef struct wslot {
	uint64_t key;   /* (block << 16 | warp) + 1 */
	uint32_t seq;   /* next sequence number */
	uint32_t half;  /* an LDGSTS first half was dropped */
	uint32_t iv;    /* --intervals: 1 + its state's index in parser.ivp */
} wslot;

/* An opcode met before: its width and memory operation. */
typedef struct opcache {
	char name[OPC_LEN + 1];
	uint8_t len, mem, op, space, flags, ldgsts;
	uint8_t cls;    /* enum gc_iv_class of a non-memory opcode */
	uint16_t size;
} opcache;

/* The kernel being read. */
typedef struct kstate {
	int state, layout, skip;
	int have_name, have_id, have_grid, have_block;
	int have_binary, have_stream, have_shbase, have_lbase;
	gc_kernel k;
	uint64_t binary, stream, shbase, lbase;
	int ver;          /* tracer version: 0 none, 1 for 1.2, 3, 4, 5 ... */
	char verstr[16];
	char nvbit[32];
	int lineinfo;
	int core;         /* raw: -1 not yet known, 1 sm_id/warpid_sm columns */
	uint32_t wpb;     /* warps per block */
	uint64_t insts, mem;
	uint64_t tinsts;  /* thread instructions: active lanes of every line */
	/* .traceg position */
	int in_tb, have_tb, have_warp, have_insts;
	uint32_t bx, by, bz, block, warp, seq;
	uint64_t decl, nlines;
	int pending;      /* an LDGSTS line waits for its partner */
	minst pend;
} kstate;

/* What the second pass would write, kept by the first (accelsim_spool.c). */
typedef struct as_spool {
	int on;                 /* keeping: one pass (0: two, or dropped) */
	unsigned char **chunk;  /* chunks of csize bytes */
	size_t nchunk, cchunk;  /* chunks allocated, room for pointers */
	size_t csize, limit;    /* a chunk's bytes, the chunks allowed */
	unsigned char *p, *end; /* where the next event goes, the limit */
	uint64_t base;          /* the last access's address */
} as_spool;

typedef struct parser {
	gc_import *im;
	gc_lines *in;            /* the lines of this pass */
	char name[256];          /* the input's name, for messages */
	int pass;                /* 1 check and count, 2 write */
	kcount *kc;
	size_t nk, capk, ki;     /* kernels counted, room, kernel of pass 2 */
	kstate c;
	/* the first kernel of the file, for the header keys */
	int first_seen, first_layout;
	char first_ver[16], first_nvbit[32];
	char first_binary[24]; /* the first kernel's binary version, or "" */
	/* raw per-warp table */
	wslot *wt;
	size_t wcap, wn;
	wslot *wlast;
	/* --intervals (second pass): the .traceg warp being read; a raw
	 * trace's warps, by wslot.iv */
	gc_iv_warp ivw;
	gc_iv_warp *ivp;
	size_t ivn, ivcap;
	/* copy of a pipe for the second pass */
	int sfd;
	char *sbuf;
	size_t slen;
	opcache opc[OPC_SLOTS];
	/* Second pass: PCs whose opcode the kernel's table has (pc + 1 at
	 * pc % PCSEEN_SLOTS; 0: none), so that a loop's instructions are not
	 * looked up in it again and again. */
	uint64_t pcseen[PCSEEN_SLOTS];
	as_spool sp;
	int iv_early;            /* --intervals: the latencies are known in the
				    first pass (it tracks registers and spools
				    each record's compute field) */
} parser;

/* ---- the tokenizer ------------------------------------------------------ */

/* Hex digit values (0 for anything else), and which bytes are hex digits. */
extern const uint8_t as_hexval[256], as_ishex[256];

#define IS_SP(c) ((c) == ' ' || (c) == '\t')
#define TOK_END(c) ((c) == ' ' || (c) == '\t' || (c) == 0)

static inline char *skipsp(char *s)
{
	while (IS_SP(*s))
		s++;
	return s;
}

static inline char *tokend(char *s)
{
	while (!TOK_END(*s))
		s++;
	return s;
}

static inline void rtrim(char *s)
{
	size_t n = strlen(s);
	while (n && (IS_SP(s[n - 1]) || s[n - 1] == '\r'))
		s[--n] = 0;
}

/* Unsigned decimal token; on success *ps moves to the next token. */
static inline int tok_u(char **ps, uint64_t *v)
{
	char *s = *ps, *b = s;
	uint64_t x = 0;
	while (*s >= '0' && *s <= '9') {
		if (x > (UINT64_MAX - 9) / 10)
			return 0;
		x = x * 10 + (uint64_t)(*s++ - '0');
	}
	if (s == b || !TOK_END(*s))
		return 0;
	*v = x;
	*ps = skipsp(s);
	return 1;
}

/* Signed decimal token. */
static inline int tok_i(char **ps, int64_t *v)
{
	char *s = *ps;
	int neg = 0;
	if (*s == '-' || *s == '+')
		neg = *s++ == '-';
	char *b = s;
	uint64_t x = 0;
	while (*s >= '0' && *s <= '9') {
		if (x > (UINT64_MAX - 9) / 10)
			return 0;
		x = x * 10 + (uint64_t)(*s++ - '0');
	}
	if (s == b || !TOK_END(*s) || x > (uint64_t)INT64_MAX + neg)
		return 0;
	*v = neg ? (int64_t)(0 - x) : (int64_t)x;
	*ps = skipsp(s);
	return 1;
}


/* Hex token, with or without 0x, at most 16 digits. */
static inline int tok_x(char **ps, uint64_t *v)
{
	const unsigned char *s = (const unsigned char *)*ps;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	const unsigned char *b = s;
	uint64_t x = 0;
	while (as_ishex[*s])
		x = x << 4 | as_hexval[*s++];
	if (s == b || s - b > 16 || !TOK_END(*s))
		return 0;
	*v = x;
	*ps = skipsp((char *)s);
	return 1;
}


static inline int starts(const char *s, const char *p)
{
	return s[0] == p[0] && strncmp(s, p, strlen(p)) == 0;
}

/* ---- messages and errors (accelsim.c) ----------------------------------- */

/* The token at s for a message: quoted, shortened. */
const char *as_show(const char *s, char *buf, size_t cap);
/* A malformed line: reported in the first pass (fatal unless --lenient),
 * silently skipped again in the second. */
void as_bad(parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A field that is missing or malformed: "line ends before the mask" or
 * "bad mask 'xyz'", then the hint. */
void as_badtok_hint(parser *p, const char *t, const char *what, const char *hint);
void as_badtok(parser *p, const char *t, const char *what);
/* Through im->fatal, which never returns. */
void as_fatal(parser *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));

#define V5_HINT " (tracer version 5 lines end with it)"

/* ---- the steps of the other files --------------------------------------- */

/* accelsim_kernel.c */
/* The raw trace's state of one warp, key block << 16 | warp. */
wslot *as_wt_get(parser *p, uint64_t key);
/* A '-key = value' line; one outside a header begins a new kernel. */
void as_header_line(parser *p, char *s);
/* The header is complete: check it, write the begin record (pass 2, or
 * keep it for the one-pass replay). */
void as_body_start(parser *p);
/* Write kernel c's begin record with the counts kc of the first pass. */
void as_write_begin(parser *p, kstate *c, const kcount *kc);
/* Count one memory instruction and write its records (pass 2). */
void as_commit(parser *p, const minst *m, uint32_t *seq, uint32_t block, uint32_t warp,
	       uint16_t sm);
/* Commit the LDGSTS line held back for its partner, if any. */
void as_flush_pending(parser *p);
/* The end of a .traceg warp section: its line count against insts. */
void as_close_warp(parser *p);
/* The end of a kernel: its counts kept (pass 1) or compared (pass 2). */
void as_end_kernel(parser *p, int at_eof);

/* accelsim_traceg.c: '#' lines, 'thread block', 'warp' and 'insts' lines */
void as_marker(parser *p, char *s);
void as_tb_line(parser *p, char *s);
void as_warp_line(parser *p, char *s, int insts);

/* accelsim_inst.c: an instruction line */
void as_inst_line(parser *p, char *s);

/* accelsim_spool.c */
/* An empty spool, on when im's budget (accelsim_spool) is not 0. */
void as_spool_start(as_spool *s, const gc_import *im);
void as_spool_free(as_spool *s);
/* Keep a kernel's begin (its index in kc, its state after the header), an
 * opcode, a memory warp instruction's record and lanes, a kernel's end;
 * past the budget the spool is dropped (sp.on becomes 0). */
void as_spool_begin(parser *p, size_t ki, const kstate *c);
void as_spool_opcode(parser *p, uint32_t pc, const char *name, size_t len);
void as_spool_access(parser *p, const gc_rec *r, const minst *m);
void as_spool_end(parser *p);
/* Write everything kept, in order. */
void as_spool_replay(parser *p);
/* Drop the spool: the file is read a second time. */
void as_spool_stop(parser *p);

/* accelsim_pass.c */
/* A header key of the import, while the header is unwritten; first wins. */
void as_set_key(gc_import *im, const char *key, const char *val);
/* The passes a trace file takes unless its spool overflows (or, with
 * --intervals, its first kernel cannot choose the GPU): 1 with a spool
 * budget and, for --intervals, a way to choose the latencies early. */
static inline int as_passes(const gc_import *im)
{
	return !im->accelsim_spool || (im->intervals && !im->iv_choose) ? 2 : 1;
}
/* 1 when trace in is read in one pass (a file, not a pipe, and
 * as_passes 1), unless its spool overflows. */
int as_one_pass(const gc_import *im, const gc_lines *in);
/* Read one kernel trace file in one or two passes; returns its bytes of
 * text. */
uint64_t as_import_trace(gc_import *im, gc_lines *in);

#endif
