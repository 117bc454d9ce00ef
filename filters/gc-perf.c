/*
 * gc-perf - how many cycles each kernel takes: seed 004's MDM performance
 * model and the four models it is compared with (its Table V).
 *
 * Reads: the requests after the caches with the compute field, as
 *   gc-import --intervals ... | gc-sched | gc-coalesce | gc-l1 | gc-l2 --emit all
 * writes them (the requests gc-l1 sent on, each with its L2 outcome), or
 * those of gc-l1 --emit all (every request with its L1 outcome; the LLC
 * miss rate then comes from an option or an assumption).
 * Writes: a table per kernel (or --json), and --stats FILE.
 *
 * Per kernel: every warp's memory instructions (model/perf.h collects
 * them), the representative warp, its intervals, the equations (model/
 * perf.c), the kernel's cycles from its warp instructions and the IPC per
 * SM.  What each step does and why is in gc-perf(1).
 */
#include "config/gpu.h"
#include "model/perf.h"
#include "prog/gpuopt.h"
#include "prog/prog.h"
#include "report/json.h"
#include "report/jsonflat.h"
#include "stream/stream.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char help[] =
	"Usage: gc-perf [options] [file]\n"
	"Predict each kernel's cycles and IPC with seed 004's MDM model (or a baseline).\n"
	"\n"
	"      --model M           mdm (default), mdm-queue, mdm-mshr, gpumech-plus, gpumech\n"
	"      --json              write the results as JSON on standard output\n"
	"      --gpu NAME|FILE     GPU preset or file (default: the input's gpu.* keys)\n"
	"      --list-gpus         list the GPU presets and exit\n"
	"      --sms N             SMs (sm.count)\n"
	"      --clock MHZ         SM clock (sm.clock)\n"
	"      --warps-per-sm N    concurrent warps per SM, W (default: occupancy)\n"
	"      --mshr N            L1 MSHRs (l1.mshr_entries)\n"
	"      --issue-width N     warp instructions an SM issues a cycle (sm.issue_width)\n"
	"      --l1-latency N      cycles of an L1 hit (l1.latency)\n"
	"      --llc-latency N     L^MinLLC, cycles (mem.llc_latency)\n"
	"      --dram-latency N    L^MinDRAM, cycles (mem.dram_latency)\n"
	"      --noc-bandwidth GBS NoC bandwidth, GB/s (noc.bandwidth)\n"
	"      --dram-bandwidth GBS DRAM bandwidth, GB/s (dram.bandwidth)\n"
	"      --block-size N      bytes a miss moves (default: the kernel's mean)\n"
	"      --llc-miss-rate X   LLC miss rate of L1 read misses (default: the L2 outcomes)\n"
	"      --l2 FILE           take the LLC miss rate from a gc-l2 --stats file\n"
	"      --ipc-compute X     without compute intervals: warp instructions per\n"
	"                          cycle of a warp alone (default 0.25)\n"
	"      --slowest-warp      a kernel takes at least its slowest warp's own time\n"
	"                          (default; not in the seed)\n"
	"      --no-slowest-warp   eq. 1 alone, as the seed computes a kernel's cycles\n"
	"      --launch-latency N|preset\n"
	"                          cycles added per kernel to cycles_with_launch\n"
	"                          (default 0; preset: kernel.launch_latency)\n"
	"  -o, --output FILE       write the table (or JSON) to FILE\n"
	"      --stats FILE        write the JSON to FILE as well\n"
	"      --progress          show progress on a terminal\n"
	"  -q, --quiet             no warnings\n"
	"  -v, --verbose           print the representative warps and intervals on stderr\n"
	"  -h, --help              show this help and exit\n"
	"  -V, --version           show versions and exit\n";

enum {
	OPT_MODEL = GC_OPT_TOOL,
	OPT_JSON,
	OPT_L2,
	OPT_LLC_RATE,
	OPT_IPC,
	OPT_LAUNCH,
	OPT_WARPS,
	OPT_BLOCK,
	OPT_SLOWEST,
	OPT_NO_SLOWEST,
	OPT_NUM, /* the numeric overrides: OPT_NUM + index in numopts */
};

/* The options that override one parameter. */
enum { P_SMS, P_CLOCK, P_MSHR, P_ISSUE, P_L1, P_LLC, P_DRAM_LAT, P_NOC, P_DRAM_BW, NPARAMS };
static const struct numopt {
	const char *name, *key;
	double min, max;
} numopts[NPARAMS] = {
	{"sms", "sm.count", 1, 65535},
	{"clock", "sm.clock", 1, 100000},
	{"mshr", "l1.mshr_entries", 1, 1 << 20},
	{"issue-width", "sm.issue_width", 1, 64},
	{"l1-latency", "l1.latency", 0, 1e6},
	{"llc-latency", "mem.llc_latency", 0, 1e6},
	{"dram-latency", "mem.dram_latency", 0, 1e6},
	{"noc-bandwidth", "noc.bandwidth", 0.001, 1e7},
	{"dram-bandwidth", "dram.bandwidth", 0.001, 1e7},
};

#define IPC_COMPUTE_DEFAULT 0.25
#define LLC_RATE_ASSUMED 0.5

struct cmdline {
	gc_common c;
	const char *input;
	int model, json, slowest;
	const char *l2file;
	double llc_rate;      /* < 0: not given */
	double ipc_compute;   /* < 0: not given */
	int launch_preset;
	double launch;        /* cycles */
	double warps;         /* < 0: occupancy */
	double block;         /* < 0: the kernel's mean */
	double val[NPARAMS];  /* < 0: the GPU's */
};

static void parse_cmdline(int argc, char **argv, struct cmdline *cl)
{
	struct option longopts[16 + 8 + NPARAMS] = {
		GC_BASIC_LONGOPTS,
		{"stats", required_argument, NULL, GC_OPT_STATS},
		{"gpu", required_argument, NULL, GC_OPT_GPU},
		{"list-gpus", no_argument, NULL, GC_OPT_LIST_GPUS},
		{"progress", no_argument, NULL, GC_OPT_PROGRESS},
		{"model", required_argument, NULL, OPT_MODEL},
		{"json", no_argument, NULL, OPT_JSON},
		{"l2", required_argument, NULL, OPT_L2},
		{"llc-miss-rate", required_argument, NULL, OPT_LLC_RATE},
		{"ipc-compute", required_argument, NULL, OPT_IPC},
		{"launch-latency", required_argument, NULL, OPT_LAUNCH},
		{"warps-per-sm", required_argument, NULL, OPT_WARPS},
		{"block-size", required_argument, NULL, OPT_BLOCK},
		{"slowest-warp", no_argument, NULL, OPT_SLOWEST},
		{"no-slowest-warp", no_argument, NULL, OPT_NO_SLOWEST},
	};
	int n = 0, c;
	while (longopts[n].name)
		n++;
	for (int i = 0; i < NPARAMS; i++)
		longopts[n++] = (struct option){numopts[i].name, required_argument, NULL, OPT_NUM + i};
	longopts[n] = (struct option){NULL, 0, NULL, 0};

	memset(cl, 0, sizeof *cl);
	cl->model = GC_PERF_MDM;
	cl->slowest = 1;
	cl->llc_rate = cl->ipc_compute = cl->warps = cl->block = -1.0;
	for (int i = 0; i < NPARAMS; i++)
		cl->val[i] = -1.0;
	while ((c = gc_getopt(argc, argv, "hVqvo:", longopts)) != -1) {
		if (gc_common_option(&cl->c, c, optarg, help))
			continue;
		if (c >= OPT_NUM && c < OPT_NUM + NPARAMS) {
			const struct numopt *o = &numopts[c - OPT_NUM];
			char name[32];
			snprintf(name, sizeof name, "--%s", o->name);
			cl->val[c - OPT_NUM] = gc_real(name, optarg, o->min, o->max);
			continue;
		}
		switch (c) {
		case OPT_MODEL:
			cl->model = gc_perf_model_parse(optarg);
			if (cl->model < 0)
				gc_usage_error("--model: '%s' is not mdm, mdm-queue, mdm-mshr, "
					       "gpumech-plus or gpumech", optarg);
			break;
		case OPT_JSON: cl->json = 1; break;
		case OPT_SLOWEST: cl->slowest = 1; break;
		case OPT_NO_SLOWEST: cl->slowest = 0; break;
		case OPT_L2: cl->l2file = optarg; break;
		case OPT_LLC_RATE: cl->llc_rate = gc_real("--llc-miss-rate", optarg, 0, 1); break;
		case OPT_IPC: cl->ipc_compute = gc_real("--ipc-compute", optarg, 1e-6, 64); break;
		case OPT_LAUNCH:
			if (strcmp(optarg, "preset") == 0)
				cl->launch_preset = 1;
			else
				cl->launch = (double)gc_num("--launch-latency", optarg, 0, 1u << 30);
			break;
		case OPT_WARPS: cl->warps = (double)gc_num("--warps-per-sm", optarg, 1, 4096); break;
		case OPT_BLOCK: cl->block = (double)gc_num("--block-size", optarg, 1, 65536); break;
		default: gc_usage_error("unexpected option");
		}
	}
	if (cl->l2file && cl->llc_rate >= 0)
		gc_usage_error("--l2 and --llc-miss-rate both give the LLC miss rate: give one");
	cl->input = gc_one_input(argc, argv);
}

/* Sectors in a mask (no popcount instruction is assumed). */
static inline unsigned pc8(unsigned x)
{
	x = x - ((x >> 1) & 0x55u);
	x = (x & 0x33u) + ((x >> 2) & 0x33u);
	return (x + (x >> 4)) & 0x0fu;
}

/* ---- the run's state ---------------------------------------------------- */

enum { IN_L2, IN_L1_ALL };
enum { LLC_OUTCOMES, LLC_OPTION, LLC_FILE, LLC_ASSUMED };
static const char *const llc_source[] = {"l2-outcomes", "option", "l2-stats", "assumed"};

/* One kernel's result. */
struct kres {
	uint32_t id;
	char *name;
	uint64_t blocks, warps;
	double active_sms, w, block_size, llc_rate;
	double warp_insts, instructions, cycles, ipc;
	int thread_insts;  /* instructions from the thread_insts attribute */
	gc_perf_total t;
	double stall[4];   /* compute, mshr, noc, dram, scaled to cycles */
	long rep;          /* -1: no warp in the stream */
	uint32_t rep_block;
	uint16_t rep_warp;
	double rep_f[4], mean[4], score;
	double throughput;  /* cycles by eq. 1 */
	double slowest;     /* the slowest warp's own time */
	uint32_t slow_block;
	uint16_t slow_warp;
	int bound;          /* --slowest-warp and the slowest warp is longer */
	uint64_t requests, other;
};

struct perf {
	gc_gpu_config gpu;
	gc_perf_params p;       /* the GPU's values, options applied */
	int mode, have_compute, llc_src;
	double llc_rate;        /* LLC_FILE, LLC_OPTION, LLC_ASSUMED */
	double ipc_compute, launch;
	unsigned sector;
	gc_perf_kernel *k;
	gc_kernel kern;         /* the kernel being read */
	/* its counts */
	uint64_t loads, llc_misses, miss_reqs, miss_bytes, requests, other;
	struct kres *res;
	size_t nres, capres;
	char assumptions[4][200];
	int nassume;
};

static void assume(struct perf *m, const struct cmdline *cl, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* An assumption is said on stderr (unless -q) and kept for the output. */
static void assume(struct perf *m, const struct cmdline *cl, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(m->assumptions[m->nassume], sizeof m->assumptions[0], fmt, ap);
	va_end(ap);
	if (!cl->c.quiet)
		gc_warn("%s", m->assumptions[m->nassume]);
	m->nassume++;
}

/* ---- --l2 FILE ------------------------------------------------------------ */

struct l2file {
	double reads, hits;
	int have_reads, have_hits;
};

static int l2_value(void *ctx, const char *path, const char *value, int type, int arrays)
{
	struct l2file *f = ctx;
	if (arrays || type != GC_JF_NUMBER)
		return 0;
	if (strcmp(path, "reads") == 0) {
		f->reads = strtod(value, NULL);
		f->have_reads = 1;
	} else if (strcmp(path, "read_hits") == 0) {
		f->hits = strtod(value, NULL);
		f->have_hits = 1;
	}
	return 0;
}

/* The read miss rate of a gc-l2 --stats file. */
static double l2_rate(const char *path)
{
	size_t len;
	char *text = gc_read_text_file(path, &len);
	struct l2file v;
	char err[200];
	memset(&v, 0, sizeof v);
	if (gc_jsonflat(text, len, l2_value, &v, err, sizeof err) != 0)
		gc_die(GC_EXIT_DATA, "%s: %s", path, err);
	free(text);
	if (!v.have_reads || !v.have_hits)
		gc_die(GC_EXIT_DATA, "%s: no reads and read_hits: not a gc-l2 --stats file", path);
	if (v.hits > v.reads || v.reads < 0 || v.hits < 0)
		gc_die(GC_EXIT_DATA, "%s: read_hits %g is more than reads %g", path, v.hits,
		       v.reads);
	return v.reads > 0 ? 1.0 - v.hits / v.reads : 0.0;
}

/* ---- setup ------------------------------------------------------------------ */

/* A parameter: the option's value, else the GPU's; 0 is no value. */
static double param(const struct cmdline *cl, int i, double gpu_value, const char *gpu)
{
	double v = cl->val[i] >= 0 ? cl->val[i] : gpu_value;
	if (v <= 0 && i != P_L1)
		gc_die(GC_EXIT_USAGE, "%s is 0 in GPU %s: give --%s", numopts[i].key, gpu,
		       numopts[i].name);
	return v;
}

static void setup(struct perf *m, const struct cmdline *cl, const gc_reader *r)
{
	const gc_header *h = gc_reader_header(r);
	memset(m, 0, sizeof *m);
	gc_gpu_for_stream(&m->gpu, cl->c.gpu, h);
	gc_gpu_config_finish(&m->gpu);
	const gc_gpu_config *g = &m->gpu;

	const char *l2e = gc_header_get(h, "l2.emit"), *l1e = gc_header_get(h, "l1.emit");
	if (l2e && strcmp(l2e, "all") == 0)
		m->mode = IN_L2;
	else if (l1e && strcmp(l1e, "all") == 0 && !l2e)
		m->mode = IN_L1_ALL;
	else
		gc_die(GC_EXIT_DATA, "%s: header has no l2.emit=all or l1.emit=all: gc-perf reads "
		       "the requests of 'gc-l2 --emit all' (or 'gc-l1 --emit all') with their "
		       "outcomes", gc_reader_name(r));
	m->have_compute = (h->optional & GC_OPT_COMPUTE) != 0;

	gc_perf_params *p = &m->p;
	p->model = cl->model;
	p->clock = param(cl, P_CLOCK, g->sm.clock, g->name) / 1000.0;
	p->sms = param(cl, P_SMS, g->sm.count, g->name);
	p->mshrs = param(cl, P_MSHR, g->l1.mshr_entries, g->name);
	p->issue_width = param(cl, P_ISSUE, g->op.issue_width, g->name);
	p->l1_latency = param(cl, P_L1, g->l1.latency, g->name);
	p->llc_latency = param(cl, P_LLC, g->perf.llc_latency, g->name);
	p->dram_latency = param(cl, P_DRAM_LAT, g->perf.dram_latency, g->name);
	p->noc_bandwidth = param(cl, P_NOC, g->perf.noc_bandwidth, g->name);
	p->dram_bandwidth = param(cl, P_DRAM_BW, g->dram.bandwidth, g->name);
	m->launch = cl->launch_preset ? (double)g->perf.launch_latency : cl->launch;

	m->sector = g->l2.sector;
	const char *v = gc_header_get(h, "sector_size");
	if (v) {
		char *end;
		unsigned long n = strtoul(v, &end, 10);
		if (end == v || *end || !n || n > 4096)
			gc_die(GC_EXIT_DATA, "%s: header key sector_size: '%s' is not a number of "
			       "bytes", gc_reader_name(r), v);
		m->sector = (unsigned)n;
	}

	if (cl->llc_rate >= 0) {
		m->llc_src = LLC_OPTION;
		m->llc_rate = cl->llc_rate;
	} else if (cl->l2file) {
		m->llc_src = LLC_FILE;
		m->llc_rate = l2_rate(cl->l2file);
	} else if (m->mode == IN_L2) {
		m->llc_src = LLC_OUTCOMES;
	} else {
		m->llc_src = LLC_ASSUMED;
		m->llc_rate = LLC_RATE_ASSUMED;
		assume(m, cl, "no L2 outcomes (l1.emit=all) and no --llc-miss-rate or --l2: "
		       "assumed LLC miss rate %g", LLC_RATE_ASSUMED);
	}
	m->ipc_compute = cl->ipc_compute > 0 ? cl->ipc_compute : IPC_COMPUTE_DEFAULT;
	if (!m->have_compute)
		assume(m, cl, "compute intervals unknown (no compute field): assumed %g warp "
		       "instructions per cycle of a warp alone (--ipc-compute) and the kernel's "
		       "non-memory instructions spread evenly over its memory ones",
		       m->ipc_compute);
	m->k = gc_perf_kernel_new();
	if (!m->k)
		gc_die(GC_EXIT_DATA, "out of memory");
}

/* ---- one record ---------------------------------------------------------------- */

static void record(struct perf *m, const gc_rec *rec, const gc_reader *r)
{
	char err[256];
	if (!rec->mask)
		gc_die_record(r, NULL, "field mask: 0 (a request has at least one sector)");
	if (m->have_compute && (rec->compute & (UINT64_C(1) << 62)))
		gc_die_record(r, NULL, "field compute: 0x%016llx has the reserved bit 62 set",
			      (unsigned long long)rec->compute);
	int res = GC_OUT_RESULT(rec->outcome);
	m->requests++;
	if ((m->have_compute && !(rec->compute & GC_CF_VALID)) || (rec->flags & GC_F_PREFETCH)) {
		m->other++; /* a stage's own record (a write-back, a prefetch): traffic only */
		return;
	}
	gc_perf_req q;
	memset(&q, 0, sizeof q);
	q.block = rec->block;
	q.warp = rec->warp;
	q.seq = rec->seq;
	q.pc = rec->pc;
	q.op = rec->op;
	q.compute = m->have_compute ? rec->compute : 0;
	if (m->mode == IN_L2) {
		if (res == GC_R_NONE)
			gc_die_record(r, NULL, "field outcome: no L2 result in a stream of "
				      "gc-l2 --emit all");
		/* Every read here went on from L1. */
		q.l1_miss = rec->op != GC_STORE;
		if (rec->op == GC_LOAD) {
			m->loads++;
			m->llc_misses += res != GC_R_HIT;
		}
	} else {
		q.l1_miss = rec->op == GC_ATOMIC ||
			    (rec->space != GC_SHARED && rec->op == GC_LOAD &&
			     (res == GC_R_MISS || res == GC_R_SECTOR_MISS ||
			      (rec->outcome & GC_OUT_BYPASS)));
	}
	if (q.l1_miss) {
		m->miss_reqs++;
		m->miss_bytes += (uint64_t)pc8(rec->mask) * m->sector;
	}
	if (gc_perf_kernel_add(m->k, &q, err, sizeof err) < 0)
		gc_die_record(r, NULL, "%s", err);
}

/* ---- one kernel ------------------------------------------------------------------ */

static int attr(const gc_kernel *k, uint16_t key, double *v)
{
	uint64_t x;
	if (!gc_kernel_get_attr(k, key, &x))
		return 0;
	*v = (double)x;
	return 1;
}

static void verbose_kernel(const struct perf *m, const struct kres *k,
			   const gc_perf_interval *iv, long n)
{
	fprintf(stderr, "gc-perf: kernel %u %s: %llu warps, %g SMs, W %g, block size %g, "
		"LLC miss rate %.4f\n", k->id, k->name, (unsigned long long)k->warps,
		k->active_sms, k->w, k->block_size, k->llc_rate);
	if (k->rep < 0) {
		fprintf(stderr, "  no warp in the stream: the kernel's instructions at "
			"--ipc-compute\n");
	} else {
		fprintf(stderr, "  representative warp: block %u warp %u (score %.6g): non-memory "
			"instructions %g (mean %.4g), memory instructions %g (%.4g), cycles per "
			"instruction %.4g (%.4g), waits %g (%.4g)\n", k->rep_block, k->rep_warp,
			k->score, k->rep_f[0], k->mean[0], k->rep_f[1], k->mean[1], k->rep_f[2],
			k->mean[2], k->rep_f[3], k->mean[3]);
	}
	fprintf(stderr, "  cycles by eq. 1 %.1f; the slowest warp, block %u warp %u, takes %.1f "
		"alone%s\n", k->throughput, k->slow_block, k->slow_warp, k->slowest,
		k->bound ? " (the kernel's cycles: --slowest-warp)" : "");
	gc_perf_params p = m->p;
	p.sms = k->active_sms;
	p.warps = k->w;
	p.block_size = k->block_size;
	p.llc_miss_rate = k->llc_rate;
	for (long i = 0; i < n; i++) {
		gc_perf_cost c;
		gc_perf_interval_cost(&p, &iv[i], &c);
		fprintf(stderr, "  interval %ld: n %g c %g hit waits %g M^Read %g M^Write %g: %s%s, "
			"M %g, C %.1f, S^MSHR %.1f, S^NoC %.1f, S^DRAM %.1f\n", i, iv[i].n,
			iv[i].c, iv[i].hit_waits, iv[i].m_read, iv[i].m_write, c.md ? "MD" : "NMD",
			c.saturated ? " saturated" : "", c.m, c.compute, c.mshr, c.noc, c.dram);
	}
}

/* The slowest warp: each warp's own time, its intervals' paths and
 * stalls (its issue slots aside; no tail: each warp as the stream shows
 * it).  The first of equals (lowest block, warp) is kept; its parts
 * (path, MSHR, NoC, DRAM) go to part[]. */
static void slowest_warp(struct kres *k, const gc_perf_params *p, const gc_perf_shape *s,
			 const gc_perf_warp *w, size_t nw, double part[4])
{
	gc_perf_shape own = *s;
	own.tail = 0;
	for (size_t i = 0; i < nw; i++) {
		gc_perf_interval *iv;
		gc_perf_total t;
		long n = gc_perf_intervals(&w[i], &own, &iv);
		if (n < 0)
			gc_die(GC_EXIT_DATA, "out of memory");
		gc_perf_evaluate(p, iv, (size_t)n, &t);
		free(iv);
		double time = t.path + t.mshr + t.noc + t.dram;
		if (time > k->slowest) {
			k->slowest = time;
			k->slow_block = w[i].block;
			k->slow_warp = w[i].warp;
			part[0] = t.path;
			part[1] = t.mshr;
			part[2] = t.noc;
			part[3] = t.dram;
		}
	}
}

static void end_kernel(struct perf *m, const struct cmdline *cl)
{
	const gc_gpu_config *g = &m->gpu;
	const gc_kernel *kn = &m->kern;
	if (m->nres == m->capres) {
		m->capres = m->capres ? 2 * m->capres : 16;
		m->res = gc_xrealloc(m->res, m->capres * sizeof *m->res);
	}
	struct kres *k = &m->res[m->nres++];
	memset(k, 0, sizeof *k);
	k->id = kn->id;
	k->name = gc_xstrdup(kn->name);
	k->requests = m->requests;
	k->other = m->other;

	/* Warps, SMs and W. */
	uint64_t threads = gc_kernel_threads_per_block(kn);
	unsigned ws = g->sm.warp_size ? g->sm.warp_size : 32;
	uint64_t wpb = (threads + ws - 1) / ws;
	k->blocks = gc_kernel_blocks(kn);
	k->warps = k->blocks * wpb;
	k->active_sms = fmin(m->p.sms, (double)(k->blocks ? k->blocks : 1));
	if (cl->warps > 0) {
		k->w = cl->warps;
	} else {
		gc_occupancy o;
		unsigned per_sm = threads ? gc_gpu_occupancy(g, (unsigned)threads, kn->regs,
							     kn->shmem, &o) : 1;
		double occ = (double)(per_sm ? per_sm : 1) * (double)(wpb ? wpb : 1);
		k->w = fmin(occ, ceil((double)(k->warps ? k->warps : 1) / k->active_sms));
	}
	k->block_size = cl->block > 0 ? cl->block
		      : m->miss_reqs ? (double)m->miss_bytes / (double)m->miss_reqs
		      : (double)m->sector;
	k->llc_rate = m->llc_src == LLC_OUTCOMES
		? (m->loads ? (double)m->llc_misses / (double)m->loads : 0.0)
		: m->llc_rate;

	/* The warps and the representative. */
	double insts = 0, mem = 0;
	int have_counts = attr(kn, GC_A_INSTS, &insts) & attr(kn, GC_A_MEM_INSTS, &mem);
	gc_perf_shape s = {
		.have_compute = m->have_compute,
		.insts_per_mem = have_counts && mem > 0 ? insts / mem : 0.0,
		.ipc_compute = m->ipc_compute,
	};
	size_t nw;
	gc_perf_warp *w = gc_perf_kernel_warps(m->k, &s, &nw);
	k->rep = gc_perf_representative(w, nw, k->mean, &k->score);
	double mean_insts = have_counts && k->warps ? (insts + mem) / (double)k->warps : 0.0;
	gc_perf_warp none;
	memset(&none, 0, sizeof none);
	const gc_perf_warp *rw = &none;
	if (k->rep >= 0) {
		rw = &w[k->rep];
		k->rep_block = rw->block;
		k->rep_warp = rw->warp;
		k->rep_f[0] = rw->insts;
		k->rep_f[1] = rw->mem;
		k->rep_f[2] = rw->cpi;
		k->rep_f[3] = rw->waits;
	} else {
		s.have_compute = 0; /* nothing seen: the assumed rate */
	}
	s.tail = fmax(0.0, mean_insts - (rw->insts + rw->mem));

	gc_perf_interval *iv;
	long n = gc_perf_intervals(rw, &s, &iv);
	if (n < 0)
		gc_die(GC_EXIT_DATA, "out of memory");
	gc_perf_params p = m->p;
	p.sms = k->active_sms;
	p.warps = k->w;
	p.block_size = k->block_size;
	p.llc_miss_rate = k->llc_rate;
	gc_perf_evaluate(&p, iv, (size_t)n, &k->t);

	/* The kernel's cycles: its warp instructions at IPC^SM on each SM. */
	double seen = 0;
	for (size_t i = 0; i < nw; i++)
		seen += w[i].insts + w[i].mem;
	k->warp_insts = have_counts ? insts + mem : seen;
	k->cycles = k->t.ipc_sm > 0 ? k->warp_insts / (k->t.ipc_sm * k->active_sms) : 0.0;
	k->throughput = k->cycles;
	double part[4] = {k->t.compute, k->t.mshr, k->t.noc, k->t.dram};
	slowest_warp(k, &p, &s, w, nw, part);
	if (cl->slowest && k->slowest > k->cycles) {
		k->cycles = k->slowest;
		k->bound = 1;
	}
	double ti;
	k->thread_insts = attr(kn, GC_A_THREAD_INSTS, &ti);
	k->instructions = k->thread_insts ? ti : k->warp_insts;
	k->ipc = k->cycles > 0 ? k->instructions / k->cycles : 0.0;
	if (!k->bound)
		memcpy(part, (double[4]){k->t.compute, k->t.mshr, k->t.noc, k->t.dram},
		       sizeof part);
	double tot = part[0] + part[1] + part[2] + part[3];
	for (int i = 0; i < 4; i++)
		k->stall[i] = tot > 0 ? k->cycles * part[i] / tot : 0.0;
	if (cl->c.verbose)
		verbose_kernel(m, k, iv, n);
	free(iv);
	gc_perf_kernel_reset(m->k);
	m->loads = m->llc_misses = m->miss_reqs = m->miss_bytes = m->requests = m->other = 0;
}

/* ---- the output --------------------------------------------------------------- */

struct totals {
	double cycles, instructions, warp_insts, stall[4];
	size_t intervals, md;
	int thread_insts; /* every kernel counted thread instructions */
};

static void sum(const struct perf *m, struct totals *t)
{
	memset(t, 0, sizeof *t);
	t->thread_insts = 1;
	for (size_t i = 0; i < m->nres; i++) {
		const struct kres *k = &m->res[i];
		t->cycles += k->cycles;
		t->instructions += k->instructions;
		t->warp_insts += k->warp_insts;
		for (int j = 0; j < 4; j++)
			t->stall[j] += k->stall[j];
		t->intervals += k->t.intervals;
		t->md += k->t.md;
		t->thread_insts &= k->thread_insts;
	}
}

static double pct(double x, double of)
{
	return of > 0 ? 100.0 * x / of : 0.0;
}

static const char *const stall_name[4] = {"compute", "mshr", "noc", "dram"};

static void table(FILE *f, const struct perf *m, const char *input)
{
	const gc_perf_params *p = &m->p;
	struct totals t;
	int bound = 0;
	sum(m, &t);
	for (size_t i = 0; i < m->nres; i++)
		bound |= m->res[i].bound;
	fprintf(f, "gc-perf: %s, model %s, gpu %s\n", input, gc_perf_model_name(p->model),
		m->gpu.name);
	fprintf(f, "parameters: clock %g GHz, %g SMs, %g MSHRs, issue width %g, L1 hit %g, "
		"L^MinLLC %g, L^MinDRAM %g, NoC %g GB/s, DRAM %g GB/s, launch latency %g\n",
		p->clock, p->sms, p->mshrs, p->issue_width, p->l1_latency, p->llc_latency,
		p->dram_latency, p->noc_bandwidth, p->dram_bandwidth, m->launch);
	fprintf(f, "input: %s; LLC miss rate from %s; compute intervals %s\n",
		m->mode == IN_L2 ? "gc-l2 --emit all" : "gc-l1 --emit all",
		llc_source[m->llc_src], m->have_compute ? "from the stream" : "assumed");
	for (int i = 0; i < m->nassume; i++)
		fprintf(f, "assumed: %s\n", m->assumptions[i]);
	fprintf(f, "%6s %-24s %5s %5s %5s %10s %12s %8s %15s %15s %15s %15s\n", "kernel",
		"name", "MD%", "W", "SMs", "cycles", "instructions", "IPC", "compute", "mshr",
		"noc", "dram");
	for (size_t i = 0; i < m->nres; i++) {
		const struct kres *k = &m->res[i];
		fprintf(f, "%6u %-24.24s %5.1f %5g %5g %9.0f%c %12.0f %8.3f", k->id, k->name,
			pct((double)k->t.md, (double)k->t.intervals), k->w, k->active_sms,
			k->cycles, k->bound ? '*' : ' ', k->instructions, k->ipc);
		for (int j = 0; j < 4; j++)
			fprintf(f, " %9.0f %4.1f%%", k->stall[j], pct(k->stall[j], k->cycles));
		fputc('\n', f);
	}
	fprintf(f, "%6s %-24s %5.1f %5s %5s %9.0f  %12.0f %8.3f", "total",
		t.thread_insts ? "(thread instructions)" : "(warp instructions)",
		pct((double)t.md, (double)t.intervals), "", "", t.cycles, t.instructions,
		t.cycles > 0 ? t.instructions / t.cycles : 0.0);
	for (int j = 0; j < 4; j++)
		fprintf(f, " %9.0f %4.1f%%", t.stall[j], pct(t.stall[j], t.cycles));
	fputc('\n', f);
	if (bound)
		fprintf(f, "*: the kernel's slowest warp (--slowest-warp), not eq. 1\n");
	fprintf(f, "cycles with launch latency: %.0f\n",
		t.cycles + m->launch * (double)m->nres);
}

static void json_stall(gc_json *j, const double s[4])
{
	gc_json_obj(j, "stall");
	for (int i = 0; i < 4; i++)
		gc_json_num(j, stall_name[i], s[i]);
	gc_json_close(j);
}

static void json(FILE *f, const struct perf *m, const struct cmdline *cl, const char *input)
{
	const gc_perf_params *p = &m->p;
	struct totals t;
	sum(m, &t);
	gc_json j;
	gc_json_begin(&j, f);
	gc_json_str(&j, "tool", "gc-perf");
	gc_json_str(&j, "input", input);
	gc_json_str(&j, "gpu", m->gpu.name);
	gc_json_str(&j, "model", gc_perf_model_name(p->model));
	gc_json_str(&j, "stream", m->mode == IN_L2 ? "l2-emit-all" : "l1-emit-all");
	gc_json_str(&j, "llc_miss_rate_source", llc_source[m->llc_src]);
	gc_json_str(&j, "compute_intervals", m->have_compute ? "stream" : "assumed");
	gc_json_arr(&j, "assumptions");
	for (int i = 0; i < m->nassume; i++)
		gc_json_str(&j, NULL, m->assumptions[i]);
	gc_json_close(&j);
	gc_json_obj(&j, "config");
	gc_json_num(&j, "clock_ghz", p->clock);
	gc_json_num(&j, "sms", p->sms);
	gc_json_num(&j, "mshrs", p->mshrs);
	gc_json_num(&j, "issue_width", p->issue_width);
	gc_json_num(&j, "l1_latency", p->l1_latency);
	gc_json_num(&j, "llc_latency", p->llc_latency);
	gc_json_num(&j, "dram_latency", p->dram_latency);
	gc_json_num(&j, "noc_bandwidth", p->noc_bandwidth);
	gc_json_num(&j, "dram_bandwidth", p->dram_bandwidth);
	gc_json_num(&j, "launch_latency", m->launch);
	if (cl->warps > 0)
		gc_json_num(&j, "warps_per_sm", cl->warps);
	else
		gc_json_str(&j, "warps_per_sm", "occupancy");
	if (cl->block > 0)
		gc_json_num(&j, "block_size", cl->block);
	else
		gc_json_str(&j, "block_size", "kernel-mean");
	if (m->llc_src == LLC_OUTCOMES)
		gc_json_str(&j, "llc_miss_rate", "per-kernel");
	else
		gc_json_num(&j, "llc_miss_rate", m->llc_rate);
	gc_json_num(&j, "ipc_compute", m->ipc_compute);
	gc_json_bool(&j, "slowest_warp", cl->slowest);
	gc_json_close(&j);

	gc_json_obj(&j, "total");
	gc_json_u64(&j, "kernel_count", m->nres);
	gc_json_num(&j, "cycles", t.cycles);
	gc_json_num(&j, "cycles_with_launch", t.cycles + m->launch * (double)m->nres);
	gc_json_num(&j, "instructions", t.instructions);
	gc_json_num(&j, "warp_instructions", t.warp_insts);
	gc_json_num(&j, "ipc", t.cycles > 0 ? t.instructions / t.cycles : 0.0);
	json_stall(&j, t.stall);
	gc_json_u64(&j, "md_intervals", t.md);
	gc_json_u64(&j, "intervals", t.intervals);
	gc_json_close(&j);

	gc_json_arr(&j, "kernels");
	for (size_t i = 0; i < m->nres; i++) {
		const struct kres *k = &m->res[i];
		char why[400];
		gc_json_obj(&j, NULL);
		gc_json_u64(&j, "id", k->id);
		gc_json_str(&j, "name", k->name);
		gc_json_u64(&j, "blocks", k->blocks);
		gc_json_u64(&j, "warps", k->warps);
		gc_json_num(&j, "cycles", k->cycles);
		gc_json_str(&j, "bound", k->bound ? "slowest-warp" : "throughput");
		gc_json_num(&j, "throughput_cycles", k->throughput);
		gc_json_num(&j, "cycles_with_launch", k->cycles + m->launch);
		gc_json_num(&j, "instructions", k->instructions);
		gc_json_str(&j, "instructions_counted", k->thread_insts ? "thread" : "warp");
		gc_json_num(&j, "warp_instructions", k->warp_insts);
		gc_json_num(&j, "ipc", k->ipc);
		gc_json_num(&j, "ipc_sm", k->t.ipc_sm);
		json_stall(&j, k->stall);
		gc_json_u64(&j, "md_intervals", k->t.md);
		gc_json_u64(&j, "intervals", k->t.intervals);
		gc_json_obj(&j, "representative");
		if (k->rep >= 0) {
			gc_json_u64(&j, "block", k->rep_block);
			gc_json_u64(&j, "warp", k->rep_warp);
			snprintf(why, sizeof why, "closest to the kernel's means (sum of squared "
				 "relative deviations %.6g): non-memory instructions %g (mean %.6g), "
				 "memory instructions %g (%.6g), cycles per instruction %.4g (%.4g), "
				 "waits %g (%.6g)", k->score, k->rep_f[0], k->mean[0], k->rep_f[1],
				 k->mean[1], k->rep_f[2], k->mean[2], k->rep_f[3], k->mean[3]);
		} else {
			gc_json_null(&j, "block");
			gc_json_null(&j, "warp");
			snprintf(why, sizeof why, "no warp of the kernel in the stream: its "
				 "instructions at --ipc-compute, no memory stall");
		}
		gc_json_str(&j, "why", why);
		gc_json_close(&j);
		gc_json_obj(&j, "slowest_warp");
		if (k->rep >= 0) {
			gc_json_u64(&j, "block", k->slow_block);
			gc_json_u64(&j, "warp", k->slow_warp);
		} else {
			gc_json_null(&j, "block");
			gc_json_null(&j, "warp");
		}
		gc_json_num(&j, "cycles", k->slowest);
		gc_json_close(&j);
		gc_json_obj(&j, "config");
		gc_json_num(&j, "sms", k->active_sms);
		gc_json_num(&j, "warps_per_sm", k->w);
		gc_json_num(&j, "block_size", k->block_size);
		gc_json_num(&j, "llc_miss_rate", k->llc_rate);
		gc_json_close(&j);
		gc_json_u64(&j, "requests", k->requests);
		gc_json_u64(&j, "other_requests", k->other);
		gc_json_close(&j);
	}
	gc_json_close(&j);
	gc_json_end(&j);
}

/* ---- main -------------------------------------------------------------------- */

int main(int argc, char **argv)
{
	struct cmdline cl;
	static struct perf m;
	gc_rec rec;

	gc_prog_init("gc-perf", argc, argv);
	parse_cmdline(argc, argv, &cl);
	gc_reader *r = gc_open_stream(cl.input);
	gc_require_kind(r, GC_KIND_REQUEST);
	setup(&m, &cl, r);

	for (;;) {
		int ev = gc_read(r, &rec);
		if (ev == GC_DATA) {
			record(&m, &rec, r);
		} else if (ev == GC_KBEGIN) {
			m.kern = *gc_reader_kernel(r);
		} else if (ev == GC_KEND) {
			end_kernel(&m, &cl);
		} else if (ev == GC_EOF) {
			break;
		} else {
			gc_progress_end(cl.c.progress);
			gc_die(GC_EXIT_DATA, "%s", gc_reader_error(r));
		}
		if (cl.c.progress)
			gc_progress_reader(1, r);
	}
	gc_progress_end(cl.c.progress);
	const char *input = gc_reader_name(r);
	FILE *f = gc_open_text(cl.c.out);
	if (cl.json)
		json(f, &m, &cl, input);
	else
		table(f, &m, input);
	gc_close_text(f, cl.c.out);
	if (cl.c.stats) {
		FILE *s = gc_open_text(cl.c.stats);
		json(s, &m, &cl, input);
		gc_close_text(s, cl.c.stats);
	}
	for (size_t i = 0; i < m.nres; i++)
		free(m.res[i].name);
	free(m.res);
	gc_perf_kernel_free(m.k);
	gc_reader_close(r);
	return 0;
}
