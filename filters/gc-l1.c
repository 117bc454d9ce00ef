/*
 * gc-l1 - one private L1 data cache per SM: functional sector caches
 * (seed 003 §4.1) and the timing model of seed 000 §4.2-4.5.
 *
 * Reads: requests (gc-coalesce).  Writes: the requests that go on to L2
 * (default: misses as sector reads, writes per the write policy,
 * write-backs, atomics and bypassed requests), or with --emit all every
 * input request annotated with its outcome.
 *
 * The model is the L1 engine, model/l1.h (lib/model/l1*.c); this is the
 * command: options, the GPU configuration, the streams in and out, and
 * the report (--stats, -v).
 */
#include "config/gpu.h"
#include "model/cache.h"
#include "model/l1.h"
#include "model/prefetch.h"
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
#include <unistd.h>

static const char help[] =
	"Usage: gc-l1 [options] [file]\n"
	"Model one private L1 data cache per SM over a request stream.\n"
	"\n"
	"      --emit WHAT        l2: the requests that go on to L2 (default);\n"
	"                         all: every request, annotated with its outcome;\n"
	"                         none: no stream, the report on stdout (or -o FILE)\n"
	"      --report FILE      write the report (-v's) to FILE\n"
	"      --timing           the seed-000 timing model (warp queue, latencies, MSHRs)\n"
	"      --seed N           seed of the miss-latency generator (default 1)\n"
	"      --window N         --timing: a warp with no request in the next N input\n"
	"                         records has ended (default 1M)\n"
	"      --threads N        threads that model the SMs: --timing's steps, --stats'\n"
	"                         classes (default: the online CPUs; the results are\n"
	"                         the same for every N)\n"
	"      --dispatch WHEN    --timing: free: a block starts when its SM has a free\n"
	"                         slot, whenever it was read (default, SMs apart);\n"
	"                         read: when it is read, in one global order (the old rule)\n"
	"      --kernel-boundary flush|keep\n"
	"                         invalidate the L1s at each kernel end (default: l1.kernel_flush)\n"
	"      --gpu NAME|FILE    GPU preset or file (default: the input header's)\n"
	"      --list-gpus        list the GPU presets and exit\n"
	"      --cache STRING     L1 as a GPGPU-Sim cache string\n"
	"      --size N           L1 bytes per SM\n"
	"      --line N           line bytes\n"
	"      --sector N         sector bytes (the line size: not sectored)\n"
	"      --sets N           sets\n"
	"      --ways N           ways (any count)\n"
	"      --index FN         set index: linear, xor, fermi, ipoly, fibonacci\n"
	"      --replacement P    lru, fifo, random\n"
	"      --write P          write-back, write-through, write-evict,\n"
	"                         local-write-back, read-only\n"
	"      --write-alloc P    no-write-allocate, write-allocate, fetch-on-write,\n"
	"                         lazy-fetch-on-read\n"
	"      --skip-global yes|no  global loads bypass L1\n"
	"      --carveout C       none, fixed, adaptive (shared-memory carve-out)\n"
	"      --hit-latency N    cycles of a hit\n"
	"      --miss-latency N   lambda_min: the least cycles of a miss\n"
	"      --sigma X          sigma of the half-normal part of a miss\n"
	"      --mshr N           MSHR entries per SM\n"
	"      --mshr-kind K      assoc (an entry a line) or sector-assoc (a sector)\n"
	"      --mshr-merge N     requests one MSHR entry serves\n"
	"      --mshr-per-warp N  MSHR entries one warp may hold (0: no limit)\n"
	"      --prefetch P       none, stride (per PC), mta (many-thread aware)\n"
	"      --prefetch-degree N   lines a trained entry prefetches at once\n"
	"      --prefetch-distance N strides ahead of the access the first one is\n"
	"      --prefetch-table N    entries of each prefetcher table, per SM\n"
	"      --ways-sweep LIST  every associativity of LIST (1..32, 1,2,4,8) in one\n"
	"                         pass: a CSV table of hits and misses, no stream\n"
	"      --top N            (kernel, PC) rows listed in the statistics, most\n"
	"                         misses first (default 10; 0: all)\n"
	"  -o, --output FILE      write to FILE (default: stdout)\n"
	"  -z, --gzip             compress the output\n"
	"      --force            write binary output to a terminal\n"
	"      --stats FILE       write the statistics as JSON to FILE\n"
	"      --progress         show progress on a terminal\n"
	"  -q, --quiet            no warnings\n"
	"  -v, --verbose          print the statistics on stderr\n"
	"  -h, --help             show this help and exit\n"
	"  -V, --version          show versions and exit\n";

enum {
	OPT_TIMING = GC_OPT_TOOL,
	OPT_SEED,
	OPT_WINDOW,
	OPT_THREADS,
	OPT_DISPATCH,
	OPT_BOUNDARY,
	OPT_TOP,
	OPT_SWEEP,
	OPT_KEY, /* the options that set a gpu key: OPT_KEY + index in keyopts */
};

/* The options that override one GPU key, and whether they change the L1
 * geometry (which turns the carve-out off unless --carveout is given). */
static const struct keyopt {
	const char *name, *key;
	int geometry;
} keyopts[] = {
	{"cache", "l1.cache", 1},
	{"size", "l1.size", 1},
	{"line", "l1.line", 1},
	{"sector", "l1.sector", 0},
	{"sets", "l1.sets", 1},
	{"ways", "l1.ways", 1},
	{"index", "l1.index", 0},
	{"replacement", "l1.replacement", 0},
	{"write", "l1.write", 0},
	{"write-alloc", "l1.write_alloc", 0},
	{"skip-global", "l1.skip_global", 0},
	{"carveout", "sm.carveout", 0},
	{"hit-latency", "l1.latency", 0},
	{"miss-latency", "miss.lambda_min", 0},
	{"sigma", "miss.sigma", 0},
	{"mshr", "l1.mshr_entries", 0},
	{"mshr-kind", "l1.mshr_kind", 0},
	{"mshr-merge", "l1.mshr_merge", 0},
	{"mshr-per-warp", "l1.mshr_per_warp", 0},
	{"prefetch", "l1.prefetch", 0},
	{"prefetch-degree", "l1.prefetch_degree", 0},
	{"prefetch-distance", "l1.prefetch_distance", 0},
	{"prefetch-table", "l1.prefetch_table", 0},
};
#define NKEYOPTS ((int)(sizeof keyopts / sizeof keyopts[0]))
#define KEYOPT_WAYS 5
#define KEYOPT_CARVEOUT 11
#define KEYOPT_PREFETCH 19

struct cmdline {
	gc_common c;
	const char *input;
	int emit_all, timing, flush, top;
	uint64_t seed, window;
	unsigned threads; /* --timing's steps, --stats' classes (default: the online CPUs) */
	int dispatch;     /* --timing: GC_L1_DISPATCH_* */
	const char *keyval[NKEYOPTS]; /* the value of each key option, or NULL */
	unsigned sweep[GC_WAYSWEEP_MAX]; /* --ways-sweep: the associativities */
	size_t nsweep, emits;
};

/* ---- command line --------------------------------------------------------- */

static void sweep_option(struct cmdline *cl, const char *arg)
{
	char why[160];
	cl->nsweep = gc_waysweep_parse(arg, cl->sweep, why, sizeof why);
	if (!cl->nsweep)
		gc_usage_error("--ways-sweep: %s", why);
}

static void parse_cmdline(int argc, char **argv, struct cmdline *cl)
{
	struct option longopts[16 + 8 + NKEYOPTS] = {
		GC_COMMON_LONGOPTS,
		GC_REPORT_LONGOPTS,
		{"timing", no_argument, NULL, OPT_TIMING},
		{"seed", required_argument, NULL, OPT_SEED},
		{"window", required_argument, NULL, OPT_WINDOW},
		{"threads", required_argument, NULL, OPT_THREADS},
		{"dispatch", required_argument, NULL, OPT_DISPATCH},
		{"kernel-boundary", required_argument, NULL, OPT_BOUNDARY},
		{"top", required_argument, NULL, OPT_TOP},
		{"ways-sweep", required_argument, NULL, OPT_SWEEP},
	};
	int n = 0;
	while (longopts[n].name)
		n++;
	for (int i = 0; i < NKEYOPTS; i++)
		longopts[n++] = (struct option){keyopts[i].name, required_argument, NULL, OPT_KEY + i};
	longopts[n] = (struct option){NULL, 0, NULL, 0};

	memset(cl, 0, sizeof *cl);
	cl->seed = 1;
	cl->window = 1u << 20;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	cl->threads = ncpu < 1 ? 1 : ncpu > 64 ? 64 : (unsigned)ncpu;
	cl->dispatch = GC_L1_DISPATCH_FREE;
	cl->flush = -1; /* the preset's l1.kernel_flush */
	cl->top = 10;
	int c;
	while ((c = gc_getopt(argc, argv, GC_COMMON_SHORTOPTS, longopts)) != -1) {
		if (gc_common_option(&cl->c, c, optarg, help))
			continue;
		switch (c) {
		case GC_OPT_EMIT: {
			static const char *const emits[] = {"l2", "all", NULL};
			cl->emit_all = gc_emit_option(&cl->c, optarg, emits);
			cl->emits++;
			break;
		}
		case OPT_TIMING: cl->timing = 1; break;
		case OPT_SEED: cl->seed = gc_num("--seed", optarg, 0, UINT64_MAX); break;
		case OPT_WINDOW: cl->window = gc_num("--window", optarg, 1, UINT64_C(1) << 40); break;
		case OPT_THREADS: cl->threads = (unsigned)gc_num("--threads", optarg, 1, 1024); break;
		case OPT_DISPATCH:
			if (strcmp(optarg, "free") == 0)
				cl->dispatch = GC_L1_DISPATCH_FREE;
			else if (strcmp(optarg, "read") == 0)
				cl->dispatch = GC_L1_DISPATCH_READ;
			else
				gc_usage_error("--dispatch: '%s' is not free or read", optarg);
			break;
		case OPT_TOP: cl->top = (int)gc_num("--top", optarg, 0, 1u << 30); break;
		case OPT_BOUNDARY: cl->flush = gc_kernel_boundary(optarg); break;
		case OPT_SWEEP: sweep_option(cl, optarg); break;
		default:
			if (c >= OPT_KEY && c < OPT_KEY + NKEYOPTS) {
				cl->keyval[c - OPT_KEY] = optarg;
				break;
			}
			gc_usage_error("unexpected option");
		}
	}
	cl->input = gc_one_input(argc, argv);
	if (cl->nsweep && (cl->timing || cl->emits || cl->keyval[KEYOPT_WAYS] ||
			   cl->keyval[KEYOPT_PREFETCH]))
		gc_usage_error("--ways-sweep is the functional model of every associativity, "
			       "with no stream: not with %s",
			       cl->timing ? "--timing" : cl->emits ? "--emit" :
			       cl->keyval[KEYOPT_WAYS] ? "--ways" : "--prefetch");
}

/* ---- configuration ------------------------------------------------------------ */

/* A geometry from the input header key, or `dflt` when absent. */
static unsigned header_size(const gc_header *h, const char *key, unsigned dflt)
{
	const char *v = gc_header_get(h, key);
	if (!v || !*v)
		return dflt;
	char *end;
	unsigned long x = strtoul(v, &end, 10);
	if (*end || x == 0 || (x & (x - 1)) || x > 65536)
		gc_die(GC_EXIT_DATA, "input: stream header key %s=%s is not a power of two", key, v);
	return (unsigned)x;
}

/* The GPU: the stream's (or --gpu), the key options over it; the L1's
 * geometry checked (a usage error). */
static void configure(gc_gpu_config *gpu, struct cmdline *cl, const gc_header *in)
{
	gc_gpu_for_stream(gpu, cl->c.gpu, in);
	int geometry = 0;
	for (int i = 0; i < NKEYOPTS; i++) {
		if (!cl->keyval[i])
			continue;
		char opt[40];
		snprintf(opt, sizeof opt, "--%s", keyopts[i].name);
		gc_gpu_config_option(gpu, opt, keyopts[i].key, cl->keyval[i]);
		geometry |= keyopts[i].geometry;
	}
	if (cl->nsweep) { /* checked at its largest associativity */
		char max[16];
		snprintf(max, sizeof max, "%u", cl->sweep[cl->nsweep - 1]);
		gc_gpu_config_option(gpu, "--ways-sweep", "l1.ways", max);
		geometry = 1;
	}
	/* An explicit geometry is the L1 the user wants: the carve-out would
	 * otherwise tie it to sm.unified_size. */
	if (geometry && !cl->keyval[KEYOPT_CARVEOUT]) {
		gc_gpu_config_option(gpu, "--carveout", "sm.carveout", "none");
		gc_gpu_config_option(gpu, "--carveout", "sm.unified_size", "0");
		gc_gpu_config_option(gpu, "--carveout", "sm.shmem_options", "none");
	}
	gc_gpu_config_finish(gpu);
	if (cl->flush < 0)
		cl->flush = gpu->l1.kernel_flush;
	const gc_gpu_cache *l1 = &gpu->l1;
	gc_cache_geom g = {l1->line, l1->sector, l1->sets, l1->ways, l1->index, l1->repl, cl->seed};
	char why[160];
	if (gc_cache_geom_check(&g, why, sizeof why) < 0)
		gc_die(GC_EXIT_USAGE, "options: L1: %s", why);
}

static void oom(int rc)
{
	if (rc < 0)
		gc_die(GC_EXIT_DATA, "out of memory");
}

static void set_header(gc_header *oh, const gc_header *in, const struct cmdline *cl,
		       const gc_gpu_config *gpu, const gc_l1_statistics *st)
{
	char buf[32];
	oom(gc_header_copy(oh, in));
	oh->kind = GC_KIND_REQUEST;
	if (cl->emit_all)
		oh->optional |= GC_OPT_ANNOTATED;
	else
		oh->optional &= ~(uint32_t)GC_OPT_ANNOTATED;
	snprintf(buf, sizeof buf, "%u", st->in_line);
	oom(gc_header_set(oh, "line_size", buf));
	snprintf(buf, sizeof buf, "%u", cl->emit_all ? st->in_sector : st->out_sector);
	oom(gc_header_set(oh, "sector_size", buf));
	if (cl->timing)
		oh->optional |= GC_OPT_SCHEDULED;
	if (gpu->l1.prefetch != GC_PF_NONE)
		oh->optional |= GC_OPT_PREFETCH;
	gc_gpu_config_header(gpu, cl->c.gpu, oh);
	oom(gc_header_set(oh, "l1.emit", cl->emit_all ? "all" : "l2"));
	oom(gc_header_set(oh, "l1.model", cl->timing ? "timing" : "functional"));
	oom(gc_header_set(oh, "l1.kernel_boundary", cl->flush ? "flush" : "keep"));
	if (cl->timing) {
		snprintf(buf, sizeof buf, "%llu", (unsigned long long)cl->seed);
		oom(gc_header_set(oh, "l1.seed", buf));
	}
	oom(gc_header_add_provenance(oh, gc_cmdline()));
}

/* ---- the streams ----------------------------------------------------------------- */

/* The streams and the engine, and where the timing model's reads are. */
struct io {
	const struct cmdline *cl;
	gc_reader *r;
	gc_writer *w;
	gc_l1 *L;
	gc_opmap ops; /* the opcodes of the per-PC table */
};

/* The engine's output goes to the writer. */
static int emit(void *ctx, const gc_rec *r, size_t n, char *err, size_t len)
{
	struct io *io = ctx;
	if (!io->w) /* --emit none */
		return 0;
	for (size_t i = 0; i < n; i++)
		if (gc_write(io->w, &r[i]) < 0) {
			snprintf(err, len, "%s", gc_writer_error(io->w));
			return -1;
		}
	return 0;
}

/* The same as the bytes of a raw block (gc_l1_access_raw). */
static int emit_raw(void *ctx, const unsigned char *p, size_t n, uint64_t time_hi, char *err,
		    size_t len)
{
	struct io *io = ctx;
	if (io->w && gc_write_raw(io->w, p, n, time_hi) < 0) {
		snprintf(err, len, "%s", gc_writer_error(io->w));
		return -1;
	}
	return 0;
}

/* Something failed (the engine, the input, the output): its message, and
 * nothing more written. */
static _Noreturn void fail(struct io *io, const char *msg)
{
	char copy[640];
	snprintf(copy, sizeof copy, "%s", msg);
	gc_writer_free(io->w);
	gc_progress_end(io->cl->c.progress);
	gc_die(GC_EXIT_DATA, "%s", copy);
}

static void check(struct io *io, int rc)
{
	if (rc < 0)
		fail(io, gc_l1_error(io->L));
}

static void progress(const struct io *io)
{
	if (io->cl->c.progress)
		gc_progress_reader(1, io->r);
}

/* --timing: the kernel's next records, for the engine (gc_l1_read_fn).
 * Data records come in batches (gc_read_data), which stop before
 * anything else: that is gc_read's. */
static long next_records(void *ctx, gc_rec *rec, uint64_t *recno, size_t max, char *err,
			 size_t len)
{
	struct io *io = ctx;
	size_t n = gc_read_data(io->r, rec, recno, max);
	if (n) {
		progress(io);
		return (long)n;
	}
	int ev = gc_read(io->r, rec);
	if (ev == GC_DATA) {
		recno[0] = gc_reader_records(io->r);
		progress(io);
		return 1;
	}
	if (ev == GC_KEND)
		return 0;
	if (ev == GC_ERR)
		snprintf(err, len, "%s", gc_reader_error(io->r));
	else /* the reader checks the nesting; this is a safeguard */
		snprintf(err, len, "%s: record %llu: a kernel without its end record",
			 gc_reader_name(io->r), (unsigned long long)gc_reader_records(io->r));
	return -1;
}

static void write_kbegin(struct io *io, const gc_kernel *k)
{
	if (io->w && gc_write_kbegin(io->w, k) < 0)
		fail(io, gc_writer_error(io->w));
}

static void write_kend(struct io *io, uint32_t id)
{
	if (gc_opmap_add(&io->ops, gc_reader_kernel(io->r)->name, gc_reader_opcodes(io->r)) < 0)
		fail(io, "out of memory");
	if (io->w && (gc_write_opcodes(io->w, gc_reader_opcodes(io->r)) < 0 ||
		      gc_write_kend(io->w, id) < 0))
		fail(io, gc_writer_error(io->w));
}

/* ---- the two models ----------------------------------------------------------------- */

/*
 * Functional: data records are read in batches of AHEAD (gc_read_data),
 * one batch ahead of the one the engine models, so that it can prefetch
 * the state the next batch will touch.  A batch ends short before any
 * other record (a kernel record, the end, an error): the batches before
 * it are modelled, then gc_read takes it.
 */
#define AHEAD 16

static void run_functional(struct io *io, int raw)
{
	gc_rec b[2][AHEAD], rec;
	size_t n[2] = {0, 0};
	int cur = 0, open = 0;
	/* From a pipe, reads of a whole block: the writer before us is woken
	 * once a read (when the pipe was full), and each wake-up costs this
	 * side ~6 us of system time on the bench's VM (DESIGN-NOTES) */
	if (raw && !gc_reader_raw_size(io->r))
		gc_reader_set_chunk(io->r, GC_WRITE_BLOCK);
	for (;;) {
		if (raw) {
			/* Blocks as they lie in the stream, and out the same. */
			size_t k;
			uint64_t hi;
			const unsigned char *p = gc_read_raw(io->r, SIZE_MAX, &k, &hi);
			if (k) {
				check(io, gc_l1_access_raw(io->L, p, k, hi));
				if (io->cl->c.progress)
					gc_progress_reader_block(1, io->r);
				continue;
			}
		} else {
			/* Read a batch ahead, model the one before it. */
			n[!cur] = gc_read_data(io->r, b[!cur], NULL, AHEAD);
			check(io, gc_l1_access(io->L, b[cur], n[cur], b[!cur], n[!cur]));
			cur = !cur;
			progress(io);
			if (n[cur] == AHEAD)
				continue;
			/* A short batch: another record follows it. */
			check(io, gc_l1_access(io->L, b[cur], n[cur], NULL, 0));
			n[cur] = 0;
		}
		int ev = gc_read(io->r, &rec);
		if (ev == GC_DATA) {
			check(io, gc_l1_access(io->L, &rec, 1, NULL, 0));
		} else if (ev == GC_KBEGIN) {
			/* begin first: a carve-out change writes back into it */
			write_kbegin(io, gc_reader_kernel(io->r));
			check(io, gc_l1_kernel_begin(io->L, gc_reader_kernel(io->r)));
			open = 1;
		} else if (ev == GC_KEND) {
			check(io, gc_l1_kernel_end(io->L));
			write_kend(io, rec.kernel);
			open = 0;
		} else if (ev == GC_EOF) {
			if (open)
				check(io, gc_l1_kernel_end(io->L));
			break;
		} else {
			fail(io, gc_reader_error(io->r));
		}
	}
}

/* --timing: the engine reads each kernel itself (next_record). */
static void run_timing(struct io *io)
{
	gc_rec rec;
	for (;;) {
		int ev = gc_read(io->r, &rec);
		if (ev == GC_KBEGIN) {
			const gc_kernel *k = gc_reader_kernel(io->r);
			uint32_t id = k->id;
			write_kbegin(io, k);
			check(io, gc_l1_kernel_begin(io->L, k));
			check(io, gc_l1_kernel_run(io->L));
			check(io, gc_l1_kernel_end(io->L));
			write_kend(io, id);
		} else if (ev == GC_EOF) {
			break;
		} else {
			fail(io, gc_reader_error(io->r));
		}
	}
}

/* ---- statistics ------------------------------------------------------------------ */

static double ratio(uint64_t a, uint64_t b)
{
	return b ? (double)a / (double)b : 0.0;
}

/* The sectors of one operation: requested, hits, misses, and the misses
 * split as GPGPU-Sim's per-sector lookups count them (gc-l1(1)). */
static void json_op_sectors(gc_json *j, const char *key, const uint64_t *o)
{
	uint64_t misses = o[GC_L1_SEC_REQUESTED] - o[GC_L1_SEC_HITS];
	gc_json_obj(j, key);
	gc_json_u64(j, "requested", o[GC_L1_SEC_REQUESTED]);
	gc_json_u64(j, "hits", o[GC_L1_SEC_HITS]);
	gc_json_u64(j, "misses", misses);
	gc_json_u64(j, "line_misses", o[GC_L1_SEC_LINE_MISSES]);
	gc_json_u64(j, "sector_misses",
		    misses - o[GC_L1_SEC_LINE_MISSES] - o[GC_L1_SEC_MERGED]);
	gc_json_u64(j, "merged", o[GC_L1_SEC_MERGED]);
	gc_json_u64(j, "reservation_fails", o[GC_L1_SEC_RES_FAILS]);
	gc_json_close(j);
}

/* Hit rates, per request and per sector; sectors and warp instructions
 * by operation. */
static void json_rates(gc_json *j, const gc_l1_counts *n)
{
	gc_json_num(j, "hit_rate", ratio(n->hits, n->hits + n->misses));
	gc_json_obj(j, "sectors");
	gc_json_u64(j, "requested", n->sec_requested);
	gc_json_u64(j, "hits", n->sec_hits);
	gc_json_u64(j, "misses", n->sec_requested - n->sec_hits);
	json_op_sectors(j, "loads", n->op_sec[GC_LOAD]);
	json_op_sectors(j, "stores", n->op_sec[GC_STORE]);
	json_op_sectors(j, "atomics", n->op_sec[GC_ATOMIC]);
	gc_json_close(j);
	gc_json_num(j, "sector_hit_rate", ratio(n->sec_hits, n->sec_requested));
	gc_json_obj(j, "instructions");
	gc_json_u64(j, "loads", n->insts[GC_LOAD]);
	gc_json_u64(j, "stores", n->insts[GC_STORE]);
	gc_json_u64(j, "atomics", n->insts[GC_ATOMIC]);
	gc_json_close(j);
}

static void json_counters(gc_json *j, const gc_l1_counts *n)
{
	gc_json_u64(j, "requests", n->requests);
	gc_json_u64(j, "loads", n->loads);
	gc_json_u64(j, "stores", n->stores);
	gc_json_u64(j, "atomics", n->atomics);
	gc_json_u64(j, "hits", n->hits);
	gc_json_u64(j, "misses", n->misses);
	gc_json_u64(j, "sector_misses", n->sector_misses);
	gc_json_u64(j, "merged", n->cls[GC_C_LATENCY]);
	gc_json_u64(j, "bypasses", n->bypassed);
	gc_json_u64(j, "shared", n->shared);
	json_rates(j, n);
	gc_json_obj(j, "classes");
	for (int c = GC_C_COMPULSORY; c < GC_NCLASSES; c++)
		gc_json_u64(j, gc_class_key(c), n->cls[c]);
	gc_json_close(j);
	gc_json_u64(j, "mshr_stalls", n->stalls);
	gc_json_obj(j, "to_l2");
	gc_json_u64(j, "reads", n->l2_reads);
	gc_json_u64(j, "writes", n->l2_writes);
	gc_json_u64(j, "atomics", n->l2_atomics);
	gc_json_u64(j, "read_bytes", n->l2_read_bytes);
	gc_json_u64(j, "write_bytes", n->l2_write_bytes);
	gc_json_u64(j, "atomic_bytes", n->l2_atomic_bytes);
	gc_json_u64(j, "bytes", n->l2_read_bytes + n->l2_write_bytes + n->l2_atomic_bytes);
	gc_json_u64(j, "writebacks", n->writebacks);
	gc_json_close(j);
}

/* The prefetcher's counts (model/prefetch.h), when it is on. */
static void json_prefetch(gc_json *j, const gc_gpu_config *gpu, const gc_l1_counts *n)
{
	if (gpu->l1.prefetch == GC_PF_NONE)
		return;
	gc_pf_counts c = {n->pf_issued, n->pf_useful, n->pf_late, n->pf_useless};
	gc_json_obj(j, "prefetch");
	gc_json_u64(j, "issued", c.issued);
	gc_json_u64(j, "useful", c.useful);
	gc_json_u64(j, "late", c.late);
	gc_json_u64(j, "useless", c.useless);
	gc_json_num(j, "accuracy", gc_pf_accuracy(&c));
	gc_json_num(j, "coverage", gc_pf_coverage(&c, n->misses));
	gc_json_close(j);
}

static const char *enum_text(const gc_gpu_config *c, const char *key, char *buf, size_t len)
{
	int i = gc_gpu_key_find(key);
	if (i < 0 || gc_gpu_format(c, i, buf, len) < 0)
		snprintf(buf, len, "?");
	return buf;
}

/* The object's first keys, up to the config's model (both JSON forms). */
static void json_head(gc_json *j, FILE *f, const char *input, const gc_gpu_config *gpu,
		      const char *model)
{
	gc_json_begin(j, f);
	gc_json_str(j, "tool", "gc-l1");
	gc_json_str(j, "input", input);
	gc_json_str(j, "gpu", gpu->name);
	gc_json_obj(j, "config");
	gc_json_str(j, "model", model);
}

/* The config's policies, in both JSON forms. */
static void json_policies(gc_json *j, const struct cmdline *cl, const gc_gpu_config *gpu)
{
	char buf[64];
	gc_json_str(j, "index", enum_text(gpu, "l1.index", buf, sizeof buf));
	gc_json_str(j, "replacement", enum_text(gpu, "l1.replacement", buf, sizeof buf));
	gc_json_str(j, "write", enum_text(gpu, "l1.write", buf, sizeof buf));
	gc_json_str(j, "write_alloc", enum_text(gpu, "l1.write_alloc", buf, sizeof buf));
	gc_json_str(j, "carveout", enum_text(gpu, "sm.carveout", buf, sizeof buf));
	gc_json_str(j, "kernel_boundary", cl->flush ? "flush" : "keep");
}

static void write_json(FILE *f, const char *input, const struct cmdline *cl,
		       const gc_gpu_config *gpu, const gc_l1_statistics *st, const gc_opmap *ops)
{
	const gc_l1_counts *n = &st->total;
	gc_json j;
	json_head(&j, f, input, gpu, cl->timing ? "timing" : "functional");
	gc_json_u64(&j, "size", (uint64_t)st->sets * st->ways * st->line);
	gc_json_u64(&j, "line", st->line);
	gc_json_u64(&j, "sector", st->sector);
	gc_json_u64(&j, "sets", st->sets);
	gc_json_u64(&j, "ways", st->ways);
	json_policies(&j, cl, gpu);
	if (cl->timing) {
		gc_json_u64(&j, "hit_latency", gpu->l1.latency);
		gc_json_u64(&j, "miss_latency_min", gpu->miss.lambda_min);
		gc_json_num(&j, "miss_latency_sigma", gpu->miss.sigma);
		gc_json_u64(&j, "mshr_entries", gpu->l1.mshr_entries);
		gc_json_u64(&j, "mshr_merge", gpu->l1.mshr_merge);
		gc_json_u64(&j, "mshr_per_warp", gpu->l1.mshr_per_warp);
		gc_json_u64(&j, "seed", cl->seed);
	}
	if (gpu->l1.prefetch != GC_PF_NONE) {
		char buf[16];
		gc_json_str(&j, "prefetch", enum_text(gpu, "l1.prefetch", buf, sizeof buf));
		gc_json_u64(&j, "prefetch_degree", gpu->l1.pf_degree);
		gc_json_u64(&j, "prefetch_distance", gpu->l1.pf_distance);
		gc_json_u64(&j, "prefetch_table", gpu->l1.pf_table);
	}
	gc_json_close(&j);
	json_counters(&j, n);
	json_prefetch(&j, gpu, n);
	if (cl->timing) {
		gc_json_u64(&j, "cycles", st->cycles);
		gc_json_u64(&j, "peak_buffered", st->peak_buffered);
	}
	gc_json_arr(&j, "kernels");
	for (size_t i = 0; i < st->nkernels; i++) {
		const gc_l1_kstat *k = &st->kernels[i];
		gc_json_obj(&j, NULL);
		gc_json_u64(&j, "id", k->id);
		gc_json_str(&j, "name", k->name);
		gc_json_u64(&j, "l1_size", k->l1_size);
		gc_json_u64(&j, "l1_sets", k->sets);
		gc_json_u64(&j, "l1_ways", k->ways);
		gc_json_u64(&j, "shmem_per_sm", k->shmem);
		gc_json_u64(&j, "active_blocks", k->active);
		gc_json_u64(&j, "requests", k->n.requests);
		gc_json_u64(&j, "hits", k->n.hits);
		gc_json_u64(&j, "misses", k->n.misses);
		json_rates(&j, &k->n);
		if (gc_unitjson(&j, "per_sm", "sm", st->ksms, i) < 0)
			gc_die(GC_EXIT_DATA, "out of memory");
		gc_json_close(&j);
	}
	gc_json_close(&j);
	gc_json_arr(&j, "per_sm");
	for (size_t i = 0; i < st->nsms; i++) {
		const gc_l1_smstat *s = &st->sms[i];
		gc_json_obj(&j, NULL);
		gc_json_u64(&j, "sm", s->sm);
		gc_json_u64(&j, "requests", s->n.requests);
		gc_json_u64(&j, "hits", s->n.hits);
		gc_json_u64(&j, "misses", s->n.misses);
		gc_json_u64(&j, "sector_misses", s->n.sector_misses);
		json_rates(&j, &s->n);
		gc_json_u64(&j, "to_l2_reads", s->n.l2_reads);
		gc_json_u64(&j, "to_l2_writes", s->n.l2_writes);
		gc_json_close(&j);
	}
	gc_json_close(&j);
	gc_pcreport_json(&j, st->pctab, ops, st->pcs, st->npcs, (size_t)cl->top);
	gc_json_end(&j);
}

/* What the report is of (gc_write_report's ctx). */
struct report_of {
	const struct cmdline *cl;
	const gc_gpu_config *gpu;
	const gc_l1_statistics *st;
	const gc_opmap *ops;
};

static void report(FILE *f, const void *ctx)
{
	const struct report_of *of = ctx;
	const struct cmdline *cl = of->cl;
	const gc_gpu_config *gpu = of->gpu;
	const gc_l1_statistics *st = of->st;
	const gc_l1_counts *n = &st->total;
	const char *p = gc_progname;
	fprintf(f, "%s: %s L1, %llu x %llu x %u B (%s), %s model\n", p, gpu->name,
		(unsigned long long)st->sets, (unsigned long long)st->ways, st->line,
		st->sector == st->line ? "not sectored" : "sectored",
		cl->timing ? "timing" : "functional");
	fprintf(f, "%s: requests %llu: hits %llu, misses %llu (sector misses %llu), bypassed %llu, "
		"shared %llu; hit rate %.4f\n", p, (unsigned long long)n->requests,
		(unsigned long long)n->hits, (unsigned long long)n->misses,
		(unsigned long long)n->sector_misses, (unsigned long long)n->bypassed,
		(unsigned long long)n->shared, ratio(n->hits, n->hits + n->misses));
	fprintf(f, "%s: sectors: requested %llu, hits %llu, misses %llu; sector hit rate %.4f\n", p,
		(unsigned long long)n->sec_requested, (unsigned long long)n->sec_hits,
		(unsigned long long)(n->sec_requested - n->sec_hits),
		ratio(n->sec_hits, n->sec_requested));
	fprintf(f, "%s: misses by class:", p);
	for (int c = GC_C_COMPULSORY; c < GC_NCLASSES; c++)
		fprintf(f, " %s %llu", gc_class_name(c), (unsigned long long)n->cls[c]);
	fprintf(f, "; MSHR stalls %llu\n", (unsigned long long)n->stalls);
	fprintf(f, "%s: to L2: %llu reads (%llu B), %llu writes (%llu B, %llu write-backs), "
		"%llu atomics (%llu B)\n", p, (unsigned long long)n->l2_reads,
		(unsigned long long)n->l2_read_bytes, (unsigned long long)n->l2_writes,
		(unsigned long long)n->l2_write_bytes, (unsigned long long)n->writebacks,
		(unsigned long long)n->l2_atomics, (unsigned long long)n->l2_atomic_bytes);
	if (gpu->l1.prefetch != GC_PF_NONE) {
		gc_pf_counts c = {n->pf_issued, n->pf_useful, n->pf_late, n->pf_useless};
		char buf[16];
		fprintf(f, "%s: prefetch %s: issued %llu, useful %llu, late %llu, useless %llu; "
			"accuracy %.4f, coverage %.4f\n", p,
			enum_text(gpu, "l1.prefetch", buf, sizeof buf), (unsigned long long)c.issued,
			(unsigned long long)c.useful, (unsigned long long)c.late,
			(unsigned long long)c.useless, gc_pf_accuracy(&c),
			gc_pf_coverage(&c, n->misses));
	}
	if (cl->timing)
		fprintf(f, "%s: cycles %llu, at most %llu requests buffered\n", p,
			(unsigned long long)st->cycles, (unsigned long long)st->peak_buffered);
	for (size_t i = 0; i < st->nkernels; i++) {
		const gc_l1_kstat *k = &st->kernels[i];
		fprintf(f, "%s: kernel %u %s: L1 %llu B (%u x %u), %llu B shared, %u blocks/SM: "
			"%llu requests, %llu hits, %llu misses\n", p, k->id,
			k->name[0] ? k->name : "-", (unsigned long long)k->l1_size, k->sets,
			k->ways, (unsigned long long)k->shmem, k->active,
			(unsigned long long)k->n.requests, (unsigned long long)k->n.hits,
			(unsigned long long)k->n.misses);
	}
	for (size_t i = 0; i < st->nsms; i++) {
		const gc_l1_smstat *s = &st->sms[i];
		fprintf(f, "%s: SM %u: %llu requests, %llu hits, %llu misses, hit rate %.4f\n", p,
			s->sm, (unsigned long long)s->n.requests, (unsigned long long)s->n.hits,
			(unsigned long long)s->n.misses, ratio(s->n.hits, s->n.hits + s->n.misses));
	}
	gc_pcreport_text(f, p, st->pctab, of->ops, st->pcs, st->npcs, (size_t)cl->top);
}

static void write_stats(const struct io *io, const gc_gpu_config *gpu)
{
	const struct cmdline *cl = io->cl;
	const gc_l1_statistics *st = gc_l1_stats(io->L);
	if (cl->c.stats) {
		FILE *f = gc_open_text(cl->c.stats);
		write_json(f, gc_reader_name(io->r), cl, gpu, st, &io->ops);
		gc_close_text(f, cl->c.stats);
	}
	const struct report_of of = {cl, gpu, st, &io->ops};
	gc_write_report(&cl->c, report, &of);
}

/* ---- --ways-sweep: every associativity in one pass ------------------------------ */

static void sweep_check(const gc_waysweep *S, int rc)
{
	if (rc < 0)
		gc_die(rc == -2 ? GC_EXIT_USAGE : GC_EXIT_DATA, "%s", gc_waysweep_error(S));
}

static void sweep_json(FILE *f, const char *input, const struct cmdline *cl,
		       const gc_gpu_config *gpu, const gc_waysweep_stats *st)
{
	gc_json j;
	json_head(&j, f, input, gpu, "functional");
	gc_json_u64(&j, "line", st->line);
	gc_json_u64(&j, "sector", st->sector);
	gc_json_u64(&j, "sets", st->sets);
	json_policies(&j, cl, gpu);
	gc_json_close(&j);
	gc_json_u64(&j, "requests", st->requests);
	gc_json_u64(&j, "loads", st->loads);
	gc_json_u64(&j, "stores", st->stores);
	gc_json_u64(&j, "atomics", st->atomics);
	gc_json_u64(&j, "bypasses", st->bypassed);
	gc_json_u64(&j, "shared", st->shared);
	gc_sweeptab_json(&j, st);
	gc_json_end(&j);
}

struct sweep_of {
	const gc_gpu_config *gpu;
	const gc_waysweep_stats *st;
};

/* -v and --report: a line per associativity, a line per kernel. */
static void sweep_report(FILE *f, const void *ctx)
{
	const struct sweep_of *of = ctx;
	const gc_waysweep_stats *st = of->st;
	const char *p = gc_progname;
	fprintf(f, "%s: %s L1, %u sets x %u to %u ways (%zu associativities) x %u B (%s), "
		"functional model, one pass\n", p, of->gpu->name, st->sets, st->ways[0],
		st->ways[st->nways - 1], st->nways, st->line,
		st->sector == st->line ? "not sectored" : "sectored");
	fprintf(f, "%s: requests %llu: bypassed %llu, shared %llu\n", p,
		(unsigned long long)st->requests, (unsigned long long)st->bypassed,
		(unsigned long long)st->shared);
	gc_sweeptab_text(f, p, st);
}

/* --ways-sweep: the records through the sweep engine, kernel by kernel
 * as gc-l1's functional model takes them; the table, --stats and the
 * report. */
#define SWEEP_BATCH 256

static void run_sweep(const struct cmdline *cl, const gc_gpu_config *gpu, gc_reader *r)
{
	const gc_header *in = gc_reader_header(r);
	gc_waysweep_params p = {0};
	p.gpu = gpu;
	p.in_line = header_size(in, "line_size", gpu->l1.line);
	p.in_sector = header_size(in, "sector_size", p.in_line < 32 ? p.in_line : 32);
	p.ways = cl->sweep;
	p.nways = cl->nsweep;
	p.flush = cl->flush;
	p.input = gc_reader_name(r);
	char err[400];
	int refused;
	gc_waysweep *S = gc_waysweep_new(&p, &refused, err, sizeof err);
	if (!S)
		gc_die(refused ? GC_EXIT_USAGE : GC_EXIT_DATA, "%s", err);
	gc_rec b[SWEEP_BATCH];
	uint64_t no[SWEEP_BATCH];
	int open = 0;
	for (;;) {
		size_t n = gc_read_data(r, b, no, SWEEP_BATCH);
		sweep_check(S, gc_waysweep_access(S, b, no, n));
		if (cl->c.progress)
			gc_progress_reader(1, r);
		if (n == SWEEP_BATCH)
			continue;
		int ev = gc_read(r, b);
		if (ev == GC_DATA) {
			no[0] = gc_reader_records(r);
			sweep_check(S, gc_waysweep_access(S, b, no, 1));
		} else if (ev == GC_KBEGIN) {
			sweep_check(S, gc_waysweep_kernel_begin(S, gc_reader_kernel(r)));
			open = 1;
		} else if (ev == GC_KEND) {
			sweep_check(S, gc_waysweep_kernel_end(S));
			open = 0;
		} else if (ev == GC_EOF) {
			if (open)
				sweep_check(S, gc_waysweep_kernel_end(S));
			break;
		} else {
			gc_die(GC_EXIT_DATA, "%s", gc_reader_error(r));
		}
	}
	gc_progress_end(cl->c.progress);
	const gc_waysweep_stats *st = gc_waysweep_stats_get(S);
	FILE *f = gc_open_text(cl->c.out);
	gc_sweeptab_csv(f, st);
	gc_close_text(f, cl->c.out);
	if (cl->c.stats) {
		f = gc_open_text(cl->c.stats);
		sweep_json(f, gc_reader_name(r), cl, gpu, st);
		gc_close_text(f, cl->c.stats);
	}
	const struct sweep_of of = {gpu, st};
	gc_write_report(&cl->c, sweep_report, &of);
	gc_waysweep_free(S);
}

/* The engine's parameters for this command line, stream and GPU. */
static gc_l1_params params(const struct cmdline *cl, const gc_gpu_config *gpu, gc_reader *r,
			   struct io *io)
{
	const gc_header *in = gc_reader_header(r);
	gc_l1_params p;
	memset(&p, 0, sizeof p);
	p.gpu = gpu;
	p.in_line = header_size(in, "line_size", gpu->l1.line);
	p.in_sector = header_size(in, "sector_size", p.in_line < 32 ? p.in_line : 32);
	p.timing = cl->timing;
	p.classify = cl->emit_all || cl->c.stats || gc_report_wanted(&cl->c);
	p.emit_all = cl->emit_all;
	p.flush = cl->flush;
	p.uncounted = !cl->c.stats && !gc_report_wanted(&cl->c);
	p.seed = cl->seed;
	p.window = cl->window;
	p.threads = cl->threads;
	p.dispatch = cl->dispatch;
	p.step_all = getenv("GC_L1_STEP_ALL") != NULL;
	p.look_all = getenv("GC_L1_LOOK_ALL") != NULL;
	p.generic = getenv("GC_L1_GENERIC") != NULL;
	p.in_order = getenv("GC_L1_IN_ORDER") != NULL;
	p.class_now = getenv("GC_L1_CLASS_NOW") != NULL;
	const char *fr = getenv("GC_L1_FREE_READ");
	if (fr && *fr)
		p.free_read = (unsigned)gc_num("GC_L1_FREE_READ", fr, 1, 1u << 30);
	p.input = gc_reader_name(r);
	p.emit = emit;
	p.emit_raw = emit_raw;
	p.emit_ctx = io;
	p.read = next_records;
	p.read_ctx = io;
	return p;
}

/* The command line for provenance: without --threads, which changes
 * nothing in the output (getopt's abbreviations of it too: --th...). */
static char **provenance_argv(int argc, char **argv, int *n)
{
	char **v = malloc(((size_t)argc + 1) * sizeof *v);
	if (!v)
		gc_die(GC_EXIT_DATA, "out of memory");
	int k = 0;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		size_t len = strcspn(a, "=");
		int opts = i > 0 && !(k > 0 && strcmp(v[k - 1], "--") == 0);
		if (opts && len >= 4 && strncmp(a, "--threads", len) == 0) {
			i += !a[len]; /* its value, when not --threads=N */
			continue;
		}
		v[k++] = argv[i];
	}
	v[k] = NULL;
	*n = k;
	return v;
}

int main(int argc, char **argv)
{
	struct cmdline cl;
	struct io io = {0};
	gc_gpu_config gpu;
	gc_header oh;
	char err[640];

	int pargc;
	char **pargv = provenance_argv(argc, argv, &pargc);
	gc_prog_init("gc-l1", pargc, pargv);
	free(pargv);
	parse_cmdline(argc, argv, &cl);
	io.cl = &cl;
	gc_opmap_init(&io.ops);
	io.r = gc_open_stream(cl.input);
	gc_require_kind(io.r, GC_KIND_REQUEST);
	configure(&gpu, &cl, gc_reader_header(io.r));
	if (cl.nsweep) {
		run_sweep(&cl, &gpu, io.r);
		gc_reader_close(io.r);
		return 0;
	}

	gc_l1_params p = params(&cl, &gpu, io.r, &io);
	io.L = gc_l1_new(&p, err, sizeof err);
	if (!io.L)
		gc_die(GC_EXIT_DATA, "%s", err);
	memset(&oh, 0, sizeof oh);
	set_header(&oh, gc_reader_header(io.r), &cl, &gpu, gc_l1_stats(io.L));
	io.w = gc_open_output(&cl.c, &oh);

	if (cl.timing)
		run_timing(&io);
	else /* 32-byte records in and out: as they lie */
		run_functional(&io, gc_l1_raw_ok(io.L) &&
				    gc_reader_header(io.r)->record_size == GC_RECORD_BASE &&
				    oh.record_size == GC_RECORD_BASE &&
				    !getenv("GC_L1_DECODE"));
	gc_progress_end(cl.c.progress);
	gc_close_output(io.w);
	gc_header_free(&oh);

	check(&io, gc_l1_finish(io.L));
	write_stats(&io, &gpu);
	gc_l1_free(io.L);
	gc_opmap_free(&io.ops);
	gc_reader_close(io.r);
	return 0;
}
