/*
 * perf_warp.c - a kernel's warps for the performance model (perf.h): the
 * memory instructions each warp shows in the stream, the features the
 * representative warp is chosen by, and that warp's intervals.
 *
 * The compute field (gc-stream(5)) counts what a warp did before each of
 * its memory instructions, cumulatively and wrapping; the seq field
 * numbers its memory instructions.  Between two instructions of a warp
 * the stream shows, the differences say what happened in between, the
 * memory instructions the stream leaves out (L1 hits, after gc-l1)
 * included.
 */
#include "model/perf.h"

#include "base/grow.h"
#include "base/rowmap.h"
#include "stream/format.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct gc_perf_kernel {
	gc_rowmap warps; /* rows: gc_perf_warp, by block << 16 | warp */
};

gc_perf_kernel *gc_perf_kernel_new(void)
{
	gc_perf_kernel *k = calloc(1, sizeof *k);
	if (k)
		gc_rowmap_init(&k->warps, sizeof(gc_perf_warp), 256);
	return k;
}

void gc_perf_kernel_reset(gc_perf_kernel *k)
{
	gc_perf_warp *w = gc_rowmap_rows(&k->warps);
	for (size_t i = 0; i < gc_rowmap_count(&k->warps); i++)
		free(w[i].inst);
	gc_rowmap_free(&k->warps);
	gc_rowmap_init(&k->warps, sizeof(gc_perf_warp), 256);
}

void gc_perf_kernel_free(gc_perf_kernel *k)
{
	if (!k)
		return;
	gc_perf_kernel_reset(k);
	gc_rowmap_free(&k->warps);
	free(k);
}

static void count_req(gc_perf_inst *in, const gc_perf_req *r)
{
	in->requests++;
	if (r->op == GC_STORE)
		in->stores++;
	else if (r->l1_miss)
		in->misses++;
}

int gc_perf_kernel_add(gc_perf_kernel *k, const gc_perf_req *r, char *err, size_t len)
{
	int added;
	gc_perf_warp *w = gc_rowmap_row(&k->warps, (uint64_t)r->block << 16 | r->warp, &added);
	if (!w) {
		snprintf(err, len, "out of memory");
		return -1;
	}
	if (added) {
		w->block = r->block;
		w->warp = r->warp;
	}
	if (w->n && w->inst[w->n - 1].seq == r->seq) {
		gc_perf_inst *in = &w->inst[w->n - 1];
		if (in->compute && r->compute && in->compute != r->compute) {
			snprintf(err, len, "field compute: 0x%016llx differs from 0x%016llx on an "
				 "earlier request of the same instruction (block %u warp %u seq %u)",
				 (unsigned long long)r->compute, (unsigned long long)in->compute,
				 r->block, r->warp, r->seq);
			return -1;
		}
		if (!in->compute)
			in->compute = r->compute;
		count_req(in, r);
		return 0;
	}
	if (w->n == w->cap) {
		gc_perf_inst *p = gc_grow(w->inst, &w->cap, w->n + 1, sizeof *p, 16);
		if (!p) {
			snprintf(err, len, "out of memory");
			return -1;
		}
		w->inst = p;
	}
	gc_perf_inst *in = &w->inst[w->n++];
	memset(in, 0, sizeof *in);
	in->seq = r->seq;
	in->pc = r->pc;
	in->op = r->op;
	in->read = r->op != GC_STORE;
	in->compute = r->compute;
	count_req(in, r);
	return 0;
}

/* ---- what happened between two instructions ------------------------------ */

struct delta {
	double insts, mem, cycles, waits; /* mem: memory instructions, the later one's included */
};

#define WRAP(v, bits) ((v) & ((UINT64_C(1) << (bits)) - 1))

/* From instruction a (NULL: the warp's start) to b. */
static void delta(const gc_perf_shape *s, const gc_perf_inst *a, const gc_perf_inst *b,
		  struct delta *d)
{
	d->mem = a ? (double)(b->seq - a->seq) : (double)b->seq + 1.0;
	if (s->have_compute) {
		uint64_t x = a ? a->compute : 0, y = b->compute;
		d->insts = (double)WRAP(GC_CF_INSTS(y) - GC_CF_INSTS(x), GC_CF_INSTS_BITS);
		d->cycles = (double)WRAP(GC_CF_CYCLES(y) - GC_CF_CYCLES(x), GC_CF_CYCLES_BITS);
		d->waits = (double)WRAP(GC_CF_WAITS(y) - GC_CF_WAITS(x), GC_CF_WAITS_BITS);
	} else {
		d->insts = s->insts_per_mem * d->mem;
		d->cycles = (d->insts + d->mem) / s->ipc_compute;
		d->waits = 0.0;
	}
}

static int by_seq(const void *a, const void *b)
{
	const gc_perf_inst *x = a, *y = b;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

static int by_warp(const void *a, const void *b)
{
	const gc_perf_warp *x = a, *y = b;
	if (x->block != y->block)
		return (x->block > y->block) - (x->block < y->block);
	return (x->warp > y->warp) - (x->warp < y->warp);
}

/* Sort by seq and merge the requests of one instruction that came apart. */
static void tidy(gc_perf_warp *w)
{
	qsort(w->inst, w->n, sizeof *w->inst, by_seq);
	size_t o = 0;
	for (size_t i = 0; i < w->n; i++) {
		if (o && w->inst[o - 1].seq == w->inst[i].seq) {
			gc_perf_inst *t = &w->inst[o - 1];
			t->requests += w->inst[i].requests;
			t->misses += w->inst[i].misses;
			t->stores += w->inst[i].stores;
			if (!t->compute)
				t->compute = w->inst[i].compute;
			continue;
		}
		w->inst[o++] = w->inst[i];
	}
	w->n = o;
}

gc_perf_warp *gc_perf_kernel_warps(gc_perf_kernel *k, const gc_perf_shape *s, size_t *n)
{
	gc_perf_warp *w = gc_rowmap_rows(&k->warps);
	*n = gc_rowmap_count(&k->warps);
	qsort(w, *n, sizeof *w, by_warp);
	gc_rowmap_forget(&k->warps); /* the order changed: no more lookups */
	for (size_t i = 0; i < *n; i++) {
		gc_perf_warp *p = &w[i];
		tidy(p);
		p->insts = p->mem = p->cycles = p->waits = 0.0;
		for (size_t j = 0; j < p->n; j++) {
			struct delta d;
			delta(s, j ? &p->inst[j - 1] : NULL, &p->inst[j], &d);
			p->insts += d.insts;
			p->mem += d.mem;
			p->cycles += d.cycles;
			p->waits += d.waits;
		}
		p->cpi = p->insts + p->mem > 0.0 ? p->cycles / (p->insts + p->mem) : 0.0;
	}
	return w;
}

static void features(const gc_perf_warp *w, double f[4])
{
	f[0] = w->insts;
	f[1] = w->mem;
	f[2] = w->cpi;
	f[3] = w->waits;
}

long gc_perf_representative(const gc_perf_warp *w, size_t n, double mean[4], double *score)
{
	memset(mean, 0, 4 * sizeof *mean);
	*score = 0.0;
	if (!n)
		return -1;
	for (size_t i = 0; i < n; i++) {
		double f[4];
		features(&w[i], f);
		for (int j = 0; j < 4; j++)
			mean[j] += f[j];
	}
	for (int j = 0; j < 4; j++)
		mean[j] /= (double)n;
	long best = -1;
	double best_score = 0.0;
	for (size_t i = 0; i < n; i++) {
		double f[4], sc = 0.0;
		features(&w[i], f);
		for (int j = 0; j < 4; j++)
			if (mean[j] > 0.0) {
				double r = (f[j] - mean[j]) / mean[j];
				sc += r * r;
			}
		/* Strictly less: the first of equals (lowest block, warp) stays. */
		if (best < 0 || sc < best_score) {
			best = (long)i;
			best_score = sc;
		}
	}
	*score = best_score;
	return best;
}

long gc_perf_intervals(const gc_perf_warp *w, const gc_perf_shape *s, gc_perf_interval **out)
{
	/* At most one interval per instruction, and the tail. */
	gc_perf_interval *iv = calloc(w->n + 1, sizeof *iv);
	if (!iv)
		return -1;
	long k = 0;
	gc_perf_interval acc;
	memset(&acc, 0, sizeof acc);
	double pending = 0.0; /* missed loads whose first reader is still to come */
	double hit_loads = 0.0; /* loads in the interval a wait may be for: L1 hits */
	double waits = 0.0;
	for (size_t j = 0; j < w->n; j++) {
		const gc_perf_inst *in = &w->inst[j];
		struct delta d;
		delta(s, j ? &w->inst[j - 1] : NULL, in, &d);
		acc.n += d.insts + d.mem;
		acc.c += d.cycles;
		/* The waits first go to the missed loads before them (already
		 * charged as a miss); the rest are waits on L1 hits. */
		double take = fmin(d.waits, pending);
		pending -= take;
		waits += d.waits - take;
		/* The memory instructions the stream leaves out between the two
		 * are L1 hits (or stores and shared-memory accesses). */
		hit_loads += d.mem - 1.0;
		acc.m_write += in->stores;
		if (in->read && in->misses) {
			acc.hit_waits = fmin(waits, hit_loads);
			acc.m_read = in->misses;
			acc.miss = 1;
			iv[k++] = acc;
			memset(&acc, 0, sizeof acc);
			pending += 1.0;
			hit_loads = waits = 0.0;
		} else if (in->read) {
			hit_loads += 1.0;
		}
	}
	if (s->tail > 0.0) {
		acc.n += s->tail;
		acc.c += s->have_compute ? s->tail * w->cpi : s->tail / s->ipc_compute;
	}
	acc.hit_waits = fmin(waits, hit_loads);
	if (acc.n > 0.0 || acc.m_write > 0.0)
		iv[k++] = acc;
	*out = iv;
	return k;
}
