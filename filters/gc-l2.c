/*
 * gc-l2 - the shared L2: slices, address mapping, sectors, write policies.
 *
 * Reads: requests (what gc-l1 sends on: misses as sector reads, write-
 * throughs and write-backs as stores with a sector mask and a byte count,
 * atomics), already merged across SMs in timestamp order.
 * Writes: DRAM transactions (sector reads and writes, one record per line
 * and event with the sectors in its mask), or with --emit all every
 * request annotated with its L2 outcome.
 *
 * The model is the L2 engine (model/l2.h); this is the command: options,
 * the configuration, the streams, the report.
 */
#include "config/gpu.h"
#include "model/l2.h"
#include "model/waysweep.h"
#include "prog/gpuopt.h"
#include "prog/prog.h"
#include "report/json.h"
#include "report/pcreport.h"
#include "report/sweeptab.h"
#include "report/unitjson.h"
#include "stream/stream.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char help[] =
	"Usage: gc-l2 [options] [file]\n"
	"Model the shared, sliced L2 cache; write the DRAM transactions it makes.\n"
	"\n"
	"      --gpu NAME|FILE     GPU preset or file (default: the input's gpu.* keys)\n"
	"      --list-gpus         list the GPU presets and exit\n"
	"      --size N            total L2 bytes, all slices (l2.size)\n"
	"      --line N            line bytes (l2.line)\n"
	"      --sector N          sector bytes (l2.sector)\n"
	"      --sets N            sets per slice (l2.sets)\n"
	"      --ways N            ways (l2.ways)\n"
	"      --ways-sweep LIST   every associativity of LIST (1..32, 1,2,4,8) in one\n"
	"                          pass: a CSV table, no stream\n"
	"      --slice-size N      bytes per slice (l2.slice_size)\n"
	"      --index FN          set index: linear, xor, fermi, ipoly, fibonacci (l2.index)\n"
	"      --replacement P     lru, fifo, random (l2.replacement)\n"
	"      --write P           write-back, write-through, write-evict,\n"
	"                          local-write-back (l2.write)\n"
	"      --write-alloc P     no-write-allocate, write-allocate, fetch-on-write,\n"
	"                          lazy-fetch-on-read (l2.write_alloc)\n"
	"      --channels N        memory channels (l2.channels)\n"
	"      --sub-partitions N  slices per channel (l2.sub_partitions)\n"
	"      --partition-index P consecutive, bitwise-permutation, ipoly, random,\n"
	"                          ipoly-modulo (l2.partition_index)\n"
	"      --mapping STRING    address mapping, dramid@S;... (l2.mapping)\n"
	"      --cache STRING      one slice as a GPGPU-Sim cache string, e.g.\n"
	"                          S:32:128:24,L:B:m:L:P,A:192:4,32:0,32 (l2.cache)\n"
	"      --prefetch P        none, stream, nextline (l2.prefetch)\n"
	"      --prefetch-window N lines ahead a stream may reach (l2.prefetch_window)\n"
	"      --prefetch-degree N lines a trigger prefetches (l2.prefetch_degree)\n"
	"      --prefetch-table N  streams tracked (l2.prefetch_table)\n"
	"      --kernel-boundary flush|keep\n"
	"                          write back and invalidate everything at kernel end,\n"
	"                          or keep the L2 across kernels (default: the\n"
	"                          preset's l2.kernel_flush)\n"
	"      --flush, --warm     deprecated: --kernel-boundary flush, keep\n"
	"      --emit WHAT         dram (default): DRAM transactions; all: every\n"
	"                          request annotated with its outcome; none: no\n"
	"                          stream, the report on stdout (or -o FILE)\n"
	"      --report FILE       write the report (-v's) to FILE\n"
	"      --top N             (kernel, PC) rows listed in the statistics, most\n"
	"                          misses first (default 10; 0: all)\n"
	"  -o, --output FILE       write the stream to FILE (default: stdout)\n"
	"  -z, --gzip              compress the output\n"
	"      --stats FILE        write a JSON summary to FILE\n"
	"      --force             write binary output to a terminal\n"
	"      --progress          show progress on a terminal\n"
	"  -q, --quiet             no warnings\n"
	"  -v, --verbose           print the summary on stderr\n"
	"  -h, --help              show this help and exit\n"
	"  -V, --version           show versions and exit\n";

enum {
	OPT_SETS = GC_OPT_TOOL,
	OPT_SIZE,
	OPT_LINE,
	OPT_SECTOR,
	OPT_BOUNDARY,
	OPT_WAYS,
	OPT_SLICE,
	OPT_INDEX,
	OPT_REPL,
	OPT_WRITE,
	OPT_WALLOC,
	OPT_CHANNELS,
	OPT_SUBS,
	OPT_PINDEX,
	OPT_MAPPING,
	OPT_CACHE,
	OPT_PREFETCH,
	OPT_PF_WINDOW,
	OPT_PF_DEGREE,
	OPT_PF_TABLE,
	OPT_FLUSH,
	OPT_WARM,
	OPT_TOP,
	OPT_SWEEP,
};

/* Options that set a GPU key, in the order they are applied. */
static const gc_gpu_keyopt keyopts[] = {
	{OPT_CHANNELS, "--channels", "l2.channels"},
	{OPT_SUBS, "--sub-partitions", "l2.sub_partitions"},
	{OPT_SLICE, "--slice-size", "l2.slice_size"},
	{OPT_SIZE, "--size", "l2.size"},
	{OPT_LINE, "--line", "l2.line"},
	{OPT_SECTOR, "--sector", "l2.sector"},
	{OPT_SETS, "--sets", "l2.sets"},
	{OPT_WAYS, "--ways", "l2.ways"},
	{OPT_INDEX, "--index", "l2.index"},
	{OPT_REPL, "--replacement", "l2.replacement"},
	{OPT_WRITE, "--write", "l2.write"},
	{OPT_WALLOC, "--write-alloc", "l2.write_alloc"},
	{OPT_PINDEX, "--partition-index", "l2.partition_index"},
	{OPT_MAPPING, "--mapping", "l2.mapping"},
	{OPT_CACHE, "--cache", "l2.cache"},
	{OPT_PREFETCH, "--prefetch", "l2.prefetch"},
	{OPT_PF_WINDOW, "--prefetch-window", "l2.prefetch_window"},
	{OPT_PF_DEGREE, "--prefetch-degree", "l2.prefetch_degree"},
	{OPT_PF_TABLE, "--prefetch-table", "l2.prefetch_table"},
};
#define NKEYOPTS (sizeof keyopts / sizeof keyopts[0])

struct cmdline {
	gc_common c;
	const char *input;
	const char *keyval[NKEYOPTS]; /* NULL: not given */
	int flush;                    /* 1 --flush, 0 --warm, -1 the preset */
	int emit_all;
	int top;                      /* --top: rows of the per-PC table (0: all) */
	int emits;                    /* --emit given */
	unsigned sweep[GC_WAYSWEEP_MAX]; /* --ways-sweep: the associativities */
	size_t nsweep;
};

static void parse_cmdline(int argc, char **argv, struct cmdline *cl)
{
	static const struct option longopts[] = {
		GC_COMMON_LONGOPTS,
		{"size", required_argument, NULL, OPT_SIZE},
		{"line", required_argument, NULL, OPT_LINE},
		{"sector", required_argument, NULL, OPT_SECTOR},
		{"sets", required_argument, NULL, OPT_SETS},
		{"ways", required_argument, NULL, OPT_WAYS},
		{"slice-size", required_argument, NULL, OPT_SLICE},
		{"index", required_argument, NULL, OPT_INDEX},
		{"replacement", required_argument, NULL, OPT_REPL},
		{"write", required_argument, NULL, OPT_WRITE},
		{"write-alloc", required_argument, NULL, OPT_WALLOC},
		{"channels", required_argument, NULL, OPT_CHANNELS},
		{"sub-partitions", required_argument, NULL, OPT_SUBS},
		{"partition-index", required_argument, NULL, OPT_PINDEX},
		{"mapping", required_argument, NULL, OPT_MAPPING},
		{"cache", required_argument, NULL, OPT_CACHE},
		{"prefetch", required_argument, NULL, OPT_PREFETCH},
		{"prefetch-window", required_argument, NULL, OPT_PF_WINDOW},
		{"prefetch-degree", required_argument, NULL, OPT_PF_DEGREE},
		{"prefetch-table", required_argument, NULL, OPT_PF_TABLE},
		{"kernel-boundary", required_argument, NULL, OPT_BOUNDARY},
		{"flush", no_argument, NULL, OPT_FLUSH},
		{"warm", no_argument, NULL, OPT_WARM},
		GC_REPORT_LONGOPTS,
		{"top", required_argument, NULL, OPT_TOP},
		{"ways-sweep", required_argument, NULL, OPT_SWEEP},
		{NULL, 0, NULL, 0},
	};
	int c;
	char why[160];
	memset(cl, 0, sizeof *cl);
	cl->flush = -1; /* the preset's l2.kernel_flush */
	cl->top = 10;
	while ((c = gc_getopt(argc, argv, GC_COMMON_SHORTOPTS, longopts)) != -1) {
		if (gc_common_option(&cl->c, c, optarg, help))
			continue;
		int i = gc_gpu_keyopt_find(keyopts, NKEYOPTS, c);
		if (i >= 0) {
			/* Numbers are checked here, so "12x" names the option. */
			if (c == OPT_SETS || c == OPT_WAYS || c == OPT_SLICE ||
			    c == OPT_CHANNELS || c == OPT_SUBS || c == OPT_LINE || c == OPT_SECTOR)
				(void)gc_num(keyopts[i].name, optarg, 1, UINT32_MAX);
			cl->keyval[i] = optarg;
			continue;
		}
		switch (c) {
		case OPT_TOP: cl->top = (int)gc_num("--top", optarg, 0, 1u << 30); break;
		case OPT_SWEEP:
			cl->nsweep = gc_waysweep_parse(optarg, cl->sweep, why, sizeof why);
			if (!cl->nsweep)
				gc_usage_error("--ways-sweep: %s", why);
			break;
		case OPT_BOUNDARY: cl->flush = gc_kernel_boundary(optarg); break;
		case OPT_FLUSH:
			gc_warn("--flush is deprecated: use --kernel-boundary flush");
			cl->flush = 1;
			break;
		case OPT_WARM:
			gc_warn("--warm is deprecated: use --kernel-boundary keep");
			cl->flush = 0;
			break;
		case GC_OPT_EMIT: {
			static const char *const emits[] = {"dram", "all", NULL};
			cl->emit_all = gc_emit_option(&cl->c, optarg, emits);
			cl->emits++;
			break;
		}
		default: gc_usage_error("unexpected option");
		}
	}
	cl->input = gc_one_input(argc, argv);
	const char *ways = cl->keyval[gc_gpu_keyopt_find(keyopts, NKEYOPTS, OPT_WAYS)];
	const char *pf = cl->keyval[gc_gpu_keyopt_find(keyopts, NKEYOPTS, OPT_PREFETCH)];
	if (cl->nsweep && (cl->emits || ways || pf))
		gc_usage_error("--ways-sweep is the L2 of every associativity, with no stream: "
			       "not with %s", cl->emits ? "--emit" : ways ? "--ways" : "--prefetch");
}


/* ---- the run ------------------------------------------------------------- */

static const char *const rcause[GC_L2_NRCAUSES] = {"load_miss", "atomic_miss", "write_fetch",
						   "partial_fetch", "prefetch"};
static const char *const wcause[GC_L2_NWCAUSES] = {"eviction", "flush", "write_through",
						   "write_around"};

/* The L2 as configured, and (after the run) its engine's counts. */
struct l2 {
	gc_gpu_config gpu;
	unsigned sets, nslices, line, sector;
	int flush, emit_all;
	int top;                  /* --top, for the report */
	uint64_t miss_latency;    /* timed: mem.dram_latency; 0: times are no cycles */
	gc_l2 *L;
	const gc_l2_statistics *st;
};

/* ---- setup ------------------------------------------------------------------ */

/* A size in the input header must agree with the L2's. */
static void check_geometry(const gc_reader *r, const char *key, unsigned want, const char *l2key)
{
	const char *v = gc_header_get(gc_reader_header(r), key);
	if (!v)
		return;
	char *end;
	unsigned long long n = strtoull(v, &end, 10);
	if (end == v || *end || n != want)
		gc_die(GC_EXIT_DATA, "%s: header key %s: '%s' is not %s %u: gc-l2 takes requests "
		       "of its own line and sector size", gc_reader_name(r), key, v, l2key, want);
}

/* --size is the whole L2 (l2.size, as gc-l1's --size is the whole L1):
 * without --slice-size it sets each slice's share, and the sets follow. */
static void size_from_total(gc_gpu_config *c, const struct cmdline *cl)
{
	int i = gc_gpu_keyopt_find(keyopts, NKEYOPTS, OPT_SIZE);
	int s = gc_gpu_keyopt_find(keyopts, NKEYOPTS, OPT_SLICE);
	if (!cl->keyval[i] || cl->keyval[s])
		return;
	uint64_t n = (uint64_t)c->l2.channels * c->l2.sub_partitions;
	if (c->l2.total % n)
		gc_usage_error("--size: %llu bytes do not split into %llu slices (l2.channels * "
			       "l2.sub_partitions)", (unsigned long long)c->l2.total,
			       (unsigned long long)n);
	char buf[32];
	snprintf(buf, sizeof buf, "%llu", (unsigned long long)(c->l2.total / n));
	gc_gpu_config_option(c, "--size", "l2.slice_size", buf);
}

/* What the input's header says: that it is a stream gc-l2 takes. */
static void check_input(const struct l2 *m, const gc_reader *r)
{
	const char *e = gc_header_get(gc_reader_header(r), "l1.emit");
	if (e && strcmp(e, "all") == 0)
		gc_die(GC_EXIT_DATA, "%s: header key l1.emit=all: this stream holds every request "
		       "gc-l1 saw, L1 hits too; gc-l2 reads what gc-l1 sends on (gc-l1 without "
		       "--emit all)", gc_reader_name(r));
	check_geometry(r, "line_size", m->line, "l2.line");
	check_geometry(r, "sector_size", m->sector, "l2.sector");
}

/* Progress once an event (gc_l2_params.progress). */
static void progress(const gc_reader *r)
{
	gc_progress_reader(1, r);
}

/* The configuration from the input, the preset and the options, and the
 * engine over it (a sweep's checks the configuration and places alone). */
static void setup(struct l2 *m, const struct cmdline *cl, const gc_reader *r)
{
	char err[512];
	memset(m, 0, sizeof *m);
	gc_gpu_for_stream(&m->gpu, cl->c.gpu, gc_reader_header(r));
	gc_gpu_keyopts_apply(&m->gpu, keyopts, NKEYOPTS, cl->keyval);
	size_from_total(&m->gpu, cl);
	if (cl->nsweep) { /* checked at its largest associativity; the sets stay */
		char max[16];
		snprintf(max, sizeof max, "%u", cl->sweep[cl->nsweep - 1]);
		gc_gpu_config_option(&m->gpu, "--ways-sweep", "l2.ways", max);
	}
	gc_gpu_config_finish(&m->gpu);
	const gc_gpu_cache *g = &m->gpu.l2;
	m->nslices = g->channels * g->sub_partitions;
	m->sets = g->sets;
	m->line = g->line;
	m->sector = g->sector;
	m->flush = cl->flush < 0 ? g->kernel_flush : cl->flush;
	m->emit_all = cl->emit_all;
	m->top = cl->top;
	/* Times are cycles when gc-l1's timing model wrote them. */
	const char *model = gc_header_get(gc_reader_header(r), "l1.model");
	if (model && strcmp(model, "timing") == 0 && m->gpu.perf.dram_latency)
		m->miss_latency = m->gpu.perf.dram_latency;
	const gc_l2_params p = {
		.gpu = &m->gpu, .flush = m->flush, .emit_all = m->emit_all,
		.by_pc = cl->c.stats || gc_report_wanted(&cl->c), .sweep = cl->nsweep != 0,
		.miss_latency = m->miss_latency, .progress = cl->c.progress ? progress : NULL,
	};
	int refused;
	m->L = gc_l2_new(&p, &refused, err, sizeof err);
	if (!m->L)
		gc_die(refused ? GC_EXIT_USAGE : GC_EXIT_DATA, "%s", err);
	check_input(m, r);
}

static void set_header(gc_header *h, const struct l2 *m, const struct cmdline *cl,
		       const gc_reader *r)
{
	const gc_header *in = gc_reader_header(r);
	char buf[32];
	gc_header_init(h, cl->emit_all ? GC_KIND_REQUEST : GC_KIND_DRAM);
	h->optional = in->optional | GC_OPT_ANNOTATED;
	h->required = in->required & GC_REQ_OPCODES; /* carried on */
	if (m->gpu.l2.prefetch != GC_PF_NONE)
		h->optional |= GC_OPT_PREFETCH;
	if (cl->emit_all) {
		h->record_size = in->record_size; /* the requests, every field kept */
	} else {
		/* DRAM transactions are no instructions and no measured reuses:
		 * no compute field, no distance, and the size without them. */
		h->optional &= ~(uint32_t)(GC_OPT_COMPUTE | GC_OPT_DISTANCE);
		h->record_size = (uint16_t)gc_record_size_min(h->optional);
	}
	for (int i = 0; i < in->nkv; i++)
		if (strncmp(in->key[i], GC_GPU_HEADER_PREFIX, strlen(GC_GPU_HEADER_PREFIX)) != 0 &&
		    gc_header_set(h, in->key[i], in->val[i]) < 0)
			gc_die(GC_EXIT_DATA, "output header: cannot copy key '%s'", in->key[i]);
	if (gc_header_add_provenance(h, gc_cmdline()) < 0)
		gc_die(GC_EXIT_DATA, "output header: the provenance does not fit");
	gc_gpu_config_header(&m->gpu, cl->c.gpu, h);
	snprintf(buf, sizeof buf, "%u", m->line);
	int rc = gc_header_set(h, "line_size", buf);
	snprintf(buf, sizeof buf, "%u", m->sector);
	rc |= gc_header_set(h, "sector_size", buf);
	rc |= gc_header_set(h, "l2.kernel_boundary", m->flush ? "flush" : "keep");
	rc |= gc_header_set(h, "l2.emit", m->emit_all ? "all" : "dram");
	if (rc < 0)
		gc_die(GC_EXIT_DATA, "output header: too many keys");
}

/* ---- the summary -------------------------------------------------------------- */

static void rate(gc_json *j, const char *key, uint64_t n, uint64_t d)
{
	if (d)
		gc_json_num(j, key, (double)n / (double)d);
	else
		gc_json_null(j, key);
}

/* The sectors of one operation (gc-l2(1), STATISTICS). */
static void op_sectors(gc_json *j, const char *key, const gc_l2_op_sectors *o)
{
	gc_json_obj(j, key);
	gc_json_u64(j, "requested", o->requested);
	gc_json_u64(j, "hits", o->hits);
	gc_json_u64(j, "misses", o->requested - o->hits);
	gc_json_u64(j, "line_misses", o->line_misses);
	gc_json_u64(j, "sector_misses", o->requested - o->hits - o->line_misses - o->merged);
	gc_json_u64(j, "merged", o->merged);
	gc_json_u64(j, "hardware_hits", o->hw_hits);
	gc_json_close(j);
}

/* "sectors": {requested, hits, misses[, loads, stores, atomics]} and
 * "sector_hit_rate" beside it. */
static void sectors(gc_json *j, const gc_l2_sectors *sec, const gc_l2_op_sectors *op)
{
	gc_json_obj(j, "sectors");
	gc_json_u64(j, "requested", sec->requested);
	gc_json_u64(j, "hits", sec->hits);
	gc_json_u64(j, "misses", sec->requested - sec->hits);
	if (op) {
		op_sectors(j, "loads", &op[GC_LOAD]);
		op_sectors(j, "stores", &op[GC_STORE]);
		op_sectors(j, "atomics", &op[GC_ATOMIC]);
	}
	gc_json_close(j);
	rate(j, "sector_hit_rate", sec->hits, sec->requested);
}

/* The per-PC rows, most misses first (the caller frees them). */
static gc_pcrow *sorted_pcs(const struct l2 *m, size_t *n)
{
	gc_pcrow *rows = gc_pctab_sorted(m->st->pcs, n);
	if (!rows && *n)
		gc_die(GC_EXIT_DATA, "out of memory");
	return rows;
}

/* The load misses coverage counts (gc-l1(1), Prefetching): a late
 * prefetch's demand load found its sectors pending, a hit by result but
 * a miss of the latency class. */
static uint64_t pf_misses(const struct l2 *m)
{
	return m->st->s.ops[GC_LOAD] - m->st->s.op_hits[GC_LOAD] + m->st->pfc.late;
}

/* "kernels": a list, each kernel's counts from its begin to its end. */
static void json_kernels(gc_json *j, const struct l2 *m)
{
	gc_json_arr(j, "kernels");
	for (size_t i = 0; i < m->st->nks; i++) {
		const gc_l2_kstat *k = &m->st->ks[i];
		gc_l2_sectors sec = {k->n.sec_requested, k->n.sec_hits};
		gc_json_obj(j, NULL);
		gc_json_u64(j, "id", k->id);
		gc_json_str(j, "name", k->name);
		gc_json_u64(j, "requests", k->n.requests);
		gc_json_u64(j, "hits", k->n.hits);
		gc_json_u64(j, "misses", k->n.requests - k->n.hits);
		rate(j, "hit_rate", k->n.hits, k->n.requests);
		sectors(j, &sec, k->n.op);
		gc_json_u64(j, "dram_reads", k->n.dram_reads);
		gc_json_u64(j, "dram_read_bytes", k->n.dram_read_bytes);
		gc_json_u64(j, "dram_writes", k->n.dram_writes);
		gc_json_u64(j, "dram_write_bytes", k->n.dram_write_bytes);
		if (gc_unitjson(j, "per_slice", "slice", m->st->kslices, i) < 0)
			gc_die(GC_EXIT_DATA, "out of memory");
		gc_json_close(j);
	}
	gc_json_close(j);
}

/* The summary's head: tool, input, gpu and config (a sweep's without
 * the ways and the sizes they set). */
static void json_head(gc_json *j, FILE *f, const struct l2 *m, const char *input, int sweep)
{
	char buf[160];
	gc_json_begin(j, f);
	gc_json_str(j, "tool", "gc-l2");
	gc_json_str(j, "input", input);
	gc_json_str(j, "gpu", m->gpu.name);
	gc_json_obj(j, "config");
	gc_json_u64(j, "slices", m->nslices);
	gc_json_u64(j, "channels", m->gpu.l2.channels);
	gc_json_u64(j, "sub_partitions", m->gpu.l2.sub_partitions);
	if (!sweep) {
		gc_json_u64(j, "slice_size", m->gpu.l2.size);
		gc_json_u64(j, "size", m->gpu.l2.total);
	}
	gc_json_u64(j, "sets", m->sets);
	if (!sweep)
		gc_json_u64(j, "ways", m->gpu.l2.ways);
	gc_json_u64(j, "line", m->line);
	gc_json_u64(j, "sector", m->sector);
	static const char *const keys[] = {"l2.index", "l2.replacement", "l2.write",
					   "l2.write_alloc", "l2.partition_index", "l2.mapping"};
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		gc_gpu_format(&m->gpu, gc_gpu_key_find(keys[i]), buf, sizeof buf);
		gc_json_str(j, keys[i] + 3, buf);
	}
	gc_json_str(j, "kernel_boundary", m->flush ? "flush" : "keep");
	gc_json_u64(j, "miss_latency", m->miss_latency);
	gc_json_close(j);
}

static void json(FILE *f, const struct l2 *m, const char *input, int top)
{
	const gc_l2_totals *s = &m->st->s;
	gc_json j;
	char buf[160];
	json_head(&j, f, m, input, 0);
	gc_json_u64(&j, "kernel_count", s->kernels);
	gc_json_u64(&j, "requests", s->requests);
	gc_json_u64(&j, "hits", s->results[GC_R_HIT]);
	gc_json_u64(&j, "misses", s->results[GC_R_SECTOR_MISS] + s->results[GC_R_MISS]);
	gc_json_u64(&j, "sector_misses", s->results[GC_R_SECTOR_MISS]);
	gc_json_u64(&j, "line_misses", s->results[GC_R_MISS]);
	rate(&j, "hit_rate", s->results[GC_R_HIT], s->requests);
	sectors(&j, &s->sec, s->op);
	gc_json_u64(&j, "reads", s->ops[GC_LOAD]);
	gc_json_u64(&j, "read_hits", s->op_hits[GC_LOAD]);
	rate(&j, "read_hit_rate", s->op_hits[GC_LOAD], s->ops[GC_LOAD]);
	gc_json_u64(&j, "writes", s->ops[GC_STORE]);
	gc_json_u64(&j, "write_hits", s->op_hits[GC_STORE]);
	rate(&j, "write_hit_rate", s->op_hits[GC_STORE], s->ops[GC_STORE]);
	gc_json_u64(&j, "atomics", s->ops[GC_ATOMIC]);
	gc_json_u64(&j, "atomic_hits", s->op_hits[GC_ATOMIC]);
	gc_json_u64(&j, "dram_reads", s->dram_reads);
	gc_json_u64(&j, "dram_read_bytes", s->dram_read_bytes);
	gc_json_u64(&j, "dram_writes", s->dram_writes);
	gc_json_u64(&j, "dram_write_bytes", s->dram_write_bytes);
	gc_json_u64(&j, "dram_read_records", s->read_records);
	gc_json_u64(&j, "dram_write_records", s->write_records);
	gc_json_obj(&j, "dram_reads_by_cause");
	for (int i = 0; i < GC_L2_NRCAUSES; i++)
		gc_json_u64(&j, rcause[i], s->rd[i]);
	gc_json_close(&j);
	gc_json_obj(&j, "dram_writes_by_cause");
	for (int i = 0; i < GC_L2_NWCAUSES; i++)
		gc_json_u64(&j, wcause[i], s->wr[i]);
	gc_json_close(&j);
	gc_json_u64(&j, "evictions", s->evictions);
	gc_json_u64(&j, "dirty_evictions", s->dirty_evictions);
	gc_json_u64(&j, "flushes", s->flushes);
	gc_json_u64(&j, "dirty_sectors_left", s->dirty_left);
	if (m->st->l1_prefetches || m->gpu.l2.prefetch != GC_PF_NONE)
		gc_json_u64(&j, "l1_prefetches", m->st->l1_prefetches);
	if (m->gpu.l2.prefetch != GC_PF_NONE) {
		gc_json_obj(&j, "prefetch");
		gc_json_str(&j, "kind", gc_gpu_format(&m->gpu, gc_gpu_key_find("l2.prefetch"), buf,
						      sizeof buf) < 0 ? "?" : buf);
		gc_json_u64(&j, "window", m->gpu.l2.pf_window);
		gc_json_u64(&j, "degree", m->gpu.l2.pf_degree);
		gc_json_u64(&j, "issued", m->st->pfc.issued);
		gc_json_u64(&j, "useful", m->st->pfc.useful);
		gc_json_u64(&j, "late", m->st->pfc.late);
		gc_json_u64(&j, "useless", m->st->pfc.useless);
		gc_json_num(&j, "accuracy", gc_pf_accuracy(&m->st->pfc));
		gc_json_num(&j, "coverage", gc_pf_coverage(&m->st->pfc, pf_misses(m)));
		gc_json_close(&j);
	}
	json_kernels(&j, m);
	size_t n;
	gc_pcrow *rows = sorted_pcs(m, &n);
	gc_pcreport_json(&j, m->st->pcs, m->st->ops, rows, n, (size_t)top);
	free(rows);
	gc_json_arr(&j, "per_slice");
	for (unsigned i = 0; i < m->nslices; i++) {
		const gc_l2_slice *p = &m->st->sl[i];
		gc_json_obj(&j, NULL);
		gc_json_u64(&j, "slice", i);
		gc_json_u64(&j, "channel", i / m->gpu.l2.sub_partitions);
		gc_json_u64(&j, "requests", p->requests);
		gc_json_u64(&j, "hits", p->hits);
		gc_json_u64(&j, "misses", p->misses);
		rate(&j, "hit_rate", p->hits, p->requests);
		sectors(&j, &p->sec, NULL);
		gc_json_u64(&j, "dram_reads", p->dram_reads);
		gc_json_u64(&j, "dram_writes", p->dram_writes);
		gc_json_close(&j);
	}
	gc_json_close(&j);
	gc_json_end(&j);
}

static void summary(FILE *f, const void *ctx)
{
	const struct l2 *m = ctx;
	int top = m->top;
	const gc_l2_totals *s = &m->st->s;
	uint64_t hits = s->results[GC_R_HIT];
	fprintf(f, "gc-l2: %s, %u slices of %u x %u x %u B: %llu requests, %llu hits (%.2f%%), "
		"%llu sectors, %llu sector hits (%.2f%%), "
		"DRAM %llu sector reads (%llu B), %llu sector writes (%llu B)\n",
		m->gpu.name, m->nslices, m->sets, m->gpu.l2.ways, m->line,
		(unsigned long long)s->requests, (unsigned long long)hits,
		s->requests ? 100.0 * (double)hits / (double)s->requests : 0.0,
		(unsigned long long)s->sec.requested, (unsigned long long)s->sec.hits,
		s->sec.requested ? 100.0 * (double)s->sec.hits / (double)s->sec.requested : 0.0,
		(unsigned long long)s->dram_reads, (unsigned long long)s->dram_read_bytes,
		(unsigned long long)s->dram_writes, (unsigned long long)s->dram_write_bytes);
	if (m->gpu.l2.prefetch != GC_PF_NONE)
		fprintf(f, "gc-l2: prefetch: issued %llu, useful %llu, late %llu, useless %llu; "
			"accuracy %.4f, coverage %.4f\n", (unsigned long long)m->st->pfc.issued,
			(unsigned long long)m->st->pfc.useful, (unsigned long long)m->st->pfc.late,
			(unsigned long long)m->st->pfc.useless, gc_pf_accuracy(&m->st->pfc),
			gc_pf_coverage(&m->st->pfc, pf_misses(m)));
	size_t n;
	gc_pcrow *rows = sorted_pcs(m, &n);
	gc_pcreport_text(f, "gc-l2", m->st->pcs, m->st->ops, rows, n, (size_t)top);
	free(rows);
}

/* ---- --ways-sweep: every associativity in one pass ------------------------------ */

static void sweep_check(const gc_waysweep *S, int rc)
{
	if (rc < 0)
		gc_die(rc == -2 ? GC_EXIT_USAGE : GC_EXIT_DATA, "%s", gc_waysweep_error(S));
}

struct sweep_of {
	const struct l2 *m;
	const gc_waysweep_stats *st;
};

/* -v and --report: a line per associativity, a line per kernel. */
static void sweep_report(FILE *f, const void *ctx)
{
	const struct sweep_of *of = ctx;
	const gc_waysweep_stats *st = of->st;
	fprintf(f, "gc-l2: %s, %u slices of %u sets x %u to %u ways (%zu associativities) x %u B, "
		"one pass: %llu requests\n", of->m->gpu.name, st->units, st->sets, st->ways[0],
		st->ways[st->nways - 1], st->nways, st->line, (unsigned long long)st->requests);
	gc_sweeptab_text(f, "gc-l2", st);
}

/* --stats FILE of a sweep: the head, the counts every associativity
 * shares, the list. */
static void sweep_json(const struct l2 *m, const gc_waysweep_stats *st, const char *input,
		       const char *path)
{
	gc_json j;
	FILE *f = gc_open_text(path);
	json_head(&j, f, m, input, 1);
	gc_json_u64(&j, "requests", st->requests);
	gc_json_u64(&j, "reads", st->loads);
	gc_json_u64(&j, "writes", st->stores);
	gc_json_u64(&j, "atomics", st->atomics);
	gc_sweeptab_json(&j, st);
	gc_json_end(&j);
	gc_close_text(f, path);
}

/* --ways-sweep: the requests through the sweep engine, in the slices and
 * sets gc-l2 gives them, kernel by kernel; the table, --stats and the
 * report. */
static void run_sweep(const struct l2 *m, const struct cmdline *cl, gc_reader *r)
{
	const gc_waysweep_params p = {.gpu = &m->gpu, .level = 2, .slices = m->nslices,
				      .timed = m->miss_latency != 0, .ways = cl->sweep,
				      .nways = cl->nsweep, .flush = m->flush,
				      .input = gc_reader_name(r)};
	char err[400];
	int refused;
	gc_waysweep *S = gc_waysweep_new(&p, &refused, err, sizeof err);
	if (!S) /* a configuration or input the sweep refuses: a usage error */
		gc_die(refused ? GC_EXIT_USAGE : GC_EXIT_DATA, "%s", err);
	gc_rec rec;
	for (;;) {
		int ev = gc_read(r, &rec);
		if (ev == GC_DATA) {
			unsigned slice;
			long set = gc_l2_place(m->L, &rec, &slice);
			if (set < 0)
				gc_die_record(r, NULL, "%s", gc_l2_error(m->L));
			sweep_check(S, gc_waysweep_access_l2(S, &rec, (unsigned)set,
							     gc_reader_records(r)));
		} else if (ev == GC_KBEGIN) {
			sweep_check(S, gc_waysweep_kernel_begin(S, gc_reader_kernel(r)));
		} else if (ev == GC_KEND) {
			sweep_check(S, gc_waysweep_kernel_end(S));
		} else if (ev == GC_EOF) {
			break;
		} else {
			gc_progress_end(cl->c.progress);
			gc_die(GC_EXIT_DATA, "%s", gc_reader_error(r));
		}
		if (cl->c.progress)
			gc_progress_reader(1, r);
	}
	gc_progress_end(cl->c.progress);
	const gc_waysweep_stats *st = gc_waysweep_stats_get(S);
	if (cl->c.stats)
		sweep_json(m, st, gc_reader_name(r), cl->c.stats);
	FILE *f = gc_open_text(cl->c.out);
	gc_sweeptab_csv(f, st);
	gc_close_text(f, cl->c.out);
	const struct sweep_of of = {m, st};
	gc_write_report(&cl->c, sweep_report, &of);
	gc_waysweep_free(S);
}


/* ---- main -------------------------------------------------------------------- */

int main(int argc, char **argv)
{
	struct cmdline cl;
	static struct l2 m;
	gc_header h;
	uint64_t back;

	gc_prog_init("gc-l2", argc, argv);
	parse_cmdline(argc, argv, &cl);
	gc_reader *r = gc_open_stream(cl.input);
	gc_require_kind(r, GC_KIND_REQUEST);
	if (cl.nsweep) {
		setup(&m, &cl, r);
		run_sweep(&m, &cl, r);
		gc_l2_free(m.L);
		gc_reader_close(r);
		return 0;
	}
	setup(&m, &cl, r);
	set_header(&h, &m, &cl, r);
	gc_writer *w = gc_open_output(&cl.c, &h);
	if (gc_l2_run(m.L, r, w, &back) < 0) {
		if (back)
			gc_die_record_back(r, NULL, back - 1, "%s", gc_l2_error(m.L));
		gc_progress_end(cl.c.progress);
		gc_die(GC_EXIT_DATA, "%s", gc_l2_error(m.L));
	}
	gc_progress_end(cl.c.progress);
	gc_l2_finish(m.L);
	m.st = gc_l2_stats(m.L);
	gc_close_output(w);
	gc_write_report(&cl.c, summary, &m);
	if (cl.c.stats) {
		FILE *f = gc_open_text(cl.c.stats);
		json(f, &m, gc_reader_name(r), cl.top);
		gc_close_text(f, cl.c.stats);
	}
	gc_header_free(&h);
	gc_l2_free(m.L);
	gc_reader_close(r);
	return 0;
}
