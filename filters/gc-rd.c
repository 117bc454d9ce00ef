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
#include "model/rd.h"
#include "model/sdcm.h"
#include "prog/gpuopt.h"
#include "prog/prog.h"
#include "report/json.h"
#include "report/plot.h"
#include "report/svg.h"

#include <math.h>
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
	"      --by KEY         sm (a stack per SM), kernel (a stack per launch) or pc\n"
	"      --sets N         a stack per cache set of N sets\n"
	"      --hash F         set index: L linear, X xor, H fermi, P ipoly (default L)\n"
	"      --ways A         the cache for SDCM and the cut-off: A ways ...\n"
	"      --lines B        ... of B lines in all (default: gpu.l1 with --gpu)\n"
	"      --exact N        list distances below N one by one, then log2 bins (default 16)\n"
	"      --json           print one JSON object instead of the report\n"
	"      --csv            print the histogram (or the --by breakdown) as CSV\n"
	"      --mrc            print the miss-ratio curve for every size as CSV\n"
	"      --plot FILE      draw the histogram and the miss-ratio curve as SVG\n"
	"      --annotate       pass the stream on with each record's distance\n"
	"      --sample N       SHARDS sampling: at most N sampled units per stack\n"
	"      --gpu NAME|FILE  GPU preset or file (line size and L1 cache)\n"
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
	OPT_GRAN = GC_OPT_TOOL, OPT_LINE, OPT_SECTOR, OPT_BY, OPT_SETS, OPT_HASH, OPT_WAYS,
	OPT_LINES, OPT_EXACT, OPT_JSON, OPT_CSV, OPT_MRC, OPT_PLOT, OPT_ANNOTATE, OPT_SAMPLE,
};
enum gran { G_LINE, G_SECTOR, G_BYTE };
static const char *const gran_names[] = {"line", "sector", "byte"};
enum by { BY_NONE, BY_SM, BY_KERNEL, BY_PC };
static const char *const by_names[] = {"global", "sm", "kernel", "pc"};
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
	enum by by;
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

/* One row of --by. */
struct group {
	uint64_t key;
	uint32_t kernel;       /* kernel id (kernel, pc) */
	uint64_t launch;       /* launch ordinal (kernel) */
	uint64_t refs;
	gc_rd_hist h;
};

struct rd {
	const struct cmdline *cl;
	const gc_header *h;
	int kind;
	unsigned lshift, sshift, ushift; /* line, sector, unit */
	uint64_t line, sector;
	int sampled;

	/* stacks: by set (direct), or by (sm, set) through a map */
	struct stack *stacks;
	size_t nstacks, scap;
	gc_hmap skeys;
	uint64_t prev_skey;
	struct stack *prev_stack;

	/* histograms */
	gc_rd_hist all;
	uint64_t records, refs, norefs;
	gc_rowmap groups;     /* --by key -> struct group */
	uint64_t launches;
	uint32_t kernel;

	/* the cache of the cut-off and of SDCM (0: none) */
	uint64_t ways, clines;
	int cache_from_gpu;
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

static void parse_cmdline(int argc, char **argv, struct cmdline *cl)
{
	static const struct option longopts[] = {
		GC_COMMON_LONGOPTS,
		{"gran", required_argument, NULL, OPT_GRAN},
		{"line", required_argument, NULL, OPT_LINE},
		{"sector", required_argument, NULL, OPT_SECTOR},
		{"by", required_argument, NULL, OPT_BY},
		{"sets", required_argument, NULL, OPT_SETS},
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
		{NULL, 0, NULL, 0},
	};
	int c, i, nmodes = 0, hash_given = 0;
	memset(cl, 0, sizeof *cl);
	cl->sets = 1;
	cl->exact = 16;
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
		case OPT_BY:
			if ((i = pick(optarg, by_names, 4)) <= 0)
				gc_usage_error("--by: '%s' is not sm, kernel or pc", optarg);
			cl->by = (enum by)i;
			break;
		case OPT_SETS: cl->sets = (unsigned)gc_num("--sets", optarg, 1, SETS_MAX); break;
		case OPT_HASH:
			if ((cl->hash = parse_hash(optarg)) < 0)
				gc_usage_error("--hash: '%s' is not L, X, H or P", optarg);
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
		gc_usage_error("--hash needs --sets");
	if (cl->ways && cl->lines) {
		char why[160];
		if (gc_sdcm_check(cl->ways, cl->lines, why, sizeof why) < 0)
			gc_usage_error("--ways %llu --lines %llu: %s", (unsigned long long)cl->ways,
				       (unsigned long long)cl->lines, why);
	}
	if (cl->ways && !cl->lines)
		gc_usage_error("--ways needs --lines");
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

static void rd_init(struct rd *x, const struct cmdline *cl, const gc_reader *r)
{
	memset(x, 0, sizeof *x);
	x->cl = cl;
	x->h = gc_reader_header(r);
	x->kind = x->h->kind;
	x->sampled = cl->sample != 0;

	/* Sizes: the options, the header's keys, the GPU's L1, defaults. */
	gc_gpu_config gpu;
	int have_gpu = cl->c.gpu || has_gpu_keys(x->h);
	if (have_gpu) {
		gc_gpu_for_stream(&gpu, cl->c.gpu, x->h);
		gc_gpu_config_finish(&gpu);
	}
	uint64_t hl = header_size(r, "line_size", "--line");
	uint64_t hs = header_size(r, "sector_size", "--sector");
	x->line = cl->line ? cl->line : hl ? hl : have_gpu ? gpu.l1.line : 128;
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
			gc_usage_error("--sets %u --hash %s: %s", cl->sets, hash_names[cl->hash], why);
	}

	/* The cache: --ways/--lines, else the GPU's L1. */
	if (cl->lines) {
		x->clines = cl->lines;
		x->ways = cl->ways ? cl->ways : cl->lines;
	} else if (have_gpu && gpu.l1.size / gpu.l1.line > 0) {
		x->clines = gpu.l1.size / gpu.l1.line;
		x->ways = gpu.l1.ways <= x->clines ? gpu.l1.ways : x->clines;
		x->cache_from_gpu = 1;
		char why[200];
		if (gc_sdcm_check(x->ways, x->clines, why, sizeof why) < 0)
			gc_usage_error("the GPU's L1 (%llu lines, %llu ways): %s (--lines and "
				       "--ways override it)", (unsigned long long)x->clines,
				       (unsigned long long)x->ways, why);
	}

	gc_rd_hist_init(&x->all, x->sampled ? SAMPLED_BOUND : 0);
	gc_hmap_init(&x->skeys, 0);
	gc_rowmap_init(&x->groups, sizeof(struct group), 64);
	if (cl->by != BY_SM) {
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

/* The stack of (sm, set) with --by sm; pointers move when the array
 * grows, so the map holds indices. */
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

/* Row i of --by, in order of first appearance. */
static inline struct group *group_at(const struct rd *x, size_t i)
{
	return (struct group *)gc_rowmap_rows(&x->groups) + i;
}

static struct group *group_for(struct rd *x, const gc_rec *rec)
{
	uint64_t key;
	switch (x->cl->by) {
	case BY_SM: key = rec->sm; break;
	case BY_KERNEL: key = x->launches; break;
	default: key = (uint64_t)rec->kernel << 32 | rec->pc; break;
	}
	int added;
	struct group *g = gc_rowmap_row(&x->groups, key, &added);
	if (!g)
		gc_die(GC_EXIT_DATA, "out of memory");
	if (added) {
		g->key = key;
		g->kernel = rec->kernel;
		g->launch = x->launches;
		gc_rd_hist_init(&g->h, GROUP_BOUND);
	}
	return g;
}

static void kernel_begin(struct rd *x, const gc_kernel *k)
{
	x->launches++;
	x->kernel = k->id;
	if (x->cl->by == BY_KERNEL && x->records)
		reset_stacks(x);
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
	if (x->cl->by == BY_SM)
		s = sm_stack(x, (uint64_t)rec->sm * x->cl->sets + set);
	else
		s = &x->stacks[set];
	uint64_t d;
	double w = 1.0;
	x->refs++;
	if (g)
		g->refs++;
	if (x->sampled) {
		int rc = gc_rds_ref(&s->s, u, &d, &w);
		if (rc < 0)
			oom();
		if (rc == 0)
			return;
	} else if (gc_rd_ref(&s->s.st, u, &d) < 0) {
		oom();
	}
	if (gc_rd_hist_add(&x->all, d, w) < 0 || (g && gc_rd_hist_add(&g->h, d, w) < 0))
		oom();
	if (*rdist == GC_RD_NONE || d > *rdist)
		*rdist = d;
}

/* The units of a record: an access's bytes [addr, addr + size); a
 * request's masked sectors (the sector at its address when the mask is
 * empty); at byte granularity, the record's address. */
static void record(struct rd *x, gc_rec *rec)
{
	struct group *g = x->cl->by ? group_for(x, rec) : NULL;
	uint64_t dist = GC_RD_NONE;
	unsigned us = x->ushift;
	x->records++;
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
	if (x->cl->by == BY_SM)
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
 * true number of references at distance 0 (Waldspurger et al. §4.3). */
static void adjust(gc_rd_hist *h, uint64_t refs)
{
	double diff = (double)refs - h->total;
	if (h->nexact == 0 && (gc_rd_hist_add(h, 0, 0) < 0 || gc_rd_hist_flush(h) < 0))
		oom();
	if (h->exact[0] + diff < 0)
		diff = -h->exact[0];
	h->exact[0] += diff;
	h->total += diff;
	if (!h->finite) {
		h->finite = 1;
		h->maxd = 0;
	}
}

static void finish(struct rd *x)
{
	if (gc_rd_hist_flush(&x->all) < 0)
		oom();
	for (size_t i = 0; i < gc_rowmap_count(&x->groups); i++)
		if (gc_rd_hist_flush(&group_at(x, i)->h) < 0)
			oom();
	if (!x->sampled)
		return;
	if (x->refs)
		adjust(&x->all, x->refs);
	for (size_t i = 0; i < gc_rowmap_count(&x->groups); i++) {
		struct group *g = group_at(x, i);
		if (g->refs)
			adjust(&g->h, g->refs);
	}
}

/* ---- figures ---------------------------------------------------------------------- */

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

static struct cut cut_at(const struct rd *x, const gc_rd_hist *h)
{
	struct cut c = {0, 0, 0, 0, 0};
	c.misses = gc_rd_hist_ge(h, x->clines);
	c.hits = h->total - c.misses;
	c.compulsory = h->inf;
	c.capacity = c.misses - h->inf;
	c.sdcm = frac(gc_sdcm_hits(h, x->ways, x->clines), h->total);
	return c;
}

static const char *scope_text(const struct rd *x)
{
	switch (x->cl->by) {
	case BY_SM: return "a stack per SM";
	case BY_KERNEL: return "a stack per kernel launch";
	case BY_PC: return "one stack, distances by PC";
	default: return "one stack";
	}
}

/* ---- text ------------------------------------------------------------------------- */

#define LABEL "%-18s"

static void report_groups(FILE *f, const struct rd *x)
{
	fprintf(f, "\nby %s\n", by_names[x->cl->by]);
	if (x->cl->by == BY_SM)
		fprintf(f, "  %6s", "sm");
	else if (x->cl->by == BY_KERNEL)
		fprintf(f, "  %6s  %10s", "launch", "kernel");
	else
		fprintf(f, "  %10s  %10s", "kernel", "pc");
	fprintf(f, "  %12s  %12s  %10s  %10s", "references", "compulsory", "median", "p90");
	if (x->clines)
		fprintf(f, "  %8s  %8s", "lru-hit", "sdcm-hit");
	fputc('\n', f);
	for (size_t i = 0; i < gc_rowmap_count(&x->groups); i++) {
		const struct group *g = group_at(x, i);
		char med[24], p90[24], pc[24];
		if (x->cl->by == BY_SM) {
			fprintf(f, "  %6llu", (unsigned long long)g->key);
		} else if (x->cl->by == BY_KERNEL) {
			fprintf(f, "  %6llu  %10u", (unsigned long long)g->launch, g->kernel);
		} else {
			snprintf(pc, sizeof pc, "0x%llx", (unsigned long long)(g->key & 0xffffffffu));
			fprintf(f, "  %10u  %10s", g->kernel, pc);
		}
		fmt_dist(med, sizeof med, gc_rd_hist_quantile(&g->h, 0.5));
		fmt_dist(p90, sizeof p90, gc_rd_hist_quantile(&g->h, 0.9));
		fprintf(f, "  %12.0f  %12.0f  %10s  %10s", g->h.total, g->h.inf, med, p90);
		if (x->clines) {
			struct cut c = cut_at(x, &g->h);
			fprintf(f, "  %8.4f  %8.4f", frac(c.hits, g->h.total), c.sdcm);
		}
		fputc('\n', f);
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
	fprintf(f, LABEL "%s\n", "scope", scope_text(x));
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
		fprintf(f, LABEL "%llu lines, %llu ways%s: distance >= %llu misses\n", "cache",
			(unsigned long long)x->clines, (unsigned long long)x->ways,
			x->cache_from_gpu ? " (the GPU's L1)" : "", (unsigned long long)x->clines);
		fprintf(f, LABEL "hits %.0f, misses %.0f (compulsory %.0f, capacity %.0f), "
			"hit rate %.4f\n", "  LRU", c.hits, c.misses, c.compulsory, c.capacity,
			frac(c.hits, h->total));
		fprintf(f, LABEL "hit rate %.4f\n", "  SDCM", c.sdcm);
	}
	if (x->cl->by)
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
	if (x->cl->by == BY_SM)
		fprintf(f, "sm");
	else if (x->cl->by == BY_KERNEL)
		fprintf(f, "launch,kernel");
	else
		fprintf(f, "kernel,pc");
	fprintf(f, ",references,compulsory,median,p90%s\n",
		x->clines ? ",lru_hit_rate,sdcm_hit_rate" : "");
	for (size_t i = 0; i < gc_rowmap_count(&x->groups); i++) {
		const struct group *g = group_at(x, i);
		char med[24], p90[24];
		if (x->cl->by == BY_SM)
			fprintf(f, "%llu", (unsigned long long)g->key);
		else if (x->cl->by == BY_KERNEL)
			fprintf(f, "%llu,%u", (unsigned long long)g->launch, g->kernel);
		else
			fprintf(f, "%u,0x%llx", g->kernel, (unsigned long long)(g->key & 0xffffffffu));
		fmt_dist(med, sizeof med, gc_rd_hist_quantile(&g->h, 0.5));
		fmt_dist(p90, sizeof p90, gc_rd_hist_quantile(&g->h, 0.9));
		fprintf(f, ",%.0f,%.0f,%s,%s", g->h.total, g->h.inf, med, p90);
		if (x->clines) {
			struct cut c = cut_at(x, &g->h);
			fprintf(f, ",%.6f,%.6f", frac(c.hits, g->h.total), c.sdcm);
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
	fprintf(f, "lines,misses,miss_ratio\n");
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
	gc_json_num(j, "sdcm_hit_rate", c.sdcm);
}

static void json_dist(gc_json *j, const char *key, uint64_t d)
{
	if (d == GC_RD_INF)
		gc_json_null(j, key);
	else
		gc_json_u64(j, key, d);
}

static void json(FILE *f, const struct rd *x, const char *input)
{
	const gc_rd_hist *h = &x->all;
	gc_json j;
	gc_json_begin(&j, f);
	gc_json_str(&j, "input", input);
	gc_json_str(&j, "kind", gc_kind_name(x->kind));
	gc_json_str(&j, "granularity", gran_names[x->cl->gran]);
	gc_json_u64(&j, "unit_bytes", UINT64_C(1) << x->ushift);
	gc_json_str(&j, "scope", by_names[x->cl->by]);
	gc_json_u64(&j, "sets", x->cl->sets);
	gc_json_str(&j, "hash", hash_names[x->cl->hash]);
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
		gc_json_num(&j, "miss_ratio", frac(m, h->total));
		gc_json_close(&j);
	}
	gc_json_close(&j);
	if (x->clines) {
		gc_json_obj(&j, "cache");
		gc_json_u64(&j, "lines", x->clines);
		gc_json_u64(&j, "ways", x->ways);
		json_cut(&j, x, h);
		gc_json_close(&j);
	} else {
		gc_json_null(&j, "cache");
	}
	if (x->cl->by) {
		gc_json_str(&j, "by", by_names[x->cl->by]);
		gc_json_arr(&j, "breakdown");
		for (size_t i = 0; i < gc_rowmap_count(&x->groups); i++) {
			const struct group *g = group_at(x, i);
			gc_json_obj(&j, NULL);
			if (x->cl->by == BY_SM) {
				gc_json_u64(&j, "sm", g->key);
			} else if (x->cl->by == BY_KERNEL) {
				gc_json_u64(&j, "launch", g->launch);
				gc_json_u64(&j, "kernel", g->kernel);
			} else {
				gc_json_u64(&j, "kernel", g->kernel);
				gc_json_u64(&j, "pc", g->key & 0xffffffffu);
			}
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
	    gc_header_set(oh, "rd_unit", v) < 0 || gc_header_set(oh, "rd_scope", by_names[cl->by]) < 0)
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
	for (size_t i = 0; i < gc_rowmap_count(&x->groups); i++)
		gc_rd_hist_free(&group_at(x, i)->h);
	gc_rowmap_free(&x->groups);
	gc_rd_hist_free(&x->all);
	gc_hmap_free(&x->skeys);
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
			if (w)
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
		else if (cl.mode == M_CSV && cl.by)
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
