/*
 * gc-gen - synthetic kernels whose access patterns are known exactly.
 *
 * Reads: nothing but its options.
 * Writes: one access stream (gc-stream(5)), one record per active lane of
 * each memory instruction, in per-warp program order (block by block, warp
 * by warp, each warp's instructions in order), unscheduled: sm 0, time 0.
 * Every address is computable by hand from gc-gen(1).
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
	uint64_t n, width, height, inner, loads, stride, nnz, seed, base, kernels;
	unsigned bx, by, elem, ws;
	int block2d;         /* --block had the BXxBY form with BY > 1 */
	double density;      /* spmv --nnz D; 0 when --nnz is a count */
};

struct gen {
	const struct kdef *k;
	/* parameters */
	uint64_t n, w, h, inner, loads, stride, nnz, seed;
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
	"      --kernels K      emit the kernel K times, ids 1 to K (default 1)\n"
	"      --list           list the kernels and exit\n"
	"  -o, --output FILE    write the stream to FILE (default: stdout)\n"
	"  -z, --gzip           write gzip-compressed output\n"
	"      --force          write binary output to a terminal\n"
	"      --stats FILE     write a JSON summary to FILE\n"
	"      --gpu NAME|FILE  GPU preset (recorded in the header)\n"
	"      --progress       show progress on a terminal\n"
	"  -q, --quiet          no warnings\n"
	"  -v, --verbose        print the array layout and a summary on stderr\n"
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
	gc_writer_abandon(g->out);
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

static void vecadd_warp(struct gen *g, const struct warp *wp)
{
	emit_all(g, wp, GC_LOAD, 0x10, A_A, wp->x);
	emit_all(g, wp, GC_LOAD, 0x20, A_B, wp->x);
	emit_all(g, wp, GC_STORE, 0x30, A_C, wp->x);
}

/* copy: B[i] = A[i]. */
static void copy_setup(struct gen *g)
{
	threads_1d(g, g->n);
	array(g, "A", g->n, g->elem);
	array(g, "B", g->n, g->elem);
}

static void copy_warp(struct gen *g, const struct warp *wp)
{
	emit_all(g, wp, GC_LOAD, 0x10, A_A, wp->x);
	emit_all(g, wp, GC_STORE, 0x20, A_B, wp->x);
}

/* rowcopy (seed 000 Fig. 3): thread t copies row t of the H x W matrix. */
static void rowcopy_setup(struct gen *g)
{
	threads_1d(g, g->h);
	array(g, "A", mul_sat(g->h, g->w), g->elem);
	array(g, "B", mul_sat(g->h, g->w), g->elem);
}

static void rowcopy_warp(struct gen *g, const struct warp *wp)
{
	uint64_t idx[WARP_MAX];
	for (int i = 0; i < wp->n; i++)
		idx[i] = wp->x[i] * g->w;
	for (uint64_t j = 0; j < g->w; j++) {
		emit_all(g, wp, GC_LOAD, 0x10, A_A, idx);
		emit_all(g, wp, GC_STORE, 0x20, A_B, idx);
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
	for (uint64_t row = 0; row < g->h; row++) {
		emit_all(g, wp, GC_LOAD, 0x10, A_A, idx);
		emit_all(g, wp, GC_STORE, 0x20, A_B, idx);
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

static void matmul_warp(struct gen *g, const struct warp *wp)
{
	uint64_t ia[WARP_MAX], ib[WARP_MAX], ic[WARP_MAX];
	for (int i = 0; i < wp->n; i++) {
		ia[i] = wp->y[i] * g->inner;
		ib[i] = wp->x[i];
		ic[i] = wp->y[i] * g->w + wp->x[i];
	}
	for (uint64_t k = 0; k < g->inner; k++) {
		emit_all(g, wp, GC_LOAD, 0x10, A_A, ia);
		emit_all(g, wp, GC_LOAD, 0x20, A_B, ib);
		for (int i = 0; i < wp->n; i++) {
			ia[i]++;
			ib[i] += g->w;
		}
	}
	emit_all(g, wp, GC_STORE, 0x30, A_C, ic);
}

/* transpose: out[x][y] = in[y][x]; in is H x W, out is W x H. */
static void transpose_setup(struct gen *g)
{
	threads_2d(g, g->w, g->h);
	array(g, "in", mul_sat(g->h, g->w), g->elem);
	array(g, "out", mul_sat(g->h, g->w), g->elem);
}

static void transpose_warp(struct gen *g, const struct warp *wp)
{
	uint64_t ii[WARP_MAX], io[WARP_MAX];
	for (int i = 0; i < wp->n; i++) {
		ii[i] = wp->y[i] * g->w + wp->x[i];
		io[i] = wp->x[i] * g->h + wp->y[i];
	}
	emit_all(g, wp, GC_LOAD, 0x10, A_A, ii);
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

static void stencil2d_warp(struct gen *g, const struct warp *wp)
{
	uint64_t c[WARP_MAX], t[WARP_MAX];
	for (int i = 0; i < wp->n; i++)
		c[i] = wp->y[i] * g->w + wp->x[i];
	for (int i = 0; i < wp->n; i++)
		t[i] = c[i] - g->w;
	emit_all(g, wp, GC_LOAD, 0x10, A_A, t);      /* north A[y-1][x] */
	for (int i = 0; i < wp->n; i++)
		t[i] = c[i] - 1;
	emit_all(g, wp, GC_LOAD, 0x20, A_A, t);      /* west A[y][x-1] */
	emit_all(g, wp, GC_LOAD, 0x30, A_A, c);      /* centre A[y][x] */
	for (int i = 0; i < wp->n; i++)
		t[i] = c[i] + 1;
	emit_all(g, wp, GC_LOAD, 0x40, A_A, t);      /* east A[y][x+1] */
	for (int i = 0; i < wp->n; i++)
		t[i] = c[i] + g->w;
	emit_all(g, wp, GC_LOAD, 0x50, A_A, t);      /* south A[y+1][x] */
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
	emit_all(g, wp, GC_LOAD, 0x10, SP_ROWPTR, wp->x);        /* rowptr[r] */
	for (int i = 0; i < wp->n; i++)
		idx[i] = wp->x[i] + 1;
	emit_all(g, wp, GC_LOAD, 0x20, SP_ROWPTR, idx);          /* rowptr[r+1] */
	for (uint64_t k = 0; k < maxlen; k++) {
		int m = 0;
		for (int i = 0; i < wp->n; i++)
			if (len[i] > k) {
				lane[m] = wp->lane[i];
				idx[m] = start[i] + k;
				m++;
			}
		emit(g, m, lane, GC_LOAD, 0x30, g->abase[SP_COL], 4, 4, idx);
		emit(g, m, lane, GC_LOAD, 0x40, g->abase[SP_VAL], g->elem, g->elem, idx);
		m = 0;
		for (int i = 0; i < wp->n; i++)
			if (len[i] > k)
				idx[m++] = g->cols[off[i] + k];
		emit(g, m, lane, GC_LOAD, 0x50, g->abase[SP_X], g->elem, g->elem, idx);
	}
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

static void gather_warp(struct gen *g, const struct warp *wp)
{
	uint64_t idx[WARP_MAX];
	emit_all(g, wp, GC_LOAD, 0x10, G_IDX, wp->x);
	if (!g->counting)
		for (int i = 0; i < wp->n; i++)
			idx[i] = gc_splitmix64_at(g->seed, wp->x[i]) % g->n;
	emit_all(g, wp, GC_LOAD, 0x20, G_A, idx);
	emit_all(g, wp, GC_STORE, 0x30, G_B, wp->x);
}

/* strided (seed 000 Fig. 7): two identical loops of --loads loads. */
static void strided_setup(struct gen *g)
{
	threads_1d(g, g->n);
	/* (loads - 1) * stride + n * elem bytes, counted as one-byte elements */
	array(g, "mem", add_sat(mul_sat(g->loads - 1, g->stride), mul_sat(g->n, g->elem)), 1);
}

static void strided_warp(struct gen *g, const struct warp *wp)
{
	for (uint32_t pc = 0x10; pc <= 0x20; pc += 0x10)
		for (uint64_t i = 0; i < g->loads; i++)
			emit(g, wp->n, wp->lane, GC_LOAD, pc, g->abase[0] + i * g->stride,
			     g->elem, g->elem, wp->x);
}

/* table2 (seed 000 Table 2): thread t loads x[2t], then x[2t+1]. */
static void table2_setup(struct gen *g)
{
	threads_1d(g, g->n);
	array(g, "x", mul_sat(g->n, 2), g->elem);
}

static void table2_warp(struct gen *g, const struct warp *wp)
{
	uint64_t idx[WARP_MAX];
	for (int i = 0; i < wp->n; i++)
		idx[i] = 2 * wp->x[i];
	emit_all(g, wp, GC_LOAD, 0x10, 0, idx);
	for (int i = 0; i < wp->n; i++)
		idx[i]++;
	emit_all(g, wp, GC_LOAD, 0x20, 0, idx);
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
	while ((c = gc_getopt(argc, argv, GC_COMMON_SHORTOPTS "n:e:", longopts)) != -1) {
		if (gc_common_option(&cl->c, c, optarg, help))
			continue;
		switch (c) {
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
		default: gc_usage_error("unexpected option");
		}
	}
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
			g->k->warp(g, &wp);
			if (!g->counting)
				gc_progress(g->progress, g->nrec * GC_RECORD_BASE,
					    g->total * GC_RECORD_BASE);
		}
	}
}

static void set_header(gc_header *h, const struct gen *g, const struct cmdline *cl)
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
	if (gc_header_add_provenance(h, gc_cmdline()) < 0)
		gc_die(GC_EXIT_DATA, "out of memory");
}

static void kernel_begin(const struct gen *g, gc_kernel *k, uint32_t id, uint64_t insts)
{
	gc_kernel_init(k, id, g->k->name);
	k->grid[0] = (uint32_t)g->gx;
	k->grid[1] = (uint32_t)g->gy;
	k->block[0] = (uint16_t)g->bx;
	k->block[1] = (uint16_t)g->by;
	k->regs = REGS;
	k->shmem = 0;
	gc_kernel_set_attr(k, GC_A_MEM_INSTS, insts);
}

static void write_stats(const struct gen *g, const struct cmdline *cl, uint64_t insts)
{
	const uint64_t nk = cl->kernels;
	if (cl->c.stats) {
		FILE *f = gc_open_text(cl->c.stats);
		gc_json j;
		gc_json_begin(&j, f);
		gc_json_str(&j, "kernel", g->k->name);
		gc_json_u64(&j, "kernels", nk);
		gc_json_u64(&j, "accesses", g->nrec * nk);
		gc_json_u64(&j, "loads", g->nload * nk);
		gc_json_u64(&j, "stores", g->nstore * nk);
		gc_json_u64(&j, "mem_insts", insts * nk);
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
	if (cl->c.verbose) {
		for (int i = 0; i < g->narr; i++)
			fprintf(stderr, "%s: array %s at 0x%llx, %llu bytes\n", gc_progname,
				g->aname[i], (unsigned long long)g->abase[i],
				(unsigned long long)(g->acount[i] * g->asize[i]));
		fprintf(stderr, "%s: %s: %llu kernel(s) of %llu x %llu blocks of %u x %u threads, "
			"warp size %u: %llu accesses (%llu loads, %llu stores) in %llu warp "
			"instructions\n", gc_progname, g->k->name, (unsigned long long)nk,
			(unsigned long long)g->gx, (unsigned long long)g->gy, g->bx, g->by, g->ws,
			(unsigned long long)(g->nrec * nk), (unsigned long long)(g->nload * nk),
			(unsigned long long)(g->nstore * nk), (unsigned long long)(insts * nk));
	}
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
	const uint64_t insts = g.ninst, recs = g.nrec;
	if (g.k->setup == spmv_setup && g.acount[SP_COL] != g.rowptr) {
		g.acount[SP_COL] = g.rowptr;
		g.acount[SP_VAL] = g.rowptr;
		layout(&g, cl.base);
	}
	g.total = recs * cl.kernels;

	g.out = gc_open_output(&cl.c, &h);
	g.counting = 0;
	g.ninst = g.nrec = g.nload = g.nstore = 0;
	for (uint64_t id = 1; id <= cl.kernels; id++) {
		kernel_begin(&g, &k, (uint32_t)id, insts);
		if (gc_write_kbegin(g.out, &k) < 0)
			die_write(&g);
		g.r.kernel = (uint32_t)id;
		run(&g);
		if (gc_write_kend(g.out, (uint32_t)id) < 0)
			die_write(&g);
	}
	if (g.ninst != insts * cl.kernels || g.nrec != recs * cl.kernels)
		gc_die(GC_EXIT_DATA, "internal error: %llu warp instructions counted, %llu written",
		       (unsigned long long)(insts * cl.kernels), (unsigned long long)g.ninst);
	gc_close_output(g.out);
	gc_progress_end(g.progress);
	g.nrec /= cl.kernels;
	g.nload /= cl.kernels;
	g.nstore /= cl.kernels;
	write_stats(&g, &cl, insts);
	gc_header_free(&h);
	free(g.cols);
	free(g.set);
	return 0;
}
