/*
 * gc-l1 - one private L1 data cache per SM: functional sector caches
 * (seed 003 §4.1) and the timing model of seed 000 §4.2-4.5.
 *
 * Reads: requests (gc-coalesce).  Writes: the requests that go on to L2
 * (default: misses as sector reads, writes per the write policy,
 * write-backs, atomics and bypassed requests), or with --emit all every
 * input request annotated with its outcome.
 *
 * Without --timing the caches are functional, in stream order: a miss
 * fills its line at once.  With --timing each SM runs the warp queue of
 * seed 000 §4.5 over the requests it reads: the front warp issues its next
 * instruction, a hit costs the hit latency, a miss lambda_min + |N(0,
 * sigma^2)|, the line arrives when the miss returns, a request to a line
 * still in flight merges with it (a latency miss), and an instruction
 * that finds no free MSHR is cancelled and its warp sent to the back of
 * the queue.  SMs run in one global time order, so the output stays in
 * timestamp order.
 *
 * Classification, in the same pass: compulsory (a sector never requested
 * before), capacity (a miss in a fully associative LRU shadow of the same
 * number of lines, lib/l1shadow.c), conflict (a hit there), latency
 * (merged into an in-flight miss), MSHR (issued after an MSHR stall).
 */
#include "base/hash.h"
#include "config/gpu.h"
#include "model/cache.h"
#include "model/l1queue.h"
#include "model/l1shadow.h"
#include "prog/gpuopt.h"
#include "prog/prog.h"
#include "report/json.h"
#include "stream/stream.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char help[] =
	"Usage: gc-l1 [options] [file]\n"
	"Model one private L1 data cache per SM over a request stream.\n"
	"\n"
	"      --emit WHAT        l2: the requests that go on to L2 (default);\n"
	"                         all: every request, annotated with its outcome\n"
	"      --timing           the seed-000 timing model (warp queue, latencies, MSHRs)\n"
	"      --seed N           seed of the miss-latency generator (default 1)\n"
	"      --window N         --timing: a warp with no request in the next N input\n"
	"                         records has ended (default 1M)\n"
	"      --kernel-boundary flush|keep\n"
	"                         invalidate the L1s at each kernel end (default: l1.kernel_flush)\n"
	"      --gpu NAME|FILE    GPU preset or file (default: the input header's)\n"
	"      --cache STRING     L1 as a GPGPU-Sim cache string\n"
	"      --size N           L1 bytes per SM\n"
	"      --line N           line bytes\n"
	"      --sector N         sector bytes (the line size: not sectored)\n"
	"      --sets N           sets\n"
	"      --ways N           ways (any count)\n"
	"      --index FN         set index: linear, xor, fermi, ipoly\n"
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
	"      --top N            PCs listed in the statistics (default 10)\n"
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
	OPT_EMIT = GC_OPT_TOOL,
	OPT_TIMING,
	OPT_SEED,
	OPT_WINDOW,
	OPT_BOUNDARY,
	OPT_TOP,
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
};
#define NKEYOPTS ((int)(sizeof keyopts / sizeof keyopts[0]))
#define KEYOPT_CARVEOUT 11

struct cmdline {
	gc_common c;
	const char *input;
	int emit_all, timing, flush, top;
	uint64_t seed, window;
	const char *keyval[NKEYOPTS]; /* the value of each key option, or NULL */
};

/* ---- counters ----------------------------------------------------------- */

struct counters {
	uint64_t requests, loads, stores, atomics;
	uint64_t hits, misses, sector_misses, bypassed, shared;
	uint64_t cls[GC_NCLASSES];
	uint64_t stalls;     /* instructions cancelled for want of an MSHR */
	uint64_t l2_reads, l2_writes, l2_atomics;
	uint64_t l2_read_bytes, l2_write_bytes, l2_atomic_bytes;
	uint64_t writebacks; /* of those writes, write-backs of dirty sectors */
};

static void counters_add(struct counters *a, const struct counters *b)
{
	uint64_t *x = (uint64_t *)a;
	const uint64_t *y = (const uint64_t *)b;
	for (size_t i = 0; i < sizeof *a / sizeof(uint64_t); i++)
		x[i] += y[i];
}

static void counters_sub(struct counters *a, const struct counters *b)
{
	uint64_t *x = (uint64_t *)a;
	const uint64_t *y = (const uint64_t *)b;
	for (size_t i = 0; i < sizeof *a / sizeof(uint64_t); i++)
		x[i] -= y[i];
}

struct pcstat {
	uint32_t pc;
	uint64_t requests, misses;
};

struct kstat {
	uint32_t id;
	char name[64];
	uint64_t l1_size, shmem;
	unsigned sets, ways, active;
	struct counters n;
};

/* ---- the timing model's state ------------------------------------------- */

#define INST_MAX 256   /* longest instruction issued at once */
#define NONE32 UINT32_MAX

/*
 * The records a warp has read but not yet issued, as its instructions:
 * each a run of consecutive records (an instruction's requests are
 * consecutive in the input) in a slot of 2^c records, the warp's slots
 * linked in order.  The instruction read last stays in a staging buffer
 * until a record of another instruction (or the kernel's end) closes it;
 * then it moves to a slot of its size, and is whole.  Slots come from
 * free lists by size class, so memory follows the records buffered, and
 * the instruction at a warp's head is one short run of memory, prefetched
 * when the warp joins the queue.
 */
#define NCLASS 9 /* slots of 1 to INST_MAX records */

struct islot {
	struct islot *next; /* the warp's next instruction, or the next free slot */
	uint16_t off;       /* records already issued (a split instruction) */
	uint16_t n;         /* records left */
	uint8_t cls;        /* the slot holds 2^cls records */
	gc_rec rec[];
};

enum wstate { W_PENDING, W_QUEUED, W_WAITING, W_DONE };

struct warp {
	uint32_t block;     /* index into the kernel's blocks */
	uint32_t next;      /* next warp of the block (by warp id), NONE32 */
	uint16_t id, sm;
	uint8_t state;      /* enum wstate */
	uint8_t stalled;    /* its current instruction waited for an MSHR */
	uint64_t blocked_ver; /* the SM's state version when it was cancelled */
	uint32_t outstanding; /* MSHR entries it allocated, still in flight */
	uint64_t last_read; /* input record number of its last record */
	struct islot *ihead, *itail; /* its closed instructions, in order */
	struct dryrec *dry; /* while its head instruction waits: what it needs */
};

/*
 * What one request of a cancelled instruction needs from the MSHRs (see
 * mshr_need), as of the SM's change count `at`.  A request's needs
 * depend only on the state of its own line (valid sectors, in-flight
 * entry), and every change of a line's state stamps the line's bucket
 * in the SM's change table (note_change); a retry works out again only
 * the requests whose bucket was stamped since.
 */
struct dryrec {
	uint64_t at;     /* UINT64_MAX: needs nothing, ever (not a cached load) */
	uint32_t bucket; /* its line's bucket in the change table */
	uint8_t cost, alloc, ok;
};
#define BATCH 64     /* --timing reads data records this many at a time */
#define DRY_SMALL 32 /* the two sizes of kept needs: 32 and INST_MAX requests */
#define VBITS 12     /* change table: 2^VBITS buckets per SM */

struct block {
	uint32_t id;
	uint16_t sm;
	uint8_t resident, done;
	uint32_t first;     /* first warp (lowest id) */
	uint32_t nwarps, ndone;
	uint32_t next_pending; /* the SM's next pending block, NONE32 */
};

struct mshr {
	uint64_t tag;
	uint64_t ret;       /* when the fill arrives */
	uint32_t warp;      /* the warp that allocated it */
	uint32_t block_id;  /* its block's and its own ids, for a write-back at the fill */
	uint16_t warp_id;
	uint32_t merged;    /* requests it serves */
	uint32_t cost;      /* entries it takes (sectors for sector MSHRs) */
	uint8_t mask;       /* sectors being fetched */
	uint32_t next_free;
};

enum evkind { EV_FILL, EV_WAKE };
#define EV_SLOTS 1024 /* the event wheel's window: longer than a miss, as a rule */

/* A FIFO of warps. */
struct ring {
	uint32_t *q;
	size_t head, n, cap;
};

/* One SM: its L1 and, with --timing, its warp queue and MSHRs. */
struct sm {
	uint16_t id;
	gc_cache c;
	gc_l1shadow sh;
	gc_hmap seen;       /* line -> sectors ever requested (compulsory misses) */
	struct counters n;

	/* --timing */
	uint64_t now;       /* the next issue slot */
	uint64_t order;     /* issue sequence number */
	uint64_t rng;
	struct ring q;      /* warps ready to issue */
	struct ring rq;     /* warps cancelled at the last step */
	uint64_t ver;       /* bumped by every change a cancelled warp waits for */
	size_t nblocked;    /* warps in q and rq whose blocked_ver is ver */
	int spinning;       /* every queued warp is blocked until the next event */
	uint64_t spin_from; /* the first step skipped while spinning */
	uint32_t hgen;      /* token of the SM's entry in the SM heap */
	gc_l1wheel ev;      /* miss returns and warps waking */
	struct mshr *m;
	uint32_t mfree;
	unsigned mused;     /* entries in use (sectors for sector MSHRs) */
	gc_hmap inflight;   /* tag -> MSHR entry */
	uint64_t chg;       /* changes of line state so far */
	uint64_t *vtab;     /* by line bucket: the change count of its last change */
	unsigned resident;  /* resident blocks */
	uint32_t pend_head, pend_tail; /* blocks waiting for a slot */
	int inheap;
};

/* Where a request goes: looked up in L1, nowhere (shared memory), to L2. */
enum { ROUTE_L1, ROUTE_SHARED, ROUTE_L2 };

struct run {
	struct cmdline *cl;
	gc_gpu_config gpu;
	gc_reader *r;
	gc_writer *w;
	gc_header oh;
	int classify;

	/* the L1 as configured and as the current kernel has it */
	gc_cache_geom geom;
	unsigned sets, ways;
	int write, walloc, skip_global, mshr_sector;
	unsigned hit_lat, lambda_min, mshr_entries, mshr_merge, mshr_per_warp;
	double sigma;
	unsigned line, sector, nsectors;
	unsigned in_line, in_sector; /* the stream's */
	uint8_t maskmap[256]; /* input mask -> L1 sectors */
	uint8_t outmap[256];  /* L1 sectors -> the output's sectors */
	uint8_t rawmap[256];  /* the stream's sectors -> the output's */
	unsigned out_sector;
	/* Where a request goes, by operation, space and flags: passes_by()
	 * as a table, for bypass() */
	uint8_t route[4][GC_NSPACES][16];
	uint8_t wpolicy[GC_NSPACES]; /* write_policy() by space, for store() */

	struct sm **sms;      /* by SM number, made on first use */
	uint16_t *smlist;     /* SM numbers in order of first use */
	unsigned nsms;

	struct counters total;
	gc_hmap pcs;          /* pc -> index into pcstat */
	struct pcstat *pcstat;
	size_t npcs, pccap;
	struct kstat *ks;
	size_t nks, kscap;
	struct counters kbase;
	uint64_t cycles;      /* --timing: the last time */

	/* --timing */
	struct warp *warps;
	size_t nwarps, wcap;
	uint32_t wfree;       /* free warp slots, linked by next */
	struct block *blocks;
	size_t nblocks, bcap;
	uint32_t bfree;       /* free block slots, linked by next_pending */
	gc_hmap warpmap, blockmap;
	gc_hset doneblocks;   /* blocks of the kernel that have ended */
	struct islot *ifree[NCLASS]; /* free slots by size class */
	char **slabs;         /* the memory of the slots */
	size_t nslabs;
	size_t slab_left;     /* bytes left in the last slab */
	gc_rec stage[INST_MAX]; /* the instruction read last, still open */
	unsigned stage_n;
	uint32_t stage_warp;  /* its warp, NONE32 */
	struct dryrec *dryfree[2]; /* free needs arrays: DRY_SMALL, INST_MAX */
	gc_rec batch[BATCH];  /* data records read, not yet taken */
	uint64_t bnum[BATCH]; /* their numbers in the stream */
	unsigned bpos, bn;
	uint64_t recno;       /* the number of the record taken last */
	unsigned active;      /* blocks per SM */
	uint64_t nread;       /* data records read in the kernel */
	uint32_t last_warp;   /* warp of the last record read */
	uint32_t last_seq;
	uint64_t last_key;    /* its (block, warp) key in warpmap */
	int kend;             /* the kernel's input has ended */
	gc_l1queue smheap;    /* SMs by their next time */
	uint64_t tbase;       /* the kernel's start time */
	uint64_t gnow;        /* the current global time */
	uint64_t buffered, peak_buffered;
	int cur;              /* the SM being stepped, -1: none */
	int step_all;         /* GC_L1_STEP_ALL: no skipping of blocked steps */
	int look_all;         /* GC_L1_LOOK_ALL: a retry works out every request again */
};

/* ---- command line --------------------------------------------------------- */

static void parse_cmdline(int argc, char **argv, struct cmdline *cl)
{
	struct option longopts[16 + 8 + NKEYOPTS] = {
		GC_COMMON_LONGOPTS,
		{"emit", required_argument, NULL, OPT_EMIT},
		{"timing", no_argument, NULL, OPT_TIMING},
		{"seed", required_argument, NULL, OPT_SEED},
		{"window", required_argument, NULL, OPT_WINDOW},
		{"kernel-boundary", required_argument, NULL, OPT_BOUNDARY},
		{"top", required_argument, NULL, OPT_TOP},
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
	cl->flush = -1; /* the preset's l1.kernel_flush */
	cl->top = 10;
	int c;
	while ((c = gc_getopt(argc, argv, GC_COMMON_SHORTOPTS, longopts)) != -1) {
		if (gc_common_option(&cl->c, c, optarg, help))
			continue;
		switch (c) {
		case OPT_EMIT:
			if (strcmp(optarg, "all") == 0)
				cl->emit_all = 1;
			else if (strcmp(optarg, "l2") == 0)
				cl->emit_all = 0;
			else
				gc_usage_error("--emit: '%s' is not l2 or all", optarg);
			break;
		case OPT_TIMING: cl->timing = 1; break;
		case OPT_SEED: cl->seed = gc_num("--seed", optarg, 0, UINT64_MAX); break;
		case OPT_WINDOW: cl->window = gc_num("--window", optarg, 1, UINT64_C(1) << 40); break;
		case OPT_TOP: cl->top = (int)gc_num("--top", optarg, 0, 100000); break;
		case OPT_BOUNDARY:
			if (strcmp(optarg, "flush") == 0)
				cl->flush = 1;
			else if (strcmp(optarg, "keep") == 0)
				cl->flush = 0;
			else
				gc_usage_error("--kernel-boundary: '%s' is not flush or keep", optarg);
			break;
		default:
			if (c >= OPT_KEY && c < OPT_KEY + NKEYOPTS) {
				cl->keyval[c - OPT_KEY] = optarg;
				break;
			}
			gc_usage_error("unexpected option");
		}
	}
	cl->input = gc_one_input(argc, argv);
}

/* ---- small helpers ---------------------------------------------------------- */

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p)
		gc_die(GC_EXIT_DATA, "out of memory");
	return p;
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n, size);
	if (!p)
		gc_die(GC_EXIT_DATA, "out of memory");
	return p;
}

static void oom(int rc)
{
	if (rc < 0)
		gc_die(GC_EXIT_DATA, "out of memory");
}

/* Set bits of a sector mask (a table: no popcount instruction assumed). */
static const uint8_t pop8[256] = {
#define P2(n) n, n + 1, n + 1, n + 2
#define P4(n) P2(n), P2(n + 1), P2(n + 1), P2(n + 2)
#define P6(n) P4(n), P4(n + 1), P4(n + 1), P4(n + 2)
	P6(0), P6(1), P6(1), P6(2)
#undef P2
#undef P4
#undef P6
};

static inline unsigned popcount8(uint8_t m)
{
	return pop8[m];
}

static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* A miss's latency: lambda_min + |N(0, sigma^2)| rounded to a cycle, the
 * normal drawn by Box-Muller from the SM's own generator (seed 000 §4.2). */
static uint64_t miss_latency(struct run *R, struct sm *s)
{
	if (R->sigma <= 0)
		return R->lambda_min;
	double u1 = ((double)(splitmix(&s->rng) >> 11) + 1.0) / 9007199254740993.0;
	double u2 = (double)(splitmix(&s->rng) >> 11) / 9007199254740992.0;
	double z = sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
	return R->lambda_min + (uint64_t)llround(fabs(z) * R->sigma);
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

/* map[m]: the sectors of `to` bytes covering the sectors m of `from`
 * bytes, in a line of `line` bytes. */
static void remap(uint8_t map[256], unsigned from, unsigned to, unsigned line)
{
	for (unsigned m = 0; m < 256; m++) {
		uint8_t out = 0;
		for (unsigned i = 0; i < 8 && i < line / from; i++) {
			if (!(m & (1u << i)))
				continue;
			unsigned first = i * from / to;
			unsigned last = ((i + 1) * from - 1) / to;
			for (unsigned j = first; j <= last && j < line / to && j < 8; j++)
				out |= (uint8_t)(1u << j);
		}
		map[m] = out;
	}
}

/* The write policy for a store in `space`. */
static int write_policy(struct run *R, int space)
{
	if (R->write == GC_WRITE_LOCAL_BACK)
		return space == GC_LOCAL ? GC_WRITE_BACK : GC_WRITE_THROUGH;
	if (R->write == GC_WRITE_READ_ONLY)
		return GC_WRITE_EVICT;
	return R->write;
}

static int passes_by(const struct run *R, const gc_rec *r);

/* Where requests go (bypass()): every operation, space and flags put
 * through passes_by() once. */
static void route_table(struct run *R)
{
	gc_rec r;
	memset(&r, 0, sizeof r);
	memset(R->route, ROUTE_L1, sizeof R->route);
	for (unsigned op = GC_LOAD; op <= GC_ATOMIC; op++)
		for (unsigned space = 0; space < GC_NSPACES; space++)
			for (unsigned flags = 0; flags < 16; flags++) {
				r.op = (uint8_t)op;
				r.space = (uint8_t)space;
				r.flags = (uint8_t)flags;
				R->route[op][space][flags] = space == GC_SHARED ? ROUTE_SHARED
					: passes_by(R, &r) ? ROUTE_L2 : ROUTE_L1;
			}
}

static void configure(struct run *R, const gc_header *in)
{
	struct cmdline *cl = R->cl;
	gc_gpu_for_stream(&R->gpu, cl->c.gpu, in);
	int geometry = 0;
	for (int i = 0; i < NKEYOPTS; i++) {
		if (!cl->keyval[i])
			continue;
		char opt[40];
		snprintf(opt, sizeof opt, "--%s", keyopts[i].name);
		gc_gpu_config_option(&R->gpu, opt, keyopts[i].key, cl->keyval[i]);
		geometry |= keyopts[i].geometry;
	}
	/* An explicit geometry is the L1 the user wants: the carve-out would
	 * otherwise tie it to sm.unified_size. */
	if (geometry && !cl->keyval[KEYOPT_CARVEOUT]) {
		gc_gpu_config_option(&R->gpu, "--carveout", "sm.carveout", "none");
		gc_gpu_config_option(&R->gpu, "--carveout", "sm.unified_size", "0");
		gc_gpu_config_option(&R->gpu, "--carveout", "sm.shmem_options", "none");
	}
	gc_gpu_config_finish(&R->gpu);
	if (cl->flush < 0)
		cl->flush = R->gpu.l1.kernel_flush;

	const gc_gpu_cache *l1 = &R->gpu.l1;
	R->geom.line = l1->line;
	R->geom.sector = l1->sector;
	R->geom.sets = l1->sets;
	R->geom.ways = l1->ways;
	R->geom.index = l1->index;
	R->geom.repl = l1->repl;
	R->geom.seed = cl->seed;
	char why[160];
	if (gc_cache_geom_check(&R->geom, why, sizeof why) < 0)
		gc_die(GC_EXIT_USAGE, "options: L1: %s", why);
	R->sets = l1->sets;
	R->ways = l1->ways;
	R->write = l1->write;
	R->walloc = l1->walloc;
	R->skip_global = l1->skip_global;
	R->mshr_sector = l1->mshr == GC_MSHR_SECTOR_ASSOC;
	R->hit_lat = l1->latency;
	R->lambda_min = R->gpu.miss.lambda_min;
	R->sigma = R->gpu.miss.sigma;
	R->mshr_entries = l1->mshr_entries;
	R->mshr_merge = l1->mshr_merge;
	R->mshr_per_warp = l1->mshr_per_warp;
	R->line = l1->line;
	R->sector = l1->sector;
	R->nsectors = l1->line / l1->sector;

	/* The stream's masks count its own sectors: map them onto the L1's. */
	unsigned in_line = header_size(in, "line_size", R->line);
	unsigned in_sector = header_size(in, "sector_size", in_line < 32 ? in_line : 32);
	if (in_line != R->line)
		gc_die(GC_EXIT_DATA, "%s: the stream's lines are %u bytes, the L1's %u "
		       "(give gc-coalesce and gc-l1 the same line size)",
		       gc_reader_name(R->r), in_line, R->line);
	if (in_sector > in_line)
		in_sector = in_line;
	R->in_line = in_line;
	R->in_sector = in_sector;
	remap(R->maskmap, in_sector, R->sector, in_line);
	/* What goes on to L2 counts L2's sectors when L2 has the L1's lines
	 * (the sectors gc-l2 takes), else the stream's. */
	unsigned out_sector = in_sector;
	if (R->gpu.l2.line == in_line && R->gpu.l2.sector <= in_line &&
	    in_line / R->gpu.l2.sector <= 8)
		out_sector = R->gpu.l2.sector;
	R->out_sector = out_sector;
	remap(R->outmap, R->sector, out_sector, in_line);
	remap(R->rawmap, in_sector, out_sector, in_line);
	route_table(R);
	for (int space = 0; space < GC_NSPACES; space++)
		R->wpolicy[space] = (uint8_t)write_policy(R, space);
}

static void set_header(struct run *R, const gc_header *in)
{
	char buf[32];
	if (gc_header_copy(&R->oh, in) < 0)
		gc_die(GC_EXIT_DATA, "out of memory");
	R->oh.kind = GC_KIND_REQUEST;
	if (R->cl->emit_all) {
		R->oh.optional |= GC_OPT_ANNOTATED;
	} else {
		R->oh.optional &= ~(uint32_t)GC_OPT_ANNOTATED;
	}
	snprintf(buf, sizeof buf, "%u", R->in_line);
	oom(gc_header_set(&R->oh, "line_size", buf));
	snprintf(buf, sizeof buf, "%u", R->cl->emit_all ? R->in_sector : R->out_sector);
	oom(gc_header_set(&R->oh, "sector_size", buf));
	if (R->cl->timing)
		R->oh.optional |= GC_OPT_SCHEDULED;
	gc_gpu_config_header(&R->gpu, R->cl->c.gpu, &R->oh);
	oom(gc_header_set(&R->oh, "l1.emit", R->cl->emit_all ? "all" : "l2"));
	oom(gc_header_set(&R->oh, "l1.model", R->cl->timing ? "timing" : "functional"));
	oom(gc_header_set(&R->oh, "l1.kernel_boundary", R->cl->flush ? "flush" : "keep"));
	if (R->cl->timing) {
		snprintf(buf, sizeof buf, "%llu", (unsigned long long)R->cl->seed);
		oom(gc_header_set(&R->oh, "l1.seed", buf));
	}
	oom(gc_header_add_provenance(&R->oh, gc_cmdline()));
}

/* ---- SMs ------------------------------------------------------------------------ */

static void sm_cache_init(struct run *R, struct sm *s)
{
	gc_cache_geom g = R->geom;
	g.sets = R->sets;
	g.ways = R->ways;
	g.seed = R->cl->seed ^ ((uint64_t)s->id << 32);
	char why[160];
	if (gc_cache_init(&s->c, &g, why, sizeof why) < 0)
		gc_die(GC_EXIT_DATA, "L1 of SM %u: %s", s->id, why);
	if (R->classify) {
		if (gc_l1shadow_init(&s->sh, (size_t)g.sets * g.ways) < 0)
			gc_die(GC_EXIT_DATA, "out of memory");
		oom(gc_hmap_init(&s->seen, 0));
	}
}

static struct sm *new_sm(struct run *R, uint16_t id)
{
	struct sm *s = R->sms[id] = xcalloc(1, sizeof *s);
	s->id = id;
	R->smlist[R->nsms++] = id;
	sm_cache_init(R, s);
	if (R->cl->timing) {
		s->rng = R->cl->seed * UINT64_C(0x2545f4914f6cdd1d) + id;
		oom(gc_l1wheel_init(&s->ev, EV_SLOTS));
		s->m = xcalloc(R->mshr_entries, sizeof *s->m);
		for (unsigned i = 0; i < R->mshr_entries; i++)
			s->m[i].next_free = i + 1 < R->mshr_entries ? i + 1 : NONE32;
		s->mfree = 0;
		oom(gc_hmap_init(&s->inflight, R->mshr_entries));
		s->vtab = xcalloc((size_t)1 << VBITS, sizeof *s->vtab);
		s->pend_head = s->pend_tail = NONE32;
		s->now = R->gnow;
	}
	return s;
}

static inline struct sm *get_sm(struct run *R, uint16_t id)
{
	struct sm *s = R->sms[id];
	return s ? s : new_sm(R, id);
}

/* ---- output -------------------------------------------------------------------- */

/* The writer refused a record: its message, then nothing more written. */
static _Noreturn void write_failed(struct run *R)
{
	char msg[640];
	snprintf(msg, sizeof msg, "%s", gc_writer_error(R->w));
	gc_writer_abandon(R->w);
	gc_die(GC_EXIT_DATA, "%s", msg);
}

static void put(struct run *R, const gc_rec *o)
{
	if (gc_write(R->w, o) < 0) {
		write_failed(R);
	}
}

/* A request to L2: counted always, written unless --emit all.  Masks
 * are the L1's sectors, written as the stream's; RAW_MASK passes the
 * source's own mask (a bypassed request goes on unchanged). */
#define RAW_MASK 0x100u
static inline void to_l2(struct run *R, struct sm *s, const gc_rec *src, int op, uint64_t addr,
			 unsigned mask, unsigned bytes, uint64_t time, int writeback)
{
	struct counters *n = &s->n;
	if (op == GC_LOAD) {
		n->l2_reads++;
		n->l2_read_bytes += bytes;
	} else if (op == GC_STORE) {
		n->l2_writes++;
		n->l2_write_bytes += bytes;
		n->writebacks += writeback != 0;
	} else {
		n->l2_atomics++;
		n->l2_atomic_bytes += bytes;
	}
	if (R->cl->emit_all)
		return;
	gc_rec o = *src;
	o.op = (uint8_t)op;
	o.addr = addr;
	o.mask = mask == RAW_MASK ? R->rawmap[src->mask] : R->outmap[mask];
	o.size = (uint16_t)(bytes > 65535 ? 65535 : bytes);
	o.time = time;
	o.outcome = 0;
	put(R, &o);
}

static unsigned sector_bytes(struct run *R, uint8_t mask)
{
	return popcount8(mask) * R->sector;
}

/* Dirty sectors of line l go to L2. */
static void write_back(struct run *R, struct sm *s, const gc_rec *src, gc_cline *l, uint64_t time)
{
	if (l->tag == GC_CACHE_NO_TAG || !l->dirty)
		return;
	to_l2(R, s, src, GC_STORE, gc_cache_line_addr(&s->c, l), l->dirty,
	      sector_bytes(R, l->dirty), time, 1);
	l->dirty = 0;
}

/* ---- classification ---------------------------------------------------------- */

/* The class of a miss of sectors `want` of line `tag`, of which `missing`
 * were not valid; the shadow is probed before it mirrors the change. */
static int classify(struct sm *s, uint64_t tag, uint8_t want, uint8_t missing)
{
	int added;
	uint64_t *seen = gc_hmap_put(&s->seen, tag, &added);
	if (!seen)
		gc_die(GC_EXIT_DATA, "out of memory");
	int first = (missing & ~(uint8_t)*seen) != 0;
	*seen |= want;
	if (first)
		return GC_C_COMPULSORY;
	return gc_l1shadow_probe(&s->sh, tag, want) ? GC_C_CONFLICT : GC_C_CAPACITY;
}

static void count_miss(struct run *R, struct sm *s, int result, int cls)
{
	s->n.misses++;
	s->n.sector_misses += result == GC_R_SECTOR_MISS;
	s->n.cls[cls]++;
}

/* ---- the cache operations (both models) -------------------------------------- */

/* The change-table bucket of line `tag`. */
static inline uint32_t vbucket(uint64_t tag)
{
	return (uint32_t)((tag * UINT64_C(0x9e3779b97f4a7c15)) >> (64 - VBITS));
}

/* --timing: the state of line `tag` changed (its sectors, its presence or
 * its in-flight miss): what waiting instructions need of it is stale. */
static inline void note_change(struct sm *s, uint64_t tag)
{
	if (s->vtab)
		s->vtab[vbucket(tag)] = ++s->chg;
}

/* The way line `addr` gets: the victim's dirty sectors written back. */
static inline gc_cline *allocate(struct run *R, struct sm *s, const gc_rec *src, uint64_t addr,
				 unsigned set, gc_cline *hint, uint64_t time, uint8_t *outcome)
{
	gc_cline *v = gc_cache_victim_hint(&s->c, set, hint);
	if (v->tag != GC_CACHE_NO_TAG) {
		note_change(s, v->tag);
		if (v->dirty) {
			write_back(R, s, src, v, time);
			*outcome |= GC_OUT_WRITEBACK;
		}
	}
	gc_cache_fill(&s->c, v, addr);
	return v;
}

/*
 * A store of `bytes` bytes to sectors m of line addr.  A sector is written
 * in full when the store covers every byte of its sectors (bytes >=
 * sectors x sector size); otherwise every written sector counts as partly
 * written, since a request does not say which bytes it carries.
 *
 *   write-evict (and read-only): a present line is written back if dirty
 *     and invalidated; the store goes to L2.
 *   write-through: the store goes to L2; present sectors are updated.
 *   write-back: written sectors that are valid (or become valid) turn
 *     dirty; the rest of the store goes to L2.
 *   Allocation of written sectors not valid in L1: none (no-write-
 *   allocate); fully written sectors become valid and partly written ones
 *   are fetched from L2 first (fetch-on-write); fully written sectors
 *   become valid and partly written ones stay invalid, their bytes going
 *   to L2 (write-allocate, lazy-fetch-on-read: L1 keeps no byte masks).
 */
static uint8_t store(struct run *R, struct sm *s, const gc_rec *r, uint8_t m, uint64_t time)
{
	uint64_t addr = r->addr & ~(uint64_t)(R->line - 1);
	uint64_t tag = gc_cache_tag(&s->c, addr);
	unsigned set = gc_cache_set(&s->c, addr);
	gc_cline *hint = NULL;
	gc_cline *l = gc_cache_probe(&s->c, addr, set, &hint);
	uint8_t present = l ? l->valid & m : 0;
	uint8_t missing = m & ~present;
	int result = !missing ? GC_R_HIT : l ? GC_R_SECTOR_MISS : GC_R_MISS;
	int cls = GC_C_NONE;
	uint8_t outcome = 0;
	int policy = R->wpolicy[r->space];

	if (missing) {
		cls = R->classify ? classify(s, tag, m, missing) : GC_C_NONE;
		count_miss(R, s, result, cls);
	} else {
		s->n.hits++;
	}

	if (policy == GC_WRITE_EVICT) {
		if (l) {
			if (l->dirty)
				outcome |= GC_OUT_WRITEBACK;
			write_back(R, s, r, l, time);
			gc_cache_invalidate(&s->c, l);
			note_change(s, tag);
			if (R->classify)
				gc_l1shadow_drop(&s->sh, tag);
		}
		to_l2(R, s, r, GC_STORE, addr, m, r->size, time, 0);
		return (uint8_t)(GC_OUT_MAKE(result, cls) | outcome);
	}

	int alloc = R->walloc != GC_WALLOC_NONE && missing;
	int filled = 0;
	if (!l && alloc) {
		l = allocate(R, s, r, addr, set, hint, time, &outcome);
		filled = 1;
	}
	uint8_t validated = 0;
	if (l) {
		if (alloc) {
			int partial = r->size < sector_bytes(R, m);
			if (!partial) {
				validated = missing;
			} else if (R->walloc == GC_WALLOC_FETCH_ON_WRITE) {
				to_l2(R, s, r, GC_LOAD, addr, missing, sector_bytes(R, missing), time, 0);
				validated = missing;
			}
		}
		l->valid |= validated;
		if (filled || validated)
			note_change(s, tag);
		gc_cache_touch(&s->c, l);
		if (R->classify)
			oom(gc_l1shadow_use(&s->sh, tag, validated, filled));
	}
	if (policy == GC_WRITE_BACK) {
		uint8_t kept = l ? m & l->valid : 0;
		if (l)
			l->dirty |= kept;
		uint8_t fwd = m & ~kept;
		if (fwd) {
			unsigned b = fwd == m ? r->size : sector_bytes(R, fwd);
			if (b > r->size)
				b = r->size;
			to_l2(R, s, r, GC_STORE, addr, fwd, b, time, 0);
		}
	} else {
		to_l2(R, s, r, GC_STORE, addr, m, r->size, time, 0);
	}
	return (uint8_t)(GC_OUT_MAKE(result, cls) | outcome);
}

/* A load, functional: a miss fetches its missing sectors and fills now. */
static uint8_t load_now(struct run *R, struct sm *s, const gc_rec *r, uint8_t m, uint64_t time)
{
	uint64_t addr = r->addr & ~(uint64_t)(R->line - 1);
	unsigned set = gc_cache_set(&s->c, addr);
	gc_cline *hint = NULL;
	gc_cline *l = gc_cache_probe(&s->c, addr, set, &hint);
	if (l && (l->valid & m) == m) {
		s->n.hits++;
		gc_cache_touch(&s->c, l);
		if (R->classify)
			oom(gc_l1shadow_use(&s->sh, l->tag, 0, 0));
		return GC_OUT_MAKE(GC_R_HIT, GC_C_NONE);
	}
	uint64_t tag = gc_cache_tag(&s->c, addr);
	uint8_t missing = l ? m & ~l->valid : m;
	int result = l ? GC_R_SECTOR_MISS : GC_R_MISS;
	int cls = R->classify ? classify(s, tag, m, missing) : GC_C_NONE;
	count_miss(R, s, result, cls);
	uint8_t outcome = 0;
	int filled = 0;
	if (!l) {
		l = allocate(R, s, r, addr, set, hint, time, &outcome);
		filled = 1;
	}
	to_l2(R, s, r, GC_LOAD, addr, missing, sector_bytes(R, missing), time, 0);
	l->valid |= missing;
	gc_cache_touch(&s->c, l);
	if (R->classify)
		oom(gc_l1shadow_use(&s->sh, tag, missing, filled));
	return (uint8_t)(GC_OUT_MAKE(result, cls) | outcome);
}

/* Requests L1 does not look up: atomics, cache-global and skipped loads,
 * constant and texture requests go on to L2; shared memory goes nowhere.
 * Returns 1 when r is one of them (its outcome in *outcome). */
static inline int bypass(struct run *R, struct sm *s, const gc_rec *r, uint8_t m, uint64_t time,
			 uint8_t *outcome)
{
	unsigned route = R->route[r->op & 3][r->space][r->flags & 15];
	if (route == ROUTE_L1)
		return 0;
	if (route == ROUTE_SHARED) {
		s->n.shared++;
		*outcome = 0;
		return 1;
	}
	s->n.bypassed++;
	to_l2(R, s, r, r->op, r->addr, RAW_MASK, r->size, time, 0);
	*outcome = GC_OUT_BYPASS;
	return 1;
}

static void count_request(struct run *R, struct sm *s, const gc_rec *r)
{
	s->n.requests++;
	s->n.loads += r->op == GC_LOAD;
	s->n.stores += r->op == GC_STORE;
	s->n.atomics += r->op == GC_ATOMIC;
}

/* Per-PC counts (only when something reports them). */
static void count_pc(struct run *R, uint32_t pc, int miss)
{
	int added;
	uint64_t *v = gc_hmap_put(&R->pcs, pc, &added);
	if (!v)
		gc_die(GC_EXIT_DATA, "out of memory");
	if (added) {
		if (R->npcs == R->pccap) {
			R->pccap = R->pccap ? 2 * R->pccap : 256;
			R->pcstat = xrealloc(R->pcstat, R->pccap * sizeof *R->pcstat);
		}
		*v = R->npcs;
		R->pcstat[R->npcs++] = (struct pcstat){pc, 0, 0};
	}
	R->pcstat[*v].requests++;
	R->pcstat[*v].misses += miss != 0;
}

static int is_miss(uint8_t outcome)
{
	unsigned res = GC_OUT_RESULT(outcome);
	return res == GC_R_MISS || res == GC_R_SECTOR_MISS;
}

/* ---- kernels ---------------------------------------------------------------- */

/* Invalidate every L1 (writing dirty sectors back) at time `time`. */
static void flush_all(struct run *R, uint64_t time)
{
	for (unsigned i = 0; i < R->nsms; i++) {
		struct sm *s = R->sms[R->smlist[i]];
		size_t n = gc_cache_nlines(&s->c);
		for (size_t j = 0; j < n; j++) {
			gc_cline *l = &s->c.lines[j];
			if (l->tag != GC_CACHE_NO_TAG && l->dirty) {
				gc_rec src;
				memset(&src, 0, sizeof src);
				src.sm = s->id;
				src.kernel = R->ks ? R->ks[R->nks - 1].id : 0;
				write_back(R, s, &src, l, time);
			}
		}
		gc_cache_clear(&s->c);
		if (R->classify) {
			gc_l1shadow_clear(&s->sh);
			gc_hmap_clear(&s->seen);
		}
	}
}

static void sum_counters(struct run *R, struct counters *out)
{
	memset(out, 0, sizeof *out);
	for (unsigned i = 0; i < R->nsms; i++)
		counters_add(out, &R->sms[R->smlist[i]]->n);
}

/* A kernel begins: the carve-out sets its L1 size (seed 003 formula 7). */
static void kernel_begin(struct run *R, const gc_kernel *k)
{
	if (R->nks == R->kscap) {
		R->kscap = R->kscap ? 2 * R->kscap : 16;
		R->ks = xrealloc(R->ks, R->kscap * sizeof *R->ks);
	}
	struct kstat *ks = &R->ks[R->nks++];
	memset(ks, 0, sizeof *ks);
	ks->id = k ? k->id : 0;
	if (k) {
		size_t len = strlen(k->name);
		if (len >= sizeof ks->name)
			len = sizeof ks->name - 1;
		memcpy(ks->name, k->name, len);
		ks->name[len] = 0;
	}
	sum_counters(R, &R->kbase);

	unsigned sets = R->geom.sets, ways = R->geom.ways, active = 0;
	uint64_t shmem = R->gpu.sm.shmem;
	uint64_t threads = k ? gc_kernel_threads_per_block(k) : 0;
	if (k && threads && threads <= UINT32_MAX) {
		gc_carveout co;
		if (gc_gpu_carveout(&R->gpu, (unsigned)threads, k->regs, k->shmem, &co) == 0) {
			if (co.l1_sets && co.l1_ways) {
				sets = co.l1_sets;
				ways = co.l1_ways;
			}
			shmem = co.shmem;
			active = co.active;
		}
	}
	if (!active)
		active = 1;
	R->active = active;
	ks->sets = sets;
	ks->ways = ways;
	ks->l1_size = (uint64_t)sets * ways * R->line;
	ks->shmem = shmem;
	ks->active = active;
	if (sets != R->sets || ways != R->ways) {
		/* A new carve-out: the L1s are remade (their dirty data first
		 * written back). */
		flush_all(R, R->gnow);
		R->sets = sets;
		R->ways = ways;
		for (unsigned i = 0; i < R->nsms; i++) {
			struct sm *s = R->sms[R->smlist[i]];
			gc_cache_free(&s->c);
			if (R->classify) {
				gc_l1shadow_free(&s->sh);
				gc_hmap_free(&s->seen);
			}
			sm_cache_init(R, s);
		}
	}
}

static void kernel_end(struct run *R, uint64_t time)
{
	if (R->cl->flush)
		flush_all(R, time);
	if (!R->nks)
		return;
	struct counters now;
	sum_counters(R, &now);
	counters_sub(&now, &R->kbase);
	R->ks[R->nks - 1].n = now;
}

/* ---- the functional model ---------------------------------------------------- */

static void access_now(struct run *R, gc_rec *r)
{
	struct sm *s = get_sm(R, r->sm);
	uint8_t m = R->maskmap[r->mask];
	uint8_t outcome;
	count_request(R, s, r);
	if (!bypass(R, s, r, m, r->time, &outcome))
		outcome = r->op == GC_LOAD ? load_now(R, s, r, m, r->time)
					   : store(R, s, r, m, r->time);
	if (R->classify)
		count_pc(R, r->pc, is_miss(outcome));
	if (R->cl->emit_all) {
		r->outcome = outcome;
		put(R, r);
	}
}

static void write_kbegin(struct run *R, const gc_kernel *k)
{
	if (gc_write_kbegin(R->w, k) < 0) {
		write_failed(R);
	}
}

static void write_kend(struct run *R, uint32_t id)
{
	if (gc_write_kend(R->w, id) < 0) {
		write_failed(R);
	}
}

static _Noreturn void input_error(struct run *R)
{
	gc_writer_abandon(R->w);
	gc_progress_end(R->cl->c.progress);
	gc_die(GC_EXIT_DATA, "%s", gc_reader_error(R->r));
}

/*
 * Data records are read in batches of AHEAD (gc_read_data), one batch
 * ahead of the one being modelled, and the state a request will touch is
 * brought towards the core while the batch before it is modelled: its
 * SM's set (the L1s of 80 SMs do not fit a core's first level cache) and,
 * with classification, the home slots of its line in the SM's hash maps
 * (the compulsory-miss map outgrows every cache).  A prefetch is only a
 * hint: when a kernel begin remakes the L1s or a map grows first, it
 * fetches something unused, and the model is the same.  A batch ends
 * short before any other record (a kernel record, the end, an error):
 * the batches before it are modelled, then gc_read takes it.
 */
#define AHEAD 16

struct batch {
	gc_rec rec[AHEAD];
	size_t n;
};

static void prefetch(struct run *R, const gc_rec *r)
{
	const struct sm *s = R->sms[r->sm];
	if (!s)
		return;
	const gc_cache *c = &s->c;
	uint64_t addr = r->addr & ~(uint64_t)(R->line - 1);
	gc_cache_prefetch(c, addr, gc_cache_set(c, addr));
	if (R->classify) {
		uint64_t tag = gc_cache_tag(c, addr);
		gc_hmap_prefetch(&s->seen, tag);
		gc_hmap_prefetch(&s->sh.map, tag);
	}
}

/* Model batch b, prefetching for batch `ahead` as it goes (one request's
 * state for each request modelled: a burst of prefetches would queue);
 * *last becomes b's last request's time. */
static void model_batch(struct run *R, struct batch *b, const struct batch *ahead,
			uint64_t *last)
{
	size_t n = b->n > ahead->n ? b->n : ahead->n;
	for (size_t i = 0; i < n; i++) {
		if (i < ahead->n)
			prefetch(R, &ahead->rec[i]);
		if (i < b->n)
			access_now(R, &b->rec[i]);
	}
	if (b->n)
		*last = b->rec[b->n - 1].time;
	b->n = 0;
}

static void run_functional(struct run *R)
{
	struct batch b[2];
	struct batch *cur = &b[0], *next = &b[1];
	int open = 0;
	uint64_t last = 0;
	gc_rec rec;
	cur->n = 0;
	for (;;) {
		/* Read a batch ahead, model the one before it. */
		next->n = gc_read_data(R->r, next->rec, NULL, AHEAD);
		model_batch(R, cur, next, &last);
		struct batch *t = cur;
		cur = next;
		next = t;
		if (R->cl->c.progress)
			gc_progress(1, gc_reader_bytes(R->r), 0);
		if (cur->n == AHEAD)
			continue;
		/* A short batch: another record follows it. */
		next->n = 0;
		model_batch(R, cur, next, &last);
		int ev = gc_read(R->r, &rec);
		if (ev == GC_DATA) {
			last = rec.time;
			access_now(R, &rec);
		} else if (ev == GC_KBEGIN) {
			/* begin first: a carve-out change writes back into it */
			write_kbegin(R, gc_reader_kernel(R->r));
			kernel_begin(R, gc_reader_kernel(R->r));
			open = 1;
		} else if (ev == GC_KEND) {
			kernel_end(R, last);
			write_kend(R, rec.kernel);
			open = 0;
		} else if (ev == GC_EOF) {
			if (open)
				kernel_end(R, last);
			break;
		} else {
			input_error(R);
		}
	}
}

/* ---- the timing model: buffered input ---------------------------------------- */

/* The slots' memory: slabs of 2 MiB, carved in order, never returned
 * before the end (free slots are reused by size class). */
#define SLAB (1u << 21)

/* A slot of 2^c records. */
static struct islot *slot_get(struct run *R, unsigned c)
{
	struct islot *p = R->ifree[c];
	if (p) {
		R->ifree[c] = p->next;
		return p;
	}
	size_t bytes = sizeof *p + ((size_t)1 << c) * sizeof(gc_rec);
	if (R->slab_left < bytes) {
		R->slabs = xrealloc(R->slabs, (R->nslabs + 1) * sizeof *R->slabs);
		R->slabs[R->nslabs++] = xrealloc(NULL, SLAB);
		R->slab_left = SLAB;
	}
	p = (struct islot *)(R->slabs[R->nslabs - 1] + (SLAB - R->slab_left));
	R->slab_left -= bytes;
	return p;
}

static void slot_put(struct run *R, struct islot *p)
{
	p->next = R->ifree[p->cls];
	R->ifree[p->cls] = p;
}

/* The open instruction closes: to a slot, at the end of its warp's list. */
static void inst_close(struct run *R)
{
	unsigned n = R->stage_n;
	if (!n)
		return;
	unsigned c = 0;
	while ((1u << c) < n)
		c++;
	struct islot *p = slot_get(R, c);
	p->next = NULL;
	p->off = 0;
	p->n = (uint16_t)n;
	p->cls = (uint8_t)c;
	memcpy(p->rec, R->stage, n * sizeof *R->stage);
	struct warp *w = &R->warps[R->stage_warp];
	if (w->itail)
		w->itail->next = p;
	else
		w->ihead = p;
	w->itail = p;
	R->stage_n = 0;
	R->stage_warp = NONE32;
}

/* Record r joins warp widx: as the first of a new instruction (closing
 * the open one), or the next of the open one. */
static void warp_append(struct run *R, uint32_t widx, const gc_rec *r, int start)
{
	if (start)
		inst_close(R);
	R->stage[R->stage_n++] = *r;
	R->stage_warp = widx;
	if (++R->buffered > R->peak_buffered)
		R->peak_buffered = R->buffered;
}

/* The first k records of warp widx's head instruction have issued; the
 * rest of a split instruction stays at the head. */
static void warp_pop(struct run *R, uint32_t widx, unsigned k)
{
	struct warp *w = &R->warps[widx];
	struct islot *in = w->ihead;
	R->buffered -= k;
	in->off = (uint16_t)(in->off + k);
	in->n = (uint16_t)(in->n - k);
	if (in->n)
		return;
	w->ihead = in->next;
	if (!w->ihead)
		w->itail = NULL;
	slot_put(R, in);
}

/* The records of w's next instruction: how many are buffered (up to
 * INST_MAX), and whether the instruction is complete: a closed one is;
 * the open one may still grow. */
static unsigned warp_inst(struct run *R, uint32_t widx, int *complete)
{
	const struct islot *in = R->warps[widx].ihead;
	if (in) {
		*complete = 1;
		return in->n;
	}
	*complete = 0;
	return R->stage_warp == widx ? R->stage_n : 0;
}

static void sm_schedule(struct run *R, struct sm *s);
static void sm_reschedule(struct run *R, struct sm *s);
static void sm_arrive(struct run *R, struct sm *s);

static void ring_push(struct ring *r, uint32_t x)
{
	if (r->n == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 64;
		uint32_t *q = xrealloc(NULL, cap * sizeof *q);
		for (size_t i = 0; i < r->n; i++)
			q[i] = r->q[(r->head + i) % r->cap];
		free(r->q);
		r->q = q;
		r->head = 0;
		r->cap = cap;
	}
	r->q[(r->head + r->n++) % r->cap] = x;
}

static uint32_t ring_pop(struct ring *r)
{
	uint32_t x = r->q[r->head];
	r->head = (r->head + 1) % r->cap;
	r->n--;
	return x;
}

static uint32_t ring_pop_back(struct ring *r)
{
	r->n--;
	return r->q[(r->head + r->n) % r->cap];
}

/* A warp joins the queue: the records of its next instruction, cold since
 * they were read ahead, are fetched into the CPU cache while the warps
 * before it issue. */
static void queue_warp(struct run *R, struct sm *s, uint32_t widx)
{
	const char *in = (const char *)R->warps[widx].ihead;
	if (in) {
		/* the slot's first lines, without waiting to read its length */
		__builtin_prefetch(in);
		__builtin_prefetch(in + 64);
		__builtin_prefetch(in + 128);
		__builtin_prefetch(in + 192);
	}
	if (R->warps[widx].blocked_ver == s->ver)
		s->nblocked++;
	ring_push(&s->q, widx);
}


/* Block b gets a slot on its SM: its warps join the queue in warp order. */
static void block_start(struct run *R, struct sm *s, uint32_t bidx)
{
	struct block *b = &R->blocks[bidx];
	b->resident = 1;
	s->resident++;
	sm_arrive(R, s);
	for (uint32_t w = b->first; w != NONE32; w = R->warps[w].next) {
		R->warps[w].state = W_QUEUED;
		queue_warp(R, s, w);
	}
	sm_reschedule(R, s);
}

static uint32_t new_warp(struct run *R, uint32_t bidx, uint16_t id)
{
	uint32_t widx;
	if (R->wfree != NONE32) {
		widx = R->wfree;
		R->wfree = R->warps[widx].next;
	} else {
		if (R->nwarps == R->wcap) {
			R->wcap = R->wcap ? 2 * R->wcap : 256;
			R->warps = xrealloc(R->warps, R->wcap * sizeof *R->warps);
		}
		widx = (uint32_t)R->nwarps++;
	}
	struct warp *w = &R->warps[widx];
	memset(w, 0, sizeof *w);
	w->block = bidx;
	w->id = id;
	w->sm = R->blocks[bidx].sm;
	w->next = NONE32;
	w->state = W_PENDING;
	/* into the block's list, by warp id */
	struct block *b = &R->blocks[bidx];
	uint32_t *p = &b->first;
	while (*p != NONE32 && R->warps[*p].id < id)
		p = &R->warps[*p].next;
	w->next = *p;
	*p = widx;
	b->nwarps++;
	return widx;
}

static _Noreturn void late_record(struct run *R, const gc_rec *r)
{
	gc_writer_abandon(R->w);
	gc_die(GC_EXIT_DATA, "%s: record %llu: block %u warp %u has a request after the timing "
	       "model ended it (no request of it in %llu records); raise --window",
	       gc_reader_name(R->r), (unsigned long long)R->recno, r->block, r->warp,
	       (unsigned long long)R->cl->window);
}

/* The warp of record r, made (with its block) on first sight. */
static uint32_t warp_of(struct run *R, const gc_rec *r)
{
	uint64_t wkey = ((uint64_t)r->block << 16) | r->warp;
	if (R->last_warp != NONE32 && R->last_key == wkey) {
		/* the common case: the record before was of the same warp */
		if (R->warps[R->last_warp].state == W_DONE)
			late_record(R, r);
		return R->last_warp;
	}
	uint64_t *v = gc_hmap_get(&R->warpmap, wkey);
	if (v) {
		if (R->warps[*v].state == W_DONE)
			late_record(R, r);
		return (uint32_t)*v;
	}
	int added;
	uint64_t *bv = gc_hmap_put(&R->blockmap, r->block, &added);
	if (!bv)
		gc_die(GC_EXIT_DATA, "out of memory");
	uint32_t bidx;
	if (added) {
		if (gc_hset_has(&R->doneblocks, r->block))
			late_record(R, r);
		if (R->bfree != NONE32) {
			bidx = R->bfree;
			R->bfree = R->blocks[bidx].next_pending;
		} else {
			if (R->nblocks == R->bcap) {
				R->bcap = R->bcap ? 2 * R->bcap : 64;
				R->blocks = xrealloc(R->blocks, R->bcap * sizeof *R->blocks);
			}
			bidx = (uint32_t)R->nblocks++;
		}
		*bv = bidx;
		R->blocks[bidx] = (struct block){r->block, r->sm, 0, 0, NONE32, 0, 0, NONE32};
	} else {
		bidx = (uint32_t)*bv;
		if (R->blocks[bidx].done)
			late_record(R, r);
	}
	uint32_t widx = new_warp(R, bidx, r->warp);
	uint64_t *wv = gc_hmap_put(&R->warpmap, wkey, NULL);
	oom(wv ? 0 : -1);
	*wv = widx;
	struct block *b = &R->blocks[bidx];
	struct sm *s = get_sm(R, b->sm);
	if (added) {
		if (s->resident < R->active) {
			block_start(R, s, bidx);
		} else {
			if (s->pend_tail == NONE32)
				s->pend_head = bidx;
			else
				R->blocks[s->pend_tail].next_pending = bidx;
			s->pend_tail = bidx;
		}
	} else if (b->resident) {
		/* a warp of a running block seen for the first time */
		sm_arrive(R, s);
		R->warps[widx].state = W_QUEUED;
		queue_warp(R, s, widx);
		sm_reschedule(R, s);
	}
	return widx;
}

/* Read one input event into the buffers.  At the end of the kernel's
 * input (its end record, or for a stream without kernels the next begin
 * or the end of the stream) R->kend is set. */
/* One data record into its warp's buffer. */
static void take(struct run *R, const gc_rec *rec)
{
	R->nread++;
	uint32_t widx = warp_of(R, rec);
	/* Requests of one instruction come together: a record of another
	 * warp or instruction closes the open one. */
	int start = !(R->last_warp == widx && R->last_seq == rec->seq) || R->stage_n == INST_MAX;
	warp_append(R, widx, rec, start);
	R->warps[widx].last_read = R->nread;
	R->last_warp = widx;
	R->last_key = ((uint64_t)rec->block << 16) | rec->warp;
	R->last_seq = rec->seq;
}

static void read_one(struct run *R)
{
	if (R->bpos < R->bn) {
		/* data records come in batches (gc_read_data), which stop
		 * before anything else: that is gc_read's */
		R->recno = R->bnum[R->bpos];
		take(R, &R->batch[R->bpos++]);
		if (R->cl->c.progress)
			gc_progress(1, gc_reader_bytes(R->r), 0);
		return;
	}
	R->bpos = 0;
	R->bn = (unsigned)gc_read_data(R->r, R->batch, R->bnum, BATCH);
	if (R->bn) {
		read_one(R);
		return;
	}
	gc_rec rec;
	int ev = gc_read(R->r, &rec);
	if (ev == GC_DATA) {
		R->recno = gc_reader_records(R->r);
		take(R, &rec);
		if (R->cl->c.progress)
			gc_progress(1, gc_reader_bytes(R->r), 0);
	} else if (ev == GC_KEND) {
		inst_close(R);
		R->kend = 1;
	} else if (ev == GC_ERR) {
		input_error(R);
	} else {
		/* the reader checks the nesting; this is a safeguard */
		gc_writer_abandon(R->w);
		gc_die(GC_EXIT_DATA, "%s: record %llu: a kernel without its end record",
		       gc_reader_name(R->r), (unsigned long long)gc_reader_records(R->r));
	}
}

/* ---- the timing model: one SM ------------------------------------------------- */

static uint64_t sm_next_time(const struct sm *s)
{
	const gc_l1event *e = gc_l1wheel_top(&s->ev);
	if (s->spinning)
		return e->time;
	if (s->q.n || s->rq.n)
		return s->now;
	return e ? (e->time > s->now ? e->time : s->now) : UINT64_MAX;
}

/* Put s into the global SM heap when it has something to do.  Each entry
 * carries a token; an entry whose token is not the SM's latest is stale. */
static void sm_schedule(struct run *R, struct sm *s)
{
	if (s->inheap || R->cur == s->id)
		return;
	if (!s->spinning && s->now < R->gnow)
		s->now = R->gnow;
	uint64_t t = sm_next_time(s);
	if (t == UINT64_MAX)
		return;
	s->inheap = 1;
	oom(gc_l1queue_push(&R->smheap, t, s->id, s->id, ++s->hgen));
}

/* s's next time may have moved earlier: a fresh entry. */
static void sm_reschedule(struct run *R, struct sm *s)
{
	s->inheap = 0;
	sm_schedule(R, s);
}

/*
 * The steps a spinning SM skipped, up to and including `upto`: in each,
 * the warps cancelled at the step before join the back of the queue and
 * the front warp is cancelled again (nothing it waits for has changed).
 * That rotates the queue (with the last cancelled warp) one place a step.
 */
static void sm_unspin(struct sm *s, uint64_t upto)
{
	if (upto + 1 > s->spin_from) {
		uint64_t k = upto + 1 - s->spin_from;
		while (s->rq.n)
			ring_push(&s->q, ring_pop(&s->rq));
		for (uint64_t i = k % s->q.n; i > 0; i--)
			ring_push(&s->q, ring_pop(&s->q));
		ring_push(&s->rq, ring_pop_back(&s->q));
		s->n.stalls += k;
		s->order += k;
		s->now = upto + 1;
	}
	s->spinning = 0;
}

/* Warps arrive at s while another SM (R->cur) steps at R->gnow: a
 * spinning s catches up with the steps it took before that moment (at
 * gnow itself too when its number is lower: the heap steps it first). */
static void sm_arrive(struct run *R, struct sm *s)
{
	if (!s->spinning)
		return;
	uint64_t upto = R->cur >= 0 && s->id < R->cur ? R->gnow : R->gnow - 1;
	sm_unspin(s, upto);
}

/* Every warp queued or just cancelled waits for a change (an MSHR freed,
 * a line filled). */
static int sm_all_blocked(const struct sm *s)
{
	return s->nblocked == s->q.n + s->rq.n;
}

static void warp_wait(struct sm *s, struct warp *w, uint32_t widx, uint64_t ready)
{
	w->state = W_WAITING;
	oom(gc_l1wheel_push(&s->ev, ready, ++s->order, widx, EV_WAKE));
}

/* A miss returns: the line is filled (a victim written back), the entry
 * freed. */
static void fill(struct run *R, struct sm *s, uint32_t e, uint64_t time)
{
	struct mshr *m = &s->m[e];
	uint64_t addr = m->tag << s->c.line_shift;
	unsigned set = gc_cache_set(&s->c, addr);
	gc_cline *hint = NULL;
	gc_cline *l = gc_cache_probe(&s->c, addr, set, &hint);
	int filled = 0;
	if (!l) {
		gc_rec src;
		memset(&src, 0, sizeof src);
		src.sm = s->id;
		src.kernel = R->nks ? R->ks[R->nks - 1].id : 0;
		src.warp = m->warp_id;
		src.block = m->block_id;
		src.space = GC_GLOBAL;
		uint8_t o = 0;
		l = allocate(R, s, &src, addr, set, hint, time, &o);
		filled = 1;
	}
	l->valid |= m->mask;
	gc_cache_touch(&s->c, l);
	if (R->classify)
		oom(gc_l1shadow_use(&s->sh, m->tag, m->mask, filled));
	note_change(s, m->tag);
	s->ver++;
	s->nblocked = 0;
	s->mused -= m->cost;
	if (R->mshr_per_warp) /* only the per-warp limit reads it (a cold warp) */
		R->warps[m->warp].outstanding--;
	gc_hmap_del(&s->inflight, m->tag);
	m->next_free = s->mfree;
	s->mfree = e;
}

static void warp_done(struct run *R, struct sm *s, uint32_t widx);

static void apply_events(struct run *R, struct sm *s, uint64_t t)
{
	const gc_l1event *e;
	while ((e = gc_l1wheel_top(&s->ev)) && e->time <= t) {
		gc_l1event ev = *e;
		gc_l1wheel_pop(&s->ev);
		if (ev.kind == EV_FILL) {
			fill(R, s, ev.item, ev.time);
		} else {
			R->warps[ev.item].state = W_QUEUED;
			queue_warp(R, s, ev.item);
		}
	}
}

/* Whether r is a request L1 does not look up (see bypass()). */
static int passes_by(const struct run *R, const gc_rec *r)
{
	return r->space == GC_SHARED || r->op == GC_ATOMIC || (r->flags & GC_F_BYPASS_L1) ||
	       r->space == GC_CONST || r->space == GC_TEXTURE ||
	       (r->op == GC_LOAD && R->skip_global &&
		(r->space == GC_GLOBAL || r->space == GC_GENERIC));
}

/* What load r (sectors m) needs from the MSHRs: *cost entries (sectors
 * for sector MSHRs), *alloc new entries of the warp's own (0 or 1), and
 * *merge set when it merges into an in-flight entry, which must have room. */
static void mshr_need(struct run *R, struct sm *s, const gc_rec *r, uint8_t m, unsigned *cost,
		      unsigned *alloc, int *merge_ok)
{
	uint64_t addr = r->addr & ~(uint64_t)(R->line - 1);
	unsigned set;
	gc_cline *l = gc_cache_find(&s->c, addr, &set);
	uint8_t missing = l ? m & ~l->valid : m;
	*cost = *alloc = 0;
	*merge_ok = 1;
	if (!missing)
		return;
	uint64_t *e = gc_hmap_get(&s->inflight, gc_cache_tag(&s->c, addr));
	if (e) {
		struct mshr *x = &s->m[*e];
		*cost = R->mshr_sector ? popcount8(missing & ~x->mask) : 0;
		*merge_ok = x->merged < R->mshr_merge;
		return;
	}
	*cost = R->mshr_sector ? popcount8(missing) : 1;
	*alloc = 1;
}

/* A load issued at time t: a hit, a merge into an in-flight miss (latency
 * class) or a new miss.  Returns the outcome; *effect is when its data
 * is there. */
static uint8_t load_timed(struct run *R, struct sm *s, const gc_rec *r, uint8_t m, uint64_t t,
			  struct warp *w, uint32_t widx, uint64_t *effect)
{
	uint64_t addr = r->addr & ~(uint64_t)(R->line - 1);
	uint64_t tag = gc_cache_tag(&s->c, addr);
	unsigned set;
	gc_cline *l = gc_cache_find(&s->c, addr, &set);
	if (l && (l->valid & m) == m) {
		s->n.hits++;
		gc_cache_touch(&s->c, l);
		if (R->classify)
			oom(gc_l1shadow_use(&s->sh, tag, 0, 0));
		*effect = t + R->hit_lat;
		return GC_OUT_MAKE(GC_R_HIT, GC_C_NONE);
	}
	uint8_t missing = l ? m & ~l->valid : m;
	int result = l ? GC_R_SECTOR_MISS : GC_R_MISS;
	uint64_t *ev = gc_hmap_get(&s->inflight, tag);
	int cls;
	if (ev) {
		/* The clipping of seed 000 §4.2: the request takes effect with
		 * the miss already in flight; sectors that miss does not fetch
		 * are added to it. */
		struct mshr *x = &s->m[*ev];
		uint8_t extra = missing & ~x->mask;
		x->merged++;
		note_change(s, tag);
		if (extra) {
			to_l2(R, s, r, GC_LOAD, addr, extra, sector_bytes(R, extra), t, 0);
			x->mask |= extra;
			if (R->mshr_sector) {
				x->cost += popcount8(extra);
				s->mused += popcount8(extra);
			}
		}
		if (R->classify) {
			int added;
			uint64_t *seen = gc_hmap_put(&s->seen, tag, &added);
			if (!seen)
				gc_die(GC_EXIT_DATA, "out of memory");
			*seen |= m;
		}
		cls = GC_C_LATENCY;
		*effect = x->ret;
	} else {
		if (R->classify) {
			cls = classify(s, tag, m, missing);
			if (w->stalled)
				cls = GC_C_MSHR;
		} else {
			cls = w->stalled ? GC_C_MSHR : GC_C_NONE;
		}
		uint32_t e = s->mfree;
		struct mshr *x = &s->m[e];
		s->mfree = x->next_free;
		x->tag = tag;
		x->mask = missing;
		x->merged = 1;
		x->warp = widx;
		x->warp_id = r->warp;
		x->block_id = r->block;
		x->cost = R->mshr_sector ? popcount8(missing) : 1;
		x->ret = t + miss_latency(R, s);
		s->mused += x->cost;
		if (R->mshr_per_warp)
			w->outstanding++;
		int added;
		uint64_t *slot = gc_hmap_put(&s->inflight, tag, &added);
		if (!slot)
			gc_die(GC_EXIT_DATA, "out of memory");
		*slot = e;
		note_change(s, tag);
		oom(gc_l1wheel_push(&s->ev, x->ret, ++s->order, e, EV_FILL));
		to_l2(R, s, r, GC_LOAD, addr, missing, sector_bytes(R, missing), t, 0);
		*effect = x->ret;
	}
	count_miss(R, s, result, cls);
	return GC_OUT_MAKE(result, cls);
}

/* What request r needs from the MSHRs now, into x. */
static void dry_need(struct run *R, struct sm *s, const gc_rec *r, struct dryrec *x)
{
	if (r->op != GC_LOAD || passes_by(R, r)) {
		x->at = UINT64_MAX;
		x->cost = x->alloc = 0;
		x->ok = 1;
		return;
	}
	unsigned cost, alloc;
	int ok;
	mshr_need(R, s, r, R->maskmap[r->mask], &cost, &alloc, &ok);
	x->at = s->chg;
	x->bucket = vbucket(r->addr >> s->c.line_shift);
	x->cost = (uint8_t)cost;
	x->alloc = (uint8_t)alloc;
	x->ok = (uint8_t)ok;
}

/* A needs array for an instruction of k requests, and back. */
static struct dryrec *dry_get(struct run *R, unsigned k)
{
	int c = k > DRY_SMALL;
	struct dryrec *p = R->dryfree[c];
	if (p) {
		memcpy(&R->dryfree[c], p, sizeof p);
		return p;
	}
	return xrealloc(NULL, (c ? INST_MAX : DRY_SMALL) * sizeof *p);
}

static void dry_put(struct run *R, struct dryrec *p, unsigned k)
{
	int c = k > DRY_SMALL;
	memcpy(p, &R->dryfree[c], sizeof p);
	R->dryfree[c] = p;
}

enum { I_ENDED, I_ISSUED, I_CANCELLED };

/* The front warp issues its next instruction at time t, or has it
 * cancelled for want of MSHRs (seed 000 §4.4): I_ISSUED, I_CANCELLED, or
 * I_ENDED when the warp has nothing left to issue. */
static int issue(struct run *R, struct sm *s, uint32_t widx, uint64_t t)
{
	struct warp *w = &R->warps[widx];
	if (w->stalled && w->blocked_ver == s->ver) {
		/* nothing it waits for has changed: cancelled again */
		s->n.stalls++;
		s->order++;
		w->state = W_WAITING;
		ring_push(&s->rq, widx);
		s->nblocked++;
		return I_CANCELLED;
	}
	int complete;
	unsigned k = warp_inst(R, widx, &complete);
	while (!complete && !R->kend) {
		/* Read on until the instruction is whole, or the warp is taken
		 * to have ended: no request of it in the next --window records. */
		if (!k && R->nread - w->last_read >= R->cl->window)
			break;
		read_one(R);
		w = &R->warps[widx];
		k = warp_inst(R, widx, &complete);
	}
	if (!k)
		return I_ENDED;

	/* The dry run: do the MSHRs take the whole instruction?  A warp
	 * that waited keeps what its requests need (struct dryrec). */
	const struct islot *in = w->ihead;
	const gc_rec *recs = in->rec + in->off;
	unsigned n = k;
	struct dryrec fresh[INST_MAX];
	struct dryrec *d = w->dry ? w->dry : fresh;
	unsigned used = 0, mine = 0, tot_cost = 0, tot_mine = 0, fit = 0;
	int blocked = 0;
	for (unsigned i = 0; i < k; i++) {
		struct dryrec *x = &d[i];
		if (d == fresh || R->look_all || (x->at != UINT64_MAX && s->vtab[x->bucket] > x->at))
			dry_need(R, s, &recs[i], x);
		unsigned cost = x->cost, alloc = x->alloc;
		int merge_ok = x->ok;
		tot_cost += cost;
		tot_mine += alloc;
		if (!blocked && merge_ok && s->mused + used + cost <= R->mshr_entries &&
		    (!R->mshr_per_warp || w->outstanding + mine + alloc <= R->mshr_per_warp)) {
			used += cost;
			mine += alloc;
			fit++;
		} else {
			blocked = 1;
		}
	}
	if (fit < k) {
		/* An instruction that could never fit at once issues the part
		 * that fits now; any other is cancelled and waits whole. */
		int never = tot_cost > R->mshr_entries ||
			    (R->mshr_per_warp && tot_mine > R->mshr_per_warp);
		if (!never || fit == 0) {
			/* to the back of the queue, behind the warps that
			 * become ready by the next step */
			s->n.stalls++;
			s->order++;
			w->stalled = 1;
			w->blocked_ver = s->ver;
			w->state = W_WAITING;
			ring_push(&s->rq, widx);
			s->nblocked++;
			if (d == fresh) {
				w->dry = dry_get(R, k);
				memcpy(w->dry, fresh, k * sizeof *fresh);
			}
			return I_CANCELLED;
		}
		k = fit;
	}
	if (w->dry) {
		dry_put(R, w->dry, n);
		w->dry = NULL;
	}

	uint64_t ready = t;
	for (unsigned i = 0; i < k; i++) {
		gc_rec r = recs[i];
		uint8_t m = R->maskmap[r.mask];
		uint8_t outcome;
		uint64_t effect = t + R->hit_lat;
		count_request(R, s, &r);
		if (bypass(R, s, &r, m, t, &outcome)) {
			if (r.op != GC_STORE && r.space != GC_SHARED)
				effect = t + miss_latency(R, s);
		} else if (r.op == GC_LOAD) {
			outcome = load_timed(R, s, &r, m, t, w, widx, &effect);
		} else {
			outcome = store(R, s, &r, m, t);
		}
		if (effect > ready)
			ready = effect;
		if (R->classify)
			count_pc(R, r.pc, is_miss(outcome));
		if (R->cl->emit_all) {
			r.outcome = outcome;
			r.time = t;
			put(R, &r);
		}
	}
	warp_pop(R, widx, k);
	/* The rest of a split instruction keeps its stall. */
	w->stalled = k < n;
	if (ready > R->cycles)
		R->cycles = ready;
	s->ver++;
	s->nblocked = 0;
	warp_wait(s, w, widx, ready);
	return I_ISSUED;
}

static void warp_done(struct run *R, struct sm *s, uint32_t widx)
{
	struct warp *w = &R->warps[widx];
	w->state = W_DONE;
	struct block *b = &R->blocks[w->block];
	if (++b->ndone < b->nwarps)
		return;
	/* The block's warps and its own slot are free again; its id stays
	 * known, so that a late record of it is an error. */
	b->done = 1;
	oom(gc_hset_add(&R->doneblocks, b->id) < 0 ? -1 : 0);
	gc_hmap_del(&R->blockmap, b->id);
	for (uint32_t x = b->first, nx; x != NONE32; x = nx) {
		nx = R->warps[x].next;
		gc_hmap_del(&R->warpmap, ((uint64_t)b->id << 16) | R->warps[x].id);
		if (R->last_warp == x)
			R->last_warp = NONE32;
		R->warps[x].next = R->wfree;
		R->wfree = x;
	}
	b->next_pending = R->bfree;
	R->bfree = w->block;
	/* First done, first served: the block's slot on the SM goes to the
	 * SM's next pending block. */
	s->resident--;
	if (s->pend_head != NONE32) {
		uint32_t next = s->pend_head;
		s->pend_head = R->blocks[next].next_pending;
		if (s->pend_head == NONE32)
			s->pend_tail = NONE32;
		block_start(R, s, next);
	}
}

/* One step of SM s at time t: the effects due, then one issue. */
static void sm_step(struct run *R, struct sm *s, uint64_t t)
{
	s->now = t;
	apply_events(R, s, t);
	while (s->rq.n) {
		uint32_t w = ring_pop(&s->rq);
		R->warps[w].state = W_QUEUED;
		ring_push(&s->q, w);
	}
	while (s->q.n) {
		uint32_t widx = ring_pop(&s->q);
		if (R->warps[widx].blocked_ver == s->ver)
			s->nblocked--;
		int rc = issue(R, s, widx, t);
		if (rc == I_ENDED) {
			warp_done(R, s, widx);
			continue;
		}
		s->now = t + 1;
		/* When every warp waits for the next event, the steps until
		 * then only cancel: skip them (sm_unspin counts them). */
		const gc_l1event *e = gc_l1wheel_top(&s->ev);
		if (rc == I_CANCELLED && !R->step_all && e && e->time > t + 1 &&
		    sm_all_blocked(s)) {
			s->spinning = 1;
			s->spin_from = t + 1;
		}
		return;
	}
}

/* ---- the timing model: kernels -------------------------------------------------- */

/* Run one kernel to the end of its input and of its last miss. */
static void timing_kernel(struct run *R)
{
	R->kend = 0;
	R->nread = 0;
	R->last_warp = NONE32;
	R->stage_n = 0;
	R->stage_warp = NONE32;
	R->nwarps = R->nblocks = 0;
	R->wfree = R->bfree = NONE32;
	gc_hmap_clear(&R->warpmap);
	gc_hmap_clear(&R->blockmap);
	gc_hset_clear(&R->doneblocks);
	R->gnow = R->tbase;
	for (unsigned i = 0; i < R->nsms; i++) {
		struct sm *s = R->sms[R->smlist[i]];
		s->now = R->tbase;
		s->resident = 0;
		s->pend_head = s->pend_tail = NONE32;
	}
	/* Look ahead so that every SM's first blocks are known at time 0. */
	while (!R->kend && R->nread < R->cl->window)
		read_one(R);
	for (;;) {
		const gc_l1event *top = gc_l1queue_top(&R->smheap);
		if (!top) {
			if (R->kend)
				break;
			read_one(R);
			continue;
		}
		uint64_t t = top->time;
		uint16_t id = (uint16_t)top->item;
		uint32_t token = top->kind;
		gc_l1queue_pop(&R->smheap);
		struct sm *s = R->sms[id];
		if (token != s->hgen)
			continue; /* superseded by a later entry */
		s->inheap = 0;
		if (s->spinning)
			sm_unspin(s, t - 1);
		if (sm_next_time(s) != t) {
			sm_schedule(R, s);
			continue;
		}
		/* Step s as long as it stays the earliest SM (ties go to the
		 * lower SM number, as in the heap). */
		R->cur = s->id;
		for (;;) {
			R->gnow = t;
			sm_step(R, s, t);
			t = sm_next_time(s);
			if (t == UINT64_MAX)
				break;
			top = gc_l1queue_top(&R->smheap);
			if (top && (top->time < t || (top->time == t && top->order < s->id)))
				break;
			if (s->spinning)
				sm_unspin(s, t - 1);
		}
		R->cur = -1;
		sm_schedule(R, s);
	}
	/* Warps that never issued again (all their input was read) */
	uint64_t end = R->gnow;
	for (unsigned i = 0; i < R->nsms; i++) {
		struct sm *s = R->sms[R->smlist[i]];
		if (s->now > end)
			end = s->now;
	}
	R->gnow = end;
	R->tbase = end;
}

static void run_timing(struct run *R)
{
	gc_rec rec;
	for (;;) {
		int ev = gc_read(R->r, &rec);
		if (ev == GC_KBEGIN) {
			uint32_t id = gc_reader_kernel(R->r)->id;
			write_kbegin(R, gc_reader_kernel(R->r));
			kernel_begin(R, gc_reader_kernel(R->r));
			timing_kernel(R); /* to the kernel's end record */
			kernel_end(R, R->gnow);
			write_kend(R, id);
		} else if (ev == GC_EOF) {
			break;
		} else {
			input_error(R);
		}
	}
}

/* ---- statistics ------------------------------------------------------------------ */

static double ratio(uint64_t a, uint64_t b)
{
	return b ? (double)a / (double)b : 0.0;
}

static int by_misses(const void *a, const void *b)
{
	const struct pcstat *x = a, *y = b;
	if (x->misses != y->misses)
		return x->misses > y->misses ? -1 : 1;
	return x->pc < y->pc ? -1 : x->pc > y->pc;
}

static int by_id(const void *a, const void *b)
{
	uint16_t x = *(const uint16_t *)a, y = *(const uint16_t *)b;
	return (x > y) - (x < y);
}

static void json_counters(gc_json *j, const struct counters *n)
{
	gc_json_u64(j, "requests", n->requests);
	gc_json_u64(j, "loads", n->loads);
	gc_json_u64(j, "stores", n->stores);
	gc_json_u64(j, "atomics", n->atomics);
	gc_json_u64(j, "hits", n->hits);
	gc_json_u64(j, "misses", n->misses);
	gc_json_u64(j, "sector_misses", n->sector_misses);
	gc_json_u64(j, "merged", n->cls[GC_C_LATENCY]);
	gc_json_u64(j, "bypassed", n->bypassed);
	gc_json_u64(j, "shared", n->shared);
	gc_json_num(j, "hit_rate", ratio(n->hits, n->hits + n->misses));
	gc_json_obj(j, "classes");
	for (int c = GC_C_COMPULSORY; c < GC_NCLASSES; c++)
		gc_json_u64(j, gc_class_name(c), n->cls[c]);
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

static const char *enum_text(const gc_gpu_config *c, const char *key, char *buf, size_t len)
{
	int i = gc_gpu_key_find(key);
	if (i < 0 || gc_gpu_format(c, i, buf, len) < 0)
		snprintf(buf, len, "?");
	return buf;
}

static void write_json(struct run *R, FILE *f)
{
	const struct counters *n = &R->total;
	char buf[64];
	gc_json j;
	gc_json_begin(&j, f);
	gc_json_str(&j, "tool", "gc-l1");
	gc_json_str(&j, "input", gc_reader_name(R->r));
	gc_json_str(&j, "gpu", R->gpu.name);
	gc_json_str(&j, "model", R->cl->timing ? "timing" : "functional");
	gc_json_obj(&j, "l1");
	gc_json_u64(&j, "size", (uint64_t)R->geom.sets * R->geom.ways * R->line);
	gc_json_u64(&j, "line", R->line);
	gc_json_u64(&j, "sector", R->sector);
	gc_json_u64(&j, "sets", R->geom.sets);
	gc_json_u64(&j, "ways", R->geom.ways);
	gc_json_str(&j, "index", enum_text(&R->gpu, "l1.index", buf, sizeof buf));
	gc_json_str(&j, "replacement", enum_text(&R->gpu, "l1.replacement", buf, sizeof buf));
	gc_json_str(&j, "write", enum_text(&R->gpu, "l1.write", buf, sizeof buf));
	gc_json_str(&j, "write_alloc", enum_text(&R->gpu, "l1.write_alloc", buf, sizeof buf));
	gc_json_str(&j, "carveout", enum_text(&R->gpu, "sm.carveout", buf, sizeof buf));
	gc_json_str(&j, "kernel_boundary", R->cl->flush ? "flush" : "keep");
	if (R->cl->timing) {
		gc_json_u64(&j, "hit_latency", R->hit_lat);
		gc_json_u64(&j, "miss_latency_min", R->lambda_min);
		gc_json_num(&j, "miss_latency_sigma", R->sigma);
		gc_json_u64(&j, "mshr_entries", R->mshr_entries);
		gc_json_u64(&j, "mshr_merge", R->mshr_merge);
		gc_json_u64(&j, "mshr_per_warp", R->mshr_per_warp);
		gc_json_u64(&j, "seed", R->cl->seed);
	}
	gc_json_close(&j);
	json_counters(&j, n);
	if (R->cl->timing) {
		gc_json_u64(&j, "cycles", R->cycles);
		gc_json_u64(&j, "peak_buffered", R->peak_buffered);
	}
	gc_json_arr(&j, "kernels");
	for (size_t i = 0; i < R->nks; i++) {
		const struct kstat *k = &R->ks[i];
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
		gc_json_close(&j);
	}
	gc_json_close(&j);
	gc_json_arr(&j, "per_sm");
	for (unsigned i = 0; i < R->nsms; i++) {
		const struct sm *s = R->sms[R->smlist[i]];
		gc_json_obj(&j, NULL);
		gc_json_u64(&j, "sm", s->id);
		gc_json_u64(&j, "requests", s->n.requests);
		gc_json_u64(&j, "hits", s->n.hits);
		gc_json_u64(&j, "misses", s->n.misses);
		gc_json_u64(&j, "sector_misses", s->n.sector_misses);
		gc_json_num(&j, "hit_rate", ratio(s->n.hits, s->n.hits + s->n.misses));
		gc_json_u64(&j, "to_l2_reads", s->n.l2_reads);
		gc_json_u64(&j, "to_l2_writes", s->n.l2_writes);
		gc_json_close(&j);
	}
	gc_json_close(&j);
	gc_json_arr(&j, "top_pcs");
	for (size_t i = 0; i < R->npcs && i < (size_t)R->cl->top; i++) {
		gc_json_obj(&j, NULL);
		snprintf(buf, sizeof buf, "0x%x", R->pcstat[i].pc);
		gc_json_str(&j, "pc", buf);
		gc_json_u64(&j, "requests", R->pcstat[i].requests);
		gc_json_u64(&j, "misses", R->pcstat[i].misses);
		gc_json_close(&j);
	}
	gc_json_close(&j);
	gc_json_end(&j);
}

static void report(struct run *R, FILE *f)
{
	const struct counters *n = &R->total;
	const char *p = gc_progname;
	fprintf(f, "%s: %s L1, %llu x %llu x %u B (%s), %s model\n", p, R->gpu.name,
		(unsigned long long)R->geom.sets, (unsigned long long)R->geom.ways, R->line,
		R->sector == R->line ? "not sectored" : "sectored",
		R->cl->timing ? "timing" : "functional");
	fprintf(f, "%s: requests %llu: hits %llu, misses %llu (sector misses %llu), bypassed %llu, "
		"shared %llu; hit rate %.4f\n", p, (unsigned long long)n->requests,
		(unsigned long long)n->hits, (unsigned long long)n->misses,
		(unsigned long long)n->sector_misses, (unsigned long long)n->bypassed,
		(unsigned long long)n->shared, ratio(n->hits, n->hits + n->misses));
	fprintf(f, "%s: misses by class:", p);
	for (int c = GC_C_COMPULSORY; c < GC_NCLASSES; c++)
		fprintf(f, " %s %llu", gc_class_name(c), (unsigned long long)n->cls[c]);
	fprintf(f, "; MSHR stalls %llu\n", (unsigned long long)n->stalls);
	fprintf(f, "%s: to L2: %llu reads (%llu B), %llu writes (%llu B, %llu write-backs), "
		"%llu atomics (%llu B)\n", p, (unsigned long long)n->l2_reads,
		(unsigned long long)n->l2_read_bytes, (unsigned long long)n->l2_writes,
		(unsigned long long)n->l2_write_bytes, (unsigned long long)n->writebacks,
		(unsigned long long)n->l2_atomics, (unsigned long long)n->l2_atomic_bytes);
	if (R->cl->timing)
		fprintf(f, "%s: cycles %llu, at most %llu requests buffered\n", p,
			(unsigned long long)R->cycles, (unsigned long long)R->peak_buffered);
	for (size_t i = 0; i < R->nks; i++)
		fprintf(f, "%s: kernel %u %s: L1 %llu B (%u x %u), %llu B shared, %u blocks/SM: "
			"%llu requests, %llu hits, %llu misses\n", p, R->ks[i].id,
			R->ks[i].name[0] ? R->ks[i].name : "-", (unsigned long long)R->ks[i].l1_size,
			R->ks[i].sets, R->ks[i].ways, (unsigned long long)R->ks[i].shmem,
			R->ks[i].active, (unsigned long long)R->ks[i].n.requests,
			(unsigned long long)R->ks[i].n.hits, (unsigned long long)R->ks[i].n.misses);
	for (unsigned i = 0; i < R->nsms; i++) {
		const struct sm *s = R->sms[R->smlist[i]];
		fprintf(f, "%s: SM %u: %llu requests, %llu hits, %llu misses, hit rate %.4f\n", p,
			s->id, (unsigned long long)s->n.requests, (unsigned long long)s->n.hits,
			(unsigned long long)s->n.misses, ratio(s->n.hits, s->n.hits + s->n.misses));
	}
	for (size_t i = 0; i < R->npcs && i < (size_t)R->cl->top; i++)
		fprintf(f, "%s: pc 0x%x: %llu requests, %llu misses\n", p, R->pcstat[i].pc,
			(unsigned long long)R->pcstat[i].requests,
			(unsigned long long)R->pcstat[i].misses);
}

static void finish_stats(struct run *R)
{
	qsort(R->smlist, R->nsms, sizeof *R->smlist, by_id);
	sum_counters(R, &R->total);
	if (R->npcs)
		qsort(R->pcstat, R->npcs, sizeof *R->pcstat, by_misses);
	if (R->cl->c.stats) {
		FILE *f = gc_open_text(R->cl->c.stats);
		write_json(R, f);
		gc_close_text(f, R->cl->c.stats);
	}
	if (R->cl->c.verbose)
		report(R, stderr);
}

int main(int argc, char **argv)
{
	struct cmdline cl;
	struct run R;

	gc_prog_init("gc-l1", argc, argv);
	parse_cmdline(argc, argv, &cl);
	memset(&R, 0, sizeof R);
	R.cl = &cl;
	R.classify = cl.emit_all || cl.c.stats || cl.c.verbose;
	R.r = gc_open_stream(cl.input);
	gc_require_kind(R.r, GC_KIND_REQUEST);
	const gc_header *in = gc_reader_header(R.r);
	configure(&R, in);
	set_header(&R, in);
	R.sms = xcalloc(65536, sizeof *R.sms);
	R.smlist = xcalloc(65536, sizeof *R.smlist);
	oom(gc_hmap_init(&R.pcs, 0));
	oom(gc_hmap_init(&R.warpmap, 0));
	oom(gc_hmap_init(&R.blockmap, 0));
	oom(gc_hset_init(&R.doneblocks, 0));
	gc_l1queue_init(&R.smheap);
	R.cur = -1;
	R.step_all = getenv("GC_L1_STEP_ALL") != NULL;
	R.look_all = getenv("GC_L1_LOOK_ALL") != NULL;
	R.w = gc_open_output(&cl.c, &R.oh);

	if (cl.timing)
		run_timing(&R);
	else
		run_functional(&R);
	gc_progress_end(cl.c.progress);

	gc_close_output(R.w);
	finish_stats(&R);
	gc_reader_close(R.r);
	return 0;
}
