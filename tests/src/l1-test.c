/*
 * l1-test [UNIT] - the L1 engine (model/l1.h) driven directly: no command
 * line, no streams.  Each unit is a hand-worked example with exact counts;
 * TAP on stdout (check.h), run by tests/l1-engine.bats.
 */
#include "base/hash.h"
#include "check.h"
#include "config/gpu.h"
#include "model/l1.h"
#include "stream/format.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- a configuration and an engine ----------------------------------------- */

/* The default GPU with "key=value ..." over it; the carve-out off, so the
 * L1 is the one given. */
static gc_gpu_config config(const char *keys)
{
	gc_gpu_config c;
	char err[256], buf[512];
	gc_gpu_defaults(&c);
	gc_gpu_begin(&c);
	snprintf(buf, sizeof buf, "sm.carveout=none sm.unified_size=0 sm.shmem_options=none l1.index=linear l1.replacement=lru "
		 "l1.skip_global=no l1.line=128 l2.sector=32 miss.sigma=0 l1.mshr_per_warp=0 %s", keys);
	for (char *kv = strtok(buf, " "); kv; kv = strtok(NULL, " ")) {
		char *eq = strchr(kv, '=');
		*eq = 0;
		if (!CHECK_MSG(gc_gpu_set(&c, kv, eq + 1, 0, err, sizeof err) == 0, "%s", err))
			exit(1);
	}
	if (!CHECK_MSG(gc_gpu_finish(&c, err, sizeof err) == 0, "%s", err))
		exit(1);
	return c;
}

/* What the engine emitted, in order. */
#define OUTMAX 4096
struct out {
	gc_rec rec[OUTMAX];
	size_t n;
	int refuse; /* refuse the record after this many (0: none) */
};

static int emit(void *ctx, const gc_rec *r, size_t n, char *err, size_t len)
{
	struct out *o = ctx;
	for (size_t i = 0; i < n; i++) {
		if (o->refuse && o->n == (size_t)o->refuse) {
			snprintf(err, len, "test: record %zu refused", o->n);
			return -1;
		}
		if (o->n < OUTMAX)
			o->rec[o->n++] = r[i];
	}
	return 0;
}

/* A kernel's records for the timing model, from an array. */
struct src {
	const gc_rec *rec;
	size_t n, pos;
};

static long next_records(void *ctx, gc_rec *r, uint64_t *recno, size_t max, char *err,
			 size_t len)
{
	struct src *s = ctx;
	size_t n = 0;
	for (; n < max && s->pos < s->n; n++) {
		recno[n] = s->pos + 1;
		r[n] = s->rec[s->pos++];
	}
	return (long)n;
}

static int step_every_cycle; /* params.step_all of the next engine */

static gc_l1 *engine(const gc_gpu_config *c, int timing, int emit_all, struct out *o,
		     struct src *s)
{
	gc_l1_params p;
	char err[256];
	memset(&p, 0, sizeof p);
	p.gpu = c;
	p.in_line = c->l1.line;
	p.in_sector = c->l1.sector;
	p.timing = timing;
	p.classify = 1;
	p.emit_all = emit_all;
	p.flush = 1;
	p.seed = 1;
	p.window = 1u << 20;
	p.step_all = step_every_cycle;
	p.input = "test";
	p.emit = emit;
	p.emit_ctx = o;
	p.read = next_records;
	p.read_ctx = s;
	gc_l1 *L = gc_l1_new(&p, err, sizeof err);
	if (!CHECK_MSG(L != NULL, "gc_l1_new: %s", err))
		exit(1);
	return L;
}

static gc_rec req(int op, uint64_t addr, unsigned mask, unsigned bytes)
{
	gc_rec r;
	memset(&r, 0, sizeof r);
	r.op = (uint8_t)op;
	r.space = GC_GLOBAL;
	r.addr = addr;
	r.mask = (uint8_t)mask;
	r.size = (uint16_t)bytes;
	r.pc = 0x100;
	return r;
}

/* Model one request at a time (functional). */
static void feed(gc_l1 *L, const gc_rec *r, size_t n)
{
	for (size_t i = 0; i < n; i++)
		CHECK_MSG(gc_l1_access(L, &r[i], 1, NULL, 0) == 0, "access %zu: %s", i,
			  gc_l1_error(L));
}

static const gc_l1_statistics *finish(gc_l1 *L)
{
	CHECK(gc_l1_finish(L) == 0);
	return gc_l1_stats(L);
}

/* The functional model of an L1 "key=value ..." over r[0..n), one kernel
 * (flushed at its end), statistics finished. */
static gc_l1 *run_seq(const char *keys, int emit_all, struct out *o, const gc_rec *r, size_t n)
{
	gc_gpu_config c = config(keys);
	gc_l1 *L = engine(&c, 0, emit_all, o, NULL);
	CHECK(gc_l1_kernel_begin(L, NULL) == 0);
	feed(L, r, n);
	CHECK(gc_l1_kernel_end(L) == 0);
	finish(L);
	return L;
}

/* ---- units ------------------------------------------------------------------ */

#define A 0x000 /* set 0 of a 2-set L1 of 128-byte lines */
#define B 0x080 /* set 1 */
#define C 0x100 /* set 0 */
#define D 0x200 /* set 0 */

/* 2 sets x 2 ways, LRU, 4 sectors of 32 bytes a line.  A B C hit-A D C A,
 * then sector 1 of A:
 *   A miss, B miss, C miss (set 0: A C), A hit (A newer), D miss (evicts
 *   C), C miss (evicts A), A miss (evicts D), A sector 1: a sector miss.
 * Classes (the shadow holds 4 lines, all fit): A B C D compulsory, C and A
 * again conflict, sector 1 of A never requested: compulsory. */
static void t_lru_2x2(void)
{
	gc_rec r[] = {req(GC_LOAD, A, 1, 4), req(GC_LOAD, B, 1, 4), req(GC_LOAD, C, 1, 4),
		      req(GC_LOAD, A, 1, 4), req(GC_LOAD, D, 1, 4), req(GC_LOAD, C, 1, 4),
		      req(GC_LOAD, A, 1, 4), req(GC_LOAD, A, 2, 4)};
	struct out *o = calloc(1, sizeof *o);
	gc_l1 *L = run_seq("l1.sets=2 l1.ways=2 l1.sector=32", 1, o, r, 8);
	const gc_l1_statistics *s = gc_l1_stats(L);
	CHECK_U64(s->total.requests, 8);
	CHECK_U64(s->total.hits, 1);
	CHECK_U64(s->total.misses, 7);
	CHECK_U64(s->total.sector_misses, 1);
	CHECK_U64(s->total.cls[GC_C_COMPULSORY], 5);
	CHECK_U64(s->total.cls[GC_C_CONFLICT], 2);
	CHECK_U64(s->total.cls[GC_C_CAPACITY], 0);
	CHECK_U64(s->total.l2_reads, 7);
	CHECK_U64(s->total.l2_read_bytes, 7 * 32);
	static const unsigned want[] = {GC_R_MISS, GC_R_MISS, GC_R_MISS, GC_R_HIT,
					GC_R_MISS, GC_R_MISS, GC_R_MISS, GC_R_SECTOR_MISS};
	CHECK_U64(o->n, 8);
	for (size_t i = 0; i < o->n && i < 8; i++)
		CHECK_MSG(GC_OUT_RESULT(o->rec[i].outcome) == want[i], "request %zu: result %u, want %u",
			  i, GC_OUT_RESULT(o->rec[i].outcome), want[i]);
	CHECK_U64(s->nsms, 1);
	CHECK_U64(s->npcs, 1);
	CHECK_U64(s->pcs[0].misses, 7);
	CHECK_U64(s->pcs[0].hits, 1);
	CHECK_U64(s->pcs[0].requests, 8);
	gc_l1_free(L);
	free(o);
}

/* A fully associative LRU L1 of n lines misses exactly where the reuse
 * distance (distinct lines since the last use) is n or more, or on first
 * use: 400 loads over 12 lines, distances worked out here. */
static void t_fully_assoc(void)
{
	for (unsigned ways = 1; ways <= 8; ways *= 2) {
		char keys[64];
		snprintf(keys, sizeof keys, "l1.sets=1 l1.ways=%u l1.sector=128", ways);
		gc_gpu_config c = config(keys);
		struct out *o = calloc(1, sizeof *o);
		gc_l1 *L = engine(&c, 0, 1, o, NULL);
		enum { N = 400 };
		uint64_t line[N], x = 12345;
		unsigned misses = 0, bad = 0;
		for (int i = 0; i < N; i++) {
			x = x * 6364136223846793005u + 1442695040888963407u;
			line[i] = (x >> 33) % 12;
			gc_rec r = req(GC_LOAD, line[i] * 128, 1, 4);
			feed(L, &r, 1);
			/* the distance: distinct lines since line[i]'s last use */
			int j = i - 1, distinct = 0;
			uint32_t set = 0;
			for (; j >= 0 && line[j] != line[i]; j--)
				if (!(set & (1u << line[j]))) {
					set |= 1u << line[j];
					distinct++;
				}
			int miss = j < 0 || distinct >= (int)ways;
			misses += miss;
			bad += miss != (GC_OUT_RESULT(o->rec[i].outcome) == GC_R_MISS);
		}
		const gc_l1_statistics *s = finish(L);
		CHECK_MSG(bad == 0, "%u ways: %u requests against their reuse distance", ways, bad);
		CHECK_U64(s->total.misses, misses);
		CHECK_U64(s->total.hits, N - misses);
		/* fully associative: no conflict misses */
		CHECK_U64(s->total.cls[GC_C_CONFLICT], 0);
		gc_l1_free(L);
		free(o);
	}
}

/*
 * The shadow's index under churn: an L1 of 8 sets x 4 ways (a shadow of 32
 * lines, its index 128 buckets, a line's bucket the top 7 bits of
 * gc_hash64 of its line address) and 40 lines whose buckets are the first
 * and the last, so the index holds two long chains, and evictions and
 * write-evict stores unlink from the middle of them.  Every miss's class
 * against the definition, from a
 * plain fully associative LRU list of 32 lines: compulsory when the line
 * was never requested, else capacity when the list misses it too, else
 * conflict; a write-evict store takes its line out of the list.
 */
static void t_shadow_index(void)
{
	enum { N = 3000, LINES = 40, FA = 32 };
	uint64_t pool[LINES];
	unsigned np = 0;
	for (uint64_t t = 0; np < LINES; t++) {
		unsigned home = (unsigned)(gc_hash64(t) >> 57);
		if (home == 127 || home == 0)
			pool[np++] = t;
	}
	gc_gpu_config c = config("l1.sets=8 l1.ways=4 l1.sector=128 l1.write=write-evict");
	struct out *o = calloc(1, sizeof *o);
	gc_l1 *L = engine(&c, 0, 1, o, NULL);
	CHECK(gc_l1_kernel_begin(L, NULL) == 0);
	unsigned ref[FA], nref = 0, bad = 0, n[GC_NCLASSES] = {0};
	unsigned char seen[LINES] = {0};
	uint64_t x = 99;
	for (int i = 0; i < N; i++) {
		x = x * 6364136223846793005u + 1442695040888963407u;
		unsigned k = (unsigned)((x >> 33) % LINES);
		int store = (x >> 20) % 7 == 0;
		gc_rec r = req(store ? GC_STORE : GC_LOAD, pool[k] * 128, 1, 4);
		feed(L, &r, 1);
		unsigned j = 0;
		while (j < nref && ref[j] != k)
			j++;
		int fa_hit = j < nref;
		unsigned want = !seen[k] ? GC_C_COMPULSORY : fa_hit ? GC_C_CONFLICT : GC_C_CAPACITY;
		seen[k] = 1;
		if (GC_OUT_RESULT(o->rec[i].outcome) != GC_R_HIT) {
			n[want]++;
			bad += GC_OUT_CLASS(o->rec[i].outcome) != want;
		}
		/* the list: out of it (a store, or moving to the front), then a
		 * load at the front, the least recent gone when full */
		if (fa_hit)
			memmove(ref + j, ref + j + 1, (--nref - j) * sizeof *ref);
		if (!store) {
			if (nref == FA)
				nref--;
			memmove(ref + 1, ref, nref++ * sizeof *ref);
			ref[0] = k;
		}
	}
	CHECK(gc_l1_kernel_end(L) == 0);
	const gc_l1_statistics *s = finish(L);
	CHECK_MSG(bad == 0, "%u misses of %d requests classed against the definition", bad, N);
	for (int cl = GC_C_COMPULSORY; cl <= GC_C_CONFLICT; cl++) {
		CHECK_U64(s->total.cls[cl], n[cl]);
		CHECK_MSG(n[cl] > 0, "class %d occurs", cl);
	}
	gc_l1_free(L);
	free(o);
}

/* Capacity and conflict: in 1 set x 2 ways A B C A misses on A again
 * (a 2-line fully associative cache misses too: capacity); in 2 sets x 1
 * way A C A misses on A again (A and C share set 0, a 2-line fully
 * associative cache would hit: conflict). */
static void t_classes(void)
{
	gc_rec r1[] = {req(GC_LOAD, A, 1, 4), req(GC_LOAD, B, 1, 4), req(GC_LOAD, C, 1, 4),
		       req(GC_LOAD, A, 1, 4)};
	struct out *o = calloc(1, sizeof *o);
	gc_l1 *L = run_seq("l1.sets=1 l1.ways=2 l1.sector=128", 1, o, r1, 4);
	const gc_l1_statistics *s = gc_l1_stats(L);
	CHECK_U64(s->total.cls[GC_C_COMPULSORY], 3);
	CHECK_U64(s->total.cls[GC_C_CAPACITY], 1);
	CHECK_U64(GC_OUT_CLASS(o->rec[3].outcome), GC_C_CAPACITY);
	gc_l1_free(L);

	gc_rec r2[] = {req(GC_LOAD, A, 1, 4), req(GC_LOAD, C, 1, 4), req(GC_LOAD, A, 1, 4)};
	o->n = 0;
	L = run_seq("l1.sets=2 l1.ways=1 l1.sector=128", 1, o, r2, 3);
	s = gc_l1_stats(L);
	CHECK_U64(s->total.cls[GC_C_COMPULSORY], 2);
	CHECK_U64(s->total.cls[GC_C_CONFLICT], 1);
	CHECK_U64(GC_OUT_CLASS(o->rec[2].outcome), GC_C_CONFLICT);
	gc_l1_free(L);
	free(o);
}

/* Write-through, no-write-allocate: store A misses and goes on without
 * taking a line; load A misses and fills; store A hits and goes on; load
 * A hits.  To L2: the store, the load's sector, the store. */
static void t_write_through(void)
{
	gc_rec r[] = {req(GC_STORE, A, 1, 4), req(GC_LOAD, A, 1, 4), req(GC_STORE, A, 1, 4),
		      req(GC_LOAD, A, 1, 4)};
	struct out *o = calloc(1, sizeof *o);
	gc_l1 *L = run_seq("l1.sets=1 l1.ways=2 l1.sector=32 l1.write=write-through "
			   "l1.write_alloc=no-write-allocate", 0, o, r, 4);
	const gc_l1_statistics *s = gc_l1_stats(L);
	CHECK_U64(s->total.hits, 2);
	CHECK_U64(s->total.misses, 2);
	CHECK_U64(s->total.l2_writes, 2);
	CHECK_U64(s->total.l2_write_bytes, 8);
	CHECK_U64(s->total.l2_reads, 1);
	CHECK_U64(s->total.writebacks, 0);
	CHECK_U64(o->n, 3);
	CHECK_U64(o->rec[0].op, GC_STORE);
	CHECK_U64(o->rec[1].op, GC_LOAD);
	CHECK_U64(o->rec[1].mask, 1);
	CHECK_U64(o->rec[2].op, GC_STORE);
	gc_l1_free(L);
	free(o);
}

/* Write-back, write-allocate: a store of a whole sector to A takes the
 * line and dirties sector 0 (nothing to L2); a load of it hits; B and C
 * fill the 2 ways, C evicting A, whose dirty sector is written back; at
 * the kernel's end (flush) nothing is dirty. */
static void t_write_back(void)
{
	gc_rec r[] = {req(GC_STORE, A, 1, 32), req(GC_LOAD, A, 1, 4), req(GC_LOAD, B, 1, 4),
		      req(GC_LOAD, C, 1, 4), req(GC_STORE, B, 3, 64)};
	struct out *o = calloc(1, sizeof *o);
	gc_l1 *L = run_seq("l1.sets=1 l1.ways=2 l1.sector=32 l1.write=write-back "
			   "l1.write_alloc=write-allocate", 0, o, r, 5);
	const gc_l1_statistics *s = gc_l1_stats(L);
	CHECK_U64(s->total.hits, 1);
	CHECK_U64(s->total.misses, 4);  /* A store, B, C, sector 1 of B */
	CHECK_U64(s->total.l2_reads, 2); /* B, C */
	CHECK_U64(s->total.writebacks, 2); /* A at C's fill, B's 2 sectors at the flush */
	CHECK_U64(s->total.l2_writes, 2);
	CHECK_U64(s->total.l2_write_bytes, 32 + 64);
	CHECK_U64(o->n, 4);
	CHECK_U64(o->rec[1].op, GC_STORE); /* A written back as C fills */
	CHECK_U64(o->rec[1].addr, A);
	CHECK_U64(o->rec[1].size, 32);
	CHECK_U64(o->rec[3].op, GC_STORE); /* the flush */
	CHECK_U64(o->rec[3].addr, B);
	CHECK_U64(o->rec[3].size, 64);
	CHECK_U64(o->rec[3].mask, 3);
	CHECK_U64(s->nkernels, 1);
	CHECK_U64(s->kernels[0].n.requests, 5);
	gc_l1_free(L);
	free(o);
}

/*
 * The timing model: whole-line sectors, hit latency 1, a miss 100 cycles
 * (sigma 0), one MSHR entry that serves 2 requests.  One block of 3
 * warps, one load each: w0 A, w1 A, w2 B.
 *   t=0   w0 A misses: the entry, data at 100.
 *   t=1   w1 A merges into it (latency class), data at 100.
 *   t=2   w2 B needs an entry: none free, cancelled; every warp waits for
 *         the fill, so steps 3..99 are skipped, each a cancel too
 *         (98 stalls in all).
 *   t=100 the fill frees the entry; w0 and w1 wake and end; w2 issues B
 *         (an MSHR miss): data at 200, the last cycle.
 */
static void t_timing_mshr(void)
{
	for (int step_all = 0; step_all <= 1; step_all++) {
		gc_gpu_config c = config("l1.sets=1 l1.ways=2 l1.sector=128 l1.latency=1 "
					 "miss.lambda_min=100 l1.mshr_entries=1 l1.mshr_merge=2");
		gc_rec in[3] = {req(GC_LOAD, A, 1, 4), req(GC_LOAD, A, 1, 4), req(GC_LOAD, B, 1, 4)};
		for (int i = 0; i < 3; i++)
			in[i].warp = (uint16_t)i;
		struct out *o = calloc(1, sizeof *o);
		struct src src = {in, 3, 0};
		step_every_cycle = step_all; /* the skipping of blocked steps checked */
		gc_l1 *L = engine(&c, 1, 1, o, &src);
		step_every_cycle = 0;
		CHECK(gc_l1_kernel_begin(L, NULL) == 0);
		CHECK_MSG(gc_l1_kernel_run(L) == 0, "%s", gc_l1_error(L));
		CHECK(gc_l1_kernel_end(L) == 0);
		const gc_l1_statistics *s = finish(L);
		CHECK_U64(o->n, 3);
		static const uint64_t time[3] = {0, 1, 100};
		static const unsigned addr[3] = {A, A, B}, cls[3] = {GC_C_COMPULSORY, GC_C_LATENCY,
								     GC_C_MSHR};
		for (size_t i = 0; i < 3 && i < o->n; i++) {
			CHECK_U64(o->rec[i].time, time[i]);
			CHECK_U64(o->rec[i].addr, addr[i]);
			CHECK_U64(GC_OUT_RESULT(o->rec[i].outcome), GC_R_MISS);
			CHECK_U64(GC_OUT_CLASS(o->rec[i].outcome), cls[i]);
		}
		CHECK_U64(s->total.misses, 3);
		CHECK_U64(s->total.cls[GC_C_LATENCY], 1);
		CHECK_U64(s->total.stalls, 98);
		CHECK_U64(s->total.l2_reads, 2);
		CHECK_U64(s->cycles, 200);
		CHECK_U64(s->peak_buffered, 3);
		gc_l1_free(L);
		free(o);
	}
}

/* Failures come back as -1 with a message: a stream line size not the
 * L1's; an output that refuses a record (and then every call fails). */
static void t_errors(void)
{
	gc_gpu_config c = config("l1.sets=2 l1.ways=2 l1.sector=32");
	gc_l1_params p;
	char err[256] = "";
	struct out *o = calloc(1, sizeof *o);
	memset(&p, 0, sizeof p);
	p.gpu = &c;
	p.in_line = 64;
	p.input = "in.gcs";
	p.emit = emit;
	p.emit_ctx = o;
	CHECK(gc_l1_new(&p, err, sizeof err) == NULL);
	CHECK_STR(err, "in.gcs: the stream's lines are 64 bytes, the L1's 128 "
		  "(give gc-coalesce and gc-l1 the same line size)");

	gc_l1 *L = engine(&c, 0, 0, o, NULL);
	o->refuse = 1;
	gc_rec r[] = {req(GC_LOAD, A, 1, 4), req(GC_LOAD, B, 1, 4)};
	CHECK(gc_l1_access(L, &r[0], 1, NULL, 0) == 0);
	CHECK(gc_l1_access(L, &r[1], 1, NULL, 0) == -1);
	CHECK_STR(gc_l1_error(L), "test: record 1 refused");
	CHECK(gc_l1_access(L, &r[0], 1, NULL, 0) == -1);
	CHECK(gc_l1_finish(L) == -1);
	gc_l1_free(L);
	free(o);
}

static const check_unit units[] = {
	{"lru-2x2", t_lru_2x2},
	{"fully-assoc", t_fully_assoc},
	{"classes", t_classes},
	{"write-through", t_write_through},
	{"write-back", t_write_back},
	{"timing-mshr", t_timing_mshr},
	{"errors", t_errors},
	{"shadow-index", t_shadow_index},
};

int main(int argc, char **argv)
{
	return check_run(units, CHECK_NUNITS(units), argc > 1 ? argv[1] : NULL);
}
