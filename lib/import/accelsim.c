/*
 * imp_accelsim.c - Accel-Sim NVBit traces (trace-formats.md section 1):
 * post-processed kernel-N.traceg files, raw kernel-N.trace files and the
 * kernelslist[.g] that names them, into one access stream.
 *
 * Every kernel trace is read twice.  The first pass checks every line and
 * counts the kernel's instructions; the second writes the records.  The
 * kernel begin record carries those counts, so they must be known before
 * the kernel's first access, and two passes keep memory flat whatever the
 * size of a kernel.  A regular file is read again from its start (a
 * compressed one decompressed again); anything else (a pipe) is copied to
 * an unlinked temporary file during the first pass.  The second pass meets
 * the same lines and takes the same decisions (under --lenient it skips
 * the same lines) without reporting them again; a second pass that counts
 * differently means the file changed while it was read, which is fatal.
 *
 * Decisions (documented in gc-import(1)):
 * - A memory instruction is a line with a non-zero mem_width (an address
 *   payload follows) and a memory opcode (gc_sass_memop), even when its
 *   mask is 0.  Every other line is a non-memory instruction.
 * - seq numbers a warp's memory instructions in program order from 0;
 *   non-memory instructions do not advance it, memory instructions without
 *   an active lane do.
 * - The access size comes from the opcode (gc_sass_width), as Accel-Sim
 *   recomputes it; the mem_width column only says whether an address
 *   payload follows, and a different non-zero value is accepted.
 * - LDGSTS: within a warp, an LDGSTS line followed by an LDGSTS line with
 *   the same PC and mask is the two-line form of one instruction (older
 *   .traceg files, every raw .trace); the first line (the shared
 *   destination) is dropped and the second (the global source) kept, as
 *   the Accel-Sim post-processor does.
 */
#include "import/formats.h"
#include "import/import.h"
#include "stream/lines.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define LANES 32
#define LOCAL_WINDOW (UINT64_C(1) << 14) /* Accel-Sim LOCAL_MEM_SIZE_MAX */
#define MAX_REGS 32                      /* dest_num/src_num (tracer: <= 5) */
#define MAX_THREADS (UINT64_C(1) << 21)  /* keeps warp numbers in 16 bits */
#define SPILL_BUF (1u << 20)
#define OPC_SLOTS 256
#define OPC_LEN 47

enum { L_UNKNOWN, L_TRACEG, L_RAW };
enum { S_NONE, S_HEADER, S_BODY };
enum { K_NONE, K_LIST, K_TRACE };

/* What the first pass learnt about one kernel, for the second. */
typedef struct kcount {
	uint64_t insts, mem;
	int skip;
} kcount;

/* One memory warp instruction, decoded. */
typedef struct minst {
	uint32_t pc, mask;
	uint8_t op, space, flags, ldgsts;
	uint16_t size;
	int strided;          /* base+stride: addr[] unused */
	uint64_t base;        /* address of the first active lane */
	int64_t stride;
	uint64_t addr[LANES]; /* by lane, where mask has the bit */
} minst;

/* Per-warp state of a raw trace (open addressing, key 0 = empty). */
typedef struct wslot {
	uint64_t key;   /* (block << 16 | warp) + 1 */
	uint32_t seq;   /* next sequence number */
	uint32_t half;  /* an LDGSTS first half was dropped */
} wslot;

/* An opcode met before: its width and memory operation. */
typedef struct opcache {
	char name[OPC_LEN + 1];
	uint8_t len, mem, op, space, flags, ldgsts;
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
	/* .traceg position */
	int in_tb, have_tb, have_warp, have_insts;
	uint32_t bx, by, bz, block, warp, seq;
	uint64_t decl, nlines;
	int pending;      /* an LDGSTS line waits for its partner */
	minst pend;
} kstate;

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
	/* raw per-warp table */
	wslot *wt;
	size_t wcap, wn;
	wslot *wlast;
	/* copy of a pipe for the second pass */
	int sfd;
	char *sbuf;
	size_t slen;
	opcache opc[OPC_SLOTS];
} parser;

/* ---- small helpers ------------------------------------------------------ */

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

static void rtrim(char *s)
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

/* Hex digit values; 16 for anything else. */
static const uint8_t hexval[256] = {
	['0'] = 0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
	['A'] = 10, 11, 12, 13, 14, 15,
	['a'] = 10, 11, 12, 13, 14, 15,
};
static const uint8_t ishex[256] = {
	['0'] = 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	['A'] = 1, 1, 1, 1, 1, 1,
	['a'] = 1, 1, 1, 1, 1, 1,
};

/* Hex token, with or without 0x, at most 16 digits. */
static inline int tok_x(char **ps, uint64_t *v)
{
	const unsigned char *s = (const unsigned char *)*ps;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	const unsigned char *b = s;
	uint64_t x = 0;
	while (ishex[*s])
		x = x << 4 | hexval[*s++];
	if (s == b || s - b > 16 || !TOK_END(*s))
		return 0;
	*v = x;
	*ps = skipsp((char *)s);
	return 1;
}

static inline int popcount32(uint32_t x)
{
	x = x - ((x >> 1) & 0x55555555u);
	x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
	return (int)((((x + (x >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24);
}

/* The token at s for a message: quoted, shortened. */
static const char *show(const char *s, char *buf, size_t cap)
{
	size_t n = 0;
	while (!TOK_END(s[n]) && n < 40)
		n++;
	snprintf(buf, cap, "'%.*s%s'", (int)n, s, TOK_END(s[n]) ? "" : "...");
	return buf;
}

static inline int starts(const char *s, const char *p)
{
	return s[0] == p[0] && strncmp(s, p, strlen(p)) == 0;
}

/* Tokens from s to the end of the line (or a fork's STORE_DATA tail). */
static int count_tokens(char *s)
{
	int n = 0;
	for (s = skipsp(s); *s && !starts(s, "STORE_DATA"); s = skipsp(tokend(s)))
		n++;
	return n;
}

/* ---- errors ------------------------------------------------------------- */

/* A malformed line: reported in the first pass (fatal unless --lenient),
 * silently skipped again in the second. */
static void bad(parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void bad(parser *p, const char *fmt, ...)
{
	if (p->pass != 1)
		return;
	char msg[480];
	va_list a;
	va_start(a, fmt);
	vsnprintf(msg, sizeof msg, fmt, a);
	va_end(a);
	gc_import_bad(p->im, p->in, "%s", msg);
}

/* A field that is missing or malformed: "line ends before the mask" or
 * "bad mask 'xyz'", then the hint. */
static void badtok_hint(parser *p, const char *t, const char *what, const char *hint)
{
	char b[64];
	if (!*t)
		bad(p, "line ends before the %s%s", what, hint);
	else
		bad(p, "bad %s %s%s", what, show(t, b, sizeof b), hint);
}

static void badtok(parser *p, const char *t, const char *what)
{
	badtok_hint(p, t, what, "");
}

#define V5_HINT " (tracer version 5 lines end with it)"

static void fatal(parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fatal(parser *p, const char *fmt, ...)
{
	char msg[600];
	va_list a;
	va_start(a, fmt);
	vsnprintf(msg, sizeof msg, fmt, a);
	va_end(a);
	p->im->fatal(p->im, msg);
	abort(); /* fatal never returns */
}

/* ---- opcodes ------------------------------------------------------------ */

/* Width and memory operation of the opcode op (len bytes, NUL-terminated),
 * computed once per distinct opcode. */
static const opcache *opcode(parser *p, const char *op, size_t len)
{
	/* A cheap hash: a file holds a few dozen distinct opcodes. */
	uint32_t h = (uint32_t)len * 7919u + (unsigned char)op[0] * 31u +
		     (unsigned char)op[len / 2] * 131u + (unsigned char)op[len - 1] * 1031u +
		     (unsigned char)op[len / 3] * 17u;
	opcache *e = &p->opc[h % OPC_SLOTS];
	if (e->len == len && len <= OPC_LEN && memcmp(e->name, op, len) == 0)
		return e;
	static opcache tmp;
	opcache *o = len <= OPC_LEN ? e : &tmp;
	memset(o, 0, sizeof *o);
	if (len <= OPC_LEN) {
		memcpy(o->name, op, len);
		o->len = (uint8_t)len;
	}
	o->mem = (uint8_t)gc_sass_memop(op, &o->op, &o->space, &o->flags);
	o->size = (uint16_t)gc_sass_width(op);
	o->ldgsts = (uint8_t)starts(op, "LDGSTS");
	return o;
}

/* ---- the raw trace's per-warp table ------------------------------------- */

static void wt_clear(parser *p)
{
	if (p->wt)
		memset(p->wt, 0, p->wcap * sizeof *p->wt);
	p->wn = 0;
	p->wlast = NULL;
}

static wslot *wt_get(parser *p, uint64_t key)
{
	key++;
	if (p->wlast && p->wlast->key == key)
		return p->wlast;
	if (2 * (p->wn + 1) > p->wcap) {
		size_t ncap = p->wcap ? 2 * p->wcap : 1024;
		wslot *nt = calloc(ncap, sizeof *nt);
		if (!nt)
			fatal(p, "out of memory (per-warp table of %zu warps)", p->wn);
		for (size_t i = 0; i < p->wcap; i++) {
			if (!p->wt[i].key)
				continue;
			size_t j = (size_t)(p->wt[i].key * UINT64_C(0x9e3779b97f4a7c15) >> 20) & (ncap - 1);
			while (nt[j].key)
				j = (j + 1) & (ncap - 1);
			nt[j] = p->wt[i];
		}
		free(p->wt);
		p->wt = nt;
		p->wcap = ncap;
	}
	size_t j = (size_t)(key * UINT64_C(0x9e3779b97f4a7c15) >> 20) & (p->wcap - 1);
	while (p->wt[j].key && p->wt[j].key != key)
		j = (j + 1) & (p->wcap - 1);
	if (!p->wt[j].key) {
		p->wt[j].key = key;
		p->wn++;
	}
	return p->wlast = &p->wt[j];
}

/* ---- kernels ------------------------------------------------------------ */

static void begin_kernel(parser *p)
{
	kstate *c = &p->c;
	memset(c, 0, sizeof *c);
	gc_kernel_init(&c->k, 0, NULL);
	strcpy(c->verstr, "none");
	c->core = -1;
	c->state = S_HEADER;
	wt_clear(p);
}

/* The header is complete: check it and, in the second pass, write the
 * kernel begin record. */
static void body_start(parser *p)
{
	kstate *c = &p->c;
	c->state = S_BODY;
	const char *lacks = !c->have_name ? "-kernel name" : !c->have_grid ? "-grid dim"
			  : !c->have_block ? "-block dim" : NULL;
	if (lacks) {
		bad(p, "kernel header lacks '%s = ...'", lacks);
		c->skip = 1;
		return;
	}
	uint64_t threads = (uint64_t)c->k.block[0] * c->k.block[1] * c->k.block[2];
	c->wpb = (uint32_t)((threads + LANES - 1) / LANES);
	if (p->pass == 1 && !p->first_seen) {
		p->first_seen = 1;
		snprintf(p->first_ver, sizeof p->first_ver, "%s", c->verstr);
		snprintf(p->first_nvbit, sizeof p->first_nvbit, "%s", c->nvbit);
	}
	if (p->pass != 2)
		return;
	if (p->ki >= p->nk)
		fatal(p, "%s: changed while it was read (more kernels the second time)", p->name);
	gc_kernel *k = &c->k;
	k->id = c->have_id ? k->id : gc_import_next_id(p->im);
	gc_kernel_set_attr(k, GC_A_INSTS, p->kc[p->ki].insts);
	gc_kernel_set_attr(k, GC_A_MEM_INSTS, p->kc[p->ki].mem);
	if (c->have_stream)
		gc_kernel_set_attr(k, GC_A_STREAM, c->stream);
	if (c->have_binary)
		gc_kernel_set_attr(k, GC_A_BINARY, c->binary);
	if (c->have_shbase)
		gc_kernel_set_attr(k, GC_A_SHMEM_BASE, c->shbase);
	if (c->have_lbase)
		gc_kernel_set_attr(k, GC_A_LOCAL_BASE, c->lbase);
	gc_import_kbegin(p->im, k);
}

/* Write (second pass) and count one memory instruction. */
static void commit(parser *p, const minst *m, uint32_t *seq, uint32_t block, uint32_t warp,
		   uint16_t sm)
{
	kstate *c = &p->c;
	c->mem++;
	uint32_t s = (*seq)++;
	if (p->pass != 2 || !m->mask)
		return;
	gc_rec r;
	memset(&r, 0, sizeof r);
	r.op = m->op;
	r.space = m->space;
	r.flags = m->flags;
	r.size = m->size;
	r.sm = sm;
	r.warp = (uint16_t)warp;
	r.kernel = c->k.id;
	r.block = block;
	r.pc = m->pc;
	r.seq = s;
	if (r.space == GC_GENERIC) {
		/* Accel-Sim's rule, from the first active lane's address. */
		uint64_t a = m->base;
		if (!c->shbase || !c->lbase)
			r.space = GC_SHARED;
		else if (a >= c->shbase && a < c->lbase)
			r.space = GC_SHARED;
		else if (a >= c->lbase && a - c->lbase < LOCAL_WINDOW)
			r.space = GC_LOCAL;
		else
			r.space = GC_GLOBAL;
	}
	if (m->strided) {
		r.addr = m->base;
		for (uint32_t mk = m->mask; mk; mk &= mk - 1) {
			r.lane = (uint8_t)__builtin_ctz(mk);
			gc_import_access(p->im, &r);
			r.addr += (uint64_t)m->stride;
		}
		return;
	}
	for (uint32_t mk = m->mask; mk; mk &= mk - 1) {
		unsigned lane = (unsigned)__builtin_ctz(mk);
		r.lane = (uint8_t)lane;
		r.addr = m->addr[lane];
		gc_import_access(p->im, &r);
	}
}

static void flush_pending(parser *p)
{
	kstate *c = &p->c;
	if (c->pending) {
		c->pending = 0;
		commit(p, &c->pend, &c->seq, c->block, c->warp, 0);
	}
}

/* The end of a .traceg warp section: its line count against insts. */
static void close_warp(parser *p)
{
	kstate *c = &p->c;
	flush_pending(p);
	if (c->have_warp && !c->have_insts)
		bad(p, "'warp = %u' of thread block (%u,%u,%u) has no 'insts = N' line",
		    c->warp, c->bx, c->by, c->bz);
	else if (c->have_warp && c->nlines != c->decl)
		bad(p, "warp %u of thread block (%u,%u,%u) has %llu instruction lines, "
		    "but its 'insts' line says %llu", c->warp, c->bx, c->by, c->bz,
		    (unsigned long long)c->nlines, (unsigned long long)c->decl);
	c->have_warp = c->have_insts = 0;
}

static void end_kernel(parser *p, int at_eof)
{
	kstate *c = &p->c;
	if (c->state == S_NONE)
		return;
	if (c->state == S_HEADER)
		body_start(p);
	if (!c->skip && c->layout == L_TRACEG) {
		close_warp(p);
		if (c->in_tb)
			bad(p, "%s inside thread block (%u,%u,%u) (no #END_TB)",
			    at_eof ? "the file ends" : "a kernel header begins", c->bx, c->by, c->bz);
	}
	if (p->pass == 1) {
		if (p->nk == 0)
			p->first_layout = c->layout;
		if (p->nk == p->capk) {
			size_t n = p->capk ? 2 * p->capk : 16;
			kcount *nkc = realloc(p->kc, n * sizeof *nkc);
			if (!nkc)
				fatal(p, "out of memory");
			p->kc = nkc;
			p->capk = n;
		}
		p->kc[p->nk].insts = c->insts;
		p->kc[p->nk].mem = c->mem;
		p->kc[p->nk].skip = c->skip;
		p->nk++;
	} else {
		if (p->ki >= p->nk)
			fatal(p, "%s: changed while it was read (more kernels the second time)",
			      p->name);
		const kcount *k = &p->kc[p->ki];
		if (k->insts != c->insts || k->mem != c->mem || k->skip != c->skip)
			fatal(p, "%s: changed while it was read (kernel %u counts differ)",
			      p->name, c->k.id);
		if (!c->skip)
			gc_import_kend(p->im);
	}
	p->ki++;
	c->state = S_NONE;
}

/* ---- the header --------------------------------------------------------- */

static int parse_triple(char *v, uint64_t out[3])
{
	char *s = skipsp(v);
	if (*s++ != '(')
		return 0;
	for (int i = 0; i < 3; i++) {
		s = skipsp(s);
		char *b = s;
		uint64_t x = 0;
		while (*s >= '0' && *s <= '9' && x < UINT64_C(1) << 40)
			x = x * 10 + (uint64_t)(*s++ - '0');
		if (s == b || (*s >= '0' && *s <= '9'))
			return 0;
		s = skipsp(s);
		if (*s++ != (i < 2 ? ',' : ')'))
			return 0;
		out[i] = x;
	}
	return *skipsp(s) == 0;
}

static int whole_u(char *v, uint64_t *x, uint64_t max)
{
	char *s = v;
	return tok_u(&s, x) && *s == 0 && *x <= max;
}

static void header_line(parser *p, char *s)
{
	kstate *c = &p->c;
	if (c->state != S_HEADER) {
		end_kernel(p, 0);
		begin_kernel(p);
	}
	char *eq = strchr(s, '=');
	if (!eq)
		return; /* not "-key = value": ignored like any unknown line */
	char *ke = eq;
	while (ke > s + 1 && IS_SP(ke[-1]))
		ke--;
	size_t kl = (size_t)(ke - (s + 1));
	const char *key = s + 1;
	char *v = skipsp(eq + 1);
	rtrim(v);
#define KEY(name) (kl == sizeof name - 1 && memcmp(key, name, kl) == 0)
	uint64_t x, t[3];
	if (KEY("kernel name")) {
		size_t n = strlen(v);
		if (!n)
			bad(p, "empty kernel name");
		else if (n > GC_NAME_MAX)
			bad(p, "kernel name longer than %u bytes", GC_NAME_MAX);
		else {
			memcpy(c->k.name, v, n + 1);
			c->have_name = 1;
		}
	} else if (KEY("kernel id")) {
		if (!whole_u(v, &x, UINT32_MAX))
			bad(p, "bad '-kernel id' value '%s'", v);
		else
			c->k.id = (uint32_t)x, c->have_id = 1;
	} else if (KEY("grid dim")) {
		if (!parse_triple(v, t))
			bad(p, "bad '-grid dim' value '%s' (expected (x,y,z))", v);
		else if (!t[0] || !t[1] || !t[2] || t[0] > UINT32_MAX || t[1] > 65535 ||
			 t[2] > 65535 || t[0] * t[1] * t[2] > UINT64_C(1) << 32)
			bad(p, "'-grid dim' %s out of range (x from 1 to 2^32-1, y and z "
			    "from 1 to 65535, at most 2^32 blocks)", v);
		else {
			for (int i = 0; i < 3; i++)
				c->k.grid[i] = (uint32_t)t[i];
			c->have_grid = 1;
		}
	} else if (KEY("block dim")) {
		if (!parse_triple(v, t))
			bad(p, "bad '-block dim' value '%s' (expected (x,y,z))", v);
		else if (!t[0] || !t[1] || !t[2] || t[0] > 65535 || t[1] > 65535 ||
			 t[2] > 65535 || t[0] * t[1] * t[2] > MAX_THREADS)
			bad(p, "'-block dim' %s out of range (each from 1 to 65535, at most "
			    "%llu threads)", v, (unsigned long long)MAX_THREADS);
		else {
			for (int i = 0; i < 3; i++)
				c->k.block[i] = (uint16_t)t[i];
			c->have_block = 1;
		}
	} else if (KEY("shmem")) {
		if (!whole_u(v, &x, UINT32_MAX))
			bad(p, "bad '-shmem' value '%s'", v);
		else
			c->k.shmem = (uint32_t)x;
	} else if (KEY("nregs")) {
		if (!whole_u(v, &x, 65535))
			bad(p, "bad '-nregs' value '%s'", v);
		else
			c->k.regs = (uint16_t)x;
	} else if (KEY("binary version")) {
		if (!whole_u(v, &x, UINT32_MAX))
			bad(p, "bad '-binary version' value '%s'", v);
		else
			c->binary = x, c->have_binary = 1;
	} else if (KEY("cuda stream id")) {
		if (!whole_u(v, &x, UINT64_MAX))
			bad(p, "bad '-cuda stream id' value '%s'", v);
		else
			c->stream = x, c->have_stream = 1;
	} else if (KEY("shmem base_addr") || KEY("local mem base_addr")) {
		char *e = v;
		int sh = key[0] == 's';
		if (!tok_x(&e, &x) || *e)
			bad(p, "bad '-%s' value '%s'", sh ? "shmem base_addr" : "local mem base_addr", v);
		else if (sh)
			c->shbase = x, c->have_shbase = 1;
		else
			c->lbase = x, c->have_lbase = 1;
	} else if (KEY("nvbit version")) {
		snprintf(c->nvbit, sizeof c->nvbit, "%s", v);
	} else if (KEY("accelsim tracer version")) {
		/* "1.2" reads as 1 (< 3) as in Accel-Sim; later versions than 5
		 * are read with the version 5 grammar. */
		char *e = v;
		uint64_t major = 0;
		while (*e >= '0' && *e <= '9' && major < 1000)
			major = major * 10 + (uint64_t)(*e++ - '0');
		if (e == v || (*e && *e != '.') || strlen(v) >= sizeof c->verstr)
			bad(p, "bad '-accelsim tracer version' value '%s'", v);
		else {
			c->ver = (int)major;
			snprintf(c->verstr, sizeof c->verstr, "%s", v);
		}
	} else if (KEY("enable lineinfo")) {
		if (!whole_u(v, &x, 1))
			bad(p, "bad '-enable lineinfo' value '%s' (0 or 1)", v);
		else
			c->lineinfo = (int)x;
	}
#undef KEY
}

/* ---- .traceg structure -------------------------------------------------- */

static int set_layout(parser *p, int layout, const char *what)
{
	kstate *c = &p->c;
	if (c->layout == L_UNKNOWN)
		c->layout = layout;
	if (c->layout == layout)
		return 1;
	if (layout == L_TRACEG)
		bad(p, "'%s' in a raw trace (instruction lines came before it)", what);
	return 0;
}

static void marker(parser *p, char *s)
{
	kstate *c = &p->c;
	rtrim(s);
	if (strcmp(s, "#BEGIN_TB") == 0) {
		if (!set_layout(p, L_TRACEG, "#BEGIN_TB"))
			return;
		close_warp(p);
		if (c->in_tb)
			bad(p, "#BEGIN_TB inside thread block (%u,%u,%u) (no #END_TB before it)",
			    c->bx, c->by, c->bz);
		c->in_tb = 1;
		c->have_tb = 0;
	} else if (strcmp(s, "#END_TB") == 0) {
		if (!set_layout(p, L_TRACEG, "#END_TB"))
			return;
		close_warp(p);
		if (!c->in_tb)
			bad(p, "#END_TB without #BEGIN_TB");
		c->in_tb = c->have_tb = 0;
	}
	/* Any other # line is a comment ("#traces format = ..."). */
}

/* "word = value" with the word already matched: the value's text. */
static char *after_eq(char *s, size_t wl)
{
	s = skipsp(s + wl);
	if (*s != '=')
		return NULL;
	return skipsp(s + 1);
}

static void tb_line(parser *p, char *s)
{
	kstate *c = &p->c;
	if (!set_layout(p, L_TRACEG, "thread block"))
		return;
	char *v = after_eq(s, 12);
	uint64_t t[3];
	int i;
	for (i = 0; v && i < 3; i++) {
		char *b = v;
		uint64_t x = 0;
		while (*v >= '0' && *v <= '9' && x < UINT64_C(1) << 40)
			x = x * 10 + (uint64_t)(*v++ - '0');
		if (v == b || (*v >= '0' && *v <= '9'))
			break;
		t[i] = x;
		v = skipsp(v);
		if (i < 2 && *v++ != ',')
			break;
		v = skipsp(v);
	}
	if (i < 3 || *v) {
		rtrim(s);
		bad(p, "bad thread block line '%s' (expected 'thread block = x,y,z')", s);
		return;
	}
	if (!c->in_tb) {
		bad(p, "'thread block' line outside #BEGIN_TB ... #END_TB");
		return;
	}
	if (c->have_tb) {
		bad(p, "second 'thread block' line in one #BEGIN_TB section");
		return;
	}
	if (t[0] >= c->k.grid[0] || t[1] >= c->k.grid[1] || t[2] >= c->k.grid[2]) {
		bad(p, "thread block (%llu,%llu,%llu) is outside the grid (%u,%u,%u)",
		    (unsigned long long)t[0], (unsigned long long)t[1], (unsigned long long)t[2],
		    c->k.grid[0], c->k.grid[1], c->k.grid[2]);
		return;
	}
	c->bx = (uint32_t)t[0], c->by = (uint32_t)t[1], c->bz = (uint32_t)t[2];
	c->block = (uint32_t)((t[2] * c->k.grid[1] + t[1]) * c->k.grid[0] + t[0]);
	c->have_tb = 1;
}

static void warp_line(parser *p, char *s, int insts)
{
	kstate *c = &p->c;
	const char *what = insts ? "insts" : "warp";
	if (!set_layout(p, L_TRACEG, what))
		return;
	char *v = after_eq(s, insts ? 5 : 4);
	uint64_t x;
	if (!v || !tok_u(&v, &x) || *v) {
		rtrim(s);
		bad(p, "bad %s line '%s' (expected '%s = N')", what, s, what);
		return;
	}
	if (!insts) {
		close_warp(p);
		if (!c->have_tb) {
			bad(p, "'warp' line before the block's 'thread block' line");
			return;
		}
		if (x >= c->wpb) {
			bad(p, "warp %llu is outside the block (%u threads, %u warps)",
			    (unsigned long long)x,
			    (unsigned)(c->k.block[0] * c->k.block[1] * c->k.block[2]), c->wpb);
			return;
		}
		c->warp = (uint32_t)x;
		c->have_warp = 1;
		c->have_insts = 0;
		c->seq = 0;
		c->nlines = 0;
	} else {
		if (!c->have_warp || c->have_insts) {
			bad(p, "'insts' line without a 'warp' line before it");
			return;
		}
		c->decl = x;
		c->have_insts = 1;
	}
}

/* ---- instruction lines -------------------------------------------------- */

/* The address payload after mem_width: fills m->addr for the lanes of
 * m->mask, then reads the trailing immediate (version 5).  Returns 0 on a
 * bad line (reported). */
static int payload(parser *p, char *t, minst *m)
{
	kstate *c = &p->c;
	char b[64];
	int n = popcount32(m->mask), want = 0, v5 = c->ver >= 5;
	uint64_t base, a;
	int64_t d;
	char *list;
	if (!(t[0] >= '0' && t[0] <= '2' && TOK_END(t[1]))) {
		if (!*t)
			bad(p, "line ends before the address mode (mem_width is not 0)");
		else
			bad(p, "bad address mode %s (0 list, 1 base+stride, 2 base+delta)",
			    show(t, b, sizeof b));
		return 0;
	}
	int mode = t[0] - '0';
	t = skipsp(t + 1);
	m->strided = 0;
	if (mode == 0) {
		list = t;
		want = n;
		for (uint32_t mk = m->mask; mk; mk &= mk - 1) {
			if (!tok_x(&t, &a)) {
				if (!*t)
					goto count;
				badtok(p, t, "address");
				return 0;
			}
			m->addr[__builtin_ctz(mk)] = a;
		}
		m->base = m->mask ? m->addr[__builtin_ctz(m->mask)] : 0;
	} else {
		if (!tok_x(&t, &base)) {
			badtok(p, t, "base address");
			return 0;
		}
		list = t;
		a = base;
		m->base = base;
		if (mode == 1) {
			if (!tok_i(&t, &d)) {
				badtok(p, t, "stride");
				return 0;
			}
			/* commit() gives the k-th active lane (of a contiguous
			 * run) base + k * stride. */
			m->strided = 1;
			m->stride = d;
		} else {
			/* Exactly popcount - 1 deltas, each from the previous active lane. */
			want = n ? n - 1 : 0;
			uint32_t mk = m->mask;
			if (mk) {
				m->addr[__builtin_ctz(mk)] = a;
				mk &= mk - 1;
			}
			for (; mk; mk &= mk - 1) {
				if (!tok_i(&t, &d)) {
					if (!*t)
						goto count;
					badtok(p, t, "delta");
					return 0;
				}
				a += (uint64_t)d;
				m->addr[__builtin_ctz(mk)] = a;
			}
		}
	}
	if (v5) {
		if (!*t && mode != 1)
			goto count;
		if (!tok_i(&t, &d)) {
			badtok_hint(p, t, "immediate", V5_HINT);
			return 0;
		}
	}
	if (!*t || starts(t, "STORE_DATA"))
		return 1;
	if (mode == 1) {
		bad(p, "unexpected %s after the base+stride payload%s", show(t, b, sizeof b),
		    v5 ? " and the immediate" : " (tracer versions before 5 end the line here)");
		return 0;
	}
count:
	/* The number of payload tokens does not match the mask. */
	bad(p, "%s: mask %08x has %d active lane%s, so %d %s%s expected; found %d%s",
	    mode == 2 ? "base+delta" : "address list", m->mask, n, n == 1 ? "" : "s", want,
	    mode == 2 ? (want == 1 ? "delta" : "deltas") : (want == 1 ? "address" : "addresses"),
	    v5 ? " and the immediate are" : want == 1 ? " is" : " are",
	    count_tokens(list), v5 ? " tokens" : "");
	return 0;
}

/* TOOL_TRACE_CORE=1 puts "sm_id warpid_sm" after the raw prefix: tell by
 * where the 8-digit mask is (t is the token after the warp). */
static int is_mask(const char *s)
{
	for (int i = 0; i < 8; i++)
		if (!ishex[(unsigned char)s[i]])
			return 0;
	return TOK_END(s[8]);
}

static int detect_core(parser *p, char *t)
{
	char *tok[8];
	int n = 0, li = p->c.lineinfo;
	for (char *s = skipsp(t); *s && n < 8; s = skipsp(tokend(s)))
		tok[n++] = s;
	if (n > 1 + li && is_mask(tok[1 + li]))
		return 0;
	if (n > 3 + li && is_mask(tok[3 + li]))
		return 1;
	return 0; /* the normal parse says what is wrong */
}

static int skip_regs(parser *p, char **ps, uint64_t n, const char *what)
{
	char *t = *ps;
	for (uint64_t i = 0; i < n; i++) {
		if (!*t) {
			bad(p, "line ends before %s register %llu of %llu", what,
			    (unsigned long long)i + 1, (unsigned long long)n);
			return 0;
		}
		t = skipsp(tokend(t));
	}
	*ps = t;
	return 1;
}

static void inst_line(parser *p, char *s)
{
	kstate *c = &p->c;
	char *t = s, *t0, b[64];
	uint64_t v, mw;
	int64_t imm;
	uint32_t block = c->block, warp = c->warp;
	uint16_t sm = 0;
	wslot *w = NULL;
	if (c->layout == L_UNKNOWN)
		c->layout = L_RAW;
	int raw = c->layout == L_RAW;
	if (!raw) {
		if (!c->have_insts) {
			bad(p, "instruction line outside a warp section (no 'warp = N' and "
			    "'insts = N' lines before it)");
			return;
		}
		c->nlines++;
	}
	if (raw || c->ver < 3) {
		/* ctaX ctaY ctaZ warp_in_cta: raw traces, and every line of a
		 * .traceg before tracer version 3. */
		static const char *const nm[4] = {"thread block x", "thread block y",
						  "thread block z", "warp number"};
		uint64_t x[4];
		for (int i = 0; i < 4; i++)
			if (!tok_u(&t, &x[i])) {
				badtok(p, t, nm[i]);
				return;
			}
		if (raw) {
			if (c->core < 0)
				c->core = detect_core(p, t);
			if (c->core) {
				if ((t0 = t, !tok_u(&t, &v) || v > 65535)) {
					badtok_hint(p, t0, "sm_id", " (TOOL_TRACE_CORE column)");
					return;
				}
				sm = (uint16_t)v;
				if (!tok_u(&t, &v)) {
					badtok_hint(p, t, "warpid_sm", " (TOOL_TRACE_CORE column)");
					return;
				}
			}
			if (x[0] >= c->k.grid[0] || x[1] >= c->k.grid[1] || x[2] >= c->k.grid[2]) {
				bad(p, "thread block (%llu,%llu,%llu) is outside the grid (%u,%u,%u)",
				    (unsigned long long)x[0], (unsigned long long)x[1],
				    (unsigned long long)x[2], c->k.grid[0], c->k.grid[1], c->k.grid[2]);
				return;
			}
			if (x[3] >= c->wpb) {
				bad(p, "warp %llu is outside the block (%u warps)",
				    (unsigned long long)x[3], c->wpb);
				return;
			}
			block = (uint32_t)((x[2] * c->k.grid[1] + x[1]) * c->k.grid[0] + x[0]);
			warp = (uint32_t)x[3];
		} else if (x[0] != c->bx || x[1] != c->by || x[2] != c->bz || x[3] != c->warp) {
			bad(p, "the line says thread block (%llu,%llu,%llu) warp %llu, but it is in "
			    "the section of thread block (%u,%u,%u) warp %u",
			    (unsigned long long)x[0], (unsigned long long)x[1],
			    (unsigned long long)x[2], (unsigned long long)x[3], c->bx, c->by, c->bz,
			    c->warp);
			return;
		}
	}
	if (c->lineinfo && !tok_u(&t, &v)) {
		badtok_hint(p, t, "line number", " (the header says -enable lineinfo = 1)");
		return;
	}
	if ((t0 = t, !tok_x(&t, &v) || v > UINT32_MAX)) {
		badtok(p, t0, "PC");
		return;
	}
	uint32_t pc = (uint32_t)v;
	if ((t0 = t, !tok_x(&t, &v) || v > UINT32_MAX)) {
		badtok(p, t0, "mask");
		return;
	}
	uint32_t mask = (uint32_t)v;
	if ((t0 = t, !tok_u(&t, &v) || v > MAX_REGS)) {
		badtok(p, t0, "dest_num");
		return;
	}
	if (!skip_regs(p, &t, v, "destination"))
		return;
	if (!(*t >= 'A' && *t <= 'Z')) {
		if (!*t)
			bad(p, "line ends before the opcode");
		else
			bad(p, "bad opcode %s (not a SASS mnemonic: is '-accelsim tracer "
			    "version' or '-enable lineinfo' right for this line?)", show(t, b, sizeof b));
		return;
	}
	char *op = t, *oe = tokend(t);
	size_t ol = (size_t)(oe - op);
	if (*oe) {
		*oe = 0;
		t = skipsp(oe + 1);
	} else {
		t = oe;
	}
	if ((t0 = t, !tok_u(&t, &v) || v > MAX_REGS)) {
		badtok(p, t0, "src_num");
		return;
	}
	if (!skip_regs(p, &t, v, "source"))
		return;
	if ((t0 = t, !tok_u(&t, &mw) || mw > 65535)) {
		badtok(p, t0, "mem_width");
		return;
	}
	if (mw == 0) {
		if (c->ver >= 5 && !tok_i(&t, &imm)) {
			badtok_hint(p, t, "immediate", V5_HINT);
			return;
		}
		if (*t && !starts(t, "STORE_DATA")) {
			bad(p, "unexpected %s after mem_width 0%s", show(t, b, sizeof b),
			    c->ver >= 5 ? " and the immediate"
					: " (lines of tracer versions before 5 end here; is "
					  "'-accelsim tracer version' right?)");
			return;
		}
		if (!raw)
			flush_pending(p);
		c->insts++;
		return;
	}
	minst m;
	m.pc = pc;
	m.mask = mask;
	if (!payload(p, t, &m))
		return;
	const opcache *o = opcode(p, op, ol);
	if (!o->mem) {
		/* Addresses, but no load, store or atomic (CCTL, ...). */
		if (!raw)
			flush_pending(p);
		c->insts++;
		return;
	}
	unsigned size = o->size ? o->size : (unsigned)mw;
	if (size > 255) {
		bad(p, "access width %u bytes (from the opcode %s) is more than 255", size, op);
		return;
	}
	m.op = o->op;
	m.space = o->space;
	m.flags = o->flags;
	m.size = (uint16_t)size;
	m.ldgsts = o->ldgsts;
	if (raw) {
		w = wt_get(p, (uint64_t)block << 16 | warp);
		if (m.ldgsts) {
			/* Two lines per execution; the first (shared) one goes. */
			w->half ^= 1;
			if (w->half)
				return;
		}
		commit(p, &m, &w->seq, block, warp, sm);
		return;
	}
	if (c->pending) {
		if (m.ldgsts && m.pc == c->pend.pc && m.mask == c->pend.mask) {
			c->pending = 0; /* a pair: the held first line goes */
			commit(p, &m, &c->seq, c->block, c->warp, 0);
			return;
		}
		flush_pending(p);
	}
	if (m.ldgsts) {
		c->pend = m;
		c->pending = 1;
		return;
	}
	commit(p, &m, &c->seq, c->block, c->warp, 0);
}

/* ---- a kernel trace file, in two passes --------------------------------- */

static void line(parser *p, char *s)
{
	kstate *c = &p->c;
	char *t = skipsp(s);
	if (!*t)
		return;
	if (*t == '-') {
		header_line(p, t);
		return;
	}
	if (c->state == S_NONE) {
		bad(p, "line before any kernel header (a kernel begins with '-kernel name = ...' "
		    "and the other '-' lines)");
		return;
	}
	if (c->state == S_HEADER)
		body_start(p);
	if (c->skip)
		return;
	if (*t == '#')
		marker(p, t);
	else if (starts(t, "thread block"))
		tb_line(p, t);
	else if (starts(t, "warp"))
		warp_line(p, t, 0);
	else if (starts(t, "insts"))
		warp_line(p, t, 1);
	else
		inst_line(p, t);
}

static void spill_write(parser *p, const char *s, size_t n)
{
	while (n) {
		ssize_t k = write(p->sfd, s, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			fatal(p, "%s: cannot copy the input to a temporary file: %s", p->name,
			      strerror(errno));
		s += k;
		n -= (size_t)k;
	}
}

static void spill_flush(parser *p)
{
	spill_write(p, p->sbuf, p->slen);
	p->slen = 0;
}

/* Keep a copy of a line of a pipe for the second pass. */
static void spill(parser *p, const char *s, size_t n)
{
	if (p->slen + n + 1 > SPILL_BUF) {
		spill_flush(p);
		if (n + 1 > SPILL_BUF) {
			spill_write(p, s, n);
			spill_write(p, "\n", 1);
			return;
		}
	}
	memcpy(p->sbuf + p->slen, s, n);
	p->sbuf[p->slen + n] = '\n';
	p->slen += n + 1;
}

static void spill_open(parser *p)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];
	if (!dir || !*dir)
		dir = "/tmp";
	snprintf(path, sizeof path, "%s/gc-import.XXXXXX", dir);
	p->sfd = mkstemp(path);
	if (p->sfd < 0)
		fatal(p, "%s: cannot create a temporary file in %s (a pipe is read twice): %s",
		      p->name, dir, strerror(errno));
	unlink(path);
	p->sbuf = malloc(SPILL_BUF);
	if (!p->sbuf)
		fatal(p, "out of memory");
}

static gc_lines *spill_reopen(parser *p)
{
	spill_flush(p);
	free(p->sbuf);
	p->sbuf = NULL;
	if (lseek(p->sfd, 0, SEEK_SET) < 0)
		fatal(p, "%s: cannot read the temporary copy: %s", p->name, strerror(errno));
	static const char *const via[2] = {"/dev/fd/%d", "/proc/self/fd/%d"};
	gc_lines *l = NULL;
	for (int i = 0; i < 2; i++) {
		char path[64];
		snprintf(path, sizeof path, via[i], p->sfd);
		gc_lines_close(l);
		l = gc_lines_open(path);
		if (!l)
			fatal(p, "out of memory");
		if (!gc_lines_failed(l))
			break;
	}
	if (gc_lines_failed(l))
		fatal(p, "%s: cannot read the temporary copy: %s", p->name, gc_lines_error(l));
	close(p->sfd);
	p->sfd = -1;
	return l;
}

static void run(parser *p, gc_lines *l)
{
	char *s;
	long n;
	p->in = l;
	p->ki = 0;
	p->c.state = S_NONE;
	while ((n = gc_lines_next(l, &s)) >= 0) {
		if (p->sbuf)
			spill(p, s, (size_t)n);
		line(p, s);
	}
	if (n == -2 || gc_lines_failed(l))
		fatal(p, "%s", gc_lines_error(l));
	end_kernel(p, 1);
}

static void set_key(gc_import *im, const char *key, const char *val)
{
	/* Only while the header is still unwritten; the first input wins. */
	if (!im->w && *val && !gc_header_get(&im->h, key))
		(void)gc_header_set(&im->h, key, val);
}

/* Read one kernel trace file (of any number of kernels); returns the
 * bytes of text it held. */
static uint64_t import_trace(gc_import *im, gc_lines *in)
{
	parser *p = calloc(1, sizeof *p);
	if (!p)
		im->fatal(im, "out of memory");
	p->im = im;
	p->sfd = -1;
	snprintf(p->name, sizeof p->name, "%s", gc_lines_name(in));
	int regular = gc_lines_is_regular(in);
	if (!regular)
		spill_open(p);
	p->pass = 1;
	run(p, in);
	uint64_t bytes = gc_lines_bytes(in);
	set_key(im, "accelsim_input", p->first_layout == L_RAW ? "trace" : "traceg");
	if (p->first_seen) {
		set_key(im, "accelsim_tracer_version", p->first_ver);
		set_key(im, "accelsim_nvbit_version", p->first_nvbit);
	}
	gc_lines *l = in;
	if (regular) {
		if (gc_lines_rewind(in) < 0)
			fatal(p, "%s: cannot read it a second time%s%s", p->name,
			      gc_lines_failed(in) ? ": " : "", gc_lines_failed(in) ? gc_lines_error(in) : "");
	} else {
		l = spill_reopen(p);
	}
	p->pass = 2;
	run(p, l);
	if (p->ki != p->nk)
		fatal(p, "%s: changed while it was read (fewer kernels the second time)", p->name);
	if (l != in)
		gc_lines_close(l);
	free(p->kc);
	free(p->wt);
	free(p);
	return bytes;
}

/* ---- detection ---------------------------------------------------------- */

/* A kernelslist line that names a kernel trace: a file name (no comma)
 * that starts like the tracer's "kernel-" or ends like a trace. */
static int kernel_entry(const char *s, size_t n)
{
	static const char *const suf[] = {".traceg", ".trace", ".traceg.xz", ".trace.xz",
					  ".traceg.gz", ".trace.gz"};
	if (memchr(s, ',', n))
		return 0;
	if (n > 7 && memcmp(s, "kernel-", 7) == 0)
		return 1;
	for (size_t i = 0; i < sizeof suf / sizeof suf[0]; i++) {
		size_t k = strlen(suf[i]);
		if (n > k && memcmp(s + n - k, suf[i], k) == 0)
			return 1;
	}
	return 0;
}

/* "Word," at the start: a command of the list (MemcpyHtoD, cudaMalloc ...). */
static int command_entry(const char *s, size_t n)
{
	size_t i = 0;
	while (i < n && ((s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= 'a' && s[i] <= 'z') ||
			 (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
		i++;
	return i > 0 && i < n && s[i] == ',';
}

static int header_key(const char *s, size_t n, const char *key)
{
	size_t k = strlen(key), i;
	if (n < k + 1 || s[0] != '-' || memcmp(s + 1, key, k) != 0)
		return 0;
	for (i = k + 1; i < n && IS_SP(s[i]); i++)
		;
	return i < n && s[i] == '=';
}

/* What the first bytes hold: K_TRACE (a '-' header naming a kernel),
 * K_LIST (text lines naming kernel traces or MemcpyHtoD, more of them
 * than unknown lines; "Word,..." commands count for neither), or K_NONE. */
static int sniff(const char *h, size_t len)
{
	const char *p = h, *end = h + len;
	int header = 1, dashes = 0, list = 1, hits = 0, unknown = 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl && len >= 65536)
			break; /* a cut line at the end of the window */
		const char *e = nl ? nl : end, *a = p;
		p = nl ? nl + 1 : end;
		while (a < e && (IS_SP(*a)))
			a++;
		while (e > a && (IS_SP(e[-1]) || e[-1] == '\r'))
			e--;
		size_t n = (size_t)(e - a);
		if (!n)
			continue;
		if (header) {
			if (a[0] == '-' && dashes < 64) {
				dashes++;
				if (header_key(a, n, "kernel name"))
					return K_TRACE;
			} else {
				header = 0;
			}
		}
		if (list) {
			for (size_t i = 0; i < n; i++)
				if ((unsigned char)a[i] < 0x20 && a[i] != '\t')
					list = 0;
			if (n > 4096)
				list = 0;
			else if (kernel_entry(a, n) || (n > 11 && memcmp(a, "MemcpyHtoD,", 11) == 0))
				hits++;
			else if (!command_entry(a, n))
				unknown++;
		}
		if (!header && !list)
			break;
	}
	return list && hits > unknown ? K_LIST : K_NONE;
}

int gc_accelsim_probe(const char *head, size_t len, const char *path)
{
	(void)path;
	switch (sniff(head, len)) {
	case K_TRACE:
		return 90;
	case K_LIST:
		return 80;
	}
	return 0;
}

/* ---- kernelslist -------------------------------------------------------- */

typedef struct lentry {
	char *name;
	char *path;     /* resolved; NULL when missing (skipped with --lenient) */
	uint64_t line;
} lentry;

static int exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

/* dir/name, or the .xz variant (with or without) when only that exists. */
static char *resolve(const char *dir, const char *name)
{
	size_t dl = name[0] == '/' || strcmp(dir, ".") == 0 ? 0 : strlen(dir), nl = strlen(name);
	char *path = malloc(dl + nl + 5);
	if (!path)
		return NULL;
	if (dl)
		sprintf(path, "%s/%s", dir, name);
	else
		strcpy(path, name);
	if (!exists(path)) {
		size_t pl = strlen(path);
		if (pl > 3 && strcmp(path + pl - 3, ".xz") == 0) {
			path[pl - 3] = 0;
			if (!exists(path))
				path[pl - 3] = '.';
		} else {
			strcpy(path + pl, ".xz");
			if (!exists(path))
				path[pl] = 0;
		}
	}
	return path;
}

static void import_list(gc_import *im, gc_lines *in)
{
	char listname[256], dir[256];
	snprintf(listname, sizeof listname, "%s", gc_lines_name(in));
	snprintf(dir, sizeof dir, "%s", listname);
	char *slash = strrchr(dir, '/');
	if (!slash)
		strcpy(dir, ".");
	else if (slash == dir)
		dir[1] = 0;
	else
		*slash = 0;
	lentry *ent = NULL;
	size_t n = 0, cap = 0;
	uint64_t memcpys = 0, membytes = 0, ignored = 0;
	char *s;
	long len;
	while ((len = gc_lines_next(in, &s)) >= 0) {
		char *a = skipsp(s);
		rtrim(a);
		size_t k = strlen(a);
		if (!k)
			continue;
		if (k > 11 && memcmp(a, "MemcpyHtoD,", 11) == 0) {
			/* MemcpyHtoD,0x<device address>,<bytes> */
			char *q = a + 11;
			uint64_t addr, bytes;
			const char *e;
			if (gc_parse_hex(q, &e, &addr) && *e == ',' &&
			    (q = (char *)e + 1, tok_u(&q, &bytes)) && !*q) {
				memcpys++;
				membytes += bytes;
			} else {
				ignored++;
			}
		} else if (kernel_entry(a, k)) {
			if (n == cap) {
				cap = cap ? 2 * cap : 64;
				lentry *ne = realloc(ent, cap * sizeof *ne);
				if (!ne)
					im->fatal(im, "out of memory");
				ent = ne;
			}
			ent[n].name = strdup(a);
			ent[n].line = gc_lines_number(in);
			if (!ent[n].name)
				im->fatal(im, "out of memory");
			n++;
		} else {
			ignored++; /* other commands (cudaMalloc, ...), as Accel-Sim does */
		}
	}
	if (len == -2 || gc_lines_failed(in))
		im->fatal(im, gc_lines_error(in));
	char num[32];
	set_key(im, "accelsim_input", "kernelslist");
	snprintf(num, sizeof num, "%llu", (unsigned long long)memcpys);
	set_key(im, "accelsim_memcpy_htod", num);
	snprintf(num, sizeof num, "%llu", (unsigned long long)membytes);
	set_key(im, "accelsim_memcpy_htod_bytes", num);
	snprintf(num, sizeof num, "%llu", (unsigned long long)ignored);
	set_key(im, "accelsim_list_ignored", num);
	/* Every named file must exist before anything is written. */
	for (size_t i = 0; i < n; i++) {
		ent[i].path = resolve(dir, ent[i].name);
		if (!ent[i].path)
			im->fatal(im, "out of memory");
		if (!exists(ent[i].path)) {
			gc_import_bad_at(im, listname, ent[i].line, "%s: %s", ent[i].path,
					 strerror(errno));
			free(ent[i].path);
			ent[i].path = NULL;
		}
	}
	for (size_t i = 0; i < n; i++) {
		char *path = ent[i].path;
		if (!path) {
			free(ent[i].name);
			continue;
		}
		gc_lines *l = gc_lines_open(path);
		if (!l)
			im->fatal(im, "out of memory");
		size_t hl;
		const char *h = gc_lines_failed(l) ? NULL : gc_lines_peek(l, &hl);
		if (gc_lines_failed(l))
			gc_import_bad_at(im, listname, ent[i].line, "%s", gc_lines_error(l));
		else if (sniff(h, hl) != K_TRACE)
			gc_import_bad_at(im, gc_lines_name(l), 1, "not an Accel-Sim kernel trace "
					 "(no '-kernel name = ...' header)");
		else {
			import_trace(im, l);
			gc_import_text(im, l);
		}
		gc_lines_close(l);
		free(path);
		free(ent[i].name);
	}
	free(ent);
}

/* ---- entry -------------------------------------------------------------- */

int gc_accelsim_import(gc_import *im, gc_lines *in)
{
	size_t len;
	const char *h = gc_lines_peek(in, &len);
	if (gc_lines_failed(in))
		return 0; /* gc-import reports it */
	switch (sniff(h, len)) {
	case K_LIST:
		import_list(im, in);
		break;
	case K_TRACE:
		import_trace(im, in);
		break;
	default:
		gc_import_bad_at(im, gc_lines_name(in), 1, "neither an Accel-Sim kernel trace "
				 "('-kernel name = ...' header) nor a kernelslist");
	}
	return 0;
}
