/*
 * gc-stats - count, classify and dump the records of any gc stream.
 *
 * Reads: streams of any kind (accesses, requests, DRAM transactions): one,
 * or several reported one after another (--sum: added into one report).
 * Writes: a readable report (default), one JSON object (--json; a list of
 * them for several files), or every record as CSV (--dump), which
 * gc-import restores byte for byte.
 *
 * Nothing is printed until the stream has been read to its verified end
 * record: a broken stream gives the reader's message and an empty report.
 * The per-record work is a few counters and one hash probe for the group
 * of 64 sectors the record falls in, skipped when it is the group of the
 * record before (the lanes of a coalesced access, a streaming kernel).
 */
#include "base/bits.h"
#include "base/endian.h"
#include "base/footprint.h"
#include "base/hash.h"
#include "base/pctab.h"
#include "base/rowmap.h"
#include "prog/prog.h"
#include "report/json.h"
#include "report/metrics.h"
#include "report/statstable.h"
#include "stream/dump.h"
#include "stream/runs.h"
#include "stream/stream.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char help[] =
	"Usage: gc-stats [options] [file...]\n"
	"       gc-stats --merge [-o FILE] [--arrays] JSON-FILE...\n"
	"       gc-stats --metrics ncu|accelsim [-o FILE] JSON-FILE...\n"
	"       gc-stats --compare NCU-CSV [-o FILE] JSON-FILE...\n"
	"Count, classify and dump the records of a gc stream; merge --stats files.\n"
	"\n"
	"      --json           print one JSON object instead of the report\n"
	"      --dump           print every record as CSV (gc-import restores it)\n"
	"      --by KEY         add a breakdown by kernel, launch, sm, pc or warp;\n"
	"                       --by pc --by launch: by PC of each launch\n"
	"      --line N         line size in bytes (default: header line_size, else 128)\n"
	"      --sector N       sector size in bytes (default: header sector_size, else 32)\n"
	"      --sum            several files: add them into one report (streams of one kind)\n"
	"      --merge          JSON files (--stats output) to one CSV table, a row each\n"
	"      --arrays         with --merge, also the array elements (per_sm.0.hits, ...)\n"
	"      --metrics KIND   the --stats of gc-l1, gc-l2, gc-dram as Nsight Compute\n"
	"                       metrics (ncu) or GPGPU-Sim log lines (accelsim)\n"
	"      --compare CSV    those metrics against a CSV export of ncu, per kernel\n"
	"      --long           with --merge, a row per kernel: file, kernel, name and\n"
	"                       the keys of each element of the files' kernels lists\n"
	"  -o, --output FILE    write to FILE (default: stdout)\n"
	"      --stats FILE     also write the JSON summary to FILE\n"
	"      --progress       show progress on a terminal\n"
	"  -q, --quiet          no warnings\n"
	"  -v, --verbose        list every header key in the report; with --dump or --json,\n"
	"                       also print the report on stderr\n"
	"  -h, --help           show this help and exit\n"
	"  -V, --version        show versions and exit\n";

enum { OPT_JSON = GC_OPT_TOOL, OPT_DUMP, OPT_BY, OPT_LINE, OPT_SECTOR, OPT_MERGE, OPT_ARRAYS,
       OPT_METRICS, OPT_COMPARE, OPT_LONG, OPT_SUM };
enum mode { M_REPORT, M_JSON, M_DUMP, M_MERGE, M_METRICS };
/* kernel: by kernel function (name), its launches together; launch: by
 * kernel launch (id); pc: by (kernel function, PC), or with --by launch
 * by (launch, PC). */
enum by { BY_NONE, BY_KERNEL, BY_LAUNCH, BY_SM, BY_PC, BY_WARP };
static const char *const by_names[] = {NULL, "kernel", "launch", "sm", "pc", "warp"};

struct cmdline {
	gc_common c;
	const char *input;
	char **files;   /* --merge: the JSON files; else the streams (none: stdin) */
	int nfiles, arrays, longform; /* --arrays, --long */
	int sum;        /* --sum: the streams added into one report */
	const char *metrics, *compare; /* --metrics KIND, --compare CSV */
	enum mode mode;
	enum by by;
	int per_launch;        /* --by pc --by launch */
	uint64_t line, sector; /* 0: from the header */
};

/* One kernel launch as the report lists it. */
struct kern {
	gc_kernel *k;
	uint64_t first;   /* the stream's data records before it began */
	uint64_t records; /* set at its end */
};

/* One row of the --by breakdown. */
struct row {
	uint32_t kernel;  /* the launch's id, or by kernel function its name id */
	uint32_t name;    /* the name id of its kernel (first launch) */
	uint64_t key;
	uint64_t records, ops[4], bytes, hits, misses;
	/* Reuse distances (streams with GC_OPT_DISTANCE, from gc-rd): first
	 * uses, a log2 histogram of the finite ones (cell 0: distance 0,
	 * cell k: [2^(k-1), 2^k)) and their sum. */
	uint64_t dcold, dlog[65];
	double dsum;
};

struct stats {
	const gc_header *h;
	int kind;
	int vec;             /* gc_run_sectors counts (gc_run_sectors_fast) */
	uint64_t records, ops[4], spaces[GC_NSPACES], bytes;
	uint64_t results[4], classes[8], writebacks, bypasses;
	uint64_t prefetches; /* loads with the prefetch flag (gc-stream(5)) */
	unsigned outcomes_seen; /* OR of every outcome byte */
	uint64_t time_first, time_last;
	uint64_t stream_records, stream_bytes;

	/* Distinct sectors and lines (base/footprint.h). */
	uint64_t line_size, sector_size;
	gc_footprint fp;
	/* Counts of the fast path (count_raw), added up at the end: data
	 * records by op and byte 1 (space and flags), by outcome byte. */
	uint64_t hist_ob[2][1024], hist_out[2][256];
	uint64_t distinct_lines;      /* set at the end */

	struct kern *kerns;
	size_t nkerns, kcap;
	struct kern *cur;

	enum by by;
	char **files;         /* --sum: the streams added, nfiles of them */
	int nfiles;
	int named;            /* rows by kernel function: row.kernel is a name id */
	int per_launch;       /* --by pc --by launch */
	gc_names names;       /* kernel names -> ids */
	gc_opmap opcodes;     /* (kernel name, pc) -> opcode, for --by pc */
	uint32_t cur_name;    /* the name id of the kernel running */
	gc_rowmap byrows;     /* breakdown key -> struct row, while reading */
	struct row *rows;     /* the rows once read (finish_rows) */
	size_t nrows;
};

/* The streams to read: every operand (none: standard input). */
static void stream_files(struct cmdline *cl, int argc, char **argv, int dump)
{
	cl->files = argv + optind;
	cl->nfiles = argc - optind;
	cl->input = cl->nfiles ? cl->files[0] : NULL;
	if (cl->nfiles > 1 && dump)
		gc_usage_error("--dump takes one stream, not %d", cl->nfiles);
	if (cl->sum && dump)
		gc_usage_error("--sum and --dump exclude each other");
}

/* --by KEY: one key, or pc and launch together (in either order). */
static void by_option(struct cmdline *cl, const char *arg)
{
	enum by by = BY_NONE;
	for (int i = BY_KERNEL; i <= BY_WARP; i++)
		if (strcmp(arg, by_names[i]) == 0)
			by = (enum by)i;
	if (!by)
		gc_usage_error("--by: '%s' is not kernel, launch, sm, pc or warp", arg);
	if (!cl->by || cl->by == by) {
		cl->by = by;
		return;
	}
	if ((cl->by == BY_PC && by == BY_LAUNCH) || (cl->by == BY_LAUNCH && by == BY_PC)) {
		cl->by = BY_PC;
		cl->per_launch = 1;
		return;
	}
	gc_usage_error("--by %s and --by %s: one breakdown at a time (launch goes with pc)",
		       by_names[cl->by], arg);
}

static void parse_cmdline(int argc, char **argv, struct cmdline *cl)
{
	static const struct option longopts[] = {
		GC_BASIC_LONGOPTS,
		{"stats", required_argument, NULL, GC_OPT_STATS},
		{"progress", no_argument, NULL, GC_OPT_PROGRESS},
		{"json", no_argument, NULL, OPT_JSON},
		{"dump", no_argument, NULL, OPT_DUMP},
		{"by", required_argument, NULL, OPT_BY},
		{"line", required_argument, NULL, OPT_LINE},
		{"sector", required_argument, NULL, OPT_SECTOR},
		{"merge", no_argument, NULL, OPT_MERGE},
		{"arrays", no_argument, NULL, OPT_ARRAYS},
		{"metrics", required_argument, NULL, OPT_METRICS},
		{"compare", required_argument, NULL, OPT_COMPARE},
		{"long", no_argument, NULL, OPT_LONG},
		{"sum", no_argument, NULL, OPT_SUM},
		{NULL, 0, NULL, 0},
	};
	int c, json = 0, dump = 0, merge = 0;
	memset(cl, 0, sizeof *cl);
	while ((c = gc_getopt(argc, argv, "hVqvo:", longopts)) != -1) {
		if (gc_common_option(&cl->c, c, optarg, help))
			continue;
		switch (c) {
		case OPT_JSON: json = 1; break;
		case OPT_DUMP: dump = 1; break;
		case OPT_MERGE: merge = 1; break;
		case OPT_ARRAYS: cl->arrays = 1; break;
		case OPT_LONG: cl->longform = 1; break;
		case OPT_METRICS:
			if (strcmp(optarg, "ncu") && strcmp(optarg, "accelsim"))
				gc_usage_error("--metrics: '%s' is not ncu or accelsim", optarg);
			cl->metrics = optarg;
			break;
		case OPT_COMPARE: cl->compare = optarg; break;
		case OPT_SUM: cl->sum = 1; break;
		case OPT_BY: by_option(cl, optarg); break;
		case OPT_LINE: cl->line = gc_num("--line", optarg, 1, 1u << 30); break;
		case OPT_SECTOR: cl->sector = gc_num("--sector", optarg, 1, 1u << 30); break;
		default: gc_usage_error("unexpected option");
		}
	}
	if (json && dump)
		gc_usage_error("--json and --dump exclude each other");
	if (cl->metrics || cl->compare) {
		if (json || dump || merge || cl->arrays || cl->by || cl->line || cl->sector ||
		    cl->c.stats || cl->sum || (cl->metrics && cl->compare))
			gc_usage_error("--metrics and --compare take only -o and JSON files, one of "
				       "them at a time");
		if (optind >= argc)
			gc_usage_error("%s: no JSON files given", cl->metrics ? "--metrics"
									 : "--compare");
		cl->mode = M_METRICS;
		cl->files = argv + optind;
		cl->nfiles = argc - optind;
		return;
	}
	if (merge) {
		if (json || dump || cl->by || cl->line || cl->sector || cl->c.stats || cl->sum)
			gc_usage_error("--merge takes only -o, --arrays and --long");
		if (optind >= argc)
			gc_usage_error("--merge: no JSON files given");
		cl->mode = M_MERGE;
		cl->files = argv + optind;
		cl->nfiles = argc - optind;
		return;
	}
	if (cl->arrays)
		gc_usage_error("--arrays goes with --merge");
	if (cl->longform)
		gc_usage_error("--long goes with --merge");
	cl->mode = dump ? M_DUMP : json ? M_JSON : M_REPORT;
	if (cl->line & (cl->line - 1))
		gc_usage_error("--line: %llu is not a power of two", (unsigned long long)cl->line);
	if (cl->sector & (cl->sector - 1))
		gc_usage_error("--sector: %llu is not a power of two", (unsigned long long)cl->sector);
	stream_files(cl, argc, argv, dump);
}

/* A size from the command line or the header key, else the default. */
static uint64_t geometry(const gc_reader *r, uint64_t opt, const char *key, uint64_t dflt)
{
	if (opt)
		return opt;
	const char *v = gc_header_get(gc_reader_header(r), key);
	if (!v)
		return dflt;
	char *end;
	unsigned long long n = strtoull(v, &end, 10);
	if (end == v || *end || n == 0 || n > (1u << 30) || (n & (n - 1)))
		gc_die(GC_EXIT_DATA, "%s: header key %s: '%s' is not a power of two "
		       "(--%s N overrides it)", gc_reader_name(r), key, v,
		       strcmp(key, "line_size") == 0 ? "line" : "sector");
	return n;
}

static void stats_init(struct stats *s, const struct cmdline *cl, const gc_reader *r)
{
	memset(s, 0, sizeof *s);
	s->h = gc_reader_header(r);
	s->kind = s->h->kind;
	s->by = cl->by;
	s->per_launch = cl->per_launch;
	s->named = s->by == BY_KERNEL || (s->by == BY_PC && !s->per_launch);
	gc_names_init(&s->names);
	gc_opmap_init(&s->opcodes);
	s->line_size = geometry(r, cl->line, "line_size", 128);
	s->sector_size = geometry(r, cl->sector, "sector_size", 32);
	int from_opts = cl->line || cl->sector;
	if (s->sector_size > s->line_size && from_opts)
		gc_usage_error("the sector size %llu is larger than the line size %llu",
			       (unsigned long long)s->sector_size, (unsigned long long)s->line_size);
	if (s->sector_size > s->line_size)
		gc_die(GC_EXIT_DATA, "%s: header: the sector size %llu is larger than the line "
		       "size %llu", gc_reader_name(r), (unsigned long long)s->sector_size,
		       (unsigned long long)s->line_size);
	gc_footprint_init(&s->fp, gc_log2(s->line_size), gc_log2(s->sector_size));
	/* GC_STATS_SCALAR (a check): one record at a time only */
	s->vec = gc_run_sectors_fast() && !getenv("GC_STATS_SCALAR");
	gc_rowmap_init(&s->byrows, sizeof(struct row), 64);
}

/* ---- counting ----------------------------------------------------------- */

static uint64_t by_key(const struct stats *s, const gc_rec *r)
{
	switch (s->by) {
	case BY_KERNEL: return s->cur_name;
	case BY_SM: return r->sm;
	case BY_PC: return s->named ? (uint64_t)s->cur_name << 32 | r->pc : r->pc;
	case BY_WARP: return (uint64_t)r->block << 16 | r->warp;
	default: return 0;
	}
}

static void count_by(struct stats *s, const gc_rec *r, int hit, int miss)
{
	uint64_t key = by_key(s, r);
	int added;
	struct row *w = gc_rowmap_row(&s->byrows, key, &added);
	if (!w)
		gc_die(GC_EXIT_DATA, "out of memory");
	if (added) {
		w->kernel = s->by == BY_SM ? 0 : s->named ? s->cur_name : r->kernel;
		w->name = s->cur_name;
		w->key = s->by == BY_LAUNCH ? r->kernel : s->by == BY_PC ? r->pc : key;
	}
	w->records++;
	w->ops[r->op]++;
	w->bytes += r->size;
	w->hits += (uint64_t)hit;
	w->misses += (uint64_t)miss;
	if (s->h->optional & GC_OPT_DISTANCE) {
		if (r->dist == GC_DIST_INF) {
			w->dcold++;
		} else if (r->dist != GC_DIST_NONE) {
			w->dlog[r->dist ? 64 - __builtin_clzll(r->dist) : 0]++;
			w->dsum += (double)r->dist;
		}
	}
}

static inline void count(struct stats *s, const gc_rec *r)
{
	unsigned o = r->outcome, res = GC_OUT_RESULT(o);
	int hit = res == GC_R_HIT, miss = res >= GC_R_SECTOR_MISS;
	if (!s->records)
		s->time_first = r->time;
	s->time_last = r->time;
	s->records++;
	s->ops[r->op]++;
	s->prefetches += (r->flags & GC_F_PREFETCH) != 0;
	s->spaces[r->space]++;
	s->bytes += r->size;
	if (o) {
		/* Results and classes of outcome 0 follow from the total. */
		s->outcomes_seen |= o;
		s->results[res]++;
		s->classes[GC_OUT_CLASS(o)]++;
		s->writebacks += (o & GC_OUT_WRITEBACK) != 0;
		s->bypasses += (o & GC_OUT_BYPASS) != 0;
	}
	if (s->kind == GC_KIND_ACCESS)
		gc_footprint_range(&s->fp, r->addr, r->size);
	else
		gc_footprint_request(&s->fp, r->addr, r->mask);
	if (s->by)
		count_by(s, r, hit, miss);
}

/* gc_footprint_touch out of line (once a run): the run's loop keeps its
 * registers. */
static __attribute__((noinline)) void touch_run(struct stats *s, uint64_t g, uint64_t bits)
{
	gc_footprint_touch(&s->fp, g, bits);
}

/* Two sector groups open: cg (the last record's) and cg2 (swapped in
 * when records alternate between two arrays), acc and acc2 their
 * sectors; lo the last clock's low half. */
struct open_groups {
	uint64_t cg, acc, cg2, acc2;
	uint32_t lo;
	int vec;      /* gc_run_sectors may be tried */
	int vskip;    /* records to go before it is tried again */
	int vback;    /* ... after its next miss (doubles, up to 64) */
};


/* access_runs's records of run rk, from p to the first of another run or
 * with an earlier clock (*stop); small: each within a sector (so s1 is
 * s0 or s0+1, two bits). */
static inline __attribute__((always_inline)) const unsigned char *
access_run(struct stats *s, const unsigned char *p, const unsigned char *end, size_t rs,
	   unsigned sshift, int wide, int small, uint32_t rk, uint32_t last, struct open_groups *op,
	   int *stop)
{
	uint64_t cg = op->cg, acc = op->acc;
	uint32_t lo = op->lo;
	/* a record's bytes lie in group cg iff a - base < lim (one compare) */
	const uint64_t gbytes = UINT64_C(64) << sshift;
	uint64_t base = cg * gbytes, lim = last < gbytes ? gbytes - last : 0;
	for (; p < end && (gc_get32(p) & 0xff00ffff) == rk; p += rs) {
		uint32_t t = gc_get32(p + 20);
		if (__builtin_expect(t < lo, 0)) {
			*stop = 1; /* the run ends before it */
			break;
		}
		lo = t;
		uint64_t a = gc_get64(p + 24), d = a - base;
		if (__builtin_expect(wide || d >= lim, 0)) {
			uint64_t s0 = a >> sshift, s1 = (a + last) >> sshift;
			if ((s0 ^ s1) >> 6 != 0 || wide) {
				/* two groups, or past 2^64: now (the order is free) */
				gc_footprint_range(&s->fp, a, last + 1);
				continue;
			}
			uint64_t g = s0 >> 6, ga = acc;
			if (g != op->cg2 && op->acc2)
				touch_run(s, op->cg2, op->acc2);
			acc = g == op->cg2 ? op->acc2 : 0;
			op->cg2 = cg;
			op->acc2 = ga;
			cg = g;
			base = cg * gbytes;
			d = a - base;
		}
		/* sectors s0..s1 of the group, s0 = d >> sshift */
		if (small) {
			acc |= UINT64_C(1) << (d >> sshift);
			acc |= UINT64_C(1) << ((d + last) >> sshift);
		} else {
			acc |= (UINT64_C(2) << ((d + last) >> sshift)) - (UINT64_C(1) << (d >> sshift));
		}
		/* the records after it four at a time (gc_run_sectors), where
		 * that goes on working (a miss waits 1, 2, 4 ... 64 records) */
		if (small && rs == GC_RECORD_BASE && sshift == 5 && !wide && op->vec &&
		    --op->vskip <= 0) {
			size_t k = gc_run_sectors(p + rs, end, rk, base, lim, last, &acc, &lo);
			p += k * rs;
			if (k) {
				op->vback = 1;
			} else {
				op->vskip = op->vback;
				op->vback = op->vback < 64 ? 2 * op->vback : 64;
			}
		}
	}
	op->cg = cg;
	op->acc = acc;
	op->lo = lo;
	return p;
}

/*
 * count_raw's loop for accesses, records [p, end) rs bytes apart: their
 * bytes, and gc_read_block's checks fused in (gc_read_block): the first
 * word's at the start of each run (a run's word holds the checked bits),
 * the clock's on each record.  Counts the records up to the first that
 * fails and returns where it stopped; *bytes, *low (the last clock's low
 * half) for gc_read_take.
 *
 * Records in one sector group OR their sectors and touch once (the fresh
 * sectors and lines first seen do not depend on how the bits are split
 * or in what order they come), two groups open at once; a run of one
 * op, space, flags and size counts once, its bytes
 * a product (a counter in memory added to per record is a chain of
 * store-to-load latencies).  Wide lines: gc_footprint_range per record.
 */
static inline __attribute__((always_inline)) const unsigned char *
access_runs(struct stats *s, const unsigned char *p, const unsigned char *end, size_t rs,
	    unsigned sshift, int wide, uint32_t wmin, uint32_t *low, uint64_t *bytesp)
{
	struct open_groups o = {.lo = *low, .vec = s->vec, .vback = 1};
	uint64_t bytes = 0;
	while (p < end) {
		/* a run: its op, space, flags and size (bytes 0, 1, 3) */
		uint32_t rk = gc_get32(p) & 0xff00ffff, last = (rk >> 24) - 1;
		if (!gc_word_ok(rk & GC_WORD_ACCESS, wmin))
			break; /* gc_read's, with its message */
		const unsigned char *first = p;
		int stop = 0;
		/* an access within a sector spans at most two sectors */
		if (last < (1u << sshift) && !wide)
			p = access_run(s, p, end, rs, sshift, wide, 1, rk, last, &o, &stop);
		else
			p = access_run(s, p, end, rs, sshift, wide, 0, rk, last, &o, &stop);
		uint64_t run = (uint64_t)(p - first) / rs;
		s->hist_ob[0][(rk >> 6 & 0x3fc) | (rk & 3)] += run;
		bytes += run * (rk >> 24);
		if (stop)
			break;
	}
	if (o.acc)
		touch_run(s, o.cg, o.acc);
	if (o.acc2)
		touch_run(s, o.cg2, o.acc2);
	*low = o.lo;
	*bytesp = bytes;
	return p;
}

/* access_runs for 32-byte records and sectors (constants), or any. */
static __attribute__((noinline)) const unsigned char *
count_access_runs(struct stats *s, const unsigned char *p, const unsigned char *end, size_t rs,
		  uint32_t wmin, uint32_t *low, uint64_t *bytes)
{
	if (rs == GC_RECORD_BASE && s->fp.sshift == 5 && !s->fp.wide)
		return access_runs(s, p, end, GC_RECORD_BASE, 5, 0, wmin, low, bytes);
	return access_runs(s, p, end, rs, s->fp.sshift, s->fp.wide, wmin, low, bytes);
}

/*
 * count() for the records of gc_read_block's block b (rs bytes apart)
 * up to the first that fails the reader's checks (fused in: see
 * gc_read_block), taken: the common case without --by.  The counts by
 * op, space, flags and outcome go to tables (requests: two of each in
 * turn, so that records of one kind do not wait on one counter; accesses:
 * by runs); fold_hist turns them into count()'s at the end.
 */
static void count_raw(struct stats *s, gc_reader *r, const gc_block *b, size_t rs)
{
	const unsigned char *p = b->p, *end = b->p + b->n * rs;
	uint32_t low = b->low;
	uint64_t bytes = 0;
	if (s->kind == GC_KIND_ACCESS) {
		end = count_access_runs(s, p, end, rs, b->word_min, &low, &bytes);
	} else {
		uint32_t lastw = GC_WORD_NONE;
		for (size_t i = 0; p < end; p += rs, i++) {
			uint32_t w = gc_get32(p), t = gc_get32(p + 20);
			if ((w & b->word_mask) != lastw) {
				if (!gc_word_ok(w & b->word_mask, b->word_min))
					break;
				lastw = w & b->word_mask;
			}
			if (t < low)
				break;
			low = t;
			uint64_t a = gc_get64(p + 24);
			s->hist_ob[i & 1][(w >> 6 & 0x3fc) | (w & 3)]++;
			s->hist_out[i & 1][w >> 16 & 0xff]++;
			bytes += a >> 48;
			gc_footprint_request(&s->fp, a & GC_ADDR48_MAX, w >> 24);
		}
		end = p;
	}
	size_t n = (size_t)(end - b->p) / rs;
	if (!n)
		return;
	if (!s->records)
		s->time_first = b->time_hi | gc_get32(b->p + 20);
	s->time_last = b->time_hi | low;
	s->records += n;
	s->bytes += bytes;
	gc_read_take(r, n, low);
}

/* The tables of count_raw into count()'s counts. */
static void fold_hist(struct stats *s)
{
	for (unsigned k = 0; k < 1024; k++) {
		uint64_t c = s->hist_ob[0][k] + s->hist_ob[1][k];
		if (!c)
			continue;
		unsigned b1 = k >> 2;
		s->ops[k & 3] += c;
		s->spaces[b1 & 15] += c;
		s->prefetches += (b1 >> 4 & GC_F_PREFETCH) ? c : 0;
	}
	for (unsigned o = 1; o < 256; o++) {
		uint64_t c = s->hist_out[0][o] + s->hist_out[1][o];
		if (!c)
			continue;
		s->outcomes_seen |= o;
		s->results[GC_OUT_RESULT(o)] += c;
		s->classes[GC_OUT_CLASS(o)] += c;
		s->writebacks += (o & GC_OUT_WRITEBACK) ? c : 0;
		s->bypasses += (o & GC_OUT_BYPASS) ? c : 0;
	}
	memset(s->hist_ob, 0, sizeof s->hist_ob);
	memset(s->hist_out, 0, sizeof s->hist_out);
}

static void kernel_begin(struct stats *s, const gc_kernel *k)
{
	if (s->nkerns == s->kcap) {
		s->kcap = s->kcap ? 2 * s->kcap : 16;
		s->kerns = gc_xrealloc(s->kerns, s->kcap * sizeof *s->kerns);
	}
	struct kern *e = &s->kerns[s->nkerns++];
	e->k = gc_xrealloc(NULL, sizeof *e->k);
	*e->k = *k;
	e->first = s->records;
	e->records = 0;
	s->cur = e;
	long id = gc_names_id(&s->names, k->name);
	if (id < 0)
		gc_die(GC_EXIT_DATA, "out of memory");
	s->cur_name = (uint32_t)id;
	if (s->by != BY_NONE && s->by != BY_SM && !s->named) {
		/* Keys are per kernel launch: forget the last launch's. */
		gc_rowmap_forget(&s->byrows);
	}
}

static void kernel_end(struct stats *s)
{
	s->cur->records = s->records - s->cur->first;
}

/* ---- output --------------------------------------------------------------- */

static int annotated(const struct stats *s)
{
	return (s->h->optional & GC_OPT_ANNOTATED) || s->outcomes_seen;
}

/* qsort has no context argument: the names, when rows are by name. */
static const gc_names *sort_names;

static int row_cmp(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	if (x->kernel != y->kernel && sort_names) {
		int c = strcmp(gc_names_get(sort_names, x->kernel), gc_names_get(sort_names, y->kernel));
		if (c)
			return c < 0 ? -1 : 1;
	}
	if (x->kernel != y->kernel)
		return x->kernel < y->kernel ? -1 : 1;
	return x->key < y->key ? -1 : x->key > y->key;
}

/* Sort the breakdown and merge rows of the same key (a kernel id launched
 * twice). */
static void finish_rows(struct stats *s)
{
	s->rows = gc_rowmap_take(&s->byrows, &s->nrows);
	if (!s->nrows)
		return;
	sort_names = s->named ? &s->names : NULL;
	qsort(s->rows, s->nrows, sizeof *s->rows, row_cmp);
	size_t n = 1;
	for (size_t i = 1; i < s->nrows; i++) {
		struct row *a = &s->rows[n - 1], *b = &s->rows[i];
		if (row_cmp(a, b) == 0) {
			a->records += b->records;
			for (int j = 0; j < 4; j++)
				a->ops[j] += b->ops[j];
			a->bytes += b->bytes;
			a->hits += b->hits;
			a->misses += b->misses;
			a->dcold += b->dcold;
			a->dsum += b->dsum;
			for (int j = 0; j < 65; j++)
				a->dlog[j] += b->dlog[j];
		} else {
			s->rows[n++] = *b;
		}
	}
	s->nrows = n;
}

static const char *flag_names(uint32_t optional, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s%s%s%s", optional & GC_OPT_SCHEDULED ? " scheduled" : "",
		 optional & GC_OPT_ANNOTATED ? " annotated" : "",
		 optional & GC_OPT_DISTANCE ? " distance" : "",
		 optional & GC_OPT_COMPUTE ? " compute" : "",
		 optional & GC_OPT_PREFETCH ? " prefetch" : "",
		 optional & ~(GC_OPT_SCHEDULED | GC_OPT_ANNOTATED | GC_OPT_DISTANCE | GC_OPT_COMPUTE |
			      GC_OPT_PREFETCH)
		 ? " unknown" : "");
	return buf[0] ? buf + 1 : "none";
}

static int max_int(int a, int b)
{
	return a > b ? a : b;
}

#define LABEL "%-18s"
#define SUBLABEL "  %-16s"

/* A kernel name on one line: control bytes as \n, \t or \xNN. */
static void put_name(FILE *f, const char *name)
{
	for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
		if (*p == '\n')
			fputs("\\n", f);
		else if (*p == '\t')
			fputs("\\t", f);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(f, "\\x%02x", *p);
		else
			fputc(*p, f);
	}
}

static void report_kernels(FILE *f, const struct stats *s)
{
	char grid[40], block[24];
	int wi = 2, wg = 4, wb = 5, wr = 4, ws = 5, wn = 7;
	for (size_t i = 0; i < s->nkerns; i++) {
		const gc_kernel *k = s->kerns[i].k;
		wi = max_int(wi, gc_digits(k->id));
		wg = max_int(wg, snprintf(grid, sizeof grid, "%ux%ux%u", k->grid[0], k->grid[1], k->grid[2]));
		wb = max_int(wb, snprintf(block, sizeof block, "%ux%ux%u", k->block[0], k->block[1], k->block[2]));
		wr = max_int(wr, gc_digits(k->regs));
		ws = max_int(ws, gc_digits(k->shmem));
		wn = max_int(wn, gc_digits(s->kerns[i].records));
	}
	fprintf(f, "  %*s  %-*s  %-*s  %*s  %*s  %*s  name\n", wi, "id", wg, "grid", wb, "block",
		wr, "regs", ws, "shmem", wn, "records");
	for (size_t i = 0; i < s->nkerns; i++) {
		const gc_kernel *k = s->kerns[i].k;
		snprintf(grid, sizeof grid, "%ux%ux%u", k->grid[0], k->grid[1], k->grid[2]);
		snprintf(block, sizeof block, "%ux%ux%u", k->block[0], k->block[1], k->block[2]);
		fprintf(f, "  %*u  %-*s  %-*s  %*u  %*u  %*llu", wi, k->id, wg, grid, wb, block,
			wr, k->regs, ws, k->shmem, wn, (unsigned long long)s->kerns[i].records);
		if (k->name[0]) {
			fputs("  ", f);
			put_name(f, k->name);
		}
		fputc('\n', f);
	}
}

/* The log2 cell holding the median of a row's distances (first uses
 * counted as infinite), as text: "0", "1", "4-7", "inf"; "-" for none. */
static void dist_median(const struct row *r, char *buf, size_t len)
{
	uint64_t n = r->dcold, acc = 0;
	for (int k = 0; k < 65; k++)
		n += r->dlog[k];
	snprintf(buf, len, n ? "inf" : "-");
	for (int k = 0; k < 65 && n; k++) {
		acc += r->dlog[k];
		if (2 * acc >= n) {
			uint64_t lo = k ? UINT64_C(1) << (k - 1) : 0;
			uint64_t hi = k <= 1 ? lo : k == 64 ? UINT64_MAX - 2 : (UINT64_C(1) << k) - 1;
			if (lo == hi)
				snprintf(buf, len, "%llu", (unsigned long long)lo);
			else
				snprintf(buf, len, "%llu-%llu", (unsigned long long)lo, (unsigned long long)hi);
			break;
		}
	}
}

/* The mean finite distance, or -1 when there is none. */
static double dist_mean(const struct row *r)
{
	uint64_t n = 0;
	for (int k = 0; k < 65; k++)
		n += r->dlog[k];
	return n ? r->dsum / (double)n : -1;
}

/* Does the breakdown end with the kernel's name?  Rows by kernel
 * function, by launch, and by PC. */
static int name_column(const struct stats *s)
{
	return s->by == BY_KERNEL || s->by == BY_LAUNCH || s->by == BY_PC;
}

/* The SASS opcode of a --by pc row, from the stream's opcode records, or
 * NULL. */
static const char *row_opcode(const struct stats *s, const struct row *r)
{
	return gc_opmap_get(&s->opcodes, gc_names_get(&s->names, r->name), (uint32_t)r->key);
}

/* The breakdown's key columns of row r (NULL: the headers) into v[] and
 * the headers into kc[]; how many.  A PC is written in hexadecimal. */
static int key_columns(const struct stats *s, const struct row *r, const char **kc, char v[][64])
{
	int n = 0;
	if (s->by == BY_SM) {
		kc[n] = "sm";
		if (r)
			snprintf(v[n], 24, "%llu", (unsigned long long)r->key);
		n++;
	}
	if (s->by == BY_LAUNCH || s->by == BY_WARP || (s->by == BY_PC && s->per_launch)) {
		kc[n] = s->by == BY_WARP ? "kernel" : "launch";
		if (r)
			snprintf(v[n], 24, "%u", r->kernel);
		n++;
	}
	if (s->by == BY_PC) {
		kc[n] = "pc";
		kc[n + 1] = "opcode";
		if (r) {
			const char *op = row_opcode(s, r);
			snprintf(v[n], 24, "0x%llx", (unsigned long long)r->key);
			snprintf(v[n + 1], 64, "%s", op ? op : "-");
		}
		n += 2;
	}
	if (s->by == BY_WARP) {
		kc[n] = "block";
		kc[n + 1] = "warp";
		if (r) {
			snprintf(v[n], 24, "%llu", (unsigned long long)(r->key >> 16));
			snprintf(v[n + 1], 24, "%llu", (unsigned long long)(r->key & 0xffff));
		}
		n += 2;
	}
	return n;
}

static void report_rows(FILE *f, const struct stats *s)
{
	int dist = (s->h->optional & GC_OPT_DISTANCE) != 0;
	int ann = annotated(s);
	/* Key columns, then the counters, then the kernel's name. */
	const char *kc[4];
	char kv[4][64];
	int nk = key_columns(s, NULL, kc, kv);
	static const char *const vc[] = {"records", "loads", "stores", "atomics", "bytes",
					 "hits", "misses"};
	int nv = ann ? 7 : 5;
	int w[12];
	for (int i = 0; i < nk; i++)
		w[i] = (int)strlen(kc[i]);
	for (int i = 0; i < nv; i++)
		w[nk + i] = (int)strlen(vc[i]);
	for (size_t i = 0; i < s->nrows; i++) {
		const struct row *r = &s->rows[i];
		key_columns(s, r, kc, kv);
		for (int j = 0; j < nk; j++)
			w[j] = max_int(w[j], (int)strlen(kv[j]));
		uint64_t c[7] = {r->records, r->ops[GC_LOAD], r->ops[GC_STORE], r->ops[GC_ATOMIC],
				 r->bytes, r->hits, r->misses};
		for (int j = 0; j < nv; j++)
			w[nk + j] = max_int(w[nk + j], gc_digits(c[j]));
	}
	if (s->by == BY_PC && s->per_launch)
		fprintf(f, "\nby pc and launch\n ");
	else
		fprintf(f, "\nby %s\n ", by_names[s->by]);
	for (int i = 0; i < nk; i++)
		fprintf(f, " %*s", w[i] + 1, kc[i]);
	for (int i = 0; i < nv; i++)
		fprintf(f, " %*s", w[nk + i] + 1, vc[i]);
	if (dist)
		fprintf(f, " %11s %10s %12s", "first-uses", "mean-dist", "median-dist");
	if (name_column(s))
		fprintf(f, "  kernel");
	fputc('\n', f);
	for (size_t i = 0; i < s->nrows; i++) {
		const struct row *r = &s->rows[i];
		fputc(' ', f);
		key_columns(s, r, kc, kv);
		for (int j = 0; j < nk; j++)
			fprintf(f, " %*s", w[j] + 1, kv[j]);
		uint64_t c[7] = {r->records, r->ops[GC_LOAD], r->ops[GC_STORE], r->ops[GC_ATOMIC],
				 r->bytes, r->hits, r->misses};
		for (int j = 0; j < nv; j++)
			fprintf(f, " %*llu", w[nk + j] + 1, (unsigned long long)c[j]);
		if (dist) {
			char med[48];
			dist_median(r, med, sizeof med);
			fprintf(f, " %11llu", (unsigned long long)r->dcold);
			if (dist_mean(r) < 0)
				fprintf(f, " %10s", "-");
			else
				fprintf(f, " %10.2f", dist_mean(r));
			fprintf(f, " %12s", med);
		}
		if (name_column(s)) {
			const char *name = gc_names_get(&s->names, r->name);
			fputs("  ", f);
			put_name(f, *name ? name : "-");
		}
		fputc('\n', f);
	}
}

/* -v: the report lists every header key. */
static int show_header_keys;

static void report(FILE *f, const struct stats *s, const char *input)
{
	const gc_header *h = s->h;
	char buf[64];
	fprintf(f, LABEL "%s\n", "input", input);
	for (int i = 1; i < s->nfiles; i++)
		fprintf(f, LABEL "%s%s\n", i == 1 ? "summed with" : "", s->files[i],
			i + 1 == s->nfiles ? " (--sum: counts added, the header the first's)" : "");
	fprintf(f, LABEL "%s\n", "kind", gc_kind_name(s->kind));
	fprintf(f, LABEL "%u.%u, %u-byte records\n", "format", h->major, h->minor, h->record_size);
	fprintf(f, LABEL "required 0x%x%s, optional 0x%x (%s)\n", "flags", h->required,
		h->required & GC_REQ_OPCODES ? " (opcodes)" : "", h->optional,
		flag_names(h->optional, buf, sizeof buf));
	const char *prov = gc_header_get(h, "provenance");
	fprintf(f, LABEL "%s\n", "provenance", prov ? prov : "(none)");
	/* The other header keys (the GPU's alone are a hundred): with -v. */
	int first = 1, nkeys = 0;
	for (int i = 0; i < h->nkv; i++) {
		if (strcmp(h->key[i], "provenance") == 0)
			continue;
		nkeys++;
		if (!show_header_keys)
			continue;
		fprintf(f, LABEL "%s=%s\n", first ? "header" : "", h->key[i], h->val[i]);
		first = 0;
	}
	if (!show_header_keys && nkeys)
		fprintf(f, LABEL "%d key%s (gc-stats -v lists %s)\n", "header", nkeys,
			nkeys == 1 ? "" : "s", nkeys == 1 ? "it" : "them");
	fprintf(f, LABEL "%llu records, %llu bytes\n", "stream",
		(unsigned long long)s->stream_records, (unsigned long long)s->stream_bytes);
	fprintf(f, LABEL "%zu\n", "kernels", s->nkerns);
	if (s->nkerns)
		report_kernels(f, s);
	fprintf(f, LABEL "%llu\n", "records", (unsigned long long)s->records);
	for (int op = GC_LOAD; op <= GC_ATOMIC; op++)
		fprintf(f, SUBLABEL "%llu\n", gc_op_name(op), (unsigned long long)s->ops[op]);
	if (s->prefetches || (s->h->optional & GC_OPT_PREFETCH))
		fprintf(f, SUBLABEL "%llu\n", "prefetch", (unsigned long long)s->prefetches);
	fprintf(f, "by space\n");
	for (int sp = 0; sp < GC_NSPACES; sp++)
		if (s->spaces[sp])
			fprintf(f, SUBLABEL "%llu\n", gc_space_name(sp), (unsigned long long)s->spaces[sp]);
	fprintf(f, LABEL "%llu\n", "bytes", (unsigned long long)s->bytes);
	fprintf(f, LABEL "%llu (%llu-byte lines)\n", "distinct lines",
		(unsigned long long)s->distinct_lines,
		(unsigned long long)s->line_size);
	fprintf(f, LABEL "%llu (%llu-byte sectors)\n", "distinct sectors",
		(unsigned long long)s->fp.sectors, (unsigned long long)s->sector_size);
	if (s->records)
		fprintf(f, LABEL "first %llu, last %llu, span %llu\n", "time",
			(unsigned long long)s->time_first, (unsigned long long)s->time_last,
			(unsigned long long)(s->time_last - s->time_first));
	else
		fprintf(f, LABEL "(no records)\n", "time");
	if (annotated(s)) {
		fprintf(f, "results\n");
		for (int r = GC_R_HIT; r <= GC_R_MISS; r++)
			fprintf(f, SUBLABEL "%llu\n", gc_result_name(r), (unsigned long long)s->results[r]);
		fprintf(f, SUBLABEL "%llu\n", "none", (unsigned long long)s->results[GC_R_NONE]);
		fprintf(f, "miss classes\n");
		for (int c = GC_C_COMPULSORY; c < GC_NCLASSES; c++)
			fprintf(f, SUBLABEL "%llu\n", gc_class_name(c), (unsigned long long)s->classes[c]);
		uint64_t odd = 0;
		for (int c = GC_NCLASSES; c < 8; c++)
			odd += s->classes[c];
		if (odd)
			fprintf(f, SUBLABEL "%llu\n", "unknown", (unsigned long long)odd);
		fprintf(f, LABEL "%llu\n", "write-backs", (unsigned long long)s->writebacks);
		fprintf(f, LABEL "%llu\n", "bypasses", (unsigned long long)s->bypasses);
	}
	if (s->by)
		report_rows(f, s);
}

/* --sum: "files", every stream added (the first is "input"). */
static void json_files(gc_json *j, const struct stats *s)
{
	if (!s->nfiles)
		return;
	gc_json_arr(j, "files");
	for (int i = 0; i < s->nfiles; i++)
		gc_json_str(j, NULL, s->files[i]);
	gc_json_close(j);
}

static void json(FILE *f, const struct stats *s, const char *input)
{
	const gc_header *h = s->h;
	static const char *const kinds[] = {NULL, "accesses", "requests", "dram"};
	static const char *const results[] = {"none", "hit", "sector_miss", "miss"};
	char buf[32];
	gc_json j;
	gc_json_begin(&j, f);
	gc_json_str(&j, "tool", "gc-stats");
	gc_json_str(&j, "input", input);
	json_files(&j, s);
	gc_json_str(&j, "kind", kinds[s->kind]);
	snprintf(buf, sizeof buf, "%u.%u", h->major, h->minor);
	gc_json_str(&j, "version", buf);
	gc_json_u64(&j, "record_size", h->record_size);
	gc_json_u64(&j, "required", h->required);
	gc_json_u64(&j, "optional", h->optional);
	gc_json_obj(&j, "header");
	for (int i = 0; i < h->nkv; i++)
		gc_json_str(&j, h->key[i], h->val[i]);
	gc_json_close(&j);
	gc_json_u64(&j, "stream_records", s->stream_records);
	gc_json_u64(&j, "stream_bytes", s->stream_bytes);
	gc_json_u64(&j, "kernel_count", s->nkerns);
	gc_json_u64(&j, "records", s->records);
	gc_json_u64(&j, "loads", s->ops[GC_LOAD]);
	gc_json_u64(&j, "stores", s->ops[GC_STORE]);
	gc_json_u64(&j, "atomics", s->ops[GC_ATOMIC]);
	if (s->prefetches || (s->h->optional & GC_OPT_PREFETCH))
		gc_json_u64(&j, "prefetches", s->prefetches);
	gc_json_obj(&j, "by_space");
	for (int sp = 0; sp < GC_NSPACES; sp++)
		gc_json_u64(&j, gc_space_name(sp), s->spaces[sp]);
	gc_json_close(&j);
	gc_json_u64(&j, "bytes", s->bytes);
	gc_json_u64(&j, "line_size", s->line_size);
	gc_json_u64(&j, "sector_size", s->sector_size);
	gc_json_u64(&j, "distinct_lines", s->distinct_lines);
	gc_json_u64(&j, "distinct_sectors", s->fp.sectors);
	if (s->records) {
		gc_json_u64(&j, "time_first", s->time_first);
		gc_json_u64(&j, "time_last", s->time_last);
	} else {
		gc_json_null(&j, "time_first");
		gc_json_null(&j, "time_last");
	}
	gc_json_bool(&j, "annotated", annotated(s));
	if (annotated(s)) {
		gc_json_u64(&j, "hits", s->results[GC_R_HIT]);
		gc_json_u64(&j, "misses", s->results[GC_R_SECTOR_MISS] + s->results[GC_R_MISS]);
		gc_json_obj(&j, "results");
		for (int r = 0; r < 4; r++)
			gc_json_u64(&j, results[r], s->results[r]);
		gc_json_close(&j);
		gc_json_obj(&j, "classes");
		for (int c = GC_C_COMPULSORY; c < GC_NCLASSES; c++)
			gc_json_u64(&j, gc_class_key(c), s->classes[c]);
		gc_json_close(&j);
		gc_json_u64(&j, "writebacks", s->writebacks);
		gc_json_u64(&j, "bypasses", s->bypasses);
	}
	gc_json_arr(&j, "kernels");
	for (size_t i = 0; i < s->nkerns; i++) {
		const gc_kernel *k = s->kerns[i].k;
		gc_json_obj(&j, NULL);
		gc_json_u64(&j, "id", k->id);
		gc_json_str(&j, "name", k->name);
		gc_json_arr(&j, "grid");
		for (int d = 0; d < 3; d++)
			gc_json_u64(&j, NULL, k->grid[d]);
		gc_json_close(&j);
		gc_json_arr(&j, "block");
		for (int d = 0; d < 3; d++)
			gc_json_u64(&j, NULL, k->block[d]);
		gc_json_close(&j);
		gc_json_u64(&j, "registers", k->regs);
		gc_json_u64(&j, "shmem", k->shmem);
		gc_json_obj(&j, "attributes");
		for (int a = 0; a < k->nattr; a++) {
			char an[16];
			gc_json_u64(&j, gc_csv_attr_name(k->attr_key[a], an), k->attr_val[a]);
		}
		gc_json_close(&j);
		gc_json_u64(&j, "records", s->kerns[i].records);
		gc_json_close(&j);
	}
	gc_json_close(&j);
	if (s->by) {
		gc_json_str(&j, "by", s->by == BY_PC && s->per_launch ? "pc+launch" : by_names[s->by]);
		gc_json_arr(&j, "breakdown");
		for (size_t i = 0; i < s->nrows; i++) {
			const struct row *r = &s->rows[i];
			gc_json_obj(&j, NULL);
			if (s->by == BY_SM)
				gc_json_u64(&j, "sm", r->key);
			else if (s->by == BY_WARP)
				gc_json_u64(&j, "kernel", r->kernel);
			else if (name_column(s))
				gc_json_str(&j, "kernel", gc_names_get(&s->names, r->name));
			if (s->by == BY_LAUNCH || (s->by == BY_PC && s->per_launch))
				gc_json_u64(&j, "launch", r->kernel);
			if (s->by == BY_PC) {
				char pc[24];
				snprintf(pc, sizeof pc, "0x%llx", (unsigned long long)r->key);
				gc_json_str(&j, "pc", pc);
				if (row_opcode(s, r))
					gc_json_str(&j, "opcode", row_opcode(s, r));
				else
					gc_json_null(&j, "opcode");
			}
			if (s->by == BY_WARP) {
				gc_json_u64(&j, "block", r->key >> 16);
				gc_json_u64(&j, "warp", r->key & 0xffff);
			}
			gc_json_u64(&j, "records", r->records);
			gc_json_u64(&j, "loads", r->ops[GC_LOAD]);
			gc_json_u64(&j, "stores", r->ops[GC_STORE]);
			gc_json_u64(&j, "atomics", r->ops[GC_ATOMIC]);
			gc_json_u64(&j, "bytes", r->bytes);
			if (annotated(s)) {
				gc_json_u64(&j, "hits", r->hits);
				gc_json_u64(&j, "misses", r->misses);
			}
			if (s->h->optional & GC_OPT_DISTANCE) {
				char med[48];
				dist_median(r, med, sizeof med);
				gc_json_u64(&j, "first_uses", r->dcold);
				if (dist_mean(r) < 0)
					gc_json_null(&j, "mean_distance");
				else
					gc_json_num(&j, "mean_distance", dist_mean(r));
				gc_json_str(&j, "median_distance", med);
			}
			gc_json_close(&j);
		}
		gc_json_close(&j);
	}
	gc_json_end(&j);
}

/* ---- --merge ----------------------------------------------------------------- */

/* The --stats files to one CSV table (report/statstable.h); nothing is
 * written before every file has been read. */
static void merge_main(const struct cmdline *cl)
{
	char err[8192];
	gc_statstable *T = gc_statstable_new(cl->longform, cl->arrays);
	if (!T)
		gc_die(GC_EXIT_DATA, "out of memory");
	for (int i = 0; i < cl->nfiles; i++) {
		size_t len;
		char *text = gc_read_text_file(cl->files[i], &len);
		if (gc_statstable_add(T, cl->files[i], text, len, err, sizeof err) < 0)
			gc_die(GC_EXIT_DATA, "%s", err);
		free(text);
	}
	FILE *out = gc_open_text(cl->c.out);
	gc_statstable_write(T, out);
	gc_close_text(out, cl->c.out);
	gc_statstable_free(T);
}

/* ---- --metrics, --compare ------------------------------------------------------ */

/* The stages' --stats files through report/metrics.h; nothing is
 * written before every file has been read. */
static void metrics_main(const struct cmdline *cl)
{
	char err[512];
	gc_metrics *M = gc_metrics_new();
	if (!M)
		gc_die(GC_EXIT_DATA, "out of memory");
	for (int i = 0; i < cl->nfiles; i++) {
		size_t len;
		char *text = gc_read_text_file(cl->files[i], &len);
		if (gc_metrics_add(M, cl->files[i], text, len, err, sizeof err) < 0)
			gc_die(GC_EXIT_DATA, "%s", err);
		free(text);
	}
	size_t clen = 0;
	char *csv = cl->compare ? gc_read_text_file(cl->compare, &clen) : NULL;
	/* the report is made in memory: an error leaves nothing written */
	char *buf = NULL;
	size_t blen = 0;
	FILE *mem = open_memstream(&buf, &blen);
	if (!mem)
		gc_die(GC_EXIT_DATA, "out of memory");
	int rc = csv ? gc_metrics_compare(M, cl->compare, csv, clen, mem, err, sizeof err)
	       : strcmp(cl->metrics, "ncu") == 0 ? gc_metrics_ncu(M, mem, err, sizeof err)
						 : gc_metrics_accelsim(M, mem, err, sizeof err);
	if (fclose(mem) != 0)
		gc_die(GC_EXIT_DATA, "out of memory");
	if (rc < 0)
		gc_die(GC_EXIT_DATA, "%s", err);
	FILE *out = gc_open_text(cl->c.out);
	fwrite(buf, 1, blen, out);
	gc_close_text(out, cl->c.out);
	free(buf);
	free(csv);
	gc_metrics_free(M);
}

/* ---- main ------------------------------------------------------------------ */

static void dump_check(gc_csv_out *d, int rc)
{
	if (rc < 0)
		gc_die(GC_EXIT_DATA, "%s", gc_csv_out_error(d));
}

/* ---- several streams ---------------------------------------------------- */

/* The footprint's counting ran out of memory: say what it was counting. */
static void footprint_check(const struct stats *s)
{
	if (s->fp.failed == GC_FP_NOMEM_GROUPS)
		gc_die(GC_EXIT_DATA, "out of memory (%zu sector groups)", gc_footprint_groups(&s->fp));
	if (s->fp.failed == GC_FP_NOMEM_LINES)
		gc_die(GC_EXIT_DATA, "out of memory (%zu distinct lines)",
		       gc_hset_count(&s->fp.wide_lines));
	if (s->fp.failed)
		gc_die(GC_EXIT_DATA, "out of memory");
}

/* Read stream r to its verified end into s (and the dump). */
static void read_into(struct stats *s, const struct cmdline *cl, gc_reader *r, gc_csv_out *dump)
{
	gc_rec rec;
	int fast = !dump && s->by == BY_NONE;
	size_t rs = gc_reader_header(r)->record_size;
	/* a file: reads of 512 KiB (a quarter of the system calls; the
	 * count keeps up with the copy) */
	if (fast && gc_reader_raw_size(r))
		gc_reader_set_chunk(r, 512u << 10);
	for (;;) {
		if (fast) {
			gc_block b;
			uint64_t before = gc_reader_records(r);
			if (gc_read_block(r, SIZE_MAX, &b))
				count_raw(s, r, &b, rs);
			if (gc_reader_records(r) != before) {
				footprint_check(s);
				if (cl->c.progress)
					gc_progress_reader_block(1, r);
				continue;
			}
		}
		int ev = gc_read(r, &rec);
		if (ev == GC_DATA) {
			count(s, &rec);
			footprint_check(s);
			if (dump)
				dump_check(dump, gc_csv_out_data(dump, &rec));
		} else if (ev == GC_KBEGIN) {
			kernel_begin(s, gc_reader_kernel(r));
			if (dump)
				dump_check(dump, gc_csv_out_kbegin(dump, gc_reader_kernel(r)));
		} else if (ev == GC_KEND) {
			kernel_end(s);
			if (gc_opmap_add(&s->opcodes, s->cur->k->name, gc_reader_opcodes(r)) < 0)
				gc_die(GC_EXIT_DATA, "out of memory");
			if (dump) {
				dump_check(dump, gc_csv_out_opcodes(dump, rec.kernel, gc_reader_opcodes(r)));
				dump_check(dump, gc_csv_out_kend(dump, rec.kernel, s->cur->records));
			}
		} else if (ev == GC_EOF) {
			break;
		} else {
			/* What was dumped so far goes out; it has no end line. */
			if (dump)
				gc_csv_out_flush(dump);
			gc_progress_end(cl->c.progress);
			gc_die(GC_EXIT_DATA, "%s", gc_reader_error(r));
		}
		if (cl->c.progress)
			gc_progress_reader(1, r);
	}
	gc_progress_end(cl->c.progress);
	fold_hist(s);
	s->stream_records += gc_reader_records(r) + 1;
	s->stream_bytes += gc_reader_bytes(r);
}

/* The totals once every stream has been read. */
static void stats_finish(struct stats *s)
{
	finish_rows(s);
	s->distinct_lines = gc_footprint_lines(&s->fp);
	s->results[GC_R_NONE] = s->records - s->results[GC_R_HIT] - s->results[GC_R_SECTOR_MISS] -
				s->results[GC_R_MISS];
}

static void stats_free(struct stats *s)
{
	for (size_t i = 0; i < s->nkerns; i++)
		free(s->kerns[i].k);
	free(s->kerns);
	free(s->rows);
	gc_footprint_free(&s->fp);
	gc_rowmap_free(&s->byrows);
	gc_names_free(&s->names);
	gc_opmap_free(&s->opcodes);
}

/* --sum: stream r adds to s only when it is of the first one's kind and
 * sizes; else a data error naming both. */
static void sum_check(const struct stats *s, const struct cmdline *cl, const gc_reader *r,
		      const char *first)
{
	int kind = gc_reader_header(r)->kind;
	if (kind != s->kind)
		gc_die(GC_EXIT_DATA, "%s: --sum: a stream of %s, but %s is of %s: only streams of "
		       "one kind add up", gc_reader_name(r), gc_kind_name(kind), first,
		       gc_kind_name(s->kind));
	uint64_t line = geometry(r, cl->line, "line_size", 128);
	uint64_t sector = geometry(r, cl->sector, "sector_size", 32);
	if (line != s->line_size || sector != s->sector_size)
		gc_die(GC_EXIT_DATA, "%s: --sum: %llu-byte lines and %llu-byte sectors, but %s "
		       "has %llu and %llu (--line and --sector set both)", gc_reader_name(r),
		       (unsigned long long)line, (unsigned long long)sector, first,
		       (unsigned long long)s->line_size, (unsigned long long)s->sector_size);
}

/* A text buffer: the reports are written only once every stream has been
 * read, so that a bad stream leaves nothing on the output. */
struct textbuf {
	FILE *f;
	char *p;
	size_t n;
};

static FILE *textbuf_open(struct textbuf *b)
{
	b->p = NULL;
	b->n = 0;
	b->f = open_memstream(&b->p, &b->n);
	if (!b->f)
		gc_die(GC_EXIT_DATA, "out of memory");
	return b->f;
}

/* The buffer's text to f (path: its name for messages), and freed. */
static void textbuf_put(struct textbuf *b, FILE *f, const char *path)
{
	if (fclose(b->f) != 0)
		gc_die(GC_EXIT_DATA, "out of memory");
	if (b->n && fwrite(b->p, 1, b->n, f) != b->n)
		gc_die(GC_EXIT_DATA, "%s: %s", path ? path : "stdout", strerror(errno));
	free(b->p);
}

/* Several streams (or --sum): each read in turn and reported into the
 * buffers (JSON: a list of objects, or one object for the sum). */
static void several(const struct cmdline *cl)
{
	struct textbuf out, st, verbose;
	struct stats s;
	int json_out = cl->mode == M_JSON, n = cl->nfiles;
	FILE *o = textbuf_open(&out);
	FILE *so = cl->c.stats ? textbuf_open(&st) : NULL;
	FILE *vo = cl->c.verbose && cl->mode != M_REPORT ? textbuf_open(&verbose) : NULL;
	gc_reader *first = NULL;
	int lists = !cl->sum;
	if (lists && json_out)
		fputs("[\n", o);
	if (lists && so)
		fputs("[\n", so);
	for (int i = 0; i < n; i++) {
		gc_reader *r = gc_open_stream(cl->files[i]);
		if (!cl->sum || i == 0) {
			stats_init(&s, cl, r);
			first = r;
			if (cl->sum) {
				s.files = cl->files;
				s.nfiles = n;
			}
		} else {
			sum_check(&s, cl, r, gc_reader_name(first));
		}
		read_into(&s, cl, r, NULL);
		if (cl->sum && i + 1 < n) {
			if (r != first)
				gc_reader_close(r);
			continue;
		}
		stats_finish(&s);
		const char *input = gc_reader_name(first);
		if (json_out)
			json(o, &s, input);
		else
			report(o, &s, input);
		if (lists && i + 1 < n)
			fputs(json_out ? ",\n" : "\n", o);
		if (vo)
			report(vo, &s, input);
		if (vo && lists && i + 1 < n)
			fputc('\n', vo);
		if (so) {
			json(so, &s, input);
			if (lists && i + 1 < n)
				fputs(",\n", so);
		}
		stats_free(&s);
		if (r != first)
			gc_reader_close(r);
		gc_reader_close(first);
	}
	if (lists && json_out)
		fputs("]\n", o);
	if (lists && so)
		fputs("]\n", so);
	FILE *f = gc_open_text(cl->c.out);
	textbuf_put(&out, f, cl->c.out);
	if (vo)
		textbuf_put(&verbose, stderr, "stderr");
	if (so) {
		FILE *sf = gc_open_text(cl->c.stats);
		textbuf_put(&st, sf, cl->c.stats);
		if (sf != f)
			gc_close_text(sf, cl->c.stats);
	}
	gc_close_text(f, cl->c.out);
}

int main(int argc, char **argv)
{
	struct cmdline cl;
	struct stats s;

	gc_prog_init("gc-stats", argc, argv);
	parse_cmdline(argc, argv, &cl);
	if (cl.mode == M_MERGE) {
		merge_main(&cl);
		return 0;
	}
	if (cl.mode == M_METRICS) {
		metrics_main(&cl);
		return 0;
	}
	if (cl.nfiles > 1 || (cl.sum && cl.nfiles)) {
		several(&cl);
		return 0;
	}
	gc_reader *r = gc_open_stream(cl.input);
	stats_init(&s, &cl, r);
	/* The report goes out (and -o FILE is made) only after the end. */
	FILE *out = NULL;
	gc_csv_out *dump = NULL;
	if (cl.mode == M_DUMP) {
		out = gc_open_text(cl.c.out);
		dump = gc_csv_out_open(out, cl.c.out && strcmp(cl.c.out, "-") != 0 ? cl.c.out
						: "stdout", s.h);
		if (!dump)
			gc_die(GC_EXIT_DATA, "out of memory");
	}
	read_into(&s, &cl, r, dump);
	stats_finish(&s);
	const char *input = gc_reader_name(r);
	show_header_keys = cl.c.verbose;

	if (!out)
		out = gc_open_text(cl.c.out);
	if (dump) {
		dump_check(dump, gc_csv_out_end(dump, gc_reader_records(r), s.records));
		dump_check(dump, gc_csv_out_flush(dump));
		gc_csv_out_free(dump);
	} else if (cl.mode == M_JSON) {
		json(out, &s, input);
	} else {
		report(out, &s, input);
	}
	if (cl.c.verbose && cl.mode != M_REPORT)
		report(stderr, &s, input);
	if (cl.c.stats) {
		FILE *f = gc_open_text(cl.c.stats);
		json(f, &s, input);
		if (f != out)
			gc_close_text(f, cl.c.stats);
	}
	gc_close_text(out, cl.c.out);

	stats_free(&s);
	gc_reader_close(r);
	return 0;
}
