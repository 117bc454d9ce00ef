/*
 * gpu_occupancy.c - how many blocks of a kernel an SM holds at once
 * (occupancy, seed 003 formulas 3-6), and the shared-memory carve-out
 * the adaptive L1 chooses for it (formula 7; gc-config(5), OCCUPANCY and
 * CARVE-OUT).
 */
#include "config/gpu.h"

#include <string.h>

/* ---- occupancy -------------------------------------------------------- */

const char *gc_gpu_limit_name(int limit)
{
	switch (limit) {
	case GC_LIMIT_THREADS: return "threads";
	case GC_LIMIT_WARPS: return "warps";
	case GC_LIMIT_BLOCKS: return "blocks";
	case GC_LIMIT_REGISTERS: return "registers";
	case GC_LIMIT_SHMEM: return "shared memory";
	}
	return "none";
}

static uint64_t round_up(uint64_t v, uint64_t unit)
{
	return unit > 1 ? (v + unit - 1) / unit * unit : v;
}

static unsigned clamp_blocks(uint64_t v)
{
	return v >= GC_GPU_UNLIMITED ? GC_GPU_UNLIMITED - 1 : (unsigned)v;
}

unsigned gc_gpu_occupancy_at(const gc_gpu_config *c, unsigned threads, unsigned regs,
			     uint64_t shmem, uint64_t shmem_per_sm, gc_occupancy *o)
{
	gc_occupancy tmp;
	if (!o)
		o = &tmp;
	memset(o, 0, sizeof *o);
	o->limiter = -1;
	if (threads == 0) {
		o->why = "a block of 0 threads";
		return 0;
	}
	unsigned wpb = (threads + c->sm.warp_size - 1) / c->sm.warp_size;
	o->warps_per_block = wpb;
	if (threads > c->sm.max_threads_per_block)
		o->why = "more threads per block than sm.max_threads_per_block";
	/* Formula 4, and its warp-slot form. */
	o->limit[GC_LIMIT_THREADS] = c->sm.max_threads / threads;
	o->limit[GC_LIMIT_WARPS] = c->sm.max_warps / wpb;
	o->limit[GC_LIMIT_BLOCKS] = c->sm.max_blocks;
	/* Formula 5: registers are allocated per warp, rounded up to the
	 * allocation unit, from one of the register-file partitions. */
	if (regs == 0) {
		o->limit[GC_LIMIT_REGISTERS] = GC_GPU_UNLIMITED;
	} else {
		uint64_t rpw = round_up((uint64_t)regs * c->sm.warp_size, c->sm.reg_alloc_unit);
		o->regs_per_warp = (unsigned)rpw;
		if (regs > c->sm.max_regs_per_thread)
			o->why = "more registers per thread than sm.max_regs_per_thread";
		else if (rpw * wpb > c->sm.max_regs_per_block)
			o->why = "more registers per block than sm.max_regs_per_block";
		uint64_t warps = (c->sm.registers / c->sm.reg_partitions) / rpw * c->sm.reg_partitions;
		o->limit[GC_LIMIT_REGISTERS] = clamp_blocks(warps / wpb);
	}
	/* Formula 6, with shared memory allocated in units. */
	uint64_t sa = round_up(shmem, c->sm.shmem_alloc_unit);
	o->shmem_per_block = sa;
	if (sa == 0) {
		o->limit[GC_LIMIT_SHMEM] = GC_GPU_UNLIMITED;
	} else {
		if (sa > c->sm.max_shmem_per_block)
			o->why = "more shared memory per block than sm.max_shmem_per_block";
		o->limit[GC_LIMIT_SHMEM] = clamp_blocks(shmem_per_sm / sa);
	}
	/* Formula 3: the smallest limit. */
	unsigned active = GC_GPU_UNLIMITED;
	for (int i = 0; i < GC_NLIMITS; i++)
		if (o->limit[i] < active) {
			active = o->limit[i];
			o->limiter = i;
		}
	o->active = o->why ? 0 : active;
	return o->active;
}

unsigned gc_gpu_occupancy(const gc_gpu_config *c, unsigned threads, unsigned regs,
			  uint64_t shmem, gc_occupancy *o)
{
	return gc_gpu_occupancy_at(c, threads, regs, shmem, c->sm.shmem, o);
}

/* ---- the carve-out ----------------------------------------------------- */

int gc_gpu_carveout(const gc_gpu_config *c, unsigned threads, unsigned regs, uint64_t shmem,
		    gc_carveout *out)
{
	gc_occupancy o;
	memset(out, 0, sizeof *out);
	unsigned n = gc_gpu_occupancy(c, threads, regs, shmem, &o);
	if (n == 0)
		return -1;
	out->active = n;
	out->shmem_used = (uint64_t)n * o.shmem_per_block;
	if (c->sm.carveout != GC_CARVEOUT_ADAPTIVE) {
		out->shmem = c->sm.shmem;
		out->l1_size = c->l1.size;
		out->l1_sets = c->l1.sets;
		out->l1_ways = c->l1.ways;
		return 0;
	}
	/* Formula 7: the smallest option x with MaxActBlk(x) equal to the
	 * active blocks at the largest option.  That is the smallest option
	 * holding the shared memory of all active blocks (reference §3.4). */
	uint64_t x = c->sm.options[c->sm.noptions - 1];
	for (int i = 0; i < c->sm.noptions; i++)
		if (gc_gpu_occupancy_at(c, threads, regs, shmem, c->sm.options[i], NULL) == n) {
			x = c->sm.options[i];
			break;
		}
	out->shmem = x;
	out->l1_size = c->sm.unified - x;
	if (c->l1.scale == GC_SCALE_WAYS) {
		out->l1_sets = c->l1.sets;
		out->l1_ways = (unsigned)(out->l1_size / ((uint64_t)c->l1.sets * c->l1.line));
	} else {
		out->l1_ways = c->l1.ways;
		out->l1_sets = (unsigned)(out->l1_size / ((uint64_t)c->l1.ways * c->l1.line));
	}
	return 0;
}

void gc_gpu_kernel_l1(const gc_gpu_config *c, const gc_kernel *k, gc_carveout *out)
{
	gc_carveout co;
	uint64_t threads = k ? gc_kernel_threads_per_block(k) : 0;
	memset(out, 0, sizeof *out);
	out->shmem = c->sm.shmem;
	out->l1_sets = c->l1.sets;
	out->l1_ways = c->l1.ways;
	if (threads && threads <= UINT32_MAX &&
	    gc_gpu_carveout(c, (unsigned)threads, k->regs, k->shmem, &co) == 0) {
		if (co.l1_sets && co.l1_ways) {
			out->l1_sets = co.l1_sets;
			out->l1_ways = co.l1_ways;
		}
		out->shmem = co.shmem;
		out->active = co.active;
		out->shmem_used = co.shmem_used;
	}
	out->l1_size = (uint64_t)out->l1_sets * out->l1_ways * c->l1.line;
}
