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
 * to the histograms.  The rules, the stacks, the rows of --by and the
 * cut-offs are model/rdprof.h's, over the exact engine of rd.h or SHARDS
 * sampling with --sample; the picture is report/rdplot.h's.
 */
#include "base/bits.h"
#include "config/gpu.h"
#include "model/cache.h"
#include "model/rdprof.h"
#include "model/sdcm.h"
#include "prog/gpuopt.h"
#include "prog/prog.h"
#include "report/json.h"
#include "report/rdplot.h"

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
	"      --prefetches P   count: a cache's prefetches are references (the default);\n"
	"                       exclude: they are not (--annotate: no distance)\n"
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
	OPT_SCOPE, OPT_BOUNDARY, OPT_PREFETCHES,
};
/* The names of GC_RDP_LINE ..., of GC_RDP_SM ... (--by keys, in the order
 * given: a row per combination of their values) and of GC_RDP_AUTO ... */
static const char *const gran_names[] = {"line", "sector", "byte"};
static const char *const by_names[] = {"sm", "kernel", "pc"};
static const char *const scope_names[] = {"auto", "l1", "stream"};
static const char *const pf_names[] = {"count", "exclude"}; /* --prefetches */
enum mode { M_REPORT, M_JSON, M_CSV, M_MRC, M_ANNOTATE };
static const char *const hash_names[] = {"linear", "xor", "fermi", "ipoly"};

#define SETS_MAX (1u << 20)
#define BATCH 32                    /* records read ahead (prefetching) */

struct cmdline {
	gc_common c;
	const char *input;
	int gran;              /* GC_RDP_LINE, ... */
	uint64_t line, sector; /* 0: from the header */
	int by[GC_RDP_NBY];    /* --by keys in order, nby of them */
	int nby;
	int scope;             /* GC_RDP_AUTO, ... */
	int boundary;          /* --kernel-boundary: 1 flush, 0 keep, -1 not given */
	int no_prefetch;       /* --prefetches exclude */
	unsigned sets;
	int hash;
	uint64_t ways, lines;  /* 0: not given */
	uint64_t exact;
	enum mode mode;
	const char *plot;
	uint64_t sample;       /* 0: exact */
};

/* The run: the command line, the stream's header, the profile. */
struct rd {
	const struct cmdline *cl;
	const gc_header *h;
	gc_rdprof e;
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
		int k = pick(buf, by_names, GC_RDP_NBY);
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
		{"prefetches", required_argument, NULL, OPT_PREFETCHES},
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
			cl->gran = i;
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
		case OPT_PREFETCHES:
			if ((cl->no_prefetch = pick(optarg, pf_names, 2)) < 0)
				gc_usage_error("--prefetches: '%s' is not count or exclude", optarg);
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

/* The profile from the command line, the stream's header and the GPU:
 * the rules, the sizes (the options, the header's keys, the GPU's L1,
 * defaults), the cache (--ways/--lines, else each kernel's L1). */
static void rd_init(struct rd *x, const struct cmdline *cl, const gc_reader *r)
{
	char err[4608];
	int have_gpu, rc;
	gc_gpu_config gpu;
	gc_rdp_params p;
	memset(x, 0, sizeof *x);
	memset(&p, 0, sizeof p);
	memset(&gpu, 0, sizeof gpu);
	x->cl = cl;
	x->h = gc_reader_header(r);
	p.kind = x->h->kind;
	p.scope_l1 = gc_rdprof_scope_l1(cl->scope, cl->c.gpu != NULL, x->h, gc_reader_name(r),
					&have_gpu, err, sizeof err);
	if (p.scope_l1 < 0)
		gc_usage_error("%s", err);
	if (have_gpu || p.scope_l1) {
		gc_gpu_for_stream(&gpu, cl->c.gpu, x->h);
		gc_gpu_config_finish(&gpu);
		p.gpu = &gpu;
	}

	uint64_t hl = header_size(r, "line_size", "--line");
	uint64_t hs = header_size(r, "sector_size", "--sector");
	uint64_t line = cl->line ? cl->line : hl ? hl : p.gpu ? gpu.l1.line : 128;
	uint64_t sector = cl->sector ? cl->sector : hs ? hs : 32;
	if (!cl->sector && sector > line && cl->line)
		sector = line; /* --line below the sector size: sectors are lines */
	if (sector > line) {
		if (cl->sector)
			gc_usage_error("the sector size %llu is larger than the line size %llu",
				       (unsigned long long)sector, (unsigned long long)line);
		gc_die(GC_EXIT_DATA, "%s: header: the sector size %llu is larger than the line "
		       "size %llu", gc_reader_name(r), (unsigned long long)sector,
		       (unsigned long long)line);
	}
	if (line / sector > GC_CACHE_SECTORS_MAX && cl->gran == GC_RDP_SECTOR &&
	    p.kind != GC_KIND_ACCESS)
		gc_usage_error("a request's mask holds %u sectors; %llu-byte lines have %llu",
			       GC_CACHE_SECTORS_MAX, (unsigned long long)line,
			       (unsigned long long)(line / sector));
	if (cl->sets > 1) {
		char why[200];
		if (gc_set_index_check(cl->hash, cl->sets, (unsigned)line, why, sizeof why) < 0)
			gc_usage_error("--sets %u --index %s: %s", cl->sets, hash_names[cl->hash], why);
	}

	p.gran = cl->gran;
	p.line = (unsigned)line;
	p.sector = (unsigned)sector;
	memcpy(p.by, cl->by, sizeof p.by);
	p.nby = cl->nby;
	p.boundary = cl->boundary;
	p.sets = cl->sets;
	p.index = cl->hash;
	p.lines = cl->lines;
	p.ways = cl->ways;
	p.sample = cl->sample;
	p.no_prefetch = cl->no_prefetch;
	if ((rc = gc_rdprof_init(&x->e, &p, err, sizeof err)) < 0) {
		if (rc == -2)
			gc_usage_error("%s", err);
		gc_die(GC_EXIT_DATA, "%s", err);
	}
}

/* The rows of the report's histogram: distances below --exact one by one,
 * then log2 bins from --exact up (computed from the stored cells); hi
 * GC_RD_INF: infinity. */
_Static_assert(GC_RDPLOT_INF == GC_RD_INF, "the picture's infinity is rd.h's");

static size_t display_bins(const struct rd *x, const gc_rd_hist *h, gc_rdplot_bin **out)
{
	gc_rdplot_bin *b = NULL;
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
		b[n++] = (gc_rdplot_bin){blo, bhi, c};
	}
	if (h->inf) {
		if (n == cap)
			b = gc_xrealloc(b, (cap = cap + 1) * sizeof *b);
		b[n++] = (gc_rdplot_bin){GC_RD_INF, GC_RD_INF, h->inf};
	}
	*out = b;
	return n;
}

/* Sizes of the report's miss-ratio curve: powers of two up to the first
 * one above the largest finite distance, and the cache's size. */
static size_t mrc_sizes(const struct rd *x, uint64_t *sz, size_t max)
{
	size_t n = 0;
	uint64_t top = x->e.all.finite ? x->e.all.maxd + 1 : 1;
	for (uint64_t s = 1;; s *= 2) {
		if (x->e.clines && x->e.clines < s && (n == 0 || sz[n - 1] < x->e.clines) && n < max)
			sz[n++] = x->e.clines;
		if (n < max)
			sz[n++] = s;
		if (s >= top || s > UINT64_MAX / 2)
			break;
	}
	if (x->e.clines && sz[n - 1] < x->e.clines && n < max)
		sz[n++] = x->e.clines;
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

static void scope_text(char *buf, size_t len, const struct rd *x)
{
	const char *gpu = x->e.gpu.name[0] ? x->e.gpu.name : "the GPU";
	if (x->e.scope_l1)
		snprintf(buf, len, "the L1 of %s: what it looks up, a stack per SM%s", gpu,
			 x->e.flush ? ", emptied at each kernel start" : "");
	else
		snprintf(buf, len, "%s%s", x->e.per_sm ? "a stack per SM" : "one stack",
			 x->e.flush ? ", emptied at each kernel start" : "");
}

/* ---- text ------------------------------------------------------------------------- */

#define LABEL "%-18s"

/* The key columns of a row, in the order of the --by keys (kernel once):
 * csv 1 for CSV, else the report's aligned columns; g NULL: the names. */
static void row_keys(FILE *f, const struct rd *x, const gc_rdp_group *g, int csv)
{
	int kernel_done = 0, first = 1;
	char v[32];
	for (int i = 0; i < x->cl->nby; i++) {
		int k = x->cl->by[i];
		for (int col = 0; col < 2; col++) {
			const char *name = NULL;
			int w = 10;
			if (k == GC_RDP_SM && col == 0) {
				name = "sm";
				w = 6;
				snprintf(v, sizeof v, "%u", g ? g->sm : 0);
			} else if (k == GC_RDP_KERNEL && col == 0) {
				name = "launch";
				w = 6;
				snprintf(v, sizeof v, "%llu", (unsigned long long)(g ? g->launch : 0));
			} else if ((k == GC_RDP_KERNEL || (k == GC_RDP_PC && !gc_rdp_has_by(&x->e.p, GC_RDP_KERNEL))) &&
				   col == (k == GC_RDP_KERNEL) && !kernel_done) {
				name = "kernel";
				kernel_done = 1;
				snprintf(v, sizeof v, "%u", g ? g->kernel : 0);
			} else if (k == GC_RDP_PC && col == 1) {
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
	if (x->e.clines)
		fprintf(f, "  %12s  %8s  %8s", "lru-hits", "lru-hit", "sdcm-hit");
	fputc('\n', f);
	for (size_t i = 0; i < gc_rowmap_count(&x->e.groups); i++) {
		const gc_rdp_group *g = gc_rdprof_group(&x->e, i);
		char med[24], p90[24];
		row_keys(f, x, g, 0);
		fmt_dist(med, sizeof med, gc_rd_hist_quantile(&g->h, 0.5));
		fmt_dist(p90, sizeof p90, gc_rd_hist_quantile(&g->h, 0.9));
		fprintf(f, "  %12.0f  %12.0f  %10s  %10s", g->h.total, g->h.inf, med, p90);
		if (x->e.clines) {
			gc_rdp_cut c = gc_rdprof_cut(&x->e, &g->h);
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
	const char *unit = x->cl->gran == GC_RDP_SECTOR ? "sectors" : x->cl->gran == GC_RDP_BYTE ? "units"
											: "lines";
	for (unsigned i = 0, n = 0; i < x->e.tall.np; i++) {
		const gc_rdp_cfg *g = &x->e.cfgs[i];
		uint64_t refs = x->e.tall.p[i].refs;
		if (!refs && gc_rdprof_cuts_used(&x->e))
			continue;
		char l1[80] = "", per[80] = "";
		if (x->e.cache_from_gpu)
			snprintf(l1, sizeof l1, " (the L1 of %llu KB%s)",
				 (unsigned long long)(g->bytes >> 10),
				 x->e.gpu.sm.carveout == GC_CARVEOUT_ADAPTIVE ? ", the carve-out's" : "");
		if (x->cl->sets > 1)
			snprintf(per, sizeof per, " of the %u-set stacks", x->cl->sets);
		fprintf(f, LABEL "%llu %s, %llu ways%s: distance%s >= %llu misses", n ? "" : "cache",
			(unsigned long long)g->lines, unit, (unsigned long long)g->ways, l1, per,
			(unsigned long long)(g->lines / x->cl->sets));
		if (gc_rdprof_cuts_used(&x->e) > 1)
			fprintf(f, ", %llu references", (unsigned long long)refs);
		fputc('\n', f);
		n++;
	}
}

static void report(FILE *f, const struct rd *x, const char *input)
{
	const gc_rd_hist *h = &x->e.all;
	char buf[64];
	fprintf(f, LABEL "%s\n", "input", input);
	fprintf(f, LABEL "%s\n", "kind", gc_kind_name(x->e.p.kind));
	if (x->cl->gran == GC_RDP_BYTE)
		fprintf(f, LABEL "byte (each record's address)\n", "granularity");
	else
		fprintf(f, LABEL "%s (%llu bytes)\n", "granularity", gran_names[x->cl->gran],
			(unsigned long long)(UINT64_C(1) << x->e.ushift));
	char scope[200];
	scope_text(scope, sizeof scope, x);
	fprintf(f, LABEL "%s\n", "scope", scope);
	if (x->cl->sets > 1)
		fprintf(f, LABEL "%u (%s index), a stack each\n", "sets", x->cl->sets,
			hash_names[x->cl->hash]);
	if (x->e.sampled) {
		double rate = gc_rdprof_rate(&x->e);
		fprintf(f, LABEL "sampled (SHARDS, %llu units a stack, lowest rate %.6g)\n", "mode",
			(unsigned long long)x->cl->sample, rate);
	} else {
		fprintf(f, LABEL "exact\n", "mode");
	}
	if (x->e.shared + x->e.bypassed)
		fprintf(f, LABEL "%llu (the L1 does not look up %llu: %llu shared memory, "
			"%llu bypassed)\n", "records", (unsigned long long)x->e.records,
			(unsigned long long)(x->e.shared + x->e.bypassed), (unsigned long long)x->e.shared,
			(unsigned long long)x->e.bypassed);
	else
		fprintf(f, LABEL "%llu\n", "records", (unsigned long long)x->e.records);
	if (x->e.prefetches || (x->h->optional & GC_OPT_PREFETCH))
		fprintf(f, LABEL "%llu (%s)\n", "prefetches", (unsigned long long)x->e.prefetches,
			x->cl->no_prefetch ? "excluded: no references" : "counted as references");
	fprintf(f, LABEL "%llu\n", "references", (unsigned long long)x->e.refs);
	fprintf(f, LABEL "%.0f (%.2f%%)\n", "compulsory", h->inf, 100 * frac(h->inf, h->total));
	fprintf(f, "histogram\n  %14s  %12s  %10s  %10s\n", "distance", "references", "fraction",
		"cumulative");
	gc_rdplot_bin *b;
	size_t n = display_bins(x, h, &b);
	double acc = 0;
	for (size_t i = 0; i < n; i++) {
		acc += b[i].count;
		gc_rdplot_range(buf, sizeof buf, &b[i]);
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
	if (x->e.clines) {
		gc_rdp_cut c = gc_rdprof_cut(&x->e, h);
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
	const gc_rd_hist *h = &x->e.all;
	gc_rdplot_bin *b;
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
		x->e.clines ? ",lru_hits,lru_hit_rate,sdcm_hit_rate" : "");
	for (size_t i = 0; i < gc_rowmap_count(&x->e.groups); i++) {
		const gc_rdp_group *g = gc_rdprof_group(&x->e, i);
		char med[24], p90[24];
		row_keys(f, x, g, 1);
		fmt_dist(med, sizeof med, gc_rd_hist_quantile(&g->h, 0.5));
		fmt_dist(p90, sizeof p90, gc_rd_hist_quantile(&g->h, 0.9));
		fprintf(f, ",%.0f,%.0f,%s,%s", g->h.total, g->h.inf, med, p90);
		if (x->e.clines) {
			gc_rdp_cut c = gc_rdprof_cut(&x->e, &g->h);
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
	const gc_rd_hist *h = &x->e.all;
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
	gc_rdp_cut c = gc_rdprof_cut(&x->e, h);
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
	gc_json_u64(j, "lines", x->e.clines);
	gc_json_u64(j, "ways", x->e.ways);
	gc_json_u64(j, "sets", x->cl->sets);
	gc_json_u64(j, "cut_off", x->e.clines / x->cl->sets);
	gc_json_str(j, "from", x->e.cache_from_gpu ? "gpu" : "options");
	if (gc_rdprof_cuts_used(&x->e) <= 1)
		return;
	gc_json_arr(j, "cut_offs");
	for (unsigned i = 0; i < x->e.tall.np; i++) {
		const gc_rdp_cfg *g = &x->e.cfgs[i];
		if (!x->e.tall.p[i].refs)
			continue;
		gc_json_obj(j, NULL);
		gc_json_u64(j, "lines", g->lines);
		gc_json_u64(j, "ways", g->ways);
		gc_json_u64(j, "size", g->bytes);
		gc_json_u64(j, "references", x->e.tall.p[i].refs);
		gc_json_num(j, "lru_hits", x->e.tall.p[i].hits);
		gc_json_close(j);
	}
	gc_json_close(j);
}

/* "kernels": each launch, with its cut-off when there is a cache. */
static void json_kernels(gc_json *j, const struct rd *x)
{
	gc_json_arr(j, "kernels");
	for (size_t i = 0; i < x->e.nl; i++) {
		const gc_rdp_launch *l = &x->e.lv[i];
		const gc_rdp_cfg *g = &x->e.cfgs[l->cfg];
		gc_json_obj(j, NULL);
		gc_json_u64(j, "id", l->id);
		gc_json_str(j, "name", l->name);
		gc_json_u64(j, "launch", i + 1);
		gc_json_u64(j, "references", l->refs);
		if (g->lines) {
			if (x->e.cache_from_gpu)
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
static void json_row_keys(gc_json *j, const struct rd *x, const gc_rdp_group *g)
{
	int kernel_done = 0;
	for (int i = 0; i < x->cl->nby; i++) {
		switch (x->cl->by[i]) {
		case GC_RDP_SM: gc_json_u64(j, "sm", g->sm); break;
		case GC_RDP_KERNEL:
			gc_json_u64(j, "launch", g->launch);
			if (!kernel_done)
				gc_json_u64(j, "kernel", g->kernel);
			kernel_done = 1;
			break;
		default:
			if (!kernel_done && !gc_rdp_has_by(&x->e.p, GC_RDP_KERNEL))
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
	const gc_rd_hist *h = &x->e.all;
	gc_json j;
	gc_json_begin(&j, f);
	gc_json_str(&j, "tool", "gc-rd");
	gc_json_str(&j, "input", input);
	gc_json_str(&j, "gpu", x->e.gpu.name[0] ? x->e.gpu.name : NULL); /* none: no GPU's rules */
	gc_json_str(&j, "kind", gc_kind_name(x->e.p.kind));
	gc_json_str(&j, "granularity", gran_names[x->cl->gran]);
	gc_json_u64(&j, "unit_bytes", UINT64_C(1) << x->e.ushift);
	gc_json_str(&j, "scope", x->e.scope_l1 ? "l1" : "stream");
	gc_json_str(&j, "stacks", x->e.per_sm ? "sm" : "one");
	gc_json_str(&j, "kernel_boundary", x->e.flush ? "flush" : "keep");
	gc_json_u64(&j, "sets", x->cl->sets);
	gc_json_str(&j, "index", hash_names[x->cl->hash]);
	gc_json_bool(&j, "sampled", x->e.sampled);
	if (x->e.sampled) {
		gc_json_u64(&j, "sample", x->cl->sample);
		gc_json_num(&j, "rate", gc_rdprof_rate(&x->e));
	}
	gc_json_u64(&j, "records", x->e.records);
	gc_json_u64(&j, "shared", x->e.shared);
	gc_json_u64(&j, "bypassed", x->e.bypassed);
	if (x->e.prefetches || (x->h->optional & GC_OPT_PREFETCH)) {
		gc_json_u64(&j, "prefetches", x->e.prefetches);
		gc_json_str(&j, "prefetch_rule", pf_names[x->cl->no_prefetch]);
	}
	gc_json_u64(&j, "references", x->e.refs);
	gc_json_num(&j, "compulsory", h->inf);
	json_dist(&j, "max_distance", h->finite ? h->maxd : GC_RD_INF);
	json_dist(&j, "median", gc_rd_hist_quantile(h, 0.5));
	gc_json_arr(&j, "histogram");
	gc_rdplot_bin *b;
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
	if (x->e.clines) {
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
		for (size_t i = 0; i < gc_rowmap_count(&x->e.groups); i++) {
			const gc_rdp_group *g = gc_rdprof_group(&x->e, i);
			gc_json_obj(&j, NULL);
			json_row_keys(&j, x, g);
			gc_json_num(&j, "references", g->h.total);
			gc_json_num(&j, "compulsory", g->h.inf);
			json_dist(&j, "median", gc_rd_hist_quantile(&g->h, 0.5));
			json_dist(&j, "p90", gc_rd_hist_quantile(&g->h, 0.9));
			if (x->e.clines)
				json_cut(&j, x, &g->h);
			gc_json_close(&j);
		}
		gc_json_close(&j);
	}
	gc_json_end(&j);
}


/* The unit of the distances and sizes: "lines of 128 B", "sectors of
 * 32 B" or "bytes". */
static void unit_name(const struct rd *x, char *buf, size_t len)
{
	if (x->cl->gran == GC_RDP_BYTE)
		snprintf(buf, len, "bytes");
	else
		snprintf(buf, len, "%s of %llu B", x->cl->gran == GC_RDP_LINE ? "lines" : "sectors",
			 (unsigned long long)(UINT64_C(1) << x->e.ushift));
}

static double misses(const void *h, uint64_t size)
{
	return gc_rd_hist_ge(h, size);
}

static void plot(const struct rd *x, const char *path, const char *input)
{
	const gc_rd_hist *h = &x->e.all;
	gc_rdplot p = {input, NULL, NULL, 0, h->total, h->finite ? h->maxd + 1 : 1, misses, h,
		       x->e.clines, x->e.ways, 0, 0};
	char unit[64];
	gc_rdplot_bin *b;
	unit_name(x, unit, sizeof unit);
	p.unit = unit;
	p.nbins = display_bins(x, h, &b);
	p.bins = b;
	if (x->e.clines) {
		gc_rdp_cut c = gc_rdprof_cut(&x->e, h);
		p.lru_misses = c.misses;
		p.sdcm = c.sdcm;
	}
	FILE *f = gc_open_text(path);
	gc_rdplot_svg(f, &p);
	gc_close_text(f, path);
	free(b);
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
	snprintf(v, sizeof v, "%llu", (unsigned long long)(UINT64_C(1) << x->e.ushift));
	if (gc_header_add_provenance(oh, gc_cmdline()) < 0 ||
	    gc_header_set(oh, "rd_gran", gran_names[cl->gran]) < 0 ||
	    gc_header_set(oh, "rd_unit", v) < 0 ||
	    gc_header_set(oh, "rd_scope", x->e.scope_l1 ? "l1" : "stream") < 0 ||
	    gc_header_set(oh, "rd_stacks", x->e.per_sm ? "sm" : "one") < 0 ||
	    gc_header_set(oh, "rd_kernel_boundary", x->e.flush ? "flush" : "keep") < 0)
		gc_die(GC_EXIT_DATA, "output header: too many keys");
	snprintf(v, sizeof v, "%u", cl->sets);
	if (gc_header_set(oh, "rd_sets", v) < 0)
		gc_die(GC_EXIT_DATA, "output header: too many keys");
	return gc_open_output(&cl->c, oh);
}

int main(int argc, char **argv)
{
	struct cmdline cl;
	struct rd x;
	gc_rec rec, batch[BATCH];
	gc_header oh;
	gc_writer *w = NULL;

	gc_prog_init("gc-rd", argc, argv);
	parse_cmdline(argc, argv, &cl);
	gc_reader *r = gc_open_stream(cl.input);
	rd_init(&x, &cl, r);
	if (cl.mode == M_ANNOTATE)
		w = open_annotated(&cl, &x, &oh);

	for (;;) {
		/* Data records a batch at a time (their state prefetched for
		 * the whole batch before any is recorded), the rest by gc_read;
		 * a data record gc_read_data leaves to it is a batch of one. */
		size_t nb = gc_read_data(r, batch, NULL, BATCH);
		int ev = GC_DATA, rc = 0;
		if (!nb && (ev = gc_read(r, &rec)) == GC_DATA) {
			batch[0] = rec;
			nb = 1;
		}
		for (size_t i = 0; i < nb; i++)
			gc_rdprof_prefetch(&x.e, &batch[i]);
		for (size_t i = 0; i < nb; i++) {
			if (gc_rdprof_record(&x.e, &batch[i]) < 0)
				gc_die(GC_EXIT_DATA, "%s", x.e.err);
			if (w && gc_write(w, &batch[i]) < 0)
				gc_die(GC_EXIT_DATA, "%s", gc_writer_error(w));
		}
		if (ev == GC_DATA)
			continue;
		if (ev == GC_KBEGIN) {
			if (gc_rdprof_kernel(&x.e, gc_reader_kernel(r)) < 0)
				gc_die(GC_EXIT_DATA, "%s", x.e.err);
			if (w)
				rc = gc_write_kbegin(w, gc_reader_kernel(r));
		} else if (ev == GC_KEND) {
			if (w && (rc = gc_write_opcodes(w, gc_reader_opcodes(r))) == 0)
				rc = gc_write_kend(w, rec.kernel);
		} else if (ev == GC_EOF) {
			break;
		} else {
			gc_progress_end(cl.c.progress);
			gc_writer_free(w);
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
	if (gc_rdprof_finish(&x.e) < 0)
		gc_die(GC_EXIT_DATA, "%s", x.e.err);
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

	gc_rdprof_free(&x.e);
	gc_reader_close(r);
	return 0;
}
