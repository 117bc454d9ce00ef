/*
 * gc-rd - reuse (LRU stack) distances: histogram, cumulative distribution,
 * miss-ratio curve and the SDCM hit rate (seed 000 §3.3, seed 003 §2.3).
 *
 * Reads: one stream of any kind (accesses, requests, DRAM transactions).
 * Writes: a report (text, JSON, CSV, the miss-ratio curve as CSV) and an
 * SVG picture; or, with --annotate, the stream itself with each record's
 * distance (gc-stream(5), the distance extension of 1.1).
 *
 * Each record is cut into units (lines, sectors or addresses: --gran);
 * each unit is one reference to an LRU stack (one stack, one per SM or per
 * kernel launch, and one per cache set with --sets), whose distance goes
 * to the histograms.  The stacks are the exact engine of rd.h, or SHARDS
 * sampling with --sample.
 */
#include "base/bits.h"
#include "base/hash.h"
#include "base/rowmap.h"
#include "config/gpu.h"
#include "model/cache.h"
#include "model/l1.h"
#include "model/rd.h"
#include "model/sdcm.h"
#include "prog/gpuopt.h"
#include "prog/prog.h"
#include "report/json.h"
#include "report/plot.h"
#include "report/svg.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char help[] =
	"Usage: gc-rd [options] [file]\n"
	"Reuse (LRU stack) distances of a gc stream: histogram, cumulative\n"
	"distribution, miss-ratio curve, SDCM hit rate.\n"
	"\n"
	"      --gran G         units: line, sector or byte (default line)\n"
	"      --line N         line size in bytes (default: header line_size, gpu.l1.line, 128)\n"
	"      --sector N       sector size in bytes (default: header sector_size, 32)\n"
	"      --scope S        l1: what gc-l1 models (the default with a GPU): the requests\n"
	"                       the L1 looks up, a stack per SM, the kernel boundary and the\n"
	"                       carve-out's L1 of each kernel; stream: every reference, one stack\n"
	"      --kernel-boundary flush|keep\n"
	"                       empty the stacks at each kernel start (default: l1.kernel_flush\n"
	"                       with --scope l1, flush with --by kernel, else keep)\n"
	"      --by KEY         rows by sm, kernel (a launch) or pc; keys combine (--by sm\n"
	"                       --by kernel, or sm,kernel); sm: a stack per SM\n"
	"      --sets N         a stack per cache set of N sets\n"
	"      --index F        set index: linear, xor, fermi, ipoly (default linear)\n"
	"      --hash F         deprecated: --index (L, X, H, P for the four)\n"
	"      --ways A         the cache for SDCM and the cut-off: A ways ...\n"
	"      --lines B        ... of B units in all (default: each kernel's L1 with a GPU)\n"
	"      --exact N        list distances below N one by one, then log2 bins (default 16)\n"
	"      --json           print one JSON object instead of the report\n"
	"      --csv            print the histogram (or the --by breakdown) as CSV\n"
	"      --mrc            print the miss-ratio curve for every size as CSV\n"
	"      --plot FILE      draw the histogram and the miss-ratio curve as SVG\n"
	"      --annotate       pass the stream on with each record's distance\n"
	"      --sample N       SHARDS sampling: at most N sampled units per stack\n"
	"      --gpu NAME|FILE  GPU preset or file (default: the input header's)\n"
	"      --list-gpus      list the GPU presets and exit\n"
	"  -o, --output FILE    write to FILE (default: stdout)\n"
	"  -z, --gzip           with --annotate: compress the stream\n"
	"      --force          with --annotate: write a stream to a terminal\n"
	"      --stats FILE     also write the JSON object to FILE\n"
	"      --progress       show progress on a terminal\n"
	"  -q, --quiet          no warnings\n"
	"  -v, --verbose        also print the report on stderr\n"
	"  -h, --help           show this help and exit\n"
	"  -V, --version        show versions and exit\n";

enum {
	OPT_GRAN = GC_OPT_TOOL, OPT_LINE, OPT_SECTOR, OPT_BY, OPT_SETS, OPT_HASH, OPT_INDEX, OPT_WAYS,
	OPT_LINES, OPT_EXACT, OPT_JSON, OPT_CSV, OPT_MRC, OPT_PLOT, OPT_ANNOTATE, OPT_SAMPLE,
	OPT_SCOPE, OPT_BOUNDARY,
};
enum gran { G_LINE, G_SECTOR, G_BYTE };
static const char *const gran_names[] = {"line", "sector", "byte"};
/* --by keys, in the order given: a row per combination of their values */
enum by { BY_SM, BY_KERNEL, BY_PC, NBY };
static const char *const by_names[] = {"sm", "kernel", "pc"};
enum scope { SC_AUTO, SC_L1, SC_STREAM };
static const char *const scope_names[] = {"auto", "l1", "stream"};
enum mode { M_REPORT, M_JSON, M_CSV, M_MRC, M_ANNOTATE };
static const char *const hash_names[] = {"linear", "xor", "fermi", "ipoly"};

#define SETS_MAX (1u << 20)
#define GROUP_BOUND 65536           /* --by histograms: exact below this */
#define SAMPLED_BOUND (1u << 20)    /* sampled histograms: exact below this */
#define BATCH 32                    /* records read ahead (prefetching) */

struct cmdline {
	gc_common c;
	const char *input;
	enum gran gran;
	uint64_t line, sector; /* 0: from the header */
	int by[NBY];           /* --by keys in order, nby of them */
	int nby;
	int scope;             /* enum scope */
	int boundary;          /* --kernel-boundary: 1 flush, 0 keep, -1 not given */
	unsigned sets;
	int hash;
	uint64_t ways, lines;  /* 0: not given */
	uint64_t exact;
	enum mode mode;
	const char *plot;
	uint64_t sample;       /* 0: exact */
};

/* One LRU stack (exact: st.st only). */
struct stack {
	gc_rds s;
};

/* A cache the references are cut at: --lines/--ways, or the L1 a kernel
 * runs with (the carve-out's), in units. */
struct cfg {
	uint64_t lines, ways;  /* units in all, per set (SDCM's B and A); 0 lines: none */
	uint64_t bytes;        /* the L1's bytes */
	unsigned l1_sets, l1_ways; /* the L1's geometry (gc-l1 remakes its L1s when it changes) */
	int sdcm_ok;           /* SDCM can evaluate A ways of B units */
};

/* The references of one cut-off: a histogram, the LRU hits at the cut. */
struct part {
	gc_rd_hist h;
	uint64_t refs;         /* references offered (sampling drops some) */
	double hits;           /* distance < the cut-off when it was made */
};

/* The parts of a row (or of the whole stream), by cut-off (struct cfg). */
struct tally {
	struct part *p;
	unsigned np;
};

/* One row of --by: a combination of the keys' values. */
struct group {
	uint64_t key;
	uint16_t sm;
	uint32_t kernel;       /* kernel id */
	uint32_t pc;
	uint64_t launch;       /* launch ordinal */
	uint64_t refs;
	gc_rd_hist h;          /* every reference (the parts merged at the end) */
	struct tally t;
};

/* One kernel launch: its cut-off and its counts. */
struct launch {
	uint32_t id;
	char *name;
	unsigned cfg;
	uint64_t refs;
	double hits;
};

struct rd {
	const struct cmdline *cl;
	const gc_header *h;
	int kind;
	unsigned lshift, sshift, ushift; /* line, sector, unit */
	uint64_t line, sector;
	int sampled;

	/* the rules: gc-l1's (--scope l1) or the stream's */
	int scope_l1;         /* only what the L1 looks up; geometry changes empty the stacks */
	int per_sm;           /* a stack per SM */
	int flush;            /* empty the stacks at each kernel start */
	gc_l1_routes route; /* gc_l1_route of (op, space, flags) */
	gc_gpu_config gpu;
	int have_gpu;
	uint64_t shared, bypassed; /* records the L1 does not look up */

	/* stacks: by set (direct), or by (sm, set) through a map */
	struct stack *stacks;
	size_t nstacks, scap;
	gc_hmap skeys;
	uint64_t prev_skey;
	struct stack *prev_stack;

	/* histograms */
	gc_rd_hist all;       /* every reference (the parts merged at the end) */
	struct tally tall;
	uint64_t records, refs, norefs;
	gc_rowmap groups;     /* --by key -> struct group */
	gc_hmap tuples;       /* (prefix, value) -> prefix of the next key */
	gc_hmap pcids;        /* (kernel, pc) -> a number */
	uint64_t last_sm, last_launch, last_pc; /* the row of the last record */
	size_t last_group;
	int has_last_group;
	uint64_t launches;
	uint32_t kernel;
	struct launch *lv;    /* the launches, in order */
	size_t nl, lcap;

	/* the caches of the cut-off and of SDCM: cfgs[cur] now */
	struct cfg *cfgs;
	unsigned ncfg, cur;
	uint64_t cut;         /* distances below it hit (0: no cache) */
	int cache_from_gpu;
	/* the cache the report and the picture show: the one most references
	 * were cut at (set by finish) */
	uint64_t ways, clines;
};

/* ---- the command line ----------------------------------------------------- */

static int pick(const char *arg, const char *const *names, int n)
{
	for (int i = 0; i < n; i++)
		if (strcmp(arg, names[i]) == 0)
			return i;
	return -1;
}

static int parse_hash(const char *arg)
{
	static const char *const letters[] = {"L", "X", "H", "P"};
	int i = pick(arg, letters, 4);
	return i >= 0 ? i : pick(arg, hash_names, 4);
}

/* --by KEY[,KEY...]: keys added in order, each once. */
static void parse_by(struct cmdline *cl, const char *arg)
{
	char buf[64];
	const char *p = arg;
	do {
		const char *e = strchr(p, ',');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		if (n >= sizeof buf)
			n = sizeof buf - 1;
		memcpy(buf, p, n);
		buf[n] = 0;
		int k = pick(buf, by_names, NBY);
		if (k < 0)
			gc_usage_error("--by: '%s' is not sm, kernel or pc", buf);
		int seen = 0;
		for (int i = 0; i < cl->nby; i++)
			seen |= cl->by[i] == k;
		if (!seen)
			cl->by[cl->nby++] = k;
		p = e ? e + 1 : NULL;
	} while (p);
}

static int has_by(const struct cmdline *cl, int key)
{
	for (int i = 0; i < cl->nby; i++)
		if (cl->by[i] == key)
			return 1;
	return 0;
}

static void parse_cmdline(int argc, char **argv, struct cmdline *cl)
{
	static const struct option longopts[] = {
		GC_COMMON_LONGOPTS,
		{"gran", required_argument, NULL, OPT_GRAN},
		{"line", required_argument, NULL, OPT_LINE},
		{"sector", required_argument, NULL, OPT_SECTOR},
		{"by", required_argument, NULL, OPT_BY},
		{"sets", required_argument, NULL, OPT_SETS},
		{"index", required_argument, NULL, OPT_INDEX},
		{"hash", required_argument, NULL, OPT_HASH},
		{"ways", required_argument, NULL, OPT_WAYS},
		{"lines", required_argument, NULL, OPT_LINES},
		{"exact", required_argument, NULL, OPT_EXACT},
		{"json", no_argument, NULL, OPT_JSON},
		{"csv", no_argument, NULL, OPT_CSV},
		{"mrc", no_argument, NULL, OPT_MRC},
		{"plot", required_argument, NULL, OPT_PLOT},
		{"annotate", no_argument, NULL, OPT_ANNOTATE},
		{"sample", required_argument, NULL, OPT_SAMPLE},
		{"scope", required_argument, NULL, OPT_SCOPE},
		{"kernel-boundary", required_argument, NULL, OPT_BOUNDARY},
		{NULL, 0, NULL, 0},
	};
	int c, i, nmodes = 0, hash_given = 0;
	memset(cl, 0, sizeof *cl);
	cl->sets = 1;
	cl->exact = 16;
	cl->boundary = -1;
	while ((c = gc_getopt(argc, argv, GC_COMMON_SHORTOPTS, longopts)) != -1) {
		if (gc_common_option(&cl->c, c, optarg, help))
			continue;
		switch (c) {
		case OPT_GRAN:
			if ((i = pick(optarg, gran_names, 3)) < 0)
				gc_usage_error("--gran: '%s' is not line, sector or byte", optarg);
			cl->gran = (enum gran)i;
			break;
		case OPT_LINE: cl->line = gc_num("--line", optarg, 1, 1u << 30); break;
		case OPT_SECTOR: cl->sector = gc_num("--sector", optarg, 1, 1u << 30); break;
		case OPT_BY: parse_by(cl, optarg); break;
		case OPT_SCOPE:
			if ((i = pick(optarg, scope_names, 3)) <= 0)
				gc_usage_error("--scope: '%s' is not l1 or stream", optarg);
			cl->scope = i;
			break;
		case OPT_BOUNDARY:
			if (strcmp(optarg, "flush") == 0)
				cl->boundary = 1;
			else if (strcmp(optarg, "keep") == 0)
				cl->boundary = 0;
			else
				gc_usage_error("--kernel-boundary: '%s' is not flush or keep", optarg);
			break;
		case OPT_SETS: cl->sets = (unsigned)gc_num("--sets", optarg, 1, SETS_MAX); break;
		case OPT_HASH:
			gc_warn("--hash is deprecated: use --index");
			/* fall through */
		case OPT_INDEX:
			if ((cl->hash = parse_hash(optarg)) < 0)
				gc_usage_error("--index: '%s' is not linear, xor, fermi or ipoly", optarg);
			hash_given = 1;
			break;
		case OPT_WAYS: cl->ways = gc_num("--ways", optarg, 1, UINT64_C(1) << 32); break;
		case OPT_LINES: cl->lines = gc_num("--lines", optarg, 1, UINT64_C(1) << 40); break;
		case OPT_EXACT: cl->exact = gc_num("--exact", optarg, 1, UINT64_C(1) << 40); break;
		case OPT_JSON: cl->mode = M_JSON; nmodes++; break;
		case OPT_CSV: cl->mode = M_CSV; nmodes++; break;
		case OPT_MRC: cl->mode = M_MRC; nmodes++; break;
		case OPT_ANNOTATE: cl->mode = M_ANNOTATE; nmodes++; break;
		case OPT_PLOT: cl->plot = optarg; break;
		case OPT_SAMPLE: cl->sample = gc_num("--sample", optarg, 1, UINT64_C(1) << 30); break;
		default: gc_usage_error("unexpected option");
		}
	}
	if (nmodes > 1)
		gc_usage_error("--json, --csv, --mrc and --annotate exclude each other");
	if (cl->line & (cl->line - 1))
		gc_usage_error("--line: %llu is not a power of two", (unsigned long long)cl->line);
	if (cl->sector & (cl->sector - 1))
		gc_usage_error("--sector: %llu is not a power of two", (unsigned long long)cl->sector);
	if (cl->exact & (cl->exact - 1))
		gc_usage_error("--exact: %llu is not a power of two", (unsigned long long)cl->exact);
	if (hash_given && cl->sets == 1)
		gc_usage_error("--index needs --sets");
	if (cl->ways && cl->lines) {
		char why[160];
		if (gc_sdcm_check(cl->ways, cl->lines, why, sizeof why) < 0)
			gc_usage_error("--ways %llu --lines %llu: %s", (unsigned long long)cl->ways,
				       (unsigned long long)cl->lines, why);
	}
	if (cl->ways && !cl->lines)
		gc_usage_error("--ways needs --lines");
	if (cl->lines && cl->lines < cl->sets)
		gc_usage_error("--lines %llu --sets %u: fewer lines than sets",
			       (unsigned long long)cl->lines, cl->sets);
	if ((cl->c.gzip || cl->c.force) && cl->mode != M_ANNOTATE)
		gc_usage_error("%s writes a stream: it needs --annotate", cl->c.gzip ? "-z" : "--force");
	cl->input = gc_one_input(argc, argv);
}

/* ---- set-up ----------------------------------------------------------------- */

/* A size from the header, or 0 when absent. */
static uint64_t header_size(const gc_reader *r, const char *key, const char *opt)
{
	const char *v = gc_header_get(gc_reader_header(r), key);
	if (!v)
		return 0;
	char *end;
	unsigned long long n = strtoull(v, &end, 10);
	if (end == v || *end || n == 0 || n > (1u << 30) || (n & (n - 1)))
		gc_die(GC_EXIT_DATA, "%s: header key %s: '%s' is not a power of two "
		       "(%s N overrides it)", gc_reader_name(r), key, v, opt);
	return n;
}

static int has_gpu_keys(const gc_header *h)
{
	for (int i = 0; i < h->nkv; i++)
		if (strncmp(h->key[i], GC_GPU_HEADER_PREFIX, strlen(GC_GPU_HEADER_PREFIX)) == 0)
			return 1;
	return 0;
}

/* The stream has been through gc-l1 (what goes on to L2), or is DRAM
 * transactions: the L1's rules are behind it. */
static const char *past_l1(const gc_header *h)
{
	if (h->kind == GC_KIND_DRAM)
		return "DRAM transactions";
	const char *emit = gc_header_get(h, "l1.emit");
	if (emit && strcmp(emit, "all") != 0)
		return "gc-l1's output to L2";
	return NULL;
}

/* The rules (gc-rd(1), Scope): gc-l1's with a GPU, else the stream's. */
static void rules_init(struct rd *x, const struct cmdline *cl, const gc_reader *r)
{
	const char *past = past_l1(x->h);
	x->have_gpu = cl->c.gpu || has_gpu_keys(x->h);
	if (cl->scope == SC_L1 && past)
		gc_usage_error("--scope l1: %s: the input is %s, past the L1", gc_reader_name(r), past);
	x->scope_l1 = cl->scope == SC_L1 || (cl->scope == SC_AUTO && x->have_gpu && !past);
	if (x->have_gpu || x->scope_l1) {
		gc_gpu_for_stream(&x->gpu, cl->c.gpu, x->h);
		gc_gpu_config_finish(&x->gpu);
		x->have_gpu = 1;
	}
	x->per_sm = x->scope_l1 || has_by(cl, BY_SM);
	x->flush = cl->boundary >= 0 ? cl->boundary
		   : (x->scope_l1 && x->gpu.l1.kernel_flush) || has_by(cl, BY_KERNEL);
	if (x->scope_l1)
		gc_l1_route_table(x->route, x->gpu.l1.skip_global);
	else
		memset(x->route, GC_L1_LOOKUP, sizeof x->route);
}

/* The cut-off of the L1 of sets x ways lines (the GPU's lines), in units;
 * its index in cfgs, added when new. */
static unsigned cfg_index(struct rd *x, uint64_t lines, uint64_t ways, uint64_t bytes,
			  unsigned l1_sets, unsigned l1_ways)
{
	for (unsigned i = 0; i < x->ncfg; i++)
		if (x->cfgs[i].lines == lines && x->cfgs[i].ways == ways &&
		    x->cfgs[i].l1_sets == l1_sets && x->cfgs[i].l1_ways == l1_ways)
			return i;
	x->cfgs = gc_xrealloc(x->cfgs, (x->ncfg + 1) * sizeof *x->cfgs);
	struct cfg *c = &x->cfgs[x->ncfg];
	char why[200];
	*c = (struct cfg){lines, ways, bytes, l1_sets, l1_ways, 0};
	c->sdcm_ok = lines && gc_sdcm_check(ways, lines, why, sizeof why) == 0;
	return x->ncfg++;
}

/* The cut-off from the GPU's L1 for kernel k (NULL: the configured L1):
 * its bytes in units, its ways scaled alike (the sets stay the L1's). */
static unsigned gpu_cfg(struct rd *x, const gc_kernel *k)
{
	gc_carveout co;
	gc_gpu_kernel_l1(&x->gpu, k, &co);
	uint64_t unit = UINT64_C(1) << x->ushift, l1line = x->gpu.l1.line;
	uint64_t lines = co.l1_size / unit;
	uint64_t ways = unit < l1line ? co.l1_ways * (l1line / unit) : co.l1_ways;
	if (ways > lines)
		ways = lines;
	if (ways == 0)
		ways = 1;
	return cfg_index(x, lines, ways, co.l1_size, co.l1_sets, co.l1_ways);
}

/* Cut at cfgs[i] from now on: a distance below lines / sets hits. */
static void use_cfg(struct rd *x, unsigned i)
{
	x->cur = i;
	x->cut = x->cfgs[i].lines / x->cl->sets;
}

static void rd_init(struct rd *x, const struct cmdline *cl, const gc_reader *r)
{
	memset(x, 0, sizeof *x);
	x->cl = cl;
	x->h = gc_reader_header(r);
	x->kind = x->h->kind;
	x->sampled = cl->sample != 0;
	rules_init(x, cl, r);

	/* Sizes: the options, the header's keys, the GPU's L1, defaults. */
	uint64_t hl = header_size(r, "line_size", "--line");
	uint64_t hs = header_size(r, "sector_size", "--sector");
	x->line = cl->line ? cl->line : hl ? hl : x->have_gpu ? x->gpu.l1.line : 128;
	x->sector = cl->sector ? cl->sector : hs ? hs : 32;
	if (!cl->sector && x->sector > x->line && cl->line)
		x->sector = x->line; /* --line below the sector size: sectors are lines */
	if (x->sector > x->line) {
		if (cl->sector)
			gc_usage_error("the sector size %llu is larger than the line size %llu",
				       (unsigned long long)x->sector, (unsigned long long)x->line);
		gc_die(GC_EXIT_DATA, "%s: header: the sector size %llu is larger than the line "
		       "size %llu", gc_reader_name(r), (unsigned long long)x->sector,
		       (unsigned long long)x->line);
	}
	if (x->line / x->sector > GC_CACHE_SECTORS_MAX && cl->gran == G_SECTOR &&
	    x->kind != GC_KIND_ACCESS)
		gc_usage_error("a request's mask holds %u sectors; %llu-byte lines have %llu",
			       GC_CACHE_SECTORS_MAX, (unsigned long long)x->line,
			       (unsigned long long)(x->line / x->sector));
	x->lshift = gc_log2(x->line);
	x->sshift = gc_log2(x->sector);
	x->ushift = cl->gran == G_LINE ? x->lshift : cl->gran == G_SECTOR ? x->sshift : 0;
	if (cl->sets > 1) {
		char why[200];
		if (gc_set_index_check(cl->hash, cl->sets, (unsigned)x->line, why, sizeof why) < 0)
			gc_usage_error("--sets %u --index %s: %s", cl->sets, hash_names[cl->hash], why);
	}

	/* The cache: --ways/--lines, else each kernel's L1 (lines and sectors). */
	if (cl->lines) {
		use_cfg(x, cfg_index(x, cl->lines, cl->ways ? cl->ways : cl->lines, 0, 0, 0));
	} else if (x->have_gpu && cl->gran != G_BYTE) {
		x->cache_from_gpu = 1;
		use_cfg(x, gpu_cfg(x, NULL));
		if (x->cfgs[x->cur].lines < cl->sets)
			gc_usage_error("--sets %u: more sets than the L1 has units (%llu)", cl->sets,
				       (unsigned long long)x->cfgs[x->cur].lines);
	} else {
		use_cfg(x, cfg_index(x, 0, 0, 0, 0, 0));
	}

	gc_rd_hist_init(&x->all, x->sampled ? SAMPLED_BOUND : 0);
	gc_hmap_init(&x->skeys, 0);
	gc_hmap_init(&x->tuples, 0);
	gc_hmap_init(&x->pcids, 0);
	gc_rowmap_init(&x->groups, sizeof(struct group), 64);
	if (!x->per_sm) {
		x->nstacks = x->scap = cl->sets;
		x->stacks = gc_xrealloc(NULL, x->nstacks * sizeof *x->stacks);
		for (size_t i = 0; i < x->nstacks; i++)
			gc_rd_init(&x->stacks[i].s.st);
		if (x->sampled)
			for (size_t i = 0; i < x->nstacks; i++)
				if (gc_rds_init(&x->stacks[i].s, cl->sample) < 0)
					gc_die(GC_EXIT_DATA, "out of memory");
	}
}

/* ---- stacks and groups -------------------------------------------------------- */

static struct stack *new_stack(struct rd *x)
{
	if (x->nstacks == x->scap) {
		x->scap = x->scap ? 2 * x->scap : 64;
		x->stacks = gc_xrealloc(x->stacks, x->scap * sizeof *x->stacks);
	}
	struct stack *s = &x->stacks[x->nstacks++];
	gc_rd_init(&s->s.st);
	if (x->sampled && gc_rds_init(&s->s, x->cl->sample) < 0)
		gc_die(GC_EXIT_DATA, "out of memory");
	return s;
}

/* The stack of (sm, set) with a stack per SM; pointers move when the
 * array grows, so the map holds indices. */
static struct stack *sm_stack(struct rd *x, uint64_t key)
{
	if (x->prev_stack && key == x->prev_skey)
		return x->prev_stack;
	int added;
	uint64_t *v = gc_hmap_put(&x->skeys, key, &added);
	if (!v)
		gc_die(GC_EXIT_DATA, "out of memory");
	if (added) {
		size_t idx = x->nstacks;
		new_stack(x);
		v = gc_hmap_get(&x->skeys, key);
		*v = idx;
	}
	x->prev_skey = key;
	x->prev_stack = &x->stacks[*v];
	return x->prev_stack;
}

static void reset_stacks(struct rd *x)
{
	for (size_t i = 0; i < x->nstacks; i++) {
		if (x->sampled) {
			gc_rds_free(&x->stacks[i].s);
			if (gc_rds_init(&x->stacks[i].s, x->cl->sample) < 0)
				gc_die(GC_EXIT_DATA, "out of memory");
		} else {
			gc_rd_clear(&x->stacks[i].s.st);
		}
	}
}

/* The part of tally t for cut-off i (made on first use). */
static inline struct part *part_of(struct tally *t, unsigned i, uint64_t bound)
{
	if (i < t->np)
		return &t->p[i];
	t->p = gc_xrealloc(t->p, (i + 1) * sizeof *t->p);
	for (unsigned j = t->np; j <= i; j++) {
		memset(&t->p[j], 0, sizeof t->p[j]);
		gc_rd_hist_init(&t->p[j].h, bound);
	}
	t->np = i + 1;
	return &t->p[i];
}

static void tally_free(struct tally *t)
{
	for (unsigned i = 0; i < t->np; i++)
		gc_rd_hist_free(&t->p[i].h);
	free(t->p);
}

/* Row i of --by, in order of first appearance. */
static inline struct group *group_at(const struct rd *x, size_t i)
{
	return (struct group *)gc_rowmap_rows(&x->groups) + i;
}

/* A number for `key` in map m (the next free one when new). */
static uint64_t intern(gc_hmap *m, uint64_t key)
{
	int added;
	uint64_t *v = gc_hmap_put(m, key, &added);
	if (!v)
		gc_die(GC_EXIT_DATA, "out of memory");
	if (added)
		*v = gc_hmap_count(m) - 1;
	return *v;
}

/* The row of a record: the values of the --by keys, folded in order into
 * one number ((prefix, value) pairs numbered as they come), so that any
 * combination is one key of the row map. */
static struct group *group_for(struct rd *x, const gc_rec *rec)
{
	uint64_t pc = (uint64_t)rec->kernel << 32 | rec->pc;
	if (x->has_last_group && rec->sm == x->last_sm && x->launches == x->last_launch &&
	    pc == x->last_pc)
		return group_at(x, x->last_group);
	uint64_t key = 0;
	for (int i = 0; i < x->cl->nby; i++) {
		uint64_t v;
		switch (x->cl->by[i]) {
		case BY_SM: v = rec->sm; break;
		case BY_KERNEL: v = x->launches; break;
		default: v = intern(&x->pcids, pc); break;
		}
		if (v > UINT32_MAX)
			gc_die(GC_EXIT_DATA, "more than 2^32 kernel launches or PCs");
		key = key << 32 | v;
		if (i + 1 < x->cl->nby)
			key = intern(&x->tuples, key);
	}
	int added;
	struct group *g = gc_rowmap_row(&x->groups, key, &added);
	if (!g)
		gc_die(GC_EXIT_DATA, "out of memory");
	if (added) {
		g->key = key;
		g->sm = rec->sm;
		g->kernel = rec->kernel;
		g->pc = rec->pc;
		g->launch = x->launches;
		gc_rd_hist_init(&g->h, GROUP_BOUND);
	}
	x->has_last_group = 1;
	x->last_sm = rec->sm;
	x->last_launch = x->launches;
	x->last_pc = pc;
	x->last_group = (size_t)(g - group_at(x, 0));
	return g;
}

/* A kernel begins: its cut-off (the carve-out's L1 with a GPU), and the
 * stacks emptied when the rules say so. */
static void kernel_begin(struct rd *x, const gc_kernel *k)
{
	unsigned prev = x->cur;
	x->launches++;
	x->kernel = k->id;
	if (x->cache_from_gpu)
		use_cfg(x, gpu_cfg(x, k));
	int remade = x->scope_l1 && x->cache_from_gpu &&
		     (x->cfgs[x->cur].l1_sets != x->cfgs[prev].l1_sets ||
		      x->cfgs[x->cur].l1_ways != x->cfgs[prev].l1_ways);
	if ((x->flush || remade) && x->records)
		reset_stacks(x);
	if (x->nl == x->lcap) {
		x->lcap = x->lcap ? 2 * x->lcap : 16;
		x->lv = gc_xrealloc(x->lv, x->lcap * sizeof *x->lv);
	}
	struct launch *l = &x->lv[x->nl++];
	*l = (struct launch){k->id, strdup(k->name), x->cur, 0, 0};
	if (!l->name)
		gc_die(GC_EXIT_DATA, "out of memory");
}

/* ---- the references of a record -------------------------------------------------- */

static void oom(void)
{
	gc_die(GC_EXIT_DATA, "out of memory (or more than 2^31 distinct units in one stack)");
}

/* One reference to unit u (its first byte at byte address a); the
 * record's distance becomes the largest of its units'. */
static inline void reference(struct rd *x, const gc_rec *rec, struct group *g, uint64_t u,
			     uint64_t a, uint64_t *rdist)
{
	struct stack *s;
	unsigned set = x->cl->sets > 1 ? gc_set_index(x->cl->hash, a, x->lshift, x->cl->sets) : 0;
	if (x->per_sm)
		s = sm_stack(x, (uint64_t)rec->sm * x->cl->sets + set);
	else
		s = &x->stacks[set];
	uint64_t d;
	double w = 1.0;
	struct part *p = part_of(&x->tall, x->cur, x->all.bound);
	struct part *gp = g ? part_of(&g->t, x->cur, GROUP_BOUND) : NULL;
	struct launch *l = x->nl ? &x->lv[x->nl - 1] : NULL;
	x->refs++;
	p->refs++;
	if (g) {
		g->refs++;
		gp->refs++;
	}
	if (l)
		l->refs++;
	if (x->sampled) {
		int rc = gc_rds_ref(&s->s, u, &d, &w);
		if (rc < 0)
			oom();
		if (rc == 0)
			return;
	} else if (gc_rd_ref(&s->s.st, u, &d) < 0) {
		oom();
	}
	if (gc_rd_hist_add(&p->h, d, w) < 0 || (g && gc_rd_hist_add(&gp->h, d, w) < 0))
		oom();
	if (d < x->cut) {
		p->hits += w;
		if (g)
			gp->hits += w;
		if (l)
			l->hits += w;
	}
	if (*rdist == GC_RD_NONE || d > *rdist)
		*rdist = d;
}

/* The units of a record: an access's bytes [addr, addr + size); a
 * request's masked sectors (the sector at its address when the mask is
 * empty); at byte granularity, the record's address.  With the L1's rules,
 * none for a record the L1 does not look up. */
static void record(struct rd *x, gc_rec *rec)
{
	uint64_t dist = GC_RD_NONE;
	unsigned us = x->ushift;
	x->records++;
	unsigned route = x->route[rec->op & 3][rec->space < GC_NSPACES ? rec->space : 0]
				 [rec->flags & 15];
	if (route != GC_L1_LOOKUP) {
		if (route == GC_L1_SHARED)
			x->shared++;
		else
			x->bypassed++;
		rec->dist = dist;
		x->norefs++;
		return;
	}
	struct group *g = x->cl->nby ? group_for(x, rec) : NULL;
	if (x->cl->gran == G_BYTE) {
		reference(x, rec, g, rec->addr, rec->addr, &dist);
	} else if (x->kind == GC_KIND_ACCESS) {
		uint64_t last = rec->addr + (rec->size ? rec->size - 1u : 0);
		if (last < rec->addr)
			last = UINT64_MAX;
		for (uint64_t u = rec->addr >> us;; u++) {
			reference(x, rec, g, u, u << us, &dist);
			if (u == last >> us)
				break;
		}
	} else {
		unsigned mask = rec->mask ? rec->mask : 1;
		uint64_t prev = UINT64_MAX;
		while (mask) {
			unsigned i = (unsigned)__builtin_ctz(mask);
			mask &= mask - 1;
			uint64_t a = rec->addr + ((uint64_t)i << x->sshift);
			uint64_t u = a >> us;
			if (u != prev) /* line granularity: one reference a line */
				reference(x, rec, g, u, a, &dist);
			prev = u;
		}
	}
	rec->dist = dist;
	if (dist == GC_RD_NONE)
		x->norefs++;
}

/* Start fetching the hash slot of a record's first unit: records are
 * handled BATCH at a time, so that these cache misses overlap. */
static inline void prefetch(const struct rd *x, const gc_rec *rec)
{
	if (x->per_sm)
		return;
	uint64_t a = x->cl->gran == G_BYTE || x->kind == GC_KIND_ACCESS ? rec->addr
		     : rec->addr + ((uint64_t)(rec->mask ? (unsigned)__builtin_ctz(rec->mask) : 0)
				    << x->sshift);
	unsigned set = x->cl->sets > 1 ? gc_set_index(x->cl->hash, a, x->lshift, x->cl->sets) : 0;
	if (x->sampled)
		gc_rds_prefetch(&x->stacks[set].s, a >> x->ushift);
	else
		GC_RD_PREFETCH(&x->stacks[set].s.st, a >> x->ushift);
}

/* SHARDS_adj: the sampled weights of a histogram are corrected to the
 * true number of references at distance 0 (Waldspurger et al. §4.3);
 * distance 0 is a hit of every cache. */
static void adjust(struct part *p, int cache)
{
	gc_rd_hist *h = &p->h;
	double diff = (double)p->refs - h->total;
	if (h->nexact == 0 && (gc_rd_hist_add(h, 0, 0) < 0 || gc_rd_hist_flush(h) < 0))
		oom();
	if (h->exact[0] + diff < 0)
		diff = -h->exact[0];
	h->exact[0] += diff;
	h->total += diff;
	if (cache)
		p->hits += diff;
	if (!h->finite) {
		h->finite = 1;
		h->maxd = 0;
	}
}

/* The parts of t flushed (and adjusted when sampled), summed into h: a
 * single part is moved there whole. */
static void tally_finish(struct rd *x, struct tally *t, gc_rd_hist *h)
{
	for (unsigned i = 0; i < t->np; i++) {
		struct part *p = &t->p[i];
		if (gc_rd_hist_flush(&p->h) < 0)
			oom();
		if (x->sampled && p->refs)
			adjust(p, x->cfgs[i].lines != 0);
	}
	if (t->np == 1) {
		gc_rd_hist_free(h);
		*h = t->p[0].h;
		gc_rd_hist_init(&t->p[0].h, h->bound);
		return;
	}
	for (unsigned i = 0; i < t->np; i++)
		if (gc_rd_hist_merge(h, &t->p[i].h) < 0)
			oom();
}

static void finish(struct rd *x)
{
	tally_finish(x, &x->tall, &x->all);
	for (size_t i = 0; i < gc_rowmap_count(&x->groups); i++) {
		struct group *g = group_at(x, i);
		tally_finish(x, &g->t, &g->h);
	}
	/* the cache shown: the cut-off of the most references */
	unsigned best = x->cur;
	uint64_t most = 0;
	for (unsigned i = 0; i < x->tall.np; i++)
		if (x->tall.p[i].refs > most) {
			most = x->tall.p[i].refs;
			best = i;
		}
	x->clines = x->cfgs[best].lines;
	x->ways = x->cfgs[best].ways;
}
/* The rows of the report's histogram: distances below --exact one by one,
 * then log2 bins from --exact up (computed from the stored cells). */
struct bin {
	uint64_t lo, hi; /* hi GC_RD_INF: infinity */
	double count;
};

static size_t display_bins(const struct rd *x, const gc_rd_hist *h, struct bin **out)
{
	struct bin *b = NULL;
	size_t n = 0, cap = 0;
	size_t it = 0;
	uint64_t lo, hi;
	double c;
	uint64_t bound = x->cl->exact;
	while (gc_rd_hist_next(h, &it, &lo, &hi, &c)) {
		uint64_t blo = lo, bhi = hi;
		if (lo >= bound) {
			unsigned k = 63u - (unsigned)__builtin_clzll(lo);
			blo = UINT64_C(1) << k;
			bhi = k == 63 ? UINT64_MAX - 2 : (UINT64_C(2) << k) - 1;
		}
		if (n && b[n - 1].lo == blo) {
			b[n - 1].count += c;
			continue;
		}
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			b = gc_xrealloc(b, cap * sizeof *b);
		}
		b[n++] = (struct bin){blo, bhi, c};
	}
	if (h->inf) {
		if (n == cap)
			b = gc_xrealloc(b, (cap = cap + 1) * sizeof *b);
		b[n++] = (struct bin){GC_RD_INF, GC_RD_INF, h->inf};
	}
	*out = b;
	return n;
}

/* Sizes of the report's miss-ratio curve: powers of two up to the first
 * one above the largest finite distance, and the cache's size. */
static size_t mrc_sizes(const struct rd *x, uint64_t *sz, size_t max)
{
	size_t n = 0;
	uint64_t top = x->all.finite ? x->all.maxd + 1 : 1;
	for (uint64_t s = 1;; s *= 2) {
		if (x->clines && x->clines < s && (n == 0 || sz[n - 1] < x->clines) && n < max)
			sz[n++] = x->clines;
		if (n < max)
			sz[n++] = s;
		if (s >= top || s > UINT64_MAX / 2)
			break;
	}
	if (x->clines && sz[n - 1] < x->clines && n < max)
		sz[n++] = x->clines;
	return n;
}

static double frac(double a, double b)
{
	return b > 0 ? a / b : 0;
}

static void fmt_dist(char *buf, size_t len, uint64_t d)
{
	if (d == GC_RD_INF)
		snprintf(buf, len, "inf");
	else
		snprintf(buf, len, "%llu", (unsigned long long)d);
}

static void fmt_range(char *buf, size_t len, const struct bin *b)
{
	if (b->lo == b->hi || b->hi == GC_RD_INF)
		fmt_dist(buf, len, b->lo);
	else
		snprintf(buf, len, "%llu-%llu", (unsigned long long)b->lo, (unsigned long long)b->hi);
}

/* The figures of one histogram at the cache. */
struct cut {
	double hits, misses, compulsory, capacity, sdcm;
};

/* The parts of histogram h: the whole stream's, or a row's. */
static const struct tally *tally_of(const struct rd *x, const gc_rd_hist *h)
{
	if (h == &x->all)
		return &x->tall;
	return &((const struct group *)(const void *)((const char *)h -
						       offsetof(struct group, h)))->t;
}

/* LRU: the hits counted at each reference's cut-off.  SDCM: formula 2
 * over each cut-off's references (NaN with --sets, whose distances are
 * per set, or a cache SDCM cannot evaluate). */
static struct cut cut_at(const struct rd *x, const gc_rd_hist *h)
{
	const struct tally *t = tally_of(x, h);
	struct cut c = {0, 0, 0, 0, 0};
	for (unsigned i = 0; i < t->np; i++)
		c.hits += t->p[i].hits;
	c.misses = h->total - c.hits;
	c.compulsory = h->inf;
	c.capacity = c.misses - h->inf;
	double sdcm = 0;
	for (unsigned i = 0; i < t->np && x->cl->sets == 1; i++) {
		const struct cfg *g = &x->cfgs[i];
		const gc_rd_hist *ph = t->np == 1 ? h : &t->p[i].h;
		if (!ph->total)
			continue;
		if (!g->sdcm_ok)
			break;
		sdcm += gc_sdcm_hits(ph, g->ways, g->lines);
	}
	c.sdcm = x->cl->sets > 1 ? NAN : frac(sdcm, h->total);
	for (unsigned i = 0; i < t->np; i++)
		if (t->p[i].refs && !x->cfgs[i].sdcm_ok)
			c.sdcm = NAN;
	return c;
}

static void scope_text(char *buf, size_t len, const struct rd *x)
{
	const char *gpu = x->gpu.name[0] ? x->gpu.name : "the GPU";
	if (x->scope_l1)
		snprintf(buf, len, "the L1 of %s: what it looks up, a stack per SM%s", gpu,
			 x->flush ? ", emptied at each kernel start" : "");
	else
		snprintf(buf, len, "%s%s", x->per_sm ? "a stack per SM" : "one stack",
			 x->flush ? ", emptied at each kernel start" : "");
}

/* The cut-offs that references were cut at: 1 or more. */
static unsigned cuts_used(const struct rd *x)
{
	unsigned n = 0;
	for (unsigned i = 0; i < x->tall.np; i++)
		n += x->tall.p[i].refs != 0;
	return n;
}

/* ---- text ------------------------------------------------------------------------- */

#define LABEL "%-18s"

/* The key columns of a row, in the order of the --by keys (kernel once):
 * csv 1 for CSV, else the report's aligned columns; g NULL: the names. */
static void row_keys(FILE *f, const struct rd *x, const struct group *g, int csv)
{
	int kernel_done = 0, first = 1;
	char v[32];
	for (int i = 0; i < x->cl->nby; i++) {
		int k = x->cl->by[i];
		for (int col = 0; col < 2; col++) {
			const char *name = NULL;
			int w = 10;
			if (k == BY_SM && col == 0) {
				name = "sm";
				w = 6;
				snprintf(v, sizeof v, "%u", g ? g->sm : 0);
			} else if (k == BY_KERNEL && col == 0) {
				name = "launch";
				w = 6;
				snprintf(v, sizeof v, "%llu", (unsigned long long)(g ? g->launch : 0));
			} else if ((k == BY_KERNEL || (k == BY_PC && !has_by(x->cl, BY_KERNEL))) &&
				   col == (k == BY_KERNEL) && !kernel_done) {
				name = "kernel";
				kernel_done = 1;
				snprintf(v, sizeof v, "%u", g ? g->kernel : 0);
			} else if (k == BY_PC && col == 1) {
				name = "pc";
				snprintf(v, sizeof v, "0x%x", g ? g->pc : 0);
			}
			if (!name)
				continue;
			if (csv)
				fprintf(f, "%s%s", first ? "" : ",", g ? v : name);
			else
				fprintf(f, "  %*s", w, g ? v : name);
			first = 0;
		}
	}
}

static void report_groups(FILE *f, const struct rd *x)
{
	fprintf(f, "\nby ");
	for (int i = 0; i < x->cl->nby; i++)
		fprintf(f, "%s%s", i ? ", " : "", by_names[x->cl->by[i]]);
	fputc('\n', f);
	row_keys(f, x, NULL, 0);
	fprintf(f, "  %12s  %12s  %10s  %10s", "references", "compulsory", "median", "p90");
	if (x->clines)
		fprintf(f, "  %12s  %8s  %8s", "lru-hits", "lru-hit", "sdcm-hit");
	fputc('\n', f);
	for (size_t i = 0; i < gc_rowmap_count(&x->groups); i++) {
		const struct group *g = group_at(x, i);
		char med[24], p90[24];
		row_keys(f, x, g, 0);
		fmt_dist(med, sizeof med, gc_rd_hist_quantile(&g->h, 0.5));
		fmt_dist(p90, sizeof p90, gc_rd_hist_quantile(&g->h, 0.9));
		fprintf(f, "  %12.0f  %12.0f  %10s  %10s", g->h.total, g->h.inf, med, p90);
		if (x->clines) {
			struct cut c = cut_at(x, &g->h);
			fprintf(f, "  %12.0f  %8.4f", c.hits, frac(c.hits, g->h.total));
			if (isnan(c.sdcm))
				fprintf(f, "  %8s", "-");
			else
				fprintf(f, "  %8.4f", c.sdcm);
		}
		fputc('\n', f);
	}
}

/* The cache line(s) of the report: the cut-off, or each kernel's. */
static void report_cache(FILE *f, const struct rd *x)
{
	const char *unit = x->cl->gran == G_SECTOR ? "sectors" : x->cl->gran == G_BYTE ? "units"
											: "lines";
	for (unsigned i = 0, n = 0; i < x->tall.np; i++) {
		const struct cfg *g = &x->cfgs[i];
		uint64_t refs = x->tall.p[i].refs;
		if (!refs && cuts_used(x))
			continue;
		char l1[80] = "", per[80] = "";
		if (x->cache_from_gpu)
			snprintf(l1, sizeof l1, " (the L1 of %llu KB%s)",
				 (unsigned long long)(g->bytes >> 10),
				 x->gpu.sm.carveout == GC_CARVEOUT_ADAPTIVE ? ", the carve-out's" : "");
		if (x->cl->sets > 1)
			snprintf(per, sizeof per, " of the %u-set stacks", x->cl->sets);
		fprintf(f, LABEL "%llu %s, %llu ways%s: distance%s >= %llu misses", n ? "" : "cache",
			(unsigned long long)g->lines, unit, (unsigned long long)g->ways, l1, per,
			(unsigned long long)(g->lines / x->cl->sets));
		if (cuts_used(x) > 1)
			fprintf(f, ", %llu references", (unsigned long long)refs);
		fputc('\n', f);
		n++;
	}
}

static void report(FILE *f, const struct rd *x, const char *input)
{
	const gc_rd_hist *h = &x->all;
	char buf[64];
	fprintf(f, LABEL "%s\n", "input", input);
	fprintf(f, LABEL "%s\n", "kind", gc_kind_name(x->kind));
	if (x->cl->gran == G_BYTE)
		fprintf(f, LABEL "byte (each record's address)\n", "granularity");
	else
		fprintf(f, LABEL "%s (%llu bytes)\n", "granularity", gran_names[x->cl->gran],
			(unsigned long long)(UINT64_C(1) << x->ushift));
	char scope[200];
	scope_text(scope, sizeof scope, x);
	fprintf(f, LABEL "%s\n", "scope", scope);
	if (x->cl->sets > 1)
		fprintf(f, LABEL "%u (%s index), a stack each\n", "sets", x->cl->sets,
			hash_names[x->cl->hash]);
	if (x->sampled) {
		double rate = 1;
		for (size_t i = 0; i < x->nstacks; i++)
			if (gc_rds_rate(&x->stacks[i].s) < rate)
				rate = gc_rds_rate(&x->stacks[i].s);
		fprintf(f, LABEL "sampled (SHARDS, %llu units a stack, lowest rate %.6g)\n", "mode",
			(unsigned long long)x->cl->sample, rate);
	} else {
		fprintf(f, LABEL "exact\n", "mode");
	}
	if (x->shared + x->bypassed)
		fprintf(f, LABEL "%llu (the L1 does not look up %llu: %llu shared memory, "
			"%llu bypassed)\n", "records", (unsigned long long)x->records,
			(unsigned long long)(x->shared + x->bypassed), (unsigned long long)x->shared,
			(unsigned long long)x->bypassed);
	else
		fprintf(f, LABEL "%llu\n", "records", (unsigned long long)x->records);
	fprintf(f, LABEL "%llu\n", "references", (unsigned long long)x->refs);
	fprintf(f, LABEL "%.0f (%.2f%%)\n", "compulsory", h->inf, 100 * frac(h->inf, h->total));
	fprintf(f, "histogram\n  %14s  %12s  %10s  %10s\n", "distance", "references", "fraction",
		"cumulative");
	struct bin *b;
	size_t n = display_bins(x, h, &b);
	double acc = 0;
	for (size_t i = 0; i < n; i++) {
		acc += b[i].count;
		fmt_range(buf, sizeof buf, &b[i]);
		fprintf(f, "  %14s  %12.0f  %10.4f  %10.4f\n", buf, b[i].count,
			frac(b[i].count, h->total), frac(acc, h->total));
	}
	free(b);
	fprintf(f, "miss-ratio curve (fully associative LRU)\n  %14s  %12s  %10s\n", "lines",
		"misses", "miss ratio");
	uint64_t sz[140];
	size_t ns = mrc_sizes(x, sz, 140);
	for (size_t i = 0; i < ns; i++) {
		double m = gc_rd_hist_ge(h, sz[i]);
		fprintf(f, "  %14llu  %12.0f  %10.4f\n", (unsigned long long)sz[i], m,
			frac(m, h->total));
	}
	if (x->clines) {
		struct cut c = cut_at(x, h);
		report_cache(f, x);
		fprintf(f, LABEL "hits %.0f, misses %.0f (compulsory %.0f, capacity %.0f), "
			"hit rate %.4f\n", "  LRU", c.hits, c.misses, c.compulsory, c.capacity,
			frac(c.hits, h->total));
		if (isnan(c.sdcm))
			fprintf(f, LABEL "-%s\n", "  SDCM",
				x->cl->sets > 1 ? " (the distances are per set)" : "");
		else
			fprintf(f, LABEL "hit rate %.4f\n", "  SDCM", c.sdcm);
	}
	if (x->cl->nby)
		report_groups(f, x);
}

/* ---- CSV -------------------------------------------------------------------------- */

static void csv_hist(FILE *f, const struct rd *x)
{
	const gc_rd_hist *h = &x->all;
	struct bin *b;
	size_t n = display_bins(x, h, &b);
	double acc = 0;
	char lo[32], hi[32];
	fprintf(f, "lo,hi,references,fraction,cumulative\n");
	for (size_t i = 0; i < n; i++) {
		acc += b[i].count;
		fmt_dist(lo, sizeof lo, b[i].lo);
		fmt_dist(hi, sizeof hi, b[i].hi);
		fprintf(f, "%s,%s,%.0f,%.6f,%.6f\n", lo, hi, b[i].count, frac(b[i].count, h->total),
			frac(acc, h->total));
	}
	free(b);
}

static void csv_groups(FILE *f, const struct rd *x)
{
	row_keys(f, x, NULL, 1);
	fprintf(f, ",references,compulsory,median,p90%s\n",
		x->clines ? ",lru_hits,lru_hit_rate,sdcm_hit_rate" : "");
	for (size_t i = 0; i < gc_rowmap_count(&x->groups); i++) {
		const struct group *g = group_at(x, i);
		char med[24], p90[24];
		row_keys(f, x, g, 1);
		fmt_dist(med, sizeof med, gc_rd_hist_quantile(&g->h, 0.5));
		fmt_dist(p90, sizeof p90, gc_rd_hist_quantile(&g->h, 0.9));
		fprintf(f, ",%.0f,%.0f,%s,%s", g->h.total, g->h.inf, med, p90);
		if (x->clines) {
			struct cut c = cut_at(x, &g->h);
			fprintf(f, ",%.0f,%.6f,", c.hits, frac(c.hits, g->h.total));
			if (!isnan(c.sdcm))
				fprintf(f, "%.6f", c.sdcm);
		}
		fputc('\n', f);
	}
}

/* Every size from 1 to the largest finite distance + 1 (beyond it the
 * curve is flat at the compulsory misses): one pass over the cells. */
static void csv_mrc(FILE *f, const struct rd *x)
{
	const gc_rd_hist *h = &x->all;
	double ge = h->total; /* references of distance >= n, for n = 1 ... */
	fprintf(f, "lines,misses,miss_rate\n");
	size_t it = 0;
	uint64_t lo, hi, n = 1;
	double c;
	double exact0 = h->nexact ? h->exact[0] : 0;
	ge -= exact0;
	uint64_t top = h->finite ? h->maxd + 1 : 1;
	while (gc_rd_hist_next(h, &it, &lo, &hi, &c)) {
		if (lo == 0)
			continue;
		/* sizes n <= lo have every reference of this cell as a miss */
		if (lo == hi) {
			for (; n <= lo; n++)
				fprintf(f, "%llu,%.0f,%.6f\n", (unsigned long long)n, ge, frac(ge, h->total));
		} else {
			/* a bin (sampled histograms only): its lower end */
			for (; n <= lo; n = n < lo ? lo : n + 1)
				fprintf(f, "%llu,%.0f,%.6f\n", (unsigned long long)n, ge, frac(ge, h->total));
		}
		ge -= c;
	}
	if (n <= top)
		fprintf(f, "%llu,%.0f,%.6f\n", (unsigned long long)n, ge, frac(ge, h->total));
}

/* ---- JSON ------------------------------------------------------------------------- */

static void json_cut(gc_json *j, const struct rd *x, const gc_rd_hist *h)
{
	struct cut c = cut_at(x, h);
	gc_json_num(j, "lru_hits", c.hits);
	gc_json_num(j, "lru_misses", c.misses);
	gc_json_num(j, "compulsory", c.compulsory);
	gc_json_num(j, "capacity", c.capacity);
	gc_json_num(j, "lru_hit_rate", frac(c.hits, h->total));
	if (isnan(c.sdcm))
		gc_json_null(j, "sdcm_hit_rate");
	else
		gc_json_num(j, "sdcm_hit_rate", c.sdcm);
}

static void json_dist(gc_json *j, const char *key, uint64_t d)
{
	if (d == GC_RD_INF)
		gc_json_null(j, key);
	else
		gc_json_u64(j, key, d);
}

/* The cache object's own keys: the cut-off shown, where it comes from,
 * and every cut-off used when the kernels' L1s differ. */
static void json_cache(gc_json *j, const struct rd *x)
{
	gc_json_u64(j, "lines", x->clines);
	gc_json_u64(j, "ways", x->ways);
	gc_json_u64(j, "sets", x->cl->sets);
	gc_json_u64(j, "cut_off", x->clines / x->cl->sets);
	gc_json_str(j, "from", x->cache_from_gpu ? "gpu" : "options");
	if (cuts_used(x) <= 1)
		return;
	gc_json_arr(j, "cut_offs");
	for (unsigned i = 0; i < x->tall.np; i++) {
		const struct cfg *g = &x->cfgs[i];
		if (!x->tall.p[i].refs)
			continue;
		gc_json_obj(j, NULL);
		gc_json_u64(j, "lines", g->lines);
		gc_json_u64(j, "ways", g->ways);
		gc_json_u64(j, "size", g->bytes);
		gc_json_u64(j, "references", x->tall.p[i].refs);
		gc_json_num(j, "lru_hits", x->tall.p[i].hits);
		gc_json_close(j);
	}
	gc_json_close(j);
}

/* "kernels": each launch, with its cut-off when there is a cache. */
static void json_kernels(gc_json *j, const struct rd *x)
{
	gc_json_arr(j, "kernels");
	for (size_t i = 0; i < x->nl; i++) {
		const struct launch *l = &x->lv[i];
		const struct cfg *g = &x->cfgs[l->cfg];
		gc_json_obj(j, NULL);
		gc_json_u64(j, "id", l->id);
		gc_json_str(j, "name", l->name);
		gc_json_u64(j, "launch", i + 1);
		gc_json_u64(j, "references", l->refs);
		if (g->lines) {
			if (x->cache_from_gpu)
				gc_json_u64(j, "l1_size", g->bytes);
			gc_json_u64(j, "lines", g->lines);
			gc_json_u64(j, "ways", g->ways);
			gc_json_num(j, "lru_hits", l->hits);
			gc_json_num(j, "lru_hit_rate", frac(l->hits, (double)l->refs));
		}
		gc_json_close(j);
	}
	gc_json_close(j);
}

/* A row's keys, in the order of --by (kernel once). */
static void json_row_keys(gc_json *j, const struct rd *x, const struct group *g)
{
	int kernel_done = 0;
	for (int i = 0; i < x->cl->nby; i++) {
		switch (x->cl->by[i]) {
		case BY_SM: gc_json_u64(j, "sm", g->sm); break;
		case BY_KERNEL:
			gc_json_u64(j, "launch", g->launch);
			if (!kernel_done)
				gc_json_u64(j, "kernel", g->kernel);
			kernel_done = 1;
			break;
		default:
			if (!kernel_done && !has_by(x->cl, BY_KERNEL))
				gc_json_u64(j, "kernel", g->kernel);
			kernel_done = 1;
			char pc[24];
			snprintf(pc, sizeof pc, "0x%llx", (unsigned long long)g->pc);
			gc_json_str(j, "pc", pc);
		}
	}
}

static void json(FILE *f, const struct rd *x, const char *input)
{
	const gc_rd_hist *h = &x->all;
	gc_json j;
	gc_json_begin(&j, f);
	gc_json_str(&j, "tool", "gc-rd");
	gc_json_str(&j, "input", input);
	gc_json_str(&j, "kind", gc_kind_name(x->kind));
	gc_json_str(&j, "granularity", gran_names[x->cl->gran]);
	gc_json_u64(&j, "unit_bytes", UINT64_C(1) << x->ushift);
	gc_json_str(&j, "scope", x->scope_l1 ? "l1" : "stream");
	gc_json_str(&j, "stacks", x->per_sm ? "sm" : "one");
	gc_json_str(&j, "kernel_boundary", x->flush ? "flush" : "keep");
	gc_json_u64(&j, "sets", x->cl->sets);
	gc_json_str(&j, "index", hash_names[x->cl->hash]);
	gc_json_bool(&j, "sampled", x->sampled);
	if (x->sampled) {
		double rate = 1;
		for (size_t i = 0; i < x->nstacks; i++)
			if (gc_rds_rate(&x->stacks[i].s) < rate)
				rate = gc_rds_rate(&x->stacks[i].s);
		gc_json_u64(&j, "sample", x->cl->sample);
		gc_json_num(&j, "rate", rate);
	}
	gc_json_u64(&j, "records", x->records);
	gc_json_u64(&j, "shared", x->shared);
	gc_json_u64(&j, "bypassed", x->bypassed);
	gc_json_u64(&j, "references", x->refs);
	gc_json_num(&j, "compulsory", h->inf);
	json_dist(&j, "max_distance", h->finite ? h->maxd : GC_RD_INF);
	json_dist(&j, "median", gc_rd_hist_quantile(h, 0.5));
	gc_json_arr(&j, "histogram");
	struct bin *b;
	size_t n = display_bins(x, h, &b);
	double acc = 0;
	for (size_t i = 0; i < n; i++) {
		acc += b[i].count;
		gc_json_obj(&j, NULL);
		json_dist(&j, "lo", b[i].lo);
		json_dist(&j, "hi", b[i].hi);
		gc_json_num(&j, "references", b[i].count);
		gc_json_num(&j, "cumulative", frac(acc, h->total));
		gc_json_close(&j);
	}
	free(b);
	gc_json_close(&j);
	gc_json_arr(&j, "mrc");
	uint64_t sz[140];
	size_t ns = mrc_sizes(x, sz, 140);
	for (size_t i = 0; i < ns; i++) {
		double m = gc_rd_hist_ge(h, sz[i]);
		gc_json_obj(&j, NULL);
		gc_json_u64(&j, "lines", sz[i]);
		gc_json_num(&j, "misses", m);
		gc_json_num(&j, "miss_rate", frac(m, h->total));
		gc_json_close(&j);
	}
	gc_json_close(&j);
	if (x->clines) {
		gc_json_obj(&j, "cache");
		json_cache(&j, x);
		json_cut(&j, x, h);
		gc_json_close(&j);
	} else {
		gc_json_null(&j, "cache");
	}
	json_kernels(&j, x);
	if (x->cl->nby) {
		gc_json_arr(&j, "by");
		for (int i = 0; i < x->cl->nby; i++)
			gc_json_str(&j, NULL, by_names[x->cl->by[i]]);
		gc_json_close(&j);
		gc_json_arr(&j, "breakdown");
		for (size_t i = 0; i < gc_rowmap_count(&x->groups); i++) {
			const struct group *g = group_at(x, i);
			gc_json_obj(&j, NULL);
			json_row_keys(&j, x, g);
			gc_json_num(&j, "references", g->h.total);
			gc_json_num(&j, "compulsory", g->h.inf);
			json_dist(&j, "median", gc_rd_hist_quantile(&g->h, 0.5));
			json_dist(&j, "p90", gc_rd_hist_quantile(&g->h, 0.9));
			if (x->clines)
				json_cut(&j, x, &g->h);
			gc_json_close(&j);
		}
		gc_json_close(&j);
	}
	gc_json_end(&j);
}

/* ---- the picture ------------------------------------------------------------------- */

#define PW 860.0          /* picture */
#define PH 800.0
#define PL 90.0           /* plot area left, right */
#define PR 830.0
#define H_TOP 60.0        /* histogram panel */
#define H_BOT 320.0
#define M_TOP 470.0       /* miss-ratio panel */
#define M_BOT 730.0

static void axis_label(FILE *f, double x, double y, const char *s)
{
	gc_svg_text(f, x, y, "middle", 13, 0, "axis-label", s);
}

/* The unit of the distances and sizes: "lines of 128 B", "sectors of
 * 32 B" or "bytes". */
static void unit_name(const struct rd *x, char *buf, size_t len)
{
	if (x->cl->gran == G_BYTE)
		snprintf(buf, len, "bytes");
	else
		snprintf(buf, len, "%s of %llu B", x->cl->gran == G_LINE ? "lines" : "sectors",
			 (unsigned long long)(UINT64_C(1) << x->ushift));
}

/* The y axis of a panel from 0 to at least ymax: ticks at a round step
 * (1, 2 or 5 times a power of ten, plot.h's rule); returns the top. */
static double y_axis(FILE *f, double ymax, double top, double bot, int pct)
{
	gc_plot_axis a;
	char lab[64];
	gc_plot_axis_num(&a, NULL, 0, ymax, 0);
	for (int t = 0; t < a.nticks; t++) {
		double y = bot - (bot - top) * a.ticks[t] / a.hi;
		if (pct)
			snprintf(lab, sizeof lab, "%.2f", a.ticks[t]);
		else
			gc_plot_num(a.ticks[t], lab, sizeof lab);
		gc_svg_line(f, PL - 5, y, PL, y, "black", 1, NULL, "tick");
		gc_svg_text(f, PL - 8, y + 4, "end", 11, 0, "tick-label", lab);
	}
	return a.hi;
}

/* The cut-off's label above a panel (top), beside the line at px: right
 * of it when it fits in the picture, else left of it, never across it. */
static void cut_label(FILE *f, double px, double top, const char *text)
{
	double w = gc_plot_text_width(11, text);
	if (px + 4 + w <= PW - 8)
		gc_svg_text(f, px + 4, top - 6, "start", 11, 0, "cutoff-label", text);
	else if (px - 4 - w >= 8)
		gc_svg_text(f, px - 4, top - 6, "end", 11, 0, "cutoff-label", text);
	else
		gc_svg_text(f, PW - 8, top - 6, "end", 11, 0, "cutoff-label", text);
}

/* A power of two as a tick label: 512, 1Ki, 2Mi, 4Gi. */
static void pow2_label(char *buf, size_t len, unsigned k)
{
	static const char *const suf[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
	unsigned g = k >= 10 ? k / 10 : 0;
	snprintf(buf, len, "%llu%s", (unsigned long long)(UINT64_C(1) << (k - 10 * g)), suf[g]);
}

static void plot_hist(FILE *f, const struct rd *x)
{
	const gc_rd_hist *h = &x->all;
	struct bin *b;
	size_t n = display_bins(x, h, &b);
	char buf[160], lab[64], unit[64];
	double ymax = 0;
	for (size_t i = 0; i < n; i++)
		if (frac(b[i].count, h->total) > ymax)
			ymax = frac(b[i].count, h->total);
	if (!(ymax > 0))
		ymax = 1;
	unit_name(x, unit, sizeof unit);
	gc_svg_text(f, PW / 2, H_TOP - 25, "middle", 16, 0, "title",
		    "Reuse distance histogram");
	gc_svg_line(f, PL, H_BOT, PR, H_BOT, "black", 1, NULL, "axis");
	gc_svg_line(f, PL, H_TOP, PL, H_BOT, "black", 1, NULL, "axis");
	ymax = y_axis(f, ymax, H_TOP, H_BOT, 0);
	/* below the slanted bar labels (up to 2^31-2^32-1, about 60 units down) */
	snprintf(buf, sizeof buf, "reuse distance (distinct %s in between)", unit);
	axis_label(f, PL + (PR - PL) / 2, H_BOT + 80, buf);
	gc_svg_text(f, 25, (H_TOP + H_BOT) / 2, "middle", 13, -90, "axis-label",
		    "fraction of references");
	double slot = n ? (PR - PL) / (double)n : 0;
	double cut_x = -1;
	for (size_t i = 0; i < n; i++) {
		double fr = frac(b[i].count, h->total);
		double bh = (H_BOT - H_TOP) * fr / ymax;
		double x0 = PL + slot * (double)i;
		int miss = x->clines && b[i].lo >= x->clines;
		const char *fill = b[i].lo == GC_RD_INF ? "#7f7f7f" : !x->clines ? "#4c72b0"
				   : miss ? "#c44e52" : "#4c72b0";
		fmt_range(lab, sizeof lab, &b[i]);
		snprintf(buf, sizeof buf, "distance %s: %.0f references (%.2f%%)", lab, b[i].count,
			 100 * fr);
		gc_svg_rect(f, x0 + slot * 0.1, H_BOT - bh, slot * 0.8, bh, fill, "bar", buf);
		gc_svg_text(f, x0 + slot / 2, H_BOT + 14, "end", 10, -45, "bar-label",
			    b[i].lo == GC_RD_INF ? "\xe2\x88\x9e" : lab);
		/* the cut-off: where distance == cache lines begins */
		if (x->clines && cut_x < 0 && b[i].hi != GC_RD_INF && b[i].lo <= x->clines &&
		    x->clines <= b[i].hi)
			cut_x = x0 + slot * (double)(x->clines - b[i].lo) /
					     (double)(b[i].hi - b[i].lo + 1);
		else if (x->clines && cut_x < 0 && b[i].lo > x->clines)
			cut_x = x0;
	}
	if (x->clines) {
		if (cut_x < 0)
			cut_x = n && b[n - 1].lo == GC_RD_INF ? PL + slot * (double)(n - 1) : PR;
		gc_svg_line(f, cut_x, H_TOP, cut_x, H_BOT, "black", 1.5, "6,4", "cutoff");
		snprintf(buf, sizeof buf, "cache of %llu lines: hits left, misses right",
			 (unsigned long long)x->clines);
		cut_label(f, cut_x, H_TOP, buf);
	}
	free(b);
}

static void plot_mrc(FILE *f, const struct rd *x)
{
	const gc_rd_hist *h = &x->all;
	char lab[64], buf[200], unit[64];
	uint64_t top = h->finite ? h->maxd + 1 : 1;
	if (x->clines > top)
		top = x->clines;
	unsigned kmax = 63u - (unsigned)__builtin_clzll(top) + (top & (top - 1) ? 1 : 0);
	if (kmax == 0)
		kmax = 1;
	double span = (double)kmax;
	unit_name(x, unit, sizeof unit);
	gc_svg_text(f, PW / 2, M_TOP - 25, "middle", 16, 0, "title",
		    "Miss-ratio curve (fully associative LRU)");
	gc_svg_line(f, PL, M_BOT, PR, M_BOT, "black", 1, NULL, "axis");
	gc_svg_line(f, PL, M_TOP, PL, M_BOT, "black", 1, NULL, "axis");
	y_axis(f, 1, M_TOP, M_BOT, 1);
	unsigned step = kmax > 16 ? (kmax + 15) / 16 : 1;
	for (unsigned k = 0; k <= kmax; k += step) {
		double px = PL + (PR - PL) * k / span;
		pow2_label(lab, sizeof lab, k);
		gc_svg_line(f, px, M_BOT, px, M_BOT + 5, "black", 1, NULL, "tick");
		gc_svg_text(f, px, M_BOT + 18, "middle", 11, 0, "tick-label", lab);
	}
	snprintf(buf, sizeof buf, "cache size (%s, log scale)", unit);
	axis_label(f, PL + (PR - PL) / 2, M_BOT + 40, buf);
	gc_svg_text(f, 25, (M_TOP + M_BOT) / 2, "middle", 13, -90, "axis-label", "miss ratio");
	/* 16 points an octave (each size once), as steps. */
	size_t cap = (size_t)kmax * 16 + 8, np = 0;
	double *xy = gc_xrealloc(NULL, 2 * 2 * cap * sizeof *xy);
	uint64_t prev = 0;
	double prev_y = M_TOP;
	for (unsigned i = 0; i <= kmax * 16; i++) {
		uint64_t s = (uint64_t)llround(pow(2.0, i / 16.0));
		if (s <= prev)
			continue;
		double px = PL + (PR - PL) * log2((double)s) / span;
		double py = M_BOT - (M_BOT - M_TOP) * frac(gc_rd_hist_ge(h, s), h->total);
		if (np) { /* the step */
			xy[2 * np] = px;
			xy[2 * np + 1] = prev_y;
			np++;
		}
		xy[2 * np] = px;
		xy[2 * np + 1] = py;
		np++;
		prev = s;
		prev_y = py;
	}
	gc_svg_polyline(f, xy, np, "#4c72b0", 2, "mrc");
	free(xy);
	if (x->clines) {
		double px = PL + (PR - PL) * log2((double)x->clines) / span;
		struct cut c = cut_at(x, h);
		gc_svg_line(f, px, M_TOP, px, M_BOT, "black", 1.5, "6,4", "cutoff");
		snprintf(buf, sizeof buf, "%llu lines: LRU miss ratio %.3f, SDCM (%llu-way) %.3f",
			 (unsigned long long)x->clines, frac(c.misses, h->total),
			 (unsigned long long)x->ways, 1 - c.sdcm);
		cut_label(f, px, M_TOP, buf);
	}
}

static void plot(const struct rd *x, const char *path, const char *input)
{
	FILE *f = gc_open_text(path);
	char title[300];
	snprintf(title, sizeof title, "gc-rd: reuse distances of %s", input);
	gc_svg_begin(f, PW, PH, title);
	plot_hist(f, x);
	plot_mrc(f, x);
	gc_svg_end(f);
	gc_close_text(f, path);
}

/* ---- main ------------------------------------------------------------------------------ */

static gc_writer *open_annotated(const struct cmdline *cl, const struct rd *x, gc_header *oh)
{
	char v[32];
	if (gc_header_copy(oh, x->h) < 0)
		gc_die(GC_EXIT_DATA, "out of memory");
	oh->optional |= GC_OPT_DISTANCE;
	if (oh->record_size < GC_RECORD_DISTANCE)
		oh->record_size = GC_RECORD_DISTANCE;
	snprintf(v, sizeof v, "%llu", (unsigned long long)(UINT64_C(1) << x->ushift));
	if (gc_header_add_provenance(oh, gc_cmdline()) < 0 ||
	    gc_header_set(oh, "rd_gran", gran_names[cl->gran]) < 0 ||
	    gc_header_set(oh, "rd_unit", v) < 0 ||
	    gc_header_set(oh, "rd_scope", x->scope_l1 ? "l1" : "stream") < 0 ||
	    gc_header_set(oh, "rd_stacks", x->per_sm ? "sm" : "one") < 0 ||
	    gc_header_set(oh, "rd_kernel_boundary", x->flush ? "flush" : "keep") < 0)
		gc_die(GC_EXIT_DATA, "output header: too many keys");
	snprintf(v, sizeof v, "%u", cl->sets);
	if (gc_header_set(oh, "rd_sets", v) < 0)
		gc_die(GC_EXIT_DATA, "output header: too many keys");
	return gc_open_output(&cl->c, oh);
}

static void rd_free(struct rd *x)
{
	for (size_t i = 0; i < x->nstacks; i++) {
		if (x->sampled)
			gc_rds_free(&x->stacks[i].s);
		else
			gc_rd_free(&x->stacks[i].s.st);
	}
	free(x->stacks);
	for (size_t i = 0; i < gc_rowmap_count(&x->groups); i++) {
		gc_rd_hist_free(&group_at(x, i)->h);
		tally_free(&group_at(x, i)->t);
	}
	gc_rowmap_free(&x->groups);
	gc_rd_hist_free(&x->all);
	tally_free(&x->tall);
	gc_hmap_free(&x->skeys);
	gc_hmap_free(&x->tuples);
	gc_hmap_free(&x->pcids);
	for (size_t i = 0; i < x->nl; i++)
		free(x->lv[i].name);
	free(x->lv);
	free(x->cfgs);
}

int main(int argc, char **argv)
{
	struct cmdline cl;
	struct rd x;
	gc_rec rec, batch[BATCH + 1];
	int nb = 0;
	gc_header oh;
	gc_writer *w = NULL;

	gc_prog_init("gc-rd", argc, argv);
	parse_cmdline(argc, argv, &cl);
	gc_reader *r = gc_open_stream(cl.input);
	rd_init(&x, &cl, r);
	if (cl.mode == M_ANNOTATE)
		w = open_annotated(&cl, &x, &oh);

	for (;;) {
		int ev = gc_read(r, &batch[nb]), rc = 0;
		if (ev == GC_DATA) {
			prefetch(&x, &batch[nb]);
			if (++nb < BATCH)
				continue;
		}
		for (int i = 0; i < nb; i++) {
			record(&x, &batch[i]);
			if (w && gc_write(w, &batch[i]) < 0)
				gc_die(GC_EXIT_DATA, "%s", gc_writer_error(w));
		}
		if (ev == GC_DATA) {
			nb = 0;
			continue;
		}
		rec = batch[nb];
		nb = 0;
		if (ev == GC_KBEGIN) {
			kernel_begin(&x, gc_reader_kernel(r));
			if (w)
				rc = gc_write_kbegin(w, gc_reader_kernel(r));
		} else if (ev == GC_KEND) {
			if (w && (rc = gc_write_opcodes(w, gc_reader_opcodes(r))) == 0)
				rc = gc_write_kend(w, rec.kernel);
		} else if (ev == GC_EOF) {
			break;
		} else {
			gc_progress_end(cl.c.progress);
			gc_writer_abandon(w);
			gc_die(GC_EXIT_DATA, "%s", gc_reader_error(r));
		}
		if (rc < 0) {
			gc_progress_end(cl.c.progress);
			gc_die(GC_EXIT_DATA, "%s", gc_writer_error(w));
		}
		if (cl.c.progress)
			gc_progress_reader(1, r);
	}
	gc_progress_end(cl.c.progress);
	finish(&x);
	const char *input = gc_reader_name(r);

	if (w) {
		gc_close_output(w);
		gc_header_free(&oh);
	} else {
		FILE *out = gc_open_text(cl.c.out);
		if (cl.mode == M_JSON)
			json(out, &x, input);
		else if (cl.mode == M_CSV && cl.nby)
			csv_groups(out, &x);
		else if (cl.mode == M_CSV)
			csv_hist(out, &x);
		else if (cl.mode == M_MRC)
			csv_mrc(out, &x);
		else
			report(out, &x, input);
		gc_close_text(out, cl.c.out);
	}
	if (cl.c.verbose && cl.mode != M_REPORT)
		report(stderr, &x, input);
	if (cl.c.stats) {
		FILE *f = gc_open_text(cl.c.stats);
		json(f, &x, input);
		gc_close_text(f, cl.c.stats);
	}
	if (cl.plot)
		plot(&x, cl.plot, input);

	rd_free(&x);
	gc_reader_close(r);
	return 0;
}
