/*
 * perf-test - unit tests of lib/model/perf.c and perf_warp.c (seed 004's
 * performance model), as TAP (check.h); exit 1 if any failed.
 * `perf-test NAME` runs one case (2 when there is none of that name).
 *
 * Most cases use one architecture, P below, whose numbers are easy to
 * work by hand:
 *   f = 1 GHz, 10 SMs, W = 4 warps, 8 MSHRs, issue width 2,
 *   L^MinLLC 100, L^MinDRAM 200, B^NoC 8 GB/s, B^DRAM 32 GB/s,
 *   block size 32 bytes, LLC miss rate 0.5, L1 hit 20 cycles.
 */
#include "model/perf.h"
#include "stream/format.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static gc_perf_params P(int model)
{
	gc_perf_params p = {
		.model = model, .clock = 1.0, .sms = 10, .warps = 4, .mshrs = 8,
		.issue_width = 2, .llc_latency = 100, .dram_latency = 200,
		.noc_bandwidth = 8, .dram_bandwidth = 32, .block_size = 32,
		.llc_miss_rate = 0.5, .l1_latency = 20,
	};
	return p;
}

/* Equal to 1e-9 relative. */
#define NEAR(got, want) \
	CHECK_MSG(fabs((got) - (want)) <= 1e-9 * fmax(1.0, fabs(want)), "%s: got %.12g, want %.12g", \
		  #got, (double)(got), (double)(want))

static void t_names(void)
{
	static const char *const n[] = {"mdm", "mdm-queue", "mdm-mshr", "gpumech-plus", "gpumech"};
	for (int i = 0; i < GC_PERF_NMODELS; i++) {
		CHECK_STR(gc_perf_model_name(i), n[i]);
		CHECK_U64(gc_perf_model_parse(n[i]), i);
	}
	CHECK(gc_perf_model_parse("GPUMech") == -1);
}

static void t_eq2(void)
{
	gc_perf_params p = P(GC_PERF_MDM);
	/* 3 x 4 = 12 > 8: MD; 2 x 4 = 8 is not more than 8: NMD. */
	CHECK(gc_perf_md(&p, 3));
	CHECK(!gc_perf_md(&p, 2));
	CHECK(!gc_perf_md(&p, 0));
}

static void t_eq3(void)
{
	gc_perf_params p = P(GC_PERF_MDM);
	/* min(3 x 4, 8) + 1 x 4 = 12; min(1 x 4, 8) + 0 = 4; min(0, 8) + 2 x 4 = 8 */
	NEAR(gc_perf_m(&p, 3, 1), 12.0);
	NEAR(gc_perf_m(&p, 1, 0), 4.0);
	NEAR(gc_perf_m(&p, 0, 2), 8.0);
}

static void t_eq4(void)
{
	gc_perf_params p = P(GC_PERF_MDM);
	/* 100 + 0.5 x 200 = 200 */
	NEAR(gc_perf_no_contention(&p), 200.0);
	p.llc_miss_rate = 0;
	NEAR(gc_perf_no_contention(&p), 100.0);
}

static void t_eq7_eq8(void)
{
	gc_perf_params p = P(GC_PERF_MDM);
	/* NoC: 1 GHz x 32 B / 8 GB/s = 4 cycles; DRAM: 1 x 0.5 x 32 / 32 = 0.5 */
	NEAR(gc_perf_noc_service(&p), 4.0);
	NEAR(gc_perf_dram_service(&p), 0.5);
	/* 1.4 GHz, 128 B, 1050 GB/s (seed 004 Table III): 0.170667 cycles */
	p.clock = 1.4;
	p.block_size = 128;
	p.noc_bandwidth = 1050;
	NEAR(gc_perf_noc_service(&p), 1.4 * 128 / 1050);
}

static void t_eq10(void)
{
	gc_perf_params p = P(GC_PERF_MDM);
	/* 4 x 12 x 10 = 480 > 100 + 200: saturated; 4 x 4 x 10 = 160 is not;
	 * 4 x 7.5 x 10 = 300 is not more than 300. */
	CHECK(gc_perf_saturated(&p, 12));
	CHECK(!gc_perf_saturated(&p, 4));
	CHECK(!gc_perf_saturated(&p, 7.5));
}

static void t_eq9(void)
{
	gc_perf_params p = P(GC_PERF_MDM);
	/* whole: 10 x 12 x 4 = 480; half: 240; DRAM's 0.5: 60 and 30 */
	NEAR(gc_perf_queue(&p, 1, 12, 4), 480.0);
	NEAR(gc_perf_queue(&p, 0, 12, 4), 240.0);
	NEAR(gc_perf_queue(&p, 1, 12, 0.5), 60.0);
	NEAR(gc_perf_queue(&p, 0, 12, 0.5), 30.0);
}

static void t_eq6(void)
{
	gc_perf_params p = P(GC_PERF_MDM);
	/* 3 x 4 / 8 = 1.5: 2 batches, 1 after the first: 1 x 740 */
	NEAR(gc_perf_mshr_batches(&p, 3, 740), 740.0);
	/* 5 x 4 / 8 = 2.5: 3 batches: 2 x 100 */
	NEAR(gc_perf_mshr_batches(&p, 5, 100), 200.0);
	/* 4 x 4 / 8 = 2 exactly: 2 batches: 1 x 100 */
	NEAR(gc_perf_mshr_batches(&p, 4, 100), 100.0);
	/* NMD (2 x 4 = 8): none */
	NEAR(gc_perf_mshr_batches(&p, 2, 100), 0.0);
}

static void t_gpumech_mshr(void)
{
	gc_perf_params p = P(GC_PERF_GPUMECH);
	/* (12 / 8 - 1) x 200 = 100; (20 / 8 - 1) x 100 = 150; none at or below 8 */
	NEAR(gc_perf_mshr_gpumech(&p, 3, 200), 100.0);
	NEAR(gc_perf_mshr_gpumech(&p, 5, 100), 150.0);
	NEAR(gc_perf_mshr_gpumech(&p, 2, 100), 0.0);
	NEAR(gc_perf_mshr_gpumech(&p, 1, 100), 0.0);
}

/*
 * One MD interval under the five models: n 10, c 30, one L1-hit wait,
 * M^Read 3, M^Write 1, ending in a miss.
 *   C = max(4 x 10 / 2 = 20, 30 + 1 x 20 + L^NoContention 200) = 250
 *   MD (12 > 8), M = 12, saturated (480 > 300)
 *   mdm:          NoC 480, DRAM 60, S^Mem 740, MSHR (2 - 1) x 740 = 740
 *   mdm-queue:    NoC 480, DRAM 60, S^Mem 740, MSHR 0.5 x 740 = 370
 *   mdm-mshr:     NoC 240, DRAM 30, S^Mem 470, MSHR 1 x 470 = 470
 *   gpumech-plus: NoC 240, DRAM 30, S^Mem 470, MSHR 0.5 x 470 = 235
 *   gpumech:      NoC 0,   DRAM 30, S^Mem 230, MSHR 0.5 x 200 = 100
 */
static const gc_perf_interval MDIV = {.n = 10, .c = 30, .hit_waits = 1, .m_read = 3,
				      .m_write = 1, .miss = 1};

static void cost(int model, double mshr, double noc, double dram, double s_mem)
{
	gc_perf_params p = P(model);
	gc_perf_cost c;
	gc_perf_interval_cost(&p, &MDIV, &c);
	CHECK_MSG(c.md && c.saturated, "%s: MD and saturated", gc_perf_model_name(model));
	NEAR(c.compute, 250.0);
	NEAR(c.path, 250.0);
	NEAR(c.m, 12.0);
	NEAR(c.mshr, mshr);
	NEAR(c.noc, noc);
	NEAR(c.dram, dram);
	NEAR(c.s_mem, s_mem);
}

static void t_models(void)
{
	cost(GC_PERF_MDM, 740, 480, 60, 740);
	cost(GC_PERF_MDM_QUEUE, 370, 480, 60, 740);
	cost(GC_PERF_MDM_MSHR, 470, 240, 30, 470);
	cost(GC_PERF_GPUMECH_PLUS, 235, 240, 30, 470);
	cost(GC_PERF_GPUMECH, 100, 0, 30, 230);
}

static void t_nmd(void)
{
	/* NMD (M^Read 1: 4 <= 8), M = 4, not saturated (160): half queues in
	 * MDM too, no MSHR stall: NoC 0.5 x 10 x 4 x 4 = 80, DRAM 10. */
	gc_perf_interval iv = {.n = 10, .c = 30, .m_read = 1, .miss = 1};
	gc_perf_params p = P(GC_PERF_MDM);
	gc_perf_cost c;
	gc_perf_interval_cost(&p, &iv, &c);
	CHECK(!c.md && !c.saturated);
	NEAR(c.compute, 230.0); /* 30 + 200 */
	NEAR(c.mshr, 0.0);
	NEAR(c.noc, 80.0);
	NEAR(c.dram, 10.0);
	/* MD but not saturated: eq. 9 takes half (M = 8 + 0: 4 x 8 x 10 = 320
	 * > 300 saturates; with B^NoC 16, L^NoCService 2: 160, not). */
	p.noc_bandwidth = 16;
	iv.m_read = 3;
	gc_perf_interval_cost(&p, &iv, &c);
	CHECK(c.md && !c.saturated);
	NEAR(c.m, 8.0);
	NEAR(c.noc, 0.5 * 10 * 8 * 2);
}

static void t_issue_bound(void)
{
	/* 200 instructions, 30 cycles of dependencies: 4 x 200 / 2 = 400. */
	gc_perf_interval iv = {.n = 200, .c = 30};
	gc_perf_params p = P(GC_PERF_MDM);
	gc_perf_cost c;
	gc_perf_interval_cost(&p, &iv, &c);
	NEAR(c.compute, 400.0);
	NEAR(c.path, 30.0); /* the warp alone: its 30 cycles */
	NEAR(c.mshr + c.noc + c.dram, 0.0);
}

static void t_eq1(void)
{
	/* MDIV (1530 cycles under MDM: 250 + 740 + 480 + 60) and the issue-
	 * bound interval (400): 4 x (10 + 200) / 1930 */
	gc_perf_interval iv[2] = {MDIV, {.n = 200, .c = 30}};
	gc_perf_params p = P(GC_PERF_MDM);
	gc_perf_total t;
	gc_perf_evaluate(&p, iv, 2, &t);
	NEAR(t.n, 210.0);
	NEAR(t.compute, 650.0);
	NEAR(t.path, 280.0); /* 250 + 30 */
	NEAR(t.mshr, 740.0);
	NEAR(t.noc, 480.0);
	NEAR(t.dram, 60.0);
	CHECK_U64(t.intervals, 2);
	CHECK_U64(t.md, 1);
	NEAR(t.ipc_sm, 840.0 / 1930.0);
	gc_perf_evaluate(&p, iv, 0, &t);
	NEAR(t.ipc_sm, 0.0);
}

/*
 * Seed 004 Fig. 4d: 3 warps, 3 MSHRs, one SM; each warp's load has 2 L1
 * misses, 6 requests in all, which go in two batches of 3.  All hit the
 * LLC (miss rate 0); 128-byte lines.  Take f = 1 GHz, B^NoC 1.28 GB/s
 * (L^NoCService = 128 / 1.28 = 100 cycles), L^MinLLC 100, L^MinDRAM 150.
 *   MD: 2 x 3 = 6 > 3; M = min(6, 3) = 3; saturated: 100 x 3 x 1 = 300 > 250
 *   S^NoC = 1 x 3 x 100 = 300 (each request waits for all three, the seed's
 *   "each request has to wait for two other requests" and its own);
 *   S^DRAM = 0; S^Mem = 100 + 300 = 400; batches ceil(6 / 3) = 2: S^MSHR 400.
 *   With 5 instructions in 10 cycles: C = max(3 x 5 / 1, 10 + 100) = 110.
 *   Cycles: 110 + 400 + 300 = 810; IPC^SM = 3 x 5 / 810.
 */
static void t_fig4(void)
{
	gc_perf_params p = {
		.model = GC_PERF_MDM, .clock = 1, .sms = 1, .warps = 3, .mshrs = 3,
		.issue_width = 1, .llc_latency = 100, .dram_latency = 150,
		.noc_bandwidth = 1.28, .dram_bandwidth = 1, .block_size = 128,
		.llc_miss_rate = 0, .l1_latency = 20,
	};
	gc_perf_interval iv = {.n = 5, .c = 10, .m_read = 2, .miss = 1};
	gc_perf_cost c;
	gc_perf_interval_cost(&p, &iv, &c);
	CHECK(c.md && c.saturated);
	NEAR(c.m, 3.0);
	NEAR(c.noc, 300.0);
	NEAR(c.dram, 0.0);
	NEAR(c.s_mem, 400.0);
	NEAR(c.mshr, 400.0);
	NEAR(c.compute, 110.0);
	gc_perf_total t;
	gc_perf_evaluate(&p, &iv, 1, &t);
	NEAR(t.ipc_sm, 15.0 / 810.0);
	/* With 6 MSHRs all six go at once: NMD, no MSHR stall, half queue
	 * (M = 6: 100 x 6 = 600 > 250 saturates, but NMD): 0.5 x 6 x 100. */
	p.mshrs = 6;
	gc_perf_interval_cost(&p, &iv, &c);
	CHECK(!c.md);
	NEAR(c.mshr, 0.0);
	NEAR(c.noc, 300.0);
}

/* Cycles of MDIV and an NMD interval under p. */
static double cycles(const gc_perf_params *p, double *mshr)
{
	gc_perf_interval iv[2] = {MDIV, {.n = 20, .c = 40, .m_read = 1, .m_write = 2, .miss = 1}};
	gc_perf_total t;
	gc_perf_evaluate(p, iv, 2, &t);
	if (mshr)
		*mshr = t.mshr;
	return t.compute + t.mshr + t.noc + t.dram;
}

static void t_monotonic(void)
{
	for (int m = 0; m < GC_PERF_NMODELS; m++) {
		gc_perf_params p = P(m);
		double last = HUGE_VAL;
		/* More DRAM bandwidth never lowers IPC: never more cycles. */
		for (double bw = 1; bw <= 4096; bw *= 1.5) {
			p.dram_bandwidth = bw;
			double c = cycles(&p, NULL);
			CHECK_MSG(c <= last, "%s: DRAM %g GB/s: %g cycles after %g",
				  gc_perf_model_name(m), bw, c, last);
			last = c;
		}
		p = P(m);
		last = HUGE_VAL;
		/* Nor more NoC bandwidth. */
		for (double bw = 0.5; bw <= 4096; bw *= 1.5) {
			p.noc_bandwidth = bw;
			double c = cycles(&p, NULL);
			CHECK_MSG(c <= last, "%s: NoC %g GB/s: %g cycles after %g",
				  gc_perf_model_name(m), bw, c, last);
			last = c;
		}
		/* More MSHRs never raise the MSHR stalls when the memory latency
		 * they multiply stays the same: with the queues gone (bandwidths
		 * of 10^9 GB/s, queues of a few 10^-6 cycles) S^Mem is
		 * L^NoContention within 10^-3, and the batches never grow.  (With
		 * queues they may: eq. 3's M grows with the MSHRs,
		 * and with it eqs. 9 and 5.  From 8 to 9 MSHRs MDIV keeps two
		 * batches while M goes from 12 to 13: S^MSHR 740 -> 785.  That is
		 * the seed's §V-B "more MSHR entries leads to an increase in NoC
		 * and DRAM queueing delays"; t_more_mshrs_queue checks it.) */
		p = P(m);
		p.noc_bandwidth = p.dram_bandwidth = 1e9;
		last = HUGE_VAL;
		for (double n = 1; n <= 512; n++) {
			double s;
			p.mshrs = n;
			(void)cycles(&p, &s);
			CHECK_MSG(s <= last + 1e-3, "%s: %g MSHRs: MSHR stall %g after %g",
				  gc_perf_model_name(m), n, s, last);
			last = s;
		}
		CHECK_MSG(last == 0.0, "%s: 512 MSHRs still stall", gc_perf_model_name(m));
		/* The batches themselves never grow, queues or not. */
		p = P(m);
		double lastb = HUGE_VAL;
		for (double n = 1; n <= 64; n++) {
			p.mshrs = n;
			double b = gc_perf_mshr_batches(&p, 3, 1.0);
			CHECK_MSG(b <= lastb, "%g MSHRs: %g batches after %g", n, b, lastb);
			lastb = b;
		}
	}
}

static void t_more_mshrs_queue(void)
{
	/* The counter-example above, worked: 9 MSHRs, M = min(12, 9) + 4 = 13,
	 * saturated (4 x 13 x 10 = 520 > 300), NoC 10 x 13 x 4 = 520, DRAM
	 * 10 x 13 x 0.5 = 65, S^Mem 200 + 520 + 65 = 785, ceil(12 / 9) - 1 = 1. */
	gc_perf_params p = P(GC_PERF_MDM);
	gc_perf_cost c;
	p.mshrs = 9;
	gc_perf_interval_cost(&p, &MDIV, &c);
	NEAR(c.m, 13.0);
	NEAR(c.mshr, 785.0);
}

static void t_order(void)
{
	/* On the MD interval: gpumech < gpumech-plus < mdm-mshr and
	 * mdm-queue < mdm (seed 004 §V: GPUMech predicts the fewest cycles). */
	double c[GC_PERF_NMODELS];
	for (int m = 0; m < GC_PERF_NMODELS; m++) {
		gc_perf_params p = P(m);
		c[m] = cycles(&p, NULL);
	}
	CHECK(c[GC_PERF_GPUMECH] < c[GC_PERF_GPUMECH_PLUS]);
	CHECK(c[GC_PERF_GPUMECH_PLUS] < c[GC_PERF_MDM_MSHR]);
	CHECK(c[GC_PERF_GPUMECH_PLUS] < c[GC_PERF_MDM_QUEUE]);
	CHECK(c[GC_PERF_MDM_MSHR] < c[GC_PERF_MDM]);
	CHECK(c[GC_PERF_MDM_QUEUE] < c[GC_PERF_MDM]);
}

/* ---- the warps ------------------------------------------------------------- */

static void add(gc_perf_kernel *k, uint32_t block, uint16_t warp, uint32_t seq, int op,
		int miss, uint64_t compute)
{
	char err[256];
	gc_perf_req r = {.block = block, .warp = warp, .seq = seq, .pc = 0x10 * (seq + 1),
			 .op = (uint8_t)op, .l1_miss = (uint8_t)miss, .compute = compute};
	CHECK_MSG(gc_perf_kernel_add(k, &r, err, sizeof err) == 0, "add: %s", err);
}

/*
 * Warp (0, 0), with the compute field (insts, cycles, waits before each
 * memory instruction):
 *   seq 0 load, 2 missed requests   (3, 10, 0)
 *   seq 2 store, 1 request          (8, 30, 1)   seq 1 (an L1 hit) left out
 *   seq 3 load, 1 missed request    (9, 40, 2)
 * Intervals:
 *   0: n = 3 + 1 = 4, c = 10, ends in the miss (M^Read 2)
 *   1: from seq 0 to 3: insts 9 - 3 = 6, memory 3: n = 9, c = 30;
 *      waits 2: one for seq 0's miss, one on the hit (seq 1): hit_waits 1;
 *      M^Write 1; M^Read 1
 *   tail 5 more instructions at the warp's 40 / 13 cycles each.
 */
static void t_intervals(void)
{
	gc_perf_kernel *k = gc_perf_kernel_new();
	CHECK(k != NULL);
	add(k, 0, 0, 0, GC_LOAD, 1, GC_CF_MAKE(3, 10, 0));
	add(k, 0, 0, 3, GC_LOAD, 1, GC_CF_MAKE(9, 40, 2)); /* out of order */
	add(k, 0, 0, 2, GC_STORE, 0, GC_CF_MAKE(8, 30, 1));
	add(k, 0, 0, 0, GC_LOAD, 1, GC_CF_MAKE(3, 10, 0)); /* seq 0's second request */
	gc_perf_shape s = {.have_compute = 1};
	size_t n;
	gc_perf_warp *w = gc_perf_kernel_warps(k, &s, &n);
	CHECK_U64(n, 1);
	CHECK_U64(w[0].n, 3);
	CHECK_U64(w[0].inst[0].misses, 2);
	CHECK_U64(w[0].inst[0].requests, 2);
	NEAR(w[0].insts, 9.0);
	NEAR(w[0].mem, 4.0);
	NEAR(w[0].cycles, 40.0);
	NEAR(w[0].waits, 2.0);
	NEAR(w[0].cpi, 40.0 / 13.0);
	s.tail = 5;
	gc_perf_interval *iv;
	long m = gc_perf_intervals(&w[0], &s, &iv);
	CHECK_U64(m, 3);
	if (m == 3) {
		NEAR(iv[0].n, 4.0);
		NEAR(iv[0].c, 10.0);
		NEAR(iv[0].m_read, 2.0);
		NEAR(iv[0].hit_waits, 0.0);
		CHECK(iv[0].miss);
		NEAR(iv[1].n, 9.0);
		NEAR(iv[1].c, 30.0);
		NEAR(iv[1].hit_waits, 1.0);
		NEAR(iv[1].m_write, 1.0);
		NEAR(iv[1].m_read, 1.0);
		NEAR(iv[2].n, 5.0);
		NEAR(iv[2].c, 5.0 * 40.0 / 13.0);
		CHECK(!iv[2].miss);
	}
	free(iv);
	gc_perf_kernel_free(k);
}

static void t_wrap(void)
{
	/* Counts wrap at their widths: from insts 2^24 - 2 to 3 is 5, cycles
	 * 2^26 - 1 to 4 is 5, waits 4095 to 1 is 2. */
	gc_perf_kernel *k = gc_perf_kernel_new();
	add(k, 1, 0, 0, GC_LOAD, 1, GC_CF_MAKE((1u << 24) - 2, (1u << 26) - 1, 4095));
	add(k, 1, 0, 1, GC_LOAD, 1, GC_CF_MAKE(3, 4, 1));
	gc_perf_shape s = {.have_compute = 1};
	size_t n;
	gc_perf_warp *w = gc_perf_kernel_warps(k, &s, &n);
	gc_perf_interval *iv;
	long m = gc_perf_intervals(&w[0], &s, &iv);
	CHECK_U64(m, 2);
	if (m == 2) {
		NEAR(iv[1].n, 5.0 + 1.0);
		NEAR(iv[1].c, 5.0);
	}
	NEAR(w[0].waits, 4095.0 + 2.0);
	free(iv);
	gc_perf_kernel_free(k);
}

static void t_no_compute(void)
{
	/* Without the field: 3 non-memory instructions per memory one, 0.5
	 * instructions a cycle.  seq 0 and seq 2 (seq 1 left out): interval 0
	 * n = 3 + 1 = 4, c = 8; interval 1 n = 2 x 4 = 8, c = 16. */
	gc_perf_kernel *k = gc_perf_kernel_new();
	add(k, 0, 1, 0, GC_LOAD, 1, 0);
	add(k, 0, 1, 2, GC_LOAD, 1, 0);
	gc_perf_shape s = {.have_compute = 0, .insts_per_mem = 3, .ipc_compute = 0.5};
	size_t n;
	gc_perf_warp *w = gc_perf_kernel_warps(k, &s, &n);
	gc_perf_interval *iv;
	long m = gc_perf_intervals(&w[0], &s, &iv);
	CHECK_U64(m, 2);
	if (m == 2) {
		NEAR(iv[0].n, 4.0);
		NEAR(iv[0].c, 8.0);
		NEAR(iv[1].n, 8.0);
		NEAR(iv[1].c, 16.0);
		NEAR(iv[1].hit_waits, 0.0);
	}
	free(iv);
	gc_perf_kernel_free(k);
}

static void t_representative(void)
{
	/* Three warps with one load each: non-memory instructions 10, 20, 60
	 * (mean 30), cycles 11, 21, 61 (per instruction 1 each), no waits.
	 * Deviations: (10-30)/30, (20-30)/30, (60-30)/30; the cycles per
	 * instruction are equal.  Warp (0, 1) is closest. */
	gc_perf_kernel *k = gc_perf_kernel_new();
	add(k, 2, 0, 0, GC_LOAD, 1, GC_CF_MAKE(60, 61, 0));
	add(k, 0, 0, 0, GC_LOAD, 1, GC_CF_MAKE(10, 11, 0));
	add(k, 0, 1, 0, GC_LOAD, 1, GC_CF_MAKE(20, 21, 0));
	gc_perf_shape s = {.have_compute = 1};
	size_t n;
	gc_perf_warp *w = gc_perf_kernel_warps(k, &s, &n);
	CHECK_U64(n, 3);
	CHECK_U64(w[0].block * 100 + w[0].warp, 0); /* sorted by block, warp */
	CHECK_U64(w[2].block, 2);
	double mean[4], score;
	long r = gc_perf_representative(w, n, mean, &score);
	CHECK_U64(r, 1);
	NEAR(mean[0], 30.0);
	NEAR(mean[1], 1.0);
	NEAR(score, 1.0 / 9.0);
	/* A tie (warps 0 and 2 of 10 and 50: mean 30) goes to the lowest. */
	gc_perf_kernel_reset(k);
	add(k, 3, 2, 0, GC_LOAD, 1, GC_CF_MAKE(50, 51, 0));
	add(k, 3, 0, 0, GC_LOAD, 1, GC_CF_MAKE(10, 11, 0));
	w = gc_perf_kernel_warps(k, &s, &n);
	r = gc_perf_representative(w, n, mean, &score);
	CHECK_U64(w[r].warp, 0);
	CHECK(gc_perf_representative(w, 0, mean, &score) == -1);
	gc_perf_kernel_free(k);
}

static void t_mismatch(void)
{
	gc_perf_kernel *k = gc_perf_kernel_new();
	char err[256] = "";
	add(k, 5, 1, 7, GC_LOAD, 1, GC_CF_MAKE(1, 2, 0));
	gc_perf_req r = {.block = 5, .warp = 1, .seq = 7, .op = GC_LOAD, .l1_miss = 1,
			 .compute = GC_CF_MAKE(1, 3, 0)};
	CHECK(gc_perf_kernel_add(k, &r, err, sizeof err) == -1);
	CHECK_STR(err, "field compute: 0x8000000003000001 differs from 0x8000000002000001 on an "
		       "earlier request of the same instruction (block 5 warp 1 seq 7)");
	gc_perf_kernel_free(k);
}

static const check_unit units[] = {
	{"names", t_names},
	{"eq2", t_eq2},
	{"eq3", t_eq3},
	{"eq4", t_eq4},
	{"eq7-eq8", t_eq7_eq8},
	{"eq10", t_eq10},
	{"eq9", t_eq9},
	{"eq6", t_eq6},
	{"gpumech-mshr", t_gpumech_mshr},
	{"models", t_models},
	{"nmd", t_nmd},
	{"issue-bound", t_issue_bound},
	{"eq1", t_eq1},
	{"fig4", t_fig4},
	{"monotonic", t_monotonic},
	{"more-mshrs-queue", t_more_mshrs_queue},
	{"order", t_order},
	{"intervals", t_intervals},
	{"wrap", t_wrap},
	{"no-compute", t_no_compute},
	{"representative", t_representative},
	{"mismatch", t_mismatch},
};

int main(int argc, char **argv)
{
	return check_run(units, CHECK_NUNITS(units), argc > 1 ? argv[1] : NULL);
}
