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
 * One slice per memory sub-partition (l2.channels x l2.sub_partitions).
 * A line goes to the slice of its address under l2.mapping and
 * l2.partition_index (lib/config/addrmap.h); within the slice its set is the
 * set-index function of the partition address, and its tag the whole line
 * address.  All slices live in one gc_cache whose set s of slice k is set
 * k * sets + s.
 *
 * Sector states: invalid, partial (write-validate only: some bytes
 * written, which ones unknown; kept in the line's `aux` bits) and valid;
 * dirty is separate.  What each policy does is in gc-l2(1), DESCRIPTION.
 * When the input's times are cycles (gc-l1 --timing), a sector read from
 * DRAM stays pending for mem.dram_latency cycles (model/pending.h), and
 * a sector found pending counts as merged, not as a hit.
 */
#include "base/bits.h"
#include "config/addrmap.h"
#include "config/gpu.h"
#include "model/cache.h"
#include "model/l2map.h"
#include "model/prefetch.h"
#include "model/pending.h"
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

/* ---- the model ------------------------------------------------------------ */

enum { CAUSE_LOAD, CAUSE_ATOMIC, CAUSE_WRITE_FETCH, CAUSE_PARTIAL, CAUSE_PREFETCH, NRCAUSES };
static const char *const rcause[NRCAUSES] = {"load_miss", "atomic_miss", "write_fetch",
					     "partial_fetch", "prefetch"};
enum { WCAUSE_EVICT, WCAUSE_FLUSH, WCAUSE_THROUGH, WCAUSE_AROUND, NWCAUSES };
static const char *const wcause[NWCAUSES] = {"eviction", "flush", "write_through",
					     "write_around"};

/* Sectors: every sector of a request's mask is requested, and a hit when
 * it is present at the lookup (valid; for a store valid or partial), the
 * rule that makes the request a hit when all of them are. */
struct sector_stats {
	uint64_t requested, hits;
};

struct op_sectors;
struct slice_stats {
	uint64_t requests, hits, misses, dram_reads, dram_writes;
	struct sector_stats sec;
	struct op_sectors *op; /* [4], by operation */
};

/* Sectors of one operation (GC_LOAD, GC_STORE, GC_ATOMIC): requested;
 * hits as the model counts them (present at the lookup); line misses
 * (one a request that finds its line absent: GPGPU-Sim's MISS, its other
 * missing sectors being SECTOR_MISS); hits as the hardware counts them
 * (a store sector allocated without a DRAM read is a hit too). */
struct op_sectors {
	uint64_t requested, hits, line_misses, merged, hw_hits;
};

/* What a kernel's entry in "kernels" reports: the counters at its begin
 * and at its end (after the flush), differenced. */
struct kcounts {
	uint64_t requests, hits, sec_requested, sec_hits;
	uint64_t dram_reads, dram_read_bytes, dram_writes, dram_write_bytes;
	struct op_sectors op[4];
};

struct kstat {
	uint32_t id;
	char *name;
	struct kcounts n;
};

struct stats {
	struct op_sectors op[4];
	uint64_t requests, results[4];
	uint64_t ops[4], op_hits[4];
	uint64_t dram_reads, dram_read_bytes, dram_writes, dram_write_bytes;
	uint64_t read_records, write_records;
	uint64_t rd[NRCAUSES], wr[NWCAUSES];
	uint64_t evictions, dirty_evictions, kernels, flushes, dirty_left;
	struct sector_stats sec;
};

struct l2 {
	gc_gpu_config gpu;
	gc_l2map map;             /* slice and set of a line */
	gc_cache c;
	unsigned sets, nslices, line, sector, nsectors, lshift, sshift;
	int index, write, walloc, lazy, flush, emit_all;
	int top;                  /* --top, for the report */
	uint8_t *pbytes;          /* lazy: bytes written per partial sector (only
				   a sector whose partial bit is set has one) */
	gc_writer *w;
	uint64_t last_time;       /* the latest request's, for flush records */
	struct stats s;
	struct slice_stats *sl;
	int by_pc;                /* count pcs (--stats or -v) */
	gc_pctab pcs;             /* (kernel name, pc) -> requests, hits, misses */
	gc_opmap ops;             /* (kernel name, pc) -> opcode, for the table */
	struct kstat *ks;         /* the kernels so far, in order */
	size_t nks, kscap;
	struct kcounts kbase;     /* the counters at the open kernel's begin */
	gc_pf pf;                 /* l2.prefetch (model/prefetch.h), one for the L2 */
	gc_pf_counts pfc;         /* its prefetches and what became of them */
	uint64_t l1_prefetches;   /* requests that are L1's prefetches */
	uint8_t dram_flags;       /* GC_F_PREFETCH while a prefetch reads DRAM */
	uint64_t pf_lines[GC_PF_OUT_MAX]; /* --emit all: the last request's prefetches */
	unsigned npf_lines;
	gc_kunits kslices;        /* each kernel's sectors by slice */
	gc_pending pend;          /* timed: when fetched sectors arrive */
	uint64_t miss_latency;    /* timed: mem.dram_latency; 0: times are no cycles */
};

#define PARTIAL(l) ((uint8_t)((l)->aux & 0xffu))

static void die_write(const struct l2 *m)
{
	gc_die(GC_EXIT_DATA, "%s", gc_writer_error(m->w));
}

/* Bytes of sector i of a request of `bytes` over the k sectors of mask,
 * when it does not fill them: an even share, the remainder to the lowest. */
static unsigned share(unsigned bytes, unsigned k, unsigned rank)
{
	return bytes / k + (rank < bytes % k);
}

/* Emit one DRAM transaction on account of request r. */
static void dram(struct l2 *m, const gc_rec *r, int op, uint64_t line_addr, uint8_t mask,
		 unsigned bytes, uint8_t outcome, unsigned slice)
{
	unsigned n = gc_popcount8(mask);
	if (op == GC_LOAD) {
		m->s.dram_reads += n;
		m->s.dram_read_bytes += bytes;
		m->s.read_records++;
		m->sl[slice].dram_reads += n;
	} else {
		m->s.dram_writes += n;
		m->s.dram_write_bytes += bytes;
		m->s.write_records++;
		m->sl[slice].dram_writes += n;
	}
	if (m->emit_all || !m->w) /* --emit all, none */
		return;
	gc_rec d = *r;
	d.op = (uint8_t)op;
	/* a read for a prefetch (L1's or L2's own) is one too */
	d.flags = (uint8_t)(op == GC_LOAD ? (r->flags | m->dram_flags) & GC_F_PREFETCH : 0);
	d.lane = 0;
	d.outcome = outcome;
	d.mask = mask;
	d.size = (uint16_t)bytes;
	d.addr = line_addr;
	if (gc_write(m->w, &d) < 0)
		die_write(m);
}

/* The dirty sectors of line l and their bytes (partial ones as written). */
static unsigned dirty_bytes(const struct l2 *m, const gc_cline *l)
{
	uint8_t part = (uint8_t)(PARTIAL(l) & l->dirty);
	if (!part)
		return m->sector * gc_popcount8(l->dirty);
	unsigned bytes = 0;
	for (unsigned i = 0; i < m->nsectors; i++) {
		if (!(l->dirty >> i & 1))
			continue;
		if (part >> i & 1)
			bytes += m->pbytes[gc_cache_line_index(&m->c, l) * m->nsectors + i];
		else
			bytes += m->sector;
	}
	return bytes;
}

/* Write back line l's dirty sectors (if any) at a flush. */
static void write_back(struct l2 *m, const gc_rec *r, const gc_cline *l)
{
	if (!l->dirty)
		return;
	unsigned slice = (unsigned)((gc_cache_line_index(&m->c, l) / m->c.g.ways) / m->sets);
	m->s.wr[WCAUSE_FLUSH] += gc_popcount8(l->dirty);
	dram(m, r, GC_STORE, gc_cache_line_addr(&m->c, l), l->dirty, dirty_bytes(m, l),
	     GC_OUT_WRITEBACK, slice);
}

/* Mark sectors `secs` of l partially written by one request of `bytes`
 * over the sectors of `reqmask`. */
static void add_partial(struct l2 *m, gc_cline *l, uint8_t secs, uint8_t reqmask,
			unsigned bytes)
{
	uint8_t *pb = m->pbytes + gc_cache_line_index(&m->c, l) * m->nsectors;
	if (secs == reqmask && !(reqmask & (reqmask - 1))) { /* one sector: all the bytes */
		unsigned i = (unsigned)__builtin_ctz(reqmask);
		unsigned b = (PARTIAL(l) >> i & 1 ? pb[i] : 0) + bytes;
		pb[i] = (uint8_t)(b > m->sector ? m->sector : b);
		l->aux |= secs;
		return;
	}
	unsigned k = gc_popcount8(reqmask), rank = 0;
	unsigned q = bytes / k, r = bytes % k;
	for (unsigned i = 0; reqmask >> i; i++) {
		if (!(reqmask >> i & 1))
			continue;
		if (secs >> i & 1) {
			/* A sector becoming partial starts from 0 bytes; an even
			 * share of the request's bytes, the remainder to the lowest. */
			unsigned b = (PARTIAL(l) >> i & 1 ? pb[i] : 0) + q + (rank < r);
			pb[i] = (uint8_t)(b > m->sector ? m->sector : b);
		}
		rank++;
	}
	l->aux |= secs;
}

/* The dirty data of an evicted line, written after the fill's reads (as
 * GPGPU-Sim queues them). */
struct victim {
	uint64_t addr;
	uint8_t dirty;
	unsigned bytes;
};

/* Allocate a way of `set` to addr's line; the line it held, if dirty,
 * goes to *wb. */
static gc_cline *allocate(struct l2 *m, uint64_t addr, unsigned set, gc_cline *hint,
			  struct victim *wb)
{
	gc_cline *v = gc_cache_victim_hint(&m->c, set, hint);
	if (v->tag != GC_CACHE_NO_TAG) {
		m->s.evictions++;
		m->pfc.useless += v->pf;
		if (v->dirty) {
			m->s.dirty_evictions++;
			wb->addr = gc_cache_line_addr(&m->c, v);
			wb->dirty = v->dirty;
			wb->bytes = dirty_bytes(m, v);
		}
	}
	gc_cache_fill(&m->c, v, addr);
	if (m->miss_latency)
		gc_pending_clear(&m->pend, gc_cache_line_index(&m->c, v));
	return v;
}

/* Write the victim's dirty sectors, if any; 1 when there were some. */
static int evict_write(struct l2 *m, const gc_rec *r, const struct victim *wb, unsigned slice)
{
	if (!wb->dirty)
		return 0;
	m->s.wr[WCAUSE_EVICT] += gc_popcount8(wb->dirty);
	dram(m, r, GC_STORE, wb->addr, wb->dirty, wb->bytes, GC_OUT_WRITEBACK, slice);
	return 1;
}

/* Does this store write back (dirty) or through? */
static int writes_back(const struct l2 *m, const gc_rec *r)
{
	return m->write == GC_WRITE_BACK ||
	       (m->write == GC_WRITE_LOCAL_BACK && r->space == GC_LOCAL);
}

/* The slice of line address addr, and its set in the one cache of every
 * slice. */
static inline unsigned locate(const struct l2 *m, uint64_t addr, unsigned *slice)
{
	return gc_l2map_locate(&m->map, addr, slice);
}

/* Sectors `fetch` of line l are read from DRAM for request r: pending
 * until they arrive (timed input). */
static void fetched(struct l2 *m, const gc_rec *r, const gc_cline *l, uint8_t fetch)
{
	if (m->miss_latency)
		gc_pending_set(&m->pend, gc_cache_line_index(&m->c, l), fetch,
			       r->time + m->miss_latency);
}

/* The L2 prefetcher after load r of line addr (trigger: it missed or hit
 * a prefetched line): each line it names that is absent is read from
 * DRAM whole, with the prefetch flag, and filled marked as prefetched;
 * timed, its sectors are pending as a demand fill's are (fetched). */
static void l2_prefetch(struct l2 *m, const gc_rec *r, uint64_t addr, int trigger)
{
	uint64_t lines[GC_PF_OUT_MAX];
	unsigned n = gc_pf_access(&m->pf, r->pc, r->warp, addr >> m->lshift, trigger, lines);
	m->dram_flags = GC_F_PREFETCH;
	for (unsigned i = 0; i < n; i++) {
		uint64_t a = lines[i] << m->lshift;
		unsigned slice, set = locate(m, a, &slice);
		gc_cline *hint = NULL;
		if (gc_cache_probe(&m->c, a, set, &hint))
			continue;
		struct victim wb = {0, 0, 0};
		gc_cline *l = allocate(m, a, set, hint, &wb);
		l->valid = m->c.full_mask;
		l->pf = 1;
		fetched(m, r, l, m->c.full_mask);
		m->pfc.issued++;
		m->s.rd[CAUSE_PREFETCH] += m->nsectors;
		if (m->emit_all)
			m->pf_lines[m->npf_lines++] = a;
		dram(m, r, GC_LOAD, a, m->c.full_mask, m->line, GC_OUT_MAKE(GC_R_MISS, 0), slice);
		evict_write(m, r, &wb, slice);
	}
	m->dram_flags = 0;
}

/* --emit all: the prefetches request r caused, after it: loads of whole
 * lines with the prefetch flag, no compute field and no outcome (they are
 * no lookups of a request's). */
static void emit_prefetches(struct l2 *m, const gc_rec *r)
{
	for (unsigned i = 0; i < m->npf_lines; i++) {
		gc_rec d = *r;
		d.op = GC_LOAD;
		d.addr = m->pf_lines[i];
		d.mask = m->c.full_mask;
		d.size = (uint16_t)m->line;
		d.flags = (uint8_t)((d.flags & ~GC_F_BYPASS_L1) | GC_F_PREFETCH);
		d.outcome = 0;
		d.compute = 0;
		if (gc_write(m->w, &d) < 0)
			die_write(m);
	}
	m->npf_lines = 0;
}

/* A request's sectors (mask; `have` present at the lookup, `pend` of them
 * in flight; `absent`: its line was not there) in the counts o. */
static void count_sectors(struct op_sectors *o, uint8_t mask, uint8_t have, uint8_t pend,
			  int absent)
{
	o->requested += gc_popcount8(mask);
	o->hits += gc_popcount8(have) - gc_popcount8(pend);
	o->merged += gc_popcount8(pend);
	o->hw_hits += gc_popcount8(have);
	o->line_misses += (uint64_t)absent;
}

/* gc_cache_probe, its scan unrolled for the presets' 16 and 24 ways. */
static inline gc_cline *probe(struct l2 *m, uint64_t addr, unsigned set, gc_cline **hint)
{
	uint64_t tag = addr >> m->lshift;
	if (m->c.g.ways == 24)
		return gc_cache_probe_ways(&m->c, tag, set, hint, 24);
	if (m->c.g.ways == 16)
		return gc_cache_probe_ways(&m->c, tag, set, hint, 16);
	return gc_cache_probe_tag(&m->c, tag, set, hint);
}

/* One request: look up, update, emit.  Returns its outcome byte. */
static uint8_t l2_access(struct l2 *m, gc_rec *r, unsigned slice, unsigned set)
{
	uint8_t mask = r->mask;
	uint64_t addr = r->addr & ~(uint64_t)(m->line - 1);
	gc_cline *hint = NULL;
	gc_cline *l = probe(m, addr, set, &hint);
	struct victim wb = {0, 0, 0};
	int bypass = 0;

	int op = r->op;
	uint8_t valid = l ? l->valid : 0, part = l ? PARTIAL(l) : 0;
	uint8_t have = op == GC_STORE ? (uint8_t)((valid | part) & mask) : (uint8_t)(valid & mask);
	int res = have == mask ? GC_R_HIT : l ? GC_R_SECTOR_MISS : GC_R_MISS;

	/* sectors still on their way from DRAM are merged, not hits */
	uint8_t pend = m->miss_latency && l ? gc_pending_mask(&m->pend, gc_cache_line_index(&m->c, l),
							       have, r->time)
					     : 0;
	struct slice_stats *sl = &m->sl[slice];
	int pf_hit = l && l->pf;
	if (pf_hit) { /* a prefetched line used: late while its fill is on the way */
		l->pf = 0;
		if (pend)
			m->pfc.late++;
		else
			m->pfc.useful++;
	}
	m->l1_prefetches += (r->flags & GC_F_PREFETCH) != 0;
	m->s.requests++;
	m->s.results[res]++;
	m->s.ops[op]++;
	/* the sectors by slice only: settle() sums them */
	count_sectors(&sl->op[op & 3], mask, have, pend, !l);
	if (res == GC_R_HIT) {
		m->s.op_hits[op]++;
		sl->hits++;
	} else {
		sl->misses++;
	}
	uint8_t out = GC_OUT_MAKE(res, 0);

	if (op != GC_STORE) {
		/* Loads and atomics read: fetch what is not valid (partial
		 * sectors are fetched and merged), then an atomic writes. */
		if (!l)
			l = allocate(m, addr, set, hint, &wb);
		else
			gc_cache_touch(&m->c, l);
		uint8_t fetch = (uint8_t)(mask & ~l->valid);
		if (fetch) {
			uint8_t pf = (uint8_t)(fetch & PARTIAL(l));
			m->s.rd[CAUSE_PARTIAL] += gc_popcount8(pf);
			m->s.rd[op == GC_ATOMIC ? CAUSE_ATOMIC : CAUSE_LOAD] +=
				gc_popcount8(fetch & ~pf);
			dram(m, r, GC_LOAD, addr, fetch, m->sector * gc_popcount8(fetch),
			     out, slice);
			fetched(m, r, l, fetch);
			l->valid |= fetch;
			l->aux &= ~(uint32_t)fetch;
		}
		if (op == GC_ATOMIC) {
			if (writes_back(m, r)) {
				l->dirty |= mask;
			} else {
				unsigned bytes = r->size ? r->size : m->sector * gc_popcount8(mask);
				m->s.wr[WCAUSE_THROUGH] += gc_popcount8(mask);
				dram(m, r, GC_STORE, addr, mask, bytes, 0, slice);
			}
		}
		uint8_t o = (uint8_t)(out | (evict_write(m, r, &wb, slice) ? GC_OUT_WRITEBACK : 0));
		if (op == GC_LOAD && m->pf.p.kind != GC_PF_NONE)
			l2_prefetch(m, r, addr, res != GC_R_HIT || pf_hit);
		return o;
	}

	/* Stores. */
	unsigned k = gc_popcount8(mask);
	unsigned bytes = r->size ? r->size : m->sector * k;
	int full = bytes >= m->sector * k;
	int back = writes_back(m, r);
	if (!back) {
		m->s.wr[WCAUSE_THROUGH] += k;
		dram(m, r, GC_STORE, addr, mask, bytes, 0, slice);
	}
	if (m->write == GC_WRITE_EVICT) {
		/* Write-evict: the write goes on; the sectors it wrote leave. */
		if (l) {
			l->valid &= (uint8_t)~mask;
			l->aux &= ~(uint32_t)mask;
			if (!l->valid && !PARTIAL(l))
				gc_cache_invalidate(&m->c, l);
		}
		return (uint8_t)(out | GC_OUT_BYPASS);
	}
	if (m->walloc == GC_WALLOC_NONE) {
		/* Present sectors are written in the line; the rest go around. */
		uint8_t in = have, around = (uint8_t)(mask & ~have);
		if (around) {
			bypass = 1;
			if (back) {
				unsigned ab = 0, rank = 0;
				for (unsigned i = 0; i < m->nsectors; i++) {
					if (!(mask >> i & 1))
						continue;
					if (around >> i & 1)
						ab += full ? m->sector : share(bytes, k, rank);
					rank++;
				}
				m->s.wr[WCAUSE_AROUND] += gc_popcount8(around);
				dram(m, r, GC_STORE, addr, around, ab, GC_OUT_BYPASS, slice);
			}
		}
		if (in) {
			gc_cache_touch(&m->c, l);
			if (full) {
				l->valid |= in;
				l->aux &= ~(uint32_t)in;
			} else if (in & PARTIAL(l)) {
				add_partial(m, l, (uint8_t)(in & PARTIAL(l)), mask, bytes);
			}
			if (back)
				l->dirty |= in;
		}
		return (uint8_t)(out | (bypass ? GC_OUT_BYPASS : 0));
	}

	if (!l)
		l = allocate(m, addr, set, hint, &wb);
	else
		gc_cache_touch(&m->c, l);
	uint8_t missing = (uint8_t)(mask & ~l->valid & ~PARTIAL(l));
	uint8_t fetch = 0;
	if (m->walloc == GC_WALLOC_WRITE)
		fetch = missing; /* seed 003 Fig. 4: a write miss reads the sector first */
	else if (m->walloc == GC_WALLOC_FETCH_ON_WRITE && !full)
		fetch = missing;
	/* the hardware's write hit: allocated without reading DRAM */
	sl->op[GC_STORE].hw_hits += gc_popcount8(missing & ~fetch);
	if (fetch) {
		m->s.rd[CAUSE_WRITE_FETCH] += gc_popcount8(fetch);
		dram(m, r, GC_LOAD, addr, fetch, m->sector * gc_popcount8(fetch), out,
		     slice);
		fetched(m, r, l, fetch);
		l->valid |= fetch;
	}
	if (full) {
		l->valid |= mask;
		l->aux &= ~(uint32_t)mask;
	} else if (m->lazy) {
		/* Write-validate: unfetched sectors take the bytes, partially. */
		uint8_t p = (uint8_t)(mask & ~l->valid);
		if (p)
			add_partial(m, l, p, mask, bytes);
	}
	if (back)
		l->dirty |= mask;
	return (uint8_t)(out | (evict_write(m, r, &wb, slice) ? GC_OUT_WRITEBACK : 0));
}

/* Events are read AHEAD records in advance: a request's slice and set are
 * known, and its set's lines on their way into the processor's cache,
 * while the requests before it are modelled (the tags of a 6 MB L2 do not
 * fit a core's cache, and one request of lead is too little to hide the
 * next level's latency).  A kernel begin keeps a copy of its kernel: the
 * reader's is replaced by the next begin, which may come within AHEAD. */
#define AHEAD 8 /* a power of two */

struct event {
	int ev;
	gc_rec rec;
	unsigned slice, set;
	gc_kernel *k; /* GC_KBEGIN: this slot's copy */
	gc_optab ops; /* GC_KEND: this slot's copy of the kernel's opcodes */
};

/* A request's mask checked, as it is read (`back` records before the
 * reader's last), and its slice and set found. */
static void place(const struct l2 *m, const gc_reader *r, struct event *e, uint64_t back)
{
	uint8_t mask = e->rec.mask;
	if (!mask || (mask >> m->nsectors))
		gc_die_record_back(r, NULL, back, "field mask: 0x%x is not a set of the %u sectors "
				   "of a %u-byte line", mask, m->nsectors, m->line);
	e->set = locate(m, e->rec.addr & ~(uint64_t)(m->line - 1), &e->slice);
}

/* The data records of gc_read_raw's block not yet read into the ring. */
struct block {
	const unsigned char *p;
	size_t n, rs;
	uint64_t hi;
};

/* The next event: a data record from the block (another block when it
 * is used up), else gc_read's. */
static void read_event(struct l2 *m, gc_reader *r, struct block *b, struct event *e)
{
	if (!b->n)
		b->p = gc_read_raw(r, SIZE_MAX, &b->n, &b->hi);
	if (b->n) {
		gc_reader_decode(r, b->p, b->hi, &e->rec);
		b->p += b->rs;
		e->ev = GC_DATA;
		place(m, r, e, --b->n);
	} else {
		e->ev = gc_read(r, &e->rec);
		if (e->ev == GC_DATA)
			place(m, r, e, 0);
	}
	if (e->ev == GC_KBEGIN)
		memcpy(e->k, gc_reader_kernel(r), sizeof *e->k);
	if (e->ev == GC_KEND && gc_optab_copy(&e->ops, gc_reader_opcodes(r)) < 0)
		gc_die(GC_EXIT_DATA, "out of memory");
	if (e->ev != GC_DATA)
		return;
	gc_cache_prefetch(&m->c, e->rec.addr & ~(uint64_t)(m->line - 1), e->set);
	if (m->lazy && e->rec.op == GC_STORE) /* loads need it only to evict partial lines */
		__builtin_prefetch(m->pbytes + (size_t)e->set * m->c.g.ways * m->nsectors, 1);
}

/* --flush at kernel end: every dirty sector written back, every line
 * invalidated, in line order (slice, set, way). */
static void flush_all(struct l2 *m, uint32_t kernel)
{
	/* the latest request's time; dram() sets the fields that differ */
	gc_rec r = {.kernel = kernel, .space = GC_GLOBAL, .time = m->last_time};
	size_t n = gc_cache_nlines(&m->c);
	for (size_t i = 0; i < n; i++) {
		gc_cline *l = &m->c.lines[i];
		m->pfc.useless += l->tag != GC_CACHE_NO_TAG && l->pf;
		if (l->tag != GC_CACHE_NO_TAG)
			write_back(m, &r, l);
	}
	gc_cache_clear(&m->c);
	m->s.flushes++;
}

static uint64_t dirty_sectors(const struct l2 *m)
{
	uint64_t n = 0;
	for (size_t i = 0; i < gc_cache_nlines(&m->c); i++)
		if (m->c.lines[i].tag != GC_CACHE_NO_TAG)
			n += gc_popcount8(m->c.lines[i].dirty);
	return n;
}

/* ---- kernels ------------------------------------------------------------------ */

/* The sector counts of the whole L2 and each slice's totals, from the
 * slices' counts by operation (the only ones l2_access keeps). */
static void settle(struct l2 *m)
{
	memset(m->s.op, 0, sizeof m->s.op);
	m->s.sec = (struct sector_stats){0, 0};
	for (unsigned i = 0; i < m->nslices; i++) {
		struct slice_stats *p = &m->sl[i];
		p->requests = p->hits + p->misses;
		p->sec = (struct sector_stats){0, 0};
		for (int op = 0; op < 4; op++) {
			const struct op_sectors *o = &p->op[op];
			struct op_sectors *t = &m->s.op[op];
			p->sec.requested += o->requested;
			p->sec.hits += o->hits;
			t->requested += o->requested;
			t->hits += o->hits;
			t->line_misses += o->line_misses;
			t->merged += o->merged;
			t->hw_hits += o->hw_hits;
		}
		m->s.sec.requested += p->sec.requested;
		m->s.sec.hits += p->sec.hits;
	}
}

static void snapshot(struct l2 *m, struct kcounts *k)
{
	settle(m);
	const struct stats *s = &m->s;
	k->requests = s->requests;
	k->hits = s->results[GC_R_HIT];
	k->sec_requested = s->sec.requested;
	k->sec_hits = s->sec.hits;
	k->dram_reads = s->dram_reads;
	k->dram_read_bytes = s->dram_read_bytes;
	k->dram_writes = s->dram_writes;
	k->dram_write_bytes = s->dram_write_bytes;
	memcpy(k->op, s->op, sizeof k->op);
}

static void kernel_begin(struct l2 *m, const gc_kernel *k)
{
	if (m->nks == m->kscap) {
		m->kscap = m->kscap ? 2 * m->kscap : 16;
		m->ks = realloc(m->ks, m->kscap * sizeof *m->ks);
		if (!m->ks)
			gc_die(GC_EXIT_DATA, "out of memory");
	}
	struct kstat *e = &m->ks[m->nks++];
	memset(e, 0, sizeof *e);
	e->id = k->id;
	e->name = strdup(k->name);
	if (!e->name)
		gc_die(GC_EXIT_DATA, "out of memory");
	snapshot(m, &m->kbase);
}

/* The open kernel ends (its flush done): its counts are the difference. */
static void kernel_end(struct l2 *m)
{
	if (!m->nks)
		return;
	struct kcounts now;
	snapshot(m, &now);
	uint64_t *x = (uint64_t *)&now;
	const uint64_t *b = (const uint64_t *)&m->kbase;
	for (size_t i = 0; i < sizeof now / sizeof(uint64_t); i++)
		x[i] -= b[i];
	m->ks[m->nks - 1].n = now;
	snapshot(m, &m->kbase);
	for (unsigned i = 0; i < m->nslices; i++) {
		const struct op_sectors *o = m->sl[i].op;
		uint64_t v[GC_KU_WIDTH] = {0};
		for (int op = GC_LOAD, at = GC_KU_LOADS; op <= GC_STORE; op++, at = GC_KU_STORES) {
			v[at + GC_KU_REQUESTED] = o[op].requested;
			v[at + GC_KU_HITS] = o[op].hits;
			v[at + GC_KU_LINE_MISSES] = o[op].line_misses;
			v[at + GC_KU_MERGED] = o[op].merged;
		}
		if (gc_kunits_unit(&m->kslices, i, v) < 0)
			gc_die(GC_EXIT_DATA, "out of memory");
	}
	if (gc_kunits_kernel_end(&m->kslices) < 0)
		gc_die(GC_EXIT_DATA, "out of memory");
}

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

/* What the input's header says: whether its times are cycles, and that
 * it is a stream gc-l2 takes. */
static void check_input(struct l2 *m, const struct cmdline *cl, const gc_reader *r)
{
	/* Times are cycles when gc-l1's timing model wrote them. */
	const char *model = gc_header_get(gc_reader_header(r), "l1.model");
	if (model && strcmp(model, "timing") == 0 && m->gpu.perf.dram_latency) {
		m->miss_latency = m->gpu.perf.dram_latency;
		if (!cl->nsweep &&
		    gc_pending_init(&m->pend, gc_cache_nlines(&m->c), m->nsectors) < 0)
			gc_die(GC_EXIT_DATA, "out of memory");
	}
	const char *e = gc_header_get(gc_reader_header(r), "l1.emit");
	if (e && strcmp(e, "all") == 0)
		gc_die(GC_EXIT_DATA, "%s: header key l1.emit=all: this stream holds every request "
		       "gc-l1 saw, L1 hits too; gc-l2 reads what gc-l1 sends on (gc-l1 without "
		       "--emit all)", gc_reader_name(r));
	check_geometry(r, "line_size", m->line, "l2.line");
	check_geometry(r, "sector_size", m->sector, "l2.sector");
}

static void setup(struct l2 *m, const struct cmdline *cl, const gc_reader *r)
{
	char why[256];
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
	if (g->write == GC_WRITE_READ_ONLY)
		gc_die(GC_EXIT_USAGE, "l2.write read-only: gc-l2 needs a policy for stores "
		       "(write-back, write-through, write-evict, local-write-back)");
	gc_addrmap am;
	if (gc_addrmap_init(&am, g->mapping, g->channels, g->sub_partitions, g->pindex, why,
			    sizeof why) < 0)
		gc_die(GC_EXIT_USAGE, "l2.mapping: %s", why);
	if (gc_set_index_check(g->index, g->sets, g->line, why, sizeof why) < 0)
		gc_die(GC_EXIT_USAGE, "l2.index: %s", why);
	m->nslices = g->channels * g->sub_partitions;
	m->sets = g->sets;
	m->line = g->line;
	m->sector = g->sector;
	m->index = g->index;
	m->write = g->write;
	m->walloc = g->walloc;
	m->lazy = g->walloc == GC_WALLOC_LAZY_FETCH_ON_READ;
	m->flush = cl->flush < 0 ? g->kernel_flush : cl->flush;
	m->emit_all = cl->emit_all;
	m->by_pc = cl->c.stats || gc_report_wanted(&cl->c);
	m->top = cl->top;
	gc_pctab_init(&m->pcs);
	gc_opmap_init(&m->ops);
	m->lshift = gc_log2(m->line);
	m->sshift = gc_log2(m->sector);
	m->nsectors = m->line / m->sector;
	gc_l2map_init(&m->map, &am, m->index, m->sets, m->line);
	if ((uint64_t)m->nslices * m->sets > UINT32_MAX)
		gc_die(GC_EXIT_USAGE, "%u slices x %u sets is too many", m->nslices, m->sets);

	/* Every slice in one cache; the set index is ours (linear here). */
	gc_cache_geom geom = {
		.line = g->line, .sector = g->sector, .sets = m->nslices * m->sets,
		.ways = g->ways, .index = GC_INDEX_LINEAR, .repl = g->repl, .seed = 1,
	};
	if (cl->nsweep) { /* the sweep keeps its own stacks */
		if (gc_cache_geom_check(&geom, why, sizeof why) < 0)
			gc_die(GC_EXIT_USAGE, "L2: %s", why);
		check_input(m, cl, r);
		return;
	}
	if (gc_cache_init(&m->c, &geom, why, sizeof why) < 0)
		gc_die(GC_EXIT_USAGE, "L2: %s", why);
	if (m->lazy) {
		m->pbytes = calloc(gc_cache_nlines(&m->c), m->nsectors);
		if (!m->pbytes)
			gc_die(GC_EXIT_DATA, "out of memory");
	}
	m->sl = calloc(m->nslices, sizeof *m->sl);
	struct op_sectors *ops = calloc((size_t)m->nslices * 4, sizeof *ops);
	if (!m->sl || !ops)
		gc_die(GC_EXIT_DATA, "out of memory");
	gc_pf_params pp = {g->prefetch, g->pf_degree, g->pf_distance, g->pf_table, g->pf_window,
			   GC_ADDR48_MAX >> m->lshift};
	if (gc_pf_init(&m->pf, &pp, why, sizeof why) < 0)
		gc_die(GC_EXIT_USAGE, "L2: %s", why);
	for (unsigned i = 0; i < m->nslices; i++)
		m->sl[i].op = ops + 4 * (size_t)i;
	gc_kunits_init(&m->kslices, GC_KU_WIDTH);
	check_input(m, cl, r);
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
static void op_sectors(gc_json *j, const char *key, const struct op_sectors *o)
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
static void sectors(gc_json *j, const struct sector_stats *sec, const struct op_sectors *op)
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
	gc_pcrow *rows = gc_pctab_sorted(&m->pcs, n);
	if (!rows && *n)
		gc_die(GC_EXIT_DATA, "out of memory");
	return rows;
}

/* The load misses coverage counts (gc-l1(1), Prefetching): a late
 * prefetch's demand load found its sectors pending, a hit by result but
 * a miss of the latency class. */
static uint64_t pf_misses(const struct l2 *m)
{
	return m->s.ops[GC_LOAD] - m->s.op_hits[GC_LOAD] + m->pfc.late;
}

/* "kernels": a list, each kernel's counts from its begin to its end. */
static void json_kernels(gc_json *j, const struct l2 *m)
{
	gc_json_arr(j, "kernels");
	for (size_t i = 0; i < m->nks; i++) {
		const struct kstat *k = &m->ks[i];
		struct sector_stats sec = {k->n.sec_requested, k->n.sec_hits};
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
		if (gc_unitjson(j, "per_slice", "slice", &m->kslices, i) < 0)
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
	const struct stats *s = &m->s;
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
	for (int i = 0; i < NRCAUSES; i++)
		gc_json_u64(&j, rcause[i], s->rd[i]);
	gc_json_close(&j);
	gc_json_obj(&j, "dram_writes_by_cause");
	for (int i = 0; i < NWCAUSES; i++)
		gc_json_u64(&j, wcause[i], s->wr[i]);
	gc_json_close(&j);
	gc_json_u64(&j, "evictions", s->evictions);
	gc_json_u64(&j, "dirty_evictions", s->dirty_evictions);
	gc_json_u64(&j, "flushes", s->flushes);
	gc_json_u64(&j, "dirty_sectors_left", s->dirty_left);
	if (m->l1_prefetches || m->pf.p.kind != GC_PF_NONE)
		gc_json_u64(&j, "l1_prefetches", m->l1_prefetches);
	if (m->pf.p.kind != GC_PF_NONE) {
		gc_json_obj(&j, "prefetch");
		gc_json_str(&j, "kind", gc_gpu_format(&m->gpu, gc_gpu_key_find("l2.prefetch"), buf,
						      sizeof buf) < 0 ? "?" : buf);
		gc_json_u64(&j, "window", m->gpu.l2.pf_window);
		gc_json_u64(&j, "degree", m->gpu.l2.pf_degree);
		gc_json_u64(&j, "issued", m->pfc.issued);
		gc_json_u64(&j, "useful", m->pfc.useful);
		gc_json_u64(&j, "late", m->pfc.late);
		gc_json_u64(&j, "useless", m->pfc.useless);
		gc_json_num(&j, "accuracy", gc_pf_accuracy(&m->pfc));
		gc_json_num(&j, "coverage", gc_pf_coverage(&m->pfc, pf_misses(m)));
		gc_json_close(&j);
	}
	json_kernels(&j, m);
	size_t n;
	gc_pcrow *rows = sorted_pcs(m, &n);
	gc_pcreport_json(&j, &m->pcs, &m->ops, rows, n, (size_t)top);
	free(rows);
	gc_json_arr(&j, "per_slice");
	for (unsigned i = 0; i < m->nslices; i++) {
		const struct slice_stats *p = &m->sl[i];
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
	const struct stats *s = &m->s;
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
	if (m->pf.p.kind != GC_PF_NONE)
		fprintf(f, "gc-l2: prefetch: issued %llu, useful %llu, late %llu, useless %llu; "
			"accuracy %.4f, coverage %.4f\n", (unsigned long long)m->pfc.issued,
			(unsigned long long)m->pfc.useful, (unsigned long long)m->pfc.late,
			(unsigned long long)m->pfc.useless, gc_pf_accuracy(&m->pfc),
			gc_pf_coverage(&m->pfc, pf_misses(m)));
	size_t n;
	gc_pcrow *rows = sorted_pcs(m, &n);
	gc_pcreport_text(f, "gc-l2", &m->pcs, &m->ops, rows, n, (size_t)top);
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
	struct event e;
	for (;;) {
		e.ev = gc_read(r, &e.rec);
		if (e.ev == GC_DATA) {
			place(m, r, &e, 0);
			sweep_check(S, gc_waysweep_access_l2(S, &e.rec, e.set, gc_reader_records(r)));
		} else if (e.ev == GC_KBEGIN) {
			sweep_check(S, gc_waysweep_kernel_begin(S, gc_reader_kernel(r)));
		} else if (e.ev == GC_KEND) {
			sweep_check(S, gc_waysweep_kernel_end(S));
		} else if (e.ev == GC_EOF) {
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

	gc_prog_init("gc-l2", argc, argv);
	parse_cmdline(argc, argv, &cl);
	gc_reader *r = gc_open_stream(cl.input);
	gc_require_kind(r, GC_KIND_REQUEST);
	setup(&m, &cl, r);
	if (cl.nsweep) {
		run_sweep(&m, &cl, r);
		gc_pctab_free(&m.pcs);
		gc_opmap_free(&m.ops);
		gc_reader_close(r);
		return 0;
	}
	set_header(&h, &m, &cl, r);
	m.w = gc_open_output(&cl.c, &h);

	struct event ring[AHEAD];
	struct block blk = {NULL, 0, gc_reader_header(r)->record_size, 0};
	unsigned filled = 0, head = 0;
	int more = 1;
	for (int i = 0; i < AHEAD; i++) {
		ring[i].k = malloc(sizeof *ring[i].k);
		gc_optab_init(&ring[i].ops);
		if (!ring[i].k)
			gc_die(GC_EXIT_DATA, "out of memory");
	}
	for (;;) {
		/* Keep AHEAD events read, until the end or an error. */
		while (more && filled < AHEAD) {
			struct event *e = &ring[(head + filled) & (AHEAD - 1)];
			read_event(&m, r, &blk, e);
			filled++;
			more = e->ev != GC_EOF && e->ev != GC_ERR;
		}
		struct event *cur = &ring[head];
		if (cur->ev == GC_EOF)
			break;
		if (cur->ev == GC_ERR) {
			gc_progress_end(cl.c.progress);
			gc_die(GC_EXIT_DATA, "%s", gc_reader_error(r));
		}
		gc_rec *rec = &cur->rec;
		if (cur->ev == GC_DATA) {
			uint8_t out = l2_access(&m, rec, cur->slice, cur->set);
			if (m.by_pc) {
				unsigned res = GC_OUT_RESULT(out);
				if (gc_pctab_count(&m.pcs, rec->pc, res == GC_R_HIT,
						   res >= GC_R_SECTOR_MISS) < 0)
					gc_die(GC_EXIT_DATA, "out of memory");
			}
			m.last_time = rec->time;
			if (m.emit_all && m.w) {
				rec->outcome = out;
				if (gc_write(m.w, rec) < 0)
					die_write(&m);
				emit_prefetches(&m, rec);
			}
			m.npf_lines = 0;
		} else if (cur->ev == GC_KBEGIN) {
			m.s.kernels++;
			if (m.by_pc && gc_pctab_kernel(&m.pcs, cur->k->name) < 0)
				gc_die(GC_EXIT_DATA, "out of memory");
			kernel_begin(&m, cur->k);
			if (m.w && gc_write_kbegin(m.w, cur->k) < 0)
				die_write(&m);
		} else if (cur->ev == GC_KEND) {
			if (m.flush)
				flush_all(&m, rec->kernel);
			kernel_end(&m);
			if (m.by_pc && gc_opmap_add(&m.ops, gc_pctab_name(&m.pcs, m.pcs.cur),
						    &cur->ops) < 0)
				gc_die(GC_EXIT_DATA, "out of memory");
			if (m.w && (gc_write_opcodes(m.w, &cur->ops) < 0 ||
				    gc_write_kend(m.w, rec->kernel) < 0))
				die_write(&m);
		}
		if (cl.c.progress)
			gc_progress_reader(1, r);
		head = (head + 1) & (AHEAD - 1);
		filled--;
	}
	for (int i = 0; i < AHEAD; i++) {
		free(ring[i].k);
		gc_optab_free(&ring[i].ops);
	}
	gc_progress_end(cl.c.progress);
	m.s.dirty_left = dirty_sectors(&m);
	settle(&m);
	gc_close_output(m.w);
	gc_write_report(&cl.c, summary, &m);
	if (cl.c.stats) {
		FILE *f = gc_open_text(cl.c.stats);
		json(f, &m, gc_reader_name(r), cl.top);
		gc_close_text(f, cl.c.stats);
	}
	gc_header_free(&h);
	gc_cache_free(&m.c);
	gc_pf_free(&m.pf);
	gc_pctab_free(&m.pcs);
	gc_opmap_free(&m.ops);
	free(m.pbytes);
	if (m.sl)
		free(m.sl[0].op);
	free(m.sl);
	gc_kunits_free(&m.kslices);
	gc_pending_free(&m.pend);
	for (size_t i = 0; i < m.nks; i++)
		free(m.ks[i].name);
	free(m.ks);
	gc_reader_close(r);
	return 0;
}
