/*
 * gc-gen - synthetic kernels whose access patterns are known exactly.
 *
 * Reads: nothing but its options.
 * Writes: one access stream (gc-stream(5)), one record per active lane of
 * each memory instruction, in per-warp program order (block by block, warp
 * by warp, each warp's instructions in order), unscheduled: sm 0, time 0.
 * Every address is computable by hand from gc-gen(1).  With --intervals
 * every record also carries the compute field (stream/format.h, GC_CF_*):
 * each kernel's warp runs a fixed mix of non-memory instructions around
 * its memory ones (the tables under "the compute mix"), timed with the
 * GPU's opcode latencies.
 */
#include "base/rng.h"
#include "config/gpu.h"
#include "prog/gpuopt.h"
#include "prog/prog.h"
#include "report/json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WARP_MAX 64                   /* largest --warp-size */
#define BLOCK_THREADS_MAX 1024        /* CUDA's limit on threads per block */
#define ALIGN 256                     /* cudaMalloc's alignment */
#define DEFAULT_BASE UINT64_C(0x10000000)
#define ADDR_LIMIT (UINT64_C(1) << 48) /* arrays end at or below this */
#define GRID_Y_MAX 65535
#define REGS 32                       /* registers per thread, every kernel */
#define NARRAYS 6
#define DENSE_CELLS_MAX (UINT64_C(1) << 32) /* spmv --nnz density: rows x cols */
#define ROW_MAX (UINT64_C(1) << 20)           /* spmv: longest row (memory) */

/* Options a kernel may use beyond the shared ones (-n, --block, -e, --seed,
 * --base, --warp-size, --kernels). */
enum {
	U_WIDTH = 1 << 0,
	U_HEIGHT = 1 << 1,
	U_INNER = 1 << 2,
	U_LOADS = 1 << 3,
	U_STRIDE = 1 << 4,
	U_NNZ = 1 << 5,
	U_GS = 1 << 6,
	U_ITERS = 1 << 7,
};

struct gen;

/* The threads of one warp that execute the kernel body: lane numbers
 * ascending, with their global coordinates (1-D kernels: x is the global
 * thread id, y is 0). */
struct warp {
	int n;
	uint8_t lane[WARP_MAX];
	uint64_t x[WARP_MAX], y[WARP_MAX];
};

struct kdef {
	const char *name;
	const char *what;
	unsigned uses;       /* U_* */
	int dims;            /* block dimensions: 1 or 2 */
	uint64_t n;          /* default -n */
	int one_block;       /* default block: all threads (up to 1024) */
	void (*setup)(struct gen *);
	void (*warp)(struct gen *, const struct warp *);
};

struct cmdline {
	gc_common c;
	const char *kernel;
	int list;
	unsigned given;      /* U_* seen on the command line */
	int have_n, have_block, have_ws;
	uint64_t n, width, height, inner, loads, stride, nnz, seed, base, kernels, gs, iters;
	unsigned bx, by, elem, ws;
	int intervals;       /* --intervals */
	gc_gpu_oplat oplat;  /* --op-latency */
	int block2d;         /* --block had the BXxBY form with BY > 1 */
	double density;      /* spmv --nnz D; 0 when --nnz is a count */
};

struct gen {
	const struct kdef *k;
	/* parameters */
	uint64_t n, w, h, inner, loads, stride, nnz, seed, gs, iters;
	double density;
	unsigned bx, by, ws, elem;
	/* geometry: the grid covers tw x th threads; threads with xlo <= x < xhi
	 * and ylo <= y < yhi run the body, the rest skip it. */
	uint64_t tw, th, gx, gy;
	uint64_t xlo, xhi, ylo, yhi;
	/* arrays, in layout order */
	int narr;
	const char *aname[NARRAYS];
	uint64_t acount[NARRAYS], abase[NARRAYS];
	unsigned asize[NARRAYS];
	uint64_t end;        /* first byte after the last array */
	/* emission */
	int counting;        /* count instructions, write nothing */
	int progress;
	gc_writer *out;
	gc_rec r;
	uint64_t ninst, nrec, nload, nstore, total;
	/* --intervals: the GPU's latencies, the warp being timed, and the
	 * kernel's non-memory and thread instructions so far */
	int intervals;
	unsigned lat[GC_NOPS], init[GC_NOPS];
	struct ivwarp {
		uint64_t next;             /* earliest issue of the next instruction */
		uint64_t free[GC_NOPS];    /* earliest issue each unit allows */
		uint64_t ready[32];        /* when each register's value is ready */
		uint64_t insts, waits;     /* non-memory instructions, memory waits */
		uint32_t loaded;           /* registers a load wrote, not yet read */
	} iv;
	uint64_t nonmem, thread_insts;
	/* spmv: the running row pointer, one warp's rows */
	uint64_t rng, rowptr, nnz_total;
	uint32_t *cols;
	size_t ncols, capcols;
	uint64_t *set;
	size_t setcap;
};

/* Array indices of each kernel, in layout order. */
enum { A_A, A_B, A_C };
enum { SP_ROWPTR, SP_COL, SP_VAL, SP_X, SP_Y };
enum { G_IDX, G_A, G_B };
enum { M_INPUT };

static const char help[] =
	"Usage: gc-gen [options] KERNEL\n"
	"Write the access stream of a synthetic GPU kernel (see --list and gc-gen(1)).\n"
	"\n"
	"  -n, --size N         problem size: elements, threads or matrix order,\n"
	"                       per kernel (default: per kernel)\n"
	"      --width W        columns of 2-D data (default: N)\n"
	"      --height H       rows of 2-D data (default: N)\n"
	"      --inner K        matmul: inner dimension (default: N)\n"
	"      --block B|BXxBY  threads per block (default: per kernel)\n"
	"  -e, --elem BYTES     element size: 1, 2, 4, 8 or 16 (default 4)\n"
	"      --seed S         seed of spmv and gather (default 1)\n"
	"      --base ADDR      address of the first array (default 0x10000000)\n"
	"      --warp-size W    threads per warp, 1 to 64 (default 32; table2: 1)\n"
	"      --loads N        strided: loads per loop (default 128)\n"
	"      --stride BYTES   strided: bytes from one load to the next (default 4096)\n"
	"      --nnz N|D        spmv: non-zeros per row, or a density 0<D<=1 (default 8)\n"
	"      --gs GS          mdm: grid stride, elements between threads (default 32)\n"
	"      --iters N        mdm: loop iterations, loads per thread (default 32)\n"
	"      --intervals      a compute field on every record: the warp's non-memory\n"
	"                       instructions, issue cycles and memory waits before it,\n"
	"                       timed with the --gpu preset's opcode latencies\n"
	"      --op-latency CLASS=LAT[,INIT]  --intervals: the latency (and initiation\n"
	"                       interval) of opcode class int, sp, dp, sfu, tensor or\n"
	"                       branch instead of the GPU's; repeatable\n"
	"      --kernels K      emit the kernel K times, ids 1 to K (default 1)\n"
	"      --list           list the kernels and exit\n"
	"  -o, --output FILE    write the stream to FILE (default: stdout)\n"
	"  -z, --gzip           write gzip-compressed output\n"
	"      --force          write binary output to a terminal\n"
	"      --emit WHAT      accesses (default): write the stream; none: no stream,\n"
	"                       the report on stdout (or -o FILE) instead\n"
	"      --report FILE    write the report (-v's) to FILE\n"
	"      --stats FILE     write a JSON summary to FILE\n"
	"      --gpu NAME|FILE  GPU preset (recorded in the header)\n"
	"      --list-gpus      list the GPU presets and exit\n"
	"      --progress       show progress on a terminal\n"
	"  -q, --quiet          no warnings\n"
	"  -v, --verbose        print the report (array layout, summary) on stderr\n"
	"  -h, --help           show this help and exit\n"
	"  -V, --version        show versions and exit\n";

/* ---- emission --------------------------------------------------------- */

static uint64_t mul_sat(uint64_t a, uint64_t b)
{
	if (a && b > UINT64_MAX / a)
		return UINT64_MAX;
	return a * b;
}

static uint64_t add_sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static void die_write(struct gen *g)
{
	char msg[700];
	snprintf(msg, sizeof msg, "%s", gc_writer_error(g->out));
	gc_writer_free(g->out);
	gc_die(GC_EXIT_DATA, "%s", msg);
}

/*
 * One warp instruction: lane[i] (i < m) accesses base + idx[i] * scale,
 * `size` bytes.  No active lane, no instruction.
 */
static void emit(struct gen *g, int m, const uint8_t *lane, uint8_t op, uint32_t pc,
		 uint64_t base, uint64_t scale, unsigned size, const uint64_t *idx)
{
	if (m == 0)
		return;
	g->ninst++;
	g->nrec += (uint64_t)m;
	if (op == GC_LOAD)
		g->nload += (uint64_t)m;
	else
		g->nstore += (uint64_t)m;
	if (g->counting)
		return;
	gc_rec *r = &g->r;
	r->op = op;
	r->pc = pc;
	r->size = (uint16_t)size;
	for (int i = 0; i < m; i++) {
		r->lane = lane[i];
		r->addr = base + idx[i] * scale;
		if (gc_write(g->out, r) < 0)
			die_write(g);
	}
	r->seq++;
}

/* Every thread of the warp accesses array a at idx[i]. */
static void emit_all(struct gen *g, const struct warp *wp, uint8_t op, uint32_t pc, int a,
		     const uint64_t *idx)
{
	emit(g, wp->n, wp->lane, op, pc, g->abase[a], g->asize[a], g->asize[a], idx);
}

/* ---- the compute mix (--intervals) ------------------------------------ */

/*
 * What a compiler emits around each memory instruction of a kernel, as
 * SASS for sm_70 would have it (gc-gen(1), COMPUTE MIX): one entry per warp
 * instruction, its unit, the register it writes and those it reads.  R0
 * to R23 are registers, IV_P0 a predicate; R0 holds the thread's global x,
 * R2 its y (2-D), R3 threadIdx.x.  64-bit pointers are named by their low
 * register.  Loops are not unrolled.
 */
#define IV_NONE 0xff
#define IV_P0 24
#define IV_MEM GC_NOPS       /* a memory instruction (the record's) */
#define IV_ARITH (GC_NOPS + 1) /* the element's arithmetic: dp for -e 8, else sp */

struct ivi {
	uint8_t cls, dst, src[3];
};

#define IV_OP(c, d, a, b, e) {c, d, {a, b, e}}
#define I0(d) IV_OP(GC_OP_INT, d, IV_NONE, IV_NONE, IV_NONE)       /* MOV, S2R */
#define I1(d, a) IV_OP(GC_OP_INT, d, a, IV_NONE, IV_NONE)          /* IADD3, ISETP, IMAD.WIDE */
#define I2(d, a, b) IV_OP(GC_OP_INT, d, a, b, IV_NONE)             /* IMAD */
#define F2(d, a, b) IV_OP(IV_ARITH, d, a, b, IV_NONE)              /* FADD, FMUL */
#define F3(d, a, b, c) IV_OP(IV_ARITH, d, a, b, c)                 /* FFMA */
#define BR(a) IV_OP(GC_OP_BRANCH, IV_NONE, a, IV_NONE, IV_NONE)    /* @P0 BRA, @P0 EXIT */
#define LD(d, a) IV_OP(IV_MEM, d, a, IV_NONE, IV_NONE)             /* LDG, LDS */
#define ST(a, b) IV_OP(IV_MEM, IV_NONE, a, b, IV_NONE)             /* STG, STS */

/* MOV R1, c[0x0][0x28]; S2R R0, SR_CTAID.X; S2R R3, SR_TID.X;
 * IMAD R0, R0, c[blockDim.x], R3; ISETP.GE P0, R0, c[n]; @P0 EXIT */
#define PRO_1D I0(1), I0(0), I0(3), I2(0, 0, 3), I1(IV_P0, 0), BR(IV_P0)
/* the same in x and y (S2R R2, SR_CTAID.Y; S2R R5, SR_TID.Y; IMAD R2), the
 * guard over both */
#define PRO_2D                                                                                \
	I0(1), I0(0), I0(3), I0(2), I0(5), I2(0, 0, 3), I2(2, 2, 5), I1(IV_P0, 0),          \
		I2(IV_P0, 2, IV_P0), BR(IV_P0)
/* a loop's end: the counter, the compare, the branch back */
#define LOOP_END(i) I1(i, i), I1(IV_P0, i), BR(IV_P0)

static const struct ivi iv_exit[] = {BR(IV_NONE)}; /* EXIT */

/* Issue instructions ins[0..n) for a warp with `lanes` active lanes.  A
 * memory instruction takes an issue cycle and makes its destination ready
 * at once (the memory's wait is the performance model's); its compute
 * field goes to the records that follow.  An instruction issues one cycle
 * after the one before it, when its unit takes it (the initiation
 * interval) and when the registers it reads are ready, whichever is
 * latest. */
static void iv_run(struct gen *g, const struct ivi *ins, size_t n, int lanes)
{
	struct ivwarp *w = &g->iv;
	if (!g->intervals)
		return;
	for (size_t k = 0; k < n; k++) {
		const struct ivi *in = &ins[k];
		int cls = in->cls == IV_ARITH ? (g->elem == 8 ? GC_OP_DP : GC_OP_SP) : in->cls;
		uint64_t t = w->next;
		int first = 0;
		if (cls != IV_MEM && w->free[cls] > t)
			t = w->free[cls];
		for (int i = 0; i < 3; i++) {
			unsigned r = in->src[i];
			if (r == IV_NONE)
				continue;
			if (w->ready[r] > t)
				t = w->ready[r];
			if (w->loaded >> r & 1) {
				first = 1;
				w->loaded &= ~(UINT32_C(1) << r);
			}
		}
		if (cls == IV_MEM)
			g->r.compute = GC_CF_MAKE(w->insts, t, w->waits);
		w->waits += (uint64_t)first;
		w->next = t + 1;
		g->thread_insts += (uint64_t)lanes;
		if (cls == IV_MEM) {
			if (in->dst != IV_NONE) {
				w->ready[in->dst] = t;
				w->loaded |= UINT32_C(1) << in->dst;
			}
			continue;
		}
		w->insts++;
		g->nonmem++;
		w->free[cls] = t + g->init[cls];
		if (in->dst != IV_NONE) {
			w->ready[in->dst] = t + g->lat[cls];
			w->loaded &= ~(UINT32_C(1) << in->dst);
		}
	}
}

#define IV(g, ins, lanes) iv_run(g, ins, sizeof ins / sizeof ins[0], lanes)

/* ---- the kernels ------------------------------------------------------ */

static void array(struct gen *g, const char *name, uint64_t count, unsigned size)
{
	g->aname[g->narr] = name;
	g->acount[g->narr] = count;
	g->asize[g->narr] = size;
	g->narr++;
}

/* A 1-D kernel over `threads` threads, all of which run the body. */
static void threads_1d(struct gen *g, uint64_t threads)
{
	g->tw = g->xhi = threads;
	g->th = g->yhi = 1;
}

static void threads_2d(struct gen *g, uint64_t w, uint64_t h)
{
	g->tw = g->xhi = w;
	g->th = g->yhi = h;
}

/* vecadd: C[i] = A[i] + B[i]. */
static void vecadd_setup(struct gen *g)
{
	threads_1d(g, g->n);
	array(g, "A", g->n, g->elem);
	array(g, "B", g->n, g->elem);
	array(g, "C", g->n, g->elem);
}

/* IMAD.WIDE R2 (&A[i]), R4 (&B[i]); LDG R2; LDG R5; IMAD.WIDE R6 (&C[i]);
 * FADD R9, R2, R5; STG [R6], R9 */
static const struct ivi vecadd_1[] = {PRO_1D, I1(2, 0), I1(4, 0), LD(2, 2)};
static const struct ivi vecadd_2[] = {LD(5, 4)};
static const struct ivi vecadd_3[] = {I1(6, 0), F2(9, 2, 5), ST(6, 9)};

static void vecadd_warp(struct gen *g, const struct warp *wp)
{
	IV(g, vecadd_1, wp->n);
	emit_all(g, wp, GC_LOAD, 0x10, A_A, wp->x);
	IV(g, vecadd_2, wp->n);
	emit_all(g, wp, GC_LOAD, 0x20, A_B, wp->x);
	IV(g, vecadd_3, wp->n);
	emit_all(g, wp, GC_STORE, 0x30, A_C, wp->x);
}

/* copy: B[i] = A[i]. */
static void copy_setup(struct gen *g)
{
	threads_1d(g, g->n);
	array(g, "A", g->n, g->elem);
	array(g, "B", g->n, g->elem);
}

/* IMAD.WIDE R2 (&A[i]); LDG R2; IMAD.WIDE R4 (&B[i]); STG [R4], R2 */
static const struct ivi copy_1[] = {PRO_1D, I1(2, 0), LD(2, 2)};
static const struct ivi copy_2[] = {I1(4, 0), ST(4, 2)};

static void copy_warp(struct gen *g, const struct warp *wp)
{
	IV(g, copy_1, wp->n);
	emit_all(g, wp, GC_LOAD, 0x10, A_A, wp->x);
	IV(g, copy_2, wp->n);
	emit_all(g, wp, GC_STORE, 0x20, A_B, wp->x);
}

/* rowcopy (seed 000 Fig. 3): thread t copies row t of the H x W matrix. */
static void rowcopy_setup(struct gen *g)
{
	threads_1d(g, g->h);
	array(g, "A", mul_sat(g->h, g->w), g->elem);
	array(g, "B", mul_sat(g->h, g->w), g->elem);
}

/* rowcopy: IMAD R2 (t * W); IMAD.WIDE R4 (&A[t][0]), R6 (&B[t][0]);
 * MOV R8 (j); then W times LDG R9, [R4]; STG [R6], R9; IADD3 R4, R6 (the
 * pointers), R8; ISETP; BRA.  colcopy: IMAD.WIDE R4 (&A[0][t]), R6; the
 * same loop, the pointers stepping a row. */
static const struct ivi rowcopy_pro[] = {PRO_1D, I1(2, 0), I1(4, 2), I1(6, 2), I0(8)};
static const struct ivi colcopy_pro[] = {PRO_1D, I1(4, 0), I1(6, 0), I0(8)};
static const struct ivi copyloop_ld[] = {LD(9, 4)};
static const struct ivi copyloop_st[] = {ST(6, 9)};
static const struct ivi copyloop_next[] = {I1(4, 4), I1(6, 6), LOOP_END(8)};

static void rowcopy_warp(struct gen *g, const struct warp *wp)
{
	uint64_t idx[WARP_MAX];
	for (int i = 0; i < wp->n; i++)
		idx[i] = wp->x[i] * g->w;
	IV(g, rowcopy_pro, wp->n);
	for (uint64_t j = 0; j < g->w; j++) {
		IV(g, copyloop_ld, wp->n);
		emit_all(g, wp, GC_LOAD, 0x10, A_A, idx);
		IV(g, copyloop_st, wp->n);
		emit_all(g, wp, GC_STORE, 0x20, A_B, idx);
		IV(g, copyloop_next, wp->n);
		for (int i = 0; i < wp->n; i++)
			idx[i]++;
	}
}

/* colcopy: thread t copies column t, row by row (coalesced). */
static void colcopy_setup(struct gen *g)
{
	threads_1d(g, g->w);
	array(g, "A", mul_sat(g->h, g->w), g->elem);
	array(g, "B", mul_sat(g->h, g->w), g->elem);
}

static void colcopy_warp(struct gen *g, const struct warp *wp)
{
	uint64_t idx[WARP_MAX];
	for (int i = 0; i < wp->n; i++)
		idx[i] = wp->x[i];
	IV(g, colcopy_pro, wp->n);
	for (uint64_t row = 0; row < g->h; row++) {
		IV(g, copyloop_ld, wp->n);
		emit_all(g, wp, GC_LOAD, 0x10, A_A, idx);
		IV(g, copyloop_st, wp->n);
		emit_all(g, wp, GC_STORE, 0x20, A_B, idx);
		IV(g, copyloop_next, wp->n);
		for (int i = 0; i < wp->n; i++)
			idx[i] += g->w;
	}
}

/* matmul: C (H x W) = A (H x K) x B (K x W), one thread per element of C. */
static void matmul_setup(struct gen *g)
{
	threads_2d(g, g->w, g->h);
	array(g, "A", mul_sat(g->h, g->inner), g->elem);
	array(g, "B", mul_sat(g->inner, g->w), g->elem);
	array(g, "C", mul_sat(g->h, g->w), g->elem);
}

/* IMAD R4 (y * K); IMAD.WIDE R6 (&A[y][0]), R8 (&B[0][x]); MOV R10 (sum),
 * R11 (k); K times LDG R12, [R6]; LDG R13, [R8]; FFMA R10, R12, R13, R10;
 * IADD3 R6, R8, R11; ISETP; BRA; then IMAD R14 (y * W + x); IMAD.WIDE R14;
 * STG [R14], R10 */
static const struct ivi matmul_pro[] = {PRO_2D, I1(4, 2), I1(6, 4), I1(8, 0), I0(10), I0(11)};
static const struct ivi matmul_lda[] = {LD(12, 6)};
static const struct ivi matmul_ldb[] = {LD(13, 8)};
static const struct ivi matmul_next[] = {F3(10, 12, 13, 10), I1(6, 6), I1(8, 8), LOOP_END(11)};
static const struct ivi matmul_st[] = {I2(14, 2, 0), I1(14, 14), ST(14, 10)};

static void matmul_warp(struct gen *g, const struct warp *wp)
{
	uint64_t ia[WARP_MAX], ib[WARP_MAX], ic[WARP_MAX];
	for (int i = 0; i < wp->n; i++) {
		ia[i] = wp->y[i] * g->inner;
		ib[i] = wp->x[i];
		ic[i] = wp->y[i] * g->w + wp->x[i];
	}
	IV(g, matmul_pro, wp->n);
	for (uint64_t k = 0; k < g->inner; k++) {
		IV(g, matmul_lda, wp->n);
		emit_all(g, wp, GC_LOAD, 0x10, A_A, ia);
		IV(g, matmul_ldb, wp->n);
		emit_all(g, wp, GC_LOAD, 0x20, A_B, ib);
		IV(g, matmul_next, wp->n);
		for (int i = 0; i < wp->n; i++) {
			ia[i]++;
			ib[i] += g->w;
		}
	}
	IV(g, matmul_st, wp->n);
	emit_all(g, wp, GC_STORE, 0x30, A_C, ic);
}

/* transpose: out[x][y] = in[y][x]; in is H x W, out is W x H. */
static void transpose_setup(struct gen *g)
{
	threads_2d(g, g->w, g->h);
	array(g, "in", mul_sat(g->h, g->w), g->elem);
	array(g, "out", mul_sat(g->h, g->w), g->elem);
}

/* IMAD R4 (y * W + x); IMAD.WIDE R4; LDG R6, [R4]; IMAD R7 (x * H + y);
 * IMAD.WIDE R8; STG [R8], R6 */
static const struct ivi transpose_1[] = {PRO_2D, I2(4, 2, 0), I1(4, 4), LD(6, 4)};
static const struct ivi transpose_2[] = {I2(7, 0, 2), I1(8, 7), ST(8, 6)};

static void transpose_warp(struct gen *g, const struct warp *wp)
{
	uint64_t ii[WARP_MAX], io[WARP_MAX];
	for (int i = 0; i < wp->n; i++) {
		ii[i] = wp->y[i] * g->w + wp->x[i];
		io[i] = wp->x[i] * g->h + wp->y[i];
	}
	IV(g, transpose_1, wp->n);
	emit_all(g, wp, GC_LOAD, 0x10, A_A, ii);
	IV(g, transpose_2, wp->n);
	emit_all(g, wp, GC_STORE, 0x20, A_B, io);
}

/* stencil2d: 5-point on H x W; the boundary threads skip the body. */
static void stencil2d_setup(struct gen *g)
{
	threads_2d(g, g->w, g->h);
	g->xlo = 1;
	g->ylo = 1;
	g->xhi = g->w > 1 ? g->w - 1 : 0;
	g->yhi = g->h > 1 ? g->h - 1 : 0;
	array(g, "A", mul_sat(g->h, g->w), g->elem);
	array(g, "B", mul_sat(g->h, g->w), g->elem);
}

/* The 2-D prologue with a guard of four compares (1 <= x < W-1, 1 <= y <
 * H-1); IMAD R4 (c = y * W + x); IMAD.WIDE R6 (&A[c]); IMAD.WIDE R10 (R6 -
 * W); LDG R8, [R10]; LDG R9, [R6-4]; LDG R11, [R6]; LDG R12, [R6+4];
 * IMAD.WIDE R14 (R6 + W); LDG R13, [R14]; FADD R8 four times (R9, R11,
 * R12, R13); FMUL R8 (by 0.2); IMAD.WIDE R16 (&B[c]); STG [R16], R8 */
static const struct ivi stencil_n[] = {
	I0(1), I0(0), I0(3), I0(2), I0(5), I2(0, 0, 3), I2(2, 2, 5), I1(IV_P0, 0),
	I2(IV_P0, 0, IV_P0), I2(IV_P0, 2, IV_P0), I2(IV_P0, 2, IV_P0), BR(IV_P0),
	I2(4, 2, 0), I1(6, 4), I1(10, 6), LD(8, 10)};
static const struct ivi stencil_w[] = {LD(9, 6)};
static const struct ivi stencil_c[] = {LD(11, 6)};
static const struct ivi stencil_e[] = {LD(12, 6)};
static const struct ivi stencil_s[] = {I1(14, 6), LD(13, 14)};
static const struct ivi stencil_st[] = {F2(8, 8, 9), F2(8, 8, 11), F2(8, 8, 12), F2(8, 8, 13),
					F2(8, 8, IV_NONE), I1(16, 4), ST(16, 8)};

static void stencil2d_warp(struct gen *g, const struct warp *wp)
{
	uint64_t c[WARP_MAX], t[WARP_MAX];
	for (int i = 0; i < wp->n; i++)
		c[i] = wp->y[i] * g->w + wp->x[i];
	for (int i = 0; i < wp->n; i++)
		t[i] = c[i] - g->w;
	IV(g, stencil_n, wp->n);
	emit_all(g, wp, GC_LOAD, 0x10, A_A, t);      /* north A[y-1][x] */
	for (int i = 0; i < wp->n; i++)
		t[i] = c[i] - 1;
	IV(g, stencil_w, wp->n);
	emit_all(g, wp, GC_LOAD, 0x20, A_A, t);      /* west A[y][x-1] */
	IV(g, stencil_c, wp->n);
	emit_all(g, wp, GC_LOAD, 0x30, A_A, c);      /* centre A[y][x] */
	for (int i = 0; i < wp->n; i++)
		t[i] = c[i] + 1;
	IV(g, stencil_e, wp->n);
	emit_all(g, wp, GC_LOAD, 0x40, A_A, t);      /* east A[y][x+1] */
	for (int i = 0; i < wp->n; i++)
		t[i] = c[i] + g->w;
	IV(g, stencil_s, wp->n);
	emit_all(g, wp, GC_LOAD, 0x50, A_A, t);      /* south A[y+1][x] */
	IV(g, stencil_st, wp->n);
	emit_all(g, wp, GC_STORE, 0x60, A_B, c);
}

/* spmv: y = A x, A in CSR with n rows and W columns, one thread per row. */
static void spmv_setup(struct gen *g)
{
	threads_1d(g, g->n);
	/* A density's non-zeros are known after the counting pass. */
	uint64_t nnz = g->density >= 1 ? mul_sat(g->n, g->w) : g->density > 0 ? 0
		: mul_sat(g->n, g->nnz);
	array(g, "rowptr", g->n + 1, 4);
	array(g, "col", nnz, 4);
	array(g, "val", nnz, g->elem);
	array(g, "x", g->w, g->elem);
	array(g, "y", g->n, g->elem);
}

static void push_col(struct gen *g, uint32_t c)
{
	if (g->ncols == g->capcols) {
		g->capcols = g->capcols ? 2 * g->capcols : 1024;
		g->cols = gc_xrealloc(g->cols, g->capcols * sizeof *g->cols);
	}
	g->cols[g->ncols++] = c;
}

/* Insert v into the open-addressing set; 1 when it was already there. */
static int set_insert(struct gen *g, uint64_t v)
{
	size_t mask = g->setcap - 1, i = (size_t)(gc_mix64(v) & mask);
	while (g->set[i]) {
		if (g->set[i] == v + 1)
			return 1;
		i = (i + 1) & mask;
	}
	g->set[i] = v + 1;
	return 0;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

/*
 * The next row's column indices, sorted, appended to g->cols.  A count
 * N picks N distinct columns by Floyd's algorithm; a density D makes each
 * column non-zero when the next random number is below D * 2^64.
 */
static void spmv_row(struct gen *g)
{
	size_t first = g->ncols;
	if (g->density > 0) {
		if (g->density >= 1) {
			for (uint64_t c = 0; c < g->w; c++)
				push_col(g, (uint32_t)c);
			return;
		}
		uint64_t thr = (uint64_t)(g->density * 18446744073709551616.0);
		for (uint64_t c = 0; c < g->w; c++)
			if (gc_splitmix64(&g->rng) < thr)
				push_col(g, (uint32_t)c);
		return;
	}
	if (g->nnz == 0)
		return;
	memset(g->set, 0, g->setcap * sizeof *g->set);
	for (uint64_t j = g->w - g->nnz; j < g->w; j++) {
		uint64_t t = gc_splitmix64(&g->rng) % (j + 1);
		if (set_insert(g, t)) {
			set_insert(g, j);
			t = j;
		}
		push_col(g, (uint32_t)t);
	}
	qsort(g->cols + first, g->ncols - first, sizeof *g->cols, cmp_u32);
}

/* IMAD.WIDE R2 (&rowptr[r]); LDG R4, [R2]; LDG R5, [R2+4]; MOV R6 (sum);
 * ISETP (R4 >= R5); @P0 BRA (past the loop); per non-zero, on the lanes
 * whose row has it: IMAD.WIDE R8 (&col[j]); LDG R10, [R8]; IMAD.WIDE R12
 * (&val[j]); LDG R11, [R12]; IMAD.WIDE R14 (&x[col]); LDG R15, [R14];
 * FFMA R6, R11, R15, R6; IADD3 R4; ISETP; BRA; then IMAD.WIDE R16 (&y[r]);
 * STG [R16], R6 */
static const struct ivi spmv_1[] = {PRO_1D, I1(2, 0), LD(4, 2)};
static const struct ivi spmv_2[] = {LD(5, 2)};
static const struct ivi spmv_3[] = {I0(6), I2(IV_P0, 4, 5), BR(IV_P0)};
static const struct ivi spmv_col[] = {I1(8, 4), LD(10, 8)};
static const struct ivi spmv_val[] = {I1(12, 4), LD(11, 12)};
static const struct ivi spmv_x[] = {I1(14, 10), LD(15, 14)};
static const struct ivi spmv_next[] = {F3(6, 11, 15, 6), I1(4, 4), I2(IV_P0, 4, 5), BR(IV_P0)};
static const struct ivi spmv_st[] = {I1(16, 0), ST(16, 6)};

static void spmv_warp(struct gen *g, const struct warp *wp)
{
	uint64_t idx[WARP_MAX], start[WARP_MAX], len[WARP_MAX], maxlen = 0;
	size_t off[WARP_MAX];
	uint8_t lane[WARP_MAX];

	g->ncols = 0;
	for (int i = 0; i < wp->n; i++) {
		off[i] = g->ncols;
		spmv_row(g);
		len[i] = g->ncols - off[i];
		start[i] = g->rowptr;
		g->rowptr += len[i];
		if (len[i] > maxlen)
			maxlen = len[i];
	}
	IV(g, spmv_1, wp->n);
	emit_all(g, wp, GC_LOAD, 0x10, SP_ROWPTR, wp->x);        /* rowptr[r] */
	for (int i = 0; i < wp->n; i++)
		idx[i] = wp->x[i] + 1;
	IV(g, spmv_2, wp->n);
	emit_all(g, wp, GC_LOAD, 0x20, SP_ROWPTR, idx);          /* rowptr[r+1] */
	IV(g, spmv_3, wp->n);
	for (uint64_t k = 0; k < maxlen; k++) {
		int m = 0;
		for (int i = 0; i < wp->n; i++)
			if (len[i] > k) {
				lane[m] = wp->lane[i];
				idx[m] = start[i] + k;
				m++;
			}
		IV(g, spmv_col, m);
		emit(g, m, lane, GC_LOAD, 0x30, g->abase[SP_COL], 4, 4, idx);
		IV(g, spmv_val, m);
		emit(g, m, lane, GC_LOAD, 0x40, g->abase[SP_VAL], g->elem, g->elem, idx);
		m = 0;
		for (int i = 0; i < wp->n; i++)
			if (len[i] > k)
				idx[m++] = g->cols[off[i] + k];
		IV(g, spmv_x, m);
		emit(g, m, lane, GC_LOAD, 0x50, g->abase[SP_X], g->elem, g->elem, idx);
		IV(g, spmv_next, m);
	}
	IV(g, spmv_st, wp->n);
	emit_all(g, wp, GC_STORE, 0x60, SP_Y, wp->x);
}

/* gather: B[i] = A[idx[i]], idx[i] = splitmix64 output i mod n. */
static void gather_setup(struct gen *g)
{
	threads_1d(g, g->n);
	array(g, "idx", g->n, 4);
	array(g, "A", g->n, g->elem);
	array(g, "B", g->n, g->elem);
}

/* IMAD.WIDE R2 (&idx[i]); LDG R4, [R2]; IMAD.WIDE R6 (&A[R4]); LDG R8,
 * [R6]; IMAD.WIDE R10 (&B[i]); STG [R10], R8 */
static const struct ivi gather_1[] = {PRO_1D, I1(2, 0), LD(4, 2)};
static const struct ivi gather_2[] = {I1(6, 4), LD(8, 6)};
static const struct ivi gather_3[] = {I1(10, 0), ST(10, 8)};

static void gather_warp(struct gen *g, const struct warp *wp)
{
	uint64_t idx[WARP_MAX];
	IV(g, gather_1, wp->n);
	emit_all(g, wp, GC_LOAD, 0x10, G_IDX, wp->x);
	if (!g->counting)
		for (int i = 0; i < wp->n; i++)
			idx[i] = gc_splitmix64_at(g->seed, wp->x[i]) % g->n;
	IV(g, gather_2, wp->n);
	emit_all(g, wp, GC_LOAD, 0x20, G_A, idx);
	IV(g, gather_3, wp->n);
	emit_all(g, wp, GC_STORE, 0x30, G_B, wp->x);
}

/* strided (seed 000 Fig. 7): two identical loops of --loads loads. */
static void strided_setup(struct gen *g)
{
	threads_1d(g, g->n);
	/* (loads - 1) * stride + n * elem bytes, counted as one-byte elements */
	array(g, "mem", add_sat(mul_sat(g->loads - 1, g->stride), mul_sat(g->n, g->elem)), 1);
}

/* IMAD.WIDE R2 (&mem[x]); MOV R9 (sum); each loop: MOV R6 (the pointer),
 * R4 (i); --loads times LDG R8, [R6]; FADD R9, R9, R8; IADD3 R6 (+stride),
 * R4; ISETP; BRA */
static const struct ivi strided_pro[] = {PRO_1D, I1(2, 0), I0(9)};
static const struct ivi strided_loop[] = {I1(6, 2), I0(4)};
static const struct ivi strided_ld[] = {LD(8, 6)};
static const struct ivi strided_next[] = {F2(9, 9, 8), I1(6, 6), LOOP_END(4)};

static void strided_warp(struct gen *g, const struct warp *wp)
{
	IV(g, strided_pro, wp->n);
	for (uint32_t pc = 0x10; pc <= 0x20; pc += 0x10) {
		IV(g, strided_loop, wp->n);
		for (uint64_t i = 0; i < g->loads; i++) {
			IV(g, strided_ld, wp->n);
			emit(g, wp->n, wp->lane, GC_LOAD, pc, g->abase[0] + i * g->stride,
			     g->elem, g->elem, wp->x);
			IV(g, strided_next, wp->n);
		}
	}
}

/* table2 (seed 000 Table 2): thread t loads x[2t], then x[2t+1]. */
static void table2_setup(struct gen *g)
{
	threads_1d(g, g->n);
	array(g, "x", mul_sat(g->n, 2), g->elem);
}

/* IMAD.WIDE R2 (&x[2t]); LDG R4, [R2]; LDG R5, [R2+4]; FADD R6, R4, R5 */
static const struct ivi table2_1[] = {PRO_1D, I1(2, 0), LD(4, 2)};
static const struct ivi table2_2[] = {LD(5, 2)};
static const struct ivi table2_3[] = {F2(6, 4, 5)};

static void table2_warp(struct gen *g, const struct warp *wp)
{
	uint64_t idx[WARP_MAX];
	for (int i = 0; i < wp->n; i++)
		idx[i] = 2 * wp->x[i];
	IV(g, table2_1, wp->n);
	emit_all(g, wp, GC_LOAD, 0x10, 0, idx);
	for (int i = 0; i < wp->n; i++)
		idx[i]++;
	IV(g, table2_2, wp->n);
	emit_all(g, wp, GC_LOAD, 0x20, 0, idx);
	IV(g, table2_3, wp->n);
}

/* mdm (seed 004 Listing 1): ix = blockIdx.x * blockDim.x + threadIdx.x;
 * for i < N: t = input[GS * ix + i] (global); output[threadIdx.x][i] = t * t
 * (shared, output[blockDim.x][N] of the block). */
static void mdm_setup(struct gen *g)
{
	threads_1d(g, g->n);
	array(g, "input", add_sat(mul_sat(g->gs, g->n - 1), g->iters), g->elem);
}

/* IMAD R2 (GS * ix); IMAD.WIDE R4 (&input[GS * ix]); IMAD R6 (threadIdx.x *
 * N * elem, the shared row); MOV R7 (i); N times LDG R8, [R4]; FMUL R9, R8,
 * R8; STS [R6], R9; IADD3 R4, R6 (+elem), R7; ISETP; BRA */
static const struct ivi mdm_pro[] = {PRO_1D, I1(2, 0), I1(4, 2), I1(6, 3), I0(7)};
static const struct ivi mdm_ld[] = {LD(8, 4)};
static const struct ivi mdm_st[] = {F2(9, 8, 8), ST(6, 9)};
static const struct ivi mdm_next[] = {I1(4, 4), I1(6, 6), LOOP_END(7)};

static void mdm_warp(struct gen *g, const struct warp *wp)
{
	uint64_t in[WARP_MAX], out[WARP_MAX];
	for (int i = 0; i < wp->n; i++) {
		in[i] = g->gs * wp->x[i];
		out[i] = wp->x[i] % g->bx * g->iters;
	}
	IV(g, mdm_pro, wp->n);
	for (uint64_t j = 0; j < g->iters; j++) {
		IV(g, mdm_ld, wp->n);
		emit_all(g, wp, GC_LOAD, 0x10, M_INPUT, in);
		IV(g, mdm_st, wp->n);
		g->r.space = GC_SHARED;
		emit(g, wp->n, wp->lane, GC_STORE, 0x20, 0, g->elem, g->elem, out);
		g->r.space = GC_GLOBAL;
		IV(g, mdm_next, wp->n);
		for (int i = 0; i < wp->n; i++) {
			in[i]++;
			out[i]++;
		}
	}
}

static const struct kdef kernels[] = {
	{"vecadd", "C[i] = A[i] + B[i] over N elements", 0, 1, 1 << 20, 0,
	 vecadd_setup, vecadd_warp},
	{"copy", "B[i] = A[i] over N elements", 0, 1, 1 << 20, 0, copy_setup, copy_warp},
	{"rowcopy", "thread t copies row t of an H x W matrix (seed 000 Fig. 3)",
	 U_WIDTH | U_HEIGHT, 1, 1024, 1, rowcopy_setup, rowcopy_warp},
	{"colcopy", "thread t copies column t of an H x W matrix (coalesced)",
	 U_WIDTH | U_HEIGHT, 1, 1024, 1, colcopy_setup, colcopy_warp},
	{"matmul", "naive C = A x B, one thread per element of C", U_WIDTH | U_HEIGHT | U_INNER,
	 2, 128, 0, matmul_setup, matmul_warp},
	{"transpose", "naive out[x][y] = in[y][x] of an H x W matrix", U_WIDTH | U_HEIGHT, 2,
	 1024, 0, transpose_setup, transpose_warp},
	{"stencil2d", "5-point stencil on an H x W grid, boundary threads idle",
	 U_WIDTH | U_HEIGHT, 2, 1024, 0, stencil2d_setup, stencil2d_warp},
	{"spmv", "CSR y = A x, one thread per row, seeded random sparsity", U_WIDTH | U_NNZ, 1,
	 1 << 16, 0, spmv_setup, spmv_warp},
	{"gather", "B[i] = A[idx[i]] with seeded random idx", 0, 1, 1 << 20, 0, gather_setup,
	 gather_warp},
	{"strided", "two identical loops of coalesced loads at a stride (seed 000 Fig. 7)",
	 U_LOADS | U_STRIDE, 1, 32, 1, strided_setup, strided_warp},
	{"table2", "4 threads, one per warp, each loads x[2t] then x[2t+1] (seed 000 Table 2)",
	 0, 1, 4, 1, table2_setup, table2_warp},
	{"mdm", "t = input[GS*ix + i] to shared output[tid][i] = t*t, N times (seed 004 Listing 1)",
	 U_GS | U_ITERS, 1, 1 << 14, 0, mdm_setup, mdm_warp},
};
#define NKERNELS (sizeof kernels / sizeof kernels[0])

/* ---- the command line ------------------------------------------------- */

enum {
	OPT_WIDTH = GC_OPT_TOOL,
	OPT_HEIGHT,
	OPT_INNER,
	OPT_BLOCK,
	OPT_SEED,
	OPT_BASE,
	OPT_WARP,
	OPT_LOADS,
	OPT_STRIDE,
	OPT_NNZ,
	OPT_KERNELS,
	OPT_LIST,
	OPT_GS,
	OPT_ITERS,
	OPT_INTERVALS,
	OPT_OP_LATENCY,
};

/* The name the user wrote for an option with a short form. */
static const char *spelled(char **argv, const char *shrt, const char *lng)
{
	const char *a = argv[optind - 1];
	return a && a[0] == '-' && a[1] == '-' ? lng : shrt;
}

static void parse_block(struct cmdline *cl, const char *arg)
{
	char buf[64];
	if (strlen(arg) >= sizeof buf)
		gc_usage_error("--block: '%s' is not a block size", arg);
	strcpy(buf, arg);
	char *from = buf;
	if (buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X'))
		from += 2;
	char *x = strpbrk(from, "xX");
	if (x)
		*x = 0;
	uint64_t bx = gc_num("--block", buf, 1, BLOCK_THREADS_MAX), by = 1;
	if (x)
		by = gc_num("--block", x + 1, 1, BLOCK_THREADS_MAX);
	if (bx * by > BLOCK_THREADS_MAX)
		gc_usage_error("--block: %llu threads per block exceed %d",
			       (unsigned long long)(bx * by), BLOCK_THREADS_MAX);
	cl->bx = (unsigned)bx;
	cl->by = (unsigned)by;
	cl->block2d = by > 1;
	cl->have_block = 1;
}

static void parse_nnz(struct cmdline *cl, const char *arg)
{
	int hex = arg[0] == '0' && (arg[1] == 'x' || arg[1] == 'X');
	if (strchr(arg, '.') || (!hex && strpbrk(arg, "eE"))) {
		cl->density = gc_real("--nnz", arg, 0, 1);
		if (cl->density <= 0)
			gc_usage_error("--nnz: a density must be above 0");
	} else {
		cl->nnz = gc_num("--nnz", arg, 0, UINT32_MAX);
		cl->density = 0;
	}
	cl->given |= U_NNZ;
}

static void parse_cmdline(int argc, char **argv, struct cmdline *cl)
{
	static const struct option longopts[] = {
		GC_COMMON_LONGOPTS,
		GC_REPORT_LONGOPTS,
		{"size", required_argument, NULL, 'n'},
		{"width", required_argument, NULL, OPT_WIDTH},
		{"height", required_argument, NULL, OPT_HEIGHT},
		{"inner", required_argument, NULL, OPT_INNER},
		{"block", required_argument, NULL, OPT_BLOCK},
		{"elem", required_argument, NULL, 'e'},
		{"seed", required_argument, NULL, OPT_SEED},
		{"base", required_argument, NULL, OPT_BASE},
		{"warp-size", required_argument, NULL, OPT_WARP},
		{"loads", required_argument, NULL, OPT_LOADS},
		{"stride", required_argument, NULL, OPT_STRIDE},
		{"nnz", required_argument, NULL, OPT_NNZ},
		{"kernels", required_argument, NULL, OPT_KERNELS},
		{"list", no_argument, NULL, OPT_LIST},
		{"gs", required_argument, NULL, OPT_GS},
		{"iters", required_argument, NULL, OPT_ITERS},
		{"intervals", no_argument, NULL, OPT_INTERVALS},
		{"op-latency", required_argument, NULL, OPT_OP_LATENCY},
		{NULL, 0, NULL, 0},
	};
	int c;
	memset(cl, 0, sizeof *cl);
	cl->elem = 4;
	cl->seed = 1;
	cl->base = DEFAULT_BASE;
	cl->kernels = 1;
	cl->loads = 128;
	cl->stride = 4096;
	cl->nnz = 8;
	cl->gs = 32;
	cl->iters = 32;
	while ((c = gc_getopt(argc, argv, GC_COMMON_SHORTOPTS "n:e:", longopts)) != -1) {
		if (gc_common_option(&cl->c, c, optarg, help))
			continue;
		switch (c) {
		case GC_OPT_EMIT: {
			static const char *const emits[] = {"accesses", NULL};
			(void)gc_emit_option(&cl->c, optarg, emits);
			break;
		}
		case 'n':
			cl->n = gc_num(spelled(argv, "-n", "--size"), optarg, 1, UINT32_MAX);
			cl->have_n = 1;
			break;
		case OPT_WIDTH:
			cl->width = gc_num("--width", optarg, 1, UINT32_MAX);
			cl->given |= U_WIDTH;
			break;
		case OPT_HEIGHT:
			cl->height = gc_num("--height", optarg, 1, UINT32_MAX);
			cl->given |= U_HEIGHT;
			break;
		case OPT_INNER:
			cl->inner = gc_num("--inner", optarg, 1, UINT32_MAX);
			cl->given |= U_INNER;
			break;
		case OPT_BLOCK: parse_block(cl, optarg); break;
		case 'e': {
			uint64_t e = gc_num(spelled(argv, "-e", "--elem"), optarg, 1, 16);
			if (e != 1 && e != 2 && e != 4 && e != 8 && e != 16)
				gc_usage_error("%s: element size %llu is not 1, 2, 4, 8 or 16",
					       spelled(argv, "-e", "--elem"), (unsigned long long)e);
			cl->elem = (unsigned)e;
			break;
		}
		case OPT_SEED: cl->seed = gc_num("--seed", optarg, 0, UINT64_MAX); break;
		case OPT_BASE: cl->base = gc_num("--base", optarg, 0, ADDR_LIMIT - 1); break;
		case OPT_WARP:
			cl->ws = (unsigned)gc_num("--warp-size", optarg, 1, WARP_MAX);
			cl->have_ws = 1;
			break;
		case OPT_LOADS:
			cl->loads = gc_num("--loads", optarg, 1, UINT32_MAX);
			cl->given |= U_LOADS;
			break;
		case OPT_STRIDE:
			cl->stride = gc_num("--stride", optarg, 0, UINT32_MAX);
			cl->given |= U_STRIDE;
			break;
		case OPT_NNZ: parse_nnz(cl, optarg); break;
		case OPT_KERNELS: cl->kernels = gc_num("--kernels", optarg, 1, UINT32_MAX); break;
		case OPT_LIST: cl->list = 1; break;
		case OPT_GS:
			cl->gs = gc_num("--gs", optarg, 0, UINT32_MAX);
			cl->given |= U_GS;
			break;
		case OPT_ITERS:
			cl->iters = gc_num("--iters", optarg, 1, UINT32_MAX);
			cl->given |= U_ITERS;
			break;
		case OPT_INTERVALS: cl->intervals = 1; break;
		case OPT_OP_LATENCY: gc_gpu_oplat_parse(&cl->oplat, optarg); break;
		default: gc_usage_error("unexpected option");
		}
	}
	if (cl->oplat.given && !cl->intervals)
		gc_usage_error("--op-latency: only with --intervals");
	if (cl->list)
		return;
	if (optind == argc)
		gc_usage_error("missing KERNEL (see --list)");
	if (optind < argc - 1)
		gc_usage_error("one KERNEL at most (got '%s' and '%s')", argv[optind],
			       argv[optind + 1]);
	cl->kernel = argv[optind];
}

static const struct kdef *find_kernel(const char *name)
{
	for (size_t i = 0; i < NKERNELS; i++)
		if (strcmp(name, kernels[i].name) == 0)
			return &kernels[i];
	gc_usage_error("unknown kernel '%s' (see --list)", name);
}

static void list_kernels(void)
{
	for (size_t i = 0; i < NKERNELS; i++)
		printf("%-10s %s\n", kernels[i].name, kernels[i].what);
	gc_close_stdout();
}

/* ---- setting up ------------------------------------------------------- */

static void check_uses(const struct kdef *k, unsigned given)
{
	static const struct {
		unsigned bit;
		const char *opt;
	} names[] = {
		{U_WIDTH, "--width"}, {U_HEIGHT, "--height"}, {U_INNER, "--inner"},
		{U_LOADS, "--loads"}, {U_STRIDE, "--stride"}, {U_NNZ, "--nnz"},
		{U_GS, "--gs"}, {U_ITERS, "--iters"},
	};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if ((given & names[i].bit) && !(k->uses & names[i].bit))
			gc_usage_error("%s: kernel '%s' does not use it", names[i].opt, k->name);
}

/* Parameters, geometry and the array layout; usage errors before any output. */
static void setup(struct gen *g, const struct cmdline *cl)
{
	const struct kdef *k = find_kernel(cl->kernel);
	memset(g, 0, sizeof *g);
	g->k = k;
	check_uses(k, cl->given);
	g->n = cl->have_n ? cl->n : k->n;
	g->w = cl->given & U_WIDTH ? cl->width : g->n;
	g->h = cl->given & U_HEIGHT ? cl->height : g->n;
	g->inner = cl->given & U_INNER ? cl->inner : g->n;
	g->loads = cl->loads;
	g->stride = cl->stride;
	g->gs = cl->gs;
	g->iters = cl->iters;
	g->intervals = cl->intervals;
	g->nnz = cl->nnz;
	g->density = cl->density;
	g->seed = cl->seed;
	g->elem = cl->elem;
	g->ws = cl->have_ws ? cl->ws : strcmp(k->name, "table2") == 0 ? 1 : 32;
	g->progress = cl->c.progress;
	if (k->uses & U_NNZ) {
		if (g->density == 0 && g->nnz > g->w)
			gc_usage_error("--nnz: %llu non-zeros per row exceed the %llu columns",
				       (unsigned long long)g->nnz, (unsigned long long)g->w);
		if (g->density == 0 && g->nnz > ROW_MAX)
			gc_usage_error("--nnz: %llu non-zeros per row exceed 2^20",
				       (unsigned long long)g->nnz);
		if (g->density > 0 && (mul_sat(g->n, g->w) > DENSE_CELLS_MAX || g->w > ROW_MAX))
			gc_usage_error("--nnz: a density needs at most 2^20 columns and 2^32 "
				       "rows x columns (give a count per row instead)");
		if (g->density == 0) {
			for (g->setcap = 16; g->setcap < 2 * g->nnz; g->setcap *= 2)
				;
			g->set = malloc(g->setcap * sizeof *g->set);
			if (!g->set)
				gc_die(GC_EXIT_DATA, "out of memory");
		}
	}
	k->setup(g);

	if (cl->have_block) {
		if (cl->block2d && k->dims == 1)
			gc_usage_error("--block: kernel '%s' takes a 1-D block (B, not BXxBY)", k->name);
		g->bx = cl->bx;
		g->by = cl->by;
	} else if (k->one_block) {
		g->bx = g->tw < BLOCK_THREADS_MAX ? (unsigned)g->tw : BLOCK_THREADS_MAX;
		g->by = 1;
	} else if (k->dims == 2) {
		g->bx = g->by = 16;
	} else {
		g->bx = 256;
		g->by = 1;
	}
	g->gx = (g->tw + g->bx - 1) / g->bx;
	g->gy = (g->th + g->by - 1) / g->by;
	if (g->gy > GRID_Y_MAX)
		gc_usage_error("%llu rows need %llu blocks in y; the grid holds %d (a taller --block?)",
			       (unsigned long long)g->th, (unsigned long long)g->gy, GRID_Y_MAX);
	if (g->gx > UINT32_MAX || mul_sat(g->gx, g->gy) > UINT32_MAX)
		gc_usage_error("%llu x %llu blocks exceed 2^32 - 1 (a larger --block?)",
			       (unsigned long long)g->gx, (unsigned long long)g->gy);
	if (k->uses & U_ITERS && mul_sat(mul_sat(g->bx, g->iters), g->elem) > UINT32_MAX)
		gc_usage_error("--iters: %u threads * %llu * %u bytes of shared output exceed "
			       "2^32 - 1 bytes per block", g->bx, (unsigned long long)g->iters,
			       g->elem);
}

/* --intervals: the GPU's opcode latencies with --op-latency's over them,
 * and the header keys that record them. */
static void intervals_setup(struct gen *g, const struct cmdline *cl, gc_header *h)
{
	gc_gpu_config gpu;
	char key[32], val[64];
	gc_gpu_for_stream(&gpu, cl->c.gpu, NULL);
	gc_gpu_oplat_apply(&gpu, &cl->oplat);
	gc_gpu_config_finish(&gpu);
	int bad = gc_header_set(h, "intervals", "gc-gen") < 0 ||
		  gc_header_set(h, "intervals.gpu", gpu.name) < 0;
	for (int c = 0; c < GC_NOPS; c++) {
		g->lat[c] = gpu.op.latency[c];
		g->init[c] = gpu.op.initiation[c];
		snprintf(key, sizeof key, "intervals.op.%s", gc_gpu_op_name[c]);
		snprintf(val, sizeof val, "%u,%u", g->lat[c], g->init[c]);
		bad |= gc_header_set(h, key, val) < 0;
	}
	if (bad)
		gc_die(GC_EXIT_DATA, "out of memory");
	h->optional |= GC_OPT_COMPUTE;
	if (h->record_size < GC_RECORD_COMPUTE)
		h->record_size = GC_RECORD_COMPUTE;
}

/* Lay the arrays out from --base, each next one on a 256-byte boundary. */
static void layout(struct gen *g, uint64_t base)
{
	uint64_t at = base;
	for (int i = 0; i < g->narr; i++) {
		if (i > 0)
			at = add_sat(at, ALIGN - 1) / ALIGN * ALIGN;
		g->abase[i] = at;
		at = add_sat(at, mul_sat(g->acount[i], g->asize[i]));
	}
	if (at > ADDR_LIMIT)
		gc_usage_error("the arrays would end beyond address 2^48 (smaller sizes, "
			       "--elem or --base?)");
	g->end = at;
}

/* ---- running ---------------------------------------------------------- */

/* One kernel: blocks in linear order (x fastest), warps in order, each
 * warp's body to its end. */
static void run(struct gen *g)
{
	struct warp wp;
	const unsigned tpb = g->bx * g->by, nwarps = (tpb + g->ws - 1) / g->ws;
	const uint64_t nblocks = g->gx * g->gy;
	g->rng = g->seed;
	g->rowptr = 0;
	for (uint64_t b = 0; b < nblocks; b++) {
		const uint64_t x0 = b % g->gx * g->bx, y0 = b / g->gx * g->by;
		unsigned tx = 0, ty = 0, t = 0;
		if (y0 >= g->yhi || x0 >= g->xhi)
			continue; /* no thread of this block runs the body */
		g->r.block = (uint32_t)b;
		for (unsigned w = 0; w < nwarps; w++) {
			wp.n = 0;
			for (unsigned l = 0; l < g->ws && t < tpb; l++, t++) {
				const uint64_t x = x0 + tx, y = y0 + ty;
				if (x >= g->xlo && x < g->xhi && y >= g->ylo && y < g->yhi) {
					wp.lane[wp.n] = (uint8_t)l;
					wp.x[wp.n] = x;
					wp.y[wp.n] = y;
					wp.n++;
				}
				if (++tx == g->bx) {
					tx = 0;
					ty++;
				}
			}
			if (wp.n == 0)
				continue;
			g->r.warp = (uint16_t)w;
			g->r.seq = 0;
			memset(&g->iv, 0, sizeof g->iv);
			g->k->warp(g, &wp);
			IV(g, iv_exit, wp.n);
			if (!g->counting)
				gc_progress(g->progress, g->nrec * GC_RECORD_BASE,
					    g->total * GC_RECORD_BASE);
		}
	}
}

static void set_header(gc_header *h, struct gen *g, const struct cmdline *cl)
{
	char buf[32];
	gc_header_init(h, GC_KIND_ACCESS);
	gc_header_set(h, "source_format", "gc-gen");
	gc_header_set(h, "kernel", g->k->name);
	snprintf(buf, sizeof buf, "%u", g->ws);
	gc_header_set(h, "warp_size", buf);
	snprintf(buf, sizeof buf, "%u", g->elem);
	gc_header_set(h, "elem_size", buf);
	snprintf(buf, sizeof buf, "%llu", (unsigned long long)g->seed);
	gc_header_set(h, "seed", buf);
	if (cl->c.gpu) {
		gc_gpu_config gpu;
		gc_gpu_for_stream(&gpu, cl->c.gpu, NULL);
		gc_gpu_config_finish(&gpu);
		gc_gpu_config_header(&gpu, cl->c.gpu, h);
	}
	if (g->intervals)
		intervals_setup(g, cl, h);
	if (gc_header_add_provenance(h, gc_cmdline()) < 0)
		gc_die(GC_EXIT_DATA, "out of memory");
}

static void kernel_begin(const struct gen *g, gc_kernel *k, uint32_t id, uint64_t insts,
			 uint64_t nonmem, uint64_t thread_insts)
{
	gc_kernel_init(k, id, g->k->name);
	k->grid[0] = (uint32_t)g->gx;
	k->grid[1] = (uint32_t)g->gy;
	k->block[0] = (uint16_t)g->bx;
	k->block[1] = (uint16_t)g->by;
	k->regs = REGS;
	k->shmem = g->k->uses & U_ITERS ? (uint32_t)(g->bx * g->iters * g->elem) : 0;
	gc_kernel_set_attr(k, GC_A_MEM_INSTS, insts);
	if (g->intervals) {
		gc_kernel_set_attr(k, GC_A_INSTS, nonmem);
		gc_kernel_set_attr(k, GC_A_THREAD_INSTS, thread_insts);
	}
}

/* What the report and --stats say: the generator, its command line and
 * the warp instructions of one kernel. */
struct summary {
	const struct gen *g;
	const struct cmdline *cl;
	uint64_t insts;
};

/* The text report (-v, --report, --emit none): the array layout and a
 * summary. */
static void report(FILE *f, const void *ctx)
{
	const struct summary *sm = ctx;
	const struct gen *g = sm->g;
	const uint64_t nk = sm->cl->kernels;
	for (int i = 0; i < g->narr; i++)
		fprintf(f, "%s: array %s at 0x%llx, %llu bytes\n", gc_progname, g->aname[i],
			(unsigned long long)g->abase[i],
			(unsigned long long)(g->acount[i] * g->asize[i]));
	fprintf(f, "%s: %s: %llu kernel(s) of %llu x %llu blocks of %u x %u threads, "
		"warp size %u: %llu accesses (%llu loads, %llu stores) in %llu warp "
		"instructions\n", gc_progname, g->k->name, (unsigned long long)nk,
		(unsigned long long)g->gx, (unsigned long long)g->gy, g->bx, g->by, g->ws,
		(unsigned long long)(g->nrec * nk), (unsigned long long)(g->nload * nk),
		(unsigned long long)(g->nstore * nk), (unsigned long long)(sm->insts * nk));
}

static void write_stats(const struct gen *g, const struct cmdline *cl, const gc_header *h,
			uint64_t insts)
{
	const uint64_t nk = cl->kernels;
	if (cl->c.stats) {
		FILE *f = gc_open_text(cl->c.stats);
		gc_json j;
		gc_json_begin(&j, f);
		gc_json_str(&j, "tool", "gc-gen");
		gc_json_str(&j, "input", g->k->name);
		gc_json_str(&j, "gpu", gc_gpu_header_named(h));
		gc_json_u64(&j, "kernel_count", nk);
		gc_json_u64(&j, "accesses", g->nrec * nk);
		gc_json_u64(&j, "loads", g->nload * nk);
		gc_json_u64(&j, "stores", g->nstore * nk);
		gc_json_u64(&j, "mem_instructions", insts * nk);
		gc_json_u64(&j, "footprint_bytes", g->end - g->abase[0]);
		gc_json_arr(&j, "arrays");
		for (int i = 0; i < g->narr; i++) {
			gc_json_obj(&j, NULL);
			gc_json_str(&j, "name", g->aname[i]);
			gc_json_u64(&j, "base", g->abase[i]);
			gc_json_u64(&j, "bytes", g->acount[i] * g->asize[i]);
			gc_json_close(&j);
		}
		gc_json_close(&j);
		gc_json_end(&j);
		gc_close_text(f, cl->c.stats);
	}
	const struct summary sm = {g, cl, insts};
	gc_write_report(&cl->c, report, &sm);
}

int main(int argc, char **argv)
{
	struct cmdline cl;
	struct gen g;
	gc_header h;
	gc_kernel k;

	gc_prog_init("gc-gen", argc, argv);
	parse_cmdline(argc, argv, &cl);
	if (cl.list) {
		list_kernels();
		return 0;
	}
	setup(&g, &cl);
	set_header(&h, &g, &cl);
	layout(&g, cl.base);
	/* Counting pass: GC_A_MEM_INSTS precedes the records, and spmv's
	 * col and val arrays are as long as its non-zeros. */
	g.counting = 1;
	run(&g);
	const uint64_t insts = g.ninst, recs = g.nrec, nonmem = g.nonmem,
		       thread_insts = g.thread_insts;
	if (g.k->setup == spmv_setup && g.acount[SP_COL] != g.rowptr) {
		g.acount[SP_COL] = g.rowptr;
		g.acount[SP_VAL] = g.rowptr;
		layout(&g, cl.base);
	}
	g.total = recs * cl.kernels;

	/* The writing pass (none with --emit none: the counts are the
	 * counting pass's). */
	g.out = gc_open_output(&cl.c, &h);
	if (g.out) {
		g.counting = 0;
		g.ninst = g.nrec = g.nload = g.nstore = 0;
		for (uint64_t id = 1; id <= cl.kernels; id++) {
			kernel_begin(&g, &k, (uint32_t)id, insts, nonmem, thread_insts);
			if (gc_write_kbegin(g.out, &k) < 0)
				die_write(&g);
			g.r.kernel = (uint32_t)id;
			run(&g);
			if (gc_write_kend(g.out, (uint32_t)id) < 0)
				die_write(&g);
		}
		if (g.ninst != insts * cl.kernels || g.nrec != recs * cl.kernels)
			gc_die(GC_EXIT_DATA, "internal error: %llu warp instructions counted, "
			       "%llu written", (unsigned long long)(insts * cl.kernels),
			       (unsigned long long)g.ninst);
		gc_close_output(g.out);
		gc_progress_end(g.progress);
		g.nrec /= cl.kernels;
		g.nload /= cl.kernels;
		g.nstore /= cl.kernels;
	}
	write_stats(&g, &cl, &h, insts);
	gc_header_free(&h);
	free(g.cols);
	free(g.set);
	return 0;
}
